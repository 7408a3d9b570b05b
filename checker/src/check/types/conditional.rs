//! Conditional types: resolved when the check type is not generic (distributing over
//! unions, inferring `infer` parameters), else deferred with a constraint and branches.
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::check::Checker;
use crate::types::{ConditionalRoot, ConditionalType, Mapper, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// Whether `s` is assignable to `t` for choosing a conditional type's branch: a
    /// relation of its own (`is_assignable`), so no assumption of a relation in progress
    /// decides the branch.
    pub(super) fn assignable_for_condition(&mut self, s: TypeId, t: TypeId) -> bool {
        if self.measuring() {
            // A conditional type resolved while measuring: its instantiation is cached
            // with the ordinary relation, and the variance is unreliable.
            self.mark_unreliable();
            return self.outside_measurement(|c| c.assignable_for_condition(s, t));
        }
        self.is_assignable(s, t)
    }

    /// A conditional type under `mapper`: resolved when its check type is not generic
    /// (distributed over a union for a naked type parameter), else deferred.
    pub(in crate::check) fn conditional_type(
        &mut self,
        root: &Rc<ConditionalRoot>,
        mapper: Option<Rc<Mapper>>,
    ) -> TypeId {
        // A branch that is itself a conditional type is resolved in this loop, not by
        // instantiating it: tail recursion, bounded as TypeScript bounds it.
        let (mut root, mut mapper) = (root.clone(), mapper);
        let mut steps = 0;
        loop {
            match self.conditional_step(&root, mapper) {
                Ok(t) => return t,
                Err((r, m)) => {
                    steps += 1;
                    if let Some(e) = self.tail_recursion_limited(steps) {
                        return e;
                    }
                    (root, mapper) = (r, m);
                }
            }
        }
    }

    /// One step of [`Self::conditional_type`]: the type, or the conditional type of the
    /// chosen branch to resolve next.
    fn conditional_step(
        &mut self,
        root: &Rc<ConditionalRoot>,
        mapper: Option<Rc<Mapper>>,
    ) -> Result<TypeId, (Rc<ConditionalRoot>, Option<Rc<Mapper>>)> {
        let check = self.inst_opt(root.check, mapper.as_deref());
        let check = self.expand_lazy(check);
        if root.distributive {
            let members: Option<Vec<TypeId>> = match self.types.kind(check) {
                TypeKind::Never => return Ok(ids::NEVER),
                TypeKind::Boolean => Some(vec![ids::TRUE, ids::FALSE]),
                TypeKind::Union(ms) => {
                    let mut v = Vec::with_capacity(ms.len() + 1);
                    for &m in ms.iter() {
                        if m == ids::BOOLEAN {
                            v.extend([ids::TRUE, ids::FALSE]);
                        } else {
                            v.push(m);
                        }
                    }
                    Some(v)
                }
                _ => None,
            };
            if let Some(ms) = members {
                let mut out = Vec::with_capacity(ms.len());
                for x in ms {
                    let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(root.check, x)]));
                    out.push(self.conditional_type(root, Some(m)));
                }
                return Ok(self.types.union(&out));
            }
        }
        let extends = self.inst_opt(root.extends, mapper.as_deref());
        if self.types.is_generic(check) {
            return Ok(self.types.conditional(ConditionalType {
                root: root.clone(),
                mapper,
                check,
                extends,
            }));
        }
        // Infer the `infer` parameters from the check type, then instantiate the extends
        // type with them (uninferred ones: their constraint, or `unknown`).
        let (true_mapper, inferred_extends) = if root.infer_params.is_empty() {
            (mapper.clone(), extends)
        } else {
            let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
            self.cond_infer += 1;
            self.infer_from(extends, check, &root.infer_params, &mut cands, 0);
            self.cond_infer -= 1;
            let mut pairs = Vec::with_capacity(root.infer_params.len());
            for &ip in root.infer_params.iter() {
                let v = match cands.get(&ip) {
                    Some(c) if !c.is_empty() => self.types.union(c),
                    _ => self.infer_param_default(ip, mapper.as_deref(), ids::UNKNOWN),
                };
                pairs.push((ip, v));
            }
            let m = Rc::new(self.mapper_with(mapper.as_deref(), &pairs));
            let e = self.instantiate(root.extends, &m);
            (Some(m), e)
        };
        if self.types.is_generic(inferred_extends) {
            return Ok(self.types.conditional(ConditionalType {
                root: root.clone(),
                mapper,
                check,
                extends,
            }));
        }
        let any_extends = matches!(
            self.types.kind(inferred_extends),
            TypeKind::Any | TypeKind::Unknown
        );
        let r = if (check == ids::ANY || check == ids::ERROR) && !any_extends {
            // `any` matches and fails at once: both branches.
            let a = self.inst_opt(root.true_type, true_mapper.as_deref());
            let b = self.inst_opt(root.false_type, mapper.as_deref());
            self.types.union(&[a, b])
        } else {
            let (branch, m) =
                if any_extends || self.assignable_for_condition(check, inferred_extends) {
                    (root.true_type, true_mapper)
                } else {
                    (root.false_type, mapper)
                };
            if let Some(next) = self.tail_conditional(branch, m.as_deref()) {
                return Err(next);
            }
            self.inst_opt(branch, m.as_deref())
        };
        Ok(self.expand_lazy(r))
    }

    /// A recursive alias a conditional type resolved to (`Flat<U>` in its own branch),
    /// expanded once, so the result is the type it stands for; bounded by the depth limit.
    pub(super) fn expand_lazy(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::LazyAlias(s, args) if !self.types.is_generic(t) => {
                if self.alias_stack.iter().any(|e| e.0 == s) {
                    // Not resolved yet: keep it lazy, and keep the answer out of caches.
                    self.taint();
                    return t;
                }
                let r = self.type_reference(s, args.to_vec());
                if r == ids::ERROR { t } else { r }
            }
            _ => t,
        }
    }

    /// What an uninferred `infer` parameter stands for: its constraint, else `fallback`.
    pub(super) fn infer_param_default(
        &mut self,
        ip: TypeId,
        m: Option<&Mapper>,
        fallback: TypeId,
    ) -> TypeId {
        match self.types.kind(ip) {
            TypeKind::TypeParam(s) => {
                let s = *s;
                match self.constraint_of(s) {
                    Some(c) => self.inst_opt(c, m),
                    None => fallback,
                }
            }
            _ => fallback,
        }
    }

    /// What a deferred conditional type relates as a source and gives its members: with
    /// a constrained check type parameter, the type resolved for that constraint; else
    /// the union of both branches (`infer` parameters as their constraints, or `any`).
    pub(super) fn conditional_constraint(&mut self, t: TypeId) -> TypeId {
        if let Some(&c) = self.cond_constraints.get(&t) {
            return c;
        }
        let TypeKind::Conditional(c) = self.types.kind(t).clone() else {
            return t;
        };
        let mut scope = self.cache_scope();
        let mut r = None;
        if c.root.distributive
            && let TypeKind::TypeParam(p) = scope.types.kind(c.check)
        {
            let p = *p;
            if let Some(k) = scope.constraint_of(p)
                && !scope.types.is_generic(k)
            {
                let m = Rc::new(scope.mapper_with(c.mapper.as_deref(), &[(c.root.check, k)]));
                let x = scope.conditional_type(&c.root, Some(m));
                if !scope.types.is_generic(x) {
                    r = Some(x);
                }
            }
        }
        let r = match r {
            Some(r) => r,
            None => {
                let (a, b) = scope.conditional_branches(&c);
                scope.types.union(&[a, b])
            }
        };
        if scope.met().cacheable() {
            scope.cond_constraints.insert(t, r);
        }
        r
    }

    /// A deferred conditional type's two branches under its mapper (`infer` parameters as
    /// their constraints, or `any`).
    pub(super) fn conditional_branches(&mut self, c: &ConditionalType) -> (TypeId, TypeId) {
        let mut pairs = Vec::with_capacity(c.root.infer_params.len());
        for &ip in c.root.infer_params.iter() {
            let v = self.infer_param_default(ip, c.mapper.as_deref(), ids::ANY);
            pairs.push((ip, v));
        }
        let m = self.mapper_with(c.mapper.as_deref(), &pairs);
        let a = self.instantiate(c.root.true_type, &m);
        let b = self.inst_opt(c.root.false_type, c.mapper.as_deref());
        (a, b)
    }
}
