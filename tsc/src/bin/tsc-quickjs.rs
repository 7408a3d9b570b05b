//! TypeScript's checker on QuickJS under the system allocator: the workload by hand, and
//! the engine side of `scripts/node-check.sh`.
use std::process::ExitCode;

fn main() -> ExitCode {
    tsc::cli::main(workload::AllocatorIdentity {
        name: "system",
        identity: "glibc".to_string(),
    })
}
