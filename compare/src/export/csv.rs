//! CSV: one row per run, then one row per median, for spreadsheets and plotting scripts.
//! Run rows carry the run's covariates; median rows carry the paired comparison with the
//! baseline. Every column is named once, in [`COLUMNS`] and [`kernel_columns`], beside how
//! it is filled.
use super::{ExportError, Exporter};
use crate::results::kernel::{KernelSummary, VMSTAT_COUNTERS};
use crate::results::{Covariates, Figures, ResultSet, Results, Run, Versus};
use crate::stats::{Metric, Ratio};

pub struct CsvExporter;

/// What one line of the CSV is made from.
struct Line<'a> {
    /// `run` or `median`.
    kind: &'static str,
    set: &'a ResultSet,
    round: Option<usize>,
    status: String,
    digest: &'a str,
    figures: Figures<f64, f64>,
    /// Run lines only.
    covariates: Option<Covariates>,
    /// Run lines only.
    run: Option<&'a Run>,
    /// Median lines only.
    versus: Option<&'a Versus>,
    /// The metrics on which the cell's control got a verdict, `;`-separated.
    unreliable: String,
}

type Column = (&'static str, fn(&Line<'_>) -> String);

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

fn wall(line: &Line<'_>) -> Option<Ratio> {
    line.versus.and_then(|v| v.wall)
}

fn percent(line: &Line<'_>, metric: Metric) -> String {
    opt(line.versus.and_then(|v| v.get(metric)).map(|r| r.percent()))
}

/// The columns, in order: name and value.
const COLUMNS: &[Column] = &[
    ("kind", |l| l.kind.to_string()),
    ("corpus", |l| l.set.corpus.clone()),
    ("contender", |l| l.set.contender.to_string()),
    ("checkers", |l| l.set.checkers.to_string()),
    ("round", |l| opt(l.round)),
    ("status", |l| l.status.clone()),
    ("digest", |l| l.digest.to_string()),
    ("wall_s", |l| l.figures.wall_s.to_string()),
    ("user_s", |l| l.figures.user_s.to_string()),
    ("sys_s", |l| l.figures.sys_s.to_string()),
    ("max_rss_kib", |l| l.figures.max_rss_kib.to_string()),
    ("vm_hwm_kib", |l| l.figures.vm_hwm_kib.to_string()),
    ("minor_faults", |l| l.figures.minor_faults.to_string()),
    ("major_faults", |l| l.figures.major_faults.to_string()),
    ("anon_huge_kib", |l| l.figures.anon_huge_kib.to_string()),
    ("anon_huge_peak_kib", |l| {
        l.figures.anon_huge_peak_kib.to_string()
    }),
    ("started_unix_s", |l| {
        opt(l.covariates.map(|c| c.started_unix_s))
    }),
    ("involuntary_switches", |l| {
        opt(l.covariates.map(|c| c.involuntary_switches))
    }),
    ("voluntary_switches", |l| {
        opt(l.covariates.map(|c| c.voluntary_switches))
    }),
    ("steal_s", |l| opt(l.covariates.and_then(|c| c.steal_s))),
    ("env_padding_bytes", |l| {
        opt(l.covariates.map(|c| c.env_padding_bytes))
    }),
    ("quiet_waited_s", |l| {
        opt(l.covariates.and_then(|c| c.quiet).map(|q| q.waited_s))
    }),
    ("quiet_other_cpus", |l| {
        opt(l.covariates.and_then(|c| c.quiet).map(|q| q.other_cpus))
    }),
    ("started_quiet", |l| {
        opt(l.covariates.and_then(|c| c.quiet).map(|q| q.quiet))
    }),
    ("rounds", |l| opt(wall(l).map(|w| w.rounds))),
    ("wall_pct", |l| percent(l, Metric::Wall)),
    ("wall_low_pct", |l| {
        opt(wall(l).and_then(|w| w.percent_interval()).map(|i| i.0))
    }),
    ("wall_high_pct", |l| {
        opt(wall(l).and_then(|w| w.percent_interval()).map(|i| i.1))
    }),
    ("wall_half_width_pct", |l| {
        opt(wall(l).and_then(|w| w.half_width_pct))
    }),
    ("wall_verdict", |l| {
        opt(wall(l)
            .and_then(|w| w.verdict)
            .map(|v| v.describe(Metric::Wall)))
    }),
    ("rounds_needed", |l| {
        opt(l.versus.and_then(|v| v.rounds_needed))
    }),
    ("cpu_pct", |l| percent(l, Metric::Cpu)),
    ("sys_pct", |l| percent(l, Metric::Sys)),
    ("rss_pct", |l| percent(l, Metric::Rss)),
    ("minor_faults_pct", |l| percent(l, Metric::MinorFaults)),
    ("unreliable", |l| l.unreliable.clone()),
];

impl Exporter for CsvExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        let error = |why: String| ExportError::Render { format: "CSV", why };
        let unreliable = |set: &ResultSet| {
            results
                .cell(&set.corpus, set.checkers)
                .map_or(String::new(), |cell| cell.unreliable.join(";"))
        };
        let runs = results.results.iter().flat_map(|set| {
            set.runs.iter().map(move |run| {
                let f = run.figures;
                Line {
                    kind: "run",
                    set,
                    round: Some(run.round),
                    status: run.status.to_string(),
                    digest: &run.digest,
                    figures: Figures {
                        wall_s: f.wall_s,
                        user_s: f.user_s,
                        sys_s: f.sys_s,
                        max_rss_kib: f.max_rss_kib as f64,
                        vm_hwm_kib: f.vm_hwm_kib as f64,
                        minor_faults: f.minor_faults as f64,
                        major_faults: f.major_faults as f64,
                        anon_huge_kib: f.anon_huge_kib as f64,
                        anon_huge_peak_kib: f.anon_huge_peak_kib as f64,
                    },
                    covariates: Some(run.covariates),
                    run: Some(run),
                    versus: None,
                    unreliable: String::new(),
                }
            })
        });
        let medians = results.results.iter().filter_map(|set| {
            Some(Line {
                kind: "median",
                set,
                round: None,
                status: format!("{} ok runs", set.ok_runs),
                digest: "",
                figures: set.median?,
                covariates: None,
                run: None,
                versus: set.versus_baseline.as_ref(),
                unreliable: unreliable(set),
            })
        });
        let mut writer = csv::Writer::from_writer(Vec::new());
        let kernel = kernel_columns();
        let header = COLUMNS
            .iter()
            .map(|(name, _)| name.to_string())
            .chain(kernel.iter().map(|(name, _)| name.clone()));
        writer
            .write_record(header)
            .map_err(|e| error(e.to_string()))?;
        for line in runs.chain(medians) {
            let record = COLUMNS
                .iter()
                .map(|(_, value)| value(&line))
                .chain(kernel.iter().map(|(_, value)| value(&line)));
            writer
                .write_record(record)
                .map_err(|e| error(e.to_string()))?;
        }
        writer.into_inner().map_err(|e| error(e.to_string()))
    }
}

type KernelColumn = (String, Box<dyn Fn(&Line<'_>) -> String>);

/// A median line's kernel summary.
fn summary<'a>(line: &Line<'a>) -> Option<&'a KernelSummary> {
    line.set.kernel.as_ref().filter(|_| line.run.is_none())
}

/// The huge-page coverage and one column per vmstat counter (`vmstat_thp_fault_alloc`,
/// ...): a run line's own delta, a median line's median over its attributed runs. After
/// [`COLUMNS`], so that scripts reading the older columns by position still work.
fn kernel_columns() -> Vec<KernelColumn> {
    let mut columns: Vec<KernelColumn> = vec![
        (
            "huge_share".to_string(),
            Box::new(|l| match l.run {
                Some(run) => opt(run.huge_share()),
                None => opt(summary(l).and_then(|k| k.huge_share)),
            }),
        ),
        (
            "huge_pages_per_carved_mib".to_string(),
            Box::new(|l| match l.run {
                Some(run) => opt(run.huge_pages_per_carved_mib()),
                None => opt(summary(l).and_then(|k| k.huge_pages_per_carved_mib)),
            }),
        ),
        (
            "own_fault_share".to_string(),
            Box::new(|l| opt(l.run.and_then(|r| r.kernel.as_ref()?.own_fault_share))),
        ),
        (
            "kernel_attributed".to_string(),
            Box::new(|l| match l.run {
                Some(run) => opt(run.kernel.as_ref().map(|k| k.attributed)),
                None => {
                    opt(summary(l).map(|k| format!("{}/{}", k.attributed_runs, k.recorded_runs)))
                }
            }),
        ),
    ];
    for counter in VMSTAT_COUNTERS {
        columns.push((
            format!("vmstat_{counter}"),
            Box::new(move |l| match l.run {
                Some(run) => opt(run.kernel.as_ref().and_then(|k| k.get(counter))),
                None => opt(summary(l).and_then(|k| k.events.get(counter).copied())),
            }),
        ));
    }
    columns
}
