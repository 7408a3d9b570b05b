//! Polymorphic `this` types, as TypeScript has them.
//!
//! Every class, and every interface that is generic, mentions a `this` type or extends
//! something other than a `this`-less interface, has an implicit `this` type parameter
//! whose constraint is the class or interface itself (`getDeclaredTypeOfClassOrInterface`).
//! A `this` annotation in one of its non-static members denotes that parameter, and so
//! does the `this` expression in its bodies.
//!
//! Members: a type's *declared members* are its own members and its bases' members with
//! the bases' `this` mapped to the type's own `this` parameter. The members of each
//! reference to it (`C`, `Box<string>`, and the apparent type of a type parameter
//! constrained by it) are the declared members instantiated with the reference's type
//! arguments and `this` := the reference (`resolveTypeReferenceMembers`,
//! `getTypeWithThisArgument`): one lazily typed property symbol per member per resolved
//! type, cached per checker. As in TypeScript (`mappingThisOnly`), a reference to a
//! non-generic type shares the members whose declarations cannot mention `this`
//! (`isThisless`), and the apparent type of `this` itself is the declared members.
//!
//! Guards against cycles (a type's members needed while they are being resolved) give
//! an empty answer; whatever was computed while one was hit is not cached, so the caches
//! never depend on the order in which a checker met its files.
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::bind::{DeclRef as BDecl, GLOBAL_FILE, MemberDecl, SymbolId, flags};
use crate::check::Checker;
use crate::syntax::{
    expr_entity, thisless_fn_param, thisless_pat, thisless_type, thisless_type_params,
};
use crate::types::{Mapper, ObjectType, PropSymbol, SymbolType, TypeId, TypeKind, ids};

/// Type parameter constraints followed to find what a type parameter's members are.
const MAX_CONSTRAINT_CHAIN: u32 = 8;

/// One checker's `this` type state.
#[derive(Default)]
pub(in crate::check) struct ThisTypes {
    /// Each class's or interface's `this` type parameter, `None` where it has none.
    params: FxHashMap<SymbolId, Option<TypeId>>,
    /// Symbols whose `this` parameter is being decided.
    deciding: FxHashSet<SymbolId>,
    /// Declared members (own, and inherited with `this` := the own `this` parameter).
    declared: FxHashMap<SymbolId, Rc<ObjectType>>,
    /// Symbols whose declared members are being resolved.
    resolving: FxHashSet<SymbolId>,
    /// Members of a reference with a `this` argument other than itself, by both.
    with_this: FxHashMap<(TypeId, TypeId), Rc<ObjectType>>,
    /// Cycle guards hit so far; a result computed while this grew is not cached.
    pub(in crate::check) partial: u32,
}

impl<'a> Checker<'a, '_> {
    /// The `this` type parameter of class or interface `s`, if it has one.
    pub(super) fn this_param(&mut self, s: SymbolId) -> Option<TypeId> {
        if let Some(&p) = self.this.params.get(&s) {
            return p;
        }
        let f = self.bound.symbol(s).flags;
        if f & (flags::CLASS | flags::INTERFACE) == 0 {
            return None;
        }
        if !self.this.deciding.insert(s) {
            self.this.partial += 1;
            return None;
        }
        let mut scope = self.cache_scope();
        // A class or interface whose bases lead back to it has no members from them: it
        // keeps the simpler treatment (and `TS2506`/`TS2310` are reported for it).
        let has = !scope.base_cycle(s)
            && (f & flags::CLASS != 0
                || !scope.type_params_of(s).is_empty()
                || !scope.thisless_interface(s));
        scope.this.deciding.remove(&s);
        let p = has.then(|| scope.types.of_symbol(SymbolType::This, s));
        if !scope.met().partial {
            scope.this.params.insert(s, p);
        }
        p
    }

    /// Whether `s` is a class or interface symbol, so `TypeParam(s)` is its `this` type.
    pub(super) fn is_this_owner(&self, s: SymbolId) -> bool {
        self.bound.symbol(s).flags & (flags::CLASS | flags::INTERFACE) != 0
    }

    /// TypeScript's `isThislessInterface`: no declaration mentions `this`, and every base
    /// is an interface without a `this` type.
    fn thisless_interface(&mut self, s: SymbolId) -> bool {
        let decls = self.bound.symbol(s).decls.clone();
        for (file, d) in decls {
            let BDecl::Interface(i) = d else { continue };
            if self.bound.files[file as usize]
                .interfaces_with_this
                .contains(&i.id.span.lo.0)
            {
                return false;
            }
            for e in &i.extends {
                let Some(entity) = expr_entity(&e.expr) else {
                    continue;
                };
                let Some(base) = self.resolve_entity(file, &entity) else {
                    return false;
                };
                let base = self.resolve_alias(base);
                if self.bound.symbol(base).flags & flags::INTERFACE == 0
                    || self.this_param(base).is_some()
                {
                    return false;
                }
            }
        }
        true
    }

    /// The merged global symbol a file's own class or interface symbol is part of (the
    /// binder records owners per file; declarations merge per checker).
    pub(super) fn merged_owner(&self, s: SymbolId) -> SymbolId {
        if s.file == GLOBAL_FILE {
            return s;
        }
        let sym = self.bound.symbol(s);
        let Some(&g) = self.bound.globals.get(&sym.name) else {
            return s;
        };
        if g == s || g.file != GLOBAL_FILE {
            return s;
        }
        let same = |a: &BDecl, b: &BDecl| match (a, b) {
            (BDecl::Class(x), BDecl::Class(y)) => std::ptr::eq(*x, *y),
            (BDecl::Interface(x), BDecl::Interface(y)) => std::ptr::eq(*x, *y),
            _ => false,
        };
        let Some((file, first)) = sym.decls.first() else {
            return s;
        };
        let merged = self
            .bound
            .symbol(g)
            .decls
            .iter()
            .any(|(f, d)| f == file && same(d, first));
        if merged { g } else { s }
    }

    /// The type a `this` annotation at `pos` denotes: its class's or interface's `this`
    /// type parameter, or `any` outside a non-static member.
    pub(in crate::check) fn this_type_node(&mut self, file: u32, pos: u32) -> TypeId {
        let Some(&owner) = self.bound.files[file as usize].this_type_owners.get(&pos) else {
            return ids::ANY;
        };
        let owner = self.merged_owner(owner);
        self.this_param(owner).unwrap_or(ids::ANY)
    }

    /// The type of the `this` expression in the bodies of class `owner`: its `this` type
    /// parameter, else (a class in a base cycle) its instance type.
    pub(in crate::check) fn this_expr_type(&mut self, owner: SymbolId) -> TypeId {
        let merged = self.merged_owner(owner);
        match self.this_param(merged) {
            Some(p) => p,
            None => {
                let d = self.declared_type(owner);
                self.this_instance(d)
            }
        }
    }

    /// The type a missing property is reported on: for a `this` type, its class or
    /// interface (as TypeScript's `reportNonexistentProperty` is given the apparent type).
    pub(in crate::check) fn shown_for_missing_property(&mut self, t: TypeId) -> TypeId {
        match *self.types.kind(t) {
            TypeKind::TypeParam(s) if self.is_this_owner(s) => self.this_constraint(s).unwrap_or(t),
            _ => t,
        }
    }

    /// The constraint of a `this` type parameter: its class or interface as referenced
    /// inside itself (`C`, `Box<T>`); `None` for other symbols.
    pub(in crate::check) fn this_constraint(&mut self, s: SymbolId) -> Option<TypeId> {
        if !self.is_this_owner(s) {
            return None;
        }
        let d = self.declared_type(s);
        Some(self.this_instance(d))
    }

    /// For a type parameter whose (base) constraint is a class or interface with a `this`
    /// type: that reference. Its members with `this` := the type parameter are the type
    /// parameter's apparent members (TypeScript's `getApparentType`).
    pub(super) fn this_apparent_target(&mut self, t: TypeId) -> Option<TypeId> {
        let mut c = t;
        for _ in 0..MAX_CONSTRAINT_CHAIN {
            let TypeKind::TypeParam(p) = *self.types.kind(c) else {
                break;
            };
            c = self.constraint_of(p)?;
            if c == t {
                return None;
            }
        }
        let s = match self.types.kind(c) {
            TypeKind::Declared(s) | TypeKind::Reference(s, _) => *s,
            _ => return None,
        };
        self.this_param(s).map(|_| c)
    }

    /// The members of `t` when it is a reference to a class or interface with a `this`
    /// type, or a type parameter constrained by one; `None` for other types.
    pub(super) fn this_members(&mut self, t: TypeId) -> Option<Rc<ObjectType>> {
        match self.types.kind(t) {
            TypeKind::Declared(s) | TypeKind::Reference(s, _) => {
                let s = *s;
                self.this_param(s)?;
                Some(self.members_with_this(t, t))
            }
            TypeKind::TypeParam(_) => {
                let c = self.this_apparent_target(t)?;
                Some(self.members_with_this(c, t))
            }
            _ => None,
        }
    }

    /// The members of the base `b` of class or interface `derived`: when both have `this`
    /// types, with the base's `this` := the derived type's `this` parameter.
    pub(super) fn base_members(&mut self, derived: SymbolId, b: TypeId) -> Rc<ObjectType> {
        let base = match self.types.kind(b) {
            TypeKind::Declared(bs) | TypeKind::Reference(bs, _) => Some(*bs),
            _ => None,
        };
        if let Some(bs) = base
            && let Some(p) = self.this_param(derived)
            && self.this_param(bs).is_some()
        {
            return self.members_with_this(b, p);
        }
        self.members(b)
    }

    /// The declared members of `s` (which has a `this` type), once per checker.
    fn this_declared(&mut self, s: SymbolId) -> Rc<ObjectType> {
        if let Some(d) = self.this.declared.get(&s) {
            return d.clone();
        }
        if !self.this.resolving.insert(s) {
            self.this.partial += 1;
            return Rc::new(ObjectType::default());
        }
        let mut scope = self.cache_scope();
        let d = Rc::new(scope.declared_members(s));
        scope.this.resolving.remove(&s);
        if !scope.met().partial {
            scope.this.declared.insert(s, d.clone());
        }
        d
    }

    /// Members of reference `r` (`Declared` or `Reference` of a class or interface with a
    /// `this` type) with `this` := `this_arg`.
    fn members_with_this(&mut self, r: TypeId, this_arg: TypeId) -> Rc<ObjectType> {
        if r != this_arg
            && let Some(m) = self.this.with_this.get(&(r, this_arg))
        {
            return m.clone();
        }
        let (s, args) = match self.types.kind(r) {
            TypeKind::Declared(s) => (*s, None),
            TypeKind::Reference(s, args) => (*s, Some(args.clone())),
            _ => return Rc::new(ObjectType::default()),
        };
        let Some(p) = self.this_param(s) else {
            return Rc::new(ObjectType::default());
        };
        let mut scope = self.cache_scope();
        let declared = scope.this_declared(s);
        let params = scope.type_params_of(s);
        let mut from = Vec::with_capacity(params.len() + 1);
        let mut to = Vec::with_capacity(params.len() + 1);
        for (i, &tp) in params.iter().enumerate() {
            let a = args.as_ref().and_then(|a| a.get(i).copied()).unwrap_or(tp);
            if a != tp {
                from.push(tp);
                to.push(a);
            }
        }
        if this_arg != p {
            from.push(p);
            to.push(this_arg);
        }
        let m = if from.is_empty() {
            // The type's own parameters and `this`: the declared members themselves.
            declared
        } else {
            let mapper = Mapper::new(&scope.types, &from, &to);
            Rc::new(scope.instantiate_members(&declared, &mapper, params.is_empty()))
        };
        if r != this_arg && !scope.met().partial {
            scope.this.with_this.insert((r, this_arg), m.clone());
        }
        m
    }

    /// The members of `o` instantiated by `m`: a transient property per member whose type
    /// is instantiated on first use (one shared mapper, as TypeScript's instantiated
    /// symbols share theirs), the signatures and index types instantiated now. With
    /// `this_only` (the mapping gives only `this`), the members whose declarations cannot
    /// mention `this` are shared, not instantiated.
    pub(super) fn instantiate_members(
        &mut self,
        o: &ObjectType,
        m: &Mapper,
        this_only: bool,
    ) -> ObjectType {
        let mut obj = ObjectType::default();
        let mapper = Rc::new(m.clone());
        let mut composed: Vec<(*const Mapper, Rc<Mapper>)> = Vec::new();
        for name in &o.order {
            let p = &o.props[name];
            if this_only && p.declaration.is_some_and(|d| self.thisless_member(d)) {
                obj.insert_symbol(name.clone(), p.clone());
                continue;
            }
            let origin = self.instantiated_origin(p, &mapper, &mut composed);
            let prop = PropSymbol {
                name: name.clone(),
                origin: Some(origin),
                optional: p.optional,
                declaration: p.declaration,
                check_flags: 1,
                ..PropSymbol::empty(name.clone())
            };
            obj.insert_symbol(name.clone(), Rc::new(prop));
        }
        obj.calls = o
            .calls
            .iter()
            .map(|s| Rc::new(self.instantiate_signature_fresh(s, m)))
            .collect();
        obj.constructs = o
            .constructs
            .iter()
            .map(|s| Rc::new(self.instantiate_signature_fresh(s, m)))
            .collect();
        obj.string_index = o.string_index.map(|t| self.instantiate(t, m));
        obj.number_index = o.number_index.map(|t| self.instantiate(t, m));
        obj
    }

    /// TypeScript's `isThisless`: a member with one declaration whose annotations cannot
    /// mention `this` (an annotated property, or a method with annotated parameters and
    /// return type).
    fn thisless_member(&self, member: SymbolId) -> bool {
        let decls = &self.bound.symbol(member).decls;
        if decls.len() != 1 {
            return false;
        }
        match &decls[0].1 {
            BDecl::Member(MemberDecl::PropertySignature(p)) => p
                .type_ann
                .as_ref()
                .is_none_or(|a| thisless_type(&a.type_ann)),
            BDecl::Member(MemberDecl::ClassProp(p)) => match &p.type_ann {
                Some(a) => thisless_type(&a.type_ann),
                None => p.value.is_none(),
            },
            BDecl::Member(MemberDecl::MethodSignature(m)) => {
                m.type_ann
                    .as_ref()
                    .is_some_and(|a| thisless_type(&a.type_ann))
                    && m.params.iter().all(thisless_fn_param)
                    && thisless_type_params(m.type_params.as_deref())
            }
            BDecl::Member(MemberDecl::Getter(g)) => g
                .type_ann
                .as_ref()
                .is_some_and(|a| thisless_type(&a.type_ann)),
            BDecl::Member(MemberDecl::ClassMethod(m)) => {
                let f = &m.function;
                f.return_type
                    .as_ref()
                    .is_some_and(|a| thisless_type(&a.type_ann))
                    && f.params.iter().all(|p| thisless_pat(&p.pat))
                    && thisless_type_params(f.type_params.as_deref())
            }
            _ => false,
        }
    }

    /// The `this` a function body sees: its class's instance for methods, else `any`.
    pub(in crate::check) fn this_of_function(&mut self, file: u32, lo: u32) -> TypeId {
        match self.bound.files[file as usize]
            .this_owners
            .get(&lo)
            .copied()
        {
            Some(owner) => self.this_expr_type(owner),
            None => ids::ANY,
        }
    }

    pub(in crate::check) fn this_instance(&mut self, declared: TypeId) -> TypeId {
        if let TypeKind::Declared(s) = self.types.kind(declared).clone() {
            let params = self.type_params_of(s);
            if !params.is_empty() {
                return self.types.reference(s, params.iter().copied().collect());
            }
        }
        declared
    }
}
