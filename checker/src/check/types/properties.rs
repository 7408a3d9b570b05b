//! Properties: the type of a property on a type (members, index signatures, unions,
//! intersections), array element types, `keyof` and indexed access.
use std::rc::Rc;

use rustc_hash::FxHashMap;
use swc_atoms::Atom;

use crate::check::Checker;
use crate::syntax;
use crate::types::{PropSymbol, TypeId, TypeKind, UNRESOLVED, ids, tflags};

impl<'a, 'b> Checker<'a, 'b> {
    pub(in crate::check) fn keyof(&mut self, t: TypeId) -> TypeId {
        if let TypeKind::Mapped(mt) = self.types.kind(t)
            && mt.root.name_type.is_none()
        {
            return mt.constraint;
        }
        if self.types.is_generic(t) {
            return self.types.keyof(t);
        }
        match self.types.kind(t).clone() {
            TypeKind::Any => return self.types.union(&[ids::STRING, ids::NUMBER, ids::SYMBOL]),
            TypeKind::Never => return ids::NEVER,
            // `keyof (A | B)` is `keyof A & keyof B`: the keys every member has (a member
            // with a string index signature takes any string key).
            TypeKind::Union(ms) => {
                let mut common: Option<Vec<TypeId>> = None;
                for m in ms.iter() {
                    let k = self.keyof(*m);
                    if k == ids::STRING {
                        continue;
                    }
                    let keys: Vec<TypeId> = match self.types.kind(k) {
                        TypeKind::Union(ks) => ks.to_vec(),
                        TypeKind::Never => Vec::new(),
                        _ => vec![k],
                    };
                    common = Some(match common {
                        None => keys,
                        Some(c) => c.into_iter().filter(|x| keys.contains(x)).collect(),
                    });
                }
                return match common {
                    None => ids::STRING,
                    Some(c) => self.types.union(&c),
                };
            }
            _ => {}
        }
        let m = self.members(t);
        if m.string_index.is_some() {
            return ids::STRING;
        }
        let names: Vec<Atom> = m.order.iter().take(512).cloned().collect();
        let lits: Vec<TypeId> = names.iter().map(|n| self.types.string_lit(n)).collect();
        self.types.union(&lits)
    }

    pub(in crate::check) fn indexed_access(&mut self, o: TypeId, k: TypeId) -> TypeId {
        // A tuple indexed by a number is its elements' types even where they are generic
        // (a tuple is not a generic object type to TypeScript's `isGenericIndexedAccess`).
        if let TypeKind::Tuple(es) = self.types.kind(o).clone() {
            match *self.types.kind(k) {
                TypeKind::Number => {
                    let es: Vec<TypeId> = es.iter().map(|&e| self.tuple_element(e)).collect();
                    return self.types.union(&es);
                }
                TypeKind::NumberLit(n) => return self.tuple_index(&es, n),
                _ => {}
            }
        }
        if self.types.is_generic(o) || self.types.is_generic(k) {
            return self.types.indexed(o, k);
        }
        match self.types.kind(k).clone() {
            TypeKind::StringLit(s) => self.property_type(o, &s).unwrap_or(ids::ERROR),
            TypeKind::NumberLit(n) => {
                if let TypeKind::Tuple(es) = self.types.kind(o).clone() {
                    return self.tuple_index(&es, n);
                }
                self.property_type(o, &Atom::from(syntax::format_number(n)))
                    .unwrap_or_else(|| self.element_type(o))
            }
            TypeKind::Union(ks) => {
                let ts: Vec<TypeId> = ks.iter().map(|&k| self.indexed_access(o, k)).collect();
                self.types.union(&ts)
            }
            TypeKind::Number => self.element_type(o),
            _ => {
                let m = self.members(o);
                m.string_index.unwrap_or(ids::ANY)
            }
        }
    }

    /// Element `n` of tuple `es`: past the first spread, any element from there on; past
    /// the end of a tuple without one, `undefined`.
    pub(in crate::check) fn tuple_index(&mut self, es: &[TypeId], n: f64) -> TypeId {
        let fixed = self.fixed_elements(es);
        if (n as usize) < fixed {
            return es[n as usize];
        }
        if fixed == es.len() {
            return ids::UNDEFINED;
        }
        let rest: Vec<TypeId> = es[fixed..].iter().map(|&e| self.tuple_element(e)).collect();
        self.types.union(&rest)
    }

    /// What position `i` of tuple `es` takes (an array literal's element in its context, an
    /// argument for a tuple rest parameter): its element, or past the first spread any
    /// element from there on; `None` past the end of a tuple without one.
    pub(in crate::check) fn tuple_context(&mut self, es: &[TypeId], i: usize) -> Option<TypeId> {
        let fixed = self.fixed_elements(es);
        if i < fixed {
            return Some(es[i]);
        }
        (fixed < es.len()).then(|| self.tuple_index(es, i as f64))
    }

    pub(in crate::check) fn element_type(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            TypeKind::Reference(_, args) if args.len() == 1 => args[0],
            TypeKind::Tuple(es) => {
                let es: Vec<TypeId> = es.iter().map(|&e| self.tuple_element(e)).collect();
                self.types.union(&es)
            }
            TypeKind::Any => ids::ANY,
            _ => {
                let m = self.members(t);
                m.number_index.or(m.string_index).unwrap_or(ids::ANY)
            }
        }
    }

    /// The intersection of `ts` ([`crate::types::TypeTable::intersection`]), once the
    /// required properties that two of its object types share have their types: the table
    /// reduces an intersection of conflicting unit-typed properties to `never` only when
    /// it sees those types, so an unresolved one would make the result depend on which
    /// files this checker saw first.
    pub(in crate::check) fn intersection(&mut self, ts: &[TypeId]) -> TypeId {
        let mut objects: Vec<TypeId> = Vec::new();
        for &t in ts {
            self.collect_objects(t, 2, &mut objects);
        }
        if objects.len() > 1 {
            let mut seen: FxHashMap<Atom, Rc<PropSymbol>> = FxHashMap::default();
            let mut shared: Vec<Rc<PropSymbol>> = Vec::new();
            for &o in &objects {
                let TypeKind::Object(obj) = self.types.kind(o) else {
                    continue;
                };
                for name in &obj.order {
                    let p = &obj.props[name];
                    if p.optional {
                        continue;
                    }
                    if let Some(first) = seen.get(name) {
                        if !Rc::ptr_eq(first, p) {
                            shared.push(first.clone());
                            shared.push(p.clone());
                        }
                    } else {
                        seen.insert(name.clone(), p.clone());
                    }
                }
            }
            for p in shared {
                self.prop_ty(&p);
            }
        }
        self.types.intersection(ts)
    }

    /// The object types (not mapped ones) among `t` and, `depth` levels down, the members
    /// of its unions and intersections.
    fn collect_objects(&self, t: TypeId, depth: u8, out: &mut Vec<TypeId>) {
        match self.types.kind(t) {
            TypeKind::Object(_) if self.types.flags(t) & tflags::MAPPED == 0 => out.push(t),
            TypeKind::Union(ms) | TypeKind::Intersection(ms) if depth > 0 => {
                for &m in ms.iter() {
                    self.collect_objects(m, depth - 1, out);
                }
            }
            _ => {}
        }
    }

    /// A property's type, resolved on first use (as TypeScript resolves member symbols).
    pub(in crate::check) fn prop_ty(&mut self, p: &PropSymbol) -> TypeId {
        let t = p.ty.get();
        if t != UNRESOLVED {
            return t;
        }
        let mut scope = self.cache_scope();
        let t = match (&p.origin, p.declaration) {
            (Some((origin, mapper)), _) => {
                let base = scope.prop_ty(origin);
                scope.instantiate(base, mapper)
            }
            (None, Some(decl)) => scope.type_of_symbol(decl),
            (None, None) => ids::ANY,
        };
        if scope.met().cacheable() {
            p.ty.set(t);
        }
        t
    }

    /// Property `name` among `t`'s own members and index signatures (an optional one with
    /// `undefined`), not those `Object` or `Function` lend it.
    pub(super) fn declared_property_type(&mut self, t: TypeId, name: &Atom) -> Option<TypeId> {
        let m = self.members(t);
        if let Some(p) = m.props.get(name) {
            let ty = self.prop_ty(p);
            return Some(if p.optional {
                self.types.union(&[ty, ids::UNDEFINED])
            } else {
                ty
            });
        }
        if name.parse::<f64>().is_ok()
            && let Some(i) = m.number_index
        {
            return Some(i);
        }
        m.string_index
    }

    /// The type of property `name` on `t`, or `None` when it has none.
    pub(in crate::check) fn property_type(&mut self, t: TypeId, name: &Atom) -> Option<TypeId> {
        match self.types.kind(t).clone() {
            TypeKind::Any | TypeKind::Unknown if t == ids::ANY || t == ids::ERROR => Some(ids::ANY),
            TypeKind::Any => Some(ids::ANY),
            TypeKind::Union(ms) => {
                let mut out = Vec::with_capacity(ms.len());
                let mut missing = false;
                for &m in ms.iter() {
                    if m == ids::UNDEFINED || m == ids::NULL {
                        continue;
                    }
                    match self.property_type(m, name) {
                        Some(t) => out.push(t),
                        // An object literal's type lacking it gives `undefined`.
                        None if self.types.flags(m)
                            & (tflags::OBJECT_LITERAL | tflags::CONTAINS_SPREAD)
                            == tflags::OBJECT_LITERAL =>
                        {
                            missing = true;
                        }
                        None => return None,
                    }
                }
                if missing {
                    if out.is_empty() {
                        return None;
                    }
                    out.push(ids::UNDEFINED);
                }
                Some(self.types.union(&out))
            }
            TypeKind::Intersection(ms) => {
                let found = self.intersection_property_types(&ms, name);
                if found.is_empty() {
                    None
                } else {
                    Some(self.intersection(&found))
                }
            }
            TypeKind::Keyof(_) | TypeKind::Indexed(..) => Some(ids::ANY),
            TypeKind::Conditional(_) => {
                let c = self.conditional_constraint(t);
                if c == t {
                    Some(ids::ANY)
                } else {
                    self.property_type(c, name)
                }
            }
            // A type parameter constrained by a class or interface with a `this` type has
            // its members with `this` := itself (below); others those of their constraint.
            TypeKind::TypeParam(p) if self.this_apparent_target(t).is_none() => {
                match self.constraint_of(p) {
                    Some(c) if c != t => self.property_type(c, name),
                    _ => None,
                }
            }
            TypeKind::Null
            | TypeKind::Undefined
            | TypeKind::Void
            | TypeKind::Never
            | TypeKind::Unknown => None,
            _ => {
                if let Some(ty) = self.declared_property_type(t, name) {
                    return Some(ty);
                }
                self.global_apparent_property(t, name)
            }
        }
    }

    /// Property `name` that object type `t` has from the global `Function` (when it has
    /// call or construct signatures) or `Object` interface, its apparent type's members.
    pub(super) fn global_apparent_property(&mut self, t: TypeId, name: &Atom) -> Option<TypeId> {
        let m = self.members(t);
        let fallback = if !m.calls.is_empty() || !m.constructs.is_empty() {
            self.globals.function
        } else {
            None
        }
        .or(self.globals.object);
        let g = fallback?;
        let gt = self.declared_type(g);
        if gt == t {
            return None;
        }
        let gm = self.members(gt);
        if let Some(p) = gm.props.get(name) {
            return Some(self.prop_ty(p));
        }
        let o = self.globals.object.filter(|&o| o != g)?;
        let ot = self.declared_type(o);
        let p = self.members(ot).props.get(name).cloned()?;
        Some(self.prop_ty(&p))
    }

    /// The types of property `name` in the members of an intersection that have it. As in
    /// TypeScript (whose intersection properties come from declared properties only), a
    /// member's index signature counts only when no member declares the property.
    pub(super) fn intersection_property_types(
        &mut self,
        ms: &[TypeId],
        name: &Atom,
    ) -> Vec<TypeId> {
        let mut declared = Vec::with_capacity(ms.len());
        let mut indexed = Vec::new();
        for &m in ms {
            let Some(t) = self.property_type(m, name) else {
                continue;
            };
            let index_only = matches!(
                self.types.kind(m),
                TypeKind::Object(_) | TypeKind::Declared(_) | TypeKind::Reference(..)
            ) && !self.members(m).props.contains_key(name);
            if index_only {
                indexed.push(t);
            } else {
                declared.push(t);
            }
        }
        if declared.is_empty() {
            indexed
        } else {
            declared
        }
    }
}
