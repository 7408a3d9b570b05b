//! Nothing lost: a results file that holds runs is never replaced by a new plan, no temporary
//! file survives a kill, a signal at any step ends with the interrupted message and the lock
//! released, a resume leaves recorded figures as they were, and no process of a command
//! outlives compare.
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::careless::{child_pid as pid_in, gone_within, signal};
use crate::fake::compare_on_children as compare;

/// A bake-off of `command` under glibc's malloc alone, in `dir`: fast runs, each followed by
/// a write of the results file.
fn command_bakeoff(dir: &Path, command: &str, args: &[&str]) -> Command {
    let mut bakeoff = Command::new(env!("CARGO_BIN_EXE_compare"));
    bakeoff
        .args(["--command", command, "--contenders", "system", "--baseline"])
        .args([
            "system",
            "--warmup",
            "0",
            "--no-control",
            "--no-calibration",
        ])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null());
    bakeoff
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_new_bake_off_refuses_a_results_file_that_holds_runs_and_names_resume() {
    let dir = tempfile::tempdir().unwrap();
    let children = crate::fake::mimalloc_children("exit 1");
    let first = compare(dir.path(), children.path(), &["--json", "runs.json"])
        .output()
        .unwrap();
    assert!(!first.status.success(), "its one run failed");
    let recorded = std::fs::read(dir.path().join("runs.json")).unwrap();
    let second = compare(dir.path(), children.path(), &["--json", "runs.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success());
    assert!(
        stderr.contains("runs.json holds 2 runs of an earlier bake-off")
            && stderr.contains("--resume runs.json")
            && stderr.contains("another file with --json"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("runs.json")).unwrap(),
        recorded,
        "the file is as it was"
    );
    assert_eq!(names(dir.path()), ["runs.json"], "and nothing beside it");
}

#[test]
fn a_file_that_is_no_results_file_is_not_replaced_by_a_bake_off() {
    let dir = tempfile::tempdir().unwrap();
    let children = crate::fake::mimalloc_children("exit 1");
    std::fs::write(dir.path().join("notes.json"), "my notes").unwrap();
    let out = compare(dir.path(), children.path(), &["--json", "notes.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("notes.json exists and is not a results file"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.json")).unwrap(),
        "my notes"
    );
}

#[test]
fn no_temporary_file_survives_compare_killed_while_it_writes_results() {
    let dir = tempfile::tempdir().unwrap();
    // Runs of `true` take a few milliseconds and each is followed by a write of the whole
    // file: a kill at a random moment often lands in a write.
    for (i, delay_ms) in [900, 1100, 1300, 1500, 1700, 1900, 2100, 2300]
        .into_iter()
        .enumerate()
    {
        let json = format!("runs-{i}.json");
        let mut bakeoff = command_bakeoff(dir.path(), "true", &["--runs", "2000", "--json"])
            .arg(&json)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        signal(&bakeoff, libc::SIGKILL);
        bakeoff.wait().unwrap();
    }
    let left: Vec<String> = names(dir.path())
        .into_iter()
        .filter(|name| !(name.ends_with(".json") || name.ends_with(".json.lock")))
        .filter(|name| !name.ends_with(".json.partial"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn resume_removes_a_copy_that_a_killed_write_left_before_it_landed() {
    let dir = tempfile::tempdir().unwrap();
    let out = command_bakeoff(dir.path(), "true", &["--runs", "1", "--json", "runs.json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::copy(
        dir.path().join("runs.json"),
        dir.path().join(".runs.json.partial"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(["--resume", "runs.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("removed"), "{stderr}");
    assert_eq!(names(dir.path()), ["runs.json"]);
}

/// compare on a hanging child, with the fault cost probe (about 15 s) first; waits until its
/// standard error says `line`, then sends `sig`, and returns the exit status and the rest
/// of standard error.
fn signalled_at(dir: &Path, line: &str, sig: libc::c_int) -> (Option<i32>, String) {
    let children = crate::fake::mimalloc_children("exec sleep 120");
    let mut parent = Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(["--contenders", "mimalloc", "--baseline", "mimalloc"])
        .args([
            "--checkers",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--quiet-wait",
            "0",
        ])
        .arg("--children")
        .arg(children.path())
        .args(["--json", "runs.json"])
        .current_dir(dir)
        .env("CHECKBENCH_CACHE", dir.join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(parent.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut text = String::new();
        assert!(
            stderr.read_line(&mut text).unwrap() > 0,
            "no `{line}` in {seen}"
        );
        seen.push_str(&text);
        if text.contains(line) {
            break;
        }
    }
    signal(&parent, sig);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = parent.wait().unwrap();
    (status.code(), seen + &rest)
}

#[test]
fn ctrl_c_during_the_fault_probe_ends_interrupted_with_the_lock_released() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = signalled_at(dir.path(), "measuring the cost", libc::SIGINT);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted") && stderr.contains("--resume"),
        "{stderr}"
    );
    assert!(!dir.path().join("runs.json.lock").exists(), "lock released");
    assert!(
        dir.path().join("runs.json").is_file(),
        "the plan is kept for --resume"
    );
}

#[test]
fn sigterm_during_the_fault_probe_ends_with_status_143() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = signalled_at(dir.path(), "measuring the cost", libc::SIGTERM);
    assert_eq!(code, Some(143), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(!dir.path().join("runs.json.lock").exists(), "lock released");
}

#[test]
fn a_resume_leaves_every_recorded_figure_to_its_last_digit() {
    let dir = tempfile::tempdir().unwrap();
    let out = command_bakeoff(dir.path(), "true", &["--runs", "2", "--json", "runs.json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = dir.path().join("runs.json");
    let text = std::fs::read_to_string(&path).unwrap();
    // A figure whose shortest decimal a parser that is not exact reads back one unit off.
    let at = text
        .find("\"steal_s\": ")
        .expect("a run records its steal time")
        + 11;
    let end = at + text[at..].find([',', '\n']).unwrap();
    let edited = format!("{}0.020000000000000018{}", &text[..at], &text[end..]);
    std::fs::write(&path, &edited).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(["--resume", "runs.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = std::fs::read_to_string(&path).unwrap();
    assert!(
        resumed.contains("\"steal_s\": 0.020000000000000018"),
        "{}",
        &resumed[at.saturating_sub(40)..at + 40]
    );
}

#[test]
fn a_cell_without_an_ok_run_makes_the_exit_status_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = command_bakeoff(
        dir.path(),
        "date +%N",
        &["--command", "echo stable", "--runs", "3"],
    )
    .arg("--json")
    .arg("runs.json")
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("no ok run of system on date +%N"),
        "{stderr}"
    );
}

/// A command whose `n`-th invocation and those after it (counting from 0: compare's two
/// unmeasured probe runs, traced and with LD_DEBUG, are the 0th and 1st) write their pid to
/// `run.pid` and run `hang`, until a file `nohang` exists.
fn hanging_from(n: usize, hang: &str) -> String {
    format!(
        "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; \
         if [ ! -e nohang ] && [ $n -ge {n} ]; then echo $$ > run.pid; {hang}; fi"
    )
}

#[test]
fn no_process_of_a_command_outlives_a_killed_compare() {
    let dir = tempfile::tempdir().unwrap();
    let command = hanging_from(2, "sleep 300 & echo $! > background.pid; wait");
    let mut bakeoff = command_bakeoff(
        dir.path(),
        &command,
        &["--runs", "1", "--json", "runs.json"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let background = pid_in(&dir.path().join("background.pid"));
    signal(&bakeoff, libc::SIGKILL);
    bakeoff.wait().unwrap();
    assert!(
        gone_within(background, Duration::from_secs(10)),
        "{background} outlived compare"
    );
}

#[test]
fn a_report_from_an_unfinished_file_says_it_is_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let command = hanging_from(2, "exec sleep 300");
    let mut bakeoff = command_bakeoff(
        dir.path(),
        &command,
        &["--runs", "3", "--json", "runs.json"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    pid_in(&dir.path().join("run.pid"));
    signal(&bakeoff, libc::SIGINT);
    bakeoff.wait().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(["report", "--from", "runs.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("runs.json is unfinished: 3 runs") && stderr.contains("--resume runs.json"),
        "{stderr}"
    );
}

#[test]
fn a_resumed_bake_off_measured_without_the_fault_probe_goes_on_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let command = hanging_from(3, "exec sleep 300");
    let mut bakeoff = command_bakeoff(
        dir.path(),
        &command,
        &["--runs", "3", "--json", "runs.json"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // The first measured run is recorded; the second hangs.
    pid_in(&dir.path().join("run.pid"));
    signal(&bakeoff, libc::SIGINT);
    bakeoff.wait().unwrap();
    std::fs::write(dir.path().join("nohang"), "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(["--resume", "runs.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("measuring the cost") && stderr.contains("no fault cost probe"),
        "{stderr}"
    );
}
