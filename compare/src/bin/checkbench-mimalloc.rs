//! The workload under mimalloc, identified by the version mimalloc reports.
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // SAFETY: mi_version takes no arguments and only returns a constant.
    let version = unsafe { libmimalloc_sys::mi_version() };
    let identity = format!("{}.{}.{}", version / 100, version / 10 % 10, version % 10);
    checker::cli::main(checker::AllocatorIdentity {
        name: "mimalloc",
        identity,
    })
}
