//! Builds `libslice_alloc.so` for tests, shared by this package's tests and compare's
//! (`#[path]`-included there), so that both find the library the same way.
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The library under test, `target/<profile>/libslice_alloc.so` beside this binary's `deps`
/// folder, built once per test process: `cargo test` builds no cdylib for integration tests.
pub fn library() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().expect("the test binary's path");
            let dir = exe
                .parent()
                .and_then(|deps| deps.parent())
                .expect("target/<profile>/deps/<test>");
            let profile = dir.file_name().and_then(|n| n.to_str()).unwrap_or("debug");
            let profile = if profile == "debug" { "dev" } else { profile };
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "slice-preload",
                    "--profile",
                    profile,
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("run cargo build -p slice-preload");
            assert!(status.success(), "cargo build -p slice-preload failed");
            let lib = dir.join("libslice_alloc.so");
            assert!(lib.exists(), "{} is not built", lib.display());
            lib
        })
        .clone()
}
