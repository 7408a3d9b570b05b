//! Which thread does what, in which order: the steps of a run, each one thread's turn on the
//! runtime. The program is built first (parsed, modules resolved, bound), then checker k
//! checks root files i = k (mod N) one a turn, in file order, then each checker reports.
use std::fmt;
use std::str::FromStr;

/// Where the program's files are parsed and bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parse {
    /// All on thread `tsc-0`, checker 0's, before any other checker runs: TypeScript's own
    /// `createProgram` on one thread. At N checkers arena 0 holds the whole program.
    First,
    /// File j of the root files, then the standard library's, parsed and later bound by
    /// checker j mod N on its own thread, one file a turn; modules resolved on `tsc-0` between
    /// the two. The program is spread over the checkers' arenas, as a compiler that parses and
    /// binds in parallel spreads it. At 1 checker it is [`Parse::First`]'s work in another
    /// order. The default: the publication's 8-checker fault ratios need the program spread
    /// (docs/ANALYSIS-tsc.md, "Where the program is parsed").
    #[default]
    Spread,
}

impl fmt::Display for Parse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parse::First => "first",
            Parse::Spread => "spread",
        })
    }
}

impl FromStr for Parse {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "first" => Ok(Parse::First),
            "spread" => Ok(Parse::Spread),
            _ => Err(format!(
                "unknown parse placement `{s}`: `first` (checker 0's thread parses and binds \
                 the whole program) or `spread` (file j on checker j mod N's thread)"
            )),
        }
    }
}

/// One step: a turn of the thread that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Parse the `j`-th file ahead of the program (only under [`Parse::Spread`]).
    Parse(usize),
    /// `ts.createProgram`: resolve modules; parse every file not parsed ahead.
    Program,
    /// Bind the `j`-th file parsed ahead (only under [`Parse::Spread`]).
    BindFile(usize),
    /// Bind every file of the program not bound yet.
    Bind,
    /// Check root file `i`.
    Check(usize),
    /// Checker `k`'s report.
    Report(usize),
}

/// The steps of a run: `ahead` files parsed ahead (0 under [`Parse::First`]), `files` root
/// files, `count` checkers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub ahead: usize,
    pub files: usize,
    pub count: usize,
}

impl Plan {
    pub fn new(parse: Parse, ahead: usize, files: usize, count: usize) -> Plan {
        let ahead = match parse {
            Parse::First => 0,
            Parse::Spread => ahead,
        };
        Plan {
            ahead,
            files,
            count,
        }
    }

    /// Steps in all.
    pub fn len(self) -> usize {
        2 * self.ahead + 2 + self.files + self.count
    }

    /// Step `step` and the checker whose turn it is; `None` past the last.
    pub fn step(self, step: usize) -> Option<(usize, Step)> {
        let mut s = step;
        let mut span = |len: usize| -> Option<usize> {
            if s < len {
                Some(s)
            } else {
                s -= len;
                None
            }
        };
        if let Some(j) = span(self.ahead) {
            return Some((j % self.count, Step::Parse(j)));
        }
        if span(1).is_some() {
            return Some((0, Step::Program));
        }
        if let Some(j) = span(self.ahead) {
            return Some((j % self.count, Step::BindFile(j)));
        }
        if span(1).is_some() {
            return Some((0, Step::Bind));
        }
        if let Some(i) = span(self.files) {
            return Some((i % self.count, Step::Check(i)));
        }
        span(self.count).map(|k| (k, Step::Report(k)))
    }

    /// The checker whose turn step `step` is; `None` past the last.
    pub fn owner(self, step: usize) -> Option<usize> {
        self.step(step).map(|(owner, _)| owner)
    }

    /// Checker `index`'s steps, in order.
    pub fn steps(self, index: usize) -> impl Iterator<Item = (usize, Step)> {
        (0..self.len()).filter_map(move |s| {
            self.step(s)
                .filter(|&(owner, _)| owner == index)
                .map(|(_, step)| (s, step))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_placement_builds_the_program_on_checker_0_then_shares_the_root_files() {
        let plan = Plan::new(Parse::First, 9, 5, 2);
        let all: Vec<_> = (0..plan.len()).map(|s| plan.step(s).unwrap()).collect();
        assert_eq!(
            all,
            [
                (0, Step::Program),
                (0, Step::Bind),
                (0, Step::Check(0)),
                (1, Step::Check(1)),
                (0, Step::Check(2)),
                (1, Step::Check(3)),
                (0, Step::Check(4)),
                (0, Step::Report(0)),
                (1, Step::Report(1)),
            ]
        );
        assert_eq!(plan.step(plan.len()), None);
    }

    #[test]
    fn the_spread_placement_parses_and_binds_file_j_on_checker_j_mod_n() {
        let plan = Plan::new(Parse::Spread, 3, 2, 2);
        let mine: Vec<_> = plan.steps(1).map(|(_, step)| step).collect();
        assert_eq!(
            mine,
            [
                Step::Parse(1),
                Step::BindFile(1),
                Step::Check(1),
                Step::Report(1)
            ]
        );
        let first: Vec<_> = plan.steps(0).map(|(_, step)| step).collect();
        assert_eq!(
            first,
            [
                Step::Parse(0),
                Step::Parse(2),
                Step::Program,
                Step::BindFile(0),
                Step::BindFile(2),
                Step::Bind,
                Step::Check(0),
                Step::Report(0)
            ]
        );
        // Every step belongs to exactly one checker.
        let owned: usize = (0..2).map(|k| plan.steps(k).count()).sum();
        assert_eq!(owned, plan.len());
    }

    #[test]
    fn at_one_checker_every_step_is_checker_0s() {
        for parse in [Parse::First, Parse::Spread] {
            let plan = Plan::new(parse, 4, 3, 1);
            assert_eq!(plan.steps(0).count(), plan.len());
        }
    }

    #[test]
    fn every_placement_reads_back_from_its_name() {
        for parse in [Parse::First, Parse::Spread] {
            assert_eq!(parse.to_string().parse::<Parse>(), Ok(parse));
        }
        assert!("both".parse::<Parse>().unwrap_err().contains("`both`"));
    }
}
