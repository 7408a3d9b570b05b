//! Module resolution: a relative specifier to a file of the corpus, as TypeScript resolves it.
use rustc_hash::FxHashMap;

/// Resolves a module specifier written in `from` like TypeScript: relative paths only,
/// trying the TypeScript extensions, `.js` written for `.ts`, and index files.
pub fn resolve_module(paths: &FxHashMap<&str, u32>, from: &str, specifier: &str) -> Option<u32> {
    if !(specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == "..")
    {
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
    let base = parts.join("/");
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
    if let Some(i) = lookup(&base).filter(|_| crate::parse::is_source_path(&base)) {
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
