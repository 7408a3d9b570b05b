//! Checking type annotations, part of the walk: unknown names (TS2304 and kin), type
//! argument counts (TS2314/TS2707), indexed-access keys, and the constraints of type
//! references. What a type node denotes is type_nodes.rs's.
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{DeclRef as BDecl, SymbolId, flags};
use crate::check::{Checker, MAX_DEPTH};
use crate::diag::Code;
use crate::syntax;
use crate::syntax::{entity_of, fn_param_ann, ts_type_lo};
use crate::types::TypeKind;

impl<'a, 'b> Checker<'a, 'b> {
    /// Reports unknown names and wrong type argument counts in a type annotation.
    pub(super) fn check_type_node(&mut self, file: u32, t: &'a TsType) {
        let entered = self.enter_node(file, ts_type_lo(t));
        self.check_type_node_here(file, t);
        self.leave_node(entered);
    }

    fn check_type_node_here(&mut self, file: u32, t: &'a TsType) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep(file, ts_type_lo(t));
            self.depth -= 1;
            return;
        }
        // Like TypeScript's checkSourceElement on a type node: resolve it (cached, with
        // its links), then look for unknown names and wrong argument counts.
        self.type_from_node(file, t);
        match t {
            TsType::TsTypeRef(r) => {
                let entity = entity_of(&r.type_name);
                self.check_entity(file, &entity, r.type_params.as_deref(), r.span.lo.0);
                if let Some(args) = &r.type_params {
                    for a in &args.params {
                        self.check_type_node(file, a);
                    }
                }
                self.check_reference_constraints(file, &entity, r.type_params.as_deref(), false);
            }
            TsType::TsFnOrConstructorType(f) => {
                let (tp, params, ann) = match f {
                    TsFnOrConstructorType::TsFnType(f) => {
                        (f.type_params.as_deref(), &f.params, &f.type_ann)
                    }
                    TsFnOrConstructorType::TsConstructorType(f) => {
                        (f.type_params.as_deref(), &f.params, &f.type_ann)
                    }
                };
                self.check_type_params(file, tp);
                for p in params {
                    if let Some(a) = fn_param_ann(p) {
                        self.check_type_node(file, &a.type_ann);
                    }
                }
                self.check_type_node(file, &ann.type_ann);
            }
            TsType::TsTypeLit(l) => {
                for m in &l.members {
                    self.check_type_element(file, m);
                }
            }
            TsType::TsArrayType(a) => self.check_type_node(file, &a.elem_type),
            TsType::TsTupleType(tt) => {
                for e in &tt.elem_types {
                    self.check_type_node(file, &e.ty);
                }
            }
            TsType::TsOptionalType(o) => self.check_type_node(file, &o.type_ann),
            TsType::TsRestType(r) => self.check_type_node(file, &r.type_ann),
            TsType::TsUnionOrIntersectionType(u) => {
                let types = match u {
                    TsUnionOrIntersectionType::TsUnionType(u) => &u.types,
                    TsUnionOrIntersectionType::TsIntersectionType(i) => &i.types,
                };
                for t in types {
                    self.check_type_node(file, t);
                }
            }
            TsType::TsConditionalType(c) => {
                self.in_conditional += 1;
                for t in [&c.check_type, &c.extends_type, &c.true_type, &c.false_type] {
                    self.check_type_node(file, t);
                }
                self.in_conditional -= 1;
            }
            TsType::TsParenthesizedType(p) => self.check_type_node(file, &p.type_ann),
            TsType::TsTypeOperator(o) => self.check_type_node(file, &o.type_ann),
            TsType::TsIndexedAccessType(i) => {
                self.check_type_node(file, &i.obj_type);
                self.check_type_node(file, &i.index_type);
                self.check_indexed_key(file, i);
            }
            TsType::TsMappedType(m) => {
                if let Some(c) = &m.type_param.constraint {
                    self.check_type_node(file, c);
                }
                if let Some(t) = &m.type_ann {
                    self.check_type_node(file, t);
                }
            }
            TsType::TsTypeQuery(q) => {
                // `typeof a.b.c`: only the first name must resolve here; the rest are
                // properties of its value's type.
                if let TsTypeQueryExpr::TsEntityName(e) = &q.expr_name {
                    let entity = entity_of(e);
                    if self.resolve_entity(file, &entity[..1]).is_none()
                        && entity[0].1.as_str() != "globalThis"
                    {
                        let (pos, name) = entity[0].clone();
                        self.report(
                            file,
                            pos,
                            Code::CannotFindName,
                            format!("Cannot find name '{name}'."),
                        );
                    }
                }
            }
            _ => {}
        }
        self.depth -= 1;
    }

    /// `T["name"]` names a property `T` has.
    pub(super) fn check_indexed_key(&mut self, file: u32, i: &'a TsIndexedAccessType) {
        let TsType::TsLitType(TsLitType {
            lit: TsLit::Str(key),
            ..
        }) = &*i.index_type
        else {
            return;
        };
        let o = self.type_from_node(file, &i.obj_type);
        let is_object = |k: &TypeKind| {
            matches!(
                k,
                TypeKind::Declared(_) | TypeKind::Object(_) | TypeKind::Reference(..)
            )
        };
        // An intersection of object types has a key when any of its members has it.
        let checkable = match self.types.kind(o) {
            TypeKind::Intersection(ms) => ms.iter().all(|&m| is_object(self.types.kind(m))),
            k => is_object(k),
        };
        if self.types.is_generic(o) || !checkable {
            return;
        }
        let name = syntax::str_atom(key);
        if self.property_type(o, &name).is_none() {
            let shown = self.type_to_string(o);
            self.report(
                file,
                key.span.lo.0,
                Code::NoProperty,
                format!("Property '{name}' does not exist on type '{shown}'."),
            );
        }
    }

    pub(super) fn check_entity(
        &mut self,
        file: u32,
        entity: &[(u32, Atom)],
        args: Option<&'a TsTypeParamInstantiation>,
        pos: u32,
    ) {
        let Some(s) = self.resolve_entity(file, entity) else {
            self.report_unresolved_entity(file, entity);
            return;
        };
        let s = self.resolve_alias(s);
        let sym = self.bound.symbol(s);
        if sym.flags & (flags::CLASS | flags::INTERFACE | flags::TYPE_ALIAS) == 0 {
            return;
        }
        let required = self.required_type_args(s);
        let params = self.type_params_of(s).len();
        let given = args.map_or(0, |a| a.params.len());
        if given > params || given < required {
            let name = self.type_display_name(s);
            let code = Code::TypeArgumentCount;
            let count = if required == params {
                format!("{params}")
            } else {
                format!("between {required} and {params}")
            };
            self.report(
                file,
                pos,
                code,
                format!("Generic type '{name}' requires {count} type argument(s)."),
            );
        }
    }

    /// Says which part of a qualified type name (`A.B.C`) does not resolve, as TypeScript
    /// does: an unknown first name of a qualified name is a namespace it cannot find
    /// (TS2503), a later one a member its namespace does not export (TS2694). Nothing is
    /// said past an import from a module outside the corpus: that module was reported
    /// once and everything reached through it is `any`.
    pub(super) fn report_unresolved_entity(&mut self, file: u32, entity: &[(u32, Atom)]) {
        let (pos, name) = &entity[0];
        let Some(mut s) = self.bound.resolve(file, *pos, name) else {
            let (code, msg) = if entity.len() == 1 {
                (Code::CannotFindName, format!("Cannot find name '{name}'."))
            } else {
                let msg = format!("Cannot find namespace '{name}'.");
                (Code::CannotFindNamespace, msg)
            };
            self.report(file, *pos, code, msg);
            return;
        };
        for (i, (pos, part)) in entity.iter().enumerate().skip(1) {
            s = self.resolve_alias(s);
            if self.is_unresolved_import(s) {
                return;
            }
            match self.export_of_symbol(s, part) {
                Some(next) => s = next,
                None => {
                    let prefix: Vec<&str> = entity[..i].iter().map(|(_, n)| n.as_str()).collect();
                    let msg = format!(
                        "Namespace '{}' has no exported member '{part}'.",
                        prefix.join(".")
                    );
                    self.report(file, *pos, Code::NoExportedMemberOfNamespace, msg);
                    return;
                }
            }
        }
    }

    /// Whether `s` is an import from a module outside the corpus.
    pub(super) fn is_unresolved_import(&self, s: SymbolId) -> bool {
        self.bound
            .symbol(s)
            .decls
            .iter()
            .any(|(_, d)| matches!(d, BDecl::Import { module: None, .. }))
    }

    pub(super) fn type_display_name(&mut self, s: SymbolId) -> String {
        let params = self.type_params_of(s);
        let name = self.bound.symbol(s).name.to_string();
        if params.is_empty() {
            return name;
        }
        let names: Vec<String> = params.iter().map(|&p| self.type_to_string(p)).collect();
        format!("{name}<{}>", names.join(", "))
    }

    pub(super) fn required_type_args(&mut self, s: SymbolId) -> usize {
        let mut required = 0;
        for (_, d) in &self.bound.symbol(s).decls {
            let tp = match d {
                BDecl::Class(c) => c.type_params.as_deref(),
                BDecl::Interface(i) => i.type_params.as_deref(),
                BDecl::Alias(a) => a.type_params.as_deref(),
                _ => None,
            };
            if let Some(tp) = tp {
                return tp.params.iter().filter(|p| p.default.is_none()).count();
            }
            required = 0;
        }
        required
    }
}
