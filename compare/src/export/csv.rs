//! CSV: one row per run, then one row per median, for spreadsheets and plotting scripts.
use serde::Serialize;

use super::{ExportError, Exporter};
use crate::results::{Figures, Results};

pub struct CsvExporter;

/// One line of the CSV; `kind` is `run` or `median`.
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
}

impl Exporter for CsvExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        let error = |e: csv::Error| ExportError::Render {
            format: "CSV",
            why: e.to_string(),
        };
        let mut writer = csv::Writer::from_writer(Vec::new());
        let medians = results.results.iter().filter_map(|set| {
            let m = set.median?;
            Some(row(
                set,
                "median",
                None,
                format!("{} ok runs", set.ok_runs),
                "",
                m,
            ))
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
    set: &'a crate::results::ResultSet,
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
    }
}
