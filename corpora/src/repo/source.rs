//! Reading a repository's selected files from wherever they are: a downloaded or local
//! `.tar.gz` archive, a directory (a checkout or an unpacked archive), or a bare git
//! repository at the pinned commit (through `git archive`).
//!
//! Only regular files are read: symbolic links are neither followed nor taken, whatever the
//! source, so every source yields the same files for the same commit.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use walkdir::WalkDir;

use super::select::Selection;
use crate::{Error, MAX_FILE_BYTES};

/// Selected files by repository path.
pub(crate) type Files = BTreeMap<String, Vec<u8>>;

/// The selected files of a tar stream whose entries sit in one top directory (as a host's
/// archive and `git archive --prefix` write them); `from` names the archive in errors.
pub(crate) fn from_tar(
    from: &str,
    reader: impl Read,
    selection: &Selection,
) -> Result<Files, Error> {
    let bad = |why: String| Error::Archive {
        from: from.to_string(),
        why,
    };
    let mut archive = tar::Archive::new(reader);
    let mut out = Files::new();
    for entry in archive.entries().map_err(|e| bad(e.to_string()))? {
        let mut entry = entry.map_err(|e| bad(e.to_string()))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let raw = entry.path_bytes();
        let Some(rel) = std::str::from_utf8(&raw)
            .ok()
            .and_then(|full| full.split_once('/'))
            .map(|(_, rel)| rel.to_string())
        else {
            continue;
        };
        let plain = rel
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
        if !plain || !selection.wants(&rel) {
            continue;
        }
        if entry.size() > MAX_FILE_BYTES {
            return Err(bad(format!(
                "{rel} is {} bytes, over the {MAX_FILE_BYTES}-byte limit",
                entry.size()
            )));
        }
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| bad(format!("{rel}: {e}")))?;
        out.insert(rel, bytes);
    }
    // Read to the end, so a stream cut short after the last wanted entry is caught too.
    let mut rest = archive.into_inner();
    std::io::copy(&mut rest, &mut std::io::sink()).map_err(|e| bad(e.to_string()))?;
    Ok(out)
}

/// The selected files of a gzipped tar archive, read to its gzip trailer.
pub(crate) fn from_tar_gz(
    from: &str,
    tgz: impl Read,
    selection: &Selection,
) -> Result<Files, Error> {
    from_tar(from, flate2::read::GzDecoder::new(tgz), selection)
}

/// The selected files of a directory holding the repository's tree: a checkout, or an
/// unpacked archive (the directory itself, or the one directory it holds).
pub(crate) fn from_dir(dir: &Path, selection: &Selection) -> Result<Files, Error> {
    let root = tree_root(dir, selection).map_err(Error::io(dir))?;
    let mut out = Files::new();
    for include in selection.roots() {
        let start = root.join(include);
        if !start.is_dir() {
            continue;
        }
        for entry in WalkDir::new(&start).follow_links(false).sort_by_file_name() {
            let entry = entry.map_err(|e| Error::Io {
                path: e.path().unwrap_or(&start).to_path_buf(),
                source: e.into(),
            })?;
            if !entry.file_type().is_file() {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(&root) else {
                continue;
            };
            let Some(rel) = rel
                .iter()
                .map(|c| c.to_str())
                .collect::<Option<Vec<_>>>()
                .map(|parts| parts.join("/"))
            else {
                continue;
            };
            if !selection.wants(&rel) {
                continue;
            }
            out.insert(rel, crate::local::read_bounded(&entry)?);
        }
    }
    Ok(out)
}

/// `dir`, or the single directory inside it when `dir` holds none of the included
/// directories but exactly that one entry (an archive unpacked into a folder of its own).
fn tree_root(dir: &Path, selection: &Selection) -> std::io::Result<std::path::PathBuf> {
    if selection.roots().any(|r| dir.join(r).is_dir()) {
        return Ok(dir.to_path_buf());
    }
    let entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    match entries.as_slice() {
        [only] if only.file_type()?.is_dir() => Ok(only.path()),
        _ => Ok(dir.to_path_buf()),
    }
}

/// Whether `path` looks like a bare git repository (or a `.git` directory).
pub(crate) fn is_git_dir(path: &Path) -> bool {
    path.join("HEAD").is_file() && path.join("objects").is_dir() && path.join("refs").is_dir()
}

/// The selected files of `commit` in the git repository `git_dir`, through `git archive`.
pub(crate) fn from_git(
    git_dir: &Path,
    commit: &str,
    selection: &Selection,
) -> Result<Files, Error> {
    let fail = |why: String| Error::Import {
        from: git_dir.to_path_buf(),
        why,
    };
    let git = |args: &[&str]| {
        let mut cmd = Command::new("git");
        cmd.arg("--git-dir").arg(git_dir).args(args);
        cmd
    };
    let has = git(&["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| fail(format!("cannot run `git` ({e}); install git")))?;
    if !has.success() {
        return Err(fail(format!("does not hold commit {commit}")));
    }
    let mut child = git(&["archive", "--format=tar", "--prefix=tree/", commit, "--"])
        .args(selection.roots())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("cannot run `git archive` ({e})")))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let read = from_tar(&git_dir.display().to_string(), stdout, selection);
    let output = child
        .wait_with_output()
        .map_err(|e| fail(format!("`git archive` {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(fail(format!(
            "`git archive {commit}` failed ({}): {}",
            output.status,
            stderr.trim()
        )));
    }
    read
}
