//! Symbols in value positions: the type of a variable, function, class, enum, parameter,
//! property or accessor, and expando members.
use std::rc::Rc;

use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::bind::{self, DeclRef as BDecl, Imported, MemberDecl, PatSource, SymbolId, flags};
use crate::check::types::limits::Decided;
use crate::check::{Checker, Resolution, node_key};
use crate::syntax::{fn_param_ann, is_null_or_undefined};
use crate::types::{PropSymbol, Signature, SymbolType, TypeId, TypeKind, ids};

impl<'a, 'b> Checker<'a, 'b> {
    /// The type of a symbol in a value position.
    pub(in crate::check) fn type_of_symbol(&mut self, s: SymbolId) -> TypeId {
        if let Some(t) = self.known_value_type(s) {
            return t;
        }
        // Met again while it is being computed: `any`, and what leans on that is not
        // cached for good (it would depend on where the cycle was entered).
        let Some(token) = self.begin_resolution(Resolution::Value(s)) else {
            return ids::ANY;
        };
        let base = self.limits_base();
        let mut scope = self.cache_scope();
        let restarted = scope.restart_limits();
        let t = scope.compute_value_type(s);
        scope.settle_declaration(restarted);
        let limits = scope.limits_met(base);
        drop(scope);
        if self.end_resolution(token, t) {
            if self.links(s).value_type.is_none() {
                self.keep_limits_met(Decided::Value(s), limits);
            }
            *self.links(s).value_type.get_or_insert(t)
        } else {
            t
        }
    }

    pub(super) fn compute_value_type(&mut self, s: SymbolId) -> TypeId {
        let sym = self.bound.symbol(s);
        let f = sym.flags;
        if f & flags::ALIAS != 0 {
            let target = self.resolve_alias(s);
            let t = if target == s {
                match self.bound.symbol(s).decls.first() {
                    Some((
                        _,
                        BDecl::Import {
                            module: Some(m),
                            imported: Imported::Namespace,
                            ..
                        },
                    )) => {
                        let m = *m;
                        self.types
                            .of_symbol(SymbolType::Module, SymbolId { file: m, index: 0 })
                    }
                    _ => ids::ANY,
                }
            } else {
                self.type_of_symbol(target)
            };
            return t;
        }
        self.suppress += 1;
        // Lazy inference sees the `this` of the symbol's own class, never the caller's: a
        // member's class, or for a local, the class of the method it is declared in.
        let local_owner = match self.bound.symbol(s).decls.first() {
            Some((file, BDecl::Binding { ident, .. })) => self.bound.files[*file as usize]
                .binding_this
                .get(&ident.id.span.lo.0)
                .copied(),
            _ => None,
        };
        let this = match (self.bound.symbol(s).parent, local_owner) {
            (Some(p), _) if f & flags::STATIC != 0 => {
                self.types.of_symbol(SymbolType::ClassStatic, p)
            }
            (Some(p), _) | (None, Some(p)) => self.this_expr_type(p),
            (None, None) => ids::ANY,
        };
        self.this_types.push(this);
        let t = self.compute_symbol_type(s, f);
        let t = self.with_expando_members(s, t);
        self.this_types.pop();
        self.suppress -= 1;
        t
    }

    /// A function's type with its expando properties (`f.displayName = "F"` in its file,
    /// see the binder) as members beside its signatures, as TypeScript resolves a function
    /// symbol's exports into its type. Each property is typed lazily by its assignment.
    pub(super) fn with_expando_members(&mut self, s: SymbolId, t: TypeId) -> TypeId {
        let expandos: Vec<(Atom, SymbolId)> =
            {
                let sym = self.bound.symbol(s);
                let mut v: Vec<(Atom, SymbolId)> =
                    sym.exports
                        .iter()
                        .filter(|(_, e)| {
                            self.bound.symbol(**e).decls.iter().any(|(_, d)| {
                                matches!(d, BDecl::Syntax(bind::SyntaxDecl::Expando(_)))
                            })
                        })
                        .map(|(k, v)| (k.clone(), *v))
                        .collect();
                v.sort_by_key(|(_, id)| *id);
                v
            };
        if expandos.is_empty() {
            return t;
        }
        let mut obj = (*self.members(t)).clone();
        for (name, e) in expandos {
            if obj.props.contains_key(&name) {
                continue;
            }
            let mut prop = PropSymbol::empty(name.clone());
            prop.declaration = Some(e);
            obj.insert_symbol(name, Rc::new(prop));
        }
        let origin = self.types.stable(t) ^ 0x0065_7870_616e_646f; // "expando"
        self.types.object(obj, origin)
    }

    pub(super) fn compute_symbol_type(&mut self, s: SymbolId, f: u32) -> TypeId {
        if f & flags::CLASS != 0 {
            return self.types.of_symbol(SymbolType::ClassStatic, s);
        }
        if f & flags::ENUM != 0 || (f & flags::NAMESPACE != 0 && f & flags::FUNCTION == 0) {
            return self.types.of_symbol(SymbolType::Namespace, s);
        }
        if f & flags::ENUM_MEMBER != 0 {
            return self.types.of_symbol(SymbolType::EnumLiteral, s);
        }
        let decls = self.bound.symbol(s).decls.clone();
        if f & flags::FUNCTION != 0 {
            let fns: Vec<(u32, &'a Function)> = decls
                .iter()
                .filter_map(|(file, d)| {
                    if let BDecl::Function(func) = d {
                        Some((*file, *func))
                    } else {
                        None
                    }
                })
                .collect();
            let overloads: Vec<(u32, &'a Function)> = if fns.len() > 1 {
                fns.iter()
                    .copied()
                    .filter(|(_, f)| f.body.is_none())
                    .collect()
            } else {
                fns.clone()
            };
            let sigs: Vec<Signature> = overloads
                .iter()
                .map(|&(file, func)| self.signature_of_function(file, func))
                .collect();
            let origin = fns
                .first()
                .map_or(0, |(file, func)| node_key(*file, func.span.lo.0));
            return self.function_type(sigs, origin);
        }
        // `declare var Math: Math` merges with `interface Math`: the binding gives the value.
        let value_decl = decls
            .iter()
            .find(|(_, d)| matches!(d, BDecl::Binding { .. }))
            .or(decls.first());
        match value_decl {
            Some((
                file,
                BDecl::Binding {
                    ident,
                    init,
                    in_pattern,
                    is_const,
                    from,
                },
            )) => {
                let file = *file;
                if let Some(a) = &ident.type_ann {
                    let t = self.type_from_node(file, &a.type_ann);
                    return if ident.id.optional {
                        self.types.union(&[t, ids::UNDEFINED])
                    } else {
                        t
                    };
                }
                if *in_pattern {
                    return self.pattern_binding_type(file, from.as_ref());
                }
                match init {
                    // `let x = null` and `let x = undefined` are auto-typed in TypeScript
                    // (their type evolves with later assignments): `any` here, as a
                    // `let x;` without initializer is.
                    Some(e) if !*is_const && is_null_or_undefined(e) => ids::ANY,
                    Some(e) => {
                        let t = self.check_expr(file, e, None);
                        let t = self.normalize_literal_union(t);
                        let t = self.regular_type(t);
                        if *is_const {
                            t
                        } else {
                            self.widen_unless_const_assertion(e, t)
                        }
                    }
                    None => ids::ANY,
                }
            }
            Some((file, BDecl::Member(m))) => {
                let file = *file;
                let t = self.member_type(file, *m, &decls);
                if f & flags::METHOD != 0 {
                    return self.register_method_type(s, t);
                }
                t
            }
            Some((file, BDecl::DefaultExpr(e))) => {
                let file = *file;
                let t = self.check_expr(file, e, None);
                self.regular_type(t)
            }
            Some((file, BDecl::Syntax(bind::SyntaxDecl::Expando(a)))) => {
                let file = *file;
                let t = self.check_expr(file, &a.right, None);
                self.types.widen(t)
            }
            Some((file, BDecl::Class(c))) if f & flags::DEFAULT_EXPORT != 0 => {
                let _ = (file, c);
                self.types.of_symbol(SymbolType::ClassStatic, s)
            }
            _ => ids::ANY,
        }
    }

    /// The type of a binding read from a property of an annotated object pattern
    /// (`{ origin }: Props`); `any` where the pattern has no annotation.
    pub(super) fn pattern_binding_type(
        &mut self,
        file: u32,
        from: Option<&PatSource<'a>>,
    ) -> TypeId {
        let Some(source) = from else {
            return ids::ANY;
        };
        let Some(ann) = &source.pattern.type_ann else {
            return ids::ANY;
        };
        let whole = self.type_from_node(file, &ann.type_ann);
        let Some(t) = self.property_type(whole, &source.key) else {
            return ids::ANY;
        };
        match self.types.kind(t) {
            TypeKind::Union(members) if source.has_default => {
                let kept: Vec<TypeId> = members
                    .iter()
                    .copied()
                    .filter(|&m| m != ids::UNDEFINED)
                    .collect();
                self.types.union(&kept)
            }
            _ => t,
        }
    }

    pub(super) fn member_type(
        &mut self,
        file: u32,
        m: MemberDecl<'a>,
        decls: &[(u32, BDecl<'a>)],
    ) -> TypeId {
        match m {
            MemberDecl::PropertySignature(p) => {
                let t = p
                    .type_ann
                    .as_ref()
                    .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann));
                if p.optional {
                    self.types.union(&[t, ids::UNDEFINED])
                } else {
                    t
                }
            }
            MemberDecl::Getter(g) => g
                .type_ann
                .as_ref()
                .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
            MemberDecl::Setter(s) => {
                fn_param_ann(&s.param).map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann))
            }
            MemberDecl::ParamProp(b) => b
                .type_ann
                .as_ref()
                .map_or(ids::ANY, |a| self.type_from_node(file, &a.type_ann)),
            MemberDecl::ClassProp(p) => match (&p.type_ann, &p.value) {
                (Some(a), _) => self.type_from_node(file, &a.type_ann),
                (None, Some(v)) => {
                    let t = self.check_expr(file, v, None);
                    let t = self.normalize_literal_union(t);
                    let t = self.regular_type(t);
                    self.widen_unless_const_assertion(v, t)
                }
                _ => ids::ANY,
            },
            MemberDecl::MethodSignature(_) | MemberDecl::ClassMethod(_) => {
                if let Some(t) = self.accessor_type(decls) {
                    return t;
                }
                let mut sigs = Vec::new();
                let mut origin = 0;
                for (file, d) in decls {
                    match d {
                        BDecl::Member(MemberDecl::MethodSignature(p)) => {
                            let sig = self.signature_from_parts(
                                *file,
                                p.type_params.as_deref(),
                                &p.params,
                                p.type_ann.as_deref().map(|a| &*a.type_ann),
                                false,
                            );
                            origin = node_key(*file, p.span.lo.0);
                            sigs.push(sig);
                        }
                        BDecl::Member(MemberDecl::ClassMethod(cm))
                            if cm.function.body.is_none() || decls.len() == 1 =>
                        {
                            origin = node_key(*file, cm.span.lo.0);
                            sigs.push(self.signature_of_function(*file, &cm.function));
                        }
                        _ => {}
                    }
                }
                if sigs.is_empty() {
                    return ids::ANY;
                }
                sigs.iter_mut().for_each(|s| s.method = true);
                self.function_type(sigs, origin)
            }
        }
    }

    /// The property type of a class accessor pair: the getter's return type, else the
    /// setter's parameter type; `None` when the declarations are not accessors.
    pub(super) fn accessor_type(&mut self, decls: &[(u32, BDecl<'a>)]) -> Option<TypeId> {
        let accessor = |d: &BDecl<'a>, kind: MethodKind| match d {
            BDecl::Member(MemberDecl::ClassMethod(cm)) if cm.kind == kind => Some(*cm),
            _ => None,
        };
        if let Some((file, g)) = decls
            .iter()
            .find_map(|(f, d)| accessor(d, MethodKind::Getter).map(|g| (*f, g)))
        {
            return Some(self.signature_of_function(file, &g.function).ret);
        }
        let (file, st) = decls
            .iter()
            .find_map(|(f, d)| accessor(d, MethodKind::Setter).map(|g| (*f, g)))?;
        let sig = self.signature_of_function(file, &st.function);
        Some(sig.params.first().map_or(ids::ANY, |p| p.ty))
    }
}
