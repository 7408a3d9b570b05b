//! A directory on this machine as a corpus.
//!
//! What is taken: files with a source extension (`.ts .tsx .d.ts .mts .cts .js .jsx .mjs
//! .cjs`), at any depth, `node_modules` and hidden directories skipped, symbolic links not
//! followed. What each odd file means:
//! - empty: kept (an empty file is a legal module);
//! - invalid UTF-8: kept as bytes (the checker reports it as a diagnostic);
//! - a NUL byte: kept (the checker reports it as TS1490 "File appears to be binary.", as
//!   TypeScript does, and checks the rest);
//! - over [`MAX_FILE_BYTES`]: an error naming the file, without reading it.

use std::fs;
use std::path::Path;

use walkdir::WalkDir;

use crate::{Error, SourceFile, paths};

/// The largest source file a local corpus takes, in bytes (16 MiB; typescript.js is 9 MiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The bytes of the file `entry` names, refused without reading it when over
/// [`MAX_FILE_BYTES`]: the one rule every directory walk of a corpus applies.
pub(crate) fn read_bounded(entry: &walkdir::DirEntry) -> Result<Vec<u8>, Error> {
    let path = entry.path();
    let size = entry.metadata().map_err(|e| Error::Io {
        path: path.to_path_buf(),
        source: e.into(),
    })?;
    if size.len() > MAX_FILE_BYTES {
        return Err(Error::TooLarge {
            path: path.to_path_buf(),
            size: size.len(),
            limit: MAX_FILE_BYTES,
        });
    }
    fs::read(path).map_err(Error::io(path))
}

/// The source files under `dir`, sorted by path.
pub fn read_dir(dir: &Path) -> Result<Vec<SourceFile>, Error> {
    let meta = match fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::NoSuchDir(dir.to_path_buf()));
        }
        Err(e) => return Err(Error::io(dir)(e)),
    };
    if !meta.is_dir() {
        return Err(Error::NotADir(dir.to_path_buf()));
    }
    let walker = WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !(e.file_type().is_dir()
                    && (e.file_name() == "node_modules"
                        || e.file_name().to_string_lossy().starts_with('.')))
        });
    let mut files = Vec::new();
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_path_buf();
            Error::Io {
                path,
                source: e.into(),
            }
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let rel: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        let rel = rel.join("/");
        if paths::source_extension(&rel).is_none() {
            continue;
        }
        let bytes = read_bounded(&entry)?;
        files.push(SourceFile { path: rel, bytes });
    }
    if files.is_empty() {
        return Err(Error::NoSources(dir.to_path_buf()));
    }
    Ok(files)
}
