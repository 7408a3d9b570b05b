/** How a property maps to a column. */
export interface ColumnOptions {
    type?: ColumnType;
    name?: string;
    nullable?: boolean;
    length?: number;
    unique?: boolean;
}

export type ColumnType = "int" | "varchar" | "text" | "boolean" | "timestamp" | "json";

export interface ColumnMetadata {
    target: string;
    property: string;
    options: ColumnOptions;
}

export const columns: ColumnMetadata[] = [];
export const entityNames: string[] = [];
export const hooks: string[] = [];

export function Entity(name?: string): ClassDecorator {
    return function (target: Function): void {
        entityNames.push(name ?? target.name);
    };
}

export function Column(options: ColumnOptions = {}): PropertyDecorator {
    return function (target: Object, property: string | symbol): void {
        columns.push({ target: target.constructor.name, property: String(property), options });
    };
}

export function PrimaryGeneratedColumn(): PropertyDecorator {
    return Column({ type: "int", unique: true });
}

export function ManyToOne<T>(type: () => T, inverse?: string): PropertyDecorator {
    return Column({ name: inverse, nullable: type === undefined });
}

export function OneToMany<T>(type: () => T, inverse: string): PropertyDecorator {
    return Column({ name: inverse, nullable: type === undefined });
}

export function BeforeInsert(): MethodDecorator {
    return function <T>(
        target: Object,
        property: string | symbol,
        descriptor: TypedPropertyDescriptor<T>,
    ): TypedPropertyDescriptor<T> {
        hooks.push(`${target.constructor.name}.${String(property)}`);
        return descriptor;
    };
}
