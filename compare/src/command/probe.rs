//! The binding probe: before the first run, the command runs once, unmeasured, under each
//! contender, with `LD_DEBUG=bindings`. ld.so then writes, for every process, each symbol
//! reference it binds and the object that defines it
//! (`binding file sh [0] to /lib/x86_64-linux-gnu/libc.so.6 [0]: normal symbol `malloc'`).
//!
//! One `ld.PID` file holds every program that pid ran: an `exec` keeps the pid, and the new
//! program's ld.so appends to the same file. The file is split into its [`Image`]s at each
//! exec (an image's ld.so begins by looking up the vDSO's symbols, `binding file
//! linux-vdso.so.1`, which no program does once ld.so has transferred control to it), so that a program exec'd with `LD_PRELOAD`
//! cleared (`exec env -u LD_PRELOAD prog`) is judged on its own bindings.
//!
//! **What it proves**: every program image of the command that bound `malloc` (the program's
//! own references and glibc's internal ones) bound it to the contender's library (or, for
//! `system`, to glibc's `libc.so.6`), directly or through the main program's PLT entry when
//! that is itself bound there ([`Image::escape`]), so every `malloc` call of those programs
//! went there. Only the main program may pass calls on that way: no library does, and
//! `libc.so.*`, which always binds its own references to the preload, is never excused. A
//! binding in another link-map namespace than the first (`dlmopen`) fails, as does a library
//! bound to another `malloc` than the program's (`RTLD_DEEPBIND`).
//! It does not prove that a process called `malloc` at all, nor anything of a statically
//! linked program (ld.so never runs for it; see [`super::elf`]). The measured runs share the
//! probe's command and environment but for the `LD_DEBUG` variables, so ld.so binds them alike.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::benchmark::judge;
use crate::benchmark::measure::Exit;
use crate::command::elf::Linking;
use crate::command::setup::Setup;
use crate::command::tree::{self, Exec, Tree};
use crate::results::{AllocatorProof, CommandProof};

/// One `malloc` binding: the referencing object and the object it was bound to, each with
/// its link-map namespace (0 but after a `dlmopen`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Binding {
    pub from: String,
    pub from_namespace: u32,
    pub to: String,
    pub to_namespace: u32,
}

/// The `malloc` bindings of one program a process ran: what its ld.so bound between the exec
/// that started it and the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    pub pid: String,
    /// The main program, as ld.so names it (`transferring control: NAME`; before that line,
    /// the first referencing object that is not a `.so`).
    pub program: String,
    /// Every binding of `malloc`, in order.
    pub bindings: Vec<Binding>,
}

/// Whether ld.so's name of an object is glibc's C library.
fn is_libc(object: &str) -> bool {
    Path::new(object)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("libc.so"))
}

impl Image {
    /// Why this image's `malloc` calls may not all go to the expected allocator, if they may
    /// not. A non-PIE program that takes `malloc`'s address has its PLT entry as the canonical
    /// address (ld.so then binds other objects' address references to the program), and that
    /// entry jumps through the program's own binding: the main program, and it alone, serves
    /// nothing itself when its own reference is bound to the expected allocator. No library
    /// is excused so, and never `libc.so.*` (every libc binds its internal references to the
    /// preload, so it would excuse a program that bypasses it).
    pub fn escape(&self, is_expected: impl Fn(&str) -> bool) -> Option<String> {
        let program_forwards = !is_libc(&self.program)
            && self
                .bindings
                .iter()
                .any(|b| b.from == self.program && b.to != self.program && is_expected(&b.to));
        for b in &self.bindings {
            if b.from_namespace != 0 || b.to_namespace != 0 {
                return Some(format!(
                    "{} bound malloc to {} in link-map namespace {} (loaded by dlmopen, where \
                     no preload reaches)",
                    b.from,
                    b.to,
                    b.from_namespace.max(b.to_namespace)
                ));
            }
            if is_expected(&b.to) || (b.to == self.program && program_forwards) {
                continue;
            }
            let why = if b.from != self.program && !is_libc(&b.from) {
                " (a library loaded with RTLD_DEEPBIND looks up its own dependencies first)"
            } else if is_libc(&b.to) {
                " (the preload did not reach this program: was LD_PRELOAD cleared before its exec?)"
            } else {
                ""
            };
            return Some(format!("{} bound malloc to {}{why}", b.from, b.to));
        }
        None
    }
}

/// The `malloc` bindings of one `LD_DEBUG=bindings` output, in order.
pub fn malloc_bindings(text: &str) -> Vec<Binding> {
    images(text).into_iter().flat_map(|i| i.bindings).collect()
}

/// One binding line: `(from, its namespace, to, its namespace, symbol)`.
fn binding(line: &str) -> Option<(&str, u32, &str, u32, &str)> {
    let rest = line.split_once("binding file ")?.1;
    let (from, rest) = rest.split_once(" [")?;
    let (from_ns, rest) = rest.split_once(']')?;
    let to = rest.split_once(" to ")?.1;
    let (to, rest) = to.split_once(" [")?;
    let (to_ns, rest) = rest.split_once(']')?;
    let symbol = rest.split_once("symbol `")?.1.split_once('\'')?.0;
    Some((from, from_ns.parse().ok()?, to, to_ns.parse().ok()?, symbol))
}

/// The program images of one `ld.PID` file, split at each exec (the first vDSO lookup after
/// an image's `transferring control`, which begins the next program's ld.so); images without
/// a `malloc` binding are left out.
pub fn images(text: &str) -> Vec<Image> {
    let mut images: Vec<Image> = Vec::new();
    let mut current = Image::default();
    // The current image has transferred control to its program: its startup is over, so
    // the next vDSO lookup is the next program's ld.so (within a startup ld.so may look up
    // the vDSO's symbols more than once).
    let mut named = false;
    let mut finish = |image: &mut Image, named: bool| {
        let mut image = std::mem::take(image);
        if image.bindings.is_empty() {
            return;
        }
        if !named {
            image.program = image
                .bindings
                .iter()
                .find(|b| !b.from.contains(".so"))
                .unwrap_or(&image.bindings[0])
                .from
                .clone();
        }
        images.push(image);
    };
    for line in text.lines() {
        let body = line.split_once(":\t").map_or(line, |(_, body)| body);
        if let Some(name) = body.strip_prefix("transferring control: ") {
            current.program = name.trim().to_string();
            named = true;
            continue;
        }
        let Some((from, from_namespace, to, to_namespace, symbol)) = binding(body) else {
            continue;
        };
        if named && from.starts_with("linux-vdso.so") {
            finish(&mut current, named);
            named = false;
        }
        if symbol == "malloc" {
            current.bindings.push(Binding {
                from: from.to_string(),
                from_namespace,
                to: to.to_string(),
                to_namespace,
            });
        }
    }
    finish(&mut current, named);
    images
}

/// Every program image in `dir` (files `ld.PID`) that bound `malloc`. A line carries the pid
/// that wrote it: a forked child writes its lazy bindings into its parent's file (the
/// descriptor is inherited) until it execs and opens its own, so lines are grouped by their
/// own pid within each file.
fn all_images(dir: &Path) -> std::io::Result<Vec<Image>> {
    let mut found: BTreeMap<(u64, u64), Vec<Image>> = BTreeMap::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(file_pid) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("ld."))
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut by_pid: BTreeMap<u64, String> = BTreeMap::new();
        for line in text.lines() {
            let pid = line
                .split_once(':')
                .and_then(|(pid, _)| pid.trim().parse().ok())
                .unwrap_or(file_pid);
            let group = by_pid.entry(pid).or_default();
            group.push_str(line);
            group.push('\n');
        }
        for (pid, text) in by_pid {
            let mut images = images(&text);
            for image in &mut images {
                image.pid = pid.to_string();
            }
            found.insert((pid, file_pid), images);
        }
    }
    Ok(found.into_values().flatten().collect())
}

/// The dynamic programs of `tree` that ld.so wrote nothing of (matched by pid and `argv[0]`,
/// ld.so's name of a main program): they ran without the preload, their environment cleared.
/// An error when they took more than [`MAX_UNSERVED_CPU_SHARE`] of the tree's CPU time or
/// the largest peak RSS; else each as `EXE (CPU s)`.
fn unserved(tree: &Tree, images: &[Image], wanted: &str) -> Result<Vec<String>, String> {
    let mut matched = vec![false; images.len()];
    let mut missing = Vec::new();
    for exec in tree.execs.iter().filter(|e| e.linking == Linking::Dynamic) {
        let found = images.iter().enumerate().position(|(i, image)| {
            !matched[i] && image.pid == exec.pid.to_string() && image.program == exec.argv0
        });
        match found {
            Some(i) => matched[i] = true,
            None => missing.push(exec),
        }
    }
    let total: f64 = tree.execs.iter().map(|e| e.cpu_s).sum();
    let unserved_cpu: f64 = missing.iter().map(|e| e.cpu_s).sum();
    let served_rss = tree
        .execs
        .iter()
        .filter(|e| !missing.iter().any(|m| std::ptr::eq(*m, *e)))
        .map(|e| e.max_rss_kib)
        .max()
        .unwrap_or(0);
    let listed = |execs: &[&Exec]| -> Vec<String> {
        execs
            .iter()
            .map(|e| {
                format!(
                    "{} ({:.2} s CPU, {} KiB peak)",
                    e.exe.display(),
                    e.cpu_s,
                    e.max_rss_kib
                )
            })
            .collect()
    };
    let share = if total > 0.0 {
        unserved_cpu / total
    } else {
        0.0
    };
    let largest = missing.iter().find(|e| e.max_rss_kib > served_rss);
    if share > MAX_UNSERVED_CPU_SHARE || largest.is_some() {
        return Err(format!(
            "not served by {wanted}: {} ran without it (ld.so wrote nothing of {}: its \
             environment was cleared, as `env -i` does) and took {:.0}% of the CPU time{}",
            listed(&missing).join(", "),
            if missing.len() == 1 { "it" } else { "them" },
            100.0 * share,
            if largest.is_some() {
                " and the largest peak RSS"
            } else {
                ""
            }
        ));
    }
    Ok(listed(&missing))
}

/// Whether ld.so's name of an object is `expected` (both resolved), or for glibc any
/// `libc.so.*`.
fn is_expected(object: &str, expected: Option<&Path>) -> bool {
    let resolved = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    match expected {
        Some(library) => resolved(Path::new(object)) == resolved(library),
        None => is_libc(object),
    }
}

/// The largest share of the probe tree's CPU time that programs without the contender's
/// allocator may take, as [`judge::MAX_SMALL_FALLBACK_SHARE`] is for small requests: 1%.
pub const MAX_UNSERVED_CPU_SHARE: f64 = 0.01;

/// Why a traced run's end fails the probe: timed out, a signal or a non-zero exit code, in
/// the words a measured run's failure has ([`judge::ended`]).
fn failed(tree: &Tree, stderr: &Path, timeout: Option<Duration>) -> Option<String> {
    if tree.timed_out {
        return Some(timeout.map_or_else(
            || "timed out: killed with its process group".to_string(),
            judge::timed_out,
        ));
    }
    let status = tree.status;
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    judge::ended(exit, &std::fs::read(stderr).unwrap_or_default()).err()
}

/// Runs `command` (`sh -c CMD` in the environment a measured run of `setup` gets) once with
/// `LD_DEBUG=bindings` and every process of it traced ([`tree`]), and proves from ld.so's
/// output that every program image of it bound `malloc` to the contender's allocator, and
/// from the tree that **every process of the run is accounted for**: no statically linked or
/// secure-mode program where a preload is needed, and programs that ld.so wrote nothing of
/// (their environment cleared) took at most [`MAX_UNSERVED_CPU_SHARE`] of the CPU time and
/// never the largest peak RSS.
pub fn prove(
    setup: &Setup,
    mut command: Command,
    timeout: Option<Duration>,
    stop: &AtomicBool,
) -> Result<AllocatorProof, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a folder for LD_DEBUG: {e}"))?;
    let stderr = dir.path().join("stderr");
    let file = std::fs::File::create(&stderr)
        .map_err(|e| format!("cannot make a file for the command's stderr: {e}"))?;
    command
        .env("LD_DEBUG", "bindings")
        .env("LD_DEBUG_OUTPUT", dir.path().join("ld"));
    let tree = tree::trace(command, file, timeout, stop).map_err(|e| {
        format!("cannot start the command traced (ptrace follows its process tree): {e}")
    })?;
    if let Some(why) = failed(&tree, &stderr, timeout) {
        return Err(format!("the command failed: {why}"));
    }
    let images = all_images(dir.path()).map_err(|e| format!("reading ld.so's output: {e}"))?;
    let expected: Option<PathBuf> = setup.library().map(Path::to_path_buf);
    let wanted = expected
        .as_deref()
        .map_or("glibc's libc.so.6".to_string(), |p| p.display().to_string());
    if expected.is_some() {
        for exec in &tree.execs {
            let exe = exec.exe.display();
            if exec.linking == Linking::Static {
                return Err(format!(
                    "process {} ran {exe}, which is statically linked: no LD_PRELOAD reaches \
                     it, so it would measure the allocator linked into it",
                    exec.pid
                ));
            }
            if let Some(why) = exec.secure {
                return Err(format!(
                    "process {} ran {exe} ({why}), which ld.so runs in secure mode: it ignores \
                     LD_PRELOAD, so {wanted} would not serve it",
                    exec.pid
                ));
            }
        }
    }
    if images.is_empty() {
        return Err(format!(
            "no process of the command bound malloc through ld.so (a statically linked command \
             cannot be preloaded), so nothing shows it was served by {wanted}"
        ));
    }
    for image in &images {
        if let Some(why) = image.escape(|to| is_expected(to, expected.as_deref())) {
            return Err(format!(
                "process {} ({}): {why}, not to {wanted}",
                image.pid, image.program
            ));
        }
    }
    let unserved = if expected.is_some() {
        unserved(&tree, &images, &wanted)?
    } else {
        Vec::new()
    };
    let mut executables: Vec<String> = Vec::new();
    for image in &images {
        if !executables.contains(&image.program) {
            executables.push(image.program.clone());
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
            "{object}: malloc bound to it in {n} of {n} program{} (LD_DEBUG=bindings)",
            if images.len() == 1 { "" } else { "s" },
            n = images.len()
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
            processes: images.len() as u32,
            executables,
            unserved,
            ..CommandProof::default()
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIBC: &str = "/lib/x86_64-linux-gnu/libc.so.6";
    const JEMALLOC: &str = "/usr/lib/libjemalloc.so.2";

    /// ld.so's lines of one image of pid 1: its vDSO lookups, `bindings` as `(from, to)`
    /// for `malloc`, and its transfer of control to `program`.
    fn image(program: &str, bindings: &[(&str, &str)]) -> String {
        let mut text = String::from(
            "     1:\tbinding file linux-vdso.so.1 [0] to linux-vdso.so.1 [0]: normal symbol `__vdso_time' [LINUX_2.6]\n",
        );
        for (from, to) in bindings {
            text += &format!(
                "     1:\tbinding file {from} [0] to {to} [0]: normal symbol `malloc' [GLIBC_2.2.5]\n"
            );
            text += &format!(
                "     1:\tbinding file {from} [0] to {LIBC} [0]: normal symbol `free' [GLIBC_2.2.5]\n"
            );
        }
        text += &format!("     1:\t\n     1:\ttransferring control: {program}\n     1:\t\n");
        text
    }

    fn escape(text: &str, expected: &str) -> Vec<Option<String>> {
        images(text)
            .iter()
            .map(|i| i.escape(|to| to == expected))
            .collect()
    }

    #[test]
    fn ld_so_binding_lines_name_both_objects_and_their_namespaces() {
        let text = format!(
            "     16814:\tbinding file sh [0] to {LIBC} [0]: normal symbol `malloc' [GLIBC_2.2.5]\n     16814:\tbinding file {LIBC} [1] to {JEMALLOC} [1]: normal symbol `malloc'\n     16814:\tbinding file sh [0] to {LIBC} [0]: normal symbol `free' [GLIBC_2.2.5]\n"
        );
        let bindings = malloc_bindings(&text);
        assert_eq!(bindings.len(), 2);
        assert_eq!(
            (bindings[0].from.as_str(), bindings[0].to.as_str()),
            ("sh", LIBC)
        );
        assert_eq!(
            (
                bindings[1].from.as_str(),
                bindings[1].to.as_str(),
                bindings[1].to_namespace
            ),
            (LIBC, JEMALLOC, 1)
        );
    }

    #[test]
    fn a_program_exec_d_in_the_same_pid_without_the_preload_is_its_own_image_and_escapes() {
        let text = image("sh", &[(LIBC, JEMALLOC), ("sh", JEMALLOC)])
            + &image("env", &[(LIBC, JEMALLOC), ("env", JEMALLOC)])
            + &image("sort", &[(LIBC, LIBC), ("sort", LIBC)]);
        let found = images(&text);
        let programs: Vec<&str> = found.iter().map(|i| i.program.as_str()).collect();
        assert_eq!(programs, ["sh", "env", "sort"]);
        let verdicts = escape(&text, JEMALLOC);
        assert_eq!(verdicts[..2], [None, None]);
        let why = verdicts[2].as_deref().expect("sort escapes");
        assert!(why.contains(LIBC) && why.contains("LD_PRELOAD"), "{why}");
    }

    #[test]
    fn vdso_lookups_within_one_startup_do_not_split_it() {
        let vdso = "     1:\tbinding file linux-vdso.so.1 [0] to linux-vdso.so.1 [0]: normal symbol `__vdso_time' [LINUX_2.6]\n";
        // libc's binding, more vDSO lookups (as ld.so makes for sqlite3), then the program's.
        let first = image("sqlite3", &[(LIBC, JEMALLOC)]);
        let (startup, transfer) = first.split_once("     1:\t\n").unwrap();
        let program = image("sqlite3", &[("sqlite3", JEMALLOC)]);
        let program = program
            .split_once('\n')
            .unwrap()
            .1
            .split_once("     1:\t\n")
            .unwrap()
            .0;
        let text = format!("{startup}{vdso}{program}     1:\t\n{transfer}");
        let found = images(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].program, "sqlite3");
    }

    #[test]
    fn a_program_whose_plt_entry_is_malloc_s_canonical_address_passes_calls_on() {
        let python = "/usr/bin/python3";
        let forwarding = image(
            python,
            &[(LIBC, python), (python, python), (python, JEMALLOC)],
        );
        assert_eq!(escape(&forwarding, JEMALLOC), [None]);
        let own = forwarding.replace(JEMALLOC, python);
        assert_eq!(
            escape(&own, JEMALLOC),
            [Some(format!("{LIBC} bound malloc to {python}"))]
        );
    }

    #[test]
    fn only_the_main_program_may_pass_calls_on_and_libc_never() {
        // glibc always binds its own references to the preload: that must not excuse the
        // program's reference bound to glibc.
        let text = image("sort", &[(LIBC, JEMALLOC), ("sort", LIBC)]);
        assert!(escape(&text, JEMALLOC)[0].is_some());
        // A library bound to another library that forwards is not excused either.
        let lib = "/usr/lib/libfoo.so.1";
        let text = image("prog", &[(LIBC, JEMALLOC), ("prog", JEMALLOC), (lib, LIBC)]);
        let why = escape(&text, JEMALLOC)[0].clone().expect("libfoo escapes");
        assert!(why.contains("RTLD_DEEPBIND"), "{why}");
    }

    #[test]
    fn a_binding_in_another_namespace_is_an_escape() {
        let text = image("prog", &[(LIBC, JEMALLOC), ("prog", JEMALLOC)]).replace(
            "transferring",
            &format!(
                "binding file /usr/lib/libplugin.so [1] to {JEMALLOC} [1]: normal symbol `malloc'\n     1:\ttransferring"
            ),
        );
        let why = escape(&text, JEMALLOC)[0]
            .clone()
            .expect("a dlmopen escapes");
        assert!(why.contains("dlmopen"), "{why}");
    }

    #[test]
    fn glibc_is_any_libc_so() {
        assert!(is_expected(LIBC, None));
        assert!(!is_expected(JEMALLOC, None));
    }
}
