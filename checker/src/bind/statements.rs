//! Walking statements: module items, blocks, control flow statements and variable
//! declarations.
use rustc_hash::FxHashMap;
use swc_ecma_ast::*;

use super::{Binder, ExportTo, JumpTarget, SymbolId};
use crate::bind::flow::{FlowNode, UNREACHABLE};
use crate::syntax::export_name;

impl<'a> Binder<'a, '_> {
    pub(super) fn item(&mut self, item: &'a ModuleItem, ns: Option<SymbolId>) {
        self.out.nodes += 1;
        match item {
            ModuleItem::Stmt(s) => self.stmt(s),
            ModuleItem::ModuleDecl(d) => match d {
                ModuleDecl::ExportDecl(e) => self.decl(&e.decl),
                ModuleDecl::ExportDefaultDecl(e) => match &e.decl {
                    DefaultDecl::Class(c) => {
                        let owner = self
                            .out
                            .node_symbols
                            .get(&c.ident.as_ref().map_or(e.span.lo.0, |i| i.span.lo.0))
                            .copied();
                        self.class_with_owner(&c.class, owner);
                    }
                    DefaultDecl::Fn(f) => self.function(&f.function),
                    DefaultDecl::TsInterfaceDecl(i) => self.interface(i),
                },
                ModuleDecl::ExportDefaultExpr(e) => self.expr(&e.expr),
                ModuleDecl::TsExportAssignment(e) => self.expr(&e.expr),
                ModuleDecl::ExportNamed(n) if n.src.is_none() => {
                    for s in &n.specifiers {
                        if let ExportSpecifier::Named(s) = s
                            && let ModuleExportName::Ident(orig) = &s.orig
                        {
                            self.reference(orig);
                            let exported =
                                s.exported.as_ref().map_or(orig.sym.clone(), export_name);
                            if let Some(&id) = self.out.node_symbols.get(&orig.span.lo.0) {
                                self.export(ExportTo::of(ns), &exported, id);
                            }
                        }
                    }
                }
                _ => {}
            },
        }
    }

    pub(super) fn block(&mut self, stmts: &'a [Stmt]) {
        self.scopes.push(FxHashMap::default());
        self.hoist_stmts(stmts);
        for s in stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    pub(super) fn stmt(&mut self, stmt: &'a Stmt) {
        self.out.nodes += 1;
        match stmt {
            Stmt::Block(b) => self.block(&b.stmts),
            Stmt::Expr(e) => {
                self.expr(&e.expr);
                if let Expr::Assign(a) = &*e.expr {
                    self.expando(a);
                }
                if let Expr::Call(call) = &*e.expr
                    && self.flow != UNREACHABLE
                {
                    let antecedent = self.flow;
                    self.flow = self.add_flow(FlowNode::Call { call, antecedent });
                }
            }
            Stmt::Return(r) => {
                self.opt_expr(r.arg.as_deref());
                self.flow = UNREACHABLE;
            }
            Stmt::Throw(t) => {
                self.expr(&t.arg);
                self.flow = UNREACHABLE;
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                let pre = self.flow;
                self.flow = self.condition(&i.test, true, pre);
                self.stmt(&i.cons);
                let after_then = self.flow;
                self.flow = self.condition(&i.test, false, pre);
                if let Some(a) = &i.alt {
                    self.stmt(a);
                }
                let after_else = self.flow;
                self.flow = self.join(vec![after_then, after_else]);
            }
            Stmt::While(w) => {
                let head = self.loop_head();
                self.flow = head;
                self.expr(&w.test);
                let tested = self.flow;
                self.flow = self.condition(&w.test, true, tested);
                let mut exits = self.loop_body(head, &w.body);
                exits.push(self.condition(&w.test, false, tested));
                self.flow = self.join(exits);
            }
            Stmt::DoWhile(w) => {
                let head = self.loop_head();
                self.flow = head;
                let label = self.pending_label.take();
                self.jumps.push(JumpTarget {
                    label,
                    breaks: Vec::new(),
                    continue_to: Some(head),
                });
                self.stmt(&w.body);
                self.expr(&w.test);
                let tested = self.flow;
                let again = self.condition(&w.test, true, tested);
                self.back_edge(head, again);
                let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                exits.push(self.condition(&w.test, false, tested));
                self.flow = self.join(exits);
            }
            Stmt::For(f) => {
                self.scopes.push(FxHashMap::default());
                match &f.init {
                    Some(VarDeclOrExpr::VarDecl(v)) => {
                        for d in &v.decls {
                            self.hoist_pat(&d.name, d.init.as_deref(), false, ExportTo::Nowhere);
                        }
                        self.var_decl(v);
                    }
                    Some(VarDeclOrExpr::Expr(e)) => self.expr(e),
                    None => {}
                }
                let head = self.loop_head();
                self.flow = head;
                self.opt_expr(f.test.as_deref());
                let tested = self.flow;
                if let Some(test) = f.test.as_deref() {
                    self.flow = self.condition(test, true, tested);
                }
                let label = self.pending_label.take();
                self.jumps.push(JumpTarget {
                    label,
                    breaks: Vec::new(),
                    continue_to: Some(head),
                });
                self.stmt(&f.body);
                self.opt_expr(f.update.as_deref());
                let end = self.flow;
                self.back_edge(head, end);
                let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                if let Some(test) = f.test.as_deref() {
                    exits.push(self.condition(test, false, tested));
                }
                self.flow = self.join(exits);
                self.scopes.pop();
            }
            Stmt::ForIn(f) => self.for_head(&f.left, &f.right, &f.body),
            Stmt::ForOf(f) => self.for_head(&f.left, &f.right, &f.body),
            Stmt::Switch(s) => {
                self.expr(&s.discriminant);
                let pre = self.flow;
                self.scopes.push(FxHashMap::default());
                for c in &s.cases {
                    self.hoist_stmts(&c.cons);
                }
                let label = self.pending_label.take();
                self.jumps.push(JumpTarget {
                    label,
                    breaks: Vec::new(),
                    continue_to: None,
                });
                let mut fallthrough = UNREACHABLE;
                for c in &s.cases {
                    self.flow = pre;
                    self.opt_expr(c.test.as_deref());
                    let entered = self.flow;
                    self.flow = self.join(vec![entered, fallthrough]);
                    for s in &c.cons {
                        self.stmt(s);
                    }
                    fallthrough = self.flow;
                }
                let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                exits.push(fallthrough);
                if !s.cases.iter().any(|c| c.test.is_none()) {
                    exits.push(pre);
                }
                self.flow = self.join(exits);
                self.scopes.pop();
            }
            Stmt::Try(t) => {
                let pre = self.flow;
                self.block(&t.block.stmts);
                let after_try = self.flow;
                let mut ends = vec![after_try];
                if let Some(h) = &t.handler {
                    // The catch clause may start anywhere in the try block: from its
                    // entry or its end, as far as assignments there are concerned.
                    self.flow = self.join(vec![pre, after_try]);
                    self.scopes.push(FxHashMap::default());
                    if let Some(p) = &h.param {
                        self.hoist_pat(p, None, true, ExportTo::Nowhere);
                        self.pat(p);
                    }
                    self.block(&h.body.stmts);
                    self.scopes.pop();
                    ends.push(self.flow);
                }
                self.flow = self.join(ends);
                if let Some(f) = &t.finalizer {
                    let done = self.flow;
                    self.flow = self.join(vec![pre, done]);
                    self.block(&f.stmts);
                    if done == UNREACHABLE {
                        self.flow = UNREACHABLE;
                    }
                }
            }
            Stmt::Labeled(l) => {
                if matches!(
                    &*l.body,
                    Stmt::For(_)
                        | Stmt::ForIn(_)
                        | Stmt::ForOf(_)
                        | Stmt::While(_)
                        | Stmt::DoWhile(_)
                        | Stmt::Switch(_)
                ) {
                    self.pending_label = Some(l.label.sym.clone());
                    self.stmt(&l.body);
                } else {
                    self.jumps.push(JumpTarget {
                        label: Some(l.label.sym.clone()),
                        breaks: Vec::new(),
                        continue_to: None,
                    });
                    self.stmt(&l.body);
                    let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                    exits.push(self.flow);
                    self.flow = self.join(exits);
                }
            }
            Stmt::With(w) => {
                self.expr(&w.obj);
                self.stmt(&w.body);
            }
            Stmt::Decl(d) => self.decl(d),
            Stmt::Break(b) => self.jump(b.label.as_ref(), false),
            Stmt::Continue(c) => self.jump(c.label.as_ref(), true),
            Stmt::Empty(_) | Stmt::Debugger(_) => {}
        }
    }

    pub(super) fn for_head(&mut self, left: &'a ForHead, right: &'a Expr, body: &'a Stmt) {
        self.scopes.push(FxHashMap::default());
        match left {
            ForHead::VarDecl(v) => {
                for d in &v.decls {
                    self.hoist_pat(&d.name, None, true, ExportTo::Nowhere);
                }
                self.var_decl(v);
            }
            ForHead::UsingDecl(u) => {
                for d in &u.decls {
                    self.hoist_pat(&d.name, None, true, ExportTo::Nowhere);
                    self.pat(&d.name);
                }
            }
            ForHead::Pat(p) => self.pat(p),
        }
        self.expr(right);
        let head = self.loop_head();
        self.flow = head;
        let mut exits = self.loop_body(head, body);
        exits.push(head);
        self.flow = self.join(exits);
        self.scopes.pop();
    }

    pub(super) fn var_decl(&mut self, v: &'a VarDecl) {
        for d in &v.decls {
            self.pat(&d.name);
            self.opt_expr(d.init.as_deref());
            if let Some(init) = d.init.as_deref() {
                self.pattern_assignment(&d.name, Some(init));
            }
        }
    }

    /// An assignment flow node for each name a declaration or assignment pattern binds
    /// (the value only for a plain name).
    pub(super) fn pattern_assignment(&mut self, p: &'a Pat, value: Option<&'a Expr>) {
        match p {
            Pat::Ident(b) => self.assignment(b.id.span.lo.0, value),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.pattern_assignment(e, None);
                }
            }
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => self.pattern_assignment(&kv.value, None),
                        ObjectPatProp::Assign(a) => self.assignment(a.key.id.span.lo.0, None),
                        ObjectPatProp::Rest(r) => self.pattern_assignment(&r.arg, None),
                    }
                }
            }
            Pat::Rest(r) => self.pattern_assignment(&r.arg, None),
            Pat::Assign(a) => self.pattern_assignment(&a.left, None),
            Pat::Expr(_) | Pat::Invalid(_) => {}
        }
    }
}
