//! How memory grows with the checker count: for a bake-off of two or more checker counts, one
//! SVG per corpus with two panels, peak RSS and minor faults against the checker count, one
//! line per contender through the medians of its successful runs; and a table of each
//! contender's slope (least squares: MiB and faults per added checker), so the allocators'
//! and the workloads' growth stand side by side. Written beside the Markdown report.
use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::memory::{beside, slug};
use super::svg::{colour, line_legend};
use crate::contender::Contender;
use crate::output::table::{Table, count};
use crate::results::Results;

const PANEL_WIDTH: u32 = 420;
const LEGEND_WIDTH: u32 = 300;
const HEIGHT: u32 = 400;

/// One corpus's figure, written beside a Markdown report.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub corpus: String,
    /// The file name, which is also the link from the report (same folder).
    pub file: String,
    pub path: PathBuf,
}

/// One contender's medians at one checker count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub checkers: usize,
    pub rss_mib: f64,
    pub faults: f64,
}

/// Which figure of a point a panel or column shows.
type Pick = fn(&Point) -> f64;

/// One contender's medians on one corpus at each checker count it has successful runs at, in
/// increasing checker count.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub contender: Contender,
    pub points: Vec<Point>,
}

impl Line {
    /// MiB of peak RSS per added checker (least squares); `None` below two checker counts.
    pub fn rss_slope(&self) -> Option<f64> {
        slope(self.points.iter().map(|p| (p.checkers as f64, p.rss_mib)))
    }

    /// Minor faults per added checker (least squares); `None` below two checker counts.
    pub fn fault_slope(&self) -> Option<f64> {
        slope(self.points.iter().map(|p| (p.checkers as f64, p.faults)))
    }
}

/// The least-squares slope of `points`; `None` unless two different x are among them.
pub fn slope(points: impl Iterator<Item = (f64, f64)> + Clone) -> Option<f64> {
    let n = points.clone().count() as f64;
    let (sx, sy) = points
        .clone()
        .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let (sxy, sxx) = points.fold((0.0, 0.0), |(sxy, sxx), (x, y)| {
        (sxy + (x - mx) * (y - my), sxx + (x - mx) * (x - mx))
    });
    (n >= 2.0 && sxx > 0.0).then(|| sxy / sxx)
}

/// Each contender's line on `corpus`, in the plan's order; contenders with successful runs
/// at fewer than two checker counts are left out.
pub fn lines(results: &Results, corpus: &str) -> Vec<(usize, Line)> {
    let mut counts = results.settings.checkers.clone();
    counts.sort_unstable();
    counts.dedup();
    results
        .settings
        .entrants()
        .into_iter()
        .enumerate()
        .filter_map(|(index, contender)| {
            let points: Vec<Point> = counts
                .iter()
                .filter_map(|&checkers| {
                    let runs = results.ok_runs(corpus, contender, checkers);
                    let rss = Results::median_over(&runs, |r| r.figures.rss_kib() as f64)?;
                    let faults = Results::median_over(&runs, |r| r.figures.minor_faults as f64)?;
                    Some(Point {
                        checkers,
                        rss_mib: rss / 1024.0,
                        faults,
                    })
                })
                .collect();
            (points.len() >= 2).then_some((index, Line { contender, points }))
        })
        .collect()
}

/// The figures beside the report at `markdown`: `<stem>-checkers-<n>-<corpus>.svg` for the
/// n-th corpus (from 1) where some contender has successful runs at two checker counts or
/// more; none for a bake-off of one checker count or a command bake-off.
pub fn figures(results: &Results, markdown: &Path) -> Vec<Figure> {
    if results.settings.command.is_some() {
        return Vec::new();
    }
    let mut figures = Vec::new();
    for corpus in &results.settings.corpora {
        if lines(results, corpus).is_empty() {
            continue;
        }
        let (file, path) = beside(
            markdown,
            &format!("checkers-{}-{}", figures.len() + 1, slug(corpus)),
        );
        figures.push(Figure {
            corpus: corpus.clone(),
            file,
            path,
        });
    }
    figures
}

/// A slope with its sign and `digits` decimals, `-` where there is none.
fn signed_slope(slope: Option<f64>, digits: usize) -> String {
    slope.map_or_else(|| "-".to_string(), |s| format!("{s:+.digits$}"))
}

/// The slopes of every contender on every corpus of `figures`.
pub fn slope_table(results: &Results, figures: &[Figure]) -> Table {
    let rows = figures
        .iter()
        .flat_map(|figure| {
            lines(results, &figure.corpus)
                .into_iter()
                .map(move |(_, line)| (figure.corpus.clone(), line))
        })
        .map(|(corpus, line)| {
            let at =
                |f: fn(&Point) -> String| line.points.iter().map(f).collect::<Vec<_>>().join(" / ");
            vec![
                corpus,
                line.contender.to_string(),
                at(|p| p.checkers.to_string()),
                at(|p| format!("{:.1}", p.rss_mib)),
                signed_slope(line.rss_slope(), 1),
                at(|p| count(p.faults)),
                signed_slope(line.fault_slope(), 0),
            ]
        })
        .collect();
    Table {
        header: [
            "corpus",
            "contender",
            "checkers",
            "peak RSS MiB",
            "MiB per checker",
            "minor faults",
            "faults per checker",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// The SVG of one corpus: peak RSS and minor faults against the checker count.
pub fn render(results: &Results, corpus: &str) -> Result<String, String> {
    let lines = lines(results, corpus);
    let x_max = lines
        .iter()
        .flat_map(|(_, l)| l.points.iter().map(|p| p.checkers))
        .max()
        .unwrap_or(1) as f64;
    let top = |pick: Pick| {
        lines
            .iter()
            .flat_map(|(_, l)| l.points.iter().map(pick))
            .fold(1.0_f64, f64::max)
            * 1.08
    };
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let workload = results.settings.workload;
    let label = if workload.is_default() {
        corpus.to_string()
    } else {
        format!("{corpus} · {workload}")
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (2 * PANEL_WIDTH + LEGEND_WIDTH, HEIGHT))
            .into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plots, legend_area) = root.split_horizontally(2 * PANEL_WIDTH);
        let (left, right) = plots.split_horizontally(PANEL_WIDTH);
        let panels: [(_, &str, Pick); 2] = [
            (left, "peak RSS, MiB", |p| p.rss_mib),
            (right, "minor faults", |p| p.faults),
        ];
        for (area, what, pick) in panels {
            let mut chart = ChartBuilder::on(&area)
                .caption(format!("{label}: {what} (median)"), ("sans-serif", 15))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(64)
                .build_cartesian_2d(0.0..x_max * 1.05, 0.0..top(pick))
                .map_err(err)?;
            chart
                .configure_mesh()
                .light_line_style(WHITE)
                .x_desc("checkers")
                .y_desc(what)
                .draw()
                .map_err(err)?;
            for (index, line) in &lines {
                let style = colour(*index);
                let points: Vec<(f64, f64)> = line
                    .points
                    .iter()
                    .map(|p| (p.checkers as f64, pick(p)))
                    .collect();
                chart
                    .draw_series(LineSeries::new(points.clone(), style.stroke_width(2)))
                    .map_err(err)?;
                chart
                    .draw_series(
                        points
                            .into_iter()
                            .map(|p| Circle::new(p, 3, style.filled())),
                    )
                    .map_err(err)?;
            }
        }
        line_legend(
            &legend_area,
            "contender: MiB, faults per checker",
            lines.iter().map(|(index, line)| {
                let text = format!(
                    "{}: {}, {}",
                    line.contender,
                    signed_slope(line.rss_slope(), 1),
                    signed_slope(line.fault_slope(), 0)
                );
                (*index, text)
            }),
        )?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slope_of_a_straight_line_is_its_rise_per_step() {
        let points = [(1.0, 100.0), (2.0, 130.0), (4.0, 190.0), (8.0, 310.0)];
        assert_eq!(slope(points.into_iter()), Some(30.0));
    }

    #[test]
    fn one_checker_count_has_no_slope() {
        assert_eq!(slope([(1.0, 5.0)].into_iter()), None);
        assert_eq!(slope([(2.0, 5.0), (2.0, 7.0)].into_iter()), None);
    }
}
