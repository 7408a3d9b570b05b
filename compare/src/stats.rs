//! Statistics: medians, spread, and a bootstrap interval on the ratio of two medians.
//!
//! **The interval is deterministic**: resampling uses a PRNG with a fixed seed, so the
//! same runs always give the same interval and the same verdict.
use serde::{Deserialize, Serialize};

/// Resamples drawn for one interval.
pub const BOOTSTRAP_RESAMPLES: usize = 10_000;
/// Seed of the resampling PRNG.
pub const BOOTSTRAP_SEED: u64 = 0x00C0_FFEE_5EED;
/// Fewest successful runs on each side for an interval (and so a verdict).
pub const MIN_RUNS_FOR_INTERVAL: usize = 2;

/// The median of `samples`; the mean of the two middle values when their count is even.
/// `None` for no samples.
pub fn median(samples: &[f64]) -> Option<f64> {
    median_in_place(&mut samples.to_vec())
}

/// [`median`] that reorders `samples` instead of copying them: the bootstrap's inner loop.
fn median_in_place(sorted: &mut [f64]) -> Option<f64> {
    sorted.sort_unstable_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Smallest sample.
pub fn min(samples: &[f64]) -> Option<f64> {
    samples.iter().copied().min_by(f64::total_cmp)
}

/// Largest sample.
pub fn max(samples: &[f64]) -> Option<f64> {
    samples.iter().copied().max_by(f64::total_cmp)
}

/// Which side of 1 a ratio's interval lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The whole interval is below 1: the contender's figure is lower than the baseline's.
    Lower,
    /// The whole interval is above 1.
    Higher,
    /// The interval contains 1: no difference is established.
    Neutral,
}

impl Verdict {
    /// The verdict in the words of a metric: `faster`/`slower` for time, `smaller`/`larger`
    /// for memory, `fewer`/`more` for counts.
    pub fn describe(self, metric: Metric) -> &'static str {
        match (self, metric) {
            (Verdict::Neutral, _) => "neutral",
            (Verdict::Lower, Metric::Wall) => "faster",
            (Verdict::Higher, Metric::Wall) => "slower",
            (Verdict::Lower, Metric::Rss) => "smaller",
            (Verdict::Higher, Metric::Rss) => "larger",
            (Verdict::Lower, Metric::MinorFaults) => "fewer",
            (Verdict::Higher, Metric::MinorFaults) => "more",
            (Verdict::Lower, Metric::Sys) => "less",
            (Verdict::Higher, Metric::Sys) => "more",
        }
    }
}

/// The figures that are compared between contenders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Wall time.
    Wall,
    /// System CPU time.
    Sys,
    /// Peak resident set (see `Figures::rss_kib`).
    Rss,
    MinorFaults,
}

/// A ratio of medians, contender over baseline, with its bootstrap 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// median(contender) / median(baseline).
    pub ratio: f64,
    /// Lower end of the 95% interval; absent with too few runs.
    pub low: Option<f64>,
    /// Upper end of the 95% interval.
    pub high: Option<f64>,
    /// Absent when there is no interval.
    pub verdict: Option<Verdict>,
}

impl Ratio {
    /// The ratio as a percent change: 0.95 -> -5.0.
    pub fn percent(&self) -> f64 {
        (self.ratio - 1.0) * 100.0
    }

    /// The interval as percent changes.
    pub fn percent_interval(&self) -> Option<(f64, f64)> {
        Some(((self.low? - 1.0) * 100.0, (self.high? - 1.0) * 100.0))
    }
}

/// Compares `contender` against `baseline` by the ratio of their medians, with a
/// percentile bootstrap 95% interval (each side resampled with replacement) and a
/// verdict only where the interval excludes 1. `None` if either side is empty or the
/// baseline's median is zero.
pub fn compare(contender: &[f64], baseline: &[f64]) -> Option<Ratio> {
    let base = median(baseline)?;
    let ratio = median(contender)? / base;
    if base == 0.0 || !ratio.is_finite() {
        return None;
    }
    if contender.len() < MIN_RUNS_FOR_INTERVAL || baseline.len() < MIN_RUNS_FOR_INTERVAL {
        return Some(Ratio {
            ratio,
            low: None,
            high: None,
            verdict: None,
        });
    }
    let mut rng = fastrand::Rng::with_seed(BOOTSTRAP_SEED);
    let mut draw = |samples: &[f64], into: &mut Vec<f64>| {
        into.clear();
        into.extend((0..samples.len()).map(|_| samples[rng.usize(..samples.len())]));
    };
    let (mut c, mut b) = (Vec::new(), Vec::new());
    let mut ratios = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    for _ in 0..BOOTSTRAP_RESAMPLES {
        draw(contender, &mut c);
        draw(baseline, &mut b);
        let (Some(mc), Some(mb)) = (median_in_place(&mut c), median_in_place(&mut b)) else {
            continue;
        };
        if mb > 0.0 {
            ratios.push(mc / mb);
        }
    }
    ratios.sort_by(f64::total_cmp);
    let low = percentile(&ratios, 0.025)?;
    let high = percentile(&ratios, 0.975)?;
    let verdict = if high < 1.0 {
        Verdict::Lower
    } else if low > 1.0 {
        Verdict::Higher
    } else {
        Verdict::Neutral
    };
    Some(Ratio {
        ratio,
        low: Some(low),
        high: Some(high),
        verdict: Some(verdict),
    })
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}
