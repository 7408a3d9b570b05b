//! Walking type nodes: the names they reference, type arguments, and the `infer`
//! declarations of conditional types.
use rustc_hash::FxHashMap;
use swc_ecma_ast::*;

use super::{Binder, DeclRef, SyntaxDecl, flags};
use crate::syntax::infer_declarations;

impl<'a> Binder<'a, '_> {
    pub(super) fn type_args(&mut self, args: Option<&'a TsTypeParamInstantiation>) {
        if let Some(args) = args {
            for t in &args.params {
                self.ty(t);
            }
        }
    }

    pub(super) fn entity(&mut self, e: &'a TsEntityName) {
        match e {
            TsEntityName::Ident(i) => self.reference(i),
            TsEntityName::TsQualifiedName(q) => self.entity(&q.left),
        }
    }

    pub(super) fn ty(&mut self, t: &'a TsType) {
        self.out.nodes += 1;
        match t {
            TsType::TsKeywordType(_) | TsType::TsLitType(_) => {}
            TsType::TsThisType(t) => {
                self.seen_this_type = true;
                if let Some(o) = self.this_type_owner {
                    self.out.this_type_owners.insert(t.span.lo.0, o);
                }
            }
            TsType::TsFnOrConstructorType(f) => {
                self.scopes.push(FxHashMap::default());
                let (tp, params, ann, lo) = match f {
                    TsFnOrConstructorType::TsFnType(f) => (
                        f.type_params.as_deref(),
                        &f.params,
                        &f.type_ann,
                        f.span.lo.0,
                    ),
                    TsFnOrConstructorType::TsConstructorType(f) => (
                        f.type_params.as_deref(),
                        &f.params,
                        &f.type_ann,
                        f.span.lo.0,
                    ),
                };
                if let Some(o) = self.enclosing_owner {
                    self.out.anon_owners.insert(lo, o);
                }
                self.type_params(tp);
                self.fn_params(params);
                self.ty(&ann.type_ann);
                self.scopes.pop();
            }
            TsType::TsTypeRef(r) => {
                self.entity(&r.type_name);
                self.type_args(r.type_params.as_deref());
            }
            TsType::TsTypeQuery(q) => {
                if let TsTypeQueryExpr::TsEntityName(e) = &q.expr_name {
                    self.entity(e);
                }
                self.type_args(q.type_args.as_deref());
            }
            TsType::TsTypeLit(l) => {
                if let Some(o) = self.enclosing_owner {
                    self.out.anon_owners.insert(l.span.lo.0, o);
                }
                let owner = self.anonymous("__type", SyntaxDecl::TypeLiteral(l));
                // A type literal's members have no `this` type (TypeScript reports TS2526).
                let outer = self.this_type_owner.take();
                for m in &l.members {
                    self.type_element(m, Some(owner));
                }
                self.this_type_owner = outer;
            }
            TsType::TsArrayType(a) => self.ty(&a.elem_type),
            TsType::TsTupleType(t) => {
                for e in &t.elem_types {
                    self.ty(&e.ty);
                }
            }
            TsType::TsOptionalType(o) => self.ty(&o.type_ann),
            TsType::TsRestType(r) => self.ty(&r.type_ann),
            TsType::TsUnionOrIntersectionType(u) => {
                let types = match u {
                    TsUnionOrIntersectionType::TsUnionType(u) => &u.types,
                    TsUnionOrIntersectionType::TsIntersectionType(i) => &i.types,
                };
                for t in types {
                    self.ty(t);
                }
            }
            TsType::TsConditionalType(c) => {
                self.ty(&c.check_type);
                self.scopes.push(FxHashMap::default());
                self.infer_params(&c.extends_type);
                self.ty(&c.extends_type);
                self.ty(&c.true_type);
                self.scopes.pop();
                self.ty(&c.false_type);
            }
            TsType::TsInferType(_) => {}
            TsType::TsParenthesizedType(p) => self.ty(&p.type_ann),
            TsType::TsTypeOperator(o) => self.ty(&o.type_ann),
            TsType::TsIndexedAccessType(i) => {
                self.ty(&i.obj_type);
                self.ty(&i.index_type);
            }
            TsType::TsMappedType(m) => {
                self.anonymous("__type", SyntaxDecl::Mapped(m));
                self.scopes.push(FxHashMap::default());
                self.declare(
                    &m.type_param.name.sym,
                    m.type_param.name.span.lo.0,
                    flags::TYPE_PARAM,
                    DeclRef::TypeParam(&m.type_param),
                );
                if let Some(c) = &m.type_param.constraint {
                    self.ty(c);
                }
                if let Some(n) = &m.name_type {
                    self.ty(n);
                }
                if let Some(t) = &m.type_ann {
                    self.ty(t);
                }
                self.scopes.pop();
            }
            TsType::TsTypePredicate(p) => {
                if let TsThisTypeOrIdent::TsThisType(_) = &p.param_name {
                    self.seen_this_type = true;
                }
                if let Some(a) = &p.type_ann {
                    self.ty(&a.type_ann);
                }
            }
            TsType::TsImportType(i) => self.type_args(i.type_args.as_deref()),
        }
    }

    /// Declares the `infer X` parameters of a conditional type's extends clause `t`
    /// (`syntax::infer_declarations`).
    pub(super) fn infer_params(&mut self, t: &'a TsType) {
        for p in infer_declarations(t) {
            self.declare(
                &p.name.sym,
                p.name.span.lo.0,
                flags::TYPE_PARAM,
                DeclRef::TypeParam(p),
            );
        }
    }
}
