//! The project writer: lays out folders and files, then fills each module with items
//! whose every use of another symbol is well-typed by construction, except for the
//! deliberate errors it records.

mod items;
mod stmts;

use super::model::*;
use super::profile::Shape;
use super::rng::Rng;
use super::words::{self, Names};
use super::{DeliberateError, ErrorCode};
use crate::SourceFile;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

const UTIL_SOURCE: &str = include_str!("../templates/util.ts");
const DECORATORS_SOURCE: &str = include_str!("../templates/decorators.ts");

/// Expressions nest no deeper than this before preferring names and short literals.
const MAX_DEPTH: u32 = 3;

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

/// Interfaces and classes nest no deeper than this (see [`Model::nest`]).
const MAX_NEST: u8 = 3;

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

    // ----- layout -------------------------------------------------------------------

    fn run(&mut self, target_bytes: u64) {
        let sizes = self.file_sizes(target_bytes);
        let plan = self.plan_layout(&sizes);
        // Every file overshoots its size by part of an item; later files make up for it,
        // so the corpus as a whole lands on the target.
        let mut planned = 0u64;
        let mut last_folder = None;
        for (size, folder, kind) in plan {
            planned += size as u64;
            if last_folder != Some(folder) {
                if let Some(prev) = last_folder {
                    self.write_index(prev);
                }
                last_folder = Some(folder);
            }
            if self.util_module.is_none() && kind != Kind::Dts && !self.all_dts() {
                self.write_fixed_module(folder, "util", UTIL_SOURCE);
                self.util_module = Some(self.modules.len() - 1);
            }
            if self.decorators_module.is_none()
                && self.shape.mix.entity > 0
                && kind != Kind::Dts
                && self.modules.len() > 1
            {
                self.write_fixed_module(folder, "decorators", DECORATORS_SOURCE);
                self.decorators_module = Some(self.modules.len() - 1);
            }
            let written = self.written_bytes();
            if written >= target_bytes {
                break;
            }
            let behind = planned.saturating_sub(written) as usize;
            self.write_module(folder, kind, behind.clamp(300, 2 * size.max(300)));
        }
        if let Some(prev) = last_folder {
            self.write_index(prev);
        }
    }

    fn written_bytes(&self) -> u64 {
        self.bytes_out
    }

    fn push_file(&mut self, path: String, bytes: Vec<u8>) {
        self.bytes_out += bytes.len() as u64;
        self.files.push(SourceFile { path, bytes });
    }

    fn all_dts(&self) -> bool {
        self.shape.dts_per_mille >= 1000
    }

    /// Log-normal file sizes around the profile's median until they add up to the target.
    fn file_sizes(&mut self, target_bytes: u64) -> Vec<usize> {
        let mut rng = self.rng.fork(1);
        let mut sizes = Vec::new();
        let mut total = 0u64;
        let max = self.shape.max_file_bytes.max(1024);
        while total < target_bytes {
            let draw = self.shape.median_file_bytes * (self.shape.sigma * rng.normal()).exp();
            let left = (target_bytes - total) as usize;
            let mut size = (draw as usize).clamp(600, max);
            // Do not leave a sliver behind: fold a small remainder into this file.
            if left < size + 600 || left < 1200 {
                size = left.max(300);
            }
            total += size as u64;
            sizes.push(size);
        }
        sizes
    }

    /// Assigns each file a folder and a kind; folders are written one after another.
    fn plan_layout(&mut self, sizes: &[usize]) -> Vec<(usize, usize, Kind)> {
        let mut rng = self.rng.fork(2);
        let (lo, hi) = self.shape.files_per_folder;
        let mut plan = Vec::with_capacity(sizes.len());
        let mut taken_folders = HashSet::new();
        let mut i = 0;
        let mut round = 0;
        while i < sizes.len() {
            for top in self.shape.folders {
                if i >= sizes.len() {
                    break;
                }
                let path = if round == 0 && lo >= 32 {
                    top.to_string()
                } else {
                    let mut path = format!("{top}/{}", rng.pick(words::FOLDERS));
                    if round > 2 && rng.chance(500) {
                        path = format!("{path}/{}", rng.pick(words::FOLDERS));
                    }
                    let mut n = 2;
                    let base = path.clone();
                    while !taken_folders.insert(path.clone()) {
                        path = format!("{base}{n}");
                        n += 1;
                    }
                    path
                };
                self.folders.push(Folder {
                    path,
                    has_index: false,
                });
                let folder = self.folders.len() - 1;
                let count = rng.range(lo, hi).min(sizes.len() - i);
                for _ in 0..count {
                    let kind = self.draw_kind(&mut rng);
                    plan.push((sizes[i], folder, kind));
                    i += 1;
                }
            }
            round += 1;
        }
        plan
    }

    fn draw_kind(&self, rng: &mut Rng) -> Kind {
        let x = rng.below(1000) as u32;
        if x < self.shape.dts_per_mille {
            Kind::Dts
        } else if x < self.shape.dts_per_mille + self.shape.tsx_per_mille {
            Kind::Tsx
        } else {
            Kind::Ts
        }
    }

    fn file_path(&mut self, folder: usize, stem: &str, kind: Kind) -> String {
        let ext = match kind {
            Kind::Ts => ".ts",
            Kind::Tsx => ".tsx",
            Kind::Dts => ".d.ts",
        };
        let folder_path = self.folders[folder].path.clone();
        let mut n = 1;
        loop {
            let name = if n == 1 {
                stem.to_string()
            } else {
                format!("{stem}{n}")
            };
            let path = format!("{folder_path}/{name}{ext}");
            let clash = self
                .modules
                .iter()
                .any(|m| m.folder == folder && strip_ext(&m.path) == strip_ext(&path));
            if !clash {
                return path;
            }
            n += 1;
        }
    }

    fn write_fixed_module(&mut self, folder: usize, stem: &str, source: &str) {
        let path = self.file_path(folder, stem, Kind::Ts);
        self.modules.push(Module {
            path: path.clone(),
            folder,
            kind: Kind::Ts,
        });
        self.exports.push(Symbols::default());
        self.push_file(path, source.as_bytes().to_vec());
    }

    fn write_index(&mut self, folder: usize) {
        if !self.shape.index_files {
            return;
        }
        let members: Vec<usize> = (0..self.modules.len())
            .filter(|&m| self.modules[m].folder == folder && self.modules[m].kind != Kind::Dts)
            .collect();
        if members.is_empty() {
            return;
        }
        let mut text = String::new();
        for m in &members {
            let stem = file_stem(&self.modules[*m].path);
            let js = if self.rng.chance(300) { ".js" } else { "" };
            let _ = writeln!(text, "export * from \"./{stem}{js}\";");
        }
        let path = format!("{}/index.ts", self.folders[folder].path);
        self.folders[folder].has_index = true;
        self.push_file(path, text.into_bytes());
    }

    // ----- one module ---------------------------------------------------------------

    fn write_module(&mut self, folder: usize, kind: Kind, size: usize) {
        let stem = {
            let base = *self.rng.pick(words::FILES);
            let noun = *self.rng.pick(words::NOUNS);
            let stem = match self.rng.below(3) {
                0 => base.to_string(),
                _ => format!("{}{}", words::lower_first(noun), words::upper_first(base)),
            };
            if self.shape.kebab_names {
                words::kebab(&stem)
            } else {
                stem
            }
        };
        let path = self.file_path(folder, &stem, kind);
        self.modules.push(Module {
            path: path.clone(),
            folder,
            kind,
        });
        self.exports.push(Symbols::default());
        self.cur = self.modules.len() - 1;
        self.out = String::with_capacity(size + 512);
        self.used.clear();
        self.pending.clear();
        self.scope = self.visible_symbols(folder);

        let mut first = true;
        while self.out.len() < size || first {
            let before = self.out.len();
            self.item(kind, first);
            first = false;
            self.error_budget -= (self.out.len() - before) as isize;
            if self.error_budget <= 0 {
                self.error_due = true;
            }
        }

        let header = self.import_header();
        let header_lines = header.matches('\n').count() as u32;
        let mut text = header;
        text.push_str(&self.out);
        for &(line, column, code) in &self.pending {
            self.errors.push(DeliberateError {
                path: path.clone(),
                line: line + header_lines,
                column,
                code,
            });
        }
        self.push_file(path, text.into_bytes());
    }

    /// The symbols of a few earlier modules, nearby ones preferred, as real code imports.
    fn visible_symbols(&mut self, folder: usize) -> Symbols {
        let mut scope = Symbols::default();
        let earlier: Vec<usize> = (0..self.cur)
            .filter(|&m| Some(m) != self.util_module && Some(m) != self.decorators_module)
            .collect();
        if earlier.is_empty() {
            return scope;
        }
        let same: Vec<usize> = earlier
            .iter()
            .copied()
            .filter(|&m| self.modules[m].folder == folder)
            .collect();
        let want = self.rng.range(2, 6);
        let mut chosen = HashSet::new();
        for _ in 0..want * 2 {
            if chosen.len() >= want {
                break;
            }
            let m = if !same.is_empty() && self.rng.chance(550) {
                *self.rng.pick(&same)
            } else if self.rng.chance(500) {
                // Recent modules are the likeliest neighbours.
                let from = earlier.len().saturating_sub(40);
                earlier[self.rng.range(from, earlier.len() - 1)]
            } else {
                *self.rng.pick(&earlier)
            };
            if chosen.insert(m) {
                scope.extend(&self.exports[m]);
            }
        }
        scope
    }

    fn import_header(&mut self) -> String {
        // Group by specifier: two modules reached through one folder index share a line.
        let mut by_spec: BTreeMap<String, (Vec<String>, bool)> = BTreeMap::new();
        let used = std::mem::take(&mut self.used);
        for (module, names) in &used {
            let spec = self.specifier(*module);
            let entry = by_spec.entry(spec).or_insert((Vec::new(), true));
            for (name, type_only) in names {
                entry.0.push(name.clone());
                entry.1 &= *type_only;
            }
        }
        let mut header = String::new();
        for (spec, (mut names, type_only)) in by_spec {
            names.sort();
            names.dedup();
            let keyword = if type_only { "import type" } else { "import" };
            let one_line = format!("{keyword} {{ {} }} from \"{spec}\";", names.join(", "));
            if one_line.len() <= 100 {
                header.push_str(&one_line);
                header.push('\n');
            } else {
                let _ = writeln!(header, "{keyword} {{");
                for name in &names {
                    let _ = writeln!(header, "    {name},");
                }
                let _ = writeln!(header, "}} from \"{spec}\";");
            }
        }
        if !header.is_empty() {
            header.push('\n');
        }
        header
    }

    /// A relative specifier from the current module to `target`: extensionless, with
    /// `.js` for `.ts` as ESM code writes it, or through the target folder's index.
    fn specifier(&mut self, target: usize) -> String {
        let from = self.modules[self.cur].path.clone();
        let to_module = &self.modules[target];
        let to_folder = &self.folders[to_module.folder];
        let other_folder = to_module.folder != self.modules[self.cur].folder;
        let via_index = other_folder && to_folder.has_index && to_module.kind != Kind::Dts;
        let dts = to_module.kind == Kind::Dts;
        let to_path = to_module.path.clone();
        let folder_path = to_folder.path.clone();
        // Deterministic per (module, target), so one module always writes one form.
        let mut rng = self.rng.fork((self.cur as u64) << 32 | target as u64);
        let stem_path = if via_index && rng.chance(600) {
            match rng.below(3) {
                0 => folder_path,
                1 => format!("{folder_path}/index"),
                _ => format!("{folder_path}/index.js"),
            }
        } else {
            let bare = strip_ext(&to_path).to_string();
            if !dts && rng.chance(250) {
                format!("{bare}.js")
            } else {
                bare
            }
        };
        relative(&from, &stem_path)
    }

    fn use_symbol(&mut self, module: usize, name: &str, type_only: bool) {
        if module == self.cur {
            return;
        }
        let entry = self.used.entry(module).or_default();
        match entry.get_mut(name) {
            Some(t) => *t &= type_only,
            None => {
                entry.insert(name.to_string(), type_only);
            }
        }
    }

    fn use_util(&mut self, name: &str, type_only: bool) -> bool {
        match self.util_module {
            Some(m) => {
                self.use_symbol(m, name, type_only);
                true
            }
            None => false,
        }
    }

    fn use_decorator(&mut self, name: &str) {
        if let Some(m) = self.decorators_module {
            self.use_symbol(m, name, false);
        }
    }

    // ----- writing helpers ----------------------------------------------------------

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

    /// Renders a type, importing what it names.
    fn ty(&mut self, t: &Ty) -> String {
        match t {
            Ty::Num => "number".into(),
            Ty::Str => "string".into(),
            Ty::Bool => "boolean".into(),
            Ty::Param => "T".into(),
            Ty::Alias(i) => {
                let (m, n) = (
                    self.model.aliases[*i].module,
                    self.model.aliases[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                n
            }
            Ty::Enum(i) => {
                let (m, n) = (
                    self.model.enums[*i].module,
                    self.model.enums[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                n
            }
            Ty::Class(i) => {
                let (m, n) = (
                    self.model.classes[*i].module,
                    self.model.classes[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                n
            }
            Ty::Iface(i, arg) => {
                let (m, n) = (
                    self.model.ifaces[*i].module,
                    self.model.ifaces[*i].name.clone(),
                );
                self.use_symbol(m, &n, true);
                match arg {
                    Some(a) => format!("{n}<{}>", self.ty(a)),
                    None => n,
                }
            }
            Ty::Array(e) => match **e {
                Ty::Fn(..) => format!("Array<{}>", self.ty(e)),
                _ => format!("{}[]", self.ty(e)),
            },
            Ty::Fn(a, r) => {
                let a = self.ty(a);
                let r = match r {
                    Some(r) => self.ty(r),
                    None => "void".into(),
                };
                format!("(value: {a}) => {r}")
            }
        }
    }

    /// A type for a field, parameter or variable, drawn from what this module sees.
    fn pick_ty(&mut self, depth: u32) -> Ty {
        self.pick_ty_within(depth, MAX_NEST)
    }

    /// A type for a member of an interface or class: one level shallower, so that the
    /// new type is itself within [`MAX_NEST`].
    fn field_ty(&mut self) -> Ty {
        self.pick_ty_within(1, MAX_NEST - 1)
    }

    fn pick_ty_within(&mut self, depth: u32, max_nest: u8) -> Ty {
        let r = self.rng.below(100);
        let scope = &self.scope;
        if r < 32 || depth > 2 {
            return match self.rng.weighted(&[12, 14, 5]) {
                0 => Ty::Num,
                1 => Ty::Str,
                _ => Ty::Bool,
            };
        }
        if r < 44 && !scope.aliases.is_empty() {
            return Ty::Alias(*self.rng.pick(&scope.aliases));
        }
        if r < 52 && !scope.enums.is_empty() {
            return Ty::Enum(*self.rng.pick(&scope.enums));
        }
        if r < 76 {
            let candidates: Vec<usize> = scope
                .ifaces
                .iter()
                .copied()
                .filter(|&i| {
                    let d = &self.model.ifaces[i];
                    d.constructible && d.nest + u8::from(d.generic) <= max_nest
                })
                .collect();
            if !candidates.is_empty() {
                let i = *self.rng.pick(&candidates);
                if self.model.ifaces[i].generic {
                    let arg = self.pick_simple_ty();
                    return Ty::Iface(i, Some(Box::new(arg)));
                }
                return Ty::Iface(i, None);
            }
        }
        if r < 86 {
            let candidates: Vec<usize> = scope
                .classes
                .iter()
                .copied()
                .filter(|&c| {
                    let d = &self.model.classes[c];
                    !d.is_abstract && d.nest <= max_nest
                })
                .collect();
            if !candidates.is_empty() {
                return Ty::Class(*self.rng.pick(&candidates));
            }
        }
        if r >= 86 {
            return Ty::array(self.pick_ty_within(depth + 1, max_nest));
        }
        if self.rng.chance(500) {
            Ty::Str
        } else {
            Ty::Num
        }
    }

    /// A type argument for a generic interface: nothing generic itself.
    fn pick_simple_ty(&mut self) -> Ty {
        loop {
            let t = self.pick_ty_within(1, 1);
            match &t {
                Ty::Iface(_, Some(_)) | Ty::Array(_) => continue,
                _ => return t,
            }
        }
    }

    fn local_name(&mut self, ty: &Ty) -> String {
        let base = match ty {
            Ty::Num => (*self.rng.pick(&[
                "count", "total", "offset", "width", "height", "index", "limit", "size", "delta",
                "score", "ratio", "depth",
            ]))
            .to_string(),
            Ty::Str => (*self.rng.pick(&[
                "label", "text", "key", "title", "message", "path", "prefix", "summary", "slug",
                "token",
            ]))
            .to_string(),
            Ty::Bool => (*self.rng.pick(&[
                "ready", "visible", "changed", "valid", "enabled", "locked", "done", "matched",
            ]))
            .to_string(),
            Ty::Alias(i) => words::lower_first(&self.model.aliases[*i].name),
            Ty::Enum(i) => words::lower_first(&self.model.enums[*i].name),
            Ty::Iface(i, _) => words::lower_first(&self.model.ifaces[*i].name),
            Ty::Class(i) => words::lower_first(&self.model.classes[*i].name),
            Ty::Array(e) => {
                let inner = self.local_name(e);
                self.local_names.remove(&inner);
                let inner = inner.trim_end_matches(|c: char| c.is_ascii_digit());
                if inner.ends_with('s') {
                    format!("{inner}List")
                } else {
                    format!("{inner}s")
                }
            }
            Ty::Fn(..) => "callback".to_string(),
            Ty::Param => "value".to_string(),
        };
        let mut name = base.clone();
        let mut n = 2;
        while self.local_names.contains(&name) || is_reserved(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.local_names.insert(name.clone());
        name
    }

    fn push_local(&mut self, name: String, ty: Ty) {
        self.locals.push(Local {
            name,
            ty,
            param: false,
        });
    }

    fn begin_function(&mut self, params: &[(String, Ty)], is_async: bool) {
        self.locals.clear();
        self.local_names.clear();
        self.in_async = is_async;
        for (n, t) in params {
            self.local_names.insert(n.clone());
            self.locals.push(Local {
                name: n.clone(),
                ty: t.clone(),
                param: true,
            });
        }
    }

    fn params(&mut self, count: usize) -> Vec<(String, Ty)> {
        self.local_names.clear();
        (0..count)
            .map(|_| {
                let t = self.pick_ty(0);
                let n = self.local_name(&t);
                (n, t)
            })
            .collect()
    }

    fn render_params(&mut self, params: &[(String, Ty)]) -> String {
        let parts: Vec<String> = params
            .iter()
            .map(|(n, t)| format!("{n}: {}", self.ty(t)))
            .collect();
        parts.join(", ")
    }

    // ----- expressions ----------------------------------------------------------------

    /// An expression whose type is assignable to `ty`.
    fn expr(&mut self, ty: &Ty, depth: u32) -> String {
        let r = self.rng.below(100);
        if (r < 45 || depth >= MAX_DEPTH)
            && let Some(p) = self.path_to(ty)
        {
            return p;
        }
        if r < 68
            && depth < MAX_DEPTH
            && let Some(c) = self.call_returning(ty, depth)
        {
            return c;
        }
        self.construct(ty, depth)
    }

    /// A local, or a field of a local, of exactly this type.
    fn path_to(&mut self, ty: &Ty) -> Option<String> {
        // (local, field) pairs; the string is built for the chosen one only.
        let mut found: Vec<(usize, Option<usize>)> = Vec::new();
        for (li, local) in self.locals.iter().enumerate() {
            if &local.ty == ty {
                found.push((li, None));
            }
            for (fi, f) in self.model.fields_ref(&local.ty).iter().enumerate() {
                if !f.optional && self.model.field_is(&local.ty, f, ty) {
                    found.push((li, Some(fi)));
                }
            }
        }
        if found.is_empty() {
            return None;
        }
        let (li, fi) = *self.rng.pick(&found);
        let local = &self.locals[li];
        Some(match fi {
            None => local.name.clone(),
            Some(fi) => format!(
                "{}.{}",
                local.name,
                self.model.fields_ref(&local.ty)[fi].name
            ),
        })
    }

    fn call_returning(&mut self, ty: &Ty, depth: u32) -> Option<String> {
        let mut options: Vec<u8> = Vec::new();
        let funcs: Vec<usize> = self
            .scope
            .funcs
            .iter()
            .copied()
            .filter(|&f| {
                let def = &self.model.funcs[f];
                def.ret.as_ref() == Some(ty) && (!def.is_async || self.in_async)
            })
            .collect();
        if !funcs.is_empty() {
            options.extend([0, 0, 0]);
        }
        // (local, class, method) triples.
        let mut methods: Vec<(usize, usize, usize)> = Vec::new();
        for (li, l) in self.locals.iter().enumerate() {
            if let Ty::Class(c) = l.ty {
                for (mi, m) in self.model.classes[c].methods.iter().enumerate() {
                    if m.ret.as_ref() == Some(ty) && (!m.is_async || self.in_async) {
                        methods.push((li, c, mi));
                    }
                }
            }
        }
        if !methods.is_empty() {
            options.extend([1, 1]);
        }
        let values: Vec<usize> = self
            .scope
            .values
            .iter()
            .copied()
            .filter(|&v| &self.model.values[v].ty == ty)
            .collect();
        if !values.is_empty() {
            options.push(2);
        }
        if self.util_module.is_some() {
            options.push(3);
        }
        let selectors = self.selector_sources(ty);
        if !selectors.is_empty() {
            options.extend([4, 4]);
        }
        if options.is_empty() {
            return None;
        }
        match *self.rng.pick(&options) {
            0 => {
                let f = self.model.funcs[*self.rng.pick(&funcs)].clone();
                self.use_symbol(f.module, &f.import, false);
                let args = self.args(&f.params, depth);
                let call = format!("{}({args})", f.call);
                Some(if f.is_async {
                    format!("(await {call})")
                } else {
                    call
                })
            }
            1 => {
                let (li, c, mi) = *self.rng.pick(&methods);
                let local = self.locals[li].name.clone();
                let m = self.model.classes[c].methods[mi].clone();
                let args = self.args(&m.params, depth);
                let call = format!("{local}.{}({args})", m.name);
                Some(if m.is_async {
                    format!("(await {call})")
                } else {
                    call
                })
            }
            2 => {
                let v = self.model.values[*self.rng.pick(&values)].clone();
                self.use_symbol(v.module, &v.import, false);
                Some(v.expr)
            }
            3 => self.generic_helper_call(ty, depth),
            _ => {
                let (s, li, fi) = *self.rng.pick(&selectors);
                let def = &self.model.selectors[s];
                let (module, name) = (def.module, def.name.clone());
                let local = self.locals[li].name.clone();
                let field = self.model.ifaces[def.iface].fields[fi].name.clone();
                self.use_symbol(module, &name, false);
                Some(format!("{name}({local}, \"{field}\")"))
            }
        }
    }

    /// `getX(local, "field")` through a visible `K extends keyof I` selector:
    /// (selector, local, field) triples.
    fn selector_sources(&self, ty: &Ty) -> Vec<(usize, usize, usize)> {
        let mut options = Vec::new();
        for &s in &self.scope.selectors {
            let iface = self.model.selectors[s].iface;
            for (li, local) in self.locals.iter().enumerate() {
                if local.ty == Ty::Iface(iface, None) {
                    for (fi, f) in self.model.ifaces[iface].fields.iter().enumerate() {
                        if !f.optional && &f.ty == ty {
                            options.push((s, li, fi));
                        }
                    }
                }
            }
        }
        options
    }

    /// Calls of the project's generic helpers (`identity`, `firstOr`, `pluck`, ...),
    /// whose type arguments the checker must infer.
    fn generic_helper_call(&mut self, ty: &Ty, depth: u32) -> Option<String> {
        let arrays: Vec<String> = self
            .locals
            .iter()
            .filter(|l| l.ty == Ty::array(ty.clone()))
            .map(|l| l.name.clone())
            .collect();
        match self.rng.below(6) {
            0 if !arrays.is_empty() => {
                let arr = self.rng.pick(&arrays).clone();
                let fallback = self.expr(ty, depth + 1);
                self.use_util("firstOr", false);
                Some(format!("firstOr({arr}, {fallback})"))
            }
            1 if *ty == Ty::Num => {
                let v = self.expr(&Ty::Num, depth + 1);
                self.use_util("clamp", false);
                Some(format!("clamp({v}, 0, {})", self.rng.range(10, 1000)))
            }
            2 if self.model.infers_exactly(ty, 0) => {
                let v = self.expr(ty, depth + 1);
                self.use_util("createStore", false);
                Some(format!("createStore({v}).get()"))
            }
            3 => {
                if let Ty::Array(e) = ty {
                    return self.pluck_into(e);
                }
                None
            }
            4 if self.in_async => {
                // The task is an arrow function: no `await` inside it.
                self.in_async = false;
                let inner = self.call_returning_sync_or_async(ty, depth);
                self.in_async = true;
                let inner = inner?;
                self.use_util("retry", false);
                Some(format!(
                    "(await retry(() => {inner}, {}))",
                    self.rng.range(2, 5)
                ))
            }
            _ => {
                let t = self.ty(ty);
                let v = self.construct(ty, depth + 1);
                self.use_util("identity", false);
                if ty.is_primitive() || self.rng.chance(500) {
                    Some(format!("identity<{t}>({v})"))
                } else {
                    Some(format!("identity({v})"))
                }
            }
        }
    }

    /// `pluck(items, "field")` for a field of type `elem` of a local array's elements.
    fn pluck_into(&mut self, elem: &Ty) -> Option<String> {
        let mut options = Vec::new();
        for local in &self.locals {
            if let Ty::Array(inner) = &local.ty
                && let Ty::Iface(..) | Ty::Class(_) = **inner
            {
                for f in self.model.fields_of(inner) {
                    if !f.optional && &f.ty == elem {
                        options.push((local.name.clone(), f.name.clone()));
                    }
                }
            }
        }
        if options.is_empty() {
            return None;
        }
        let (arr, field) = self.rng.pick(&options).clone();
        self.use_util("pluck", false);
        Some(format!("pluck({arr}, \"{field}\")"))
    }

    /// A promise of `ty` for `retry`: an async function call.
    fn call_returning_sync_or_async(&mut self, ty: &Ty, depth: u32) -> Option<String> {
        let funcs: Vec<usize> = self
            .scope
            .funcs
            .iter()
            .copied()
            .filter(|&f| {
                self.model.funcs[f].is_async && self.model.funcs[f].ret.as_ref() == Some(ty)
            })
            .collect();
        if funcs.is_empty() {
            return None;
        }
        let f = self.model.funcs[*self.rng.pick(&funcs)].clone();
        self.use_symbol(f.module, &f.import, false);
        let args = self.args(&f.params, depth);
        Some(format!("{}({args})", f.call))
    }

    fn args(&mut self, params: &[(String, Ty)], depth: u32) -> String {
        let parts: Vec<String> = params
            .iter()
            .map(|(_, t)| self.expr(t, depth + 1))
            .collect();
        parts.join(", ")
    }

    fn string_literal(&mut self) -> String {
        let a = *self.rng.pick(words::WORDS);
        match self.rng.below(3) {
            0 => format!("\"{a}\""),
            1 => format!("\"{a}-{}\"", self.rng.pick(words::WORDS)),
            _ => format!("\"{} {a}\"", self.rng.pick(words::WORDS)),
        }
    }

    /// A value built from scratch: a literal, an operator, a constructor call.
    fn construct(&mut self, ty: &Ty, depth: u32) -> String {
        let deep = depth >= MAX_DEPTH;
        match ty {
            Ty::Num => match if deep { 0 } else { self.rng.below(7) } {
                0 | 1 => self.rng.range(0, 4096).to_string(),
                2 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    let op = *self.rng.pick(&["+", "-", "*"]);
                    format!("{a} {op} {b}")
                }
                3 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    let f = *self.rng.pick(&["max", "min", "hypot"]);
                    format!("Math.{f}({a}, {b})")
                }
                4 => {
                    let s = self.receiver(&Ty::Str, depth + 1);
                    format!("{s}.length")
                }
                5 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    format!("Math.round({a} * 100) / 100")
                }
                _ => match self.local_array() {
                    Some(arr) => format!("{arr}.length"),
                    None => format!("{}.{}", self.rng.range(0, 99), self.rng.range(1, 9)),
                },
            },
            Ty::Str => match if deep { 0 } else { self.rng.below(7) } {
                0 | 1 => self.string_literal(),
                2 => {
                    let a = self.expr(&Ty::Str, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    let w = *self.rng.pick(words::WORDS);
                    format!("`{w}:${{{a}}}/${{{b}}}`")
                }
                3 => {
                    let a = self.receiver(&Ty::Str, depth + 1);
                    let f = *self.rng.pick(&["toUpperCase", "trim", "toLowerCase"]);
                    format!("{a}.{f}()")
                }
                4 => {
                    let n = self.receiver(&Ty::Num, depth + 1);
                    format!("{n}.toFixed({})", self.rng.range(0, 3))
                }
                5 => {
                    let n = self.expr(&Ty::Num, depth + 1);
                    format!("String({n})")
                }
                _ => {
                    let arr = self.receiver(&Ty::array(Ty::Str), depth + 1);
                    format!("{arr}.join(\", \")")
                }
            },
            Ty::Bool => match if deep { 0 } else { self.rng.below(6) } {
                0 => (*self.rng.pick(&["true", "false"])).to_string(),
                1 => {
                    let a = self.expr(&Ty::Num, depth + 1);
                    let b = self.expr(&Ty::Num, depth + 1);
                    // Not `===`: two numeric literals of different value do not overlap.
                    let op = *self.rng.pick(&[">", "<", ">=", "<="]);
                    format!("{a} {op} {b}")
                }
                2 => {
                    let s = self.receiver(&Ty::Str, depth + 1);
                    format!("{s}.length === 0")
                }
                3 => {
                    let s = self.receiver(&Ty::Str, depth + 1);
                    let w = *self.rng.pick(words::WORDS);
                    format!("{s}.includes(\"{w}\")")
                }
                // Not `mode === "a"`: a const initialised with a literal is narrowed to
                // it, and comparing it with another member would be an error.
                4 => match self.local_of(|t| matches!(t, Ty::Alias(_))) {
                    Some((name, Ty::Alias(a))) => {
                        let members = self.model.aliases[a].members.clone();
                        let take = self.rng.range(1, members.len());
                        let listed: Vec<String> = members
                            .iter()
                            .take(take)
                            .map(|m| format!("\"{m}\""))
                            .collect();
                        format!("[{}].includes({name})", listed.join(", "))
                    }
                    _ => "false".into(),
                },
                _ => {
                    let b = self.receiver(&Ty::Bool, depth + 1);
                    format!("!{b}")
                }
            },
            Ty::Alias(a) => {
                let members = self.model.aliases[*a].members.clone();
                if !deep && self.rng.chance(150) {
                    let c = self.expr(&Ty::Bool, depth + 1);
                    format!(
                        "{c} ? \"{}\" : \"{}\"",
                        self.rng.pick(&members),
                        self.rng.pick(&members)
                    )
                } else {
                    format!("\"{}\"", self.rng.pick(&members))
                }
            }
            Ty::Enum(e) => {
                let def = &self.model.enums[*e];
                let (m, name) = (def.module, def.name.clone());
                let member = self.rng.pick(&def.members).clone();
                self.use_symbol(m, &name, false);
                format!("{name}.{member}")
            }
            Ty::Iface(..) => self.object_literal(ty, depth),
            Ty::Class(c) => {
                let def = self.model.classes[*c].clone();
                self.use_symbol(def.module, &def.name, false);
                let args = self.args(&def.ctor, depth);
                format!("new {}({args})", def.name)
            }
            Ty::Array(e) => {
                if !deep {
                    let source = self.local_array();
                    match (self.rng.below(4), source) {
                        (0, Some(arr)) => {
                            let elem = self.local_elem(&arr);
                            let item = self.local_name(&elem);
                            let mark = self.locals.len();
                            self.push_local(item.clone(), elem);
                            let body = self.callback_expr(e, depth + 1);
                            self.locals.truncate(mark);
                            self.local_names.remove(&item);
                            return format!("{arr}.map(({item}) => {body})");
                        }
                        (2, Some(arr)) => {
                            if let Some(call) = self.mapper_call(&arr, e, depth) {
                                return call;
                            }
                        }
                        (1, _) if self.locals.iter().any(|l| &l.ty == ty) => {
                            let arr = self.path_to(ty).unwrap_or_default();
                            let elem = (**e).clone();
                            let item = self.local_name(&elem);
                            let mark = self.locals.len();
                            self.push_local(item.clone(), elem);
                            let cond = self.callback_expr(&Ty::Bool, depth + 1);
                            self.locals.truncate(mark);
                            self.local_names.remove(&item);
                            return format!("{arr}.filter(({item}) => {cond})");
                        }
                        _ => {}
                    }
                }
                if deep {
                    return "[]".into();
                }
                let n = self.rng.range(1, 3);
                let parts: Vec<String> = (0..n).map(|_| self.expr(e, depth + 1)).collect();
                format!("[{}]", parts.join(", "))
            }
            Ty::Fn(a, r) => {
                let param = self.local_name(a);
                let mark = self.locals.len();
                self.push_local(param.clone(), (**a).clone());
                let body = match r {
                    Some(r) => self.callback_expr(r, depth + 1),
                    None => format!("console.log({param})"),
                };
                self.locals.truncate(mark);
                self.local_names.remove(&param);
                format!("({param}) => {body}")
            }
            Ty::Param => "undefined as never".into(),
        }
    }

    fn object_literal(&mut self, ty: &Ty, depth: u32) -> String {
        let fields = self.model.fields_of(ty);
        let spread = if depth < MAX_DEPTH && self.rng.chance(120) {
            self.path_to(ty)
        } else {
            None
        };
        let mut parts = Vec::new();
        if let Some(s) = &spread {
            parts.push(format!("...{s}"));
        }
        for f in &fields {
            if spread.is_some() && self.rng.chance(700) {
                continue;
            }
            if f.optional && (depth >= 2 || self.rng.chance(650)) {
                continue;
            }
            // Shorthand when a local of that name and type exists.
            if self.locals.iter().any(|l| l.name == f.name && l.ty == f.ty) {
                parts.push(f.name.clone());
                continue;
            }
            let v = self.expr(&f.ty, depth + 1);
            parts.push(format!("{}: {v}", f.name));
        }
        if parts.is_empty() {
            return "{}".into();
        }
        let flat = format!("{{ {} }}", parts.join(", "));
        if flat.len() <= 90 || depth > 0 {
            flat
        } else {
            let mut s = String::from("{\n");
            for p in parts {
                let _ = writeln!(s, "{}{p},", "    ".repeat(self.expr_indent + 1));
            }
            let _ = write!(s, "{}}}", "    ".repeat(self.expr_indent));
            s
        }
    }

    /// `mapX(items, (item, index) => ...)` through a visible generic mapper.
    fn mapper_call(&mut self, arr: &str, out: &Ty, depth: u32) -> Option<String> {
        let Ty::Iface(i, None) = self.local_elem(arr) else {
            return None;
        };
        let mappers: Vec<usize> = self
            .scope
            .mappers
            .iter()
            .copied()
            .filter(|&m| self.model.mappers[m].iface == i)
            .collect();
        if mappers.is_empty() {
            return None;
        }
        let m = self.model.mappers[*self.rng.pick(&mappers)].clone();
        self.use_symbol(m.module, &m.name, false);
        let item = self.local_name(&Ty::Iface(i, None));
        let mark = self.locals.len();
        self.push_local(item.clone(), Ty::Iface(i, None));
        let body = self.callback_expr(out, depth + 1);
        self.locals.truncate(mark);
        self.local_names.remove(&item);
        Some(format!("{}({arr}, ({item}) => {body})", m.name))
    }

    /// The body of an arrow function written inside an expression: not async, whatever
    /// the enclosing function is.
    fn callback_expr(&mut self, ty: &Ty, depth: u32) -> String {
        let was_async = std::mem::replace(&mut self.in_async, false);
        let e = self.expr(ty, depth);
        self.in_async = was_async;
        arrow_body(e)
    }

    /// An expression to call a method on or read a property of: parenthesised unless
    /// it is a name, a property path, a string literal or a single call.
    fn receiver(&mut self, ty: &Ty, depth: u32) -> String {
        let e = self.expr(ty, depth);
        if is_primary(&e) { e } else { format!("({e})") }
    }

    fn local_array(&mut self) -> Option<String> {
        let arrays: Vec<String> = self
            .locals
            .iter()
            .filter(|l| matches!(l.ty, Ty::Array(_)))
            .map(|l| l.name.clone())
            .collect();
        if arrays.is_empty() {
            None
        } else {
            Some(self.rng.pick(&arrays).clone())
        }
    }

    fn local_elem(&self, name: &str) -> Ty {
        self.locals
            .iter()
            .rev()
            .find(|l| l.name == name)
            .and_then(|l| match &l.ty {
                Ty::Array(e) => Some((**e).clone()),
                _ => None,
            })
            .unwrap_or(Ty::Num)
    }

    fn local_of(&mut self, pred: impl Fn(&Ty) -> bool) -> Option<(String, Ty)> {
        let found: Vec<(String, Ty)> = self
            .locals
            .iter()
            .filter(|l| pred(&l.ty))
            .map(|l| (l.name.clone(), l.ty.clone()))
            .collect();
        if found.is_empty() {
            None
        } else {
            Some(self.rng.pick(&found).clone())
        }
    }
}

/// Whether `e` can take `.member` without parentheses.
fn is_primary(e: &str) -> bool {
    let first = e.chars().next().unwrap_or('0');
    if first == '"' {
        return e[1..].find('"') == Some(e.len() - 2);
    }
    if !(first.is_ascii_alphabetic() || first == '_' || first == '$') {
        return false;
    }
    let Some(open) = e.find('(') else {
        return e
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    };
    let head = &e[..open];
    if !head.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || c == '_'
            || c == '.'
            || c == '<'
            || c == '>'
            || c == '['
            || c == ']'
    }) {
        return false;
    }
    // The first parenthesis must close at the very end: `f(a)(b)` or `f(a) + 1` is not one call.
    let mut depth = 0i32;
    for (i, c) in e.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == e.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// An object literal as an arrow body needs parentheses, or it reads as a block.
fn arrow_body(e: String) -> String {
    if e.starts_with('{') {
        format!("({e})")
    } else {
        e
    }
}

fn strip_ext(path: &str) -> &str {
    for ext in [".d.ts", ".tsx", ".ts"] {
        if let Some(stem) = path.strip_suffix(ext) {
            return stem;
        }
    }
    path
}

fn file_stem(path: &str) -> &str {
    let stem = strip_ext(path);
    stem.rsplit('/').next().unwrap_or(stem)
}

/// The relative specifier from the module at `from` to `to` (both corpus paths).
fn relative(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect();
    let from_dir = &from_dir[..from_dir.len() - 1];
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from_dir.len() - common;
    let rest = to_parts[common..].join("/");
    if ups == 0 {
        format!("./{rest}")
    } else {
        format!("{}{rest}", "../".repeat(ups))
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

#[cfg(test)]
mod tests {
    use super::relative;

    #[test]
    fn relative_specifiers_climb_and_descend() {
        assert_eq!(relative("a/b/c.ts", "a/b/d"), "./d");
        assert_eq!(relative("a/b/c.ts", "a/e/d"), "../e/d");
        assert_eq!(relative("a/b/c.ts", "x/y"), "../../x/y");
        assert_eq!(relative("a/b/c.ts", "a/b/sub/index"), "./sub/index");
    }
}
