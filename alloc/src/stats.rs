//! Counters, as the allocator keeps them (atomics written without read-modify-write by the
//! owner) and as readers see them (plain snapshots).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::CLASS_COUNT;
use crate::policy::Policy;

/// Counters of one class of one arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassStats {
    /// Blocks handed out by this class: carved plus reused.
    pub allocs: u64,
    /// Bytes carved: how far the bump pointer has advanced from the slice start, plus, under
    /// `adaptive`, the carved part of every nursery span the class took.
    pub carved_bytes: u64,
    /// Blocks handed out again from the free list.
    pub reuses: u64,
    /// Blocks freed by a thread that did not own the arena (pushed on its remote stack).
    pub remote_frees: u64,
    /// Remote frees the owner has moved from the remote stack to its free list (in its slow
    /// path, or when it claimed the arena). `remote_frees - remote_drained` blocks are waiting
    /// on the stack, unusable until the owner's next slow path.
    pub remote_drained: u64,
    /// Calls of the slow path (first use, limit reached, exhaustion).
    pub slow_paths: u64,
    /// Switch-point crossings (0 or 1 per slice, hybrid policies only).
    pub switches: u64,
}

impl ClassStats {
    /// All counters zero.
    pub const ZERO: ClassStats = ClassStats {
        allocs: 0,
        carved_bytes: 0,
        reuses: 0,
        remote_frees: 0,
        remote_drained: 0,
        slow_paths: 0,
        switches: 0,
    };

    /// Adds `other`'s counters to these.
    pub fn add(&mut self, other: &ClassStats) {
        self.allocs += other.allocs;
        self.carved_bytes += other.carved_bytes;
        self.reuses += other.reuses;
        self.remote_frees += other.remote_frees;
        self.remote_drained += other.remote_drained;
        self.slow_paths += other.slow_paths;
        self.switches += other.switches;
    }
}

/// Requests served by the system allocator, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fallbacks {
    /// Size 0.
    pub zero_size: u64,
    /// Over 512 bytes.
    pub too_large: u64,
    /// Alignment over 16 bytes.
    pub over_aligned: u64,
    /// The class slice was full and its free and remote lists empty.
    pub slice_exhausted: u64,
    /// The thread holds no arena (all taken, or the thread is exiting).
    pub no_arena: u64,
    /// There is no reservation (the mapping was refused, or is still being made).
    pub no_reservation: u64,
}

impl Fallbacks {
    /// No fallback.
    pub const ZERO: Fallbacks = Fallbacks {
        zero_size: 0,
        too_large: 0,
        over_aligned: 0,
        slice_exhausted: 0,
        no_arena: 0,
        no_reservation: 0,
    };

    /// Every fallback, whatever the reason.
    pub fn total(&self) -> u64 {
        self.zero_size
            + self.too_large
            + self.over_aligned
            + self.slice_exhausted
            + self.no_arena
            + self.no_reservation
    }
}

/// Every counter summed over arenas, with the heap's state: what a process reports at its
/// exit. Fixed-size (1.6 KiB) and read without allocating, so a statistics line costs its
/// process a page or two, not a per-arena snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Totals {
    /// The policy the heap runs.
    pub policy: Policy,
    /// Bytes per class slice (0 without a reservation).
    pub slice_bytes: usize,
    /// Arenas claimed at least once.
    pub arenas_claimed: u32,
    /// Per class, summed over arenas.
    pub classes: [ClassStats; CLASS_COUNT],
    /// Requests the system allocator served, by reason.
    pub fallbacks: Fallbacks,
    /// Bytes of the reservation (0 without one).
    pub reservation_bytes: usize,
    /// `madvise` calls the kernel refused.
    pub advice_errors: u64,
    /// Bytes of nursery spans handed out (the `adaptive` policy; 0 under the others).
    pub nursery_bytes: u64,
    /// Bytes of spans the nursery holds (0: no nursery).
    pub nursery_capacity_bytes: u64,
}

impl Totals {
    /// All counters zero.
    pub const fn zeroed(policy: Policy) -> Totals {
        Totals {
            policy,
            slice_bytes: 0,
            arenas_claimed: 0,
            classes: [ClassStats::ZERO; CLASS_COUNT],
            fallbacks: Fallbacks::ZERO,
            reservation_bytes: 0,
            advice_errors: 0,
            nursery_bytes: 0,
            nursery_capacity_bytes: 0,
        }
    }
}

/// A snapshot of every counter: the totals and each arena's own.
#[derive(Clone, Debug)]
pub struct Stats {
    /// The counters summed over arenas, and the heap's state.
    pub totals: Totals,
    /// Per arena, per class, up to the last arena ever claimed (at most
    /// [`MAX_ARENAS`](crate::MAX_ARENAS)); an arena never claimed has zero counters.
    pub arenas: Vec<[ClassStats; CLASS_COUNT]>,
}

impl Stats {
    /// All counters zero, no arena.
    pub fn zeroed(policy: Policy) -> Stats {
        Stats {
            totals: Totals::zeroed(policy),
            arenas: Vec::new(),
        }
    }

    /// The counters of one class summed over arenas.
    pub fn class_total(&self, class: usize) -> ClassStats {
        self.totals.classes[class]
    }
}

/// Why a request went to the system allocator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    ZeroSize,
    TooLarge,
    OverAligned,
    SliceExhausted,
    NoArena,
    NoReservation,
}

/// [`Fallbacks`] as atomics.
pub(crate) struct FallbackCounters([AtomicU64; 6]);

impl FallbackCounters {
    pub(crate) const fn new() -> Self {
        FallbackCounters([const { AtomicU64::new(0) }; 6])
    }

    /// Counts one fallback from the owner of these counters (no read-modify-write).
    pub(crate) fn add_owned(&self, reason: Reason) {
        add_owned(&self.0[reason as usize]);
    }

    /// Counts one fallback from any thread.
    pub(crate) fn add_shared(&self, reason: Reason) {
        self.0[reason as usize].fetch_add(1, Relaxed);
    }

    /// Adds these counters to `out`.
    pub(crate) fn sum_into(&self, out: &mut Fallbacks) {
        let get = |reason: Reason| self.0[reason as usize].load(Relaxed);
        out.zero_size += get(Reason::ZeroSize);
        out.too_large += get(Reason::TooLarge);
        out.over_aligned += get(Reason::OverAligned);
        out.slice_exhausted += get(Reason::SliceExhausted);
        out.no_arena += get(Reason::NoArena);
        out.no_reservation += get(Reason::NoReservation);
    }
}

/// Adds one to a counter only its owner writes: a load and a store, no locked instruction.
#[inline(always)]
pub(crate) fn add_owned(counter: &AtomicU64) {
    counter.store(counter.load(Relaxed) + 1, Relaxed);
}
