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
