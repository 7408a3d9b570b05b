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
    about = "checkbench's corpora: synthetic, pinned npm packages, pinned git repositories, local directories"
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
    /// Cache a corpus pinned in a git repository from a copy on this machine, verified by its
    /// content digest: for machines that cannot reach the repository's host.
    Import {
        /// A corpus taken from a repository (see `list`).
        name: String,
        /// A checkout or unpacked archive of the pinned commit, its `.tar.gz` archive, or a
        /// bare git repository holding the commit.
        #[arg(long, value_name = "PATH")]
        from: PathBuf,
    },
    /// Print the listing of what a repository corpus takes from PATH (the file to commit as
    /// data/NAME.files.tsv to pin it), and its content digest on stderr.
    Listing {
        /// A corpus taken from a repository (see `list`).
        name: String,
        /// As for `import`; a git repository is read at the commit given by --commit.
        #[arg(long, value_name = "PATH")]
        from: PathBuf,
        /// The commit to read from a git repository (default: the pinned one).
        #[arg(long)]
        commit: Option<String>,
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
        Command::Import { name, from } => {
            let manifest = corpora::import(&name, &from, &opts)
                .with_context(|| format!("importing corpus `{name}` from {}", from.display()))?;
            println!(
                "{name}: {} files, {} bytes",
                manifest.files.len(),
                manifest.total_bytes()
            );
            Ok(())
        }
        Command::Listing { name, from, commit } => {
            let plan = corpora::corpus_def(&name)
                .and_then(|d| d.repo_plan())
                .with_context(|| format!("`{name}` is not a corpus taken from a repository"))?;
            let commit = commit.unwrap_or(plan.pin.commit);
            let files = corpora::repo::read_selection(&plan.selection, &commit, &from)
                .with_context(|| format!("reading `{name}`'s selection from {}", from.display()))?;
            let listing = corpora::repo::listing(&files);
            print!("{listing}");
            eprintln!(
                "{name}: {} files, {} bytes, content digest {}",
                files.len(),
                files.values().map(|b| b.len() as u64).sum::<u64>(),
                corpora::repo::digest_of_listing(&listing)
            );
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
        "{:<16} {:<36} {:<48} cached",
        "corpus", "provenance", "packages"
    );
    println!(
        "{:<16} {:<36} {:<48} built in",
        "synthetic",
        corpora::Provenance::Synthetic.label(),
        "(generated; profiles synthetic:NAME, size @N)"
    );
    for def in corpus_defs() {
        let packages: Vec<String> = match def.repo_plan() {
            Some(plan) => vec![format!(
                "{}@{}",
                plan.pin.repository,
                &plan.pin.commit[..12]
            )],
            None => def.pins().iter().map(|p| p.spec()).collect(),
        };
        // Every file is checked against the SHA-256 its manifest records.
        let cached = corpora::corpus_state(&root, def)?;
        println!(
            "{:<16} {:<36} {:<48} {cached}",
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
