//! The signatures of a union of callables, as TypeScript's `getUnionSignatures`, and the
//! receiver of a method call on a union of arrays: type operations the call check asks for.
use std::rc::Rc;

use crate::check::Checker;
use crate::types::{Mapper, Param, Signature, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// The call (or construct) signatures of a union callee, as TypeScript's
    /// getUnionSignatures: signatures with matching parameters in every member, their
    /// return types united; else, where at most one member is overloaded, that member's
    /// signatures each combined with the others' single signature (parameters
    /// intersected, return types united; generic ones only with the same number of type
    /// parameters). `Ok(None)` where the callee is not a union or one of its members has
    /// no signatures (reported as having none); `Err` where every member has signatures
    /// but they cannot be combined.
    pub(in crate::check) fn union_call_signatures(
        &mut self,
        callee: TypeId,
        own: &[Rc<Signature>],
        is_new: bool,
    ) -> Result<Option<Vec<Rc<Signature>>>, ()> {
        if !own.is_empty() {
            return Ok(None);
        }
        let TypeKind::Union(ms) = self.types.kind(callee) else {
            return Ok(None);
        };
        let ms = ms.clone();
        let mut lists: Vec<Vec<Rc<Signature>>> = Vec::with_capacity(ms.len());
        for &m in ms.iter() {
            let o = self.members(m);
            let sigs = if is_new { &o.constructs } else { &o.calls };
            if sigs.is_empty() {
                return Ok(None);
            }
            lists.push(sigs.clone());
        }
        let mut result: Vec<Rc<Signature>> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            for sig in list {
                let mut seen = false;
                for r in &result {
                    if self.signatures_match(r, sig, false) {
                        seen = true;
                        break;
                    }
                }
                if seen {
                    continue;
                }
                if let Some(matches) = self.matching_signatures(&lists, sig, i) {
                    if matches.len() > 1 {
                        let rets: Vec<TypeId> = matches.iter().map(|s| s.ret).collect();
                        let mut u = (**sig).clone();
                        u.ret = self.types.union(&rets);
                        result.push(Rc::new(u));
                    } else {
                        result.push(sig.clone());
                    }
                }
            }
        }
        if !result.is_empty() {
            return Ok(Some(result));
        }
        let overloaded: Vec<usize> = (0..lists.len()).filter(|&i| lists[i].len() > 1).collect();
        if overloaded.len() > 1 {
            return Err(());
        }
        let master = overloaded.first().copied().unwrap_or(0);
        let mut results: Vec<Rc<Signature>> = lists[master].clone();
        for (j, list) in lists.iter().enumerate() {
            if j == master {
                continue;
            }
            let sig = &list[0];
            if !sig.type_params.is_empty()
                && results.iter().any(|r| {
                    !r.type_params.is_empty() && r.type_params.len() != sig.type_params.len()
                })
            {
                return Err(());
            }
            results = results
                .iter()
                .map(|r| Rc::new(self.combine_union_signatures(r, sig)))
                .collect();
        }
        Ok(Some(results))
    }

    /// TypeScript's findMatchingSignatures: a generic signature only from the first
    /// member, matched exactly in every other; a non-generic one matched by parameters
    /// (identical, else the member's may be fewer and supertypes).
    fn matching_signatures(
        &mut self,
        lists: &[Vec<Rc<Signature>>],
        sig: &Rc<Signature>,
        index: usize,
    ) -> Option<Vec<Rc<Signature>>> {
        if !sig.type_params.is_empty() {
            if index > 0 {
                return None;
            }
            for list in &lists[1..] {
                if !list.iter().any(|s| self.same_generic_signature(s, sig)) {
                    return None;
                }
            }
            return Some(vec![sig.clone()]);
        }
        let mut out: Vec<Rc<Signature>> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            let found = if i == index {
                Some(sig.clone())
            } else {
                let mut found = None;
                for partial in [false, true] {
                    for s in list {
                        if self.signatures_match(s, sig, partial) {
                            found = Some(s.clone());
                            break;
                        }
                    }
                    if found.is_some() {
                        break;
                    }
                }
                found
            };
            let found = found?;
            if !out.iter().any(|o| Rc::ptr_eq(o, &found)) {
                out.push(found);
            }
        }
        Some(out)
    }

    /// TypeScript's compareSignaturesIdentical ignoring return types: the same parameter
    /// counts (or, `partial`, `s` requiring no more arguments than `t`) and parameter
    /// types identical (or, `partial`, each of `t`'s a subtype of `s`'s).
    fn signatures_match(&mut self, s: &Signature, t: &Signature, partial: bool) -> bool {
        if std::ptr::eq(s, t) {
            return true;
        }
        let same_shape =
            s.params.len() == t.params.len() && s.min_args == t.min_args && s.rest == t.rest;
        if !(same_shape || partial && s.min_args <= t.min_args) {
            return false;
        }
        if s.type_params.len() != t.type_params.len() || !s.type_params.is_empty() {
            return false;
        }
        for i in 0..t.params.len() {
            // A parameter the source lacks is `any` (TypeScript's getTypeAtPosition).
            let sp = self.param_at(s, i).unwrap_or(ids::ANY);
            let Some(tp) = self.param_at(t, i) else {
                return false;
            };
            let ok = if partial {
                self.is_assignable(tp, sp)
            } else {
                sp == tp
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// TypeScript's combineSignaturesOfUnionMembers: the longer parameter list, each
    /// parameter the intersection of both (a missing one `unknown`), the larger minimum
    /// argument count, the return types united; the type parameters of whichever has
    /// them (the right's mapped to the left's).
    fn combine_union_signatures(&mut self, left: &Signature, right: &Signature) -> Signature {
        let right = if !left.type_params.is_empty() && !right.type_params.is_empty() {
            let m = Mapper::new(&self.types, &right.type_params, &left.type_params);
            self.instantiate_signature(right, &m)
        } else {
            right.clone()
        };
        let (longest, shorter) = if left.params.len() >= right.params.len() {
            (left, &right)
        } else {
            (&right, left)
        };
        let n = longest.params.len();
        let mut params = Vec::with_capacity(n);
        for i in 0..n {
            let rest_slot = longest.rest && i + 1 == n;
            let lt = self.param_at(longest, i).unwrap_or(ids::UNKNOWN);
            let st = self.param_at(shorter, i).unwrap_or(ids::UNKNOWN);
            let mut ty = self.intersection(&[lt, st]);
            if rest_slot {
                ty = self.array_of(ty);
            }
            params.push(Param {
                name: longest.params[i].name.clone(),
                ty,
            });
        }
        let ret = self.types.union(&[left.ret, right.ret]);
        let (type_params, outer) = if !left.type_params.is_empty() {
            (left.type_params.clone(), left.outer.clone())
        } else {
            (right.type_params.clone(), right.outer.clone())
        };
        Signature {
            type_params,
            params,
            ret,
            min_args: left.min_args.max(right.min_args),
            rest: longest.rest,
            predicate: None,
            outer,
            method: false,
        }
    }

    /// The receiver of a member access on a union of arrays and tuples: an array of their
    /// element types united (TypeScript 5.2 resolves method calls on `string[] | number[]`
    /// on `(string | number)[]`, where the members' overloads cannot be combined).
    pub(in crate::check) fn array_union_receiver(&mut self, obj: TypeId) -> TypeId {
        let TypeKind::Union(ms) = self.types.kind(obj) else {
            return obj;
        };
        let ms = ms.clone();
        let mut elems = Vec::with_capacity(ms.len());
        for &m in ms.iter() {
            match self.types.kind(m) {
                TypeKind::Reference(s, args)
                    if Some(*s) == self.globals.array && args.len() == 1 =>
                {
                    elems.push(args[0]);
                }
                TypeKind::Tuple(es) => elems.extend(es.clone().iter()),
                _ => return obj,
            }
        }
        let elems: Vec<TypeId> = elems.into_iter().map(|e| self.tuple_element(e)).collect();
        let e = self.types.union(&elems);
        self.array_of(e)
    }
}
