//! TypeScript's limits (`check/types/limits.rs`): programs that recurse without end through
//! each kind of generic type finish, in a bounded number of types, with the diagnostic
//! TypeScript reports for them, the same at every checker count.
use checker::Options;

use crate::{check, corpus, render};

/// The most types a bounded program may make, the mini lib's included. The bound is on the
/// work, not on the wall time, which a shared machine does not bound: the largest program
/// here, a thousand steps of a tail-recursive conditional type over a growing tuple, makes
/// about 3,100; without the limits each of them recurses until the stack or the memory
/// runs out.
const MOST_TYPES: u64 = 10_000;

/// The rendered diagnostics of `src`, checked in at most `MOST_TYPES` types, and the same
/// digest at 1 and 3 checkers (a file and its copy, so each checker has one).
fn bounded(src: &str) -> String {
    let report = check(&[("a.ts", src)]);
    assert!(
        report.counts.types <= MOST_TYPES,
        "made {} types, more than {MOST_TYPES}: a limit did not stop the recursion",
        report.counts.types
    );
    let files = [("a.ts", src), ("b.ts", src), ("c.ts", src)];
    let digest = |n| {
        checker::run(&corpus(&files), &Options { checkers: n })
            .expect("the corpus has sources")
            .digest
    };
    assert_eq!(digest(1), digest(3));
    render(&report.diagnostics)
}

#[test]
fn a_tail_recursive_conditional_type_stops_after_a_thousand_steps() {
    insta::assert_snapshot!(bounded(
        "type Loop<T> = T extends string ? Loop<T> : never;
const x: Loop<'a'> = 1;
type Count<T extends unknown[]> = T extends { length: 100000 } ? T : Count<[...T, 0]>;
type C = Count<[]>;
"
    ));
}

#[test]
fn a_mapped_type_that_nests_itself_forever_relates_as_maybe_related() {
    insta::assert_snapshot!(bounded(
        "type Deep<T> = { [K in keyof T]: Deep<{ next: T[K] }> } & { value: T };
declare const a: Deep<{ x: string }>;
const b: Deep<{ x: string }> = a;
const c: Deep<{ x: number }> = a;
"
    ));
}

#[test]
fn generic_interfaces_that_expand_forever_relate_by_their_arguments() {
    insta::assert_snapshot!(bounded(
        "interface Box<T> { value: T; next: Box<Box<T>>; pair: Pair<T, Box<T>> }
interface Pair<A, B> { left: Box<A>; right: Pair<B, A> }
declare let s: Box<string>;
let t: Box<string> = s;
let u: Box<number> = s;
declare let p: Pair<string, number>;
let q: Pair<number, string> = p;
"
    ));
}

#[test]
fn generic_signatures_that_return_ever_larger_types_finish() {
    insta::assert_snapshot!(bounded(
        "interface Chain<T> { then<U>(f: (x: T) => U): Chain<[T, U]>; self(): Chain<Chain<T>> }
declare const c: Chain<string>;
const d: Chain<number> = c;
const e = c.then(x => 1).then(y => y).self().self();
const f: number = e;
"
    ));
}

/// tsgo 7.0.2 reports the same `TS2456` and `TS2322` at the same positions, prints the
/// last one as `Grow<string>` / `Grow<number>`, and adds `TS2315` ("Type 'Nest' is not
/// generic") at each reference to a circular alias, which this checker does not report.
#[test]
fn generic_aliases_that_recurse_directly_are_circular_and_through_members_lazily() {
    insta::assert_snapshot!(bounded(
        "type Nest<T> = Nest<T[]>;
type Both<T> = T | Both<[T]>;
type Ping<T> = Pong<T>;
type Pong<T> = Ping<T[]>;
type Dict<V> = { [key: string]: V };
type Json = string | Dict<Json>;
type Tree = string | Tree[] | { [key: string]: Tree };
type Grow<T> = { value: T; next: Grow<[T]> };
declare const g: Grow<string>;
const ok: [[string]] = g.next.next.value;
const bad: number = g.next.next.next.value;
declare let h: Grow<number>;
h = g;
const n: Nest<string> = 1;
"
    ));
}

/// The rendered diagnostics of `files` at `checkers` checkers.
fn diagnostics_at(files: &[(&str, &str)], checkers: usize) -> String {
    let out = checker::run(&corpus(files), &Options { checkers }).expect("the corpus has sources");
    crate::render(&out.diagnostics)
}

/// `Box<Box<...<inner>...>>`, `depth` references deep.
fn nested_boxes(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "Box<".repeat(depth), ">".repeat(depth))
}

/// `a.ts` first reaches `Holder`'s member `other` (in `c.ts`) 97 instantiations deep,
/// where the 20 nested ones its annotation's conditional type needs run past the depth
/// limit; `b.ts` reads the same member from the top level, where nothing runs past it.
/// Had the member's type kept what the limit decided, `b.ts` checked after `a.ts` in one
/// checker would see another type (`Box<Box<any>>`) than checked alone, at 2 checkers.
#[test]
fn a_member_first_reached_at_the_depth_limit_has_its_own_type_when_read_from_the_top() {
    let c = format!(
        "export interface Box<T> {{ v: T }}\n\
         export type W<X> = {};\n\
         export interface Holder<T> {{ value: T; other: W<string> extends Box<infer U> ? U : never }}\n",
        nested_boxes(20, "X")
    );
    let a = format!(
        "import {{ Box, Holder }} from './c';\n\
         type Nest<T> = {};\n\
         declare const x: Nest<Holder<1>>;\n\
         const y: number = x;\n",
        nested_boxes(96, "T['other']")
    );
    let b = "import { Holder } from './c';\n\
             declare const h: Holder<1>;\n\
             const n: number = h.other;\n";
    let files = [("a.ts", &a[..]), ("b.ts", b), ("c.ts", &c[..])];
    let one = diagnostics_at(&files, 1);
    assert!(
        one.contains("b.ts:3:7 - error TS2322: Type 'Box<Box<Box<Box<...>>>>'"),
        "b.ts reads the member's own type:\n{one}"
    );
    assert_eq!(one, diagnostics_at(&files, 2));
    assert_eq!(one, diagnostics_at(&files, 3));
}

/// `b.ts`'s `v` is first inferred lazily, for `a.ts`, where its initializer runs into the
/// tail-recursion limit silently; `b.ts`'s own walk meets the limit at the same node again
/// and reports it there (TypeScript's `TS2589` at its `currentNode`), whichever checker
/// inferred `v` first.
#[test]
fn a_limit_met_silently_first_is_reported_when_the_walk_meets_it_at_the_same_node() {
    let a = "import { v } from './b';\nconst w = v;\n";
    let b = "type Loop<T> = T extends string ? Loop<T> : never;\n\
             declare function make<T>(x: T): Loop<T>;\n\
             export const v = make('a');\n";
    let files = [("a.ts", a), ("b.ts", b)];
    let one = diagnostics_at(&files, 1);
    assert!(
        one.contains("b.ts:3:18 - error TS2589"),
        "the walk over b.ts reports the limit:\n{one}"
    );
    assert_eq!(one, diagnostics_at(&files, 2));
}

/// `I0 { x: I1 } ... I104 { x: string }` and the same chain of `J`s ending in `number`:
/// every level is a new recursion identity, so nothing is deeply nested, and the 100th
/// nested relation overflows to *not related* with `TS2321`, as in TypeScript
/// (`recursiveTypeRelatedTo`'s `len(sourceStack) == 100`).
#[test]
fn a_relation_a_hundred_deep_fails_with_excessive_stack_depth() {
    let mut src = String::new();
    for (name, leaf) in [("I", "string"), ("J", "number")] {
        for i in 0..105 {
            let next = if i == 104 {
                leaf.to_string()
            } else {
                format!("{name}{}", i + 1)
            };
            src.push_str(&format!("interface {name}{i} {{ x: {next} }}\n"));
        }
    }
    src.push_str("declare const i: I0;\nconst j: J0 = i;\n");
    let out = crate::check(&[("a.ts", &src)]);
    let codes = crate::codes(&out);
    assert!(codes.contains(&"TS2321".to_string()), "{codes:?}");
    assert_eq!(
        crate::render(&out.diagnostics),
        diagnostics_at(&[("a.ts", &src)], 2)
    );
}

/// hotscript's digit arithmetic (`ToDigits`, `ToDigitNumber`, a generic `Div`-like alias
/// whose type arguments are checked against `DigitNumber`): with the `infer` parameters of
/// its template literal types left unbound, the recursion ran on the error type until the
/// type table guard stopped it (2.1M types and 56 `TS2589` on hotscript's `numbers/impl`,
/// a digest that differed by checker count). Bound, it makes a few hundred types and
/// reports nothing, as tsgo.
#[test]
fn recursion_through_a_template_literal_infer_stays_small_and_silent() {
    let src = "type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;\n\
        type DigitNumber = { sign: '-' | ''; num: Digit[] };\n\
        type ToDigits<T extends string, Acc extends Digit[] = []> =\n\
            T extends `${infer N extends Digit}${infer R}` ? ToDigits<R, [...Acc, N]> : Acc;\n\
        type ToDigitNumber<T extends string> = T extends `-${infer R}`\n\
            ? { sign: '-'; num: ToDigits<R> } : { sign: ''; num: ToDigits<T> };\n\
        type Pair<A extends DigitNumber, B extends DigitNumber> = [A['num'], B['num']];\n\
        export type Div<T extends number, U extends number> =\n\
            Pair<ToDigitNumber<`${T}`>, ToDigitNumber<`${U}`>>;\n";
    let files = [("a.ts", src), ("b.ts", src)];
    let one = checker::run(&corpus(&files), &Options { checkers: 1 }).expect("sources");
    let two = checker::run(&corpus(&files), &Options { checkers: 2 }).expect("sources");
    assert_eq!(crate::render(&one.diagnostics), "", "nothing to report");
    assert!(
        one.counts.types < 20_000,
        "{} types: the recursion ran past its inputs",
        one.counts.types
    );
    assert_eq!(one.digest, two.digest);
}

/// Two generic interfaces that expand forever, related structurally (no variance shortcut
/// between two declarations): the comparison of `next` is deeply nested after three
/// instantiations of each, *maybe related*, so `A<string>` is a `B<string>`; a `v` that
/// differs still fails. tsgo reports the same (one `TS2322`, line 5). Without the
/// deeply-nested rule the comparison would run 100 deep into `TS2321`.
#[test]
fn two_interfaces_that_expand_forever_relate_structurally_as_maybe_related() {
    let src = "interface A<T> { next: A<A<T>>; v: T }\n\
               interface B<T> { next: B<B<T>>; v: T }\n\
               declare let a: A<string>;\n\
               let b: B<string> = a;\n\
               let c: B<number> = a;\n";
    let one = diagnostics_at(&[("a.ts", src)], 1);
    let codes: Vec<&str> = one
        .lines()
        .map(|l| l.split(" - ").next().unwrap_or(l))
        .collect();
    assert_eq!(codes, ["a.ts:5:5"], "{one}");
    assert!(one.contains("TS2322"), "{one}");
}

/// An alias instantiation met again while it is computed is the alias itself, lazily:
/// trpc's `DecorateRouterRecord<any>` (in `ReturnType<RouterCaller<any, any>>`), whose
/// mapped type over `keyof any` instantiates its string index template with `any`, and
/// `any extends Rec ? Decorate<any> : never` takes both branches, so the template meets
/// `Decorate<any>` again (instrumented, trpc's own source meets it 5 times). The member
/// reads are reported where tsgo reports them (`TS2322` at line 8, `TS2339` at line 9);
/// without the guard the instantiation recurses until the depth limit and reports
/// otherwise.
#[test]
fn an_alias_instantiation_met_again_while_computed_is_the_alias_itself() {
    let src = "interface Proc { run(): void }\n\
               interface Rec { [key: string]: Proc | Rec }\n\
               type Decorate<T extends Rec> = {\n\
                 [K in keyof T]: T[K] extends infer V\n\
                   ? V extends Proc ? () => void : V extends Rec ? Decorate<V> : never : never;\n\
               };\n\
               declare const d: Decorate<any>;\n\
               const n: number = d.x;\n\
               const m: number = d.x.y;\n";
    let out = diagnostics_at(&[("a.ts", src)], 1);
    let at: Vec<&str> = out
        .lines()
        .map(|l| l.split(": ").next().unwrap_or(l))
        .collect();
    assert_eq!(
        at,
        ["a.ts:8:7 - error TS2322", "a.ts:9:23 - error TS2339"],
        "{out}"
    );
}

/// A mapped type keeps every key of a union: its property types are instantiated when
/// first read, so a large key set costs a property symbol each, not an instantiation
/// (before, only 256 keys of the union became properties: 44 of these reads were
/// `TS2339`).
#[test]
fn a_mapped_type_over_three_hundred_keys_has_every_property() {
    let keys: Vec<String> = (0..300).map(|i| format!("'k{i}'")).collect();
    let mut src = format!(
        "type K = {};\n\
         type Rec<Q extends string, V> = {{ [P in Q]: {{ key: P; v: V }} }};\n\
         declare const m: Rec<K, 1>;\n",
        keys.join(" | ")
    );
    for i in 0..300 {
        src.push_str(&format!("const x{i}: number = m.k{i};\n"));
    }
    let out = diagnostics_at(&[("a.ts", &src)], 1);
    let assignability = out.lines().filter(|l| l.contains("error TS2322")).count();
    assert_eq!(assignability, 300, "every key is a property:\n{out}");
    assert_eq!(out.lines().count(), 300, "{out}");
}

/// An inferred return type's object literal type is instantiated as TypeScript
/// instantiates it, an anonymous type whose properties are resolved when first read: a
/// call that reads `value` never instantiates `loop`, whose type runs into the
/// tail-recursion limit, and only the call that reads `loop` reports `TS2589`, there.
/// Diagnostics as tsgo 7.0.2's; when the object was instantiated whole, both calls to
/// `make` reported `TS2589` too.
#[test]
fn an_object_literal_type_instantiated_resolves_a_property_only_when_read() {
    let a = "type Loop<T> = T extends number ? Loop<T> : never;\n\
             function make<T>(x: T) {\n  return { value: x, loop: null as unknown as Loop<T> };\n}\n\
             const v: number = make(1).value;\n\
             const w: string = make(1).value;\n";
    let b = "type Loop2<T> = T extends number ? Loop2<T> : never;\n\
             function make2<T>(x: T) {\n  return { value: x, loop: null as unknown as Loop2<T> };\n}\n\
             const l: number = make2(1).loop;\n";
    let files = [("a.ts", a), ("b.ts", b)];
    let one = diagnostics_at(&files, 1);
    assert_eq!(
        one,
        "a.ts:6:7 - error TS2322: Type 'number' is not assignable to type 'string'.\n\
         b.ts:5:19 - error TS2589: Type instantiation is excessively deep and possibly infinite.\n",
    );
    assert_eq!(one, diagnostics_at(&files, 2));
}

/// kysely@0.27.4's `DeleteQueryBuilder implements ReturningInterface` (its 4 `TS2420`
/// before): each level of `returningAll` relates a newer `Query<Returned<...>>` to the
/// same `Returning<Selected<Row>>`. TypeScript counts a type met again towards deep
/// nesting (`isDeeplyNestedType` counts ids at least the last one's), so both sides are
/// deeply nested at the third level and the relation is maybe related; counting distinct
/// types only, the target side never was, and the stacks overflowed (`TS2321`, then the
/// false `TS2420`). tsgo 7.0.2 reports nothing.
#[test]
fn a_target_met_again_at_every_level_counts_towards_deep_nesting() {
    let src = "interface Row { id: number }\n\
               type Selected<R> = { [K in keyof R]: R[K] };\n\
               type Returned<O> = O extends number ? Row : O & Row;\n\
               interface Returning<O> {\n  returningAll(): Returning<Selected<Row>>;\n}\n\
               export declare class Query<O> implements Returning<O> {\n  returningAll(): Query<Returned<O>>;\n}\n";
    let files = [("a.ts", src), ("b.ts", src)];
    assert_eq!(diagnostics_at(&files, 1), "");
    assert_eq!(diagnostics_at(&files, 2), "");
}

/// Taking a union or intersection apart pushes only the side taken apart onto its stack
/// (TypeScript's `recursionFlags`): relating each element of `Elem` to `BoundText` met the
/// same target once per member and member of a member, and with every occurrence counted
/// (the rule above) that alone looked deeply nested on both sides, so every member was
/// maybe related to the guard's type and the false branch narrowed to `never`
/// (excalidraw's `!isBoundToContainer(el)`: 218 false diagnostics). tsgo 7.0.2 reports
/// nothing.
#[test]
fn a_union_taken_apart_against_one_target_is_not_deeply_nested() {
    let src = "type Base = { id: string; x: number; strokeColor: string };\n\
               type Ellipse = Base & { type: 'ellipse' };\n\
               type Rect = Base & { type: 'rectangle' };\n\
               type TextEl = Base & { type: 'text'; containerId: string | null };\n\
               type Elem = Ellipse | Rect | TextEl;\n\
               type BoundText = TextEl & { containerId: string };\n\
               declare function isBound(e: Elem): e is BoundText;\n\
               declare const el: Elem;\n\
               if (!isBound(el)) {\n  const id: string = el.id;\n}\n\
               if (isBound(el)) {\n  const c: string = el.containerId;\n}\n\
               export {};\n";
    let files = [("a.ts", src)];
    assert_eq!(diagnostics_at(&files, 1), "");
}

/// `a.ts`'s annotation `Loop<'a'>` runs into the tail-recursion limit; `b.ts` reads it
/// through the alias `L`, and `d.ts` reads `v`, whose initializer in `c.ts` runs into it.
/// The checker keeps what the limit decided, with where it was met: a limit met resolving
/// a type node is reported at that node, in the walk over its own file, and one met under
/// lazy inference nowhere, whoever asked first. Until issue 42 it was reported at the
/// node of whoever asked first: at 2 and 4 checkers `b.ts`'s checker resolved `L` itself
/// and reported at `b.ts`, in one checker it read `L` after `a.ts` and did not
/// (ts-essentials@10.0.2 gave one digest at 1 checker and another at 2, 3 and 8).
#[test]
fn a_limit_met_in_a_declaration_is_reported_at_the_declaration_whoever_asked_first() {
    let a = "export type Loop<T> = T extends string ? Loop<T> : never;\n\
             export type L = Loop<'a'>;\n";
    let b = "import { L } from './a';\nconst x: L = 1;\n";
    let c = "import { Loop } from './a';\n\
             declare function make<T>(x: T): Loop<T>;\n\
             export const v = make('a');\n";
    let d = "import { v } from './c';\nconst w: number = v;\n";
    let files = [("a.ts", a), ("b.ts", b), ("c.ts", c), ("d.ts", d)];
    let one = diagnostics_at(&files, 1);
    for at in ["a.ts:2:17 - error TS2589", "c.ts:3:18 - error TS2589"] {
        assert!(one.contains(at), "{at} is reported:\n{one}");
    }
    assert_eq!(one, diagnostics_at(&files, 2));
    assert_eq!(one, diagnostics_at(&files, 4));
}
