//! What one checker run reports. `checker --json` prints a [`RunReport`]; compare reads it
//! back from each child, so every field here is part of the child protocol.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything one run of the workload reports.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunReport {
    /// Corpus name or directory as given.
    pub corpus: String,
    /// Number of checker threads.
    pub checkers: usize,
    pub counts: Counts,
    pub phases: Phases,
    /// Hex SHA-256 over the sorted diagnostics and per-file results; the same for every
    /// allocator and every checker count.
    pub digest: String,
    pub allocator: AllocatorReport,
    pub process: ProcessReport,
}

/// Sizes of the input and of the checker's state.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Counts {
    pub files: u64,
    pub bytes: u64,
    pub lines: u64,
    pub ast_nodes: u64,
    pub symbols: u64,
    pub types: u64,
    pub relations: u64,
    pub diagnostics: u64,
    /// Diagnostic code (e.g. `TS2322`) to count.
    pub diagnostics_by_code: BTreeMap<String, u64>,
}

/// Phase times, in seconds of wall time.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Phases {
    pub parse_s: f64,
    pub bind_s: f64,
    pub check_s: f64,
}

/// Which allocator served the run, proven by the allocator itself.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AllocatorReport {
    /// `slice`, `mimalloc`, `jemalloc` or `system`.
    pub name: String,
    /// The allocator's own identification: its version, or the slice policy.
    pub identity: String,
    /// Present when the slice allocator served the run.
    pub slice: Option<SliceReport>,
}

/// Slice allocator statistics, summed over arenas.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SliceReport {
    /// Policy as `CHECKBENCH_SLICE` spells it, e.g. `hybrid@8+populate`.
    pub policy: String,
    pub slice_bytes: u64,
    pub arenas_claimed: u32,
    /// Per class (index = class, size = 16 * (index + 1)), summed over arenas.
    pub classes: Vec<SliceClassReport>,
    pub fallbacks: BTreeMap<String, u64>,
}

/// One class's counters summed over arenas.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SliceClassReport {
    pub size: u32,
    pub allocs: u64,
    pub carved_bytes: u64,
    /// Largest number of bytes any one arena's slice of this class carved.
    pub max_slice_carved_bytes: u64,
    pub reuses: u64,
    pub remote_frees: u64,
    pub slow_paths: u64,
    pub switches: u64,
}

/// The child's own view of its memory, read from /proc/self/status at the end.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ProcessReport {
    pub vm_hwm_kib: u64,
    pub anon_huge_kib: u64,
}
