//! Minor faults of touching 64 MiB of one class, per policy, on this kernel.

use slice_alloc::probe::touch_class;
use slice_alloc::{Policy, ThpPolicy};

use crate::{MIB, adaptive, hybrid, plain};

fn thp_enabled() -> Option<String> {
    let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").ok()?;
    (!mode.contains("[never]")).then_some(mode)
}

fn faults(policy: Policy) -> u64 {
    touch_class(policy, 64 * MIB)
        .expect("the probe heap is mapped")
        .minor_faults
}

#[test]
fn touching_64_mib_faults_per_page_under_nohuge_and_per_huge_page_under_huge() {
    if thp_enabled().is_none() {
        eprintln!("skipped: transparent huge pages are disabled on this machine");
        return;
    }
    let nohuge = faults(plain(ThpPolicy::NoHuge));
    let hybrid8 = faults(hybrid(8));
    let huge = faults(plain(ThpPolicy::Huge));
    eprintln!("minor faults for 64 MiB: nohuge {nohuge}, hybrid@8 {hybrid8}, huge {huge}");
    // 16384 small pages; 2048 small + 28 huge; 32 huge (generous margins for a shared machine)
    assert!((15_000..=18_000).contains(&nohuge), "nohuge {nohuge}");
    assert!((1_900..=3_000).contains(&hybrid8), "hybrid@8 {hybrid8}");
    assert!(huge < 200, "huge {huge}");
}

#[test]
fn touching_64_mib_under_adaptive_faults_per_page_for_2_mib_then_per_huge_page() {
    if thp_enabled().is_none() {
        eprintln!("skipped: transparent huge pages are disabled on this machine");
        return;
    }
    let faults = faults(adaptive());
    eprintln!("minor faults for 64 MiB under adaptive: {faults}");
    // 512 small pages of the prefix, 31 huge pages, a few span-table pages
    assert!((500..=1_000).contains(&faults), "adaptive {faults}");
}
