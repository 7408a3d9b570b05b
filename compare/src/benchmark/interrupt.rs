//! Ctrl-C, SIGTERM and SIGHUP, from a bake-off's first step to its last write.
//!
//! **A signal never ends compare by itself**: the handler only records which signal came.
//! The bake-off looks between its steps (building the children, the fault cost probe, every
//! run) and the run in flight polls it; then compare keeps every finished run, releases the
//! results lock, prints the table and how to resume, and exits as a shell reports a process
//! the signal killed: 128 plus the signal's number (130 for Ctrl-C, 143 for SIGTERM).
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Which stopping signal came, once one has.
#[derive(Debug)]
pub struct Interrupt {
    stop: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers: from now on these signals are recorded, not obeyed.
    pub fn install() -> io::Result<Interrupt> {
        let interrupt = Interrupt {
            stop: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicUsize::new(0)),
        };
        for signal in SIGNALS {
            signal_hook::flag::register_usize(
                signal,
                Arc::clone(&interrupt.signal),
                signal as usize,
            )?;
            signal_hook::flag::register(signal, Arc::clone(&interrupt.stop))?;
        }
        Ok(interrupt)
    }

    /// Set once a signal has come: what a run in flight polls.
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    pub fn requested(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The exit status that reports the signal: 128 plus its number.
    pub fn exit_code(&self) -> u8 {
        let signal = match self.signal.load(Ordering::SeqCst) {
            0 => libc::SIGINT as usize,
            n => n,
        };
        u8::try_from(128 + signal).unwrap_or(u8::MAX)
    }
}
