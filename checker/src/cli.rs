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
    #[command(flatten)]
    run: RunArgs,
}

/// The options of one run, the same for every workload (this checker's and the `tsc`
/// crate's), so that compare launches them alike.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Corpus name (`synthetic`, `trpc`, ...) or a directory of sources.
    #[arg(long, default_value = "synthetic")]
    pub corpus: String,
    /// Number of checkers.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=crate::MAX_CHECKERS as i64))]
    pub checkers: u32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also print every diagnostic (to stderr with `--json`).
    #[arg(long)]
    pub diagnostics: bool,
    /// Where fetched corpora are cached.
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Never fetch, and do not hash the cache: a named corpus must be cached and match its
    /// manifest's sizes, else the run fails. compare passes it to every child: the parent
    /// fetched and verified the cache by content before the first run, so nothing is
    /// downloaded or hashed inside a measured run.
    #[arg(long)]
    pub no_fetch: bool,
}

impl RunArgs {
    /// How corpora are opened: fetched unless `--no-fetch`, progress unless `--json`.
    pub fn open_options(&self) -> corpora::OpenOptions {
        corpora::OpenOptions {
            cache_dir: self.cache_dir.clone(),
            fetch: !self.no_fetch,
            progress: !self.json,
        }
    }

    /// Opens `--corpus`: verified by content, or with `--no-fetch` by size only.
    pub fn open_corpus(&self) -> Result<corpora::Corpus> {
        let opts = self.open_options();
        if self.no_fetch {
            corpora::open_verified(&self.corpus, &opts)
        } else {
            corpora::open(&self.corpus, &opts)
        }
        .with_context(|| format!("opening corpus `{}`", self.corpus))
    }

    /// Prints the diagnostics if asked (to stderr beside a JSON report), then the report.
    /// A closed output (`checker --json | head`) is an error, not a panic.
    pub fn print<D: std::fmt::Display>(&self, diagnostics: &[D], report: &RunReport) -> Result<()> {
        use std::io::Write;
        let (mut stdout, mut stderr) = (std::io::stdout().lock(), std::io::stderr().lock());
        if self.diagnostics {
            let out: &mut dyn Write = if self.json { &mut stderr } else { &mut stdout };
            for d in diagnostics {
                writeln!(out, "{d}").context("printing the diagnostics")?;
            }
        }
        let text = if self.json {
            serde_json::to_string_pretty(report).context("serialising the report")? + "\n"
        } else {
            report.human()
        };
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
            .context("printing the report to standard output")
    }
}

/// Parses `--corpus NAME|DIR --checkers N [--json] [--cache-dir DIR] [--no-fetch]`, runs the workload
/// and prints the report.
pub fn main(allocator: AllocatorIdentity) -> ExitCode {
    main_from(std::env::args_os(), allocator)
}

/// Parses `args` (the program name first) and runs the workload under `allocator`.
pub fn main_from(
    args: impl IntoIterator<Item = std::ffi::OsString>,
    allocator: AllocatorIdentity,
) -> ExitCode {
    exit_code(run(&Args::parse_from(args), allocator))
}

/// A run's exit status: success, or the error with its causes on stderr and a failure.
pub fn exit_code(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(Args { run: args }: &Args, allocator: AllocatorIdentity) -> Result<()> {
    let corpus = args.open_corpus()?;
    let checkers = args.checkers as usize;
    let outcome = crate::run(&corpus, &Options { checkers })
        .map_err(|e| match e {
            crate::Error::Pool(e) => anyhow::anyhow!(threads_refused(checkers, &e)),
            other => other.into(),
        })
        .with_context(|| format!("checking corpus `{}`", args.corpus))?;
    let report = RunReport::new(&args.corpus, checkers, &outcome, &allocator);
    args.print(&outcome.diagnostics, &report)
}

/// Why the thread pools could not start, in terms the user can act on: every parse and checker
/// thread gets a [`crate::STACK_BYTES`] stack, which counts against an address-space limit
/// (`ulimit -v`) even though only the touched part becomes memory.
fn threads_refused(checkers: usize, error: &rayon::ThreadPoolBuildError) -> String {
    const MIB: u64 = 1 << 20;
    let front = std::thread::available_parallelism().map_or(2, |n| n.get());
    let threads = (front + checkers) as u64;
    let stack = crate::STACK_BYTES as u64;
    let stacks = threads * stack / MIB;
    let mut message = format!(
        "could not start {threads} threads ({front} parse, {checkers} checker): {threads} x {} MiB \
         stacks = {stacks} MiB of address space",
        stack / MIB
    );
    if let Some(limit) = address_space_limit() {
        let side = if stacks > limit / MIB {
            "over"
        } else {
            "under"
        };
        message += &format!(", {side} `ulimit -v {}` ({} MiB", limit / 1024, limit / MIB);
        if let Some((_, reserved)) = slice_alloc::reservation() {
            message += &format!(
                ", {} MiB of it reserved by the slice allocator",
                reserved >> 20
            );
        }
        message += "); raise the limit or use fewer checkers";
    }
    format!("{message} ({error})")
}

/// The soft address-space limit (`RLIMIT_AS`) in bytes, if there is one.
fn address_space_limit() -> Option<u64> {
    // SAFETY: rlimit is plain data, valid when zeroed.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: limit is a valid, writable rlimit.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}
