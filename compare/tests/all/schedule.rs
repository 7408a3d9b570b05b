//! The shuffled, balanced round order.
use compare::benchmark::schedule::{Group, round_order, schedule, williams};
use compare::contender::Contender;

const GROUP: Group = Group {
    corpus: 0,
    checkers: 1,
};

fn four() -> [Contender; 4] {
    [
        Contender::SLICE_NOHUGE,
        Contender::SLICE_HYBRID,
        Contender::SLICE_HUGE,
        Contender::SLICE_NOHUGE.control().unwrap(),
    ]
}

#[test]
fn a_williams_block_puts_every_treatment_in_every_position_and_after_every_other_equally() {
    for n in 2..=9 {
        let rows = williams(n);
        assert_eq!(rows.len(), if n % 2 == 0 { n } else { 2 * n });
        let repeats = rows.len() / n;
        for position in 0..n {
            let mut seen = vec![0; n];
            for row in &rows {
                seen[row[position]] += 1;
            }
            assert!(seen.iter().all(|&k| k == repeats), "n {n}: {seen:?}");
        }
        let mut follows = vec![vec![0; n]; n];
        for row in &rows {
            for pair in row.windows(2) {
                follows[pair[0]][pair[1]] += 1;
            }
        }
        for (a, row) in follows.iter().enumerate() {
            for (b, &k) in row.iter().enumerate() {
                assert_eq!(k, if a == b { 0 } else { repeats }, "n {n}: {a} then {b}");
            }
        }
    }
}

#[test]
fn every_round_runs_each_contender_once_and_no_contender_keeps_its_position() {
    let contenders = four();
    for round in 0..12 {
        let mut order = round_order(&contenders, 42, GROUP, round, false);
        assert_eq!(order.len(), 4);
        order.sort_by_key(|c| c.to_string());
        order.dedup();
        assert_eq!(order.len(), 4, "round {round}");
    }
    // Over one block of four rounds, every contender is first once.
    let firsts: Vec<Contender> = (0..4)
        .map(|round| round_order(&contenders, 42, GROUP, round, false)[0])
        .collect();
    for contender in contenders {
        assert_eq!(firsts.iter().filter(|&&c| c == contender).count(), 1);
    }
}

#[test]
fn the_order_follows_from_the_seed_and_differs_between_seeds_and_cells() {
    let contenders = four();
    let orders = |seed, group| -> Vec<Vec<Contender>> {
        (0..8)
            .map(|round| round_order(&contenders, seed, group, round, false))
            .collect()
    };
    assert_eq!(orders(7, GROUP), orders(7, GROUP));
    assert_ne!(orders(7, GROUP), orders(8, GROUP));
    let other = Group {
        corpus: 0,
        checkers: 8,
    };
    assert_ne!(orders(7, GROUP), orders(7, other));
}

#[test]
fn every_contender_runs_once_per_round_for_every_corpus_and_checker_count() {
    let contenders = [Contender::SLICE_NOHUGE, Contender::SLICE_HYBRID];
    let slots = schedule(2, &[1, 8], &contenders, 4, 2, 1);
    assert_eq!(slots.len(), 2 * 2 * (4 + 2) * 2);
    for corpus in 0..2 {
        for checkers in [1, 8] {
            for contender in contenders {
                let rounds: Vec<usize> = slots
                    .iter()
                    .filter(|s| {
                        !s.warmup
                            && s.corpus == corpus
                            && s.checkers == checkers
                            && s.contender == contender
                    })
                    .map(|s| s.round)
                    .collect();
                assert_eq!(rounds, vec![0, 1, 2, 3]);
            }
        }
    }
}

#[test]
fn checker_counts_are_measured_one_after_the_other_not_mixed() {
    let slots = schedule(
        1,
        &[1, 8],
        &[Contender::System, Contender::Jemalloc],
        2,
        0,
        1,
    );
    let checkers: Vec<usize> = slots.iter().map(|s| s.checkers).collect();
    assert_eq!(checkers, vec![1, 1, 1, 1, 8, 8, 8, 8]);
}
