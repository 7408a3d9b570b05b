//! The `corpora` binary: exit codes, messages on stderr, offline work from the cache.

use std::path::Path;
use std::process::{Command, Output};

use corpora::fetch_plan;

use crate::fixture::{
    self, TAKE_DECLARATIONS, cache_entries, default_tarball, integrity, npm_serving, plan,
    plan_taking, tarball,
};

/// Runs `corpora --cache-dir CACHE ARGS` with `PATH` emptied (no npm to be found) unless
/// `npm` names a program.
fn corpora(cache: &Path, npm: Option<&Path>, args: &[&str]) -> Output {
    let empty = cache.with_extension("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_corpora"));
    cmd.arg("--cache-dir")
        .arg(cache)
        .args(args)
        .env("PATH", &empty)
        .env_remove(corpora::NPM_ENV);
    if let Some(npm) = npm {
        cmd.env(corpora::NPM_ENV, npm);
    }
    cmd.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn fetch_without_npm_on_path_fails_naming_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let out = corpora(&cache, None, &["fetch", "trpc"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("@trpc/server@11.25.2") && err.contains("npm"),
        "{err}"
    );
    assert!(
        cache_entries(&cache).is_empty(),
        "{:?}",
        cache_entries(&cache)
    );
}

#[test]
fn fetch_with_a_failing_npm_fails_with_npm_s_words() {
    let tmp = tempfile::tempdir().unwrap();
    let npm = fixture::script(tmp.path(), "echo 'npm error code E404' >&2; exit 1");
    let cache = tmp.path().join("cache");
    let out = corpora(&cache, Some(&npm), &["fetch", "typeorm"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("typeorm@1.1.1") && err.contains("E404"),
        "{err}"
    );
    assert!(cache_entries(&cache).is_empty());
}

#[test]
fn stats_on_a_missing_directory_fails_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = corpora(&tmp.path().join("cache"), None, &["stats", "./no/such/dir"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no/such/dir"), "{}", stderr(&out));
}

#[test]
fn a_local_directory_without_npm_or_cached_lib_says_the_library_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proj");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("a.ts"), b"export {};\n").unwrap();
    let out = corpora(
        &tmp.path().join("cache"),
        None,
        &["stats", dir.to_str().unwrap()],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("standard library") && err.contains("typescript"),
        "{err}"
    );
}

#[test]
fn a_cached_corpus_opens_offline_and_is_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = default_tarball();
    let npm = npm_serving(tmp.path(), &tgz);
    let cache = tmp.path().join("cache");
    // Stand-ins for trpc and its standard library (a root file referencing one other, as
    // TypeScript's lib.es2022.full.d.ts does), cached as a fetch would.
    fetch_plan(&plan("trpc", integrity(&tgz)), &cache, &npm, false).unwrap();
    let lib_tgz = tarball(&[
        ("package.json", b"{\"name\":\"@fixture/lib\"}".as_slice()),
        (
            "src/lib.es2022.full.d.ts",
            b"/// <reference lib=\"es5\" />\ninterface Full {}\n",
        ),
        (
            "src/lib.es5.d.ts",
            b"interface Array<T> { length: number }\n",
        ),
        ("src/lib.esnext.d.ts", b"interface NotReferenced {}\n"),
    ]);
    let lib_dir = tmp.path().join("lib-npm");
    std::fs::create_dir_all(&lib_dir).unwrap();
    let lib_npm = npm_serving(&lib_dir, &lib_tgz);
    let lib_plan = plan_taking("lib", integrity(&lib_tgz), TAKE_DECLARATIONS);
    fetch_plan(&lib_plan, &cache, &lib_npm, false).unwrap();
    let out = corpora(&cache, None, &["list"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let trpc_line = text.lines().find(|l| l.starts_with("trpc ")).unwrap();
    assert!(
        trpc_line.contains("stale"),
        "cached from other pins: {trpc_line}"
    );
    let out = corpora(&cache, None, &["-q", "stats", "trpc"]);
    assert!(
        !out.status.success(),
        "a corpus cached from other pins was used"
    );
    for name in ["trpc", "lib"] {
        claim_real_pins(&cache, name);
    }
    let out = corpora(&cache, None, &["-q", "stats", "trpc"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("corpus trpc"), "{text}");
    let total: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(total[1], "5", "{text}");
    // The library is what its root reaches: lib.es2022.full.d.ts and lib.es5.d.ts.
    let lib: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("+ lib"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(lib[2], "2", "{text}");

    let out = corpora(&cache, None, &["-q", "path", "trpc"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(Path::new(&dir).join("src/a.ts").is_file(), "{dir}");

    let out = corpora(&cache, None, &["list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "trpc",
        "excalidraw",
        "typeorm",
        "playwright",
        "typescript",
        "declarations only",
        "rebuilt from source maps",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let trpc_line = text.lines().find(|l| l.starts_with("trpc ")).unwrap();
    assert!(trpc_line.contains("5 files"), "{trpc_line}");
    let typeorm_line = text.lines().find(|l| l.starts_with("typeorm ")).unwrap();
    assert!(typeorm_line.ends_with(" no"), "{typeorm_line}");
}

/// Rewrites the pins in a cached stand-in's manifest to the real ones, as if the real
/// packages had been fetched.
fn claim_real_pins(cache: &Path, name: &str) {
    let mut manifest = corpora::read_manifest(cache, name).unwrap().unwrap();
    let pins = corpora::corpus_def(name).unwrap().pins();
    manifest.packages = pins
        .into_iter()
        .map(|pin| corpora::PackageRecord {
            pin,
            ..manifest.packages[0].clone()
        })
        .collect();
    let path = corpora::corpus_dir(cache, name).join("manifest.json");
    std::fs::write(path, serde_json::to_vec(&manifest).unwrap()).unwrap();
}

#[test]
fn import_of_a_copy_that_differs_from_the_pin_exits_non_zero_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let copy = tmp.path().join("checkout");
    std::fs::create_dir_all(copy.join("packages")).unwrap();
    std::fs::write(copy.join("packages/a.ts"), "export const a = 1;\n").unwrap();
    let out = corpora(
        &cache,
        None,
        &["import", "playwright", "--from", copy.to_str().unwrap()],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("packages/a.ts is not in the pinned listing")
            && err.contains("nothing was cached"),
        "{err}"
    );
    assert!(
        !corpora::corpus_dir(&cache, "playwright").exists(),
        "{:?}",
        cache_entries(&cache)
    );
}

#[test]
fn import_of_an_npm_corpus_is_refused_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let out = corpora(
        &cache,
        None,
        &["import", "trpc", "--from", tmp.path().to_str().unwrap()],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("`trpc` is not taken from a git repository"),
        "{err}"
    );
}
