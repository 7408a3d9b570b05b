// The synthetic corpus's compact standard library: the core ECMAScript types the generated
// code uses, declared the way a checker expects to find them, and nothing of a host.

type PropertyKey = string | number | symbol;

interface Object {
    constructor: Function;
    toString(): string;
    valueOf(): Object;
    hasOwnProperty(key: PropertyKey): boolean;
}
interface ObjectConstructor {
    new (value?: unknown): Object;
    readonly prototype: Object;
    keys(o: object): string[];
    values<T>(o: { [key: string]: T }): T[];
    entries<T>(o: { [key: string]: T }): [string, T][];
    assign<T extends object, U>(target: T, source: U): T & U;
    freeze<T>(o: T): Readonly<T>;
}
declare var Object: ObjectConstructor;

interface Function {
    apply(this: Function, thisArg: unknown, args?: unknown): unknown;
    call(this: Function, thisArg: unknown, ...args: unknown[]): unknown;
    bind(this: Function, thisArg: unknown, ...args: unknown[]): unknown;
    readonly name: string;
    readonly length: number;
}
interface FunctionConstructor {
    new (...args: string[]): Function;
    readonly prototype: Function;
}
declare var Function: FunctionConstructor;
interface CallableFunction extends Function {}
interface NewableFunction extends Function {}
interface IArguments {
    [index: number]: unknown;
    length: number;
}

interface String {
    readonly length: number;
    [index: number]: string;
    charAt(pos: number): string;
    charCodeAt(index: number): number;
    indexOf(search: string, position?: number): number;
    includes(search: string): boolean;
    startsWith(search: string): boolean;
    endsWith(search: string): boolean;
    slice(start?: number, end?: number): string;
    split(separator: string, limit?: number): string[];
    toUpperCase(): string;
    toLowerCase(): string;
    trim(): string;
    padStart(length: number, fill?: string): string;
    replace(search: string | RegExp, replacement: string): string;
    repeat(count: number): string;
    concat(...parts: string[]): string;
}
interface StringConstructor {
    new (value?: unknown): String;
    (value?: unknown): string;
    readonly prototype: String;
    fromCharCode(...codes: number[]): string;
}
declare var String: StringConstructor;

interface Number {
    toString(radix?: number): string;
    toFixed(digits?: number): string;
    valueOf(): number;
}
interface NumberConstructor {
    new (value?: unknown): Number;
    (value?: unknown): number;
    readonly prototype: Number;
    readonly MAX_SAFE_INTEGER: number;
    readonly EPSILON: number;
    isInteger(value: unknown): boolean;
    isFinite(value: unknown): boolean;
    parseFloat(text: string): number;
    parseInt(text: string, radix?: number): number;
}
declare var Number: NumberConstructor;

interface Boolean {
    valueOf(): boolean;
}
interface BooleanConstructor {
    new (value?: unknown): Boolean;
    <T>(value?: T): boolean;
    readonly prototype: Boolean;
}
declare var Boolean: BooleanConstructor;

interface RegExp {
    test(text: string): boolean;
    exec(text: string): RegExpExecArray | null;
    readonly source: string;
    readonly flags: string;
    lastIndex: number;
}
interface RegExpExecArray extends Array<string> {
    index: number;
    input: string;
}
interface RegExpConstructor {
    new (pattern: string | RegExp, flags?: string): RegExp;
    (pattern: string | RegExp, flags?: string): RegExp;
    readonly prototype: RegExp;
}
declare var RegExp: RegExpConstructor;

interface Symbol {
    readonly description: string | undefined;
    toString(): string;
}
interface SymbolConstructor {
    readonly prototype: Symbol;
    (description?: string | number): symbol;
    readonly iterator: unique symbol;
}
declare var Symbol: SymbolConstructor;

interface IteratorYieldResult<T> {
    done?: false;
    value: T;
}
interface IteratorReturnResult<T> {
    done: true;
    value: T;
}
type IteratorResult<T, TReturn = undefined> = IteratorYieldResult<T> | IteratorReturnResult<TReturn>;
interface Iterator<T, TReturn = undefined> {
    next(): IteratorResult<T, TReturn>;
}
interface Iterable<T> {
    [Symbol.iterator](): Iterator<T>;
}
interface IterableIterator<T> extends Iterator<T> {
    [Symbol.iterator](): IterableIterator<T>;
}

interface ArrayLike<T> {
    readonly length: number;
    readonly [index: number]: T;
}
interface ReadonlyArray<T> {
    readonly length: number;
    readonly [index: number]: T;
    [Symbol.iterator](): IterableIterator<T>;
    map<U>(callback: (value: T, index: number) => U): U[];
    filter(predicate: (value: T, index: number) => boolean): T[];
    forEach(callback: (value: T, index: number) => void): void;
    find(predicate: (value: T, index: number) => boolean): T | undefined;
    some(predicate: (value: T, index: number) => boolean): boolean;
    every(predicate: (value: T, index: number) => boolean): boolean;
    reduce<U>(callback: (previous: U, value: T, index: number) => U, initial: U): U;
    includes(value: T): boolean;
    indexOf(value: T): number;
    join(separator?: string): string;
    slice(start?: number, end?: number): T[];
}
interface Array<T> {
    length: number;
    [index: number]: T;
    [Symbol.iterator](): IterableIterator<T>;
    push(...items: T[]): number;
    pop(): T | undefined;
    shift(): T | undefined;
    unshift(...items: T[]): number;
    map<U>(callback: (value: T, index: number) => U): U[];
    filter(predicate: (value: T, index: number) => boolean): T[];
    forEach(callback: (value: T, index: number) => void): void;
    find(predicate: (value: T, index: number) => boolean): T | undefined;
    findIndex(predicate: (value: T, index: number) => boolean): number;
    some(predicate: (value: T, index: number) => boolean): boolean;
    every(predicate: (value: T, index: number) => boolean): boolean;
    reduce<U>(callback: (previous: U, value: T, index: number) => U, initial: U): U;
    includes(value: T): boolean;
    indexOf(value: T): number;
    join(separator?: string): string;
    slice(start?: number, end?: number): T[];
    concat(...items: (T | readonly T[])[]): T[];
    reverse(): T[];
    sort(compare?: (a: T, b: T) => number): this;
    splice(start: number, deleteCount?: number, ...items: T[]): T[];
}
interface ArrayConstructor {
    new <T>(length?: number): T[];
    <T>(length?: number): T[];
    readonly prototype: unknown[];
    isArray(value: unknown): value is unknown[];
    from<T>(items: ArrayLike<T> | Iterable<T>): T[];
    of<T>(...items: T[]): T[];
}
declare var Array: ArrayConstructor;

interface TemplateStringsArray extends ReadonlyArray<string> {
    readonly raw: readonly string[];
}

interface Map<K, V> {
    readonly size: number;
    get(key: K): V | undefined;
    set(key: K, value: V): this;
    has(key: K): boolean;
    delete(key: K): boolean;
    clear(): void;
    forEach(callback: (value: V, key: K) => void): void;
    keys(): IterableIterator<K>;
    values(): IterableIterator<V>;
    entries(): IterableIterator<[K, V]>;
    [Symbol.iterator](): IterableIterator<[K, V]>;
}
interface MapConstructor {
    new <K, V>(entries?: readonly (readonly [K, V])[] | null): Map<K, V>;
    readonly prototype: Map<unknown, unknown>;
}
declare var Map: MapConstructor;

interface Set<T> {
    readonly size: number;
    add(value: T): this;
    has(value: T): boolean;
    delete(value: T): boolean;
    clear(): void;
    forEach(callback: (value: T) => void): void;
    values(): IterableIterator<T>;
    [Symbol.iterator](): IterableIterator<T>;
}
interface SetConstructor {
    new <T>(values?: readonly T[] | null): Set<T>;
    readonly prototype: Set<unknown>;
}
declare var Set: SetConstructor;

interface Error {
    name: string;
    message: string;
    stack?: string;
}
interface ErrorConstructor {
    new (message?: string): Error;
    (message?: string): Error;
    readonly prototype: Error;
}
declare var Error: ErrorConstructor;
declare var TypeError: ErrorConstructor;
declare var RangeError: ErrorConstructor;

interface Date {
    getTime(): number;
    toISOString(): string;
    getFullYear(): number;
}
interface DateConstructor {
    new (value?: number | string): Date;
    readonly prototype: Date;
    now(): number;
}
declare var Date: DateConstructor;

interface Math {
    readonly PI: number;
    abs(x: number): number;
    ceil(x: number): number;
    floor(x: number): number;
    round(x: number): number;
    sqrt(x: number): number;
    min(...values: number[]): number;
    max(...values: number[]): number;
    random(): number;
    hypot(...values: number[]): number;
}
declare var Math: Math;

interface JSON {
    parse(text: string): unknown;
    stringify(value: unknown, replacer?: null, space?: number | string): string;
}
declare var JSON: JSON;

interface Console {
    log(...data: unknown[]): void;
    info(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
    debug(...data: unknown[]): void;
}
declare var console: Console;

declare function parseInt(text: string, radix?: number): number;
declare function parseFloat(text: string): number;
declare function isNaN(value: number): boolean;
declare function setTimeout(callback: () => void, ms?: number): number;
declare function clearTimeout(handle: number | undefined): void;

type Partial<T> = { [P in keyof T]?: T[P] };
type Required<T> = { [P in keyof T]-?: T[P] };
type Readonly<T> = { readonly [P in keyof T]: T[P] };
type Pick<T, K extends keyof T> = { [P in K]: T[P] };
type Record<K extends keyof any, T> = { [P in K]: T };
type Exclude<T, U> = T extends U ? never : T;
type Extract<T, U> = T extends U ? T : never;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
type NonNullable<T> = T & {};
type Parameters<T extends (...args: any) => any> = T extends (...args: infer P) => any ? P : never;
type ReturnType<T extends (...args: any) => any> = T extends (...args: any) => infer R ? R : any;
