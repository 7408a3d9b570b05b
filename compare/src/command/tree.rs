//! The process tree of a probe run, followed by `ptrace`: every program that any process of the
//! command exec'd, whether a preload can reach it, and the CPU time and peak RSS it used.
//!
//! ld.so's `LD_DEBUG` output shows only the programs ld.so ran with the variable still set: a
//! statically linked program, a program run in secure mode (setuid, setgid, file capabilities),
//! and one whose environment was cleared (`env -i`) write nothing. The tracer sees every `exec`
//! of every process, thread and child (`PTRACE_O_TRACEEXEC`, `..FORK`, `..VFORK`, `..CLONE`),
//! so **every process of the run is accounted for**. Only the unmeasured probe run is traced.
use std::io;
use std::os::unix::fs::MetadataExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::command::elf::{self, Linking};

/// One program one process ran: from its `exec` to the next `exec` of that pid or its exit.
#[derive(Clone, Debug, PartialEq)]
pub struct Exec {
    pub pid: i32,
    /// The executable (`/proc/PID/exe` at the exec).
    pub exe: PathBuf,
    /// Its `argv[0]`, which is how ld.so names the main program in its output.
    pub argv0: String,
    pub linking: Linking,
    /// Why ld.so runs it in secure mode, which drops `LD_PRELOAD`, if it may: `setuid`,
    /// `setgid` (to an owner other than ours) or `capabilities`.
    pub secure: Option<&'static str>,
    /// User plus system CPU time of this program, in seconds (its threads included).
    pub cpu_s: f64,
    /// Its peak resident set (VmHWM at its exec or exit), in KiB.
    pub max_rss_kib: u64,
}

/// What the traced run did.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// Every program, in the order they were exec'd.
    pub execs: Vec<Exec>,
    /// The wait status of the command's own process (`sh`).
    pub status: libc::c_int,
    /// The run outlived its time limit and was killed.
    pub timed_out: bool,
}

/// User plus system time of process `pid` so far, in seconds, and its VmHWM in KiB.
fn usage(pid: i32) -> (f64, u64) {
    let cpu = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            // Fields after the command name in parentheses: state is the 3rd, utime the 14th.
            let rest = stat.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let ticks =
                fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
            // SAFETY: sysconf only reads a system constant.
            let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
            (per_second > 0).then(|| ticks as f64 / per_second as f64)
        })
        .unwrap_or(0.0);
    let hwm = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))?
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or(0);
    (cpu, hwm)
}

/// Why ld.so would run `exe` in secure mode (and so ignore `LD_PRELOAD`), if it would.
pub fn secure_mode(exe: &Path) -> Option<&'static str> {
    let meta = std::fs::metadata(exe).ok()?;
    // SAFETY: geteuid and getegid cannot fail.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    if meta.mode() & libc::S_ISUID != 0 && meta.uid() != uid {
        return Some("setuid");
    }
    if meta.mode() & libc::S_ISGID != 0 && meta.gid() != gid {
        return Some("setgid");
    }
    let path = std::ffi::CString::new(exe.as_os_str().as_encoded_bytes()).ok()?;
    // SAFETY: both names are NUL-terminated; a null buffer of size 0 asks only for the size.
    let size = unsafe {
        libc::getxattr(
            path.as_ptr(),
            c"security.capability".as_ptr(),
            std::ptr::null_mut(),
            0,
        )
    };
    (size > 0).then_some("capabilities")
}

/// A program that `pid` has just exec'd.
fn exec_of(pid: i32) -> Exec {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let argv0 = cmdline.split(|&b| b == 0).next().unwrap_or_default();
    Exec {
        pid,
        argv0: String::from_utf8_lossy(argv0).into_owned(),
        linking: elf::linking(&exe),
        secure: secure_mode(&exe),
        exe,
        cpu_s: 0.0,
        max_rss_kib: 0,
    }
}

/// The programs in flight, by pid: the index of each in `execs` and its CPU time at its exec.
struct Live(Vec<(i32, usize, f64)>);

impl Live {
    /// Closes the program `pid` ran with its usage now; returns the CPU time so far.
    fn close(&mut self, execs: &mut [Exec], pid: i32) -> f64 {
        let (cpu, hwm) = usage(pid);
        if let Some(at) = self.0.iter().position(|(p, ..)| *p == pid) {
            let (_, index, start) = self.0.swap_remove(at);
            execs[index].cpu_s = (cpu - start).max(0.0);
            execs[index].max_rss_kib = hwm;
        }
        cpu
    }
}

/// Runs `command` to its end with every process of it traced, stdout discarded and stderr
/// into `stderr` (the probe wants only what ld.so and the tracer saw, and why it failed).
/// Past `timeout`, or once `stop` is set, the whole process group is killed.
pub fn trace(
    mut command: Command,
    stderr: std::fs::File,
    timeout: Option<Duration>,
    stop: &AtomicBool,
) -> io::Result<Tree> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr);
    // SAFETY: the closure runs in the forked child before exec and makes only
    // async-signal-safe system calls, allocating nothing.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            if libc::setpgid(0, 0) != 0
                || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0
                || libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != 0
            {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() == 1 {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    // The tracer is the thread that forked the tracee: spawn, and wait, in one thread, while
    // this one keeps the time.
    let (done, finished) = crossbeam_channel::bounded(1);
    let (started, pid) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let child = match command.spawn() {
            Ok(child) => child,
            Err(e) => {
                let _ = started.send(Err(e));
                return;
            }
        };
        let root = child.id() as i32;
        let _ = started.send(Ok(root));
        let _ = done.send(follow(root));
    });
    let root = pid
        .recv()
        .map_err(|_| io::Error::other("the tracer thread died"))??;
    crate::benchmark::watcher::watch(root);
    let begun = Instant::now();
    let mut timed_out = false;
    let tree = loop {
        match finished.recv_timeout(Duration::from_millis(50)) {
            Ok(tree) => break tree,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other("the tracer thread died"));
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                let late = timeout.is_some_and(|t| begun.elapsed() > t);
                if late || stop.load(Ordering::SeqCst) {
                    timed_out |= late;
                    // SAFETY: a signal to the command's own process group (its leader is our
                    // unreaped child, so the group id is not reused).
                    unsafe { libc::kill(-root, libc::SIGKILL) };
                }
            }
        }
    };
    let mut tree = tree?;
    tree.timed_out = timed_out;
    Ok(tree)
}

/// The tracer's loop: from the tracee's first stop (at its exec) until no tracee is left.
fn follow(root: i32) -> io::Result<Tree> {
    let mut tree = Tree::default();
    let mut live = Live(Vec::new());
    // Tracees that have shown their first stop; new ones announced by a fork event whose first
    // stop is still to come; new ones whose first stop came before their fork event.
    let mut seen: Vec<i32> = Vec::new();
    let mut awaiting: Vec<i32> = Vec::new();
    let mut early: Vec<i32> = Vec::new();
    // Tracees that have not reported their end to us: alive, so their pids are not reused.
    let mut alive: Vec<i32> = vec![root];
    let options = libc::PTRACE_O_TRACEFORK
        | libc::PTRACE_O_TRACEVFORK
        | libc::PTRACE_O_TRACECLONE
        | libc::PTRACE_O_TRACEEXEC
        | libc::PTRACE_O_TRACEEXIT
        | libc::PTRACE_O_EXITKILL;
    let mut first = true;
    let mut root_done = false;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: status is writable; -1 waits for any tracee or child.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::__WALL) };
        if pid < 0 {
            let error = io::Error::last_os_error();
            match error.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::ECHILD) => return Ok(tree),
                _ => return Err(error),
            }
        }
        if libc::WIFEXITED(status) || libc::WIFSIGNALED(status) {
            alive.retain(|p| *p != pid);
            if pid == root {
                tree.status = status;
                // The run ends with its command: what is left of it (in its group or out of
                // it, by setsid) dies now, as a measured run's stragglers do.
                for &straggler in &alive {
                    // SAFETY: a tracee that has not reported its end, so its pid is not reused.
                    unsafe { libc::kill(straggler, libc::SIGKILL) };
                }
                root_done = true;
            }
            // Every tracee's end is reported to us, and a tracee's children are announced
            // by a fork event before it runs on: with the command and all of them gone, the
            // run is over (compare has a child that is no tracee, the watcher, so waiting
            // for ECHILD would wait for ever).
            if root_done && alive.is_empty() {
                return Ok(tree);
            }
            continue;
        }
        if !libc::WIFSTOPPED(status) {
            continue;
        }
        let signal = libc::WSTOPSIG(status);
        let event = (status >> 16) & 0xff;
        let mut deliver = 0;
        if first && pid == root {
            // The stop after the command's own exec (PTRACE_TRACEME): set the options.
            first = false;
            // SAFETY: pid is our stopped tracee; options is a plain value.
            unsafe { libc::ptrace(libc::PTRACE_SETOPTIONS, pid, 0, options as libc::c_long) };
            live.0.push((pid, tree.execs.len(), usage(pid).0));
            tree.execs.push(exec_of(pid));
        } else if event == libc::PTRACE_EVENT_EXEC {
            let cpu = live.close(&mut tree.execs, pid);
            live.0.push((pid, tree.execs.len(), cpu));
            tree.execs.push(exec_of(pid));
        } else if event == libc::PTRACE_EVENT_EXIT {
            live.close(&mut tree.execs, pid);
        } else if matches!(
            event,
            libc::PTRACE_EVENT_FORK | libc::PTRACE_EVENT_VFORK | libc::PTRACE_EVENT_CLONE
        ) {
            let mut new: libc::c_ulong = 0;
            // SAFETY: pid is stopped at a fork event; new is writable.
            unsafe { libc::ptrace(libc::PTRACE_GETEVENTMSG, pid, 0, &mut new) };
            let new = new as i32;
            if !alive.contains(&new) {
                alive.push(new);
            }
            // Its first stop may come before this event or after it.
            match early.iter().position(|p| *p == new) {
                Some(at) => {
                    early.swap_remove(at);
                }
                None => awaiting.push(new),
            }
        } else if signal == libc::SIGSTOP && event == 0 && pid != root && !seen.contains(&pid) {
            // A new tracee's first stop (the kernel's, not a signal of the command).
            seen.push(pid);
            if !alive.contains(&pid) {
                alive.push(pid);
            }
            match awaiting.iter().position(|p| *p == pid) {
                Some(at) => {
                    awaiting.swap_remove(at);
                }
                None => early.push(pid),
            }
        } else if signal != libc::SIGTRAP && !group_stop(pid) {
            deliver = signal;
        }
        // SAFETY: pid is our stopped tracee; deliver is 0 or the signal it stopped with.
        unsafe { libc::ptrace(libc::PTRACE_CONT, pid, 0, deliver as libc::c_long) };
    }
}

/// Whether a stopped tracee is in a group-stop (a stop signal already delivered), which has
/// no signal information, rather than about to receive a signal.
fn group_stop(pid: i32) -> bool {
    // SAFETY: siginfo_t is plain old data; all-zero bytes are a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our stopped tracee; info is writable.
    unsafe { libc::ptrace(libc::PTRACE_GETSIGINFO, pid, 0, &mut info) != 0 }
}
