//! Records the locked versions of the allocator crates the child binaries link, so every
//! results file says which mimalloc and jemalloc it measured, and the git revision the
//! binary is built from, so a results file says which checker and allocator code it
//! measured (not the revision a stale binary happens to be run in).
use std::path::Path;
use std::process::Command;

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
    println!(
        "cargo::rustc-env=COMPARE_BUILD_REVISION={}",
        build_revision()
    );
}

/// `git rev-parse HEAD` of the workspace, with `-dirty` when tracked files differ from it,
/// or `unknown` outside a git checkout. Reruns when a commit, the index or any source the
/// binary is built from changes.
fn build_revision() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for dir in ["alloc/src", "checker/src", "corpora/src", "compare/src"] {
        println!("cargo::rerun-if-changed={}", root.join(dir).display());
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())?;
        Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
    };
    for path in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", path]) {
            println!("cargo::rerun-if-changed={p}");
        }
    }
    if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&[
            "rev-parse",
            "--path-format=absolute",
            "--git-path",
            &head_ref,
        ])
    {
        println!("cargo::rerun-if-changed={p}");
    }
    let Some(rev) = git(&["rev-parse", "HEAD"]).filter(|r| !r.is_empty()) else {
        return "unknown".to_string();
    };
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    if dirty { format!("{rev}-dirty") } else { rev }
}
