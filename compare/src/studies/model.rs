//! The fault and memory model: what each slice policy costs, predicted from the carve
//! record of `slice-nohuge` runs.
//!
//! A class slice's bump pointer only moves forward and nothing is returned to the OS, so
//! what a slice carved (`c` bytes from its start) decides its pages under every policy:
//!
//! | policy | minor faults of the slice | resident bytes of the slice |
//! |---|---|---|
//! | `nohuge` | `⌈c / 4 KiB⌉` | `⌈c / 4 KiB⌉ × 4 KiB` |
//! | `hybrid@N`, `c ≤ N` or slice ≤ N | as `nohuge` | as `nohuge` |
//! | `hybrid@N`, `c > N` | `N / 4 KiB + ⌈(c − N) / 2 MiB⌉` | `N + ⌈(c − N) / 2 MiB⌉ × 2 MiB` |
//! | `huge` | `⌈c / 2 MiB⌉` | `⌈c / 2 MiB⌉ × 2 MiB` |
//! | `adaptive` | none (the slice is untouched while the nursery lasts) | none |
//!
//! Under `adaptive` every class carves 4 KiB spans from one nursery shared by all arenas, so
//! the run, not the slice, is the unit: a class that carved `c` bytes of blocks of `s` bytes
//! took `⌈c / (⌊4 KiB / s⌋ · s)⌉` spans, the nursery's frontier stands at `F`, the sum of
//! them times 4 KiB, and the nursery costs `min(F, 2 MiB) / 4 KiB` small-page faults (its
//! small-page prefix) plus `⌈(F − 2 MiB) / 2 MiB⌉` huge ones, with as many bytes resident,
//! plus one span-table page (2 bytes per span) per 2048 spans.
//!
//! Everything else the process faults and holds (binary, stacks, the system allocator's
//! heap, the slices' own bookkeeping) does not depend on the policy: it is the measured
//! `nohuge` figure less the `nohuge` slice terms, and is added back to every prediction.
//! The model assumes every huge-page fault gets a huge page; where the kernel has none to
//! give, measured faults exceed the prediction. The huge pages it predicts (every `2 MiB`
//! term above) are set beside what the kernel says it gave the run at fault time
//! (`thp_fault_alloc`, from runs whose kernel events are attributed to them).
use slice_alloc::{Policy, ThpPolicy};

use crate::contender::Contender;
use crate::results::{Results, Run};
use crate::stats::median;
use crate::studies::reproduce::{Published, published};
use crate::table::{Table, count, signed};

/// A small page.
pub const SMALL_PAGE: u64 = 4 << 10; // 4 KiB
/// A transparent huge page.
pub const HUGE_PAGE: u64 = 2 << 20; // 2 MiB
/// Largest relative error of a fault prediction that counts as explained.
pub const FAULT_TOLERANCE: f64 = 0.10;
/// Largest relative error of a peak RSS prediction that counts as explained.
pub const RSS_TOLERANCE: f64 = 0.03;

/// What one slice, or a whole run's slices, cost under one policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub faults: u64,
    pub resident_bytes: u64,
    /// Of `faults`, those that take a 2 MiB page.
    pub huge_pages: u64,
}

impl std::ops::Add for Footprint {
    type Output = Footprint;
    fn add(self, other: Footprint) -> Footprint {
        Footprint {
            faults: self.faults + other.faults,
            resident_bytes: self.resident_bytes + other.resident_bytes,
            huge_pages: self.huge_pages + other.huge_pages,
        }
    }
}

/// Pages of `bytes` touched from a page-aligned start, in pages of `page` bytes.
fn pages(bytes: u64, page: u64) -> u64 {
    bytes.div_ceil(page)
}

/// One slice of `slice_bytes` that carved `carved` bytes, under `thp`. Under `adaptive` the
/// slice itself is not touched: its class carves in the nursery ([`nursery_footprint`]).
pub fn slice_footprint(carved: u64, slice_bytes: u64, thp: ThpPolicy) -> Footprint {
    let small = |bytes: u64| Footprint {
        faults: pages(bytes, SMALL_PAGE),
        resident_bytes: pages(bytes, SMALL_PAGE) * SMALL_PAGE,
        huge_pages: 0,
    };
    let huge = |bytes: u64| Footprint {
        faults: pages(bytes, HUGE_PAGE),
        resident_bytes: pages(bytes, HUGE_PAGE) * HUGE_PAGE,
        huge_pages: pages(bytes, HUGE_PAGE),
    };
    match thp {
        ThpPolicy::NoHuge => small(carved),
        ThpPolicy::Huge => huge(carved),
        ThpPolicy::Adaptive => Footprint::default(),
        ThpPolicy::Hybrid { switch_at_mib } => {
            let switch = u64::from(switch_at_mib) << 20;
            if slice_bytes <= switch || carved <= switch {
                small(carved)
            } else {
                // The huge part starts at the first 2 MiB boundary at or after the switch.
                let huge_from = switch.next_multiple_of(HUGE_PAGE);
                small(huge_from.min(carved)) + huge(carved.saturating_sub(huge_from))
            }
        }
    }
}

/// Bytes of nursery spans a class of `class` that carved `carved` bytes takes under
/// `adaptive`: whole spans, each holding as many whole blocks as fit.
pub fn nursery_spans_bytes(class: u64, carved: u64) -> u64 {
    let span = slice_alloc::NURSERY_SPAN_BYTES as u64;
    let block = (class + 1) * 16;
    let usable = span / block * block;
    carved.div_ceil(usable) * span
}

/// The nursery of one run's carve record under `adaptive`: its small-page prefix, then huge
/// pages up to its frontier, plus its span table.
pub fn nursery_footprint(slices: &[[u64; 3]]) -> Footprint {
    let span = slice_alloc::NURSERY_SPAN_BYTES as u64;
    let prefix = slice_alloc::NURSERY_SMALL_PREFIX_BYTES as u64;
    let frontier: u64 = slices
        .iter()
        .map(|&[_, class, carved]| nursery_spans_bytes(class, carved))
        .sum();
    let small = pages(frontier.min(prefix), SMALL_PAGE);
    let huge = pages(frontier.saturating_sub(prefix), HUGE_PAGE);
    let table = pages(frontier / span * 2, SMALL_PAGE);
    Footprint {
        faults: small + huge + table,
        resident_bytes: (small + table) * SMALL_PAGE + huge * HUGE_PAGE,
        huge_pages: huge,
    }
}

/// Every slice of one run's carve record under `thp`, and the nursery under `adaptive`.
pub fn run_footprint(slices: &[[u64; 3]], slice_bytes: u64, thp: ThpPolicy) -> Footprint {
    let own = slices
        .iter()
        .map(|&[_, _, carved]| slice_footprint(carved, slice_bytes, thp))
        .fold(Footprint::default(), |a, b| a + b);
    match thp {
        ThpPolicy::Adaptive => own + nursery_footprint(slices),
        _ => own,
    }
}

/// The policies the model predicts: the THP policies without the ablations, which touch
/// pages the bump pointer has not reached (`+populate`) or copy them (`+collapse`).
pub fn predicts(policy: Policy) -> bool {
    !policy.populate && !policy.collapse
}

/// A nohuge run's figures split into its slices' share and the rest.
#[derive(Clone, Copy, Debug)]
struct Baseline {
    /// Faults outside the slices.
    other_faults: f64,
    /// Peak RSS outside the slices, in KiB.
    other_rss_kib: f64,
}

fn carve_of(run: &Run) -> Option<(&[[u64; 3]], u64)> {
    let proof = run.allocator.as_ref()?;
    let slice_bytes = proof.slice_bytes?;
    (!proof.slices.is_empty()).then_some((proof.slices.as_slice(), slice_bytes))
}

/// One contender's predicted and measured figures in one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub corpus: String,
    pub checkers: usize,
    pub contender: Contender,
    pub predicted_faults: f64,
    pub measured_faults: f64,
    pub predicted_rss_kib: f64,
    pub measured_rss_kib: f64,
    /// Huge pages the model gives the run.
    pub predicted_huge_pages: f64,
    /// Huge pages the kernel gave it at fault time (`thp_fault_alloc`), the median over the
    /// contender's runs whose kernel events are theirs; `None` where no run has them (results
    /// from before they were recorded, or a kernel without the counter).
    pub kernel_huge_pages: Option<f64>,
    /// nohuge runs whose carve record the prediction comes from.
    pub from_runs: usize,
}

impl Prediction {
    pub fn fault_error(&self) -> f64 {
        self.predicted_faults / self.measured_faults - 1.0
    }

    pub fn rss_error(&self) -> f64 {
        self.predicted_rss_kib / self.measured_rss_kib - 1.0
    }

    /// Both errors within [`FAULT_TOLERANCE`] and [`RSS_TOLERANCE`].
    pub fn explained(&self) -> bool {
        self.fault_error().abs() <= FAULT_TOLERANCE && self.rss_error().abs() <= RSS_TOLERANCE
    }
}

/// Predictions for every slice contender (but nohuge and the ablations) of every cell
/// whose nohuge runs carry a carve record: each nohuge run predicts, the median of those
/// predictions is set beside the median of the contender's own runs.
pub fn predict(results: &Results) -> Vec<Prediction> {
    let mut out = Vec::new();
    let mut cells: Vec<(String, usize)> = results
        .results
        .iter()
        .map(|set| (set.corpus.clone(), set.checkers))
        .collect();
    cells.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    cells.dedup();
    for (corpus, checkers) in cells {
        let nohuge: Vec<(&Run, &[[u64; 3]], u64)> = results
            .ok_runs(&corpus, Contender::SLICE_NOHUGE, checkers)
            .into_iter()
            .filter_map(|run| carve_of(run).map(|(slices, bytes)| (run, slices, bytes)))
            .collect();
        if nohuge.is_empty() {
            continue;
        }
        let baselines: Vec<Baseline> = nohuge
            .iter()
            .map(|(run, slices, slice_bytes)| {
                let own = run_footprint(slices, *slice_bytes, ThpPolicy::NoHuge);
                Baseline {
                    other_faults: run.figures.minor_faults as f64 - own.faults as f64,
                    other_rss_kib: run.figures.rss_kib() as f64
                        - own.resident_bytes as f64 / 1024.0,
                }
            })
            .collect();
        for set in results
            .results
            .iter()
            .filter(|s| s.corpus == corpus && s.checkers == checkers)
        {
            let Some(policy) = set.contender.slice_policy() else {
                continue;
            };
            // nohuge itself and its A/A control are what the prediction starts from.
            if policy.thp == ThpPolicy::NoHuge || !predicts(policy) {
                continue;
            }
            let measured = results.ok_runs(&corpus, set.contender, checkers);
            let (Some(measured_faults), Some(measured_rss_kib)) = (
                Results::median_over(&measured, |r| r.figures.minor_faults as f64),
                Results::median_over(&measured, |r| r.figures.rss_kib() as f64),
            ) else {
                continue;
            };
            let predicted: Vec<(f64, f64, f64)> = nohuge
                .iter()
                .zip(&baselines)
                .map(|((_, slices, slice_bytes), base)| {
                    let f = run_footprint(slices, *slice_bytes, policy.thp);
                    (
                        base.other_faults + f.faults as f64,
                        base.other_rss_kib + f.resident_bytes as f64 / 1024.0,
                        f.huge_pages as f64,
                    )
                })
                .collect();
            let attributed: Vec<&Run> = measured
                .iter()
                .copied()
                .filter(|run| run.kernel.as_ref().is_some_and(|k| k.attributed))
                .collect();
            let kernel_huge_pages = Results::median_over(&attributed, |run| {
                run.kernel
                    .as_ref()
                    .and_then(|k| k.get("thp_fault_alloc"))
                    .unwrap_or(0) as f64
            });
            out.push(Prediction {
                corpus: corpus.clone(),
                checkers,
                contender: set.contender,
                predicted_faults: median(&predicted.iter().map(|p| p.0).collect::<Vec<_>>())
                    .unwrap_or(0.0),
                measured_faults,
                predicted_rss_kib: median(&predicted.iter().map(|p| p.1).collect::<Vec<_>>())
                    .unwrap_or(0.0),
                measured_rss_kib,
                predicted_huge_pages: median(&predicted.iter().map(|p| p.2).collect::<Vec<_>>())
                    .unwrap_or(0.0),
                kernel_huge_pages,
                from_runs: nohuge.len(),
            });
        }
    }
    out
}

/// The predictions as a table.
pub fn table(predictions: &[Prediction]) -> Table {
    let mib = |kib: f64| format!("{:.1}", kib / 1024.0);
    Table {
        header: [
            "checkers",
            "corpus",
            "contender",
            "faults predicted",
            "measured",
            "error %",
            "RSS MiB predicted",
            "measured",
            "error %",
            "huge pages predicted",
            "kernel gave",
            "explained",
        ]
        .map(String::from)
        .to_vec(),
        rows: predictions
            .iter()
            .map(|p| {
                vec![
                    p.checkers.to_string(),
                    p.corpus.clone(),
                    p.contender.to_string(),
                    count(p.predicted_faults),
                    count(p.measured_faults),
                    signed(100.0 * p.fault_error()),
                    mib(p.predicted_rss_kib),
                    mib(p.measured_rss_kib),
                    signed(100.0 * p.rss_error()),
                    count(p.predicted_huge_pages),
                    p.kernel_huge_pages.map_or_else(|| "-".to_string(), count),
                    if p.explained() { "yes" } else { "no" }.to_string(),
                ]
            })
            .collect(),
    }
}

/// How far the slices carved past a hybrid switch point, and what the publication's
/// fault cut says the reference's slices carved.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    pub corpus: String,
    pub checkers: usize,
    /// Published faults, nohuge and hybrid@8.
    pub published: (f64, f64),
    /// What the published cut implies the reference carved past its switch points, in MiB.
    pub published_past_switch_mib: f64,
    /// Our median nohuge faults.
    pub ours_nohuge_faults: f64,
    /// What our slices carved past 8 MiB (median over nohuge runs), in MiB.
    pub ours_past_switch_mib: f64,
    /// What our slices would have to carve past 8 MiB for the publication's cut ratio at
    /// our nohuge fault count, in MiB.
    pub needed_past_switch_mib: f64,
}

/// Faults a hybrid policy saves per byte carved past its switch point: a small-page
/// fault per 4 KiB, less one huge-page fault per 2 MiB.
fn saved_per_byte() -> f64 {
    (1.0 - SMALL_PAGE as f64 / HUGE_PAGE as f64) / SMALL_PAGE as f64
}

/// Bytes that must be carved past the switch point to save `faults` faults.
pub fn past_switch_bytes_for(faults_saved: f64) -> f64 {
    faults_saved / saved_per_byte()
}

/// The gap to the publication, per published row where we have nohuge carve records.
pub fn gaps(results: &Results) -> Vec<Gap> {
    let switch = u64::from(crate::contender::DEFAULT_SWITCH_MIB) << 20;
    let mut out = Vec::new();
    for Published {
        checkers,
        corpus,
        nohuge_faults,
        hybrid_faults,
        ..
    } in published()
    {
        let runs = results.ok_runs(&corpus, Contender::SLICE_NOHUGE, checkers);
        let carves: Vec<f64> = runs
            .iter()
            .filter_map(|r| carve_of(r))
            .map(|(slices, slice_bytes)| {
                let past: u64 = slices
                    .iter()
                    .filter(|_| slice_bytes > switch)
                    .map(|&[_, _, c]| c.saturating_sub(switch))
                    .sum();
                past as f64 / f64::from(1 << 20)
            })
            .collect();
        let (Some(ours_past), Some(ours_faults)) = (
            median(&carves),
            Results::median_over(&runs, |r| r.figures.minor_faults as f64),
        ) else {
            continue;
        };
        let cut = nohuge_faults / hybrid_faults;
        let needed_saved = ours_faults * (1.0 - 1.0 / cut);
        out.push(Gap {
            corpus,
            checkers,
            published: (nohuge_faults, hybrid_faults),
            published_past_switch_mib: past_switch_bytes_for(nohuge_faults - hybrid_faults)
                / f64::from(1 << 20),
            ours_nohuge_faults: ours_faults,
            ours_past_switch_mib: ours_past,
            needed_past_switch_mib: past_switch_bytes_for(needed_saved) / f64::from(1 << 20),
        });
    }
    out
}

/// The gaps as a table.
pub fn gap_table(gaps: &[Gap]) -> Table {
    Table {
        header: [
            "checkers",
            "corpus",
            "published faults",
            "published cut",
            "reference past 8 MiB",
            "our nohuge faults",
            "ours past 8 MiB",
            "needed for the same cut",
            "share",
        ]
        .map(String::from)
        .to_vec(),
        rows: gaps
            .iter()
            .map(|g| {
                vec![
                    g.checkers.to_string(),
                    g.corpus.clone(),
                    format!("{} -> {}", count(g.published.0), count(g.published.1)),
                    format!("{:.1}x", g.published.0 / g.published.1),
                    format!("{:.0} MiB", g.published_past_switch_mib),
                    count(g.ours_nohuge_faults),
                    format!("{:.0} MiB", g.ours_past_switch_mib),
                    format!("{:.0} MiB", g.needed_past_switch_mib),
                    format!(
                        "{:.0}%",
                        100.0 * g.ours_past_switch_mib / g.needed_past_switch_mib
                    ),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn a_nohuge_slice_faults_once_per_small_page_it_carved_into() {
        let f = slice_footprint(10 * MIB + 1, 64 * MIB, ThpPolicy::NoHuge);
        assert_eq!(f.faults, 10 * 256 + 1);
        assert_eq!(f.resident_bytes, (10 * 256 + 1) * SMALL_PAGE);
    }

    #[test]
    fn a_hybrid_slice_takes_huge_pages_only_past_its_switch_point() {
        let hybrid = ThpPolicy::Hybrid { switch_at_mib: 8 };
        assert_eq!(
            slice_footprint(8 * MIB, 64 * MIB, hybrid),
            slice_footprint(8 * MIB, 64 * MIB, ThpPolicy::NoHuge)
        );
        let f = slice_footprint(11 * MIB, 64 * MIB, hybrid);
        assert_eq!(
            f.faults,
            8 * 256 + 2,
            "2048 small pages, then two 2 MiB pages"
        );
        assert_eq!(f.resident_bytes, 12 * MIB);
        assert_eq!(f.huge_pages, 2);
    }

    #[test]
    fn a_slice_no_larger_than_the_switch_point_never_switches() {
        let hybrid = ThpPolicy::Hybrid { switch_at_mib: 8 };
        assert_eq!(
            slice_footprint(8 * MIB, 8 * MIB, hybrid),
            slice_footprint(8 * MIB, 8 * MIB, ThpPolicy::NoHuge)
        );
    }

    #[test]
    fn a_huge_slice_is_resident_to_the_next_two_mib_boundary() {
        let f = slice_footprint(MIB / 2, 64 * MIB, ThpPolicy::Huge);
        assert_eq!(
            f,
            Footprint {
                faults: 1,
                resident_bytes: 2 * MIB,
                huge_pages: 1,
            }
        );
    }

    #[test]
    fn an_adaptive_run_pays_its_small_prefix_then_one_fault_per_huge_page_of_spans() {
        // 64-byte blocks fill a 4 KiB span exactly: 10 MiB of them is 2560 spans.
        let slices = [[0, 3, 6 * MIB], [1, 3, 4 * MIB]];
        let f = run_footprint(&slices, 64 * MIB, ThpPolicy::Adaptive);
        assert_eq!(
            f.faults,
            512 + 4 + 2,
            "2 MiB of small pages, 8 MiB of huge, two table pages"
        );
        assert_eq!(f.resident_bytes, 10 * MIB + 2 * SMALL_PAGE);
        assert_eq!(f.huge_pages, 4, "the 8 MiB past the small prefix");
    }

    #[test]
    fn a_span_holds_only_whole_blocks() {
        // 48-byte blocks: 85 to a span, 16 bytes left over.
        assert_eq!(nursery_spans_bytes(2, 85 * 48), 4096);
        assert_eq!(nursery_spans_bytes(2, 86 * 48), 2 * 4096);
    }

    #[test]
    fn the_published_cut_converts_to_bytes_past_the_switch_point() {
        // 511 faults saved per 2 MiB carved past the switch point.
        assert!((past_switch_bytes_for(511.0) - 2.0 * MIB as f64).abs() < 1.0);
    }
}
