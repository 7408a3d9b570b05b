//! The binder's control-flow graph, and narrowing by the checker's walk over it.
use checker::bind::bind_all;
use checker::bind::flow::{FlowId, FlowNode, UNREACHABLE};
use checker::parse::parse;

use crate::{check, render};

/// The flow node of the `n`th reference (0-based, in source order) to `name` in `src`.
fn flow_at(src: &str, name: &str, n: usize) -> (Vec<String>, FlowId) {
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let f = &bound.files[0];
    let mut refs: Vec<u32> = src
        .match_indices(name)
        .map(|(i, _)| i as u32 + 1)
        .filter(|pos| f.flow_of.contains_key(pos))
        .collect();
    refs.sort();
    let kinds = f
        .flow_nodes
        .iter()
        .map(|n| match &**n {
            FlowNode::Unreachable => "unreachable".to_string(),
            FlowNode::Start { .. } => "start".to_string(),
            FlowNode::Assignment { .. } => "assignment".to_string(),
            FlowNode::PropertyAssignment { .. } => "property assignment".to_string(),
            FlowNode::Condition { assume_true, .. } => format!("condition({assume_true})"),
            FlowNode::Label {
                antecedents,
                is_loop,
            } => format!("label(loop={is_loop}, {})", antecedents.len()),
            FlowNode::Call { .. } => "call".to_string(),
        })
        .collect();
    (kinds, f.flow_of[&refs[n]])
}

#[test]
fn a_reference_inside_an_if_sits_behind_the_true_condition() {
    let src = "function f(x: string | number) { if (typeof x === 'string') { x; } else { x; } x; }";
    let (kinds, then_ref) = flow_at(src, "x", 1);
    assert_eq!(kinds[then_ref as usize], "condition(true)");
    let (kinds, else_ref) = flow_at(src, "x", 2);
    assert_eq!(kinds[else_ref as usize], "condition(false)");
    let (kinds, after) = flow_at(src, "x", 3);
    assert_eq!(kinds[after as usize], "label(loop=false, 2)");
}

#[test]
fn code_after_return_is_unreachable_and_branches_that_return_do_not_join() {
    let src = "function f(x: string | null) { if (x === null) { return; } x; return; x; }";
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let f = &bound.files[0];
    let after_if = f.flow_of[&(src.find("x; return").unwrap() as u32 + 1)];
    assert!(matches!(
        *f.flow_nodes[after_if as usize],
        FlowNode::Condition {
            assume_true: false,
            ..
        }
    ));
    let dead = f.flow_of[&(src.rfind("x;").unwrap() as u32 + 1)];
    assert_eq!(dead, UNREACHABLE);
}

#[test]
fn a_loop_head_collects_its_entry_and_back_edges_and_continue() {
    let src = "let i = 0; while (i < 3) { if (i) { continue; } i = i + 1; } i;";
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let heads: Vec<usize> = bound.files[0]
        .flow_nodes
        .iter()
        .filter_map(|n| match &**n {
            FlowNode::Label {
                antecedents,
                is_loop: true,
            } => Some(antecedents.len()),
            _ => None,
        })
        .collect();
    assert_eq!(heads, vec![3], "entry, continue, end of body");
}

#[test]
fn assignments_and_declarations_with_initializers_are_flow_nodes() {
    let src = "export {}; let a: string | number = 1; a = 'x'; a;";
    let (kinds, last) = flow_at(src, "a", 1);
    assert_eq!(kinds[last as usize], "assignment");
    assert_eq!(kinds.iter().filter(|k| *k == "assignment").count(), 2);
}

#[test]
fn assignments_to_property_chains_on_identifiers_are_flow_nodes() {
    // `o.a.b = ...` and `o.a += ...` are; `o[k] = ...` and `f().a = ...` are not.
    let src = "export {}; declare const o: any; declare const k: string; declare function f(): any;\no.a.b = 1; o.a += 1; o[k] = 2; f().a = 3; o;";
    let (kinds, last) = flow_at(src, "o", 3);
    assert_eq!(
        kinds.iter().filter(|k| *k == "property assignment").count(),
        2
    );
    assert_eq!(kinds[last as usize], "property assignment");
}

#[test]
fn typeof_narrows_a_union_in_each_branch() {
    let out = check(&[(
        "a.ts",
        "export function f(x: string | number) {\n  if (typeof x === 'string') { const s: string = x; const n: number = x; }\n  else { const n: number = x; const s: string = x; }\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn null_checks_truthiness_and_early_returns_remove_null() {
    let out = check(&[(
        "a.ts",
        "export function f(a: string | null, b: string | undefined, c: string | null) {\n  if (a !== null) { a.length; }\n  a.length;\n  if (b) { const s: string = b; }\n  if (!c) { return; }\n  const t: string = c;\n  const u: string = a && a.toUpperCase();\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn literal_equality_and_discriminants_pick_union_members() {
    let out = check(&[(
        "a.ts",
        "interface Sq { kind: 'sq'; side: number }\ninterface Ci { kind: 'ci'; r: number }\nexport function area(s: Sq | Ci, m: 'a' | 'b' | 1) {\n  if (s.kind === 'sq') { return s.side; }\n  const r: number = s.r;\n  if (m === 'a') { const a: 'a' = m; } else { const x: 'b' | 1 = m; const y: 'b' = m; }\n  return r;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn instanceof_in_and_assignments_narrow() {
    let out = check(&[(
        "a.ts",
        "class A { a = 1 }\nclass B { b = 'x' }\ninterface P { p: number }\ninterface Q { q: string }\nexport function f(x: A | B, y: P | Q, z: string | number) {\n  if (x instanceof A) { x.a; } else { x.b; }\n  if ('p' in y) { y.p; } else { y.q; }\n  z = 'now a string';\n  const s: string = z;\n  z = 3;\n  const t: string = z;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn user_type_guards_narrow_the_argument_in_each_branch() {
    // tsc: only the deliberate `const n: string = s.side` (TS2322); the guarded accesses
    // check, through a function declaration, an arrow in a const and an import.
    let out = check(&[
        (
            "guards.ts",
            "export interface Circle { kind: 'c'; radius: number }\nexport interface Square { kind: 's'; side: number }\nexport type Shape = Circle | Square;\nexport function isCircle(s: Shape): s is Circle { return s.kind === 'c'; }\nexport const isSquare = (s: Shape): s is Square => s.kind === 's';\n",
        ),
        (
            "a.ts",
            "import { Shape, isCircle, isSquare } from './guards';\nexport function area(s: Shape): number {\n  if (isCircle(s)) { return s.radius; }\n  return s.side;\n}\nexport function other(s: Shape): number {\n  if (!isSquare(s)) { return s.radius; }\n  const n: string = s.side;\n  return 0;\n}\n",
        ),
    ]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn instanceof_a_constructor_declared_as_a_value_narrows_to_its_prototype() {
    // `declare var` constructors, as the standard library declares HTMLElement.
    let out = check(&[(
        "a.ts",
        "interface Elem { tag: string }\ninterface Other { other: number }\ndeclare var Elem: { prototype: Elem; new (): Elem };\ndeclare var Made: { new (): Other };\nexport function f(x: Elem | Other | null) {\n  if (x instanceof Elem) { const t: string = x.tag; }\n  if (x instanceof Made) { const o: number = x.other; }\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn property_access_references_are_narrowed_like_variables() {
    // As the native checker: `c.inner.w` after `c.inner` was reassigned is back to its
    // declared type (8:9), and a closure does not keep a property's narrowing (9:31).
    let out = check(&[(
        "a.ts",
        "interface Cfg { name: string | null; inner: { w: number | undefined }; mode: 'a' | 'b' }\nfunction takesString(s: string) { return s; }\nexport function h(c: Cfg) {\n  if (!c.name) { c.name = 'default'; }\n  takesString(c.name);\n  if (c.inner.w === undefined) { return; }\n  c.inner = { w: undefined };\n  const n: number = c.inner.w;\n  const f = () => takesString(c.name);\n  if (c.mode === 'a') { const m: 'a' = c.mode; }\n  return f;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn static_methods_and_namespace_functions_that_are_type_guards_narrow() {
    // As the native checker: only 11:9, where the guarded branch gives a Table.
    let out = check(&[(
        "a.ts",
        "export class Table { name = 't'; }\nexport class Checker {\n  static isTable(obj: unknown): obj is Table { return obj instanceof Table; }\n}\nexport namespace Guards { export function isString(x: unknown): x is string { return typeof x === 'string'; } }\nfunction take(t: Table, opts?: { deep: boolean }) { return t.name + (opts ? 'd' : ''); }\nexport function f(tableOrName: Table | string, opts?: { deep: boolean }) {\n  const table = Checker.isTable(tableOrName) ? tableOrName : new Table();\n  take(table, opts);\n  if (Guards.isString(tableOrName)) { const s: string = tableOrName; }\n  const bad: number = Checker.isTable(tableOrName) ? tableOrName : 1;\n  return take(table, undefined);\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn properties_of_this_are_narrowed_like_other_property_references() {
    // The native checker reports 11:11 too (and 9:25, "possibly null" inside the closure,
    // a check this checker does not make).
    let out = check(&[(
        "a.ts",
        "export class Runner {\n  conn: { query(s: string): number } | undefined;\n  name: string | null = null;\n  run(): number {\n    if (!this.conn) { this.conn = { query: (s) => s.length }; }\n    const n = this.conn.query('x');\n    if (this.name === null) { return n; }\n    const l: number = this.name.length;\n    const later = () => this.name.length;\n    this.name = null;\n    const k: string = this.name;\n    return l + later();\n  }\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn a_type_guard_method_of_a_value_narrows_as_array_is_array_does() {
    // As the native checker: only 5:9.
    let out = check(&[(
        "a.ts",
        "export function f(x: string | string[], y: number | number[]) {\n  if (Array.isArray(x)) { return x.join(','); }\n  const s: string = x;\n  const n: number = Array.isArray(y) ? y.length : y;\n  const bad: string = Array.isArray(y) ? y : '';\n  return s + n + bad;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn typeof_function_tells_callable_interfaces_and_classes_from_objects() {
    // As the native checker: only 8:9 (the `object` branch is the Headers).
    let out = check(&[(
        "a.ts",
        "interface Headers { get(name: string): string }\ninterface Factory { (): Headers }\nclass Box { v = 1 }\nexport function f(h: Headers | Factory, b: Box | (() => Box), fn: Function | string) {\n  const headers: Headers = typeof h === 'function' ? h() : h;\n  const box: Box = typeof b === 'function' ? b() : b;\n  const s: string = typeof fn === 'function' ? '' : fn;\n  const bad: Factory = typeof h === 'object' ? h : h;\n  return [headers, box, s, bad];\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn narrowing_joins_branches_and_survives_loops() {
    let out = check(&[(
        "a.ts",
        "export function f(x: string | number | null, xs: number[]) {\n  if (x === null) { x = 0; }\n  const n: string | number = x;\n  while (x !== null) { const m: string | number = x; x = null; }\n  for (const v of xs) { if (typeof x === 'number') { break; } }\n  const k: string = x;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}

#[test]
fn closures_keep_the_narrowing_of_constants_but_not_of_reassigned_variables() {
    let out = check(&[(
        "a.ts",
        "export function f(p: string | null, q: string | null) {\n  const c: string | null = p;\n  if (!p || !c || !q) { return; }\n  const g = () => { const a: string = p; const b: string = c; };\n  const h = function () { const d: string = q; };\n  q = null;\n}\n",
    )]);
    insta::assert_snapshot!(render(&out.diagnostics));
}
