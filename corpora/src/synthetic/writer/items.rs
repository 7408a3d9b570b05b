//! Top-level items: interfaces, aliases, enums, classes, decorated entities, functions,
//! overloads, namespaces, constants, JSX components, and their `.d.ts` declarations.

use super::{Gen, Kind};
use crate::synthetic::model::*;
use crate::synthetic::words;

const COMPONENT_SUFFIXES: &[&str] = &[
    "Panel", "View", "Button", "Card", "List", "Dialog", "Toolbar", "Item", "Badge", "Editor",
    "Popover", "Section",
];

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

    fn register_iface(&mut self, def: IfaceDef) -> usize {
        self.model.ifaces.push(def);
        let i = self.model.ifaces.len() - 1;
        self.exports[self.cur].ifaces.push(i);
        self.scope.ifaces.push(i);
        i
    }

    fn interface_item(&mut self, declarations: bool) {
        let name = self.names.type_name(&mut self.rng, words::SUFFIXES);
        let generic_chance = if self.shape.mix.generic_function >= 10 {
            350
        } else {
            150
        };
        let generic = self.rng.chance(generic_chance);
        let bases: Vec<usize> = self
            .scope
            .ifaces
            .iter()
            .copied()
            .filter(|&i| !self.model.ifaces[i].generic && self.model.ifaces[i].constructible)
            .collect();
        let base = if !bases.is_empty() && self.rng.chance(300) {
            Some(*self.rng.pick(&bases))
        } else {
            None
        };
        let mut fields: Vec<Field> = base
            .map(|b| self.model.ifaces[b].fields.clone())
            .unwrap_or_default();
        let mut taken: Vec<String> = fields.iter().map(|f| f.name.clone()).collect();
        if !taken.iter().any(|n| n == "id") && self.rng.chance(500) {
            taken.push("id".into());
            let id = Field {
                name: "id".into(),
                ty: Ty::Num,
                optional: false,
            };
            fields.push(id);
        }
        let inherited = base.map(|b| self.model.ifaces[b].fields.len()).unwrap_or(0);
        let count = self.rng.range(2, 6);
        let own = self.own_fields(count, &mut taken, generic);
        fields.extend(own);
        let with_methods =
            declarations && (self.shape.dts_per_mille >= 1000 || self.rng.chance(300));

        self.doc(0, "options");
        let tp = if generic { "<T>" } else { "" };
        let base_name = base.map(|b| self.ty(&Ty::Iface(b, None)));
        // An object type alias (`Base & { ... }` for heritage) reads and checks the same.
        let as_alias = self.rng.chance(self.shape.object_alias_per_mille);
        let close = if as_alias { "};" } else { "}" };
        match (as_alias, base_name) {
            (true, Some(b)) => self.line(0, &format!("export type {name}{tp} = {b} & {{")),
            (true, None) => self.line(0, &format!("export type {name}{tp} = {{")),
            (false, Some(b)) => {
                self.line(0, &format!("export interface {name}{tp} extends {b} {{"))
            }
            (false, None) => self.line(0, &format!("export interface {name}{tp} {{")),
        }
        for f in fields[inherited..].iter().cloned() {
            if declarations && self.rng.chance(300) {
                self.doc(1, &f.name);
            }
            self.write_field(1, &f);
        }
        if with_methods {
            self.method_signatures(1, &mut taken);
        }
        self.line(0, close);
        let nest = self.model.nest_of(fields.iter().map(|f| &f.ty));
        self.register_iface(IfaceDef {
            name,
            module: self.cur,
            generic,
            fields,
            constructible: !with_methods,
            nest,
        });
    }

    /// Method signatures with JSDoc and overloads, as declaration files are written.
    fn method_signatures(&mut self, indent: usize, taken: &mut Vec<String>) {
        let count = self.rng.range(2, 8);
        for _ in 0..count {
            let verb = *self.rng.pick(words::VERBS);
            let noun = *self.rng.pick(words::NOUNS);
            let name = format!("{verb}{noun}");
            if taken.contains(&name) {
                continue;
            }
            taken.push(name.clone());
            let overloads = if self.rng.chance(250) { 2 } else { 1 };
            for _ in 0..overloads {
                let n = self.rng.range(0, 3);
                let params = self.params(n);
                self.line(indent, "/**");
                let w = *self.rng.pick(words::WORDS);
                self.line(
                    indent,
                    &format!(
                        " * {} the {w} {}.",
                        words::upper_first(verb),
                        noun.to_lowercase()
                    ),
                );
                for (p, _) in &params {
                    self.line(indent, &format!(" * @param {p} The {p} to use."));
                }
                self.line(indent, " */");
                let ps = self.render_params(&params);
                let ret = self.pick_ty(1);
                let r = self.ty(&ret);
                let r = if self.rng.chance(400) {
                    format!("Promise<{r}>")
                } else {
                    r
                };
                self.line(indent, &format!("{name}({ps}): {r};"));
                self.blank();
            }
        }
    }

    fn alias_item(&mut self) {
        let name = self.names.plain_type_name(&mut self.rng);
        let name = self.names.claim(format!("{name}Kind"));
        let count = self.rng.range(2, 5);
        let mut members: Vec<String> = Vec::new();
        while members.len() < count {
            let w = (*self.rng.pick(words::WORDS)).to_string();
            if !members.contains(&w) {
                members.push(w);
            }
        }
        let quoted: Vec<String> = members.iter().map(|m| format!("\"{m}\"")).collect();
        if self.rng.chance(300) {
            self.line(0, &format!("export type {name} ="));
            for q in &quoted {
                self.line(1, &format!("| {q}"));
            }
            self.out.pop();
            self.out.push_str(";\n");
        } else {
            self.line(0, &format!("export type {name} = {};", quoted.join(" | ")));
        }
        self.model.aliases.push(AliasDef {
            name,
            module: self.cur,
            members,
        });
        let i = self.model.aliases.len() - 1;
        self.exports[self.cur].aliases.push(i);
        self.scope.aliases.push(i);
    }

    /// Mapped, conditional, indexed and template-literal types over visible declarations.
    fn type_level_item(&mut self, declarations: bool) {
        let ifaces: Vec<usize> = self
            .scope
            .ifaces
            .iter()
            .copied()
            .filter(|&i| !self.model.ifaces[i].generic)
            .collect();
        let generics: Vec<usize> = self
            .scope
            .ifaces
            .iter()
            .copied()
            .filter(|&i| self.model.ifaces[i].generic)
            .collect();
        let suffix = *self.rng.pick(&[
            "Keys", "Patch", "View", "Lookup", "Result", "Handler", "Values", "Event", "Shape",
        ]);
        let name = self.names.type_name(&mut self.rng, &[suffix]);
        if declarations && self.error_due && !ifaces.is_empty() {
            // An indexed access with a key the interface lacks (TS2339, at the key).
            let i = *self.rng.pick(&ifaces);
            let t = self.ty(&Ty::Iface(i, None));
            let key = format!("{}Revision", self.model.ifaces[i].name.to_lowercase());
            let prefix = format!("export type {name} = {t}[");
            self.pending.push((
                self.current_line(),
                prefix.len() as u32 + 1,
                super::ErrorCode::TS2339,
            ));
            self.line(0, &format!("{prefix}\"{key}\"];"));
            self.error_due = false;
            let every = self.shape.error_every_bytes;
            self.error_budget = self.rng.range(every / 2, every * 3 / 2) as isize;
            return;
        }
        let pick = self.rng.below(10);
        let text = match (pick, ifaces.is_empty()) {
            (_, true) | (0, _) => {
                format!(
                    "export type {name}<T> = {{ ok: true; value: T }} | {{ ok: false; error: string }};"
                )
            }
            (1, false) => {
                let t = {
                    let pick = *self.rng.pick(&ifaces);
                    self.ty(&Ty::Iface(pick, None))
                };
                format!("export type {name} = keyof {t};")
            }
            (2, false) => {
                let t = {
                    let pick = *self.rng.pick(&ifaces);
                    self.ty(&Ty::Iface(pick, None))
                };
                let w = *self.rng.pick(&["Partial", "Readonly", "Required"]);
                format!("export type {name} = {w}<{t}>;")
            }
            (3, false) => {
                let i = *self.rng.pick(&ifaces);
                let t = self.ty(&Ty::Iface(i, None));
                let field = self.model.ifaces[i].fields.first().map(|f| f.name.clone());
                match field {
                    Some(f) => format!("export type {name} = Omit<{t}, \"{f}\">;"),
                    None => format!("export type {name} = {t}[keyof {t}];"),
                }
            }
            (4, false) if !self.scope.aliases.is_empty() => {
                let a = {
                    let pick = *self.rng.pick(&self.scope.aliases.clone());
                    self.ty(&Ty::Alias(pick))
                };
                let t = {
                    let pick = *self.rng.pick(&ifaces);
                    self.ty(&Ty::Iface(pick, None))
                };
                format!("export type {name} = {{ [K in {a}]: {t} }};")
            }
            (5, false) if !generics.is_empty() => {
                let g = {
                    let pick = *self.rng.pick(&generics);
                    self.ty(&Ty::Iface(pick, Some(Box::new(Ty::Param))))
                };
                let g = g.trim_end_matches("<T>").to_string();
                format!("export type {name}<T> = T extends {g}<infer U> ? U : T;")
            }
            (6, false) => {
                let t = {
                    let pick = *self.rng.pick(&ifaces);
                    self.ty(&Ty::Iface(pick, None))
                };
                format!(
                    "export type {name}<T = {t}> = {{\n    [K in keyof T]?: T[K] extends object ? {name}<T[K]> : T[K];\n}};"
                )
            }
            (7, false) if !self.scope.aliases.is_empty() => {
                let a = {
                    let pick = *self.rng.pick(&self.scope.aliases.clone());
                    self.ty(&Ty::Alias(pick))
                };
                format!("export type {name} = `${{{a}}}:changed` | `${{{a}}}:removed`;")
            }
            (8, false) => {
                let t = {
                    let pick = *self.rng.pick(&ifaces);
                    self.ty(&Ty::Iface(pick, None))
                };
                format!("export type {name}<TOutput = string> = (input: {t}) => Promise<TOutput>;")
            }
            _ => {
                let t = {
                    let pick = *self.rng.pick(&ifaces);
                    self.ty(&Ty::Iface(pick, None))
                };
                format!("export type {name} = Record<string, {t}[]>;")
            }
        };
        self.out.push_str(&text);
        self.out.push('\n');
    }

    fn enum_item(&mut self, declarations: bool) {
        let name = self
            .names
            .type_name(&mut self.rng, &["Kind", "Mode", "Flags", "State", "Level"]);
        let count = self.rng.range(2, 7);
        let mut members: Vec<String> = Vec::new();
        while members.len() < count {
            let word = *self.rng.pick(words::WORDS);
            let w = words::upper_first(word);
            if !members.contains(&w) {
                members.push(w);
            }
        }
        let strings = self.rng.chance(400);
        let decl = if declarations {
            "export declare enum"
        } else {
            "export enum"
        };
        self.doc(0, "kinds");
        self.line(0, &format!("{decl} {name} {{"));
        for (i, m) in members.iter().enumerate() {
            let text = if strings {
                format!("{m} = \"{}\",", m.to_lowercase())
            } else if i == 0 || self.rng.chance(300) {
                format!("{m} = {},", i * 2)
            } else {
                format!("{m},")
            };
            self.line(1, &text);
        }
        self.line(0, "}");
        self.model.enums.push(EnumDef {
            name,
            module: self.cur,
            members,
        });
        let i = self.model.enums.len() - 1;
        self.exports[self.cur].enums.push(i);
        self.scope.enums.push(i);
    }

    fn register_class(&mut self, def: ClassDef) -> usize {
        self.model.classes.push(def);
        let c = self.model.classes.len() - 1;
        self.exports[self.cur].classes.push(c);
        self.scope.classes.push(c);
        c
    }

    fn method_plan(&mut self, count: usize, taken: &mut Vec<String>, asyncs: bool) -> Vec<Method> {
        let mut methods = Vec::new();
        for _ in 0..count {
            let name = format!(
                "{}{}",
                self.rng.pick(words::VERBS),
                self.rng.pick(words::NOUNS)
            );
            if taken.contains(&name) {
                continue;
            }
            taken.push(name.clone());
            let n = self.rng.range(0, 2);
            let params = self.params(n);
            let ret = if self.rng.chance(250) {
                None
            } else {
                Some(self.pick_ty(1))
            };
            let is_async = asyncs && ret.is_some() && self.rng.chance(300);
            methods.push(Method {
                name,
                params,
                ret,
                is_async,
            });
        }
        methods
    }

    fn write_method(&mut self, indent: usize, class: usize, m: &Method) {
        self.begin_function(&m.params, m.is_async);
        self.push_local("this".into(), Ty::Class(class));
        let ps = self.render_params(&m.params);
        let r = match &m.ret {
            Some(t) if m.is_async => format!("Promise<{}>", self.ty(t)),
            Some(t) => self.ty(t),
            None => "void".into(),
        };
        let a = if m.is_async { "async " } else { "" };
        self.line(indent, &format!("{a}{}({ps}): {r} {{", m.name));
        let n = self.rng.range(1, 5);
        self.body(indent + 1, m.ret.as_ref(), n);
        self.line(indent, "}");
    }

    fn class_item(&mut self) {
        let name = self.names.type_name(&mut self.rng, words::CLASS_SUFFIXES);
        let bases: Vec<usize> = self
            .scope
            .classes
            .iter()
            .copied()
            .filter(|&c| !self.model.classes[c].is_entity)
            .collect();
        let base = if !bases.is_empty() && self.rng.chance(300) {
            Some(*self.rng.pick(&bases))
        } else {
            None
        };
        let is_abstract = base.is_none() && self.rng.chance(100);
        let base_def = base.map(|b| self.model.classes[b].clone());
        let mut taken: Vec<String> = base_def
            .as_ref()
            .map(|b| {
                b.fields
                    .iter()
                    .map(|f| f.name.clone())
                    .chain(b.methods.iter().map(|m| m.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        taken.extend(["cache", "hits", "kind", "remember", "describe"].map(String::from));

        // An interface to implement, when its members do not clash with inherited ones.
        let candidates: Vec<usize> = self
            .scope
            .ifaces
            .iter()
            .copied()
            .filter(|&i| {
                let d = &self.model.ifaces[i];
                // A class must share a member with what it implements (TS2559).
                !d.generic
                    && d.constructible
                    && d.fields.iter().any(|f| !f.optional)
                    && d.fields.iter().all(|f| !taken.contains(&f.name))
            })
            .collect();
        let implements = if !candidates.is_empty() && self.rng.chance(400) {
            Some(*self.rng.pick(&candidates))
        } else {
            None
        };

        let mut own_params: Vec<(String, Ty, bool)> = Vec::new();
        if let Some(i) = implements {
            for f in self.model.ifaces[i].fields.clone() {
                // Optional members are not implemented, but their names stay reserved.
                taken.push(f.name.clone());
                if !f.optional {
                    own_params.push((f.name, f.ty, false));
                }
            }
        }
        for _ in 0..self.rng.range(1, 3) {
            let n = self.member_name(&mut taken);
            let t = self.field_ty();
            own_params.push((n, t, self.rng.chance(400)));
        }
        let getter = self.member_name(&mut taken);
        let mut methods = base_def
            .as_ref()
            .map(|b| b.methods.clone())
            .unwrap_or_default();
        let mc = self.rng.range(1, 4);
        let own_methods = self.method_plan(mc, &mut taken, true);
        methods.extend(own_methods.iter().cloned());
        let needs_describe = base_def.as_ref().is_some_and(|b| b.is_abstract);

        let mut fields: Vec<Field> = base_def
            .as_ref()
            .map(|b| b.fields.clone())
            .unwrap_or_default();
        for (n, t, _) in &own_params {
            fields.push(Field {
                name: n.clone(),
                ty: t.clone(),
                optional: false,
            });
        }
        fields.push(Field {
            name: getter.clone(),
            ty: Ty::Str,
            optional: false,
        });
        let mut ctor: Vec<(String, Ty)> = base_def
            .as_ref()
            .map(|b| b.ctor.clone())
            .unwrap_or_default();
        ctor.extend(own_params.iter().map(|(n, t, _)| (n.clone(), t.clone())));
        if is_abstract {
            methods.push(Method {
                name: "describe".into(),
                params: Vec::new(),
                ret: Some(Ty::Str),
                is_async: false,
            });
        }
        let nest = self.model.nest_of(ctor.iter().map(|(_, t)| t));
        let c = self.register_class(ClassDef {
            name: name.clone(),
            module: self.cur,
            fields,
            ctor: ctor.clone(),
            methods,
            is_abstract,
            is_entity: false,
            nest,
        });

        self.doc(0, "service");
        let abs = if is_abstract { "abstract " } else { "" };
        let mut head = format!("export {abs}class {name}");
        if let Some(b) = base {
            let b = self.model.classes[b].name.clone();
            self.use_symbol(base_def.as_ref().map(|d| d.module).unwrap_or(0), &b, false);
            head.push_str(&format!(" extends {b}"));
        }
        if let Some(i) = implements {
            let t = self.ty(&Ty::Iface(i, None));
            head.push_str(&format!(" implements {t}"));
        }
        self.line(0, &format!("{head} {{"));
        if base.is_none() {
            // Private state lives in the root class only: a subclass redeclaring a private
            // member is an error, and it inherits `remember` anyway.
            let w = *self.rng.pick(words::WORDS);
            self.line(1, &format!("static readonly kind = \"{w}\";"));
            self.line(1, "private readonly cache = new Map<string, number>();");
            self.line(1, "private hits = 0;");
            self.blank();
        }

        // Constructor: the base's parameters passed through, then parameter properties.
        let mut parts = Vec::new();
        for (n, t) in base_def
            .as_ref()
            .map(|b| b.ctor.clone())
            .unwrap_or_default()
        {
            let t = self.ty(&t);
            parts.push(format!("{n}: {t}"));
        }
        for (n, t, ro) in &own_params {
            let t = self.ty(t);
            let ro = if *ro { "readonly " } else { "" };
            parts.push(format!("public {ro}{n}: {t}"));
        }
        let one_line = format!("constructor({}) {{", parts.join(", "));
        if one_line.len() <= 96 {
            self.line(1, &one_line);
        } else {
            self.line(1, "constructor(");
            for p in &parts {
                self.line(2, &format!("{p},"));
            }
            self.line(1, ") {");
        }
        if let Some(b) = &base_def {
            let names: Vec<String> = b.ctor.iter().map(|(n, _)| n.clone()).collect();
            self.line(2, &format!("super({});", names.join(", ")));
        }
        self.line(1, "}");
        self.blank();

        self.begin_function(&[], false);
        self.push_local("this".into(), Ty::Class(c));
        self.line(1, &format!("get {getter}(): string {{"));
        let s = self.expr(&Ty::Str, 1);
        self.line(2, &format!("return {s};"));
        self.line(1, "}");
        self.blank();

        if base.is_none() {
            self.blank();
            self.line(1, "protected remember(key: string, value: number): void {");
            self.line(2, "this.hits += 1;");
            self.line(2, "this.cache.set(key, value);");
            self.line(1, "}");
        }

        if is_abstract {
            self.blank();
            self.line(1, "abstract describe(): string;");
        }
        if needs_describe {
            self.blank();
            self.begin_function(&[], false);
            self.push_local("this".into(), Ty::Class(c));
            self.line(1, "describe(): string {");
            self.body(2, Some(&Ty::Str), 1);
            self.line(1, "}");
        }
        for m in &own_methods {
            self.blank();
            self.write_method(1, c, m);
        }
        self.line(0, "}");
    }

    /// An ORM entity: decorated class, decorated properties, relations, a hook.
    fn entity_item(&mut self) {
        let name = self.names.plain_type_name(&mut self.rng);
        let related: Vec<usize> = self
            .scope
            .classes
            .iter()
            .copied()
            .filter(|&c| self.model.classes[c].is_entity)
            .collect();
        let mut taken: Vec<String> = vec!["id".into()];
        let mut fields = vec![Field {
            name: "id".into(),
            ty: Ty::Num,
            optional: false,
        }];
        let mut columns: Vec<(Field, String)> = Vec::new();
        for _ in 0..self.rng.range(2, 6) {
            let n = self.member_name(&mut taken);
            let (ty, options) = match self.rng.below(6) {
                0 => (Ty::Num, "{ type: \"int\" }".to_string()),
                1 => (
                    Ty::Bool,
                    "{ type: \"boolean\", nullable: false }".to_string(),
                ),
                2 if !self.scope.aliases.is_empty() => {
                    let a = *self.rng.pick(&self.scope.aliases.clone());
                    (
                        Ty::Alias(a),
                        "{ type: \"varchar\", length: 32 }".to_string(),
                    )
                }
                3 if !self.scope.enums.is_empty() => {
                    let e = *self.rng.pick(&self.scope.enums.clone());
                    (Ty::Enum(e), "{ type: \"varchar\" }".to_string())
                }
                _ => (
                    Ty::Str,
                    format!(
                        "{{ type: \"varchar\", length: {} }}",
                        self.rng.range(16, 255)
                    ),
                ),
            };
            let f = Field {
                name: n,
                ty,
                optional: false,
            };
            fields.push(f.clone());
            columns.push((f, options));
        }
        let mut relations: Vec<(Field, String)> = Vec::new();
        if !related.is_empty() {
            for _ in 0..self.rng.range(0, 2) {
                let other = *self.rng.pick(&related);
                let n = self.member_name(&mut taken);
                let many = self.rng.chance(400);
                let ty = if many {
                    Ty::array(Ty::Class(other))
                } else {
                    Ty::Class(other)
                };
                let f = Field {
                    name: n,
                    ty,
                    optional: false,
                };
                fields.push(f.clone());
                let decorator = if many { "OneToMany" } else { "ManyToOne" };
                relations.push((f, format!("{decorator}:{other}")));
            }
        }
        let mc = self.rng.range(1, 2);
        let methods = self.method_plan(mc, &mut taken, true);
        // `new Entity()` takes no arguments, however its fields nest.
        let nest = 1;
        let c = self.register_class(ClassDef {
            name: name.clone(),
            module: self.cur,
            fields,
            ctor: Vec::new(),
            methods: methods.clone(),
            is_abstract: false,
            is_entity: true,
            nest,
        });

        self.use_decorator("Entity");
        self.use_decorator("Column");
        self.use_decorator("PrimaryGeneratedColumn");
        self.doc(0, "entity");
        let table = words::kebab(&name).replace('-', "_");
        self.line(0, &format!("@Entity(\"{table}\")"));
        self.line(0, &format!("export class {name} {{"));
        self.line(1, "@PrimaryGeneratedColumn()");
        self.line(1, "id!: number;");
        for (f, options) in &columns {
            self.blank();
            if self.rng.chance(300) {
                self.line(1, "@Column()");
            } else {
                self.line(1, &format!("@Column({options})"));
            }
            let t = self.ty(&f.ty);
            self.line(1, &format!("{}!: {t};", f.name));
        }
        for (f, tag) in &relations {
            self.blank();
            let (decorator, other) = tag.split_once(':').unwrap_or(("ManyToOne", "0"));
            let other: usize = other.parse().unwrap_or(0);
            let (om, on) = (
                self.model.classes[other].module,
                self.model.classes[other].name.clone(),
            );
            self.use_symbol(om, &on, false);
            self.use_decorator(decorator);
            let inverse = words::lower_first(&name);
            if decorator == "OneToMany" {
                self.line(1, &format!("@OneToMany(() => {on}, \"{inverse}\")"));
            } else {
                self.line(1, &format!("@ManyToOne(() => {on})"));
            }
            let t = self.ty(&f.ty);
            self.line(1, &format!("{}!: {t};", f.name));
        }
        for (k, m) in methods.iter().enumerate() {
            self.blank();
            if k == 0 {
                self.use_decorator("BeforeInsert");
                self.line(1, "@BeforeInsert()");
            }
            self.write_method(1, c, m);
        }
        self.line(0, "}");
    }

    fn register_func(&mut self, def: FuncDef) {
        self.model.funcs.push(def);
        let f = self.model.funcs.len() - 1;
        self.exports[self.cur].funcs.push(f);
        self.scope.funcs.push(f);
    }

    fn function_item(&mut self, is_async: bool) {
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
            let e = super::exprs::arrow_body(self.expr(ret.as_ref().unwrap_or(&Ty::Num), 0));
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

    fn generic_function_item(&mut self) {
        let ifaces: Vec<usize> = self
            .scope
            .ifaces
            .iter()
            .copied()
            .filter(|&i| {
                let d = &self.model.ifaces[i];
                !d.generic && d.constructible && !d.fields.is_empty()
            })
            .collect();
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

    fn overload_item(&mut self) {
        let name = self.names.function_name(&mut self.rng);
        let ifaces: Vec<usize> = self
            .scope
            .ifaces
            .iter()
            .copied()
            .filter(|&i| !self.model.ifaces[i].generic && self.model.ifaces[i].constructible)
            .collect();
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

    fn namespace_item(&mut self) {
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
            self.register_func(FuncDef {
                import: ns.clone(),
                call: format!("{ns}.{fname}"),
                module: self.cur,
                params,
                ret: Some(ret),
                is_async: false,
                overloaded: false,
            });
        }
        self.line(0, "}");
    }

    fn constant_item(&mut self) {
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

    // ----- JSX ----------------------------------------------------------------------

    fn component_item(&mut self) {
        let base = format!(
            "{}{}",
            self.rng.pick(words::NOUNS),
            self.rng.pick(COMPONENT_SUFFIXES)
        );
        let name = self.names.claim(base);
        let props_name = self.names.claim(format!("{name}Props"));
        // JSX gives `key`, `ref` and `children` their own meaning.
        let mut taken: Vec<String> = ["key", "ref", "children"].map(String::from).to_vec();
        let count = self.rng.range(1, 4);
        let mut fields = self.own_fields(count, &mut taken, false);
        if self.rng.chance(500) {
            fields.push(Field {
                name: "className".into(),
                ty: Ty::Str,
                optional: true,
            });
        }
        let as_alias = self.rng.chance(500);
        if as_alias {
            self.line(0, &format!("export type {props_name} = {{"));
        } else {
            self.line(0, &format!("export interface {props_name} {{"));
        }
        for f in fields.clone() {
            self.write_field(1, &f);
        }
        self.line(0, if as_alias { "};" } else { "}" });
        self.blank();
        let nest = self.model.nest_of(fields.iter().map(|f| &f.ty));
        let props = self.register_iface(IfaceDef {
            name: props_name.clone(),
            module: self.cur,
            generic: false,
            fields: fields.clone(),
            constructible: true,
            nest,
        });

        let required: Vec<Field> = fields.iter().filter(|f| !f.optional).cloned().collect();
        let params: Vec<(String, Ty)> = required
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone()))
            .collect();
        if self.rng.chance(500) && !required.is_empty() {
            self.begin_function(&params, false);
            let names: Vec<&str> = required.iter().map(|f| f.name.as_str()).collect();
            self.line(
                0,
                &format!(
                    "export function {name}({{ {} }}: {props_name}): JSX.Element {{",
                    names.join(", ")
                ),
            );
            self.component_body(&name);
            self.line(0, "}");
        } else {
            self.begin_function(&[("props".into(), Ty::Iface(props, None))], false);
            self.line(
                0,
                &format!("export const {name} = (props: {props_name}): JSX.Element => {{"),
            );
            self.component_body(&name);
            self.line(0, "};");
        }
        self.model.components.push(ComponentDef {
            name,
            module: self.cur,
            props,
        });
        let c = self.model.components.len() - 1;
        self.exports[self.cur].components.push(c);
        self.scope.components.push(c);
    }

    fn component_body(&mut self, name: &str) {
        let n = self.rng.range(0, 3);
        self.body(1, None, n);
        self.line(1, "return (");
        let class = words::kebab(name);
        self.jsx(2, 0, Some(&class));
        self.line(1, ");");
    }

    fn jsx_attrs(&mut self, tag: &str, class: Option<&str>) -> String {
        let mut attrs = String::new();
        match class {
            Some(c) => attrs.push_str(&format!(" className=\"{c}\"")),
            None if self.rng.chance(500) => {
                let w = *self.rng.pick(words::WORDS);
                attrs.push_str(&format!(" className=\"{w}\""));
            }
            None => {}
        }
        if self.rng.chance(200) {
            let t = self.expr(&Ty::Str, 2);
            attrs.push_str(&format!(" title={{{t}}}"));
        }
        if self.rng.chance(150) {
            let w = self.expr(&Ty::Num, 2);
            attrs.push_str(&format!(" style={{{{ width: {w}, opacity: 0.5 }}}}"));
        }
        match tag {
            "button" => {
                let w = *self.rng.pick(words::WORDS);
                attrs.push_str(&format!(
                    " type=\"button\" onClick={{() => console.log(\"{w}\")}}"
                ));
            }
            "input" => {
                let v = self.expr(&Ty::Str, 2);
                attrs.push_str(&format!(
                    " type=\"text\" value={{{v}}} onChange={{(event) => console.log(event.target.value)}}"
                ));
            }
            _ if self.rng.chance(150) => {
                attrs.push_str(" onPointerDown={(event) => event.stopPropagation()}");
            }
            _ => {}
        }
        attrs
    }

    /// Writes one element (with its children) at `indent`.
    fn jsx(&mut self, indent: usize, depth: u32, class: Option<&str>) {
        let tag = *self.rng.pick(&[
            "div", "section", "header", "footer", "ul", "p", "label", "span",
        ]);
        let attrs = self.jsx_attrs(tag, class);
        if depth >= 2 || self.rng.chance(150) {
            let e = self.expr(&Ty::Str, 2);
            self.line(indent, &format!("<{tag}{attrs}>{{{e}}}</{tag}>"));
            return;
        }
        let fragment = depth == 0 && class.is_none();
        if fragment {
            self.line(indent, "<>");
        } else {
            self.line(indent, &format!("<{tag}{attrs}>"));
        }
        let children = self.rng.range(1, 4);
        for _ in 0..children {
            self.jsx_child(indent + 1, depth + 1);
        }
        if fragment {
            self.line(indent, "</>");
        } else {
            self.line(indent, &format!("</{tag}>"));
        }
    }

    fn jsx_child(&mut self, indent: usize, depth: u32) {
        match self.rng.below(8) {
            0 => {
                let a = *self.rng.pick(words::WORDS);
                let b = *self.rng.pick(words::WORDS);
                self.line(indent, &format!("{} {b} items", words::upper_first(a)));
            }
            1 => {
                let t = if self.rng.chance(500) {
                    Ty::Str
                } else {
                    Ty::Num
                };
                let e = self.expr(&t, 2);
                self.line(indent, &format!("{{{e}}}"));
            }
            2 => self.jsx_list(indent),
            3 => {
                let c = self.expr(&Ty::Bool, 2);
                let e = self.expr(&Ty::Str, 2);
                self.line(indent, &format!("{{{c} && <span>{{{e}}}</span>}}"));
            }
            4 => self.jsx_component_use(indent),
            5 => {
                let tag = *self.rng.pick(&["button", "input"]);
                let attrs = self.jsx_attrs(tag, None);
                if tag == "input" {
                    self.line(indent, &format!("<input{attrs} />"));
                } else {
                    let word = *self.rng.pick(words::WORDS);
                    let w = words::upper_first(word);
                    self.line(indent, &format!("<button{attrs}>{w}</button>"));
                }
            }
            _ => self.jsx(indent, depth, None),
        }
    }

    fn jsx_list(&mut self, indent: usize) {
        let mut options = Vec::new();
        for l in &self.locals {
            if let Ty::Array(e) = &l.ty {
                let fields = self.model.fields_of(e);
                let shown = fields
                    .iter()
                    .find(|f| !f.optional && matches!(f.ty, Ty::Str | Ty::Num))
                    .map(|f| f.name.clone());
                if let Some(shown) = shown {
                    let key = fields
                        .iter()
                        .find(|f| {
                            f.name == "id" && !f.optional && matches!(f.ty, Ty::Num | Ty::Str)
                        })
                        .map(|f| f.name.clone());
                    options.push((l.name.clone(), (**e).clone(), shown, key));
                }
            }
        }
        if options.is_empty() {
            let e = self.expr(&Ty::Str, 2);
            self.line(indent, &format!("<li>{{{e}}}</li>"));
            return;
        }
        let (arr, elem, shown, key) = self.rng.pick(&options).clone();
        let item = self.local_name(&elem);
        self.line(indent, &format!("{{{arr}.map(({item}) => ("));
        let key = match key {
            Some(k) => format!(" key={{{item}.{k}}}"),
            None => String::new(),
        };
        self.line(indent + 1, &format!("<li{key}>{{{item}.{shown}}}</li>"));
        self.line(indent, "))}");
        self.local_names.remove(&item);
    }

    fn jsx_component_use(&mut self, indent: usize) {
        let visible: Vec<usize> = self.scope.components.clone();
        if visible.is_empty() {
            let e = self.expr(&Ty::Num, 2);
            self.line(indent, &format!("<span>{{{e}}}</span>"));
            return;
        }
        let c = self.model.components[*self.rng.pick(&visible)].clone();
        self.use_symbol(c.module, &c.name, false);
        let mut attrs = String::new();
        for f in self.model.ifaces[c.props].fields.clone() {
            if f.optional && self.rng.chance(700) {
                continue;
            }
            match &f.ty {
                Ty::Alias(a) if self.rng.chance(600) => {
                    let m = self.rng.pick(&self.model.aliases[*a].members).clone();
                    attrs.push_str(&format!(" {}=\"{m}\"", f.name));
                }
                Ty::Str if self.rng.chance(500) => {
                    let w = *self.rng.pick(words::WORDS);
                    attrs.push_str(&format!(" {}=\"{w}\"", f.name));
                }
                ty => {
                    let e = self.expr(ty, 2);
                    attrs.push_str(&format!(" {}={{{e}}}", f.name));
                }
            }
        }
        self.line(indent, &format!("<{}{attrs} />", c.name));
    }

    // ----- declaration files ----------------------------------------------------------

    fn declared_class_item(&mut self) {
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

    fn declared_function_item(&mut self, overloads: bool) {
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

    fn declared_namespace_item(&mut self) {
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
            self.register_func(FuncDef {
                import: ns.clone(),
                call: format!("{ns}.{fname}"),
                module: self.cur,
                params,
                ret: Some(ret),
                is_async: false,
                overloaded: false,
            });
        }
        self.line(0, "}");
    }

    fn declared_constant_item(&mut self) {
        let ty = self.pick_ty(0);
        let name = self.names.constant_name(&mut self.rng);
        let t = self.ty(&ty);
        self.line(0, &format!("export declare const {name}: {t};"));
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
}
