//! The members a spread (`{ ...x }`) copies from its operand.
use std::rc::Rc;

use swc_atoms::Atom;

use crate::check::Checker;
use crate::types::{ObjectType, PropSymbol, TypeId, TypeKind, ids};

impl<'a> Checker<'a, '_> {
    /// The members `{ ...t }` copies. For a union (such as an intersection with a union
    /// member, which distributes into one), the properties every non-nullish member has,
    /// each typed as the union of its types there and optional where any member's is: the
    /// properties TypeScript's union of spreads has in every member.
    pub(in crate::check) fn spread_members(&mut self, t: TypeId) -> Rc<ObjectType> {
        let TypeKind::Union(ms) = self.types.kind(t).clone() else {
            return self.members(t);
        };
        let ms: Vec<TypeId> = ms
            .iter()
            .copied()
            .filter(|&m| m != ids::NULL && m != ids::UNDEFINED)
            .collect();
        let Some((&first, rest)) = ms.split_first() else {
            return Rc::new(ObjectType::default());
        };
        if rest.is_empty() {
            return self.members(first);
        }
        let all: Vec<Rc<ObjectType>> = ms.iter().map(|&m| self.members(m)).collect();
        let mut obj = ObjectType::default();
        for name in &all[0].order {
            let mut types = Vec::with_capacity(all.len());
            let mut optional = false;
            for m in &all {
                let Some(p) = m.props.get(name) else {
                    break;
                };
                let p = p.clone();
                types.push(self.prop_ty(&p));
                optional |= p.optional;
            }
            if types.len() < all.len() {
                continue;
            }
            let ty = self.types.union(&types);
            let prop = PropSymbol {
                optional,
                ..PropSymbol::empty(name.clone())
            };
            prop.ty.set(ty);
            obj.insert_symbol(name.clone(), Rc::new(prop));
        }
        Rc::new(obj)
    }

    /// Puts a property copied by a spread into `obj`: it replaces one of the same name,
    /// except that an optional one leaves that one's type possible (TypeScript's spread of
    /// `{ a?: T }` over `{ a: U }` has `a: U | T`, required).
    pub(in crate::check) fn insert_spread_prop(
        &mut self,
        obj: &mut ObjectType,
        name: &Atom,
        p: Rc<PropSymbol>,
    ) {
        let Some(old) = obj
            .props
            .get(name)
            .filter(|o| p.optional && !o.optional)
            .cloned()
        else {
            obj.insert_symbol(name.clone(), p);
            return;
        };
        let old_ty = self.prop_ty(&old);
        let new_ty = self.prop_ty(&p);
        let new_ty = self.types.without_undefined(new_ty);
        let ty = self.types.union(&[old_ty, new_ty]);
        let prop = PropSymbol {
            check_flags: p.check_flags,
            declaration: p.declaration,
            ..PropSymbol::empty(name.clone())
        };
        prop.ty.set(ty);
        obj.insert_symbol(name.clone(), Rc::new(prop));
    }
}
