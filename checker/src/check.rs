//! Checking: one checker's types, relation cache, links and diagnostics.
//!
//! A [`Checker`] checks the files given to it, one after another. It resolves declared
//! types lazily, as TypeScript does, so a checker builds the global (lib) types its files
//! touch, in its own table. Diagnostics are reported only by the walk over the file being
//! checked ("the main walk"); lazy inference of declarations elsewhere never reports, so
//! **the diagnostics of a file do not depend on which checker checked it, or on what that
//! checker checked before**.
mod calls;
mod excess;
mod limits;
mod narrow;
mod outer;
mod sigrel;
mod spread;
mod this;
mod variance;

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{
    self, DeclRef as BDecl, Imported, MemberDecl, PatSource, Scope, SymbolId, flags,
};
use crate::diag::{Code, Diagnostic};
use crate::flow::FlowId;
use crate::parse::ParsedFile;
use crate::types::{
    ConditionalRoot, ConditionalType, LITERAL_MEMBER, MappedRoot, MappedType, Mapper, ObjectType,
    Param, Prop as PropT, PropSymbol, Signature, TypeId, TypeKind, TypeTable, UNRESOLVED, ids,
    tflags,
};

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

/// A lazily computed result that a cycle can meet again while it is being computed:
/// meeting it gives a placeholder (`any`), as TypeScript does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Resolution {
    /// The type of a symbol in a value position.
    Value(SymbolId),
    /// The return type inferred from a function body (by node key).
    Return(u64),
    /// The measured variances of a generic type's parameters (`check/variance.rs`).
    Variance(SymbolId),
}

/// A [`Resolution`] in progress, and the provisional results that leaned on its
/// placeholder (forgotten when it completes).
struct Pending {
    what: Resolution,
    provisional: Vec<Resolution>,
}

/// No in-progress placeholder was met: what was computed may be cached.
const NO_LEAN: usize = usize::MAX;

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
    /// Set when an instantiation hit the depth limit or a conditional type was resolved by
    /// a relation that leaned on an assumption: such results are not cached, so caches never
    /// depend on the order in which types were asked for.
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
    assumed: bool,
    this_types: Vec<TypeId>,
    returns: Vec<Option<TypeId>>,
    /// The depths of `returns` whose function is `async` (its `return`s are awaited).
    async_returns: Vec<usize>,
    diagnostics: Vec<Diagnostic>,
    /// Narrowed types of references at flow joins, by file, flow node and symbol
    /// (TypeScript's `flowTypeCache`).
    flow_types: FxHashMap<(u32, FlowId, SymbolId, u64), TypeId>,
    /// Whether each join is reachable (TypeScript's `flowNodeReachable`).
    flow_reachable: FxHashMap<(u32, FlowId), bool>,
    /// Joins whose flow type is being computed, with the union of their antecedents so far
    /// (what a loop head met again through a back edge is taken to be).
    flow_in_progress: FxHashMap<(u32, FlowId, SymbolId, u64), TypeId>,
    /// Back edges met so far; a join computed while one was met is not cached.
    flow_partial: u32,
    /// Flow nodes the current reference's walk has visited.
    flow_steps: u32,
    /// Verdicts of type argument constraint checks, by [`ConstraintKey`]: the first argument
    /// that does not satisfy its constraint, with the instantiated constraint.
    constraint_checks: FxHashMap<ConstraintKey, Option<(usize, TypeId)>>,
    /// How many conditional types the type node walk is inside (where TypeScript narrows
    /// the checked type in the true branch, which this checker does not model).
    in_conditional: u32,
    /// Measured variances of generic types (`check/variance.rs`).
    variance: variance::Variances,
    /// Generic signatures being related after instantiation in a target's context
    /// (`check/sigrel.rs`), nested in one another.
    sig_contexts: u32,
    /// TypeScript's limits on instantiation and relation work (`check/limits.rs`).
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
            flow_types: FxHashMap::default(),
            flow_reachable: FxHashMap::default(),
            flow_in_progress: FxHashMap::default(),
            flow_partial: 0,
            flow_steps: 0,
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

    fn report(&mut self, file: u32, pos: u32, code: Code, message: String) {
        if self.suppress == 0 && file == self.current_file {
            let d = self.files[file as usize].diagnostic(swc_common::BytePos(pos), code, message);
            self.diagnostics.push(d);
        }
    }

    fn links(&mut self, s: SymbolId) -> &mut SymbolLinks {
        self.sym_links.entry(s).or_default()
    }

    // ------------------------------------------------------------------ resolutions

    /// Starts computing `what`. `None` when it is already in progress (a cycle): the caller
    /// gives its placeholder, and whatever leans on that is not cached for good.
    fn begin_resolution(&mut self, what: Resolution) -> Option<(usize, usize)> {
        if let Some(&at) = self.resolving.get(&what) {
            self.lean = self.lean.min(at);
            return None;
        }
        let at = self.resolutions.len();
        self.resolutions.push(Pending {
            what,
            provisional: Vec::new(),
        });
        self.resolving.insert(what, at);
        Some((at, std::mem::replace(&mut self.lean, NO_LEAN)))
    }

    /// Completes the resolution `begin_resolution` started, with result `t`. Returns
    /// whether `t` may be cached for good: it leaned on no placeholder, or only on its own
    /// (it is where the cycle was entered). Otherwise `t` is kept provisionally, for as long
    /// as the resolution it leaned on is in progress.
    fn end_resolution(&mut self, (at, outer): (usize, usize), t: TypeId) -> bool {
        let pending = self.resolutions.pop().expect("a resolution in progress");
        debug_assert_eq!(self.resolutions.len(), at);
        self.resolving.remove(&pending.what);
        for p in pending.provisional {
            self.provisional.remove(&p);
        }
        let lean = self.lean;
        if lean >= at {
            self.lean = outer;
            true
        } else {
            self.keep_provisionally(pending.what, t, lean);
            self.lean = outer.min(lean);
            false
        }
    }

    /// Remembers `t` for `what` until the resolution at `lean` completes.
    fn keep_provisionally(&mut self, what: Resolution, t: TypeId, lean: usize) {
        self.provisional.insert(what, (t, lean));
        self.resolutions[lean].provisional.push(what);
    }

    /// A provisional result for `what`; using it leans on what it leaned on.
    fn provisional_type(&mut self, what: Resolution) -> Option<TypeId> {
        let &(t, lean) = self.provisional.get(&what)?;
        self.lean = self.lean.min(lean);
        Some(t)
    }

    /// Starts a computation whose result a cache keeps (by type, node or symbol).
    fn begin_cached(&mut self) -> usize {
        std::mem::replace(&mut self.lean, NO_LEAN)
    }

    /// Ends what `begin_cached` started; whether its result may be cached (it leaned on no
    /// placeholder of a resolution still in progress).
    fn end_cached(&mut self, outer: usize) -> bool {
        let clean = self.lean == NO_LEAN;
        self.lean = self.lean.min(outer);
        clean
    }

    /// The value type a symbol has been given (by inference or by a contextual
    /// signature), cached or provisional.
    fn known_value_type(&mut self, s: SymbolId) -> Option<TypeId> {
        if let Some(t) = self.sym_links.get(&s).and_then(|l| l.value_type) {
            return Some(t);
        }
        self.provisional_type(Resolution::Value(s))
    }

    // ------------------------------------------------------------------ files

    /// Checks one file: every statement, declaration and expression in it.
    pub fn check_file(&mut self, file: u32) {
        self.current_file = file;
        let f = &self.files[file as usize];
        let Some(program) = &f.program else { return };
        let unresolved = self.bound.files[file as usize].unresolved_imports.clone();
        for (pos, spec) in unresolved {
            self.report(
                file,
                pos,
                Code::CannotFindModule,
                format!("Cannot find module '{spec}' or its corresponding type declarations."),
            );
        }
        match program {
            Program::Module(m) => {
                for item in &m.body {
                    match item {
                        ModuleItem::Stmt(s) => self.check_stmt(file, s),
                        ModuleItem::ModuleDecl(d) => self.check_module_decl(file, d),
                    }
                }
            }
            Program::Script(s) => {
                for stmt in &s.body {
                    self.check_stmt(file, stmt);
                }
            }
        }
        self.current_file = u32::MAX;
    }

    fn check_module_decl(&mut self, file: u32, d: &'a ModuleDecl) {
        match d {
            ModuleDecl::ExportDecl(e) => self.check_decl(file, &e.decl),
            ModuleDecl::ExportDefaultDecl(e) => match &e.decl {
                DefaultDecl::Class(c) => self.check_class(
                    file,
                    &c.class,
                    c.ident.as_ref().map_or(e.span.lo.0, |i| i.span.lo.0),
                ),
                DefaultDecl::Fn(f) => {
                    self.check_function(file, &f.function, None);
                }
                DefaultDecl::TsInterfaceDecl(i) => self.check_interface(file, i),
            },
            ModuleDecl::ExportDefaultExpr(e) => {
                self.check_expr(file, &e.expr, None);
            }
            ModuleDecl::TsExportAssignment(e) => {
                self.check_expr(file, &e.expr, None);
            }
            ModuleDecl::Import(i) => {
                let Some(&module) = self.bound.files[file as usize]
                    .import_modules
                    .get(&i.src.span.lo.0)
                else {
                    return;
                };
                for s in &i.specifiers {
                    if let ImportSpecifier::Named(n) = s {
                        let name = match &n.imported {
                            Some(ModuleExportName::Ident(id)) => id.sym.clone(),
                            Some(ModuleExportName::Str(s)) => bind::str_atom(s),
                            None => n.local.sym.clone(),
                        };
                        if self.resolve_export(module, &name, 0).is_none() {
                            let spec = bind::str_atom(&i.src);
                            self.report(
                                file,
                                n.span.lo.0,
                                Code::NoExportedMember,
                                format!("Module '\"{spec}\"' has no exported member '{name}'."),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------------ statements

    fn check_stmts(&mut self, file: u32, stmts: &'a [Stmt]) {
        for s in stmts {
            self.check_stmt(file, s);
        }
    }

    fn check_stmt(&mut self, file: u32, stmt: &'a Stmt) {
        let entered = self.enter_node(file, stmt_lo(stmt));
        self.check_stmt_here(file, stmt);
        self.leave_node(entered);
    }

    fn check_stmt_here(&mut self, file: u32, stmt: &'a Stmt) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep(file, stmt_lo(stmt));
            self.depth -= 1;
            return;
        }
        match stmt {
            Stmt::Block(b) => self.check_stmts(file, &b.stmts),
            Stmt::Expr(e) => {
                self.check_expr(file, &e.expr, None);
            }
            Stmt::Return(r) => {
                let expected = self.returns.last().copied().flatten();
                if let Some(arg) = &r.arg {
                    let t = self.check_expr(file, arg, expected);
                    let t = self.returned_type(t);
                    if let Some(expected) = expected
                        && !self.is_assignable(t, expected)
                        && !self.report_excess(file, arg, expected)
                    {
                        let msg = self.not_assignable(t, expected);
                        self.report(file, r.span.lo.0, Code::NotAssignable, msg);
                    }
                }
            }
            Stmt::Throw(t) => {
                self.check_expr(file, &t.arg, None);
            }
            Stmt::If(i) => {
                self.check_expr(file, &i.test, None);
                self.check_stmt(file, &i.cons);
                if let Some(a) = &i.alt {
                    self.check_stmt(file, a);
                }
            }
            Stmt::While(w) => {
                self.check_expr(file, &w.test, None);
                self.check_stmt(file, &w.body);
            }
            Stmt::DoWhile(w) => {
                self.check_stmt(file, &w.body);
                self.check_expr(file, &w.test, None);
            }
            Stmt::For(f) => {
                match &f.init {
                    Some(VarDeclOrExpr::VarDecl(v)) => self.check_var_decl(file, v),
                    Some(VarDeclOrExpr::Expr(e)) => {
                        self.check_expr(file, e, None);
                    }
                    None => {}
                }
                if let Some(t) = &f.test {
                    self.check_expr(file, t, None);
                }
                if let Some(u) = &f.update {
                    self.check_expr(file, u, None);
                }
                self.check_stmt(file, &f.body);
            }
            Stmt::ForIn(f) => {
                self.check_for_head(file, &f.left);
                self.check_expr(file, &f.right, None);
                self.check_stmt(file, &f.body);
            }
            Stmt::ForOf(f) => {
                self.check_for_head(file, &f.left);
                self.check_expr(file, &f.right, None);
                self.check_stmt(file, &f.body);
            }
            Stmt::Switch(s) => {
                self.check_expr(file, &s.discriminant, None);
                for c in &s.cases {
                    if let Some(t) = &c.test {
                        self.check_expr(file, t, None);
                    }
                    self.check_stmts(file, &c.cons);
                }
            }
            Stmt::Try(t) => {
                self.check_stmts(file, &t.block.stmts);
                if let Some(h) = &t.handler {
                    self.check_stmts(file, &h.body.stmts);
                }
                if let Some(f) = &t.finalizer {
                    self.check_stmts(file, &f.stmts);
                }
            }
            Stmt::Labeled(l) => self.check_stmt(file, &l.body),
            Stmt::With(w) => {
                self.check_expr(file, &w.obj, None);
                self.check_stmt(file, &w.body);
            }
            Stmt::Decl(d) => self.check_decl(file, d),
            Stmt::Empty(_) | Stmt::Debugger(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
        }
        self.depth -= 1;
        self.node_links.insert(
            node_key(file, stmt_lo(stmt)) | STATEMENT_KEY,
            NodeLinks::new(STATEMENT_NODE, ids::VOID),
        );
    }

    fn too_deep(&mut self, file: u32, pos: u32) {
        self.report(
            file,
            pos,
            Code::TooDeep,
            format!(
                "Nesting deeper than {MAX_DEPTH} levels; the rest of this node is not checked."
            ),
        );
    }

    fn check_for_head(&mut self, file: u32, head: &'a ForHead) {
        if let ForHead::VarDecl(v) = head {
            for d in &v.decls {
                self.check_pat_annotations(file, &d.name);
            }
        }
    }

    fn check_decl(&mut self, file: u32, d: &'a Decl) {
        match d {
            Decl::Var(v) => self.check_var_decl(file, v),
            Decl::Using(u) => {
                for d in &u.decls {
                    if let Some(init) = &d.init {
                        self.check_expr(file, init, None);
                    }
                }
            }
            Decl::Fn(f) => {
                self.check_function(file, &f.function, None);
            }
            Decl::Class(c) => self.check_class(file, &c.class, c.ident.span.lo.0),
            Decl::TsInterface(i) => self.check_interface(file, i),
            Decl::TsTypeAlias(a) => {
                self.check_type_params(file, a.type_params.as_deref());
                self.check_type_node(file, &a.type_ann);
                if let Some(s) = self.bound.files[file as usize]
                    .node_symbols
                    .get(&a.id.span.lo.0)
                    .copied()
                {
                    self.declared_type(s);
                    if self.links(s).circular {
                        self.report(
                            file,
                            a.id.span.lo.0,
                            Code::CircularAlias,
                            format!("Type alias '{}' circularly references itself.", a.id.sym),
                        );
                    }
                }
            }
            Decl::TsEnum(e) => {
                for m in &e.members {
                    if let Some(init) = &m.init {
                        self.check_expr(file, init, None);
                    }
                }
            }
            Decl::TsModule(m) => {
                let mut body = m.body.as_ref();
                while let Some(TsNamespaceBody::TsNamespaceDecl(inner)) = body {
                    body = Some(&inner.body);
                }
                if let Some(TsNamespaceBody::TsModuleBlock(b)) = body
                    && !matches!(m.id, TsModuleName::Str(_))
                {
                    for item in &b.body {
                        match item {
                            ModuleItem::Stmt(s) => self.check_stmt(file, s),
                            ModuleItem::ModuleDecl(d) => self.check_module_decl(file, d),
                        }
                    }
                }
            }
        }
    }

    fn check_var_decl(&mut self, file: u32, v: &'a VarDecl) {
        for d in &v.decls {
            self.check_pat_annotations(file, &d.name);
            let declared = match &d.name {
                Pat::Ident(b) => b
                    .type_ann
                    .as_ref()
                    .map(|a| self.type_from_node(file, &a.type_ann)),
                _ => None,
            };
            if let Some(init) = &d.init {
                let t = self.check_expr(file, init, declared);
                if let (Some(declared), Pat::Ident(b)) = (declared, &d.name)
                    && !self.is_assignable(t, declared)
                    && !self.report_excess(file, init, declared)
                {
                    let msg = self.not_assignable(t, declared);
                    self.report(file, b.id.span.lo.0, Code::NotAssignable, msg);
                }
            }
            if let Pat::Ident(b) = &d.name
                && let Some(s) = self.bound.files[file as usize]
                    .node_symbols
                    .get(&b.id.span.lo.0)
                    .copied()
            {
                self.type_of_symbol(s);
            }
        }
    }

    fn check_pat_annotations(&mut self, file: u32, p: &'a Pat) {
        let annotation = match p {
            Pat::Ident(b) => &b.type_ann,
            Pat::Array(a) => &a.type_ann,
            Pat::Object(o) => &o.type_ann,
            Pat::Rest(r) => &r.type_ann,
            Pat::Assign(a) => {
                self.check_pat_annotations(file, &a.left);
                self.check_expr(file, &a.right, None);
                return;
            }
            _ => return,
        };
        if let Some(a) = annotation {
            self.check_type_node(file, &a.type_ann);
        }
    }

    fn check_type_params(&mut self, file: u32, tp: Option<&'a TsTypeParamDecl>) {
        if let Some(tp) = tp {
            for p in &tp.params {
                if let Some(c) = &p.constraint {
                    self.check_type_node(file, c);
                }
                if let Some(d) = &p.default {
                    self.check_type_node(file, d);
                }
            }
        }
    }

    /// Checks a function's annotations and body; `this_type` for methods.
    fn check_function(
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

    /// The `this` a function body sees: its class's instance for methods, else `any`.
    fn this_of_function(&mut self, file: u32, lo: u32) -> TypeId {
        match self.bound.files[file as usize]
            .this_owners
            .get(&lo)
            .copied()
        {
            Some(owner) => self.this_expr_type(owner),
            None => ids::ANY,
        }
    }

    fn check_function_body(
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

    fn contextual_param(
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

    fn check_class(&mut self, file: u32, c: &'a Class, name_pos: u32) {
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

    fn this_instance(&mut self, declared: TypeId) -> TypeId {
        if let TypeKind::Declared(s) = self.types.kind(declared).clone() {
            let params = self.type_params_of(s);
            if !params.is_empty() {
                return self.types.reference(s, params.iter().copied().collect());
            }
        }
        declared
    }

    fn check_prop_init(
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
            if let Some(d) = declared
                && !self.is_assignable(t, d)
                && !self.report_excess(file, v, d)
            {
                let msg = self.not_assignable(t, d);
                self.report(file, pos, Code::NotAssignable, msg);
            }
        }
    }

    fn check_interface(&mut self, file: u32, i: &'a TsInterfaceDecl) {
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

    fn check_heritage_node(&mut self, file: u32, e: &'a TsExprWithTypeArgs) {
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

    fn check_type_element(&mut self, file: u32, m: &'a TsTypeElement) {
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

    /// Whether following the bases of `sym` leads back to it.
    fn base_cycle(&mut self, sym: SymbolId) -> bool {
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

    fn base_symbols(&mut self, sym: SymbolId) -> Vec<SymbolId> {
        let mut out = Vec::new();
        let decls = self.bound.symbol(sym).decls.clone();
        for (file, d) in decls {
            let heritage: Vec<Expr> = match d {
                BDecl::Class(c) => c.super_class.iter().map(|e| (**e).clone()).collect(),
                BDecl::Interface(i) => i.extends.iter().map(|e| (*e.expr).clone()).collect(),
                _ => continue,
            };
            for e in heritage {
                if let Some(entity) = expr_entity(&e)
                    && let Some(s) = self.resolve_entity(file, &entity)
                {
                    out.push(self.resolve_alias(s));
                }
            }
        }
        out
    }

    // ------------------------------------------------------------------ type nodes

    /// Reports unknown names and wrong type argument counts in a type annotation.
    fn check_type_node(&mut self, file: u32, t: &'a TsType) {
        let entered = self.enter_node(file, ts_type_lo(t));
        self.check_type_node_here(file, t);
        self.leave_node(entered);
    }

    fn check_type_node_here(&mut self, file: u32, t: &'a TsType) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep(file, ts_type_lo(t));
            self.depth -= 1;
            return;
        }
        // Like TypeScript's checkSourceElement on a type node: resolve it (cached, with
        // its links), then look for unknown names and wrong argument counts.
        self.type_from_node(file, t);
        match t {
            TsType::TsTypeRef(r) => {
                let entity = entity_of(&r.type_name);
                self.check_entity(file, &entity, r.type_params.as_deref(), r.span.lo.0);
                if let Some(args) = &r.type_params {
                    for a in &args.params {
                        self.check_type_node(file, a);
                    }
                }
                self.check_reference_constraints(file, &entity, r.type_params.as_deref(), false);
            }
            TsType::TsFnOrConstructorType(f) => {
                let (tp, params, ann) = match f {
                    TsFnOrConstructorType::TsFnType(f) => {
                        (f.type_params.as_deref(), &f.params, &f.type_ann)
                    }
                    TsFnOrConstructorType::TsConstructorType(f) => {
                        (f.type_params.as_deref(), &f.params, &f.type_ann)
                    }
                };
                self.check_type_params(file, tp);
                for p in params {
                    if let Some(a) = fn_param_ann(p) {
                        self.check_type_node(file, &a.type_ann);
                    }
                }
                self.check_type_node(file, &ann.type_ann);
            }
            TsType::TsTypeLit(l) => {
                for m in &l.members {
                    self.check_type_element(file, m);
                }
            }
            TsType::TsArrayType(a) => self.check_type_node(file, &a.elem_type),
            TsType::TsTupleType(tt) => {
                for e in &tt.elem_types {
                    self.check_type_node(file, &e.ty);
                }
            }
            TsType::TsOptionalType(o) => self.check_type_node(file, &o.type_ann),
            TsType::TsRestType(r) => self.check_type_node(file, &r.type_ann),
            TsType::TsUnionOrIntersectionType(u) => {
                let types = match u {
                    TsUnionOrIntersectionType::TsUnionType(u) => &u.types,
                    TsUnionOrIntersectionType::TsIntersectionType(i) => &i.types,
                };
                for t in types {
                    self.check_type_node(file, t);
                }
            }
            TsType::TsConditionalType(c) => {
                self.in_conditional += 1;
                for t in [&c.check_type, &c.extends_type, &c.true_type, &c.false_type] {
                    self.check_type_node(file, t);
                }
                self.in_conditional -= 1;
            }
            TsType::TsParenthesizedType(p) => self.check_type_node(file, &p.type_ann),
            TsType::TsTypeOperator(o) => self.check_type_node(file, &o.type_ann),
            TsType::TsIndexedAccessType(i) => {
                self.check_type_node(file, &i.obj_type);
                self.check_type_node(file, &i.index_type);
                self.check_indexed_key(file, i);
            }
            TsType::TsMappedType(m) => {
                if let Some(c) = &m.type_param.constraint {
                    self.check_type_node(file, c);
                }
                if let Some(t) = &m.type_ann {
                    self.check_type_node(file, t);
                }
            }
            TsType::TsTypeQuery(q) => {
                // `typeof a.b.c`: only the first name must resolve here; the rest are
                // properties of its value's type.
                if let TsTypeQueryExpr::TsEntityName(e) = &q.expr_name {
                    let entity = entity_of(e);
                    if self.resolve_entity(file, &entity[..1]).is_none()
                        && entity[0].1.as_str() != "globalThis"
                    {
                        let (pos, name) = entity[0].clone();
                        self.report(
                            file,
                            pos,
                            Code::CannotFindName,
                            format!("Cannot find name '{name}'."),
                        );
                    }
                }
            }
            _ => {}
        }
        self.depth -= 1;
    }

    /// `T["name"]` names a property `T` has.
    fn check_indexed_key(&mut self, file: u32, i: &'a TsIndexedAccessType) {
        let TsType::TsLitType(TsLitType {
            lit: TsLit::Str(key),
            ..
        }) = &*i.index_type
        else {
            return;
        };
        let o = self.type_from_node(file, &i.obj_type);
        let is_object = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::Declared(_) | TypeKind::Object(_) | TypeKind::Reference(..)
            )
        };
        // An intersection of object types has a key when any of its members has it.
        let checkable = match self.types.kind(o) {
            TypeKind::Intersection(ms) => ms.iter().all(|&m| is_object(self.types.kind(m))),
            k => is_object(k),
        };
        if self.types.is_generic(o) || !checkable {
            return;
        }
        let name = bind::str_atom(key);
        if self.property_type(o, &name).is_none() {
            let shown = self.type_to_string(o);
            self.report(
                file,
                key.span.lo.0,
                Code::NoProperty,
                format!("Property '{name}' does not exist on type '{shown}'."),
            );
        }
    }

    fn check_entity(
        &mut self,
        file: u32,
        entity: &[(u32, Atom)],
        args: Option<&'a TsTypeParamInstantiation>,
        pos: u32,
    ) {
        let Some(s) = self.resolve_entity(file, entity) else {
            self.report_unresolved_entity(file, entity);
            return;
        };
        let s = self.resolve_alias(s);
        let sym = self.bound.symbol(s);
        if sym.flags & (flags::CLASS | flags::INTERFACE | flags::TYPE_ALIAS) == 0 {
            return;
        }
        let required = self.required_type_args(s);
        let params = self.type_params_of(s).len();
        let given = args.map_or(0, |a| a.params.len());
        if given > params || given < required {
            let name = self.type_display_name(s);
            let code = Code::TypeArgumentCount;
            let count = if required == params {
                format!("{params}")
            } else {
                format!("between {required} and {params}")
            };
            self.report(
                file,
                pos,
                code,
                format!("Generic type '{name}' requires {count} type argument(s)."),
            );
        }
    }

    /// Says which part of a qualified type name (`A.B.C`) does not resolve, as TypeScript
    /// does: an unknown first name of a qualified name is a namespace it cannot find
    /// (TS2503), a later one a member its namespace does not export (TS2694). Nothing is
    /// said past an import from a module outside the corpus: that module was reported
    /// once and everything reached through it is `any`.
    fn report_unresolved_entity(&mut self, file: u32, entity: &[(u32, Atom)]) {
        let (pos, name) = &entity[0];
        let Some(mut s) = self.bound.resolve(file, *pos, name) else {
            let (code, msg) = if entity.len() == 1 {
                (Code::CannotFindName, format!("Cannot find name '{name}'."))
            } else {
                let msg = format!("Cannot find namespace '{name}'.");
                (Code::CannotFindNamespace, msg)
            };
            self.report(file, *pos, code, msg);
            return;
        };
        for (i, (pos, part)) in entity.iter().enumerate().skip(1) {
            s = self.resolve_alias(s);
            if self.is_unresolved_import(s) {
                return;
            }
            match self.export_of_symbol(s, part) {
                Some(next) => s = next,
                None => {
                    let prefix: Vec<&str> = entity[..i].iter().map(|(_, n)| n.as_str()).collect();
                    let msg = format!(
                        "Namespace '{}' has no exported member '{part}'.",
                        prefix.join(".")
                    );
                    self.report(file, *pos, Code::NoExportedMemberOfNamespace, msg);
                    return;
                }
            }
        }
    }

    /// Whether `s` is an import from a module outside the corpus.
    fn is_unresolved_import(&self, s: SymbolId) -> bool {
        self.bound
            .symbol(s)
            .decls
            .iter()
            .any(|(_, d)| matches!(d, BDecl::Import { module: None, .. }))
    }

    fn type_display_name(&mut self, s: SymbolId) -> String {
        let params = self.type_params_of(s);
        let name = self.bound.symbol(s).name.to_string();
        if params.is_empty() {
            return name;
        }
        let names: Vec<String> = params.iter().map(|&p| self.type_to_string(p)).collect();
        format!("{name}<{}>", names.join(", "))
    }

    fn required_type_args(&mut self, s: SymbolId) -> usize {
        let mut required = 0;
        for (_, d) in &self.bound.symbol(s).decls {
            let tp = match d {
                BDecl::Class(c) => c.type_params.as_deref(),
                BDecl::Interface(i) => i.type_params.as_deref(),
                BDecl::Alias(a) => a.type_params.as_deref(),
                _ => None,
            };
            if let Some(tp) = tp {
                return tp.params.iter().filter(|p| p.default.is_none()).count();
            }
            required = 0;
        }
        required
    }

    /// The type of a literal type node (TypeScript's `getTypeFromLiteralTypeNode`): the
    /// literal is evaluated as an expression, which gives its fresh type, and the node
    /// denotes that type's regular type.
    fn literal_type_node(&mut self, l: &TsLitType) -> TypeId {
        let t = match &l.lit {
            TsLit::Str(s) => self.types.string_lit(&bind::str_atom(s)),
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
        ) || matches!(t, TsType::TsTypeRef(r) if r.type_params.is_some());
        self.deferred += defers as u32;
        let outer = self.begin_cached();
        let ty = if self.type_depth > MAX_DEPTH {
            ids::ERROR
        } else {
            self.type_from_node_uncached(file, t)
        };
        let clean = self.end_cached(outer);
        self.deferred -= defers as u32;
        self.type_depth -= 1;
        if clean && self.alias_stack.is_empty() && !matches!(t, TsType::TsThisType(_)) {
            self.type_nodes.insert(key, ty);
            let links = NodeLinks::new(TYPE_NODE, ty);
            self.node_links
                .insert(node_key(file, key.1) | TYPE_NODE_KEY, links);
        }
        ty
    }

    fn type_from_node_uncached(&mut self, file: u32, t: &'a TsType) -> TypeId {
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
                    .map(|e| self.type_from_node(file, &e.ty))
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
                    self.types.intersection(&ts)
                }
            },
            TsType::TsConditionalType(c) => {
                let check = self.type_from_node(file, &c.check_type);
                let extends = self.type_from_node(file, &c.extends_type);
                let true_type = self.type_from_node(file, &c.true_type);
                let false_type = self.type_from_node(file, &c.false_type);
                let mut infers = Vec::new();
                walk_ts_type(&c.extends_type, &mut |t| match t {
                    TsType::TsInferType(i) => {
                        infers.push(i.type_param.name.span.lo.0);
                        true
                    }
                    // A nested conditional type declares its own `infer` parameters.
                    TsType::TsConditionalType(_) => false,
                    _ => true,
                });
                let mut infer_params: Vec<TypeId> = Vec::new();
                for pos in infers {
                    if let Some(&s) = self.bound.files[file as usize].node_symbols.get(&pos) {
                        let tp = self.types.of_symbol(10, s);
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
                Some(&s) => self.types.of_symbol(10, s),
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
                let param = self.types.of_symbol(10, k);
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

    fn keyof(&mut self, t: TypeId) -> TypeId {
        if let TypeKind::Mapped(mt) = self.types.kind(t)
            && mt.root.name_type.is_none()
        {
            return mt.constraint;
        }
        if self.types.is_generic(t) {
            return self.types.keyof(t);
        }
        match self.types.kind(t).clone() {
            TypeKind::Any => return self.types.union(&[ids::STRING, ids::NUMBER, ids::SYMBOL]),
            TypeKind::Never => return ids::NEVER,
            // `keyof (A | B)` is `keyof A & keyof B`: the keys every member has (a member
            // with a string index signature takes any string key).
            TypeKind::Union(ms) => {
                let mut common: Option<Vec<TypeId>> = None;
                for m in ms.iter() {
                    let k = self.keyof(*m);
                    if k == ids::STRING {
                        continue;
                    }
                    let keys: Vec<TypeId> = match self.types.kind(k) {
                        TypeKind::Union(ks) => ks.to_vec(),
                        TypeKind::Never => Vec::new(),
                        _ => vec![k],
                    };
                    common = Some(match common {
                        None => keys,
                        Some(c) => c.into_iter().filter(|x| keys.contains(x)).collect(),
                    });
                }
                return match common {
                    None => ids::STRING,
                    Some(c) => self.types.union(&c),
                };
            }
            _ => {}
        }
        let m = self.members(t);
        if m.string_index.is_some() {
            return ids::STRING;
        }
        let names: Vec<Atom> = m.order.iter().take(512).cloned().collect();
        let lits: Vec<TypeId> = names.iter().map(|n| self.types.string_lit(n)).collect();
        self.types.union(&lits)
    }

    fn indexed_access(&mut self, o: TypeId, k: TypeId) -> TypeId {
        if self.types.is_generic(o) || self.types.is_generic(k) {
            return self.types.indexed(o, k);
        }
        match self.types.kind(k).clone() {
            TypeKind::StringLit(s) => self.property_type(o, &s).unwrap_or(ids::ERROR),
            TypeKind::NumberLit(n) => {
                if let TypeKind::Tuple(es) = self.types.kind(o) {
                    return es.get(n as usize).copied().unwrap_or(ids::UNDEFINED);
                }
                self.property_type(o, &Atom::from(bind::format_number(n)))
                    .unwrap_or_else(|| self.element_type(o))
            }
            TypeKind::Union(ks) => {
                let ts: Vec<TypeId> = ks.iter().map(|&k| self.indexed_access(o, k)).collect();
                self.types.union(&ts)
            }
            TypeKind::Number => self.element_type(o),
            _ => {
                let m = self.members(o);
                m.string_index.unwrap_or(ids::ANY)
            }
        }
    }

    // ------------------------------------------------------------------ conditional and mapped types

    /// `t` under `m`, or `t` itself without a mapper.
    fn inst_opt(&mut self, t: TypeId, m: Option<&Mapper>) -> TypeId {
        match m {
            Some(m) => self.instantiate(t, m),
            None => t,
        }
    }

    /// `base` with the pairs of `extra` added (replacing what `base` said of them).
    fn mapper_with(&self, base: Option<&Mapper>, extra: &[(TypeId, TypeId)]) -> Mapper {
        let mut params = Vec::new();
        let mut args = Vec::new();
        if let Some(b) = base {
            for &(p, a) in &b.pairs {
                if !extra.iter().any(|e| e.0 == p) {
                    params.push(p);
                    args.push(a);
                }
            }
        }
        for &(p, a) in extra {
            params.push(p);
            args.push(a);
        }
        Mapper::new(&self.types, &params, &args)
    }

    /// The mapper of a deferred type's instantiation: its own mapper, then `m`, restricted
    /// to the outer type parameters its declaration mentions (so equal instantiations share
    /// one type and one cache entry).
    fn compose_mapper(
        &mut self,
        outer: &[TypeId],
        own: Option<&Mapper>,
        m: &Mapper,
    ) -> Option<Rc<Mapper>> {
        let mut params = Vec::new();
        let mut args = Vec::new();
        for &p in outer {
            let base = own.and_then(|o| o.get(p)).unwrap_or(p);
            let a = self.instantiate(base, m);
            if a != p {
                params.push(p);
                args.push(a);
            }
        }
        if params.is_empty() {
            None
        } else {
            Some(Rc::new(Mapper::new(&self.types, &params, &args)))
        }
    }

    /// The type parameters declared outside type node `t` that it mentions.
    fn outer_params(&mut self, file: u32, t: &'a TsType) -> Box<[TypeId]> {
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
    fn type_param_declared_outside(
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
        Some(self.types.of_symbol(10, s))
    }

    /// Whether `s` is assignable to `t` for choosing a conditional type's branch; a result
    /// that leaned on an in-progress relation taints the instantiation that asked.
    fn assignable_for_condition(&mut self, s: TypeId, t: TypeId) -> bool {
        if self.measuring() {
            // A conditional type resolved while measuring: its instantiation is cached
            // with the ordinary relation, and the variance is unreliable.
            self.mark_unreliable();
            return self.outside_measurement(|c| c.assignable_for_condition(s, t));
        }
        let saved = std::mem::replace(&mut self.assumed, false);
        let r = self.is_assignable(s, t);
        if self.assumed {
            self.inst_taint = true;
        }
        self.assumed |= saved;
        r
    }

    /// A conditional type under `mapper`: resolved when its check type is not generic
    /// (distributed over a union for a naked type parameter), else deferred.
    fn conditional_type(
        &mut self,
        root: &Rc<ConditionalRoot>,
        mapper: Option<Rc<Mapper>>,
    ) -> TypeId {
        // A branch that is itself a conditional type is resolved in this loop, not by
        // instantiating it: tail recursion, bounded as TypeScript bounds it.
        let (mut root, mut mapper) = (root.clone(), mapper);
        let mut steps = 0;
        loop {
            match self.conditional_step(&root, mapper) {
                Ok(t) => return t,
                Err((r, m)) => {
                    steps += 1;
                    if let Some(e) = self.tail_recursion_limited(steps) {
                        return e;
                    }
                    (root, mapper) = (r, m);
                }
            }
        }
    }

    /// One step of [`Self::conditional_type`]: the type, or the conditional type of the
    /// chosen branch to resolve next.
    fn conditional_step(
        &mut self,
        root: &Rc<ConditionalRoot>,
        mapper: Option<Rc<Mapper>>,
    ) -> Result<TypeId, (Rc<ConditionalRoot>, Option<Rc<Mapper>>)> {
        let check = self.inst_opt(root.check, mapper.as_deref());
        let check = self.expand_lazy(check);
        if root.distributive {
            let members: Option<Vec<TypeId>> = match self.types.kind(check) {
                TypeKind::Never => return Ok(ids::NEVER),
                TypeKind::Boolean => Some(vec![ids::TRUE, ids::FALSE]),
                TypeKind::Union(ms) => {
                    let mut v = Vec::with_capacity(ms.len() + 1);
                    for &m in ms.iter() {
                        if m == ids::BOOLEAN {
                            v.extend([ids::TRUE, ids::FALSE]);
                        } else {
                            v.push(m);
                        }
                    }
                    Some(v)
                }
                _ => None,
            };
            if let Some(ms) = members {
                let mut out = Vec::with_capacity(ms.len());
                for x in ms {
                    let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(root.check, x)]));
                    out.push(self.conditional_type(root, Some(m)));
                }
                return Ok(self.types.union(&out));
            }
        }
        let extends = self.inst_opt(root.extends, mapper.as_deref());
        if self.types.is_generic(check) {
            return Ok(self.types.conditional(ConditionalType {
                root: root.clone(),
                mapper,
                check,
                extends,
            }));
        }
        // Infer the `infer` parameters from the check type, then instantiate the extends
        // type with them (uninferred ones: their constraint, or `unknown`).
        let (true_mapper, inferred_extends) = if root.infer_params.is_empty() {
            (mapper.clone(), extends)
        } else {
            let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
            self.cond_infer += 1;
            self.infer_from(extends, check, &root.infer_params, &mut cands, 0);
            self.cond_infer -= 1;
            let mut pairs = Vec::with_capacity(root.infer_params.len());
            for &ip in root.infer_params.iter() {
                let v = match cands.get(&ip) {
                    Some(c) if !c.is_empty() => self.types.union(c),
                    _ => self.infer_param_default(ip, mapper.as_deref(), ids::UNKNOWN),
                };
                pairs.push((ip, v));
            }
            let m = Rc::new(self.mapper_with(mapper.as_deref(), &pairs));
            let e = self.instantiate(root.extends, &m);
            (Some(m), e)
        };
        if self.types.is_generic(inferred_extends) {
            return Ok(self.types.conditional(ConditionalType {
                root: root.clone(),
                mapper,
                check,
                extends,
            }));
        }
        let any_extends = matches!(
            self.types.kind(inferred_extends),
            TypeKind::Any | TypeKind::Unknown
        );
        let r = if (check == ids::ANY || check == ids::ERROR) && !any_extends {
            // `any` matches and fails at once: both branches.
            let a = self.inst_opt(root.true_type, true_mapper.as_deref());
            let b = self.inst_opt(root.false_type, mapper.as_deref());
            self.types.union(&[a, b])
        } else {
            let (branch, m) =
                if any_extends || self.assignable_for_condition(check, inferred_extends) {
                    (root.true_type, true_mapper)
                } else {
                    (root.false_type, mapper)
                };
            if let Some(next) = self.tail_conditional(branch, m.as_deref()) {
                return Err(next);
            }
            self.inst_opt(branch, m.as_deref())
        };
        Ok(self.expand_lazy(r))
    }

    /// A recursive alias a conditional type resolved to (`Flat<U>` in its own branch),
    /// expanded once, so the result is the type it stands for; bounded by the depth limit.
    fn expand_lazy(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::LazyAlias(s, args) if !self.types.is_generic(t) => {
                if self.alias_stack.iter().any(|e| e.0 == s) {
                    // Not resolved yet: keep it lazy, and keep the answer out of caches.
                    self.inst_taint = true;
                    return t;
                }
                let r = self.type_reference(s, args.to_vec());
                if r == ids::ERROR { t } else { r }
            }
            _ => t,
        }
    }

    /// What an uninferred `infer` parameter stands for: its constraint, else `fallback`.
    fn infer_param_default(&mut self, ip: TypeId, m: Option<&Mapper>, fallback: TypeId) -> TypeId {
        match self.types.kind(ip) {
            TypeKind::TypeParam(s) => {
                let s = *s;
                match self.constraint_of(s) {
                    Some(c) => self.inst_opt(c, m),
                    None => fallback,
                }
            }
            _ => fallback,
        }
    }

    /// What a deferred conditional type relates as a source and gives its members: with
    /// a constrained check type parameter, the type resolved for that constraint; else
    /// the union of both branches (`infer` parameters as their constraints, or `any`).
    fn conditional_constraint(&mut self, t: TypeId) -> TypeId {
        if let Some(&c) = self.cond_constraints.get(&t) {
            return c;
        }
        let TypeKind::Conditional(c) = self.types.kind(t).clone() else {
            return t;
        };
        let outer = self.begin_cached();
        let outer_taint = std::mem::replace(&mut self.inst_taint, false);
        let mut r = None;
        if c.root.distributive
            && let TypeKind::TypeParam(p) = self.types.kind(c.check)
        {
            let p = *p;
            if let Some(k) = self.constraint_of(p)
                && !self.types.is_generic(k)
            {
                let m = Rc::new(self.mapper_with(c.mapper.as_deref(), &[(c.root.check, k)]));
                let x = self.conditional_type(&c.root, Some(m));
                if !self.types.is_generic(x) {
                    r = Some(x);
                }
            }
        }
        let r = match r {
            Some(r) => r,
            None => {
                let (a, b) = self.conditional_branches(&c);
                self.types.union(&[a, b])
            }
        };
        let clean = self.end_cached(outer);
        let tainted = self.inst_taint;
        if clean && !tainted {
            self.cond_constraints.insert(t, r);
        }
        self.inst_taint = outer_taint || tainted;
        r
    }

    /// A deferred conditional type's two branches under its mapper (`infer` parameters as
    /// their constraints, or `any`).
    fn conditional_branches(&mut self, c: &ConditionalType) -> (TypeId, TypeId) {
        let mut pairs = Vec::with_capacity(c.root.infer_params.len());
        for &ip in c.root.infer_params.iter() {
            let v = self.infer_param_default(ip, c.mapper.as_deref(), ids::ANY);
            pairs.push((ip, v));
        }
        let m = self.mapper_with(c.mapper.as_deref(), &pairs);
        let a = self.instantiate(c.root.true_type, &m);
        let b = self.inst_opt(c.root.false_type, c.mapper.as_deref());
        (a, b)
    }

    /// A mapped type under `mapper`: resolved to an object when its keys are known, mapped
    /// over unions, arrays, tuples and primitives when homomorphic, else deferred.
    fn mapped_type(&mut self, root: &Rc<MappedRoot>, mapper: Option<Rc<Mapper>>) -> TypeId {
        if let Some(h) = root.homomorphic {
            let src = self.inst_opt(h, mapper.as_deref());
            match self.types.kind(src).clone() {
                TypeKind::Union(ms) => {
                    let mut out = Vec::with_capacity(ms.len());
                    for &x in ms.iter() {
                        let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(h, x)]));
                        out.push(self.mapped_type(root, Some(m)));
                    }
                    return self.types.union(&out);
                }
                TypeKind::Never => return src,
                _ if self.types.is_primitive(src) => return src,
                TypeKind::Reference(a, args)
                    if Some(a) == self.globals.array && args.len() == 1 =>
                {
                    let m = self.mapper_with(mapper.as_deref(), &[(root.param, ids::NUMBER)]);
                    let e = self.instantiate(root.template, &m);
                    let e = self.apply_optional(root, e);
                    return self.array_of(e);
                }
                TypeKind::Tuple(es) => {
                    let mut out = Vec::with_capacity(es.len());
                    for i in 0..es.len() {
                        let k = self.types.string_lit(&Atom::from(i.to_string()));
                        let m = self.mapper_with(mapper.as_deref(), &[(root.param, k)]);
                        let e = self.instantiate(root.template, &m);
                        out.push(self.apply_optional(root, e));
                    }
                    return self.types.tuple(out.into());
                }
                _ => {}
            }
        }
        let constraint = self.inst_opt(root.constraint, mapper.as_deref());
        if self.types.is_generic(constraint) {
            return self.types.mapped(MappedType {
                root: root.clone(),
                mapper,
                constraint,
            });
        }
        self.resolve_mapped(root, mapper, constraint)
    }

    /// An element of a homomorphic mapped array or tuple: `?` adds `undefined`, `-?`
    /// removes it.
    fn apply_optional(&mut self, root: &MappedRoot, e: TypeId) -> TypeId {
        match root.optional {
            1 => self.types.union(&[e, ids::UNDEFINED]),
            -1 => self.types.without_undefined(e),
            _ => e,
        }
    }

    /// The object a mapped type denotes for the keys in `keys` (at most 256): a property
    /// per string or number literal key, typed lazily as the template with `K` := key; an
    /// index signature for `string` and `number`.
    /// The members whose modifiers a mapped type keeps: the modifiers type's, and for a
    /// union each property known in some member, optional when it is optional in any (as
    /// TypeScript reads a union's property).
    fn modifier_members(&mut self, x: TypeId) -> Rc<ObjectType> {
        let TypeKind::Union(ms) = self.types.kind(x).clone() else {
            return self.members(x);
        };
        let mut out = ObjectType::default();
        for m in ms.iter() {
            let mm = self.members(*m);
            for name in &mm.order {
                let p = &mm.props[name];
                match out.props.get(name) {
                    Some(q) if q.optional || !p.optional => {}
                    Some(_) => {
                        let mut merged = (**p).clone();
                        merged.optional = true;
                        out.props.insert(name.clone(), Rc::new(merged));
                    }
                    None => out.insert_symbol(name.clone(), p.clone()),
                }
            }
        }
        Rc::new(out)
    }

    fn resolve_mapped(
        &mut self,
        root: &Rc<MappedRoot>,
        mapper: Option<Rc<Mapper>>,
        keys: TypeId,
    ) -> TypeId {
        let keys: Vec<TypeId> = match self.types.kind(keys) {
            TypeKind::Union(ms) => ms.iter().copied().take(256).collect(),
            _ => vec![keys],
        };
        let modifiers = match root.modifiers {
            Some(x) => {
                let x = self.inst_opt(x, mapper.as_deref());
                (!self.types.is_generic(x)).then(|| self.modifier_members(x))
            }
            None => None,
        };
        // Keys in the order the modifiers type declares them (as TypeScript prints them).
        let mut keys = keys;
        if let Some(mods) = &modifiers {
            keys.sort_by_key(|&k| {
                match self.types.kind(k) {
                    TypeKind::StringLit(s) => mods.order.iter().position(|n| n == s),
                    _ => None,
                }
                .unwrap_or(usize::MAX)
            });
        }
        let mut obj = ObjectType::default();
        for k in keys {
            let key_name = match self.types.kind(k) {
                TypeKind::StringLit(s) => Some(s.clone()),
                TypeKind::NumberLit(n) => Some(Atom::from(bind::format_number(*n))),
                _ => None,
            };
            if key_name.is_none() && !matches!(k, ids::STRING | ids::NUMBER) {
                continue;
            }
            let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(root.param, k)]));
            let names: Vec<TypeId> = match root.name_type {
                Some(n) => {
                    let n = self.instantiate(n, &m);
                    match self.types.kind(n) {
                        TypeKind::Union(ms) => ms.to_vec(),
                        _ => vec![n],
                    }
                }
                None => vec![k],
            };
            let source_optional = key_name
                .as_ref()
                .and_then(|n| modifiers.as_ref()?.props.get(n).map(|p| p.optional));
            for name in names {
                let pname = match self.types.kind(name) {
                    TypeKind::StringLit(s) => s.clone(),
                    TypeKind::NumberLit(n) => Atom::from(bind::format_number(*n)),
                    TypeKind::String => {
                        obj.string_index = Some(self.instantiate(root.template, &m));
                        continue;
                    }
                    TypeKind::Number => {
                        obj.number_index = Some(self.instantiate(root.template, &m));
                        continue;
                    }
                    _ => continue,
                };
                let optional = match root.optional {
                    1 => true,
                    -1 => false,
                    _ => source_optional.unwrap_or(false),
                };
                let prop = if root.optional == -1 && source_optional == Some(true) {
                    // `-?` also removes the `undefined` an optional source property adds.
                    let t = self.instantiate(root.template, &m);
                    let t = self.types.without_undefined(t);
                    PropSymbol {
                        ty: std::cell::Cell::new(t),
                        optional,
                        key_type: Some(k),
                        ..PropSymbol::empty(pname.clone())
                    }
                } else {
                    PropSymbol {
                        origin: Some((root.template_prop.clone(), m.clone())),
                        optional,
                        check_flags: 1,
                        key_type: Some(k),
                        ..PropSymbol::empty(pname.clone())
                    }
                };
                obj.insert_symbol(pname, Rc::new(prop));
            }
        }
        // The object is generic when an outer type parameter it mentions still is.
        let mut generic = false;
        for &p in root.outer.iter() {
            let a = mapper.as_ref().and_then(|m| m.get(p)).unwrap_or(p);
            if self.types.is_generic(a) {
                generic = true;
                break;
            }
        }
        let mstable = mapper.as_ref().map_or(0, |m| m.stable);
        let origin = root.node ^ mstable.rotate_left(29) ^ 0x6d61_7070_6564;
        self.types.object_flagged(obj, origin, generic)
    }

    /// The members of a deferred mapped type (inside generic code): over the keys of the
    /// constraint's constraint when they are known, else an index signature of `any`.
    fn deferred_mapped_members(&mut self, mt: &MappedType) -> Rc<ObjectType> {
        let mut c = mt.constraint;
        let mut keys = None;
        for _ in 0..4 {
            match self.types.kind(c).clone() {
                TypeKind::TypeParam(p) => match self.constraint_of(p) {
                    Some(x) if x != c => c = x,
                    _ => break,
                },
                TypeKind::Keyof(x) => {
                    // `keyof T` for an unconstrained `T` is `keyof unknown`: no keys.
                    let base = match self.types.kind(x) {
                        TypeKind::TypeParam(p) => {
                            let p = *p;
                            Some(self.constraint_of(p).unwrap_or(ids::UNKNOWN))
                        }
                        _ => None,
                    };
                    if let Some(b) = base.filter(|&b| !self.types.is_generic(b)) {
                        keys = Some(self.keyof(b));
                    }
                    break;
                }
                _ => {
                    if !self.types.is_generic(c) {
                        keys = Some(c);
                    }
                    break;
                }
            }
        }
        match keys {
            Some(k) => {
                let o = self.resolve_mapped(&mt.root, mt.mapper.clone(), k);
                self.members(o)
            }
            None => Rc::new(ObjectType {
                string_index: Some(ids::ANY),
                ..ObjectType::default()
            }),
        }
    }

    fn object_from_elements(&mut self, file: u32, members: &'a [TsTypeElement]) -> ObjectType {
        let mut obj = ObjectType::default();
        for m in members {
            match m {
                TsTypeElement::TsPropertySignature(p) => {
                    if let Some(name) = bind::key_name(&p.key) {
                        let ty = match &p.type_ann {
                            Some(a) => self.type_from_node(file, &a.type_ann),
                            None => ids::ANY,
                        };
                        obj.insert(
                            name,
                            PropT {
                                ty,
                                optional: p.optional,
                            },
                        );
                    }
                }
                TsTypeElement::TsMethodSignature(p) => {
                    if let Some(name) = bind::key_name(&p.key) {
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
                        obj.insert(
                            name,
                            PropT {
                                ty,
                                optional: p.optional,
                            },
                        );
                    }
                }
                TsTypeElement::TsGetterSignature(p) => {
                    if let Some(name) = bind::key_name(&p.key) {
                        let ty = match &p.type_ann {
                            Some(a) => self.type_from_node(file, &a.type_ann),
                            None => ids::ANY,
                        };
                        obj.insert(
                            name,
                            PropT {
                                ty,
                                optional: false,
                            },
                        );
                    }
                }
                TsTypeElement::TsSetterSignature(p) => {
                    if let Some(name) = bind::key_name(&p.key)
                        && !obj.props.contains_key(&name)
                    {
                        let ty = fn_param_ann(&p.param)
                            .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                        obj.insert(
                            name,
                            PropT {
                                ty,
                                optional: false,
                            },
                        );
                    }
                }
                TsTypeElement::TsCallSignatureDecl(c) => {
                    let sig = self.signature_from_parts(
                        file,
                        c.type_params.as_deref(),
                        &c.params,
                        c.type_ann.as_deref().map(|a| &*a.type_ann),
                        false,
                    );
                    obj.calls.push(Rc::new(sig));
                }
                TsTypeElement::TsConstructSignatureDecl(c) => {
                    let sig = self.signature_from_parts(
                        file,
                        c.type_params.as_deref(),
                        &c.params,
                        c.type_ann.as_deref().map(|a| &*a.type_ann),
                        false,
                    );
                    obj.constructs.push(Rc::new(sig));
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
            }
        }
        obj
    }

    fn function_type(&mut self, sigs: Vec<Signature>, origin: u64) -> TypeId {
        let mut obj = ObjectType::default();
        obj.calls.extend(sigs.into_iter().map(Rc::new));
        self.types.object(obj, origin)
    }

    fn type_param_types(&mut self, file: u32, tp: Option<&'a TsTypeParamDecl>) -> Box<[TypeId]> {
        let Some(tp) = tp else { return Box::new([]) };
        tp.params
            .iter()
            .map(|p| {
                match self.bound.files[file as usize]
                    .node_symbols
                    .get(&p.name.span.lo.0)
                {
                    Some(&s) => self.types.of_symbol(10, s),
                    None => ids::UNKNOWN,
                }
            })
            .collect()
    }

    fn signature_from_parts(
        &mut self,
        file: u32,
        tp: Option<&'a TsTypeParamDecl>,
        params: &'a [TsFnParam],
        ret: Option<&'a TsType>,
        is_async: bool,
    ) -> Signature {
        let type_params = self.type_param_types(file, tp);
        let ret_node = ret;
        let mut out = Vec::with_capacity(params.len());
        let mut min_args = 0;
        let mut rest = false;
        // A leading `this: T` declares the receiver's type, not an argument.
        let params = match params.first() {
            Some(TsFnParam::Ident(b)) if &*b.id.sym == "this" => &params[1..],
            _ => params,
        };
        for (i, p) in params.iter().enumerate() {
            let (name, optional) = match p {
                TsFnParam::Ident(b) => (b.id.sym.clone(), b.id.optional),
                TsFnParam::Rest(_) => {
                    rest = true;
                    (Atom::from("args"), true)
                }
                _ => (Atom::from(format!("arg{i}")), false),
            };
            let ty = fn_param_ann(p).map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
            if !optional {
                min_args = i + 1;
            }
            out.push(Param { name, ty });
        }
        let mut ret = ret.map_or(ids::ANY, |r| self.type_from_node(file, r));
        if is_async {
            ret = self.promise_of(ret);
        }
        let predicate = self.type_predicate(file, ret_node, &out);
        Signature {
            type_params,
            params: out,
            ret,
            min_args,
            rest,
            predicate,
            ..Default::default()
        }
    }

    fn signature_of_function(&mut self, file: u32, f: &'a Function) -> Signature {
        let type_params = self.type_param_types(file, f.type_params.as_deref());
        let mut params = Vec::with_capacity(f.params.len());
        let mut min_args = 0;
        let mut rest = false;
        // A leading `this: T` declares the receiver's type, not an argument.
        let skip = usize::from(matches!(
            f.params.first().map(|p| &p.pat),
            Some(Pat::Ident(b)) if &*b.id.sym == "this"
        ));
        for (i, p) in f.params.iter().skip(skip).enumerate() {
            let (name, ty, optional) = self.param_info(file, &p.pat, i);
            rest |= matches!(p.pat, Pat::Rest(_));
            if !optional {
                min_args = i + 1;
            }
            params.push(Param { name, ty });
        }
        let ret = match &f.return_type {
            Some(r) => self.type_from_node(file, &r.type_ann),
            None => {
                let this = self.this_of_function(file, f.span.lo.0);
                self.this_types.push(this);
                let inferred = self.infer_return(
                    file,
                    f.span.lo.0,
                    f.body.as_ref().map(|b| &b.stmts[..]),
                    None,
                );
                self.this_types.pop();
                if f.is_generator {
                    // A generator returns its iterator: `Generator<Y, R, N>` (async:
                    // `AsyncGenerator`), with what it yields and is sent taken as `any`.
                    let name = if f.is_async {
                        "AsyncGenerator"
                    } else {
                        "Generator"
                    };
                    match self.bound.globals.get(&Atom::from(name)).copied() {
                        Some(g) => {
                            let r = if f.is_async {
                                self.awaited(inferred)
                            } else {
                                inferred
                            };
                            self.types.reference(g, Box::new([ids::ANY, r, ids::ANY]))
                        }
                        None => ids::ANY,
                    }
                } else if f.is_async {
                    // The awaited type of what the body returns (`return promise` too).
                    let awaited = self.awaited(inferred);
                    self.promise_of(awaited)
                } else {
                    inferred
                }
            }
        };
        let predicate = self.type_predicate(
            file,
            f.return_type.as_deref().map(|r| &*r.type_ann),
            &params,
        );
        let predicate = match (predicate, &f.return_type, params.first(), &f.body) {
            (None, None, Some(p), Some(body)) if skip == 0 && !f.is_async && !f.is_generator => {
                let pats: Vec<&Pat> = f.params.iter().map(|q| &q.pat).collect();
                let body = narrow::single_return(&body.stmts);
                self.inferred_type_predicate(file, &pats, p.ty, ret, body)
            }
            (p, ..) => p,
        };
        Signature {
            type_params,
            params,
            ret,
            min_args,
            rest,
            predicate,
            ..Default::default()
        }
    }

    /// Name, type and optionality of a parameter pattern.
    fn param_info(&mut self, file: u32, p: &'a Pat, i: usize) -> (Atom, TypeId, bool) {
        match p {
            Pat::Ident(b) => {
                let ty = match &b.type_ann {
                    Some(a) => self.type_from_node(file, &a.type_ann),
                    None => match self.bound.files[file as usize]
                        .node_symbols
                        .get(&b.id.span.lo.0)
                    {
                        Some(&s) => self.known_value_type(s).unwrap_or(ids::ANY),
                        None => ids::ANY,
                    },
                };
                (b.id.sym.clone(), ty, b.id.optional)
            }
            Pat::Assign(a) => {
                let (name, ty, _) = self.param_info(file, &a.left, i);
                (name, ty, true)
            }
            Pat::Rest(r) => {
                let ty = r
                    .type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                (Atom::from("args"), ty, true)
            }
            Pat::Object(o) => (
                Atom::from(format!("arg{i}")),
                o.type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
                false,
            ),
            Pat::Array(a) => (
                Atom::from(format!("arg{i}")),
                a.type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
                false,
            ),
            _ => (Atom::from(format!("arg{i}")), ids::ANY, false),
        }
    }

    /// Infers a function's return type from its body, without reporting.
    fn infer_return(
        &mut self,
        file: u32,
        lo: u32,
        body: Option<&'a [Stmt]>,
        expr: Option<&'a Expr>,
    ) -> TypeId {
        let key = node_key(file, lo);
        if let Some(&t) = self.return_types.get(&key) {
            return t;
        }
        if let Some(t) = self.provisional_type(Resolution::Return(key)) {
            return t;
        }
        // A recursive function's own calls give `any` while its return type is inferred.
        let Some(token) = self.begin_resolution(Resolution::Return(key)) else {
            return ids::ANY;
        };
        self.suppress += 1;
        let t = if let Some(e) = expr {
            self.check_expr(file, e, None)
        } else {
            let mut found = Vec::new();
            if let Some(body) = body {
                collect_returns(body, &mut found, 0);
            }
            let mut ts = Vec::with_capacity(found.len());
            for e in found {
                match e {
                    Some(e) => ts.push(self.check_expr(file, e, None)),
                    None => ts.push(ids::UNDEFINED),
                }
            }
            if ts.is_empty() {
                ids::VOID
            } else {
                self.types.union(&ts)
            }
        };
        let t = self.normalize_literal_union(t);
        let t = self.regular_type(t);
        let t = self.types.widen(t);
        self.suppress -= 1;
        if self.end_resolution(token, t) {
            self.return_types.insert(key, t);
        }
        t
    }

    // ------------------------------------------------------------------ symbols

    /// The symbol an entity name (`A`, `A.B.C`) denotes.
    fn resolve_entity(&mut self, file: u32, entity: &[(u32, Atom)]) -> Option<SymbolId> {
        let (pos, name) = &entity[0];
        let mut s = self.bound.resolve(file, *pos, name)?;
        for (_, part) in &entity[1..] {
            s = self.resolve_alias(s);
            s = self.export_of_symbol(s, part)?;
        }
        Some(s)
    }

    fn export_of_symbol(&mut self, s: SymbolId, name: &Atom) -> Option<SymbolId> {
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
    fn resolve_export(&mut self, file: u32, name: &Atom, depth: u32) -> Option<SymbolId> {
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
    fn resolve_alias(&mut self, s: SymbolId) -> SymbolId {
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

    fn type_params_of(&mut self, s: SymbolId) -> Rc<[TypeId]> {
        if let Some(tp) = self.sym_links.get(&s).and_then(|l| l.type_params.clone()) {
            return tp;
        }
        let decls = self.bound.symbol(s).decls.clone();
        let mut params: Rc<[TypeId]> = Rc::new([]);
        for (file, d) in decls {
            let tp = match d {
                BDecl::Class(c) => c.type_params.as_deref(),
                BDecl::Interface(i) => i.type_params.as_deref(),
                BDecl::Alias(a) => a.type_params.as_deref(),
                _ => None,
            };
            if tp.is_some() {
                params = self.type_param_types(file, tp).into();
                break;
            }
        }
        self.links(s).type_params = Some(params.clone());
        params
    }

    /// A reference to a named type with arguments.
    fn type_reference(&mut self, s: SymbolId, args: Vec<TypeId>) -> TypeId {
        let s = self.resolve_alias(s);
        let sym = self.bound.symbol(s);
        let f = sym.flags;
        if f & flags::TYPE_PARAM != 0 {
            let s = self.merged_type_params.get(&s).copied().unwrap_or(s);
            return self.types.of_symbol(10, s);
        }
        if f & (flags::CLASS | flags::INTERFACE) != 0 {
            let params = self.type_params_of(s);
            if params.is_empty() {
                return self.declared_type(s);
            }
            let args = self.fill_args(s, &params, args);
            return self.types.reference(s, args.into());
        }
        if f & flags::TYPE_ALIAS != 0 {
            let params = self.type_params_of(s);
            if let Some(&(_, at)) = self.alias_stack.iter().find(|e| e.0 == s)
                && self.deferred > at
            {
                let args = self.fill_args(s, &params, args);
                return self.types.lazy_alias(s, args.into());
            }
            let body = self.declared_type(s);
            if params.is_empty() {
                return body;
            }
            let args = self.fill_args(s, &params, args);
            let m = Mapper::new(&self.types, &params, &args);
            return self.instantiate(body, &m);
        }
        if f & flags::ENUM != 0 {
            return self.types.of_symbol(14, s);
        }
        if f & flags::ENUM_MEMBER != 0 {
            return self.types.of_symbol(15, s);
        }
        ids::ERROR
    }

    fn fill_args(&mut self, s: SymbolId, params: &[TypeId], mut args: Vec<TypeId>) -> Vec<TypeId> {
        args.truncate(params.len());
        while args.len() < params.len() {
            let i = args.len();
            let default = self.type_param_default(s, i);
            let d = match default {
                Some(d) => {
                    let m = Mapper::new(&self.types, &params[..i], &args);
                    self.instantiate(d, &m)
                }
                None => ids::ANY,
            };
            args.push(d);
        }
        args
    }

    fn type_param_default(&mut self, s: SymbolId, i: usize) -> Option<TypeId> {
        let decls = self.bound.symbol(s).decls.clone();
        for (file, d) in decls {
            let tp = match d {
                BDecl::Class(c) => c.type_params.as_deref(),
                BDecl::Interface(i) => i.type_params.as_deref(),
                BDecl::Alias(a) => a.type_params.as_deref(),
                _ => None,
            };
            if let Some(p) = tp.and_then(|tp| tp.params.get(i))
                && let Some(d) = &p.default
            {
                return Some(self.type_from_node(file, d));
            }
        }
        None
    }

    fn constraint_of(&mut self, s: SymbolId) -> Option<TypeId> {
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
                    return Some(t);
                }
                self.constraints.insert(s, ids::UNKNOWN);
                self.alias_stack.push((s, self.deferred));
                let outer = self.begin_cached();
                let t = self.type_from_node(file, c);
                let clean = self.end_cached(outer);
                self.alias_stack.pop();
                if clean {
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
    fn declared_type(&mut self, s: SymbolId) -> TypeId {
        let s = self.resolve_alias(s);
        if let Some(t) = self.sym_links.get(&s).and_then(|l| l.declared_type) {
            return t;
        }
        let f = self.bound.symbol(s).flags;
        let t = if f & (flags::CLASS | flags::INTERFACE) != 0 {
            self.types.of_symbol(11, s)
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
            let outer = self.begin_cached();
            let t = self.type_from_node(file, &a.type_ann);
            let clean = self.end_cached(outer);
            self.type_depth = saved_depth;
            self.alias_stack.pop();
            self.links(s).resolving_declared = false;
            if self.links(s).circular {
                ids::ERROR
            } else if !clean {
                // `typeof` of a value met through a placeholder: not cached for good.
                return t;
            } else {
                t
            }
        } else if f & flags::ENUM != 0 {
            self.types.of_symbol(14, s)
        } else if f & flags::TYPE_PARAM != 0 {
            self.types.of_symbol(10, s)
        } else {
            ids::ERROR
        };
        self.links(s).declared_type = Some(t);
        t
    }

    /// The type of a symbol in a value position.
    fn type_of_symbol(&mut self, s: SymbolId) -> TypeId {
        if let Some(t) = self.known_value_type(s) {
            return t;
        }
        // Met again while it is being computed: `any`, and what leans on that is not
        // cached for good (it would depend on where the cycle was entered).
        let Some(token) = self.begin_resolution(Resolution::Value(s)) else {
            return ids::ANY;
        };
        let t = self.compute_value_type(s);
        if self.end_resolution(token, t) {
            *self.links(s).value_type.get_or_insert(t)
        } else {
            t
        }
    }

    fn compute_value_type(&mut self, s: SymbolId) -> TypeId {
        let sym = self.bound.symbol(s);
        let f = sym.flags;
        if f & flags::ALIAS != 0 {
            let target = self.resolve_alias(s);
            let t = if target == s {
                match self.bound.symbol(s).decls.first() {
                    Some((
                        _,
                        BDecl::Import {
                            module: Some(m),
                            imported: Imported::Namespace,
                            ..
                        },
                    )) => {
                        let m = *m;
                        self.types.of_symbol(16, SymbolId { file: m, index: 0 })
                    }
                    _ => ids::ANY,
                }
            } else {
                self.type_of_symbol(target)
            };
            return t;
        }
        self.suppress += 1;
        // Lazy inference sees the `this` of the symbol's own class, never the caller's: a
        // member's class, or for a local, the class of the method it is declared in.
        let local_owner = match self.bound.symbol(s).decls.first() {
            Some((file, BDecl::Binding { ident, .. })) => self.bound.files[*file as usize]
                .binding_this
                .get(&ident.id.span.lo.0)
                .copied(),
            _ => None,
        };
        let this = match (self.bound.symbol(s).parent, local_owner) {
            (Some(p), _) if f & flags::STATIC != 0 => self.types.of_symbol(12, p),
            (Some(p), _) | (None, Some(p)) => self.this_expr_type(p),
            (None, None) => ids::ANY,
        };
        self.this_types.push(this);
        let t = self.compute_symbol_type(s, f);
        let t = self.with_expando_members(s, t);
        self.this_types.pop();
        self.suppress -= 1;
        t
    }

    /// A function's type with its expando properties (`f.displayName = "F"` in its file,
    /// see the binder) as members beside its signatures, as TypeScript resolves a function
    /// symbol's exports into its type. Each property is typed lazily by its assignment.
    fn with_expando_members(&mut self, s: SymbolId, t: TypeId) -> TypeId {
        let expandos: Vec<(Atom, SymbolId)> =
            {
                let sym = self.bound.symbol(s);
                let mut v: Vec<(Atom, SymbolId)> =
                    sym.exports
                        .iter()
                        .filter(|(_, e)| {
                            self.bound.symbol(**e).decls.iter().any(|(_, d)| {
                                matches!(d, BDecl::Syntax(bind::SyntaxDecl::Expando(_)))
                            })
                        })
                        .map(|(k, v)| (k.clone(), *v))
                        .collect();
                v.sort_by_key(|(_, id)| *id);
                v
            };
        if expandos.is_empty() {
            return t;
        }
        let mut obj = (*self.members(t)).clone();
        for (name, e) in expandos {
            if obj.props.contains_key(&name) {
                continue;
            }
            let mut prop = PropSymbol::empty(name.clone());
            prop.declaration = Some(e);
            obj.insert_symbol(name, Rc::new(prop));
        }
        let origin = self.types.stable(t) ^ 0x0065_7870_616e_646f; // "expando"
        self.types.object(obj, origin)
    }

    fn compute_symbol_type(&mut self, s: SymbolId, f: u32) -> TypeId {
        if f & flags::CLASS != 0 {
            return self.types.of_symbol(12, s);
        }
        if f & flags::ENUM != 0 || (f & flags::NAMESPACE != 0 && f & flags::FUNCTION == 0) {
            return self.types.of_symbol(13, s);
        }
        if f & flags::ENUM_MEMBER != 0 {
            return self.types.of_symbol(15, s);
        }
        let decls = self.bound.symbol(s).decls.clone();
        if f & flags::FUNCTION != 0 {
            let fns: Vec<(u32, &'a Function)> = decls
                .iter()
                .filter_map(|(file, d)| {
                    if let BDecl::Function(func) = d {
                        Some((*file, *func))
                    } else {
                        None
                    }
                })
                .collect();
            let overloads: Vec<(u32, &'a Function)> = if fns.len() > 1 {
                fns.iter()
                    .copied()
                    .filter(|(_, f)| f.body.is_none())
                    .collect()
            } else {
                fns.clone()
            };
            let sigs: Vec<Signature> = overloads
                .iter()
                .map(|&(file, func)| self.signature_of_function(file, func))
                .collect();
            let origin = fns
                .first()
                .map_or(0, |(file, func)| node_key(*file, func.span.lo.0));
            return self.function_type(sigs, origin);
        }
        // `declare var Math: Math` merges with `interface Math`: the binding gives the value.
        let value_decl = decls
            .iter()
            .find(|(_, d)| matches!(d, BDecl::Binding { .. }))
            .or(decls.first());
        match value_decl {
            Some((
                file,
                BDecl::Binding {
                    ident,
                    init,
                    in_pattern,
                    is_const,
                    from,
                },
            )) => {
                let file = *file;
                if let Some(a) = &ident.type_ann {
                    let t = self.type_from_node(file, &a.type_ann);
                    return if ident.id.optional {
                        self.types.union(&[t, ids::UNDEFINED])
                    } else {
                        t
                    };
                }
                if *in_pattern {
                    return self.pattern_binding_type(file, from.as_ref());
                }
                match init {
                    // `let x = null` and `let x = undefined` are auto-typed in TypeScript
                    // (their type evolves with later assignments): `any` here, as a
                    // `let x;` without initializer is.
                    Some(e) if !*is_const && is_null_or_undefined(e) => ids::ANY,
                    Some(e) => {
                        let t = self.check_expr(file, e, None);
                        let t = self.normalize_literal_union(t);
                        let t = self.regular_type(t);
                        if *is_const {
                            t
                        } else {
                            self.widen_unless_const_assertion(e, t)
                        }
                    }
                    None => ids::ANY,
                }
            }
            Some((file, BDecl::Member(m))) => {
                let file = *file;
                let t = self.member_type(file, *m, &decls);
                if f & flags::METHOD != 0 {
                    return self.register_method_type(s, t);
                }
                t
            }
            Some((file, BDecl::DefaultExpr(e))) => {
                let file = *file;
                let t = self.check_expr(file, e, None);
                self.regular_type(t)
            }
            Some((file, BDecl::Syntax(bind::SyntaxDecl::Expando(a)))) => {
                let file = *file;
                let t = self.check_expr(file, &a.right, None);
                self.types.widen(t)
            }
            Some((file, BDecl::Class(c))) if f & flags::DEFAULT_EXPORT != 0 => {
                let _ = (file, c);
                self.types.of_symbol(12, s)
            }
            _ => ids::ANY,
        }
    }

    /// The type of a binding read from a property of an annotated object pattern
    /// (`{ origin }: Props`); `any` where the pattern has no annotation.
    fn pattern_binding_type(&mut self, file: u32, from: Option<&PatSource<'a>>) -> TypeId {
        let Some(source) = from else {
            return ids::ANY;
        };
        let Some(ann) = &source.pattern.type_ann else {
            return ids::ANY;
        };
        let whole = self.type_from_node(file, &ann.type_ann);
        let Some(t) = self.property_type(whole, &source.key) else {
            return ids::ANY;
        };
        match self.types.kind(t) {
            TypeKind::Union(members) if source.has_default => {
                let kept: Vec<TypeId> = members
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::UNDEFINED)
                    .collect();
                self.types.union(&kept)
            }
            _ => t,
        }
    }

    fn member_type(&mut self, file: u32, m: MemberDecl<'a>, decls: &[(u32, BDecl<'a>)]) -> TypeId {
        match m {
            MemberDecl::PropertySignature(p) => {
                let t = p
                    .type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                if p.optional {
                    self.types.union(&[t, ids::UNDEFINED])
                } else {
                    t
                }
            }
            MemberDecl::Getter(g) => g
                .type_ann
                .as_ref()
                .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
            MemberDecl::Setter(s) => {
                fn_param_ann(&s.param).map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann))
            }
            MemberDecl::ParamProp(b) => b
                .type_ann
                .as_ref()
                .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
            MemberDecl::ClassProp(p) => match (&p.type_ann, &p.value) {
                (Some(a), _) => self.type_from_node(file, &a.type_ann),
                (None, Some(v)) => {
                    let t = self.check_expr(file, v, None);
                    let t = self.normalize_literal_union(t);
                    let t = self.regular_type(t);
                    self.widen_unless_const_assertion(v, t)
                }
                _ => ids::ANY,
            },
            MemberDecl::MethodSignature(_) | MemberDecl::ClassMethod(_) => {
                if let Some(t) = self.accessor_type(decls) {
                    return t;
                }
                let mut sigs = Vec::new();
                let mut origin = 0;
                for (file, d) in decls {
                    match d {
                        BDecl::Member(MemberDecl::MethodSignature(p)) => {
                            let sig = self.signature_from_parts(
                                *file,
                                p.type_params.as_deref(),
                                &p.params,
                                p.type_ann.as_deref().map(|a| &*a.type_ann),
                                false,
                            );
                            origin = node_key(*file, p.span.lo.0);
                            sigs.push(sig);
                        }
                        BDecl::Member(MemberDecl::ClassMethod(cm))
                            if cm.function.body.is_none() || decls.len() == 1 =>
                        {
                            origin = node_key(*file, cm.span.lo.0);
                            sigs.push(self.signature_of_function(*file, &cm.function));
                        }
                        _ => {}
                    }
                }
                if sigs.is_empty() {
                    return ids::ANY;
                }
                sigs.iter_mut().for_each(|s| s.method = true);
                self.function_type(sigs, origin)
            }
        }
    }

    /// The property type of a class accessor pair: the getter's return type, else the
    /// setter's parameter type; `None` when the declarations are not accessors.
    fn accessor_type(&mut self, decls: &[(u32, BDecl<'a>)]) -> Option<TypeId> {
        let accessor = |d: &BDecl<'a>, kind: MethodKind| match d {
            BDecl::Member(MemberDecl::ClassMethod(cm)) if cm.kind == kind => Some(*cm),
            _ => None,
        };
        if let Some((file, g)) = decls
            .iter()
            .find_map(|(f, d)| accessor(d, MethodKind::Getter).map(|g| (*f, g)))
        {
            return Some(self.signature_of_function(file, &g.function).ret);
        }
        let (file, st) = decls
            .iter()
            .find_map(|(f, d)| accessor(d, MethodKind::Setter).map(|g| (*f, g)))?;
        let sig = self.signature_of_function(file, &st.function);
        Some(sig.params.first().map_or(ids::ANY, |p| p.ty))
    }

    // ------------------------------------------------------------------ members

    fn array_of(&mut self, e: TypeId) -> TypeId {
        match self.globals.array {
            Some(a) => self.types.reference(a, Box::new([e])),
            None => ids::ANY,
        }
    }

    fn promise_of(&mut self, t: TypeId) -> TypeId {
        match self.globals.promise {
            Some(p) => self.types.reference(p, Box::new([t])),
            None => ids::ANY,
        }
    }

    /// `T` for `Promise<T>`, else the type itself.
    fn awaited(&mut self, t: TypeId) -> TypeId {
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

    /// A literal keeps its type where the contextual type holds literal types of its kind
    /// (`kind: "a"` against `"a" | "b"`); elsewhere it widens to its primitive.
    fn widen_unless_literal_context(&mut self, t: TypeId, ctx: Option<TypeId>) -> TypeId {
        match ctx {
            Some(c) if self.has_literal_of_kind(c, t, 0) => t,
            _ => self.types.widen(t),
        }
    }

    fn has_literal_of_kind(&mut self, ctx: TypeId, t: TypeId, depth: u32) -> bool {
        if depth > 8 {
            return false;
        }
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                return ms
                    .iter()
                    .any(|&m| self.has_literal_of_kind(ctx, m, depth + 1));
            }
            TypeKind::StringLit(_)
            | TypeKind::NumberLit(_)
            | TypeKind::BoolLit(_)
            | TypeKind::BigIntLit(_) => {}
            _ => return false,
        }
        match (self.types.kind(ctx).clone(), self.types.kind(t).clone()) {
            (TypeKind::Union(ms) | TypeKind::Intersection(ms), _) => ms
                .iter()
                .any(|&m| self.has_literal_of_kind(m, t, depth + 1)),
            (TypeKind::StringLit(_), TypeKind::StringLit(_))
            | (
                TypeKind::NumberLit(_) | TypeKind::EnumLiteral(_) | TypeKind::Enum(_),
                TypeKind::NumberLit(_),
            )
            | (TypeKind::BoolLit(_), TypeKind::BoolLit(_))
            | (TypeKind::BigIntLit(_), TypeKind::BigIntLit(_))
            | (TypeKind::Keyof(_) | TypeKind::TypeParam(_), _) => true,
            _ => false,
        }
    }

    fn at_top_level(&self, tp: TypeId, t: TypeId) -> bool {
        t == tp
            || match self.types.kind(t) {
                TypeKind::Union(ms) | TypeKind::Intersection(ms) => ms.contains(&tp),
                _ => false,
            }
    }

    fn has_primitive_constraint(&mut self, tp: TypeId) -> bool {
        let TypeKind::TypeParam(s) = self.types.kind(tp) else {
            return false;
        };
        let s = *s;
        let Some(c) = self.constraint_of(s) else {
            return false;
        };
        let primitive = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::String
                    | TypeKind::Number
                    | TypeKind::Boolean
                    | TypeKind::BigInt
                    | TypeKind::StringLit(_)
                    | TypeKind::NumberLit(_)
                    | TypeKind::BoolLit(_)
                    // `K extends keyof T` keeps literals too (isTypeParameterWithKeyofConstraint).
                    | TypeKind::Keyof(_)
            )
        };
        match self.types.kind(c) {
            TypeKind::Union(ms) => ms.iter().any(|&m| primitive(self.types.kind(m))),
            k => primitive(k),
        }
    }

    /// The type argument `i` of a call is checked against: a rest parameter gives its
    /// element type to every remaining argument.
    fn param_at(&mut self, sig: &Signature, i: usize) -> Option<TypeId> {
        if sig.rest && i + 1 >= sig.params.len() {
            let last = sig.params.last()?.ty;
            // A tuple rest parameter has one type per position, and none past its end.
            if let TypeKind::Tuple(es) = self.types.kind(last) {
                return es.get(i + 1 - sig.params.len()).copied();
            }
            return Some(self.element_type(last));
        }
        // An optional parameter (`x?: T`, `x = v`) takes `undefined` too, as TypeScript's
        // getTypeAtPosition adds it under strictNullChecks.
        let t = sig.params.get(i)?.ty;
        Some(if i >= sig.min_args {
            self.types.union(&[t, ids::UNDEFINED])
        } else {
            t
        })
    }

    fn element_type(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::Reference(_, args) if args.len() == 1 => args[0],
            TypeKind::Tuple(es) => self.types.union(&es),
            TypeKind::Any => ids::ANY,
            _ => {
                let m = self.members(t);
                m.number_index.or(m.string_index).unwrap_or(ids::ANY)
            }
        }
    }

    /// The members of an object-like type, resolved once per checker.
    fn members(&mut self, t: TypeId) -> Rc<ObjectType> {
        if let Some(m) = self.members_cache.get(&t) {
            return m.clone();
        }
        if !self.resolving_members.insert(t) || self.resolving_members.len() > 64 {
            // A cycle or the depth limit: empty for now, and not cached by whoever asked.
            self.inst_taint = true;
            return Rc::new(ObjectType::default());
        }
        let outer = self.begin_cached();
        let outer_taint = std::mem::replace(&mut self.inst_taint, false);
        let partial = self.this.partial;
        let m = self.resolve_members(t);
        let clean = self.end_cached(outer);
        self.resolving_members.remove(&t);
        let tainted = self.inst_taint;
        // Nor when a `this`-member cycle guard answered part of it.
        if clean && !tainted && self.this.partial == partial {
            self.members_cache.insert(t, m.clone());
        }
        self.inst_taint = outer_taint || tainted;
        m
    }

    fn resolve_members(&mut self, t: TypeId) -> Rc<ObjectType> {
        if let Some(m) = self.this_members(t) {
            return m;
        }
        match self.types.kind(t).clone() {
            TypeKind::Object(o) => o,
            TypeKind::Declared(s) => Rc::new(self.declared_members(s)),
            TypeKind::Reference(s, args) => {
                let target = self.types.of_symbol(11, s);
                let base = self.members(target);
                let params = self.type_params_of(s);
                let m = Mapper::new(&self.types, &params, &args);
                Rc::new(self.instantiate_object(&base, &m))
            }
            TypeKind::Tuple(es) => {
                let e = self.types.union(&es);
                let arr = self.array_of(e);
                let mut obj = (*self.members(arr)).clone();
                for (i, &et) in es.iter().enumerate() {
                    obj.insert(
                        Atom::from(i.to_string()),
                        PropT {
                            ty: et,
                            optional: false,
                        },
                    );
                }
                let len = self.types.number_lit(es.len() as f64);
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
                        let prop = PropSymbol {
                            declaration: Some(e),
                            ..PropSymbol::empty(name.clone())
                        };
                        obj.insert_symbol(name, Rc::new(prop));
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
                        let prop = PropSymbol {
                            declaration: Some(e),
                            ..PropSymbol::empty(name.clone())
                        };
                        obj.insert_symbol(name, Rc::new(prop));
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
                    self.inst_taint = true;
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
    fn enum_member_is_string(&self, m: SymbolId) -> bool {
        self.bound.symbol(m).decls.iter().any(|(_, d)| {
            matches!(d, BDecl::EnumMember(member) if member.init.as_deref().is_some_and(|e| {
                matches!(e, Expr::Lit(Lit::Str(_))) || matches!(e, Expr::Tpl(t) if t.exprs.is_empty())
            }))
        })
    }

    /// Whether every member of an enum is a string (a string enum, whose type relates to
    /// `string`).
    fn enum_is_string(&self, e: SymbolId) -> bool {
        let members = &self.bound.symbol(e).exports;
        !members.is_empty() && members.values().all(|&m| self.enum_member_is_string(m))
    }

    /// The interface that gives a primitive its members.
    fn apparent(&mut self, t: TypeId) -> Option<TypeId> {
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

    fn declared_members(&mut self, s: SymbolId) -> ObjectType {
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
        let mut members: Vec<(Atom, SymbolId)> = self
            .bound
            .symbol(s)
            .members
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        members.sort_by_key(|(_, id)| *id);
        for (name, m) in members {
            let optional = self.bound.symbol(m).decls.iter().any(|(_, d)| match d {
                BDecl::Member(MemberDecl::PropertySignature(p)) => p.optional,
                BDecl::Member(MemberDecl::MethodSignature(p)) => p.optional,
                BDecl::Member(MemberDecl::ClassProp(p)) => p.is_optional,
                _ => false,
            });
            let prop = PropSymbol {
                name: name.clone(),
                optional,
                declaration: Some(m),
                ..PropSymbol::empty(name.clone())
            };
            obj.insert_symbol(name, Rc::new(prop));
        }
        for (file, d) in &decls {
            if let BDecl::Interface(i) = d {
                for e in &i.body.body {
                    match e {
                        TsTypeElement::TsCallSignatureDecl(c) => {
                            let sig = self.signature_from_parts(
                                *file,
                                c.type_params.as_deref(),
                                &c.params,
                                c.type_ann.as_deref().map(|a| &*a.type_ann),
                                false,
                            );
                            obj.calls.push(Rc::new(sig));
                        }
                        TsTypeElement::TsConstructSignatureDecl(c) => {
                            let sig = self.signature_from_parts(
                                *file,
                                c.type_params.as_deref(),
                                &c.params,
                                c.type_ann.as_deref().map(|a| &*a.type_ann),
                                false,
                            );
                            obj.constructs.push(Rc::new(sig));
                        }
                        TsTypeElement::TsIndexSignature(ix) => {
                            let v = ix
                                .type_ann
                                .as_ref()
                                .map_or(ids::ANY, |a| self.type_from_node(*file, &a.type_ann));
                            let k = ix
                                .params
                                .first()
                                .and_then(fn_param_ann)
                                .map_or(ids::STRING, |a| self.type_from_node(*file, &a.type_ann));
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
        }
        obj
    }

    fn heritage_type(
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

    fn static_members(&mut self, s: SymbolId) -> ObjectType {
        let mut obj = ObjectType::default();
        let decls = self.bound.symbol(s).decls.clone();
        let instance = {
            let d = self.types.of_symbol(11, s);
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
                    let bt = self.types.of_symbol(12, bs);
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
        let mut exports: Vec<(Atom, SymbolId)> = self
            .bound
            .symbol(s)
            .exports
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        exports.sort_by_key(|(_, id)| *id);
        for (name, e) in exports {
            let prop = PropSymbol {
                declaration: Some(e),
                ..PropSymbol::empty(name.clone())
            };
            obj.insert_symbol(name, Rc::new(prop));
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

    // ------------------------------------------------------------------ instantiation

    fn instantiate(&mut self, t: TypeId, m: &Mapper) -> TypeId {
        let f = self.types.flags(t);
        if f & (tflags::GENERIC | tflags::OUTER) == 0 || m.pairs.is_empty() {
            return t;
        }
        if m.this_only && f & (tflags::THIS | tflags::OUTER) == 0 {
            return t;
        }
        if let Some(r) = self.instantiate_anonymous(t, m) {
            return r;
        }
        if let Some(r) = self.instantiation_limited(t) {
            return r;
        }
        if let Some(&r) = self.inst_cache.get(&(t, m.key)) {
            return r;
        }
        self.inst_depth += 1;
        let outer = self.begin_cached();
        let outer_taint = std::mem::replace(&mut self.inst_taint, false);
        let r = match self.types.kind(t).clone() {
            TypeKind::TypeParam(_) => m.get(t).unwrap_or(t),
            TypeKind::Union(ms) => {
                let ts: Vec<TypeId> = ms.iter().map(|&x| self.instantiate(x, m)).collect();
                self.types.union(&ts)
            }
            TypeKind::Intersection(ms) => {
                let ts: Vec<TypeId> = ms.iter().map(|&x| self.instantiate(x, m)).collect();
                self.types.intersection(&ts)
            }
            TypeKind::Reference(s, args) => {
                let args: Box<[TypeId]> = args.iter().map(|&x| self.instantiate(x, m)).collect();
                self.types.reference(s, args)
            }
            TypeKind::Tuple(es) => {
                let es: Box<[TypeId]> = es.iter().map(|&x| self.instantiate(x, m)).collect();
                self.types.tuple(es)
            }
            TypeKind::Object(o) => {
                let obj = self.instantiate_object(&o, m);
                // Anonymous object types are instantiated eagerly (their flags need it).
                let props: Vec<Rc<PropSymbol>> = obj.props.values().cloned().collect();
                for p in props {
                    self.prop_ty(&p);
                }
                let origin = self.types.stable(t) ^ m.stable.rotate_left(17);
                self.types.object(obj, origin)
            }
            TypeKind::Keyof(x) => {
                let x = self.instantiate(x, m);
                self.keyof(x)
            }
            TypeKind::Indexed(o, k) => {
                let o = self.instantiate(o, m);
                let k = self.instantiate(k, m);
                self.indexed_access(o, k)
            }
            TypeKind::LazyAlias(s, args) => {
                let args: Box<[TypeId]> = args.iter().map(|&x| self.instantiate(x, m)).collect();
                self.types.lazy_alias(s, args)
            }
            TypeKind::Conditional(c) => {
                let mapper = self.compose_mapper(&c.root.outer, c.mapper.as_deref(), m);
                self.conditional_type(&c.root, mapper)
            }
            TypeKind::Mapped(mt) => {
                let mapper = self.compose_mapper(&mt.root.outer, mt.mapper.as_deref(), m);
                self.mapped_type(&mt.root, mapper)
            }
            _ => t,
        };
        let clean = self.end_cached(outer);
        self.inst_depth -= 1;
        let tainted = self.inst_taint;
        if clean && !tainted {
            self.inst_cache.insert((t, m.key), r);
        }
        self.inst_taint = outer_taint || tainted;
        r
    }

    fn instantiate_signature(&mut self, sig: &Signature, m: &Mapper) -> Signature {
        let type_params: Box<[TypeId]> = sig
            .type_params
            .iter()
            .copied()
            .filter(|&p| m.get(p).is_none())
            .collect();
        let outer = if type_params.is_empty() {
            None
        } else {
            Some(self.compose_outer(sig.outer.as_deref(), m))
        };
        let predicate = sig.predicate.map(|(i, t)| (i, self.instantiate(t, m)));
        Signature {
            predicate,
            outer,
            type_params,
            params: sig
                .params
                .iter()
                .map(|p| Param {
                    name: p.name.clone(),
                    ty: self.instantiate(p.ty, m),
                })
                .collect(),
            ret: self.instantiate(sig.ret, m),
            min_args: sig.min_args,
            rest: sig.rest,
            method: sig.method,
        }
    }

    /// The members of `o` instantiated by `m` (see `instantiate_members`).
    fn instantiate_object(&mut self, o: &ObjectType, m: &Mapper) -> ObjectType {
        self.instantiate_members(o, m, false)
    }

    // ------------------------------------------------------------------ relations

    /// Whether `s` is assignable to `t`, structurally, with the checker's relation cache.
    pub fn is_assignable(&mut self, s: TypeId, t: TypeId) -> bool {
        // A fresh literal type and its regular type are the same type to every relation.
        let (s, t) = (self.types.regular_literal(s), self.types.regular_literal(t));
        if s == t
            || t == ids::ANY
            || t == ids::UNKNOWN
            || t == ids::ERROR
            || s == ids::ANY
            || s == ids::ERROR
            || s == ids::NEVER
        {
            return true;
        }
        if let Some(&r) = self.relations.get(&(s, t)) {
            self.cached_relation_unreliable(s, t);
            return r;
        }
        let step = if self.relating.contains(&(s, t)) {
            limits::RelationStep::Maybe
        } else {
            self.enter_relation(s, t)
        };
        match step {
            // Assumed related while in progress (or maybe related at a relation limit);
            // results that lean on the assumption are cached only once the outermost
            // relation is settled, so the cache never depends on the order in which
            // relations were asked.
            limits::RelationStep::Maybe => {
                self.assumed = true;
                return true;
            }
            limits::RelationStep::Overflow => return false,
            limits::RelationStep::Compare => {}
        }
        self.relating.insert((s, t));
        let outer_assumed = std::mem::replace(&mut self.assumed, false);
        let outer_lean = self.begin_cached();
        let outer_unreliable = self.begin_unreliable();
        let outer_taint = std::mem::replace(&mut self.inst_taint, false);
        let r = self.structured_assignable(s, t);
        // Property types met through a value placeholder, or instantiations past the depth
        // limit (signatures instantiated in context): not cached for good.
        let tainted = self.inst_taint;
        self.inst_taint = outer_taint || tainted;
        self.end_unreliable(s, t, outer_unreliable);
        let clean = self.end_cached(outer_lean) && !tainted;
        let leaned = self.assumed;
        let outermost = self.finish_relation(s, t, r && leaned && clean);
        if clean && (!r || !leaned || outermost) {
            self.relations.insert((s, t), r);
        }
        self.assumed = outer_assumed || (leaned && r && !outermost);
        r
    }

    fn structured_assignable(&mut self, s: TypeId, t: TypeId) -> bool {
        if self.is_fresh(s)
            && let Some(r) = self.fresh_literal_related(s, t)
        {
            return r;
        }
        self.note_unreliable(s, t);
        if let Some(r) = self.related_by_variance(s, t) {
            return r;
        }
        let sk = self.types.kind(s).clone();
        let tk = self.types.kind(t).clone();
        match (&sk, &tk) {
            (TypeKind::Union(ms), _) => return ms.iter().all(|&m| self.is_assignable(m, t)),
            // A deferred conditional type relates through its constraint (both branches);
            // as a target it is taken to be related (TypeScript relates it only to an
            // identical or similar conditional type; leniency keeps false positives down).
            (TypeKind::Conditional(_), _) => {
                let c = self.conditional_constraint(s);
                return c != s && self.is_assignable(c, t);
            }
            // A concrete source must at least fit one branch.
            (_, TypeKind::Conditional(c)) => {
                if self.types.is_generic(s) {
                    return true;
                }
                let (a, b) = self.conditional_branches(c);
                return self.is_assignable(s, a) || self.is_assignable(s, b);
            }
            (_, TypeKind::Mapped(_)) => return true,
            (_, TypeKind::Union(ms)) => {
                if ms.iter().any(|&m| self.is_assignable(s, m)) {
                    return true;
                }
                if let TypeKind::Boolean = sk {
                    return ms.contains(&ids::TRUE) && ms.contains(&ids::FALSE);
                }
                return false;
            }
            (_, TypeKind::Intersection(ms)) => return ms.iter().all(|&m| self.is_assignable(s, m)),
            (TypeKind::Intersection(ms), _) if ms.iter().any(|&m| self.is_assignable(m, t)) => {
                return true;
            }
            (TypeKind::LazyAlias(a, args), _) => {
                let r = self.type_reference(*a, args.to_vec());
                return r == s || self.is_assignable(r, t);
            }
            (_, TypeKind::LazyAlias(a, args)) => {
                let r = self.type_reference(*a, args.to_vec());
                return r == t || self.is_assignable(s, r);
            }
            _ => {}
        }
        use TypeKind as K;
        match (&sk, &tk) {
            (K::Undefined, K::Void) => true,
            (K::Undefined | K::Null, _) => false,
            (_, K::Undefined | K::Null | K::Void | K::Never) => false,
            (K::StringLit(_), K::String)
            | (K::NumberLit(_), K::Number)
            | (K::BoolLit(_), K::Boolean)
            | (K::BigIntLit(_), K::BigInt) => true,
            (K::StringLit(a), K::StringLit(b)) => a == b,
            (K::NumberLit(a), K::NumberLit(b)) => a == b,
            // String enums relate to `string`, numeric ones to `number` (both ways), as
            // their members' values say.
            (K::EnumLiteral(m), K::String) => self.enum_member_is_string(*m),
            (K::Enum(e), K::String) => self.enum_is_string(*e),
            (K::EnumLiteral(m), K::Number) => !self.enum_member_is_string(*m),
            (K::Enum(e), K::Number) => !self.enum_is_string(*e),
            (K::NumberLit(_) | K::Number, K::Enum(e)) => !self.enum_is_string(*e),
            (K::EnumLiteral(m), K::Enum(e)) => {
                self.bound.symbol(*e).exports.values().any(|x| x == m)
            }
            (K::EnumLiteral(_), K::EnumLiteral(_)) | (K::Enum(_), K::Enum(_)) => false,
            (
                K::String | K::Number | K::Boolean | K::BigInt | K::EsSymbol,
                K::String | K::Number | K::Boolean | K::BigInt | K::EsSymbol,
            ) => false,
            (
                _,
                K::StringLit(_)
                | K::NumberLit(_)
                | K::BoolLit(_)
                | K::BigIntLit(_)
                | K::EnumLiteral(_)
                | K::Enum(_),
            ) => false,
            (_, K::String | K::Number | K::Boolean | K::BigInt | K::EsSymbol) => false,
            (
                K::String
                | K::Number
                | K::Boolean
                | K::BigInt
                | K::EsSymbol
                | K::StringLit(_)
                | K::NumberLit(_)
                | K::BoolLit(_)
                | K::BigIntLit(_),
                K::NonPrimitive,
            ) => false,
            (_, K::NonPrimitive) => true,
            (K::TypeParam(p), _) => match self.constraint_of(*p) {
                Some(c) if c != s => self.is_assignable(c, t),
                _ => false,
            },
            (_, K::TypeParam(_)) => false,
            (K::Keyof(_) | K::Indexed(..), _) | (_, K::Keyof(_) | K::Indexed(..)) => true,
            _ => self.structural(s, t),
        }
    }

    fn structural(&mut self, s: TypeId, t: TypeId) -> bool {
        let tm = self.members(t);
        let sm = self.members(s);
        for name in &tm.order {
            let tp = &tm.props[name];
            match sm.props.get(name) {
                Some(sp) => {
                    // An optional property does not fill a required one.
                    if sp.optional && !tp.optional {
                        return false;
                    }
                    let (sty, mut tty) = (self.prop_ty(sp), self.prop_ty(tp));
                    if tp.optional {
                        // An optional property also takes `undefined` (TypeScript without
                        // `exactOptionalPropertyTypes`).
                        tty = self.types.union(&[tty, ids::UNDEFINED]);
                    }
                    if !self.is_assignable(sty, tty) {
                        return false;
                    }
                }
                None => {
                    if tp.optional {
                        continue;
                    }
                    // Primitives' and functions' own members come from their apparent types.
                    if self.property_type(s, name).is_none() {
                        return false;
                    }
                }
            }
        }
        if let Some(tsig) = tm.calls.first() {
            let erase = sm.calls.len() != 1 || tm.calls.len() != 1;
            let ok = sm
                .calls
                .iter()
                .any(|ss| self.signature_related(ss, tsig, erase));
            if !(ok || sm.calls.is_empty() && matches!(self.types.kind(s), TypeKind::Any)) {
                return false;
            }
        }
        if let Some(tsig) = tm.constructs.first()
            && !sm.constructs.iter().any(|ss| {
                let erase = sm.constructs.len() != 1 || tm.constructs.len() != 1;
                self.signature_related(ss, tsig, erase)
            })
        {
            return false;
        }
        if let Some(ti) = tm.string_index
            && sm.string_index.is_none()
        {
            let names = sm.order.clone();
            for n in names {
                let pt = self.prop_ty(&sm.props[&n]);
                if !self.is_assignable(pt, ti) {
                    return false;
                }
            }
        }
        true
    }

    /// Two signatures compared as plain ones (a generic source is first instantiated in
    /// the target's context by `signature_related`; a target's own type parameters stay as
    /// they are).
    fn signature_assignable(&mut self, s: &Signature, t: &Signature) -> bool {
        if self.measuring() {
            return self.signature_related_measuring(s, t, false);
        }
        if s.min_args > t.params.len() && !t.rest {
            return false;
        }
        // Parameters pair up by position, a rest parameter giving its element (or tuple
        // element) type to every position from its own.
        let n = s.params.len().max(t.params.len());
        for i in 0..n {
            let (Some(sp), Some(tp)) = (self.param_at(s, i), self.param_at(t, i)) else {
                continue;
            };
            // Parameters are compared bivariantly, as TypeScript does for methods.
            if !self.is_assignable(tp, sp) && !self.is_assignable(sp, tp) {
                return false;
            }
        }
        if let Some(related) = self.predicate_related(s, t) {
            return related;
        }
        t.ret == ids::VOID || self.is_assignable(s.ret, t.ret)
    }

    // ------------------------------------------------------------------ properties

    /// A property's type, resolved on first use (as TypeScript resolves member symbols).
    fn prop_ty(&mut self, p: &PropSymbol) -> TypeId {
        let t = p.ty.get();
        if t != UNRESOLVED {
            return t;
        }
        let outer = self.begin_cached();
        let outer_taint = std::mem::replace(&mut self.inst_taint, false);
        let t = match (&p.origin, p.declaration) {
            (Some((origin, mapper)), _) => {
                let base = self.prop_ty(origin);
                self.instantiate(base, mapper)
            }
            (None, Some(decl)) => self.type_of_symbol(decl),
            (None, None) => ids::ANY,
        };
        let clean = self.end_cached(outer);
        let tainted = self.inst_taint;
        if clean && !tainted {
            p.ty.set(t);
        }
        self.inst_taint = outer_taint || tainted;
        t
    }

    /// Property `name` among `t`'s own members and index signatures (an optional one with
    /// `undefined`), not those `Object` or `Function` lend it.
    pub(super) fn declared_property_type(&mut self, t: TypeId, name: &Atom) -> Option<TypeId> {
        let m = self.members(t);
        if let Some(p) = m.props.get(name) {
            let ty = self.prop_ty(p);
            return Some(if p.optional {
                self.types.union(&[ty, ids::UNDEFINED])
            } else {
                ty
            });
        }
        if name.parse::<f64>().is_ok()
            && let Some(i) = m.number_index
        {
            return Some(i);
        }
        m.string_index
    }

    /// The type of property `name` on `t`, or `None` when it has none.
    fn property_type(&mut self, t: TypeId, name: &Atom) -> Option<TypeId> {
        match self.types.kind(t).clone() {
            TypeKind::Any | TypeKind::Unknown if t == ids::ANY || t == ids::ERROR => Some(ids::ANY),
            TypeKind::Any => Some(ids::ANY),
            TypeKind::Union(ms) => {
                let mut out = Vec::with_capacity(ms.len());
                let mut missing = false;
                for &m in ms.iter() {
                    if m == ids::UNDEFINED || m == ids::NULL {
                        continue;
                    }
                    match self.property_type(m, name) {
                        Some(t) => out.push(t),
                        // An object literal's type lacking it gives `undefined`.
                        None if self.types.flags(m)
                            & (tflags::OBJECT_LITERAL | tflags::CONTAINS_SPREAD)
                            == tflags::OBJECT_LITERAL =>
                        {
                            missing = true;
                        }
                        None => return None,
                    }
                }
                if missing {
                    if out.is_empty() {
                        return None;
                    }
                    out.push(ids::UNDEFINED);
                }
                Some(self.types.union(&out))
            }
            TypeKind::Intersection(ms) => {
                let found = self.intersection_property_types(&ms, name);
                if found.is_empty() {
                    None
                } else {
                    Some(self.types.intersection(&found))
                }
            }
            TypeKind::Keyof(_) | TypeKind::Indexed(..) => Some(ids::ANY),
            TypeKind::Conditional(_) => {
                let c = self.conditional_constraint(t);
                if c == t {
                    Some(ids::ANY)
                } else {
                    self.property_type(c, name)
                }
            }
            // A type parameter constrained by a class or interface with a `this` type has
            // its members with `this` := itself (below); others those of their constraint.
            TypeKind::TypeParam(p) if self.this_apparent_target(t).is_none() => {
                match self.constraint_of(p) {
                    Some(c) if c != t => self.property_type(c, name),
                    _ => None,
                }
            }
            TypeKind::Null
            | TypeKind::Undefined
            | TypeKind::Void
            | TypeKind::Never
            | TypeKind::Unknown => None,
            _ => {
                if let Some(ty) = self.declared_property_type(t, name) {
                    return Some(ty);
                }
                let m = self.members(t);
                let fallback = if !m.calls.is_empty() || !m.constructs.is_empty() {
                    self.globals.function
                } else {
                    None
                }
                .or(self.globals.object);
                if let Some(g) = fallback {
                    let gt = self.declared_type(g);
                    if gt != t {
                        let gm = self.members(gt);
                        if let Some(p) = gm.props.get(name) {
                            return Some(self.prop_ty(p));
                        }
                        if let Some(o) = self.globals.object.filter(|&o| Some(o) != Some(g)) {
                            let ot = self.declared_type(o);
                            if let Some(p) = self.members(ot).props.get(name) {
                                return Some(self.prop_ty(p));
                            }
                        }
                    }
                }
                None
            }
        }
    }

    // ------------------------------------------------------------------ expressions

    /// Infers the type of an expression, reporting what is wrong in it (in the main walk).
    pub fn check_expr(&mut self, file: u32, e: &'a Expr, contextual: Option<TypeId>) -> TypeId {
        if self.measuring() {
            return self.outside_measurement(|c| c.check_expr(file, e, contextual));
        }
        let const_outer = self.const_context;
        self.const_context = const_outer && passes_const_context(e);
        let t = self.check_expr_in_context(file, e, contextual);
        self.const_context = const_outer;
        t
    }

    fn check_expr_in_context(
        &mut self,
        file: u32,
        e: &'a Expr,
        contextual: Option<TypeId>,
    ) -> TypeId {
        self.depth += 1;
        let entered = self.enter_node(file, expr_lo(e));
        let t = if self.depth > MAX_DEPTH {
            self.too_deep(file, expr_lo(e));
            ids::ERROR
        } else {
            self.check_expr_inner(file, e, contextual)
        };
        self.leave_node(entered);
        self.depth -= 1;
        let mut links = NodeLinks::new(EXPRESSION_NODE, t);
        links.contextual_type = contextual;
        if let Expr::Ident(i) = e {
            links.resolved_symbol = self.bound.resolve(file, i.span.lo.0, &i.sym);
        }
        if let Expr::Call(_) | Expr::New(_) = e {
            links.resolved_signature = self
                .resolved_signatures
                .get(&node_key(file, expr_lo(e)))
                .cloned();
        }
        self.node_links.insert(node_key(file, expr_lo(e)), links);
        t
    }

    fn check_expr_inner(&mut self, file: u32, e: &'a Expr, contextual: Option<TypeId>) -> TypeId {
        match e {
            Expr::Ident(i) => self.check_ident(file, i),
            Expr::This(_) => self.this_types.last().copied().unwrap_or(ids::ANY),
            Expr::Lit(l) => match l {
                // A literal expression has its literal's fresh type.
                Lit::Str(_) | Lit::Num(_) | Lit::Bool(_) | Lit::Null(_) => {
                    let t = self.literal_type(l).unwrap_or(ids::ANY);
                    self.types.fresh_literal(t)
                }
                Lit::BigInt(b) => {
                    let t = self.types.bigint_lit(&Atom::from(b.value.to_string()));
                    self.types.fresh_literal(t)
                }
                Lit::Regex(_) => self
                    .globals
                    .regexp
                    .map_or(ids::ANY, |r| self.declared_type(r)),
                Lit::JSXText(_) => ids::STRING,
            },
            Expr::Tpl(t) => {
                for x in &t.exprs {
                    self.check_expr(file, x, None);
                }
                ids::STRING
            }
            Expr::TaggedTpl(t) => {
                self.check_expr(file, &t.tag, None);
                for x in &t.tpl.exprs {
                    self.check_expr(file, x, None);
                }
                ids::ANY
            }
            Expr::Array(a) => {
                // `null` and `undefined` in the contextual type give no element type.
                let contextual = contextual
                    .map(|c| self.types.non_nullable(c))
                    .filter(|&c| c != ids::NEVER);
                if self.const_context
                    && a.elems
                        .iter()
                        .all(|e| e.as_ref().is_some_and(|e| e.spread.is_none()))
                {
                    return self.check_const_array(file, a, contextual);
                }
                // An array literal in a tuple context is a tuple.
                if let Some(TypeKind::Tuple(es)) = contextual.map(|c| self.types.kind(c).clone())
                    && a.elems
                        .iter()
                        .all(|e| e.as_ref().is_some_and(|e| e.spread.is_none()))
                {
                    let elems: Box<[TypeId]> = a
                        .elems
                        .iter()
                        .flatten()
                        .enumerate()
                        .map(|(i, el)| {
                            let ctx = es.get(i).copied();
                            self.check_expr(file, &el.expr, ctx)
                        })
                        .collect();
                    return self.types.tuple(elems);
                }
                let ctx_elem = contextual.map(|c| self.element_type(c));
                let mut ts = Vec::with_capacity(a.elems.len());
                for el in a.elems.iter().flatten() {
                    let t = self.check_expr(file, &el.expr, ctx_elem);
                    ts.push(if el.spread.is_some() {
                        self.element_type(t)
                    } else {
                        t
                    });
                }
                let u = self.types.union(&ts);
                let u = if ctx_elem.is_some_and(|c| self.is_assignable(u, c)) {
                    u
                } else {
                    self.types.widen(u)
                };
                let u = if ts.is_empty() { ids::NEVER } else { u };
                self.array_of(u)
            }
            Expr::Object(o) => self.check_object(file, o, contextual),
            Expr::Fn(f) => {
                let sig = contextual.and_then(|c| self.members(c).calls.first().cloned());
                self.check_function(file, &f.function, sig.as_deref())
            }
            Expr::Arrow(a) => self.check_arrow(file, a, contextual),
            Expr::Class(c) => {
                self.check_class(file, &c.class, c.ident.as_ref().map_or(0, |i| i.span.lo.0));
                match c.ident.as_ref().and_then(|i| {
                    self.bound.files[file as usize]
                        .node_symbols
                        .get(&i.span.lo.0)
                        .copied()
                }) {
                    Some(s) => self.types.of_symbol(12, s),
                    None => ids::ANY,
                }
            }
            Expr::Unary(u) => {
                let t = self.check_expr(file, &u.arg, None);
                match u.op {
                    UnaryOp::TypeOf => ids::STRING,
                    UnaryOp::Void => ids::UNDEFINED,
                    UnaryOp::Delete | UnaryOp::Bang => ids::BOOLEAN,
                    UnaryOp::Minus | UnaryOp::Plus | UnaryOp::Tilde => {
                        if matches!(
                            self.types.kind(t),
                            TypeKind::BigInt | TypeKind::BigIntLit(_)
                        ) {
                            ids::BIGINT
                        } else {
                            ids::NUMBER
                        }
                    }
                }
            }
            Expr::Update(u) => {
                self.check_expr(file, &u.arg, None);
                ids::NUMBER
            }
            Expr::Bin(b) => self.check_binary(file, b, contextual),
            Expr::Assign(a) => {
                let target = match &a.left {
                    AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => {
                        Some(self.check_ident_declared(file, &b.id))
                    }
                    AssignTarget::Simple(SimpleAssignTarget::Member(m)) => {
                        Some(self.check_member(file, m, true))
                    }
                    _ => None,
                };
                let r = self.check_expr(file, &a.right, target);
                if a.op == AssignOp::Assign
                    && let Some(t) = target
                    && !self.is_assignable(r, t)
                    && !self.report_excess(file, &a.right, t)
                {
                    let msg = self.not_assignable(r, t);
                    self.report(file, a.span.lo.0, Code::NotAssignable, msg);
                }
                r
            }
            // A property's literal type is regular (TypeScript's property types are).
            Expr::Member(m) => {
                let t = self.check_member(file, m, false);
                self.regular_literals(t)
            }
            Expr::SuperProp(_) => ids::ANY,
            Expr::Cond(c) => {
                self.check_expr(file, &c.test, None);
                let a = self.check_expr(file, &c.cons, contextual);
                let b = self.check_expr(file, &c.alt, contextual);
                self.union_without_empty_literal(a, b)
            }
            Expr::Call(c) => {
                let callee = match &c.callee {
                    Callee::Expr(x) => self.check_expr(file, x, None),
                    Callee::Super(_) | Callee::Import(_) => ids::ANY,
                };
                self.check_call(
                    file,
                    callee,
                    &c.args,
                    c.type_args.as_deref(),
                    c.span.lo.0,
                    false,
                    contextual,
                )
            }
            Expr::New(n) => {
                let callee = self.check_expr(file, &n.callee, None);
                let args: &'a [ExprOrSpread] = n.args.as_deref().unwrap_or(&[]);
                self.check_call(
                    file,
                    callee,
                    args,
                    n.type_args.as_deref(),
                    n.span.lo.0,
                    true,
                    contextual,
                )
            }
            Expr::Seq(s) => {
                let mut t = ids::UNDEFINED;
                for x in &s.exprs {
                    t = self.check_expr(file, x, None);
                }
                t
            }
            Expr::Yield(y) => {
                if let Some(a) = &y.arg {
                    self.check_expr(file, a, None);
                }
                ids::ANY
            }
            Expr::Await(a) => {
                let t = self.check_expr(file, &a.arg, None);
                self.awaited(t)
            }
            Expr::Paren(p) => self.check_expr(file, &p.expr, contextual),
            Expr::TsAs(x) => {
                self.check_type_node(file, &x.type_ann);
                let t = self.type_from_node(file, &x.type_ann);
                self.check_expr(file, &x.expr, Some(t));
                t
            }
            Expr::TsTypeAssertion(x) => {
                self.check_type_node(file, &x.type_ann);
                let t = self.type_from_node(file, &x.type_ann);
                self.check_expr(file, &x.expr, Some(t));
                t
            }
            Expr::TsSatisfies(x) => {
                self.check_type_node(file, &x.type_ann);
                let t = self.type_from_node(file, &x.type_ann);
                let v = self.check_expr(file, &x.expr, Some(t));
                if !self.is_assignable(v, t) && !self.report_excess(file, &x.expr, t) {
                    let msg = self.not_assignable(v, t);
                    self.report(file, x.span.lo.0, Code::NotAssignable, msg);
                }
                v
            }
            Expr::TsConstAssertion(x) => {
                let outer = std::mem::replace(&mut self.const_context, true);
                let t = self.check_expr(file, &x.expr, contextual);
                self.const_context = outer;
                // `as const` gives regular literal types, which widening keeps.
                self.regular_literals(t)
            }
            Expr::TsNonNull(x) => {
                let t = self.check_expr(file, &x.expr, contextual);
                self.types.non_nullable(t)
            }
            Expr::TsInstantiation(x) => self.check_expr(file, &x.expr, None),
            Expr::OptChain(o) => match &*o.base {
                OptChainBase::Member(m) => {
                    let t = self.check_member(file, m, false);
                    self.types.union(&[t, ids::UNDEFINED])
                }
                OptChainBase::Call(c) => {
                    let callee = self.check_expr(file, &c.callee, None);
                    let callee = self.types.non_nullable(callee);
                    let t = self.check_call(
                        file,
                        callee,
                        &c.args,
                        c.type_args.as_deref(),
                        c.span.lo.0,
                        false,
                        None,
                    );
                    self.types.union(&[t, ids::UNDEFINED])
                }
            },
            Expr::JSXElement(el) => {
                self.check_jsx(file, el);
                ids::ANY
            }
            Expr::JSXFragment(f) => {
                self.check_jsx_children(file, &f.children);
                ids::ANY
            }
            Expr::MetaProp(_)
            | Expr::PrivateName(_)
            | Expr::JSXMember(_)
            | Expr::JSXNamespacedName(_)
            | Expr::JSXEmpty(_)
            | Expr::Invalid(_) => ids::ANY,
        }
    }

    fn check_jsx(&mut self, file: u32, el: &'a JSXElement) {
        for a in &el.opening.attrs {
            match a {
                JSXAttrOrSpread::SpreadElement(s) => {
                    self.check_expr(file, &s.expr, None);
                }
                JSXAttrOrSpread::JSXAttr(a) => match &a.value {
                    Some(JSXAttrValue::JSXExprContainer(c)) => {
                        if let JSXExpr::Expr(e) = &c.expr {
                            self.check_expr(file, e, None);
                        }
                    }
                    Some(JSXAttrValue::JSXElement(e)) => self.check_jsx(file, e),
                    _ => {}
                },
            }
        }
        self.check_jsx_children(file, &el.children);
    }

    fn check_jsx_children(&mut self, file: u32, children: &'a [JSXElementChild]) {
        for c in children {
            match c {
                JSXElementChild::JSXExprContainer(c) => {
                    if let JSXExpr::Expr(e) = &c.expr {
                        self.check_expr(file, e, None);
                    }
                }
                JSXElementChild::JSXSpreadChild(s) => {
                    self.check_expr(file, &s.expr, None);
                }
                JSXElementChild::JSXElement(e) => self.check_jsx(file, e),
                JSXElementChild::JSXFragment(f) => self.check_jsx_children(file, &f.children),
                JSXElementChild::JSXText(_) => {}
            }
        }
    }

    /// The type of an identifier reference, narrowed by control flow.
    fn check_ident(&mut self, file: u32, i: &Ident) -> TypeId {
        let declared = self.check_ident_declared(file, i);
        let pos = i.span.lo.0;
        let Some(&flow) = self.bound.files[file as usize].flow_of.get(&pos) else {
            return declared;
        };
        match self.bound.resolve(file, pos, &i.sym) {
            Some(s) if self.is_narrowable(file, s, declared) => {
                self.flow_type_of_reference(file, narrow::Reference::symbol(s), declared, flow)
            }
            _ => declared,
        }
    }

    /// The declared type of what an identifier names (an assignment's target).
    fn check_ident_declared(&mut self, file: u32, i: &Ident) -> TypeId {
        if i.sym.as_str() == "undefined" {
            return ids::UNDEFINED;
        }
        match self.bound.resolve(file, i.span.lo.0, &i.sym) {
            Some(s) => {
                let target = self.resolve_alias(s);
                let tf = self.bound.symbol(target).flags;
                if target != s && tf & flags::VALUE == 0 && tf != 0 {
                    return ids::ANY;
                }
                self.type_of_symbol(s)
            }
            None if i.sym.as_str() == "globalThis" => ids::ANY,
            // Every non-arrow function has an implicit `arguments` (TypeScript's
            // `argumentsSymbol`), typed by the library's `IArguments`.
            None if i.sym.as_str() == "arguments" => {
                match self.bound.globals.get(&Atom::from("IArguments")).copied() {
                    Some(s) => self.declared_type(s),
                    None => ids::ANY,
                }
            }
            None => {
                if !self.files[file as usize].is_lib {
                    self.report(
                        file,
                        i.span.lo.0,
                        Code::CannotFindName,
                        format!("Cannot find name '{}'.", i.sym),
                    );
                }
                ids::ERROR
            }
        }
    }

    fn check_member(&mut self, file: u32, m: &'a MemberExpr, write: bool) -> TypeId {
        let obj = self.check_expr(file, &m.obj, None);
        let obj = if write {
            obj
        } else {
            self.array_union_receiver(obj)
        };
        match &m.prop {
            MemberProp::Ident(name) => match self.property_type(obj, &name.sym) {
                Some(t) if write => t,
                Some(t) => self.narrow_property_reference(file, m, t),
                None => {
                    let on = self.shown_for_missing_property(obj);
                    let shown = self.type_to_string(on);
                    self.report(
                        file,
                        name.span.lo.0,
                        Code::NoProperty,
                        format!(
                            "Property '{}' does not exist on type '{}'.",
                            name.sym, shown
                        ),
                    );
                    ids::ERROR
                }
            },
            MemberProp::Computed(c) => {
                let k = self.check_expr(file, &c.expr, None);
                match self.types.kind(k).clone() {
                    TypeKind::StringLit(s) => self.property_type(obj, &s).unwrap_or(ids::ANY),
                    TypeKind::NumberLit(_) | TypeKind::Number => {
                        if let (TypeKind::Tuple(es), TypeKind::NumberLit(n)) =
                            (self.types.kind(obj).clone(), self.types.kind(k).clone())
                        {
                            return es.get(n as usize).copied().unwrap_or(ids::UNDEFINED);
                        }
                        self.element_type(obj)
                    }
                    _ => {
                        let mm = self.members(obj);
                        mm.string_index.unwrap_or(ids::ANY)
                    }
                }
            }
            MemberProp::PrivateName(_) => ids::ANY,
        }
    }

    fn check_object(&mut self, file: u32, o: &'a ObjectLit, contextual: Option<TypeId>) -> TypeId {
        let mut obj = ObjectType::default();
        for p in &o.props {
            match p {
                PropOrSpread::Spread(s) => {
                    let t = self.check_expr(file, &s.expr, None);
                    let m = self.spread_members(t);
                    for name in &m.order {
                        let p = &m.props[name];
                        // A spread literal's own members are not this literal's.
                        let p = if p.check_flags & LITERAL_MEMBER != 0 {
                            Rc::new(PropSymbol {
                                check_flags: p.check_flags & !LITERAL_MEMBER,
                                ..(**p).clone()
                            })
                        } else {
                            p.clone()
                        };
                        self.insert_spread_prop(&mut obj, name, p);
                    }
                }
                PropOrSpread::Prop(p) => {
                    // Function bodies are not in the literal's const context.
                    let in_const = self.const_context;
                    if matches!(&**p, Prop::Getter(_) | Prop::Setter(_) | Prop::Method(_)) {
                        self.const_context = false;
                    }
                    let (name, ty) = match &**p {
                        Prop::Shorthand(i) => (Some(i.sym.clone()), self.check_ident(file, i)),
                        Prop::KeyValue(kv) => {
                            let name = bind::prop_name(&kv.key);
                            if let PropName::Computed(c) = &kv.key {
                                self.check_expr(file, &c.expr, None);
                            }
                            let ctx = match (&name, contextual) {
                                (Some(n), Some(c)) => self.property_type(c, n),
                                _ => None,
                            };
                            let t = self.check_expr(file, &kv.value, ctx);
                            (name, t)
                        }
                        Prop::Assign(a) => (
                            Some(a.key.sym.clone()),
                            self.check_expr(file, &a.value, None),
                        ),
                        Prop::Getter(g) => {
                            let t = self.check_function(file, &g.function, None);
                            let ret = self.members(t).calls.first().map_or(ids::ANY, |s| s.ret);
                            (bind::prop_name(&g.key), ret)
                        }
                        Prop::Setter(st) => {
                            self.check_function(file, &st.function, None);
                            (bind::prop_name(&st.key), ids::ANY)
                        }
                        Prop::Method(m) => {
                            let t = self.check_function(file, &m.function, None);
                            (bind::prop_name(&m.key), t)
                        }
                    };
                    self.const_context = in_const;
                    if let Some(name) = name {
                        let ctx = match contextual {
                            Some(c) => self.property_type(c, &name),
                            None => None,
                        };
                        let ty = if in_const {
                            ty
                        } else {
                            self.widen_unless_literal_context(ty, ctx)
                        };
                        let symbol = PropSymbol {
                            ty: std::cell::Cell::new(ty),
                            check_flags: LITERAL_MEMBER,
                            ..PropSymbol::empty(name.clone())
                        };
                        obj.insert_symbol(name, Rc::new(symbol));
                    }
                }
            }
        }
        let t = self.types.fresh_object(obj, node_key(file, o.span.lo.0));
        let spread = o.props.iter().any(|p| matches!(p, PropOrSpread::Spread(_)));
        self.types.mark_object_literal(t, spread);
        t
    }

    /// A union of fresh object literal types widened (TypeScript's `getWidenedType` with a
    /// union context), regular: each object literal member gets the properties the others (written
    /// without spreads) have and it lacks as optional `undefined` ones; arrays' element
    /// types likewise.
    fn normalize_literal_union(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                let lit = |c: &Self, m: TypeId| c.types.flags(m) & tflags::OBJECT_LITERAL != 0;
                if ms.iter().filter(|&&m| lit(self, m)).count() < 2 {
                    return self.regular_type(t);
                }
                // Members written with a spread take the others' properties but give none
                // (TypeScript's getPropertiesOfContext).
                let mut names: Vec<Atom> = Vec::new();
                for &m in ms.iter() {
                    if self.types.flags(m) & (tflags::OBJECT_LITERAL | tflags::CONTAINS_SPREAD)
                        != tflags::OBJECT_LITERAL
                    {
                        continue;
                    }
                    if let TypeKind::Object(o) = self.types.kind(m) {
                        for n in &o.order {
                            if !names.contains(n) {
                                names.push(n.clone());
                            }
                        }
                    }
                }
                let mut out = Vec::with_capacity(ms.len());
                for &m in ms.iter() {
                    let is_lit = lit(self, m);
                    let r = self.regular_type(m);
                    let o = match self.types.kind(r) {
                        TypeKind::Object(o) if is_lit => o.clone(),
                        _ => {
                            out.push(r);
                            continue;
                        }
                    };
                    if names.iter().all(|n| o.props.contains_key(n)) {
                        out.push(r);
                        continue;
                    }
                    let mut obj = (*o).clone();
                    for n in &names {
                        if !obj.props.contains_key(n) {
                            let symbol = PropSymbol {
                                ty: std::cell::Cell::new(ids::UNDEFINED),
                                optional: true,
                                ..PropSymbol::empty(n.clone())
                            };
                            obj.insert_symbol(n.clone(), Rc::new(symbol));
                        }
                    }
                    let origin = self.types.stable(m).rotate_left(7) ^ 0x6e6f_726d;
                    out.push(self.types.object(obj, origin));
                }
                self.types.union(&out)
            }
            TypeKind::Reference(s, args) if Some(s) == self.globals.array && args.len() == 1 => {
                let e = self.normalize_literal_union(args[0]);
                if e == args[0] { t } else { self.array_of(e) }
            }
            _ => self.regular_type(t),
        }
    }

    /// Whether `t` is the fresh type of an empty object literal `{}`, which TypeScript's
    /// strict subtype relation puts below any object type it is assignable to (and not
    /// above a non-empty one).
    fn is_fresh_empty_literal(&self, t: TypeId) -> bool {
        self.types.flags(t) & tflags::FRESH_LITERAL != 0
            && matches!(self.types.kind(t), TypeKind::Object(o) if o.props.is_empty()
                && o.calls.is_empty() && o.constructs.is_empty()
                && o.string_index.is_none() && o.number_index.is_none())
    }

    /// The type of `c ? a : b`: the union of both branches, without a branch `{}` (a fresh
    /// empty object literal) that the other branch's object type takes (TypeScript reduces
    /// the union by strict subtypes; only this part of it is done here).
    fn union_without_empty_literal(&mut self, a: TypeId, b: TypeId) -> TypeId {
        for (e, o) in [(a, b), (b, a)] {
            if !self.is_fresh_empty_literal(e) || self.is_fresh_empty_literal(o) {
                continue;
            }
            let target = self.types.non_nullable(o);
            let object_like = |k: &TypeKind| {
                matches!(
                    k,
                    TypeKind::Object(_) | TypeKind::Declared(_) | TypeKind::Reference(..)
                )
            };
            let takes = match self.types.kind(target).clone() {
                TypeKind::Union(ms) => ms.iter().any(|&m| object_like(self.types.kind(m))),
                k => object_like(&k),
            };
            if takes && self.is_assignable(e, target) {
                return o;
            }
        }
        self.types.union(&[a, b])
    }

    /// An array literal in a const context: a tuple of its elements' types, unwidened
    /// (TypeScript's `readonly ["a", 1]`; `readonly` is not modelled).
    fn check_const_array(
        &mut self,
        file: u32,
        a: &'a ArrayLit,
        contextual: Option<TypeId>,
    ) -> TypeId {
        let tuple_ctx = match contextual.map(|c| self.types.kind(c).clone()) {
            Some(TypeKind::Tuple(es)) => Some(es),
            _ => None,
        };
        let elem_ctx = match (&tuple_ctx, contextual) {
            (None, Some(c)) => Some(self.element_type(c)),
            _ => None,
        };
        let elems: Box<[TypeId]> = a
            .elems
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, el)| {
                let ctx = match &tuple_ctx {
                    Some(es) => es.get(i).copied(),
                    None => elem_ctx,
                };
                self.check_expr(file, &el.expr, ctx)
            })
            .collect();
        self.types.tuple(elems)
    }

    /// A declared type from an initializer: widened; regular literal types (from `as
    /// const`, property accesses and annotations) are kept by [`TypeTable::widen`].
    fn widen_unless_const_assertion(&mut self, _init: &Expr, t: TypeId) -> TypeId {
        self.types.widen(t)
    }

    /// `t` with its literal types, or its union members' literal types, made regular
    /// (TypeScript's `getRegularTypeOfLiteralType`).
    fn regular_literals(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t) {
            TypeKind::Union(ms) if ms.iter().any(|&m| self.types.is_fresh_literal(m)) => {
                let ms: Vec<TypeId> = ms.iter().map(|&m| self.types.regular_literal(m)).collect();
                self.types.union(&ms)
            }
            _ => self.types.regular_literal(t),
        }
    }

    fn check_arrow(&mut self, file: u32, a: &'a ArrowExpr, contextual: Option<TypeId>) -> TypeId {
        let ctx_sig = contextual.and_then(|c| {
            if matches!(self.types.kind(c), TypeKind::Any) {
                return None;
            }
            self.members(c).calls.first().cloned()
        });
        self.check_type_params(file, a.type_params.as_deref());
        for (i, p) in a.params.iter().enumerate() {
            self.check_pat_annotations(file, p);
            self.contextual_param(file, p, ctx_sig.as_deref(), i);
        }
        let declared = a.return_type.as_ref().map(|r| {
            self.check_type_node(file, &r.type_ann);
            let t = self.type_from_node(file, &r.type_ann);
            if a.is_async { self.awaited(t) } else { t }
        });
        let body_type = match &*a.body {
            ArrowFunctionBody::FunctionBody(b) => {
                self.check_body(file, &b.stmts, declared, a.is_async);
                None
            }
            ArrowFunctionBody::Expr(x) => {
                let t = self.check_expr(file, x, declared.or(ctx_sig.as_ref().map(|s| s.ret)));
                let returned = if a.is_async { self.awaited(t) } else { t };
                if let Some(d) = declared
                    && !self.is_assignable(returned, d)
                    && !self.report_excess(file, x, d)
                {
                    let msg = self.not_assignable(returned, d);
                    self.report(file, expr_lo(x), Code::NotAssignable, msg);
                }
                Some(t)
            }
        };
        let type_params = self.type_param_types(file, a.type_params.as_deref());
        let mut params = Vec::with_capacity(a.params.len());
        let mut min_args = 0;
        for (i, p) in a.params.iter().enumerate() {
            let (name, ty, optional) = self.param_info(file, p, i);
            if !optional {
                min_args = i + 1;
            }
            params.push(Param { name, ty });
        }
        let ret = match (declared, body_type) {
            (Some(d), _) => d,
            (None, Some(t)) => {
                let ctx_ret = ctx_sig.as_ref().map(|s| s.ret);
                let t = self.normalize_literal_union(t);
                let t = self.regular_type(t);
                self.widen_unless_literal_context(t, ctx_ret)
            }
            (None, None) => match &*a.body {
                ArrowFunctionBody::FunctionBody(b) => {
                    self.infer_return(file, a.span.lo.0, Some(&b.stmts), None)
                }
                ArrowFunctionBody::Expr(_) => ids::ANY,
            },
        };
        let ret = if a.is_async {
            let awaited = self.awaited(ret);
            self.promise_of(awaited)
        } else {
            ret
        };
        let rest = a.params.last().is_some_and(|p| matches!(p, Pat::Rest(_)));
        let predicate = self.type_predicate(
            file,
            a.return_type.as_deref().map(|r| &*r.type_ann),
            &params,
        );
        let predicate = match (predicate, &a.return_type, params.first(), &*a.body) {
            (None, None, Some(p), body) => {
                let pats: Vec<&Pat> = a.params.iter().collect();
                let body = match body {
                    ArrowFunctionBody::Expr(x) => Some(&**x),
                    ArrowFunctionBody::FunctionBody(b) => narrow::single_return(&b.stmts),
                };
                self.inferred_type_predicate(file, &pats, p.ty, ret, body)
            }
            (p, ..) => p,
        };
        let sig = Signature {
            type_params,
            params,
            ret,
            min_args,
            rest,
            predicate,
            ..Default::default()
        };
        self.function_type(vec![sig], node_key(file, a.span.lo.0))
    }

    fn check_binary(&mut self, file: u32, b: &'a BinExpr, contextual: Option<TypeId>) -> TypeId {
        // The operands of `??`, `||` and `&&` share the expression's context (the right
        // one is the value where the left one is not taken).
        let logical = matches!(
            b.op,
            BinaryOp::NullishCoalescing | BinaryOp::LogicalOr | BinaryOp::LogicalAnd
        );
        let ctx = if logical { contextual } else { None };
        let l = self.check_expr(file, &b.left, None);
        let r = self.check_expr(file, &b.right, ctx);
        use BinaryOp::*;
        match b.op {
            Add => {
                let is_str = |t: &TypeKind| matches!(t, TypeKind::String | TypeKind::StringLit(_));
                if is_str(self.types.kind(l)) || is_str(self.types.kind(r)) {
                    ids::STRING
                } else if l == ids::ANY || r == ids::ANY || l == ids::ERROR || r == ids::ERROR {
                    ids::ANY
                } else if matches!(
                    self.types.kind(l),
                    TypeKind::BigInt | TypeKind::BigIntLit(_)
                ) {
                    ids::BIGINT
                } else {
                    ids::NUMBER
                }
            }
            Sub | Mul | Div | Mod | Exp | BitOr | BitXor | BitAnd | LShift | RShift
            | ZeroFillRShift => {
                if matches!(
                    self.types.kind(l),
                    TypeKind::BigInt | TypeKind::BigIntLit(_)
                ) {
                    ids::BIGINT
                } else {
                    ids::NUMBER
                }
            }
            EqEq | NotEq | EqEqEq | NotEqEq | Lt | LtEq | Gt | GtEq | In | InstanceOf => {
                ids::BOOLEAN
            }
            LogicalAnd => r,
            LogicalOr | NullishCoalescing => {
                let l = self.types.non_nullable(l);
                self.subtype_union(&[l, r])
            }
        }
    }

    /// A union without the members that are strict subtypes of another member (TypeScript's
    /// subtype reduction, as `??` and `||` do it): `T[] | never[]` is `T[]`.
    fn subtype_union(&mut self, parts: &[TypeId]) -> TypeId {
        let joined = self.types.union(parts);
        let TypeKind::Union(members) = self.types.kind(joined).clone() else {
            return joined;
        };
        let mut kept = Vec::with_capacity(members.len());
        for &m in members.iter() {
            // Unresolved indexed, `keyof` and deferred alias types relate loosely here, so
            // they are neither reduced nor reduce.
            let loose = |k: &TypeKind| {
                matches!(
                    k,
                    TypeKind::Indexed(..) | TypeKind::Keyof(_) | TypeKind::LazyAlias(..)
                )
            };
            let strictly_below = !loose(self.types.kind(m))
                && members.iter().any(|&o| {
                    o != m
                        && !loose(self.types.kind(o))
                        && self.is_assignable(m, o)
                        && (!self.is_assignable(o, m)
                            || self.is_fresh_empty_literal(m) && !self.is_fresh_empty_literal(o))
                });
            if !strictly_below {
                kept.push(m);
            }
        }
        if kept.len() == members.len() {
            joined
        } else {
            self.types.union(&kept)
        }
    }

    /// Checks a call or `new`: picks the signature, infers type arguments, checks arguments.
    #[expect(
        clippy::too_many_arguments,
        reason = "a call site passes its parts and its contextual type"
    )]
    fn check_call(
        &mut self,
        file: u32,
        callee: TypeId,
        args: &'a [ExprOrSpread],
        type_args: Option<&'a TsTypeParamInstantiation>,
        pos: u32,
        is_new: bool,
        contextual: Option<TypeId>,
    ) -> TypeId {
        let callee = match self.types.kind(callee) {
            TypeKind::Union(ms) if ms.iter().any(|&m| m == ids::UNDEFINED || m == ids::NULL) => {
                self.types.non_nullable(callee)
            }
            _ => callee,
        };
        if matches!(self.types.kind(callee), TypeKind::Any) {
            for a in args {
                self.check_expr(file, &a.expr, None);
            }
            return ids::ANY;
        }
        let m = self.members(callee);
        let sigs = if is_new {
            m.constructs.clone()
        } else {
            m.calls.clone()
        };
        let sigs = match self.union_call_signatures(callee, &sigs, is_new) {
            Ok(Some(union)) => union,
            Ok(None) => sigs,
            Err(()) => {
                for a in args {
                    self.check_expr(file, &a.expr, None);
                }
                let shown = self.type_to_string(callee);
                let what = if is_new { "constructable" } else { "callable" };
                let msg = format!(
                    "This expression is not {what}. Each member of the union type '{shown}' has signatures, but none of those signatures are compatible with each other."
                );
                self.report(file, pos, Code::NotCallable, msg);
                return ids::ERROR;
            }
        };
        if sigs.is_empty() {
            for a in args {
                self.check_expr(file, &a.expr, None);
            }
            let is_function = self.globals.function.is_some_and(|f| {
                let ft = self.types.of_symbol(11, f);
                callee == ft
            });
            if is_function
                || (is_new && !m.calls.is_empty())
                || matches!(
                    self.types.kind(callee),
                    TypeKind::TypeParam(_)
                        | TypeKind::Keyof(_)
                        | TypeKind::Indexed(..)
                        | TypeKind::LazyAlias(..)
                )
            {
                return ids::ANY;
            }
            let shown = self.type_to_string(callee);
            let what = if is_new { "constructable" } else { "callable" };
            self.report(
                file,
                pos,
                Code::NotCallable,
                format!(
                    "This expression is not {what}. Type '{shown}' has no {} signatures.",
                    if is_new { "construct" } else { "call" }
                ),
            );
            return ids::ERROR;
        }
        let explicit: Option<Vec<TypeId>> = type_args.map(|ta| {
            ta.params
                .iter()
                .map(|t| {
                    self.check_type_node(file, t);
                    self.type_from_node(file, t)
                })
                .collect()
        });
        let n = args.len();
        let has_spread = args.iter().any(|a| a.spread.is_some());
        // Explicit type arguments select only the signatures with that many type parameters
        // (`new Array<T>()` is never the non-generic `new (length?: number): any[]`).
        let type_arity = |s: &Signature| {
            explicit
                .as_ref()
                .is_none_or(|ex| !s.type_params.is_empty() && ex.len() <= s.type_params.len())
        };
        let sigs: Vec<Rc<Signature>> = if sigs.iter().any(|s| type_arity(s)) {
            sigs.iter().filter(|s| type_arity(s)).cloned().collect()
        } else {
            sigs.to_vec()
        };
        let candidates: Vec<Rc<Signature>> = sigs
            .iter()
            .filter(|s| has_spread || (n >= s.min_args && (n <= s.params.len() || s.rest)))
            .cloned()
            .collect();
        if candidates.is_empty() {
            for a in args {
                self.check_expr(file, &a.expr, None);
            }
            let s = &sigs[0];
            let expected = if s.rest {
                format!("at least {}", s.min_args)
            } else if s.min_args == s.params.len() {
                format!("{}", s.params.len())
            } else {
                format!("{}-{}", s.min_args, s.params.len())
            };
            self.report(
                file,
                pos,
                Code::ArgumentCount,
                format!("Expected {expected} arguments, but got {n}."),
            );
            return s.ret;
        }
        // Argument types are computed once, in the context of the first candidate.
        let first =
            self.instantiate_for_call(&candidates[0], explicit.as_deref(), args, file, None);
        let first = match contextual {
            Some(c) if !candidates[0].type_params.is_empty() && explicit.is_none() => {
                self.contextual_instantiation(&candidates[0], &first, c)
            }
            _ => first,
        };
        let arg_types: Vec<TypeId> = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let ctx = self.param_at(&first, i);
                self.check_expr(file, &a.expr, ctx)
            })
            .collect();
        let mut last_failure = None;
        let mut type_arg_failure = None;
        for (ci, cand) in candidates.iter().enumerate() {
            // As in TypeScript's chooseOverload, explicit type arguments that do not satisfy
            // a candidate's constraints rule it out.
            if let (Some(ex), Some(ta)) = (&explicit, type_args)
                && let Some(f) = self.explicit_constraint_failure(file, cand, ex, ta)
            {
                type_arg_failure = Some((f, cand.clone()));
                continue;
            }
            let sig = if ci == 0 && cand.type_params.is_empty() {
                first.clone()
            } else {
                self.instantiate_for_call(cand, explicit.as_deref(), args, file, Some(&arg_types))
            };
            let mut failure = None;
            for (i, &at) in arg_types.iter().enumerate() {
                if args[i].spread.is_some() {
                    continue;
                }
                if let Some(pt) = self.param_at(&sig, i)
                    && !self.is_assignable(at, pt)
                {
                    failure = Some((i, at, pt));
                    break;
                }
            }
            match failure {
                None => {
                    let ret = sig.ret;
                    self.resolved_signatures
                        .insert(node_key(file, pos), Rc::new(sig));
                    return ret;
                }
                Some(f) => last_failure = Some((f, sig.ret)),
            }
        }
        if last_failure.is_none()
            && let (Some(((i, c), cand)), Some(ta)) = (type_arg_failure, type_args)
        {
            return self.report_call_constraint(file, ta, i, c, &cand, args, &arg_types);
        }
        let ((i, at, pt), ret) = last_failure.expect("at least one candidate failed");
        let (a, p) = (self.type_to_string(at), self.type_to_string(pt));
        if candidates.len() > 1 {
            self.report(file, pos, Code::NoOverload, format!("No overload matches this call. Argument of type '{a}' is not assignable to parameter of type '{p}'."));
        } else if !self.report_excess(file, &args[i].expr, pt) {
            self.report(
                file,
                expr_lo(&args[i].expr),
                Code::ArgumentNotAssignable,
                format!("Argument of type '{a}' is not assignable to parameter of type '{p}'."),
            );
        }
        ret
    }

    /// A candidate signature with its type parameters replaced: by explicit arguments, or
    /// by what the argument types say (uninferred ones become their constraint, or unknown).
    /// The first candidate as its arguments' context: type parameters that the call's own
    /// contextual type fixes through the return type take that inference (TypeScript's
    /// return-type inference), so `f(identity({ kind: "a" }))` keeps the literal.
    fn contextual_instantiation(
        &mut self,
        sig: &Signature,
        from_args: &Signature,
        contextual: TypeId,
    ) -> Signature {
        if matches!(
            self.types.kind(contextual),
            TypeKind::Any | TypeKind::Unknown
        ) {
            return from_args.clone();
        }
        let tps = sig.type_params.clone();
        let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
        self.infer_from(sig.ret, contextual, &tps, &mut cands, 0);
        if cands.values().all(|c| c.is_empty()) {
            return from_args.clone();
        }
        let inferred: Vec<TypeId> = tps
            .iter()
            .map(|tp| match cands.get(tp) {
                Some(c) if !c.is_empty() => self.types.union(c),
                _ => *tp,
            })
            .collect();
        let m = Mapper::new(&self.types, &tps, &inferred);
        let partial = self.instantiate_signature(sig, &m);
        // Parameters still naming a type parameter take the argument inference.
        let mut out = partial.clone();
        for (p, q) in out.params.iter_mut().zip(from_args.params.iter()) {
            if self.types.is_generic(p.ty) {
                p.ty = q.ty;
            }
        }
        out
    }

    fn instantiate_for_call(
        &mut self,
        sig: &Signature,
        explicit: Option<&[TypeId]>,
        args: &'a [ExprOrSpread],
        file: u32,
        arg_types: Option<&[TypeId]>,
    ) -> Signature {
        if sig.type_params.is_empty() {
            return sig.clone();
        }
        let tps = sig.type_params.clone();
        let inferred: Vec<TypeId> = match explicit {
            Some(ex) => tps
                .iter()
                .enumerate()
                .map(|(i, _)| ex.get(i).copied().unwrap_or(ids::ANY))
                .collect(),
            None => {
                let mut cands: FxHashMap<TypeId, Vec<TypeId>> = FxHashMap::default();
                let types: Vec<TypeId> = match arg_types {
                    Some(ts) => ts.to_vec(),
                    None => {
                        // First pass: only arguments that are not functions (those need context).
                        self.suppress += 1;
                        let ts = args
                            .iter()
                            .map(|a| {
                                if is_context_sensitive(&a.expr) {
                                    ids::ANY
                                } else {
                                    self.check_expr(file, &a.expr, None)
                                }
                            })
                            .collect();
                        self.suppress -= 1;
                        ts
                    }
                };
                for (i, &at) in types.iter().enumerate() {
                    if let Some(pt) = self.param_at(sig, i) {
                        // An `any` argument infers `any`, but the first pass's placeholders
                        // for context-sensitive arguments do not.
                        if at == ids::ANY && arg_types.is_none() {
                            continue;
                        }
                        self.infer_from(pt, at, &tps, &mut cands, 0);
                    }
                }
                let ret = sig.ret;
                let inferred: Vec<TypeId> = tps
                    .iter()
                    .map(|tp| match cands.get(tp) {
                        Some(c) if !c.is_empty() => {
                            let u = self.types.union(c);
                            let u = self.regular_type(u);
                            // As in TypeScript, an inferred literal widens only where it was
                            // inferred from a top-level parameter position and the type
                            // parameter is neither the top-level return type nor primitively
                            // constrained: `identity("a")` is `"a"`, so is `xs.map(() => "a")`
                            // in a literal context.
                            let param_top = sig.params.iter().any(|p| self.at_top_level(*tp, p.ty));
                            if !param_top
                                || self.at_top_level(*tp, ret)
                                || self.has_primitive_constraint(*tp)
                            {
                                u
                            } else {
                                self.types.widen(u)
                            }
                        }
                        _ => match self.types.kind(*tp) {
                            TypeKind::TypeParam(s) => {
                                let s = *s;
                                let c = self.constraint_of(s);
                                c.map_or(ids::UNKNOWN, |c| self.through_outer(sig, c))
                            }
                            _ => ids::UNKNOWN,
                        },
                    })
                    .collect();
                self.inferred_within_constraints(&tps, inferred)
            }
        };
        let m = Mapper::new(&self.types, &tps, &inferred);
        self.instantiate_signature(sig, &m)
    }

    fn infer_from(
        &mut self,
        p: TypeId,
        a: TypeId,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        if depth > 8 || !self.types.is_generic(p) || a == ids::ERROR {
            return;
        }
        let a = self.expand_lazy(a);
        if a == ids::ANY {
            if tps.contains(&p) {
                out.entry(p).or_default().push(ids::ANY);
            }
            return;
        }
        match (self.types.kind(p).clone(), self.types.kind(a).clone()) {
            (TypeKind::TypeParam(_), _) if tps.contains(&p) => {
                out.entry(p).or_default().push(a);
            }
            (TypeKind::Union(ps), _) if ps.iter().filter(|x| tps.contains(x)).count() == 1 => {
                let naked = *ps.iter().find(|x| tps.contains(x)).unwrap_or(&p);
                self.infer_to_union(&ps, naked, a, tps, out, depth);
            }
            (TypeKind::Union(ps), _) | (TypeKind::Intersection(ps), _) => {
                for x in ps.iter() {
                    self.infer_from(*x, a, tps, out, depth + 1);
                }
            }
            // From each member of a union source.
            (_, TypeKind::Union(as_)) => {
                for y in as_.iter() {
                    self.infer_from(p, *y, tps, out, depth + 1);
                }
            }
            (TypeKind::Reference(ps, pa), TypeKind::Reference(as_, aa)) if ps == as_ => {
                for (x, y) in pa.iter().zip(aa.iter()) {
                    self.infer_from(*x, *y, tps, out, depth + 1);
                }
            }
            (TypeKind::Reference(_, pa), TypeKind::Tuple(es))
                if pa.len() == 1 && self.tuple_infers_to(p) =>
            {
                let e = self.types.union(&es);
                self.infer_from(pa[0], e, tps, out, depth + 1);
            }
            (TypeKind::Tuple(ps), TypeKind::Tuple(es)) => {
                for (x, y) in ps.iter().zip(es.iter()) {
                    self.infer_from(*x, *y, tps, out, depth + 1);
                }
            }
            (TypeKind::Tuple(ps), TypeKind::Reference(s, aa))
                if Some(s) == self.globals.array && aa.len() == 1 =>
            {
                for x in ps.iter() {
                    self.infer_from(*x, aa[0], tps, out, depth + 1);
                }
            }
            // A homomorphic mapped type over an inferred `T` (`Partial<T>`): `T` is about
            // the argument itself (TypeScript reverses the mapping; this keeps it).
            (TypeKind::Mapped(mt), _) => {
                if let Some(h) = mt.root.homomorphic {
                    let h = self.inst_opt(h, mt.mapper.as_deref());
                    if tps.contains(&h) {
                        out.entry(h).or_default().push(a);
                    }
                }
            }
            (TypeKind::Object(_), _) => self.infer_from_members(p, a, tps, out, depth),
            // A generic reference against another object type: member by member, as
            // TypeScript's inferFromObjectTypes (`Set<string>` to `Iterable<T>` through
            // `[Symbol.iterator]`).
            (
                TypeKind::Reference(..),
                TypeKind::Object(_)
                | TypeKind::Declared(_)
                | TypeKind::Reference(..)
                | TypeKind::ClassStatic(_)
                | TypeKind::Intersection(_),
            ) => self.infer_from_members(p, a, tps, out, depth),
            _ => {}
        }
    }

    /// Inference from the members of `a` to those of `p`: properties, call and construct
    /// signatures, the string index.
    fn infer_from_members(
        &mut self,
        p: TypeId,
        a: TypeId,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        let po = self.members(p);
        let am = self.members(a);
        for name in &po.order {
            if let Some(ap) = am.props.get(name) {
                let (x, y) = (self.prop_ty(&po.props[name]), self.prop_ty(ap));
                self.infer_from(x, y, tps, out, depth + 1);
            }
        }
        for (ps, as_) in [(&po.calls, &am.calls), (&po.constructs, &am.constructs)] {
            // TypeScript infers from the last overload.
            let source = if self.cond_infer > 0 {
                as_.last()
            } else {
                as_.first()
            };
            if let (Some(ps), Some(as_)) = (ps.first(), source) {
                let (ps, as_) = (ps.clone(), as_.clone());
                self.infer_from_signature(&ps, &as_, tps, out, depth);
            }
        }
        if let Some(pi) = po.string_index {
            for name in &am.order {
                let y = self.prop_ty(&am.props[name]);
                self.infer_from(pi, y, tps, out, depth + 1);
            }
        }
    }

    fn infer_from_signature(
        &mut self,
        ps: &Signature,
        as_: &Signature,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        // For an `infer`, a generic source signature is erased: its own type parameters
        // become their constraints, or `unknown` (TypeScript's base signature).
        let erased;
        let as_ = if self.cond_infer > 0 && !as_.type_params.is_empty() {
            let tp = as_.type_params.clone();
            let args: Vec<TypeId> = tp
                .iter()
                .map(|&x| self.infer_param_default(x, None, ids::UNKNOWN))
                .collect();
            let m = Mapper::new(&self.types, &tp, &args);
            erased = self.instantiate_signature(as_, &m);
            &erased
        } else {
            as_
        };
        let n = ps.params.len();
        for (i, x) in ps.params.iter().enumerate() {
            if ps.rest && i + 1 == n && tps.contains(&x.ty) {
                // `...args: infer P` takes the remaining parameters as a tuple.
                let rest = if as_.rest && i + 1 == as_.params.len() {
                    as_.params[i].ty
                } else {
                    let fixed = if as_.rest {
                        as_.params.len().saturating_sub(1)
                    } else {
                        as_.params.len()
                    };
                    let es: Box<[TypeId]> = as_
                        .params
                        .iter()
                        .take(fixed)
                        .skip(i)
                        .map(|q| q.ty)
                        .collect();
                    self.types.tuple(es)
                };
                out.entry(x.ty).or_default().push(rest);
                break;
            }
            match as_.params.get(i) {
                Some(y) => self.infer_from(x.ty, y.ty, tps, out, depth + 1),
                None => break,
            }
        }
        self.infer_from_predicate(ps, as_, tps, out, depth);
        self.infer_from(ps.ret, as_.ret, tps, out, depth + 1);
    }

    // ------------------------------------------------------------------ constraints

    /// TS2344 for the type arguments of a reference to a generic class, interface or alias
    /// (`Foo<X>` in a type position, `extends Base<X>`, `implements I<X>`), as TypeScript's
    /// checkTypeReferenceNode and checkClassLikeDeclaration do; `classes_only` for a class's
    /// `extends`, whose type parameters are its base class's.
    fn check_reference_constraints(
        &mut self,
        file: u32,
        entity: &[(u32, Atom)],
        args: Option<&'a TsTypeParamInstantiation>,
        classes_only: bool,
    ) {
        let Some(args) = args else { return };
        let Some(s) = self.resolve_entity(file, entity) else {
            return;
        };
        let s = self.resolve_alias(s);
        let mask = if classes_only {
            flags::CLASS
        } else {
            flags::CLASS | flags::INTERFACE | flags::TYPE_ALIAS
        };
        if self.bound.symbol(s).flags & mask == 0 {
            return;
        }
        let params = self.type_params_of(s);
        let given = args.params.len();
        // A wrong argument count is TS2314; TypeScript checks no constraint then.
        if params.is_empty() || given > params.len() || given < self.required_type_args(s) {
            return;
        }
        let written: Vec<TypeId> = args
            .params
            .iter()
            .map(|t| self.type_from_node(file, t))
            .collect();
        let filled = self.fill_args(s, &params, written);
        // Inside a conditional type TypeScript narrows the checked type in the true branch,
        // which this checker does not model: generic arguments and constraints stay unchecked.
        let decide = self.in_conditional == 0;
        if let Some((i, c)) = self.unsatisfied_constraint(&params, &filled, given, decide, decide)
            && !self.approximated(file, &args.params[i], params[i])
        {
            let pos = ts_type_lo(&args.params[i]);
            self.report_constraint(file, pos, filled[i], c);
        }
    }

    /// For a call with explicit type arguments: the first that does not satisfy candidate
    /// `sig`'s constraint, with that constraint. A constraint that still names type
    /// parameters after instantiation names an outer declaration's (a method's `S extends
    /// T` on an instantiated `Array<T>`), which the signature no longer maps: unchecked.
    fn explicit_constraint_failure(
        &mut self,
        file: u32,
        sig: &Signature,
        explicit: &[TypeId],
        type_args: &'a TsTypeParamInstantiation,
    ) -> Option<(usize, TypeId)> {
        let tps = &sig.type_params;
        if tps.is_empty() || explicit.len() > tps.len() {
            return None;
        }
        let mut args = explicit.to_vec();
        args.resize(tps.len(), ids::ANY);
        let (i, c) = self.unsatisfied_constraint(tps, &args, explicit.len(), true, false)?;
        let approximated = self.approximated(file, &type_args.params[i], tps[i]);
        (!approximated).then_some((i, c))
    }

    /// Reports TS2344 for a call whose every candidate failed on its explicit type
    /// arguments (TypeScript's `candidateForTypeArgumentError`, the last such candidate);
    /// the call's type is that candidate's return type.
    #[allow(clippy::too_many_arguments)]
    fn report_call_constraint(
        &mut self,
        file: u32,
        type_args: &'a TsTypeParamInstantiation,
        i: usize,
        constraint: TypeId,
        cand: &Signature,
        args: &'a [ExprOrSpread],
        arg_types: &[TypeId],
    ) -> TypeId {
        let node = &type_args.params[i];
        let a = self.type_from_node(file, node);
        self.report_constraint(file, ts_type_lo(node), a, constraint);
        let explicit: Vec<TypeId> = type_args
            .params
            .iter()
            .map(|t| self.type_from_node(file, t))
            .collect();
        self.instantiate_for_call(cand, Some(&explicit), args, file, Some(arg_types))
            .ret
    }

    /// TypeScript's checkTypeArgumentConstraints: the first of the `given` written
    /// arguments that does not satisfy its parameter's constraint, instantiated with all of
    /// `args` (defaults filled in), and that constraint. What this checker cannot decide is
    /// taken as satisfied, so it never reports what TypeScript would not: a generic argument
    /// other than a type parameter (whose constraint is related, as TypeScript does), any
    /// generic argument unless `generic_args`, a constraint still generic after
    /// instantiation unless `generic_constraints`. Each verdict is computed once per
    /// checker, and cached only when nothing it met was a cycle's placeholder or a guess
    /// made at a depth limit.
    fn unsatisfied_constraint(
        &mut self,
        params: &[TypeId],
        args: &[TypeId],
        given: usize,
        generic_args: bool,
        generic_constraints: bool,
    ) -> Option<(usize, TypeId)> {
        let mode = (generic_args as u8) | (generic_constraints as u8) << 1;
        let key: ConstraintKey = (params[0], given as u32, mode, args.into());
        if let Some(&v) = self.constraint_checks.get(&key) {
            return v;
        }
        // Only a check started outside any relation, instantiation or alias resolution can
        // be cached: inside one, what it meets may be an assumption or a placeholder.
        let settled = self.relating.is_empty()
            && self.alias_stack.is_empty()
            && self.inst_depth == 0
            && self.type_depth == 0;
        let outer = self.begin_cached();
        let m = Mapper::new(&self.types, params, args);
        let mut verdict = None;
        for i in 0..given.min(params.len()).min(args.len()) {
            let TypeKind::TypeParam(p) = *self.types.kind(params[i]) else {
                continue;
            };
            let Some(c) = self.constraint_of(p) else {
                continue;
            };
            let a = args[i];
            if self.types.is_generic(a)
                && !(generic_args && matches!(self.types.kind(a), TypeKind::TypeParam(_)))
            {
                continue;
            }
            let c = self.instantiate(c, &m);
            if self.types.is_generic(c) && !generic_constraints {
                continue;
            }
            if !self.satisfies(a, c) {
                // Like TypeScript (`result = result && ...`), only the first is reported.
                verdict = Some((i, c));
                break;
            }
        }
        let clean = self.end_cached(outer);
        if clean && settled {
            self.constraint_checks.insert(key, verdict);
        }
        verdict
    }

    /// Whether type argument `a` satisfies constraint `c`. A type parameter is related
    /// through its constraint (`unknown` when it has none), as TypeScript relates a type
    /// parameter's base constraint; a constraint that is generic in a way this checker
    /// cannot relate (`keyof T`, `T[K]`) is taken as satisfied.
    fn satisfies(&mut self, a: TypeId, c: TypeId) -> bool {
        let mut s = a;
        for _ in 0..8 {
            let TypeKind::TypeParam(p) = *self.types.kind(s) else {
                break;
            };
            s = match self.constraint_of(p) {
                Some(x) if x != s => x,
                _ => ids::UNKNOWN,
            };
        }
        if self.types.is_generic(s) && s != c {
            return true;
        }
        // Related like any other pair (cached), but a failure counts only where this
        // checker's relation is TypeScript's: a constraint made of primitives, literals and
        // `object`, and an argument made of those or an object type.
        let related = self.is_assignable(s, c);
        let object = matches!(
            self.types.kind(s),
            TypeKind::Declared(_)
                | TypeKind::Reference(..)
                | TypeKind::Object(_)
                | TypeKind::Tuple(_)
                | TypeKind::ClassStatic(_)
        );
        related || !self.plain(c) || !(object || self.plain(s))
    }

    /// A type this checker relates exactly as TypeScript does: a primitive, a literal,
    /// `object`, `unknown`, or a union of those (not `never`, which stands in for the keys
    /// of a union here, nor enums, whose members relate to literals only approximately).
    fn plain(&self, t: TypeId) -> bool {
        let simple = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::Any
                    | TypeKind::Unknown
                    | TypeKind::Void
                    | TypeKind::Undefined
                    | TypeKind::Null
                    | TypeKind::String
                    | TypeKind::Number
                    | TypeKind::Boolean
                    | TypeKind::BigInt
                    | TypeKind::EsSymbol
                    | TypeKind::NonPrimitive
                    | TypeKind::StringLit(_)
                    | TypeKind::NumberLit(_)
                    | TypeKind::BoolLit(_)
                    | TypeKind::BigIntLit(_)
            )
        };
        match self.types.kind(t) {
            TypeKind::Union(ms) => ms.iter().all(|&m| simple(self.types.kind(m))),
            k => simple(k),
        }
    }

    /// Whether a type argument's meaning, or its parameter's constraint, leans on one of
    /// this checker's approximations (conditional and mapped types, `typeof` of inferred
    /// values, indexed access, `infer`), in the node itself, through the aliases it names
    /// or the constraints of the type parameters it names (bounded in size): a violation
    /// found there may be a constraint TypeScript finds satisfied, so it is not reported.
    fn approximated(&mut self, file: u32, arg: &'a TsType, param: TypeId) -> bool {
        let mut budget = 256;
        if self.node_approximated(file, arg, &mut budget) {
            return true;
        }
        match *self.types.kind(param) {
            TypeKind::TypeParam(p) => self.symbol_approximated(p, &mut budget),
            _ => false,
        }
    }

    fn symbol_approximated(&mut self, s: SymbolId, budget: &mut u32) -> bool {
        let s = self.resolve_alias(s);
        let decls = self.bound.symbol(s).decls.clone();
        for (file, d) in decls {
            let node = match d {
                BDecl::Alias(a) => Some(&*a.type_ann),
                BDecl::TypeParam(p) => p.constraint.as_deref(),
                _ => None,
            };
            if let Some(n) = node
                && self.node_approximated(file, n, budget)
            {
                return true;
            }
        }
        false
    }

    fn node_approximated(&mut self, file: u32, t: &'a TsType, budget: &mut u32) -> bool {
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        match t {
            TsType::TsConditionalType(_)
            | TsType::TsMappedType(_)
            | TsType::TsTypeQuery(_)
            | TsType::TsIndexedAccessType(_)
            | TsType::TsInferType(_)
            | TsType::TsImportType(_)
            | TsType::TsThisType(_) => true,
            TsType::TsTypeRef(r) => {
                if let Some(args) = &r.type_params
                    && args
                        .params
                        .iter()
                        .any(|a| self.node_approximated(file, a, budget))
                {
                    return true;
                }
                match self.resolve_entity(file, &entity_of(&r.type_name)) {
                    Some(s) => self.symbol_approximated(s, budget),
                    None => false,
                }
            }
            TsType::TsArrayType(a) => self.node_approximated(file, &a.elem_type, budget),
            TsType::TsTupleType(tt) => tt
                .elem_types
                .iter()
                .any(|e| self.node_approximated(file, &e.ty, budget)),
            TsType::TsOptionalType(o) => self.node_approximated(file, &o.type_ann, budget),
            TsType::TsRestType(r) => self.node_approximated(file, &r.type_ann, budget),
            TsType::TsParenthesizedType(p) => self.node_approximated(file, &p.type_ann, budget),
            TsType::TsTypeOperator(o) => self.node_approximated(file, &o.type_ann, budget),
            TsType::TsUnionOrIntersectionType(u) => {
                let types = match u {
                    TsUnionOrIntersectionType::TsUnionType(u) => &u.types,
                    TsUnionOrIntersectionType::TsIntersectionType(i) => &i.types,
                };
                types
                    .iter()
                    .any(|t| self.node_approximated(file, t, budget))
            }
            _ => false,
        }
    }

    /// As TypeScript's getInferredType: an inferred type argument that does not satisfy
    /// its constraint (instantiated with the other inferences) becomes that constraint.
    /// Only decided where both are free of type parameters.
    fn inferred_within_constraints(
        &mut self,
        tps: &[TypeId],
        inferred: Vec<TypeId>,
    ) -> Vec<TypeId> {
        let mut out = inferred.clone();
        let m = Mapper::new(&self.types, tps, &inferred);
        for (i, &tp) in tps.iter().enumerate() {
            let v = inferred[i];
            if self.types.is_generic(v) {
                continue;
            }
            let TypeKind::TypeParam(p) = *self.types.kind(tp) else {
                continue;
            };
            let Some(c) = self.constraint_of(p) else {
                continue;
            };
            let c = self.instantiate(c, &m);
            // Decided only where this checker relates as TypeScript does (see `plain`).
            if !self.types.is_generic(c)
                && !self.is_assignable(v, c)
                && self.plain(c)
                && self.plain(v)
            {
                out[i] = c;
            }
        }
        out
    }

    fn report_constraint(&mut self, file: u32, pos: u32, arg: TypeId, constraint: TypeId) {
        if self.suppress > 0 || file != self.current_file {
            return;
        }
        let (a, c) = (self.type_to_string(arg), self.type_to_string(constraint));
        let msg = format!("Type '{a}' does not satisfy the constraint '{c}'.");
        self.report(file, pos, Code::ConstraintNotSatisfied, msg);
    }

    // ------------------------------------------------------------------ printing

    fn not_assignable(&mut self, s: TypeId, t: TypeId) -> String {
        let (a, b) = (self.type_to_string(s), self.type_to_string(t));
        format!("Type '{a}' is not assignable to type '{b}'.")
    }

    /// Prints a type by structure (never by id), bounded in depth and length.
    pub fn type_to_string(&mut self, t: TypeId) -> String {
        let mut out = String::new();
        self.write_type(t, &mut out, 0);
        if out.len() > 200 {
            let mut cut = 197;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str("...");
        }
        out
    }

    fn write_type(&mut self, t: TypeId, out: &mut String, depth: u32) {
        use std::fmt::Write;
        if depth > 3 || out.len() > 220 {
            out.push_str("...");
            return;
        }
        match self.types.kind(t).clone() {
            TypeKind::Any => out.push_str("any"),
            TypeKind::Unknown => out.push_str("unknown"),
            TypeKind::Never => out.push_str("never"),
            TypeKind::Void => out.push_str("void"),
            TypeKind::Undefined => out.push_str("undefined"),
            TypeKind::Null => out.push_str("null"),
            TypeKind::String => out.push_str("string"),
            TypeKind::Number => out.push_str("number"),
            TypeKind::Boolean => out.push_str("boolean"),
            TypeKind::BigInt => out.push_str("bigint"),
            TypeKind::EsSymbol => out.push_str("symbol"),
            TypeKind::NonPrimitive => out.push_str("object"),
            TypeKind::StringLit(s) => {
                let _ = write!(out, "\"{s}\"");
            }
            TypeKind::NumberLit(n) => out.push_str(&bind::format_number(n)),
            TypeKind::BoolLit(b) => out.push_str(if b { "true" } else { "false" }),
            TypeKind::BigIntLit(s) => {
                let _ = write!(out, "{s}n");
            }
            TypeKind::Union(ms) | TypeKind::Intersection(ms) => {
                let sep = if matches!(self.types.kind(t), TypeKind::Union(_)) {
                    " | "
                } else {
                    " & "
                };
                for (i, &m) in ms.iter().enumerate() {
                    if i > 0 {
                        out.push_str(sep);
                    }
                    let paren =
                        matches!(self.types.kind(m), TypeKind::Object(o) if !o.calls.is_empty());
                    if paren {
                        out.push('(');
                    }
                    self.write_type(m, out, depth + 1);
                    if paren {
                        out.push(')');
                    }
                }
            }
            TypeKind::TypeParam(s) if self.is_this_owner(s) => out.push_str("this"),
            TypeKind::TypeParam(s) | TypeKind::Declared(s) | TypeKind::Enum(s) => {
                if self.printing_infer.contains(&t) {
                    out.push_str("infer ");
                }
                out.push_str(&self.bound.symbol(s).name)
            }
            TypeKind::EnumLiteral(s) => out.push_str(&self.bound.symbol(s).name),
            TypeKind::LazyAlias(s, args)
                if !self.alias_stack.iter().any(|e| e.0 == s) && {
                    let r = self.type_reference(s, args.to_vec());
                    r != t
                        && r != ids::ERROR
                        && !matches!(self.types.kind(r), TypeKind::LazyAlias(..))
                } =>
            {
                // A recursive alias prints as what it stands for, as the same alias
                // resolved outside its own resolution does.
                let r = self.type_reference(s, args.to_vec());
                self.write_type(r, out, depth);
            }
            TypeKind::Reference(s, args) | TypeKind::LazyAlias(s, args) => {
                if Some(s) == self.globals.array && args.len() == 1 {
                    let paren = matches!(
                        self.types.kind(args[0]),
                        TypeKind::Union(_) | TypeKind::Intersection(_)
                    ) || matches!(self.types.kind(args[0]), TypeKind::Object(o) if !o.calls.is_empty());
                    if paren {
                        out.push('(');
                    }
                    self.write_type(args[0], out, depth + 1);
                    out.push_str(if paren { ")[]" } else { "[]" });
                } else {
                    out.push_str(&self.bound.symbol(s).name);
                    out.push('<');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write_type(a, out, depth + 1);
                    }
                    out.push('>');
                }
            }
            TypeKind::Tuple(es) => {
                out.push('[');
                for (i, &e) in es.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_type(e, out, depth + 1);
                }
                out.push(']');
            }
            TypeKind::Object(o) => {
                if o.props.is_empty() && o.calls.len() == 1 && o.constructs.is_empty() {
                    let sig = o.calls[0].clone();
                    out.push('(');
                    for (i, p) in sig.params.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        let _ = write!(out, "{}: ", p.name);
                        self.write_type(p.ty, out, depth + 1);
                    }
                    out.push_str(") => ");
                    self.write_type(sig.ret, out, depth + 1);
                    return;
                }
                if o.order.is_empty() && o.calls.is_empty() && o.string_index.is_none() {
                    out.push_str("{}");
                    return;
                }
                out.push_str("{ ");
                for name in o.order.iter().take(6) {
                    let p = o.props[name].clone();
                    let pty = self.prop_ty(&p);
                    let optional = if p.optional { "?" } else { "" };
                    match name.strip_prefix(bind::WELL_KNOWN_PREFIX) {
                        Some(symbol) => write!(out, "[Symbol.{symbol}]{optional}: "),
                        None => write!(out, "{name}{optional}: "),
                    }
                    .ok();
                    self.write_type(pty, out, depth + 1);
                    out.push_str("; ");
                }
                if o.order.len() > 6 {
                    let _ = write!(out, "... {} more ...; ", o.order.len() - 6);
                }
                if let Some(i) = o.string_index {
                    out.push_str("[x: string]: ");
                    self.write_type(i, out, depth + 1);
                    out.push_str("; ");
                }
                out.push('}');
            }
            TypeKind::ClassStatic(s) | TypeKind::Namespace(s) => {
                let _ = write!(out, "typeof {}", self.bound.symbol(s).name);
            }
            TypeKind::Module(f) => {
                let _ = write!(out, "typeof import(\"{}\")", self.files[f as usize].path);
            }
            TypeKind::Keyof(x) => {
                out.push_str("keyof ");
                self.write_type(x, out, depth + 1);
            }
            TypeKind::Indexed(o, k) => {
                self.write_type(o, out, depth + 1);
                out.push('[');
                self.write_type(k, out, depth + 1);
                out.push(']');
            }
            TypeKind::Conditional(c) => {
                let a = self.inst_opt(c.root.true_type, c.mapper.as_deref());
                let b = self.inst_opt(c.root.false_type, c.mapper.as_deref());
                self.write_type(c.check, out, depth + 1);
                out.push_str(" extends ");
                let saved = self.printing_infer.len();
                self.printing_infer
                    .extend(c.root.infer_params.iter().copied());
                self.write_type(c.extends, out, depth + 1);
                self.printing_infer.truncate(saved);
                out.push_str(" ? ");
                self.write_type(a, out, depth + 1);
                out.push_str(" : ");
                self.write_type(b, out, depth + 1);
            }
            TypeKind::Mapped(mt) => {
                let r = mt.root.clone();
                out.push_str("{ ");
                out.push_str(match r.readonly {
                    1 => "readonly ",
                    -1 => "-readonly ",
                    _ => "",
                });
                out.push('[');
                self.write_type(r.param, out, depth + 1);
                out.push_str(" in ");
                self.write_type(mt.constraint, out, depth + 1);
                if let Some(n) = r.name_type {
                    let n = self.inst_opt(n, mt.mapper.as_deref());
                    out.push_str(" as ");
                    self.write_type(n, out, depth + 1);
                }
                out.push_str(match r.optional {
                    1 => "]?: ",
                    -1 => "]-?: ",
                    _ => "]: ",
                });
                let t = self.inst_opt(r.template, mt.mapper.as_deref());
                self.write_type(t, out, depth + 1);
                out.push_str("; }");
            }
        }
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

/// Whether an expression inside a const context is in it too (TypeScript's
/// `isConstContext`: literals, parentheses, conditionals' branches, array and object
/// literals' elements); any other expression starts outside it.
fn passes_const_context(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Lit(_)
            | Expr::Tpl(_)
            | Expr::Paren(_)
            | Expr::Cond(_)
            | Expr::Array(_)
            | Expr::Object(_)
            | Expr::TsConstAssertion(_)
            | Expr::Unary(_)
    )
}

fn is_context_sensitive(e: &Expr) -> bool {
    match e {
        Expr::Arrow(a) => a
            .params
            .iter()
            .any(|p| matches!(p, Pat::Ident(b) if b.type_ann.is_none())),
        Expr::Fn(f) => f
            .function
            .params
            .iter()
            .any(|p| matches!(&p.pat, Pat::Ident(b) if b.type_ann.is_none())),
        Expr::Object(_) | Expr::Array(_) => true,
        Expr::Paren(p) => is_context_sensitive(&p.expr),
        _ => false,
    }
}

fn collect_returns<'a>(stmts: &'a [Stmt], out: &mut Vec<Option<&'a Expr>>, depth: u32) {
    if depth > 64 {
        return;
    }
    for s in stmts {
        match s {
            Stmt::Return(r) => out.push(r.arg.as_deref()),
            Stmt::Block(b) => collect_returns(&b.stmts, out, depth + 1),
            Stmt::If(i) => {
                collect_returns(std::slice::from_ref(&*i.cons), out, depth + 1);
                if let Some(a) = &i.alt {
                    collect_returns(std::slice::from_ref(&**a), out, depth + 1);
                }
            }
            Stmt::For(f) => collect_returns(std::slice::from_ref(&*f.body), out, depth + 1),
            Stmt::ForIn(f) => collect_returns(std::slice::from_ref(&*f.body), out, depth + 1),
            Stmt::ForOf(f) => collect_returns(std::slice::from_ref(&*f.body), out, depth + 1),
            Stmt::While(w) => collect_returns(std::slice::from_ref(&*w.body), out, depth + 1),
            Stmt::DoWhile(w) => collect_returns(std::slice::from_ref(&*w.body), out, depth + 1),
            Stmt::Labeled(l) => collect_returns(std::slice::from_ref(&*l.body), out, depth + 1),
            Stmt::Switch(sw) => {
                for c in &sw.cases {
                    collect_returns(&c.cons, out, depth + 1);
                }
            }
            Stmt::Try(t) => {
                collect_returns(&t.block.stmts, out, depth + 1);
                if let Some(h) = &t.handler {
                    collect_returns(&h.body.stmts, out, depth + 1);
                }
                if let Some(f) = &t.finalizer {
                    collect_returns(&f.stmts, out, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// `A.B.C` as a list of (position, name), for heritage clauses and `typeof`.
fn expr_entity(e: &Expr) -> Option<Vec<(u32, Atom)>> {
    match e {
        Expr::Ident(i) => Some(vec![(i.span.lo.0, i.sym.clone())]),
        Expr::Member(m) => {
            let mut v = expr_entity(&m.obj)?;
            match &m.prop {
                MemberProp::Ident(n) => v.push((n.span.lo.0, n.sym.clone())),
                _ => return None,
            }
            Some(v)
        }
        Expr::Paren(p) => expr_entity(&p.expr),
        _ => None,
    }
}

fn entity_of(e: &TsEntityName) -> Vec<(u32, Atom)> {
    match e {
        TsEntityName::Ident(i) => vec![(i.span.lo.0, i.sym.clone())],
        TsEntityName::TsQualifiedName(q) => {
            let mut v = entity_of(&q.left);
            v.push((q.right.span.lo.0, q.right.sym.clone()));
            v
        }
    }
}

/// Calls `f` on `t` and every type node inside it, depth first; `f` returns whether to
/// descend into the node's children.
fn walk_ts_type<'t>(t: &'t TsType, f: &mut dyn FnMut(&'t TsType) -> bool) {
    if !f(t) {
        return;
    }
    fn params<'t>(ps: &'t [TsFnParam], f: &mut dyn FnMut(&'t TsType) -> bool) {
        for p in ps {
            if let Some(a) = fn_param_ann(p) {
                walk_ts_type(&a.type_ann, f);
            }
        }
    }
    fn ann<'t>(a: Option<&'t TsTypeAnn>, f: &mut dyn FnMut(&'t TsType) -> bool) {
        if let Some(a) = a {
            walk_ts_type(&a.type_ann, f);
        }
    }
    fn type_params<'t>(tp: Option<&'t TsTypeParamDecl>, f: &mut dyn FnMut(&'t TsType) -> bool) {
        for p in tp.iter().flat_map(|tp| &tp.params) {
            if let Some(c) = &p.constraint {
                walk_ts_type(c, f);
            }
            if let Some(d) = &p.default {
                walk_ts_type(d, f);
            }
        }
    }
    fn args<'t>(a: Option<&'t TsTypeParamInstantiation>, f: &mut dyn FnMut(&'t TsType) -> bool) {
        for t in a.iter().flat_map(|a| &a.params) {
            walk_ts_type(t, f);
        }
    }
    match t {
        TsType::TsTypeRef(r) => args(r.type_params.as_deref(), f),
        TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(x)) => {
            type_params(x.type_params.as_deref(), f);
            params(&x.params, f);
            walk_ts_type(&x.type_ann.type_ann, f);
        }
        TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsConstructorType(x)) => {
            type_params(x.type_params.as_deref(), f);
            params(&x.params, f);
            walk_ts_type(&x.type_ann.type_ann, f);
        }
        TsType::TsTypeLit(l) => {
            for m in &l.members {
                match m {
                    TsTypeElement::TsPropertySignature(p) => ann(p.type_ann.as_deref(), f),
                    TsTypeElement::TsMethodSignature(m) => {
                        type_params(m.type_params.as_deref(), f);
                        params(&m.params, f);
                        ann(m.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsCallSignatureDecl(c) => {
                        type_params(c.type_params.as_deref(), f);
                        params(&c.params, f);
                        ann(c.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsConstructSignatureDecl(c) => {
                        type_params(c.type_params.as_deref(), f);
                        params(&c.params, f);
                        ann(c.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsIndexSignature(i) => {
                        params(&i.params, f);
                        ann(i.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsGetterSignature(g) => ann(g.type_ann.as_deref(), f),
                    TsTypeElement::TsSetterSignature(s) => {
                        params(std::slice::from_ref(&s.param), f)
                    }
                }
            }
        }
        TsType::TsArrayType(a) => walk_ts_type(&a.elem_type, f),
        TsType::TsTupleType(tt) => {
            for e in &tt.elem_types {
                walk_ts_type(&e.ty, f);
            }
        }
        TsType::TsOptionalType(o) => walk_ts_type(&o.type_ann, f),
        TsType::TsRestType(r) => walk_ts_type(&r.type_ann, f),
        TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsUnionType(u)) => {
            for t in &u.types {
                walk_ts_type(t, f);
            }
        }
        TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsIntersectionType(i)) => {
            for t in &i.types {
                walk_ts_type(t, f);
            }
        }
        TsType::TsConditionalType(c) => {
            for t in [&c.check_type, &c.extends_type, &c.true_type, &c.false_type] {
                walk_ts_type(t, f);
            }
        }
        TsType::TsInferType(i) => {
            if let Some(c) = &i.type_param.constraint {
                walk_ts_type(c, f);
            }
        }
        TsType::TsParenthesizedType(p) => walk_ts_type(&p.type_ann, f),
        TsType::TsTypeOperator(o) => walk_ts_type(&o.type_ann, f),
        TsType::TsIndexedAccessType(i) => {
            walk_ts_type(&i.obj_type, f);
            walk_ts_type(&i.index_type, f);
        }
        TsType::TsMappedType(m) => {
            for t in [&m.type_param.constraint, &m.name_type, &m.type_ann]
                .into_iter()
                .flatten()
            {
                walk_ts_type(t, f);
            }
        }
        TsType::TsTypePredicate(p) => ann(p.type_ann.as_deref(), f),
        TsType::TsTypeQuery(q) => args(q.type_args.as_deref(), f),
        TsType::TsImportType(i) => args(i.type_args.as_deref(), f),
        TsType::TsKeywordType(_) | TsType::TsThisType(_) | TsType::TsLitType(_) => {}
    }
}

fn fn_param_ann(p: &TsFnParam) -> Option<&TsTypeAnn> {
    match p {
        TsFnParam::Ident(b) => b.type_ann.as_deref(),
        TsFnParam::Array(a) => a.type_ann.as_deref(),
        TsFnParam::Rest(r) => r.type_ann.as_deref(),
        TsFnParam::Object(o) => o.type_ann.as_deref(),
    }
}

fn expr_lo(e: &Expr) -> u32 {
    use swc_common::Spanned;
    e.span().lo.0
}

fn stmt_lo(s: &Stmt) -> u32 {
    use swc_common::Spanned;
    s.span().lo.0
}

fn ts_type_lo(t: &TsType) -> u32 {
    use swc_common::Spanned;
    t.span().lo.0
}

fn f_lo(f: &TsFnOrConstructorType) -> u32 {
    use swc_common::Spanned;
    f.span().lo.0
}

/// A type node's identity: file and span (`A` and `A[]` start at the same position).
fn ts_type_key(file: u32, t: &TsType) -> (u32, u32, u32) {
    use swc_common::Spanned;
    let span = t.span();
    (file, span.lo.0, span.hi.0)
}

/// `null`, `undefined` or `void 0`, parentheses aside.
fn is_null_or_undefined(e: &Expr) -> bool {
    match e {
        Expr::Paren(p) => is_null_or_undefined(&p.expr),
        Expr::Lit(Lit::Null(_)) => true,
        Expr::Ident(i) => i.sym.as_str() == "undefined",
        Expr::Unary(u) => u.op == UnaryOp::Void && matches!(&*u.arg, Expr::Lit(_)),
        _ => false,
    }
}
