//! The child binaries are checked before the first run: present, release builds, and
//! built from compare's own sources.
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use compare::benchmark::children::{ChildrenError, Origin, build_info};
use compare::contender::Contender;
use compare::environment::BuildInfo;

/// A fake child in `dir` that answers `--build-info` with `answer` (a shell word list).
fn fake_child(dir: &Path, name: &str, script: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn answering(info: &BuildInfo) -> String {
    format!("echo '{}'", serde_json::to_string(info).unwrap())
}

fn release_of_these_sources() -> BuildInfo {
    BuildInfo {
        profile: "release".to_string(),
        ..BuildInfo::current()
    }
}

#[test]
fn the_children_built_with_compare_report_the_sources_compare_was_built_from() {
    let child = build_info(Path::new(env!("CARGO_BIN_EXE_checkbench-slice"))).unwrap();
    assert_eq!(child, BuildInfo::current());
    assert_eq!(child.source_digest.len(), 16, "{child}");
}

#[test]
fn children_given_by_folder_are_checked_and_their_builds_recorded() {
    let dir = tempfile::tempdir().unwrap();
    fake_child(
        dir.path(),
        "checkbench-slice",
        &answering(&release_of_these_sources()),
    );
    let origin = Origin::locate(Some(dir.path())).unwrap();
    let builds = origin.prepare(&[Contender::SLICE_NOHUGE]).unwrap();
    assert_eq!(builds["checkbench-slice"], release_of_these_sources());
}

#[test]
fn a_missing_child_is_named_with_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let origin = Origin::locate(Some(dir.path())).unwrap();
    let error = origin.prepare(&[Contender::Mimalloc]).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, ChildrenError::Missing { .. }), "{message}");
    assert!(
        message.contains(&dir.path().join("checkbench-mimalloc").display().to_string())
            && message.contains("cargo build --release -p compare --bins")
            && message.contains("--children"),
        "{message}"
    );
}

#[test]
fn a_child_built_from_other_sources_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let other = BuildInfo {
        source_digest: "0123456789abcdef".to_string(),
        ..release_of_these_sources()
    };
    fake_child(dir.path(), "checkbench-jemalloc", &answering(&other));
    let origin = Origin::locate(Some(dir.path())).unwrap();
    let error = origin.prepare(&[Contender::Jemalloc]).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, ChildrenError::Stale { .. }), "{message}");
    assert!(
        message.contains("checkbench-jemalloc") && message.contains("0123456789abcdef"),
        "{message}"
    );
}

#[test]
fn a_debug_child_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let debug = BuildInfo {
        profile: "debug".to_string(),
        ..BuildInfo::current()
    };
    fake_child(dir.path(), "checkbench-system", &answering(&debug));
    let origin = Origin::locate(Some(dir.path())).unwrap();
    let error = origin.prepare(&[Contender::System]).unwrap_err();
    assert!(matches!(error, ChildrenError::Profile { .. }), "{error}");
}

#[test]
fn a_child_that_does_not_report_its_build_is_refused_with_its_first_error_line() {
    let dir = tempfile::tempdir().unwrap();
    fake_child(
        dir.path(),
        "checkbench-slice",
        "echo \"error: unexpected argument '$1' found\" >&2; exit 2",
    );
    let origin = Origin::locate(Some(dir.path())).unwrap();
    let error = origin.prepare(&[Contender::SLICE_NOHUGE]).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ChildrenError::NoBuildInfo { .. }),
        "{message}"
    );
    assert!(
        message.contains("unexpected argument '--build-info'"),
        "{message}"
    );
}

#[test]
fn a_children_folder_that_is_not_a_folder_is_refused() {
    let error = Origin::locate(Some(Path::new("/nonexistent/children"))).unwrap_err();
    assert!(
        error.to_string().contains("/nonexistent/children"),
        "{error}"
    );
}
