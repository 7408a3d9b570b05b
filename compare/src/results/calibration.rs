//! The fault cost probe's record ([`crate::calibrate`] runs it): what one 4 KiB and one
//! 2 MiB minor fault cost on this machine, so that a run's fault-sys time can be predicted
//! from its counts.
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A huge page, in bytes (2 MiB).
const HUGE_PAGE: usize = 2 << 20;

/// Idle time before a fresh 2 MiB probe: free page reporting waits 2 s after a free.
pub const IDLE: Duration = Duration::from_secs(3);

/// One probe's cost per fault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultCost {
    /// CPU time per minor fault, in microseconds: the mean over the repetitions.
    pub us: f64,
    /// 95% t interval of that mean.
    pub low_us: f64,
    pub high_us: f64,
    pub repetitions: usize,
    /// Minor faults of one repetition (the mean).
    pub faults: f64,
    /// AnonHugePages the probe's memory reached per repetition, in KiB (`32768` for 16
    /// huge pages); 0 where the kernel gave small pages.
    pub anon_huge_kib: u64,
}

/// The probe of one invocation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// When it ran, seconds since the Unix epoch.
    pub started_unix_s: f64,
    pub small: Option<FaultCost>,
    pub huge_recycled: Option<FaultCost>,
    pub huge_fresh: Option<FaultCost>,
}

impl Calibration {
    /// The fault-sys time a run's counts predict, in seconds: its 2 MiB pages (its
    /// AnonHugePages at the end) at the fresh 2 MiB cost and its other minor faults at the
    /// 4 KiB cost. `None` without both costs.
    pub fn predicted_sys_s(&self, minor_faults: f64, anon_huge_kib: f64) -> Option<f64> {
        let small = self.small.as_ref()?.us;
        let huge = self.huge_fresh.as_ref()?.us;
        let huge_pages = anon_huge_kib / (HUGE_PAGE / 1024) as f64;
        let small_faults = (minor_faults - huge_pages).max(0.0);
        Some((small_faults * small + huge_pages * huge) / 1e6)
    }
}
