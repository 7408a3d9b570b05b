use compare::benchmark::schedule::schedule;
use compare::contender::Contender;

#[test]
fn each_round_starts_one_contender_later_after_the_warm_ups() {
    let contenders = [
        Contender::SLICE_NOHUGE,
        Contender::Mimalloc,
        Contender::System,
    ];
    let slots = schedule(1, &[1], &contenders, 3, 1);
    let order: Vec<(bool, String)> = slots
        .iter()
        .map(|s| (s.warmup, s.contender.to_string()))
        .collect();
    let expect = |warmup, names: [&str; 3]| names.map(|n| (warmup, n.to_string()));
    let expected: Vec<(bool, String)> = [
        expect(true, ["slice-nohuge", "mimalloc", "system"]),
        expect(false, ["slice-nohuge", "mimalloc", "system"]),
        expect(false, ["mimalloc", "system", "slice-nohuge"]),
        expect(false, ["system", "slice-nohuge", "mimalloc"]),
    ]
    .concat();
    assert_eq!(order, expected);
}

#[test]
fn every_contender_runs_once_per_round_for_every_corpus_and_checker_count() {
    let contenders = [Contender::SLICE_NOHUGE, Contender::SLICE_HYBRID];
    let slots = schedule(2, &[1, 8], &contenders, 4, 2);
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
    let slots = schedule(1, &[1, 8], &[Contender::System, Contender::Jemalloc], 2, 0);
    let checkers: Vec<usize> = slots.iter().map(|s| s.checkers).collect();
    assert_eq!(checkers, vec![1, 1, 1, 1, 8, 8, 8, 8]);
}
