//! `compare reproduce`: the publication's matrix, and the report sections that set our
//! figures beside the published ones.
//!
//! The published figures are embedded (`data/commit-figures.tsv`, a copy of
//! `shared/reference/commit-figures.tsv`), so a report renders anywhere.
use crate::contender::Contender;
use crate::results::{Results, RoundDefaults, Settings};
use crate::stats::{Metric, Ratio, Verdict};
use crate::table::{Table, count, signed};
use crate::workload::WorkloadKind;
use workload::Heap;

/// The publication's corpora, in its order.
pub const CORPORA: [&str; 5] = ["trpc", "excalidraw", "typeorm", "playwright", "typescript"];
/// The publication's checker counts.
pub const CHECKERS: [usize; 2] = [1, 8];
/// Switch points the reference swept, in MiB; 8 is plain `slice-hybrid`.
pub const SWITCH_POINTS_MIB: [u32; 4] = [2, 4, 8, 16];

/// What the other allocators do with huge pages, added to `--ablations` on the tsc workload:
/// jemalloc's HPA (hugifies a pageslab once mostly active), jemalloc advising everything,
/// mimalloc (advises its segments), glibc's `hugetlb=1` tunable.
pub const OTHER_HUGE_PAGE_POLICIES: [&str; 4] = [
    "jemalloc:hpa=true",
    "jemalloc:thp=always",
    "mimalloc",
    "system:hugetlb=1",
];

const COMMIT_FIGURES: &str = include_str!("../../data/commit-figures.tsv");
/// The real TypeScript checkers on the same corpora (a copy of
/// `shared/reference/native-checker.tsv`).
const NATIVE_CHECKER: &str = include_str!("../../data/native-checker.tsv");

/// Rounds of `reproduce` when the command line does not say: the six contenders and the
/// control on ten cells make 40 rounds 55 minutes on a quiet 2-core machine (measured at
/// 847760f; with --ablations, 12 runs a round, about 90), reaching ±3.2% to ±4.8% on the
/// control's wall time where ±2% would take 100 to 220 rounds at that host's noise.
pub const ROUNDS: RoundDefaults = RoundDefaults {
    precision_pct: 2.0,
    max_runs: 40,
};

/// The matrix: all five corpora at 1 and 8 checkers; the three slice policies and the
/// three other allocators; with `ablations` also the switch sweep, +populate and +collapse.
/// Paired rounds with the A/A control, `min_runs` rounds at least.
///
/// On the `tsc` workload (TypeScript's checker on QuickJS, 15 s to 2 minutes a run here) the
/// matrix is the five corpora at 1 checker (`--checkers 1,8` adds 8) and the slice policies
/// the publication compared plus `slice-adaptive`; the other allocators are a bake-off's
/// (`compare --workload tsc --corpus trpc`).
pub fn settings(
    workload: WorkloadKind,
    ablations: bool,
    min_runs: usize,
    warmup: usize,
) -> Settings {
    let mut contenders = vec![
        Contender::SLICE_NOHUGE,
        Contender::SLICE_HYBRID,
        Contender::SLICE_HUGE,
    ];
    let per_object = workload.protocol().heap == Heap::PerObject;
    if per_object {
        contenders.push(
            "slice-adaptive"
                .parse()
                .expect("slice-adaptive is a valid contender"),
        );
    }
    if ablations {
        contenders.extend(
            SWITCH_POINTS_MIB
                .iter()
                .map(|&mib| Contender::hybrid_at(mib))
                .filter(|c| *c != Contender::SLICE_HYBRID),
        );
        for name in ["slice-hybrid+populate", "slice-hybrid+collapse"] {
            contenders.push(
                name.parse()
                    .expect("the ablation names are valid contenders"),
            );
        }
        if per_object {
            // The other allocators' huge-page policies, on the publication's kind of heap.
            for name in OTHER_HUGE_PAGE_POLICIES {
                contenders.push(
                    name.parse()
                        .expect("the other allocators' policies are valid contenders"),
                );
            }
        }
    }
    if !per_object {
        contenders.extend([Contender::Mimalloc, Contender::Jemalloc, Contender::System]);
    }
    Settings {
        corpora: CORPORA.map(String::from).to_vec(),
        checkers: CHECKERS.to_vec(),
        contenders,
        baseline: Contender::SLICE_NOHUGE,
        min_runs,
        max_runs: None,
        precision_pct: None,
        precision_by_corpus: Default::default(),
        warmup,
        control: true,
        seed: 0,
        corpus_digests: Default::default(),
        outputs: Default::default(),
        command: None,
        workload,
    }
}

/// One row of the published table.
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    pub checkers: usize,
    pub corpus: String,
    pub hybrid_wall_pct: f64,
    pub hybrid_rss_pct: f64,
    pub nohuge_faults: f64,
    pub hybrid_faults: f64,
    pub all_wall_pct: f64,
    pub all_rss_pct: f64,
}

/// The published rows, from the embedded TSV.
pub fn published() -> Vec<Published> {
    COMMIT_FIGURES
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("checkers"))
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let num = |i: usize| f.get(i)?.trim_start_matches('+').parse::<f64>().ok();
            Some(Published {
                checkers: f.first()?.parse().ok()?,
                corpus: f.get(1)?.to_string(),
                hybrid_wall_pct: num(2)?,
                hybrid_rss_pct: num(3)?,
                nohuge_faults: num(4)?,
                hybrid_faults: num(5)?,
                all_wall_pct: num(6)?,
                all_rss_pct: num(7)?,
            })
        })
        .collect()
}

/// One row of the native checkers' measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct Native {
    pub corpus: String,
    /// `tsgo` (the native port) or `tsc6`.
    pub tool: String,
    pub checkers: usize,
    pub wall_s: f64,
    pub max_rss_mb: f64,
    pub minor_faults: f64,
    pub files: u64,
    pub types: u64,
}

/// The native checkers' rows, from the embedded TSV.
pub fn native() -> Vec<Native> {
    NATIVE_CHECKER
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("corpus\t"))
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Some(Native {
                corpus: f.first()?.to_string(),
                tool: f.get(1)?.to_string(),
                checkers: f.get(2)?.parse().ok()?,
                wall_s: f.get(3)?.parse().ok()?,
                max_rss_mb: f.get(4)?.parse().ok()?,
                minor_faults: f.get(5)?.parse().ok()?,
                files: f.get(6)?.parse().ok()?,
                types: f.get(7)?.parse().ok()?,
            })
        })
        .collect()
}

/// The notes under the published table (the `#` lines after it).
pub fn published_notes() -> Vec<&'static str> {
    let mut lines = COMMIT_FIGURES.lines().skip_while(|l| l.starts_with('#'));
    lines
        .by_ref()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect()
}

/// Whether our change has the published direction: `✓` agrees, `✗` disagrees; in
/// parentheses when our interval contains no change, so the direction is not established.
fn agreement(ours: &Ratio, published_pct: f64) -> &'static str {
    let same = (ours.percent() < 0.0) == (published_pct < 0.0);
    let established = matches!(ours.verdict, Some(Verdict::Lower | Verdict::Higher));
    match (same, established) {
        (true, true) => "✓",
        (true, false) => "(✓)",
        (false, true) => "✗",
        (false, false) => "(✗)",
    }
}

fn beside(ours: Option<Ratio>, published_pct: f64) -> String {
    match ours {
        Some(r) => format!(
            "{} / {} {}",
            signed(r.percent()),
            signed(published_pct),
            agreement(&r, published_pct)
        ),
        None => format!("- / {}", signed(published_pct)),
    }
}

/// Whether the results hold any row of the published table.
pub fn covers_publication(results: &Results) -> bool {
    beside_publication(results).is_some()
}

/// Under the checker workload, one line saying that its heap is several times smaller than
/// the publication's (our nohuge faults beside the published ones, on the largest published
/// row measured) and which command measures the publication's kind of heap.
pub fn heap_note(results: &Results) -> Option<String> {
    let heap = results.settings.workload.protocol().heap;
    if heap != Heap::Interned || results.settings.command.is_some() {
        return None;
    }
    let (checkers, corpus, publ, ours) = published_rows(results)
        .into_iter()
        .filter_map(|(checkers, corpus, publ)| {
            let set = results.get(corpus, Contender::SLICE_NOHUGE, checkers)?;
            Some((checkers, corpus, publ, set.median?.minor_faults))
        })
        .max_by(|a, b| (a.2.nohuge_faults / a.3).total_cmp(&(b.2.nohuge_faults / b.3)))?;
    Some(format!(
        "our checker's heap is {:.1}x smaller than the publication's ({corpus} at {checkers}: {} \
         nohuge faults here, {} published), too small for most slices to reach the switch \
         point; the publication's kind of heap: cargo run --release -p compare -- --workload \
         tsc --corpus {corpus} --checkers {checkers}",
        publ.nohuge_faults / ours.max(1.0),
        count(ours),
        count(publ.nohuge_faults),
    ))
}

fn rows(results: &Results) -> impl Iterator<Item = (usize, &String)> {
    let mut checkers = results.settings.checkers.clone();
    checkers.sort_unstable();
    checkers.dedup();
    checkers
        .into_iter()
        .flat_map(move |n| results.settings.corpora.iter().map(move |c| (n, c)))
}

/// The published rows the results measured (hybrid's or all-huge's wall against
/// slice-nohuge), in the report's row order, each with its checker count and corpus: the one
/// walk of the publication that the table and the chart share.
fn published_rows(results: &Results) -> Vec<(usize, &String, Published)> {
    let published = published();
    rows(results)
        .filter_map(|(checkers, corpus)| {
            let publ = published
                .iter()
                .find(|p| p.checkers == checkers && p.corpus == *corpus)?;
            let wall =
                |c| results.ratio(corpus, checkers, c, Contender::SLICE_NOHUGE, Metric::Wall);
            (wall(Contender::SLICE_HYBRID).is_some() || wall(Contender::SLICE_HUGE).is_some())
                .then(|| (checkers, corpus, publ.clone()))
        })
        .collect()
}

pub fn beside_publication(results: &Results) -> Option<Table> {
    let nohuge = Contender::SLICE_NOHUGE;
    let mut table_rows = Vec::new();
    for (checkers, corpus, publ) in published_rows(results) {
        let hybrid = |f| results.ratio(corpus, checkers, Contender::SLICE_HYBRID, nohuge, f);
        let huge = |f| results.ratio(corpus, checkers, Contender::SLICE_HUGE, nohuge, f);
        let faults = |c| {
            let set = results.get(corpus, c, checkers)?;
            Some(set.median?.minor_faults)
        };
        let ours_faults = match (faults(nohuge), faults(Contender::SLICE_HYBRID)) {
            (Some(n), Some(h)) if h > 0.0 => {
                format!("{} -> {} ({:.1}x)", count(n), count(h), n / h)
            }
            _ => "-".to_string(),
        };
        let fault_agreement = hybrid(Metric::MinorFaults).map_or("", |r| agreement(&r, -1.0));
        table_rows.push(vec![
            checkers.to_string(),
            corpus.clone(),
            beside(hybrid(Metric::Wall), publ.hybrid_wall_pct),
            beside(hybrid(Metric::Rss), publ.hybrid_rss_pct),
            format!("{ours_faults} {fault_agreement}")
                .trim()
                .to_string(),
            format!(
                "{} -> {} ({:.1}x)",
                count(publ.nohuge_faults),
                count(publ.hybrid_faults),
                publ.nohuge_faults / publ.hybrid_faults
            ),
            beside(huge(Metric::Wall), publ.all_wall_pct),
            beside(huge(Metric::Rss), publ.all_rss_pct),
        ]);
    }
    (!table_rows.is_empty()).then(|| Table {
        header: [
            "checkers",
            "corpus",
            "hybrid wall %",
            "hybrid RSS %",
            "faults nohuge -> hybrid (ours)",
            "(published)",
            "huge wall %",
            "huge RSS %",
        ]
        .map(String::from)
        .to_vec(),
        rows: table_rows,
    })
}

/// One figure of the publication's table, ours beside theirs, for the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Beside {
    /// `1 · trpc`.
    pub row: String,
    /// `hybrid wall`, `hybrid RSS`, `hybrid faults`, `huge wall`, `huge RSS`.
    pub figure: &'static str,
    /// Our paired ratio against slice-nohuge, if measured.
    pub ours: Option<Ratio>,
    /// The published change, percent.
    pub published_pct: f64,
}

/// The figures of every published row the results hold, in the publication's order.
pub fn beside_figures(results: &Results) -> Vec<Beside> {
    let nohuge = Contender::SLICE_NOHUGE;
    let mut out = Vec::new();
    for (checkers, corpus, publ) in published_rows(results) {
        let ratio = |c, m| results.ratio(corpus, checkers, c, nohuge, m);
        let row = format!("{checkers} · {corpus}");
        let published_faults_pct = (publ.hybrid_faults / publ.nohuge_faults - 1.0) * 100.0;
        for (figure, contender, metric, published_pct) in [
            (
                "hybrid wall",
                Contender::SLICE_HYBRID,
                Metric::Wall,
                publ.hybrid_wall_pct,
            ),
            (
                "hybrid RSS",
                Contender::SLICE_HYBRID,
                Metric::Rss,
                publ.hybrid_rss_pct,
            ),
            (
                "hybrid faults",
                Contender::SLICE_HYBRID,
                Metric::MinorFaults,
                published_faults_pct,
            ),
            (
                "huge wall",
                Contender::SLICE_HUGE,
                Metric::Wall,
                publ.all_wall_pct,
            ),
            (
                "huge RSS",
                Contender::SLICE_HUGE,
                Metric::Rss,
                publ.all_rss_pct,
            ),
        ] {
            out.push(Beside {
                row: row.clone(),
                figure,
                ours: ratio(contender, metric),
                published_pct,
            });
        }
    }
    out
}

/// A table with one column per contender (those present), each cell from `cell`.
fn per_contender(
    results: &Results,
    contenders: &[Contender],
    cell: impl Fn(&str, usize, Contender) -> Option<String>,
) -> Option<Table> {
    let present: Vec<Contender> = contenders
        .iter()
        .copied()
        .filter(|&c| results.results.iter().any(|set| set.contender == c))
        .collect();
    if present.is_empty() {
        return None;
    }
    let table_rows: Vec<Vec<String>> = rows(results)
        .filter_map(|(checkers, corpus)| {
            let cells: Vec<Option<String>> =
                present.iter().map(|&c| cell(corpus, checkers, c)).collect();
            cells.iter().any(Option::is_some).then(|| {
                [checkers.to_string(), corpus.clone()]
                    .into_iter()
                    .chain(cells.into_iter().map(|c| c.unwrap_or("-".to_string())))
                    .collect()
            })
        })
        .collect();
    if table_rows.is_empty() {
        return None;
    }
    let header = ["checkers".to_string(), "corpus".to_string()]
        .into_iter()
        .chain(present.iter().map(Contender::to_string))
        .collect();
    Some(Table {
        header,
        rows: table_rows,
    })
}

fn wall_and_rss(
    results: &Results,
    corpus: &str,
    checkers: usize,
    c: Contender,
    against: Contender,
) -> Option<String> {
    let wall = results.ratio(corpus, checkers, c, against, Metric::Wall)?;
    let rss = results.ratio(corpus, checkers, c, against, Metric::Rss)?;
    Some(format!(
        "{} / {}",
        signed(wall.percent()),
        signed(rss.percent())
    ))
}

pub fn sweep(results: &Results) -> Option<Table> {
    let points: Vec<Contender> = SWITCH_POINTS_MIB
        .iter()
        .map(|&m| Contender::hybrid_at(m))
        .collect();
    let swept = points
        .iter()
        .filter(|&&c| c != Contender::SLICE_HYBRID)
        .any(|&c| results.results.iter().any(|set| set.contender == c));
    if !swept {
        return None;
    }
    let mut table = per_contender(results, &points, |corpus, checkers, c| {
        wall_and_rss(results, corpus, checkers, c, Contender::SLICE_NOHUGE)
    })?;
    for name in table.header.iter_mut().skip(2) {
        if *name == "slice-hybrid" {
            name.push_str("@8");
        }
    }
    Some(table)
}

pub fn ablations(results: &Results) -> Option<Table> {
    let variants: Vec<Contender> = ["slice-hybrid+populate", "slice-hybrid+collapse"]
        .iter()
        .filter_map(|n| n.parse().ok())
        .collect();
    let mut table = per_contender(results, &variants, |corpus, checkers, c| {
        let ratio = |f| results.ratio(corpus, checkers, c, Contender::SLICE_HYBRID, f);
        let (wall, sys, rss, faults) = (
            ratio(Metric::Wall)?,
            ratio(Metric::Sys)?,
            ratio(Metric::Rss)?,
            ratio(Metric::MinorFaults)?,
        );
        Some(format!(
            "{} / {} / {} / {}",
            signed(wall.percent()),
            signed(sys.percent()),
            signed(rss.percent()),
            signed(faults.percent())
        ))
    })?;
    for name in table.header.iter_mut().skip(2) {
        name.push_str(" (wall / sys / RSS / faults %)");
    }
    Some(table)
}

pub fn others(results: &Results) -> Option<Table> {
    let contenders = [Contender::Mimalloc, Contender::Jemalloc, Contender::System];
    per_contender(results, &contenders, |corpus, checkers, c| {
        let figures = wall_and_rss(results, corpus, checkers, c, Contender::SLICE_NOHUGE)?;
        let faults = results.get(corpus, c, checkers)?.median?.minor_faults;
        Some(format!("{figures} · {} faults", count(faults)))
    })
}

pub fn workload(results: &Results) -> Option<Table> {
    let baseline = results.settings.baseline;
    let native = native();
    let mib = |bytes: f64| format!("{:.1}", bytes / (1024.0 * 1024.0));
    let table_rows: Vec<Vec<String>> = rows(results)
        .filter_map(|(checkers, corpus)| {
            let set = results.get(corpus, baseline, checkers)?;
            let (work, median) = (set.workload?, set.median?);
            let proof = set.allocator.as_ref();
            let carved = proof
                .and_then(|a| a.carved_bytes)
                .map_or("-".to_string(), |b| mib(b as f64));
            let largest = proof
                .and_then(|a| a.largest_slice_bytes)
                .map_or("-".to_string(), |b| mib(b as f64));
            let tsgo = native
                .iter()
                .find(|n| n.tool == "tsgo" && n.corpus == *corpus && n.checkers == checkers)
                .map_or("-".to_string(), |n| {
                    format!(
                        "{} files, {} types, {:.0} MB, {} faults",
                        n.files,
                        n.types,
                        n.max_rss_mb,
                        count(n.minor_faults)
                    )
                });
            Some(vec![
                checkers.to_string(),
                corpus.clone(),
                work.files.to_string(),
                mib(work.bytes as f64),
                work.ast_nodes.to_string(),
                work.types.to_string(),
                work.relations.to_string(),
                format!("{:.1}", median.rss_kib() / 1024.0),
                count(median.minor_faults),
                carved,
                largest,
                tsgo,
            ])
        })
        .collect();
    (!table_rows.is_empty()).then(|| Table {
        header: [
            "checkers",
            "corpus",
            "files",
            "source MiB",
            "AST nodes",
            "types",
            "relations",
            "RSS MiB",
            "minor faults",
            "carved MiB",
            "largest slice MiB",
            "tsgo (native)",
        ]
        .map(String::from)
        .to_vec(),
        rows: table_rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_publication_has_every_row() {
        let rows = published();
        assert_eq!(rows.len(), 10);
        let trpc8 = rows
            .iter()
            .find(|r| r.checkers == 8 && r.corpus == "trpc")
            .unwrap();
        assert_eq!(trpc8.all_rss_pct, 71.2);
        assert_eq!(trpc8.nohuge_faults, 159000.0);
    }

    #[test]
    fn the_embedded_native_measurements_parse() {
        let rows = native();
        assert_eq!(rows.len(), 9);
        let trpc = rows
            .iter()
            .find(|r| r.corpus == "trpc" && r.tool == "tsgo" && r.checkers == 1)
            .unwrap();
        assert_eq!((trpc.max_rss_mb, trpc.types), (117.0, 52700));
    }

    #[test]
    fn the_matrix_covers_five_corpora_at_one_and_eight_checkers() {
        let plain = settings(WorkloadKind::default(), false, 5, 1);
        assert_eq!(plain.corpora.len(), 5);
        assert_eq!(plain.checkers, vec![1, 8]);
        assert_eq!(plain.contenders.len(), 6);
        let full = settings(WorkloadKind::default(), true, 5, 1);
        let names: Vec<String> = full.contenders.iter().map(|c| c.to_string()).collect();
        for name in [
            "slice-hybrid@2",
            "slice-hybrid@4",
            "slice-hybrid@16",
            "slice-hybrid+collapse",
        ] {
            assert!(names.contains(&name.to_string()), "{name} missing");
        }
    }

    #[test]
    fn the_tsc_matrix_runs_one_and_eight_checkers_and_its_ablations_add_the_other_allocators_policies()
     {
        let plain = settings(WorkloadKind::from_name("tsc").unwrap(), false, 5, 1);
        assert_eq!(plain.checkers, vec![1, 8]);
        let full = settings(WorkloadKind::from_name("tsc").unwrap(), true, 5, 1);
        let names: Vec<String> = full.contenders.iter().map(|c| c.to_string()).collect();
        for name in OTHER_HUGE_PAGE_POLICIES.iter().chain(&[
            "slice-hybrid@2",
            "slice-hybrid+populate",
            "slice-adaptive",
        ]) {
            assert!(
                names.contains(&name.to_string()),
                "{name} missing: {names:?}"
            );
        }
        let checker = settings(WorkloadKind::default(), true, 5, 1);
        assert!(
            !checker
                .contenders
                .iter()
                .any(|c| c.to_string() == "jemalloc:hpa=true"),
            "the checker's ablations stay the publication's"
        );
    }

    #[test]
    fn agreement_marks_direction_and_certainty() {
        let ratio = |r, verdict| Ratio {
            ratio: r,
            low: None,
            high: None,
            verdict,
            rounds: 5,
            half_width_pct: None,
            sd_log: None,
            unreliable: false,
        };
        assert_eq!(agreement(&ratio(0.95, Some(Verdict::Lower)), -5.0), "✓");
        assert_eq!(agreement(&ratio(1.02, Some(Verdict::Neutral)), -5.0), "(✗)");
        assert_eq!(agreement(&ratio(1.10, Some(Verdict::Higher)), -5.0), "✗");
    }
}
