//! `corpora`: list, fetch, measure and locate checkbench's corpora.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use corpora::{OpenOptions, corpus_defs};

#[derive(Parser)]
#[command(
    name = "corpora",
    version,
    about = "checkbench's corpora: synthetic, pinned npm packages, local directories"
)]
struct Cli {
    /// Cache root (default: $CHECKBENCH_CACHE, else the user's cache directory + /checkbench).
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// No progress output on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every corpus: provenance, pinned packages, whether it is cached (every file verified
    /// by the SHA-256 of its manifest; a damaged one names the file).
    List,
    /// Download, verify and cache a named corpus, or `all` of them.
    Fetch {
        /// A corpus name (see `list`) or `all`.
        name: String,
    },
    /// Files, bytes and lines by extension and the syntax mix of a corpus or directory.
    Stats {
        /// A corpus name, `synthetic[:PROFILE][@SIZE]`, or a directory.
        corpus: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the directory a named corpus's files are cached in (fetching it first).
    Path {
        /// A corpus name (see `list`).
        name: String,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let opts = OpenOptions {
        cache_dir: cli.cache_dir.clone(),
        fetch: true,
        progress: !cli.quiet,
    };
    match cli.command {
        Command::List => list(&opts),
        Command::Fetch { name } => fetch(&name, &opts),
        Command::Stats { corpus, json } => {
            let opened = corpora::open(&corpus, &opts)
                .with_context(|| format!("opening corpus `{corpus}`"))?;
            let stats = corpora::stats::measure(&opened)
                .with_context(|| format!("measuring corpus `{corpus}`"))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print!("{stats}");
            }
            Ok(())
        }
        Command::Path { name } => {
            if corpora::corpus_def(&name).is_none() {
                bail!("`{name}` is not a named corpus; `corpora list` shows them");
            }
            corpora::fetch(&name, &opts).with_context(|| format!("fetching corpus `{name}`"))?;
            let root = corpora::cache_root(opts.cache_dir.as_deref())?;
            println!(
                "{}",
                corpora::corpus_dir(&root, &name).join("files").display()
            );
            Ok(())
        }
    }
}

fn list(opts: &OpenOptions) -> Result<()> {
    let root = corpora::cache_root(opts.cache_dir.as_deref())?;
    println!(
        "{:<12} {:<36} {:<48} cached",
        "corpus", "provenance", "packages"
    );
    println!(
        "{:<12} {:<36} {:<48} built in",
        "synthetic",
        corpora::Provenance::Synthetic.label(),
        "(generated; profiles synthetic:NAME, size @N)"
    );
    for def in corpus_defs() {
        let packages: Vec<String> = def.pins().iter().map(|p| p.spec()).collect();
        // Every file is checked against the SHA-256 its manifest records.
        let cached = corpora::cache_state(&root, def.name, &def.pins())?;
        println!(
            "{:<12} {:<36} {:<48} {cached}",
            def.name,
            def.provenance.label(),
            packages.join(" + ")
        );
    }
    println!("cache: {}", root.display());
    Ok(())
}

fn fetch(name: &str, opts: &OpenOptions) -> Result<()> {
    let names: Vec<&str> = if name == "all" {
        corpus_defs().iter().map(|d| d.name).collect()
    } else {
        vec![name]
    };
    let mut failed = Vec::new();
    for name in names {
        match corpora::fetch(name, opts) {
            Ok(m) => println!("{name}: {} files, {} bytes", m.files.len(), m.total_bytes()),
            Err(e) => {
                eprintln!("error: fetching corpus `{name}`: {e}");
                failed.push(name);
            }
        }
    }
    if !failed.is_empty() {
        bail!("could not fetch: {}", failed.join(", "));
    }
    Ok(())
}
