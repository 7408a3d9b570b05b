//! Which standard library files a corpus is checked against: the ones TypeScript loads for
//! `target: es2022` without a `lib` option, `lib.es2022.full.d.ts` and every file it
//! reaches through `/// <reference lib="..." />` directives (63 files: es5 to es2022, dom,
//! scripthost, webworker.importscripts, decorators). The rest of the package's `lib/`
//! (esnext, es2023 and later, webworker, which redeclares dom's globals) is left out, as
//! TypeScript leaves it out.
use std::collections::{HashMap, HashSet};

use crate::{Error, SourceFile};

/// The root file of the default library, as TypeScript names it for `target: es2022`.
pub const DEFAULT_LIB: &str = "lib.es2022.full.d.ts";

/// Environment variable naming another root (`es5` or `lib.es5.d.ts`, as TypeScript's
/// `lib` option names its files), to check a corpus against a smaller or larger library.
pub const LIB_ENV: &str = "CHECKBENCH_LIB";

/// The root file: [`LIB_ENV`] when set and not empty, else [`DEFAULT_LIB`].
pub fn root() -> String {
    match std::env::var(LIB_ENV) {
        Ok(v) if !v.trim().is_empty() => root_file_name(v.trim()),
        _ => DEFAULT_LIB.to_string(),
    }
}

/// `es5` and `lib.es5.d.ts` both name `lib.es5.d.ts`.
fn root_file_name(name: &str) -> String {
    if name.starts_with("lib.") && name.ends_with(".d.ts") {
        name.to_string()
    } else {
        format!("lib.{}.d.ts", name.to_ascii_lowercase())
    }
}

/// The files of `all` (the package's `lib/lib.*.d.ts`) reachable from `root`, each after
/// the files it references (a depth-first post-order, so `lib.es5.d.ts` comes first, as
/// in TypeScript's program: the first declaration of a merged interface is es5's, with
/// its type parameter defaults).
pub fn select(all: Vec<SourceFile>, root: &str) -> Result<Vec<SourceFile>, Error> {
    let file_name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let by_name: HashMap<String, usize> = all
        .iter()
        .enumerate()
        .map(|(i, f)| (file_name(&f.path), i))
        .collect();
    let mut order: Vec<usize> = Vec::new();
    let mut seen: HashSet<usize> = HashSet::new();
    visit(&all, &by_name, root, None, &mut seen, &mut order)?;
    let mut slots: Vec<Option<SourceFile>> = all.into_iter().map(Some).collect();
    Ok(order.into_iter().filter_map(|i| slots[i].take()).collect())
}

fn visit(
    all: &[SourceFile],
    by_name: &HashMap<String, usize>,
    name: &str,
    from: Option<&str>,
    seen: &mut HashSet<usize>,
    order: &mut Vec<usize>,
) -> Result<(), Error> {
    let Some(&i) = by_name.get(name) else {
        let why = match from {
            Some(_) => format!("the standard library has no `{name}`"),
            None => format!(
                "the standard library has no `{name}` (the root: {LIB_ENV} or {DEFAULT_LIB})"
            ),
        };
        return Err(Error::Cache {
            path: from.unwrap_or("lib").into(),
            why,
        });
    };
    // Marked before the references are followed, so reference cycles end.
    if !seen.insert(i) {
        return Ok(());
    }
    for lib in references(&all[i].bytes) {
        visit(
            all,
            by_name,
            &format!("lib.{lib}.d.ts"),
            Some(&all[i].path),
            seen,
            order,
        )?;
    }
    order.push(i);
    Ok(())
}

/// The `lib` names of a file's leading `/// <reference lib="..." />` directives.
fn references(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("///") && l.contains("<reference"))
        .filter_map(|l| {
            // The attribute `lib=`, not the end of `no-default-lib=`.
            let rest = l.split_whitespace().find_map(|w| w.strip_prefix("lib="))?;
            let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let rest = &rest[1..];
            Some(rest[..rest.find(quote)?].to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile {
            path: format!("lib/{name}"),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn the_library_is_the_closure_of_the_root_over_reference_directives_in_post_order() {
        let all = vec![
            file(
                "lib.a.d.ts",
                "/// <reference lib=\"b\" />\n/// <reference lib='c' />\ninterface A {}",
            ),
            file("lib.b.d.ts", "/// <reference lib=\"c\" />\ninterface B {}"),
            file("lib.c.d.ts", "/// <reference lib=\"a\" />\ninterface C {}"),
            file("lib.d.d.ts", "interface D {}"),
        ];
        let picked = select(all, "lib.a.d.ts").unwrap();
        let names: Vec<&str> = picked.iter().map(|f| f.path.as_str()).collect();
        // Each file after the files it references; the cycle back to `a` ends the walk.
        assert_eq!(
            names,
            ["lib/lib.c.d.ts", "lib/lib.b.d.ts", "lib/lib.a.d.ts"]
        );
    }

    #[test]
    fn a_missing_referenced_library_file_is_an_error_naming_the_file_that_references_it() {
        let all = vec![file("lib.a.d.ts", "/// <reference lib=\"gone\" />")];
        let err = select(all, "lib.a.d.ts").unwrap_err().to_string();
        assert!(
            err.contains("lib/lib.a.d.ts") && err.contains("lib.gone.d.ts"),
            "{err}"
        );
    }

    #[test]
    fn a_root_is_named_as_typescript_names_its_lib_files() {
        assert_eq!(root_file_name("es5"), "lib.es5.d.ts");
        assert_eq!(root_file_name("ES2015.Core"), "lib.es2015.core.d.ts");
        assert_eq!(root_file_name("lib.dom.d.ts"), "lib.dom.d.ts");
    }

    #[test]
    fn an_unknown_root_is_an_error_naming_the_variable() {
        let all = vec![file("lib.a.d.ts", "interface A {}")];
        let err = select(all, "lib.nope.d.ts").unwrap_err().to_string();
        assert!(
            err.contains("lib.nope.d.ts") && err.contains(LIB_ENV),
            "{err}"
        );
    }

    #[test]
    fn references_after_the_header_comments_are_still_read_but_other_comments_are_not() {
        let refs = references(b"/*! licence */\n/// <reference no-default-lib=\"true\"/>\n/// <reference lib=\"es5\" />\n// lib=\"x\"\n");
        assert_eq!(refs, ["es5"]);
    }
}
