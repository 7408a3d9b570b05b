//! Which program a bake-off measures under each contender, from the one table of workloads
//! compare knows ([`WORKLOADS`]). Every child binary runs any of them, chosen by `--workload`;
//! each is a crate that implements the protocol (`workload::Workload`).
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use workload::Workload;

/// The option a child binary is told its workload by.
pub const WORKLOAD_ARG: &str = "--workload";

/// Every workload compare measures, the default first. **Adding a workload is one crate and
/// one line here.**
pub static WORKLOADS: &[WorkloadKind] = &[
    WorkloadKind(&checker::WORKLOAD),
    WorkloadKind(&tsc::WORKLOAD),
];

/// A workload, as the command line, the results file and the child's report name it.
#[derive(Clone, Copy)]
pub struct WorkloadKind(&'static Workload);

impl WorkloadKind {
    /// The name in reports, results and `--workload`.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// What the workload's crate says of it: its entry, what the parent prepares, its heap.
    pub fn protocol(self) -> &'static Workload {
        self.0
    }

    /// The workload `name` stands for, if any.
    pub fn from_name(name: &str) -> Option<WorkloadKind> {
        WORKLOADS.iter().copied().find(|w| w.name() == name)
    }

    /// Whether this is the default workload, which a results file does not name.
    pub fn is_default(&self) -> bool {
        *self == WorkloadKind::default()
    }

    /// Every name, for a message: `checker`, `tsc`.
    pub fn names() -> String {
        let names: Vec<String> = WORKLOADS.iter().map(|w| format!("`{w}`")).collect();
        names.join(", ")
    }
}

impl Default for WorkloadKind {
    fn default() -> Self {
        WORKLOADS[0]
    }
}

impl PartialEq for WorkloadKind {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for WorkloadKind {}

impl std::hash::Hash for WorkloadKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl std::fmt::Debug for WorkloadKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for WorkloadKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for WorkloadKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for WorkloadKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        WorkloadKind::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown workload `{name}`, expected one of {}",
                WorkloadKind::names()
            ))
        })
    }
}

impl clap::ValueEnum for WorkloadKind {
    fn value_variants<'a>() -> &'a [Self] {
        WORKLOADS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.0.about))
    }
}
