//! The engine both front ends share: a reservation cut into arenas and class slices, the fast
//! path, the slow path, frees local and remote, and the statistics.
//!
//! Ownership discipline: the per-class state of an arena (free list, bump, limit, owner
//! counters) is written only by the thread that holds the arena's bit in `Core::claimed`. It is
//! kept in atomics used with plain loads and stores so that statistics may read it from any
//! thread without a data race; the claim (Acquire) and the park (Release) order one owner's
//! writes before the next owner's reads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use crate::nursery::{self, Nursery, SPAN_BYTES};
use crate::os::{self, Advice};
use crate::policy::{Policy, ThpPolicy};
use crate::stats::{ClassStats, FallbackCounters, Reason, Stats, Totals, add_owned};
use crate::{
    BLOCK_ALIGN, BLOCK_SHIFT, CLASS_BITS, CLASS_COUNT, DRAIN_STEP, HUGE_PAGE, MAX_ARENAS,
    MAX_SMALL, POPULATE_STEP,
};

/// Bytes of a block of `class`: 16, 32, ..., 512.
#[inline(always)]
pub(crate) const fn class_size(class: usize) -> usize {
    (class + 1) << BLOCK_SHIFT
}

/// Where a request is served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// By the class of this index.
    Class(usize),
    /// By the system allocator, for this reason.
    System(Reason),
}

/// Sizes 1..=512 with alignment up to 16 go to class `(size - 1) / 16`; the rest to the system.
#[inline(always)]
pub(crate) fn route(layout: Layout) -> Route {
    let size = layout.size();
    if size.wrapping_sub(1) < MAX_SMALL && layout.align() <= BLOCK_ALIGN {
        Route::Class((size - 1) >> BLOCK_SHIFT)
    } else if size == 0 {
        Route::System(Reason::ZeroSize)
    } else if layout.align() > BLOCK_ALIGN {
        Route::System(Reason::OverAligned)
    } else {
        Route::System(Reason::TooLarge)
    }
}

/// The layout the system allocator sees: a zero-size request becomes one of `align` bytes, so
/// that the system allocator is never asked for zero bytes.
#[inline]
pub(crate) fn system_layout(layout: Layout) -> Layout {
    if layout.size() == 0 {
        Layout::from_size_align(layout.align(), layout.align()).unwrap_or(layout)
    } else {
        layout
    }
}

/// Bump state and owner counters of one class of one arena.
#[repr(align(64))]
pub(crate) struct ClassState {
    /// Head of the LIFO free list (0: empty). A free block's first word holds the next one.
    free: AtomicUsize,
    /// Next block to carve; 0 until the slice's first use.
    bump: AtomicUsize,
    /// The bump pointer may not pass it: the switch point, then the slice end (under
    /// `+populate` and `+drain`, steps on the way to them). Invariant: `bump <= limit`, both 0
    /// before first use.
    limit: AtomicUsize,
    reuses: AtomicU64,
    /// Blocks moved from the remote stack to the free list.
    drained: AtomicU64,
    slow_paths: AtomicU64,
    switches: AtomicU64,
}

impl ClassState {
    const fn new() -> Self {
        ClassState {
            free: AtomicUsize::new(0),
            bump: AtomicUsize::new(0),
            limit: AtomicUsize::new(0),
            reuses: AtomicU64::new(0),
            drained: AtomicU64::new(0),
            slow_paths: AtomicU64::new(0),
            switches: AtomicU64::new(0),
        }
    }
}

/// The lock-free stack of blocks of one class freed by threads that do not own the arena.
/// Others only push; the owner takes the whole stack at once, so ABA cannot arise.
#[repr(align(64))]
pub(crate) struct RemoteStack {
    head: AtomicUsize,
    pushes: AtomicU64,
}

/// One thread's share of the reservation: 32 class slices and their state.
pub(crate) struct Arena {
    classes: [ClassState; CLASS_COUNT],
    remote: [RemoteStack; CLASS_COUNT],
    /// Fallbacks counted by the owner.
    fallbacks: FallbackCounters,
}

impl Arena {
    pub(crate) const fn new() -> Self {
        Arena {
            classes: [const { ClassState::new() }; CLASS_COUNT],
            remote: [const {
                RemoteStack {
                    head: AtomicUsize::new(0),
                    pushes: AtomicU64::new(0),
                }
            }; CLASS_COUNT],
            fallbacks: FallbackCounters::new(),
        }
    }
}

/// The arena of a thread that holds none: its limits are 0, so every small request takes the
/// slow path, which claims an arena or falls back. Nothing ever writes to it.
pub(crate) static NO_ARENA: Arena = Arena::new();

/// Whether `arena` is [`NO_ARENA`].
#[inline(always)]
pub(crate) fn is_no_arena(arena: &Arena) -> bool {
    ptr::eq(arena, &NO_ARENA)
}

/// The fast path: pop the free list, else carve at the bump pointer if `limit - bump >= size`,
/// else `slow`. `zero_len` bytes of a recycled block are cleared (fresh blocks are zero
/// already).
///
/// # Safety
/// The calling thread owns `arena` (holds its bit, or a handle to it) or `arena` is
/// [`NO_ARENA`]; `class < CLASS_COUNT`.
#[inline(always)]
pub(crate) unsafe fn fast_alloc(
    arena: &Arena,
    class: usize,
    zero_len: usize,
    slow: impl FnOnce() -> *mut u8,
) -> *mut u8 {
    debug_assert!(class < CLASS_COUNT);
    // SAFETY: the caller guarantees class < CLASS_COUNT.
    let state = unsafe { arena.classes.get_unchecked(class) };
    let head = state.free.load(Relaxed);
    if head != 0 {
        // SAFETY: blocks on an owned free list are free blocks of this class, 16-byte aligned,
        // whose first word holds the next block; only the owner (us) touches them.
        unsafe { pop_into(state, head, zero_len) };
        return head as *mut u8;
    }
    let bump = state.bump.load(Relaxed);
    let limit = state.limit.load(Relaxed);
    debug_assert!(bump <= limit, "the bump pointer passed its limit");
    let size = class_size(class);
    if limit - bump >= size {
        state.bump.store(bump + size, Relaxed);
        return bump as *mut u8;
    }
    slow()
}

/// Unlinks `head` from the free list of `state` and clears its first `zero_len` bytes.
///
/// # Safety
/// `head` is the non-null head of the free list of `state`, owned by the caller.
#[inline(always)]
unsafe fn pop_into(state: &ClassState, head: usize, zero_len: usize) {
    // SAFETY: per the caller, head is a free block whose first word is the next link.
    let next = unsafe { (head as *const usize).read() };
    state.free.store(next, Relaxed);
    add_owned(&state.reuses);
    if zero_len != 0 {
        // SAFETY: the block is at least zero_len bytes (the request's size maps to this class)
        // and now belongs to the requester.
        unsafe { ptr::write_bytes(head as *mut u8, 0, zero_len) };
    }
}

/// The next limit from `from` on the way to `to` (both in one slice): `to` itself, or under
/// `+drain` the next [`DRAIN_STEP`] boundary before it, so that the slow path, and with it the
/// drain of the class's remote stack, comes once per step carved.
fn step_towards(policy: Policy, from: usize, to: usize) -> usize {
    if policy.drain {
        ((from / DRAIN_STEP + 1) * DRAIN_STEP).min(to)
    } else {
        to
    }
}

/// Pushes a freed block onto another arena's remote stack.
///
/// # Safety
/// `p` is a free block of the stack's class, at least 16 bytes, that nobody else uses.
#[inline(never)]
unsafe fn push_remote(stack: &RemoteStack, p: *mut u8) {
    let mut head = stack.head.load(Relaxed);
    loop {
        // SAFETY: the block is ours until the exchange below publishes it.
        unsafe { (p as *mut usize).write(head) };
        match stack
            .head
            .compare_exchange_weak(head, p as usize, Release, Relaxed)
        {
            Ok(_) => break,
            Err(now) => head = now,
        }
    }
    stack.pushes.fetch_add(1, Relaxed);
}

/// A reservation, its arenas, and the policy: everything one heap is. The global instance is a
/// `static Core`; test instances box one each.
pub(crate) struct Core {
    /// Reservation start, 2 MiB aligned (0: none).
    base: AtomicUsize,
    /// Reservation length in bytes (0: none). Stored last (Release) and loaded first (Acquire),
    /// so that a reader that sees it sees `base` and the rest.
    len: AtomicUsize,
    /// log2 of the slice size.
    slice_shift: AtomicU32,
    /// Arenas in the reservation (1..=MAX_ARENAS).
    arena_count: AtomicU32,
    /// [`Policy::encode`] of the policy.
    policy: AtomicU64,
    /// Bit i set: arena i has an owner.
    claimed: AtomicU32,
    /// Bit i set: arena i has had an owner.
    ever_claimed: AtomicU32,
    /// Fallbacks of threads without an arena.
    shared_fallbacks: FallbackCounters,
    advice_errors: AtomicU64,
    arenas: [Arena; MAX_ARENAS],
    /// The `adaptive` policy's shared span region (unmapped under the other policies).
    nursery: Nursery,
}

impl Core {
    pub(crate) const fn new() -> Self {
        Core {
            base: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            slice_shift: AtomicU32::new(0),
            arena_count: AtomicU32::new(0),
            policy: AtomicU64::new(0),
            claimed: AtomicU32::new(0),
            ever_claimed: AtomicU32::new(0),
            shared_fallbacks: FallbackCounters::new(),
            advice_errors: AtomicU64::new(0),
            arenas: [const { Arena::new() }; MAX_ARENAS],
            nursery: Nursery::new(),
        }
    }

    pub(crate) fn set_policy(&self, policy: Policy) {
        self.policy.store(policy.encode(), Relaxed);
    }

    pub(crate) fn policy(&self) -> Policy {
        Policy::decode(self.policy.load(Relaxed))
    }

    /// Takes over a fresh reservation of `arena_count` arenas of 32 slices of `1 << slice_shift`
    /// bytes at `base`, and gives the whole-reservation advice of the policy: `NOHUGEPAGE` for
    /// nohuge, hybrid and adaptive, `HUGEPAGE` for huge. Under adaptive it also maps the
    /// nursery, as large as the reservation up to [`nursery::MAX_NURSERY_BYTES`].
    pub(crate) fn install(&self, base: usize, slice_shift: u32, arena_count: usize) {
        debug_assert!(base.is_multiple_of(HUGE_PAGE) && (1..=MAX_ARENAS).contains(&arena_count));
        let len = (arena_count * CLASS_COUNT) << slice_shift;
        let advice = match self.policy().thp {
            ThpPolicy::Huge => Advice::Huge,
            ThpPolicy::NoHuge | ThpPolicy::Hybrid { .. } | ThpPolicy::Adaptive => Advice::NoHuge,
        };
        self.advise(base, len, advice);
        if self.policy().thp == ThpPolicy::Adaptive {
            self.nursery
                .map(len.min(nursery::MAX_NURSERY_BYTES), |start, len, advice| {
                    self.advise(start, len, advice)
                });
        }
        self.base.store(base, Relaxed);
        self.slice_shift.store(slice_shift, Relaxed);
        self.arena_count.store(arena_count as u32, Relaxed);
        self.len.store(len, Release);
    }

    /// `(start, len)` of the reservation; len 0 when there is none.
    #[inline(always)]
    pub(crate) fn reservation(&self) -> (usize, usize) {
        let len = self.len.load(Acquire);
        (self.base.load(Relaxed), len)
    }

    /// `(start, len)` of the nursery's spans, if one is mapped.
    pub(crate) fn nursery(&self) -> Option<(usize, usize)> {
        self.nursery.spans()
    }

    pub(crate) fn slice_bytes(&self) -> usize {
        if self.len.load(Acquire) == 0 {
            0
        } else {
            1 << self.slice_shift.load(Relaxed)
        }
    }

    pub(crate) fn arena_count(&self) -> usize {
        self.arena_count.load(Relaxed) as usize
    }

    pub(crate) fn arena(&self, index: usize) -> &Arena {
        &self.arenas[index]
    }

    /// The index of `arena`, one of ours.
    pub(crate) fn index_of(&self, arena: &Arena) -> usize {
        let offset = arena as *const Arena as usize - self.arenas.as_ptr() as usize;
        offset / size_of::<Arena>()
    }

    /// The arena and class of a block: in a slice, from its address alone,
    /// `(p - base) >> shift`; in the nursery, from its span's table entry.
    #[inline(always)]
    pub(crate) fn locate(&self, p: usize) -> Option<(usize, usize)> {
        let (base, len) = self.reservation();
        let offset = p.wrapping_sub(base);
        if offset < len {
            let shift = self.slice_shift.load(Relaxed);
            Some((
                offset >> (shift + CLASS_BITS),
                (offset >> shift) & (CLASS_COUNT - 1),
            ))
        } else {
            self.nursery.locate(p)
        }
    }

    /// First byte of the slice of `class` in arena `index`.
    pub(crate) fn slice_start(&self, index: usize, class: usize) -> usize {
        let shift = self.slice_shift.load(Relaxed);
        self.base.load(Relaxed) + ((index * CLASS_COUNT + class) << shift)
    }

    /// Claims the lowest free arena and drains its remote stacks; `None` when all are taken.
    pub(crate) fn claim(&self) -> Option<usize> {
        let all = u32::MAX >> (32 - self.arena_count().max(1));
        let mut taken = self.claimed.load(Relaxed);
        let index = loop {
            let free = !taken & all;
            if free == 0 || self.len.load(Acquire) == 0 {
                return None;
            }
            let bit = free.trailing_zeros();
            match self
                .claimed
                .compare_exchange_weak(taken, taken | 1 << bit, Acquire, Relaxed)
            {
                Ok(_) => break bit as usize,
                Err(now) => taken = now,
            }
        };
        self.ever_claimed.fetch_or(1 << index, Relaxed);
        let arena = &self.arenas[index];
        for class in 0..CLASS_COUNT {
            // SAFETY: we hold the arena's bit.
            unsafe { self.drain(arena, class) };
        }
        Some(index)
    }

    /// Gives up arena `index`: its state stays for the next claimer.
    pub(crate) fn park(&self, index: usize) {
        self.claimed.fetch_and(!(1 << index), Release);
    }

    /// Moves the remote stack of `class` onto the free list; `true` if it held anything.
    ///
    /// # Safety
    /// The calling thread owns `arena`.
    unsafe fn drain(&self, arena: &Arena, class: usize) -> bool {
        let chain = arena.remote[class].head.swap(0, Acquire);
        if chain == 0 {
            return false;
        }
        let state = &arena.classes[class];
        // The chain is walked to its tail, to link the free list behind it and to count it.
        let mut tail = chain;
        let mut blocks = 1;
        // SAFETY: the chain is a list of free blocks of this class, each linking to the next
        // through its first word (written before the Release push we acquired); they are ours.
        unsafe {
            loop {
                let next = (tail as *const usize).read();
                if next == 0 {
                    break;
                }
                tail = next;
                blocks += 1;
            }
            (tail as *mut usize).write(state.free.load(Relaxed));
        }
        state.free.store(chain, Relaxed);
        state
            .drained
            .store(state.drained.load(Relaxed) + blocks, Relaxed);
        true
    }

    /// The slow path of arena `index`: remote frees, the next nursery span (adaptive), first
    /// use of the slice (set bump and the first limit), the next `+populate` or `+drain` step,
    /// the switch, exhaustion (system fallback).
    ///
    /// # Safety
    /// The calling thread owns arena `index`; `class` is `route(layout)`'s class.
    #[cold]
    #[inline(never)]
    pub(crate) unsafe fn slow_alloc(
        &self,
        index: usize,
        class: usize,
        layout: Layout,
        zero: bool,
    ) -> *mut u8 {
        let arena = &self.arenas[index];
        let state = &arena.classes[class];
        add_owned(&state.slow_paths);
        let start = self.slice_start(index, class);
        let end = start + (1 << self.slice_shift.load(Relaxed));
        let policy = self.policy();
        let switch = policy
            .switch_bytes()
            .filter(|&s| os::TWO_STEP_LIMITS && s < end - start);
        let size = class_size(class);
        let mut limit = state.limit.load(Relaxed);
        if limit != 0 {
            // SAFETY: we own the arena.
            if unsafe { self.drain(arena, class) } {
                let head = state.free.load(Relaxed);
                let zero_len = if zero { layout.size() } else { 0 };
                // SAFETY: drain left a non-empty free list that we own.
                unsafe { pop_into(state, head, zero_len) };
                return head as *mut u8;
            }
        }
        if policy.thp == ThpPolicy::Adaptive && !(start < limit && limit <= end) {
            let old = self
                .nursery
                .holds_limit(limit)
                .then(|| (state.bump.load(Relaxed), limit));
            if let Some(span) = self.nursery.take(index, class, old) {
                // A span holds at least 8 blocks of the largest class; it is fresh, so zero.
                state.bump.store(span + size, Relaxed);
                state.limit.store(span + SPAN_BYTES, Relaxed);
                return span as *mut u8;
            }
            // The nursery is spent: the class carves its own slice from its start.
            limit = 0;
        }
        let switch_at = switch.map(|switch| start + switch);
        if limit == 0 {
            let first = match switch_at {
                Some(switch_at) if policy.populate => self.populate_step(start, switch_at),
                Some(switch_at) => step_towards(policy, start, switch_at),
                None => step_towards(policy, start, end),
            };
            state.limit.store(first, Relaxed);
            state.bump.store(start, Relaxed);
        } else {
            match switch_at {
                Some(switch_at) if limit < switch_at => {
                    debug_assert!(policy.populate || policy.drain, "a step without a stepper");
                    let next = if policy.populate {
                        self.populate_step(limit, switch_at)
                    } else {
                        step_towards(policy, limit, switch_at)
                    };
                    state.limit.store(next, Relaxed);
                }
                Some(switch_at) if limit == switch_at => {
                    self.switch(state, start, switch_at, end, policy);
                    state
                        .limit
                        .store(step_towards(policy, switch_at, end), Relaxed);
                }
                _ if limit < end => state.limit.store(step_towards(policy, limit, end), Relaxed),
                _ => {}
            }
        }
        let bump = state.bump.load(Relaxed);
        if state.limit.load(Relaxed) - bump >= size {
            state.bump.store(bump + size, Relaxed);
            return bump as *mut u8;
        }
        self.system_alloc(arena, layout, Reason::SliceExhausted, zero)
    }

    /// Prefaults the next [`POPULATE_STEP`] of a `+populate` slice's small-page prefix, from
    /// `from` but not past `switch_at`, and returns the new limit. Stepping keeps the ablation
    /// honest: it prefaults what the bump pointer is about to reach, not the whole prefix of
    /// every class at first use, so it can change fault and sys time but not RSS.
    fn populate_step(&self, from: usize, switch_at: usize) -> usize {
        let to = (from + POPULATE_STEP).min(switch_at);
        self.advise(from, to - from, Advice::PopulateWrite);
        to
    }

    /// Crosses the switch point of a hybrid slice: the rest of the slice (from the first 2 MiB
    /// boundary at or after the switch point) gets `HUGEPAGE`; the caller raises the limit.
    /// With `+collapse` the whole slice gets `HUGEPAGE` and the prefix is collapsed now.
    fn switch(
        &self,
        state: &ClassState,
        start: usize,
        switch_at: usize,
        end: usize,
        policy: Policy,
    ) {
        if policy.collapse {
            self.advise(start, end - start, Advice::Huge);
            let prefix = (switch_at - start) / HUGE_PAGE * HUGE_PAGE;
            self.advise(start, prefix, Advice::Collapse);
        } else {
            let huge_from = switch_at.next_multiple_of(HUGE_PAGE).min(end);
            self.advise(huge_from, end - huge_from, Advice::Huge);
        }
        add_owned(&state.switches);
    }

    fn advise(&self, start: usize, len: usize, advice: Advice) {
        if !os::advise(start, len, advice) {
            self.advice_errors.fetch_add(1, Relaxed);
        }
    }

    /// Serves `layout` from the system allocator, counting `reason` against `arena` (the
    /// owner's counters) or, for [`NO_ARENA`], against the shared counters.
    pub(crate) fn system_alloc(
        &self,
        arena: &Arena,
        layout: Layout,
        reason: Reason,
        zero: bool,
    ) -> *mut u8 {
        self.count(arena, reason);
        let layout = system_layout(layout);
        // SAFETY: system_layout has a non-zero size.
        unsafe {
            if zero {
                System.alloc_zeroed(layout)
            } else {
                System.alloc(layout)
            }
        }
    }

    pub(crate) fn count(&self, arena: &Arena, reason: Reason) {
        if is_no_arena(arena) {
            self.shared_fallbacks.add_shared(reason);
        } else {
            arena.fallbacks.add_owned(reason);
        }
    }

    /// Frees a block: onto the local free list when `local` is its arena, onto its arena's
    /// remote stack otherwise; a block outside the reservation goes to the system.
    ///
    /// # Safety
    /// `p` was returned for `layout` by this heap (any thread) and is not used again; the calling
    /// thread owns `local` or `local` is [`NO_ARENA`].
    #[inline(always)]
    pub(crate) unsafe fn free(&self, local: &Arena, p: *mut u8, layout: Layout) {
        let Some((index, class)) = self.locate(p as usize) else {
            // SAFETY: a block outside the reservation came from System with system_layout.
            unsafe { System.dealloc(p, system_layout(layout)) };
            return;
        };
        debug_assert_eq!(
            route(layout),
            Route::Class(class),
            "layout does not match block"
        );
        // SAFETY: offset < len = arena_count * 32 << shift, so index < arena_count <= 32.
        let home = unsafe { self.arenas.get_unchecked(index) };
        if ptr::eq(home, local) {
            let state = &home.classes[class];
            // SAFETY: the block is ours again and at least 16 bytes; we own its free list.
            unsafe { (p as *mut usize).write(state.free.load(Relaxed)) };
            state.free.store(p as usize, Relaxed);
        } else {
            // SAFETY: the block is ours until the push publishes it.
            unsafe { push_remote(&home.remote[class], p) };
        }
    }

    /// Resizes a block: the same block when the new size stays in its class, the system's
    /// realloc between system-sized requests, else a new block from `alloc`, a copy and a free.
    ///
    /// # Safety
    /// As [`GlobalAlloc::realloc`], with `local` as for [`Core::free`]; `alloc` allocates from
    /// this heap as the calling thread.
    pub(crate) unsafe fn realloc(
        &self,
        local: &Arena,
        p: *mut u8,
        layout: Layout,
        new_size: usize,
        alloc: impl FnOnce(Layout) -> *mut u8,
    ) -> *mut u8 {
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
            return ptr::null_mut();
        };
        let new_route = route(new_layout);
        match self.locate(p as usize) {
            Some((_, class)) if new_route == Route::Class(class) => return p,
            None if layout.size() != 0 => {
                if let Route::System(reason) = new_route
                    && reason != Reason::ZeroSize
                {
                    self.count(local, reason);
                    // SAFETY: p came from System with this (non-zero) layout; the caller
                    // guarantees the rest of realloc's contract.
                    return unsafe { System.realloc(p, layout, new_size) };
                }
            }
            _ => {}
        }
        let q = alloc(new_layout);
        if !q.is_null() {
            // SAFETY: both blocks hold at least the copied length and are distinct; p is freed
            // once, as the caller allows.
            unsafe {
                ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                self.free(local, p, layout);
            }
        }
        q
    }

    /// Every counter, each arena claimed so far one by one (allocates an entry per arena up to
    /// the last claimed).
    pub(crate) fn stats(&self) -> Stats {
        let mut stats = Stats {
            totals: Totals::zeroed(self.policy()),
            arenas: Vec::with_capacity(self.arena_count()),
        };
        self.walk(&mut stats.totals, |index, class, counters| {
            if stats.arenas.len() <= index {
                stats
                    .arenas
                    .resize(index + 1, [ClassStats::ZERO; CLASS_COUNT]);
            }
            stats.arenas[index][class] = *counters;
        });
        stats
    }

    /// Writes the counters summed over arenas into `out`, without allocating and without a
    /// per-arena snapshot.
    pub(crate) fn totals_into(&self, out: &mut Totals) {
        *out = Totals::zeroed(self.policy());
        self.walk(out, |_, _, _| {});
    }

    /// Fills `out` (zeroed) with the heap's state and the per-class sums, handing each class
    /// of each arena handed out to `each` on the way: the one reading of the counters that
    /// both snapshots share.
    fn walk(&self, out: &mut Totals, mut each: impl FnMut(usize, usize, &ClassStats)) {
        out.slice_bytes = self.slice_bytes();
        out.reservation_bytes = self.reservation().1;
        out.arenas_claimed = self.ever_claimed.load(Relaxed).count_ones();
        out.advice_errors = self.advice_errors.load(Relaxed);
        out.nursery_bytes = self.nursery.used_bytes() as u64;
        out.nursery_capacity_bytes = self.nursery.capacity_bytes() as u64;
        self.shared_fallbacks.sum_into(&mut out.fallbacks);
        let arenas = if out.slice_bytes == 0 {
            0
        } else {
            self.arena_count()
        };
        // Only arenas ever claimed have counters: reading the others would fault their pages
        // in (4 KiB an arena), a cost to the process whose statistics these are.
        let claimed = self.ever_claimed.load(Relaxed);
        for (index, arena) in self.arenas.iter().enumerate().take(arenas) {
            if claimed & (1 << index) == 0 {
                continue;
            }
            arena.fallbacks.sum_into(&mut out.fallbacks);
            for (class, state) in arena.classes.iter().enumerate() {
                let bump = state.bump.load(Relaxed);
                let limit = state.limit.load(Relaxed);
                let start = self.slice_start(index, class);
                let in_slice = bump != 0 && !self.nursery.holds_limit(limit);
                let carved = if in_slice { bump - start } else { 0 }
                    + self.nursery.carved(index, class, bump, limit) as usize;
                let reuses = state.reuses.load(Relaxed);
                let counters = ClassStats {
                    carved_bytes: carved as u64,
                    reuses,
                    allocs: (carved / class_size(class)) as u64 + reuses,
                    remote_frees: arena.remote[class].pushes.load(Relaxed),
                    remote_drained: state.drained.load(Relaxed),
                    slow_paths: state.slow_paths.load(Relaxed),
                    switches: state.switches.load(Relaxed),
                };
                out.classes[class].add(&counters);
                each(index, class, &counters);
            }
        }
    }

    /// Unmaps the reservation.
    ///
    /// # Safety
    /// No block of this heap is used afterwards and no arena is owned.
    pub(crate) unsafe fn release(&self) {
        let (base, len) = self.reservation();
        if len != 0 {
            // SAFETY: the caller guarantees nothing uses the reservation any more.
            unsafe { os::release(base, len) };
        }
        // SAFETY: as above, for the nursery.
        unsafe { self.nursery.release() };
    }
}
