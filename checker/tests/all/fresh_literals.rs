//! Fresh and regular literal types, as TypeScript has them: every literal type has a
//! fresh twin, and a literal type node creates it (by evaluating the literal) before it
//! denotes the regular type. Every program here was checked with the native TypeScript
//! checker (7.0.2, strict): the expectations are its diagnostics (by code and line).
use crate::{lines_and_codes, types};

#[test]
fn every_new_literal_in_a_type_position_costs_a_regular_and_a_fresh_type() {
    let literals = "export type A = \"x1\";\nexport type B = \"x2\";\nexport type C = 31;\n";
    let keywords = "export type A = string;\nexport type B = string;\nexport type C = number;\n";
    assert_eq!(types(literals), types(keywords) + 6);
}

#[test]
fn a_literal_written_twice_in_type_positions_is_one_pair_of_types() {
    let once = "export type A = \"x1\";\nexport type B = string;\n";
    let twice = "export type A = \"x1\";\nexport type B = \"x1\";\n";
    assert_eq!(types(twice), types(once));
}

#[test]
fn literal_type_nodes_denote_one_type_for_assignability_and_narrowing() {
    let src = "type Dir = \"up\" | \"down\" | 1 | true | 10n;\n\
               type Same = \"up\" | \"down\" | \"up\" | 1 | 1 | true | 10n;\n\
               declare let d: Dir;\n\
               const s: Same = d;\n\
               const back: Dir = s;\n\
               const bad: Dir = \"left\";\n\
               function f(x: Dir) {\n\
               \x20 if (x === \"up\") {\n\
               \x20   const u: \"up\" = x;\n\
               \x20 } else {\n\
               \x20   const n: \"down\" | 1 | true | 10n = x;\n\
               \x20 }\n\
               }\n";
    assert_eq!(lines_and_codes(src), ["6:TS2322"]);
}

#[test]
fn literal_expressions_have_fresh_types_that_relate_narrow_and_unite_as_their_regular_types() {
    let src = "export {};\n\
               const c = \"a\";\n\
               type AB = \"a\" | \"b\";\n\
               declare let x: AB;\n\
               declare const r: boolean;\n\
               const u: AB = c;\n\
               const v: \"a\" & string = \"a\";\n\
               const flag = true;\n\
               const t: true = flag;\n\
               const big = 10n;\n\
               const b2: 10n = big;\n\
               const m = r ? \"a\" : \"b\";\n\
               const n: AB = m;\n\
               const same: \"a\" | \"a\" = r ? c : \"a\";\n\
               if (x === \"a\") {\n\
               \x20 const y: \"a\" = x;\n\
               } else {\n\
               \x20 const z: \"b\" = x;\n\
               }\n\
               type Shape = { kind: \"sq\"; s: number } | { kind: \"ci\"; d: number };\n\
               const o = { kind: \"sq\" as const, s: 1 };\n\
               const sh: Shape = o;\n\
               const bad: \"b\" = c;\n\
               let w = \"a\";\n\
               const bad2: \"a\" = w;\n";
    assert_eq!(lines_and_codes(src), ["23:TS2322", "25:TS2322"]);
}

#[test]
fn a_new_literal_in_an_expression_costs_a_regular_and_a_fresh_type() {
    let one = "export const a = \"q1\";\nexport const b = \"q1\";\n";
    let two = "export const a = \"q1\";\nexport const b = \"q2\";\n";
    assert_eq!(types(two), types(one) + 2);
}

#[test]
fn widening_widens_fresh_literals_and_keeps_regular_ones_from_type_annotations() {
    let src = "export {};\n\
               declare const k: \"a\";\n\
               let v = k;\n\
               const ok: \"a\" = v;\n\
               const bad: \"b\" = v;\n\
               type Opt = { t?: \"x\" | \"y\"; n?: 1 | 2 };\n\
               declare const tx: \"x\" | \"y\";\n\
               declare const one: 1;\n\
               declare function take(o: Opt): void;\n\
               const o = { t: tx, n: one };\n\
               take(o);\n\
               let s = \"lit\";\n\
               const s2: \"lit\" = s;\n\
               const p = { t: \"x\" };\n\
               take(p);\n\
               function ret() { return k; }\n\
               const r: \"a\" = ret();\n";
    assert_eq!(lines_and_codes(src), ["5:TS2322", "13:TS2322", "15:TS2345"]);
}

#[test]
fn as_const_and_property_accesses_give_regular_literals_that_widening_keeps() {
    let src = "export {};\n\
               declare const r: boolean;\n\
               const X = { K: \"k\", L: \"l\" } as const;\n\
               let a = X.K;\n\
               const a1: \"k\" = a;\n\
               let b = r ? X.K : X.L;\n\
               const b1: \"k\" | \"l\" = b;\n\
               let c = r ? X.K : \"z\";\n\
               const c1: \"k\" | \"z\" = c;\n\
               let d = (\"q\" as const);\n\
               const d1: \"q\" = d;\n\
               const o = { p: X.K, q: \"w\" };\n\
               const o1: { p: \"k\"; q: string } = o;\n\
               const o2: { p: \"k\"; q: \"w\" } = o;\n";
    assert_eq!(lines_and_codes(src), ["9:TS2322", "14:TS2322"]);
}
