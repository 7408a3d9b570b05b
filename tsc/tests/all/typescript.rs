//! TypeScript 6.0.3 itself, run by the workload on small corpora.
use std::sync::OnceLock;

use corpora::{Corpus, Provenance, SourceFile};
use tsc::{Collect, Options, Outcome, Parse, TypeScript};

/// The pinned package, from the cache or fetched into it once for the whole test binary.
fn typescript() -> &'static TypeScript {
    static PACKAGE: OnceLock<TypeScript> = OnceLock::new();
    PACKAGE.get_or_init(|| {
        let options = corpora::OpenOptions {
            cache_dir: None,
            fetch: true,
            progress: false,
        };
        TypeScript::open(&options, false)
            .expect("typescript@6.0.3 from the corpus cache, or fetched through npm")
    })
}

/// A corpus named `name` (a named corpus brings its module roots) of these files.
fn corpus(name: &str, files: &[(&str, &str)]) -> Corpus {
    Corpus {
        name: name.to_string(),
        provenance: Provenance::Local,
        files: files
            .iter()
            .map(|(path, text)| SourceFile {
                path: path.to_string(),
                bytes: text.as_bytes().to_vec(),
            })
            .collect(),
        lib: Vec::new(),
    }
}

fn run(corpus: &Corpus, checkers: usize) -> Outcome {
    tsc::run(
        corpus,
        typescript(),
        &Options {
            checkers,
            collect: Collect::Engine,
            parse: Parse::default(),
        },
    )
    .unwrap()
}

fn lines(outcome: &Outcome) -> Vec<String> {
    outcome
        .checked
        .diagnostics
        .iter()
        .map(|d| d.to_string())
        .collect()
}

/// trpc's layout: the client imports the server by its package name.
const TRPC_LIKE: &[(&str, &str)] = &[
    (
        "server/src/index.ts",
        "export const answer: number = 42;\nexport function greet(name: string): string {\n  return 'hi ' + name;\n}\n",
    ),
    (
        "client/src/use.ts",
        "import { answer, greet } from '@trpc/server';\nconst s: string = answer;\ngreet(1);\nexport { s };\n",
    ),
    (
        "client/src/local.ts",
        "import { s } from './use';\nlet n: number = s;\nn.toFixed();\n",
    ),
];

#[test]
fn a_corpus_gets_typescripts_own_diagnostics_with_its_packages_found_by_name() {
    let outcome = run(&corpus("trpc", TRPC_LIKE), 1);
    assert_eq!(
        lines(&outcome),
        [
            "client/src/local.ts:2:5 - error TS2322: Type 'string' is not assignable to type 'number'.",
            "client/src/use.ts:2:7 - error TS2322: Type 'number' is not assignable to type 'string'.",
            "client/src/use.ts:3:7 - error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
        ]
    );
    assert_eq!(outcome.typescript_version, "6.0.3");
    let options = &outcome.compiler_options;
    assert_eq!(options["strict"], true);
    assert_eq!(options["target"], "ES2022");
    assert_eq!(options["moduleResolution"], "Bundler");
    assert_eq!(options["paths"]["@trpc/server/*"][0], "./server/src/*");
    assert_eq!(
        outcome.checked.counts.diagnostics_by_code.get("TS2322"),
        Some(&2)
    );
    assert!(
        outcome.checked.counts.symbols > 10_000,
        "the standard library is bound with the corpus: {} symbols",
        outcome.checked.counts.symbols
    );
    assert!(outcome.checked.counts.types > 0);
}

#[test]
fn a_package_imported_by_name_is_missing_outside_its_corpus() {
    // The same files as a folder of another name: no module roots, so TS2307.
    let outcome = run(&corpus("elsewhere", TRPC_LIKE), 1);
    assert!(
        outcome
            .checked
            .diagnostics
            .iter()
            .any(|d| d.code == 2307 && d.file == "client/src/use.ts"),
        "{:#?}",
        lines(&outcome)
    );
}

#[test]
fn the_digest_is_the_same_at_one_two_three_and_eight_checkers() {
    let files = corpus("trpc", TRPC_LIKE);
    let one = run(&files, 1);
    for checkers in [2, 3, 8] {
        let many = run(&files, checkers);
        assert_eq!(lines(&many), lines(&one), "at {checkers} checkers");
        assert_eq!(
            many.checked.digest, one.checked.digest,
            "at {checkers} checkers"
        );
        assert_eq!(
            many.checked.phases.front_threads, 1,
            "one program, parsed once"
        );
        assert!(
            many.checked.counts.types > one.checked.counts.types,
            "every checker builds its own types: {} at {checkers} against {} at 1",
            many.checked.counts.types,
            one.checked.counts.types
        );
    }
}

/// `--parse spread` (the default) puts the program's files on every checker's thread, and the
/// answer is the one-thread build's (`first`) at 1, 2, 3 and 8 checkers: the same diagnostics,
/// symbols and types, and the program takes every file parsed ahead (none is parsed twice).
#[test]
fn a_program_parsed_and_bound_on_every_checkers_thread_gives_the_same_answer() {
    let files = corpus("trpc", TRPC_LIKE);
    let with = |checkers, parse| {
        let options = Options {
            checkers,
            collect: Collect::Engine,
            parse,
        };
        tsc::run(&files, typescript(), &options).unwrap()
    };
    let one = with(1, Parse::First);
    assert_eq!(one.parsed_ahead, 0, "nothing is parsed ahead under `first`");
    for checkers in [1, 2, 3, 8] {
        let (spread, first) = (with(checkers, Parse::Spread), with(checkers, Parse::First));
        assert_eq!(lines(&spread), lines(&one), "at {checkers} checkers");
        assert_eq!(spread.checked.digest, one.checked.digest);
        assert_eq!(
            (spread.checked.counts.symbols, spread.checked.counts.types),
            (first.checked.counts.symbols, first.checked.counts.types),
            "every file bound once, the same checking, at {checkers} checkers"
        );
        // The three files and the standard library's.
        assert!(spread.parsed_ahead > 3, "{}", spread.parsed_ahead);
        assert_eq!(spread.taken_ahead, spread.parsed_ahead);
    }
    assert_eq!(Parse::default(), Parse::Spread);
}

/// Under `handback` a checker's garbage dies on its own thread: the blocks a collection or a
/// dropped reference frees on another checker's thread go back to the checker that made them,
/// and the answer is the engine's schedule's.
#[test]
fn under_handback_blocks_freed_on_another_checkers_thread_go_back_to_their_maker() {
    let sources: Vec<(String, String)> = (0..48)
        .map(|i| {
            let text = format!(
                "export type Box{i}<T> = {{ value: T; next: Box{i}<T[]> | null }};\n\
                 export const items{i} = Array.from({{ length: 200 }}, (_, k) => ({{ k, s: `${{k}}` }}));\n\
                 export function pick{i}<K extends keyof typeof items{i}[0]>(key: K) {{\n\
                   return items{i}.map((item) => item[key]);\n}}\n\
                 const wrong{i}: Box{i}<string> = {{ value: 1, next: null }};\n"
            );
            (format!("src/file{i}.ts"), text)
        })
        .collect();
    let files: Vec<(&str, &str)> = sources
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let files = corpus("boxes", &files);
    let engine = run(&files, 8);
    let handback = tsc::run(
        &files,
        typescript(),
        &Options {
            checkers: 8,
            collect: Collect::Handback,
            parse: Parse::default(),
        },
    )
    .unwrap();
    assert_eq!(handback.checked.digest, engine.checked.digest);
    assert_eq!(lines(&handback).len(), 48, "{:?}", lines(&handback));
    let c = &handback.collections;
    assert!(c.handed_back > 0, "{c:?}");
    assert!(c.taken_back <= c.handed_back, "{c:?}");
    assert_eq!(engine.collections.handed_back, 0);
}

/// `// @ts-ignore` and `// @ts-expect-error` silence the line below them (past blank lines and
/// line comments) and an unused expectation is itself an error, whichever checker checks the
/// file: the host applies TypeScript's rule for every checker, not only the program's own.
#[test]
fn comment_directives_apply_alike_under_every_checker() {
    let files = corpus(
        "directives",
        &[
            ("a.ts", "export const a: number = 1;\n"),
            (
                "b.ts",
                "// @ts-expect-error\nexport const b: number = 'b';\n// @ts-ignore\n\n// why\nexport const c: string = 3;\n",
            ),
            (
                "c.ts",
                "// @ts-expect-error\nexport const d: number = 1;\nexport const e: string = 5;\n",
            ),
        ],
    );
    let one = run(&files, 1);
    let found: Vec<(String, u32, u32)> = one
        .checked
        .diagnostics
        .iter()
        .map(|d| (d.file.clone(), d.line, d.code))
        .collect();
    assert_eq!(
        found,
        [
            ("c.ts".to_string(), 1, 2578), // unused '@ts-expect-error' directive
            ("c.ts".to_string(), 3, 2322),
        ],
        "{:#?}",
        lines(&one)
    );
    for checkers in [2, 3] {
        assert_eq!(
            lines(&run(&files, checkers)),
            lines(&one),
            "at {checkers} checkers"
        );
    }
}

/// TypeScript's parser recurses once per parenthesis; past the engine's stack limit that is a
/// JavaScript RangeError, reported as the run's error, never a thread overflowing its stack.
#[test]
fn a_file_nested_deeper_than_the_engines_stack_is_an_error_not_a_crash() {
    let deep = format!(
        "export const x = {}1{};\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let error = tsc::run(
        &corpus("deep", &[("a.ts", deep.as_str())]),
        typescript(),
        &Options {
            checkers: 1,
            collect: Collect::default(),
            parse: Parse::default(),
        },
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("Maximum call stack size exceeded"),
        "{error}"
    );
}

#[test]
fn a_corpus_without_source_files_is_refused() {
    let error = tsc::run(
        &corpus("empty", &[("README.md", "# nothing")]),
        typescript(),
        &Options {
            checkers: 1,
            collect: Collect::Engine,
            parse: Parse::default(),
        },
    )
    .unwrap_err();
    assert!(error.to_string().contains("no source files"), "{error}");
}
