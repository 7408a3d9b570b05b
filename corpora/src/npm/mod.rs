//! The named corpora: real packages pinned in the reference table (`table`), located with the
//! user's npm (`client`), downloaded and verified against their pins (`fetch`), unpacked
//! (`unpack`), rebuilt from source maps where the package ships no source (`sourcemap`,
//! `excalidraw`), and kept in a verified cache (`cache`). The standard library every named and
//! local corpus is checked against is one of them (`stdlib` picks its files).

pub(crate) mod cache;
mod client;
mod excalidraw;
mod fetch;
pub mod sourcemap;
pub mod stdlib;
mod table;
mod unpack;

pub(crate) use cache::Check;
pub use cache::{
    CACHE_ENV, CacheState, FileRecord, Manifest, PackageRecord, cache_root, cache_state,
    corpus_dir, corpus_state, read_manifest,
};
pub use client::{NPM_ENV, NPM_TIMEOUT_ENV, Npm};
pub use fetch::{FetchPlan, fetch, fetch_plan, import, verify_integrity};
pub(crate) use table::names;
pub use table::{
    CorpusDef, LIB, PackageDef, Pin, Take, corpus_def, corpus_defs, module_roots, pins,
};

use crate::{Corpus, Error, OpenOptions, SourceFile};

/// A named corpus and the standard library it is checked against (none for `lib` itself).
pub(crate) fn open(def: &CorpusDef, opts: &OpenOptions, check: Check) -> Result<Corpus, Error> {
    let files = open_named(def, opts, check)?;
    let lib = if def.name == table::LIB_CORPUS {
        Vec::new()
    } else {
        lib(opts, check)?
    };
    Ok(Corpus {
        name: def.name.to_string(),
        provenance: def.provenance,
        files,
        lib,
    })
}

/// The standard library's files that [`stdlib::root`] reaches, in load order.
pub(crate) fn lib(opts: &OpenOptions, check: Check) -> Result<Vec<SourceFile>, Error> {
    stdlib::select(open_named(table::lib_def(), opts, check)?, &stdlib::root())
}

/// Reads a named corpus from the cache, fetching it first when allowed (when it is absent,
/// stale or damaged).
fn open_named(def: &CorpusDef, opts: &OpenOptions, check: Check) -> Result<Vec<SourceFile>, Error> {
    let root = cache::resolve_root(opts.cache_dir.as_deref())?;
    let pins = def.pins();
    let plan = def.repo_plan();
    let origin = cache::Origin {
        pins: &pins,
        repository: plan.as_ref().map(|p| &p.pin),
    };
    let state = match cache::load(&root, def.name, &origin, check)? {
        cache::Loaded::Files(files) => return Ok(files),
        cache::Loaded::Unusable(state) => state,
    };
    if !opts.fetch {
        return Err(match state {
            CacheState::Absent => Error::NotCached(def.name.to_string()),
            state => Error::Unusable {
                corpus: def.name.to_string(),
                state: Box::new(state),
            },
        });
    }
    fetch::fetch_into(def, &root, &Npm::from_env(), opts.progress)?;
    match cache::load(&root, def.name, &origin, check)? {
        cache::Loaded::Files(files) => Ok(files),
        cache::Loaded::Unusable(state) => Err(Error::Cache {
            path: cache::corpus_dir(&root, def.name),
            why: format!("fetched but not readable back: {state}"),
        }),
    }
}
