//! Memory over time: one SVG per cell (a corpus at a checker count), with one line per
//! contender, its median run by wall time: RSS solid, AnonHugePages dashed, against the
//! time since the run's spawn; the contender's other successful runs faint behind it. The
//! figures are written beside the Markdown report, which links them.
use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::svg::{colour, line_legend};
use crate::contender::Contender;
use crate::results::kernel::Timeline;
use crate::results::{ResultSet, Results, Run};

const PLOT_WIDTH: u32 = 760;
const LEGEND_WIDTH: u32 = 240;
const HEIGHT: u32 = 440;
const KIB_PER_MIB: f64 = 1024.0;

/// One cell's figure, written beside a Markdown report.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub corpus: String,
    pub checkers: usize,
    /// The file name, which is also the link from the report (same folder).
    pub file: String,
    pub path: PathBuf,
}

/// The figures beside the report at `markdown`: `<stem>-memory-<n>-<corpus>-<checkers>.svg`
/// for the n-th cell (from 1) with a sampled run, the corpus cut to letters, digits, `.`,
/// `-` and `_`. Cells without any (files from before the sampling) get none.
pub fn figures(results: &Results, markdown: &Path) -> Vec<Figure> {
    let mut figures = Vec::new();
    for &checkers in &results.settings.checkers {
        for corpus in &results.settings.corpora {
            let sampled = results
                .results
                .iter()
                .filter(|s| s.corpus == *corpus && s.checkers == checkers)
                .any(|s| median_run(s).is_some());
            if !sampled {
                continue;
            }
            let (file, path) = beside(
                markdown,
                &format!("memory-{}-{}-{checkers}", figures.len() + 1, slug(corpus)),
            );
            figures.push(Figure {
                corpus: corpus.clone(),
                checkers,
                path,
                file,
            });
        }
    }
    figures
}

/// A corpus's name cut to letters, digits, `.`, `-` and `_` (others become `_`), at most 40
/// characters: safe in a file name and a Markdown link.
pub fn slug(corpus: &str) -> String {
    corpus
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect()
}

/// The file name `<stem>-<name>.svg` beside the report at `markdown` (the report's stem,
/// `report` without one), and its path.
pub fn beside(markdown: &Path, name: &str) -> (String, PathBuf) {
    let stem = markdown
        .file_stem()
        .map_or("report".into(), |s| s.to_string_lossy());
    let dir = match markdown.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file = format!("{stem}-{name}.svg");
    let path = dir.join(&file);
    (file, path)
}

/// The successful runs of `set` that were sampled, and of those the median by wall time
/// (the lower of the middle two).
fn sampled(set: &ResultSet) -> Vec<&Run> {
    let mut runs: Vec<&Run> = set
        .ok()
        .filter(|r| r.memory.as_ref().is_some_and(|m| !m.samples.is_empty()))
        .collect();
    runs.sort_by(|a, b| a.figures.wall_s.total_cmp(&b.figures.wall_s));
    runs
}

/// The median run by wall time of `set` among its sampled successful runs.
pub fn median_run(set: &ResultSet) -> Option<&Run> {
    let runs = sampled(set);
    runs.get(runs.len().saturating_sub(1) / 2).copied()
}

fn mib_points(timeline: &Timeline, huge: bool) -> Vec<(f64, f64)> {
    timeline
        .samples
        .iter()
        .map(|s| {
            let kib = if huge { s.anon_huge_kib } else { s.rss_kib };
            (f64::from(s.t_ms) / 1000.0, kib as f64 / KIB_PER_MIB)
        })
        .collect()
}

/// The SVG of one cell.
pub fn render(results: &Results, corpus: &str, checkers: usize) -> Result<String, String> {
    let lines: Vec<(usize, Contender, Vec<&Run>)> = results
        .settings
        .entrants()
        .into_iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let runs = sampled(results.get(corpus, c, checkers)?);
            (!runs.is_empty()).then_some((i, c, runs))
        })
        .collect();
    let all = lines.iter().flat_map(|(_, _, runs)| runs.iter());
    let (mut x_max, mut y_max) = (0.1_f64, 1.0_f64);
    for run in all {
        for s in run.memory.iter().flat_map(|m| &m.samples) {
            x_max = x_max.max(f64::from(s.t_ms) / 1000.0);
            y_max = y_max.max(s.rss_kib as f64 / KIB_PER_MIB);
        }
    }
    let interval = lines
        .iter()
        .find_map(|(_, _, runs)| runs.first()?.memory.as_ref().map(|m| m.interval_ms))
        .unwrap_or(0);
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_WIDTH + LEGEND_WIDTH, HEIGHT))
            .into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend_area) = root.split_horizontally(PLOT_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption(
                format!(
                    "{}: memory over time (median run by wall)",
                    results.settings.cell_label(corpus, checkers)
                ),
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..x_max * 1.02, 0.0..y_max * 1.05)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc(format!("seconds since spawn (sampled every {interval} ms)"))
            .y_desc("MiB: RSS solid, AnonHugePages dashed")
            .draw()
            .map_err(err)?;
        for (index, _, runs) in &lines {
            let style = colour(*index);
            let median = runs[runs.len().saturating_sub(1) / 2];
            for run in runs.iter().filter(|r| !std::ptr::eq(**r, median)) {
                let Some(timeline) = &run.memory else {
                    continue;
                };
                chart
                    .draw_series(LineSeries::new(
                        mib_points(timeline, false),
                        style.mix(0.18),
                    ))
                    .map_err(err)?;
            }
            let Some(timeline) = &median.memory else {
                continue;
            };
            chart
                .draw_series(LineSeries::new(
                    mib_points(timeline, false),
                    style.stroke_width(2),
                ))
                .map_err(err)?;
            chart
                .draw_series(DashedLineSeries::new(
                    mib_points(timeline, true),
                    6,
                    4,
                    style.stroke_width(2),
                ))
                .map_err(err)?;
        }
        line_legend(
            &legend_area,
            "contender (runs)",
            lines
                .iter()
                .map(|(index, contender, runs)| (*index, format!("{contender} ({})", runs.len()))),
        )?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
