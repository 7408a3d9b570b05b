//! Contenders beyond the built-in ones, measured in the real child binaries: each knob and
//! preload reaches only its own child, is proven by it, and a run it does not prove fails.
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

use compare::benchmark::judge::judge;
use compare::benchmark::launcher::{Binaries, Launcher, Request};
use compare::benchmark::measure::measure;
use compare::contender::{Contender, parse_list};
use compare::results::{Run, RunStatus};

/// mimalloc's own shared library, which testalloc's build script compiles from the sources
/// libmimalloc-sys bundles: a third-party malloc that the build makes, no system package.
const MIMALLOC: &str = testalloc::MIMALLOC;

/// The library the example contenders file preloads: Debian's libtcmalloc-minimal4,
/// optional, so the test that parses the example puts [`MIMALLOC`] in its place.
const EXAMPLE_TCMALLOC: &str = "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4";

/// The real child binaries cargo built beside these tests, running the checker.
pub(crate) fn binaries() -> Binaries {
    Binaries {
        dir: Path::new(env!("CARGO_BIN_EXE_checkbench-system"))
            .parent()
            .unwrap()
            .to_path_buf(),
        workload: compare::workload::WorkloadKind::default(),
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
    judge(
        contender,
        Some(compare::workload::WorkloadKind::default()),
        0,
        &measured,
    )
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

/// `mimalloc 3.3.2`: the version of the mimalloc sources libmimalloc-sys bundles, as the
/// preload child words what `mi_version` says.
fn bundled_mimalloc_version() -> String {
    // SAFETY: mi_version takes no arguments and only returns a constant.
    let v = unsafe { libmimalloc_sys::mi_version() };
    format!("mimalloc {}.{}.{}", v / 10_000, v / 100 % 100, v % 100)
}

#[test]
fn a_preloaded_mimalloc_serves_malloc_end_to_end_and_names_its_library_and_version() {
    let spec = format!("preload:mimalloc-e2e={MIMALLOC}");
    let preload = contender(&spec);
    assert_eq!(preload.to_string(), "mimalloc-e2e");
    let run = run(preload, command(preload));
    assert_eq!(run.status, RunStatus::Ok, "{}", run.status);
    let allocator = run.allocator.as_ref().unwrap();
    assert_eq!(allocator.name, "preload");
    // The file whose `malloc` the child found bound (dladdr), and the version the library
    // reports of itself: that of the sources it was built from.
    assert_eq!(
        allocator.identity,
        format!("libmimalloc.so ({})", bundled_mimalloc_version())
    );
    assert!(!run.digest.is_empty());
}

#[test]
fn a_preload_that_does_not_reach_the_child_fails_the_run() {
    let spec = format!("preload:mimalloc-lost={MIMALLOC}");
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
    // What the example protects is its syntax, names and knobs, not whether this machine
    // has Debian's tcmalloc: the one preload path is checked, then stood in for.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/contenders.example.toml");
    let text = std::fs::read_to_string(&example).unwrap();
    let quoted = format!("preload = \"{EXAMPLE_TCMALLOC}\"");
    assert_eq!(text.matches("preload = ").count(), 1, "{text}");
    assert!(
        text.contains(&quoted),
        "the example preloads {EXAMPLE_TCMALLOC}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("contenders.toml");
    let stand_in = format!("preload = \"{MIMALLOC}\"");
    std::fs::write(&path, text.replace(&quoted, &stand_in)).unwrap();
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
    let tcmalloc = file.defined[2].variant().unwrap();
    assert_eq!(tcmalloc.preload.as_deref(), Some(Path::new(MIMALLOC)));
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
        readme.contains("data/contenders.example.toml") && readme.contains(EXAMPLE_TCMALLOC),
        "the README shows the example file"
    );
}

#[test]
fn a_results_file_with_knob_and_named_contenders_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.json");
    let mut results = crate::fake::plan(&["slice-nohuge"], &[1], 1, 0);
    let knob = contender("jemalloc:thp=always,dirty_decay_ms=0");
    let preload = contender(&format!("preload:mimalloc-saved={MIMALLOC}"));
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
    contender(&format!("preload:mimalloc-twice={MIMALLOC}"));
    assert_eq!(
        contender(&format!("preload:mimalloc-twice={MIMALLOC}")).to_string(),
        "mimalloc-twice",
        "the same definition again is the same contender"
    );
    // The same library by another path is another definition.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("libmimalloc-copy.so");
    std::fs::copy(MIMALLOC, &copy).unwrap();
    let other = format!("preload:mimalloc-twice={}", copy.display());
    let error = other.parse::<Contender>().unwrap_err().to_string();
    assert!(error.contains("defined twice"), "{error}");
    let error = format!("preload:jemalloc={MIMALLOC}")
        .parse::<Contender>()
        .unwrap_err()
        .to_string();
    assert!(error.contains("`jemalloc` is taken"), "{error}");
}
