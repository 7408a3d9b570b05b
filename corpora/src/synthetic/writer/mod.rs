//! The project writer: lays out folders and files, then fills each module with items
//! whose every use of another symbol is well-typed by construction, except for the
//! deliberate errors it records.
//!
//! One `impl Gen` per concern: `layout` (which files, where, of what kind and size),
//! `imports` (what a module sees and how it imports it), `items/` (top-level items, one
//! file per kind), `stmts` (function bodies and the deliberate errors), `types` (type
//! expressions), `exprs` and `calls` (expressions of a wanted type), `locals` (the
//! function being written). This file holds the generator's state and the line writer.

mod calls;
mod exprs;
mod imports;
mod items;
mod layout;
mod locals;
mod stmts;
mod types;

use super::model::*;
use super::profile::Shape;
use super::rng::Rng;
use super::words::{self, Names};
use super::{DeliberateError, ErrorCode};
use crate::SourceFile;
use std::collections::{BTreeMap, HashSet};

/// Names the generated code must not declare: the fixed modules' exports and the
/// library's globals.
const RESERVED_NAMES: &[&str] = &[
    "identity",
    "firstOr",
    "pluck",
    "groupBy",
    "clamp",
    "Store",
    "createStore",
    "Collection",
    "retry",
    "ColumnOptions",
    "ColumnType",
    "ColumnMetadata",
    "columns",
    "entityNames",
    "hooks",
    "Entity",
    "Column",
    "PrimaryGeneratedColumn",
    "ManyToOne",
    "OneToMany",
    "BeforeInsert",
    "Object",
    "Function",
    "String",
    "Number",
    "Boolean",
    "Symbol",
    "Array",
    "ReadonlyArray",
    "Map",
    "Set",
    "Promise",
    "PromiseLike",
    "Error",
    "TypeError",
    "RangeError",
    "Date",
    "Math",
    "JSON",
    "RegExp",
    "Record",
    "Partial",
    "Required",
    "Readonly",
    "Pick",
    "Omit",
    "Exclude",
    "Extract",
    "NonNullable",
    "Parameters",
    "ReturnType",
    "Awaited",
    "Iterator",
    "Iterable",
    "JSX",
    "Console",
    "console",
    "PropertyKey",
    "ArrayLike",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ts,
    Tsx,
    Dts,
}

struct Module {
    path: String,
    folder: usize,
    kind: Kind,
}

struct Folder {
    path: String,
    /// Set once the folder's `index.ts` is written.
    has_index: bool,
}

/// A generated project: its files and where its deliberate errors are.
pub struct Output {
    pub files: Vec<SourceFile>,
    pub errors: Vec<DeliberateError>,
}

pub fn generate(shape: &Shape, target_bytes: u64, seed: u64) -> Output {
    let mut g = Gen::new(shape, seed);
    g.run(target_bytes);
    Output {
        files: g.files,
        errors: g.errors,
    }
}

struct Local {
    name: String,
    ty: Ty,
    /// A parameter: its type is as declared, not narrowed by a literal initialiser.
    param: bool,
}

struct Gen<'s> {
    shape: &'s Shape,
    rng: Rng,
    names: Names,
    model: Model,
    modules: Vec<Module>,
    exports: Vec<Symbols>,
    folders: Vec<Folder>,
    util_module: Option<usize>,
    decorators_module: Option<usize>,
    files: Vec<SourceFile>,
    /// Bytes of all files so far.
    bytes_out: u64,
    errors: Vec<DeliberateError>,
    /// Source bytes left before the next deliberate error is due.
    error_budget: isize,

    // The module being written.
    cur: usize,
    out: String,
    scope: Symbols,
    /// module -> imported name -> whether it is used in type positions only.
    used: BTreeMap<usize, BTreeMap<String, bool>>,
    locals: Vec<Local>,
    local_names: HashSet<String>,
    in_async: bool,
    /// Deliberate errors of this module: (line within the body, column, code).
    pending: Vec<(u32, u32, ErrorCode)>,
    error_due: bool,
    /// Indentation of the statement being written, for multi-line object literals.
    expr_indent: usize,
    /// Switch subjects being written: inside a case the subject is narrowed.
    switching: Vec<String>,
}

impl<'s> Gen<'s> {
    fn new(shape: &'s Shape, seed: u64) -> Self {
        Gen {
            shape,
            rng: Rng::new(seed),
            names: Names::new(RESERVED_NAMES),
            model: Model::default(),
            modules: Vec::new(),
            exports: Vec::new(),
            folders: Vec::new(),
            util_module: None,
            decorators_module: None,
            files: Vec::new(),
            bytes_out: 0,
            errors: Vec::new(),
            error_budget: shape.error_every_bytes as isize,
            cur: 0,
            out: String::new(),
            scope: Symbols::default(),
            used: BTreeMap::new(),
            locals: Vec::new(),
            local_names: HashSet::new(),
            in_async: false,
            pending: Vec::new(),
            error_due: false,
            expr_indent: 0,
            switching: Vec::new(),
        }
    }

    /// The interfaces in scope that `keep` accepts, in the order they came into scope.
    fn ifaces_in_scope(&self, keep: impl Fn(&IfaceDef) -> bool) -> Vec<usize> {
        kept(&self.scope.ifaces, &self.model.ifaces, keep)
    }

    /// The functions in scope that `keep` accepts, in the order they came into scope.
    fn funcs_in_scope(&self, keep: impl Fn(&FuncDef) -> bool) -> Vec<usize> {
        kept(&self.scope.funcs, &self.model.funcs, keep)
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }

    fn current_line(&self) -> u32 {
        self.out.matches('\n').count() as u32 + 1
    }

    fn doc(&mut self, indent: usize, subject: &str) {
        let verb = *self
            .rng
            .pick(&["Describes", "Holds", "Tracks", "Keeps", "Returns"]);
        let what = *self.rng.pick(words::WORDS);
        if self.rng.chance(500) {
            self.line(indent, &format!("/** {verb} the {what} {subject}. */"));
        } else {
            self.line(indent, "/**");
            self.line(indent, &format!(" * {verb} the {what} {subject}."));
            if self.rng.chance(400) {
                let w = *self.rng.pick(words::WORDS);
                self.line(indent, " *");
                self.line(
                    indent,
                    &format!(" * Kept {w} so callers can compare it without a copy."),
                );
            }
            self.line(indent, " */");
        }
    }
}

fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "delete"
            | "default"
            | "new"
            | "class"
            | "function"
            | "return"
            | "this"
            | "void"
            | "in"
            | "of"
            | "let"
            | "enum"
            | "package"
            | "private"
            | "public"
            | "static"
            | "interface"
            | "yield"
            | "await"
            | "arguments"
            | "eval"
            | "index"
    )
}

/// The indices in `ids` whose definition in `defs` `keep` accepts, in order.
fn kept<T>(ids: &[usize], defs: &[T], keep: impl Fn(&T) -> bool) -> Vec<usize> {
    ids.iter().copied().filter(|&i| keep(&defs[i])).collect()
}
