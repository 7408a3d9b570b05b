//! The command line's grammar: the clap structs of the bake-off and its subcommands, with
//! their defaults and value checks. Nothing here runs; `app` wires what these parse.
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::contender::DEFAULT_CONTENDERS;
use crate::output::table::Detail;
use crate::results::RoundDefaults;
use crate::shard::Shard;
use crate::workload::WorkloadKind;

#[derive(Parser, Debug)]
#[command(
    name = "compare",
    version,
    about = "The allocator bake-off: runs the checker under each contender, measures, reports",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub bakeoff: BakeoffArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The publication's matrix: five corpora at 1 and 8 checkers, written as a report
    /// beside the published figures.
    Reproduce(Box<ReproduceArgs>),
    /// Renders the table and reports from an existing JSON results file, running nothing.
    Report(ReportArgs),
    /// Predicts every slice policy's minor faults and peak RSS from the slice-nohuge carve
    /// record of a results file, beside what was measured, and the gap to the publication.
    Model(ModelArgs),
    /// The policy frontier of a results file: the adaptive target, every contender's faults
    /// and peak RSS with paired wall and sys ratios, and one figure per corpus of peak RSS
    /// against minor faults.
    Policies(PoliciesArgs),
    /// Joins the results files of the shards (`--shard K/N`) of one plan into one results
    /// set and one report; shards from different kinds of machine side by side, one block
    /// per kind.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' JSON results files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub outputs: OutputArgs,
}

#[derive(Args, Debug)]
pub struct PoliciesArgs {
    /// A JSON results file written by compare.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// Print Markdown tables instead of text.
    #[arg(long)]
    pub markdown: bool,
    /// Write one figure per corpus here, as policies-<corpus>.svg (the folder must exist).
    #[arg(long, value_name = "DIR")]
    pub svg_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ModelArgs {
    /// A JSON results file written by compare (with slice-nohuge runs).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// Print Markdown tables instead of text.
    #[arg(long)]
    pub markdown: bool,
}

#[derive(Args, Debug)]
pub struct BakeoffArgs {
    /// Corpus names or directories (repeatable, or a comma-separated list).
    #[arg(long, value_delimiter = ',', default_value = "synthetic")]
    pub corpus: Vec<String>,
    /// Checker thread counts (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "1,8", value_parser = clap::value_parser!(u32).range(1..=workload::MAX_CHECKERS as i64))]
    pub checkers: Vec<u32>,
    /// Contenders (comma-separated): built-in names, ALLOCATOR:KEY=VALUE[,KEY=VALUE...],
    /// preload:NAME=PATH, or names a --contenders-file defines.
    #[arg(long, default_value = DEFAULT_CONTENDERS)]
    pub contenders: String,
    /// TOML file of named contenders (base allocator, knobs, environment, preload); without
    /// --contenders, the bake-off runs the file's `contenders` list, or all it defines.
    #[arg(long, value_name = "FILE")]
    pub contenders_file: Option<PathBuf>,
    /// The contender every other is compared against; added to the contenders if missing.
    #[arg(long, default_value = "slice-nohuge")]
    pub baseline: String,
    /// What the children run: `checker` (this project's checker) or `tsc` (TypeScript's own
    /// checker on QuickJS, the publication's kind of heap; fetches typescript@6.0.3).
    #[arg(long, value_enum, default_value_t, conflicts_with = "commands")]
    pub workload: WorkloadKind,
    /// Measure this shell command (run as `sh -c CMD`; repeatable, each its own cell)
    /// instead of the checker, every contender by LD_PRELOAD; not with --corpus, --checkers
    /// or --cache-dir.
    #[arg(long = "command", id = "commands", value_name = "CMD")]
    pub commands: Vec<String>,
    /// With --command: do not compare the command's standard output between runs (by
    /// default a run whose output differs from the majority's is a failed run).
    #[arg(long, requires = "commands")]
    pub no_digest: bool,
    #[command(flatten)]
    pub schedule: ScheduleArgs,
    #[command(flatten)]
    pub outputs: OutputArgs,
}

/// The most rounds one cell may ask for (`--runs`, `--min-runs`, `--max-runs`): at a
/// second a run that is weeks of runs per contender, past any honest bake-off.
const MAX_ROUNDS: i64 = 100_000;

#[derive(Args, Debug)]
pub struct ScheduleArgs {
    /// Exactly this many paired rounds per corpus and checker count (each round runs every
    /// contender once), instead of running until --precision.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_ROUNDS), conflicts_with_all = ["precision", "min_runs", "max_runs"])]
    pub runs: Option<u32>,
    /// Add rounds until every contender's wall interval is at most ± this many percent
    /// (or --max-runs is reached); the default of the bake-off or of reproduce otherwise.
    #[arg(long, value_name = "PERCENT", value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// Another precision for some corpora (comma-separated CORPUS=PERCENT, e.g.
    /// `typeorm=3,excalidraw=5`): their cells stop at it instead of --precision's.
    #[arg(long, value_name = "CORPUS=PERCENT", value_delimiter = ',', value_parser = parse_precision_for, conflicts_with = "runs")]
    pub precision_for: Vec<(String, f64)>,
    /// Rounds at least, before the precision is looked at.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=MAX_ROUNDS))]
    pub min_runs: u32,
    /// Rounds at most (the default of the bake-off or of reproduce otherwise).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_ROUNDS))]
    pub max_runs: Option<u32>,
    /// Warm-up rounds (every contender once) before each corpus and checker count.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=MAX_ROUNDS))]
    pub warmup: u32,
    /// Do not run the baseline a second time per round as the A/A control `<baseline>#2`.
    #[arg(long)]
    pub no_control: bool,
    /// Seed of the shuffled round order and the layout padding (random by default; the
    /// seed used is recorded in the JSON).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Skip the fault cost probe (4 KiB and 2 MiB faults, about 15 s) before the runs.
    #[arg(long)]
    pub no_calibration: bool,
    /// Continue the bake-off recorded in this JSON file, skipping finished runs; the file
    /// is kept up to date unless --json names another.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Corpus cache directory, passed to the children.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Folder of the child binaries (checkbench-slice, -mimalloc, -jemalloc, -system),
    /// used as it is. Without it, compare run from a cargo checkout builds them there with
    /// the release profile; otherwise it looks beside itself.
    #[arg(long, value_name = "DIR")]
    pub children: Option<PathBuf>,
    /// With --resume: accept a plan that adds to the recorded one (more corpora, checker
    /// counts, contenders or rounds) instead of refusing any change to it.
    #[arg(long, requires = "resume")]
    pub extend: bool,
    /// Seconds one run may take before it is killed and recorded as timed out (0: no
    /// limit). The default is far above any honest run of the five corpora (seconds).
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    pub timeout: u64,
    /// Run only the K-th of N shares of the plan's cells (corpus x checker count), K
    /// counting from 1; `compare merge` joins the shards' results files.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print the cells this process would run (with --shard, its share) and run nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Before each run, wait up to this many seconds for a quiet machine (other processes
    /// keeping at most --quiet-cpus CPUs busy); 0 turns the gate off. Default: 30 for the
    /// checker and tsc workloads, off for --command.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub quiet_wait: Option<u64>,
    /// The quiet gate's threshold: the CPUs other processes may keep busy (over 0.25 s)
    /// on a machine that counts as quiet.
    #[arg(long, value_name = "CPUS", default_value_t = 0.2, value_parser = parse_cpus)]
    pub quiet_cpus: f64,
}

fn parse_cpus(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(cpus) if cpus.is_finite() && cpus >= 0.0 => Ok(cpus),
        _ => Err(format!("`{text}` is not a number of CPUs (0 or more)")),
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// The bake-off's defaults: on a shared 2-core machine (about 1.3 s a synthetic run
/// while neighbours compile), 16 rounds (and one warm-up) of the six default contenders
/// and the control at 1 and 8 checkers take about 5 minutes with the fault probe, and
/// reach about ±6% on wall time at this machine's paired noise (0.12 per round in log
/// ratio), or ±5% where a cell is quieter, when it stops early.
pub const BAKEOFF_ROUNDS: RoundDefaults = RoundDefaults {
    precision_pct: 5.0,
    max_runs: 16,
};

/// How long a run waits for a quiet machine when --quiet-wait is not given.
pub const QUIET_WAIT_S: u64 = 30;

impl ScheduleArgs {
    /// The quiet gate this bake-off runs (`None`: off); `command` says whether it measures
    /// `--command`s, where the gate is off unless asked for.
    pub fn quiet_gate(&self, command: bool) -> Option<crate::benchmark::quiet::QuietGate> {
        let wait = self
            .quiet_wait
            .unwrap_or(if command { 0 } else { QUIET_WAIT_S });
        (wait > 0).then(|| crate::benchmark::quiet::QuietGate {
            max_wait: std::time::Duration::from_secs(wait),
            threshold_cpus: self.quiet_cpus,
        })
    }

    /// `(min_runs, max_runs, precision_pct)`: fixed rounds with --runs, else rounds from
    /// --min-runs until --precision or --max-runs. Checked by [`check_rounds`] once a
    /// resumed plan has been merged in.
    pub fn rounds(&self, defaults: RoundDefaults) -> (usize, Option<usize>, Option<f64>) {
        if let Some(runs) = self.runs {
            return (runs as usize, None, None);
        }
        let min = self.min_runs as usize;
        let max = self
            .max_runs
            .map_or(defaults.max_runs.max(min), |m| m as usize);
        (
            min,
            Some(max),
            Some(self.precision.unwrap_or(defaults.precision_pct)),
        )
    }

    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| fastrand::u64(..))
    }

    /// `--precision-for`, by corpus.
    pub fn precision_by_corpus(&self) -> std::collections::BTreeMap<String, f64> {
        self.precision_for.iter().cloned().collect()
    }
}

fn parse_precision_for(text: &str) -> Result<(String, f64), String> {
    let (corpus, percent) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not CORPUS=PERCENT"))?;
    if corpus.trim().is_empty() {
        return Err(format!("`{text}` names no corpus"));
    }
    Ok((corpus.trim().to_string(), parse_precision(percent)?))
}

fn parse_precision(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("`{text}` is not a percentage"))?;
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(format!(
            "the precision must be a positive percentage, not {text}"
        ))
    }
}

#[derive(Args, Debug, Default)]
pub struct OutputArgs {
    /// Write every run and the environment as JSON. A bake-off rewrites it after every run
    /// (without it, in target/compare/bakeoff-<unix seconds>.json) and refuses a file that
    /// holds runs it did not measure; merge and report write it once.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every run and the medians as CSV (a bake-off: after every run).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the report as Markdown (a bake-off: after every run).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Draw median RSS against median wall, and minor faults, as SVG (a bake-off: after
    /// every run).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub terminal: TerminalArgs,
}

#[derive(Args, Debug, Default)]
pub struct TerminalArgs {
    /// Print every column and table the Markdown report has (CPU and sys time, every
    /// interval, the absolute medians, huge pages, rounds, the sys time the faults
    /// predict, the runs that stand out), however wide; by default the report fits 120
    /// columns.
    #[arg(long)]
    pub wide: bool,
}

impl TerminalArgs {
    pub fn detail(&self) -> Detail {
        if self.wide {
            Detail::Wide
        } else {
            Detail::Brief
        }
    }
}

#[derive(Args, Debug)]
pub struct ReproduceArgs {
    /// Add the switch point sweep (2, 4, 16 MiB), +populate and +collapse.
    #[arg(long)]
    pub ablations: bool,
    /// Only these of the five corpora (comma-separated); all by default.
    #[arg(long, value_delimiter = ',')]
    pub corpus: Vec<String>,
    /// Only these checker counts; 1 and 8 by default.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=workload::MAX_CHECKERS as i64))]
    pub checkers: Vec<u32>,
    /// What the children run: `checker`, or `tsc` (TypeScript's own checker on QuickJS: the
    /// five corpora at 1 and 8 checkers, the slice policies and slice-adaptive).
    #[arg(long, value_enum, default_value_t)]
    pub workload: WorkloadKind,
    #[command(flatten)]
    pub schedule: ScheduleArgs,
    /// Markdown report [default: docs/RESULTS.md, docs/RESULTS-tsc.md for --workload tsc].
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Chart [default: docs/results.svg, docs/results-tsc.svg].
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Every run, for `--resume` and `compare report` [default: docs/results.json,
    /// docs/results-tsc.json].
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// CSV of every run.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    #[command(flatten)]
    pub terminal: TerminalArgs,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A JSON results file written by compare.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    #[command(flatten)]
    pub outputs: OutputArgs,
}
