//! Requests the slices do not serve go to the system allocator, and stay there.

use std::alloc::Layout;

use slice_alloc::{Fallbacks, HeapConfig, HeapError, SliceHeap, ThpPolicy};

use crate::{heap, hybrid, layout, plain};

#[test]
fn an_exhausted_slice_falls_back_and_system_blocks_never_enter_the_class() {
    let heap = heap(4096, 1, plain(ThpPolicy::NoHuge));
    let arena = heap.claim().unwrap();
    let blocks: Vec<_> = (0..256).map(|_| arena.alloc(layout(16))).collect();
    assert!(blocks.iter().all(|&p| heap.locate(p) == Some((0, 0))));
    let spill = arena.alloc(layout(16));
    assert_eq!(heap.locate(spill), None);
    assert_eq!(heap.stats().totals.fallbacks.slice_exhausted, 1);
    // SAFETY: spill came from this heap for 16 bytes.
    unsafe { arena.dealloc(spill, layout(16)) };
    let again = arena.alloc(layout(16));
    assert_eq!(
        heap.locate(again),
        None,
        "the freed system block was not listed"
    );
    let stats = heap.stats();
    assert_eq!(stats.totals.fallbacks.slice_exhausted, 2);
    assert_eq!(stats.arenas[0][0].reuses, 0);
    // SAFETY: blocks[7] is a live slice block for 16 bytes; again a system one.
    unsafe {
        arena.dealloc(blocks[7], layout(16));
        arena.dealloc(again, layout(16));
    }
    assert_eq!(
        arena.alloc(layout(16)),
        blocks[7],
        "slice blocks are reused"
    );
}

#[test]
fn a_thread_without_an_arena_uses_the_system_allocator() {
    let heap = heap(4096, 2, hybrid(8));
    let a = heap.claim().unwrap();
    let _b = heap.claim().unwrap();
    assert!(heap.claim().is_none());
    let p = heap.alloc(layout(32));
    assert!(!p.is_null());
    assert_eq!(heap.locate(p), None);
    assert_eq!(heap.stats().totals.fallbacks.no_arena, 1);
    // SAFETY: p came from this heap for 32 bytes.
    unsafe { heap.dealloc(p, layout(32)) };
    drop(a);
    assert_eq!(heap.claim().map(|h| h.index()), Some(0));
}

#[test]
fn zero_size_large_and_over_aligned_requests_go_to_the_system() {
    let heap = heap(4096, 1, hybrid(8));
    let arena = heap.claim().unwrap();
    let requests = [
        Layout::from_size_align(0, 1).unwrap(),
        Layout::from_size_align(0, 64).unwrap(),
        Layout::from_size_align(513, 16).unwrap(),
        Layout::from_size_align(1 << 20, 8).unwrap(),
        Layout::from_size_align(64, 32).unwrap(),
    ];
    for layout in requests {
        let p = arena.alloc(layout);
        assert!(!p.is_null());
        assert_eq!(p as usize % layout.align(), 0);
        assert_eq!(heap.locate(p), None, "{layout:?}");
        // SAFETY: p came from this heap for layout.
        unsafe { arena.dealloc(p, layout) };
    }
    assert_eq!(
        heap.stats().totals.fallbacks,
        Fallbacks {
            zero_size: 2,
            too_large: 2,
            over_aligned: 1,
            ..Fallbacks::default()
        }
    );
}

#[test]
fn bad_heap_shapes_are_refused_with_a_reason() {
    let make = |slice_bytes, arenas| {
        SliceHeap::new(HeapConfig {
            slice_bytes,
            arenas,
            policy: hybrid(8),
        })
        .err()
    };
    assert_eq!(make(3000, 1), Some(HeapError::SliceBytes(3000)));
    assert_eq!(make(2048, 1), Some(HeapError::SliceBytes(2048)));
    assert_eq!(make(4096, 0), Some(HeapError::Arenas(0)));
    assert_eq!(make(4096, 33), Some(HeapError::Arenas(33)));
    assert_eq!(
        make(1 << 62, 32),
        Some(HeapError::Overflow {
            slice_bytes: 1 << 62,
            arenas: 32
        })
    );
    let refused = make(1 << 40, 32).expect("a PiB of address space cannot be mapped");
    assert!(refused.to_string().contains("reserving"), "{refused}");
}
