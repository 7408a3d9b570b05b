//! `--workload`: every child is told what to run, and a run that ran something else fails.
use std::ffi::OsString;
use std::path::Path;
use std::process::Stdio;

use compare::benchmark::launcher::{Binaries, Launcher, Request};
use compare::child::split_workload;
use compare::contender::Contender;
use compare::results::{Results, RunStatus};
use compare::workload::WorkloadKind;

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

#[test]
fn a_child_takes_its_workload_out_of_its_arguments() {
    let (kind, rest) =
        split_workload(args(&["child", "--workload", "tsc", "--corpus", "trpc"])).unwrap();
    assert_eq!(kind, WorkloadKind::from_name("tsc").unwrap());
    assert_eq!(rest, args(&["child", "--corpus", "trpc"]));
    let (kind, rest) = split_workload(args(&["child", "--workload=checker", "--json"])).unwrap();
    assert_eq!(kind, WorkloadKind::default());
    assert_eq!(rest, args(&["child", "--json"]));
    let (kind, _) = split_workload(args(&["child", "--corpus", "trpc"])).unwrap();
    assert_eq!(
        kind,
        WorkloadKind::default(),
        "the checker without --workload"
    );
}

#[test]
fn a_child_refuses_an_unknown_or_contradictory_workload() {
    let unknown = split_workload(args(&["child", "--workload", "v8"])).unwrap_err();
    assert!(unknown.contains("unknown workload `v8`"), "{unknown}");
    let twice = split_workload(args(&[
        "child",
        "--workload",
        "tsc",
        "--workload",
        "checker",
    ]))
    .unwrap_err();
    assert!(twice.contains("twice"), "{twice}");
    let missing = split_workload(args(&["child", "--workload"])).unwrap_err();
    assert!(missing.contains("needs a value"), "{missing}");
}

#[test]
fn every_child_is_told_the_bake_offs_workload() {
    for workload in [
        WorkloadKind::default(),
        WorkloadKind::from_name("tsc").unwrap(),
    ] {
        let binaries = Binaries {
            dir: "/nowhere".into(),
            workload,
            cache_dir: None,
            timeout: None,
        };
        let command = binaries.command(&Request {
            contender: Contender::SLICE_HYBRID,
            corpus: "trpc",
            checkers: 1,
        });
        let args: Vec<String> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let at = args.iter().position(|a| a == "--workload").unwrap();
        assert_eq!(args[at + 1], workload.name(), "{args:?}");
    }
}

/// A fake mimalloc child that prints a report of the `tsc` workload, whatever it is asked.
fn tsc_reporting_children() -> tempfile::TempDir {
    let mut report = crate::fake::report(Contender::Mimalloc, "synthetic", 1, "d1");
    report.workload = "tsc".to_string();
    let json = serde_json::to_string(&report).unwrap();
    crate::fake::mimalloc_children(&format!("cat <<'END'\n{json}\nEND"))
}

fn compare(dir: &Path, children: &Path, extra: &[&str]) -> std::process::Output {
    crate::fake::compare_on_children(dir, children, &[&["--no-control"], extra].concat())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_child_that_ran_another_workload_fails_its_run_and_the_plan_keeps_its_workload() {
    let dir = tempfile::tempdir().unwrap();
    let children = tsc_reporting_children();
    let json = dir.path().join("results.json");
    let out = compare(
        dir.path(),
        children.path(),
        &["--json", json.to_str().unwrap()],
    );
    assert!(!out.status.success(), "no run was ok");
    let results = Results::load(&json).unwrap();
    assert_eq!(results.settings.workload, WorkloadKind::default());
    let run = &results.results[0].runs[0];
    match &run.status {
        RunStatus::Failed(why) => assert!(
            why.contains("the child ran the `tsc` workload, not `checker`"),
            "{why}"
        ),
        other => panic!("a run of the wrong workload was {other:?}"),
    }

    // The same file cannot be continued as another workload's bake-off.
    let out = compare(
        dir.path(),
        children.path(),
        &["--resume", json.to_str().unwrap(), "--workload", "tsc"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("its runs measured the `checker` workload, not `tsc`"),
        "{stderr}"
    );
}

#[test]
fn what_a_child_says_shaped_its_heap_is_kept_with_its_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut report = crate::fake::report(Contender::Mimalloc, "synthetic", 1, "d1");
    report
        .settings
        .insert("collect".to_string(), "handback".to_string());
    let json = serde_json::to_string(&report).unwrap();
    let children = crate::fake::mimalloc_children(&format!("cat <<'END'\n{json}\nEND"));
    let path = dir.path().join("results.json");
    let out = compare(
        dir.path(),
        children.path(),
        &["--json", path.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = Results::load(&path).unwrap();
    let run = &results.results[0].runs[0];
    assert_eq!(run.status, RunStatus::Ok);
    assert_eq!(
        run.workload_settings.get("collect").map(String::as_str),
        Some("handback")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"workload_settings\""), "{text}");
}
