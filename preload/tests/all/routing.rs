//! Which allocator serves which request, and realloc between them.

use std::ptr;

use libc::c_void;

use crate::{child_line, from_slice, in_child, number, run_preloaded};

#[test]
fn small_requests_come_from_the_slice_allocator_and_large_ones_from_glibc() {
    if in_child() {
        for n in 1..=512usize {
            // SAFETY: malloc of n bytes; the block is written within n bytes and freed once.
            unsafe {
                let p = crate::c::malloc(n);
                assert!(!p.is_null() && (p as usize).is_multiple_of(16));
                assert_eq!(
                    crate::c::malloc_usable_size(p),
                    n.next_multiple_of(16),
                    "size {n}"
                );
                ptr::write_bytes(p.cast::<u8>(), 0x5a, n);
                crate::c::free(p);
            }
        }
        for n in [513usize, 4096] {
            // SAFETY: as above.
            unsafe {
                let p = crate::c::malloc(n);
                assert!(!p.is_null() && !from_slice(p), "size {n} went to a class");
                ptr::write_bytes(p.cast::<u8>(), 0x5a, n);
                crate::c::free(p);
            }
        }
        // SAFETY: malloc(0) gives a unique block or null; free accepts both.
        unsafe { crate::c::free(crate::c::malloc(0)) };
        return;
    }
    let lines = run_preloaded(
        "routing::small_requests_come_from_the_slice_allocator_and_large_ones_from_glibc",
        "hybrid",
    );
    let line = child_line(&lines);
    assert!(number(line, "small_requests") >= 512, "{line}");
    assert!(number(line, "too_large") >= 2, "{line}");
    assert!(number(line, "zero_size") >= 1, "{line}");
}

/// Fills `n` bytes with a pattern starting at `seed`.
unsafe fn fill(p: *mut c_void, n: usize, seed: u8) {
    for i in 0..n {
        // SAFETY: the caller's block holds n bytes.
        unsafe { *p.cast::<u8>().add(i) = seed.wrapping_add(i as u8) };
    }
}

/// Whether the first `n` bytes hold the pattern of `fill`.
unsafe fn holds(p: *mut c_void, n: usize, seed: u8) -> bool {
    // SAFETY: the caller's block holds n bytes.
    (0..n).all(|i| unsafe { *p.cast::<u8>().add(i) } == seed.wrapping_add(i as u8))
}

#[test]
fn realloc_keeps_a_block_in_its_class_and_moves_it_across_classes_and_allocators() {
    if in_child() {
        // SAFETY: every block is used within its size and freed once; realloc's result replaces
        // its argument.
        unsafe {
            let p = crate::c::malloc(20);
            fill(p, 20, 1);
            assert_eq!(
                crate::c::realloc(p, 32),
                p,
                "20 -> 32 stays in the class of 32"
            );
            let q = crate::c::realloc(p, 100);
            assert!(q != p && from_slice(q) && holds(q, 20, 1));
            fill(q, 100, 7);
            let r = crate::c::realloc(q, 2000);
            assert!(
                !from_slice(r) && holds(r, 100, 7),
                "100 -> 2000 moves to glibc"
            );
            fill(r, 2000, 9);
            let s = crate::c::realloc(r, 5000);
            assert!(holds(s, 2000, 9), "glibc's realloc between large sizes");
            let t = crate::c::realloc(s, 50);
            assert!(
                from_slice(t) && holds(t, 50, 9),
                "5000 -> 50 moves back to a class"
            );
            assert!(
                crate::c::realloc(t, 0).is_null(),
                "realloc(p, 0) frees, as glibc's"
            );
            let u = crate::c::realloc(ptr::null_mut(), 10);
            assert!(from_slice(u));
            *libc::__errno_location() = 0;
            assert!(crate::c::reallocarray(u, usize::MAX / 2, 3).is_null());
            assert_eq!(*libc::__errno_location(), libc::ENOMEM);
            let v = crate::c::reallocarray(u, 10, 30);
            assert!(from_slice(v) && crate::c::malloc_usable_size(v) == 304);
            crate::c::free(v);
        }
        return;
    }
    for policy in ["nohuge", "hybrid", "huge"] {
        run_preloaded(
            "routing::realloc_keeps_a_block_in_its_class_and_moves_it_across_classes_and_allocators",
            policy,
        );
    }
}

#[test]
fn calloc_zeroes_a_recycled_block_and_refuses_an_overflow() {
    if in_child() {
        // SAFETY: blocks used within their size and freed once.
        unsafe {
            let p = crate::c::malloc(200);
            ptr::write_bytes(p.cast::<u8>(), 0xab, 200);
            crate::c::free(p);
            let q = crate::c::calloc(4, 50);
            assert_eq!(q, p, "the class's free list is LIFO");
            assert!((0..200).all(|i| *q.cast::<u8>().add(i) == 0));
            crate::c::free(q);
            *libc::__errno_location() = 0;
            assert!(crate::c::calloc(usize::MAX / 2, 3).is_null());
            assert_eq!(*libc::__errno_location(), libc::ENOMEM);
            let big = crate::c::calloc(1000, 10);
            assert!(!from_slice(big) && (0..10_000).all(|i| *big.cast::<u8>().add(i) == 0));
            crate::c::free(big);
        }
        return;
    }
    run_preloaded(
        "routing::calloc_zeroes_a_recycled_block_and_refuses_an_overflow",
        "nohuge",
    );
}

#[test]
fn alignment_functions_honour_their_alignment() {
    if in_child() {
        // SAFETY: every block is used within its size and freed once.
        unsafe {
            for align in [8usize, 16, 32, 64, 256, 4096] {
                for size in [1usize, 24, 100, 512, 600] {
                    let mut p = ptr::null_mut();
                    assert_eq!(crate::c::posix_memalign(&mut p, align, size), 0);
                    assert!((p as usize).is_multiple_of(align), "{align} {size}");
                    assert!(crate::c::malloc_usable_size(p) >= size);
                    assert_eq!(from_slice(p), size <= 512 && align <= 16, "{align} {size}");
                    ptr::write_bytes(p.cast::<u8>(), 1, size);
                    crate::c::free(p);
                }
            }
            let mut p = ptr::null_mut();
            assert_eq!(crate::c::posix_memalign(&mut p, 24, 8), libc::EINVAL);
            assert_eq!(crate::c::posix_memalign(&mut p, 4, 8), libc::EINVAL);
            let a = crate::c::aligned_alloc(16, 48);
            assert!(from_slice(a) && crate::c::malloc_usable_size(a) == 48);
            let b = crate::c::aligned_alloc(64, 48);
            assert!((b as usize).is_multiple_of(64));
            let c = crate::c::memalign(4096, 10);
            assert!((c as usize).is_multiple_of(4096));
            let d = crate::c::valloc(10);
            assert!((d as usize).is_multiple_of(4096));
            let e = crate::c::pvalloc(10);
            assert!((e as usize).is_multiple_of(4096) && crate::c::malloc_usable_size(e) >= 4096);
            for q in [a, b, c, d, e] {
                crate::c::free(q);
            }
            assert_eq!(crate::c::malloc_usable_size(ptr::null_mut()), 0);
        }
        return;
    }
    let lines = run_preloaded(
        "routing::alignment_functions_honour_their_alignment",
        "huge",
    );
    let line = child_line(&lines);
    assert!(number(line, "over_aligned") >= 4 * 5 + 5, "{line}");
}
