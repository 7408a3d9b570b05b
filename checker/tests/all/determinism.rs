//! The digest does not depend on the checker count (nor, by construction, the allocator).
use checker::Options;

use crate::corpus;

/// A program whose files import each other and share generic types, so checkers that see
/// different subsets of files build their types in different orders.
fn program() -> Vec<(String, String)> {
    let mut files = vec![(
        "shared.ts".to_string(),
        "export interface Box<T> { value: T; map<U>(f: (v: T) => U): Box<U> }\n\
         export type Id = string | number;\n\
         export function box<T>(value: T): Box<T> { return { value, map: (f) => box(f(value)) }; }\n"
            .to_string(),
    )];
    for i in 0..24 {
        let prev = if i == 0 {
            "shared".to_string()
        } else {
            format!("m{}", i - 1)
        };
        files.push((
            format!("m{i}.ts"),
            format!(
                "import {{ box, Box, Id }} from './shared';\n\
                 import * as prev from './{prev}';\n\
                 export const v{i}: Box<Id> = box<Id>({i});\n\
                 export const s{i}: Box<string> = box({i});\n\
                 export function f{i}(x: Id | undefined): number {{ return x === undefined ? 0 : {i}; }}\n\
                 const bad{i}: string = f{i}(1);\n\
                 prev.nothing{i};\n"
            ),
        ));
    }
    files
}

fn digest(files: &[(String, String)], checkers: usize) -> (String, u64) {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let out = checker::run(&corpus(&refs), &Options { checkers }).unwrap();
    (out.digest, out.counts.diagnostics)
}

#[test]
fn the_digest_is_the_same_for_one_two_and_eight_checkers() {
    let files = program();
    let one = digest(&files, 1);
    assert!(
        one.1 >= 48,
        "the program has diagnostics to compare: {}",
        one.1
    );
    assert_eq!(one, digest(&files, 2));
    assert_eq!(one, digest(&files, 8));
}

#[test]
fn the_digest_changes_when_a_diagnostic_changes() {
    let mut files = program();
    let before = digest(&files, 2);
    files[3].1.push_str("const extra: number = 'x';\n");
    assert_ne!(before, digest(&files, 2));
}

#[test]
fn the_synthetic_corpus_digest_is_the_same_for_one_two_and_eight_checkers() {
    let opts = corpora::OpenOptions {
        cache_dir: None,
        fetch: false,
        progress: false,
    };
    let c = corpora::open("synthetic", &opts).expect("the synthetic corpus opens offline");
    let run = |n| checker::run(&c, &Options { checkers: n }).unwrap();
    let one = run(1);
    assert!(one.counts.files > 10);
    for n in [2, 8] {
        let other = run(n);
        assert_eq!(one.digest, other.digest, "{n} checkers");
        assert_eq!(one.diagnostics, other.diagnostics, "{n} checkers");
        assert!(
            other.counts.types >= one.counts.types,
            "each checker builds its own types"
        );
    }
}

/// A cycle through lazy inference: `mutate`'s type is inferred from its initializer,
/// whose body calls `helper`, whose return type is inferred from a call of `mutate`
/// through `h.ts`'s import. Entered from `a.ts`, the cycle meets `mutate` in progress at
/// `h.ts`'s import; that placeholder (`any`) must not stay cached for `h.ts`'s own calls.
const CYCLE: [(&str, &str); 3] = [
    (
        "a.ts",
        "import { mutate } from './m';\nmutate({ id: 'a' }, { x: 2 });\n",
    ),
    (
        "h.ts",
        "import { mutate } from './m';\n\
         export function helper(e: { id: string }) {\n  const r = mutate(e, { x: 1 });\n  return r;\n}\n\
         mutate({ id: 'h' }, { x: 'not a number' });\n",
    ),
    (
        "m.ts",
        "import { helper } from './h';\n\
         export const mutate = (el: { id: string }, updates: { x: number }): { id: string } => {\n  helper(el);\n  return el;\n};\n",
    ),
];

/// The diagnostics of `target` when one checker checks `before` first, then `target`.
fn diagnostics_after(files: &[(&str, &str)], before: &[&str], target: &str) -> Vec<String> {
    use checker::{bind, check, parse};
    let c = corpus(files);
    let sources: Vec<(String, &[u8], bool)> = c
        .files
        .iter()
        .map(|f| (f.path.clone(), &f.bytes[..], false))
        .chain(
            c.lib
                .iter()
                .map(|f| (format!("lib/{}", f.path), &f.bytes[..], true)),
        )
        .collect();
    let parsed: Vec<parse::ParsedFile> = sources
        .iter()
        .map(|(p, b, lib)| parse::parse(p, b, *lib))
        .collect();
    let bound = bind::bind_all(&parsed);
    let globals = bind::merge_globals(&bound.files);
    let mut checker = check::Checker::new(&parsed, bind::Scope::new(&bound, &globals));
    let index = |path: &str| parsed.iter().position(|f| f.path == path).unwrap() as u32;
    for path in before {
        checker.check_file(index(path));
    }
    checker.take_diagnostics();
    checker.check_file(index(target));
    checker
        .take_diagnostics()
        .iter()
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn diagnostics_of_a_file_do_not_depend_on_files_checked_before_it() {
    let alone = diagnostics_after(&CYCLE, &[], "h.ts");
    assert_eq!(alone.len(), 1, "{alone:#?}");
    assert!(alone[0].contains("TS2345"), "{alone:#?}");
    for before in [
        &["a.ts"][..],
        &["m.ts"],
        &["a.ts", "m.ts"],
        &["m.ts", "a.ts"],
    ] {
        assert_eq!(
            alone,
            diagnostics_after(&CYCLE, before, "h.ts"),
            "h.ts checked after {before:?}"
        );
    }
}

/// The same cycle, with a callback: its parameter takes its type from `mutate`'s
/// signature, which the cycle meets as a placeholder. The parameter's type must not stay
/// `any` for `h.ts`'s own walk (where `u.y` is an error).
const CALLBACK_CYCLE: [(&str, &str); 3] = [
    (
        "a.ts",
        "import { mutate } from './m';\nmutate({ id: 'a' }, (u) => u.x);\n",
    ),
    (
        "h.ts",
        "import { mutate } from './m';\n\
         export function helper(e: { id: string }) {\n  const r = mutate(e, (u) => u.y);\n  return r;\n}\n",
    ),
    (
        "m.ts",
        "import { helper } from './h';\n\
         export const mutate = (el: { id: string }, f: (u: { x: number }) => number): { id: string } => {\n  helper(el);\n  return el;\n};\n",
    ),
];

#[test]
fn callback_parameters_do_not_keep_a_type_met_through_a_cycle() {
    let alone = diagnostics_after(&CALLBACK_CYCLE, &[], "h.ts");
    assert_eq!(alone.len(), 1, "{alone:#?}");
    assert!(alone[0].contains("TS2339"), "{alone:#?}");
    for before in [&["a.ts"][..], &["m.ts"], &["a.ts", "m.ts"]] {
        assert_eq!(
            alone,
            diagnostics_after(&CALLBACK_CYCLE, before, "h.ts"),
            "h.ts checked after {before:?}"
        );
    }
}

#[test]
fn a_cycle_through_lazy_inference_gives_the_same_digest_for_every_checker_count() {
    let one = checker::run(&corpus(&CYCLE), &Options { checkers: 1 }).unwrap();
    assert_eq!(one.counts.diagnostics, 1, "{:#?}", one.diagnostics);
    for n in [2, 3] {
        let other = checker::run(&corpus(&CYCLE), &Options { checkers: n }).unwrap();
        assert_eq!(one.diagnostics, other.diagnostics, "{n} checkers");
        assert_eq!(one.digest, other.digest, "{n} checkers");
    }
}
