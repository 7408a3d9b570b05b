//! Symbols in type positions: entity names, exports and aliases resolved, the declared type
//! of a symbol, type references, type parameters' constraints (defaults: `check/symbols/defaults.rs`).
use std::rc::Rc;

use rustc_hash::FxHashSet;

use swc_atoms::Atom;

use crate::bind::{DeclRef as BDecl, Imported, SymbolId, flags};
use crate::check::Checker;
use crate::check::symbols::defaults::Filled;
use crate::check::symbols::resolution::Resolution;
use crate::check::types::limits::Decided;
use crate::syntax::expr_entity;
use crate::types::{Mapper, SymbolType, TypeId, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// The symbol an entity name (`A`, `A.B.C`) denotes.
    pub(in crate::check) fn resolve_entity(
        &mut self,
        file: u32,
        entity: &[(u32, Atom)],
    ) -> Option<SymbolId> {
        let (pos, name) = &entity[0];
        let mut s = self.bound.resolve(file, *pos, name)?;
        for (_, part) in &entity[1..] {
            s = self.resolve_alias(s);
            s = self.export_of_symbol(s, part)?;
        }
        Some(s)
    }

    pub(in crate::check) fn export_of_symbol(
        &mut self,
        s: SymbolId,
        name: &Atom,
    ) -> Option<SymbolId> {
        let sym = self.bound.symbol(s);
        if let Some(&e) = sym.exports.get(name) {
            return Some(e);
        }
        for (_, d) in &sym.decls {
            if let BDecl::Import {
                module: Some(m),
                imported: Imported::Namespace,
                ..
            } = d
            {
                let m = *m;
                return self.resolve_export(m, name, 0);
            }
        }
        None
    }

    /// Resolves `name` among the exports of module `file`, following re-exports.
    pub(in crate::check) fn resolve_export(
        &mut self,
        file: u32,
        name: &Atom,
        depth: u32,
    ) -> Option<SymbolId> {
        if depth > 32 {
            return None;
        }
        let fb = &self.bound.files[file as usize];
        if let Some(&s) = fb.exports.get(name) {
            return Some(s);
        }
        if name.as_str() == "default" {
            return None;
        }
        let stars = fb.export_stars.clone();
        stars
            .into_iter()
            .find_map(|m| self.resolve_export(m, name, depth + 1))
    }

    /// Follows import aliases to the symbol they stand for (the alias itself when it does
    /// not resolve, or when imports form a cycle).
    pub(in crate::check) fn resolve_alias(&mut self, s: SymbolId) -> SymbolId {
        let mut cur = s;
        for _ in 0..32 {
            if self.bound.symbol(cur).flags & flags::ALIAS == 0 {
                return cur;
            }
            if let Some(cached) = self.sym_links.get(&cur).and_then(|l| l.alias_target) {
                match cached {
                    Some(t) => cur = t,
                    None => return cur,
                }
                continue;
            }
            let target = match self.bound.symbol(cur).decls.first() {
                Some((
                    _,
                    BDecl::Import {
                        module: Some(m),
                        imported,
                        ..
                    },
                )) => {
                    let m = *m;
                    match imported {
                        Imported::Named(n) => {
                            let n = n.clone();
                            self.resolve_export(m, &n, 0)
                        }
                        Imported::Default => self.resolve_export(m, &Atom::from("default"), 0),
                        Imported::Namespace => None,
                    }
                }
                _ => None,
            };
            self.links(cur).alias_target = Some(target);
            match target {
                Some(t) if t != cur => cur = t,
                _ => return cur,
            }
        }
        cur
    }

    pub(in crate::check) fn type_params_of(&mut self, s: SymbolId) -> Rc<[TypeId]> {
        if let Some(tp) = self.sym_links.get(&s).and_then(|l| l.type_params.clone()) {
            return tp;
        }
        let decls = self.bound.symbol(s).decls.clone();
        let mut params: Rc<[TypeId]> = Rc::new([]);
        for (file, d) in decls {
            let tp = declared_type_params(&d);
            if tp.is_some() {
                params = self.type_param_types(file, tp).into();
                break;
            }
        }
        self.links(s).type_params = Some(params.clone());
        params
    }

    /// A reference to a named type with arguments.
    pub(in crate::check) fn type_reference(&mut self, s: SymbolId, args: Vec<TypeId>) -> TypeId {
        let s = self.resolve_alias(s);
        let sym = self.bound.symbol(s);
        let f = sym.flags;
        if f & flags::TYPE_PARAM != 0 {
            let s = self.merged_type_params.get(&s).copied().unwrap_or(s);
            return self.types.of_symbol(SymbolType::TypeParam, s);
        }
        if f & (flags::CLASS | flags::INTERFACE) != 0 {
            let params = self.type_params_of(s);
            if params.is_empty() {
                return self.declared_type(s);
            }
            let args = self.fill_args(s, &params, args).or_error(params.len());
            return self.types.reference(s, args.into());
        }
        if f & flags::TYPE_ALIAS != 0 {
            let params = self.type_params_of(s);
            if let Some(&(_, at)) = self.alias_stack.iter().find(|e| e.0 == s)
                && self.deferred > at
            {
                let (Filled::All(args) | Filled::Lazy(args)) = self.fill_args(s, &params, args);
                return self.types.lazy_alias(s, args.into());
            }
            let body = self.declared_type(s);
            if params.is_empty() {
                return body;
            }
            return match self.fill_args(s, &params, args) {
                Filled::All(args) => self.alias_instantiation(s, body, args),
                Filled::Lazy(args) => self.types.lazy_alias(s, args.into()),
            };
        }
        if f & flags::ENUM != 0 {
            return self.types.of_symbol(SymbolType::Enum, s);
        }
        if f & flags::ENUM_MEMBER != 0 {
            return self.types.of_symbol(SymbolType::EnumLiteral, s);
        }
        ids::ERROR
    }

    /// `body`, the declared type of generic alias `s`, instantiated with `args`, cached
    /// like TypeScript's `getTypeAliasInstantiation`. The same instantiation met again while
    /// it is computed is the alias itself, lazily (a mapped type's index signature that
    /// leads back to it, as trpc's `DecorateRouterRecord<RouterRecord>` does): TypeScript
    /// meets the instantiated mapped type there, whose members it has not resolved yet.
    /// What leaned on that is kept only once the instantiation completes.
    fn alias_instantiation(&mut self, s: SymbolId, body: TypeId, args: Vec<TypeId>) -> TypeId {
        let params = self.type_params_of(s);
        let m = Mapper::new(&self.types, &params, &args);
        if let Some(&r) = self.inst_cache.get(&(body, m.key)) {
            return r;
        }
        let Some(token) = self.begin_resolution(Resolution::Alias(s, m.key)) else {
            return self.types.lazy_alias(s, args.into());
        };
        let mut scope = self.cache_scope();
        let r = scope.instantiate(body, &m);
        let limited = scope.met().tainted;
        drop(scope);
        if self.end_resolution(token, r) && !limited {
            self.inst_cache.insert((body, m.key), r);
        }
        r
    }

    pub(in crate::check) fn constraint_of(&mut self, s: SymbolId) -> Option<TypeId> {
        if let Some(c) = self.marker_constraint(s) {
            return c;
        }
        if let Some(c) = self.this_constraint(s) {
            return Some(c);
        }
        match self.bound.symbol(s).decls.first() {
            Some((file, BDecl::TypeParam(p))) => {
                let file = *file;
                let c = p.constraint.as_deref()?;
                if let Some(&t) = self.constraints.get(&s) {
                    self.meet_kept_limits(&Decided::Constraint(s));
                    return Some(t);
                }
                self.constraints.insert(s, ids::UNKNOWN);
                self.alias_stack.push((s, self.deferred));
                let base = self.limits_base();
                let mut scope = self.cache_scope();
                let t = scope.type_from_node(file, c);
                let clean = !scope.met().leaned;
                let limits = scope.limits_met(base);
                drop(scope);
                self.alias_stack.pop();
                if clean {
                    self.keep_limits_met(Decided::Constraint(s), limits);
                    self.constraints.insert(s, t);
                } else {
                    self.constraints.remove(&s);
                }
                Some(t)
            }
            _ => None,
        }
    }

    /// The type a symbol denotes in a type position.
    pub(in crate::check) fn declared_type(&mut self, s: SymbolId) -> TypeId {
        let s = self.resolve_alias(s);
        if let Some(t) = self.sym_links.get(&s).and_then(|l| l.declared_type) {
            self.meet_kept_limits(&Decided::Declared(s));
            return t;
        }
        let f = self.bound.symbol(s).flags;
        let t = if f & (flags::CLASS | flags::INTERFACE) != 0 {
            self.types.of_symbol(SymbolType::Declared, s)
        } else if f & flags::TYPE_ALIAS != 0 {
            if self.links(s).resolving_declared {
                // A cycle through direct positions: everything on it is circular.
                let at = self.alias_stack.iter().position(|a| a.0 == s).unwrap_or(0);
                let cycle: Vec<SymbolId> = self.alias_stack[at..].iter().map(|a| a.0).collect();
                for a in cycle {
                    self.links(a).circular = true;
                }
                return ids::ERROR;
            }
            let Some((file, BDecl::Alias(a))) = self
                .bound
                .symbol(s)
                .decls
                .iter()
                .find(|(_, d)| matches!(d, BDecl::Alias(_)))
                .cloned()
            else {
                return ids::ERROR;
            };
            self.links(s).resolving_declared = true;
            self.alias_stack.push((s, self.deferred));
            let saved_depth = std::mem::replace(&mut self.type_depth, 0);
            let base = self.limits_base();
            let mut scope = self.cache_scope();
            let t = scope.type_from_node(file, &a.type_ann);
            let clean = !scope.met().leaned;
            let limits = scope.limits_met(base);
            drop(scope);
            self.type_depth = saved_depth;
            self.alias_stack.pop();
            self.links(s).resolving_declared = false;
            if self.links(s).circular {
                ids::ERROR
            } else if !clean {
                // `typeof` of a value met through a placeholder: not cached for good.
                return t;
            } else {
                self.keep_limits_met(Decided::Declared(s), limits);
                t
            }
        } else if f & flags::ENUM != 0 {
            self.types.of_symbol(SymbolType::Enum, s)
        } else if f & flags::TYPE_PARAM != 0 {
            self.types.of_symbol(SymbolType::TypeParam, s)
        } else {
            ids::ERROR
        };
        self.links(s).declared_type = Some(t);
        t
    }

    /// Whether following the bases of `sym` leads back to it.
    pub(in crate::check) fn base_cycle(&mut self, sym: SymbolId) -> bool {
        let mut seen = FxHashSet::default();
        let mut work = self.base_symbols(sym);
        while let Some(s) = work.pop() {
            if s == sym {
                return true;
            }
            if seen.insert(s) && seen.len() < 256 {
                work.extend(self.base_symbols(s));
            }
        }
        false
    }

    /// The symbols the heritage clauses of `sym` name (`extends`, a class's super class).
    pub(super) fn base_symbols(&mut self, sym: SymbolId) -> Vec<SymbolId> {
        let mut out = Vec::new();
        let decls = self.bound.symbol(sym).decls.clone();
        for (file, d) in decls {
            let heritage: Vec<&'a swc_ecma_ast::Expr> = match d {
                BDecl::Class(c) => c.super_class.iter().map(|e| &**e).collect(),
                BDecl::Interface(i) => i.extends.iter().map(|e| &*e.expr).collect(),
                _ => continue,
            };
            for e in heritage {
                if let Some(entity) = expr_entity(e)
                    && let Some(s) = self.resolve_entity(file, &entity)
                {
                    out.push(self.resolve_alias(s));
                }
            }
        }
        out
    }
}

/// The type parameters a class, interface or alias declaration lists (`<T, U>`).
pub(super) fn declared_type_params<'a>(d: &BDecl<'a>) -> Option<&'a swc_ecma_ast::TsTypeParamDecl> {
    match d {
        BDecl::Class(c) => c.type_params.as_deref(),
        BDecl::Interface(i) => i.type_params.as_deref(),
        BDecl::Alias(a) => a.type_params.as_deref(),
        _ => None,
    }
}
