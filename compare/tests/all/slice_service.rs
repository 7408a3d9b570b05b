//! A slice contender's run counts only if the slice allocator served it as the contender says.
use std::sync::atomic::AtomicBool;

use compare::benchmark::judge::MAX_SMALL_FALLBACK_SHARE;
use compare::benchmark::runner::Runner;
use compare::contender::Contender;
use compare::export::Outputs;
use compare::output::progress::Progress;
use workload::report::SliceReport;

use crate::fake::{Behaviour, FakeLauncher, plan};

/// The status of the one hybrid run whose slice statistics `change` edited.
fn hybrid_status(change: fn(&mut SliceReport)) -> String {
    let launcher = FakeLauncher::honest().with("slice-hybrid", Behaviour::SliceStats(change));
    let mut results = plan(&["slice-nohuge", "slice-hybrid"], &[1], 1, 0);
    let stop = AtomicBool::new(false);
    Runner {
        launcher: &launcher,
        stop: &stop,
        outputs: &Outputs::new(),
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut results)
    .unwrap();
    let nohuge = results
        .get("synthetic", Contender::SLICE_NOHUGE, 1)
        .unwrap();
    assert_eq!(nohuge.ok_runs, 1, "an honest slice run stays ok");
    let hybrid = results
        .get("synthetic", Contender::SLICE_HYBRID, 1)
        .unwrap();
    hybrid.runs[0].status.to_string()
}

#[test]
fn an_honest_hybrid_run_with_a_few_small_fallbacks_is_ok() {
    assert_eq!(hybrid_status(|_| {}), "ok");
}

#[test]
fn a_slice_run_without_a_reservation_fails_with_the_reason() {
    let status = hybrid_status(|s| {
        s.reservation_bytes = 0;
        s.slice_bytes = 0;
        s.arenas_claimed = 0;
        s.small_fallbacks = s.small_requests;
    });
    assert!(status.contains("made no reservation"), "{status}");
    assert!(status.contains("ulimit -v"), "{status}");
}

#[test]
fn a_slice_run_that_claimed_no_arena_fails_with_the_reason() {
    let status = hybrid_status(|s| s.arenas_claimed = 0);
    assert!(status.contains("claimed no arena"), "{status}");
}

#[test]
fn a_hybrid_run_whose_slices_are_no_larger_than_the_switch_point_fails() {
    let status = hybrid_status(|s| {
        s.slice_bytes = 8 << 20;
        s.reservation_bytes = 1024 * (8 << 20);
    });
    assert!(
        status.contains("slices of 8 MiB are no larger than the switch point of hybrid@8"),
        "{status}"
    );
}

#[test]
fn a_slice_run_handing_more_than_the_documented_share_of_small_requests_to_the_system_fails() {
    assert_eq!(
        MAX_SMALL_FALLBACK_SHARE, 0.01,
        "documented in compare/README.md"
    );
    let at_limit = hybrid_status(|s| s.small_fallbacks = s.small_requests / 100);
    assert_eq!(at_limit, "ok", "exactly the share is allowed");
    let status = hybrid_status(|s| s.small_fallbacks = s.small_requests / 100 + 1);
    assert!(
        status.contains("served 10001 of 1000000 small requests"),
        "{status}"
    );
}
