//! The bake-off loop: runs the schedule, judges each child, and writes every export after
//! every recorded run.
//!
//! **A finished run is never lost**: it is recorded and the exports are rewritten
//! (atomically) before the next child starts, and an interrupted run is discarded rather
//! than recorded half-measured.
use std::sync::atomic::{AtomicBool, Ordering};

use crate::benchmark::launcher::{Launcher, Request};
use crate::benchmark::measure::{self, Exit, judge};
use crate::benchmark::schedule::{Slot, schedule};
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
}

/// The runs still to do: scheduled runs not yet recorded, and the warm-ups of every
/// corpus and checker count that still has runs to do.
pub fn pending(results: &Results) -> Vec<Slot> {
    let settings = &results.settings;
    let all = schedule(
        settings.corpora.len(),
        &settings.checkers,
        &settings.contenders,
        settings.runs,
        settings.warmup,
    );
    let done = |slot: &Slot| {
        let corpus = &settings.corpora[slot.corpus];
        !slot.warmup && results.recorded(corpus, slot.contender, slot.checkers) > slot.round
    };
    let group_has_work = |slot: &Slot| {
        all.iter().any(|other| {
            !other.warmup
                && other.corpus == slot.corpus
                && other.checkers == slot.checkers
                && !done(other)
        })
    };
    all.iter()
        .filter(|slot| !done(slot) && (!slot.warmup || group_has_work(slot)))
        .copied()
        .collect()
}

impl Runner<'_> {
    /// Runs everything pending, recording into `results`.
    pub fn run(&self, results: &mut Results) -> Result<Outcome, ExportError> {
        let slots = pending(results);
        self.progress.start(slots.len() as u64);
        for slot in slots {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(Outcome::Interrupted);
            }
            let corpus = results.settings.corpora[slot.corpus].clone();
            let label = format!(
                "{}{} · {corpus} · {} checker{}",
                if slot.warmup { "warm-up " } else { "" },
                slot.contender,
                slot.checkers,
                if slot.checkers == 1 { "" } else { "s" },
            );
            self.progress.begin(&label);
            let request = Request {
                contender: slot.contender,
                corpus: &corpus,
                checkers: slot.checkers,
            };
            let measured = measure::measure(
                self.launcher.command(&request),
                self.launcher.timeout(),
                self.stop,
            );
            // Ctrl-C reaches the child too, and it may die before our handler has run.
            let child_interrupted =
                matches!(&measured, Ok(m) if m.exit == Exit::Signal(libc::SIGINT));
            if child_interrupted || self.stop.load(Ordering::SeqCst) {
                self.stop.store(true, Ordering::SeqCst);
                return Ok(Outcome::Interrupted);
            }
            let run = match measured {
                Ok(measured) => judge(slot.contender, slot.round, &measured),
                Err(error) => failed_to_start(slot.round, &error),
            };
            if !run.status.is_ok() {
                self.progress.warn(&format!("{label}: {}", run.status));
            }
            if !slot.warmup {
                results.push(&corpus, slot.contender, slot.checkers, run);
                self.outputs.write_all(results)?;
            }
            self.progress.advance();
        }
        self.progress.finish();
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
    }
}
