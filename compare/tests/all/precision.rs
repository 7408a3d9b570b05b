//! Paired rounds with the A/A control, and rounds that go on until the intervals are as
//! narrow as asked.
use std::sync::atomic::AtomicBool;

use compare::benchmark::runner::{Outcome, Runner, rounds_needed_now};
use compare::benchmark::schedule::Group;
use compare::contender::Contender;
use compare::export::Outputs;
use compare::output::progress::Progress;
use compare::results::{Results, Run};

use crate::fake::{FakeLauncher, plan};

fn run(launcher: &FakeLauncher, results: &mut Results) -> Outcome {
    let stop = AtomicBool::new(false);
    Runner {
        launcher,
        stop: &stop,
        outputs: &Outputs::new(),
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(results)
    .unwrap()
}

const CELL: Group = Group {
    corpus: 0,
    checkers: 1,
};

/// A successful run of `round` taking `wall_s`.
fn timed(round: usize, wall_s: f64) -> Run {
    crate::fake::run(round, wall_s, 1000, 100)
}

/// A plan of slice-nohuge against mimalloc from 4 to 8 rounds until ±`precision`%, whose
/// first `rounds` rounds have mimalloc at `ratio(round)` times the baseline's 1 s.
fn measured(precision: f64, rounds: usize, ratio: impl Fn(usize) -> f64) -> Results {
    let mut results = plan(&["slice-nohuge", "mimalloc"], &[1], 4, 0);
    results.settings.max_runs = Some(8);
    results.settings.precision_pct = Some(precision);
    for round in 0..rounds {
        results.push("synthetic", Contender::SLICE_NOHUGE, 1, timed(round, 1.0));
        results.push(
            "synthetic",
            Contender::Mimalloc,
            1,
            timed(round, ratio(round)),
        );
    }
    results
}

#[test]
fn the_control_runs_in_every_round_as_its_own_row() {
    let launcher = FakeLauncher::honest();
    let mut results = plan(&["slice-nohuge", "mimalloc"], &[1], 3, 1);
    results.settings.control = true;
    assert_eq!(run(&launcher, &mut results), Outcome::Finished);
    let launches = launcher.launches();
    assert_eq!(
        launches.len(),
        3 * (3 + 1),
        "three entrants, one warm-up round"
    );
    let control = Contender::SLICE_NOHUGE.control().unwrap();
    let set = results.get("synthetic", control, 1).unwrap();
    assert_eq!(
        set.ok_runs, 3,
        "the control proves the baseline's allocator"
    );
    let rounds: Vec<usize> = set.runs.iter().map(|r| r.round).collect();
    assert_eq!(rounds, vec![0, 1, 2]);
    let cell = results.cell("synthetic", 1).unwrap();
    assert_eq!(cell.rounds, 3);
    assert_eq!(cell.control.as_ref().unwrap().wall.unwrap().rounds, 3);
}

#[test]
fn a_plan_without_control_runs_no_second_baseline() {
    let launcher = FakeLauncher::honest();
    let mut results = plan(&["slice-nohuge", "mimalloc"], &[1], 2, 0);
    run(&launcher, &mut results);
    assert_eq!(launcher.launches().len(), 4);
    let control = Contender::SLICE_NOHUGE.control().unwrap();
    assert!(results.get("synthetic", control, 1).is_none());
    assert!(results.cell("synthetic", 1).unwrap().control.is_none());
}

#[test]
fn rounds_go_on_while_an_interval_is_wider_than_asked_and_stop_at_the_most() {
    let noisy = |round: usize| if round.is_multiple_of(2) { 1.3 } else { 0.75 };
    assert_eq!(
        rounds_needed_now(&measured(2.0, 0, noisy), CELL),
        4,
        "the least first"
    );
    assert_eq!(rounds_needed_now(&measured(2.0, 4, noisy), CELL), 5);
    assert_eq!(rounds_needed_now(&measured(2.0, 7, noisy), CELL), 8);
    assert_eq!(
        rounds_needed_now(&measured(2.0, 8, noisy), CELL),
        8,
        "--max-runs"
    );
}

#[test]
fn rounds_stop_once_every_interval_is_within_the_precision() {
    let steady = |round: usize| {
        if round.is_multiple_of(2) {
            1.001
        } else {
            0.999
        }
    };
    assert_eq!(rounds_needed_now(&measured(2.0, 4, steady), CELL), 4);
}

#[test]
fn a_corpus_given_its_own_precision_stops_at_it_and_the_others_at_the_plans() {
    // About ±5% after 4 rounds: wide for the plan's ±2%, narrow enough for ±10%.
    let slightly_noisy = |round: usize| if round.is_multiple_of(2) { 1.03 } else { 0.98 };
    let mut results = measured(2.0, 4, slightly_noisy);
    assert_eq!(rounds_needed_now(&results, CELL), 5, "±2% not reached");
    results
        .settings
        .precision_by_corpus
        .insert("synthetic".to_string(), 10.0);
    results.refresh();
    assert_eq!(rounds_needed_now(&results, CELL), 4, "±10% reached");
    assert_eq!(results.settings.precision_for("synthetic"), Some(10.0));
    assert_eq!(results.settings.precision_for("trpc"), Some(2.0));
    assert!(results.cell("synthetic", 1).unwrap().precise.unwrap());
}

#[test]
fn the_stopping_rule_looks_at_the_width_not_at_the_verdict() {
    // Narrow with a verdict, narrow without: both stop. Wide with a verdict goes on.
    let faster = |round: usize| {
        if round.is_multiple_of(2) {
            0.801
        } else {
            0.799
        }
    };
    let same = |round: usize| {
        if round.is_multiple_of(2) {
            1.001
        } else {
            0.999
        }
    };
    let wide_but_faster = |round: usize| if round.is_multiple_of(2) { 0.6 } else { 0.8 };
    for (ratio, expected) in [
        (&faster as &dyn Fn(usize) -> f64, 4),
        (&same, 4),
        (&wide_but_faster, 5),
    ] {
        let results = measured(2.0, 4, ratio);
        let wall = results
            .get("synthetic", Contender::Mimalloc, 1)
            .and_then(|s| s.versus_baseline.as_ref()?.wall)
            .unwrap();
        assert_eq!(rounds_needed_now(&results, CELL), expected, "{wall:?}");
    }
}

#[test]
fn a_row_short_of_the_precision_says_how_many_rounds_it_needs() {
    let noisy = |round: usize| if round.is_multiple_of(2) { 1.1 } else { 0.9 };
    let results = measured(2.0, 8, noisy);
    let versus = results
        .get("synthetic", Contender::Mimalloc, 1)
        .and_then(|s| s.versus_baseline.clone())
        .unwrap();
    let needed = versus.rounds_needed.unwrap();
    assert!(needed > 8, "{versus:?}");
    assert_eq!(results.cell("synthetic", 1).unwrap().precise, Some(false));
    let text = compare::output::report::render_text(&results, compare::output::table::Detail::Wide);
    assert!(text.contains(&format!("8 (need {needed})")), "{text}");
}

#[test]
fn the_runner_stops_a_cell_on_precision_and_goes_to_the_next() {
    let launcher = FakeLauncher::honest();
    let mut results = plan(&["slice-nohuge", "mimalloc"], &[1, 8], 3, 0);
    results.settings.max_runs = Some(5);
    // Fake children's wall times vary by far less than a factor of 1000.
    results.settings.precision_pct = Some(1.0e5);
    run(&launcher, &mut results);
    assert_eq!(
        launcher.launches().len(),
        2 * 3 * 2,
        "the least rounds in each cell"
    );
    results.settings.precision_pct = Some(1.0e-9);
    run(&launcher, &mut results);
    assert_eq!(
        launcher.launches().len(),
        2 * 5 * 2,
        "to --max-runs when the precision cannot be reached"
    );
}
