//! Fetching and importing a repository corpus.
//!
//! **Nothing reaches the cache before the selection's digest matches the pin**: the archive is
//! downloaded into memory (or read from the path given to `import`), the selection is taken
//! and hashed, and only a matching selection is written, through the cache's working directory
//! and one rename, as every corpus is.

use std::path::Path;

use super::digest::{content_digest, first_difference};
use super::select::Selection;
use super::source::{self, Files};
use super::table::{RepoPin, pinned_listing, repo_pin};
use crate::npm::{CorpusDef, cache};
use crate::{Error, FileRecord, Manifest, Provenance, SourceFile, http};

/// Refuse archives over this size (1 GiB).
const MAX_ARCHIVE_BYTES: u64 = 1 << 30;

/// A repository corpus to fetch or import: its pin, what to take, and the listing that names
/// a differing file.
#[derive(Clone, Debug)]
pub struct RepoPlan {
    pub name: String,
    pub provenance: Provenance,
    pub pin: RepoPin,
    pub selection: Selection,
    /// The pinned listing (see [`super::digest`]); without it a mismatch names no file.
    pub listing: Option<String>,
}

/// Where a cached repository corpus came from, recorded in its manifest.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RepoRecord {
    pub pin: RepoPin,
    /// The archive address it was downloaded from, or `import from PATH`.
    pub source: String,
}

impl CorpusDef {
    /// The plan that fetches this corpus as the repository table pins it (`None` for an npm
    /// corpus, or a repository corpus the table has no row for).
    pub fn repo_plan(&self) -> Option<RepoPlan> {
        Some(RepoPlan {
            name: self.name.to_string(),
            provenance: self.provenance,
            pin: repo_pin(self.table_name)?.clone(),
            selection: self.repository?,
            listing: pinned_listing(self.table_name).map(str::to_string),
        })
    }
}

/// Downloads the archive at `url`, takes the selection, verifies its digest and caches it.
/// A host that does not answer is [`Error::Unreachable`], which names the import command.
pub fn fetch_repo(
    plan: &RepoPlan,
    root: &Path,
    url: &str,
    progress: bool,
) -> Result<Manifest, Error> {
    let scratch = cache::Scratch::new(root, &plan.name)?;
    if progress {
        eprintln!("{}: downloading {url}", plan.name);
    }
    let label = format!("download {}", plan.pin.repository);
    let tgz = http::get(url, &label, MAX_ARCHIVE_BYTES, progress).map_err(|e| {
        if e.unreachable {
            Error::Unreachable {
                corpus: plan.name.clone(),
                url: url.to_string(),
                why: e.why,
                pin: Box::new(plan.pin.clone()),
            }
        } else {
            Error::ArchiveDownload {
                repository: plan.pin.repository.clone(),
                commit: plan.pin.commit.clone(),
                url: url.to_string(),
                why: e.why,
            }
        }
    })?;
    let files = source::from_tar_gz(url, tgz.as_slice(), &plan.selection)?;
    store(plan, root, files, url.to_string(), scratch, progress)
}

/// Takes the selection from `from` (a directory, a `.tar.gz` archive, or a git repository
/// holding the pinned commit), verifies its digest and caches it.
pub fn import_repo(
    plan: &RepoPlan,
    root: &Path,
    from: &Path,
    progress: bool,
) -> Result<Manifest, Error> {
    let scratch = cache::Scratch::new(root, &plan.name)?;
    if progress {
        eprintln!("{}: importing {}", plan.name, from.display());
    }
    let files = read_selection(&plan.selection, &plan.pin.commit, from)?;
    store(
        plan,
        root,
        files,
        format!("import from {}", from.display()),
        scratch,
        progress,
    )
}

/// The files `selection` takes from `from`: a git repository (bare, or a `.git` directory) at
/// `commit`, a directory holding the tree (a checkout or an unpacked archive), or a `.tar.gz`
/// archive. What `import` verifies and caches, and what `corpora listing` lists to pin a
/// new corpus.
pub fn read_selection(
    selection: &Selection,
    commit: &str,
    from: &Path,
) -> Result<std::collections::BTreeMap<String, Vec<u8>>, Error> {
    let meta = std::fs::metadata(from).map_err(|e| Error::Import {
        from: from.to_path_buf(),
        why: e.to_string(),
    })?;
    let name = from.to_string_lossy();
    if meta.is_dir() && source::is_git_dir(from) {
        source::from_git(from, commit, selection)
    } else if meta.is_dir() {
        source::from_dir(from, selection)
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        let file = std::fs::File::open(from).map_err(Error::io(from))?;
        source::from_tar_gz(&name, std::io::BufReader::new(file), selection)
    } else {
        Err(Error::Import {
            from: from.to_path_buf(),
            why: "is neither a directory, a git repository nor a .tar.gz archive".to_string(),
        })
    }
}

/// Verifies `files` against the plan's digest and writes them to the cache.
fn store(
    plan: &RepoPlan,
    root: &Path,
    files: Files,
    source: String,
    scratch: cache::Scratch,
    progress: bool,
) -> Result<Manifest, Error> {
    let actual = content_digest(&files);
    if actual != plan.pin.digest {
        let first = match &plan.listing {
            _ if files.is_empty() => "no file matched the selection".to_string(),
            Some(listing) => match first_difference(&files, listing) {
                Some((path, why)) => format!("{path} {why}"),
                None => "the pinned listing does not match the pinned digest".to_string(),
            },
            None => "no pinned listing names the file".to_string(),
        };
        return Err(Error::Digest {
            corpus: plan.name.clone(),
            from: source,
            first,
            expected: plan.pin.digest.as_str().into(),
            actual: actual.into(),
        });
    }
    let files: Vec<SourceFile> = files
        .into_iter()
        .map(|(path, bytes)| SourceFile { path, bytes })
        .collect();
    let manifest = Manifest {
        format: 1,
        name: plan.name.clone(),
        provenance: plan.provenance,
        packages: Vec::new(),
        repository: Some(Box::new(RepoRecord {
            pin: plan.pin.clone(),
            source,
        })),
        files: files
            .iter()
            .map(|f| FileRecord::of(&f.path, &f.bytes))
            .collect(),
        blobs_skipped: Vec::new(),
        type_only: Vec::new(),
    };
    let dest = cache::store(root, &manifest, &files, scratch)?;
    if progress {
        eprintln!(
            "{}: {} files, {} bytes, digest {} in {}",
            plan.name,
            manifest.files.len(),
            manifest.total_bytes(),
            plan.pin.digest,
            dest.display()
        );
    }
    Ok(manifest)
}
