//! Proofs a system child gives: that glibc took its `hugetlb` tunable, and that a
//! preloaded library, not glibc, serves `malloc`.
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};

use super::Proof;

/// The probe block of the `hugetlb` proof: above glibc's largest dynamic mmap threshold
/// (32 MiB), so it is a mapping of its own, and a multiple of the 2 MiB huge page.
const PROBE_BYTES: usize = 64 << 20;

/// Proves `glibc.malloc.hugetlb=VALUE`: with 1, glibc advises every chunk it maps
/// MADV_HUGEPAGE, so the mapping of a fresh 64 MiB block carries `hg` in its VmFlags
/// (/proc/self/smaps); with 0 it does not. glibc honours 1 only where THP is `madvise`
/// (under `always` it has no need to, under `never` no use), so elsewhere the proof fails.
pub fn prove_hugetlb(value: &str) -> Proof {
    // SAFETY: malloc has no preconditions; the block is freed below and never touched.
    let block = unsafe { libc::malloc(PROBE_BYTES) };
    if block.is_null() {
        return Err("malloc of the 64 MiB probe block failed".to_string());
    }
    let flags = vma_flags(block as usize);
    // SAFETY: `block` came from malloc above and is freed once.
    unsafe { libc::free(block) };
    let flags = flags.ok_or("the probe block's mapping is not in /proc/self/smaps")?;
    let advised = flags.split_whitespace().any(|f| f == "hg");
    let thp =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    let mode = thp
        .split_whitespace()
        .find(|m| m.starts_with('['))
        .unwrap_or("unknown")
        .trim_matches(['[', ']']);
    match (value, advised) {
        ("1", true) => Ok("glibc advised its 64 MiB probe mapping MADV_HUGEPAGE".to_string()),
        ("0", false) => Ok("glibc left its 64 MiB probe mapping unadvised".to_string()),
        ("1", false) => Err(format!(
            "glibc did not advise its 64 MiB probe mapping MADV_HUGEPAGE (VmFlags: {flags}; THP \
             mode {mode}; glibc honours hugetlb=1 only under `madvise`, and only when GLIBC_TUNABLES \
             reaches it)"
        )),
        _ => Err(format!(
            "glibc advised its probe mapping MADV_HUGEPAGE (VmFlags: {flags})"
        )),
    }
}

/// The VmFlags of the mapping that holds `address`, from /proc/self/smaps.
fn vma_flags(address: usize) -> Option<String> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = false;
    for line in smaps.lines() {
        if let Some(flags) = line.strip_prefix("VmFlags:") {
            if inside {
                return Some(flags.trim().to_string());
            }
            continue;
        }
        let range = line.split_whitespace().next().unwrap_or("");
        if let Some((start, end)) = range.split_once('-')
            && let (Ok(start), Ok(end)) = (
                usize::from_str_radix(start, 16),
                usize::from_str_radix(end, 16),
            )
        {
            inside = (start..end).contains(&address);
        }
    }
    None
}

/// Proves that the library at `path` serves `malloc`: the `malloc` every call of this
/// process binds to (the first definition in the global scope, `dlsym(RTLD_DEFAULT)`)
/// lies in the file `path` names (`dladdr`). Returns the identity: the library's file
/// name and, where the library says it, its version.
pub fn prove_preload(path: &Path) -> Result<String, String> {
    let wanted = std::fs::canonicalize(path)
        .map_err(|e| format!("the preload library {}: {e}", path.display()))?;
    let serving = malloc_file().ok_or("dladdr cannot place the address of `malloc`")?;
    let serving_real = std::fs::canonicalize(&serving).unwrap_or(serving.clone());
    if serving_real != wanted {
        return Err(format!(
            "`malloc` is served by {}, not by the preload library {} (LD_PRELOAD={:?})",
            serving.display(),
            path.display(),
            std::env::var("LD_PRELOAD").unwrap_or_default()
        ));
    }
    let file = wanted
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    Ok(match library_version(path) {
        Some(version) => format!("{file} ({version})"),
        None => file,
    })
}

/// The file of the object that defines the `malloc` this process calls.
fn malloc_file() -> Option<PathBuf> {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks the symbol up.
    let malloc = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"malloc".as_ptr()) };
    if malloc.is_null() {
        return None;
    }
    // SAFETY: Dl_info is plain old data; all-zero bytes are a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is valid for writes; dladdr only reads the loader's tables.
    if unsafe { libc::dladdr(malloc, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dli_fname points to a NUL-terminated string the loader keeps.
    let name = unsafe { CStr::from_ptr(info.dli_fname) };
    Some(PathBuf::from(name.to_string_lossy().into_owned()))
}

/// The version the preloaded library reports of itself: gperftools' `tc_version`,
/// mimalloc's `mi_version`, jemalloc's `version` mallctl.
fn library_version(path: &Path) -> Option<String> {
    let name = CString::new(path.as_os_str().as_encoded_bytes()).ok()?;
    // SAFETY: RTLD_NOLOAD only returns a handle to a library already loaded.
    let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
    if handle.is_null() {
        return None;
    }
    // SAFETY: `handle` is a live handle; dlsym only looks the symbol up.
    let symbol = |name: &CStr| unsafe { libc::dlsym(handle, name.as_ptr()) };
    let version = if let Some(f) = non_null(symbol(c"tc_version")) {
        type TcVersion =
            unsafe extern "C" fn(*mut c_int, *mut c_int, *mut *const c_char) -> *const c_char;
        // SAFETY: gperftools declares `const char* tc_version(int*, int*, const char**)`.
        let tc_version: TcVersion = unsafe { std::mem::transmute(f) };
        let (mut major, mut minor, mut patch) = (0, 0, std::ptr::null());
        // SAFETY: the three out-pointers are valid for writes; the result is static.
        let text = unsafe { tc_version(&mut major, &mut minor, &mut patch) };
        (!text.is_null()).then(|| {
            // SAFETY: tc_version returns a static NUL-terminated string, not null here.
            let text = unsafe { CStr::from_ptr(text) };
            text.to_string_lossy().into_owned()
        })
    } else if let Some(f) = non_null(symbol(c"mi_version")) {
        // SAFETY: mimalloc declares `int mi_version(void)`.
        let mi_version: unsafe extern "C" fn() -> c_int = unsafe { std::mem::transmute(f) };
        // SAFETY: mi_version takes no arguments and returns a constant.
        let v = unsafe { mi_version() };
        // 2.0.x counts in single digits (209 = 2.0.9), later releases in pairs (30302 = 3.3.2).
        Some(if v < 1000 {
            format!("mimalloc {}.{}.{}", v / 100, v / 10 % 10, v % 10)
        } else {
            format!("mimalloc {}.{}.{}", v / 10_000, v / 100 % 100, v % 100)
        })
    } else if let Some(f) = non_null(symbol(c"mallctl")) {
        type Mallctl = unsafe extern "C" fn(
            *const c_char,
            *mut c_void,
            *mut usize,
            *mut c_void,
            usize,
        ) -> c_int;
        // SAFETY: jemalloc declares mallctl with this signature.
        let mallctl: Mallctl = unsafe { std::mem::transmute(f) };
        let mut text: *const c_char = std::ptr::null();
        let mut len = std::mem::size_of::<*const c_char>();
        // SAFETY: `version` is a `const char *` mallctl; `text` and `len` match its size.
        let status = unsafe {
            mallctl(
                c"version".as_ptr(),
                (&raw mut text).cast(),
                &mut len,
                std::ptr::null_mut(),
                0,
            )
        };
        (status == 0 && !text.is_null()).then(|| {
            // SAFETY: on success `text` points to jemalloc's static version string.
            let text = unsafe { CStr::from_ptr(text) };
            format!("jemalloc {}", text.to_string_lossy())
        })
    } else {
        None
    };
    // SAFETY: the handle from dlopen above is closed once; the library stays loaded.
    unsafe { libc::dlclose(handle) };
    version
}

fn non_null(pointer: *mut c_void) -> Option<*mut c_void> {
    (!pointer.is_null()).then_some(pointer)
}
