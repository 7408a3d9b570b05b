//! The launcher of a command bake-off: `sh -c CMD` in the contender's environment, judged by
//! [`super::proof`], and what is checked before its first run ([`prepare`]).
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use slice_alloc::POLICY_ENV;

use crate::benchmark::capture::Stdout;
use crate::benchmark::children::{Origin, SLICE_LIBRARY, SLICE_STATS_ENV};
use crate::benchmark::judge;
use crate::benchmark::launcher::{Launcher, Request, SHELL, isolate_knobs};
use crate::benchmark::measure::{self, Measurement};
use crate::command::probe;
use crate::command::proof::{self, Expect};
use crate::command::setup::{self, Allocator, Setup};
use crate::contender::Contender;
use crate::environment::BuildInfo;
use crate::results::{AllocatorProof, Run, RunStatus};

/// Runs commands under resolved contenders.
pub struct CommandLauncher {
    /// Every contender that runs (a control runs as its baseline), resolved.
    setups: Vec<Setup>,
    /// The binding probe's proof of each contender, by command.
    proofs: Vec<(Contender, String, AllocatorProof)>,
    /// Whether a run's digest is its output's hash.
    digest: bool,
    timeout: Option<Duration>,
    /// Holds the statistics file of the run in flight.
    stats_dir: tempfile::TempDir,
    /// Runs started with a statistics file: each run gets a fresh file, so that a straggler
    /// of one run could never write into the next.
    runs: AtomicU64,
    /// The slice library's build, by file name, when a slice contender preloads it.
    builds: BTreeMap<String, BuildInfo>,
}

/// Resolves every contender, checks every library and command, and runs the binding probe
/// of each command under each contender: **every input is checked before the first run**. `commands` are those with runs still to make.
pub fn prepare(
    origin: &Origin,
    contenders: &[Contender],
    commands: &[String],
    digest: bool,
    timeout: Option<Duration>,
) -> Result<CommandLauncher> {
    let slice_library: PathBuf = if contenders.iter().any(|c| c.slice_policy().is_some()) {
        origin
            .slice_library()
            .context("building the slice library before the first run")?
    } else {
        origin.dir().join(SLICE_LIBRARY)
    };
    let mut setups: Vec<Setup> = Vec::new();
    for contender in contenders {
        let runs_as = contender.runs_as();
        if !setups.iter().any(|s| s.contender == runs_as) {
            setups.push(setup::resolve(runs_as, &slice_library)?);
        }
    }
    for command in commands {
        setup::check_not_static(command, &setups)?;
    }
    for setup in &setups {
        setup.check_library()?;
    }
    let mut builds = BTreeMap::new();
    if setups
        .iter()
        .any(|s| matches!(s.allocator, Allocator::Slice { .. }))
    {
        let build = origin
            .check_slice_library(&slice_library)
            .context("checking the slice library before the first run")?;
        builds.insert(SLICE_LIBRARY.to_string(), build);
    }
    let mut launcher = CommandLauncher {
        setups,
        proofs: Vec::new(),
        digest,
        timeout,
        stats_dir: tempfile::Builder::new()
            .prefix("compare-command-")
            .tempdir()
            .context("making a folder for the slice statistics")?,
        runs: AtomicU64::new(0),
        builds,
    };
    let stop = AtomicBool::new(false);
    // **Failures are symmetric**: every command runs once under glibc's malloc before any probe
    // or run, whatever the contenders, so that a command that cannot run at all (not found, a
    // bad option) is refused up front, in the words a failed run has, and is never taken for
    // the failure of the first contender probed.
    let glibc = setup::resolve(Contender::System, &slice_library)?;
    for command in commands {
        let measured = measure::measure_with(
            launcher.shell(&glibc, command),
            timeout,
            &stop,
            // Unmeasured: nothing to sample.
            None,
            Stdout::Discard,
        )
        .with_context(|| format!("starting --command `{command}` under glibc's malloc"))?;
        judge::exit_status(&measured).map_err(|why| {
            anyhow!(
                "--command `{command}` fails under glibc's malloc without any preload (tried \
                 once before the first run): {why}"
            )
        })?;
    }
    // Slice contenders too: their statistics lines show that some process was served, the
    // probe that no program of the command left the preload behind.
    let probed: Vec<&Setup> = launcher.setups.iter().collect();
    if !probed.is_empty() && !commands.is_empty() {
        eprintln!(
            "proving which malloc each process binds: one unmeasured run of each command under \
             {} with LD_DEBUG=bindings",
            probed
                .iter()
                .map(|s| s.contender.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut proofs = Vec::new();
    for command in commands {
        for setup in &probed {
            let shell = launcher.shell(setup, command);
            let proof = probe::prove(setup, shell, timeout, &stop).map_err(|why| {
                anyhow!(
                    "--command `{command}` under {} (its binding probe, before the first run): \
                     {why}",
                    setup.contender
                )
            })?;
            proofs.push((setup.contender, command.clone(), proof));
        }
    }
    launcher.proofs = proofs;
    Ok(launcher)
}

impl CommandLauncher {
    /// The builds of what the runs preload from compare's checkout (the slice library), by
    /// file name, for the results' record beside the children's.
    pub fn builds(&self) -> BTreeMap<String, BuildInfo> {
        self.builds.clone()
    }

    /// The statistics file of the run in flight (runs are measured one at a time).
    fn stats_path(&self) -> PathBuf {
        let run = self.runs.load(Ordering::SeqCst);
        self.stats_dir
            .path()
            .join(format!("slice-stats-{run}.jsonl"))
    }

    fn setup(&self, contender: Contender) -> Option<&Setup> {
        let runs_as = contender.runs_as();
        self.setups.iter().find(|s| s.contender == runs_as)
    }

    /// `sh -c command` in the environment of `setup` alone (every other contender's
    /// variables removed), with an emptied statistics file for a slice contender.
    fn shell(&self, setup: &Setup, command: &str) -> Command {
        let mut shell = Command::new(SHELL);
        shell.arg("-c").arg(command);
        isolate_knobs(&mut shell, Contender::System);
        shell.env_remove(POLICY_ENV).env_remove(SLICE_STATS_ENV);
        for (key, value) in setup.child_env() {
            shell.env(key, value);
        }
        if matches!(setup.allocator, Allocator::Slice { .. }) {
            // The earlier run's file goes; this run writes a fresh one.
            let _ = std::fs::remove_file(self.stats_path());
            self.runs.fetch_add(1, Ordering::SeqCst);
            shell.env(SLICE_STATS_ENV, self.stats_path());
        }
        shell
    }
}

impl Launcher for CommandLauncher {
    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// Its digest, hashed as it streams (nothing with `--no-digest`): a command's output is
    /// never held whole.
    fn stdout(&self) -> Stdout {
        if self.digest {
            Stdout::Digest
        } else {
            Stdout::Discard
        }
    }

    fn command(&self, request: &Request<'_>) -> Command {
        match self.setup(request.contender) {
            Some(setup) => self.shell(setup, request.corpus),
            // Every contender is resolved before the first run; `judge` fails this one.
            None => {
                let mut refuse = Command::new(SHELL);
                refuse.args(["-c", "exit 2"]);
                refuse
            }
        }
    }

    fn judge(&self, request: &Request<'_>, round: usize, measured: &Measurement) -> Run {
        let contender = request.contender;
        let Some(setup) = self.setup(contender) else {
            let mut run = judge::measured_run(round, measured);
            run.status = RunStatus::Failed(format!("contender {contender} was not resolved"));
            return run;
        };
        let probed = self
            .proofs
            .iter()
            .find(|(c, command, _)| *c == setup.contender && command == request.corpus)
            .map(|(_, _, proof)| proof);
        let stats = self.stats_path();
        let expect = match (&setup.allocator, probed) {
            (Allocator::Slice { policy, .. }, probe) => Expect::Slice {
                policy: *policy,
                stats: &stats,
                probe,
            },
            (Allocator::Library(_), Some(proof)) => Expect::Library { proof },
            (Allocator::System, Some(proof)) => Expect::System { proof },
            (_, None) => {
                let mut run = judge::measured_run(round, measured);
                run.status =
                    RunStatus::Failed(format!("contender {contender} has no binding proof"));
                return run;
            }
        };
        proof::judge(round, measured, self.digest, expect)
    }
}
