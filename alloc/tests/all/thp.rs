//! /proc/self/smaps VmFlags of the reservation under each policy.

use slice_alloc::ThpPolicy;

use crate::{MIB, heap, hybrid, layout, plain};

/// The value of `field` (e.g. `VmFlags`) in /proc/self/smaps for the mapping holding `addr`.
fn smaps_field(addr: usize, field: &str) -> String {
    let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps is readable");
    let mut inside = false;
    for line in smaps.lines() {
        if let Some((range, _)) = line.split_once(' ')
            && let Some((lo, hi)) = range.split_once('-')
            && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        {
            inside = (lo..hi).contains(&addr);
        } else if inside
            && let Some((name, value)) = line.split_once(':')
            && name == field
        {
            return value.trim().to_owned();
        }
    }
    panic!("no mapping holds {addr:#x} with {field}");
}

/// The VmFlags of the mapping holding `addr`.
pub(crate) fn vm_flags(addr: usize) -> Vec<String> {
    smaps_field(addr, "VmFlags")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

pub(crate) fn has(flags: &[String], flag: &str) -> bool {
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
    assert_eq!(heap.stats().arenas[0][31].switches, 1);
}

/// Pages of `[start, start + len)` resident now, per mincore.
fn resident_pages(start: usize, len: usize) -> usize {
    let mut vec = vec![0u8; len / 4096];
    // SAFETY: the range is page-aligned, inside a mapping of ours; vec has one byte per page.
    let rc = unsafe { libc::mincore(start as *mut libc::c_void, len, vec.as_mut_ptr()) };
    assert_eq!(rc, 0, "mincore failed");
    vec.iter().filter(|&&v| v & 1 != 0).count()
}

#[test]
fn populate_faults_in_the_small_page_prefix_one_step_ahead_of_the_bump_pointer() {
    let mut policy = hybrid(4);
    policy.populate = true;
    let heap = heap(16 * MIB, 1, policy);
    let arena = heap.claim().unwrap();
    let start = heap.slice_start(0, 31);
    let step = slice_alloc::POPULATE_STEP;
    assert_eq!(resident_pages(start, 16 * MIB), 0);
    let first = arena.alloc(layout(512)) as usize;
    assert_eq!(first, start);
    assert_eq!(
        resident_pages(start, step),
        step / 4096,
        "the first step is resident"
    );
    assert_eq!(resident_pages(start + step, 15 * MIB), 0, "nothing past it");
    // Carve into the second step without writing: populate, not the carving, made it resident.
    let mut last = first;
    while last < start + step {
        last = arena.alloc(layout(512)) as usize;
    }
    assert_eq!(last, start + step, "carving stays contiguous across a step");
    assert_eq!(resident_pages(start, 2 * step), 2 * step / 4096);
    assert_eq!(resident_pages(start + 2 * step, 14 * MIB), 0);
    assert_eq!(
        resident_pages(heap.slice_start(0, 30), 16 * MIB),
        0,
        "other slices are not"
    );
    let stats = heap.stats();
    assert_eq!(stats.totals.advice_errors, 0);
    assert_eq!(stats.arenas[0][31].slow_paths, 2, "one slow path per step");
}

/// AnonHugePages of the mapping holding `addr`, in KiB.
fn anon_huge_kib(addr: usize) -> u64 {
    let value = smaps_field(addr, "AnonHugePages");
    value
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("a number of kB")
}

#[test]
fn collapse_turns_the_touched_prefix_into_huge_pages_at_the_switch() {
    let mut policy = hybrid(4);
    policy.collapse = true;
    let heap = heap(16 * MIB, 1, policy);
    let arena = heap.claim().unwrap();
    let start = heap.slice_start(0, 31);
    for _ in 0..(4 * MIB / 512) {
        // SAFETY: a fresh 512-byte block.
        unsafe { arena.alloc(layout(512)).write_volatile(1) };
    }
    assert_eq!(anon_huge_kib(start), 0, "small pages before the switch");
    arena.alloc(layout(512));
    assert_eq!(
        heap.stats().totals.advice_errors,
        0,
        "MADV_COLLAPSE was accepted"
    );
    assert_eq!(anon_huge_kib(start), 4096, "two huge pages after it");
}
