//! Fetching a named corpus: address from npm, download, verify, unpack, select, cache.
//!
//! **Nothing is unpacked before its sha512 matches the pin, and nothing reaches the cache
//! before every package of the corpus is verified and unpacked.**

use std::collections::BTreeMap;
use std::path::Path;

use base64::Engine as _;
use sha2::{Digest, Sha512};

use super::cache::{self, FileRecord, Manifest, PackageRecord};
use super::client::Npm;
use super::table::{CorpusDef, PackageDef, Pin, Take};
use super::{excalidraw, sourcemap, unpack};
use crate::http::{self, bar};
use crate::{Error, OpenOptions, Provenance, SourceFile, paths, repo};

/// Refuse tarballs over this size (512 MiB): no pinned package comes near it.
const MAX_TARBALL_BYTES: u64 = 512 << 20;

/// A corpus to fetch: its name, provenance and each package with its pin.
#[derive(Clone, Debug)]
pub struct FetchPlan {
    pub name: String,
    pub provenance: Provenance,
    pub packages: Vec<(PackageDef, Pin)>,
}

impl CorpusDef {
    /// The plan that fetches this corpus as the reference table pins it.
    pub fn plan(&self) -> FetchPlan {
        FetchPlan {
            name: self.name.to_string(),
            provenance: self.provenance,
            packages: self.packages.iter().copied().zip(self.pins()).collect(),
        }
    }
}

/// Fetches the named corpus into the cache unless it is there, and returns its manifest.
pub fn fetch(name: &str, opts: &OpenOptions) -> Result<Manifest, Error> {
    let def = super::table::corpus_def(name).ok_or_else(|| Error::Unknown(name.to_string()))?;
    let root = cache::resolve_root(opts.cache_dir.as_deref())?;
    match cache::corpus_state(&root, def)? {
        cache::CacheState::Cached(manifest) => Ok(manifest),
        state => {
            if opts.progress && !matches!(state, cache::CacheState::Absent) {
                eprintln!("{}: cached copy {state}", def.name);
            }
            fetch_into(def, &root, &Npm::from_env(), opts.progress)
        }
    }
}

/// Fetches `def` into the cache: its npm packages, or its repository's archive.
pub(crate) fn fetch_into(
    def: &CorpusDef,
    root: &Path,
    npm: &Npm,
    progress: bool,
) -> Result<Manifest, Error> {
    if def.repository.is_some() {
        let plan = repo_plan(def)?;
        let url = plan.pin.archive_url()?;
        return repo::fetch_repo(&plan, root, &url, progress);
    }
    fetch_plan(&def.plan(), root, npm, progress)
}

/// Imports the repository corpus `name` from `from` (a directory, a `.tar.gz` archive or a
/// bare git repository holding the pinned commit) into the cache, verified by its digest.
pub fn import(name: &str, from: &Path, opts: &OpenOptions) -> Result<Manifest, Error> {
    let def = super::table::corpus_def(name).ok_or_else(|| Error::Unknown(name.to_string()))?;
    let root = cache::resolve_root(opts.cache_dir.as_deref())?;
    repo::import_repo(&repo_plan(def)?, &root, from, opts.progress)
}

fn repo_plan(def: &CorpusDef) -> Result<repo::RepoPlan, Error> {
    def.repo_plan()
        .ok_or_else(|| Error::NotFromRepository(def.name.to_string()))
}

/// Runs `plan`: every package is located with `npm`, downloaded, verified against its pin,
/// unpacked and selected; then the corpus is written to the cache under `root` in one step.
/// The cache's working directory is made first, so an unwritable cache fails before anything
/// is downloaded, and what an earlier, killed fetch of the same corpus left there is removed.
pub fn fetch_plan(
    plan: &FetchPlan,
    root: &Path,
    npm: &Npm,
    progress: bool,
) -> Result<Manifest, Error> {
    let scratch = cache::Scratch::new(root, &plan.name)?;
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut records = Vec::new();
    let mut blobs_skipped = Vec::new();
    let mut type_only = Vec::new();
    for (def, pin) in &plan.packages {
        let spec = pin.spec();
        if progress {
            eprintln!("{}: fetching {spec}", plan.name);
        }
        let (tgz, source) = obtain(npm, &spec, progress, scratch.path())?;
        let sha_hex = verify_integrity(&spec, &pin.integrity, &tgz)?;
        let bar = bar(progress, tgz.len() as u64, &format!("unpack {spec}"));
        let entries = unpack::unpack(&spec, &tgz, |p| def.take.iter().any(|t| wants(t, p)), &bar)?;
        bar.finish_and_clear();
        let short = pin.package.rsplit('/').next().unwrap_or(&pin.package);
        let selected = select(
            plan,
            def,
            pin,
            short,
            &entries,
            &mut blobs_skipped,
            &mut type_only,
        )?;
        files.extend(selected);
        records.push(PackageRecord {
            pin: pin.clone(),
            source,
            tarball_bytes: tgz.len() as u64,
            tarball_sha512: sha_hex,
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
        packages: records,
        repository: None,
        files: files
            .iter()
            .map(|f| FileRecord::of(&f.path, &f.bytes))
            .collect(),
        blobs_skipped,
        type_only,
    };
    let dest = cache::store(root, &manifest, &files, scratch)?;
    if progress {
        eprintln!(
            "{}: {} files, {} bytes in {}",
            plan.name,
            manifest.files.len(),
            manifest.total_bytes(),
            dest.display()
        );
    }
    Ok(manifest)
}

/// Checks `bytes` against an SRI `sha512-<base64>` string; returns the digest in hex.
pub fn verify_integrity(package: &str, integrity: &str, bytes: &[u8]) -> Result<String, Error> {
    let expected = integrity
        .strip_prefix("sha512-")
        .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
        .filter(|d| d.len() == 64)
        .ok_or_else(|| Error::BadIntegrity {
            package: package.to_string(),
            integrity: integrity.to_string(),
        })?;
    let actual = Sha512::digest(bytes);
    if actual.as_slice() != expected.as_slice() {
        return Err(Error::Checksum {
            package: package.to_string(),
            expected: integrity.to_string(),
            actual: format!(
                "sha512-{}",
                base64::engine::general_purpose::STANDARD.encode(actual)
            ),
        });
    }
    Ok(hex::encode(actual))
}

/// The tarball of `spec`: downloaded from the address npm gives, else (a registry that
/// wants npm's credentials, a proxy only npm knows) through `npm pack`.
fn obtain(
    npm: &Npm,
    spec: &str,
    progress: bool,
    scratch: &Path,
) -> Result<(Vec<u8>, String), Error> {
    let url = npm.tarball_url(spec)?;
    match download(spec, &url, progress) {
        Ok(bytes) => Ok((bytes, url)),
        Err(download_err) => {
            if progress {
                eprintln!("{download_err}; trying `npm pack`");
            }
            // Into the fetch's working directory: a killed fetch's tarball goes with it.
            let dir = tempfile::tempdir_in(scratch).map_err(Error::io(scratch))?;
            let path = npm
                .pack(spec, dir.path())
                .map_err(|pack_err| Error::Download {
                    package: spec.to_string(),
                    url: url.clone(),
                    why: format!("{download_err}; `npm pack` also failed: {pack_err}"),
                })?;
            let bytes = std::fs::read(&path).map_err(Error::io(&path))?;
            Ok((bytes, "npm pack".to_string()))
        }
    }
}

fn download(spec: &str, url: &str, progress: bool) -> Result<Vec<u8>, Error> {
    http::get(
        url,
        &format!("download {spec}"),
        MAX_TARBALL_BYTES,
        progress,
    )
    .map_err(|e| Error::Download {
        package: spec.to_string(),
        url: url.to_string(),
        why: e.why,
    })
}

/// Whether `take` needs the package-relative `path` out of the tarball.
fn wants(take: &Take, path: &str) -> bool {
    match *take {
        Take::Files {
            dir,
            name_prefix,
            suffix,
            recursive,
            except_prefix,
        } => {
            let Some(rest) = path.strip_prefix(dir) else {
                return false;
            };
            let name = rest.rsplit('/').next().unwrap_or(rest);
            (recursive || !rest.contains('/'))
                && name.starts_with(name_prefix)
                && name.ends_with(suffix)
                && except_prefix.is_none_or(|p| !name.starts_with(p))
        }
        Take::File(file) => path == file,
        Take::Maps { dir, except_dirs } => {
            path.starts_with(dir)
                && path.ends_with(".js.map")
                && !except_dirs.iter().any(|d| path.starts_with(d))
        }
        Take::TypeOnlyFrom { dir } => path.starts_with(dir) && path.ends_with(".d.ts"),
    }
}

/// Applies a package's takes to its unpacked entries; returns corpus paths and contents.
fn select(
    plan: &FetchPlan,
    def: &PackageDef,
    pin: &Pin,
    short: &str,
    entries: &BTreeMap<String, Vec<u8>>,
    blobs_skipped: &mut Vec<String>,
    type_only: &mut Vec<String>,
) -> Result<BTreeMap<String, Vec<u8>>, Error> {
    let spec = pin.spec();
    let mut out = BTreeMap::new();
    for take in def.take {
        let before = out.len();
        match *take {
            Take::Files { .. } | Take::File(_) => {
                for (path, bytes) in entries.iter().filter(|(p, _)| wants(take, p)) {
                    out.insert(format!("{}{path}", def.prefix), bytes.clone());
                }
            }
            Take::Maps { .. } => {
                for (path, json) in entries.iter().filter(|(p, _)| wants(take, p)) {
                    // Maps' sources are relative to a package directory named after the package.
                    let rebuilt =
                        sourcemap::rebuild(&format!("{short}/{path}"), json).map_err(|e| {
                            Error::SourceMap {
                                package: spec.clone(),
                                map: path.clone(),
                                why: e.to_string(),
                            }
                        })?;
                    for (src, text) in rebuilt.sources {
                        out.insert(format!("{}{src}", def.prefix), text.into_bytes());
                    }
                    blobs_skipped.extend(
                        rebuilt
                            .blobs
                            .into_iter()
                            .map(|b| format!("{}{b}", def.prefix)),
                    );
                }
            }
            Take::TypeOnlyFrom { dir } => {
                let decls: BTreeMap<String, &[u8]> = entries
                    .iter()
                    .filter(|(p, _)| wants(take, p))
                    .filter_map(|(p, b)| {
                        Some((
                            paths::join_normalised("", p.strip_prefix(dir)?)?,
                            b.as_slice(),
                        ))
                    })
                    .collect();
                let scope = pin.package.split_once('/').map(|(s, _)| format!("{s}/"));
                let filled = excalidraw::fill_type_only(&out, &decls, scope.as_deref());
                for (path, bytes) in filled {
                    type_only.push(path.clone());
                    out.insert(path, bytes);
                }
                continue;
            }
        }
        if out.len() == before {
            return Err(Error::EmptySelection {
                corpus: plan.name.clone(),
                package: spec.clone(),
                selection: pin.what.clone(),
            });
        }
    }
    blobs_skipped.sort();
    blobs_skipped.dedup();
    Ok(out)
}
