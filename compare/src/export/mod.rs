//! Writing results to files, one module per format behind [`Exporter`].
//!
//! **Every export is written whole or not at all**: each file is rendered in memory,
//! written to an unnamed file beside its target and renamed over it, so a reader (or a
//! Ctrl-C) never sees half a file, and a kill leaves no temporary file (see
//! [`workload::atomic`], the one implementation every crate writes through).
use std::path::{Path, PathBuf};

use workload::atomic::{self, follow_link, parent};

use crate::results::Results;

pub mod csv;
pub mod json;
pub mod lock;
pub mod markdown;
pub mod memory;
pub mod policies;
pub mod scaling;
pub mod svg;

/// Renders results in one format.
pub trait Exporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot write {path}: {error}")]
    Write { path: String, error: std::io::Error },
    #[error("cannot write {path}: {why}")]
    Unwritable { path: String, why: String },
    #[error("cannot render {format}: {why}")]
    Render { format: &'static str, why: String },
    #[error("{first} and {second} name the same file {path}; give each output its own file")]
    SamePath {
        first: &'static str,
        second: &'static str,
        path: String,
    },
}

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
    Markdown,
    Svg,
}

impl Format {
    /// The format an option names: the inverse of [`Format::flag`].
    pub fn from_flag(flag: &str) -> Option<Format> {
        [Format::Json, Format::Csv, Format::Markdown, Format::Svg]
            .into_iter()
            .find(|f| f.flag() == flag)
    }

    /// The command-line option that names this format's file.
    pub fn flag(self) -> &'static str {
        match self {
            Format::Json => "--json",
            Format::Csv => "--csv",
            Format::Markdown => "--markdown",
            Format::Svg => "--svg",
        }
    }

    fn exporter(self) -> &'static dyn Exporter {
        match self {
            Format::Json => &json::JsonExporter,
            Format::Csv => &csv::CsvExporter,
            Format::Markdown => &markdown::MarkdownExporter,
            Format::Svg => &svg::SvgExporter,
        }
    }
}

/// The files a bake-off keeps up to date.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    targets: Vec<(Format, PathBuf)>,
}

impl Outputs {
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// Adds a target when a path is given.
    pub fn with(mut self, format: Format, path: Option<&Path>) -> Outputs {
        if let Some(path) = path {
            self.targets.push((format, path.to_path_buf()));
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Where `format` is written, if anywhere.
    pub fn path(&self, format: Format) -> Option<&Path> {
        self.targets
            .iter()
            .find(|(f, _)| *f == format)
            .map(|(_, path)| path.as_path())
    }

    /// Every target with its format.
    pub fn targets(&self) -> impl Iterator<Item = (Format, &Path)> {
        self.targets.iter().map(|(f, path)| (*f, path.as_path()))
    }

    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.targets.iter().map(|(_, path)| path.as_path())
    }

    /// Fails unless every target can be written: its folder exists and takes new files,
    /// the target is not itself a folder, and no two formats share one file (the second
    /// would overwrite the first after every run). Call before any run.
    pub fn check_writable(&self) -> Result<(), ExportError> {
        for (i, (format, path)) in self.targets.iter().enumerate() {
            let same = self.targets[..i]
                .iter()
                .find(|(_, other)| same_file(other, path));
            if let Some((first, other)) = same {
                return Err(ExportError::SamePath {
                    first: first.flag(),
                    second: format.flag(),
                    path: other.display().to_string(),
                });
            }
        }
        for (_, path) in &self.targets {
            let path = &follow_link(path);
            let unwritable = |why: String| ExportError::Unwritable {
                path: path.display().to_string(),
                why,
            };
            if path.is_dir() {
                return Err(unwritable("it is a directory".to_string()));
            }
            let dir = parent(path);
            if !dir.is_dir() {
                return Err(unwritable(format!(
                    "the directory {} does not exist",
                    dir.display()
                )));
            }
            atomic::check_creatable(dir).map_err(|e| {
                unwritable(format!("cannot create files in {}: {e}", dir.display()))
            })?;
        }
        Ok(())
    }

    /// Renders and writes every target; beside a Markdown report, first the figures it
    /// links: memory over time (see [`memory`]) and memory against the checker count (see
    /// [`scaling`]).
    pub fn write_all(&self, results: &Results) -> Result<(), ExportError> {
        for (format, path) in &self.targets {
            let bytes = match format {
                Format::Markdown => {
                    let figures = memory::figures(results, path);
                    for figure in &figures {
                        let svg = memory::render(results, &figure.corpus, figure.checkers)
                            .map_err(|why| ExportError::Render { format: "SVG", why })?;
                        write_atomically(&figure.path, svg.as_bytes())?;
                    }
                    let curves = scaling::figures(results, path);
                    for figure in &curves {
                        let svg = scaling::render(results, &figure.corpus)
                            .map_err(|why| ExportError::Render { format: "SVG", why })?;
                        write_atomically(&figure.path, svg.as_bytes())?;
                    }
                    markdown::render_with(results, &figures, &curves).into_bytes()
                }
                _ => format.exporter().render(results)?,
            };
            write_atomically(path, &bytes)?;
        }
        Ok(())
    }
}

/// Whether two output paths end in one file: equal once their folders are resolved
/// (symbolic links followed), or the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let resolved = |p: &Path| {
        let target = follow_link(p);
        let dir = std::fs::canonicalize(parent(&target)).unwrap_or_else(|_| parent(&target).into());
        target.file_name().map(|name| dir.join(name))
    };
    resolved(a).is_some() && resolved(a) == resolved(b)
}

/// Writes `bytes` to `path` whole or not at all (see [`workload::atomic`]); an error names
/// the file written, a symbolic link's target.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    atomic::write_atomically(path, bytes).map_err(|error| ExportError::Write {
        path: follow_link(path).display().to_string(),
        error,
    })
}
