//! The rules text (`ayoayo[target=none]`): one strict grammar, the EBNF of
//! docs/notation.md. Each key at most once (as in the JSON form), numbers in
//! their one spelling (no sign, no leading zero), and exact round-trip.

use ayo_core::record::{parse_position, parse_rules, rules_to_text};
use ayo_core::{Preset, RecordError, RuleParams, Rules, RulesError, PARAM_NAMES};

fn rejected(text: &str) -> RecordError {
    match parse_rules(text) {
        Ok(r) => panic!("{text:?} was accepted as {}", rules_to_text(&r)),
        Err(e) => e,
    }
}

/// Every parameter's value in a preset, as the text form.
fn value(p: &RuleParams, name: &str) -> String {
    p.get(name).expect("a parameter")
}

#[test]
fn a_key_given_twice_is_an_error_naming_it() {
    let e = rejected("ayoayo[target=none,target=25]");
    assert_eq!(e.field, "rules");
    assert_eq!(e.offset, "ayoayo[target=none,".len());
    assert!(e.message.contains("`target`"), "{e}");
    assert!(e.message.contains("twice"), "{e}");
    // The same value twice, and twice with another key between.
    let e = rejected("oware[target=none,target=none]");
    assert!(e.message.contains("`target`"), "{e}");
    let e = rejected("ayo[relay=false,feeding=off,relay=false]");
    assert!(e.message.contains("`relay`"), "{e}");
    assert_eq!(e.offset, "ayo[relay=false,feeding=off,".len());
}

#[test]
fn every_key_twice_is_refused_and_once_is_accepted() {
    for preset in Preset::ALL {
        let p = preset.params();
        for name in PARAM_NAMES {
            let v = value(&p, name);
            let once = format!("{}[{name}={v}]", preset.name());
            assert_eq!(parse_rules(&once).unwrap(), preset.rules(), "{once}");
            let twice = format!("{}[{name}={v},{name}={v}]", preset.name());
            let e = rejected(&twice);
            assert!(e.message.contains(&format!("`{name}`")), "{twice}: {e}");
        }
    }
}

#[test]
fn the_json_form_refuses_duplicates_too() {
    let json = serde_json::to_string(&Preset::Oware.params()).unwrap();
    let doubled = json.replacen("{", "{\"target\":null,", 1);
    assert!(serde_json::from_str::<RuleParams>(&doubled).is_err());
}

#[test]
fn a_duplicate_in_a_position_record_points_at_it() {
    let text = "ayoayo[target=none,target=25] 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0";
    let e = parse_position(text).unwrap_err();
    assert_eq!((e.field, e.offset), ("rules", "ayoayo[target=none,".len()));
    assert!(e.message.contains("`target`"), "{e}");
}

#[test]
fn numbers_have_one_spelling() {
    for bad in [
        "025", "0025", "00", "+25", "-25", " 25", "25 ", "2 5", "2_5", "25.0", "0x19", "1e1", "",
        "٢٥", "２５",
    ] {
        for key in ["target", "move_limit"] {
            let text = format!("ayo[{key}={bad}]");
            let e = rejected(&text);
            assert_eq!(e.field, "rules");
            assert!(e.message.contains(&format!("`{key}`")), "{text}: {e}");
        }
    }
    for bad in ["04", "004", "+4", "-4", "4 ", "", "0x4", "٤"] {
        let text = format!("oware[seeds_per_pit={bad}]");
        let e = rejected(&text);
        assert!(e.message.contains("`seeds_per_pit`"), "{text}: {e}");
    }
}

#[test]
fn canonical_numbers_are_read() {
    let r = parse_rules("ayoayo[target=1]").unwrap();
    assert_eq!(r.target(), Some(1));
    let r = parse_rules("ayo[move_limit=10,target=30]").unwrap();
    assert_eq!((r.move_limit(), r.target()), (Some(10), Some(30)));
    let r = parse_rules("oware[seeds_per_pit=21,target=none]").unwrap();
    assert_eq!(r.seeds_per_pit(), 21);
    let r = parse_rules("ayo[move_limit=65535]").unwrap();
    assert_eq!(r.move_limit(), Some(65535));
    assert!(rejected("ayo[move_limit=65536]")
        .message
        .contains("1..=65535"));
}

#[test]
fn zero_is_a_number_and_the_rules_say_whether_it_is_allowed() {
    let mut p = Preset::Ayo.params();
    p.set("target", "0").unwrap();
    assert_eq!(p.target, Some(0));
    assert!(matches!(
        Rules::new(p),
        Err(RulesError::Invalid {
            param: "target",
            ..
        })
    ));
    let mut p = Preset::Ayo.params();
    p.set("seeds_per_pit", "0").unwrap();
    assert!(matches!(
        Rules::new(p),
        Err(RulesError::Invalid {
            param: "seeds_per_pit",
            ..
        })
    ));
    // In a record the same rules check answers.
    assert!(rejected("ayo[move_limit=0]").message.contains("0 moves"));
}

#[test]
fn set_reads_the_same_numbers() {
    let mut p = Preset::Ayo.params();
    for bad in ["025", "+25", "-1", " 25", ""] {
        for key in ["target", "move_limit", "seeds_per_pit"] {
            match p.set(key, bad) {
                Err(RulesError::BadValue { param, .. }) => assert_eq!(param, key),
                other => panic!("{key}={bad:?}: {other:?}"),
            }
        }
    }
    assert_eq!(p, Preset::Ayo.params(), "a refused value changes nothing");
    p.set("target", "25").unwrap();
    p.set("seeds_per_pit", "5").unwrap();
    assert_eq!((p.target, p.seeds_per_pit), (Some(25), 5));
}

#[test]
fn other_malformed_overrides_are_refused() {
    for (text, field) in [
        ("ayoayo[]", "rules"),
        ("ayoayo[,]", "rules"),
        ("ayoayo[target=none,]", "rules"),
        ("ayoayo[,target=none]", "rules"),
        ("ayoayo[target]", "rules"),
        ("ayoayo[target=none", "rules"),
        ("ayoayo[target=none]]", "rules"),
        ("ayoayo[target=none][relay=true]", "rules"),
        ("ayoayo[Target=none]", "rules"),
        ("ayoayo[target=None]", "rules"),
        ("ayoayo[ target=none]", "rules"),
        ("ayoayo[target=none=25]", "rules"),
        ("Ayoayo", "rules"),
        ("ayoayo ", "rules"),
        ("", "rules"),
    ] {
        assert_eq!(rejected(text).field, field, "{text:?}");
    }
}

#[test]
fn printed_rules_read_back_exactly() {
    let overrides: &[&[(&str, &str)]] = &[
        &[],
        &[("target", "none")],
        &[("target", "30"), ("move_limit", "100")],
        &[("seeds_per_pit", "3"), ("target", "19")],
        &[("capture", "two_three"), ("stuck_seeds", "own_side")],
        &[("first_player", "north"), ("relay", "false")],
        &[("repetition", "own_side"), ("move_limit", "none")],
    ];
    for preset in Preset::ALL {
        for changes in overrides {
            let mut p = preset.params();
            for (k, v) in *changes {
                p.set(k, v).unwrap();
            }
            let Ok(rules) = Rules::new(p) else { continue };
            let text = rules_to_text(&rules);
            let back = parse_rules(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, rules, "{text}");
            assert_eq!(rules_to_text(&back), text);
            assert_eq!(text.parse::<Rules>().unwrap(), rules);
            // The printed record is in the grammar: every number in its one spelling.
            for item in text.split(['[', ',', ']']).filter(|s| s.contains('=')) {
                let v = item.split_once('=').unwrap().1;
                if v.starts_with(|c: char| c.is_ascii_digit()) {
                    assert!(v == "0" || !v.starts_with('0'), "{text}");
                }
            }
        }
    }
}
