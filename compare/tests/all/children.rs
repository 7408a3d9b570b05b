use std::sync::atomic::AtomicBool;

use compare::benchmark::runner::{Outcome, Runner};
use compare::contender::Contender;
use compare::export::{Format, Outputs};
use compare::output::progress::Progress;
use compare::results::{Results, RunStatus};

use crate::fake::{Behaviour, FakeLauncher, plan};

fn run(launcher: &FakeLauncher, results: &mut Results) -> Outcome {
    let stop = AtomicBool::new(false);
    let runner = Runner {
        launcher,
        stop: &stop,
        outputs: &Outputs::new(),
        progress: &Progress::hidden(),
        gate: None,
    };
    runner.run(results).unwrap()
}

#[test]
fn honest_children_are_measured_and_summarised() {
    let launcher = FakeLauncher::honest();
    let mut results = plan(&["slice-nohuge", "mimalloc"], &[1], 3, 1);
    assert_eq!(run(&launcher, &mut results), Outcome::Finished);
    assert_eq!(launcher.launches().len(), 2 * (3 + 1));
    let mimalloc = results.get("synthetic", Contender::Mimalloc, 1).unwrap();
    assert_eq!(mimalloc.ok_runs, 3);
    let median = mimalloc.median.unwrap();
    assert!(median.wall_s > 0.0);
    assert_eq!(median.vm_hwm_kib, 4096.0);
    assert!(median.minor_faults > 0.0, "wait4 counts the child's faults");
    assert_eq!(mimalloc.allocator.as_ref().unwrap().identity, "fake 1.0");
    let versus = mimalloc.versus_baseline.as_ref().unwrap();
    assert_eq!(versus.baseline, Contender::SLICE_NOHUGE);
    assert!(versus.wall.is_some());
}

#[test]
fn a_crashing_child_is_reported_and_kept_out_of_the_medians() {
    let launcher = FakeLauncher::honest().with("jemalloc", Behaviour::Crash);
    let mut results = plan(&["slice-nohuge", "jemalloc", "system"], &[1], 2, 0);
    assert_eq!(run(&launcher, &mut results), Outcome::Finished);
    let jemalloc = results.get("synthetic", Contender::Jemalloc, 1).unwrap();
    assert_eq!(jemalloc.runs.len(), 2, "the bake-off goes on after a crash");
    assert_eq!(jemalloc.ok_runs, 0);
    assert_eq!(jemalloc.median, None);
    let status = jemalloc.runs[0].status.to_string();
    assert!(
        status.contains("SIGSEGV") && status.contains("about to crash"),
        "{status}"
    );
    assert_eq!(
        results
            .get("synthetic", Contender::System, 1)
            .unwrap()
            .ok_runs,
        2
    );
}

#[test]
fn a_child_with_another_digest_is_marked_and_excluded() {
    let launcher = FakeLauncher::honest().with(
        "system",
        Behaviour::Report {
            digest: "bad".to_string(),
        },
    );
    let mut results = plan(&["slice-nohuge", "mimalloc", "system"], &[1], 2, 0);
    run(&launcher, &mut results);
    let system = results.get("synthetic", Contender::System, 1).unwrap();
    assert_eq!(system.ok_runs, 0);
    assert!(matches!(
        &system.runs[0].status,
        RunStatus::DigestMismatch { expected } if expected == crate::fake::DIGEST
    ));
    assert!(system.versus_baseline.as_ref().unwrap().wall.is_none());
    let mimalloc = results.get("synthetic", Contender::Mimalloc, 1).unwrap();
    assert_eq!(mimalloc.ok_runs, 2);
}

#[test]
fn a_slice_child_under_another_policy_fails_its_run() {
    let launcher = FakeLauncher::honest().with("slice-hybrid", Behaviour::WrongPolicy);
    let mut results = plan(&["slice-nohuge", "slice-hybrid"], &[1], 1, 0);
    run(&launcher, &mut results);
    let hybrid = results
        .get("synthetic", Contender::SLICE_HYBRID, 1)
        .unwrap();
    let status = hybrid.runs[0].status.to_string();
    assert!(status.contains("wrong slice policy"), "{status}");
    assert_eq!(hybrid.ok_runs, 0);
}

#[test]
fn failed_runs_are_listed_under_the_table() {
    let launcher = FakeLauncher::honest().with("system", Behaviour::Crash);
    let mut results = plan(&["slice-nohuge", "system"], &[1], 1, 0);
    run(&launcher, &mut results);
    let text =
        compare::output::report::render_text(&results, compare::output::table::Detail::Brief);
    assert!(text.contains("failed runs"), "{text}");
    assert!(text.contains("SIGSEGV"), "{text}");
    let markdown = compare::export::markdown::render(&results);
    assert!(markdown.contains("## Failed runs"), "{markdown}");
}

#[test]
fn every_export_is_rewritten_after_each_run() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("runs.json");
    let csv = dir.path().join("runs.csv");
    let outputs = Outputs::new()
        .with(Format::Json, Some(&json))
        .with(Format::Csv, Some(&csv))
        .with(Format::Markdown, Some(&dir.path().join("runs.md")))
        .with(Format::Svg, Some(&dir.path().join("runs.svg")));
    let launcher = FakeLauncher::honest();
    let mut results = plan(&["slice-nohuge", "system"], &[1], 2, 0);
    let stop = AtomicBool::new(false);
    Runner {
        launcher: &launcher,
        stop: &stop,
        outputs: &outputs,
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut results)
    .unwrap();
    let stored = Results::load(&json).unwrap();
    assert_eq!(stored.results.len(), 2);
    assert_eq!(stored.results[0].runs.len(), 2);
    let csv = std::fs::read_to_string(csv).unwrap();
    assert_eq!(csv.lines().filter(|l| l.starts_with("run,")).count(), 4);
    let svg = std::fs::read_to_string(dir.path().join("runs.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("minor page faults"));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 4, "no temporary files left: {leftovers:?}");
}

#[test]
fn a_digest_that_changes_with_the_checker_count_is_noted_but_excludes_nobody() {
    let launcher = FakeLauncher::honest()
        .with("slice-nohuge", Behaviour::ReportPerCheckers)
        .with("system", Behaviour::ReportPerCheckers);
    let mut results = plan(&["slice-nohuge", "system"], &[1, 8], 1, 0);
    run(&launcher, &mut results);
    assert!(results.results.iter().all(|set| set.ok_runs == 1));
    let notes = compare::output::table::digest_notes(&results);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].contains("changes with the checker count"),
        "{notes:?}"
    );
    let markdown = compare::export::markdown::render(&results);
    assert!(markdown.contains("## Workload digests"));
}
