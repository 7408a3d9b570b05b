//! Which program a bake-off measures under each contender: the checker (this project's
//! TypeScript-ish checker, the default) or tsc (TypeScript's own checker on QuickJS, the
//! publication's kind of heap). Every child binary runs either, chosen by `--workload`.
use serde::{Deserialize, Serialize};

/// The option a child binary is told its workload by.
pub const WORKLOAD_ARG: &str = "--workload";

/// A workload, as the command line, the results file and the child's report name it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum WorkloadKind {
    /// checkbench's checker: swc parse, bind, check; N checkers on one parsed program.
    #[default]
    Checker,
    /// TypeScript 6.0.3's checker on QuickJS-NG: every object its own allocation, freed by
    /// reference counting; N checkers over one program, each on its own thread, taking turns
    /// on one runtime (execution serialized).
    Tsc,
}

impl WorkloadKind {
    /// The name in reports, results and `--workload`.
    pub fn name(self) -> &'static str {
        match self {
            WorkloadKind::Checker => checker::report::CHECKER_WORKLOAD,
            WorkloadKind::Tsc => tsc::WORKLOAD,
        }
    }

    /// The workload `name` stands for, if any.
    pub fn from_name(name: &str) -> Option<WorkloadKind> {
        [WorkloadKind::Checker, WorkloadKind::Tsc]
            .into_iter()
            .find(|w| w.name() == name)
    }

    pub fn is_checker(&self) -> bool {
        *self == WorkloadKind::Checker
    }
}

impl std::fmt::Display for WorkloadKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
