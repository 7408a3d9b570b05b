//! The adaptive policy: classes of every arena carve small spans from one shared nursery; a
//! free finds a nursery block's arena and class in the span table. Everything the other
//! policies promise (remote frees, parking, exhaustion fallback, realloc within the class,
//! zeroing of recycled blocks, system blocks kept out of the classes) holds here too.

use std::collections::HashSet;
use std::sync::Barrier;
use std::thread;

use slice_alloc::{CLASS_COUNT, HUGE_PAGE, NURSERY_SMALL_PREFIX_BYTES, NURSERY_SPAN_BYTES};

use crate::{MIB, adaptive, heap, layout};

const SPAN: usize = NURSERY_SPAN_BYTES;

#[test]
fn classes_of_every_arena_take_spans_side_by_side_from_one_frontier() {
    let heap = heap(64 << 10, 2, adaptive());
    let (start, len) = heap.nursery().expect("adaptive maps a nursery");
    assert_eq!(start % HUGE_PAGE, 0);
    assert_eq!(
        len,
        2 * CLASS_COUNT * (64 << 10),
        "as large as the reservation"
    );
    let a = heap.claim().unwrap();
    let b = heap.claim().unwrap();
    let firsts = [
        (a.alloc(layout(16)), 0, 0),
        (b.alloc(layout(100)), 1, 6),
        (a.alloc(layout(512)), 0, 31),
        (b.alloc(layout(16)), 1, 0),
    ];
    for (i, &(p, arena, class)) in firsts.iter().enumerate() {
        assert_eq!(p as usize, start + i * SPAN, "span {i}");
        assert_eq!(heap.locate(p), Some((arena, class)));
        let (base, reserved) = heap.reservation();
        assert!(
            !(base..base + reserved).contains(&(p as usize)),
            "not in a slice"
        );
    }
    assert_eq!(heap.stats().totals.nursery_bytes, 4 * SPAN as u64);
}

#[test]
fn carving_is_contiguous_within_a_span_and_goes_on_at_the_frontier() {
    let heap = heap(1 << 20, 2, adaptive());
    let (start, _) = heap.nursery().unwrap();
    let a = heap.claim().unwrap();
    let b = heap.claim().unwrap();
    let size = 48; // does not divide the span: its last 32 bytes stay unused
    let per_span = SPAN / size;
    let blocks: Vec<usize> = (0..per_span)
        .map(|_| a.alloc(layout(size)) as usize)
        .collect();
    for (i, &p) in blocks.iter().enumerate() {
        assert_eq!(p, start + i * size);
    }
    let other = b.alloc(layout(size)) as usize;
    assert_eq!(other, start + SPAN, "another arena takes the next span");
    let next = a.alloc(layout(size)) as usize;
    assert_eq!(
        next,
        start + 2 * SPAN,
        "the spent span gives way to the frontier"
    );
    let stats = heap.stats();
    let class = stats.arenas[0][2];
    assert_eq!(class.carved_bytes, ((per_span + 1) * size) as u64);
    assert_eq!(class.allocs, (per_span + 1) as u64);
    assert_eq!(class.slow_paths, 2, "one per span");
}

#[test]
fn a_spent_nursery_sends_the_class_to_its_slice_then_to_the_system() {
    let heap = heap(4096, 1, adaptive());
    let (_, len) = heap.nursery().unwrap();
    assert_eq!(len, CLASS_COUNT * 4096);
    let arena = heap.claim().unwrap();
    let in_nursery = len / 16;
    let blocks: Vec<_> = (0..in_nursery + 256)
        .map(|_| arena.alloc(layout(16)))
        .collect();
    assert!(blocks.iter().all(|&p| heap.locate(p) == Some((0, 0))));
    assert_eq!(
        blocks[in_nursery] as usize,
        heap.slice_start(0, 0),
        "then the slice"
    );
    let spill = arena.alloc(layout(16));
    assert_eq!(heap.locate(spill), None);
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
    assert_eq!(stats.arenas[0][0].carved_bytes, (len + 4096) as u64);
    // SAFETY: both are live blocks of this heap for 16 bytes: one of the nursery, one of the
    // system.
    unsafe {
        arena.dealloc(blocks[7], layout(16));
        arena.dealloc(again, layout(16));
    }
    assert_eq!(
        arena.alloc(layout(16)),
        blocks[7],
        "nursery blocks are reused"
    );
}

#[test]
fn the_slow_path_drains_remote_frees_before_taking_a_new_span() {
    let heap = heap(64 << 10, 1, adaptive());
    let arena = heap.claim().unwrap();
    let blocks: Vec<_> = (0..SPAN / 16).map(|_| arena.alloc(layout(16))).collect();
    // SAFETY: both are live blocks of this heap for 16 bytes, freed once.
    unsafe {
        heap.dealloc(blocks[10], layout(16));
        heap.dealloc(blocks[20], layout(16));
    }
    assert_eq!(arena.alloc(layout(16)), blocks[20]);
    assert_eq!(arena.alloc(layout(16)), blocks[10]);
    assert_eq!(
        heap.stats().totals.nursery_bytes,
        SPAN as u64,
        "no second span yet"
    );
    let next = arena.alloc(layout(16)) as usize;
    assert_eq!(next, blocks[0] as usize + SPAN);
}

#[test]
fn blocks_of_eight_threads_freed_remotely_come_back_to_their_own_arena() {
    const THREADS: usize = 8;
    const BLOCKS: usize = 4000;
    let heap = heap(1 << 20, THREADS, adaptive());
    let barrier = Barrier::new(THREADS);
    let handed: Vec<(usize, Vec<(usize, usize)>)> = thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                let (heap, barrier) = (&heap, &barrier);
                s.spawn(move || {
                    let arena = heap.claim().unwrap();
                    barrier.wait();
                    let blocks = (0..BLOCKS)
                        .map(|i| {
                            let size = 16 * (i % 8 + 1);
                            (arena.alloc(layout(size)) as usize, size)
                        })
                        .collect::<Vec<_>>();
                    barrier.wait();
                    (arena.index(), blocks)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let all: HashSet<usize> = handed
        .iter()
        .flat_map(|(_, b)| b)
        .map(|&(p, _)| p)
        .collect();
    assert_eq!(all.len(), THREADS * BLOCKS, "no block was handed out twice");
    // every arena is parked now; another thread frees everything remotely
    for &(p, size) in handed.iter().flat_map(|(_, b)| b) {
        // SAFETY: each block is live, of this heap, for `size` bytes, freed once.
        unsafe { heap.dealloc(p as *mut u8, layout(size)) };
    }
    let stats = heap.stats();
    let remote: u64 = stats.arenas.iter().flatten().map(|c| c.remote_frees).sum();
    assert_eq!(remote, (THREADS * BLOCKS) as u64);
    let handles: Vec<_> = (0..THREADS).map(|_| heap.claim().unwrap()).collect();
    for (arena, blocks) in &handed {
        let arena = *arena;
        let mut wanted: Vec<usize> = blocks.iter().map(|&(p, _)| p).collect();
        let mut again: Vec<usize> = blocks
            .iter()
            .map(|&(_, size)| handles[arena].alloc(layout(size)) as usize)
            .collect();
        wanted.sort_unstable();
        again.sort_unstable();
        assert!(again == wanted, "arena {arena} gets its own blocks back");
    }
    assert_eq!(
        heap.stats().totals.nursery_bytes,
        stats.totals.nursery_bytes,
        "nothing new carved"
    );
}

#[test]
fn the_nursery_is_small_paged_for_its_first_2_mib_and_huge_after() {
    let heap = heap(MIB, 1, adaptive());
    let (start, len) = heap.nursery().unwrap();
    assert!(len > 2 * NURSERY_SMALL_PREFIX_BYTES);
    let head = crate::thp::vm_flags(start);
    assert!(
        crate::thp::has(&head, "nh") && !crate::thp::has(&head, "hg"),
        "{head:?}"
    );
    let tail = crate::thp::vm_flags(start + NURSERY_SMALL_PREFIX_BYTES);
    assert!(
        crate::thp::has(&tail, "hg") && !crate::thp::has(&tail, "nh"),
        "{tail:?}"
    );
    let (base, _) = heap.reservation();
    let slices = crate::thp::vm_flags(base);
    assert!(
        crate::thp::has(&slices, "nh"),
        "the slices stay small: {slices:?}"
    );
}
