//! The report `checker --json` prints and compare reads back.
use checker::AllocatorIdentity;
use checker::report::{ProcessReport, RunReport};

use crate::check;

fn sample() -> RunReport {
    let out = check(&[("a.ts", "const n: number = 's';\nconst m: string = 1;\n")]);
    let id = AllocatorIdentity {
        name: "system",
        identity: "glibc".to_string(),
    };
    RunReport::new("inline", 1, &out, &id)
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
