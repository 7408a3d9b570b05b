//! `stats`: files, bytes and lines by extension, and a syntax mix measured by parsing.

use std::collections::BTreeMap;
use std::fmt;

use rayon::prelude::*;
use swc_common::BytePos;
use swc_common::input::StringInput;
use swc_ecma_ast as ast;
use swc_ecma_parser::{EsSyntax, Parser, Syntax, TsSyntax};
use swc_ecma_visit::{Visit, VisitWith};

use crate::{Corpus, Provenance, SourceFile, depth, paths};

/// Files, bytes and lines of a group of files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sizes {
    pub files: u64,
    pub bytes: u64,
    pub lines: u64,
}

impl Sizes {
    fn add(&mut self, other: Sizes) {
        self.files += other.files;
        self.bytes += other.bytes;
        self.lines += other.lines;
    }
}

/// Counts of syntax, from walking each file's swc AST.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SyntaxMix {
    /// Declarations: each class, function, variable declarator, interface, type alias,
    /// enum and namespace declaration, and each `export default` declaration.
    pub declarations: u64,
    /// Class declarations and class expressions.
    pub classes: u64,
    pub interfaces: u64,
    pub type_aliases: u64,
    /// Function declarations and expressions, methods, accessors, constructors, arrows.
    pub functions: u64,
    /// JSX elements and fragments.
    pub jsx_elements: u64,
    pub decorators: u64,
}

impl SyntaxMix {
    fn add(&mut self, o: SyntaxMix) {
        self.declarations += o.declarations;
        self.classes += o.classes;
        self.interfaces += o.interfaces;
        self.type_aliases += o.type_aliases;
        self.functions += o.functions;
        self.jsx_elements += o.jsx_elements;
        self.decorators += o.decorators;
    }

    /// `(name, count)` in display order.
    pub fn entries(&self) -> [(&'static str, u64); 7] {
        [
            ("declarations", self.declarations),
            ("classes", self.classes),
            ("interfaces", self.interfaces),
            ("type aliases", self.type_aliases),
            ("functions", self.functions),
            ("JSX elements", self.jsx_elements),
            ("decorators", self.decorators),
        ]
    }
}

/// What `stats` reports on a corpus.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Stats {
    pub name: String,
    pub provenance: Provenance,
    /// By source extension (`.ts`, `.d.ts`, ...; `other` for the rest).
    pub by_extension: BTreeMap<String, Sizes>,
    pub total: Sizes,
    /// The standard library that comes along (not counted in `total`).
    pub lib: Sizes,
    pub mix: SyntaxMix,
    /// Files swc could not parse (or that are not UTF-8), with the first error.
    pub parse_failures: Vec<(String, String)>,
}

impl Stats {
    /// `count` per thousand lines of the corpus's own files.
    pub fn per_kloc(&self, count: u64) -> f64 {
        if self.total.lines == 0 {
            0.0
        } else {
            count as f64 * 1000.0 / self.total.lines as f64
        }
    }
}

/// Measures `corpus` (its own files; the standard library only by size). Files are parsed as
/// the checker parses them ([`crate::depth`]): too deep a bracket nesting is a parse failure,
/// and every parse runs on a big-stack thread.
pub fn measure(corpus: &Corpus) -> Result<Stats, crate::Error> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let pool = depth::pool(threads, "stats")
        .map_err(|source| crate::Error::Threads { threads, source })?;
    let per_file: Vec<(String, Sizes, Result<SyntaxMix, String>)> = pool.install(|| {
        corpus
            .files
            .par_iter()
            .map(|f| {
                let ext = paths::source_extension(&f.path)
                    .unwrap_or("other")
                    .to_string();
                (ext, sizes(f), mix_of(f))
            })
            .collect()
    });
    let mut stats = Stats {
        name: corpus.name.clone(),
        provenance: corpus.provenance,
        by_extension: BTreeMap::new(),
        total: Sizes::default(),
        lib: Sizes::default(),
        mix: SyntaxMix::default(),
        parse_failures: Vec::new(),
    };
    for (file, (ext, size, mix)) in corpus.files.iter().zip(per_file) {
        stats.by_extension.entry(ext).or_default().add(size);
        stats.total.add(size);
        match mix {
            Ok(mix) => stats.mix.add(mix),
            Err(why) => stats.parse_failures.push((file.path.clone(), why)),
        }
    }
    for f in &corpus.lib {
        stats.lib.add(sizes(f));
    }
    Ok(stats)
}

fn sizes(f: &SourceFile) -> Sizes {
    let newlines = f.bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    let unterminated = u64::from(!f.bytes.is_empty() && !f.bytes.ends_with(b"\n"));
    Sizes {
        files: 1,
        bytes: f.bytes.len() as u64,
        lines: newlines + unterminated,
    }
}

/// The swc syntax for a corpus path, by its extension.
pub(crate) fn syntax_for(path: &str) -> Syntax {
    let ext = paths::source_extension(path).unwrap_or(".ts");
    match ext {
        ".js" | ".mjs" | ".cjs" | ".jsx" => Syntax::Es(EsSyntax {
            jsx: ext == ".jsx",
            decorators: true,
            allow_return_outside_function: true,
            ..Default::default()
        }),
        _ => Syntax::Typescript(TsSyntax {
            tsx: ext == ".tsx",
            dts: ext.starts_with(".d."),
            decorators: true,
            ..Default::default()
        }),
    }
}

/// Parses one file; `Err` carries the first error (or says it is binary, not UTF-8 or nested
/// too deeply). Deeply nested trees recurse: call it on a [`depth::pool`] thread.
pub(crate) fn parse(path: &str, bytes: &[u8]) -> Result<ast::Program, String> {
    if let Some(at) = depth::binary_at(bytes) {
        return Err(format!("binary: a NUL byte at byte {at}"));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    if let Some(at) = depth::too_deep_at(bytes) {
        return Err(format!(
            "brackets nested more than {} deep (at byte {at})",
            depth::MAX_NESTING
        ));
    }
    let len = u32::try_from(text.len()).map_err(|_| "over 4 GiB".to_string())?;
    // Position 0 is swc's dummy span; real files start at 1.
    let input = StringInput::new(text, BytePos(1), BytePos(1 + len));
    let mut parser = Parser::new(syntax_for(path), input, None);
    let program = parser
        .parse_program()
        .map_err(|e| format!("{:?}", e.kind()))?;
    match parser.take_errors().first() {
        Some(e) => Err(format!("{:?}", e.kind())),
        None => Ok(program),
    }
}

fn mix_of(f: &SourceFile) -> Result<SyntaxMix, String> {
    let program = parse(&f.path, &f.bytes)?;
    let mut counter = Counter::default();
    program.visit_with(&mut counter);
    Ok(counter.0)
}

#[derive(Default)]
struct Counter(SyntaxMix);

impl Visit for Counter {
    fn visit_decl(&mut self, node: &ast::Decl) {
        match node {
            ast::Decl::Var(v) => self.0.declarations += v.decls.len() as u64,
            ast::Decl::Using(u) => self.0.declarations += u.decls.len() as u64,
            _ => self.0.declarations += 1,
        }
        node.visit_children_with(self);
    }
    fn visit_export_default_decl(&mut self, node: &ast::ExportDefaultDecl) {
        self.0.declarations += 1;
        node.visit_children_with(self);
    }
    fn visit_class(&mut self, node: &ast::Class) {
        self.0.classes += 1;
        node.visit_children_with(self);
    }
    fn visit_ts_interface_decl(&mut self, node: &ast::TsInterfaceDecl) {
        self.0.interfaces += 1;
        node.visit_children_with(self);
    }
    fn visit_ts_type_alias_decl(&mut self, node: &ast::TsTypeAliasDecl) {
        self.0.type_aliases += 1;
        node.visit_children_with(self);
    }
    fn visit_function(&mut self, node: &ast::Function) {
        self.0.functions += 1;
        node.visit_children_with(self);
    }
    fn visit_arrow_expr(&mut self, node: &ast::ArrowExpr) {
        self.0.functions += 1;
        node.visit_children_with(self);
    }
    fn visit_constructor(&mut self, node: &ast::Constructor) {
        self.0.functions += 1;
        node.visit_children_with(self);
    }
    fn visit_jsx_element(&mut self, node: &ast::JSXElement) {
        self.0.jsx_elements += 1;
        node.visit_children_with(self);
    }
    fn visit_jsx_fragment(&mut self, node: &ast::JSXFragment) {
        self.0.jsx_elements += 1;
        node.visit_children_with(self);
    }
    fn visit_decorator(&mut self, node: &ast::Decorator) {
        self.0.decorators += 1;
        node.visit_children_with(self);
    }
}

/// The module specifiers a file imports or re-exports (static, dynamic, `import()` types,
/// `require`); empty when it does not parse.
pub(crate) fn imports(path: &str, bytes: &[u8]) -> Vec<String> {
    let Ok(program) = parse(path, bytes) else {
        return Vec::new();
    };
    let mut collector = Imports::default();
    program.visit_with(&mut collector);
    collector.0
}

#[derive(Default)]
struct Imports(Vec<String>);

impl Imports {
    fn push(&mut self, s: &ast::Str) {
        self.0.push(s.value.to_string_lossy().into_owned());
    }
}

impl Visit for Imports {
    fn visit_import_decl(&mut self, node: &ast::ImportDecl) {
        self.push(&node.src);
    }
    fn visit_named_export(&mut self, node: &ast::NamedExport) {
        if let Some(src) = &node.src {
            self.push(src);
        }
    }
    fn visit_export_all(&mut self, node: &ast::ExportAll) {
        self.push(&node.src);
    }
    fn visit_ts_import_type(&mut self, node: &ast::TsImportType) {
        self.push(&node.arg);
        node.visit_children_with(self);
    }
    fn visit_ts_external_module_ref(&mut self, node: &ast::TsExternalModuleRef) {
        self.push(&node.expr);
    }
    fn visit_call_expr(&mut self, node: &ast::CallExpr) {
        let is_require = matches!(&node.callee, ast::Callee::Expr(e) if matches!(&**e, ast::Expr::Ident(i) if &*i.sym == "require"));
        if (matches!(node.callee, ast::Callee::Import(_)) || is_require)
            && let Some(ast::ExprOrSpread { spread: None, expr }) = node.args.first()
            && let ast::Expr::Lit(ast::Lit::Str(s)) = &**expr
        {
            self.push(s);
        }
        node.visit_children_with(self);
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "corpus {} ({})", self.name, self.provenance)?;
        writeln!(
            f,
            "{:<10} {:>7} {:>12} {:>9}",
            "extension", "files", "bytes", "lines"
        )?;
        for (ext, s) in &self.by_extension {
            writeln!(
                f,
                "{:<10} {:>7} {:>12} {:>9}",
                ext, s.files, s.bytes, s.lines
            )?;
        }
        let t = self.total;
        writeln!(
            f,
            "{:<10} {:>7} {:>12} {:>9}",
            "total", t.files, t.bytes, t.lines
        )?;
        let l = self.lib;
        writeln!(
            f,
            "{:<10} {:>7} {:>12} {:>9}",
            "+ lib", l.files, l.bytes, l.lines
        )?;
        writeln!(f, "syntax mix (count, per KLOC):")?;
        for (name, count) in self.mix.entries() {
            writeln!(
                f,
                "  {:<14} {:>8} {:>8.1}",
                name,
                count,
                self.per_kloc(count)
            )?;
        }
        if !self.parse_failures.is_empty() {
            writeln!(
                f,
                "files swc could not parse: {}",
                self.parse_failures.len()
            )?;
            for (path, why) in self.parse_failures.iter().take(5) {
                writeln!(f, "  {path}: {why}")?;
            }
        }
        Ok(())
    }
}
