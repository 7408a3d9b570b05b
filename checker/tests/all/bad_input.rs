//! Hostile input: deep nesting, bad encodings, empty and huge files, cycles.
use checker::{Code, Options};

use crate::{check, codes, corpus, render};

#[test]
fn a_hundred_thousand_nested_parentheses_give_a_diagnostic_not_a_crash() {
    let src = format!(
        "const x = {}1{};\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let out = check(&[("deep.ts", &src)]);
    assert_eq!(codes(&out), vec![Code::TooDeep.label()]);
}

#[test]
fn a_hundred_thousand_nested_array_literals_give_a_diagnostic_not_a_crash() {
    let src = format!(
        "const x = {}1{};\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let out = check(&[("deep.ts", &src)]);
    assert_eq!(codes(&out), vec![Code::TooDeep.label()]);
}

#[test]
fn nesting_below_the_guard_is_parsed_and_checked() {
    let src = format!(
        "const x: string = {}1{};\n",
        "(".repeat(1_000),
        ")".repeat(1_000)
    );
    let out = check(&[("deep.ts", &src)]);
    assert_eq!(codes(&out), vec![Code::NotAssignable.label()]);
}

#[test]
fn a_long_operator_chain_is_checked_without_overflowing_the_stack() {
    let src = format!("const x: string = 1{};\n", " + 1".repeat(50_000));
    let out = check(&[("chain.ts", &src)]);
    assert!(
        codes(&out).contains(&Code::TooDeep.label()),
        "{}",
        render(&out.diagnostics)
    );
}

#[test]
fn invalid_utf8_is_a_diagnostic_naming_the_file() {
    let mut c = corpus(&[("ok.ts", "export const a = 1;\n")]);
    c.files.push(corpora::SourceFile {
        path: "bad.ts".to_string(),
        bytes: b"const s = '\xff\xfe';\n".to_vec(),
    });
    let out = checker::run(&c, &Options { checkers: 1 }).unwrap();
    let d: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::InvalidUtf8)
        .collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].file, "bad.ts");
    assert!(d[0].message.contains("bad.ts"), "{}", d[0].message);
    assert_eq!((d[0].line, d[0].column), (1, 12));
}

#[test]
fn an_empty_file_is_checked_without_diagnostics() {
    let out = check(&[("empty.ts", "")]);
    assert!(codes(&out).is_empty());
    assert_eq!(out.counts.files, 2);
}

#[test]
fn a_fifty_megabyte_file_is_checked_with_positions_at_its_end() {
    let line = format!("// {}\n", "x".repeat(60));
    let mut src = line.repeat(50 * 1024 * 1024 / line.len());
    let lines = src.lines().count() as u32;
    src.push_str("const late: number = 'late';\n");
    assert!(src.len() >= 50 * 1024 * 1024 - 64);
    let out = check(&[("big.ts", &src)]);
    let d: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.file == "big.ts")
        .collect();
    assert_eq!(d.len(), 1, "{}", render(&out.diagnostics));
    assert_eq!(
        (d[0].line, d[0].column, d[0].code),
        (lines + 1, 7, Code::NotAssignable)
    );
}

#[test]
fn a_corpus_without_source_files_is_a_clear_error() {
    let c = corpus(&[("README.md", "# not code"), ("data.json", "{}")]);
    let err = checker::run(&c, &Options { checkers: 1 }).unwrap_err();
    assert!(err.to_string().contains("no source files"), "{err}");
    assert!(err.to_string().contains("inline"), "{err}");
}

#[test]
fn zero_checkers_is_an_error() {
    let c = corpus(&[("a.ts", "")]);
    assert!(checker::run(&c, &Options { checkers: 0 }).is_err());
}

#[test]
fn a_cyclic_type_alias_is_reported_and_terminates() {
    let out = check(&[(
        "a.ts",
        "type A = B;\ntype B = A;\nconst x: A = 1;\ntype List = string | List[];\nconst l: List = ['a', ['b']];\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn cyclic_imports_resolve_without_looping() {
    let out = check(&[
        (
            "a.ts",
            "import { b } from './b';\nexport const a: number = 1;\nexport { b };\nexport * from './b';\nconst s: string = b;\n",
        ),
        (
            "b.ts",
            "import { a } from './a';\nexport const b: number = a;\nexport * from './a';\nexport { c } from './a';\n",
        ),
    ]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn a_class_extending_itself_is_reported_and_terminates() {
    let out = check(&[(
        "a.ts",
        "class C extends C { x = 1 }\nclass D extends E {}\nclass E extends D {}\ninterface I extends I { y: number }\nconst c = new C();\nc.x;\nc.nope;\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn a_long_chain_of_narrowing_conditions_finishes_quickly() {
    let src = format!(
        "export function f(x: string | null, y: number | undefined) {{\n  if (x{} && y) {{ const s: string = x; }}\n  while (x || y{}) {{ x = null; }}\n}}\n",
        " && x".repeat(20_000),
        " || y".repeat(20_000)
    );
    let start = std::time::Instant::now();
    let out = check(&[("chain.ts", &src)]);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    assert!(codes(&out).contains(&Code::TooDeep.label()));
}

#[test]
fn a_file_with_a_nul_byte_is_ts1490_file_appears_to_be_binary_and_the_rest_is_checked() {
    let dir = std::env::temp_dir().join(format!("checker-binary-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.ts"), "const n: number = 's';\n").unwrap();
    std::fs::write(dir.join("blob.ts"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let mut c = corpus(&[]);
    c.files = corpora::read_dir(&dir).expect("a binary file does not refuse the corpus");
    std::fs::remove_dir_all(&dir).unwrap();
    let out = checker::run(&c, &Options { checkers: 1 }).unwrap();
    let shown = render(&out.diagnostics);
    let binary: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.file == "blob.ts")
        .collect();
    assert_eq!(binary.len(), 1, "{shown}");
    assert_eq!(binary[0].code.label(), "TS1490");
    assert_eq!(binary[0].message, "File appears to be binary.");
    assert_eq!(
        (binary[0].line, binary[0].column),
        (3, 1),
        "at the first NUL"
    );
    assert!(
        out.diagnostics
            .iter()
            .any(|d| d.file == "a.ts" && d.code == Code::NotAssignable),
        "the rest is checked: {shown}"
    );
}
