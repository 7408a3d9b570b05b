//! Whether a program can be reached by `LD_PRELOAD` at all: a statically linked executable
//! (no `PT_INTERP` program header, so no dynamic linker runs) never loads a preload library,
//! and every contender would measure the allocator linked into it.
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// What kind of program a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linking {
    /// An ELF file with a `PT_INTERP` header: the dynamic linker loads it, and preloads.
    Dynamic,
    /// An ELF file without one (static, or static-pie): no preload reaches it.
    Static,
    /// Not an ELF file (a script, whose interpreter is what runs), or unreadable.
    Other,
}

/// `PT_INTERP`: the program header naming the dynamic linker.
const PT_INTERP: u32 = 3;

/// How `path` is linked, from its ELF header and program headers.
pub fn linking(path: &Path) -> Linking {
    let mut bytes = Vec::new();
    // The program headers lie near the start of the file; 64 KiB holds them in practice.
    let read = std::fs::File::open(path).and_then(|f| f.take(64 << 10).read_to_end(&mut bytes));
    if read.is_err() || bytes.len() < 64 || &bytes[..4] != b"\x7fELF" {
        return Linking::Other;
    }
    let little = bytes[5] == 1;
    let num = |at: usize, len: usize| -> Option<u64> {
        let raw = bytes.get(at..at + len)?;
        let mut value = 0u64;
        for (i, &b) in raw.iter().enumerate() {
            let shift = if little { 8 * i } else { 8 * (len - 1 - i) };
            value |= (b as u64) << shift;
        }
        Some(value)
    };
    // (e_phoff, e_phentsize, e_phnum) for ELF32 and ELF64.
    let header = match bytes[4] {
        1 => (num(0x1c, 4), num(0x2a, 2), num(0x2c, 2)),
        2 => (num(0x20, 8), num(0x36, 2), num(0x38, 2)),
        _ => return Linking::Other,
    };
    let (Some(offset), Some(size), Some(count)) = header else {
        return Linking::Other;
    };
    let interp = (0..count).any(|i| {
        let at = offset as usize + (i * size) as usize;
        num(at, 4) == Some(PT_INTERP as u64)
    });
    if interp {
        Linking::Dynamic
    } else {
        Linking::Static
    }
}

/// The program a shell command starts with: its first word after any `NAME=value`
/// assignments and an `exec`, as a path (searched in `PATH` when it has no `/`). `None` when
/// that word is a shell builtin, keyword or anything not found as a file: then only the run
/// itself can tell.
pub fn first_program(command: &str) -> Option<PathBuf> {
    let word = command
        .split_whitespace()
        .find(|w| !is_assignment(w) && *w != "exec")?;
    if word.contains('/') {
        let path = PathBuf::from(word);
        return path.is_file().then_some(path);
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(word))
        .find(|path| path.is_file())
}

/// A shell word `NAME=value` before the command: an assignment to its environment.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_is_dynamic_and_a_script_is_neither() {
        assert_eq!(linking(Path::new("/bin/sh")), Linking::Dynamic);
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("script");
        std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
        assert_eq!(linking(&script), Linking::Other);
    }

    #[test]
    fn ldconfig_is_static_where_debian_links_it_so() {
        let ldconfig = Path::new("/sbin/ldconfig");
        if ldconfig.is_file() {
            assert_eq!(linking(ldconfig), Linking::Static);
        }
    }

    #[test]
    fn the_first_program_skips_assignments_and_exec() {
        assert_eq!(
            first_program("LC_ALL=C exec sh -c true"),
            first_program("sh")
        );
        assert!(first_program("sh -c true").is_some());
        assert_eq!(first_program("for x in 1; do :; done"), None);
    }
}
