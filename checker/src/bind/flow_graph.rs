//! Building the control-flow graph (`flow.rs`) while walking: conditions, joins, loops,
//! assignments, `break` and `continue`, and the flow a function captures.
use swc_ecma_ast::*;

use super::{Binder, DeclRef, JumpTarget};
use crate::bind::flow::{FlowId, FlowNode, UNREACHABLE};

impl<'a> Binder<'a, '_> {
    pub(super) fn add_flow(&mut self, node: FlowNode<'a>) -> FlowId {
        let id = self.out.flow_nodes.len() as FlowId;
        let depth = match &node {
            FlowNode::Label { antecedents, .. } => antecedents
                .iter()
                .map(|&a| self.out.flow_depth[a as usize])
                .max()
                .unwrap_or(0),
            n => n
                .antecedent()
                .map_or(0, |a| self.out.flow_depth[a as usize]),
        };
        self.out.flow_depth.push(depth + 1);
        self.out.flow_nodes.push(Box::new(node));
        id
    }

    /// The branch of `antecedent` where `expr` is `assume_true`.
    pub(super) fn condition(
        &mut self,
        expr: &'a Expr,
        assume_true: bool,
        antecedent: FlowId,
    ) -> FlowId {
        if antecedent == UNREACHABLE {
            return UNREACHABLE;
        }
        self.add_flow(FlowNode::Condition {
            expr,
            assume_true,
            antecedent,
        })
    }

    /// A join of `antecedents` (the unreachable ones dropped; none left is unreachable).
    pub(super) fn join(&mut self, mut antecedents: Vec<FlowId>) -> FlowId {
        antecedents.retain(|&a| a != UNREACHABLE);
        antecedents.dedup();
        match antecedents.len() {
            0 => UNREACHABLE,
            1 => antecedents[0],
            _ => self.add_flow(FlowNode::Label {
                antecedents,
                is_loop: false,
            }),
        }
    }

    /// A loop head entered from the current flow; back edges are added by [`Self::back_edge`].
    pub(super) fn loop_head(&mut self) -> FlowId {
        let entry = self.flow;
        self.add_flow(FlowNode::Label {
            antecedents: vec![entry],
            is_loop: true,
        })
    }

    pub(super) fn back_edge(&mut self, head: FlowId, from: FlowId) {
        if from == UNREACHABLE {
            return;
        }
        if let FlowNode::Label { antecedents, .. } = &mut *self.out.flow_nodes[head as usize]
            && !antecedents.contains(&from)
        {
            antecedents.push(from);
        }
    }

    /// Records an assignment to the identifier at `pos` (when it resolved in this file).
    pub(super) fn assignment(&mut self, pos: u32, value: Option<&'a Expr>) {
        if let Some(&symbol) = self.out.node_symbols.get(&pos)
            && symbol.file == self.file
        {
            let declaring = self.out.symbols[symbol.index as usize].decls.iter().any(
                |(_, d)| matches!(d, DeclRef::Binding { ident, .. } if ident.id.span.lo.0 == pos),
            );
            if !declaring {
                self.out.reassigned.insert(symbol);
            }
            let antecedent = self.flow;
            if antecedent == UNREACHABLE {
                return;
            }
            self.flow = self.add_flow(FlowNode::Assignment {
                symbol,
                value,
                antecedent,
            });
        }
    }

    /// Binds a loop `body` whose head is `head`, with `continue` returning to `head`.
    pub(super) fn loop_body(&mut self, head: FlowId, body: &'a Stmt) -> Vec<FlowId> {
        let label = self.pending_label.take();
        self.jumps.push(JumpTarget {
            label,
            breaks: Vec::new(),
            continue_to: Some(head),
        });
        self.stmt(body);
        let end = self.flow;
        self.back_edge(head, end);
        self.jumps.pop().map(|j| j.breaks).unwrap_or_default()
    }

    pub(super) fn jump(&mut self, label: Option<&Ident>, is_continue: bool) {
        let from = self.flow;
        self.flow = UNREACHABLE;
        let target = self.jumps.iter().rposition(|j| match label {
            Some(l) => j.label.as_ref() == Some(&l.sym),
            None => !is_continue || j.continue_to.is_some(),
        });
        let Some(i) = target else { return };
        if is_continue {
            if let Some(head) = self.jumps[i].continue_to {
                self.back_edge(head, from);
            }
        } else if from != UNREACHABLE {
            self.jumps[i].breaks.push(from);
        }
    }

    /// Binds a function body from its own start node, then resumes the outer flow.
    pub(super) fn in_function(&mut self, container: u32, walk: impl FnOnce(&mut Self)) {
        let outer = self.flow;
        let jumps = std::mem::take(&mut self.jumps);
        let captured_from = if std::mem::take(&mut self.capturing) {
            outer
        } else {
            UNREACHABLE
        };
        self.flow = self.add_flow(FlowNode::Start {
            container: Some(container),
            captured_from,
        });
        walk(self);
        self.flow = outer;
        self.jumps = jumps;
    }
}
