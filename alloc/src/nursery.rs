//! The nursery of the `adaptive` policy: one huge-page region shared by every arena and class,
//! handed out in small spans from a single frontier.
//!
//! Why: under `huge` every class slice of every arena keeps the 2 MiB page around its own bump
//! pointer resident, up to 32 partly touched huge pages per arena; that, not the moment of the
//! advice, is what `huge` costs in memory. Here classes carve [`SPAN_BYTES`] spans that lie
//! side by side in one region, so the whole process has one partly touched huge page (the one
//! at the frontier) plus the unused tails of its classes' current spans. The first
//! [`SMALL_PREFIX_BYTES`] of the region stay on small pages, so a process whose small blocks
//! fit there takes no huge page at all.
//!
//! Terms (see the crate's glossary for the rest):
//! - **nursery**: one no-reserve mapping, 2 MiB aligned: the span table, then the spans.
//! - **span**: [`SPAN_BYTES`] of the nursery that one class of one arena carves, block after
//!   block, exactly as it would carve its slice; its bump limit is the span end.
//! - **frontier**: the next span to hand out; one atomic for the whole process, moved only in
//!   the slow path (one `fetch_add` per span).
//! - **span table**: one `u16` per span naming its arena and class, written by the thread that
//!   takes the span before it hands out the span's first block. It is how a free finds the
//!   class of a nursery block: the address rule `(p - base) >> shift` holds for the slices,
//!   the table for the nursery.
//!
//! Nothing goes back to the nursery: a freed block stays on its class's free list, as in a
//! slice. When the nursery is spent, a class carves its own slice (small pages), then falls
//! back to the system allocator.

use std::sync::atomic::{AtomicU16, AtomicU64, AtomicUsize, Ordering::*};

use crate::os::{self, Advice};
use crate::{CLASS_BITS, CLASS_COUNT, HUGE_PAGE, MAX_ARENAS};

/// log2 of [`SPAN_BYTES`].
pub const SPAN_SHIFT: u32 = 12; // 4 KiB
/// What a class takes from the nursery at a time: 4 KiB, one small page. A span's unused
/// tail is resident (it lies in a huge page), so the span is kept as small as a page: the
/// tails of every class's current span then cost about what the partly touched last pages
/// of the slices cost under `nohuge` (measured on trpc at 8 checkers, 327 classes in use:
/// 0.7 MiB more than nohuge's pages with 4 KiB spans, 1.4 MiB with 8 KiB).
/// The frontier moves once per 8 to 256 blocks.
pub const SPAN_BYTES: usize = 1 << SPAN_SHIFT; // 4 KiB
/// The start of the nursery that stays on small pages: 2 MiB.
pub const SMALL_PREFIX_BYTES: usize = HUGE_PAGE; // 2 MiB
/// Most address space the nursery of the global instance asks for: 64 GiB.
pub const MAX_NURSERY_BYTES: usize = 1 << 36; // 64 GiB
/// The nursery is not mapped below this size (the policy then behaves as `nohuge`): 4 MiB.
pub const MIN_NURSERY_BYTES: usize = 1 << 22; // 4 MiB

/// The nursery: its mapping, its frontier, its span table and what each class has carved of it.
pub(crate) struct Nursery {
    /// First span, 2 MiB aligned (0: no nursery).
    spans: AtomicUsize,
    /// Bytes of spans (0: no nursery). Stored last (Release), loaded first (Acquire).
    len: AtomicUsize,
    /// Start of the mapping, where the span table lies (one `u16` per span).
    table: AtomicUsize,
    /// Bytes of the mapping: the table rounded up to 2 MiB, then the spans.
    mapped: AtomicUsize,
    /// Offset of the next span from `spans`; may pass `len` once the nursery is spent.
    frontier: AtomicUsize,
    /// Per arena and class: bytes carved from the spans it has left behind. Written by the
    /// arena's owner only.
    retired: [[AtomicU64; CLASS_COUNT]; MAX_ARENAS],
}

/// A span table entry: 0 for a span not handed out, else `1 + (arena << 5 | class)`.
#[inline(always)]
fn entry(arena: usize, class: usize) -> u16 {
    1 + ((arena << CLASS_BITS) | class) as u16
}

impl Nursery {
    pub(crate) const fn new() -> Self {
        Nursery {
            spans: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            table: AtomicUsize::new(0),
            mapped: AtomicUsize::new(0),
            frontier: AtomicUsize::new(0),
            retired: [const { [const { AtomicU64::new(0) }; CLASS_COUNT] }; MAX_ARENAS],
        }
    }

    /// Maps a nursery of `capacity` bytes of spans (rounded down to whole spans), halving it
    /// while the kernel refuses, down to [`MIN_NURSERY_BYTES`] or `capacity` if smaller, and
    /// gives its advice through `advise`: small pages for the table and the first
    /// [`SMALL_PREFIX_BYTES`] of spans, huge pages for the rest. `false` when nothing could be
    /// mapped: every class then carves its own slice.
    pub(crate) fn map(&self, capacity: usize, advise: impl Fn(usize, usize, Advice)) -> bool {
        let floor = MIN_NURSERY_BYTES.min(capacity);
        let mut spans_len = capacity / SPAN_BYTES * SPAN_BYTES;
        while spans_len >= floor.max(SPAN_BYTES) {
            let table_len =
                ((spans_len / SPAN_BYTES) * size_of::<u16>()).next_multiple_of(HUGE_PAGE);
            if let Ok(start) = os::reserve(table_len + spans_len) {
                let spans = start + table_len;
                let prefix = SMALL_PREFIX_BYTES.min(spans_len);
                advise(start, table_len + prefix, Advice::NoHuge);
                advise(spans + prefix, spans_len - prefix, Advice::Huge);
                self.table.store(start, Relaxed);
                self.mapped.store(table_len + spans_len, Relaxed);
                self.spans.store(spans, Relaxed);
                self.len.store(spans_len, Release);
                return true;
            }
            spans_len = spans_len / 2 / SPAN_BYTES * SPAN_BYTES;
        }
        false
    }

    /// The arena and class of a nursery block, from the span table; `None` for an address
    /// outside the nursery.
    #[inline(always)]
    pub(crate) fn locate(&self, p: usize) -> Option<(usize, usize)> {
        let len = self.len.load(Acquire);
        let offset = p.wrapping_sub(self.spans.load(Relaxed));
        if offset >= len {
            return None;
        }
        let slot = self.table.load(Relaxed) as *const AtomicU16;
        // SAFETY: offset < len, so the span index is below the table's entry count, and the
        // table lies in our live mapping; AtomicU16 has the layout of u16. The entry was
        // written before the block was first handed out, which happens before any free of it.
        let e = unsafe { &*slot.add(offset >> SPAN_SHIFT) }.load(Relaxed) as usize;
        debug_assert!(e != 0, "a free of an address in a span never handed out");
        let e = e.wrapping_sub(1);
        Some((e >> CLASS_BITS, e & (CLASS_COUNT - 1)))
    }

    /// The next span for `class` of arena `arena`, its table entry written; `None` when the
    /// nursery is spent (or was never mapped). `old` is the class's current `(bump, limit)` in
    /// the nursery, if any: what it carved there is retired first.
    pub(crate) fn take(
        &self,
        arena: usize,
        class: usize,
        old: Option<(usize, usize)>,
    ) -> Option<usize> {
        if let Some((bump, limit)) = old {
            let carved = &self.retired[arena][class];
            let used = bump - (limit - SPAN_BYTES);
            carved.store(carved.load(Relaxed) + used as u64, Relaxed);
        }
        let len = self.len.load(Acquire);
        if len == 0 {
            return None;
        }
        let offset = self.frontier.fetch_add(SPAN_BYTES, Relaxed);
        if offset >= len {
            return None;
        }
        let table = self.table.load(Relaxed) as *const AtomicU16;
        // SAFETY: offset < len, so the index is inside the table of our live mapping.
        unsafe { &*table.add(offset >> SPAN_SHIFT) }.store(entry(arena, class), Relaxed);
        Some(self.spans.load(Relaxed) + offset)
    }

    /// Whether `limit` is the end of a nursery span (so the class carves in the nursery).
    #[inline]
    pub(crate) fn holds_limit(&self, limit: usize) -> bool {
        limit.wrapping_sub(self.spans.load(Relaxed) + 1) < self.len.load(Acquire)
    }

    /// Bytes `class` of arena `arena` has carved from the nursery, given its current
    /// `(bump, limit)`.
    pub(crate) fn carved(&self, arena: usize, class: usize, bump: usize, limit: usize) -> u64 {
        let current = if self.holds_limit(limit) {
            bump.saturating_sub(limit - SPAN_BYTES) as u64
        } else {
            0
        };
        self.retired[arena][class].load(Relaxed) + current
    }

    /// `(start, len)` of the spans, if the nursery is mapped.
    pub(crate) fn spans(&self) -> Option<(usize, usize)> {
        let len = self.len.load(Acquire);
        (len != 0).then(|| (self.spans.load(Relaxed), len))
    }

    /// Bytes of spans handed out so far.
    pub(crate) fn used_bytes(&self) -> usize {
        self.frontier.load(Relaxed).min(self.len.load(Acquire))
    }

    /// Bytes of spans the nursery holds (0: none).
    pub(crate) fn capacity_bytes(&self) -> usize {
        self.len.load(Acquire)
    }

    /// Unmaps the nursery.
    ///
    /// # Safety
    /// No block of the nursery is used afterwards.
    pub(crate) unsafe fn release(&self) {
        let mapped = self.mapped.load(Relaxed);
        if mapped != 0 {
            // SAFETY: the caller guarantees nothing uses the nursery any more; the range is
            // the mapping `map` made.
            unsafe { os::release(self.table.load(Relaxed), mapped) };
        }
    }
}
