//! `CHECKBENCH_SLICE_STATS=PATH`: at exit, one JSON object on one line appended to PATH, for
//! every process that loaded the library and exited through `exit` (forked children and programs
//! it runs append their own lines). A forked child's line is marked `"forked":true` and its
//! counters start from zero at the fork: what its parent did before is in the parent's line
//! only.
//!
//! Written without allocating: the path is copied at load (the program may change its
//! environment later), the counters summed over arenas are read into a static 1.6 KiB
//! [`Totals`] (no per-arena snapshot: the line should cost its process as few faults as can
//! be), the line is formatted into a static buffer and written with one `write` (`O_APPEND`),
//! so lines of processes that exit together do not interleave.

use std::cell::UnsafeCell;
use std::fmt::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};

use slice_alloc::{CLASS_COUNT, Policy, Totals};

/// The environment variable naming the statistics file.
const STATS_ENV: &std::ffi::CStr = c"CHECKBENCH_SLICE_STATS";
/// Longest path kept (a longer one is not written to).
const PATH_MAX: usize = 4096;
/// The line's buffer: 3 x 32 numbers of up to 20 digits plus the rest, with room to spare.
const LINE_MAX: usize = 16 << 10; // 16 KiB

/// A static that one caller may take once: the path at load, the snapshot and line at exit.
struct Once<T> {
    taken: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the value is only reached through `take`, which hands it to one caller ever.
unsafe impl<T> Sync for Once<T> {}

impl<T> Once<T> {
    const fn new(value: T) -> Self {
        Once {
            taken: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// The value, to the first caller only.
    #[allow(clippy::mut_from_ref)]
    fn take(&self) -> Option<&mut T> {
        if self.taken.swap(true, AcqRel) {
            return None;
        }
        // SAFETY: the swap above lets exactly one caller through, and it never gives the value
        // back, so this is the only reference ever made.
        Some(unsafe { &mut *self.value.get() })
    }
}

/// The path, NUL-terminated, written once by [`remember_path`]; [`PATH_LEN`] publishes it.
static PATH: Once<[u8; PATH_MAX]> = Once::new([0; PATH_MAX]);
/// Bytes of the path before its NUL; 0 while there is none.
static PATH_LEN: AtomicUsize = AtomicUsize::new(0);
static SNAPSHOT: Once<Totals> = Once::new(Totals::zeroed(Policy::DEFAULT));
static LINE: Once<Line> = Once::new(Line {
    bytes: [0; LINE_MAX],
    len: 0,
});

/// The counters at the fork that made this process, once [`forked`] ran: a forked child
/// reports the difference.
struct AtFork {
    forked: AtomicBool,
    stats: UnsafeCell<Totals>,
}

// SAFETY: `stats` is written only by `forked`, in a child where no other thread exists yet, and
// read only by `write`, at exit, after every such write of this process.
unsafe impl Sync for AtFork {}

static AT_FORK: AtFork = AtFork {
    forked: AtomicBool::new(false),
    stats: UnsafeCell::new(Totals::zeroed(Policy::DEFAULT)),
};

/// Records the counters at a fork, in the child: its line counts from zero.
///
/// # Safety
/// Called in a child right after `fork`, where the calling thread is the only one.
pub(crate) unsafe fn forked() {
    // SAFETY: the only thread, per the caller; `write` reads the snapshot later, in this
    // thread or one it starts (the store below publishes it).
    let base = unsafe { &mut *AT_FORK.stats.get() };
    // Not served yet: the counters are zero, and so stays the base (in_use never reverts, so
    // a base inherited from an earlier fork was never taken either).
    slice_alloc::totals_into(base);
    AT_FORK.forked.store(true, Release);
}

/// Copies `CHECKBENCH_SLICE_STATS` into [`PATH`], if set and short enough.
pub(crate) fn remember_path() {
    // SAFETY: a NUL-terminated name; getenv only reads the environment.
    let value = unsafe { libc::getenv(STATS_ENV.as_ptr()) };
    if value.is_null() {
        return;
    }
    // SAFETY: getenv gave a NUL-terminated string of the environment, not changed while we read.
    let path = unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes();
    if path.is_empty() || path.len() >= PATH_MAX {
        return;
    }
    let Some(buf) = PATH.take() else { return };
    buf[..path.len()].copy_from_slice(path);
    buf[path.len()] = 0;
    PATH_LEN.store(path.len(), Release);
}

/// Appends this process's line to the statistics file, if one was named.
pub(crate) fn write() {
    if PATH_LEN.load(Acquire) == 0 {
        return;
    }
    let (Some(stats), Some(line)) = (SNAPSHOT.take(), LINE.take()) else {
        return;
    };
    let served = slice_alloc::totals_into(stats);
    let forked = AT_FORK.forked.load(Acquire);
    if forked {
        // SAFETY: written only by `forked`, before the flag was stored (see AtFork).
        stats.subtract(unsafe { &*AT_FORK.stats.get() });
    }
    if format(line, stats, served, forked).is_err() {
        return;
    }
    line.push(b'\n');
    // PATH is published (PATH_LEN != 0) and never written again.
    let path = PATH.value.get().cast::<libc::c_char>();
    // SAFETY: path is NUL-terminated; the flags and mode are plain values.
    let fd = unsafe {
        libc::open(
            path,
            libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND | libc::O_CLOEXEC,
            0o644 as libc::c_uint,
        )
    };
    if fd < 0 {
        return;
    }
    // SAFETY: line.bytes holds line.len initialised bytes; fd is ours to write and close.
    unsafe {
        libc::write(fd, line.bytes.as_ptr().cast(), line.len);
        libc::close(fd);
    }
}

/// A fixed buffer that `fmt` writes into; a line that does not fit is not written.
struct Line {
    bytes: [u8; LINE_MAX],
    len: usize,
}

impl Line {
    fn push(&mut self, b: u8) {
        if self.len < LINE_MAX {
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end >= LINE_MAX {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A JSON string of bytes (the executable's path): quotes, backslashes and control bytes
/// escaped, other non-ASCII bytes as `\u00XX`.
struct JsonBytes<'a>(&'a [u8]);

impl fmt::Display for JsonBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for &b in self.0 {
            match b {
                b'"' => f.write_str("\\\"")?,
                b'\\' => f.write_str("\\\\")?,
                0x20..=0x7e => f.write_char(b as char)?,
                _ => write!(f, "\\u{b:04x}")?,
            }
        }
        f.write_char('"')
    }
}

/// A JSON array of one counter of every class, summed over arenas.
struct PerClass<'a>(&'a Totals, fn(&slice_alloc::ClassStats) -> u64);

impl fmt::Display for PerClass<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('[')?;
        for class in 0..CLASS_COUNT {
            if class > 0 {
                f.write_char(',')?;
            }
            write!(f, "{}", (self.1)(&self.0.classes[class]))?;
        }
        f.write_char(']')
    }
}

/// The executable's path, read into `buf`.
fn exe(buf: &mut [u8; 1024]) -> &[u8] {
    // SAFETY: buf is writable for its length; readlink does not NUL-terminate.
    let n = unsafe {
        libc::readlink(
            c"/proc/self/exe".as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    &buf[..n.max(0) as usize]
}

fn format(line: &mut Line, stats: &Totals, served: bool, forked: bool) -> fmt::Result {
    let mut exe_buf = [0u8; 1024];
    // SAFETY: getpid and getppid cannot fail.
    let (pid, ppid) = unsafe { (libc::getpid(), libc::getppid()) };
    write!(
        line,
        "{{\"pid\":{pid},\"ppid\":{ppid},\"exe\":{},\"served\":{served},\"forked\":{forked},",
        JsonBytes(exe(&mut exe_buf))
    )?;
    if served {
        write!(line, "\"policy\":\"{}\",", stats.policy)?;
    } else {
        line.write_str("\"policy\":null,")?;
    }
    let total =
        |f: fn(&slice_alloc::ClassStats) -> u64| -> u64 { stats.classes.iter().map(f).sum() };
    let fb = &stats.fallbacks;
    write!(
        line,
        "\"reservation_bytes\":{},\"slice_bytes\":{},\"arenas_claimed\":{},\
         \"small_requests\":{},\"reuses\":{},\"remote_frees\":{},\"remote_drained\":{},\"slow_paths\":{},\
         \"switches\":{},\"advice_errors\":{},\
         \"fallbacks\":{{\"zero_size\":{},\"too_large\":{},\"over_aligned\":{},\
         \"slice_exhausted\":{},\"no_arena\":{},\"no_reservation\":{},\"total\":{}}},",
        stats.reservation_bytes,
        stats.slice_bytes,
        stats.arenas_claimed,
        total(|c| c.allocs),
        total(|c| c.reuses),
        total(|c| c.remote_frees),
        total(|c| c.remote_drained),
        total(|c| c.slow_paths),
        total(|c| c.switches),
        stats.advice_errors,
        fb.zero_size,
        fb.too_large,
        fb.over_aligned,
        fb.slice_exhausted,
        fb.no_arena,
        fb.no_reservation,
        fb.total(),
    )?;
    write!(
        line,
        "\"class_allocs\":{},\"class_carved_bytes\":{},\"class_switches\":{}}}",
        PerClass(stats, |c| c.allocs),
        PerClass(stats, |c| c.carved_bytes),
        PerClass(stats, |c| c.switches),
    )
}
