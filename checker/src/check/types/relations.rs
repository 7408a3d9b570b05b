//! Relations: assignability, structural comparison of members and signatures, with the
//! checker's relation cache (assumed related while in progress).

use crate::check::Checker;
use crate::check::types::limits::{self, Sides};
use crate::types::{Signature, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// Whether `s` is assignable to `t`, structurally, with the checker's relation cache: a
    /// relation of its own, as `checkTypeRelatedToEx` takes a fresh relater. Asked while a
    /// relation is in progress (a conditional type's extends check, overload resolution,
    /// inference or assignability during lazy member resolution), it does not push onto
    /// that relation's stacks, read what it settled inside, meet its assumptions or spend
    /// its budget ([`Checker::in_new_relation`]); the relation's own steps use
    /// [`Checker::is_related`].
    pub fn is_assignable(&mut self, s: TypeId, t: TypeId) -> bool {
        if self.relation_in_progress() {
            self.in_new_relation(|c| c.is_related(s, t))
        } else {
            self.is_related(s, t)
        }
    }

    /// One step of the relation in progress (or the outermost one) into both types'
    /// structure: `s` related to `t`.
    pub(super) fn is_related(&mut self, s: TypeId, t: TypeId) -> bool {
        self.relate(s, t, Sides::Both)
    }

    /// `s` related to `t`, a step that took apart `sides` of the relation in progress
    /// (see [`Checker::enter_relation`]).
    fn relate(&mut self, s: TypeId, t: TypeId, sides: Sides) -> bool {
        // A fresh literal type and its regular type are the same type to every relation.
        let (s, t) = (self.types.regular_literal(s), self.types.regular_literal(t));
        if s == t
            || t == ids::ANY
            || t == ids::UNKNOWN
            || t == ids::ERROR
            || s == ids::ANY
            || s == ids::ERROR
            || s == ids::NEVER
        {
            return true;
        }
        if let Some(r) = self.cached_relation(s, t) {
            self.cached_relation_unreliable(s, t);
            if !r && !self.relation_in_progress() {
                self.overflowed_relation(s, t);
            }
            return r;
        }
        let step = if self.relating.contains(&(s, t)) {
            limits::RelationStep::Maybe
        } else {
            self.enter_relation(s, t, sides)
        };
        match step {
            // Assumed related while in progress (or maybe related at a relation limit);
            // results that lean on the assumption are cached only once the outermost
            // relation is settled, so the cache never depends on the order in which
            // relations were asked.
            limits::RelationStep::Maybe => {
                self.assumed = true;
                return true;
            }
            limits::RelationStep::Overflow => return false,
            limits::RelationStep::Compare => {}
        }
        self.relating.insert((s, t));
        let mut scope = self.cache_scope();
        let r = scope.structured_assignable(s, t);
        let met = scope.met();
        if met.unreliable {
            scope.note_unreliable_pair(s, t);
        }
        // Property types met through a value placeholder, or instantiations past the depth
        // limit (signatures instantiated in context): not cached for good.
        let clean = !met.leaned && !met.tainted;
        let leaned = met.assumed;
        let outermost = scope.finish_relation(s, t, r && leaned && clean);
        if clean && (!r || !leaned || outermost) {
            scope.cache_relation(s, t, r, outermost);
        }
        // The outermost relation that leaned on the assumption settles it.
        scope.assumed = leaned && r && !outermost;
        r
    }

    pub(super) fn structured_assignable(&mut self, s: TypeId, t: TypeId) -> bool {
        if self.is_fresh(s)
            && let Some(r) = self.fresh_literal_related(s, t)
        {
            return r;
        }
        self.note_unreliable(s, t);
        if let Some(r) = self.related_by_variance(s, t) {
            return r;
        }
        let sk = self.types.kind(s).clone();
        let tk = self.types.kind(t).clone();
        match (&sk, &tk) {
            (TypeKind::Union(ms), _) => {
                return ms.iter().all(|&m| self.relate(m, t, Sides::Source));
            }
            // A deferred conditional type relates through its constraint (both branches);
            // as a target it is taken to be related (TypeScript relates it only to an
            // identical or similar conditional type; leniency keeps false positives down).
            (TypeKind::Conditional(_), _) => {
                let c = self.conditional_constraint(s);
                return c != s && self.relate(c, t, Sides::Source);
            }
            // A concrete source must at least fit one branch.
            (_, TypeKind::Conditional(c)) => {
                if self.types.is_generic(s) {
                    return true;
                }
                let (a, b) = self.conditional_branches(c);
                return self.relate(s, a, Sides::Target) || self.relate(s, b, Sides::Target);
            }
            (_, TypeKind::Mapped(_)) => return true,
            (_, TypeKind::Union(ms)) => {
                if ms.iter().any(|&m| self.relate(s, m, Sides::Target)) {
                    return true;
                }
                if let TypeKind::Boolean = sk {
                    return ms.contains(&ids::TRUE) && ms.contains(&ids::FALSE);
                }
                return false;
            }
            (_, TypeKind::Intersection(ms)) => {
                return ms.iter().all(|&m| self.relate(s, m, Sides::Target));
            }
            (TypeKind::Intersection(ms), _)
                if ms.iter().any(|&m| self.relate(m, t, Sides::Source)) =>
            {
                return true;
            }
            (TypeKind::LazyAlias(a, args), _) => {
                let r = self.type_reference(*a, args.to_vec());
                return r == s || self.relate(r, t, Sides::Source);
            }
            (_, TypeKind::LazyAlias(a, args)) => {
                let r = self.type_reference(*a, args.to_vec());
                return r == t || self.relate(s, r, Sides::Target);
            }
            _ => {}
        }
        use TypeKind as K;
        match (&sk, &tk) {
            (K::Undefined, K::Void) => true,
            (K::Undefined | K::Null, _) => false,
            (_, K::Undefined | K::Null | K::Void | K::Never) => false,
            (K::StringLit(_), K::String)
            | (K::NumberLit(_), K::Number)
            | (K::BoolLit(_), K::Boolean)
            | (K::BigIntLit(_), K::BigInt) => true,
            (K::StringLit(a), K::StringLit(b)) => a == b,
            (K::NumberLit(a), K::NumberLit(b)) => a == b,
            // String enums relate to `string`, numeric ones to `number` (both ways), as
            // their members' values say.
            (K::EnumLiteral(m), K::String) => self.enum_member_is_string(*m),
            (K::Enum(e), K::String) => self.enum_is_string(*e),
            (K::EnumLiteral(m), K::Number) => !self.enum_member_is_string(*m),
            (K::Enum(e), K::Number) => !self.enum_is_string(*e),
            (K::NumberLit(_) | K::Number, K::Enum(e)) => !self.enum_is_string(*e),
            (K::EnumLiteral(m), K::Enum(e)) => {
                self.bound.symbol(*e).exports.values().any(|x| x == m)
            }
            (K::EnumLiteral(_), K::EnumLiteral(_)) | (K::Enum(_), K::Enum(_)) => false,
            (
                K::String | K::Number | K::Boolean | K::BigInt | K::EsSymbol,
                K::String | K::Number | K::Boolean | K::BigInt | K::EsSymbol,
            ) => false,
            (
                _,
                K::StringLit(_)
                | K::NumberLit(_)
                | K::BoolLit(_)
                | K::BigIntLit(_)
                | K::EnumLiteral(_)
                | K::Enum(_),
            ) => false,
            (_, K::String | K::Number | K::Boolean | K::BigInt | K::EsSymbol) => false,
            (
                K::String
                | K::Number
                | K::Boolean
                | K::BigInt
                | K::EsSymbol
                | K::StringLit(_)
                | K::NumberLit(_)
                | K::BoolLit(_)
                | K::BigIntLit(_),
                K::NonPrimitive,
            ) => false,
            (_, K::NonPrimitive) => true,
            (K::TypeParam(p), _) => match self.constraint_of(*p) {
                Some(c) if c != s => self.relate(c, t, Sides::Source),
                _ => false,
            },
            (_, K::TypeParam(_)) => false,
            (K::Keyof(_) | K::Indexed(..), _) | (_, K::Keyof(_) | K::Indexed(..)) => true,
            (K::Tuple(se), K::Tuple(te)) => match self.tuple_related(se, te) {
                Some(r) => r,
                None => self.structural(s, t),
            },
            _ => self.structural(s, t),
        }
    }

    /// Tuple `se` related to tuple `te` element by element where either has a spread, as
    /// TypeScript relates tuples: the target's leading and trailing elements from the
    /// source's, and the target's rest element type from every source element between
    /// them. `None` (relate their members) for two tuples without spreads, or a target
    /// with a variadic `...T` or more than one spread.
    fn tuple_related(&mut self, se: &[TypeId], te: &[TypeId]) -> Option<bool> {
        let is_spread = |c: &Self, e: TypeId| matches!(c.types.kind(e), TypeKind::Spread(_));
        let spreads = te.iter().filter(|&&e| is_spread(self, e)).count();
        if spreads == 0 {
            // A source that may have any length is not a fixed-length tuple.
            return se.iter().any(|&e| is_spread(self, e)).then_some(false);
        }
        let lead = self.fixed_elements(te);
        if spreads > 1 || self.types.is_generic(te[lead]) {
            return None;
        }
        let trail = te.len() - lead - 1;
        let rest = self.tuple_element(te[lead]);
        let s_lead = self.fixed_elements(se);
        let s_trail = se
            .iter()
            .rev()
            .take_while(|&&e| !is_spread(self, e))
            .count();
        if s_lead < lead || s_trail < trail || se.len() < lead + trail {
            return Some(false);
        }
        let end = se.len() - trail;
        for i in 0..lead {
            if !self.is_related(se[i], te[i]) {
                return Some(false);
            }
        }
        for j in 0..trail {
            if !self.is_related(se[end + j], te[lead + 1 + j]) {
                return Some(false);
            }
        }
        for &e in &se[lead..end] {
            let e = self.tuple_element(e);
            if !self.is_related(e, rest) {
                return Some(false);
            }
        }
        Some(true)
    }

    pub(super) fn structural(&mut self, s: TypeId, t: TypeId) -> bool {
        let tm = self.members(t);
        let sm = self.members(s);
        for name in &tm.order {
            let tp = &tm.props[name];
            match sm.props.get(name) {
                Some(sp) => {
                    // An optional property does not fill a required one.
                    if sp.optional && !tp.optional {
                        return false;
                    }
                    let (sty, mut tty) = (self.prop_ty(sp), self.prop_ty(tp));
                    if tp.optional {
                        // An optional property also takes `undefined` (TypeScript without
                        // `exactOptionalPropertyTypes`).
                        tty = self.types.union(&[tty, ids::UNDEFINED]);
                    }
                    if !self.is_related(sty, tty) {
                        return false;
                    }
                }
                None => {
                    if tp.optional {
                        continue;
                    }
                    // A function's or any object's members from its apparent type (the
                    // global `Function` or `Object`) fill it; an index signature does not
                    // (TypeScript: "Property 'a' is missing in type ...").
                    if self.global_apparent_property(s, name).is_none() {
                        return false;
                    }
                }
            }
        }
        if let Some(tsig) = tm.calls.first() {
            let erase = sm.calls.len() != 1 || tm.calls.len() != 1;
            let ok = sm
                .calls
                .iter()
                .any(|ss| self.signature_related(ss, tsig, erase));
            if !(ok || sm.calls.is_empty() && matches!(self.types.kind(s), TypeKind::Any)) {
                return false;
            }
        }
        if let Some(tsig) = tm.constructs.first()
            && !sm.constructs.iter().any(|ss| {
                let erase = sm.constructs.len() != 1 || tm.constructs.len() != 1;
                self.signature_related(ss, tsig, erase)
            })
        {
            return false;
        }
        if let Some(ti) = tm.string_index
            && sm.string_index.is_none()
        {
            let names = sm.order.clone();
            for n in names {
                let pt = self.prop_ty(&sm.props[&n]);
                if !self.is_related(pt, ti) {
                    return false;
                }
            }
        }
        true
    }

    /// Two signatures compared as plain ones (a generic source is first instantiated in
    /// the target's context by `signature_related`; a target's own type parameters stay as
    /// they are).
    pub(super) fn signature_assignable(&mut self, s: &Signature, t: &Signature) -> bool {
        if self.measuring() {
            return self.signature_related_measuring(s, t, false);
        }
        if s.min_args > t.params.len() && !t.rest {
            return false;
        }
        // Parameters pair up by position, a rest parameter giving its element (or tuple
        // element) type to every position from its own.
        let n = s.params.len().max(t.params.len());
        for i in 0..n {
            let (Some(sp), Some(tp)) = (self.param_at(s, i), self.param_at(t, i)) else {
                continue;
            };
            // Parameters are compared bivariantly, as TypeScript does for methods.
            if !self.is_related(tp, sp) && !self.is_related(sp, tp) {
                return false;
            }
        }
        if let Some(related) = self.predicate_related(s, t) {
            return related;
        }
        t.ret == ids::VOID || self.is_related(s.ret, t.ret)
    }
}
