//! The command line of a command bake-off: `--command` and `--no-digest`, and the checker's
//! options refused beside them (a command has no corpus, checker count or corpus cache).
use anyhow::{Result, bail};
use clap::ArgMatches;
use clap::parser::ValueSource;

use crate::results::{CommandSettings, Settings};

/// The checker's options, by clap id and flag: meaningless for a command.
const CHECKER_ONLY: &[(&str, &str)] = &[
    ("corpus", "--corpus"),
    ("checkers", "--checkers"),
    ("cache_dir", "--cache-dir"),
];

/// The commands of `--command`, checked, and what the plan records of them; `None` without
/// `--command`. A checker option given beside it is an error that names it.
pub fn plan(
    commands: &[String],
    no_digest: bool,
    matches: &ArgMatches,
) -> Result<Option<(Vec<String>, CommandSettings)>> {
    if commands.is_empty() {
        return Ok(None);
    }
    for (id, flag) in CHECKER_ONLY {
        if matches.value_source(id) == Some(ValueSource::CommandLine) {
            bail!(
                "{flag} belongs to the checker workload, but --command measures a command \
                 instead of the checker: give one or the other"
            );
        }
    }
    let mut checked: Vec<String> = Vec::new();
    for command in commands {
        let command = command.trim();
        if command.is_empty() {
            bail!(
                "--command is empty: give the shell command to measure, e.g. --command 'sort big.txt'"
            );
        }
        if checked.iter().any(|c| c == command) {
            bail!(
                "--command `{command}` is given twice; each command is measured once per bake-off"
            );
        }
        checked.push(command.to_string());
    }
    Ok(Some((checked, CommandSettings { digest: !no_digest })))
}

/// A resumed bake-off without `--command` (and without `--corpus`) continues the workload of
/// its file: its corpora or commands, and for commands the digest setting.
pub fn continue_workload(settings: &mut Settings, previous: &Settings, matches: &ArgMatches) {
    let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    if !given("commands") && !given("corpus") {
        settings.command = previous.command;
        if previous.command.is_some() {
            settings.checkers = previous.checkers.clone();
        }
    }
}
