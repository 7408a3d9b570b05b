use std::process::ExitCode;

#[global_allocator]
static GLOBAL: slice_alloc::SliceAlloc = slice_alloc::SliceAlloc;

fn main() -> ExitCode {
    checker::cli::main(workload::AllocatorIdentity {
        name: "slice",
        identity: String::new(),
    })
}
