//! Printing types by structure (never by id), for messages.

use crate::check::Checker;
use crate::syntax;
use crate::types::{TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    pub(in crate::check) fn not_assignable(&mut self, s: TypeId, t: TypeId) -> String {
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

    pub(super) fn write_type(&mut self, t: TypeId, out: &mut String, depth: u32) {
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
            TypeKind::NumberLit(n) => out.push_str(&syntax::format_number(n)),
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
            TypeKind::Spread(x) => {
                out.push_str("...");
                self.write_type(x, out, depth);
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
                if o.order.is_empty()
                    && o.calls.is_empty()
                    && o.string_index.is_none()
                    && o.number_index.is_none()
                {
                    out.push_str("{}");
                    return;
                }
                out.push_str("{ ");
                for name in o.order.iter().take(6) {
                    let p = o.props[name].clone();
                    let pty = self.prop_ty(&p);
                    let optional = if p.optional { "?" } else { "" };
                    match name.strip_prefix(syntax::WELL_KNOWN_PREFIX) {
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
                for (key, index) in [("string", o.string_index), ("number", o.number_index)] {
                    if let Some(i) = index {
                        let _ = write!(out, "[x: {key}]: ");
                        self.write_type(i, out, depth + 1);
                        out.push_str("; ");
                    }
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
}
