//! fork: the child inherits a consistent heap while other threads of the parent allocate.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::thread;

use crate::{from_slice, in_child, line_of, number, run_preloaded};

/// Allocates and frees in a loop until `stop`.
fn churn(stop: Arc<AtomicBool>) {
    let mut i = 0usize;
    while !stop.load(Relaxed) {
        let n = 1 + i % 700;
        // SAFETY: a fresh block of n bytes, written within n and freed once.
        unsafe {
            let p = crate::c::malloc(n);
            p.cast::<u8>().write(1);
            crate::c::free(p);
        }
        i += 1;
    }
}

#[test]
fn a_forked_child_allocates_frees_and_starts_threads_while_the_parent_churns() {
    if in_child() {
        let stop = Arc::new(AtomicBool::new(false));
        let churners: Vec<_> = (0..3)
            .map(|_| {
                let stop = Arc::clone(&stop);
                thread::spawn(move || churn(stop))
            })
            .collect();
        // Blocks of the parent, freed by the child.
        let inherited: Vec<usize> = (0..1000)
            // SAFETY: malloc of 48 bytes.
            .map(|_| unsafe { crate::c::malloc(48) } as usize)
            .collect();
        for _ in 0..4 {
            // SAFETY: fork in a multi-threaded process; the child only allocates, frees, starts a
            // thread and exits, which is what the library promises to survive.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                for &p in &inherited {
                    // SAFETY: the child's copy of a live block of the parent, freed once here.
                    unsafe { crate::c::free(p as *mut libc::c_void) };
                }
                let worker = thread::spawn(|| {
                    let stop = Arc::new(AtomicBool::new(false));
                    let flag = Arc::clone(&stop);
                    let h = thread::spawn(move || churn(flag));
                    // SAFETY: malloc of 100 bytes, freed below.
                    let p = unsafe { crate::c::malloc(100) };
                    // SAFETY: p is live until the free, which happens once.
                    let ok = unsafe { from_slice(p) };
                    // SAFETY: freed once.
                    unsafe { crate::c::free(p) };
                    stop.store(true, Relaxed);
                    h.join().is_ok() && ok
                });
                let ok = worker.join().unwrap_or(false);
                // SAFETY: exit runs the library's exit hook, which writes the child's line.
                unsafe { libc::exit(if ok { 0 } else { 3 }) };
            }
            let mut status = 0;
            // SAFETY: waits for our own child.
            assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
            assert!(
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                "child status {status}"
            );
        }
        stop.store(true, Relaxed);
        for h in churners {
            h.join().expect("a churning thread");
        }
        for p in inherited {
            // SAFETY: the parent's blocks, freed once in the parent.
            unsafe { crate::c::free(p as *mut libc::c_void) };
        }
        return;
    }
    let lines = run_preloaded(
        "fork::a_forked_child_allocates_frees_and_starts_threads_while_the_parent_churns",
        "hybrid",
    );
    let parent = crate::child_line(&lines);
    let parent_pid = number(parent, "pid");
    let children: Vec<_> = lines
        .iter()
        .filter(|l| l.contains(&format!(",\"ppid\":{parent_pid},")))
        .collect();
    assert_eq!(children.len(), 4, "one line per forked child: {lines:?}");
    for child in children {
        let pid = number(child, "pid") as u32;
        assert!(number(line_of(&lines, pid), "small_requests") > 0);
    }
}

#[test]
fn a_forked_child_s_line_is_marked_forked_and_counts_only_its_own_requests() {
    if in_child() {
        // Requests of the parent before the fork: 20,000 small blocks, kept.
        let kept: Vec<usize> = (0..20_000)
            // SAFETY: malloc of 32 bytes.
            .map(|_| unsafe { crate::c::malloc(32) } as usize)
            .collect();
        // SAFETY: fork in a single-threaded test child; the child only allocates and exits.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            for _ in 0..100 {
                // SAFETY: malloc of 48 bytes, freed at once.
                unsafe { crate::c::free(crate::c::malloc(48)) };
            }
            // SAFETY: exit runs the library's exit hook, which writes the child's line.
            unsafe { libc::exit(0) };
        }
        let mut status = 0;
        // SAFETY: waits for our own child.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
        for p in kept {
            // SAFETY: the parent's blocks, freed once.
            unsafe { crate::c::free(p as *mut libc::c_void) };
        }
        return;
    }
    let lines = run_preloaded(
        "fork::a_forked_child_s_line_is_marked_forked_and_counts_only_its_own_requests",
        "hybrid",
    );
    let parent = crate::child_line(&lines);
    assert_eq!(crate::field(parent, "forked"), "false", "{parent}");
    assert!(number(parent, "small_requests") >= 20_000, "{parent}");
    let parent_pid = number(parent, "pid");
    let child = lines
        .iter()
        .find(|l| l.contains(&format!(",\"ppid\":{parent_pid},")))
        .expect("the forked child's line");
    assert_eq!(crate::field(child, "forked"), "true", "{child}");
    let small = number(child, "small_requests");
    assert!((100..20_000).contains(&small), "{child}");
    assert_eq!(crate::field(child, "served"), "true", "{child}");
}
