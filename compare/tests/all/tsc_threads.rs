//! The tsc workload in the slice allocator's child: one program, N checker threads, each with
//! an arena of its own, and at 1 checker a single arena for the whole run. Runs TypeScript
//! itself, fetching typescript@6.0.3 into `CHECKBENCH_CACHE` once when it is missing.
use std::path::Path;
use std::process::Command;

use workload::report::RunReport;

/// Runs the slice child; `fetch` lets it fetch typescript@6.0.3 into the cache first, which
/// reads npm's output on threads of their own (an arena each), so measured runs never fetch,
/// as compare's children never do.
fn slice_child(dir: &Path, checkers: u32, fetch: bool) -> RunReport {
    let output = Command::new(env!("CARGO_BIN_EXE_checkbench-slice"))
        .env("CHECKBENCH_SLICE", "nohuge")
        .args(["--workload", "tsc", "--json", "--checkers"])
        .arg(checkers.to_string())
        .arg("--corpus")
        .arg(dir)
        .args(if fetch { None } else { Some("--no-fetch") })
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_tsc_run_takes_one_arena_at_one_checker_and_one_per_checker_at_three() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        (
            "a.ts",
            "export interface A { a: number }\nexport const a: A = { a: 1 };\n",
        ),
        (
            "b.ts",
            "import { a } from './a';\nexport const b: string = a.a;\n",
        ),
        (
            "c.ts",
            "import { b } from './b';\nexport const c = [b, b].map((s) => s.length);\n",
        ),
        ("d.ts", "export class D { d(): number { return 1; } }\n"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    slice_child(dir.path(), 1, true);
    let one = slice_child(dir.path(), 1, false);
    let three = slice_child(dir.path(), 3, false);
    let arenas = |r: &RunReport| r.allocator.slice.as_ref().unwrap().arenas_claimed;
    assert_eq!(
        arenas(&one),
        1,
        "corpus, program and checker from one thread's slices"
    );
    assert_eq!(
        arenas(&three),
        3,
        "the program spread over the three checkers' threads, and each checker's own work"
    );
    assert_eq!(three.digest, one.digest);
    assert_eq!(
        three.settings.get("collect").map(String::as_str),
        Some("handback"),
        "the collection setting is reported"
    );
    assert_eq!(
        three.settings.get("parse").map(String::as_str),
        Some("spread"),
        "so is where the program was parsed"
    );
    assert_eq!(
        one.counts.diagnostics, 1,
        "b.ts assigns a number to a string"
    );
}
