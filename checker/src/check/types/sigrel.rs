//! Relating generic signatures as TypeScript's compareSignaturesRelated does: a generic
//! source is instantiated in the context of the target (its type parameters inferred from
//! the target's parameter types, then from its return type), erased where either side has
//! several signatures (not modelled: taken as related). Inference is the one calls use.
use rustc_hash::FxHashMap;

use crate::check::Checker;
use crate::types::{Mapper, Signature, TypeId, TypeKind, ids};

/// How many generic signatures instantiated in context may be related inside one another.
const MAX_SIG_CONTEXTS: u32 = 2;

impl<'a, 'b> Checker<'a, 'b> {
    /// Whether signature `s` is assignable to `t` (TypeScript's signatureRelatedTo with
    /// the assignability relation; `erase` where the source or the target has several
    /// signatures of this kind): a generic source whose type parameters are not the
    /// target's is instantiated in the target's context (getCanonicalSignature of the
    /// target, instantiateSignatureInContextOf), and the two compare as plain signatures.
    pub(super) fn signature_related(&mut self, s: &Signature, t: &Signature, erase: bool) -> bool {
        if self.measuring() {
            return self.signature_related_measuring(s, t, false);
        }
        if s.min_args > t.params.len() && !t.rest {
            return false;
        }
        let generic = !s.type_params.is_empty() || !t.type_params.is_empty();
        // Not modelled, taken as related as before: generic signatures among overloads
        // (TypeScript erases their type parameters to `any`), and one declaration's
        // signature in two instantiations of what declares it (the same type parameters or
        // fresh copies of them, compared directly there). Both relate a derived type's `this`-returning members
        // to its base's, which here expands new instantiations at every level.
        //
        // Nor, for now, a generic target against a plain source (TypeScript compares them
        // with the target's type parameters as they are): TypeScript gives a
        // context-sensitive object literal method the target's type parameters and
        // contextual parameter types, which this checker does not, so such a method's
        // return type here is not the one TypeScript compares.
        if generic
            && (erase
                || s.type_params == t.type_params
                || s.type_params.is_empty()
                || self.type_param_copies(s, t))
        {
            return true;
        }
        if !generic {
            return self.signature_assignable(s, t);
        }
        // Each instantiation in context makes new types, so relating members that return
        // generic types can expand without end (TypeScript stops such expansions as deeply
        // nested types): past a small nesting the signatures are assumed related, as a
        // relation in progress is, and not cached.
        if self.sig_contexts >= MAX_SIG_CONTEXTS {
            self.assumed = true;
            return true;
        }
        self.sig_contexts += 1;
        let r = match self.instantiate_in_context_of(s, t) {
            Some(inst) => self.signature_assignable(&inst, t),
            None => true,
        };
        self.sig_contexts -= 1;
        r
    }

    /// The generic signature `s` instantiated in the context of `t`
    /// (instantiateSignatureInContextOf without an outer inference context): each type
    /// parameter is inferred from `t`'s parameter types against `s`'s, or, where those say
    /// nothing about it, from `t`'s return type (and type predicate) against `s`'s, a
    /// lower priority as in TypeScript; an uninferred one becomes its constraint or
    /// `unknown`, and an inference outside its constraint the constraint.
    ///
    /// `None` where this checker cannot infer as TypeScript does, and the signatures are
    /// taken as related as before: a type parameter with several distinct candidates
    /// (TypeScript keeps those of the best priority and takes their common supertype, so a
    /// homomorphic mapped type's reverse inference yields to a direct one), or a target that
    /// names the source's own type parameters (a generic argument's, leaked into the
    /// parameter type by call inference, which does not instantiate generic arguments in
    /// context).
    fn instantiate_in_context_of(&mut self, s: &Signature, t: &Signature) -> Option<Signature> {
        let tps = s.type_params.clone();
        let erase = Mapper::new(&self.types, &tps, &vec![ids::UNKNOWN; tps.len()]);
        for x in t.params.iter().map(|p| p.ty).chain([t.ret]) {
            if self.types.is_generic(x) && self.instantiate(x, &erase) != x {
                return None;
            }
        }
        let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
        // Parameters only: the call inference's signature walk, without the return type
        // and the predicate.
        let params_only = |sig: &Signature| Signature {
            params: sig.params.clone(),
            ret: ids::VOID,
            min_args: sig.min_args,
            rest: sig.rest,
            method: sig.method,
            ..Signature::default()
        };
        let (params_only, target_params) = (params_only(s), params_only(t));
        self.infer_from_signature(&params_only, &target_params, &tps, &mut cands, 0);
        let mut ret_cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
        if tps
            .iter()
            .any(|tp| cands.get(tp).is_none_or(|c| c.is_empty()))
        {
            self.infer_from(s.ret, t.ret, &tps, &mut ret_cands, 0);
            if let (Some((si, st)), Some((ti, tt))) = (s.predicate, t.predicate)
                && si == ti
            {
                self.infer_from(st, tt, &tps, &mut ret_cands, 0);
            }
        }
        let mut ambiguous = false;
        let inferred: Vec<TypeId> = tps
            .iter()
            .map(|tp| {
                let found = cands
                    .get(tp)
                    .filter(|c| !c.is_empty())
                    .or_else(|| ret_cands.get(tp).filter(|c| !c.is_empty()));
                match found {
                    Some(c) if c.iter().any(|&x| x != c[0]) => {
                        ambiguous = true;
                        ids::UNKNOWN
                    }
                    Some(c) => c[0],
                    None => match *self.types.kind(*tp) {
                        TypeKind::TypeParam(p) => match self.constraint_of(p) {
                            Some(c) => self.through_outer(s, c),
                            None => ids::UNKNOWN,
                        },
                        _ => ids::UNKNOWN,
                    },
                }
            })
            .collect();
        if ambiguous {
            return None;
        }
        let inferred = self.inferred_within_constraints(&tps, inferred);
        let m = Mapper::new(&self.types, &tps, &inferred);
        // A constraint naming another of the type parameters (`U extends T`) takes what
        // that one was inferred to be.
        let m = if inferred.iter().any(|&x| self.types.is_generic(x)) {
            let again: Vec<TypeId> = inferred.iter().map(|&x| self.instantiate(x, &m)).collect();
            Mapper::new(&self.types, &tps, &again)
        } else {
            m
        };
        Some(self.instantiate_signature(s, &m))
    }
}
