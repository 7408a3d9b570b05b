//! Contenders beyond the built-in ones: an allocator with knobs
//! (`jemalloc:thp=always`), any malloc by `LD_PRELOAD` (`preload:tcmalloc=PATH`), and the
//! named contenders of a `--contenders-file`.
//!
//! A [`Variant`] is made once, when its name is first parsed or its definition read, and
//! interned for the life of the process, so [`super::Contender`] stays `Copy` and two
//! spellings of one definition are one contender. **A variant's name resolves to one
//! definition**: a second, different definition under the same name is refused.
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::knobs::{self, KnobType};

/// The environment variable that tells a child which knobs it must prove, `KEY=VALUE`
/// separated by commas.
pub const KNOBS_ENV: &str = "CHECKBENCH_KNOBS";
/// The environment variable that tells a system child which library it must prove was
/// preloaded to serve `malloc`.
pub const PRELOAD_ENV: &str = "CHECKBENCH_PRELOAD";
/// The allocator name a preload child reports.
pub const PRELOAD_ALLOCATOR: &str = "preload";

/// Every variable a variant may set in a child; removed from every other child's
/// environment, so that each knob reaches only its own child (besides any `MIMALLOC_*`).
pub const CONTROLLED_ENV: &[&str] = &[
    KNOBS_ENV,
    PRELOAD_ENV,
    "LD_PRELOAD",
    "_RJEM_MALLOC_CONF",
    "MALLOC_CONF",
    "GLIBC_TUNABLES",
];

/// The prefix of mimalloc's environment options.
pub const MIMALLOC_ENV_PREFIX: &str = "MIMALLOC_";

/// The allocators a variant can build on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Base {
    Mimalloc,
    Jemalloc,
    /// glibc's malloc, or with a preload the library preloaded over it.
    System,
}

impl Base {
    pub fn name(self) -> &'static str {
        match self {
            Base::Mimalloc => "mimalloc",
            Base::Jemalloc => "jemalloc",
            Base::System => "system",
        }
    }

    fn parse(name: &str) -> Option<Base> {
        match name {
            "mimalloc" => Some(Base::Mimalloc),
            "jemalloc" => Some(Base::Jemalloc),
            "system" => Some(Base::System),
            _ => None,
        }
    }
}

/// Whether `name` is a built-in contender's: an allocator's own (`mimalloc`) or a slice
/// policy (`slice-hybrid@4`).
fn is_builtin(name: &str) -> bool {
    Base::parse(name).is_some()
        || name
            .strip_prefix("slice-")
            .is_some_and(|policy| policy.parse::<slice_alloc::Policy>().is_ok())
}

/// One contender beyond the built-in ones, as defined: on the command line or in a
/// contenders file, and recorded in the results file under `definitions`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Definition {
    /// How the contender is shown, parsed back and named in `--contenders` and `--baseline`.
    pub name: String,
    /// The allocator the child links; with `preload`, `system` (the default then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocator: Option<Base>,
    /// The allocator's own options, each proven by the child.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "pairs")]
    pub knobs: Vec<(String, String)>,
    /// More environment variables for this contender's child only (not proven).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "pairs")]
    pub env: Vec<(String, String)>,
    /// A shared library the system child runs under by `LD_PRELOAD`, proven to serve `malloc`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preload: Option<PathBuf>,
}

/// Knobs and environment as TOML and JSON tables, keeping their order.
mod pairs {
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(pairs: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(pairs.len()))?;
        for (key, value) in pairs {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a table of KEY = \"VALUE\" (numbers and booleans are taken as written)",
                )
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Scalar>()? {
                    pairs.push((key, value.0));
                }
                Ok(pairs)
            }
        }
        d.deserialize_map(Pairs)
    }

    /// A string, integer or boolean, kept as its text.
    struct Scalar(String);

    impl<'de> serde::Deserialize<'de> for Scalar {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Text;
            impl Visitor<'_> for Text {
                type Value = Scalar;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a string, an integer or a boolean")
                }
                fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
                fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                    Ok(Scalar(v.to_string()))
                }
            }
            d.deserialize_any(Text)
        }
    }
}

/// A definition checked and interned: what the launcher and the judge of a run read.
#[derive(Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub base: Base,
    pub knobs: Vec<(String, String)>,
    pub env: Vec<(String, String)>,
    pub preload: Option<PathBuf>,
}

/// Why a variant's name or definition was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VariantError {
    #[error(
        "contender `{name}`: unknown allocator `{allocator}`; knobs are taken by mimalloc, \
         jemalloc and system (`ALLOCATOR:KEY=VALUE[,KEY=VALUE...]`), any malloc by \
         `preload:NAME=PATH`; the slice allocator's policy is its name (slice-hybrid@N, ...)"
    )]
    UnknownAllocator { name: String, allocator: String },
    #[error("contender `{name}`: {allocator} has no knob `{key}`; known: {known}")]
    UnknownKey {
        name: String,
        allocator: &'static str,
        key: String,
        known: String,
    },
    #[error("contender `{name}`: {allocator} knob `{key}` cannot be `{value}` ({why})")]
    BadValue {
        name: String,
        allocator: &'static str,
        key: String,
        value: String,
        why: &'static str,
    },
    #[error("contender `{name}`: `{piece}` is not KEY=VALUE")]
    NotAKnob { name: String, piece: String },
    #[error("contender `{name}`: knob `{key}` is given twice")]
    Repeated { name: String, key: String },
    #[error("contender `{name}`: preload needs NAME=PATH (`preload:tcmalloc=/usr/lib/...so`)")]
    PreloadSpelling { name: String },
    #[error("contender `{name}`: preload library {}: {why}", .path.display())]
    PreloadPath {
        name: String,
        path: PathBuf,
        why: String,
    },
    #[error("contender `{name}`: a preload runs the system child; it cannot be on {allocator}")]
    PreloadBase {
        name: String,
        allocator: &'static str,
    },
    #[error(
        "contender name `{name}` is taken or malformed: a name is letters, digits, `-`, `_`, `.` \
         and not one of the built-in contenders"
    )]
    BadName { name: String },
    #[error("contender `{name}` has no allocator: give `allocator` or `preload`")]
    NoAllocator { name: String },
    #[error("contender `{name}` is defined twice, differently ({first:?} and {second:?})")]
    Redefined {
        name: String,
        first: Box<Definition>,
        second: Box<Definition>,
    },
    #[error("contender `{name}`: environment variable `{key}` is set by compare itself")]
    ReservedEnv { name: String, key: String },
}

static INTERNED: Mutex<Vec<&'static Variant>> = Mutex::new(Vec::new());

impl Variant {
    /// The allocator name the child must report.
    pub fn allocator_name(&self) -> &'static str {
        if self.preload.is_some() {
            PRELOAD_ALLOCATOR
        } else {
            self.base.name()
        }
    }

    /// What this variant adds to its child's environment, in order: the allocator's own
    /// variable for its knobs, the knobs to prove, the preload, the extra environment.
    pub fn child_env(&self) -> Vec<(String, String)> {
        let mut env = Vec::new();
        if !self.knobs.is_empty() {
            match self.base {
                Base::Jemalloc => {
                    let conf: Vec<String> =
                        self.knobs.iter().map(|(k, v)| format!("{k}:{v}")).collect();
                    env.push((
                        "_RJEM_MALLOC_CONF".to_string(),
                        format!("abort_conf:true,{}", conf.join(",")),
                    ));
                }
                Base::Mimalloc => {
                    for (key, value) in &self.knobs {
                        env.push((
                            format!("{MIMALLOC_ENV_PREFIX}{}", key.to_ascii_uppercase()),
                            value.clone(),
                        ));
                    }
                }
                Base::System => {
                    let tunables: Vec<String> = self
                        .knobs
                        .iter()
                        .map(|(k, v)| format!("glibc.malloc.{k}={v}"))
                        .collect();
                    env.push(("GLIBC_TUNABLES".to_string(), tunables.join(":")));
                }
            }
            env.push((KNOBS_ENV.to_string(), knob_list(&self.knobs)));
        }
        if let Some(path) = &self.preload {
            let path = path.display().to_string();
            env.push(("LD_PRELOAD".to_string(), path.clone()));
            env.push((PRELOAD_ENV.to_string(), path));
        }
        env.extend(self.env.iter().cloned());
        env
    }

    /// The definition this variant was made from, as the results file records it.
    pub fn definition(&self) -> Definition {
        Definition {
            name: self.name.clone(),
            allocator: Some(self.base),
            knobs: self.knobs.clone(),
            env: self.env.clone(),
            preload: self.preload.clone(),
        }
    }

    /// The variant registered under `name`, if any.
    pub fn named(name: &str) -> Option<&'static Variant> {
        let interned = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
        interned.iter().copied().find(|v| v.name == name)
    }
}

/// `KEY=VALUE,KEY=VALUE`, as [`KNOBS_ENV`] carries it and the identity shows it.
pub fn knob_list(knobs: &[(String, String)]) -> String {
    knobs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

impl Definition {
    /// Checks the definition and interns it: its name then parses to it.
    pub fn register(&self) -> Result<&'static Variant, VariantError> {
        let name = &self.name;
        // A knob contender's name is its spelling (`jemalloc:thp=always`); any other name
        // is plain and none of the built-in ones.
        let spelled = self.preload.is_none()
            && self.env.is_empty()
            && self
                .allocator
                .is_some_and(|base| *name == format!("{}:{}", base.name(), knob_list(&self.knobs)));
        if !spelled && (!plain_name(name) || is_builtin(name)) {
            return Err(VariantError::BadName { name: name.clone() });
        }
        let variant = self.check()?;
        intern(variant, self)
    }

    fn check(&self) -> Result<Variant, VariantError> {
        let name = self.name.clone();
        let base = match (self.allocator, &self.preload) {
            (Some(base), None) => base,
            (None | Some(Base::System), Some(_)) => Base::System,
            (Some(other), Some(_)) => {
                return Err(VariantError::PreloadBase {
                    name,
                    allocator: other.name(),
                });
            }
            (None, None) => return Err(VariantError::NoAllocator { name }),
        };
        check_knobs(&name, base, &self.knobs)?;
        for (key, _) in &self.env {
            if CONTROLLED_ENV.contains(&key.as_str())
                || key.starts_with("CHECKBENCH_")
                || (key.starts_with(MIMALLOC_ENV_PREFIX) && base == Base::Mimalloc)
            {
                return Err(VariantError::ReservedEnv {
                    name,
                    key: key.clone(),
                });
            }
        }
        let preload = match &self.preload {
            Some(path) => Some(check_preload(&name, path)?),
            None => None,
        };
        Ok(Variant {
            name,
            base,
            knobs: self.knobs.clone(),
            env: self.env.clone(),
            preload,
        })
    }
}

fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn intern(variant: Variant, definition: &Definition) -> Result<&'static Variant, VariantError> {
    let mut interned = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = interned.iter().find(|v| v.name == variant.name) {
        if *known == variant {
            return Ok(known);
        }
        return Err(VariantError::Redefined {
            name: variant.name.clone(),
            first: Box::new(known.definition()),
            second: Box::new(definition.clone()),
        });
    }
    // A bake-off names a handful of variants; each lives as long as the process.
    let leaked: &'static Variant = Box::leak(Box::new(variant));
    interned.push(leaked);
    Ok(leaked)
}

/// Parses `ALLOCATOR:KEY=VALUE[,KEY=VALUE...]` or `preload:NAME=PATH`; `None` for a name
/// without `:` (a built-in or a registered name).
pub fn parse(spec: &str) -> Option<Result<&'static Variant, VariantError>> {
    let (allocator, rest) = spec.split_once(':')?;
    Some(parse_spec(spec, allocator.trim(), rest.trim()))
}

fn parse_spec(spec: &str, allocator: &str, rest: &str) -> Result<&'static Variant, VariantError> {
    let name = spec.trim().to_string();
    if allocator == "preload" {
        let (label, path) = rest
            .split_once('=')
            .ok_or_else(|| VariantError::PreloadSpelling { name: name.clone() })?;
        let definition = Definition {
            name: label.trim().to_string(),
            allocator: None,
            knobs: Vec::new(),
            env: Vec::new(),
            preload: Some(PathBuf::from(path.trim())),
        };
        if path.trim().is_empty() {
            return Err(VariantError::PreloadSpelling { name });
        }
        return definition.register();
    }
    let base = Base::parse(allocator).ok_or_else(|| VariantError::UnknownAllocator {
        name: name.clone(),
        allocator: allocator.to_string(),
    })?;
    let mut knobs = Vec::new();
    for piece in rest.split(',').map(str::trim) {
        let (key, value) = piece
            .split_once('=')
            .filter(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty())
            .ok_or_else(|| VariantError::NotAKnob {
                name: name.clone(),
                piece: piece.to_string(),
            })?;
        knobs.push((key.trim().to_string(), value.trim().to_string()));
    }
    let definition = Definition {
        name: format!("{}:{}", base.name(), knob_list(&knobs)),
        allocator: Some(base),
        knobs,
        env: Vec::new(),
        preload: None,
    };
    let variant = definition.check()?;
    intern(variant, &definition)
}

fn check_knobs(name: &str, base: Base, knobs: &[(String, String)]) -> Result<(), VariantError> {
    for (index, (key, value)) in knobs.iter().enumerate() {
        if knobs[..index].iter().any(|(k, _)| k == key) {
            return Err(VariantError::Repeated {
                name: name.to_string(),
                key: key.clone(),
            });
        }
        let unknown = || VariantError::UnknownKey {
            name: name.to_string(),
            allocator: base.name(),
            key: key.clone(),
            known: knobs::known_keys(base.name()),
        };
        let bad = |why| VariantError::BadValue {
            name: name.to_string(),
            allocator: base.name(),
            key: key.clone(),
            value: value.clone(),
            why,
        };
        match base {
            Base::Jemalloc => {
                let kind = knobs::jemalloc_knob(key).ok_or_else(unknown)?;
                if !knobs::fits(kind, value) {
                    return Err(bad(match kind {
                        KnobType::Bool => "true or false",
                        KnobType::Str => "a word without `,` or `:`",
                        KnobType::Ssize | KnobType::I64 => "an integer",
                        _ => "a non-negative integer",
                    }));
                }
            }
            Base::Mimalloc => {
                knobs::mimalloc_option(key).ok_or_else(unknown)?;
                if knobs::mimalloc_value(value).is_none() {
                    return Err(bad("an integer, or on/off, true/false, yes/no"));
                }
            }
            Base::System => {
                if !knobs::SYSTEM_KNOBS.contains(&key.as_str()) {
                    return Err(unknown());
                }
                if !matches!(value.as_str(), "0" | "1") {
                    return Err(bad("0 or 1: 2 needs reserved hugetlbfs pages"));
                }
            }
        }
    }
    Ok(())
}

fn check_preload(name: &str, path: &Path) -> Result<PathBuf, VariantError> {
    let failed = |why: String| VariantError::PreloadPath {
        name: name.to_string(),
        path: path.to_path_buf(),
        why,
    };
    if !path.is_absolute() {
        return Err(failed(
            "not an absolute path (LD_PRELOAD would search for it)".to_string(),
        ));
    }
    let meta = std::fs::metadata(path).map_err(|e| failed(e.to_string()))?;
    if !meta.is_file() {
        return Err(failed("not a file".to_string()));
    }
    Ok(path.to_path_buf())
}
