//! A plan from the command line: `compare reproduce`'s matrix or a bake-off's contenders,
//! corpora and rounds, checked before anything runs.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ArgMatches;
use clap::parser::ValueSource;

use crate::benchmark::resume::{check_rounds, continue_plan, given};
use crate::cli::{BAKEOFF_ROUNDS, BakeoffArgs, ReproduceArgs};
use crate::contender::{self, Contender};
use crate::export::{Format, Outputs};
use crate::results::Settings;
use crate::studies::reproduce;

/// `compare reproduce`: the publication's matrix as asked, and the files it writes (under
/// `docs/` unless named; a shard writes its runs only). Resumed, it runs the plan the file
/// records, where the command line does not say otherwise, and writes the files the file
/// names (its runs back to it) where the command line names none. `resumed` is the plan of
/// the `--resume` file, loaded once by the caller.
pub(super) fn reproduce(
    args: &ReproduceArgs,
    matches: &ArgMatches,
    resumed: Option<&Settings>,
) -> Result<(Settings, Outputs)> {
    // The matrix's contenders are the workload's: a resumed file's unless --workload is given.
    let workload = match resumed {
        Some(previous) if !given(matches, "workload") => previous.workload,
        _ => args.workload,
    };
    let (min_runs, max_runs, precision_pct) = args.schedule.rounds(reproduce::ROUNDS);
    let mut settings = reproduce::settings(
        workload,
        args.ablations,
        min_runs,
        args.schedule.warmup as usize,
    );
    settings.max_runs = max_runs;
    settings.precision_pct = precision_pct;
    settings.precision_by_corpus = args.schedule.precision_by_corpus();
    settings.control = !args.schedule.no_control;
    settings.seed = args.schedule.seed();
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
    if let Some(previous) = resumed {
        continue_plan(&mut settings, previous.clone(), matches);
    }
    check_rounds(&mut settings, reproduce::ROUNDS)?;
    check_precision_for(&settings)?;
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
    // A resumed plan's files are the ones it recorded (`open_results` fills them in).
    let whole = args.schedule.shard.is_none() && resumed.is_none();
    let json = args
        .json
        .clone()
        .or_else(|| resumed.is_none().then(|| default("results", "json")));
    let markdown = args
        .markdown
        .clone()
        .or_else(|| whole.then(|| default("RESULTS", "md")));
    let svg = args
        .svg
        .clone()
        .or_else(|| whole.then(|| default("results", "svg")));
    let outputs = Outputs::new()
        .with(Format::Json, json.as_deref())
        .with(Format::Csv, args.csv.as_deref())
        .with(Format::Markdown, markdown.as_deref())
        .with(Format::Svg, svg.as_deref());
    for path in outputs.paths().filter(|_| !args.schedule.dry_run) {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
    Ok((settings, outputs))
}

/// A bake-off's plan: the contenders (from the command line or a contenders file), the
/// corpora or commands, the checker counts and rounds; a resumed plan (`resumed`, the
/// `--resume` file's, loaded once by the caller) continued.
pub(super) fn bakeoff(
    args: &BakeoffArgs,
    matches: &ArgMatches,
    resumed: Option<&Settings>,
) -> Result<Settings> {
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
        precision_by_corpus: args.schedule.precision_by_corpus(),
        warmup: args.schedule.warmup as usize,
        control: !args.schedule.no_control,
        seed: args.schedule.seed(),
        corpus_digests: BTreeMap::new(),
        outputs: BTreeMap::new(),
        command: command.map(|(_, settings)| settings),
        workload: args.workload,
    };
    if let Some(previous) = resumed.cloned() {
        crate::command::cli::continue_workload(&mut settings, &previous, matches);
        continue_plan(&mut settings, previous, matches);
    }
    check_rounds(&mut settings, BAKEOFF_ROUNDS)?;
    check_precision_for(&settings)?;
    Ok(settings)
}

/// `--precision-for` must name the plan's corpora, in a plan run to a precision.
fn check_precision_for(settings: &Settings) -> Result<()> {
    settings
        .check_precision_by_corpus()
        .map_err(anyhow::Error::msg)
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
pub(super) fn is_named(spec: &str) -> bool {
    (spec.starts_with("synthetic") && !spec.contains('/')) || corpora::corpus_def(spec).is_some()
}
