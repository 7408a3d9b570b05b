//! Function bodies: declarations, control flow, loops, awaits, and the deliberate errors.

use super::Gen;
use crate::synthetic::ErrorCode;
use crate::synthetic::model::Ty;
use crate::synthetic::words;

impl Gen<'_> {
    /// Writes `count` statements and, with a return type, a final `return`.
    pub(super) fn body(&mut self, indent: usize, ret: Option<&Ty>, count: usize) {
        for _ in 0..count {
            self.statement(indent, 0);
        }
        if let Some(r) = ret {
            self.expr_indent = indent;
            let e = self.expr(r, 0);
            self.line(indent, &format!("return {e};"));
        }
    }

    fn statement(&mut self, indent: usize, depth: u32) {
        self.expr_indent = indent;
        if self.error_due && self.deliberate_error(indent) {
            self.error_due = false;
            let every = self.shape.error_every_bytes;
            self.error_budget = self.rng.range(every / 2, every * 3 / 2) as isize;
            return;
        }
        let nested = depth < 2;
        let weights = [
            36,
            if nested { 9 } else { 0 },
            if nested { 8 } else { 0 },
            7,
            if nested { 4 } else { 0 },
            if depth == 0 { 3 } else { 0 },
            5,
            if self.in_async { 10 } else { 0 },
            5,
            8,
            self.shape.mix.type_level.min(6),
        ];
        match self.rng.weighted(&weights) {
            0 => self.declaration(indent),
            1 => self.if_statement(indent, depth),
            2 => self.loop_statement(indent, depth),
            3 => self.log_statement(indent),
            4 => self.switch_statement(indent, depth),
            5 => self.try_statement(indent, depth),
            6 => self.accumulate(indent),
            7 => self.await_statement(indent),
            8 => self.optional_access(indent),
            9 => self.call_statement(indent),
            _ => self.utility_type_statement(indent),
        }
    }

    fn declaration(&mut self, indent: usize) {
        let ty = self.pick_ty(0);
        let e = self.expr(&ty, 0);
        let name = self.local_name(&ty);
        if self.model.infers_exactly(&ty, 0) && self.rng.chance(550) {
            self.line(indent, &format!("const {name} = {e};"));
        } else {
            let t = self.ty(&ty);
            self.line(indent, &format!("const {name}: {t} = {e};"));
        }
        self.push_local(name, ty);
    }

    fn block(&mut self, indent: usize, depth: u32, count: usize) {
        let mark = self.locals.len();
        for _ in 0..count {
            self.statement(indent, depth);
        }
        self.locals.truncate(mark);
    }

    fn if_statement(&mut self, indent: usize, depth: u32) {
        let cond = self.expr(&Ty::Bool, 1);
        self.line(indent, &format!("if ({cond}) {{"));
        let n = self.rng.range(1, 3);
        self.block(indent + 1, depth + 1, n);
        if self.rng.chance(400) {
            self.line(indent, "} else {");
            let n = self.rng.range(1, 2);
            self.block(indent + 1, depth + 1, n);
        }
        self.line(indent, "}");
    }

    fn ensure_array(&mut self, indent: usize) -> String {
        if let Some(a) = self.local_array() {
            return a;
        }
        let elem = self.pick_ty(1);
        let ty = Ty::array(elem);
        let e = self.expr(&ty, 0);
        let name = self.local_name(&ty);
        let t = self.ty(&ty);
        self.line(indent, &format!("const {name}: {t} = {e};"));
        self.push_local(name.clone(), ty);
        name
    }

    fn loop_statement(&mut self, indent: usize, depth: u32) {
        let arr = self.ensure_array(indent);
        let elem = self.local_elem(&arr);
        let item = self.local_name(&elem);
        let mark = self.locals.len();
        match self.rng.below(3) {
            0 => {
                self.line(indent, &format!("for (const {item} of {arr}) {{"));
                self.push_local(item, elem);
                let n = self.rng.range(1, 3);
                self.block(indent + 1, depth + 1, n);
                self.line(indent, "}");
            }
            1 => {
                let position = self.local_name(&Ty::Num);
                self.line(indent, &format!("{arr}.forEach(({item}, {position}) => {{"));
                self.push_local(item, elem);
                self.push_local(position, Ty::Num);
                let was_async = self.in_async;
                self.in_async = false;
                let n = self.rng.range(1, 2);
                self.block(indent + 1, depth + 1, n);
                self.in_async = was_async;
                self.line(indent, "});");
            }
            _ => {
                let i = self.local_name(&Ty::Num);
                self.line(
                    indent,
                    &format!("for (let {i} = 0; {i} < {arr}.length; {i} += 1) {{"),
                );
                self.line(indent + 1, &format!("const {item} = {arr}[{i}];"));
                self.push_local(item, elem);
                let n = self.rng.range(1, 2);
                self.block(indent + 1, depth + 1, n);
                self.line(indent, "}");
            }
        }
        self.locals.truncate(mark);
    }

    fn log_statement(&mut self, indent: usize) {
        let level = *self.rng.pick(&["log", "info", "warn", "debug"]);
        let a = self.expr(&Ty::Str, 1);
        if self.rng.chance(500) {
            let b = self.expr(&Ty::Num, 1);
            let w = *self.rng.pick(words::WORDS);
            self.line(
                indent,
                &format!("console.{level}(`{w} ${{{a}}} (${{{b}}})`);"),
            );
        } else {
            self.line(indent, &format!("console.{level}({a});"));
        }
    }

    fn switch_statement(&mut self, indent: usize, depth: u32) {
        // Parameters and fields keep their declared type; a const initialised with a
        // literal is narrowed to it, and its other cases would be errors.
        let mut subjects = Vec::new();
        for l in &self.locals {
            let is_subject = |t: &Ty| matches!(t, Ty::Alias(_) | Ty::Enum(_));
            if l.param && is_subject(&l.ty) {
                subjects.push((l.name.clone(), l.ty.clone()));
            }
            for f in self.model.fields_of(&l.ty) {
                if !f.optional && is_subject(&f.ty) {
                    subjects.push((format!("{}.{}", l.name, f.name), f.ty));
                }
            }
        }
        subjects.retain(|(n, _)| !self.switching.contains(n));
        if subjects.is_empty() {
            return self.declaration(indent);
        }
        let (name, ty) = self.rng.pick(&subjects).clone();
        let (members, prefix) = match ty {
            Ty::Alias(a) => (
                self.model.aliases[a]
                    .members
                    .iter()
                    .map(|m| format!("\"{m}\""))
                    .collect::<Vec<_>>(),
                String::new(),
            ),
            Ty::Enum(e) => {
                let def = self.model.enums[e].clone();
                self.use_symbol(def.module, &def.name, false);
                (def.members.clone(), format!("{}.", def.name))
            }
            _ => unreachable!("filtered to aliases and enums"),
        };
        self.line(indent, &format!("switch ({name}) {{"));
        self.switching.push(name.clone());
        let cases = self.rng.range(1, members.len());
        for m in members.iter().take(cases) {
            self.line(indent + 1, &format!("case {prefix}{m}: {{"));
            let n = self.rng.range(1, 2);
            self.block(indent + 2, depth + 1, n);
            self.line(indent + 2, "break;");
            self.line(indent + 1, "}");
        }
        self.line(indent + 1, "default:");
        self.line(indent + 2, "break;");
        self.line(indent, "}");
        self.switching.pop();
    }

    fn try_statement(&mut self, indent: usize, depth: u32) {
        self.line(indent, "try {");
        let n = self.rng.range(1, 3);
        self.block(indent + 1, depth + 1, n);
        self.line(indent, "} catch (error) {");
        let w = *self.rng.pick(words::WORDS);
        self.line(
            indent + 1,
            &format!("console.error(`{w} failed: ${{String(error)}}`);"),
        );
        self.line(indent, "}");
    }

    fn accumulate(&mut self, indent: usize) {
        if self.rng.chance(500) {
            let name = self.local_name(&Ty::Num);
            let init = self.expr(&Ty::Num, 1);
            self.line(indent, &format!("let {name} = {init};"));
            let step = self.expr(&Ty::Num, 1);
            let op = *self.rng.pick(&["+=", "-=", "*="]);
            self.line(indent, &format!("{name} {op} {step};"));
            self.push_local(name, Ty::Num);
        } else {
            let name = self.local_name(&Ty::Str);
            self.line(indent, &format!("let {name} = \"\";"));
            let step = self.expr(&Ty::Str, 1);
            self.line(indent, &format!("{name} += {step};"));
            self.push_local(name, Ty::Str);
        }
    }

    fn await_statement(&mut self, indent: usize) {
        let funcs: Vec<usize> = self.funcs_in_scope(|d| d.is_async && d.ret.is_some());
        if funcs.is_empty() {
            return self.declaration(indent);
        }
        let f = self.model.funcs[*self.rng.pick(&funcs)].clone();
        self.use_symbol(f.module, &f.import, false);
        let ret = f.ret.clone().unwrap_or(Ty::Num);
        if self.rng.chance(250) {
            let a = self.args(&f.params, 1);
            let b = self.args(&f.params, 1);
            let ty = Ty::array(ret);
            let name = self.local_name(&ty);
            self.line(
                indent,
                &format!(
                    "const {name} = await Promise.all([{}({a}), {}({b})]);",
                    f.call, f.call
                ),
            );
            self.push_local(name, ty);
        } else {
            let a = self.args(&f.params, 1);
            let name = self.local_name(&ret);
            self.line(indent, &format!("const {name} = await {}({a});", f.call));
            self.push_local(name, ret);
        }
    }

    fn optional_access(&mut self, indent: usize) {
        let mut options = Vec::new();
        for l in &self.locals {
            for f in self.model.fields_of(&l.ty) {
                if f.optional {
                    options.push((l.name.clone(), f));
                }
            }
        }
        if options.is_empty() {
            return self.call_statement(indent);
        }
        let (local, field) = self.rng.pick(&options).clone();
        match &field.ty {
            Ty::Fn(a, _) => {
                let arg = self.expr(a, 1);
                self.line(indent, &format!("{local}.{}?.({arg});", field.name));
            }
            ty => {
                // Annotated: an inferred `a ?? b` would also carry the fallback's own type.
                let fallback = self.expr(ty, 1);
                let name = self.local_name(ty);
                let t = self.ty(ty);
                self.line(
                    indent,
                    &format!("const {name}: {t} = {local}.{} ?? {fallback};", field.name),
                );
                self.push_local(name, ty.clone());
            }
        }
    }

    fn call_statement(&mut self, indent: usize) {
        let funcs: Vec<usize> = self.funcs_in_scope(|d| d.ret.is_none() || d.is_async);
        if funcs.is_empty() {
            return self.log_statement(indent);
        }
        let f = self.model.funcs[*self.rng.pick(&funcs)].clone();
        self.use_symbol(f.module, &f.import, false);
        let args = self.args(&f.params, 1);
        if f.is_async && self.in_async {
            self.line(indent, &format!("await {}({args});", f.call));
        } else if f.is_async {
            let value = self.local_name(&Ty::Num);
            self.line(
                indent,
                &format!(
                    "{}({args}).then(({value}) => console.log({value}));",
                    f.call
                ),
            );
            self.local_names.remove(&value);
        } else {
            self.line(indent, &format!("{}({args});", f.call));
        }
    }

    /// `Partial<I>` and `Pick<I, ...>` annotations: mapped types the checker must expand.
    fn utility_type_statement(&mut self, indent: usize) {
        let candidates: Vec<usize> =
            self.ifaces_in_scope(|d| d.constructible && !d.generic && d.fields.len() >= 2);
        if candidates.is_empty() {
            return self.declaration(indent);
        }
        let i = *self.rng.pick(&candidates);
        let iface = Ty::Iface(i, None);
        let fields = self.model.fields_of(&iface);
        let name_t = self.ty(&iface);
        let take = self.rng.range(1, fields.len().min(3));
        let chosen: Vec<_> = fields.iter().take(take).cloned().collect();
        let mut parts = Vec::new();
        for f in &chosen {
            let v = self.expr(&f.ty, 1);
            parts.push(format!("{}: {v}", f.name));
        }
        let name = self.local_name(&iface);
        if self.rng.chance(500) {
            self.line(
                indent,
                &format!(
                    "const {name}Patch: Partial<{name_t}> = {{ {} }};",
                    parts.join(", ")
                ),
            );
        } else {
            let keys: Vec<String> = chosen.iter().map(|f| format!("\"{}\"", f.name)).collect();
            self.line(
                indent,
                &format!(
                    "const {name}View: Pick<{name_t}, {}> = {{ {} }};",
                    keys.join(" | "),
                    parts.join(", ")
                ),
            );
        }
    }

    // ----- deliberate errors --------------------------------------------------------

    /// Writes one statement with exactly one type error and records where it is.
    fn deliberate_error(&mut self, indent: usize) -> bool {
        let first = self.rng.below(3);
        for k in 0..3 {
            let done = match (first + k) % 3 {
                0 => self.error_wrong_argument(indent),
                1 => self.error_missing_property(indent),
                _ => self.error_wrong_initializer(indent),
            };
            if done {
                return true;
            }
        }
        false
    }

    fn record_error(&mut self, column: usize, code: ErrorCode) {
        let line = self.current_line();
        self.pending.push((line, column as u32, code));
    }

    /// `const total: number = "12";` (TS2322, at the variable's name).
    fn error_wrong_initializer(&mut self, indent: usize) -> bool {
        let (ty, t, wrong) = match self.rng.below(3) {
            0 => (Ty::Num, "number", "\"12\""),
            1 => (Ty::Str, "string", "404"),
            _ => (Ty::Bool, "boolean", "\"yes\""),
        };
        let name = self.local_name(&ty);
        self.record_error(indent * 4 + "const ".len() + 1, ErrorCode::TS2322);
        self.line(indent, &format!("const {name}: {t} = {wrong};"));
        true
    }

    /// A call with one argument of the wrong type (TS2345, at that argument).
    fn error_wrong_argument(&mut self, indent: usize) -> bool {
        let candidates: Vec<usize> = self.funcs_in_scope(|d| {
            !d.overloaded && d.params.iter().any(|(_, t)| wrong_value(t).is_some())
        });
        if candidates.is_empty() {
            return false;
        }
        let f = self.model.funcs[*self.rng.pick(&candidates)].clone();
        self.use_symbol(f.module, &f.import, false);
        let wrong_at: Vec<usize> = (0..f.params.len())
            .filter(|&i| wrong_value(&f.params[i].1).is_some())
            .collect();
        let k = *self.rng.pick(&wrong_at);
        let mut text = format!("{}(", f.call);
        let mut column = 0;
        for (i, (_, t)) in f.params.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            if i == k {
                column = indent * 4 + text.len() + 1;
                text.push_str(wrong_value(t).unwrap_or("0"));
            } else {
                let e = self.expr(t, 2);
                text.push_str(&e);
            }
        }
        text.push(')');
        if f.is_async {
            text.push_str(".catch(() => undefined)");
        }
        text.push(';');
        self.record_error(column, ErrorCode::TS2345);
        self.line(indent, &text);
        true
    }

    /// A read of a property the type does not have (TS2339, at the property name). The
    /// name is far from every member's, or the checker would suggest one (TS2551).
    fn error_missing_property(&mut self, indent: usize) -> bool {
        let Some((local, ty)) = self.local_of(|t| matches!(t, Ty::Iface(..) | Ty::Class(_))) else {
            return false;
        };
        let fields = self.model.fields_of(&ty);
        let Some(field) = fields.first() else {
            return false;
        };
        let suffix = *self
            .rng
            .pick(&["Snapshot", "Override", "Legacy", "Revision"]);
        let mut typo = format!("{}{suffix}", field.name);
        while self.model.has_member(&ty, &typo) {
            typo.push('s');
        }
        let prefix = format!("console.log({local}.");
        self.record_error(indent * 4 + prefix.len() + 1, ErrorCode::TS2339);
        self.line(indent, &format!("{prefix}{typo});"));
        true
    }
}

/// A literal that is not assignable to `ty`, where the mismatch is a plain TS2345.
fn wrong_value(ty: &Ty) -> Option<&'static str> {
    match ty {
        Ty::Str => Some("404"),
        Ty::Num | Ty::Enum(_) | Ty::Alias(_) | Ty::Array(_) | Ty::Class(_) => {
            Some("\"not-a-value\"")
        }
        Ty::Bool => Some("\"yes\""),
        _ => None,
    }
}
