//! The engine allocates every object from the global allocator: no pooling of its own.
use tsc::{Engine, THREAD_STACK_BYTES};
use workload::report::SliceReport;

/// Small requests (1..=512 bytes) the slice allocator served or passed on so far.
fn small_requests() -> (u64, u64) {
    let stats = slice_alloc::stats().expect("the slice allocator serves this test binary");
    let report = SliceReport::from_stats(&stats);
    (report.small_requests, report.small_fallbacks)
}

#[test]
fn a_hundred_thousand_objects_are_a_hundred_thousand_small_requests_to_the_global_allocator() {
    // Other tests run at the same time on other threads, so only a lower bound is asserted.
    let engine = Engine::new().unwrap();
    let (before, fallbacks_before) = small_requests();
    let length = engine
        .eval(
            b"var kept = []; for (let i = 0; i < 100000; i++) kept.push({ i: i, s: 'x' + i }); kept.length",
            "objects.js",
        )
        .unwrap();
    let (after, fallbacks_after) = small_requests();
    assert_eq!(length, "100000");
    // Each iteration makes an object and a string: two small blocks at least. An engine that
    // carves small blocks from its own arenas asks for one block per arena (about 1 in 50).
    assert!(
        after - before >= 200_000,
        "100,000 objects and strings made only {} small requests",
        after - before
    );
    assert_eq!(
        fallbacks_after, fallbacks_before,
        "a small request of the engine bypassed the slice allocator"
    );
}

#[test]
fn a_javascript_exception_is_an_error_with_its_message_and_stack() {
    let engine = Engine::new().unwrap();
    let error = engine
        .eval(
            b"function f() { throw new TypeError('no such thing'); }\nf();",
            "throws.js",
        )
        .unwrap_err();
    assert!(error.contains("no such thing"), "{error}");
    assert!(
        error.contains("throws.js"),
        "the stack names the script: {error}"
    );
}

/// Runs `f` on a new thread with a checker thread's stack.
fn on_thread<R: Send>(name: &str, f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(THREAD_STACK_BYTES)
            .spawn_scoped(scope, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

#[test]
fn deep_recursion_on_a_thread_that_did_not_create_the_runtime_neither_overflows_nor_raises_a_false_range_error()
 {
    const DEEP: &[u8] =
        b"function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); } depth(50000)";
    let engine = on_thread("creator", || {
        let engine = Engine::new().unwrap();
        assert_eq!(engine.eval(DEEP, "deep.js").unwrap(), "50000");
        engine
    });
    // Each checker thread takes its turn on the runtime the first one made: the engine's stack
    // limit must be measured from the entering thread's stack, not the creator's.
    for turn in ["checker-1", "checker-2"] {
        on_thread(turn, || {
            assert_eq!(engine.eval(DEEP, "deep.js").unwrap(), "50000", "on {turn}");
            let error = engine
                .eval(
                    b"function forever(n) { return forever(n + 1) + 1; } forever(0)",
                    "forever.js",
                )
                .unwrap_err();
            assert!(
                error.contains("Maximum call stack size exceeded"),
                "unbounded recursion on {turn} is a RangeError, not a crash: {error}"
            );
        });
    }
    std::mem::forget(engine);
}
