//! Arenas across threads: remote frees, parking and inheritance.

use std::collections::{BTreeMap, HashSet};
use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::thread;

use slice_alloc::{MAX_ARENAS, ThpPolicy};

use crate::{every_policy, heap, hybrid, layout, plain};

const THREADS: usize = 8;
const BLOCKS: usize = 3000;

fn size_of_block(i: usize) -> usize {
    16 * (i % 8 + 1)
}

#[test]
fn blocks_freed_remotely_by_eight_threads_are_neither_lost_nor_duplicated() {
    let heap = heap(1 << 20, THREADS, hybrid(8));
    let barrier = Barrier::new(THREADS);
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..THREADS)
        .map(|_| mpsc::channel::<(usize, usize)>())
        .unzip();
    let allocated: Vec<Vec<usize>> = thread::scope(|s| {
        let workers: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(t, inbox)| {
                let to_next = senders[(t + 1) % THREADS].clone();
                let (heap, barrier) = (&heap, &barrier);
                s.spawn(move || {
                    let arena = heap.claim().expect("eight arenas for eight threads");
                    barrier.wait();
                    let mut mine = Vec::new();
                    for i in 0..BLOCKS {
                        let p = arena.alloc(layout(size_of_block(i))) as *mut u64;
                        // SAFETY: a fresh block of at least 16 bytes.
                        unsafe { p.write(t as u64) };
                        // SAFETY: as above.
                        unsafe { p.add(1).write(i as u64) };
                        mine.push(p as usize);
                        to_next.send((p as usize, i)).unwrap();
                    }
                    drop(to_next);
                    let from = (t + THREADS - 1) % THREADS;
                    let mut seen = vec![false; BLOCKS];
                    for (p, i) in inbox.iter().take(BLOCKS) {
                        let p = p as *mut u64;
                        // SAFETY: the block was written by its sender and handed to us.
                        let (owner, seq) = unsafe { (p.read(), p.add(1).read()) };
                        assert_eq!((owner, seq), (from as u64, i as u64));
                        assert!(!seen[i], "block {i} received twice");
                        seen[i] = true;
                        // SAFETY: the block is ours to free, once; its arena is another's.
                        unsafe { arena.dealloc(p.cast(), layout(size_of_block(i))) };
                    }
                    assert!(seen.iter().all(|&s| s));
                    barrier.wait();
                    mine
                })
            })
            .collect();
        drop(senders);
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });

    let stats = heap.stats();
    let remote: u64 = (0..THREADS)
        .flat_map(|a| stats.arenas[a].iter())
        .map(|c| c.remote_frees)
        .sum();
    assert_eq!(remote, (THREADS * BLOCKS) as u64);

    // Claiming drains the remote stacks: every block comes back exactly once, without carving.
    let mut wanted: BTreeMap<(usize, usize), HashSet<usize>> = BTreeMap::new();
    for &p in allocated.iter().flatten() {
        let home = heap
            .locate(p as *const u8)
            .expect("every block is a slice block");
        assert!(
            wanted.entry(home).or_default().insert(p),
            "{p:#x} handed out twice"
        );
    }
    let carved_before: Vec<u64> = stats
        .arenas
        .iter()
        .flatten()
        .map(|c| c.carved_bytes)
        .collect();
    let handles: Vec<_> = (0..THREADS).map(|_| heap.claim().unwrap()).collect();
    for ((arena, class), blocks) in &wanted {
        let again: HashSet<usize> = (0..blocks.len())
            .map(|_| handles[*arena].alloc(layout(16 * (class + 1))) as usize)
            .collect();
        assert_eq!(&again, blocks, "arena {arena} class {class}");
    }
    let after = heap.stats();
    let carved_after: Vec<u64> = after
        .arenas
        .iter()
        .flatten()
        .map(|c| c.carved_bytes)
        .collect();
    assert_eq!(carved_before, carved_after, "nothing new was carved");
}

#[test]
fn a_new_thread_inherits_the_arena_an_exiting_thread_parked_under_every_policy() {
    for policy in every_policy() {
        let heap = Arc::new(heap(64 << 10, 2, policy));
        let first = {
            let heap = Arc::clone(&heap);
            thread::spawn(move || {
                let arena = heap.claim().unwrap();
                let [x, y, z] = [0; 3].map(|_| arena.alloc(layout(100)) as usize);
                // SAFETY: x came from this arena for 100 bytes.
                unsafe { arena.dealloc(x as *mut u8, layout(100)) };
                (arena.index(), x, y, z)
            })
            .join()
            .unwrap()
        };
        let (index, x, y, z) = first;
        // a free while the arena is parked goes to its remote stack
        // SAFETY: y is live, from this heap, for 100 bytes.
        unsafe { heap.dealloc(y as *mut u8, layout(100)) };
        let second = thread::spawn(move || {
            let arena = heap.claim().unwrap();
            let got = [0; 3].map(|_| arena.alloc(layout(100)) as usize);
            (arena.index(), got)
        })
        .join()
        .unwrap();
        assert_eq!(
            second.0, index,
            "{policy}: the lowest free arena is the parked one"
        );
        // the remote stack was drained onto the inherited free list at claim: y, then x, then
        // the bump pointer (adaptive: in the same nursery span) where the first thread left it
        assert_eq!(second.1, [y, x, z + 112], "{policy}");
    }
}

#[test]
fn all_arenas_can_be_held_and_the_next_claim_is_refused() {
    let heap = heap(4096, MAX_ARENAS, hybrid(8));
    let handles: Vec<_> = (0..MAX_ARENAS).map(|_| heap.claim().unwrap()).collect();
    let indices: Vec<_> = handles.iter().map(|h| h.index()).collect();
    assert_eq!(indices, (0..MAX_ARENAS).collect::<Vec<_>>());
    assert!(heap.claim().is_none());
    drop(handles);
    assert_eq!(heap.claim().unwrap().index(), 0);
    assert_eq!(heap.stats().totals.arenas_claimed, MAX_ARENAS as u32);
}

#[test]
fn the_slow_path_drains_remote_frees_before_falling_back() {
    let heap = heap(4096, 1, plain(ThpPolicy::NoHuge));
    let arena = heap.claim().unwrap();
    let blocks: Vec<_> = (0..256).map(|_| arena.alloc(layout(16))).collect();
    // SAFETY: both are live blocks of this heap for 16 bytes, freed once.
    unsafe {
        heap.dealloc(blocks[10], layout(16));
        heap.dealloc(blocks[20], layout(16));
    }
    assert_eq!(
        arena.alloc(layout(16)),
        blocks[20],
        "the last remote free comes first"
    );
    assert_eq!(arena.alloc(layout(16)), blocks[10]);
    let stats = heap.stats();
    assert_eq!(stats.arenas[0][0].remote_frees, 2);
    assert_eq!(stats.arenas[0][0].reuses, 2);
    assert_eq!(stats.totals.fallbacks.slice_exhausted, 0);
    assert_eq!(
        heap.locate(arena.alloc(layout(16))),
        None,
        "now the slice is spent"
    );
}
