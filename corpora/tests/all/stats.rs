//! stats: sizes by extension and the syntax mix, counted from the AST.

use corpora::stats::measure;
use corpora::{Corpus, Provenance, SourceFile};

fn corpus(files: &[(&str, &str)]) -> Corpus {
    Corpus {
        name: "t".to_string(),
        provenance: Provenance::Local,
        files: files
            .iter()
            .map(|(p, t)| SourceFile {
                path: p.to_string(),
                bytes: t.as_bytes().to_vec(),
            })
            .collect(),
        lib: Vec::new(),
    }
}

#[test]
fn the_syntax_mix_counts_each_construct() {
    let c = corpus(&[
        (
            "a.ts",
            "interface I { x: number }\ntype T = I | string;\n@sealed\nclass C implements I { x = 1; m() { return () => 2; } }\nexport function f(a: T): T { return a; }\nconst p = 1, q = 2;\n",
        ),
        (
            "v.tsx",
            "export const V = () => <div><span /></div>;\nconst W = <>{V()}</>;\n",
        ),
    ]);
    let s = measure(&c);
    assert!(s.parse_failures.is_empty(), "{:?}", s.parse_failures);
    let m = s.mix;
    assert_eq!(
        (m.interfaces, m.type_aliases, m.classes, m.decorators),
        (1, 1, 1, 1)
    );
    // f, the method m, its arrow, and V's arrow.
    assert_eq!(m.functions, 4);
    assert_eq!(m.jsx_elements, 3);
    // I, T, C, f, p, q, V, W.
    assert_eq!(m.declarations, 8);
}

#[test]
fn sizes_are_grouped_by_extension() {
    let c = corpus(&[
        ("a.ts", "a;\nb;\n"),
        ("b.d.ts", "declare const x: 1;"),
        ("c.ts", ""),
    ]);
    let s = measure(&c);
    assert_eq!(s.by_extension[".ts"].files, 2);
    assert_eq!(s.by_extension[".ts"].lines, 2);
    assert_eq!(s.by_extension[".d.ts"].lines, 1);
    assert_eq!(s.total.bytes, 6 + 19);
    assert!((s.per_kloc(3) - 1000.0).abs() < 1e-9);
}

#[test]
fn unparsable_and_non_utf8_files_are_listed_not_fatal() {
    let mut c = corpus(&[("ok.ts", "let a = 1;\n"), ("bad.ts", "let = = ;\n")]);
    c.files.push(SourceFile {
        path: "latin1.ts".to_string(),
        bytes: b"const s = '\xe9';\n".to_vec(),
    });
    let s = measure(&c);
    let failed: Vec<&str> = s.parse_failures.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(failed, vec!["bad.ts", "latin1.ts"]);
    assert_eq!(s.mix.declarations, 1);
}
