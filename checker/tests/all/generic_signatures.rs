//! Generic signatures related as TypeScript's compareSignaturesRelated relates them: a
//! generic source is instantiated in the context of the target (its type parameters
//! inferred from the target's parameters, then from its return type), and inference to a
//! union with one naked type parameter gives it only what the other members do not take.
//! Each program's errors are on the lines and with the codes `tsc` reports for it.
use crate::line_positions;

#[test]
fn a_generic_function_is_instantiated_in_the_context_of_a_plain_function_type() {
    let src = "declare function id<T>(x: T): T;
declare function mk<T>(): T;
declare function onlyStrings<T extends string>(x: T): T;
declare function map<T, U>(xs: T[], f: (x: T) => U): U[];
interface Fn { (x: string): number }
const a: (x: string) => number = <T extends number>(x: T) => x;
const b: (x: string) => string = <T>(x: T) => x;
const c: () => number = mk;
const d: (x: number) => string = id;
const e: (x: number) => number = onlyStrings;
const f: (xs: number[], f: (x: number) => string) => string[] = map;
const g: (xs: number[], f: (x: number) => string) => number[] = map;
const h: Fn = id;
const i: (x: string) => string = id;
";
    // `T extends number` inferred from `string` falls back to `number`; `mk`'s `T` comes
    // from the return type; `map`'s `U` from the callback's return type.
    assert_eq!(
        line_positions(src),
        [
            "6:7 TS2322",
            "9:7 TS2322",
            "10:7 TS2322",
            "12:7 TS2322",
            "13:7 TS2322"
        ]
    );
}

#[test]
fn a_generic_source_takes_a_generic_targets_type_parameters_as_they_are() {
    let src = "type G = <T>(x: T) => T[];
const a: G = <U>(y: U) => [y];
const b: G = <U>(y: U) => y;
const c: <T>(x: T, y: T) => T = <U>(p: U, q: U) => p;
";
    assert_eq!(line_positions(src), ["3:7 TS2322"]);
}

#[test]
fn inference_to_a_union_gives_the_naked_type_parameter_only_what_the_rest_leave() {
    let src = "interface Box<T> { value: T }
interface Thenable<T> { then(f: (v: T) => void): void }
declare function resolve<T>(v: T | Thenable<T>): Box<T>;
declare function orElse<T>(x: T | undefined): T;
declare const later: Thenable<number>;
declare const maybe: string | undefined;
declare const pair: [string];
const a: Box<number> = resolve(later);
const b: string = orElse(maybe);
const c: Box<[string]> = resolve(pair);
const d: Box<string> = resolve(later);
";
    // A tuple gives its elements to array-like references only, not to `Thenable<T>`.
    assert_eq!(line_positions(src), ["11:7 TS2322"]);
}
