//! The whole terminal report, assembled from the bake-off [`table`]s and the
//! [`reproduce`] sections beside the publication. It sits above both, so `table` stays a
//! leaf that `reproduce` can build on.
use std::fmt::Write as _;

use crate::output::table;
use crate::reproduce;
use crate::results::Results;

/// The whole terminal report: the machine facts and fault costs, every section's table,
/// the runs that stand out, then the failed runs.
pub fn render_text(results: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "machine: {}", results.environment.machine_summary());
    for line in table::calibration_lines(results) {
        let _ = writeln!(out, "fault cost: {line}");
    }
    out.push('\n');
    for section in table::sections(results) {
        let _ = writeln!(out, "{}\n{}", section.title, section.table.to_text());
    }
    if let Some(beside) = reproduce::text(results) {
        let _ = writeln!(out, "{beside}");
    }
    if let Some(sys) = table::fault_sys_table(results) {
        let _ = writeln!(
            out,
            "sys time predicted from the fault counts\n{}",
            sys.to_text()
        );
    }
    let standing_out = table::standouts(results);
    if !standing_out.rows.is_empty() {
        let _ = writeln!(
            out,
            "runs that stand out (wall beyond 3 robust SD of their row)\n{}",
            standing_out.to_text()
        );
    }
    for note in table::digest_notes(results) {
        let _ = writeln!(out, "note: {note}\n");
    }
    let failed = table::failures(results);
    if !failed.rows.is_empty() {
        let _ = writeln!(
            out,
            "failed runs (kept out of the medians)\n{}",
            failed.to_text()
        );
    }
    out
}
