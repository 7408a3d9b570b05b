//! Bad input stops compare before any child runs, with a message that names the culprit.
use std::process::{Command, Output};

fn compare(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_compare"))
        .args(args)
        .current_dir(dir.path())
        .env("CHECKBENCH_CACHE", dir.path().join("cache"))
        .output()
        .unwrap()
}

fn fails_saying(args: &[&str], words: &[&str]) {
    let out = compare(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    for word in words {
        assert!(stderr.contains(word), "{args:?}: `{word}` not in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "no table, so no run: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn an_unknown_contender_is_named_with_the_known_ones() {
    fails_saying(
        &["--contenders", "slice-hybrid,tcmalloc"],
        &["unknown contender `tcmalloc`", "slice-hybrid@N"],
    );
}

#[test]
fn an_unknown_baseline_is_an_error() {
    fails_saying(&["--baseline", "slice-fast"], &["--baseline", "slice-fast"]);
}

#[test]
fn zero_runs_is_refused() {
    fails_saying(&["--runs", "0"], &["--runs"]);
}

#[test]
fn fewer_most_rounds_than_least_rounds_are_refused() {
    fails_saying(
        &["--min-runs", "12", "--max-runs", "10"],
        &["--max-runs 10 is below --min-runs 12"],
    );
}

#[test]
fn a_precision_that_is_not_a_positive_percentage_is_refused() {
    fails_saying(&["--precision", "0"], &["--precision", "positive"]);
    fails_saying(
        &["--precision", "two"],
        &["--precision", "not a percentage"],
    );
}

#[test]
fn fixed_rounds_and_a_precision_are_refused_together() {
    fails_saying(
        &["--runs", "5", "--precision", "2"],
        &["--runs", "--precision"],
    );
}

#[test]
fn an_output_in_a_missing_directory_is_refused_before_any_run() {
    fails_saying(
        &["--json", "/no/such/dir/results.json"],
        &["/no/such/dir/results.json", "does not exist"],
    );
}

#[test]
fn an_unknown_corpus_is_refused_before_any_run() {
    fails_saying(&["--corpus", "no-such-corpus"], &["no-such-corpus"]);
}

#[test]
fn a_resume_file_from_another_corpus_is_refused() {
    let stored = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/results.json");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("previous.json");
    std::fs::copy(stored, &copy).unwrap();
    fails_saying(
        &["--corpus", "typeorm", "--resume", copy.to_str().unwrap()],
        &["cannot resume", "synthetic,trpc", "typeorm"],
    );
    assert_eq!(
        std::fs::read(stored).unwrap(),
        std::fs::read(&copy).unwrap()
    );
}

#[test]
fn a_missing_results_file_for_report_is_named() {
    fails_saying(&["report", "--from", "nowhere.json"], &["nowhere.json"]);
}

#[test]
fn a_file_that_is_not_a_results_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("other.json");
    std::fs::write(&file, "{\"name\": \"not results\"}").unwrap();
    fails_saying(
        &["report", "--from", file.to_str().unwrap()],
        &["other.json", "is not a compare results file"],
    );
}

#[test]
fn an_output_that_is_a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fails_saying(
        &["--markdown", dir.path().to_str().unwrap()],
        &["it is a directory"],
    );
}

#[test]
fn more_checkers_than_a_child_takes_are_refused_before_any_run() {
    fails_saying(&["--checkers", "1,300"], &["--checkers", "300", "1..=256"]);
}

#[test]
fn a_corpus_named_twice_is_refused() {
    fails_saying(
        &["--corpus", "synthetic,synthetic"],
        &["--corpus names `synthetic` twice"],
    );
}

#[test]
fn a_round_count_past_any_honest_bake_off_is_refused_before_any_run() {
    fails_saying(&["--runs", "4294967295"], &["--runs", "1..=100000"]);
}

#[test]
fn an_unknown_knob_is_named_with_the_known_ones_before_any_run() {
    fails_saying(
        &["--contenders", "jemalloc:thq=always"],
        &["jemalloc has no knob `thq`", "thp", "dirty_decay_ms"],
    );
    fails_saying(
        &["--contenders", "mimalloc:allow_thq=0"],
        &["mimalloc has no knob `allow_thq`", "allow_thp"],
    );
    fails_saying(
        &["--contenders", "system:hugepages=1"],
        &["system has no knob `hugepages`", "hugetlb"],
    );
}

#[test]
fn an_unknown_allocator_with_knobs_is_named_with_those_that_take_knobs() {
    fails_saying(
        &["--contenders", "tcmalloc:x=1"],
        &[
            "unknown allocator `tcmalloc`",
            "mimalloc, jemalloc and system",
            "preload:NAME=PATH",
        ],
    );
}

#[test]
fn a_knob_value_of_the_wrong_kind_is_refused() {
    fails_saying(
        &["--contenders", "jemalloc:dirty_decay_ms=soon"],
        &["dirty_decay_ms", "`soon`", "an integer"],
    );
}

#[test]
fn a_preload_of_a_missing_library_is_refused_before_any_run() {
    fails_saying(
        &["--contenders", "preload:ghost=/nowhere/libghost.so"],
        &["preload library /nowhere/libghost.so", "No such file"],
    );
}

#[test]
fn a_contenders_file_with_an_unknown_field_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("contenders.toml");
    std::fs::write(
        &file,
        "[[contender]]\nname = \"x\"\nallocator = \"jemalloc\"\nknbos = {}\n",
    )
    .unwrap();
    fails_saying(
        &["--contenders-file", file.to_str().unwrap()],
        &["--contenders-file", "contenders.toml", "knbos"],
    );
}

#[test]
fn a_precision_for_a_corpus_the_plan_does_not_measure_is_refused_naming_it() {
    fails_saying(
        &["--precision-for", "typeorm=3", "--checkers", "1"],
        &["--precision-for", "`typeorm`", "synthetic"],
    );
}
