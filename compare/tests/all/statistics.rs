use compare::stats::{Verdict, compare, median};

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
fn a_clearly_faster_contender_gets_an_interval_below_one_and_a_verdict() {
    let baseline = [1.00, 1.02, 0.99, 1.01, 1.00];
    let contender = [0.90, 0.91, 0.89, 0.92, 0.90];
    let ratio = compare(&contender, &baseline).unwrap();
    assert!((ratio.ratio - 0.90).abs() < 1e-9, "{ratio:?}");
    let (low, high) = (ratio.low.unwrap(), ratio.high.unwrap());
    assert!(low <= ratio.ratio && ratio.ratio <= high);
    assert!(high < 1.0, "{ratio:?}");
    assert_eq!(ratio.verdict, Some(Verdict::Lower));
    assert!((ratio.percent() + 10.0).abs() < 1e-9);
}

#[test]
fn a_clearly_slower_contender_is_higher() {
    let ratio = compare(&[1.2, 1.21, 1.19], &[1.0, 1.01, 0.99]).unwrap();
    assert_eq!(ratio.verdict, Some(Verdict::Higher));
}

#[test]
fn overlapping_samples_get_no_verdict_either_way() {
    let baseline = [1.0, 1.3, 0.8, 1.1, 0.9];
    let contender = [0.95, 1.25, 0.85, 1.05, 1.0];
    let ratio = compare(&contender, &baseline).unwrap();
    assert!(
        ratio.low.unwrap() < 1.0 && ratio.high.unwrap() > 1.0,
        "{ratio:?}"
    );
    assert_eq!(ratio.verdict, Some(Verdict::Neutral));
}

#[test]
fn the_interval_is_the_same_every_time() {
    let baseline = [1.0, 1.3, 0.8, 1.1, 0.9];
    let contender = [0.7, 1.0, 0.9, 1.05, 0.95];
    assert_eq!(
        compare(&contender, &baseline),
        compare(&contender, &baseline)
    );
}

#[test]
fn a_single_run_gives_a_ratio_but_no_interval_or_verdict() {
    let ratio = compare(&[0.5], &[1.0, 1.0]).unwrap();
    assert_eq!(ratio.ratio, 0.5);
    assert_eq!((ratio.low, ratio.verdict), (None, None));
}

#[test]
fn no_ratio_without_runs_or_against_zero() {
    assert_eq!(compare(&[], &[1.0]), None);
    assert_eq!(compare(&[1.0], &[0.0]), None);
}
