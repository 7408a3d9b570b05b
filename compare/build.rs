//! Records the locked versions of the allocator crates the child binaries link, so every
//! results file says which mimalloc and jemalloc it measured.
use std::path::Path;

const RECORDED: &[&str] = &[
    "mimalloc",
    "libmimalloc-sys",
    "tikv-jemallocator",
    "tikv-jemalloc-sys",
    "libc",
];

fn main() {
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    println!("cargo::rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let mut versions = Vec::new();
    let mut name = None;
    for line in text.lines() {
        if let Some(value) = line.strip_prefix("name = ") {
            name = Some(value.trim_matches('"').to_string());
        } else if let Some(value) = line.strip_prefix("version = ")
            && let Some(name) = name.take().filter(|n| RECORDED.contains(&n.as_str()))
        {
            versions.push(format!("{name}={}", value.trim_matches('"')));
        }
    }
    println!(
        "cargo::rustc-env=COMPARE_LOCKED_VERSIONS={}",
        versions.join(",")
    );
}
