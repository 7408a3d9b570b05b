//! What the quiet gate saw (`benchmark::quiet`): one line for the report, and the runs that
//! started on a busy machine.
use crate::output::table::{Table, plural};
use crate::results::{QuietCheck, Results};

/// Every run the gate looked at, with its set's corpus, checker count and contender.
fn checks(results: &Results) -> impl Iterator<Item = (&str, usize, String, usize, QuietCheck)> {
    results.results.iter().flat_map(|set| {
        set.runs.iter().filter_map(move |run| {
            run.covariates.quiet.map(|check| {
                (
                    set.corpus.as_str(),
                    set.checkers,
                    set.contender.to_string(),
                    run.round,
                    check,
                )
            })
        })
    })
}

/// How many runs waited for a quiet machine, for how long, and how many started busy;
/// `None` where no run passed the gate.
pub fn summary(results: &Results) -> Option<String> {
    let all: Vec<QuietCheck> = checks(results).map(|(.., check)| check).collect();
    if all.is_empty() {
        return None;
    }
    let waited: Vec<f64> = all
        .iter()
        .map(|c| c.waited_s)
        .filter(|&s| s > 0.0)
        .collect();
    let busy: Vec<&QuietCheck> = all.iter().filter(|c| !c.quiet).collect();
    let mut line = if waited.is_empty() {
        format!(
            "quiet gate: all {} run{} started on a quiet machine without waiting",
            all.len(),
            plural(all.len())
        )
    } else {
        format!(
            "quiet gate: {} of {} runs waited for a quiet machine ({:.0} s in all, the longest \
             {:.1} s)",
            waited.len(),
            all.len(),
            waited.iter().sum::<f64>(),
            waited.iter().copied().fold(0.0, f64::max)
        )
    };
    if !busy.is_empty() {
        let low = busy
            .iter()
            .map(|c| c.other_cpus)
            .fold(f64::INFINITY, f64::min);
        let high = busy.iter().map(|c| c.other_cpus).fold(0.0, f64::max);
        line.push_str(&format!(
            "; {} started on a busy machine (other processes at {low:.2} to {high:.2} CPUs \
             when the wait ran out), listed under \"runs started on a busy machine\"",
            busy.len()
        ));
    }
    Some(line)
}

/// The runs whose wait for a quiet machine ran out.
pub fn busy_runs(results: &Results) -> Table {
    let rows = checks(results)
        .filter(|(.., check)| !check.quiet)
        .map(|(corpus, checkers, contender, round, check)| {
            vec![
                corpus.to_string(),
                checkers.to_string(),
                contender,
                round.to_string(),
                format!("{:.1}", check.waited_s),
                format!("{:.2}", check.other_cpus),
                check.load1.map_or("-".to_string(), |l| format!("{l:.2}")),
            ]
        })
        .collect();
    Table {
        header: [
            "corpus",
            "checkers",
            "contender",
            "round",
            "waited s",
            "other CPUs",
            "load 1 min",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}
