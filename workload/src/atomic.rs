//! Writing a file whole or not at all, and **leaving nothing beside it when killed**.
//!
//! The bytes go to an unnamed file in the target's folder (`O_TMPFILE`): until it has a
//! name, the kernel removes it when the writer dies, however it dies. Once the bytes are
//! written and synced, the file is linked under the fixed name `.<file>.partial` and renamed
//! over the target. A kill between those two calls leaves `.<file>.partial`, a complete copy
//! of what was about to land; the next write of the target, or [`remove_leftover`], removes
//! it. Where the folder's filesystem has no `O_TMPFILE` (or `/proc` is not mounted), the bytes
//! are written to `.<file>.partial` directly, with the same clean-up.
use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::os::unix::io::AsRawFd as _;
use std::path::{Path, PathBuf};

/// Readable like any file the user creates: 0666 less the umask.
const MODE: u32 = 0o666;

/// Writes `bytes` to `path` whole or not at all; when `path` is a symbolic link, to the file
/// it points to ([`follow_link`]), so the link stays.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = follow_link(path);
    let partial = leftover_path(&target);
    remove_if_present(&partial)?;
    match unnamed_in(parent(&target))? {
        Some(mut file) => {
            file.write_all(bytes)?;
            file.sync_all()?;
            if let Err(e) = name(&file, &partial) {
                // No /proc to name the file through: write it under the name instead.
                drop(file);
                write_named(&partial, bytes).map_err(|_| e)?;
            }
        }
        None => write_named(&partial, bytes)?,
    }
    std::fs::rename(&partial, &target).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

/// The file a symbolic link at `path` points to (followed to the end), or `path` itself.
/// Files are written to the link's target, so a link stays a link.
pub fn follow_link(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(target) => path = parent(&path).join(target),
            Err(_) => break,
        }
    }
    path
}

/// The folder `path` is in: `.` for a bare file name.
pub fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// The name a write of `target` gives its file between naming it and renaming it over
/// `target`: `.<file>.partial` beside it.
pub fn leftover_path(target: &Path) -> PathBuf {
    let target = follow_link(target);
    let mut name = std::ffi::OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(".partial");
    target.with_file_name(name)
}

/// Removes what a write of `target` killed at the wrong moment left behind; whether there
/// was anything.
pub fn remove_leftover(target: &Path) -> io::Result<bool> {
    remove_if_present(&leftover_path(target))
}

/// Whether new files can be made in `dir`, checked without leaving one there even for a
/// moment when the filesystem has `O_TMPFILE`.
pub fn check_creatable(dir: &Path) -> io::Result<()> {
    match unnamed_in(dir)? {
        Some(_) => Ok(()),
        None => tempfile::NamedTempFile::new_in(dir).map(drop),
    }
}

fn remove_if_present(path: &Path) -> io::Result<bool> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// An unnamed file in `dir`, or `None` where its filesystem cannot make one.
fn unnamed_in(dir: &Path) -> io::Result<Option<File>> {
    let opened = OpenOptions::new()
        .write(true)
        .mode(MODE)
        .custom_flags(libc::O_TMPFILE)
        .open(dir);
    match opened {
        Ok(file) => Ok(Some(file)),
        // EOPNOTSUPP: the filesystem has none; EISDIR or EINVAL: the kernel knows no
        // O_TMPFILE and took it for O_DIRECTORY alone.
        Err(e)
            if matches!(
                e.raw_os_error(),
                Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Gives the unnamed `file` the name `at`, by way of its `/proc/self/fd` link.
fn name(file: &File, at: &Path) -> io::Result<()> {
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = CString::new(at.as_os_str().as_bytes())?;
    // SAFETY: both strings are valid and NUL-terminated for the duration of the call.
    let linked = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if linked == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn write_named(at: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(MODE)
        .open(at)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.json");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["runs.json"]);
    }

    #[test]
    fn a_write_removes_what_a_killed_write_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.json");
        std::fs::write(leftover_path(&path), b"a killed write's copy").unwrap();
        write_atomically(&path, b"runs").unwrap();
        assert_eq!(names(dir.path()), ["runs.json"]);
    }

    #[test]
    fn the_written_file_is_readable_by_others_as_the_umask_allows() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.md");
        write_atomically(&path, b"report").unwrap();
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let umask = status
            .lines()
            .find_map(|line| line.strip_prefix("Umask:"))
            .map(|mask| u32::from_str_radix(mask.trim(), 8).unwrap())
            .unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask);
    }
}
