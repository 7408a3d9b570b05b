// Promises and await, for async functions and methods.

interface PromiseLike<T> {
    then<R1 = T, R2 = never>(
        onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
        onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
    ): PromiseLike<R1 | R2>;
}
interface Promise<T> {
    then<R1 = T, R2 = never>(
        onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
        onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
    ): Promise<R1 | R2>;
    catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R>;
    finally(onfinally?: (() => void) | null): Promise<T>;
}
interface PromiseConstructor {
    readonly prototype: Promise<unknown>;
    new <T>(executor: (resolve: (value: T | PromiseLike<T>) => void, reject: (reason?: unknown) => void) => void): Promise<T>;
    resolve(): Promise<void>;
    resolve<T>(value: T): Promise<Awaited<T>>;
    reject<T = never>(reason?: unknown): Promise<T>;
    all<T>(values: readonly T[]): Promise<Awaited<T>[]>;
    race<T>(values: readonly T[]): Promise<Awaited<T>>;
}
declare var Promise: PromiseConstructor;

type Awaited<T> = T extends null | undefined
    ? T
    : T extends object & { then(onfulfilled: infer F, ...args: infer _): any }
      ? F extends (value: infer V, ...args: infer _) => any
          ? Awaited<V>
          : never
      : T;
