//! SVG: per corpus, median RSS against median wall time for each contender and checker
//! count with min-max whiskers on both axes, and beside it a panel of minor faults; below,
//! where the results hold rows of the publication, our paired ratios with their intervals
//! beside the published changes.
//!
//! Both memory axes are logarithmic: one contender (slice-huge, +populate) can hold ten
//! times the memory of the others, and a linear axis would crush the rest into a corner.
//! **Every axis carries labels**: a logarithmic axis is labelled at round values inside its
//! range ([`log_ticks`]), not only at powers of ten, which a range of less than a decade misses.
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{ExportError, Exporter};
use crate::results::{ResultSet, Results};

pub struct SvgExporter;

const SCATTER_WIDTH: u32 = 560;
const LEGEND_WIDTH: u32 = 190;
const FAULTS_WIDTH: u32 = 560;
const ROW_HEIGHT: u32 = 420;
const KIB_PER_MIB: f64 = 1024.0;

/// Distinct colours (Tableau 10 and two more), one per contender.
const COLOURS: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 0),
    RGBColor(0, 90, 50),
];

/// Colours of the checker counts in the faults panel.
const CHECKER_COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

impl Exporter for SvgExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        render(results)
            .map(String::into_bytes)
            .map_err(|why| ExportError::Render { format: "SVG", why })
    }
}

/// What one point of the chart shows: median, min and max of each figure.
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

/// A linear range around `values` with a margin, never empty.
fn padded(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = bounds(values);
    let pad = ((hi - lo) * 0.1).max(hi.abs() * 0.02).max(1e-9);
    (lo - pad).max(0.0)..hi + pad
}

/// A range for a logarithmic axis: positive, with a margin of a tenth of a decade.
pub(crate) fn padded_log(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = bounds(values.filter(|v| *v > 0.0));
    let (lo, hi) = (lo.max(1e-3), hi.max(lo.max(1e-3) * 1.01));
    lo / 1.25..hi * 1.25
}

/// Where a logarithmic axis over `range` is labelled: the round values inside it, taken from
/// 1, 2, 5 times a power of ten, or from 1 to 9 times one where those give fewer than three,
/// or, in a range too narrow for either, two values near its ends with as few significant
/// digits as keep them apart and inside. Where the round values leave more than a third of
/// the axis unlabelled at an end (typescript's RSS: 650 to 1,625 MiB labelled only up to
/// 1,000), a value near that end is labelled too, with two significant digits.
pub(crate) fn log_ticks(range: &std::ops::Range<f64>) -> Vec<f64> {
    let (lo, hi) = (range.start.max(f64::MIN_POSITIVE), range.end);
    let mut ticks = round_log_ticks(lo, hi);
    let span = (hi / lo).log10();
    let two_digits = |v: f64| {
        let unit = 10f64.powi(v.log10().floor() as i32 - 1);
        (v / unit).round() * unit
    };
    let gap = |a: f64, b: f64| (b / a).log10() / span;
    if let (Some(&first), Some(&last)) = (ticks.first(), ticks.last()) {
        let top = two_digits(hi / 10f64.powf(0.12 * span));
        if gap(last, hi) > 1.0 / 3.0 && top < hi && gap(last, top) > 0.15 {
            ticks.push(top);
        }
        let bottom = two_digits(lo * 10f64.powf(0.12 * span));
        if gap(lo, first) > 1.0 / 3.0 && bottom > lo && gap(bottom, first) > 0.15 {
            ticks.insert(0, bottom);
        }
    }
    ticks
}

fn round_log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let inside = |mantissas: &[f64]| -> Vec<f64> {
        let first = lo.log10().floor() as i32;
        let last = hi.log10().ceil() as i32;
        (first..=last)
            .flat_map(|power| mantissas.iter().map(move |m| m * 10f64.powi(power)))
            .filter(|v| (lo..=hi).contains(v))
            .collect()
    };
    let coarse = inside(&[1.0, 2.0, 5.0]);
    if coarse.len() >= 3 {
        return coarse;
    }
    let fine = inside(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    if fine.len() >= 2 {
        return fine;
    }
    let near_ends = [lo + 0.15 * (hi - lo), hi - 0.15 * (hi - lo)];
    for digits in 2..=6 {
        let round = |v: f64| {
            let unit = 10f64.powi(v.log10().floor() as i32 + 1 - digits);
            (v / unit).round() * unit
        };
        let ends = near_ends.map(round);
        if ends[0] < ends[1] && ends.iter().all(|v| (lo..=hi).contains(v)) {
            return ends.to_vec();
        }
    }
    near_ends.to_vec()
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) }
}

pub(crate) fn colour(index: usize) -> RGBColor {
    COLOURS[index % COLOURS.len()]
}

/// A figure's legend in `area`: `title`, then one line per entry, a stroke of the entry's
/// [`colour`] and its text.
pub(crate) fn line_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    entries: impl Iterator<Item = (usize, String)>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let font = ("sans-serif", 12).into_font();
    let mut y = 48;
    area.draw(&Text::new(title.to_string(), (8, y - 22), font.clone()))
        .map_err(err)?;
    for (index, text) in entries {
        area.draw(&PathElement::new(
            vec![(8, y + 6), (28, y + 6)],
            colour(index).stroke_width(2),
        ))
        .map_err(err)?;
        area.draw(&Text::new(text, (34, y), font.clone()))
            .map_err(err)?;
        y += 18;
    }
    Ok(())
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
    let mut checker_counts: Vec<usize> = results.results.iter().map(|s| s.checkers).collect();
    checker_counts.sort_unstable();
    checker_counts.dedup();
    let beside = crate::studies::reproduce::beside_figures(results);
    let beside_rows = beside
        .iter()
        .map(|b| b.row.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let beside_height = if beside.is_empty() {
        0
    } else {
        BESIDE_MARGIN + BESIDE_ROW * beside_rows as u32
    };
    let mut svg = String::new();
    {
        let rows = corpora.len().max(1);
        let width = SCATTER_WIDTH + LEGEND_WIDTH + FAULTS_WIDTH;
        let root =
            SVGBackend::with_string(&mut svg, (width, rows as u32 * ROW_HEIGHT + beside_height))
                .into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (per_corpus, bottom) = root.split_vertically(rows as u32 * ROW_HEIGHT);
        if !beside.is_empty() {
            beside_publication(&bottom, &beside)?;
        }
        for (row, corpus) in per_corpus.split_evenly((rows, 1)).iter().zip(&corpora) {
            let (scatter, rest) = row.split_horizontally(SCATTER_WIDTH);
            let (legend_area, faults_area) = rest.split_horizontally(LEGEND_WIDTH);
            let points = points(results, corpus);
            rss_against_wall(&scatter, corpus, &points)?;
            legend(&legend_area, results, &checker_counts)?;
            faults(&faults_area, results, corpus, &points, &checker_counts)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

const BESIDE_ROW: u32 = 34;
const BESIDE_MARGIN: u32 = 90;
const OURS: RGBColor = RGBColor(31, 119, 180);
const PUBLISHED: RGBColor = RGBColor(214, 39, 40);

/// One panel per published figure (hybrid wall, RSS, faults; huge wall, RSS): for each
/// published row our paired ratio with its 95% interval (blue) and the published change
/// (red), so a reader sees at a glance where we agree with the publication.
fn beside_publication(
    area: &Area<'_>,
    beside: &[crate::studies::reproduce::Beside],
) -> Result<(), String> {
    let mut rows: Vec<&str> = Vec::new();
    for b in beside {
        if !rows.contains(&b.row.as_str()) {
            rows.push(&b.row);
        }
    }
    let mut figures: Vec<&str> = Vec::new();
    for b in beside {
        if !figures.contains(&b.figure) {
            figures.push(b.figure);
        }
    }
    let (title, panels) = area.split_vertically(28);
    title
        .titled(
            "beside the publication: ours (blue, 95% interval) and published (red), % change against slice-nohuge",
            ("sans-serif", 15),
        )
        .map_err(|e| e.to_string())?;
    let n = rows.len();
    for (index, (panel, figure)) in panels
        .split_evenly((1, figures.len()))
        .iter()
        .zip(&figures)
        .enumerate()
    {
        let first = index == 0;
        let of: Vec<&crate::studies::reproduce::Beside> =
            beside.iter().filter(|b| b.figure == *figure).collect();
        let values = of.iter().flat_map(|b| {
            let ours = b.ours.map(|r| {
                let (lo, hi) = r.percent_interval().unwrap_or((r.percent(), r.percent()));
                [r.percent(), lo, hi]
            });
            ours.into_iter().flatten().chain([b.published_pct, 0.0])
        });
        let (lo, hi) = bounds(values);
        let pad = ((hi - lo) * 0.08).max(1.0);
        let label_rows = rows.clone();
        let mut chart = ChartBuilder::on(panel)
            .caption(*figure, ("sans-serif", 14))
            .margin(6)
            .x_label_area_size(24)
            .y_label_area_size(if first { 90 } else { 8 })
            .build_cartesian_2d(lo - pad..hi + pad, -0.5..n as f64 - 0.5)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(n)
            .y_label_formatter(&|y: &f64| {
                let i = y.round();
                if first && (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                    label_rows[n - 1 - i as usize].to_string()
                } else {
                    String::new()
                }
            })
            .x_labels(5)
            .x_label_formatter(&|x: &f64| {
                if hi - lo < 6.0 {
                    format!("{x:+.1}")
                } else {
                    format!("{x:+.0}")
                }
            })
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
                BLACK.mix(0.4),
            )))
            .map_err(|e| e.to_string())?;
        for b in &of {
            let Some(i) = rows.iter().position(|r| *r == b.row) else {
                continue;
            };
            let y = (n - 1 - i) as f64;
            if let Some(ours) = b.ours {
                if let Some((low, high)) = ours.percent_interval() {
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(low, y + 0.12), (high, y + 0.12)],
                            OURS.stroke_width(2),
                        )))
                        .map_err(|e| e.to_string())?;
                }
                chart
                    .draw_series(std::iter::once(Circle::new(
                        (ours.percent(), y + 0.12),
                        4,
                        OURS.filled(),
                    )))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(std::iter::once(TriangleMarker::new(
                    (b.published_pct, y - 0.12),
                    5,
                    PUBLISHED.filled(),
                )))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

fn rss_against_wall(area: &Area<'_>, corpus: &str, points: &[Point]) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let x = padded(points.iter().flat_map(|p| p.wall));
    let y = padded_log(points.iter().flat_map(|p| p.rss_mib));
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{corpus}: median RSS against median wall"),
            ("sans-serif", 17),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y.clone().log_scale().with_key_points(log_ticks(&y)))
        .map_err(err)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc("wall s (min-max whiskers)")
        .y_desc("RSS MiB, VmHWM (log scale)")
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()
        .map_err(err)?;
    for p in points {
        let style = colour(p.contender);
        let [w, w_lo, w_hi] = p.wall;
        let [r, r_lo, r_hi] = p.rss_mib;
        chart
            .draw_series([
                PathElement::new(vec![(w_lo, r), (w_hi, r)], style),
                PathElement::new(vec![(w, r_lo), (w, r_hi)], style),
            ])
            .map_err(err)?;
        chart
            .draw_series([Circle::new((w, r), 4, style.filled())])
            .map_err(err)?;
        chart
            .draw_series([Text::new(
                format!("×{}", p.checkers),
                (w, r),
                ("sans-serif", 11).into_font().color(&style),
            )])
            .map_err(err)?;
    }
    Ok(())
}

/// The contenders' colours, then the checker counts' colours of the faults panel.
fn legend(area: &Area<'_>, results: &Results, checker_counts: &[usize]) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let font = ("sans-serif", 12).into_font();
    let line = 18;
    let mut y = 40;
    area.draw(&Text::new(
        "contender (×checkers)",
        (8, y - 20),
        font.clone(),
    ))
    .map_err(err)?;
    for (index, contender) in results.settings.contenders.iter().enumerate() {
        area.draw(&Circle::new((14, y + 6), 4, colour(index).filled()))
            .map_err(err)?;
        area.draw(&Text::new(contender.to_string(), (24, y), font.clone()))
            .map_err(err)?;
        y += line;
    }
    y += line;
    area.draw(&Text::new("faults panel", (8, y), font.clone()))
        .map_err(err)?;
    y += line;
    for (k, checkers) in checker_counts.iter().enumerate() {
        let style = CHECKER_COLOURS[k % CHECKER_COLOURS.len()];
        area.draw(&Circle::new((14, y + 6), 4, style.filled()))
            .map_err(err)?;
        let label = format!(
            "{checkers} checker{}",
            if *checkers == 1 { "" } else { "s" }
        );
        area.draw(&Text::new(label, (24, y), font.clone()))
            .map_err(err)?;
        y += line;
    }
    Ok(())
}

/// Median minor faults per contender (one row each), one dot per checker count.
fn faults(
    area: &Area<'_>,
    results: &Results,
    corpus: &str,
    points: &[Point],
    checker_counts: &[usize],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let contenders = &results.settings.contenders;
    let x = padded_log(points.iter().flat_map(|p| p.faults));
    let rows = contenders.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{corpus}: minor page faults"), ("sans-serif", 17))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(150)
        .build_cartesian_2d(
            x.clone().log_scale().with_key_points(log_ticks(&x)),
            -0.5..rows as f64 - 0.5,
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .disable_y_mesh()
        .y_labels(rows)
        .y_label_formatter(&|y| {
            let index = y.round();
            if (y - index).abs() > 0.01 || index < 0.0 {
                return String::new();
            }
            contenders
                .get(index as usize)
                .map_or(String::new(), |c| c.to_string())
        })
        .x_label_formatter(&|v| format!("{v:.0}"))
        .x_desc("median minor faults, min-max whiskers (log scale)")
        .draw()
        .map_err(err)?;
    let spread = 0.4 / checker_counts.len().max(1) as f64;
    for (k, &checkers) in checker_counts.iter().enumerate() {
        let style = CHECKER_COLOURS[k % CHECKER_COLOURS.len()];
        let offset = (k as f64 - (checker_counts.len() as f64 - 1.0) / 2.0) * spread;
        for p in points.iter().filter(|p| p.checkers == checkers) {
            let y = p.contender as f64 + offset;
            let [median, lo, hi] = p.faults;
            chart
                .draw_series([PathElement::new(vec![(lo, y), (hi, y)], style)])
                .map_err(err)?;
            chart
                .draw_series([Circle::new((median, y), 4, style.filled())])
                .map_err(err)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::log_ticks;

    #[test]
    fn a_log_axis_within_one_decade_is_labelled_at_three_round_values_or_more() {
        // trpc's RSS panel: 300 to 500 MiB, padded.
        let ticks = log_ticks(&(260.0..620.0));
        assert!(ticks.len() >= 3, "{ticks:?}");
        assert!(
            ticks.iter().all(|t| (260.0..=620.0).contains(t)),
            "{ticks:?}"
        );
        assert_eq!(ticks, [300.0, 400.0, 500.0, 600.0]);
    }

    #[test]
    fn a_log_axis_over_decades_is_labelled_at_one_two_and_five() {
        assert_eq!(
            log_ticks(&(30_000.0..250_000.0)),
            [50_000.0, 100_000.0, 200_000.0]
        );
    }

    #[test]
    fn a_log_axis_whose_round_values_leave_an_end_bare_is_labelled_near_that_end() {
        // typescript's RSS panel: 816 to 1,300 MiB, padded; 700 to 1,000 alone left the top
        // half unlabelled.
        let ticks = log_ticks(&(650.0..1625.0));
        assert_eq!(ticks, [700.0, 800.0, 900.0, 1000.0, 1500.0]);
        // Round values that reach both ends get nothing more.
        assert_eq!(log_ticks(&(260.0..620.0)), [300.0, 400.0, 500.0, 600.0]);
    }

    #[test]
    fn a_log_axis_too_narrow_for_round_values_is_labelled_at_its_ends() {
        let ticks = log_ticks(&(330.0..345.0));
        assert_eq!(ticks.len(), 2, "{ticks:?}");
        assert!(
            ticks.iter().all(|t| (330.0..=345.0).contains(t)),
            "{ticks:?}"
        );
    }
}
