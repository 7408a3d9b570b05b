use std::alloc::Layout;

use slice_alloc::{CLASS_COUNT, HUGE_PAGE, ThpPolicy};

use crate::{MIB, every_policy, heap, hybrid, layout, plain};

#[test]
fn the_reservation_is_2_mib_aligned() {
    for slice in [4096, 64 << 10, 4 * MIB] {
        let heap = heap(slice, 3, hybrid(8));
        let (base, len) = heap.reservation();
        assert_eq!(base % HUGE_PAGE, 0);
        assert_eq!(len, 3 * CLASS_COUNT * slice);
    }
}

#[test]
fn a_blocks_arena_and_class_follow_from_its_address() {
    let heap = heap(64 << 10, 4, plain(ThpPolicy::NoHuge));
    let _first = heap.claim().unwrap();
    let second = heap.claim().unwrap();
    assert_eq!(second.index(), 1);
    for size in [1, 17, 100, 200, 512] {
        let p = second.alloc(layout(size));
        let class = (size - 1) / 16;
        assert_eq!(heap.locate(p), Some((1, class)), "size {size}");
        assert_eq!(p as usize, heap.slice_start(1, class));
        assert_eq!(p as usize % 16, 0);
    }
    let big = second.alloc(layout(513));
    assert_eq!(heap.locate(big), None);
    // SAFETY: big came from this heap for 513 bytes.
    unsafe { second.dealloc(big, layout(513)) };
}

#[test]
fn carving_is_contiguous_across_the_switch_point() {
    let heap = heap(32 * MIB, 1, hybrid(8));
    let arena = heap.claim().unwrap();
    let size = 48; // does not divide 8 MiB: one block straddles the switch point
    let start = heap.slice_start(0, 2);
    let switch = start + 8 * MIB;
    let mut previous = arena.alloc(layout(size)) as usize;
    assert_eq!(previous, start);
    let mut straddled = false;
    while previous < switch + MIB {
        let p = arena.alloc(layout(size)) as usize;
        assert_eq!(p, previous + size, "carving jumped after {previous:#x}");
        straddled |= p < switch && p + size > switch;
        previous = p;
    }
    assert!(straddled, "one block straddles the switch point");
    let stats = heap.stats();
    let class = stats.arenas[0][2];
    assert_eq!(class.switches, 1);
    assert_eq!(class.slow_paths, 2, "first use and the switch");
    assert_eq!(class.allocs, class.carved_bytes / size as u64);
}

#[test]
fn every_policy_carves_the_same_addresses() {
    let addresses = |policy| {
        let heap = heap(16 * MIB, 1, policy);
        let arena = heap.claim().unwrap();
        let start = heap.slice_start(0, 31);
        (0..(12 * MIB / 512))
            .map(|_| arena.alloc(layout(512)) as usize - start)
            .collect::<Vec<_>>()
    };
    let nohuge = addresses(plain(ThpPolicy::NoHuge));
    assert_eq!(nohuge, addresses(plain(ThpPolicy::Huge)));
    assert_eq!(nohuge, addresses(hybrid(8)));
}

#[test]
fn freeing_everything_then_allocating_returns_the_first_block_under_every_policy() {
    for policy in every_policy() {
        let heap = heap(64 << 10, 1, policy);
        let arena = heap.claim().unwrap();
        // 300 blocks of 64 bytes: more than one 4 KiB nursery span under adaptive.
        let blocks: Vec<_> = (0..300).map(|_| arena.alloc(layout(64))).collect();
        for &p in blocks.iter().rev() {
            // SAFETY: each block came from this heap for 64 bytes and is freed once.
            unsafe { arena.dealloc(p, layout(64)) };
        }
        assert_eq!(arena.alloc(layout(64)), blocks[0], "{policy}");
        // the free list is LIFO: the rest come back in allocation order
        assert_eq!(arena.alloc(layout(60)), blocks[1], "{policy}");
        assert_eq!(heap.stats().arenas[0][3].reuses, 2, "{policy}");
    }
}

#[test]
fn recycled_blocks_are_zeroed_for_alloc_zeroed_under_every_policy() {
    for policy in every_policy() {
        let heap = heap(64 << 10, 1, policy);
        let arena = heap.claim().unwrap();
        for size in [1, 8, 16, 200, 512] {
            let p = arena.alloc(layout(size));
            // SAFETY: p holds size bytes.
            unsafe {
                p.write_bytes(0xAB, size);
                arena.dealloc(p, layout(size));
            }
            let q = arena.alloc_zeroed(layout(size));
            assert_eq!(q, p, "{policy}: the block is recycled");
            // SAFETY: q holds size bytes.
            let bytes = unsafe { std::slice::from_raw_parts(q, size) };
            assert!(
                bytes.iter().all(|&b| b == 0),
                "{policy}, size {size}: {bytes:?}"
            );
        }
    }
}

#[test]
fn realloc_inside_the_class_returns_the_same_block_under_every_policy() {
    for policy in every_policy() {
        let heap = heap(64 << 10, 1, policy);
        let arena = heap.claim().unwrap();
        let p = arena.alloc(layout(40));
        // SAFETY: p holds 40 bytes; each realloc passes the block's current layout.
        unsafe {
            p.write_bytes(7, 40);
            assert_eq!(arena.realloc(p, layout(40), 48), p, "{policy}");
            assert_eq!(arena.realloc(p, layout(48), 33), p, "{policy}");
            let q = arena.realloc(p, layout(33), 49);
            assert_ne!(q, p, "{policy}");
            assert_eq!(heap.locate(q), Some((0, 3)), "{policy}");
            assert!(std::slice::from_raw_parts(q, 33).iter().all(|&b| b == 7));
            let r = arena.realloc(q, layout(49), 4000);
            assert_eq!(
                heap.locate(r),
                None,
                "{policy}: over 512 goes to the system"
            );
            assert!(std::slice::from_raw_parts(r, 33).iter().all(|&b| b == 7));
            let s = arena.realloc(r, layout(4000), 8000);
            let t = arena.realloc(s, Layout::from_size_align(8000, 16).unwrap(), 20);
            assert_eq!(heap.locate(t), Some((0, 1)), "{policy}: back into a class");
            assert!(std::slice::from_raw_parts(t, 20).iter().all(|&b| b == 7));
            arena.dealloc(t, layout(20));
        }
        // the freed 40-byte block (class 2) is reused first
        assert_eq!(arena.alloc(layout(40)), p, "{policy}");
    }
}
