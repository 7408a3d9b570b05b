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
