// What a checkbench binary was built from, shared by the build scripts of compare (the child
// binaries) and slice-preload (libslice_alloc.so) through `include!`, so that both report one
// revision and one source digest for one checkout, and compare trusts the library exactly as it
// trusts a child. Sets `COMPARE_BUILD_REVISION`, `COMPARE_SOURCE_DIGEST`, `COMPARE_BUILD_PROFILE`
// and `COMPARE_BUILD_INFO` (the three as one JSON object, compare's `BuildInfo`).

/// What the binaries are built from, relative to the workspace root: every file below these
/// folders, and these files.
const SOURCE_DIRS: &[&str] = &[
    "alloc/src",
    "workload/src",
    "checker/src",
    "tsc/src",
    "tsc/js",
    "corpora/src",
    "corpora/data",
    "compare/src",
    "compare/data",
    "preload/src",
];
const SOURCE_FILES: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "alloc/Cargo.toml",
    "workload/Cargo.toml",
    "checker/Cargo.toml",
    "tsc/Cargo.toml",
    "corpora/Cargo.toml",
    "compare/Cargo.toml",
    "compare/build.rs",
    "compare/build_info.rs",
    "preload/Cargo.toml",
    "preload/build.rs",
];

/// The workspace root, from the including package's folder.
fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Prints the build's revision, source digest and profile as rustc environment variables.
fn emit_build_info() {
    let revision = build_revision();
    let digest = source_digest();
    // `release` or `debug`: the profile the binaries of this build use.
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo::rustc-env=COMPARE_BUILD_REVISION={revision}");
    println!("cargo::rustc-env=COMPARE_SOURCE_DIGEST={digest}");
    println!("cargo::rustc-env=COMPARE_BUILD_PROFILE={profile}");
    // None of the three holds a quote or a backslash: a revision is hex (and `-dirty`).
    println!(
        "cargo::rustc-env=COMPARE_BUILD_INFO={{\"revision\":\"{revision}\",\"source_digest\":\"{digest}\",\"profile\":\"{profile}\"}}"
    );
}

/// SHA-256 over the relative path and contents of every source file, in path order; the
/// first 16 hex digits. Reruns when any of them changes.
fn source_digest() -> String {
    use sha2::{Digest, Sha256};
    let root = workspace_root();
    let mut files: Vec<std::path::PathBuf> =
        SOURCE_FILES.iter().map(std::path::PathBuf::from).collect();
    for dir in SOURCE_DIRS {
        println!("cargo::rerun-if-changed={}", root.join(dir).display());
        collect_files(&root, std::path::Path::new(dir), &mut files);
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
    hex::encode(&digest[..8])
}

/// Every file below `dir` (relative to `root`), as paths relative to `root`.
fn collect_files(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
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
    let root = workspace_root();
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
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
