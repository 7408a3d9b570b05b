//! The binding probe: before the first run, the command runs once, unmeasured, under each
//! contender that is not a slice policy, with `LD_DEBUG=bindings`. ld.so then writes, for
//! every process, each symbol reference it binds and the object that defines it
//! (`binding file sh [0] to /lib/x86_64-linux-gnu/libc.so.6 [0]: normal symbol `malloc'`).
//!
//! **What it proves**: every process of the command that bound `malloc` (the program's own
//! references and glibc's internal ones) bound it to the contender's library (or, for
//! `system`, to glibc's `libc.so.6`), directly or through a program's PLT entry that is
//! itself bound there ([`Process::elsewhere`]), so every `malloc` call of those processes
//! went there.
//! It does not prove that a process called `malloc` at all, nor anything of a statically
//! linked program (ld.so never runs for it; see [`super::elf`]). The measured runs share the
//! probe's command and environment but for the `LD_DEBUG` variables, so ld.so binds them alike.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::benchmark::measure;
use crate::command::proof::CommandProof;
use crate::command::setup::{Allocator, Setup};
use crate::results::AllocatorProof;

/// The `malloc` bindings of one process, from its `LD_DEBUG` output file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Process {
    pub pid: String,
    /// The object whose reference was bound first: the program (as ld.so names it).
    pub program: String,
    /// Every binding of `malloc`: `(referencing object, object it was bound to)`.
    pub bindings: Vec<(String, String)>,
}

impl Process {
    /// The first object `malloc` was bound to that does not pass calls on to the expected
    /// allocator, if any. A non-PIE program that takes `malloc`'s address has its PLT entry
    /// as the canonical address (ld.so then binds other objects' address references to the
    /// program), and that entry jumps through the program's own binding: such an object
    /// serves nothing itself when its own reference is bound to the expected allocator.
    pub fn elsewhere(&self, is_expected: impl Fn(&str) -> bool) -> Option<&str> {
        let forwards = |object: &str| {
            self.bindings
                .iter()
                .any(|(from, to)| from == object && to != object && is_expected(to))
        };
        self.bindings
            .iter()
            .map(|(_, to)| to.as_str())
            .find(|to| !is_expected(to) && !forwards(to))
    }
}

/// The `malloc` bindings of one `LD_DEBUG=bindings` output, `(from, to)` per line.
pub fn malloc_bindings(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|line| {
            line.ends_with("normal symbol `malloc'") || line.contains("symbol `malloc' [")
        })
        .filter_map(|line| {
            let rest = line.split_once("binding file ")?.1;
            let (from, rest) = rest.split_once(" [")?;
            let to = rest.split_once(" to ")?.1;
            let (to, _) = to.split_once(" [")?;
            Some((from.to_string(), to.to_string()))
        })
        .collect()
}

/// Every process in `dir` (files `ld.PID`) that bound `malloc`.
fn processes(dir: &Path) -> std::io::Result<Vec<Process>> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(pid) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("ld."))
        else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let bindings = malloc_bindings(&text);
        let Some((program, _)) = bindings
            .iter()
            .find(|(from, _)| !from.contains(".so"))
            .or(bindings.first())
        else {
            continue;
        };
        let program = program.clone();
        found.insert(
            pid.parse::<u64>().unwrap_or(0),
            Process {
                pid: pid.to_string(),
                program,
                bindings,
            },
        );
    }
    Ok(found.into_values().collect())
}

/// Whether ld.so's name of an object is `expected` (both resolved), or for glibc any
/// `libc.so.*`.
fn is_expected(object: &str, expected: Option<&Path>) -> bool {
    let resolved = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    match expected {
        Some(library) => resolved(Path::new(object)) == resolved(library),
        None => Path::new(object)
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("libc.so")),
    }
}

/// Runs `command` (`sh -c CMD` in the environment a measured run of `setup` gets) once with
/// `LD_DEBUG=bindings`, and proves from ld.so's output that its processes bound `malloc` to
/// the contender's allocator.
pub fn prove(
    setup: &Setup,
    mut command: Command,
    timeout: Option<Duration>,
    stop: &AtomicBool,
) -> Result<AllocatorProof, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a folder for LD_DEBUG: {e}"))?;
    command
        .env("LD_DEBUG", "bindings")
        .env("LD_DEBUG_OUTPUT", dir.path().join("ld"));
    let measured = measure::measure(command, timeout, stop)
        .map_err(|e| format!("cannot start the command: {e}"))?;
    measure::exit_status(&measured).map_err(|why| format!("the command failed: {why}"))?;
    let processes = processes(dir.path()).map_err(|e| format!("reading ld.so's output: {e}"))?;
    let expected: Option<PathBuf> = match &setup.allocator {
        Allocator::Library(path) => Some(path.clone()),
        Allocator::System => None,
        Allocator::Slice { library, .. } => Some(library.clone()),
    };
    let wanted = expected
        .as_deref()
        .map_or("glibc's libc.so.6".to_string(), |p| p.display().to_string());
    if processes.is_empty() {
        return Err(format!(
            "no process of the command bound malloc through ld.so (a statically linked command \
             cannot be preloaded), so nothing shows it was served by {wanted}"
        ));
    }
    for process in &processes {
        if let Some(other) = process.elsewhere(|to| is_expected(to, expected.as_deref())) {
            return Err(format!(
                "process {} ({}) bound malloc to {other}, not to {wanted}",
                process.pid, process.program
            ));
        }
    }
    let mut executables: Vec<String> = Vec::new();
    for process in &processes {
        if !executables.contains(&process.program) {
            executables.push(process.program.clone());
        }
    }
    let object = expected.as_deref().map_or_else(
        || {
            // SAFETY: gnu_get_libc_version returns a pointer to a static NUL-terminated string.
            let version = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) };
            format!("glibc {}", version.to_string_lossy())
        },
        |path| {
            std::fs::canonicalize(path)
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| path.display().to_string())
        },
    );
    Ok(AllocatorProof {
        name: setup.contender.allocator_name().to_string(),
        identity: format!(
            "{object}: malloc bound to it in {n} of {n} process{} (LD_DEBUG=bindings)",
            if processes.len() == 1 { "" } else { "es" },
            n = processes.len()
        ),
        policy: None,
        arenas_claimed: None,
        switches: None,
        carved_bytes: None,
        largest_slice_bytes: None,
        fallbacks: None,
        slice_bytes: None,
        slices: Vec::new(),
        command: Some(CommandProof {
            method: "bindings".to_string(),
            processes: processes.len() as u32,
            executables,
            ..CommandProof::default()
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ld_so_binding_lines_name_both_objects() {
        let text = "     16814:\tbinding file sh [0] to /lib/x86_64-linux-gnu/libc.so.6 [0]: normal symbol `malloc' [GLIBC_2.2.5]\n     16814:\tbinding file /lib/x86_64-linux-gnu/libc.so.6 [0] to /usr/lib/libjemalloc.so.2 [0]: normal symbol `malloc'\n     16814:\tbinding file sh [0] to /lib/x86_64-linux-gnu/libc.so.6 [0]: normal symbol `free' [GLIBC_2.2.5]\n";
        assert_eq!(
            malloc_bindings(text),
            vec![
                (
                    "sh".to_string(),
                    "/lib/x86_64-linux-gnu/libc.so.6".to_string()
                ),
                (
                    "/lib/x86_64-linux-gnu/libc.so.6".to_string(),
                    "/usr/lib/libjemalloc.so.2".to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_program_whose_plt_entry_is_malloc_s_canonical_address_passes_calls_on() {
        let jemalloc = "/usr/lib/libjemalloc.so.2";
        let text = format!(
            "1:\tbinding file /lib/libc.so.6 [0] to /usr/bin/python3 [0]: normal symbol `malloc'\n\
             1:\tbinding file /usr/bin/python3 [0] to /usr/bin/python3 [0]: normal symbol `malloc'\n\
             1:\tbinding file /usr/bin/python3 [0] to {jemalloc} [0]: normal symbol `malloc'\n"
        );
        let forwarding = Process {
            bindings: malloc_bindings(&text),
            ..Process::default()
        };
        assert_eq!(forwarding.elsewhere(|to| to == jemalloc), None);
        let own = Process {
            bindings: malloc_bindings(&text.replace(jemalloc, "/usr/bin/python3")),
            ..Process::default()
        };
        assert_eq!(own.elsewhere(|to| to == jemalloc), Some("/usr/bin/python3"));
    }

    #[test]
    fn glibc_is_any_libc_so() {
        assert!(is_expected("/lib/x86_64-linux-gnu/libc.so.6", None));
        assert!(!is_expected("/usr/lib/libjemalloc.so.2", None));
    }
}
