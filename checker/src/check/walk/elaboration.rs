//! Reporting a failed assignment, part of the walk: `TS2353` (or `TS2561` with a spelling
//! suggestion) follows the syntax of the expression whose relation failed, as TypeScript's
//! error elaboration does: at the name of the first excess property, in the literal itself
//! or in object and array literals nested in it (property values, array elements,
//! conditional branches); else `TS2322` at the expression. Whether a property is excess is
//! the relation's (excess.rs).
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::check::types::excess::Excess;
use crate::check::types::widening::MAX_FRESH_DEPTH;
use crate::check::{Checker, node_key};
use crate::diag::Code;
use crate::syntax;
use crate::syntax::expr_lo;
use crate::types::{TypeId, TypeKind};

/// `e` without the parentheses around it.
fn skip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => skip_parens(&p.expr),
        _ => e,
    }
}

/// The name a written object literal member declares, and its position; `ident` when the
/// name is an identifier (only those get a spelling suggestion).
fn member_name(p: &Prop) -> Option<(Atom, u32, bool)> {
    let key = |k: &PropName| {
        syntax::prop_name(k).map(|n| {
            let lo = match k {
                PropName::Ident(i) => i.span.lo.0,
                PropName::Str(s) => s.span.lo.0,
                PropName::Num(n) => n.span.lo.0,
                PropName::Computed(c) => c.span.lo.0,
                PropName::BigInt(b) => b.span.lo.0,
            };
            (n, lo, matches!(k, PropName::Ident(_)))
        })
    };
    match p {
        Prop::Shorthand(i) => Some((i.sym.clone(), i.span.lo.0, true)),
        Prop::Assign(a) => Some((a.key.sym.clone(), a.key.span.lo.0, true)),
        Prop::KeyValue(kv) => key(&kv.key),
        Prop::Getter(g) => key(&g.key),
        Prop::Setter(s) => key(&s.key),
        Prop::Method(m) => key(&m.key),
    }
}

/// A property name as TypeScript's `symbolToString` writes it: quoted unless it is an
/// identifier or a number.
fn shown_name(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if ident || name.parse::<f64>().is_ok() {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// The edit distance TypeScript's spelling suggestions use (`levenshteinWithMax`): a
/// substitution that only changes case costs 0.1, others 2, insertions and deletions 1;
/// `None` when it exceeds `max`.
fn levenshtein_with_max(a: &[char], b: &[char], max: f64) -> Option<f64> {
    let big = max + 0.01;
    let mut previous: Vec<f64> = (0..=b.len()).map(|i| i as f64).collect();
    let mut current = vec![0.0; b.len() + 1];
    for i in 1..=a.len() {
        let c1 = a[i - 1];
        let min_j = if (i as f64) > max {
            (i as f64 - max).ceil() as usize
        } else {
            1
        };
        let max_j = if (b.len() as f64) > max + i as f64 {
            (max + i as f64).floor() as usize
        } else {
            b.len()
        };
        current[0] = i as f64;
        let mut col_min = i as f64;
        for c in current.iter_mut().take(min_j).skip(1) {
            *c = big;
        }
        for j in min_j..=max_j {
            let c2 = b[j - 1];
            let substitution = if c1.to_lowercase().eq(c2.to_lowercase()) {
                previous[j - 1] + 0.1
            } else {
                previous[j - 1] + 2.0
            };
            let dist = if c1 == c2 {
                previous[j - 1]
            } else {
                (previous[j] + 1.0)
                    .min(current[j - 1] + 1.0)
                    .min(substitution)
            };
            current[j] = dist;
            col_min = col_min.min(dist);
        }
        for c in current.iter_mut().skip(max_j + 1) {
            *c = big;
        }
        if col_min > max {
            return None;
        }
        std::mem::swap(&mut previous, &mut current);
    }
    let r = previous[b.len()];
    (r <= max).then_some(r)
}

/// TypeScript's `getSpellingSuggestion`: the closest candidate within a distance that
/// grows with the name's length; names under 3 characters only when they differ by case.
fn spelling_suggestion<'n>(name: &str, candidates: &'n [Atom]) -> Option<&'n Atom> {
    let chars: Vec<char> = name.chars().collect();
    let len = chars.len();
    let max_length_difference = 2.max((len as f64 * 0.34).floor() as usize);
    let mut best_distance = (len as f64 * 0.4).floor() + 1.0;
    let mut best = None;
    for c in candidates {
        let cs: Vec<char> = c.chars().collect();
        if cs.len().abs_diff(len) > max_length_difference || c.as_str() == name {
            continue;
        }
        if cs.len() < 3 && c.to_lowercase() != name.to_lowercase() {
            continue;
        }
        if let Some(d) = levenshtein_with_max(&chars, &cs, best_distance - 0.1) {
            best_distance = d;
            best = Some(c);
        }
    }
    best
}

impl<'a> Checker<'a, '_> {
    /// The names a suggestion may offer: the properties of the type the message names (of
    /// every member, for a union).
    fn suggestion_candidates(&mut self, t: TypeId) -> Vec<Atom> {
        match self.types.kind(t).clone() {
            TypeKind::Union(ms) => {
                let mut names: Option<Vec<Atom>> = None;
                for &m in ms.iter() {
                    let mm = self.members(m);
                    names = Some(match names {
                        None => mm.order.clone(),
                        Some(ns) => ns
                            .into_iter()
                            .filter(|n| mm.props.contains_key(n))
                            .collect(),
                    });
                }
                names.unwrap_or_default()
            }
            _ => self.members(t).order.clone(),
        }
    }

    /// The type the checker gave expression `e` in this walk.
    fn checked_type(&self, file: u32, e: &Expr) -> Option<TypeId> {
        self.node_links
            .get(&node_key(file, expr_lo(e)))
            .map(|l| l.resolved_type)
    }

    /// Checks that `source`, the type of expression `e`, is assignable to `target`
    /// (TypeScript's `checkTypeAssignableToAndOptionallyElaborate`): when it is not, reports
    /// the excess property that explains it, else `TS2322` at `pos`.
    pub(super) fn check_assignable_to(
        &mut self,
        file: u32,
        e: &'a Expr,
        source: TypeId,
        target: TypeId,
        pos: u32,
    ) {
        if !self.is_assignable(source, target) && !self.report_excess(file, e, target) {
            let msg = self.not_assignable(source, target);
            self.report(file, pos, Code::NotAssignable, msg);
        }
    }

    /// Reports the excess properties that make expression `e` (whose relation to `target`
    /// failed) not assignable, as TypeScript's elaboration finds them: at the first excess
    /// property of a fresh literal, else in the literals nested in it. `true` when it
    /// reported (the caller then reports nothing else).
    pub(super) fn report_excess(&mut self, file: u32, e: &'a Expr, target: TypeId) -> bool {
        self.report_excess_at(file, e, target, 0)
    }

    fn report_excess_at(&mut self, file: u32, e: &'a Expr, target: TypeId, depth: u32) -> bool {
        if depth > MAX_FRESH_DEPTH {
            return false;
        }
        let e = skip_parens(e);
        match e {
            Expr::Object(o) => {
                let Some(s) = self.checked_type(file, e).filter(|&s| self.is_fresh(s)) else {
                    return false;
                };
                match self.excess_property(s, target) {
                    Excess::Property(name, shown) => {
                        let Some((lo, ident)) = o.props.iter().find_map(|p| match p {
                            PropOrSpread::Prop(p) => member_name(p)
                                .filter(|(n, ..)| *n == name)
                                .map(|(_, lo, ident)| (lo, ident)),
                            PropOrSpread::Spread(_) => None,
                        }) else {
                            return false;
                        };
                        let suggestion = if ident {
                            let candidates = self.suggestion_candidates(shown);
                            spelling_suggestion(&name, &candidates).cloned()
                        } else {
                            None
                        };
                        let ty = self.type_to_string(shown);
                        let prop = shown_name(&name);
                        match suggestion {
                            Some(sugg) => self.report(
                                file,
                                lo,
                                Code::ExcessPropertySuggestion,
                                format!(
                                    "Object literal may only specify known properties, but '{prop}' does not exist in type '{ty}'. Did you mean to write '{sugg}'?"
                                ),
                            ),
                            None => self.report(
                                file,
                                lo,
                                Code::ExcessProperty,
                                format!(
                                    "Object literal may only specify known properties, and '{prop}' does not exist in type '{ty}'."
                                ),
                            ),
                        }
                        true
                    }
                    Excess::Nested(name, nested) => {
                        match o.props.iter().find_map(|p| match p {
                            PropOrSpread::Prop(p) => match &**p {
                                Prop::KeyValue(kv)
                                    if syntax::prop_name(&kv.key) == Some(name.clone()) =>
                                {
                                    Some(&*kv.value)
                                }
                                _ => None,
                            },
                            PropOrSpread::Spread(_) => None,
                        }) {
                            Some(v) => self.report_excess_at(file, v, nested, depth + 1),
                            None => false,
                        }
                    }
                    Excess::None => {
                        let mut reported = false;
                        for p in &o.props {
                            let PropOrSpread::Prop(p) = p else { continue };
                            let Prop::KeyValue(kv) = &**p else { continue };
                            let v = skip_parens(&kv.value);
                            if !matches!(v, Expr::Object(_) | Expr::Array(_) | Expr::Cond(_)) {
                                continue;
                            }
                            let Some(name) = syntax::prop_name(&kv.key) else {
                                continue;
                            };
                            let Some(tp) = self.property_type(target, &name) else {
                                continue;
                            };
                            reported |= self.report_failed(file, v, tp, depth);
                        }
                        reported
                    }
                }
            }
            Expr::Array(a) => {
                let target = self.types.non_nullable(target);
                let tuple = match self.types.kind(target).clone() {
                    TypeKind::Tuple(es) => Some(es),
                    _ => None,
                };
                let element = match &tuple {
                    Some(_) => None,
                    None => match self.types.kind(target).clone() {
                        TypeKind::Reference(s, _)
                            if Some(s) == self.globals.array
                                || self.bound.symbol(s).name.as_str() == "ReadonlyArray" =>
                        {
                            Some(self.element_type(target))
                        }
                        _ => None,
                    },
                };
                let mut reported = false;
                for (i, el) in a.elems.iter().enumerate() {
                    let Some(el) = el else { continue };
                    if el.spread.is_some() {
                        continue;
                    }
                    let et = match (&tuple, element) {
                        (Some(es), _) => self.tuple_context(es, i),
                        (None, Some(e)) => Some(e),
                        _ => None,
                    };
                    if let Some(et) = et {
                        reported |= self.report_failed(file, &el.expr, et, depth);
                    }
                }
                reported
            }
            Expr::Cond(c) => {
                self.report_failed(file, &c.cons, target, depth)
                    || self.report_failed(file, &c.alt, target, depth)
            }
            _ => false,
        }
    }

    /// Reports within the nested literal `e` when its own relation to `target` fails.
    fn report_failed(&mut self, file: u32, e: &'a Expr, target: TypeId, depth: u32) -> bool {
        let e = skip_parens(e);
        if !matches!(e, Expr::Object(_) | Expr::Array(_) | Expr::Cond(_)) {
            return false;
        }
        let Some(t) = self.checked_type(file, e) else {
            return false;
        };
        !self.is_assignable(t, target) && self.report_excess_at(file, e, target, depth + 1)
    }
}
