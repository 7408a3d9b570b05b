//! Top-level items: interfaces, aliases, enums, classes, decorated entities, functions,
//! overloads, namespaces, constants, JSX components, and their `.d.ts` declarations,
//! one file per kind. This file draws the next item from the profile's mix and writes
//! the fields and member names that the item kinds share.

mod classes;
mod declared;
mod functions;
mod jsx;
mod type_decls;

use super::{Gen, Kind};
use crate::synthetic::model::*;
use crate::synthetic::words;

impl Gen<'_> {
    pub(super) fn item(&mut self, kind: Kind, first: bool) {
        let m = self.shape.mix;
        let declarations = kind == Kind::Dts;
        let entity = if self.decorators_module.is_some() && !declarations {
            m.entity
        } else {
            0
        };
        let component = if kind == Kind::Tsx { m.component } else { 0 };
        let weights = [
            m.interface + if first { 20 } else { 0 },
            m.alias,
            m.type_level,
            m.enumeration,
            m.class,
            entity,
            m.function,
            m.generic_function,
            m.overload,
            m.namespace,
            m.constant,
            m.async_function,
            component,
        ];
        match self.rng.weighted(&weights) {
            0 => self.interface_item(declarations),
            1 => self.alias_item(),
            2 => self.type_level_item(declarations),
            3 => self.enum_item(declarations),
            4 if declarations => self.declared_class_item(),
            4 => self.class_item(),
            5 => self.entity_item(),
            6 | 11 if declarations => self.declared_function_item(false),
            6 => self.function_item(false),
            7 if declarations => self.declared_function_item(false),
            7 => self.generic_function_item(),
            8 if declarations => self.declared_function_item(true),
            8 => self.overload_item(),
            9 if declarations => self.declared_namespace_item(),
            9 => self.namespace_item(),
            10 if declarations => self.declared_constant_item(),
            10 => self.constant_item(),
            11 => self.function_item(true),
            _ => self.component_item(),
        }
        self.blank();
    }

    fn own_fields(&mut self, count: usize, taken: &mut Vec<String>, generic: bool) -> Vec<Field> {
        let mut fields = Vec::new();
        if generic {
            let name = self.member_name(taken);
            fields.push(Field {
                name,
                ty: if self.rng.chance(500) {
                    Ty::Param
                } else {
                    Ty::array(Ty::Param)
                },
                optional: false,
            });
        }
        for _ in 0..count {
            let name = self.member_name(taken);
            let ty = self.field_ty();
            let optional = self.rng.chance(180);
            fields.push(Field { name, ty, optional });
        }
        if self.rng.chance(250) {
            let base = self.member_name(taken);
            let name = format!("on{}", words::upper_first(&base));
            if taken.contains(&name) {
                return fields;
            }
            taken.push(name.clone());
            let arg = if generic { Ty::Param } else { self.field_ty() };
            fields.push(Field {
                name,
                ty: Ty::Fn(Box::new(arg), None),
                optional: self.rng.chance(800),
            });
        }
        fields
    }

    fn member_name(&mut self, taken: &mut Vec<String>) -> String {
        for _ in 0..8 {
            let name = (*self.rng.pick(words::MEMBERS)).to_string();
            if !taken.contains(&name) {
                taken.push(name.clone());
                return name;
            }
        }
        let base = (*self.rng.pick(words::MEMBERS)).to_string();
        let mut n = 2;
        while taken.contains(&format!("{base}{n}")) {
            n += 1;
        }
        let name = format!("{base}{n}");
        taken.push(name.clone());
        name
    }

    fn write_field(&mut self, indent: usize, f: &Field) {
        let t = self.ty(&f.ty);
        let q = if f.optional { "?" } else { "" };
        let ro = if !f.optional && self.rng.chance(150) {
            "readonly "
        } else {
            ""
        };
        self.line(indent, &format!("{ro}{}{q}: {t};", f.name));
    }
}
