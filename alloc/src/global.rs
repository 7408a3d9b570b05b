//! The global instance: one static heap, each thread's arena in a thread-local, and
//! [`SliceAlloc`], the `#[global_allocator]` front end.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering::*};

use crate::heap::{Arena, Core, NO_ARENA, Route, fast_alloc, is_no_arena, route};
use crate::policy::{self, Policy};
use crate::stats::{Reason, Stats, Totals};
use crate::{CLASS_COUNT, MAX_ARENAS, MAX_SLICE_SHIFT, MIN_SLICE_SHIFT};

pub mod raw;

/// The heap of the global instance.
static GLOBAL: Core = Core::new();

/// Where the global heap stands: [`UNINIT`], [`MAPPING`], [`READY`] or [`REFUSED`].
static STATE: AtomicU8 = AtomicU8::new(UNINIT);
/// No request has been served yet.
const UNINIT: u8 = 0;
/// One thread is reading the policy and mapping the reservation.
const MAPPING: u8 = 1;
/// The reservation is mapped.
const READY: u8 = 2;
/// Every slice size was refused: everything goes to the system allocator.
const REFUSED: u8 = 3;

/// What a thread is doing with arenas.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ThreadState {
    /// May claim an arena.
    Active,
    /// Inside a claim: a request made now (by the thread-exit registration) falls back.
    Claiming,
    /// Past its exit: it never claims again.
    Exited,
}

thread_local! {
    /// The thread's arena, or [`NO_ARENA`]. No destructor, so it is readable until the thread's
    /// very end.
    static ARENA: Cell<&'static Arena> = const { Cell::new(&NO_ARENA) };
    static THREAD: Cell<ThreadState> = const { Cell::new(ThreadState::Active) };
    /// Its destructor parks the thread's arena.
    static PARK_AT_EXIT: ParkAtExit = const { ParkAtExit };
}

struct ParkAtExit;

impl Drop for ParkAtExit {
    fn drop(&mut self) {
        let arena = ARENA.replace(&NO_ARENA);
        THREAD.set(ThreadState::Exited);
        if !is_no_arena(arena) {
            GLOBAL.park(GLOBAL.index_of(arena));
        }
    }
}

/// The global allocator: `#[global_allocator] static A: SliceAlloc = SliceAlloc;`.
///
/// The first request reads the policy from `CHECKBENCH_SLICE` and maps the reservation; each
/// thread claims an arena at its first small request and parks it at exit.
pub struct SliceAlloc;

// SAFETY: blocks come from the reservation (each handed out once: carved once or popped from a
// free list it was pushed on by its free) or from the system allocator; the address decides
// which one gets it back. Alignment: blocks are 16-byte aligned, requests over 16 go to the
// system.
unsafe impl GlobalAlloc for SliceAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        alloc(layout, false)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        alloc(layout, true)
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, and ARENA is this thread's own arena or NO_ARENA.
        unsafe { GLOBAL.free(ARENA.get(), ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract; ARENA as in dealloc; the closure allocates globally.
        unsafe { GLOBAL.realloc(ARENA.get(), ptr, layout, new_size, |l| alloc(l, false)) }
    }
}

#[inline(always)]
fn alloc(layout: Layout, zero: bool) -> *mut u8 {
    let arena = ARENA.get();
    match route(layout) {
        Route::Class(class) => {
            let zero_len = if zero { layout.size() } else { 0 };
            // SAFETY: ARENA is owned by this thread or is NO_ARENA; route gives class < 32.
            unsafe {
                fast_alloc(arena, class, zero_len, || {
                    slow_alloc(arena, class, layout, zero)
                })
            }
        }
        Route::System(reason) => system_alloc(arena, layout, reason, zero),
    }
}

#[cold]
#[inline(never)]
fn slow_alloc(arena: &'static Arena, class: usize, layout: Layout, zero: bool) -> *mut u8 {
    let slow = |arena: &'static Arena| {
        // SAFETY: the arena is this thread's, just claimed or held; class comes from
        // route(layout).
        unsafe { GLOBAL.slow_alloc(GLOBAL.index_of(arena), class, layout, zero) }
    };
    if !is_no_arena(arena) {
        return slow(arena);
    }
    match adopt_arena() {
        Ok(arena) => {
            let zero_len = if zero { layout.size() } else { 0 };
            // SAFETY: we just claimed the arena (an inherited one may have free blocks); class
            // comes from route(layout).
            unsafe { fast_alloc(arena, class, zero_len, || slow(arena)) }
        }
        Err(reason) => GLOBAL.system_alloc(&NO_ARENA, layout, reason, zero),
    }
}

fn system_alloc(arena: &Arena, layout: Layout, reason: Reason, zero: bool) -> *mut u8 {
    if STATE.load(Relaxed) == UNINIT {
        map_reservation();
    }
    GLOBAL.system_alloc(arena, layout, reason, zero)
}

/// Claims an arena for this thread and arranges its parking at exit.
fn adopt_arena() -> Result<&'static Arena, Reason> {
    if THREAD.get() != ThreadState::Active {
        return Err(Reason::NoArena);
    }
    if !map_reservation() {
        return Err(Reason::NoReservation);
    }
    THREAD.set(ThreadState::Claiming);
    // Registering the destructor may allocate on some targets; THREAD stops that recursing.
    let registered = PARK_AT_EXIT.try_with(|_| ()).is_ok();
    THREAD.set(if registered {
        ThreadState::Active
    } else {
        ThreadState::Exited
    });
    if !registered {
        return Err(Reason::NoArena);
    }
    let index = GLOBAL.claim().ok_or(Reason::NoArena)?;
    let arena = GLOBAL.arena(index);
    ARENA.set(arena);
    Ok(arena)
}

/// Maps the global reservation on first use; `true` once it is mapped. Slice sizes are tried
/// from 1 GiB down to 4 MiB, skipping those whose reservation would take more than half of the
/// address-space limit ([`crate::os::reservation_budget`]); when none fits there is no
/// reservation and every request falls back (counted as `no_reservation`). A thread that finds
/// another one mapping does not wait: it falls back for this request.
fn map_reservation() -> bool {
    match STATE.load(Acquire) {
        READY => return true,
        MAPPING | REFUSED => return false,
        _ => {}
    }
    if STATE
        .compare_exchange(UNINIT, MAPPING, Acquire, Acquire)
        .is_err()
    {
        return STATE.load(Acquire) == READY;
    }
    GLOBAL.set_policy(policy::from_env());
    let budget = crate::os::reservation_budget();
    for shift in (MIN_SLICE_SHIFT..=MAX_SLICE_SHIFT).rev() {
        let bytes = (MAX_ARENAS * CLASS_COUNT) << shift;
        if bytes > budget {
            continue;
        }
        if let Ok(base) = crate::os::reserve(bytes) {
            GLOBAL.install(base, shift, MAX_ARENAS);
            STATE.store(READY, Release);
            return true;
        }
    }
    STATE.store(REFUSED, Release);
    false
}

/// Whether the global instance has served a request.
fn in_use() -> bool {
    matches!(STATE.load(Acquire), READY | REFUSED)
}

/// The policy of the global instance, or `None` when `SliceAlloc` has never served a request.
pub fn policy() -> Option<Policy> {
    in_use().then(|| GLOBAL.policy())
}

/// Every counter of the global instance, per arena handed out, or `None` when it has never
/// served a request. Allocates the snapshot; [`totals_into`] does not.
pub fn stats() -> Option<Stats> {
    in_use().then(|| GLOBAL.stats())
}

/// Writes the counters of the global instance summed over arenas into `out`, without
/// allocating; `false` (and `out` untouched) when it has never served a request.
pub fn totals_into(out: &mut Totals) -> bool {
    let used = in_use();
    if used {
        GLOBAL.totals_into(out);
    }
    used
}

/// The index of the calling thread's arena in the global instance, if it holds one.
pub fn current_arena() -> Option<usize> {
    let arena = ARENA.get();
    (!is_no_arena(arena)).then(|| GLOBAL.index_of(arena))
}

/// Parks the calling thread's arena now, as its exit would: the arena keeps its free lists and
/// bump pointers for the next thread that claims one (the lowest free index), and this thread
/// claims again at its next small request. A thread that hands its work to another one calls
/// it so that the other continues in the same slices instead of touching a second arena's;
/// blocks this thread frees meanwhile are remote frees. Without an arena (or when the global
/// instance never served a request) it does nothing.
pub fn release_arena() {
    let arena = ARENA.replace(&NO_ARENA);
    if !is_no_arena(arena) {
        GLOBAL.park(GLOBAL.index_of(arena));
    }
}

/// `(start, len)` of the global reservation, if one is mapped.
pub fn reservation() -> Option<(usize, usize)> {
    let (base, len) = GLOBAL.reservation();
    (len != 0).then_some((base, len))
}
