//! What a run keeps of its output, read while it streams: a child's report whole, a command's
//! standard output as the SHA-256 it is hashed to on the way (or nothing, with
//! `--no-digest`), and of standard error its beginning and end, for the reason a run failed,
//! and every line that says a preload was refused, wherever it came.
use std::collections::VecDeque;
use std::io::Read;

use sha2::{Digest as _, Sha256};

/// What ld.so prints on stderr when it cannot load a preload library (and goes on without).
pub const NOT_PRELOADED: &str = "cannot be preloaded";

/// Bytes of standard error kept from its beginning, and from its end.
pub const STDERR_KEPT: usize = 64 << 10; // 64 KiB each
/// Lines kept that say a preload was refused.
const MARKED_MAX: usize = 16;
/// A longer line is looked at only in its first bytes.
const LINE_MAX: usize = 4 << 10;

/// What a run keeps of its standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdout {
    /// All of it: a child's report.
    Keep,
    /// Its digest only ([`digest_hex`] of its SHA-256).
    Digest,
    /// Only how long it was.
    Discard,
}

/// One stream read to its end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Captured {
    /// All of it ([`Stdout::Keep`]), or of standard error its first and last
    /// [`STDERR_KEPT`] bytes with a line saying how much between them was left out.
    pub kept: Vec<u8>,
    /// The digest of all of it, when asked for.
    pub digest: Option<String>,
    /// Its length.
    pub bytes: u64,
    /// Its lines that contain [`NOT_PRELOADED`] (standard error; at most 16).
    pub not_preloaded: Vec<String>,
}

/// The digest of an output: the first 16 hex digits of its SHA-256.
pub fn digest_hex(sha256: &[u8]) -> String {
    hex::encode(&sha256[..8])
}

/// Reads a run's standard output to its end, keeping what `how` says. A read error ends the
/// stream with what was read; the exit status tells the rest.
pub fn stdout(mut pipe: impl Read, how: Stdout) -> Captured {
    let mut captured = Captured::default();
    let mut hasher = (how == Stdout::Digest).then(Sha256::new);
    let mut buf = vec![0u8; 64 << 10];
    while let Ok(n @ 1..) = pipe.read(&mut buf) {
        captured.bytes += n as u64;
        match (&mut hasher, how) {
            (Some(hasher), _) => hasher.update(&buf[..n]),
            (None, Stdout::Keep) => captured.kept.extend_from_slice(&buf[..n]),
            (None, _) => {}
        }
    }
    captured.digest = hasher.map(|h| digest_hex(&h.finalize()));
    captured
}

/// Reads a run's standard error to its end: its first and last [`STDERR_KEPT`] bytes, and
/// every line (up to 16) that says a preload was refused.
pub fn stderr(mut pipe: impl Read) -> Captured {
    let mut captured = Captured::default();
    let mut tail: VecDeque<u8> = VecDeque::new();
    let mut line: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    while let Ok(n @ 1..) = pipe.read(&mut buf) {
        captured.bytes += n as u64;
        let chunk = &buf[..n];
        let to_head = chunk.len().min(STDERR_KEPT - captured.kept.len());
        captured.kept.extend_from_slice(&chunk[..to_head]);
        tail.extend(&chunk[to_head..]);
        let over = tail.len().saturating_sub(STDERR_KEPT);
        tail.drain(..over);
        for &b in chunk {
            if b == b'\n' {
                mark(&mut captured.not_preloaded, &line);
                line.clear();
            } else if line.len() < LINE_MAX {
                line.push(b);
            }
        }
    }
    mark(&mut captured.not_preloaded, &line);
    let left_out = captured.bytes - (captured.kept.len() + tail.len()) as u64;
    if left_out > 0 {
        captured
            .kept
            .extend_from_slice(format!("\n[{left_out} bytes of stderr left out]\n").as_bytes());
    }
    captured.kept.extend(tail);
    captured
}

/// Keeps `line` if it says a preload was refused.
fn mark(marked: &mut Vec<String>, line: &[u8]) {
    let text = String::from_utf8_lossy(line);
    if marked.len() < MARKED_MAX && text.contains(NOT_PRELOADED) {
        marked.push(text.trim().to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digested_stdout_keeps_nothing_and_hashes_all_of_it() {
        let text = vec![b'x'; 300_000];
        let captured = stdout(&text[..], Stdout::Digest);
        assert!(captured.kept.is_empty());
        assert_eq!(captured.bytes, 300_000);
        assert_eq!(captured.digest, Some(digest_hex(&Sha256::digest(&text))));
    }

    #[test]
    fn a_discarded_stdout_keeps_only_its_length() {
        let captured = stdout(&b"hello\n"[..], Stdout::Discard);
        assert_eq!(
            (captured.kept.len(), captured.digest, captured.bytes),
            (0, None, 6)
        );
    }

    #[test]
    fn a_long_stderr_keeps_its_ends_and_says_what_it_left_out() {
        let mut text = b"error: the first line\n".to_vec();
        text.extend(std::iter::repeat_n(b'.', 3 * STDERR_KEPT));
        text.extend_from_slice(b"\nthe last line\n");
        let captured = stderr(&text[..]);
        let kept = String::from_utf8(captured.kept).unwrap();
        assert!(kept.starts_with("error: the first line\n"));
        assert!(kept.ends_with("the last line\n"));
        assert!(
            kept.contains(" bytes of stderr left out]"),
            "{}",
            &kept[..100]
        );
        assert!(kept.len() < 2 * STDERR_KEPT + 100);
        assert_eq!(captured.bytes, text.len() as u64);
    }

    #[test]
    fn a_refused_preload_is_found_wherever_it_comes_in_stderr() {
        let refused = "ERROR: ld.so: object 'x.so' from LD_PRELOAD cannot be preloaded: ignored.";
        let mut text = vec![b'.'; 2 * STDERR_KEPT];
        text.push(b'\n');
        text.extend_from_slice(refused.as_bytes());
        text.push(b'\n');
        text.extend(std::iter::repeat_n(b'.', 2 * STDERR_KEPT));
        let captured = stderr(&text[..]);
        assert_eq!(captured.not_preloaded, vec![refused.to_string()]);
        assert!(!String::from_utf8_lossy(&captured.kept).contains(NOT_PRELOADED));
    }
}
