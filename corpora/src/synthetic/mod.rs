#![doc = include_str!("README.md")]

mod model;
mod profile;
mod rng;
mod words;
mod writer;

pub use profile::{DEFAULT_MIXED_BYTES, Profile};

use crate::{Corpus, Provenance, SourceFile};
use std::path::Path;

/// A synthetic spec that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("bad synthetic corpus spec `{spec}`: {why}")]
pub struct SpecError {
    pub spec: String,
    pub why: String,
}

/// The seed used when a spec names none.
pub const DEFAULT_SEED: u64 = 0x5EED_C4EC_B3AC_0001;

/// The smallest and largest sizes a spec may ask for.
pub const MIN_BYTES: u64 = 16 << 10;
pub const MAX_BYTES: u64 = 1 << 30;

/// The standard library every synthetic corpus is checked against.
pub const LIB_FILES: [(&str, &str); 4] = [
    ("lib.synthetic.d.ts", include_str!("lib/lib.synthetic.d.ts")),
    (
        "lib.synthetic.promise.d.ts",
        include_str!("lib/lib.synthetic.promise.d.ts"),
    ),
    (
        "lib.synthetic.decorators.d.ts",
        include_str!("lib/lib.synthetic.decorators.d.ts"),
    ),
    (
        "lib.synthetic.jsx.d.ts",
        include_str!("lib/lib.synthetic.jsx.d.ts"),
    ),
];

/// The diagnostics the generator writes on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorCode {
    /// Type 'X' is not assignable to type 'Y' (an annotated initializer).
    TS2322,
    /// Property 'x' does not exist on type 'Y'.
    TS2339,
    /// Argument of type 'X' is not assignable to parameter of type 'Y'.
    TS2345,
}

impl ErrorCode {
    /// The number TypeScript reports, as in `error TS2322`.
    pub fn number(self) -> u32 {
        match self {
            ErrorCode::TS2322 => 2322,
            ErrorCode::TS2339 => 2339,
            ErrorCode::TS2345 => 2345,
        }
    }
}

/// Where one deliberate error is, as TypeScript reports it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeliberateError {
    /// The file's corpus path, `/`-separated.
    pub path: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters (the generated text is ASCII).
    pub column: u32,
    pub code: ErrorCode,
}

/// A parsed spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub profile: Profile,
    /// Target source bytes (library excluded); the corpus lands within a file of it.
    pub bytes: u64,
    pub seed: u64,
}

impl Spec {
    /// Parses `synthetic[:PROFILE][@SIZE][#SEED]`.
    pub fn parse(spec: &str) -> Result<Spec, SpecError> {
        let bad = |why: String| SpecError {
            spec: spec.to_string(),
            why,
        };
        let rest = spec
            .strip_prefix("synthetic")
            .ok_or_else(|| bad("it must start with `synthetic`".into()))?;
        let (rest, seed) = match rest.split_once('#') {
            Some((head, seed)) => {
                let seed = seed
                    .parse::<u64>()
                    .map_err(|_| bad(format!("seed `{seed}` is not a decimal number")))?;
                (head, seed)
            }
            None => (rest, DEFAULT_SEED),
        };
        let (rest, size) = match rest.split_once('@') {
            Some((head, size)) => (head, Some(parse_size(size).map_err(bad)?)),
            None => (rest, None),
        };
        let profile = match rest {
            "" => Profile::Mixed,
            _ => {
                let name = rest.strip_prefix(':').ok_or_else(|| {
                    bad(format!(
                        "unexpected `{rest}`; write synthetic[:PROFILE][@SIZE][#SEED]"
                    ))
                })?;
                name.parse::<Profile>().map_err(|()| {
                    let known: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                    bad(format!(
                        "unknown profile `{name}`; known: {}",
                        known.join(", ")
                    ))
                })?
            }
        };
        let bytes = size.unwrap_or(profile.shape().default_bytes);
        if !(MIN_BYTES..=MAX_BYTES).contains(&bytes) {
            return Err(bad(format!(
                "size {} is outside {}..={}",
                format_size(bytes),
                format_size(MIN_BYTES),
                format_size(MAX_BYTES)
            )));
        }
        Ok(Spec {
            profile,
            bytes,
            seed,
        })
    }

    /// The canonical form: `synthetic:PROFILE@SIZE`, plus `#SEED` when not the default.
    pub fn name(&self) -> String {
        let mut name = format!("synthetic:{}@{}", self.profile, format_size(self.bytes));
        if self.seed != DEFAULT_SEED {
            name.push_str(&format!("#{}", self.seed));
        }
        name
    }
}

/// A generated corpus and the errors written into it on purpose.
#[derive(Clone, Debug)]
pub struct Generated {
    pub corpus: Corpus,
    /// Sorted by path, line and column.
    pub deliberate_errors: Vec<DeliberateError>,
}

/// The compiler options under which a generated project checks clean, except for its
/// deliberate errors (see [`Generated::write_project`]).
pub const TSCONFIG: &str = r#"{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "noLib": true,
    "target": "es2022",
    "module": "esnext",
    "moduleResolution": "bundler",
    "jsx": "preserve",
    "experimentalDecorators": true,
    "types": []
  },
  "include": ["lib/*.d.ts", "src/**/*.ts", "src/**/*.tsx"]
}
"#;

impl Generated {
    /// Writes the project to `dir` (which must not exist yet) so that `tsc -p dir` can
    /// check it: sources under `src/`, the library under `lib/`, [`TSCONFIG`], and
    /// `deliberate-errors.txt` with one `src/PATH(LINE,COL): error TSNNNN` per error, in
    /// tsc's own format. Written to a sibling temporary folder, then renamed, so a
    /// failure leaves nothing behind.
    pub fn write_project(&self, dir: &Path) -> std::io::Result<()> {
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if dir.exists() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} already exists", dir.display()),
            ));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".synthetic-")
            .tempdir_in(parent)?;
        let root = tmp.path();
        let sources = self.corpus.files.iter().map(|f| ("src", f));
        let libs = self.corpus.lib.iter().map(|f| ("lib", f));
        for (top, file) in sources.chain(libs) {
            let path = root.join(top).join(&file.path);
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder)?;
            }
            std::fs::write(&path, &file.bytes)?;
        }
        std::fs::write(root.join("tsconfig.json"), TSCONFIG)?;
        let mut listing = String::new();
        for e in &self.deliberate_errors {
            listing.push_str(&format!(
                "src/{}({},{}): error TS{}\n",
                e.path,
                e.line,
                e.column,
                e.code.number()
            ));
        }
        std::fs::write(root.join("deliberate-errors.txt"), listing)?;
        let kept = tmp.keep();
        std::fs::rename(&kept, dir).inspect_err(|_| {
            let _ = std::fs::remove_dir_all(&kept);
        })
    }
}

/// Opens `synthetic`, `synthetic:PROFILE`, `synthetic@SIZE` or `synthetic:PROFILE@SIZE`
/// (each with an optional `#SEED`).
pub fn open(spec: &str) -> Result<Corpus, SpecError> {
    generate(spec).map(|g| g.corpus)
}

/// Like [`open`], and also says where the deliberate errors are.
pub fn generate(spec: &str) -> Result<Generated, SpecError> {
    Ok(generate_spec(&Spec::parse(spec)?))
}

pub fn generate_spec(spec: &Spec) -> Generated {
    let output = writer::generate(spec.profile.shape(), spec.bytes, spec.seed);
    let mut deliberate_errors = output.errors;
    deliberate_errors.sort();
    Generated {
        corpus: Corpus {
            name: spec.name(),
            provenance: Provenance::Synthetic,
            files: output.files,
            lib: lib_files(),
        },
        deliberate_errors,
    }
}

/// The synthetic standard library, as corpus files.
pub fn lib_files() -> Vec<SourceFile> {
    LIB_FILES
        .iter()
        .map(|(path, text)| SourceFile {
            path: (*path).to_string(),
            bytes: text.as_bytes().to_vec(),
        })
        .collect()
}

fn parse_size(text: &str) -> Result<u64, String> {
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("size `{text}` does not start with a number"))?;
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kib" | "k" => 1 << 10,
        "mib" | "m" => 1 << 20,
        "gib" | "g" => 1 << 30,
        "kb" => 1000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        _ => {
            return Err(format!(
                "unknown size unit `{unit}` (use B, KiB, MiB, GiB, KB, MB, GB)"
            ));
        }
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes > u64::MAX as f64 {
        return Err(format!("size `{text}` is too large"));
    }
    Ok(bytes.round() as u64)
}

/// The shortest exact form: `6MiB`, `500KiB`, or plain bytes.
fn format_size(bytes: u64) -> String {
    for (unit, scale) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        if bytes >= scale && bytes.is_multiple_of(scale) {
            return format!("{}{unit}", bytes / scale);
        }
    }
    format!("{bytes}B")
}

#[cfg(test)]
mod tests;
