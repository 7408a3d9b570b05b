//! The `checker` binary's command line, and every compare child's under `--workload checker`.
use std::ffi::OsString;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use workload::cli::{RunArgs, exit_code};
use workload::{AllocatorIdentity, RunReport};

use crate::Options;

/// Runs the TypeScript-ish parse, bind and check workload on a corpus.
#[derive(Debug, Parser)]
#[command(name = "checker", version)]
struct Args {
    #[command(flatten)]
    run: RunArgs,
}

/// Parses `--corpus NAME|DIR --checkers N [--json] [--cache-dir DIR] [--no-fetch]`, runs the workload
/// and prints the report.
pub fn main(allocator: AllocatorIdentity) -> ExitCode {
    main_from(std::env::args_os().collect(), allocator)
}

/// Parses `args` (the program name first) and runs the workload under `allocator`: the
/// checker's [`workload::Workload::main_from`].
pub fn main_from(args: Vec<OsString>, allocator: AllocatorIdentity) -> ExitCode {
    exit_code(run(&Args::parse_from(args), allocator))
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
    let report = RunReport::new(
        crate::WORKLOAD.name,
        &args.corpus,
        checkers,
        &outcome,
        &allocator,
    );
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
