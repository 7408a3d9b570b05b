//! What the kernel did with one run's memory: the machine-wide `/proc/vmstat` events that
//! a huge-page policy moves, differenced across the run and weighed against the run's own
//! faults, and the run's resident memory over time as the parent sampled it.
//!
//! **The vmstat counters are the machine's, not the run's**: every process on the machine
//! moves them, the parent's own sampling included. A run's own faults (wait4) are part of
//! `pgfault`'s delta; where they explain less than [`OWN_SHARE_MIN`] of it, or the huge-page
//! faults outnumber all of the run's faults, the run is not `attributed` and its deltas are
//! reported as the machine's.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Run;
use crate::stats;

/// A transparent huge page, in KiB.
const HUGE_PAGE_KIB: f64 = 2048.0;

/// The `/proc/vmstat` counters recorded around every run, in the order tables print them.
pub const VMSTAT_COUNTERS: [&str; 11] = [
    "thp_fault_alloc",
    "thp_fault_fallback",
    "thp_fault_fallback_charge",
    "thp_collapse_alloc",
    "thp_split_page",
    "thp_deferred_split_page",
    "thp_underused_split_page",
    "thp_split_pmd",
    "compact_stall",
    "pgfault",
    "pgmajfault",
];

/// The least share of `pgfault`'s delta the run's own faults must explain for the deltas
/// to be taken as the run's: below it, the rest of the machine faulted more than a tenth of
/// what moved the counters while the run ran.
pub const OWN_SHARE_MIN: f64 = 0.9;

/// The vmstat events of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelEvents {
    /// Each of [`VMSTAT_COUNTERS`]' increase from just before the spawn to just after the
    /// reap; a counter this kernel does not have is absent.
    pub deltas: BTreeMap<String, u64>,
    /// The run's own faults (wait4 minor + major) over `pgfault`'s delta; absent where the
    /// delta is 0 or the kernel has no `pgfault`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_fault_share: Option<f64>,
    /// Whether the deltas are taken as the run's: its own faults explain at least
    /// [`OWN_SHARE_MIN`] of `pgfault`'s delta and at least as many faults as
    /// `thp_fault_alloc` + `thp_fault_fallback` counted (each of those is a fault of the
    /// process that took it). When false, others must have caused part of them.
    pub attributed: bool,
}

impl KernelEvents {
    /// The events of a run that took `own_faults` faults (minor + major) while the counters
    /// moved by `deltas`.
    pub fn new(deltas: BTreeMap<String, u64>, own_faults: u64) -> KernelEvents {
        let get = |name: &str| deltas.get(name).copied();
        let own_fault_share = get("pgfault")
            .filter(|&d| d > 0)
            // Four decimals: enough, and a value the results file reads back exactly.
            .map(|d| (own_faults as f64 / d as f64 * 1e4).round() / 1e4);
        let huge_faults =
            get("thp_fault_alloc").unwrap_or(0) + get("thp_fault_fallback").unwrap_or(0);
        let attributed = own_fault_share.is_some_and(|share| share >= OWN_SHARE_MIN)
            && huge_faults <= own_faults;
        KernelEvents {
            deltas,
            own_fault_share,
            attributed,
        }
    }

    /// One counter's delta, if this kernel has it.
    pub fn get(&self, counter: &str) -> Option<u64> {
        self.deltas.get(counter).copied()
    }
}

/// What one contender's successful runs in one cell say of the kernel: medians, recomputed
/// from the runs whenever they change.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelSummary {
    /// Median share of peak RSS (see [`super::Figures::rss_kib`]) that sat in huge pages at
    /// their sampled peak (AnonHugePages), 0 to 1.
    pub huge_share: Option<f64>,
    /// Slice contenders: median huge pages (at their peak) per MiB the slices carved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub huge_pages_per_carved_mib: Option<f64>,
    /// Median delta of each vmstat counter over the runs whose deltas are attributed to
    /// them; empty when none is.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub events: BTreeMap<String, f64>,
    /// Runs whose vmstat deltas were recorded, and of those the ones attributed.
    pub recorded_runs: usize,
    pub attributed_runs: usize,
}

impl KernelSummary {
    /// The summary of `runs`; `None` for no runs.
    pub fn over(runs: &[&Run]) -> Option<KernelSummary> {
        if runs.is_empty() {
            return None;
        }
        let median = |values: Vec<f64>| stats::median(&values);
        let recorded: Vec<&KernelEvents> = runs.iter().filter_map(|r| r.kernel.as_ref()).collect();
        let attributed: Vec<&KernelEvents> =
            recorded.iter().copied().filter(|k| k.attributed).collect();
        let events = VMSTAT_COUNTERS
            .iter()
            .filter_map(|&name| {
                let values = attributed
                    .iter()
                    .filter_map(|k| k.get(name))
                    .map(|v| v as f64);
                Some((name.to_string(), median(values.collect())?))
            })
            .collect();
        Some(KernelSummary {
            huge_share: median(runs.iter().filter_map(|r| r.huge_share()).collect()),
            huge_pages_per_carved_mib: median(
                runs.iter()
                    .filter_map(|r| r.huge_pages_per_carved_mib())
                    .collect(),
            ),
            events,
            recorded_runs: recorded.len(),
            attributed_runs: attributed.len(),
        })
    }
}

impl Run {
    /// The share of the run's peak RSS in huge pages: its peak AnonHugePages (sampled, or
    /// the child's own end figure) over its peak RSS; `None` without an RSS.
    pub fn huge_share(&self) -> Option<f64> {
        let f = &self.figures;
        let rss = f.rss_kib();
        (rss > 0).then(|| f.anon_huge_peak_kib.max(f.anon_huge_kib) as f64 / rss as f64)
    }

    /// Slice runs: huge pages at their peak per MiB the slices carved.
    pub fn huge_pages_per_carved_mib(&self) -> Option<f64> {
        let carved = self.allocator.as_ref()?.carved_bytes.filter(|&b| b > 0)?;
        let f = &self.figures;
        let pages = f.anon_huge_peak_kib.max(f.anon_huge_kib) as f64 / HUGE_PAGE_KIB;
        Some(pages / (carved as f64 / f64::from(1 << 20)))
    }
}

/// One sample of a run's memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// Since the spawn, in milliseconds.
    pub t_ms: u32,
    /// Rss of `/proc/PID/smaps_rollup`, in KiB.
    pub rss_kib: u64,
    /// AnonHugePages of the same read, in KiB.
    pub anon_huge_kib: u64,
}

/// A run's memory over time: the parent reads the child's `/proc/PID/smaps_rollup` every
/// `interval_ms` while it runs, and never after it exits. Stored compactly as one string,
/// `"t_ms,rss_kib,anon_huge_kib t_ms,rss_kib,anon_huge_kib ..."`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(into = "TimelineRecord", try_from = "TimelineRecord")]
pub struct Timeline {
    pub interval_ms: u32,
    pub samples: Vec<Sample>,
}

impl Timeline {
    /// The sample with the most resident memory (the first of equals).
    pub fn peak(&self) -> Option<Sample> {
        self.samples
            .iter()
            .copied()
            .reduce(|best, s| if s.rss_kib > best.rss_kib { s } else { best })
    }
}

/// How often the parent samples a run's memory today, in milliseconds; a timeline written
/// without its interval was sampled at it.
pub const SAMPLE_INTERVAL_MS: u32 = 100;

fn today_s_interval_ms() -> u32 {
    SAMPLE_INTERVAL_MS
}

/// How a [`Timeline`] is written in the results file.
#[derive(Serialize, Deserialize)]
struct TimelineRecord {
    #[serde(default = "today_s_interval_ms")]
    interval_ms: u32,
    samples: String,
}

impl From<Timeline> for TimelineRecord {
    fn from(timeline: Timeline) -> TimelineRecord {
        let samples: Vec<String> = timeline
            .samples
            .iter()
            .map(|s| format!("{},{},{}", s.t_ms, s.rss_kib, s.anon_huge_kib))
            .collect();
        TimelineRecord {
            interval_ms: timeline.interval_ms,
            samples: samples.join(" "),
        }
    }
}

impl TryFrom<TimelineRecord> for Timeline {
    type Error = String;

    fn try_from(record: TimelineRecord) -> Result<Timeline, String> {
        let samples = record
            .samples
            .split_whitespace()
            .map(|sample| {
                let bad = || format!("memory sample {sample:?} is not t_ms,rss_kib,anon_huge_kib");
                let mut fields = sample.split(',');
                let mut next = || fields.next().ok_or_else(bad);
                let (t, rss, huge) = (next()?, next()?, next()?);
                if fields.next().is_some() {
                    return Err(bad());
                }
                Ok(Sample {
                    t_ms: t.parse().map_err(|_| bad())?,
                    rss_kib: rss.parse().map_err(|_| bad())?,
                    anon_huge_kib: huge.parse().map_err(|_| bad())?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Timeline {
            interval_ms: record.interval_ms,
            samples,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeline_without_its_interval_was_sampled_at_today_s() {
        let timeline: Timeline = serde_json::from_str(r#"{"samples": "0,10,0 100,20,0"}"#).unwrap();
        assert_eq!(timeline.interval_ms, SAMPLE_INTERVAL_MS);
        assert_eq!(timeline.samples.len(), 2);
    }

    fn deltas(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
    }

    #[test]
    fn a_run_whose_faults_explain_the_delta_is_attributed() {
        let events = KernelEvents::new(deltas(&[("pgfault", 1000), ("thp_fault_alloc", 20)]), 950);
        assert_eq!(events.own_fault_share, Some(0.95));
        let third = KernelEvents::new(deltas(&[("pgfault", 3)]), 1);
        assert_eq!(third.own_fault_share, Some(0.3333));
        assert!(events.attributed);
    }

    #[test]
    fn a_run_that_explains_too_little_of_the_delta_is_not_attributed() {
        let events = KernelEvents::new(deltas(&[("pgfault", 1000)]), 500);
        assert_eq!(events.own_fault_share, Some(0.5));
        assert!(!events.attributed);
    }

    #[test]
    fn more_huge_page_faults_than_the_run_took_are_not_the_runs() {
        let events = KernelEvents::new(deltas(&[("pgfault", 100), ("thp_fault_alloc", 150)]), 100);
        assert!(!events.attributed);
    }

    #[test]
    fn a_kernel_without_pgfault_attributes_nothing() {
        let events = KernelEvents::new(deltas(&[("thp_fault_alloc", 1)]), 100);
        assert_eq!(events.own_fault_share, None);
        assert!(!events.attributed);
    }

    #[test]
    fn a_timeline_round_trips_through_its_compact_string() {
        let timeline = Timeline {
            interval_ms: 20,
            samples: vec![
                Sample {
                    t_ms: 20,
                    rss_kib: 5120,
                    anon_huge_kib: 0,
                },
                Sample {
                    t_ms: 41,
                    rss_kib: 9216,
                    anon_huge_kib: 4096,
                },
            ],
        };
        let json = serde_json::to_string(&timeline).unwrap();
        assert_eq!(
            json,
            r#"{"interval_ms":20,"samples":"20,5120,0 41,9216,4096"}"#
        );
        assert_eq!(serde_json::from_str::<Timeline>(&json).unwrap(), timeline);
        assert_eq!(timeline.peak().unwrap().t_ms, 41);
    }

    #[test]
    fn a_malformed_sample_is_refused_with_the_sample() {
        let error = serde_json::from_str::<Timeline>(r#"{"interval_ms":20,"samples":"20,5120"}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("\"20,5120\""), "{error}");
    }
}
