#![doc = include_str!("../README.md")]

mod global;
mod heap;
mod instance;
mod nursery;
mod os;
mod policy;
pub mod probe;
mod stats;

pub use global::raw;
pub use global::{
    SliceAlloc, current_arena, policy, release_arena, reservation, stats, totals_into,
};
pub use instance::{ArenaHandle, HeapConfig, HeapError, MIN_HEAP_SLICE_BYTES, SliceHeap};
pub use nursery::{
    SMALL_PREFIX_BYTES as NURSERY_SMALL_PREFIX_BYTES, SPAN_BYTES as NURSERY_SPAN_BYTES,
};
pub use os::minor_faults;
pub use policy::{
    DEFAULT_SWITCH_MIB, MAX_SWITCH_MIB, POLICY_ENV, ParsePolicyError, Policy, ThpPolicy,
};
pub use stats::{ClassStats, Fallbacks, Stats, Totals};

/// log2 of the smallest block, which is also the block alignment.
pub const BLOCK_SHIFT: u32 = 4;
/// Smallest block and block alignment: 16 B.
pub const BLOCK_ALIGN: usize = 1 << BLOCK_SHIFT; // 16 B
/// log2 of the number of classes.
pub const CLASS_BITS: u32 = 5;
/// Number of size classes (16..=512 bytes, step 16).
pub const CLASS_COUNT: usize = 1 << CLASS_BITS; // 32
/// Largest request a class serves: 512 B.
pub const MAX_SMALL: usize = CLASS_COUNT << BLOCK_SHIFT; // 512 B
/// Most arenas one reservation holds.
pub const MAX_ARENAS: usize = 32;
/// A transparent huge page, and the reservation's alignment: 2 MiB.
pub const HUGE_PAGE: usize = 1 << 21; // 2 MiB
/// How far ahead of the bump pointer `+populate` prefaults small pages, one slow path per step.
pub const POPULATE_STEP: usize = 1 << 20; // 1 MiB
/// How far the limit of a `+drain` slice moves at a time: every step's slow path takes the
/// class's remote stack before carving on, so a class carves at most this much past the moment
/// its remote stack last held a block.
pub const DRAIN_STEP: usize = 1 << 16; // 64 KiB
/// log2 of the first slice size the global instance tries: 1 GiB (a 1 TiB reservation).
pub const MAX_SLICE_SHIFT: u32 = 30; // 1 GiB
/// log2 of the last slice size the global instance tries: 4 MiB (a 4 GiB reservation).
pub const MIN_SLICE_SHIFT: u32 = 22; // 4 MiB
