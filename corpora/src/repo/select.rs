//! Which files of a repository a corpus takes: a project's tsconfig `include` and `exclude`,
//! applied as TypeScript expands them.

/// A tsconfig-style selection of repository paths (`/`-separated, relative to the root).
///
/// A path is taken when it lies under one of `include`, no part of it matches an `exclude`
/// pattern, it ends in one of `extensions`, and, as TypeScript's wildcard expansion does,
/// none of its names below the include directory starts with `.` or is `node_modules`,
/// `bower_components` or `jspm_packages`. A name holding a tab or a line break is never
/// taken, so every path fits on one line of a listing.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// Directories whose files are taken (tsconfig `include`, each a directory).
    pub include: &'static [&'static str],
    /// Directories left out (tsconfig `exclude`); a `*` part matches any one name.
    pub exclude: &'static [&'static str],
    /// File name endings taken (`.ts` takes `.d.ts` too).
    pub extensions: &'static [&'static str],
}

/// Directory names TypeScript's wildcard expansion never enters.
const SKIPPED_DIRS: &[&str] = &["node_modules", "bower_components", "jspm_packages"];

/// What TypeScript takes from an `include` without extensions when `allowJs` is off.
pub const TYPESCRIPT_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".mts", ".cts"];

impl Selection {
    /// Whether the repository path `path` belongs to the selection.
    pub fn wants(&self, path: &str) -> bool {
        if path.contains(['\t', '\n', '\r', '\0', '\\']) {
            return false;
        }
        let Some(below) = self.include.iter().find_map(|dir| {
            path.strip_prefix(dir.trim_end_matches('/'))
                .and_then(|rest| rest.strip_prefix('/'))
        }) else {
            return false;
        };
        let parts: Vec<&str> = path.split('/').collect();
        below
            .split('/')
            .all(|name| !name.is_empty() && !name.starts_with('.') && !SKIPPED_DIRS.contains(&name))
            && self.extensions.iter().any(|e| path.ends_with(e))
            && !self.exclude.iter().any(|pattern| excludes(pattern, &parts))
    }

    /// The directories to ask an archive for: everything taken lies under one of them.
    pub fn roots(&self) -> impl Iterator<Item = &'static str> {
        self.include.iter().map(|d| d.trim_end_matches('/'))
    }
}

/// Whether `pattern` (a directory, `*` matching one name) covers the path split in `parts`.
fn excludes(pattern: &str, parts: &[&str]) -> bool {
    let pattern: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    pattern.len() < parts.len()
        && pattern
            .iter()
            .zip(parts)
            .all(|(want, part)| *want == "*" || want == part)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYWRIGHT_LIKE: Selection = Selection {
        include: &["packages"],
        exclude: &["packages/*/lib", "packages/extension"],
        extensions: TYPESCRIPT_EXTENSIONS,
    };

    #[test]
    fn files_under_the_include_directory_with_typescript_endings_are_taken() {
        assert!(PLAYWRIGHT_LIKE.wants("packages/core/src/a.ts"));
        assert!(PLAYWRIGHT_LIKE.wants("packages/core/src/b.tsx"));
        assert!(PLAYWRIGHT_LIKE.wants("packages/core/types/c.d.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/core/src/d.js"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/core/package.json"));
        assert!(!PLAYWRIGHT_LIKE.wants("tests/a.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packagesx/a.ts"));
    }

    #[test]
    fn excluded_directories_are_left_out_and_a_star_matches_one_name() {
        assert!(!PLAYWRIGHT_LIKE.wants("packages/core/lib/a.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/web/lib/x/b.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/extension/src/c.ts"));
        assert!(PLAYWRIGHT_LIKE.wants("packages/core/src/lib/a.ts"));
        assert!(PLAYWRIGHT_LIKE.wants("packages/extensions/a.ts"));
    }

    #[test]
    fn hidden_and_package_manager_directories_are_never_entered() {
        assert!(!PLAYWRIGHT_LIKE.wants("packages/core/node_modules/x/a.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/.cache/a.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/core/.a.ts"));
        assert!(!PLAYWRIGHT_LIKE.wants("packages/core/a\tb.ts"));
    }
}
