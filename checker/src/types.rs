//! Types: one checker's interned type table.
//!
//! Every checker owns its own [`TypeTable`], so type ids depend on which files a checker
//! saw first. **Nothing that depends on a type id enters the digest**: unions are ordered
//! by a stable key computed from the type's structure and symbol ids, and messages print
//! types by structure.
mod normalize;
mod table;

pub use normalize::MAX_DISTRIBUTED;

use std::cell::Cell;
use std::rc::Rc;

use rustc_hash::FxHashMap;
use swc_atoms::Atom;

use crate::bind::SymbolId;

/// Index into a checker's type table.
pub type TypeId = u32;

/// A function or constructor signature.
#[derive(Clone, Debug, Default)]
pub struct Signature {
    pub type_params: Box<[TypeId]>,
    pub params: Vec<Param>,
    pub ret: TypeId,
    /// Arguments that must be given.
    pub min_args: usize,
    /// Whether the last parameter is a rest parameter (its type is an array).
    pub rest: bool,
    /// A type predicate `x is T` on the parameter at this index (TypeScript's
    /// `resolvedTypePredicate`; `asserts` and `this is T` are not kept). The return type
    /// is `boolean`.
    pub predicate: Option<(usize, TypeId)>,
    /// For a signature that keeps its own type parameters after an instantiation of what
    /// declares it (`filter<S extends T>` on `Array<X>`): that instantiation, through which
    /// the constraints of its type parameters are read (TypeScript gives such signatures
    /// fresh type parameters whose constraints are instantiated).
    pub outer: Option<Rc<Mapper>>,
    /// Declared as a method (TypeScript compares a method's parameters bivariantly even
    /// under `strictFunctionTypes`; only variance measurement tells them apart here).
    pub method: bool,
}

/// One parameter of a signature.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: Atom,
    pub ty: TypeId,
}

/// One property of an object type.
#[derive(Clone, Debug)]
pub struct Prop {
    pub ty: TypeId,
    pub optional: bool,
}

/// A property as a checker keeps it: like TypeScript's transient symbols, one small
/// allocation per property per resolved (or instantiated) object type, with the field set
/// of a TypeScript symbol (most stay empty, as they do there).
#[derive(Clone, Debug)]
pub struct PropSymbol {
    pub name: Atom,
    /// The property's type, [`UNRESOLVED`] until the checker first needs it.
    pub ty: Cell<TypeId>,
    /// For a property of an instantiated type: the generic property and the mapping.
    pub origin: Option<(Rc<PropSymbol>, Rc<Mapper>)>,
    pub optional: bool,
    /// The declaration the property came from, when it has one.
    pub declaration: Option<SymbolId>,
    /// Type the property was found on (before instantiation), for printing and caching.
    pub parent: Option<TypeId>,
    pub check_flags: u32,
    pub write_type: Option<TypeId>,
    pub name_type: Option<TypeId>,
    pub key_type: Option<TypeId>,
    pub synthetic_origin: Option<SymbolId>,
    pub deferral_constituents: Option<Box<[TypeId]>>,
    pub containing_type: Option<TypeId>,
}

impl PropSymbol {
    /// A property of type `any` with every optional field empty.
    pub fn empty(name: Atom) -> Self {
        PropSymbol {
            name,
            ty: Cell::new(UNRESOLVED),
            origin: None,
            optional: false,
            declaration: None,
            parent: None,
            check_flags: 0,
            write_type: None,
            name_type: None,
            key_type: None,
            synthetic_origin: None,
            deferral_constituents: None,
            containing_type: None,
        }
    }
}

/// The type of a property not resolved yet.
pub const UNRESOLVED: TypeId = u32::MAX;

/// Maps type parameters to arguments.
#[derive(Clone, Debug, Default)]
pub struct Mapper {
    pub pairs: Vec<(TypeId, TypeId)>,
    /// Identifies the mapping within this checker (from type ids), for the cache.
    pub key: u64,
    /// Identifies the mapping by structure only, for stable keys of what it creates.
    pub stable: u64,
    /// Every parameter mapped is a `this` type: types without [`tflags::THIS`] map to
    /// themselves.
    pub this_only: bool,
}

impl Mapper {
    pub fn new(types: &TypeTable, params: &[TypeId], args: &[TypeId]) -> Mapper {
        let pairs: Vec<(TypeId, TypeId)> =
            params.iter().copied().zip(args.iter().copied()).collect();
        let mut key: u64 = 0xcbf29ce484222325;
        let mut stable: u64 = 0xcbf29ce484222325;
        for &(p, a) in &pairs {
            key = (key ^ types.stable(p)).wrapping_mul(0x100000001b3);
            key = (key ^ a as u64).wrapping_mul(0x100000001b3);
            stable = (stable ^ types.stable(p)).wrapping_mul(0x100000001b3);
            stable = (stable ^ types.stable(a)).wrapping_mul(0x100000001b3);
        }
        let this_only = !pairs.is_empty()
            && pairs
                .iter()
                .all(|&(p, _)| types.flags(p) & tflags::THIS != 0);
        Mapper {
            pairs,
            key,
            stable,
            this_only,
        }
    }

    pub fn get(&self, t: TypeId) -> Option<TypeId> {
        self.pairs.iter().find(|p| p.0 == t).map(|p| p.1)
    }
}

/// The members of an object type: properties in declaration order, signatures, indexes.
#[derive(Clone, Debug, Default)]
pub struct ObjectType {
    pub props: FxHashMap<Atom, Rc<PropSymbol>>,
    /// Property names in declaration order, for printing.
    pub order: Vec<Atom>,
    pub calls: Vec<Rc<Signature>>,
    pub constructs: Vec<Rc<Signature>>,
    pub string_index: Option<TypeId>,
    pub number_index: Option<TypeId>,
}

impl ObjectType {
    pub fn insert(&mut self, name: Atom, prop: Prop) {
        let symbol = PropSymbol {
            name: name.clone(),
            ty: Cell::new(prop.ty),
            optional: prop.optional,
            ..PropSymbol::empty(name.clone())
        };
        self.insert_symbol(name, Rc::new(symbol));
    }

    /// A property whose type is resolved lazily from its declaration `declaration`.
    pub fn insert_declared(&mut self, name: Atom, declaration: SymbolId, optional: bool) {
        let symbol = PropSymbol {
            optional,
            declaration: Some(declaration),
            ..PropSymbol::empty(name.clone())
        };
        self.insert_symbol(name, Rc::new(symbol));
    }

    pub fn insert_symbol(&mut self, name: Atom, prop: Rc<PropSymbol>) {
        if self.props.insert(name.clone(), prop).is_none() {
            self.order.push(name);
        }
    }
}

/// A conditional type as declared (`C extends E ? T : F`): its parts, resolved from the
/// syntax once, and what its instantiations need.
#[derive(Debug)]
pub struct ConditionalRoot {
    /// The declaration's node key (file and position): its stable identity.
    pub node: u64,
    pub check: TypeId,
    pub extends: TypeId,
    pub true_type: TypeId,
    pub false_type: TypeId,
    /// The `infer X` type parameters its extends clause declares.
    pub infer_params: Box<[TypeId]>,
    /// The check type is a naked type parameter: the type distributes over unions.
    pub distributive: bool,
    /// Type parameters declared outside it that it mentions: an instantiation's mapper is
    /// restricted to them.
    pub outer: Box<[TypeId]>,
}

/// A conditional type whose check type is still generic, kept until instantiation.
#[derive(Debug)]
pub struct ConditionalType {
    pub root: Rc<ConditionalRoot>,
    pub mapper: Option<Rc<Mapper>>,
    /// The root's check and extends types under `mapper`.
    pub check: TypeId,
    pub extends: TypeId,
}

/// A mapped type as declared (`{ [K in C as N]?: T }`).
#[derive(Debug)]
pub struct MappedRoot {
    pub node: u64,
    /// The key type parameter `K`.
    pub param: TypeId,
    pub constraint: TypeId,
    pub template: TypeId,
    pub name_type: Option<TypeId>,
    /// `+?`/`?` is 1, `-?` is -1, none is 0; the same for `readonly`.
    pub optional: i8,
    pub readonly: i8,
    /// `T` when the constraint is `keyof T` for a type parameter `T`: the type maps over
    /// unions, arrays, tuples and primitives of `T` as TypeScript's homomorphic types do.
    pub homomorphic: Option<TypeId>,
    /// The type whose properties' optionality the mapped properties keep (`T` of
    /// `keyof T`, or of `K extends keyof T`).
    pub modifiers: Option<TypeId>,
    /// Type parameters declared outside it that it mentions.
    pub outer: Box<[TypeId]>,
    /// A property whose type is the template: a mapped property is its instantiation.
    pub template_prop: Rc<PropSymbol>,
}

/// A mapped type whose constraint is still generic, kept until instantiation.
#[derive(Debug)]
pub struct MappedType {
    pub root: Rc<MappedRoot>,
    pub mapper: Option<Rc<Mapper>>,
    /// The root's constraint under `mapper`.
    pub constraint: TypeId,
}

/// What a type keyed by one symbol stands for ([`TypeTable::of_symbol`]). The
/// discriminant is part of the type's stable key, so it never changes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum SymbolType {
    /// A type parameter ([`TypeKind::TypeParam`]).
    TypeParam = 10,
    /// A class's or interface's declared type ([`TypeKind::Declared`]).
    Declared = 11,
    /// A class's static side ([`TypeKind::ClassStatic`]).
    ClassStatic = 12,
    /// A namespace's value ([`TypeKind::Namespace`]).
    Namespace = 13,
    /// An enum's type ([`TypeKind::Enum`]).
    Enum = 14,
    /// An enum member's type ([`TypeKind::EnumLiteral`]).
    EnumLiteral = 15,
    /// A module's namespace object ([`TypeKind::Module`] of the symbol's file).
    Module = 16,
    /// The `this` type parameter of a class or interface.
    This = 17,
}

/// What a type is.
#[derive(Clone, Debug)]
pub enum TypeKind {
    Any,
    Unknown,
    Never,
    Void,
    Undefined,
    Null,
    String,
    Number,
    Boolean,
    BigInt,
    EsSymbol,
    /// The `object` keyword.
    NonPrimitive,
    StringLit(Atom),
    NumberLit(f64),
    BoolLit(bool),
    BigIntLit(Atom),
    Union(Box<[TypeId]>),
    Intersection(Box<[TypeId]>),
    TypeParam(SymbolId),
    /// A class's instance type or an interface, with its own type parameters as arguments.
    Declared(SymbolId),
    /// A generic class or interface applied to arguments (arrays are `Array<T>`).
    Reference(SymbolId, Box<[TypeId]>),
    /// A tuple; an element may be a [`TypeKind::Spread`] (`[A, ...T]`, `[...B[], C]`).
    Tuple(Box<[TypeId]>),
    /// `...T`, a variadic or rest element of a tuple and nowhere else: `T` a type
    /// parameter or an array (a spread tuple is spliced in, [`TypeTable::tuple`]).
    Spread(TypeId),
    /// An object type with its members already known.
    Object(Rc<ObjectType>),
    /// The value side of a class (`typeof C`): construct signatures and statics.
    ClassStatic(SymbolId),
    /// The value side of a namespace or enum.
    Namespace(SymbolId),
    /// A module namespace object (`import * as m`).
    Module(u32),
    Enum(SymbolId),
    EnumLiteral(SymbolId),
    /// `keyof T` and `T[K]` over a type parameter: kept until instantiation.
    Keyof(TypeId),
    Indexed(TypeId, TypeId),
    /// A type alias met again while it was being resolved in a deferred position, or an
    /// alias instantiation met again while it was being computed; one per alias and
    /// arguments.
    LazyAlias(SymbolId, Box<[TypeId]>),
    /// A conditional type over a generic check type.
    Conditional(Rc<ConditionalType>),
    /// A mapped type over a generic constraint.
    Mapped(Rc<MappedType>),
}

/// Per-type flags.
pub mod tflags {
    /// The type mentions a type parameter somewhere (instantiation may change it).
    pub const GENERIC: u16 = 1;
    /// A string, number, boolean or bigint literal type.
    pub const LITERAL: u16 = 2;
    /// The type mentions a class's or interface's `this` type (implies [`GENERIC`]).
    pub const THIS: u16 = 4;
    /// A fresh object literal type (TypeScript's `ObjectFlags.FreshLiteral`): the type of
    /// an object literal expression, subject to excess property checks until it is widened
    /// to its regular type ([`Type::regular`]).
    pub const FRESH_LITERAL: u16 = 8;
    /// The type is or mentions a fresh object literal type (TypeScript's
    /// `ContainsObjectOrArrayLiteral`): widening may change it.
    pub const CONTAINS_FRESH: u16 = 16;
    /// An object type resolved from a mapped type (`Partial<T>`, `Pick<T, K>`, `Omit`):
    /// its keys come from this checker's approximate `keyof`, so it is taken to know every
    /// property in excess property checks.
    pub const MAPPED: u16 = 32;
    /// The fresh type of an object literal expression (TypeScript's
    /// `ObjectFlags.ObjectLiteral`, which widening drops, as the regular type does not have
    /// it): as a union member written without spreads it gives a property it lacks the
    /// type `undefined` (`(c ? {} : { a: 1 }).a`).
    pub const OBJECT_LITERAL: u16 = 64;
    /// An object literal type ([`OBJECT_LITERAL`]) written with a spread (TypeScript's
    /// `ContainsSpread`): only widening normalizes it in a union, property access does not.
    pub const CONTAINS_SPREAD: u16 = 128;
    /// The type is, or a union, intersection, tuple or reference holds, an anonymous
    /// object type with outer type parameters (TypeScript's `couldContainTypeVariables` of
    /// a function, method or type literal type): instantiating it maps those parameters
    /// and gives a new type when any of them changes, even where it mentions none
    /// (`Checker::instantiate_anonymous`). Not propagated into other object types.
    pub const OUTER: u16 = 256;
}

/// [`PropSymbol::check_flags`] bit: the property was written in the object literal whose
/// fresh type holds it (TypeScript's `prop.valueDeclaration.parent === literal`), so the
/// excess property check applies to it; properties copied from a spread do not have it.
pub const LITERAL_MEMBER: u32 = 1 << 8;

/// One interned type; each is its own allocation, as in a real checker.
#[derive(Clone, Debug)]
pub struct Type {
    pub kind: TypeKind,
    pub flags: u16,
    /// A key that depends only on the type's structure and symbol ids, never on type ids.
    pub stable: u64,
    pub id: TypeId,
    /// The symbol that names the type (classes, interfaces, enums, type parameters).
    ///
    /// Deliberately kept though nothing reads it, as are [`Self::widened`] and
    /// [`Self::apparent`]: the workload's memory is part of what is measured, and
    /// TypeScript's types carry such fields (`Type.symbol`, `Type.widened`, a mapped
    /// type's `resolvedApparentType`). They make a `Type` 72 bytes instead of 56, an
    /// 80-byte block instead of a 64-byte one, about 1.5 to 2.6 MB of a run's peak RSS at
    /// 92,000 to 165,000 types; removing them would change the peak RSS, the allocator's
    /// size classes and the realism figures in `checker/README.md`.
    pub symbol: Option<SymbolId>,
    /// The widened form (TypeScript's `Type.widened`), `u32::MAX`: never computed here;
    /// kept for its size (see [`Self::symbol`]).
    pub widened: TypeId,
    /// The apparent type (as a mapped type's `resolvedApparentType`), `u32::MAX`: never
    /// computed here; kept for its size (see [`Self::symbol`]).
    pub apparent: TypeId,
    /// For a fresh object literal type: its regular (non-fresh) counterpart once created
    /// (TypeScript's `FreshObjectLiteralType.regularType`), `u32::MAX` until then.
    pub regular: TypeId,
}

/// The interned types of one checker.
pub struct TypeTable {
    pub types: Vec<Box<Type>>,
    unions: FxHashMap<Box<[TypeId]>, TypeId>,
    intersections: FxHashMap<Box<[TypeId]>, TypeId>,
    references: FxHashMap<(SymbolId, Box<[TypeId]>), TypeId>,
    string_lits: FxHashMap<Atom, TypeId>,
    number_lits: FxHashMap<u64, TypeId>,
    bigint_lits: FxHashMap<Atom, TypeId>,
    /// The fresh twin of each regular literal type that has one (TypeScript's
    /// `LiteralType.freshType`); the fresh type links back through [`Type::regular`].
    fresh_lits: FxHashMap<TypeId, TypeId>,
    singletons: FxHashMap<(SymbolType, SymbolId), TypeId>,
    tuples: FxHashMap<Box<[TypeId]>, TypeId>,
    spreads: FxHashMap<TypeId, TypeId>,
    /// Lazy alias references, one per alias and arguments.
    lazy_aliases: FxHashMap<(SymbolId, Box<[TypeId]>), TypeId>,
    /// Deferred conditional and mapped types: (tag, declaration, root parts, mapper key).
    deferred: FxHashMap<(u8, u64, [TypeId; 4], u64), TypeId>,
}

/// Ids of the intrinsic types, created first in every table.
pub mod ids {
    use super::{TypeId, TypeKind};
    pub const ANY: TypeId = 0;
    pub const UNKNOWN: TypeId = 1;
    pub const NEVER: TypeId = 2;
    pub const VOID: TypeId = 3;
    pub const UNDEFINED: TypeId = 4;
    pub const NULL: TypeId = 5;
    pub const STRING: TypeId = 6;
    pub const NUMBER: TypeId = 7;
    pub const BOOLEAN: TypeId = 8;
    pub const BIGINT: TypeId = 9;
    pub const SYMBOL: TypeId = 10;
    pub const OBJECT: TypeId = 11;
    pub const TRUE: TypeId = 12;
    pub const FALSE: TypeId = 13;
    /// Stands in for a type that could not be resolved; behaves as `any`.
    pub const ERROR: TypeId = 14;

    /// The kind of the intrinsic type `id` (`ERROR`'s is `any`'s): every table creates ids
    /// `ANY` to `ERROR` first, in order.
    pub(crate) fn kind(id: TypeId) -> TypeKind {
        use TypeKind::*;
        match id {
            ANY | ERROR => Any,
            UNKNOWN => Unknown,
            NEVER => Never,
            VOID => Void,
            UNDEFINED => Undefined,
            NULL => Null,
            STRING => String,
            NUMBER => Number,
            BOOLEAN => Boolean,
            BIGINT => BigInt,
            SYMBOL => EsSymbol,
            OBJECT => NonPrimitive,
            TRUE => BoolLit(true),
            FALSE => BoolLit(false),
            _ => panic!("type {id} is not intrinsic"),
        }
    }
}
