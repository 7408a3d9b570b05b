//! TypeScript's limits on the work of instantiation and relation, as the native checker
//! (`internal/checker`) has them, so a checker finishes on any program and says where it
//! stopped expanding.
//!
//! - **5,000,000 instantiations per statement or expression** (`instantiateTypeWithAlias`):
//!   past it, `TS2589` ("Type instantiation is excessively deep and possibly infinite.") at
//!   the node the main walk is checking (TypeScript's `currentNode`), and the instantiation
//!   is the error type. The count starts again at every statement, expression and type
//!   node (`checkSourceElement`, `checkExpression`), and inside every declaration resolved
//!   lazily (a type node's, a value's or a return type), which TypeScript does not do:
//!   there it continues the asker's count, so what the declaration gets would depend on
//!   who asked first.
//! - **An instantiation depth of 100** (`instantiationDepth`): the 100th nested
//!   instantiation is `TS2589` at the current node, and the error type. As in TypeScript,
//!   an instantiated anonymous type's properties are instantiated when first asked for
//!   (`resolveAnonymousTypeMembers`), not with the type, so the depth counts what one
//!   computation nests, not how far the members of members reach.
//! - **1,000 steps of a tail-recursive conditional type** (`getConditionalType`): a
//!   conditional type whose chosen branch is another conditional type is resolved in a
//!   loop, not by instantiating the branch; the 1,000th step is `TS2589`.
//! - **Relations**: a source and a target stack (`recursiveTypeRelatedTo`). A comparison
//!   where both sides are deeply nested (`isDeeplyNestedType`: three distinct
//!   instantiations of one recursion identity on the stack) is *maybe related*; maybe
//!   results are assumed while in progress and kept only once the outermost relation is
//!   settled, as every assumption here is. Stacks 100 deep overflow: *not related*, and
//!   `TS2321` ("Excessive stack depth comparing types"). Being
//!   deeply nested depends on the stacks above a pair, so the checker's relation cache
//!   keeps, and is read for, outermost relations only ([`Checker::cached_relation`]).
//! - **Complexity**: an outermost relation may compute 2,000,000 relations
//!   (`checkTypeRelatedTo`'s `relationCount`, `(16,000,000 - cached relations) / 8`, with
//!   the cache taken as empty so the budget does not depend on what the checker related
//!   before), which is what comparing large unions of object types runs out of; past it
//!   the relation fails, and `TS2859` ("Excessive complexity comparing types") is reported
//!   at the current node. An overflowed relation is cached as failed and reported at every
//!   node that asks for it.
//! - **The type table guard** (this checker's own; TypeScript has none): past
//!   [`MAX_TYPES`] types in one checker, nothing more is instantiated, and the main walk
//!   checks no further top-level statement of any file; `TS2589` says so, at the current
//!   node and at the first statement of each file left unchecked. With instantiation
//!   stopped, what one statement can still make is bounded by its syntax, so one
//!   checker's table cannot grow without bound whatever the corpus holds.
//!
//! **No cache keeps what a limit decided without the limit**: a result computed past a
//! limit taints the computation ([`Checker::taint`], see `check/symbols/scope.rs`), so no
//! instantiation, relation or conditional type cache keeps it. A declaration resolved
//! lazily restarts the instantiation depth and count, so what those limits decide inside
//! it is its own, whoever asks; its cache keeps the result together with the limits met
//! computing it ([`Decided`]), and a reader meets them again: it is tainted and reports
//! them at its own node ([`Checker::meet_kept_limits`]), as it would had it computed the
//! declaration itself. So what a node reports does not depend on which node, in which
//! file, asked for the declaration first; what a checker knows depends on which files it
//! checked first only through the type table guard.
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::bind::SymbolId;
use crate::check::symbols::defaults::Filled;
use crate::check::{Checker, MAX_DEPTH};
use crate::diag::Code;
use crate::types::{ConditionalRoot, Mapper, TypeId, TypeKind, ids};

/// Nested instantiations (TypeScript's `instantiationDepth == 100`).
const INSTANTIATION_DEPTH: u32 = 100;
/// Instantiations per statement or expression (TypeScript's `instantiationCount`).
const INSTANTIATION_COUNT: u32 = 5_000_000;
/// Steps of one tail-recursive conditional type (TypeScript's `tailCount == 1000`).
pub(super) const TAIL_RECURSION: u32 = 1_000;
/// Deepest relation stack (TypeScript's `len(sourceStack) == 100`).
const RELATION_DEPTH: usize = 100;
/// Occurrences of one recursion identity that make a type deeply nested.
const DEEPLY_NESTED: usize = 3;
/// Relations one outermost relation may compute: TypeScript's first budget,
/// `(16_000_000 - relation.size) / 8` with an empty cache, for every relation (a budget
/// that shrinks with the cache would depend on what the checker related before).
const RELATION_BUDGET: i64 = 16_000_000 / 8;
/// Types one checker may hold before it stops instantiating and checking (2,097,152: 17
/// times what a checker makes on the largest corpus here, typescript at 1 checker).
pub(super) const MAX_TYPES: usize = 1 << 21;

pub(super) const TOO_DEEP: &str = "Type instantiation is excessively deep and possibly infinite.";

/// One checker's limit state.
pub(in crate::check) struct Limits {
    /// The type table guard: [`MAX_TYPES`] (lower in this module's tests).
    max_types: usize,
    /// [`INSTANTIATION_COUNT`] (lower in this module's tests).
    max_instantiations: u32,
    /// [`INSTANTIATION_DEPTH`] (lower in this module's tests).
    max_depth: u32,
    /// [`RELATION_BUDGET`] (lower in this module's tests).
    relation_budget: i64,
    /// Outermost relations that overflowed, with the code reported for them: cached as
    /// failed, and reported again at each node that asks for them (so where a report is
    /// does not depend on which node asked first).
    overflowed: FxHashMap<(TypeId, TypeId), Code>,
    /// The node the main walk is checking (file, position): where a limit reports.
    current: Option<(u32, u32)>,
    /// Instantiations since the current node started.
    instantiations: u32,
    /// The relation in progress (saved and replaced where a new relation starts).
    relation: RelationState,
    /// The codes a limit reported at the current node or at a node nested in it (one
    /// diagnostic per node and code; a node does not report again what a node inside it
    /// reported, as a statement reading its annotation's type after the annotation).
    node_codes: Vec<Code>,
    /// Nodes the main walk has entered (the depth of `current`).
    entered: u32,
    /// Every limit met since the main walk's top-level statement started (once per
    /// innermost cache scope): what a declaration cache keeps with its result
    /// ([`Checker::limits_met`]).
    met: Vec<LimitMet>,
    /// Where the innermost cache scope's part of `met` starts.
    floor: usize,
    /// The limits met while each declaration cache's result was computed, for the results a
    /// limit decided: a reader meets them again ([`Checker::meet_kept_limits`]).
    kept: FxHashMap<Decided, Rc<[Again]>>,
}

/// A limit met, with where it was reported (or would have been).
#[derive(Clone, PartialEq)]
struct LimitMet {
    code: Code,
    message: Rc<str>,
    /// The checker's `suppress` then (nothing is reported above 0).
    suppress: u32,
    /// Nodes entered then, and the current one.
    entered: u32,
    at: Option<(u32, u32)>,
}

/// How a reader of a declaration cache's result meets a limit met computing it again, as
/// computing it itself would: reported at the reader's current node (met outside any node
/// the declaration's computation entered), at the node of the declaration it was met at,
/// or silently (met under lazy inference, which reports nothing).
#[derive(Clone, PartialEq, Debug)]
pub(in crate::check) enum Again {
    AtReader(Code, Rc<str>),
    At((u32, u32), Code, Rc<str>),
    Silent,
}

/// Where a declaration starts meeting limits of its own: the `suppress` and entered nodes
/// of its asker ([`Checker::limits_base`]).
#[derive(Clone, Copy)]
pub(in crate::check) struct LimitsBase {
    suppress: u32,
    entered: u32,
}

/// A result of a declaration cache: the type of a type node (by `ts_type_key`), of a
/// symbol in a value position, a return type inferred from a body (by node key), an
/// alias's declared type, a type parameter's constraint, a constraint check's verdict.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(in crate::check) enum Decided {
    TypeNode((u32, u32, u32)),
    Value(SymbolId),
    Return(u64),
    Declared(SymbolId),
    Constraint(SymbolId),
    /// A type parameter's default (its declaring symbol and position).
    Default((SymbolId, u32)),
    Check(crate::check::ConstraintKey),
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_types: MAX_TYPES,
            max_instantiations: INSTANTIATION_COUNT,
            max_depth: INSTANTIATION_DEPTH,
            relation_budget: RELATION_BUDGET,
            overflowed: FxHashMap::default(),
            current: None,
            instantiations: 0,
            relation: RelationState::default(),
            node_codes: Vec::new(),
            entered: 0,
            met: Vec::new(),
            floor: 0,
            kept: FxHashMap::default(),
        }
    }
}

/// Which stacks a relation step pushes its types onto (TypeScript's `RecursionFlags`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Sides {
    /// A member or constraint of the source against the same target.
    Source,
    /// The same source against a member or branch of the target.
    Target,
    /// Both types' structure: properties, signatures, type arguments.
    Both,
}

impl Sides {
    fn source(self) -> bool {
        self != Sides::Target
    }

    fn target(self) -> bool {
        self != Sides::Source
    }
}

/// The stacks, expansion flags and budget of one relation (TypeScript's `Relater`).
#[derive(Default)]
pub(super) struct RelationState {
    /// The relations in progress: sources and targets, with their recursion identities.
    sources: Vec<(TypeId, Identity)>,
    targets: Vec<(TypeId, Identity)>,
    /// The source side (1) and the target side (2) are deeply nested.
    expanding: u8,
    /// Per relation in progress: `expanding` and the length of `maybe_keys` around it, and
    /// the sides it pushed.
    saved: Vec<(u8, usize, Sides)>,
    /// Pairs maybe related inside the relations in progress (kept in `relating`).
    maybe_keys: Vec<(TypeId, TypeId)>,
    budget: i64,
    /// The relation overflowed: its budget ran out (`TS2859`) or its stacks reached 100
    /// (`TS2321`).
    overflow: Option<Code>,
    /// Relations settled inside the outermost relation in progress, kept until it ends
    /// (the checker's cache keeps outermost relations only, see [`Checker::cached_relation`]).
    inner: FxHashMap<(TypeId, TypeId), bool>,
}

/// What a relation about to be computed is to do.
pub(super) enum RelationStep {
    /// Compare the structure (the pair is on the stacks until `leave_relation`).
    Compare,
    /// Maybe related: both sides deeply nested.
    Maybe,
    /// The budget is spent or the stacks are 100 deep: not related, and the outermost
    /// relation is cached as failed.
    Overflow,
}

/// What identifies a chain of instantiations of one declaration (TypeScript's
/// `getRecursionIdentity`).
#[derive(PartialEq, Eq, Clone, Copy)]
pub(super) enum Identity {
    Symbol(SymbolId),
    Node(u64),
    Anon(TypeId),
    Tuple(usize),
    Type(TypeId),
}

/// A node the main walk entered; `leave_node` restores the one around it.
pub(in crate::check) struct Entered(Option<(u32, u32)>, Vec<Code>);

impl<'a> Checker<'a, '_> {
    /// The main walk starts checking the node at `pos` of `file`: limits report there, and
    /// the instantiation count starts again (TypeScript's `currentNode`, reset per node).
    pub(in crate::check) fn enter_node(&mut self, file: u32, pos: u32) -> Entered {
        self.limits.instantiations = 0;
        self.limits.entered += 1;
        Entered(
            self.limits.current.replace((file, pos)),
            std::mem::take(&mut self.limits.node_codes),
        )
    }

    pub(in crate::check) fn leave_node(&mut self, e: Entered) {
        self.limits.current = e.0;
        self.limits.entered -= 1;
        let inner = std::mem::replace(&mut self.limits.node_codes, e.1);
        for code in inner {
            if !self.limits.node_codes.contains(&code) {
                self.limits.node_codes.push(code);
            }
        }
    }

    /// A cache scope starts: the limits met from now on are its own. Returns the enclosing
    /// scope's start, for [`Self::close_limits_met`].
    pub(in crate::check) fn open_limits_met(&mut self) -> usize {
        std::mem::replace(&mut self.limits.floor, self.limits.met.len())
    }

    /// The cache scope that started at `floor` ends; what it met stays for the enclosing
    /// ones.
    pub(in crate::check) fn close_limits_met(&mut self, floor: usize) {
        self.limits.floor = floor;
    }

    /// Where a declaration about to be computed starts meeting limits of its own, for
    /// [`Self::limits_met`]: taken before it raises `suppress` for lazy inference.
    pub(in crate::check) fn limits_base(&self) -> LimitsBase {
        LimitsBase {
            suppress: self.suppress,
            entered: self.limits.entered,
        }
    }

    /// The limits met inside the innermost cache scope so far, a declaration's computed
    /// from `base`, as its readers are to meet them again; `None` if none was met.
    pub(in crate::check) fn limits_met(&self, base: LimitsBase) -> Option<Rc<[Again]>> {
        let l = &self.limits;
        let mut again: Vec<Again> = Vec::new();
        for m in &l.met[l.floor..] {
            let a = if m.suppress > base.suppress {
                Again::Silent
            } else if m.entered > base.entered
                && let Some(at) = m.at
            {
                Again::At(at, m.code, m.message.clone())
            } else {
                Again::AtReader(m.code, m.message.clone())
            };
            if !again.contains(&a) {
                again.push(a);
            }
        }
        (!again.is_empty()).then(|| again.into())
    }

    /// A declaration cache keeps `what`'s result, which the limits `met` decided.
    pub(in crate::check) fn keep_limits_met(&mut self, what: Decided, met: Option<Rc<[Again]>>) {
        if let Some(met) = met {
            self.limits.kept.insert(what, met);
        }
    }

    /// A declaration cache gives `what`'s result: where limits decided it, the reader meets
    /// them again, as it would computing the result itself: it is tainted (so no cache but
    /// a declaration's keeps what it computes with it) and each limit is reported where
    /// the computation would have reported it. So a node reports the same limits whether
    /// or not another node, in another file, asked for the declaration first.
    pub(in crate::check) fn meet_kept_limits(&mut self, what: &Decided) {
        if self.limits.kept.is_empty() {
            return;
        }
        let Some(met) = self.limits.kept.get(what).cloned() else {
            return;
        };
        self.taint();
        for a in met.iter() {
            match a {
                Again::AtReader(code, message) => {
                    self.report_limit(self.limits.current, 0, *code, message.clone());
                }
                Again::At(at, code, message) => {
                    self.report_limit(Some(*at), 1, *code, message.clone());
                }
                Again::Silent => {
                    self.suppress += 1;
                    self.report_limit(None, 0, Code::ExcessivelyDeep, Rc::from(""));
                    self.suppress -= 1;
                }
            }
        }
    }

    /// The main walk starts a top-level statement, outside every cache scope: the limits
    /// met before are no computation's in progress.
    pub(in crate::check) fn forget_limits_met(&mut self) {
        debug_assert_eq!(self.limits.floor, 0);
        self.limits.met.clear();
    }

    /// A declaration resolved lazily counts its instantiations from 0; the caller's count,
    /// for [`Self::resume_instantiation_count`].
    pub(in crate::check) fn restart_instantiation_count(&mut self) -> u32 {
        std::mem::replace(&mut self.limits.instantiations, 0)
    }

    pub(in crate::check) fn resume_instantiation_count(&mut self, caller: u32) {
        self.limits.instantiations = caller;
    }

    /// Reports `code` at the current node (nothing outside the main walk), once per node
    /// and code: a report that was not pushed (under lazy inference, or for another file)
    /// does not count, so the main walk reports the limit when it meets it there itself.
    fn report_at_current(&mut self, code: Code, message: String) {
        self.report_limit(self.limits.current, 0, code, message.into());
    }

    /// Reports `code` at node `at`, `nested` nodes inside the current one (0: the current
    /// node itself), once per node and code; and remembers it for the computations in
    /// progress (`met`), whether or not it was reported.
    fn report_limit(&mut self, at: Option<(u32, u32)>, nested: u32, code: Code, message: Rc<str>) {
        let m = LimitMet {
            code,
            message,
            suppress: self.suppress,
            entered: self.limits.entered + nested,
            at,
        };
        let l = &mut self.limits;
        if !l.met[l.floor..].contains(&m) {
            l.met.push(m.clone());
        }
        if let Some((file, pos)) = at
            && !self.limits.node_codes.contains(&code)
            && self.reports_in(file)
        {
            self.limits.node_codes.push(code);
            self.report(file, pos, code, m.message.to_string());
        }
    }

    /// Counts one instantiation; `Some(ERROR)` when a limit stops it (the depth, the count
    /// or the table guard), reported at the current node, and the caller's result tainted
    /// so no cache keeps it.
    pub(super) fn instantiation_limited(&mut self) -> Option<TypeId> {
        self.limits.instantiations = self.limits.instantiations.saturating_add(1);
        let message = if self.limits.instantiations >= self.limits.max_instantiations {
            self.taint();
            TOO_DEEP.to_string()
        } else if self.table_full() {
            self.taint();
            self.table_full_message()
        } else if self.inst_depth >= self.limits.max_depth {
            self.taint();
            TOO_DEEP.to_string()
        } else {
            return None;
        };
        self.report_at_current(Code::ExcessivelyDeep, message);
        Some(ids::ERROR)
    }

    fn table_full(&self) -> bool {
        self.types.len() >= self.limits.max_types
    }

    fn table_full_message(&self) -> String {
        format!(
            "{TOO_DEEP} This checker holds {} types, its limit; nothing more is instantiated \
             or checked.",
            self.limits.max_types
        )
    }

    /// The type table guard at a top-level statement of the main walk: past the limit the
    /// statement at `pos` of `file` and the rest of the file are not checked, and `TS2589`
    /// says so there.
    pub(in crate::check) fn table_guard_stops(&mut self, file: u32, pos: u32) -> bool {
        if !self.table_full() {
            return false;
        }
        let message = self.table_full_message();
        self.report(file, pos, Code::ExcessivelyDeep, message);
        true
    }

    /// The conditional type a tail position of a conditional type stands for: the branch
    /// `t` (uninstantiated) under `m` when it is itself a conditional type, directly or as
    /// a generic alias of one, with the mapper of its own root; `None` otherwise, and where
    /// its check type would distribute over a union (TypeScript's `canTailRecurse`).
    pub(super) fn tail_conditional(
        &mut self,
        t: TypeId,
        m: Option<&Mapper>,
    ) -> Option<(Rc<ConditionalRoot>, Option<Rc<Mapper>>)> {
        let m = m?;
        let (root, mapper) = match self.types.kind(t).clone() {
            TypeKind::Conditional(c) => {
                let mapper = self.compose_mapper(&c.root.outer, c.mapper.as_deref(), m);
                (c.root.clone(), mapper)
            }
            TypeKind::LazyAlias(s, args) => {
                // An alias still being resolved stays lazy (see `expand_lazy`).
                if self.alias_stack.iter().any(|e| e.0 == s) {
                    return None;
                }
                let args: Vec<TypeId> = args.iter().map(|&a| self.instantiate(a, m)).collect();
                if self.types.could_contain_type_params(&args) {
                    return None;
                }
                let body = self.declared_type(s);
                let TypeKind::Conditional(c) = self.types.kind(body).clone() else {
                    return None;
                };
                let params = self.type_params_of(s);
                let Filled::All(args) = self.fill_args(s, &params, args) else {
                    return None;
                };
                let alias = Mapper::new(&self.types, &params, &args);
                let mapper = self.compose_mapper(&c.root.outer, c.mapper.as_deref(), &alias);
                (c.root.clone(), mapper)
            }
            _ => return None,
        };
        if root.distributive {
            let check = self.inst_opt(root.check, mapper.as_deref());
            if check != root.check
                && matches!(
                    self.types.kind(check),
                    TypeKind::Union(_) | TypeKind::Never | TypeKind::Boolean
                )
            {
                return None;
            }
        }
        Some((root, mapper))
    }

    /// The 1,000th tail step of a conditional type: reported, and the error type.
    pub(super) fn tail_recursion_limited(&mut self, steps: u32) -> Option<TypeId> {
        if steps < TAIL_RECURSION {
            return None;
        }
        self.taint();
        self.report_at_current(Code::ExcessivelyDeep, TOO_DEEP.to_string());
        Some(ids::ERROR)
    }

    /// Starts relating `s` to `t` (not in the cache, not in progress), pushing the sides
    /// `sides` names ([`Sides`]) onto their stacks: both for the outermost relation and for
    /// a step into both types' structure, only the side a step took apart (a union's or
    /// intersection's member, a constraint) otherwise, as TypeScript's `recursionFlags`
    /// push them, so a target met again while its source is taken apart is not counted
    /// again towards deep nesting.
    pub(super) fn enter_relation(&mut self, s: TypeId, t: TypeId, sides: Sides) -> RelationStep {
        if self.limits.relation.sources.is_empty() {
            self.limits.relation.budget = self.limits.relation_budget;
            self.limits.relation.overflow = None;
            self.limits.relation.inner.clear();
        }
        let r = &self.limits.relation;
        let overflow = if r.overflow.is_some() {
            r.overflow
        } else if r.budget <= 0 {
            Some(Code::ExcessiveComplexity)
        } else if r.sources.len().max(r.targets.len()) >= RELATION_DEPTH {
            Some(Code::TooDeep)
        } else {
            None
        };
        if overflow.is_some() {
            self.limits.relation.overflow = overflow;
            self.taint();
            return RelationStep::Overflow;
        }
        let sides = if r.sources.is_empty() {
            Sides::Both
        } else {
            sides
        };
        let mut expanding = r.expanding;
        if sides.source() {
            let si = self.recursion_identity(s);
            self.limits.relation.sources.push((s, si));
            if expanding & 1 == 0 && self.deeply_nested(true) {
                expanding |= 1;
            }
        }
        if sides.target() {
            let ti = self.recursion_identity(t);
            self.limits.relation.targets.push((t, ti));
            if expanding & 2 == 0 && self.deeply_nested(false) {
                expanding |= 2;
            }
        }
        let r = &mut self.limits.relation;
        r.saved.push((r.expanding, r.maybe_keys.len(), sides));
        r.expanding = expanding;
        if expanding == 3 {
            self.leave_relation();
            return RelationStep::Maybe;
        }
        RelationStep::Compare
    }

    /// The cached relation of `s` to `t`. The checker's cache keeps only outermost
    /// relations, and is read only where no relation is in progress: whether a pair is
    /// deeply nested depends on the stacks above it, so a pair settled on its own (as an
    /// outermost relation, or inside another one) and met again inside a relation would
    /// cut short a comparison that, computed there, could have been maybe related, and the
    /// answer would depend on which relations the checker had asked before (which files
    /// it checked first). Inside a relation, only what that outermost relation settled
    /// itself is reused, so an outermost relation's answer depends on its pair alone.
    pub(super) fn cached_relation(&self, s: TypeId, t: TypeId) -> Option<bool> {
        let r = &self.limits.relation;
        if r.sources.is_empty() {
            self.relations.get(&(s, t)).copied()
        } else {
            r.inner.get(&(s, t)).copied()
        }
    }

    /// Caches the relation of `s` to `t` (see [`Self::cached_relation`]).
    pub(super) fn cache_relation(&mut self, s: TypeId, t: TypeId, r: bool, outermost: bool) {
        if outermost {
            self.relations.insert((s, t), r);
        } else {
            self.limits.relation.inner.insert((s, t), r);
        }
    }

    /// Pops what `enter_relation` pushed; one relation of the budget is spent.
    fn leave_relation(&mut self) -> usize {
        let r = &mut self.limits.relation;
        let (expanding, maybe_start, sides) = r.saved.pop().unwrap_or((0, 0, Sides::Both));
        if sides.source() {
            r.sources.pop();
        }
        if sides.target() {
            r.targets.pop();
        }
        r.expanding = expanding;
        r.budget -= 1;
        maybe_start
    }

    /// Ends relating `s` to `t` after [`RelationStep::Compare`]; whether it was the
    /// outermost relation. A pair `maybe` related (true, leaning on an assumption, nothing
    /// else in the way of caching) inside another relation stays assumed for the rest of
    /// the outermost one, with what was assumed inside it (TypeScript's `maybeKeys`), so
    /// it is not compared again there; otherwise the pair and those assumptions end here.
    /// The outermost relation that overflowed is cached as failed and reported
    /// ([`Self::overflowed_relation`]).
    pub(super) fn finish_relation(&mut self, s: TypeId, t: TypeId, maybe: bool) -> bool {
        let maybe_start = self.leave_relation();
        let outermost = self.limits.relation.sources.is_empty();
        if maybe && !outermost {
            self.limits.relation.maybe_keys.push((s, t));
        } else {
            self.relating.remove(&(s, t));
            let kept: Vec<_> = self
                .limits
                .relation
                .maybe_keys
                .drain(maybe_start..)
                .collect();
            for k in kept {
                self.relating.remove(&k);
            }
        }
        if outermost && let Some(code) = self.limits.relation.overflow.take() {
            self.limits.overflowed.insert((s, t), code);
            self.relations.insert((s, t), false);
            self.overflowed_relation(s, t);
        }
        outermost
    }

    /// Where an outermost relation of `s` to `t` overflowed (computed now or before): the
    /// enclosing computation is tainted (no cache keeps what leaned on it, so every node
    /// that needs it asks again), and `TS2859` or `TS2321` is reported at the current node,
    /// as TypeScript reports it where the overflow happens (`checkTypeRelatedToEx`).
    pub(super) fn overflowed_relation(&mut self, s: TypeId, t: TypeId) {
        let Some(&code) = self.limits.overflowed.get(&(s, t)) else {
            return;
        };
        self.taint();
        let (a, b) = (self.type_to_string(s), self.type_to_string(t));
        let what = if code == Code::TooDeep {
            "stack depth"
        } else {
            "complexity"
        };
        self.report_at_current(
            code,
            format!("Excessive {what} comparing types '{a}' and '{b}'."),
        );
    }

    /// Whether a relation is in progress (its pairs on the stacks, or assumed).
    pub(super) fn relation_in_progress(&self) -> bool {
        !self.limits.relation.sources.is_empty() || !self.relating.is_empty()
    }

    /// Starts a new relation inside the current one: its own stacks, assumptions, settled
    /// pairs and budget, as TypeScript starts a new relater (`checkTypeRelatedToEx`).
    pub(super) fn begin_new_relation(&mut self) -> (RelationState, FxHashSet<(TypeId, TypeId)>) {
        (
            std::mem::take(&mut self.limits.relation),
            std::mem::take(&mut self.relating),
        )
    }

    pub(super) fn end_new_relation(&mut self, outer: (RelationState, FxHashSet<(TypeId, TypeId)>)) {
        self.limits.relation = outer.0;
        self.relating = outer.1;
    }

    /// Runs `f` as a new relation ([`Self::begin_new_relation`]).
    pub(super) fn in_new_relation<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = self.begin_new_relation();
        let r = f(self);
        self.end_new_relation(outer);
        r
    }

    /// Whether the newest type on the source (or target) stack is deeply nested: the
    /// stack holds [`DEEPLY_NESTED`] types of its recursion identity, as
    /// `isDeeplyNestedType` counts them. TypeScript counts a type only where its id is at
    /// least the one before's (a newer instantiation, or the same type again: kysely's
    /// `ReturningInterface<DB, TB, Selectable<DB[TB]>>`, met again at every level of
    /// `returningAll`); ids here depend on what a checker made first, and counting by them
    /// made excalidraw's diagnostics differ between 1 and 8 checkers, so every occurrence
    /// counts.
    fn deeply_nested(&self, source: bool) -> bool {
        let r = &self.limits.relation;
        let stack = if source { &r.sources } else { &r.targets };
        if stack.len() < DEEPLY_NESTED {
            return false;
        }
        let Some(&(newest, identity)) = stack.last() else {
            return false;
        };
        let nested = |identity: Identity| {
            let mut count = 0;
            for &(x, xi) in stack {
                let matches = xi == identity
                    || matches!(self.types.kind(x), TypeKind::Intersection(ms)
                        if ms.iter().any(|&m| self.recursion_identity(m) == identity));
                if matches {
                    count += 1;
                    if count >= DEEPLY_NESTED {
                        return true;
                    }
                }
            }
            false
        };
        match self.types.kind(newest) {
            TypeKind::Intersection(ms) => ms.iter().any(|&m| nested(self.recursion_identity(m))),
            _ => nested(identity),
        }
    }

    /// A reference's generic declaration, an anonymous type's declared type, a deferred
    /// conditional or mapped type's declaration, an indexed access's object.
    fn recursion_identity(&self, t: TypeId) -> Identity {
        match self.types.kind(t) {
            TypeKind::Reference(s, _) | TypeKind::LazyAlias(s, _) => Identity::Symbol(*s),
            TypeKind::Tuple(es) => Identity::Tuple(es.len()),
            TypeKind::Conditional(c) => Identity::Node(c.root.node),
            TypeKind::Mapped(m) => Identity::Node(m.root.node),
            TypeKind::Indexed(o, _) => self.recursion_identity(*o),
            // One identity whether or not `t` is registered yet (an object type read from
            // its structure is registered when first instantiated).
            TypeKind::Object(_) => Identity::Anon(self.anonymous_target(t).unwrap_or(t)),
            _ => Identity::Type(t),
        }
    }

    /// Reports a statement, expression or type node nested deeper than [`MAX_DEPTH`]
    /// (`TS2321`); the walk checks nothing inside it.
    pub(in crate::check) fn too_deep(&mut self, file: u32, pos: u32) {
        self.report(
            file,
            pos,
            Code::TooDeep,
            format!(
                "Nesting deeper than {MAX_DEPTH} levels; the rest of this node is not checked."
            ),
        );
    }
}

#[cfg(test)]
mod tests;
