//! Each contender of a command bake-off resolved, once and before the first run, to what its
//! command runs under: the slice library with a policy, a shared library by `LD_PRELOAD`, or
//! glibc's malloc. Every library is checked before the first run: readable, and preloaded
//! by ld.so without its "cannot be preloaded" message.
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use slice_alloc::{POLICY_ENV, Policy};

use crate::benchmark::capture::NOT_PRELOADED;
use crate::benchmark::children::SLICE_STATS_ENV;
use crate::benchmark::launcher::SHELL;
use crate::contender::{Contender, variant::Base};

/// Where the system's shared libraries of mimalloc and jemalloc are looked for, before
/// ld.so's cache (`ldconfig -p`).
const LIBRARY_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/local/lib",
    "/usr/lib",
];

/// The allocator a contender's command runs under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allocator {
    /// `libslice_alloc.so` under this policy.
    Slice { library: PathBuf, policy: Policy },
    /// A shared library by `LD_PRELOAD`: mimalloc's or jemalloc's of the system, or a
    /// `preload:NAME=PATH`.
    Library(PathBuf),
    /// glibc's malloc: no preload.
    System,
}

/// One contender, resolved.
#[derive(Clone, Debug)]
pub struct Setup {
    pub contender: Contender,
    pub allocator: Allocator,
    /// What the contender adds to the command's environment (besides the statistics path).
    pub env: Vec<(String, String)>,
}

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(
        "contender `{contender}` sets knobs, which compare proves from inside its own child \
         binaries; a command bake-off runs no child of compare's, so it cannot prove them. Give \
         the allocator's variables unproven with a --contenders-file contender's `env` and \
         `preload` instead"
    )]
    Knobs { contender: String },
    #[error(
        "contender `{contender}`: a command bake-off preloads the system's {wanted} ({package}), \
         which is in none of {dirs} nor in ld.so's cache (`ldconfig -p`); install it, or name a \
         library with preload:NAME=PATH",
        dirs = LIBRARY_DIRS.join(", ")
    )]
    NoLibrary {
        contender: String,
        wanted: &'static str,
        package: &'static str,
    },
    #[error("contender `{contender}`: library {}: {why}", .path.display())]
    Unusable {
        contender: String,
        path: PathBuf,
        why: String,
    },
    #[error(
        "the slice contenders need {} ({why}); build it with `cargo build --release -p \
         slice-preload` and pass its folder with --children, or run compare through cargo from \
         its checkout, which builds it",
        .path.display()
    )]
    NoSliceLibrary { path: PathBuf, why: String },
    #[error(
        "{} (the first program of --command `{command}`) is statically linked: no LD_PRELOAD \
         reaches a statically linked command, so every contender but `system` would measure the \
         allocator linked into it",
        .program.display()
    )]
    Static { program: PathBuf, command: String },
}

/// Resolves `contender` for a command bake-off; `slice_library` is the slice library's path.
pub fn resolve(contender: Contender, slice_library: &Path) -> Result<Setup, SetupError> {
    let name = contender.to_string();
    let (allocator, env) = match contender.runs_as() {
        Contender::Slice(policy) => (
            Allocator::Slice {
                library: slice_library.to_path_buf(),
                policy,
            },
            Vec::new(),
        ),
        Contender::Mimalloc => (system_library(&name, Base::Mimalloc)?, Vec::new()),
        Contender::Jemalloc => (system_library(&name, Base::Jemalloc)?, Vec::new()),
        Contender::Variant(variant) => {
            if !variant.knobs.is_empty() {
                return Err(SetupError::Knobs { contender: name });
            }
            let allocator = match (&variant.preload, variant.base) {
                (Some(path), _) => Allocator::Library(path.clone()),
                (None, Base::System) => Allocator::System,
                (None, base) => system_library(&name, base)?,
            };
            (allocator, variant.env.clone())
        }
        Contender::System | Contender::Control(_) => (Allocator::System, Vec::new()),
    };
    Ok(Setup {
        contender,
        allocator,
        env,
    })
}

/// mimalloc's or jemalloc's shared library of the system (Debian's libmimalloc2.0 and
/// libjemalloc2).
fn system_library(contender: &str, base: Base) -> Result<Allocator, SetupError> {
    let (names, package): (&[&'static str], _) = match base {
        Base::Mimalloc => (
            &["libmimalloc.so.2", "libmimalloc.so"],
            "Debian: libmimalloc2.0",
        ),
        Base::Jemalloc => (
            &["libjemalloc.so.2", "libjemalloc.so"],
            "Debian: libjemalloc2",
        ),
        Base::System => return Ok(Allocator::System),
    };
    for name in names {
        if let Some(path) = LIBRARY_DIRS
            .iter()
            .map(|dir| Path::new(dir).join(name))
            .find(|path| path.is_file())
            .or_else(|| cached_library(name))
        {
            return Ok(Allocator::Library(path));
        }
    }
    Err(SetupError::NoLibrary {
        contender: contender.to_string(),
        wanted: names[0],
        package,
    })
}

/// `name`'s path in ld.so's cache, from `ldconfig -p` (`\tNAME (libc6,x86-64) => PATH`).
fn cached_library(name: &str) -> Option<PathBuf> {
    let out = ["/sbin/ldconfig", "ldconfig"]
        .iter()
        .find_map(|ldconfig| Command::new(ldconfig).arg("-p").output().ok())?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| {
            let (left, path) = line.split_once("=>")?;
            let path = PathBuf::from(path.trim());
            (left.split_whitespace().next() == Some(name) && path.is_file()).then_some(path)
        })
}

impl Setup {
    /// The library this contender preloads, if any.
    pub fn library(&self) -> Option<&Path> {
        match &self.allocator {
            Allocator::Slice { library, .. } | Allocator::Library(library) => {
                Some(library.as_path())
            }
            Allocator::System => None,
        }
    }

    /// The environment the command runs in: the preload, the policy and the contender's own
    /// variables (the statistics path is added per run).
    pub fn child_env(&self) -> Vec<(String, String)> {
        let mut env = Vec::new();
        if let Some(library) = self.library() {
            env.push(("LD_PRELOAD".to_string(), library.display().to_string()));
        }
        if let Allocator::Slice { policy, .. } = &self.allocator {
            env.push((POLICY_ENV.to_string(), policy.to_string()));
        }
        env.extend(self.env.iter().cloned());
        env
    }

    /// Checks the library before the first run: a readable file that ld.so preloads into
    /// `sh -c true` without "cannot be preloaded" on stderr (a missing file, another
    /// architecture, not a shared object, a missing dependency).
    pub fn check_library(&self) -> Result<(), SetupError> {
        let Some(path) = self.library() else {
            return Ok(());
        };
        let unusable = |why: String| {
            let contender = self.contender.to_string();
            match &self.allocator {
                Allocator::Slice { .. } => SetupError::NoSliceLibrary {
                    path: path.to_path_buf(),
                    why,
                },
                _ => SetupError::Unusable {
                    contender,
                    path: path.to_path_buf(),
                    why,
                },
            }
        };
        std::fs::File::open(path).map_err(|e| unusable(format!("cannot be read: {e}")))?;
        let out = Command::new(SHELL)
            .args(["-c", "true"])
            .env("LD_PRELOAD", path)
            .env_remove(SLICE_STATS_ENV)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| unusable(format!("cannot run {SHELL} to try it: {e}")))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if let Some(line) = stderr.lines().find(|l| l.contains(NOT_PRELOADED)) {
            return Err(unusable(format!("ld.so refuses it: {}", line.trim())));
        }
        Ok(())
    }
}

/// Refuses a command whose first program is statically linked when any contender needs a
/// preload to reach it.
pub fn check_not_static(command: &str, setups: &[Setup]) -> Result<(), SetupError> {
    if setups.iter().all(|s| s.library().is_none()) {
        return Ok(());
    }
    match super::elf::first_program(command) {
        Some(program) if super::elf::linking(&program) == super::elf::Linking::Static => {
            Err(SetupError::Static {
                program,
                command: command.to_string(),
            })
        }
        _ => Ok(()),
    }
}
