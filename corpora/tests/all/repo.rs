//! Repository corpora: downloaded from an HTTP server on 127.0.0.1, imported from a directory,
//! an archive and a bare repository, each verified by its content digest before it is cached.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use corpora::repo::{
    RepoPin, RepoPlan, Selection, TYPESCRIPT_EXTENSIONS, content_digest, fetch_repo, import_repo,
    listing,
};
use corpora::{Error, Provenance, read_manifest};

use crate::fixture::cache_entries;

const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

const SELECTION: Selection = Selection {
    include: &["packages"],
    exclude: &["packages/*/lib"],
    extensions: TYPESCRIPT_EXTENSIONS,
};

/// The repository's tree: what the selection takes and what it leaves.
const TREE: &[(&str, &str)] = &[
    ("README.md", "# project\n"),
    ("top.ts", "export const outside = 1;\n"),
    ("packages/a/src/x.ts", "export const x: number = 1;\n"),
    (
        "packages/a/src/view.tsx",
        "import { x } from './x';\nexport const v = x;\n",
    ),
    ("packages/a/lib/built.ts", "export const built = 1;\n"),
    ("packages/a/package.json", "{}\n"),
    ("packages/b/types.d.ts", "export type T = string;\n"),
    ("packages/b/.hidden/h.ts", "export const h = 1;\n"),
];

/// The files the selection takes out of [`TREE`].
fn selected() -> BTreeMap<String, Vec<u8>> {
    [
        "packages/a/src/view.tsx",
        "packages/a/src/x.ts",
        "packages/b/types.d.ts",
    ]
    .iter()
    .map(|p| {
        let text = TREE.iter().find(|(path, _)| path == p).unwrap().1;
        (p.to_string(), text.as_bytes().to_vec())
    })
    .collect()
}

/// A plan pinning the selection of [`TREE`] at `commit`.
fn plan(commit: &str) -> RepoPlan {
    let files = selected();
    RepoPlan {
        name: "proj".to_string(),
        provenance: Provenance::AuthoredSource,
        pin: RepoPin {
            corpus: "proj".to_string(),
            repository: "github:example/proj".to_string(),
            commit: commit.to_string(),
            digest: content_digest(&files),
            what: "packages/**/*.ts".to_string(),
        },
        selection: SELECTION,
        listing: Some(listing(&files)),
    }
}

/// A `.tar.gz` of `tree` inside one top directory, as a host's archive of a commit is.
fn archive(tree: &[(&str, &str)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (path, text) in tree {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(
            &mut header,
            format!("proj-{COMMIT}/{path}"),
            text.as_bytes(),
        )
        .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

/// Writes `tree` under `dir`.
fn write_tree(dir: &Path, tree: &[(&str, &str)]) {
    for (path, text) in tree {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// Serves one GET on 127.0.0.1: a response announcing `body.len()` bytes of which the first
/// `sent` are sent before the connection closes. Returns the address of the archive.
fn serve(body: Vec<u8>, sent: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = Vec::new();
        let mut byte = [0u8; 1];
        while !request.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
            request.push(byte[0]);
        }
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(&body[..sent]);
        let _ = stream.flush();
    });
    format!("http://127.0.0.1:{port}/example/proj/archive/{COMMIT}.tar.gz")
}

fn cached_files(root: &Path) -> Vec<String> {
    read_manifest(root, "proj")
        .unwrap()
        .expect("a manifest")
        .files
        .into_iter()
        .map(|f| f.path)
        .collect()
}

/// `git` with a fixed identity, run in `dir`.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A work tree holding [`TREE`] committed once, and a bare clone of it; returns both and
/// the commit.
fn repository(dir: &Path) -> (PathBuf, PathBuf, String) {
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    write_tree(&work, TREE);
    git(&work, &["init", "-q"]);
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-q", "-m", "tree"]);
    let commit = git(&work, &["rev-parse", "HEAD"]);
    let bare = dir.join("bare.git");
    git(
        dir,
        &["clone", "-q", "--bare", work.to_str().unwrap(), "bare.git"],
    );
    (work, bare, commit)
}

#[test]
fn a_downloaded_archive_is_verified_selected_and_cached_with_its_address() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let tgz = archive(TREE);
    let url = serve(tgz.clone(), tgz.len());
    let manifest = fetch_repo(&plan(COMMIT), &root, &url, false).unwrap();
    assert_eq!(
        cached_files(&root),
        vec![
            "packages/a/src/view.tsx",
            "packages/a/src/x.ts",
            "packages/b/types.d.ts"
        ]
    );
    let record = manifest.repository.expect("a repository record");
    assert_eq!(record.source, url);
    assert_eq!(record.pin.commit, COMMIT);
    assert!(manifest.packages.is_empty());
    assert_eq!(
        cache_entries(&root),
        vec!["proj"],
        "working directories left"
    );
    let files = corpora::corpus_dir(&root, "proj").join("files");
    assert_eq!(
        std::fs::read_to_string(files.join("packages/a/src/x.ts")).unwrap(),
        "export const x: number = 1;\n"
    );
}

#[test]
fn an_interrupted_download_leaves_nothing_in_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let tgz = archive(TREE);
    let url = serve(tgz.clone(), tgz.len() / 2);
    let err = fetch_repo(&plan(COMMIT), &root, &url, false).unwrap_err();
    assert!(matches!(err, Error::ArchiveDownload { .. }), "{err}");
    assert!(err.to_string().contains(&url), "{err}");
    assert!(
        cache_entries(&root).is_empty(),
        "{:?}",
        cache_entries(&root)
    );
}

#[test]
fn a_host_that_does_not_answer_is_one_line_naming_the_import_command() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    // A port nobody listens on: bound, then released.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/archive.tar.gz");
    let err = fetch_repo(&plan(COMMIT), &root, &url, false).unwrap_err();
    assert!(matches!(err, Error::Unreachable { .. }), "{err}");
    let text = err.to_string();
    assert!(!text.contains('\n'), "{text}");
    assert!(
        text.contains("corpora import proj --from PATH") && text.contains(COMMIT),
        "{text}"
    );
    assert!(
        cache_entries(&root).is_empty(),
        "{:?}",
        cache_entries(&root)
    );
}

#[test]
fn import_from_a_checkout_an_archive_an_unpacked_archive_and_a_bare_repository_caches_the_same_files()
 {
    let tmp = tempfile::tempdir().unwrap();
    let (work, bare, commit) = repository(tmp.path());
    let plan = plan(&commit);
    let tgz = tmp.path().join("proj.tar.gz");
    std::fs::write(&tgz, archive(TREE)).unwrap();
    let unpacked = tmp.path().join("unpacked");
    write_tree(&unpacked.join(format!("proj-{commit}")), TREE);
    let expected = cached_paths_of(&selected());
    for (i, from) in [&work, &tgz, &unpacked, &bare].into_iter().enumerate() {
        let root = tmp.path().join(format!("cache{i}"));
        let manifest = import_repo(&plan, &root, from, false)
            .unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        assert_eq!(cached_files(&root), expected, "{}", from.display());
        let source = manifest.repository.unwrap().source;
        assert_eq!(source, format!("import from {}", from.display()));
        assert_eq!(cache_entries(&root), vec!["proj"], "{}", from.display());
    }
}

fn cached_paths_of(files: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    files.keys().cloned().collect()
}

#[test]
fn a_bare_repository_without_the_pinned_commit_is_refused_naming_both() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, bare, _) = repository(tmp.path());
    let root = tmp.path().join("cache");
    let err = import_repo(&plan(COMMIT), &root, &bare, false).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(&bare.display().to_string()) && text.contains(COMMIT),
        "{text}"
    );
    assert!(
        cache_entries(&root).is_empty(),
        "{:?}",
        cache_entries(&root)
    );
}

#[test]
fn a_digest_mismatch_names_the_first_differing_file_and_caches_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let changed: Vec<(&str, &str)> = TREE
        .iter()
        .map(|&(p, t)| {
            if p == "packages/a/src/x.ts" {
                (p, "export const x: string = '1';\n")
            } else {
                (p, t)
            }
        })
        .collect();
    let dir = tmp.path().join("checkout");
    write_tree(&dir, &changed);
    let root = tmp.path().join("cache");
    let err = import_repo(&plan(COMMIT), &root, &dir, false).unwrap_err();
    let Error::Digest { first, .. } = &err else {
        panic!("not a digest mismatch: {err}");
    };
    assert!(
        first.starts_with("packages/a/src/x.ts has other contents"),
        "{first}"
    );
    assert!(err.to_string().contains("nothing was cached"), "{err}");
    assert!(
        cache_entries(&root).is_empty(),
        "{:?}",
        cache_entries(&root)
    );

    // The same from a download: verified before anything is written.
    let mut tree = changed.clone();
    tree.retain(|(p, _)| *p != "packages/a/src/view.tsx");
    let tgz = archive(&tree);
    let url = serve(tgz.clone(), tgz.len());
    let err = fetch_repo(&plan(COMMIT), &root, &url, false).unwrap_err();
    let Error::Digest { first, .. } = &err else {
        panic!("not a digest mismatch: {err}");
    };
    assert!(
        first.starts_with("packages/a/src/view.tsx is missing"),
        "{first}"
    );
    assert!(
        cache_entries(&root).is_empty(),
        "{:?}",
        cache_entries(&root)
    );
}

#[test]
fn a_path_that_is_no_directory_archive_or_repository_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cache");
    let file = tmp.path().join("notes.txt");
    std::fs::write(&file, "x").unwrap();
    for from in [file, tmp.path().join("missing")] {
        let err = import_repo(&plan(COMMIT), &root, &from, false).unwrap_err();
        assert!(matches!(err, Error::Import { .. }), "{err}");
        assert!(
            err.to_string().contains(&from.display().to_string()),
            "{err}"
        );
    }
    assert!(
        cache_entries(&root).is_empty(),
        "{:?}",
        cache_entries(&root)
    );
}
