//! Type argument constraints (TS2344): checked on references and calls as TypeScript's
//! checkTypeArgumentConstraints, where this checker relates the types exactly.
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{DeclRef as BDecl, SymbolId, flags};
use crate::check::types::limits::Decided;
use crate::check::{Checker, ConstraintKey};
use crate::diag::Code;
use crate::syntax::{entity_of, ts_type_lo};
use crate::types::{Mapper, Signature, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// TS2344 for the type arguments of a reference to a generic class, interface or alias
    /// (`Foo<X>` in a type position, `extends Base<X>`, `implements I<X>`), as TypeScript's
    /// checkTypeReferenceNode and checkClassLikeDeclaration do; `classes_only` for a class's
    /// `extends`, whose type parameters are its base class's.
    pub(super) fn check_reference_constraints(
        &mut self,
        file: u32,
        entity: &[(u32, Atom)],
        args: Option<&'a TsTypeParamInstantiation>,
        classes_only: bool,
    ) {
        let Some(args) = args else { return };
        let Some(s) = self.resolve_entity(file, entity) else {
            return;
        };
        let s = self.resolve_alias(s);
        let mask = if classes_only {
            flags::CLASS
        } else {
            flags::CLASS | flags::INTERFACE | flags::TYPE_ALIAS
        };
        if self.bound.symbol(s).flags & mask == 0 {
            return;
        }
        let params = self.type_params_of(s);
        let given = args.params.len();
        // A wrong argument count is TS2314; TypeScript checks no constraint then.
        if params.is_empty() || given > params.len() || given < self.required_type_args(s) {
            return;
        }
        let written: Vec<TypeId> = args
            .params
            .iter()
            .map(|t| self.type_from_node(file, t))
            .collect();
        let filled = self.fill_args(s, &params, written).or_error(params.len());
        // Inside a conditional type TypeScript narrows the checked type in the true branch,
        // which this checker does not model: generic arguments and constraints stay unchecked.
        let decide = self.in_conditional == 0;
        if let Some((i, c)) = self.unsatisfied_constraint(&params, &filled, given, decide, decide)
            && !self.approximated(file, &args.params[i], params[i])
        {
            let pos = ts_type_lo(&args.params[i]);
            self.report_constraint(file, pos, filled[i], c);
        }
    }

    /// For a call with explicit type arguments: the first that does not satisfy candidate
    /// `sig`'s constraint, with that constraint. A constraint that still names type
    /// parameters after instantiation names an outer declaration's (a method's `S extends
    /// T` on an instantiated `Array<T>`), which the signature no longer maps: unchecked.
    pub(super) fn explicit_constraint_failure(
        &mut self,
        file: u32,
        sig: &Signature,
        explicit: &[TypeId],
        type_args: &'a TsTypeParamInstantiation,
    ) -> Option<(usize, TypeId)> {
        let tps = &sig.type_params;
        if tps.is_empty() || explicit.len() > tps.len() {
            return None;
        }
        let mut args = explicit.to_vec();
        args.resize(tps.len(), ids::ANY);
        let (i, c) = self.unsatisfied_constraint(tps, &args, explicit.len(), true, false)?;
        let approximated = self.approximated(file, &type_args.params[i], tps[i]);
        (!approximated).then_some((i, c))
    }

    /// Reports TS2344 for a call whose every candidate failed on its explicit type
    /// arguments (TypeScript's `candidateForTypeArgumentError`, the last such candidate);
    /// the call's type is that candidate's return type.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn report_call_constraint(
        &mut self,
        file: u32,
        type_args: &'a TsTypeParamInstantiation,
        i: usize,
        constraint: TypeId,
        cand: &Signature,
        args: &'a [ExprOrSpread],
        arg_types: &[TypeId],
    ) -> TypeId {
        let node = &type_args.params[i];
        let a = self.type_from_node(file, node);
        self.report_constraint(file, ts_type_lo(node), a, constraint);
        let explicit: Vec<TypeId> = type_args
            .params
            .iter()
            .map(|t| self.type_from_node(file, t))
            .collect();
        self.instantiate_for_call(cand, Some(&explicit), args, file, Some(arg_types))
            .ret
    }

    /// TypeScript's checkTypeArgumentConstraints: the first of the `given` written
    /// arguments that does not satisfy its parameter's constraint, instantiated with all of
    /// `args` (defaults filled in), and that constraint. What this checker cannot decide is
    /// taken as satisfied, so it never reports what TypeScript would not: a generic argument
    /// other than a type parameter (whose constraint is related, as TypeScript does), any
    /// generic argument unless `generic_args`, a constraint still generic after
    /// instantiation unless `generic_constraints`. Each verdict is computed once per
    /// checker, and cached only when nothing it met was a cycle's placeholder or a guess
    /// made at a depth limit.
    pub(super) fn unsatisfied_constraint(
        &mut self,
        params: &[TypeId],
        args: &[TypeId],
        given: usize,
        generic_args: bool,
        generic_constraints: bool,
    ) -> Option<(usize, TypeId)> {
        let mode = (generic_args as u8) | (generic_constraints as u8) << 1;
        let key: ConstraintKey = (params[0], given as u32, mode, args.into());
        if let Some(&v) = self.constraint_checks.get(&key) {
            self.meet_kept_limits(&Decided::Check(key));
            return v;
        }
        // Only a check started outside any relation, instantiation or alias resolution can
        // be cached: inside one, what it meets may be an assumption or a placeholder.
        let settled = self.relating.is_empty()
            && self.alias_stack.is_empty()
            && self.inst_depth == 0
            && self.type_depth == 0;
        let base = self.limits_base();
        let mut scope = self.cache_scope();
        let m = Mapper::new(&scope.types, params, args);
        let mut verdict = None;
        for i in 0..given.min(params.len()).min(args.len()) {
            let TypeKind::TypeParam(p) = *scope.types.kind(params[i]) else {
                continue;
            };
            let Some(c) = scope.constraint_of(p) else {
                continue;
            };
            let a = args[i];
            if scope.types.is_generic(a)
                && !(generic_args && matches!(scope.types.kind(a), TypeKind::TypeParam(_)))
            {
                continue;
            }
            let c = scope.instantiate(c, &m);
            if scope.types.is_generic(c) && !generic_constraints {
                continue;
            }
            if !scope.satisfies(a, c) {
                // Like TypeScript (`result = result && ...`), only the first is reported.
                verdict = Some((i, c));
                break;
            }
        }
        let clean = !scope.met().leaned;
        let limits = scope.limits_met(base);
        drop(scope);
        if clean && settled {
            self.keep_limits_met(Decided::Check(key.clone()), limits);
            self.constraint_checks.insert(key, verdict);
        }
        verdict
    }

    /// Whether type argument `a` satisfies constraint `c`. A type parameter is related
    /// through its constraint (`unknown` when it has none), as TypeScript relates a type
    /// parameter's base constraint; a constraint that is generic in a way this checker
    /// cannot relate (`keyof T`, `T[K]`) is taken as satisfied.
    pub(super) fn satisfies(&mut self, a: TypeId, c: TypeId) -> bool {
        let mut s = a;
        for _ in 0..8 {
            let TypeKind::TypeParam(p) = *self.types.kind(s) else {
                break;
            };
            s = match self.constraint_of(p) {
                Some(x) if x != s => x,
                _ => ids::UNKNOWN,
            };
        }
        if self.types.is_generic(s) && s != c {
            return true;
        }
        // Related like any other pair (cached), but a failure counts only where this
        // checker's relation is TypeScript's: a constraint made of primitives, literals and
        // `object`, and an argument made of those or an object type.
        let related = self.is_assignable(s, c);
        let object = matches!(
            self.types.kind(s),
            TypeKind::Declared(_)
                | TypeKind::Reference(..)
                | TypeKind::Object(_)
                | TypeKind::Tuple(_)
                | TypeKind::ClassStatic(_)
        );
        related || !self.plain(c) || !(object || self.plain(s))
    }

    /// Whether a type argument's meaning, or its parameter's constraint, leans on one of
    /// this checker's approximations (conditional and mapped types, `typeof` of inferred
    /// values, indexed access, `infer`), in the node itself, through the aliases it names
    /// or the constraints of the type parameters it names (bounded in size): a violation
    /// found there may be a constraint TypeScript finds satisfied, so it is not reported.
    pub(super) fn approximated(&mut self, file: u32, arg: &'a TsType, param: TypeId) -> bool {
        let mut budget = 256;
        if self.node_approximated(file, arg, &mut budget) {
            return true;
        }
        match *self.types.kind(param) {
            TypeKind::TypeParam(p) => self.symbol_approximated(p, &mut budget),
            _ => false,
        }
    }

    pub(super) fn symbol_approximated(&mut self, s: SymbolId, budget: &mut u32) -> bool {
        let s = self.resolve_alias(s);
        let decls = self.bound.symbol(s).decls.clone();
        for (file, d) in decls {
            let node = match d {
                BDecl::Alias(a) => Some(&*a.type_ann),
                BDecl::TypeParam(p) => p.constraint.as_deref(),
                _ => None,
            };
            if let Some(n) = node
                && self.node_approximated(file, n, budget)
            {
                return true;
            }
        }
        false
    }

    pub(super) fn node_approximated(&mut self, file: u32, t: &'a TsType, budget: &mut u32) -> bool {
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        match t {
            TsType::TsConditionalType(_)
            | TsType::TsMappedType(_)
            | TsType::TsTypeQuery(_)
            | TsType::TsIndexedAccessType(_)
            | TsType::TsInferType(_)
            | TsType::TsImportType(_)
            | TsType::TsThisType(_) => true,
            TsType::TsTypeRef(r) => {
                if let Some(args) = &r.type_params
                    && args
                        .params
                        .iter()
                        .any(|a| self.node_approximated(file, a, budget))
                {
                    return true;
                }
                match self.resolve_entity(file, &entity_of(&r.type_name)) {
                    Some(s) => self.symbol_approximated(s, budget),
                    None => false,
                }
            }
            TsType::TsArrayType(a) => self.node_approximated(file, &a.elem_type, budget),
            TsType::TsTupleType(tt) => tt
                .elem_types
                .iter()
                .any(|e| self.node_approximated(file, &e.ty, budget)),
            TsType::TsOptionalType(o) => self.node_approximated(file, &o.type_ann, budget),
            TsType::TsRestType(r) => self.node_approximated(file, &r.type_ann, budget),
            TsType::TsParenthesizedType(p) => self.node_approximated(file, &p.type_ann, budget),
            TsType::TsTypeOperator(o) => self.node_approximated(file, &o.type_ann, budget),
            TsType::TsUnionOrIntersectionType(u) => {
                let types = match u {
                    TsUnionOrIntersectionType::TsUnionType(u) => &u.types,
                    TsUnionOrIntersectionType::TsIntersectionType(i) => &i.types,
                };
                types
                    .iter()
                    .any(|t| self.node_approximated(file, t, budget))
            }
            _ => false,
        }
    }

    pub(super) fn report_constraint(
        &mut self,
        file: u32,
        pos: u32,
        arg: TypeId,
        constraint: TypeId,
    ) {
        if self.suppress > 0 || file != self.current_file {
            return;
        }
        let (a, c) = (self.type_to_string(arg), self.type_to_string(constraint));
        let msg = format!("Type '{a}' does not satisfy the constraint '{c}'.");
        self.report(file, pos, Code::ConstraintNotSatisfied, msg);
    }
}
