//! The user's npm: where tarballs come from, so mirrors, proxies and auth in the user's npm
//! configuration are honoured.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Error;

/// Environment variable naming the npm program to run instead of `npm` from `PATH`.
pub const NPM_ENV: &str = "CHECKBENCH_NPM";

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
        let output = Command::new(&self.program)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| Error::NpmMissing {
                program: self.program.to_string_lossy().into_owned(),
                package: spec.to_string(),
                source,
            })?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            // npm's last lines say what went wrong; its first ones are often a banner.
            let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = tail[tail.len().saturating_sub(6)..].join(" | ");
            return Err(Error::NpmFailed {
                command,
                package: spec.to_string(),
                status: output.status.to_string(),
                stderr: tail,
            });
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }
}
