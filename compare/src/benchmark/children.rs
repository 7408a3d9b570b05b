//! Where the child binaries come from: built before the first run when compare runs from
//! a cargo checkout, found beside compare or in `--children DIR` otherwise, and checked to
//! be release builds of compare's own sources.
//!
//! **A child is never measured stale**: `cargo run -p compare` builds only compare itself,
//! so compare builds its children with the release profile before the first run (cargo
//! rebuilds what changed), then asks every child for its [`BuildInfo`] and refuses one
//! whose source digest differs from its own or that is not a release build.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::benchmark::launcher::SHELL;
use crate::child::BUILD_INFO_ARG;
use crate::contender::Contender;
use crate::environment::BuildInfo;

/// The child binaries, one per allocator.
pub const CHILD_BINARIES: [&str; 4] = [
    "checkbench-slice",
    "checkbench-mimalloc",
    "checkbench-jemalloc",
    "checkbench-system",
];

/// The slice library's file name, built by `cargo build --release -p slice-preload`.
pub const SLICE_LIBRARY: &str = "libslice_alloc.so";
/// The statistics variable of the slice library: a file each exiting process appends a
/// JSON line to.
pub const SLICE_STATS_ENV: &str = "CHECKBENCH_SLICE_STATS";

/// The profile every child is built with and must report.
pub const CHILD_PROFILE: &str = "release";

/// How to build the children, for error messages.
const BUILD_HINT: &str = "build them with `cargo build --release -p compare --bins` in the \
                          checkbench checkout and pass `--children <target>/release`, or \
                          install them with compare (`cargo install --path compare`)";
/// How to build the slice library, for error messages.
const LIBRARY_HINT: &str = "build it with `cargo build --release -p slice-preload` in the \
                            checkbench checkout that compare was built from and pass \
                            `--children <target>/release`";

#[derive(Debug, thiserror::Error)]
pub enum ChildrenError {
    #[error("cannot find the directory of the compare executable: {0}")]
    CurrentExe(std::io::Error),
    #[error("--children {}: not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error("child binary {} is missing ({looked}); {BUILD_HINT}", .path.display())]
    Missing { path: PathBuf, looked: String },
    #[error("cannot run `{command}` to build the child binaries: {error}")]
    CargoSpawn {
        command: String,
        error: std::io::Error,
    },
    #[error("the build failed ({status}): `{command}`")]
    BuildFailed { command: String, status: String },
    #[error(
        "{what} {} does not report its build (`{query}`: {reason}); it was built from an older \
         checkbench or is not checkbench's own; {hint}",
        .path.display(),
        query = what.query(),
        hint = what.hint()
    )]
    NoBuildInfo {
        what: Build,
        path: PathBuf,
        reason: String,
    },
    #[error(
        "{what} {} was built from other sources than compare (its build: {child}; compare: \
         {compare}); rebuild both from one checkout: `cargo run --release -p compare -- ...` \
         builds the children and the slice library before the first run",
        .path.display()
    )]
    Stale {
        what: Build,
        path: PathBuf,
        child: Box<BuildInfo>,
        compare: Box<BuildInfo>,
    },
    #[error(
        "{what} {} is a {profile} build; runs are measured in {CHILD_PROFILE} builds only: \
         `{command}`",
        .path.display(),
        command = what.command()
    )]
    Profile {
        what: Build,
        path: PathBuf,
        profile: String,
    },
    #[error(
        "compare itself was built from other sources ({compare}) than the {built} just built \
         from the checkout {} ({child}); run it through cargo (`cargo run --release -p compare \
         -- ...`), which rebuilds it first",
        .workspace.display(),
        built = what.built()
    )]
    StaleCompare {
        what: Build,
        workspace: PathBuf,
        compare: Box<BuildInfo>,
        child: Box<BuildInfo>,
    },
}

/// Where the children are looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `--children DIR`: used as it is, never built.
    Given(PathBuf),
    /// compare runs from the target folder of the cargo workspace it was built from: the
    /// children are built there with the release profile.
    Checkout {
        workspace: PathBuf,
        target_dir: PathBuf,
    },
    /// Anywhere else (copied, `cargo install`): the folder of the compare executable.
    BesideCompare(PathBuf),
}

impl Origin {
    /// `--children` if given, else the checkout compare was built in if it runs from its
    /// target folder, else the folder of the compare executable.
    pub fn locate(children: Option<&Path>) -> Result<Origin, ChildrenError> {
        if let Some(dir) = children {
            if !dir.is_dir() {
                return Err(ChildrenError::NotADirectory(dir.to_path_buf()));
            }
            return Ok(Origin::Given(dir.to_path_buf()));
        }
        let exe = std::env::current_exe().map_err(ChildrenError::CurrentExe)?;
        let exe_dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
        let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let workspace = manifest_dir
            .parent()
            .map_or_else(|| manifest_dir.join(".."), Path::to_path_buf);
        Ok(match checkout_target(&exe_dir, &workspace) {
            Some(target_dir) => Origin::Checkout {
                workspace,
                target_dir,
            },
            None => Origin::BesideCompare(exe_dir),
        })
    }

    /// The folder the children are run from.
    pub fn dir(&self) -> PathBuf {
        match self {
            Origin::Given(dir) | Origin::BesideCompare(dir) => dir.clone(),
            Origin::Checkout { target_dir, .. } => target_dir.join(CHILD_PROFILE),
        }
    }

    /// Builds the children where compare can (in its checkout, with cargo's own progress
    /// on the terminal), then checks every child `contenders` need: present, a release
    /// build, from compare's sources. Returns each checked child's build by binary name.
    pub fn prepare(
        &self,
        contenders: &[Contender],
    ) -> Result<BTreeMap<String, BuildInfo>, ChildrenError> {
        if let Origin::Checkout {
            workspace,
            target_dir,
        } = self
        {
            build(workspace, target_dir, Build::Children)?;
        }
        let mut names: Vec<&str> = contenders.iter().map(|c| c.binary_name()).collect();
        names.sort_unstable();
        names.dedup();
        let mut builds = BTreeMap::new();
        for name in names {
            let path = self.dir().join(name);
            if !path.is_file() {
                let looked = match self {
                    Origin::Given(_) => "in the folder given by --children".to_string(),
                    Origin::BesideCompare(_) => {
                        "compare looks beside itself unless --children DIR names another folder"
                            .to_string()
                    }
                    Origin::Checkout { .. } => "cargo did not build it".to_string(),
                };
                return Err(ChildrenError::Missing { path, looked });
            }
            let info = build_info(&path)?;
            let info = self.check(Build::Children, path, info)?;
            builds.insert(name.to_string(), info);
        }
        Ok(builds)
    }
}

impl Origin {
    /// The slice library `libslice_alloc.so` a command bake-off preloads: built first with
    /// the release profile when compare runs from its checkout (`cargo build --release -p
    /// slice-preload`, a no-op when it is up to date), else looked for in the children's
    /// folder. Its existence and loading are checked by the command's setup, its build by
    /// [`Origin::check_slice_library`].
    pub fn slice_library(&self) -> Result<PathBuf, ChildrenError> {
        if let Origin::Checkout {
            workspace,
            target_dir,
        } = self
        {
            build(workspace, target_dir, Build::SliceLibrary)?;
        }
        Ok(self.dir().join(SLICE_LIBRARY))
    }

    /// Checks the slice library at `path` as a child is checked: **the library is as
    /// trusted as a child**, a release build of compare's own sources, or refused. Returns
    /// its build, recorded beside the children's.
    pub fn check_slice_library(&self, path: &Path) -> Result<BuildInfo, ChildrenError> {
        let info = library_build_info(path)?;
        self.check(Build::SliceLibrary, path.to_path_buf(), info)
    }

    /// `info`, the build `what` at `path` reported, if it is a release build of compare's
    /// own sources; else why not.
    fn check(
        &self,
        what: Build,
        path: PathBuf,
        info: BuildInfo,
    ) -> Result<BuildInfo, ChildrenError> {
        let own = BuildInfo::current();
        if info.profile != CHILD_PROFILE {
            return Err(ChildrenError::Profile {
                what,
                path,
                profile: info.profile,
            });
        }
        if info.source_digest != own.source_digest {
            return Err(match self {
                Origin::Checkout { workspace, .. } => ChildrenError::StaleCompare {
                    what,
                    workspace: workspace.clone(),
                    compare: Box::new(own),
                    child: Box::new(info),
                },
                _ => ChildrenError::Stale {
                    what,
                    path,
                    child: Box::new(info),
                    compare: Box::new(own),
                },
            });
        }
        Ok(info)
    }
}

/// What [`build`] builds, and what reports a build: the child binaries or the slice library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// The four child binaries.
    Children,
    /// `libslice_alloc.so` (package slice-preload).
    SliceLibrary,
}

impl Build {
    /// How it is asked for its build.
    fn query(self) -> &'static str {
        match self {
            Build::Children => BUILD_INFO_ARG,
            Build::SliceLibrary => "CHECKBENCH_SLICE_BUILD_INFO=1",
        }
    }

    /// The command that builds it.
    fn command(self) -> &'static str {
        match self {
            Build::Children => "cargo build --release -p compare --bins",
            Build::SliceLibrary => "cargo build --release -p slice-preload",
        }
    }

    /// How to get a good one.
    fn hint(self) -> &'static str {
        match self {
            Build::Children => BUILD_HINT,
            Build::SliceLibrary => LIBRARY_HINT,
        }
    }

    /// What was just built, for [`ChildrenError::StaleCompare`].
    fn built(self) -> &'static str {
        match self {
            Build::Children => "children",
            Build::SliceLibrary => "slice library",
        }
    }
}

impl std::fmt::Display for Build {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Build::Children => "child binary",
            Build::SliceLibrary => "slice library",
        })
    }
}

/// The target folder of `workspace` that `exe_dir` (`<target>/<profile>`) lies in, if
/// compare runs from one: cargo marks its target folders with `CACHEDIR.TAG`, and the
/// workspace compare was built from must still be there.
fn checkout_target(exe_dir: &Path, workspace: &Path) -> Option<PathBuf> {
    let target_dir = exe_dir.parent()?;
    let is_target = target_dir.join("CACHEDIR.TAG").is_file();
    let has_workspace =
        workspace.join("Cargo.toml").is_file() && workspace.join("compare").is_dir();
    (is_target && has_workspace).then(|| target_dir.to_path_buf())
}

/// `cargo build --release` of the four children, or of the slice library, into
/// `target_dir`, cargo's output on the terminal.
fn build(workspace: &Path, target_dir: &Path, what: Build) -> Result<(), ChildrenError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .arg("build")
        .arg("--release")
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir);
    let (args, built): (Vec<String>, String) = match what {
        Build::Children => {
            let mut args = vec!["-p".to_string(), "compare".to_string()];
            for name in CHILD_BINARIES {
                args.extend(["--bin".to_string(), name.to_string()]);
            }
            (
                args,
                format!("the child binaries ({})", CHILD_BINARIES.join(", ")),
            )
        }
        Build::SliceLibrary => (
            vec!["-p".to_string(), "slice-preload".to_string()],
            format!("the slice library ({SLICE_LIBRARY})"),
        ),
    };
    command.args(&args);
    let shown = format!(
        "{} build --release {}",
        Path::new(&cargo).display(),
        args.join(" ")
    );
    eprintln!(
        "compare: building {built} with the {CHILD_PROFILE} profile: every run is measured in \
         a {CHILD_PROFILE} build, whatever profile compare was built with"
    );
    let status = command
        .status()
        .map_err(|error| ChildrenError::CargoSpawn {
            command: shown.clone(),
            error,
        })?;
    if !status.success() {
        return Err(ChildrenError::BuildFailed {
            command: shown,
            status: status.to_string(),
        });
    }
    Ok(())
}

/// The variable that asks the slice library for its build (preload/src/build_info.rs): it
/// answers when loaded, and the process exits before its program runs.
pub const LIBRARY_BUILD_INFO_ENV: &str = "CHECKBENCH_SLICE_BUILD_INFO";

/// Asks the child at `path` for its build (`--build-info`).
pub fn build_info(path: &Path) -> Result<BuildInfo, ChildrenError> {
    let mut command = Command::new(path);
    command
        .arg(BUILD_INFO_ARG)
        .env_remove(slice_alloc::POLICY_ENV);
    ask(Build::Children, path, command)
}

/// Asks the slice library at `path` for its build: `sh -c true` with the library preloaded
/// and [`LIBRARY_BUILD_INFO_ENV`] set, so the library answers as a child does.
pub fn library_build_info(path: &Path) -> Result<BuildInfo, ChildrenError> {
    let mut command = Command::new(SHELL);
    command
        .args(["-c", "true"])
        .env("LD_PRELOAD", path)
        .env(LIBRARY_BUILD_INFO_ENV, "1")
        .env_remove(slice_alloc::POLICY_ENV)
        .env_remove(SLICE_STATS_ENV);
    ask(Build::SliceLibrary, path, command)
}

/// Runs `command`, the question to `what` at `path`, and reads its answer: one
/// [`BuildInfo`] as JSON on stdout.
fn ask(what: Build, path: &Path, mut command: Command) -> Result<BuildInfo, ChildrenError> {
    let failed = |reason: String| ChildrenError::NoBuildInfo {
        what,
        path: path.to_path_buf(),
        reason,
    };
    let out = command.output().map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Err(failed(format!("{}: {first}", out.status)));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| failed(format!("unreadable answer: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_marked_by_cargo_inside_the_checkout_is_a_checkout_target() {
        let workspace = tempfile::tempdir().unwrap();
        std::fs::write(workspace.path().join("Cargo.toml"), "").unwrap();
        std::fs::create_dir(workspace.path().join("compare")).unwrap();
        let release = workspace.path().join("target/release");
        std::fs::create_dir_all(&release).unwrap();
        assert_eq!(checkout_target(&release, workspace.path()), None);
        std::fs::write(workspace.path().join("target/CACHEDIR.TAG"), "").unwrap();
        assert_eq!(
            checkout_target(&release, workspace.path()),
            Some(workspace.path().join("target"))
        );
        let elsewhere = tempfile::tempdir().unwrap();
        assert_eq!(checkout_target(elsewhere.path(), workspace.path()), None);
    }
}
