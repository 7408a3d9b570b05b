//! Parsing: one corpus file into an swc AST plus its syntax diagnostics.
//!
//! **Parsing never fails**: every file yields a [`ParsedFile`], with or without a tree,
//! and its problems as diagnostics.
use swc_common::BytePos;
use swc_ecma_ast::Program;
use swc_ecma_parser::{EsSyntax, Parser, StringInput, Syntax, TsSyntax};

use crate::diag::{Code, Diagnostic};

/// Bracket nesting beyond which a file is not handed to the (recursive) parser; the guard is
/// corpora's, so `corpora stats` parses what the checker parses.
pub use corpora::depth::MAX_NESTING;
use corpora::depth::{binary_at, too_deep_at};

/// Whether `path` names a file the checker parses: the protocol's source files.
pub use workload::is_source_path;

/// Whether `path` is a declaration file (`.d.ts`, `.d.mts`, `.d.cts`).
pub fn is_declaration_path(path: &str) -> bool {
    path.ends_with(".d.ts") || path.ends_with(".d.mts") || path.ends_with(".d.cts")
}

fn syntax_for(path: &str) -> Syntax {
    let ts = path.ends_with(".ts") || path.ends_with(".mts") || path.ends_with(".cts");
    if ts || path.ends_with(".tsx") {
        Syntax::Typescript(TsSyntax {
            tsx: path.ends_with(".tsx"),
            decorators: true,
            dts: is_declaration_path(path),
            ..Default::default()
        })
    } else {
        Syntax::Es(EsSyntax {
            jsx: true,
            decorators: true,
            ..Default::default()
        })
    }
}

/// One parsed file. Positions in the tree start at `BytePos(1)` for the file's first byte.
pub struct ParsedFile {
    /// Path relative to the corpus root (`lib/...` for the standard library).
    pub path: String,
    /// Whether the file belongs to the standard library.
    pub is_lib: bool,
    /// Size of the source, in bytes.
    pub bytes: u64,
    /// Byte offset of the start of every line.
    pub line_starts: Vec<u32>,
    /// The tree, or `None` when the parser gave up (the reason is in `diagnostics`).
    pub program: Option<Program>,
    /// 1-based lines whose checker diagnostics a `// @ts-ignore` or `// @ts-expect-error`
    /// comment on the line before suppresses, as TypeScript does; sorted.
    pub suppressed_lines: Vec<u32>,
    /// Syntax, encoding and nesting diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedFile {
    /// Number of lines in the source.
    pub fn lines(&self) -> u64 {
        self.line_starts.len() as u64
    }

    /// 1-based line and byte column of a position in this file.
    pub fn position(&self, pos: BytePos) -> (u32, u32) {
        let offset = pos.0.saturating_sub(1);
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        (line as u32, offset - self.line_starts[line - 1] + 1)
    }

    /// A diagnostic at `pos` in this file.
    pub fn diagnostic(&self, pos: BytePos, code: Code, message: String) -> Diagnostic {
        let (line, column) = self.position(pos);
        Diagnostic {
            file: self.path.clone(),
            line,
            column,
            code,
            message,
        }
    }

    /// Whether the file is an ES module (has imports or exports).
    pub fn is_module(&self) -> bool {
        match &self.program {
            Some(Program::Module(m)) => m.body.iter().any(|item| item.is_module_decl()),
            _ => false,
        }
    }
}

/// Parses one file; never panics on bad input.
pub fn parse(path: &str, bytes: &[u8], is_lib: bool) -> ParsedFile {
    let mut file = ParsedFile {
        path: path.to_string(),
        is_lib,
        bytes: bytes.len() as u64,
        line_starts: line_starts(bytes),
        program: None,
        suppressed_lines: suppressed_lines(bytes),
        diagnostics: Vec::new(),
    };
    if let Some(at) = binary_at(bytes) {
        // TypeScript's words for a file with a NUL byte; the rest of the corpus is checked.
        let message = "File appears to be binary.".to_string();
        file.diagnostics
            .push(file.diagnostic(BytePos(at + 1), Code::InvalidUtf8, message));
        return file;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = BytePos(e.valid_up_to() as u32 + 1);
            let message = format!(
                "File '{path}' is not valid UTF-8 (at byte {}).",
                e.valid_up_to()
            );
            file.diagnostics
                .push(file.diagnostic(at, Code::InvalidUtf8, message));
            return file;
        }
    };
    if let Some(at) = too_deep_at(bytes) {
        let message =
            format!("Brackets nested more than {MAX_NESTING} deep; the file is not checked.");
        file.diagnostics
            .push(file.diagnostic(BytePos(at + 1), Code::TooDeep, message));
        return file;
    }
    let end = BytePos(text.len() as u32 + 1);
    let mut parser = Parser::new(
        syntax_for(path),
        StringInput::new(text, BytePos(1), end),
        None,
    );
    let result = parser.parse_program();
    let mut errors = parser.take_errors();
    match result {
        Ok(program) => file.program = Some(program),
        Err(e) => errors.push(e),
    }
    for e in errors {
        use swc_common::Spanned;
        let message = e.kind().msg().into_owned();
        file.diagnostics
            .push(file.diagnostic(e.span().lo, Code::Syntax, message));
    }
    file
}

impl ParsedFile {
    /// Whether a checker diagnostic on `line` is suppressed by a directive comment.
    pub fn is_suppressed(&self, line: u32) -> bool {
        self.suppressed_lines.binary_search(&line).is_ok()
    }
}

/// The lines after `// @ts-ignore` and `// @ts-expect-error` comments (a line comment that
/// starts with the directive, as TypeScript recognizes them).
fn suppressed_lines(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let trimmed = line.trim_ascii_start();
        let Some(rest) = trimmed.strip_prefix(b"//") else {
            continue;
        };
        let rest = rest.trim_ascii_start();
        if rest.starts_with(b"@ts-ignore") || rest.starts_with(b"@ts-expect-error") {
            out.push(i as u32 + 2);
        }
    }
    out
}

fn line_starts(bytes: &[u8]) -> Vec<u32> {
    let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
    starts.push(0);
    starts.extend(
        bytes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i as u32 + 1),
    );
    starts
}
