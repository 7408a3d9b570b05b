//! Random allocation, free and realloc against a shadow model: no block is corrupted, no two
//! live blocks overlap.

use std::alloc::Layout;
use std::collections::BTreeMap;

use proptest::prelude::*;
use slice_alloc::ThpPolicy;

use crate::{heap, plain};

#[derive(Clone, Debug)]
enum Op {
    Alloc {
        size: usize,
        align: usize,
        zeroed: bool,
    },
    Free {
        pick: usize,
        remote: bool,
    },
    Realloc {
        pick: usize,
        size: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1usize..700, prop::sample::select(vec![1usize, 8, 16, 64]), any::<bool>())
            .prop_map(|(size, align, zeroed)| Op::Alloc { size, align, zeroed }),
        3 => (any::<usize>(), any::<bool>()).prop_map(|(pick, remote)| Op::Free { pick, remote }),
        2 => (any::<usize>(), 1usize..700).prop_map(|(pick, size)| Op::Realloc { pick, size }),
    ]
}

/// A live block of the model.
struct Live {
    layout: Layout,
    tag: u8,
}

fn check(p: usize, live: &Live) {
    // SAFETY: the block is live and holds layout.size() bytes.
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, live.layout.size()) };
    assert!(
        bytes.iter().all(|&b| b == live.tag),
        "block {p:#x} corrupted"
    );
}

fn fill(p: usize, live: &Live) {
    // SAFETY: the block is live and holds layout.size() bytes.
    unsafe { (p as *mut u8).write_bytes(live.tag, live.layout.size()) };
}

/// Asserts `[p, p + size)` overlaps no live block.
fn assert_disjoint(model: &BTreeMap<usize, Live>, p: usize, size: usize) {
    if let Some((&q, live)) = model.range(..=p).next_back() {
        assert!(q + live.layout.size() <= p, "{p:#x} overlaps {q:#x}");
    }
    if let Some((&q, _)) = model.range(p..).next() {
        assert!(p + size <= q, "{p:#x}+{size} overlaps {q:#x}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn churn_never_corrupts_or_overlaps_a_block(ops in prop::collection::vec(op(), 1..400)) {
        // 16 KiB slices: the larger classes exhaust and fall back mid-run.
        let heap = heap(16 << 10, 1, plain(ThpPolicy::NoHuge));
        let arena = heap.claim().unwrap();
        let mut model: BTreeMap<usize, Live> = BTreeMap::new();
        let mut next_tag = 0u8;
        let mut tag = || { next_tag = next_tag.wrapping_add(1).max(1); next_tag };
        for op in ops {
            match op {
                Op::Alloc { size, align, zeroed } => {
                    let layout = Layout::from_size_align(size, align).unwrap();
                    let p = if zeroed { arena.alloc_zeroed(layout) } else { arena.alloc(layout) } as usize;
                    prop_assert!(p != 0);
                    prop_assert_eq!(p % align, 0);
                    if zeroed {
                        check(p, &Live { layout, tag: 0 });
                    }
                    assert_disjoint(&model, p, size);
                    let live = Live { layout, tag: tag() };
                    fill(p, &live);
                    model.insert(p, live);
                }
                Op::Free { pick, remote } if !model.is_empty() => {
                    let p = *model.keys().nth(pick % model.len()).unwrap();
                    let live = model.remove(&p).unwrap();
                    check(p, &live);
                    // SAFETY: p is live in the model, with this layout; freed once.
                    unsafe {
                        if remote {
                            heap.dealloc(p as *mut u8, live.layout);
                        } else {
                            arena.dealloc(p as *mut u8, live.layout);
                        }
                    }
                }
                Op::Realloc { pick, size } if !model.is_empty() => {
                    let p = *model.keys().nth(pick % model.len()).unwrap();
                    let live = model.remove(&p).unwrap();
                    check(p, &live);
                    // SAFETY: p is live with this layout; size is non-zero.
                    let q = unsafe { arena.realloc(p as *mut u8, live.layout, size) } as usize;
                    prop_assert!(q != 0);
                    let kept = Live { layout: Layout::from_size_align(size.min(live.layout.size()), live.layout.align()).unwrap(), tag: live.tag };
                    check(q, &kept);
                    assert_disjoint(&model, q, size);
                    let live = Live { layout: Layout::from_size_align(size, live.layout.align()).unwrap(), tag: tag() };
                    fill(q, &live);
                    model.insert(q, live);
                }
                Op::Free { .. } | Op::Realloc { .. } => {}
            }
        }
        for (&p, live) in &model {
            check(p, live);
        }
        for (p, live) in model {
            // SAFETY: every model block is live; freed once.
            unsafe { arena.dealloc(p as *mut u8, live.layout) };
        }
    }
}
