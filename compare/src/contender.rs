//! Contenders: the allocators of the bake-off, named once and parsed once at the edge.
use std::fmt;
use std::str::FromStr;

use slice_alloc::{Policy, ThpPolicy};

pub mod file;
pub mod knobs;
pub mod variant;

pub use variant::{Definition, Variant, VariantError};

/// The switch point of plain `slice-hybrid`, in MiB: the allocator's default.
pub use slice_alloc::DEFAULT_SWITCH_MIB;

/// One allocator under test.
///
/// `slice-hybrid` and `slice-hybrid@8` are the same contender: a switch point sweep
/// reuses the plain hybrid runs for its 8 MiB point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The slice allocator under one THP policy.
    Slice(Policy),
    Mimalloc,
    Jemalloc,
    /// The C library's malloc behind Rust's `System`.
    System,
    /// An allocator with knobs, a preloaded malloc or a contender of a contenders file
    /// (see [`variant`]), interned so that the contender stays `Copy`.
    Variant(&'static Variant),
    /// `<baseline>#2`: the baseline run a second time in every round, its own row. Its
    /// interval against the baseline is the cell's noise floor (an A/A comparison).
    Control(Repeated),
}

/// The contender a control repeats: any contender but a control, so that
/// [`Contender`] stays `Copy` without a control of a control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeated {
    Slice(Policy),
    Mimalloc,
    Jemalloc,
    System,
    Variant(&'static Variant),
}

/// What a control's name adds to its baseline's: `slice-nohuge#2`.
pub const CONTROL_SUFFIX: &str = "#2";

/// The default bake-off: the three slice policies and the three other allocators.
pub const DEFAULT_CONTENDERS: &str =
    "slice-nohuge,slice-hybrid,slice-huge,mimalloc,jemalloc,system";

/// Every spelling `Contender::from_str` accepts, for error messages.
pub const CONTENDER_NAMES: &str = "slice-nohuge, slice-hybrid, slice-huge, slice-adaptive, \
slice-hybrid@N (N in MiB), slice-hybrid+populate, slice-hybrid+collapse, slice-POLICY+drain \
(nohuge, huge, hybrid), mimalloc, jemalloc, \
system; NAME#2 is the A/A control of NAME; ALLOCATOR:KEY=VALUE[,KEY=VALUE...] for mimalloc, \
jemalloc or system with knobs; preload:NAME=PATH for any malloc; the names of a \
--contenders-file";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UnknownContender {
    #[error("unknown contender `{name}`; known contenders: {CONTENDER_NAMES}")]
    Name { name: String },
    #[error(transparent)]
    Variant(Box<VariantError>),
}

impl From<VariantError> for UnknownContender {
    fn from(error: VariantError) -> Self {
        UnknownContender::Variant(Box::new(error))
    }
}

impl Contender {
    pub const SLICE_NOHUGE: Contender = Contender::Slice(Policy {
        thp: ThpPolicy::NoHuge,
        populate: false,
        collapse: false,
        drain: false,
    });
    pub const SLICE_HUGE: Contender = Contender::Slice(Policy {
        thp: ThpPolicy::Huge,
        populate: false,
        collapse: false,
        drain: false,
    });
    pub const SLICE_HYBRID: Contender = Contender::hybrid_at(DEFAULT_SWITCH_MIB);

    /// `slice-hybrid@N`.
    pub const fn hybrid_at(switch_at_mib: u32) -> Contender {
        Contender::Slice(Policy {
            thp: ThpPolicy::Hybrid { switch_at_mib },
            populate: false,
            collapse: false,
            drain: false,
        })
    }

    /// The A/A control of this contender (`<name>#2`); `None` for a control.
    pub fn control(self) -> Option<Contender> {
        let repeated = match self {
            Contender::Slice(policy) => Repeated::Slice(policy),
            Contender::Mimalloc => Repeated::Mimalloc,
            Contender::Jemalloc => Repeated::Jemalloc,
            Contender::System => Repeated::System,
            Contender::Variant(variant) => Repeated::Variant(variant),
            Contender::Control(_) => return None,
        };
        Some(Contender::Control(repeated))
    }

    /// The contender whose child this one runs: itself, or for a control its baseline.
    pub fn runs_as(self) -> Contender {
        match self {
            Contender::Control(Repeated::Slice(policy)) => Contender::Slice(policy),
            Contender::Control(Repeated::Mimalloc) => Contender::Mimalloc,
            Contender::Control(Repeated::Jemalloc) => Contender::Jemalloc,
            Contender::Control(Repeated::System) => Contender::System,
            Contender::Control(Repeated::Variant(variant)) => Contender::Variant(variant),
            other => other,
        }
    }

    pub fn is_control(&self) -> bool {
        matches!(self, Contender::Control(_))
    }

    /// The name of the allocator the child must report (`allocator.name` of its report).
    pub fn allocator_name(&self) -> &'static str {
        match self.runs_as() {
            Contender::Slice(_) => "slice",
            Contender::Mimalloc => "mimalloc",
            Contender::Jemalloc => "jemalloc",
            Contender::Variant(variant) => variant.allocator_name(),
            Contender::System | Contender::Control(_) => "system",
        }
    }

    /// The variant this contender runs, if it is one (a control of one included).
    pub fn variant(&self) -> Option<&'static Variant> {
        match self.runs_as() {
            Contender::Variant(variant) => Some(variant),
            _ => None,
        }
    }

    /// The child binary that links this contender's allocator.
    pub fn binary_name(&self) -> &'static str {
        match self.runs_as() {
            Contender::Slice(_) => "checkbench-slice",
            Contender::Mimalloc => "checkbench-mimalloc",
            Contender::Jemalloc => "checkbench-jemalloc",
            Contender::Variant(variant) => match variant.base {
                variant::Base::Mimalloc => "checkbench-mimalloc",
                variant::Base::Jemalloc => "checkbench-jemalloc",
                variant::Base::System => "checkbench-system",
            },
            Contender::System | Contender::Control(_) => "checkbench-system",
        }
    }

    /// The slice policy, as the `CHECKBENCH_SLICE` environment variable spells it.
    pub fn slice_policy(&self) -> Option<Policy> {
        match self.runs_as() {
            Contender::Slice(policy) => Some(policy),
            _ => None,
        }
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Slice(policy) => write!(f, "slice-{}", policy.short()),
            Contender::Control(_) => write!(f, "{}{CONTROL_SUFFIX}", self.runs_as()),
            Contender::Variant(variant) => f.write_str(&variant.name),
            other => f.write_str(other.allocator_name()),
        }
    }
}

impl FromStr for Contender {
    type Err = UnknownContender;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let unknown = || UnknownContender::Name {
            name: name.to_string(),
        };
        if let Some(repeated) = name.trim().strip_suffix(CONTROL_SUFFIX) {
            let base: Contender = repeated.parse().map_err(|e| match e {
                UnknownContender::Name { .. } => unknown(),
                other => other,
            })?;
            return base.control().ok_or_else(unknown);
        }
        if let Some(variant) = variant::parse(name) {
            return Ok(Contender::Variant(variant?));
        }
        if let Some(contender) = builtin(name.trim()) {
            return Ok(contender);
        }
        Variant::named(name.trim())
            .map(Contender::Variant)
            .ok_or_else(unknown)
    }
}

/// A built-in contender by its name.
fn builtin(name: &str) -> Option<Contender> {
    match name {
        "mimalloc" => Some(Contender::Mimalloc),
        "jemalloc" => Some(Contender::Jemalloc),
        "system" => Some(Contender::System),
        other => {
            let policy = other.strip_prefix("slice-")?;
            policy.parse::<Policy>().ok().map(Contender::Slice)
        }
    }
}

/// Parses a comma-separated list of contenders, dropping repeats but keeping order. A
/// piece `KEY=VALUE` without `:` continues the knobs of the piece before it, so
/// `jemalloc:thp=always,dirty_decay_ms=0,system` is two contenders.
pub fn parse_list(list: &str) -> Result<Vec<Contender>, UnknownContender> {
    let mut names: Vec<String> = Vec::new();
    for piece in list.split(',').filter(|name| !name.trim().is_empty()) {
        match names.last_mut() {
            Some(last)
                if piece.contains('=')
                    && !piece.contains(':')
                    && last.contains(':')
                    && !last.starts_with("preload:") =>
            {
                last.push(',');
                last.push_str(piece.trim());
            }
            _ => names.push(piece.trim().to_string()),
        }
    }
    let mut contenders = Vec::new();
    for name in names {
        let contender = name.parse()?;
        if !contenders.contains(&contender) {
            contenders.push(contender);
        }
    }
    Ok(contenders)
}

impl serde::Serialize for Contender {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Contender {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_name_round_trips() {
        for name in [
            "slice-nohuge",
            "slice-hybrid",
            "slice-huge",
            "slice-adaptive",
            "slice-hybrid@2",
            "slice-hybrid@16",
            "slice-hybrid+populate",
            "slice-hybrid+collapse",
            "slice-nohuge+drain",
            "slice-hybrid+drain",
            "slice-huge+drain",
            "mimalloc",
            "jemalloc",
            "system",
            "slice-nohuge#2",
            "slice-hybrid@16#2",
            "mimalloc#2",
        ] {
            let contender: Contender = name.parse().unwrap();
            assert_eq!(contender.to_string(), name);
        }
    }

    #[test]
    fn hybrid_at_eight_is_plain_hybrid() {
        assert_eq!(
            "slice-hybrid@8".parse::<Contender>().unwrap(),
            Contender::SLICE_HYBRID
        );
    }

    #[test]
    fn the_child_policy_spelling_parses_to_the_same_policy() {
        let policy = Contender::SLICE_HYBRID.slice_policy().unwrap();
        assert_eq!(policy.to_string().parse::<Policy>(), Ok(policy));
        assert_eq!("hybrid".parse::<Policy>(), Ok(policy));
    }

    #[test]
    fn malformed_names_are_rejected() {
        for name in [
            "slice",
            "slice-",
            "slice-hybrid@",
            "slice-hybrid@0",
            "slice-hybrid+populate+populate",
            "slice-nohuge+fast",
            "slice-adaptive+populate",
            "slice-adaptive@8",
            "tcmalloc",
            "slice-nohuge#2#2",
            "slice-nohuge#3",
        ] {
            assert!(name.parse::<Contender>().is_err(), "{name} parsed");
        }
    }

    #[test]
    fn a_control_runs_the_child_of_its_baseline_under_its_own_name() {
        let control = Contender::SLICE_HYBRID.control().unwrap();
        assert_eq!(control.to_string(), "slice-hybrid#2");
        assert_ne!(control, Contender::SLICE_HYBRID);
        assert_eq!(control.runs_as(), Contender::SLICE_HYBRID);
        assert_eq!(control.binary_name(), "checkbench-slice");
        assert_eq!(
            control.slice_policy(),
            Contender::SLICE_HYBRID.slice_policy()
        );
        assert_eq!(control.control(), None);
        assert_eq!(
            Contender::Jemalloc.control().unwrap().allocator_name(),
            "jemalloc"
        );
    }

    #[test]
    fn lists_drop_repeats_and_keep_order() {
        let list = parse_list("system, slice-hybrid,slice-hybrid@8,system").unwrap();
        assert_eq!(list, vec![Contender::System, Contender::SLICE_HYBRID]);
    }
}
