//! Call resolution as TypeScript does it: calls on a union of callables (its union
//! signatures), `return` in `async` functions (awaited), and type predicates on
//! signatures (`filter<S extends T>(p: (v: T) => v is S)`). Every program here was run
//! through the native TypeScript checker (7.0.2, strict): the positions and codes below
//! are what it reports.
use crate::diagnostics;

#[test]
fn a_union_of_function_types_is_called_with_its_parameters_intersected() {
    let src = "export {};\ndeclare const f: ((a: string) => void) | ((a: string, b: number) => void);\nf(\"a\", 1);\nf(\"a\");\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:4:1 - error TS2554: Expected 2 arguments, but got 1.\n"
    );
}

#[test]
fn a_method_called_on_a_union_of_builders_returns_the_union_of_their_returns() {
    let src = "export {};\ninterface QA { where(c: string): QA; run(): number }\ninterface QB { where(c: string): QB; run(): string }\ndeclare const q: QA | QB;\nconst r: number | string = q.where(\"x\").run();\nconst bad: boolean = q.run();\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:6:7 - error TS2322: Type 'string | number' is not assignable to type 'boolean'.\n"
    );
}

#[test]
fn a_union_whose_members_are_each_overloaded_is_not_callable() {
    let src = "export {};\ndeclare const h: { (a: string): void; (a: number): void } | { (a: boolean): void; (a: null): void };\nh(true);\n";
    // TypeScript prints each member's overloads; this checker prints overloaded object
    // types as `({ })`.
    assert_eq!(
        diagnostics(src),
        "a.ts:3:1 - error TS2349: This expression is not callable. Each member of the union type '({ }) | ({ })' has signatures, but none of those signatures are compatible with each other.\n"
    );
}

#[test]
fn returns_in_async_functions_are_awaited_and_checked_against_the_promised_type() {
    let src = "export {};\ndeclare const p: Promise<string>;\nasync function a1(): Promise<string> { return p; }\nasync function a2(): Promise<string> { return 1; }\nconst a3 = async (): Promise<string> => p;\nconst a4 = async (): Promise<string> => { return p; };\nasync function a5() { return p; }\nconst x5: Promise<string> = a5();\nconst y5: Promise<number> = a5();\n";
    // TypeScript widens the literal in the first message ('number').
    assert_eq!(
        diagnostics(src),
        "a.ts:4:40 - error TS2322: Type '1' is not assignable to type 'string'.\n\
         a.ts:9:7 - error TS2322: Type 'Promise<string>' is not assignable to type 'Promise<number>'.\n"
    );
}

#[test]
fn a_type_predicate_callback_infers_the_narrowed_type_and_a_boolean_one_takes_the_other_overload() {
    let src = "export {};\ndeclare const flip: boolean;\ninterface List<T> {\n  filter<S extends T>(p: (v: T) => v is S): List<S>;\n  filter(p: (v: T) => boolean): List<T>;\n  first(): T;\n}\ninterface Foo { kind: \"foo\"; n: number }\ninterface Bar { kind: \"bar\"; s: string }\ndeclare const xs: List<Foo | Bar>;\nfunction isFoo(x: Foo | Bar): x is Foo { return x.kind === \"foo\"; }\nconst a: number = xs.filter(isFoo).first().n;\nconst b: number = xs.filter((x): x is Foo => x.kind === \"foo\").first().n;\nconst c: Foo | Bar = xs.filter((x: Foo | Bar) => x.kind === \"foo\" && flip).first();\nconst d: Foo = xs.filter((x: Foo | Bar) => x.kind === \"foo\" && flip).first();\n";
    // TypeScript prints the union as 'Bar | Foo' (its own order).
    assert_eq!(
        diagnostics(src),
        "a.ts:15:7 - error TS2322: Type 'Foo | Bar' is not assignable to type 'Foo'.\n"
    );
}

#[test]
fn an_uninferred_type_parameter_takes_its_constraint_instantiated_with_the_receiver() {
    let src = "export {};\ninterface Box<T> {\n  pick<S extends T>(f: (v: T) => void): S;\n}\ndeclare const b: Box<string>;\nconst s: string = b.pick(() => {});\nconst n: number = b.pick(() => {});\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:7:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n"
    );
}

/// Type arguments are inferred from index signatures as TypeScript's `inferFromIndexTypes`
/// does: a number index from the argument's number index, a string index from its string
/// index, else from the properties of an object literal type (its implicit index). Before,
/// only the implicit string index was used and these calls returned `unknown`.
#[test]
fn type_arguments_are_inferred_from_index_signatures() {
    let out = diagnostics(
        "declare function byNumber<T>(o: { [n: number]: T }): T;\n\
         declare function byString<T>(o: { [s: string]: T }): T;\n\
         declare const list: { [n: number]: string };\n\
         declare const dict: { [s: string]: boolean };\n\
         const a: string = byNumber(list);\n\
         const b: boolean = byString(dict);\n\
         const c: number = byString({ x: 1, y: 2 });\n\
         const d: number = byNumber(list);\n",
    );
    let at: Vec<&str> = out
        .lines()
        .map(|l| l.split(": ").next().unwrap_or(l))
        .collect();
    assert_eq!(at, ["a.ts:8:7 - error TS2322"], "{out}");
}

/// An overloaded call types a function argument with untyped parameters in the context of
/// the first candidate that takes the other arguments (TypeScript's `chooseOverload`,
/// which leaves such arguments out until then): `reduce`'s callback takes its accumulator
/// from the overload its initial value chooses, so `acc` is the index signature type, not the element
/// type of the first overload (excalidraw's `linearElementEditor.ts` and 72 more false
/// diagnostics on excalidraw and typeorm). tsgo 7.0.2 reports the one error, there.
#[test]
fn an_overloaded_call_types_a_callback_in_the_overload_its_other_arguments_choose() {
    let src = "type Segment = { start: number; index: number };\n\
               declare function fold(cb: (acc: Segment, cur: Segment) => Segment, init: Segment): Segment;\n\
               declare function fold<U>(cb: (acc: U, cur: Segment) => U, init: U): U;\n\
               const bySlot = fold((acc, s) => { acc[s.index] = s; return acc; }, {} as { [k: number]: Segment });\n\
               const wrong: number = bySlot;\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:5:7 - error TS2322: Type '{ [x: number]: { start: number; index: number; }; }' is not assignable to type 'number'.\n"
    );
}
