//! The machine a bake-off ran on, recorded with every result: absolute figures mean
//! nothing without it, and THP settings change what the policies do.
use std::collections::BTreeMap;
use std::ffi::CStr;
use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

/// Where the kernel exposes its transparent huge page settings.
const THP_DIR: &str = "/sys/kernel/mm/transparent_hugepage";

/// The machine and the software of one bake-off.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// `uname`: system, release, version and machine.
    pub kernel: String,
    /// THP settings by file under /sys/kernel/mm/transparent_hugepage (`enabled`,
    /// `defrag`, `khugepaged/defrag`, ...): the selected value for bracketed lists.
    pub thp: BTreeMap<String, String>,
    /// First `model name` of /proc/cpuinfo.
    pub cpu_model: String,
    /// CPUs this process may run on.
    pub cpu_count: usize,
    /// MemTotal of /proc/meminfo, in KiB.
    pub memory_kib: u64,
    /// Versions of compare and of the allocator crates linked into the children.
    pub crate_versions: BTreeMap<String, String>,
    /// The git revision compare was built from (see [`BUILD_REVISION`]), or `unknown`.
    pub git_revision: String,
    /// The digest of the sources compare was built from (see [`BuildInfo`]).
    #[serde(default)]
    pub source_digest: String,
    /// The profile every child binary was built with: `release`.
    #[serde(default)]
    pub child_profile: String,
    /// Each child binary's own build, as it reported it (`--build-info`), by binary name, and
    /// in a command bake-off with slice contenders the slice library's (`libslice_alloc.so`).
    #[serde(default)]
    pub children: BTreeMap<String, BuildInfo>,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// What decides the sign of huge-page results here: virtualization, free page
    /// reporting, multi-size THP. Absent in files from before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineFacts>,
}

/// What a binary of this checkout was built from: compare, each child (asked with
/// `--build-info`, see [`crate::child`]) and the slice library report it alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildInfo {
    /// `git rev-parse HEAD` of the workspace, `-dirty` when tracked files differed, or
    /// `unknown` outside git.
    pub revision: String,
    /// The first 16 hex digits of a SHA-256 over every source file the binaries are
    /// built from (see compare/build.rs): equal digests, equal code.
    pub source_digest: String,
    /// Cargo profile: `release` or `debug`.
    pub profile: String,
}

impl BuildInfo {
    /// The build of the running binary, recorded by build.rs.
    pub fn current() -> BuildInfo {
        BuildInfo {
            revision: env!("COMPARE_BUILD_REVISION").to_string(),
            source_digest: env!("COMPARE_SOURCE_DIGEST").to_string(),
            profile: env!("COMPARE_BUILD_PROFILE").to_string(),
        }
    }
}

impl std::fmt::Display for BuildInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "revision {}, sources {}, {} profile",
            self.revision, self.source_digest, self.profile
        )
    }
}

/// The facts that decide whether a fresh huge page is cheap: a guest whose host takes
/// back reported free memory faults it in again, 2 MiB at a time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineFacts {
    /// The CPU's `hypervisor` flag (/proc/cpuinfo): this is a virtual machine.
    pub hypervisor_flag: bool,
    /// /sys/hypervisor/type (`xen`, ...), where the kernel exposes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypervisor_type: Option<String>,
    /// DMI vendor and product (/sys/class/dmi/id/sys_vendor, product_name), where present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmi: Option<String>,
    /// Free page reporting's order (blocks of 2^order pages are reported to the host), as
    /// /sys/module/page_reporting/parameters/page_reporting_order has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_reporting_order: Option<u32>,
    /// `page_reporting.page_reporting_order=` of the kernel command line, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_reporting_order_cmdline: Option<u32>,
    /// KiB reported to the host so far (`reported_kib`, where the kernel has it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_reporting_reported_kib: Option<u64>,
    /// Whether a device is bound to the virtio_balloon driver (the one that reports).
    pub virtio_balloon_bound: bool,
    /// Multi-size THP: `hugepages-<size>kB` -> its `enabled` setting.
    #[serde(default)]
    pub mthp: BTreeMap<String, String>,
}

impl MachineFacts {
    /// Reads the facts of this machine.
    pub fn capture() -> MachineFacts {
        let read = |path: &str| {
            std::fs::read_to_string(path)
                .ok()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        };
        let reporting = "/sys/module/page_reporting/parameters";
        let dmi = match (
            read("/sys/class/dmi/id/sys_vendor"),
            read("/sys/class/dmi/id/product_name"),
        ) {
            (Some(vendor), Some(product)) => Some(format!("{vendor} {product}")),
            (one, other) => one.or(other),
        };
        MachineFacts {
            hypervisor_flag: std::fs::read_to_string("/proc/cpuinfo")
                .is_ok_and(|info| cpu_flags_say_hypervisor(&info)),
            hypervisor_type: read("/sys/hypervisor/type"),
            dmi,
            page_reporting_order: read(&format!("{reporting}/page_reporting_order"))
                .and_then(|t| t.parse().ok()),
            page_reporting_order_cmdline: read("/proc/cmdline")
                .and_then(|line| cmdline_reporting_order(&line)),
            page_reporting_reported_kib: read(&format!("{reporting}/reported_kib"))
                .and_then(|t| t.parse().ok()),
            virtio_balloon_bound: std::fs::read_dir("/sys/bus/virtio/drivers/virtio_balloon")
                .is_ok_and(|dir| {
                    dir.flatten()
                        .any(|e| e.file_name().to_string_lossy().starts_with("virtio"))
                }),
            mthp: mthp_settings(Path::new(THP_DIR)),
        }
    }

    /// One line for report headers.
    pub fn summary(&self) -> String {
        let virtualization = match (&self.hypervisor_type, &self.dmi, self.hypervisor_flag) {
            (Some(kind), _, _) => format!("virtual machine ({kind})"),
            (None, Some(dmi), true) => format!("virtual machine ({dmi})"),
            (None, _, true) => "virtual machine (hypervisor CPU flag)".to_string(),
            (None, Some(dmi), false) => format!("no hypervisor flag ({dmi})"),
            (None, None, false) => "no hypervisor flag".to_string(),
        };
        let reporting = match (self.page_reporting_order, self.page_reporting_order_cmdline) {
            (Some(order), Some(cmdline)) if order != cmdline => format!(
                "free page reporting order {order} ({} KiB blocks; kernel command line says {cmdline})",
                4u64 << order
            ),
            (Some(order), _) | (None, Some(order)) => {
                format!(
                    "free page reporting order {order} ({} KiB blocks)",
                    4u64 << order
                )
            }
            (None, None) => "no free page reporting".to_string(),
        };
        let mthp: Vec<String> = self
            .mthp
            .iter()
            .filter(|(_, enabled)| enabled.as_str() != "never")
            .map(|(size, enabled)| format!("{size}={enabled}"))
            .collect();
        format!(
            "{virtualization} · {reporting}, virtio_balloon {} · mTHP {}",
            if self.virtio_balloon_bound {
                "bound"
            } else {
                "not bound"
            },
            if mthp.is_empty() {
                "all never".to_string()
            } else {
                mthp.join(" ")
            },
        )
    }
}

/// Whether a /proc/cpuinfo text lists the `hypervisor` flag.
fn cpu_flags_say_hypervisor(info: &str) -> bool {
    info.lines()
        .filter(|line| line.starts_with("flags"))
        .any(|line| line.split_whitespace().any(|flag| flag == "hypervisor"))
}

/// `page_reporting.page_reporting_order=N` of a kernel command line.
fn cmdline_reporting_order(cmdline: &str) -> Option<u32> {
    cmdline
        .split_whitespace()
        .find_map(|word| word.strip_prefix("page_reporting.page_reporting_order="))?
        .parse()
        .ok()
}

/// `hugepages-<size>kB/enabled` of each multi-size THP directory under `dir`, by size.
pub fn mthp_settings(dir: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let size = name.strip_prefix("hugepages-")?.to_string();
            let text = std::fs::read_to_string(entry.path().join("enabled")).ok()?;
            Some((size, selected(&text)))
        })
        .collect()
}

impl Environment {
    /// Reads the environment of this process and machine.
    pub fn capture() -> Environment {
        Environment {
            kernel: kernel(),
            thp: thp_settings(Path::new(THP_DIR)),
            cpu_model: cpu_model().unwrap_or_else(|| "unknown".to_string()),
            cpu_count: std::thread::available_parallelism().map_or(0, |n| n.get()),
            memory_kib: memory_kib().unwrap_or(0),
            crate_versions: crate_versions(),
            git_revision: git_revision(),
            source_digest: BuildInfo::current().source_digest,
            child_profile: String::new(),
            children: BTreeMap::new(),
            command_line: std::env::args().collect(),
            machine: Some(MachineFacts::capture()),
        }
    }

    /// The machine facts in one line, or that the file predates them.
    pub fn machine_summary(&self) -> String {
        self.machine.as_ref().map_or(
            "not recorded (a results file from before they were)".to_string(),
            MachineFacts::summary,
        )
    }

    /// One line: kernel, CPUs, memory and THP, for report headers.
    pub fn summary(&self) -> String {
        let thp = |key: &str| self.thp.get(key).map_or("?", String::as_str);
        format!(
            "{} · {} × {} · {:.1} GiB · THP enabled={} defrag={} khugepaged/defrag={} \
             max_ptes_none={} shrink_underused={}",
            self.kernel,
            self.cpu_count,
            self.cpu_model,
            self.memory_kib as f64 / (1024.0 * 1024.0),
            thp("enabled"),
            thp("defrag"),
            thp("khugepaged/defrag"),
            thp("khugepaged/max_ptes_none"),
            thp("shrink_underused"),
        )
    }
}

fn kernel() -> String {
    // SAFETY: utsname is plain old data; all-zero bytes are a valid value.
    let mut name: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: `name` is a valid, writable utsname for the call to fill.
    if unsafe { libc::uname(&mut name) } != 0 {
        return "unknown".to_string();
    }
    let field = |chars: &[libc::c_char]| {
        // SAFETY: uname NUL-terminates every field within its array.
        unsafe { CStr::from_ptr(chars.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    };
    format!(
        "{} {} {} {}",
        field(&name.sysname),
        field(&name.release),
        field(&name.version),
        field(&name.machine)
    )
}

/// Reads every THP setting file; `always [madvise] never` becomes `madvise`.
pub fn thp_settings(dir: &Path) -> BTreeMap<String, String> {
    let mut settings = BTreeMap::new();
    for name in [
        "enabled",
        "defrag",
        "shmem_enabled",
        "use_zero_page",
        "khugepaged/defrag",
        "khugepaged/pages_to_scan",
        "khugepaged/scan_sleep_millisecs",
        "khugepaged/alloc_sleep_millisecs",
        "khugepaged/max_ptes_none",
        "shrink_underused",
    ] {
        if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
            settings.insert(name.to_string(), selected(&text));
        }
    }
    settings
}

/// The bracketed choice of a sysfs list, or the trimmed text.
fn selected(text: &str) -> String {
    text.split_whitespace()
        .find_map(|word| word.strip_prefix('[')?.strip_suffix(']'))
        .unwrap_or(text.trim())
        .to_string()
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':'))
        .map(|(_, model)| model.trim().to_string())
}

fn memory_kib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|line| line.starts_with("MemTotal:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn crate_versions() -> BTreeMap<String, String> {
    let mut versions: BTreeMap<String, String> = env!("COMPARE_LOCKED_VERSIONS")
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, version)| (name.to_string(), version.to_string()))
        .collect();
    versions.insert("compare".to_string(), env!("CARGO_PKG_VERSION").to_string());
    versions
}

/// The revision compare was built from (`-dirty` when uncommitted changes to tracked files
/// were built), recorded by build.rs: the checker and the allocators are linked into this
/// binary, so that is the code a bake-off measures.
pub const BUILD_REVISION: &str = env!("COMPARE_BUILD_REVISION");

fn git_revision() -> String {
    BUILD_REVISION.to_string()
}

/// A warning when the checkout compare was built from is now at another commit than the
/// one this binary was built from (`checkout`: its `git rev-parse HEAD`, if any): the
/// results would describe the older code under the newer revision's name.
pub fn stale_build_warning(build: &str, checkout: Option<&str>) -> Option<String> {
    let checkout = checkout?;
    let built = build.strip_suffix("-dirty").unwrap_or(build);
    (build != "unknown" && built != checkout).then(|| {
        format!(
            "compare was built from {build} but this checkout is at {checkout}: the results \
             measure the code of {build}; rebuild it (`cargo run --release -p compare -- ...` \
             builds before it runs) to measure {checkout}"
        )
    })
}

/// `git rev-parse HEAD` of the checkout compare was built from, if it is still there (the
/// working directory may be any other repository, which says nothing about this build).
pub fn checkout_revision() -> Option<String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    if !workspace.join("compare").is_dir() {
        return None;
    }
    let out = Command::new("git")
        .arg("-C")
        .arg(workspace)
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())?;
    let rev = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!rev.is_empty()).then_some(rev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_machine_is_described() {
        let env = Environment::capture();
        assert!(env.kernel.starts_with("Linux "), "{}", env.kernel);
        assert!(env.cpu_count >= 1);
        assert!(env.memory_kib > 0);
        assert!(env.crate_versions.contains_key("mimalloc"));
        assert!(!env.git_revision.is_empty());
    }

    #[test]
    fn a_binary_built_from_another_commit_than_the_checkout_is_reported_stale() {
        let w = stale_build_warning("aaaa", Some("bbbb")).unwrap();
        assert!(
            w.contains("built from aaaa") && w.contains("at bbbb"),
            "{w}"
        );
        assert!(stale_build_warning("aaaa-dirty", Some("bbbb")).is_some());
    }

    #[test]
    fn a_binary_built_from_the_checkout_or_outside_git_is_not_reported_stale() {
        assert_eq!(stale_build_warning("aaaa", Some("aaaa")), None);
        assert_eq!(stale_build_warning("aaaa-dirty", Some("aaaa")), None);
        assert_eq!(stale_build_warning("aaaa", None), None);
        assert_eq!(stale_build_warning("unknown", Some("aaaa")), None);
    }

    #[test]
    fn this_binary_knows_the_revision_it_was_built_from() {
        assert!(
            BUILD_REVISION == "unknown"
                || BUILD_REVISION.len() >= 40
                    && BUILD_REVISION[..40].bytes().all(|b| b.is_ascii_hexdigit()),
            "{BUILD_REVISION}"
        );
    }

    #[test]
    fn the_machine_facts_are_read_from_their_files() {
        assert!(cpu_flags_say_hypervisor(
            "flags\t: fpu vme hypervisor lahf_lm\n"
        ));
        assert!(!cpu_flags_say_hypervisor(
            "flags\t: fpu vme lahf_lm\nmodel name: hypervisor\n"
        ));
        assert_eq!(
            cmdline_reporting_order("quiet page_reporting.page_reporting_order=11 panic=1"),
            Some(11)
        );
        assert_eq!(cmdline_reporting_order("quiet"), None);
        let dir = tempfile::tempdir().unwrap();
        for (size, enabled) in [
            ("2048kB", "always [madvise] never"),
            ("64kB", "always inherit madvise [never]"),
        ] {
            let sub = dir.path().join(format!("hugepages-{size}"));
            std::fs::create_dir(&sub).unwrap();
            std::fs::write(sub.join("enabled"), enabled).unwrap();
        }
        let mthp = mthp_settings(dir.path());
        assert_eq!(mthp["2048kB"], "madvise");
        assert_eq!(mthp["64kB"], "never");
        let facts = MachineFacts {
            hypervisor_flag: true,
            page_reporting_order: Some(9),
            page_reporting_order_cmdline: Some(11),
            virtio_balloon_bound: true,
            mthp,
            ..MachineFacts::default()
        };
        let line = facts.summary();
        for part in [
            "virtual machine",
            "order 9 (2048 KiB blocks; kernel command line says 11)",
            "virtio_balloon bound",
            "mTHP 2048kB=madvise",
        ] {
            assert!(line.contains(part), "{part}: {line}");
        }
    }

    #[test]
    fn the_bracketed_choice_is_the_setting() {
        assert_eq!(selected("always [madvise] never\n"), "madvise");
        assert_eq!(selected("4096\n"), "4096");
    }

    #[test]
    fn thp_settings_are_read_from_the_directory_given() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("khugepaged")).unwrap();
        std::fs::write(dir.path().join("enabled"), "always [madvise] never\n").unwrap();
        std::fs::write(dir.path().join("khugepaged/defrag"), "1\n").unwrap();
        let settings = thp_settings(dir.path());
        assert_eq!(settings["enabled"], "madvise");
        assert_eq!(settings["khugepaged/defrag"], "1");
        assert!(!settings.contains_key("defrag"));
    }
}
