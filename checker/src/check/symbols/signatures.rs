//! Signatures from syntax: function types, type parameters, parameters, and return types
//! inferred from bodies.
use std::rc::Rc;

use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::check::flow::narrow;
use crate::check::types::limits::Decided;
use crate::check::{Checker, Resolution, node_key};
use crate::syntax::fn_param_ann;
use crate::types::{ObjectType, Param, Signature, SymbolType, TypeId, TypeKind, ids};

/// What a function-like declaration's type predicate is read or inferred from.
pub(in crate::check) struct FunctionLike<'a> {
    /// Its parameters as written (a declared `this` excluded).
    pub params: Vec<&'a Pat>,
    /// Its return annotation.
    pub annotation: Option<&'a TsType>,
    /// The expression it returns, when it has one only (an arrow's expression body).
    pub returned: Option<&'a Expr>,
    /// Neither async nor a generator, and no `this` parameter.
    pub plain: bool,
}

impl<'a, 'b> Checker<'a, 'b> {
    pub(in crate::check) fn function_type(&mut self, sigs: Vec<Signature>, origin: u64) -> TypeId {
        let mut obj = ObjectType::default();
        obj.calls.extend(sigs.into_iter().map(Rc::new));
        self.types.object(obj, origin)
    }

    pub(in crate::check) fn type_param_types(
        &mut self,
        file: u32,
        tp: Option<&'a TsTypeParamDecl>,
    ) -> Box<[TypeId]> {
        let Some(tp) = tp else { return Box::new([]) };
        tp.params
            .iter()
            .map(|p| {
                match self.bound.files[file as usize]
                    .node_symbols
                    .get(&p.name.span.lo.0)
                {
                    Some(&s) => self.types.of_symbol(SymbolType::TypeParam, s),
                    None => ids::UNKNOWN,
                }
            })
            .collect()
    }

    pub(super) fn signature_from_parts(
        &mut self,
        file: u32,
        tp: Option<&'a TsTypeParamDecl>,
        params: &'a [TsFnParam],
        ret: Option<&'a TsType>,
        is_async: bool,
    ) -> Signature {
        let type_params = self.type_param_types(file, tp);
        let ret_node = ret;
        let mut out = Vec::with_capacity(params.len());
        let mut min_args = 0;
        let mut rest = false;
        // A leading `this: T` declares the receiver's type, not an argument.
        let params = match params.first() {
            Some(TsFnParam::Ident(b)) if &*b.id.sym == "this" => &params[1..],
            _ => params,
        };
        for (i, p) in params.iter().enumerate() {
            let (name, optional) = match p {
                TsFnParam::Ident(b) => (b.id.sym.clone(), b.id.optional),
                TsFnParam::Rest(_) => {
                    rest = true;
                    (Atom::from("args"), true)
                }
                _ => (Atom::from(format!("arg{i}")), false),
            };
            let ty = fn_param_ann(p).map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
            if !optional {
                min_args = i + 1;
            }
            out.push(Param { name, ty });
        }
        let mut ret = ret.map_or(ids::ANY, |r| self.type_from_node(file, r));
        if is_async {
            ret = self.promise_of(ret);
        }
        let predicate = self.type_predicate(file, ret_node, &out);
        Signature {
            type_params,
            params: out,
            ret,
            min_args,
            rest,
            predicate,
            ..Default::default()
        }
    }

    pub(in crate::check) fn signature_of_function(
        &mut self,
        file: u32,
        f: &'a Function,
    ) -> Signature {
        // A leading `this: T` declares the receiver's type, not an argument.
        let skip = usize::from(matches!(
            f.params.first().map(|p| &p.pat),
            Some(Pat::Ident(b)) if &*b.id.sym == "this"
        ));
        let rest = f.params[skip..]
            .iter()
            .any(|p| matches!(p.pat, Pat::Rest(_)));
        self.signature_from_syntax(
            file,
            f.type_params.as_deref(),
            skip,
            rest,
            |c| c.function_return(file, f),
            FunctionLike {
                params: f.params.iter().map(|q| &q.pat).collect(),
                annotation: f.return_type.as_deref().map(|r| &*r.type_ann),
                returned: f
                    .body
                    .as_ref()
                    .and_then(|b| narrow::single_return(&b.stmts)),
                plain: skip == 0 && !f.is_async && !f.is_generator,
            },
        )
    }

    /// A function's or arrow's signature from its syntax: its type parameters, its
    /// parameters (`like.params` after the `skip` that declare `this`), then the return type
    /// `ret` gives, in that order (the order their types are made in), with the type
    /// predicate `like` declares or implies.
    pub(in crate::check) fn signature_from_syntax(
        &mut self,
        file: u32,
        type_params: Option<&'a TsTypeParamDecl>,
        skip: usize,
        rest: bool,
        ret: impl FnOnce(&mut Self) -> TypeId,
        like: FunctionLike<'a>,
    ) -> Signature {
        let type_params = self.type_param_types(file, type_params);
        let mut params = Vec::with_capacity(like.params.len());
        let mut min_args = 0;
        for (i, p) in like.params[skip..].iter().enumerate() {
            let (name, ty, optional) = self.param_info(file, p, i);
            if !optional {
                min_args = i + 1;
            }
            params.push(Param { name, ty });
        }
        let ret = ret(self);
        let sig = Signature {
            type_params,
            params,
            ret,
            min_args,
            rest,
            ..Default::default()
        };
        self.with_type_predicate(file, sig, like)
    }

    /// A function's return type: its annotation, else what its body returns (a
    /// generator's iterator, an `async` one's promise).
    fn function_return(&mut self, file: u32, f: &'a Function) -> TypeId {
        match &f.return_type {
            Some(r) => self.type_from_node(file, &r.type_ann),
            None => {
                let this = self.this_of_function(file, f.span.lo.0);
                self.this_types.push(this);
                let inferred = self.infer_return(
                    file,
                    f.span.lo.0,
                    f.body.as_ref().map(|b| &b.stmts[..]),
                    None,
                );
                self.this_types.pop();
                if f.is_generator {
                    // A generator returns its iterator: `Generator<Y, R, N>` (async:
                    // `AsyncGenerator`), with what it yields and is sent taken as `any`.
                    let name = if f.is_async {
                        "AsyncGenerator"
                    } else {
                        "Generator"
                    };
                    match self.bound.globals.get(&Atom::from(name)).copied() {
                        Some(g) => {
                            let r = if f.is_async {
                                self.awaited(inferred)
                            } else {
                                inferred
                            };
                            self.types.reference(g, Box::new([ids::ANY, r, ids::ANY]))
                        }
                        None => ids::ANY,
                    }
                } else if f.is_async {
                    // The awaited type of what the body returns (`return promise` too).
                    let awaited = self.awaited(inferred);
                    self.promise_of(awaited)
                } else {
                    inferred
                }
            }
        }
    }

    /// `sig` of a function or arrow with its type predicate: the one its return annotation
    /// writes (`x is T`), else, for a plain function whose return is not annotated, the one
    /// inferred from its single returned expression (TypeScript 5.5's inferred type
    /// predicates). The one builder of a function-like signature's predicate, for
    /// declarations (`signature_of_function`) and arrows (`check_arrow`) alike.
    pub(in crate::check) fn with_type_predicate(
        &mut self,
        file: u32,
        mut sig: Signature,
        f: FunctionLike<'a>,
    ) -> Signature {
        let written = self.type_predicate(file, f.annotation, &sig.params);
        sig.predicate = match (written, f.annotation, sig.params.first()) {
            (None, None, Some(p)) if f.plain => {
                let declared = p.ty;
                self.inferred_type_predicate(file, &f.params, declared, sig.ret, f.returned)
            }
            (p, ..) => p,
        };
        sig
    }

    /// Name, type and optionality of a parameter pattern.
    pub(in crate::check) fn param_info(
        &mut self,
        file: u32,
        p: &'a Pat,
        i: usize,
    ) -> (Atom, TypeId, bool) {
        match p {
            Pat::Ident(b) => {
                let ty = match &b.type_ann {
                    Some(a) => self.type_from_node(file, &a.type_ann),
                    None => match self.bound.files[file as usize]
                        .node_symbols
                        .get(&b.id.span.lo.0)
                    {
                        Some(&s) => self.known_value_type(s).unwrap_or(ids::ANY),
                        None => ids::ANY,
                    },
                };
                (b.id.sym.clone(), ty, b.id.optional)
            }
            Pat::Assign(a) => {
                let (name, ty, _) = self.param_info(file, &a.left, i);
                (name, ty, true)
            }
            Pat::Rest(r) => {
                let ty = r
                    .type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                (Atom::from("args"), ty, true)
            }
            Pat::Object(o) => (
                Atom::from(format!("arg{i}")),
                o.type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
                false,
            ),
            Pat::Array(a) => (
                Atom::from(format!("arg{i}")),
                a.type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
                false,
            ),
            _ => (Atom::from(format!("arg{i}")), ids::ANY, false),
        }
    }

    /// Infers a function's return type from its body, without reporting.
    pub(in crate::check) fn infer_return(
        &mut self,
        file: u32,
        lo: u32,
        body: Option<&'a [Stmt]>,
        expr: Option<&'a Expr>,
    ) -> TypeId {
        let key = node_key(file, lo);
        if let Some(&t) = self.return_types.get(&key) {
            self.meet_kept_limits(&Decided::Return(key));
            return t;
        }
        if let Some(t) = self.provisional_type(Resolution::Return(key)) {
            return t;
        }
        // A recursive function's own calls give `any` while its return type is inferred.
        let Some(token) = self.begin_resolution(Resolution::Return(key)) else {
            return ids::ANY;
        };
        let base = self.limits_base();
        self.suppress += 1;
        let mut scope = self.cache_scope();
        let restarted = scope.restart_limits();
        let t = if let Some(e) = expr {
            scope.check_expr(file, e, None)
        } else {
            let mut found = Vec::new();
            if let Some(body) = body {
                collect_returns(body, &mut found, 0);
            }
            let mut ts = Vec::with_capacity(found.len());
            for e in found {
                match e {
                    Some(e) => ts.push(scope.check_expr(file, e, None)),
                    None => ts.push(ids::UNDEFINED),
                }
            }
            if ts.is_empty() {
                ids::VOID
            } else {
                scope.types.union(&ts)
            }
        };
        let t = scope.normalize_literal_union(t);
        let t = scope.regular_type(t);
        let t = scope.types.widen(t);
        scope.settle_declaration(restarted);
        let limits = scope.limits_met(base);
        drop(scope);
        self.suppress -= 1;
        if self.end_resolution(token, t) {
            self.keep_limits_met(Decided::Return(key), limits);
            self.return_types.insert(key, t);
        }
        t
    }

    /// The type argument `i` of a call is checked against: a rest parameter gives its
    /// element type to every remaining argument.
    pub(in crate::check) fn param_at(&mut self, sig: &Signature, i: usize) -> Option<TypeId> {
        if sig.rest && i + 1 >= sig.params.len() {
            let last = sig.params.last()?.ty;
            // A tuple rest parameter has one type per position, and none past its end.
            if let TypeKind::Tuple(es) = self.types.kind(last).clone() {
                return self.tuple_context(&es, i + 1 - sig.params.len());
            }
            return Some(self.element_type(last));
        }
        // An optional parameter (`x?: T`, `x = v`) takes `undefined` too, as TypeScript's
        // getTypeAtPosition adds it under strictNullChecks.
        let t = sig.params.get(i)?.ty;
        Some(if i >= sig.min_args {
            self.types.union(&[t, ids::UNDEFINED])
        } else {
            t
        })
    }
}

fn collect_returns<'a>(stmts: &'a [Stmt], out: &mut Vec<Option<&'a Expr>>, depth: u32) {
    if depth > 64 {
        return;
    }
    for s in stmts {
        match s {
            Stmt::Return(r) => out.push(r.arg.as_deref()),
            Stmt::Block(b) => collect_returns(&b.stmts, out, depth + 1),
            Stmt::If(i) => {
                collect_returns(std::slice::from_ref(&*i.cons), out, depth + 1);
                if let Some(a) = &i.alt {
                    collect_returns(std::slice::from_ref(&**a), out, depth + 1);
                }
            }
            Stmt::For(f) => collect_returns(std::slice::from_ref(&*f.body), out, depth + 1),
            Stmt::ForIn(f) => collect_returns(std::slice::from_ref(&*f.body), out, depth + 1),
            Stmt::ForOf(f) => collect_returns(std::slice::from_ref(&*f.body), out, depth + 1),
            Stmt::While(w) => collect_returns(std::slice::from_ref(&*w.body), out, depth + 1),
            Stmt::DoWhile(w) => collect_returns(std::slice::from_ref(&*w.body), out, depth + 1),
            Stmt::Labeled(l) => collect_returns(std::slice::from_ref(&*l.body), out, depth + 1),
            Stmt::Switch(sw) => {
                for c in &sw.cases {
                    collect_returns(&c.cons, out, depth + 1);
                }
            }
            Stmt::Try(t) => {
                collect_returns(&t.block.stmts, out, depth + 1);
                if let Some(h) = &t.handler {
                    collect_returns(&h.body.stmts, out, depth + 1);
                }
                if let Some(f) = &t.finalizer {
                    collect_returns(&f.stmts, out, depth + 1);
                }
            }
            _ => {}
        }
    }
}
