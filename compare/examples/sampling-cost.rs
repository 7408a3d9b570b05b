//! What sampling a child's memory costs the child: paired rounds of one contender on one
//! corpus, each round one run sampled as the bake-off samples (every
//! `measure::SAMPLE_INTERVAL`, or `--interval-ms`) and one not, their order alternating
//! round by round; the paired geometric mean ratios sampled / unsampled of wall, user, sys
//! and minor faults with their 95% t intervals, and the parent's time per read of
//! `/proc/PID/smaps_rollup`.
//!
//! ```sh
//! cargo build --release -p compare --bins
//! cargo run --release -p compare --example sampling-cost -- --corpus trpc --rounds 20
//! ```
//! The corpus must be in the cache already (run `compare` on it once): children never fetch.
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Parser;
use compare::benchmark::launcher::{Binaries, Launcher as _, Request};
use compare::benchmark::layout;
use compare::benchmark::measure::{self, SAMPLE_INTERVAL};
use compare::contender::Contender;
use compare::results::Run;
use compare::stats;
use compare::workload::WorkloadKind;

/// A figure of a run, by name.
type Figure = (&'static str, fn(&Run) -> f64);

#[derive(Parser)]
struct Args {
    #[arg(long, default_value = "slice-hybrid")]
    contender: Contender,
    #[arg(long, default_value = "synthetic")]
    corpus: String,
    #[arg(long, default_value_t = 1)]
    checkers: usize,
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// The sampling interval to price; the bake-off's by default.
    #[arg(long)]
    interval_ms: Option<u64>,
    /// Where the child binaries are; beside this example's folder by default.
    #[arg(long)]
    children: Option<PathBuf>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let interval = args
        .interval_ms
        .map_or(SAMPLE_INTERVAL, Duration::from_millis);
    let dir = match args.children {
        Some(dir) => dir,
        None => std::env::current_exe()?
            .parent()
            .and_then(|examples| examples.parent())
            .context("no folder above the example")?
            .to_path_buf(),
    };
    let binaries = Binaries {
        dir,
        workload: WorkloadKind::default(),
        cache_dir: None,
        timeout: None,
    };
    let request = Request {
        contender: args.contender,
        corpus: &args.corpus,
        checkers: args.checkers,
    };
    let stop = AtomicBool::new(false);
    let run = |sampled: bool, round: usize| -> anyhow::Result<Run> {
        let mut command = binaries.command(&request);
        layout::equalize(&mut command, 0);
        let measured = measure::measure_sampled(command, None, &stop, sampled.then_some(interval))?;
        let run = binaries.judge(&request, round, &measured);
        if !run.status.is_ok() {
            bail!("round {round}: {}", run.status);
        }
        Ok(run)
    };
    let mut pairs: Vec<(Run, Run)> = Vec::new();
    for round in 0..args.rounds {
        // Alternate which goes first, so drift within a round lands on both alike.
        let (with, without) = if round % 2 == 0 {
            let with = run(true, round)?;
            (with, run(false, round)?)
        } else {
            let without = run(false, round)?;
            (run(true, round)?, without)
        };
        pairs.push((with, without));
    }
    let samples: usize = pairs
        .iter()
        .filter_map(|(with, _)| with.memory.as_ref())
        .map(|m| m.samples.len())
        .sum();
    println!(
        "{} on {} at {} checker{}: {} paired rounds, sampled every {} ms ({:.1} samples a run)",
        args.contender,
        args.corpus,
        args.checkers,
        if args.checkers == 1 { "" } else { "s" },
        pairs.len(),
        interval.as_millis(),
        samples as f64 / pairs.len().max(1) as f64
    );
    let figures: [Figure; 4] = [
        ("wall", |r| r.figures.wall_s),
        ("user", |r| r.figures.user_s),
        ("sys", |r| r.figures.sys_s),
        ("minor faults", |r| r.figures.minor_faults as f64),
    ];
    for (name, figure) in figures {
        let ratios: Vec<(f64, f64)> = pairs.iter().map(|(w, o)| (figure(w), figure(o))).collect();
        match stats::paired(&ratios) {
            Some(ratio) => match ratio.percent_interval() {
                Some((low, high)) => println!(
                    "  {name:<12} sampled / unsampled {:+.2}% [{low:+.2}, {high:+.2}]",
                    ratio.percent()
                ),
                None => println!("  {name:<12} sampled / unsampled {:+.2}%", ratio.percent()),
            },
            None => println!("  {name:<12} no pairs"),
        }
    }
    // The parent's own cost of one read, on a process of the size the runs reach: itself.
    let reads = 200;
    let start = Instant::now();
    for _ in 0..reads {
        std::fs::read_to_string("/proc/self/smaps_rollup")?;
    }
    println!(
        "  one read of /proc/self/smaps_rollup in the parent: {:.0} µs",
        start.elapsed().as_secs_f64() * 1e6 / reads as f64
    );
    Ok(())
}
