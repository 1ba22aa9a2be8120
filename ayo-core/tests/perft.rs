//! Checks the perft suite `tests/vectors/perft.json`: the number of legal move
//! sequences of each length from each preset's start position. The debug test
//! goes to depth [`DEBUG_DEPTH`]; every depth in the file (to 11) is checked by
//! the ignored test, in release:
//! `cargo test --release -p ayo-core --test integration perft:: -- --ignored`.

use std::path::PathBuf;

use ayo_core::playout::perft;
use ayo_core::record::parse_position;
use ayo_core::{Position, Rules};
use serde_json::Value;

const DEBUG_DEPTH: usize = 7;

/// An independent count of oware from the start (the figures).
const OWARE: [u64; 8] = [6, 36, 190, 1014, 5219, 27332, 139157, 711414];

fn suites() -> Vec<(Rules, Position, Vec<u64>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/perft.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(doc["format"], "ayo-perft/1");
    doc["suites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let rules: Rules = s["rules"].as_str().unwrap().parse().unwrap();
            let (r2, pos) = parse_position(s["position"].as_str().unwrap()).unwrap();
            assert_eq!(r2, rules);
            let counts = s["counts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .collect();
            (rules, pos, counts)
        })
        .collect()
}

fn check(max_depth: usize) {
    for (rules, pos, counts) in suites() {
        for (d, &want) in counts.iter().enumerate().take(max_depth) {
            assert_eq!(
                perft(&rules, &pos, d as u32 + 1),
                want,
                "{rules} depth {}",
                d + 1
            );
        }
    }
}

#[test]
fn perft_file_covers_every_preset_to_depth_8() {
    let suites = suites();
    for name in ["ayoayo", "ayo", "olopon", "oware"] {
        let rules = Rules::preset(name).unwrap();
        let (_, pos, counts) = suites.iter().find(|(r, _, _)| *r == rules).expect(name);
        assert_eq!(*pos, Position::start(&rules));
        assert!(counts.len() >= 8, "{name}: {} depths", counts.len());
    }
    let oware = Rules::preset("oware").unwrap();
    let (_, _, counts) = suites.iter().find(|(r, _, _)| *r == oware).unwrap();
    assert_eq!(counts[..8], OWARE);
    assert_eq!(counts.get(10), Some(&91_558_687));
}

#[test]
fn perft_to_debug_depth() {
    check(DEBUG_DEPTH);
}

#[test]
#[ignore = "every depth of perft.json (to 11): run in release with --ignored"]
fn perft_every_depth() {
    check(usize::MAX);
}
