//! Statistics: medians and spread of one contender, and the paired comparison of a
//! contender with the baseline.
//!
//! **A contender is compared with the baseline round by round**: every round runs each
//! contender once, so the noise a round shares (a neighbour's compile, the host's state)
//! cancels in the log of the round's ratio, contender over baseline. The estimate is the
//! geometric mean of those ratios, `exp(mean(log ratio))`, with a Student t 95% interval
//! on the mean log ratio.
//!
//! Why the geometric mean and a t interval: per-run noise here is multiplicative (a
//! slowed host stretches a run by a factor), so log ratios are close to normal, and
//! for normal data the t interval has its nominal coverage at any number of rounds
//! (the statistics tests check 5% false verdicts by simulation). It is deterministic
//! with no resampling, cheap enough to recompute after every run (the stopping rule
//! does), and its half-width shrinks as `1/sqrt(rounds)`, so the rounds a precision
//! needs follow from the spread seen so far. The Hodges-Lehmann estimate would resist a
//! single disturbed round better, but its interval is coarse at 10 rounds and does not
//! give the rounds needed in closed form; a disturbed round widens the t interval
//! instead, which is the honest outcome, and its covariates are reported.
//!
//! **The interval is deterministic**: the same runs always give the same interval,
//! verdict and half-width.
use serde::{Deserialize, Serialize};

/// Fewest paired rounds for an interval (and so a verdict).
pub const MIN_ROUNDS_FOR_INTERVAL: usize = 2;
/// Two-sided confidence level of every interval.
pub const CONFIDENCE: f64 = 0.95;

/// The median of `samples`; the mean of the two middle values when their count is even.
/// `None` for no samples.
pub fn median(samples: &[f64]) -> Option<f64> {
    let mut sorted = samples.to_vec();
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

/// The median absolute deviation from the median, scaled by 1.4826 so that it estimates
/// the standard deviation of normal data.
pub fn mad(samples: &[f64]) -> Option<f64> {
    let center = median(samples)?;
    let deviations: Vec<f64> = samples.iter().map(|x| (x - center).abs()).collect();
    Some(1.4826 * median(&deviations)?)
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
            (Verdict::Lower, Metric::Cpu | Metric::Sys) => "less",
            (Verdict::Higher, Metric::Cpu | Metric::Sys) => "more",
        }
    }

    /// Whether the verdict establishes a difference.
    pub fn is_difference(self) -> bool {
        self != Verdict::Neutral
    }
}

/// The figures that are compared between contenders, each paired round by round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Wall time.
    Wall,
    /// CPU time, user + system.
    Cpu,
    /// System CPU time.
    Sys,
    /// Peak resident set (see `Figures::rss_kib`).
    Rss,
    MinorFaults,
}

impl Metric {
    /// Every metric, in the order reports show them.
    pub const ALL: [Metric; 5] = [
        Metric::Wall,
        Metric::Cpu,
        Metric::Sys,
        Metric::Rss,
        Metric::MinorFaults,
    ];

    /// The short name reports and the JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Wall => "wall",
            Metric::Cpu => "cpu",
            Metric::Sys => "sys",
            Metric::Rss => "rss",
            Metric::MinorFaults => "minor_faults",
        }
    }

    /// How large an A/A difference must be, in percent, before it makes a cell
    /// unreliable. Times are noisy, so any verdict of the control counts. Peak RSS and
    /// minor faults barely move from run to run, so their intervals are a few hundredths
    /// of a percent wide and the control finds real but immaterial differences (the
    /// per-run environment padding moves the stack by up to 4 KiB): there the control's
    /// whole interval must lie beyond ±1%.
    pub fn control_margin_pct(self) -> f64 {
        match self {
            Metric::Wall | Metric::Cpu | Metric::Sys => 0.0,
            Metric::Rss | Metric::MinorFaults => 1.0,
        }
    }
}

impl Ratio {
    /// Whether this ratio, as the A/A control's, makes its cell unreliable for `metric`:
    /// a verdict whose interval lies wholly beyond the metric's [`Metric::control_margin_pct`].
    pub fn discredits(&self, metric: Metric) -> bool {
        let margin = metric.control_margin_pct() / 100.0;
        let (Some(verdict), Some(low), Some(high)) = (self.verdict, self.low, self.high) else {
            return false;
        };
        verdict.is_difference() && (low > 1.0 + margin || high < 1.0 - margin)
    }
}

/// A contender against the baseline: the geometric mean of the per-round ratios, with
/// its 95% t interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// Geometric mean of contender / baseline over the paired rounds.
    pub ratio: f64,
    /// Lower end of the 95% interval; absent with fewer than 2 paired rounds.
    pub low: Option<f64>,
    /// Upper end of the 95% interval.
    pub high: Option<f64>,
    /// Absent when there is no interval.
    pub verdict: Option<Verdict>,
    /// Rounds in which both the contender and the baseline have a successful run.
    #[serde(default)]
    pub rounds: usize,
    /// Half-width of the interval as a percent of the ratio: `exp(h) - 1` for the
    /// interval `exp(mean ± h)` on the log scale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_width_pct: Option<f64>,
    /// Standard deviation of the per-round log ratios: the noise one round carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sd_log: Option<f64>,
    /// Set by the results, not by [`paired`]: the A/A control of this corpus and checker
    /// count got a verdict on this metric, so this verdict cannot be trusted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreliable: bool,
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

    /// Whether the interval is at most ±`precision_pct` wide.
    pub fn is_precise(&self, precision_pct: f64) -> bool {
        self.half_width_pct.is_some_and(|h| h <= precision_pct)
    }

    /// The rounds the observed spread says an interval of ±`precision_pct` needs (the
    /// half-width shrinks as `1/sqrt(rounds)`); `None` without an interval.
    pub fn rounds_needed(&self, precision_pct: f64) -> Option<usize> {
        let sd = self.sd_log?;
        let target = (1.0 + precision_pct / 100.0).ln();
        if target <= 0.0 {
            return None;
        }
        // The t quantile itself depends on the rounds: iterate from the normal's.
        let mut rounds = MIN_ROUNDS_FOR_INTERVAL;
        for _ in 0..50 {
            let t = t_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0, (rounds - 1) as f64);
            let next = ((t * sd / target).powi(2).ceil() as usize).max(MIN_ROUNDS_FOR_INTERVAL);
            if next == rounds {
                break;
            }
            rounds = next;
        }
        Some(rounds)
    }
}

/// Compares paired figures, one `(contender, baseline)` pair per round: the geometric
/// mean of the ratios and its 95% t interval, with a verdict only where the interval
/// excludes 1. Pairs with a figure of zero or less carry no ratio and are skipped.
/// `None` if no pair is left.
pub fn paired(pairs: &[(f64, f64)]) -> Option<Ratio> {
    let logs: Vec<f64> = pairs
        .iter()
        .filter(|(c, b)| *c > 0.0 && *b > 0.0 && c.is_finite() && b.is_finite())
        .map(|(c, b)| (c / b).ln())
        .collect();
    let n = logs.len();
    if n == 0 {
        return None;
    }
    let mean = logs.iter().sum::<f64>() / n as f64;
    let ratio = mean.exp();
    if n < MIN_ROUNDS_FOR_INTERVAL {
        return Some(Ratio {
            ratio,
            low: None,
            high: None,
            verdict: None,
            rounds: n,
            half_width_pct: None,
            sd_log: None,
            unreliable: false,
        });
    }
    let variance = logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let sd = variance.sqrt();
    let t = t_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0, (n - 1) as f64);
    let h = t * sd / (n as f64).sqrt();
    let (low, high) = ((mean - h).exp(), (mean + h).exp());
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
        rounds: n,
        half_width_pct: Some(h.exp_m1() * 100.0),
        sd_log: Some(sd),
        unreliable: false,
    })
}

/// The mean of `samples` and its 95% t interval, `(mean, low, high)`: for the fault
/// cost probe, whose repetitions are independent. `None` for fewer than 2 samples.
pub fn mean_interval(samples: &[f64]) -> Option<(f64, f64, f64)> {
    let n = samples.len();
    if n < 2 {
        return None;
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let h =
        t_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0, (n - 1) as f64) * (variance / n as f64).sqrt();
    Some((mean, mean - h, mean + h))
}

/// The `p` quantile of Student's t distribution with `df` degrees of freedom (`df > 0`,
/// `0 < p < 1`), by bisection on [`t_cdf`]: exact to about 1e-12, which no interval here
/// needs, but it leaves no approximation to argue about.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    debug_assert!(p > 0.0 && p < 1.0 && df > 0.0);
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    while t_cdf(high, df) < p {
        high *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if t_cdf(mid, df) < p {
            low = mid;
        } else {
            high = mid;
        }
        if high - low <= 1e-13 * high.max(1.0) {
            break;
        }
    }
    0.5 * (low + high)
}

/// The distribution function of Student's t with `df` degrees of freedom:
/// `P(T <= t) = 1 - I_x(df/2, 1/2) / 2` for `t >= 0`, with `x = df / (df + t^2)` and
/// `I` the regularized incomplete beta function.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    let tail = 0.5 * incomplete_beta(x, df / 2.0, 0.5);
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The regularized incomplete beta function `I_x(a, b)`, from its continued fraction
/// (evaluated by the modified Lentz method), using the symmetry
/// `I_x(a, b) = 1 - I_{1-x}(b, a)` where the fraction converges slowly.
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - incomplete_beta(1.0 - x, b, a);
    }
    let log_front = a * x.ln() + b * (1.0 - x).ln() - ln_beta(a, b);
    let front = log_front.exp() / a;
    // Continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...))), coefficients
    // d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)), d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)).
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut f = d;
    for m in 1..=300 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        for coefficient in [
            even,
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + coefficient * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + coefficient / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            f *= c * d;
        }
        if (c * d - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front * f
}

/// `ln B(a, b)`.
fn ln_beta(a: f64, b: f64) -> f64 {
    ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b)
}

/// `ln Γ(x)` for `x > 0`: Stirling's series with its first terms, after shifting `x`
/// up past 10 by `Γ(x) = Γ(x + 1) / x`; accurate to better than 1e-13 there.
fn ln_gamma(x: f64) -> f64 {
    let mut shift = 0.0;
    let mut x = x;
    while x < 10.0 {
        shift -= x.ln();
        x += 1.0;
    }
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    let series = inv
        * (1.0 / 12.0
            - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 * (1.0 / 1680.0 - inv2 / 1188.0))));
    shift + (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + series
}
