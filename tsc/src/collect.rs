//! When the engine collects garbage cycles. QuickJS frees an object by reference count as soon
//! as its last reference goes, on the thread that drops it; only garbage cycles wait for a
//! collection, which frees every checker's cycles on the thread that runs it. A block another
//! checker's thread made is a remote free there, reused only in its owner's slow path (which
//! `nohuge` never takes), so where the collections run shapes the 8-checker heap.
//!
//! `handback` leaves the engine's schedule alone and returns each freed block to the checker
//! that made it instead (`engine/counted.rs`). The schedules other than the engine's own decide
//! at the end of each turn (a checker's file,
//! or a phase of the program), on the thread that had it, from what the engine asked for: the
//! same decisions under every allocator.
use std::fmt;
use std::str::FromStr;

/// A collection schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collect {
    /// QuickJS's own: a collection whenever the engine's live bytes pass half again what the
    /// last collection left, on whichever thread allocates then.
    Engine,
    /// A collection at the end of every turn: every checker's cycles die on its own thread.
    EveryTurn,
    /// A collection at the end of a turn that allocated at least 1/`divisor` of the live bytes
    /// the last collection left (a turn that made much garbage), and at the end of any turn
    /// after which the live bytes pass half again that mark (the engine's trigger, moved to
    /// the end of the turn). The garbage of the turns between collections is freed by the
    /// next one, remotely unless it runs on the same thread.
    LargeTurns { divisor: u32 },
    /// The engine's own schedule, plus a collection at the end of a turn that hands the
    /// runtime to another checker's thread after allocating at least 1/`divisor` of the live
    /// bytes: collections made only so that a checker's garbage dies on its own thread. At 1
    /// checker no turn hands over, and this is the engine's schedule.
    Handover { divisor: u32 },
    /// The engine's own schedule, and a block freed on another checker's thread goes back to
    /// the checker that made it, which frees it on its own thread at the start of its next
    /// turn: a collection frees everyone's cycles, but each checker's garbage dies on its own
    /// thread, without collections of its own. At 1 checker nothing is handed back, and this
    /// is the engine's schedule.
    Handback,
}

/// The divisor `large-turns` and `handover` stand for.
pub const DEFAULT_DIVISOR: u32 = 64;

/// What every run takes unless told otherwise, the reproduce's too: the engine's own schedule,
/// with each checker's garbage freed on its own thread (trpc at 8: remote frees 14.1% of
/// allocations under the engine's schedule, 0.001% under this one, at 1.06x its user time; a
/// collection schedule that gets under 1% costs 1.9x). At 1 checker it is the engine's own.
impl Default for Collect {
    fn default() -> Self {
        Collect::Handback
    }
}

impl fmt::Display for Collect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, divisor) = match *self {
            Collect::Engine => return f.write_str("engine"),
            Collect::EveryTurn => return f.write_str("every-turn"),
            Collect::Handback => return f.write_str("handback"),
            Collect::LargeTurns { divisor } => ("large-turns", divisor),
            Collect::Handover { divisor } => ("handover", divisor),
        };
        if divisor == DEFAULT_DIVISOR {
            f.write_str(name)
        } else {
            write!(f, "{name}/{divisor}")
        }
    }
}

impl FromStr for Collect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unknown = || {
            format!(
                "unknown collection schedule `{s}`: `engine`, `every-turn`, `large-turns[/N]`, \
                 `handover[/N]` or `handback` (N a whole number of at least 1)"
            )
        };
        // `NAME` alone stands for the default divisor.
        let (name, divisor) = match s.split_once('/') {
            Some((name, d)) => (name, d.parse::<u32>().ok().filter(|&d| d >= 1)),
            None => (s, Some(DEFAULT_DIVISOR)),
        };
        let make: fn(u32) -> Collect = match name {
            "engine" if s == name => return Ok(Collect::Engine),
            "every-turn" if s == name => return Ok(Collect::EveryTurn),
            "handback" if s == name => return Ok(Collect::Handback),
            "large-turns" => |divisor| Collect::LargeTurns { divisor },
            "handover" => |divisor| Collect::Handover { divisor },
            _ => return Err(unknown()),
        };
        divisor.map(make).ok_or_else(unknown)
    }
}

/// The decisions of a schedule over one run: fed the engine's byte counts at each turn end.
#[derive(Debug)]
pub(crate) struct Decider {
    collect: Collect,
    /// Bytes the engine had asked for at the end of the previous turn.
    allocated_before: u64,
    /// Live bytes the last collection left (the engine starts from 256 KiB, as QuickJS does).
    live_after_last: u64,
}

impl Decider {
    pub fn new(collect: Collect) -> Self {
        Decider {
            collect,
            allocated_before: 0,
            live_after_last: 256 << 10,
        }
    }

    /// Whether the engine's own trigger stays on.
    pub fn engine_triggers(&self) -> bool {
        matches!(
            self.collect,
            Collect::Engine | Collect::Handover { .. } | Collect::Handback
        )
    }

    /// Whether to collect now, at the end of a turn after which the engine has asked for
    /// `allocated` bytes in all and holds `live`; `hands_over` when the next turn is another
    /// thread's.
    pub fn at_turn_end(&mut self, allocated: u64, live: u64, hands_over: bool) -> bool {
        let turn = allocated.saturating_sub(self.allocated_before);
        self.allocated_before = allocated;
        match self.collect {
            Collect::Engine | Collect::Handback => false,
            Collect::EveryTurn => true,
            Collect::LargeTurns { divisor } => {
                turn >= self.live_after_last / u64::from(divisor)
                    || live > self.live_after_last + self.live_after_last / 2
            }
            Collect::Handover { divisor } => hands_over && turn >= live / u64::from(divisor),
        }
    }

    /// What the collection just made left.
    pub fn collected(&mut self, live: u64) {
        self.live_after_last = live.max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schedule_reads_back_from_its_name() {
        for collect in [
            Collect::Engine,
            Collect::EveryTurn,
            Collect::default(),
            Collect::LargeTurns {
                divisor: DEFAULT_DIVISOR,
            },
            Collect::LargeTurns { divisor: 32 },
            Collect::Handover {
                divisor: DEFAULT_DIVISOR,
            },
            Collect::Handover { divisor: 7 },
            Collect::Handback,
        ] {
            assert_eq!(collect.to_string().parse::<Collect>(), Ok(collect));
        }
        for bad in [
            "large-turns/0",
            "handover/",
            "handover/x",
            "every-turn/2",
            "engine/64",
            "handback/2",
        ] {
            assert!(bad.parse::<Collect>().is_err(), "{bad}");
        }
        assert!(
            "sometimes"
                .parse::<Collect>()
                .unwrap_err()
                .contains("`sometimes`")
        );
    }

    #[test]
    fn large_turns_collect_after_a_turn_that_allocated_a_share_of_the_live_heap_or_after_growth() {
        let mut d = Decider::new(Collect::LargeTurns { divisor: 100 });
        d.collected(100_000_000);
        // A turn of 0.5 MB on a 100 MB heap: no; one of 1 MB: yes.
        assert!(!d.at_turn_end(500_000, 100_400_000, true));
        assert!(d.at_turn_end(1_500_000, 100_900_000, true));
        d.collected(100_000_000);
        // Small turns, but the live bytes pass 150 MB: the engine's own trigger.
        assert!(!d.at_turn_end(1_600_000, 149_000_000, true));
        assert!(d.at_turn_end(1_700_000, 151_000_000, true));
    }

    #[test]
    fn handover_collects_only_after_a_large_turn_that_hands_the_runtime_to_another_thread() {
        let mut d = Decider::new(Collect::Handover { divisor: 100 });
        assert!(d.engine_triggers());
        // 2 MB on a 100 MB heap, the same thread next: no (1 checker never collects here).
        assert!(!d.at_turn_end(2_000_000, 100_000_000, false));
        // 2 MB, another thread next: yes; 0.5 MB: no.
        assert!(d.at_turn_end(4_000_000, 100_000_000, true));
        assert!(!d.at_turn_end(4_500_000, 100_000_000, true));
    }

    #[test]
    fn the_engine_schedule_never_collects_at_turn_ends_and_every_turn_always_does() {
        let (mut engine, mut every) = (
            Decider::new(Collect::Engine),
            Decider::new(Collect::EveryTurn),
        );
        for step in 1..10u64 {
            assert!(!engine.at_turn_end(step << 30, step << 30, true));
            assert!(every.at_turn_end(step, step, false));
        }
    }
}
