//! The preloaded library under programs: each test runs its own body again in a child process of
//! this test binary with `libslice_alloc.so` preloaded (so every `malloc` of the child, the test
//! harness's included, is the library's), then checks the child's exit and its statistics line.

mod fork;
mod programs;
mod routing;
mod stats;
mod threads;

#[path = "../support/library.rs"]
mod support;
pub use support::library;

use std::path::PathBuf;
use std::process::Command;

/// Set in the child: run the body instead of spawning.
const CHILD: &str = "SLICE_PRELOAD_TEST_CHILD";

/// Whether this process is the preloaded child.
pub fn in_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

/// A fresh statistics path for one test.
pub fn stats_path(test: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "slice-preload-{}-{}.jsonl",
        std::process::id(),
        test.replace("::", "-")
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs the test named `test` (its full path) again in a child under `policy`, asserts that it
/// passed, and returns the statistics lines it and its descendants wrote.
pub fn run_preloaded(test: &str, policy: &str) -> Vec<String> {
    let stats = stats_path(&format!("{test}-{policy}"));
    let out = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env("LD_PRELOAD", library())
        .env("CHECKBENCH_SLICE", policy)
        .env("CHECKBENCH_SLICE_STATS", &stats)
        .env(CHILD, "1")
        .output()
        .expect("spawn the preloaded child");
    assert!(
        out.status.success(),
        "the preloaded child of {test} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&stats).unwrap_or_default();
    let _ = std::fs::remove_file(&stats);
    text.lines().map(str::to_owned).collect()
}

/// The line a process with this pid wrote.
pub fn line_of(lines: &[String], pid: u32) -> &str {
    let key = format!("{{\"pid\":{pid},");
    lines
        .iter()
        .find(|l| l.starts_with(&key))
        .unwrap_or_else(|| panic!("no statistics line of pid {pid} in {lines:?}"))
}

/// The child's own line: the one whose parent is this process.
pub fn child_line(lines: &[String]) -> &str {
    let key = format!(",\"ppid\":{},", std::process::id());
    lines
        .iter()
        .find(|l| l.contains(&key))
        .unwrap_or_else(|| panic!("no statistics line of the child in {lines:?}"))
}

/// The raw JSON value of a top-level or nested `"key":` in a line (up to the next `,` or `}`).
pub fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let tag = format!("\"{key}\":");
    let start = line
        .find(&tag)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + tag.len();
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    &rest[..end]
}

/// A numeric field.
pub fn number(line: &str, key: &str) -> u64 {
    field(line, key)
        .parse()
        .unwrap_or_else(|_| panic!("{key} is not a number in {line}"))
}

/// Whether a live block came from the slice allocator: its usable size is its class size, a
/// multiple of 16, while a small glibc chunk's usable size is 8 bytes short of one.
///
/// # Safety
/// `p` is a live block of the process's allocator.
pub unsafe fn from_slice(p: *mut libc::c_void) -> bool {
    // SAFETY: p is a live block, per the caller.
    let usable = unsafe { c::malloc_usable_size(p) };
    usable.is_multiple_of(16)
}

/// The allocation functions, called through opaque pointers so that the optimiser cannot pair
/// a `malloc` with its `free` and drop both, or fold what it assumes of `calloc` (release tests
/// must make every call they appear to make).
#[allow(clippy::missing_safety_doc)] // each is the C function of the same name
pub mod c {
    use std::hint::black_box;

    use libc::{c_int, c_void};

    unsafe extern "C" {
        #[link_name = "valloc"]
        fn valloc_(size: usize) -> *mut c_void;
        #[link_name = "pvalloc"]
        fn pvalloc_(size: usize) -> *mut c_void;
    }

    macro_rules! opaque {
        ($($name:ident = $target:path : fn($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
            #[doc = concat!("C's `", stringify!($name), "`.")]
            pub unsafe fn $name($($arg: $ty),*) -> $ret {
                let f: unsafe extern "C" fn($($ty),*) -> $ret = black_box($target);
                // SAFETY: the caller keeps the C function's contract.
                unsafe { f($($arg),*) }
            }
        )*};
    }

    opaque! {
        malloc = libc::malloc: fn(size: usize) -> *mut c_void;
        free = libc::free: fn(p: *mut c_void) -> ();
        calloc = libc::calloc: fn(n: usize, size: usize) -> *mut c_void;
        realloc = libc::realloc: fn(p: *mut c_void, size: usize) -> *mut c_void;
        reallocarray = libc::reallocarray: fn(p: *mut c_void, n: usize, size: usize) -> *mut c_void;
        posix_memalign = libc::posix_memalign: fn(out: *mut *mut c_void, align: usize, size: usize) -> c_int;
        aligned_alloc = libc::aligned_alloc: fn(align: usize, size: usize) -> *mut c_void;
        memalign = libc::memalign: fn(align: usize, size: usize) -> *mut c_void;
        valloc = valloc_: fn(size: usize) -> *mut c_void;
        pvalloc = pvalloc_: fn(size: usize) -> *mut c_void;
        malloc_usable_size = libc::malloc_usable_size: fn(p: *mut c_void) -> usize;
    }
}
