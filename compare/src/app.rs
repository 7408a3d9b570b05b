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
use crate::benchmark::launcher::Binaries;
use crate::benchmark::runner::{self, Outcome, Runner};
use crate::child::BuildInfo;
use crate::contender::{self, Contender, DEFAULT_CONTENDERS};
use crate::environment::{self, Environment};
use crate::export::lock::ResultsLock;
use crate::export::{Format, Outputs};
use crate::output::{progress::Progress, table};
use crate::reproduce;
use crate::results::{Results, Settings};

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
    /// Contenders (comma-separated).
    #[arg(long, default_value = DEFAULT_CONTENDERS)]
    contenders: String,
    /// The contender every other is compared against; added to the contenders if missing.
    #[arg(long, default_value = "slice-nohuge")]
    baseline: String,
    #[command(flatten)]
    schedule: ScheduleArgs,
    #[command(flatten)]
    outputs: OutputArgs,
}

#[derive(Args, Debug)]
struct ScheduleArgs {
    /// Measured runs of each contender per corpus and checker count.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Warm-up rounds (every contender once) before each corpus and checker count.
    #[arg(long, default_value_t = 1)]
    warmup: u32,
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
    /// Seconds one run may take before it is killed and recorded as timed out (0: no
    /// limit). The default is far above any honest run of the five corpora (seconds).
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    timeout: u64,
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
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// Markdown report.
    #[arg(long, value_name = "FILE", default_value = "docs/RESULTS.md")]
    markdown: PathBuf,
    /// Chart.
    #[arg(long, value_name = "FILE", default_value = "docs/results.svg")]
    svg: PathBuf,
    /// Every run, for `--resume` and `compare report`.
    #[arg(long, value_name = "FILE", default_value = "docs/results.json")]
    json: PathBuf,
    /// CSV of every run.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
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
        Some(Command::Reproduce(args)) => {
            let mut settings = reproduce::settings(
                args.ablations,
                args.schedule.runs as usize,
                args.schedule.warmup as usize,
            );
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
            let outputs = Outputs::new()
                .with(Format::Json, Some(&args.json))
                .with(Format::Csv, args.csv.as_deref())
                .with(Format::Markdown, Some(&args.markdown))
                .with(Format::Svg, Some(&args.svg));
            for path in outputs.paths() {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                }
            }
            bakeoff(settings, &args.schedule, outputs)
        }
        None => {
            let args = cli.bakeoff;
            let mut contenders =
                contender::parse_list(&args.contenders).context("in --contenders")?;
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
            let corpora: Vec<String> = args
                .corpus
                .iter()
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect();
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
            let mut settings = Settings {
                corpora,
                checkers,
                contenders,
                baseline,
                runs: args.schedule.runs as usize,
                warmup: args.schedule.warmup as usize,
            };
            if let Some(path) = &args.schedule.resume {
                let previous = Results::load(path)?.settings;
                continue_plan(&mut settings, previous, matches);
            }
            let outputs = outputs(&args.outputs);
            bakeoff(settings, &args.schedule, outputs)
        }
    }
}

/// Where a bake-off keeps its runs when neither `--json` nor `--resume` is given, so that
/// an interrupted one can always be resumed: `compare/bakeoff-<unix seconds>.json` in the
/// target folder when compare runs from its checkout, else in the user's data folder
/// (`$XDG_DATA_HOME/checkbench`). The folder is created here; failing that is an error
/// before the first run.
fn default_json(origin: &Origin) -> Result<PathBuf> {
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
    Ok(dir.join(format!("bakeoff-{now}.json")))
}

fn outputs(args: &OutputArgs) -> Outputs {
    Outputs::new()
        .with(Format::Json, args.json.as_deref())
        .with(Format::Csv, args.csv.as_deref())
        .with(Format::Markdown, args.markdown.as_deref())
        .with(Format::Svg, args.svg.as_deref())
}

/// Checks every input, then runs the plan (or what is left of it).
fn bakeoff(settings: Settings, schedule: &ScheduleArgs, mut outputs: Outputs) -> Result<ExitCode> {
    let mut results = match &schedule.resume {
        Some(path) => {
            let previous = Results::load(path)?;
            check_resumable(path, &previous.settings, &settings)?;
            if outputs.path(Format::Json).is_none() {
                outputs = outputs.with(Format::Json, Some(path));
            }
            Results {
                settings,
                ..previous
            }
        }
        None => Results::new(Environment::capture(), settings),
    };
    results.refresh();
    let origin = Origin::locate(schedule.children.as_deref()).context("in --children")?;
    if outputs.path(Format::Json).is_none() {
        outputs = outputs.with(Format::Json, Some(&default_json(&origin)?));
    }
    outputs
        .check_writable()
        .context("checking the output files before any run")?;
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
    let children = origin
        .prepare(&contenders)
        .context("preparing the child binaries before the first run")?;
    record_children(&mut results, children, schedule.resume.as_deref())?;
    let binaries = Binaries {
        dir: origin.dir(),
        cache_dir: schedule.cache_dir.clone(),
        timeout: (schedule.timeout > 0).then(|| Duration::from_secs(schedule.timeout)),
    };
    let settings = &results.settings;
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
        corpora::open(corpus, &options)
            .with_context(|| format!("opening corpus `{corpus}` (from --corpus)"))?;
    }
    // Children inherit the parent's resident high-water mark through fork into their
    // ru_maxrss; hand the corpora's freed heap back before the first fork.
    // SAFETY: malloc_trim only releases free memory of the C allocator, which serves this
    // process (compare installs no global allocator).
    unsafe { libc::malloc_trim(0) };
    eprintln!("{}", results.environment.summary());
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
        launcher: &binaries,
        stop: &STOP,
        outputs: &outputs,
        progress: &progress,
    };
    let outcome = runner.run(&mut results)?;
    drop(progress);
    outputs.write_all(&results)?;
    print!("{}", table::render_text(&results));
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

/// Records the children's builds in the results; a resumed bake-off refuses children
/// built from other sources than the runs it continues.
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
    if defaulted("corpus") {
        settings.corpora = previous.corpora;
    }
    if defaulted("checkers") {
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
        settings.runs = previous.runs;
    }
    if defaulted("warmup") {
        settings.warmup = previous.warmup;
    }
}

/// A resumed bake-off must measure the same corpora as the one it continues.
fn check_resumable(path: &Path, previous: &Settings, asked: &Settings) -> Result<()> {
    let mut before = previous.corpora.clone();
    let mut now = asked.corpora.clone();
    before.sort();
    now.sort();
    if before != now {
        bail!(
            "cannot resume {}: it was recorded for corpus {}, but this bake-off is for corpus {}",
            path.display(),
            previous.corpora.join(","),
            asked.corpora.join(",")
        );
    }
    Ok(())
}

fn report(args: ReportArgs) -> Result<ExitCode> {
    let results = Results::load(&args.from)?;
    let outputs = outputs(&args.outputs);
    outputs.check_writable()?;
    outputs.write_all(&results)?;
    print!("{}", table::render_text(&results));
    Ok(ExitCode::SUCCESS)
}
