//! The content digest that pins what a repository corpus takes.
//!
//! **The digest depends on the selected files' paths and bytes alone**, so the same content
//! verifies however it arrived (a download, a checkout, an archive, a bare clone). It is the
//! SHA-256 of the corpus's *listing*: one line per file in byte order of path,
//! `PATH<TAB>BYTES<TAB>SHA256-OF-CONTENTS<LF>`. The listing of a pinned corpus is committed
//! beside the table (`data/NAME.files.tsv`, so `sha256sum` of it prints the digest), which lets
//! a mismatch name the first file that differs.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

/// The listing of `files` (corpus path to contents).
pub fn listing(files: &BTreeMap<String, Vec<u8>>) -> String {
    let mut out = String::new();
    for (path, bytes) in files {
        let _ = writeln!(out, "{path}\t{}", line_rest(bytes));
    }
    out
}

/// What a listing line says after the path: `BYTES<TAB>SHA256`.
fn line_rest(bytes: &[u8]) -> String {
    format!("{}\t{}", bytes.len(), hex::encode(Sha256::digest(bytes)))
}

/// The content digest of `files`: SHA-256 of their listing, in hex.
pub fn content_digest(files: &BTreeMap<String, Vec<u8>>) -> String {
    digest_of_listing(&listing(files))
}

/// The digest a listing stands for.
pub fn digest_of_listing(listing: &str) -> String {
    hex::encode(Sha256::digest(listing.as_bytes()))
}

/// The first file, in path order, where `files` and a pinned `listing` differ, and how.
pub(crate) fn first_difference(
    files: &BTreeMap<String, Vec<u8>>,
    listing: &str,
) -> Option<(String, String)> {
    let pinned: BTreeMap<&str, (&str, &str)> = listing
        .lines()
        .filter_map(|line| {
            let mut cols = line.split('\t');
            Some((cols.next()?, (cols.next()?, cols.next()?)))
        })
        .collect();
    let ours: BTreeMap<&str, String> = files
        .iter()
        .map(|(path, bytes)| (path.as_str(), line_rest(bytes)))
        .collect();
    let mut paths: Vec<&str> = pinned.keys().chain(ours.keys()).copied().collect();
    paths.sort_unstable();
    paths.dedup();
    paths.into_iter().find_map(|path| {
        let why = match (pinned.get(path), ours.get(path)) {
            (Some(_), None) => "is missing (the pinned listing has it)".to_string(),
            (None, Some(_)) => "is not in the pinned listing".to_string(),
            (Some((bytes, sha)), Some(rest)) if *rest != format!("{bytes}\t{sha}") => {
                format!("has other contents than pinned ({bytes} bytes, SHA-256 {sha})")
            }
            _ => return None,
        };
        Some((path.to_string(), why))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
        list.iter()
            .map(|(p, b)| (p.to_string(), b.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn the_digest_depends_on_paths_and_bytes_not_on_insertion_order() {
        let a = files(&[("a.ts", "1"), ("b.ts", "2")]);
        let b = files(&[("b.ts", "2"), ("a.ts", "1")]);
        assert_eq!(content_digest(&a), content_digest(&b));
        assert_ne!(
            content_digest(&a),
            content_digest(&files(&[("a.ts", "1"), ("c.ts", "2")]))
        );
        assert_ne!(
            content_digest(&a),
            content_digest(&files(&[("a.ts", "12"), ("b.ts", "")]))
        );
        assert_eq!(content_digest(&a), digest_of_listing(&listing(&a)));
    }

    #[test]
    fn the_first_difference_names_the_earliest_path_that_differs() {
        let pinned = listing(&files(&[("a.ts", "1"), ("b.ts", "2"), ("d.ts", "4")]));
        let same = files(&[("a.ts", "1"), ("b.ts", "2"), ("d.ts", "4")]);
        assert_eq!(first_difference(&same, &pinned), None);
        let changed = files(&[("a.ts", "1"), ("b.ts", "X"), ("c.ts", "3")]);
        let (path, why) = first_difference(&changed, &pinned).unwrap();
        assert_eq!(path, "b.ts");
        assert!(why.contains("other contents"), "{why}");
        let extra = files(&[("a.ts", "1"), ("b.ts", "2"), ("c.ts", "3"), ("d.ts", "4")]);
        assert_eq!(
            first_difference(&extra, &pinned).unwrap(),
            (
                "c.ts".to_string(),
                "is not in the pinned listing".to_string()
            )
        );
        let (path, why) = first_difference(&files(&[("b.ts", "2")]), &pinned).unwrap();
        assert_eq!((path.as_str(), why.contains("missing")), ("a.ts", true));
    }
}
