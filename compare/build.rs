//! Records the locked versions of the allocator crates the child binaries link, so every
//! results file says which mimalloc and jemalloc it measured, and the git revision the
//! binary is built from, so a results file says which checker and allocator code it
//! measured (not the revision a stale binary happens to be run in), and a digest of the
//! sources themselves, so compare can tell a child built from other sources than its own
//! (two `-dirty` builds share a revision but not a digest).
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// What the binaries of this package are built from, relative to the workspace root:
/// every file below these folders, and these files.
const SOURCE_DIRS: &[&str] = &[
    "alloc/src",
    "checker/src",
    "tsc/src",
    "tsc/js",
    "corpora/src",
    "corpora/data",
    "compare/src",
    "compare/data",
];
const SOURCE_FILES: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "alloc/Cargo.toml",
    "checker/Cargo.toml",
    "tsc/Cargo.toml",
    "corpora/Cargo.toml",
    "compare/Cargo.toml",
    "compare/build.rs",
];

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
    println!(
        "cargo::rustc-env=COMPARE_BUILD_REVISION={}",
        build_revision()
    );
    println!("cargo::rustc-env=COMPARE_SOURCE_DIGEST={}", source_digest());
    // `release` or `debug`: the profile the binaries of this build use.
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo::rustc-env=COMPARE_BUILD_PROFILE={profile}");
}

/// SHA-256 over the relative path and contents of every source file, in path order; the
/// first 16 hex digits. Reruns when any of them changes.
fn source_digest() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<PathBuf> = SOURCE_FILES.iter().map(PathBuf::from).collect();
    for dir in SOURCE_DIRS {
        println!("cargo::rerun-if-changed={}", root.join(dir).display());
        collect_files(&root, Path::new(dir), &mut files);
    }
    for file in SOURCE_FILES {
        println!("cargo::rerun-if-changed={}", root.join(file).display());
    }
    files.sort();
    let mut hasher = Sha256::new();
    for file in &files {
        let bytes = std::fs::read(root.join(file)).unwrap_or_default();
        hasher.update(file.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    let digest = hasher.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Every file below `dir` (relative to `root`), as paths relative to `root`.
fn collect_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return;
    };
    for entry in entries.flatten() {
        let relative = dir.join(entry.file_name());
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => collect_files(root, &relative, out),
            Ok(kind) if kind.is_file() => out.push(relative),
            _ => {}
        }
    }
}

/// `git rev-parse HEAD` of the workspace, with `-dirty` when tracked files differ from it,
/// or `unknown` outside a git checkout. Reruns when a commit, the index or any source the
/// binary is built from changes.
fn build_revision() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
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
