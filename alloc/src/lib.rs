//! slice-alloc: public interface. The alloc helper replaces the body with the real allocator;
//! the names below are the contract that checker and compare build against.
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt;

/// Number of size classes (16..=512 bytes, step 16).
pub const CLASS_COUNT: usize = 32;
/// Most arenas one reservation holds.
pub const MAX_ARENAS: usize = 32;

/// When a slice gets MADV_HUGEPAGE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThpPolicy {
    NoHuge,
    Huge,
    Hybrid { switch_at_mib: u32 },
}

/// The policy read from `CHECKBENCH_SLICE` at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub thp: ThpPolicy,
    pub populate: bool,
    pub collapse: bool,
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.thp {
            ThpPolicy::NoHuge => write!(f, "nohuge")?,
            ThpPolicy::Huge => write!(f, "huge")?,
            ThpPolicy::Hybrid { switch_at_mib } => write!(f, "hybrid@{switch_at_mib}")?,
        }
        if self.populate {
            write!(f, "+populate")?;
        }
        if self.collapse {
            write!(f, "+collapse")?;
        }
        Ok(())
    }
}

/// Counters of one class of one arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassStats {
    pub allocs: u64,
    pub carved_bytes: u64,
    pub reuses: u64,
    pub remote_frees: u64,
    pub slow_paths: u64,
    pub switches: u64,
}

/// Requests served by the system allocator, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fallbacks {
    pub zero_size: u64,
    pub too_large: u64,
    pub over_aligned: u64,
    pub slice_exhausted: u64,
    pub no_arena: u64,
    pub no_reservation: u64,
}

/// A snapshot of every counter.
#[derive(Clone, Debug)]
pub struct Stats {
    pub policy: Policy,
    pub slice_bytes: usize,
    pub arenas_claimed: u32,
    pub classes: [[ClassStats; CLASS_COUNT]; MAX_ARENAS],
    pub fallbacks: Fallbacks,
}

/// The global allocator.
pub struct SliceAlloc;

// SAFETY: forwards to the system allocator until the real allocator lands.
unsafe impl GlobalAlloc for SliceAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed through unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed through unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The policy of the global instance, or `None` when `SliceAlloc` has never served a request.
pub fn policy() -> Option<Policy> {
    None
}

/// Every counter of the global instance, or `None` when it has never served a request.
pub fn stats() -> Option<Box<Stats>> {
    None
}
