//! Threads: remote frees, parking at exit and inheriting, more threads than arenas.

use std::sync::{Arc, Barrier};
use std::thread;

use crate::{child_line, from_slice, in_child, number, run_preloaded};

/// `count` blocks of 1..=512 bytes, each holding its own address in its first word.
fn allocate(count: usize) -> Vec<usize> {
    (0..count)
        .map(|i| {
            let n = 8 + i % 505;
            // SAFETY: a fresh block of n >= 8 bytes, written in its first word.
            unsafe {
                let p = crate::c::malloc(n);
                assert!(!p.is_null());
                p.cast::<usize>().write(p as usize);
                p as usize
            }
        })
        .collect()
}

/// Checks and frees blocks made by [`allocate`], on whatever thread calls it.
fn check_and_free(blocks: Vec<usize>) {
    for p in blocks {
        // SAFETY: a live block of allocate's, freed once.
        unsafe {
            assert_eq!(
                (p as *const usize).read(),
                p,
                "a block was handed out twice"
            );
            crate::c::free(p as *mut libc::c_void);
        }
    }
}

#[test]
fn threads_free_each_others_blocks_and_park_their_arenas_at_exit() {
    if in_child() {
        for _round in 0..3 {
            let made: Vec<Vec<usize>> = (0..8)
                .map(|_| thread::spawn(|| allocate(5000)))
                .collect::<Vec<_>>()
                .into_iter()
                .map(|h| h.join().expect("an allocating thread"))
                .collect();
            // Fresh threads free them: remote frees, except where a freeing thread happens to
            // claim the parked arena the blocks came from.
            let frees: Vec<_> = made
                .into_iter()
                .map(|blocks| thread::spawn(move || check_and_free(blocks)))
                .collect();
            for h in frees {
                h.join().expect("a freeing thread");
            }
        }
        return;
    }
    let lines = run_preloaded(
        "threads::threads_free_each_others_blocks_and_park_their_arenas_at_exit",
        "hybrid",
    );
    let line = child_line(&lines);
    assert!(number(line, "remote_frees") > 0, "{line}");
    // 48 threads ran, at most 16 at once, plus the harness's: parked arenas were claimed again.
    let claimed = number(line, "arenas_claimed");
    assert!((1..=20).contains(&claimed), "{claimed} arenas: {line}");
    assert!(
        number(line, "reuses") > 0,
        "inherited free lists were used: {line}"
    );
}

#[test]
fn threads_beyond_the_arenas_fall_back_to_glibc_and_free_correctly() {
    if in_child() {
        let threads = 40;
        let barrier = Arc::new(Barrier::new(threads));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = Arc::clone(&barrier);
                thread::spawn(move || {
                    let blocks = allocate(2000);
                    barrier.wait();
                    let first = blocks[0] as *mut libc::c_void;
                    // SAFETY: the thread's first block, still live.
                    (blocks, unsafe { from_slice(first) })
                })
            })
            .collect();
        let mut in_slices = 0;
        for h in handles {
            let (blocks, sliced) = h.join().expect("a thread");
            in_slices += usize::from(sliced);
            check_and_free(blocks);
        }
        assert!(
            (1..=32).contains(&in_slices),
            "{in_slices} threads got an arena"
        );
        return;
    }
    let lines = run_preloaded(
        "threads::threads_beyond_the_arenas_fall_back_to_glibc_and_free_correctly",
        "nohuge",
    );
    let line = child_line(&lines);
    assert!(number(line, "no_arena") > 0, "{line}");
    assert_eq!(number(line, "arenas_claimed"), 32, "{line}");
}

/// One thread mallocs 64-byte blocks in batches, another frees each batch (remote frees), one
/// batch live at a time: 64 MiB allocated in all.
fn producer_and_remote_consumer() {
    let (to_consumer, batches) = std::sync::mpsc::sync_channel::<Vec<usize>>(0);
    let (to_producer, acks) = std::sync::mpsc::sync_channel::<()>(0);
    let consumer = thread::spawn(move || {
        for batch in batches {
            for p in batch {
                // SAFETY: a live malloc block handed to this thread, freed once.
                unsafe { crate::c::free(p as *mut libc::c_void) };
            }
            to_producer.send(()).unwrap();
        }
    });
    for _ in 0..1024 {
        let batch = (0..1024)
            // SAFETY: malloc of 64 bytes; checked below.
            .map(|_| unsafe { crate::c::malloc(64) } as usize)
            .collect::<Vec<_>>();
        assert!(batch.iter().all(|&p| p != 0));
        to_consumer.send(batch).unwrap();
        acks.recv().unwrap();
    }
    drop(to_consumer);
    consumer.join().expect("the freeing thread");
}

/// The bytes the statistics line says were carved, over every class.
fn carved(line: &str) -> u64 {
    let tag = "\"class_carved_bytes\":[";
    let start = line.find(tag).expect("class_carved_bytes") + tag.len();
    let list = &line[start..start + line[start..].find(']').expect("the list's end")];
    list.split(',').map(|n| n.parse::<u64>().unwrap()).sum()
}

#[test]
fn blocks_freed_by_another_thread_are_drained_under_drain_and_wait_without_it() {
    if in_child() {
        producer_and_remote_consumer();
        return;
    }
    let test =
        "threads::blocks_freed_by_another_thread_are_drained_under_drain_and_wait_without_it";
    let lines = run_preloaded(test, "nohuge");
    let line = child_line(&lines);
    assert!(number(line, "remote_frees") >= 1 << 20, "{line}");
    assert!(number(line, "remote_drained") < 1 << 10, "{line}");
    assert!(carved(line) >= 64 << 20, "every block carved: {line}");

    let lines = run_preloaded(test, "nohuge+drain");
    let line = child_line(&lines);
    let (frees, drained) = (number(line, "remote_frees"), number(line, "remote_drained"));
    // A batch may still wait at exit, and the harness frees a few blocks of its own remotely.
    assert!(frees >= 1 << 20 && drained + 2048 >= frees, "{line}");
    assert!(
        carved(line) < 4 << 20,
        "a batch and a few steps carved: {line}"
    );
}
