//! The entry point of the four child binaries, and what a child says about its own build.
//!
//! **A child is never measured stale**: every child answers `--build-info` with the
//! revision, source digest and profile it was built from, and compare refuses a child
//! whose sources differ from its own (see [`crate::benchmark::children`]).
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

/// The argument a child answers with its [`BuildInfo`] as JSON, instead of running.
pub const BUILD_INFO_ARG: &str = "--build-info";

/// What one binary of this package was built from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildInfo {
    /// `git rev-parse HEAD` of the workspace, `-dirty` when tracked files differed, or
    /// `unknown` outside git.
    pub revision: String,
    /// The first 16 hex digits of a SHA-256 over every source file the binaries are
    /// built from (see compare/build.rs): equal digests, equal code.
    pub source_digest: String,
    /// Cargo profile: `release` or `debug`.
    pub profile: String,
}

impl BuildInfo {
    /// The build of the running binary, recorded by build.rs.
    pub fn current() -> BuildInfo {
        BuildInfo {
            revision: env!("COMPARE_BUILD_REVISION").to_string(),
            source_digest: env!("COMPARE_SOURCE_DIGEST").to_string(),
            profile: env!("COMPARE_BUILD_PROFILE").to_string(),
        }
    }
}

impl std::fmt::Display for BuildInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "revision {}, sources {}, {} profile",
            self.revision, self.source_digest, self.profile
        )
    }
}

/// `main` of a child binary: answers [`BUILD_INFO_ARG`], otherwise runs the checker's
/// command line under `allocator`.
pub fn main(allocator: checker::AllocatorIdentity) -> ExitCode {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == BUILD_INFO_ARG)
    {
        return match serde_json::to_string(&BuildInfo::current()) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("error: serialising the build info: {error}");
                ExitCode::FAILURE
            }
        };
    }
    checker::cli::main(allocator)
}
