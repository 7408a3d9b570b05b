//! The wiring: every input checked before the first run, then the bake-off connected to the
//! terminal and the files (the grammar is `cli`, resuming `benchmark::resume`). Errors here
//! carry context for the user.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use crate::benchmark::children::{CHILD_PROFILE, Origin};
use crate::benchmark::interrupt::Interrupt;
use crate::benchmark::launcher::{Binaries, Launcher};
use crate::benchmark::resume::{check_resumable, check_rounds, continue_plan};
use crate::benchmark::runner::{self, Outcome, Runner};
use crate::benchmark::schedule::Slot;
use crate::benchmark::watcher;
use crate::calibrate::Calibration;
use crate::cli::{BAKEOFF_ROUNDS, Cli, Command, OutputArgs, ReportArgs, ScheduleArgs};
use crate::contender::{self, Contender};
use crate::environment::{self, BuildInfo, Environment};
use crate::export::lock::ResultsLock;
use crate::export::{Format, Outputs};
use crate::output::table::Detail;
use crate::output::{progress::Progress, report};
use crate::results::{Results, Settings};
use crate::shard::{self, Shard};
use crate::studies::reproduce;

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
            let Some(report) = crate::studies::model::report(&results, args.markdown) else {
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
            print!(
                "{}",
                crate::studies::policies::report(&results, args.markdown)
            );
            if let Some(dir) = args.svg_dir {
                for corpus in &results.settings.corpora {
                    let svg = crate::studies::policies::figure(&results, corpus)
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
                    default if default.is_default() => String::new(),
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
    // From here on a signal is recorded, not obeyed: it stops the bake-off between steps.
    let interrupt = Interrupt::install().context("installing the Ctrl-C and SIGTERM handlers")?;
    watcher::start().context("starting the process that outlives compare to end its runs")?;
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
        if schedule
            .resume
            .as_deref()
            .is_none_or(|resumed| !crate::export::same_file(resumed, path))
        {
            refuse_to_replace(path)?;
        }
        if workload::atomic::remove_leftover(path).unwrap_or(false) {
            eprintln!(
                "removed {}, left by a write that was killed before it landed",
                workload::atomic::leftover_path(path).display()
            );
        }
        eprintln!(
            "results: {} (rewritten after every run; `--resume {}` continues an interrupted bake-off)",
            path.display(),
            path.display()
        );
    }
    let outcome = match measure(&mut results, schedule, &origin, &outputs, &interrupt) {
        Ok(outcome) => outcome,
        // A Ctrl-C reaches cargo building the children too: its failure is the interrupt.
        Err(_) if interrupt.requested() => Outcome::Interrupted,
        Err(error) => return Err(error),
    };
    outputs.write_all(&results)?;
    print!("{}", report::render_text(&results, detail));
    let kept: Vec<String> = outputs.paths().map(|p| p.display().to_string()).collect();
    match outcome {
        Outcome::Finished => {
            if !kept.is_empty() {
                eprintln!("written: {}", kept.join(", "));
            }
            // A contender without one ok run in a cell has no figure there: the bake-off
            // did not measure what it was asked to.
            let empty: Vec<String> = results
                .results
                .iter()
                .filter(|set| {
                    results
                        .shard
                        .as_ref()
                        .is_none_or(|shard| shard.holds(&set.corpus, set.checkers))
                })
                .filter(|set| set.ok_runs == 0)
                .map(|set| format!("{} on {} at {}", set.contender, set.corpus, set.checkers))
                .collect();
            if empty.is_empty() {
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!("error: no ok run of {}", empty.join("; "));
                Ok(ExitCode::FAILURE)
            }
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
            Ok(ExitCode::from(interrupt.exit_code()))
        }
    }
}

/// **A results file that holds runs is never replaced by a new plan**: a new bake-off
/// writing to `path` refuses it when it holds runs, or is no results file at all.
fn refuse_to_replace(path: &Path) -> Result<()> {
    let held = match std::fs::metadata(path) {
        Ok(meta) if meta.len() > 0 => Results::load(path),
        _ => return Ok(()),
    };
    match held {
        Ok(previous) => {
            let runs: usize = previous.results.iter().map(|set| set.runs.len()).sum();
            if runs > 0 {
                let runs = match runs {
                    1 => "1 run".to_string(),
                    n => format!("{n} runs"),
                };
                bail!(
                    "{} holds {runs} of an earlier bake-off, which a new one would replace; \
                     continue it with --resume {}, or start afresh by writing to another file \
                     with --json (or removing this one)",
                    path.display(),
                    path.display()
                );
            }
            Ok(())
        }
        Err(error) => bail!(
            "{} exists and is not a results file compare can read ({error}); it is not \
             replaced: write to another file with --json, or remove it",
            path.display()
        ),
    }
}

/// Builds (or finds) the children, runs the fault cost probe and the pending runs; stops
/// between those steps, and in a run, once a signal has come.
fn measure(
    results: &mut Results,
    schedule: &ScheduleArgs,
    origin: &Origin,
    outputs: &Outputs,
    interrupt: &Interrupt,
) -> Result<Outcome> {
    let pending = runner::pending(results);
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
                origin,
                &contenders,
                &commands,
                command.digest,
                timeout,
            )?;
            record_children(results, launcher.builds(), schedule.resume.as_deref())?;
            Box::new(launcher)
        }
        None => Box::new(prepare_checker(
            results,
            origin,
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
    // A resumed bake-off whose runs were measured without the probe goes on without it:
    // every invocation that measured runs with the probe recorded one.
    let unprobed =
        results.calibrations.is_empty() && results.results.iter().any(|set| !set.runs.is_empty());
    if !pending.is_empty() && !schedule.no_calibration && !unprobed {
        eprintln!("measuring the cost of 4 KiB and 2 MiB page faults (about 15 s)");
        match Calibration::measure(interrupt.flag()) {
            Some(calibration) => results.calibrations.push(calibration),
            None => return Ok(Outcome::Interrupted),
        }
    } else if unprobed && !schedule.no_calibration {
        eprintln!(
            "no fault cost probe: the resumed runs were measured without one (--no-calibration)"
        );
    }
    let checkout = environment::checkout_revision();
    if let Some(warning) =
        environment::stale_build_warning(environment::BUILD_REVISION, checkout.as_deref())
    {
        eprintln!("warning: {warning}");
    }

    if interrupt.requested() {
        return Ok(Outcome::Interrupted);
    }
    let progress = Progress::stderr();
    let runner = Runner {
        launcher: launcher.as_ref(),
        stop: interrupt.flag(),
        outputs,
        progress: &progress,
        gate: schedule.quiet_gate(results.settings.command.is_some()),
    };
    if let Some(gate) = &runner.gate {
        eprintln!(
            "quiet gate: before each run, waiting up to {} s until other processes keep at \
             most {:.2} CPUs busy (--quiet-wait, --quiet-cpus)",
            gate.max_wait.as_secs(),
            gate.threshold_cpus
        );
    }
    runner.run(results).map_err(anyhow::Error::from)
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
            "cannot extend {path}: it is shard {} of its plan, whose cells were dealt from the \
             recorded plan; extend the plan in a new sharded bake-off",
            record.shard()
        ),
        (None, Some(asked), Some(path)) => bail!(
            "cannot resume {path} as shard {asked}: it holds a whole plan (written without \
             --shard); resume it without --shard"
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
    // What the children read from the cache without fetching or hashing it, beyond corpora.
    let options = corpora::OpenOptions {
        cache_dir: schedule.cache_dir.clone(),
        fetch: true,
        progress: true,
    };
    (settings.workload.protocol().prepare)(&options)?;
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
                    "cannot resume {}: its runs of {name} were measured by a child built from \
                     {before}, but this {name} is built from {now}; a resumed bake-off would \
                     mix two builds (start a new bake-off, or check out revision {})",
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
    hex::encode(hasher.finalize())
}

/// `path` made absolute against the working directory (not resolved: a link stays a link).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn report(args: ReportArgs) -> Result<ExitCode> {
    let results = Results::load(&args.from)?;
    let pending = runner::pending(&results).len();
    if pending > 0 {
        eprintln!(
            "note: {} is unfinished: {pending} runs of its plan are still to run (continue \
             them with --resume {}); this report holds only the runs measured so far",
            args.from.display(),
            args.from.display()
        );
    }
    let outputs = outputs(&args.outputs);
    outputs.check_writable()?;
    outputs.write_all(&results)?;
    print!(
        "{}",
        report::render_text(&results, args.outputs.terminal.detail())
    );
    Ok(ExitCode::SUCCESS)
}
