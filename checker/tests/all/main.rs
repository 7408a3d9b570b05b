//! The checker's integration tests: one binary, a module per feature.
mod bad_input;
mod binder;
mod calls;
mod cli;
mod const_literals;
mod constraints;
mod contextual;
mod defaults;
mod determinism;
mod diagnostics;
mod excess_properties;
mod flow;
mod fresh_literals;
mod generic_signatures;
mod inferred_predicates;
mod intersections;
mod layers;
mod limits;
mod outer_type_params;
mod relation_cache;
mod report;
mod resolution;
mod synthetic;
mod this_types;
mod utility_types;
mod variadic_tuples;
mod variance;

use checker::{Diagnostic, Options, Outcome};
use corpora::{Corpus, Provenance, SourceFile};

/// A small standard library: enough of es5 for the programs below.
pub const MINI_LIB: &str = r#"
interface Object { toString(): string; hasOwnProperty(v: string): boolean; }
interface Function { apply(thisArg: any, args?: any): any; call(thisArg: any, ...args: any[]): any; }
interface String { length: number; charAt(pos: number): string; toUpperCase(): string; slice(start?: number, end?: number): string; }
interface Number { toFixed(digits?: number): string; }
interface Boolean { valueOf(): boolean; }
interface RegExp { test(s: string): boolean; }
interface Array<T> {
    length: number;
    push(...items: T[]): number;
    pop(): T | undefined;
    map<U>(f: (value: T, index: number) => U): U[];
    filter(f: (value: T) => boolean): T[];
    join(separator?: string): string;
    [n: number]: T;
}
interface ArrayConstructor { isArray(arg: any): arg is any[]; new <T>(n: number): T[]; }
declare var Array: ArrayConstructor;
interface Promise<T> { then<R>(f: (value: T) => R): Promise<R>; }
declare function parseInt(s: string, radix?: number): number;
declare var console: { log(...args: any[]): void };
"#;

/// A corpus of inline files plus [`MINI_LIB`].
pub fn corpus(files: &[(&str, &str)]) -> Corpus {
    Corpus {
        name: "inline".to_string(),
        provenance: Provenance::Local,
        files: files
            .iter()
            .map(|(p, t)| SourceFile {
                path: p.to_string(),
                bytes: t.as_bytes().to_vec(),
            })
            .collect(),
        lib: vec![SourceFile {
            path: "lib.mini.d.ts".to_string(),
            bytes: MINI_LIB.as_bytes().to_vec(),
        }],
    }
}

/// Runs one checker over inline files.
pub fn check(files: &[(&str, &str)]) -> Outcome {
    checker::run(&corpus(files), &Options { checkers: 1 }).expect("the corpus has sources")
}

/// Diagnostics of the corpus's own files (not the lib), one per line.
pub fn render(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .filter(|d| !d.file.starts_with("lib/"))
        .map(|d| format!("{d}\n"))
        .collect()
}

/// `file:line:column code` of each diagnostic of the corpus's own files.
pub fn positions(outcome: &Outcome) -> Vec<String> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| !d.file.starts_with("lib/"))
        .map(|d| format!("{}:{}:{} {}", d.file, d.line, d.column, d.code.label()))
        .collect()
}

/// `line:column code` of each diagnostic of a one-file program (`a.ts`).
pub fn line_positions(src: &str) -> Vec<String> {
    check(&[("a.ts", src)])
        .diagnostics
        .iter()
        .filter(|d| d.file == "a.ts")
        .map(|d| format!("{}:{} {}", d.line, d.column, d.code.label()))
        .collect()
}

/// The rendered diagnostics of a one-file program (`a.ts`), without the lib files'.
pub fn diagnostics(src: &str) -> String {
    render(&check(&[("a.ts", src)]).diagnostics)
}

/// The codes of a one-file program's own diagnostics (empty: the program is clean).
pub fn clean(src: &str) -> Vec<String> {
    codes(&check(&[("a.ts", src)]))
}

/// How many types the checker made for a one-file program (its lib included).
pub fn types(src: &str) -> u64 {
    check(&[("a.ts", src)]).counts.types
}

/// `line:code` of each diagnostic of a one-file program's own file (`a.ts`).
pub fn lines_and_codes(src: &str) -> Vec<String> {
    check(&[("a.ts", src)])
        .diagnostics
        .iter()
        .filter(|d| !d.file.starts_with("lib/"))
        .map(|d| format!("{}:{}", d.line, d.code.label()))
        .collect()
}

/// The codes of the diagnostics of the corpus's own files.
pub fn codes(outcome: &Outcome) -> Vec<String> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| !d.file.starts_with("lib/"))
        .map(|d| d.code.label())
        .collect()
}
