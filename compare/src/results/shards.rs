//! The records of a plan dealt to shards ([`crate::shard`]) and joined again
//! ([`crate::merge`]): what a shard's results file says of its share, and what a merged one
//! says of the files it was joined from.
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// `K/N`: the K-th of N shards, K counting from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let form = "a shard is K/N, the K-th of N shards with K counting from 1 (1/4 .. 4/4)";
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}` is not K/N: {form}"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{text}`: `{part}` is not a whole number; {form}"))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 {
            return Err(format!("`{text}`: there must be at least 1 shard"));
        }
        if index == 0 {
            return Err(format!(
                "`{text}`: K counts from 1 (1..={count}); a 0-based index such as Kubernetes' \
                 JOB_COMPLETION_INDEX needs 1 added: --shard $((JOB_COMPLETION_INDEX + 1))/{count}"
            ));
        }
        if index > count {
            return Err(format!(
                "`{text}`: shard {index} of {count} does not exist (K is 1..={count})"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a shard's results file records of its share: which shard, and the cells it runs
/// with the expected seconds a run that dealt them out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    pub index: usize,
    pub count: usize,
    /// The cells of this shard, in the order the plan measures them.
    pub cells: Vec<CellShare>,
}

impl ShardRecord {
    pub fn shard(&self) -> Shard {
        Shard {
            index: self.index,
            count: self.count,
        }
    }

    /// Whether this shard runs the cell of `corpus` at `checkers`.
    pub fn holds(&self, corpus: &str, checkers: usize) -> bool {
        self.cells
            .iter()
            .any(|cell| cell.corpus == corpus && cell.checkers == checkers)
    }
}

/// One cell of the plan and the shard it is dealt to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellShare {
    pub corpus: String,
    pub checkers: usize,
    /// The expected wall seconds of one run ([`crate::shard::expected_run_s`]).
    pub expected_run_s: f64,
    /// The shard it is dealt to, from 1.
    pub shard: usize,
}

/// One shard file a merged result was joined from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedShard {
    /// The file as `compare merge` was given it.
    pub file: String,
    /// Its shard, `K/N`.
    pub shard: String,
    /// The command line that measured it.
    pub command_line: Vec<String>,
}
