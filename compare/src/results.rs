//! The results of a bake-off: every run's raw figures, and what follows from them.
//!
//! **Runs are the only source of truth**: medians, spread, digest verdicts, paired ratios
//! and the cells' control verdicts are recomputed from them by [`Results::refresh`]
//! whenever runs are added or loaded, so a results file edited or resumed by hand cannot
//! carry stale summaries.
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::contender::{Contender, Definition};
use crate::environment::Environment;
use crate::stats::{self, Metric, Ratio};
use crate::workload::WorkloadKind;
use calibration::Calibration;
use shards::{MergedShard, ShardRecord};

pub mod calibration;
mod digests;
pub mod kernel;
mod proof;
pub mod shards;

pub use proof::{AllocatorProof, CommandProof};

/// A whole bake-off, as the JSON export writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    pub environment: Environment,
    pub settings: Settings,
    /// One entry per corpus, contender and checker count, in schedule order.
    pub results: Vec<ResultSet>,
    /// One entry per corpus and checker count with runs: its rounds, its control's
    /// ratios and which of its figures are unreliable. Recomputed from the runs.
    #[serde(default)]
    pub cells: Vec<Cell>,
    /// The fault cost probe of each invocation that measured runs, oldest first.
    #[serde(default)]
    pub calibrations: Vec<Calibration>,
    /// The definition of every contender beyond the built-in ones (knobs, preloads, a
    /// contenders file's), so that their names parse back when the file is loaded.
    /// Recomputed from the contenders; absent in files from before there were any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<Definition>,
    /// With `--shard K/N`: which share of the plan (`settings`, always the whole plan) this
    /// file runs. Absent for a whole bake-off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
    /// Written by `compare merge`: the shard files these results were joined from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<MergedShard>,
}

/// What was asked for: the plan a resumed bake-off must continue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub corpora: Vec<String>,
    pub checkers: Vec<usize>,
    pub contenders: Vec<Contender>,
    pub baseline: Contender,
    /// Rounds at least per corpus and checker count (each round runs every contender
    /// once). Files from before paired rounds call it `runs`.
    #[serde(alias = "runs")]
    pub min_runs: usize,
    /// Rounds at most; absent means `min_runs`, a fixed number of rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_runs: Option<usize>,
    /// Past `min_runs`, rounds go on until every contender's wall interval is at most
    /// ± this many percent (or `max_runs` is reached); absent for a fixed number of rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_pct: Option<f64>,
    /// Corpora whose cells stop at another precision than `precision_pct` (`--precision-for`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub precision_by_corpus: BTreeMap<String, f64>,
    /// Warm-up rounds before each corpus and checker count, not recorded.
    pub warmup: usize,
    /// Whether every round also runs the baseline a second time as `<baseline>#2`.
    #[serde(default)]
    pub control: bool,
    /// Seed of the shuffled round order (and of the per-run layout padding).
    #[serde(default)]
    pub seed: u64,
    /// SHA-256 of each corpus's files (by the corpus as `corpora` spells it), taken
    /// before the first run: a resumed bake-off refuses a corpus that changed since.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub corpus_digests: BTreeMap<String, String>,
    /// The files the bake-off writes, by option (`--json`, `--csv`, `--markdown`,
    /// `--svg`), as absolute paths: a resumed bake-off keeps writing them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub outputs: BTreeMap<String, PathBuf>,
    /// A command bake-off (`--command`): `corpora` holds the commands, `checkers` is `[1]`.
    /// Absent for a checker bake-off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandSettings>,
    /// What every child runs (`--workload`); absent for the checker, as in older files.
    #[serde(default, skip_serializing_if = "WorkloadKind::is_default")]
    pub workload: WorkloadKind,
}

/// What a command bake-off records in its settings beside the commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandSettings {
    /// Whether a run's digest is a hash of its standard output (so that a run whose output
    /// differs from the majority's fails); false with `--no-digest`.
    pub digest: bool,
}

/// How many rounds a plan gets when the command line does not say.
#[derive(Clone, Copy, Debug)]
pub struct RoundDefaults {
    /// Half-width of the wall intervals to stop at, percent.
    pub precision_pct: f64,
    pub max_runs: usize,
}

impl Settings {
    /// Whether this plan can run at all: a file edited by hand may hold one that cannot.
    pub fn validate(&self) -> Result<(), String> {
        if self.corpora.is_empty() {
            return Err("settings.corpora is empty".to_string());
        }
        if self.contenders.is_empty() {
            return Err("settings.contenders is empty".to_string());
        }
        let max = workload::MAX_CHECKERS as usize;
        match self.checkers.iter().find(|&&n| n == 0 || n > max) {
            _ if self.checkers.is_empty() => return Err("settings.checkers is empty".to_string()),
            Some(n) => return Err(format!("settings.checkers holds {n}, outside 1..={max}")),
            None => {}
        }
        if self.min_runs == 0 {
            return Err("settings.min_runs is 0".to_string());
        }
        if self.max_runs.is_some_and(|max| max < self.min_runs) {
            return Err("settings.max_runs is below settings.min_runs".to_string());
        }
        if self
            .precision_pct
            .is_some_and(|p| !(p > 0.0 && p.is_finite()))
        {
            return Err("settings.precision_pct is not a positive percentage".to_string());
        }
        self.check_precision_by_corpus()
    }

    /// Whether every corpus given its own precision (`--precision-for`) is one of the plan's,
    /// in a plan run to a precision, at a positive percentage.
    pub fn check_precision_by_corpus(&self) -> Result<(), String> {
        for (corpus, precision) in &self.precision_by_corpus {
            if !self.corpora.contains(corpus) {
                return Err(format!(
                    "--precision-for names `{corpus}`, which is not a corpus of this plan ({})",
                    self.corpora.join(", ")
                ));
            }
            if self.precision_pct.is_none() || !(*precision > 0.0 && precision.is_finite()) {
                return Err(format!(
                    "--precision-for {corpus}={precision} needs rounds run to a precision (not \
                     --runs) and a positive percentage"
                ));
            }
        }
        Ok(())
    }

    /// Everything each round runs: the contenders, and the baseline's control when the
    /// plan has one (last, unless the contenders name it themselves).
    pub fn entrants(&self) -> Vec<Contender> {
        let mut entrants = self.contenders.clone();
        if self.control
            && let Some(control) = self.baseline.control()
            && !entrants.contains(&control)
        {
            entrants.push(control);
        }
        entrants
    }

    /// How tables and progress name a cell: `trpc · 8 checkers`, or a command in backquotes.
    pub fn cell_label(&self, corpus: &str, checkers: usize) -> String {
        match self.command {
            Some(_) => format!("`{corpus}`"),
            None => format!(
                "{corpus} · {checkers} checker{}{}",
                if checkers == 1 { "" } else { "s" },
                match self.workload {
                    default if default.is_default() => String::new(),
                    // One runtime: the checkers take turns, so wall is their work added up.
                    serialized if serialized.protocol().serialized && checkers > 1 => {
                        format!(" · {serialized}, serialized")
                    }
                    other => format!(" · {other}"),
                }
            ),
        }
    }

    /// The precision `corpus`'s cells stop at: its own (`--precision-for`) or the plan's;
    /// `None` for a fixed number of rounds.
    pub fn precision_for(&self, corpus: &str) -> Option<f64> {
        let default = self.precision_pct?;
        Some(
            self.precision_by_corpus
                .get(corpus)
                .copied()
                .unwrap_or(default),
        )
    }

    /// The most rounds any corpus and checker count gets.
    pub fn max_rounds(&self) -> usize {
        self.max_runs.unwrap_or(self.min_runs).max(self.min_runs)
    }
}

/// The runs of one contender on one corpus at one checker count, and their summary.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResultSet {
    pub corpus: String,
    pub contender: Contender,
    pub checkers: usize,
    /// Which allocator served the runs, as the last successful child proved it.
    #[serde(default)]
    pub allocator: Option<AllocatorProof>,
    /// The workload's size, as the last successful child counted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<Workload>,
    pub runs: Vec<Run>,
    /// Runs whose status is `ok`; only these enter the summaries.
    #[serde(default)]
    pub ok_runs: usize,
    #[serde(default)]
    pub median: Option<Summary>,
    #[serde(default)]
    pub min: Option<Summary>,
    #[serde(default)]
    pub max: Option<Summary>,
    /// Ratios to the baseline on the same corpus and checker count.
    #[serde(default)]
    pub versus_baseline: Option<Versus>,
    /// Huge-page coverage and the kernel's events, medians of the successful runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<kernel::KernelSummary>,
}

impl ResultSet {
    /// The runs that count.
    pub fn ok(&self) -> impl Iterator<Item = &Run> {
        self.runs.iter().filter(|run| run.status.is_ok())
    }
}

/// One measured run of a child.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Round of the interleaved schedule, from 0.
    pub round: usize,
    /// `ok`, or why the run is kept out of the summaries.
    pub status: RunStatus,
    /// The workload digest the child reported; empty when it reported none.
    pub digest: String,
    #[serde(flatten)]
    pub figures: Figures<f64, u64>,
    /// What the child said about its allocator.
    #[serde(default)]
    pub allocator: Option<AllocatorProof>,
    /// What the child said about the size of its work.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<Workload>,
    /// What shaped the heap besides the corpus and the checker count, as the child reported it
    /// (tsc: `collect`); absent for the checker and in older files.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub workload_settings: BTreeMap<String, String>,
    /// What else happened while it ran; absent in files from before they were recorded.
    #[serde(flatten)]
    pub covariates: Covariates,
    /// The machine's huge-page and fault events across the run (/proc/vmstat); absent in
    /// files from before they were recorded and for a run that did not start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<kernel::KernelEvents>,
    /// The run's RSS and AnonHugePages over time; absent in files from before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<kernel::Timeline>,
}

/// What the machine did around one run, to explain a run that stands out. None of it
/// enters a ratio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Covariates {
    /// When the child was spawned, seconds since the Unix epoch (0 when not recorded).
    #[serde(default)]
    pub started_unix_s: f64,
    /// Times the child was preempted (wait4 `ru_nivcsw`).
    #[serde(default)]
    pub involuntary_switches: u64,
    /// Times the child gave up its CPU itself (wait4 `ru_nvcsw`).
    #[serde(default)]
    pub voluntary_switches: u64,
    /// Steal time of all CPUs while the child ran (/proc/stat), in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_s: Option<f64>,
    /// The random padding of this run's environment, in bytes (0 to 4096): see
    /// `benchmark::layout`.
    #[serde(default)]
    pub env_padding_bytes: usize,
    /// What the quiet gate saw before the run; absent where no gate ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet: Option<QuietCheck>,
}

/// What the quiet gate (`benchmark::quiet`) saw before one run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuietCheck {
    /// How long the run waited for a quiet machine, in seconds (0: it was quiet at once).
    pub waited_s: f64,
    /// The CPUs other processes kept busy in the gate's last window.
    pub other_cpus: f64,
    /// The 1-minute load average as the run started (where /proc/loadavg could be read).
    #[serde(default)]
    pub load1: Option<f64>,
    /// Whether the machine was quiet as the run started (false: the wait ran out).
    pub quiet: bool,
}

/// The size of the input and of the checker's state, as the child counted it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workload {
    pub files: u64,
    /// Source bytes, standard library included.
    pub bytes: u64,
    pub ast_nodes: u64,
    pub symbols: u64,
    pub types: u64,
    /// Assignability relations computed.
    pub relations: u64,
    pub diagnostics: u64,
}

/// The measured figures of one run (`Figures<f64, u64>`) or their summary (`Figures<f64, f64>`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures<T, N> {
    /// Wall time from spawn to reaping, in seconds.
    pub wall_s: T,
    /// User CPU time (wait4), in seconds.
    pub user_s: T,
    /// System CPU time (wait4), in seconds.
    pub sys_s: T,
    /// Maximum resident set size (wait4 `ru_maxrss`), in KiB.
    pub max_rss_kib: N,
    /// Peak resident set the child read from /proc/self/status (VmHWM), in KiB.
    pub vm_hwm_kib: N,
    /// Minor page faults (wait4 `ru_minflt`).
    pub minor_faults: N,
    /// Major page faults (wait4 `ru_majflt`).
    pub major_faults: N,
    /// Anonymous memory in transparent huge pages at the child's end (AnonHugePages), in KiB.
    pub anon_huge_kib: N,
    /// The most anonymous memory in transparent huge pages the child held during the run,
    /// in KiB: the parent's samples of its AnonHugePages (/proc/PID/smaps_rollup, every
    /// 100 ms) and its own figure at the end. 0 in files from before it was sampled.
    #[serde(default)]
    pub anon_huge_peak_kib: N,
}

/// Medians, minima or maxima over the successful runs.
pub type Summary = Figures<f64, f64>;

impl Figures<f64, u64> {
    /// The resident-set figure the ratios use: the child's own VmHWM when it reported
    /// one, else wait4's `ru_maxrss` (which can carry a parent's high-water mark across exec).
    pub fn rss_kib(&self) -> u64 {
        if self.vm_hwm_kib > 0 {
            self.vm_hwm_kib
        } else {
            self.max_rss_kib
        }
    }
}

impl Metric {
    /// This metric of one run.
    pub fn of(self, figures: &Figures<f64, u64>) -> f64 {
        match self {
            Metric::Wall => figures.wall_s,
            Metric::Cpu => figures.user_s + figures.sys_s,
            Metric::Sys => figures.sys_s,
            Metric::Rss => figures.rss_kib() as f64,
            Metric::MinorFaults => figures.minor_faults as f64,
        }
    }
}

impl Summary {
    /// See [`Figures::rss_kib`].
    pub fn rss_kib(&self) -> f64 {
        if self.vm_hwm_kib > 0.0 {
            self.vm_hwm_kib
        } else {
            self.max_rss_kib
        }
    }

    fn over(runs: &[&Run], pick: fn(&[f64]) -> Option<f64>) -> Option<Summary> {
        let field = |get: fn(&Figures<f64, u64>) -> f64| {
            let values: Vec<f64> = runs.iter().map(|run| get(&run.figures)).collect();
            pick(&values)
        };
        Some(Summary {
            wall_s: field(|f| f.wall_s)?,
            user_s: field(|f| f.user_s)?,
            sys_s: field(|f| f.sys_s)?,
            max_rss_kib: field(|f| f.max_rss_kib as f64)?,
            vm_hwm_kib: field(|f| f.vm_hwm_kib as f64)?,
            minor_faults: field(|f| f.minor_faults as f64)?,
            major_faults: field(|f| f.major_faults as f64)?,
            anon_huge_kib: field(|f| f.anon_huge_kib as f64)?,
            anon_huge_peak_kib: field(|f| f.anon_huge_peak_kib as f64)?,
        })
    }
}

/// Whether a run counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    Ok,
    /// The child failed: non-zero exit, a signal, an unreadable report, or the wrong allocator.
    Failed(String),
    /// The child succeeded but its digest differs from the one most contenders reported on
    /// the same corpus at the same checker count.
    DigestMismatch {
        expected: String,
    },
    /// The child succeeded, but no digest of its cell is the one most runs share: `digests`
    /// different ones among `runs` runs, none more common than every other (a command whose
    /// output changes from run to run), so no run can be told right.
    DigestUnsettled {
        runs: usize,
        digests: usize,
    },
}

const DIGEST_MISMATCH: &str = "digest differs from the other contenders' majority digest ";
const DIGEST_UNSETTLED: &str = "digest unsettled: ";

impl RunStatus {
    pub fn is_ok(&self) -> bool {
        matches!(self, RunStatus::Ok)
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunStatus::Ok => f.write_str("ok"),
            RunStatus::Failed(why) => f.write_str(why),
            RunStatus::DigestMismatch { expected } => write!(f, "{DIGEST_MISMATCH}{expected}"),
            RunStatus::DigestUnsettled { runs, digests } => write!(
                f,
                "{DIGEST_UNSETTLED}{digests} different digests in {runs} runs of this cell, none \
                 the most common: its output is not the same from run to run (--no-digest \
                 measures such a command without comparing its output)"
            ),
        }
    }
}

impl Serialize for RunStatus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RunStatus {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(if text == "ok" {
            RunStatus::Ok
        } else if let Some(expected) = text.strip_prefix(DIGEST_MISMATCH) {
            RunStatus::DigestMismatch {
                expected: expected.to_string(),
            }
        } else if let Some((digests, runs)) = text.strip_prefix(DIGEST_UNSETTLED).and_then(|rest| {
            let mut words = rest.split(' ');
            let digests = words.next()?.parse().ok()?;
            let runs = words.nth(3)?.parse().ok()?;
            Some((digests, runs))
        }) {
            RunStatus::DigestUnsettled { runs, digests }
        } else {
            RunStatus::Failed(text)
        })
    }
}

/// Paired ratios to the baseline (see [`stats::paired`]): wall time, CPU time (user +
/// sys), sys time, resident set (see [`Figures::rss_kib`]) and minor faults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    pub baseline: Contender,
    pub wall: Option<Ratio>,
    #[serde(default)]
    pub cpu: Option<Ratio>,
    #[serde(default)]
    pub sys: Option<Ratio>,
    pub rss: Option<Ratio>,
    pub minor_faults: Option<Ratio>,
    /// With a precision asked for and a wall interval wider than it: the rounds the
    /// observed spread says it would take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_needed: Option<usize>,
}

impl Versus {
    pub fn get(&self, metric: Metric) -> Option<Ratio> {
        match metric {
            Metric::Wall => self.wall,
            Metric::Cpu => self.cpu,
            Metric::Sys => self.sys,
            Metric::Rss => self.rss,
            Metric::MinorFaults => self.minor_faults,
        }
    }
}

/// One corpus at one checker count: what its control says about every row in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub corpus: String,
    pub checkers: usize,
    /// Rounds in which the baseline has a successful run.
    pub rounds: usize,
    /// The control's ratios to the baseline: the noise floor of this cell. Absent
    /// without a control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<Versus>,
    /// Metrics (`wall`, `cpu`, `sys`, `rss`, `minor_faults`) on which the control got a
    /// verdict: an A/A comparison that finds a difference, so no verdict of this cell on
    /// that metric can be trusted.
    #[serde(default)]
    pub unreliable: Vec<String>,
    /// With a precision asked for: whether every row's wall interval is within it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precise: Option<bool>,
}

impl Cell {
    /// Whether the control got a verdict on `metric`.
    pub fn is_unreliable(&self, metric: Metric) -> bool {
        self.unreliable.iter().any(|name| name == metric.name())
    }
}

/// Why a results file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read results file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("{path} is not a compare results file: {error}")]
    Parse {
        path: String,
        error: serde_json::Error,
    },
    #[error("{path}: {error}")]
    Definition {
        path: String,
        error: Box<crate::contender::VariantError>,
    },
}

impl Results {
    /// Empty results for a plan.
    pub fn new(environment: Environment, settings: Settings) -> Results {
        Results {
            environment,
            settings,
            results: Vec::new(),
            cells: Vec::new(),
            calibrations: Vec::new(),
            definitions: Vec::new(),
            shard: None,
            merged_from: Vec::new(),
        }
    }

    /// Reads a JSON results file and recomputes everything derived.
    pub fn load(path: &Path) -> Result<Results, LoadError> {
        let text = std::fs::read_to_string(path).map_err(|error| LoadError::Read {
            path: path.display().to_string(),
            error,
        })?;
        let parse = |error| LoadError::Parse {
            path: path.display().to_string(),
            error,
        };
        // The definitions first (read in their own pass, keeping the order of each
        // contender's knobs): the contenders' names in the rest resolve to them.
        #[derive(Deserialize)]
        struct Definitions {
            #[serde(default)]
            definitions: Vec<Definition>,
        }
        let first: Definitions = serde_json::from_str(&text).map_err(parse)?;
        for definition in first.definitions {
            definition
                .register()
                .map_err(|error| LoadError::Definition {
                    path: path.display().to_string(),
                    error: Box::new(error),
                })?;
        }
        let mut results: Results = serde_json::from_str(&text).map_err(parse)?;
        results.refresh();
        Ok(results)
    }

    /// The result set of one contender on one corpus at one checker count.
    pub fn get(&self, corpus: &str, contender: Contender, checkers: usize) -> Option<&ResultSet> {
        self.results.iter().find(|set| {
            set.corpus == corpus && set.contender == contender && set.checkers == checkers
        })
    }

    /// The successful runs of one contender on one corpus at one checker count, in the
    /// order they ran: what every study reads.
    pub fn ok_runs(&self, corpus: &str, contender: Contender, checkers: usize) -> Vec<&Run> {
        self.get(corpus, contender, checkers)
            .map(|set| set.runs.iter().filter(|r| r.status.is_ok()).collect())
            .unwrap_or_default()
    }

    /// The median over `runs` of one figure of each.
    pub fn median_over(runs: &[&Run], figure: impl Fn(&Run) -> f64) -> Option<f64> {
        crate::stats::median(&runs.iter().map(|r| figure(r)).collect::<Vec<_>>())
    }

    /// Runs already recorded for one contender, corpus and checker count.
    pub fn recorded(&self, corpus: &str, contender: Contender, checkers: usize) -> usize {
        self.get(corpus, contender, checkers)
            .map_or(0, |set| set.runs.len())
    }

    /// Adds one run and recomputes the summaries.
    pub fn push(&mut self, corpus: &str, contender: Contender, checkers: usize, run: Run) {
        let index = match self.results.iter().position(|set| {
            set.corpus == corpus && set.contender == contender && set.checkers == checkers
        }) {
            Some(index) => index,
            None => {
                self.results.push(ResultSet {
                    corpus: corpus.to_string(),
                    contender,
                    checkers,
                    allocator: None,
                    workload: None,
                    runs: Vec::new(),
                    ok_runs: 0,
                    median: None,
                    min: None,
                    max: None,
                    versus_baseline: None,
                    kernel: None,
                });
                self.results.len() - 1
            }
        };
        self.results[index].runs.push(run);
        self.refresh();
    }

    /// The cell of one corpus at one checker count.
    pub fn cell(&self, corpus: &str, checkers: usize) -> Option<&Cell> {
        self.cells
            .iter()
            .find(|cell| cell.corpus == corpus && cell.checkers == checkers)
    }

    /// One figure of every successful run of a contender on a corpus at a checker count.
    pub fn samples(
        &self,
        corpus: &str,
        checkers: usize,
        contender: Contender,
        metric: Metric,
    ) -> Vec<f64> {
        self.get(corpus, contender, checkers)
            .map_or(Vec::new(), |set| {
                set.ok().map(|run| metric.of(&run.figures)).collect()
            })
    }

    /// `(contender, against)` figures of every round in which both have a successful run.
    pub fn pairs(
        &self,
        corpus: &str,
        checkers: usize,
        contender: Contender,
        against: Contender,
        metric: Metric,
    ) -> Vec<(f64, f64)> {
        let (Some(ours), Some(theirs)) = (
            self.get(corpus, contender, checkers),
            self.get(corpus, against, checkers),
        ) else {
            return Vec::new();
        };
        let by_round: BTreeMap<usize, f64> = theirs
            .ok()
            .map(|run| (run.round, metric.of(&run.figures)))
            .collect();
        ours.ok()
            .filter_map(|run| Some((metric.of(&run.figures), *by_round.get(&run.round)?)))
            .collect()
    }

    /// `contender` against `against` on the same corpus and checker count, paired round
    /// by round. Ratios to the baseline come from the last [`Results::refresh`].
    pub fn ratio(
        &self,
        corpus: &str,
        checkers: usize,
        contender: Contender,
        against: Contender,
        metric: Metric,
    ) -> Option<Ratio> {
        if against == self.settings.baseline
            && let Some(versus) = self
                .get(corpus, contender, checkers)
                .and_then(|set| set.versus_baseline.as_ref())
            && versus.baseline == against
        {
            return versus.get(metric);
        }
        stats::paired(&self.pairs(corpus, checkers, contender, against, metric))
    }

    fn versus(&self, corpus: &str, checkers: usize, contender: Contender) -> Versus {
        let baseline = self.settings.baseline;
        let ratio =
            |metric| stats::paired(&self.pairs(corpus, checkers, contender, baseline, metric));
        let wall = ratio(Metric::Wall);
        let rounds_needed = self.settings.precision_for(corpus).and_then(|precision| {
            let wall = wall.as_ref()?;
            (!wall.is_precise(precision))
                .then(|| wall.rounds_needed(precision))
                .flatten()
        });
        Versus {
            baseline,
            wall,
            cpu: ratio(Metric::Cpu),
            sys: ratio(Metric::Sys),
            rss: ratio(Metric::Rss),
            minor_faults: ratio(Metric::MinorFaults),
            rounds_needed,
        }
    }

    /// Whether the cell's rounds may stop: every entrant with a successful run has a wall
    /// interval at most ±`precision_pct` wide. Looks at the width only, never at a verdict.
    pub fn is_precise(&self, corpus: &str, checkers: usize, precision_pct: f64) -> bool {
        self.settings
            .entrants()
            .iter()
            .filter(|&&c| c != self.settings.baseline)
            .filter_map(|&c| self.get(corpus, c, checkers))
            .filter(|set| set.ok_runs > 0)
            .all(|set| {
                set.versus_baseline
                    .as_ref()
                    .and_then(|v| v.wall)
                    .is_some_and(|wall| wall.is_precise(precision_pct))
            })
    }

    /// Rounds of a cell that have at least one recorded run of any entrant.
    pub fn rounds_started(&self, corpus: &str, checkers: usize) -> usize {
        self.results
            .iter()
            .filter(|set| set.corpus == corpus && set.checkers == checkers)
            .flat_map(|set| set.runs.iter().map(|run| run.round + 1))
            .max()
            .unwrap_or(0)
    }

    /// Recomputes digest verdicts, summaries, ratios and cells from the runs.
    pub fn refresh(&mut self) {
        self.definitions = Vec::new();
        let contenders = self.settings.contenders.iter().copied();
        for contender in contenders.chain(self.results.iter().map(|set| set.contender)) {
            if let Some(variant) = contender.variant() {
                let definition = variant.definition();
                if !self.definitions.contains(&definition) {
                    self.definitions.push(definition);
                }
            }
        }
        self.settle_digests();
        for set in &mut self.results {
            let ok: Vec<&Run> = set.runs.iter().filter(|run| run.status.is_ok()).collect();
            set.ok_runs = ok.len();
            set.median = Summary::over(&ok, stats::median);
            set.min = Summary::over(&ok, stats::min);
            set.max = Summary::over(&ok, stats::max);
            set.allocator = ok.iter().rev().find_map(|run| run.allocator.clone());
            set.workload = ok.iter().rev().find_map(|run| run.workload);
            set.kernel = kernel::KernelSummary::over(&ok);
        }
        let baseline = self.settings.baseline;
        let versus: Vec<Option<Versus>> = self
            .results
            .iter()
            .map(|set| {
                if set.contender == baseline {
                    return None;
                }
                self.get(&set.corpus, baseline, set.checkers)?;
                Some(self.versus(&set.corpus, set.checkers, set.contender))
            })
            .collect();
        for (set, versus) in self.results.iter_mut().zip(versus) {
            set.versus_baseline = versus;
        }
        self.cells = self.compute_cells();
        let unreliable: Vec<(String, usize, Vec<String>)> = self
            .cells
            .iter()
            .map(|c| (c.corpus.clone(), c.checkers, c.unreliable.clone()))
            .collect();
        for set in &mut self.results {
            let Some(versus) = set.versus_baseline.as_mut() else {
                continue;
            };
            let Some((_, _, metrics)) = unreliable
                .iter()
                .find(|(corpus, checkers, _)| *corpus == set.corpus && *checkers == set.checkers)
            else {
                continue;
            };
            for metric in Metric::ALL {
                let flag = metrics.iter().any(|name| name == metric.name());
                let ratio = match metric {
                    Metric::Wall => &mut versus.wall,
                    Metric::Cpu => &mut versus.cpu,
                    Metric::Sys => &mut versus.sys,
                    Metric::Rss => &mut versus.rss,
                    Metric::MinorFaults => &mut versus.minor_faults,
                };
                if let Some(ratio) = ratio {
                    ratio.unreliable = flag;
                }
            }
        }
        // The cells' copies of their controls' ratios carry the same flags.
        let controls: Vec<Option<Versus>> = self
            .cells
            .iter()
            .map(|cell| {
                let control = self.settings.baseline.control()?;
                self.get(&cell.corpus, control, cell.checkers)?
                    .versus_baseline
                    .clone()
            })
            .collect();
        for (cell, control) in self.cells.iter_mut().zip(controls) {
            cell.control = control;
        }
    }

    fn compute_cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for &checkers in &self.settings.checkers {
            for corpus in &self.settings.corpora {
                let Some(baseline) = self.get(corpus, self.settings.baseline, checkers) else {
                    continue;
                };
                let rounds = baseline
                    .ok()
                    .map(|run| run.round)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                let control = self
                    .settings
                    .baseline
                    .control()
                    .and_then(|c| self.get(corpus, c, checkers))
                    .and_then(|set| set.versus_baseline.clone());
                let unreliable = control.as_ref().map_or(Vec::new(), |control| {
                    Metric::ALL
                        .iter()
                        .filter(|&&m| control.get(m).is_some_and(|r| r.discredits(m)))
                        .map(|m| m.name().to_string())
                        .collect()
                });
                let precise = self
                    .settings
                    .precision_for(corpus)
                    .map(|p| self.is_precise(corpus, checkers, p));
                cells.push(Cell {
                    corpus: corpus.clone(),
                    checkers,
                    rounds,
                    control,
                    unreliable,
                    precise,
                });
            }
        }
        cells
    }
}
