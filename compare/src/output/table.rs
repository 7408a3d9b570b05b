//! The bake-off table in the publication's shape: per checker count and corpus, each
//! contender against the baseline, paired round by round (wall, CPU, sys, RSS and minor
//! faults as geometric mean ratios with 95% intervals), the control's noise floor in the
//! title, and the absolute medians beside. The Markdown report prints every column; the
//! terminal, unless `--wide`, the figures a reader needs first within
//! [`TERMINAL_COLUMNS`] ([`Detail::Brief`]).
use std::fmt::Write as _;

use crate::results::calibration::{FaultCost, IDLE};
use crate::results::{Cell, ResultSet, Results};
use crate::stats::{self, Metric, Ratio};
pub use crate::table::{TERMINAL_COLUMNS, Table, count, interval, plural, signed, wrap};

/// One corpus at one checker count.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub title: String,
    pub table: Table,
}

const KIB_PER_MIB: f64 = 1024.0;

/// Which columns a bake-off table holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// What a reader needs first: wall with its interval and verdict, RSS, minor faults
    /// and the allocator, within [`TERMINAL_COLUMNS`]. The terminal's default.
    #[default]
    Brief,
    /// Every column: CPU and sys time, every interval, the absolute medians, huge pages,
    /// rounds and runs. The Markdown report's, and the terminal's with `--wide`.
    Wide,
}

/// One section per checker count and corpus (checker counts outermost, as the
/// publication groups them), each row a contender in the order asked for, then the
/// control, with the columns of `detail`.
pub fn sections(results: &Results, detail: Detail) -> Vec<Section> {
    let settings = &results.settings;
    let mut checker_counts = settings.checkers.clone();
    checker_counts.sort_unstable();
    checker_counts.dedup();
    let entrants = settings.entrants();
    let mut sections = Vec::new();
    for &checkers in &checker_counts {
        for corpus in &settings.corpora {
            let sets: Vec<&ResultSet> = entrants
                .iter()
                .filter_map(|&contender| results.get(corpus, contender, checkers))
                .collect();
            if sets.is_empty() {
                continue;
            }
            let baseline = results.get(corpus, settings.baseline, checkers);
            let cell = results.cell(corpus, checkers);
            sections.push(Section {
                title: format!(
                    "{} · baseline {}{}",
                    settings.cell_label(corpus, checkers),
                    settings.baseline,
                    cell.map_or(String::new(), |cell| cell_note(results, cell)),
                ),
                table: contender_table(&sets, baseline, settings.precision_for(corpus), detail),
            });
        }
    }
    sections
}

/// What the title says of a cell: its rounds, its control's noise floor, and whether
/// the control got a verdict.
fn cell_note(results: &Results, cell: &Cell) -> String {
    let mut note = format!(" · {} round{}", cell.rounds, plural(cell.rounds));
    if let Some(wall) = cell.control.as_ref().and_then(|c| c.wall) {
        match wall.half_width_pct {
            Some(h) => {
                let _ = write!(
                    note,
                    " · control (A/A) wall {} ±{h:.1}%",
                    signed(wall.percent())
                );
            }
            None => {
                let _ = write!(note, " · control (A/A) wall {}", signed(wall.percent()));
            }
        }
    } else if results.settings.control {
        note.push_str(" · control: no pair yet");
    }
    if !cell.unreliable.is_empty() {
        let _ = write!(
            note,
            " · UNRELIABLE: the A/A control got a verdict on {}",
            cell.unreliable.join(", ")
        );
    }
    note
}

/// `-1.3 [-4.1, +1.6]`, or `-` without a ratio.
fn ratio_cell(ratio: Option<Ratio>) -> String {
    match ratio {
        Some(r) => match interval(&r) {
            Some(interval) => format!("{} {interval}", signed(r.percent())),
            None => signed(r.percent()),
        },
        None => "-".to_string(),
    }
}

/// `-1.3`, or `-` without a ratio: the brief table's RSS and faults.
fn percent_cell(ratio: Option<Ratio>) -> String {
    ratio.map_or("-".to_string(), |r| signed(r.percent()))
}

/// The wall verdict, marked where the cell's control got a verdict on wall.
fn verdict_cell(wall: Option<Ratio>) -> String {
    match wall.and_then(|r| Some((r.verdict?, r.unreliable))) {
        Some((verdict, true)) => format!("{} (unreliable)", verdict.describe(Metric::Wall)),
        Some((verdict, false)) => verdict.describe(Metric::Wall).to_string(),
        None => "-".to_string(),
    }
}

/// Rounds paired with the baseline, and with a precision asked for that the row did not
/// reach, the rounds its spread says it needs: `20 (need 57)`.
fn rounds_cell(set: &ResultSet, precision_pct: Option<f64>) -> String {
    let Some(versus) = set.versus_baseline.as_ref() else {
        return set.runs.len().to_string();
    };
    let rounds = versus.wall.map_or(0, |w| w.rounds);
    match (precision_pct, versus.rounds_needed) {
        (Some(_), Some(needed)) => format!("{rounds} (need {needed})"),
        _ => rounds.to_string(),
    }
}

fn contender_table(
    sets: &[&ResultSet],
    baseline: Option<&ResultSet>,
    precision_pct: Option<f64>,
    detail: Detail,
) -> Table {
    let header: &[&str] = match detail {
        Detail::Brief => &[
            "contender",
            "wall % [95% CI]",
            "verdict",
            "RSS %",
            "faults %",
            "allocator",
        ],
        Detail::Wide => &[
            "contender",
            "wall % [95% CI]",
            "±%",
            "verdict",
            "CPU % [95% CI]",
            "sys % [95% CI]",
            "RSS % [95% CI]",
            "faults % [95% CI]",
            "minor faults",
            "wall s (min-max)",
            "RSS MiB",
            "huge MiB peak/end",
            "huge % RSS",
            "rounds",
            "ok",
            "allocator",
        ],
    };
    let base_faults = baseline.and_then(|b| b.median).map(|m| m.minor_faults);
    let rows = sets
        .iter()
        .map(|set| {
            let versus = set.versus_baseline.as_ref();
            let ratio = |metric| versus.and_then(|v| v.get(metric));
            let wall = ratio(Metric::Wall);
            let is_baseline = baseline.is_some_and(|b| std::ptr::eq(b, *set));
            let contender = if is_baseline {
                format!("{} (baseline)", set.contender)
            } else if set.contender.is_control() {
                format!("{} (control)", set.contender)
            } else {
                set.contender.to_string()
            };
            let allocator = set
                .allocator
                .as_ref()
                .map_or("-".to_string(), |a| a.describe());
            if detail == Detail::Brief {
                return vec![
                    contender,
                    ratio_cell(wall),
                    verdict_cell(wall),
                    percent_cell(ratio(Metric::Rss)),
                    percent_cell(ratio(Metric::MinorFaults)),
                    allocator,
                ];
            }
            let faults = match (set.median, base_faults) {
                (Some(m), Some(base)) if !is_baseline => {
                    format!("{} -> {}", count(base), count(m.minor_faults))
                }
                (Some(m), _) => count(m.minor_faults),
                (None, _) => "-".to_string(),
            };
            let absolute_wall = match (set.median, set.min, set.max) {
                (Some(med), Some(lo), Some(hi)) => {
                    format!("{:.3} ({:.3}-{:.3})", med.wall_s, lo.wall_s, hi.wall_s)
                }
                _ => "-".to_string(),
            };
            vec![
                contender,
                ratio_cell(wall),
                wall.and_then(|r| r.half_width_pct)
                    .map_or("-".to_string(), |h| format!("{h:.1}")),
                verdict_cell(wall),
                ratio_cell(ratio(Metric::Cpu)),
                ratio_cell(ratio(Metric::Sys)),
                ratio_cell(ratio(Metric::Rss)),
                ratio_cell(ratio(Metric::MinorFaults)),
                faults,
                absolute_wall,
                set.median.map_or("-".to_string(), |m| {
                    format!("{:.1}", m.rss_kib() / KIB_PER_MIB)
                }),
                set.median.map_or("-".to_string(), |m| {
                    format!(
                        "{:.0}/{:.0}",
                        m.anon_huge_peak_kib.max(m.anon_huge_kib) / KIB_PER_MIB,
                        m.anon_huge_kib / KIB_PER_MIB
                    )
                }),
                set.kernel
                    .as_ref()
                    .and_then(|k| k.huge_share)
                    .map_or("-".to_string(), |s| format!("{:.0}", 100.0 * s)),
                rounds_cell(set, precision_pct),
                format!("{}/{}", set.ok_runs, set.runs.len()),
                allocator,
            ]
        })
        .collect();
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// The fault cost probes, one line each: `4 KiB fault 0.61 µs [0.58, 0.64] · ...`.
pub fn calibration_lines(results: &Results) -> Vec<String> {
    let cost = |name: &str, c: &Option<FaultCost>| match c {
        Some(c) => format!(
            "{name} {} [{}, {}] ({} × {:.0} faults{})",
            micros(c.us),
            micros(c.low_us),
            micros(c.high_us),
            c.repetitions,
            c.faults,
            if name.contains("2 MiB") {
                format!(", {} MiB in huge pages", c.anon_huge_kib / 1024)
            } else {
                String::new()
            },
        ),
        None => format!("{name} not measured"),
    };
    results
        .calibrations
        .iter()
        .map(|c| {
            format!(
                "{} · {} · {} (CPU time per fault, mean [95% CI])",
                cost("4 KiB fault", &c.small),
                cost("2 MiB fault, recycled", &c.huge_recycled),
                cost(
                    &format!("2 MiB fault, fresh after {} s idle", IDLE.as_secs()),
                    &c.huge_fresh
                ),
            )
        })
        .collect()
}

/// `0.61 µs`, `2.6 ms`.
fn micros(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.2} µs")
    }
}

/// Beside each contender's median sys time, the sys time its faults predict at the
/// latest probe's costs (4 KiB faults, and its huge pages at the fresh 2 MiB cost).
pub fn fault_sys_table(results: &Results) -> Option<Table> {
    let calibration = results.calibrations.last()?;
    let mut rows = Vec::new();
    for section_corpus in &results.settings.corpora {
        for &checkers in &results.settings.checkers {
            for contender in results.settings.entrants() {
                let Some(set) = results.get(section_corpus, contender, checkers) else {
                    continue;
                };
                let Some(median) = set.median else { continue };
                let huge_kib = median.anon_huge_peak_kib.max(median.anon_huge_kib);
                let Some(predicted) = calibration.predicted_sys_s(median.minor_faults, huge_kib)
                else {
                    continue;
                };
                rows.push(vec![
                    section_corpus.clone(),
                    checkers.to_string(),
                    contender.to_string(),
                    count(median.minor_faults),
                    format!("{:.0}", huge_kib / 2048.0),
                    format!("{predicted:.3}"),
                    format!("{:.3}", median.sys_s),
                    format!("{:.0}%", 100.0 * predicted / median.sys_s.max(1e-9)),
                ]);
            }
        }
    }
    (!rows.is_empty()).then(|| Table {
        header: [
            "corpus",
            "checkers",
            "contender",
            "minor faults",
            "2 MiB pages",
            "predicted fault sys s",
            "measured sys s",
            "predicted / measured",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    })
}

/// Runs whose wall time lies more than 3 robust standard deviations (1.4826 MAD) from
/// their contender's median in the same cell, with what the machine did meanwhile.
pub fn standouts(results: &Results) -> Table {
    let mut rows = Vec::new();
    for set in &results.results {
        let walls: Vec<f64> = set.ok().map(|run| run.figures.wall_s).collect();
        let (Some(center), Some(spread)) = (stats::median(&walls), stats::mad(&walls)) else {
            continue;
        };
        if walls.len() < 5 || spread <= 0.0 {
            continue;
        }
        for run in set.ok() {
            let z = (run.figures.wall_s - center) / spread;
            if z.abs() <= 3.0 {
                continue;
            }
            let c = &run.covariates;
            rows.push(vec![
                set.corpus.clone(),
                set.checkers.to_string(),
                set.contender.to_string(),
                run.round.to_string(),
                format!(
                    "{:.3} ({:+.0}%)",
                    run.figures.wall_s,
                    100.0 * (run.figures.wall_s / center - 1.0)
                ),
                c.involuntary_switches.to_string(),
                c.steal_s.map_or("-".to_string(), |s| format!("{s:.2}")),
                c.env_padding_bytes.to_string(),
                format!("{:.0}", c.started_unix_s),
            ]);
        }
    }
    Table {
        header: [
            "corpus",
            "checkers",
            "contender",
            "round",
            "wall s (vs median)",
            "involuntary switches",
            "steal s",
            "env padding",
            "started (unix s)",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// Every run that was kept out of the summaries, and why.
pub fn failures(results: &Results) -> Table {
    let rows = results
        .results
        .iter()
        .flat_map(|set| {
            set.runs
                .iter()
                .filter(|run| !run.status.is_ok())
                .map(|run| {
                    vec![
                        set.corpus.clone(),
                        set.checkers.to_string(),
                        set.contender.to_string(),
                        run.round.to_string(),
                        run.status.to_string(),
                    ]
                })
        })
        .collect();
    Table {
        header: ["corpus", "checkers", "contender", "round", "why"]
            .map(String::from)
            .to_vec(),
        rows,
    }
}

/// One line per corpus whose digest changes with the checker count.
pub fn digest_notes(results: &Results) -> Vec<String> {
    results
        .digest_disagreements()
        .into_iter()
        .map(|(corpus, digests)| {
            let each: Vec<String> = digests
                .iter()
                .map(|(checkers, digest)| {
                    let short: String = digest.chars().take(12).collect();
                    format!("{short} at {checkers} checker{}", plural(*checkers))
                })
                .collect();
            format!(
                "{corpus}: the workload's digest changes with the checker count ({}); the \
                 checker's result should not depend on it (contenders are still compared \
                 within each checker count)",
                each.join(", ")
            )
        })
        .collect()
}
