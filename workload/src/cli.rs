//! The command line every workload shares: its options ([`RunArgs`]), how it prints its
//! report, and its exit status.
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::report::RunReport;

/// The options of one run, the same for every workload, so that compare launches them alike.
/// A workload's own command line flattens them in.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Corpus name (`synthetic`, `trpc`, ...) or a directory of sources.
    #[arg(long, default_value = "synthetic")]
    pub corpus: String,
    /// Number of checkers.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=crate::MAX_CHECKERS as i64))]
    pub checkers: u32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also print every diagnostic (to stderr with `--json`).
    #[arg(long)]
    pub diagnostics: bool,
    /// Where fetched corpora are cached.
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Never fetch, and do not hash the cache: a named corpus must be cached and match its
    /// manifest's sizes, else the run fails. compare passes it to every child: the parent
    /// fetched and verified the cache by content before the first run, so nothing is
    /// downloaded or hashed inside a measured run.
    #[arg(long)]
    pub no_fetch: bool,
}

impl RunArgs {
    /// How corpora are opened: fetched unless `--no-fetch`, progress unless `--json`.
    pub fn open_options(&self) -> corpora::OpenOptions {
        corpora::OpenOptions {
            cache_dir: self.cache_dir.clone(),
            fetch: !self.no_fetch,
            progress: !self.json,
        }
    }

    /// Opens `--corpus`: verified by content, or with `--no-fetch` by size only.
    pub fn open_corpus(&self) -> Result<corpora::Corpus> {
        let opts = self.open_options();
        if self.no_fetch {
            corpora::open_verified(&self.corpus, &opts)
        } else {
            corpora::open(&self.corpus, &opts)
        }
        .with_context(|| format!("opening corpus `{}`", self.corpus))
    }

    /// Prints the diagnostics if asked (to stderr beside a JSON report), then the report.
    /// A closed output (`checker --json | head`) is an error, not a panic.
    pub fn print<D: std::fmt::Display>(&self, diagnostics: &[D], report: &RunReport) -> Result<()> {
        use std::io::Write;
        let (mut stdout, mut stderr) = (std::io::stdout().lock(), std::io::stderr().lock());
        if self.diagnostics {
            let out: &mut dyn Write = if self.json { &mut stderr } else { &mut stdout };
            for d in diagnostics {
                writeln!(out, "{d}").context("printing the diagnostics")?;
            }
        }
        let text = if self.json {
            serde_json::to_string_pretty(report).context("serialising the report")? + "\n"
        } else {
            report.human()
        };
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
            .context("printing the report to standard output")
    }
}

/// A run's exit status: success, or the error with its causes on stderr and a failure.
pub fn exit_code(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
