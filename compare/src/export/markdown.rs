//! Markdown: the report to publish. The environment, the same tables the terminal shows,
//! the sections beside the publication where the results allow them, and the failed runs.
use std::fmt::Write as _;

use super::{ExportError, Exporter};
use crate::output::table;
use crate::reproduce;
use crate::results::Results;

pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        Ok(render(results).into_bytes())
    }
}

/// The Markdown report of `results`.
pub fn render(results: &Results) -> String {
    let env = &results.environment;
    let settings = &results.settings;
    let mut out = String::new();
    let title = if reproduce::covers_publication(results) {
        "checkbench: the publication's measurements, reproduced"
    } else {
        "checkbench bake-off"
    };
    let _ = writeln!(out, "# {title}\n");
    let _ = writeln!(
        out,
        "- Machine: {}\n- Revision: `{}`\n- Command: `{}`\n- Versions: {}",
        env.summary(),
        env.git_revision,
        env.command_line.join(" "),
        env.crate_versions
            .iter()
            .map(|(name, version)| format!("{name} {version}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let _ = writeln!(
        out,
        "- Plan: {} measured run{} (after {} warm-up round{}) of each contender per corpus \
         and checker count, interleaved in rotating order; baseline {}.\n",
        settings.runs,
        table::plural(settings.runs),
        settings.warmup,
        table::plural(settings.warmup),
        settings.baseline,
    );
    let most_checkers = settings.checkers.iter().copied().max().unwrap_or(1);
    if env.cpu_count > 0 && most_checkers > env.cpu_count {
        let _ = writeln!(
            out,
            "Limits of this machine: {most_checkers} checkers share {} CPU{}, so wall time at \
             {most_checkers} checkers measures time-slicing rather than parallel speed-up, and \
             contention from other processes weighs more. RSS and page faults follow the number of \
             checker threads, not the cores they run on (every checker keeps its own tables and \
             arena either way), so those columns stand.\n",
            env.cpu_count,
            table::plural(env.cpu_count),
        );
    }
    let _ = writeln!(
        out,
        "How to read: wall % and RSS % are the change of the contender's median against \
         the baseline's (negative is less); the 95% interval is a bootstrap of that ratio, \
         and the verdict is given only where it excludes no change. RSS is the child's own \
         peak (VmHWM). Minor faults are medians, baseline -> contender. `ok` counts the runs \
         in the medians.\n"
    );
    for section in table::sections(results) {
        let _ = writeln!(
            out,
            "## {}\n\n{}",
            section.title,
            section.table.to_markdown()
        );
    }
    out.push_str(&reproduce::markdown(results));
    let notes = table::digest_notes(results);
    if !notes.is_empty() {
        let _ = writeln!(out, "## Workload digests\n");
        for note in notes {
            let _ = writeln!(out, "- {note}");
        }
        out.push('\n');
    }
    let failed = table::failures(results);
    if !failed.rows.is_empty() {
        let _ = writeln!(
            out,
            "## Failed runs\n\nKept out of the medians.\n\n{}",
            failed.to_markdown()
        );
    }
    out
}
