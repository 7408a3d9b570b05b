use slice_alloc::{Policy, ThpPolicy};

#[test]
fn every_spelling_round_trips_through_display() {
    for text in [
        "nohuge",
        "huge",
        "hybrid@8",
        "hybrid@2",
        "hybrid@16",
        "hybrid@4+populate",
        "hybrid@8+collapse",
        "hybrid@8+populate+collapse",
    ] {
        let policy: Policy = text.parse().expect(text);
        assert_eq!(policy.to_string(), text);
    }
}

#[test]
fn bare_hybrid_switches_at_8_mib() {
    let policy: Policy = "hybrid".parse().unwrap();
    assert_eq!(policy, Policy::DEFAULT);
    assert_eq!(policy.thp, ThpPolicy::Hybrid { switch_at_mib: 8 });
    assert_eq!(policy.switch_bytes(), Some(8 << 20));
}

#[test]
fn suffixes_parse_in_either_order() {
    let a: Policy = "hybrid@4+collapse+populate".parse().unwrap();
    let b: Policy = "hybrid@4+populate+collapse".parse().unwrap();
    assert_eq!(a, b);
    assert!(a.populate && a.collapse);
}

#[test]
fn nonsense_is_rejected_with_the_input_named() {
    for text in [
        "",
        "Hybrid",
        "hybrid@",
        "hybrid@0",
        "hybrid@x",
        "hybrid@99999999",
        "hybrid@8+",
        "hybrid@8+populate+populate",
        "huge+populate",
        "nohuge+collapse",
        "hybrid+turbo",
        "hybrid@-1",
    ] {
        let err = text.parse::<Policy>().expect_err(text);
        assert!(err.to_string().contains(&format!("`{text}`")), "{err}");
    }
}

#[test]
fn ablations_are_hybrid_only_and_non_hybrid_has_no_switch() {
    assert_eq!("huge".parse::<Policy>().unwrap().switch_bytes(), None);
    assert_eq!("nohuge".parse::<Policy>().unwrap().switch_bytes(), None);
    assert!("huge+collapse".parse::<Policy>().is_err());
}

#[test]
fn drain_modifies_nohuge_huge_and_hybrid_but_not_adaptive_nor_populate() {
    for text in [
        "nohuge+drain",
        "huge+drain",
        "hybrid@4+drain",
        "hybrid+collapse+drain",
    ] {
        let policy: Policy = text.parse().expect(text);
        assert!(policy.drain, "{text}");
        assert_eq!(policy.to_string().parse::<Policy>(), Ok(policy));
    }
    assert!(!"hybrid".parse::<Policy>().unwrap().drain, "off by default");
    for text in [
        "adaptive+drain",
        "hybrid+populate+drain",
        "nohuge+drain+drain",
    ] {
        assert!(text.parse::<Policy>().is_err(), "{text}");
    }
}

mod properties {
    use proptest::prelude::*;
    use slice_alloc::{MAX_SWITCH_MIB, Policy, ThpPolicy};

    fn policy() -> impl Strategy<Value = Policy> {
        prop_oneof![
            Just(ThpPolicy::NoHuge),
            Just(ThpPolicy::Huge),
            (1..=MAX_SWITCH_MIB).prop_map(|switch_at_mib| ThpPolicy::Hybrid { switch_at_mib }),
        ]
        .prop_flat_map(|thp| {
            let hybrid = matches!(thp, ThpPolicy::Hybrid { .. });
            (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
                move |(populate, collapse, drain)| Policy {
                    thp,
                    populate: populate && hybrid,
                    collapse: collapse && hybrid,
                    drain: drain && !(populate && hybrid),
                },
            )
        })
    }

    proptest! {
        #[test]
        fn every_policy_parses_back_from_its_display(policy in policy()) {
            prop_assert_eq!(policy.to_string().parse::<Policy>(), Ok(policy));
        }

        #[test]
        fn arbitrary_bytes_are_refused_or_parse_to_a_policy_that_round_trips(bytes in prop::collection::vec(any::<u8>(), 0..24)) {
            if let Some(policy) = Policy::parse_bytes(&bytes) {
                prop_assert_eq!(policy.to_string().parse::<Policy>(), Ok(policy));
            }
        }
    }
}

#[test]
fn the_short_spelling_leaves_out_the_default_switch_point_only() {
    let spell = |s: &str| {
        let policy: Policy = s.parse().unwrap();
        (policy.to_string(), policy.short().to_string())
    };
    assert_eq!(spell("hybrid"), ("hybrid@8".into(), "hybrid".into()));
    assert_eq!(
        spell("hybrid@8+populate"),
        ("hybrid@8+populate".into(), "hybrid+populate".into())
    );
    assert_eq!(spell("hybrid@4"), ("hybrid@4".into(), "hybrid@4".into()));
    assert_eq!(
        spell("huge+drain"),
        ("huge+drain".into(), "huge+drain".into())
    );
}
