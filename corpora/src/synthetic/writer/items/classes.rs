//! Classes (heritage, parameter properties, accessors, statics, abstract members,
//! async methods) and decorated ORM entities.

use crate::synthetic::model::*;
use crate::synthetic::words;
use crate::synthetic::writer::Gen;

impl Gen<'_> {
    pub(super) fn register_class(&mut self, def: ClassDef) -> usize {
        self.model.classes.push(def);
        let c = self.model.classes.len() - 1;
        self.exports[self.cur].classes.push(c);
        self.scope.classes.push(c);
        c
    }

    pub(super) fn method_plan(
        &mut self,
        count: usize,
        taken: &mut Vec<String>,
        asyncs: bool,
    ) -> Vec<Method> {
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

    pub(super) fn class_item(&mut self) {
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
        let candidates: Vec<usize> = self.ifaces_in_scope(|d| {
            // A class must share a member with what it implements (TS2559).
            !d.generic
                && d.constructible
                && d.fields.iter().any(|f| !f.optional)
                && d.fields.iter().all(|f| !taken.contains(&f.name))
        });
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
    pub(super) fn entity_item(&mut self) {
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
}
