//! Small programs and their diagnostics, one snapshot per check.
use crate::{check, codes, positions, render};

#[test]
fn initializers_are_checked_against_annotations() {
    let out = check(&[(
        "a.ts",
        "const n: number = 'one';\nconst s: string = 'ok';\nlet u: string | undefined = undefined;\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn returns_are_checked_against_declared_return_types() {
    let out = check(&[(
        "a.ts",
        "function f(): string {\n  return 42;\n}\nfunction g(): number { return 1; }\nconst h = (): boolean => 'no';\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn call_arguments_are_checked_against_parameters() {
    let out = check(&[(
        "a.ts",
        "function add(a: number, b: number): number { return a + b; }\nadd(1, 'two');\nadd(1);\nadd(1, 2);\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn property_access_on_known_types_is_checked() {
    let out = check(&[(
        "a.ts",
        "interface Point { x: number; y: number }\nconst p: Point = { x: 1, y: 2 };\np.z;\np.x.toFixed(2);\n'abc'.length;\n'abc'.nope;\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn structural_assignability_sees_missing_and_mismatched_members() {
    let out = check(&[(
        "a.ts",
        "interface A { a: string; b?: number }\nconst ok: A = { a: 'x' };\nconst missing: A = { b: 1 };\nconst wrong: A = { a: 1 };\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn generic_calls_infer_type_arguments_from_arguments() {
    let out = check(&[(
        "a.ts",
        "function first<T>(xs: T[]): T { return xs[0]; }\nconst n: number = first([1, 2]);\nconst s: string = first([1, 2]);\nconst lens: number[] = ['a', 'bb'].map(s => s.length);\nconst bad: string[] = [1, 2].map(n => n + 1);\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn generic_interfaces_are_instantiated_and_constrained() {
    let out = check(&[(
        "a.ts",
        "interface Box<T> { value: T }\nconst b: Box<string> = { value: 1 };\nconst c: Box<number> = { value: 1 };\nlet d: Box;\nfunction len<T extends { length: number }>(x: T): number { return x.length; }\nlen('abc');\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn classes_have_members_heritage_and_constructors() {
    let out = check(&[(
        "a.ts",
        "class Animal { name: string = ''; constructor(n: string) { this.name = n; } speak(): string { return this.name; } }\nclass Dog extends Animal { bark(): number { return this.name.length; } }\nconst d = new Dog('rex');\nconst s: string = d.speak();\nconst n: string = d.bark();\nd.fly();\nnew Dog();\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn interfaces_merge_across_declarations() {
    let out = check(&[(
        "a.ts",
        "interface Opts { a: number }\ninterface Opts { b: string }\nconst o: Opts = { a: 1, b: 'x' };\nconst p: Opts = { a: 1 };\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn enums_aliases_unions_keyof_and_indexed_access_resolve() {
    let out = check(&[(
        "a.ts",
        "enum Color { Red, Green }\nconst c: Color = Color.Red;\ntype Name = 'a' | 'b';\nconst n: Name = 'c';\ninterface P { x: number; y: string }\nconst k: keyof P = 'x';\nconst bad: keyof P = 'z';\nconst v: P['y'] = 1;\nconst t: [number, string] = [1, 'a'];\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn overloads_pick_the_matching_signature() {
    let out = check(&[(
        "a.ts",
        "function f(x: string): string;\nfunction f(x: number): number;\nfunction f(x: any): any { return x; }\nconst a: string = f('s');\nconst b: number = f(1);\nf(true);\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn unknown_names_and_uncallable_values_are_reported() {
    let out = check(&[(
        "a.ts",
        "const x = y + 1;\nlet t: Missing;\nconst n = 5;\nn();\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn imports_resolve_like_typescript_and_report_what_is_missing() {
    let out = check(&[
        (
            "src/a.ts",
            "import { b } from './b.js';\nimport { nope } from './b';\nimport { x } from './missing';\nimport { idx } from './dir';\nconst n: number = b;\nconst s: string = idx;\n",
        ),
        ("src/b.ts", "export const b = 'str';\n"),
        ("src/dir/index.ts", "export const idx: string = 'i';\n"),
    ]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn syntax_errors_become_diagnostics() {
    let out = check(&[("a.ts", "const = 1;\nfunction (\n")]);
    let c = codes(&out);
    assert!(!c.is_empty());
    assert!(c.iter().all(|c| c == "TS1005"), "{c:?}");
}

#[test]
fn javascript_and_tsx_files_are_parsed() {
    let out = check(&[
        ("a.js", "export function f(x) { return x + 1; }\n"),
        ("b.tsx", "const el = <div className=\"x\">{1 + 2}</div>;\n"),
        ("c.mts", "export const m: number = 1;\n"),
        ("d.cjs", "module.exports = {};\n"),
    ]);
    assert_eq!(out.counts.files, 5);
    assert!(
        !codes(&out).contains(&"TS1005".to_string()),
        "{}",
        render(&out.diagnostics)
    );
}

#[test]
fn global_namespaces_merge_across_files_and_see_each_others_members() {
    let out = check(&[
        (
            "ns1.d.ts",
            "declare namespace NS { interface A { x: number } }\n",
        ),
        ("ns2.d.ts", "declare namespace NS { type B = A; }\n"),
        (
            "a.ts",
            "export const ok: NS.B = { x: 1 };\nexport const bad: NS.B = { x: 'no' };\n",
        ),
    ]);
    assert_eq!(
        codes(&out),
        vec!["TS2322".to_string()],
        "{}",
        render(&out.diagnostics)
    );
    assert!(
        out.diagnostics[0].message.contains("'A'"),
        "{}",
        out.diagnostics[0]
    );
}

#[test]
fn an_optional_property_accepts_undefined_but_not_other_types() {
    let out = check(&[(
        "a.ts",
        "interface O { c?: string }\nexport function f(v: string | undefined) {\n  const o: O = { c: v };\n  const p: O = { c: 1 };\n}\n",
    )]);
    assert_eq!(codes(&out), vec!["TS2322".to_string()]);
    assert!(render(&out.diagnostics).starts_with("a.ts:4:"));
}

#[test]
fn qualified_type_names_report_the_part_that_does_not_resolve() {
    // As the native checker reports this program (it says TS2724, the "did you mean"
    // form of TS2694, at 5:20): nothing past an unresolved package import, nothing for
    // `arguments` or for `typeof` of a const inside its own initializer.
    let out = check(&[
        (
            "a.ts",
            "import * as Missing from 'not-in-corpus';\nimport { helper } from './b';\nexport namespace NS { export interface Known { a: number } }\nexport const k: NS.Known = { a: 1 };\nexport const u: NS.Unknown = 1;\nexport const m: Missing.Anything.Deep = 2;\nexport const n: Nowhere.Thing = 3;\nexport function count() { return arguments.length; }\nconst Break = { Chain: (x: number) => x, Before: () => { const f: typeof Break.Chain = Break.Chain; return f(1); } };\nexport const b = Break.Before() + helper;\n",
        ),
        ("b.ts", "export const helper = 1;\n"),
    ]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn string_enums_relate_to_string_and_numeric_enums_to_number() {
    // As the native checker: only `const bad: number = e` (a string enum is no number).
    let out = check(&[(
        "a.ts",
        "export enum EVENT { A = 'a', B = 'b' }\nexport enum N { X, Y }\nfunction takesString(s: string) { return s; }\nfunction takesNumber(n: number) { return n; }\nexport function f(e: EVENT, n: N) {\n  takesString(e);\n  takesString(EVENT.A);\n  takesNumber(n);\n  takesNumber(N.X);\n  const s: string = e;\n  const m: number = n;\n  const bad: number = e;\n  return e.toUpperCase();\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn let_initialized_with_null_or_undefined_takes_later_assignments() {
    // TypeScript's auto-typed `let`: no error for either variable.
    let out = check(&[(
        "a.ts",
        "export function g() {\n  let data = null;\n  data = { info: 1 };\n  let later = undefined;\n  later = 'text';\n  return data.info + later.length;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn expando_properties_assigned_to_functions_are_members_of_their_type() {
    // As the native checker: 9:14 (a number where a string is declared) and 10:31 (never
    // assigned), nothing for the properties assigned after the declarations, here or in
    // the importing file.
    let out = check(&[
        (
            "a.ts",
            "export const Button = (label: string) => label;\nButton.displayName = 'Button';\nexport function memo(n: number) { return n; }\nmemo.clear = () => 0;\nconst local = function () { return 1; };\nlocal.count = 2;\nexport const n: string = Button.displayName;\nexport const m: number = memo.clear();\nexport const c: string = local.count;\nexport const missing = Button.other;\n",
        ),
        (
            "b.ts",
            "import { Button, memo } from './a';\nexport const d: number = Button.displayName.length + memo.clear();\n",
        ),
    ]);
    assert_eq!(positions(&out), ["a.ts:9:14 TS2322", "a.ts:10:31 TS2339"]);
}

#[test]
fn keyof_a_union_is_the_keys_every_member_has() {
    // As the native checker: only 5:14 ("onlyA" is not a key of B).
    let out = check(&[(
        "a.ts",
        "interface A { kind: 'a'; shared: number; onlyA?: string }\ninterface B { kind: 'b'; shared: number; onlyB: boolean }\ntype Keys = keyof (A | B);\nexport const k1: Keys = 'shared';\nexport const k2: Keys = 'onlyA';\ntype PickU<T, K extends keyof T> = { [P in K]: T[P] };\ntype Opt<T> = { [P in keyof T]?: T[P] };\nexport function f(p: Opt<PickU<A | B, 'shared' | 'kind'>>) { return p.shared; }\nf({});\nf({ kind: 'a' });\n",
    )]);
    assert_eq!(positions(&out), ["a.ts:5:14 TS2322"]);
}

#[test]
fn well_known_symbol_members_make_iterables_and_generators_return_their_iterators() {
    // As the native checker: 4:14 (a generator returns its Generator) and 10:14; the
    // library stand-in here declares the iterable protocol itself.
    let lib = "interface IteratorResult<T> { value: T; done?: boolean }\ninterface Iterator<T> { next(): IteratorResult<T> }\ninterface Iterable<T> { [Symbol.iterator](): Iterator<T> }\ninterface Generator<T, TReturn, TNext> extends Iterator<T> { [Symbol.iterator](): Generator<T, TReturn, TNext> }\ninterface Bag<T> { [Symbol.iterator](): Iterator<T>; size: number }\ndeclare var Bag: { new <T>(items?: Iterable<T>): Bag<T> };\ndeclare var Symbol: { iterator: symbol };\n";
    let out = check(&[
        ("protocol.d.ts", lib),
        (
            "a.ts",
            "export function* gen(): Generator<number, void, unknown> { yield 1; }\nexport function* inferred() { yield 1; return 'done'; }\nexport function sum(xs: Iterable<number>) { return xs; }\nexport const x: number = inferred();\nsum(gen());\nexport const b: Bag<string> = new Bag<string>();\nexport const c: Bag<string> = new Bag(b);\nexport const it: { [Symbol.iterator](): Iterator<number> } = gen();\nexport const ok: Iterable<number> = it;\nexport const bad: number = it;\n",
        ),
    ]);
    assert_eq!(positions(&out), ["a.ts:4:14 TS2322", "a.ts:10:14 TS2322"]);
}

#[test]
fn ts_ignore_and_ts_expect_error_suppress_the_next_line_only() {
    let out = check(&[(
        "a.ts",
        "// @ts-ignore\nconst a: number = 'x';\n  //   @ts-expect-error: deliberate\nconst b: number = 'y';\nconst c: number = 'z';\n// a comment that mentions @ts-ignore later\nconst d: number = 'w';\n",
    )]);
    let lines: Vec<u32> = out.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(lines, [5, 7]);
}

/// An index signature never fills a required property, as in TypeScript ("Property 'a' is
/// missing in type '{ [k: string]: number; }'"): a record of strings is not an object with
/// a required `a`, and a recursive record is not a procedure, so a conditional type over
/// it takes its false branch (before, the index signature answered for every name).
#[test]
fn an_index_signature_does_not_fill_a_required_property() {
    let out = check(&[(
        "a.ts",
        "declare const r: { [k: string]: number };\n\
         const p: { a: number } = r;\n\
         const o: { a?: number } = r;\n\
         interface Rec { [key: string]: { run(): void } | Rec }\n\
         type IsProc<V> = V extends { run(): void } ? 'proc' : 'rec';\n\
         const q: 'rec' = null as any as IsProc<Rec>;\n\
         declare const f: { (): void; [k: string]: number };\n\
         const g: { call(this: Function, ...args: any[]): any } = f;\n",
    )]);
    assert_eq!(positions(&out), ["a.ts:2:7 TS2322"]);
}
