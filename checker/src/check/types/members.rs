//! Members of types: resolved once per checker (objects, references, intersections,
//! unions, primitives' apparent interfaces), declared and static members of classes,
//! interfaces and enums.
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{DeclRef as BDecl, MemberDecl, SymbolId, flags};
use crate::check::Checker;
use crate::syntax::expr_entity;
use crate::types::{
    Mapper, ObjectType, Param, Prop as PropT, Signature, SymbolType, TypeId, TypeKind, ids,
};

impl<'a, 'b> Checker<'a, 'b> {
    pub(in crate::check) fn array_of(&mut self, e: TypeId) -> TypeId {
        match self.globals.array {
            Some(a) => self.types.reference(a, Box::new([e])),
            None => ids::ANY,
        }
    }

    /// How many elements of tuple `es` come before its first spread (all without one).
    pub(super) fn fixed_elements(&self, es: &[TypeId]) -> usize {
        es.iter()
            .position(|&e| matches!(self.types.kind(e), TypeKind::Spread(_)))
            .unwrap_or(es.len())
    }

    /// The type tuple element `e` gives an index: a spread's element type, else `e`.
    pub(in crate::check) fn tuple_element(&mut self, e: TypeId) -> TypeId {
        match self.types.kind(e) {
            TypeKind::Spread(x) => {
                let x = *x;
                if self.types.is_generic(x) {
                    self.indexed_access(x, ids::NUMBER)
                } else {
                    self.element_type(x)
                }
            }
            _ => e,
        }
    }

    pub(in crate::check) fn promise_of(&mut self, t: TypeId) -> TypeId {
        match self.globals.promise {
            Some(p) => self.types.reference(p, Box::new([t])),
            None => ids::ANY,
        }
    }

    /// `T` for `Promise<T>`, else the type itself.
    pub(in crate::check) fn awaited(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t) {
            TypeKind::Reference(s, args) if Some(*s) == self.globals.promise => args[0],
            TypeKind::Union(ms) => {
                let ms = ms.clone();
                let ts: Vec<TypeId> = ms.iter().map(|&m| self.awaited(m)).collect();
                self.types.union(&ts)
            }
            _ => t,
        }
    }

    /// The members of an object-like type, resolved once per checker.
    pub(in crate::check) fn members(&mut self, t: TypeId) -> Rc<ObjectType> {
        if let Some(m) = self.members_cache.get(&t) {
            return m.clone();
        }
        if !self.resolving_members.insert(t) || self.resolving_members.len() > 64 {
            // A cycle or the depth limit: empty for now, and not cached by whoever asked.
            self.taint();
            return Rc::new(ObjectType::default());
        }
        let mut scope = self.cache_scope();
        let m = scope.resolve_members(t);
        let met = scope.met();
        drop(scope);
        self.resolving_members.remove(&t);
        // Nor when a `this`-member cycle guard answered part of it.
        if met.cacheable() && !met.partial {
            self.members_cache.insert(t, m.clone());
        }
        m
    }

    pub(super) fn resolve_members(&mut self, t: TypeId) -> Rc<ObjectType> {
        if let Some(m) = self.this_members(t) {
            return m;
        }
        match self.types.kind(t).clone() {
            TypeKind::Object(o) => o,
            TypeKind::Declared(s) => Rc::new(self.declared_members(s)),
            TypeKind::Reference(s, args) => {
                let target = self.types.of_symbol(SymbolType::Declared, s);
                let base = self.members(target);
                let params = self.type_params_of(s);
                let m = Mapper::new(&self.types, &params, &args);
                Rc::new(self.instantiate_object(&base, &m))
            }
            TypeKind::Tuple(es) => {
                let e = self.element_type(t);
                let arr = self.array_of(e);
                let mut obj = (*self.members(arr)).clone();
                // The elements before the first spread have numeric properties.
                let fixed = self.fixed_elements(&es);
                for (i, &et) in es[..fixed].iter().enumerate() {
                    obj.insert(
                        Atom::from(i.to_string()),
                        PropT {
                            ty: et,
                            optional: false,
                        },
                    );
                }
                let len = if fixed == es.len() {
                    self.types.number_lit(es.len() as f64)
                } else {
                    ids::NUMBER
                };
                obj.insert(
                    Atom::from("length"),
                    PropT {
                        ty: len,
                        optional: false,
                    },
                );
                Rc::new(obj)
            }
            TypeKind::ClassStatic(s) => Rc::new(self.static_members(s)),
            TypeKind::Namespace(s) => {
                let mut obj = ObjectType::default();
                let mut exports: Vec<(Atom, SymbolId)> = self
                    .bound
                    .symbol(s)
                    .exports
                    .iter()
                    .map(|(k, v)| (k.clone(), *v))
                    .collect();
                exports.sort();
                for (name, e) in exports {
                    let target = self.resolve_alias(e);
                    if self.bound.symbol(target).flags & flags::VALUE != 0 {
                        obj.insert_declared(name, e, false);
                    }
                }
                Rc::new(obj)
            }
            TypeKind::Module(file) => {
                let mut obj = ObjectType::default();
                let mut names: Vec<Atom> = self.bound.files[file as usize]
                    .exports
                    .keys()
                    .cloned()
                    .collect();
                let mut stars = self.bound.files[file as usize].export_stars.clone();
                let mut seen = FxHashSet::default();
                while let Some(m) = stars.pop() {
                    if seen.insert(m) && seen.len() < 64 {
                        names.extend(self.bound.files[m as usize].exports.keys().cloned());
                        stars.extend(self.bound.files[m as usize].export_stars.iter().copied());
                    }
                }
                names.sort();
                names.dedup();
                for name in names {
                    if let Some(e) = self.resolve_export(file, &name, 0) {
                        obj.insert_declared(name, e, false);
                    }
                }
                Rc::new(obj)
            }
            TypeKind::Intersection(ms) => {
                let mut obj = ObjectType::default();
                for &m in ms.iter() {
                    let mm = self.members(m);
                    for name in &mm.order {
                        if !obj.props.contains_key(name) {
                            obj.insert_symbol(name.clone(), mm.props[name].clone());
                        }
                    }
                    obj.calls.extend(mm.calls.iter().cloned());
                    obj.constructs.extend(mm.constructs.iter().cloned());
                    obj.string_index = obj.string_index.or(mm.string_index);
                    obj.number_index = obj.number_index.or(mm.number_index);
                }
                Rc::new(obj)
            }
            TypeKind::LazyAlias(s, args) => {
                // An alias still being resolved has no members yet: answer empty, but
                // do not cache it (it will have them once resolved).
                if self.alias_stack.iter().any(|e| e.0 == s) {
                    self.taint();
                    return Rc::new(ObjectType::default());
                }
                let r = self.type_reference(s, args.to_vec());
                if r == t {
                    Rc::new(ObjectType::default())
                } else {
                    self.members(r)
                }
            }
            TypeKind::Mapped(mt) => self.deferred_mapped_members(&mt),
            _ => match self.apparent(t) {
                Some(a) if a != t => self.members(a),
                _ => Rc::new(ObjectType::default()),
            },
        }
    }

    /// Whether an enum member's value is a string (`A = "a"`); members without an
    /// initializer, or with a numeric one, are numbers.
    pub(super) fn enum_member_is_string(&self, m: SymbolId) -> bool {
        self.bound.symbol(m).decls.iter().any(|(_, d)| {
            matches!(d, BDecl::EnumMember(member) if member.init.as_deref().is_some_and(|e| {
                matches!(e, Expr::Lit(Lit::Str(_))) || matches!(e, Expr::Tpl(t) if t.exprs.is_empty())
            }))
        })
    }

    /// Whether every member of an enum is a string (a string enum, whose type relates to
    /// `string`).
    pub(super) fn enum_is_string(&self, e: SymbolId) -> bool {
        let members = &self.bound.symbol(e).exports;
        !members.is_empty() && members.values().all(|&m| self.enum_member_is_string(m))
    }

    /// The interface that gives a primitive its members.
    pub(super) fn apparent(&mut self, t: TypeId) -> Option<TypeId> {
        let g = self.globals;
        let s = match self.types.kind(t).clone() {
            TypeKind::String | TypeKind::StringLit(_) => g.string,
            TypeKind::Enum(e) if self.enum_is_string(e) => g.string,
            TypeKind::EnumLiteral(m) if self.enum_member_is_string(m) => g.string,
            TypeKind::Number
            | TypeKind::NumberLit(_)
            | TypeKind::Enum(_)
            | TypeKind::EnumLiteral(_) => g.number,
            TypeKind::Boolean | TypeKind::BoolLit(_) => g.boolean,
            TypeKind::BigInt | TypeKind::BigIntLit(_) => g.bigint,
            TypeKind::EsSymbol => g.symbol,
            TypeKind::NonPrimitive => g.object,
            TypeKind::TypeParam(p) => return self.constraint_of(p),
            TypeKind::Keyof(_) => return Some(ids::STRING),
            TypeKind::Indexed(..) => return Some(ids::ANY),
            TypeKind::Conditional(_) => return Some(self.conditional_constraint(t)),
            _ => None,
        }?;
        Some(self.declared_type(s))
    }

    pub(super) fn declared_members(&mut self, s: SymbolId) -> ObjectType {
        let mut obj = ObjectType::default();
        // Bases first, so own members override them.
        let decls = self.bound.symbol(s).decls.clone();
        for (file, d) in &decls {
            let bases: Vec<TypeId> = match d {
                BDecl::Interface(i) => i
                    .extends
                    .iter()
                    .filter_map(|e| self.heritage_type(*file, &e.expr, e.type_args.as_deref()))
                    .collect(),
                BDecl::Class(c) => match &c.super_class {
                    Some(sc) => self
                        .heritage_type(*file, sc, c.super_type_params.as_deref())
                        .into_iter()
                        .collect(),
                    None => Vec::new(),
                },
                _ => Vec::new(),
            };
            for b in bases {
                let bm = self.base_members(s, b);
                for name in &bm.order {
                    obj.insert_symbol(name.clone(), bm.props[name].clone());
                }
                obj.calls.extend(bm.calls.iter().cloned());
                obj.constructs.extend(bm.constructs.iter().cloned());
                obj.string_index = obj.string_index.or(bm.string_index);
                obj.number_index = obj.number_index.or(bm.number_index);
            }
        }
        let members = in_declaration_order(&self.bound.symbol(s).members);
        for (name, m) in members {
            let optional = self.bound.symbol(m).decls.iter().any(|(_, d)| match d {
                BDecl::Member(MemberDecl::PropertySignature(p)) => p.optional,
                BDecl::Member(MemberDecl::MethodSignature(p)) => p.optional,
                BDecl::Member(MemberDecl::ClassProp(p)) => p.is_optional,
                _ => false,
            });
            obj.insert_declared(name, m, optional);
        }
        for (file, d) in &decls {
            if let BDecl::Interface(i) = d {
                for e in &i.body.body {
                    self.add_signature_element(*file, e, &mut obj);
                }
            }
        }
        obj
    }

    pub(in crate::check) fn heritage_type(
        &mut self,
        file: u32,
        e: &'a Expr,
        args: Option<&'a TsTypeParamInstantiation>,
    ) -> Option<TypeId> {
        let entity = expr_entity(e)?;
        let s = self.resolve_entity(file, &entity)?;
        let args: Vec<TypeId> = args.map_or(Vec::new(), |a| {
            a.params
                .iter()
                .map(|t| self.type_from_node(file, t))
                .collect()
        });
        let t = self.type_reference(s, args);
        (t != ids::ERROR).then_some(t)
    }

    pub(super) fn static_members(&mut self, s: SymbolId) -> ObjectType {
        let mut obj = ObjectType::default();
        let decls = self.bound.symbol(s).decls.clone();
        let instance = {
            let d = self.types.of_symbol(SymbolType::Declared, s);
            self.this_instance(d)
        };
        let class_params = self.type_params_of(s);
        for (file, d) in &decls {
            let BDecl::Class(c) = d else { continue };
            if let Some(sc) = &c.super_class
                && let Some(entity) = expr_entity(sc)
                && let Some(bs) = self.resolve_entity(*file, &entity)
            {
                let bs = self.resolve_alias(bs);
                if bs != s && self.bound.symbol(bs).flags & flags::CLASS != 0 {
                    let bt = self.types.of_symbol(SymbolType::ClassStatic, bs);
                    let bm = self.members(bt);
                    for name in &bm.order {
                        obj.insert_symbol(name.clone(), bm.props[name].clone());
                    }
                    for sig in &bm.constructs {
                        let mut sig = (**sig).clone();
                        sig.ret = instance;
                        sig.type_params = class_params.iter().copied().collect();
                        obj.constructs.push(Rc::new(sig));
                    }
                }
            }
            let ctors: Vec<&'a Constructor> = c
                .body
                .iter()
                .filter_map(|m| {
                    if let ClassMember::Constructor(k) = m {
                        Some(k)
                    } else {
                        None
                    }
                })
                .collect();
            if !ctors.is_empty() {
                obj.constructs.clear();
                let overloads: Vec<&&'a Constructor> = if ctors.len() > 1 {
                    ctors.iter().filter(|k| k.body.is_none()).collect()
                } else {
                    ctors.iter().collect()
                };
                for k in overloads {
                    let mut params = Vec::new();
                    let mut min_args = 0;
                    let mut rest = false;
                    for (i, p) in k.params.iter().enumerate() {
                        let (name, ty, optional) = match p {
                            ParamOrTsParamProp::Param(p) => {
                                rest |= matches!(p.pat, Pat::Rest(_));
                                self.param_info(*file, &p.pat, i)
                            }
                            ParamOrTsParamProp::TsParamProp(pp) => match &pp.param {
                                TsParamPropParam::Ident(b) => (
                                    b.id.sym.clone(),
                                    b.type_ann.as_ref().map_or(ids::ANY, |a| {
                                        self.type_from_node(*file, &a.type_ann)
                                    }),
                                    b.id.optional,
                                ),
                                TsParamPropParam::Assign(a) => {
                                    let (n, t, _) = self.param_info(*file, &a.left, i);
                                    (n, t, true)
                                }
                            },
                        };
                        if !optional {
                            min_args = i + 1;
                        }
                        params.push(Param { name, ty });
                    }
                    obj.constructs.push(Rc::new(Signature {
                        type_params: class_params.iter().copied().collect(),
                        params,
                        ret: instance,
                        min_args,
                        rest,
                        ..Default::default()
                    }));
                }
            }
        }
        if obj.constructs.is_empty() {
            obj.constructs.push(Rc::new(Signature {
                type_params: class_params.iter().copied().collect(),
                params: Vec::new(),
                ret: instance,
                min_args: 0,
                rest: false,
                ..Default::default()
            }));
        }
        let exports = in_declaration_order(&self.bound.symbol(s).exports);
        for (name, e) in exports {
            obj.insert_declared(name, e, false);
        }
        obj.insert(
            Atom::from("prototype"),
            PropT {
                ty: instance,
                optional: false,
            },
        );
        obj
    }
}

/// The entries of a symbol table (members or exports) in the order they were declared (by
/// symbol id), not the hash map's.
fn in_declaration_order(table: &FxHashMap<Atom, SymbolId>) -> Vec<(Atom, SymbolId)> {
    let mut entries: Vec<(Atom, SymbolId)> = table.iter().map(|(k, v)| (k.clone(), *v)).collect();
    entries.sort_by_key(|(_, id)| *id);
    entries
}
