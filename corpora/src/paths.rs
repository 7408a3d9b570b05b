//! Corpus paths: relative, `/`-separated, never escaping the corpus root.

/// Source extensions a corpus keeps, longest first so `.d.ts` wins over `.ts`.
pub(crate) const SOURCE_EXTENSIONS: &[&str] = &[
    ".d.mts", ".d.cts", ".d.ts", ".tsx", ".mts", ".cts", ".ts", ".jsx", ".mjs", ".cjs", ".js",
];

/// The source extension of `path`, if it has one.
pub(crate) fn source_extension(path: &str) -> Option<&'static str> {
    SOURCE_EXTENSIONS
        .iter()
        .copied()
        .find(|e| path.ends_with(e))
}

/// Joins `rel` onto the directory `base` and normalises the result lexically.
///
/// `.` is dropped, `..` pops a component, and a `..` with nothing left to pop is dropped
/// too: source maps routinely point above the package (`../../src/x.ts`), and the corpus
/// keeps the part below. Backslashes count as separators; a URL scheme
/// (`webpack://pkg/./src/x.ts`) and a bundler namespace before `/./` are stripped; a
/// Windows drive letter is dropped. Returns `None` for a path that ends up empty or
/// holds a NUL, so no result can name a file outside the root.
pub(crate) fn join_normalised(base: &str, rel: &str) -> Option<String> {
    if rel.contains('\0') {
        return None;
    }
    let rel = rel.replace('\\', "/");
    let (rel, absolute) = match rel.split_once("://") {
        // `webpack://name/./src/x.ts`: everything up to `/./` is the bundler's namespace.
        Some((_, rest)) => match rest.split_once("/./") {
            Some((_, below)) => (below.to_string(), true),
            None => (rest.to_string(), true),
        },
        None => {
            let absolute = rel.starts_with('/');
            (rel, absolute)
        }
    };
    let base = if absolute { "" } else { base };
    let mut parts: Vec<&str> = Vec::new();
    for part in base.split('/').chain(rel.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p if p.len() == 2 && p.ends_with(':') => {}
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("/"))
    }
}

/// The directory part of a `/`-separated path (`""` for a bare name).
pub(crate) fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_normalised_path_never_leaves_the_root(
            base in "[a-z./]{0,12}",
            rel in "([a-z]{1,3}|\\.|\\.\\.|webpack:|/|\\\\|C:){0,12}",
        ) {
            if let Some(p) = join_normalised(&base, &rel) {
                prop_assert!(!p.starts_with('/'), "{p}");
                prop_assert!(p.split('/').all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\\')), "{p}");
            }
        }
    }

    #[test]
    fn parents_above_the_root_are_dropped_not_followed() {
        assert_eq!(
            join_normalised("build/metadata", "../../../src/a.ts").as_deref(),
            Some("src/a.ts")
        );
        assert_eq!(
            join_normalised("excalidraw/dist/dev", "../../../math/angle.ts").as_deref(),
            Some("math/angle.ts")
        );
        assert_eq!(
            join_normalised("", "../../../../etc/passwd").as_deref(),
            Some("etc/passwd")
        );
    }

    #[test]
    fn url_schemes_and_bundler_namespaces_are_stripped() {
        assert_eq!(
            join_normalised("dist", "webpack://@scope/pkg/./src/x.ts").as_deref(),
            Some("src/x.ts")
        );
        assert_eq!(
            join_normalised("dist", "webpack:///src/x.ts").as_deref(),
            Some("src/x.ts")
        );
        assert_eq!(
            join_normalised("dist", "/abs/x.ts").as_deref(),
            Some("abs/x.ts")
        );
        assert_eq!(
            join_normalised("dist", "C:\\src\\x.ts").as_deref(),
            Some("dist/src/x.ts")
        );
    }

    #[test]
    fn empty_and_nul_paths_are_refused() {
        assert_eq!(join_normalised("", ".."), None);
        assert_eq!(join_normalised("a", "x\0.ts"), None);
    }

    #[test]
    fn declaration_extensions_win_over_plain_ones() {
        assert_eq!(source_extension("a/b.d.ts"), Some(".d.ts"));
        assert_eq!(source_extension("a/b.tsx"), Some(".tsx"));
        assert_eq!(source_extension("a/b.json"), None);
    }
}
