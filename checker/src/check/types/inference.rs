//! Inference of type arguments from argument types: through unions, references, members
//! and signatures; inferred type arguments kept within their constraints.
use rustc_hash::FxHashMap;
use swc_atoms::Atom;

use crate::check::Checker;
use crate::types::{Mapper, Signature, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    pub(in crate::check) fn infer_from(
        &mut self,
        p: TypeId,
        a: TypeId,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        if depth > 8 || !self.types.is_generic(p) || a == ids::ERROR {
            return;
        }
        let a = self.expand_lazy(a);
        if a == ids::ANY {
            if tps.contains(&p) {
                out.entry(p).or_default().push(ids::ANY);
            }
            return;
        }
        match (self.types.kind(p).clone(), self.types.kind(a).clone()) {
            (TypeKind::TypeParam(_), _) if tps.contains(&p) => {
                out.entry(p).or_default().push(a);
            }
            (TypeKind::Union(ps), _) if ps.iter().filter(|x| tps.contains(x)).count() == 1 => {
                let naked = *ps.iter().find(|x| tps.contains(x)).unwrap_or(&p);
                self.infer_to_union(&ps, naked, a, tps, out, depth);
            }
            (TypeKind::Union(ps), _) | (TypeKind::Intersection(ps), _) => {
                for x in ps.iter() {
                    self.infer_from(*x, a, tps, out, depth + 1);
                }
            }
            // From each member of a union source.
            (_, TypeKind::Union(as_)) => {
                for y in as_.iter() {
                    self.infer_from(p, *y, tps, out, depth + 1);
                }
            }
            (TypeKind::Reference(ps, pa), TypeKind::Reference(as_, aa)) if ps == as_ => {
                for (x, y) in pa.iter().zip(aa.iter()) {
                    self.infer_from(*x, *y, tps, out, depth + 1);
                }
            }
            (TypeKind::Reference(_, pa), TypeKind::Tuple(_))
                if pa.len() == 1 && self.tuple_infers_to(p) =>
            {
                let e = self.element_type(a);
                self.infer_from(pa[0], e, tps, out, depth + 1);
            }
            (TypeKind::Tuple(ps), TypeKind::Tuple(es)) => {
                self.infer_from_tuple(&ps, &es, tps, out, depth);
            }
            (TypeKind::Tuple(ps), TypeKind::Reference(s, aa))
                if Some(s) == self.globals.array && aa.len() == 1 =>
            {
                for &x in ps.iter() {
                    // `...R` takes the array itself, an element its element type.
                    match self.types.kind(x) {
                        TypeKind::Spread(r) => self.infer_from(*r, a, tps, out, depth + 1),
                        _ => self.infer_from(x, aa[0], tps, out, depth + 1),
                    }
                }
            }
            // A homomorphic mapped type over an inferred `T` (`Partial<T>`): `T` is about
            // the argument itself (TypeScript reverses the mapping; this keeps it).
            (TypeKind::Mapped(mt), _) => {
                if let Some(h) = mt.root.homomorphic {
                    let h = self.inst_opt(h, mt.mapper.as_deref());
                    if tps.contains(&h) {
                        out.entry(h).or_default().push(a);
                    }
                }
            }
            (TypeKind::Object(_), _) => self.infer_from_members(p, a, tps, out, depth),
            // A generic reference against another object type: member by member, as
            // TypeScript's inferFromObjectTypes (`Set<string>` to `Iterable<T>` through
            // `[Symbol.iterator]`).
            (
                TypeKind::Reference(..),
                TypeKind::Object(_)
                | TypeKind::Declared(_)
                | TypeKind::Reference(..)
                | TypeKind::ClassStatic(_)
                | TypeKind::Intersection(_),
            ) => self.infer_from_members(p, a, tps, out, depth),
            _ => {}
        }
    }

    /// Inference from the members of `a` to those of `p`: properties, call and construct
    /// signatures, the index signatures.
    pub(super) fn infer_from_members(
        &mut self,
        p: TypeId,
        a: TypeId,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        let po = self.members(p);
        let am = self.members(a);
        for name in &po.order {
            if let Some(ap) = am.props.get(name) {
                let (x, y) = (self.prop_ty(&po.props[name]), self.prop_ty(ap));
                self.infer_from(x, y, tps, out, depth + 1);
            }
        }
        for (ps, as_) in [(&po.calls, &am.calls), (&po.constructs, &am.constructs)] {
            // TypeScript infers from the last overload.
            let source = if self.cond_infer > 0 {
                as_.last()
            } else {
                as_.first()
            };
            if let (Some(ps), Some(as_)) = (ps.first(), source) {
                let (ps, as_) = (ps.clone(), as_.clone());
                self.infer_from_signature(&ps, &as_, tps, out, depth);
            }
        }
        // Index signatures, as TypeScript's `inferFromIndexTypes`: a string index from the
        // source's string index, else from every property (its implicit index); a number
        // index from the source's number index, else its string index, else from its
        // numeric-named properties. Only an anonymous object type without signatures (an
        // object or type literal) has an implicit index (`isObjectTypeWithInferableIndex`),
        // not an array, class or interface.
        let inferable = matches!(self.types.kind(a), TypeKind::Object(_))
            && am.calls.is_empty()
            && am.constructs.is_empty();
        let every: fn(&Atom) -> bool = |_| true;
        let numeric: fn(&Atom) -> bool = |n| n.parse::<f64>().is_ok();
        let indexes = [
            (po.string_index, am.string_index, every),
            (
                po.number_index,
                am.number_index.or(am.string_index),
                numeric,
            ),
        ];
        for (target, source, implicit) in indexes {
            let Some(pi) = target else { continue };
            if let Some(ai) = source {
                self.infer_from(pi, ai, tps, out, depth + 1);
            } else if inferable {
                for name in am.order.iter().filter(|n| implicit(n)) {
                    let y = self.prop_ty(&am.props[name]);
                    self.infer_from(pi, y, tps, out, depth + 1);
                }
            }
        }
    }

    pub(super) fn infer_from_signature(
        &mut self,
        ps: &Signature,
        as_: &Signature,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        // For an `infer`, a generic source signature is erased: its own type parameters
        // become their constraints, or `unknown` (TypeScript's base signature).
        let erased;
        let as_ = if self.cond_infer > 0 && !as_.type_params.is_empty() {
            let tp = as_.type_params.clone();
            let args: Vec<TypeId> = tp
                .iter()
                .map(|&x| self.infer_param_default(x, None, ids::UNKNOWN))
                .collect();
            let m = Mapper::new(&self.types, &tp, &args);
            erased = self.instantiate_signature(as_, &m);
            &erased
        } else {
            as_
        };
        let n = ps.params.len();
        for (i, x) in ps.params.iter().enumerate() {
            if ps.rest && i + 1 == n && tps.contains(&x.ty) {
                // `...args: infer P` takes the remaining parameters as a tuple.
                let rest = if as_.rest && i + 1 == as_.params.len() {
                    as_.params[i].ty
                } else {
                    let fixed = if as_.rest {
                        as_.params.len().saturating_sub(1)
                    } else {
                        as_.params.len()
                    };
                    let es: Box<[TypeId]> = as_
                        .params
                        .iter()
                        .take(fixed)
                        .skip(i)
                        .map(|q| q.ty)
                        .collect();
                    self.types.tuple(es)
                };
                out.entry(x.ty).or_default().push(rest);
                break;
            }
            match as_.params.get(i) {
                Some(y) => self.infer_from(x.ty, y.ty, tps, out, depth + 1),
                None => break,
            }
        }
        self.infer_from_predicate(ps, as_, tps, out, depth);
        self.infer_from(ps.ret, as_.ret, tps, out, depth + 1);
    }

    /// Inference from `a` to a union `ps` with exactly one naked type parameter being
    /// inferred, `naked` (TypeScript's inferToMultipleTypes after inferFromMatchingTypes):
    /// a constituent of `a` that is also one of `ps` is matched as it is; each other one is
    /// inferred to the members that are not `naked`, and those that none of them took go
    /// to `naked`. So `T | PromiseLike<T>` from `U | PromiseLike<U>` infers `T` := `U`,
    /// and `T | undefined` from `string | undefined` infers `string`.
    pub(super) fn infer_to_union(
        &mut self,
        ps: &[TypeId],
        naked: TypeId,
        a: TypeId,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        let sources: Vec<TypeId> = match self.types.kind(a) {
            TypeKind::Union(ms) => ms.to_vec(),
            _ => vec![a],
        };
        let count =
            |out: &FxHashMap<TypeId, Vec<TypeId>>| out.values().map(Vec::len).sum::<usize>();
        let mut unmatched = Vec::new();
        for s in sources {
            if ps.contains(&s) || ps.contains(&self.types.regular_literal(s)) {
                continue;
            }
            let before = count(out);
            for &x in ps {
                if x != naked {
                    self.infer_from(x, s, tps, out, depth + 1);
                }
            }
            if count(out) == before {
                unmatched.push(s);
            }
        }
        if !unmatched.is_empty() {
            let u = self.types.union(&unmatched);
            out.entry(naked).or_default().push(u);
        }
    }
    /// Inference from tuple `es` to tuple pattern `ps`: element by element, and where `ps`
    /// has a spread `...R` (`[infer H, ...infer R]`), its leading elements from the first
    /// of `es`, its trailing ones from the last, and `R` from the tuple of what is between.
    fn infer_from_tuple(
        &mut self,
        ps: &[TypeId],
        es: &[TypeId],
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        let Some(k) = ps
            .iter()
            .position(|&x| matches!(self.types.kind(x), TypeKind::Spread(_)))
        else {
            for (&x, &y) in ps.iter().zip(es.iter()) {
                self.infer_from(x, y, tps, out, depth + 1);
            }
            return;
        };
        let trailing = ps.len() - k - 1;
        let fixed = self.fixed_elements(es);
        for (&x, &y) in ps[..k].iter().zip(es[..fixed].iter()) {
            self.infer_from(x, y, tps, out, depth + 1);
        }
        if es.len() < k + trailing || fixed < k {
            return;
        }
        let end = es.len() - trailing;
        if trailing > 0 && self.fixed_elements(&es[end..]) < trailing {
            return;
        }
        for (&x, &y) in ps[k + 1..].iter().zip(es[end..].iter()) {
            self.infer_from(x, y, tps, out, depth + 1);
        }
        if let TypeKind::Spread(r) = self.types.kind(ps[k]).clone() {
            let middle = self.types.tuple(es[k..end].into());
            self.infer_from(r, middle, tps, out, depth + 1);
        }
    }

    /// Whether inference from a tuple to the single type argument of reference `p` reads
    /// the tuple's element types: an array-like reference (a number index signature:
    /// `Array`, `ReadonlyArray`, `ArrayLike`, `ConcatArray`) or `Iterable`. Others
    /// (`PromiseLike<T>`) have members a tuple does not give `T` through.
    pub(super) fn tuple_infers_to(&mut self, p: TypeId) -> bool {
        let TypeKind::Reference(s, _) = *self.types.kind(p) else {
            return false;
        };
        Some(s) == self.globals.array
            || self.bound.symbol(s).name.as_str() == "Iterable"
            || self.members(p).number_index.is_some()
    }

    /// A type this checker relates exactly as TypeScript does: a primitive, a literal,
    /// `object`, `unknown`, or a union of those (not `never`, which stands in for the keys
    /// of a union here, nor enums, whose members relate to literals only approximately).
    pub(in crate::check) fn plain(&self, t: TypeId) -> bool {
        let simple = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::Any
                    | TypeKind::Unknown
                    | TypeKind::Void
                    | TypeKind::Undefined
                    | TypeKind::Null
                    | TypeKind::String
                    | TypeKind::Number
                    | TypeKind::Boolean
                    | TypeKind::BigInt
                    | TypeKind::EsSymbol
                    | TypeKind::NonPrimitive
                    | TypeKind::StringLit(_)
                    | TypeKind::NumberLit(_)
                    | TypeKind::BoolLit(_)
                    | TypeKind::BigIntLit(_)
            )
        };
        match self.types.kind(t) {
            TypeKind::Union(ms) => ms.iter().all(|&m| simple(self.types.kind(m))),
            k => simple(k),
        }
    }

    /// As TypeScript's getInferredType: an inferred type argument that does not satisfy
    /// its constraint (instantiated with the other inferences) becomes that constraint.
    /// Only decided where both are free of type parameters.
    pub(in crate::check) fn inferred_within_constraints(
        &mut self,
        tps: &[TypeId],
        inferred: Vec<TypeId>,
    ) -> Vec<TypeId> {
        let mut out = inferred.clone();
        let m = Mapper::new(&self.types, tps, &inferred);
        for (i, &tp) in tps.iter().enumerate() {
            let v = inferred[i];
            if self.types.is_generic(v) {
                continue;
            }
            let TypeKind::TypeParam(p) = *self.types.kind(tp) else {
                continue;
            };
            let Some(c) = self.constraint_of(p) else {
                continue;
            };
            let c = self.instantiate(c, &m);
            // Decided only where this checker relates as TypeScript does (see `plain`).
            if !self.types.is_generic(c)
                && !self.is_assignable(v, c)
                && self.plain(c)
                && self.plain(v)
            {
                out[i] = c;
            }
        }
        out
    }
}
