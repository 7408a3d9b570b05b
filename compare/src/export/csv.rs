//! CSV: one row per run, then one row per median, for spreadsheets and plotting scripts.
use serde::Serialize;

use super::{ExportError, Exporter};
use crate::results::{Figures, ResultSet, Results};
use crate::stats::Metric;

pub struct CsvExporter;

/// One line of the CSV; `kind` is `run` or `median`. The paired comparison with the
/// baseline (`wall_pct` to `unreliable`) is filled on median rows.
#[derive(Serialize)]
struct Row<'a> {
    kind: &'static str,
    corpus: &'a str,
    contender: String,
    checkers: usize,
    round: Option<usize>,
    status: String,
    digest: &'a str,
    wall_s: f64,
    user_s: f64,
    sys_s: f64,
    max_rss_kib: f64,
    vm_hwm_kib: f64,
    minor_faults: f64,
    major_faults: f64,
    anon_huge_kib: f64,
    // The csv crate writes no nested or flattened structs: the comparison goes as a tuple
    // of columns, named in `VERSUS_COLUMNS`.
    versus: VersusColumns,
}

type VersusColumns = (
    Option<usize>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<&'static str>,
    Option<usize>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    String,
);

/// The header of the comparison columns, in `Versus`'s order.
const VERSUS_COLUMNS: [&str; 12] = [
    "rounds",
    "wall_pct",
    "wall_low_pct",
    "wall_high_pct",
    "wall_half_width_pct",
    "wall_verdict",
    "rounds_needed",
    "cpu_pct",
    "sys_pct",
    "rss_pct",
    "minor_faults_pct",
    "unreliable",
];

/// The paired ratios of a median row, as percent changes.
#[derive(Default)]
struct Versus {
    rounds: Option<usize>,
    wall_pct: Option<f64>,
    wall_low_pct: Option<f64>,
    wall_high_pct: Option<f64>,
    wall_half_width_pct: Option<f64>,
    wall_verdict: Option<&'static str>,
    rounds_needed: Option<usize>,
    cpu_pct: Option<f64>,
    sys_pct: Option<f64>,
    rss_pct: Option<f64>,
    minor_faults_pct: Option<f64>,
    /// The metrics on which the cell's A/A control got a verdict, `;`-separated.
    unreliable: String,
}

impl Versus {
    fn columns(self) -> VersusColumns {
        (
            self.rounds,
            self.wall_pct,
            self.wall_low_pct,
            self.wall_high_pct,
            self.wall_half_width_pct,
            self.wall_verdict,
            self.rounds_needed,
            self.cpu_pct,
            self.sys_pct,
            self.rss_pct,
            self.minor_faults_pct,
            self.unreliable,
        )
    }
}

fn versus(results: &Results, set: &ResultSet) -> Versus {
    let unreliable = results
        .cell(&set.corpus, set.checkers)
        .map_or(String::new(), |cell| cell.unreliable.join(";"));
    let Some(v) = set.versus_baseline.as_ref() else {
        return Versus {
            unreliable,
            ..Versus::default()
        };
    };
    let pct = |r: Option<crate::stats::Ratio>| r.map(|r| r.percent());
    let wall = v.wall;
    let interval = wall.and_then(|w| w.percent_interval());
    Versus {
        rounds: wall.map(|w| w.rounds),
        wall_pct: pct(wall),
        wall_low_pct: interval.map(|i| i.0),
        wall_high_pct: interval.map(|i| i.1),
        wall_half_width_pct: wall.and_then(|w| w.half_width_pct),
        wall_verdict: wall
            .and_then(|w| w.verdict)
            .map(|v| v.describe(Metric::Wall)),
        rounds_needed: v.rounds_needed,
        cpu_pct: pct(v.cpu),
        sys_pct: pct(v.sys),
        rss_pct: pct(v.rss),
        minor_faults_pct: pct(v.minor_faults),
        unreliable,
    }
}

/// The figure columns, in `Row`'s order.
const HEADER: [&str; 15] = [
    "kind",
    "corpus",
    "contender",
    "checkers",
    "round",
    "status",
    "digest",
    "wall_s",
    "user_s",
    "sys_s",
    "max_rss_kib",
    "vm_hwm_kib",
    "minor_faults",
    "major_faults",
    "anon_huge_kib",
];

impl Exporter for CsvExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        let error = |e: csv::Error| ExportError::Render {
            format: "CSV",
            why: e.to_string(),
        };
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        writer
            .write_record(HEADER.iter().chain(&VERSUS_COLUMNS))
            .map_err(error)?;
        let medians = results.results.iter().filter_map(|set| {
            let m = set.median?;
            let mut row = row(
                set,
                "median",
                None,
                format!("{} ok runs", set.ok_runs),
                "",
                m,
            );
            row.versus = versus(results, set).columns();
            Some(row)
        });
        let runs = results.results.iter().flat_map(|set| {
            set.runs.iter().map(move |run| {
                let f = run.figures;
                let as_f64 = Figures {
                    wall_s: f.wall_s,
                    user_s: f.user_s,
                    sys_s: f.sys_s,
                    max_rss_kib: f.max_rss_kib as f64,
                    vm_hwm_kib: f.vm_hwm_kib as f64,
                    minor_faults: f.minor_faults as f64,
                    major_faults: f.major_faults as f64,
                    anon_huge_kib: f.anon_huge_kib as f64,
                };
                row(
                    set,
                    "run",
                    Some(run.round),
                    run.status.to_string(),
                    &run.digest,
                    as_f64,
                )
            })
        });
        for row in runs.chain(medians) {
            writer.serialize(row).map_err(error)?;
        }
        writer.into_inner().map_err(|e| ExportError::Render {
            format: "CSV",
            why: e.to_string(),
        })
    }
}

fn row<'a>(
    set: &'a ResultSet,
    kind: &'static str,
    round: Option<usize>,
    status: String,
    digest: &'a str,
    f: Figures<f64, f64>,
) -> Row<'a> {
    Row {
        kind,
        corpus: &set.corpus,
        contender: set.contender.to_string(),
        checkers: set.checkers,
        round,
        status,
        digest,
        wall_s: f.wall_s,
        user_s: f.user_s,
        sys_s: f.sys_s,
        max_rss_kib: f.max_rss_kib,
        vm_hwm_kib: f.vm_hwm_kib,
        minor_faults: f.minor_faults,
        major_faults: f.major_faults,
        anon_huge_kib: f.anon_huge_kib,
        versus: Versus::default().columns(),
    }
}
