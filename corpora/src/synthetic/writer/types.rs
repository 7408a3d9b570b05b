//! Type expressions: drawing a type from what the module sees, and rendering it
//! (importing what it names).

use super::Gen;
use crate::synthetic::model::*;

/// Interfaces and classes nest no deeper than this (see [`Model::nest`]).
const MAX_NEST: u8 = 3;

impl Gen<'_> {
    /// Renders a type, importing what it names.
    pub(super) fn ty(&mut self, t: &Ty) -> String {
        match t {
            Ty::Num => "number".into(),
            Ty::Str => "string".into(),
            Ty::Bool => "boolean".into(),
            Ty::Param => "T".into(),
            Ty::Alias(i) => {
                let (m, n) = (
                    self.model.aliases[*i].module,
                    self.model.aliases[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                n
            }
            Ty::Enum(i) => {
                let (m, n) = (
                    self.model.enums[*i].module,
                    self.model.enums[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                n
            }
            Ty::Class(i) => {
                let (m, n) = (
                    self.model.classes[*i].module,
                    self.model.classes[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                n
            }
            Ty::Iface(i, arg) => {
                let (m, n) = (
                    self.model.ifaces[*i].module,
                    self.model.ifaces[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                match arg {
                    Some(a) => format!("{n}<{}>", self.ty(a)),
                    None => n,
                }
            }
            Ty::Array(e) => match **e {
                Ty::Fn(..) => format!("Array<{}>", self.ty(e)),
                _ => format!("{}[]", self.ty(e)),
            },
            Ty::Fn(a, r) => {
                let a = self.ty(a);
                let r = match r {
                    Some(r) => self.ty(r),
                    None => "void".into(),
                };
                format!("(value: {a}) => {r}")
            }
        }
    }

    /// A type for a field, parameter or variable, drawn from what this module sees.
    pub(super) fn pick_ty(&mut self, depth: u32) -> Ty {
        self.pick_ty_within(depth, MAX_NEST)
    }

    /// A type for a member of an interface or class: one level shallower, so that the
    /// new type is itself within [`MAX_NEST`].
    pub(super) fn field_ty(&mut self) -> Ty {
        self.pick_ty_within(1, MAX_NEST - 1)
    }

    fn pick_ty_within(&mut self, depth: u32, max_nest: u8) -> Ty {
        let r = self.rng.below(100);
        let scope = &self.scope;
        if r < 32 || depth > 2 {
            return match self.rng.weighted(&[12, 14, 5]) {
                0 => Ty::Num,
                1 => Ty::Str,
                _ => Ty::Bool,
            };
        }
        if r < 44 && !scope.aliases.is_empty() {
            return Ty::Alias(*self.rng.pick(&scope.aliases));
        }
        if r < 52 && !scope.enums.is_empty() {
            return Ty::Enum(*self.rng.pick(&scope.enums));
        }
        if r < 76 {
            let candidates: Vec<usize> = self
                .ifaces_in_scope(|d| d.constructible && d.nest + u8::from(d.generic) <= max_nest);
            if !candidates.is_empty() {
                let i = *self.rng.pick(&candidates);
                if self.model.ifaces[i].generic {
                    let arg = self.pick_simple_ty();
                    return Ty::Iface(i, Some(Box::new(arg)));
                }
                return Ty::Iface(i, None);
            }
        }
        if r < 86 {
            let candidates: Vec<usize> = scope
                .classes
                .iter()
                .copied()
                .filter(|&c| {
                    let d = &self.model.classes[c];
                    !d.is_abstract && d.nest <= max_nest
                })
                .collect();
            if !candidates.is_empty() {
                return Ty::Class(*self.rng.pick(&candidates));
            }
        }
        if r >= 86 {
            return Ty::array(self.pick_ty_within(depth + 1, max_nest));
        }
        if self.rng.chance(500) {
            Ty::Str
        } else {
            Ty::Num
        }
    }

    /// A type argument for a generic interface: nothing generic itself.
    fn pick_simple_ty(&mut self) -> Ty {
        loop {
            let t = self.pick_ty_within(1, 1);
            match &t {
                Ty::Iface(_, Some(_)) | Ty::Array(_) => continue,
                _ => return t,
            }
        }
    }
}
