//! The embedded synthetic corpus (the synthetic helper fills it in).
use crate::Corpus;

/// A synthetic spec that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("bad synthetic corpus spec `{spec}`: {why}")]
pub struct SpecError {
    pub spec: String,
    pub why: String,
}

/// Opens `synthetic`, `synthetic:PROFILE`, `synthetic@SIZE` or `synthetic:PROFILE@SIZE`.
pub fn open(spec: &str) -> Result<Corpus, SpecError> {
    Err(SpecError {
        spec: spec.to_string(),
        why: "not generated yet".to_string(),
    })
}
