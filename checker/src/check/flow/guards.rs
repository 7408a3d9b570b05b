//! Narrowing operations on types: what one condition does to a reference's type.
//!
//! The flow walk ([`super::narrow`]) finds the conditions a reference passed; these take the
//! type it had and return what each condition leaves of it, as TypeScript's
//! `narrowTypeByTypeof`, `narrowTypeByEquality`, `narrowTypeByDiscriminant`,
//! `narrowTypeByInstanceof`, `narrowTypeByInKeyword`, `narrowTypeByTruthiness` and
//! `narrowTypeByTypePredicate` do.
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{SymbolId, flags};
use crate::check::Checker;
use crate::check::flow::narrow::{Reference, skip_outer_expressions};
use crate::types::{TypeId, TypeKind, ids};

impl<'a> Checker<'a, '_> {
    /// `isFoo(x)` where `isFoo` is declared `(x: ...) => x is Foo` (a function, or a
    /// variable initialized by an arrow or function expression): narrows `x` to `Foo` on
    /// the true branch and removes `Foo` on the false branch, as TypeScript's
    /// `narrowTypeByTypePredicate`. A generic predicate type is left alone.
    pub(super) fn narrow_type_guard(
        &mut self,
        file: u32,
        sym: Reference<'_>,
        t: TypeId,
        call: &CallExpr,
        assume_true: bool,
    ) -> TypeId {
        let Callee::Expr(callee) = &call.callee else {
            return t;
        };
        let Some(target) = self.guard_target(file, skip_outer_expressions(callee)) else {
            return t;
        };
        let (index, guard) = match self.type_predicate_of(target) {
            Some((decl_file, index, guard)) => (index, Err((decl_file, guard))),
            None => match self.inferred_predicate_of(target) {
                Some((index, guard)) => (index, Ok(guard)),
                None => return t,
            },
        };
        let Some(arg) = call.args.get(index) else {
            return t;
        };
        if arg.spread.is_some() || !self.is_reference(file, sym, &arg.expr) {
            return t;
        }
        let guard = match guard {
            Ok(guard) => guard,
            Err((decl_file, guard)) => self.type_from_node(decl_file, guard),
        };
        if self.types.is_generic(guard) {
            return t;
        }
        self.narrow_to(t, guard, assume_true)
    }

    /// The symbol a possible type guard call names: a function (`isFoo(x)`), or a static
    /// method of a class or a function exported by a namespace (`Checker.isFoo(x)`, as
    /// typeorm's `InstanceChecker.isTable(x)`).
    pub(super) fn guard_target(&mut self, file: u32, callee: &Expr) -> Option<SymbolId> {
        match callee {
            Expr::Ident(name) => {
                let s = self.bound.resolve(file, name.span.lo.0, &name.sym)?;
                Some(self.resolve_alias(s))
            }
            Expr::Member(m) => {
                let (Expr::Ident(obj), MemberProp::Ident(prop)) =
                    (skip_outer_expressions(&m.obj), &m.prop)
                else {
                    return None;
                };
                let owner = match self.bound.resolve(file, obj.span.lo.0, &obj.sym) {
                    Some(s) => self.resolve_alias(s),
                    None => *self.bound.globals.get(&obj.sym)?,
                };
                let o = self.bound.symbol(owner);
                if o.flags & (flags::CLASS | flags::NAMESPACE) != 0
                    && let Some(&member) = o.exports.get(&prop.sym)
                {
                    return Some(self.resolve_alias(member));
                }
                // A method of a value's type (`Array.isArray(x)`: `ArrayConstructor`'s).
                if o.flags & flags::VARIABLE == 0 {
                    return None;
                }
                let t = self.type_of_symbol(owner);
                let m = self.members(t);
                m.props.get(&prop.sym)?.declaration
            }
            _ => None,
        }
    }

    pub(super) fn narrow_truthy(&mut self, t: TypeId, assume_true: bool) -> TypeId {
        let t = self.map_members(t, |c, _| {
            Some(match (c, assume_true) {
                (ids::BOOLEAN, true) => ids::TRUE,
                (ids::BOOLEAN, false) => ids::FALSE,
                _ => c,
            })
        });
        self.filter(t, |c, m| {
            let falsy_only = matches!(
                m.types.kind(c),
                TypeKind::Null | TypeKind::Undefined | TypeKind::Void | TypeKind::BoolLit(false)
            ) || matches!(m.types.kind(c), TypeKind::StringLit(s) if s.is_empty())
                || matches!(m.types.kind(c), TypeKind::NumberLit(v) if *v == 0.0);
            let may_be_falsy = falsy_only
                || matches!(
                    m.types.kind(c),
                    TypeKind::String
                        | TypeKind::Number
                        | TypeKind::BigInt
                        | TypeKind::Boolean
                        | TypeKind::Any
                        | TypeKind::Unknown
                        | TypeKind::TypeParam(_)
                        | TypeKind::Enum(_)
                        | TypeKind::EnumLiteral(_)
                        | TypeKind::Indexed(..)
                        | TypeKind::Keyof(_)
                        | TypeKind::LazyAlias(..)
                );
            if assume_true {
                !falsy_only
            } else {
                may_be_falsy
            }
        })
    }

    pub(super) fn narrow_typeof(&mut self, t: TypeId, name: &Atom, equal: bool) -> TypeId {
        if t == ids::UNKNOWN {
            if !equal {
                return t;
            }
            return match name.as_str() {
                "string" => ids::STRING,
                "number" => ids::NUMBER,
                "boolean" => ids::BOOLEAN,
                "bigint" => ids::BIGINT,
                "symbol" => ids::SYMBOL,
                "undefined" => ids::UNDEFINED,
                "object" => self.types.union(&[ids::OBJECT, ids::NULL]),
                _ => t,
            };
        }
        self.filter(t, |c, m| {
            let says = match m.types.kind(c) {
                k @ (TypeKind::String
                | TypeKind::StringLit(_)
                | TypeKind::Number
                | TypeKind::NumberLit(_)
                | TypeKind::Boolean
                | TypeKind::BoolLit(_)
                | TypeKind::BigInt
                | TypeKind::BigIntLit(_)
                | TypeKind::EsSymbol
                | TypeKind::Undefined
                | TypeKind::Void
                | TypeKind::Null) => typeof_name(k),
                TypeKind::ClassStatic(_) => Some("function"),
                TypeKind::Object(o) if !o.calls.is_empty() || !o.constructs.is_empty() => {
                    Some("function")
                }
                TypeKind::Object(_) | TypeKind::Tuple(_) | TypeKind::NonPrimitive => Some("object"),
                // Instances of classes and interfaces: a function when they can be called or
                // constructed (or are `Function` itself), an object otherwise, as
                // TypeScript's type facts say.
                TypeKind::Declared(s) | TypeKind::Reference(s, _) => {
                    let is_function = Some(*s) == m.globals.function;
                    let members = m.members(c);
                    if is_function || !members.calls.is_empty() || !members.constructs.is_empty() {
                        Some("function")
                    } else {
                        Some("object")
                    }
                }
                _ => None,
            };
            match says {
                None => true,
                Some(s) => (s == name.as_str()) == equal,
            }
        })
    }

    pub(super) fn narrow_equality(
        &mut self,
        t: TypeId,
        unit: TypeId,
        equal: bool,
        strict: bool,
    ) -> TypeId {
        // Literal types compare by their regular types.
        let unit = self.types.regular_literal(unit);
        let nullish = unit == ids::NULL || unit == ids::UNDEFINED;
        let t = if unit == ids::TRUE || unit == ids::FALSE {
            let other = if unit == ids::TRUE {
                ids::FALSE
            } else {
                ids::TRUE
            };
            self.map_members(t, |c, _| {
                Some(match (c, equal) {
                    (ids::BOOLEAN, true) => unit,
                    (ids::BOOLEAN, false) => other,
                    _ => c,
                })
            })
        } else {
            t
        };
        if equal {
            let members: Vec<TypeId> = match self.types.kind(t) {
                TypeKind::Union(ms) => ms.to_vec(),
                _ => vec![t],
            };
            let mut kept = Vec::new();
            for c in members {
                let same = self.types.regular_literal(c) == unit
                    || (!strict && nullish && (c == ids::NULL || c == ids::UNDEFINED));
                let opaque = matches!(
                    self.types.kind(c),
                    TypeKind::Any | TypeKind::Unknown | TypeKind::TypeParam(_)
                );
                if same || opaque {
                    kept.push(c);
                } else if !nullish && self.is_assignable(unit, c) {
                    kept.push(unit);
                }
            }
            self.types.union(&kept)
        } else {
            self.filter(t, |c, m| {
                !(m.types.regular_literal(c) == unit
                    || (!strict && nullish && (c == ids::NULL || c == ids::UNDEFINED)))
            })
        }
    }

    pub(super) fn narrow_discriminant(
        &mut self,
        t: TypeId,
        prop: &Atom,
        unit: TypeId,
        equal: bool,
    ) -> TypeId {
        if !matches!(self.types.kind(t), TypeKind::Union(_)) {
            return t;
        }
        let prop = prop.clone();
        let unit = self.types.regular_literal(unit);
        self.filter(t, |c, m| {
            let Some(pt) = m.property_type(c, &prop) else {
                return true;
            };
            let pt = m.types.regular_literal(pt);
            let is_unit = matches!(
                m.types.kind(pt),
                TypeKind::StringLit(_)
                    | TypeKind::NumberLit(_)
                    | TypeKind::BoolLit(_)
                    | TypeKind::Null
                    | TypeKind::Undefined
            );
            if equal {
                pt == unit
                    || !is_unit && m.is_assignable(unit, pt)
                    || matches!(m.types.kind(pt), TypeKind::Any | TypeKind::Unknown)
            } else {
                pt != unit
            }
        })
    }

    pub(super) fn narrow_instanceof(
        &mut self,
        file: u32,
        t: TypeId,
        right: &Expr,
        assume_true: bool,
    ) -> TypeId {
        let Expr::Ident(i) = skip_outer_expressions(right) else {
            return t;
        };
        let Some(s) = self.bound.resolve(file, i.span.lo.0, &i.sym) else {
            return t;
        };
        let s = self.resolve_alias(s);
        let instance = if self.bound.symbol(s).flags & flags::CLASS != 0 {
            self.declared_type(s)
        } else if self.bound.symbol(s).flags & flags::VALUE != 0 {
            // A constructor declared as a value (`declare var HTMLElement: { prototype:
            // HTMLElement; new (): HTMLElement }`): its `prototype`'s type, else what its
            // construct signature makes, as TypeScript's instanceof narrowing takes it.
            let ctor = self.type_of_symbol(s);
            match self.property_type(ctor, &Atom::from("prototype")) {
                Some(p) if !matches!(self.types.kind(p), TypeKind::Any) => p,
                _ => match self.members(ctor).constructs.first() {
                    Some(sig) => sig.ret,
                    None => return t,
                },
            }
        } else {
            return t;
        };
        if matches!(self.types.kind(instance), TypeKind::Any) {
            return t;
        }
        self.narrow_to(t, instance, assume_true)
    }

    /// `t` narrowed by a guard or `instanceof` that says the value is (or, on the false
    /// branch, is not) a `target`: the members assignable to it (or `target` itself when
    /// none is), or the members that are not.
    pub(super) fn narrow_to(&mut self, t: TypeId, target: TypeId, assume_true: bool) -> TypeId {
        if assume_true {
            let kept = self.filter(t, |c, m| m.is_assignable(c, target));
            if kept == ids::NEVER { target } else { kept }
        } else {
            self.filter(t, |c, m| {
                matches!(m.types.kind(c), TypeKind::Any | TypeKind::Unknown)
                    || !m.is_assignable(c, target)
            })
        }
    }

    pub(super) fn narrow_in(&mut self, t: TypeId, name: &Atom, assume_true: bool) -> TypeId {
        if !matches!(self.types.kind(t), TypeKind::Union(_)) {
            return t;
        }
        self.filter(t, |c, m| {
            let object_like = matches!(
                m.types.kind(c),
                TypeKind::Object(_)
                    | TypeKind::Declared(_)
                    | TypeKind::Reference(..)
                    | TypeKind::Tuple(_)
            );
            if !object_like {
                return true;
            }
            let has = m.members(c).props.contains_key(name);
            has == assume_true
        })
    }
}

/// What `typeof` says of a type, when it can tell.
fn typeof_name(kind: &TypeKind) -> Option<&'static str> {
    Some(match kind {
        TypeKind::String | TypeKind::StringLit(_) => "string",
        TypeKind::Number | TypeKind::NumberLit(_) => "number",
        TypeKind::Boolean | TypeKind::BoolLit(_) => "boolean",
        TypeKind::BigInt | TypeKind::BigIntLit(_) => "bigint",
        TypeKind::EsSymbol => "symbol",
        TypeKind::Undefined | TypeKind::Void => "undefined",
        TypeKind::Null => "object",
        _ => return None,
    })
}
