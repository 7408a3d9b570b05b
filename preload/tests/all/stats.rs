//! The statistics file.

use crate::{child_line, field, in_child, number, run_preloaded};

#[test]
fn the_stats_line_names_the_policy_and_counts_what_each_allocator_served() {
    if in_child() {
        let words: Vec<String> = (0..10_000).map(|i| i.to_string()).collect();
        let big: Vec<Vec<u8>> = (0..10).map(|_| vec![0; 10_000]).collect();
        assert_eq!(words.len() + big.len(), 10_010);
        return;
    }
    for (policy, shown) in [
        ("nohuge", "nohuge"),
        ("hybrid@4", "hybrid@4"),
        ("huge", "huge"),
    ] {
        let lines = run_preloaded(
            "stats::the_stats_line_names_the_policy_and_counts_what_each_allocator_served",
            policy,
        );
        let line = child_line(&lines);
        assert_eq!(field(line, "policy"), format!("\"{shown}\""), "{line}");
        assert_eq!(field(line, "served"), "true");
        assert!(number(line, "small_requests") >= 10_000, "{line}");
        assert!(number(line, "too_large") >= 10, "{line}");
        assert!(number(line, "arenas_claimed") >= 1, "{line}");
        assert!(number(line, "reservation_bytes") > 0, "{line}");
        assert!(field(line, "exe").ends_with("\""), "{line}");
        for key in ["class_allocs", "class_carved_bytes", "class_switches"] {
            let start = line.find(&format!("\"{key}\":[")).expect(key);
            let list = &line[start + key.len() + 4..];
            let list = &list[..list.find(']').expect("a closed list")];
            assert_eq!(list.split(',').count(), 32, "{key}: {line}");
        }
        assert!(line.ends_with('}'), "one object per line: {line}");
    }
}

#[test]
fn no_stats_file_is_written_without_the_variable() {
    if in_child() {
        return;
    }
    let path = crate::stats_path("unset");
    let status = std::process::Command::new("/bin/sh")
        .args(["-c", "echo ok > /dev/null"])
        .env("LD_PRELOAD", crate::library())
        .env_remove("CHECKBENCH_SLICE_STATS")
        .status()
        .expect("sh");
    assert!(status.success());
    assert!(!path.exists());
}
