//! Local directories: what is taken, and each odd file's fate.

use std::fs;

use corpora::{Error, MAX_FILE_BYTES, OpenOptions, read_dir};

fn paths(dir: &std::path::Path) -> Vec<String> {
    read_dir(dir).unwrap().into_iter().map(|f| f.path).collect()
}

#[test]
fn sources_are_taken_at_any_depth_and_node_modules_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::create_dir_all(d.join("src/deep")).unwrap();
    fs::create_dir_all(d.join("node_modules/dep")).unwrap();
    fs::create_dir_all(d.join(".git")).unwrap();
    for f in [
        "src/a.ts",
        "src/deep/b.tsx",
        "types.d.ts",
        "x.mjs",
        "y.cts",
        "node_modules/dep/index.ts",
        ".git/hook.js",
    ] {
        fs::write(d.join(f), b"export {};\n").unwrap();
    }
    fs::write(d.join("README.md"), b"# no\n").unwrap();
    assert_eq!(
        paths(d),
        vec!["src/a.ts", "src/deep/b.tsx", "types.d.ts", "x.mjs", "y.cts"]
    );
}

#[test]
fn empty_and_invalid_utf8_files_are_kept_as_they_are() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("empty.ts"), b"").unwrap();
    fs::write(tmp.path().join("latin1.ts"), b"const s = '\xe9t\xe9';\n").unwrap();
    let files = read_dir(tmp.path()).unwrap();
    assert_eq!(files.len(), 2);
    assert!(files[0].bytes.is_empty());
    assert_eq!(files[1].bytes, b"const s = '\xe9t\xe9';\n");
}

#[test]
fn a_binary_file_is_kept_for_the_checker_to_report() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("ok.ts"), b"export {};\n").unwrap();
    fs::write(tmp.path().join("blob.ts"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let files = read_dir(tmp.path()).unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["blob.ts", "ok.ts"]);
    assert_eq!(files[0].bytes, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
}

#[test]
fn a_50_mb_file_is_refused_without_being_read() {
    let tmp = tempfile::tempdir().unwrap();
    let big = fs::File::create(tmp.path().join("huge.ts")).unwrap();
    big.set_len(50_000_000).unwrap(); // sparse: costs no disk, and would read as NULs
    const { assert!(50_000_000 > MAX_FILE_BYTES) };
    let err = read_dir(tmp.path()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                size: 50_000_000,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("huge.ts"), "{err}");
}

#[test]
fn a_path_that_does_not_exist_is_an_error_naming_it() {
    let err = read_dir(std::path::Path::new("/no/such/corpus/dir")).unwrap_err();
    assert!(matches!(err, Error::NoSuchDir(_)), "{err}");
    assert!(err.to_string().contains("/no/such/corpus/dir"), "{err}");
}

#[test]
fn a_file_is_not_a_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a.ts");
    fs::write(&file, b"export {};\n").unwrap();
    assert!(matches!(read_dir(&file).unwrap_err(), Error::NotADir(_)));
}

#[test]
fn a_directory_without_sources_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("notes.txt"), b"hi\n").unwrap();
    fs::create_dir(tmp.path().join("node_modules")).unwrap();
    fs::write(tmp.path().join("node_modules/x.ts"), b"export {};\n").unwrap();
    let err = read_dir(tmp.path()).unwrap_err();
    assert!(matches!(err, Error::NoSources(_)), "{err}");
}

#[test]
fn a_local_corpus_without_a_cached_standard_library_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proj");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("a.ts"), b"export {};\n").unwrap();
    let opts = OpenOptions {
        cache_dir: Some(tmp.path().join("empty-cache")),
        fetch: false,
        progress: false,
    };
    let err = corpora::open(dir.to_str().unwrap(), &opts).unwrap_err();
    assert!(matches!(err, Error::LibUnavailable { .. }), "{err}");
    assert!(err.to_string().contains("standard library"), "{err}");
}

#[test]
fn an_unknown_name_lists_the_known_ones() {
    let err = corpora::open("no-such-corpus", &OpenOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Unknown(_)), "{err}");
    assert!(err.to_string().contains("typeorm"), "{err}");
}
