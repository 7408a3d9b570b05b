//! The function being written: its parameters and locals, their names, and the
//! lookups that find a local of a wanted type.

use super::{Gen, Local, is_reserved};
use crate::synthetic::model::*;
use crate::synthetic::words;

impl Gen<'_> {
    pub(super) fn local_name(&mut self, ty: &Ty) -> String {
        let base = match ty {
            Ty::Num => (*self.rng.pick(&[
                "count", "total", "offset", "width", "height", "index", "limit", "size", "delta",
                "score", "ratio", "depth",
            ]))
            .to_string(),
            Ty::Str => (*self.rng.pick(&[
                "label", "text", "key", "title", "message", "path", "prefix", "summary", "slug",
                "token",
            ]))
            .to_string(),
            Ty::Bool => (*self.rng.pick(&[
                "ready", "visible", "changed", "valid", "enabled", "locked", "done", "matched",
            ]))
            .to_string(),
            Ty::Alias(i) => words::lower_first(&self.model.aliases[*i].name),
            Ty::Enum(i) => words::lower_first(&self.model.enums[*i].name),
            Ty::Iface(i, _) => words::lower_first(&self.model.ifaces[*i].name),
            Ty::Class(i) => words::lower_first(&self.model.classes[*i].name),
            Ty::Array(e) => {
                let inner = self.local_name(e);
                self.local_names.remove(&inner);
                let inner = inner.trim_end_matches(|c: char| c.is_ascii_digit());
                if inner.ends_with('s') {
                    format!("{inner}List")
                } else {
                    format!("{inner}s")
                }
            }
            Ty::Fn(..) => "callback".to_string(),
            Ty::Param => "value".to_string(),
        };
        let mut name = base.clone();
        let mut n = 2;
        while self.local_names.contains(&name) || is_reserved(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.local_names.insert(name.clone());
        name
    }

    pub(super) fn push_local(&mut self, name: String, ty: Ty) {
        self.locals.push(Local {
            name,
            ty,
            param: false,
        });
    }

    pub(super) fn begin_function(&mut self, params: &[(String, Ty)], is_async: bool) {
        self.locals.clear();
        self.local_names.clear();
        self.in_async = is_async;
        for (n, t) in params {
            self.local_names.insert(n.clone());
            self.locals.push(Local {
                name: n.clone(),
                ty: t.clone(),
                param: true,
            });
        }
    }

    pub(super) fn params(&mut self, count: usize) -> Vec<(String, Ty)> {
        self.local_names.clear();
        (0..count)
            .map(|_| {
                let t = self.pick_ty(0);
                let n = self.local_name(&t);
                (n, t)
            })
            .collect()
    }

    pub(super) fn render_params(&mut self, params: &[(String, Ty)]) -> String {
        let parts: Vec<String> = params
            .iter()
            .map(|(n, t)| format!("{n}: {}", self.ty(t)))
            .collect();
        parts.join(", ")
    }

    pub(super) fn local_array(&mut self) -> Option<String> {
        let arrays: Vec<String> = self
            .locals
            .iter()
            .filter(|l| matches!(l.ty, Ty::Array(_)))
            .map(|l| l.name.clone())
            .collect();
        if arrays.is_empty() {
            None
        } else {
            Some(self.rng.pick(&arrays).clone())
        }
    }

    pub(super) fn local_elem(&self, name: &str) -> Ty {
        self.locals
            .iter()
            .rev()
            .find(|l| l.name == name)
            .and_then(|l| match &l.ty {
                Ty::Array(e) => Some((**e).clone()),
                _ => None,
            })
            .unwrap_or(Ty::Num)
    }

    pub(super) fn local_of(&mut self, pred: impl Fn(&Ty) -> bool) -> Option<(String, Ty)> {
        let found: Vec<(String, Ty)> = self
            .locals
            .iter()
            .filter(|l| pred(&l.ty))
            .map(|l| (l.name.clone(), l.ty.clone()))
            .collect();
        if found.is_empty() {
            None
        } else {
            Some(self.rng.pick(&found).clone())
        }
    }
}
