//! The workload under the C library's malloc, identified by the glibc version.
use std::ffi::CStr;
use std::process::ExitCode;

fn main() -> ExitCode {
    // SAFETY: gnu_get_libc_version returns a pointer to a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) };
    compare::child::main(checker::AllocatorIdentity {
        name: "system",
        identity: format!("glibc {}", version.to_string_lossy()),
    })
}
