//! Conditional and mapped types: the utility types of TypeScript's standard library,
//! declared as the library declares them, over small programs. Each program's errors are
//! on the lines and with the codes `tsc` reports for it (none where an assignment holds).
use crate::{check, render};

/// The standard library's conditional and mapped utility types, as `lib.es5.d.ts` writes
/// them.
const UTILITIES: &str = "type Partial<T> = { [P in keyof T]?: T[P] };
type Required<T> = { [P in keyof T]-?: T[P] };
type Readonly<T> = { readonly [P in keyof T]: T[P] };
type Pick<T, K extends keyof T> = { [P in K]: T[P] };
type Record<K extends keyof any, T> = { [P in K]: T };
type Exclude<T, U> = T extends U ? never : T;
type Extract<T, U> = T extends U ? T : never;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
type Parameters<T extends (...args: any) => any> = T extends (...args: infer P) => any ? P : never;
type ReturnType<T extends (...args: any) => any> = T extends (...args: any) => infer R ? R : any;
";

/// The rendered diagnostics of a program that follows [`UTILITIES`] (its line 11 is the
/// program's line 1).
fn diagnostics(src: &str) -> String {
    let text = format!("{UTILITIES}{src}");
    render(&check(&[("a.ts", &text)]).diagnostics)
}

#[test]
fn exclude_and_extract_distribute_over_the_members_of_a_union() {
    insta::assert_snapshot!(diagnostics(
        "type Shape = 'circle' | 'square' | 'triangle';
const a: Exclude<Shape, 'circle'> = 'square';
const b: Exclude<Shape, 'circle'> = 'circle';
const c: Extract<Shape, 'circle' | 'hexagon'> = 'circle';
const d: Extract<Shape, 'circle' | 'hexagon'> = 'square';
const e: Exclude<string | number | boolean, string | number> = true;
const f: Exclude<string | number, string | number> = 1;
const g: Exclude<boolean, false> = true;
const h: Exclude<boolean, false> = false;
"
    ));
}

#[test]
fn return_type_and_parameters_infer_from_a_function_type() {
    insta::assert_snapshot!(diagnostics(
        "declare function make(name: string, size: number): { name: string; size: number };
declare function twice(f: (n: number) => string, ...rest: boolean[]): number;
const made: ReturnType<typeof make> = make('a', 1);
const wrong: ReturnType<typeof make> = 5;
const first: Parameters<typeof make>[0] = 'x';
const second: Parameters<typeof make>[1] = 'x';
const n: ReturnType<typeof twice> = 1;
const s: ReturnType<() => string> = 1;
const cb: Parameters<typeof twice>[0] = (n: number) => 'ok';
const anyRet: ReturnType<any> = 'anything';
function call<F extends (...args: any) => any>(f: F): ReturnType<F> {
  return f();
}
"
    ));
}

#[test]
fn a_recursive_conditional_type_unwraps_nested_promises_and_arrays() {
    insta::assert_snapshot!(diagnostics(
        "type Unwrap<T> = T extends Promise<infer U> ? Unwrap<U> : T;
type Flat<T> = T extends (infer U)[] ? Flat<U> : T;
declare const deep: Promise<Promise<number>>;
const u1: Unwrap<typeof deep> = 1;
const u2: Unwrap<typeof deep> = 'one';
const u3: Unwrap<string> = 's';
const f1: Flat<number[][][]> = 1;
const f2: Flat<string[][]> = 2;
"
    ));
}

#[test]
fn a_naked_type_parameter_distributes_and_a_wrapped_one_does_not() {
    insta::assert_snapshot!(diagnostics(
        "type ToArray<T> = T extends any ? T[] : never;
type ToArrayWhole<T> = [T] extends [any] ? T[] : never;
type IsString<T> = T extends string ? true : false;
type IsStringWhole<T> = [T] extends [string] ? true : false;
declare const mixed: (string | number)[];
const d1: ToArray<string | number> = mixed;
const d2: ToArrayWhole<string | number> = mixed;
const i1: IsString<'a' | 1> = false;
const i2: IsString<number> = true;
const i3: IsStringWhole<'a' | 1> = true;
const i4: IsStringWhole<'a' | 'b'> = true;
"
    ));
}

#[test]
fn partial_required_readonly_pick_omit_and_record_map_a_concrete_interface() {
    insta::assert_snapshot!(diagnostics(
        "interface Todo { title: string; done: boolean; note?: string }
interface Other { title: number }
declare const todo: Todo;
declare const partial: Partial<Todo>;
declare const other: Other;
const p1: Partial<Todo> = todo;
const p2: Partial<Todo> = {};
const p3: Todo = partial;
const q1: Required<Todo> = todo;
const q2: Required<Todo>['note'] = 'x';
const r1: Readonly<Todo> = todo;
const r2: Todo = r1;
const r3: Readonly<Todo>['title'] = 1;
const k1: Pick<Todo, 'title' | 'note'> = { title: 'x' };
const k2: Pick<Todo, 'title'> = other;
const o1: Todo = todo as Omit<Todo, 'note'>;
const o2: Omit<Todo, 'done'> = other;
const o3: Omit<Todo, 'done'>['done'] = true;
const rec: Record<'a' | 'b', number> = { a: 1, b: 2 };
declare const strings: Record<'a' | 'b', string>;
const rn: Record<'a' | 'b', number> = strings;
const idx: Record<string, number>['key'] = 's';
"
    ));
}

#[test]
fn a_homomorphic_mapped_type_keeps_optional_properties_and_maps_arrays() {
    insta::assert_snapshot!(diagnostics(
        "type Nullable<T> = { [K in keyof T]: T[K] | null };
interface Opts { size: number; label?: string }
const n1: Nullable<Opts> = { size: null };
declare const nopts: Nullable<Opts>;
const n2: Opts = nopts;
const n3: Nullable<Opts>['label'] = undefined;
declare const nums: number[];
const pa: Partial<number[]> = nums;
const pb: Partial<string[]> = nums;
const pt: Partial<[number, string]>[1] = undefined;
const ps: Partial<string> = 'still a string';
"
    ));
}

#[test]
fn a_recursive_deep_partial_terminates_and_still_checks_nested_properties() {
    insta::assert_snapshot!(diagnostics(
        "type DeepPartial<T> = { [K in keyof T]?: DeepPartial<T[K]> };
interface Tree { value: number; left: Tree; right: Tree; meta: { tag: string } }
interface BadMeta { meta: { tag: number } }
declare const bad: BadMeta;
const t1: DeepPartial<Tree> = { left: { left: { value: 1 } } };
const t2: DeepPartial<Tree> = bad;
declare const dp: DeepPartial<Tree>;
const t3: DeepPartial<Tree> | undefined = dp.left;
"
    ));
}

#[test]
fn deferred_conditional_and_mapped_types_print_by_structure() {
    insta::assert_snapshot!(diagnostics(
        "function f<T>(x: T) {
  const a: T extends string ? 's' : 'n' = 1;
}
function g<T>(m: { [K in keyof T]?: T[K] }) {
  return m.missing;
}
"
    ));
}
