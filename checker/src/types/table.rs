//! The interning table: each type made once per structure (literals, references, tuples,
//! objects, deferred conditional and mapped types), fresh and regular literal types.
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHasher};
use swc_atoms::Atom;

use super::{
    ConditionalType, MappedType, ObjectType, SymbolType, Type, TypeId, TypeKind, TypeTable,
    UNRESOLVED, ids, tflags,
};
use crate::bind::SymbolId;

pub(super) fn stable_of(tag: u8, parts: &[u64]) -> u64 {
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
            spreads: FxHashMap::default(),
            lazy_aliases: FxHashMap::default(),
            deferred: FxHashMap::default(),
        };
        for id in ids::ANY..=ids::ERROR {
            let kind = ids::kind(id);
            let flags = if matches!(kind, TypeKind::BoolLit(_)) {
                tflags::LITERAL
            } else {
                0
            };
            let pushed = t.push(kind, flags, stable_of(0, &[u64::from(id)]));
            debug_assert_eq!(pushed, id);
        }
        t
    }

    pub(super) fn push(&mut self, kind: TypeKind, flags: u16, stable: u64) -> TypeId {
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
    pub fn generic_of(&self, ts: &[TypeId]) -> u16 {
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
    pub(super) fn is_literal_kind(&self, t: TypeId) -> bool {
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
    pub fn of_symbol(&mut self, kind: SymbolType, sym: SymbolId) -> TypeId {
        if let Some(&t) = self.singletons.get(&(kind, sym)) {
            return t;
        }
        let (type_kind, flags) = match kind {
            SymbolType::TypeParam => (TypeKind::TypeParam(sym), tflags::GENERIC),
            SymbolType::Declared => (TypeKind::Declared(sym), 0),
            SymbolType::ClassStatic => (TypeKind::ClassStatic(sym), 0),
            SymbolType::Namespace => (TypeKind::Namespace(sym), 0),
            SymbolType::Enum => (TypeKind::Enum(sym), 0),
            SymbolType::EnumLiteral => (TypeKind::EnumLiteral(sym), tflags::LITERAL),
            SymbolType::Module => (TypeKind::Module(sym.file), 0),
            SymbolType::This => (TypeKind::TypeParam(sym), tflags::GENERIC | tflags::THIS),
        };
        let t = self.push(type_kind, flags, stable_of(kind as u8, &[sym_key(sym)]));
        self.singletons.insert((kind, sym), t);
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

    /// The tuple of `elems`, a spread tuple element spliced in (`[...[A, B], C]` is `[A, B,
    /// C]`), as TypeScript normalizes variadic tuple types once their spreads are known.
    pub fn tuple(&mut self, elems: Box<[TypeId]>) -> TypeId {
        let spliced = |t: &Self, e: TypeId| match t.kind(e) {
            TypeKind::Spread(x) => match t.kind(*x) {
                TypeKind::Tuple(inner) => Some(inner.clone()),
                _ => None,
            },
            _ => None,
        };
        // `[...X[]]` is the array `X[]`.
        if let [e] = *elems
            && let TypeKind::Spread(x) = self.kind(e)
            && let TypeKind::Reference(_, args) = self.kind(*x)
            && args.len() == 1
        {
            return *x;
        }
        let elems = if elems.iter().any(|&e| spliced(self, e).is_some()) {
            let mut flat = Vec::with_capacity(elems.len());
            for &e in elems.iter() {
                match spliced(self, e) {
                    Some(inner) => flat.extend(inner.iter().copied()),
                    None => flat.push(e),
                }
            }
            flat.into()
        } else {
            elems
        };
        if let Some(&t) = self.tuples.get(&elems) {
            return t;
        }
        let parts: Vec<u64> = elems.iter().map(|&a| self.stable(a)).collect();
        let flags = self.generic_of(&elems);
        let t = self.push(TypeKind::Tuple(elems.clone()), flags, stable_of(21, &parts));
        self.tuples.insert(elems, t);
        t
    }

    /// `...x`, a tuple element ([`TypeKind::Spread`]).
    pub fn spread(&mut self, x: TypeId) -> TypeId {
        if let Some(&t) = self.spreads.get(&x) {
            return t;
        }
        let flags = self.generic_of(&[x]);
        let stable = stable_of(26, &[self.stable(x)]);
        let t = self.push(TypeKind::Spread(x), flags, stable);
        self.spreads.insert(x, t);
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
        let key = (sym, args);
        if let Some(&t) = self.lazy_aliases.get(&key) {
            return t;
        }
        let mut parts: Vec<u64> = key.1.iter().map(|&a| self.stable(a)).collect();
        parts.push(sym_key(sym));
        let flags = self.generic_of(&key.1);
        let t = self.push(
            TypeKind::LazyAlias(sym, key.1.clone()),
            flags,
            stable_of(25, &parts),
        );
        self.lazy_aliases.insert(key, t);
        t
    }
}
