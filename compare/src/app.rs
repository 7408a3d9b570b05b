//! The wiring: every input checked before the first run, then the bake-off connected to the
//! terminal and the files (the grammar is `cli`, resuming `benchmark::resume`). Errors here
//! carry context for the user.
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use crate::benchmark::children::Origin;
use crate::benchmark::interrupt::Interrupt;
use crate::benchmark::resume::check_resumable;
use crate::benchmark::runner::{self, Outcome};
use crate::benchmark::watcher;
use crate::cli::{Cli, Command, ModelArgs, OutputArgs, PoliciesArgs, ReportArgs, ScheduleArgs};
use crate::environment::Environment;
use crate::export::lock::ResultsLock;
use crate::export::{Format, Outputs};
use crate::output::report;
use crate::output::table::Detail;
use crate::results::{Results, Settings};
use crate::shard::{self, Shard};

mod plan;
mod prepare;

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
        Some(Command::Model(args)) => model(&args),
        Some(Command::Policies(args)) => policies(args),
        Some(Command::Merge(args)) => {
            crate::merge::run(
                &args.files,
                &outputs(&args.outputs),
                args.outputs.terminal.detail(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Reproduce(args)) => {
            let own = matches.subcommand().map_or(matches, |(_, own)| own);
            let resumed = load_resumed(&args.schedule)?;
            let (settings, outputs) =
                plan::reproduce(&args, own, resumed.as_ref().map(|(_, r)| &r.settings))?;
            bakeoff(
                settings,
                resumed,
                &args.schedule,
                outputs,
                args.terminal.detail(),
            )
        }
        None => {
            let args = cli.bakeoff;
            let resumed = load_resumed(&args.schedule)?;
            let settings =
                plan::bakeoff(&args, matches, resumed.as_ref().map(|(_, r)| &r.settings))?;
            bakeoff(
                settings,
                resumed,
                &args.schedule,
                outputs(&args.outputs),
                args.outputs.terminal.detail(),
            )
        }
    }
}

/// `compare model`: the fault and RSS model's report.
fn model(args: &ModelArgs) -> Result<ExitCode> {
    let results = Results::load(&args.from)?;
    let Some(report) = crate::output::studies::model(&results, args.markdown) else {
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

/// `compare policies`: the policy frontier's report and, with `--svg-dir`, its figures.
fn policies(args: PoliciesArgs) -> Result<ExitCode> {
    let results = Results::load(&args.from)?;
    print!(
        "{}",
        crate::output::studies::policies(&results, args.markdown)
    );
    if let Some(dir) = args.svg_dir {
        for corpus in &results.settings.corpora {
            let svg = crate::export::policies::figure(&results, corpus)
                .map_err(|why| anyhow::anyhow!("cannot draw {corpus}: {why}"))?;
            let path = dir.join(format!("policies-{corpus}.svg"));
            crate::export::write_atomically(&path, svg.as_bytes())?;
            eprintln!("written: {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
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

/// The `--resume` file, read once: its plan continues the command line's, and its runs
/// are the ones a bake-off goes on from.
fn load_resumed(schedule: &ScheduleArgs) -> Result<Option<(&Path, Results)>> {
    match schedule.resume.as_deref() {
        Some(path) => Ok(Some((path, Results::load(path)?))),
        None => Ok(None),
    }
}

/// Checks every input, then runs the plan (or what is left of it).
fn bakeoff(
    settings: Settings,
    resumed: Option<(&Path, Results)>,
    schedule: &ScheduleArgs,
    mut outputs: Outputs,
    detail: Detail,
) -> Result<ExitCode> {
    let mut results = open_results(settings, resumed, schedule, &mut outputs)?;
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
    let _lock = claim_outputs(&mut results, schedule, &origin, &mut outputs)?;
    let outcome = match prepare::measure(&mut results, schedule, &origin, &outputs, &interrupt) {
        Ok(outcome) => outcome,
        // A Ctrl-C reaches cargo building the children too: its failure is the interrupt.
        Err(_) if interrupt.requested() => Outcome::Interrupted,
        Err(error) => return Err(error),
    };
    finish(&results, &outputs, outcome, &interrupt, detail)
}

/// The results a bake-off starts from: the resumed file's (`resumed`, read from
/// `--resume`), its plan continued by `settings` and its outputs kept where the command line
/// names none, or a new set.
fn open_results(
    settings: Settings,
    resumed: Option<(&Path, Results)>,
    schedule: &ScheduleArgs,
    outputs: &mut Outputs,
) -> Result<Results> {
    Ok(match resumed {
        Some((path, previous)) => {
            previous.settings.validate().map_err(|why| {
                anyhow::anyhow!(
                    "cannot resume {}: its plan cannot run ({why}); was it edited by hand?",
                    path.display()
                )
            })?;
            check_resumable(path, &previous.settings, &settings, schedule.extend)?;
            if outputs.path(Format::Json).is_none() {
                *outputs = std::mem::take(outputs).with(Format::Json, Some(path));
            }
            for (flag, file) in &previous.settings.outputs {
                if let Some(format) = Format::from_flag(flag)
                    && outputs.path(format).is_none()
                {
                    *outputs = std::mem::take(outputs).with(format, Some(file));
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
    })
}

/// Settles the files a bake-off writes before its first run: the results file (a default
/// one where none is named), every file checked writable and recorded in the plan, the
/// results file locked (the lock is returned), never replacing another bake-off's runs.
fn claim_outputs(
    results: &mut Results,
    schedule: &ScheduleArgs,
    origin: &Origin,
    outputs: &mut Outputs,
) -> Result<Option<ResultsLock>> {
    if outputs.path(Format::Json).is_none() {
        let shard = results.shard.as_ref().map(|record| record.shard());
        *outputs = std::mem::take(outputs).with(Format::Json, Some(&default_json(origin, shard)?));
    }
    outputs
        .check_writable()
        .context("checking the output files before any run")?;
    results.settings.outputs = outputs
        .targets()
        .map(|(format, path)| (format.flag().to_string(), absolute(path)))
        .collect();
    let json = outputs.path(Format::Json).map(Path::to_path_buf);
    let lock = match &json {
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
    Ok(lock)
}

/// Writes the outputs and the terminal report, and says how the bake-off ended: an exit
/// status that fails when a contender had no ok run in a cell, or the interrupt's.
fn finish(
    results: &Results,
    outputs: &Outputs,
    outcome: Outcome,
    interrupt: &Interrupt,
    detail: Detail,
) -> Result<ExitCode> {
    outputs.write_all(results)?;
    print!("{}", report::render_text(results, detail));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::WorkloadKind;

    /// A shard of a tsc reproduce plan, as `compare reproduce --workload tsc --checkers 1
    /// --precision 2 --precision-for typeorm=3 --min-runs 6 --max-runs 40 --seed 2061
    /// --shard 3/5` writes it before its first run.
    fn tsc_shard(dir: &Path) -> PathBuf {
        let tsc = WorkloadKind::from_name("tsc").unwrap();
        let mut settings = crate::studies::reproduce::settings(tsc, false, 6, 1);
        settings.checkers = vec![1];
        settings.max_runs = Some(40);
        settings.precision_pct = Some(2.0);
        settings.precision_by_corpus = [("typeorm".to_string(), 3.0)].into();
        settings.seed = 2061;
        let mut results = Results::new(Environment::default(), settings);
        results.shard =
            Some(shard::record(&results.settings, Shard { index: 3, count: 5 }).unwrap());
        let path = dir.join("shard-3-of-5.json");
        Outputs::new()
            .with(Format::Json, Some(&path))
            .write_all(&results)
            .unwrap();
        path
    }

    /// `compare reproduce ARGS` planned and opened as `run` does it.
    fn resume(args: &[&str]) -> (Result<Results>, Outputs) {
        let matches = Cli::command()
            .try_get_matches_from(["compare", "reproduce"].iter().chain(args))
            .unwrap();
        let Some(Command::Reproduce(reproduce)) = Cli::from_arg_matches(&matches).unwrap().command
        else {
            panic!("not parsed as reproduce: {args:?}");
        };
        let own = matches.subcommand().unwrap().1;
        let resumed = load_resumed(&reproduce.schedule).unwrap();
        let (settings, mut outputs) =
            plan::reproduce(&reproduce, own, resumed.as_ref().map(|(_, r)| &r.settings)).unwrap();
        let results = open_results(settings, resumed, &reproduce.schedule, &mut outputs);
        (results, outputs)
    }

    #[test]
    fn a_reproduce_resumed_by_its_file_alone_runs_the_recorded_plan_and_writes_back_to_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = tsc_shard(dir.path());
        let (results, outputs) = resume(&["--resume", path.to_str().unwrap()]);
        let results = results.unwrap();
        let settings = &results.settings;
        assert_eq!(settings.workload, WorkloadKind::from_name("tsc").unwrap());
        assert_eq!(
            (
                settings.seed,
                settings.min_runs,
                settings.max_runs,
                settings.precision_pct
            ),
            (2061, 6, Some(40), Some(2.0))
        );
        assert_eq!(settings.precision_by_corpus.get("typeorm"), Some(&3.0));
        assert_eq!(settings.checkers, vec![1]);
        assert!(
            settings
                .contenders
                .iter()
                .any(|c| c.to_string() == "slice-adaptive")
        );
        assert_eq!(
            results.shard.as_ref().map(|s| s.shard().to_string()),
            Some("3/5".into())
        );
        assert_eq!(outputs.path(Format::Json), Some(path.as_path()));
        assert_eq!(
            outputs.path(Format::Markdown),
            None,
            "a shard writes its runs only"
        );
    }

    #[test]
    fn a_reproduce_resumed_with_another_seed_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = tsc_shard(dir.path());
        let (results, _) = resume(&["--resume", path.to_str().unwrap(), "--seed", "7"]);
        let why = format!("{:#}", results.expect_err("another seed is another plan"));
        assert!(why.contains("another seed"), "{why}");
        assert!(why.contains("resume without these options"), "{why}");
    }
}
