//! Walking expressions: references, object literals, JSX, assignments (expando properties
//! included), member accesses and optional chains.
use rustc_hash::FxHashMap;
use swc_atoms::Atom;
use swc_ecma_ast::*;

use super::{Binder, DeclRef, SyntaxDecl, flags};
use crate::bind::flow::{FlowNode, UNREACHABLE};
use crate::syntax::{is_property_reference, prop_name};

impl<'a> Binder<'a, '_> {
    pub(super) fn opt_expr(&mut self, e: Option<&'a Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    pub(super) fn args(&mut self, args: &'a [ExprOrSpread]) {
        for a in args {
            self.expr(&a.expr);
        }
    }

    pub(super) fn expr(&mut self, e: &'a Expr) {
        self.out.nodes += 1;
        match e {
            Expr::Ident(i) => self.reference(i),
            // `this` is the root of narrowable references (`this.x`): its flow node.
            Expr::This(t) => {
                self.out.flow_of.insert(t.span.lo.0, self.flow);
            }
            Expr::Lit(_) | Expr::Invalid(_) | Expr::MetaProp(_) | Expr::PrivateName(_) => {}
            Expr::Array(a) => {
                for el in a.elems.iter().flatten() {
                    self.expr(&el.expr);
                }
            }
            Expr::Object(o) => {
                let owner = self.anonymous("__object", SyntaxDecl::ObjectLiteral(o));
                for p in &o.props {
                    if let PropOrSpread::Prop(p) = p
                        && let Some((name, flags)) = object_prop_name(p)
                    {
                        let decl = DeclRef::Syntax(SyntaxDecl::ObjectProp(p));
                        self.add_member(Some(owner), name, flags, decl, false);
                    }
                    match p {
                        PropOrSpread::Spread(s) => self.expr(&s.expr),
                        PropOrSpread::Prop(p) => match &**p {
                            Prop::Shorthand(i) => self.reference(i),
                            Prop::KeyValue(kv) => {
                                self.prop_key(&kv.key);
                                self.expr(&kv.value);
                            }
                            Prop::Assign(a) => self.expr(&a.value),
                            Prop::Getter(g) => {
                                self.prop_key(&g.key);
                                self.function(&g.function);
                            }
                            Prop::Setter(st) => {
                                self.prop_key(&st.key);
                                self.function(&st.function);
                            }
                            Prop::Method(m) => {
                                self.prop_key(&m.key);
                                self.function(&m.function);
                            }
                        },
                    }
                }
            }
            Expr::Fn(f) => {
                self.scopes.push(FxHashMap::default());
                if let Some(id) = &f.ident {
                    self.declare(
                        &id.sym,
                        id.span.lo.0,
                        flags::FUNCTION,
                        DeclRef::Function(&f.function),
                    );
                } else {
                    self.anonymous("__function", SyntaxDecl::FunctionExpr(&f.function));
                }
                self.capturing = true;
                self.function(&f.function);
                self.capturing = false;
                self.scopes.pop();
            }
            Expr::Unary(u) => self.expr(&u.arg),
            Expr::Update(u) => {
                self.expr(&u.arg);
                if let Expr::Ident(i) = &*u.arg {
                    self.assignment(i.span.lo.0, None);
                }
            }
            Expr::Bin(b) => {
                self.expr(&b.left);
                let short = match b.op {
                    BinaryOp::LogicalAnd => Some(true),
                    BinaryOp::LogicalOr => Some(false),
                    _ => None,
                };
                let pre = self.flow;
                match short {
                    Some(continue_when) => {
                        self.flow = self.condition(&b.left, continue_when, pre);
                        self.expr(&b.right);
                        let after_right = self.flow;
                        let skipped = self.condition(&b.left, !continue_when, pre);
                        self.flow = self.join(vec![after_right, skipped]);
                    }
                    None if b.op == BinaryOp::NullishCoalescing => {
                        self.expr(&b.right);
                        let after_right = self.flow;
                        self.flow = self.join(vec![after_right, pre]);
                    }
                    None => self.expr(&b.right),
                }
            }
            Expr::Assign(a) => {
                match &a.left {
                    AssignTarget::Simple(s) => match s {
                        SimpleAssignTarget::Ident(b) => self.reference(&b.id),
                        SimpleAssignTarget::Member(m) => self.member(m),
                        SimpleAssignTarget::Paren(p) => self.expr(&p.expr),
                        SimpleAssignTarget::TsAs(x) => self.expr(&x.expr),
                        SimpleAssignTarget::TsNonNull(x) => self.expr(&x.expr),
                        SimpleAssignTarget::TsSatisfies(x) => self.expr(&x.expr),
                        SimpleAssignTarget::TsTypeAssertion(x) => self.expr(&x.expr),
                        SimpleAssignTarget::OptChain(o) => self.opt_chain(o),
                        SimpleAssignTarget::SuperProp(_)
                        | SimpleAssignTarget::TsInstantiation(_)
                        | SimpleAssignTarget::Invalid(_) => {}
                    },
                    AssignTarget::Pat(p) => match p {
                        AssignTargetPat::Array(a) => {
                            for e in a.elems.iter().flatten() {
                                self.assign_pat(e);
                            }
                        }
                        AssignTargetPat::Object(o) => {
                            for prop in &o.props {
                                match prop {
                                    ObjectPatProp::KeyValue(kv) => self.assign_pat(&kv.value),
                                    ObjectPatProp::Assign(a) => {
                                        self.reference(&a.key.id);
                                        self.opt_expr(a.value.as_deref());
                                    }
                                    ObjectPatProp::Rest(r) => self.assign_pat(&r.arg),
                                }
                            }
                        }
                        AssignTargetPat::Invalid(_) => {}
                    },
                }
                self.expr(&a.right);
                match &a.left {
                    AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => {
                        let value = (a.op == AssignOp::Assign).then_some(&*a.right);
                        self.assignment(b.id.span.lo.0, value);
                    }
                    AssignTarget::Simple(SimpleAssignTarget::Member(m))
                        if is_property_reference(m) && self.flow != UNREACHABLE =>
                    {
                        let value = (a.op == AssignOp::Assign).then_some(&*a.right);
                        let antecedent = self.flow;
                        self.flow = self.add_flow(FlowNode::PropertyAssignment {
                            target: m,
                            value,
                            antecedent,
                        });
                    }
                    AssignTarget::Pat(AssignTargetPat::Array(p)) => {
                        for e in p.elems.iter().flatten() {
                            self.pattern_assignment(e, None);
                        }
                    }
                    AssignTarget::Pat(AssignTargetPat::Object(o)) => {
                        for prop in &o.props {
                            match prop {
                                ObjectPatProp::KeyValue(kv) => {
                                    self.pattern_assignment(&kv.value, None)
                                }
                                ObjectPatProp::Assign(p) => {
                                    self.assignment(p.key.id.span.lo.0, None)
                                }
                                ObjectPatProp::Rest(r) => self.pattern_assignment(&r.arg, None),
                            }
                        }
                    }
                    _ => {}
                }
            }
            Expr::Member(m) => self.member(m),
            Expr::SuperProp(s) => {
                if let SuperProp::Computed(c) = &s.prop {
                    self.expr(&c.expr);
                }
            }
            Expr::Cond(c) => {
                self.expr(&c.test);
                let pre = self.flow;
                self.flow = self.condition(&c.test, true, pre);
                self.expr(&c.cons);
                let after_cons = self.flow;
                self.flow = self.condition(&c.test, false, pre);
                self.expr(&c.alt);
                let after_alt = self.flow;
                self.flow = self.join(vec![after_cons, after_alt]);
            }
            Expr::Call(c) => {
                if let Callee::Expr(callee) = &c.callee {
                    self.expr(callee);
                }
                self.type_args(c.type_args.as_deref());
                self.args(&c.args);
            }
            Expr::New(n) => {
                self.expr(&n.callee);
                self.type_args(n.type_args.as_deref());
                if let Some(args) = &n.args {
                    self.args(args);
                }
            }
            Expr::Seq(s) => {
                for e in &s.exprs {
                    self.expr(e);
                }
            }
            Expr::Tpl(t) => {
                for e in &t.exprs {
                    self.expr(e);
                }
            }
            Expr::TaggedTpl(t) => {
                self.expr(&t.tag);
                for e in &t.tpl.exprs {
                    self.expr(e);
                }
            }
            Expr::Arrow(a) => {
                self.anonymous("__function", SyntaxDecl::Arrow(a));
                self.scopes.push(FxHashMap::default());
                self.type_params(a.type_params.as_deref());
                for p in &a.params {
                    self.param(p);
                }
                self.opt_ann(a.return_type.as_deref());
                self.capturing = true;
                self.in_function(a.span.lo.0, |b| match &*a.body {
                    ArrowFunctionBody::FunctionBody(body) => b.block(&body.stmts),
                    ArrowFunctionBody::Expr(e) => b.expr(e),
                });
                self.scopes.pop();
            }
            Expr::Class(c) => {
                self.scopes.push(FxHashMap::default());
                // An anonymous class gets its `__class` symbol, but no member table: the
                // checker types class expressions from their syntax.
                let owner = match &c.ident {
                    Some(id) => Some(self.declare(
                        &id.sym,
                        id.span.lo.0,
                        flags::CLASS,
                        DeclRef::Class(&c.class),
                    )),
                    None => {
                        self.anonymous("__class", SyntaxDecl::ClassExpr(&c.class));
                        None
                    }
                };
                self.class_with_owner(&c.class, owner);
                self.scopes.pop();
            }
            Expr::Yield(y) => self.opt_expr(y.arg.as_deref()),
            Expr::Await(a) => self.expr(&a.arg),
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::TsTypeAssertion(t) => {
                self.expr(&t.expr);
                self.ty(&t.type_ann);
            }
            Expr::TsConstAssertion(t) => self.expr(&t.expr),
            Expr::TsNonNull(t) => self.expr(&t.expr),
            Expr::TsAs(t) => {
                self.expr(&t.expr);
                self.ty(&t.type_ann);
            }
            Expr::TsSatisfies(t) => {
                self.expr(&t.expr);
                self.ty(&t.type_ann);
            }
            Expr::TsInstantiation(t) => {
                self.expr(&t.expr);
                self.type_args(Some(&t.type_args));
            }
            Expr::OptChain(o) => self.opt_chain(o),
            Expr::JSXElement(el) => self.jsx_element(el),
            Expr::JSXFragment(f) => self.jsx_children(&f.children),
            Expr::JSXMember(_) | Expr::JSXNamespacedName(_) | Expr::JSXEmpty(_) => {}
        }
    }

    pub(super) fn jsx_element(&mut self, el: &'a JSXElement) {
        if let JSXElementName::Ident(i) = &el.opening.name
            && i.sym.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        {
            self.reference(i);
        }
        let owner = self.anonymous("__jsxAttributes", SyntaxDecl::JsxAttributes(&el.opening));
        for a in &el.opening.attrs {
            if let JSXAttrOrSpread::JSXAttr(a) = a
                && let JSXAttrName::Ident(name) = &a.name
            {
                let decl = DeclRef::Syntax(SyntaxDecl::JsxAttr(a));
                self.add_member(Some(owner), name.sym.clone(), flags::PROPERTY, decl, false);
            }
            match a {
                JSXAttrOrSpread::SpreadElement(s) => self.expr(&s.expr),
                JSXAttrOrSpread::JSXAttr(a) => match &a.value {
                    Some(JSXAttrValue::JSXExprContainer(c)) => {
                        if let JSXExpr::Expr(e) = &c.expr {
                            self.expr(e);
                        }
                    }
                    Some(JSXAttrValue::JSXElement(e)) => self.jsx_element(e),
                    Some(JSXAttrValue::JSXFragment(f)) => self.jsx_children(&f.children),
                    _ => {}
                },
            }
        }
        self.jsx_children(&el.children);
    }

    pub(super) fn jsx_children(&mut self, children: &'a [JSXElementChild]) {
        for c in children {
            self.out.nodes += 1;
            match c {
                JSXElementChild::JSXExprContainer(c) => {
                    if let JSXExpr::Expr(e) = &c.expr {
                        self.expr(e);
                    }
                }
                JSXElementChild::JSXSpreadChild(s) => self.expr(&s.expr),
                JSXElementChild::JSXElement(e) => self.jsx_element(e),
                JSXElementChild::JSXFragment(f) => self.jsx_children(&f.children),
                JSXElementChild::JSXText(_) => {}
            }
        }
    }

    pub(super) fn assign_pat(&mut self, p: &'a Pat) {
        match p {
            Pat::Ident(b) => self.reference(&b.id),
            Pat::Expr(e) => self.expr(e),
            Pat::Assign(a) => {
                self.assign_pat(&a.left);
                self.expr(&a.right);
            }
            Pat::Rest(r) => self.assign_pat(&r.arg),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.assign_pat(e);
                }
            }
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => self.assign_pat(&kv.value),
                        ObjectPatProp::Assign(a) => self.reference(&a.key.id),
                        ObjectPatProp::Rest(r) => self.assign_pat(&r.arg),
                    }
                }
            }
            Pat::Invalid(_) => {}
        }
    }

    /// `f.prop = value` as a statement, where `f` is a function declaration or a `const`
    /// initialized by a function expression or arrow in this file: TypeScript's expando
    /// property, an export of `f`'s symbol that its type includes (`Button.displayName =
    /// "Button"`). Only the first assignment to a name declares it.
    pub(super) fn expando(&mut self, a: &'a AssignExpr) {
        if a.op != AssignOp::Assign {
            return;
        }
        let AssignTarget::Simple(SimpleAssignTarget::Member(m)) = &a.left else {
            return;
        };
        let (Expr::Ident(obj), MemberProp::Ident(prop)) = (&*m.obj, &m.prop) else {
            return;
        };
        let Some(&owner) = self.out.node_symbols.get(&obj.span.lo.0) else {
            return;
        };
        if owner.file != self.file {
            return;
        }
        let sym = &self.out.symbols[owner.index as usize];
        let function_like = sym.decls.iter().any(|(_, d)| match d {
            DeclRef::Function(_) => true,
            DeclRef::Binding {
                init: Some(init),
                is_const: true,
                ..
            } => matches!(&**init, Expr::Arrow(_) | Expr::Fn(_)),
            _ => false,
        });
        if !function_like || sym.exports.contains_key(&prop.sym) {
            return;
        }
        let id = self.new_symbol(
            prop.sym.clone(),
            flags::PROPERTY,
            DeclRef::Syntax(SyntaxDecl::Expando(a)),
        );
        self.out.symbols[id.index as usize].parent = Some(owner);
        self.out.symbols[owner.index as usize]
            .exports
            .insert(prop.sym.clone(), id);
    }

    pub(super) fn member(&mut self, m: &'a MemberExpr) {
        self.expr(&m.obj);
        if let MemberProp::Computed(c) = &m.prop {
            self.expr(&c.expr);
        }
    }

    pub(super) fn opt_chain(&mut self, o: &'a OptChainExpr) {
        match &*o.base {
            OptChainBase::Member(m) => self.member(m),
            OptChainBase::Call(c) => {
                self.expr(&c.callee);
                self.type_args(c.type_args.as_deref());
                self.args(&c.args);
            }
        }
    }
}

/// The name and flags of an object literal member TypeScript declares (`{ a: 1, b, m() {} }`);
/// computed names it cannot know are skipped.
fn object_prop_name(p: &Prop) -> Option<(Atom, u32)> {
    match p {
        Prop::Shorthand(i) => Some((i.sym.clone(), flags::PROPERTY)),
        Prop::KeyValue(kv) => prop_name(&kv.key).map(|n| (n, flags::PROPERTY)),
        Prop::Assign(a) => Some((a.key.sym.clone(), flags::PROPERTY)),
        Prop::Getter(g) => prop_name(&g.key).map(|n| (n, flags::PROPERTY)),
        Prop::Setter(s) => prop_name(&s.key).map(|n| (n, flags::PROPERTY)),
        Prop::Method(m) => prop_name(&m.key).map(|n| (n, flags::METHOD)),
    }
}
