//! The slice library is as trusted as a child: it reports its revision, source digest and
//! profile, and compare refuses a debug or stale one, from `--children DIR` too, before the
//! first run (its build is recorded beside the children's: see the command bake-off test).
use std::path::{Path, PathBuf};

use compare::benchmark::children::{Build, ChildrenError, Origin, library_build_info};
use compare::environment::BuildInfo;

use crate::command::{library, refused_with_children_saying};

/// A copy of the test's library in a fresh folder, its build answer's `from` replaced by `to`
/// (of the same length, so the library stays intact).
fn patched(from: &str, to: &str) -> (tempfile::TempDir, PathBuf) {
    assert_eq!(from.len(), to.len());
    let mut bytes = std::fs::read(library::library()).unwrap();
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("`{from}` is not in the library"));
    bytes[at..at + to.len()].copy_from_slice(to.as_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("libslice_alloc.so");
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

/// A copy of the library that says it was built from other sources.
fn stale() -> (tempfile::TempDir, PathBuf) {
    let digest = BuildInfo::current().source_digest;
    patched(
        &format!("\"source_digest\":\"{digest}\""),
        "\"source_digest\":\"0123456789abcdef\"",
    )
}

/// A library that says it is a debug build: the test's own if it is one, else a copy.
fn debug() -> (Option<tempfile::TempDir>, PathBuf) {
    if BuildInfo::current().profile == "debug" {
        return (None, library::library());
    }
    let (dir, path) = patched("\"profile\":\"release\"", "\"profile\":\"debug\"  ");
    (Some(dir), path)
}

fn given(path: &Path) -> Origin {
    Origin::locate(Some(path.parent().unwrap())).unwrap()
}

#[test]
fn the_slice_library_reports_the_sources_and_the_profile_compare_was_built_from() {
    let info = library_build_info(&library::library()).unwrap();
    let own = BuildInfo::current();
    assert_eq!(info.source_digest, own.source_digest, "{info}");
    assert_eq!(info.profile, own.profile, "{info}");
    assert!(!info.revision.is_empty(), "{info}");
}

#[test]
fn a_stale_or_debug_slice_library_is_refused_naming_its_file() {
    let (_dir, path) = stale();
    let error = given(&path).check_slice_library(&path).unwrap_err();
    assert!(
        matches!(
            error,
            ChildrenError::Stale {
                what: Build::SliceLibrary,
                ..
            }
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains(&path.display().to_string()) && message.contains("0123456789abcdef"),
        "{message}"
    );
    let (_dir, path) = debug();
    let error = given(&path).check_slice_library(&path).unwrap_err();
    assert!(matches!(error, ChildrenError::Profile { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("cargo build --release -p slice-preload"),
        "{error}"
    );
}

#[test]
fn a_library_that_does_not_report_its_build_is_refused() {
    // glibc's own libm loads, but answers nothing.
    let libm = ["/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib64/libm.so.6"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file());
    let Some(libm) = libm else { return };
    let error = library_build_info(&libm).unwrap_err();
    assert!(
        matches!(error, ChildrenError::NoBuildInfo { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("libm.so.6"), "{error}");
}

#[test]
fn a_stale_slice_library_in_the_children_folder_is_refused_before_any_run() {
    let (dir, path) = stale();
    refused_with_children_saying(
        dir.path(),
        &["--command", "true", "--contenders", "slice-hybrid,system"],
        &[
            &path.display().to_string(),
            "other sources",
            "0123456789abcdef",
        ],
    );
    let (_kept, path) = debug();
    let dir = path.parent().unwrap();
    refused_with_children_saying(
        dir,
        &["--command", "true", "--contenders", "slice-nohuge,system"],
        &[&path.display().to_string(), "debug build"],
    );
}
