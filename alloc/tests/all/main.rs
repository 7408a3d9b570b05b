//! The slice allocator's integration tests, one module per feature.

mod adaptive;
mod carving;
mod churn;
mod drain;
mod fallbacks;
mod faults;
mod policy;
mod thp;
mod threads;

use std::alloc::Layout;

use slice_alloc::{HeapConfig, Policy, SliceHeap, ThpPolicy};

/// A heap with `arenas` arenas of `slice_bytes` slices under `policy`.
pub fn heap(slice_bytes: usize, arenas: usize, policy: Policy) -> SliceHeap {
    SliceHeap::new(HeapConfig {
        slice_bytes,
        arenas,
        policy,
    })
    .expect("the test heap is mapped")
}

/// A hybrid policy switching at `mib`.
pub fn hybrid(mib: u32) -> Policy {
    Policy {
        thp: ThpPolicy::Hybrid { switch_at_mib: mib },
        populate: false,
        collapse: false,
        drain: false,
    }
}

/// The adaptive policy: classes carve spans from one shared huge-page nursery.
pub fn adaptive() -> Policy {
    plain(ThpPolicy::Adaptive)
}

/// Every THP policy without ablations, for the behaviour they must share: the free list,
/// zeroing, realloc within a class.
pub fn every_policy() -> [Policy; 4] {
    [
        plain(ThpPolicy::NoHuge),
        hybrid(8),
        plain(ThpPolicy::Huge),
        adaptive(),
    ]
}

/// `policy` with remote frees drained at every step of the limit (`+drain`).
pub fn drained(policy: Policy) -> Policy {
    Policy {
        drain: true,
        ..policy
    }
}

/// A policy without ablations.
pub fn plain(thp: ThpPolicy) -> Policy {
    Policy {
        thp,
        populate: false,
        collapse: false,
        drain: false,
    }
}

/// `size` bytes, 16-aligned.
pub fn layout(size: usize) -> Layout {
    Layout::from_size_align(size, 16).expect("a valid layout")
}

pub const MIB: usize = 1 << 20;
