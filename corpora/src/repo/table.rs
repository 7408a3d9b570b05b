//! The repository table (`data/repositories.tsv`): one row per corpus taken from a public git
//! repository, pinning the repository, the full commit hash and the content digest of the
//! selection; and the committed listings of the pinned selections.

use std::sync::OnceLock;

use crate::Error;

/// The repository table, embedded: `corpus, repository, commit, content digest, what`.
const TABLE: &str = include_str!("../../data/repositories.tsv");

/// The listing of each pinned selection (see [`super::digest`]), by corpus.
const LISTINGS: &[(&str, &str)] = &[(
    "playwright",
    include_str!("../../data/playwright.files.tsv"),
)];

/// One corpus pinned in a git repository, as the repository table gives it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RepoPin {
    /// The corpus the row belongs to.
    pub corpus: String,
    /// `github:OWNER/NAME`.
    pub repository: String,
    /// The full commit hash (40 hex digits).
    pub commit: String,
    /// SHA-256 of the selection's listing, hex (see [`super::digest`]).
    pub digest: String,
    /// The table's own words for what is taken.
    pub what: String,
}

impl RepoPin {
    /// The HTTPS address of the `.tar.gz` archive of the pinned commit, built from the
    /// repository and the commit as the host serves archives.
    pub fn archive_url(&self) -> Result<String, Error> {
        let bad = |why: &str| Error::BadRepository {
            corpus: self.corpus.clone(),
            repository: self.repository.clone(),
            why: why.to_string(),
        };
        if self.commit.len() != 40 || !self.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("the commit is not a full 40-digit hash"));
        }
        let Some((host, path)) = self.repository.split_once(':') else {
            return Err(bad("expected HOST:OWNER/NAME (github:OWNER/NAME)"));
        };
        let plain = |s: &str| {
            !s.is_empty()
                && !s.starts_with('.')
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        let (owner, name) = path
            .split_once('/')
            .filter(|(o, n)| plain(o) && plain(n))
            .ok_or_else(|| bad("expected OWNER/NAME after the host"))?;
        match host {
            "github" => Ok(format!(
                "https://github.com/{owner}/{name}/archive/{}.tar.gz",
                self.commit
            )),
            _ => Err(bad("the only host known is `github`")),
        }
    }
}

/// The rows of the embedded repository table.
pub fn repo_pins() -> &'static [RepoPin] {
    static PINS: OnceLock<Vec<RepoPin>> = OnceLock::new();
    PINS.get_or_init(|| parse_table(TABLE))
}

/// The pin of corpus `corpus`, if the table has one.
pub(crate) fn repo_pin(corpus: &str) -> Option<&'static RepoPin> {
    repo_pins().iter().find(|p| p.corpus == corpus)
}

/// The committed listing of corpus `corpus`'s pinned selection, if there is one.
pub(crate) fn pinned_listing(corpus: &str) -> Option<&'static str> {
    LISTINGS.iter().find(|(c, _)| *c == corpus).map(|(_, l)| *l)
}

/// Parses the table; comment lines and lines without five tab-separated fields are skipped
/// (the tests check that every row of the embedded table parses).
fn parse_table(text: &str) -> Vec<RepoPin> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let mut cols = line.split('\t').map(str::to_string);
            Some(RepoPin {
                corpus: cols.next()?,
                repository: cols.next()?,
                commit: cols.next()?,
                digest: cols.next()?,
                what: cols.next()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repo::digest::digest_of_listing;

    #[test]
    fn every_row_of_the_repository_table_parses_and_has_an_archive_address() {
        let rows = TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(repo_pins().len(), rows, "a row did not parse");
        for pin in repo_pins() {
            let url = pin.archive_url().unwrap();
            assert!(
                url.starts_with("https://") && url.contains(&pin.commit),
                "{url}"
            );
            assert_eq!(pin.digest.len(), 64, "{}", pin.corpus);
        }
    }

    #[test]
    fn each_committed_listing_hashes_to_its_pinned_digest() {
        for (corpus, listing) in LISTINGS {
            let pin = repo_pin(corpus).unwrap();
            assert_eq!(digest_of_listing(listing), pin.digest, "{corpus}");
        }
    }

    #[test]
    fn a_repository_that_is_not_owner_and_name_has_no_archive_address() {
        let pin = |repository: &str, commit: &str| RepoPin {
            corpus: "x".to_string(),
            repository: repository.to_string(),
            commit: commit.to_string(),
            digest: String::new(),
            what: String::new(),
        };
        let commit = "26a9e470a7b3c7822084b09fb7f13902c5f37b51";
        assert_eq!(
            pin("github:o/n", commit).archive_url().unwrap(),
            format!("https://github.com/o/n/archive/{commit}.tar.gz")
        );
        for bad in [
            "github:o",
            "github:../n",
            "o/n",
            "elsewhere:o/n",
            "github:o/n/x",
        ] {
            assert!(pin(bad, commit).archive_url().is_err(), "{bad}");
        }
        assert!(pin("github:o/n", "26a9e470").archive_url().is_err());
    }
}
