//! Object literal freshness and excess property checks, as TypeScript has them.
//!
//! Every object literal expression has a *fresh* type ([`tflags::FRESH_LITERAL`]); the
//! properties written in it carry [`LITERAL_MEMBER`]. Relating a fresh type to a target
//! first checks that the target knows every written property (`hasExcessProperties`,
//! `isKnownProperty`): a property is known when the target (any member of a union or
//! intersection) declares it or has an index signature that applies. No check against
//! targets that are not object types (type parameters, primitives), that are empty (`{}`,
//! `object`, an empty interface) or the global `Object`. A union target is first narrowed
//! by the literal's discriminant properties (`findMatchingDiscriminantType`), and each
//! written property must also relate to the union of the property's types in its
//! members, which checks nested literals; then the literal's *regular* type relates to
//! the members. Widening (a variable's, property's or inferred return type, an inferred
//! type argument) makes a fresh type regular ([`Checker::regular_type`], in
//! [`super::widening`]): a new object type whose nested fresh
//! types are regular too (`getWidenedType`, `getRegularTypeOfObjectLiteral`), linked
//! from the fresh type ([`crate::types::Type::regular`]), so later uses of the variable
//! are not checked again.
//!
//! Reporting a failed relation at the property that explains it is the walk's
//! (elaboration.rs).
use swc_atoms::Atom;

use crate::check::Checker;
use crate::types::{LITERAL_MEMBER, TypeId, TypeKind, ids, tflags};

/// What the excess property check found.
pub(in crate::check) enum Excess {
    None,
    /// A written property the target does not know, and the type the message names.
    Property(Atom, TypeId),
    /// A written property whose type does not relate to the union of its types in the
    /// (narrowed) union target, and that union.
    Nested(Atom, TypeId),
}

impl<'a> Checker<'a, '_> {
    /// How the fresh object literal type `s` relates to `t` where freshness changes the
    /// answer: `Some(false)` when it has excess properties; for union, intersection and
    /// conditional targets, the regular type's relation (and, for an intersection, the
    /// nested literals against the intersection as one object). `None`: relate as usual.
    pub(super) fn fresh_literal_related(&mut self, s: TypeId, t: TypeId) -> Option<bool> {
        if !matches!(self.excess_property(s, t), Excess::None) {
            return Some(false);
        }
        match self.types.kind(t).clone() {
            TypeKind::Union(_) | TypeKind::Conditional(_) => {
                let r = self.regular_type(s);
                Some(self.is_related(r, t))
            }
            TypeKind::Intersection(ms) => {
                let r = self.regular_type(s);
                if !ms.iter().all(|&m| self.is_related(r, m)) {
                    return Some(false);
                }
                let sm = self.members(s);
                for name in &sm.order {
                    let p = &sm.props[name];
                    let pt = self.prop_ty(p);
                    if p.check_flags & LITERAL_MEMBER == 0
                        || self.types.flags(pt) & tflags::CONTAINS_FRESH == 0
                    {
                        continue;
                    }
                    if let Some(tp) = self.property_in(t, name, 0)
                        && !self.is_related(pt, tp)
                    {
                        return Some(false);
                    }
                }
                Some(true)
            }
            _ => None,
        }
    }

    /// A lazily resolved alias as the type it names.
    fn expand_lazy_target(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::LazyAlias(a, args) => self.type_reference(a, args.to_vec()),
            _ => t,
        }
    }

    /// TypeScript's `hasExcessProperties` for the fresh object literal type `s`.
    pub(in crate::check) fn excess_property(&mut self, s: TypeId, t: TypeId) -> Excess {
        let t = self.expand_lazy_target(t);
        if !self.is_excess_check_target(t, 0)
            || self.is_empty_object_type(t, 0)
            || self.is_global_object_subset(t)
        {
            return Excess::None;
        }
        let (reduced, check_types) = match self.types.kind(t).clone() {
            TypeKind::Union(_) => {
                let reduced = match self.discriminated_target(s, t) {
                    Some(d) => d,
                    None => self.without_primitives_if_non_primitive(t),
                };
                let cts: Vec<TypeId> = match self.types.kind(reduced) {
                    TypeKind::Union(ms) => ms.to_vec(),
                    _ => vec![reduced],
                };
                (reduced, Some(cts))
            }
            _ => (t, None),
        };
        let sm = self.members(s);
        for name in &sm.order {
            let p = &sm.props[name];
            if p.check_flags & LITERAL_MEMBER == 0 {
                continue;
            }
            if !self.is_known_property(reduced, name, 0) {
                let shown = self.excess_error_target(reduced);
                return Excess::Property(name.clone(), shown);
            }
            if let Some(cts) = &check_types {
                let pt = self.prop_ty(p);
                let tt = self.type_of_property_in_types(cts, name);
                if !self.is_related(pt, tt) {
                    return Excess::Nested(name.clone(), tt);
                }
            }
        }
        Excess::None
    }

    /// TypeScript's `isExcessPropertyCheckTarget`: object types and `object`, a union
    /// with one, an intersection of them.
    fn is_excess_check_target(&mut self, t: TypeId, depth: u32) -> bool {
        if depth > 8 {
            return false;
        }
        match self.types.kind(t).clone() {
            TypeKind::Object(_)
            | TypeKind::Declared(_)
            | TypeKind::Reference(..)
            | TypeKind::Tuple(_)
            | TypeKind::ClassStatic(_)
            | TypeKind::NonPrimitive => true,
            TypeKind::Union(ms) => ms
                .iter()
                .any(|&m| self.is_excess_check_target(m, depth + 1)),
            TypeKind::Intersection(ms) => ms
                .iter()
                .all(|&m| self.is_excess_check_target(m, depth + 1)),
            TypeKind::LazyAlias(..) => {
                let r = self.expand_lazy_target(t);
                r != t && self.is_excess_check_target(r, depth + 1)
            }
            _ => false,
        }
    }

    /// TypeScript's `isEmptyObjectType`: `{}`, `object`, an empty interface; a union with
    /// one, an intersection of them.
    fn is_empty_object_type(&mut self, t: TypeId, depth: u32) -> bool {
        if depth > 8 {
            return false;
        }
        match self.types.kind(t).clone() {
            TypeKind::NonPrimitive => true,
            TypeKind::Object(_)
            | TypeKind::Declared(_)
            | TypeKind::Reference(..)
            | TypeKind::ClassStatic(_) => {
                let m = self.members(t);
                m.props.is_empty()
                    && m.calls.is_empty()
                    && m.constructs.is_empty()
                    && m.string_index.is_none()
                    && m.number_index.is_none()
            }
            TypeKind::Union(ms) => ms.iter().any(|&m| self.is_empty_object_type(m, depth + 1)),
            TypeKind::Intersection(ms) => {
                ms.iter().all(|&m| self.is_empty_object_type(m, depth + 1))
            }
            TypeKind::LazyAlias(..) => {
                let r = self.expand_lazy_target(t);
                r != t && self.is_empty_object_type(r, depth + 1)
            }
            _ => false,
        }
    }

    /// Whether the global `Object` type is `t` or one of its union members.
    fn is_global_object_subset(&mut self, t: TypeId) -> bool {
        let Some(o) = self.globals.object else {
            return false;
        };
        let ot = self.declared_type(o);
        match self.types.kind(t) {
            TypeKind::Union(ms) => ms.contains(&ot),
            _ => t == ot,
        }
    }

    /// TypeScript's `isKnownProperty`: declared by the target (by a member of a union or
    /// intersection), or covered by an index signature. Types this checker approximates
    /// (conditional and mapped types, resolved or not, indexed access, `keyof`) know every
    /// name.
    fn is_known_property(&mut self, t: TypeId, name: &Atom, depth: u32) -> bool {
        if depth > 8 {
            return true;
        }
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) | TypeKind::Intersection(ms) => ms
                .iter()
                .any(|&m| self.is_known_property(m, name, depth + 1)),
            TypeKind::Object(_)
            | TypeKind::Declared(_)
            | TypeKind::Reference(..)
            | TypeKind::Tuple(_)
            | TypeKind::ClassStatic(_) => {
                if self.types.flags(t) & tflags::MAPPED != 0 {
                    return true;
                }
                let m = self.members(t);
                m.props.contains_key(name)
                    || m.string_index.is_some()
                    || (m.number_index.is_some() && name.parse::<f64>().is_ok())
            }
            TypeKind::LazyAlias(..) => {
                let r = self.expand_lazy_target(t);
                r == t || self.is_known_property(r, name, depth + 1)
            }
            TypeKind::Any
            | TypeKind::Unknown
            | TypeKind::Conditional(_)
            | TypeKind::Mapped(_)
            | TypeKind::Indexed(..)
            | TypeKind::Keyof(_) => true,
            _ => false,
        }
    }

    /// The members of a union target that the message names: those that are excess
    /// property check targets (`Point | undefined` names `Point`).
    fn excess_error_target(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                let kept: Vec<TypeId> = ms
                    .iter()
                    .copied()
                    .filter(|&m| self.is_excess_check_target(m, 0))
                    .collect();
                self.types.union(&kept)
            }
            _ => t,
        }
    }

    /// A union without its primitive members when it has `object` among them (TypeScript's
    /// `filterPrimitivesIfContainsNonPrimitive`).
    fn without_primitives_if_non_primitive(&mut self, t: TypeId) -> TypeId {
        let TypeKind::Union(ms) = self.types.kind(t).clone() else {
            return t;
        };
        if !ms.contains(&ids::OBJECT) {
            return t;
        }
        let kept: Vec<TypeId> = ms
            .iter()
            .copied()
            .filter(|&m| !self.types.is_primitive(m))
            .collect();
        self.types.union(&kept)
    }

    /// A unit type, or a union of them (what makes a property a discriminant).
    fn is_unit_like(&self, t: TypeId) -> bool {
        match self.types.kind(t) {
            TypeKind::Boolean | TypeKind::Void => true,
            TypeKind::Union(ms) => ms.iter().all(|&m| self.is_unit_like(m)),
            _ => self.types.is_unit(t),
        }
    }

    /// The members of the union `t` that the literal's discriminant properties select
    /// (TypeScript's `findMatchingDiscriminantType`), when they rule some out. A property is
    /// a discriminant when the members that have it give it different types, one of them a
    /// unit type.
    fn discriminated_target(&mut self, s: TypeId, t: TypeId) -> Option<TypeId> {
        let TypeKind::Union(ms) = self.types.kind(t).clone() else {
            return None;
        };
        // 0: excluded, 1: included, 2: undecided for this discriminant.
        let mut include: Vec<u8> = ms
            .iter()
            .map(|&m| u8::from(!self.types.is_primitive(m)))
            .collect();
        let sm = self.members(s);
        for name in &sm.order {
            let prop_types: Vec<Option<TypeId>> = ms
                .iter()
                .map(|&m| {
                    if self.types.is_primitive(m) {
                        None
                    } else {
                        self.property_in(m, name, 0)
                    }
                })
                .collect();
            let present: Vec<TypeId> = prop_types.iter().flatten().copied().collect();
            let discriminant = present.iter().any(|&p| self.is_unit_like(p))
                && present.iter().any(|&p| p != present[0])
                && !present.iter().any(|&p| self.types.is_generic(p));
            if !discriminant {
                continue;
            }
            let st = self.prop_ty(&sm.props[name]);
            let sources: Vec<TypeId> = match self.types.kind(st) {
                TypeKind::Union(xs) => xs.to_vec(),
                _ => vec![st],
            };
            let mut matched = false;
            for (i, pt) in prop_types.iter().enumerate() {
                if include[i] == 0 {
                    continue;
                }
                let hit = match *pt {
                    Some(pt) => sources.iter().any(|&x| self.is_assignable(x, pt)),
                    None => false,
                };
                if hit {
                    matched = true;
                } else {
                    include[i] = 2;
                }
            }
            for inc in include.iter_mut() {
                if *inc == 2 {
                    *inc = u8::from(!matched);
                }
            }
        }
        if !include.contains(&0) {
            return None;
        }
        let kept: Vec<TypeId> = ms
            .iter()
            .zip(&include)
            .filter(|(_, inc)| **inc != 0)
            .map(|(&m, _)| m)
            .collect();
        let u = self.types.union(&kept);
        (u != ids::NEVER).then_some(u)
    }

    /// TypeScript's `getTypeOfPropertyInTypes`: the union of the property's type in each
    /// type (an applicable index signature's, else `undefined`).
    fn type_of_property_in_types(&mut self, types: &[TypeId], name: &Atom) -> TypeId {
        let mut out = Vec::with_capacity(types.len());
        for &t in types {
            out.push(self.property_in(t, name, 0).unwrap_or(ids::UNDEFINED));
        }
        self.types.union(&out)
    }

    /// The type of property `name` in `t`, where unions nested in intersections (which
    /// TypeScript would have distributed: `A & (B | C)` is `A & B | A & C`) give the
    /// union of the types of the members that have it.
    fn property_in(&mut self, t: TypeId, name: &Atom, depth: u32) -> Option<TypeId> {
        if depth > 8 {
            return self.property_type(t, name);
        }
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                let found: Vec<TypeId> = ms
                    .iter()
                    .filter_map(|&m| self.property_in(m, name, depth + 1))
                    .collect();
                (!found.is_empty()).then(|| self.types.union(&found))
            }
            TypeKind::Intersection(ms) => {
                let found: Vec<TypeId> = ms
                    .iter()
                    .filter_map(|&m| self.property_in(m, name, depth + 1))
                    .collect();
                (!found.is_empty()).then(|| self.intersection(&found))
            }
            // Declared members and index signatures only: `Object`'s members are not
            // properties of the type (`constructor` of an empty interface).
            TypeKind::Object(_)
            | TypeKind::Declared(_)
            | TypeKind::Reference(..)
            | TypeKind::Tuple(_)
            | TypeKind::ClassStatic(_) => self.declared_property_type(t, name),
            _ => self.property_type(t, name),
        }
    }
}
