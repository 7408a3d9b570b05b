//! Rebuilding sources from a source map's `sourcesContent`.

use serde::Deserialize;

use crate::paths;

/// A line longer than this (64 KiB) marks an embedded blob (base64 wasm or fonts), not source.
pub const BLOB_LINE_BYTES: usize = 64 * 1024;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMap {
    #[serde(default)]
    source_root: Option<String>,
    #[serde(default)]
    sources: Vec<Option<String>>,
    #[serde(default)]
    sources_content: Option<Vec<Option<String>>>,
}

/// What one map gave: the sources it carries and what it had to leave out.
#[derive(Debug, Default)]
pub struct Rebuilt {
    /// `(corpus path, text)` of every source with a source extension and content.
    pub sources: Vec<(String, String)>,
    /// Corpus paths of sources skipped as embedded blobs.
    pub blobs: Vec<String>,
}

/// Reads the map at `map_path` (a corpus-relative path naming where the map lives, which is
/// what its `sources` are relative to) and returns its sources with their normalised paths.
///
/// Sources without a source extension (JSON, CSS, fonts, bundler placeholders such as
/// `<define:import.meta.env>`), without content, or whose path normalises to nothing are
/// left out; sources with a line over [`BLOB_LINE_BYTES`] are listed in `blobs` instead.
pub fn rebuild(map_path: &str, json: &[u8]) -> Result<Rebuilt, serde_json::Error> {
    let raw: RawMap = serde_json::from_slice(json)?;
    let contents = raw.sources_content.unwrap_or_default();
    let dir = paths::parent(map_path);
    let base = match raw.source_root.as_deref().filter(|r| !r.is_empty()) {
        Some(root) => paths::join_normalised(dir, root).unwrap_or_default(),
        None => dir.to_string(),
    };
    let mut out = Rebuilt::default();
    for (source, content) in raw.sources.iter().zip(contents) {
        let (Some(source), Some(content)) = (source, content) else {
            continue;
        };
        let Some(path) = paths::join_normalised(&base, source) else {
            continue;
        };
        if paths::source_extension(&path).is_none() {
            continue;
        }
        if content.lines().any(|l| l.len() > BLOB_LINE_BYTES) {
            out.blobs.push(path);
        } else {
            out.sources.push((path, content));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_resolved_against_the_map_directory() {
        let map = br#"{"version":3,"sources":["../../src/a.ts","../../styles.css","<define:x>"],
            "sourcesContent":["export const a = 1;\n","body{}",""],"mappings":""}"#;
        let got = rebuild("pkg/dist/dev/index.js.map", map).unwrap();
        assert_eq!(
            got.sources,
            vec![(
                "pkg/src/a.ts".to_string(),
                "export const a = 1;\n".to_string()
            )]
        );
        assert!(got.blobs.is_empty());
    }

    #[test]
    fn a_source_with_a_giant_line_is_a_blob() {
        let blob = format!("export default \"{}\";", "A".repeat(BLOB_LINE_BYTES + 1));
        let map = serde_json::json!({"sources": ["wasm.ts"], "sourcesContent": [blob]});
        let got = rebuild("dist/x.js.map", map.to_string().as_bytes()).unwrap();
        assert!(got.sources.is_empty());
        assert_eq!(got.blobs, vec!["dist/wasm.ts".to_string()]);
    }

    #[test]
    fn a_map_without_sources_content_gives_nothing() {
        let got = rebuild("x.js.map", br#"{"sources":["a.ts"]}"#).unwrap();
        assert!(got.sources.is_empty());
    }
}
