//! Free helpers over syntax that the binder and the checker share: the static names of
//! keys and properties, string atoms, number formatting, entity names, parameter
//! annotations, whether a declaration is `this`-less, and node positions.
use swc_atoms::Atom;
use swc_ecma_ast::*;

// ---- Names of keys and properties, string atoms, numbers as JavaScript prints them ----

/// The text of a string literal as an atom (lossy for lone surrogates).
pub(crate) fn str_atom(s: &Str) -> Atom {
    match s.value.as_atom() {
        Some(a) => a.clone(),
        None => Atom::from(s.value.to_string_lossy().as_ref()),
    }
}

/// The name an import or export specifier writes (an identifier or a string).
pub(crate) fn export_name(n: &ModuleExportName) -> Atom {
    match n {
        ModuleExportName::Ident(i) => i.sym.clone(),
        ModuleExportName::Str(s) => str_atom(s),
    }
}

/// The static name of an interface member key.
pub(crate) fn key_name(key: &Expr) -> Option<Atom> {
    match key {
        Expr::Ident(i) => Some(i.sym.clone()),
        Expr::Lit(Lit::Str(s)) => Some(str_atom(s)),
        Expr::Lit(Lit::Num(n)) => Some(Atom::from(format_number(n.value))),
        Expr::Member(m) => well_known_symbol(m),
        _ => None,
    }
}

/// The static name of a class or object member key.
pub(crate) fn prop_name(key: &PropName) -> Option<Atom> {
    match key {
        PropName::Ident(i) => Some(i.sym.clone()),
        PropName::Str(s) => Some(str_atom(s)),
        PropName::Num(n) => Some(Atom::from(format_number(n.value))),
        PropName::Computed(c) => match &*c.expr {
            Expr::Member(m) => well_known_symbol(m),
            _ => None,
        },
        PropName::BigInt(_) => None,
    }
}

/// `[Symbol.iterator]` and the other well-known symbol keys, named as TypeScript names
/// them internally (`__@iterator`), so iterables have their iterator method.
fn well_known_symbol(m: &MemberExpr) -> Option<Atom> {
    match (&*m.obj, &m.prop) {
        (Expr::Ident(o), MemberProp::Ident(p)) if &*o.sym == "Symbol" => {
            Some(Atom::from(format!("{WELL_KNOWN_PREFIX}{}", p.sym)))
        }
        _ => None,
    }
}

/// The prefix of a well-known symbol key's name (`__@iterator` is `[Symbol.iterator]`).
pub(crate) const WELL_KNOWN_PREFIX: &str = "__@";

/// A number as JavaScript prints it (for the common integral case).
pub(crate) fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

// ---- References and entity names ----

/// Whether `m` is a reference flow analysis can narrow: named properties (`x.a.b`,
/// `this.a`; no computed keys or optional chains) on an identifier or `this`.
pub(crate) fn is_property_reference(m: &MemberExpr) -> bool {
    if !matches!(m.prop, MemberProp::Ident(_)) {
        return false;
    }
    match &*m.obj {
        Expr::Ident(_) | Expr::This(_) => true,
        Expr::Member(inner) => is_property_reference(inner),
        _ => false,
    }
}

/// `A.B.C` as a list of (position, name), for heritage clauses and `typeof`.
pub(crate) fn expr_entity(e: &Expr) -> Option<Vec<(u32, Atom)>> {
    match e {
        Expr::Ident(i) => Some(vec![(i.span.lo.0, i.sym.clone())]),
        Expr::Member(m) => {
            let mut v = expr_entity(&m.obj)?;
            match &m.prop {
                MemberProp::Ident(n) => v.push((n.span.lo.0, n.sym.clone())),
                _ => return None,
            }
            Some(v)
        }
        Expr::Paren(p) => expr_entity(&p.expr),
        _ => None,
    }
}

pub(crate) fn entity_of(e: &TsEntityName) -> Vec<(u32, Atom)> {
    match e {
        TsEntityName::Ident(i) => vec![(i.span.lo.0, i.sym.clone())],
        TsEntityName::TsQualifiedName(q) => {
            let mut v = entity_of(&q.left);
            v.push((q.right.span.lo.0, q.right.sym.clone()));
            v
        }
    }
}

/// `null`, `undefined` or `void 0`, parentheses aside.
pub(crate) fn is_null_or_undefined(e: &Expr) -> bool {
    match e {
        Expr::Paren(p) => is_null_or_undefined(&p.expr),
        Expr::Lit(Lit::Null(_)) => true,
        Expr::Ident(i) => i.sym.as_str() == "undefined",
        Expr::Unary(u) => u.op == UnaryOp::Void && matches!(&*u.arg, Expr::Lit(_)),
        _ => false,
    }
}

// ---- Type nodes and parameter annotations ----

/// The `infer X` declarations of a conditional type's extends clause `t`, in source order:
/// at any depth of it (template literal types, object members, mapped and indexed types
/// included) but not inside a nested conditional type, which declares its own. The binder
/// declares these and the checker collects a conditional type's parameters from them.
pub(crate) fn infer_declarations(t: &TsType) -> Vec<&TsTypeParam> {
    let mut found = Vec::new();
    walk_ts_type(t, &mut |x| match x {
        TsType::TsInferType(i) => {
            found.push(&i.type_param);
            true
        }
        TsType::TsConditionalType(_) => false,
        _ => true,
    });
    found
}

/// Calls `f` on `t` and every type node inside it, depth first; `f` returns whether to
/// descend into the node's children.
pub(crate) fn walk_ts_type<'t>(t: &'t TsType, f: &mut dyn FnMut(&'t TsType) -> bool) {
    if !f(t) {
        return;
    }
    fn params<'t>(ps: &'t [TsFnParam], f: &mut dyn FnMut(&'t TsType) -> bool) {
        for p in ps {
            if let Some(a) = fn_param_ann(p) {
                walk_ts_type(&a.type_ann, f);
            }
        }
    }
    fn ann<'t>(a: Option<&'t TsTypeAnn>, f: &mut dyn FnMut(&'t TsType) -> bool) {
        if let Some(a) = a {
            walk_ts_type(&a.type_ann, f);
        }
    }
    fn type_params<'t>(tp: Option<&'t TsTypeParamDecl>, f: &mut dyn FnMut(&'t TsType) -> bool) {
        for p in tp.iter().flat_map(|tp| &tp.params) {
            if let Some(c) = &p.constraint {
                walk_ts_type(c, f);
            }
            if let Some(d) = &p.default {
                walk_ts_type(d, f);
            }
        }
    }
    fn args<'t>(a: Option<&'t TsTypeParamInstantiation>, f: &mut dyn FnMut(&'t TsType) -> bool) {
        for t in a.iter().flat_map(|a| &a.params) {
            walk_ts_type(t, f);
        }
    }
    match t {
        TsType::TsTypeRef(r) => args(r.type_params.as_deref(), f),
        TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(x)) => {
            type_params(x.type_params.as_deref(), f);
            params(&x.params, f);
            walk_ts_type(&x.type_ann.type_ann, f);
        }
        TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsConstructorType(x)) => {
            type_params(x.type_params.as_deref(), f);
            params(&x.params, f);
            walk_ts_type(&x.type_ann.type_ann, f);
        }
        TsType::TsTypeLit(l) => {
            for m in &l.members {
                match m {
                    TsTypeElement::TsPropertySignature(p) => ann(p.type_ann.as_deref(), f),
                    TsTypeElement::TsMethodSignature(m) => {
                        type_params(m.type_params.as_deref(), f);
                        params(&m.params, f);
                        ann(m.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsCallSignatureDecl(c) => {
                        type_params(c.type_params.as_deref(), f);
                        params(&c.params, f);
                        ann(c.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsConstructSignatureDecl(c) => {
                        type_params(c.type_params.as_deref(), f);
                        params(&c.params, f);
                        ann(c.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsIndexSignature(i) => {
                        params(&i.params, f);
                        ann(i.type_ann.as_deref(), f);
                    }
                    TsTypeElement::TsGetterSignature(g) => ann(g.type_ann.as_deref(), f),
                    TsTypeElement::TsSetterSignature(s) => {
                        params(std::slice::from_ref(&s.param), f)
                    }
                }
            }
        }
        TsType::TsArrayType(a) => walk_ts_type(&a.elem_type, f),
        TsType::TsTupleType(tt) => {
            for e in &tt.elem_types {
                walk_ts_type(&e.ty, f);
            }
        }
        TsType::TsOptionalType(o) => walk_ts_type(&o.type_ann, f),
        TsType::TsRestType(r) => walk_ts_type(&r.type_ann, f),
        TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsUnionType(u)) => {
            for t in &u.types {
                walk_ts_type(t, f);
            }
        }
        TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsIntersectionType(i)) => {
            for t in &i.types {
                walk_ts_type(t, f);
            }
        }
        TsType::TsConditionalType(c) => {
            for t in [&c.check_type, &c.extends_type, &c.true_type, &c.false_type] {
                walk_ts_type(t, f);
            }
        }
        TsType::TsInferType(i) => {
            if let Some(c) = &i.type_param.constraint {
                walk_ts_type(c, f);
            }
        }
        TsType::TsParenthesizedType(p) => walk_ts_type(&p.type_ann, f),
        TsType::TsTypeOperator(o) => walk_ts_type(&o.type_ann, f),
        TsType::TsIndexedAccessType(i) => {
            walk_ts_type(&i.obj_type, f);
            walk_ts_type(&i.index_type, f);
        }
        TsType::TsMappedType(m) => {
            for t in [&m.type_param.constraint, &m.name_type, &m.type_ann]
                .into_iter()
                .flatten()
            {
                walk_ts_type(t, f);
            }
        }
        TsType::TsTypePredicate(p) => ann(p.type_ann.as_deref(), f),
        TsType::TsTypeQuery(q) => args(q.type_args.as_deref(), f),
        TsType::TsImportType(i) => args(i.type_args.as_deref(), f),
        TsType::TsLitType(TsLitType {
            lit: TsLit::Tpl(tpl),
            ..
        }) => {
            for t in &tpl.types {
                walk_ts_type(t, f);
            }
        }
        TsType::TsKeywordType(_) | TsType::TsThisType(_) | TsType::TsLitType(_) => {}
    }
}

/// A signature parameter's annotation, when it has one.
pub(crate) fn fn_param_ann(p: &TsFnParam) -> Option<&TsTypeAnn> {
    match p {
        TsFnParam::Ident(b) => b.type_ann.as_deref(),
        TsFnParam::Array(a) => a.type_ann.as_deref(),
        TsFnParam::Rest(r) => r.type_ann.as_deref(),
        TsFnParam::Object(o) => o.type_ann.as_deref(),
    }
}

/// A function parameter's annotation, when it has one.
pub(crate) fn pat_ann(p: &Pat) -> Option<&TsTypeAnn> {
    match p {
        Pat::Ident(b) => b.type_ann.as_deref(),
        Pat::Array(a) => a.type_ann.as_deref(),
        Pat::Rest(r) => r.type_ann.as_deref(),
        Pat::Object(o) => o.type_ann.as_deref(),
        Pat::Assign(a) => pat_ann(&a.left),
        _ => None,
    }
}

// ---- `this`-less declarations (TypeScript's `isThisless*`) ----

/// TypeScript's `isThislessType`: keywords, literals, arrays of and references with
/// such types; anything else might mention `this`.
pub(crate) fn thisless_type(t: &TsType) -> bool {
    match t {
        TsType::TsKeywordType(k) => k.kind != TsKeywordTypeKind::TsIntrinsicKeyword,
        TsType::TsLitType(_) => true,
        TsType::TsArrayType(a) => thisless_type(&a.elem_type),
        TsType::TsTypeRef(r) => r
            .type_params
            .as_ref()
            .is_none_or(|a| a.params.iter().all(|t| thisless_type(t))),
        _ => false,
    }
}

/// A parameter with a `this`-less annotation, or without annotation and initializer.
pub(crate) fn thisless_fn_param(p: &TsFnParam) -> bool {
    fn_param_ann(p).is_none_or(|a| thisless_type(&a.type_ann))
}

/// A parameter pattern with a `this`-less annotation, or without annotation and
/// initializer (one with an initializer is `this`-less only when annotated so).
pub(crate) fn thisless_pat(p: &Pat) -> bool {
    match p {
        Pat::Ident(_) | Pat::Array(_) | Pat::Rest(_) | Pat::Object(_) => {
            pat_ann(p).is_none_or(|a| thisless_type(&a.type_ann))
        }
        Pat::Assign(a) => match &*a.left {
            Pat::Ident(b) => b
                .type_ann
                .as_ref()
                .is_some_and(|a| thisless_type(&a.type_ann)),
            _ => false,
        },
        _ => false,
    }
}

/// Type parameters whose constraints are all `this`-less.
pub(crate) fn thisless_type_params(tp: Option<&TsTypeParamDecl>) -> bool {
    tp.is_none_or(|tp| {
        tp.params
            .iter()
            .all(|p| p.constraint.as_deref().is_none_or(thisless_type))
    })
}

// ---- Positions: where an expression, a statement, a type node, a function type starts ----

pub(crate) fn expr_lo(e: &Expr) -> u32 {
    use swc_common::Spanned;
    e.span().lo.0
}

pub(crate) fn stmt_lo(s: &Stmt) -> u32 {
    use swc_common::Spanned;
    s.span().lo.0
}

pub(crate) fn ts_type_lo(t: &TsType) -> u32 {
    use swc_common::Spanned;
    t.span().lo.0
}

pub(crate) fn f_lo(f: &TsFnOrConstructorType) -> u32 {
    use swc_common::Spanned;
    f.span().lo.0
}
