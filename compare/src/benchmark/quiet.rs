//! The quiet gate: before each run, wait until the machine is quiet apart from compare.
//!
//! On a shared machine the first enemy of a wall-time verdict is other work: a build beside
//! a bake-off makes runs 2x slower and their noise wide. So before every run (warm-ups too)
//! compare measures how many CPUs the processes other than itself kept busy over a short
//! window ([`WINDOW`], from `/proc/stat`, less compare's own CPU time from
//! `/proc/self/stat`; steal and idle time are not busy) and waits, window after window,
//! until that is at most the threshold or the limit is up. **Every run records what the gate
//! saw** ([`QuietCheck`]): how long it waited, the other processes' CPUs in its last
//! window, the 1-minute load average, and whether it started on a quiet machine; the report
//! counts the runs that waited and lists those that started busy.
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::output::progress::Progress;
use crate::results::QuietCheck;

/// One look at the machine.
pub const WINDOW: Duration = Duration::from_millis(250);

/// The gate's settings (`--quiet-wait`, `--quiet-cpus`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuietGate {
    /// Waiting stops here, and the run starts, quiet or not.
    pub max_wait: Duration,
    /// Quiet means other processes keep at most this many CPUs busy.
    pub threshold_cpus: f64,
}

impl QuietGate {
    /// Waits until the machine is quiet, `max_wait` is up or `stop` is set; says what it
    /// saw. `None` where `/proc/stat` cannot be read (then it does not wait).
    pub fn wait(&self, stop: &AtomicBool, progress: &Progress) -> Option<QuietCheck> {
        let start = Instant::now();
        let mut said = false;
        loop {
            let other_cpus = other_cpus_over(WINDOW)?;
            let waited = start.elapsed();
            let quiet = other_cpus <= self.threshold_cpus;
            if quiet || waited >= self.max_wait || stop.load(Ordering::SeqCst) {
                if said {
                    progress.note(&if quiet {
                        format!("quiet after {:.0} s", waited.as_secs_f64())
                    } else {
                        format!(
                            "still busy after {:.0} s ({other_cpus:.2} CPUs): running anyway, \
                             the run is marked as started busy",
                            waited.as_secs_f64()
                        )
                    });
                }
                return Some(QuietCheck {
                    waited_s: if quiet && !said {
                        0.0
                    } else {
                        waited.as_secs_f64()
                    },
                    other_cpus,
                    load1: load1(),
                    quiet,
                });
            }
            if !said {
                progress.note(&format!(
                    "waiting for a quiet machine: other processes keep {other_cpus:.2} CPUs busy \
                     (quiet: at most {:.2}), up to {} s",
                    self.threshold_cpus,
                    self.max_wait.as_secs()
                ));
                said = true;
            }
        }
    }
}

/// The CPUs that processes other than this one kept busy over `window`, on average.
pub fn other_cpus_over(window: Duration) -> Option<f64> {
    busy_over(window).map(|busy| busy.other_cpus())
}

/// CPUs kept busy over a window, on average.
#[derive(Clone, Copy, Debug)]
struct Busy {
    /// By every process.
    all_cpus: f64,
    /// By this process, all its threads.
    own_cpus: f64,
}

impl Busy {
    fn other_cpus(&self) -> f64 {
        (self.all_cpus - self.own_cpus).max(0.0)
    }
}

fn busy_over(window: Duration) -> Option<Busy> {
    let (busy_before, self_before) = (busy_ticks()?, self_ticks()?);
    let start = Instant::now();
    std::thread::sleep(window);
    let (busy_after, self_after) = (busy_ticks()?, self_ticks()?);
    let per_second = ticks_per_second() * start.elapsed().as_secs_f64();
    let all = busy_after.saturating_sub(busy_before) as f64 / per_second;
    let own = self_after.saturating_sub(self_before) as f64 / per_second;
    Some(Busy {
        all_cpus: all,
        own_cpus: own,
    })
}

fn ticks_per_second() -> f64 {
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

/// Busy ticks of all CPUs since boot: user, nice, system, irq and softirq (`/proc/stat`'s
/// first line; guest time is inside user already; idle, iowait and steal are not busy).
fn busy_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let fields: Vec<u64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    let field = |i: usize| fields.get(i).copied().unwrap_or(0);
    Some(field(0) + field(1) + field(2) + field(5) + field(6))
}

/// User plus system ticks of this process, all its threads.
fn self_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

fn load1() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_loop_in_another_process_counts_as_about_one_cpu() {
        let mut spin = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let other = other_cpus_over(Duration::from_millis(500)).unwrap();
        spin.kill().unwrap();
        spin.wait().unwrap();
        assert!(other >= 0.6, "{other} CPUs beside a busy loop");
    }

    #[test]
    fn this_process_spinning_is_counted_as_its_own_work_not_as_other_work() {
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let spinner = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        };
        let busy = busy_over(Duration::from_millis(500)).unwrap();
        stop.store(true, Ordering::Relaxed);
        spinner.join().unwrap();
        // The spinning thread gets its share of a CPU even on a busy machine (a twelfth at a
        // load of 12 on 2 CPUs), and the gate would count none of it as other work.
        assert!(busy.own_cpus >= 0.05, "{busy:?}");
    }
}
