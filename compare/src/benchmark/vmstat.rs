//! The machine's `/proc/vmstat` event counters, read just before a child is spawned and just
//! after it is reaped (see [`crate::results::kernel`] for what the difference can be said
//! to be the run's).
use std::collections::BTreeMap;

use crate::results::kernel::VMSTAT_COUNTERS;

/// The counters of [`VMSTAT_COUNTERS`] this kernel has, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters(BTreeMap<String, u64>);

impl Counters {
    /// Reads `/proc/vmstat`; `None` where it cannot be read (no procfs).
    pub fn read() -> Option<Counters> {
        std::fs::read_to_string("/proc/vmstat")
            .ok()
            .map(|text| Counters::parse(&text))
    }

    /// The counters of [`VMSTAT_COUNTERS`] in `/proc/vmstat`'s `name value` lines.
    pub fn parse(text: &str) -> Counters {
        Counters(
            text.lines()
                .filter_map(|line| {
                    let (name, value) = line.split_once(' ')?;
                    VMSTAT_COUNTERS.contains(&name).then_some(())?;
                    Some((name.to_string(), value.trim().parse().ok()?))
                })
                .collect(),
        )
    }

    /// How much each counter grew from `before` to `self`; a counter either read lacks is
    /// left out. Event counters only grow, so a smaller value (none is seen) counts as 0.
    pub fn since(&self, before: &Counters) -> BTreeMap<String, u64> {
        self.0
            .iter()
            .filter_map(|(name, after)| {
                let before = before.0.get(name)?;
                Some((name.clone(), after.saturating_sub(*before)))
            })
            .collect()
    }

    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.get(name).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_counters_are_read_and_each_is_differenced() {
        let before = Counters::parse("nr_free_pages 12\npgfault 100\nthp_fault_alloc 3\n");
        let after =
            Counters::parse("nr_free_pages 9\npgfault 250\nthp_fault_alloc 10\npgmajfault 4\n");
        assert_eq!(before.get("nr_free_pages"), None);
        let delta = after.since(&before);
        assert_eq!(delta.get("pgfault"), Some(&150));
        assert_eq!(delta.get("thp_fault_alloc"), Some(&7));
        assert_eq!(delta.get("pgmajfault"), None, "not in the read before");
    }

    #[test]
    fn this_machine_has_the_counters_a_huge_page_policy_moves() {
        let Some(now) = Counters::read() else { return };
        let thp = std::path::Path::new("/sys/kernel/mm/transparent_hugepage").is_dir();
        let names: &[&str] = if thp {
            &["pgfault", "pgmajfault", "thp_fault_alloc", "thp_split_pmd"]
        } else {
            &["pgfault", "pgmajfault"]
        };
        for name in names {
            assert!(now.get(name).is_some(), "{name} missing from /proc/vmstat");
        }
    }
}
