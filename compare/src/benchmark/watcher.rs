//! **No process of a run outlives compare, however compare ends.**
//!
//! A run's child leads its own process group and dies with compare (`PR_SET_PDEATHSIG`), but
//! what it started in the background stays in its group and would live on after a
//! `kill -9` of compare. So a bake-off forks a watcher before its first run: a process that
//! holds the read end of a pipe whose write end only compare holds (close-on-exec, so no child
//! keeps it open). Compare writes each run's process group as the run starts and 0 once it
//! has been reaped and its group killed. When the pipe closes, because compare exited in
//! whatever way, the watcher kills the group it was last given with SIGKILL and exits. A
//! process that leaves its group (`setsid`, `setpgid`) is out of its reach, as it is out of
//! the reach of the group kill that ends every run.
use std::fs::File;
use std::io::{self, Write as _};
use std::os::unix::io::FromRawFd as _;
use std::sync::Mutex;

/// The write end of the watcher's pipe, once [`start`] has forked it.
static WATCHER: Mutex<Option<File>> = Mutex::new(None);

/// Forks the watcher, once per process; later calls do nothing. Call before the first run,
/// before files a child must not hold (the results lock) are opened.
pub fn start() -> io::Result<()> {
    let mut watcher = WATCHER.lock().unwrap_or_else(|e| e.into_inner());
    if watcher.is_some() {
        return Ok(());
    }
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array, which has room for them.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let [read, write] = fds;
    // SAFETY: the forked child runs only `watch`, which makes async-signal-safe system calls
    // and allocates nothing, so forking while other threads run is sound.
    match unsafe { libc::fork() } {
        -1 => {
            let error = io::Error::last_os_error();
            // SAFETY: both descriptors were just opened by this function.
            unsafe {
                libc::close(read);
                libc::close(write);
            }
            Err(error)
        }
        // SAFETY: this is the freshly forked child; `read` is its end of the pipe.
        0 => unsafe { keep_watch(read) },
        _ => {
            // SAFETY: `read` belongs to the watcher now; this process closes its copy.
            unsafe { libc::close(read) };
            // SAFETY: `write` was opened above and is owned by nothing else; the File takes it.
            *watcher = Some(unsafe { File::from_raw_fd(write) });
            Ok(())
        }
    }
}

/// Tells the watcher that a run leading process group `group` has started.
pub fn watch(group: libc::pid_t) {
    tell(group);
}

/// Tells the watcher that the run it was last given has ended and its group was killed.
pub fn unwatch() {
    tell(0);
}

fn tell(group: libc::pid_t) {
    if let Some(pipe) = WATCHER.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        // Four bytes to a pipe arrive whole. A watcher that is gone cannot be helped.
        let _ = pipe.write_all(&group.to_ne_bytes());
    }
}

/// The watcher's whole life: read process groups until the pipe closes, then kill the last.
///
/// # Safety
/// Call only in a child just forked by [`start`], with `read` the pipe's read end.
unsafe fn keep_watch(read: libc::c_int) -> ! {
    // SAFETY: only async-signal-safe calls, on descriptors this process owns and on a
    // buffer of this frame; nothing is allocated.
    unsafe {
        // A Ctrl-C at the terminal, a SIGTERM or SIGHUP to compare's process group reach the
        // watcher too; it must outlive compare to do its work.
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(signal, libc::SIG_IGN);
        }
        // Hold nothing of compare's: no results lock, no pipe of a run in flight.
        for fd in 0..1024 {
            if fd != read {
                libc::close(fd);
            }
        }
        let mut group: libc::pid_t = 0;
        let mut bytes = [0u8; 4];
        let mut filled = 0;
        loop {
            let n = libc::read(
                read,
                bytes[filled..].as_mut_ptr().cast(),
                bytes.len() - filled,
            );
            if n < 0 && *libc::__errno_location() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                break;
            }
            filled += n as usize;
            if filled == bytes.len() {
                group = libc::pid_t::from_ne_bytes(bytes);
                filled = 0;
            }
        }
        if group > 0 {
            libc::kill(-group, libc::SIGKILL);
        }
        libc::_exit(0)
    }
}
