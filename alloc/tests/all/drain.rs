//! `+drain`: remote frees taken at every step of the limit, against the reference's behaviour
//! of taking them only when the limit is reached.

use std::sync::mpsc;
use std::thread;

use slice_alloc::{ClassStats, DRAIN_STEP, Policy, ThpPolicy};

use crate::{MIB, drained, heap, hybrid, layout, plain};

/// Blocks of 64 bytes: class 3.
const SIZE: usize = 64;
const CLASS: usize = SIZE / 16 - 1;
const BATCH: usize = 1000;
const ROUNDS: usize = 200;

/// One thread allocates a batch, another frees it (remotely) and answers; `ROUNDS` times, so
/// at most one batch is ever live. Returns the class's counters in the producer's arena.
fn producer_and_remote_consumer(policy: Policy) -> ClassStats {
    let heap = heap(16 * MIB, 1, policy);
    let (to_consumer, batches) = mpsc::sync_channel::<Vec<usize>>(0);
    let (to_producer, acks) = mpsc::sync_channel::<()>(0);
    thread::scope(|s| {
        let heap = &heap;
        s.spawn(move || {
            for batch in batches {
                for p in batch {
                    // SAFETY: a live block of this heap for SIZE bytes, handed to us; this
                    // thread holds no arena, so the free is remote.
                    unsafe { heap.dealloc(p as *mut u8, layout(SIZE)) };
                }
                to_producer.send(()).unwrap();
            }
        });
        let arena = heap.claim().expect("one arena for the producer");
        for _ in 0..ROUNDS {
            let batch: Vec<usize> = (0..BATCH)
                .map(|_| arena.alloc(layout(SIZE)) as usize)
                .collect();
            assert!(
                batch
                    .iter()
                    .all(|&p| heap.locate(p as *const u8) == Some((0, CLASS)))
            );
            to_consumer.send(batch).unwrap();
            acks.recv().unwrap();
        }
        drop(to_consumer);
        heap.stats().arenas[0][CLASS]
    })
}

#[test]
fn without_drain_blocks_freed_by_another_thread_wait_and_the_producer_carves_all_it_allocates() {
    for policy in [plain(ThpPolicy::NoHuge), plain(ThpPolicy::Huge)] {
        let class = producer_and_remote_consumer(policy);
        assert_eq!(class.remote_frees, (ROUNDS * BATCH) as u64, "{policy}");
        assert_eq!(
            class.remote_drained, 0,
            "{policy}: the limit is never reached"
        );
        assert_eq!(class.reuses, 0, "{policy}");
        assert_eq!(
            class.carved_bytes,
            (ROUNDS * BATCH * SIZE) as u64,
            "{policy}"
        );
    }
}

#[test]
fn with_drain_blocks_freed_by_another_thread_are_reused_and_carved_bytes_stay_bounded() {
    // At most one batch is live; each step carves at most DRAIN_STEP past the last drain.
    let bound = (2 * (BATCH * SIZE + DRAIN_STEP)) as u64;
    for policy in [plain(ThpPolicy::NoHuge), plain(ThpPolicy::Huge), hybrid(8)] {
        let policy = drained(policy);
        let class = producer_and_remote_consumer(policy);
        let total = (ROUNDS * BATCH) as u64;
        assert_eq!(class.remote_frees, total, "{policy}");
        assert!(
            class.carved_bytes <= bound,
            "{policy}: carved {}",
            class.carved_bytes
        );
        assert!(
            class.remote_drained + BATCH as u64 >= total,
            "{policy}: drained {} of {total}",
            class.remote_drained
        );
        assert_eq!(class.allocs, total, "{policy}");
        assert_eq!(
            class.reuses,
            total - class.carved_bytes / SIZE as u64,
            "{policy}"
        );
    }
}

#[test]
fn with_nothing_queued_a_drain_slice_carves_contiguously_with_one_slow_path_per_step() {
    let heap = heap(16 * MIB, 1, drained(hybrid(8)));
    let arena = heap.claim().unwrap();
    let start = heap.slice_start(0, CLASS);
    let carved = 10 * MIB;
    let mut previous = arena.alloc(layout(SIZE)) as usize;
    assert_eq!(previous, start);
    for _ in 1..carved / SIZE {
        let p = arena.alloc(layout(SIZE)) as usize;
        assert_eq!(p, previous + SIZE, "carving jumped after {previous:#x}");
        previous = p;
    }
    let class = heap.stats().arenas[0][CLASS];
    assert_eq!(class.carved_bytes, carved as u64);
    assert_eq!(class.switches, 1, "the switch point is still crossed once");
    assert_eq!(
        class.slow_paths,
        (carved / DRAIN_STEP) as u64,
        "first use, then one per step (the switch is one of them)"
    );
    assert_eq!((class.remote_frees, class.remote_drained), (0, 0));
}

#[test]
fn a_drain_slice_still_falls_back_to_the_system_when_full() {
    let heap = heap(4096, 1, drained(plain(ThpPolicy::NoHuge)));
    let arena = heap.claim().unwrap();
    let blocks: Vec<_> = (0..4096 / SIZE)
        .map(|_| arena.alloc(layout(SIZE)))
        .collect();
    assert!(blocks.iter().all(|&p| heap.locate(p).is_some()));
    let spilled = arena.alloc(layout(SIZE));
    assert_eq!(heap.locate(spilled), None);
    // SAFETY: a system block of this heap for SIZE bytes, freed once.
    unsafe { arena.dealloc(spilled, layout(SIZE)) };
    assert_eq!(heap.stats().totals.fallbacks.slice_exhausted, 1);
}
