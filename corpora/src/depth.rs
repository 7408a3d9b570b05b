//! How deeply nested source is parsed safely, for every parse of a corpus file: the checker's
//! and `stats`'.
//!
//! swc's parser, its visitors and the drop of its trees recurse once per nesting level. Two
//! guards keep that off the end of a stack: a file whose brackets nest deeper than
//! [`MAX_NESTING`] is not handed to the parser at all ([`too_deep_at`]), and every parse, walk
//! and drop of a tree runs on a thread with a [`STACK_BYTES`] stack ([`pool`]), deep enough for
//! the nesting no bracket counts (`a ? b : a ? b : ...`, `!!!!x`, `x => x => ...`, JSX, types)
//! to 200,000 levels.

/// Bracket nesting beyond which a file is not handed to the (recursive) parser.
pub const MAX_NESTING: u32 = 4_000;

/// Stack of every thread that parses, walks or drops a tree. The stack is virtual memory,
/// resident only as deep as a file's nesting goes.
pub const STACK_BYTES: usize = 512 << 20; // 512 MiB

/// A pool of `threads` threads (`name-0`, `name-1`, ...) with [`STACK_BYTES`] stacks.
pub fn pool(
    threads: usize,
    name: &'static str,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .thread_name(move |i| format!("{name}-{i}"))
        .build()
}

/// Offset where bracket nesting first exceeds [`MAX_NESTING`], skipping strings and
/// comments. Regular expressions are not recognised; the guard only has to be safe.
pub fn too_deep_at(bytes: &[u8]) -> Option<u32> {
    let mut depth: u32 = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i as u32);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            q @ (b'"' | b'\'' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    if q != b'`' && bytes.get(i) == Some(&b'\n') {
                        break;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first NUL byte of `bytes`, if any: no source file holds one, so the file is binary
/// (TypeScript's TS1490 "File appears to be binary.").
pub fn binary_at(bytes: &[u8]) -> Option<u32> {
    bytes.iter().position(|&b| b == 0).map(|i| i as u32)
}
