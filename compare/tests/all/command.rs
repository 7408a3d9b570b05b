//! Any command as the workload: `compare --command CMD` measures `sh -c CMD` under each
//! contender by LD_PRELOAD, proves each run's allocator, and refuses what cannot be measured
//! before the first run.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "../../../preload/tests/support/library.rs"]
mod library;

/// The folder holding `libslice_alloc.so`, built once per test process with the profile of
/// this test binary (`cargo test -p compare` builds no cdylib of another package).
fn library_dir() -> PathBuf {
    library::library()
        .parent()
        .expect("the library lies in target/<profile>")
        .to_path_buf()
}

/// compare with `args` in a fresh folder, children from `children`, no probe of fault costs.
fn compare(children: &Path, args: &[&str]) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(["--warmup", "0", "--no-calibration", "--children"])
        .arg(children)
        .arg("--json")
        .arg(dir.path().join("runs.json"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    (out, dir)
}

fn load(dir: &tempfile::TempDir) -> Value {
    let text = std::fs::read_to_string(dir.path().join("runs.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn set<'a>(results: &'a Value, contender: &str) -> &'a Value {
    results["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["contender"] == contender)
        .unwrap_or_else(|| panic!("no results of {contender}"))
}

/// compare refuses `args` before any run, saying every one of `words`.
fn refused_saying(args: &[&str], words: &[&str]) {
    let empty = tempfile::tempdir().unwrap();
    let (out, dir) = compare(empty.path(), args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "{args:?}: `{word}` not in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.stdout.is_empty(), "a table, so runs were made");
    assert!(
        !dir.path().join("runs.json").exists(),
        "a results file was written"
    );
}

#[test]
fn a_command_bakeoff_under_slice_nohuge_slice_hybrid_and_system_finishes_with_ok_runs_and_slice_statistics()
 {
    let (out, dir) = compare(
        &library_dir(),
        &[
            "--command",
            "printf 'b\\na\\nc\\n' | sort",
            "--contenders",
            "slice-nohuge,slice-hybrid,system",
            "--runs",
            "2",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let results = load(&dir);
    assert_eq!(results["settings"]["command"]["digest"], true);
    assert_eq!(results["settings"]["checkers"], serde_json::json!([1]));
    let mut digests = Vec::new();
    for contender in ["slice-nohuge", "slice-hybrid", "slice-nohuge#2", "system"] {
        let set = set(&results, contender);
        assert_eq!(set["ok_runs"], 2, "{contender}: {}", set["runs"]);
        for run in set["runs"].as_array().unwrap() {
            assert!(run["max_rss_kib"].as_u64().unwrap() > 0);
            assert!(run["minor_faults"].as_u64().unwrap() > 0);
            digests.push(run["digest"].as_str().unwrap().to_string());
        }
    }
    assert!(
        digests.iter().all(|d| d.len() == 16 && *d == digests[0]),
        "{digests:?}"
    );
    for (contender, policy) in [("slice-nohuge", "nohuge"), ("slice-hybrid", "hybrid@8")] {
        let proof = &set(&results, contender)["allocator"];
        assert_eq!(proof["policy"], policy, "{proof}");
        assert_eq!(proof["command"]["method"], "statistics", "{proof}");
        assert!(
            proof["command"]["small_requests"].as_u64().unwrap() > 0,
            "{proof}"
        );
        assert!(
            proof["command"]["processes"].as_u64().unwrap() >= 1,
            "{proof}"
        );
        let carved = proof["command"]["class_carved_bytes"].as_array().unwrap();
        assert_eq!(carved.len(), 32, "{proof}");
        let executables = proof["command"]["executables"].to_string();
        assert!(executables.contains("sort"), "{executables}");
    }
    let system = &set(&results, "system")["allocator"];
    assert_eq!(system["command"]["method"], "bindings", "{system}");
    assert!(
        system["identity"].as_str().unwrap().starts_with("glibc"),
        "{system}"
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("`printf 'b\\na\\nc\\n' | sort`"), "{table}");
}

#[test]
fn a_command_whose_output_differs_between_runs_is_a_failed_run_unless_no_digest() {
    let random = "od -An -N8 -tx8 /dev/urandom";
    let plan = [
        "--contenders",
        "system",
        "--baseline",
        "system",
        "--no-control",
    ];
    let empty = tempfile::tempdir().unwrap();
    let (out, dir) = compare(
        empty.path(),
        &[&["--command", random, "--runs", "3"][..], &plan[..]].concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = load(&dir);
    let system = set(&results, "system");
    assert_eq!(system["ok_runs"], 1, "{}", system["runs"]);
    let failed: Vec<&str> = system["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .filter(|s| *s != "ok")
        .collect();
    assert_eq!(failed.len(), 2);
    assert!(
        failed.iter().all(|s| s.starts_with("digest differs")),
        "{failed:?}"
    );

    let (out, dir) = compare(
        empty.path(),
        &[
            &["--command", random, "--runs", "3", "--no-digest"][..],
            &plan[..],
        ]
        .concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = load(&dir);
    assert_eq!(results["settings"]["command"]["digest"], false);
    assert_eq!(set(&results, "system")["ok_runs"], 3);
}

#[test]
fn a_preload_of_a_nonexistent_library_is_refused_before_any_run() {
    refused_saying(
        &[
            "--command",
            "true",
            "--contenders",
            "system,preload:ghost=/nonexistent/libghost.so",
        ],
        &["/nonexistent/libghost.so", "ghost"],
    );
}

#[test]
fn a_preload_of_a_file_that_is_no_library_is_refused_with_ld_so_s_words() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("libjunk.so");
    std::fs::write(&junk, "not a shared object\n").unwrap();
    let contenders = format!("system,preload:junk={}", junk.display());
    refused_saying(
        &[
            "--command",
            "true",
            "--contenders",
            &contenders,
            "--baseline",
            "system",
        ],
        &["junk", "cannot be preloaded"],
    );
}

#[test]
fn the_corpus_and_the_checker_count_are_refused_beside_a_command() {
    refused_saying(
        &["--command", "true", "--corpus", "synthetic"],
        &["--corpus", "--command"],
    );
    refused_saying(
        &["--command", "true", "--checkers", "8"],
        &["--checkers", "--command"],
    );
}

#[test]
fn a_knob_contender_is_refused_beside_a_command() {
    refused_saying(
        &[
            "--command",
            "true",
            "--contenders",
            "system,jemalloc:thp=never",
        ],
        &["jemalloc:thp=never", "knobs"],
    );
}

#[test]
fn a_statically_linked_command_is_refused_before_any_run() {
    let ldconfig = "/sbin/ldconfig";
    if compare::command::elf::linking(Path::new(ldconfig)) != compare::command::elf::Linking::Static
    {
        return;
    }
    refused_saying(
        &[
            "--command",
            "/sbin/ldconfig -p",
            "--contenders",
            "system,slice-hybrid",
        ],
        &["/sbin/ldconfig", "statically linked"],
    );
}

#[test]
fn a_slice_run_whose_program_escapes_the_preload_is_a_failed_run_with_the_reason() {
    let (out, dir) = compare(
        &library_dir(),
        &[
            "--command",
            "exec env -u LD_PRELOAD sort /dev/null",
            "--contenders",
            "slice-hybrid",
            "--baseline",
            "slice-hybrid",
            "--no-control",
            "--runs",
            "1",
        ],
    );
    assert!(!out.status.success(), "no run was ok, so compare fails");
    let results = load(&dir);
    let hybrid = set(&results, "slice-hybrid");
    assert_eq!(hybrid["ok_runs"], 0);
    let status = hybrid["runs"][0]["status"].as_str().unwrap();
    assert!(status.contains("no slice statistics line"), "{status}");
}
