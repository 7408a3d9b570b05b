//! The corpus cache: `<root>/corpora/<name>/{files/..., manifest.json}`.
//!
//! **A corpus directory is complete or absent.** It is written in a temporary sibling,
//! the manifest last, then renamed into place; a directory without a readable manifest
//! whose files all match it counts as not cached.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Error, Provenance, SourceFile, table::Pin};

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

/// The files of a cached corpus in manifest order, or `None` when it is not cached, was
/// fetched from other pins than `pins`, or a file no longer matches the manifest.
pub(crate) fn load(
    root: &Path,
    name: &str,
    pins: &[Pin],
) -> Result<Option<Vec<SourceFile>>, Error> {
    let Some(manifest) = read_manifest(root, name)? else {
        return Ok(None);
    };
    if !manifest.packages.iter().map(|p| &p.pin).eq(pins.iter()) {
        return Ok(None);
    }
    let dir = corpus_dir(root, name).join(FILES);
    let mut files = Vec::with_capacity(manifest.files.len());
    for record in &manifest.files {
        let Some(path) = safe_join(&dir, &record.path) else {
            return Ok(None);
        };
        match fs::read(&path) {
            Ok(bytes) if bytes.len() as u64 == record.bytes => files.push(SourceFile {
                path: record.path.clone(),
                bytes,
            }),
            Ok(_) => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(&path)(e)),
        }
    }
    Ok(Some(files))
}

/// Writes a corpus: files into a temporary sibling, the manifest last, then one rename.
pub(crate) fn store(
    root: &Path,
    manifest: &Manifest,
    files: &[SourceFile],
) -> Result<PathBuf, Error> {
    let parent = root.join("corpora");
    fs::create_dir_all(&parent).map_err(Error::io(&parent))?;
    remove_abandoned(&parent, &manifest.name);
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{}-partial-", manifest.name))
        .tempdir_in(&parent)
        .map_err(Error::io(&parent))?;
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
    if load(root, &manifest.name, &pins)?.is_some() {
        // Another process completed the same corpus meanwhile; theirs stands.
        return Ok(dest);
    }
    if dest.exists() {
        // Incomplete: move it aside, then drop it.
        let stale = tempfile::Builder::new()
            .prefix(&format!(".{}-stale-", manifest.name))
            .tempdir_in(&parent)
            .map_err(Error::io(&parent))?;
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

/// Removes temporary directories of `name` that a killed fetch left over an hour ago.
/// Best effort: what cannot be removed now is tried again by the next fetch.
fn remove_abandoned(parent: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    let prefixes = [format!(".{name}-partial-"), format!(".{name}-stale-")];
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 3600);
        if old && prefixes.iter().any(|p| file_name.starts_with(p.as_str())) {
            let _ = fs::remove_dir_all(entry.path());
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
