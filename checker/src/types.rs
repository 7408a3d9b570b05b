//! Types: one checker's interned type table.
//!
//! Every checker owns its own [`TypeTable`], so type ids depend on which files a checker
//! saw first. **Nothing that depends on a type id enters the digest**: unions are ordered
//! by a stable key computed from the type's structure and symbol ids, and messages print
//! types by structure.
use std::cell::Cell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHasher};
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
    Tuple(Box<[TypeId]>),
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
    /// A type alias met again while it was being resolved in a deferred position.
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
    pub symbol: Option<SymbolId>,
    /// Lazily computed facts (widened form, apparent type), `u32::MAX` when not computed.
    pub widened: TypeId,
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
    singletons: FxHashMap<(u8, SymbolId), TypeId>,
    tuples: FxHashMap<Box<[TypeId]>, TypeId>,
    /// Deferred conditional and mapped types: (tag, declaration, root parts, mapper key).
    deferred: FxHashMap<(u8, u64, [TypeId; 4], u64), TypeId>,
}

/// Ids of the intrinsic types, created first in every table.
pub mod ids {
    use super::TypeId;
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
}

/// How many combinations an intersection distributes over its union members into, at
/// most (TypeScript refuses past 100,000; this checker keeps the intersection instead).
pub const MAX_DISTRIBUTED: usize = 64;

/// What [`TypeTable::reduce_intersection`] found.
enum Reduced {
    Never,
    Kept,
    Distribute(usize),
}

/// `{}`: an object type without members.
fn is_empty_object(o: &ObjectType) -> bool {
    o.props.is_empty()
        && o.calls.is_empty()
        && o.constructs.is_empty()
        && o.string_index.is_none()
        && o.number_index.is_none()
}

fn stable_of(tag: u8, parts: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    tag.hash(&mut h);
    parts.hash(&mut h);
    h.finish()
}

fn sym_key(s: SymbolId) -> u64 {
    ((s.file as u64) << 32) | s.index as u64
}

impl Default for TypeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeTable {
    pub fn new() -> Self {
        let mut t = TypeTable {
            types: Vec::with_capacity(1024),
            unions: FxHashMap::default(),
            intersections: FxHashMap::default(),
            references: FxHashMap::default(),
            string_lits: FxHashMap::default(),
            number_lits: FxHashMap::default(),
            bigint_lits: FxHashMap::default(),
            fresh_lits: FxHashMap::default(),
            singletons: FxHashMap::default(),
            tuples: FxHashMap::default(),
            deferred: FxHashMap::default(),
        };
        use TypeKind::*;
        for (i, k) in [
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
            NonPrimitive,
            BoolLit(true),
            BoolLit(false),
            Any,
        ]
        .into_iter()
        .enumerate()
        {
            let flags = if matches!(k, BoolLit(_)) {
                tflags::LITERAL
            } else {
                0
            };
            t.push(k, flags, stable_of(0, &[i as u64]));
        }
        t
    }

    fn push(&mut self, kind: TypeKind, flags: u16, stable: u64) -> TypeId {
        let id = self.types.len() as TypeId;
        let symbol = match &kind {
            TypeKind::TypeParam(s)
            | TypeKind::Declared(s)
            | TypeKind::Reference(s, _)
            | TypeKind::ClassStatic(s)
            | TypeKind::Namespace(s)
            | TypeKind::Enum(s)
            | TypeKind::EnumLiteral(s) => Some(*s),
            _ => None,
        };
        self.types.push(Box::new(Type {
            kind,
            flags,
            stable,
            id,
            symbol,
            widened: u32::MAX,
            apparent: u32::MAX,
            regular: u32::MAX,
        }));
        id
    }

    pub fn kind(&self, t: TypeId) -> &TypeKind {
        &self.types[t as usize].kind
    }

    pub fn flags(&self, t: TypeId) -> u16 {
        self.types[t as usize].flags
    }

    pub fn stable(&self, t: TypeId) -> u64 {
        self.types[t as usize].stable
    }

    pub fn is_generic(&self, t: TypeId) -> bool {
        self.flags(t) & tflags::GENERIC != 0
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// [`tflags::GENERIC`], [`tflags::THIS`], [`tflags::CONTAINS_FRESH`] and [`tflags::OUTER`] when some of
    /// `ts` has them (a fresh object literal contains itself).
    fn generic_of(&self, ts: &[TypeId]) -> u16 {
        ts.iter().fold(0, |f, &t| {
            let g = self.flags(t);
            let fresh = if g & tflags::FRESH_LITERAL != 0 {
                tflags::CONTAINS_FRESH
            } else {
                0
            };
            f | (g & (tflags::GENERIC | tflags::THIS | tflags::CONTAINS_FRESH | tflags::OUTER))
                | fresh
        })
    }

    pub fn string_lit(&mut self, s: &Atom) -> TypeId {
        if let Some(&t) = self.string_lits.get(s) {
            return t;
        }
        let mut h = FxHasher::default();
        s.as_str().hash(&mut h);
        let t = self.push(
            TypeKind::StringLit(s.clone()),
            tflags::LITERAL,
            stable_of(1, &[h.finish()]),
        );
        self.string_lits.insert(s.clone(), t);
        t
    }

    pub fn number_lit(&mut self, v: f64) -> TypeId {
        if let Some(&t) = self.number_lits.get(&v.to_bits()) {
            return t;
        }
        let t = self.push(
            TypeKind::NumberLit(v),
            tflags::LITERAL,
            stable_of(2, &[v.to_bits()]),
        );
        self.number_lits.insert(v.to_bits(), t);
        t
    }

    pub fn bigint_lit(&mut self, s: &Atom) -> TypeId {
        if let Some(&t) = self.bigint_lits.get(s) {
            return t;
        }
        let mut h = FxHasher::default();
        s.as_str().hash(&mut h);
        let t = self.push(
            TypeKind::BigIntLit(s.clone()),
            tflags::LITERAL,
            stable_of(3, &[h.finish()]),
        );
        self.bigint_lits.insert(s.clone(), t);
        t
    }

    /// Whether `t` is a literal type (string, number, bigint, boolean or enum member).
    fn is_literal_kind(&self, t: TypeId) -> bool {
        matches!(
            self.kind(t),
            TypeKind::StringLit(_)
                | TypeKind::NumberLit(_)
                | TypeKind::BigIntLit(_)
                | TypeKind::BoolLit(_)
                | TypeKind::EnumLiteral(_)
        )
    }

    /// The fresh twin of the literal type `t` (TypeScript's `getFreshTypeOfLiteralType`):
    /// a second type object of the same kind whose stable key is the regular type's key
    /// plus a marker, linked both ways; created once. A fresh type is its own fresh
    /// type, and types that are not literals are returned unchanged.
    pub fn fresh_literal(&mut self, t: TypeId) -> TypeId {
        if !self.is_literal_kind(t) || self.is_fresh_literal(t) {
            return t;
        }
        if let Some(&f) = self.fresh_lits.get(&t) {
            return f;
        }
        let kind = self.kind(t).clone();
        let stable = stable_of(4, &[self.stable(t)]);
        let f = self.push(kind, self.flags(t), stable);
        self.types[f as usize].regular = t;
        self.types[t as usize].regular = t;
        self.fresh_lits.insert(t, f);
        f
    }

    /// Whether `t` is a fresh literal type (TypeScript's `TypeFlags.FreshLiteral` on a
    /// literal type).
    pub fn is_fresh_literal(&self, t: TypeId) -> bool {
        let r = self.types[t as usize].regular;
        r != u32::MAX && r != t && self.is_literal_kind(t)
    }

    /// The regular type of a literal type (TypeScript's `getRegularTypeOfLiteralType`);
    /// every other type unchanged.
    pub fn regular_literal(&self, t: TypeId) -> TypeId {
        if self.is_fresh_literal(t) {
            self.types[t as usize].regular
        } else {
            t
        }
    }

    /// A type keyed by one symbol (`Declared`, `TypeParam`, `ClassStatic`, ...), interned.
    pub fn of_symbol(&mut self, tag: u8, sym: SymbolId) -> TypeId {
        if let Some(&t) = self.singletons.get(&(tag, sym)) {
            return t;
        }
        let (kind, flags) = match tag {
            10 => (TypeKind::TypeParam(sym), tflags::GENERIC),
            11 => (TypeKind::Declared(sym), 0),
            12 => (TypeKind::ClassStatic(sym), 0),
            13 => (TypeKind::Namespace(sym), 0),
            14 => (TypeKind::Enum(sym), 0),
            15 => (TypeKind::EnumLiteral(sym), tflags::LITERAL),
            16 => (TypeKind::Module(sym.file), 0),
            // The `this` type parameter of a class or interface (`sym`).
            17 => (TypeKind::TypeParam(sym), tflags::GENERIC | tflags::THIS),
            _ => unreachable!("unknown symbol type tag {tag}"),
        };
        let t = self.push(kind, flags, stable_of(tag, &[sym_key(sym)]));
        self.singletons.insert((tag, sym), t);
        t
    }

    pub fn reference(&mut self, target: SymbolId, args: Box<[TypeId]>) -> TypeId {
        if let Some(&t) = self.references.get(&(target, args.clone())) {
            return t;
        }
        let mut parts: Vec<u64> = args.iter().map(|&a| self.stable(a)).collect();
        parts.push(sym_key(target));
        let flags = self.generic_of(&args);
        let t = self.push(
            TypeKind::Reference(target, args.clone()),
            flags,
            stable_of(20, &parts),
        );
        self.references.insert((target, args), t);
        t
    }

    pub fn tuple(&mut self, elems: Box<[TypeId]>) -> TypeId {
        if let Some(&t) = self.tuples.get(&elems) {
            return t;
        }
        let parts: Vec<u64> = elems.iter().map(|&a| self.stable(a)).collect();
        let flags = self.generic_of(&elems);
        let t = self.push(TypeKind::Tuple(elems.clone()), flags, stable_of(21, &parts));
        self.tuples.insert(elems, t);
        t
    }

    /// An object type; `origin` says where it comes from (a syntax position or a parent
    /// type's stable key), which is all its stable key may depend on.
    pub fn object(&mut self, obj: ObjectType, origin: u64) -> TypeId {
        let mut members: Vec<TypeId> = obj
            .props
            .values()
            .map(|p| p.ty.get())
            .filter(|&t| t != UNRESOLVED)
            .collect();
        for s in obj.calls.iter().chain(&obj.constructs) {
            members.push(s.ret);
            members.extend(s.params.iter().map(|p| p.ty));
            members.extend(s.predicate.map(|p| p.1));
        }
        members.extend(obj.string_index);
        members.extend(obj.number_index);
        // An object type holding an anonymous type with outer type parameters is not one
        // itself: only `Checker::register_anonymous` says which are.
        let flags = self.generic_of(&members) & !tflags::OUTER;
        self.push(
            TypeKind::Object(Rc::new(obj)),
            flags,
            stable_of(22, &[origin]),
        )
    }

    /// Sets or clears [`tflags::OUTER`] on an anonymous object type.
    pub fn set_outer(&mut self, t: TypeId, outer: bool) {
        let f = &mut self.types[t as usize].flags;
        if outer {
            *f |= tflags::OUTER;
        } else {
            *f &= !tflags::OUTER;
        }
    }

    /// [`tflags::GENERIC`] or [`tflags::OUTER`] on some of `ts`: whether instantiating
    /// them may change them (TypeScript's `couldContainTypeVariables`).
    pub fn could_contain_type_params(&self, ts: &[TypeId]) -> bool {
        self.generic_of(ts) & (tflags::GENERIC | tflags::OUTER) != 0
    }

    /// A fresh copy of type parameter `p` (TypeScript's `cloneTypeParameter`): the same
    /// symbol, so it prints, constrains and sorts in unions as `p` does (the same stable
    /// key), a type of its own.
    pub fn clone_type_param(&mut self, p: TypeId) -> TypeId {
        let t = &self.types[p as usize];
        let (kind, flags, stable) = (t.kind.clone(), t.flags, t.stable);
        self.push(kind, flags, stable)
    }

    /// The fresh type of an object literal expression (see [`tflags::FRESH_LITERAL`]).
    pub fn fresh_object(&mut self, obj: ObjectType, origin: u64) -> TypeId {
        let t = self.object(obj, origin);
        self.types[t as usize].flags |= tflags::FRESH_LITERAL | tflags::CONTAINS_FRESH;
        t
    }

    /// Marks the fresh type of an object literal ([`tflags::OBJECT_LITERAL`], and
    /// [`tflags::CONTAINS_SPREAD`] where it was written with a spread).
    pub fn mark_object_literal(&mut self, t: TypeId, spread: bool) {
        self.types[t as usize].flags |= tflags::OBJECT_LITERAL;
        if spread {
            self.types[t as usize].flags |= tflags::CONTAINS_SPREAD;
        }
    }

    /// The regular counterpart of the fresh object literal type `fresh`, once created.
    pub fn regular_of(&self, fresh: TypeId) -> Option<TypeId> {
        let r = self.types[fresh as usize].regular;
        (r != u32::MAX).then_some(r)
    }

    /// Creates the regular counterpart of the fresh object literal type `fresh` from its
    /// members (with their own fresh types made regular) and links the two.
    pub fn regular_object(&mut self, fresh: TypeId, obj: ObjectType) -> TypeId {
        // The same stable key: the two look alike, and unions order them alike.
        let stable = self.stable(fresh);
        let r = self.object(obj, 0);
        self.types[r as usize].stable = stable;
        self.types[fresh as usize].regular = r;
        self.types[r as usize].regular = r;
        r
    }

    /// A mapped type's object type ([`tflags::MAPPED`]) with the generic flag given: its
    /// properties are typed lazily, so their types cannot say whether it is generic.
    pub fn object_flagged(&mut self, obj: ObjectType, origin: u64, generic: bool) -> TypeId {
        let t = self.object(obj, origin);
        self.types[t as usize].flags |= tflags::MAPPED;
        if generic {
            self.types[t as usize].flags |= tflags::GENERIC;
        }
        t
    }

    /// A deferred conditional type, interned by declaration, parts and mapper.
    pub fn conditional(&mut self, c: ConditionalType) -> TypeId {
        let r = &c.root;
        let (mkey, mstable) = c.mapper.as_ref().map_or((0, 0), |m| (m.key, m.stable));
        let key = (
            40,
            r.node,
            [r.check, r.extends, r.true_type, r.false_type],
            mkey,
        );
        if let Some(&t) = self.deferred.get(&key) {
            return t;
        }
        let parts = [
            r.node,
            self.stable(r.check),
            self.stable(r.extends),
            self.stable(r.true_type),
            self.stable(r.false_type),
            mstable,
        ];
        let t = self.push(
            TypeKind::Conditional(Rc::new(c)),
            tflags::GENERIC,
            stable_of(40, &parts),
        );
        self.deferred.insert(key, t);
        t
    }

    /// A deferred mapped type, interned by declaration, parts and mapper.
    pub fn mapped(&mut self, m: MappedType) -> TypeId {
        let r = &m.root;
        let (mkey, mstable) = m.mapper.as_ref().map_or((0, 0), |m| (m.key, m.stable));
        let name = r.name_type.unwrap_or(UNRESOLVED);
        let key = (41, r.node, [r.param, r.constraint, r.template, name], mkey);
        if let Some(&t) = self.deferred.get(&key) {
            return t;
        }
        let parts = [
            r.node,
            self.stable(r.constraint),
            self.stable(r.template),
            r.name_type.map_or(0, |n| self.stable(n)),
            mstable,
        ];
        let t = self.push(
            TypeKind::Mapped(Rc::new(m)),
            tflags::GENERIC,
            stable_of(41, &parts),
        );
        self.deferred.insert(key, t);
        t
    }

    pub fn keyof(&mut self, t: TypeId) -> TypeId {
        let s = self.stable(t);
        let flags = tflags::GENERIC | self.generic_of(&[t]);
        self.push(TypeKind::Keyof(t), flags, stable_of(23, &[s]))
    }

    pub fn indexed(&mut self, o: TypeId, i: TypeId) -> TypeId {
        let parts = [self.stable(o), self.stable(i)];
        let flags = tflags::GENERIC | self.generic_of(&[o, i]);
        self.push(TypeKind::Indexed(o, i), flags, stable_of(24, &parts))
    }

    pub fn lazy_alias(&mut self, sym: SymbolId, args: Box<[TypeId]>) -> TypeId {
        let mut parts: Vec<u64> = args.iter().map(|&a| self.stable(a)).collect();
        parts.push(sym_key(sym));
        let flags = self.generic_of(&args);
        self.push(TypeKind::LazyAlias(sym, args), flags, stable_of(25, &parts))
    }

    /// Sorts by stable key (ties by id, which only equal-looking types share).
    /// A fresh literal type sorts beside its regular type, so a union prints its members
    /// in the same order whichever of the two it holds.
    fn sort_stable(&self, ts: &mut [TypeId]) {
        ts.sort_by_key(|&t| (self.stable(self.regular_literal(t)), self.stable(t), t));
    }

    /// The union of `types`: flattened, deduplicated, `any` absorbing, `never` dropped,
    /// literals absorbed by their primitive.
    pub fn union(&mut self, types: &[TypeId]) -> TypeId {
        let mut flat: Vec<TypeId> = Vec::with_capacity(types.len());
        for &t in types {
            match self.kind(t) {
                TypeKind::Union(members) => flat.extend(members.iter().copied()),
                TypeKind::Any => {
                    return if t == ids::ERROR {
                        ids::ERROR
                    } else {
                        ids::ANY
                    };
                }
                TypeKind::Never => {}
                _ => flat.push(t),
            }
        }
        if flat.contains(&ids::UNKNOWN) {
            return ids::UNKNOWN;
        }
        // A fresh literal and its regular type are one member: the regular one.
        if flat.iter().any(|&t| self.is_fresh_literal(t)) {
            let regular: Vec<TypeId> = flat
                .iter()
                .copied()
                .filter(|&t| !self.is_fresh_literal(t))
                .collect();
            flat.retain(|&t| {
                !self.is_fresh_literal(t) || !regular.contains(&self.regular_literal(t))
            });
        }
        let has_string = flat.contains(&ids::STRING);
        let has_number = flat.contains(&ids::NUMBER);
        let has_bool = flat.contains(&ids::BOOLEAN)
            || (flat.iter().any(|&t| self.regular_literal(t) == ids::TRUE)
                && flat.iter().any(|&t| self.regular_literal(t) == ids::FALSE));
        flat.retain(|&t| match self.kind(t) {
            TypeKind::StringLit(_) => !has_string,
            TypeKind::NumberLit(_) => !has_number,
            TypeKind::BoolLit(_) => !has_bool,
            TypeKind::Boolean => false,
            _ => true,
        });
        if has_bool {
            flat.push(ids::BOOLEAN);
        }
        self.sort_stable(&mut flat);
        flat.dedup();
        match flat.len() {
            0 => ids::NEVER,
            1 => flat[0],
            _ => {
                let key: Box<[TypeId]> = flat.into_boxed_slice();
                if let Some(&t) = self.unions.get(&key) {
                    return t;
                }
                let parts: Vec<u64> = key.iter().map(|&a| self.stable(a)).collect();
                let flags = self.generic_of(&key);
                let t = self.push(TypeKind::Union(key.clone()), flags, stable_of(30, &parts));
                self.unions.insert(key, t);
                t
            }
        }
    }

    /// The intersection of `types`, normalized as TypeScript's `getIntersectionType` does:
    /// flattened and deduplicated, `never` absorbing (before `any`), `unknown` dropped,
    /// empty object types `{}` dropped beside definitely non-nullable members, primitives
    /// beside their own literals dropped, disjoint primitives, distinct unit types and
    /// object types with conflicting literal properties reduced to `never`, and unions
    /// distributed over (`A & (B | C)` is `(A & B) | (A & C)`) while the combinations stay
    /// under [`MAX_DISTRIBUTED`]; past that the intersection keeps its union members.
    pub fn intersection(&mut self, types: &[TypeId]) -> TypeId {
        let mut flat: Vec<TypeId> = Vec::with_capacity(types.len());
        let mut any = None;
        for &t in types {
            match self.kind(t) {
                TypeKind::Intersection(members) => flat.extend(members.iter().copied()),
                TypeKind::Any => any = Some(any.unwrap_or(t)),
                TypeKind::Never => return ids::NEVER,
                TypeKind::Unknown => {}
                _ => flat.push(t),
            }
        }
        if let Some(a) = any {
            return a;
        }
        // A fresh literal type is its regular type here.
        for t in flat.iter_mut() {
            *t = self.regular_literal(*t);
        }
        self.sort_stable(&mut flat);
        flat.dedup();
        if flat.len() > 1 {
            match self.reduce_intersection(&mut flat) {
                Reduced::Never => return ids::NEVER,
                Reduced::Distribute(n) if n <= MAX_DISTRIBUTED => {
                    return self.distribute_intersection(&flat);
                }
                _ => {}
            }
        }
        match flat.len() {
            0 => ids::UNKNOWN,
            1 => flat[0],
            _ => {
                let key: Box<[TypeId]> = flat.into_boxed_slice();
                if let Some(&t) = self.intersections.get(&key) {
                    return t;
                }
                let parts: Vec<u64> = key.iter().map(|&a| self.stable(a)).collect();
                let flags = self.generic_of(&key);
                let t = self.push(
                    TypeKind::Intersection(key.clone()),
                    flags,
                    stable_of(31, &parts),
                );
                self.intersections.insert(key, t);
                t
            }
        }
    }

    /// Applies the reductions of [`TypeTable::intersection`] other than distribution to the
    /// sorted, deduplicated members `flat`; says whether the result is `never` or how many
    /// combinations distributing over its union members would give.
    fn reduce_intersection(&mut self, flat: &mut Vec<TypeId>) -> Reduced {
        // Domains: string, number, bigint, boolean, symbol, null, undefined/void.
        let mut domains = 0u8;
        let mut undefined = false;
        let mut units = 0usize;
        let mut non_primitive = false;
        let mut object_like = false;
        let mut empty_object = false;
        let mut unions = 1usize;
        let mut objects = 0usize;
        for &t in flat.iter() {
            match self.kind(t) {
                TypeKind::String => domains |= 1,
                TypeKind::StringLit(_) => (domains, units) = (domains | 1, units + 1),
                TypeKind::Number => domains |= 2,
                TypeKind::NumberLit(_) => (domains, units) = (domains | 2, units + 1),
                TypeKind::BigInt => domains |= 4,
                TypeKind::BigIntLit(_) => (domains, units) = (domains | 4, units + 1),
                TypeKind::Boolean => domains |= 8,
                TypeKind::BoolLit(_) => (domains, units) = (domains | 8, units + 1),
                TypeKind::EsSymbol => domains |= 16,
                TypeKind::Null => (domains, units) = (domains | 32, units + 1),
                TypeKind::Undefined => {
                    (domains, units) = (domains | 64, units + 1);
                    undefined = true;
                }
                TypeKind::Void => domains |= 64,
                TypeKind::EnumLiteral(_) => units += 1,
                TypeKind::NonPrimitive => non_primitive = true,
                TypeKind::Object(o) => {
                    objects += 1;
                    if is_empty_object(o) {
                        empty_object = true;
                    } else {
                        object_like = true;
                    }
                }
                TypeKind::Declared(_)
                | TypeKind::Reference(..)
                | TypeKind::Tuple(_)
                | TypeKind::ClassStatic(_)
                | TypeKind::Namespace(_)
                | TypeKind::Module(_)
                | TypeKind::Enum(_) => object_like = true,
                TypeKind::Union(ms) => unions = unions.saturating_mul(ms.len()),
                _ => {}
            }
        }
        let nullable = domains & 32 != 0 || undefined;
        if units > 1
            || (domains & !(32 | 64)).count_ones() > 1
            || (domains & (32 | 64) != 0 && domains & !(32 | 64) != 0)
            || (domains & 32 != 0 && domains & 64 != 0)
            || (non_primitive && domains != 0)
            || (nullable && (object_like || empty_object || non_primitive))
        {
            return Reduced::Never;
        }
        if objects > 1 && self.conflicting_literal_props(flat) {
            return Reduced::Never;
        }
        let definitely_non_nullable = object_like || non_primitive || domains & !(32 | 64) != 0;
        let lits = units > 0;
        flat.retain(|&t| match self.kind(t) {
            TypeKind::Object(o) => !(definitely_non_nullable && is_empty_object(o)),
            TypeKind::String | TypeKind::Number | TypeKind::BigInt | TypeKind::Boolean => !lits,
            TypeKind::Void => !undefined,
            _ => true,
        });
        if unions > 1 {
            Reduced::Distribute(unions)
        } else {
            Reduced::Kept
        }
    }

    /// Whether two object types among `flat` have a required property of the same name
    /// whose types are distinct unit types (TypeScript reduces such intersections, of
    /// discriminated members, to `never`). Only properties whose types are resolved count,
    /// and not those of mapped types ([`tflags::MAPPED`]), whose keys are approximate.
    fn conflicting_literal_props(&self, flat: &[TypeId]) -> bool {
        let objs: Vec<&ObjectType> = flat
            .iter()
            .filter_map(|&t| match self.kind(t) {
                TypeKind::Object(o) if self.flags(t) & tflags::MAPPED == 0 => Some(&**o),
                _ => None,
            })
            .collect();
        for (i, a) in objs.iter().enumerate() {
            for b in &objs[i + 1..] {
                for (name, pa) in &a.props {
                    let Some(pb) = b.props.get(name) else {
                        continue;
                    };
                    if pa.optional || pb.optional {
                        continue;
                    }
                    let (ta, tb) = (pa.ty.get(), pb.ty.get());
                    if ta != tb
                        && ta != UNRESOLVED
                        && tb != UNRESOLVED
                        && self.regular_literal(ta) != self.regular_literal(tb)
                        && self.is_unit(ta)
                        && self.is_unit(tb)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A primitive: `string`, `number`, `boolean`, `bigint`, `symbol`, their literals, an
    /// enum or enum member, `undefined`, `null` or `void`.
    pub fn is_primitive(&self, t: TypeId) -> bool {
        matches!(
            self.kind(t),
            TypeKind::String
                | TypeKind::Number
                | TypeKind::Boolean
                | TypeKind::BigInt
                | TypeKind::EsSymbol
                | TypeKind::StringLit(_)
                | TypeKind::NumberLit(_)
                | TypeKind::BoolLit(_)
                | TypeKind::BigIntLit(_)
                | TypeKind::EnumLiteral(_)
                | TypeKind::Enum(_)
                | TypeKind::Undefined
                | TypeKind::Null
                | TypeKind::Void
        )
    }

    /// A literal, `null`, `undefined` or enum member type: one value only.
    pub fn is_unit(&self, t: TypeId) -> bool {
        self.is_literal_kind(t) || matches!(self.kind(t), TypeKind::Null | TypeKind::Undefined)
    }

    /// `A & (B | C) & D` as `(A & B & D) | (A & C & D)`: the union of the intersections of
    /// every combination of the union members of `flat` with its other members.
    fn distribute_intersection(&mut self, flat: &[TypeId]) -> TypeId {
        let mut combos: Vec<Vec<TypeId>> = vec![Vec::with_capacity(flat.len())];
        for &t in flat {
            match self.kind(t) {
                TypeKind::Union(ms) => {
                    let ms = ms.clone();
                    let mut next = Vec::with_capacity(combos.len() * ms.len());
                    for c in &combos {
                        for &m in ms.iter() {
                            let mut c = c.clone();
                            c.push(m);
                            next.push(c);
                        }
                    }
                    combos = next;
                }
                _ => combos.iter_mut().for_each(|c| c.push(t)),
            }
        }
        let members: Vec<TypeId> = combos.iter().map(|c| self.intersection(c)).collect();
        self.union(&members)
    }

    /// The primitive a fresh literal type widens to (`"a"` to `string`, TypeScript's
    /// `getWidenedLiteralType`); regular literal types and other types unchanged.
    pub fn widen(&mut self, t: TypeId) -> TypeId {
        let literal = !matches!(self.kind(t), TypeKind::Union(_));
        if literal && !self.is_fresh_literal(t) {
            return t;
        }
        match self.kind(t) {
            TypeKind::StringLit(_) => ids::STRING,
            TypeKind::NumberLit(_) => ids::NUMBER,
            TypeKind::BoolLit(_) => ids::BOOLEAN,
            TypeKind::BigIntLit(_) => ids::BIGINT,
            TypeKind::Union(members) if self.flags(t) & tflags::GENERIC == 0 => {
                let members = members.clone();
                let widened: Vec<TypeId> = members.iter().map(|&m| self.widen(m)).collect();
                self.union(&widened)
            }
            _ => t,
        }
    }

    /// Removes `undefined` from a union (what `-?` does to an optional property's type).
    pub fn without_undefined(&mut self, t: TypeId) -> TypeId {
        match self.kind(t) {
            TypeKind::Union(members) => {
                let kept: Vec<TypeId> = members
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::UNDEFINED)
                    .collect();
                self.union(&kept)
            }
            TypeKind::Undefined => ids::NEVER,
            _ => t,
        }
    }

    /// Removes `null` and `undefined` from a union.
    pub fn non_nullable(&mut self, t: TypeId) -> TypeId {
        match self.kind(t) {
            TypeKind::Union(members) => {
                let kept: Vec<TypeId> = members
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::NULL && m != ids::UNDEFINED)
                    .collect();
                self.union(&kept)
            }
            TypeKind::Null | TypeKind::Undefined => ids::NEVER,
            _ => t,
        }
    }
}
