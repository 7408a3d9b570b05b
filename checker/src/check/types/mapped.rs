//! Mapped types: resolved to an object when their keys are known (homomorphic ones over
//! arrays and tuples too), else deferred with the members of their constraint's keys.
use std::rc::Rc;

use swc_atoms::Atom;

use crate::check::Checker;
use crate::syntax;
use crate::types::{MappedRoot, MappedType, Mapper, ObjectType, PropSymbol, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// A mapped type under `mapper`: resolved to an object when its keys are known, mapped
    /// over unions, arrays, tuples and primitives when homomorphic, else deferred.
    pub(in crate::check) fn mapped_type(
        &mut self,
        root: &Rc<MappedRoot>,
        mapper: Option<Rc<Mapper>>,
    ) -> TypeId {
        if let Some(h) = root.homomorphic {
            let src = self.inst_opt(h, mapper.as_deref());
            match self.types.kind(src).clone() {
                TypeKind::Union(ms) => {
                    let mut out = Vec::with_capacity(ms.len());
                    for &x in ms.iter() {
                        let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(h, x)]));
                        out.push(self.mapped_type(root, Some(m)));
                    }
                    return self.types.union(&out);
                }
                TypeKind::Never => return src,
                _ if self.types.is_primitive(src) => return src,
                TypeKind::Reference(a, args)
                    if Some(a) == self.globals.array && args.len() == 1 =>
                {
                    let m = self.mapper_with(mapper.as_deref(), &[(root.param, ids::NUMBER)]);
                    let e = self.instantiate(root.template, &m);
                    let e = self.apply_optional(root, e);
                    return self.array_of(e);
                }
                TypeKind::Tuple(es) => {
                    let mut out = Vec::with_capacity(es.len());
                    for (i, &el) in es.iter().enumerate() {
                        // `...X` maps to `...` the mapped type over `X`.
                        if let TypeKind::Spread(x) = *self.types.kind(el) {
                            let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(h, x)]));
                            let mapped = self.mapped_type(root, Some(m));
                            out.push(self.types.spread(mapped));
                            continue;
                        }
                        let k = self.types.string_lit(&Atom::from(i.to_string()));
                        let m = self.mapper_with(mapper.as_deref(), &[(root.param, k)]);
                        let e = self.instantiate(root.template, &m);
                        out.push(self.apply_optional(root, e));
                    }
                    return self.types.tuple(out.into());
                }
                _ => {}
            }
        }
        let constraint = self.inst_opt(root.constraint, mapper.as_deref());
        if self.types.is_generic(constraint) {
            return self.types.mapped(MappedType {
                root: root.clone(),
                mapper,
                constraint,
            });
        }
        self.resolve_mapped(root, mapper, constraint)
    }

    /// An element of a homomorphic mapped array or tuple: `?` adds `undefined`, `-?`
    /// removes it.
    pub(super) fn apply_optional(&mut self, root: &MappedRoot, e: TypeId) -> TypeId {
        match root.optional {
            1 => self.types.union(&[e, ids::UNDEFINED]),
            -1 => self.types.without_undefined(e),
            _ => e,
        }
    }

    /// The object a mapped type denotes for the keys in `keys` (at most 256): a property
    /// per string or number literal key, typed lazily as the template with `K` := key; an
    /// index signature for `string` and `number`.
    /// The members whose modifiers a mapped type keeps: the modifiers type's, and for a
    /// union each property known in some member, optional when it is optional in any (as
    /// TypeScript reads a union's property).
    pub(super) fn modifier_members(&mut self, x: TypeId) -> Rc<ObjectType> {
        let TypeKind::Union(ms) = self.types.kind(x).clone() else {
            return self.members(x);
        };
        let mut out = ObjectType::default();
        for m in ms.iter() {
            let mm = self.members(*m);
            for name in &mm.order {
                let p = &mm.props[name];
                match out.props.get(name) {
                    Some(q) if q.optional || !p.optional => {}
                    Some(_) => {
                        let mut merged = (**p).clone();
                        merged.optional = true;
                        out.props.insert(name.clone(), Rc::new(merged));
                    }
                    None => out.insert_symbol(name.clone(), p.clone()),
                }
            }
        }
        Rc::new(out)
    }

    pub(super) fn resolve_mapped(
        &mut self,
        root: &Rc<MappedRoot>,
        mapper: Option<Rc<Mapper>>,
        keys: TypeId,
    ) -> TypeId {
        // Every key becomes a property; its type is instantiated when first read.
        let keys: Vec<TypeId> = match self.types.kind(keys) {
            TypeKind::Union(ms) => ms.to_vec(),
            _ => vec![keys],
        };
        let modifiers = match root.modifiers {
            Some(x) => {
                let x = self.inst_opt(x, mapper.as_deref());
                (!self.types.is_generic(x)).then(|| self.modifier_members(x))
            }
            None => None,
        };
        // Keys in the order the modifiers type declares them (as TypeScript prints them).
        let mut keys = keys;
        if let Some(mods) = &modifiers {
            keys.sort_by_key(|&k| {
                match self.types.kind(k) {
                    TypeKind::StringLit(s) => mods.order.iter().position(|n| n == s),
                    _ => None,
                }
                .unwrap_or(usize::MAX)
            });
        }
        let mut obj = ObjectType::default();
        for k in keys {
            let key_name = match self.types.kind(k) {
                TypeKind::StringLit(s) => Some(s.clone()),
                TypeKind::NumberLit(n) => Some(Atom::from(syntax::format_number(*n))),
                _ => None,
            };
            if key_name.is_none() && !matches!(k, ids::STRING | ids::NUMBER) {
                continue;
            }
            let m = Rc::new(self.mapper_with(mapper.as_deref(), &[(root.param, k)]));
            let names: Vec<TypeId> = match root.name_type {
                Some(n) => {
                    let n = self.instantiate(n, &m);
                    match self.types.kind(n) {
                        TypeKind::Union(ms) => ms.to_vec(),
                        _ => vec![n],
                    }
                }
                None => vec![k],
            };
            let source_optional = key_name
                .as_ref()
                .and_then(|n| modifiers.as_ref()?.props.get(n).map(|p| p.optional));
            for name in names {
                let pname = match self.types.kind(name) {
                    TypeKind::StringLit(s) => s.clone(),
                    TypeKind::NumberLit(n) => Atom::from(syntax::format_number(*n)),
                    TypeKind::String => {
                        obj.string_index = Some(self.instantiate(root.template, &m));
                        continue;
                    }
                    TypeKind::Number => {
                        obj.number_index = Some(self.instantiate(root.template, &m));
                        continue;
                    }
                    _ => continue,
                };
                let optional = match root.optional {
                    1 => true,
                    -1 => false,
                    _ => source_optional.unwrap_or(false),
                };
                let prop = if root.optional == -1 && source_optional == Some(true) {
                    // `-?` also removes the `undefined` an optional source property adds.
                    let t = self.instantiate(root.template, &m);
                    let t = self.types.without_undefined(t);
                    PropSymbol {
                        ty: std::cell::Cell::new(t),
                        optional,
                        key_type: Some(k),
                        ..PropSymbol::empty(pname.clone())
                    }
                } else {
                    PropSymbol {
                        origin: Some((root.template_prop.clone(), m.clone())),
                        optional,
                        check_flags: 1,
                        key_type: Some(k),
                        ..PropSymbol::empty(pname.clone())
                    }
                };
                obj.insert_symbol(pname, Rc::new(prop));
            }
        }
        // The object is generic when an outer type parameter it mentions still is.
        let mut generic = false;
        for &p in root.outer.iter() {
            let a = mapper.as_ref().and_then(|m| m.get(p)).unwrap_or(p);
            if self.types.is_generic(a) {
                generic = true;
                break;
            }
        }
        let mstable = mapper.as_ref().map_or(0, |m| m.stable);
        let origin = root.node ^ mstable.rotate_left(29) ^ 0x6d61_7070_6564;
        self.types.object_flagged(obj, origin, generic)
    }

    /// The members of a deferred mapped type (inside generic code): over the keys of the
    /// constraint's constraint when they are known, else an index signature of `any`.
    pub(super) fn deferred_mapped_members(&mut self, mt: &MappedType) -> Rc<ObjectType> {
        let mut c = mt.constraint;
        let mut keys = None;
        for _ in 0..4 {
            match self.types.kind(c).clone() {
                TypeKind::TypeParam(p) => match self.constraint_of(p) {
                    Some(x) if x != c => c = x,
                    _ => break,
                },
                TypeKind::Keyof(x) => {
                    // `keyof T` for an unconstrained `T` is `keyof unknown`: no keys.
                    let base = match self.types.kind(x) {
                        TypeKind::TypeParam(p) => {
                            let p = *p;
                            Some(self.constraint_of(p).unwrap_or(ids::UNKNOWN))
                        }
                        _ => None,
                    };
                    if let Some(b) = base.filter(|&b| !self.types.is_generic(b)) {
                        keys = Some(self.keyof(b));
                    }
                    break;
                }
                _ => {
                    if !self.types.is_generic(c) {
                        keys = Some(c);
                    }
                    break;
                }
            }
        }
        match keys {
            Some(k) => {
                let o = self.resolve_mapped(&mt.root, mt.mapper.clone(), k);
                self.members(o)
            }
            None => Rc::new(ObjectType {
                string_index: Some(ids::ANY),
                ..ObjectType::default()
            }),
        }
    }
}
