//! What happens around the requests: the constructor, fork, thread exit and process exit.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::*};

use slice_alloc::raw::{self, Hold};

use crate::stats_file;
use crate::thread::{EXITED, thread};

/// Runs when the library is loaded, after glibc's own initialisation (requests may have come
/// before it: nothing here is needed to serve them).
extern "C" fn on_load() {
    crate::build_info::answer_if_asked();
    stats_file::remember_path();
    // SAFETY: registers plain functions of this library, which stays loaded.
    unsafe { libc::pthread_atfork(Some(before_fork), None, Some(in_child)) };
}

#[used]
#[unsafe(link_section = ".init_array")]
static ON_LOAD: extern "C" fn() = on_load;

/// Runs at `exit` (from `_dl_fini`, after `atexit` handlers and thread-local destructors).
extern "C" fn on_exit() {
    stats_file::write();
}

#[used]
#[unsafe(link_section = ".fini_array")]
static ON_EXIT: extern "C" fn() = on_exit;

/// The `pthread_atfork` prepare handler: no child inherits a reservation being mapped. Nothing
/// else needs a handler (see [`raw::prepare_fork`]): the forking thread keeps its arena in the
/// child, whose TLS is a copy of the parent's.
extern "C" fn before_fork() {
    raw::prepare_fork();
}

/// The `pthread_atfork` child handler: the child's statistics line counts from here, so that
/// what the parent did before the fork is reported once, in the parent's own line.
extern "C" fn in_child() {
    // SAFETY: a child handler runs in the new child before fork returns, where the calling
    // thread is the only one.
    unsafe { stats_file::forked() };
}

/// The key whose destructor parks a thread's arena.
static KEY: AtomicU32 = AtomicU32::new(0);
/// [`KEY`] is: 0 not made, 1 being made, 2 made, 3 refused.
static KEY_STATE: AtomicU8 = AtomicU8::new(0);

/// Arranges for the calling thread's arena to be parked at its exit; `false` if it cannot be
/// (then the thread takes no arena). Called inside a claim: a request made from here (a
/// `pthread_setspecific` past the first 32 keys allocates) falls back to glibc.
pub(crate) fn park_at_thread_exit() -> bool {
    loop {
        match KEY_STATE.load(Acquire) {
            2 => break,
            3 => return false,
            0 if KEY_STATE.compare_exchange(0, 1, Acquire, Acquire).is_ok() => {
                let mut key: libc::pthread_key_t = 0;
                // SAFETY: key is writable; park is a plain function of this library.
                let made = unsafe { libc::pthread_key_create(&mut key, Some(park)) } == 0;
                KEY.store(key, Relaxed);
                KEY_STATE.store(if made { 2 } else { 3 }, Release);
            }
            _ => std::thread::yield_now(),
        }
    }
    // A non-null value makes glibc run the destructor at the thread's exit.
    let marker = std::ptr::NonNull::<c_void>::dangling().as_ptr();
    // SAFETY: KEY was made by pthread_key_create.
    unsafe { libc::pthread_setspecific(KEY.load(Relaxed), marker) == 0 }
}

/// The key's destructor, run by the exiting thread: parks its arena; later requests of the
/// thread (other destructors) fall back to glibc and its frees go to remote stacks.
extern "C" fn park(_: *mut c_void) {
    let t = thread();
    // SAFETY: the slot holds 0 or the bits of the hold this thread claimed.
    let hold = unsafe { Hold::from_bits(t.hold.replace(0)) };
    t.state.set(EXITED);
    // SAFETY: the thread held the arena and, EXITED, never uses it again.
    unsafe { raw::park(hold) };
}
