//! Resuming a bake-off: the plan a `--resume` file records, merged with what the command
//! line asks, and refused where the two would mix two plans in one results file.
use std::path::Path;

use anyhow::{Result, bail};
use clap::ArgMatches;
use clap::parser::ValueSource;

use crate::contender::Contender;
use crate::results::{RoundDefaults, Settings};

/// Whether the option `id` was given (not left to its default). `matches` are the command's
/// own: an option it does not have (reproduce has no `--contenders`, a bake-off no
/// `--ablations`) counts as not given.
pub fn given(matches: &ArgMatches, id: &str) -> bool {
    matches.try_get_raw(id).is_ok()
        && matches
            .value_source(id)
            .is_some_and(|s| s != ValueSource::DefaultValue)
}

/// A resumed bake-off (or reproduce) keeps the plan of the file it continues, except where
/// the command line says otherwise ([`given`]).
pub fn continue_plan(settings: &mut Settings, previous: Settings, matches: &ArgMatches) {
    let defaulted = |ids: &[&str]| !ids.iter().any(|id| given(matches, id));
    let rounds = defaulted(&["runs"]);
    // Each setting takes the resumed file's value where its options were not given.
    macro_rules! keep {
        ($($setting:ident: $kept:expr,)*) => {
            $(if $kept {
                settings.$setting = previous.$setting;
            })*
        };
    }
    keep! {
        corpora: defaulted(&["corpus", "commands"]),
        checkers: defaulted(&["checkers"]) && settings.command.is_none(),
        contenders: defaulted(&["contenders", "ablations"]),
        baseline: defaulted(&["baseline"]),
        min_runs: rounds && defaulted(&["min_runs"]),
        max_runs: rounds && defaulted(&["max_runs"]),
        precision_pct: rounds && defaulted(&["precision"]),
        precision_by_corpus: rounds && defaulted(&["precision_for"]),
        control: defaulted(&["no_control"]),
        seed: defaulted(&["seed"]),
        warmup: defaulted(&["warmup"]),
        workload: defaulted(&["workload"]),
    }
    if !settings.contenders.contains(&settings.baseline) {
        settings.contenders.insert(0, settings.baseline);
    }
}

/// A precision needs a most rounds (the defaults' when a resumed fixed plan gets one), and
/// the most rounds cannot be below the least.
pub fn check_rounds(settings: &mut Settings, defaults: RoundDefaults) -> Result<()> {
    if settings.precision_pct.is_some() && settings.max_runs.is_none() {
        settings.max_runs = Some(defaults.max_runs.max(settings.min_runs));
    }
    if let Some(max) = settings.max_runs
        && max < settings.min_runs
    {
        bail!("--max-runs {max} is below --min-runs {}", settings.min_runs);
    }
    Ok(())
}

/// A resumed bake-off runs the plan of the file it continues. A command line that asks
/// for another plan is refused, naming what differs, unless `--extend` is given and the
/// new plan only adds to the old one (corpora, checker counts, contenders, rounds).
pub fn check_resumable(
    path: &Path,
    previous: &Settings,
    asked: &Settings,
    extend: bool,
) -> Result<()> {
    if previous.workload != asked.workload {
        bail!(
            "cannot resume {}: its runs measured the `{}` workload, not `{}`; start a new \
             bake-off with another --json",
            path.display(),
            previous.workload,
            asked.workload
        );
    }
    let mut changes = Vec::new();
    let mut shrinks = Vec::new();
    let set = |v: &[String]| v.iter().cloned().collect::<std::collections::BTreeSet<_>>();
    let names = |v: &[Contender]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let nums = |v: &[usize]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    for (what, before, now) in [
        ("corpora", set(&previous.corpora), set(&asked.corpora)),
        (
            "checker counts",
            set(&nums(&previous.checkers)),
            set(&nums(&asked.checkers)),
        ),
        (
            "contenders",
            set(&names(&previous.contenders)),
            set(&names(&asked.contenders)),
        ),
    ] {
        if before != now {
            let added: Vec<_> = now.difference(&before).cloned().collect();
            let dropped: Vec<_> = before.difference(&now).cloned().collect();
            if !dropped.is_empty() {
                shrinks.push(format!("{what} {} dropped", dropped.join(",")));
            }
            if !added.is_empty() {
                changes.push(format!("{what} {} added", added.join(",")));
            }
        }
    }
    let most = |s: &Settings| s.max_runs.unwrap_or(s.min_runs);
    let rounds = format!(
        "rounds {}..={} instead of {}..={}",
        asked.min_runs,
        most(asked),
        previous.min_runs,
        most(previous)
    );
    if asked.min_runs < previous.min_runs || most(asked) < most(previous) {
        shrinks.push(rounds);
    } else if asked.min_runs != previous.min_runs || most(asked) != most(previous) {
        changes.push(rounds);
    }
    if asked.precision_pct != previous.precision_pct
        || asked.precision_by_corpus != previous.precision_by_corpus
    {
        changes.push("another --precision".to_string());
    }
    for (what, differs) in [
        ("baseline", asked.baseline != previous.baseline),
        ("A/A control", asked.control != previous.control),
        (
            "workload (command or checker, digest)",
            asked.command != previous.command,
        ),
        ("seed", asked.seed != previous.seed),
    ] {
        if differs {
            shrinks.push(format!("another {what}"));
        }
    }
    if shrinks.is_empty() && (changes.is_empty() || extend) {
        if !changes.is_empty() {
            eprintln!(
                "extending the plan of {}: {}",
                path.display(),
                changes.join("; ")
            );
        }
        return Ok(());
    }
    let all: Vec<String> = shrinks.iter().chain(&changes).cloned().collect();
    let hint = if shrinks.is_empty() {
        "pass --extend to add them to the plan, or resume without these options"
    } else {
        "resume without these options to finish the recorded plan, or start a new bake-off \
         with another --json"
    };
    bail!(
        "cannot resume {}: this command line asks for another plan than the file's ({}); {hint}",
        path.display(),
        all.join("; ")
    )
}
