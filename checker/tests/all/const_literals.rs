//! Const contexts (`as const`) and object literal types in unions, as TypeScript has them.
//! Every program here was checked with the native TypeScript checker (7.0.2, strict): the
//! expectations are its diagnostics (by code and line).
use crate::lines_and_codes;

#[test]
fn an_as_const_object_keeps_literal_property_types_nested_and_through_spreads() {
    let src = "declare function take(o: { a?: \"hachure\" | \"solid\"; n?: 1 | 2 }): void;\n\
               const x = { a: \"hachure\", n: 1 } as const;\n\
               take(x);\n\
               take({ ...x, n: 2 });\n\
               const nested = { inner: { k: \"v\" } } as const;\n\
               const k: \"v\" = nested.inner.k;\n\
               const w = { a: \"hachure\" };\n\
               take(w);\n";
    assert_eq!(lines_and_codes(src), ["8:TS2345"]);
}

#[test]
fn an_as_const_array_is_a_tuple_of_literal_types() {
    let src = "export {};\n\
               const t = [\"a\", 1] as const;\n\
               const t0: \"a\" = t[0];\n\
               const t1: 1 = t[1];\n\
               const l = { list: [1, 2] } as const;\n\
               const l1: 2 = l.list[1];\n\
               const bad: \"b\" = t[0];\n";
    assert_eq!(lines_and_codes(src), ["7:TS2322"]);
}

#[test]
fn a_let_of_an_as_const_literal_keeps_it_and_method_bodies_are_outside_the_const_context() {
    let src = "export {};\n\
               let s = \"lit\" as const;\n\
               const s2: \"lit\" = s;\n\
               const o = { m() { return { a: \"x\" }; } } as const;\n\
               const r: { a: \"x\" } = o.m();\n";
    assert_eq!(lines_and_codes(src), ["5:TS2322"]);
}

#[test]
fn a_property_missing_from_object_literals_in_a_union_is_undefined() {
    let src = "export {};\n\
               declare const flag: boolean;\n\
               const r = flag ? {} : { points: [1] };\n\
               const rp: number[] | undefined = r.points;\n\
               const arr = [{ a: 1 }, { b: \"x\" }];\n\
               const a0: number | undefined = arr[0].a;\n\
               const b0: string | undefined = arr[0].b;\n\
               const e1: number[] | undefined = (flag ? {} : { points: [1] }).points;\n\
               const bad: number[] = r.points;\n\
               interface I { p: number }\n\
               declare const i: I | { q: string };\n\
               i.q;\n";
    assert_eq!(lines_and_codes(src), ["9:TS2322", "12:TS2339"]);
}

#[test]
fn a_widened_union_of_object_literals_is_normalized_and_spread_members_take_but_give_no_properties()
{
    let src = "export {};\n\
               declare const flag: boolean;\n\
               interface B { y: number }\n\
               declare const base: B;\n\
               const sp = flag ? { ...base } : { z: 1 };\n\
               const z: number | undefined = sp.z;\n\
               const list = [{ ...base, w: 2 }, { z: 1 }];\n\
               const lz: number | undefined = list[0].z;\n\
               list[0].w;\n\
               (flag ? { ...base } : { z: 1 }).z;\n";
    assert_eq!(lines_and_codes(src), ["9:TS2339", "10:TS2339"]);
}

#[test]
fn object_literals_read_through_variables_are_widened_and_no_longer_give_undefined() {
    let src = "export {};\n\
               declare const flag: boolean;\n\
               const a = { x: 1 };\n\
               const b = { y: 1 };\n\
               const u = flag ? a : b;\n\
               u.x;\n\
               (flag ? a : b).x;\n";
    assert_eq!(lines_and_codes(src), ["6:TS2339", "7:TS2339"]);
}

#[test]
fn arrow_return_types_are_normalized_and_an_empty_literal_branch_is_reduced_away() {
    let src = "export {};\n\
               declare const flag: boolean;\n\
               const rescale = (n: number) => (flag ? { points: [n] } : {});\n\
               const r = rescale(1);\n\
               const p: number[] | undefined = r.points;\n\
               interface Opts { tableName?: string; other?: number }\n\
               declare const given: Opts | undefined;\n\
               const opts = typeof given === \"object\" ? given : {};\n\
               const t: string | undefined = opts.tableName;\n\
               const o2 = given ?? {};\n\
               const o: number | undefined = o2.other;\n\
               const bad: number[] = r.points;\n";
    assert_eq!(lines_and_codes(src), ["12:TS2322"]);
}

#[test]
fn literals_read_from_properties_are_regular_and_do_not_widen_where_written_ones_do() {
    let src = "export {};\n\
               declare const flag: boolean;\n\
               const R = { A: 1, B: 2 } as const;\n\
               const o = { type: flag ? R.A : R.B };\n\
               const t: 1 | 2 = o.type;\n\
               let v = R.A;\n\
               const v1: 1 = v;\n\
               const w = { type: flag ? 1 : 2 };\n\
               const wt: 1 | 2 = w.type;\n";
    assert_eq!(lines_and_codes(src), ["9:TS2322"]);
}
