//! Memory against the checker count: a bake-off of several checker counts draws each
//! contender's peak RSS and faults against them, with its slope per added checker.
use compare::contender::Contender;
use compare::export::{Format, Outputs};
use compare::results::{Results, Run};

use crate::fake::plan;

fn run(rss_mib: u64, faults: u64) -> Run {
    crate::fake::run(0, 1.0, rss_mib << 10, faults)
}

/// nohuge grows by 20 MiB and 5,000 faults a checker, huge by 40 MiB and 1,000.
fn measured(checkers: &[usize]) -> Results {
    let mut results = plan(&["slice-nohuge", "slice-huge"], checkers, 1, 0);
    for &n in checkers {
        let n64 = n as u64;
        results.push(
            "synthetic",
            Contender::SLICE_NOHUGE,
            n,
            run(100 + 20 * n64, 10_000 + 5_000 * n64),
        );
        results.push(
            "synthetic",
            Contender::SLICE_HUGE,
            n,
            run(150 + 40 * n64, 3_000 + 1_000 * n64),
        );
    }
    results.refresh();
    results
}

fn report(results: &Results) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let markdown = dir.path().join("report.md");
    Outputs::new()
        .with(Format::Markdown, Some(&markdown))
        .write_all(results)
        .unwrap();
    let text = std::fs::read_to_string(&markdown).unwrap();
    (dir, text)
}

#[test]
fn a_bakeoff_of_several_checker_counts_draws_memory_against_them_with_each_slope() {
    let (dir, text) = report(&measured(&[1, 2, 4, 8]));
    assert!(
        text.contains("## Memory against the checker count"),
        "{text}"
    );
    let nohuge =
        "| synthetic | slice-nohuge | 1 / 2 / 4 / 8 | 120.0 / 140.0 / 180.0 / 260.0 | +20.0 |";
    assert!(text.contains(nohuge), "{text}");
    assert!(
        text.contains("| +5000 |"),
        "nohuge's faults per checker: {text}"
    );
    assert!(text.contains("| slice-huge | 1 / 2 / 4 / 8 |"), "{text}");
    assert!(
        text.contains("| +40.0 |") && text.contains("| +1000 |"),
        "{text}"
    );
    let figure = "report-checkers-1-synthetic.svg";
    assert!(text.contains(&format!("]({figure})")), "{text}");
    let svg = std::fs::read_to_string(dir.path().join(figure)).unwrap();
    assert!(svg.contains("peak RSS, MiB") && svg.contains("minor faults"));
    assert!(
        svg.contains("slice-huge: +40.0, +1000"),
        "the legend gives each slope"
    );
}

#[test]
fn a_bakeoff_of_one_checker_count_draws_no_curve() {
    let (dir, text) = report(&measured(&[8]));
    assert!(!text.contains("Memory against the checker count"), "{text}");
    assert!(!dir.path().join("report-checkers-1-synthetic.svg").exists());
}
