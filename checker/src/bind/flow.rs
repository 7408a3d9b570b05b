//! The control-flow graph, built by the binder as TypeScript's binder builds it.
//!
//! Every identifier reference in an expression gets the flow node current at that point
//! (TypeScript's `flowNode`). Walking antecedents backwards from there reaches the
//! assignments and conditions that decide the reference's narrowed type: the checker does
//! that walk (TypeScript's `getFlowTypeOfReference`). The graph is built once per file and
//! shared, read-only, by every checker; what a checker learns from it (flow types,
//! reachability) is cached per checker.
use swc_ecma_ast::{CallExpr, Expr, MemberExpr};

use super::SymbolId;

/// Index of a node in its file's [`FlowNode`] arena.
pub type FlowId = u32;

/// The node every file's arena starts with: code after `return`, `throw`, `break`.
pub const UNREACHABLE: FlowId = 0;

/// One node of the flow graph. Edges point backwards, to antecedents.
#[derive(Debug)]
pub enum FlowNode<'a> {
    /// Code that cannot run.
    Unreachable,
    /// Entry of a file or of a function body (the start position of the function).
    /// For a function expression or arrow, `captured_from` is the flow where it was
    /// created: constant variables it captures keep the narrowing they had there.
    Start {
        container: Option<u32>,
        captured_from: FlowId,
    },
    /// `x = value`, `let x = value`, `x += ...` (`value` only for a plain `=`):
    /// from here backwards, `symbol`'s type is what was assigned.
    Assignment {
        symbol: SymbolId,
        value: Option<&'a Expr>,
        antecedent: FlowId,
    },
    /// `x.a.b = value` or a compound assignment to it (`value` only for a plain `=`), where
    /// the target is a chain of named properties on an identifier: from here backwards
    /// the property reference `x.a.b` has what was assigned, and longer references under
    /// it (`x.a.b.c`) their declared types.
    PropertyAssignment {
        target: &'a MemberExpr,
        value: Option<&'a Expr>,
        antecedent: FlowId,
    },
    /// The branch where `expr` was found true (or false).
    Condition {
        expr: &'a Expr,
        assume_true: bool,
        antecedent: FlowId,
    },
    /// A join: the end of an `if`, a conditional expression, a `switch`, or (`is_loop`)
    /// the head of a loop, whose back edges are added as the loop body is bound.
    Label {
        antecedents: Vec<FlowId>,
        is_loop: bool,
    },
    /// A call made as a statement (a potential assertion call, as TypeScript marks them).
    Call {
        call: &'a CallExpr,
        antecedent: FlowId,
    },
}

impl FlowNode<'_> {
    /// The single antecedent of a non-join node.
    pub fn antecedent(&self) -> Option<FlowId> {
        match self {
            FlowNode::Assignment { antecedent, .. }
            | FlowNode::PropertyAssignment { antecedent, .. }
            | FlowNode::Condition { antecedent, .. }
            | FlowNode::Call { antecedent, .. } => Some(*antecedent),
            _ => None,
        }
    }
}
