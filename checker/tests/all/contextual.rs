//! Correct programs the synthetic corpus leans on: rest parameters, accessors, member
//! decorators, literal contexts and return-type inference report nothing.
use crate::clean;

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

#[test]
fn a_destructured_parameter_takes_its_property_type_from_the_annotation() {
    let src = "interface P { origin: { id: number }; size?: number }\nfunction f({ origin, size = 1 }: P): number { return origin.id + size; }\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "interface P { origin: { id: number } }\nfunction f({ origin }: P): void { origin.missing; }\n";
    assert_eq!(clean(bad), vec!["TS2339"]);
}

#[test]
fn a_value_merged_with_an_interface_has_the_variables_type() {
    let src = "interface Box { size: number }\ndeclare var Box: { make(): string };\nconst s: string = Box.make();\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "interface Box { size: number }\ndeclare var Box: { make(): string };\nconst n: number = Box.make();\n";
    assert_eq!(clean(bad), vec!["TS2322"]);
}

#[test]
fn merged_generic_interfaces_share_their_type_parameter() {
    let src = "interface Bag<T> { first(): T }\ninterface Bag<T> { put(item: T): void }\ndeclare const b: Bag<string>;\nb.put('x');\nconst s: string = b.first();\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "interface Bag<T> { first(): T }\ninterface Bag<T> { put(item: T): void }\ndeclare const b: Bag<string>;\nb.put(1);\n";
    assert_eq!(clean(bad), vec!["TS2345"]);
}

#[test]
fn nullish_coalescing_with_an_empty_array_keeps_the_array_type() {
    let src = "function f<T>(m: { get(k: string): T[] | undefined }, item: T): void {\n  const g = m.get('k') ?? [];\n  g.push(item);\n}\n";
    assert_eq!(clean(src), Vec::<String>::new());
}

#[test]
fn an_optional_array_context_gives_literal_elements_their_type() {
    let src = "declare function identity<T>(v: T): T;\ntype K = 'a' | 'b';\nconst xs: { k: K }[] | undefined = identity([{ k: 'a' }]);\n";
    assert_eq!(clean(src), Vec::<String>::new());
}

#[test]
fn a_local_initialized_from_this_has_the_members_type() {
    let src = "class C {\n  get name(): string { return 'n'; }\n  go(): void { const n = this.name; const k: number = n; }\n}\n";
    assert_eq!(clean(src), vec!["TS2322"]);
}

#[test]
fn indexed_access_on_an_intersection_must_name_a_property_of_a_member() {
    let src = "type A = { a: number } & { b: string };\ntype X = A['b'];\n";
    assert_eq!(clean(src), Vec::<String>::new());
    assert_eq!(
        clean("type A = { a: number } & { b: string };\ntype X = A['c'];\n"),
        vec!["TS2339"]
    );
}
