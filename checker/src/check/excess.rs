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
//! Reporting (`TS2353`, or `TS2561` with a spelling suggestion) follows the syntax of the
//! expression whose relation failed, as TypeScript's error elaboration does: at the name
//! of the first excess property, in the literal itself or in object and array literals
//! nested in it (property values, array elements, conditional branches).
use swc_atoms::Atom;
use swc_ecma_ast::*;

use super::widening::MAX_FRESH_DEPTH;
use super::{Checker, node_key};
use crate::diag::Code;
use crate::syntax;
use crate::syntax::expr_lo;
use crate::types::{LITERAL_MEMBER, TypeId, TypeKind, ids, tflags};

/// What the excess property check found.
pub(super) enum Excess {
    None,
    /// A written property the target does not know, and the type the message names.
    Property(Atom, TypeId),
    /// A written property whose type does not relate to the union of its types in the
    /// (narrowed) union target, and that union.
    Nested(Atom, TypeId),
}

/// `e` without the parentheses around it.
fn skip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => skip_parens(&p.expr),
        _ => e,
    }
}

/// The name a written object literal member declares, and its position; `ident` when the
/// name is an identifier (only those get a spelling suggestion).
fn member_name(p: &Prop) -> Option<(Atom, u32, bool)> {
    let key = |k: &PropName| {
        syntax::prop_name(k).map(|n| {
            let lo = match k {
                PropName::Ident(i) => i.span.lo.0,
                PropName::Str(s) => s.span.lo.0,
                PropName::Num(n) => n.span.lo.0,
                PropName::Computed(c) => c.span.lo.0,
                PropName::BigInt(b) => b.span.lo.0,
            };
            (n, lo, matches!(k, PropName::Ident(_)))
        })
    };
    match p {
        Prop::Shorthand(i) => Some((i.sym.clone(), i.span.lo.0, true)),
        Prop::Assign(a) => Some((a.key.sym.clone(), a.key.span.lo.0, true)),
        Prop::KeyValue(kv) => key(&kv.key),
        Prop::Getter(g) => key(&g.key),
        Prop::Setter(s) => key(&s.key),
        Prop::Method(m) => key(&m.key),
    }
}

/// A property name as TypeScript's `symbolToString` writes it: quoted unless it is an
/// identifier or a number.
fn shown_name(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if ident || name.parse::<f64>().is_ok() {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// The edit distance TypeScript's spelling suggestions use (`levenshteinWithMax`): a
/// substitution that only changes case costs 0.1, others 2, insertions and deletions 1;
/// `None` when it exceeds `max`.
fn levenshtein_with_max(a: &[char], b: &[char], max: f64) -> Option<f64> {
    let big = max + 0.01;
    let mut previous: Vec<f64> = (0..=b.len()).map(|i| i as f64).collect();
    let mut current = vec![0.0; b.len() + 1];
    for i in 1..=a.len() {
        let c1 = a[i - 1];
        let min_j = if (i as f64) > max {
            (i as f64 - max).ceil() as usize
        } else {
            1
        };
        let max_j = if (b.len() as f64) > max + i as f64 {
            (max + i as f64).floor() as usize
        } else {
            b.len()
        };
        current[0] = i as f64;
        let mut col_min = i as f64;
        for c in current.iter_mut().take(min_j).skip(1) {
            *c = big;
        }
        for j in min_j..=max_j {
            let c2 = b[j - 1];
            let substitution = if c1.to_lowercase().eq(c2.to_lowercase()) {
                previous[j - 1] + 0.1
            } else {
                previous[j - 1] + 2.0
            };
            let dist = if c1 == c2 {
                previous[j - 1]
            } else {
                (previous[j] + 1.0)
                    .min(current[j - 1] + 1.0)
                    .min(substitution)
            };
            current[j] = dist;
            col_min = col_min.min(dist);
        }
        for c in current.iter_mut().skip(max_j + 1) {
            *c = big;
        }
        if col_min > max {
            return None;
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let r = previous[b.len()];
    (r <= max).then_some(r)
}

/// TypeScript's `getSpellingSuggestion`: the closest candidate within a distance that
/// grows with the name's length; names under 3 characters only when they differ by case.
fn spelling_suggestion<'n>(name: &str, candidates: &'n [Atom]) -> Option<&'n Atom> {
    let chars: Vec<char> = name.chars().collect();
    let len = chars.len();
    let max_length_difference = 2.max((len as f64 * 0.34).floor() as usize);
    let mut best_distance = (len as f64 * 0.4).floor() + 1.0;
    let mut best = None;
    for c in candidates {
        let cs: Vec<char> = c.chars().collect();
        if cs.len().abs_diff(len) > max_length_difference || c.as_str() == name {
            continue;
        }
        if cs.len() < 3 && c.to_lowercase() != name.to_lowercase() {
            continue;
        }
        if let Some(d) = levenshtein_with_max(&chars, &cs, best_distance - 0.1) {
            best_distance = d;
            best = Some(c);
        }
    }
    best
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
    pub(super) fn excess_property(&mut self, s: TypeId, t: TypeId) -> Excess {
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

    /// The names a suggestion may offer: the properties of the type the message names (of
    /// every member, for a union).
    fn suggestion_candidates(&mut self, t: TypeId) -> Vec<Atom> {
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                let mut names: Option<Vec<Atom>> = None;
                for &m in ms.iter() {
                    let mm = self.members(m);
                    names = Some(match names {
                        None => mm.order.clone(),
                        Some(ns) => ns
                            .into_iter()
                            .filter(|n| mm.props.contains_key(n))
                            .collect(),
                    });
                }
                names.unwrap_or_default()
            }
            _ => self.members(t).order.clone(),
        }
    }

    /// The type the checker gave expression `e` in this walk.
    fn checked_type(&self, file: u32, e: &Expr) -> Option<TypeId> {
        self.node_links
            .get(&node_key(file, expr_lo(e)))
            .map(|l| l.resolved_type)
    }

    /// Checks that `source`, the type of expression `e`, is assignable to `target`
    /// (TypeScript's `checkTypeAssignableToAndOptionallyElaborate`): when it is not, reports
    /// the excess property that explains it, else `TS2322` at `pos`.
    pub(super) fn check_assignable_to(
        &mut self,
        file: u32,
        e: &'a Expr,
        source: TypeId,
        target: TypeId,
        pos: u32,
    ) {
        if !self.is_assignable(source, target) && !self.report_excess(file, e, target) {
            let msg = self.not_assignable(source, target);
            self.report(file, pos, Code::NotAssignable, msg);
        }
    }

    /// Reports the excess properties that make expression `e` (whose relation to `target`
    /// failed) not assignable, as TypeScript's elaboration finds them: at the first excess
    /// property of a fresh literal, else in the literals nested in it. `true` when it
    /// reported (the caller then reports nothing else).
    pub(super) fn report_excess(&mut self, file: u32, e: &'a Expr, target: TypeId) -> bool {
        self.report_excess_at(file, e, target, 0)
    }

    fn report_excess_at(&mut self, file: u32, e: &'a Expr, target: TypeId, depth: u32) -> bool {
        if depth > MAX_FRESH_DEPTH {
            return false;
        }
        let e = skip_parens(e);
        match e {
            Expr::Object(o) => {
                let Some(s) = self.checked_type(file, e).filter(|&s| self.is_fresh(s)) else {
                    return false;
                };
                match self.excess_property(s, target) {
                    Excess::Property(name, shown) => {
                        let Some((lo, ident)) = o.props.iter().find_map(|p| match p {
                            PropOrSpread::Prop(p) => member_name(p)
                                .filter(|(n, ..)| *n == name)
                                .map(|(_, lo, ident)| (lo, ident)),
                            PropOrSpread::Spread(_) => None,
                        }) else {
                            return false;
                        };
                        let suggestion = if ident {
                            let candidates = self.suggestion_candidates(shown);
                            spelling_suggestion(&name, &candidates).cloned()
                        } else {
                            None
                        };
                        let ty = self.type_to_string(shown);
                        let prop = shown_name(&name);
                        match suggestion {
                            Some(sugg) => self.report(
                                file,
                                lo,
                                Code::ExcessPropertySuggestion,
                                format!(
                                    "Object literal may only specify known properties, but '{prop}' does not exist in type '{ty}'. Did you mean to write '{sugg}'?"
                                ),
                            ),
                            None => self.report(
                                file,
                                lo,
                                Code::ExcessProperty,
                                format!(
                                    "Object literal may only specify known properties, and '{prop}' does not exist in type '{ty}'."
                                ),
                            ),
                        }
                        true
                    }
                    Excess::Nested(name, nested) => {
                        match o.props.iter().find_map(|p| match p {
                            PropOrSpread::Prop(p) => match &**p {
                                Prop::KeyValue(kv)
                                    if syntax::prop_name(&kv.key) == Some(name.clone()) =>
                                {
                                    Some(&*kv.value)
                                }
                                _ => None,
                            },
                            PropOrSpread::Spread(_) => None,
                        }) {
                            Some(v) => self.report_excess_at(file, v, nested, depth + 1),
                            None => false,
                        }
                    }
                    Excess::None => {
                        let mut reported = false;
                        for p in &o.props {
                            let PropOrSpread::Prop(p) = p else { continue };
                            let Prop::KeyValue(kv) = &**p else { continue };
                            let v = skip_parens(&kv.value);
                            if !matches!(v, Expr::Object(_) | Expr::Array(_) | Expr::Cond(_)) {
                                continue;
                            }
                            let Some(name) = syntax::prop_name(&kv.key) else {
                                continue;
                            };
                            let Some(tp) = self.property_type(target, &name) else {
                                continue;
                            };
                            reported |= self.report_failed(file, v, tp, depth);
                        }
                        reported
                    }
                }
            }
            Expr::Array(a) => {
                let target = self.types.non_nullable(target);
                let tuple = match self.types.kind(target).clone() {
                    TypeKind::Tuple(es) => Some(es),
                    _ => None,
                };
                let element = match &tuple {
                    Some(_) => None,
                    None => match self.types.kind(target).clone() {
                        TypeKind::Reference(s, _)
                            if Some(s) == self.globals.array
                                || self.bound.symbol(s).name.as_str() == "ReadonlyArray" =>
                        {
                            Some(self.element_type(target))
                        }
                        _ => None,
                    },
                };
                let mut reported = false;
                for (i, el) in a.elems.iter().enumerate() {
                    let Some(el) = el else { continue };
                    if el.spread.is_some() {
                        continue;
                    }
                    let et = match (&tuple, element) {
                        (Some(es), _) => es.get(i).copied(),
                        (None, Some(e)) => Some(e),
                        _ => None,
                    };
                    if let Some(et) = et {
                        reported |= self.report_failed(file, &el.expr, et, depth);
                    }
                }
                reported
            }
            Expr::Cond(c) => {
                self.report_failed(file, &c.cons, target, depth)
                    || self.report_failed(file, &c.alt, target, depth)
            }
            _ => false,
        }
    }

    /// Reports within the nested literal `e` when its own relation to `target` fails.
    fn report_failed(&mut self, file: u32, e: &'a Expr, target: TypeId, depth: u32) -> bool {
        let e = skip_parens(e);
        if !matches!(e, Expr::Object(_) | Expr::Array(_) | Expr::Cond(_)) {
            return false;
        }
        let Some(t) = self.checked_type(file, e) else {
            return false;
        };
        !self.is_assignable(t, target) && self.report_excess_at(file, e, target, depth + 1)
    }
}
