//! Normalisation of unions and intersections, as TypeScript's `getUnionType` and
//! `getIntersectionType`: flattened, deduplicated, reduced; widening and nullish removal.
use super::table::stable_of;
use super::{ObjectType, TypeId, TypeKind, TypeTable, UNRESOLVED, ids, tflags};

/// How many combinations an intersection distributes over its union members into, at
/// most (TypeScript refuses past 100,000; this checker keeps the intersection instead).
pub const MAX_DISTRIBUTED: usize = 64;

/// What [`TypeTable::reduce_intersection`] found.
enum Reduced {
    Never,
    Kept,
    Distribute(usize),
}

/// `{}`: an object type without members.
fn is_empty_object(o: &ObjectType) -> bool {
    o.props.is_empty()
        && o.calls.is_empty()
        && o.constructs.is_empty()
        && o.string_index.is_none()
        && o.number_index.is_none()
}

impl TypeTable {
    /// Sorts by stable key (ties by id, which only equal-looking types share).
    /// A fresh literal type sorts beside its regular type, so a union prints its members
    /// in the same order whichever of the two it holds.
    fn sort_stable(&self, ts: &mut [TypeId]) {
        ts.sort_by_key(|&t| (self.stable(self.regular_literal(t)), self.stable(t), t));
    }

    /// The union of `types`: flattened, deduplicated, `any` absorbing, `never` dropped,
    /// literals absorbed by their primitive.
    pub fn union(&mut self, types: &[TypeId]) -> TypeId {
        let mut flat: Vec<TypeId> = Vec::with_capacity(types.len());
        for &t in types {
            match self.kind(t) {
                TypeKind::Union(members) => flat.extend(members.iter().copied()),
                TypeKind::Any => {
                    return if t == ids::ERROR {
                        ids::ERROR
                    } else {
                        ids::ANY
                    };
                }
                TypeKind::Never => {}
                _ => flat.push(t),
            }
        }
        if flat.contains(&ids::UNKNOWN) {
            return ids::UNKNOWN;
        }
        // A fresh literal and its regular type are one member: the regular one.
        if flat.iter().any(|&t| self.is_fresh_literal(t)) {
            let regular: Vec<TypeId> = flat
                .iter()
                .copied()
                .filter(|&t| !self.is_fresh_literal(t))
                .collect();
            flat.retain(|&t| {
                !self.is_fresh_literal(t) || !regular.contains(&self.regular_literal(t))
            });
        }
        let has_string = flat.contains(&ids::STRING);
        let has_number = flat.contains(&ids::NUMBER);
        let has_bool = flat.contains(&ids::BOOLEAN)
            || (flat.iter().any(|&t| self.regular_literal(t) == ids::TRUE)
                && flat.iter().any(|&t| self.regular_literal(t) == ids::FALSE));
        flat.retain(|&t| match self.kind(t) {
            TypeKind::StringLit(_) => !has_string,
            TypeKind::NumberLit(_) => !has_number,
            TypeKind::BoolLit(_) => !has_bool,
            TypeKind::Boolean => false,
            _ => true,
        });
        if has_bool {
            flat.push(ids::BOOLEAN);
        }
        self.sort_stable(&mut flat);
        flat.dedup();
        match flat.len() {
            0 => ids::NEVER,
            1 => flat[0],
            _ => {
                let key: Box<[TypeId]> = flat.into_boxed_slice();
                if let Some(&t) = self.unions.get(&key) {
                    return t;
                }
                let parts: Vec<u64> = key.iter().map(|&a| self.stable(a)).collect();
                let flags = self.generic_of(&key);
                let t = self.push(TypeKind::Union(key.clone()), flags, stable_of(30, &parts));
                self.unions.insert(key, t);
                t
            }
        }
    }

    /// The intersection of `types`, normalized as TypeScript's `getIntersectionType` does:
    /// flattened and deduplicated, `never` absorbing (before `any`), `unknown` dropped,
    /// empty object types `{}` dropped beside definitely non-nullable members, primitives
    /// beside their own literals dropped, disjoint primitives, distinct unit types and
    /// object types with conflicting literal properties reduced to `never`, and unions
    /// distributed over (`A & (B | C)` is `(A & B) | (A & C)`) while the combinations stay
    /// under [`MAX_DISTRIBUTED`]; past that the intersection keeps its union members.
    pub fn intersection(&mut self, types: &[TypeId]) -> TypeId {
        let mut flat: Vec<TypeId> = Vec::with_capacity(types.len());
        let mut any = None;
        for &t in types {
            match self.kind(t) {
                TypeKind::Intersection(members) => flat.extend(members.iter().copied()),
                TypeKind::Any => any = Some(any.unwrap_or(t)),
                TypeKind::Never => return ids::NEVER,
                TypeKind::Unknown => {}
                _ => flat.push(t),
            }
        }
        if let Some(a) = any {
            return a;
        }
        // A fresh literal type is its regular type here.
        for t in flat.iter_mut() {
            *t = self.regular_literal(*t);
        }
        self.sort_stable(&mut flat);
        flat.dedup();
        if flat.len() > 1 {
            match self.reduce_intersection(&mut flat) {
                Reduced::Never => return ids::NEVER,
                Reduced::Distribute(n) if n <= MAX_DISTRIBUTED => {
                    return self.distribute_intersection(&flat);
                }
                _ => {}
            }
        }
        match flat.len() {
            0 => ids::UNKNOWN,
            1 => flat[0],
            _ => {
                let key: Box<[TypeId]> = flat.into_boxed_slice();
                if let Some(&t) = self.intersections.get(&key) {
                    return t;
                }
                let parts: Vec<u64> = key.iter().map(|&a| self.stable(a)).collect();
                let flags = self.generic_of(&key);
                let t = self.push(
                    TypeKind::Intersection(key.clone()),
                    flags,
                    stable_of(31, &parts),
                );
                self.intersections.insert(key, t);
                t
            }
        }
    }

    /// Applies the reductions of [`TypeTable::intersection`] other than distribution to the
    /// sorted, deduplicated members `flat`; says whether the result is `never` or how many
    /// combinations distributing over its union members would give.
    fn reduce_intersection(&mut self, flat: &mut Vec<TypeId>) -> Reduced {
        // Domains: string, number, bigint, boolean, symbol, null, undefined/void.
        let mut domains = 0u8;
        let mut undefined = false;
        let mut units = 0usize;
        let mut non_primitive = false;
        let mut object_like = false;
        let mut empty_object = false;
        let mut unions = 1usize;
        let mut objects = 0usize;
        for &t in flat.iter() {
            match self.kind(t) {
                TypeKind::String => domains |= 1,
                TypeKind::StringLit(_) => (domains, units) = (domains | 1, units + 1),
                TypeKind::Number => domains |= 2,
                TypeKind::NumberLit(_) => (domains, units) = (domains | 2, units + 1),
                TypeKind::BigInt => domains |= 4,
                TypeKind::BigIntLit(_) => (domains, units) = (domains | 4, units + 1),
                TypeKind::Boolean => domains |= 8,
                TypeKind::BoolLit(_) => (domains, units) = (domains | 8, units + 1),
                TypeKind::EsSymbol => domains |= 16,
                TypeKind::Null => (domains, units) = (domains | 32, units + 1),
                TypeKind::Undefined => {
                    (domains, units) = (domains | 64, units + 1);
                    undefined = true;
                }
                TypeKind::Void => domains |= 64,
                TypeKind::EnumLiteral(_) => units += 1,
                TypeKind::NonPrimitive => non_primitive = true,
                TypeKind::Object(o) => {
                    objects += 1;
                    if is_empty_object(o) {
                        empty_object = true;
                    } else {
                        object_like = true;
                    }
                }
                TypeKind::Declared(_)
                | TypeKind::Reference(..)
                | TypeKind::Tuple(_)
                | TypeKind::ClassStatic(_)
                | TypeKind::Namespace(_)
                | TypeKind::Module(_)
                | TypeKind::Enum(_) => object_like = true,
                TypeKind::Union(ms) => unions = unions.saturating_mul(ms.len()),
                _ => {}
            }
        }
        let nullable = domains & 32 != 0 || undefined;
        if units > 1
            || (domains & !(32 | 64)).count_ones() > 1
            || (domains & (32 | 64) != 0 && domains & !(32 | 64) != 0)
            || (domains & 32 != 0 && domains & 64 != 0)
            || (non_primitive && domains != 0)
            || (nullable && (object_like || empty_object || non_primitive))
        {
            return Reduced::Never;
        }
        if objects > 1 && self.conflicting_literal_props(flat) {
            return Reduced::Never;
        }
        let definitely_non_nullable = object_like || non_primitive || domains & !(32 | 64) != 0;
        let lits = units > 0;
        flat.retain(|&t| match self.kind(t) {
            TypeKind::Object(o) => !(definitely_non_nullable && is_empty_object(o)),
            TypeKind::String | TypeKind::Number | TypeKind::BigInt | TypeKind::Boolean => !lits,
            TypeKind::Void => !undefined,
            _ => true,
        });
        if unions > 1 {
            Reduced::Distribute(unions)
        } else {
            Reduced::Kept
        }
    }

    /// Whether two object types among `flat` have a required property of the same name
    /// whose types are distinct unit types (TypeScript reduces such intersections, of
    /// discriminated members, to `never`). Only properties whose types are resolved count
    /// (the checker's `intersection` resolves the shared ones first, so the answer does not
    /// depend on what was resolved before), and not those of mapped types
    /// ([`tflags::MAPPED`]), whose keys are approximate.
    fn conflicting_literal_props(&self, flat: &[TypeId]) -> bool {
        let objs: Vec<&ObjectType> = flat
            .iter()
            .filter_map(|&t| match self.kind(t) {
                TypeKind::Object(o) if self.flags(t) & tflags::MAPPED == 0 => Some(&**o),
                _ => None,
            })
            .collect();
        for (i, a) in objs.iter().enumerate() {
            for b in &objs[i + 1..] {
                for (name, pa) in &a.props {
                    let Some(pb) = b.props.get(name) else {
                        continue;
                    };
                    if pa.optional || pb.optional {
                        continue;
                    }
                    let (ta, tb) = (pa.ty.get(), pb.ty.get());
                    if ta != tb
                        && ta != UNRESOLVED
                        && tb != UNRESOLVED
                        && self.regular_literal(ta) != self.regular_literal(tb)
                        && self.is_unit(ta)
                        && self.is_unit(tb)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A primitive: `string`, `number`, `boolean`, `bigint`, `symbol`, their literals, an
    /// enum or enum member, `undefined`, `null` or `void`.
    pub fn is_primitive(&self, t: TypeId) -> bool {
        matches!(
            self.kind(t),
            TypeKind::String
                | TypeKind::Number
                | TypeKind::Boolean
                | TypeKind::BigInt
                | TypeKind::EsSymbol
                | TypeKind::StringLit(_)
                | TypeKind::NumberLit(_)
                | TypeKind::BoolLit(_)
                | TypeKind::BigIntLit(_)
                | TypeKind::EnumLiteral(_)
                | TypeKind::Enum(_)
                | TypeKind::Undefined
                | TypeKind::Null
                | TypeKind::Void
        )
    }

    /// A literal, `null`, `undefined` or enum member type: one value only.
    pub fn is_unit(&self, t: TypeId) -> bool {
        self.is_literal_kind(t) || matches!(self.kind(t), TypeKind::Null | TypeKind::Undefined)
    }

    /// `A & (B | C) & D` as `(A & B & D) | (A & C & D)`: the union of the intersections of
    /// every combination of the union members of `flat` with its other members.
    fn distribute_intersection(&mut self, flat: &[TypeId]) -> TypeId {
        let mut combos: Vec<Vec<TypeId>> = vec![Vec::with_capacity(flat.len())];
        for &t in flat {
            match self.kind(t) {
                TypeKind::Union(ms) => {
                    let ms = ms.clone();
                    let mut next = Vec::with_capacity(combos.len() * ms.len());
                    for c in &combos {
                        for &m in ms.iter() {
                            let mut c = c.clone();
                            c.push(m);
                            next.push(c);
                        }
                    }
                    combos = next;
                }
                _ => combos.iter_mut().for_each(|c| c.push(t)),
            }
        }
        let members: Vec<TypeId> = combos.iter().map(|c| self.intersection(c)).collect();
        self.union(&members)
    }

    /// The primitive a fresh literal type widens to (`"a"` to `string`, TypeScript's
    /// `getWidenedLiteralType`); regular literal types and other types unchanged.
    pub fn widen(&mut self, t: TypeId) -> TypeId {
        let literal = !matches!(self.kind(t), TypeKind::Union(_));
        if literal && !self.is_fresh_literal(t) {
            return t;
        }
        match self.kind(t) {
            TypeKind::StringLit(_) => ids::STRING,
            TypeKind::NumberLit(_) => ids::NUMBER,
            TypeKind::BoolLit(_) => ids::BOOLEAN,
            TypeKind::BigIntLit(_) => ids::BIGINT,
            TypeKind::Union(members) if self.flags(t) & tflags::GENERIC == 0 => {
                let members = members.clone();
                let widened: Vec<TypeId> = members.iter().map(|&m| self.widen(m)).collect();
                self.union(&widened)
            }
            _ => t,
        }
    }

    /// Removes `undefined` from a union (what `-?` does to an optional property's type).
    pub fn without_undefined(&mut self, t: TypeId) -> TypeId {
        match self.kind(t) {
            TypeKind::Union(members) => {
                let kept: Vec<TypeId> = members
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::UNDEFINED)
                    .collect();
                self.union(&kept)
            }
            TypeKind::Undefined => ids::NEVER,
            _ => t,
        }
    }

    /// Removes `null` and `undefined` from a union.
    pub fn non_nullable(&mut self, t: TypeId) -> TypeId {
        match self.kind(t) {
            TypeKind::Union(members) => {
                let kept: Vec<TypeId> = members
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::NULL && m != ids::UNDEFINED)
                    .collect();
                self.union(&kept)
            }
            TypeKind::Null | TypeKind::Undefined => ids::NEVER,
            _ => t,
        }
    }
}
