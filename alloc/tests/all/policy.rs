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
