//! Binding: scopes, symbols, declaration merging and module resolution.
//!
//! Each file is bound on its own (in parallel) into a [`FileBinding`]: a symbol per
//! declaration, the symbol every identifier denotes, the file's exports and imports.
//! A short sequential step then merges the global declarations of script files, the
//! standard library and `declare global` blocks into one global table.
//!
//! **Symbol ids do not depend on the checker count**: they are fixed here, before any
//! checker starts, so anything derived from them is the same for 1 or N checkers.
//!
//! This module holds the data model, [`Scope`] and the binder's state; the walk is one
//! `impl Binder` block per concern in `bind/` (hoisting, statements, declarations,
//! expressions, type nodes, the flow graph), beside module resolution and merging. The
//! control-flow graph the binder builds is [`flow`]'s: the binder is its only writer, the
//! checker's narrowing its reader.
mod declarations;
mod expressions;
pub mod flow;
mod flow_graph;
mod hoist;
mod merge;
mod modules;
mod statements;
mod type_nodes;

pub use merge::{VARIANCE_MARKERS, merge_globals};
pub use modules::{resolve_import, resolve_module};

use std::sync::Arc;

use rustc_hash::FxHashMap;
use swc_atoms::Atom;
use swc_ecma_ast::*;

use crate::parse::ParsedFile;
use flow::{FlowId, FlowNode, UNREACHABLE};

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

/// Binds every file, in parallel on the current rayon pool; bare imports do not resolve.
pub fn bind_all<'a>(files: &'a [ParsedFile]) -> Bound<'a> {
    bind_all_with_roots(files, &[])
}

/// Binds every file, in parallel on the current rayon pool, bare imports resolving through
/// `roots` (see [`resolve_import`]).
pub fn bind_all_with_roots<'a>(files: &'a [ParsedFile], roots: &[(&str, &str)]) -> Bound<'a> {
    use rayon::prelude::*;
    let paths: FxHashMap<&str, u32> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i as u32))
        .collect();
    let bindings: Vec<FileBinding<'a>> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| bind_file(i as u32, f, &paths, roots))
        .collect();
    Bound { files: bindings }
}

/// Binds one file; bare imports resolve through `roots` (see [`resolve_import`]).
pub fn bind_file<'a>(
    index: u32,
    file: &'a ParsedFile,
    paths: &FxHashMap<&str, u32>,
    roots: &[(&str, &str)],
) -> FileBinding<'a> {
    let mut b = Binder {
        file: index,
        path: &file.path,
        paths,
        roots,
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
    /// The corpus's module roots: how it imports its own packages by bare names.
    roots: &'p [(&'p str, &'p str)],
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
}
