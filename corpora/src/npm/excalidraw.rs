//! Type-only modules: a bundler's maps hold only modules that emit code, so a module that
//! only declares types (`element/types.ts`) is missing from the rebuilt sources while
//! others import it. The package's declaration output (`dist/types`) has it; this fills
//! each such import, and the imports of what it fills, from there.

use std::collections::BTreeMap;

use crate::{paths, stats};

/// Declarations from `decls` (by corpus path) for every relative or in-scope import of
/// `sources` that resolves to no source. `scope` (`@excalidraw/`) maps bare in-scope
/// imports (`@excalidraw/math/types`) onto the corpus's top directories (`math/types`).
pub(crate) fn fill_type_only(
    sources: &BTreeMap<String, Vec<u8>>,
    decls: &BTreeMap<String, &[u8]>,
    scope: Option<&str>,
) -> Vec<(String, Vec<u8>)> {
    let mut filled: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut work: Vec<(String, Vec<u8>)> = sources
        .iter()
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect();
    while let Some((path, bytes)) = work.pop() {
        for spec in stats::imports(&path, &bytes) {
            let Some(base) = target(&path, &spec, scope) else {
                continue;
            };
            let exists = |p: &str| sources.contains_key(p) || filled.contains_key(p);
            if candidates(&base).iter().any(|c| exists(c)) {
                continue;
            }
            let stem = base.strip_suffix(".js").unwrap_or(&base);
            let found = [format!("{stem}.d.ts"), format!("{base}/index.d.ts")]
                .into_iter()
                .find_map(|c| decls.get(&c).map(|b| (c, b.to_vec())));
            if let Some((decl_path, decl)) = found {
                filled.insert(decl_path.clone(), decl.clone());
                work.push((decl_path, decl));
            }
        }
    }
    filled.into_iter().collect()
}

/// The corpus path an import points at, before extensions, or `None` for outside packages.
fn target(from: &str, spec: &str, scope: Option<&str>) -> Option<String> {
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        return paths::join_normalised(paths::parent(from), spec);
    }
    let rest = spec.strip_prefix(scope?)?;
    paths::join_normalised("", rest)
}

/// The files an extensionless import may name, in resolution order.
fn candidates(base: &str) -> Vec<String> {
    let stem = base.strip_suffix(".js").unwrap_or(base);
    let mut out = vec![base.to_string()];
    for ext in [".ts", ".tsx", ".d.ts"] {
        out.push(format!("{stem}{ext}"));
    }
    for index in ["index.ts", "index.tsx", "index.d.ts"] {
        out.push(format!("{base}/{index}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_only_import_is_filled_with_its_declarations_and_theirs() {
        let sources = BTreeMap::from([
            (
                "ex/app.ts".to_string(),
                b"import type { A } from './types';\nimport { b } from './b';\nexport const x: A = b;\n".to_vec(),
            ),
            ("ex/b.ts".to_string(), b"export const b = 1;\n".to_vec()),
        ]);
        let decl_types: &[u8] = b"import type { P } from '@ex/math/point';\nexport type A = P;\n";
        let decl_point: &[u8] = b"export type P = number;\n";
        let decl_b: &[u8] = b"export declare const b = 1;\n";
        let decls = BTreeMap::from([
            ("ex/types.d.ts".to_string(), decl_types),
            ("math/point.d.ts".to_string(), decl_point),
            ("ex/b.d.ts".to_string(), decl_b),
        ]);
        let filled: Vec<String> = fill_type_only(&sources, &decls, Some("@ex/"))
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            filled,
            vec!["ex/types.d.ts".to_string(), "math/point.d.ts".to_string()]
        );
    }
}
