//! The pinned corpora: the reference table embedded as data, and what to take from each package.

use std::sync::OnceLock;

use crate::Provenance;
use crate::repo::{Selection, TYPESCRIPT_EXTENSIONS};

/// The reference table, one row per npm package (`corpus, package@version, integrity, what`).
const TABLE: &str = include_str!("../../data/corpora.tsv");

/// The standard library every named and local corpus is checked against.
pub const LIB: &str = "typescript@6.0.3 lib/lib.*.d.ts";

/// Name of the corpus that holds the standard library.
pub(crate) const LIB_CORPUS: &str = "lib";

/// One pinned npm package, as the reference table gives it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pin {
    /// The corpus the row belongs to (`trpc`, ...).
    pub corpus: String,
    /// npm package name, scope included (`@trpc/server`).
    pub package: String,
    pub version: String,
    /// Subresource-integrity string of the tarball (`sha512-<base64>`).
    pub integrity: String,
    /// The table's own words for what to take.
    pub what: String,
}

impl Pin {
    /// `name@version`, the form npm takes.
    pub fn spec(&self) -> String {
        format!("{}@{}", self.package, self.version)
    }
}

/// What to take out of one package's tarball (paths relative to the package root).
#[derive(Clone, Copy, Debug)]
pub enum Take {
    /// Files under `dir` whose name starts with `name_prefix` and ends in `suffix`, at any
    /// depth or only directly in it, except names starting with `except_prefix`.
    Files {
        dir: &'static str,
        name_prefix: &'static str,
        suffix: &'static str,
        recursive: bool,
        except_prefix: Option<&'static str>,
    },
    /// One file.
    File(&'static str),
    /// The `sourcesContent` of every `*.js.map` under `dir`, except under `except_dirs`.
    Maps {
        dir: &'static str,
        except_dirs: &'static [&'static str],
    },
    /// Declarations under `dir` that fill modules imported by rebuilt sources and found
    /// nowhere among them (the type-only modules a bundler drops from its maps).
    TypeOnlyFrom { dir: &'static str },
}

/// One package of a corpus and where its files land inside the corpus.
#[derive(Clone, Copy, Debug)]
pub struct PackageDef {
    pub package: &'static str,
    /// Prefix of the corpus paths of this package's files (`server/`), or `""`.
    pub prefix: &'static str,
    pub take: &'static [Take],
}

/// A named corpus: its provenance and what it is made of: npm packages, or the selection of a
/// repository pinned in the repository table.
#[derive(Clone, Copy, Debug)]
pub struct CorpusDef {
    pub name: &'static str,
    /// The row of the reference table (or the repository table) this corpus reads its pins from.
    pub table_name: &'static str,
    pub provenance: Provenance,
    /// The npm packages of an npm corpus; empty for a repository corpus.
    pub packages: &'static [PackageDef],
    /// What a repository corpus takes from its repository at the pinned commit.
    pub repository: Option<Selection>,
    /// One line for `list`: what the corpus is.
    pub what: &'static str,
    /// Bare module names the corpus imports itself by, and the corpus path each stands for
    /// (`@trpc/server/http` is `server/src/http`); see [`module_roots`].
    pub module_roots: &'static [(&'static str, &'static str)],
}

impl CorpusDef {
    /// The pins of this corpus's packages, in the order of `packages`.
    pub fn pins(&self) -> Vec<Pin> {
        self.packages
            .iter()
            .filter_map(|p| {
                pins()
                    .iter()
                    .find(|pin| pin.corpus == self.table_name && pin.package == p.package)
                    .cloned()
            })
            .collect()
    }
}

const DEFS: &[CorpusDef] = &[
    CorpusDef {
        name: "trpc",
        table_name: "trpc",
        repository: None,
        provenance: Provenance::AuthoredSource,
        what: "@trpc/server + @trpc/client src/**/*.ts",
        module_roots: &[
            ("@trpc/server", "server/src"),
            ("@trpc/client", "client/src"),
        ],
        packages: &[
            PackageDef {
                package: "@trpc/server",
                prefix: "server/",
                take: &[Take::Files {
                    dir: "src/",
                    name_prefix: "",
                    suffix: ".ts",
                    recursive: true,
                    except_prefix: None,
                }],
            },
            PackageDef {
                package: "@trpc/client",
                prefix: "client/",
                take: &[Take::Files {
                    dir: "src/",
                    name_prefix: "",
                    suffix: ".ts",
                    recursive: true,
                    except_prefix: None,
                }],
            },
        ],
    },
    CorpusDef {
        name: "excalidraw",
        table_name: "excalidraw",
        repository: None,
        provenance: Provenance::RebuiltFromMaps,
        what: "dist/dev source maps' sourcesContent + type-only modules from dist/types",
        module_roots: &[
            ("@excalidraw/excalidraw", "excalidraw"),
            ("@excalidraw/math", "math"),
            ("@excalidraw/utils", "utils"),
        ],
        packages: &[PackageDef {
            package: "@excalidraw/excalidraw",
            prefix: "",
            take: &[
                Take::Maps {
                    dir: "dist/dev/",
                    except_dirs: &[],
                },
                Take::TypeOnlyFrom { dir: "dist/types/" },
            ],
        }],
    },
    CorpusDef {
        name: "typeorm",
        table_name: "typeorm",
        repository: None,
        provenance: Provenance::RebuiltFromMaps,
        what: "src/ from the sourcesContent of the non-browser source maps",
        module_roots: &[("typeorm", "src")],
        packages: &[PackageDef {
            package: "typeorm",
            prefix: "",
            take: &[Take::Maps {
                dir: "",
                except_dirs: &["browser/"],
            }],
        }],
    },
    CorpusDef {
        name: "playwright",
        table_name: "playwright",
        // The root tsconfig.json at the pinned commit: `include: ["packages"]`, its `exclude`,
        // `allowJs: false`; `module_roots` are its `paths`.
        repository: Some(Selection {
            include: &["packages"],
            exclude: &[
                "packages/*/lib",
                "packages/extension",
                "packages/playwright-core/src/tools/skills",
            ],
            extensions: TYPESCRIPT_EXTENSIONS,
        }),
        provenance: Provenance::AuthoredSource,
        what: "microsoft/playwright v1.62.1: what its root tsconfig.json includes",
        module_roots: &[
            ("@dashboard", "packages/dashboard/src"),
            ("@trace-viewer", "packages/trace-viewer/src"),
            ("@html-reporter", "packages/html-reporter/src"),
            ("@injected", "packages/injected/src"),
            ("@isomorphic", "packages/isomorphic"),
            ("@utils", "packages/utils"),
            ("@protocol", "packages/protocol/src"),
            ("@recorder", "packages/recorder/src"),
            ("@testIsomorphic", "packages/playwright/src/isomorphic"),
            ("@trace", "packages/trace/src"),
            ("@web", "packages/web/src"),
            ("playwright-core/lib", "packages/playwright-core/src"),
            ("playwright/lib", "packages/playwright/src"),
            ("@playwright", "packages/playwright/src"),
        ],
        packages: &[],
    },
    CorpusDef {
        name: "playwright-types",
        table_name: "playwright-types",
        repository: None,
        provenance: Provenance::DeclarationsOnly,
        what: "playwright-core + playwright types/*.d.ts",
        module_roots: &[
            ("playwright-core", "playwright-core/types/types"),
            ("@playwright/test", "playwright/types/test"),
            ("@playwright/test/reporter", "playwright/types/testReporter"),
        ],
        packages: &[
            PackageDef {
                package: "playwright-core",
                prefix: "playwright-core/",
                take: &[Take::Files {
                    dir: "types/",
                    name_prefix: "",
                    suffix: ".d.ts",
                    recursive: false,
                    except_prefix: None,
                }],
            },
            PackageDef {
                package: "playwright",
                prefix: "playwright/",
                take: &[Take::Files {
                    dir: "types/",
                    name_prefix: "",
                    suffix: ".d.ts",
                    recursive: false,
                    except_prefix: None,
                }],
            },
        ],
    },
    CorpusDef {
        name: "typescript",
        table_name: "typescript",
        repository: None,
        provenance: Provenance::Compiled,
        what: "lib/typescript.js + lib/*.d.ts (lib.*.d.ts come as the standard library)",
        module_roots: &[("typescript", "lib/typescript")],
        packages: &[PackageDef {
            package: "typescript",
            prefix: "",
            take: &[
                Take::Files {
                    dir: "lib/",
                    name_prefix: "",
                    suffix: ".d.ts",
                    recursive: false,
                    except_prefix: Some("lib."),
                },
                Take::File("lib/typescript.js"),
            ],
        }],
    },
    CorpusDef {
        name: LIB_CORPUS,
        table_name: "typescript",
        repository: None,
        provenance: Provenance::DeclarationsOnly,
        what: "the standard library: typescript lib/lib.*.d.ts",
        module_roots: &[],
        packages: &[PackageDef {
            package: "typescript",
            prefix: "",
            take: &[Take::Files {
                dir: "lib/",
                name_prefix: "lib.",
                suffix: ".d.ts",
                recursive: false,
                except_prefix: None,
            }],
        }],
    },
];

/// Every named corpus, in the order of the reference table, the standard library last.
pub fn corpus_defs() -> &'static [CorpusDef] {
    DEFS
}

/// The named corpus `name`, if there is one.
pub fn corpus_def(name: &str) -> Option<&'static CorpusDef> {
    DEFS.iter().find(|d| d.name == name)
}

/// How corpus `name` names its own packages in bare imports: `(module name, corpus path)`
/// pairs. A specifier equal to a module name stands for its path (a file, with the usual
/// extensions, or a directory with an `index`); one that continues with `/rest` stands
/// for `path/rest`. The longest matching module name wins. Empty for other corpora.
pub fn module_roots(name: &str) -> &'static [(&'static str, &'static str)] {
    corpus_def(name).map_or(&[], |d| d.module_roots)
}

pub(crate) fn lib_def() -> &'static CorpusDef {
    DEFS.iter()
        .find(|d| d.name == LIB_CORPUS)
        .unwrap_or(&DEFS[DEFS.len() - 1])
}

pub(crate) fn names() -> Vec<&'static str> {
    DEFS.iter().map(|d| d.name).collect()
}

/// The rows of the embedded reference table.
pub fn pins() -> &'static [Pin] {
    static PINS: OnceLock<Vec<Pin>> = OnceLock::new();
    PINS.get_or_init(|| parse_table(TABLE))
}

/// Parses the table; rows that are not four tab-separated fields (comments) are skipped.
/// The embedded table is checked whole by the tests.
fn parse_table(text: &str) -> Vec<Pin> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let mut cols = line.split('\t');
            let corpus = cols.next()?;
            let spec = cols.next()?;
            let integrity = cols.next()?;
            let what = cols.next()?;
            // The version follows the last `@`; a scope's `@` comes first.
            let at = spec.rfind('@').filter(|&i| i > 0)?;
            Some(Pin {
                corpus: corpus.to_string(),
                package: spec[..at].to_string(),
                version: spec[at + 1..].to_string(),
                integrity: integrity.to_string(),
                what: what.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_table_is_used_by_a_corpus() {
        let rows = TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(pins().len(), rows, "a row did not parse");
        for pin in pins() {
            assert!(
                DEFS.iter().any(|d| d.table_name == pin.corpus
                    && d.packages.iter().any(|p| p.package == pin.package)),
                "{} is not taken by any corpus",
                pin.spec()
            );
        }
    }

    #[test]
    fn every_package_of_a_corpus_has_a_pin() {
        for def in DEFS {
            assert_eq!(def.pins().len(), def.packages.len(), "{}", def.name);
        }
    }

    #[test]
    fn a_corpus_comes_from_npm_packages_or_from_a_pinned_repository_never_both() {
        for def in DEFS {
            assert_ne!(
                def.packages.is_empty(),
                def.repository.is_none(),
                "{}",
                def.name
            );
            assert_eq!(
                def.repo_plan().is_some(),
                def.repository.is_some(),
                "{} has no row in the repository table",
                def.name
            );
        }
        for pin in crate::repo::repo_pins() {
            assert!(
                DEFS.iter()
                    .any(|d| d.table_name == pin.corpus && d.repository.is_some()),
                "{} is not taken by any corpus",
                pin.corpus
            );
        }
    }

    #[test]
    fn module_roots_point_inside_their_corpus() {
        for def in DEFS {
            for (module, path) in def.module_roots {
                assert!(
                    !module.is_empty() && !path.starts_with('/') && !path.contains(".."),
                    "{module}"
                );
            }
        }
        assert_eq!(module_roots("trpc")[0], ("@trpc/server", "server/src"));
        assert!(module_roots("no-such").is_empty());
    }

    #[test]
    fn scoped_package_names_keep_their_scope() {
        let pin = &corpus_def("trpc").unwrap().pins()[0];
        assert_eq!(pin.package, "@trpc/server");
        assert_eq!(pin.version, "11.25.2");
        assert!(pin.integrity.starts_with("sha512-"));
    }
}
