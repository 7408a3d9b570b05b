//! The command line shared by the `checker` binary and compare's child binaries.
use std::process::ExitCode;

use crate::AllocatorIdentity;

/// Parses `--corpus NAME|DIR --checkers N [--json]`, runs the workload and prints the report.
pub fn main(_allocator: AllocatorIdentity) -> ExitCode {
    ExitCode::SUCCESS
}
