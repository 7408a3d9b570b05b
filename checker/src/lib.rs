#![doc = include_str!("../README.md")]
pub mod bind;
pub mod check;
pub mod cli;
pub mod diag;
pub mod parse;
mod syntax;
pub mod types;

use std::time::Instant;

use corpora::Corpus;
use rayon::prelude::*;
use workload::{Counts, Heap, InputError, Phases};

pub use diag::{Code, Diagnostic};
use parse::ParsedFile;

/// The checker as compare lists it (`--workload checker`, the default).
pub const WORKLOAD: workload::Workload = workload::Workload {
    name: "checker",
    about: "checkbench's checker: swc parse, bind, check; N checkers on one parsed program",
    main_from: cli::main_from,
    prepare: workload::nothing_to_prepare,
    serialized: false,
    heap: Heap::Interned,
};

/// Stack of every parse, bind and check thread. swc's parser and the checker recurse;
/// the stack is virtual memory, resident only as deep as a file's nesting goes.
pub const STACK_BYTES: usize = corpora::depth::STACK_BYTES; // 512 MiB, as `corpora stats`

/// How to run the workload.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Number of checker threads (file i goes to checker i mod N).
    pub checkers: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { checkers: 1 }
    }
}

/// What a run found; the digest covers the diagnostics and per-file results.
pub type Outcome = workload::Outcome<Diagnostic>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("could not start a thread pool: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
}

/// What one checker thread hands back.
struct CheckerResult {
    diagnostics: Vec<Diagnostic>,
    summaries: Vec<(usize, String)>,
    types: u64,
    relations: u64,
}

/// Runs the workload: parse and bind in parallel, then `opts.checkers` checkers.
pub fn run(corpus: &Corpus, opts: &Options) -> Result<Outcome, Error> {
    if opts.checkers == 0 {
        return Err(InputError::NoCheckers.into());
    }
    let sources: Vec<(String, &[u8], bool)> = corpus
        .files
        .iter()
        .filter(|f| parse::is_source_path(&f.path))
        .map(|f| (f.path.clone(), &f.bytes[..], false))
        .chain(
            corpus
                .lib
                .iter()
                .filter(|f| parse::is_source_path(&f.path))
                .map(|f| {
                    let path = if f.path.starts_with("lib/") {
                        f.path.clone()
                    } else {
                        format!("lib/{}", f.path)
                    };
                    (path, &f.bytes[..], true)
                }),
        )
        .collect();
    if !sources.iter().any(|s| !s.2) {
        return Err(InputError::NoSourceFiles(corpus.name.clone()).into());
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    // Parsing, checking and dropping trees recurse per nesting level: every thread that
    // touches a tree is one of corpora's big-stack pools.
    let front = corpora::depth::pool(threads, "parse")?;
    let checker_pool = corpora::depth::pool(opts.checkers, "checker")?;

    let start = Instant::now();
    let parsed: Vec<ParsedFile> = front.install(|| {
        sources
            .par_iter()
            .map(|(p, b, lib)| parse::parse(p, b, *lib))
            .collect()
    });
    let parse_s = start.elapsed().as_secs_f64();

    let start = Instant::now();
    // The corpus's own packages imported by bare names (`@trpc/server`, tsconfig `paths`).
    let roots = corpora::module_roots(&corpus.name);
    let bound = front.install(|| bind::bind_all_with_roots(&parsed, roots));
    let bind_s = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let n = opts.checkers;
    let results: Vec<CheckerResult> = checker_pool.broadcast(|ctx| {
        let globals = bind::merge_globals(&bound.files);
        let mut checker = check::Checker::new(&parsed, bind::Scope::new(&bound, &globals));
        let mut summaries = Vec::new();
        for file in (ctx.index()..parsed.len()).step_by(n) {
            checker.check_file(file as u32);
            summaries.push((file, checker.file_summary(file as u32)));
        }
        let counts = checker.counts();
        CheckerResult {
            diagnostics: checker.take_diagnostics(),
            summaries,
            types: counts.types,
            relations: counts.relations,
        }
    });
    let check_s = start.elapsed().as_secs_f64();

    let mut diagnostics: Vec<Diagnostic> = parsed
        .iter()
        .flat_map(|f| f.diagnostics.iter().cloned())
        .collect();
    let mut summaries = vec![String::new(); parsed.len()];
    let mut counts = Counts {
        files: parsed.len() as u64,
        bytes: parsed.iter().map(|f| f.bytes).sum(),
        lines: parsed.iter().map(|f| f.lines()).sum(),
        ast_nodes: bound.files.iter().map(|f| f.nodes).sum(),
        symbols: bound.symbol_count(),
        ..Counts::default()
    };
    let by_path: std::collections::HashMap<&str, &ParsedFile> =
        parsed.iter().map(|f| (f.path.as_str(), f)).collect();
    for r in results {
        // A checker's diagnostics on a line after `// @ts-ignore` or `// @ts-expect-error`
        // are suppressed, as TypeScript suppresses them (syntax errors are not).
        diagnostics.extend(r.diagnostics.into_iter().filter(|d| {
            !by_path
                .get(d.file.as_str())
                .is_some_and(|f| f.is_suppressed(d.line))
        }));
        for (i, s) in r.summaries {
            summaries[i] = s;
        }
        counts.types += r.types;
        counts.relations += r.relations;
    }
    let phases = Phases {
        load_s: 0.0,
        parse_s,
        bind_s,
        check_s,
        front_threads: threads,
    };
    let outcome = Outcome::settle(
        counts,
        phases,
        diagnostics,
        |d| d.code.label(),
        |diagnostics| {
            let files = parsed
                .iter()
                .zip(&bound.files)
                .zip(&summaries)
                .map(|((f, b), summary)| {
                    format!(
                        "{}\t{}\t{}\t{}\t{}\t{}",
                        f.path,
                        f.bytes,
                        f.lines(),
                        b.nodes,
                        b.symbols.len(),
                        summary
                    )
                });
            workload::digest::of_lines(diagnostics.iter().map(|d| d.to_string()).chain(files))
        },
    );

    // Deep trees drop recursively: drop them on the big-stack threads too.
    drop(bound);
    front.install(|| parsed.into_par_iter().for_each(drop));

    Ok(outcome)
}
