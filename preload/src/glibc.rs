//! glibc's own allocator, by the names glibc exports for it (`__libc_malloc` and friends), so
//! that requests this library does not serve never come back to it.

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicUsize, Ordering::*};

unsafe extern "C" {
    pub(crate) fn __libc_malloc(size: usize) -> *mut c_void;
    pub(crate) fn __libc_free(p: *mut c_void);
    pub(crate) fn __libc_calloc(count: usize, size: usize) -> *mut c_void;
    pub(crate) fn __libc_realloc(p: *mut c_void, size: usize) -> *mut c_void;
    pub(crate) fn __libc_memalign(align: usize, size: usize) -> *mut c_void;
    pub(crate) fn __libc_valloc(size: usize) -> *mut c_void;
    pub(crate) fn __libc_pvalloc(size: usize) -> *mut c_void;
}

/// `size` bytes from glibc, zeroed with `zero`.
pub(crate) fn alloc(size: usize, zero: bool) -> *mut u8 {
    // SAFETY: glibc's allocator accepts any size; the result is checked by the caller.
    unsafe {
        if zero {
            __libc_calloc(1, size).cast()
        } else {
            __libc_malloc(size).cast()
        }
    }
}

/// glibc's `malloc_usable_size`, found once with `dlsym(RTLD_NEXT)` (glibc exports it under
/// that name only, and this library defines the same name): 0 unresolved, 1 not found.
static USABLE_SIZE: AtomicUsize = AtomicUsize::new(0);

/// glibc's usable size of a block of glibc's, or `None` if its `malloc_usable_size` cannot be
/// found.
///
/// # Safety
/// `p` is a live block of glibc's allocator.
pub(crate) unsafe fn usable_size(p: *mut c_void) -> Option<usize> {
    let mut f = USABLE_SIZE.load(Acquire);
    if f == 0 {
        let name: *const c_char = c"malloc_usable_size".as_ptr();
        // SAFETY: dlsym with RTLD_NEXT and a NUL-terminated name; it may allocate, which is
        // served by this library with no lock held.
        let found = unsafe { libc::dlsym(libc::RTLD_NEXT, name) } as usize;
        f = if found == 0 { 1 } else { found };
        USABLE_SIZE.store(f, Release);
    }
    if f == 1 {
        return None;
    }
    // SAFETY: f is the address of glibc's `size_t malloc_usable_size(void *)`.
    let usable: unsafe extern "C" fn(*mut c_void) -> usize = unsafe { std::mem::transmute(f) };
    // SAFETY: p is a live glibc block, per the caller.
    Some(unsafe { usable(p) })
}
