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
    /// The digest of the sources compare was built from (see [`crate::child::BuildInfo`]).
    #[serde(default)]
    pub source_digest: String,
    /// The profile every child binary was built with: `release`.
    #[serde(default)]
    pub child_profile: String,
    /// Each child binary's own build, as it reported it (`--build-info`), by binary name.
    #[serde(default)]
    pub children: BTreeMap<String, crate::child::BuildInfo>,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
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
            source_digest: crate::child::BuildInfo::current().source_digest,
            child_profile: String::new(),
            children: BTreeMap::new(),
            command_line: std::env::args().collect(),
        }
    }

    /// One line: kernel, CPUs, memory and THP, for report headers.
    pub fn summary(&self) -> String {
        let thp = |key: &str| self.thp.get(key).map_or("?", String::as_str);
        format!(
            "{} · {} × {} · {:.1} GiB · THP enabled={} defrag={} khugepaged/defrag={}",
            self.kernel,
            self.cpu_count,
            self.cpu_model,
            self.memory_kib as f64 / (1024.0 * 1024.0),
            thp("enabled"),
            thp("defrag"),
            thp("khugepaged/defrag"),
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
