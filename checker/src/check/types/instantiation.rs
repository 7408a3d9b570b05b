//! Instantiation: mappers, and types, signatures and members under a mapper (cached per
//! type and mapper, bounded in depth).
use std::rc::Rc;

use crate::check::Checker;
use crate::types::{Mapper, ObjectType, Param, PropSymbol, Signature, TypeId, TypeKind, tflags};

impl<'a, 'b> Checker<'a, 'b> {
    /// `t` under `m`, or `t` itself without a mapper.
    pub(super) fn inst_opt(&mut self, t: TypeId, m: Option<&Mapper>) -> TypeId {
        match m {
            Some(m) => self.instantiate(t, m),
            None => t,
        }
    }

    /// `base` with the pairs of `extra` added (replacing what `base` said of them).
    pub(super) fn mapper_with(&self, base: Option<&Mapper>, extra: &[(TypeId, TypeId)]) -> Mapper {
        let mut params = Vec::new();
        let mut args = Vec::new();
        if let Some(b) = base {
            for &(p, a) in &b.pairs {
                if !extra.iter().any(|e| e.0 == p) {
                    params.push(p);
                    args.push(a);
                }
            }
        }
        for &(p, a) in extra {
            params.push(p);
            args.push(a);
        }
        Mapper::new(&self.types, &params, &args)
    }

    /// The mapper of a deferred type's instantiation: its own mapper, then `m`, restricted
    /// to the outer type parameters its declaration mentions (so equal instantiations share
    /// one type and one cache entry).
    pub(super) fn compose_mapper(
        &mut self,
        outer: &[TypeId],
        own: Option<&Mapper>,
        m: &Mapper,
    ) -> Option<Rc<Mapper>> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        for &p in outer {
            let base = own.and_then(|o| o.get(p)).unwrap_or(p);
            let a = self.instantiate(base, m);
            if a != p {
                params.push(p);
                args.push(a);
            }
        }
        if params.is_empty() {
            None
        } else {
            Some(Rc::new(Mapper::new(&self.types, &params, &args)))
        }
    }

    pub(in crate::check) fn instantiate(&mut self, t: TypeId, m: &Mapper) -> TypeId {
        let f = self.types.flags(t);
        if f & (tflags::GENERIC | tflags::OUTER) == 0 || m.pairs.is_empty() {
            return t;
        }
        if m.this_only && f & (tflags::THIS | tflags::OUTER) == 0 {
            return t;
        }
        if let Some(r) = self.instantiate_anonymous(t, m) {
            return r;
        }
        if let Some(r) = self.instantiation_limited() {
            return r;
        }
        if let Some(&r) = self.inst_cache.get(&(t, m.key)) {
            return r;
        }
        self.inst_depth += 1;
        let mut scope = self.cache_scope();
        let r = match scope.types.kind(t).clone() {
            TypeKind::TypeParam(_) => m.get(t).unwrap_or(t),
            TypeKind::Union(ms) => {
                let ts: Vec<TypeId> = ms.iter().map(|&x| scope.instantiate(x, m)).collect();
                scope.types.union(&ts)
            }
            TypeKind::Intersection(ms) => {
                let ts: Vec<TypeId> = ms.iter().map(|&x| scope.instantiate(x, m)).collect();
                scope.intersection(&ts)
            }
            TypeKind::Reference(s, args) => {
                let args: Box<[TypeId]> = args.iter().map(|&x| scope.instantiate(x, m)).collect();
                scope.types.reference(s, args)
            }
            TypeKind::Tuple(es) => {
                let es: Box<[TypeId]> = es.iter().map(|&x| scope.instantiate(x, m)).collect();
                scope.types.tuple(es)
            }
            TypeKind::Spread(x) => {
                // A spread's tuple is spliced into its tuple: an alias deferred there
                // (`[...Rev<R>, H]`) is resolved now, as TypeScript resolves it.
                let mut x = scope.instantiate(x, m);
                if let TypeKind::LazyAlias(a, args) = scope.types.kind(x).clone() {
                    x = scope.type_reference(a, args.to_vec());
                }
                scope.types.spread(x)
            }
            TypeKind::Object(o) => {
                let obj = scope.instantiate_object(&o, m);
                // Only an object type whose structure is not resolved yet (a mapped type's
                // object) comes here (`instantiate_anonymous` takes the others, lazily): its
                // properties are instantiated now, as its flags need them.
                let props: Vec<Rc<PropSymbol>> = obj.props.values().cloned().collect();
                for p in props {
                    scope.prop_ty(&p);
                }
                let origin = scope.types.stable(t) ^ m.stable.rotate_left(17);
                scope.types.object(obj, origin)
            }
            TypeKind::Keyof(x) => {
                let x = scope.instantiate(x, m);
                scope.keyof(x)
            }
            TypeKind::Indexed(o, k) => {
                let o = scope.instantiate(o, m);
                let k = scope.instantiate(k, m);
                scope.indexed_access(o, k)
            }
            TypeKind::LazyAlias(s, args) => {
                let args: Box<[TypeId]> = args.iter().map(|&x| scope.instantiate(x, m)).collect();
                scope.types.lazy_alias(s, args)
            }
            TypeKind::Conditional(c) => {
                let mapper = scope.compose_mapper(&c.root.outer, c.mapper.as_deref(), m);
                scope.conditional_type(&c.root, mapper)
            }
            TypeKind::Mapped(mt) => {
                let mapper = scope.compose_mapper(&mt.root.outer, mt.mapper.as_deref(), m);
                scope.mapped_type(&mt.root, mapper)
            }
            _ => t,
        };
        let met = scope.met();
        drop(scope);
        self.inst_depth -= 1;
        if met.cacheable() {
            self.inst_cache.insert((t, m.key), r);
        }
        r
    }

    pub(in crate::check) fn instantiate_signature(
        &mut self,
        sig: &Signature,
        m: &Mapper,
    ) -> Signature {
        let type_params: Box<[TypeId]> = sig
            .type_params
            .iter()
            .copied()
            .filter(|&p| m.get(p).is_none())
            .collect();
        let outer = if type_params.is_empty() {
            None
        } else {
            Some(self.compose_outer(sig.outer.as_deref(), m))
        };
        let predicate = sig.predicate.map(|(i, t)| (i, self.instantiate(t, m)));
        Signature {
            predicate,
            outer,
            type_params,
            params: sig
                .params
                .iter()
                .map(|p| Param {
                    name: p.name.clone(),
                    ty: self.instantiate(p.ty, m),
                })
                .collect(),
            ret: self.instantiate(sig.ret, m),
            min_args: sig.min_args,
            rest: sig.rest,
            method: sig.method,
        }
    }

    /// The members of `o` instantiated by `m` (see `instantiate_members`).
    pub(super) fn instantiate_object(&mut self, o: &ObjectType, m: &Mapper) -> ObjectType {
        self.instantiate_members(o, m, false)
    }

    /// The instantiation a signature that keeps its own type parameters carries: `outer`
    /// followed by `m`.
    pub(super) fn compose_outer(&mut self, outer: Option<&Mapper>, m: &Mapper) -> Rc<Mapper> {
        let Some(o) = outer else {
            return Rc::new(m.clone());
        };
        let mut params = Vec::with_capacity(o.pairs.len() + m.pairs.len());
        let mut args = Vec::with_capacity(o.pairs.len() + m.pairs.len());
        for &(p, a) in &o.pairs {
            params.push(p);
            args.push(self.instantiate(a, m));
        }
        for &(p, a) in &m.pairs {
            if o.get(p).is_none() {
                params.push(p);
                args.push(a);
            }
        }
        Rc::new(Mapper::new(&self.types, &params, &args))
    }

    /// A constraint of one of `sig`'s own type parameters, read through the instantiation
    /// of what declares the signature (`S extends T` on `Array<X>` is `X`).
    pub(in crate::check) fn through_outer(&mut self, sig: &Signature, c: TypeId) -> TypeId {
        match &sig.outer {
            Some(o) => {
                let o = o.clone();
                self.instantiate(c, &o)
            }
            None => c,
        }
    }
}
