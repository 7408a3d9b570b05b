//! Getting ready to measure and measuring: the children built and checked, the corpora
//! opened and their digests recorded, the fault cost probe, then the runner.
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::plan::is_named;
use crate::benchmark::children::{CHILD_PROFILE, Origin};
use crate::benchmark::interrupt::Interrupt;
use crate::benchmark::launcher::{Binaries, Launcher};
use crate::benchmark::runner::{self, Outcome, Runner};
use crate::benchmark::schedule::Slot;
use crate::calibrate::Calibration;
use crate::cli::ScheduleArgs;
use crate::contender::Contender;
use crate::environment::{self, BuildInfo};
use crate::export::Outputs;
use crate::output::progress::Progress;
use crate::results::Results;

/// Builds (or finds) the children, runs the fault cost probe and the pending runs; stops
/// between those steps, and in a run, once a signal has come.
pub(super) fn measure(
    results: &mut Results,
    schedule: &ScheduleArgs,
    origin: &Origin,
    outputs: &Outputs,
    interrupt: &Interrupt,
) -> Result<Outcome> {
    let pending = runner::pending(results);
    let mut contenders: Vec<Contender> = pending.iter().map(|slot| slot.contender).collect();
    contenders.dedup();
    let timeout = (schedule.timeout > 0).then(|| Duration::from_secs(schedule.timeout));
    let launcher: Box<dyn Launcher> = match results.settings.command {
        Some(command) => {
            let mut cells: Vec<usize> = pending.iter().map(|slot| slot.corpus).collect();
            cells.dedup();
            let commands: Vec<String> = cells
                .iter()
                .map(|&i| results.settings.corpora[i].clone())
                .collect();
            let launcher = crate::command::launcher::prepare(
                origin,
                &contenders,
                &commands,
                command.digest,
                timeout,
            )?;
            record_children(results, launcher.builds(), schedule.resume.as_deref())?;
            Box::new(launcher)
        }
        None => Box::new(prepare_checker(
            results,
            origin,
            &contenders,
            &pending,
            schedule,
            timeout,
        )?),
    };
    // Children inherit the parent's resident high-water mark through fork into their
    // ru_maxrss; hand the corpora's freed heap back before the first fork.
    // SAFETY: malloc_trim only releases free memory of the C allocator, which serves this
    // process (compare installs no global allocator).
    unsafe { libc::malloc_trim(0) };
    eprintln!("{}", results.environment.summary());
    eprintln!("{}", results.environment.machine_summary());
    // A resumed bake-off whose runs were measured without the probe goes on without it:
    // every invocation that measured runs with the probe recorded one.
    let unprobed =
        results.calibrations.is_empty() && results.results.iter().any(|set| !set.runs.is_empty());
    if !pending.is_empty() && !schedule.no_calibration && !unprobed {
        eprintln!("measuring the cost of 4 KiB and 2 MiB page faults (about 15 s)");
        match Calibration::measure(interrupt.flag()) {
            Some(calibration) => results.calibrations.push(calibration),
            None => return Ok(Outcome::Interrupted),
        }
    } else if unprobed && !schedule.no_calibration {
        eprintln!(
            "no fault cost probe: the resumed runs were measured without one (--no-calibration)"
        );
    }
    let checkout = environment::checkout_revision();
    if let Some(warning) =
        environment::stale_build_warning(environment::BUILD_REVISION, checkout.as_deref())
    {
        eprintln!("warning: {warning}");
    }

    if interrupt.requested() {
        return Ok(Outcome::Interrupted);
    }
    let progress = Progress::stderr();
    let runner = Runner {
        launcher: launcher.as_ref(),
        stop: interrupt.flag(),
        outputs,
        progress: &progress,
        gate: schedule.quiet_gate(results.settings.command.is_some()),
    };
    if let Some(gate) = &runner.gate {
        eprintln!(
            "quiet gate: before each run, waiting up to {} s until other processes keep at \
             most {:.2} CPUs busy (--quiet-wait, --quiet-cpus)",
            gate.max_wait.as_secs(),
            gate.threshold_cpus
        );
    }
    runner.run(results).map_err(anyhow::Error::from)
}

/// Before the first run of a checker bake-off: the child binaries built and checked, and
/// every corpus opened (fetched if needed) and its digest recorded.
fn prepare_checker(
    results: &mut Results,
    origin: &Origin,
    contenders: &[Contender],
    pending: &[Slot],
    schedule: &ScheduleArgs,
    timeout: Option<Duration>,
) -> Result<Binaries> {
    let children = origin
        .prepare(contenders)
        .context("preparing the child binaries before the first run")?;
    record_children(results, children, schedule.resume.as_deref())?;
    let binaries = Binaries {
        dir: origin.dir(),
        workload: results.settings.workload,
        cache_dir: schedule.cache_dir.clone(),
        timeout,
    };
    let settings = &results.settings;
    // What the children read from the cache without fetching or hashing it, beyond corpora.
    let options = corpora::OpenOptions {
        cache_dir: schedule.cache_dir.clone(),
        fetch: true,
        progress: true,
    };
    (settings.workload.protocol().prepare)(&options)?;
    let recorded = settings.corpus_digests.clone();
    let mut digests = Vec::new();
    let corpora = settings
        .corpora
        .iter()
        .enumerate()
        .filter(|(index, _)| pending.iter().any(|slot| slot.corpus == *index))
        .map(|(_, corpus)| corpus);
    for corpus in corpora {
        let options = corpora::OpenOptions {
            cache_dir: schedule.cache_dir.clone(),
            fetch: true,
            progress: true,
        };
        let opened = corpora::open(corpus, &options)
            .with_context(|| format!("opening corpus `{corpus}` (from --corpus)"))?;
        let digest = corpus_digest(&opened);
        match recorded.get(corpus) {
            Some(before) if *before != digest => bail!(
                "cannot resume {}: corpus `{corpus}` has changed since its runs were measured \
                 (files digest {before}, now {digest}); start a new bake-off with another --json",
                schedule
                    .resume
                    .as_deref()
                    .unwrap_or(Path::new(""))
                    .display()
            ),
            None if schedule.resume.is_some()
                && Path::new(corpus).is_relative()
                && !is_named(corpus) =>
            {
                eprintln!(
                    "warning: the resumed file records corpus folder `{corpus}` as a relative \
                     path without a digest of its files (written before compare recorded them): \
                     compare cannot tell it is the tree the earlier runs measured"
                );
            }
            _ => {}
        }
        digests.push((corpus.clone(), digest));
    }
    results.settings.corpus_digests.extend(digests);
    Ok(binaries)
}

/// Records the children's builds (or the slice library's) in the results; a resumed bake-off
/// refuses children built from other sources than the runs it continues.
fn record_children(
    results: &mut Results,
    children: BTreeMap<String, BuildInfo>,
    resumed: Option<&Path>,
) -> Result<()> {
    if let Some(path) = resumed {
        for (name, before) in &results.environment.children {
            if let Some(now) = children.get(name)
                && now.source_digest != before.source_digest
            {
                bail!(
                    "cannot resume {}: its runs of {name} were measured by a child built from \
                     {before}, but this {name} is built from {now}; a resumed bake-off would \
                     mix two builds (start a new bake-off, or check out revision {})",
                    path.display(),
                    before.revision
                );
            }
        }
    }
    results.environment.child_profile = CHILD_PROFILE.to_string();
    results.environment.source_digest = BuildInfo::current().source_digest;
    results.environment.children.extend(children);
    Ok(())
}

/// SHA-256 of a corpus's files and library, path and contents, hex.
fn corpus_digest(corpus: &corpora::Corpus) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for file in corpus.files.iter().chain(&corpus.lib) {
        hasher.update(file.path.as_bytes());
        hasher.update([0]);
        hasher.update((file.bytes.len() as u64).to_le_bytes());
        hasher.update(&file.bytes);
    }
    hex::encode(hasher.finalize())
}
