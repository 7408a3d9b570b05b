//! Module resolution: a relative specifier, or a bare one through the corpus's module roots
//! (its tsconfig `paths`), to a file of the corpus, as TypeScript resolves it.
use rustc_hash::FxHashMap;

/// Resolves a module specifier written in `from`: a relative one as [`resolve_module`] does, a
/// bare one through `roots`, `(module name, corpus path)` pairs as `corpora::module_roots`
/// gives them: the longest module name equal to the specifier, or followed in it by `/rest`,
/// stands for its path (`/rest` appended), tried with the same extensions and index files.
/// Anything else (a third-party package) does not resolve.
pub fn resolve_import(
    paths: &FxHashMap<&str, u32>,
    roots: &[(&str, &str)],
    from: &str,
    specifier: &str,
) -> Option<u32> {
    if is_relative(specifier) {
        return resolve_module(paths, from, specifier);
    }
    let (module, path) = roots
        .iter()
        .filter(|(module, _)| {
            specifier
                .strip_prefix(module)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
        .max_by_key(|(module, _)| module.len())?;
    find(paths, &format!("{path}{}", &specifier[module.len()..]))
}

fn is_relative(specifier: &str) -> bool {
    specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == ".."
}

/// Resolves a module specifier written in `from` like TypeScript: relative paths only,
/// trying the TypeScript extensions, `.js` written for `.ts`, and index files.
pub fn resolve_module(paths: &FxHashMap<&str, u32>, from: &str, specifier: &str) -> Option<u32> {
    if !is_relative(specifier) {
        return None;
    }
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in specifier.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    find(paths, &parts.join("/"))
}

/// The file a corpus path without extension (or with a JavaScript one) stands for.
fn find(paths: &FxHashMap<&str, u32>, base: &str) -> Option<u32> {
    let lookup = |p: &str| paths.get(p).copied();
    let js_swaps: &[(&str, &[&str])] = &[
        (".js", &[".ts", ".tsx", ".d.ts", ".js"]),
        (".jsx", &[".tsx", ".jsx"]),
        (".mjs", &[".mts", ".d.mts", ".mjs"]),
        (".cjs", &[".cts", ".d.cts", ".cjs"]),
    ];
    for (ext, replacements) in js_swaps {
        if let Some(stem) = base.strip_suffix(ext) {
            for r in *replacements {
                if let Some(i) = lookup(&format!("{stem}{r}")) {
                    return Some(i);
                }
            }
        }
    }
    if let Some(i) = lookup(base).filter(|_| crate::parse::is_source_path(base)) {
        return Some(i);
    }
    const TRY: &[&str] = &[
        ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
    ];
    TRY.iter()
        .find_map(|ext| lookup(&format!("{base}{ext}")))
        .or_else(|| {
            TRY.iter()
                .find_map(|ext| lookup(&format!("{base}/index{ext}")))
        })
}
