use std::sync::atomic::AtomicBool;

use compare::benchmark::runner::{Outcome, Runner, pending};
use compare::export::{Format, Outputs};
use compare::output::progress::Progress;
use compare::results::Results;

use crate::fake::{FakeLauncher, plan};

#[test]
fn an_interrupted_bake_off_keeps_finished_runs_and_resume_does_only_the_rest() {
    static STOP: AtomicBool = AtomicBool::new(false);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("results.json");
    let outputs = Outputs::new().with(Format::Json, Some(&json));
    // 1 warm-up round + 3 rounds of 2 contenders at 1 checker; Ctrl-C during launch 5.
    let first = FakeLauncher {
        stop_at: Some((5, &STOP)),
        ..FakeLauncher::honest()
    };
    let mut results = plan(&["slice-nohuge", "system"], &[1], 3, 1);
    let outcome = Runner {
        launcher: &first,
        stop: &STOP,
        outputs: &outputs,
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut results)
    .unwrap();
    assert_eq!(outcome, Outcome::Interrupted);
    assert_eq!(first.launches().len(), 6);
    let stored = Results::load(&json).unwrap();
    let recorded: usize = stored.results.iter().map(|set| set.runs.len()).sum();
    assert_eq!(
        recorded, 3,
        "2 warm-ups, 3 finished runs, the interrupted one dropped"
    );

    let second = FakeLauncher::honest();
    let stop = AtomicBool::new(false);
    let mut resumed = Results::load(&json).unwrap();
    let outcome = Runner {
        launcher: &second,
        stop: &stop,
        outputs: &outputs,
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut resumed)
    .unwrap();
    assert_eq!(outcome, Outcome::Finished);
    let measured = second.launches().len() - 2;
    assert_eq!(measured, 3, "only the 3 missing runs (after 2 warm-ups)");
    for set in &Results::load(&json).unwrap().results {
        let rounds: Vec<usize> = set.runs.iter().map(|run| run.round).collect();
        let mut sorted = rounds.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2], "{}: {rounds:?}", set.contender);
    }
}

#[test]
fn a_finished_bake_off_has_nothing_pending_not_even_warm_ups() {
    let launcher = FakeLauncher::honest();
    let mut results = plan(&["slice-nohuge", "mimalloc"], &[1, 8], 2, 1);
    let stop = AtomicBool::new(false);
    Runner {
        launcher: &launcher,
        stop: &stop,
        outputs: &Outputs::new(),
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut results)
    .unwrap();
    assert!(pending(&results).is_empty());
    results.settings.min_runs = 3;
    let more = pending(&results);
    assert_eq!(
        more.len(),
        2 * (2 + 2),
        "per checker count: one warm-up round and round 2"
    );
    assert!(more.iter().filter(|s| !s.warmup).all(|s| s.round == 2));
}

#[test]
fn resuming_a_finished_file_keeps_its_plan_and_runs_nothing() {
    let stored = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/results.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stored).unwrap()).unwrap();
    doc["settings"]["corpora"] = serde_json::json!(["synthetic"]);
    let synthetic: Vec<serde_json::Value> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|set| set["corpus"] == "synthetic")
        .cloned()
        .collect();
    doc["results"] = serde_json::Value::Array(synthetic);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("runs.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    // Statuses are recomputed on load (the digest verdict); the measured figures are not.
    let runs_of = |value: &serde_json::Value| -> Vec<Vec<(serde_json::Value, serde_json::Value)>> {
        let sets = value["results"].as_array().unwrap();
        sets.iter()
            .map(|set| {
                let runs = set["runs"].as_array().unwrap();
                runs.iter()
                    .map(|run| (run["wall_s"].clone(), run["minor_faults"].clone()))
                    .collect()
            })
            .collect()
    };

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_compare"))
        .arg("--resume")
        .arg(&file)
        .args(["--quiet-wait", "0"])
        .current_dir(dir.path())
        .env("CHECKBENCH_CACHE", dir.path().join("cache"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("synthetic · 8 checkers"), "{stdout}");
    assert!(
        stdout.contains("mimalloc"),
        "the file's contenders, not the defaults: {stdout}"
    );
    assert!(
        !stdout.contains("jemalloc"),
        "the file's contenders, not the defaults: {stdout}"
    );
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(runs_of(&after), runs_of(&doc), "no run added or changed");
}

#[test]
fn a_child_killed_by_ctrl_c_stops_the_bake_off_without_recording_a_failure() {
    let launcher = FakeLauncher::honest().with("system", crate::fake::Behaviour::Interrupted);
    let mut results = plan(&["slice-nohuge", "system"], &[1], 2, 0);
    let stop = AtomicBool::new(false);
    let outcome = Runner {
        launcher: &launcher,
        stop: &stop,
        outputs: &Outputs::new(),
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut results)
    .unwrap();
    assert_eq!(outcome, Outcome::Interrupted);
    // The round's order is shuffled: the interrupted child is the first system run.
    let launches = launcher.launches();
    let interrupted = launches.iter().position(|(c, _, _)| c == "system").unwrap();
    assert_eq!(launches.len(), interrupted + 1, "nothing runs after it");
    let recorded: Vec<String> = results
        .results
        .iter()
        .flat_map(|set| set.runs.iter().map(|run| run.status.to_string()))
        .collect();
    assert_eq!(
        recorded,
        vec!["ok"; interrupted],
        "only the runs before the interrupted one"
    );
}

#[test]
fn a_resumed_plan_keeps_the_rounds_the_command_line_does_not_name() {
    // The stored file asks for 3 rounds at least: --max-runs 2 must be checked against
    // those 3, not against the default --min-runs.
    let stored = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/results.json");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("runs.json");
    std::fs::copy(stored, &file).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_compare"))
        .arg("--resume")
        .arg(&file)
        .args(["--quiet-wait", "0"])
        .args(["--max-runs", "2"])
        .current_dir(dir.path())
        .env("CHECKBENCH_CACHE", dir.path().join("cache"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("--max-runs 2 is below --min-runs 3"),
        "{stderr}"
    );
}
