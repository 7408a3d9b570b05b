//! The policy frontier (issue 18): per corpus, peak RSS against minor faults for every slice
//! policy and the other allocators, the adaptive policy's target check, and wall and sys time
//! as paired ratios to `slice-nohuge`. `compare policies --from FILE` prints it;
//! `--svg-dir DIR` draws one figure per corpus (`policies-<corpus>.svg`).
//!
//! Paired ratios: the bake-off runs every contender once per round in a rotating order, so a
//! round's runs share the machine's state of the moment. A contender's wall (or sys) ratio
//! is the median over rounds of its run's ratio to the baseline's run of the same round, with
//! a percentile bootstrap 95% interval that resamples rounds. On a shared machine this is
//! much narrower than a ratio of two independent medians.
use crate::contender::Contender;
use crate::results::{Results, Run};
use crate::stats::median;
use crate::table::{Table, count};

/// The adaptive policy's target: at most this share of `slice-hybrid`'s minor faults...
pub const FAULT_TARGET: f64 = 0.6;
/// ...with a peak RSS no larger than this contender's.
pub const RSS_REFERENCE: Contender = Contender::hybrid_at(4);
/// The contender the study looks for, drawn larger in the figure.
pub const ADAPTIVE: &str = "slice-adaptive";
const RESAMPLES: usize = 2000;
const SEED: u64 = 0x5eed_0018;

/// One contender in one cell: medians of its successful runs.
#[derive(Clone, Debug)]
pub struct Point {
    pub contender: Contender,
    pub checkers: usize,
    pub minor_faults: f64,
    pub rss_mib: f64,
    pub ok_runs: usize,
}

/// Every contender's point in every cell of `corpus`, in the settings' contender order.
pub fn points(results: &Results, corpus: &str) -> Vec<Point> {
    let mut out = Vec::new();
    for &checkers in &results.settings.checkers {
        for &contender in &results.settings.contenders {
            let runs = results.ok_runs(corpus, contender, checkers);
            let (Some(minor_faults), Some(rss_kib)) = (
                Results::median_over(&runs, |r| r.figures.minor_faults as f64),
                Results::median_over(&runs, |r| r.figures.rss_kib() as f64),
            ) else {
                continue;
            };
            out.push(Point {
                contender,
                checkers,
                minor_faults,
                rss_mib: rss_kib / 1024.0,
                ok_runs: runs.len(),
            });
        }
    }
    out
}

/// A paired ratio: median over rounds of contender / baseline, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
    pub rounds: usize,
}

/// The paired ratio of `get` between `contender` and `baseline` over the rounds both ran
/// successfully; `None` with fewer than 3 such rounds.
pub fn paired(contender: &[&Run], baseline: &[&Run], get: fn(&Run) -> f64) -> Option<Paired> {
    let logs: Vec<f64> = contender
        .iter()
        .filter_map(|c| {
            let b = baseline.iter().find(|b| b.round == c.round)?;
            let (x, y) = (get(c), get(b));
            (x > 0.0 && y > 0.0).then(|| (x / y).ln())
        })
        .collect();
    if logs.len() < 3 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut medians: Vec<f64> = (0..RESAMPLES)
        .filter_map(|_| {
            median(
                &(0..logs.len())
                    .map(|_| logs[rng.usize(..logs.len())])
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    medians.sort_by(f64::total_cmp);
    let at = |p: f64| medians[((p * medians.len() as f64) as usize).min(medians.len() - 1)];
    Some(Paired {
        ratio: median(&logs)?.exp(),
        low: at(0.025).exp(),
        high: at(0.975).exp(),
        rounds: logs.len(),
    })
}

fn paired_cell(p: Option<Paired>) -> String {
    p.map_or("-".into(), |p| {
        format!("{:.2} [{:.2}, {:.2}]", p.ratio, p.low, p.high)
    })
}

/// Per cell: every contender's faults, peak RSS and paired wall and sys ratios to the
/// baseline.
pub fn table(results: &Results, corpus: &str, checkers: usize) -> Table {
    let baseline = results.settings.baseline;
    let base_runs = results.ok_runs(corpus, baseline, checkers);
    let cell: Vec<Point> = points(results, corpus)
        .into_iter()
        .filter(|p| p.checkers == checkers)
        .collect();
    let hybrid = cell.iter().find(|p| p.contender == Contender::SLICE_HYBRID);
    let reference = cell.iter().find(|p| p.contender == RSS_REFERENCE);
    Table {
        header: [
            "contender",
            "minor faults",
            "/ hybrid",
            "peak RSS MiB",
            "- hybrid@4 MiB",
            "wall / nohuge, paired [95%]",
            "sys / nohuge, paired [95%]",
            "runs",
        ]
        .map(String::from)
        .to_vec(),
        rows: cell
            .iter()
            .map(|p| {
                let runs = results.ok_runs(corpus, p.contender, checkers);
                vec![
                    p.contender.to_string(),
                    count(p.minor_faults),
                    hybrid.map_or("-".into(), |h| {
                        format!("{:.2}", p.minor_faults / h.minor_faults)
                    }),
                    format!("{:.1}", p.rss_mib),
                    reference.map_or("-".into(), |r| format!("{:+.1}", p.rss_mib - r.rss_mib)),
                    paired_cell(paired(&runs, &base_runs, |r| r.figures.wall_s)),
                    paired_cell(paired(&runs, &base_runs, |r| r.figures.sys_s)),
                    p.ok_runs.to_string(),
                ]
            })
            .collect(),
    }
}

/// The adaptive target per cell: faults against `slice-hybrid`'s, peak RSS against
/// `slice-hybrid@4`'s.
pub fn target_table(results: &Results) -> Table {
    let mut rows = Vec::new();
    for corpus in &results.settings.corpora {
        let points = points(results, corpus);
        for &checkers in &results.settings.checkers {
            let find = |c: Contender| {
                points
                    .iter()
                    .find(|p| p.checkers == checkers && p.contender == c)
            };
            let (Some(a), Some(h), Some(r)) = (
                find(ADAPTIVE.parse().expect("a contender name")),
                find(Contender::SLICE_HYBRID),
                find(RSS_REFERENCE),
            ) else {
                continue;
            };
            let share = a.minor_faults / h.minor_faults;
            let met = share <= FAULT_TARGET && a.rss_mib <= r.rss_mib;
            rows.push(vec![
                corpus.clone(),
                checkers.to_string(),
                format!("{} / {}", count(a.minor_faults), count(h.minor_faults)),
                format!("{share:.2}"),
                format!("{:.1} / {:.1}", a.rss_mib, r.rss_mib),
                format!("{:+.1}", a.rss_mib - r.rss_mib),
                if met { "yes" } else { "no" }.into(),
            ]);
        }
    }
    Table {
        header: [
            "corpus",
            "checkers",
            "faults adaptive / hybrid",
            "share (<= 0.60)",
            "RSS MiB adaptive / hybrid@4",
            "difference",
            "met",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Figures, RunStatus};

    fn run(round: usize, wall_s: f64) -> Run {
        Run {
            round,
            status: RunStatus::Ok,
            digest: String::new(),
            figures: Figures {
                wall_s,
                ..Figures::default()
            },
            allocator: None,
            workload: None,
            workload_settings: Default::default(),
            covariates: Default::default(),
            kernel: None,
            memory: None,
        }
    }

    #[test]
    fn a_paired_ratio_cancels_what_a_round_shares() {
        // Every round is slower than the last (a machine getting busier); the contender is
        // always 10% faster than the baseline of its own round.
        let base: Vec<Run> = (0..9).map(|r| run(r, 1.0 + r as f64)).collect();
        let fast: Vec<Run> = (0..9).map(|r| run(r, 0.9 * (1.0 + r as f64))).collect();
        let p = paired(
            &fast.iter().collect::<Vec<_>>(),
            &base.iter().collect::<Vec<_>>(),
            |r| r.figures.wall_s,
        )
        .unwrap();
        assert!((p.ratio - 0.9).abs() < 1e-9);
        assert!((p.low - 0.9).abs() < 1e-9 && (p.high - 0.9).abs() < 1e-9);
        assert_eq!(p.rounds, 9);
    }

    #[test]
    fn rounds_without_a_baseline_run_are_left_out() {
        let base: Vec<Run> = (0..4).map(|r| run(r, 1.0)).collect();
        let other: Vec<Run> = (2..8).map(|r| run(r, 2.0)).collect();
        let p = paired(
            &other.iter().collect::<Vec<_>>(),
            &base.iter().collect::<Vec<_>>(),
            |r| r.figures.wall_s,
        );
        assert_eq!(p, None, "two shared rounds are too few");
    }
}
