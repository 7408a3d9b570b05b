//! The bake-off loop: runs the schedule cell by cell (a corpus at a checker count), round
//! by round until the cell's stopping rule is met, judges each child, and writes every
//! export after every recorded run.
//!
//! **A finished run is never lost**: it is recorded and the exports are rewritten
//! (atomically) before the next child starts, and an interrupted run is discarded rather
//! than recorded half-measured.
use std::sync::atomic::{AtomicBool, Ordering};

use crate::benchmark::launcher::{Launcher, Request};
use crate::benchmark::layout;
use crate::benchmark::measure::{self, Exit};
use crate::benchmark::quiet::QuietGate;
use crate::benchmark::schedule::{self, Group, Slot};
use crate::export::{ExportError, Outputs};
use crate::output::progress::Progress;
use crate::results::{Results, Run, RunStatus};

/// How a bake-off ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every scheduled run is recorded.
    Finished,
    /// Stopped by the user; the runs finished before are kept.
    Interrupted,
}

/// What the loop needs besides the results it fills.
pub struct Runner<'a> {
    pub launcher: &'a dyn Launcher,
    /// Set by the Ctrl-C handler.
    pub stop: &'a AtomicBool,
    pub outputs: &'a Outputs,
    pub progress: &'a Progress,
    /// Waits for a quiet machine before each run; `None`: off.
    pub gate: Option<QuietGate>,
}

/// The runs known to be still needed, in order: for each corpus and checker count with
/// work left, its warm-ups, then the missing runs of the rounds it needs now. With a
/// fixed number of rounds that is all of them; with a precision, the rounds up to
/// `min_runs`, then one round at a time while an interval is still too wide (so a cell
/// stopped on precision can add rounds after these).
pub fn pending(results: &Results) -> Vec<Slot> {
    groups(results)
        .into_iter()
        .flat_map(|group| pending_in(results, group))
        .collect()
}

/// The corpus and checker count pairs of the plan, in the order they are measured; of a
/// shard (`--shard`), only those dealt to it.
fn groups(results: &Results) -> Vec<Group> {
    let settings = &results.settings;
    (0..settings.corpora.len())
        .flat_map(|corpus| {
            settings
                .checkers
                .iter()
                .map(move |&checkers| Group { corpus, checkers })
        })
        .filter(|group| {
            results
                .shard
                .as_ref()
                .is_none_or(|shard| shard.holds(&settings.corpora[group.corpus], group.checkers))
        })
        .collect()
}

/// The rounds a cell needs, as far as its runs so far tell: the stopping rule. **It looks
/// at the width of the intervals only**, never at whether a verdict appeared (stopping
/// on a verdict would inflate false verdicts), and only once every started round is whole.
pub fn rounds_needed_now(results: &Results, group: Group) -> usize {
    let settings = &results.settings;
    let corpus = &settings.corpora[group.corpus];
    let started = results.rounds_started(corpus, group.checkers);
    let Some(precision) = settings.precision_for(corpus) else {
        return settings.min_runs;
    };
    if started < settings.min_runs {
        return settings.min_runs;
    }
    let complete = (0..started).all(|round| missing(results, group, round).next().is_none());
    if !complete || started >= settings.max_rounds() {
        return started;
    }
    if results.is_precise(corpus, group.checkers, precision) {
        started
    } else {
        started + 1
    }
}

/// The entrants of `round` in `group` that have no recorded run of it, in round order.
fn missing(results: &Results, group: Group, round: usize) -> impl Iterator<Item = Slot> + '_ {
    let settings = &results.settings;
    let corpus = &settings.corpora[group.corpus];
    schedule::round_slots(&settings.entrants(), settings.seed, group, round, false).filter(
        move |slot| {
            results
                .get(corpus, slot.contender, group.checkers)
                .is_none_or(|set| set.runs.iter().all(|run| run.round != round))
        },
    )
}

fn pending_in(results: &Results, group: Group) -> Vec<Slot> {
    let settings = &results.settings;
    let rounds = rounds_needed_now(results, group);
    let measured: Vec<Slot> = (0..rounds)
        .flat_map(|round| missing(results, group, round))
        .collect();
    if measured.is_empty() {
        return measured;
    }
    (0..settings.warmup)
        .flat_map(|round| {
            schedule::round_slots(&settings.entrants(), settings.seed, group, round, true)
        })
        .chain(measured)
        .collect()
}

/// The most runs still to come: every cell to `max_runs` rounds (or its fixed rounds),
/// warm-ups of cells with work left included.
fn upper_bound(results: &Results) -> usize {
    let settings = &results.settings;
    let entrants = settings.entrants().len();
    groups(results)
        .into_iter()
        .map(|group| {
            let now = pending_in(results, group).len();
            if now == 0 {
                return 0;
            }
            let corpus = &settings.corpora[group.corpus];
            let started = results.rounds_started(corpus, group.checkers);
            let beyond = settings
                .max_rounds()
                .saturating_sub(started.max(rounds_needed_now(results, group)));
            now + beyond * entrants
        })
        .sum()
}

impl Runner<'_> {
    /// Runs everything pending, recording into `results`: cell by cell, its warm-ups
    /// once, then rounds until the stopping rule is met.
    pub fn run(&self, results: &mut Results) -> Result<Outcome, ExportError> {
        let mut done = 0_u64;
        self.progress.start(upper_bound(results) as u64);
        let mut warmed: Vec<Group> = Vec::new();
        loop {
            let slots = pending(results);
            let Some(first) = slots.first() else {
                break;
            };
            let group = Group {
                corpus: first.corpus,
                checkers: first.checkers,
            };
            let in_group = slots
                .into_iter()
                .filter(|s| s.corpus == group.corpus && s.checkers == group.checkers)
                .filter(|s| !(s.warmup && warmed.contains(&group)));
            for slot in in_group {
                if self.run_one(results, &slot)? == Outcome::Interrupted {
                    return Ok(Outcome::Interrupted);
                }
                done += 1;
                self.progress.advance();
            }
            warmed.push(group);
            self.progress.set_total(done + upper_bound(results) as u64);
        }
        self.progress.finish();
        Ok(Outcome::Finished)
    }

    /// Measures one slot and records it (warm-ups are measured only).
    fn run_one(&self, results: &mut Results, slot: &Slot) -> Result<Outcome, ExportError> {
        if self.stop.load(Ordering::SeqCst) {
            return Ok(Outcome::Interrupted);
        }
        let corpus = results.settings.corpora[slot.corpus].clone();
        let label = format!(
            "{}{} · {} · round {}",
            if slot.warmup { "warm-up " } else { "" },
            slot.contender,
            results.settings.cell_label(&corpus, slot.checkers),
            slot.round + 1,
        );
        self.progress.begin(&label);
        let quiet = self
            .gate
            .and_then(|gate| gate.wait(self.stop, self.progress));
        if self.stop.load(Ordering::SeqCst) {
            return Ok(Outcome::Interrupted);
        }
        let request = Request {
            contender: slot.contender,
            corpus: &corpus,
            checkers: slot.checkers,
        };
        let mut command = self.launcher.command(&request);
        let padding = layout::padding_bytes(results.settings.seed, slot);
        layout::equalize(&mut command, padding);
        let measured = measure::measure_with(
            command,
            self.launcher.timeout(),
            self.stop,
            Some(measure::SAMPLE_INTERVAL),
            self.launcher.stdout(),
        );
        // Ctrl-C reaches the child too, and it may die before our handler has run.
        let child_interrupted = matches!(&measured, Ok(m) if m.exit == Exit::Signal(libc::SIGINT));
        if child_interrupted || self.stop.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
            return Ok(Outcome::Interrupted);
        }
        let mut run = match measured {
            Ok(measured) => self.launcher.judge(&request, slot.round, &measured),
            Err(error) => failed_to_start(slot.round, &error),
        };
        run.covariates.env_padding_bytes = padding;
        run.covariates.quiet = quiet;
        if !run.status.is_ok() {
            self.progress.warn(&format!("{label}: {}", run.status));
        }
        if !slot.warmup {
            results.push(&corpus, slot.contender, slot.checkers, run);
            self.outputs.write_all(results)?;
        }
        Ok(Outcome::Finished)
    }
}

fn failed_to_start(round: usize, error: &std::io::Error) -> Run {
    Run {
        round,
        status: RunStatus::Failed(format!("cannot start the child: {error}")),
        digest: String::new(),
        figures: Default::default(),
        allocator: None,
        workload: None,
        workload_settings: Default::default(),
        covariates: Default::default(),
        kernel: None,
        memory: None,
    }
}
