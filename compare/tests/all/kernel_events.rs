//! What the kernel did with each run's memory: the vmstat counters read around every run and
//! differenced, the memory sampled over the run and only while it runs, both recorded in the
//! results file and its exports, and files from before them still loading.
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use compare::benchmark::judge::measured_run;
use compare::benchmark::launcher::{Launcher, Request};
use compare::benchmark::measure::{SAMPLE_INTERVAL, measure, measure_sampled};
use compare::contender::Contender;
use compare::export::csv::CsvExporter;
use compare::export::{Exporter, Format, Outputs};
use compare::results::Results;
use compare::results::kernel::{Sample, Timeline, VMSTAT_COUNTERS};

fn stored() -> Results {
    Results::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/results.json")).unwrap()
}

/// Whether the kernel gives transparent huge pages to a range that asks for them.
fn thp_available() -> bool {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .is_ok_and(|mode| !mode.contains("[never]"))
}

#[test]
fn a_run_that_touches_huge_pages_under_slice_huge_counts_about_as_many_thp_fault_allocs() {
    if !thp_available() {
        eprintln!("skipped: transparent huge pages are off on this machine");
        return;
    }
    let binaries = crate::knobs::binaries();
    let request = Request {
        contender: Contender::SLICE_HUGE,
        corpus: "synthetic",
        checkers: 1,
    };
    let stop = AtomicBool::new(false);
    // Other processes on the machine may take huge pages meanwhile: the run's own must all
    // be there, and a few tries find a run that the rest of the machine left alone.
    let mut seen = Vec::new();
    for _ in 0..3 {
        let measured = measure(binaries.command(&request), None, &stop).unwrap();
        let run = binaries.judge(&request, 0, &measured);
        assert!(run.status.is_ok(), "{}", run.status);
        let f = &run.figures;
        let touched = f.anon_huge_peak_kib.max(f.anon_huge_kib) / 2048;
        let kernel = run.kernel.as_ref().expect("vmstat read around the run");
        let allocs = kernel.get("thp_fault_alloc").unwrap();
        assert!(touched >= 16, "slice-huge touched {touched} huge pages");
        assert!(
            allocs as f64 >= 0.95 * touched as f64,
            "{allocs} thp_fault_alloc for {touched} huge pages the run held"
        );
        let pgfault = kernel.get("pgfault").unwrap();
        assert!(
            pgfault >= f.minor_faults,
            "{pgfault} pgfault, {} of them the run's",
            f.minor_faults
        );
        if allocs as f64 <= 1.1 * touched as f64 + 4.0 {
            return;
        }
        seen.push((touched, allocs));
    }
    panic!("thp_fault_alloc far above the huge pages each run held: {seen:?}");
}

#[test]
fn a_nohuge_run_takes_no_huge_page_of_its_own() {
    if !thp_available() {
        return;
    }
    let binaries = crate::knobs::binaries();
    let request = Request {
        contender: Contender::SLICE_NOHUGE,
        corpus: "synthetic",
        checkers: 1,
    };
    let stop = AtomicBool::new(false);
    let measured = measure(binaries.command(&request), None, &stop).unwrap();
    let run = binaries.judge(&request, 0, &measured);
    assert!(run.status.is_ok(), "{}", run.status);
    assert_eq!(run.figures.anon_huge_peak_kib, 0);
    let timeline = run.memory.as_ref().expect("sampled");
    assert!(timeline.samples.iter().all(|s| s.anon_huge_kib == 0));
    let peak = timeline.peak().unwrap();
    assert!(
        // smaps_rollup's Rss and VmHWM are counted apart: a hair's difference either way.
        peak.rss_kib <= run.figures.rss_kib() * 101 / 100
            && peak.rss_kib * 2 >= run.figures.rss_kib(),
        "sampled peak {} KiB against VmHWM {} KiB",
        peak.rss_kib,
        run.figures.rss_kib()
    );
}

#[test]
fn sampling_stops_with_the_run() {
    let stop = AtomicBool::new(false);
    let mut command = Command::new("sh");
    // The background sleep outlives the run's own process and dies with its group.
    command.args(["-c", "sleep 5 & sleep 0.4"]);
    let measured = measure(command, None, &stop).unwrap();
    let timeline = measured.timeline.expect("sampled");
    assert_eq!(
        u128::from(timeline.interval_ms),
        SAMPLE_INTERVAL.as_millis()
    );
    let wall_ms = measured.wall.as_millis() as u32;
    assert!(
        wall_ms < 3000,
        "the run ended with sh, not the sleep: {wall_ms} ms"
    );
    let last = timeline.samples.last().expect("samples while it ran");
    assert!(
        last.t_ms <= wall_ms,
        "a sample at {} ms of a {wall_ms} ms run",
        last.t_ms
    );
    let most = wall_ms / timeline.interval_ms + 1;
    assert!(
        timeline.samples.len() as u32 <= most && timeline.samples.len() >= 3,
        "{} samples in {wall_ms} ms",
        timeline.samples.len()
    );
    assert!(timeline.samples.windows(2).all(|w| w[0].t_ms < w[1].t_ms));
    assert!(timeline.samples.iter().all(|s| s.rss_kib > 0));
}

#[test]
fn an_unsampled_run_has_no_timeline_but_its_vmstat_deltas() {
    let stop = AtomicBool::new(false);
    let mut command = Command::new("sh");
    command.args(["-c", "sleep 0.1"]);
    let measured = measure_sampled(command, Some(Duration::from_secs(10)), &stop, None).unwrap();
    assert_eq!(measured.timeline, None);
    assert_eq!(measured.anon_huge_peak_kib, 0);
    let deltas = measured.vmstat.clone().expect("read around the run");
    assert!(deltas.contains_key("pgfault"));
    let run = measured_run(0, &measured);
    assert_eq!(run.memory, None);
    assert_eq!(run.kernel.unwrap().deltas, deltas);
}

#[test]
fn an_old_results_file_without_kernel_events_or_memory_still_loads() {
    let results = stored();
    let runs = results.results.iter().flat_map(|s| &s.runs);
    assert!(runs.clone().count() > 0);
    assert!(
        runs.clone()
            .all(|r| r.kernel.is_none() && r.memory.is_none())
    );
    let set = results.get("trpc", Contender::SLICE_HUGE, 1).unwrap();
    let summary = set
        .kernel
        .as_ref()
        .expect("coverage from the figures alone");
    assert_eq!(summary.recorded_runs, 0);
    assert!(
        summary.huge_share.is_some_and(|s| s > 0.0 && s <= 1.0),
        "{summary:?}"
    );
    // The exports take it as it is: empty kernel columns, no memory figures.
    let csv = String::from_utf8(CsvExporter.render(&results).unwrap()).unwrap();
    let header = csv.lines().next().unwrap();
    for counter in VMSTAT_COUNTERS {
        assert!(header.contains(&format!("vmstat_{counter}")), "{header}");
    }
    let markdown = compare::export::markdown::render(&results);
    assert!(!markdown.contains("Memory over time"));
    assert!(!markdown.contains("kernel's events"));
}

/// `results` with a timeline on every successful run of `corpus` at 1 checker, its RSS
/// climbing to the run's VmHWM, and vmstat deltas that the run's own faults explain.
fn with_kernel_records(mut results: Results, corpus: &str) -> Results {
    for set in results
        .results
        .iter_mut()
        .filter(|s| s.corpus == corpus && s.checkers == 1)
    {
        for run in &mut set.runs {
            let rss = run.figures.rss_kib();
            let huge = run.figures.anon_huge_kib;
            run.memory = Some(Timeline {
                interval_ms: 20,
                samples: (1..=10)
                    .map(|i| Sample {
                        t_ms: 20 * i,
                        rss_kib: rss * u64::from(i) / 10,
                        anon_huge_kib: huge * u64::from(i) / 10,
                    })
                    .collect(),
            });
            let deltas = [
                ("pgfault", run.figures.minor_faults + 10),
                ("thp_fault_alloc", huge / 2048),
                ("thp_underused_split_page", 0),
            ];
            run.kernel = Some(compare::results::kernel::KernelEvents::new(
                deltas.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
                run.figures.minor_faults,
            ));
        }
    }
    results.refresh();
    results
}

#[test]
fn kernel_events_and_memory_round_trip_through_the_results_file() {
    let results = with_kernel_records(stored(), "trpc");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.json");
    Outputs::new()
        .with(Format::Json, Some(&path))
        .write_all(&results)
        .unwrap();
    let loaded = Results::load(&path).unwrap();
    let runs = |r: &Results| {
        r.results
            .iter()
            .flat_map(|s| s.runs.clone())
            .collect::<Vec<_>>()
    };
    let (ours, theirs) = (runs(&results), runs(&loaded));
    assert_eq!(ours.len(), theirs.len());
    for (ours, theirs) in ours.iter().zip(&theirs) {
        assert_eq!(ours, theirs);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\"samples\": \"20,"),
        "one string per timeline"
    );
    let set = loaded.get("trpc", Contender::SLICE_HUGE, 1).unwrap();
    let summary = set.kernel.as_ref().unwrap();
    assert_eq!(summary.attributed_runs, set.ok_runs);
    assert!(summary.events["thp_fault_alloc"] > 0.0);
}

#[test]
fn the_markdown_report_links_one_memory_figure_per_sampled_cell() {
    let results = with_kernel_records(stored(), "trpc");
    let dir = tempfile::tempdir().unwrap();
    let markdown = dir.path().join("report.md");
    let csv = dir.path().join("report.csv");
    Outputs::new()
        .with(Format::Markdown, Some(&markdown))
        .with(Format::Csv, Some(&csv))
        .write_all(&results)
        .unwrap();
    let text = std::fs::read_to_string(&markdown).unwrap();
    let figure = "report-memory-1-trpc-1.svg";
    assert!(text.contains(&format!("]({figure})")), "{text}");
    assert!(
        !text.contains("memory-2-"),
        "only trpc at 1 checker was sampled"
    );
    let svg = std::fs::read_to_string(dir.path().join(figure)).unwrap();
    for contender in ["slice-nohuge", "slice-huge", "mimalloc"] {
        assert!(svg.contains(contender), "{contender} in the legend");
    }
    assert!(svg.contains("memory over time"));
    assert!(
        text.contains("every 20 ms while the run ran"),
        "the interval the runs recorded, not today's: {text}"
    );
    assert!(text.contains("## Huge-page coverage and the kernel's events"));
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (kind, corpus, attributed) = (
        column("kind"),
        column("corpus"),
        column("kernel_attributed"),
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(
        rows.iter()
            .any(|r| &r[kind] == "run" && &r[corpus] == "trpc" && &r[attributed] == "true")
    );
    assert!(
        rows.iter()
            .any(|r| &r[kind] == "median" && r[attributed].contains('/'))
    );
}

#[test]
fn the_wide_table_shows_each_contenders_share_of_peak_rss_in_huge_pages() {
    let results = stored();
    let wide = compare::output::report::render_text(&results, compare::output::table::Detail::Wide);
    assert!(wide.contains("huge % RSS"), "{wide}");
    let brief =
        compare::output::report::render_text(&results, compare::output::table::Detail::Brief);
    assert!(!brief.contains("huge % RSS"));
}
