//! What one run reports. Every workload's `--json` prints a [`RunReport`]; compare reads it
//! back from each child, so every field here is part of the child protocol.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything one run of the workload reports.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunReport {
    /// The workload that ran ([`crate::Workload::name`]: `checker`, `tsc`); absent in older
    /// reports, which were all `checker`.
    #[serde(default = "default_workload")]
    pub workload: String,
    /// Corpus name or directory as given.
    pub corpus: String,
    /// Number of checker threads.
    pub checkers: usize,
    pub counts: Counts,
    pub phases: Phases,
    /// Hex SHA-256 over the sorted diagnostics and per-file results; the same for every
    /// allocator and every checker count.
    pub digest: String,
    /// What shaped the heap besides the corpus and the checker count, by the workload's names
    /// for it (tsc: `collect`, its collection setting); none for the checker, and absent in
    /// older reports.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
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

fn default_workload() -> String {
    FIRST_WORKLOAD.to_string()
}

/// The workload of every report written before reports named theirs.
pub const FIRST_WORKLOAD: &str = "checker";

/// Phase times, in seconds of wall time. The `tsc` workload's phases are its engine's:
/// `load_s` the runtime and typescript.js, `parse_s` `createProgram`, `bind_s`
/// `getTypeChecker` (TypeScript binds every file there), `check_s` the diagnostics; each the
/// longest of its checkers.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Phases {
    /// Loading the engine and the compiler (the `tsc` workload); 0 for the checker.
    #[serde(default)]
    pub load_s: f64,
    pub parse_s: f64,
    pub bind_s: f64,
    pub check_s: f64,
    /// Threads of the parse and bind pool (one per core); absent in older reports.
    #[serde(default)]
    pub front_threads: usize,
}

impl Phases {
    /// Source MB (10^6 bytes) per second per thread of each phase: parse and bind over the
    /// front threads, check over the checkers (each checks its share of the files).
    pub fn throughput(&self, bytes: u64, checkers: usize) -> [f64; 3] {
        let mb = bytes as f64 / 1e6;
        let rate = |s: f64, threads: usize| mb / s.max(1e-9) / threads.max(1) as f64;
        [
            rate(self.parse_s, self.front_threads),
            rate(self.bind_s, self.front_threads),
            rate(self.check_s, checkers),
        ]
    }
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

/// Slice allocator statistics, summed over arenas: enough for compare to judge whether the
/// slice allocator served the run as its contender says.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SliceReport {
    /// Policy as `CHECKBENCH_SLICE` spells it, e.g. `hybrid@8+populate`.
    pub policy: String,
    /// Bytes of the reservation; 0 when none was made (every request fell back).
    pub reservation_bytes: u64,
    /// Bytes per class slice; 0 without a reservation.
    pub slice_bytes: u64,
    /// The policy's switch point in bytes from a slice's start (hybrid policies); 0 when the
    /// policy never switches. A hybrid slice no larger than this can never switch.
    pub switch_bytes: u64,
    pub arenas_claimed: u32,
    /// Per class (index = class, size = 16 * (index + 1)), summed over arenas.
    pub classes: Vec<SliceClassReport>,
    pub fallbacks: BTreeMap<String, u64>,
    /// The carve record: `[arena, class, bytes carved]` for every class slice of every
    /// arena that carved any, in arena then class order. What each slice carved decides
    /// its faults and resident memory under every policy (compare's fault model).
    #[serde(default)]
    pub slices: Vec<[u64; 3]>,
    /// Requests a class serves (1..=512 bytes, alignment up to 16): the class blocks handed out
    /// plus [`SliceReport::small_fallbacks`].
    pub small_requests: u64,
    /// Small requests the system allocator served instead (`slice_exhausted`, `no_arena`,
    /// `no_reservation`).
    pub small_fallbacks: u64,
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

impl RunReport {
    /// The report of one run of `workload` (its name), with the allocator's and the process's
    /// view read now.
    pub fn new<D>(
        workload: &str,
        corpus: &str,
        checkers: usize,
        outcome: &crate::Outcome<D>,
        allocator: &crate::AllocatorIdentity,
    ) -> Self {
        let slice = if allocator.name == "slice" {
            slice_alloc::stats().map(|s| SliceReport::from_stats(&s))
        } else {
            None
        };
        let identity = match (&slice, allocator.name) {
            (Some(s), _) => s.policy.clone(),
            (None, "slice") => {
                slice_alloc::policy().map_or_else(|| allocator.identity.clone(), |p| p.to_string())
            }
            _ => allocator.identity.clone(),
        };
        RunReport {
            workload: workload.to_string(),
            corpus: corpus.to_string(),
            checkers,
            counts: outcome.counts.clone(),
            phases: outcome.phases.clone(),
            digest: outcome.digest.clone(),
            settings: BTreeMap::new(),
            allocator: AllocatorReport {
                name: allocator.name.to_string(),
                identity,
                slice,
            },
            process: ProcessReport::read(),
        }
    }

    /// The report as a human reads it.
    pub fn human(&self) -> String {
        use std::fmt::Write;
        let c = &self.counts;
        let p = &self.phases;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "corpus      {} ({} checker{}, workload {})",
            self.corpus,
            self.checkers,
            if self.checkers == 1 { "" } else { "s" },
            self.workload
        );
        let _ = writeln!(
            s,
            "files       {} ({:.1} MiB, {} lines)",
            c.files,
            c.bytes as f64 / (1 << 20) as f64,
            c.lines
        );
        let _ = writeln!(s, "ast nodes   {}", c.ast_nodes);
        let _ = writeln!(s, "symbols     {}", c.symbols);
        let _ = writeln!(s, "types       {}", c.types);
        let _ = writeln!(s, "relations   {}", c.relations);
        let _ = writeln!(s, "diagnostics {}", c.diagnostics);
        for (code, n) in &c.diagnostics_by_code {
            let _ = writeln!(s, "  {code:<9} {n}");
        }
        if p.load_s > 0.0 {
            let _ = writeln!(s, "load        {:.3} s", p.load_s);
        }
        let _ = writeln!(s, "parse       {:.3} s", p.parse_s);
        let _ = writeln!(s, "bind        {:.3} s", p.bind_s);
        let _ = writeln!(s, "check       {:.3} s", p.check_s);
        let [parse, bind, check] = p.throughput(c.bytes, self.checkers);
        let _ = writeln!(
            s,
            "per thread  parse {parse:.1} MB/s, bind {bind:.1} MB/s ({} threads), check {check:.1} MB/s",
            p.front_threads
        );
        let _ = writeln!(
            s,
            "allocator   {} {}",
            self.allocator.name, self.allocator.identity
        );
        if let Some(slice) = &self.allocator.slice {
            let buckets = slice.size_histogram();
            let total: u64 = buckets.iter().map(|b| b.1).sum::<u64>().max(1);
            let shares: Vec<String> = buckets
                .iter()
                .map(|(label, n)| format!("{label} {:.1}%", 100.0 * *n as f64 / total as f64))
                .collect();
            let _ = writeln!(s, "alloc sizes {} (of {total} calls)", shares.join(", "));
            let past: Vec<String> = slice
                .classes
                .iter()
                .filter(|c| c.max_slice_carved_bytes > SWITCH_REPORT_BYTES)
                .map(|c| {
                    let mib = c.max_slice_carved_bytes as f64 / (1 << 20) as f64;
                    format!("{} B {mib:.1} MiB", c.size)
                })
                .collect();
            let past = if past.is_empty() {
                "none".to_string()
            } else {
                past.join(", ")
            };
            let _ = writeln!(s, "slices > 8M {past}");
            let mib = |b: u64| b as f64 / (1 << 20) as f64;
            let _ = writeln!(
                s,
                "reservation {:.0} MiB, slices {:.0} MiB, switch at {}, {} arenas claimed",
                mib(slice.reservation_bytes),
                mib(slice.slice_bytes),
                if slice.switch_bytes == 0 {
                    "never".to_string()
                } else {
                    format!("{:.0} MiB", mib(slice.switch_bytes))
                },
                slice.arenas_claimed
            );
            let _ = writeln!(
                s,
                "small fallbacks {} of {} small requests ({:.3}%)",
                slice.small_fallbacks,
                slice.small_requests,
                100.0 * slice.small_fallback_share()
            );
        }
        let _ = writeln!(
            s,
            "peak rss    {} KiB (AnonHugePages {} KiB)",
            self.process.vm_hwm_kib, self.process.anon_huge_kib
        );
        let _ = writeln!(s, "digest      {}", self.digest);
        s
    }
}

/// A class slice that carves more than this in one arena crosses the hybrid policy's
/// default switch point (8 MiB); the human report lists such classes.
const SWITCH_REPORT_BYTES: u64 = 8 << 20;

impl SliceReport {
    /// Allocation calls by size: 16–64, 80–128, 144–256 and 272–512 bytes (the slice
    /// classes), and over 512 bytes (served by the fallback allocator).
    pub fn size_histogram(&self) -> [(&'static str, u64); 5] {
        let mut buckets = [
            ("16-64 B", 0),
            ("80-128 B", 0),
            ("144-256 B", 0),
            ("272-512 B", 0),
            ("over 512 B", 0),
        ];
        for c in &self.classes {
            let i = match c.size {
                0..=64 => 0,
                65..=128 => 1,
                129..=256 => 2,
                _ => 3,
            };
            buckets[i].1 += c.allocs;
        }
        buckets[4].1 = self.fallbacks.get("too_large").copied().unwrap_or(0);
        buckets
    }

    /// Sums the per-arena counters of the slice allocator.
    pub fn from_stats(stats: &slice_alloc::Stats) -> Self {
        let mut classes: Vec<SliceClassReport> = (0..slice_alloc::CLASS_COUNT)
            .map(|c| SliceClassReport {
                size: 16 * (c as u32 + 1),
                ..SliceClassReport::default()
            })
            .collect();
        let mut slices = Vec::new();
        for (a, arena) in stats.arenas.iter().enumerate() {
            for (c, s) in arena.iter().enumerate() {
                if s.carved_bytes > 0 {
                    slices.push([a as u64, c as u64, s.carved_bytes]);
                }
                let r = &mut classes[c];
                r.allocs += s.allocs;
                r.carved_bytes += s.carved_bytes;
                r.max_slice_carved_bytes = r.max_slice_carved_bytes.max(s.carved_bytes);
                r.reuses += s.reuses;
                r.remote_frees += s.remote_frees;
                r.slow_paths += s.slow_paths;
                r.switches += s.switches;
            }
        }
        let f = &stats.totals.fallbacks;
        let fallbacks = [
            ("zero_size", f.zero_size),
            ("too_large", f.too_large),
            ("over_aligned", f.over_aligned),
            ("slice_exhausted", f.slice_exhausted),
            ("no_arena", f.no_arena),
            ("no_reservation", f.no_reservation),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let small_fallbacks = f.slice_exhausted + f.no_arena + f.no_reservation;
        let served: u64 = classes.iter().map(|c| c.allocs).sum();
        SliceReport {
            policy: stats.totals.policy.to_string(),
            reservation_bytes: stats.totals.reservation_bytes as u64,
            slice_bytes: stats.totals.slice_bytes as u64,
            switch_bytes: stats.totals.policy.switch_bytes().unwrap_or(0) as u64,
            arenas_claimed: stats.totals.arenas_claimed,
            classes,
            fallbacks,
            slices,
            small_requests: served + small_fallbacks,
            small_fallbacks,
        }
    }

    /// The share of small requests the system allocator served (0 when there were none).
    pub fn small_fallback_share(&self) -> f64 {
        if self.small_requests == 0 {
            0.0
        } else {
            self.small_fallbacks as f64 / self.small_requests as f64
        }
    }
}

impl ProcessReport {
    /// VmHWM from /proc/self/status and AnonHugePages from /proc/self/smaps_rollup;
    /// zero where they cannot be read (not Linux).
    pub fn read() -> Self {
        let field = |text: &str, name: &str| -> u64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0)
        };
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").unwrap_or_default();
        ProcessReport {
            vm_hwm_kib: field(&status, "VmHWM:"),
            anon_huge_kib: rollup
                .lines()
                .filter_map(|l| l.strip_prefix("AnonHugePages:"))
                .filter_map(|r| r.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .sum(),
        }
    }
}
