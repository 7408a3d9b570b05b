//! Walking declarations: namespaces, interfaces and their members, classes, functions,
//! parameters and binding patterns.
use rustc_hash::FxHashMap;
use swc_atoms::Atom;
use swc_ecma_ast::*;

use super::{Binder, DeclRef, ExportTo, MemberDecl, SymbolId, SyntaxDecl, flags};
use crate::syntax::{key_name, prop_name, str_atom};

impl<'a> Binder<'a, '_> {
    pub(super) fn decl(&mut self, d: &'a Decl) {
        self.out.nodes += 1;
        match d {
            Decl::Class(c) => {
                let owner = self
                    .scopes
                    .last()
                    .and_then(|s| s.get(&c.ident.sym))
                    .copied();
                self.class_with_owner(&c.class, owner);
            }
            Decl::Fn(f) => self.function(&f.function),
            Decl::Var(v) => self.var_decl(v),
            Decl::Using(u) => {
                for d in &u.decls {
                    self.pat(&d.name);
                    self.opt_expr(d.init.as_deref());
                }
            }
            Decl::TsInterface(i) => self.interface(i),
            Decl::TsTypeAlias(a) => {
                self.scopes.push(FxHashMap::default());
                self.type_params(a.type_params.as_deref());
                self.ty(&a.type_ann);
                self.scopes.pop();
            }
            Decl::TsEnum(e) => {
                let owner = self.scopes.last().and_then(|s| s.get(&e.id.sym)).copied();
                for m in &e.members {
                    self.out.nodes += 1;
                    let name = match &m.id {
                        TsEnumMemberId::Ident(i) => i.sym.clone(),
                        TsEnumMemberId::Str(s) => str_atom(s),
                    };
                    let id =
                        self.new_symbol(name.clone(), flags::ENUM_MEMBER, DeclRef::EnumMember(m));
                    if let Some(owner) = owner.filter(|o| o.file == self.file) {
                        self.out.symbols[owner.index as usize]
                            .exports
                            .insert(name, id);
                    }
                    self.opt_expr(m.init.as_deref());
                }
            }
            Decl::TsModule(m) => self.namespace(m),
        }
    }

    pub(super) fn namespace(&mut self, m: &'a TsModuleDecl) {
        let owner = match &m.id {
            TsModuleName::Ident(i) if !m.global => {
                self.scopes.last().and_then(|s| s.get(&i.sym)).copied()
            }
            _ => None,
        };
        let global = m.global;
        let was_global = self.global_scope;
        let saved = if global {
            // `declare global { ... }`: bind the block as a script top level.
            self.global_scope = true;
            Some(std::mem::replace(
                &mut self.scopes,
                vec![FxHashMap::default()],
            ))
        } else {
            self.scopes.push(FxHashMap::default());
            None
        };
        let saved_path = self.ns_path.len();
        if let (TsModuleName::Ident(i), false) = (&m.id, global)
            && (was_global || !self.ns_path.is_empty())
        {
            self.ns_path.push(i.sym.clone());
        }
        let mut body = m.body.as_ref();
        let mut owner = owner;
        while let Some(TsNamespaceBody::TsNamespaceDecl(inner)) = body {
            if self.ns_path.len() > saved_path {
                self.ns_path.push(inner.id.sym.clone());
            }
            // `namespace A.B { }`: B is an export of A.
            let id = self.declare(
                &inner.id.sym,
                inner.id.span.lo.0,
                flags::NAMESPACE,
                DeclRef::Namespace(m),
            );
            if let Some(o) = owner.filter(|o| o.file == self.file) {
                self.out.symbols[o.index as usize]
                    .exports
                    .insert(inner.id.sym.clone(), id);
            }
            owner = Some(id);
            body = Some(&inner.body);
        }
        let outer_path = self.ns_path_shared.clone();
        if self.ns_path.len() > saved_path {
            self.ns_path_shared = Some(self.ns_path.iter().cloned().collect());
        }
        let was_ambient = self.ambient;
        self.ambient |= m.declare;
        if let Some(TsNamespaceBody::TsModuleBlock(block)) = body {
            self.hoist_items(&block.body, owner);
            for item in &block.body {
                self.item(item, owner);
            }
        }
        self.ambient = was_ambient;
        self.ns_path.truncate(saved_path);
        self.ns_path_shared = outer_path;
        if let Some(saved) = saved {
            let top = std::mem::replace(&mut self.scopes, saved)
                .pop()
                .unwrap_or_default();
            let mut ids: Vec<SymbolId> = top.into_values().collect();
            ids.sort();
            self.out.globals.extend(ids);
        } else {
            self.scopes.pop();
        }
        self.global_scope = was_global;
    }

    pub(super) fn type_params(&mut self, tp: Option<&'a TsTypeParamDecl>) {
        if let Some(tp) = tp {
            for p in &tp.params {
                self.out.nodes += 1;
                self.declare(
                    &p.name.sym,
                    p.name.span.lo.0,
                    flags::TYPE_PARAM,
                    DeclRef::TypeParam(p),
                );
            }
            for p in &tp.params {
                if let Some(c) = &p.constraint {
                    self.ty(c);
                }
                if let Some(d) = &p.default {
                    self.ty(d);
                }
            }
        }
    }

    pub(super) fn interface(&mut self, i: &'a TsInterfaceDecl) {
        let owner = self.scopes.last().and_then(|s| s.get(&i.id.sym)).copied();
        self.scopes.push(FxHashMap::default());
        let outer_seen = std::mem::replace(&mut self.seen_this_type, false);
        self.type_params(i.type_params.as_deref());
        for e in &i.extends {
            self.heritage(e);
        }
        let outer_owner = std::mem::replace(&mut self.this_type_owner, owner);
        let outer_enclosing = std::mem::replace(&mut self.enclosing_owner, owner);
        for m in &i.body.body {
            self.type_element(m, owner);
        }
        self.enclosing_owner = outer_enclosing;
        self.this_type_owner = outer_owner;
        if std::mem::replace(&mut self.seen_this_type, outer_seen) {
            self.out.interfaces_with_this.insert(i.id.span.lo.0);
        }
        self.scopes.pop();
    }

    pub(super) fn heritage(&mut self, e: &'a TsExprWithTypeArgs) {
        self.expr(&e.expr);
        if let Some(args) = &e.type_args {
            for t in &args.params {
                self.ty(t);
            }
        }
    }

    pub(super) fn add_member(
        &mut self,
        owner: Option<SymbolId>,
        name: Atom,
        flags: u32,
        decl: DeclRef<'a>,
        is_static: bool,
    ) {
        let Some(owner) = owner.filter(|o| o.file == self.file) else {
            return;
        };
        let existing = {
            let o = &self.out.symbols[owner.index as usize];
            if is_static {
                o.exports.get(&name)
            } else {
                o.members.get(&name)
            }
            .copied()
        };
        match existing.filter(|e| e.file == self.file) {
            Some(e) => {
                let s = &mut self.out.symbols[e.index as usize];
                s.flags |= flags;
                s.decls.push((self.file, decl));
            }
            None => {
                let flags = if is_static {
                    flags | flags::STATIC
                } else {
                    flags
                };
                let id = self.new_symbol(name.clone(), flags, decl);
                self.out.symbols[id.index as usize].parent = Some(owner);
                let o = &mut self.out.symbols[owner.index as usize];
                if is_static {
                    o.exports.insert(name, id);
                } else {
                    o.members.insert(name, id);
                }
            }
        }
    }

    pub(super) fn type_element(&mut self, m: &'a TsTypeElement, owner: Option<SymbolId>) {
        self.out.nodes += 1;
        match m {
            TsTypeElement::TsPropertySignature(p) => {
                self.named_member(
                    owner,
                    &p.key,
                    flags::PROPERTY,
                    MemberDecl::PropertySignature(p),
                );
                if p.computed {
                    self.expr(&p.key);
                }
                self.opt_ann(p.type_ann.as_deref());
            }
            TsTypeElement::TsMethodSignature(p) => {
                self.named_member(owner, &p.key, flags::METHOD, MemberDecl::MethodSignature(p));
                self.signature_scope(p.type_params.as_deref(), &p.params, p.type_ann.as_deref());
            }
            TsTypeElement::TsGetterSignature(p) => {
                self.named_member(owner, &p.key, flags::PROPERTY, MemberDecl::Getter(p));
                self.opt_ann(p.type_ann.as_deref());
            }
            TsTypeElement::TsSetterSignature(p) => {
                self.named_member(owner, &p.key, flags::PROPERTY, MemberDecl::Setter(p));
                self.signature_scope(None, std::slice::from_ref(&p.param), None);
            }
            TsTypeElement::TsCallSignatureDecl(c) => {
                self.signature(owner, "__call", c.span.lo.0);
                self.signature_scope(c.type_params.as_deref(), &c.params, c.type_ann.as_deref());
            }
            TsTypeElement::TsConstructSignatureDecl(c) => {
                self.signature(owner, "__new", c.span.lo.0);
                self.signature_scope(c.type_params.as_deref(), &c.params, c.type_ann.as_deref());
            }
            TsTypeElement::TsIndexSignature(i) => self.index_signature(i, owner),
        }
    }

    /// A named member of an interface or type literal; a computed key that is not a literal
    /// names none, as in TypeScript's binder.
    fn named_member(
        &mut self,
        owner: Option<SymbolId>,
        key: &'a Expr,
        flags: u32,
        decl: MemberDecl<'a>,
    ) {
        if let Some(name) = key_name(key) {
            self.add_member(owner, name, flags, DeclRef::Member(decl), false);
        }
    }

    /// The scope of a signature in a type: its type parameters, parameters and return
    /// annotation, declared where nothing outside sees them.
    fn signature_scope(
        &mut self,
        type_params: Option<&'a TsTypeParamDecl>,
        params: &'a [TsFnParam],
        ann: Option<&'a TsTypeAnn>,
    ) {
        self.scopes.push(FxHashMap::default());
        self.type_params(type_params);
        self.fn_params(params);
        self.opt_ann(ann);
        self.scopes.pop();
    }

    /// `[key: K]: V` in an interface, type literal or class: an `__index` symbol, and
    /// `key` declared in the signature's own scope.
    pub(super) fn index_signature(&mut self, i: &'a TsIndexSignature, owner: Option<SymbolId>) {
        self.signature(owner, "__index", i.span.lo.0);
        self.signature_scope(None, &i.params, i.type_ann.as_deref());
    }

    /// A signature's symbol (`__call`, `__new`, `__index`, `__constructor`), as TypeScript's
    /// binder makes one. It is not a member: the checker reads signatures from the syntax.
    pub(super) fn signature(&mut self, owner: Option<SymbolId>, name: &'static str, pos: u32) {
        let id = self.new_symbol(
            Atom::from(name),
            flags::SIGNATURE,
            DeclRef::Syntax(SyntaxDecl::Signature(pos)),
        );
        self.out.symbols[id.index as usize].parent = owner.filter(|o| o.file == self.file);
    }

    /// A symbol for a container without a name (`__type`, `__object`, `__function`, ...).
    pub(super) fn anonymous(&mut self, name: &'static str, decl: SyntaxDecl<'a>) -> SymbolId {
        self.new_symbol(Atom::from(name), flags::ANONYMOUS, DeclRef::Syntax(decl))
    }

    /// The parameters of a signature without a body (method and call signatures, function
    /// and constructor types, index signatures, setters): each declared in the signature's
    /// scope, as TypeScript declares them in its `locals`, then their annotations walked.
    pub(super) fn fn_params(&mut self, params: &'a [TsFnParam]) {
        for p in params {
            self.out.nodes += 1;
            let (ident, ann) = match p {
                TsFnParam::Ident(b) => (Some(b), b.type_ann.as_deref()),
                TsFnParam::Rest(r) => match &*r.arg {
                    Pat::Ident(b) => (Some(b), r.type_ann.as_deref()),
                    _ => (None, r.type_ann.as_deref()),
                },
                TsFnParam::Array(a) => (None, a.type_ann.as_deref()),
                TsFnParam::Object(o) => (None, o.type_ann.as_deref()),
            };
            if let Some(b) = ident {
                self.declare_parameter(b);
            }
            self.opt_ann(ann);
        }
    }

    /// A parameter named by an identifier, without an initializer the binder would read.
    fn declare_parameter(&mut self, b: &'a BindingIdent) {
        self.declare(
            &b.id.sym,
            b.id.span.lo.0,
            flags::PARAMETER,
            DeclRef::Binding {
                ident: b,
                init: None,
                in_pattern: false,
                is_const: false,
                from: None,
            },
        );
    }

    pub(super) fn opt_ann(&mut self, ann: Option<&'a TsTypeAnn>) {
        if let Some(a) = ann {
            self.ty(&a.type_ann);
        }
    }

    pub(super) fn class_with_owner(&mut self, c: &'a Class, owner: Option<SymbolId>) {
        for d in &c.decorators {
            self.expr(&d.expr);
        }
        self.scopes.push(FxHashMap::default());
        self.type_params(c.type_params.as_deref());
        if let Some(s) = &c.super_class {
            self.expr(s);
        }
        if let Some(args) = &c.super_type_params {
            for t in &args.params {
                self.ty(t);
            }
        }
        for i in &c.implements {
            self.heritage(i);
        }
        let outer_enclosing = std::mem::replace(&mut self.enclosing_owner, owner);
        for m in &c.body {
            self.out.nodes += 1;
            match m {
                ClassMember::Constructor(ctor) => {
                    self.signature(owner, "__constructor", ctor.span.lo.0);
                    if let Some(o) = owner {
                        self.out.this_owners.insert(ctor.span.lo.0, o);
                    }
                    self.scopes.push(FxHashMap::default());
                    for p in &ctor.params {
                        match p {
                            ParamOrTsParamProp::Param(p) => self.param(&p.pat),
                            ParamOrTsParamProp::TsParamProp(pp) => {
                                let b = match &pp.param {
                                    TsParamPropParam::Ident(b) => b,
                                    TsParamPropParam::Assign(a) => match &*a.left {
                                        Pat::Ident(b) => b,
                                        _ => continue,
                                    },
                                };
                                self.add_member(
                                    owner,
                                    b.id.sym.clone(),
                                    flags::PROPERTY,
                                    DeclRef::Member(MemberDecl::ParamProp(b)),
                                    false,
                                );
                                match &pp.param {
                                    TsParamPropParam::Ident(_) => {
                                        self.declare_parameter(b);
                                        self.opt_ann(b.type_ann.as_deref());
                                    }
                                    TsParamPropParam::Assign(a) => {
                                        self.hoist_pat(
                                            &a.left,
                                            Some(&a.right),
                                            false,
                                            ExportTo::Nowhere,
                                        );
                                        self.pat(&a.left);
                                        self.expr(&a.right);
                                    }
                                }
                            }
                        }
                    }
                    if let Some(body) = &ctor.body {
                        let outer = std::mem::replace(&mut self.current_this, owner);
                        let outer_type = std::mem::replace(&mut self.this_type_owner, owner);
                        self.block(&body.stmts);
                        self.this_type_owner = outer_type;
                        self.current_this = outer;
                    }
                    self.scopes.pop();
                }
                ClassMember::Method(method) => {
                    if let Some(o) = owner.filter(|_| !method.is_static) {
                        self.out.this_owners.insert(method.function.span.lo.0, o);
                    }
                    if let Some(name) = prop_name(&method.key) {
                        self.add_member(
                            owner,
                            name,
                            flags::METHOD,
                            DeclRef::Member(MemberDecl::ClassMethod(method)),
                            method.is_static,
                        );
                    }
                    self.prop_key(&method.key);
                    self.next_fn_this_type = owner.filter(|_| !method.is_static);
                    self.function(&method.function);
                }
                ClassMember::PrivateMethod(method) => {
                    self.next_fn_this_type = owner.filter(|_| !method.is_static);
                    self.function(&method.function)
                }
                ClassMember::ClassProp(p) => {
                    for d in &p.decorators {
                        self.expr(&d.expr);
                    }
                    if let (Some(o), Some(v), false) = (owner, &p.value, p.is_static) {
                        use swc_common::Spanned;
                        self.out.this_owners.insert(v.span().lo.0, o);
                    }
                    if let Some(name) = prop_name(&p.key) {
                        self.add_member(
                            owner,
                            name,
                            flags::PROPERTY,
                            DeclRef::Member(MemberDecl::ClassProp(p)),
                            p.is_static,
                        );
                    }
                    self.prop_key(&p.key);
                    let outer = self.enter_member(owner, p.is_static);
                    self.opt_ann(p.type_ann.as_deref());
                    self.opt_expr(p.value.as_deref());
                    self.this_type_owner = outer;
                }
                ClassMember::PrivateProp(p) => {
                    for d in &p.decorators {
                        self.expr(&d.expr);
                    }
                    let outer = self.enter_member(owner, p.is_static);
                    self.opt_ann(p.type_ann.as_deref());
                    self.opt_expr(p.value.as_deref());
                    self.this_type_owner = outer;
                }
                ClassMember::TsIndexSignature(i) => {
                    let outer = self.enter_member(owner, i.is_static);
                    self.index_signature(i, owner);
                    self.this_type_owner = outer;
                }
                ClassMember::StaticBlock(b) => self.block(&b.body.stmts),
                ClassMember::AutoAccessor(a) => {
                    let outer = self.enter_member(owner, a.is_static);
                    self.opt_ann(a.type_ann.as_deref());
                    self.opt_expr(a.value.as_deref());
                    self.this_type_owner = outer;
                }
                ClassMember::Empty(_) => {}
            }
        }
        self.enclosing_owner = outer_enclosing;
        self.scopes.pop();
    }

    /// Starts walking a class member: a `this` type in it denotes the class's unless the
    /// member is static. Returns the owner to restore afterwards.
    pub(super) fn enter_member(
        &mut self,
        owner: Option<SymbolId>,
        is_static: bool,
    ) -> Option<SymbolId> {
        let own = owner.filter(|_| !is_static);
        std::mem::replace(&mut self.this_type_owner, own)
    }

    pub(super) fn prop_key(&mut self, key: &'a PropName) {
        if let PropName::Computed(c) = key {
            self.expr(&c.expr);
        }
    }

    pub(super) fn function(&mut self, f: &'a Function) {
        // A method's `this` is its class (recorded before the walk); any other function's is
        // its own.
        let own_this = self.out.this_owners.get(&f.span.lo.0).copied();
        let outer = std::mem::replace(&mut self.current_this, own_this);
        // Likewise a `this` type: a method's is its class's, another function's is none.
        let own_type = self.next_fn_this_type.take();
        let outer_type = std::mem::replace(&mut self.this_type_owner, own_type);
        self.function_inner(f);
        self.this_type_owner = outer_type;
        self.current_this = outer;
    }

    pub(super) fn function_inner(&mut self, f: &'a Function) {
        for d in &f.decorators {
            self.expr(&d.expr);
        }
        self.scopes.push(FxHashMap::default());
        self.type_params(f.type_params.as_deref());
        for p in &f.params {
            for d in &p.decorators {
                self.expr(&d.expr);
            }
            self.param(&p.pat);
        }
        self.opt_ann(f.return_type.as_deref());
        if let Some(body) = &f.body {
            self.in_function(f.span.lo.0, |b| b.block(&body.stmts));
        }
        self.scopes.pop();
    }

    pub(super) fn param(&mut self, p: &'a Pat) {
        self.hoist_pat(p, None, !matches!(p, Pat::Ident(_)), ExportTo::Nowhere);
        if let Pat::Ident(b) = p
            && let Some(&id) = self.out.node_symbols.get(&b.id.span.lo.0)
        {
            self.out.symbols[id.index as usize].flags |= flags::PARAMETER;
        }
        self.pat(p);
    }

    /// Walks a binding pattern's annotations and default values (the names are declared).
    pub(super) fn pat(&mut self, p: &'a Pat) {
        self.out.nodes += 1;
        match p {
            Pat::Ident(b) => self.opt_ann(b.type_ann.as_deref()),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.pat(e);
                }
                self.opt_ann(a.type_ann.as_deref());
            }
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => {
                            self.prop_key(&kv.key);
                            self.pat(&kv.value);
                        }
                        ObjectPatProp::Assign(a) => self.opt_expr(a.value.as_deref()),
                        ObjectPatProp::Rest(r) => self.pat(&r.arg),
                    }
                }
                self.opt_ann(o.type_ann.as_deref());
            }
            Pat::Rest(r) => {
                self.pat(&r.arg);
                self.opt_ann(r.type_ann.as_deref());
            }
            Pat::Assign(a) => {
                self.pat(&a.left);
                self.expr(&a.right);
            }
            Pat::Expr(e) => self.expr(e),
            Pat::Invalid(_) => {}
        }
    }
}
