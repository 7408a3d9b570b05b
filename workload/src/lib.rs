#![doc = include_str!("../README.md")]
pub mod atomic;
pub mod cli;
pub mod digest;
pub mod report;

use std::ffi::OsString;
use std::process::ExitCode;

pub use cli::RunArgs;
pub use report::{Counts, Phases, RunReport};

/// The most checker threads one run takes (`--checkers`); compare checks its plan against
/// it before the first run.
pub const MAX_CHECKERS: u32 = 256;

/// Which allocator a binary was built with, as the binary itself proves it.
#[derive(Clone, Debug)]
pub struct AllocatorIdentity {
    /// `slice`, `mimalloc`, `jemalloc` or `system`.
    pub name: &'static str,
    /// The allocator's own identification (its version string); for `slice`, the report
    /// reads the policy and statistics from `slice_alloc` itself.
    pub identity: String,
}

/// What a workload is to compare: the function table each workload crate exports as its
/// `WORKLOAD`, and compare lists once (`compare::workload::WORKLOADS`). A workload depends on
/// this crate only, never on another workload.
#[derive(Debug)]
pub struct Workload {
    /// The name in reports, results and `--workload`.
    pub name: &'static str,
    /// One line for `--workload`'s help.
    pub about: &'static str,
    /// The workload's command line ([`RunArgs`] and its own options; the program name first),
    /// run under `allocator`: what every child binary runs.
    pub main_from: fn(args: Vec<OsString>, allocator: AllocatorIdentity) -> ExitCode,
    /// What the parent fetches and verifies before the first run, beyond the corpora, so
    /// that children run with `--no-fetch` (tsc: the TypeScript package).
    pub prepare: fn(&corpora::OpenOptions) -> anyhow::Result<()>,
    /// Whether its checkers take turns on one runtime, so that wall time at N checkers is
    /// their work added up rather than a parallel speedup.
    pub serialized: bool,
    /// What kind of heap it makes.
    pub heap: Heap,
}

/// The shape of a workload's heap, which decides what the publication's matrix compares on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heap {
    /// Types interned per checker, few frees: the native port's kind (the checker).
    Interned,
    /// Every object its own request, freed by reference counting: the publication's kind
    /// (tsc), on which the adaptive policy and the other allocators' huge-page policies are
    /// compared.
    PerObject,
}

/// A workload that needs nothing beyond its corpora.
pub fn nothing_to_prepare(_: &corpora::OpenOptions) -> anyhow::Result<()> {
    Ok(())
}

/// What a run found, in the shape every workload reports.
#[derive(Clone, Debug)]
pub struct Outcome<D> {
    pub counts: Counts,
    pub phases: Phases,
    /// Sorted and deduplicated.
    pub diagnostics: Vec<D>,
    /// Hex SHA-256 by [`digest`]'s rule.
    pub digest: String,
}

impl<D: Ord> Outcome<D> {
    /// Settles a run: the diagnostics sorted and deduplicated, counted in `counts` in all and
    /// by `code` (`TS2322`), and digested by `digest` from the settled list.
    pub fn settle(
        mut counts: Counts,
        phases: Phases,
        mut diagnostics: Vec<D>,
        code: impl Fn(&D) -> String,
        digest: impl FnOnce(&[D]) -> String,
    ) -> Self {
        diagnostics.sort();
        diagnostics.dedup();
        counts.diagnostics = diagnostics.len() as u64;
        counts.diagnostics_by_code.clear();
        for d in &diagnostics {
            *counts.diagnostics_by_code.entry(code(d)).or_insert(0) += 1;
        }
        let digest = digest(&diagnostics);
        Outcome {
            counts,
            phases,
            diagnostics,
            digest,
        }
    }
}

/// The source extensions every workload reads, longest first so `.d.ts` wins over `.ts`.
pub const SOURCE_EXTENSIONS: &[&str] = &[
    ".d.mts", ".d.cts", ".d.ts", ".tsx", ".mts", ".cts", ".ts", ".jsx", ".mjs", ".cjs", ".js",
];

/// Whether `path` names a source file a workload checks (one of [`SOURCE_EXTENSIONS`]).
pub fn is_source_path(path: &str) -> bool {
    SOURCE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

/// Why a run cannot start, the same for every workload.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(
        "corpus `{0}` has no source files (.ts, .tsx, .d.ts, .mts, .cts, .js, .jsx, .mjs, .cjs)"
    )]
    NoSourceFiles(String),
    #[error("the number of checkers must be at least 1")]
    NoCheckers,
}
