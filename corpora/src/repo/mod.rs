//! Corpora taken from a public git repository at a pinned commit: the repository table and the
//! listings beside it (`table`), what is taken (`select`), the content digest that pins it
//! (`digest`), where the files are read from (`source`), and fetching or importing them into
//! the cache (`fetch`).

mod digest;
mod fetch;
mod select;
mod source;
mod table;

pub use digest::{content_digest, digest_of_listing, listing};
pub use fetch::{RepoPlan, RepoRecord, fetch_repo, import_repo, read_selection};
pub use select::{Selection, TYPESCRIPT_EXTENSIONS};
pub use table::{RepoPin, repo_pins};
