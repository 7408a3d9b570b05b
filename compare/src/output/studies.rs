//! The studies' reports, as text or Markdown: what [`crate::studies`] computes, rendered.
use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::results::Results;
use crate::studies::{model, policies};
use crate::table::Table;

/// The whole model report: predictions against measurement, then the gap to the
/// publication. `None` when no cell has a nohuge carve record.
pub fn model(results: &Results, markdown: bool) -> Option<String> {
    let predictions = model::predict(results);
    if predictions.is_empty() {
        return None;
    }
    let render = |t: &Table| {
        if markdown {
            t.to_markdown()
        } else {
            t.to_text()
        }
    };
    let explained = predictions.iter().filter(|p| p.explained()).count();
    let mut out = format!(
        "fault and RSS model (predicted from the slice-nohuge carve record; explained: faults \
         within {:.0}% and peak RSS within {:.0}%): {explained} of {} rows explained\n\n{}",
        100.0 * model::FAULT_TOLERANCE,
        100.0 * model::RSS_TOLERANCE,
        predictions.len(),
        render(&model::table(&predictions))
    );
    let gaps = model::gaps(results);
    if !gaps.is_empty() {
        let mut by_share: BTreeMap<String, f64> = BTreeMap::new();
        for g in &gaps {
            let share = g.ours_past_switch_mib / g.needed_past_switch_mib;
            let best = by_share.entry(g.corpus.clone()).or_insert(0.0);
            *best = best.max(share);
        }
        let nearest = by_share
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(c, s)| format!("{c} ({:.0}% of what the published cut needs)", 100.0 * s))
            .unwrap_or_default();
        out.push_str(&format!(
            "\nthe gap to the publication: a hybrid slice saves one fault per 4 KiB carved past \
             its switch point (less one per 2 MiB), so a published cut of nohuge -> hybrid \
             faults says how far the reference's slices carved past 8 MiB; nearest of ours: \
             {nearest}\n\n{}",
            render(&model::gap_table(&gaps))
        ));
    }
    Some(out)
}

/// `compare policies`: the adaptive target, then one table per cell.
pub fn policies(results: &Results, markdown: bool) -> String {
    let render = |t: &Table| {
        if markdown {
            t.to_markdown()
        } else {
            t.to_text()
        }
    };
    let mut out = format!(
        "adaptive target: at most {:.1}x slice-hybrid's minor faults with a peak RSS \
         no larger than {}'s (medians)\n\n{}",
        policies::FAULT_TARGET,
        policies::RSS_REFERENCE,
        render(&policies::target_table(results))
    );
    for corpus in &results.settings.corpora {
        for &checkers in &results.settings.checkers {
            let _ = write!(
                out,
                "\n{corpus} · {checkers} checker{}\n\n{}",
                if checkers == 1 { "" } else { "s" },
                render(&policies::table(results, corpus, checkers))
            );
        }
    }
    out
}
