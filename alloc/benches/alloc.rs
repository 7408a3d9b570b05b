//! The slice allocator against mimalloc, jemalloc and the system allocator, each called through
//! `GlobalAlloc` on an instance (the benchmark's own global allocator is the system's).
//! See benches/README.md for how to run it and what was measured.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mimalloc::MiMalloc;
use slice_alloc::{HeapConfig, Policy, SliceAlloc, SliceHeap};
use tikv_jemallocator::Jemalloc;

/// Blocks per timed batch.
const BATCH: usize = 4096;
/// Live blocks in the churn ring.
const LIVE: usize = 1024;

fn small(size: usize) -> Layout {
    Layout::from_size_align(size, 8).expect("a small layout")
}

/// A deterministic size in 8..=512, skewed small like the checker's (xorshift).
fn next_size(state: &mut u64) -> usize {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let r = (*state % 1000) as usize;
    if r < 700 { 8 + r % 120 } else { 8 + r % 505 }
}

/// Allocates `n` 64-byte blocks into `blocks`, timed.
fn alloc_batch<A: GlobalAlloc>(a: &A, n: usize, blocks: &mut Vec<*mut u8>) -> Duration {
    let layout = small(64);
    let start = Instant::now();
    for _ in 0..n {
        // SAFETY: a non-zero layout.
        blocks.push(black_box(unsafe { a.alloc(layout) }));
    }
    start.elapsed()
}

/// `iters` allocations in batches of `BATCH` with no free inside a batch; the batch is freed
/// untimed afterwards, so the allocator reuses it next time (its steady state).
fn alloc_then_free<A: GlobalAlloc>(a: &A, iters: u64) -> Duration {
    let mut blocks = Vec::with_capacity(BATCH);
    let mut total = Duration::ZERO;
    for first in (0..iters as usize).step_by(BATCH) {
        total += alloc_batch(a, BATCH.min(iters as usize - first), &mut blocks);
        for p in blocks.drain(..) {
            // SAFETY: allocated just above with this layout.
            unsafe { a.dealloc(p, small(64)) };
        }
    }
    total
}

/// The same batches from the slice allocator's bump pointer only: nothing is freed (a free
/// would feed the free list), the blocks go with the heap. One heap per sample, 1 GiB slices,
/// the next arena when a class slice is full. Under `adaptive` the bump pointer runs through
/// 4 KiB nursery spans, so one block in 64 takes the slow path for the next span.
fn bump_only(iters: u64, policy: Policy) -> Duration {
    let heap = SliceHeap::new(HeapConfig {
        slice_bytes: 1 << 30,
        arenas: 32,
        policy,
    })
    .expect("1 TiB of no-reserve address space");
    let per_arena = (1 << 30) / 64 / BATCH;
    let mut arenas = Vec::new();
    let mut blocks = Vec::with_capacity(BATCH);
    let mut total = Duration::ZERO;
    for (i, first) in (0..iters as usize).step_by(BATCH).enumerate() {
        if i % per_arena == 0 {
            arenas.push(
                heap.claim()
                    .expect("32 GiB of 64-byte blocks per sample at most"),
            );
        }
        let arena = arenas.last().expect("claimed above");
        total += alloc_batch(arena, BATCH.min(iters as usize - first), &mut blocks);
        blocks.clear();
    }
    total
}

fn bump(c: &mut Criterion) {
    let mut group = c.benchmark_group("alloc_without_free");
    group.bench_function("slice", |b| {
        b.iter_custom(|i| bump_only(i, Policy::DEFAULT))
    });
    let adaptive = "adaptive".parse().expect("a policy");
    group.bench_function("slice_adaptive", |b| {
        b.iter_custom(|i| bump_only(i, adaptive))
    });
    group.bench_function("slice_reusing", |b| {
        b.iter_custom(|i| alloc_then_free(&SliceAlloc, i))
    });
    group.bench_function("mimalloc", |b| {
        b.iter_custom(|i| alloc_then_free(&MiMalloc, i))
    });
    group.bench_function("jemalloc", |b| {
        b.iter_custom(|i| alloc_then_free(&Jemalloc, i))
    });
    group.bench_function("system", |b| b.iter_custom(|i| alloc_then_free(&System, i)));
    group.finish();
}

/// A ring of `LIVE` blocks of mixed sizes; each step frees one and allocates a replacement.
fn churn_with<A: GlobalAlloc>(a: &A, iters: u64) -> Duration {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut ring: Vec<(*mut u8, Layout)> = (0..LIVE)
        .map(|_| {
            let layout = small(next_size(&mut state));
            // SAFETY: a non-zero layout.
            (unsafe { a.alloc(layout) }, layout)
        })
        .collect();
    let start = Instant::now();
    for i in 0..iters as usize {
        let slot = &mut ring[i % LIVE];
        let layout = small(next_size(&mut state));
        // SAFETY: the slot holds a live block of its layout; the new layout is non-zero.
        unsafe {
            a.dealloc(slot.0, slot.1);
            let p = a.alloc(layout);
            p.write(i as u8);
            *slot = (p, layout);
        }
    }
    let elapsed = start.elapsed();
    for (p, layout) in ring {
        // SAFETY: every ring block is live, freed once.
        unsafe { a.dealloc(p, layout) };
    }
    elapsed
}

fn churn(c: &mut Criterion) {
    let mut group = c.benchmark_group("churn");
    group.bench_function("slice", |b| b.iter_custom(|i| churn_with(&SliceAlloc, i)));
    group.bench_function("mimalloc", |b| b.iter_custom(|i| churn_with(&MiMalloc, i)));
    group.bench_function("jemalloc", |b| b.iter_custom(|i| churn_with(&Jemalloc, i)));
    group.bench_function("system", |b| b.iter_custom(|i| churn_with(&System, i)));
    group.finish();
}

/// This thread allocates 64-byte blocks in batches and hands each batch to a second thread,
/// which frees them; timed until the last batch is freed.
fn cross_thread_with<A: GlobalAlloc + Sync>(a: &A, iters: u64) -> Duration {
    let layout = small(64);
    let (to_freer, batches) = mpsc::sync_channel::<Vec<usize>>(4);
    thread::scope(|s| {
        s.spawn(move || {
            for batch in batches {
                for p in batch {
                    // SAFETY: allocated by the other thread with this layout, handed over once.
                    unsafe { a.dealloc(p as *mut u8, layout) };
                }
            }
        });
        let start = Instant::now();
        let mut left = iters as usize;
        while left > 0 {
            let n = left.min(BATCH);
            // SAFETY: a non-zero layout.
            let batch = (0..n)
                .map(|_| unsafe { a.alloc(layout) } as usize)
                .collect();
            to_freer.send(batch).unwrap();
            left -= n;
        }
        drop(to_freer);
        start
    })
    .elapsed()
}

fn cross_thread(c: &mut Criterion) {
    let mut group = c.benchmark_group("cross_thread_free");
    for (name, run) in [
        (
            "slice",
            (|i| cross_thread_with(&SliceAlloc, i)) as fn(u64) -> Duration,
        ),
        ("mimalloc", |i| cross_thread_with(&MiMalloc, i)),
        ("jemalloc", |i| cross_thread_with(&Jemalloc, i)),
        ("system", |i| cross_thread_with(&System, i)),
    ] {
        group.bench_function(BenchmarkId::from_parameter(name), |b| b.iter_custom(run));
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bump, churn, cross_thread
}
criterion_main!(benches);
