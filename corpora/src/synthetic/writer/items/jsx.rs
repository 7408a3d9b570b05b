//! JSX components for `.tsx` modules: props, elements, lists, conditionals, and nested
//! components.

use crate::synthetic::model::*;
use crate::synthetic::words;
use crate::synthetic::writer::Gen;

const COMPONENT_SUFFIXES: &[&str] = &[
    "Panel", "View", "Button", "Card", "List", "Dialog", "Toolbar", "Item", "Badge", "Editor",
    "Popover", "Section",
];

impl Gen<'_> {
    pub(super) fn component_item(&mut self) {
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
}
