//! What a page fault costs on this machine, measured in the same invocation as the runs.
//!
//! A 4 KiB fault and a 2 MiB fault differ in cost by the zeroing alone on bare metal
//! (512 times the bytes). In a guest whose free memory is reported to the host
//! (virtio_balloon free page reporting), a block the guest takes back from a reported
//! range must first be faulted in by the host, so a fresh huge page can cost far more,
//! and whether huge pages save time depends on it. The probe touches anonymous memory
//! page by page in this thread and divides the thread's CPU time by its minor faults:
//!
//! - 4 KiB pages (MADV_NOHUGEPAGE), back to back;
//! - 2 MiB pages (MADV_HUGEPAGE) right after the previous ones were freed, so the
//!   kernel hands the same, still resident, blocks back ("recycled");
//! - 2 MiB pages after [`IDLE`] of idleness, long enough for free page reporting to
//!   hand the freed blocks to the host ("fresh").
//!
//! If fresh 2 MiB faults cost much more than recycled ones, the host's re-faulting of
//! reported memory is the cost, not the kernel's zeroing.
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use crate::results::calibration::{Calibration, FaultCost, IDLE};
use crate::stats;

/// Bytes touched per repetition of the 4 KiB and recycled 2 MiB probes.
const PROBE_BYTES: usize = 32 << 20; // 32 MiB
/// Bytes touched per fresh 2 MiB repetition: more than a child's footprint, so that
/// the kernel has to go past the blocks it keeps warm into memory reported to the host.
const FRESH_BYTES: usize = 256 << 20; // 256 MiB
const SMALL_PAGE: usize = 4 << 10; // 4 KiB
const HUGE_PAGE: usize = 2 << 20; // 2 MiB
/// Repetitions of the 4 KiB and recycled 2 MiB probes.
const REPETITIONS: usize = 8;
/// Repetitions of the fresh 2 MiB probe (each waits [`IDLE`]).
const FRESH_REPETITIONS: usize = 4;
impl Calibration {
    /// Runs the three probes: about `FRESH_REPETITIONS * IDLE` (12 s) of waiting, and
    /// 256 MiB of fresh huge pages per fresh repetition. `None` once `stop` is set (it is
    /// looked at between repetitions and every 50 ms of the waits).
    pub fn measure(stop: &AtomicBool) -> Option<Calibration> {
        let started_unix_s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let small = repeat(
            REPETITIONS,
            || touch(PageSize::Small, PROBE_BYTES),
            None,
            stop,
        )?;
        let huge_recycled = repeat(
            REPETITIONS,
            || touch(PageSize::Huge, PROBE_BYTES),
            None,
            stop,
        )?;
        let huge_fresh = repeat(
            FRESH_REPETITIONS,
            || touch(PageSize::Huge, FRESH_BYTES),
            Some(IDLE),
            stop,
        )?;
        Some(Calibration {
            started_unix_s,
            small,
            huge_recycled,
            huge_fresh,
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum PageSize {
    Small,
    Huge,
}

/// One touch's CPU seconds, minor faults and AnonHugePages reached (KiB).
type Touch = (f64, u64, u64);

/// One probe's cost over `repetitions`: `Some(None)` where the probe measured nothing,
/// `None` once `stop` is set.
fn repeat(
    repetitions: usize,
    mut probe: impl FnMut() -> Option<Touch>,
    idle: Option<Duration>,
    stop: &AtomicBool,
) -> Option<Option<FaultCost>> {
    let mut per_fault_us = Vec::new();
    let (mut faults, mut huge_kib) = (0u64, 0u64);
    for _ in 0..repetitions {
        let idle_until = std::time::Instant::now() + idle.unwrap_or_default();
        loop {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            let left = idle_until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(50)));
        }
        let Some((cpu_s, n, kib)) = probe() else {
            return Some(None);
        };
        if n == 0 {
            return Some(None);
        }
        per_fault_us.push(cpu_s * 1e6 / n as f64);
        faults += n;
        huge_kib = huge_kib.max(kib);
    }
    let Some((us, low_us, high_us)) = stats::mean_interval(&per_fault_us) else {
        return Some(None);
    };
    Some(Some(FaultCost {
        us,
        low_us,
        high_us,
        repetitions,
        faults: faults as f64 / repetitions as f64,
        anon_huge_kib: huge_kib,
    }))
}

/// This thread's CPU time (seconds) and minor faults so far.
fn thread_usage() -> (f64, u64) {
    // SAFETY: timespec and rusage are plain old data; all-zero bytes are valid values.
    let mut time: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are valid for writes for the duration of the calls.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time);
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
    }
    (
        time.tv_sec as f64 + time.tv_nsec as f64 / 1e9,
        usage.ru_minflt.max(0) as u64,
    )
}

/// AnonHugePages of this process (/proc/self/smaps_rollup), in KiB.
fn anon_huge_kib() -> u64 {
    std::fs::read_to_string("/proc/self/smaps_rollup")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("AnonHugePages:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Maps `bytes` on a 2 MiB boundary, advises the page size, writes one byte per page,
/// and unmaps it again.
fn touch(size: PageSize, bytes: usize) -> Option<Touch> {
    let len = bytes + HUGE_PAGE;
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing
    // touches no existing memory.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return None;
    }
    let start = (base as usize).next_multiple_of(HUGE_PAGE) as *mut u8;
    let (advice, step) = match size {
        PageSize::Small => (libc::MADV_NOHUGEPAGE, SMALL_PAGE),
        PageSize::Huge => (libc::MADV_HUGEPAGE, HUGE_PAGE),
    };
    // SAFETY: [start, start + bytes) lies inside the mapping made above (the mapping has
    // HUGE_PAGE bytes of slack for the alignment).
    unsafe { libc::madvise(start.cast(), bytes, advice) };
    let huge_before = anon_huge_kib();
    let (cpu_before, faults_before) = thread_usage();
    for offset in (0..bytes).step_by(step) {
        // SAFETY: start + offset is inside the mapping, which is readable and writable
        // and owned by this function alone.
        unsafe { start.add(offset).write_volatile(1) };
    }
    let (cpu_after, faults_after) = thread_usage();
    let huge = anon_huge_kib().saturating_sub(huge_before);
    // SAFETY: unmaps exactly the mapping made above; no reference into it survives.
    unsafe { libc::munmap(base, len) };
    Some((cpu_after - cpu_before, faults_after - faults_before, huge))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_page_probe_faults_once_per_page() {
        let (cpu_s, faults, _) = touch(PageSize::Small, PROBE_BYTES).unwrap();
        let pages = (PROBE_BYTES / SMALL_PAGE) as u64;
        assert!(
            faults >= pages && faults < pages + pages / 8,
            "{faults} for {pages} pages"
        );
        assert!(cpu_s > 0.0);
    }

    #[test]
    fn the_prediction_counts_huge_pages_at_the_fresh_cost_and_the_rest_at_the_small() {
        let cost = |us| FaultCost {
            us,
            low_us: us,
            high_us: us,
            repetitions: 2,
            faults: 1.0,
            anon_huge_kib: 0,
        };
        let calibration = Calibration {
            started_unix_s: 0.0,
            small: Some(cost(1.0)),
            huge_recycled: Some(cost(100.0)),
            huge_fresh: Some(cost(2000.0)),
        };
        // 10 huge pages (20480 KiB) among 1010 faults: 1000 small at 1 µs, 10 at 2 ms.
        let predicted = calibration.predicted_sys_s(1010.0, 20480.0).unwrap();
        assert!((predicted - (1000.0e-6 + 10.0 * 2000.0e-6)).abs() < 1e-12);
    }
}
