//! Any command as the workload: `compare --command CMD` measures `sh -c CMD` under each
//! contender by LD_PRELOAD, proves each run's allocator, and refuses what cannot be measured
//! before the first run.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "../../../preload/tests/support/library.rs"]
pub mod library;

/// The folder holding `libslice_alloc.so`, built once per test process with the profile of
/// this test binary (`cargo test -p compare` builds no cdylib of another package).
pub fn library_dir() -> PathBuf {
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
    refused_with_children_saying(empty.path(), args, words);
}

/// compare with children from `children` refuses `args` before any run, saying every one of
/// `words`.
pub fn refused_with_children_saying(children: &Path, args: &[&str], words: &[&str]) {
    let (out, dir) = compare(children, args);
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
    let library = &results["environment"]["children"]["libslice_alloc.so"];
    let own = compare::environment::BuildInfo::current();
    assert_eq!(library["source_digest"], own.source_digest, "{library}");
    assert_eq!(library["profile"], "release", "{library}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("`printf 'b\\na\\nc\\n' | sort`"), "{table}");
}

#[test]
fn a_command_whose_output_never_repeats_has_no_ok_run_unless_no_digest() {
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
        !out.status.success(),
        "a bake-off without an ok run fails: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = load(&dir);
    let system = set(&results, "system");
    assert_eq!(
        system["ok_runs"], 0,
        "no run is kept at random: {}",
        system["runs"]
    );
    let failed: Vec<&str> = system["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(failed.len(), 3);
    assert!(
        failed
            .iter()
            .all(|s| s.starts_with("digest unsettled: 3 different digests in 3 runs")),
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
fn a_slice_run_whose_program_escapes_the_preload_is_never_ok_and_says_which() {
    never_ok(
        "slice-hybrid",
        "slice-hybrid",
        "exec env -u LD_PRELOAD sort /dev/null",
        &["(sort)", "LD_PRELOAD"],
    );
}

/// The escapes of a program that drops the preload before its exec, in the same pid as a
/// preloaded program (`exec`), in a forked child (`; true` keeps `sh` from exec'ing it), and
/// through another shell.
const ESCAPES: &[&str] = &[
    "exec env -u LD_PRELOAD sort /dev/null",
    "env -u LD_PRELOAD sort /dev/null; true",
    "bash -c \"unset LD_PRELOAD; exec sort /dev/null\"",
];

/// The slice library as a third-party preload, `preload:slicelib=PATH`, and its name.
fn slice_as_preload() -> (String, &'static str) {
    let spec = format!("preload:slicelib={}", library::library().display());
    (spec, "slicelib")
}

/// compare under `spec` named `contender` (also the baseline, no control) on `command`, one
/// round: it fails, no run of it is ok, and its error or a run's status says every one of
/// `words`.
fn never_ok(spec: &str, contender: &str, command: &str, words: &[&str]) {
    let (out, dir) = compare(
        &library_dir(),
        &[
            "--command",
            command,
            "--contenders",
            spec,
            "--baseline",
            contender,
            "--no-control",
            "--runs",
            "1",
        ],
    );
    let mut said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "`{command}` under {contender}: {said}"
    );
    assert!(!said.contains("panicked"), "{said}");
    if dir.path().join("runs.json").exists() {
        let results = load(&dir);
        let set = set(&results, contender);
        assert_eq!(
            set["ok_runs"], 0,
            "`{command}` under {contender}: {}",
            set["runs"]
        );
        said += &set["runs"].to_string();
    }
    for word in words {
        assert!(
            said.contains(word),
            "`{command}` under {contender}: `{word}` not in {said}"
        );
    }
}

#[test]
fn a_program_that_drops_the_preload_is_never_ok_under_a_preload_contender() {
    let (spec, name) = slice_as_preload();
    for escape in ESCAPES {
        never_ok(&spec, name, escape, &["(sort)", "libc.so", "LD_PRELOAD"]);
    }
}

#[test]
fn a_program_that_drops_the_preload_is_never_ok_under_a_slice_contender_even_beside_a_served_one() {
    for escape in ESCAPES {
        // A sort that is served, so that the run has a statistics line to show.
        let command = format!("printf 'b\\na\\n' | sort > /dev/null; {escape}");
        let words = ["(sort)", "libc.so", "LD_PRELOAD"];
        never_ok("slice-hybrid", "slice-hybrid", &command, &words);
    }
}

#[test]
fn a_program_the_preload_reaches_in_every_image_is_ok_under_a_preload_contender() {
    let (spec, contender) = slice_as_preload();
    let (out, dir) = compare(
        &library_dir(),
        &[
            "--command",
            "printf 'b\\na\\n' | sort; exec env sort /dev/null",
            "--contenders",
            &spec,
            "--baseline",
            contender,
            "--no-control",
            "--runs",
            "1",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = load(&dir);
    let proof = &set(&results, contender)["allocator"];
    assert_eq!(proof["command"]["method"], "bindings", "{proof}");
    let executables = proof["command"]["executables"].to_string();
    for program in ["sh", "env", "sort"] {
        assert!(executables.contains(program), "{executables}");
    }
    assert!(
        proof["identity"]
            .as_str()
            .unwrap()
            .starts_with("libslice_alloc.so: malloc bound to it in"),
        "{proof}"
    );
}

/// A statistics line of a served process of `exe` under hybrid@8: `small` small requests
/// served by the slice allocator, `fallen` handed to glibc because its thread had no arena.
fn stats_line(exe: &str, small: u64, fallen: u64) -> compare::command::proof::StatsLine {
    use compare::command::proof::{Fallbacks, StatsLine};
    StatsLine {
        pid: 7,
        exe: exe.to_string(),
        served: true,
        policy: Some("hybrid@8".to_string()),
        reservation_bytes: 64 << 30,
        slice_bytes: 64 << 20,
        arenas_claimed: 1,
        small_requests: small,
        fallbacks: Fallbacks {
            no_arena: fallen,
            total: fallen,
            ..Fallbacks::default()
        },
        class_carved_bytes: vec![4096; 32],
        ..StatsLine::default()
    }
}

#[test]
fn one_process_whose_small_requests_all_went_to_glibc_fails_the_run_beside_a_served_one() {
    use compare::command::proof::slice_proof;
    let hybrid = "hybrid".parse().unwrap();
    // 50 of 100,050 small requests in all (0.05%), but every one of the worker's.
    let lines = [
        stats_line("/usr/bin/sort", 100_000, 0),
        stats_line("/usr/bin/worker", 0, 50),
    ];
    let why = slice_proof(hybrid, &lines).unwrap_err();
    assert!(
        why.contains("/usr/bin/worker") && why.contains("50 of 50"),
        "{why}"
    );
    // Each process within the share passes.
    let fine = [
        stats_line("/usr/bin/sort", 100_000, 0),
        stats_line("/usr/bin/worker", 10_000, 1),
    ];
    assert!(slice_proof(hybrid, &fine).is_ok());
}

/// Whether process `pid` is gone (or a zombie nobody needs to kill).
fn gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn a_timed_out_command_ends_with_its_whole_process_group_though_a_grandchild_holds_stdout() {
    let scratch = tempfile::tempdir().unwrap();
    let pidfile = scratch.path().join("grandchild");
    // The grandchild keeps the command's stdout open for two minutes.
    let command = format!("sleep 120 & echo $! > {}; wait", pidfile.display());
    let started = std::time::Instant::now();
    let (out, _dir) = compare(
        scratch.path(),
        &[
            "--command",
            &command,
            "--contenders",
            "system",
            "--baseline",
            "system",
            "--no-control",
            "--runs",
            "1",
            "--timeout",
            "2",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("timed out"), "{stderr}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "compare waited {:?} for the grandchild: {stderr}",
        started.elapsed()
    );
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let mut waited = 0;
    while !gone(pid) && waited < 50 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    assert!(gone(pid), "the grandchild {pid} outlived its run");
    // SAFETY: a plain signal to a process this test's command started, if still there.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

/// A served `sort`, then a worker that runs without the preload: `env -i` clears its whole
/// environment (LD_DEBUG with it, so ld.so writes nothing of it) and it spins for a while.
const UNSERVED_WORKER: &str = "printf 'b\\na\\n' | sort > /dev/null; env -i /bin/sh -c 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'";

#[test]
fn a_process_tree_with_one_unpreloaded_worker_is_never_ok_and_names_it() {
    let (spec, name) = slice_as_preload();
    for (spec, name) in [(spec.as_str(), name), ("slice-hybrid", "slice-hybrid")] {
        never_ok(spec, name, UNSERVED_WORKER, &["dash", "not served"]);
    }
}

#[test]
fn a_statically_linked_program_anywhere_in_the_tree_is_never_ok() {
    let ldconfig = "/sbin/ldconfig";
    if compare::command::elf::linking(Path::new(ldconfig)) != compare::command::elf::Linking::Static
    {
        return;
    }
    let command = format!("printf 'b\\na\\n' | sort > /dev/null; {ldconfig} -p > /dev/null");
    let (spec, name) = slice_as_preload();
    for (spec, name) in [(spec.as_str(), name), ("slice-hybrid", "slice-hybrid")] {
        never_ok(spec, name, &command, &["ldconfig", "statically linked"]);
    }
}

/// `sh -c SCRIPT` measured as a run is, with a time limit, and the pid its background child
/// wrote to `pidfile` (the script names it `$PIDFILE`).
fn measure_leaving_a_grandchild(
    script: &str,
    timeout: Option<std::time::Duration>,
) -> (compare::benchmark::measure::Measurement, i32) {
    let scratch = tempfile::tempdir().unwrap();
    let pidfile = scratch.path().join("grandchild");
    let mut command = Command::new("/bin/sh");
    command.args(["-c", script]).env("PIDFILE", &pidfile);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let measured = compare::benchmark::measure::measure(command, timeout, &stop).unwrap();
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    (measured, pid)
}

/// Whether `pid` is gone within 5 s.
fn gone_soon(pid: i32) -> bool {
    for _ in 0..50 {
        if gone(pid) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

#[test]
fn a_measured_run_past_its_time_is_killed_with_its_whole_process_group() {
    let started = std::time::Instant::now();
    let (measured, pid) = measure_leaving_a_grandchild(
        "sleep 120 & echo $! > \"$PIDFILE\"; wait",
        Some(std::time::Duration::from_secs(1)),
    );
    assert!(measured.timed_out.is_some());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "waited {:?} for the grandchild",
        started.elapsed()
    );
    assert!(gone_soon(pid), "the grandchild {pid} outlived its run");
}

#[test]
fn a_straggler_holding_stdout_dies_when_its_run_ends_and_the_run_is_ok() {
    let started = std::time::Instant::now();
    let (measured, pid) =
        measure_leaving_a_grandchild("sleep 120 & echo $! > \"$PIDFILE\"; echo done", None);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "waited {:?} for the straggler",
        started.elapsed()
    );
    assert_eq!(measured.stdout, b"done\n");
    assert!(compare::benchmark::judge::exit_status(&measured).is_ok());
    assert!(gone_soon(pid), "the straggler {pid} outlived its run");
}

#[test]
fn a_process_that_leaves_the_group_and_holds_stdout_fails_the_run_after_the_grace() {
    let started = std::time::Instant::now();
    // The parent ends once its child has left the group.
    let script = "setsid sh -c ': > \"$PIDFILE.left\"; exec sleep 120' & echo $! > \"$PIDFILE\"; \
                  while [ ! -e \"$PIDFILE.left\" ]; do sleep 0.05; done; echo done";
    let (measured, pid) = measure_leaving_a_grandchild(script, None);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "waited {:?} for the escaped process",
        started.elapsed()
    );
    let why = compare::benchmark::judge::exit_status(&measured).unwrap_err();
    assert!(why.contains("process group"), "{why}");
    // SAFETY: a signal to the sleep this test started (it left every group compare kills).
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

#[test]
fn a_command_that_is_not_found_is_refused_before_any_run_under_slice_contenders_alone() {
    refused_with_children_saying(
        &library_dir(),
        &[
            "--command",
            "no-such-program-of-checkbench",
            "--contenders",
            "slice-hybrid,slice-nohuge",
        ],
        &[
            "no-such-program-of-checkbench",
            "not found",
            "before the first run",
        ],
    );
}

#[test]
fn a_command_that_fails_without_any_preload_is_refused_before_any_run_whatever_the_contenders() {
    // Runs under every preload, fails under glibc's malloc alone: no contender runs it plain.
    let command = "[ -n \"$LD_PRELOAD\" ] || { echo 'error: needs a preload' >&2; \
                   echo 'more detail' >&2; exit 4; }";
    refused_with_children_saying(
        &library_dir(),
        &[
            "--command",
            command,
            "--contenders",
            "slice-nohuge",
            "--no-control",
        ],
        &[
            "fails under glibc's malloc",
            "before the first run",
            "exit code 4: error: needs a preload",
        ],
    );
}

/// A command that succeeds its first `good` times (counted in `counter`), then fails saying
/// `error: boom` and, after it, another line.
fn fails_after(counter: &Path, good: u32) -> String {
    let counter = counter.display();
    format!(
        "n=$(cat {counter} 2>/dev/null || echo 0); echo $((n + 1)) > {counter}; \
         [ \"$n\" -lt {good} ] || {{ echo 'error: boom' >&2; echo 'more detail' >&2; exit 3; }}"
    )
}

#[test]
fn a_probe_failure_and_a_measured_run_failure_say_the_same_words() {
    let counters = tempfile::tempdir().unwrap();
    let plan = |command: &str| {
        [
            "--command".to_string(),
            command.to_string(),
            "--contenders".to_string(),
            "slice-nohuge".to_string(),
            "--no-control".to_string(),
            "--runs".to_string(),
            "1".to_string(),
        ]
    };
    // Glibc's trial passes, the binding probe under slice-nohuge fails: refused.
    let probed = fails_after(&counters.path().join("probe"), 1);
    let args = plan(&probed);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused_with_children_saying(
        &library_dir(),
        &args,
        &["slice-nohuge", "binding probe", "exit code 3: error: boom"],
    );
    // Glibc's trial and the probe pass, the measured run fails: a failed run.
    let measured = fails_after(&counters.path().join("run"), 2);
    let args = plan(&measured);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, dir) = compare(&library_dir(), &args);
    let said = String::from_utf8_lossy(&out.stderr);
    let results = load(&dir);
    let runs = &set(&results, "slice-nohuge")["runs"];
    assert_eq!(
        runs[0]["status"], "exit code 3: error: boom",
        "{said}\n{runs}"
    );
}
