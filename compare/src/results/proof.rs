//! The record of what proved that a run measured its contender's allocator: the child's report
//! of its allocator ([`AllocatorProof`]) and, in a command bake-off, what the slice library's
//! statistics lines or the binding probe showed ([`CommandProof`]). Records of the results
//! file: the judges (benchmark/judge.rs, command/proof.rs) write them, every report reads them.
use serde::{Deserialize, Serialize};

/// The allocator's proof of identity, from the child's report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllocatorProof {
    /// `slice`, `mimalloc`, `jemalloc` or `system`.
    pub name: String,
    /// The allocator's own identification (its version), or the slice policy.
    pub identity: String,
    /// Slice contenders: the policy the allocator ran under, e.g. `hybrid@8`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// Slice contenders: arenas claimed (one per checker thread and helper thread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arenas_claimed: Option<u32>,
    /// Slice contenders: slices that crossed their switch point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches: Option<u64>,
    /// Slice contenders: bytes carved from slices, all classes and arenas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carved_bytes: Option<u64>,
    /// Slice contenders: the most bytes any one slice carved (any class, any arena); a
    /// hybrid slice switches to huge pages only past its switch point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_slice_bytes: Option<u64>,
    /// Slice contenders: requests served by the system allocator instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallbacks: Option<u64>,
    /// Slice contenders: bytes of each class slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_bytes: Option<u64>,
    /// Slice contenders: the carve record, `[arena, class, bytes carved]` per slice that
    /// carved any (what [`crate::studies::model`] predicts every policy's faults and RSS from).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slices: Vec<[u64; 3]>,
    /// Command bake-offs: what the proof of the run showed ([`CommandProof`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandProof>,
}

impl AllocatorProof {
    /// One line for tables: `mimalloc 3.3.2`, `slice hybrid@8 (3 arenas, 12 switches)`.
    /// A git-describe identity keeps 9 digits of its hash: `5.3.1-0-g81034ce1f`.
    pub fn describe(&self) -> String {
        if let (Some(policy), Some(command)) = (&self.policy, &self.command) {
            return format!(
                "slice {policy} ({} process{}, {} switch{})",
                command.processes,
                if command.processes == 1 { "" } else { "es" },
                self.switches.unwrap_or(0),
                if self.switches == Some(1) { "" } else { "es" },
            );
        }
        match (&self.policy, self.arenas_claimed, self.switches) {
            (Some(policy), Some(arenas), Some(switches)) => format!(
                "slice {policy} ({arenas} arena{}, {switches} switch{})",
                if arenas == 1 { "" } else { "s" },
                if switches == 1 { "" } else { "es" },
            ),
            (Some(policy), _, _) => format!("slice {policy}"),
            _ if self.identity.is_empty() => self.name.clone(),
            _ => {
                let identity = match self.identity.split_once("-g") {
                    Some((version, hash)) => {
                        format!("{version}-g{}", hash.chars().take(9).collect::<String>())
                    }
                    None => self.identity.clone(),
                };
                format!("{} {identity}", self.name)
            }
        }
    }
}

/// What the proof of a command run showed, beside the [`AllocatorProof`]'s own fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CommandProof {
    /// `statistics` (the slice library's lines of this run) or `bindings` (the `LD_DEBUG`
    /// probe before the first run).
    pub method: String,
    /// Processes the proof covers: statistics lines of served processes, or processes of the
    /// probe that bound `malloc`.
    pub processes: u32,
    /// Their executables, each once, in order of appearance.
    pub executables: Vec<String>,
    /// Executables of the probe's process tree that ran without the contender's allocator
    /// (their environment cleared), each with its CPU time: few enough to leave the run ok.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unserved: Vec<String>,
    /// Slice contenders: requests of 1..=512 bytes, summed over the processes (class blocks
    /// handed out plus those glibc served instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub small_requests: Option<u64>,
    /// Slice contenders: bytes carved per class (16, 32, ..., 512 bytes), summed over
    /// processes and arenas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class_carved_bytes: Vec<u64>,
    /// Slice contenders: slices that crossed their switch point, per class.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class_switches: Vec<u64>,
}
