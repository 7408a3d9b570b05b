//! The `checker` binary: the entry point compare runs in each child.
use std::path::PathBuf;
use std::process::Command;

use workload::RunReport;

fn temp_corpus(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("checker-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn json_output_is_a_full_report_from_the_slice_allocator() {
    let dir = temp_corpus(
        "ok",
        &[
            (
                "src/a.ts",
                "import { b } from './b';\nconst n: number = b;\n",
            ),
            ("src/b.ts", "export const b = 'x';\n"),
        ],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_checker"))
        .args([
            "--corpus",
            dir.to_str().unwrap(),
            "--checkers",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: RunReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r.checkers, 2);
    assert_eq!(r.counts.diagnostics_by_code.get("TS2322"), Some(&1));
    assert_eq!(r.allocator.name, "slice");
    if let Some(s) = &r.allocator.slice {
        assert_eq!(s.classes.len(), 32);
        assert!(s.classes.iter().map(|c| c.allocs).sum::<u64>() > 0);
    }
    assert!(r.process.vm_hwm_kib > 0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_directory_without_sources_fails_with_a_message_naming_it() {
    let dir = temp_corpus("empty", &[("notes.md", "# nothing to check\n")]);
    let out = Command::new(env!("CARGO_BIN_EXE_checker"))
        .args(["--corpus", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(dir.to_str().unwrap()), "{err}");
    assert!(out.stdout.is_empty(), "nothing half-written on stdout");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn zero_checkers_is_rejected_at_the_command_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_checker"))
        .args(["--checkers", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--checkers"));
}

#[test]
fn threads_refused_under_an_address_space_limit_name_their_512_mib_stacks_and_the_limit() {
    use std::os::unix::process::CommandExt;
    let kib: u64 = 3_000_000;
    let mut command = Command::new(env!("CARGO_BIN_EXE_checker"));
    command.args(["--corpus", "synthetic@64KiB", "--checkers", "8"]);
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: kib * 1024,
                rlim_max: libc::RLIM_INFINITY,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        })
    };
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("8 checker): "), "{err}");
    assert!(err.contains(" x 512 MiB stacks = "), "{err}");
    assert!(err.contains("over `ulimit -v 3000000`"), "{err}");
    assert!(err.contains("use fewer checkers"), "{err}");
}

#[test]
fn with_no_fetch_an_uncached_corpus_fails_without_asking_npm() {
    let cache = temp_corpus("no-fetch-cache", &[]);
    let marker = cache.with_extension("npm-called");
    let _ = std::fs::remove_file(&marker);
    let npm = cache.with_extension("npm");
    std::fs::write(
        &npm,
        format!("#!/bin/sh\ntouch {}\nexit 1\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&npm, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_checker"))
        .args(["--corpus", "trpc", "--json", "--no-fetch", "--cache-dir"])
        .arg(&cache)
        .env(corpora::NPM_ENV, &npm)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("corpus `trpc` is not cached"), "{err}");
    assert!(!marker.exists(), "npm was asked");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_closed_standard_output_is_an_error_not_a_panic() {
    let dir = temp_corpus("closed-stdout", &[("src/a.ts", "const n: number = 'x';\n")]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_checker"))
        .args(["--corpus", dir.to_str().unwrap(), "--diagnostics"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // `checker ... | head -0`: the reader is gone before the checker writes.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error: printing"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}
