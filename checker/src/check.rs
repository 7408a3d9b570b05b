//! Checking: one checker's types, relation cache, links and diagnostics.
//!
//! A [`Checker`] checks the files given to it, one after another. It resolves declared
//! types lazily, as TypeScript does, so a checker builds the global (lib) types its files
//! touch, in its own table. Diagnostics are reported only by the walk over the file being
//! checked ("the main walk"); lazy inference of declarations elsewhere never reports, so
//! **the diagnostics of a file do not depend on which checker checked it, or on what that
//! checker checked before**.
//!
//! This module holds the checker's state, its symbol and node links, construction, counts
//! and reports; each concern is one `impl Checker` block in a file of a layer folder of
//! `check/`: `walk/` (the main walk: statements, declarations, expressions, calls),
//! `flow/`, `symbols/` and `types/` (members, properties, instantiation, relations, ...),
//! as checker/README.md lists them. Nothing below the walk calls it but through
//! [`Checker::check_expr`]: the walk's other items are private to it.
mod flow;
mod symbols;
mod types;
mod walk;

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{DeclRef as BDecl, Scope, SymbolId, flags};
use crate::diag::{Code, Diagnostic};
use crate::parse::ParsedFile;
use crate::types::{ObjectType, Signature, TypeId, TypeTable};
use flow::narrow;
use symbols::defaults;
use symbols::resolution::{NO_LEAN, Pending, Resolution};
use types::{limits, outer, this, variance};

/// Deepest expression, statement or type nesting the checker walks.
pub const MAX_DEPTH: u32 = 3_000;

/// What a checker remembers about a symbol (TypeScript's "symbol links").
#[derive(Default)]
#[allow(dead_code)]
struct SymbolLinks {
    write_type: Option<TypeId>,
    name_type: Option<TypeId>,
    check_flags: u32,
    referenced: bool,
    value_type: Option<TypeId>,
    declared_type: Option<TypeId>,
    type_params: Option<Rc<[TypeId]>>,
    alias_target: Option<Option<SymbolId>>,
    resolving_declared: bool,
    circular: bool,
}

/// What a checker remembers about a node it checked (TypeScript's "node links"). The
/// field set follows TypeScript's, so a checker's memory per node is a real checker's;
/// like there, most fields of most nodes stay empty.
#[allow(dead_code)]
struct NodeLinks {
    flags: u32,
    resolved_type: TypeId,
    resolved_symbol: Option<SymbolId>,
    resolved_signature: Option<Rc<Signature>>,
    effects_signature: Option<Rc<Signature>>,
    contextual_type: Option<TypeId>,
    context_free_type: Option<TypeId>,
    enum_member_value: Option<f64>,
    outer_type_parameters: Option<Box<[TypeId]>>,
    switch_types: Option<Box<[TypeId]>>,
    deferred_nodes: Option<Box<[u32]>>,
}

impl NodeLinks {
    fn new(flags: u32, resolved_type: TypeId) -> Box<Self> {
        Box::new(NodeLinks {
            flags,
            resolved_type,
            resolved_symbol: None,
            resolved_signature: None,
            effects_signature: None,
            contextual_type: None,
            context_free_type: None,
            enum_member_value: None,
            outer_type_parameters: None,
            switch_types: None,
            deferred_nodes: None,
        })
    }
}

/// Well-known global symbols a checker needs for apparent types.
#[derive(Default, Clone, Copy)]
struct Globals {
    array: Option<SymbolId>,
    promise: Option<SymbolId>,
    string: Option<SymbolId>,
    number: Option<SymbolId>,
    boolean: Option<SymbolId>,
    function: Option<SymbolId>,
    object: Option<SymbolId>,
    regexp: Option<SymbolId>,
    bigint: Option<SymbolId>,
    symbol: Option<SymbolId>,
}

/// Counts one checker reports.
#[derive(Default, Clone, Copy, Debug)]
pub struct CheckerCounts {
    pub types: u64,
    pub relations: u64,
}

pub struct Checker<'a, 'b> {
    files: &'a [ParsedFile],
    bound: Scope<'a, 'b>,
    pub types: TypeTable,
    relations: FxHashMap<(TypeId, TypeId), bool>,
    sym_links: FxHashMap<SymbolId, Box<SymbolLinks>>,
    /// The type parameters of the later declarations of a merged generic interface, each
    /// to the first declaration's parameter at the same position (they are one parameter).
    merged_type_params: FxHashMap<SymbolId, SymbolId>,
    node_links: FxHashMap<u64, Box<NodeLinks>>,
    /// The signature each call resolved to (TypeScript's `resolvedSignature`).
    resolved_signatures: FxHashMap<u64, Rc<Signature>>,
    members_cache: FxHashMap<TypeId, Rc<ObjectType>>,
    resolving_members: FxHashSet<TypeId>,
    /// Polymorphic `this` types: parameters, declared members, `this`-instantiations.
    this: this::ThisTypes,
    /// Anonymous object types with outer type parameters and their instantiations.
    outer_types: outer::OuterTypes,
    inst_cache: FxHashMap<(TypeId, u64), TypeId>,
    type_nodes: FxHashMap<(u32, u32, u32), TypeId>,
    constraints: FxHashMap<SymbolId, TypeId>,
    return_types: FxHashMap<u64, TypeId>,
    /// Resolutions in progress, outermost first (TypeScript's `resolutionTargets`).
    resolutions: Vec<Pending>,
    /// Where each resolution in progress is in [`Self::resolutions`].
    resolving: FxHashMap<Resolution, usize>,
    /// The lowest index in [`Self::resolutions`] whose placeholder what is being computed
    /// has met ([`NO_LEAN`] for none). A result that leaned on a placeholder depends on
    /// where the cycle was entered, so on query order: it is never cached for good, only
    /// provisionally (in [`Self::provisional`]) until that resolution completes.
    lean: usize,
    /// Results computed while leaning on a placeholder, with the index they leaned on.
    provisional: FxHashMap<Resolution, (TypeId, usize)>,
    /// Type parameters' defaults, resolved and being resolved (`check/symbols/defaults.rs`).
    defaults: defaults::Defaults,
    /// Aliases being resolved, with the `deferred` count when each started.
    alias_stack: Vec<(SymbolId, u32)>,
    /// How many deferred positions (type arguments, array elements, members) the type
    /// resolver is inside: an alias met again there is recursive, not circular.
    deferred: u32,
    globals: Globals,
    current_file: u32,
    suppress: u32,
    depth: u32,
    type_depth: u32,
    inst_depth: u32,
    /// Set when an instantiation hit a limit or a conditional type was resolved by a
    /// relation that leaned on an assumption: such results are not cached (but by the
    /// declaration caches, with the limits met, see `check/symbols/scope.rs`), so caches never
    /// depend on the order in which types were asked for. Like [`Self::lean`] and
    /// [`Self::assumed`], cleared and handed on by `check/symbols/scope.rs`'s `CacheScope`.
    inst_taint: bool,
    /// Inside a const context (the operand of `as const`, and the literals, parentheses
    /// and conditionals nested in it): literals keep their types, arrays are tuples.
    const_context: bool,
    /// Inside inference for a conditional type's `infer` parameters (generic source
    /// signatures are erased, the last overload is used, as TypeScript does).
    cond_infer: u32,
    /// The constraint of each deferred conditional type (what it relates as a source).
    cond_constraints: FxHashMap<TypeId, TypeId>,
    /// The `infer` parameters of the extends clause being printed (written `infer X`).
    printing_infer: Vec<TypeId>,
    relating: FxHashSet<(TypeId, TypeId)>,
    /// Set when a relation in progress was assumed related (see `check/types/relations.rs`).
    assumed: bool,
    this_types: Vec<TypeId>,
    returns: Vec<Option<TypeId>>,
    /// The depths of `returns` whose function is `async` (its `return`s are awaited).
    async_returns: Vec<usize>,
    diagnostics: Vec<Diagnostic>,
    /// Flow narrowing's caches and per-walk state (`check/flow/narrow.rs`).
    narrowing: narrow::FlowCaches,
    /// Verdicts of type argument constraint checks, by [`ConstraintKey`]: the first argument
    /// that does not satisfy its constraint, with the instantiated constraint.
    constraint_checks: FxHashMap<ConstraintKey, Option<(usize, TypeId)>>,
    /// How many conditional types the type node walk is inside (where TypeScript narrows
    /// the checked type in the true branch, which this checker does not model).
    in_conditional: u32,
    /// Measured variances of generic types (`check/types/variance.rs`).
    variance: variance::Variances,
    /// Generic signatures being related after instantiation in a target's context
    /// (`check/types/sigrel.rs`), nested in one another.
    sig_contexts: u32,
    /// TypeScript's limits on instantiation and relation work (`check/types/limits.rs`).
    limits: limits::Limits,
}

/// A constraint check: the declaration's first type parameter, how many arguments were
/// written, which generic arguments and constraints are decided, and the arguments
/// (defaults filled in).
type ConstraintKey = (TypeId, u32, u8, Box<[TypeId]>);

/// `NodeLinks::flags` of a type annotation node, an expression, a statement.
const TYPE_NODE: u32 = 1 << 31;
const EXPRESSION_NODE: u32 = 1 << 30;
const STATEMENT_NODE: u32 = 1 << 29;
/// Keeps statement links apart from expression links at the same position.
const STATEMENT_KEY: u64 = 1 << 62;
/// Keeps type-node links apart from expression links at the same position.
const TYPE_NODE_KEY: u64 = 1 << 63;

fn node_key(file: u32, lo: u32) -> u64 {
    ((file as u64) << 32) | lo as u64
}

impl<'a, 'b> Checker<'a, 'b> {
    pub fn new(files: &'a [ParsedFile], bound: Scope<'a, 'b>) -> Self {
        let mut c = Checker {
            files,
            bound,
            types: TypeTable::new(),
            relations: FxHashMap::default(),
            sym_links: FxHashMap::default(),
            merged_type_params: FxHashMap::default(),
            node_links: FxHashMap::default(),
            resolved_signatures: FxHashMap::default(),
            members_cache: FxHashMap::default(),
            resolving_members: FxHashSet::default(),
            this: this::ThisTypes::default(),
            outer_types: outer::OuterTypes::default(),
            inst_cache: FxHashMap::default(),
            type_nodes: FxHashMap::default(),
            constraints: FxHashMap::default(),
            return_types: FxHashMap::default(),
            resolutions: Vec::new(),
            resolving: FxHashMap::default(),
            lean: NO_LEAN,
            provisional: FxHashMap::default(),
            defaults: Default::default(),
            alias_stack: Vec::new(),
            deferred: 0,
            globals: Globals::default(),
            current_file: u32::MAX,
            suppress: 0,
            depth: 0,
            type_depth: 0,
            inst_depth: 0,
            inst_taint: false,
            const_context: false,
            cond_infer: 0,
            cond_constraints: FxHashMap::default(),
            printing_infer: Vec::new(),
            relating: FxHashSet::default(),
            assumed: false,
            this_types: Vec::new(),
            returns: Vec::new(),
            async_returns: Vec::new(),
            diagnostics: Vec::new(),
            narrowing: narrow::FlowCaches::default(),
            constraint_checks: FxHashMap::default(),
            in_conditional: 0,
            variance: Default::default(),
            sig_contexts: 0,
            limits: Default::default(),
        };
        let g = |name: &str| bound.globals.get(&Atom::from(name)).copied();
        c.globals = Globals {
            array: g("Array"),
            promise: g("Promise"),
            string: g("String"),
            number: g("Number"),
            boolean: g("Boolean"),
            function: g("Function"),
            object: g("Object"),
            regexp: g("RegExp"),
            bigint: g("BigInt"),
            symbol: g("Symbol"),
        };
        c.merge_interface_type_params();
        // Like a real checker, build the global types every program needs up front.
        for s in [
            c.globals.array,
            c.globals.promise,
            c.globals.string,
            c.globals.number,
            c.globals.boolean,
            c.globals.function,
            c.globals.object,
            c.globals.regexp,
        ]
        .into_iter()
        .flatten()
        {
            let t = c.declared_type(s);
            c.members(t);
        }
        c
    }

    /// Fills [`Self::merged_type_params`]: `interface Array<T>` declared in several files
    /// has one `T`, the first declaration's.
    fn merge_interface_type_params(&mut self) {
        let scope = self.bound;
        let tables =
            std::iter::once(scope.global_symbols).chain(scope.files.iter().map(|f| &f.symbols[..]));
        for table in tables {
            for sym in table {
                if sym.flags & flags::INTERFACE == 0 || sym.decls.len() < 2 {
                    continue;
                }
                let mut first: Option<Vec<Option<SymbolId>>> = None;
                for (file, d) in &sym.decls {
                    let BDecl::Interface(i) = d else { continue };
                    let Some(tp) = &i.type_params else { continue };
                    let ids: Vec<Option<SymbolId>> = tp
                        .params
                        .iter()
                        .map(|p| {
                            scope.files[*file as usize]
                                .node_symbols
                                .get(&p.name.span.lo.0)
                                .copied()
                        })
                        .collect();
                    match &first {
                        None => first = Some(ids),
                        Some(canonical) => {
                            for (own, to) in ids.iter().zip(canonical) {
                                if let (Some(own), Some(to)) = (own, to)
                                    && own != to
                                {
                                    self.merged_type_params.insert(*own, *to);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    pub fn counts(&self) -> CheckerCounts {
        CheckerCounts {
            types: self.types.len() as u64,
            relations: (self.relations.len() + self.variance.relations.len()) as u64,
        }
    }

    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Whether a diagnostic in `file` is reported now: only by the main walk over it.
    fn reports_in(&self, file: u32) -> bool {
        self.suppress == 0 && file == self.current_file
    }

    fn report(&mut self, file: u32, pos: u32, code: Code, message: String) {
        if self.reports_in(file) {
            let d = self.files[file as usize].diagnostic(swc_common::BytePos(pos), code, message);
            self.diagnostics.push(d);
        }
    }

    fn links(&mut self, s: SymbolId) -> &mut SymbolLinks {
        self.sym_links.entry(s).or_default()
    }

    /// A printable summary of what the file's top-level declarations are, for the digest.
    pub fn file_summary(&mut self, file: u32) -> String {
        let mut names: Vec<(Atom, SymbolId)> = self.bound.files[file as usize]
            .exports
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        names.sort();
        let mut out = String::new();
        for (name, s) in names.into_iter().take(64) {
            let target = self.resolve_alias(s);
            let f = self.bound.symbol(target).flags;
            out.push_str(&name);
            out.push_str(&format!(":{f:x};"));
        }
        out
    }
}

/// A type node's identity: file and span (`A` and `A[]` start at the same position).
fn ts_type_key(file: u32, t: &TsType) -> (u32, u32, u32) {
    use swc_common::Spanned;
    let span = t.span();
    (file, span.lo.0, span.hi.0)
}
