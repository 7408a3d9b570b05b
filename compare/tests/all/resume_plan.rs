//! A resumed bake-off measures what the file's runs measured, or refuses.
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A folder with a fake `checkbench-mimalloc` that fails every run quickly.
fn children() -> tempfile::TempDir {
    crate::fake::mimalloc_children("echo 'error: fake' >&2; exit 1")
}

fn compare(dir: &Path, children: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_compare"))
        .args([
            "--warmup",
            "0",
            "--no-calibration",
            "--quiet-wait",
            "0",
            "--children",
        ])
        .arg(children)
        .args(args)
        .current_dir(dir)
        .env("CHECKBENCH_CACHE", dir.join("cache"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

const FIRST: &[&str] = &[
    "--contenders",
    "mimalloc",
    "--baseline",
    "mimalloc",
    "--checkers",
    "1",
    "--runs",
    "1",
    "--json",
    "runs.json",
];

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn resuming_with_another_plan_is_refused_naming_the_difference_unless_extended() {
    let dir = tempfile::tempdir().unwrap();
    let children = children();
    compare(dir.path(), children.path(), FIRST);
    let out = compare(
        dir.path(),
        children.path(),
        &["--resume", "runs.json", "--checkers", "1,2"],
    );
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(
        text.contains("checker counts 2 added") && text.contains("--extend"),
        "{text}"
    );
    let out = compare(
        dir.path(),
        children.path(),
        &["--resume", "runs.json", "--checkers", "1,2", "--extend"],
    );
    let text = stderr(&out);
    assert!(text.contains("extending the plan of runs.json"), "{text}");
    let json = std::fs::read_to_string(dir.path().join("runs.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(results["settings"]["checkers"], serde_json::json!([1, 2]));
    let out = compare(
        dir.path(),
        children.path(),
        &["--resume", "runs.json", "--checkers", "2", "--extend"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("checker counts 1 dropped"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_hand_edited_plan_that_cannot_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let children = children();
    compare(dir.path(), children.path(), FIRST);
    let path = dir.path().join("runs.json");
    let mut results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    results["settings"]["checkers"] = serde_json::json!([0]);
    std::fs::write(&path, results.to_string()).unwrap();
    let out = compare(dir.path(), children.path(), &["--resume", "runs.json"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("settings.checkers holds 0"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_corpus_folder_is_recorded_absolute_and_a_changed_one_is_refused_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let children = children();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/a.ts"), "let a: number = 1;\n").unwrap();
    let mut first = FIRST.to_vec();
    first.extend(["--corpus", "src"]);
    compare(dir.path(), children.path(), &first);
    let json = std::fs::read_to_string(dir.path().join("runs.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&json).unwrap();
    let corpus = results["settings"]["corpora"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(Path::new(&corpus).is_absolute(), "{corpus}");
    assert!(results["settings"]["corpus_digests"][&corpus].is_string());
    // Same size, other contents.
    std::fs::write(dir.path().join("src/a.ts"), "let b: number = 2;\n").unwrap();
    let out = compare(
        dir.path(),
        children.path(),
        &["--resume", "runs.json", "--runs", "2", "--extend"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("has changed since its runs were measured"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_resumed_bake_off_keeps_writing_the_csv_it_was_started_with() {
    let dir = tempfile::tempdir().unwrap();
    let children = children();
    let mut first = FIRST.to_vec();
    first.extend(["--csv", "runs.csv"]);
    compare(dir.path(), children.path(), &first);
    std::fs::remove_file(dir.path().join("runs.csv")).unwrap();
    compare(
        dir.path(),
        children.path(),
        &["--resume", "runs.json", "--runs", "2", "--extend"],
    );
    assert!(dir.path().join("runs.csv").is_file());
}
