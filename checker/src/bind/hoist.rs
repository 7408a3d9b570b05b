//! Hoisting: the declarations of a block (functions, classes, interfaces, enums, namespaces,
//! `var`s, imports and exports) declared before its statements are walked.
use swc_atoms::Atom;
use swc_ecma_ast::*;

use super::{
    Binder, DeclRef, ExportTo, Imported, PatSource, SymbolId, flags, modules::resolve_import,
};
use crate::syntax::{export_name, prop_name, str_atom};

impl<'a> Binder<'a, '_> {
    pub(super) fn hoist_items(&mut self, items: &'a [ModuleItem], ns: Option<SymbolId>) {
        // Everything declared in an ambient namespace is exported, `export` or not.
        let implicit = match ns {
            Some(_) if self.ambient => ExportTo::of(ns),
            _ => ExportTo::Nowhere,
        };
        for item in items {
            match item {
                ModuleItem::Stmt(s) => self.hoist_stmt(s, implicit),
                ModuleItem::ModuleDecl(d) => self.hoist_module_decl(d, ns),
            }
        }
    }

    pub(super) fn hoist_stmts(&mut self, stmts: &'a [Stmt]) {
        for s in stmts {
            self.hoist_stmt(s, ExportTo::Nowhere);
        }
    }

    pub(super) fn hoist_stmt(&mut self, stmt: &'a Stmt, export_to: ExportTo) {
        if let Stmt::Decl(d) = stmt {
            self.hoist_decl(d, export_to);
        }
    }

    pub(super) fn export(&mut self, to: ExportTo, name: &Atom, id: SymbolId) {
        match to {
            ExportTo::Nowhere => {}
            ExportTo::Module => {
                self.out.exports.insert(name.clone(), id);
            }
            ExportTo::Namespace(ns) => {
                self.out.symbols[ns.index as usize]
                    .exports
                    .insert(name.clone(), id);
            }
        }
    }

    pub(super) fn hoist_decl(&mut self, decl: &'a Decl, export_to: ExportTo) -> Option<SymbolId> {
        let (ident, flags, d) = match decl {
            Decl::Class(c) => (&c.ident, flags::CLASS, DeclRef::Class(&c.class)),
            Decl::Fn(f) => (&f.ident, flags::FUNCTION, DeclRef::Function(&f.function)),
            Decl::TsInterface(i) => (&i.id, flags::INTERFACE, DeclRef::Interface(i)),
            Decl::TsTypeAlias(a) => (&a.id, flags::TYPE_ALIAS, DeclRef::Alias(a)),
            Decl::TsEnum(e) => (&e.id, flags::ENUM, DeclRef::Enum(e)),
            Decl::TsModule(m) => {
                let TsModuleName::Ident(ident) = &m.id else {
                    return None;
                };
                if m.global {
                    return None;
                }
                (ident, flags::NAMESPACE, DeclRef::Namespace(m))
            }
            Decl::Var(v) => {
                let is_const = v.kind == VarDeclKind::Const;
                for d in &v.decls {
                    self.hoist_binding(&d.name, d.init.as_deref(), false, is_const, export_to);
                }
                return None;
            }
            Decl::Using(u) => {
                for d in &u.decls {
                    self.hoist_pat(&d.name, d.init.as_deref(), false, export_to);
                }
                return None;
            }
        };
        let id = self.declare(&ident.sym, ident.span.lo.0, flags, d);
        self.export(export_to, &ident.sym, id);
        Some(id)
    }

    pub(super) fn hoist_pat(
        &mut self,
        pat: &'a Pat,
        init: Option<&'a Expr>,
        in_pattern: bool,
        export_to: ExportTo,
    ) {
        self.hoist_binding(pat, init, in_pattern, false, export_to);
    }

    /// Declares `name` (or `key: name`) taken from one property of an object pattern.
    pub(super) fn declare_pattern_binding(
        &mut self,
        b: &'a BindingIdent,
        is_const: bool,
        from: Option<PatSource<'a>>,
        export_to: ExportTo,
    ) {
        let id = self.declare(
            &b.id.sym,
            b.id.span.lo.0,
            flags::VARIABLE,
            DeclRef::Binding {
                ident: b,
                init: None,
                in_pattern: true,
                is_const,
                from,
            },
        );
        self.export(export_to, &b.id.sym, id);
    }

    pub(super) fn hoist_binding(
        &mut self,
        pat: &'a Pat,
        init: Option<&'a Expr>,
        in_pattern: bool,
        is_const: bool,
        export_to: ExportTo,
    ) {
        match pat {
            Pat::Ident(b) => {
                let id = self.declare(
                    &b.id.sym,
                    b.id.span.lo.0,
                    flags::VARIABLE,
                    DeclRef::Binding {
                        ident: b,
                        init: if in_pattern { None } else { init },
                        in_pattern,
                        is_const,
                        from: None,
                    },
                );
                self.export(export_to, &b.id.sym, id);
            }
            Pat::Array(a) => {
                for p in a.elems.iter().flatten() {
                    self.hoist_pat(p, None, true, export_to);
                }
            }
            Pat::Object(o) => {
                for p in &o.props {
                    match p {
                        ObjectPatProp::KeyValue(kv) => {
                            let source = |has_default| {
                                prop_name(&kv.key).map(|key| PatSource {
                                    pattern: o,
                                    key,
                                    has_default,
                                })
                            };
                            match &*kv.value {
                                Pat::Ident(b) => self.declare_pattern_binding(
                                    b,
                                    is_const,
                                    source(false),
                                    export_to,
                                ),
                                Pat::Assign(a) if matches!(&*a.left, Pat::Ident(_)) => {
                                    if let Pat::Ident(b) = &*a.left {
                                        self.declare_pattern_binding(
                                            b,
                                            is_const,
                                            source(true),
                                            export_to,
                                        )
                                    }
                                }
                                _ => self.hoist_pat(&kv.value, None, true, export_to),
                            }
                        }
                        ObjectPatProp::Assign(a) => {
                            let id = self.declare(
                                &a.key.id.sym,
                                a.key.id.span.lo.0,
                                flags::VARIABLE,
                                DeclRef::Binding {
                                    ident: &a.key,
                                    init: None,
                                    in_pattern: true,
                                    is_const,
                                    from: Some(PatSource {
                                        pattern: o,
                                        key: a.key.id.sym.clone(),
                                        has_default: a.value.is_some(),
                                    }),
                                },
                            );
                            self.export(export_to, &a.key.id.sym, id);
                        }
                        ObjectPatProp::Rest(r) => self.hoist_pat(&r.arg, None, true, export_to),
                    }
                }
            }
            Pat::Rest(r) => self.hoist_pat(&r.arg, None, true, export_to),
            Pat::Assign(a) => self.hoist_pat(&a.left, None, true, export_to),
            Pat::Invalid(_) | Pat::Expr(_) => {}
        }
    }

    pub(super) fn hoist_module_decl(&mut self, d: &'a ModuleDecl, ns: Option<SymbolId>) {
        match d {
            ModuleDecl::ExportDecl(e) => {
                self.hoist_decl(&e.decl, ExportTo::of(ns));
            }
            ModuleDecl::Import(i) => {
                let module = self.module(&i.src);
                for s in &i.specifiers {
                    let (local, imported) = match s {
                        ImportSpecifier::Named(n) => (
                            &n.local,
                            Imported::Named(
                                n.imported.as_ref().map_or(n.local.sym.clone(), export_name),
                            ),
                        ),
                        ImportSpecifier::Default(d) => (&d.local, Imported::Default),
                        ImportSpecifier::Namespace(n) => (&n.local, Imported::Namespace),
                    };
                    self.declare(
                        &local.sym,
                        local.span.lo.0,
                        flags::ALIAS,
                        DeclRef::Import {
                            module,
                            specifier: str_atom(&i.src),
                            imported,
                        },
                    );
                }
            }
            ModuleDecl::ExportDefaultDecl(e) => {
                let (name, pos, flags, decl) = match &e.decl {
                    DefaultDecl::Class(c) => (
                        c.ident.as_ref(),
                        e.span.lo.0,
                        flags::CLASS,
                        DeclRef::Class(&c.class),
                    ),
                    DefaultDecl::Fn(f) => (
                        f.ident.as_ref(),
                        e.span.lo.0,
                        flags::FUNCTION,
                        DeclRef::Function(&f.function),
                    ),
                    DefaultDecl::TsInterfaceDecl(i) => (
                        Some(&i.id),
                        e.span.lo.0,
                        flags::INTERFACE,
                        DeclRef::Interface(i),
                    ),
                };
                let id = match name {
                    Some(ident) => self.declare(&ident.sym, ident.span.lo.0, flags, decl),
                    None => {
                        self.new_symbol(Atom::from("default"), flags | flags::DEFAULT_EXPORT, decl)
                    }
                };
                self.out.node_symbols.entry(pos).or_insert(id);
                self.out.exports.insert(Atom::from("default"), id);
            }
            // `export default e` and `export = e` both export `e` as the module's default.
            ModuleDecl::ExportDefaultExpr(ExportDefaultExpr { expr, .. })
            | ModuleDecl::TsExportAssignment(TsExportAssignment { expr, .. }) => {
                let id = self.new_symbol(
                    Atom::from("default"),
                    flags::DEFAULT_EXPORT,
                    DeclRef::DefaultExpr(expr),
                );
                self.out.exports.insert(Atom::from("default"), id);
            }
            ModuleDecl::ExportAll(e) => {
                if let Some(m) = self.module(&e.src) {
                    self.out.export_stars.push(m);
                }
            }
            ModuleDecl::ExportNamed(n) => {
                if let Some(src) = &n.src {
                    let module = self.module(src);
                    for s in &n.specifiers {
                        let (exported, imported) = match s {
                            ExportSpecifier::Named(s) => {
                                let orig = export_name(&s.orig);
                                (
                                    s.exported.as_ref().map_or(orig.clone(), export_name),
                                    Imported::Named(orig),
                                )
                            }
                            ExportSpecifier::Namespace(s) => {
                                (export_name(&s.name), Imported::Namespace)
                            }
                            ExportSpecifier::Default(s) => {
                                (s.exported.sym.clone(), Imported::Default)
                            }
                        };
                        let id = self.new_symbol(
                            exported.clone(),
                            flags::ALIAS,
                            DeclRef::Import {
                                module,
                                specifier: str_atom(src),
                                imported,
                            },
                        );
                        self.out.exports.insert(exported, id);
                    }
                }
            }
            ModuleDecl::TsImportEquals(i) => {
                if let TsModuleRef::TsExternalModuleRef(r) = &i.module_ref {
                    let module = self.module(&r.expr);
                    let id = self.declare(
                        &i.id.sym,
                        i.id.span.lo.0,
                        flags::ALIAS,
                        DeclRef::Import {
                            module,
                            specifier: str_atom(&r.expr),
                            imported: Imported::Default,
                        },
                    );
                    if i.is_export {
                        self.export(ExportTo::of(ns), &i.id.sym, id);
                    }
                }
            }
            ModuleDecl::TsNamespaceExport(_) => {}
        }
    }

    pub(super) fn module(&mut self, src: &Str) -> Option<u32> {
        let spec = str_atom(src);
        let found = resolve_import(self.paths, self.roots, self.path, &spec);
        match found {
            Some(m) => {
                self.out.import_modules.insert(src.span.lo.0, m);
            }
            None => self.out.unresolved_imports.push((src.span.lo.0, spec)),
        }
        found
    }
}
