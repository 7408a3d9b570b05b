//! Outer type parameters of anonymous object types and fresh type parameters of
//! instantiated generic signatures, as TypeScript instantiates them
//! (`getObjectTypeInstantiation`, `instantiateSignature`). The `this` type of an interface
//! that also has a `declare var` (as lib.dom's interfaces do) has two declarations, so it
//! is an outer type parameter of every function type and type literal in the interface:
//! each derived interface gets its own instantiation of them, and of the generic methods'
//! type parameters. Every program was checked with the native TypeScript checker (7.0.2,
//! strict, lib es5): its diagnostics are the expectations, and its type counts
//! (`--extendedDiagnostics`) are quoted.
use crate::{check, render, types};

const DERIVED: &str = "interface D1 extends Base { a: 1 }\n\
                       interface D2 extends Base { b: 1 }\n\
                       interface D3 extends Base { c: 1 }\n\
                       declare const d1: D1;\n\
                       declare const d2: D2;\n\
                       declare const d3: D3;\n";

const VAR: &str = "declare var Base: { prototype: Base };\n";

#[test]
fn an_event_handler_type_of_an_interface_with_a_declare_var_is_instantiated_per_derived_interface()
{
    let base = "interface Base { onx: ((this: Base, ev: string) => any) | null; next: this }\n";
    let uses = "export const h = [d1.onx, d2.onx, d3.onx];\n";
    let without = format!("{base}{DERIVED}{uses}");
    let with = format!("{VAR}{base}{DERIVED}{uses}");
    // tsc: 1,544 and 1,551 types (+7: the `{ prototype }` literal, a function type and a
    // union per derived interface). Without the rule this checker made one more type.
    let added = types(&with) - types(&without);
    assert!((7..=10).contains(&added), "{added} types added");
    assert_eq!(render(&check(&[("a.ts", &with)]).diagnostics), "");
}

#[test]
fn a_generic_method_of_such_an_interface_gets_a_fresh_type_parameter_per_derived_interface() {
    let base = "interface Map1 { a: string; b: number }\n\
                interface Coll<T> { item: T }\n\
                interface Base { get<K extends keyof Map1>(k: K): Coll<Map1[K]>; next: this }\n";
    let uses = "export const h = [d1.get, d2.get, d3.get];\n";
    let without = format!("{base}{DERIVED}{uses}");
    let with = format!("{VAR}{base}{DERIVED}{uses}");
    // tsc: 1,555 and 1,569 types (+14: per derived interface a method type, a `K`, a
    // `Map1[K]` and a `Coll<Map1[K]>`, as `HTMLCollectionOf<HTMLElementTagNameMap[K]>` is
    // made per element interface when lib.dom.d.ts is checked).
    let added = types(&with) - types(&without);
    assert!((14..=18).contains(&added), "{added} types added");
}

#[test]
fn the_per_interface_instantiations_relate_and_print_like_the_declared_types() {
    let src = format!(
        "{VAR}interface Base {{ onx: ((this: Base, ev: string) => any) | null; next: this }}\n\
         {DERIVED}declare const u: D1 | D2;\n\
         const h1: ((this: Base, ev: string) => any) | null = d1.onx;\n\
         const h2: ((this: Base, ev: string) => any) | null = u.onx;\n\
         const h3: typeof d1.onx = d3.onx;\n\
         const bad: number = d2.onx;\n"
    );
    // tsc reports only the last line, printing the `this` parameter this checker drops.
    assert_eq!(
        render(&check(&[("a.ts", &src)]).diagnostics),
        "a.ts:13:7 - error TS2322: Type '((ev: string) => any) | null' is not assignable to type 'number'.\n"
    );
}

#[test]
fn a_generic_method_called_on_a_union_of_derived_interfaces_infers_as_on_one() {
    let src = format!(
        "interface Map1 {{ a: string; b: number }}\n\
         interface Coll<T> {{ item: T }}\n\
         {VAR}interface Base {{ get<K extends keyof Map1>(k: K): Coll<Map1[K]>; next: this }}\n\
         {DERIVED}declare const u: D1 | D2;\n\
         const s: string = u.get(\"a\").item;\n\
         const n: number = d1.get(\"b\").item;\n\
         const bad: string = d2.get(\"b\").item;\n\
         const bad2: number = u.get(\"a\");\n"
    );
    // tsc: TS2322 on the last two lines, with these messages.
    assert_eq!(
        render(&check(&[("a.ts", &src)]).diagnostics),
        "a.ts:14:7 - error TS2322: Type 'number' is not assignable to type 'string'.\n\
         a.ts:15:7 - error TS2322: Type 'Coll<string>' is not assignable to type 'number'.\n"
    );
}
