//! Children never fetch: the parent fetched and verified the cache before the first run.
use compare::benchmark::launcher::{Binaries, Launcher, Request};
use compare::contender::Contender;

#[test]
fn every_child_is_told_not_to_fetch_or_hash_the_cache() {
    let binaries = Binaries {
        dir: "/nowhere".into(),
        workload: compare::workload::WorkloadKind::default(),
        cache_dir: Some("/cache".into()),
        timeout: None,
    };
    for contender in [
        Contender::SLICE_HYBRID,
        Contender::Mimalloc,
        Contender::System,
    ] {
        let command = binaries.command(&Request {
            contender,
            corpus: "trpc",
            checkers: 8,
        });
        let args: Vec<String> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(
            args.iter().any(|a| a == "--no-fetch"),
            "{contender}: {args:?}"
        );
        assert!(
            args.windows(2).any(|w| w == ["--cache-dir", "/cache"]),
            "{args:?}"
        );
    }
}
