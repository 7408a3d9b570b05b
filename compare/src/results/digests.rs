//! **The digest does not depend on the allocator**: on one corpus at one checker count every
//! run must report the same digest, and a run that reports another one is a failed run. Which
//! digest is right is the one most runs of the cell share; when none is (every run's output
//! differed, or two digests are equally common) no run of the cell can be told right, and all
//! are marked unsettled rather than one kept at random.
use std::collections::BTreeMap;

use super::{Results, RunStatus};

/// What the runs of one cell that reported a digest settle on.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// The digest more runs share than any other (the only one, in a cell of one run).
    Expected(String),
    /// None is: `digests` different ones among `runs` runs.
    Unsettled { runs: usize, digests: usize },
}

/// Whether a run's digest takes part in its cell's verdict: it succeeded, whatever an earlier
/// verdict made of its digest.
fn judged_by_digest(status: &RunStatus) -> bool {
    matches!(
        status,
        RunStatus::Ok | RunStatus::DigestMismatch { .. } | RunStatus::DigestUnsettled { .. }
    )
}

/// The verdict of one cell's digests, in the order the runs were recorded.
fn verdict<'a>(digests: impl Iterator<Item = &'a str>) -> Option<Verdict> {
    let mut tally: Vec<(&str, usize)> = Vec::new();
    for digest in digests {
        match tally.iter_mut().find(|(d, _)| *d == digest) {
            Some((_, n)) => *n += 1,
            None => tally.push((digest, 1)),
        }
    }
    let runs: usize = tally.iter().map(|(_, n)| n).sum();
    let top = tally.iter().map(|(_, n)| *n).max()?;
    let mut leaders = tally.iter().filter(|(_, n)| *n == top);
    let (leader, _) = leaders.next()?;
    if runs == 1 || (top >= 2 && leaders.next().is_none()) {
        Some(Verdict::Expected(leader.to_string()))
    } else {
        Some(Verdict::Unsettled {
            runs,
            digests: tally.len(),
        })
    }
}

impl Results {
    /// Each cell's verdict (corpus, checker count) among the runs that reported a digest.
    fn digest_verdicts(&self) -> BTreeMap<(String, usize), Verdict> {
        let mut cells: BTreeMap<(String, usize), Vec<&str>> = BTreeMap::new();
        for set in &self.results {
            for run in set.runs.iter().filter(|run| judged_by_digest(&run.status)) {
                cells
                    .entry((set.corpus.clone(), set.checkers))
                    .or_default()
                    .push(&run.digest);
            }
        }
        cells
            .into_iter()
            .filter_map(|(cell, digests)| Some((cell, verdict(digests.into_iter())?)))
            .collect()
    }

    /// Marks every run whose digest is not its cell's expected one, and every run of a cell
    /// that settles on none; the others are ok again (a verdict may change as runs arrive).
    pub(super) fn settle_digests(&mut self) {
        let verdicts = self.digest_verdicts();
        for set in &mut self.results {
            let Some(verdict) = verdicts.get(&(set.corpus.clone(), set.checkers)) else {
                continue;
            };
            for run in set
                .runs
                .iter_mut()
                .filter(|run| judged_by_digest(&run.status))
            {
                run.status = match verdict {
                    Verdict::Expected(expected) if run.digest == *expected => RunStatus::Ok,
                    Verdict::Expected(expected) => RunStatus::DigestMismatch {
                        expected: expected.clone(),
                    },
                    Verdict::Unsettled { runs, digests } => RunStatus::DigestUnsettled {
                        runs: *runs,
                        digests: *digests,
                    },
                };
            }
        }
    }

    /// Corpora whose digest changes with the checker count, with the digest at each count.
    /// The checker promises it does not; a difference is the workload's bug, reported but
    /// not held against any contender.
    pub fn digest_disagreements(&self) -> Vec<(String, Vec<(usize, String)>)> {
        let mut by_corpus: BTreeMap<String, Vec<(usize, String)>> = BTreeMap::new();
        for ((corpus, checkers), verdict) in self.digest_verdicts() {
            if let Verdict::Expected(digest) = verdict {
                by_corpus
                    .entry(corpus)
                    .or_default()
                    .push((checkers, digest));
            }
        }
        by_corpus
            .into_iter()
            .filter(|(_, digests)| digests.iter().any(|(_, d)| *d != digests[0].1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(digests: &[&'static str]) -> Option<Verdict> {
        verdict(digests.iter().copied())
    }

    #[test]
    fn the_digest_most_runs_share_is_expected() {
        assert_eq!(of(&["a", "b", "a"]), Some(Verdict::Expected("a".into())));
        assert_eq!(
            of(&["b", "a", "a", "a"]),
            Some(Verdict::Expected("a".into()))
        );
    }

    #[test]
    fn a_cell_of_one_run_expects_its_digest() {
        assert_eq!(of(&["a"]), Some(Verdict::Expected("a".into())));
    }

    #[test]
    fn output_that_never_repeats_settles_on_no_digest() {
        let unsettled = Verdict::Unsettled {
            runs: 3,
            digests: 3,
        };
        assert_eq!(of(&["a", "b", "c"]), Some(unsettled));
    }

    #[test]
    fn two_digests_equally_common_settle_on_neither() {
        let unsettled = Verdict::Unsettled {
            runs: 4,
            digests: 2,
        };
        assert_eq!(of(&["a", "b", "b", "a"]), Some(unsettled));
    }

    #[test]
    fn an_unsettled_status_reads_back_from_its_text() {
        let status = RunStatus::DigestUnsettled {
            runs: 5,
            digests: 4,
        };
        let text = serde_json::to_string(&status).unwrap();
        assert_eq!(serde_json::from_str::<RunStatus>(&text).unwrap(), status);
    }
}
