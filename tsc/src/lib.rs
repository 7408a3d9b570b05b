#![doc = include_str!("../README.md")]
pub mod cli;
mod collect;
mod engine;
mod input;
mod plan;

use corpora::{Corpus, SourceFile};
use serde::{Deserialize, Serialize};
use workload::{Counts, Heap, InputError, Phases};

pub use collect::{Collect, DEFAULT_DIVISOR};
pub use engine::{Engine, HOST_JS, MAX_STACK_BYTES, THREAD_STACK_BYTES};
pub use input::Input;
pub use plan::Parse;

/// TypeScript's checker as compare lists it (`--workload tsc`).
pub const WORKLOAD: workload::Workload = workload::Workload {
    name: "tsc",
    about: "TypeScript 6.0.3's checker on QuickJS-NG: every object its own allocation, freed by \
            reference counting; N checkers over one program, each on its own thread, taking \
            turns on one runtime (execution serialized)",
    main_from: cli::main_from,
    prepare: cli::prepare,
    serialized: true,
    heap: Heap::PerObject,
};

/// The TypeScript package a run executes: `lib/typescript.js` and the standard library it
/// checks against, from the pinned, verified `typescript` corpus.
#[derive(Clone, Debug)]
pub struct TypeScript {
    /// The pinned version (`6.0.3`); a run whose `ts.version` differs fails.
    pub version: String,
    /// `lib/typescript.js`: the whole compiler, about 9 MiB of JavaScript.
    pub script: Vec<u8>,
    /// The `lib.*.d.ts` files TypeScript loads for `target: es2022` (`corpora::stdlib`).
    pub lib: Vec<SourceFile>,
}

impl TypeScript {
    /// The package from the corpus cache, fetched and verified like any corpus when
    /// `opts.fetch` is set; with `verified`, only sizes are checked (a parent verified it).
    pub fn open(opts: &corpora::OpenOptions, verified: bool) -> Result<TypeScript, corpora::Error> {
        let package = if verified {
            corpora::open_verified("typescript", opts)?
        } else {
            corpora::open("typescript", opts)?
        };
        let version = corpora::corpus_def("typescript")
            .and_then(|d| d.pins().into_iter().next())
            .map(|p| p.version)
            .unwrap_or_default();
        let script = package
            .files
            .into_iter()
            .find(|f| f.path == "lib/typescript.js")
            .map(|f| f.bytes)
            .ok_or_else(|| corpora::Error::EmptySelection {
                corpus: "typescript".to_string(),
                package: format!("typescript@{version}"),
                selection: "lib/typescript.js".to_string(),
            })?;
        Ok(TypeScript {
            version,
            script,
            lib: package.lib,
        })
    }
}

/// How to run the workload.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Number of checkers over the one program: each its own thread, checking the root files
    /// `i mod N`, the threads taking turns on the one runtime.
    pub checkers: usize,
    /// When the engine collects garbage cycles.
    pub collect: Collect,
    /// Which threads parse and bind the program's files.
    pub parse: Parse,
}

/// How the engine's collections went (not part of the report's digest).
#[derive(Clone, Debug)]
pub struct Collections {
    /// The schedule.
    pub schedule: Collect,
    /// Collections the schedule made at turn ends (the engine's own are not counted), and
    /// their time in seconds.
    pub count: u64,
    pub seconds: f64,
    /// Bytes the engine asked for over the run.
    pub engine_allocated_bytes: u64,
    /// Under `handback`: blocks freed on another checker's thread and handed back to their
    /// maker, and those the makers freed (the rest were handed back after the maker's last
    /// turn); 0 under the other schedules.
    pub handed_back: u64,
    pub taken_back: u64,
}

/// One diagnostic as TypeScript reports it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Corpus path of the file; standard library files start with `lib/`; empty for a
    /// global or options diagnostic.
    pub file: String,
    /// UTF-16 offset of the start in the file, as TypeScript counts; -1 without a position.
    pub start: i64,
    /// TypeScript's diagnostic code (`2322`).
    pub code: u32,
    /// The whole message chain, one line per level.
    pub message: String,
    /// 1-based line and column (UTF-16 units); 0 without a position.
    pub line: u32,
    pub column: u32,
    /// `error`, `warning`, `suggestion` or `message`.
    pub category: String,
    /// Where the wording depends on the checker's own history (a name not found, with a
    /// spelling suggestion only among the first 10 such names a checker meets), the code and
    /// message without it, as TypeScript records them (`canonicalHead`). The digest counts
    /// these, so that it is the same however the files are shared among checkers.
    #[serde(default)]
    pub canonical: Option<Canonical>,
}

/// A diagnostic's code and message as TypeScript words it without the checker's history.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Canonical {
    pub code: u32,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{} - {} TS{}: {}",
            self.file,
            self.line,
            self.column,
            self.category,
            self.code,
            self.message.replace('\n', "\n  ")
        )
    }
}

/// What a run found: the workload's outcome (diagnostics sorted by file, position, code and
/// message, duplicates removed; the digest by [`digest`]), and what the engine says of itself.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub checked: workload::Outcome<Diagnostic>,
    /// `ts.version` as the engine reported it.
    pub typescript_version: String,
    /// The compiler options the program was built with, as a tsconfig.json spells them.
    pub compiler_options: serde_json::Value,
    /// The collection schedule and what it did.
    pub collections: Collections,
    /// Where the program's files were parsed, how many were parsed ahead of the program
    /// (`--parse spread`) and how many of those the program took.
    pub parse: Parse,
    pub parsed_ahead: u64,
    pub taken_ahead: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("could not start checker thread {index} with a {} MiB stack: {source}", engine::THREAD_STACK_BYTES >> 20)]
    Thread {
        index: usize,
        source: std::io::Error,
    },
    #[error("checker {index}: {message}")]
    Engine { index: usize, message: String },
    #[error("checker {index} ran TypeScript {found}, not the pinned {pinned}")]
    Version {
        index: usize,
        found: String,
        pinned: String,
    },
}

/// Runs TypeScript's checker on `corpus`: one program, parsed and bound once (on the threads
/// `opts.parse` says), and `opts.checkers` checkers over it, each on its own thread, taking
/// turns file by file; their
/// diagnostics are merged in file order. Everything runs on threads of a checker's stack; the
/// first one continues in the caller's slice arena (see `engine::on_checker_thread`), so at 1
/// checker one arena serves the whole run and at N checkers N arenas do.
pub fn run(corpus: &Corpus, typescript: &TypeScript, opts: &Options) -> Result<Outcome, Error> {
    if opts.checkers == 0 {
        return Err(InputError::NoCheckers.into());
    }
    engine::on_checker_thread(|| {
        let input = Input::new(corpus, typescript);
        if input.root_files.is_empty() {
            return Err(InputError::NoSourceFiles(corpus.name.clone()).into());
        }
        let run = engine::check(
            &typescript.script,
            &input.to_json(),
            input.root_files.len(),
            opts.checkers,
            opts.collect,
            opts.parse,
        )?;
        for (index, report) in run.reports.iter().enumerate() {
            if report.version != typescript.version {
                return Err(Error::Version {
                    index,
                    found: report.version.clone(),
                    pinned: typescript.version.clone(),
                });
            }
        }
        Ok(merge(&input, run, opts.parse))
    })
}

/// The checkers' reports as one outcome: diagnostics merged, sorted and deduplicated; types,
/// relations and the symbols each checker made summed (each checker keeps its own tables, as in
/// the native port); the program's own sizes once. The phases are the program's, and the check
/// is every checker's turns one after another: execution is serialized, so it is their work
/// added up, not a parallel speedup.
fn merge(input: &Input, run: engine::Run, parse: Parse) -> Outcome {
    let first = &run.reports[0];
    let mut counts = Counts {
        files: first.source_files,
        bytes: input.bytes(),
        lines: input.lines(),
        ast_nodes: first.nodes,
        symbols: run.bound_symbols,
        ..Counts::default()
    };
    let version = first.version.clone();
    let compiler_options = first.options.clone();
    let phases = Phases {
        load_s: run.load_s,
        parse_s: run.program_s,
        bind_s: run.bind_s,
        check_s: run.check_s,
        front_threads: 1,
    };
    let mut diagnostics = Vec::new();
    for report in run.reports {
        counts.types += report.types;
        counts.relations += report.relations;
        counts.symbols += report.symbols.saturating_sub(run.bound_symbols);
        diagnostics.extend(report.diagnostics);
    }
    // Diagnostic orders by file, position, code and message first (its field order).
    let checked = workload::Outcome::settle(
        counts,
        phases,
        diagnostics,
        |d| format!("TS{}", d.code),
        digest,
    );
    Outcome {
        checked,
        typescript_version: version,
        compiler_options,
        collections: run.collections,
        parse,
        parsed_ahead: run.parsed_ahead,
        taken_ahead: run.taken_ahead,
    }
}

/// Hex SHA-256 over one line per diagnostic: file, position, code and message, the canonical
/// code and message where TypeScript gives one. **The digest does not depend on the allocator
/// or the checker count.**
pub fn digest(diagnostics: &[Diagnostic]) -> String {
    let mut lines: Vec<(&str, i64, u32, &str)> = diagnostics
        .iter()
        .map(|d| match &d.canonical {
            Some(c) => (d.file.as_str(), d.start, c.code, c.message.as_str()),
            None => (d.file.as_str(), d.start, d.code, d.message.as_str()),
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    workload::digest::of_lines(
        lines
            .into_iter()
            .map(|(file, start, code, message)| format!("{file}\t{start}\t{code}\t{message}")),
    )
}
