//! Records the locked versions of the allocator crates the child binaries link, so every
//! results file says which mimalloc and jemalloc it measured, and the git revision the
//! binary is built from, so a results file says which checker and allocator code it
//! measured (not the revision a stale binary happens to be run in), and a digest of the
//! sources themselves, so compare can tell a child built from other sources than its own
//! (two `-dirty` builds share a revision but not a digest). The revision, digest and profile
//! come from build_info.rs, which slice-preload's build script shares, so that
//! `libslice_alloc.so` reports the same build as the children of its checkout.
use std::path::Path;

include!("build_info.rs");

const RECORDED: &[&str] = &[
    "mimalloc",
    "libmimalloc-sys",
    "tikv-jemallocator",
    "tikv-jemalloc-sys",
    "libc",
    "rquickjs",
    "rquickjs-sys",
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
    emit_build_info();
}
