//! Object literal freshness and excess property checks (TS2353, TS2561), as TypeScript's
//! hasExcessProperties does them. Every program here was checked with the native
//! TypeScript checker (7.0.2, strict): the expectations are its diagnostics, except where
//! a comment says how this checker prints a type differently.
use crate::diagnostics;

#[test]
fn an_excess_property_in_an_annotated_initializer_is_ts2353_at_its_name() {
    let src = "interface Point { x: number; y: number }\nconst p: Point = { x: 1, y: 2, z: 3 };\nconst q: Point = { x: 1, y: 2 };\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:2:32 - error TS2353: Object literal may only specify known properties, and 'z' does not exist in type 'Point'.\n"
    );
}

#[test]
fn a_misspelled_property_is_ts2561_with_typescripts_spelling_suggestion() {
    let src = "interface Opts { width: number; height?: number; color?: string }\nconst a1: Opts = { width: 1, heigth: 2 };\nconst a2: Opts = { width: 1, \"col-or\": \"red\" };\nconst a3: Opts = { width: 1, Color: \"red\" };\nconst a4: Opts = { width: 1, colour: \"red\" };\nconst a5: Opts = { width: 1, yy: 2 };\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:2:30 - error TS2561: Object literal may only specify known properties, but 'heigth' does not exist in type 'Opts'. Did you mean to write 'height'?\n\
         a.ts:3:30 - error TS2353: Object literal may only specify known properties, and '\"col-or\"' does not exist in type 'Opts'.\n\
         a.ts:4:30 - error TS2561: Object literal may only specify known properties, but 'Color' does not exist in type 'Opts'. Did you mean to write 'color'?\n\
         a.ts:5:30 - error TS2561: Object literal may only specify known properties, but 'colour' does not exist in type 'Opts'. Did you mean to write 'color'?\n\
         a.ts:6:30 - error TS2353: Object literal may only specify known properties, and 'yy' does not exist in type 'Opts'.\n"
    );
}

#[test]
fn arguments_returns_property_initializers_assignments_satisfies_and_annotated_arrows_are_checked()
{
    let src = "interface Point { x: number; y: number }\nfunction f(p: Point) { return p; }\nf({ x: 1, y: 2, z: 3 });\nfunction g(): Point { return { x: 1, y: 2, w: 3 }; }\nclass C { p: Point = { x: 1, y: 2, v: 3 }; }\nlet q: Point = { x: 0, y: 0 };\nq = { x: 1, y: 2, u: 3 };\nconst s = { x: 1, y: 2, t: 3 } satisfies Point;\nconst h = (): Point => ({ x: 1, y: 2, r: 3 });\nconst m: Point = { x: 1, y: 2, m() { return 1; } };\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:3:17 - error TS2353: Object literal may only specify known properties, and 'z' does not exist in type 'Point'.\n\
         a.ts:4:44 - error TS2353: Object literal may only specify known properties, and 'w' does not exist in type 'Point'.\n\
         a.ts:5:36 - error TS2353: Object literal may only specify known properties, and 'v' does not exist in type 'Point'.\n\
         a.ts:7:19 - error TS2353: Object literal may only specify known properties, and 'u' does not exist in type 'Point'.\n\
         a.ts:8:25 - error TS2353: Object literal may only specify known properties, and 't' does not exist in type 'Point'.\n\
         a.ts:9:39 - error TS2353: Object literal may only specify known properties, and 'r' does not exist in type 'Point'.\n\
         a.ts:10:32 - error TS2353: Object literal may only specify known properties, and 'm' does not exist in type 'Point'.\n"
    );
}

#[test]
fn nested_literals_array_elements_tuple_elements_and_conditional_branches_are_checked() {
    let src = "interface Point { x: number; y: number }\nconst a: { p: Point; q: Point } = { p: { x: 1, y: 2, z: 3 }, q: { x: 1, y: 2, w: 3 } };\nconst b: Point[] = [{ x: 1, y: 2 }, { x: 1, y: 2, v: 3 }];\nconst c: [Point, Point] = [{ x: 1, y: 2 }, { x: 1, y: 2, u: 3 }];\nconst d: { list: Point[] } = { list: [{ x: 1, y: 2, t: 3 }] };\ndeclare const flag: boolean;\nconst e: Point = flag ? { x: 1, y: 2 } : { x: 2, y: 3, s: 4 };\nconst f: Point | undefined = { x: 1, y: 2, r: 3 };\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:2:54 - error TS2353: Object literal may only specify known properties, and 'z' does not exist in type 'Point'.\n\
         a.ts:2:79 - error TS2353: Object literal may only specify known properties, and 'w' does not exist in type 'Point'.\n\
         a.ts:3:51 - error TS2353: Object literal may only specify known properties, and 'v' does not exist in type 'Point'.\n\
         a.ts:4:58 - error TS2353: Object literal may only specify known properties, and 'u' does not exist in type 'Point'.\n\
         a.ts:5:53 - error TS2353: Object literal may only specify known properties, and 't' does not exist in type 'Point'.\n\
         a.ts:7:56 - error TS2353: Object literal may only specify known properties, and 's' does not exist in type 'Point'.\n\
         a.ts:8:44 - error TS2353: Object literal may only specify known properties, and 'r' does not exist in type 'Point'.\n"
    );
}

#[test]
fn index_signatures_empty_and_global_object_targets_and_widened_literals_are_not_checked() {
    let src = "interface Point { x: number; y: number }\ninterface Empty {}\nconst a: { [k: string]: number } = { any: 1 };\nconst b: object = { any: 1 };\nconst c: {} = { any: 1 };\nconst d: Empty = { any: 1 };\nconst e: unknown = { any: 1 };\nconst f: Object = { any: 1 };\nconst g: any = { any: 1 };\nfunction id<T>(x: T): T { return x; }\nconst h: { x: number } = id({ x: 1, extra: 2 });\nconst lit = { x: 1, y: 2, z: 3 };\nconst i: Point = lit;\nconst make = () => ({ x: 1, y: 2, z: 3 });\nconst j: Point = make();\nfunction ret() { return { x: 1, y: 2, z: 3 }; }\nconst k: Point = ret();\nclass K { o = { x: 1, y: 2, z: 3 }; }\nconst l: Point = new K().o;\nconst arr = [{ x: 1, y: 2, z: 3 }];\nconst m: Point[] = arr;\nconst n: { x: number } | object = { x: 1, extra: 2 };\n";
    assert_eq!(diagnostics(src), "");
}

#[test]
fn properties_written_after_a_spread_are_checked_but_spread_ones_are_not() {
    let src = "interface Point { x: number; y: number }\nconst extra = { x: 1, y: 2, z: 3 };\nconst a: Point = { ...extra };\nconst b: Point = { ...extra, w: 4 };\nconst c: Point = { ...{ x: 1, y: 2, inner: 3 }, x: 5 };\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:4:30 - error TS2353: Object literal may only specify known properties, and 'w' does not exist in type 'Point'.\n"
    );
}

#[test]
fn a_union_knows_what_any_member_knows_and_is_narrowed_by_its_discriminant() {
    // TypeScript prints the first union `Point | { a: string; }`: this checker orders
    // union members by structure.
    let src = "interface Point { x: number; y: number }\nconst a: Point | { a: string } = { x: 1, y: 2, a: \"s\" };\nconst b: Point | { a: string } = { x: 1, y: 2, b: \"s\" };\ntype Shape = { kind: \"circle\"; radius: number } | { kind: \"square\"; side: number };\nconst c: Shape = { kind: \"circle\", radius: 1, side: 2 };\nconst d: Shape = { kind: \"square\", side: 2 };\nconst e: { p: { x: number } } | { q: string } = { p: { x: 1, y: 2 } };\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:3:48 - error TS2353: Object literal may only specify known properties, and 'b' does not exist in type '{ a: string; } | Point'.\n\
         a.ts:5:47 - error TS2353: Object literal may only specify known properties, and 'side' does not exist in type '{ kind: \"circle\"; radius: number; }'.\n\
         a.ts:7:62 - error TS2353: Object literal may only specify known properties, and 'y' does not exist in type '{ x: number; }'.\n"
    );
}

#[test]
fn an_intersection_knows_what_any_member_knows_and_checks_nested_literals_as_one_object() {
    // TypeScript prints `Point & { a: string; }`: this checker orders intersection members
    // by structure.
    let src = "interface Point { x: number; y: number }\nconst a: Point & { a: string } = { x: 1, y: 2, a: \"s\" };\nconst b: Point & { a: string } = { x: 1, y: 2, a: \"s\", b: 1 };\nconst c: { a: { x: string } } & { c: number } = { a: { x: \"h\", y: 2 }, c: 5 };\nfunction f<T>(t: T): T & { tag: string } { return { ...t, tag: \"a\", other: 1 } as any; }\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:3:56 - error TS2353: Object literal may only specify known properties, and 'b' does not exist in type '{ a: string; } & Point'.\n\
         a.ts:4:64 - error TS2353: Object literal may only specify known properties, and 'y' does not exist in type '{ x: string; }'.\n"
    );
}
