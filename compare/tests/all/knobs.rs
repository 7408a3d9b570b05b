//! Contenders beyond the built-in ones, measured in the real child binaries: each knob and
//! preload reaches only its own child, is proven by it, and a run it does not prove fails.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use compare::benchmark::launcher::{Binaries, Launcher, Request};
use compare::benchmark::measure::{judge, measure};
use compare::contender::{Contender, parse_list};
use compare::results::{Run, RunStatus};

/// The Debian package libtcmalloc-minimal4's library, which .ci/run installs.
const TCMALLOC: &str = "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4";

fn binaries() -> Binaries {
    Binaries {
        dir: Path::new(env!("CARGO_BIN_EXE_checkbench-system"))
            .parent()
            .unwrap()
            .to_path_buf(),
        workload: compare::workload::WorkloadKind::Checker,
        cache_dir: Some(std::env::temp_dir().join("checkbench-knob-tests-cache")),
        timeout: None,
    }
}

fn command(contender: Contender) -> Command {
    binaries().command(&Request {
        contender,
        corpus: "synthetic",
        checkers: 1,
    })
}

fn run(contender: Contender, command: Command) -> Run {
    let stop = AtomicBool::new(false);
    let measured = measure(command, None, &stop).unwrap();
    judge(contender, 0, &measured)
}

fn contender(name: &str) -> Contender {
    name.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn identity(run: &Run) -> String {
    run.allocator
        .as_ref()
        .map_or_else(String::new, |a| a.identity.clone())
}

/// The environment `command` sets (`Some`) or removes (`None`), by name.
fn env_of(command: &Command, key: &str) -> Option<Option<String>> {
    command
        .get_envs()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
}

#[test]
fn a_knob_reaches_its_own_child_and_no_other() {
    let knob = command(contender("jemalloc:thp=never"));
    assert_eq!(
        env_of(&knob, "_RJEM_MALLOC_CONF"),
        Some(Some("abort_conf:true,thp:never".to_string()))
    );
    assert_eq!(
        env_of(&knob, "CHECKBENCH_KNOBS"),
        Some(Some("thp=never".to_string()))
    );
    for plain in [Contender::Jemalloc, Contender::Mimalloc, Contender::System] {
        let command = command(plain);
        for key in [
            "_RJEM_MALLOC_CONF",
            "CHECKBENCH_KNOBS",
            "LD_PRELOAD",
            "GLIBC_TUNABLES",
        ] {
            assert_eq!(env_of(&command, key), Some(None), "{plain} keeps {key}");
        }
    }
    let mimalloc = command(contender("mimalloc:allow_thp=0"));
    assert_eq!(
        env_of(&mimalloc, "MIMALLOC_ALLOW_THP"),
        Some(Some("0".to_string()))
    );
    let glibc = command(contender("system:hugetlb=1"));
    assert_eq!(
        env_of(&glibc, "GLIBC_TUNABLES"),
        Some(Some("glibc.malloc.hugetlb=1".to_string()))
    );
}

#[test]
fn a_jemalloc_knob_is_read_back_through_mallctl_and_shown_in_the_identity() {
    let thp_never = contender("jemalloc:thp=never");
    let run = run(thp_never, command(thp_never));
    assert_eq!(run.status, RunStatus::Ok, "{}", run.status);
    assert!(
        identity(&run).contains(r#"thp=never: opt.thp reads "never""#),
        "{}",
        identity(&run)
    );
}

#[test]
fn mimalloc_without_thp_is_read_back_and_its_process_has_thp_disabled() {
    let no_thp = contender("mimalloc:allow_thp=0");
    let run = run(no_thp, command(no_thp));
    assert_eq!(run.status, RunStatus::Ok, "{}", run.status);
    let identity = identity(&run);
    assert!(
        identity.contains("allow_thp=0: mi_option_get reads 0")
            && identity.contains("THP disabled for the process"),
        "{identity}"
    );
    assert_eq!(
        run.figures.anon_huge_peak_kib, 0,
        "THP is off for the process"
    );
}

#[test]
fn a_knob_that_did_not_take_effect_fails_the_run() {
    let thp_never = contender("jemalloc:thp=never");
    let mut lying = command(thp_never);
    lying.env("_RJEM_MALLOC_CONF", "thp:always");
    let run = run(thp_never, lying);
    let status = run.status.to_string();
    assert!(
        status.contains("exit code 3")
            && status.contains("thp=never did not take effect")
            && status.contains(r#"opt.thp reads "always""#),
        "{status}"
    );
}

#[test]
fn a_child_that_does_not_prove_its_knob_fails_the_run() {
    // The plain jemalloc child's command, judged as the knob contender: it ran, but
    // proved nothing (as a child built before knobs would).
    let thp_never = contender("jemalloc:thp=never");
    let run = run(thp_never, command(Contender::Jemalloc));
    let status = run.status.to_string();
    assert!(
        status.contains("unproven knob: asked for thp=never"),
        "{status}"
    );
}

fn tcmalloc() -> PathBuf {
    let path = PathBuf::from(TCMALLOC);
    assert!(
        path.is_file(),
        "{TCMALLOC} is missing: install the Debian package libtcmalloc-minimal4 (.ci/run does)"
    );
    path
}

#[test]
fn a_preloaded_tcmalloc_serves_malloc_end_to_end_and_names_its_library() {
    let spec = format!("preload:tcmalloc-e2e={}", tcmalloc().display());
    let preload = contender(&spec);
    assert_eq!(preload.to_string(), "tcmalloc-e2e");
    let run = run(preload, command(preload));
    assert_eq!(run.status, RunStatus::Ok, "{}", run.status);
    let allocator = run.allocator.as_ref().unwrap();
    assert_eq!(allocator.name, "preload");
    assert!(
        allocator.identity.starts_with("libtcmalloc_minimal.so.4")
            && allocator.identity.contains("gperftools"),
        "{}",
        allocator.identity
    );
    assert!(!run.digest.is_empty());
}

#[test]
fn a_preload_that_does_not_reach_the_child_fails_the_run() {
    let spec = format!("preload:tcmalloc-lost={}", tcmalloc().display());
    let preload = contender(&spec);
    let mut lost = command(preload);
    lost.env_remove("LD_PRELOAD");
    let status = run(preload, lost).status.to_string();
    assert!(
        status.contains("is served by") && status.contains("not by the preload library"),
        "{status}"
    );
}

#[test]
fn knob_lists_continue_a_knob_contender_after_a_comma() {
    let names: Vec<String> = parse_list("jemalloc:thp=always,dirty_decay_ms=0,system,mimalloc")
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        names,
        ["jemalloc:thp=always,dirty_decay_ms=0", "system", "mimalloc"]
    );
}

#[test]
fn a_control_of_a_knob_contender_runs_its_child_under_its_own_name() {
    let control = contender("jemalloc:thp=always#2");
    assert_eq!(control.to_string(), "jemalloc:thp=always#2");
    assert_eq!(control.runs_as(), contender("jemalloc:thp=always"));
    assert_eq!(control.binary_name(), "checkbench-jemalloc");
    assert!(control.variant().is_some());
}

#[test]
fn the_example_contenders_file_of_the_readme_parses() {
    tcmalloc();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/contenders.example.toml");
    let file = compare::contender::file::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = file.run.iter().map(|c| c.to_string()).collect();
    assert_eq!(names.len(), 10, "{names:?}");
    assert!(names.contains(&"jemalloc:thp=always".to_string()));
    let defined: Vec<String> = file.defined.iter().map(|c| c.to_string()).collect();
    assert_eq!(
        defined,
        [
            "mimalloc-nothp",
            "glibc-hugetlb",
            "tcmalloc",
            "jemalloc-eager"
        ]
    );
    let eager = file.defined[3].variant().unwrap();
    assert_eq!(
        eager.child_env()[0],
        (
            "_RJEM_MALLOC_CONF".to_string(),
            "abort_conf:true,thp:always,dirty_decay_ms:0,muzzy_decay_ms:0".to_string()
        )
    );
    let readme = include_str!("../../README.md");
    assert!(
        readme.contains("data/contenders.example.toml"),
        "the README shows the example file"
    );
}

#[test]
fn a_results_file_with_knob_and_named_contenders_loads_back() {
    tcmalloc();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.json");
    let mut results = crate::fake::plan(&["slice-nohuge"], &[1], 1, 0);
    let knob = contender("jemalloc:thp=always,dirty_decay_ms=0");
    let preload = contender(&format!("preload:tcmalloc-saved={TCMALLOC}"));
    results.settings.contenders.extend([knob, preload]);
    results.refresh();
    std::fs::write(&path, serde_json::to_vec(&results).unwrap()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"definitions\""), "{text}");
    let loaded = compare::results::Results::load(&path).unwrap();
    assert_eq!(loaded.settings.contenders[1..], [knob, preload]);
}

#[test]
fn a_name_defined_twice_differently_is_refused_and_a_built_in_name_cannot_be_taken() {
    tcmalloc();
    contender(&format!("preload:tcmalloc-twice={TCMALLOC}"));
    assert_eq!(
        contender(&format!("preload:tcmalloc-twice={TCMALLOC}")).to_string(),
        "tcmalloc-twice",
        "the same definition again is the same contender"
    );
    let other = "preload:tcmalloc-twice=/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal_debug.so.4";
    let error = other.parse::<Contender>().unwrap_err().to_string();
    assert!(error.contains("defined twice"), "{error}");
    let error = format!("preload:jemalloc={TCMALLOC}")
        .parse::<Contender>()
        .unwrap_err()
        .to_string();
    assert!(error.contains("`jemalloc` is taken"), "{error}");
}
