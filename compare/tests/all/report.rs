//! The report code on a fixed result set (tests/data/results.json), so the table and the
//! Markdown keep their shape.
use std::path::Path;

use compare::contender::Contender;
use compare::export::{Exporter, csv::CsvExporter, json::JsonExporter, svg::SvgExporter};
use compare::output::report::render_text;
use compare::output::table::{Detail, TERMINAL_COLUMNS, Table};
use compare::results::{Results, RunStatus};
use compare::stats::{Metric, Verdict};

fn stored() -> Results {
    Results::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/results.json")).unwrap()
}

#[test]
fn the_terminal_table_has_the_publication_shape() {
    insta::assert_snapshot!(render_text(&stored(), Detail::Brief));
}

#[test]
fn the_wide_terminal_table_has_every_column_of_the_markdown() {
    insta::assert_snapshot!(render_text(&stored(), Detail::Wide));
}

#[test]
fn every_line_of_the_default_terminal_report_fits_120_columns() {
    // Two corpora at 1 and 8 checkers, slice identities with arenas and switches, a cell
    // whose control got a verdict, failed runs and the rows beside the publication.
    let results = stored();
    let text = render_text(&results, Detail::Brief);
    let widest = text.lines().max_by_key(|l| l.chars().count()).unwrap();
    assert!(
        widest.chars().count() <= TERMINAL_COLUMNS,
        "{} columns: {widest}",
        widest.chars().count()
    );
    let header = text.lines().find(|l| l.starts_with("contender")).unwrap();
    let columns: Vec<&str> = header.split("  ").filter(|c| !c.is_empty()).collect();
    assert_eq!(
        columns,
        [
            "contender",
            "wall % [95% CI]",
            "verdict",
            "RSS %",
            "faults %",
            "allocator"
        ],
        "the figures a reader needs first"
    );
    assert!(
        text.contains("slice hybrid@8 (9 arenas, 24 switches)"),
        "{text}"
    );
    assert!(text.contains("neutral (unreliable)"), "{text}");
    let wide = render_text(&results, Detail::Wide);
    assert!(
        wide.lines().any(|l| l.chars().count() > TERMINAL_COLUMNS),
        "--wide is not held to the width"
    );
    for detail in [
        "CPU % [95% CI]",
        "sys % [95% CI]",
        "wall s (min-max)",
        "huge MiB peak/end",
        "RSS MiB",
        "sys time predicted from the fault counts",
    ] {
        assert!(!text.contains(detail), "{detail} is --wide's");
        assert!(wide.contains(detail), "--wide has {detail}");
    }
}

#[test]
fn a_long_last_cell_wraps_within_the_width_and_keeps_every_word() {
    let proof = "jemalloc 5.3.1-0-g81034ce1f [thp=always: opt.thp reads \"always\"; \
                 dirty_decay_ms=0: opt.dirty_decay_ms reads 0]";
    let table = Table {
        header: ["contender", "wall %", "allocator"]
            .map(String::from)
            .to_vec(),
        rows: vec![
            ["jemalloc:thp=always,dirty_decay_ms=0", "-1.0", proof]
                .map(String::from)
                .to_vec(),
            ["system", "+0.5", "glibc 2.36"].map(String::from).to_vec(),
        ],
    };
    let text = table.to_text_within(80);
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let column = text.lines().next().unwrap().find("allocator").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[2].starts_with("jemalloc:thp=always") && lines[2].contains("-1.0"));
    let continued: Vec<&str> = lines[3..lines.len() - 1].to_vec();
    assert!(!continued.is_empty(), "{text}");
    for line in &continued {
        assert!(
            line[..column].trim().is_empty(),
            "other cells stay blank: {line}"
        );
    }
    let words: Vec<&str> = lines[2..lines.len() - 1]
        .iter()
        .map(|l| &l[column..])
        .collect();
    assert_eq!(words.join(" "), proof);
    assert!(lines.last().unwrap().starts_with("system"));
    assert_eq!(
        table.to_text_within(200),
        table.to_text(),
        "what fits is left alone"
    );
}

#[test]
fn the_markdown_report_renders_from_a_stored_results_file() {
    insta::assert_snapshot!(compare::export::markdown::render(&stored()));
}

#[test]
fn loading_recomputes_the_digest_verdicts_and_medians() {
    let results = stored();
    let huge = results.get("synthetic", Contender::SLICE_HUGE, 8).unwrap();
    assert!(matches!(
        huge.runs[1].status,
        RunStatus::DigestMismatch { .. }
    ));
    assert_eq!(huge.ok_runs, 2);
    let mimalloc = results.get("trpc", Contender::Mimalloc, 8).unwrap();
    assert_eq!(mimalloc.ok_runs, 2);
}

#[test]
fn the_json_export_uses_the_documented_field_names() {
    let bytes = JsonExporter.render(&stored()).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert!(json["environment"]["thp"]["enabled"].is_string());
    let result = &json["results"][0];
    for field in ["corpus", "contender", "checkers", "runs", "median"] {
        assert!(!result[field].is_null(), "result lacks {field}");
    }
    let figures = [
        "wall_s",
        "user_s",
        "sys_s",
        "max_rss_kib",
        "vm_hwm_kib",
        "minor_faults",
        "major_faults",
        "anon_huge_kib",
    ];
    for field in figures {
        assert!(result["runs"][0][field].is_number(), "run lacks {field}");
        assert!(result["median"][field].is_number(), "median lacks {field}");
    }
    assert_eq!(result["runs"][0]["status"], "ok");
    assert!(result["runs"][0]["digest"].is_string());
}

#[test]
fn the_json_export_reads_back_to_the_same_results() {
    let results = stored();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("again.json");
    std::fs::write(&path, JsonExporter.render(&results).unwrap()).unwrap();
    let again = Results::load(&path).unwrap();
    assert_eq!(
        JsonExporter.render(&again).unwrap(),
        JsonExporter.render(&results).unwrap()
    );
}

#[test]
fn the_csv_has_a_row_per_run_and_per_median() {
    let csv = String::from_utf8(CsvExporter.render(&stored()).unwrap()).unwrap();
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("kind,corpus,contender,checkers,round,status")
    );
    assert_eq!(csv.lines().filter(|l| l.starts_with("run,")).count(), 60);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let switches = header
        .iter()
        .position(|h| *h == "involuntary_switches")
        .unwrap();
    let first_run: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert!(first_run[switches].parse::<u64>().is_ok(), "{first_run:?}");
    assert_eq!(csv.lines().filter(|l| l.starts_with("median,")).count(), 20);
}

#[test]
fn the_svg_draws_a_panel_pair_per_corpus() {
    let svg = String::from_utf8(SvgExporter.render(&stored()).unwrap()).unwrap();
    assert!(svg.contains("synthetic: median RSS against median wall"));
    assert!(svg.contains("trpc: minor page faults"));
    assert!(svg.contains("slice-hybrid"));
    assert!(svg.contains("beside the publication: ours (blue, 95% interval) and published (red)"));
    for figure in [
        "hybrid wall",
        "hybrid RSS",
        "hybrid faults",
        "huge wall",
        "huge RSS",
    ] {
        assert!(
            svg.contains(&format!("\n{figure}\n")),
            "{figure} panel missing"
        );
    }
    assert!(svg.contains("1 · trpc") && svg.contains("8 · trpc"));
}

#[test]
fn the_trpc_rows_are_set_beside_the_publication() {
    let markdown = compare::export::markdown::render(&stored());
    let beside = markdown
        .split("## Beside the publication")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a section beside the publication");
    let trpc1 = beside
        .lines()
        .find(|l| l.starts_with("| 1 | trpc"))
        .expect("a trpc row at 1 checker");
    assert!(
        trpc1.contains("/ -5.0"),
        "published hybrid wall beside ours: {trpc1}"
    );
    assert!(
        !beside.contains("| synthetic"),
        "no published row for synthetic"
    );
}

#[test]
fn a_new_round_moves_the_paired_ratios_of_its_corpus_and_a_lone_run_does_not() {
    let mut results = stored();
    let hybrid = |r: &Results| {
        r.get("synthetic", Contender::SLICE_HYBRID, 1)
            .and_then(|set| set.versus_baseline.as_ref()?.wall)
            .unwrap()
    };
    let before = hybrid(&results);
    let run_of = |r: &Results, contender| r.get("synthetic", contender, 1).unwrap().runs[0].clone();
    // A baseline run in a round hybrid has not run pairs with nothing.
    let mut lone = run_of(&results, Contender::SLICE_NOHUGE);
    lone.round = 3;
    lone.figures.wall_s *= 10.0;
    results.push("synthetic", Contender::SLICE_NOHUGE, 1, lone);
    assert_eq!(hybrid(&results), before);
    // Hybrid's run of that round, ten times faster than the baseline's, pairs with it.
    let mut fast = run_of(&results, Contender::SLICE_HYBRID);
    fast.round = 3;
    results.push("synthetic", Contender::SLICE_HYBRID, 1, fast);
    let after = hybrid(&results);
    assert_eq!(after.rounds, before.rounds + 1);
    assert!(after.ratio < before.ratio, "{before:?} -> {after:?}");
    let via_ratio = results.ratio(
        "synthetic",
        1,
        Contender::SLICE_HYBRID,
        Contender::SLICE_NOHUGE,
        compare::stats::Metric::Wall,
    );
    assert_eq!(via_ratio, Some(after));
}

#[test]
fn a_cell_whose_control_gets_a_verdict_is_marked_unreliable_in_every_format() {
    // In the stored file the control of synthetic at 8 checkers runs 8% slower than the
    // baseline in every round: an A/A comparison that finds a difference.
    let results = stored();
    let cell = results.cell("synthetic", 8).unwrap();
    assert!(cell.is_unreliable(Metric::Wall), "{cell:?}");
    assert_eq!(
        cell.control.as_ref().unwrap().wall.unwrap().verdict,
        Some(Verdict::Higher)
    );
    let quiet = results.cell("synthetic", 1).unwrap();
    assert!(quiet.unreliable.is_empty(), "{quiet:?}");

    let text = render_text(&results, Detail::Brief);
    let section = text
        .split("\n\n")
        .find(|s| s.starts_with("synthetic · 8 checkers"))
        .unwrap();
    let title = section.split("\ncontender").next().unwrap();
    assert!(title.contains("UNRELIABLE"), "{section}");
    let quiet_section = text
        .split("\n\n")
        .find(|s| s.starts_with("synthetic · 1 checker "))
        .unwrap();
    assert!(!quiet_section.contains("UNRELIABLE"), "{quiet_section}");

    let markdown = compare::export::markdown::render(&results);
    assert!(markdown.contains("## synthetic · 8 checkers · baseline slice-nohuge · 3 rounds"));
    assert!(
        markdown
            .lines()
            .any(|l| l.starts_with("## synthetic · 8") && l.contains("UNRELIABLE"))
    );

    let json: serde_json::Value =
        serde_json::from_slice(&JsonExporter.render(&results).unwrap()).unwrap();
    let cells = json["cells"].as_array().unwrap();
    let marked: Vec<(&str, u64)> = cells
        .iter()
        .filter(|c| {
            c["unreliable"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m == "wall")
        })
        .map(|c| {
            (
                c["corpus"].as_str().unwrap(),
                c["checkers"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(marked, vec![("synthetic", 8)]);
    let control_wall = &cells
        .iter()
        .find(|c| c["corpus"] == "synthetic" && c["checkers"] == 8)
        .unwrap()["control"]["wall"];
    assert_eq!(control_wall["unreliable"], true);
    let hybrid = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["contender"] == "slice-hybrid" && r["corpus"] == "synthetic" && r["checkers"] == 8
        })
        .unwrap();
    assert_eq!(hybrid["versus_baseline"]["wall"]["unreliable"], true);

    let csv = String::from_utf8(CsvExporter.render(&results).unwrap()).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|h| *h == "unreliable").unwrap();
    let flagged: Vec<String> = csv
        .lines()
        .filter(|l| l.starts_with("median,"))
        .filter(|l| l.split(',').nth(column).is_some_and(|c| c.contains("wall")))
        .map(|l| l.split(',').take(4).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(flagged.len(), 5, "every row of the cell: {flagged:?}");
    assert!(
        flagged
            .iter()
            .all(|row| row.contains("synthetic") && row.ends_with(",8"))
    );
}

#[test]
fn a_results_file_from_before_paired_rounds_loads_without_a_control() {
    let old = stored_reproduce();
    assert_eq!(old.settings.min_runs, 3, "its `runs` is the rounds");
    assert!(!old.settings.control);
    assert!(old.cells.iter().all(|cell| cell.control.is_none()));
    let wall = old
        .ratio(
            "trpc",
            1,
            Contender::SLICE_HYBRID,
            Contender::SLICE_NOHUGE,
            Metric::Wall,
        )
        .unwrap();
    assert_eq!(wall.rounds, 3, "its rounds pair up by number");
}

#[test]
fn a_run_far_from_its_rows_median_is_listed_with_its_covariates() {
    let mut results = stored();
    let mut base = results
        .get("synthetic", Contender::Mimalloc, 1)
        .unwrap()
        .runs[0]
        .clone();
    for (round, wall) in [(3, 0.78), (4, 0.77), (5, 2.5)] {
        base.round = round;
        base.figures.wall_s = wall;
        base.covariates.involuntary_switches = if wall > 1.0 { 4321 } else { 40 };
        results.push("synthetic", Contender::Mimalloc, 1, base.clone());
    }
    let table = compare::output::table::standouts(&results);
    assert_eq!(table.rows.len(), 1, "{table:?}");
    let row = &table.rows[0];
    assert_eq!(&row[..4], ["synthetic", "1", "mimalloc", "5"]);
    assert!(row.contains(&"4321".to_string()), "{row:?}");
}

#[test]
fn the_fault_probe_and_the_machine_facts_head_every_report() {
    let results = stored();
    let text = render_text(&results, Detail::Brief);
    let markdown = compare::export::markdown::render(&results);
    for report in [&text, &markdown] {
        assert!(report.contains("virtio_balloon bound"), "{report}");
        assert!(report.contains("2 MiB fault, fresh after 3 s idle 2.60 ms [2.30 ms, 2.90 ms]"));
    }
    assert!(markdown.contains("## Sys time predicted from the fault counts"));
    let json: serde_json::Value =
        serde_json::from_slice(&JsonExporter.render(&results).unwrap()).unwrap();
    assert_eq!(json["environment"]["machine"]["page_reporting_order"], 9);
    assert!(json["calibrations"][0]["huge_fresh"]["us"].is_number());
    assert!(json["results"][0]["runs"][0]["env_padding_bytes"].is_number());
    assert!(json["results"][0]["runs"][0]["involuntary_switches"].is_number());
}

fn stored_reproduce() -> Results {
    Results::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reproduce-trpc.json"))
        .unwrap()
}

/// A real `compare reproduce --ablations --runs 3` on trpc, from a 2-core machine.
#[test]
fn the_reproduce_report_renders_every_section_from_stored_runs() {
    let markdown = compare::export::markdown::render(&stored_reproduce());
    for section in [
        "## Beside the publication",
        "## Switch point sweep",
        "## Ablations: +populate and +collapse",
        "## Workload size beside the native checker",
        "## Other allocators on the same rows",
        "Limits of this machine",
    ] {
        assert!(markdown.contains(section), "{section} missing");
    }
    insta::assert_snapshot!(markdown);
}

#[test]
fn result_files_get_the_permissions_of_any_file_the_user_creates() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, b"x").unwrap();
    let report = dir.path().join("report.json");
    compare::export::write_atomically(&report, b"{}").unwrap();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&report), mode(&plain));
}
