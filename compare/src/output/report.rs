//! The whole terminal report, assembled from the bake-off [`table`]s and the
//! [`reproduce`] sections beside the publication. It sits above both, so `table` stays a
//! leaf that `reproduce` can build on.
use std::fmt::Write as _;

use crate::output::table::{self, Detail, TERMINAL_COLUMNS, Table};
use crate::results::Results;
use crate::studies::reproduce;

/// The whole terminal report: the machine facts and fault costs, every section's table,
/// the runs that stand out, then the failed runs. [`Detail::Brief`] keeps every line
/// within [`TERMINAL_COLUMNS`] where wrapping can (titles and free text are broken
/// between words), leaves out the sys time the faults predict and names the runs that
/// stand out only by their count; [`Detail::Wide`] prints everything, as the Markdown.
pub fn render_text(results: &Results, detail: Detail) -> String {
    let brief = detail == Detail::Brief;
    let line = |text: &str| match detail {
        Detail::Brief => table::wrap(text, TERMINAL_COLUMNS, "  "),
        Detail::Wide => text.to_string(),
    };
    let table = |table: &Table| match detail {
        Detail::Brief => table.to_text_within(TERMINAL_COLUMNS),
        Detail::Wide => table.to_text(),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        line(&format!(
            "machine: {}",
            results.environment.machine_summary()
        ))
    );
    for probe in table::calibration_lines(results) {
        let _ = writeln!(out, "{}", line(&format!("fault cost: {probe}")));
    }
    out.push('\n');
    for section in table::sections(results, detail) {
        let _ = writeln!(out, "{}\n{}", line(&section.title), table(&section.table));
    }
    if let Some(beside) = beside_publication(results, detail) {
        let _ = writeln!(out, "{beside}");
    }
    if !brief && let Some(sys) = table::fault_sys_table(results) {
        let _ = writeln!(
            out,
            "sys time predicted from the fault counts\n{}",
            sys.to_text()
        );
    }
    if !brief && let Some(events) = crate::output::kernel::events_table(results) {
        let _ = writeln!(
            out,
            "huge-page coverage and the kernel's events (/proc/vmstat, medians)\n{}",
            events.to_text()
        );
    }
    let standing_out = table::standouts(results);
    match standing_out.rows.len() {
        0 => {}
        n if brief => {
            let _ = writeln!(
                out,
                "{}\n",
                line(&format!(
                    "{n} run{} stand{} out (wall beyond 3 robust SD of its row): --wide lists \
                     them with what the machine did meanwhile",
                    table::plural(n),
                    if n == 1 { "s" } else { "" }
                ))
            );
        }
        _ => {
            let _ = writeln!(
                out,
                "runs that stand out (wall beyond 3 robust SD of their row)\n{}",
                standing_out.to_text()
            );
        }
    }
    if let Some(gate) = crate::output::quiet::summary(results) {
        let _ = writeln!(out, "{}\n", line(&gate));
    }
    let busy = crate::output::quiet::busy_runs(results);
    if !brief && !busy.rows.is_empty() {
        let _ = writeln!(out, "runs started on a busy machine\n{}", table(&busy));
    }
    for note in table::digest_notes(results) {
        let _ = writeln!(out, "{}\n", line(&format!("note: {note}")));
    }
    let failed = table::failures(results);
    if !failed.rows.is_empty() {
        let _ = writeln!(
            out,
            "failed runs (kept out of the medians)\n{}",
            table(&failed)
        );
    }
    if brief {
        let _ = writeln!(
            out,
            "{}",
            line(
                "--wide adds CPU and sys time, every interval, the absolute medians, huge \
                 pages, rounds and the sys time the faults predict, as --markdown FILE has them"
            )
        );
    }
    out
}

/// The table beside the publication for the terminal, when the results hold its rows.
/// With [`Detail::Brief`], hybrid's columns and huge's are two tables, each within the
/// terminal's width; the Markdown keeps one.
fn beside_publication(results: &Results, detail: Detail) -> Option<String> {
    let table = reproduce::beside_publication(results)?;
    let title = "beside the publication (ours / published; ✓ direction agrees, ✗ not, in \
                 parentheses where our interval includes no change)";
    let note = reproduce::heap_note(results).map_or(String::new(), |note| {
        format!("\n{}", table::wrap(&note, TERMINAL_COLUMNS, "  "))
    });
    let beside = match detail {
        Detail::Wide => format!("{title}\n{}", table.to_text()),
        Detail::Brief => format!(
            "{}\n{}\n{}",
            table::wrap(title, TERMINAL_COLUMNS, "  "),
            table.columns(&[0, 1, 2, 3, 4, 5]).to_text(),
            table.columns(&[0, 1, 6, 7]).to_text()
        ),
    };
    Some(format!("{beside}{note}"))
}
