/** Returns its argument; pins an inferred type at a call site. */
export function identity<T>(value: T): T {
    return value;
}

/** The first item, or the fallback when there is none. */
export function firstOr<T>(items: readonly T[], fallback: T): T {
    return items.length > 0 ? items[0] : fallback;
}

/** One property of every item. */
export function pluck<T, K extends keyof T>(items: readonly T[], key: K): T[K][] {
    return items.map((item) => item[key]);
}

/** Items grouped by a string key, in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
    const groups = new Map<string, T[]>();
    for (const item of items) {
        const name = key(item);
        const group = groups.get(name) ?? [];
        group.push(item);
        groups.set(name, group);
    }
    return groups;
}

export function clamp(value: number, min: number, max: number): number {
    return Math.min(max, Math.max(min, value));
}

/** A value with listeners, the smallest store that is still useful. */
export interface Store<S> {
    get(): S;
    set(next: S): void;
    subscribe(listener: (state: S) => void): () => void;
}

export function createStore<S>(initial: S): Store<S> {
    let state = initial;
    const listeners = new Set<(state: S) => void>();
    return {
        get: () => state,
        set: (next) => {
            state = next;
            listeners.forEach((listener) => listener(state));
        },
        subscribe: (listener) => {
            listeners.add(listener);
            return () => {
                listeners.delete(listener);
            };
        },
    };
}

/** Items with a numeric id, kept in insertion order. */
export class Collection<T extends { id: number }> {
    private readonly items: T[] = [];

    add(item: T): this {
        this.items.push(item);
        return this;
    }

    find(id: number): T | undefined {
        return this.items.find((item) => item.id === id);
    }

    toArray(): T[] {
        return this.items.slice();
    }

    get size(): number {
        return this.items.length;
    }
}

/** Runs a task until it succeeds or the attempts run out. */
export async function retry<T>(task: () => Promise<T>, attempts: number): Promise<T> {
    let lastError: unknown = undefined;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
        try {
            return await task();
        } catch (error) {
            lastError = error;
        }
    }
    throw lastError;
}
