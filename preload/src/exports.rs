//! The exported allocation functions. Sizes 1..=512 with alignment up to 16 go to the slice
//! allocator; everything else (and every fallback) to glibc's own allocator. A block goes back to
//! the allocator that made it, told by its address: the reservation is the slice allocator's.

use std::ffi::{c_int, c_void};
use std::ptr;

use slice_alloc::raw::{self, Fallback, Hold, Refusal};
use slice_alloc::{BLOCK_ALIGN, BLOCK_SHIFT, MAX_SMALL};

use crate::glibc::{self, __libc_free, __libc_memalign, __libc_pvalloc, __libc_realloc};
use crate::lifecycle;
use crate::thread::{ACTIVE, CLAIMING, IN_SLOW, thread};

/// Whether a size goes to a class.
#[inline(always)]
fn is_small(size: usize) -> bool {
    size.wrapping_sub(1) < MAX_SMALL
}

/// The calling thread's hold.
#[inline(always)]
fn hold() -> Hold {
    // SAFETY: the slot holds 0 or the bits of the hold this thread claimed (set in `slow`).
    unsafe { Hold::from_bits(thread().hold.get()) }
}

/// Counts a request this front end sends to glibc.
#[inline]
fn count(reason: Fallback) {
    // SAFETY: hold() is the calling thread's own hold.
    unsafe { raw::count_fallback(hold(), reason) }
}

/// A small request: the fast path, else [`slow`].
#[inline(always)]
fn small(size: usize, zero: bool) -> *mut c_void {
    let hold = hold();
    // SAFETY: the hold is this thread's; is_small(size) was checked by every caller.
    unsafe { raw::alloc_small(hold, size, zero, || slow(hold, size, zero)).cast() }
}

/// The slow path of a small request: claim an arena at a thread's first request, run the heap's
/// slow path, or fall back to glibc where the heap cannot serve it (thread exiting, all arenas
/// taken, no reservation, or a request the heap makes of the "system" while in its slow path).
#[cold]
#[inline(never)]
fn slow(hold: Hold, size: usize, zero: bool) -> *mut u8 {
    let t = thread();
    match t.state.get() {
        ACTIVE => {}
        // The heap's own fallback, through std's System: already counted as slice_exhausted.
        IN_SLOW => return glibc::alloc(size, zero),
        // Inside a claim (the exit hook's registration) or past the thread's exit.
        _ => {
            count(Fallback::NoArena);
            return glibc::alloc(size, zero);
        }
    }
    if !hold.is_none() {
        t.state.set(IN_SLOW);
        // SAFETY: the thread holds this arena; size is small.
        let p = unsafe { raw::slow_small(hold, size, zero) };
        t.state.set(ACTIVE);
        return p;
    }
    t.state.set(CLAIMING);
    let claimed = if lifecycle::park_at_thread_exit() {
        raw::claim()
    } else {
        Err(Refusal::NoArena)
    };
    match claimed {
        Ok(hold) => {
            t.hold.set(hold.to_bits());
            t.state.set(IN_SLOW);
            // SAFETY: the arena was just claimed by this thread (an inherited one may have free
            // blocks); size is small.
            let p =
                unsafe { raw::alloc_small(hold, size, zero, || raw::slow_small(hold, size, zero)) };
            t.state.set(ACTIVE);
            p
        }
        Err(refusal) => {
            t.state.set(ACTIVE);
            count(refusal.into());
            glibc::alloc(size, zero)
        }
    }
}

/// The reason a request of this size and alignment goes to glibc.
fn reason(size: usize, align: usize) -> Fallback {
    if align > BLOCK_ALIGN {
        Fallback::OverAligned
    } else if size == 0 {
        Fallback::ZeroSize
    } else {
        Fallback::TooLarge
    }
}

fn set_errno(code: c_int) {
    // SAFETY: __errno_location is the calling thread's errno, always valid.
    unsafe { *libc::__errno_location() = code };
}

/// `malloc`: a class for 1..=512 bytes, glibc for 0 and larger sizes.
///
/// # Safety
/// As C's `malloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    if is_small(size) {
        small(size, false)
    } else {
        count(reason(size, 1));
        glibc::alloc(size, false).cast()
    }
}

/// `free`: a block of the reservation goes back to its class, any other to glibc.
///
/// # Safety
/// As C's `free`: `p` is null or a live block of this allocator or glibc's.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn free(p: *mut c_void) {
    // SAFETY: p is a live block (or null, which lies outside the reservation); the hold is ours.
    if unsafe { !raw::free(hold(), p.cast()) } {
        // SAFETY: outside the reservation, so glibc's (or null).
        unsafe { __libc_free(p) };
    }
}

/// `calloc`: zeroed; `ENOMEM` on overflow.
///
/// # Safety
/// As C's `calloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn calloc(count_: usize, size: usize) -> *mut c_void {
    let Some(total) = count_.checked_mul(size) else {
        set_errno(libc::ENOMEM);
        return ptr::null_mut();
    };
    if is_small(total) {
        small(total, true)
    } else {
        count(reason(total, 1));
        glibc::alloc(total, true).cast()
    }
}

/// `realloc`: the same block while the new size stays in its class; otherwise the new size's
/// allocator serves it (glibc's realloc between glibc sizes) and the contents move. As glibc,
/// `realloc(p, 0)` frees `p` and returns null.
///
/// # Safety
/// As C's `realloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
    if p.is_null() {
        // SAFETY: as malloc.
        return unsafe { malloc(size) };
    }
    if size == 0 {
        // SAFETY: p is live, per the caller.
        unsafe { free(p) };
        return ptr::null_mut();
    }
    let old = match raw::block_size(p.cast()) {
        Some(class_size) => {
            if is_small(size) && (size - 1) >> BLOCK_SHIFT == (class_size - 1) >> BLOCK_SHIFT {
                return p;
            }
            class_size
        }
        None if is_small(size) => {
            // SAFETY: outside the reservation, so a live glibc block.
            match unsafe { glibc::usable_size(p) } {
                Some(usable) => usable,
                None => {
                    // SAFETY: a glibc block, glibc's realloc.
                    return unsafe { __libc_realloc(p, size) };
                }
            }
        }
        None => {
            count(Fallback::TooLarge);
            // SAFETY: a glibc block resized by glibc.
            return unsafe { __libc_realloc(p, size) };
        }
    };
    // SAFETY: as malloc.
    let q = unsafe { malloc(size) };
    if !q.is_null() {
        // SAFETY: p holds `old` bytes and q `size`, distinct blocks; p is freed once.
        unsafe {
            ptr::copy_nonoverlapping(p.cast::<u8>(), q.cast::<u8>(), old.min(size));
            free(p);
        }
    }
    q
}

/// `reallocarray`: `realloc(p, count * size)`, `ENOMEM` on overflow.
///
/// # Safety
/// As C's `reallocarray`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn reallocarray(p: *mut c_void, count_: usize, size: usize) -> *mut c_void {
    match count_.checked_mul(size) {
        // SAFETY: as realloc.
        Some(total) => unsafe { realloc(p, total) },
        None => {
            set_errno(libc::ENOMEM);
            ptr::null_mut()
        }
    }
}

/// `memalign` (and `aligned_alloc`, which glibc 2.36 makes the same function): a class when the
/// alignment is at most 16, glibc's memalign otherwise.
fn aligned(align: usize, size: usize) -> *mut c_void {
    if align <= BLOCK_ALIGN && is_small(size) {
        small(size, false)
    } else {
        count(reason(size, align));
        // SAFETY: glibc's memalign accepts any alignment and size (EINVAL or ENOMEM otherwise).
        unsafe { __libc_memalign(align, size) }
    }
}

/// `posix_memalign`: `EINVAL` unless `align` is a power of two multiple of `sizeof(void *)`.
///
/// # Safety
/// As C's `posix_memalign`: `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int {
    if !align.is_power_of_two() || !align.is_multiple_of(size_of::<*mut c_void>()) {
        return libc::EINVAL;
    }
    let p = aligned(align, size);
    if p.is_null() {
        return libc::ENOMEM;
    }
    // SAFETY: out is writable, per the caller.
    unsafe { out.write(p) };
    0
}

/// `aligned_alloc`.
///
/// # Safety
/// As C's `aligned_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aligned_alloc(align: usize, size: usize) -> *mut c_void {
    aligned(align, size)
}

/// `memalign`.
///
/// # Safety
/// As C's `memalign`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memalign(align: usize, size: usize) -> *mut c_void {
    aligned(align, size)
}

/// `valloc`: page-aligned, always glibc's.
///
/// # Safety
/// As C's `valloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn valloc(size: usize) -> *mut c_void {
    count(Fallback::OverAligned);
    // SAFETY: glibc's valloc for any size.
    unsafe { glibc::__libc_valloc(size) }
}

/// `pvalloc`: page-aligned and rounded up to whole pages, always glibc's.
///
/// # Safety
/// As C's `pvalloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pvalloc(size: usize) -> *mut c_void {
    count(Fallback::OverAligned);
    // SAFETY: glibc's pvalloc for any size.
    unsafe { __libc_pvalloc(size) }
}

/// `malloc_usable_size`: a class block's class size, glibc's answer for glibc's blocks, 0 for
/// null.
///
/// # Safety
/// As C's `malloc_usable_size`: `p` is null or a live block.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn malloc_usable_size(p: *mut c_void) -> usize {
    if p.is_null() {
        return 0;
    }
    match raw::block_size(p.cast()) {
        Some(size) => size,
        // SAFETY: outside the reservation, so a live glibc block.
        None => unsafe { glibc::usable_size(p) }.unwrap_or(0),
    }
}
