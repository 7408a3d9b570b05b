//! One bake-off per results file.
//!
//! **Two bake-offs never write one results file**: each would rewrite the whole file
//! after every run and the last writer's runs would be all that is left. A bake-off holds
//! an exclusive `flock` on `<results>.lock` for as long as it runs; the lock file names its
//! holder, and the kernel releases the lock when the holder exits, however it exits.
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::os::unix::io::AsRawFd as _;
use std::path::{Path, PathBuf};

use super::follow_link;

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{} is in use by another bake-off ({holder}); wait for it to finish, or write to \
         another file with --json (lock file {})",
        .results.display(), .lock.display()
    )]
    Held {
        results: PathBuf,
        lock: PathBuf,
        holder: String,
    },
    #[error("cannot lock {}: {error}", .lock.display())]
    Io {
        lock: PathBuf,
        error: std::io::Error,
    },
}

/// The exclusive lock on one results file, released (and its lock file removed) on drop.
#[derive(Debug)]
pub struct ResultsLock {
    file: File,
    lock: PathBuf,
}

impl ResultsLock {
    /// Locks `results` (a symbolic link is followed: the file written is what is locked),
    /// recording this process as the holder, or says who holds it.
    pub fn acquire(results: &Path) -> Result<ResultsLock, LockError> {
        let target = follow_link(results);
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let lock = target.with_file_name(name);
        let io = |error| LockError::Io {
            lock: lock.clone(),
            error,
        };
        // A holder removes its lock file on release; one opened just before that removal
        // is locked in vain, so lock until the locked file is the one at the path.
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&lock)
                .map_err(io)?;
            // SAFETY: flock on a descriptor this function owns; no memory is involved.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::WouldBlock {
                    return Err(io(error));
                }
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                return Err(LockError::Held {
                    results: results.to_path_buf(),
                    lock,
                    holder: if holder.is_empty() {
                        "holder unknown".to_string()
                    } else {
                        holder.to_string()
                    },
                });
            }
            let same = match (file.metadata(), std::fs::metadata(&lock)) {
                (Ok(held), Ok(now)) => held.ino() == now.ino() && held.dev() == now.dev(),
                _ => false,
            };
            if !same {
                continue;
            }
            file.set_len(0).map_err(io)?;
            file.rewind().map_err(io)?;
            let command: Vec<String> = std::env::args().collect();
            writeln!(
                file,
                "pid {}, started {} s after the epoch: {}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
                command.join(" ")
            )
            .map_err(io)?;
            return Ok(ResultsLock { file, lock });
        }
    }
}

impl Drop for ResultsLock {
    fn drop(&mut self) {
        // Removed while still locked, so no other bake-off can take a file about to vanish.
        let _ = std::fs::remove_file(&self.lock);
        let _ = self.file.set_len(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_results_file_is_refused_naming_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("runs.json");
        let held = ResultsLock::acquire(&results).unwrap();
        let error = ResultsLock::acquire(&results).unwrap_err().to_string();
        assert!(
            error.contains("in use by another bake-off")
                && error.contains(&format!("pid {}", std::process::id()))
                && error.contains("runs.json"),
            "{error}"
        );
        drop(held);
        assert!(!dir.path().join("runs.json.lock").exists());
        ResultsLock::acquire(&results).expect("free again once released");
    }

    #[test]
    fn a_link_and_its_target_share_one_lock() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("runs.json");
        std::fs::write(&results, "{}").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&results, &link).unwrap();
        let _held = ResultsLock::acquire(&link).unwrap();
        assert!(ResultsLock::acquire(&results).is_err());
    }
}
