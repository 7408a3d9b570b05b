//! `declare` items for `.d.ts` modules: classes, functions (overloaded or not),
//! namespaces and constants, with JSDoc.

use crate::synthetic::model::*;
use crate::synthetic::words;
use crate::synthetic::writer::Gen;

impl Gen<'_> {
    pub(super) fn declared_class_item(&mut self) {
        let name = self.names.type_name(&mut self.rng, words::CLASS_SUFFIXES);
        let mut taken = Vec::new();
        let count = self.rng.range(1, 4);
        let ctor: Vec<(String, Ty)> = (0..count)
            .map(|_| {
                let n = self.member_name(&mut taken);
                (n, self.field_ty())
            })
            .collect();
        let fields: Vec<Field> = ctor
            .iter()
            .map(|(n, t)| Field {
                name: n.clone(),
                ty: t.clone(),
                optional: false,
            })
            .collect();
        let mc = self.rng.range(1, 5);
        let methods = self.method_plan(mc, &mut taken, true);
        let nest = self.model.nest_of(ctor.iter().map(|(_, t)| t));
        self.register_class(ClassDef {
            name: name.clone(),
            module: self.cur,
            fields: fields.clone(),
            ctor: ctor.clone(),
            methods: methods.clone(),
            is_abstract: false,
            is_entity: false,
            nest,
        });
        self.doc(0, "handle");
        self.line(0, &format!("export declare class {name} {{"));
        let ps = self.render_params(&ctor);
        self.line(1, &format!("constructor({ps});"));
        for f in &fields {
            let t = self.ty(&f.ty);
            self.line(1, &format!("readonly {}: {t};", f.name));
        }
        for m in &methods {
            self.doc(1, &m.name.to_lowercase());
            let ps = self.render_params(&m.params);
            let r = match &m.ret {
                Some(t) if m.is_async => format!("Promise<{}>", self.ty(t)),
                Some(t) => self.ty(t),
                None => "void".into(),
            };
            self.line(1, &format!("{}({ps}): {r};", m.name));
        }
        self.line(0, "}");
    }

    pub(super) fn declared_function_item(&mut self, overloads: bool) {
        let name = self.names.function_name(&mut self.rng);
        let count = if overloads { self.rng.range(2, 4) } else { 1 };
        let mut arity_seen = Vec::new();
        for _ in 0..count {
            let n = self.rng.range(0, 3);
            if arity_seen.contains(&n) {
                continue;
            }
            arity_seen.push(n);
            let params = self.params(n);
            let ret = self.pick_ty(0);
            let is_async = self.rng.chance(250);
            self.doc(0, "call");
            let ps = self.render_params(&params);
            let r = self.ty(&ret);
            let r = if is_async { format!("Promise<{r}>") } else { r };
            self.line(0, &format!("export declare function {name}({ps}): {r};"));
            self.register_func(FuncDef {
                import: name.clone(),
                call: name.clone(),
                module: self.cur,
                params,
                ret: Some(ret),
                is_async,
                overloaded: overloads,
            });
        }
    }

    pub(super) fn declared_namespace_item(&mut self) {
        let ns = self
            .names
            .type_name(&mut self.rng, &["Api", "Internals", "Events", "Protocol"]);
        self.line(0, &format!("export declare namespace {ns} {{"));
        let count = self.rng.range(1, 5);
        for _ in 0..count {
            let fname = self.names.function_name(&mut self.rng);
            let n = self.rng.range(0, 3);
            let params = self.params(n);
            let ret = self.pick_ty(0);
            let ps = self.render_params(&params);
            let r = self.ty(&ret);
            self.line(1, &format!("function {fname}({ps}): {r};"));
            self.register_namespace_func(&ns, &fname, params, ret);
        }
        self.line(0, "}");
    }

    pub(super) fn declared_constant_item(&mut self) {
        let ty = self.pick_ty(0);
        let name = self.names.constant_name(&mut self.rng);
        let t = self.ty(&ty);
        self.line(0, &format!("export declare const {name}: {t};"));
        self.register_value(name, ty);
    }
}
