//! Measured variance of generic types, as TypeScript has it (`getVariances`).
//!
//! Two references to the same generic class, interface or (recursive) type alias relate
//! argument by argument, each by its type parameter's variance. The variance of a type
//! parameter is measured once per checker: the type is instantiated with a marker super
//! type and a marker sub type (a type parameter constrained by the super marker) in that
//! position, the other positions keeping their own parameters, and the two instantiations
//! are related structurally both ways (covariant, contravariant, both, neither), and a
//! bivariant parameter also against a third, unrelated marker (independent when that
//! relates too). `in`/`out` modifiers are taken as written; `Array` and `ReadonlyArray`
//! are covariant without measuring.
//!
//! The measurement relates as TypeScript does under `strictFunctionTypes`, which the rest
//! of this checker does not model (it compares parameters bivariantly): parameters of a
//! function type (not a method) relate contravariantly, and a parameter that is a single
//! callback on both sides relates its callback's signature the other way (so `Promise`'s
//! `then(onfulfilled: (value: T) => ...)` is covariant in `T`). Those relations are cached
//! in a cache of their own ([`Variances::relations`], swapped in while measuring), and
//! inference started while measuring (an expression, a conditional type's branch) runs
//! with the ordinary relation, so no other cache depends on whether a measurement was in
//! progress.
//!
//! Caching follows the checker's rules: a measurement is a resolution on the checker's
//! resolution stack, so a relation that meets a variance still being measured (a
//! recursive type: TypeScript's `Unknown`) is taken as related and cached nowhere, and a
//! measurement that leaned on an outer one, on a value placeholder, on the instantiation
//! depth limit or on a member cycle is not cached for good. Each measurement relates with
//! a relation stack of its own (TypeScript starts a new relation), so no assumption of an
//! outer relation in progress enters it. A parameter whose measurement met a relation
//! this checker decides leniently (conditional, mapped, indexed access and `keyof` types;
//! TypeScript's unreliable markers) is [`UNRELIABLE`]: when its arguments do not relate,
//! the two references are compared structurally instead.
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};
use swc_atoms::Atom;

use crate::bind::{DeclRef as BDecl, GLOBAL_FILE, SymbolId, VARIANCE_MARKERS, flags};
use crate::check::{Checker, Resolution};
use crate::types::{Mapper, Signature, SymbolType, TypeId, TypeKind, ids};

/// Related when the source argument is assignable to the target's.
pub(super) const COVARIANT: u8 = 1;
/// Related when the target argument is assignable to the source's.
pub(super) const CONTRAVARIANT: u8 = 2;
/// Either way.
pub(super) const BIVARIANT: u8 = 3;
/// The parameter does not matter.
pub(super) const INDEPENDENT: u8 = 4;
const VARIANCE_MASK: u8 = 7;
/// Measured through a relation decided leniently: a failed argument check falls back to
/// a structural comparison.
pub(super) const UNRELIABLE: u8 = 16;

/// One checker's variance state.
#[derive(Default)]
pub(in crate::check) struct Variances {
    /// Measured variances by generic symbol.
    cache: FxHashMap<SymbolId, Rc<[u8]>>,
    /// Variances measured while leaning on an outer measurement in progress: used while
    /// the checker's `provisional` holds `Resolution::Variance` of the symbol (until that
    /// outer measurement completes), so a measurement nested in a cycle of generic types
    /// is made once per outer one, not once per relation that asks for it.
    provisional: FxHashMap<SymbolId, Rc<[u8]>>,
    /// How many measurements are in progress (their relations use the strict rules).
    measuring: u32,
    /// The relation cache of measurements, swapped with the checker's while measuring.
    pub(in crate::check) relations: FxHashMap<(TypeId, TypeId), bool>,
    /// Relations (of measurements) whose answer met a lenient relation.
    unreliable_pairs: FxHashSet<(TypeId, TypeId)>,
    /// Whether the relation being computed met a lenient relation.
    pub(in crate::check) unreliable: bool,
}

impl<'a> Checker<'a, '_> {
    /// The marker type parameters: super, sub (constrained by super), other.
    fn variance_markers(&mut self) -> [TypeId; 3] {
        let base = self.bound.global_symbols.len() - VARIANCE_MARKERS.len();
        std::array::from_fn(|i| {
            let s = SymbolId {
                file: GLOBAL_FILE,
                index: (base + i) as u32,
            };
            self.types.of_symbol(SymbolType::TypeParam, s)
        })
    }

    /// The constraint of a marker type parameter (`None` for other symbols): the sub
    /// marker's is the super marker.
    pub(in crate::check) fn marker_constraint(&mut self, s: SymbolId) -> Option<Option<TypeId>> {
        let base = self.bound.global_symbols.len() - VARIANCE_MARKERS.len();
        if s.file != GLOBAL_FILE || (s.index as usize) < base {
            return None;
        }
        let [sup, sub, _] = self.variance_markers();
        let t = self.types.of_symbol(SymbolType::TypeParam, s);
        Some((t == sub).then_some(sup))
    }

    /// Whether `args` of `sym` are a marker instantiation (TypeScript's `isMarkerType`):
    /// the declared parameters with some replaced by markers.
    fn is_marker_instantiation(&mut self, sym: SymbolId, args: &[TypeId]) -> bool {
        let markers = self.variance_markers();
        if !args.iter().any(|a| markers.contains(a)) {
            return false;
        }
        let params = self.type_params_of(sym);
        args.len() == params.len()
            && args
                .iter()
                .zip(params.iter())
                .all(|(a, p)| a == p || markers.contains(a))
    }

    /// `sym` with the marker `marker` for its type parameter `i`.
    fn marker_type(
        &mut self,
        sym: SymbolId,
        params: &[TypeId],
        i: usize,
        marker: TypeId,
    ) -> TypeId {
        let mut args = params.to_vec();
        args[i] = marker;
        if self.bound.symbol(sym).flags & flags::TYPE_ALIAS != 0 {
            self.type_reference(sym, args)
        } else {
            self.types.reference(sym, args.into())
        }
    }

    /// The variances of `sym`'s type parameters; `None` while they are being measured.
    fn variances(&mut self, sym: SymbolId) -> Option<Rc<[u8]>> {
        if let Some(v) = self.variance.cache.get(&sym) {
            return Some(v.clone());
        }
        let params = self.type_params_of(sym);
        let readonly_array = self
            .bound
            .globals
            .get(&Atom::from("ReadonlyArray"))
            .copied();
        if self.globals.array == Some(sym) || readonly_array == Some(sym) {
            let v: Rc<[u8]> = params.iter().map(|_| COVARIANT).collect();
            self.variance.cache.insert(sym, v.clone());
            return Some(v);
        }
        if self.provisional_type(Resolution::Variance(sym)).is_some()
            && let Some(v) = self.variance.provisional.get(&sym)
        {
            return Some(v.clone());
        }
        let token = self.begin_resolution(Resolution::Variance(sym))?;
        let mut scope = self.cache_scope();
        scope.enter_measurement();
        let relation = scope.begin_new_relation();
        let [sup_marker, sub_marker, other_marker] = scope.variance_markers();
        let mut out = Vec::with_capacity(params.len());
        for i in 0..params.len() {
            if let Some(v) = scope.written_variance(params[i]) {
                out.push(v);
                continue;
            }
            scope.variance.unreliable = false;
            let sup = scope.marker_type(sym, &params, i, sup_marker);
            let sub = scope.marker_type(sym, &params, i, sub_marker);
            let mut v = 0;
            if scope.is_assignable(sub, sup) {
                v |= COVARIANT;
            }
            if scope.is_assignable(sup, sub) {
                v |= CONTRAVARIANT;
            }
            if v == BIVARIANT {
                let other = scope.marker_type(sym, &params, i, other_marker);
                if scope.is_assignable(other, sup) {
                    v = INDEPENDENT;
                }
            }
            if scope.variance.unreliable {
                v |= UNRELIABLE;
            }
            out.push(v);
        }
        // The measurement settles its own assumptions and lenient relations (as its
        // unreliable markers); what it leaned on or ran past is the enclosing one's too.
        scope.variance.unreliable = false;
        scope.assumed = false;
        scope.end_new_relation(relation);
        scope.leave_measurement();
        let met = scope.met();
        drop(scope);
        let settled = self.end_resolution(token, ids::ANY);
        let v: Rc<[u8]> = out.into();
        if !met.tainted && !met.partial {
            if settled {
                self.variance.cache.insert(sym, v.clone());
            } else {
                self.variance.provisional.insert(sym, v.clone());
            }
        } else if !settled {
            self.provisional.remove(&Resolution::Variance(sym));
        }
        Some(v)
    }

    /// A variance written with `in`/`out` on the type parameter `p`.
    fn written_variance(&mut self, p: TypeId) -> Option<u8> {
        let TypeKind::TypeParam(s) = *self.types.kind(p) else {
            return None;
        };
        let mut v = None;
        for (_, d) in &self.bound.symbol(s).decls {
            if let BDecl::TypeParam(tp) = d
                && (tp.is_in || tp.is_out)
            {
                let w = (u8::from(tp.is_out) * COVARIANT) | (u8::from(tp.is_in) * CONTRAVARIANT);
                // `in out` is invariant.
                v = Some(if w == BIVARIANT { 0 } else { w });
            }
        }
        v
    }

    fn enter_measurement(&mut self) {
        if self.variance.measuring == 0 {
            std::mem::swap(&mut self.relations, &mut self.variance.relations);
        }
        self.variance.measuring += 1;
    }

    fn leave_measurement(&mut self) {
        self.variance.measuring -= 1;
        if self.variance.measuring == 0 {
            std::mem::swap(&mut self.relations, &mut self.variance.relations);
        }
    }

    /// Runs `f` with the ordinary relation (inference started while measuring).
    pub(in crate::check) fn outside_measurement<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let measuring = self.variance.measuring;
        if measuring == 0 {
            return f(self);
        }
        std::mem::swap(&mut self.relations, &mut self.variance.relations);
        self.variance.measuring = 0;
        let mut scope = self.cache_scope();
        // A relation of its own too: strict-rule and ordinary answers never mix.
        let r = scope.in_new_relation(f);
        // What the ordinary relation met is not the measurement's.
        scope.variance.unreliable = false;
        drop(scope);
        self.variance.measuring = measuring;
        std::mem::swap(&mut self.relations, &mut self.variance.relations);
        r
    }

    /// Whether a measurement is in progress.
    pub(in crate::check) fn measuring(&self) -> bool {
        self.variance.measuring > 0
    }

    /// Notes, while measuring, a relation this checker decides leniently.
    pub(super) fn note_unreliable(&mut self, s: TypeId, t: TypeId) {
        if self.variance.measuring == 0 {
            return;
        }
        let lenient = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::Conditional(_)
                    | TypeKind::Mapped(_)
                    | TypeKind::Keyof(_)
                    | TypeKind::Indexed(..)
            )
        };
        if lenient(self.types.kind(s)) || lenient(self.types.kind(t)) {
            self.variance.unreliable = true;
        }
    }

    /// Notes, while measuring, that the relation being computed is decided leniently.
    pub(super) fn mark_unreliable(&mut self) {
        if self.variance.measuring > 0 {
            self.variance.unreliable = true;
        }
    }

    /// Notes, while measuring, that a cached relation met a lenient one.
    pub(super) fn cached_relation_unreliable(&mut self, s: TypeId, t: TypeId) {
        if self.variance.measuring > 0 && self.variance.unreliable_pairs.contains(&(s, t)) {
            self.variance.unreliable = true;
        }
    }

    /// Notes that the relation `s` to `t`, computed while measuring, met a lenient one.
    pub(super) fn note_unreliable_pair(&mut self, s: TypeId, t: TypeId) {
        if self.variance.measuring > 0 {
            self.variance.unreliable_pairs.insert((s, t));
        }
    }

    /// Two references to the same generic type (or two instantiations of the same
    /// recursive alias) related by their type parameters' variances; `None` where they are
    /// to be compared structurally (other pairs, marker instantiations, a failed check of
    /// an unreliable variance or of a covariant `void` argument).
    pub(super) fn related_by_variance(&mut self, s: TypeId, t: TypeId) -> Option<bool> {
        let (sym, sa, ta) = match (self.types.kind(s), self.types.kind(t)) {
            (TypeKind::Reference(a, sa), TypeKind::Reference(b, ta))
            | (TypeKind::LazyAlias(a, sa), TypeKind::LazyAlias(b, ta))
                if a == b && sa.len() == ta.len() =>
            {
                (*a, sa.clone(), ta.clone())
            }
            // Tuples relate element by element (TypeScript's tuple targets share the
            // array's covariance); elsewhere this checker compares them structurally, with
            // array methods whose callbacks the strict rules would make invariant.
            (TypeKind::Tuple(sa), TypeKind::Tuple(ta))
                if self.variance.measuring > 0
                    && sa.len() == ta.len()
                    && self.fixed_elements(sa) == sa.len()
                    && self.fixed_elements(ta) == ta.len() =>
            {
                let (sa, ta) = (sa.clone(), ta.clone());
                let related = sa
                    .iter()
                    .zip(ta.iter())
                    .all(|(&x, &y)| self.is_related(x, y));
                return Some(related);
            }
            _ => return None,
        };
        // What the measurement of `sym` in progress compares relates structurally (other
        // references to a type being measured met there are taken as related, below).
        if self.resolving.contains_key(&Resolution::Variance(sym))
            && (self.is_marker_instantiation(sym, &sa) || self.is_marker_instantiation(sym, &ta))
        {
            return None;
        }
        // Being measured: taken as related, and nothing that leans on it is cached.
        let Some(variances) = self.variances(sym) else {
            return Some(true);
        };
        let mut related = true;
        for (i, (&x, &y)) in sa.iter().zip(ta.iter()).enumerate() {
            let f = variances.get(i).copied().unwrap_or(COVARIANT);
            if f & UNRELIABLE != 0 && self.variance.measuring > 0 {
                self.variance.unreliable = true;
            }
            let ok = match f & VARIANCE_MASK {
                INDEPENDENT => true,
                COVARIANT => self.is_related(x, y),
                CONTRAVARIANT => self.is_related(y, x),
                BIVARIANT => self.is_related(y, x) || self.is_related(x, y),
                _ => self.is_related(x, y) && self.is_related(y, x),
            };
            if !ok {
                related = false;
                break;
            }
        }
        if related {
            return Some(true);
        }
        if variances.iter().any(|f| f & UNRELIABLE != 0) {
            return None;
        }
        let covariant_void = variances
            .iter()
            .zip(ta.iter())
            .any(|(f, &y)| f & VARIANCE_MASK == COVARIANT && y == ids::VOID);
        if covariant_void {
            return None;
        }
        Some(false)
    }

    /// Signature relation while measuring, as TypeScript's `compareSignaturesRelated`
    /// under `strictFunctionTypes`: parameters of a method relate either way, others
    /// contravariantly, and a parameter that is a single callback on both sides relates
    /// its callbacks' signatures the other way round (`callback`: inside such a
    /// comparison, where parameters relate contravariantly).
    pub(super) fn signature_related_measuring(
        &mut self,
        s: &Signature,
        t: &Signature,
        callback: bool,
    ) -> bool {
        if s.min_args > t.params.len() && !t.rest {
            return false;
        }
        // Two instantiations of one generic signature compare as they are, the source's
        // copies of the type parameters renamed to the target's (each instantiation has
        // fresh copies, as `instantiateSignature` gives them); other generic signatures
        // relate, as elsewhere.
        if s.type_params != t.type_params
            && (!s.type_params.is_empty() || !t.type_params.is_empty())
        {
            return match self.renamed_copies(s, t) {
                Some(renamed) => self.signature_related_measuring(&renamed, t, callback),
                None => true,
            };
        }
        let n = s.params.len().max(t.params.len());
        for i in 0..n {
            let (Some(sp), Some(tp)) = (self.param_at(s, i), self.param_at(t, i)) else {
                continue;
            };
            let callbacks = if callback {
                None
            } else {
                self.single_callbacks(sp, tp)
            };
            let related = match callbacks {
                Some((ss, ts)) => self.signature_related_measuring(&ts, &ss, true),
                None if !callback && t.method => self.is_related(tp, sp) || self.is_related(sp, tp),
                None => self.is_related(tp, sp),
            };
            if !related {
                return false;
            }
        }
        if let Some(related) = self.predicate_related(s, t) {
            return related;
        }
        t.ret == ids::VOID || self.is_related(s.ret, t.ret)
    }

    /// Whether each of generic signature `s`'s type parameters is a copy of the one in the
    /// same place in `t` (the same type parameter declaration): `s` and `t` are one
    /// declaration's signature in two instantiations of what declares it.
    pub(super) fn type_param_copies(&self, s: &Signature, t: &Signature) -> bool {
        !s.type_params.is_empty()
            && s.type_params.len() == t.type_params.len()
            && s.type_params.iter().zip(&t.type_params).all(|(&a, &b)| {
                matches!((self.types.kind(a), self.types.kind(b)),
                    (TypeKind::TypeParam(x), TypeKind::TypeParam(y)) if x == y)
            })
    }

    /// `s` with its type parameters renamed to `t`'s, when each of `s`'s is a copy of the
    /// one in the same place in `t` (the same type parameter declaration).
    fn renamed_copies(&mut self, s: &Signature, t: &Signature) -> Option<Signature> {
        if !self.type_param_copies(s, t) {
            return None;
        }
        let m = Mapper::new(&self.types, &s.type_params, &t.type_params);
        let mut renamed = self.instantiate_signature(s, &m);
        renamed.type_params = t.type_params.clone();
        Some(renamed)
    }

    /// The single call signatures of two parameter types that are both callbacks
    /// (nullable alike, without type predicates), as TypeScript's `getSingleCallSignature`.
    fn single_callbacks(
        &mut self,
        sp: TypeId,
        tp: TypeId,
    ) -> Option<(Rc<Signature>, Rc<Signature>)> {
        let (sn, ss) = self.single_call_signature(sp)?;
        let (tn, ts) = self.single_call_signature(tp)?;
        (sn == tn && ss.predicate.is_none() && ts.predicate.is_none()).then_some((ss, ts))
    }

    /// The one call signature of `t` without `null` and `undefined` (an object type with
    /// nothing else), and whether `t` had either.
    fn single_call_signature(&mut self, t: TypeId) -> Option<(bool, Rc<Signature>)> {
        let (nullable, f) = match self.types.kind(t) {
            TypeKind::Union(ms) => {
                let rest: Vec<TypeId> = ms
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::NULL && m != ids::UNDEFINED)
                    .collect();
                match rest[..] {
                    [f] => (rest.len() != ms.len(), f),
                    _ => return None,
                }
            }
            _ => (false, t),
        };
        let TypeKind::Object(o) = self.types.kind(f) else {
            return None;
        };
        let single = o.calls.len() == 1
            && o.constructs.is_empty()
            && o.props.is_empty()
            && o.string_index.is_none()
            && o.number_index.is_none();
        single.then(|| (nullable, o.calls[0].clone()))
    }
}
