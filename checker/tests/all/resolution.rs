//! Module resolution inside the corpus, as TypeScript does it: relative specifiers, and bare
//! ones through the corpus's module roots (its tsconfig `paths`).
use checker::bind::{resolve_import, resolve_module};
use rustc_hash::FxHashMap;

fn paths(list: &[&'static str]) -> FxHashMap<&'static str, u32> {
    list.iter()
        .enumerate()
        .map(|(i, p)| (*p, i as u32))
        .collect()
}

#[test]
fn extensions_are_tried_in_typescript_order() {
    let p = paths(&["src/a.ts", "src/b.tsx", "src/c.d.ts", "src/d.js"]);
    assert_eq!(resolve_module(&p, "src/x.ts", "./a"), Some(0));
    assert_eq!(resolve_module(&p, "src/x.ts", "./b"), Some(1));
    assert_eq!(resolve_module(&p, "src/x.ts", "./c"), Some(2));
    assert_eq!(resolve_module(&p, "src/x.ts", "./d"), Some(3));
}

#[test]
fn a_js_specifier_finds_the_ts_source() {
    let p = paths(&["src/a.ts", "src/m.mts", "lib/x.d.ts"]);
    assert_eq!(resolve_module(&p, "src/x.ts", "./a.js"), Some(0));
    assert_eq!(resolve_module(&p, "src/x.ts", "./m.mjs"), Some(1));
    assert_eq!(resolve_module(&p, "src/y/z.ts", "../../lib/x.js"), Some(2));
}

#[test]
fn directories_resolve_to_their_index_file() {
    let p = paths(&["src/dir/index.ts", "src/other/index.tsx"]);
    assert_eq!(resolve_module(&p, "src/x.ts", "./dir"), Some(0));
    assert_eq!(resolve_module(&p, "src/a/b.ts", "../other"), Some(1));
}

#[test]
fn bare_and_escaping_specifiers_do_not_resolve() {
    let p = paths(&["react.ts", "src/a.ts"]);
    assert_eq!(resolve_module(&p, "src/x.ts", "react"), None);
    assert_eq!(resolve_module(&p, "x.ts", "../../a"), None);
    assert_eq!(resolve_module(&p, "src/x.ts", "./missing"), None);
}

#[test]
fn bare_specifiers_resolve_through_the_longest_matching_module_root() {
    let p = paths(&[
        "packages/isomorphic/time.ts",
        "packages/core/src/server/index.ts",
        "packages/core/src/client/api.ts",
        "packages/core/types/types.d.ts",
    ]);
    let roots = [
        ("@isomorphic", "packages/isomorphic"),
        ("core", "packages/core/types/types"),
        ("core/lib", "packages/core/src"),
    ];
    let from = "packages/web/src/a.ts";
    assert_eq!(
        resolve_import(&p, &roots, from, "@isomorphic/time"),
        Some(0)
    );
    assert_eq!(resolve_import(&p, &roots, from, "core/lib/server"), Some(1));
    assert_eq!(
        resolve_import(&p, &roots, from, "core/lib/client/api.js"),
        Some(2)
    );
    assert_eq!(resolve_import(&p, &roots, from, "core"), Some(3));
}

#[test]
fn bare_specifiers_outside_the_module_roots_stay_unresolved() {
    let p = paths(&["packages/isomorphic/time.ts", "src/a.ts"]);
    let roots = [("@isomorphic", "packages/isomorphic")];
    assert_eq!(resolve_import(&p, &roots, "src/x.ts", "react"), None);
    assert_eq!(
        resolve_import(&p, &roots, "src/x.ts", "@isomorphicx/time"),
        None
    );
    assert_eq!(
        resolve_import(&p, &roots, "src/x.ts", "@isomorphic/missing"),
        None
    );
    assert_eq!(
        resolve_import(&p, &[], "src/x.ts", "@isomorphic/time"),
        None
    );
    assert_eq!(resolve_import(&p, &roots, "src/x.ts", "./a"), Some(1));
}
