//! Type nodes (annotations): the type each denotes, cached per node; type literals'
//! members. Checking them for diagnostics is the walk's (annotations.rs).
use std::rc::Rc;

use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::flags;
use crate::check::types::limits::Decided;
use crate::check::{
    Checker, MAX_DEPTH, NodeLinks, TYPE_NODE, TYPE_NODE_KEY, node_key, ts_type_key,
};
use crate::syntax;
use crate::syntax::{entity_of, f_lo, fn_param_ann, infer_declarations};
use crate::types::{
    ConditionalRoot, MappedRoot, ObjectType, Prop as PropT, PropSymbol, Signature, SymbolType,
    TypeId, TypeKind, ids,
};

impl<'a, 'b> Checker<'a, 'b> {
    /// The type of a literal type node (TypeScript's `getTypeFromLiteralTypeNode`): the
    /// literal is evaluated as an expression, which gives its fresh type, and the node
    /// denotes that type's regular type.
    pub(super) fn literal_type_node(&mut self, l: &TsLitType) -> TypeId {
        let t = match &l.lit {
            TsLit::Str(s) => self.types.string_lit(&syntax::str_atom(s)),
            TsLit::Number(n) => self.types.number_lit(n.value),
            TsLit::Bool(b) => {
                if b.value {
                    ids::TRUE
                } else {
                    ids::FALSE
                }
            }
            TsLit::BigInt(b) => self.types.bigint_lit(&Atom::from(b.value.to_string())),
            TsLit::Tpl(_) => return ids::STRING,
        };
        let fresh = self.types.fresh_literal(t);
        self.types.regular_literal(fresh)
    }

    /// The type an annotation denotes.
    pub fn type_from_node(&mut self, file: u32, t: &'a TsType) -> TypeId {
        let key = ts_type_key(file, t);
        if let Some(&ty) = self.type_nodes.get(&key) {
            self.meet_kept_limits(&Decided::TypeNode(key));
            return ty;
        }
        self.type_depth += 1;
        let defers = matches!(
            t,
            TsType::TsArrayType(_)
                | TsType::TsTupleType(_)
                | TsType::TsTypeLit(_)
                | TsType::TsFnOrConstructorType(_)
                | TsType::TsMappedType(_)
        ) || matches!(t, TsType::TsTypeRef(r)
            if r.type_params.is_some() && !self.names_alias_being_resolved(file, r));
        self.deferred += defers as u32;
        let base = self.limits_base();
        let mut scope = self.cache_scope();
        let restarted = scope.restart_limits();
        // A node of its own: what a limit decides inside is reported here, in the walk
        // over this file, whoever asked for the type first.
        let entered = scope.enter_node(file, key.1);
        let ty = if scope.type_depth > MAX_DEPTH {
            ids::ERROR
        } else {
            scope.type_from_node_uncached(file, t)
        };
        scope.leave_node(entered);
        scope.settle_declaration(restarted);
        let clean = !scope.met().leaned;
        let limits = scope.limits_met(base);
        drop(scope);
        self.deferred -= defers as u32;
        self.type_depth -= 1;
        if clean && self.alias_stack.is_empty() && !matches!(t, TsType::TsThisType(_)) {
            self.keep_limits_met(Decided::TypeNode(key), limits);
            self.type_nodes.insert(key, ty);
            let links = NodeLinks::new(TYPE_NODE, ty);
            self.node_links
                .insert(node_key(file, key.1) | TYPE_NODE_KEY, links);
        }
        ty
    }

    /// Whether `r` names a type alias while an alias or a default is being resolved.
    /// TypeScript resolves an alias reference's arguments with it
    /// (`getTypeFromTypeAliasReference`), so they are no deferred position, unlike a
    /// class's or interface's (`Array<A>` in `A`'s declaration is recursive, `Record<string,
    /// A>` circular, `TS2456`). Outside both nothing reads the count, and nothing is
    /// resolved to answer.
    fn names_alias_being_resolved(&mut self, file: u32, r: &TsTypeRef) -> bool {
        if self.alias_stack.is_empty() && !self.resolving_default() {
            return false;
        }
        match self.resolve_entity(file, &entity_of(&r.type_name)) {
            Some(s) => {
                let s = self.resolve_alias(s);
                self.bound.symbol(s).flags & flags::TYPE_ALIAS != 0
            }
            None => false,
        }
    }

    pub(super) fn type_from_node_uncached(&mut self, file: u32, t: &'a TsType) -> TypeId {
        match t {
            TsType::TsKeywordType(k) => match k.kind {
                TsKeywordTypeKind::TsAnyKeyword => ids::ANY,
                TsKeywordTypeKind::TsUnknownKeyword => ids::UNKNOWN,
                TsKeywordTypeKind::TsNumberKeyword => ids::NUMBER,
                TsKeywordTypeKind::TsObjectKeyword => ids::OBJECT,
                TsKeywordTypeKind::TsBooleanKeyword => ids::BOOLEAN,
                TsKeywordTypeKind::TsBigIntKeyword => ids::BIGINT,
                TsKeywordTypeKind::TsStringKeyword => ids::STRING,
                TsKeywordTypeKind::TsSymbolKeyword => ids::SYMBOL,
                TsKeywordTypeKind::TsVoidKeyword => ids::VOID,
                TsKeywordTypeKind::TsUndefinedKeyword => ids::UNDEFINED,
                TsKeywordTypeKind::TsNullKeyword => ids::NULL,
                TsKeywordTypeKind::TsNeverKeyword => ids::NEVER,
                TsKeywordTypeKind::TsIntrinsicKeyword => ids::ANY,
            },
            // Polymorphic `this`: the `this` type parameter of the class or interface.
            TsType::TsThisType(t) => self.this_type_node(file, t.span.lo.0),
            TsType::TsLitType(l) => self.literal_type_node(l),
            TsType::TsTypeRef(r) => {
                let entity = entity_of(&r.type_name);
                let args: Vec<TypeId> = match &r.type_params {
                    Some(a) => a
                        .params
                        .iter()
                        .map(|t| self.type_from_node(file, t))
                        .collect(),
                    None => Vec::new(),
                };
                match self.resolve_entity(file, &entity) {
                    Some(s) => self.type_reference(s, args),
                    None => ids::ERROR,
                }
            }
            TsType::TsFnOrConstructorType(f) => {
                let (tp, params, ann, construct) = match f {
                    TsFnOrConstructorType::TsFnType(f) => {
                        (f.type_params.as_deref(), &f.params, &f.type_ann, false)
                    }
                    TsFnOrConstructorType::TsConstructorType(f) => {
                        (f.type_params.as_deref(), &f.params, &f.type_ann, true)
                    }
                };
                let sig = self.signature_from_parts(file, tp, params, Some(&ann.type_ann), false);
                let mut obj = ObjectType::default();
                if construct {
                    obj.constructs.push(Rc::new(sig))
                } else {
                    obj.calls.push(Rc::new(sig))
                }
                let ty = self.types.object(obj, node_key(file, f_lo(f)));
                self.register_anonymous_node(ty, file, t);
                ty
            }
            TsType::TsTypeQuery(q) => match &q.expr_name {
                TsTypeQueryExpr::TsEntityName(e) => {
                    match self.resolve_entity(file, &entity_of(e)) {
                        Some(s) => self.type_of_symbol(s),
                        None => ids::ERROR,
                    }
                }
                TsTypeQueryExpr::Import(_) => ids::ANY,
            },
            TsType::TsTypeLit(l) => {
                let obj = self.object_from_elements(file, &l.members);
                let ty = self.types.object(obj, node_key(file, l.span.lo.0));
                self.register_anonymous_node(ty, file, t);
                ty
            }
            TsType::TsArrayType(a) => {
                let e = self.type_from_node(file, &a.elem_type);
                self.array_of(e)
            }
            TsType::TsTupleType(tt) => {
                let elems: Box<[TypeId]> = tt
                    .elem_types
                    .iter()
                    .map(|e| match &*e.ty {
                        TsType::TsRestType(r) => {
                            let x = self.type_from_node(file, &r.type_ann);
                            self.types.spread(x)
                        }
                        t => self.type_from_node(file, t),
                    })
                    .collect();
                self.types.tuple(elems)
            }
            TsType::TsOptionalType(o) => {
                let t = self.type_from_node(file, &o.type_ann);
                self.types.union(&[t, ids::UNDEFINED])
            }
            TsType::TsRestType(r) => self.type_from_node(file, &r.type_ann),
            TsType::TsUnionOrIntersectionType(u) => match u {
                TsUnionOrIntersectionType::TsUnionType(u) => {
                    let ts: Vec<TypeId> = u
                        .types
                        .iter()
                        .map(|t| self.type_from_node(file, t))
                        .collect();
                    self.types.union(&ts)
                }
                TsUnionOrIntersectionType::TsIntersectionType(i) => {
                    let ts: Vec<TypeId> = i
                        .types
                        .iter()
                        .map(|t| self.type_from_node(file, t))
                        .collect();
                    self.intersection(&ts)
                }
            },
            TsType::TsConditionalType(c) => {
                let check = self.type_from_node(file, &c.check_type);
                let extends = self.type_from_node(file, &c.extends_type);
                // The branches of a deferred conditional type are resolved when it is
                // instantiated (TypeScript reads them from the root's node then), so an
                // alias met there is recursive; a conditional type resolved now resolves
                // them now, and an alias met there is circular.
                let defers =
                    (self.types.is_generic(check) || self.types.is_generic(extends)) as u32;
                self.deferred += defers;
                let true_type = self.type_from_node(file, &c.true_type);
                let false_type = self.type_from_node(file, &c.false_type);
                self.deferred -= defers;
                let mut infer_params: Vec<TypeId> = Vec::new();
                for p in infer_declarations(&c.extends_type) {
                    let pos = p.name.span.lo.0;
                    if let Some(&s) = self.bound.files[file as usize].node_symbols.get(&pos) {
                        let tp = self.types.of_symbol(SymbolType::TypeParam, s);
                        if !infer_params.contains(&tp) {
                            infer_params.push(tp);
                        }
                    }
                }
                let root = Rc::new(ConditionalRoot {
                    node: node_key(file, c.span.lo.0),
                    check,
                    extends,
                    true_type,
                    false_type,
                    infer_params: infer_params.into(),
                    distributive: matches!(self.types.kind(check), TypeKind::TypeParam(_)),
                    outer: self.outer_params(file, t),
                });
                self.conditional_type(&root, None)
            }
            TsType::TsInferType(i) => match self.bound.files[file as usize]
                .node_symbols
                .get(&i.type_param.name.span.lo.0)
            {
                Some(&s) => self.types.of_symbol(SymbolType::TypeParam, s),
                None => ids::UNKNOWN,
            },
            TsType::TsParenthesizedType(p) => self.type_from_node(file, &p.type_ann),
            TsType::TsTypeOperator(o) => {
                let t = self.type_from_node(file, &o.type_ann);
                match o.op {
                    TsTypeOperatorOp::KeyOf => self.keyof(t),
                    TsTypeOperatorOp::Unique => ids::SYMBOL,
                    TsTypeOperatorOp::ReadOnly => t,
                }
            }
            TsType::TsIndexedAccessType(i) => {
                let o = self.type_from_node(file, &i.obj_type);
                let k = self.type_from_node(file, &i.index_type);
                self.indexed_access(o, k)
            }
            TsType::TsMappedType(m) => {
                let Some(&k) = self.bound.files[file as usize]
                    .node_symbols
                    .get(&m.type_param.name.span.lo.0)
                else {
                    return ids::ANY;
                };
                let param = self.types.of_symbol(SymbolType::TypeParam, k);
                let constraint = match &m.type_param.constraint {
                    Some(c) => self.type_from_node(file, c),
                    None => ids::STRING,
                };
                let template = match &m.type_ann {
                    Some(t) => self.type_from_node(file, t),
                    None => ids::ANY,
                };
                let name_type = m.name_type.as_ref().map(|n| self.type_from_node(file, n));
                // `keyof X` written as the constraint: X gives the modifiers (and makes the
                // type homomorphic when X is a type parameter).
                let mut keyof_of = None;
                let mut c = m.type_param.constraint.as_deref();
                while let Some(TsType::TsParenthesizedType(p)) = c {
                    c = Some(&p.type_ann);
                }
                if let Some(TsType::TsTypeOperator(o)) = c
                    && o.op == TsTypeOperatorOp::KeyOf
                {
                    keyof_of = Some(self.type_from_node(file, &o.type_ann));
                }
                let homomorphic =
                    keyof_of.filter(|&x| matches!(self.types.kind(x), TypeKind::TypeParam(_)));
                // `[P in K]` with `K extends keyof T` keeps T's modifiers too (`Pick`).
                let modifiers = keyof_of.or_else(|| match self.types.kind(constraint) {
                    TypeKind::TypeParam(s) => {
                        let s = *s;
                        match self.constraint_of(s).map(|c| self.types.kind(c).clone()) {
                            Some(TypeKind::Keyof(x)) => Some(x),
                            _ => None,
                        }
                    }
                    _ => None,
                });
                let modifier = |m: &Option<TruePlusMinus>| match m {
                    Some(TruePlusMinus::Minus) => -1,
                    Some(_) => 1,
                    None => 0,
                };
                let root = Rc::new(MappedRoot {
                    node: node_key(file, m.span.lo.0),
                    param,
                    constraint,
                    template,
                    name_type,
                    optional: modifier(&m.optional),
                    readonly: modifier(&m.readonly),
                    homomorphic,
                    modifiers,
                    outer: self.outer_params(file, t),
                    template_prop: Rc::new(PropSymbol {
                        ty: std::cell::Cell::new(template),
                        ..PropSymbol::empty(Atom::default())
                    }),
                });
                self.mapped_type(&root, None)
            }
            TsType::TsTypePredicate(_) => ids::BOOLEAN,
            TsType::TsImportType(_) => ids::ANY,
        }
    }

    pub(super) fn object_from_elements(
        &mut self,
        file: u32,
        members: &'a [TsTypeElement],
    ) -> ObjectType {
        let mut obj = ObjectType::default();
        for m in members {
            // A named member: its name, type and whether it is optional.
            let prop = match m {
                TsTypeElement::TsPropertySignature(p) => syntax::key_name(&p.key).map(|name| {
                    let ty = p
                        .type_ann
                        .as_deref()
                        .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                    (name, ty, p.optional)
                }),
                TsTypeElement::TsMethodSignature(p) => syntax::key_name(&p.key).map(|name| {
                    let sig = self.signature_from_parts(
                        file,
                        p.type_params.as_deref(),
                        &p.params,
                        p.type_ann.as_deref().map(|a| &*a.type_ann),
                        false,
                    );
                    let sig = Signature {
                        method: true,
                        ..sig
                    };
                    let ty = self.function_type(vec![sig], node_key(file, p.span.lo.0));
                    (name, ty, p.optional)
                }),
                TsTypeElement::TsGetterSignature(p) => syntax::key_name(&p.key).map(|name| {
                    let ty = p
                        .type_ann
                        .as_deref()
                        .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                    (name, ty, false)
                }),
                TsTypeElement::TsSetterSignature(p) => syntax::key_name(&p.key)
                    .filter(|name| !obj.props.contains_key(name))
                    .map(|name| {
                        let ty = fn_param_ann(&p.param)
                            .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                        (name, ty, false)
                    }),
                _ => {
                    self.add_signature_element(file, m, &mut obj);
                    None
                }
            };
            if let Some((name, ty, optional)) = prop {
                obj.insert(name, PropT { ty, optional });
            }
        }
        obj
    }

    /// Adds a call, construct or index signature element of a type literal or interface
    /// body to `obj`; other elements are the caller's.
    pub(in crate::check) fn add_signature_element(
        &mut self,
        file: u32,
        e: &'a TsTypeElement,
        obj: &mut ObjectType,
    ) {
        match e {
            TsTypeElement::TsCallSignatureDecl(TsCallSignatureDecl {
                type_params,
                params,
                type_ann,
                ..
            })
            | TsTypeElement::TsConstructSignatureDecl(TsConstructSignatureDecl {
                type_params,
                params,
                type_ann,
                ..
            }) => {
                let sig = self.signature_from_parts(
                    file,
                    type_params.as_deref(),
                    params,
                    type_ann.as_deref().map(|a| &*a.type_ann),
                    false,
                );
                let list = match e {
                    TsTypeElement::TsCallSignatureDecl(_) => &mut obj.calls,
                    _ => &mut obj.constructs,
                };
                list.push(Rc::new(sig));
            }
            TsTypeElement::TsIndexSignature(i) => {
                let v = i
                    .type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                let k = i
                    .params
                    .first()
                    .and_then(fn_param_ann)
                    .map_or(ids::STRING, |a| self.type_from_node(file, &a.type_ann));
                if k == ids::NUMBER {
                    obj.number_index = Some(v)
                } else {
                    obj.string_index = Some(v)
                }
            }
            _ => {}
        }
    }
}
