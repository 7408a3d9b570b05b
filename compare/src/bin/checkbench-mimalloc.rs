//! The workload under mimalloc, identified by the version mimalloc reports.
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // SAFETY: mi_version takes no arguments and only returns a constant.
    let version = unsafe { libmimalloc_sys::mi_version() };
    // MI_MALLOC_VERSION is major, then two digits of minor and two of patch: 30302 = 3.3.2.
    let identity = format!(
        "{}.{}.{}",
        version / 10_000,
        version / 100 % 100,
        version % 100
    );
    compare::child::main(checker::AllocatorIdentity {
        name: "mimalloc",
        identity,
    })
}
