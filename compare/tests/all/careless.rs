//! Careless use and unkind ends: two outputs on one file, two bake-offs on one results
//! file, a hung child, a killed or terminated compare. None of them loses a finished run
//! or leaves a child behind.
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::fake::compare_on_children as compare;

fn children(script: &str) -> tempfile::TempDir {
    crate::fake::mimalloc_children(script)
}

fn output(command: &mut Command) -> Output {
    command.stdin(Stdio::null()).output().unwrap()
}

/// Waits until `path` holds a pid written by a fake child (or any command).
pub(crate) fn child_pid(path: &Path) -> libc::pid_t {
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no child started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` is gone (reaped, or a zombie about to be).
pub(crate) fn gone_within(pid: libc::pid_t, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        let status = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = status
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next());
        if matches!(state, None | Some("Z")) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn hanging_child(dir: &Path) -> (tempfile::TempDir, PathBuf) {
    let pid_file = dir.join("child.pid");
    let children = children(&format!("echo $$ > {}\nexec sleep 120", pid_file.display()));
    (children, pid_file)
}

pub(crate) fn signal(child: &Child, signal: libc::c_int) {
    // SAFETY: kill with the pid of our own unreaped child.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

#[test]
fn two_outputs_on_one_file_are_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let children = children("exit 1");
    let out = output(&mut compare(
        dir.path(),
        children.path(),
        &["--csv", "f", "--json", "./f"],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("--json and --csv name the same file"),
        "{stderr}"
    );
    assert!(!dir.path().join("f").exists(), "nothing written");
}

#[test]
fn a_second_bake_off_on_a_results_file_in_use_is_refused_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let (children, pid_file) = hanging_child(dir.path());
    let mut first = compare(dir.path(), children.path(), &["--json", "runs.json"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let child = child_pid(&pid_file);
    let out = output(&mut compare(
        dir.path(),
        children.path(),
        &["--json", "runs.json"],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    signal(&first, libc::SIGKILL);
    first.wait().unwrap();
    assert!(!out.status.success());
    assert!(
        stderr.contains("runs.json is in use by another bake-off")
            && stderr.contains(&format!("pid {}", first.id())),
        "{stderr}"
    );
    assert!(gone_within(child, Duration::from_secs(10)));
}

#[test]
fn a_hung_child_is_killed_at_the_time_limit_and_recorded_as_timed_out() {
    let dir = tempfile::tempdir().unwrap();
    let (children, pid_file) = hanging_child(dir.path());
    let start = Instant::now();
    let out = output(&mut compare(
        dir.path(),
        children.path(),
        &["--json", "runs.json", "--timeout", "1"],
    ));
    assert!(start.elapsed() < Duration::from_secs(60));
    assert!(gone_within(child_pid(&pid_file), Duration::from_secs(5)));
    let json = std::fs::read_to_string(dir.path().join("runs.json")).unwrap();
    assert!(json.contains("timed out: killed after 1 s"), "{json}");
    assert!(!out.status.success(), "no run succeeded");
}

#[test]
fn the_child_in_flight_dies_with_a_killed_compare() {
    let dir = tempfile::tempdir().unwrap();
    let (children, pid_file) = hanging_child(dir.path());
    let mut parent = compare(dir.path(), children.path(), &["--json", "runs.json"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let child = child_pid(&pid_file);
    signal(&parent, libc::SIGKILL);
    parent.wait().unwrap();
    assert!(
        gone_within(child, Duration::from_secs(10)),
        "child {child} outlived compare"
    );
}

#[test]
fn sigterm_stops_like_ctrl_c_keeping_the_runs_and_saying_how_to_resume_with_status_143() {
    let dir = tempfile::tempdir().unwrap();
    let (children, pid_file) = hanging_child(dir.path());
    let parent = compare(dir.path(), children.path(), &["--json", "runs.json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let child = child_pid(&pid_file);
    signal(&parent, libc::SIGTERM);
    let out = parent.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    assert!(gone_within(child, Duration::from_secs(5)));
    assert!(dir.path().join("runs.json").is_file());
}

#[test]
fn the_results_file_is_named_before_the_first_run() {
    let dir = tempfile::tempdir().unwrap();
    let children = children("exit 3");
    let out = output(&mut compare(
        dir.path(),
        children.path(),
        &["--json", "runs.json"],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let named = stderr.find("results: runs.json").expect(&stderr);
    let first_run = stderr.find("exit code 3").unwrap_or(usize::MAX);
    assert!(named < first_run, "{stderr}");
}
