//! corpora: public interface (the corpora helper fills it in).
pub mod synthetic;

use std::path::PathBuf;

/// One source file of a corpus.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path relative to the corpus root, `/`-separated.
    pub path: String,
    /// Raw contents; the checker reports invalid UTF-8 as a diagnostic.
    pub bytes: Vec<u8>,
}

/// Where a corpus's files come from, said honestly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    Synthetic,
    AuthoredSource,
    RebuiltFromMaps,
    DeclarationsOnly,
    Local,
}

/// A corpus: its own files and the standard library it is checked against.
#[derive(Clone, Debug)]
pub struct Corpus {
    pub name: String,
    pub provenance: Provenance,
    pub files: Vec<SourceFile>,
    pub lib: Vec<SourceFile>,
}

/// How to open a corpus.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// Cache root; `None` means the default (env `CHECKBENCH_CACHE`, then XDG cache).
    pub cache_dir: Option<PathBuf>,
    /// Fetch a named corpus that is not cached yet.
    pub fetch: bool,
    /// Show progress bars on stderr.
    pub progress: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("unknown corpus `{0}`")]
    Unknown(String),
}

/// Opens a corpus by name (`synthetic`, `synthetic:trpc`, `trpc`, ...) or by directory path.
pub fn open(spec: &str, _opts: &OpenOptions) -> Result<Corpus, Error> {
    Err(Error::Unknown(spec.to_string()))
}
