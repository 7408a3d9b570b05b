//! The command line shared by the `checker` binary and compare's child binaries.
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use crate::report::RunReport;
use crate::{AllocatorIdentity, Options};

/// Runs the TypeScript-ish parse, bind and check workload on a corpus.
#[derive(Debug, Parser)]
#[command(name = "checker", version)]
struct Args {
    /// Corpus name (`synthetic`, `trpc`, ...) or a directory of sources.
    #[arg(long, default_value = "synthetic")]
    corpus: String,
    /// Number of checker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=crate::MAX_CHECKERS as i64))]
    checkers: u32,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also print every diagnostic (to stderr with `--json`).
    #[arg(long)]
    diagnostics: bool,
    /// Where fetched corpora are cached.
    #[arg(long)]
    cache_dir: Option<PathBuf>,
}

/// Parses `--corpus NAME|DIR --checkers N [--json] [--cache-dir DIR]`, runs the workload
/// and prints the report.
pub fn main(allocator: AllocatorIdentity) -> ExitCode {
    let args = Args::parse();
    match run(&args, allocator) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args, allocator: AllocatorIdentity) -> Result<()> {
    let opts = corpora::OpenOptions {
        cache_dir: args.cache_dir.clone(),
        fetch: true,
        progress: !args.json,
    };
    let corpus = corpora::open(&args.corpus, &opts)
        .with_context(|| format!("opening corpus `{}`", args.corpus))?;
    let outcome = crate::run(
        &corpus,
        &Options {
            checkers: args.checkers as usize,
        },
    )
    .with_context(|| format!("checking corpus `{}`", args.corpus))?;
    if args.diagnostics {
        for d in &outcome.diagnostics {
            if args.json {
                eprintln!("{d}");
            } else {
                println!("{d}");
            }
        }
    }
    let report = RunReport::new(&args.corpus, args.checkers as usize, &outcome, &allocator);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).context("serialising the report")?
        );
    } else {
        print!("{}", report.human());
    }
    Ok(())
}
