//! Writes the shared test vectors `tests/vectors/moves-*.json` and
//! `tests/vectors/perft.json` (format: `tests/vectors/README.md`).
//!
//! Situations are found by seeded random play (fixed seeds, so the output is
//! the same on every run) and a few hand-picked positions. Every expected
//! result is cross-checked here against the seed-by-seed reading of the rules
//! (`tests/reference.rs`, which shares no code with the engine); the
//! generator aborts if the engine and the reference disagree.
//!
//! Run: `cargo run --release -p ayo-core --example make_vectors`
//! (add `--long-relay` to search for a terminating relay of 300+ laps and print it).

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use ayo_core::playout::perft;
use ayo_core::record::position_to_text;
use ayo_core::trace::{Event, Trace};

#[path = "../tests/reference.rs"]
mod reference;
use ayo_core::{
    Capture, EndReason, Feeding, FoursTo, Game, IllegalMove, Move, Outcome, Player, Position,
    Preset, Repetition, Rules, StuckSeeds,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::sow_plain as sow_seed_by_seed;
use serde_json::{json, Value};

fn out_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn fail(msg: String) -> ! {
    eprintln!("make_vectors: engine and reference disagree: {msg}");
    std::process::exit(1);
}

// ------------------------------------------------------------- reference

/// The legal moves by the seed-by-seed reference: non-empty pits of the mover
/// whose sowing ends, filtered by the feeding rule (docs/rules.md "One move", 6).
/// Empty when the game is over by target or move limit.
fn reference_legal(rules: &Rules, pos: &Position) -> Vec<u8> {
    if reference_counter_end(rules, pos).is_some() {
        return Vec::new();
    }
    let me = pos.to_move();
    let opp = me.opponent();
    let opp_row = |b: &[u8; 12]| {
        b[opp.first_pit()..opp.first_pit() + 6]
            .iter()
            .any(|&s| s > 0)
    };
    let board = pos.board();
    let mut ending = Vec::new();
    let mut feeding = Vec::new();
    for a in 0..6u8 {
        let mv = Move::from_action(me, a).unwrap();
        if board[mv.pit()] == 0 {
            continue;
        }
        if let Some((_, after)) = sow_seed_by_seed(rules, pos, mv) {
            ending.push(a + 1);
            if opp_row(&after.board) {
                feeding.push(a + 1);
            }
        }
    }
    match rules.feeding() {
        Feeding::Off => ending,
        Feeding::Strict | Feeding::IfPossible if opp_row(&board) => ending,
        Feeding::Strict => feeding,
        Feeding::IfPossible | Feeding::NoStarving if feeding.is_empty() => ending,
        Feeding::IfPossible | Feeding::NoStarving => feeding,
    }
}

fn reference_counter_end(rules: &Rules, pos: &Position) -> Option<EndReason> {
    let s = pos.stores();
    if rules
        .target()
        .is_some_and(|t| u16::from(s[0]) >= t || u16::from(s[1]) >= t)
    {
        return Some(EndReason::Target);
    }
    if rules.move_limit().is_some_and(|l| pos.no_capture() >= l) {
        return Some(EndReason::MoveLimit);
    }
    None
}

/// The end of a game by docs/rules.md "End of the game", read off the positions played.
fn reference_outcome(rules: &Rules, history: &[Position]) -> Option<Outcome> {
    let pos = history.last().unwrap();
    let b = pos.board();
    let rows = [
        b[..6].iter().map(|&s| u16::from(s)).sum::<u16>(),
        b[6..].iter().map(|&s| u16::from(s)).sum::<u16>(),
    ];
    let stores = [u16::from(pos.stores()[0]), u16::from(pos.stores()[1])];
    let own = [stores[0] + rows[0], stores[1] + rows[1]];
    let (reason, scores) = match reference_counter_end(rules, pos) {
        Some(EndReason::Target) => (EndReason::Target, stores),
        Some(r) => (r, own),
        None => {
            let since = pos.no_capture() as usize;
            let n = history.len();
            let earlier = &history[n - 1 - since.min(n - 1)..n - 1];
            let same = |p: &Position| {
                p.board() == b && p.stores() == pos.stores() && p.to_move() == pos.to_move()
            };
            if rules.repetition() == Repetition::OwnSide && earlier.iter().any(same) {
                (EndReason::Repetition, own)
            } else if reference_legal(rules, pos).is_empty() {
                let scores = match rules.stuck_seeds() {
                    StuckSeeds::OwnSide => own,
                    StuckSeeds::ToOpponent => {
                        let mut s = stores;
                        s[pos.to_move().opponent().index()] += rows[0] + rows[1];
                        s
                    }
                };
                (EndReason::NoLegalMove, scores)
            } else {
                return None;
            }
        }
    };
    let winner = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(Player::South),
        std::cmp::Ordering::Less => Some(Player::North),
        std::cmp::Ordering::Equal => None,
    };
    Some(Outcome {
        winner,
        reason,
        scores,
    })
}

// ------------------------------------------------------------- vectors

fn trace_json(t: &Trace) -> Value {
    let mut collected = Vec::new();
    let mut captured = Vec::new();
    let mut forfeited = Value::Null;
    let mut end = Value::Null;
    for e in &t.events {
        match *e {
            Event::Collect { pit, to } => collected.push(json!([pit, to])),
            Event::Capture { pit, seeds } => captured.push(json!([pit, seeds])),
            Event::GrandSlamForfeited { seeds } => forfeited = json!(seeds),
            Event::End { reason, .. } => end = json!(reason),
            _ => {}
        }
    }
    json!({
        "laps": t.laps,
        "last_pit": t.last_pit,
        "end": end,
        "taken": t.taken,
        "collected": collected,
        "captured": captured,
        "forfeited": forfeited,
    })
}

fn outcome_json(o: Option<Outcome>) -> Value {
    match o {
        None => Value::Null,
        Some(o) => json!({"winner": o.winner, "reason": o.reason, "scores": o.scores}),
    }
}

/// What a tried move shows.
struct Tried {
    topic: &'static str,
    value: Value,
    /// The reference needed over a second (an endless relay with a cycle of
    /// millions of laps): not kept, so that every reader stays fast.
    slow: bool,
}

/// The game to record for a vector: the current position alone, or, where
/// repetition can end the game, the moves since the last capture too.
fn recorded(game: &Game) -> Game {
    let rules = *game.rules();
    let positions = game.positions();
    let from = if rules.repetition() == Repetition::OwnSide {
        positions
            .iter()
            .rposition(|p| p.no_capture() == 0)
            .unwrap_or(0)
    } else {
        positions.len() - 1
    };
    let mut g = Game::from_position(rules, positions[from]);
    for &mv in &game.moves()[from..] {
        g.play(mv).expect("replaying the game's own moves");
    }
    g
}

/// Tries relative pit `rel` on the game's current position and builds the
/// vector, cross-checking every field against the reference.
fn try_move(game: &Game, rel: u8, name: &str, note: Option<&str>) -> Tried {
    let text = recorded(game).record();
    let g = Game::from_record(&text).unwrap_or_else(|e| fail(format!("{text}: {e}")));
    let rules = *g.rules();
    let pos = *g.position();
    let ctx = position_to_text(&rules, &pos);
    let legal: Vec<u8> = g.legal_moves().iter().map(|m| m.relative_pit()).collect();
    let ended = g.outcome().is_some();
    let ref_outcome = reference_outcome(&rules, g.positions());
    if ref_outcome != g.outcome() {
        fail(format!(
            "{ctx}: outcome {:?} vs reference {ref_outcome:?}",
            g.outcome()
        ));
    }
    let ref_legal = if ended {
        Vec::new()
    } else {
        reference_legal(&rules, &pos)
    };
    if legal != ref_legal {
        fail(format!("{ctx}: legal {legal:?} vs reference {ref_legal:?}"));
    }
    let mut v = json!({
        "name": name,
        "game": text,
        "legal": legal,
        "move": rel,
        "error": null,
        "after": null,
        "trace": null,
        "outcome": null,
    });
    if let Some(n) = note {
        v["note"] = json!(n);
    }
    let mv = match pos.move_for_relative_pit(rel) {
        Ok(mv) => mv,
        Err(e) => {
            v["error"] = json!(e.kind());
            return Tried {
                topic: "out-of-range",
                value: v,
                slow: false,
            };
        }
    };
    let mut after = g.clone();
    match after.play(mv) {
        Err(e) => {
            let t0 = Instant::now();
            let reference =
                (!ended && pos.seeds(mv.pit()) > 0).then(|| sow_seed_by_seed(&rules, &pos, mv));
            let slow = t0.elapsed().as_secs_f64() > 1.0;
            if slow {
                eprintln!("slow reference, not kept: {ctx} move {rel}: {e:?}");
            }
            let topic = match e {
                IllegalMove::GameOver if ended => "game-over",
                IllegalMove::EmptyPit { .. } if !ended && pos.seeds(mv.pit()) == 0 => "empty-pit",
                IllegalMove::EndlessRelay { .. } if matches!(reference, Some(None)) => {
                    "endless-relay"
                }
                IllegalMove::DoesNotFeed { .. }
                    if matches!(reference, Some(Some(_))) && !ref_legal.contains(&rel) =>
                {
                    "does-not-feed"
                }
                IllegalMove::Starves { .. }
                    if matches!(reference, Some(Some(_))) && !ref_legal.contains(&rel) =>
                {
                    "starves"
                }
                _ => fail(format!("{ctx}: move {rel}: unexpected error {e:?}")),
            };
            v["error"] = json!(e.kind());
            // The game is unchanged: its outcome (set only when the game is over).
            v["outcome"] = outcome_json(g.outcome());
            Tried {
                topic,
                value: v,
                slow,
            }
        }
        Ok(()) => {
            if !ref_legal.contains(&rel) {
                fail(format!(
                    "{ctx}: move {rel} played but the reference says illegal"
                ));
            }
            let (t, setup) = sow_seed_by_seed(&rules, &pos, mv).unwrap();
            if *after.position() != Position::from_setup_unchecked(&setup) {
                fail(format!(
                    "{ctx}: move {rel}: engine {:?} vs reference {setup:?}",
                    after.position()
                ));
            }
            if g.trace(mv).as_ref() != Ok(&t) {
                fail(format!(
                    "{ctx}: move {rel}: Game::trace differs from the reference"
                ));
            }
            let ref_out = reference_outcome(&rules, after.positions());
            if ref_out != after.outcome() {
                fail(format!(
                    "{ctx}: move {rel}: outcome {:?} vs reference {ref_out:?}",
                    after.outcome()
                ));
            }
            v["after"] = json!(position_to_text(&rules, after.position()));
            v["trace"] = trace_json(&t);
            v["outcome"] = outcome_json(after.outcome());
            let topic = classify(&rules, &pos, after.position(), &t, after.outcome());
            Tried {
                topic,
                value: v,
                slow: false,
            }
        }
    }
}

fn classify(
    rules: &Rules,
    pos: &Position,
    next: &Position,
    t: &Trace,
    outcome: Option<Outcome>,
) -> &'static str {
    let me = pos.to_move();
    let opp = me.opponent();
    let ev = &t.events;
    if ev
        .iter()
        .any(|e| matches!(e, Event::GrandSlamForfeited { .. }))
    {
        return "grand-slam-forfeited";
    }
    let captures = ev
        .iter()
        .filter(|e| matches!(e, Event::Capture { .. }))
        .count();
    if captures > 0 && next.row_seeds(opp) == 0 {
        return "grand-slam-allowed";
    }
    if pos.row_seeds(opp) == 0 && rules.feeding() != Feeding::Off {
        return if next.row_seeds(opp) > 0 {
            "feeding"
        } else {
            "feeding-none-possible"
        };
    }
    if pos.row_seeds(opp) == 0 && next.row_seeds(opp) == 0 {
        return "starving";
    }
    if let Some(o) = outcome {
        return match (o.reason, rules.stuck_seeds()) {
            (EndReason::Target, _) => "end-target",
            (EndReason::MoveLimit, _) => "end-move-limit",
            (EndReason::Repetition, _) => "end-repetition",
            (EndReason::NoLegalMove, StuckSeeds::ToOpponent) => "end-no-legal-move-to-opponent",
            (EndReason::NoLegalMove, StuckSeeds::OwnSide) => "end-no-legal-move-own-side",
        };
    }
    if t.laps >= 25 {
        return "long-relay";
    }
    if ev.iter().any(
        |e| matches!(*e, Event::Lift { seeds, .. } | Event::Relay { seeds, .. } if seeds >= 12),
    ) {
        return "lap-of-12";
    }
    if ev.iter().any(|e| matches!(e, Event::Collect { .. })) {
        // A 4 going to someone other than the mover shows fours_to = pit_owner.
        let other = ev
            .iter()
            .any(|e| matches!(*e, Event::Collect { to, .. } if to != me));
        return match rules.fours_to() {
            FoursTo::Mover => "collect-four-mover",
            FoursTo::PitOwner if other => "collect-four-pit-owner",
            FoursTo::PitOwner => "collect-four-pit-owner-mover",
        };
    }
    if rules.capture() == Capture::TwoThree && captures >= 2 {
        return "chain";
    }
    if captures > 0 {
        return "capture";
    }
    "ordinary"
}

// ------------------------------------------------------------- collection

/// A hand-picked game record, the move to try, the name's detail, and a note.
type Extra = (String, u8, &'static str, &'static str);

struct Suite {
    file: &'static str,
    label: String,
    rules: Rules,
    games: u32,
    seed: u64,
    /// Quotas are divided by this (the variants keep fewer of each topic).
    divisor: usize,
    /// Topics kept at the full quota whatever the divisor.
    focus: &'static [&'static str],
}

struct Collector {
    vectors: Vec<Value>,
    per_topic: BTreeMap<String, usize>,
    names: HashSet<String>,
}

impl Collector {
    fn add(&mut self, t: Tried) {
        let name = t.value["name"].as_str().unwrap().to_owned();
        assert!(
            self.names.insert(name.clone()),
            "duplicate vector name {name}"
        );
        *self.per_topic.entry(t.topic.to_owned()).or_default() += 1;
        self.vectors.push(t.value);
    }
}

fn quota(topic: &str, divisor: usize) -> usize {
    let q = match topic {
        "ordinary" => 8,
        "long-relay" | "endless-relay" | "feeding" | "does-not-feed" | "chain" | "capture" => 6,
        "out-of-range" => 1,
        "game-over" => 3,
        _ => 5,
    };
    (q / divisor).max(1)
}

/// Seeded random games; each position's six moves are tried, and a vector is
/// kept while its topic's quota lasts.
fn collect(suite: &Suite, col: &mut Collector, extra: &[Extra]) {
    let mut taken: BTreeMap<&'static str, usize> = BTreeMap::new();
    let quota = |topic: &str| {
        quota(
            topic,
            if suite.focus.contains(&topic) {
                1
            } else {
                suite.divisor
            },
        )
    };
    for (text, rel, detail, note) in extra {
        let g = Game::from_record(text).unwrap_or_else(|e| fail(format!("{text}: {e}")));
        let t = try_move(&g, *rel, "", Some(note));
        let mut t = t;
        t.value["name"] = json!(format!("{}/{}/{detail}", suite.label, t.topic));
        *taken.entry(t.topic).or_default() += 1;
        col.add(t);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(suite.seed);
    for gi in 0..suite.games {
        let mut game = Game::new(suite.rules);
        // Vary the opening so the games differ early.
        loop {
            let ply = game.moves().len();
            let rels: Vec<u8> = if game.outcome().is_some() {
                vec![1]
            } else {
                (1..=6).collect()
            };
            for &rel in &rels {
                let name = format!("{}/?/g{gi}-p{ply}-m{rel}", suite.label);
                let t = try_move(&game, rel, &name, None);
                let n = taken.entry(t.topic).or_default();
                // Ordinary moves are everywhere: keep a thin, spread-out sample.
                let keep = !t.slow
                    && *n < quota(t.topic)
                    && (t.topic != "ordinary" || rng.random_range(0..40) == 0);
                if keep {
                    *n += 1;
                    let mut t = t;
                    t.value["name"] =
                        json!(format!("{}/{}/g{gi}-p{ply}-m{rel}", suite.label, t.topic));
                    col.add(t);
                }
            }
            if game.outcome().is_some() || ply >= 600 {
                break;
            }
            let legal = game.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            game.play(mv).unwrap();
        }
    }
    // A move out of range on the start position.
    if taken.get("out-of-range").copied().unwrap_or(0) == 0 {
        let g = Game::new(suite.rules);
        let mut t = try_move(&g, 7, "", None);
        t.value["name"] = json!(format!("{}/out-of-range/start-m7", suite.label));
        col.add(t);
    }
}

fn write_moves(file: &str, vectors: &[Value]) {
    let mut out = String::from("{\n  \"format\": \"ayo-vectors/1\",\n  \"vectors\": [\n");
    for (i, v) in vectors.iter().enumerate() {
        let sep = if i + 1 < vectors.len() { "," } else { "" };
        let _ = writeln!(out, "    {}{sep}", serde_json::to_string(v).unwrap());
    }
    out.push_str("  ]\n}\n");
    std::fs::write(out_dir().join(file), out).unwrap();
}

// ------------------------------------------------------------- long relays

/// Seeded random ayoayo play until a terminating move of `min_laps` or more is
/// found; returns its position record, move and laps.
fn find_long_relay(rules: &Rules, min_laps: u32, seed: u64) -> Option<(String, u8, u32)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..200_000 {
        let mut pos = Position::start(rules);
        for _ in 0..400 {
            let children = pos.children(rules);
            if children.is_empty() || pos.outcome(rules).is_some() {
                break;
            }
            for &(mv, next) in &children {
                let (t, setup) = sow_seed_by_seed(rules, &pos, mv).unwrap();
                if Position::from_setup_unchecked(&setup) != next {
                    fail(format!("{}: move {mv}", position_to_text(rules, &pos)));
                }
                if t.laps >= min_laps {
                    return Some((position_to_text(rules, &pos), mv.relative_pit(), t.laps));
                }
            }
            pos = children[rng.random_range(0..children.len())].1;
        }
    }
    None
}

// ------------------------------------------------------------- perft

const OWARE_PERFT: [u64; 8] = [6, 36, 190, 1014, 5219, 27332, 139157, 711414];
const OWARE_PERFT_11: u64 = 91_558_687;

fn perft_suites() -> Value {
    let mut suites = Vec::new();
    for preset in Preset::ALL {
        let rules = preset.rules();
        let start = Position::start(&rules);
        let depth = match preset {
            Preset::Oware | Preset::Olopon => 11,
            Preset::Ayoayo | Preset::Ayo => 11,
        };
        let t0 = Instant::now();
        let counts: Vec<u64> = (1..=depth).map(|d| perft(&rules, &start, d)).collect();
        eprintln!("perft {preset}: {counts:?} in {:.1?}", t0.elapsed());
        if preset == Preset::Oware && (counts[..8] != OWARE_PERFT || counts[10] != OWARE_PERFT_11) {
            fail(format!(
                "oware perft {counts:?} differs from the independent counts"
            ));
        }
        // Depth 1 against the reference's legal moves.
        let ref1 = reference_legal(&rules, &start).len() as u64;
        if counts[0] != ref1 {
            fail(format!(
                "{preset} perft(1) {} vs reference {ref1}",
                counts[0]
            ));
        }
        suites.push(json!({
            "rules": preset.name(),
            "position": position_to_text(&rules, &start),
            "counts": counts,
        }));
    }
    json!({"format": "ayo-perft/1", "suites": suites})
}

// ------------------------------------------------------------- main

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--long-relay") {
        let rules = Rules::preset("ayoayo").unwrap();
        match find_long_relay(&rules, 300, 1) {
            Some((text, rel, laps)) => println!("{text} move {rel}: {laps} laps"),
            None => println!("none found"),
        }
        return;
    }

    let worked = "ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 10 |";
    let long_relay = format!("{} |", LONG_RELAY.0);
    let hand = |text: &str, rel: u8, detail: &'static str, note: &'static str| -> Extra {
        (text.to_owned(), rel, detail, note)
    };
    let preset_suite = |name: &str, seed: u64| Suite {
        file: match name {
            "ayoayo" => "moves-ayoayo.json",
            "ayo" => "moves-ayo.json",
            "olopon" => "moves-olopon.json",
            _ => "moves-oware.json",
        },
        label: name.into(),
        rules: Rules::preset(name).unwrap(),
        games: 300,
        seed,
        divisor: 1,
        focus: &[],
    };
    let suites: Vec<(Suite, Vec<Extra>)> = vec![
        (
            preset_suite("ayoayo", 11),
            vec![
                hand(
                    worked,
                    2,
                    "worked-example",
                    "RULES.md worked example: pit 7 relays 174 laps back to its start",
                ),
                hand(
                    worked,
                    1,
                    "worked-example-pit-1",
                    "RULES.md worked example: North's pit 1 ends",
                ),
                hand(
                    &long_relay,
                    LONG_RELAY.1,
                    "325-laps",
                    "a terminating relay of 325 laps",
                ),
                hand(
                    "ayoayo 1,1,0,0,0,0/0,0,0,0,0,0 23-23 s 0 0 |",
                    1,
                    "strict-no-feeding-move",
                    "strict feeding and no move feeds: no legal move, South's 2 seeds go to North",
                ),
                hand(
                    "ayoayo 0,0,1,0,0,9/0,0,5,0,0,0 12-21 s 0 0 |",
                    3,
                    "across-empties-north",
                    "the capture takes North's last seeds; North is stuck and South sweeps 9",
                ),
                hand(
                    "ayoayo 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 |",
                    1,
                    "opening-pit-1",
                    "five laps, then a capture across of 1 + the capturing seed",
                ),
            ],
        ),
        (
            preset_suite("ayo", 12),
            vec![
                hand(
                    "ayo 1,1,0,0,0,0/0,0,0,0,0,0 23-23 s 0 0 |",
                    2,
                    "no-feeding-move",
                    "feed if possible: no move feeds, so every move is legal",
                ),
                hand(
                    "ayo 0,0,0,0,0,4/3,4,1,3,2,2 15-14 s 0 0 |",
                    6,
                    "mid-lap-and-last-four",
                    "a 4 made mid-lap and one made by the last seed, both to the mover",
                ),
                hand(
                    "ayo 0,0,0,0,0,1/0,0,0,0,2,0 24-21 s 59 59 |",
                    6,
                    "draw-24-24",
                    "the 60th move without capture: each takes their row, 24-24",
                ),
            ],
        ),
        (
            preset_suite("olopon", 13),
            vec![
                hand(
                    "olopon 0,0,0,0,0,1/0,0,0,0,2,0 24-21 s 39 50 |",
                    6,
                    "draw-24-24",
                    "the 40th move without capture: each takes their row, 24-24",
                ),
                hand(
                    "olopon 1,1,0,0,0,0/0,0,0,0,0,0 23-23 s 0 0 |",
                    1,
                    "stuck-own-side",
                    "no move feeds: no legal move, each keeps their row, 25-23",
                ),
            ],
        ),
        (
            preset_suite("oware", 14),
            vec![
                hand(
                    "oware 0,0,0,0,0,1/0,0,0,0,0,1 23-23 s 0 0 | 6 6 1 1 2 2 3 3 4 4 5",
                    5,
                    "cycle-of-12-moves",
                    "the twelfth move brings the first position back: repetition, 24-24",
                ),
                hand(
                    "oware 5,5,5,0,5,2/1,2,1,2,0,3 9-8 s 0 0 |",
                    5,
                    "to-the-row-end",
                    "takes 3, 2, 3, 2 back to North's first pit, not South's 3 before it",
                ),
                hand(
                    "oware 5,5,5,5,0,2/1,2,0,0,0,0 12-11 s 0 0 |",
                    6,
                    "whole-row",
                    "the 2-or-3 run is all of North's seeds: forfeited, the board stays as sown",
                ),
                hand(
                    "oware 12,0,0,0,0,0/1,1,1,1,1,1 15-15 s 0 0 |",
                    1,
                    "twelve-seeds",
                    "12 seeds skip their pit: the 12th lands in pit 1",
                ),
            ],
        ),
    ];
    type Variant = (&'static str, &'static [&'static str], Vec<Extra>);
    let variants: Vec<Variant> = vec![
        (
            "ayoayo[capturing_seed_taken=false]",
            &["capture"],
            vec![hand(
                "ayoayo[capturing_seed_taken=false] 0,0,1,0,0,0/3,4,5,2,1,1 15-16 s 0 0 |",
                3,
                "facing-pit-only",
                "takes the facing pit's 5; the capturing seed stays",
            )],
        ),
        (
            "ayoayo[stuck_seeds=own_side]",
            &["end-no-legal-move-own-side"],
            vec![],
        ),
        (
            "ayoayo[skip_origin=false]",
            &["lap-of-12"],
            vec![hand(
                "ayoayo[skip_origin=false] 1,11,9,0,0,0/1,0,0,0,0,0 13-13 s 0 0 |",
                1,
                "relay-of-twelve",
                "the relay lap of 12 sows its own pit and captures there",
            )],
        ),
        (
            "oware[skip_origin=false]",
            &["lap-of-12"],
            vec![hand(
                "oware[skip_origin=false] 12,0,0,0,0,0/1,1,1,1,1,1 15-15 s 0 0 |",
                1,
                "twelve-seeds",
                "without skip_origin the 12th seed lands in the emptied pit 0",
            )],
        ),
        (
            "ayoayo[capture=two_three]",
            &["chain", "capture"],
            vec![hand(
                "ayoayo[capture=two_three] 2,0,1,0,3,0/1,0,1,0,0,0 20-20 s 0 0 |",
                1,
                "relay-then-two",
                "two relays in South's row, then a 2 in North's row is captured",
            )],
        ),
        (
            "ayo[fours_to=pit_owner]",
            &["collect-four-pit-owner", "collect-four-pit-owner-mover"],
            vec![hand(
                "ayo[fours_to=pit_owner] 0,0,0,0,0,4/3,4,1,3,2,2 15-14 s 0 0 |",
                6,
                "mid-lap-and-last-four",
                "the mid-lap 4 goes to North (its row), the last seed's 4 to the mover",
            )],
        ),
        ("ayoayo[feeding=off]", &["starving"], vec![]),
        ("ayo[feeding=off]", &["starving"], vec![]),
        (
            "ayoayo[grand_slam=no_capture]",
            &["grand-slam-forfeited"],
            vec![],
        ),
        ("oware[grand_slam=allowed]", &["grand-slam-allowed"], vec![]),
        ("ayoayo[move_limit=20]", &["end-move-limit"], vec![]),
        (
            "ayoayo[feeding=no_starving]",
            &["starves"],
            vec![hand(
                "ayoayo[feeding=no_starving] 1,0,0,0,0,1/0,0,0,0,3,0 20-23 s 0 10 |",
                1,
                "capture-empties-the-row",
                "capturing pit 10 across would leave North's row empty; pit 6 leaves it seeds",
            )],
        ),
    ];

    let mut report = String::new();
    let mut total = 0;
    for (suite, extra) in &suites {
        let mut col = Collector {
            vectors: Vec::new(),
            per_topic: BTreeMap::new(),
            names: HashSet::new(),
        };
        collect(suite, &mut col, extra);
        write_moves(suite.file, &col.vectors);
        total += col.vectors.len();
        let _ = writeln!(
            report,
            "{}: {} vectors {:?}",
            suite.file,
            col.vectors.len(),
            col.per_topic
        );
    }
    let mut col = Collector {
        vectors: Vec::new(),
        per_topic: BTreeMap::new(),
        names: HashSet::new(),
    };
    for (i, (label, focus, extra)) in variants.iter().enumerate() {
        let rules: Rules = label.parse().unwrap();
        assert_eq!(
            rules.to_string(),
            *label,
            "variant labels are canonical rules records"
        );
        let suite = Suite {
            file: "moves-variants.json",
            label: (*label).into(),
            rules,
            games: 60,
            seed: 100 + i as u64,
            divisor: 3,
            focus,
        };
        collect(&suite, &mut col, extra);
    }
    write_moves("moves-variants.json", &col.vectors);
    total += col.vectors.len();
    let _ = writeln!(
        report,
        "moves-variants.json: {} vectors {:?}",
        col.vectors.len(),
        col.per_topic
    );
    eprint!("{report}");
    eprintln!("total: {total} vectors");

    let perft = perft_suites();
    let mut text = String::from("{\n  \"format\": \"ayo-perft/1\",\n  \"suites\": [\n");
    let suites = perft["suites"].as_array().unwrap();
    for (i, suite) in suites.iter().enumerate() {
        let sep = if i + 1 < suites.len() { "," } else { "" };
        let _ = writeln!(text, "    {}{sep}", serde_json::to_string(suite).unwrap());
    }
    text.push_str("  ]\n}\n");
    std::fs::write(out_dir().join("perft.json"), text).unwrap();
}

/// A terminating ayoayo relay of several hundred laps, found by
/// `make_vectors --long-relay` (seeded random play); also a scenario test.
const LONG_RELAY: (&str, u8) = ("ayoayo 1,2,1,2,7,0/1,2,0,1,0,2 21-8 n 11 23", 2);
