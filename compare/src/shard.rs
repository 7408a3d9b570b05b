//! `--shard K/N`: one process's share of a plan, so that a bake-off larger than one machine
//! can be run by an existing job runner (GNU parallel, a Slurm array, a Kubernetes Indexed
//! Job) and joined again by `compare merge` ([`crate::merge`]).
//!
//! **A cell never spans shards**: a cell is one corpus at one checker count (of the plan's
//! one workload), and its paired rounds are only valid on one machine. Every shard reads
//! the whole plan and computes the same assignment from it alone (nothing of the machine
//! enters it), runs its own cells in the order and with the seed-derived round order and
//! layout padding of the unsharded plan, and records the assignment in its results file
//! beside the whole plan (`settings`) and the machine facts (`environment.machine`).
//!
//! **Cells are balanced by expected run time**: every cell of a plan runs the same entrants
//! for the same number of rounds at most, so a cell weighs what one of its runs is expected
//! to take ([`expected_run_s`]). The cells are dealt heaviest first, each to the shard with
//! the least expected time so far (ties: plan order, then the lower shard), which leaves
//! the shards' expected totals within one cell's weight of each other.
use crate::benchmark::runner;
pub use crate::results::shards::{CellShare, Shard, ShardRecord};
use crate::results::{Results, Settings};

/// Median wall seconds of one `slice-nohuge` run of the checker workload on this project's
/// 2-core machine: docs/results.json (`compare reproduce --seed 2071`, 40 rounds, revision
/// 805347e, playwright from its source tree). `synthetic` is the bake-off's own figure (about
/// 1.3 s a run while neighbours compile).
const CHECKER_RUN_S: Figures = &[
    ("synthetic", 1, 1.3),
    ("trpc", 1, 0.204),
    ("trpc", 8, 0.200),
    ("excalidraw", 1, 1.077),
    ("excalidraw", 8, 1.841),
    ("typeorm", 1, 0.715),
    ("typeorm", 8, 0.524),
    ("playwright", 1, 2.020),
    ("playwright", 8, 1.380),
    ("typescript", 1, 1.258),
    ("typescript", 8, 1.238),
];

/// Seconds of one `slice-nohuge` run of the tsc workload (one program, N checkers taking
/// turns, `--collect handback`) on this project's 2-core machine. At 1 checker: docs/RESULTS-tsc.md
/// (4 rounds, median wall); at 8, trpc and typeorm: the CPU time of runs under `handback`
/// (tsc/README.md; the machine was loaded, and a serialized run's wall on a quiet machine is its
/// CPU time); playwright from its sources (issue 39): the median CPU time of
/// docs/tsc-reproduce/playwright.json and playwright-8.json; excalidraw at 8 an estimate (one
/// run under `handover` on a loaded machine, 1,196 s, scaled to a quiet machine and halved as
/// `handback` halved trpc's and typeorm's); typescript at 8 under `handover`
/// (docs/tsc-reproduce/shard-2-of-4.json), not yet measured under `handback`.
const TSC_RUN_S: Figures = &[
    ("trpc", 1, 16.8),
    ("trpc", 8, 20.5),
    ("excalidraw", 1, 87.8),
    ("excalidraw", 8, 175.0),
    ("typeorm", 1, 64.7),
    ("typeorm", 8, 72.0),
    ("playwright", 1, 143.0),
    ("playwright", 8, 175.0),
    ("typescript", 1, 36.2),
    ("typescript", 8, 47.5),
];

/// Median wall seconds of one run by corpus and checker count.
type Figures = &'static [(&'static str, usize, f64)];

/// The measured figures by workload name; a workload without any weighs every cell alike.
const RUN_S: &[(&str, Figures)] = &[("checker", CHECKER_RUN_S), ("tsc", TSC_RUN_S)];

/// What a cell weighs when nothing is known of it (a corpus folder, a `--command`): all
/// such cells weigh alike, so a plan of them is dealt out by count.
const UNKNOWN_RUN_S: f64 = 1.0;

/// How the assignment estimates a run, in one line for reports.
pub const ESTIMATE: &str = "expected seconds a run: this project's measured medians (docs/results.json; \
     for tsc, docs/RESULTS-tsc.md and the 8-checker runs), the nearest measured checker count, 1 s \
     for a corpus folder or command";

/// The expected wall seconds of one run of `corpus` at `checkers` under `workload`: the
/// figure measured here for that corpus at the nearest measured checker count (the lower
/// one on a tie), [`UNKNOWN_RUN_S`] for anything else.
pub fn expected_run_s(settings: &Settings, corpus: &str, checkers: usize) -> f64 {
    if settings.command.is_some() {
        return UNKNOWN_RUN_S;
    }
    let nearest = |figures: &mut dyn Iterator<Item = (usize, f64)>| {
        figures
            .min_by_key(|&(n, _)| (n.abs_diff(checkers), n))
            .map(|(_, seconds)| seconds)
    };
    let figures = RUN_S
        .iter()
        .find(|(workload, _)| *workload == settings.workload.name())
        .map_or(&[][..], |(_, figures)| *figures);
    nearest(
        &mut figures
            .iter()
            .filter(|(name, _, _)| *name == corpus)
            .map(|&(_, n, s)| (n, s)),
    )
    .unwrap_or(UNKNOWN_RUN_S)
}

/// Every cell of the plan, in the order the plan measures them, with the shard of
/// `count` it is dealt to.
pub fn assign(settings: &Settings, count: usize) -> Vec<CellShare> {
    let mut cells: Vec<CellShare> = settings
        .corpora
        .iter()
        .flat_map(|corpus| {
            settings.checkers.iter().map(move |&checkers| CellShare {
                corpus: corpus.clone(),
                checkers,
                expected_run_s: expected_run_s(settings, corpus, checkers),
                shard: 0,
            })
        })
        .collect();
    let mut order: Vec<usize> = (0..cells.len()).collect();
    // Stable: equal weights keep plan order.
    order.sort_by(|&a, &b| cells[b].expected_run_s.total_cmp(&cells[a].expected_run_s));
    let mut load = vec![0.0_f64; count.max(1)];
    for i in order {
        let lightest = (0..load.len())
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .unwrap_or(0);
        load[lightest] += cells[i].expected_run_s;
        cells[i].shard = lightest + 1;
    }
    cells
}

/// The record of `shard`'s share of the plan, or why the plan cannot be split so: every
/// shard must get at least one cell.
pub fn record(settings: &Settings, shard: Shard) -> Result<ShardRecord, String> {
    let cells = assign(settings, shard.count);
    if shard.count > cells.len() {
        return Err(format!(
            "--shard {shard}: the plan has {} cell{} (corpus x checker count), so it splits into \
             at most {} shard{}",
            cells.len(),
            if cells.len() == 1 { "" } else { "s" },
            cells.len(),
            if cells.len() == 1 { "" } else { "s" },
        ));
    }
    Ok(ShardRecord {
        index: shard.index,
        count: shard.count,
        cells: cells
            .into_iter()
            .filter(|cell| cell.shard == shard.index)
            .collect(),
    })
}

/// The runs a cell takes at most: its rounds at most and its warm-ups, every entrant once.
pub fn runs_at_most(settings: &Settings) -> usize {
    (settings.max_rounds() + settings.warmup) * settings.entrants().len()
}

/// What `--dry-run` prints: the plan's cells, those this process would run, and what is
/// still pending in them. Runs nothing, opens no corpus, writes no file.
pub fn dry_run(results: &Results) -> String {
    use std::fmt::Write as _;
    let settings = &results.settings;
    let (shard, count) = match &results.shard {
        Some(record) => (record.shard(), record.count),
        None => (Shard { index: 1, count: 1 }, 1),
    };
    let cells = assign(settings, count);
    let pending = runner::pending(results);
    let at_most = runs_at_most(settings);
    let mut out = String::new();
    let mine: Vec<&CellShare> = cells.iter().filter(|c| c.shard == shard.index).collect();
    let total: f64 = mine.iter().map(|c| c.expected_run_s).sum::<f64>() * at_most as f64;
    let _ = writeln!(
        out,
        "shard {shard} runs {} of the plan's {} cell{} (corpus x checker count), about {:.0} s \
         at most ({ESTIMATE}; {} entrants, {} rounds at most and {} warm-up{} a cell):",
        mine.len(),
        cells.len(),
        if cells.len() == 1 { "" } else { "s" },
        total,
        settings.entrants().len(),
        settings.max_rounds(),
        settings.warmup,
        if settings.warmup == 1 { "" } else { "s" },
    );
    for cell in &mine {
        let index = settings.corpora.iter().position(|c| *c == cell.corpus);
        let left = pending
            .iter()
            .filter(|slot| Some(slot.corpus) == index && slot.checkers == cell.checkers)
            .count();
        let _ = writeln!(
            out,
            "  {}: ~{:.3} s a run, at most {at_most} runs, {left} pending now",
            settings.cell_label(&cell.corpus, cell.checkers),
            cell.expected_run_s,
        );
    }
    if count > 1 {
        let _ = writeln!(out, "the other shards:");
        for other in (1..=count).filter(|&k| k != shard.index) {
            let theirs: Vec<String> = cells
                .iter()
                .filter(|c| c.shard == other)
                .map(|c| settings.cell_label(&c.corpus, c.checkers))
                .collect();
            let _ = writeln!(out, "  {other}/{count}: {}", theirs.join(", "));
        }
    }
    let _ = writeln!(out, "nothing was run (--dry-run)");
    out
}
