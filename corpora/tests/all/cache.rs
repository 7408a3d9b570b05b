//! The cache is verified by content: a same-size edit, a missing file, a manifest without
//! hashes; what a killed fetch left; an unwritable cache; an npm that never answers.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use corpora::{CacheState, Error, OpenOptions, corpus_dir, fetch_plan, read_manifest};

use crate::fixture::{cache_entries, default_tarball, integrity, npm_serving, plan, script};

/// A fixture corpus named `name` cached under `root` (its pins are the fixture's own).
fn cached(tmp: &Path, root: &Path, name: &str) -> corpora::Manifest {
    let tgz = default_tarball();
    let npm = npm_serving(tmp, &tgz);
    fetch_plan(&plan(name, integrity(&tgz)), root, &npm, false).unwrap()
}

fn state(root: &Path, manifest: &corpora::Manifest) -> CacheState {
    let pins: Vec<_> = manifest.packages.iter().map(|p| p.pin.clone()).collect();
    corpora::cache_state(root, &manifest.name, &pins).unwrap()
}

#[test]
fn every_cached_file_is_recorded_with_its_sha256() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let manifest = cached(tmp.path(), &root, "fixture");
    assert!(
        manifest
            .files
            .iter()
            .all(|f| f.sha256.as_ref().is_some_and(|h| h.len() == 64))
    );
    assert!(matches!(state(&root, &manifest), CacheState::Cached(_)));
}

#[test]
fn a_same_size_edit_of_a_cached_file_makes_the_corpus_damaged_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let manifest = cached(tmp.path(), &root, "fixture");
    let record = &manifest.files[0];
    let path = corpus_dir(&root, "fixture")
        .join("files")
        .join(&record.path);
    let mut bytes = fs::read(&path).unwrap();
    bytes[0] ^= 0x20;
    fs::write(&path, &bytes).unwrap();
    match state(&root, &manifest) {
        CacheState::Damaged { file, why } => {
            assert_eq!(file, record.path);
            assert!(why.contains("SHA-256"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    let shown = state(&root, &manifest).to_string();
    assert!(
        shown.starts_with("damaged: ") && shown.contains(&record.path),
        "{shown}"
    );
}

#[test]
fn a_missing_file_and_a_manifest_without_hashes_are_named_too() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let mut manifest = cached(tmp.path(), &root, "fixture");
    let dir = corpus_dir(&root, "fixture");
    let last = manifest.files.last().unwrap().path.clone();
    fs::rename(dir.join("files").join(&last), tmp.path().join("moved")).unwrap();
    let shown = state(&root, &manifest).to_string();
    assert_eq!(shown, format!("damaged: {last} is missing (fetch again)"));
    fs::rename(tmp.path().join("moved"), dir.join("files").join(&last)).unwrap();
    for file in &mut manifest.files {
        file.sha256 = None;
    }
    fs::write(
        dir.join("manifest.json"),
        serde_json::to_vec(&manifest).unwrap(),
    )
    .unwrap();
    let shown = state(&root, &manifest).to_string();
    assert!(shown.contains("without content hashes"), "{shown}");
}

#[test]
fn a_killed_fetch_s_working_directory_is_removed_by_the_next_fetch_but_a_running_one_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let parent = root.join("corpora");
    let abandoned = parent.join(".fixture-partial-killed");
    fs::create_dir_all(abandoned.join("files")).unwrap();
    fs::write(abandoned.join("files/half.ts"), b"export const x =").unwrap();
    let running = parent.join(".fixture-partial-running");
    fs::create_dir_all(&running).unwrap();
    let held = fs::File::open(&running).unwrap();
    held.lock().unwrap();
    cached(tmp.path(), &root, "fixture");
    assert!(!abandoned.exists(), "fresh, but nobody holds it: removed");
    assert!(running.exists(), "held by a fetch that still runs");
    drop(held);
    let mut entries = cache_entries(&root);
    entries.sort();
    assert_eq!(entries, [".fixture-partial-running", "fixture"]);
}

#[test]
fn an_unwritable_cache_is_reported_before_npm_is_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("npm-was-called");
    let npm = script(
        tmp.path(),
        &format!("[ \"$1\" = --probe ] || touch {}; exit 1", marker.display()),
    );
    // A file where the cache directory should be: not writable, even for root.
    let root = tmp.path().join("cache");
    fs::write(&root, b"not a directory").unwrap();
    let tgz = default_tarball();
    let npm = corpora::Npm {
        program: npm.into(),
    };
    let err = fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::Cache { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("nothing was downloaded") && text.contains("--cache-dir"),
        "{text}"
    );
    assert!(
        !marker.exists(),
        "npm was called before the cache was checked"
    );
}

#[test]
fn an_npm_that_never_answers_is_stopped_with_a_message_naming_the_registry_setting() {
    let tmp = tempfile::tempdir().unwrap();
    let sleep = ["/bin/sleep", "/usr/bin/sleep"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .unwrap();
    let npm = script(
        tmp.path(),
        &format!("[ \"$1\" = --probe ] || exec {sleep} 60"),
    );
    let empty = tmp.path().join("empty-path");
    fs::create_dir_all(&empty).unwrap();
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_corpora"))
        .args(["--cache-dir"])
        .arg(tmp.path().join("cache"))
        .args(["-q", "fetch", "trpc"])
        .env("PATH", &empty)
        .env(corpora::NPM_ENV, &npm)
        .env(corpora::NPM_TIMEOUT_ENV, "1")
        .output()
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("gave no answer") && err.contains("in 1 s"),
        "{err}"
    );
    assert!(err.contains("npm config get registry"), "{err}");
}

#[test]
fn a_verified_open_checks_sizes_and_never_fetches() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let opts = OpenOptions {
        cache_dir: Some(root.clone()),
        fetch: true,
        progress: false,
    };
    let err = corpora::open_verified("trpc", &opts).unwrap_err();
    assert!(
        matches!(err, Error::NotCached(ref name) if name == "trpc"),
        "{err}"
    );
    assert!(cache_entries(&root).is_empty(), "nothing fetched");
    assert!(read_manifest(&root, "trpc").unwrap().is_none());
}
