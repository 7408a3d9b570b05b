//! Variadic and rest elements of tuple types (`[...A, 0]`, `[string, ...number[]]`): a
//! spread tuple is spliced in, `infer` takes a tuple's head and rest, and tuples relate
//! element by element. Each program's diagnostics are at tsgo 7.0.2's positions with its
//! codes.
use crate::{check, positions};

fn at(files: &[(&str, &str)]) -> Vec<String> {
    positions(&check(files))
}

#[test]
fn a_spread_tuple_is_spliced_so_a_counter_reaches_its_length() {
    let src = r#"type Repeat<N extends number, A extends 0[] = []> = A['length'] extends N ? A : Repeat<N, [...A, 0]>;
const three: Repeat<3> = [0, 0, 0];
const two: Repeat<3> = [0, 0];
type Concat<A extends unknown[], B extends unknown[]> = [...A, ...B];
const joined: Concat<[1], [2, 3]> = [1, 2, 3];
const length: Concat<[1], [2, 3]>['length'] = 2;
export {};
"#;
    assert_eq!(at(&[("a.ts", src)]), ["a.ts:3:7 TS2322", "a.ts:6:7 TS2322"]);
}

#[test]
fn infer_takes_the_head_the_rest_and_the_last_element_of_a_tuple() {
    let src = r#"type Head<T> = T extends [infer H, ...infer R] ? H : never;
type Tail<T> = T extends [infer H, ...infer R] ? R : never;
type Last<T> = T extends [...infer I, infer L] ? L : never;
type Reverse<T extends unknown[]> = T extends [infer H, ...infer R] ? [...Reverse<R>, H] : [];
const h: Head<[1, 2, 3]> = 1;
const t: Tail<[1, 2, 3]> = [2, 3];
const l: Last<[1, 2, 3]> = 2;
const r: Reverse<[1, 2, 3]> = [3, 2, 1];
const rest: Tail<string[]> = ['a'];
const none: Head<[]> = 1;
export {};
"#;
    assert_eq!(
        at(&[("b.ts", src)]),
        ["b.ts:7:7 TS2322", "b.ts:9:7 TS2322", "b.ts:10:7 TS2322"]
    );
}

#[test]
fn a_rest_element_takes_every_element_past_the_fixed_ones() {
    let src = r#"const row: [string, ...number[]] = ['a', 1, 2];
const bad: [string, ...number[]] = ['a', 'b'];
const first: string = row[0];
const second: number = row[1];
const n: number = row.length;
const fixed: [string, number] = row;
function parse(s: string): [number, undefined] | [undefined, string] {
  return s ? [1, undefined] : [undefined, s];
}
const tail: [number, ...string[]] = [1, ...['a', 'b']];
export {};
"#;
    assert_eq!(at(&[("c.ts", src)]), ["c.ts:2:7 TS2322", "c.ts:6:7 TS2322"]);
}

#[test]
fn rest_parameters_calls_and_mapped_types_take_variadic_tuples() {
    let src = r#"declare function f(...args: [string, ...number[]]): void;
f('a', 1, 2);
f('a', 'b');
f('a');
type Boxed<T> = { [K in keyof T]: { value: T[K] } };
declare const boxed: Boxed<[1, ...string[]]>;
const b0: { value: 1 } = boxed[0];
const b1: { value: string } = boxed[1];
const b2: { value: number } = boxed[2];
declare function g(a: string, b: number, c: number): void;
declare const args: [string, number, number];
g(...args);
declare function h<T extends unknown[]>(...xs: [...T, boolean]): T;
const inferred: [string, number] = h('a', 1, true);
export {};
"#;
    assert_eq!(at(&[("d.ts", src)]), ["d.ts:3:8 TS2345", "d.ts:9:7 TS2322"]);
}
