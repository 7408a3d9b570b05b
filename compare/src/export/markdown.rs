//! Markdown: the report to publish. The environment, the same tables the terminal shows,
//! the sections beside the publication where the results allow them, and the failed runs.
use std::fmt::Write as _;

use super::memory::Figure;
use super::scaling;
use super::{ExportError, Exporter};
use crate::output::kernel;
use crate::output::table::{self, Detail};
use crate::results::Results;
use crate::studies::reproduce;

pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        Ok(render(results).into_bytes())
    }
}

/// The plan in one sentence: rounds, stopping rule, warm-ups, control, seed.
pub fn plan(settings: &crate::results::Settings) -> String {
    let rounds = match settings.precision_pct {
        Some(precision) => format!(
            "paired rounds until every wall interval is within ±{precision}%{} ({} to {} rounds)",
            settings
                .precision_by_corpus
                .iter()
                .map(|(corpus, p)| format!(", on {corpus} ±{p}%"))
                .collect::<String>(),
            settings.min_runs,
            settings.max_rounds()
        ),
        None => format!(
            "{} paired round{}",
            settings.min_runs,
            table::plural(settings.min_runs)
        ),
    };
    format!(
        "{rounds} per corpus and checker count, each round every contender once in an order \
         shuffled from seed {} (after {} warm-up round{}); baseline {}{}.",
        settings.seed,
        settings.warmup,
        table::plural(settings.warmup),
        settings.baseline,
        if settings.control {
            format!(", A/A control {}#2", settings.baseline)
        } else {
            ", no control".to_string()
        },
    )
}

/// The Markdown report of `results`, without the memory figures.
pub fn render(results: &Results) -> String {
    render_with(results, &[], &[])
}

/// The Markdown report of `results`, linking the memory `figures` and the checker-count
/// `curves` written beside it.
pub fn render_with(results: &Results, figures: &[Figure], curves: &[scaling::Figure]) -> String {
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
    let _ = writeln!(out, "- Machine facts: {}", env.machine_summary());
    for line in table::calibration_lines(results) {
        let _ = writeln!(out, "- Fault cost: {line}");
    }
    let _ = writeln!(out, "- Plan: {}\n", plan(settings));
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
        "How to read: every round runs each contender once, in a shuffled order. Each \
         figure is the geometric mean, over the rounds, of the contender's run divided by the \
         baseline's run of the same round, as a percent change (negative is less), with its \
         95% t interval; `±%` is the wall interval's half-width, and a verdict is given only \
         where the interval excludes no change. The control (`{}#2`) is the baseline run \
         twice: its interval is the noise floor of its section, and a section whose control \
         gets a verdict is marked UNRELIABLE. RSS is the child's own peak (VmHWM); minor \
         faults are medians, baseline -> contender. `rounds` counts the rounds paired with \
         the baseline (and, where the precision asked for was not reached, the rounds the \
         spread says it needs); `ok` counts the runs in the figures.\n",
        settings.baseline,
    );
    for section in table::sections(results, Detail::Wide) {
        let _ = writeln!(
            out,
            "## {}\n\n{}",
            section.title,
            section.table.to_markdown()
        );
    }
    if let Some(events) = kernel::events_table(results) {
        let _ = writeln!(
            out,
            "## Huge-page coverage and the kernel's events\n\n{}\n\n{}",
            kernel::EVENTS_NOTE,
            events.to_markdown()
        );
    }
    if !figures.is_empty() {
        let _ = writeln!(
            out,
            "## Memory over time\n\nEach run's RSS and AnonHugePages, read by the parent from \
             /proc/PID/smaps_rollup every {} ms while the run ran (every contender alike), \
             against the time since its spawn: one figure per cell, one line per contender \
             (its median run by wall time; RSS solid, AnonHugePages dashed, the other runs \
             faint).\n",
            sample_intervals(results)
        );
        for figure in figures {
            let label = settings.cell_label(&figure.corpus, figure.checkers);
            let file = figure.file.replace(' ', "%20");
            let _ = writeln!(out, "- [{label}]({file})\n\n  ![{label}]({file})\n");
        }
    }
    if !curves.is_empty() {
        let _ = writeln!(
            out,
            "## Memory against the checker count\n\nEach contender's median peak RSS and minor \
             faults at each checker count, and their slope (least squares) per added checker: \
             every checker keeps its own tables (and, under the tsc workload, its own program), \
             so memory grows with the checkers, by as much as the workload holds per checker \
             and the allocator adds to it.\n\n{}",
            scaling::slope_table(results, curves).to_markdown()
        );
        for figure in curves {
            let file = figure.file.replace(' ', "%20");
            let _ = writeln!(
                out,
                "- [{}]({file})\n\n  ![{}]({file})\n",
                figure.corpus, figure.corpus
            );
        }
    }
    out.push_str(&reproduce_sections(results));
    if let Some(table) = table::fault_sys_table(results) {
        let _ = writeln!(
            out,
            "## Sys time predicted from the fault counts\n\nEach contender's median minor \
             faults at the probe's 4 KiB cost, its huge pages (AnonHugePages at its end) at the \
             fresh 2 MiB cost, beside its median sys time. Sys time the faults do not \
             explain is the rest of the kernel's work (mmap, madvise, exit).\n\n{}",
            table.to_markdown()
        );
    }
    let standing_out = table::standouts(results);
    if !standing_out.rows.is_empty() {
        let _ = writeln!(
            out,
            "## Runs that stand out\n\nWall time beyond 3 robust standard deviations (1.4826 \
             MAD) of its row, with the child's involuntary context switches, the steal time of \
             all CPUs while it ran, its environment padding and when it started.\n\n{}",
            standing_out.to_markdown()
        );
    }
    if let Some(gate) = crate::output::quiet::summary(results) {
        let _ = writeln!(out, "## The quiet gate\n\n{gate}.\n");
        let busy = crate::output::quiet::busy_runs(results);
        if !busy.rows.is_empty() {
            let _ = writeln!(
                out,
                "Runs started on a busy machine (the wait for other processes to quiet down \
                 ran out):\n\n{}",
                busy.to_markdown()
            );
        }
    }
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

/// The sampling intervals the runs' timelines record, as the file says them: `100`, or
/// `50 or 100` where runs were sampled differently.
fn sample_intervals(results: &Results) -> String {
    let intervals: std::collections::BTreeSet<u32> = results
        .results
        .iter()
        .flat_map(|set| &set.runs)
        .filter_map(|run| Some(run.memory.as_ref()?.interval_ms))
        .collect();
    let intervals: Vec<String> = intervals.iter().map(u32::to_string).collect();
    intervals.join(" or ")
}

/// The report sections that need the publication or the ablations; empty when the
/// results hold none of their rows.
fn reproduce_sections(results: &Results) -> String {
    let mut out = String::new();
    if let Some(table) = reproduce::beside_publication(results) {
        let _ = writeln!(
            out,
            "## Beside the publication\n\n\
             Each cell: ours / published. Wall and RSS are percent change against \
             slice-nohuge; faults are median minor faults, nohuge -> hybrid, and the factor \
             between them. ✓ the direction agrees, ✗ it does not; in parentheses where our \
             95% interval includes no change.\n\n{}",
            table.to_markdown()
        );
        for note in reproduce::published_notes() {
            let _ = writeln!(out, "> {note}  ");
        }
        if let Some(note) = reproduce::heap_note(results) {
            let _ = writeln!(out, "\n{note}");
        }
        out.push('\n');
    }
    if let Some(table) = reproduce::sweep(results) {
        let _ = writeln!(
            out,
            "## Switch point sweep\n\nWall % / RSS % against slice-nohuge for each switch \
             point of slice-hybrid (8 MiB is plain slice-hybrid).\n\n{}",
            table.to_markdown()
        );
    }
    if let Some(table) = reproduce::ablations(results) {
        let _ = writeln!(
            out,
            "## Ablations: +populate and +collapse\n\nPercent change against plain \
             slice-hybrid (not against the baseline): the question is whether either helps \
             hybrid.\n\n{}",
            table.to_markdown()
        );
    }
    if let Some(table) = reproduce::workload(results) {
        let _ = writeln!(
            out,
            "## Workload size beside the native checker\n\nWhat our checker did, as the \
             baseline's children counted it, and its median peak RSS, minor faults and bytes \
             carved by the slice allocator (all slices, and the most any one slice carved: a hybrid \
             slice only switches to huge pages past its switch point); beside it tsgo (the native TypeScript checker) on \
             the same corpus where it was measured (`shared/reference/native-checker.tsv`). \
             The policy effect grows with the bytes each slice carves: a checker that \
             allocates less than the original crosses the switch point later or never.\n\n{}",
            table.to_markdown()
        );
    }
    if let Some(table) = reproduce::others(results) {
        let _ = writeln!(
            out,
            "## Other allocators on the same rows\n\nWall % / RSS % against slice-nohuge, \
             and median minor faults.\n\n{}",
            table.to_markdown()
        );
    }
    out
}
