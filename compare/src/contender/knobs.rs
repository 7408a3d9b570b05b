//! The knobs each allocator takes, by the name its own documentation gives them, and how
//! each reaches a child: only through that child's environment.
//!
//! **A knob is proven, not trusted**: the child reads every knob back from the allocator
//! itself (jemalloc's `opt.*` mallctl, mimalloc's `mi_option_get`, glibc's advice on its
//! own heap) and fails the run where the value differs from the one asked for.

/// How a knob's value is read back, and so how it is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnobType {
    Bool,
    /// `unsigned` (32 bits).
    Unsigned,
    /// `size_t`.
    Size,
    /// `ssize_t`.
    Ssize,
    /// `uint64_t`.
    U64,
    /// `int64_t`.
    I64,
    /// `const char *`.
    Str,
}

/// jemalloc 5.3's `malloc_conf` options that `opt.<name>` reads back, with the type its
/// mallctl has (jemalloc's src/ctl.c). `abort_conf` is always on: an option jemalloc does
/// not take aborts the child.
pub const JEMALLOC_KNOBS: &[(&str, KnobType)] = &[
    ("abort", KnobType::Bool),
    ("cache_oblivious", KnobType::Bool),
    ("trust_madvise", KnobType::Bool),
    ("confirm_conf", KnobType::Bool),
    ("hpa", KnobType::Bool),
    ("hpa_hugification_threshold", KnobType::Size),
    ("hpa_hugify_delay_ms", KnobType::U64),
    ("hpa_hugify_sync", KnobType::Bool),
    ("hpa_min_purge_interval_ms", KnobType::U64),
    ("hpa_slab_max_alloc", KnobType::Size),
    ("hpa_sec_nshards", KnobType::Size),
    ("hpa_sec_max_alloc", KnobType::Size),
    ("hpa_sec_max_bytes", KnobType::Size),
    ("huge_arena_pac_thp", KnobType::Bool),
    ("metadata_thp", KnobType::Str),
    ("retain", KnobType::Bool),
    ("dss", KnobType::Str),
    ("narenas", KnobType::Unsigned),
    ("percpu_arena", KnobType::Str),
    ("mutex_max_spin", KnobType::I64),
    ("oversize_threshold", KnobType::Size),
    ("background_thread", KnobType::Bool),
    ("max_background_threads", KnobType::Size),
    ("dirty_decay_ms", KnobType::Ssize),
    ("muzzy_decay_ms", KnobType::Ssize),
    ("stats_print", KnobType::Bool),
    ("junk", KnobType::Str),
    ("zero", KnobType::Bool),
    ("tcache", KnobType::Bool),
    ("tcache_max", KnobType::Size),
    ("tcache_nslots_small_min", KnobType::Unsigned),
    ("tcache_nslots_small_max", KnobType::Unsigned),
    ("tcache_nslots_large", KnobType::Unsigned),
    ("lg_tcache_nslots_mul", KnobType::Ssize),
    ("tcache_gc_incr_bytes", KnobType::Size),
    ("tcache_gc_delay_bytes", KnobType::Size),
    ("lg_tcache_flush_small_div", KnobType::Unsigned),
    ("lg_tcache_flush_large_div", KnobType::Unsigned),
    ("thp", KnobType::Str),
    ("lg_extent_max_active_fit", KnobType::Size),
    ("zero_realloc", KnobType::Str),
];

/// mimalloc 3's options (`MIMALLOC_<NAME>`), in the order of its `mi_option_t`, so that an
/// option's index is its `mi_option_t` value; `None` marks deprecated slots.
pub const MIMALLOC_OPTIONS: &[Option<&str>] = &[
    Some("show_errors"),
    Some("show_stats"),
    Some("verbose"),
    None,
    Some("arena_eager_commit"),
    Some("purge_decommits"),
    Some("allow_large_os_pages"),
    Some("reserve_huge_os_pages"),
    Some("reserve_huge_os_pages_at"),
    Some("reserve_os_memory"),
    None,
    None,
    None,
    None,
    None,
    Some("purge_delay"),
    Some("use_numa_nodes"),
    Some("disallow_os_alloc"),
    Some("os_tag"),
    Some("max_errors"),
    Some("max_warnings"),
    None,
    Some("destroy_on_exit"),
    Some("arena_reserve"),
    Some("arena_purge_mult"),
    None,
    Some("disallow_arena_alloc"),
    Some("retry_on_oom"),
    Some("visit_abandoned"),
    Some("guarded_min"),
    Some("guarded_max"),
    Some("guarded_precise"),
    Some("guarded_sample_rate"),
    Some("guarded_sample_seed"),
    Some("generic_collect"),
    Some("page_reclaim_on_free"),
    Some("page_full_retain"),
    Some("page_max_candidates"),
    Some("max_vabits"),
    Some("pagemap_commit"),
    Some("page_commit_on_demand"),
    Some("page_max_reclaim"),
    Some("page_cross_thread_max_reclaim"),
    Some("allow_thp"),
    Some("minimal_purge_size"),
    Some("arena_max_object_size"),
    Some("arena_is_numa_local"),
];

/// The mimalloc options that hold a size: given in bytes, kept (and read back) in KiB,
/// rounded up.
pub const MIMALLOC_SIZES_IN_KIB: &[&str] = &[
    "reserve_os_memory",
    "arena_reserve",
    "minimal_purge_size",
    "arena_max_object_size",
];

/// The glibc malloc tunables a system child can prove: `hugetlb` (`glibc.malloc.hugetlb`),
/// 0 or 1, proven by whether glibc advised a fresh mmapped chunk MADV_HUGEPAGE.
pub const SYSTEM_KNOBS: &[&str] = &["hugetlb"];

/// The `mi_option_t` of a mimalloc option.
pub fn mimalloc_option(key: &str) -> Option<i32> {
    MIMALLOC_OPTIONS
        .iter()
        .position(|name| *name == Some(key))
        .map(|index| index as i32)
}

/// The type of a jemalloc option.
pub fn jemalloc_knob(key: &str) -> Option<KnobType> {
    JEMALLOC_KNOBS
        .iter()
        .find(|(name, _)| *name == key)
        .map(|&(_, kind)| kind)
}

/// A mimalloc option value as mimalloc reads it from its environment: an integer, or
/// on/off, true/false, yes/no as 1/0.
pub fn mimalloc_value(value: &str) -> Option<i64> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" => Some(1),
        "off" | "false" | "no" => Some(0),
        other => other.parse().ok(),
    }
}

/// Whether `value` is one a knob of `kind` can hold.
pub fn fits(kind: KnobType, value: &str) -> bool {
    match kind {
        KnobType::Bool => matches!(value, "true" | "false"),
        KnobType::Unsigned => value.parse::<u32>().is_ok(),
        KnobType::Size | KnobType::U64 => value.parse::<u64>().is_ok(),
        KnobType::Ssize | KnobType::I64 => value.parse::<i64>().is_ok(),
        KnobType::Str => !value.is_empty() && !value.contains([',', ':']),
    }
}

/// The known keys of an allocator, for error messages.
pub fn known_keys(allocator: &str) -> String {
    match allocator {
        "jemalloc" => JEMALLOC_KNOBS
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(", "),
        "mimalloc" => MIMALLOC_OPTIONS
            .iter()
            .flatten()
            .copied()
            .collect::<Vec<_>>()
            .join(", "),
        "system" => SYSTEM_KNOBS.join(", "),
        _ => String::new(),
    }
}
