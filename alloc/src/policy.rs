//! The transparent-huge-page policy: what it is, how it is spelled, how it is read at start.

use std::fmt;
use std::str::FromStr;

/// When a slice gets `MADV_HUGEPAGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThpPolicy {
    /// The old policy: `MADV_NOHUGEPAGE` on the whole reservation; every 4 KiB page the bump
    /// pointer crosses costs a fault.
    NoHuge,
    /// `MADV_HUGEPAGE` on the whole reservation: few faults, but up to 32 classes x 2 MiB
    /// resident per thread.
    Huge,
    /// Starts as `NoHuge`; once a slice has carved `switch_at_mib` MiB, the rest of that slice
    /// gets `MADV_HUGEPAGE`. Slices of `switch_at_mib` MiB or less never switch.
    Hybrid {
        /// The switch point, in MiB from the slice start (at least 1).
        switch_at_mib: u32,
    },
    /// Every class carves small spans from one huge-page nursery shared by all arenas, so
    /// the process keeps about one partly touched 2 MiB page instead of one per class; the
    /// nursery's first 2 MiB stay on small pages. A class whose span runs out takes the next
    /// span at the nursery's frontier; when the nursery is spent it carves its own slice
    /// as under `NoHuge`. See `nursery.rs`.
    Adaptive,
}

/// The policy read from `CHECKBENCH_SLICE` at start: a THP policy, the two ablations the
/// reference measured and rejected, and one departure from the reference, `+drain`. The
/// ablations act on the small-page prefix of a hybrid slice, so they are only accepted with
/// `hybrid`; `+drain` is accepted with `nohuge`, `huge` and `hybrid` (not with `+populate`, which
/// steps the limit its own way), and never with `adaptive`, whose 4 KiB spans already send a
/// class to its slow path, and so to its remote stack, every 4 KiB carved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// When slices get `MADV_HUGEPAGE`.
    pub thp: ThpPolicy,
    /// `+populate`: `MADV_POPULATE_WRITE` the small-page prefix `[start, start + switch)` of a
    /// slice one [`POPULATE_STEP`](crate::POPULATE_STEP) ahead of the bump pointer.
    pub populate: bool,
    /// `+collapse`: at the switch, advise the whole slice `MADV_HUGEPAGE` and `MADV_COLLAPSE`
    /// its small-page prefix.
    pub collapse: bool,
    /// `+drain` (off by default; not in the reference): the limit steps through the slice
    /// [`DRAIN_STEP`](crate::DRAIN_STEP) at a time, and every step's slow path takes the class's
    /// remote stack before it carves further. Without it, as in the reference, a remote-freed
    /// block waits until the slice's limit is reached (its end under `nohuge` and `huge`), so a
    /// class whose blocks die on other threads keeps carving fresh memory.
    pub drain: bool,
}

/// Largest accepted switch point, in MiB (64 GiB).
pub const MAX_SWITCH_MIB: u32 = 1 << 16;

impl Policy {
    /// `hybrid@8`, the policy used when `CHECKBENCH_SLICE` is unset or not understood.
    pub const DEFAULT: Policy = Policy {
        thp: ThpPolicy::Hybrid {
            switch_at_mib: DEFAULT_SWITCH_MIB,
        },
        populate: false,
        collapse: false,
        drain: false,
    };

    /// Parses the `CHECKBENCH_SLICE` spelling (`nohuge`, `huge`, `adaptive`, `hybrid`, `hybrid@N`, the
    /// latter two optionally followed by `+populate` and/or `+collapse`; all but `adaptive`
    /// optionally followed by `+drain`) without allocating.
    pub fn parse_bytes(text: &[u8]) -> Option<Policy> {
        let mut parts = text.split(|&b| b == b'+');
        let thp = match parts.next()? {
            b"nohuge" => ThpPolicy::NoHuge,
            b"huge" => ThpPolicy::Huge,
            b"adaptive" => ThpPolicy::Adaptive,
            b"hybrid" => Policy::DEFAULT.thp,
            head => ThpPolicy::Hybrid {
                switch_at_mib: parse_mib(head.strip_prefix(b"hybrid@")?)?,
            },
        };
        let mut policy = Policy {
            thp,
            populate: false,
            collapse: false,
            drain: false,
        };
        for suffix in parts {
            let (flag, allowed) = match suffix {
                b"populate" => (
                    &mut policy.populate,
                    matches!(thp, ThpPolicy::Hybrid { .. }),
                ),
                b"collapse" => (
                    &mut policy.collapse,
                    matches!(thp, ThpPolicy::Hybrid { .. }),
                ),
                b"drain" => (&mut policy.drain, thp != ThpPolicy::Adaptive),
                _ => return None,
            };
            if *flag || !allowed {
                return None;
            }
            *flag = true;
        }
        (!(policy.populate && policy.drain)).then_some(policy)
    }

    /// The switch point in bytes from a slice start, for hybrid policies.
    pub fn switch_bytes(&self) -> Option<usize> {
        match self.thp {
            ThpPolicy::Hybrid { switch_at_mib } => Some((switch_at_mib as usize) << 20),
            ThpPolicy::NoHuge | ThpPolicy::Huge | ThpPolicy::Adaptive => None,
        }
    }

    /// Packs the policy into one word, so that a heap can hold it in an atomic.
    pub(crate) fn encode(self) -> u64 {
        let (kind, mib) = match self.thp {
            ThpPolicy::NoHuge => (0, 0),
            ThpPolicy::Huge => (1, 0),
            ThpPolicy::Hybrid { switch_at_mib } => (2, switch_at_mib),
            ThpPolicy::Adaptive => (3, 0),
        };
        kind | (self.populate as u64) << 2
            | (self.collapse as u64) << 3
            | (self.drain as u64) << 4
            | (mib as u64) << 32
    }

    /// The inverse of [`Policy::encode`].
    pub(crate) fn decode(bits: u64) -> Policy {
        let thp = match bits & 3 {
            0 => ThpPolicy::NoHuge,
            1 => ThpPolicy::Huge,
            2 => ThpPolicy::Hybrid {
                switch_at_mib: (bits >> 32) as u32,
            },
            _ => ThpPolicy::Adaptive,
        };
        Policy {
            thp,
            populate: bits & 4 != 0,
            collapse: bits & 8 != 0,
            drain: bits & 16 != 0,
        }
    }
}

/// Parses the `N` of `hybrid@N`: decimal, 1..=[`MAX_SWITCH_MIB`].
fn parse_mib(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 6 {
        return None;
    }
    let mut mib: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        mib = mib * 10 + u32::from(d - b'0');
    }
    (1..=MAX_SWITCH_MIB).contains(&mib).then_some(mib)
}

impl Policy {
    /// The policy as a contender names it: the [`Display`](fmt::Display) spelling with the
    /// default switch point left out (`hybrid+populate`, not `hybrid@8+populate`).
    pub fn short(&self) -> impl fmt::Display + '_ {
        Spelling {
            policy: self,
            default_switch_named: false,
        }
    }
}

/// A policy's spelling: the one writer of both [`Policy`]'s `Display` (`hybrid@8`) and
/// [`Policy::short`] (`hybrid`). Writes without allocating.
struct Spelling<'a> {
    policy: &'a Policy,
    default_switch_named: bool,
}

impl fmt::Display for Spelling<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let policy = self.policy;
        match policy.thp {
            ThpPolicy::NoHuge => write!(f, "nohuge")?,
            ThpPolicy::Huge => write!(f, "huge")?,
            ThpPolicy::Adaptive => write!(f, "adaptive")?,
            thp if thp == Policy::DEFAULT.thp && !self.default_switch_named => write!(f, "hybrid")?,
            ThpPolicy::Hybrid { switch_at_mib } => write!(f, "hybrid@{switch_at_mib}")?,
        }
        if policy.populate {
            write!(f, "+populate")?;
        }
        if policy.collapse {
            write!(f, "+collapse")?;
        }
        if policy.drain {
            write!(f, "+drain")?;
        }
        Ok(())
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Spelling {
            policy: self,
            default_switch_named: true,
        }
        .fmt(f)
    }
}

/// A `CHECKBENCH_SLICE` value that names no policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePolicyError {
    /// The text that was not understood.
    pub input: String,
}

impl fmt::Display for ParsePolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a slice policy: expected nohuge, huge, adaptive, hybrid or hybrid@N (N in MiB, 1..={}), \
             the hybrid ones optionally followed by +populate and/or +collapse, all but adaptive optionally \
             followed by +drain (not with +populate)",
            self.input, MAX_SWITCH_MIB
        )
    }
}

impl std::error::Error for ParsePolicyError {}

impl FromStr for Policy {
    type Err = ParsePolicyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Policy::parse_bytes(s.as_bytes()).ok_or_else(|| ParsePolicyError {
            input: s.to_owned(),
        })
    }
}

/// The switch point of plain `hybrid`, in MiB.
pub const DEFAULT_SWITCH_MIB: u32 = 8;

/// The environment variable that selects the policy of the global instance.
pub const POLICY_ENV: &str = "CHECKBENCH_SLICE";

/// Reads [`POLICY_ENV`] without allocating. An unknown value is reported on stderr and the
/// default is used; the global instance calls this once.
pub(crate) fn from_env() -> Policy {
    // SAFETY: the name is a NUL-terminated literal; getenv only reads the environment.
    let value = unsafe { libc::getenv(c"CHECKBENCH_SLICE".as_ptr()) };
    if value.is_null() {
        return Policy::DEFAULT;
    }
    // SAFETY: getenv returned a non-null pointer to a NUL-terminated string of the environment,
    // which nothing in this process modifies while we read it.
    let text = unsafe { std::ffi::CStr::from_ptr(value) }.to_bytes();
    Policy::parse_bytes(text).unwrap_or_else(|| {
        report_unknown(text);
        Policy::DEFAULT
    })
}

/// Writes the unknown-policy warning to stderr from a stack buffer (no allocation).
fn report_unknown(text: &[u8]) {
    const HEAD: &[u8] = b"slice-alloc: CHECKBENCH_SLICE=";
    const TAIL: &[u8] = b" is not a policy (nohuge, huge, adaptive, hybrid, hybrid@N, +populate, +collapse, +drain); using hybrid@8\n";
    let shown = &text[..text.len().min(128)];
    let mut buf = [0u8; HEAD.len() + 128 + TAIL.len()];
    let mut len = 0;
    for part in [HEAD, shown, TAIL] {
        buf[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    }
    // SAFETY: buf holds len initialised bytes; a failed write to stderr is deliberately ignored.
    unsafe { libc::write(2, buf.as_ptr().cast(), len as _) };
}
