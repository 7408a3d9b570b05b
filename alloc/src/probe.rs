//! The fault measurement the reference reports: touch 64 MiB of one class of a fresh heap and
//! count the calling thread's minor faults.

use std::alloc::Layout;
use std::time::{Duration, Instant};

use crate::instance::{HeapConfig, HeapError, MIN_HEAP_SLICE_BYTES, SliceHeap};
use crate::policy::Policy;
use crate::{MAX_SMALL, os};

/// What touching a class cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultProbe {
    /// Minor page faults of the thread while allocating and writing.
    pub minor_faults: u64,
    /// Wall time of the same span.
    pub elapsed: Duration,
    /// Switch-point crossings of the slice (1 under hybrid when `bytes` passes the switch).
    pub switches: u64,
}

/// Allocates `bytes` of 512-byte blocks from a fresh one-arena heap under `policy` (slices of
/// twice `bytes`, so the slice never fills) and writes the first byte of each block.
pub fn touch_class(policy: Policy, bytes: usize) -> Result<FaultProbe, HeapError> {
    let heap = SliceHeap::new(HeapConfig {
        slice_bytes: (bytes * 2).next_power_of_two().max(MIN_HEAP_SLICE_BYTES),
        arenas: 1,
        policy,
    })?;
    let arena = heap.claim().expect("a fresh heap has a free arena");
    let layout = Layout::from_size_align(MAX_SMALL, 16).expect("512 bytes, 16-aligned");
    let before = os::minor_faults();
    let start = Instant::now();
    for _ in 0..bytes / MAX_SMALL {
        let block = arena.alloc(layout);
        // SAFETY: a fresh block of 512 bytes, ours to write.
        unsafe { block.write_volatile(1) };
    }
    let elapsed = start.elapsed();
    let minor_faults = os::minor_faults() - before;
    drop(arena);
    let switches = heap.stats().class_total(MAX_SMALL / 16 - 1).switches;
    Ok(FaultProbe {
        minor_faults,
        elapsed,
        switches,
    })
}
