//! The workload under jemalloc, identified by the version jemalloc reports.
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let identity = tikv_jemalloc_ctl::version::read()
        // The mallctl string keeps its C terminator.
        .map(|v| v.trim_end_matches(['\0', ' ', '\n']).to_string())
        .unwrap_or_else(|e| format!("unknown ({e})"));
    compare::child::main(checker::AllocatorIdentity {
        name: "jemalloc",
        identity,
    })
}
