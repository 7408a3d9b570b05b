//! Type arguments are checked against their type parameters' constraints (TS2344), as
//! TypeScript's checkTypeArgumentConstraints does. Every expectation here is what the
//! native TypeScript checker (7.0.2, strict) reports on the same program.
use crate::{clean, diagnostics};

#[test]
fn a_type_argument_that_violates_extends_string_in_an_annotation_is_ts2344() {
    let src = "interface Box<T extends string> { value: T }\nconst b: Box<number> = { value: 1 };\ntype Alias = Box<boolean>;\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:2:14 - error TS2344: Type 'number' does not satisfy the constraint 'string'.\n\
         a.ts:3:18 - error TS2344: Type 'boolean' does not satisfy the constraint 'string'.\n"
    );
}

#[test]
fn a_key_missing_from_a_keyof_constraint_is_ts2344() {
    let src = "type MyPick<T, K extends keyof T> = { [P in K]: T[P] };\ninterface User { name: string; age: number }\ntype A = MyPick<User, 'name'>;\ntype B = MyPick<User, 'missing'>;\ndeclare const p: MyPick<{ a: number; b: string }, 'c'>;\n";
    // TypeScript prints the first constraint as `keyof User` and the second as `"a" | "b"`;
    // this checker prints `keyof` of a known type as the union of its keys, in its own
    // (structural, stable) order.
    assert_eq!(
        diagnostics(src),
        "a.ts:4:23 - error TS2344: Type '\"missing\"' does not satisfy the constraint '\"name\" | \"age\"'.\n\
         a.ts:5:51 - error TS2344: Type '\"c\"' does not satisfy the constraint '\"b\" | \"a\"'.\n"
    );
}

#[test]
fn satisfied_constraints_report_nothing() {
    let src = "interface Box<T extends string> { value: T }\ntype MyPick<T, K extends keyof T> = { [P in K]: T[P] };\ninterface User { name: string; age: number }\nclass Base<T extends string> { v!: T }\nclass D extends Base<'x'> {}\ninterface I<T extends string> { x: T }\nclass E implements I<string> { x = '' }\ninterface J extends I<'a' | 'b'> {}\ndeclare function f<T extends string>(x: T): T;\nf<'s'>('s');\nf('s');\nnew Base<string>();\nconst b: Box<'a'> = { value: 'a' };\ntype P = MyPick<User, 'name' | 'age'>;\ntype Q<X extends number = 1> = X[];\nconst q: Q = [1];\n";
    assert_eq!(clean(src), Vec::<String>::new());
}

#[test]
fn a_constraint_referring_to_another_parameter_is_instantiated_with_the_arguments() {
    let src = "interface Getter<T, K extends keyof T> { get(o: T): T[K] }\ndeclare const g1: Getter<{ a: number }, 'a'>;\ndeclare const g2: Getter<{ a: number }, 'b'>;\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:3:41 - error TS2344: Type '\"b\"' does not satisfy the constraint '\"a\"'.\n"
    );
}

#[test]
fn heritage_clauses_check_their_type_arguments() {
    let src = "class Base<T extends string> { v!: T }\nclass D extends Base<number> {}\ninterface I<T extends string> { x: T }\nclass E implements I<number> { x = 1 }\ninterface J extends I<boolean> {}\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:2:22 - error TS2344: Type 'number' does not satisfy the constraint 'string'.\n\
         a.ts:4:22 - error TS2344: Type 'number' does not satisfy the constraint 'string'.\n\
         a.ts:5:23 - error TS2344: Type 'boolean' does not satisfy the constraint 'string'.\n"
    );
}

#[test]
fn explicit_type_arguments_of_calls_and_new_are_checked() {
    let src = "declare function f<T extends string>(x: T): T;\nf<number>(1);\nclass Base<T extends string> { v!: T }\nnew Base<number>();\ndeclare function g<T extends string, U extends T>(x: T, y: U): U;\ng<'a', 'b'>('a', 'b');\n";
    assert_eq!(
        diagnostics(src),
        "a.ts:2:3 - error TS2344: Type 'number' does not satisfy the constraint 'string'.\n\
         a.ts:4:10 - error TS2344: Type 'number' does not satisfy the constraint 'string'.\n\
         a.ts:6:8 - error TS2344: Type '\"b\"' does not satisfy the constraint '\"a\"'.\n"
    );
}

#[test]
fn inside_a_generic_function_a_type_parameter_is_related_through_its_constraint() {
    let ok = "interface Box<T extends string> { value: T }\nfunction g<U extends 'a' | 'b'>(b: Box<U>): U { return b.value; }\nfunction h<U extends string>(b: Box<U>): Box<U> { return b; }\n";
    assert_eq!(clean(ok), Vec::<String>::new());
    let unconstrained =
        "interface Box<T extends string> { value: T }\nfunction k<U>(b: Box<U>) {}\n";
    assert_eq!(
        diagnostics(unconstrained),
        "a.ts:2:22 - error TS2344: Type 'U' does not satisfy the constraint 'string'.\n"
    );
}

#[test]
fn an_inferred_type_argument_that_violates_its_constraint_falls_back_to_it() {
    // TypeScript infers `T = number`, which is not a string: `T` becomes `string`, and the
    // argument is then checked against it.
    let src = "declare function f<T extends string>(x: T): T;\nf(1);\n";
    assert_eq!(clean(src), vec!["TS2345"]);
    // `K extends keyof T` keeps the literal it infers, which satisfies the constraint.
    let keys =
        "declare function get<T, K extends keyof T>(o: T, k: K): T[K];\nget({ a: 1 }, 'a');\n";
    assert_eq!(clean(keys), Vec::<String>::new());
}

#[test]
fn what_leans_on_an_approximated_type_is_never_reported() {
    // A conditional type is approximated here as the union of its branches (`boolean`),
    // which TypeScript resolves to `true`; `keyof any` is `string | number | symbol`; in a
    // conditional's true branch TypeScript narrows the checked type.
    let src = "type Assert<T extends true> = T;\ntype Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;\ntype X = Assert<Same<1, 1>>;\ntype Rec<K extends keyof any, V> = { [P in K]: V };\ntype R = Rec<string | number | symbol, 1>;\ntype Keys<T> = T extends string ? Box<T> : never;\ninterface Box<T extends string> { value: T }\n";
    assert_eq!(clean(src), Vec::<String>::new());
}
