//! Functions (annotated, arrow, async, generic, overloaded), namespaces of them, and
//! constants.

use crate::synthetic::model::*;
use crate::synthetic::words;
use crate::synthetic::writer::Gen;
use crate::synthetic::writer::exprs::arrow_body;

impl Gen<'_> {
    pub(super) fn register_func(&mut self, def: FuncDef) {
        self.model.funcs.push(def);
        let f = self.model.funcs.len() - 1;
        self.exports[self.cur].funcs.push(f);
        self.scope.funcs.push(f);
    }

    /// An exported constant `name` of type `ty`, imported and read by its name.
    pub(super) fn register_value(&mut self, name: String, ty: Ty) {
        self.model.values.push(ValueDef {
            import: name.clone(),
            expr: name,
            module: self.cur,
            ty,
        });
        let v = self.model.values.len() - 1;
        self.exports[self.cur].values.push(v);
        self.scope.values.push(v);
    }

    /// A plain function `fname` exported from namespace `ns` of this module, called as
    /// `ns.fname(...)`.
    pub(super) fn register_namespace_func(
        &mut self,
        ns: &str,
        fname: &str,
        params: Vec<(String, Ty)>,
        ret: Ty,
    ) {
        self.register_func(FuncDef {
            import: ns.to_string(),
            call: format!("{ns}.{fname}"),
            module: self.cur,
            params,
            ret: Some(ret),
            is_async: false,
            overloaded: false,
        });
    }

    pub(super) fn function_item(&mut self, is_async: bool) {
        let name = self.names.function_name(&mut self.rng);
        let n = self.rng.range(0, 3);
        let params = self.params(n);
        let ret = if !is_async && self.rng.chance(200) {
            None
        } else {
            Some(self.pick_ty(0))
        };
        self.begin_function(&params, is_async);
        let ps = self.render_params(&params);
        let r = match &ret {
            Some(t) if is_async => format!("Promise<{}>", self.ty(t)),
            Some(t) => self.ty(t),
            None => "void".into(),
        };
        self.doc(0, "result");
        let count = self.rng.range(1, 7);
        let arrow = !is_async && ret.is_some() && self.rng.chance(200);
        if arrow && self.rng.chance(400) {
            self.expr_indent = 1;
            let e = arrow_body(self.expr(ret.as_ref().unwrap_or(&Ty::Num), 0));
            self.line(0, &format!("export const {name} = ({ps}): {r} =>"));
            self.line(1, &format!("{e};"));
        } else if arrow {
            self.line(0, &format!("export const {name} = ({ps}): {r} => {{"));
            self.body(1, ret.as_ref(), count);
            self.line(0, "};");
        } else {
            let a = if is_async { "async " } else { "" };
            self.line(0, &format!("export {a}function {name}({ps}): {r} {{"));
            self.body(1, ret.as_ref(), count);
            self.line(0, "}");
        }
        self.register_func(FuncDef {
            import: name.clone(),
            call: name,
            module: self.cur,
            params,
            ret,
            is_async,
            overloaded: false,
        });
    }

    pub(super) fn generic_function_item(&mut self) {
        let ifaces: Vec<usize> =
            self.ifaces_in_scope(|d| !d.generic && d.constructible && !d.fields.is_empty());
        if ifaces.is_empty() {
            return self.function_item(false);
        }
        let i = *self.rng.pick(&ifaces);
        let it = self.ty(&Ty::Iface(i, None));
        let iname = self.model.ifaces[i].name.clone();
        match self.rng.below(3) {
            0 => {
                let name = self.names.claim(format!("with{iname}"));
                let note = self.local_name(&Ty::Str);
                let params = vec![
                    ("value".to_string(), Ty::Iface(i, None)),
                    (note.clone(), Ty::Str),
                ];
                self.begin_function(&params, false);
                self.doc(0, "value, unchanged in type");
                self.line(
                    0,
                    &format!(
                        "export function {name}<T extends {it}>(value: T, {note}: string): T {{"
                    ),
                );
                let n = self.rng.range(1, 4);
                self.body(1, None, n);
                self.line(1, "return value;");
                self.line(0, "}");
                self.register_func(FuncDef {
                    import: name.clone(),
                    call: name,
                    module: self.cur,
                    params,
                    ret: Some(Ty::Iface(i, None)),
                    is_async: false,
                    overloaded: false,
                });
            }
            1 => {
                let name = self.names.claim(format!("select{iname}"));
                self.line(
                    0,
                    &format!(
                        "export function {name}<K extends keyof {it}>(source: {it}, key: K): {it}[K] {{"
                    ),
                );
                self.line(1, "return source[key];");
                self.line(0, "}");
                self.model.selectors.push(SelectorDef {
                    name,
                    module: self.cur,
                    iface: i,
                });
                let s = self.model.selectors.len() - 1;
                self.exports[self.cur].selectors.push(s);
                self.scope.selectors.push(s);
            }
            _ => {
                let name = self.names.claim(format!("map{iname}"));
                self.line(
                    0,
                    &format!(
                        "export function {name}<R>(items: readonly {it}[], project: (item: {it}, index: number) => R): R[] {{"
                    ),
                );
                self.line(
                    1,
                    "return items.map((item, index) => project(item, index));",
                );
                self.line(0, "}");
                self.model.mappers.push(MapperDef {
                    name,
                    module: self.cur,
                    iface: i,
                });
                let s = self.model.mappers.len() - 1;
                self.exports[self.cur].mappers.push(s);
                self.scope.mappers.push(s);
            }
        }
    }

    pub(super) fn overload_item(&mut self) {
        let name = self.names.function_name(&mut self.rng);
        let ifaces: Vec<usize> = self.ifaces_in_scope(|d| !d.generic && d.constructible);
        self.doc(0, "value in either form");
        let sigs: Vec<(Vec<(String, Ty)>, Ty)> = if ifaces.is_empty() || self.rng.chance(400) {
            self.line(
                0,
                &format!("export function {name}(input: string): number;"),
            );
            self.line(
                0,
                &format!("export function {name}(input: number): string;"),
            );
            self.line(
                0,
                &format!("export function {name}(input: string | number): number | string {{"),
            );
            self.line(1, "const text = String(input);");
            self.line(1, "return text.length > 0 ? text : 0;");
            self.line(0, "}");
            vec![
                (vec![("input".into(), Ty::Str)], Ty::Num),
                (vec![("input".into(), Ty::Num)], Ty::Str),
            ]
        } else {
            let i = *self.rng.pick(&ifaces);
            let it = self.ty(&Ty::Iface(i, None));
            self.line(0, &format!("export function {name}(value: {it}): string;"));
            self.line(
                0,
                &format!("export function {name}(value: {it}, verbose: boolean): string[];"),
            );
            self.line(
                0,
                &format!(
                    "export function {name}(value: {it}, verbose?: boolean): string | string[] {{"
                ),
            );
            self.line(1, "const text = JSON.stringify(value);");
            self.line(1, "return verbose ? text.split(\",\") : text;");
            self.line(0, "}");
            vec![
                (vec![("value".into(), Ty::Iface(i, None))], Ty::Str),
                (
                    vec![
                        ("value".into(), Ty::Iface(i, None)),
                        ("verbose".into(), Ty::Bool),
                    ],
                    Ty::array(Ty::Str),
                ),
            ]
        };
        for (params, ret) in sigs {
            self.register_func(FuncDef {
                import: name.clone(),
                call: name.clone(),
                module: self.cur,
                params,
                ret: Some(ret),
                is_async: false,
                overloaded: true,
            });
        }
    }

    pub(super) fn namespace_item(&mut self) {
        let ns = self
            .names
            .type_name(&mut self.rng, &["Utils", "Helpers", "Ops", "Rules"]);
        self.doc(0, "helpers");
        self.line(0, &format!("export namespace {ns} {{"));
        let w = *self.rng.pick(words::WORDS);
        self.line(1, &format!("export const prefix = \"{w}\";"));
        let count = self.rng.range(1, 4);
        for _ in 0..count {
            self.blank();
            let fname = self.names.function_name(&mut self.rng);
            let n = self.rng.range(0, 2);
            let params = self.params(n);
            let ret = self.pick_ty(0);
            self.begin_function(&params, false);
            let ps = self.render_params(&params);
            let r = self.ty(&ret);
            self.line(1, &format!("export function {fname}({ps}): {r} {{"));
            let k = self.rng.range(1, 5);
            self.body(2, Some(&ret), k);
            self.line(1, "}");
            self.register_namespace_func(&ns, &fname, params, ret);
        }
        self.line(0, "}");
    }

    pub(super) fn constant_item(&mut self) {
        self.begin_function(&[], false);
        let ty = self.pick_ty(0);
        let name = self.names.constant_name(&mut self.rng);
        self.expr_indent = 0;
        let e = self.expr(&ty, 0);
        if self.model.infers_exactly(&ty, 0) && self.rng.chance(400) {
            self.line(0, &format!("export const {name} = {e};"));
        } else {
            let t = self.ty(&ty);
            self.line(0, &format!("export const {name}: {t} = {e};"));
        }
        self.register_value(name, ty);
    }
}
