//! The digest rule: **the digest does not depend on the allocator or the checker count**.
//! A workload digests what it found as lines in an order of its own making (sorted,
//! deduplicated diagnostics, then whatever per-file results it has), each ended by `\n`, and
//! the digest is the hex SHA-256 of those bytes. compare settles a cell's digest from its runs
//! and fails a run whose digest differs.
use sha2::{Digest as _, Sha256};

/// Hex SHA-256 over `lines`, each followed by `\n`.
pub fn of_lines<L: AsRef<[u8]>>(lines: impl IntoIterator<Item = L>) -> String {
    let mut hasher = Sha256::new();
    for line in lines {
        hasher.update(line.as_ref());
        hasher.update(b"\n");
    }
    hex::encode(hasher.finalize())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_digest_is_the_sha256_of_the_lines_each_ended_by_a_newline() {
        // printf 'a\nb\n' | sha256sum
        let expected = "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2";
        assert_eq!(super::of_lines(["a", "b"]), expected);
        assert_eq!(super::of_lines([String::from("a\nb")]), expected);
    }
}
