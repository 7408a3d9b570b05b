//! Expressions assignable to a wanted type: a local or a path through one, a
//! literal, an operator, a constructor call, an object literal, an arrow function.

use super::Gen;
use crate::synthetic::model::*;
use crate::synthetic::words;
use std::fmt::Write as _;

/// Expressions nest no deeper than this before preferring names and short literals.
const MAX_DEPTH: u32 = 3;

impl Gen<'_> {
    /// An expression whose type is assignable to `ty`.
    pub(super) fn expr(&mut self, ty: &Ty, depth: u32) -> String {
        let r = self.rng.below(100);
        if (r < 45 || depth >= MAX_DEPTH)
            && let Some(p) = self.path_to(ty)
        {
            return p;
        }
        if r < 68
            && depth < MAX_DEPTH
            && let Some(c) = self.call_returning(ty, depth)
        {
            return c;
        }
        self.construct(ty, depth)
    }

    /// A local, or a field of a local, of exactly this type.
    fn path_to(&mut self, ty: &Ty) -> Option<String> {
        // (local, field) pairs; the string is built for the chosen one only.
        let mut found: Vec<(usize, Option<usize>)> = Vec::new();
        for (li, local) in self.locals.iter().enumerate() {
            if &local.ty == ty {
                found.push((li, None));
            }
            for (fi, f) in self.model.fields_ref(&local.ty).iter().enumerate() {
                if !f.optional && self.model.field_is(&local.ty, f, ty) {
                    found.push((li, Some(fi)));
                }
            }
        }
        if found.is_empty() {
            return None;
        }
        let (li, fi) = *self.rng.pick(&found);
        let local = &self.locals[li];
        Some(match fi {
            None => local.name.clone(),
            Some(fi) => format!(
                "{}.{}",
                local.name,
                self.model.fields_ref(&local.ty)[fi].name
            ),
        })
    }

    fn string_literal(&mut self) -> String {
        let a = *self.rng.pick(words::WORDS);
        match self.rng.below(3) {
            0 => format!("\"{a}\""),
            1 => format!("\"{a}-{}\"", self.rng.pick(words::WORDS)),
            _ => format!("\"{} {a}\"", self.rng.pick(words::WORDS)),
        }
    }

    /// A value built from scratch: a literal, an operator, a constructor call.
    pub(super) fn construct(&mut self, ty: &Ty, depth: u32) -> String {
        let deep = depth >= MAX_DEPTH;
        match ty {
            Ty::Num => match if deep { 0 } else { self.rng.below(7) } {
                0 | 1 => self.rng.range(0, 4096).to_string(),
                2 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    let op = *self.rng.pick(&["+", "-", "*"]);
                    format!("{a} {op} {b}")
                }
                3 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    let f = *self.rng.pick(&["max", "min", "hypot"]);
                    format!("Math.{f}({a}, {b})")
                }
                4 => {
                    let s = self.receiver(&Ty::Str, depth + 1);
                    format!("{s}.length")
                }
                5 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    format!("Math.round({a} * 100) / 100")
                }
                _ => match self.local_array() {
                    Some(arr) => format!("{arr}.length"),
                    None => format!("{}.{}", self.rng.range(0, 99), self.rng.range(1, 9)),
                },
            },
            Ty::Str => match if deep { 0 } else { self.rng.below(7) } {
                0 | 1 => self.string_literal(),
                2 => {
                    let a = self.expr(&Ty::Str, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    let w = *self.rng.pick(words::WORDS);
                    format!("`{w}:${{{a}}}/${{{b}}}`")
                }
                3 => {
                    let a = self.receiver(&Ty::Str, depth + 1);
                    let f = *self.rng.pick(&["toUpperCase", "trim", "toLowerCase"]);
                    format!("{a}.{f}()")
                }
                4 => {
                    let n = self.receiver(&Ty::Num, depth + 1);
                    format!("{n}.toFixed({})", self.rng.range(0, 3))
                }
                5 => {
                    let n = self.expr(&Ty::Num, depth + 1);
                    format!("String({n})")
                }
                _ => {
                    let arr = self.receiver(&Ty::array(Ty::Str), depth + 1);
                    format!("{arr}.join(\", \")")
                }
            },
            Ty::Bool => match if deep { 0 } else { self.rng.below(6) } {
                0 => (*self.rng.pick(&["true", "false"])).to_string(),
                1 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    // Not `===`: two numeric literals of different value do not overlap.
                    let op = *self.rng.pick(&[">", "<", ">=", "<="]);
                    format!("{a} {op} {b}")
                }
                2 => {
                    let s = self.receiver(&Ty::Str, depth + 1);
                    format!("{s}.length === 0")
                }
                3 => {
                    let s = self.receiver(&Ty::Str, depth + 1);
                    let w = *self.rng.pick(words::WORDS);
                    format!("{s}.includes(\"{w}\")")
                }
                // Not `mode === "a"`: a const initialised with a literal is narrowed to
                // it, and comparing it with another member would be an error.
                4 => match self.local_of(|t| matches!(t, Ty::Alias(_))) {
                    Some((name, Ty::Alias(a))) => {
                        let members = self.model.aliases[a].members.clone();
                        let take = self.rng.range(1, members.len());
                        let listed: Vec<String> = members
                            .iter()
                            .take(take)
                            .map(|m| format!("\"{m}\""))
                            .collect();
                        format!("[{}].includes({name})", listed.join(", "))
                    }
                    _ => "false".into(),
                },
                _ => {
                    let b = self.receiver(&Ty::Bool, depth + 1);
                    format!("!{b}")
                }
            },
            Ty::Alias(a) => {
                let members = self.model.aliases[*a].members.clone();
                if !deep && self.rng.chance(150) {
                    let c = self.expr(&Ty::Bool, depth + 1);
                    format!(
                        "{c} ? \"{}\" : \"{}\"",
                        self.rng.pick(&members),
                        self.rng.pick(&members)
                    )
                } else {
                    format!("\"{}\"", self.rng.pick(&members))
                }
            }
            Ty::Enum(e) => {
                let def = &self.model.enums[*e];
                let (m, name) = (def.module, def.name.clone());
                let member = self.rng.pick(&def.members).clone();
                self.use_symbol(m, &name, false);
                format!("{name}.{member}")
            }
            Ty::Iface(..) => self.object_literal(ty, depth),
            Ty::Class(c) => {
                let def = self.model.classes[*c].clone();
                self.use_symbol(def.module, &def.name, false);
                let args = self.args(&def.ctor, depth);
                format!("new {}({args})", def.name)
            }
            Ty::Array(e) => {
                if !deep {
                    let source = self.local_array();
                    match (self.rng.below(4), source) {
                        (0, Some(arr)) => {
                            let elem = self.local_elem(&arr);
                            let item = self.local_name(&elem);
                            let mark = self.locals.len();
                            self.push_local(item.clone(), elem);
                            let body = self.callback_expr(e, depth + 1);
                            self.locals.truncate(mark);
                            self.local_names.remove(&item);
                            return format!("{arr}.map(({item}) => {body})");
                        }
                        (2, Some(arr)) => {
                            if let Some(call) = self.mapper_call(&arr, e, depth) {
                                return call;
                            }
                        }
                        (1, _) if self.locals.iter().any(|l| &l.ty == ty) => {
                            let arr = self.path_to(ty).unwrap_or_default();
                            let elem = (**e).clone();
                            let item = self.local_name(&elem);
                            let mark = self.locals.len();
                            self.push_local(item.clone(), elem);
                            let cond = self.callback_expr(&Ty::Bool, depth + 1);
                            self.locals.truncate(mark);
                            self.local_names.remove(&item);
                            return format!("{arr}.filter(({item}) => {cond})");
                        }
                        _ => {}
                    }
                }
                if deep {
                    return "[]".into();
                }
                let n = self.rng.range(1, 3);
                let parts: Vec<String> = (0..n).map(|_| self.expr(e, depth + 1)).collect();
                format!("[{}]", parts.join(", "))
            }
            Ty::Fn(a, r) => {
                let param = self.local_name(a);
                let mark = self.locals.len();
                self.push_local(param.clone(), (**a).clone());
                let body = match r {
                    Some(r) => self.callback_expr(r, depth + 1),
                    None => format!("console.log({param})"),
                };
                self.locals.truncate(mark);
                self.local_names.remove(&param);
                format!("({param}) => {body}")
            }
            Ty::Param => "undefined as never".into(),
        }
    }

    fn object_literal(&mut self, ty: &Ty, depth: u32) -> String {
        let fields = self.model.fields_of(ty);
        let spread = if depth < MAX_DEPTH && self.rng.chance(120) {
            self.path_to(ty)
        } else {
            None
        };
        let mut parts = Vec::new();
        if let Some(s) = &spread {
            parts.push(format!("...{s}"));
        }
        for f in &fields {
            if spread.is_some() && self.rng.chance(700) {
                continue;
            }
            if f.optional && (depth >= 2 || self.rng.chance(650)) {
                continue;
            }
            // Shorthand when a local of that name and type exists.
            if self.locals.iter().any(|l| l.name == f.name && l.ty == f.ty) {
                parts.push(f.name.clone());
                continue;
            }
            let v = self.expr(&f.ty, depth + 1);
            parts.push(format!("{}: {v}", f.name));
        }
        if parts.is_empty() {
            return "{}".into();
        }
        let flat = format!("{{ {} }}", parts.join(", "));
        if flat.len() <= 90 || depth > 0 {
            flat
        } else {
            let mut s = String::from("{\n");
            for p in parts {
                let _ = writeln!(s, "{}{p},", "    ".repeat(self.expr_indent + 1));
            }
            let _ = write!(s, "{}}}", "    ".repeat(self.expr_indent));
            s
        }
    }

    /// The body of an arrow function written inside an expression: not async, whatever
    /// the enclosing function is.
    pub(super) fn callback_expr(&mut self, ty: &Ty, depth: u32) -> String {
        let was_async = std::mem::replace(&mut self.in_async, false);
        let e = self.expr(ty, depth);
        self.in_async = was_async;
        arrow_body(e)
    }

    /// An expression to call a method on or read a property of: parenthesised unless
    /// it is a name, a property path, a string literal or a single call.
    fn receiver(&mut self, ty: &Ty, depth: u32) -> String {
        let e = self.expr(ty, depth);
        if is_primary(&e) { e } else { format!("({e})") }
    }
}

/// Whether `e` can take `.member` without parentheses.
fn is_primary(e: &str) -> bool {
    let first = e.chars().next().unwrap_or('0');
    if first == '"' {
        return e[1..].find('"') == Some(e.len() - 2);
    }
    if !(first.is_ascii_alphabetic() || first == '_' || first == '$') {
        return false;
    }
    let Some(open) = e.find('(') else {
        return e
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    };
    let head = &e[..open];
    if !head.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || c == '_'
            || c == '.'
            || c == '<'
            || c == '>'
            || c == '['
            || c == ']'
    }) {
        return false;
    }
    // The first parenthesis must close at the very end: `f(a)(b)` or `f(a) + 1` is not one call.
    let mut depth = 0i32;
    for (i, c) in e.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == e.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// An object literal as an arrow body needs parentheses, or it reads as a block.
pub(super) fn arrow_body(e: String) -> String {
    if e.starts_with('{') {
        format!("({e})")
    } else {
        e
    }
}
