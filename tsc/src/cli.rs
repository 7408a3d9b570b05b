//! The command line of the `tsc` workload: the `tsc-quickjs` binary's, and every compare
//! child's under `--workload tsc`. The same options as the checker's, so compare launches
//! both workloads alike.
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use workload::atomic::write_atomically;
use workload::cli::{RunArgs, exit_code};
use workload::{AllocatorIdentity, RunReport};

use crate::{Collect, Input, Options, Parse, TypeScript, WORKLOAD};

/// Runs TypeScript's own checker (typescript.js on QuickJS) on a corpus.
#[derive(Debug, Parser)]
#[command(name = "tsc-quickjs", version)]
struct Args {
    /// The same options as the checker's; `--checkers N` is N checkers over one program, each
    /// on its own thread, taking turns on the one QuickJS runtime.
    #[command(flatten)]
    run: RunArgs,
    /// When the engine collects garbage cycles, and on which thread garbage dies: `handback`
    /// (the default: QuickJS's own schedule; a block freed on another checker's thread goes
    /// back to the checker that made it, which frees it at the start of its next turn),
    /// `engine` (QuickJS's own schedule only, on whichever thread allocates), `handover[/N]`
    /// (QuickJS's own, plus a collection at the end of a turn that hands the runtime to another
    /// checker's thread after allocating 1/N of the live heap, N = 64), `every-turn`, or
    /// `large-turns[/N]` (the engine's trigger off; a collection after a turn that allocated
    /// 1/N of the live heap).
    #[arg(long, value_name = "SCHEDULE", default_value_t = Collect::default())]
    collect: Collect,
    /// Which threads parse and bind the program's files: `spread` (the default: file j of the
    /// root files and then the standard library's is parsed and later bound on checker j mod
    /// N's thread, one file a turn, with modules resolved on checker 0's between: the program
    /// spread over the checkers' arenas) or `first` (checker 0's thread builds the whole
    /// program before any other checker runs, as TypeScript's `createProgram` does).
    #[arg(long, value_name = "WHERE", default_value_t = Parse::default())]
    parse: Parse,
    /// Write the compiler host's input (every file, the library, the module roots) to
    /// FILE as JSON and exit, for `scripts/node-check.js`.
    #[arg(long, value_name = "FILE")]
    write_input: Option<PathBuf>,
}

/// Parses the process's arguments and runs.
pub fn main(allocator: AllocatorIdentity) -> ExitCode {
    main_from(std::env::args_os().collect(), allocator)
}

/// Parses `args` (the program name first) and runs the workload under `allocator`: tsc's
/// [`workload::Workload::main_from`].
pub fn main_from(args: Vec<OsString>, allocator: AllocatorIdentity) -> ExitCode {
    exit_code(run(&Args::parse_from(args), allocator))
}

/// Fetches and verifies the TypeScript package the children run (the `typescript` corpus), so
/// that they read it from the cache without fetching or hashing it: tsc's
/// [`workload::Workload::prepare`].
pub fn prepare(options: &corpora::OpenOptions) -> Result<()> {
    TypeScript::open(options, false)
        .map(drop)
        .context("opening the TypeScript package the tsc workload runs (the `typescript` corpus)")
}

fn run(args: &Args, allocator: AllocatorIdentity) -> Result<()> {
    let run = &args.run;
    let corpus = run.open_corpus()?;
    let opts = run.open_options();
    let typescript = TypeScript::open(&opts, run.no_fetch)
        .context("opening the TypeScript package (the `typescript` corpus)")?;
    if let Some(path) = &args.write_input {
        let mut input = Input::new(&corpus, &typescript);
        input.typescript = Some(typescript_js_path(&opts)?);
        write_atomically(path, input.to_json().as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        return Ok(());
    }
    let checkers = run.checkers as usize;
    let outcome = crate::run(
        &corpus,
        &typescript,
        &Options {
            checkers,
            collect: args.collect,
            parse: args.parse,
        },
    )
    .with_context(|| {
        format!(
            "checking corpus `{}` with TypeScript {}",
            run.corpus, typescript.version
        )
    })?;
    let checked = &outcome.checked;
    let mut report = RunReport::new(WORKLOAD.name, &run.corpus, checkers, checked, &allocator);
    report.settings.insert(
        "collect".to_string(),
        outcome.collections.schedule.to_string(),
    );
    report
        .settings
        .insert("parse".to_string(), outcome.parse.to_string());
    run.print(&checked.diagnostics, &report)?;
    if !run.json {
        println!(
            "typescript  {} with {}",
            outcome.typescript_version, outcome.compiler_options
        );
    }
    // With --json on stderr, where the report's reader does not look.
    let c = &outcome.collections;
    let mut line = format!(
        "collect     {}: {} collections at turn ends, {:.2} s; the engine asked for {:.0} MiB",
        c.schedule,
        c.count,
        c.seconds,
        c.engine_allocated_bytes as f64 / (1 << 20) as f64
    );
    if c.handed_back > 0 {
        line += &format!(
            "; {} blocks handed back to their makers, {} freed by them",
            c.handed_back, c.taken_back
        );
    }
    if outcome.parse == Parse::Spread {
        line += &format!(
            "\nparse       spread: {} files parsed ahead over {checkers} checkers' threads, {} \
             taken by the program",
            outcome.parsed_ahead, outcome.taken_ahead
        );
    }
    if run.json {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
    Ok(())
}

/// The cached `lib/typescript.js`, for a reference run that loads the same compiler.
fn typescript_js_path(opts: &corpora::OpenOptions) -> Result<String> {
    let root = corpora::cache_root(opts.cache_dir.as_deref())?;
    let path = corpora::corpus_dir(&root, "typescript").join("files/lib/typescript.js");
    anyhow::ensure!(path.is_file(), "{} is missing", path.display());
    Ok(path.display().to_string())
}
