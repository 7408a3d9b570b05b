//! The workload under the C library's malloc, identified by the glibc version; with
//! `CHECKBENCH_PRELOAD`, under the library preloaded over it, which it first proves serves
//! `malloc`.
use std::ffi::CStr;
use std::path::Path;
use std::process::ExitCode;

use compare::child::{self, system};
use compare::contender::variant::{PRELOAD_ALLOCATOR, PRELOAD_ENV};

fn main() -> ExitCode {
    child::main_proven(identity())
}

fn identity() -> Result<workload::AllocatorIdentity, String> {
    if let Some(path) = std::env::var_os(PRELOAD_ENV) {
        let library = system::prove_preload(Path::new(&path))?;
        return Ok(workload::AllocatorIdentity {
            name: PRELOAD_ALLOCATOR,
            identity: library,
        });
    }
    // SAFETY: gnu_get_libc_version returns a pointer to a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) };
    let mut allocator = workload::AllocatorIdentity {
        name: "system",
        identity: format!("glibc {}", version.to_string_lossy()),
    };
    child::prove_knobs(&mut allocator, |key, value| match key {
        "hugetlb" => system::prove_hugetlb(value),
        other => Err(format!("glibc has no tunable {other} a child can prove")),
    })?;
    Ok(allocator)
}
