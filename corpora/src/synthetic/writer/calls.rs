//! Calls that return a wanted type: the module's visible functions and methods, the
//! project's generic helpers (`identity`, `pluck`, `retry`, ...), selectors and mappers.

use super::Gen;
use crate::synthetic::model::*;

impl Gen<'_> {
    pub(super) fn call_returning(&mut self, ty: &Ty, depth: u32) -> Option<String> {
        let mut options: Vec<u8> = Vec::new();
        let in_async = self.in_async;
        let funcs: Vec<usize> =
            self.funcs_in_scope(|d| d.ret.as_ref() == Some(ty) && (!d.is_async || in_async));
        if !funcs.is_empty() {
            options.extend([0, 0, 0]);
        }
        // (local, class, method) triples.
        let mut methods: Vec<(usize, usize, usize)> = Vec::new();
        for (li, l) in self.locals.iter().enumerate() {
            if let Ty::Class(c) = l.ty {
                for (mi, m) in self.model.classes[c].methods.iter().enumerate() {
                    if m.ret.as_ref() == Some(ty) && (!m.is_async || self.in_async) {
                        methods.push((li, c, mi));
                    }
                }
            }
        }
        if !methods.is_empty() {
            options.extend([1, 1]);
        }
        let values: Vec<usize> = self
            .scope
            .values
            .iter()
            .copied()
            .filter(|&v| &self.model.values[v].ty == ty)
            .collect();
        if !values.is_empty() {
            options.push(2);
        }
        if self.util_module.is_some() {
            options.push(3);
        }
        let selectors = self.selector_sources(ty);
        if !selectors.is_empty() {
            options.extend([4, 4]);
        }
        if options.is_empty() {
            return None;
        }
        match *self.rng.pick(&options) {
            0 => {
                let f = self.model.funcs[*self.rng.pick(&funcs)].clone();
                self.use_symbol(f.module, &f.import, false);
                let args = self.args(&f.params, depth);
                let call = format!("{}({args})", f.call);
                Some(awaited(call, f.is_async))
            }
            1 => {
                let (li, c, mi) = *self.rng.pick(&methods);
                let local = self.locals[li].name.clone();
                let m = self.model.classes[c].methods[mi].clone();
                let args = self.args(&m.params, depth);
                let call = format!("{local}.{}({args})", m.name);
                Some(awaited(call, m.is_async))
            }
            2 => {
                let v = self.model.values[*self.rng.pick(&values)].clone();
                self.use_symbol(v.module, &v.import, false);
                Some(v.expr)
            }
            3 => self.generic_helper_call(ty, depth),
            _ => {
                let (s, li, fi) = *self.rng.pick(&selectors);
                let def = &self.model.selectors[s];
                let (module, name) = (def.module, def.name.clone());
                let local = self.locals[li].name.clone();
                let field = self.model.ifaces[def.iface].fields[fi].name.clone();
                self.use_symbol(module, &name, false);
                Some(format!("{name}({local}, \"{field}\")"))
            }
        }
    }

    /// `getX(local, "field")` through a visible `K extends keyof I` selector:
    /// (selector, local, field) triples.
    fn selector_sources(&self, ty: &Ty) -> Vec<(usize, usize, usize)> {
        let mut options = Vec::new();
        for &s in &self.scope.selectors {
            let iface = self.model.selectors[s].iface;
            for (li, local) in self.locals.iter().enumerate() {
                if local.ty == Ty::Iface(iface, None) {
                    for (fi, f) in self.model.ifaces[iface].fields.iter().enumerate() {
                        if !f.optional && &f.ty == ty {
                            options.push((s, li, fi));
                        }
                    }
                }
            }
        }
        options
    }

    /// Calls of the project's generic helpers (`identity`, `firstOr`, `pluck`, ...),
    /// whose type arguments the checker must infer.
    fn generic_helper_call(&mut self, ty: &Ty, depth: u32) -> Option<String> {
        let arrays: Vec<String> = self
            .locals
            .iter()
            .filter(|l| l.ty == Ty::array(ty.clone()))
            .map(|l| l.name.clone())
            .collect();
        match self.rng.below(6) {
            0 if !arrays.is_empty() => {
                let arr = self.rng.pick(&arrays).clone();
                let fallback = self.expr(ty, depth + 1);
                self.use_util("firstOr", false);
                Some(format!("firstOr({arr}, {fallback})"))
            }
            1 if *ty == Ty::Num => {
                let v = self.expr(&Ty::Num, depth + 1);
                self.use_util("clamp", false);
                Some(format!("clamp({v}, 0, {})", self.rng.range(10, 1000)))
            }
            2 if self.model.infers_exactly(ty, 0) => {
                let v = self.expr(ty, depth + 1);
                self.use_util("createStore", false);
                Some(format!("createStore({v}).get()"))
            }
            3 => {
                if let Ty::Array(e) = ty {
                    return self.pluck_into(e);
                }
                None
            }
            4 if self.in_async => {
                // The task is an arrow function: no `await` inside it.
                self.in_async = false;
                let inner = self.call_returning_sync_or_async(ty, depth);
                self.in_async = true;
                let inner = inner?;
                self.use_util("retry", false);
                Some(format!(
                    "(await retry(() => {inner}, {}))",
                    self.rng.range(2, 5)
                ))
            }
            _ => {
                let t = self.ty(ty);
                let v = self.construct(ty, depth + 1);
                self.use_util("identity", false);
                if ty.is_primitive() || self.rng.chance(500) {
                    Some(format!("identity<{t}>({v})"))
                } else {
                    Some(format!("identity({v})"))
                }
            }
        }
    }

    /// `pluck(items, "field")` for a field of type `elem` of a local array's elements.
    fn pluck_into(&mut self, elem: &Ty) -> Option<String> {
        let mut options = Vec::new();
        for local in &self.locals {
            if let Ty::Array(inner) = &local.ty
                && let Ty::Iface(..) | Ty::Class(_) = **inner
            {
                for f in self.model.fields_of(inner) {
                    if !f.optional && &f.ty == elem {
                        options.push((local.name.clone(), f.name.clone()));
                    }
                }
            }
        }
        if options.is_empty() {
            return None;
        }
        let (arr, field) = self.rng.pick(&options).clone();
        self.use_util("pluck", false);
        Some(format!("pluck({arr}, \"{field}\")"))
    }

    /// A promise of `ty` for `retry`: an async function call.
    fn call_returning_sync_or_async(&mut self, ty: &Ty, depth: u32) -> Option<String> {
        let funcs: Vec<usize> = self.funcs_in_scope(|d| d.is_async && d.ret.as_ref() == Some(ty));
        if funcs.is_empty() {
            return None;
        }
        let f = self.model.funcs[*self.rng.pick(&funcs)].clone();
        self.use_symbol(f.module, &f.import, false);
        let args = self.args(&f.params, depth);
        Some(format!("{}({args})", f.call))
    }

    pub(super) fn args(&mut self, params: &[(String, Ty)], depth: u32) -> String {
        let parts: Vec<String> = params
            .iter()
            .map(|(_, t)| self.expr(t, depth + 1))
            .collect();
        parts.join(", ")
    }

    /// `mapX(items, (item, index) => ...)` through a visible generic mapper.
    pub(super) fn mapper_call(&mut self, arr: &str, out: &Ty, depth: u32) -> Option<String> {
        let Ty::Iface(i, None) = self.local_elem(arr) else {
            return None;
        };
        let mappers: Vec<usize> = self
            .scope
            .mappers
            .iter()
            .copied()
            .filter(|&m| self.model.mappers[m].iface == i)
            .collect();
        if mappers.is_empty() {
            return None;
        }
        let m = self.model.mappers[*self.rng.pick(&mappers)].clone();
        self.use_symbol(m.module, &m.name, false);
        let item = self.local_name(&Ty::Iface(i, None));
        let mark = self.locals.len();
        self.push_local(item.clone(), Ty::Iface(i, None));
        let body = self.callback_expr(out, depth + 1);
        self.locals.truncate(mark);
        self.local_names.remove(&item);
        Some(format!("{}({arr}, ({item}) => {body})", m.name))
    }
}

/// `call` as an expression of its result: awaited, in parentheses, when the callee is async.
fn awaited(call: String, is_async: bool) -> String {
    if is_async {
        format!("(await {call})")
    } else {
        call
    }
}
