//! Widening and literal freshness: when a literal keeps its type, the widened type of fresh
//! object literal unions, regular literal types, and subtype reduction of unions.
use std::cell::Cell;
use std::rc::Rc;

use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::check::Checker;
use crate::types::{ObjectType, PropSymbol, TypeId, TypeKind, UNRESOLVED, ids, tflags};

/// How deep widening and reporting follow nested literals.
pub(in crate::check) const MAX_FRESH_DEPTH: u32 = 32;

impl<'a, 'b> Checker<'a, 'b> {
    /// A literal keeps its type where the contextual type holds literal types of its kind
    /// (`kind: "a"` against `"a" | "b"`); elsewhere it widens to its primitive.
    pub(in crate::check) fn widen_unless_literal_context(
        &mut self,
        t: TypeId,
        ctx: Option<TypeId>,
    ) -> TypeId {
        match ctx {
            Some(c) if self.has_literal_of_kind(c, t, 0) => t,
            _ => self.types.widen(t),
        }
    }

    pub(super) fn has_literal_of_kind(&mut self, ctx: TypeId, t: TypeId, depth: u32) -> bool {
        if depth > 8 {
            return false;
        }
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                return ms
                    .iter()
                    .any(|&m| self.has_literal_of_kind(ctx, m, depth + 1));
            }
            TypeKind::StringLit(_)
            | TypeKind::NumberLit(_)
            | TypeKind::BoolLit(_)
            | TypeKind::BigIntLit(_) => {}
            _ => return false,
        }
        match (self.types.kind(ctx).clone(), self.types.kind(t).clone()) {
            (TypeKind::Union(ms) | TypeKind::Intersection(ms), _) => ms
                .iter()
                .any(|&m| self.has_literal_of_kind(m, t, depth + 1)),
            (TypeKind::StringLit(_), TypeKind::StringLit(_))
            | (
                TypeKind::NumberLit(_) | TypeKind::EnumLiteral(_) | TypeKind::Enum(_),
                TypeKind::NumberLit(_),
            )
            | (TypeKind::BoolLit(_), TypeKind::BoolLit(_))
            | (TypeKind::BigIntLit(_), TypeKind::BigIntLit(_))
            | (TypeKind::Keyof(_) | TypeKind::TypeParam(_), _) => true,
            _ => false,
        }
    }

    pub(in crate::check) fn at_top_level(&self, tp: TypeId, t: TypeId) -> bool {
        t == tp
            || match self.types.kind(t) {
                TypeKind::Union(ms) | TypeKind::Intersection(ms) => ms.contains(&tp),
                _ => false,
            }
    }

    pub(in crate::check) fn has_primitive_constraint(&mut self, tp: TypeId) -> bool {
        let TypeKind::TypeParam(s) = self.types.kind(tp) else {
            return false;
        };
        let s = *s;
        let Some(c) = self.constraint_of(s) else {
            return false;
        };
        let primitive = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::String
                    | TypeKind::Number
                    | TypeKind::Boolean
                    | TypeKind::BigInt
                    | TypeKind::StringLit(_)
                    | TypeKind::NumberLit(_)
                    | TypeKind::BoolLit(_)
                    // `K extends keyof T` keeps literals too (isTypeParameterWithKeyofConstraint).
                    | TypeKind::Keyof(_)
            )
        };
        match self.types.kind(c) {
            TypeKind::Union(ms) => ms.iter().any(|&m| primitive(self.types.kind(m))),
            k => primitive(k),
        }
    }

    /// A union of fresh object literal types widened (TypeScript's `getWidenedType` with a
    /// union context), regular: each object literal member gets the properties the others (written
    /// without spreads) have and it lacks as optional `undefined` ones; arrays' element
    /// types likewise.
    pub(in crate::check) fn normalize_literal_union(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                let lit = |c: &Self, m: TypeId| c.types.flags(m) & tflags::OBJECT_LITERAL != 0;
                if ms.iter().filter(|&&m| lit(self, m)).count() < 2 {
                    return self.regular_type(t);
                }
                // Members written with a spread take the others' properties but give none
                // (TypeScript's getPropertiesOfContext).
                let mut names: Vec<Atom> = Vec::new();
                for &m in ms.iter() {
                    if self.types.flags(m) & (tflags::OBJECT_LITERAL | tflags::CONTAINS_SPREAD)
                        != tflags::OBJECT_LITERAL
                    {
                        continue;
                    }
                    if let TypeKind::Object(o) = self.types.kind(m) {
                        for n in &o.order {
                            if !names.contains(n) {
                                names.push(n.clone());
                            }
                        }
                    }
                }
                let mut out = Vec::with_capacity(ms.len());
                for &m in ms.iter() {
                    let is_lit = lit(self, m);
                    let r = self.regular_type(m);
                    let o = match self.types.kind(r) {
                        TypeKind::Object(o) if is_lit => o.clone(),
                        _ => {
                            out.push(r);
                            continue;
                        }
                    };
                    if names.iter().all(|n| o.props.contains_key(n)) {
                        out.push(r);
                        continue;
                    }
                    let mut obj = (*o).clone();
                    for n in &names {
                        if !obj.props.contains_key(n) {
                            let symbol = PropSymbol {
                                ty: std::cell::Cell::new(ids::UNDEFINED),
                                optional: true,
                                ..PropSymbol::empty(n.clone())
                            };
                            obj.insert_symbol(n.clone(), Rc::new(symbol));
                        }
                    }
                    let origin = self.types.stable(m).rotate_left(7) ^ 0x6e6f_726d;
                    out.push(self.types.object(obj, origin));
                }
                self.types.union(&out)
            }
            TypeKind::Reference(s, args) if Some(s) == self.globals.array && args.len() == 1 => {
                let e = self.normalize_literal_union(args[0]);
                if e == args[0] { t } else { self.array_of(e) }
            }
            _ => self.regular_type(t),
        }
    }

    /// Whether `t` is the fresh type of an empty object literal `{}`, which TypeScript's
    /// strict subtype relation puts below any object type it is assignable to (and not
    /// above a non-empty one).
    pub(super) fn is_fresh_empty_literal(&self, t: TypeId) -> bool {
        self.types.flags(t) & tflags::FRESH_LITERAL != 0
            && matches!(self.types.kind(t), TypeKind::Object(o) if o.props.is_empty()
                && o.calls.is_empty() && o.constructs.is_empty()
                && o.string_index.is_none() && o.number_index.is_none())
    }

    /// The type of `c ? a : b`: the union of both branches, without a branch `{}` (a fresh
    /// empty object literal) that the other branch's object type takes (TypeScript reduces
    /// the union by strict subtypes; only this part of it is done here).
    pub(in crate::check) fn union_without_empty_literal(&mut self, a: TypeId, b: TypeId) -> TypeId {
        for (e, o) in [(a, b), (b, a)] {
            if !self.is_fresh_empty_literal(e) || self.is_fresh_empty_literal(o) {
                continue;
            }
            let target = self.types.non_nullable(o);
            let object_like = |k: &TypeKind| {
                matches!(
                    k,
                    TypeKind::Object(_) | TypeKind::Declared(_) | TypeKind::Reference(..)
                )
            };
            let takes = match self.types.kind(target).clone() {
                TypeKind::Union(ms) => ms.iter().any(|&m| object_like(self.types.kind(m))),
                k => object_like(&k),
            };
            if takes && self.is_assignable(e, target) {
                return o;
            }
        }
        self.types.union(&[a, b])
    }

    /// A declared type from an initializer: widened; regular literal types (from `as
    /// const`, property accesses and annotations) are kept by [`TypeTable::widen`].
    pub(in crate::check) fn widen_unless_const_assertion(
        &mut self,
        _init: &Expr,
        t: TypeId,
    ) -> TypeId {
        self.types.widen(t)
    }

    /// `t` with its literal types, or its union members' literal types, made regular
    /// (TypeScript's `getRegularTypeOfLiteralType`).
    pub(in crate::check) fn regular_literals(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t) {
            TypeKind::Union(ms) if ms.iter().any(|&m| self.types.is_fresh_literal(m)) => {
                let ms: Vec<TypeId> = ms.iter().map(|&m| self.types.regular_literal(m)).collect();
                self.types.union(&ms)
            }
            _ => self.types.regular_literal(t),
        }
    }

    /// A union without the members that are strict subtypes of another member (TypeScript's
    /// subtype reduction, as `??` and `||` do it): `T[] | never[]` is `T[]`.
    pub(in crate::check) fn subtype_union(&mut self, parts: &[TypeId]) -> TypeId {
        let joined = self.types.union(parts);
        let TypeKind::Union(members) = self.types.kind(joined).clone() else {
            return joined;
        };
        let mut kept = Vec::with_capacity(members.len());
        for &m in members.iter() {
            // Unresolved indexed, `keyof` and deferred alias types relate loosely here, so
            // they are neither reduced nor reduce.
            let loose = |k: &TypeKind| {
                matches!(
                    k,
                    TypeKind::Indexed(..) | TypeKind::Keyof(_) | TypeKind::LazyAlias(..)
                )
            };
            let strictly_below = !loose(self.types.kind(m))
                && members.iter().any(|&o| {
                    o != m
                        && !loose(self.types.kind(o))
                        && self.is_assignable(m, o)
                        && (!self.is_assignable(o, m)
                            || self.is_fresh_empty_literal(m) && !self.is_fresh_empty_literal(o))
                });
            if !strictly_below {
                kept.push(m);
            }
        }
        if kept.len() == members.len() {
            joined
        } else {
            self.types.union(&kept)
        }
    }

    pub(in crate::check) fn is_fresh(&self, t: TypeId) -> bool {
        self.types.flags(t) & tflags::FRESH_LITERAL != 0
    }

    /// `t` with its fresh object literal types made regular (the freshness part of
    /// TypeScript's `getWidenedType`): through unions, arrays, tuples and the properties
    /// of fresh literals.
    pub(in crate::check) fn regular_type(&mut self, t: TypeId) -> TypeId {
        self.regular_type_at(t, 0)
    }

    fn regular_type_at(&mut self, t: TypeId, depth: u32) -> TypeId {
        let f = self.types.flags(t);
        if f & (tflags::FRESH_LITERAL | tflags::CONTAINS_FRESH) == 0 || depth > MAX_FRESH_DEPTH {
            return t;
        }
        match self.types.kind(t).clone() {
            TypeKind::Object(o) if f & tflags::FRESH_LITERAL != 0 => {
                if let Some(r) = self.types.regular_of(t) {
                    return r;
                }
                let mut obj = ObjectType {
                    calls: o.calls.clone(),
                    constructs: o.constructs.clone(),
                    string_index: o.string_index,
                    number_index: o.number_index,
                    ..ObjectType::default()
                };
                for name in &o.order {
                    let p = &o.props[name];
                    let ty = p.ty.get();
                    let regular = if ty == UNRESOLVED {
                        ty
                    } else {
                        self.regular_type_at(ty, depth + 1)
                    };
                    if regular == ty {
                        obj.insert_symbol(name.clone(), p.clone());
                    } else {
                        let symbol = PropSymbol {
                            ty: Cell::new(regular),
                            ..(**p).clone()
                        };
                        obj.insert_symbol(name.clone(), Rc::new(symbol));
                    }
                }
                self.types.regular_object(t, obj)
            }
            TypeKind::Union(ms) => {
                let mapped: Vec<TypeId> = ms
                    .iter()
                    .map(|&m| self.regular_type_at(m, depth + 1))
                    .collect();
                if mapped[..] == ms[..] {
                    t
                } else {
                    self.types.union(&mapped)
                }
            }
            TypeKind::Reference(s, args) if Some(s) == self.globals.array => {
                let mapped: Box<[TypeId]> = args
                    .iter()
                    .map(|&a| self.regular_type_at(a, depth + 1))
                    .collect();
                if mapped == args {
                    t
                } else {
                    self.types.reference(s, mapped)
                }
            }
            TypeKind::Tuple(es) => {
                let mapped: Box<[TypeId]> = es
                    .iter()
                    .map(|&e| self.regular_type_at(e, depth + 1))
                    .collect();
                if mapped == es {
                    t
                } else {
                    self.types.tuple(mapped)
                }
            }
            _ => t,
        }
    }
}
