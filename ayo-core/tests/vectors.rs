//! Reads every shared vector file `tests/vectors/moves-*.json` (format:
//! `tests/vectors/README.md`) and checks every field of every vector through
//! the Rust API: the game record, the legal moves, the error kind, the
//! position after the move, the trace summary and the outcome.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use ayo_core::record::{parse_position, position_to_text};
use ayo_core::trace::{Event, Trace};
use ayo_core::{EndReason, Game, Outcome};
use serde_json::{json, Value};

fn vector_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("moves-") && name.ends_with(".json")
        })
        .collect();
    files.sort();
    files
}

fn outcome_value(o: Option<Outcome>) -> Value {
    o.map_or(
        Value::Null,
        |o| json!({"winner": o.winner, "reason": o.reason, "scores": o.scores}),
    )
}

/// Checks the trace summary field by field.
fn check_trace(t: &Trace, want: &Value) -> Result<(), String> {
    let mut collected = Vec::new();
    let mut captured = Vec::new();
    let mut forfeited = Value::Null;
    let mut end = None;
    for e in &t.events {
        match *e {
            Event::Collect { pit, to } => collected.push(json!([pit, to])),
            Event::Capture { pit, seeds } => captured.push(json!([pit, seeds])),
            Event::GrandSlamForfeited { seeds } => forfeited = json!(seeds),
            Event::End { pit, reason } => {
                if pit != t.last_pit {
                    return Err(format!("End event at pit {pit}, last_pit {}", t.last_pit));
                }
                end = Some(json!(reason));
            }
            _ => {}
        }
    }
    let got = [
        ("laps", json!(t.laps)),
        ("last_pit", json!(t.last_pit)),
        ("end", end.unwrap_or(Value::Null)),
        ("taken", json!(t.taken)),
        ("collected", Value::Array(collected)),
        ("captured", Value::Array(captured)),
        ("forfeited", forfeited),
    ];
    for (key, value) in got {
        if want[key] != value {
            return Err(format!("trace.{key}: got {value}, want {}", want[key]));
        }
    }
    Ok(())
}

fn check(v: &Value) -> Result<(), String> {
    let text = v["game"].as_str().ok_or("no game")?;
    let game = Game::from_record(text).map_err(|e| format!("game record: {e}"))?;
    if game.record() != text {
        return Err(format!("record does not round-trip: {}", game.record()));
    }
    let rules = *game.rules();
    let pos = *game.position();
    let legal: Vec<u64> = game
        .legal_moves()
        .iter()
        .map(|m| u64::from(m.relative_pit()))
        .collect();
    if json!(legal) != v["legal"] {
        return Err(format!("legal: got {legal:?}, want {}", v["legal"]));
    }
    // The lone position agrees unless the game ended by repetition (which needs the history).
    let by_repetition = game
        .outcome()
        .is_some_and(|o| o.reason == EndReason::Repetition);
    if !by_repetition {
        let p: Vec<u64> = pos
            .legal_moves(&rules)
            .iter()
            .map(|m| u64::from(m.relative_pit()))
            .collect();
        if p != legal {
            return Err(format!(
                "Position::legal_moves {p:?} differs from Game::legal_moves {legal:?}"
            ));
        }
        if pos.outcome(&rules) != game.outcome() {
            return Err(format!(
                "Position::outcome {:?} vs Game::outcome {:?}",
                pos.outcome(&rules),
                game.outcome()
            ));
        }
    }
    let rel = v["move"].as_u64().ok_or("no move")?;
    let mv = match pos.move_for_relative_pit(u8::try_from(rel).unwrap_or(u8::MAX)) {
        Ok(mv) => mv,
        Err(e) => {
            return if v["error"] == json!(e.kind()) && v["after"].is_null() && v["trace"].is_null()
            {
                Ok(())
            } else {
                Err(format!(
                    "move {rel}: error {}, want {}",
                    e.kind(),
                    v["error"]
                ))
            };
        }
    };
    let traced = game.trace(mv);
    let mut after = game.clone();
    match after.play(mv) {
        Err(e) => {
            if v["error"] != json!(e.kind()) {
                return Err(format!("error: got {}, want {}", e.kind(), v["error"]));
            }
            if after != game {
                return Err("a failed move changed the game".into());
            }
            if traced != Err(e) {
                return Err(format!("Game::trace gives {traced:?} for an illegal move"));
            }
            if !by_repetition && e.kind() != "game_over" {
                let pe = pos
                    .play(&rules, mv)
                    .map(|_| ())
                    .map_err(|pe| pe.reason.kind());
                if pe != Err(e.kind()) {
                    return Err(format!(
                        "Position::play gives {pe:?}, Game::play {}",
                        e.kind()
                    ));
                }
            }
            if !v["after"].is_null() || !v["trace"].is_null() {
                return Err("an illegal move with an after position or trace".into());
            }
            if outcome_value(game.outcome()) != v["outcome"] {
                return Err(format!(
                    "outcome: got {:?}, want {}",
                    game.outcome(),
                    v["outcome"]
                ));
            }
        }
        Ok(()) => {
            if !v["error"].is_null() {
                return Err(format!("move played, want error {}", v["error"]));
            }
            let got = position_to_text(&rules, after.position());
            if v["after"] != json!(got) {
                return Err(format!("after: got {got}, want {}", v["after"]));
            }
            let (r2, p2) = parse_position(&got).map_err(|e| format!("after record: {e}"))?;
            if (r2, p2) != (rules, *after.position()) {
                return Err("after record does not round-trip".into());
            }
            if !by_repetition && pos.play(&rules, mv).ok() != Some(*after.position()) {
                return Err("Position::play differs from Game::play".into());
            }
            check_trace(&traced.map_err(|e| format!("trace: {e}"))?, &v["trace"])?;
            if outcome_value(after.outcome()) != v["outcome"] {
                return Err(format!(
                    "outcome: got {:?}, want {}",
                    after.outcome(),
                    v["outcome"]
                ));
            }
        }
    }
    Ok(())
}

/// Topics (the middle part of `label/topic/detail`) that must occur.
const REQUIRED_TOPICS: [&str; 22] = [
    "ordinary",
    "long-relay",
    "lap-of-12",
    "endless-relay",
    "empty-pit",
    "out-of-range",
    "does-not-feed",
    "feeding",
    "feeding-none-possible",
    "starving",
    "capture",
    "chain",
    "grand-slam-allowed",
    "grand-slam-forfeited",
    "collect-four-mover",
    "collect-four-pit-owner",
    "end-target",
    "end-move-limit",
    "end-repetition",
    "end-no-legal-move-to-opponent",
    "end-no-legal-move-own-side",
    "game-over",
];

#[test]
fn every_vector_holds() {
    let files = vector_files();
    let mut names = HashSet::new();
    let mut topics: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_file = BTreeMap::new();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let doc: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(doc["format"], "ayo-vectors/1", "{}", file.display());
        let vectors = doc["vectors"].as_array().expect("a vectors array");
        let fname = file.file_name().unwrap().to_string_lossy().into_owned();
        per_file.insert(fname.clone(), vectors.len());
        for v in vectors {
            let name = v["name"].as_str().unwrap_or("<no name>").to_owned();
            assert!(names.insert(name.clone()), "duplicate vector name {name}");
            let parts: Vec<&str> = name.splitn(3, '/').collect();
            assert_eq!(parts.len(), 3, "name {name} is not label/topic/detail");
            *topics.entry(parts[1].to_owned()).or_default() += 1;
            if let Err(e) = check(v) {
                failures.push(format!("{fname} {name}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing vectors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for preset in ["ayoayo", "ayo", "olopon", "oware"] {
        let n = per_file
            .get(&format!("moves-{preset}.json"))
            .copied()
            .unwrap_or(0);
        assert!(n >= 50, "moves-{preset}.json has {n} vectors");
    }
    let presets: usize = ["ayoayo", "ayo", "olopon", "oware"]
        .iter()
        .map(|p| per_file[&format!("moves-{p}.json")])
        .sum();
    assert!(
        presets >= 200,
        "only {presets} vectors across the four presets"
    );
    for topic in REQUIRED_TOPICS {
        assert!(
            topics.contains_key(topic),
            "no vector of topic {topic}; topics: {topics:?}"
        );
    }
}
