//! Binding: scopes, symbols, declaration merging and module resolution.
//!
//! Each file is bound on its own (in parallel) into a [`FileBinding`]: a symbol per
//! declaration, the symbol every identifier denotes, the file's exports and imports.
//! A short sequential step then merges the global declarations of script files, the
//! standard library and `declare global` blocks into one global table.
//!
//! **Symbol ids do not depend on the checker count**: they are fixed here, before any
//! checker starts, so anything derived from them is the same for 1 or N checkers.
use std::sync::Arc;

use rustc_hash::FxHashMap;
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::flow::{FlowId, FlowNode, UNREACHABLE};
use crate::parse::ParsedFile;
use crate::syntax::{export_name, is_property_reference, key_name, prop_name, str_atom};

/// Which file's table a symbol lives in; [`GLOBAL_FILE`] is the merged global table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId {
    pub file: u32,
    pub index: u32,
}

/// The `file` of merged global symbols.
pub const GLOBAL_FILE: u32 = u32::MAX;

/// Stands for `this` as the root of a narrowable property reference (`this.x`); flow
/// analysis never leaves the function it starts in, so one id serves every function.
pub const THIS_REFERENCE: SymbolId = SymbolId {
    file: u32::MAX - 1,
    index: 0,
};

/// What a symbol can mean (bit set).
pub mod flags {
    pub const VARIABLE: u32 = 1 << 0;
    pub const FUNCTION: u32 = 1 << 1;
    pub const CLASS: u32 = 1 << 2;
    pub const INTERFACE: u32 = 1 << 3;
    pub const TYPE_ALIAS: u32 = 1 << 4;
    pub const ENUM: u32 = 1 << 5;
    pub const ENUM_MEMBER: u32 = 1 << 6;
    pub const NAMESPACE: u32 = 1 << 7;
    pub const TYPE_PARAM: u32 = 1 << 8;
    pub const PARAMETER: u32 = 1 << 9;
    pub const PROPERTY: u32 = 1 << 10;
    pub const METHOD: u32 = 1 << 11;
    pub const ALIAS: u32 = 1 << 12;
    pub const DEFAULT_EXPORT: u32 = 1 << 13;
    pub const STATIC: u32 = 1 << 14;
    /// `__call`, `__new`, `__index`: a call, construct or index signature.
    pub const SIGNATURE: u32 = 1 << 15;
    /// `__type`, `__object`, `__function`, `__class`, `__jsxAttributes`: a container
    /// without a name.
    pub const ANONYMOUS: u32 = 1 << 16;
    pub const VALUE: u32 = VARIABLE | FUNCTION | CLASS | ENUM | ENUM_MEMBER | PARAMETER | NAMESPACE;
    pub const TYPE: u32 = CLASS | INTERFACE | TYPE_ALIAS | ENUM | TYPE_PARAM;
}

/// What an import names in its module.
#[derive(Clone, Debug)]
pub enum Imported {
    Named(Atom),
    Default,
    Namespace,
}

/// A class or interface member declaration.
#[derive(Clone, Copy, Debug)]
pub enum MemberDecl<'a> {
    PropertySignature(&'a TsPropertySignature),
    MethodSignature(&'a TsMethodSignature),
    Getter(&'a TsGetterSignature),
    Setter(&'a TsSetterSignature),
    ClassProp(&'a ClassProp),
    ClassMethod(&'a ClassMethod),
    ParamProp(&'a BindingIdent),
}

/// The declarations behind [`DeclRef::Syntax`] symbols, named as TypeScript names them.
#[derive(Clone, Copy, Debug)]
pub enum SyntaxDecl<'a> {
    /// `__type`: a type literal.
    TypeLiteral(&'a TsTypeLit),
    /// `__type`: a mapped type.
    Mapped(&'a TsMappedType),
    /// `__object`: an object literal.
    ObjectLiteral(&'a ObjectLit),
    /// A property, method or accessor of an object literal.
    ObjectProp(&'a Prop),
    /// `__function`: a function expression or arrow.
    FunctionExpr(&'a Function),
    Arrow(&'a ArrowExpr),
    /// `__class`: a class expression without a name.
    ClassExpr(&'a Class),
    /// `__call`, `__new`, `__index`: a signature, by the start of its syntax.
    Signature(u32),
    /// `f.prop = value`: an expando property of function `f`.
    Expando(&'a AssignExpr),
    /// `__jsxAttributes` and each attribute.
    JsxAttributes(&'a JSXOpeningElement),
    JsxAttr(&'a JSXAttr),
}

/// A binding taken from one property of an object pattern.
#[derive(Clone, Debug)]
pub struct PatSource<'a> {
    /// The enclosing pattern (its annotation, when it has one, gives the type).
    pub pattern: &'a ObjectPat,
    /// The property read.
    pub key: Atom,
    /// Whether the binding has a default value (`{ key = value }`), which removes `undefined`.
    pub has_default: bool,
}

/// One declaration of a symbol, pointing into the (shared, read-only) syntax tree.
#[derive(Clone, Debug)]
pub enum DeclRef<'a> {
    /// A variable, parameter or catch binding; `init` only for a plain `name = init`.
    Binding {
        ident: &'a BindingIdent,
        init: Option<&'a Expr>,
        in_pattern: bool,
        is_const: bool,
        /// For `{ key }` or `{ key: name }` directly inside an object pattern: where the
        /// binding's type comes from.
        from: Option<PatSource<'a>>,
    },
    Function(&'a Function),
    Class(&'a Class),
    Interface(&'a TsInterfaceDecl),
    Alias(&'a TsTypeAliasDecl),
    Enum(&'a TsEnumDecl),
    EnumMember(&'a TsEnumMember),
    Namespace(&'a TsModuleDecl),
    TypeParam(&'a TsTypeParam),
    Member(MemberDecl<'a>),
    /// A declaration TypeScript's binder gives a symbol that this checker types from the
    /// syntax around it (anonymous containers, signatures, literal members).
    Syntax(SyntaxDecl<'a>),
    /// `import x from`, `import {x as y} from`, `export {x} from`: the module (when it
    /// resolved inside the corpus) and the name there.
    Import {
        module: Option<u32>,
        specifier: Atom,
        imported: Imported,
    },
    /// `export default expr` / `export = expr`.
    DefaultExpr(&'a Expr),
}

/// A named entity: its declarations (merged), members and exports.
#[derive(Debug)]
pub struct Symbol<'a> {
    pub name: Atom,
    pub flags: u32,
    /// File whose syntax holds the declarations (for a merged symbol, the first one's).
    pub decls: Vec<(u32, DeclRef<'a>)>,
    /// Instance members of classes and interfaces.
    pub members: FxHashMap<Atom, SymbolId>,
    /// Exports of namespaces, members of enums, static members of classes.
    pub exports: FxHashMap<Atom, SymbolId>,
    /// The class or interface a member belongs to.
    pub parent: Option<SymbolId>,
}

impl<'a> Symbol<'a> {
    fn new(name: Atom, flags: u32) -> Self {
        Symbol {
            name,
            flags,
            parent: None,
            decls: Vec::new(),
            members: FxHashMap::default(),
            exports: FxHashMap::default(),
        }
    }
}

/// The binding of one file.
#[derive(Debug, Default)]
pub struct FileBinding<'a> {
    pub symbols: Vec<Symbol<'a>>,
    /// The symbol each identifier denotes (declaration or reference), by the identifier's
    /// start position. Identifiers not in the map resolve in the global table.
    pub node_symbols: FxHashMap<u32, SymbolId>,
    /// Module exports by name (`default` for the default export).
    pub exports: FxHashMap<Atom, SymbolId>,
    /// Modules re-exported whole with `export * from`.
    pub export_stars: Vec<u32>,
    /// The class whose `this` a method body, constructor or property initializer sees,
    /// by the start position of the function or initializer.
    pub this_owners: FxHashMap<u32, SymbolId>,
    /// The class whose `this` a local variable's initializer sees, by the variable's name
    /// position (a local declared in a method, constructor or initializer).
    pub binding_this: FxHashMap<u32, SymbolId>,
    /// The class or interface whose polymorphic `this` type a `this` type annotation
    /// denotes, by the annotation's start position: annotations in a non-static member of
    /// a class or interface, as TypeScript's `getThisType` finds them (not in nested type
    /// literals' members, nor in functions declared inside a member).
    pub this_type_owners: FxHashMap<u32, SymbolId>,
    /// Interfaces whose declaration mentions a `this` type anywhere (TypeScript's
    /// `NodeFlags.ContainsThis`), by the start position of the interface's name.
    pub interfaces_with_this: rustc_hash::FxHashSet<u32>,
    /// The class or interface whose body encloses each function type, constructor type and
    /// type literal, by the node's start position (TypeScript's `getOuterTypeParameters`
    /// walks up to it through type literals and nested functions alike): its `this` type
    /// and type parameters are outer type parameters of the node's anonymous type.
    pub anon_owners: FxHashMap<u32, SymbolId>,
    /// References inside global namespaces that no enclosing scope declares, with the
    /// namespace path to look them up in (innermost first) before the global table.
    pub namespace_refs: FxHashMap<u32, Arc<[Atom]>>,
    /// The file each resolved module specifier names, by the specifier's start position.
    pub import_modules: FxHashMap<u32, u32>,
    /// Relative or bare imports that did not resolve inside the corpus: position and text.
    pub unresolved_imports: Vec<(u32, Atom)>,
    /// Top-level declarations of a script file, and `declare global` ones: merged globally.
    pub globals: Vec<SymbolId>,
    pub is_module: bool,
    /// Syntax nodes visited (expressions, statements, patterns, types, members).
    pub nodes: u64,
    /// The file's control-flow graph; node 0 is [`UNREACHABLE`], node 1 the file's start.
    /// Each node is its own allocation, as TypeScript's flow nodes are objects.
    pub flow_nodes: Vec<Box<FlowNode<'a>>>,
    /// Each flow node's depth: the longest path of forward edges back to a start.
    pub flow_depth: Vec<u32>,
    /// The flow node current at each identifier reference, by its start position.
    pub flow_of: FxHashMap<u32, FlowId>,
    /// Variables and parameters assigned somewhere after their declaration.
    pub reassigned: rustc_hash::FxHashSet<SymbolId>,
}

/// Every file's binding, shared by all checkers.
pub struct Bound<'a> {
    pub files: Vec<FileBinding<'a>>,
}

impl<'a> Bound<'a> {
    /// Number of symbols the binder made (merged global symbols are each checker's own).
    pub fn symbol_count(&self) -> u64 {
        self.files.iter().map(|f| f.symbols.len() as u64).sum()
    }
}

/// One checker's global table: the global declarations of every script file, the standard
/// library and `declare global` blocks, merged. Like the native TypeScript checker, each
/// checker merges its own (so merged symbols and member tables are per checker); the
/// merge is in file order, so its symbol ids are the same in every checker.
#[derive(Default)]
pub struct Globals<'a> {
    pub global_symbols: Vec<Symbol<'a>>,
    pub globals: FxHashMap<Atom, SymbolId>,
}

/// What a checker resolves names against: the shared bindings and its own globals.
#[derive(Clone, Copy)]
pub struct Scope<'a, 'b> {
    pub files: &'b [FileBinding<'a>],
    pub global_symbols: &'b [Symbol<'a>],
    pub globals: &'b FxHashMap<Atom, SymbolId>,
}

impl<'a, 'b> Scope<'a, 'b> {
    pub fn new(bound: &'b Bound<'a>, globals: &'b Globals<'a>) -> Self {
        Scope {
            files: &bound.files,
            global_symbols: &globals.global_symbols,
            globals: &globals.globals,
        }
    }

    pub fn symbol(&self, id: SymbolId) -> &'b Symbol<'a> {
        if id.file == GLOBAL_FILE {
            &self.global_symbols[id.index as usize]
        } else {
            &self.files[id.file as usize].symbols[id.index as usize]
        }
    }

    /// The symbol an identifier at `pos` in `file` denotes.
    pub fn resolve(&self, file: u32, pos: u32, name: &Atom) -> Option<SymbolId> {
        let f = &self.files[file as usize];
        if let Some(&s) = f.node_symbols.get(&pos) {
            return Some(s);
        }
        if let Some(path) = f.namespace_refs.get(&pos) {
            for depth in (1..=path.len()).rev() {
                let found = self
                    .namespace(&path[..depth])
                    .and_then(|ns| self.symbol(ns).exports.get(name));
                if let Some(&s) = found {
                    return Some(s);
                }
            }
        }
        self.globals.get(name).copied()
    }

    /// The merged global namespace at `path` (`["Intl"]`, `["A", "B"]`).
    fn namespace(&self, path: &[Atom]) -> Option<SymbolId> {
        let mut s = *self.globals.get(&path[0])?;
        for part in &path[1..] {
            s = *self.symbol(s).exports.get(part)?;
        }
        Some(s)
    }
}

/// Resolves a module specifier written in `from` like TypeScript: relative paths only,
/// trying the TypeScript extensions, `.js` written for `.ts`, and index files.
pub fn resolve_module(paths: &FxHashMap<&str, u32>, from: &str, specifier: &str) -> Option<u32> {
    if !(specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier == "."
        || specifier == "..")
    {
        return None;
    }
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in specifier.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    let base = parts.join("/");
    let lookup = |p: &str| paths.get(p).copied();
    let js_swaps: &[(&str, &[&str])] = &[
        (".js", &[".ts", ".tsx", ".d.ts", ".js"]),
        (".jsx", &[".tsx", ".jsx"]),
        (".mjs", &[".mts", ".d.mts", ".mjs"]),
        (".cjs", &[".cts", ".d.cts", ".cjs"]),
    ];
    for (ext, replacements) in js_swaps {
        if let Some(stem) = base.strip_suffix(ext) {
            for r in *replacements {
                if let Some(i) = lookup(&format!("{stem}{r}")) {
                    return Some(i);
                }
            }
        }
    }
    if let Some(i) = lookup(&base).filter(|_| crate::parse::is_source_path(&base)) {
        return Some(i);
    }
    const TRY: &[&str] = &[
        ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
    ];
    TRY.iter()
        .find_map(|ext| lookup(&format!("{base}{ext}")))
        .or_else(|| {
            TRY.iter()
                .find_map(|ext| lookup(&format!("{base}/index{ext}")))
        })
}

/// Binds every file, in parallel on the current rayon pool.
pub fn bind_all<'a>(files: &'a [ParsedFile]) -> Bound<'a> {
    use rayon::prelude::*;
    let paths: FxHashMap<&str, u32> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i as u32))
        .collect();
    let bindings: Vec<FileBinding<'a>> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| bind_file(i as u32, f, &paths))
        .collect();
    Bound { files: bindings }
}

/// Merges the global declarations of all files into a fresh global table.
pub fn merge_globals<'a>(files: &[FileBinding<'a>]) -> Globals<'a> {
    let mut m = Merger {
        files,
        out: Globals::default(),
    };
    for f in files {
        for &id in &f.globals {
            let name = m.symbol(id).name.clone();
            m.merge_into(name, id, None);
        }
    }
    // The variance markers, after every merged symbol (so those keep their ids).
    for name in VARIANCE_MARKERS {
        m.out
            .global_symbols
            .push(Symbol::new(Atom::from(name), flags::TYPE_PARAM));
    }
    m.out
}

/// Type parameters no declaration names, the last symbols of every checker's global
/// table: the checker's variance markers (TypeScript's `markerSuperType`,
/// `markerSubType`, `markerOtherType`).
pub const VARIANCE_MARKERS: [&str; 3] = ["markerSuper", "markerSub", "markerOther"];

struct Merger<'a, 'f> {
    files: &'f [FileBinding<'a>],
    out: Globals<'a>,
}

impl<'a> Merger<'a, '_> {
    fn symbol(&self, id: SymbolId) -> &Symbol<'a> {
        if id.file == GLOBAL_FILE {
            &self.out.global_symbols[id.index as usize]
        } else {
            &self.files[id.file as usize].symbols[id.index as usize]
        }
    }

    fn table(&mut self, parent: Option<SymbolId>) -> &mut FxHashMap<Atom, SymbolId> {
        match parent {
            None => &mut self.out.globals,
            Some(p) => &mut self.out.global_symbols[p.index as usize].exports,
        }
    }

    /// Adds `id` under `name` to the global table, or to the exports of the merged
    /// namespace `parent`, merging with what is already there.
    fn merge_into(&mut self, name: Atom, id: SymbolId, parent: Option<SymbolId>) {
        let existing = self.table(parent).get(&name).copied();
        let target = match existing {
            None => {
                self.table(parent).insert(name, id);
                return;
            }
            Some(existing) if existing.file == GLOBAL_FILE => existing,
            Some(existing) => {
                // First collision: a merged symbol that starts as a copy of `existing`.
                let first = self.symbol(existing);
                let mut copy = Symbol::new(first.name.clone(), first.flags);
                copy.decls = first.decls.clone();
                copy.members = first.members.clone();
                let first_exports: Vec<(Atom, SymbolId)> =
                    first.exports.iter().map(|(k, v)| (k.clone(), *v)).collect();
                let merged_id = SymbolId {
                    file: GLOBAL_FILE,
                    index: self.out.global_symbols.len() as u32,
                };
                self.out.global_symbols.push(copy);
                self.table(parent).insert(name, merged_id);
                for (k, v) in first_exports {
                    self.merge_into(k, v, Some(merged_id));
                }
                merged_id
            }
        };
        let other = self.symbol(id);
        let flags = other.flags;
        let decls = other.decls.clone();
        let members: Vec<(Atom, SymbolId)> =
            other.members.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let exports: Vec<(Atom, SymbolId)> =
            other.exports.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let t = &mut self.out.global_symbols[target.index as usize];
        t.flags |= flags;
        t.decls.extend(decls);
        for (k, v) in members {
            t.members.entry(k).or_insert(v);
        }
        for (k, v) in exports {
            self.merge_into(k, v, Some(target));
        }
    }
}

/// Binds one file.
pub fn bind_file<'a>(
    index: u32,
    file: &'a ParsedFile,
    paths: &FxHashMap<&str, u32>,
) -> FileBinding<'a> {
    let mut b = Binder {
        file: index,
        path: &file.path,
        paths,
        out: FileBinding::default(),
        scopes: Vec::new(),
        global_scope: false,
        ns_path: Vec::new(),
        ns_path_shared: None,
        ambient: crate::parse::is_declaration_path(&file.path),
        flow: UNREACHABLE,
        jumps: Vec::new(),
        pending_label: None,
        capturing: false,
        current_this: None,
        this_type_owner: None,
        enclosing_owner: None,
        next_fn_this_type: None,
        seen_this_type: false,
    };
    b.out.flow_nodes.push(Box::new(FlowNode::Unreachable));
    b.out.flow_depth.push(0);
    b.flow = b.add_flow(FlowNode::Start {
        container: None,
        captured_from: UNREACHABLE,
    });
    match &file.program {
        Some(Program::Module(m)) => {
            b.out.is_module = file.is_module();
            b.global_scope = !b.out.is_module;
            b.scopes.push(FxHashMap::default());
            b.hoist_items(&m.body, None);
            for item in &m.body {
                b.item(item, None);
            }
        }
        Some(Program::Script(s)) => {
            b.global_scope = true;
            b.scopes.push(FxHashMap::default());
            b.hoist_stmts(&s.body);
            for stmt in &s.body {
                b.stmt(stmt);
            }
        }
        None => {}
    }
    if b.global_scope {
        let top = b.scopes.pop().unwrap_or_default();
        let mut ids: Vec<SymbolId> = top.into_values().collect();
        ids.sort();
        b.out.globals.extend(ids);
    }
    b.out
}

/// Where an `export` modifier puts a declaration.
#[derive(Clone, Copy, Debug)]
enum ExportTo {
    Nowhere,
    Module,
    /// The exports of a namespace declared in the file being bound.
    Namespace(SymbolId),
}

impl ExportTo {
    /// `export` at the top of a module, or inside namespace `ns`.
    fn of(ns: Option<SymbolId>) -> Self {
        ns.map_or(ExportTo::Module, ExportTo::Namespace)
    }
}

struct Binder<'a, 'p> {
    file: u32,
    path: &'a str,
    paths: &'p FxHashMap<&'p str, u32>,
    out: FileBinding<'a>,
    scopes: Vec<FxHashMap<Atom, SymbolId>>,
    /// Top-level names of a script file are global: references to them resolve late.
    global_scope: bool,
    /// Names of the global namespaces around the walk (`Intl`, `Intl.X`), innermost last.
    ns_path: Vec<Atom>,
    ns_path_shared: Option<Arc<[Atom]>>,
    /// Inside `declare namespace` or a declaration file.
    ambient: bool,
    /// The flow node the walk is at.
    flow: FlowId,
    /// Enclosing `break`/`continue` targets, innermost last.
    jumps: Vec<JumpTarget>,
    /// The label written before the statement being bound (`outer: for ...`).
    pending_label: Option<Atom>,
    /// The function about to be bound is an expression or arrow (it captures the flow).
    capturing: bool,
    /// The class whose `this` the code being bound sees (arrows keep it, functions reset it).
    current_this: Option<SymbolId>,
    /// The class or interface a `this` type annotation here denotes (see
    /// [`FileBinding::this_type_owners`]).
    this_type_owner: Option<SymbolId>,
    /// The class or interface whose body the walk is in (see [`FileBinding::anon_owners`]).
    enclosing_owner: Option<SymbolId>,
    /// The owner the next function walked is a non-static method of (taken by `function`).
    next_fn_this_type: Option<SymbolId>,
    /// A `this` type was met since the enclosing interface declaration began.
    seen_this_type: bool,
}

/// A statement `break` or `continue` can leave: its label, the flows that break out of
/// it, and the loop head `continue` returns to (loops only).
struct JumpTarget {
    label: Option<Atom>,
    breaks: Vec<FlowId>,
    continue_to: Option<FlowId>,
}

impl<'a> Binder<'a, '_> {
    fn new_symbol(&mut self, name: Atom, flags: u32, decl: DeclRef<'a>) -> SymbolId {
        let id = SymbolId {
            file: self.file,
            index: self.out.symbols.len() as u32,
        };
        let mut s = Symbol::new(name, flags);
        s.decls.push((self.file, decl));
        self.out.symbols.push(s);
        id
    }

    /// Declares `name` in the innermost scope, merging with a same-named declaration there.
    fn declare(&mut self, name: &Atom, pos: u32, flags: u32, decl: DeclRef<'a>) -> SymbolId {
        if let (Some(o), DeclRef::Binding { .. }) = (self.current_this, &decl) {
            self.out.binding_this.insert(pos, o);
        }
        let scope = self.scopes.last_mut().expect("a scope is open");
        let id = if let Some(&id) = scope.get(name) {
            let s = &mut self.out.symbols[id.index as usize];
            s.flags |= flags;
            s.decls.push((self.file, decl));
            id
        } else {
            let id = self.new_symbol(name.clone(), flags, decl);
            self.scopes
                .last_mut()
                .expect("a scope is open")
                .insert(name.clone(), id);
            id
        };
        self.out.node_symbols.insert(pos, id);
        id
    }

    fn reference(&mut self, ident: &Ident) {
        self.out.nodes += 1;
        self.out.flow_of.insert(ident.span.lo.0, self.flow);
        let top = if self.global_scope { 1 } else { 0 };
        for scope in self.scopes[top..].iter().rev() {
            if let Some(&id) = scope.get(&ident.sym) {
                self.out.node_symbols.insert(ident.span.lo.0, id);
                return;
            }
        }
        if let Some(path) = &self.ns_path_shared {
            // Inside a global namespace, a name may be declared by another declaration
            // of the same namespace (in another file): resolved against the merge.
            self.out
                .namespace_refs
                .insert(ident.span.lo.0, path.clone());
        }
    }

    // ---- the flow graph ----

    fn add_flow(&mut self, node: FlowNode<'a>) -> FlowId {
        let id = self.out.flow_nodes.len() as FlowId;
        let depth = match &node {
            FlowNode::Label { antecedents, .. } => antecedents
                .iter()
                .map(|&a| self.out.flow_depth[a as usize])
                .max()
                .unwrap_or(0),
            n => n
                .antecedent()
                .map_or(0, |a| self.out.flow_depth[a as usize]),
        };
        self.out.flow_depth.push(depth + 1);
        self.out.flow_nodes.push(Box::new(node));
        id
    }

    /// The branch of `antecedent` where `expr` is `assume_true`.
    fn condition(&mut self, expr: &'a Expr, assume_true: bool, antecedent: FlowId) -> FlowId {
        if antecedent == UNREACHABLE {
            return UNREACHABLE;
        }
        self.add_flow(FlowNode::Condition {
            expr,
            assume_true,
            antecedent,
        })
    }

    /// A join of `antecedents` (the unreachable ones dropped; none left is unreachable).
    fn join(&mut self, mut antecedents: Vec<FlowId>) -> FlowId {
        antecedents.retain(|&a| a != UNREACHABLE);
        antecedents.dedup();
        match antecedents.len() {
            0 => UNREACHABLE,
            1 => antecedents[0],
            _ => self.add_flow(FlowNode::Label {
                antecedents,
                is_loop: false,
            }),
        }
    }

    /// A loop head entered from the current flow; back edges are added by [`Self::back_edge`].
    fn loop_head(&mut self) -> FlowId {
        let entry = self.flow;
        self.add_flow(FlowNode::Label {
            antecedents: vec![entry],
            is_loop: true,
        })
    }

    fn back_edge(&mut self, head: FlowId, from: FlowId) {
        if from == UNREACHABLE {
            return;
        }
        if let FlowNode::Label { antecedents, .. } = &mut *self.out.flow_nodes[head as usize]
            && !antecedents.contains(&from)
        {
            antecedents.push(from);
        }
    }

    /// Records an assignment to the identifier at `pos` (when it resolved in this file).
    fn assignment(&mut self, pos: u32, value: Option<&'a Expr>) {
        if let Some(&symbol) = self.out.node_symbols.get(&pos)
            && symbol.file == self.file
        {
            let declaring = self.out.symbols[symbol.index as usize].decls.iter().any(
                |(_, d)| matches!(d, DeclRef::Binding { ident, .. } if ident.id.span.lo.0 == pos),
            );
            if !declaring {
                self.out.reassigned.insert(symbol);
            }
            let antecedent = self.flow;
            if antecedent == UNREACHABLE {
                return;
            }
            self.flow = self.add_flow(FlowNode::Assignment {
                symbol,
                value,
                antecedent,
            });
        }
    }

    /// Binds a loop `body` whose head is `head`, with `continue` returning to `head`.
    fn loop_body(&mut self, head: FlowId, body: &'a Stmt) -> Vec<FlowId> {
        let label = self.pending_label.take();
        self.jumps.push(JumpTarget {
            label,
            breaks: Vec::new(),
            continue_to: Some(head),
        });
        self.stmt(body);
        let end = self.flow;
        self.back_edge(head, end);
        self.jumps.pop().map(|j| j.breaks).unwrap_or_default()
    }

    fn jump(&mut self, label: Option<&Ident>, is_continue: bool) {
        let from = self.flow;
        self.flow = UNREACHABLE;
        let target = self.jumps.iter().rposition(|j| match label {
            Some(l) => j.label.as_ref() == Some(&l.sym),
            None => !is_continue || j.continue_to.is_some(),
        });
        let Some(i) = target else { return };
        if is_continue {
            if let Some(head) = self.jumps[i].continue_to {
                self.back_edge(head, from);
            }
        } else if from != UNREACHABLE {
            self.jumps[i].breaks.push(from);
        }
    }

    /// Binds a function body from its own start node, then resumes the outer flow.
    fn in_function(&mut self, container: u32, walk: impl FnOnce(&mut Self)) {
        let outer = self.flow;
        let jumps = std::mem::take(&mut self.jumps);
        let captured_from = if std::mem::take(&mut self.capturing) {
            outer
        } else {
            UNREACHABLE
        };
        self.flow = self.add_flow(FlowNode::Start {
            container: Some(container),
            captured_from,
        });
        walk(self);
        self.flow = outer;
        self.jumps = jumps;
    }

    // ---- declarations, hoisted per block ----

    fn hoist_items(&mut self, items: &'a [ModuleItem], ns: Option<SymbolId>) {
        // Everything declared in an ambient namespace is exported, `export` or not.
        let implicit = match ns {
            Some(_) if self.ambient => ExportTo::of(ns),
            _ => ExportTo::Nowhere,
        };
        for item in items {
            match item {
                ModuleItem::Stmt(s) => self.hoist_stmt(s, implicit),
                ModuleItem::ModuleDecl(d) => self.hoist_module_decl(d, ns),
            }
        }
    }

    fn hoist_stmts(&mut self, stmts: &'a [Stmt]) {
        for s in stmts {
            self.hoist_stmt(s, ExportTo::Nowhere);
        }
    }

    fn hoist_stmt(&mut self, stmt: &'a Stmt, export_to: ExportTo) {
        if let Stmt::Decl(d) = stmt {
            self.hoist_decl(d, export_to);
        }
    }

    fn export(&mut self, to: ExportTo, name: &Atom, id: SymbolId) {
        match to {
            ExportTo::Nowhere => {}
            ExportTo::Module => {
                self.out.exports.insert(name.clone(), id);
            }
            ExportTo::Namespace(ns) => {
                self.out.symbols[ns.index as usize]
                    .exports
                    .insert(name.clone(), id);
            }
        }
    }

    fn hoist_decl(&mut self, decl: &'a Decl, export_to: ExportTo) -> Option<SymbolId> {
        let (ident, flags, d) = match decl {
            Decl::Class(c) => (&c.ident, flags::CLASS, DeclRef::Class(&c.class)),
            Decl::Fn(f) => (&f.ident, flags::FUNCTION, DeclRef::Function(&f.function)),
            Decl::TsInterface(i) => (&i.id, flags::INTERFACE, DeclRef::Interface(i)),
            Decl::TsTypeAlias(a) => (&a.id, flags::TYPE_ALIAS, DeclRef::Alias(a)),
            Decl::TsEnum(e) => (&e.id, flags::ENUM, DeclRef::Enum(e)),
            Decl::TsModule(m) => {
                let TsModuleName::Ident(ident) = &m.id else {
                    return None;
                };
                if m.global {
                    return None;
                }
                (ident, flags::NAMESPACE, DeclRef::Namespace(m))
            }
            Decl::Var(v) => {
                let is_const = v.kind == VarDeclKind::Const;
                for d in &v.decls {
                    self.hoist_binding(&d.name, d.init.as_deref(), false, is_const, export_to);
                }
                return None;
            }
            Decl::Using(u) => {
                for d in &u.decls {
                    self.hoist_pat(&d.name, d.init.as_deref(), false, export_to);
                }
                return None;
            }
        };
        let id = self.declare(&ident.sym, ident.span.lo.0, flags, d);
        self.export(export_to, &ident.sym, id);
        Some(id)
    }

    fn hoist_pat(
        &mut self,
        pat: &'a Pat,
        init: Option<&'a Expr>,
        in_pattern: bool,
        export_to: ExportTo,
    ) {
        self.hoist_binding(pat, init, in_pattern, false, export_to);
    }

    /// Declares `name` (or `key: name`) taken from one property of an object pattern.
    fn declare_pattern_binding(
        &mut self,
        b: &'a BindingIdent,
        is_const: bool,
        from: Option<PatSource<'a>>,
        export_to: ExportTo,
    ) {
        let id = self.declare(
            &b.id.sym,
            b.id.span.lo.0,
            flags::VARIABLE,
            DeclRef::Binding {
                ident: b,
                init: None,
                in_pattern: true,
                is_const,
                from,
            },
        );
        self.export(export_to, &b.id.sym, id);
    }

    fn hoist_binding(
        &mut self,
        pat: &'a Pat,
        init: Option<&'a Expr>,
        in_pattern: bool,
        is_const: bool,
        export_to: ExportTo,
    ) {
        match pat {
            Pat::Ident(b) => {
                let id = self.declare(
                    &b.id.sym,
                    b.id.span.lo.0,
                    flags::VARIABLE,
                    DeclRef::Binding {
                        ident: b,
                        init: if in_pattern { None } else { init },
                        in_pattern,
                        is_const,
                        from: None,
                    },
                );
                self.export(export_to, &b.id.sym, id);
            }
            Pat::Array(a) => {
                for p in a.elems.iter().flatten() {
                    self.hoist_pat(p, None, true, export_to);
                }
            }
            Pat::Object(o) => {
                for p in &o.props {
                    match p {
                        ObjectPatProp::KeyValue(kv) => {
                            let source = |has_default| {
                                prop_name(&kv.key).map(|key| PatSource {
                                    pattern: o,
                                    key,
                                    has_default,
                                })
                            };
                            match &*kv.value {
                                Pat::Ident(b) => self.declare_pattern_binding(
                                    b,
                                    is_const,
                                    source(false),
                                    export_to,
                                ),
                                Pat::Assign(a) if matches!(&*a.left, Pat::Ident(_)) => {
                                    if let Pat::Ident(b) = &*a.left {
                                        self.declare_pattern_binding(
                                            b,
                                            is_const,
                                            source(true),
                                            export_to,
                                        )
                                    }
                                }
                                _ => self.hoist_pat(&kv.value, None, true, export_to),
                            }
                        }
                        ObjectPatProp::Assign(a) => {
                            let id = self.declare(
                                &a.key.id.sym,
                                a.key.id.span.lo.0,
                                flags::VARIABLE,
                                DeclRef::Binding {
                                    ident: &a.key,
                                    init: None,
                                    in_pattern: true,
                                    is_const,
                                    from: Some(PatSource {
                                        pattern: o,
                                        key: a.key.id.sym.clone(),
                                        has_default: a.value.is_some(),
                                    }),
                                },
                            );
                            self.export(export_to, &a.key.id.sym, id);
                        }
                        ObjectPatProp::Rest(r) => self.hoist_pat(&r.arg, None, true, export_to),
                    }
                }
            }
            Pat::Rest(r) => self.hoist_pat(&r.arg, None, true, export_to),
            Pat::Assign(a) => self.hoist_pat(&a.left, None, true, export_to),
            Pat::Invalid(_) | Pat::Expr(_) => {}
        }
    }

    fn hoist_module_decl(&mut self, d: &'a ModuleDecl, ns: Option<SymbolId>) {
        match d {
            ModuleDecl::ExportDecl(e) => {
                self.hoist_decl(&e.decl, ExportTo::of(ns));
            }
            ModuleDecl::Import(i) => {
                let module = self.module(&i.src);
                for s in &i.specifiers {
                    let (local, imported) = match s {
                        ImportSpecifier::Named(n) => (
                            &n.local,
                            Imported::Named(
                                n.imported.as_ref().map_or(n.local.sym.clone(), export_name),
                            ),
                        ),
                        ImportSpecifier::Default(d) => (&d.local, Imported::Default),
                        ImportSpecifier::Namespace(n) => (&n.local, Imported::Namespace),
                    };
                    self.declare(
                        &local.sym,
                        local.span.lo.0,
                        flags::ALIAS,
                        DeclRef::Import {
                            module,
                            specifier: str_atom(&i.src),
                            imported,
                        },
                    );
                }
            }
            ModuleDecl::ExportDefaultDecl(e) => {
                let (name, pos, flags, decl) = match &e.decl {
                    DefaultDecl::Class(c) => (
                        c.ident.as_ref(),
                        e.span.lo.0,
                        flags::CLASS,
                        DeclRef::Class(&c.class),
                    ),
                    DefaultDecl::Fn(f) => (
                        f.ident.as_ref(),
                        e.span.lo.0,
                        flags::FUNCTION,
                        DeclRef::Function(&f.function),
                    ),
                    DefaultDecl::TsInterfaceDecl(i) => (
                        Some(&i.id),
                        e.span.lo.0,
                        flags::INTERFACE,
                        DeclRef::Interface(i),
                    ),
                };
                let id = match name {
                    Some(ident) => self.declare(&ident.sym, ident.span.lo.0, flags, decl),
                    None => {
                        self.new_symbol(Atom::from("default"), flags | flags::DEFAULT_EXPORT, decl)
                    }
                };
                self.out.node_symbols.entry(pos).or_insert(id);
                self.out.exports.insert(Atom::from("default"), id);
            }
            ModuleDecl::ExportDefaultExpr(e) => {
                let id = self.new_symbol(
                    Atom::from("default"),
                    flags::DEFAULT_EXPORT,
                    DeclRef::DefaultExpr(&e.expr),
                );
                self.out.exports.insert(Atom::from("default"), id);
            }
            ModuleDecl::TsExportAssignment(e) => {
                let id = self.new_symbol(
                    Atom::from("default"),
                    flags::DEFAULT_EXPORT,
                    DeclRef::DefaultExpr(&e.expr),
                );
                self.out.exports.insert(Atom::from("default"), id);
            }
            ModuleDecl::ExportAll(e) => {
                if let Some(m) = self.module(&e.src) {
                    self.out.export_stars.push(m);
                }
            }
            ModuleDecl::ExportNamed(n) => {
                if let Some(src) = &n.src {
                    let module = self.module(src);
                    for s in &n.specifiers {
                        let (exported, imported) = match s {
                            ExportSpecifier::Named(s) => {
                                let orig = export_name(&s.orig);
                                (
                                    s.exported.as_ref().map_or(orig.clone(), export_name),
                                    Imported::Named(orig),
                                )
                            }
                            ExportSpecifier::Namespace(s) => {
                                (export_name(&s.name), Imported::Namespace)
                            }
                            ExportSpecifier::Default(s) => {
                                (s.exported.sym.clone(), Imported::Default)
                            }
                        };
                        let id = self.new_symbol(
                            exported.clone(),
                            flags::ALIAS,
                            DeclRef::Import {
                                module,
                                specifier: str_atom(src),
                                imported,
                            },
                        );
                        self.out.exports.insert(exported, id);
                    }
                }
            }
            ModuleDecl::TsImportEquals(i) => {
                if let TsModuleRef::TsExternalModuleRef(r) = &i.module_ref {
                    let module = self.module(&r.expr);
                    let id = self.declare(
                        &i.id.sym,
                        i.id.span.lo.0,
                        flags::ALIAS,
                        DeclRef::Import {
                            module,
                            specifier: str_atom(&r.expr),
                            imported: Imported::Default,
                        },
                    );
                    if i.is_export {
                        self.export(ExportTo::of(ns), &i.id.sym, id);
                    }
                }
            }
            ModuleDecl::TsNamespaceExport(_) => {}
        }
    }

    fn module(&mut self, src: &Str) -> Option<u32> {
        let spec = str_atom(src);
        let found = resolve_module(self.paths, self.path, &spec);
        match found {
            Some(m) => {
                self.out.import_modules.insert(src.span.lo.0, m);
            }
            None => self.out.unresolved_imports.push((src.span.lo.0, spec)),
        }
        found
    }

    // ---- walking ----

    fn item(&mut self, item: &'a ModuleItem, ns: Option<SymbolId>) {
        self.out.nodes += 1;
        match item {
            ModuleItem::Stmt(s) => self.stmt(s),
            ModuleItem::ModuleDecl(d) => match d {
                ModuleDecl::ExportDecl(e) => self.decl(&e.decl),
                ModuleDecl::ExportDefaultDecl(e) => match &e.decl {
                    DefaultDecl::Class(c) => {
                        let owner = self
                            .out
                            .node_symbols
                            .get(&c.ident.as_ref().map_or(e.span.lo.0, |i| i.span.lo.0))
                            .copied();
                        self.class_with_owner(&c.class, owner);
                    }
                    DefaultDecl::Fn(f) => self.function(&f.function),
                    DefaultDecl::TsInterfaceDecl(i) => self.interface(i),
                },
                ModuleDecl::ExportDefaultExpr(e) => self.expr(&e.expr),
                ModuleDecl::TsExportAssignment(e) => self.expr(&e.expr),
                ModuleDecl::ExportNamed(n) if n.src.is_none() => {
                    for s in &n.specifiers {
                        if let ExportSpecifier::Named(s) = s
                            && let ModuleExportName::Ident(orig) = &s.orig
                        {
                            self.reference(orig);
                            let exported =
                                s.exported.as_ref().map_or(orig.sym.clone(), export_name);
                            if let Some(&id) = self.out.node_symbols.get(&orig.span.lo.0) {
                                self.export(ExportTo::of(ns), &exported, id);
                            }
                        }
                    }
                }
                _ => {}
            },
        }
    }

    fn block(&mut self, stmts: &'a [Stmt]) {
        self.scopes.push(FxHashMap::default());
        self.hoist_stmts(stmts);
        for s in stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, stmt: &'a Stmt) {
        self.out.nodes += 1;
        match stmt {
            Stmt::Block(b) => self.block(&b.stmts),
            Stmt::Expr(e) => {
                self.expr(&e.expr);
                if let Expr::Assign(a) = &*e.expr {
                    self.expando(a);
                }
                if let Expr::Call(call) = &*e.expr
                    && self.flow != UNREACHABLE
                {
                    let antecedent = self.flow;
                    self.flow = self.add_flow(FlowNode::Call { call, antecedent });
                }
            }
            Stmt::Return(r) => {
                self.opt_expr(r.arg.as_deref());
                self.flow = UNREACHABLE;
            }
            Stmt::Throw(t) => {
                self.expr(&t.arg);
                self.flow = UNREACHABLE;
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                let pre = self.flow;
                self.flow = self.condition(&i.test, true, pre);
                self.stmt(&i.cons);
                let after_then = self.flow;
                self.flow = self.condition(&i.test, false, pre);
                if let Some(a) = &i.alt {
                    self.stmt(a);
                }
                let after_else = self.flow;
                self.flow = self.join(vec![after_then, after_else]);
            }
            Stmt::While(w) => {
                let head = self.loop_head();
                self.flow = head;
                self.expr(&w.test);
                let tested = self.flow;
                self.flow = self.condition(&w.test, true, tested);
                let mut exits = self.loop_body(head, &w.body);
                exits.push(self.condition(&w.test, false, tested));
                self.flow = self.join(exits);
            }
            Stmt::DoWhile(w) => {
                let head = self.loop_head();
                self.flow = head;
                let label = self.pending_label.take();
                self.jumps.push(JumpTarget {
                    label,
                    breaks: Vec::new(),
                    continue_to: Some(head),
                });
                self.stmt(&w.body);
                self.expr(&w.test);
                let tested = self.flow;
                let again = self.condition(&w.test, true, tested);
                self.back_edge(head, again);
                let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                exits.push(self.condition(&w.test, false, tested));
                self.flow = self.join(exits);
            }
            Stmt::For(f) => {
                self.scopes.push(FxHashMap::default());
                match &f.init {
                    Some(VarDeclOrExpr::VarDecl(v)) => {
                        for d in &v.decls {
                            self.hoist_pat(&d.name, d.init.as_deref(), false, ExportTo::Nowhere);
                        }
                        self.var_decl(v);
                    }
                    Some(VarDeclOrExpr::Expr(e)) => self.expr(e),
                    None => {}
                }
                let head = self.loop_head();
                self.flow = head;
                self.opt_expr(f.test.as_deref());
                let tested = self.flow;
                if let Some(test) = f.test.as_deref() {
                    self.flow = self.condition(test, true, tested);
                }
                let label = self.pending_label.take();
                self.jumps.push(JumpTarget {
                    label,
                    breaks: Vec::new(),
                    continue_to: Some(head),
                });
                self.stmt(&f.body);
                self.opt_expr(f.update.as_deref());
                let end = self.flow;
                self.back_edge(head, end);
                let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                if let Some(test) = f.test.as_deref() {
                    exits.push(self.condition(test, false, tested));
                }
                self.flow = self.join(exits);
                self.scopes.pop();
            }
            Stmt::ForIn(f) => self.for_head(&f.left, &f.right, &f.body),
            Stmt::ForOf(f) => self.for_head(&f.left, &f.right, &f.body),
            Stmt::Switch(s) => {
                self.expr(&s.discriminant);
                let pre = self.flow;
                self.scopes.push(FxHashMap::default());
                for c in &s.cases {
                    self.hoist_stmts(&c.cons);
                }
                let label = self.pending_label.take();
                self.jumps.push(JumpTarget {
                    label,
                    breaks: Vec::new(),
                    continue_to: None,
                });
                let mut fallthrough = UNREACHABLE;
                for c in &s.cases {
                    self.flow = pre;
                    self.opt_expr(c.test.as_deref());
                    let entered = self.flow;
                    self.flow = self.join(vec![entered, fallthrough]);
                    for s in &c.cons {
                        self.stmt(s);
                    }
                    fallthrough = self.flow;
                }
                let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                exits.push(fallthrough);
                if !s.cases.iter().any(|c| c.test.is_none()) {
                    exits.push(pre);
                }
                self.flow = self.join(exits);
                self.scopes.pop();
            }
            Stmt::Try(t) => {
                let pre = self.flow;
                self.block(&t.block.stmts);
                let after_try = self.flow;
                let mut ends = vec![after_try];
                if let Some(h) = &t.handler {
                    // The catch clause may start anywhere in the try block: from its
                    // entry or its end, as far as assignments there are concerned.
                    self.flow = self.join(vec![pre, after_try]);
                    self.scopes.push(FxHashMap::default());
                    if let Some(p) = &h.param {
                        self.hoist_pat(p, None, true, ExportTo::Nowhere);
                        self.pat(p);
                    }
                    self.block(&h.body.stmts);
                    self.scopes.pop();
                    ends.push(self.flow);
                }
                self.flow = self.join(ends);
                if let Some(f) = &t.finalizer {
                    let done = self.flow;
                    self.flow = self.join(vec![pre, done]);
                    self.block(&f.stmts);
                    if done == UNREACHABLE {
                        self.flow = UNREACHABLE;
                    }
                }
            }
            Stmt::Labeled(l) => {
                if matches!(
                    &*l.body,
                    Stmt::For(_)
                        | Stmt::ForIn(_)
                        | Stmt::ForOf(_)
                        | Stmt::While(_)
                        | Stmt::DoWhile(_)
                        | Stmt::Switch(_)
                ) {
                    self.pending_label = Some(l.label.sym.clone());
                    self.stmt(&l.body);
                } else {
                    self.jumps.push(JumpTarget {
                        label: Some(l.label.sym.clone()),
                        breaks: Vec::new(),
                        continue_to: None,
                    });
                    self.stmt(&l.body);
                    let mut exits = self.jumps.pop().map(|j| j.breaks).unwrap_or_default();
                    exits.push(self.flow);
                    self.flow = self.join(exits);
                }
            }
            Stmt::With(w) => {
                self.expr(&w.obj);
                self.stmt(&w.body);
            }
            Stmt::Decl(d) => self.decl(d),
            Stmt::Break(b) => self.jump(b.label.as_ref(), false),
            Stmt::Continue(c) => self.jump(c.label.as_ref(), true),
            Stmt::Empty(_) | Stmt::Debugger(_) => {}
        }
    }

    fn for_head(&mut self, left: &'a ForHead, right: &'a Expr, body: &'a Stmt) {
        self.scopes.push(FxHashMap::default());
        match left {
            ForHead::VarDecl(v) => {
                for d in &v.decls {
                    self.hoist_pat(&d.name, None, true, ExportTo::Nowhere);
                }
                self.var_decl(v);
            }
            ForHead::UsingDecl(u) => {
                for d in &u.decls {
                    self.hoist_pat(&d.name, None, true, ExportTo::Nowhere);
                    self.pat(&d.name);
                }
            }
            ForHead::Pat(p) => self.pat(p),
        }
        self.expr(right);
        let head = self.loop_head();
        self.flow = head;
        let mut exits = self.loop_body(head, body);
        exits.push(head);
        self.flow = self.join(exits);
        self.scopes.pop();
    }

    fn var_decl(&mut self, v: &'a VarDecl) {
        for d in &v.decls {
            self.pat(&d.name);
            self.opt_expr(d.init.as_deref());
            if let Some(init) = d.init.as_deref() {
                self.pattern_assignment(&d.name, Some(init));
            }
        }
    }

    /// An assignment flow node for each name a declaration or assignment pattern binds
    /// (the value only for a plain name).
    fn pattern_assignment(&mut self, p: &'a Pat, value: Option<&'a Expr>) {
        match p {
            Pat::Ident(b) => self.assignment(b.id.span.lo.0, value),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.pattern_assignment(e, None);
                }
            }
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => self.pattern_assignment(&kv.value, None),
                        ObjectPatProp::Assign(a) => self.assignment(a.key.id.span.lo.0, None),
                        ObjectPatProp::Rest(r) => self.pattern_assignment(&r.arg, None),
                    }
                }
            }
            Pat::Rest(r) => self.pattern_assignment(&r.arg, None),
            Pat::Assign(a) => self.pattern_assignment(&a.left, None),
            Pat::Expr(_) | Pat::Invalid(_) => {}
        }
    }

    fn decl(&mut self, d: &'a Decl) {
        self.out.nodes += 1;
        match d {
            Decl::Class(c) => {
                let owner = self
                    .scopes
                    .last()
                    .and_then(|s| s.get(&c.ident.sym))
                    .copied();
                self.class_with_owner(&c.class, owner);
            }
            Decl::Fn(f) => self.function(&f.function),
            Decl::Var(v) => self.var_decl(v),
            Decl::Using(u) => {
                for d in &u.decls {
                    self.pat(&d.name);
                    self.opt_expr(d.init.as_deref());
                }
            }
            Decl::TsInterface(i) => self.interface(i),
            Decl::TsTypeAlias(a) => {
                self.scopes.push(FxHashMap::default());
                self.type_params(a.type_params.as_deref());
                self.ty(&a.type_ann);
                self.scopes.pop();
            }
            Decl::TsEnum(e) => {
                let owner = self.scopes.last().and_then(|s| s.get(&e.id.sym)).copied();
                for m in &e.members {
                    self.out.nodes += 1;
                    let name = match &m.id {
                        TsEnumMemberId::Ident(i) => i.sym.clone(),
                        TsEnumMemberId::Str(s) => str_atom(s),
                    };
                    let id =
                        self.new_symbol(name.clone(), flags::ENUM_MEMBER, DeclRef::EnumMember(m));
                    if let Some(owner) = owner.filter(|o| o.file == self.file) {
                        self.out.symbols[owner.index as usize]
                            .exports
                            .insert(name, id);
                    }
                    self.opt_expr(m.init.as_deref());
                }
            }
            Decl::TsModule(m) => self.namespace(m),
        }
    }

    fn namespace(&mut self, m: &'a TsModuleDecl) {
        let owner = match &m.id {
            TsModuleName::Ident(i) if !m.global => {
                self.scopes.last().and_then(|s| s.get(&i.sym)).copied()
            }
            _ => None,
        };
        let global = m.global;
        let was_global = self.global_scope;
        let saved = if global {
            // `declare global { ... }`: bind the block as a script top level.
            self.global_scope = true;
            Some(std::mem::replace(
                &mut self.scopes,
                vec![FxHashMap::default()],
            ))
        } else {
            self.scopes.push(FxHashMap::default());
            None
        };
        let saved_path = self.ns_path.len();
        if let (TsModuleName::Ident(i), false) = (&m.id, global)
            && (was_global || !self.ns_path.is_empty())
        {
            self.ns_path.push(i.sym.clone());
        }
        let mut body = m.body.as_ref();
        let mut owner = owner;
        while let Some(TsNamespaceBody::TsNamespaceDecl(inner)) = body {
            if self.ns_path.len() > saved_path {
                self.ns_path.push(inner.id.sym.clone());
            }
            // `namespace A.B { }`: B is an export of A.
            let id = self.declare(
                &inner.id.sym,
                inner.id.span.lo.0,
                flags::NAMESPACE,
                DeclRef::Namespace(m),
            );
            if let Some(o) = owner.filter(|o| o.file == self.file) {
                self.out.symbols[o.index as usize]
                    .exports
                    .insert(inner.id.sym.clone(), id);
            }
            owner = Some(id);
            body = Some(&inner.body);
        }
        let outer_path = self.ns_path_shared.clone();
        if self.ns_path.len() > saved_path {
            self.ns_path_shared = Some(self.ns_path.iter().cloned().collect());
        }
        let was_ambient = self.ambient;
        self.ambient |= m.declare;
        if let Some(TsNamespaceBody::TsModuleBlock(block)) = body {
            self.hoist_items(&block.body, owner);
            for item in &block.body {
                self.item(item, owner);
            }
        }
        self.ambient = was_ambient;
        self.ns_path.truncate(saved_path);
        self.ns_path_shared = outer_path;
        if let Some(saved) = saved {
            let top = std::mem::replace(&mut self.scopes, saved)
                .pop()
                .unwrap_or_default();
            let mut ids: Vec<SymbolId> = top.into_values().collect();
            ids.sort();
            self.out.globals.extend(ids);
        } else {
            self.scopes.pop();
        }
        self.global_scope = was_global;
    }

    fn type_params(&mut self, tp: Option<&'a TsTypeParamDecl>) {
        if let Some(tp) = tp {
            for p in &tp.params {
                self.out.nodes += 1;
                self.declare(
                    &p.name.sym,
                    p.name.span.lo.0,
                    flags::TYPE_PARAM,
                    DeclRef::TypeParam(p),
                );
            }
            for p in &tp.params {
                if let Some(c) = &p.constraint {
                    self.ty(c);
                }
                if let Some(d) = &p.default {
                    self.ty(d);
                }
            }
        }
    }

    fn interface(&mut self, i: &'a TsInterfaceDecl) {
        let owner = self.scopes.last().and_then(|s| s.get(&i.id.sym)).copied();
        self.scopes.push(FxHashMap::default());
        let outer_seen = std::mem::replace(&mut self.seen_this_type, false);
        self.type_params(i.type_params.as_deref());
        for e in &i.extends {
            self.heritage(e);
        }
        let outer_owner = std::mem::replace(&mut self.this_type_owner, owner);
        let outer_enclosing = std::mem::replace(&mut self.enclosing_owner, owner);
        for m in &i.body.body {
            self.type_element(m, owner);
        }
        self.enclosing_owner = outer_enclosing;
        self.this_type_owner = outer_owner;
        if std::mem::replace(&mut self.seen_this_type, outer_seen) {
            self.out.interfaces_with_this.insert(i.id.span.lo.0);
        }
        self.scopes.pop();
    }

    fn heritage(&mut self, e: &'a TsExprWithTypeArgs) {
        self.expr(&e.expr);
        if let Some(args) = &e.type_args {
            for t in &args.params {
                self.ty(t);
            }
        }
    }

    fn add_member(
        &mut self,
        owner: Option<SymbolId>,
        name: Atom,
        flags: u32,
        decl: DeclRef<'a>,
        is_static: bool,
    ) {
        let Some(owner) = owner.filter(|o| o.file == self.file) else {
            return;
        };
        let existing = {
            let o = &self.out.symbols[owner.index as usize];
            if is_static {
                o.exports.get(&name)
            } else {
                o.members.get(&name)
            }
            .copied()
        };
        match existing.filter(|e| e.file == self.file) {
            Some(e) => {
                let s = &mut self.out.symbols[e.index as usize];
                s.flags |= flags;
                s.decls.push((self.file, decl));
            }
            None => {
                let flags = if is_static {
                    flags | flags::STATIC
                } else {
                    flags
                };
                let id = self.new_symbol(name.clone(), flags, decl);
                self.out.symbols[id.index as usize].parent = Some(owner);
                let o = &mut self.out.symbols[owner.index as usize];
                if is_static {
                    o.exports.insert(name, id);
                } else {
                    o.members.insert(name, id);
                }
            }
        }
    }

    fn type_element(&mut self, m: &'a TsTypeElement, owner: Option<SymbolId>) {
        self.out.nodes += 1;
        match m {
            TsTypeElement::TsPropertySignature(p) => {
                if let Some(name) = key_name(&p.key) {
                    self.add_member(
                        owner,
                        name,
                        flags::PROPERTY,
                        DeclRef::Member(MemberDecl::PropertySignature(p)),
                        false,
                    );
                }
                if p.computed {
                    self.expr(&p.key);
                }
                self.opt_ann(p.type_ann.as_deref());
            }
            TsTypeElement::TsMethodSignature(p) => {
                if let Some(name) = key_name(&p.key) {
                    self.add_member(
                        owner,
                        name,
                        flags::METHOD,
                        DeclRef::Member(MemberDecl::MethodSignature(p)),
                        false,
                    );
                }
                self.scopes.push(FxHashMap::default());
                self.type_params(p.type_params.as_deref());
                self.fn_params(&p.params);
                self.opt_ann(p.type_ann.as_deref());
                self.scopes.pop();
            }
            TsTypeElement::TsGetterSignature(p) => {
                if let Some(name) = key_name(&p.key) {
                    self.add_member(
                        owner,
                        name,
                        flags::PROPERTY,
                        DeclRef::Member(MemberDecl::Getter(p)),
                        false,
                    );
                }
                self.opt_ann(p.type_ann.as_deref());
            }
            TsTypeElement::TsSetterSignature(p) => {
                if let Some(name) = key_name(&p.key) {
                    self.add_member(
                        owner,
                        name,
                        flags::PROPERTY,
                        DeclRef::Member(MemberDecl::Setter(p)),
                        false,
                    );
                }
                self.scopes.push(FxHashMap::default());
                self.fn_params(std::slice::from_ref(&p.param));
                self.scopes.pop();
            }
            TsTypeElement::TsCallSignatureDecl(c) => {
                self.signature(owner, "__call", c.span.lo.0);
                self.scopes.push(FxHashMap::default());
                self.type_params(c.type_params.as_deref());
                self.fn_params(&c.params);
                self.opt_ann(c.type_ann.as_deref());
                self.scopes.pop();
            }
            TsTypeElement::TsConstructSignatureDecl(c) => {
                self.signature(owner, "__new", c.span.lo.0);
                self.scopes.push(FxHashMap::default());
                self.type_params(c.type_params.as_deref());
                self.fn_params(&c.params);
                self.opt_ann(c.type_ann.as_deref());
                self.scopes.pop();
            }
            TsTypeElement::TsIndexSignature(i) => self.index_signature(i, owner),
        }
    }

    /// `[key: K]: V` in an interface, type literal or class: an `__index` symbol, and
    /// `key` declared in the signature's own scope.
    fn index_signature(&mut self, i: &'a TsIndexSignature, owner: Option<SymbolId>) {
        self.signature(owner, "__index", i.span.lo.0);
        self.scopes.push(FxHashMap::default());
        self.fn_params(&i.params);
        self.opt_ann(i.type_ann.as_deref());
        self.scopes.pop();
    }

    /// A signature's symbol (`__call`, `__new`, `__index`, `__constructor`), as TypeScript's
    /// binder makes one. It is not a member: the checker reads signatures from the syntax.
    fn signature(&mut self, owner: Option<SymbolId>, name: &'static str, pos: u32) {
        let id = self.new_symbol(
            Atom::from(name),
            flags::SIGNATURE,
            DeclRef::Syntax(SyntaxDecl::Signature(pos)),
        );
        self.out.symbols[id.index as usize].parent = owner.filter(|o| o.file == self.file);
    }

    /// A symbol for a container without a name (`__type`, `__object`, `__function`, ...).
    fn anonymous(&mut self, name: &'static str, decl: SyntaxDecl<'a>) -> SymbolId {
        self.new_symbol(Atom::from(name), flags::ANONYMOUS, DeclRef::Syntax(decl))
    }

    /// The parameters of a signature without a body (method and call signatures, function
    /// and constructor types, index signatures, setters): each declared in the signature's
    /// scope, as TypeScript declares them in its `locals`, then their annotations walked.
    fn fn_params(&mut self, params: &'a [TsFnParam]) {
        for p in params {
            self.out.nodes += 1;
            let (ident, ann) = match p {
                TsFnParam::Ident(b) => (Some(b), b.type_ann.as_deref()),
                TsFnParam::Rest(r) => match &*r.arg {
                    Pat::Ident(b) => (Some(b), r.type_ann.as_deref()),
                    _ => (None, r.type_ann.as_deref()),
                },
                TsFnParam::Array(a) => (None, a.type_ann.as_deref()),
                TsFnParam::Object(o) => (None, o.type_ann.as_deref()),
            };
            if let Some(b) = ident {
                self.declare(
                    &b.id.sym,
                    b.id.span.lo.0,
                    flags::PARAMETER,
                    DeclRef::Binding {
                        ident: b,
                        init: None,
                        in_pattern: false,
                        is_const: false,
                        from: None,
                    },
                );
            }
            self.opt_ann(ann);
        }
    }

    fn opt_ann(&mut self, ann: Option<&'a TsTypeAnn>) {
        if let Some(a) = ann {
            self.ty(&a.type_ann);
        }
    }

    fn class_with_owner(&mut self, c: &'a Class, owner: Option<SymbolId>) {
        for d in &c.decorators {
            self.expr(&d.expr);
        }
        self.scopes.push(FxHashMap::default());
        self.type_params(c.type_params.as_deref());
        if let Some(s) = &c.super_class {
            self.expr(s);
        }
        if let Some(args) = &c.super_type_params {
            for t in &args.params {
                self.ty(t);
            }
        }
        for i in &c.implements {
            self.heritage(i);
        }
        let outer_enclosing = std::mem::replace(&mut self.enclosing_owner, owner);
        for m in &c.body {
            self.out.nodes += 1;
            match m {
                ClassMember::Constructor(ctor) => {
                    self.signature(owner, "__constructor", ctor.span.lo.0);
                    if let Some(o) = owner {
                        self.out.this_owners.insert(ctor.span.lo.0, o);
                    }
                    self.scopes.push(FxHashMap::default());
                    for p in &ctor.params {
                        match p {
                            ParamOrTsParamProp::Param(p) => self.param(&p.pat),
                            ParamOrTsParamProp::TsParamProp(pp) => {
                                let b = match &pp.param {
                                    TsParamPropParam::Ident(b) => b,
                                    TsParamPropParam::Assign(a) => match &*a.left {
                                        Pat::Ident(b) => b,
                                        _ => continue,
                                    },
                                };
                                self.add_member(
                                    owner,
                                    b.id.sym.clone(),
                                    flags::PROPERTY,
                                    DeclRef::Member(MemberDecl::ParamProp(b)),
                                    false,
                                );
                                match &pp.param {
                                    TsParamPropParam::Ident(_) => {
                                        self.declare(
                                            &b.id.sym,
                                            b.id.span.lo.0,
                                            flags::PARAMETER,
                                            DeclRef::Binding {
                                                ident: b,
                                                init: None,
                                                in_pattern: false,
                                                is_const: false,
                                                from: None,
                                            },
                                        );
                                        self.opt_ann(b.type_ann.as_deref());
                                    }
                                    TsParamPropParam::Assign(a) => {
                                        self.hoist_pat(
                                            &a.left,
                                            Some(&a.right),
                                            false,
                                            ExportTo::Nowhere,
                                        );
                                        self.pat(&a.left);
                                        self.expr(&a.right);
                                    }
                                }
                            }
                        }
                    }
                    if let Some(body) = &ctor.body {
                        let outer = std::mem::replace(&mut self.current_this, owner);
                        let outer_type = std::mem::replace(&mut self.this_type_owner, owner);
                        self.block(&body.stmts);
                        self.this_type_owner = outer_type;
                        self.current_this = outer;
                    }
                    self.scopes.pop();
                }
                ClassMember::Method(method) => {
                    if let Some(o) = owner.filter(|_| !method.is_static) {
                        self.out.this_owners.insert(method.function.span.lo.0, o);
                    }
                    if let Some(name) = prop_name(&method.key) {
                        self.add_member(
                            owner,
                            name,
                            flags::METHOD,
                            DeclRef::Member(MemberDecl::ClassMethod(method)),
                            method.is_static,
                        );
                    }
                    self.prop_key(&method.key);
                    self.next_fn_this_type = owner.filter(|_| !method.is_static);
                    self.function(&method.function);
                }
                ClassMember::PrivateMethod(method) => {
                    self.next_fn_this_type = owner.filter(|_| !method.is_static);
                    self.function(&method.function)
                }
                ClassMember::ClassProp(p) => {
                    for d in &p.decorators {
                        self.expr(&d.expr);
                    }
                    if let (Some(o), Some(v), false) = (owner, &p.value, p.is_static) {
                        use swc_common::Spanned;
                        self.out.this_owners.insert(v.span().lo.0, o);
                    }
                    if let Some(name) = prop_name(&p.key) {
                        self.add_member(
                            owner,
                            name,
                            flags::PROPERTY,
                            DeclRef::Member(MemberDecl::ClassProp(p)),
                            p.is_static,
                        );
                    }
                    self.prop_key(&p.key);
                    let outer = self.enter_member(owner, p.is_static);
                    self.opt_ann(p.type_ann.as_deref());
                    self.opt_expr(p.value.as_deref());
                    self.this_type_owner = outer;
                }
                ClassMember::PrivateProp(p) => {
                    for d in &p.decorators {
                        self.expr(&d.expr);
                    }
                    let outer = self.enter_member(owner, p.is_static);
                    self.opt_ann(p.type_ann.as_deref());
                    self.opt_expr(p.value.as_deref());
                    self.this_type_owner = outer;
                }
                ClassMember::TsIndexSignature(i) => {
                    let outer = self.enter_member(owner, i.is_static);
                    self.index_signature(i, owner);
                    self.this_type_owner = outer;
                }
                ClassMember::StaticBlock(b) => self.block(&b.body.stmts),
                ClassMember::AutoAccessor(a) => {
                    let outer = self.enter_member(owner, a.is_static);
                    self.opt_ann(a.type_ann.as_deref());
                    self.opt_expr(a.value.as_deref());
                    self.this_type_owner = outer;
                }
                ClassMember::Empty(_) => {}
            }
        }
        self.enclosing_owner = outer_enclosing;
        self.scopes.pop();
    }

    /// Starts walking a class member: a `this` type in it denotes the class's unless the
    /// member is static. Returns the owner to restore afterwards.
    fn enter_member(&mut self, owner: Option<SymbolId>, is_static: bool) -> Option<SymbolId> {
        let own = owner.filter(|_| !is_static);
        std::mem::replace(&mut self.this_type_owner, own)
    }

    fn prop_key(&mut self, key: &'a PropName) {
        if let PropName::Computed(c) = key {
            self.expr(&c.expr);
        }
    }

    fn function(&mut self, f: &'a Function) {
        // A method's `this` is its class (recorded before the walk); any other function's is
        // its own.
        let own_this = self.out.this_owners.get(&f.span.lo.0).copied();
        let outer = std::mem::replace(&mut self.current_this, own_this);
        // Likewise a `this` type: a method's is its class's, another function's is none.
        let own_type = self.next_fn_this_type.take();
        let outer_type = std::mem::replace(&mut self.this_type_owner, own_type);
        self.function_inner(f);
        self.this_type_owner = outer_type;
        self.current_this = outer;
    }

    fn function_inner(&mut self, f: &'a Function) {
        for d in &f.decorators {
            self.expr(&d.expr);
        }
        self.scopes.push(FxHashMap::default());
        self.type_params(f.type_params.as_deref());
        for p in &f.params {
            for d in &p.decorators {
                self.expr(&d.expr);
            }
            self.param(&p.pat);
        }
        self.opt_ann(f.return_type.as_deref());
        if let Some(body) = &f.body {
            self.in_function(f.span.lo.0, |b| b.block(&body.stmts));
        }
        self.scopes.pop();
    }

    fn param(&mut self, p: &'a Pat) {
        self.hoist_pat(p, None, !matches!(p, Pat::Ident(_)), ExportTo::Nowhere);
        if let Pat::Ident(b) = p
            && let Some(&id) = self.out.node_symbols.get(&b.id.span.lo.0)
        {
            self.out.symbols[id.index as usize].flags |= flags::PARAMETER;
        }
        self.pat(p);
    }

    /// Walks a binding pattern's annotations and default values (the names are declared).
    fn pat(&mut self, p: &'a Pat) {
        self.out.nodes += 1;
        match p {
            Pat::Ident(b) => self.opt_ann(b.type_ann.as_deref()),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.pat(e);
                }
                self.opt_ann(a.type_ann.as_deref());
            }
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => {
                            self.prop_key(&kv.key);
                            self.pat(&kv.value);
                        }
                        ObjectPatProp::Assign(a) => self.opt_expr(a.value.as_deref()),
                        ObjectPatProp::Rest(r) => self.pat(&r.arg),
                    }
                }
                self.opt_ann(o.type_ann.as_deref());
            }
            Pat::Rest(r) => {
                self.pat(&r.arg);
                self.opt_ann(r.type_ann.as_deref());
            }
            Pat::Assign(a) => {
                self.pat(&a.left);
                self.expr(&a.right);
            }
            Pat::Expr(e) => self.expr(e),
            Pat::Invalid(_) => {}
        }
    }

    fn opt_expr(&mut self, e: Option<&'a Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn args(&mut self, args: &'a [ExprOrSpread]) {
        for a in args {
            self.expr(&a.expr);
        }
    }

    fn type_args(&mut self, args: Option<&'a TsTypeParamInstantiation>) {
        if let Some(args) = args {
            for t in &args.params {
                self.ty(t);
            }
        }
    }

    fn expr(&mut self, e: &'a Expr) {
        self.out.nodes += 1;
        match e {
            Expr::Ident(i) => self.reference(i),
            // `this` is the root of narrowable references (`this.x`): its flow node.
            Expr::This(t) => {
                self.out.flow_of.insert(t.span.lo.0, self.flow);
            }
            Expr::Lit(_) | Expr::Invalid(_) | Expr::MetaProp(_) | Expr::PrivateName(_) => {}
            Expr::Array(a) => {
                for el in a.elems.iter().flatten() {
                    self.expr(&el.expr);
                }
            }
            Expr::Object(o) => {
                let owner = self.anonymous("__object", SyntaxDecl::ObjectLiteral(o));
                for p in &o.props {
                    if let PropOrSpread::Prop(p) = p
                        && let Some((name, flags)) = object_prop_name(p)
                    {
                        let decl = DeclRef::Syntax(SyntaxDecl::ObjectProp(p));
                        self.add_member(Some(owner), name, flags, decl, false);
                    }
                    match p {
                        PropOrSpread::Spread(s) => self.expr(&s.expr),
                        PropOrSpread::Prop(p) => match &**p {
                            Prop::Shorthand(i) => self.reference(i),
                            Prop::KeyValue(kv) => {
                                self.prop_key(&kv.key);
                                self.expr(&kv.value);
                            }
                            Prop::Assign(a) => self.expr(&a.value),
                            Prop::Getter(g) => {
                                self.prop_key(&g.key);
                                self.function(&g.function);
                            }
                            Prop::Setter(st) => {
                                self.prop_key(&st.key);
                                self.function(&st.function);
                            }
                            Prop::Method(m) => {
                                self.prop_key(&m.key);
                                self.function(&m.function);
                            }
                        },
                    }
                }
            }
            Expr::Fn(f) => {
                self.scopes.push(FxHashMap::default());
                if let Some(id) = &f.ident {
                    self.declare(
                        &id.sym,
                        id.span.lo.0,
                        flags::FUNCTION,
                        DeclRef::Function(&f.function),
                    );
                } else {
                    self.anonymous("__function", SyntaxDecl::FunctionExpr(&f.function));
                }
                self.capturing = true;
                self.function(&f.function);
                self.capturing = false;
                self.scopes.pop();
            }
            Expr::Unary(u) => self.expr(&u.arg),
            Expr::Update(u) => {
                self.expr(&u.arg);
                if let Expr::Ident(i) = &*u.arg {
                    self.assignment(i.span.lo.0, None);
                }
            }
            Expr::Bin(b) => {
                self.expr(&b.left);
                let short = match b.op {
                    BinaryOp::LogicalAnd => Some(true),
                    BinaryOp::LogicalOr => Some(false),
                    _ => None,
                };
                let pre = self.flow;
                match short {
                    Some(continue_when) => {
                        self.flow = self.condition(&b.left, continue_when, pre);
                        self.expr(&b.right);
                        let after_right = self.flow;
                        let skipped = self.condition(&b.left, !continue_when, pre);
                        self.flow = self.join(vec![after_right, skipped]);
                    }
                    None if b.op == BinaryOp::NullishCoalescing => {
                        self.expr(&b.right);
                        let after_right = self.flow;
                        self.flow = self.join(vec![after_right, pre]);
                    }
                    None => self.expr(&b.right),
                }
            }
            Expr::Assign(a) => {
                match &a.left {
                    AssignTarget::Simple(s) => match s {
                        SimpleAssignTarget::Ident(b) => self.reference(&b.id),
                        SimpleAssignTarget::Member(m) => self.member(m),
                        SimpleAssignTarget::Paren(p) => self.expr(&p.expr),
                        SimpleAssignTarget::TsAs(x) => self.expr(&x.expr),
                        SimpleAssignTarget::TsNonNull(x) => self.expr(&x.expr),
                        SimpleAssignTarget::TsSatisfies(x) => self.expr(&x.expr),
                        SimpleAssignTarget::TsTypeAssertion(x) => self.expr(&x.expr),
                        SimpleAssignTarget::OptChain(o) => self.opt_chain(o),
                        SimpleAssignTarget::SuperProp(_)
                        | SimpleAssignTarget::TsInstantiation(_)
                        | SimpleAssignTarget::Invalid(_) => {}
                    },
                    AssignTarget::Pat(p) => match p {
                        AssignTargetPat::Array(a) => {
                            for e in a.elems.iter().flatten() {
                                self.assign_pat(e);
                            }
                        }
                        AssignTargetPat::Object(o) => {
                            for prop in &o.props {
                                match prop {
                                    ObjectPatProp::KeyValue(kv) => self.assign_pat(&kv.value),
                                    ObjectPatProp::Assign(a) => {
                                        self.reference(&a.key.id);
                                        self.opt_expr(a.value.as_deref());
                                    }
                                    ObjectPatProp::Rest(r) => self.assign_pat(&r.arg),
                                }
                            }
                        }
                        AssignTargetPat::Invalid(_) => {}
                    },
                }
                self.expr(&a.right);
                match &a.left {
                    AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => {
                        let value = (a.op == AssignOp::Assign).then_some(&*a.right);
                        self.assignment(b.id.span.lo.0, value);
                    }
                    AssignTarget::Simple(SimpleAssignTarget::Member(m))
                        if is_property_reference(m) && self.flow != UNREACHABLE =>
                    {
                        let value = (a.op == AssignOp::Assign).then_some(&*a.right);
                        let antecedent = self.flow;
                        self.flow = self.add_flow(FlowNode::PropertyAssignment {
                            target: m,
                            value,
                            antecedent,
                        });
                    }
                    AssignTarget::Pat(AssignTargetPat::Array(p)) => {
                        for e in p.elems.iter().flatten() {
                            self.pattern_assignment(e, None);
                        }
                    }
                    AssignTarget::Pat(AssignTargetPat::Object(o)) => {
                        for prop in &o.props {
                            match prop {
                                ObjectPatProp::KeyValue(kv) => {
                                    self.pattern_assignment(&kv.value, None)
                                }
                                ObjectPatProp::Assign(p) => {
                                    self.assignment(p.key.id.span.lo.0, None)
                                }
                                ObjectPatProp::Rest(r) => self.pattern_assignment(&r.arg, None),
                            }
                        }
                    }
                    _ => {}
                }
            }
            Expr::Member(m) => self.member(m),
            Expr::SuperProp(s) => {
                if let SuperProp::Computed(c) = &s.prop {
                    self.expr(&c.expr);
                }
            }
            Expr::Cond(c) => {
                self.expr(&c.test);
                let pre = self.flow;
                self.flow = self.condition(&c.test, true, pre);
                self.expr(&c.cons);
                let after_cons = self.flow;
                self.flow = self.condition(&c.test, false, pre);
                self.expr(&c.alt);
                let after_alt = self.flow;
                self.flow = self.join(vec![after_cons, after_alt]);
            }
            Expr::Call(c) => {
                if let Callee::Expr(callee) = &c.callee {
                    self.expr(callee);
                }
                self.type_args(c.type_args.as_deref());
                self.args(&c.args);
            }
            Expr::New(n) => {
                self.expr(&n.callee);
                self.type_args(n.type_args.as_deref());
                if let Some(args) = &n.args {
                    self.args(args);
                }
            }
            Expr::Seq(s) => {
                for e in &s.exprs {
                    self.expr(e);
                }
            }
            Expr::Tpl(t) => {
                for e in &t.exprs {
                    self.expr(e);
                }
            }
            Expr::TaggedTpl(t) => {
                self.expr(&t.tag);
                for e in &t.tpl.exprs {
                    self.expr(e);
                }
            }
            Expr::Arrow(a) => {
                self.anonymous("__function", SyntaxDecl::Arrow(a));
                self.scopes.push(FxHashMap::default());
                self.type_params(a.type_params.as_deref());
                for p in &a.params {
                    self.param(p);
                }
                self.opt_ann(a.return_type.as_deref());
                self.capturing = true;
                self.in_function(a.span.lo.0, |b| match &*a.body {
                    ArrowFunctionBody::FunctionBody(body) => b.block(&body.stmts),
                    ArrowFunctionBody::Expr(e) => b.expr(e),
                });
                self.scopes.pop();
            }
            Expr::Class(c) => {
                self.scopes.push(FxHashMap::default());
                // An anonymous class gets its `__class` symbol, but no member table: the
                // checker types class expressions from their syntax.
                let owner = match &c.ident {
                    Some(id) => Some(self.declare(
                        &id.sym,
                        id.span.lo.0,
                        flags::CLASS,
                        DeclRef::Class(&c.class),
                    )),
                    None => {
                        self.anonymous("__class", SyntaxDecl::ClassExpr(&c.class));
                        None
                    }
                };
                self.class_with_owner(&c.class, owner);
                self.scopes.pop();
            }
            Expr::Yield(y) => self.opt_expr(y.arg.as_deref()),
            Expr::Await(a) => self.expr(&a.arg),
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::TsTypeAssertion(t) => {
                self.expr(&t.expr);
                self.ty(&t.type_ann);
            }
            Expr::TsConstAssertion(t) => self.expr(&t.expr),
            Expr::TsNonNull(t) => self.expr(&t.expr),
            Expr::TsAs(t) => {
                self.expr(&t.expr);
                self.ty(&t.type_ann);
            }
            Expr::TsSatisfies(t) => {
                self.expr(&t.expr);
                self.ty(&t.type_ann);
            }
            Expr::TsInstantiation(t) => {
                self.expr(&t.expr);
                self.type_args(Some(&t.type_args));
            }
            Expr::OptChain(o) => self.opt_chain(o),
            Expr::JSXElement(el) => self.jsx_element(el),
            Expr::JSXFragment(f) => self.jsx_children(&f.children),
            Expr::JSXMember(_) | Expr::JSXNamespacedName(_) | Expr::JSXEmpty(_) => {}
        }
    }

    fn jsx_element(&mut self, el: &'a JSXElement) {
        if let JSXElementName::Ident(i) = &el.opening.name
            && i.sym.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        {
            self.reference(i);
        }
        let owner = self.anonymous("__jsxAttributes", SyntaxDecl::JsxAttributes(&el.opening));
        for a in &el.opening.attrs {
            if let JSXAttrOrSpread::JSXAttr(a) = a
                && let JSXAttrName::Ident(name) = &a.name
            {
                let decl = DeclRef::Syntax(SyntaxDecl::JsxAttr(a));
                self.add_member(Some(owner), name.sym.clone(), flags::PROPERTY, decl, false);
            }
            match a {
                JSXAttrOrSpread::SpreadElement(s) => self.expr(&s.expr),
                JSXAttrOrSpread::JSXAttr(a) => match &a.value {
                    Some(JSXAttrValue::JSXExprContainer(c)) => {
                        if let JSXExpr::Expr(e) = &c.expr {
                            self.expr(e);
                        }
                    }
                    Some(JSXAttrValue::JSXElement(e)) => self.jsx_element(e),
                    Some(JSXAttrValue::JSXFragment(f)) => self.jsx_children(&f.children),
                    _ => {}
                },
            }
        }
        self.jsx_children(&el.children);
    }

    fn jsx_children(&mut self, children: &'a [JSXElementChild]) {
        for c in children {
            self.out.nodes += 1;
            match c {
                JSXElementChild::JSXExprContainer(c) => {
                    if let JSXExpr::Expr(e) = &c.expr {
                        self.expr(e);
                    }
                }
                JSXElementChild::JSXSpreadChild(s) => self.expr(&s.expr),
                JSXElementChild::JSXElement(e) => self.jsx_element(e),
                JSXElementChild::JSXFragment(f) => self.jsx_children(&f.children),
                JSXElementChild::JSXText(_) => {}
            }
        }
    }

    fn assign_pat(&mut self, p: &'a Pat) {
        match p {
            Pat::Ident(b) => self.reference(&b.id),
            Pat::Expr(e) => self.expr(e),
            Pat::Assign(a) => {
                self.assign_pat(&a.left);
                self.expr(&a.right);
            }
            Pat::Rest(r) => self.assign_pat(&r.arg),
            Pat::Array(a) => {
                for e in a.elems.iter().flatten() {
                    self.assign_pat(e);
                }
            }
            Pat::Object(o) => {
                for prop in &o.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => self.assign_pat(&kv.value),
                        ObjectPatProp::Assign(a) => self.reference(&a.key.id),
                        ObjectPatProp::Rest(r) => self.assign_pat(&r.arg),
                    }
                }
            }
            Pat::Invalid(_) => {}
        }
    }

    /// `f.prop = value` as a statement, where `f` is a function declaration or a `const`
    /// initialized by a function expression or arrow in this file: TypeScript's expando
    /// property, an export of `f`'s symbol that its type includes (`Button.displayName =
    /// "Button"`). Only the first assignment to a name declares it.
    fn expando(&mut self, a: &'a AssignExpr) {
        if a.op != AssignOp::Assign {
            return;
        }
        let AssignTarget::Simple(SimpleAssignTarget::Member(m)) = &a.left else {
            return;
        };
        let (Expr::Ident(obj), MemberProp::Ident(prop)) = (&*m.obj, &m.prop) else {
            return;
        };
        let Some(&owner) = self.out.node_symbols.get(&obj.span.lo.0) else {
            return;
        };
        if owner.file != self.file {
            return;
        }
        let sym = &self.out.symbols[owner.index as usize];
        let function_like = sym.decls.iter().any(|(_, d)| match d {
            DeclRef::Function(_) => true,
            DeclRef::Binding {
                init: Some(init),
                is_const: true,
                ..
            } => matches!(&**init, Expr::Arrow(_) | Expr::Fn(_)),
            _ => false,
        });
        if !function_like || sym.exports.contains_key(&prop.sym) {
            return;
        }
        let id = self.new_symbol(
            prop.sym.clone(),
            flags::PROPERTY,
            DeclRef::Syntax(SyntaxDecl::Expando(a)),
        );
        self.out.symbols[id.index as usize].parent = Some(owner);
        self.out.symbols[owner.index as usize]
            .exports
            .insert(prop.sym.clone(), id);
    }

    fn member(&mut self, m: &'a MemberExpr) {
        self.expr(&m.obj);
        if let MemberProp::Computed(c) = &m.prop {
            self.expr(&c.expr);
        }
    }

    fn opt_chain(&mut self, o: &'a OptChainExpr) {
        match &*o.base {
            OptChainBase::Member(m) => self.member(m),
            OptChainBase::Call(c) => {
                self.expr(&c.callee);
                self.type_args(c.type_args.as_deref());
                self.args(&c.args);
            }
        }
    }

    fn entity(&mut self, e: &'a TsEntityName) {
        match e {
            TsEntityName::Ident(i) => self.reference(i),
            TsEntityName::TsQualifiedName(q) => self.entity(&q.left),
        }
    }

    fn ty(&mut self, t: &'a TsType) {
        self.out.nodes += 1;
        match t {
            TsType::TsKeywordType(_) | TsType::TsLitType(_) => {}
            TsType::TsThisType(t) => {
                self.seen_this_type = true;
                if let Some(o) = self.this_type_owner {
                    self.out.this_type_owners.insert(t.span.lo.0, o);
                }
            }
            TsType::TsFnOrConstructorType(f) => {
                self.scopes.push(FxHashMap::default());
                let (tp, params, ann, lo) = match f {
                    TsFnOrConstructorType::TsFnType(f) => (
                        f.type_params.as_deref(),
                        &f.params,
                        &f.type_ann,
                        f.span.lo.0,
                    ),
                    TsFnOrConstructorType::TsConstructorType(f) => (
                        f.type_params.as_deref(),
                        &f.params,
                        &f.type_ann,
                        f.span.lo.0,
                    ),
                };
                if let Some(o) = self.enclosing_owner {
                    self.out.anon_owners.insert(lo, o);
                }
                self.type_params(tp);
                self.fn_params(params);
                self.ty(&ann.type_ann);
                self.scopes.pop();
            }
            TsType::TsTypeRef(r) => {
                self.entity(&r.type_name);
                self.type_args(r.type_params.as_deref());
            }
            TsType::TsTypeQuery(q) => {
                if let TsTypeQueryExpr::TsEntityName(e) = &q.expr_name {
                    self.entity(e);
                }
                self.type_args(q.type_args.as_deref());
            }
            TsType::TsTypeLit(l) => {
                if let Some(o) = self.enclosing_owner {
                    self.out.anon_owners.insert(l.span.lo.0, o);
                }
                let owner = self.anonymous("__type", SyntaxDecl::TypeLiteral(l));
                // A type literal's members have no `this` type (TypeScript reports TS2526).
                let outer = self.this_type_owner.take();
                for m in &l.members {
                    self.type_element(m, Some(owner));
                }
                self.this_type_owner = outer;
            }
            TsType::TsArrayType(a) => self.ty(&a.elem_type),
            TsType::TsTupleType(t) => {
                for e in &t.elem_types {
                    self.ty(&e.ty);
                }
            }
            TsType::TsOptionalType(o) => self.ty(&o.type_ann),
            TsType::TsRestType(r) => self.ty(&r.type_ann),
            TsType::TsUnionOrIntersectionType(u) => {
                let types = match u {
                    TsUnionOrIntersectionType::TsUnionType(u) => &u.types,
                    TsUnionOrIntersectionType::TsIntersectionType(i) => &i.types,
                };
                for t in types {
                    self.ty(t);
                }
            }
            TsType::TsConditionalType(c) => {
                self.ty(&c.check_type);
                self.scopes.push(FxHashMap::default());
                self.infer_params(&c.extends_type);
                self.ty(&c.extends_type);
                self.ty(&c.true_type);
                self.scopes.pop();
                self.ty(&c.false_type);
            }
            TsType::TsInferType(_) => {}
            TsType::TsParenthesizedType(p) => self.ty(&p.type_ann),
            TsType::TsTypeOperator(o) => self.ty(&o.type_ann),
            TsType::TsIndexedAccessType(i) => {
                self.ty(&i.obj_type);
                self.ty(&i.index_type);
            }
            TsType::TsMappedType(m) => {
                self.anonymous("__type", SyntaxDecl::Mapped(m));
                self.scopes.push(FxHashMap::default());
                self.declare(
                    &m.type_param.name.sym,
                    m.type_param.name.span.lo.0,
                    flags::TYPE_PARAM,
                    DeclRef::TypeParam(&m.type_param),
                );
                if let Some(c) = &m.type_param.constraint {
                    self.ty(c);
                }
                if let Some(n) = &m.name_type {
                    self.ty(n);
                }
                if let Some(t) = &m.type_ann {
                    self.ty(t);
                }
                self.scopes.pop();
            }
            TsType::TsTypePredicate(p) => {
                if let TsThisTypeOrIdent::TsThisType(_) = &p.param_name {
                    self.seen_this_type = true;
                }
                if let Some(a) = &p.type_ann {
                    self.ty(&a.type_ann);
                }
            }
            TsType::TsImportType(i) => self.type_args(i.type_args.as_deref()),
        }
    }

    /// Declares the `infer X` type parameters of a conditional type's extends clause.
    fn infer_params(&mut self, t: &'a TsType) {
        match t {
            TsType::TsInferType(i) => {
                self.declare(
                    &i.type_param.name.sym,
                    i.type_param.name.span.lo.0,
                    flags::TYPE_PARAM,
                    DeclRef::TypeParam(&i.type_param),
                );
            }
            TsType::TsTypeRef(r) => {
                if let Some(args) = &r.type_params {
                    for a in &args.params {
                        self.infer_params(a);
                    }
                }
            }
            TsType::TsArrayType(a) => self.infer_params(&a.elem_type),
            TsType::TsTupleType(t) => {
                for e in &t.elem_types {
                    self.infer_params(&e.ty);
                }
            }
            TsType::TsRestType(r) => self.infer_params(&r.type_ann),
            TsType::TsParenthesizedType(p) => self.infer_params(&p.type_ann),
            TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsUnionType(u)) => {
                for t in &u.types {
                    self.infer_params(t);
                }
            }
            TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsIntersectionType(i)) => {
                for t in &i.types {
                    self.infer_params(t);
                }
            }
            TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f)) => {
                self.infer_params(&f.type_ann.type_ann);
                self.infer_fn_params(&f.params);
            }
            TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsConstructorType(f)) => {
                self.infer_params(&f.type_ann.type_ann);
                self.infer_fn_params(&f.params);
            }
            TsType::TsTypeOperator(o) => self.infer_params(&o.type_ann),
            TsType::TsOptionalType(o) => self.infer_params(&o.type_ann),
            TsType::TsTypeLit(l) => {
                for m in &l.members {
                    match m {
                        TsTypeElement::TsPropertySignature(p) => {
                            if let Some(a) = &p.type_ann {
                                self.infer_params(&a.type_ann);
                            }
                        }
                        TsTypeElement::TsMethodSignature(m) => {
                            self.infer_fn_params(&m.params);
                            if let Some(a) = &m.type_ann {
                                self.infer_params(&a.type_ann);
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// The `infer X` declarations in parameter annotations, rest parameters included.
    fn infer_fn_params(&mut self, params: &'a [TsFnParam]) {
        for p in params {
            let ann = match p {
                TsFnParam::Ident(b) => b.type_ann.as_deref(),
                TsFnParam::Rest(r) => r.type_ann.as_deref(),
                _ => None,
            };
            if let Some(a) = ann {
                self.infer_params(&a.type_ann);
            }
        }
    }
}

/// The name and flags of an object literal member TypeScript declares (`{ a: 1, b, m() {} }`);
/// computed names it cannot know are skipped.
fn object_prop_name(p: &Prop) -> Option<(Atom, u32)> {
    match p {
        Prop::Shorthand(i) => Some((i.sym.clone(), flags::PROPERTY)),
        Prop::KeyValue(kv) => prop_name(&kv.key).map(|n| (n, flags::PROPERTY)),
        Prop::Assign(a) => Some((a.key.sym.clone(), flags::PROPERTY)),
        Prop::Getter(g) => prop_name(&g.key).map(|n| (n, flags::PROPERTY)),
        Prop::Setter(s) => prop_name(&s.key).map(|n| (n, flags::PROPERTY)),
        Prop::Method(m) => prop_name(&m.key).map(|n| (n, flags::METHOD)),
    }
}
