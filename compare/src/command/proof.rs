//! What proves that a command ran under its contender's allocator, and how a run is judged.
//!
//! - **Slice contenders, every run**: the library's statistics (`CHECKBENCH_SLICE_STATS`, one
//!   JSON line per process that exits through `exit`) must hold at least one line, every
//!   line of a process the library served must name the policy asked for, and the sum must
//!   pass the checker's own service test (a reservation, an arena, slices larger than a hybrid
//!   switch point, at most 1% of small requests handed to glibc) with small requests served.
//! - **Preloaded libraries, every run**: ld.so's "cannot be preloaded" on stderr fails it.
//!   Before the first run, the binding probe ([`super::probe`]) shows every process of the
//!   command binding `malloc` to the library; its proof is each run's identity.
//! - **Every run**: exit status 0 (as a checker child), and, unless `--no-digest`, the
//!   SHA-256 of its standard output as its digest, so that a run whose output differs from
//!   the majority's fails as a checker run with another digest does.
use std::path::Path;

use serde::Deserialize;

use slice_alloc::Policy;
use workload::report::SliceReport;

use crate::benchmark::children::SLICE_LIBRARY;
use crate::benchmark::judge;
use crate::benchmark::measure::Measurement;
use crate::contender::Contender;
use crate::results::{AllocatorProof, CommandProof, Run, RunStatus};

/// One statistics line of the slice library (see "Preloading" in alloc/README.md).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StatsLine {
    pub pid: u32,
    pub exe: String,
    pub served: bool,
    pub policy: Option<String>,
    pub reservation_bytes: u64,
    pub slice_bytes: u64,
    pub arenas_claimed: u32,
    pub small_requests: u64,
    pub switches: u64,
    pub fallbacks: Fallbacks,
    /// A forked child's line: its counters start at the fork.
    pub forked: bool,
    pub class_carved_bytes: Vec<u64>,
    pub class_switches: Vec<u64>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Fallbacks {
    pub slice_exhausted: u64,
    pub no_arena: u64,
    pub no_reservation: u64,
    pub total: u64,
}

impl StatsLine {
    /// Small requests (1..=512 bytes) handed to glibc: the slices full, no arena, no
    /// reservation.
    pub fn small_fallbacks(&self) -> u64 {
        let f = &self.fallbacks;
        f.slice_exhausted + f.no_arena + f.no_reservation
    }

    /// This process's counters as the checker's slice report, for its service test.
    fn report(&self, policy: Policy) -> SliceReport {
        SliceReport {
            policy: policy.to_string(),
            reservation_bytes: self.reservation_bytes,
            slice_bytes: self.slice_bytes,
            switch_bytes: policy.switch_bytes().unwrap_or(0) as u64,
            arenas_claimed: self.arenas_claimed,
            classes: Vec::new(),
            fallbacks: Default::default(),
            slices: Vec::new(),
            small_requests: self.small_requests + self.small_fallbacks(),
            small_fallbacks: self.small_fallbacks(),
        }
    }
}

/// The statistics lines in `path` (absent file: none).
pub fn read_stats(path: &Path) -> Result<Vec<StatsLine>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            serde_json::from_str(line)
                .map_err(|e| format!("unreadable slice statistics line ({e}): {line}"))
        })
        .collect()
}

/// A slice run's proof from its statistics lines, or why they do not prove it.
pub fn slice_proof(policy: Policy, lines: &[StatsLine]) -> Result<AllocatorProof, String> {
    if lines.is_empty() {
        return Err(format!(
            "no slice statistics line: no process of the command loaded {SLICE_LIBRARY} and left \
             through exit (a statically linked command cannot be preloaded; a program that \
             clears LD_PRELOAD from its environment, or ends by a signal or _exit, writes none)"
        ));
    }
    let served: Vec<&StatsLine> = lines.iter().filter(|l| l.served).collect();
    if served.is_empty() {
        return Err(format!(
            "the slice allocator served no request in any of the {} processes that wrote \
             statistics",
            lines.len()
        ));
    }
    if let Some(line) = served
        .iter()
        .find(|l| l.policy.as_deref().and_then(|p| p.parse::<Policy>().ok()) != Some(policy))
    {
        return Err(format!(
            "wrong slice policy: asked for {policy}, process {} ({}) reports {:?}",
            line.pid,
            line.exe,
            line.policy.as_deref().unwrap_or("none")
        ));
    }
    let sum = |f: fn(&StatsLine) -> u64| served.iter().map(|l| f(l)).sum::<u64>();
    if sum(|l| l.small_requests) == 0 {
        return Err(format!(
            "the slice allocator served no small request (1..=512 bytes) in {} process{}",
            served.len(),
            if served.len() == 1 { "" } else { "es" }
        ));
    }
    // Each process on its own: one whose requests all went to glibc is not hidden by others.
    for line in &served {
        let report = line.report(policy);
        if report.small_requests == 0 {
            continue;
        }
        judge::check_slice_service(Contender::Slice(policy), Some(&report))
            .map_err(|why| format!("process {} ({}): {why}", line.pid, line.exe))?;
    }
    let small_fallbacks = sum(StatsLine::small_fallbacks);
    let small_requests = sum(|l| l.small_requests) + small_fallbacks;
    let per_class = |f: fn(&StatsLine) -> &Vec<u64>| {
        let mut total = vec![0u64; slice_alloc::CLASS_COUNT];
        for line in &served {
            for (slot, value) in total.iter_mut().zip(f(line)) {
                *slot += value;
            }
        }
        total
    };
    let class_carved_bytes = per_class(|l| &l.class_carved_bytes);
    let slice_bytes = served.iter().map(|l| l.slice_bytes).min().unwrap_or(0);
    let arenas_claimed = served.iter().map(|l| l.arenas_claimed).sum();
    let mut executables: Vec<String> = Vec::new();
    for line in &served {
        if !executables.contains(&line.exe) {
            executables.push(line.exe.clone());
        }
    }
    Ok(AllocatorProof {
        name: "slice".to_string(),
        identity: format!("{SLICE_LIBRARY} {policy}"),
        policy: Some(policy.to_string()),
        arenas_claimed: Some(arenas_claimed),
        switches: Some(sum(|l| l.switches)),
        carved_bytes: Some(class_carved_bytes.iter().sum()),
        largest_slice_bytes: None,
        fallbacks: Some(sum(|l| l.fallbacks.total)),
        slice_bytes: Some(slice_bytes),
        slices: Vec::new(),
        command: Some(CommandProof {
            method: "statistics".to_string(),
            processes: served.len() as u32,
            executables,
            unserved: Vec::new(),
            small_requests: Some(small_requests),
            class_carved_bytes,
            class_switches: per_class(|l| &l.class_switches),
        }),
    })
}

/// How a command run's own proof is taken.
pub enum Expect<'a> {
    /// A slice run: its statistics lines, and the probe's programs that ran unserved.
    Slice {
        policy: Policy,
        stats: &'a Path,
        probe: Option<&'a AllocatorProof>,
    },
    /// A preloaded library: no "cannot be preloaded"; the probe's proof as identity.
    Library { proof: &'a AllocatorProof },
    /// glibc: the probe's proof as identity.
    System { proof: &'a AllocatorProof },
}

/// Judges one command run: exit status, digest of the output, and the allocator's proof.
pub fn judge(round: usize, measured: &Measurement, digest: bool, expect: Expect<'_>) -> Run {
    let mut run = judge::measured_run(round, measured);
    if let Err(why) = judge::exit_status(measured) {
        run.status = RunStatus::Failed(why);
        return run;
    }
    if digest {
        run.digest = measured.stdout_digest.clone().unwrap_or_default();
    }
    let proof = match expect {
        Expect::Slice {
            policy,
            stats,
            probe,
        } => read_stats(stats)
            .and_then(|l| slice_proof(policy, &l))
            .map(|mut proof| {
                let unserved = probe.and_then(|p| p.command.as_ref()).map(|c| &c.unserved);
                if let (Some(command), Some(unserved)) = (proof.command.as_mut(), unserved) {
                    command.unserved.clone_from(unserved);
                }
                proof
            }),
        Expect::Library { proof } => match measured.not_preloaded.first() {
            Some(line) => Err(format!("not preloaded: {line}")),
            None => Ok(proof.clone()),
        },
        Expect::System { proof } => Ok(proof.clone()),
    };
    match proof {
        Ok(proof) => run.allocator = Some(proof),
        Err(why) => run.status = RunStatus::Failed(why),
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(policy: &str, small: u64) -> StatsLine {
        StatsLine {
            pid: 7,
            exe: "/usr/bin/sort".to_string(),
            served: true,
            policy: Some(policy.to_string()),
            reservation_bytes: 64 << 30,
            slice_bytes: 64 << 20,
            arenas_claimed: 1,
            small_requests: small,
            class_carved_bytes: vec![4096; 32],
            ..StatsLine::default()
        }
    }

    fn hybrid() -> Policy {
        "hybrid".parse().unwrap()
    }

    #[test]
    fn statistics_lines_of_the_asked_policy_prove_a_slice_run() {
        let proof = slice_proof(hybrid(), &[line("hybrid@8", 100), line("hybrid@8", 50)]).unwrap();
        let command = proof.command.unwrap();
        assert_eq!(command.processes, 2);
        assert_eq!(command.small_requests, Some(150));
        assert_eq!(command.executables, vec!["/usr/bin/sort".to_string()]);
        assert_eq!(command.class_carved_bytes[0], 8192);
    }

    #[test]
    fn no_line_another_policy_or_no_small_request_fails_with_the_reason() {
        let none = slice_proof(hybrid(), &[]).unwrap_err();
        assert!(none.contains("statically linked"), "{none}");
        let other = slice_proof(hybrid(), &[line("nohuge", 10)]).unwrap_err();
        assert!(other.contains("wrong slice policy"), "{other}");
        let idle = slice_proof(hybrid(), &[line("hybrid@8", 0)]).unwrap_err();
        assert!(idle.contains("no small request"), "{idle}");
        let unserved = StatsLine {
            served: false,
            ..line("hybrid@8", 0)
        };
        let unserved = slice_proof(hybrid(), &[unserved]).unwrap_err();
        assert!(unserved.contains("served no request"), "{unserved}");
    }

    #[test]
    fn the_library_line_format_parses() {
        let text = r#"{"pid":1,"ppid":0,"exe":"/bin/sort","served":true,"policy":"nohuge","reservation_bytes":1,"slice_bytes":2,"arenas_claimed":1,"small_requests":3,"reuses":0,"remote_frees":0,"slow_paths":1,"switches":0,"advice_errors":0,"fallbacks":{"zero_size":0,"too_large":1,"over_aligned":0,"slice_exhausted":0,"no_arena":0,"no_reservation":0,"total":1},"class_allocs":[3],"class_carved_bytes":[48],"class_switches":[0]}"#;
        let line: StatsLine = serde_json::from_str(text).unwrap();
        assert_eq!((line.small_requests, line.fallbacks.total), (3, 1));
        assert_eq!(line.class_carved_bytes, vec![48]);
    }
}
