//! How a round's runs are paired with the baseline's: one after the other (`sequential`,
//! every entrant once a round), or side by side (`duet`, each entrant started together with
//! a run of the baseline, the two pinned one per CPU).
//!
//! **A duet's two runs see the same moment of the machine**, so what the host does to both
//! cancels in their ratio: measured on trpc at 1 checker of the tsc workload, a duet's A/A
//! interval at equal machine time was 3.4x narrower than sequential pairs' (docs/ANALYSIS-tsc.md,
//! "Duet against sequential"). It has two biases of its own, the run started second and the
//! CPU it runs on, and the seats are counterbalanced over every four rounds so both cancel.
use serde::{Deserialize, Serialize};

use crate::contender::Contender;

/// How a plan pairs each entrant's run with the baseline's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Pairing {
    /// Every entrant runs once a round, alone on the machine, in a shuffled order; each is
    /// paired with the baseline's run of the same round.
    #[default]
    Sequential,
    /// Each entrant but the baseline runs side by side with a run of the baseline, the two
    /// started together and pinned one per CPU, CPU and start order counterbalanced over
    /// the rounds; the control is a baseline-baseline duet. For single-threaded runs only.
    Duet,
}

impl Pairing {
    pub fn is_sequential(&self) -> bool {
        *self == Pairing::Sequential
    }
}

impl std::fmt::Display for Pairing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Pairing::Sequential => "sequential",
            Pairing::Duet => "duet",
        })
    }
}

/// Where one run of a duet sat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The entrant the run was started together with.
    pub with: Contender,
    /// Which of the duet's two CPUs it was pinned to: 0 or 1 (the first and second CPU this
    /// process may run on).
    pub cpu: usize,
    /// Whether it was started before its partner.
    pub first: bool,
}

/// The seats of the duet of `entrant` (not the baseline) with `baseline` in `round`, as
/// `(baseline's, entrant's)`: over every four consecutive rounds each entrant's duet takes
/// each of the four arrangements (baseline on CPU 0 or 1, started first or second) once, and
/// within a round the entrants (`index`: the entrant's place in the plan) start at different
/// arrangements, so that neither a CPU nor the start order favours either side.
pub fn seats(baseline: Contender, entrant: Contender, index: usize, round: usize) -> (Seat, Seat) {
    let arrangement = (round + index) % 4;
    let baseline_cpu = arrangement % 2;
    let baseline_first = arrangement < 2;
    (
        Seat {
            with: entrant,
            cpu: baseline_cpu,
            first: baseline_first,
        },
        Seat {
            with: baseline,
            cpu: 1 - baseline_cpu,
            first: !baseline_first,
        },
    )
}
