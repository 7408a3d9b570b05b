//! `--shard K/N` and `compare merge`: a plan run in shards and merged is the plan run whole,
//! and what cannot be merged is refused naming the files.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::AtomicBool;

use compare::benchmark::runner::Runner;
use compare::export::{Format, Outputs};
use compare::merge;
use compare::output::progress::Progress;
use compare::results::Results;
use compare::shard::{self, Shard};
use compare::workload::WorkloadKind;

use crate::fake::{FakeLauncher, plan};

const COMPARE: &str = env!("CARGO_BIN_EXE_compare");

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// Six cells: three corpora (the fake children never open them) at 1 and 8 checkers.
fn six_cells() -> Results {
    let mut results = plan(&["slice-nohuge", "system", "mimalloc"], &[1, 8], 3, 1);
    results.settings.corpora = ["trpc", "excalidraw", "synthetic"]
        .map(String::from)
        .to_vec();
    results.settings.control = true;
    results.settings.seed = 2026;
    results
}

/// Runs `results` with honest fake children, writing `json` if given; the launches in order.
fn run(results: &mut Results, json: Option<&Path>) -> Vec<(String, String, usize)> {
    let launcher = FakeLauncher::honest();
    let stop = AtomicBool::new(false);
    let outputs = Outputs::new().with(Format::Json, json);
    Runner {
        launcher: &launcher,
        stop: &stop,
        outputs: &outputs,
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(results)
    .unwrap();
    launcher.launches()
}

fn sharded(mut results: Results, index: usize, count: usize) -> Results {
    results.shard = Some(shard::record(&results.settings, Shard { index, count }).unwrap());
    results
}

/// The shards of `results`' plan, each run and written to its own file in `dir`.
fn run_shards(results: &Results, count: usize, dir: &Path) -> Vec<PathBuf> {
    (1..=count)
        .map(|k| {
            let path = dir.join(format!("shard-{k}.json"));
            run(&mut sharded(results.clone(), k, count), Some(&path));
            path
        })
        .collect()
}

/// Per result set: its runs' rounds, digests, statuses and layout paddings, by cell and
/// contender; the figures (wall time, ...) are the fake children's and differ run to run.
type Shape = BTreeMap<(String, usize, String), Vec<(usize, String, String, usize)>>;

fn shape(results: &Results) -> Shape {
    results
        .results
        .iter()
        .map(|set| {
            let runs = set.runs.iter().map(|run| {
                (
                    run.round,
                    run.digest.clone(),
                    run.status.to_string(),
                    run.covariates.env_padding_bytes,
                )
            });
            (
                (set.corpus.clone(), set.checkers, set.contender.to_string()),
                runs.collect(),
            )
        })
        .collect()
}

fn load(paths: &[PathBuf]) -> Vec<(PathBuf, Results)> {
    paths
        .iter()
        .map(|p| (p.clone(), Results::load(p).unwrap()))
        .collect()
}

fn refused(paths: &[PathBuf]) -> String {
    match merge::merge(load(paths)) {
        Ok(_) => panic!("merging {paths:?} was not refused"),
        Err(error) => format!("{error:#}"),
    }
}

/// A change made to a results file's JSON.
type Edit = fn(&mut serde_json::Value);

fn edit(path: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    change(&mut doc);
    std::fs::write(path, serde_json::to_vec(&doc).unwrap()).unwrap();
}

#[test]
fn a_shard_is_k_of_n_counting_from_one_and_says_so_when_given_a_zero_based_index() {
    assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
    assert_eq!(Shard { index: 2, count: 4 }.to_string(), "2/4");
    let zero = "0/4".parse::<Shard>().unwrap_err();
    assert!(
        zero.contains("counts from 1") && zero.contains("JOB_COMPLETION_INDEX + 1"),
        "{zero}"
    );
    for (text, why) in [
        ("5/4", "does not exist"),
        ("1/0", "at least 1 shard"),
        ("a/4", "not a whole number"),
        ("3", "not K/N"),
    ] {
        let error = text.parse::<Shard>().unwrap_err();
        assert!(error.contains(why), "{text}: {error}");
    }
}

#[test]
fn every_cell_goes_to_one_shard_and_the_shards_expected_times_differ_by_at_most_one_cell() {
    for workload in [
        WorkloadKind::default(),
        WorkloadKind::from_name("tsc").unwrap(),
    ] {
        let settings = compare::studies::reproduce::settings(workload, false, 2, 1);
        let cells = settings.corpora.len() * settings.checkers.len();
        for count in 1..=cells {
            let dealt = shard::assign(&settings, count);
            assert_eq!(dealt.len(), cells);
            let mut load = vec![0.0; count];
            for cell in &dealt {
                assert!((1..=count).contains(&cell.shard), "{cell:?}");
                load[cell.shard - 1] += cell.expected_run_s;
            }
            let heaviest = dealt.iter().map(|c| c.expected_run_s).fold(0.0, f64::max);
            let (lo, hi) = (
                load.iter().copied().fold(f64::INFINITY, f64::min),
                load.iter().copied().fold(0.0, f64::max),
            );
            assert!(lo > 0.0, "{workload} in {count}: an empty shard {load:?}");
            assert!(
                hi - lo <= heaviest + 1e-9,
                "{workload} in {count}: {load:?}"
            );
            // The records of the shards hold each cell once.
            let mut seen = BTreeSet::new();
            for k in 1..=count {
                let record = shard::record(&settings, Shard { index: k, count }).unwrap();
                for cell in record.cells {
                    assert!(seen.insert((cell.corpus, cell.checkers)));
                }
            }
            assert_eq!(seen.len(), cells);
        }
        let error = shard::record(
            &settings,
            Shard {
                index: 1,
                count: cells + 1,
            },
        )
        .unwrap_err();
        assert!(
            error.contains(&format!("at most {cells} shards")),
            "{error}"
        );
    }
    // Measured here: excalidraw at 8 checkers (1.99 s a run) outweighs trpc (0.21 s).
    let settings = compare::studies::reproduce::settings(WorkloadKind::default(), false, 2, 1);
    let excalidraw = shard::expected_run_s(&settings, "excalidraw", 8);
    assert!(excalidraw > 5.0 * shard::expected_run_s(&settings, "trpc", 8));
    assert_eq!(
        shard::expected_run_s(&settings, "trpc", 4),
        shard::expected_run_s(&settings, "trpc", 1)
    );
}

#[test]
fn a_shard_runs_only_its_cells_in_the_order_and_layout_of_the_unsharded_plan() {
    let mut whole = six_cells();
    let all = run(&mut whole, None);
    let mut covered = 0;
    for k in 1..=2 {
        let mut part = sharded(six_cells(), k, 2);
        let record = part.shard.clone().unwrap();
        let launched = run(&mut part, None);
        let expected: Vec<_> = all
            .iter()
            .filter(|(_, corpus, checkers)| record.holds(corpus, *checkers))
            .cloned()
            .collect();
        assert!(!launched.is_empty());
        assert_eq!(
            launched, expected,
            "shard {k}/2: the same launches in the same order"
        );
        covered += launched.len();
        let mine: Shape = shape(&whole)
            .into_iter()
            .filter(|((corpus, checkers, _), _)| record.holds(corpus, *checkers))
            .collect();
        assert_eq!(shape(&part), mine, "shard {k}/2: same rounds and paddings");
    }
    assert_eq!(covered, all.len());
}

#[test]
fn a_plan_run_whole_and_as_two_shards_merges_to_the_same_cells_digests_and_run_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut whole = six_cells();
    run(&mut whole, None);
    let files = run_shards(&six_cells(), 2, dir.path());
    // A stored summary is never trusted: the merge recomputes it from the runs.
    edit(&files[0], |doc| {
        for set in doc["results"].as_array_mut().unwrap() {
            set["median"]["wall_s"] = serde_json::json!(1e9);
        }
    });
    let merged = merge::merge(load(&files)).unwrap();
    assert!(!merged.side_by_side());
    let merged = &merged.machines[0].results;
    assert_eq!(shape(merged), shape(&whole));
    assert_eq!(merged.settings.corpora, whole.settings.corpora);
    assert!(merged.shard.is_none());
    assert_eq!(merged.merged_from.len(), 2);
    // Which figures a cell's control discredits follows from the fake children's timings,
    // which differ between the two bake-offs; the rounds are the plan's.
    let cells = |r: &Results| -> Vec<(String, usize, usize)> {
        r.cells
            .iter()
            .map(|c| (c.corpus.clone(), c.checkers, c.rounds))
            .collect()
    };
    assert_eq!(cells(merged), cells(&whole));
    let counts = |r: &Results| -> Vec<(String, usize, String, usize, usize)> {
        r.results
            .iter()
            .map(|s| {
                let key = (s.corpus.clone(), s.checkers, s.contender.to_string());
                (key.0, key.1, key.2, s.runs.len(), s.ok_runs)
            })
            .collect()
    };
    assert_eq!(
        counts(merged),
        counts(&whole),
        "same sets in the same order"
    );
    for set in &merged.results {
        let walls: Vec<f64> = set.ok().map(|run| run.figures.wall_s).collect();
        let median = compare::stats::median(&walls).unwrap();
        assert_eq!(set.median.unwrap().wall_s, median, "{}", set.contender);
        if set.contender != merged.settings.baseline {
            let pairs = merged.pairs(
                &set.corpus,
                set.checkers,
                set.contender,
                merged.settings.baseline,
                compare::stats::Metric::Wall,
            );
            let figures = |r: Option<compare::stats::Ratio>| r.map(|r| (r.ratio, r.low, r.high));
            let ratio = compare::stats::paired(&pairs);
            let wall = set.versus_baseline.as_ref().unwrap().wall;
            assert_eq!(figures(wall), figures(ratio), "{}", set.contender);
        }
    }
    // Written and read back as one results file, as `compare report` reads it.
    let out = dir.path().join("merged.json");
    let outputs = Outputs::new().with(Format::Json, Some(&out));
    merge::merge(load(&files)).unwrap().write(&outputs).unwrap();
    assert_eq!(shape(&Results::load(&out).unwrap()), shape(&whole));
}

#[test]
fn a_merge_refuses_other_builds_plans_workloads_corpus_files_and_names_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let files = run_shards(&six_cells(), 2, dir.path());
    let copy = |name: &str, change: Edit| {
        let path = dir.path().join(name);
        std::fs::copy(&files[1], &path).unwrap();
        edit(&path, change);
        vec![files[0].clone(), path]
    };
    let cases: [(&str, Edit, &str); 6] = [
        (
            "revision.json",
            |d| d["environment"]["git_revision"] = "0123abc".into(),
            "different builds of compare",
        ),
        (
            "sources.json",
            |d| d["environment"]["source_digest"] = "feedfacefeedface".into(),
            "different builds of compare",
        ),
        (
            "child.json",
            |d| {
                d["environment"]["children"] = serde_json::json!({"checkbench-slice":
                    {"revision": "r", "source_digest": "other", "profile": "release"}});
            },
            "unused",
        ),
        (
            "plan.json",
            |d| d["settings"]["seed"] = 7.into(),
            "different plans (seed 2026 vs 7)",
        ),
        (
            "workload.json",
            |d| d["settings"]["workload"] = "tsc".into(),
            "different workloads (checker and tsc)",
        ),
        (
            "corpus.json",
            |d| d["settings"]["corpus_digests"] = serde_json::json!({"trpc": "beef"}),
            "corpus `trpc` was other files",
        ),
    ];
    // Children differ only where both files name one: give the first file its own.
    edit(&files[0], |d| {
        d["environment"]["children"] = serde_json::json!({"checkbench-slice":
            {"revision": "r", "source_digest": "this", "profile": "release"}});
        d["settings"]["corpus_digests"] = serde_json::json!({"trpc": "cafe"});
    });
    for (name, change, why) in cases {
        let why = if name == "child.json" {
            "checkbench-slice children were built from different sources"
        } else {
            why
        };
        let pair = copy(name, change);
        let error = refused(&pair);
        assert!(error.contains(why), "{name}: {error}");
        assert!(
            error.contains(&pair[0].display().to_string())
                && error.contains(&pair[1].display().to_string()),
            "{name}: the files are named: {error}"
        );
    }
}

#[test]
fn a_merge_refuses_a_cell_measured_twice_a_missing_cell_an_unfinished_cell_and_a_whole_plan() {
    let dir = tempfile::tempdir().unwrap();
    let files = run_shards(&six_cells(), 2, dir.path());
    let twice = dir.path().join("again.json");
    std::fs::copy(&files[0], &twice).unwrap();
    let error = refused(&[files[0].clone(), files[1].clone(), twice.clone()]);
    assert!(
        error.contains("measured twice")
            && error.contains("again.json")
            && error.contains("shard-1.json"),
        "{error}"
    );

    let error = refused(&files[..1]);
    let second = Results::load(&files[1]).unwrap().shard.unwrap();
    for cell in &second.cells {
        let label = format!(
            "{} · {} checker{} (shard 2/2)",
            cell.corpus,
            cell.checkers,
            if cell.checkers == 1 { "" } else { "s" }
        );
        assert!(error.contains(&label), "{label}: {error}");
    }

    let cut = dir.path().join("cut.json");
    std::fs::copy(&files[1], &cut).unwrap();
    edit(&cut, |d| {
        let runs = d["results"][0]["runs"].as_array_mut().unwrap();
        runs.pop();
    });
    let error = refused(&[files[0].clone(), cut]);
    assert!(
        error.contains("unfinished") && error.contains("1 run to go") && error.contains("--resume"),
        "{error}"
    );

    let whole = dir.path().join("whole.json");
    run(&mut six_cells(), Some(&whole));
    let error = refused(&[files[0].clone(), whole]);
    assert!(error.contains("whole.json: it is not a shard"), "{error}");
}

#[test]
fn shards_from_two_kinds_of_machine_merge_side_by_side_never_into_one_figure() {
    let dir = tempfile::tempdir().unwrap();
    let files = run_shards(&six_cells(), 2, dir.path());
    edit(&files[0], |d| {
        d["environment"]["cpu_model"] = "Machine Kind A".into()
    });
    edit(&files[1], |d| {
        d["environment"]["cpu_model"] = "Machine Kind B".into()
    });
    let merged = merge::merge(load(&files)).unwrap();
    assert!(merged.side_by_side());
    assert_eq!(merged.machines.len(), 2);
    for (block, kind) in merged.machines.iter().zip(["Kind A", "Kind B"]) {
        assert!(block.machine.contains(kind), "{}", block.machine);
    }
    let paths: Vec<PathBuf> = ["m.json", "m.md", "m.csv", "m.svg"]
        .iter()
        .map(|n| dir.path().join(n))
        .collect();
    let outputs = Outputs::new()
        .with(Format::Json, Some(&paths[0]))
        .with(Format::Markdown, Some(&paths[1]))
        .with(Format::Csv, Some(&paths[2]))
        .with(Format::Svg, Some(&paths[3]));
    merged.write(&outputs).unwrap();
    let read = |i: usize| std::fs::read_to_string(&paths[i]).unwrap();
    let json: serde_json::Value = serde_json::from_str(&read(0)).unwrap();
    assert_eq!(json["machines"].as_array().unwrap().len(), 2);
    let markdown = read(1);
    assert!(
        markdown.contains("# Machine 1: ")
            && markdown.contains("Machine Kind A")
            && markdown.contains("# Machine 2: ")
            && markdown.contains("Machine Kind B"),
        "{markdown}"
    );
    let csv = read(2);
    assert!(csv.starts_with("machine,machine_facts,kind,"), "{csv}");
    let svg = read(3);
    assert_eq!(
        svg.matches("<svg").count(),
        3,
        "two figures inside one page"
    );
    assert!(svg.contains("Machine 1: ") && svg.contains("Machine 2: "));
    let text = merged.render_text(compare::output::table::Detail::Brief);
    assert!(text.contains("=== machine 1 of 2: ") && text.contains("=== machine 2 of 2: "));
}

// ---- the command line, with fake children ----

/// A folder of children whose mimalloc prints an honest report and notes every run in
/// `ran` (the compare processes below start no other child).
fn children(ran: &Path) -> tempfile::TempDir {
    let report = crate::fake::report(
        compare::contender::Contender::Mimalloc,
        "synthetic",
        1,
        "d1",
    );
    let json = serde_json::to_string(&report).unwrap();
    crate::fake::mimalloc_children(&format!(
        "echo run >> '{}'\ncat <<'END'\n{json}\nEND",
        ran.display()
    ))
}

fn compare(dir: &Path, children: &Path, extra: &[&str]) -> Output {
    Command::new(COMPARE)
        .args(["--quiet-wait", "0"])
        .args([
            "--contenders",
            "mimalloc",
            "--baseline",
            "mimalloc",
            "--corpus",
            "synthetic",
        ])
        .args([
            "--checkers",
            "1,2,3",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--no-calibration",
        ])
        .args(["--seed", "11", "--children"])
        .arg(children)
        .args(extra)
        .current_dir(dir)
        .env("CHECKBENCH_CACHE", dir.join("cache"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn two_shard_processes_and_a_merge_give_the_whole_plans_cells_digests_and_run_counts() {
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    let kids = children(&ran);
    ok(&compare(dir.path(), kids.path(), &["--json", "whole.json"]));
    let runs_whole = std::fs::read_to_string(&ran).unwrap().lines().count();
    assert_eq!(
        runs_whole,
        3 * 2 * 2,
        "3 cells, 2 rounds, mimalloc and its control"
    );
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let json = format!("shard-{k}.json");
        ok(&compare(
            dir.path(),
            kids.path(),
            &["--shard", &shard, "--json", &json],
        ));
    }
    let runs_all = std::fs::read_to_string(&ran).unwrap().lines().count();
    assert_eq!(
        runs_all,
        2 * runs_whole,
        "the shards ran every run once between them"
    );
    let first = Results::load(&dir.path().join("shard-1.json")).unwrap();
    let record = first.shard.as_ref().unwrap();
    assert_eq!((record.index, record.count, record.cells.len()), (1, 2, 2));
    assert_eq!(
        first.settings.checkers,
        vec![1, 2, 3],
        "the whole plan is recorded"
    );
    assert!(first.environment.machine.is_some(), "and the machine facts");

    let out = Command::new(COMPARE)
        .args([
            "merge",
            "shard-1.json",
            "shard-2.json",
            "--json",
            "merged.json",
        ])
        .args([
            "--csv",
            "merged.csv",
            "--markdown",
            "merged.md",
            "--svg",
            "merged.svg",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let table = ok(&out);
    assert!(table.contains("synthetic · 3 checkers"), "{table}");
    let whole = Results::load(&dir.path().join("whole.json")).unwrap();
    let merged = Results::load(&dir.path().join("merged.json")).unwrap();
    assert_eq!(shape(&merged), shape(&whole));
    let cells = |r: &Results| {
        r.cells
            .iter()
            .map(|c| (c.corpus.clone(), c.checkers, c.rounds))
            .collect::<Vec<_>>()
    };
    assert_eq!(cells(&merged), cells(&whole));
    assert_eq!(merged.settings.seed, 11);
    for name in ["merged.csv", "merged.md", "merged.svg"] {
        assert!(dir.path().join(name).is_file(), "{name}");
    }
    let markdown = std::fs::read_to_string(dir.path().join("merged.md")).unwrap();
    assert!(markdown.contains("synthetic · 2 checkers"), "{markdown}");

    // Merging a shard twice, or one alone, writes nothing.
    let out = Command::new(COMPARE)
        .args(["merge", "shard-1.json", "--json", "lone.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no file given holds cell"), "{stderr}");
    assert!(!dir.path().join("lone.json").exists());
}

#[test]
fn a_dry_run_prints_a_shards_cells_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    let kids = children(&ran);
    let text = ok(&compare(
        dir.path(),
        kids.path(),
        &["--shard", "2/2", "--dry-run", "--json", "x.json"],
    ));
    assert!(
        text.starts_with("shard 2/2 runs 1 of the plan's 3 cells"),
        "{text}"
    );
    assert!(
        text.contains("  synthetic · 2 checkers: ~1.300 s a run, at most 4 runs, 4 pending now"),
        "{text}"
    );
    assert!(
        text.contains("  1/2: synthetic · 1 checker, synthetic · 3 checkers"),
        "{text}"
    );
    assert!(
        !ran.exists() && !dir.path().join("x.json").exists(),
        "nothing ran, nothing written"
    );

    let out = Command::new(COMPARE)
        .args(["--shard", "1/2", "--dry-run"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("--shard needs --seed"),
        "{stderr}"
    );

    let out = compare(dir.path(), kids.path(), &["--shard", "4/4"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("at most 3 shards"),
        "{stderr}"
    );

    // A resumed shard keeps its share; another share, or a whole plan as a shard, is refused.
    ok(&compare(
        dir.path(),
        kids.path(),
        &["--shard", "1/2", "--json", "s.json"],
    ));
    ok(&compare(dir.path(), kids.path(), &["--json", "w.json"]));
    let text = ok(&compare(
        dir.path(),
        kids.path(),
        &["--resume", "s.json", "--dry-run"],
    ));
    assert!(
        text.contains("shard 1/2 runs 2 of") && text.contains("0 pending now"),
        "{text}"
    );
    for (file, shard, why) in [
        ("s.json", "2/2", "it is shard 1/2"),
        ("w.json", "1/2", "it holds a whole plan"),
    ] {
        let out = compare(
            dir.path(),
            kids.path(),
            &["--resume", file, "--shard", shard],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(why), "{stderr}");
    }
}

// ---- the example job files ----

/// A folder holding `compare`: the binary under test, every call a dry run.
fn dry_compare() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = tempfile::tempdir().unwrap();
    let path = bin.path().join("compare");
    std::fs::write(
        &path,
        format!("#!/bin/sh\nexec '{COMPARE}' \"$@\" --dry-run\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// The cells a dry run says its shard runs.
fn dry_cells(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .take_while(|line| *line != "the other shards:")
        .filter_map(|line| line.strip_prefix("  ")?.split_once(": ~"))
        .map(|(cell, _)| cell.to_string())
        .collect()
}

/// The shards' dry runs cover the reproduce matrix, each cell once.
fn covers_the_matrix(shards: &[String]) {
    let mut seen = Vec::new();
    for stdout in shards {
        let cells = dry_cells(stdout);
        assert!(!cells.is_empty(), "{stdout}");
        seen.extend(cells);
    }
    let expected = compare::studies::reproduce::settings(WorkloadKind::default(), false, 2, 1);
    let total = expected.corpora.len() * expected.checkers.len();
    let unique: BTreeSet<&String> = seen.iter().collect();
    assert_eq!((seen.len(), unique.len()), (total, total), "{seen:?}");
}

fn sh(script: &Path, bin: &Path, vars: &[(&str, String)], dir: &Path) -> String {
    let mut command = Command::new("sh");
    command.arg(script);
    dry(command, bin, vars, dir)
}

fn dry(mut command: Command, bin: &Path, vars: &[(&str, String)], dir: &Path) -> String {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    command
        .env("PATH", path)
        .current_dir(dir)
        .stdin(Stdio::null());
    for (name, value) in vars {
        command.env(name, value);
    }
    let stdout = ok(&command.output().unwrap());
    assert!(
        std::fs::read_dir(dir).unwrap().next().is_none(),
        "a dry run wrote files"
    );
    stdout
}

#[test]
fn a_reproduce_shard_resumed_by_its_file_alone_goes_on_with_its_recorded_plan() {
    let dir = tempfile::tempdir().unwrap();
    let tsc = WorkloadKind::from_name("tsc").unwrap();
    let mut settings = compare::studies::reproduce::settings(tsc, false, 6, 1);
    settings.checkers = vec![1];
    settings.max_runs = Some(40);
    settings.precision_pct = Some(2.0);
    settings.seed = 2061;
    let mut results = Results::new(Default::default(), settings);
    results.shard = Some(shard::record(&results.settings, Shard { index: 3, count: 5 }).unwrap());
    let file = dir.path().join("shard-3-of-5.json");
    Outputs::new()
        .with(Format::Json, Some(&file))
        .write_all(&results)
        .unwrap();
    let before = std::fs::read(&file).unwrap();

    // No --workload, --seed, rounds or --shard: all of them are the file's.
    let out = Command::new(COMPARE)
        .args(["reproduce", "--dry-run", "--resume"])
        .arg(&file)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = ok(&out);
    assert!(
        text.starts_with("shard 3/5 runs 1 of the plan's 5 cells"),
        "{text}"
    );
    assert!(text.contains("· 1 checker · tsc: ~"), "{text}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "a dry run writes nothing"
    );

    let out = Command::new(COMPARE)
        .args(["reproduce", "--dry-run", "--seed", "7", "--resume"])
        .arg(&file)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("another seed"),
        "{stderr}"
    );
}

#[test]
fn the_gnu_parallel_example_runs_each_shard_once_locally_and_by_ssh_and_merges_them_all() {
    let text = std::fs::read_to_string(data("shard-parallel.sh")).unwrap();
    let bin = dry_compare();
    let dir = tempfile::tempdir().unwrap();
    let mut forms = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("parallel "))
    {
        let words = shlex::split(line).unwrap();
        let start = words.iter().position(|w| w == "compare").unwrap();
        let end = words.iter().position(|w| w == ":::").unwrap();
        let options = &words[1..start];
        let values = &words[end + 1..];
        assert_eq!(values, ["1", "2", "3", "4"], "K from 1: {line}");
        let shards: Vec<String> = values
            .iter()
            .map(|k| {
                let mut command = Command::new("compare");
                command.args(words[start + 1..end].iter().map(|w| w.replace("{}", k)));
                dry(command, bin.path(), &[], dir.path())
            })
            .collect();
        assert!(shards[0].starts_with("shard 1/4 runs"), "{}", shards[0]);
        covers_the_matrix(&shards);
        forms.push(options.to_vec());
    }
    assert_eq!(forms.len(), 2, "locally and by ssh");
    let ssh = forms
        .iter()
        .find(|o| o.contains(&"--sshlogin".to_string()))
        .unwrap();
    assert!(
        ssh.windows(2).any(|w| w == ["--return", "shard-{}.json"]),
        "{ssh:?}"
    );
    let merge = text
        .lines()
        .find(|l| l.starts_with("compare merge "))
        .unwrap();
    for k in 1..=4 {
        assert!(merge.contains(&format!(" shard-{k}.json")), "{merge}");
    }
}

#[test]
fn the_slurm_example_gives_every_array_task_its_shard_from_either_index_base() {
    let script = data("shard-slurm.slurm");
    let text = std::fs::read_to_string(&script).unwrap();
    let range = text
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .unwrap();
    let (first, last) = range.split_once('-').unwrap();
    let (first, last): (usize, usize) = (first.parse().unwrap(), last.parse().unwrap());
    let bin = dry_compare();
    let dir = tempfile::tempdir().unwrap();
    // As written (--array=1-4), and as a 0-based array (--array=0-3) would number the tasks.
    for base in [first, 0] {
        let count = last - first + 1;
        let shards: Vec<String> = (base..base + count)
            .map(|id| {
                let vars = [
                    ("SLURM_ARRAY_TASK_ID", id.to_string()),
                    ("SLURM_ARRAY_TASK_MIN", base.to_string()),
                    ("SLURM_ARRAY_TASK_MAX", (base + count - 1).to_string()),
                    ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
                ];
                sh(&script, bin.path(), &vars, dir.path())
            })
            .collect();
        assert!(
            shards[0].starts_with(&format!("shard 1/{count} runs")),
            "{}",
            shards[0]
        );
        covers_the_matrix(&shards);
    }
}

#[test]
fn the_kubernetes_example_is_an_indexed_job_whose_pods_run_one_shard_each() {
    use yaml_rust2::YamlLoader;
    let text = std::fs::read_to_string(data("shard-kubernetes.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let job = &docs[0];
    assert_eq!(job["kind"].as_str(), Some("Job"));
    assert_eq!(job["spec"]["completionMode"].as_str(), Some("Indexed"));
    let completions = job["spec"]["completions"].as_i64().unwrap() as usize;
    let container = &job["spec"]["template"]["spec"]["containers"][0];
    let command: Vec<&str> = container["command"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(command[..2], ["sh", "-c"]);
    let bin = dry_compare();
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<String> = (0..completions)
        .map(|index| {
            let mut sh = Command::new("sh");
            sh.args(["-c", command[2]]);
            dry(
                sh,
                bin.path(),
                &[("JOB_COMPLETION_INDEX", index.to_string())],
                dir.path(),
            )
        })
        .collect();
    assert!(
        shards[0].starts_with(&format!("shard 1/{completions} runs")),
        "{}",
        shards[0]
    );
    covers_the_matrix(&shards);
}
