//! The binder's control-flow graph, and narrowing by the checker's walk over it.
use checker::bind::bind_all;
use checker::flow::{FlowId, FlowNode, UNREACHABLE};
use checker::parse::parse;

use crate::{check, render};

/// The flow node of the `n`th reference (0-based, in source order) to `name` in `src`.
fn flow_at(src: &str, name: &str, n: usize) -> (Vec<String>, FlowId) {
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let f = &bound.files[0];
    let mut refs: Vec<u32> = src
        .match_indices(name)
        .map(|(i, _)| i as u32 + 1)
        .filter(|pos| f.flow_of.contains_key(pos))
        .collect();
    refs.sort();
    let kinds = f
        .flow_nodes
        .iter()
        .map(|n| match n {
            FlowNode::Unreachable => "unreachable".to_string(),
            FlowNode::Start { .. } => "start".to_string(),
            FlowNode::Assignment { .. } => "assignment".to_string(),
            FlowNode::Condition { assume_true, .. } => format!("condition({assume_true})"),
            FlowNode::Label {
                antecedents,
                is_loop,
            } => format!("label(loop={is_loop}, {})", antecedents.len()),
            FlowNode::Call { .. } => "call".to_string(),
        })
        .collect();
    (kinds, f.flow_of[&refs[n]])
}

#[test]
fn a_reference_inside_an_if_sits_behind_the_true_condition() {
    let src = "function f(x: string | number) { if (typeof x === 'string') { x; } else { x; } x; }";
    let (kinds, then_ref) = flow_at(src, "x", 1);
    assert_eq!(kinds[then_ref as usize], "condition(true)");
    let (kinds, else_ref) = flow_at(src, "x", 2);
    assert_eq!(kinds[else_ref as usize], "condition(false)");
    let (kinds, after) = flow_at(src, "x", 3);
    assert_eq!(kinds[after as usize], "label(loop=false, 2)");
}

#[test]
fn code_after_return_is_unreachable_and_branches_that_return_do_not_join() {
    let src = "function f(x: string | null) { if (x === null) { return; } x; return; x; }";
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let f = &bound.files[0];
    let after_if = f.flow_of[&(src.find("x; return").unwrap() as u32 + 1)];
    assert!(matches!(
        f.flow_nodes[after_if as usize],
        FlowNode::Condition {
            assume_true: false,
            ..
        }
    ));
    let dead = f.flow_of[&(src.rfind("x;").unwrap() as u32 + 1)];
    assert_eq!(dead, UNREACHABLE);
}

#[test]
fn a_loop_head_collects_its_entry_and_back_edges_and_continue() {
    let src = "let i = 0; while (i < 3) { if (i) { continue; } i = i + 1; } i;";
    let files = vec![parse("a.ts", src.as_bytes(), false)];
    let bound = bind_all(&files);
    let heads: Vec<usize> = bound.files[0]
        .flow_nodes
        .iter()
        .filter_map(|n| match n {
            FlowNode::Label {
                antecedents,
                is_loop: true,
            } => Some(antecedents.len()),
            _ => None,
        })
        .collect();
    assert_eq!(heads, vec![3], "entry, continue, end of body");
}

#[test]
fn assignments_and_declarations_with_initializers_are_flow_nodes() {
    let src = "export {}; let a: string | number = 1; a = 'x'; a;";
    let (kinds, last) = flow_at(src, "a", 1);
    assert_eq!(kinds[last as usize], "assignment");
    assert_eq!(kinds.iter().filter(|k| *k == "assignment").count(), 2);
}

#[test]
fn narrowing_program_snapshot() {
    let _ = (check, render);
}
