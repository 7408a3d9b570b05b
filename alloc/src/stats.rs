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
        self.combine(other, |a, b| a + b);
    }

    /// Takes `base`'s counters off these, stopping at zero: what happened since `base`.
    pub fn subtract(&mut self, base: &ClassStats) {
        self.combine(base, u64::saturating_sub);
    }

    /// Each counter set to `op` of it and `other`'s: the one place that lists the counters.
    fn combine(&mut self, other: &ClassStats, op: impl Fn(u64, u64) -> u64) {
        self.allocs = op(self.allocs, other.allocs);
        self.carved_bytes = op(self.carved_bytes, other.carved_bytes);
        self.reuses = op(self.reuses, other.reuses);
        self.remote_frees = op(self.remote_frees, other.remote_frees);
        self.remote_drained = op(self.remote_drained, other.remote_drained);
        self.slow_paths = op(self.slow_paths, other.slow_paths);
        self.switches = op(self.switches, other.switches);
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

    /// Takes `base`'s counts off these, stopping at zero: what happened since `base`.
    pub fn subtract(&mut self, base: &Fallbacks) {
        let op = u64::saturating_sub;
        self.zero_size = op(self.zero_size, base.zero_size);
        self.too_large = op(self.too_large, base.too_large);
        self.over_aligned = op(self.over_aligned, base.over_aligned);
        self.slice_exhausted = op(self.slice_exhausted, base.slice_exhausted);
        self.no_arena = op(self.no_arena, base.no_arena);
        self.no_reservation = op(self.no_reservation, base.no_reservation);
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

    /// Takes `base`'s counters off these, stopping at zero: what happened since `base` (a
    /// forked child's own work, its parent's counters at the fork taken off). The heap's state
    /// (policy, sizes, arenas, the nursery's capacity) is kept as it is now.
    pub fn subtract(&mut self, base: &Totals) {
        for (class, at_base) in self.classes.iter_mut().zip(&base.classes) {
            class.subtract(at_base);
        }
        self.fallbacks.subtract(&base.fallbacks);
        self.advice_errors = self.advice_errors.saturating_sub(base.advice_errors);
        self.nursery_bytes = self.nursery_bytes.saturating_sub(base.nursery_bytes);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_since_a_base_are_the_counters_gained_and_the_state_as_it_is_now() {
        let mut base = Totals::zeroed(Policy::DEFAULT);
        base.classes[3].allocs = 10;
        base.classes[3].remote_drained = 4;
        base.fallbacks.too_large = 2;
        base.nursery_bytes = 1 << 20;
        let mut now = base;
        now.classes[3].allocs = 25;
        now.classes[3].remote_drained = 4;
        now.classes[5].switches = 1;
        now.fallbacks.too_large = 7;
        now.fallbacks.no_arena = 1;
        now.advice_errors = 3;
        now.arenas_claimed = 2;
        now.slice_bytes = 64 << 20;
        now.subtract(&base);
        assert_eq!(now.classes[3].allocs, 15);
        assert_eq!(now.classes[3].remote_drained, 0);
        assert_eq!(now.classes[5].switches, 1);
        assert_eq!(now.fallbacks.too_large, 5);
        assert_eq!(now.fallbacks.no_arena, 1);
        assert_eq!(now.advice_errors, 3);
        assert_eq!(now.nursery_bytes, 0);
        assert_eq!((now.arenas_claimed, now.slice_bytes), (2, 64 << 20));
    }

    #[test]
    fn a_counter_below_its_base_stops_at_zero() {
        let mut now = ClassStats::ZERO;
        now.allocs = 1;
        let mut base = ClassStats::ZERO;
        base.allocs = 5;
        now.subtract(&base);
        assert_eq!(now, ClassStats::ZERO);
    }
}
