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
    let s = measure(&c).unwrap();
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
    let s = measure(&c).unwrap();
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
    let s = measure(&c).unwrap();
    let failed: Vec<&str> = s.parse_failures.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(failed, vec!["bad.ts", "latin1.ts"]);
    assert_eq!(s.mix.declarations, 1);
}

/// Sixteen ways to nest `n` deep: brackets, which the depth guard counts, and syntax it does not
/// count (operators, arrows, JSX, templates, types), which the big parse stacks take.
fn nestings(n: usize) -> Vec<(&'static str, String)> {
    let wrap = |open: &str, inner: &str, close: &str| {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    };
    vec![
        ("parens.ts", format!("const x = {};\n", wrap("(", "1", ")"))),
        ("arrays.ts", format!("const x = {};\n", wrap("[", "1", "]"))),
        (
            "objects.ts",
            format!("const x = {};\n", wrap("{a:", "1", "}")),
        ),
        ("blocks.ts", wrap("{", "", "}")),
        (
            "calls.ts",
            format!("f{};\n", wrap("(f", "", ")").replacen("(f", "(", 1)),
        ),
        (
            "ternaries.ts",
            format!("const x = {}0;\n", "a ? 1 : ".repeat(n)),
        ),
        ("nots.ts", format!("const x = {}a;\n", "!".repeat(n))),
        ("negations.ts", format!("const x = {}a;\n", "- ".repeat(n))),
        ("assignments.ts", format!("{}1;\n", "a = ".repeat(n))),
        ("arrows.ts", format!("const f = {}1;\n", "x => ".repeat(n))),
        (
            "templates.ts",
            format!("const s = {};\n", wrap("`${", "1", "}`")),
        ),
        (
            "jsx.tsx",
            format!("const e = {};\n", wrap("<a>", "", "</a>")),
        ),
        (
            "generics.ts",
            format!("type T = {};\n", wrap("A<", "1", ">")),
        ),
        (
            "conditionals.ts",
            format!("type T<X> = {}0;\n", "X extends 1 ? 1 : ".repeat(n)),
        ),
        ("news.ts", format!("const x = {}X;\n", "new ".repeat(n))),
        ("members.ts", format!("const x = a{};\n", ".b".repeat(n))),
    ]
}

#[test]
fn stats_survive_every_nesting_pattern_5000_deep_as_the_checker_does() {
    let files = nestings(5_000);
    let c = corpus(
        &files
            .iter()
            .map(|(p, t)| (*p, t.as_str()))
            .collect::<Vec<_>>(),
    );
    let s = measure(&c).unwrap();
    assert_eq!(s.total.files, 16);
    let too_deep: Vec<&str> = s
        .parse_failures
        .iter()
        .filter(|(_, why)| why.starts_with("brackets nested more than 4000 deep"))
        .map(|(p, _)| p.as_str())
        .collect();
    for bracketed in [
        "parens.ts",
        "arrays.ts",
        "objects.ts",
        "blocks.ts",
        "calls.ts",
    ] {
        assert!(
            too_deep.contains(&bracketed),
            "{bracketed}: {:?}",
            s.parse_failures
        );
    }
    assert!(
        s.mix.functions >= 5_000,
        "the arrows were parsed and counted: {:?}",
        s.mix
    );
}

#[test]
fn a_file_with_a_nul_byte_is_listed_as_binary_and_the_rest_is_measured() {
    let mut c = corpus(&[("ok.ts", "let a = 1;\n")]);
    c.files.push(SourceFile {
        path: "image.ts".to_string(),
        bytes: b"GIF89a\0\0\x01".to_vec(),
    });
    let s = measure(&c).unwrap();
    assert_eq!(
        s.parse_failures,
        vec![(
            "image.ts".to_string(),
            "binary: a NUL byte at byte 6".to_string()
        )]
    );
    assert_eq!(s.mix.declarations, 1);
}
