//! `--pairing duet`: each entrant started together with a run of the baseline, the two pinned
//! one per CPU, seats counterbalanced, each ratio taken against the run beside it.
use std::sync::atomic::AtomicBool;

use compare::benchmark::duet;
use compare::benchmark::runner::{Outcome, Runner};
use compare::contender::Contender;
use compare::export::{Format, Outputs};
use compare::output::progress::Progress;
use compare::results::pairing::seats;
use compare::results::{Pairing, Results, Seat};
use compare::stats::Metric;

use crate::fake::{Behaviour, FakeLauncher, plan, run};

const CORPUS: &str = "synthetic";

fn duet_plan(contenders: &[&str], rounds: usize) -> Results {
    let mut results = plan(contenders, &[1], rounds, 0);
    results.settings.control = true;
    results.settings.pairing = Pairing::Duet;
    results
}

#[test]
fn a_duet_runs_each_entrant_beside_a_run_of_the_baseline_at_once_each_pinned_to_its_own_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let cpus_file = dir.path().join("cpus");
    // Each child notes the CPUs it may run on, and takes long enough for an overlap to show.
    let script = format!(
        "echo \"$FAKE_CONTENDER $(grep Cpus_allowed_list /proc/self/status | cut -f2)\" >> '{}'; \
         sleep 0.3",
        cpus_file.display()
    );
    let baseline = Contender::SLICE_NOHUGE;
    let control = baseline.control().unwrap();
    let mut launcher = FakeLauncher::honest();
    for name in ["slice-nohuge", "slice-hybrid", "slice-nohuge#2"] {
        launcher = launcher.with(name, Behaviour::Script(script.clone()));
    }
    let json = dir.path().join("results.json");
    let outputs = Outputs::new().with(Format::Json, Some(&json));
    let mut results = duet_plan(&["slice-nohuge", "slice-hybrid"], 4);
    let stop = AtomicBool::new(false);
    let outcome = Runner {
        launcher: &launcher,
        stop: &stop,
        outputs: &outputs,
        progress: &Progress::hidden(),
        gate: None,
    }
    .run(&mut results)
    .unwrap();
    assert_eq!(outcome, Outcome::Finished);
    let results = Results::load(&json).unwrap();

    let base_runs = results.ok_runs(CORPUS, baseline, 1);
    assert_eq!(
        base_runs.len(),
        8,
        "one baseline run beside each entrant each round"
    );
    for entrant in [Contender::SLICE_HYBRID, control] {
        let runs = results.ok_runs(CORPUS, entrant, 1);
        assert_eq!(runs.len(), 4, "{entrant}: one run a round");
        let mut arrangements = Vec::new();
        for run in runs {
            let seat = run.duet.expect("a duet's run records its seat");
            assert_eq!(seat.with, baseline);
            let partner = run
                .partner(entrant, baseline, base_runs.iter().copied())
                .expect("the baseline run beside it");
            let partner_seat: Seat = partner.duet.unwrap();
            assert_eq!(partner_seat.with, entrant);
            assert_eq!(partner.round, run.round);
            assert_ne!(seat.cpu, partner_seat.cpu, "one run per CPU");
            assert_ne!(
                seat.first, partner_seat.first,
                "one of the two starts first"
            );
            let apart = (run.covariates.started_unix_s - partner.covariates.started_unix_s).abs();
            assert!(
                apart < 0.2 && run.figures.wall_s >= 0.3 && partner.figures.wall_s >= 0.3,
                "{entrant} round {}: started {apart:.3} s apart, walls {} and {}: not at once",
                run.round,
                run.figures.wall_s,
                partner.figures.wall_s
            );
            assert!(run.kernel.is_none() && partner.kernel.is_none());
            arrangements.push((partner_seat.cpu, partner_seat.first));
        }
        arrangements.sort_unstable();
        arrangements.dedup();
        assert_eq!(
            arrangements.len(),
            4,
            "{entrant}: every seat once in four rounds"
        );
    }

    let cpus = duet::cpus().unwrap();
    let noted = std::fs::read_to_string(&cpus_file).unwrap();
    let allowed: Vec<&str> = noted
        .lines()
        .map(|line| line.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(allowed.len(), 16);
    for cpu in cpus {
        let count = allowed.iter().filter(|&&a| a == cpu.to_string()).count();
        assert_eq!(count, 8, "CPU {cpu} holds half the runs, alone: {noted}");
    }
}

#[test]
fn a_ratio_in_a_duet_divides_by_the_baseline_run_beside_it_not_by_another_of_its_round() {
    let baseline = Contender::SLICE_NOHUGE;
    let hybrid = Contender::SLICE_HYBRID;
    let control = baseline.control().unwrap();
    let mut results = duet_plan(&["slice-nohuge", "slice-hybrid"], 3);
    let seated = |wall: f64, round: usize, seat: Seat| {
        let mut run = run(round, wall, 1024, 100);
        run.duet = Some(seat);
        run
    };
    for round in 0..3 {
        // The round's two baseline runs differ by 2x: only the partner gives 1.1.
        let (base_seat, hybrid_seat) = seats(baseline, hybrid, 0, round);
        results.push(CORPUS, baseline, 1, seated(1.0, round, base_seat));
        results.push(CORPUS, hybrid, 1, seated(1.1, round, hybrid_seat));
        let (base_seat, control_seat) = seats(baseline, control, 1, round);
        results.push(CORPUS, baseline, 1, seated(2.0, round, base_seat));
        results.push(CORPUS, control, 1, seated(2.0, round, control_seat));
    }
    let pairs = results.pairs(CORPUS, 1, hybrid, baseline, Metric::Wall);
    assert_eq!(pairs, vec![(1.1, 1.0); 3]);
    let wall = results
        .ratio(CORPUS, 1, hybrid, baseline, Metric::Wall)
        .unwrap();
    assert!((wall.ratio - 1.1).abs() < 1e-9, "{wall:?}");
    let control_wall = results
        .ratio(CORPUS, 1, control, baseline, Metric::Wall)
        .unwrap();
    assert!((control_wall.ratio - 1.0).abs() < 1e-9, "{control_wall:?}");
}

#[test]
fn the_seats_of_a_duet_cover_both_cpus_and_both_start_orders_every_four_rounds() {
    let baseline = Contender::SLICE_NOHUGE;
    for (index, entrant) in [Contender::SLICE_HYBRID, Contender::SLICE_HUGE]
        .into_iter()
        .enumerate()
    {
        for start in [0, 5] {
            let mut seen: Vec<(usize, bool)> = (start..start + 4)
                .map(|round| {
                    let (base, other) = seats(baseline, entrant, index, round);
                    assert_eq!((base.with, other.with), (entrant, baseline));
                    assert_eq!(base.cpu + other.cpu, 1);
                    assert_ne!(base.first, other.first);
                    (base.cpu, base.first)
                })
                .collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 4, "{entrant} from round {start}");
        }
    }
    // Within a round, two entrants' duets start from different seats.
    assert_ne!(
        seats(baseline, Contender::SLICE_HYBRID, 0, 0).0,
        Seat {
            with: Contender::SLICE_HYBRID,
            ..seats(baseline, Contender::SLICE_HUGE, 1, 0).0
        }
    );
}
