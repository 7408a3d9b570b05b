//! `CHECKBENCH_SLICE_BUILD_INFO`: the library's answer to compare's question of what it was built
//! from, as a child binary answers `--build-info`. With the variable set, the library writes its
//! build (revision, source digest, profile; the JSON of compare's `BuildInfo`, from
//! compare/build_info.rs) as one line to standard output when it is loaded, and the process
//! exits 0 before its program runs: **a library is never measured stale**, since compare asks it
//! before the first run and refuses a debug build or one from other sources than its own.

/// The variable that asks the library for its build.
const ASK_ENV: &std::ffi::CStr = c"CHECKBENCH_SLICE_BUILD_INFO";
/// The answer, with its newline.
const ANSWER: &str = concat!(env!("COMPARE_BUILD_INFO"), "\n");

/// Answers and exits if the variable asks; else returns at once.
pub(crate) fn answer_if_asked() {
    // SAFETY: a NUL-terminated name; getenv only reads the environment.
    if unsafe { libc::getenv(ASK_ENV.as_ptr()) }.is_null() {
        return;
    }
    // SAFETY: ANSWER is valid for its length; fd 1 is the process's standard output, and
    // _exit ends the process without running the program or any exit handler.
    unsafe {
        let written = libc::write(1, ANSWER.as_ptr().cast(), ANSWER.len());
        libc::_exit(if written == ANSWER.len() as isize {
            0
        } else {
            1
        });
    }
}
