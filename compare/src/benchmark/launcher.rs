//! How a contender's child process is started.
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::contender::Contender;

/// The environment variable that selects the slice allocator's policy in a child.
pub const SLICE_POLICY_ENV: &str = "CHECKBENCH_SLICE";

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
}

/// The child binaries built beside compare: `checkbench-slice`, `checkbench-mimalloc`,
/// `checkbench-jemalloc` and `checkbench-system`.
#[derive(Clone, Debug)]
pub struct Binaries {
    pub dir: PathBuf,
    /// Passed to children as `--cache-dir` so they read the corpus the parent fetched.
    pub cache_dir: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum LauncherError {
    #[error("cannot find the directory of the compare executable: {0}")]
    CurrentExe(std::io::Error),
    #[error(
        "child binary {} is missing; build every binary of compare with `cargo build --release -p compare` (or use `cargo run --release -p compare`)",
        .0.display()
    )]
    Missing(PathBuf),
}

impl Binaries {
    /// The binaries next to the running executable.
    pub fn beside_current_exe(cache_dir: Option<PathBuf>) -> Result<Binaries, LauncherError> {
        let exe = std::env::current_exe().map_err(LauncherError::CurrentExe)?;
        let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Binaries { dir, cache_dir })
    }

    pub fn path(&self, contender: Contender) -> PathBuf {
        self.dir.join(contender.binary_name())
    }

    /// Fails before any run if a contender's binary is missing.
    pub fn check(&self, contenders: &[Contender]) -> Result<(), LauncherError> {
        for &contender in contenders {
            let path = self.path(contender);
            if !path.is_file() {
                return Err(LauncherError::Missing(path));
            }
        }
        Ok(())
    }
}

impl Launcher for Binaries {
    fn command(&self, request: &Request<'_>) -> Command {
        let mut command = Command::new(self.path(request.contender));
        command
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
            Some(policy) => command.env(SLICE_POLICY_ENV, policy.to_string()),
            None => command.env_remove(SLICE_POLICY_ENV),
        };
        command
    }
}
