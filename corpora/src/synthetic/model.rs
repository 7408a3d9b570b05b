//! What the generator knows about the project it is writing: every exported symbol with
//! its type, so that each use it writes type-checks by construction.

/// A type the generator can write, and produce values of.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Num,
    Str,
    Bool,
    /// A union of string literals (`type Mode = "a" | "b"`).
    Alias(usize),
    Enum(usize),
    /// An interface, with its type argument when it is generic.
    Iface(usize, Option<Box<Ty>>),
    /// A concrete (not abstract) class.
    Class(usize),
    Array(Box<Ty>),
    /// `(value: A) => R`, or `=> void` without `R`.
    Fn(Box<Ty>, Option<Box<Ty>>),
    /// The type parameter `T` of the generic interface being declared.
    Param,
}

impl Ty {
    pub fn array(of: Ty) -> Ty {
        Ty::Array(Box::new(of))
    }

    /// Replaces the interface's `T` by its argument.
    pub fn subst(&self, arg: Option<&Ty>) -> Ty {
        match (self, arg) {
            (Ty::Param, Some(a)) => a.clone(),
            (Ty::Array(e), _) => Ty::array(e.subst(arg)),
            (Ty::Fn(a, r), _) => Ty::Fn(
                Box::new(a.subst(arg)),
                r.as_ref().map(|r| Box::new(r.subst(arg))),
            ),
            _ => self.clone(),
        }
    }

    /// Whether this member type, with `T` read as `arg`, equals `target`; no allocation.
    pub fn eq_subst(&self, arg: &Ty, target: &Ty) -> bool {
        match (self, target) {
            (Ty::Param, t) => arg == t,
            (Ty::Array(a), Ty::Array(b)) => a.eq_subst(arg, b),
            (Ty::Fn(a, r), Ty::Fn(b, s)) => {
                a.eq_subst(arg, b)
                    && match (r, s) {
                        (None, None) => true,
                        (Some(r), Some(s)) => r.eq_subst(arg, s),
                        _ => false,
                    }
            }
            (Ty::Array(_) | Ty::Fn(..), _) => false,
            _ => self == target,
        }
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Ty::Num | Ty::Str | Ty::Bool)
    }
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub ty: Ty,
    pub optional: bool,
}

#[derive(Clone, Debug)]
pub struct AliasDef {
    pub name: String,
    pub module: usize,
    pub members: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub name: String,
    pub module: usize,
    pub members: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct IfaceDef {
    pub name: String,
    pub module: usize,
    pub generic: bool,
    /// All fields, inherited ones first.
    pub fields: Vec<Field>,
    /// False when it declares methods: such values come only from parameters.
    pub constructible: bool,
    /// How deeply a value of it nests objects; kept small so literals stay small.
    pub nest: u8,
}

#[derive(Clone, Debug)]
pub struct Method {
    pub name: String,
    pub params: Vec<(String, Ty)>,
    pub ret: Option<Ty>,
    pub is_async: bool,
}

#[derive(Clone, Debug)]
pub struct ClassDef {
    pub name: String,
    pub module: usize,
    /// Public fields, inherited ones included.
    pub fields: Vec<Field>,
    pub ctor: Vec<(String, Ty)>,
    pub methods: Vec<Method>,
    pub is_abstract: bool,
    pub is_entity: bool,
    /// How deeply constructing it nests objects (through constructor arguments).
    pub nest: u8,
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    /// The name to import.
    pub import: String,
    /// The expression to call (`format` or `Paths.format`).
    pub call: String,
    pub module: usize,
    pub params: Vec<(String, Ty)>,
    pub ret: Option<Ty>,
    pub is_async: bool,
    /// Overloaded functions report a different code for a wrong argument.
    pub overloaded: bool,
}

#[derive(Clone, Debug)]
pub struct ValueDef {
    pub import: String,
    pub expr: String,
    pub module: usize,
    pub ty: Ty,
}

/// `function getX<K extends keyof I>(source: I, key: K): I[K]`.
#[derive(Clone, Debug)]
pub struct SelectorDef {
    pub name: String,
    pub module: usize,
    pub iface: usize,
}

/// `function mapX<T>(items: readonly I[], project: (item: I) => T): T[]`.
#[derive(Clone, Debug)]
pub struct MapperDef {
    pub name: String,
    pub module: usize,
    pub iface: usize,
}

#[derive(Clone, Debug)]
pub struct ComponentDef {
    pub name: String,
    pub module: usize,
    pub props: usize,
}

/// Indices of the symbols a module exports, or a module can see.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    pub aliases: Vec<usize>,
    pub enums: Vec<usize>,
    pub ifaces: Vec<usize>,
    pub classes: Vec<usize>,
    pub funcs: Vec<usize>,
    pub values: Vec<usize>,
    pub selectors: Vec<usize>,
    pub mappers: Vec<usize>,
    pub components: Vec<usize>,
}

impl Symbols {
    pub fn extend(&mut self, other: &Symbols) {
        self.aliases.extend_from_slice(&other.aliases);
        self.enums.extend_from_slice(&other.enums);
        self.ifaces.extend_from_slice(&other.ifaces);
        self.classes.extend_from_slice(&other.classes);
        self.funcs.extend_from_slice(&other.funcs);
        self.values.extend_from_slice(&other.values);
        self.selectors.extend_from_slice(&other.selectors);
        self.mappers.extend_from_slice(&other.mappers);
        self.components.extend_from_slice(&other.components);
    }
}

/// Every symbol of the project.
#[derive(Default)]
pub struct Model {
    pub aliases: Vec<AliasDef>,
    pub enums: Vec<EnumDef>,
    pub ifaces: Vec<IfaceDef>,
    pub classes: Vec<ClassDef>,
    pub funcs: Vec<FuncDef>,
    pub values: Vec<ValueDef>,
    pub selectors: Vec<SelectorDef>,
    pub mappers: Vec<MapperDef>,
    pub components: Vec<ComponentDef>,
}

impl Model {
    /// The fields readable on a value of this type (interface or class), with `T`
    /// replaced by the type argument.
    pub fn fields_of(&self, ty: &Ty) -> Vec<Field> {
        match ty {
            Ty::Iface(i, arg) => self.ifaces[*i]
                .fields
                .iter()
                .map(|f| Field {
                    name: f.name.clone(),
                    ty: f.ty.subst(arg.as_deref()),
                    optional: f.optional,
                })
                .collect(),
            Ty::Class(c) => self.classes[*c].fields.clone(),
            _ => Vec::new(),
        }
    }

    /// The declared fields of an interface or class, `T` not replaced.
    pub fn fields_ref(&self, ty: &Ty) -> &[Field] {
        match ty {
            Ty::Iface(i, _) => &self.ifaces[*i].fields,
            Ty::Class(c) => &self.classes[*c].fields,
            _ => &[],
        }
    }

    /// Whether `field` of a value of type `owner` has type `target`.
    pub fn field_is(&self, owner: &Ty, field: &Field, target: &Ty) -> bool {
        match owner {
            Ty::Iface(_, Some(arg)) => field.ty.eq_subst(arg, target),
            _ => &field.ty == target,
        }
    }

    pub fn has_member(&self, ty: &Ty, name: &str) -> bool {
        match ty {
            Ty::Iface(i, _) => self.ifaces[*i].fields.iter().any(|f| f.name == name),
            Ty::Class(c) => {
                let class = &self.classes[*c];
                class.fields.iter().any(|f| f.name == name)
                    || class.methods.iter().any(|m| m.name == name)
            }
            _ => false,
        }
    }

    /// How deeply a value of `ty` nests object literals and constructor calls.
    pub fn nest(&self, ty: &Ty) -> u8 {
        match ty {
            Ty::Iface(i, arg) => self.ifaces[*i]
                .nest
                .max(arg.as_ref().map_or(0, |a| self.nest(a) + 1)),
            Ty::Class(c) => self.classes[*c].nest,
            Ty::Array(e) => self.nest(e),
            Ty::Fn(a, r) => self.nest(a).max(r.as_ref().map_or(0, |r| self.nest(r))),
            _ => 0,
        }
    }

    /// The nesting of a type whose members have these types.
    pub fn nest_of<'a>(&self, members: impl IntoIterator<Item = &'a Ty>) -> u8 {
        1 + members.into_iter().map(|t| self.nest(t)).max().unwrap_or(0)
    }

    /// Whether `const x = <value of ty>` infers a type assignable back to `ty`: string
    /// literals widen inside object and array literals, and callbacks need a context.
    pub fn infers_exactly(&self, ty: &Ty, depth: u32) -> bool {
        if depth > 3 {
            return false;
        }
        match ty {
            Ty::Num | Ty::Str | Ty::Bool | Ty::Enum(_) | Ty::Class(_) => true,
            Ty::Alias(_) | Ty::Fn(..) | Ty::Param => false,
            Ty::Array(e) => self.infers_exactly(e, depth + 1),
            // A literal may leave optional fields out, and then they are not there to read.
            Ty::Iface(..) => self
                .fields_of(ty)
                .iter()
                .all(|f| !f.optional && self.infers_exactly(&f.ty, depth + 1)),
        }
    }
}
