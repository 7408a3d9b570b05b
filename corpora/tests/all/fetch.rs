//! Fetching: verify before unpacking, select, rebuild from maps, cache in one step.

use corpora::{Error, Npm, corpus_dir, fetch_plan, read_manifest, verify_integrity};

use crate::fixture::{self, PACKAGE, cache_entries, default_tarball, integrity, npm_serving, plan};

fn cached_paths(root: &std::path::Path, name: &str) -> Vec<String> {
    read_manifest(root, name)
        .unwrap()
        .expect("manifest")
        .files
        .into_iter()
        .map(|f| f.path)
        .collect()
}

#[test]
fn a_verified_tarball_is_unpacked_selected_and_cached() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = default_tarball();
    let npm = npm_serving(tmp.path(), &tgz);
    let root = tmp.path().join("cache");
    let manifest = fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap();
    assert_eq!(manifest.packages[0].tarball_bytes, tgz.len() as u64);
    // Authored files, then map sources resolved inside the corpus; md, css and js left out.
    assert_eq!(
        cached_paths(&root, "fixture"),
        vec![
            "etc/escape.ts",
            "lib/ns.ts",
            "pkg/src/mapped.ts",
            "src/a.ts",
            "src/sub/b.ts"
        ]
    );
    let files = corpus_dir(&root, "fixture").join("files");
    assert_eq!(
        std::fs::read(files.join("src/a.ts")).unwrap(),
        b"export const a: number = 1;\n"
    );
    assert_eq!(
        std::fs::read(files.join("lib/ns.ts")).unwrap(),
        b"export const n = 2;\n"
    );
    assert!(
        !tmp.path().join("etc").exists(),
        "a map path escaped the corpus"
    );
    assert_eq!(
        cache_entries(&root),
        vec!["fixture"],
        "temporary directories left behind"
    );
}

#[test]
fn verify_accepts_the_right_checksum_and_refuses_a_wrong_one() {
    let tgz = default_tarball();
    assert!(verify_integrity(PACKAGE, &integrity(&tgz), &tgz).is_ok());
    let err = verify_integrity(PACKAGE, &integrity(b"other bytes"), &tgz).unwrap_err();
    assert!(matches!(err, Error::Checksum { .. }), "{err}");
    assert!(err.to_string().contains(PACKAGE), "{err}");
    let err = verify_integrity(PACKAGE, "sha1-abc", &tgz).unwrap_err();
    assert!(matches!(err, Error::BadIntegrity { .. }), "{err}");
}

#[test]
fn a_checksum_mismatch_leaves_the_cache_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = default_tarball();
    let npm = npm_serving(tmp.path(), &tgz);
    let root = tmp.path().join("cache");
    // A complete earlier corpus of the same name must survive a failed fetch.
    fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap();
    let before = std::fs::read(corpus_dir(&root, "fixture").join("manifest.json")).unwrap();
    let err = fetch_plan(&plan("fixture", integrity(b"tampered")), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::Checksum { .. }), "{err}");
    assert!(err.to_string().contains("@fixture/pkg@1.0.0"), "{err}");
    let after = std::fs::read(corpus_dir(&root, "fixture").join("manifest.json")).unwrap();
    assert_eq!(before, after);
    assert_eq!(cache_entries(&root), vec!["fixture"]);
}

#[test]
fn a_truncated_tarball_fails_its_checksum_before_unpacking() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = default_tarball();
    let npm = npm_serving(tmp.path(), &tgz[..tgz.len() / 2]);
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::Checksum { .. }), "{err}");
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn a_truncated_tarball_that_matches_its_pin_is_reported_corrupt() {
    // A bad publish: the pin matches, the archive does not hold together.
    for cut in [10, 200] {
        let tmp = tempfile::tempdir().unwrap();
        let tgz = default_tarball();
        let short = &tgz[..tgz.len() - cut];
        let npm = npm_serving(tmp.path(), short);
        let root = tmp.path().join("cache");
        let err = fetch_plan(&plan("fixture", integrity(short)), &root, &npm, false).unwrap_err();
        assert!(matches!(err, Error::Tarball { .. }), "cut {cut}: {err}");
        assert!(err.to_string().contains("@fixture/pkg@1.0.0"), "{err}");
        assert!(cache_entries(&root).is_empty());
    }
}

#[test]
fn a_corrupt_tarball_is_reported_with_its_package() {
    let tmp = tempfile::tempdir().unwrap();
    let garbage = b"this is not gzip at all".repeat(20);
    let npm = npm_serving(tmp.path(), &garbage);
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(&garbage)), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::Tarball { .. }), "{err}");
    assert!(err.to_string().contains("@fixture/pkg"), "{err}");
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn a_source_map_with_broken_json_names_the_map_and_package() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = fixture::tarball(&[
        ("src/a.ts", b"export {};\n"),
        (
            "dist/broken.js.map",
            b"{\"version\":3,\"sources\":[\"a.ts\"",
        ),
    ]);
    let npm = npm_serving(tmp.path(), &tgz);
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::SourceMap { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("dist/broken.js.map") && msg.contains("@fixture/pkg"),
        "{msg}"
    );
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn a_selection_that_matches_nothing_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = fixture::tarball(&[("README.md", b"# nothing to take\n")]);
    let npm = npm_serving(tmp.path(), &tgz);
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::EmptySelection { .. }), "{err}");
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn an_incomplete_corpus_directory_is_replaced_by_a_fetch() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let stale = corpus_dir(&root, "fixture").join("files");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("half-written.ts"), b"export const x =").unwrap();
    assert!(
        read_manifest(&root, "fixture").unwrap().is_none(),
        "no manifest, not cached"
    );
    let tgz = default_tarball();
    let npm = npm_serving(tmp.path(), &tgz);
    fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap();
    assert!(!stale.join("half-written.ts").exists());
    assert_eq!(cache_entries(&root), vec!["fixture"]);
}

#[test]
fn npm_missing_is_an_error_naming_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let npm = Npm {
        program: tmp.path().join("no-such-npm").into(),
    };
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(b"x")), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::NpmMissing { .. }), "{err}");
    assert!(err.to_string().contains("@fixture/pkg@1.0.0"), "{err}");
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn a_failing_npm_command_reports_its_stderr_and_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let program = fixture::script(
        tmp.path(),
        "echo 'npm error code E404' >&2\necho 'npm error 404 Not Found' >&2\nexit 1",
    );
    let npm = Npm {
        program: program.into(),
    };
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(b"x")), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::NpmFailed { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("@fixture/pkg@1.0.0") && msg.contains("E404"),
        "{msg}"
    );
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn npm_output_that_is_not_an_address_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let program = fixture::script(tmp.path(), "echo 'npm warn something odd'");
    let npm = Npm {
        program: program.into(),
    };
    let err = fetch_plan(
        &plan("fixture", integrity(b"x")),
        &tmp.path().join("c"),
        &npm,
        false,
    )
    .unwrap_err();
    assert!(matches!(err, Error::NpmOutput { .. }), "{err}");
}

#[test]
fn a_refused_download_falls_back_to_npm_pack() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = default_tarball();
    let packed = tmp.path().join("packed.tgz");
    std::fs::write(&packed, &tgz).unwrap();
    let body = format!(
        "case \"$1\" in\n view) echo 'file:///nonexistent/pkg.tgz';;\n pack) cp '{}' \"$4/fixture-pkg-1.0.0.tgz\"; echo fixture-pkg-1.0.0.tgz;;\nesac",
        packed.display()
    );
    let npm = Npm {
        program: fixture::script(tmp.path(), &body).into(),
    };
    let root = tmp.path().join("cache");
    let manifest = fetch_plan(&plan("fixture", integrity(&tgz)), &root, &npm, false).unwrap();
    assert_eq!(manifest.packages[0].source, "npm pack");
}

#[test]
fn a_failed_download_and_failed_pack_name_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    let body = "case \"$1\" in\n view) echo 'file:///nonexistent/pkg.tgz';;\n pack) echo 'pack refused' >&2; exit 1;;\nesac";
    let npm = Npm {
        program: fixture::script(tmp.path(), body).into(),
    };
    let root = tmp.path().join("cache");
    let err = fetch_plan(&plan("fixture", integrity(b"x")), &root, &npm, false).unwrap_err();
    assert!(matches!(err, Error::Download { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("@fixture/pkg@1.0.0") && msg.contains("pack refused"),
        "{msg}"
    );
    assert!(cache_entries(&root).is_empty());
}

#[test]
fn a_tarball_entry_that_climbs_out_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (name, body) in [
        ("package/src/ok.ts", &b"export {};\n"[..]),
        ("package/src/../../../evil.ts", b"pwned\n"),
    ] {
        let mut header = tar::Header::new_gnu();
        // Written raw: the tar crate refuses to set such a path itself.
        header.as_gnu_mut().unwrap().name[..name.len()].copy_from_slice(name.as_bytes());
        header.set_size(body.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append(&header, body).unwrap();
    }
    let tgz = tar.into_inner().unwrap().finish().unwrap();
    let npm = npm_serving(tmp.path(), &tgz);
    let root = tmp.path().join("cache");
    let mut only_files = plan("fixture", integrity(&tgz));
    only_files.packages[0].0.take = &fixture::TAKE[..1];
    fetch_plan(&only_files, &root, &npm, false).unwrap();
    assert_eq!(cached_paths(&root, "fixture"), vec!["src/ok.ts"]);
    assert!(!tmp.path().join("evil.ts").exists() && !root.join("evil.ts").exists());
}
