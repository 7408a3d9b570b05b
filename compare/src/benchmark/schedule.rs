//! The order of runs.
//!
//! **Contenders are interleaved run by run**: within one corpus and checker count, each
//! round runs every contender once, and each round starts one contender later than the
//! previous one. Slow drift of the machine (thermal state, page cache, neighbours) then
//! spreads over all contenders instead of landing on whichever ran last.
use crate::contender::Contender;

/// One child run of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Index into the plan's corpora.
    pub corpus: usize,
    pub checkers: usize,
    pub contender: Contender,
    /// Round within its corpus and checker count; warm-up rounds count separately.
    pub round: usize,
    /// Warm-up runs are measured but not recorded.
    pub warmup: bool,
}

/// Every run, in order: for each corpus and checker count, `warmup` rounds, then `runs`
/// rounds, each round a rotation of `contenders`.
pub fn schedule(
    corpora: usize,
    checkers: &[usize],
    contenders: &[Contender],
    runs: usize,
    warmup: usize,
) -> Vec<Slot> {
    let mut slots = Vec::new();
    for corpus in 0..corpora {
        for &checkers in checkers {
            let phases = [(true, warmup), (false, runs)];
            for (warmup, rounds) in phases {
                for round in 0..rounds {
                    slots.extend(rotation(contenders, round).map(|contender| Slot {
                        corpus,
                        checkers,
                        contender,
                        round,
                        warmup,
                    }));
                }
            }
        }
    }
    slots
}

/// `contenders` starting at `round mod n`.
pub fn rotation(contenders: &[Contender], round: usize) -> impl Iterator<Item = Contender> + '_ {
    let n = contenders.len();
    (0..n).map(move |i| contenders[(i + round) % n])
}
