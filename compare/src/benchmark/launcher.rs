//! How a contender's child process is started.
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use slice_alloc::POLICY_ENV;

use crate::benchmark::capture::Stdout;
use crate::benchmark::judge;
use crate::benchmark::measure::Measurement;
use crate::contender::{Contender, variant};
use crate::results::Run;
use crate::workload::{WORKLOAD_ARG, WorkloadKind};

/// The shell every `--command` runs in, as `sh -c CMD` (and the slice library is loaded into
/// to ask for its build).
pub const SHELL: &str = "/bin/sh";

/// What one run asks of a child.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub contender: Contender,
    /// Corpus name or directory, as given on the command line.
    pub corpus: &'a str,
    pub checkers: usize,
}

/// Maps a run to the command that performs it. The bake-off uses [`Binaries`]; tests
/// put in children that crash or lie.
pub trait Launcher {
    fn command(&self, request: &Request<'_>) -> Command;

    /// How long one run may take before it is killed and recorded as timed out.
    fn timeout(&self) -> Option<Duration> {
        None
    }

    /// What a run keeps of its standard output: by default all of it, a child's report.
    fn stdout(&self) -> Stdout {
        Stdout::Keep
    }

    /// Turns what was observed of one run into the recorded run: by default, a checker
    /// child's, judged by its report ([`judge::judge`]).
    fn judge(&self, request: &Request<'_>, round: usize, measured: &Measurement) -> Run {
        judge::judge(request.contender, None, round, measured)
    }
}

/// The child binaries `checkbench-slice`, `checkbench-mimalloc`, `checkbench-jemalloc` and
/// `checkbench-system` in `dir`, found and checked by [`super::children::Origin`].
#[derive(Clone, Debug)]
pub struct Binaries {
    pub dir: PathBuf,
    /// What every child runs (`--workload`).
    pub workload: WorkloadKind,
    /// Passed to children as `--cache-dir` so they read the corpus the parent fetched.
    pub cache_dir: Option<PathBuf>,
    /// `--timeout`: a run still going after this long is killed; `None` waits forever.
    pub timeout: Option<Duration>,
}

impl Binaries {
    pub fn path(&self, contender: Contender) -> PathBuf {
        self.dir.join(contender.binary_name())
    }
}

impl Launcher for Binaries {
    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// A child's judgement, with the workload every child was asked for.
    fn judge(&self, request: &Request<'_>, round: usize, measured: &Measurement) -> Run {
        judge::judge(request.contender, Some(self.workload), round, measured)
    }

    fn command(&self, request: &Request<'_>) -> Command {
        let mut command = Command::new(self.path(request.contender));
        command
            .arg(WORKLOAD_ARG)
            .arg(self.workload.name())
            .arg("--corpus")
            .arg(request.corpus)
            .arg("--checkers")
            .arg(request.checkers.to_string())
            .arg("--json")
            .arg("--no-fetch");
        if let Some(dir) = &self.cache_dir {
            command.arg("--cache-dir").arg(dir);
        }
        match request.contender.slice_policy() {
            Some(policy) => command.env(POLICY_ENV, policy.to_string()),
            None => command.env_remove(POLICY_ENV),
        };
        isolate_knobs(&mut command, request.contender);
        command
    }
}

/// Gives `command` the environment of `contender`'s knobs, preload and extra variables,
/// and removes every other contender's (and any the user's shell set): **each knob
/// reaches only its own child**.
pub fn isolate_knobs(command: &mut Command, contender: Contender) {
    for key in variant::CONTROLLED_ENV {
        command.env_remove(key);
    }
    for (key, _) in std::env::vars_os() {
        if key
            .to_str()
            .is_some_and(|k| k.starts_with(variant::MIMALLOC_ENV_PREFIX))
        {
            command.env_remove(key);
        }
    }
    if let Some(variant) = contender.variant() {
        for (key, value) in variant.child_env() {
            command.env(key, value);
        }
    }
}
