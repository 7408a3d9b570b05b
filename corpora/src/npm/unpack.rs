//! Unpacking a verified npm tarball (gzip + tar) into memory, keeping only wanted entries.

use std::collections::BTreeMap;
use std::io::Read;

use indicatif::ProgressBar;

use crate::Error;

/// The regular files of `tgz` whose package-relative path `want` accepts, by path.
///
/// npm tarballs hold one top directory (usually `package/`); it is stripped. Entries
/// whose path has an empty, `.` or `..` component are skipped. The whole
/// stream is read to its end, so a truncated or corrupt tarball is an error even when
/// the damage lies after the last wanted entry.
pub(crate) fn unpack(
    package: &str,
    tgz: &[u8],
    want: impl Fn(&str) -> bool,
    progress: &ProgressBar,
) -> Result<BTreeMap<String, Vec<u8>>, Error> {
    let bad = |why: String| Error::Tarball {
        package: package.to_string(),
        why,
    };
    let gz = flate2::read::GzDecoder::new(progress.wrap_read(tgz));
    let mut archive = tar::Archive::new(gz);
    let mut out = BTreeMap::new();
    let entries = archive.entries().map_err(|e| bad(e.to_string()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| bad(e.to_string()))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let raw = entry.path_bytes();
        let Ok(full) = std::str::from_utf8(&raw) else {
            continue;
        };
        let Some((_, rel)) = full.split_once('/') else {
            continue;
        };
        let rel = rel.to_string();
        // npm never packs such names; an entry that has one is skipped, never followed.
        let plain = rel
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
        if !plain || rel.contains('\\') || !want(&rel) {
            continue;
        }
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| bad(format!("{rel}: {e}")))?;
        out.insert(rel, bytes);
    }
    // Reach the gzip trailer so its CRC and length are checked too.
    let mut rest = archive.into_inner();
    std::io::copy(&mut rest, &mut std::io::sink()).map_err(|e| bad(e.to_string()))?;
    Ok(out)
}
