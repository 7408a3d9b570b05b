//! Outer type parameters of anonymous object types, as TypeScript instantiates them.
//!
//! An anonymous object type written in a declaration (a function or constructor type, a
//! type literal, the type of a method) has *outer type parameters*
//! (`getObjectTypeInstantiation`, `getOuterTypeParameters`): the type parameters of the
//! declarations around it, the `this` type of an enclosing class or interface included,
//! kept where they are *possibly referenced* (`isTypeParameterPossiblyReferenced`): a
//! parameter whose symbol has several declarations (the `this` type of an interface that
//! also has a `declare var`, as most of lib.dom's have, or the `T` of an interface declared
//! in several lib files) always is; another one is where the declaration mentions it.
//! Instantiating such a type maps its outer type parameters; when any changes the result
//! is a new type, one per declared type and list of arguments, even where the type
//! mentions none of them, so `((this: Element, ev: Event) => any) | null` is a new function
//! type and a new union per element interface, as there.
//!
//! Instantiating the members of such a type or of a class or interface reference gives its
//! generic signatures fresh copies of their type parameters (`instantiateSignature` with
//! `cloneTypeParameter`), so what their parameters and return types mention is instantiated
//! too (`HTMLCollectionOf<HTMLElementTagNameMap[K]>` per element interface).
//!
//! Object types whose outer type parameters cannot be told from the syntax here (an object
//! literal's type, a `typeof` query's, a function expression's, an inferred return type's
//! object) take as outer type parameters those their structure mentions, read when the
//! type is first instantiated (`register_structural`): their instantiations resolve
//! properties when first read too, as TypeScript's do. As everywhere, nothing is cached
//! that was computed while a placeholder, a depth limit or an assumption was met.
use std::rc::Rc;

use rustc_hash::FxHashMap;
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{DeclRef as BDecl, MemberDecl, SymbolId, flags};
use crate::check::Checker;
use crate::syntax::{fn_param_ann, pat_ann, walk_ts_type};
use crate::types::{Mapper, PropSymbol, Signature, SymbolType, TypeId, TypeKind, ids, tflags};

/// One anonymous object type with outer type parameters.
struct Anon {
    /// The declared type this one instantiates (itself for a declared one).
    target: TypeId,
    /// The declared type's outer type parameters.
    params: Rc<[TypeId]>,
    /// This type's arguments for them (the parameters themselves for a declared one).
    args: Box<[TypeId]>,
    /// What the declared type's syntax says of its type parameters (see [`Declared`]).
    declared: Rc<Declared>,
}

/// What the syntax of a declared anonymous type says of the type parameters an
/// instantiation's properties may mention: the flags of an instantiation whose properties
/// are not instantiated yet follow from it.
struct Declared {
    /// Per outer type parameter: whether the declaration mentions it (a parameter kept only
    /// because its symbol has several declarations may not be).
    mentioned: Box<[bool]>,
    /// The declaration declares a generic signature: its type parameters stay type
    /// parameters in every instantiation.
    generic_signatures: bool,
    /// Flags every instantiation has whatever its arguments: [`tflags::CONTAINS_FRESH`]
    /// where a property's type holds a fresh object literal type of its own (only an
    /// object type read from its structure, [`Checker::register_structural`], can).
    fixed: u16,
}

/// What a walk of an object type's structure found ([`Checker::register_structural`]).
#[derive(Default)]
struct Structure {
    /// The type parameters it mentions outside the signatures that declare them, in the
    /// order first met: its outer type parameters.
    free: Vec<TypeId>,
    /// It mentions a generic signature's own type parameter.
    generic_signatures: bool,
    /// Some part of it that no instantiation changes holds a fresh object literal type.
    fresh: bool,
    /// The type parameters of the signatures the walk is inside.
    bound: Vec<TypeId>,
    visited: rustc_hash::FxHashSet<TypeId>,
}

/// One checker's anonymous object types and their instantiations.
#[derive(Default)]
pub(in crate::check) struct OuterTypes {
    anon: FxHashMap<TypeId, Rc<Anon>>,
    /// Object types whose structure could not be read without resolving a property: they
    /// are instantiated by the plain rule.
    unstructured: rustc_hash::FxHashSet<TypeId>,
    /// Instantiations by declared type and arguments (TypeScript's `target.instantiations`).
    instantiations: FxHashMap<(TypeId, Box<[TypeId]>), TypeId>,
}

/// What a declaration's syntax mentions: type names (position and name) and `this` types.
#[derive(Default)]
struct Mentions {
    names: Vec<(u32, Atom)>,
    this_types: Vec<u32>,
    /// A `typeof` query: what it mentions is not known from the syntax.
    query: bool,
    /// A generic function, constructor, method, call or construct signature.
    generic_signatures: bool,
}

impl Mentions {
    fn walk(&mut self, t: &TsType) {
        walk_ts_type(t, &mut |x| {
            match x {
                TsType::TsTypeRef(r) => {
                    if let TsEntityName::Ident(i) = &r.type_name {
                        self.names.push((i.span.lo.0, i.sym.clone()));
                    }
                }
                TsType::TsThisType(t) => self.this_types.push(t.span.lo.0),
                TsType::TsTypeQuery(_) | TsType::TsImportType(_) => self.query = true,
                TsType::TsFnOrConstructorType(f) => {
                    let tp = match f {
                        TsFnOrConstructorType::TsFnType(f) => &f.type_params,
                        TsFnOrConstructorType::TsConstructorType(f) => &f.type_params,
                    };
                    self.generic_signatures |= tp.is_some();
                }
                TsType::TsTypeLit(l) => {
                    self.generic_signatures |= l.members.iter().any(|m| match m {
                        TsTypeElement::TsMethodSignature(m) => m.type_params.is_some(),
                        TsTypeElement::TsCallSignatureDecl(c) => c.type_params.is_some(),
                        TsTypeElement::TsConstructSignatureDecl(c) => c.type_params.is_some(),
                        _ => false,
                    });
                }
                _ => {}
            }
            true
        });
    }

    fn ann(&mut self, a: Option<&TsTypeAnn>) {
        if let Some(a) = a {
            self.walk(&a.type_ann);
        }
    }

    fn type_params(&mut self, tp: Option<&TsTypeParamDecl>) {
        self.generic_signatures |= tp.is_some();
        for p in tp.iter().flat_map(|tp| &tp.params) {
            for t in [&p.constraint, &p.default].into_iter().flatten() {
                self.walk(t);
            }
        }
    }
}

impl<'a> Checker<'a, '_> {
    /// Registers `t`, the type of function type, constructor type or type literal `node`,
    /// with its outer type parameters.
    pub(in crate::check) fn register_anonymous_node(
        &mut self,
        t: TypeId,
        file: u32,
        node: &TsType,
    ) {
        use swc_common::Spanned;
        let span = node.span();
        let mut m = Mentions::default();
        m.walk(node);
        let owner = self.bound.files[file as usize]
            .anon_owners
            .get(&span.lo.0)
            .copied();
        self.register_anonymous(t, file, owner, &m, (span.lo.0, span.hi.0));
    }

    /// Registers `t`, the type of method `member`, with its outer type parameters (those of
    /// all its declarations).
    pub(in crate::check) fn register_method_type(&mut self, member: SymbolId, t: TypeId) -> TypeId {
        if !matches!(self.types.kind(t), TypeKind::Object(_))
            || self.outer_types.anon.contains_key(&t)
        {
            return t;
        }
        let sym = self.bound.symbol(member);
        let Some(owner) = sym.parent else { return t };
        let decls = sym.decls.clone();
        let mut m = Mentions::default();
        let mut file = None;
        let mut span = (u32::MAX, 0);
        for (f, d) in &decls {
            if file.is_some_and(|x| x != *f) {
                return t;
            }
            file = Some(*f);
            let lo_hi = match d {
                BDecl::Member(MemberDecl::MethodSignature(p)) => {
                    m.type_params(p.type_params.as_deref());
                    for q in &p.params {
                        m.ann(fn_param_ann(q));
                    }
                    m.ann(p.type_ann.as_deref());
                    (p.span.lo.0, p.span.hi.0)
                }
                BDecl::Member(MemberDecl::ClassMethod(cm)) if cm.kind == MethodKind::Method => {
                    let func = &cm.function;
                    // A return type inferred from the body may mention anything around it.
                    if func.return_type.is_none() && func.body.is_some() {
                        return t;
                    }
                    m.type_params(func.type_params.as_deref());
                    for q in &func.params {
                        m.ann(pat_ann(&q.pat));
                    }
                    m.ann(func.return_type.as_deref());
                    (cm.span.lo.0, cm.span.hi.0)
                }
                _ => return t,
            };
            span = (span.0.min(lo_hi.0), span.1.max(lo_hi.1));
        }
        let Some(file) = file else { return t };
        self.register_anonymous(t, file, Some(owner), &m, span);
        t
    }

    /// Records the outer type parameters of `t`, declared in `file` within `span` inside
    /// class or interface `owner` and mentioning `m`; a type with none is not recorded.
    fn register_anonymous(
        &mut self,
        t: TypeId,
        file: u32,
        owner: Option<SymbolId>,
        m: &Mentions,
        span: (u32, u32),
    ) {
        if m.query {
            return;
        }
        let before = self.this.partial;
        let mut mentioned: Vec<TypeId> = Vec::new();
        for &pos in &m.this_types {
            let p = self.this_type_node(file, pos);
            if p != ids::ANY && !mentioned.contains(&p) {
                mentioned.push(p);
            }
        }
        for (pos, name) in &m.names {
            if let Some(tp) = self.type_param_declared_outside(file, *pos, name, span.0..span.1)
                && !mentioned.contains(&tp)
            {
                mentioned.push(tp);
            }
        }
        let mut params: Vec<TypeId> = Vec::new();
        if let Some(owner) = owner {
            let owner = self.merged_owner(owner);
            let decls = &self.bound.symbol(owner).decls;
            let interfaces = decls
                .iter()
                .filter(|(_, d)| matches!(d, BDecl::Interface(_)))
                .count();
            let several = decls.len() > 1;
            // Several declarations: always possibly referenced.
            if interfaces > 1 {
                params.extend(self.type_params_of(owner).iter().copied());
            }
            if several && let Some(p) = self.this_param(owner) {
                params.push(p);
            }
        }
        for &p in &mentioned {
            if !params.contains(&p) {
                params.push(p);
            }
        }
        // A `this` type decided on a cycle: left to the plain rule.
        if params.is_empty() || self.this.partial != before {
            return;
        }
        let declared = Rc::new(Declared {
            mentioned: params.iter().map(|p| mentioned.contains(p)).collect(),
            generic_signatures: m.generic_signatures,
            fixed: 0,
        });
        let params: Rc<[TypeId]> = params.into();
        let anon = Anon {
            target: t,
            args: params.iter().copied().collect(),
            params,
            declared,
        };
        self.outer_types.anon.insert(t, Rc::new(anon));
        self.types.set_outer(t, true);
    }

    /// The declared anonymous type `t` instantiates (itself for a declared one).
    pub(super) fn anonymous_target(&self, t: TypeId) -> Option<TypeId> {
        self.outer_types.anon.get(&t).map(|a| a.target)
    }

    /// TypeScript's `getObjectTypeInstantiation` for an anonymous object type with outer
    /// type parameters: `None` for other types. The same type where no outer type
    /// parameter changes, else the declared type's instantiation with the new arguments,
    /// one per arguments.
    ///
    /// Each type and mapper is instantiated once, like every other type (`inst_cache`):
    /// the arguments of an anonymous type are often anonymous types themselves (a chain of
    /// aliases each defaulting two parameters to the next, `type A0<S, X = A1<S>, Y =
    /// A1<[S]>> = { x: X; y: Y }`), and instantiating them again at every mention took
    /// time exponential in the chain's length.
    pub(super) fn instantiate_anonymous(&mut self, t: TypeId, m: &Mapper) -> Option<TypeId> {
        let a = match self.outer_types.anon.get(&t) {
            Some(a) => a.clone(),
            None => self.register_structural(t)?,
        };
        if m.pairs.is_empty() {
            return Some(t);
        }
        if let Some(&r) = self.inst_cache.get(&(t, m.key)) {
            return Some(r);
        }
        let mut scope = self.cache_scope();
        let r = scope.instantiate_outer_args(t, &a, m);
        let met = scope.met();
        drop(scope);
        if met.cacheable() {
            self.inst_cache.insert((t, m.key), r);
        }
        Some(r)
    }

    /// `t`, an instantiation of `a`'s declared anonymous type, under `m`: the declared
    /// type with its outer type parameters' arguments instantiated by `m`.
    fn instantiate_outer_args(&mut self, t: TypeId, a: &Anon, m: &Mapper) -> TypeId {
        let args: Box<[TypeId]> = a.args.iter().map(|&x| self.instantiate(x, m)).collect();
        if args == a.args {
            return t;
        }
        if *args == *a.params {
            return a.target;
        }
        let key = (a.target, args);
        if let Some(&r) = self.outer_types.instantiations.get(&key) {
            return r;
        }
        if let Some(r) = self.instantiation_limited() {
            return r;
        }
        let TypeKind::Object(o) = self.types.kind(a.target).clone() else {
            return t;
        };
        self.inst_depth += 1;
        let mut scope = self.cache_scope();
        let (mut from, mut to) = (Vec::new(), Vec::new());
        for (&p, &x) in a.params.iter().zip(key.1.iter()) {
            if p != x {
                from.push(p);
                to.push(x);
            }
        }
        let mapper = Mapper::new(&scope.types, &from, &to);
        // Its properties are instantiated when first asked for (TypeScript's
        // `resolveAnonymousTypeMembers`); signatures and index types now.
        let obj = scope.instantiate_members(&o, &mapper, false);
        let has_props = !obj.props.is_empty();
        let origin = scope.types.stable(a.target) ^ mapper.stable.rotate_left(17);
        let r = scope.types.object(obj, origin);
        if has_props {
            // What the properties will mention: the arguments of the outer type parameters
            // the declaration mentions, and the type parameters of its generic signatures.
            let mentioned: Vec<TypeId> = key
                .1
                .iter()
                .zip(a.declared.mentioned.iter())
                .filter(|&(_, &m)| m)
                .map(|(&x, _)| x)
                .collect();
            let mut flags = scope.types.generic_of(&mentioned)
                & (tflags::GENERIC | tflags::THIS | tflags::CONTAINS_FRESH)
                | a.declared.fixed;
            if a.declared.generic_signatures {
                flags |= tflags::GENERIC;
            }
            scope.types.types[r as usize].flags |= flags;
        }
        if !scope.types.is_generic(a.target) {
            // It mentions no type parameter: it is the declared type's structure exactly,
            // and keeps its key (so unions order and print as before).
            scope.types.types[r as usize].stable = scope.types.stable(a.target);
        }
        let could = scope.types.could_contain_type_params(&key.1);
        scope.types.set_outer(r, could);
        let anon = Anon {
            target: a.target,
            params: a.params.clone(),
            args: key.1.clone(),
            declared: a.declared.clone(),
        };
        scope.outer_types.anon.insert(r, Rc::new(anon));
        let met = scope.met();
        drop(scope);
        self.inst_depth -= 1;
        if met.cacheable() {
            self.outer_types.instantiations.insert(key, r);
        }
        r
    }

    /// Registers `t`, an object type no declaration's syntax registered (an object literal's
    /// type, a `typeof` value's, an inferred return type's object, a function expression's
    /// type), as an anonymous type whose outer type parameters are those its structure
    /// mentions: instantiating it then resolves its properties when first asked for, as
    /// TypeScript instantiates these types too (their declarations are anonymous object
    /// types there), not all at once. `None` for another type, or one with a property not
    /// resolved yet (a mapped type's object): the plain rule instantiates those.
    fn register_structural(&mut self, t: TypeId) -> Option<Rc<Anon>> {
        if !matches!(self.types.kind(t), TypeKind::Object(_))
            || self.outer_types.unstructured.contains(&t)
        {
            return None;
        }
        let mut s = Structure::default();
        if !self.read_structure(t, &mut s) {
            self.outer_types.unstructured.insert(t);
            return None;
        }
        let params: Rc<[TypeId]> = s.free.into();
        let anon = Rc::new(Anon {
            target: t,
            args: params.iter().copied().collect(),
            declared: Rc::new(Declared {
                mentioned: params.iter().map(|_| true).collect(),
                generic_signatures: s.generic_signatures,
                fixed: if s.fresh { tflags::CONTAINS_FRESH } else { 0 },
            }),
            params,
        });
        self.outer_types.anon.insert(t, anon.clone());
        Some(anon)
    }

    /// Walks what instantiating `t` would instantiate, into `s`, reading only types already
    /// resolved: false where a property's type is not.
    fn read_structure(&self, t: TypeId, s: &mut Structure) -> bool {
        let f = self.types.flags(t);
        if f & (tflags::GENERIC | tflags::OUTER) == 0 {
            s.fresh |= f & (tflags::FRESH_LITERAL | tflags::CONTAINS_FRESH) != 0;
            return true;
        }
        if !s.visited.insert(t) {
            return true;
        }
        if let Some(a) = self.outer_types.anon.get(&t) {
            s.generic_signatures |= a.declared.generic_signatures;
            s.fresh |= a.declared.fixed != 0;
            return a.args.iter().all(|&x| self.read_structure(x, s));
        }
        let outer_of = |root_outer: &[TypeId], mapper: Option<&Mapper>| -> Vec<TypeId> {
            root_outer
                .iter()
                .map(|&p| mapper.and_then(|m| m.get(p)).unwrap_or(p))
                .collect()
        };
        let parts: Vec<TypeId> = match self.types.kind(t) {
            TypeKind::TypeParam(_) => {
                if s.bound.contains(&t) {
                    s.generic_signatures = true;
                } else if !s.free.contains(&t) {
                    s.free.push(t);
                }
                return true;
            }
            TypeKind::Union(xs)
            | TypeKind::Intersection(xs)
            | TypeKind::Tuple(xs)
            | TypeKind::Reference(_, xs)
            | TypeKind::LazyAlias(_, xs) => xs.to_vec(),
            TypeKind::Keyof(x) | TypeKind::Spread(x) => vec![*x],
            TypeKind::Indexed(o, k) => vec![*o, *k],
            TypeKind::Conditional(c) => outer_of(&c.root.outer, c.mapper.as_deref()),
            TypeKind::Mapped(m) => outer_of(&m.root.outer, m.mapper.as_deref()),
            TypeKind::Object(o) => {
                let o = o.clone();
                for name in &o.order {
                    let ty = o.props[name].ty.get();
                    if ty == crate::types::UNRESOLVED || !self.read_structure(ty, s) {
                        return false;
                    }
                }
                for sig in o.calls.iter().chain(&o.constructs) {
                    if !self.read_signature(sig, s) {
                        return false;
                    }
                }
                o.string_index.into_iter().chain(o.number_index).collect()
            }
            // What instantiation leaves as it is (a class's or interface's declared type).
            _ => Vec::new(),
        };
        parts.into_iter().all(|x| self.read_structure(x, s))
    }

    /// [`Self::read_structure`] of a signature: its own type parameters are bound in it.
    fn read_signature(&self, sig: &Signature, s: &mut Structure) -> bool {
        let depth = s.bound.len();
        s.bound.extend(sig.type_params.iter().copied());
        s.generic_signatures |= !sig.type_params.is_empty();
        let outer = sig.outer.iter().flat_map(|o| o.pairs.iter().map(|p| p.1));
        let ok = sig
            .params
            .iter()
            .map(|p| p.ty)
            .chain([sig.ret])
            .chain(sig.predicate.map(|p| p.1))
            .chain(outer)
            .all(|x| self.read_structure(x, s));
        s.bound.truncate(depth);
        ok
    }

    /// A signature of an instantiated type: its own type parameters, where `m` leaves them,
    /// get fresh copies (mapped to them) whose constraints are read through `m`, as
    /// TypeScript's `instantiateSignature` does.
    pub(super) fn instantiate_signature_fresh(&mut self, sig: &Signature, m: &Mapper) -> Signature {
        let kept: Vec<TypeId> = sig
            .type_params
            .iter()
            .copied()
            .filter(|&p| m.get(p).is_none())
            .collect();
        if kept.is_empty() || m.pairs.is_empty() {
            return self.instantiate_signature(sig, m);
        }
        let fresh: Vec<TypeId> = kept
            .iter()
            .map(|&p| self.types.clone_type_param(p))
            .collect();
        let mut from: Vec<TypeId> = m.pairs.iter().map(|p| p.0).collect();
        let mut to: Vec<TypeId> = m.pairs.iter().map(|p| p.1).collect();
        from.extend(&kept);
        to.extend(&fresh);
        let with_fresh = Mapper::new(&self.types, &from, &to);
        let mut out = self.instantiate_signature(sig, &with_fresh);
        out.outer = Some(self.compose_outer(sig.outer.as_deref(), &with_fresh));
        out.type_params = fresh.into();
        out
    }

    /// Whether generic signatures `s` and `t` are one signature instantiated alike: the
    /// same type parameters (or fresh copies of the same ones) and the same parameter and
    /// return types, told apart from copies of each other by their structural keys (the
    /// identity `findMatchingSignatures` asks for, with type parameters matched up).
    pub(in crate::check) fn same_generic_signature(&self, s: &Signature, t: &Signature) -> bool {
        let same = |a: TypeId, b: TypeId| a == b || self.types.stable(a) == self.types.stable(b);
        s.type_params.len() == t.type_params.len()
            && s.type_params
                .iter()
                .zip(&t.type_params)
                .all(|(&a, &b)| same(a, b))
            && same(s.ret, t.ret)
            && s.min_args == t.min_args
            && s.rest == t.rest
            && s.params.len() == t.params.len()
            && s.params
                .iter()
                .zip(&t.params)
                .all(|(a, b)| same(a.ty, b.ty))
    }

    /// The origin of `p` instantiated by `m`: as in TypeScript's `instantiateSymbol`, a
    /// property that is itself an instantiation goes back to its generic property with the
    /// two mappers composed, so a chain of instantiations (a base's member through the
    /// derived interface's `this`, then through a reference to it) makes one instantiation
    /// of the property's type, not one per link. `composed` remembers the composition per
    /// mapper of the object being instantiated.
    pub(super) fn instantiated_origin(
        &mut self,
        p: &Rc<PropSymbol>,
        m: &Rc<Mapper>,
        composed: &mut Vec<(*const Mapper, Rc<Mapper>)>,
    ) -> (Rc<PropSymbol>, Rc<Mapper>) {
        let Some((root, pm)) = &p.origin else {
            return (p.clone(), m.clone());
        };
        let key = Rc::as_ptr(pm);
        if let Some((_, c)) = composed.iter().find(|(k, _)| *k == key) {
            return (root.clone(), c.clone());
        }
        let c = self.compose_outer(Some(pm), m);
        composed.push((key, c.clone()));
        (root.clone(), c)
    }

    /// The type parameters declared outside type node `t` that it mentions.
    pub(in crate::check) fn outer_params(&mut self, file: u32, t: &'a TsType) -> Box<[TypeId]> {
        use swc_common::Spanned;
        let span = t.span();
        let mut refs: Vec<(u32, Atom)> = Vec::new();
        walk_ts_type(t, &mut |x| {
            if let TsType::TsTypeRef(r) = x
                && let TsEntityName::Ident(i) = &r.type_name
            {
                refs.push((i.span.lo.0, i.sym.clone()));
            }
            true
        });
        let mut out: Vec<TypeId> = Vec::new();
        for (pos, name) in refs {
            if let Some(tp) =
                self.type_param_declared_outside(file, pos, &name, span.lo.0..span.hi.0)
                && !out.contains(&tp)
            {
                out.push(tp);
            }
        }
        out.into()
    }

    /// The type parameter that `name` at `pos` names, unless it names something else or a
    /// type parameter declared at a position in `inside` of the same file.
    pub(super) fn type_param_declared_outside(
        &mut self,
        file: u32,
        pos: u32,
        name: &Atom,
        inside: std::ops::Range<u32>,
    ) -> Option<TypeId> {
        let s = self.bound.resolve(file, pos, name)?;
        let sym = self.bound.symbol(s);
        if sym.flags & flags::TYPE_PARAM == 0 {
            return None;
        }
        let declared_inside = sym.decls.iter().any(|(f, d)| {
            matches!(d, BDecl::TypeParam(p)
                if *f == file && inside.contains(&p.name.span.lo.0))
        });
        if declared_inside {
            return None;
        }
        let s = self.merged_type_params.get(&s).copied().unwrap_or(s);
        Some(self.types.of_symbol(SymbolType::TypeParam, s))
    }
}
