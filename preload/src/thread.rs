//! Each thread's slot: its arena and what it is doing, in initial-exec TLS.
//!
//! Not `thread_local!`: in a shared library that compiles to the general-dynamic model, whose
//! `__tls_get_addr` may call `malloc` (to grow the thread's DTV after a `dlopen` of a module with
//! TLS), which is this library. An initial-exec slot is one load relative to the thread pointer:
//! it never allocates and is valid from the first instruction of every thread, because the
//! library is loaded with the program (`LD_PRELOAD`) and its TLS is part of the static block
//! that glibc lays out before any code runs. The slot is zero-initialised: no arena, `ACTIVE`.

use std::arch::{asm, global_asm};
use std::cell::Cell;

/// May claim an arena.
pub(crate) const ACTIVE: usize = 0;
/// Inside a claim: a request made now (by the thread-exit registration) falls back.
pub(crate) const CLAIMING: usize = 1;
/// Inside the heap's slow path: a request made now is the heap's own system fallback.
pub(crate) const IN_SLOW: usize = 2;
/// Its arena is parked: it never claims again.
pub(crate) const EXITED: usize = 3;

/// The slot. Only its own thread reads or writes it.
#[repr(C)]
pub(crate) struct Thread {
    /// `Hold::to_bits` of the thread's arena; 0 for none.
    pub(crate) hold: Cell<usize>,
    /// [`ACTIVE`], [`CLAIMING`], [`IN_SLOW`] or [`EXITED`].
    pub(crate) state: Cell<usize>,
}

const _: () = assert!(size_of::<Thread>() == 16 && align_of::<Thread>() <= 16);

// The slot itself: 16 zero bytes in .tbss, hidden (the cdylib's version script keeps it local).
global_asm!(
    ".pushsection .tbss,\"awT\",@nobits",
    ".p2align 4",
    ".globl slice_preload_thread",
    ".hidden slice_preload_thread",
    ".type slice_preload_thread,@object",
    ".size slice_preload_thread,16",
    "slice_preload_thread:",
    ".zero 16",
    ".popsection",
);

/// The calling thread's slot. The reference must not outlive the call that took it (it is not
/// `Send`, so it cannot leave the thread).
#[inline(always)]
pub(crate) fn thread() -> &'static Thread {
    let slot: *const Thread;
    // SAFETY: the initial-exec sequence of the x86-64 ELF TLS ABI: %fs:0 holds the thread
    // pointer and the GOT entry (R_X86_64_TPOFF64, filled by the dynamic linker) the slot's offset
    // from it. Both are valid in every thread once the program runs; nothing is written.
    unsafe {
        asm!(
            "mov {slot}, qword ptr fs:[0]",
            "add {slot}, qword ptr [rip + slice_preload_thread@GOTTPOFF]",
            slot = out(reg) slot,
            options(pure, readonly, nostack),
        );
    }
    // SAFETY: the slot is 16 zero-initialised, 16-aligned bytes of this thread's static TLS, a
    // valid Thread (two Cells of usize), alive as long as the thread.
    unsafe { &*slot }
}
