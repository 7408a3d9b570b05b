//! The report `checker --json` prints and compare reads back.
use workload::AllocatorIdentity;
use workload::report::{ProcessReport, RunReport};

use crate::check;

fn sample() -> RunReport {
    let out = check(&[("a.ts", "const n: number = 's';\nconst m: string = 1;\n")]);
    let id = AllocatorIdentity {
        name: "system",
        identity: "glibc".to_string(),
    };
    RunReport::new(checker::WORKLOAD.name, "inline", 1, &out, &id)
}

#[test]
fn the_report_counts_what_the_run_found() {
    let r = sample();
    assert_eq!(r.counts.files, 2);
    assert_eq!(r.counts.diagnostics, 2);
    assert_eq!(r.counts.diagnostics_by_code.get("TS2322"), Some(&2));
    assert!(r.counts.ast_nodes > 10 && r.counts.symbols > 10 && r.counts.types > 10);
    assert_eq!(r.digest.len(), 64);
    assert_eq!(r.allocator.name, "system");
    assert_eq!(r.allocator.identity, "glibc");
    assert!(
        r.allocator.slice.is_none(),
        "the slice statistics belong to the slice allocator"
    );
}

#[test]
fn the_json_report_reads_back_unchanged() {
    let r = sample();
    let json = serde_json::to_string(&r).unwrap();
    for field in [
        "\"digest\"",
        "\"parse_s\"",
        "\"diagnostics_by_code\"",
        "\"vm_hwm_kib\"",
        "\"anon_huge_kib\"",
    ] {
        assert!(json.contains(field), "{field} missing from {json}");
    }
    let back: RunReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
}

#[test]
fn the_human_report_shows_counts_phases_and_digest() {
    let r = sample();
    let h = r.human();
    for needle in [
        "files",
        "symbols",
        "types",
        "relations",
        "TS2322",
        "parse",
        "check",
        &r.digest,
    ] {
        assert!(h.contains(needle), "{needle} missing from\n{h}");
    }
}

#[test]
fn the_process_reports_its_peak_memory() {
    let p = ProcessReport::read();
    if cfg!(target_os = "linux") {
        assert!(p.vm_hwm_kib > 1000, "{p:?}");
    }
}

#[test]
fn the_human_report_of_a_slice_run_shows_allocation_sizes_and_slices_past_the_switch() {
    use workload::report::{AllocatorReport, SliceClassReport, SliceReport};
    let mut r = sample();
    let class = |size: u32, allocs: u64, max_slice: u64| SliceClassReport {
        size,
        allocs,
        max_slice_carved_bytes: max_slice,
        ..SliceClassReport::default()
    };
    let slice = SliceReport {
        policy: "hybrid@8".to_string(),
        classes: vec![
            class(16, 30, 0),
            class(128, 40, 9 << 20),
            class(256, 20, 0),
            class(512, 5, 0),
        ],
        fallbacks: [("too_large".to_string(), 5)].into_iter().collect(),
        ..SliceReport::default()
    };
    let histogram = slice.size_histogram();
    assert_eq!(
        histogram.map(|b| b.1),
        [30, 40, 20, 5, 5],
        "16-64, 80-128, 144-256, 272-512, over 512"
    );
    r.allocator = AllocatorReport {
        name: "slice".to_string(),
        identity: "hybrid@8".to_string(),
        slice: Some(slice),
    };
    let h = r.human();
    assert!(
        h.contains("16-64 B 30.0%") && h.contains("over 512 B 5.0%"),
        "{h}"
    );
    assert!(h.contains("slices > 8M 128 B 9.0 MiB"), "{h}");
}

#[test]
fn throughput_is_megabytes_per_second_per_thread_of_each_phase() {
    let p = workload::report::Phases {
        load_s: 0.0,
        parse_s: 0.5,
        bind_s: 0.25,
        check_s: 2.0,
        front_threads: 2,
    };
    // 4 MB: parse 4 / 0.5 / 2 threads, bind 4 / 0.25 / 2, check 4 / 2.0 / 1 checker.
    assert_eq!(p.throughput(4_000_000, 1), [4.0, 8.0, 2.0]);
    assert_eq!(p.throughput(4_000_000, 2)[2], 1.0);
    let h = sample().human();
    assert!(h.contains("per thread  parse"), "{h}");
}

#[test]
fn a_report_without_front_threads_still_reads_back() {
    let mut json: serde_json::Value = serde_json::to_value(sample()).unwrap();
    json["phases"]
        .as_object_mut()
        .unwrap()
        .remove("front_threads");
    let back: RunReport = serde_json::from_value(json).unwrap();
    assert_eq!(back.phases.front_threads, 0);
}

#[test]
fn the_slice_report_carries_the_reservation_the_switch_point_and_the_small_fallbacks() {
    use workload::report::SliceReport;
    let policy: slice_alloc::Policy = "hybrid@8".parse().unwrap();
    let mut stats = slice_alloc::Stats::zeroed(policy);
    stats.arenas = vec![[slice_alloc::ClassStats::ZERO; slice_alloc::CLASS_COUNT]; 2];
    stats.totals.reservation_bytes = 4 << 30;
    stats.totals.slice_bytes = 4 << 20;
    stats.totals.arenas_claimed = 2;
    stats.arenas[0][0].allocs = 60;
    stats.arenas[1][3].allocs = 30;
    stats.totals.fallbacks.too_large = 7;
    stats.totals.fallbacks.zero_size = 1;
    stats.totals.fallbacks.slice_exhausted = 4;
    stats.totals.fallbacks.no_arena = 5;
    stats.totals.fallbacks.no_reservation = 1;
    let report = SliceReport::from_stats(&stats);
    assert_eq!(report.reservation_bytes, 4 << 30);
    assert_eq!(report.slice_bytes, 4 << 20);
    assert_eq!(report.switch_bytes, 8 << 20);
    assert_eq!(report.arenas_claimed, 2);
    assert_eq!(
        report.small_fallbacks, 10,
        "large and zero-size requests are not small"
    );
    assert_eq!(report.small_requests, 100);
    assert!((report.small_fallback_share() - 0.1).abs() < 1e-12);
    let nohuge = slice_alloc::Stats::zeroed("nohuge".parse().unwrap());
    let report = SliceReport::from_stats(&nohuge);
    assert_eq!(report.switch_bytes, 0, "nohuge never switches");
    assert_eq!(report.small_fallback_share(), 0.0);
}
