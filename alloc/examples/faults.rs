//! Minor faults of touching one class under each policy, as the reference measured them.
//!
//! `cargo run --release -p slice-alloc --example faults [MIB]` (default 64 MiB).

use std::process::ExitCode;

use slice_alloc::Policy;
use slice_alloc::probe::touch_class;

const POLICIES: [&str; 9] = [
    "nohuge",
    "hybrid@2",
    "hybrid@4",
    "hybrid@8",
    "hybrid@16",
    "huge",
    "hybrid@8+populate",
    "hybrid@8+collapse",
    "hybrid@8+populate+collapse",
];

fn main() -> ExitCode {
    let mib = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 64,
        Some(Ok(mib)) if (1..=4096).contains(&mib) => mib,
        Some(_) => {
            eprintln!("faults: the argument is the MiB to touch, 1..=4096");
            return ExitCode::from(2);
        }
    };
    let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .unwrap_or_else(|_| "unknown\n".into());
    println!(
        "touching {mib} MiB of 512-byte blocks; THP enabled: {}",
        thp.trim()
    );
    println!(
        "{:<28} {:>12} {:>10} {:>9}",
        "policy", "minor faults", "ms", "switches"
    );
    for text in POLICIES {
        let policy: Policy = text.parse().expect("the table's policies parse");
        match touch_class(policy, mib << 20) {
            Ok(probe) => println!(
                "{:<28} {:>12} {:>10.2} {:>9}",
                policy.to_string(),
                probe.minor_faults,
                probe.elapsed.as_secs_f64() * 1e3,
                probe.switches
            ),
            Err(err) => {
                eprintln!("faults: {policy}: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
