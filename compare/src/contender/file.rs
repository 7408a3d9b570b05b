//! `--contenders-file FILE`: named contenders defined in TOML, so that a bake-off of a
//! dozen variants needs no 300-character `--contenders`.
//!
//! ```toml
//! # Which contenders run when --contenders is not given (any spelling --contenders
//! # takes); absent: the ones defined below, in order.
//! contenders = ["slice-nohuge", "jemalloc:thp=never", "tcmalloc"]
//!
//! [[contender]]
//! name = "tcmalloc"
//! preload = "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4"
//!
//! [[contender]]
//! name = "jemalloc-eager"
//! allocator = "jemalloc"
//! knobs = { thp = "always", dirty_decay_ms = 0 }
//! env = { RAYON_NUM_THREADS = "1" }
//! ```
use std::path::Path;

use serde::Deserialize;

use super::variant::{Definition, VariantError};
use super::{Contender, UnknownContender};

/// A contenders file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    contenders: Option<Vec<String>>,
    #[serde(default)]
    contender: Vec<Definition>,
}

/// What a contenders file defines.
#[derive(Debug, PartialEq, Eq)]
pub struct Contenders {
    /// The contenders the file asks to run: its `contenders` list, or every definition.
    pub run: Vec<Contender>,
    /// The definitions, registered: their names now parse.
    pub defined: Vec<Contender>,
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("--contenders-file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("--contenders-file {path}: {error}")]
    Toml {
        path: String,
        error: Box<toml::de::Error>,
    },
    #[error("--contenders-file {path}: {error}")]
    Definition {
        path: String,
        error: Box<VariantError>,
    },
    #[error("--contenders-file {path}: in `contenders`: {error}")]
    List {
        path: String,
        error: UnknownContender,
    },
    #[error("--contenders-file {path}: defines no contender and lists none")]
    Empty { path: String },
}

/// Reads, checks and registers the contenders of `path`.
pub fn load(path: &Path) -> Result<Contenders, FileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| FileError::Read {
        path: shown.clone(),
        error,
    })?;
    parse(&text).map_err(|error| match error {
        ParseError::Toml(error) => FileError::Toml {
            path: shown,
            error: Box::new(error),
        },
        ParseError::Definition(error) => FileError::Definition {
            path: shown,
            error: Box::new(error),
        },
        ParseError::List(error) => FileError::List { path: shown, error },
        ParseError::Empty => FileError::Empty { path: shown },
    })
}

enum ParseError {
    Toml(toml::de::Error),
    Definition(VariantError),
    List(UnknownContender),
    Empty,
}

fn parse(text: &str) -> Result<Contenders, ParseError> {
    let file: File = toml::from_str(text).map_err(ParseError::Toml)?;
    let mut defined = Vec::new();
    for definition in &file.contender {
        let variant = definition.register().map_err(ParseError::Definition)?;
        defined.push(Contender::Variant(variant));
    }
    let run = match &file.contenders {
        Some(names) => {
            let mut run = Vec::new();
            for name in names {
                let contender: Contender = name.parse().map_err(ParseError::List)?;
                if !run.contains(&contender) {
                    run.push(contender);
                }
            }
            run
        }
        None => defined.clone(),
    };
    if run.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(Contenders { run, defined })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_knob_contenders_defines_and_lists_them() {
        let contenders = parse(
            r#"
            contenders = ["slice-nohuge", "jemalloc:thp=never", "je-eager"]
            [[contender]]
            name = "je-eager"
            allocator = "jemalloc"
            knobs = { thp = "always", dirty_decay_ms = 0, background_thread = false }
            env = { SOMETHING = "1" }
            "#,
        )
        .unwrap_or_else(|_| panic!("the file does not parse"));
        let names: Vec<String> = contenders.run.iter().map(|c| c.to_string()).collect();
        assert_eq!(names, ["slice-nohuge", "jemalloc:thp=never", "je-eager"]);
        let variant = contenders.defined[0].variant().unwrap();
        assert_eq!(
            variant.knobs,
            [
                ("thp".to_string(), "always".to_string()),
                ("dirty_decay_ms".to_string(), "0".to_string()),
                ("background_thread".to_string(), "false".to_string()),
            ]
        );
        assert_eq!(variant.env, [("SOMETHING".to_string(), "1".to_string())]);
    }

    #[test]
    fn an_unknown_field_or_knob_in_a_file_is_refused() {
        assert!(matches!(
            parse("[[contender]]\nname = \"x\"\nallocator = \"jemalloc\"\nknob = {}\n"),
            Err(ParseError::Toml(_))
        ));
        let error = match parse(
            "[[contender]]\nname = \"y\"\nallocator = \"mimalloc\"\nknobs = { allow_thq = 0 }\n",
        ) {
            Err(ParseError::Definition(error)) => error.to_string(),
            _ => panic!("an unknown mimalloc option was accepted"),
        };
        assert!(
            error.contains("allow_thq") && error.contains("allow_thp"),
            "{error}"
        );
    }
}
