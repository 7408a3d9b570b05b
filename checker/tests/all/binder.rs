//! The binder makes a symbol per declaration, as TypeScript's binder does, including the
//! anonymous ones (`__type`, `__object`, `__function`, signatures).
use checker::bind::{bind_all, flags};
use checker::parse::parse;

/// The names of the symbols the binder made for one file, in creation order.
fn symbol_names(src: &str) -> Vec<(String, u32)> {
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    bound.files[0]
        .symbols
        .iter()
        .map(|s| (s.name.to_string(), s.flags))
        .collect()
}

fn count(names: &[(String, u32)], name: &str) -> usize {
    names.iter().filter(|(n, _)| n == name).count()
}

#[test]
fn parameters_of_signatures_without_bodies_are_symbols() {
    let names = symbol_names(
        "interface I { m(first: string, ...rest: number[]): void; (call: number): string; \
         new (made: string): I; [key: string]: unknown; set s(value: number); }\n\
         type F = (arrowParam: number) => void;\n\
         type C = new (ctorParam: number) => object;",
    );
    for p in [
        "first",
        "rest",
        "call",
        "made",
        "key",
        "value",
        "arrowParam",
        "ctorParam",
    ] {
        let (_, f) = names.iter().find(|(n, _)| n == p).unwrap_or_else(|| {
            panic!("no symbol for parameter `{p}` in {names:?}");
        });
        assert_ne!(f & flags::PARAMETER, 0, "`{p}` is a parameter");
    }
}

#[test]
fn signatures_get_their_typescript_names() {
    let names = symbol_names(
        "interface I { (a: number): string; (b: string): number; new (): I; [k: string]: unknown }\n\
         class C { constructor() {} [n: number]: string }",
    );
    assert_eq!(count(&names, "__call"), 2);
    assert_eq!(count(&names, "__new"), 1);
    assert_eq!(count(&names, "__index"), 2);
    assert_eq!(count(&names, "__constructor"), 1);
    assert!(
        names
            .iter()
            .filter(|(n, _)| n.starts_with("__"))
            .all(|(_, f)| f & flags::SIGNATURE != 0)
    );
}

#[test]
fn anonymous_containers_get_a_symbol_and_their_members_one_each() {
    let names = symbol_names(
        "let t: { x: number; y(): void };\n\
         let o = { a: 1, b, c() {}, get d() { return 1 }, [k]: 2 };\n\
         let f = function () {}, g = () => 1, h = class {};\n\
         type M = { [P in 'p' | 'q']: number };",
    );
    for (name, n) in [
        ("__type", 2),
        ("__object", 1),
        ("__function", 2),
        ("__class", 1),
    ] {
        assert_eq!(count(&names, name), n, "{name} in {names:?}");
    }
    // Type-literal members and object-literal members; the computed `[k]` has no name.
    for member in ["x", "y", "a", "b", "c", "d"] {
        assert_eq!(count(&names, member), 1, "member `{member}` in {names:?}");
    }
}

#[test]
fn a_parameter_in_a_signature_does_not_leak_into_the_enclosing_scope() {
    let src = "export {};\ntype F = (shadow: string) => typeof shadow;\nconst shadow = 1;\nlet x = shadow;";
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let file = &bound.files[0];
    // In a module, the reference in `let x = shadow` resolves to the const, not the
    // parameter.
    let use_pos = src.rfind("shadow").unwrap() as u32 + 1;
    let id = file.node_symbols[&use_pos];
    assert_ne!(file.symbols[id.index as usize].flags & flags::VARIABLE, 0);
}

#[test]
fn infer_parameters_anywhere_in_an_extends_clause_are_type_parameters() {
    let names = symbol_names(
        "type Num<T> = T extends `${infer N extends number}` ? N : never;\n\
         type Split<T> = T extends `${infer Head}.${infer Tail}` ? [Head, Tail] : never;\n\
         type Key<T> = T extends { [K in keyof T]: infer V } ? V : never;\n\
         type Ret<T> = T extends { get(): infer G }[] ? G : never;\n\
         type Outer<T, U> = T extends [infer A, U extends [infer Inner] ? Inner : never] ? A : T;",
    );
    for p in ["N", "Head", "Tail", "V", "G", "A", "Inner"] {
        let (_, f) = names.iter().find(|(n, _)| n == p).unwrap_or_else(|| {
            panic!("no symbol for `infer {p}` in {names:?}");
        });
        assert_ne!(f & flags::TYPE_PARAM, 0, "`infer {p}` is a type parameter");
    }
    assert_eq!(
        count(&names, "Inner"),
        1,
        "a nested conditional declares its own once"
    );
}
