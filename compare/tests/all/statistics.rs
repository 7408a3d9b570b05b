//! The paired estimator, by its definition and by simulated bake-offs with this machine's
//! noise (each run lognormal with a 13% coefficient of variation).
use compare::stats::{Verdict, mean_interval, median, paired, t_cdf, t_quantile};

#[test]
fn the_median_of_an_odd_count_is_the_middle_value() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
}

#[test]
fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    assert_eq!(median(&[]), None);
}

#[test]
fn the_t_quantiles_match_the_printed_tables() {
    for (df, expected) in [
        (1.0, 12.7062),
        (4.0, 2.7764),
        (9.0, 2.2622),
        (29.0, 2.0452),
        (149.0, 1.9760),
        (1.0e6, 1.9600),
    ] {
        let t = t_quantile(0.975, df);
        assert!((t - expected).abs() < 5e-4, "df {df}: {t}");
        assert!((t_cdf(t, df) - 0.975).abs() < 1e-9);
    }
    assert!((t_quantile(0.025, 9.0) + 2.2622).abs() < 5e-4);
}

#[test]
fn the_estimate_is_the_geometric_mean_of_the_per_round_ratios() {
    let pairs = [(0.9, 1.0), (1.1, 1.0), (2.0, 2.5)];
    let ratio = paired(&pairs).unwrap();
    let expected = (0.9_f64 * 1.1 * 0.8).powf(1.0 / 3.0);
    assert!((ratio.ratio - expected).abs() < 1e-12, "{ratio:?}");
    assert_eq!(ratio.rounds, 3);
}

#[test]
fn pairing_cancels_what_a_round_shares() {
    // The baseline drifts by a factor of three across rounds; the contender is always 5%
    // faster than the baseline of its own round. Unpaired, the spread would hide it.
    let pairs: Vec<(f64, f64)> = (0..8)
        .map(|i: u32| {
            let base = 1.0 + 0.3 * i as f64;
            (
                base * 0.95 * if i.is_multiple_of(2) { 1.001 } else { 0.999 },
                base,
            )
        })
        .collect();
    let ratio = paired(&pairs).unwrap();
    assert_eq!(ratio.verdict, Some(Verdict::Lower), "{ratio:?}");
    assert!(ratio.half_width_pct.unwrap() < 0.2, "{ratio:?}");
    assert!((ratio.percent() + 5.0).abs() < 0.1);
}

#[test]
fn overlapping_rounds_get_no_verdict_either_way() {
    let pairs = [
        (0.95, 1.0),
        (1.3, 1.25),
        (0.8, 0.85),
        (1.1, 1.05),
        (0.9, 1.0),
    ];
    let ratio = paired(&pairs).unwrap();
    assert!(
        ratio.low.unwrap() < 1.0 && ratio.high.unwrap() > 1.0,
        "{ratio:?}"
    );
    assert_eq!(ratio.verdict, Some(Verdict::Neutral));
}

#[test]
fn a_single_round_gives_a_ratio_but_no_interval_or_verdict() {
    let ratio = paired(&[(0.5, 1.0)]).unwrap();
    assert_eq!(ratio.ratio, 0.5);
    assert_eq!(
        (ratio.low, ratio.verdict, ratio.half_width_pct),
        (None, None, None)
    );
}

#[test]
fn no_ratio_without_rounds_or_against_zero() {
    assert_eq!(paired(&[]), None);
    assert_eq!(paired(&[(1.0, 0.0)]), None);
    let ratio = paired(&[(1.0, 0.0), (1.0, 1.0), (2.0, 2.0)]).unwrap();
    assert_eq!(ratio.rounds, 2, "the pair against zero is skipped");
}

#[test]
fn the_rounds_needed_follow_from_the_spread() {
    let pairs: Vec<(f64, f64)> = (0..20)
        .map(|i: u32| (if i.is_multiple_of(2) { 1.1 } else { 0.9 }, 1.0))
        .collect();
    let ratio = paired(&pairs).unwrap();
    let reached = ratio.half_width_pct.unwrap();
    let target = reached / 2.0;
    let needed = ratio.rounds_needed(target).unwrap();
    // The fewest rounds whose interval, at the spread seen, is within the target: about
    // four times the rounds for half the width, a little less as the t quantile shrinks.
    let sd = ratio.sd_log.unwrap();
    let half_width = |n: usize| {
        let h = t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt();
        h.exp_m1() * 100.0
    };
    assert!(
        half_width(needed) <= target && half_width(needed - 1) > target,
        "{needed}"
    );
    assert!((60..80).contains(&needed), "{needed} for ±{target}");
    assert!(ratio.rounds_needed(reached * 1.0001).unwrap() <= 20);
    assert!(ratio.is_precise(reached * 1.0001) && !ratio.is_precise(reached * 0.9999));
}

#[test]
fn the_mean_interval_of_the_fault_probe_contains_its_mean() {
    let (mean, low, high) = mean_interval(&[1.0, 1.2, 0.8, 1.1]).unwrap();
    assert!((mean - 1.025).abs() < 1e-12 && low < mean && mean < high);
    assert_eq!(mean_interval(&[1.0]), None);
}

/// A standard normal draw (Box-Muller) from a seeded generator.
fn normal(rng: &mut fastrand::Rng) -> f64 {
    let u1 = 1.0 - rng.f64();
    let u2 = rng.f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// One simulated run: `mean * X` with `X` lognormal, mean 1, coefficient of variation `cv`.
fn lognormal_run(rng: &mut fastrand::Rng, mean: f64, cv: f64) -> f64 {
    let sigma2 = (1.0 + cv * cv).ln();
    mean * (sigma2.sqrt() * normal(rng) - sigma2 / 2.0).exp()
}

/// Verdicts of `trials` simulated bake-offs of `rounds` rounds in which the contender
/// takes `effect` times the baseline's time, every run with 13% CV.
fn simulate(trials: usize, rounds: usize, effect: f64, seed: u64) -> Vec<Verdict> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..trials)
        .map(|_| {
            let pairs: Vec<(f64, f64)> = (0..rounds)
                .map(|_| {
                    let base = lognormal_run(&mut rng, 1.0, 0.13);
                    (lognormal_run(&mut rng, effect, 0.13), base)
                })
                .collect();
            paired(&pairs).unwrap().verdict.unwrap()
        })
        .collect()
}

#[test]
fn an_a_a_comparison_at_this_machines_noise_gets_a_false_verdict_in_five_percent_of_trials() {
    let verdicts = simulate(2000, 30, 1.0, 0xA_A);
    let false_verdicts = verdicts.iter().filter(|v| v.is_difference()).count();
    let rate = false_verdicts as f64 / verdicts.len() as f64;
    assert!(
        (0.03..=0.07).contains(&rate),
        "false verdicts in {rate:.3} of trials"
    );
    // Both directions, about equally: the interval is not biased.
    let lower = verdicts.iter().filter(|v| **v == Verdict::Lower).count();
    assert!(
        lower > false_verdicts / 4 && lower < false_verdicts * 3 / 4,
        "{lower} of {false_verdicts}"
    );
}

#[test]
fn a_true_five_percent_effect_at_this_machines_noise_is_found_in_150_rounds() {
    let verdicts = simulate(2000, 150, 0.95, 0x5_EFF);
    let found = verdicts.iter().filter(|v| **v == Verdict::Lower).count();
    let power = found as f64 / verdicts.len() as f64;
    assert!(power >= 0.90, "detected in {power:.3} of trials");
    assert!(
        !verdicts.contains(&Verdict::Higher),
        "never the wrong direction"
    );
}

#[test]
fn the_same_runs_always_give_the_same_interval() {
    assert_eq!(simulate(50, 30, 1.0, 7), simulate(50, 30, 1.0, 7));
}

#[test]
fn an_immaterial_control_difference_in_rss_or_faults_does_not_discredit_the_cell() {
    use compare::stats::{Metric, Ratio, Verdict};
    let control = |low: f64, high: f64| Ratio {
        ratio: (low + high) / 2.0,
        low: Some(low),
        high: Some(high),
        verdict: Some(if low > 1.0 {
            Verdict::Higher
        } else {
            Verdict::Lower
        }),
        rounds: 30,
        half_width_pct: None,
        sd_log: None,
        unreliable: false,
    };
    let tiny = control(1.0002, 1.0004);
    assert!(!tiny.discredits(Metric::Rss));
    assert!(!tiny.discredits(Metric::MinorFaults));
    assert!(
        tiny.discredits(Metric::Wall),
        "any wall verdict of the control counts"
    );
    assert!(control(1.02, 1.03).discredits(Metric::Rss));
    assert!(control(0.97, 0.985).discredits(Metric::MinorFaults));
}
