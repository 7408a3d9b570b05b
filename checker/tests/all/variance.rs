//! References to the same generic type relate by the measured variance of each type
//! parameter, as TypeScript's `getVariances` measures it with marker types. Every program
//! here was checked with the native TypeScript checker (7.0.2, strict): the expectations
//! are its diagnostics (by code and line).
use crate::lines_and_codes;

const ANIMALS: &str = "interface Animal { name: string }\n\
                       interface Dog extends Animal { bark(): void }\n";

#[test]
fn a_readonly_container_is_covariant() {
    let src = format!(
        "{ANIMALS}interface Box<T> {{ readonly value: T }}\n\
         declare let dog: Box<Dog>, animal: Box<Animal>;\n\
         const up: Box<Animal> = dog;\n\
         const down: Box<Dog> = animal;\n"
    );
    assert_eq!(lines_and_codes(&src), ["6:TS2322"]);
}

#[test]
fn a_type_parameter_used_only_in_a_callback_property_parameter_is_contravariant() {
    let src = format!(
        "{ANIMALS}interface Sink<T> {{ put: (value: T) => void }}\n\
         declare let dog: Sink<Dog>, animal: Sink<Animal>;\n\
         const narrower: Sink<Dog> = animal;\n\
         const wider: Sink<Animal> = dog;\n"
    );
    assert_eq!(lines_and_codes(&src), ["6:TS2322"]);
}

#[test]
fn a_type_parameter_read_and_written_through_function_properties_is_invariant() {
    let src = format!(
        "{ANIMALS}interface Cell<T> {{ get: () => T; set: (value: T) => void }}\n\
         declare let dog: Cell<Dog>, animal: Cell<Animal>;\n\
         const up: Cell<Animal> = dog;\n\
         const down: Cell<Dog> = animal;\n"
    );
    assert_eq!(lines_and_codes(&src), ["5:TS2322", "6:TS2322"]);
}

#[test]
fn a_phantom_type_parameter_is_independent() {
    let src = "interface Tagged<T> { id: number }\n\
               declare let s: Tagged<string>;\n\
               const n: Tagged<number> = s;\n";
    assert_eq!(lines_and_codes(src), Vec::<String>::new());
}

#[test]
fn method_parameters_are_bivariant() {
    let src = format!(
        "{ANIMALS}interface Handler<T> {{ handle(value: T): void }}\n\
         declare let dog: Handler<Dog>, animal: Handler<Animal>;\n\
         const up: Handler<Animal> = dog;\n\
         const down: Handler<Dog> = animal;\n"
    );
    assert_eq!(lines_and_codes(&src), Vec::<String>::new());
}

#[test]
fn a_callback_parameter_of_a_method_makes_a_promise_like_type_covariant() {
    let src = format!(
        "{ANIMALS}declare let dog: Promise<Dog>, animal: Promise<Animal>;\n\
         const up: Promise<Animal> = dog;\n\
         const down: Promise<Dog> = animal;\n"
    );
    assert_eq!(lines_and_codes(&src), ["5:TS2322"]);
}

#[test]
fn a_recursive_interface_is_measured_through_itself() {
    let src = format!(
        "{ANIMALS}interface List<T> {{ head: T; tail: List<T> | null }}\n\
         declare let dog: List<Dog>, animal: List<Animal>;\n\
         const up: List<Animal> = dog;\n\
         const down: List<Dog> = animal;\n"
    );
    assert_eq!(lines_and_codes(&src), ["6:TS2322"]);
}

#[test]
fn a_class_with_a_function_typed_property_is_contravariant() {
    let src = format!(
        "{ANIMALS}class Consumer<T> {{ constructor(public f: (x: T) => void) {{}} }}\n\
         declare let dog: Consumer<Dog>, animal: Consumer<Animal>;\n\
         const narrower: Consumer<Dog> = animal;\n\
         const wider: Consumer<Animal> = dog;\n"
    );
    assert_eq!(lines_and_codes(&src), ["6:TS2322"]);
}

#[test]
fn a_written_in_modifier_is_taken_as_written() {
    let src = format!(
        "{ANIMALS}interface In<in T> {{ take(value: T): void }}\n\
         declare let dog: In<Dog>, animal: In<Animal>;\n\
         const narrower: In<Dog> = animal;\n\
         const wider: In<Animal> = dog;\n"
    );
    assert_eq!(lines_and_codes(&src), ["6:TS2322"]);
}

#[test]
fn variances_are_the_same_whichever_file_a_checker_meets_first() {
    let lib = "export interface Sink<T> { put: (value: T) => void; next: Sink<T> | null }\n\
               export interface Animal { name: string }\n\
               export interface Dog extends Animal { bark(): void }\n";
    let a = "import { Sink, Animal, Dog } from './lib';\n\
             declare let dog: Sink<Dog>;\n\
             export const wider: Sink<Animal> = dog;\n";
    let b = "import { Sink, Animal, Dog } from './lib';\n\
             declare let animal: Sink<Animal>;\n\
             export const narrower: Sink<Dog> = animal;\n";
    let files = [("lib.ts", lib), ("a.ts", a), ("b.ts", b)];
    let run = |checkers| checker::run(&crate::corpus(&files), &checker::Options { checkers });
    let one = run(1).unwrap();
    assert_eq!(crate::positions(&one), ["a.ts:3:14 TS2322"]);
    for n in [2, 3] {
        let other = run(n).unwrap();
        assert_eq!(one.digest, other.digest, "{n} checkers");
        assert_eq!(one.diagnostics, other.diagnostics, "{n} checkers");
    }
}
