//! The embedded synthetic corpus: its deliberate errors (verified against tsc) are the
//! only diagnostics the checker may report on it.
use std::collections::BTreeSet;

use checker::Options;

type Key = (String, u32, u32, u32);

#[test]
fn synthetic_corpus_reports_exactly_its_deliberate_errors() {
    let generated = corpora::synthetic::generate("synthetic").expect("the default spec parses");
    let expected: BTreeSet<Key> = generated
        .deliberate_errors
        .iter()
        .map(|e| (e.path.clone(), e.line, e.column, e.code.number()))
        .collect();
    let outcome =
        checker::run(&generated.corpus, &Options { checkers: 1 }).expect("the corpus has sources");
    let reported: BTreeSet<Key> = outcome
        .diagnostics
        .iter()
        .map(|d| (d.file.clone(), d.line, d.column, d.code as u32))
        .collect();
    let extra: Vec<String> = outcome
        .diagnostics
        .iter()
        .filter(|d| !expected.contains(&(d.file.clone(), d.line, d.column, d.code as u32)))
        .map(|d| d.to_string())
        .collect();
    let missing: Vec<&Key> = expected.difference(&reported).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{} unexpected diagnostics:\n{}\n{} deliberate errors not reported: {:?}",
        extra.len(),
        extra.join("\n"),
        missing.len(),
        missing
    );
}
