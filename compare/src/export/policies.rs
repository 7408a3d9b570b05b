//! The policy frontier's figure (`compare policies --svg`): peak RSS against minor faults, one
//! point per contender and checker count, from what [`crate::studies::policies`] computes.
use plotters::prelude::*;

use super::svg::{log_ticks, padded_log};
use crate::contender::Contender;
use crate::results::Results;
use crate::studies::policies::{ADAPTIVE, Point, points};

/// The short name a point carries in the figure.
fn label(c: Contender) -> String {
    let name = c.to_string();
    name.strip_prefix("slice-")
        .map_or(name.clone(), str::to_owned)
}

const COLOURS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];

/// One figure: peak RSS against minor faults (both log scales), one point per contender and
/// checker count, the hybrid sweep (nohuge, 16, 8, 4, 2, huge) joined by a line.
pub fn figure(results: &Results, corpus: &str) -> Result<String, String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let points = points(results, corpus);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let x = padded_log(points.iter().map(|p| p.minor_faults));
        let y = padded_log(points.iter().map(|p| p.rss_mib));
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{corpus}: peak RSS against minor faults (medians)"),
                ("sans-serif", 18),
            )
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(
                x.clone().log_scale().with_key_points(log_ticks(&x)),
                y.clone().log_scale().with_key_points(log_ticks(&y)),
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc("minor faults (log scale)")
            .y_desc("peak RSS MiB, VmHWM (log scale)")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        let sweep = [
            "slice-nohuge",
            "slice-hybrid@16",
            "slice-hybrid",
            "slice-hybrid@4",
            "slice-hybrid@2",
            "slice-huge",
        ]
        .map(|name| name.parse::<Contender>().expect("a contender name"));
        for (k, &checkers) in results.settings.checkers.iter().enumerate() {
            let style = COLOURS[k % COLOURS.len()];
            let cell: Vec<&Point> = points.iter().filter(|p| p.checkers == checkers).collect();
            let line: Vec<(f64, f64)> = sweep
                .iter()
                .filter_map(|c| cell.iter().find(|p| p.contender == *c))
                .map(|p| (p.minor_faults, p.rss_mib))
                .collect();
            chart
                .draw_series([PathElement::new(line, style.mix(0.4))])
                .map_err(err)?
                .label(format!(
                    "{checkers} checker{} (line: the hybrid sweep)",
                    if checkers == 1 { "" } else { "s" }
                ))
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, style.filled()));
            for (index, p) in cell.iter().enumerate() {
                let adaptive = p.contender.to_string() == ADAPTIVE;
                let size = if adaptive { 7 } else { 4 };
                // Points of the sweep crowd together near nohuge: stagger their labels.
                let dy = 12 * (index as i32 % 4) - 18;
                let font = ("sans-serif", if adaptive { 13 } else { 11 })
                    .into_font()
                    .color(&style);
                chart
                    .draw_series([EmptyElement::at((p.minor_faults, p.rss_mib))
                        + Circle::new((0, 0), size, style.filled())
                        + Text::new(label(p.contender), (8, dy), font)])
                    .map_err(err)?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
