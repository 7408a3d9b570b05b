//! Diagnostics: what the checker says about a file, with a stable code.
use std::fmt;

/// Stable diagnostic codes. Where TypeScript has a matching error the number is TypeScript's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// A syntax error reported by the parser (TypeScript's generic "expected" error).
    Syntax = 1005,
    /// The file is binary (it holds a NUL byte: TypeScript's "File appears to be binary.") or
    /// is not valid UTF-8.
    InvalidUtf8 = 1490,
    /// Nesting deeper than the checker's depth guard.
    TooDeep = 2321,
    /// `Type 'X' is not assignable to type 'Y'.`
    NotAssignable = 2322,
    /// `Cannot find name 'x'.`
    CannotFindName = 2304,
    /// `Cannot find namespace 'N'.` (the first name of a qualified type name)
    CannotFindNamespace = 2503,
    /// `Namespace 'N' has no exported member 'x'.`
    NoExportedMemberOfNamespace = 2694,
    /// `Cannot find module './x' or its corresponding type declarations.`
    CannotFindModule = 2307,
    /// `Generic type 'X' requires N type argument(s).`
    TypeArgumentCount = 2314,
    /// `Property 'p' does not exist on type 'X'.`
    NoProperty = 2339,
    /// `Argument of type 'X' is not assignable to parameter of type 'Y'.`
    ArgumentNotAssignable = 2345,
    /// `This expression is not callable.`
    NotCallable = 2349,
    /// `Type 'X' does not satisfy the constraint 'Y'.`
    ConstraintNotSatisfied = 2344,
    /// `Type alias 'X' circularly references itself.`
    CircularAlias = 2456,
    /// `Type 'X' recursively references itself as a base type.`
    CircularBase = 2506,
    /// `Expected N arguments, but got M.`
    ArgumentCount = 2554,
    /// `Module './x' has no exported member 'y'.`
    NoExportedMember = 2305,
    /// `Class 'X' incorrectly extends base class 'Y'.`
    ClassIncorrectlyExtends = 2415,
    /// `Class 'X' incorrectly implements interface 'Y'.`
    IncorrectlyImplements = 2420,
    /// `Interface 'X' incorrectly extends interface 'Y'.`
    IncorrectlyExtends = 2430,
    /// `No overload matches this call.`
    NoOverload = 2769,
    /// `Type instantiation is excessively deep and possibly infinite.` (an instantiation
    /// limit, see `check/types/limits.rs`)
    ExcessivelyDeep = 2589,
    /// `Excessive complexity comparing types 'X' and 'Y'.`
    ExcessiveComplexity = 2859,
    /// `Object literal may only specify known properties, and 'p' does not exist in type 'X'.`
    ExcessProperty = 2353,
    /// `Object literal may only specify known properties, but 'p' does not exist in type
    /// 'X'. Did you mean to write 'q'?`
    ExcessPropertySuggestion = 2561,
}

impl Code {
    /// The code as TypeScript prints it, e.g. `TS2322`.
    pub fn label(self) -> String {
        format!("TS{}", self as u32)
    }
}

/// One diagnostic, positioned by 1-based line and column (in bytes) within its file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// Path of the file, relative to the corpus root; lib files start with `lib/`.
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub code: Code,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{} - error {}: {}",
            self.file,
            self.line,
            self.column,
            self.code.label(),
            self.message
        )
    }
}
