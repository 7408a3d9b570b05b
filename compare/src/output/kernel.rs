//! What the kernel did with each contender's memory, per cell: the huge-page coverage of
//! its peak RSS and the median vmstat events of its runs (see [`crate::results::kernel`]).
use crate::output::table::Table;
use crate::results::Results;
use crate::results::kernel::VMSTAT_COUNTERS;

/// The counters as table headers: the kernel's names less their common prefixes.
fn short(counter: &str) -> String {
    counter
        .strip_prefix("thp_")
        .unwrap_or(counter)
        .replace("_page", "")
        .replace("fault_fallback_charge", "fallback_charge")
        .replace("fault_fallback", "fallback")
}

/// One row per contender and cell with recorded events: `huge % RSS` (median share of peak
/// RSS in huge pages), `huge/MiB carved` (slice contenders), each counter's median delta
/// over the attributed runs, the median share of `pgfault`'s delta the run's own faults
/// explain, and `attributed` runs of those recorded. `None` when no run recorded events.
pub fn events_table(results: &Results) -> Option<Table> {
    let mut rows = Vec::new();
    for &checkers in &results.settings.checkers {
        for corpus in &results.settings.corpora {
            for contender in results.settings.entrants() {
                let Some(set) = results.get(corpus, contender, checkers) else {
                    continue;
                };
                let Some(summary) = set.kernel.as_ref().filter(|k| k.recorded_runs > 0) else {
                    continue;
                };
                let shares: Vec<f64> = set
                    .ok()
                    .filter_map(|r| r.kernel.as_ref()?.own_fault_share)
                    .collect();
                let mut row = vec![
                    results.settings.cell_label(corpus, checkers),
                    contender.to_string(),
                    summary
                        .huge_share
                        .map_or("-".to_string(), |s| format!("{:.0}", 100.0 * s)),
                    summary
                        .huge_pages_per_carved_mib
                        .map_or("-".to_string(), |p| format!("{p:.2}")),
                ];
                row.extend(VMSTAT_COUNTERS.iter().map(|&c| {
                    summary
                        .events
                        .get(c)
                        .map_or("-".to_string(), |v| format!("{v:.0}"))
                }));
                row.push(
                    crate::stats::median(&shares)
                        .map_or("-".to_string(), |s| format!("{:.0}", 100.0 * s)),
                );
                row.push(format!(
                    "{}/{}",
                    summary.attributed_runs, summary.recorded_runs
                ));
                rows.push(row);
            }
        }
    }
    if rows.is_empty() {
        return None;
    }
    let mut header = vec![
        "cell".to_string(),
        "contender".to_string(),
        "huge % RSS".to_string(),
        "huge/MiB carved".to_string(),
    ];
    header.extend(VMSTAT_COUNTERS.iter().map(|c| short(c)));
    header.push("own % of pgfault".to_string());
    header.push("attributed".to_string());
    Some(Table { header, rows })
}

/// What the events table's columns mean, for the Markdown report and `--wide`.
pub const EVENTS_NOTE: &str = "The machine's /proc/vmstat counters read just before each \
    run's spawn and just after its reap; each is the median over the runs whose deltas are \
    attributed to them: their own faults (wait4 minor + major) explain at least 90% of \
    pgfault's delta and at least as many faults as thp_fault_alloc + fallback counted. The \
    counters are machine-wide, so a run is not attributed when other processes (and the \
    parent's own sampling) faulted meanwhile; `own % of pgfault` is the median share its own \
    faults explain, `attributed` counts the runs whose deltas the medians use. `huge % RSS` is \
    the median share of peak RSS in huge pages (peak AnonHugePages over VmHWM), `huge/MiB \
    carved` the median huge pages per MiB the slices carved.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_drop_the_common_prefixes() {
        assert_eq!(short("thp_fault_alloc"), "fault_alloc");
        assert_eq!(short("thp_fault_fallback_charge"), "fallback_charge");
        assert_eq!(short("thp_deferred_split_page"), "deferred_split");
        assert_eq!(short("thp_underused_split_page"), "underused_split");
        assert_eq!(short("pgfault"), "pgfault");
    }
}
