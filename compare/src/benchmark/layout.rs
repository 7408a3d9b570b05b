//! The same memory layout for every child.
//!
//! At exec the kernel copies the program's path, its arguments and its environment onto
//! the top of the new stack, with a pointer to each, so their total size moves where the
//! stack, and everything the program keeps on it, starts. Mytkowicz et al. (ASPLOS 2009)
//! measured biases of several percent from the environment's size alone. Contenders differ
//! here in exactly these bytes: their binaries' paths, and only slice children get
//! `CHECKBENCH_SLICE`.
//!
//! **Every child's exec strings take the same room, plus a per-run random padding**: its
//! argv[0] is [`ARGV0`] and a filler variable [`FILLER_VAR`] brings the path, the
//! arguments, the environment and their pointers to one total for the whole bake-off, plus
//! 0 to [`MAX_PADDING`] bytes drawn per run from the seed and recorded with the run, so
//! that no alignment can favour one contender and its effect averages out over rounds.
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::process::Command;

use crate::benchmark::schedule::Slot;

/// argv[0] of every child.
pub const ARGV0: &str = "checkbench-child";
/// The variable whose value pads the environment.
pub const FILLER_VAR: &str = "CHECKBENCH_LAYOUT_FILLER";
/// The most random padding of one run, in bytes.
pub const MAX_PADDING: usize = 4096;
/// Room for what differs between contenders' commands (path, arguments, the policy
/// variable) above the parent's own environment, in bytes.
const ALLOWANCE: usize = 1024;
/// Size of one argv or envp pointer.
const POINTER: usize = std::mem::size_of::<usize>();

/// The random padding of the run in `slot`, 0 to [`MAX_PADDING`] bytes, from the seed.
pub fn padding_bytes(seed: u64, slot: &Slot) -> usize {
    let mut name = slot.contender.to_string().into_bytes();
    name.extend_from_slice(&[slot.warmup as u8]);
    let hashed = name.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = fastrand::Rng::with_seed(
        seed ^ hashed
            ^ (slot.corpus as u64).rotate_left(48)
            ^ (slot.checkers as u64).rotate_left(32)
            ^ slot.round as u64,
    );
    rng.usize(0..=MAX_PADDING)
}

/// The environment `command` will hand its child: this process's, with the command's
/// changes applied.
fn child_env(command: &Command) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    for (key, value) in command.get_envs() {
        env.retain(|(k, _)| k != key);
        if let Some(value) = value {
            env.push((key.to_os_string(), value.to_os_string()));
        }
    }
    env
}

/// Bytes exec places on the child's stack for `command` with `argv0`: the path (also
/// kept as AT_EXECFN), each argument and each `KEY=VALUE`, NUL-terminated, and the
/// pointer arrays with their terminating nulls.
pub fn exec_bytes(command: &Command, argv0: &OsStr) -> usize {
    let string = |s: &OsStr| s.as_bytes().len() + 1;
    let args: Vec<&OsStr> = command.get_args().collect();
    let env = child_env(command);
    string(command.get_program())
        + string(argv0)
        + args.iter().map(|a| string(a)).sum::<usize>()
        + env
            .iter()
            .map(|(k, v)| k.len() + 1 + v.len() + 1)
            .sum::<usize>()
        + POINTER * (args.len() + 2)
        + POINTER * (env.len() + 1)
}

/// The total every child's exec bytes are brought to, before the random padding.
fn target_bytes() -> usize {
    let env: usize = std::env::vars_os()
        .filter(|(k, _)| k != FILLER_VAR)
        .map(|(k, v)| k.len() + v.len() + 2 + POINTER)
        .sum();
    env + ALLOWANCE
}

/// Sets argv[0] to [`ARGV0`] and the filler so that the child's exec bytes are the
/// bake-off's common total plus `padding`. A command too large for the allowance gets
/// an empty filler (and a layout of its own).
pub fn equalize(command: &mut Command, padding: usize) {
    command.arg0(ARGV0);
    command.env(FILLER_VAR, "");
    let now = exec_bytes(command, OsStr::new(ARGV0));
    let fill = (target_bytes() + padding).saturating_sub(now);
    command.env(FILLER_VAR, "x".repeat(fill));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn equalized(program: &str, policy: Option<&str>, padding: usize) -> usize {
        let mut command = Command::new(program);
        command.args(["--corpus", "synthetic", "--json"]);
        if let Some(policy) = policy {
            command.env(slice_alloc::POLICY_ENV, policy);
        }
        equalize(&mut command, padding);
        exec_bytes(&command, OsStr::new(ARGV0))
    }

    #[test]
    fn children_of_different_paths_and_environments_get_the_same_exec_bytes() {
        let slice = equalized("/t/release/checkbench-slice", Some("hybrid@8"), 0);
        let mimalloc = equalized("/t/release/checkbench-mimalloc", None, 0);
        assert_eq!(slice, mimalloc);
    }

    #[test]
    fn the_random_padding_adds_exactly_its_bytes() {
        let base = equalized("/t/release/checkbench-system", None, 0);
        assert_eq!(
            equalized("/t/release/checkbench-system", None, 4096),
            base + 4096
        );
    }

    #[test]
    fn the_child_sees_the_common_argv0_and_the_filler() {
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "tr '\\0' '\\n' < /proc/$$/cmdline | head -n 1; printf %s \"$CHECKBENCH_LAYOUT_FILLER\" | wc -c",
        ]);
        equalize(&mut command, 100);
        let expected = child_env(&command)
            .into_iter()
            .find(|(k, _)| k == FILLER_VAR)
            .map(|(_, v)| v.len())
            .unwrap();
        let out = command.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        assert_eq!(
            lines,
            vec![ARGV0.to_string(), expected.to_string()],
            "{text}"
        );
        assert!(expected >= 100);
    }

    #[test]
    fn the_padding_follows_from_the_seed_and_stays_within_four_kib() {
        let slot = |round| Slot {
            corpus: 0,
            checkers: 1,
            contender: crate::contender::Contender::Mimalloc,
            round,
            warmup: false,
        };
        let draws: Vec<usize> = (0..64).map(|r| padding_bytes(9, &slot(r))).collect();
        assert!(draws.iter().all(|&p| p <= MAX_PADDING));
        assert_eq!(
            draws,
            (0..64)
                .map(|r| padding_bytes(9, &slot(r)))
                .collect::<Vec<_>>()
        );
        let distinct: std::collections::BTreeSet<usize> = draws.iter().copied().collect();
        assert!(distinct.len() > 32, "{distinct:?}");
    }
}
