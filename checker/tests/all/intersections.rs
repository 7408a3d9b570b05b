//! Intersections normalized as TypeScript normalizes them (`never` absorbing, `{}` dropped,
//! disjoint primitives and literals reduced to `never`, unions distributed over), and what
//! that asks of spreads and property lookups. Each program's errors are on the lines and
//! with the codes `tsc` reports for it.
use crate::line_positions;

#[test]
fn an_intersection_with_the_empty_object_type_drops_it_and_removes_undefined() {
    assert_eq!(
        line_positions(
            "type NN<T> = T & {};
const a: NN<string | undefined> = undefined;
const b: NN<string | undefined> = \"x\";
const g: {} & number = 3;
"
        ),
        ["2:7 TS2322"]
    );
}

#[test]
fn disjoint_primitives_distinct_literals_and_null_with_objects_intersect_to_never() {
    assert_eq!(
        line_positions(
            "const c: string & number = \"x\";
const d: \"a\" & \"b\" = \"a\";
const e: null & { a: number } = null;
const f: string & \"k\" = \"j\";
const n: undefined & void = undefined;
"
        ),
        ["1:7 TS2322", "2:7 TS2322", "3:7 TS2322", "4:7 TS2322"]
    );
}

#[test]
fn an_intersection_distributes_over_a_union_member() {
    assert_eq!(
        line_positions(
            "interface A { a: number }
interface B { b: string }
interface C { c: boolean }
declare const m: (A | B) & C;
const h: boolean = m.c;
const i: number = m.a;
type D = ({ kind: \"a\"; x: number } | { kind: \"b\"; y: string }) & { kind: \"a\" };
declare const dd: D;
const j: number = dd.x;
"
        ),
        ["6:21 TS2339"]
    );
}

#[test]
fn a_spread_of_a_possibly_undefined_object_keeps_a_required_property_it_may_lack() {
    assert_eq!(
        line_positions(
            "declare const o: { depth?: number; name: string } | undefined;
const k: { depth: number } = { depth: -1, ...o };
declare const u: { a: number; b: string } | { a: string };
const s: { a: number | string } = { ...u };
"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn a_property_declared_by_one_member_of_an_intersection_ignores_the_index_signatures_of_others() {
    assert_eq!(
        line_positions(
            "interface Box { get(k: string): number }
type Brand<T extends string> = { [k: string]: T };
declare const br: Box & Brand<\"A\"> & Brand<\"B\">;
const l: number = br.get(\"x\");
"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn a_discriminant_compared_through_an_optional_chain_narrows_the_nested_reference() {
    assert_eq!(
        line_positions(
            "type G = { status: \"pending\" } | { status: \"done\"; html: string } | { status: \"error\"; message?: string; code: string };
type Base = { id: string; customData?: { [key: string]: any } };
type El = Base & RO<{ type: \"iframe\"; customData?: { generationData?: G } }>;
type RO<T> = { readonly [P in keyof T]: T[P] };
declare const element: El;
if (element.customData?.generationData?.status === \"done\") {
  const h: string = element.customData.generationData.html;
}
type S = { kind: \"a\"; x: number } | { kind: \"b\"; y: string };
declare const s: S | undefined;
if (s?.kind === \"a\") { const n: number = s.x; }
declare const v: { k?: string | null } | undefined;
if (v?.k == null) { const w: { k?: string | null } = v; }
"
        ),
        ["13:27 TS2322"]
    );
}

#[test]
fn an_intersection_of_conflicting_expando_properties_is_never_whichever_file_is_checked_first() {
    // `a.ts` forms the intersection before `b.ts`, whose assignments resolve the
    // properties, is checked; `c.ts` after. One checker sees all three in that order, three
    // checkers see one file each: both must reduce the intersection to `never`.
    let files = [
        (
            "a.ts",
            "import { fa, fb } from \"./b\";\n\
             declare const ab: typeof fa & typeof fb;\n\
             export const n: never = ab;\n",
        ),
        (
            "b.ts",
            "export function fa() {}\n\
             fa.kind = \"a\" as const;\n\
             export function fb() {}\n\
             fb.kind = \"b\" as const;\n",
        ),
        (
            "c.ts",
            "import { fa, fb } from \"./b\";\n\
             declare const ab: typeof fa & typeof fb;\n\
             export const n: never = ab;\n",
        ),
    ];
    for checkers in [1, 3] {
        let out = checker::run(&crate::corpus(&files), &checker::Options { checkers }).unwrap();
        assert_eq!(
            crate::codes(&out),
            Vec::<String>::new(),
            "{checkers} checkers"
        );
    }
}
