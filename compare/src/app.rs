//! The command line: parsing, checking every input before the first run, and wiring the
//! bake-off to the terminal and the files. Errors here carry context for the user.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::benchmark::children::{CHILD_PROFILE, Origin};
use crate::benchmark::launcher::{Binaries, Launcher};
use crate::benchmark::runner::{self, Outcome, Runner};
use crate::benchmark::schedule::Slot;
use crate::calibrate::Calibration;
use crate::child::BuildInfo;
use crate::contender::{self, Contender, DEFAULT_CONTENDERS};
use crate::environment::{self, Environment};
use crate::export::lock::ResultsLock;
use crate::export::{Format, Outputs};
use crate::output::table::Detail;
use crate::output::{progress::Progress, report};
use crate::reproduce;
use crate::results::{Results, RoundDefaults, Settings};
use crate::shard::{self, Shard};
use crate::workload::WorkloadKind;

/// Exit status after Ctrl-C, as shells report a SIGINT.
const EXIT_INTERRUPTED: u8 = 130;

#[derive(Parser, Debug)]
#[command(
    name = "compare",
    version,
    about = "The allocator bake-off: runs the checker under each contender, measures, reports",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    bakeoff: BakeoffArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The publication's matrix: five corpora at 1 and 8 checkers, written as a report
    /// beside the published figures.
    Reproduce(ReproduceArgs),
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
struct MergeArgs {
    /// The shards' JSON results files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    outputs: OutputArgs,
}

#[derive(Args, Debug)]
struct PoliciesArgs {
    /// A JSON results file written by compare.
    #[arg(long, value_name = "FILE")]
    from: PathBuf,
    /// Print Markdown tables instead of text.
    #[arg(long)]
    markdown: bool,
    /// Write one figure per corpus here, as policies-<corpus>.svg (the folder must exist).
    #[arg(long, value_name = "DIR")]
    svg_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ModelArgs {
    /// A JSON results file written by compare (with slice-nohuge runs).
    #[arg(long, value_name = "FILE")]
    from: PathBuf,
    /// Print Markdown tables instead of text.
    #[arg(long)]
    markdown: bool,
}

#[derive(Args, Debug)]
struct BakeoffArgs {
    /// Corpus names or directories (repeatable, or a comma-separated list).
    #[arg(long, value_delimiter = ',', default_value = "synthetic")]
    corpus: Vec<String>,
    /// Checker thread counts (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "1,8", value_parser = clap::value_parser!(u32).range(1..=checker::MAX_CHECKERS as i64))]
    checkers: Vec<u32>,
    /// Contenders (comma-separated): built-in names, ALLOCATOR:KEY=VALUE[,KEY=VALUE...],
    /// preload:NAME=PATH, or names a --contenders-file defines.
    #[arg(long, default_value = DEFAULT_CONTENDERS)]
    contenders: String,
    /// TOML file of named contenders (base allocator, knobs, environment, preload); without
    /// --contenders, the bake-off runs the file's `contenders` list, or all it defines.
    #[arg(long, value_name = "FILE")]
    contenders_file: Option<PathBuf>,
    /// The contender every other is compared against; added to the contenders if missing.
    #[arg(long, default_value = "slice-nohuge")]
    baseline: String,
    /// What the children run: `checker` (this project's checker) or `tsc` (TypeScript's own
    /// checker on QuickJS, the publication's kind of heap; fetches typescript@6.0.3).
    #[arg(long, value_enum, default_value_t = WorkloadKind::Checker, conflicts_with = "commands")]
    workload: WorkloadKind,
    /// Measure this shell command (run as `sh -c CMD`; repeatable, each its own cell)
    /// instead of the checker, every contender by LD_PRELOAD; not with --corpus, --checkers
    /// or --cache-dir.
    #[arg(long = "command", id = "commands", value_name = "CMD")]
    commands: Vec<String>,
    /// With --command: do not compare the command's standard output between runs (by
    /// default a run whose output differs from the majority's is a failed run).
    #[arg(long, requires = "commands")]
    no_digest: bool,
    #[command(flatten)]
    schedule: ScheduleArgs,
    #[command(flatten)]
    outputs: OutputArgs,
}

/// The most rounds one cell may ask for (`--runs`, `--min-runs`, `--max-runs`): at a
/// second a run that is weeks of runs per contender, past any honest bake-off.
const MAX_ROUNDS: i64 = 100_000;

#[derive(Args, Debug)]
struct ScheduleArgs {
    /// Exactly this many paired rounds per corpus and checker count (each round runs every
    /// contender once), instead of running until --precision.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_ROUNDS), conflicts_with_all = ["precision", "min_runs", "max_runs"])]
    runs: Option<u32>,
    /// Add rounds until every contender's wall interval is at most ± this many percent
    /// (or --max-runs is reached); the default of the bake-off or of reproduce otherwise.
    #[arg(long, value_name = "PERCENT", value_parser = parse_precision)]
    precision: Option<f64>,
    /// Rounds at least, before the precision is looked at.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=MAX_ROUNDS))]
    min_runs: u32,
    /// Rounds at most (the default of the bake-off or of reproduce otherwise).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_ROUNDS))]
    max_runs: Option<u32>,
    /// Warm-up rounds (every contender once) before each corpus and checker count.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=MAX_ROUNDS))]
    warmup: u32,
    /// Do not run the baseline a second time per round as the A/A control `<baseline>#2`.
    #[arg(long)]
    no_control: bool,
    /// Seed of the shuffled round order and the layout padding (random by default; the
    /// seed used is recorded in the JSON).
    #[arg(long)]
    seed: Option<u64>,
    /// Skip the fault cost probe (4 KiB and 2 MiB faults, about 15 s) before the runs.
    #[arg(long)]
    no_calibration: bool,
    /// Continue the bake-off recorded in this JSON file, skipping finished runs; the file
    /// is kept up to date unless --json names another.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Corpus cache directory, passed to the children.
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Folder of the child binaries (checkbench-slice, -mimalloc, -jemalloc, -system),
    /// used as it is. Without it, compare run from a cargo checkout builds them there with
    /// the release profile; otherwise it looks beside itself.
    #[arg(long, value_name = "DIR")]
    children: Option<PathBuf>,
    /// With --resume: accept a plan that adds to the recorded one (more corpora, checker
    /// counts, contenders or rounds) instead of refusing any change to it.
    #[arg(long, requires = "resume")]
    extend: bool,
    /// Seconds one run may take before it is killed and recorded as timed out (0: no
    /// limit). The default is far above any honest run of the five corpora (seconds).
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    timeout: u64,
    /// Run only the K-th of N shares of the plan's cells (corpus x checker count), K
    /// counting from 1; `compare merge` joins the shards' results files.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Print the cells this process would run (with --shard, its share) and run nothing.
    #[arg(long)]
    dry_run: bool,
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

impl ScheduleArgs {
    /// `(min_runs, max_runs, precision_pct)`: fixed rounds with --runs, else rounds from
    /// --min-runs until --precision or --max-runs. Checked by [`check_rounds`] once a
    /// resumed plan has been merged in.
    fn rounds(&self, defaults: RoundDefaults) -> (usize, Option<usize>, Option<f64>) {
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

    fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| fastrand::u64(..))
    }
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
struct OutputArgs {
    /// Write every run and the environment as JSON (after every run); a bake-off without
    /// it keeps them in target/compare/bakeoff-<unix seconds>.json.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write every run and the medians as CSV (after every run).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write the report as Markdown (after every run).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Draw median RSS against median wall, and minor faults, as SVG (after every run).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    terminal: TerminalArgs,
}

#[derive(Args, Debug, Default)]
struct TerminalArgs {
    /// Print every column and table the Markdown report has (CPU and sys time, every
    /// interval, the absolute medians, huge pages, rounds, the sys time the faults
    /// predict, the runs that stand out), however wide; by default the report fits 120
    /// columns.
    #[arg(long)]
    wide: bool,
}

impl TerminalArgs {
    fn detail(&self) -> Detail {
        if self.wide {
            Detail::Wide
        } else {
            Detail::Brief
        }
    }
}

#[derive(Args, Debug)]
struct ReproduceArgs {
    /// Add the switch point sweep (2, 4, 16 MiB), +populate and +collapse.
    #[arg(long)]
    ablations: bool,
    /// Only these of the five corpora (comma-separated); all by default.
    #[arg(long, value_delimiter = ',')]
    corpus: Vec<String>,
    /// Only these checker counts; 1 and 8 by default.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=checker::MAX_CHECKERS as i64))]
    checkers: Vec<u32>,
    /// What the children run: `checker`, or `tsc` (TypeScript's own checker on QuickJS: the
    /// five corpora at 1 checker, the slice policies and slice-adaptive).
    #[arg(long, value_enum, default_value_t = WorkloadKind::Checker)]
    workload: WorkloadKind,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// Markdown report [default: docs/RESULTS.md, docs/RESULTS-tsc.md for --workload tsc].
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Chart [default: docs/results.svg, docs/results-tsc.svg].
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Every run, for `--resume` and `compare report` [default: docs/results.json,
    /// docs/results-tsc.json].
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// CSV of every run.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    terminal: TerminalArgs,
}

#[derive(Args, Debug)]
struct ReportArgs {
    /// A JSON results file written by compare.
    #[arg(long, value_name = "FILE")]
    from: PathBuf,
    #[command(flatten)]
    outputs: OutputArgs,
}

/// Runs the command line; errors are printed with their causes.
pub fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    match run(cli, &matches) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli, matches: &ArgMatches) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Report(args)) => report(args),
        Some(Command::Model(args)) => {
            let results = Results::load(&args.from)?;
            let Some(report) = crate::model::report(&results, args.markdown) else {
                bail!(
                    "{} has no slice-nohuge run with a carve record (results from before the \
                     carve record was reported, or without slice-nohuge), so there is nothing \
                     to predict from",
                    args.from.display()
                );
            };
            print!("{report}");
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Policies(args)) => {
            let results = Results::load(&args.from)?;
            print!("{}", crate::policies::report(&results, args.markdown));
            if let Some(dir) = args.svg_dir {
                for corpus in &results.settings.corpora {
                    let svg = crate::policies::figure(&results, corpus)
                        .map_err(|why| anyhow::anyhow!("cannot draw {corpus}: {why}"))?;
                    let path = dir.join(format!("policies-{corpus}.svg"));
                    crate::export::write_atomically(&path, svg.as_bytes())?;
                    eprintln!("written: {}", path.display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Merge(args)) => {
            crate::merge::run(
                &args.files,
                &outputs(&args.outputs),
                args.outputs.terminal.detail(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Reproduce(args)) => {
            let (min_runs, max_runs, precision_pct) = args.schedule.rounds(reproduce::ROUNDS);
            let mut settings = reproduce::settings(
                args.workload,
                args.ablations,
                min_runs,
                args.schedule.warmup as usize,
            );
            settings.max_runs = max_runs;
            settings.precision_pct = precision_pct;
            settings.control = !args.schedule.no_control;
            settings.seed = args.schedule.seed();
            check_rounds(&mut settings, reproduce::ROUNDS)?;
            if !args.corpus.is_empty() {
                for corpus in &args.corpus {
                    if !reproduce::CORPORA.contains(&corpus.as_str()) {
                        bail!(
                            "`{corpus}` is not one of the publication's corpora ({})",
                            reproduce::CORPORA.join(", ")
                        );
                    }
                }
                settings.corpora = args.corpus.clone();
            }
            if !args.checkers.is_empty() {
                settings.checkers = args.checkers.iter().map(|&n| n as usize).collect();
            }
            let default = |stem: &str, ext: &str| {
                let suffix = match args.workload {
                    WorkloadKind::Checker => String::new(),
                    other => format!("-{other}"),
                };
                // A shard writes its runs only, each to its own file; the merge reports.
                let shard = args.schedule.shard.map_or(String::new(), |s| {
                    format!(".shard-{}-of-{}", s.index, s.count)
                });
                PathBuf::from(format!("docs/{stem}{suffix}{shard}.{ext}"))
            };
            let whole = args.schedule.shard.is_none();
            let json = args
                .json
                .clone()
                .unwrap_or_else(|| default("results", "json"));
            let markdown = args
                .markdown
                .clone()
                .or_else(|| whole.then(|| default("RESULTS", "md")));
            let svg = args
                .svg
                .clone()
                .or_else(|| whole.then(|| default("results", "svg")));
            let outputs = Outputs::new()
                .with(Format::Json, Some(&json))
                .with(Format::Csv, args.csv.as_deref())
                .with(Format::Markdown, markdown.as_deref())
                .with(Format::Svg, svg.as_deref());
            for path in outputs.paths().filter(|_| !args.schedule.dry_run) {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                }
            }
            bakeoff(settings, &args.schedule, outputs, args.terminal.detail())
        }
        None => {
            let args = cli.bakeoff;
            let from_file = match &args.contenders_file {
                Some(path) => Some(contender::file::load(path)?),
                None => None,
            };
            let given = matches.value_source("contenders") == Some(ValueSource::CommandLine);
            let mut contenders = match from_file {
                Some(file) if !given => file.run,
                _ => contender::parse_list(&args.contenders).context("in --contenders")?,
            };
            if contenders.is_empty() {
                bail!("--contenders names no contender");
            }
            let baseline: Contender = args.baseline.parse().context("in --baseline")?;
            if !contenders.contains(&baseline) {
                contenders.insert(0, baseline);
            }
            let mut checkers: Vec<usize> = args.checkers.iter().map(|&n| n as usize).collect();
            checkers.sort_unstable();
            checkers.dedup();
            let mut corpora: Vec<String> = args
                .corpus
                .iter()
                .map(|c| c.trim())
                .filter(|c| !c.is_empty())
                .map(absolute_corpus)
                .collect();
            let command = crate::command::cli::plan(&args.commands, args.no_digest, matches)?;
            if let Some((commands, _)) = &command {
                corpora = commands.clone();
                checkers = vec![1];
            }
            if corpora.is_empty() {
                bail!("--corpus names no corpus");
            }
            if let Some(twice) = corpora
                .iter()
                .enumerate()
                .find_map(|(i, c)| corpora[..i].contains(c).then_some(c))
            {
                bail!("--corpus names `{twice}` twice; each corpus is measured once per bake-off");
            }
            let (min_runs, max_runs, precision_pct) = args.schedule.rounds(BAKEOFF_ROUNDS);
            let mut settings = Settings {
                corpora,
                checkers,
                contenders,
                baseline,
                min_runs,
                max_runs,
                precision_pct,
                warmup: args.schedule.warmup as usize,
                control: !args.schedule.no_control,
                seed: args.schedule.seed(),
                corpus_digests: BTreeMap::new(),
                outputs: BTreeMap::new(),
                command: command.map(|(_, settings)| settings),
                workload: args.workload,
            };
            if let Some(path) = &args.schedule.resume {
                let previous = Results::load(path)?.settings;
                crate::command::cli::continue_workload(&mut settings, &previous, matches);
                continue_plan(&mut settings, previous, matches);
            }
            check_rounds(&mut settings, BAKEOFF_ROUNDS)?;
            let outputs = outputs(&args.outputs);
            bakeoff(
                settings,
                &args.schedule,
                outputs,
                args.outputs.terminal.detail(),
            )
        }
    }
}

/// Where a bake-off keeps its runs when neither `--json` nor `--resume` is given, so that
/// an interrupted one can always be resumed: `compare/bakeoff-<unix seconds>.json` in the
/// target folder when compare runs from its checkout, else in the user's data folder
/// (`$XDG_DATA_HOME/checkbench`). The folder is created here; failing that is an error
/// before the first run.
fn default_json(origin: &Origin, shard: Option<Shard>) -> Result<PathBuf> {
    let dir = match origin {
        Origin::Checkout { target_dir, .. } => target_dir.join("compare"),
        _ => dirs::data_dir()
            .context("no --json given, and no data folder to keep the results in ($XDG_DATA_HOME or $HOME); pass --json FILE")?
            .join("checkbench"),
    };
    std::fs::create_dir_all(&dir).with_context(|| {
        format!(
            "no --json given, and the default folder for results {} cannot be created; pass --json FILE",
            dir.display()
        )
    })?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let shard = shard.map_or(String::new(), |s| {
        format!("-shard-{}-of-{}", s.index, s.count)
    });
    Ok(dir.join(format!("bakeoff-{now}{shard}.json")))
}

fn outputs(args: &OutputArgs) -> Outputs {
    Outputs::new()
        .with(Format::Json, args.json.as_deref())
        .with(Format::Csv, args.csv.as_deref())
        .with(Format::Markdown, args.markdown.as_deref())
        .with(Format::Svg, args.svg.as_deref())
}

/// Checks every input, then runs the plan (or what is left of it).
fn bakeoff(
    settings: Settings,
    schedule: &ScheduleArgs,
    mut outputs: Outputs,
    detail: Detail,
) -> Result<ExitCode> {
    let mut results = match &schedule.resume {
        Some(path) => {
            let previous = Results::load(path)?;
            previous.settings.validate().map_err(|why| {
                anyhow::anyhow!(
                    "cannot resume {}: its plan cannot run ({why}); was it edited by hand?",
                    path.display()
                )
            })?;
            check_resumable(path, &previous.settings, &settings, schedule.extend)?;
            if outputs.path(Format::Json).is_none() {
                outputs = outputs.with(Format::Json, Some(path));
            }
            for (flag, file) in &previous.settings.outputs {
                if let Some(format) = Format::from_flag(flag)
                    && outputs.path(format).is_none()
                {
                    outputs = outputs.with(format, Some(file));
                }
            }
            Results {
                settings: Settings {
                    corpus_digests: previous.settings.corpus_digests.clone(),
                    ..settings
                },
                ..previous
            }
        }
        None => Results::new(Environment::capture(), settings),
    };
    results.refresh();
    apply_shard(&mut results, schedule)?;
    if schedule.dry_run {
        print!("{}", shard::dry_run(&results));
        return Ok(ExitCode::SUCCESS);
    }
    let origin = Origin::locate(schedule.children.as_deref()).context("in --children")?;
    if outputs.path(Format::Json).is_none() {
        let shard = results.shard.as_ref().map(|record| record.shard());
        outputs = outputs.with(Format::Json, Some(&default_json(&origin, shard)?));
    }
    outputs
        .check_writable()
        .context("checking the output files before any run")?;
    results.settings.outputs = outputs
        .targets()
        .map(|(format, path)| (format.flag().to_string(), absolute(path)))
        .collect();
    let json = outputs.path(Format::Json).map(Path::to_path_buf);
    let _lock = match &json {
        Some(path) => Some(ResultsLock::acquire(path)?),
        None => None,
    };
    if let Some(path) = &json {
        eprintln!(
            "results: {} (rewritten after every run; `--resume {}` continues an interrupted bake-off)",
            path.display(),
            path.display()
        );
    }
    let pending = runner::pending(&results);
    let mut contenders: Vec<Contender> = pending.iter().map(|slot| slot.contender).collect();
    contenders.dedup();
    let timeout = (schedule.timeout > 0).then(|| Duration::from_secs(schedule.timeout));
    let launcher: Box<dyn Launcher> = match results.settings.command {
        Some(command) => {
            let mut cells: Vec<usize> = pending.iter().map(|slot| slot.corpus).collect();
            cells.dedup();
            let commands: Vec<String> = cells
                .iter()
                .map(|&i| results.settings.corpora[i].clone())
                .collect();
            let launcher = crate::command::launcher::prepare(
                &origin,
                &contenders,
                &commands,
                command.digest,
                timeout,
            )?;
            record_children(&mut results, launcher.builds(), schedule.resume.as_deref())?;
            Box::new(launcher)
        }
        None => Box::new(prepare_checker(
            &mut results,
            &origin,
            &contenders,
            &pending,
            schedule,
            timeout,
        )?),
    };
    // Children inherit the parent's resident high-water mark through fork into their
    // ru_maxrss; hand the corpora's freed heap back before the first fork.
    // SAFETY: malloc_trim only releases free memory of the C allocator, which serves this
    // process (compare installs no global allocator).
    unsafe { libc::malloc_trim(0) };
    eprintln!("{}", results.environment.summary());
    eprintln!("{}", results.environment.machine_summary());
    if !pending.is_empty() && !schedule.no_calibration {
        eprintln!("measuring the cost of 4 KiB and 2 MiB page faults (about 15 s)");
        results.calibrations.push(Calibration::measure());
    }
    let checkout = environment::checkout_revision();
    if let Some(warning) =
        environment::stale_build_warning(environment::BUILD_REVISION, checkout.as_deref())
    {
        eprintln!("warning: {warning}");
    }

    static STOP: AtomicBool = AtomicBool::new(false);
    // Ctrl-C, SIGTERM and SIGHUP alike: the child in flight is killed and discarded,
    // every finished run is kept, and the table and the resume hint are printed.
    ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst))
        .context("installing the Ctrl-C and SIGTERM handler")?;
    let progress = Progress::stderr();
    let runner = Runner {
        launcher: launcher.as_ref(),
        stop: &STOP,
        outputs: &outputs,
        progress: &progress,
    };
    let outcome = runner.run(&mut results)?;
    drop(progress);
    outputs.write_all(&results)?;
    print!("{}", report::render_text(&results, detail));
    let kept: Vec<String> = outputs.paths().map(|p| p.display().to_string()).collect();
    match outcome {
        Outcome::Finished => {
            if !kept.is_empty() {
                eprintln!("written: {}", kept.join(", "));
            }
            let any_ok = results.results.iter().any(|set| set.ok_runs > 0);
            Ok(if any_ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Outcome::Interrupted => {
            match outputs.path(Format::Json) {
                Some(json) => eprintln!(
                    "interrupted: the finished runs are kept in {}; continue with --resume {}",
                    kept.join(", "),
                    json.display()
                ),
                None => eprintln!("interrupted: pass --json FILE to keep runs for --resume"),
            }
            Ok(ExitCode::from(EXIT_INTERRUPTED))
        }
    }
}

/// `--shard K/N`: a new bake-off records its share of the plan; a resumed shard keeps the
/// share its file records, and a resumed whole plan cannot become a shard.
fn apply_shard(results: &mut Results, schedule: &ScheduleArgs) -> Result<()> {
    let resumed = schedule.resume.as_deref().map(Path::display);
    match (&results.shard, schedule.shard, resumed) {
        (Some(record), Some(asked), Some(path)) if record.shard() != asked => bail!(
            "cannot resume {path} as shard {asked}: it is shard {} of its plan",
            record.shard()
        ),
        (Some(record), _, Some(path)) if schedule.extend => bail!(
            "cannot extend {path}: it is shard {} of its plan, whose cells were dealt from the              recorded plan; extend the plan in a new sharded bake-off",
            record.shard()
        ),
        (None, Some(asked), Some(path)) => bail!(
            "cannot resume {path} as shard {asked}: it holds a whole plan (written without              --shard); resume it without --shard"
        ),
        (None, Some(_), None) if schedule.seed.is_none() => bail!(
            "--shard needs --seed N: every shard draws its cells' round order and layout from \
             the plan's seed, so all shards of one plan must be given the same one"
        ),
        (None, Some(asked), None) => {
            results.shard =
                Some(shard::record(&results.settings, asked).map_err(anyhow::Error::msg)?);
        }
        _ => {}
    }
    Ok(())
}

/// Before the first run of a checker bake-off: the child binaries built and checked, and
/// every corpus opened (fetched if needed) and its digest recorded.
fn prepare_checker(
    results: &mut Results,
    origin: &Origin,
    contenders: &[Contender],
    pending: &[Slot],
    schedule: &ScheduleArgs,
    timeout: Option<Duration>,
) -> Result<Binaries> {
    let children = origin
        .prepare(contenders)
        .context("preparing the child binaries before the first run")?;
    record_children(results, children, schedule.resume.as_deref())?;
    let binaries = Binaries {
        dir: origin.dir(),
        workload: results.settings.workload,
        cache_dir: schedule.cache_dir.clone(),
        timeout,
    };
    let settings = &results.settings;
    if settings.workload == WorkloadKind::Tsc {
        // The children read the compiler from the cache without fetching or hashing it.
        let options = corpora::OpenOptions {
            cache_dir: schedule.cache_dir.clone(),
            fetch: true,
            progress: true,
        };
        tsc::TypeScript::open(&options, false).context(
            "opening the TypeScript package the tsc workload runs (the `typescript` corpus)",
        )?;
    }
    let recorded = settings.corpus_digests.clone();
    let mut digests = Vec::new();
    let corpora = settings
        .corpora
        .iter()
        .enumerate()
        .filter(|(index, _)| pending.iter().any(|slot| slot.corpus == *index))
        .map(|(_, corpus)| corpus);
    for corpus in corpora {
        let options = corpora::OpenOptions {
            cache_dir: schedule.cache_dir.clone(),
            fetch: true,
            progress: true,
        };
        let opened = corpora::open(corpus, &options)
            .with_context(|| format!("opening corpus `{corpus}` (from --corpus)"))?;
        let digest = corpus_digest(&opened);
        match recorded.get(corpus) {
            Some(before) if *before != digest => bail!(
                "cannot resume {}: corpus `{corpus}` has changed since its runs were measured \
                 (files digest {before}, now {digest}); start a new bake-off with another --json",
                schedule
                    .resume
                    .as_deref()
                    .unwrap_or(Path::new(""))
                    .display()
            ),
            None if schedule.resume.is_some()
                && Path::new(corpus).is_relative()
                && !is_named(corpus) =>
            {
                eprintln!(
                    "warning: the resumed file records corpus folder `{corpus}` as a relative \
                     path without a digest of its files (written before compare recorded them): \
                     compare cannot tell it is the tree the earlier runs measured"
                );
            }
            _ => {}
        }
        digests.push((corpus.clone(), digest));
    }
    results.settings.corpus_digests.extend(digests);
    Ok(binaries)
}

/// Records the children's builds (or the slice library's) in the results; a resumed bake-off
/// refuses children built from other sources than the runs it continues.
fn record_children(
    results: &mut Results,
    children: BTreeMap<String, BuildInfo>,
    resumed: Option<&Path>,
) -> Result<()> {
    if let Some(path) = resumed {
        for (name, before) in &results.environment.children {
            if let Some(now) = children.get(name)
                && now.source_digest != before.source_digest
            {
                bail!(
                    "cannot resume {}: its runs of {name} were measured by a child built from                      {before}, but this {name} is built from {now}; a resumed bake-off would                      mix two builds (start a new bake-off, or check out revision {})",
                    path.display(),
                    before.revision
                );
            }
        }
    }
    results.environment.child_profile = CHILD_PROFILE.to_string();
    results.environment.source_digest = BuildInfo::current().source_digest;
    results.environment.children.extend(children);
    Ok(())
}

/// A resumed bake-off keeps the plan of the file it continues, except where the command
/// line says otherwise.
fn continue_plan(settings: &mut Settings, previous: Settings, matches: &ArgMatches) {
    let defaulted = |id: &str| {
        matches
            .value_source(id)
            .is_none_or(|s| s == ValueSource::DefaultValue)
    };
    if defaulted("corpus") && defaulted("commands") {
        settings.corpora = previous.corpora;
    }
    if defaulted("checkers") && settings.command.is_none() {
        settings.checkers = previous.checkers;
    }
    if defaulted("contenders") {
        settings.contenders = previous.contenders;
    }
    if defaulted("baseline") {
        settings.baseline = previous.baseline;
    }
    if !settings.contenders.contains(&settings.baseline) {
        settings.contenders.insert(0, settings.baseline);
    }
    if defaulted("runs") {
        if defaulted("min_runs") {
            settings.min_runs = previous.min_runs;
        }
        if defaulted("max_runs") {
            settings.max_runs = previous.max_runs;
        }
        if defaulted("precision") {
            settings.precision_pct = previous.precision_pct;
        }
    }
    if defaulted("no_control") {
        settings.control = previous.control;
    }
    if defaulted("seed") {
        settings.seed = previous.seed;
    }
    if defaulted("warmup") {
        settings.warmup = previous.warmup;
    }
    if defaulted("workload") {
        settings.workload = previous.workload;
    }
}

/// A precision needs a most rounds (the defaults' when a resumed fixed plan gets one), and
/// the most rounds cannot be below the least.
fn check_rounds(settings: &mut Settings, defaults: RoundDefaults) -> Result<()> {
    if settings.precision_pct.is_some() && settings.max_runs.is_none() {
        settings.max_runs = Some(defaults.max_runs.max(settings.min_runs));
    }
    if let Some(max) = settings.max_runs
        && max < settings.min_runs
    {
        bail!("--max-runs {max} is below --min-runs {}", settings.min_runs);
    }
    Ok(())
}

/// A resumed bake-off runs the plan of the file it continues. A command line that asks
/// for another plan is refused, naming what differs, unless `--extend` is given and the
/// new plan only adds to the old one (corpora, checker counts, contenders, rounds).
fn check_resumable(path: &Path, previous: &Settings, asked: &Settings, extend: bool) -> Result<()> {
    if previous.workload != asked.workload {
        bail!(
            "cannot resume {}: its runs measured the `{}` workload, not `{}`; start a new \
             bake-off with another --json",
            path.display(),
            previous.workload,
            asked.workload
        );
    }
    let mut changes = Vec::new();
    let mut shrinks = Vec::new();
    let set = |v: &[String]| v.iter().cloned().collect::<std::collections::BTreeSet<_>>();
    let names = |v: &[Contender]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let nums = |v: &[usize]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    for (what, before, now) in [
        ("corpora", set(&previous.corpora), set(&asked.corpora)),
        (
            "checker counts",
            set(&nums(&previous.checkers)),
            set(&nums(&asked.checkers)),
        ),
        (
            "contenders",
            set(&names(&previous.contenders)),
            set(&names(&asked.contenders)),
        ),
    ] {
        if before != now {
            let added: Vec<_> = now.difference(&before).cloned().collect();
            let dropped: Vec<_> = before.difference(&now).cloned().collect();
            if !dropped.is_empty() {
                shrinks.push(format!("{what} {} dropped", dropped.join(",")));
            }
            if !added.is_empty() {
                changes.push(format!("{what} {} added", added.join(",")));
            }
        }
    }
    let most = |s: &Settings| s.max_runs.unwrap_or(s.min_runs);
    let rounds = format!(
        "rounds {}..={} instead of {}..={}",
        asked.min_runs,
        most(asked),
        previous.min_runs,
        most(previous)
    );
    if asked.min_runs < previous.min_runs || most(asked) < most(previous) {
        shrinks.push(rounds);
    } else if asked.min_runs != previous.min_runs || most(asked) != most(previous) {
        changes.push(rounds);
    }
    if asked.precision_pct != previous.precision_pct {
        changes.push("another --precision".to_string());
    }
    for (what, differs) in [
        ("baseline", asked.baseline != previous.baseline),
        ("A/A control", asked.control != previous.control),
        (
            "workload (command or checker, digest)",
            asked.command != previous.command,
        ),
        ("seed", asked.seed != previous.seed),
    ] {
        if differs {
            shrinks.push(format!("another {what}"));
        }
    }
    if shrinks.is_empty() && (changes.is_empty() || extend) {
        if !changes.is_empty() {
            eprintln!(
                "extending the plan of {}: {}",
                path.display(),
                changes.join("; ")
            );
        }
        return Ok(());
    }
    let all: Vec<String> = shrinks.iter().chain(&changes).cloned().collect();
    let hint = if shrinks.is_empty() {
        "pass --extend to add them to the plan, or resume without these options"
    } else {
        "resume without these options to finish the recorded plan, or start a new bake-off \
         with another --json"
    };
    bail!(
        "cannot resume {}: this command line asks for another plan than the file's ({}); {hint}",
        path.display(),
        all.join("; ")
    )
}

/// A corpus as the plan records it: a folder as its absolute path, so that resuming from
/// another directory measures the same tree; names (`trpc`, `synthetic`) as given.
fn absolute_corpus(spec: &str) -> String {
    if is_named(spec) || !Path::new(spec).is_dir() {
        return spec.to_string();
    }
    std::fs::canonicalize(spec).map_or_else(|_| spec.to_string(), |p| p.display().to_string())
}

/// A corpus name rather than a folder: the generator's `synthetic...` or a pinned corpus.
fn is_named(spec: &str) -> bool {
    (spec.starts_with("synthetic") && !spec.contains('/')) || corpora::corpus_def(spec).is_some()
}

/// SHA-256 of a corpus's files and library, path and contents, hex.
fn corpus_digest(corpus: &corpora::Corpus) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for file in corpus.files.iter().chain(&corpus.lib) {
        hasher.update(file.path.as_bytes());
        hasher.update([0]);
        hasher.update((file.bytes.len() as u64).to_le_bytes());
        hasher.update(&file.bytes);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `path` made absolute against the working directory (not resolved: a link stays a link).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn report(args: ReportArgs) -> Result<ExitCode> {
    let results = Results::load(&args.from)?;
    let outputs = outputs(&args.outputs);
    outputs.check_writable()?;
    outputs.write_all(&results)?;
    print!(
        "{}",
        report::render_text(&results, args.outputs.terminal.detail())
    );
    Ok(ExitCode::SUCCESS)
}
