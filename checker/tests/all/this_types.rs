//! Polymorphic `this`: the implicit `this` type parameter of classes and interfaces,
//! instantiated with each reference to them (what `tsc` 7.0.2 reports on each program).
use crate::{check, clean, codes, render};

#[test]
fn a_fluent_builder_keeps_the_subclass_type_through_a_chain_of_this_returning_methods() {
    let src = "class QueryBuilder {\n  where(cond: string): this { return this; }\n  andWhere(cond: string): this { return this.where(cond); }\n}\nclass SelectQueryBuilder extends QueryBuilder {\n  select(col: string): this { return this; }\n  getMany(): string[] { return []; }\n}\nconst rows: string[] = new SelectQueryBuilder().where('a').andWhere('b').select('c').getMany();\n";
    assert_eq!(clean(src), Vec::<String>::new());
}

#[test]
fn a_this_returning_method_assigned_to_a_number_reports_ts2322_naming_the_class() {
    let out = check(&[(
        "a.ts",
        "class Builder {\n  method(): this { return this; }\n}\nlet x: number = new Builder().method();\n",
    )]);
    assert_eq!(
        render(&out.diagnostics),
        "a.ts:4:5 - error TS2322: Type 'Builder' is not assignable to type 'number'.\n"
    );
}

#[test]
fn an_interface_method_returning_this_returns_the_derived_interface() {
    let src = "interface Node2 { clone(): this; name: string }\ninterface Element2 extends Node2 { tag: string }\ndeclare const e: Element2;\nconst tag: string = e.clone().tag;\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "interface Node2 { clone(): this }\ninterface Element2 extends Node2 { tag: string }\ndeclare const e: Element2;\nconst n: number = e.clone();\n";
    let out = check(&[("a.ts", bad)]);
    assert_eq!(
        render(&out.diagnostics),
        "a.ts:4:7 - error TS2322: Type 'Element2' is not assignable to type 'number'.\n"
    );
}

#[test]
fn this_in_a_generic_interface_keeps_the_type_arguments_of_the_reference() {
    let src = "interface Box<T> { set(v: T): this; get(): T }\ndeclare const b: Box<string>;\nconst s: string = b.set('x').set('y').get();\n";
    assert_eq!(clean(src), Vec::<String>::new());
    let bad = "interface Box<T> { set(v: T): this; get(): T }\ndeclare const b: Box<string>;\nconst n: number = b.set('x').get();\n";
    assert_eq!(clean(bad), vec!["TS2322"]);
}

#[test]
fn this_outside_classes_and_interfaces_stays_any_without_a_crash() {
    // `tsc` reports TS2526 for the type literal and the free function; this checker
    // takes `any` there and reports nothing.
    let src = "function free(this: any, a: number): number { return a; }\ntype Top = { self: this };\ndeclare const t: Top;\nconst u: number = t.self.anything;\nfunction g(): this { return null as any; }\ninterface I { x: { nested: this } }\ndeclare const i: I;\nconst v: string = i.x.nested.whatever;\n";
    assert_eq!(clean(src), Vec::<String>::new());
}

#[test]
fn a_type_parameter_constrained_by_a_class_is_its_own_this_type() {
    let src = "class Fluent {\n  next(): this { return this; }\n}\nfunction chain<T extends Fluent>(x: T): T { return x.next(); }\n";
    assert_eq!(clean(src), Vec::<String>::new());
}

#[test]
fn returning_a_new_instance_where_this_is_declared_is_an_error() {
    let out = check(&[(
        "a.ts",
        "class Fluent {\n  next(): this { return new Fluent(); }\n}\n",
    )]);
    assert_eq!(
        render(&out.diagnostics),
        "a.ts:2:18 - error TS2322: Type 'Fluent' is not assignable to type 'this'.\n"
    );
}

#[test]
fn the_digest_with_this_types_is_the_same_for_one_and_three_checkers() {
    let files = [
        (
            "a.ts",
            "export class Base {\n  set(k: string): this { return this; }\n}\nexport interface Cloneable { clone(): this }\n",
        ),
        (
            "b.ts",
            "import { Base, Cloneable } from './a';\nexport class Derived extends Base implements Cloneable {\n  clone(): this { return this; }\n  only(): number { return 1; }\n}\nconst n: number = new Derived().set('a').clone().only();\nconst s: string = new Derived().set('a');\n",
        ),
        (
            "c.ts",
            "import { Derived } from './b';\ninterface Box<T> { put(v: T): this }\ndeclare const b: Box<Derived>;\nconst d: Derived = b.put(new Derived());\n",
        ),
    ];
    let corpus = crate::corpus(&files);
    let one = checker::run(&corpus, &checker::Options { checkers: 1 }).expect("sources");
    let three = checker::run(&corpus, &checker::Options { checkers: 3 }).expect("sources");
    assert_eq!(one.digest, three.digest);
    // `tsc` reports the second as TS2739 (missing properties); this checker as TS2322.
    assert_eq!(codes(&one), vec!["TS2322", "TS2322"]);
}

#[test]
fn a_missing_property_on_this_is_reported_on_the_class_and_an_argument_as_this() {
    let out = check(&[(
        "a.ts",
        "class A {\n  m() { this.foo; f(this); }\n}\ndeclare function f(x: number): void;\n",
    )]);
    assert_eq!(
        render(&out.diagnostics),
        "a.ts:2:14 - error TS2339: Property 'foo' does not exist on type 'A'.\na.ts:2:21 - error TS2345: Argument of type 'this' is not assignable to parameter of type 'number'.\n"
    );
}
