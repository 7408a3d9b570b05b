//! /proc/self/smaps VmFlags of the reservation under each policy.

use slice_alloc::ThpPolicy;

use crate::{MIB, heap, hybrid, layout, plain};

/// The VmFlags of the mapping holding `addr`.
fn vm_flags(addr: usize) -> Vec<String> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps is readable");
    let mut inside = false;
    for line in smaps.lines() {
        if let Some((range, _)) = line.split_once(' ')
            && let Some((lo, hi)) = range.split_once('-')
            && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        {
            inside = (lo..hi).contains(&addr);
        } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
            return flags.split_whitespace().map(str::to_owned).collect();
        }
    }
    panic!("no mapping holds {addr:#x}");
}

fn has(flags: &[String], flag: &str) -> bool {
    flags.iter().any(|f| f == flag)
}

#[test]
fn hybrid_slices_are_small_paged_before_the_switch_and_huge_after() {
    let heap = heap(32 * MIB, 1, hybrid(8));
    let arena = heap.claim().unwrap();
    let start = heap.slice_start(0, 31);
    let before = vm_flags(start + 8 * MIB);
    assert!(has(&before, "nh") && !has(&before, "hg"), "{before:?}");
    for _ in 0..(8 * MIB / 512 + 1) {
        arena.alloc(layout(512));
    }
    let head = vm_flags(start);
    assert!(
        has(&head, "nh") && !has(&head, "hg"),
        "slice start: {head:?}"
    );
    let tail = vm_flags(start + 8 * MIB);
    assert!(
        has(&tail, "hg") && !has(&tail, "nh"),
        "start + 8 MiB: {tail:?}"
    );
    let end = vm_flags(start + 32 * MIB - 1);
    assert!(has(&end, "hg"), "slice end: {end:?}");
    let next_class = vm_flags(heap.slice_start(0, 30) + 8 * MIB);
    assert!(
        has(&next_class, "nh"),
        "an untouched slice stays small: {next_class:?}"
    );
}

#[test]
fn nohuge_advises_no_huge_pages_everywhere() {
    let heap = heap(16 * MIB, 2, plain(ThpPolicy::NoHuge));
    let arena = heap.claim().unwrap();
    for _ in 0..(12 * MIB / 512) {
        arena.alloc(layout(512));
    }
    let (base, len) = heap.reservation();
    for addr in [base, heap.slice_start(0, 31) + 8 * MIB, base + len - 1] {
        let flags = vm_flags(addr);
        assert!(
            has(&flags, "nh") && !has(&flags, "hg"),
            "{addr:#x}: {flags:?}"
        );
    }
}

#[test]
fn huge_advises_huge_pages_everywhere() {
    let heap = heap(16 * MIB, 2, plain(ThpPolicy::Huge));
    let (base, len) = heap.reservation();
    for addr in [base, base + 8 * MIB, base + len - 1] {
        let flags = vm_flags(addr);
        assert!(
            has(&flags, "hg") && !has(&flags, "nh"),
            "{addr:#x}: {flags:?}"
        );
    }
}

#[test]
fn collapse_makes_the_whole_slice_huge_at_the_switch() {
    let mut policy = hybrid(4);
    policy.collapse = true;
    let heap = heap(16 * MIB, 1, policy);
    let arena = heap.claim().unwrap();
    let start = heap.slice_start(0, 31);
    for _ in 0..(5 * MIB / 512) {
        arena.alloc(layout(512));
    }
    let head = vm_flags(start);
    assert!(has(&head, "hg") && !has(&head, "nh"), "{head:?}");
    assert_eq!(heap.stats().classes[0][31].switches, 1);
}
