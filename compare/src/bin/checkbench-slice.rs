//! The workload under the slice allocator; the policy comes from `CHECKBENCH_SLICE`.
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: slice_alloc::SliceAlloc = slice_alloc::SliceAlloc;

fn main() -> ExitCode {
    compare::child::main(workload::AllocatorIdentity {
        name: "slice",
        identity: String::new(),
    })
}
