//! SVG: per corpus, median RSS against median wall time for each contender and checker
//! count with min-max whiskers on both axes, and beside it a panel of minor faults.
use plotters::prelude::*;

use super::{ExportError, Exporter};
use crate::contender::Contender;
use crate::results::{ResultSet, Results};

pub struct SvgExporter;

const PANEL_WIDTH: u32 = 640;
const PANEL_HEIGHT: u32 = 420;
const KIB_PER_MIB: f64 = 1024.0;

impl Exporter for SvgExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        render(results)
            .map(String::into_bytes)
            .map_err(|why| ExportError::Render { format: "SVG", why })
    }
}

/// What one point of the chart shows.
struct Point {
    contender: usize,
    checkers: usize,
    wall: [f64; 3],
    rss_mib: [f64; 3],
    faults: [f64; 3],
}

fn points(results: &Results, corpus: &str) -> Vec<Point> {
    let contenders = &results.settings.contenders;
    results
        .results
        .iter()
        .filter(|set| set.corpus == corpus)
        .filter_map(|set: &ResultSet| {
            let (median, min, max) = (set.median?, set.min?, set.max?);
            Some(Point {
                contender: contenders.iter().position(|&c| c == set.contender)?,
                checkers: set.checkers,
                wall: [median.wall_s, min.wall_s, max.wall_s],
                rss_mib: [median.rss_kib(), min.rss_kib(), max.rss_kib()].map(|k| k / KIB_PER_MIB),
                faults: [median.minor_faults, min.minor_faults, max.minor_faults],
            })
        })
        .collect()
}

/// A range around `values` with a margin, never empty.
fn padded(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((hi - lo) * 0.1).max(hi.abs() * 0.02).max(1e-9);
    (lo - pad).max(0.0)..hi + pad
}

fn render(results: &Results) -> Result<String, String> {
    let corpora: Vec<&String> = results
        .settings
        .corpora
        .iter()
        .filter(|corpus| {
            results
                .results
                .iter()
                .any(|set| &set.corpus == *corpus && set.median.is_some())
        })
        .collect();
    let mut svg = String::new();
    {
        let rows = corpora.len().max(1);
        let root = SVGBackend::with_string(&mut svg, (2 * PANEL_WIDTH, rows as u32 * PANEL_HEIGHT))
            .into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let panels = root.split_evenly((rows, 2));
        for (row, corpus) in corpora.iter().enumerate() {
            let points = points(results, corpus);
            rss_against_wall(&panels[2 * row], results, corpus, &points)?;
            faults(&panels[2 * row + 1], results, corpus, &points)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn colour(contender: usize) -> RGBColor {
    let c = Palette99::pick(contender).to_rgba();
    RGBColor(c.0, c.1, c.2)
}

fn rss_against_wall(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    results: &Results,
    corpus: &str,
    points: &[Point],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let x = padded(points.iter().flat_map(|p| p.wall));
    let y = padded(points.iter().flat_map(|p| p.rss_mib));
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{corpus}: median RSS against median wall"),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("wall s (min-max whiskers)")
        .y_desc("RSS MiB (VmHWM)")
        .draw()
        .map_err(err)?;
    for (index, contender) in results.settings.contenders.iter().enumerate() {
        let mine: Vec<&Point> = points.iter().filter(|p| p.contender == index).collect();
        if mine.is_empty() {
            continue;
        }
        let style = colour(index);
        chart
            .draw_series(mine.iter().flat_map(|p| {
                let [w, w_lo, w_hi] = p.wall;
                let [r, r_lo, r_hi] = p.rss_mib;
                [
                    PathElement::new(vec![(w_lo, r), (w_hi, r)], style),
                    PathElement::new(vec![(w, r_lo), (w, r_hi)], style),
                ]
            }))
            .map_err(err)?;
        chart
            .draw_series(
                mine.iter()
                    .map(|p| Circle::new((p.wall[0], p.rss_mib[0]), 4, style.filled())),
            )
            .map_err(err)?
            .label(contender.to_string())
            .legend(move |(x, y)| Circle::new((x, y), 4, style.filled()));
        chart
            .draw_series(mine.iter().map(|p| {
                Text::new(
                    format!("×{}", p.checkers),
                    (p.wall[0], p.rss_mib[0]),
                    ("sans-serif", 12).into_font().color(&style),
                )
            }))
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

fn faults(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    results: &Results,
    corpus: &str,
    points: &[Point],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let contenders: &[Contender] = &results.settings.contenders;
    let mut checker_counts: Vec<usize> = points.iter().map(|p| p.checkers).collect();
    checker_counts.sort_unstable();
    checker_counts.dedup();
    let y = padded(points.iter().flat_map(|p| p.faults).chain([0.0]));
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{corpus}: minor page faults"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..contenders.len() as f64 - 0.5, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(contenders.len().max(1))
        .x_label_formatter(&|x| {
            let index = x.round();
            if (x - index).abs() > 0.01 || index < 0.0 {
                return String::new();
            }
            contenders
                .get(index as usize)
                .map_or(String::new(), |c| c.to_string())
        })
        .y_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("median minor faults (min-max whiskers)")
        .draw()
        .map_err(err)?;
    let spread = 0.3 / checker_counts.len().max(1) as f64;
    for (k, &checkers) in checker_counts.iter().enumerate() {
        let style = Palette99::pick(k + 3).to_rgba();
        let style = RGBColor(style.0, style.1, style.2);
        let offset = (k as f64 - (checker_counts.len() as f64 - 1.0) / 2.0) * spread;
        let mine: Vec<&Point> = points.iter().filter(|p| p.checkers == checkers).collect();
        chart
            .draw_series(mine.iter().map(|p| {
                let x = p.contender as f64 + offset;
                PathElement::new(vec![(x, p.faults[1]), (x, p.faults[2])], style)
            }))
            .map_err(err)?;
        chart
            .draw_series(mine.iter().map(|p| {
                Circle::new(
                    (p.contender as f64 + offset, p.faults[0]),
                    4,
                    style.filled(),
                )
            }))
            .map_err(err)?
            .label(format!(
                "{checkers} checker{}",
                if checkers == 1 { "" } else { "s" }
            ))
            .legend(move |(x, y)| Circle::new((x, y), 4, style.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}
