//! Results files written before the workload protocol had its own crate (`workload/`) read
//! back and render as before: the workload by name, every figure to the last digit, nothing
//! added and nothing lost.
use std::path::Path;

use compare::output::report::render_text;
use compare::output::table::Detail;
use compare::results::Results;

fn round_trip(file: &str) -> Results {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let results = Results::load(&path).unwrap();
    let written = serde_json::to_value(&results).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let original: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(written == original, "{file} does not read back as written");
    results
}

#[test]
fn the_tsc_results_written_before_the_protocol_crate_read_back_unchanged_and_report() {
    let results = round_trip("../docs/results-tsc.json");
    assert_eq!(results.settings.workload.name(), "tsc");
    let report = render_text(&results, Detail::Brief);
    assert!(report.contains("trpc · 1 checker · tsc"), "{report}");
    assert!(
        report.contains("trpc · 8 checkers · tsc, serialized"),
        "{report}"
    );
}

#[test]
fn a_checker_results_file_names_no_workload_and_reads_back_unchanged() {
    let results = round_trip("../docs/checkers-trpc.json");
    assert!(results.settings.workload.is_default());
    assert_eq!(results.settings.workload.name(), "checker");
    let report = render_text(&results, Detail::Brief);
    assert!(!report.contains("· checker"), "{report}");
}
