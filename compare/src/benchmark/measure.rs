//! Measuring one child: wall time from the parent's clock, CPU time, peak RSS and page
//! faults from the kernel's own accounting of the child (wait4's rusage), its memory sampled
//! while it runs, and its output. What the measurement makes of the run is [`super::judge`]'s.
use std::io::{self, Read};
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::benchmark::capture::{self, Captured, Stdout};
use crate::benchmark::vmstat::Counters;
use crate::results::kernel::{SAMPLE_INTERVAL_MS, Sample, Timeline};

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// What the parent observed of one child.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub exit: Exit,
    /// The run outlived the time limit and was killed: `Some(limit)`.
    pub timed_out: Option<Duration>,
    pub wall: Duration,
    pub rusage: Rusage,
    /// When the child was spawned, in seconds since the Unix epoch.
    pub started_unix_s: f64,
    /// Steal time of all CPUs (the `cpu` line of /proc/stat) while the child ran, in
    /// seconds: time the hypervisor ran something else on our virtual CPUs. `None`
    /// where /proc/stat has no steal column.
    pub steal_s: Option<f64>,
    /// Standard output, if kept ([`Stdout::Keep`]).
    pub stdout: Vec<u8>,
    /// The digest of all of standard output, if asked for ([`Stdout::Digest`]).
    pub stdout_digest: Option<String>,
    /// Of standard error, its first and last [`capture::STDERR_KEPT`] bytes.
    pub stderr: Vec<u8>,
    /// Lines of standard error that say ld.so refused a preload, wherever they came.
    pub not_preloaded: Vec<String>,
    /// The largest AnonHugePages of the child's samples, in KiB (0 if none was taken).
    pub anon_huge_peak_kib: u64,
    /// The child's RSS and AnonHugePages every [`SAMPLE_INTERVAL`] while it ran; `None`
    /// when it was not sampled.
    pub timeline: Option<Timeline>,
    /// The machine's `/proc/vmstat` counters' growth from just before the spawn to just
    /// after the reap; `None` where /proc/vmstat cannot be read.
    pub vmstat: Option<std::collections::BTreeMap<String, u64>>,
    /// A process that left the child's process group still held its stdout or stderr
    /// [`READ_GRACE`] after the group was killed: the output read is cut short.
    pub output_held: bool,
}

/// The fields of the child's rusage the bake-off uses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rusage {
    pub user_s: f64,
    pub sys_s: f64,
    /// `ru_maxrss`, in KiB on Linux.
    pub max_rss_kib: u64,
    pub minor_faults: u64,
    pub major_faults: u64,
    /// `ru_nivcsw`: the child was preempted (its time slice ended or a task of higher
    /// priority woke up); many more than usual means it shared its CPU.
    pub involuntary_switches: u64,
    /// `ru_nvcsw`: the child gave up its CPU itself (waited for a lock, I/O, a thread).
    pub voluntary_switches: u64,
}

/// Steal time of all CPUs so far, in seconds, from the `cpu` line of /proc/stat (its
/// eighth number, in clock ticks).
pub fn steal_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: u64 = stat
        .lines()
        .find(|line| line.starts_with("cpu "))?
        .split_whitespace()
        .nth(8)?
        .parse()
        .ok()?;
    // SAFETY: sysconf only reads a system constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (per_second > 0).then(|| ticks as f64 / per_second as f64)
}

/// How long the output readers may go on once the child's process group is dead: only a
/// process that left the group (`setsid`) can still hold a pipe then.
pub const READ_GRACE: Duration = Duration::from_secs(2);
/// How often the watchdog looks at the stop flag while a child runs.
const STOP_POLL: Duration = Duration::from_millis(50);
/// How often the child's RSS and AnonHugePages are sampled, every contender's alike: as
/// VmHWM is the peak of RSS, the peak of huge pages needs samples, since an allocator may
/// hold them only for a while (glibc with `hugetlb=1` peaks at 12 MiB on typeorm and holds
/// none at its end), and memory over time needs points through the run. 100 ms, not finer:
/// sampled every 20 ms a 0.25 s trpc run took 12% longer on this 2-core machine (docs/ANALYSIS.md).
/// Each run records its interval with its timeline.
pub const SAMPLE_INTERVAL: Duration = Duration::from_millis(SAMPLE_INTERVAL_MS as u64);

/// Rss and AnonHugePages of process `pid` (/proc/PID/smaps_rollup, one read), in KiB;
/// `None` once it has exited.
fn rollup_kib(pid: libc::pid_t) -> Option<(u64, u64)> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let field = |name: &str| -> Option<u64> {
        rollup
            .lines()
            .find_map(|line| line.strip_prefix(name))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some((field("Rss:")?, field("AnonHugePages:")?))
}

/// Spawns `command` with piped output, reads both pipes to the end and reaps the child
/// with wait4. The child leads its own process group: a watchdog selects over the child's
/// exit, the time limit and `stop` (set by Ctrl-C or SIGTERM), and past the limit, or once
/// stopped, the whole group is killed; once the child has exited, what is left of its group
/// is killed too, so **a run ends when its time is up** and no straggler outlives it. The
/// readers then get [`READ_GRACE`]. The child dies with compare (PR_SET_PDEATHSIG), however
/// compare dies.
pub fn measure(
    command: Command,
    timeout: Option<Duration>,
    stop: &AtomicBool,
) -> io::Result<Measurement> {
    measure_sampled(command, timeout, stop, Some(SAMPLE_INTERVAL))
}

/// As [`measure`], sampling the child's memory every `sample` (never with `None`, which
/// only measures what the sampling costs: the bake-off samples every child alike).
pub fn measure_sampled(
    command: Command,
    timeout: Option<Duration>,
    stop: &AtomicBool,
    sample: Option<Duration>,
) -> io::Result<Measurement> {
    measure_with(command, timeout, stop, sample, Stdout::Keep)
}

/// As [`measure_sampled`], keeping of the child's standard output what `stdout` says: **output
/// is hashed while it streams**, so that a command's output is never held whole.
pub fn measure_with(
    mut command: Command,
    timeout: Option<Duration>,
    stop: &AtomicBool,
    sample: Option<Duration>,
    stdout: Stdout,
) -> io::Result<Measurement> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure runs in the forked child before exec and only makes
    // async-signal-safe system calls, allocating nothing.
    unsafe {
        command.pre_exec(|| {
            // A compare started in the background of a shell inherits SIGINT ignored;
            // every child starts with Ctrl-C's default action, so a Ctrl-C stops it.
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            if libc::setpgid(0, 0) != 0
                || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died between fork and prctl: then nobody waits for us.
            if libc::getppid() == 1 {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    let steal_before = steal_seconds();
    let vmstat_before = Counters::read();
    let started_unix_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let start = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    super::watcher::watch(pid);
    fn reader(
        pipe: Option<impl Read + Send + 'static>,
        read: impl FnOnce(Box<dyn Read + Send>) -> Captured + Send + 'static,
    ) -> crossbeam_channel::Receiver<Captured> {
        let (sender, captured) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            let pipe = pipe.map(|p| Box::new(p) as Box<dyn Read + Send>);
            let _ = sender.send(pipe.map(read).unwrap_or_default());
        });
        captured
    }
    let stdout_reader = reader(child.stdout.take(), move |pipe| {
        capture::stdout(pipe, stdout)
    });
    let stderr_reader = reader(child.stderr.take(), capture::stderr);
    let (exited, exit) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        // Wait for the exit without reaping, so that the group id is still ours to kill:
        // what is left of the group dies with the run.
        let _ = exit_of(pid);
        let wall = start.elapsed();
        kill(pid);
        let _ = exited.send((wait4(pid), wall));
    });
    let deadline = timeout.map_or_else(crossbeam_channel::never, crossbeam_channel::after);
    let poll = crossbeam_channel::tick(STOP_POLL);
    let ticks = sample.map_or_else(crossbeam_channel::never, crossbeam_channel::tick);
    let mut samples = Vec::new();
    let mut timed_out = None;
    let (reaped, wall) = loop {
        crossbeam_channel::select! {
            recv(exit) -> reaped => break reaped.map_err(|_| io::Error::other("the wait thread died"))?,
            recv(deadline) -> _ => {
                timed_out = timeout;
                kill(pid);
            }
            recv(poll) -> _ => if stop.load(Ordering::SeqCst) {
                kill(pid);
            },
            recv(ticks) -> _ => if let Some((rss_kib, anon_huge_kib)) = rollup_kib(pid) {
                let t_ms = start.elapsed().as_millis().try_into().unwrap_or(u32::MAX);
                samples.push(Sample { t_ms, rss_kib, anon_huge_kib });
            }
        }
    };
    // The group is dead (killed by the wait thread before it reaped the child).
    super::watcher::unwatch();
    // Read as soon as the child is reaped, before the readers and the rest of the parent's
    // bookkeeping add faults of their own.
    let vmstat = vmstat_before
        .zip(Counters::read())
        .map(|(before, after)| after.since(&before));
    let anon_huge_peak_kib = samples.iter().map(|s| s.anon_huge_kib).max().unwrap_or(0);
    let timeline = sample.map(|interval| Timeline {
        interval_ms: interval.as_millis().try_into().unwrap_or(u32::MAX),
        samples,
    });
    let (status, usage) = reaped?;
    let read_by = Instant::now() + READ_GRACE;
    let mut output_held = false;
    let mut collect = |reader: crossbeam_channel::Receiver<Captured>| {
        reader.recv_deadline(read_by).unwrap_or_else(|_| {
            output_held = true;
            Captured::default()
        })
    };
    let stdout = collect(stdout_reader);
    let steal_s = match (steal_before, steal_seconds()) {
        (Some(before), Some(after)) => Some((after - before).max(0.0)),
        _ => None,
    };
    let stderr = collect(stderr_reader);
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    Ok(Measurement {
        exit,
        timed_out,
        wall,
        rusage: usage,
        started_unix_s,
        steal_s,
        stdout: stdout.kept,
        stdout_digest: stdout.digest,
        stderr: stderr.kept,
        not_preloaded: stderr.not_preloaded,
        anon_huge_peak_kib,
        timeline,
        vmstat,
        output_held,
    })
}

/// SIGKILL to the process group our child leads, while the child is not yet reaped (the
/// wait thread holds it until it is).
fn kill(pid: libc::pid_t) {
    // SAFETY: `pid` is our unreaped child and leads its group, so the group id cannot have
    // been reused.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
}

/// Waits until `pid` has exited, leaving it unreaped, retrying when a signal interrupts.
fn exit_of(pid: libc::pid_t) -> io::Result<()> {
    loop {
        // SAFETY: siginfo_t is plain old data; all-zero bytes are a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: info is writable for the call; `pid` is our own child.
        let waited = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if waited == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Reaps `pid`, retrying when a signal interrupts the wait.
fn wait4(pid: libc::pid_t) -> io::Result<(libc::c_int, Rusage)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid for writes for the whole call, and `pid`
        // is our own unreaped child.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            break;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok((
        status,
        Rusage {
            user_s: seconds(usage.ru_utime),
            sys_s: seconds(usage.ru_stime),
            max_rss_kib: usage.ru_maxrss.max(0) as u64,
            minor_faults: usage.ru_minflt.max(0) as u64,
            major_faults: usage.ru_majflt.max(0) as u64,
            involuntary_switches: usage.ru_nivcsw.max(0) as u64,
            voluntary_switches: usage.ru_nvcsw.max(0) as u64,
        },
    ))
}
