//! The quiet gate: a run waits for other processes to quiet down, up to a limit, and records
//! what it saw.
use std::process::{Command, Stdio};

fn bakeoff(dir: &std::path::Path, gate: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_compare"))
        .args([
            "--command",
            "echo gated",
            "--contenders",
            "system",
            "--baseline",
        ])
        .args(["system", "--runs", "1", "--warmup", "0", "--no-control"])
        .args(["--no-calibration", "--json", "runs.json", "--wide"])
        .args(gate)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn checks(dir: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("runs.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&text).unwrap();
    results["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|set| set["runs"].as_array().unwrap().clone())
        .map(|run| run["quiet"].clone())
        .collect()
}

#[test]
fn a_run_beside_a_busy_loop_waits_out_the_limit_and_is_marked_busy() {
    let dir = tempfile::tempdir().unwrap();
    let mut spin = Command::new("sh")
        .args(["-c", "while :; do :; done"])
        .spawn()
        .unwrap();
    let out = bakeoff(dir.path(), &["--quiet-wait", "2", "--quiet-cpus", "0.5"]);
    spin.kill().unwrap();
    spin.wait().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("waiting for a quiet machine"), "{stderr}");
    assert!(stderr.contains("still busy after 2 s"), "{stderr}");
    assert!(!stderr.contains("failed: waiting"), "{stderr}");
    let checks = checks(dir.path());
    assert_eq!(checks.len(), 1, "{checks:?}");
    let check = &checks[0];
    assert_eq!(check["quiet"], false, "{check}");
    assert!(check["waited_s"].as_f64().unwrap() >= 2.0, "{check}");
    assert!(check["other_cpus"].as_f64().unwrap() > 0.5, "{check}");
    assert!(
        stdout.contains("1 started on a busy machine")
            && stdout.contains("runs started on a busy machine"),
        "{stdout}"
    );
}

#[test]
fn a_run_under_a_threshold_no_machine_reaches_starts_at_once_and_is_marked_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let out = bakeoff(dir.path(), &["--quiet-wait", "5", "--quiet-cpus", "1000"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let checks = checks(dir.path());
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["quiet"], true, "{}", checks[0]);
    assert_eq!(checks[0]["waited_s"], 0.0, "{}", checks[0]);
    assert!(
        stdout.contains("all 1 run started on a quiet machine"),
        "{stdout}"
    );
}

#[test]
fn a_command_bake_off_has_no_gate_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let out = bakeoff(dir.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(checks(dir.path()).iter().all(|check| check.is_null()));
}
