//! The operating system underneath: the reservation and the page advice.

use crate::HUGE_PAGE;

/// Advice given to a range of the reservation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Advice {
    /// `MADV_NOHUGEPAGE`: small pages only.
    NoHuge,
    /// `MADV_HUGEPAGE`: 2 MiB pages where the fault lands in an aligned, free 2 MiB range.
    Huge,
    /// `MADV_POPULATE_WRITE`: fault every page in now, writable.
    PopulateWrite,
    /// `MADV_COLLAPSE`: replace the small pages with huge pages now.
    Collapse,
}

/// Maps `len` bytes of read/write, private, anonymous, no-reserve memory starting at a 2 MiB
/// boundary (over-mapping by 2 MiB and trimming head and tail). Returns the start, or the errno.
#[cfg(unix)]
pub(crate) fn reserve(len: usize) -> Result<usize, i32> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const NORESERVE: libc::c_int = libc::MAP_NORESERVE;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const NORESERVE: libc::c_int = 0;

    let padded = len.checked_add(HUGE_PAGE).ok_or(libc::ENOMEM)?;
    // SAFETY: an anonymous mapping at an address of the kernel's choosing touches no existing
    // memory; the result is checked before use.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            padded,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | NORESERVE,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::ENOMEM));
    }
    let raw = raw as usize;
    let start = raw.next_multiple_of(HUGE_PAGE);
    let head = start - raw;
    let tail = padded - head - len;
    // SAFETY: [raw, start) and [start + len, raw + padded) lie inside the mapping just made and
    // outside the range handed out; nothing refers to them.
    unsafe {
        if head > 0 {
            libc::munmap(raw as *mut libc::c_void, head);
        }
        if tail > 0 {
            libc::munmap((start + len) as *mut libc::c_void, tail);
        }
    }
    Ok(start)
}

/// How many bytes of address space a reservation may take: half of the soft address-space
/// limit (`RLIMIT_AS`, `ulimit -v`), so that the other half stays for everything the
/// reservation does not serve (the system allocator's large blocks, thread stacks, the program
/// itself); `usize::MAX` without a limit. Without this headroom a reservation that just fits
/// leaves the process a few hundred MiB, and its first large request fails (an abort at some
/// limits and not at others).
#[cfg(unix)]
pub(crate) fn reservation_budget() -> usize {
    // SAFETY: rlimit is plain data, valid when zeroed.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: limit is a valid, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return usize::MAX;
    }
    usize::try_from(limit.rlim_cur / 2).unwrap_or(usize::MAX)
}

/// Without an address-space limit, any reservation may be tried.
#[cfg(not(unix))]
pub(crate) fn reservation_budget() -> usize {
    usize::MAX
}

/// Without mmap there is no reservation; every request goes to the system allocator.
#[cfg(not(unix))]
pub(crate) fn reserve(_len: usize) -> Result<usize, i32> {
    Err(0)
}

/// Unmaps a reservation.
///
/// # Safety
/// `[start, start + len)` must be a reservation made by [`reserve`] that nothing uses any more.
#[cfg(unix)]
pub(crate) unsafe fn release(start: usize, len: usize) {
    // SAFETY: the caller hands over the whole range.
    unsafe { libc::munmap(start as *mut libc::c_void, len) };
}

/// Unmaps a reservation (nothing to do without mmap).
///
/// # Safety
/// None; kept `unsafe` to match the unix signature.
#[cfg(not(unix))]
pub(crate) unsafe fn release(_start: usize, _len: usize) {}

/// Gives `advice` for `[start, start + len)`; `false` when the kernel refused it.
/// A no-op that succeeds off Linux, where the slice has one limit.
#[cfg(target_os = "linux")]
pub(crate) fn advise(start: usize, len: usize, advice: Advice) -> bool {
    /// Not in every libc release; the value is the kernel's (5.14+).
    const MADV_POPULATE_WRITE: libc::c_int = 23;
    /// Not in every libc release; the value is the kernel's (6.1+).
    const MADV_COLLAPSE: libc::c_int = 25;
    if len == 0 {
        return true;
    }
    let code = match advice {
        Advice::NoHuge => libc::MADV_NOHUGEPAGE,
        Advice::Huge => libc::MADV_HUGEPAGE,
        Advice::PopulateWrite => MADV_POPULATE_WRITE,
        Advice::Collapse => MADV_COLLAPSE,
    };
    // SAFETY: the range lies inside a reservation of ours; these advices change page-size
    // preferences or fault pages in, never the contents the program sees.
    unsafe { libc::madvise(start as *mut libc::c_void, len, code) == 0 }
}

/// Gives `advice` (a no-op off Linux).
#[cfg(not(target_os = "linux"))]
pub(crate) fn advise(_start: usize, _len: usize, _advice: Advice) -> bool {
    true
}

/// Whether the slow path raises a hybrid slice's limit in two steps: only where the advice
/// exists.
pub(crate) const TWO_STEP_LIMITS: bool = cfg!(target_os = "linux");

/// Minor page faults of the calling thread so far (of the process off Linux; 0 without
/// getrusage).
#[cfg(unix)]
pub fn minor_faults() -> u64 {
    #[cfg(target_os = "linux")]
    const WHO: libc::c_int = libc::RUSAGE_THREAD;
    #[cfg(not(target_os = "linux"))]
    const WHO: libc::c_int = libc::RUSAGE_SELF;
    // SAFETY: rusage is plain data, valid when zeroed.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: usage is a valid, writable rusage.
    if unsafe { libc::getrusage(WHO, &mut usage) } == 0 {
        usage.ru_minflt as u64
    } else {
        0
    }
}

/// Minor page faults (not measurable here).
#[cfg(not(unix))]
pub fn minor_faults() -> u64 {
    0
}
