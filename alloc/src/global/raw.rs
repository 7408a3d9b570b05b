//! The global instance without its thread-locals, for a front end that keeps each thread's
//! arena itself: the preload library (`slice-preload`), whose per-thread slot must be
//! initial-exec TLS (a Rust `thread_local!` in a shared library goes through `__tls_get_addr`,
//! which may call `malloc` after a `dlopen`) and which parks arenas from its own thread-exit
//! hook.
//!
//! Every function here works on the same heap as [`SliceAlloc`](crate::SliceAlloc): the same
//! reservation, policy and statistics ([`totals_into`](crate::totals_into)). The fast path is
//! the one `SliceAlloc` runs; only the thread-local and the system fallbacks of the caller's
//! own routing are the caller's.

use std::alloc::Layout;

use super::{GLOBAL, MAPPING, STATE, map_reservation};
use crate::heap::{Arena, NO_ARENA, class_size, fast_alloc, is_no_arena};
use crate::stats::Reason;
use crate::{BLOCK_ALIGN, BLOCK_SHIFT, MAX_SMALL};

/// A thread's hold on an arena of the global instance, or [`Hold::NONE`]. A front end keeps
/// one per thread; only that thread may use a hold other than `NONE`.
#[derive(Clone, Copy)]
pub struct Hold(&'static Arena);

impl Hold {
    /// No arena: every small request takes the slow path.
    pub const NONE: Hold = Hold(&NO_ARENA);

    /// Whether this is [`Hold::NONE`].
    #[inline(always)]
    pub fn is_none(self) -> bool {
        is_no_arena(self.0)
    }

    /// The arena's index, for a hold that is not `NONE`.
    pub fn index(self) -> Option<usize> {
        (!self.is_none()).then(|| GLOBAL.index_of(self.0))
    }

    /// The hold as one word, 0 for `NONE`, so that it fits a zero-initialised TLS slot.
    #[inline(always)]
    pub fn to_bits(self) -> usize {
        if self.is_none() {
            0
        } else {
            self.0 as *const Arena as usize
        }
    }

    /// The inverse of [`Hold::to_bits`].
    ///
    /// # Safety
    /// `bits` is 0 or the `to_bits` of a hold from [`claim`].
    #[inline(always)]
    pub unsafe fn from_bits(bits: usize) -> Hold {
        if bits == 0 {
            Hold::NONE
        } else {
            // SAFETY: the caller hands back the address of one of GLOBAL's arenas, which live as
            // long as the program.
            Hold(unsafe { &*(bits as *const Arena) })
        }
    }
}

/// Why [`claim`] gave no arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// There is no reservation: the kernel refused every size, or another thread is mapping it
    /// right now (try again at the next request).
    NoReservation,
    /// Every arena is held.
    NoArena,
}

/// Why a front end sent a request to the system allocator itself; counted by
/// [`count_fallback`] under the [`Fallbacks`](crate::Fallbacks) field of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Size 0.
    ZeroSize,
    /// Over 512 bytes.
    TooLarge,
    /// Alignment over 16 bytes.
    OverAligned,
    /// The thread holds no arena.
    NoArena,
    /// There is no reservation.
    NoReservation,
}

impl From<Refusal> for Fallback {
    fn from(refusal: Refusal) -> Fallback {
        match refusal {
            Refusal::NoReservation => Fallback::NoReservation,
            Refusal::NoArena => Fallback::NoArena,
        }
    }
}

/// Maps the reservation on first use (the policy from `CHECKBENCH_SLICE`) and claims the lowest
/// free arena, draining its remote stacks. Never allocates.
pub fn claim() -> Result<Hold, Refusal> {
    if !map_reservation() {
        return Err(Refusal::NoReservation);
    }
    let index = GLOBAL.claim().ok_or(Refusal::NoArena)?;
    Ok(Hold(GLOBAL.arena(index)))
}

/// Parks a held arena: its free lists and bump pointers stay for the next thread that claims it.
///
/// # Safety
/// The calling thread holds `hold` (from [`claim`]) and never uses it again.
pub unsafe fn park(hold: Hold) {
    if !hold.is_none() {
        GLOBAL.park(GLOBAL.index_of(hold.0));
    }
}

/// Serves `size` bytes (1..=512, 16-byte aligned) by the fast path of `SliceAlloc`: pop the
/// class's free list, else carve at its bump pointer, else `slow`. With `zero`, a recycled block
/// is cleared (fresh ones are zero).
///
/// # Safety
/// The calling thread holds `hold` or it is [`Hold::NONE`] (whose limits are 0, so `slow` runs);
/// `1 <= size <= 512`.
#[inline(always)]
pub unsafe fn alloc_small(
    hold: Hold,
    size: usize,
    zero: bool,
    slow: impl FnOnce() -> *mut u8,
) -> *mut u8 {
    debug_assert!((1..=MAX_SMALL).contains(&size));
    let zero_len = if zero { size } else { 0 };
    // SAFETY: the caller's contract gives class < 32 and an owned (or the empty) arena.
    unsafe { fast_alloc(hold.0, (size - 1) >> BLOCK_SHIFT, zero_len, slow) }
}

/// The slow path of a held arena: first use of the slice, remote frees, the hybrid switch.
/// When the slice is full the request goes to `std::alloc::System` (the process's `malloc`,
/// which in a preloaded library is the front end itself, so it must not recurse), counted as
/// `slice_exhausted`.
///
/// # Safety
/// The calling thread holds `hold`, which is not `NONE`; `1 <= size <= 512`.
#[cold]
#[inline(never)]
pub unsafe fn slow_small(hold: Hold, size: usize, zero: bool) -> *mut u8 {
    debug_assert!(!hold.is_none() && (1..=MAX_SMALL).contains(&size));
    // SAFETY: size is in 1..=512 and BLOCK_ALIGN is a power of two.
    let layout = unsafe { Layout::from_size_align_unchecked(size, BLOCK_ALIGN) };
    // SAFETY: the caller holds the arena; the class is the one alloc_small chose.
    unsafe {
        GLOBAL.slow_alloc(
            GLOBAL.index_of(hold.0),
            (size - 1) >> BLOCK_SHIFT,
            layout,
            zero,
        )
    }
}

/// Frees `p` if it is a block of the reservation (onto the free list of `hold`'s arena if it is
/// the block's own, else onto its arena's remote stack) and returns `true`; returns `false`,
/// touching nothing, for any other address.
///
/// # Safety
/// If `p` lies in the reservation it is a block handed out by this heap and not used again;
/// the calling thread holds `hold` or it is `NONE`.
#[inline(always)]
pub unsafe fn free(hold: Hold, p: *mut u8) -> bool {
    let Some((_, class)) = GLOBAL.locate(p as usize) else {
        return false;
    };
    // SAFETY: a class size and BLOCK_ALIGN make a valid layout.
    let layout = unsafe { Layout::from_size_align_unchecked(class_size(class), BLOCK_ALIGN) };
    // SAFETY: the caller's contract; the layout is the block's class.
    unsafe { GLOBAL.free(hold.0, p, layout) };
    true
}

/// The size of the block at `p` (its class size) if `p` lies in the reservation, else `None`.
/// A block's class follows from its address alone.
#[inline(always)]
pub fn block_size(p: *const u8) -> Option<usize> {
    GLOBAL
        .locate(p as usize)
        .map(|(_, class)| class_size(class))
}

/// Counts a request the front end sent to the system allocator itself, against `hold`'s arena
/// (or the shared counters for `NONE`).
///
/// # Safety
/// The calling thread holds `hold` or it is `NONE`.
#[inline]
pub unsafe fn count_fallback(hold: Hold, reason: Fallback) {
    let reason = match reason {
        Fallback::ZeroSize => Reason::ZeroSize,
        Fallback::TooLarge => Reason::TooLarge,
        Fallback::OverAligned => Reason::OverAligned,
        Fallback::NoArena => Reason::NoArena,
        Fallback::NoReservation => Reason::NoReservation,
    };
    GLOBAL.count(hold.0, reason);
}

/// For a `pthread_atfork` prepare handler: waits until no thread is mapping the reservation, so
/// that a child never inherits a heap stuck half-made. Everything else a child inherits is
/// consistent without help: an arena is written only by its owner, so the arenas of threads
/// that do not exist in the child stay claimed and untouched, and a remote stack changes by one
/// compare-and-swap.
pub fn prepare_fork() {
    while STATE.load(std::sync::atomic::Ordering::Acquire) == MAPPING {
        std::thread::yield_now();
    }
}
