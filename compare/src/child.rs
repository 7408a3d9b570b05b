//! The entry point of the four child binaries, and what a child says about its own build.
//! Every child runs any workload of [`crate::workload::WORKLOADS`] (`--workload NAME`) under
//! its allocator.
//!
//! **A child is never measured stale**: every child answers `--build-info` with the
//! revision, source digest and profile it was built from, and compare refuses a child
//! whose sources differ from its own (see [`crate::benchmark::children`]).
use std::ffi::OsString;
use std::process::ExitCode;

use crate::contender::variant::KNOBS_ENV;
use crate::environment::BuildInfo;
use crate::workload::{WORKLOAD_ARG, WorkloadKind};

pub mod system;

/// The argument a child answers with its [`BuildInfo`] as JSON, instead of running.
pub const BUILD_INFO_ARG: &str = "--build-info";

/// The knobs this child was asked to prove (`CHECKBENCH_KNOBS`), in order.
pub fn asked_knobs() -> Vec<(String, String)> {
    let list = std::env::var(KNOBS_ENV).unwrap_or_default();
    list.split(',')
        .filter_map(|piece| piece.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// What proves one knob: `Ok(how it was read back)` when it holds the value asked for,
/// `Err(what was found instead)` otherwise.
pub type Proof = Result<String, String>;

/// Proves every knob asked for with `prove(key, value)` and adds each proof to
/// `allocator`'s identity: `jemalloc 5.3.1 [thp=always: opt.thp reads "always"]`. A knob
/// that did not take effect is an error naming it: **a knob that did not take effect fails
/// the run.**
pub fn prove_knobs(
    allocator: &mut workload::AllocatorIdentity,
    mut prove: impl FnMut(&str, &str) -> Proof,
) -> Result<(), String> {
    let mut proofs = Vec::new();
    for (key, value) in asked_knobs() {
        match prove(&key, &value) {
            Ok(how) => proofs.push(format!("{key}={value}: {how}")),
            Err(found) => {
                return Err(format!(
                    "the {} knob {key}={value} did not take effect: {found}",
                    allocator.name
                ));
            }
        }
    }
    if !proofs.is_empty() {
        allocator.identity = format!("{} [{}]", allocator.identity, proofs.join("; "));
    }
    Ok(())
}

/// `main` of a child binary whose allocator must first prove its knobs (and, for a
/// preload, itself): an error there fails the child with exit code 3 before any work.
pub fn main_proven(allocator: Result<workload::AllocatorIdentity, String>) -> ExitCode {
    if is_build_info() {
        return build_info();
    }
    let allocator = match allocator {
        Ok(allocator) => allocator,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(3);
        }
    };
    match split_workload(std::env::args_os().collect()) {
        Ok((workload, args)) => (workload.protocol().main_from)(args, allocator),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// The workload a child is asked for (`--workload NAME` or `--workload=NAME`, the checker
/// without one) and the rest of its arguments, for that workload's own command line.
pub fn split_workload(args: Vec<OsString>) -> Result<(WorkloadKind, Vec<OsString>), String> {
    let mut rest = Vec::with_capacity(args.len());
    let mut workload = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let value = if arg == WORKLOAD_ARG {
            Some(args.next().ok_or(format!("{WORKLOAD_ARG} needs a value"))?)
        } else {
            arg.to_str()
                .and_then(|a| a.strip_prefix(WORKLOAD_ARG)?.strip_prefix('='))
                .map(OsString::from)
        };
        let Some(value) = value else {
            rest.push(arg);
            continue;
        };
        let name = value.to_string_lossy();
        let kind = WorkloadKind::from_name(&name).ok_or(format!(
            "unknown workload `{name}` in {WORKLOAD_ARG}: one of {}",
            WorkloadKind::names()
        ))?;
        if workload.replace(kind).is_some_and(|before| before != kind) {
            return Err(format!("{WORKLOAD_ARG} is given twice, differently"));
        }
    }
    Ok((workload.unwrap_or_default(), rest))
}

fn is_build_info() -> bool {
    std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == BUILD_INFO_ARG)
}

fn build_info() -> ExitCode {
    match serde_json::to_string(&BuildInfo::current()) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: serialising the build info: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `main` of a child binary: answers [`BUILD_INFO_ARG`], otherwise runs its workload's
/// command line under `allocator`.
pub fn main(allocator: workload::AllocatorIdentity) -> ExitCode {
    main_proven(Ok(allocator))
}
