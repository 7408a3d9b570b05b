//! Any command as the workload: `compare --command 'CMD'` runs `sh -c CMD` (as hyperfine
//! does) under every contender instead of the checker, with the same paired rounds,
//! statistics, exports and resume.
//!
//! Each contender reaches the command through its environment only: the slice policies by
//! `LD_PRELOAD` of `libslice_alloc.so` with `CHECKBENCH_SLICE`, mimalloc and jemalloc by
//! `LD_PRELOAD` of the system's shared libraries, `preload:NAME=PATH` by its library, and
//! `system` with no preload ([`setup`]). **A run that did not measure what its contender says
//! is a failed run, never an ok one** ([`proof`]): a slice run must leave statistics lines
//! (`CHECKBENCH_SLICE_STATS`, one per exiting process) showing its policy served small
//! requests; a preload run must not meet ld.so's "cannot be preloaded"; and before the first
//! run, one unmeasured run per other contender under `LD_DEBUG=bindings` shows which object
//! every process of the command bound `malloc` to.
//!
//! In the results, a command bake-off has `settings.command`; `settings.corpora` holds the
//! commands (each a cell, as a corpus is) and `settings.checkers` is `[1]`.
pub mod cli;
pub mod elf;
pub mod launcher;
pub mod probe;
pub mod proof;
pub mod setup;
pub mod tree;
