//! The corpus cache: `<root>/corpora/<name>/{files/..., manifest.json}`.
//!
//! **A corpus directory is complete or absent.** It is written in a temporary sibling,
//! the manifest last, then renamed into place; a directory without a readable manifest
//! whose files all match it (size and SHA-256) counts as not cached.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::table::{CorpusDef, Pin};
use crate::repo::{RepoPin, RepoRecord};
use crate::{Error, Provenance, SourceFile};

/// Environment variable that overrides the cache root.
pub const CACHE_ENV: &str = "CHECKBENCH_CACHE";

const MANIFEST: &str = "manifest.json";
const FILES: &str = "files";
const FORMAT: u32 = 1;

/// What a cached corpus holds; written last, so its presence means the corpus is complete.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub name: String,
    pub provenance: Provenance,
    pub packages: Vec<PackageRecord>,
    /// The repository and commit a repository corpus came from, and how (none for npm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<Box<RepoRecord>>,
    pub files: Vec<FileRecord>,
    /// Corpus paths of map sources left out as embedded blobs.
    pub blobs_skipped: Vec<String>,
    /// Corpus paths filled from declarations (excalidraw's type-only modules).
    pub type_only: Vec<String>,
}

/// One tarball a corpus came from.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PackageRecord {
    pub pin: Pin,
    /// Where the tarball came from (`npm pack` when the download was refused).
    pub source: String,
    /// Size of the tarball, in bytes.
    pub tarball_bytes: u64,
    /// sha512 of the tarball, hex; it matched the pinned integrity.
    pub tarball_sha512: String,
}

/// One file of a cached corpus.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FileRecord {
    pub path: String,
    pub bytes: u64,
    /// SHA-256 of the contents, hex. Absent in manifests written before content hashes; such a
    /// corpus cannot be verified and counts as stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

impl FileRecord {
    /// The record of a file with these contents.
    pub fn of(path: &str, bytes: &[u8]) -> FileRecord {
        FileRecord {
            path: path.to_string(),
            bytes: bytes.len() as u64,
            sha256: Some(sha256_hex(bytes)),
        }
    }
}

/// Hex SHA-256 of `bytes`.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}

/// How a cached corpus is checked against its manifest when it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// Every file's size and SHA-256: what a corpus is opened with.
    Content,
    /// Sizes only: for a child whose parent verified the content before the first run, so no
    /// hashing runs inside a measured run.
    Sizes,
}

/// What the cache holds for one corpus.
#[derive(Clone, Debug)]
pub enum CacheState {
    /// Complete, from the expected pins, every file as its manifest says.
    Cached(Manifest),
    /// No corpus directory, or none with a readable manifest.
    Absent,
    /// Usable in principle but not this one: other pins, or no content hashes to verify it by.
    Stale(String),
    /// A file is missing or differs from its manifest (size or content).
    Damaged {
        /// The file, as a corpus path.
        file: String,
        /// What differs.
        why: String,
    },
}

impl std::fmt::Display for CacheState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CacheState::Cached(m) => {
                write!(f, "{} files, {} bytes", m.files.len(), m.total_bytes())?;
                match &m.repository {
                    Some(r) => write!(f, " ({})", r.source),
                    None => Ok(()),
                }
            }
            CacheState::Absent => f.write_str("no"),
            CacheState::Stale(why) => write!(f, "stale ({why}; fetch again)"),
            CacheState::Damaged { file, why } => write!(f, "damaged: {file} {why} (fetch again)"),
        }
    }
}

/// A corpus read from the cache, or why it could not be.
pub(crate) enum Loaded {
    Files(Vec<SourceFile>),
    Unusable(CacheState),
}

impl Manifest {
    /// Total size of the corpus's files, in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum()
    }
}

/// The cache root: `explicit`, else `$CHECKBENCH_CACHE`, else `<XDG cache>/checkbench`.
pub fn cache_root(explicit: Option<&Path>) -> Result<PathBuf, Error> {
    resolve_root(explicit)
}

pub(crate) fn resolve_root(explicit: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(CACHE_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    dirs::cache_dir()
        .map(|d| d.join("checkbench"))
        .ok_or(Error::NoCacheDir)
}

/// Where corpus `name` lives under `root`.
pub fn corpus_dir(root: &Path, name: &str) -> PathBuf {
    root.join("corpora").join(name)
}

/// The manifest of a cached corpus, or `None` when it is not (completely) cached.
pub fn read_manifest(root: &Path, name: &str) -> Result<Option<Manifest>, Error> {
    let path = corpus_dir(root, name).join(MANIFEST);
    let bytes = match fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path)(e)),
    };
    // An unreadable manifest (older format, damage) means: fetch again.
    Ok(serde_json::from_slice::<Manifest>(&bytes)
        .ok()
        .filter(|m| m.format == FORMAT && m.name == name))
}

/// What a cached corpus must have been made from: its npm pins, or its repository's pin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Origin<'a> {
    pub pins: &'a [Pin],
    pub repository: Option<&'a RepoPin>,
}

impl<'a> Origin<'a> {
    /// The origin a manifest records.
    fn of(manifest: &'a Manifest, pins: &'a [Pin]) -> Origin<'a> {
        Origin {
            pins,
            repository: manifest.repository.as_ref().map(|r| &r.pin),
        }
    }
}

/// The state of an npm corpus `name` made from `pins` in the cache under `root`, every file
/// verified by its SHA-256.
pub fn cache_state(root: &Path, name: &str, pins: &[Pin]) -> Result<CacheState, Error> {
    let origin = Origin {
        pins,
        repository: None,
    };
    state(root, name, &origin)
}

/// The state of the named corpus `def` in the cache under `root`, every file verified by its
/// SHA-256: what `corpora list` reports.
pub fn corpus_state(root: &Path, def: &CorpusDef) -> Result<CacheState, Error> {
    let pins = def.pins();
    let plan = def.repo_plan();
    let origin = Origin {
        pins: &pins,
        repository: plan.as_ref().map(|p| &p.pin),
    };
    state(root, def.name, &origin)
}

fn state(root: &Path, name: &str, origin: &Origin) -> Result<CacheState, Error> {
    Ok(match load(root, name, origin, Check::Content)? {
        Loaded::Files(_) => match read_manifest(root, name)? {
            Some(manifest) => CacheState::Cached(manifest),
            None => CacheState::Absent,
        },
        Loaded::Unusable(state) => state,
    })
}

/// The files of a cached corpus in manifest order, or why they are unusable: not cached,
/// fetched from another origin than `origin`, without content hashes (under [`Check::Content`]), or
/// a file that no longer matches the manifest.
pub(crate) fn load(
    root: &Path,
    name: &str,
    origin: &Origin,
    check: Check,
) -> Result<Loaded, Error> {
    let unusable = |state| Ok(Loaded::Unusable(state));
    let Some(manifest) = read_manifest(root, name)? else {
        return unusable(CacheState::Absent);
    };
    if !manifest
        .packages
        .iter()
        .map(|p| &p.pin)
        .eq(origin.pins.iter())
        || manifest.repository.as_ref().map(|r| &r.pin) != origin.repository
    {
        return unusable(CacheState::Stale("fetched from other pins".to_string()));
    }
    if check == Check::Content && manifest.files.iter().any(|f| f.sha256.is_none()) {
        return unusable(CacheState::Stale(
            "written without content hashes, so it cannot be verified".to_string(),
        ));
    }
    let dir = corpus_dir(root, name).join(FILES);
    let mut files = Vec::with_capacity(manifest.files.len());
    for record in &manifest.files {
        let damaged = |why: String| {
            unusable(CacheState::Damaged {
                file: record.path.clone(),
                why,
            })
        };
        let Some(path) = safe_join(&dir, &record.path) else {
            return damaged("has a path that leaves the corpus".to_string());
        };
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return damaged("is missing".to_string());
            }
            Err(e) => return Err(Error::io(&path)(e)),
        };
        if bytes.len() as u64 != record.bytes {
            return damaged(format!(
                "is {} bytes, the manifest says {}",
                bytes.len(),
                record.bytes
            ));
        }
        if check == Check::Content
            && let Some(expected) = &record.sha256
            && sha256_hex(&bytes) != *expected
        {
            return damaged("has other contents than the manifest's SHA-256".to_string());
        }
        files.push(SourceFile {
            path: record.path.clone(),
            bytes,
        });
    }
    Ok(Loaded::Files(files))
}

/// A fetch's working directory, `<root>/corpora/.NAME-partial-*`: made before anything is
/// downloaded (so an unwritable cache is reported first) and locked while the fetch runs, so the
/// next fetch of the same corpus removes what a killed one left, and only that.
pub(crate) struct Scratch {
    dir: tempfile::TempDir,
    /// Holds the lock on `dir` (released when the process ends, however it ends).
    _lock: fs::File,
}

impl Scratch {
    /// Makes the working directory of a fetch of `name`, removing abandoned ones first.
    pub(crate) fn new(root: &Path, name: &str) -> Result<Scratch, Error> {
        let parent = root.join("corpora");
        let unwritable = |e: std::io::Error| Error::Cache {
            path: parent.clone(),
            why: format!(
                "cannot write here ({e}); nothing was downloaded; pass --cache-dir DIR or set {CACHE_ENV} to a writable directory"
            ),
        };
        fs::create_dir_all(&parent).map_err(unwritable)?;
        remove_abandoned(&parent, name);
        let dir = tempfile::Builder::new()
            .prefix(&format!(".{name}-partial-"))
            .tempdir_in(&parent)
            .map_err(unwritable)?;
        let lock = lock(dir.path()).map_err(Error::io(dir.path()))?;
        Ok(Scratch { dir, _lock: lock })
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// An exclusive lock on a directory, held as long as the returned file is open.
fn lock(dir: &Path) -> std::io::Result<fs::File> {
    let file = fs::File::open(dir)?;
    file.lock()?;
    Ok(file)
}

/// Writes a corpus: files into a temporary sibling, the manifest last, then one rename.
pub(crate) fn store(
    root: &Path,
    manifest: &Manifest,
    files: &[SourceFile],
    scratch: Scratch,
) -> Result<PathBuf, Error> {
    let parent = root.join("corpora");
    let Scratch { dir: tmp, _lock } = scratch;
    let files_dir = tmp.path().join(FILES);
    for file in files {
        let path = safe_join(&files_dir, &file.path).ok_or_else(|| Error::Cache {
            path: files_dir.clone(),
            why: format!("refusing corpus path `{}`", file.path),
        })?;
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(Error::io(dir))?;
        }
        fs::write(&path, &file.bytes).map_err(Error::io(&path))?;
    }
    let manifest_path = tmp.path().join(MANIFEST);
    let json = serde_json::to_vec_pretty(manifest).map_err(|e| Error::Cache {
        path: manifest_path.clone(),
        why: e.to_string(),
    })?;
    fs::write(&manifest_path, json).map_err(Error::io(&manifest_path))?;

    let dest = corpus_dir(root, &manifest.name);
    let pins: Vec<Pin> = manifest.packages.iter().map(|p| p.pin.clone()).collect();
    if matches!(
        load(
            root,
            &manifest.name,
            &Origin::of(manifest, &pins),
            Check::Content
        )?,
        Loaded::Files(_)
    ) {
        // Another process completed the same corpus meanwhile; theirs stands.
        return Ok(dest);
    }
    if dest.exists() {
        // Incomplete or damaged: move it aside, then drop it.
        let stale = tempfile::Builder::new()
            .prefix(&format!(".{}-stale-", manifest.name))
            .tempdir_in(&parent)
            .map_err(Error::io(&parent))?;
        let _stale_lock = lock(stale.path()).map_err(Error::io(stale.path()))?;
        let aside = stale.path().join("old");
        fs::rename(&dest, &aside).map_err(Error::io(&dest))?;
    }
    let tmp_path = tmp.keep();
    if let Err(e) = fs::rename(&tmp_path, &dest) {
        let _ = fs::remove_dir_all(&tmp_path);
        // Another process may have completed the same corpus meanwhile.
        if read_manifest(root, &manifest.name)?.is_none() {
            return Err(Error::io(&dest)(e));
        }
    }
    Ok(dest)
}

/// Removes the working directories of fetches of `name` that are no longer running (killed,
/// or crashed): those nobody holds the lock of. Best effort: what cannot be removed now is
/// tried again by the next fetch.
fn remove_abandoned(parent: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    let prefixes = [format!(".{name}-partial-"), format!(".{name}-stale-")];
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        if !prefixes.iter().any(|p| file_name.starts_with(p.as_str())) {
            continue;
        }
        let path = entry.path();
        let abandoned = fs::File::open(&path).is_ok_and(|f| f.try_lock().is_ok());
        if abandoned {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// `dir/rel` when every component of `rel` is a plain name.
fn safe_join(dir: &Path, rel: &str) -> Option<PathBuf> {
    let mut path = dir.to_path_buf();
    for part in rel.split('/') {
        if part.is_empty()
            || part == "."
            || part == ".."
            || part.contains('\\')
            || part.contains('\0')
        {
            return None;
        }
        path.push(part);
    }
    Some(path)
}
