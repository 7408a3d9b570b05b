//! Type parameters' defaults, and the type arguments of a reference filled with them.
//!
//! A default is a declaration of its own (TypeScript's `getResolvedTypeParameterDefault`
//! keeps one per type parameter): **its type does not depend on who asked for it first.**
//! It is resolved once, through its type node (so with the instantiation depth and count
//! restarted) and its nesting depth from 0, and kept per type parameter with the limits met
//! while it was resolved (`check/types/limits.rs`'s `Decided`). An alias being resolved by its
//! asker and named in a deferred position in it is that alias, lazily, as in a declared
//! type resolved there; a lazy alias relates, gives members and prints as what it stands
//! for. Before issue 42 a default was resolved again at every reference, and its type node
//! was cached only where no alias was being resolved:
//! json-schema-to-ts@3.1.1's `ParseSchema`, whose default `RESULT` names a dozen aliases
//! whose own defaults name `ParseSchema` again, expanded into a tree as deep as the
//! nesting limit whenever a checker first met it inside an alias (`type U<T> =
//! ParseSchema<T>`), and finished in half a second only where another file had resolved it
//! from the top level first (1 and 3 checkers, not 2 and 8).
//!
//! A default met again while it is resolved is a cycle. Met in a deferred position (a
//! branch of a generic conditional type, which TypeScript resolves only when instantiated,
//! a type argument, a member) the reference is the alias itself, lazily, with the
//! arguments written, filled when expanded; elsewhere it is a circular default, the error
//! type, and the aliases being resolved around it are circular (`TS2456`, as when the cycle
//! is entered at one of them). Either way what leaned on the default in progress is kept
//! provisionally, until the default that was entered completes (`check/symbols/resolution.rs`).
use rustc_hash::FxHashMap;
use swc_ecma_ast::TsType;

use crate::bind::SymbolId;
use crate::check::Checker;
use crate::check::symbols::resolution::Resolution;
use crate::check::types::limits::Decided;
use crate::types::{Mapper, TypeId, ids};

/// A type parameter, by its declaring symbol and position.
type ParamKey = (SymbolId, u32);

/// The defaults a checker resolved, and those it is resolving.
#[derive(Default)]
pub(in crate::check) struct Defaults {
    /// Each default resolved for good (what a limit decided with it is in the limits' kept
    /// map, under [`Decided::Default`]).
    resolved: FxHashMap<ParamKey, TypeId>,
    /// The defaults being resolved, with the checker's `deferred` count and the length of
    /// its alias stack when each started.
    resolving: FxHashMap<ParamKey, (u32, usize)>,
}

/// What a type parameter's default is where a reference needs it.
pub(super) enum ParamDefault {
    /// No default is declared.
    Absent,
    Type(TypeId),
    /// The default is being resolved, and is met again in a deferred position.
    Again,
}

/// The type arguments of a reference, defaults filled in.
pub(in crate::check) enum Filled {
    /// One per type parameter.
    All(Vec<TypeId>),
    /// Stopped at a default met again while it is resolved, in a deferred position: the
    /// arguments before it. The reference is the alias itself, lazily.
    Lazy(Vec<TypeId>),
}

impl Filled {
    /// One argument per parameter, a default being resolved taken as the error type (for
    /// what cannot be lazy: a class or interface reference, a constraint check).
    pub(in crate::check) fn or_error(self, params: usize) -> Vec<TypeId> {
        match self {
            Filled::All(args) => args,
            Filled::Lazy(mut args) => {
                args.resize(params, ids::ERROR);
                args
            }
        }
    }
}

impl<'a, 'b> Checker<'a, 'b> {
    /// The arguments of a reference to `s`: those written (at most one per parameter), then
    /// each missing one's default instantiated with the arguments before it, else `any`.
    pub(in crate::check) fn fill_args(
        &mut self,
        s: SymbolId,
        params: &[TypeId],
        mut args: Vec<TypeId>,
    ) -> Filled {
        args.truncate(params.len());
        while args.len() < params.len() {
            let i = args.len();
            let d = match self.type_param_default(s, i) {
                ParamDefault::Type(d) => {
                    let m = Mapper::new(&self.types, &params[..i], &args);
                    self.instantiate(d, &m)
                }
                ParamDefault::Absent => ids::ANY,
                ParamDefault::Again => return Filled::Lazy(args),
            };
            args.push(d);
        }
        Filled::All(args)
    }

    /// The default of `s`'s `i`th type parameter (see the module documentation).
    pub(super) fn type_param_default(&mut self, s: SymbolId, i: usize) -> ParamDefault {
        let key = (s, i as u32);
        if let Some(&t) = self.defaults.resolved.get(&key) {
            self.meet_kept_limits(&Decided::Default(key));
            return ParamDefault::Type(t);
        }
        let what = Resolution::Default(key);
        if let Some(t) = self.provisional_type(what) {
            return ParamDefault::Type(t);
        }
        let Some((file, node)) = self.default_node(s, i) else {
            return ParamDefault::Absent;
        };
        let Some(token) = self.begin_resolution(what) else {
            let (started, aliases) = self.defaults.resolving[&key];
            if self.deferred > started {
                return ParamDefault::Again;
            }
            let cycle: Vec<SymbolId> = self.alias_stack[aliases..].iter().map(|a| a.0).collect();
            for a in cycle {
                self.links(a).circular = true;
            }
            return ParamDefault::Type(ids::ERROR);
        };
        self.defaults
            .resolving
            .insert(key, (self.deferred, self.alias_stack.len()));
        let saved_depth = std::mem::replace(&mut self.type_depth, 0);
        let base = self.limits_base();
        let mut scope = self.cache_scope();
        let t = scope.type_from_node(file, node);
        let limits = scope.limits_met(base);
        drop(scope);
        self.type_depth = saved_depth;
        self.defaults.resolving.remove(&key);
        if self.end_resolution(token, t) {
            self.keep_limits_met(Decided::Default(key), limits);
            self.defaults.resolved.insert(key, t);
        }
        ParamDefault::Type(t)
    }

    /// Whether a default is being resolved: the alias references in it resolve their
    /// arguments with them, as inside an alias being resolved.
    pub(super) fn resolving_default(&self) -> bool {
        !self.defaults.resolving.is_empty()
    }

    /// The node of the default of `s`'s `i`th type parameter, in the first declaration
    /// that gives one.
    fn default_node(&self, s: SymbolId, i: usize) -> Option<(u32, &'a TsType)> {
        self.bound.symbol(s).decls.iter().find_map(|(file, d)| {
            let p = crate::check::symbols::declared::declared_type_params(d)?
                .params
                .get(i)?;
            p.default.as_deref().map(|t| (*file, t))
        })
    }
}
