//! Type predicates (`x is T`): the predicate a return annotation declares, the one
//! TypeScript 5.5 infers from a `boolean` body, the predicate of a function a guard call
//! names, and predicates related and inferred from between signatures.
use rustc_hash::FxHashMap;
use swc_ecma_ast::*;

use crate::bind::SymbolId;
use crate::check::Checker;
use crate::check::flow::narrow::{Reference, skip_outer_expressions};
use crate::types::{Mapper, Param, Signature, TypeId, TypeKind, ids};

impl<'a> Checker<'a, '_> {
    /// The type predicate of a return type annotation (`x is T` on the parameter named
    /// `x`); `asserts x is T` and `this is T` give none.
    pub(in crate::check) fn type_predicate(
        &mut self,
        file: u32,
        ret: Option<&'a TsType>,
        params: &[Param],
    ) -> Option<(usize, TypeId)> {
        let (param, guard) = predicate_of(ret?)?;
        let i = params.iter().position(|q| q.name == param.sym)?;
        Some((i, self.type_from_node(file, guard)))
    }

    /// The parameter index and guarded type of a function whose return type is a type
    /// predicate on one of its parameters (`x is T`, not `asserts`), with the file that
    /// declares it.
    pub(in crate::check) fn type_predicate_of(
        &self,
        s: SymbolId,
    ) -> Option<(u32, usize, &'a TsType)> {
        let sym = self.bound.symbol(s);
        for (decl_file, d) in &sym.decls {
            let (params, ret): (Vec<&'a Pat>, Option<&'a TsTypeAnn>) = match d {
                crate::bind::DeclRef::Function(f) => (
                    f.params.iter().map(|p| &p.pat).collect(),
                    f.return_type.as_deref(),
                ),
                crate::bind::DeclRef::Member(crate::bind::MemberDecl::ClassMethod(m)) => (
                    m.function.params.iter().map(|p| &p.pat).collect(),
                    m.function.return_type.as_deref(),
                ),
                crate::bind::DeclRef::Member(crate::bind::MemberDecl::MethodSignature(m)) => {
                    let Some(ret) = m.type_ann.as_deref() else {
                        continue;
                    };
                    let Some(found) = predicate_of(&ret.type_ann) else {
                        continue;
                    };
                    let (param, guard) = found;
                    let index = m
                        .params
                        .iter()
                        .position(|q| matches!(q, TsFnParam::Ident(b) if b.id.sym == param.sym))?;
                    return Some((*decl_file, index, guard));
                }
                crate::bind::DeclRef::Binding {
                    init: Some(init), ..
                } => match skip_outer_expressions(init) {
                    Expr::Arrow(a) => (a.params.iter().collect(), a.return_type.as_deref()),
                    Expr::Fn(f) => (
                        f.function.params.iter().map(|p| &p.pat).collect(),
                        f.function.return_type.as_deref(),
                    ),
                    _ => continue,
                },
                _ => continue,
            };
            let Some((param, guard)) = ret.and_then(|r| predicate_of(&r.type_ann)) else {
                continue;
            };
            let index = params
                .iter()
                .position(|q| matches!(q, Pat::Ident(b) if b.id.sym == param.sym))?;
            return Some((*decl_file, index, guard));
        }
        None
    }

    /// TypeScript 5.5's inferred type predicate of a function with one parameter `x`, no
    /// declared return type and a `boolean` body that is one expression (an arrow's, or a
    /// lone `return`): `x is T`, where `T` is `x`'s type narrowed where the expression is
    /// true, when that differs from its declared type and narrowing `T` where the
    /// expression is false leaves `never` (so `x => x !== undefined` is
    /// `x is Defined` and `xs.filter` keeps the defined elements).
    pub(in crate::check) fn inferred_type_predicate(
        &mut self,
        file: u32,
        params: &[&Pat],
        declared: TypeId,
        ret: TypeId,
        body: Option<&Expr>,
    ) -> Option<(usize, TypeId)> {
        let (&[Pat::Ident(b)], Some(body)) = (params, body) else {
            return None;
        };
        if !matches!(
            self.types.kind(ret),
            TypeKind::Boolean | TypeKind::BoolLit(_)
        ) || matches!(self.types.kind(declared), TypeKind::Any)
        {
            return None;
        }
        let sym = *self.bound.files[file as usize]
            .node_symbols
            .get(&b.id.span.lo.0)?;
        let r = Reference::symbol(sym);
        let true_type = self.narrow(file, r, declared, body, true, 0);
        if true_type == declared {
            return None;
        }
        let false_type = self.narrow(file, r, true_type, body, false, 0);
        if false_type == ids::NEVER {
            return Some((0, true_type));
        }
        // Discriminants narrow unions only, so `T` itself may not narrow to `never`
        // (TypeScript narrows it as a reference whose declared type is the union): then
        // the branches must split the declared union's members between them.
        let TypeKind::Union(all) = self.types.kind(declared).clone() else {
            return None;
        };
        let false_type = self.narrow(file, r, declared, body, false, 0);
        let members = |t: TypeId, m: &Self| -> Vec<TypeId> {
            match m.types.kind(t) {
                TypeKind::Union(ms) => ms.to_vec(),
                _ if t == ids::NEVER => Vec::new(),
                _ => vec![t],
            }
        };
        let (ts, fs) = (members(true_type, self), members(false_type, self));
        let partition = ts.len() + fs.len() == all.len()
            && all.iter().all(|m| ts.contains(m) != fs.contains(m));
        partition.then_some((0, true_type))
    }

    /// The inferred type predicate (see [`Checker::inferred_type_predicate`]) of a function
    /// declared without a return type, or of a variable initialized by such an arrow or
    /// function expression: from its signature.
    pub(in crate::check) fn inferred_predicate_of(
        &mut self,
        s: SymbolId,
    ) -> Option<(usize, TypeId)> {
        let sym = self.bound.symbol(s);
        let candidate = sym.decls.iter().any(|(_, d)| match d {
            crate::bind::DeclRef::Function(f) => f.return_type.is_none() && f.params.len() == 1,
            crate::bind::DeclRef::Binding {
                init: Some(init), ..
            } => match skip_outer_expressions(init) {
                Expr::Arrow(a) => a.return_type.is_none() && a.params.len() == 1,
                Expr::Fn(f) => f.function.return_type.is_none() && f.function.params.len() == 1,
                _ => false,
            },
            _ => false,
        });
        if !candidate {
            return None;
        }
        let t = self.type_of_symbol(s);
        let m = self.members(t);
        match &m.calls[..] {
            [sig] => sig.predicate,
            _ => None,
        }
    }

    /// How a source signature's type predicate relates to the target's, where the target
    /// has one (TypeScript's compareSignaturesRelated): a signature without a predicate
    /// is not assignable to one with, so `xs.filter(x => cond)` does not match the
    /// `value is S` overload. `None` where the target has no predicate (the return types
    /// decide).
    pub(super) fn predicate_related(&mut self, s: &Signature, t: &Signature) -> Option<bool> {
        let (ti, tt) = t.predicate?;
        Some(match s.predicate {
            Some((si, st)) if si == ti => self.is_related(st, tt),
            _ => false,
        })
    }

    /// Inference from a source predicate to a target predicate (`(x): x is Foo => ...`
    /// against `value is S` infers `S` := `Foo`). A generic source (`isDefined<T>(x: T):
    /// x is NonNullable<T>`) is first instantiated in the context of the target's
    /// parameters, as TypeScript instantiates a generic argument in its contextual
    /// signature.
    pub(super) fn infer_from_predicate(
        &mut self,
        ps: &Signature,
        as_: &Signature,
        tps: &[TypeId],
        out: &mut FxHashMap<TypeId, Vec<TypeId>>,
        depth: u32,
    ) {
        let (Some((pi, pt)), Some((ai, at))) = (ps.predicate, as_.predicate) else {
            return;
        };
        if pi != ai {
            return;
        }
        let at = if as_.type_params.is_empty() {
            at
        } else {
            let own = as_.type_params.clone();
            let mut cands: FxHashMap<TypeId, Vec<TypeId>> = Default::default();
            for (x, y) in as_.params.iter().zip(ps.params.iter()) {
                if !self.types.is_generic(y.ty) {
                    self.infer_from(x.ty, y.ty, &own, &mut cands, depth + 1);
                }
            }
            let args: Vec<TypeId> = own
                .iter()
                .map(|tp| match cands.get(tp) {
                    Some(c) if !c.is_empty() => self.types.union(c),
                    _ => ids::UNKNOWN,
                })
                .collect();
            if args.contains(&ids::UNKNOWN) {
                return;
            }
            let m = Mapper::new(&self.types, &own, &args);
            self.instantiate(at, &m)
        };
        self.infer_from(pt, at, tps, out, depth + 1);
    }
}

/// The parameter and type of a return annotation `x is T` (not `asserts`, not `this is`):
/// the one reader of a written predicate.
fn predicate_of(ret: &TsType) -> Option<(&Ident, &TsType)> {
    let TsType::TsTypePredicate(p) = ret else {
        return None;
    };
    match (&p.param_name, &p.type_ann, p.asserts) {
        (TsThisTypeOrIdent::Ident(param), Some(guard), false) => Some((param, &guard.type_ann)),
        _ => None,
    }
}
