//! Programs nobody here wrote, from their first allocation on.

use std::process::Command;

use crate::{library, number, stats_path};

/// The output of `sh -c script`, preloaded under `policy` or (None) not.
fn sh(script: &str, policy: Option<&str>, stats: &std::path::Path) -> String {
    let mut cmd = Command::new("/bin/sh");
    cmd.args(["-c", script]);
    if let Some(policy) = policy {
        cmd.env("LD_PRELOAD", library())
            .env("CHECKBENCH_SLICE", policy)
            .env("CHECKBENCH_SLICE_STATS", stats);
    }
    let out = cmd.output().expect("sh");
    assert!(out.status.success(), "{script}: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn a_shell_pipeline_prints_the_same_under_every_policy_as_under_glibc() {
    if crate::in_child() {
        return;
    }
    let script = "ls -la /usr/lib | sort -k9 | awk '{print $9, $5}' | sha256sum; \
                  seq 1 20000 | sort -r | uniq | wc -l; echo hello | gzip -c | gzip -dc";
    let stats = stats_path("pipeline");
    let expected = sh(script, None, &stats);
    for policy in ["nohuge", "hybrid", "huge"] {
        assert_eq!(sh(script, Some(policy), &stats), expected, "under {policy}");
    }
    let text = std::fs::read_to_string(&stats).expect("the statistics file");
    let _ = std::fs::remove_file(&stats);
    let served: u64 = text.lines().map(|l| number(l, "small_requests")).sum();
    assert!(text.lines().count() >= 3 * 5, "a line per process: {text}");
    assert!(served > 1000, "{text}");
}

/// Minor faults of one run of `ls -l /usr/bin` preloaded under hybrid, writing its statistics
/// line to `stats` or (None) not, from wait4.
fn ls_faults(stats: Option<&std::path::Path>) -> i64 {
    let mut cmd = Command::new("ls");
    cmd.args(["-l", "/usr/bin"])
        .env("LD_PRELOAD", library())
        .env("CHECKBENCH_SLICE", "hybrid")
        .env_remove("CHECKBENCH_SLICE_STATS")
        .stdout(std::process::Stdio::null());
    if let Some(stats) = stats {
        cmd.env("CHECKBENCH_SLICE_STATS", stats);
    }
    // Reaped below by wait4, which also gives its rusage.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().expect("ls");
    let mut status = 0;
    // SAFETY: rusage is plain old data; all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: our own unreaped child; status and usage are writable for the call.
    let reaped = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(reaped > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_minflt
}

#[test]
fn the_statistics_line_costs_its_process_at_most_a_few_minor_faults() {
    if crate::in_child() {
        return;
    }
    // The line's snapshot once zero-filled 48 KiB and read all 32 arenas' pages: 44 faults
    // more than the same run without a line, 17% of this one's 260.
    let stats = stats_path("exit-cost");
    let median = |mut v: Vec<i64>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for _ in 0..9 {
        with.push(ls_faults(Some(&stats)));
        without.push(ls_faults(None));
    }
    let lines = std::fs::read_to_string(&stats).expect("the statistics file");
    let _ = std::fs::remove_file(&stats);
    assert_eq!(lines.lines().count(), 9, "one line a run: {lines}");
    let (with, without) = (median(with), median(without));
    assert!(
        with - without <= 6,
        "the line cost {} minor faults ({without} -> {with})",
        with - without
    );
}
