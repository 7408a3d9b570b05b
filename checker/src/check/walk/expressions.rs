//! Expressions: the type of each expression (the main walk reports), identifiers, members,
//! object and array literals, arrow functions, binary operators, JSX.
use std::rc::Rc;

use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::flags;
use crate::check::flow::narrow;
use crate::check::symbols::signatures::FunctionLike;
use crate::check::{Checker, EXPRESSION_NODE, MAX_DEPTH, NodeLinks, node_key};
use crate::diag::Code;
use crate::syntax;
use crate::syntax::expr_lo;
use crate::types::{LITERAL_MEMBER, ObjectType, PropSymbol, SymbolType, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// Infers the type of an expression, reporting what is wrong in it (in the main walk).
    pub fn check_expr(&mut self, file: u32, e: &'a Expr, contextual: Option<TypeId>) -> TypeId {
        if self.measuring() {
            return self.outside_measurement(|c| c.check_expr(file, e, contextual));
        }
        let const_outer = self.const_context;
        self.const_context = const_outer && passes_const_context(e);
        let t = self.check_expr_in_context(file, e, contextual);
        self.const_context = const_outer;
        t
    }

    pub(super) fn check_expr_in_context(
        &mut self,
        file: u32,
        e: &'a Expr,
        contextual: Option<TypeId>,
    ) -> TypeId {
        self.depth += 1;
        let entered = self.enter_node(file, expr_lo(e));
        let t = if self.depth > MAX_DEPTH {
            self.too_deep(file, expr_lo(e));
            ids::ERROR
        } else {
            self.check_expr_inner(file, e, contextual)
        };
        self.leave_node(entered);
        self.depth -= 1;
        let mut links = NodeLinks::new(EXPRESSION_NODE, t);
        links.contextual_type = contextual;
        if let Expr::Ident(i) = e {
            links.resolved_symbol = self.bound.resolve(file, i.span.lo.0, &i.sym);
        }
        if let Expr::Call(_) | Expr::New(_) = e {
            links.resolved_signature = self
                .resolved_signatures
                .get(&node_key(file, expr_lo(e)))
                .cloned();
        }
        self.node_links.insert(node_key(file, expr_lo(e)), links);
        t
    }

    pub(super) fn check_expr_inner(
        &mut self,
        file: u32,
        e: &'a Expr,
        contextual: Option<TypeId>,
    ) -> TypeId {
        match e {
            Expr::Ident(i) => self.check_ident(file, i),
            Expr::This(_) => self.this_types.last().copied().unwrap_or(ids::ANY),
            Expr::Lit(l) => match l {
                // A literal expression has its literal's fresh type.
                Lit::Str(_) | Lit::Num(_) | Lit::Bool(_) | Lit::Null(_) => {
                    let t = self.literal_type(l).unwrap_or(ids::ANY);
                    self.types.fresh_literal(t)
                }
                Lit::BigInt(b) => {
                    let t = self.types.bigint_lit(&Atom::from(b.value.to_string()));
                    self.types.fresh_literal(t)
                }
                Lit::Regex(_) => self
                    .globals
                    .regexp
                    .map_or(ids::ANY, |r| self.declared_type(r)),
                Lit::JSXText(_) => ids::STRING,
            },
            Expr::Tpl(t) => {
                for x in &t.exprs {
                    self.check_expr(file, x, None);
                }
                ids::STRING
            }
            Expr::TaggedTpl(t) => {
                self.check_expr(file, &t.tag, None);
                for x in &t.tpl.exprs {
                    self.check_expr(file, x, None);
                }
                ids::ANY
            }
            Expr::Array(a) => {
                // `null` and `undefined` in the contextual type give no element type.
                let contextual = contextual
                    .map(|c| self.types.non_nullable(c))
                    .filter(|&c| c != ids::NEVER);
                if self.const_context
                    && a.elems
                        .iter()
                        .all(|e| e.as_ref().is_some_and(|e| e.spread.is_none()))
                {
                    return self.check_const_array(file, a, contextual);
                }
                // An array literal in a tuple context is a tuple (TypeScript's
                // `isTupleLikeType` of the contextual type, or of a member of its union); a
                // spread element spreads its tuple, or is a rest element of its array.
                let tuples = contextual
                    .map(|c| self.contextual_tuples(c))
                    .unwrap_or_default();
                if !tuples.is_empty() && a.elems.iter().all(|e| e.is_some()) {
                    let mut elems: Vec<TypeId> = Vec::with_capacity(a.elems.len());
                    for (i, el) in a.elems.iter().flatten().enumerate() {
                        if el.spread.is_some() {
                            let t = self.check_expr(file, &el.expr, None);
                            elems.push(self.types.spread(t));
                            continue;
                        }
                        let ctx: Vec<TypeId> = tuples
                            .iter()
                            .filter_map(|es| self.tuple_context(es, i))
                            .collect();
                        let ctx = (!ctx.is_empty()).then(|| self.types.union(&ctx));
                        elems.push(self.check_expr(file, &el.expr, ctx));
                    }
                    return self.types.tuple(elems.into());
                }
                let ctx_elem = contextual.map(|c| self.element_type(c));
                let mut ts = Vec::with_capacity(a.elems.len());
                for el in a.elems.iter().flatten() {
                    let t = self.check_expr(file, &el.expr, ctx_elem);
                    ts.push(if el.spread.is_some() {
                        self.element_type(t)
                    } else {
                        t
                    });
                }
                let u = self.types.union(&ts);
                let u = if ctx_elem.is_some_and(|c| self.is_assignable(u, c)) {
                    u
                } else {
                    self.types.widen(u)
                };
                let u = if ts.is_empty() { ids::NEVER } else { u };
                self.array_of(u)
            }
            Expr::Object(o) => self.check_object(file, o, contextual),
            Expr::Fn(f) => {
                let sig = contextual.and_then(|c| self.members(c).calls.first().cloned());
                self.check_function(file, &f.function, sig.as_deref())
            }
            Expr::Arrow(a) => self.check_arrow(file, a, contextual),
            Expr::Class(c) => {
                self.check_class(file, &c.class, c.ident.as_ref().map_or(0, |i| i.span.lo.0));
                match c.ident.as_ref().and_then(|i| {
                    self.bound.files[file as usize]
                        .node_symbols
                        .get(&i.span.lo.0)
                        .copied()
                }) {
                    Some(s) => self.types.of_symbol(SymbolType::ClassStatic, s),
                    None => ids::ANY,
                }
            }
            Expr::Unary(u) => {
                let t = self.check_expr(file, &u.arg, None);
                match u.op {
                    UnaryOp::TypeOf => ids::STRING,
                    UnaryOp::Void => ids::UNDEFINED,
                    UnaryOp::Delete | UnaryOp::Bang => ids::BOOLEAN,
                    UnaryOp::Minus | UnaryOp::Plus | UnaryOp::Tilde => self.numeric_result(t),
                }
            }
            Expr::Update(u) => {
                self.check_expr(file, &u.arg, None);
                ids::NUMBER
            }
            Expr::Bin(b) => self.check_binary(file, b, contextual),
            Expr::Assign(a) => {
                let target = match &a.left {
                    AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => {
                        Some(self.check_ident_declared(file, &b.id))
                    }
                    AssignTarget::Simple(SimpleAssignTarget::Member(m)) => {
                        Some(self.check_member(file, m, true))
                    }
                    _ => None,
                };
                let r = self.check_expr(file, &a.right, target);
                if a.op == AssignOp::Assign
                    && let Some(t) = target
                {
                    self.check_assignable_to(file, &a.right, r, t, a.span.lo.0);
                }
                r
            }
            // A property's literal type is regular (TypeScript's property types are).
            Expr::Member(m) => {
                let t = self.check_member(file, m, false);
                self.regular_literals(t)
            }
            Expr::SuperProp(_) => ids::ANY,
            Expr::Cond(c) => {
                self.check_expr(file, &c.test, None);
                let a = self.check_expr(file, &c.cons, contextual);
                let b = self.check_expr(file, &c.alt, contextual);
                self.union_without_empty_literal(a, b)
            }
            Expr::Call(c) => {
                let callee = match &c.callee {
                    Callee::Expr(x) => self.check_expr(file, x, None),
                    Callee::Super(_) | Callee::Import(_) => ids::ANY,
                };
                self.check_call(
                    file,
                    callee,
                    &c.args,
                    c.type_args.as_deref(),
                    c.span.lo.0,
                    false,
                    contextual,
                )
            }
            Expr::New(n) => {
                let callee = self.check_expr(file, &n.callee, None);
                let args: &'a [ExprOrSpread] = n.args.as_deref().unwrap_or(&[]);
                self.check_call(
                    file,
                    callee,
                    args,
                    n.type_args.as_deref(),
                    n.span.lo.0,
                    true,
                    contextual,
                )
            }
            Expr::Seq(s) => {
                let mut t = ids::UNDEFINED;
                for x in &s.exprs {
                    t = self.check_expr(file, x, None);
                }
                t
            }
            Expr::Yield(y) => {
                if let Some(a) = &y.arg {
                    self.check_expr(file, a, None);
                }
                ids::ANY
            }
            Expr::Await(a) => {
                let t = self.check_expr(file, &a.arg, None);
                self.awaited(t)
            }
            Expr::Paren(p) => self.check_expr(file, &p.expr, contextual),
            Expr::TsAs(x) => {
                self.check_type_node(file, &x.type_ann);
                let t = self.type_from_node(file, &x.type_ann);
                self.check_expr(file, &x.expr, Some(t));
                t
            }
            Expr::TsTypeAssertion(x) => {
                self.check_type_node(file, &x.type_ann);
                let t = self.type_from_node(file, &x.type_ann);
                self.check_expr(file, &x.expr, Some(t));
                t
            }
            Expr::TsSatisfies(x) => {
                self.check_type_node(file, &x.type_ann);
                let t = self.type_from_node(file, &x.type_ann);
                let v = self.check_expr(file, &x.expr, Some(t));
                self.check_assignable_to(file, &x.expr, v, t, x.span.lo.0);
                v
            }
            Expr::TsConstAssertion(x) => {
                let outer = std::mem::replace(&mut self.const_context, true);
                let t = self.check_expr(file, &x.expr, contextual);
                self.const_context = outer;
                // `as const` gives regular literal types, which widening keeps.
                self.regular_literals(t)
            }
            Expr::TsNonNull(x) => {
                let t = self.check_expr(file, &x.expr, contextual);
                self.types.non_nullable(t)
            }
            Expr::TsInstantiation(x) => self.check_expr(file, &x.expr, None),
            Expr::OptChain(o) => match &*o.base {
                OptChainBase::Member(m) => {
                    let t = self.check_member(file, m, false);
                    self.types.union(&[t, ids::UNDEFINED])
                }
                OptChainBase::Call(c) => {
                    let callee = self.check_expr(file, &c.callee, None);
                    let callee = self.types.non_nullable(callee);
                    let t = self.check_call(
                        file,
                        callee,
                        &c.args,
                        c.type_args.as_deref(),
                        c.span.lo.0,
                        false,
                        None,
                    );
                    self.types.union(&[t, ids::UNDEFINED])
                }
            },
            Expr::JSXElement(el) => {
                self.check_jsx(file, el);
                ids::ANY
            }
            Expr::JSXFragment(f) => {
                self.check_jsx_children(file, &f.children);
                ids::ANY
            }
            Expr::MetaProp(_)
            | Expr::PrivateName(_)
            | Expr::JSXMember(_)
            | Expr::JSXNamespacedName(_)
            | Expr::JSXEmpty(_)
            | Expr::Invalid(_) => ids::ANY,
        }
    }

    pub(super) fn check_jsx(&mut self, file: u32, el: &'a JSXElement) {
        for a in &el.opening.attrs {
            match a {
                JSXAttrOrSpread::SpreadElement(s) => {
                    self.check_expr(file, &s.expr, None);
                }
                JSXAttrOrSpread::JSXAttr(a) => match &a.value {
                    Some(JSXAttrValue::JSXExprContainer(c)) => {
                        if let JSXExpr::Expr(e) = &c.expr {
                            self.check_expr(file, e, None);
                        }
                    }
                    Some(JSXAttrValue::JSXElement(e)) => self.check_jsx(file, e),
                    _ => {}
                },
            }
        }
        self.check_jsx_children(file, &el.children);
    }

    pub(super) fn check_jsx_children(&mut self, file: u32, children: &'a [JSXElementChild]) {
        for c in children {
            match c {
                JSXElementChild::JSXExprContainer(c) => {
                    if let JSXExpr::Expr(e) = &c.expr {
                        self.check_expr(file, e, None);
                    }
                }
                JSXElementChild::JSXSpreadChild(s) => {
                    self.check_expr(file, &s.expr, None);
                }
                JSXElementChild::JSXElement(e) => self.check_jsx(file, e),
                JSXElementChild::JSXFragment(f) => self.check_jsx_children(file, &f.children),
                JSXElementChild::JSXText(_) => {}
            }
        }
    }

    /// The type of an identifier reference, narrowed by control flow.
    pub(super) fn check_ident(&mut self, file: u32, i: &Ident) -> TypeId {
        let declared = self.check_ident_declared(file, i);
        let pos = i.span.lo.0;
        let Some(&flow) = self.bound.files[file as usize].flow_of.get(&pos) else {
            return declared;
        };
        match self.bound.resolve(file, pos, &i.sym) {
            Some(s) if self.is_narrowable(file, s, declared) => {
                self.flow_type_of_reference(file, narrow::Reference::symbol(s), declared, flow)
            }
            _ => declared,
        }
    }

    /// The declared type of what an identifier names (an assignment's target).
    pub(super) fn check_ident_declared(&mut self, file: u32, i: &Ident) -> TypeId {
        if i.sym.as_str() == "undefined" {
            return ids::UNDEFINED;
        }
        match self.bound.resolve(file, i.span.lo.0, &i.sym) {
            Some(s) => {
                let target = self.resolve_alias(s);
                let tf = self.bound.symbol(target).flags;
                if target != s && tf & flags::VALUE == 0 && tf != 0 {
                    return ids::ANY;
                }
                self.type_of_symbol(s)
            }
            None if i.sym.as_str() == "globalThis" => ids::ANY,
            // Every non-arrow function has an implicit `arguments` (TypeScript's
            // `argumentsSymbol`), typed by the library's `IArguments`.
            None if i.sym.as_str() == "arguments" => {
                match self.bound.globals.get(&Atom::from("IArguments")).copied() {
                    Some(s) => self.declared_type(s),
                    None => ids::ANY,
                }
            }
            None => {
                if !self.files[file as usize].is_lib {
                    self.report(
                        file,
                        i.span.lo.0,
                        Code::CannotFindName,
                        format!("Cannot find name '{}'.", i.sym),
                    );
                }
                ids::ERROR
            }
        }
    }

    pub(super) fn check_member(&mut self, file: u32, m: &'a MemberExpr, write: bool) -> TypeId {
        let obj = self.check_expr(file, &m.obj, None);
        let obj = if write {
            obj
        } else {
            self.array_union_receiver(obj)
        };
        match &m.prop {
            MemberProp::Ident(name) => match self.property_type(obj, &name.sym) {
                Some(t) if write => t,
                Some(t) => self.narrow_property_reference(file, m, t),
                None => {
                    let on = self.shown_for_missing_property(obj);
                    let shown = self.type_to_string(on);
                    self.report(
                        file,
                        name.span.lo.0,
                        Code::NoProperty,
                        format!(
                            "Property '{}' does not exist on type '{}'.",
                            name.sym, shown
                        ),
                    );
                    ids::ERROR
                }
            },
            MemberProp::Computed(c) => {
                let k = self.check_expr(file, &c.expr, None);
                match self.types.kind(k).clone() {
                    TypeKind::StringLit(s) => self.property_type(obj, &s).unwrap_or(ids::ANY),
                    TypeKind::NumberLit(_) | TypeKind::Number => {
                        if let (TypeKind::Tuple(es), TypeKind::NumberLit(n)) =
                            (self.types.kind(obj).clone(), self.types.kind(k).clone())
                        {
                            return self.tuple_index(&es, n);
                        }
                        self.element_type(obj)
                    }
                    _ => {
                        let mm = self.members(obj);
                        mm.string_index.unwrap_or(ids::ANY)
                    }
                }
            }
            MemberProp::PrivateName(_) => ids::ANY,
        }
    }

    pub(super) fn check_object(
        &mut self,
        file: u32,
        o: &'a ObjectLit,
        contextual: Option<TypeId>,
    ) -> TypeId {
        let mut obj = ObjectType::default();
        for p in &o.props {
            match p {
                PropOrSpread::Spread(s) => {
                    let t = self.check_expr(file, &s.expr, None);
                    let m = self.spread_members(t);
                    for name in &m.order {
                        let p = &m.props[name];
                        // A spread literal's own members are not this literal's.
                        let p = if p.check_flags & LITERAL_MEMBER != 0 {
                            Rc::new(PropSymbol {
                                check_flags: p.check_flags & !LITERAL_MEMBER,
                                ..(**p).clone()
                            })
                        } else {
                            p.clone()
                        };
                        self.insert_spread_prop(&mut obj, name, p);
                    }
                }
                PropOrSpread::Prop(p) => {
                    // Function bodies are not in the literal's const context.
                    let in_const = self.const_context;
                    if matches!(&**p, Prop::Getter(_) | Prop::Setter(_) | Prop::Method(_)) {
                        self.const_context = false;
                    }
                    let (name, ty) = match &**p {
                        Prop::Shorthand(i) => (Some(i.sym.clone()), self.check_ident(file, i)),
                        Prop::KeyValue(kv) => {
                            let name = syntax::prop_name(&kv.key);
                            if let PropName::Computed(c) = &kv.key {
                                self.check_expr(file, &c.expr, None);
                            }
                            let ctx = match (&name, contextual) {
                                (Some(n), Some(c)) => self.property_type(c, n),
                                _ => None,
                            };
                            let t = self.check_expr(file, &kv.value, ctx);
                            (name, t)
                        }
                        Prop::Assign(a) => (
                            Some(a.key.sym.clone()),
                            self.check_expr(file, &a.value, None),
                        ),
                        Prop::Getter(g) => {
                            let t = self.check_function(file, &g.function, None);
                            let ret = self.members(t).calls.first().map_or(ids::ANY, |s| s.ret);
                            (syntax::prop_name(&g.key), ret)
                        }
                        Prop::Setter(st) => {
                            self.check_function(file, &st.function, None);
                            (syntax::prop_name(&st.key), ids::ANY)
                        }
                        Prop::Method(m) => {
                            let t = self.check_function(file, &m.function, None);
                            (syntax::prop_name(&m.key), t)
                        }
                    };
                    self.const_context = in_const;
                    if let Some(name) = name {
                        let ctx = match contextual {
                            Some(c) => self.property_type(c, &name),
                            None => None,
                        };
                        let ty = if in_const {
                            ty
                        } else {
                            self.widen_unless_literal_context(ty, ctx)
                        };
                        let symbol = PropSymbol {
                            ty: std::cell::Cell::new(ty),
                            check_flags: LITERAL_MEMBER,
                            ..PropSymbol::empty(name.clone())
                        };
                        obj.insert_symbol(name, Rc::new(symbol));
                    }
                }
            }
        }
        let t = self.types.fresh_object(obj, node_key(file, o.span.lo.0));
        let spread = o.props.iter().any(|p| matches!(p, PropOrSpread::Spread(_)));
        self.types.mark_object_literal(t, spread);
        t
    }

    /// The tuples contextual type `c` is or has as union members.
    fn contextual_tuples(&self, c: TypeId) -> Vec<Box<[TypeId]>> {
        let tuple = |t: TypeId| match self.types.kind(t) {
            TypeKind::Tuple(es) => Some(es.clone()),
            _ => None,
        };
        match self.types.kind(c) {
            TypeKind::Union(ms) => ms.iter().filter_map(|&m| tuple(m)).collect(),
            _ => tuple(c).into_iter().collect(),
        }
    }

    /// An array literal in a const context: a tuple of its elements' types, unwidened
    /// (TypeScript's `readonly ["a", 1]`; `readonly` is not modelled).
    pub(super) fn check_const_array(
        &mut self,
        file: u32,
        a: &'a ArrayLit,
        contextual: Option<TypeId>,
    ) -> TypeId {
        let tuple_ctx = match contextual.map(|c| self.types.kind(c).clone()) {
            Some(TypeKind::Tuple(es)) => Some(es),
            _ => None,
        };
        let elem_ctx = match (&tuple_ctx, contextual) {
            (None, Some(c)) => Some(self.element_type(c)),
            _ => None,
        };
        let elems: Box<[TypeId]> = a
            .elems
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, el)| {
                let ctx = match &tuple_ctx {
                    Some(es) => self.tuple_context(es, i),
                    None => elem_ctx,
                };
                self.check_expr(file, &el.expr, ctx)
            })
            .collect();
        self.types.tuple(elems)
    }

    pub(super) fn check_arrow(
        &mut self,
        file: u32,
        a: &'a ArrowExpr,
        contextual: Option<TypeId>,
    ) -> TypeId {
        let ctx_sig = contextual.and_then(|c| {
            if matches!(self.types.kind(c), TypeKind::Any) {
                return None;
            }
            self.members(c).calls.first().cloned()
        });
        self.check_type_params(file, a.type_params.as_deref());
        for (i, p) in a.params.iter().enumerate() {
            self.check_pat_annotations(file, p);
            self.contextual_param(file, p, ctx_sig.as_deref(), i);
        }
        let declared = a.return_type.as_ref().map(|r| {
            self.check_type_node(file, &r.type_ann);
            let t = self.type_from_node(file, &r.type_ann);
            if a.is_async { self.awaited(t) } else { t }
        });
        let body_type = match &*a.body {
            ArrowFunctionBody::FunctionBody(b) => {
                self.check_body(file, &b.stmts, declared, a.is_async);
                None
            }
            ArrowFunctionBody::Expr(x) => {
                let t = self.check_expr(file, x, declared.or(ctx_sig.as_ref().map(|s| s.ret)));
                let returned = if a.is_async { self.awaited(t) } else { t };
                if let Some(d) = declared {
                    self.check_assignable_to(file, x, returned, d, expr_lo(x));
                }
                Some(t)
            }
        };
        let rest = a.params.last().is_some_and(|p| matches!(p, Pat::Rest(_)));
        let sig = self.signature_from_syntax(
            file,
            a.type_params.as_deref(),
            0,
            rest,
            |c| {
                let ret = match (declared, body_type) {
                    (Some(d), _) => d,
                    (None, Some(t)) => {
                        let ctx_ret = ctx_sig.as_ref().map(|s| s.ret);
                        let t = c.normalize_literal_union(t);
                        let t = c.regular_type(t);
                        c.widen_unless_literal_context(t, ctx_ret)
                    }
                    (None, None) => match &*a.body {
                        ArrowFunctionBody::FunctionBody(b) => {
                            c.infer_return(file, a.span.lo.0, Some(&b.stmts), None)
                        }
                        ArrowFunctionBody::Expr(_) => ids::ANY,
                    },
                };
                if a.is_async {
                    let awaited = c.awaited(ret);
                    c.promise_of(awaited)
                } else {
                    ret
                }
            },
            FunctionLike {
                params: a.params.iter().collect(),
                annotation: a.return_type.as_deref().map(|r| &*r.type_ann),
                returned: match &*a.body {
                    ArrowFunctionBody::Expr(x) => Some(&**x),
                    ArrowFunctionBody::FunctionBody(b) => narrow::single_return(&b.stmts),
                },
                plain: !a.is_async && !a.is_generator,
            },
        );
        self.function_type(vec![sig], node_key(file, a.span.lo.0))
    }

    pub(super) fn check_binary(
        &mut self,
        file: u32,
        b: &'a BinExpr,
        contextual: Option<TypeId>,
    ) -> TypeId {
        // The operands of `??`, `||` and `&&` share the expression's context (the right
        // one is the value where the left one is not taken).
        let logical = matches!(
            b.op,
            BinaryOp::NullishCoalescing | BinaryOp::LogicalOr | BinaryOp::LogicalAnd
        );
        let ctx = if logical { contextual } else { None };
        let l = self.check_expr(file, &b.left, None);
        let r = self.check_expr(file, &b.right, ctx);
        use BinaryOp::*;
        match b.op {
            Add => {
                let is_str = |t: &TypeKind| matches!(t, TypeKind::String | TypeKind::StringLit(_));
                if is_str(self.types.kind(l)) || is_str(self.types.kind(r)) {
                    ids::STRING
                } else if l == ids::ANY || r == ids::ANY || l == ids::ERROR || r == ids::ERROR {
                    ids::ANY
                } else {
                    self.numeric_result(l)
                }
            }
            Sub | Mul | Div | Mod | Exp | BitOr | BitXor | BitAnd | LShift | RShift
            | ZeroFillRShift => self.numeric_result(l),
            EqEq | NotEq | EqEqEq | NotEqEq | Lt | LtEq | Gt | GtEq | In | InstanceOf => {
                ids::BOOLEAN
            }
            LogicalAnd => r,
            LogicalOr | NullishCoalescing => {
                let l = self.types.non_nullable(l);
                self.subtype_union(&[l, r])
            }
        }
    }

    /// The type of an arithmetic result on `operand`: bigint for a bigint, else number.
    fn numeric_result(&self, operand: TypeId) -> TypeId {
        if matches!(
            self.types.kind(operand),
            TypeKind::BigInt | TypeKind::BigIntLit(_)
        ) {
            ids::BIGINT
        } else {
            ids::NUMBER
        }
    }
}

/// Whether an expression inside a const context is in it too (TypeScript's
/// `isConstContext`: literals, parentheses, conditionals' branches, array and object
/// literals' elements); any other expression starts outside it.
fn passes_const_context(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Lit(_)
            | Expr::Tpl(_)
            | Expr::Paren(_)
            | Expr::Cond(_)
            | Expr::Array(_)
            | Expr::Object(_)
            | Expr::TsConstAssertion(_)
            | Expr::Unary(_)
    )
}

/// A function expression with an untyped parameter: its type depends on the contextual
/// signature, so an overloaded call types it only once it has chosen a candidate.
pub(super) fn needs_context(e: &Expr) -> bool {
    match e {
        Expr::Arrow(_) | Expr::Fn(_) => is_context_sensitive(e),
        Expr::Paren(p) => needs_context(&p.expr),
        _ => false,
    }
}

pub(super) fn is_context_sensitive(e: &Expr) -> bool {
    match e {
        Expr::Arrow(a) => a
            .params
            .iter()
            .any(|p| matches!(p, Pat::Ident(b) if b.type_ann.is_none())),
        Expr::Fn(f) => f
            .function
            .params
            .iter()
            .any(|p| matches!(&p.pat, Pat::Ident(b) if b.type_ann.is_none())),
        Expr::Object(_) | Expr::Array(_) => true,
        Expr::Paren(p) => is_context_sensitive(&p.expr),
        _ => false,
    }
}
