//! The user's npm: where tarballs come from, so mirrors, proxies and auth in the user's npm
//! configuration are honoured.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::Error;

/// Environment variable naming the npm program to run instead of `npm` from `PATH`.
pub const NPM_ENV: &str = "CHECKBENCH_NPM";

/// Environment variable: how many seconds one npm command may take before it is stopped and
/// the registry reported unreachable (default [`NPM_TIMEOUT_SECS`]).
pub const NPM_TIMEOUT_ENV: &str = "CHECKBENCH_NPM_TIMEOUT";

/// How long one npm command may take by default: 120 s. npm itself retries an unreachable
/// registry for many minutes before it gives up.
pub const NPM_TIMEOUT_SECS: u64 = 120;

/// How to run npm.
#[derive(Clone, Debug)]
pub struct Npm {
    /// The program: a name looked up in `PATH` or a path.
    pub program: OsString,
}

impl Npm {
    /// `$CHECKBENCH_NPM`, else `npm` from `PATH`.
    pub fn from_env() -> Self {
        Npm {
            program: std::env::var_os(NPM_ENV).unwrap_or_else(|| "npm".into()),
        }
    }

    /// The tarball address of `spec` (`name@version`), from `npm view SPEC dist.tarball`.
    pub fn tarball_url(&self, spec: &str) -> Result<String, Error> {
        let stdout = self.run(spec, &["view", spec, "dist.tarball"])?;
        let url = stdout.trim();
        let usable = ["https://", "http://", "file://"]
            .iter()
            .any(|s| url.starts_with(s))
            && !url.contains(char::is_whitespace);
        if usable {
            Ok(url.to_string())
        } else {
            Err(Error::NpmOutput {
                package: spec.to_string(),
                output: url.chars().take(200).collect(),
            })
        }
    }

    /// Downloads the tarball of `spec` into `dir` with `npm pack` and returns its path.
    pub fn pack(&self, spec: &str, dir: &Path) -> Result<PathBuf, Error> {
        let dir_arg = dir.to_string_lossy().into_owned();
        let stdout = self.run(spec, &["pack", spec, "--pack-destination", &dir_arg])?;
        let name = stdout.lines().rev().map(str::trim).find(|l| !l.is_empty());
        match name {
            Some(name) if !name.contains('/') && dir.join(name).is_file() => Ok(dir.join(name)),
            _ => Err(Error::NpmOutput {
                package: spec.to_string(),
                output: stdout.chars().take(200).collect(),
            }),
        }
    }

    fn run(&self, spec: &str, args: &[&str]) -> Result<String, Error> {
        let command = format!("{} {}", self.program.to_string_lossy(), args.join(" "));
        let mut child = Command::new(&self.program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| Error::NpmMissing {
                program: self.program.to_string_lossy().into_owned(),
                package: spec.to_string(),
                source,
            })?;
        // Read both pipes on their own threads, so a chatty npm never blocks on a full pipe.
        let read = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                if let Some(mut pipe) = pipe {
                    // A read error leaves what was read; the exit status tells the rest.
                    let _ = pipe.read_to_end(&mut buf);
                }
                buf
            })
        };
        let stdout = read(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = read(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let seconds = timeout_secs();
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    // The pipe readers are left behind: a grandchild may hold the pipes open.
                    return Err(Error::NpmTimeout {
                        command,
                        package: spec.to_string(),
                        seconds,
                    });
                }
                Err(source) => {
                    return Err(Error::NpmMissing {
                        program: self.program.to_string_lossy().into_owned(),
                        package: spec.to_string(),
                        source,
                    });
                }
            }
        };
        let stdout = stdout.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        if !status.success() {
            let stderr = String::from_utf8_lossy(&stderr);
            // npm's last lines say what went wrong; its first ones are often a banner.
            let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = tail[tail.len().saturating_sub(6)..].join(" | ");
            return Err(Error::NpmFailed {
                command,
                package: spec.to_string(),
                status: status.to_string(),
                stderr: tail,
            });
        }
        Ok(String::from_utf8_lossy(&stdout).into_owned())
    }
}

/// Seconds one npm command may take: `$CHECKBENCH_NPM_TIMEOUT` (a positive whole number),
/// else [`NPM_TIMEOUT_SECS`].
fn timeout_secs() -> u64 {
    std::env::var(NPM_TIMEOUT_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&s| s > 0)
        .unwrap_or(NPM_TIMEOUT_SECS)
}
