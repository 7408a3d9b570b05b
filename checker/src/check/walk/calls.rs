//! Calls and `new` checked as TypeScript resolves them (the callee's signatures, arity,
//! argument types, overloads, the failure reported), and the awaited type of what an
//! `async` body returns. A union callee's signatures are the type layer's
//! (`types/union_signatures.rs`).
use std::rc::Rc;

use rustc_hash::FxHashMap;

use swc_ecma_ast::*;

use crate::check::walk::expressions::{is_context_sensitive, needs_context};
use crate::check::{Checker, node_key};
use crate::diag::Code;
use crate::syntax::expr_lo;
use crate::types::{Mapper, Signature, SymbolType, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// The type a `return` gives its function: awaited in an `async` body.
    pub(super) fn returned_type(&mut self, t: TypeId) -> TypeId {
        if self.async_returns.last() == Some(&self.returns.len()) {
            self.awaited(t)
        } else {
            t
        }
    }

    /// Checks a function body whose `return`s are checked against `declared` (for an
    /// `async` one, the awaited type of its declared `Promise<T>`, and they are awaited).
    pub(super) fn check_body(
        &mut self,
        file: u32,
        stmts: &'a [Stmt],
        declared: Option<TypeId>,
        is_async: bool,
    ) {
        self.returns.push(declared);
        if is_async {
            self.async_returns.push(self.returns.len());
        }
        self.check_stmts(file, stmts);
        if is_async {
            self.async_returns.pop();
        }
        self.returns.pop();
    }

    /// Checks a call or `new` as TypeScript does: the callee's signatures
    /// ([`Self::callee_signatures`]), then the call resolved against them
    /// ([`Self::resolve_call`]: arity, argument types, [`Self::choose_overload`]), then the
    /// failure reported ([`Self::report_call_failure`]).
    #[expect(
        clippy::too_many_arguments,
        reason = "a call site passes its parts and its contextual type"
    )]
    pub(super) fn check_call(
        &mut self,
        file: u32,
        callee: TypeId,
        args: &'a [ExprOrSpread],
        type_args: Option<&'a TsTypeParamInstantiation>,
        pos: u32,
        is_new: bool,
        contextual: Option<TypeId>,
    ) -> TypeId {
        let call = CallSite {
            file,
            args,
            type_args,
            pos,
            is_new,
        };
        let callee = match self.types.kind(callee) {
            TypeKind::Union(ms) if ms.iter().any(|&m| m == ids::UNDEFINED || m == ids::NULL) => {
                self.types.non_nullable(callee)
            }
            _ => callee,
        };
        if matches!(self.types.kind(callee), TypeKind::Any) {
            self.check_args_alone(call);
            return ids::ANY;
        }
        match self.callee_signatures(call, callee) {
            Ok(sigs) => self.resolve_call(call, &sigs, contextual),
            Err(t) => t,
        }
    }

    /// The arguments of a call that resolves to no signature, checked without context.
    fn check_args_alone(&mut self, call: CallSite<'a>) {
        for a in call.args {
            self.check_expr(call.file, &a.expr, None);
        }
    }

    /// The call (or construct) signatures of `callee`; where it has none usable, the
    /// arguments are checked, the error reported, and `Err` holds the call's type.
    fn callee_signatures(
        &mut self,
        call: CallSite<'a>,
        callee: TypeId,
    ) -> Result<Vec<Rc<Signature>>, TypeId> {
        let (file, pos, is_new) = (call.file, call.pos, call.is_new);
        let m = self.members(callee);
        let sigs = if is_new {
            m.constructs.clone()
        } else {
            m.calls.clone()
        };
        let sigs = match self.union_call_signatures(callee, &sigs, is_new) {
            Ok(Some(union)) => union,
            Ok(None) => sigs,
            Err(()) => {
                self.check_args_alone(call);
                let shown = self.type_to_string(callee);
                let what = if is_new { "constructable" } else { "callable" };
                let msg = format!(
                    "This expression is not {what}. Each member of the union type '{shown}' has signatures, but none of those signatures are compatible with each other."
                );
                self.report(file, pos, Code::NotCallable, msg);
                return Err(ids::ERROR);
            }
        };
        if sigs.is_empty() {
            self.check_args_alone(call);
            let is_function = self.globals.function.is_some_and(|f| {
                let ft = self.types.of_symbol(SymbolType::Declared, f);
                callee == ft
            });
            if is_function
                || (is_new && !m.calls.is_empty())
                || matches!(
                    self.types.kind(callee),
                    TypeKind::TypeParam(_)
                        | TypeKind::Keyof(_)
                        | TypeKind::Indexed(..)
                        | TypeKind::LazyAlias(..)
                )
            {
                return Err(ids::ANY);
            }
            let shown = self.type_to_string(callee);
            let what = if is_new { "constructable" } else { "callable" };
            self.report(
                file,
                pos,
                Code::NotCallable,
                format!(
                    "This expression is not {what}. Type '{shown}' has no {} signatures.",
                    if is_new { "construct" } else { "call" }
                ),
            );
            return Err(ids::ERROR);
        }
        Ok(sigs)
    }

    /// Resolves a call against `sigs` (TypeScript's `resolveCall`): the signatures the
    /// explicit type arguments and the argument count allow, the argument types in the
    /// context of the first, then the overload chosen or the failure reported.
    fn resolve_call(
        &mut self,
        call: CallSite<'a>,
        sigs: &[Rc<Signature>],
        contextual: Option<TypeId>,
    ) -> TypeId {
        let (file, args) = (call.file, call.args);
        let explicit: Option<Vec<TypeId>> = call.type_args.map(|ta| {
            ta.params
                .iter()
                .map(|t| {
                    self.check_type_node(file, t);
                    self.type_from_node(file, t)
                })
                .collect()
        });
        let n = args.len();
        let has_spread = args.iter().any(|a| a.spread.is_some());
        // Explicit type arguments select only the signatures with that many type parameters
        // (`new Array<T>()` is never the non-generic `new (length?: number): any[]`).
        let type_arity = |s: &Signature| {
            explicit
                .as_ref()
                .is_none_or(|ex| !s.type_params.is_empty() && ex.len() <= s.type_params.len())
        };
        let sigs: Vec<Rc<Signature>> = if sigs.iter().any(|s| type_arity(s)) {
            sigs.iter().filter(|s| type_arity(s)).cloned().collect()
        } else {
            sigs.to_vec()
        };
        let candidates: Vec<Rc<Signature>> = sigs
            .iter()
            .filter(|s| has_spread || (n >= s.min_args && (n <= s.params.len() || s.rest)))
            .cloned()
            .collect();
        if candidates.is_empty() {
            self.check_args_alone(call);
            let s = &sigs[0];
            let expected = if s.rest {
                format!("at least {}", s.min_args)
            } else if s.min_args == s.params.len() {
                format!("{}", s.params.len())
            } else {
                format!("{}-{}", s.min_args, s.params.len())
            };
            self.report(
                file,
                call.pos,
                Code::ArgumentCount,
                format!("Expected {expected} arguments, but got {n}."),
            );
            return s.ret;
        }
        // Argument types are computed once, in the context of the first candidate; with
        // several candidates, a function argument with untyped parameters is left out until
        // a candidate takes the other arguments, and is typed in that candidate's context
        // (TypeScript's `chooseOverload` with `CheckMode.SkipContextSensitive`): `reduce`'s
        // callback takes its accumulator from the overload its initial value chooses.
        let first = self.call_context(&candidates[0], explicit.as_deref(), call, None, contextual);
        let deferred = |a: &ExprOrSpread| candidates.len() > 1 && needs_context(&a.expr);
        let mut arg_types: Vec<TypeId> = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if deferred(a) {
                    return ids::ERROR;
                }
                let ctx = self.param_at(&first, i);
                self.check_expr(file, &a.expr, ctx)
            })
            .collect();
        if args.iter().any(deferred) {
            let context = match self.first_taking_the_rest(
                call,
                &candidates,
                explicit.as_deref(),
                &arg_types,
            ) {
                Some(k) if k > 0 => self.call_context(
                    &candidates[k],
                    explicit.as_deref(),
                    call,
                    Some(&arg_types),
                    contextual,
                ),
                _ => first.clone(),
            };
            for (i, a) in args.iter().enumerate() {
                if deferred(a) {
                    let ctx = self.param_at(&context, i);
                    arg_types[i] = self.check_expr(file, &a.expr, ctx);
                }
            }
        }
        match self.choose_overload(call, &candidates, first, explicit.as_deref(), &arg_types) {
            Ok(ret) => ret,
            Err(failure) => self.report_call_failure(call, candidates.len(), failure, &arg_types),
        }
    }

    /// `cand` instantiated for a call to type its arguments in: its type arguments inferred
    /// from the arguments (`arg_types` where typed, the error type for those left out; else
    /// those that need no context), then from the call's contextual type.
    fn call_context(
        &mut self,
        cand: &Signature,
        explicit: Option<&[TypeId]>,
        call: CallSite<'a>,
        arg_types: Option<&[TypeId]>,
        contextual: Option<TypeId>,
    ) -> Signature {
        let sig = self.instantiate_for_call(cand, explicit, call.args, call.file, arg_types);
        match contextual {
            Some(c) if !cand.type_params.is_empty() && explicit.is_none() => {
                self.contextual_instantiation(cand, &sig, c)
            }
            _ => sig,
        }
    }

    /// The first of `candidates` whose parameters take the arguments typed so far
    /// (`arg_types`, the error type for those left out): the candidate the left-out
    /// arguments are typed in.
    fn first_taking_the_rest(
        &mut self,
        call: CallSite<'a>,
        candidates: &[Rc<Signature>],
        explicit: Option<&[TypeId]>,
        arg_types: &[TypeId],
    ) -> Option<usize> {
        let (file, args) = (call.file, call.args);
        candidates.iter().position(|cand| {
            if let (Some(ex), Some(ta)) = (explicit, call.type_args)
                && self
                    .explicit_constraint_failure(file, cand, ex, ta)
                    .is_some()
            {
                return false;
            }
            let sig = self.instantiate_for_call(cand, explicit, args, file, Some(arg_types));
            arg_types.iter().enumerate().all(|(i, &at)| {
                at == ids::ERROR
                    || args[i].spread.is_some()
                    || self
                        .param_at(&sig, i)
                        .is_none_or(|pt| self.is_assignable(at, pt))
            })
        })
    }

    /// The first of `candidates` whose parameters take the argument types (TypeScript's
    /// `chooseOverload`): its return type, the signature kept for the call; else why the
    /// last one failed.
    fn choose_overload(
        &mut self,
        call: CallSite<'a>,
        candidates: &[Rc<Signature>],
        first: Signature,
        explicit: Option<&[TypeId]>,
        arg_types: &[TypeId],
    ) -> Result<TypeId, CallFailure<'a>> {
        let (file, args) = (call.file, call.args);
        let mut last_failure = None;
        let mut type_arg_failure = None;
        for (ci, cand) in candidates.iter().enumerate() {
            // As in TypeScript's chooseOverload, explicit type arguments that do not satisfy
            // a candidate's constraints rule it out.
            if let (Some(ex), Some(ta)) = (explicit, call.type_args)
                && let Some((i, constraint)) = self.explicit_constraint_failure(file, cand, ex, ta)
            {
                type_arg_failure = Some(CallFailure::Constraint {
                    type_args: ta,
                    i,
                    constraint,
                    cand: cand.clone(),
                });
                continue;
            }
            let sig = if ci == 0 && cand.type_params.is_empty() {
                first.clone()
            } else {
                self.instantiate_for_call(cand, explicit, args, file, Some(arg_types))
            };
            let mut failure = None;
            for (i, &at) in arg_types.iter().enumerate() {
                if args[i].spread.is_some() {
                    continue;
                }
                if let Some(pt) = self.param_at(&sig, i)
                    && !self.is_assignable(at, pt)
                {
                    failure = Some((i, at, pt));
                    break;
                }
            }
            match failure {
                None => {
                    let ret = sig.ret;
                    self.resolved_signatures
                        .insert(node_key(file, call.pos), Rc::new(sig));
                    return Ok(ret);
                }
                Some((i, at, pt)) => {
                    last_failure = Some(CallFailure::Argument {
                        i,
                        at,
                        pt,
                        ret: sig.ret,
                    })
                }
            }
        }
        Err(last_failure
            .or(type_arg_failure)
            .expect("at least one candidate failed"))
    }

    /// The type of `sig`'s rest parameter where it is a tuple with a generic spread.
    fn variadic_rest(&self, sig: &Signature) -> Option<TypeId> {
        let last = sig.params.last().filter(|_| sig.rest)?.ty;
        let TypeKind::Tuple(es) = self.types.kind(last) else {
            return None;
        };
        es.iter()
            .any(
                |&e| matches!(self.types.kind(e), TypeKind::Spread(x) if self.types.is_generic(*x)),
            )
            .then_some(last)
    }

    /// Reports why no overload took the call; the call's type.
    fn report_call_failure(
        &mut self,
        call: CallSite<'a>,
        candidates: usize,
        failure: CallFailure<'a>,
        arg_types: &[TypeId],
    ) -> TypeId {
        let (file, args) = (call.file, call.args);
        match failure {
            CallFailure::Constraint {
                type_args,
                i,
                constraint,
                cand,
            } => {
                self.report_call_constraint(file, type_args, i, constraint, &cand, args, arg_types)
            }
            CallFailure::Argument { i, at, pt, ret } => {
                let (a, p) = (self.type_to_string(at), self.type_to_string(pt));
                if candidates > 1 {
                    self.report(file, call.pos, Code::NoOverload, format!("No overload matches this call. Argument of type '{a}' is not assignable to parameter of type '{p}'."));
                } else if !self.report_excess(file, &args[i].expr, pt) {
                    self.report(
                        file,
                        expr_lo(&args[i].expr),
                        Code::ArgumentNotAssignable,
                        format!(
                            "Argument of type '{a}' is not assignable to parameter of type '{p}'."
                        ),
                    );
                }
                ret
            }
        }
    }

    /// A candidate signature with its type parameters replaced: by explicit arguments, or
    /// by what the argument types say (uninferred ones become their constraint, or unknown).
    /// The first candidate as its arguments' context: type parameters that the call's own
    /// contextual type fixes through the return type take that inference (TypeScript's
    /// return-type inference), so `f(identity({ kind: "a" }))` keeps the literal.
    pub(super) fn contextual_instantiation(
        &mut self,
        sig: &Signature,
        from_args: &Signature,
        contextual: TypeId,
    ) -> Signature {
        if matches!(
            self.types.kind(contextual),
            TypeKind::Any | TypeKind::Unknown
        ) {
            return from_args.clone();
        }
        let tps = sig.type_params.clone();
        let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
        self.infer_from(sig.ret, contextual, &tps, &mut cands, 0);
        if cands.values().all(|c| c.is_empty()) {
            return from_args.clone();
        }
        let inferred: Vec<TypeId> = tps
            .iter()
            .map(|tp| match cands.get(tp) {
                Some(c) if !c.is_empty() => self.types.union(c),
                _ => *tp,
            })
            .collect();
        let m = Mapper::new(&self.types, &tps, &inferred);
        let partial = self.instantiate_signature(sig, &m);
        // Parameters still naming a type parameter take the argument inference.
        let mut out = partial.clone();
        for (p, q) in out.params.iter_mut().zip(from_args.params.iter()) {
            if self.types.is_generic(p.ty) {
                p.ty = q.ty;
            }
        }
        out
    }

    pub(super) fn instantiate_for_call(
        &mut self,
        sig: &Signature,
        explicit: Option<&[TypeId]>,
        args: &'a [ExprOrSpread],
        file: u32,
        arg_types: Option<&[TypeId]>,
    ) -> Signature {
        if sig.type_params.is_empty() {
            return sig.clone();
        }
        let tps = sig.type_params.clone();
        let inferred: Vec<TypeId> = match explicit {
            Some(ex) => tps
                .iter()
                .enumerate()
                .map(|(i, _)| ex.get(i).copied().unwrap_or(ids::ANY))
                .collect(),
            None => {
                let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
                let types: Vec<TypeId> = match arg_types {
                    Some(ts) => ts.to_vec(),
                    None => {
                        // First pass: only arguments that are not functions (those need context).
                        self.suppress += 1;
                        let ts = args
                            .iter()
                            .map(|a| {
                                if is_context_sensitive(&a.expr) {
                                    ids::ANY
                                } else {
                                    self.check_expr(file, &a.expr, None)
                                }
                            })
                            .collect();
                        self.suppress -= 1;
                        ts
                    }
                };
                // A variadic rest parameter (`...xs: [...T, boolean]`) infers from the tuple
                // of the arguments it takes, as TypeScript's `getSpreadArgumentType` makes.
                let variadic = self.variadic_rest(sig);
                let fixed = variadic.map_or(types.len(), |_| sig.params.len() - 1);
                for (i, &at) in types.iter().enumerate().take(fixed) {
                    if let Some(pt) = self.param_at(sig, i) {
                        // An `any` argument infers `any`, but the first pass's placeholders
                        // for context-sensitive arguments do not.
                        if at == ids::ANY && arg_types.is_none() {
                            continue;
                        }
                        self.infer_from(pt, at, &tps, &mut cands, 0);
                    }
                }
                if let Some(rest) = variadic
                    && fixed <= types.len()
                {
                    let taken = self.types.tuple(types[fixed..].into());
                    self.infer_from(rest, taken, &tps, &mut cands, 0);
                }
                let ret = sig.ret;
                let inferred: Vec<TypeId> = tps
                    .iter()
                    .map(|tp| match cands.get(tp) {
                        Some(c) if !c.is_empty() => {
                            let u = self.types.union(c);
                            let u = self.regular_type(u);
                            // As in TypeScript, an inferred literal widens only where it was
                            // inferred from a top-level parameter position and the type
                            // parameter is neither the top-level return type nor primitively
                            // constrained: `identity("a")` is `"a"`, so is `xs.map(() => "a")`
                            // in a literal context.
                            let param_top = sig.params.iter().any(|p| self.at_top_level(*tp, p.ty));
                            if !param_top
                                || self.at_top_level(*tp, ret)
                                || self.has_primitive_constraint(*tp)
                            {
                                u
                            } else {
                                self.types.widen(u)
                            }
                        }
                        _ => match self.types.kind(*tp) {
                            TypeKind::TypeParam(s) => {
                                let s = *s;
                                let c = self.constraint_of(s);
                                c.map_or(ids::UNKNOWN, |c| self.through_outer(sig, c))
                            }
                            _ => ids::UNKNOWN,
                        },
                    })
                    .collect();
                self.inferred_within_constraints(&tps, inferred)
            }
        };
        let m = Mapper::new(&self.types, &tps, &inferred);
        self.instantiate_signature(sig, &m)
    }
}

/// A call or `new` expression's parts, as [`Checker::check_call`] resolves it.
#[derive(Clone, Copy)]
struct CallSite<'a> {
    file: u32,
    args: &'a [ExprOrSpread],
    type_args: Option<&'a TsTypeParamInstantiation>,
    /// Where the call's own errors are reported.
    pos: u32,
    is_new: bool,
}

/// Why [`Checker::choose_overload`] found no signature for a call.
enum CallFailure<'a> {
    /// The last candidate tried: argument `i`, of type `at`, does not take parameter type
    /// `pt`; `ret` is that candidate's return type.
    Argument {
        i: usize,
        at: TypeId,
        pt: TypeId,
        ret: TypeId,
    },
    /// Every candidate was ruled out by its constraints: explicit type argument `i` does
    /// not satisfy `constraint` of `cand`.
    Constraint {
        type_args: &'a TsTypeParamInstantiation,
        i: usize,
        constraint: TypeId,
        cand: Rc<Signature>,
    },
}
