//! Control-flow narrowing: the checker's walk over the binder's flow graph.
//!
//! As TypeScript's `getFlowTypeOfReference`: from the flow node of a reference, walk
//! antecedents back to the assignment that gave the variable its value or the start of
//! the function, narrowing the declared type by every condition passed on the way
//! (`typeof`, `===`/`!==` against `null`, `undefined` and literals, truthiness,
//! `instanceof`, `in`, discriminant properties, user type guards `x is T`) and joining
//! branches at labels. Each
//! checker caches the flow type at each join (`flowTypeCache`) and each node's
//! reachability (`flowNodeReachable`). What each condition does to a type is in
//! [`super::guards`].
use rustc_hash::FxHashMap;
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::flow::{FlowId, FlowNode};
use crate::bind::{SymbolId, THIS_REFERENCE, flags};
use crate::check::Checker;
use crate::syntax;
use crate::types::{TypeId, TypeKind, ids};

/// Flow nodes one reference's walk may visit before it gives up and takes the declared
/// type (TypeScript gives up at a flow depth of 2,000 with "too complex").
const MAX_FLOW_STEPS: u32 = 20_000;
/// Deepest flow node (forward edges back to a start) whose references are narrowed.
const MAX_FLOW_DEPTH: u32 = 2_000;
/// Nesting of `!`, `&&` and `||` a condition is narrowed through; deeper operands are
/// taken as saying nothing (`&&` chains would otherwise cost quadratic time).
const MAX_NARROW_DEPTH: u32 = 32;

/// One checker's flow narrowing state: the caches TypeScript keeps per checker and the
/// walk's own counters.
#[derive(Default)]
pub(in crate::check) struct FlowCaches {
    /// Narrowed types of references at flow joins, by file, flow node and symbol
    /// (TypeScript's `flowTypeCache`).
    types: FxHashMap<(u32, FlowId, SymbolId, u64), TypeId>,
    /// Whether each join is reachable (TypeScript's `flowNodeReachable`).
    reachable: FxHashMap<(u32, FlowId), bool>,
    /// Joins whose flow type is being computed, with the union of their antecedents so far
    /// (what a loop head met again through a back edge is taken to be).
    in_progress: FxHashMap<(u32, FlowId, SymbolId, u64), TypeId>,
    /// Back edges met so far; a join computed while one was met is not cached.
    partial: u32,
    /// Flow nodes the current reference's walk has visited.
    steps: u32,
}

/// `e` without the parentheses and non-null assertions (`x!`) around it, as TypeScript's
/// `skipOuterExpressions` skips them before narrowing a reference.
pub(in crate::check) fn skip_outer_expressions(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => skip_outer_expressions(&p.expr),
        Expr::TsNonNull(n) => skip_outer_expressions(&n.expr),
        _ => e,
    }
}

/// What flow analysis narrows (TypeScript's narrowable references): a variable or
/// parameter, or a chain of named properties on one (`x.a.b`: `path` is `[a, b]`).
#[derive(Clone, Copy, Debug)]
pub(in crate::check) struct Reference<'r> {
    pub sym: SymbolId,
    pub path: &'r [Atom],
}

impl Reference<'_> {
    /// A variable or parameter itself.
    pub(in crate::check) fn symbol(sym: SymbolId) -> Reference<'static> {
        Reference { sym, path: &[] }
    }

    /// The flow cache key of this reference under `declared` (a property reference's
    /// declared type depends on where it is read, so it is part of the key, as in
    /// TypeScript's flow cache keys).
    fn key(&self, declared: TypeId) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        for p in self.path {
            p.as_str().hash(&mut h);
        }
        declared.hash(&mut h);
        h.finish()
    }
}

impl<'a> Checker<'a, '_> {
    /// The type of the reference `sym` at `flow` in `file`, whose declared type is
    /// `declared`.
    pub(in crate::check) fn flow_type_of_reference(
        &mut self,
        file: u32,
        sym: Reference<'_>,
        declared: TypeId,
        flow: FlowId,
    ) -> TypeId {
        // As TypeScript gives up past a flow depth of 2,000, so does this walk; the depth
        // is the graph's, so the answer does not depend on what was cached before.
        if self.bound.files[file as usize].flow_depth[flow as usize] > MAX_FLOW_DEPTH
            || !self.is_reachable(file, flow)
        {
            return declared;
        }
        self.narrowing.steps = 0;
        self.flow_type(file, sym, declared, flow)
    }

    /// Whether the declared type of `sym` is one flow analysis can narrow.
    pub(in crate::check) fn is_narrowable(
        &self,
        file: u32,
        sym: SymbolId,
        declared: TypeId,
    ) -> bool {
        sym.file == file
            && self.bound.symbol(sym).flags & (flags::VARIABLE | flags::PARAMETER) != 0
            && matches!(
                self.types.kind(declared),
                TypeKind::Union(_) | TypeKind::Unknown
            )
    }

    /// A `const` or a parameter never assigned: a closure sees the narrowing it had where
    /// the closure was created (as TypeScript treats constant references).
    fn is_constant(&self, file: u32, sym: SymbolId) -> bool {
        let s = self.bound.symbol(sym);
        if s.flags & flags::PARAMETER != 0 {
            return !self.bound.files[file as usize].reassigned.contains(&sym);
        }
        matches!(
            s.decls.first(),
            Some((_, crate::bind::DeclRef::Binding { is_const: true, .. }))
        )
    }

    /// TypeScript's `isFlowNodeReachable`, cached per checker.
    fn is_reachable(&mut self, file: u32, flow: FlowId) -> bool {
        let files = self.bound.files;
        let mut flow = flow;
        let mut steps = 0u32;
        loop {
            steps += 1;
            if steps > MAX_FLOW_STEPS {
                return true;
            }
            let node = &*files[file as usize].flow_nodes[flow as usize];
            match node {
                FlowNode::Unreachable => return false,
                FlowNode::Start { .. } => return true,
                FlowNode::Label { antecedents, .. } => {
                    if let Some(&r) = self.narrowing.reachable.get(&(file, flow)) {
                        return r;
                    }
                    // A loop head is reachable when its entry is: look at that only.
                    self.narrowing.reachable.insert((file, flow), false);
                    let mut r = false;
                    for &a in antecedents.iter() {
                        if self.is_reachable(file, a) {
                            r = true;
                            break;
                        }
                    }
                    self.narrowing.reachable.insert((file, flow), r);
                    return r;
                }
                _ => flow = node.antecedent().unwrap_or(crate::bind::flow::UNREACHABLE),
            }
        }
    }

    /// The type of a property-access reference (`x.a.b`, read, not written) whose type
    /// from its object is `declared`, narrowed by the conditions and assignments on the
    /// way back to where `x` was last assigned, as TypeScript narrows property accesses
    /// on variables and parameters.
    pub(in crate::check) fn narrow_property_reference(
        &mut self,
        file: u32,
        m: &MemberExpr,
        declared: TypeId,
    ) -> TypeId {
        if !matches!(
            self.types.kind(declared),
            TypeKind::Union(_) | TypeKind::Unknown
        ) {
            return declared;
        }
        let mut path = Vec::new();
        let mut e = m;
        let root = loop {
            let MemberProp::Ident(p) = &e.prop else {
                return declared;
            };
            path.push(p.sym.clone());
            match &*e.obj {
                Expr::Ident(_) | Expr::This(_) => break &*e.obj,
                Expr::Member(inner) => e = inner,
                _ => return declared,
            }
        };
        path.reverse();
        let (sym, root_pos) = match root {
            Expr::This(t) => (THIS_REFERENCE, t.span.lo.0),
            Expr::Ident(root) => {
                let Some(sym) = self.bound.resolve(file, root.span.lo.0, &root.sym) else {
                    return declared;
                };
                if sym.file != file
                    || self.bound.symbol(sym).flags & (flags::VARIABLE | flags::PARAMETER) == 0
                {
                    return declared;
                }
                (sym, root.span.lo.0)
            }
            _ => return declared,
        };
        let Some(&flow) = self.bound.files[file as usize].flow_of.get(&root_pos) else {
            return declared;
        };
        let r = Reference { sym, path: &path };
        self.flow_type_of_reference(file, r, declared, flow)
    }

    fn flow_type(
        &mut self,
        file: u32,
        sym: Reference<'_>,
        declared: TypeId,
        flow: FlowId,
    ) -> TypeId {
        let files = self.bound.files;
        let mut flow = flow;
        loop {
            self.narrowing.steps += 1;
            if self.narrowing.steps > MAX_FLOW_STEPS {
                return declared;
            }
            match &*files[file as usize].flow_nodes[flow as usize] {
                FlowNode::Unreachable => return ids::NEVER,
                FlowNode::Start { captured_from, .. } => {
                    // Only a constant variable's own narrowing crosses into a closure;
                    // properties may have changed by the time it runs.
                    if *captured_from != crate::bind::flow::UNREACHABLE
                        && sym.path.is_empty()
                        && self.is_constant(file, sym.sym)
                    {
                        flow = *captured_from;
                        continue;
                    }
                    return declared;
                }
                FlowNode::Call { antecedent, .. } => flow = *antecedent,
                FlowNode::Assignment {
                    symbol,
                    value,
                    antecedent,
                } => {
                    if *symbol == sym.sym {
                        // The variable itself was assigned; its properties start over.
                        return if sym.path.is_empty() {
                            self.assigned_type(declared, *value)
                        } else {
                            declared
                        };
                    }
                    flow = *antecedent;
                }
                FlowNode::PropertyAssignment {
                    target,
                    value,
                    antecedent,
                } => {
                    if !sym.path.is_empty() {
                        if self.member_is_reference(file, sym, target) {
                            return self.assigned_type(declared, *value);
                        }
                        // `x.a = ...` resets `x.a.b`.
                        let shorter = (1..sym.path.len()).any(|n| {
                            let prefix = Reference {
                                sym: sym.sym,
                                path: &sym.path[..n],
                            };
                            self.member_is_reference(file, prefix, target)
                        });
                        if shorter {
                            return declared;
                        }
                    }
                    flow = *antecedent;
                }
                FlowNode::Condition {
                    expr,
                    assume_true,
                    antecedent,
                } => {
                    if !self.mentions(file, sym, expr, 0) {
                        flow = *antecedent;
                        continue;
                    }
                    let t = self.flow_type(file, sym, declared, *antecedent);
                    if t == ids::NEVER {
                        return t;
                    }
                    return self.narrow(file, sym, t, expr, *assume_true, 0);
                }
                FlowNode::Label { antecedents, .. } => {
                    let key = (file, flow, sym.sym, sym.key(declared));
                    if let Some(&t) = self.narrowing.types.get(&key) {
                        return t;
                    }
                    if let Some(&so_far) = self.narrowing.in_progress.get(&key) {
                        // A back edge into a loop being analysed: as TypeScript, take
                        // what the loop's antecedents gave so far (its entry's type).
                        self.narrowing.partial += 1;
                        return so_far;
                    }
                    self.narrowing.in_progress.insert(key, declared);
                    let partial = self.narrowing.partial;
                    let mut parts = Vec::with_capacity(antecedents.len());
                    for &a in antecedents.iter() {
                        parts.push(self.flow_type(file, sym, declared, a));
                        let so_far = self.types.union(&parts);
                        self.narrowing.in_progress.insert(key, so_far);
                    }
                    let t = self.types.union(&parts);
                    self.narrowing.in_progress.remove(&key);
                    // Nor when the declared type, or a type narrowing met, leaned on the
                    // placeholder of a resolution in progress.
                    if self.narrowing.partial == partial
                        && self.narrowing.steps <= MAX_FLOW_STEPS
                        && self.lean == crate::check::NO_LEAN
                    {
                        self.narrowing.types.insert(key, t);
                    }
                    return t;
                }
            }
        }
    }

    /// The declared type reduced to what an assignment of `value` leaves possible
    /// (TypeScript's `getAssignmentReducedType`), from the value's syntax.
    fn assigned_type(&mut self, declared: TypeId, value: Option<&Expr>) -> TypeId {
        let Some(value) = value else {
            return declared;
        };
        let assigned = match skip_outer_expressions(value) {
            Expr::Lit(l) => match self.literal_type(l) {
                Some(t) => t,
                None => return declared,
            },
            Expr::Ident(i) if i.sym.as_str() == "undefined" => ids::UNDEFINED,
            Expr::Tpl(_) => ids::STRING,
            Expr::Object(_)
            | Expr::Array(_)
            | Expr::Arrow(_)
            | Expr::Fn(_)
            | Expr::New(_)
            | Expr::Class(_) => return self.types.non_nullable(declared),
            _ => return declared,
        };
        if declared == ids::UNKNOWN {
            return self.types.widen(assigned);
        }
        let kept = self.filter(declared, |c, m| m.is_assignable(assigned, c));
        if kept == ids::NEVER { declared } else { kept }
    }

    /// The literal type of a string, number, boolean or null literal; `None` for the rest.
    pub(in crate::check) fn literal_type(&mut self, l: &Lit) -> Option<TypeId> {
        Some(match l {
            Lit::Str(s) => self.types.string_lit(&syntax::str_atom(s)),
            Lit::Num(n) => self.types.number_lit(n.value),
            Lit::Bool(b) => {
                if b.value {
                    ids::TRUE
                } else {
                    ids::FALSE
                }
            }
            Lit::Null(_) => ids::NULL,
            _ => return None,
        })
    }

    /// The unit type an expression denotes (`null`, `undefined`, a literal).
    fn unit_of(&mut self, e: &Expr) -> Option<TypeId> {
        match skip_outer_expressions(e) {
            Expr::Lit(l) => self.literal_type(l),
            Expr::Ident(i) if i.sym.as_str() == "undefined" => Some(ids::UNDEFINED),
            _ => None,
        }
    }

    pub(super) fn is_reference(&self, file: u32, sym: Reference<'_>, e: &Expr) -> bool {
        match skip_outer_expressions(e) {
            Expr::Ident(i) => {
                sym.path.is_empty()
                    && self.bound.resolve(file, i.span.lo.0, &i.sym) == Some(sym.sym)
            }
            Expr::This(_) => sym.path.is_empty() && sym.sym == THIS_REFERENCE,
            Expr::Member(m) => self.member_is_reference(file, sym, m),
            Expr::OptChain(o) => match &*o.base {
                OptChainBase::Member(m) => self.member_is_reference(file, sym, m),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether `m` is the property reference `sym` (`x.a.b` for `x` and `[a, b]`).
    fn member_is_reference(&self, file: u32, sym: Reference<'_>, m: &MemberExpr) -> bool {
        match (&m.prop, sym.path.split_last()) {
            (MemberProp::Ident(p), Some((last, rest))) => {
                p.sym == *last
                    && self.is_reference(
                        file,
                        Reference {
                            sym: sym.sym,
                            path: rest,
                        },
                        &m.obj,
                    )
            }
            _ => false,
        }
    }

    /// Whether a condition can narrow `sym` (so the walk need not evaluate it otherwise).
    fn mentions(&self, file: u32, sym: Reference<'_>, e: &Expr, depth: u32) -> bool {
        if depth > MAX_NARROW_DEPTH {
            return false;
        }
        match skip_outer_expressions(e) {
            Expr::Ident(_) => self.is_reference(file, sym, e),
            Expr::Unary(u) => match u.op {
                UnaryOp::Bang => self.mentions(file, sym, &u.arg, depth + 1),
                UnaryOp::TypeOf => self.is_reference(file, sym, &u.arg),
                _ => false,
            },
            Expr::Member(m) => {
                self.is_reference(file, sym, e) || self.is_reference(file, sym, &m.obj)
            }
            Expr::OptChain(o) => match &*o.base {
                OptChainBase::Member(m) => {
                    self.is_reference(file, sym, e) || self.is_reference(file, sym, &m.obj)
                }
                _ => false,
            },
            Expr::Bin(b) => match b.op {
                BinaryOp::LogicalAnd | BinaryOp::LogicalOr => {
                    self.mentions(file, sym, &b.left, depth + 1)
                        || self.mentions(file, sym, &b.right, depth + 1)
                }
                BinaryOp::In => self.is_reference(file, sym, &b.right),
                BinaryOp::InstanceOf => self.is_reference(file, sym, &b.left),
                _ => {
                    self.mentions(file, sym, &b.left, depth + 1)
                        || self.mentions(file, sym, &b.right, depth + 1)
                }
            },
            // A possible type guard: the reference is passed as an argument.
            Expr::Call(c) => c
                .args
                .iter()
                .any(|a| a.spread.is_none() && self.is_reference(file, sym, &a.expr)),
            _ => false,
        }
    }

    /// The members of `t` (itself, when not a union) for which `keep` holds, as a union.
    pub(super) fn filter(&mut self, t: TypeId, keep: impl Fn(TypeId, &mut Self) -> bool) -> TypeId {
        let members: Vec<TypeId> = match self.types.kind(t) {
            TypeKind::Union(ms) => ms.to_vec(),
            _ => vec![t],
        };
        let mut kept = Vec::with_capacity(members.len());
        for m in members {
            if keep(m, self) {
                kept.push(m);
            }
        }
        self.types.union(&kept)
    }

    /// Each member of `t` mapped by `f` (dropped on `None`), as a union.
    pub(super) fn map_members(
        &mut self,
        t: TypeId,
        f: impl Fn(TypeId, &mut Self) -> Option<TypeId>,
    ) -> TypeId {
        let members: Vec<TypeId> = match self.types.kind(t) {
            TypeKind::Union(ms) => ms.to_vec(),
            _ => vec![t],
        };
        let mut kept = Vec::with_capacity(members.len());
        for m in members {
            kept.extend(f(m, self));
        }
        self.types.union(&kept)
    }

    pub(in crate::check) fn narrow(
        &mut self,
        file: u32,
        sym: Reference<'_>,
        t: TypeId,
        e: &Expr,
        assume_true: bool,
        depth: u32,
    ) -> TypeId {
        if depth > MAX_NARROW_DEPTH {
            return t;
        }
        match skip_outer_expressions(e) {
            Expr::Ident(_) | Expr::Member(_) => {
                if self.is_reference(file, sym, e) {
                    self.narrow_truthy(t, assume_true)
                } else {
                    t
                }
            }
            Expr::Unary(u) if u.op == UnaryOp::Bang => {
                self.narrow(file, sym, t, &u.arg, !assume_true, depth + 1)
            }
            Expr::Bin(b) => match b.op {
                BinaryOp::LogicalAnd => {
                    let l_true = self.narrow(file, sym, t, &b.left, true, depth + 1);
                    if assume_true {
                        self.narrow(file, sym, l_true, &b.right, true, depth + 1)
                    } else {
                        let l_false = self.narrow(file, sym, t, &b.left, false, depth + 1);
                        let r_false = self.narrow(file, sym, l_true, &b.right, false, depth + 1);
                        self.types.union(&[l_false, r_false])
                    }
                }
                BinaryOp::LogicalOr => {
                    let l_false = self.narrow(file, sym, t, &b.left, false, depth + 1);
                    if assume_true {
                        let l_true = self.narrow(file, sym, t, &b.left, true, depth + 1);
                        let r_true = self.narrow(file, sym, l_false, &b.right, true, depth + 1);
                        self.types.union(&[l_true, r_true])
                    } else {
                        self.narrow(file, sym, l_false, &b.right, false, depth + 1)
                    }
                }
                BinaryOp::EqEqEq | BinaryOp::NotEqEq | BinaryOp::EqEq | BinaryOp::NotEq => {
                    let equal = matches!(b.op, BinaryOp::EqEqEq | BinaryOp::EqEq) == assume_true;
                    let strict = matches!(b.op, BinaryOp::EqEqEq | BinaryOp::NotEqEq);
                    for (x, y) in [(&b.left, &b.right), (&b.right, &b.left)] {
                        if let Expr::Unary(u) = skip_outer_expressions(x)
                            && u.op == UnaryOp::TypeOf
                            && self.is_reference(file, sym, &u.arg)
                            && let Expr::Lit(Lit::Str(s)) = skip_outer_expressions(y)
                        {
                            let name = syntax::str_atom(s);
                            return self.narrow_typeof(t, &name, equal);
                        }
                        if self.is_reference(file, sym, x)
                            && let Some(unit) = self.unit_of(y)
                        {
                            return self.narrow_equality(t, unit, equal, strict);
                        }
                        if let Some((m, chained)) = member_of(x)
                            && self.is_reference(file, sym, &m.obj)
                            && let MemberProp::Ident(p) = &m.prop
                            && let Some(unit) = self.unit_of(y)
                        {
                            let narrowed = self.narrow_discriminant(t, &p.sym, unit, equal);
                            // `x?.kind === "a"` also says `x` is there.
                            let defined =
                                chained && equal && unit != ids::UNDEFINED && unit != ids::NULL;
                            return if defined {
                                self.types.non_nullable(narrowed)
                            } else {
                                narrowed
                            };
                        }
                    }
                    t
                }
                BinaryOp::InstanceOf if self.is_reference(file, sym, &b.left) => {
                    self.narrow_instanceof(file, t, &b.right, assume_true)
                }
                BinaryOp::In if self.is_reference(file, sym, &b.right) => {
                    match skip_outer_expressions(&b.left) {
                        Expr::Lit(Lit::Str(s)) => {
                            let name = syntax::str_atom(s);
                            self.narrow_in(t, &name, assume_true)
                        }
                        _ => t,
                    }
                }
                _ => t,
            },
            Expr::Call(c) => self.narrow_type_guard(file, sym, t, c, assume_true),
            _ => t,
        }
    }
}

/// The one expression a function body returns: an arrow's expression body, or a body that
/// is a lone `return x;`.
pub(in crate::check) fn single_return(stmts: &[Stmt]) -> Option<&Expr> {
    match stmts {
        [Stmt::Return(ReturnStmt { arg: Some(x), .. })] => Some(x),
        _ => None,
    }
}

/// The property access `e` is (`x.a`, or `x?.a` in an optional chain, which it also says).
fn member_of(e: &Expr) -> Option<(&MemberExpr, bool)> {
    match skip_outer_expressions(e) {
        Expr::Member(m) => Some((m, false)),
        Expr::OptChain(o) => match &*o.base {
            OptChainBase::Member(m) => Some((m, true)),
            _ => None,
        },
        _ => None,
    }
}
