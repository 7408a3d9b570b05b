//! Heaps with their own reservation, for tests, examples and benchmarks: explicit arenas
//! ([`ArenaHandle`]) instead of thread-locals, and slice sizes as small as a page.

use std::alloc::{GlobalAlloc, Layout};
use std::fmt;
use std::marker::PhantomData;

use crate::heap::{Arena, Core, NO_ARENA, Route, fast_alloc, route};
use crate::policy::Policy;
use crate::stats::{Reason, Stats, Totals};
use crate::{CLASS_COUNT, MAX_ARENAS};

/// Smallest slice of a [`SliceHeap`]: one 4 KiB page.
pub const MIN_HEAP_SLICE_BYTES: usize = 1 << 12; // 4 KiB

/// The shape of a [`SliceHeap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapConfig {
    /// Bytes per class slice: a power of two, at least [`MIN_HEAP_SLICE_BYTES`].
    pub slice_bytes: usize,
    /// Arenas, 1..=[`MAX_ARENAS`].
    pub arenas: usize,
    /// The THP policy.
    pub policy: Policy,
}

/// Why a [`SliceHeap`] could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapError {
    /// `slice_bytes` is not a power of two of at least 4 KiB.
    SliceBytes(usize),
    /// `arenas` is outside 1..=32.
    Arenas(usize),
    /// `arenas x 32 x slice_bytes` does not fit in the address space.
    Overflow {
        /// Bytes per slice asked for.
        slice_bytes: usize,
        /// Arenas asked for.
        arenas: usize,
    },
    /// The kernel refused the mapping.
    Reserve {
        /// Bytes asked for.
        bytes: usize,
        /// The errno.
        errno: i32,
    },
}

impl fmt::Display for HeapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapError::SliceBytes(n) => write!(
                f,
                "slice size {n} is not a power of two of at least {MIN_HEAP_SLICE_BYTES} bytes"
            ),
            HeapError::Arenas(n) => write!(f, "arena count {n} is outside 1..={MAX_ARENAS}"),
            HeapError::Overflow {
                slice_bytes,
                arenas,
            } => write!(
                f,
                "{arenas} arenas x {CLASS_COUNT} slices of {slice_bytes} bytes overflow the address space"
            ),
            HeapError::Reserve { bytes, errno } => write!(
                f,
                "reserving {bytes} bytes failed: {}",
                std::io::Error::from_raw_os_error(*errno)
            ),
        }
    }
}

impl std::error::Error for HeapError {}

/// A slice heap with its own reservation, unmapped on drop.
///
/// Threads allocate through an [`ArenaHandle`] from [`SliceHeap::claim`]; a thread without one
/// uses [`SliceHeap::alloc`] (the system allocator, counted as `no_arena`) and
/// [`SliceHeap::dealloc`] (remote frees).
pub struct SliceHeap {
    core: Box<Core>,
}

impl SliceHeap {
    /// Maps a reservation of `arenas x 32 x slice_bytes` bytes and gives it the policy's advice.
    pub fn new(config: HeapConfig) -> Result<SliceHeap, HeapError> {
        let HeapConfig {
            slice_bytes,
            arenas,
            policy,
        } = config;
        if !slice_bytes.is_power_of_two() || slice_bytes < MIN_HEAP_SLICE_BYTES {
            return Err(HeapError::SliceBytes(slice_bytes));
        }
        if !(1..=MAX_ARENAS).contains(&arenas) {
            return Err(HeapError::Arenas(arenas));
        }
        let bytes = (arenas * CLASS_COUNT)
            .checked_mul(slice_bytes)
            .filter(|&b| b <= isize::MAX as usize / 2)
            .ok_or(HeapError::Overflow {
                slice_bytes,
                arenas,
            })?;
        let base =
            crate::os::reserve(bytes).map_err(|errno| HeapError::Reserve { bytes, errno })?;
        let core = Box::new(Core::new());
        core.set_policy(policy);
        core.install(base, slice_bytes.trailing_zeros(), arenas);
        Ok(SliceHeap { core })
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.core.policy()
    }

    /// Bytes per class slice.
    pub fn slice_bytes(&self) -> usize {
        self.core.slice_bytes()
    }

    /// `(start, len)` of the reservation.
    pub fn reservation(&self) -> (usize, usize) {
        self.core.reservation()
    }

    /// First byte of the slice of `class` in arena `arena`.
    pub fn slice_start(&self, arena: usize, class: usize) -> usize {
        assert!(arena < self.core.arena_count() && class < CLASS_COUNT);
        self.core.slice_start(arena, class)
    }

    /// `(arena, class)` of a block of this heap: from its address alone in a slice, from its
    /// span's table entry in the nursery; `None` for a block of the system allocator.
    pub fn locate(&self, p: *const u8) -> Option<(usize, usize)> {
        self.core.locate(p as usize)
    }

    /// `(start, len)` of the nursery's spans under `adaptive`; `None` without a nursery.
    pub fn nursery(&self) -> Option<(usize, usize)> {
        self.core.nursery()
    }

    /// Claims the lowest free arena (inheriting whatever its last owner left, remote frees
    /// drained); `None` when all are taken.
    pub fn claim(&self) -> Option<ArenaHandle<'_>> {
        let index = self.core.claim()?;
        Some(ArenaHandle {
            core: &self.core,
            arena: self.core.arena(index),
            index,
            _not_sync: PhantomData,
        })
    }

    /// Allocates as a thread that holds no arena: always the system allocator.
    pub fn alloc(&self, layout: Layout) -> *mut u8 {
        let reason = match route(layout) {
            Route::Class(_) => Reason::NoArena,
            Route::System(reason) => reason,
        };
        self.core.system_alloc(&NO_ARENA, layout, reason, false)
    }

    /// Frees as a thread that holds no arena: slice blocks go to their arena's remote stack.
    ///
    /// # Safety
    /// `p` was returned by this heap (any arena, or [`SliceHeap::alloc`]) for `layout` and is
    /// not used again.
    pub unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract; NO_ARENA is nobody's arena.
        unsafe { self.core.free(&NO_ARENA, p, layout) }
    }

    /// Every counter, per arena handed out.
    pub fn stats(&self) -> Stats {
        self.core.stats()
    }

    /// The counters summed over arenas, without allocating.
    pub fn totals_into(&self, out: &mut Totals) {
        self.core.totals_into(out);
    }
}

impl Drop for SliceHeap {
    fn drop(&mut self) {
        // SAFETY: no handle outlives the heap (they borrow it); blocks of a dropped heap must
        // not be used, as with any allocator that is gone.
        unsafe { self.core.release() };
    }
}

/// Ownership of one arena of a [`SliceHeap`]: the only way to use its fast path. Parks the arena
/// on drop. May move to another thread, but not be shared.
pub struct ArenaHandle<'h> {
    core: &'h Core,
    arena: &'h Arena,
    index: usize,
    _not_sync: PhantomData<std::cell::Cell<()>>,
}

impl ArenaHandle<'_> {
    /// The arena's index.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Allocates a block for `layout`: the class of its size, or the system allocator.
    #[inline]
    pub fn alloc(&self, layout: Layout) -> *mut u8 {
        self.alloc_inner(layout, false)
    }

    /// As [`ArenaHandle::alloc`], the first `layout.size()` bytes zeroed.
    #[inline]
    pub fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.alloc_inner(layout, true)
    }

    #[inline(always)]
    fn alloc_inner(&self, layout: Layout, zero: bool) -> *mut u8 {
        match route(layout) {
            Route::Class(class) => {
                let zero_len = if zero { layout.size() } else { 0 };
                // SAFETY: the handle owns the arena; route gives class < 32.
                unsafe {
                    fast_alloc(self.arena, class, zero_len, || {
                        self.core.slow_alloc(self.index, class, layout, zero)
                    })
                }
            }
            Route::System(reason) => self.core.system_alloc(self.arena, layout, reason, zero),
        }
    }

    /// Frees a block of this heap: onto this arena's free list if it is this arena's, else onto
    /// its arena's remote stack; system blocks to the system.
    ///
    /// # Safety
    /// `p` was returned by this heap for `layout` and is not used again.
    #[inline]
    pub unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract; the handle owns its arena.
        unsafe { self.core.free(self.arena, p, layout) }
    }

    /// Resizes a block (the same block when the new size stays in its class).
    ///
    /// # Safety
    /// As [`GlobalAlloc::realloc`], for a block of this heap.
    pub unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract; the handle owns its arena.
        unsafe {
            self.core
                .realloc(self.arena, p, layout, new_size, |l| self.alloc(l))
        }
    }
}

impl Drop for ArenaHandle<'_> {
    fn drop(&mut self) {
        self.core.park(self.index);
    }
}

// SAFETY: delegates to the handle's methods, whose blocks satisfy the layout (16-byte aligned
// classes; the system allocator for the rest).
unsafe impl GlobalAlloc for ArenaHandle<'_> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ArenaHandle::alloc(self, layout)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ArenaHandle::alloc_zeroed(self, layout)
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { ArenaHandle::dealloc(self, ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract.
        unsafe { ArenaHandle::realloc(self, ptr, layout, new_size) }
    }
}
