//! Fake children: shell commands that print a report, crash, or lie, so the bake-off loop
//! can be tested without the workload.
use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use compare::benchmark::launcher::{Launcher, Request};
use compare::contender::Contender;
use compare::environment::Environment;
use compare::results::{Figures, Results, Run, RunStatus, Settings};
use workload::report::{AllocatorReport, Counts, Phases, ProcessReport, RunReport, SliceReport};

pub const DIGEST: &str = "d1ce57";

/// What a fake child does.
#[derive(Clone, Debug)]
pub enum Behaviour {
    /// Prints an honest report with this digest.
    Report { digest: String },
    /// Prints an honest report whose digest depends on the checker count.
    ReportPerCheckers,
    /// Kills itself with SIGSEGV.
    Crash,
    /// Dies by SIGINT, as a child does when the user presses Ctrl-C.
    Interrupted,
    /// Reports a slice policy other than the one asked for.
    WrongPolicy,
    /// Prints an honest report whose slice statistics this function changed.
    SliceStats(fn(&mut SliceReport)),
}

/// Launches fake children and remembers every request.
pub struct FakeLauncher {
    pub behaviours: BTreeMap<String, Behaviour>,
    pub launched: Mutex<Vec<(String, String, usize)>>,
    /// When set, the launch with this index (from 0) raises `stop`, as Ctrl-C would.
    pub stop_at: Option<(usize, &'static AtomicBool)>,
}

impl FakeLauncher {
    pub fn honest() -> FakeLauncher {
        FakeLauncher {
            behaviours: BTreeMap::new(),
            launched: Mutex::new(Vec::new()),
            stop_at: None,
        }
    }

    pub fn with(mut self, contender: &str, behaviour: Behaviour) -> FakeLauncher {
        self.behaviours.insert(contender.to_string(), behaviour);
        self
    }

    pub fn launches(&self) -> Vec<(String, String, usize)> {
        self.launched.lock().unwrap().clone()
    }
}

pub fn report(contender: Contender, corpus: &str, checkers: usize, digest: &str) -> RunReport {
    let slice = contender.slice_policy().map(|policy| SliceReport {
        policy: policy.to_string(),
        reservation_bytes: 1024 * (64 << 20),
        slice_bytes: 64 << 20,
        switch_bytes: policy.switch_bytes().unwrap_or(0) as u64,
        arenas_claimed: checkers as u32,
        classes: Vec::new(),
        fallbacks: BTreeMap::new(),
        slices: Vec::new(),
        small_requests: 1_000_000,
        small_fallbacks: 3,
    });
    RunReport {
        workload: "checker".to_string(),
        corpus: corpus.to_string(),
        checkers,
        counts: Counts::default(),
        phases: Phases::default(),
        digest: digest.to_string(),
        settings: Default::default(),
        allocator: AllocatorReport {
            name: contender.allocator_name().to_string(),
            identity: "fake 1.0".to_string(),
            slice,
        },
        process: ProcessReport {
            vm_hwm_kib: 4096,
            anon_huge_kib: 0,
        },
    }
}

impl Launcher for FakeLauncher {
    fn command(&self, request: &Request<'_>) -> Command {
        let mut launched = self.launched.lock().unwrap();
        if let Some((index, stop)) = self.stop_at
            && launched.len() == index
        {
            stop.store(true, Ordering::SeqCst);
        }
        launched.push((
            request.contender.to_string(),
            request.corpus.to_string(),
            request.checkers,
        ));
        let name = request.contender.to_string();
        let behaviour = self
            .behaviours
            .get(&name)
            .cloned()
            .unwrap_or(Behaviour::Report {
                digest: DIGEST.to_string(),
            });
        let mut command = Command::new("sh");
        let behaviour = match behaviour {
            Behaviour::ReportPerCheckers => Behaviour::Report {
                digest: format!("{DIGEST}-{}", request.checkers),
            },
            other => other,
        };
        match behaviour {
            Behaviour::ReportPerCheckers => unreachable!("rewritten above"),
            Behaviour::Report { digest } => {
                let json = serde_json::to_string(&report(
                    request.contender,
                    request.corpus,
                    request.checkers,
                    &digest,
                ))
                .unwrap();
                command
                    .args(["-c", "printf '%s\\n' \"$FAKE_REPORT\""])
                    .env("FAKE_REPORT", json);
            }
            Behaviour::Crash => {
                command.args(["-c", "echo 'about to crash' >&2; kill -SEGV $$"]);
            }
            Behaviour::Interrupted => {
                command.args(["-c", "kill -INT $$"]);
            }
            Behaviour::SliceStats(change) => {
                let mut report =
                    report(request.contender, request.corpus, request.checkers, DIGEST);
                if let Some(slice) = report.allocator.slice.as_mut() {
                    change(slice);
                }
                let json = serde_json::to_string(&report).unwrap();
                command
                    .args(["-c", "printf '%s\\n' \"$FAKE_REPORT\""])
                    .env("FAKE_REPORT", json);
            }
            Behaviour::WrongPolicy => {
                let wrong = report(
                    Contender::SLICE_HUGE,
                    request.corpus,
                    request.checkers,
                    DIGEST,
                );
                let json = serde_json::to_string(&wrong).unwrap();
                command
                    .args(["-c", "printf '%s\\n' \"$FAKE_REPORT\""])
                    .env("FAKE_REPORT", json);
            }
        }
        command
    }
}

/// Empty results for a plan over the synthetic corpus: `runs` rounds, no control.
pub fn plan(contenders: &[&str], checkers: &[usize], runs: usize, warmup: usize) -> Results {
    let contenders: Vec<Contender> = contenders.iter().map(|c| c.parse().unwrap()).collect();
    Results::new(
        Environment::default(),
        Settings {
            corpora: vec!["synthetic".to_string()],
            checkers: checkers.to_vec(),
            baseline: contenders[0],
            contenders,
            min_runs: runs,
            max_runs: None,
            precision_pct: None,
            precision_by_corpus: Default::default(),
            warmup,
            control: false,
            seed: 0,
            corpus_digests: Default::default(),
            outputs: Default::default(),
            workload: Default::default(),
            command: None,
        },
    )
}

/// A folder holding a fake `checkbench-mimalloc` that answers `--build-info` as a release
/// build of these sources and runs the shell `script` otherwise: a child compare accepts,
/// run through the real binary with `--children`.
pub fn mimalloc_children(script: &str) -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let info = compare::environment::BuildInfo {
        profile: "release".to_string(),
        ..compare::environment::BuildInfo::current()
    };
    let path = dir.path().join("checkbench-mimalloc");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --build-info ]; then echo '{}'; exit 0; fi\n{script}\n",
            serde_json::to_string(&info).unwrap()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// compare on fake `children`, in `dir` with its own corpus cache: mimalloc alone and as the
/// baseline, 1 checker, 1 round, no warm-up, no fault probe, then `args`.
pub fn compare_on_children(
    dir: &std::path::Path,
    children: &std::path::Path,
    args: &[&str],
) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_compare"));
    command
        .args(["--contenders", "mimalloc", "--baseline", "mimalloc"])
        .args([
            "--checkers",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--no-calibration",
            "--quiet-wait",
            "0",
        ])
        .arg("--children")
        .arg(children)
        .args(args)
        .current_dir(dir)
        .env("CHECKBENCH_CACHE", dir.join("cache"));
    command
}

/// A successful run of `round` with these figures (user time as wall, 0.1 s sys), its digest
/// [`DIGEST`], no allocator proof and no kernel records: tests set what they look at.
pub fn run(round: usize, wall_s: f64, rss_kib: u64, minor_faults: u64) -> Run {
    Run {
        round,
        status: RunStatus::Ok,
        digest: DIGEST.to_string(),
        figures: Figures {
            wall_s,
            user_s: wall_s,
            sys_s: 0.1,
            max_rss_kib: rss_kib,
            vm_hwm_kib: rss_kib,
            minor_faults,
            major_faults: 0,
            anon_huge_kib: 0,
            anon_huge_peak_kib: 0,
        },
        allocator: None,
        workload: None,
        workload_settings: Default::default(),
        covariates: Default::default(),
        kernel: None,
        memory: None,
    }
}
