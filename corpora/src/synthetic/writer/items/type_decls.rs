//! Items that declare types: interfaces (with their `.d.ts` method signatures and
//! overloads), type aliases (object, union, mapped, conditional, indexed,
//! template-literal) and enums.

use crate::synthetic::ErrorCode;
use crate::synthetic::model::*;
use crate::synthetic::words;
use crate::synthetic::writer::Gen;

impl Gen<'_> {
    pub(super) fn register_iface(&mut self, def: IfaceDef) -> usize {
        self.model.ifaces.push(def);
        let i = self.model.ifaces.len() - 1;
        self.exports[self.cur].ifaces.push(i);
        self.scope.ifaces.push(i);
        i
    }

    pub(super) fn interface_item(&mut self, declarations: bool) {
        let name = self.names.type_name(&mut self.rng, words::SUFFIXES);
        let generic_chance = if self.shape.mix.generic_function >= 10 {
            350
        } else {
            150
        };
        let generic = self.rng.chance(generic_chance);
        let bases: Vec<usize> = self.ifaces_in_scope(|d| !d.generic && d.constructible);
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

    pub(super) fn alias_item(&mut self) {
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
    pub(super) fn type_level_item(&mut self, declarations: bool) {
        let ifaces: Vec<usize> = self.ifaces_in_scope(|d| !d.generic);
        let generics: Vec<usize> = self.ifaces_in_scope(|d| d.generic);
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
                ErrorCode::TS2339,
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

    pub(super) fn enum_item(&mut self, declarations: bool) {
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
}
