//! The main walk over a file: its statements, module declarations and variable
//! declarations (the walk that reports).
use swc_ecma_ast::*;

use crate::check::{Checker, MAX_DEPTH, NodeLinks, STATEMENT_KEY, STATEMENT_NODE, node_key};
use crate::diag::Code;
use crate::syntax;
use crate::syntax::stmt_lo;
use crate::types::ids;

impl<'a, 'b> Checker<'a, 'b> {
    /// Checks one file: every statement, declaration and expression in it.
    pub fn check_file(&mut self, file: u32) {
        self.current_file = file;
        let f = &self.files[file as usize];
        let Some(program) = &f.program else { return };
        let unresolved = self.bound.files[file as usize].unresolved_imports.clone();
        for (pos, spec) in unresolved {
            self.report(
                file,
                pos,
                Code::CannotFindModule,
                format!("Cannot find module '{spec}' or its corresponding type declarations."),
            );
        }
        match program {
            Program::Module(m) => {
                for item in &m.body {
                    self.forget_limits_met();
                    if self.table_guard_stops(file, swc_common::Spanned::span(item).lo.0) {
                        break;
                    }
                    match item {
                        ModuleItem::Stmt(s) => self.check_stmt(file, s),
                        ModuleItem::ModuleDecl(d) => self.check_module_decl(file, d),
                    }
                }
            }
            Program::Script(s) => {
                for stmt in &s.body {
                    self.forget_limits_met();
                    if self.table_guard_stops(file, stmt_lo(stmt)) {
                        break;
                    }
                    self.check_stmt(file, stmt);
                }
            }
        }
        self.current_file = u32::MAX;
    }

    pub(super) fn check_module_decl(&mut self, file: u32, d: &'a ModuleDecl) {
        match d {
            ModuleDecl::ExportDecl(e) => self.check_decl(file, &e.decl),
            ModuleDecl::ExportDefaultDecl(e) => match &e.decl {
                DefaultDecl::Class(c) => self.check_class(
                    file,
                    &c.class,
                    c.ident.as_ref().map_or(e.span.lo.0, |i| i.span.lo.0),
                ),
                DefaultDecl::Fn(f) => {
                    self.check_function(file, &f.function, None);
                }
                DefaultDecl::TsInterfaceDecl(i) => self.check_interface(file, i),
            },
            ModuleDecl::ExportDefaultExpr(e) => {
                self.check_expr(file, &e.expr, None);
            }
            ModuleDecl::TsExportAssignment(e) => {
                self.check_expr(file, &e.expr, None);
            }
            ModuleDecl::Import(i) => {
                let Some(&module) = self.bound.files[file as usize]
                    .import_modules
                    .get(&i.src.span.lo.0)
                else {
                    return;
                };
                for s in &i.specifiers {
                    if let ImportSpecifier::Named(n) = s {
                        let name = match &n.imported {
                            Some(ModuleExportName::Ident(id)) => id.sym.clone(),
                            Some(ModuleExportName::Str(s)) => syntax::str_atom(s),
                            None => n.local.sym.clone(),
                        };
                        if self.resolve_export(module, &name, 0).is_none() {
                            let spec = syntax::str_atom(&i.src);
                            self.report(
                                file,
                                n.span.lo.0,
                                Code::NoExportedMember,
                                format!("Module '\"{spec}\"' has no exported member '{name}'."),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn check_stmts(&mut self, file: u32, stmts: &'a [Stmt]) {
        for s in stmts {
            self.check_stmt(file, s);
        }
    }

    pub(super) fn check_stmt(&mut self, file: u32, stmt: &'a Stmt) {
        let entered = self.enter_node(file, stmt_lo(stmt));
        self.check_stmt_here(file, stmt);
        self.leave_node(entered);
    }

    fn check_stmt_here(&mut self, file: u32, stmt: &'a Stmt) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep(file, stmt_lo(stmt));
            self.depth -= 1;
            return;
        }
        match stmt {
            Stmt::Block(b) => self.check_stmts(file, &b.stmts),
            Stmt::Expr(e) => {
                self.check_expr(file, &e.expr, None);
            }
            Stmt::Return(r) => {
                let expected = self.returns.last().copied().flatten();
                if let Some(arg) = &r.arg {
                    let t = self.check_expr(file, arg, expected);
                    let t = self.returned_type(t);
                    if let Some(expected) = expected {
                        self.check_assignable_to(file, arg, t, expected, r.span.lo.0);
                    }
                }
            }
            Stmt::Throw(t) => {
                self.check_expr(file, &t.arg, None);
            }
            Stmt::If(i) => {
                self.check_expr(file, &i.test, None);
                self.check_stmt(file, &i.cons);
                if let Some(a) = &i.alt {
                    self.check_stmt(file, a);
                }
            }
            Stmt::While(w) => {
                self.check_expr(file, &w.test, None);
                self.check_stmt(file, &w.body);
            }
            Stmt::DoWhile(w) => {
                self.check_stmt(file, &w.body);
                self.check_expr(file, &w.test, None);
            }
            Stmt::For(f) => {
                match &f.init {
                    Some(VarDeclOrExpr::VarDecl(v)) => self.check_var_decl(file, v),
                    Some(VarDeclOrExpr::Expr(e)) => {
                        self.check_expr(file, e, None);
                    }
                    None => {}
                }
                if let Some(t) = &f.test {
                    self.check_expr(file, t, None);
                }
                if let Some(u) = &f.update {
                    self.check_expr(file, u, None);
                }
                self.check_stmt(file, &f.body);
            }
            Stmt::ForIn(f) => {
                self.check_for_head(file, &f.left);
                self.check_expr(file, &f.right, None);
                self.check_stmt(file, &f.body);
            }
            Stmt::ForOf(f) => {
                self.check_for_head(file, &f.left);
                self.check_expr(file, &f.right, None);
                self.check_stmt(file, &f.body);
            }
            Stmt::Switch(s) => {
                self.check_expr(file, &s.discriminant, None);
                for c in &s.cases {
                    if let Some(t) = &c.test {
                        self.check_expr(file, t, None);
                    }
                    self.check_stmts(file, &c.cons);
                }
            }
            Stmt::Try(t) => {
                self.check_stmts(file, &t.block.stmts);
                if let Some(h) = &t.handler {
                    self.check_stmts(file, &h.body.stmts);
                }
                if let Some(f) = &t.finalizer {
                    self.check_stmts(file, &f.stmts);
                }
            }
            Stmt::Labeled(l) => self.check_stmt(file, &l.body),
            Stmt::With(w) => {
                self.check_expr(file, &w.obj, None);
                self.check_stmt(file, &w.body);
            }
            Stmt::Decl(d) => self.check_decl(file, d),
            Stmt::Empty(_) | Stmt::Debugger(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
        }
        self.depth -= 1;
        self.node_links.insert(
            node_key(file, stmt_lo(stmt)) | STATEMENT_KEY,
            NodeLinks::new(STATEMENT_NODE, ids::VOID),
        );
    }

    pub(super) fn check_for_head(&mut self, file: u32, head: &'a ForHead) {
        if let ForHead::VarDecl(v) = head {
            for d in &v.decls {
                self.check_pat_annotations(file, &d.name);
            }
        }
    }

    pub(super) fn check_decl(&mut self, file: u32, d: &'a Decl) {
        match d {
            Decl::Var(v) => self.check_var_decl(file, v),
            Decl::Using(u) => {
                for d in &u.decls {
                    if let Some(init) = &d.init {
                        self.check_expr(file, init, None);
                    }
                }
            }
            Decl::Fn(f) => {
                self.check_function(file, &f.function, None);
            }
            Decl::Class(c) => self.check_class(file, &c.class, c.ident.span.lo.0),
            Decl::TsInterface(i) => self.check_interface(file, i),
            Decl::TsTypeAlias(a) => {
                self.check_type_params(file, a.type_params.as_deref());
                self.check_type_node(file, &a.type_ann);
                if let Some(s) = self.bound.files[file as usize]
                    .node_symbols
                    .get(&a.id.span.lo.0)
                    .copied()
                {
                    self.declared_type(s);
                    if self.links(s).circular {
                        self.report(
                            file,
                            a.id.span.lo.0,
                            Code::CircularAlias,
                            format!("Type alias '{}' circularly references itself.", a.id.sym),
                        );
                    }
                }
            }
            Decl::TsEnum(e) => {
                for m in &e.members {
                    if let Some(init) = &m.init {
                        self.check_expr(file, init, None);
                    }
                }
            }
            Decl::TsModule(m) => {
                let mut body = m.body.as_ref();
                while let Some(TsNamespaceBody::TsNamespaceDecl(inner)) = body {
                    body = Some(&inner.body);
                }
                if let Some(TsNamespaceBody::TsModuleBlock(b)) = body
                    && !matches!(m.id, TsModuleName::Str(_))
                {
                    for item in &b.body {
                        match item {
                            ModuleItem::Stmt(s) => self.check_stmt(file, s),
                            ModuleItem::ModuleDecl(d) => self.check_module_decl(file, d),
                        }
                    }
                }
            }
        }
    }

    pub(super) fn check_var_decl(&mut self, file: u32, v: &'a VarDecl) {
        for d in &v.decls {
            self.check_pat_annotations(file, &d.name);
            let declared = match &d.name {
                Pat::Ident(b) => b
                    .type_ann
                    .as_ref()
                    .map(|a| self.type_from_node(file, &a.type_ann)),
                _ => None,
            };
            if let Some(init) = &d.init {
                let t = self.check_expr(file, init, declared);
                if let (Some(declared), Pat::Ident(b)) = (declared, &d.name) {
                    self.check_assignable_to(file, init, t, declared, b.id.span.lo.0);
                }
            }
            if let Pat::Ident(b) = &d.name
                && let Some(s) = self.bound.files[file as usize]
                    .node_symbols
                    .get(&b.id.span.lo.0)
                    .copied()
            {
                self.type_of_symbol(s);
            }
        }
    }

    pub(super) fn check_pat_annotations(&mut self, file: u32, p: &'a Pat) {
        let annotation = match p {
            Pat::Ident(b) => &b.type_ann,
            Pat::Array(a) => &a.type_ann,
            Pat::Object(o) => &o.type_ann,
            Pat::Rest(r) => &r.type_ann,
            Pat::Assign(a) => {
                self.check_pat_annotations(file, &a.left);
                self.check_expr(file, &a.right, None);
                return;
            }
            _ => return,
        };
        if let Some(a) = annotation {
            self.check_type_node(file, &a.type_ann);
        }
    }

    pub(super) fn check_type_params(&mut self, file: u32, tp: Option<&'a TsTypeParamDecl>) {
        if let Some(tp) = tp {
            for p in &tp.params {
                if let Some(c) = &p.constraint {
                    self.check_type_node(file, c);
                }
                if let Some(d) = &p.default {
                    self.check_type_node(file, d);
                }
            }
        }
    }
}
