//! Checking declarations: functions and their bodies, classes, interfaces, heritage
//! clauses and their cycles.
use std::rc::Rc;

use swc_ecma_ast::*;

use crate::check::{Checker, NO_LEAN, Resolution, node_key};
use crate::diag::Code;
use crate::syntax::{expr_entity, fn_param_ann};
use crate::types::{ObjectType, Signature, TypeId, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// Checks a function's annotations and body; `this_type` for methods.
    pub(super) fn check_function(
        &mut self,
        file: u32,
        f: &'a Function,
        contextual: Option<&Signature>,
    ) -> TypeId {
        let this = self.this_of_function(file, f.span.lo.0);
        self.this_types.push(this);
        let t = self.check_function_body(file, f, contextual);
        self.this_types.pop();
        t
    }

    pub(super) fn check_function_body(
        &mut self,
        file: u32,
        f: &'a Function,
        contextual: Option<&Signature>,
    ) -> TypeId {
        self.check_type_params(file, f.type_params.as_deref());
        for (i, p) in f.params.iter().enumerate() {
            for d in &p.decorators {
                self.check_expr(file, &d.expr, None);
            }
            self.check_pat_annotations(file, &p.pat);
            self.contextual_param(file, &p.pat, contextual, i);
        }
        if let Some(r) = &f.return_type {
            self.check_type_node(file, &r.type_ann);
        }
        let declared = f.return_type.as_ref().map(|r| {
            let t = self.type_from_node(file, &r.type_ann);
            if f.is_async { self.awaited(t) } else { t }
        });
        if let Some(body) = &f.body {
            let declared = if f.is_generator { None } else { declared };
            self.check_body(file, &body.stmts, declared, f.is_async && !f.is_generator);
        }
        let sig = self.signature_of_function(file, f);
        let mut obj = ObjectType::default();
        obj.calls.push(Rc::new(sig));
        self.types.object(obj, node_key(file, f.span.lo.0))
    }

    pub(super) fn contextual_param(
        &mut self,
        file: u32,
        p: &'a Pat,
        contextual: Option<&Signature>,
        i: usize,
    ) {
        if let Pat::Ident(b) = p
            && b.type_ann.is_none()
            && let Some(s) = self.bound.files[file as usize]
                .node_symbols
                .get(&b.id.span.lo.0)
                .copied()
        {
            let t = match contextual {
                Some(sig) => match sig.params.get(i) {
                    Some(p) if sig.rest && i + 1 >= sig.params.len() => self.element_type(p.ty),
                    Some(p) => p.ty,
                    None => ids::ANY,
                },
                // No contextual signature: the parameter is `any`, as it would be if asked.
                None if self.lean == NO_LEAN => return,
                // Unless the context was a placeholder met in a cycle: then the parameter
                // is `any` only provisionally, not for good.
                None => ids::ANY,
            };
            if self.known_value_type(s).is_none() {
                // A contextual type met through a placeholder is only provisional.
                if self.lean == NO_LEAN {
                    self.links(s).value_type = Some(t);
                } else {
                    self.keep_provisionally(Resolution::Value(s), t, self.lean);
                }
            }
        }
    }

    pub(super) fn check_class(&mut self, file: u32, c: &'a Class, name_pos: u32) {
        let sym = self.bound.files[file as usize]
            .node_symbols
            .get(&name_pos)
            .copied();
        if let Some(sym) = sym
            && self.base_cycle(sym)
        {
            let name = self.bound.symbol(sym).name.clone();
            self.report(
                file,
                name_pos,
                Code::CircularBase,
                format!(
                    "'{name}' is referenced directly or indirectly in its own base expression."
                ),
            );
        }
        for d in &c.decorators {
            self.check_expr(file, &d.expr, None);
        }
        self.check_type_params(file, c.type_params.as_deref());
        if let Some(s) = &c.super_class {
            self.check_expr(file, s, None);
        }
        if let Some(args) = &c.super_type_params {
            for t in &args.params {
                self.check_type_node(file, t);
            }
        }
        if let Some(entity) = c.super_class.as_deref().and_then(expr_entity) {
            self.check_reference_constraints(file, &entity, c.super_type_params.as_deref(), true);
        }
        for i in &c.implements {
            self.check_heritage_node(file, i);
        }
        if let Some(s) = sym.filter(|&s| !self.base_cycle(s)) {
            // Like TypeScript, check the class against its base class and interfaces.
            let d = self.declared_type(s);
            let instance = self.this_instance(d);
            let name = self.bound.symbol(s).name.clone();
            let bases = c.super_class.iter().map(|e| {
                (
                    e,
                    c.super_type_params.as_deref(),
                    Code::ClassIncorrectlyExtends,
                )
            });
            let implements = c
                .implements
                .iter()
                .map(|i| (&i.expr, i.type_args.as_deref(), Code::IncorrectlyImplements));
            for (e, args, code) in bases.chain(implements).collect::<Vec<_>>() {
                if let Some(base) = self.heritage_type(file, e, args)
                    && !self.is_assignable(instance, base)
                {
                    let b = self.type_to_string(base);
                    let verb = if code == Code::IncorrectlyImplements {
                        "implements interface"
                    } else {
                        "extends base class"
                    };
                    self.report(
                        file,
                        name_pos,
                        code,
                        format!("Class '{name}' incorrectly {verb} '{b}'."),
                    );
                }
            }
        }
        let this = match sym {
            Some(s) => self.declared_type(s),
            None => ids::ANY,
        };
        let this = self.this_instance(this);
        // Like TypeScript's checkClassDeclaration: resolve every member's type.
        let m = self.members(this);
        for name in &m.order {
            self.prop_ty(&m.props[name]);
        }
        let this_expr = match sym {
            Some(s) => self.this_expr_type(s),
            None => this,
        };
        self.this_types.push(this_expr);
        for m in &c.body {
            match m {
                ClassMember::Constructor(ctor) => {
                    for p in &ctor.params {
                        match p {
                            ParamOrTsParamProp::Param(p) => {
                                self.check_pat_annotations(file, &p.pat)
                            }
                            ParamOrTsParamProp::TsParamProp(pp) => match &pp.param {
                                TsParamPropParam::Ident(b) => {
                                    if let Some(a) = &b.type_ann {
                                        self.check_type_node(file, &a.type_ann);
                                    }
                                }
                                TsParamPropParam::Assign(a) => {
                                    self.check_pat_annotations(file, &a.left);
                                    self.check_expr(file, &a.right, None);
                                }
                            },
                        }
                    }
                    if let Some(body) = &ctor.body {
                        self.returns.push(None);
                        self.check_stmts(file, &body.stmts);
                        self.returns.pop();
                    }
                }
                ClassMember::Method(method) => {
                    for d in &method.function.decorators {
                        self.check_expr(file, &d.expr, None);
                    }
                    self.check_function(file, &method.function, None);
                }
                ClassMember::PrivateMethod(method) => {
                    self.check_function(file, &method.function, None);
                }
                ClassMember::ClassProp(p) => {
                    for d in &p.decorators {
                        self.check_expr(file, &d.expr, None);
                    }
                    self.check_prop_init(
                        file,
                        p.type_ann.as_deref(),
                        p.value.as_deref(),
                        p.span.lo.0,
                    );
                }
                ClassMember::PrivateProp(p) => {
                    self.check_prop_init(
                        file,
                        p.type_ann.as_deref(),
                        p.value.as_deref(),
                        p.span.lo.0,
                    );
                }
                ClassMember::StaticBlock(b) => self.check_stmts(file, &b.body.stmts),
                ClassMember::TsIndexSignature(i) => {
                    if let Some(a) = &i.type_ann {
                        self.check_type_node(file, &a.type_ann);
                    }
                }
                ClassMember::AutoAccessor(a) => {
                    self.check_prop_init(
                        file,
                        a.type_ann.as_deref(),
                        a.value.as_deref(),
                        a.span.lo.0,
                    );
                }
                ClassMember::Empty(_) => {}
            }
        }
        self.this_types.pop();
    }

    pub(super) fn check_prop_init(
        &mut self,
        file: u32,
        ann: Option<&'a TsTypeAnn>,
        value: Option<&'a Expr>,
        pos: u32,
    ) {
        let declared = ann.map(|a| {
            self.check_type_node(file, &a.type_ann);
            self.type_from_node(file, &a.type_ann)
        });
        if let Some(v) = value {
            let t = self.check_expr(file, v, declared);
            if let Some(d) = declared {
                self.check_assignable_to(file, v, t, d, pos);
            }
        }
    }

    pub(super) fn check_interface(&mut self, file: u32, i: &'a TsInterfaceDecl) {
        if let Some(sym) = self.bound.files[file as usize]
            .node_symbols
            .get(&i.id.span.lo.0)
            .copied()
        {
            if self.base_cycle(sym) {
                self.report(
                    file,
                    i.id.span.lo.0,
                    Code::CircularBase,
                    format!(
                        "Type '{}' recursively references itself as a base type.",
                        i.id.sym
                    ),
                );
            }
            let t = self.declared_type(sym);
            let t = self.this_instance(t);
            // Like TypeScript's checkInterfaceDeclaration: resolve every member's type.
            let m = self.members(t);
            for name in &m.order {
                self.prop_ty(&m.props[name]);
            }
            // Like TypeScript, check the interface against each base it extends.
            if !self.base_cycle(sym) {
                for e in &i.extends {
                    if let Some(base) = self.heritage_type(file, &e.expr, e.type_args.as_deref())
                        && !self.is_assignable(t, base)
                    {
                        let b = self.type_to_string(base);
                        let msg = format!(
                            "Interface '{}' incorrectly extends interface '{b}'.",
                            i.id.sym
                        );
                        self.report(file, i.id.span.lo.0, Code::IncorrectlyExtends, msg);
                    }
                }
            }
        }
        self.check_type_params(file, i.type_params.as_deref());
        for e in &i.extends {
            self.check_heritage_node(file, e);
        }
        for m in &i.body.body {
            self.check_type_element(file, m);
        }
    }

    pub(super) fn check_heritage_node(&mut self, file: u32, e: &'a TsExprWithTypeArgs) {
        if let Some(entity) = expr_entity(&e.expr) {
            self.check_entity(file, &entity, e.type_args.as_deref(), e.span.lo.0);
        }
        if let Some(args) = &e.type_args {
            for t in &args.params {
                self.check_type_node(file, t);
            }
        }
        if let Some(entity) = expr_entity(&e.expr) {
            self.check_reference_constraints(file, &entity, e.type_args.as_deref(), false);
        }
    }

    pub(super) fn check_type_element(&mut self, file: u32, m: &'a TsTypeElement) {
        let anns: Vec<&'a TsTypeAnn> = match m {
            TsTypeElement::TsPropertySignature(p) => p.type_ann.iter().map(|a| &**a).collect(),
            TsTypeElement::TsMethodSignature(p) => {
                self.check_type_params(file, p.type_params.as_deref());
                let mut v: Vec<&'a TsTypeAnn> = p.params.iter().filter_map(fn_param_ann).collect();
                v.extend(p.type_ann.as_deref());
                v
            }
            TsTypeElement::TsGetterSignature(p) => p.type_ann.iter().map(|a| &**a).collect(),
            TsTypeElement::TsSetterSignature(p) => fn_param_ann(&p.param).into_iter().collect(),
            TsTypeElement::TsCallSignatureDecl(c) => {
                self.check_type_params(file, c.type_params.as_deref());
                let mut v: Vec<&'a TsTypeAnn> = c.params.iter().filter_map(fn_param_ann).collect();
                v.extend(c.type_ann.as_deref());
                v
            }
            TsTypeElement::TsConstructSignatureDecl(c) => {
                self.check_type_params(file, c.type_params.as_deref());
                let mut v: Vec<&'a TsTypeAnn> = c.params.iter().filter_map(fn_param_ann).collect();
                v.extend(c.type_ann.as_deref());
                v
            }
            TsTypeElement::TsIndexSignature(i) => i.type_ann.iter().map(|a| &**a).collect(),
        };
        for a in anns {
            self.check_type_node(file, &a.type_ann);
        }
    }
}
