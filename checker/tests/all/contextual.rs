//! Correct programs the synthetic corpus leans on: rest parameters, accessors, member
//! decorators, literal contexts and return-type inference report nothing.
use crate::{check, codes};

fn clean(src: &str) -> Vec<String> {
    codes(&check(&[("a.ts", src)]))
}

#[test]
fn rest_parameters_take_each_remaining_argument_as_their_element_type() {
    assert_eq!(
        clean(
            "declare function log(...data: unknown[]): void;\nlog('x', 1, true);\ndeclare function nums(first: string, ...rest: number[]): void;\nnums('a', 1, 2);\n"
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        clean(
            "declare function nums(first: string, ...rest: number[]): void;\nnums('a', 1, 'two');\n"
        ),
        vec!["TS2345"]
    );
}

#[test]
fn class_accessors_are_typed_as_their_property() {
    let src = "class C {\n  get name(): string { return 'n'; }\n  set size(v: number) {}\n}\nconst c = new C();\nconst n: string = c.name;\nconst s: number = c.size;\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad =
        "class C {\n  get name(): string { return 'n'; }\n}\nconst n: number = new C().name;\n";
    assert_eq!(clean(bad), vec!["TS2322"]);
}

#[test]
fn member_decorators_resolve_in_the_scope_around_the_class() {
    let src = "declare function Column(o?: { type: string }): (t: any, k: string) => void;\nclass E {\n  @Column({ type: 'varchar' }) name: string = '';\n  @Column() method(): void {}\n}\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "class E {\n  @Missing() name: string = '';\n}\n";
    assert_eq!(clean(bad), vec!["TS2304"]);
}

#[test]
fn literals_keep_their_type_against_literal_union_contexts() {
    let src = "type Kind = 'a' | 'b';\ndeclare function f(o: { kind: Kind; n: number }): void;\nf({ kind: 'a', n: 1 });\nconst ks: Kind[] = [1, 2].map(() => 'b');\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "declare function f(o: { kind: 'a' | 'b' }): void;\nf({ kind: 'c' });\n";
    assert_eq!(clean(bad), vec!["TS2345"]);
}

#[test]
fn generic_calls_infer_literals_from_their_contextual_return_type() {
    let src = "declare function identity<T>(x: T): T;\ndeclare function f(o: { kind: 'a' | 'b' }): void;\nf(identity({ kind: 'a' }));\nconst k: 'a' | 'b' = identity('b');\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let widened = "declare function wrap<T>(x: T): T[];\nconst ws: number[] = wrap('s');\n";
    assert_eq!(clean(widened), vec!["TS2322"]);
}

#[test]
fn indexed_access_types_must_name_an_existing_property() {
    let src = "interface P { x: number }\ntype X = P['x'];\ntype Y = P['y'];\n";
    assert_eq!(clean(src), vec!["TS2339"]);
}
