//! The order of runs.
//!
//! **Every round runs each contender once, in an order shuffled from the recorded seed
//! and balanced**: rounds come in blocks, each block a Williams design (a Latin square in
//! which, over the block, every contender takes every position once and follows every
//! other contender equally often), with the contenders relabelled and the block's rows
//! put in an order both drawn from the seed. No contender keeps a position, so drift of a
//! shared machine within a round (a neighbour's build starting, the page cache warming)
//! lands on every contender alike, and so does any cost one child leaves to the next.
//! The same seed, corpus, checker count and round always give the same order, so a
//! resumed bake-off continues the schedule it started.
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

/// Where a round's order comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Index into the plan's corpora.
    pub corpus: usize,
    pub checkers: usize,
}

/// The order of `contenders` in one round of `group`: a row of the round's Williams
/// block, relabelled and chosen by `seed`. Warm-up rounds draw from their own stream.
pub fn round_order(
    contenders: &[Contender],
    seed: u64,
    group: Group,
    round: usize,
    warmup: bool,
) -> Vec<Contender> {
    let n = contenders.len();
    if n <= 1 {
        return contenders.to_vec();
    }
    let rows = williams(n);
    let block = round / rows.len();
    let mut rng = fastrand::Rng::with_seed(mix(&[
        seed,
        group.corpus as u64,
        group.checkers as u64,
        block as u64,
        warmup as u64,
    ]));
    let mut labels: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut labels);
    let mut row_order: Vec<usize> = (0..rows.len()).collect();
    rng.shuffle(&mut row_order);
    rows[row_order[round % rows.len()]]
        .iter()
        .map(|&position| contenders[labels[position]])
        .collect()
}

/// A Williams design for `n` treatments: `n` rows for even `n`, `2n` (the square and its
/// mirror) for odd `n`. Row `r` of the square is `(first[j] + r) mod n` with the first
/// row `0, 1, n-1, 2, n-2, ...`.
pub fn williams(n: usize) -> Vec<Vec<usize>> {
    let first: Vec<usize> = (0..n)
        .map(|j| match j {
            0 => 0,
            _ if !j.is_multiple_of(2) => j.div_ceil(2),
            _ => n - j / 2,
        })
        .collect();
    let square: Vec<Vec<usize>> = (0..n)
        .map(|r| first.iter().map(|&f| (f + r) % n).collect())
        .collect();
    if n.is_multiple_of(2) {
        square
    } else {
        let mirrored = square
            .iter()
            .map(|row| row.iter().rev().copied().collect())
            .collect::<Vec<_>>();
        square.into_iter().chain(mirrored).collect()
    }
}

/// Mixes words into one seed (splitmix64 steps), so nearby inputs give unrelated streams.
fn mix(words: &[u64]) -> u64 {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for &word in words {
        state ^= word;
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        state = z ^ (z >> 31);
    }
    state
}

/// Every run of a plan with a fixed number of rounds, in order: for each corpus and
/// checker count, `warmup` rounds, then `rounds` rounds, each in its round's order.
pub fn schedule(
    corpora: usize,
    checkers: &[usize],
    contenders: &[Contender],
    rounds: usize,
    warmup: usize,
    seed: u64,
) -> Vec<Slot> {
    let mut slots = Vec::new();
    for corpus in 0..corpora {
        for &checkers in checkers {
            let group = Group { corpus, checkers };
            for warmup_phase in [true, false] {
                let count = if warmup_phase { warmup } else { rounds };
                for round in 0..count {
                    slots.extend(round_slots(contenders, seed, group, round, warmup_phase));
                }
            }
        }
    }
    slots
}

/// The slots of one round of `group`.
pub fn round_slots(
    contenders: &[Contender],
    seed: u64,
    group: Group,
    round: usize,
    warmup: bool,
) -> impl Iterator<Item = Slot> + use<> {
    round_order(contenders, seed, group, round, warmup)
        .into_iter()
        .map(move |contender| Slot {
            corpus: group.corpus,
            checkers: group.checkers,
            contender,
            round,
            warmup,
        })
}
