//! Hand-worked scenarios: one test for each rule point of docs/rules.md and for
//! each preset. Every expected board, store and outcome below was worked out
//! by hand from the rules text (the working is in the comments), never copied
//! from the engine's output. Boards are written pits 0..=5 (South's row) then
//! 6..=11 (North's row); moves are the mover's relative pits 1..=6.

use ayo_core::record::{parse_game, parse_position, position_to_text, rules_to_text};
use ayo_core::trace::{sow_seed_by_seed, trace, Event, LapEnd};

use crate::reference::sow_plain;
use ayo_core::{
    Capture, EndReason, Feeding, FoursTo, Game, GrandSlam, IllegalMove, LeanGame, Outcome, Player,
    Position, Preset, Repetition, RuleParams, Rules, RulesError, Setup, SetupError, Status,
    StuckSeeds,
};

const S: Player = Player::South;
const N: Player = Player::North;

/// A preset with `key=value` overrides.
fn rules(preset: &str, overrides: &[(&str, &str)]) -> Rules {
    let mut p: RuleParams = Rules::preset(preset).unwrap().params();
    for (k, v) in overrides {
        p.set(k, v).unwrap();
    }
    Rules::new(p).unwrap()
}

/// A validated position; the seeds must total 48 (checked by `from_setup`).
fn pos(r: &Rules, board: [u8; 12], stores: [u8; 2], to_move: Player) -> Position {
    pos_counters(r, board, stores, to_move, 0, 0)
}

fn pos_counters(
    r: &Rules,
    board: [u8; 12],
    stores: [u8; 2],
    to_move: Player,
    no_capture: u16,
    ply: u32,
) -> Position {
    Position::from_setup(
        r,
        &Setup {
            board,
            stores,
            to_move,
            no_capture,
            ply,
        },
    )
    .unwrap()
}

/// Plays relative pit `rel` and checks the engine against the seed-by-seed
/// reference too.
fn play(r: &Rules, p: &Position, rel: u8) -> Position {
    let mv = p.move_for_relative_pit(rel).unwrap();
    let next = p.play(r, mv).unwrap();
    let (_, reference) = sow_plain(r, p, mv).unwrap();
    assert_eq!(next, Position::from_setup_unchecked(&reference));
    next
}

/// Plays `rel` from a new position and checks the board and stores after it.
fn case(
    r: &Rules,
    board: [u8; 12],
    stores: [u8; 2],
    to_move: Player,
    rel: u8,
    after: [u8; 12],
    after_stores: [u8; 2],
) -> (Position, Position) {
    let p = pos(r, board, stores, to_move);
    let q = play(r, &p, rel);
    assert_eq!((q.board(), q.stores()), (after, after_stores));
    (p, q)
}

fn illegal(r: &Rules, p: &Position, rel: u8) -> IllegalMove {
    let mv = p.move_for_relative_pit(rel).unwrap();
    p.play(r, mv).unwrap_err().reason
}

fn legal(r: &Rules, p: &Position) -> Vec<u8> {
    p.legal_moves(r).iter().map(|m| m.relative_pit()).collect()
}

fn lap_info(r: &Rules, p: &Position, rel: u8) -> (u32, usize, LapEnd) {
    let (t, _) = trace(r, p, p.move_for_relative_pit(rel).unwrap()).unwrap();
    let end = match t.events.last() {
        Some(Event::End { reason, .. }) => *reason,
        other => panic!("a trace ends with End, got {other:?}"),
    };
    (t.laps, t.last_pit, end)
}

fn outcome(winner: Option<Player>, reason: EndReason, scores: [u16; 2]) -> Option<Outcome> {
    Some(Outcome {
        winner,
        reason,
        scores,
    })
}

// ---------------------------------------------------------------- presets

#[test]
fn preset_parameters_match_the_table() {
    let a = Rules::preset("ayoayo").unwrap();
    assert!(a.relay() && a.capture() == Capture::Across && a.capturing_seed_taken());
    assert_eq!(
        (
            a.grand_slam(),
            a.feeding(),
            a.stuck_seeds(),
            a.target(),
            a.move_limit()
        ),
        (
            GrandSlam::Allowed,
            Feeding::Strict,
            StuckSeeds::ToOpponent,
            Some(25),
            None
        )
    );
    let w = Rules::preset("ayo").unwrap();
    assert!(w.relay() && w.capture() == Capture::CollectFour && w.fours_to() == FoursTo::Mover);
    assert_eq!(
        (
            w.grand_slam(),
            w.feeding(),
            w.stuck_seeds(),
            w.target(),
            w.move_limit()
        ),
        (
            GrandSlam::Allowed,
            Feeding::IfPossible,
            StuckSeeds::ToOpponent,
            Some(25),
            Some(60)
        )
    );
    let o = Rules::preset("olopon").unwrap();
    assert!(!o.relay() && o.capture() == Capture::TwoThree);
    assert_eq!(
        (
            o.grand_slam(),
            o.feeding(),
            o.stuck_seeds(),
            o.target(),
            o.move_limit(),
            o.repetition()
        ),
        (
            GrandSlam::NoCapture,
            Feeding::Strict,
            StuckSeeds::OwnSide,
            Some(25),
            Some(40),
            Repetition::Off
        )
    );
    let w = Rules::preset("oware").unwrap();
    assert!(!w.relay() && w.capture() == Capture::TwoThree);
    assert_eq!(
        (
            w.grand_slam(),
            w.feeding(),
            w.stuck_seeds(),
            w.target(),
            w.move_limit(),
            w.repetition()
        ),
        (
            GrandSlam::NoCapture,
            Feeding::Strict,
            StuckSeeds::OwnSide,
            Some(25),
            None,
            Repetition::OwnSide
        )
    );
    for p in Preset::ALL {
        let r = p.rules();
        assert!(r.skip_origin() && r.capturing_seed_taken() && r.fours_to() == FoursTo::Mover);
        assert_eq!(
            (r.seeds_per_pit(), r.first_player(), r.total_seeds()),
            (4, S, 48)
        );
        let start = Position::start(&r);
        assert_eq!(
            (start.board(), start.stores(), start.to_move()),
            ([4; 12], [0, 0], S)
        );
        assert_eq!(legal(&r, &start), [1, 2, 3, 4, 5, 6]);
    }
}

#[test]
fn preset_ayoayo_opening_relays_five_laps_and_captures_across() {
    // Start, South lifts pit 0 (4): 1,2,3,4 -> [0,5,5,5,5,4 | 4..]; pit 4 had 4 -> relay 5:
    // 5,6,7,8,9 -> pit 9 had 4 -> relay 5: 10,11,0,1,2 -> [1,6,6,5,0,5 | 5,5,5,0,5,5];
    // pit 2 (6) relays: 3..8 -> [1,6,0,6,1,6 | 6,6,6,0,5,5]; pit 8 (6) relays: 9,10,11,0,1,2
    // -> [2,7,1,6,1,6 | 6,6,0,1,6,6]; pit 2 was empty, South's row, facing pit 9 holds 1:
    // South takes 1 + the capturing seed.
    let r = Rules::preset("ayoayo").unwrap();
    let p = Position::start(&r);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [2, 7, 0, 6, 1, 6, 6, 6, 0, 0, 6, 6]);
    assert_eq!(
        (q.stores(), q.to_move(), q.no_capture(), q.ply()),
        ([2, 0], N, 0, 1)
    );
    assert_eq!(lap_info(&r, &p, 1), (5, 2, LapEnd::EmptyPit));
}

#[test]
fn preset_ayo_opening_relays_and_never_captures_across() {
    // Same laps as the ayoayo opening (every drop turns a 4 into a 5 or fills an
    // emptied pit, so no 4 is made); the last seed lands in emptied pit 2, facing
    // pit 9 holds 1, but collect_four has no capture across: the move just ends.
    let r = Rules::preset("ayo").unwrap();
    let p = Position::start(&r);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6]);
    assert_eq!((q.stores(), q.no_capture()), ([0, 0], 1));
    assert_eq!(lap_info(&r, &p, 1), (5, 2, LapEnd::EmptyPit));
}

#[test]
fn preset_olopon_single_lap() {
    // Pit 5 (4 seeds) -> 6,7,8,9 each 5: last in North's row holds 5, not 2 or 3; one lap.
    let r = Rules::preset("olopon").unwrap();
    let p = Position::start(&r);
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4]);
    assert_eq!(lap_info(&r, &p, 6), (1, 9, LapEnd::Occupied));
    // North answers with its pit 2 (pit 7, 5 seeds): 8,9,10,11,0 -> pit 0 holds 5.
    let q2 = play(&r, &q, 2);
    assert_eq!(q2.board(), [5, 4, 4, 4, 4, 0, 5, 0, 6, 6, 5, 5]);
    assert_eq!((q2.to_move(), q2.ply(), q2.no_capture()), (S, 2, 2));
}

#[test]
fn preset_oware_single_lap_and_first_capture() {
    // South 3 (pit 2): 3,4,5,6 -> [4,4,0,5,5,5 | 5,4,4,4,4,4].
    let r = Rules::preset("oware").unwrap();
    let p = Position::start(&r);
    let q = play(&r, &p, 3);
    assert_eq!(q.board(), [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
    // North 6 (pit 11, 4): 0,1,2,3 -> the last seed makes 6 in pit 3 (South's row): nothing.
    let q = play(&r, &q, 6);
    assert_eq!(q.board(), [5, 5, 1, 6, 5, 5, 5, 4, 4, 4, 4, 0]);
    // South 1 (pit 0, 5): 1,2,3,4,5 -> the last seed is in South's own row: nothing.
    let q = play(&r, &q, 1);
    assert_eq!(q.board(), [0, 6, 2, 7, 6, 6, 5, 4, 4, 4, 4, 0]);
    // North 6 is now empty: pit 11 holds nothing.
    assert_eq!(illegal(&r, &q, 6), IllegalMove::EmptyPit { pit: 11 });
    // North 5 (pit 10, 4): 11,0,1,2 -> pit 2: 2 -> 3 in South's row: capture 3; walk back
    // pit 1 holds 7 -> stop. North's store 3.
    let q = play(&r, &q, 5);
    assert_eq!(q.board(), [1, 7, 0, 7, 6, 6, 5, 4, 4, 4, 0, 1]);
    assert_eq!((q.stores(), q.no_capture()), ([0, 3], 0));
}

// ---------------------------------------------------------------- laps

#[test]
fn lap_of_twelve_skips_its_pit() {
    // Oware, pit 0 holds 12: 11 seeds to pits 1..11, the origin is skipped, the 12th
    // lands in pit 1 (now 2). Pit 1 is South's own: no capture; single lap ends.
    let r = Rules::preset("oware").unwrap();
    let p = pos(&r, [12, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [15, 15], S);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0, 2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    assert_eq!(lap_info(&r, &p, 1), (1, 1, LapEnd::Occupied));
}

#[test]
fn lap_of_twelve_sows_its_pit_without_skip_origin() {
    // skip_origin = false: the 12th seed falls into the emptied pit 0 itself.
    let r = rules("oware", &[("skip_origin", "false")]);
    let p = pos(&r, [12, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [15, 15], S);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    assert_eq!(lap_info(&r, &p, 1), (1, 0, LapEnd::EmptyPit));
}

#[test]
fn lap_of_twenty_three_skips_its_pit_twice() {
    // 23 = 11 + 11 + 1: every other pit gets 2, pit 1 a third seed; origin stays empty.
    let r = rules("oware", &[("target", "none")]);
    let p = pos(&r, [23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [10, 15], S);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    // skip_origin = false: 23 = 12 + 11: pits 1..11 get 2, pit 0 gets 1; last pit 11 holds 2
    // in North's row: a 2-or-3 capture with a run back over 10, 9, 8, 7, 6 (all 2): the whole
    // row, a grand slam, forfeited in oware: the board stays as sown.
    let r2 = rules("oware", &[("target", "none"), ("skip_origin", "false")]);
    let p2 = pos(&r2, [23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [10, 15], S);
    let q2 = play(&r2, &p2, 1);
    assert_eq!(q2.board(), [1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    assert_eq!(q2.stores(), [10, 15]);
}

#[test]
fn relay_lap_skips_only_its_own_pit() {
    // Ayoayo, South [1,11,9,0,0,0], North [1,0,0,0,0,0].
    // Lap 1: pit 0 (1) -> pit 1: 12, occupied: relay.
    // Lap 2: pit 1 (12) -> 2..11 and 0 (the first lift's pit is sown), skip 1, then 2:
    //        [1,0,11,1,1,1 | 2,1,1,1,1,1]; pit 2 holds 11: relay.
    // Lap 3: pit 2 (11) -> 3..11, 0, 1: [2,1,0,2,2,2 | 3,2,2,2,2,2]; pit 1 was empty:
    //        South's row, facing pit 10 holds 2: take 2 + the capturing seed.
    let r = Rules::preset("ayoayo").unwrap();
    let (p, _) = case(
        &r,
        [1, 11, 9, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [13, 13],
        S,
        1,
        [2, 0, 0, 2, 2, 2, 3, 2, 2, 2, 0, 2],
        [16, 13],
    );
    assert_eq!(lap_info(&r, &p, 1), (3, 1, LapEnd::EmptyPit));
    // skip_origin = false: lap 2's 12th seed falls in pit 1 itself (empty -> 1): South's
    // row, facing pit 10 holds 1: take 1 + 1. Board after lap 2 [1,1,10,1,1,1|2,1,1,1,1,1].
    let r = rules("ayoayo", &[("skip_origin", "false")]);
    let (p, _) = case(
        &r,
        [1, 11, 9, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [13, 13],
        S,
        1,
        [1, 0, 10, 1, 1, 1, 2, 1, 1, 1, 0, 1],
        [15, 13],
    );
    assert_eq!(lap_info(&r, &p, 1), (2, 1, LapEnd::EmptyPit));
}

// ---------------------------------------------------------------- relay

#[test]
fn relay_continues_from_an_occupied_pit() {
    // Ayoayo: pit 0 (2) -> 1, 2; pit 2 had 1, now 2: relay 2 -> 3, 4; pit 4 was empty,
    // facing pit 7 is empty: no capture, move ends.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [2, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1], [21, 21], S);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1]);
    assert_eq!((q.stores(), q.no_capture()), ([21, 21], 1));
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(1).unwrap()).unwrap();
    assert_eq!(
        t.events,
        [
            Event::Lift { pit: 0, seeds: 2 },
            Event::Drop { pit: 1 },
            Event::Drop { pit: 2 },
            Event::Relay { pit: 2, seeds: 2 },
            Event::Drop { pit: 3 },
            Event::Drop { pit: 4 },
            Event::End {
                pit: 4,
                reason: LapEnd::EmptyPit
            },
        ]
    );
}

#[test]
fn relay_off_stops_at_an_occupied_pit() {
    let r = rules("ayoayo", &[("relay", "false")]);
    let p = pos(&r, [2, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1], [21, 21], S);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0, 1, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(lap_info(&r, &p, 1), (1, 2, LapEnd::Occupied));
}

// ---------------------------------------------------------------- capture across

#[test]
fn capture_across_takes_facing_pit_and_capturing_seed() {
    // Pit 2 (1) -> pit 3, empty, South's row; facing pit 8 holds 5: 5 + 1 to South.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [0, 0, 1, 0, 0, 0, 3, 4, 5, 2, 1, 1], [15, 16], S);
    let q = play(&r, &p, 3);
    assert_eq!(q.board(), [0, 0, 0, 0, 0, 0, 3, 4, 0, 2, 1, 1]);
    assert_eq!((q.stores(), q.no_capture()), ([21, 16], 0));
    // North's pit 6 (pit 11, 1 seed) feeds South's pit 0, so the game goes on.
    assert_eq!(q.outcome(&r), None);
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(3).unwrap()).unwrap();
    assert_eq!(t.taken, [6, 0]);
    assert!(t.events.contains(&Event::Capture { pit: 8, seeds: 5 }));
    assert!(t.events.contains(&Event::Capture { pit: 3, seeds: 1 }));
}

#[test]
fn capture_across_leaving_the_capturing_seed() {
    let r = rules("ayoayo", &[("capturing_seed_taken", "false")]);
    case(
        &r,
        [0, 0, 1, 0, 0, 0, 3, 4, 5, 2, 1, 1],
        [15, 16],
        S,
        3,
        [0, 0, 0, 1, 0, 0, 3, 4, 0, 2, 1, 1],
        [20, 16],
    );
}

#[test]
fn capture_across_needs_a_nonempty_facing_pit_in_the_movers_row() {
    let r = Rules::preset("ayoayo").unwrap();
    // Facing pit 8 empty: the last seed just stays in pit 3.
    let p = pos(&r, [0, 0, 1, 0, 0, 0, 3, 4, 0, 2, 1, 6], [15, 16], S);
    let q = play(&r, &p, 3);
    assert_eq!(q.board(), [0, 0, 0, 1, 0, 0, 3, 4, 0, 2, 1, 6]);
    assert_eq!((q.stores(), q.no_capture()), ([15, 16], 1));
    // Pit 4 (2) -> 5, 6: the last seed lands in an empty pit of North's row (facing pit 5
    // holds 1): not the mover's row, no capture.
    let (p, _) = case(
        &r,
        [0, 0, 0, 0, 2, 0, 0, 4, 5, 2, 1, 1],
        [15, 18],
        S,
        5,
        [0, 0, 0, 0, 0, 1, 1, 4, 5, 2, 1, 1],
        [15, 18],
    );
    assert_eq!(lap_info(&r, &p, 5), (1, 6, LapEnd::EmptyPit));
}

#[test]
fn capture_across_by_north() {
    // North's pit 9 (1) -> pit 10, empty, North's row; facing pit 1 holds 3: 3 + 1 to North.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [2, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2], [20, 19], N);
    let q = play(&r, &p, 4);
    assert_eq!(q.board(), [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2]);
    assert_eq!((q.stores(), q.to_move()), ([20, 23], S));
}

// ---------------------------------------------------------------- two_three

#[test]
fn two_three_chain_stops_at_the_movers_row() {
    // Oware: pit 4 (5) -> 5, 6, 7, 8, 9: pit 5 2->3 (South's own: never taken),
    // 6: 1->2, 7: 2->3, 8: 1->2, 9: 2->3. Last pit 9 holds 3: take 9, 8, 7, 6 (3+2+3+2 = 10)
    // and stop at the end of North's row. Pit 11 keeps 3, so no grand slam.
    let r = Rules::preset("oware").unwrap();
    let p = pos(&r, [5, 5, 5, 0, 5, 2, 1, 2, 1, 2, 0, 3], [9, 8], S);
    let q = play(&r, &p, 5);
    assert_eq!(q.board(), [5, 5, 5, 0, 0, 3, 0, 0, 0, 0, 0, 3]);
    assert_eq!((q.stores(), q.no_capture()), ([19, 8], 0));
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(5).unwrap()).unwrap();
    let captured: Vec<(usize, u8)> = t
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Capture { pit, seeds } => Some((pit, seeds)),
            _ => None,
        })
        .collect();
    assert_eq!(captured, [(9, 3), (8, 2), (7, 3), (6, 2)]);
    assert_eq!(
        t.events.last(),
        Some(&Event::End {
            pit: 9,
            reason: LapEnd::TwoThree
        })
    );
}

#[test]
fn two_three_chain_stops_at_a_pit_not_holding_two_or_three() {
    // Pit 4 (5) -> 5..9: 6: 1->2, 7: 3->4, 8: 2->3, 9: 1->2. Take 9 (2), 8 (3); pit 7 holds
    // 4: stop (pit 6's 2 stays).
    let r = Rules::preset("oware").unwrap();
    case(
        &r,
        [5, 5, 5, 0, 5, 2, 1, 3, 2, 1, 5, 0],
        [7, 7],
        S,
        5,
        [5, 5, 5, 0, 0, 3, 2, 4, 0, 0, 5, 0],
        [12, 7],
    );
}

#[test]
fn two_three_needs_the_last_seed_in_the_opponents_row() {
    let r = Rules::preset("oware").unwrap();
    // Pit 0 (2) -> 1, 2: pit 2 becomes 3 in South's own row: nothing.
    case(
        &r,
        [2, 0, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4],
        [5, 3],
        S,
        1,
        [0, 1, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4],
        [5, 3],
    );
    // Pit 5 (4) -> 6..9: pit 9 becomes 4 (not 2 or 3), pit 8 would be 2: no capture at all.
    let p = pos(&r, [2, 0, 2, 4, 4, 4, 0, 0, 1, 3, 4, 4], [10, 10], S);
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [2, 0, 2, 4, 4, 0, 1, 1, 2, 4, 4, 4]);
    assert_eq!((q.stores(), q.no_capture()), ([10, 10], 1));
}

#[test]
fn two_three_with_relay_the_rules_card_alternative() {
    // ayoayo with capture = two_three. Lap 1: pit 0 (2) -> 1, 2: pit 2 holds 2 in South's own
    // row: relay. Lap 2: pit 2 (2) -> 3, 4: pit 4 3->4: relay. Lap 3: pit 4 (4) -> 5, 6, 7, 8:
    // 6: 1->2, 7: 0->1, 8: 1->2, last in North's row holding 2: take 8; pit 7 holds 1: stop.
    let r = rules("ayoayo", &[("capture", "two_three")]);
    let (p, _) = case(
        &r,
        [2, 0, 1, 0, 3, 0, 1, 0, 1, 0, 0, 0],
        [20, 20],
        S,
        1,
        [0, 1, 0, 1, 0, 1, 2, 1, 0, 0, 0, 0],
        [22, 20],
    );
    assert_eq!(lap_info(&r, &p, 1), (3, 8, LapEnd::TwoThree));
    // Pit 8 holding 3 becomes 4: not 2 or 3, occupied: relay 4 -> 9, 10, 11, 0; pit 0 was
    // emptied by the first lift: holds 1, move ends (no capture across under two_three).
    let (p, _) = case(
        &r,
        [2, 0, 1, 0, 3, 0, 1, 0, 3, 0, 0, 0],
        [19, 19],
        S,
        1,
        [1, 1, 0, 1, 0, 1, 2, 1, 0, 1, 1, 1],
        [19, 19],
    );
    assert_eq!(lap_info(&r, &p, 1), (4, 0, LapEnd::EmptyPit));
}

// ---------------------------------------------------------------- collect_four

#[test]
fn collect_four_mid_lap_and_last_seed_to_mover() {
    // Ayo: pit 5 (4) -> 6: 3->4, collected at once (3 seeds still in hand), South +4;
    // 7: 4->5 stays; 8: 1->2; 9: 3->4 by the last seed: collected, South +4, move ends.
    let r = Rules::preset("ayo").unwrap();
    let p = pos(&r, [0, 0, 0, 0, 0, 4, 3, 4, 1, 3, 2, 2], [15, 14], S);
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [0, 0, 0, 0, 0, 0, 0, 5, 2, 0, 2, 2]);
    assert_eq!((q.stores(), q.no_capture()), ([23, 14], 0));
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(6).unwrap()).unwrap();
    assert!(t.events.contains(&Event::Collect { pit: 6, to: S }));
    assert!(t.events.contains(&Event::Collect { pit: 9, to: S }));
    assert_eq!(
        t.events.last(),
        Some(&Event::End {
            pit: 9,
            reason: LapEnd::MadeFour
        })
    );
}

#[test]
fn collect_four_to_pit_owner() {
    // The same move, fours_to = pit_owner: the 4 made mid-lap in pit 6 goes to North (the
    // row's owner); the 4 made by the last seed goes to the mover.
    let r = rules("ayo", &[("fours_to", "pit_owner")]);
    let (p, _) = case(
        &r,
        [0, 0, 0, 0, 0, 4, 3, 4, 1, 3, 2, 2],
        [15, 14],
        S,
        6,
        [0, 0, 0, 0, 0, 0, 0, 5, 2, 0, 2, 2],
        [19, 18],
    );
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(6).unwrap()).unwrap();
    assert!(t.events.contains(&Event::Collect { pit: 6, to: N }));
    assert!(t.events.contains(&Event::Collect { pit: 9, to: S }));
    assert_eq!(t.taken, [4, 4]);
}

#[test]
fn collect_four_mid_lap_then_relays_on() {
    // Ayo, South [0,3,3,1,2,0], North all 1.
    // Lap 1: pit 1 (3) -> 2: 3->4 collected (South +4), 3: 1->2, 4: 2->3: relay.
    // Lap 2: pit 4 (3) -> 5: 1, 6: 2, 7: 2: relay. Lap 3: pit 7 (2) -> 8: 2, 9: 2: relay.
    // Lap 4: pit 9 (2) -> 10: 2, 11: 2: relay. Lap 5: pit 11 (2) -> 0: 1, 1: 1 (emptied by
    // the first lift): empty pit, move ends.
    let r = Rules::preset("ayo").unwrap();
    let (p, _) = case(
        &r,
        [0, 3, 3, 1, 2, 0, 1, 1, 1, 1, 1, 1],
        [17, 16],
        S,
        2,
        [1, 1, 0, 2, 0, 1, 2, 0, 2, 0, 2, 0],
        [21, 16],
    );
    assert_eq!(lap_info(&r, &p, 2), (5, 1, LapEnd::EmptyPit));
    // The same with fours_to = pit_owner: pit 2 is South's, so South still gets the 4.
    let r = rules("ayo", &[("fours_to", "pit_owner")]);
    let p = pos(&r, [0, 3, 3, 1, 2, 0, 1, 1, 1, 1, 1, 1], [17, 16], S);
    assert_eq!(play(&r, &p, 2).stores(), [21, 16]);
}

#[test]
fn collect_four_a_pit_of_four_becomes_five_and_relays() {
    // Ayo: pit 0 (1) -> pit 1: 4->5, never 4 on this drop: occupied, relay 5 -> 2..6:
    // 2: 0->1, 3: 3->4 collected (South +4), 4: 0->1, 5: 0->1, 6: 1->2: relay 2 -> 7, 8:
    // 8: 0->1, empty: end.
    let r = Rules::preset("ayo").unwrap();
    let (p, _) = case(
        &r,
        [1, 4, 0, 3, 0, 0, 1, 0, 0, 2, 2, 2],
        [17, 16],
        S,
        1,
        [0, 0, 1, 0, 1, 1, 0, 1, 1, 2, 2, 2],
        [21, 16],
    );
    assert_eq!(lap_info(&r, &p, 1), (3, 8, LapEnd::EmptyPit));
}

#[test]
fn collect_four_by_north_mid_lap_in_souths_row() {
    // Ayo, North pit 11 (3) -> 0: 3->4 collected, 1: 0->1, 2: 0->1 (empty: end).
    // fours_to = mover: North +4; pit_owner: the 4 was made mid-lap in South's row: South +4.
    let p_board = [3, 0, 0, 2, 2, 2, 1, 1, 1, 1, 1, 3];
    let r = Rules::preset("ayo").unwrap();
    let p = pos(&r, p_board, [15, 16], N);
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [0, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 0]);
    assert_eq!(q.stores(), [15, 20]);
    let r = rules("ayo", &[("fours_to", "pit_owner")]);
    let p = pos(&r, p_board, [15, 16], N);
    assert_eq!(play(&r, &p, 6).stores(), [19, 16]);
}

// ---------------------------------------------------------------- endless relays

#[test]
fn endless_relay_worked_example_is_illegal() {
    // docs/rules.md: North to move on [0,6,1,0,1,0, 1,2,0,1,2,1]; 15 seeds on the board, so the
    // stores hold 33 (20-13). Pit 7 (North's 2) relays 174 laps back to its start.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [0, 6, 1, 0, 1, 0, 1, 2, 0, 1, 2, 1], [20, 13], N);
    let mv = p.move_for_relative_pit(2).unwrap();
    assert_eq!(mv.pit(), 7);
    assert_eq!(
        p.play(&r, mv).unwrap_err().reason,
        IllegalMove::EndlessRelay { pit: 7 }
    );
    assert_eq!(p.play(&r, mv).unwrap_err().position, p);
    assert!(!p.legal_moves(&r).contains(&mv));
    assert!(sow_seed_by_seed(&r, &p, mv).is_none());
    assert!(sow_plain(&r, &p, mv).is_none());
    assert_eq!(p.try_play_unchecked(&r, mv), None);
    // Every other non-empty North pit agrees with the seed-by-seed reading.
    for rel in [1u8, 4, 5, 6] {
        let m = p.move_for_relative_pit(rel).unwrap();
        let reference = sow_plain(&r, &p, m);
        match p.check_move(&r, m) {
            Ok(next) => assert_eq!(next, Position::from_setup_unchecked(&reference.unwrap().1)),
            Err(e) => {
                assert_eq!(e, IllegalMove::EndlessRelay { pit: m.pit() });
                assert!(reference.is_none());
            }
        }
    }
    assert_eq!(illegal(&r, &p, 3), IllegalMove::EmptyPit { pit: 8 });
}

/// `make_vectors --long-relay`: North's pit 2 relays 325 laps and ends.
const LONG_RELAY: (&str, u8, u32) = ("ayoayo 1,2,1,2,7,0/1,2,0,1,0,2 21-8 n 11 23", 2, 325);

/// A terminating relay of several hundred laps, found by seeded random ayoayo play
/// (`make_vectors` prints such moves); the result is checked against the
/// seed-by-seed reading of the rules.
#[test]
fn terminating_relay_of_several_hundred_laps() {
    let (r, p) = parse_position(LONG_RELAY.0).unwrap();
    let mv = p.move_for_relative_pit(LONG_RELAY.1).unwrap();
    let next = p.play(&r, mv).unwrap();
    let (t, setup) = sow_seed_by_seed(&r, &p, mv).unwrap();
    assert!(t.laps >= 300, "only {} laps", t.laps);
    assert_eq!(t.laps, LONG_RELAY.2);
    assert_eq!(next, Position::from_setup_unchecked(&setup));
    assert_eq!(sow_plain(&r, &p, mv), Some((t, setup)));
    let seeds: u32 = next.board_seeds() + next.stores().iter().map(|&s| u32::from(s)).sum::<u32>();
    assert_eq!(seeds, 48);
}

/// An endless relay whose lap-start state first comes back after 5,132,172 laps (found by
/// `make_vectors` in random `ayoayo[skip_origin=false]` play and confirmed by
/// the plain seed-by-seed reading (`reference.rs`), which takes seconds on it, so it is left out of the shared vectors):
/// the detection is exact, with no lap-count cut-off.
#[test]
fn endless_relay_with_a_cycle_of_millions_of_laps() {
    let (r, p) =
        parse_position("ayoayo[skip_origin=false] 1,4,1,20,0,4/0,2,3,2,1,2 0-8 s 4 8").unwrap();
    let mv = p.move_for_relative_pit(4).unwrap();
    assert_eq!(
        p.check_move(&r, mv),
        Err(IllegalMove::EndlessRelay { pit: 3 })
    );
}

// ---------------------------------------------------------------- grand slam

#[test]
fn grand_slam_across_allowed_then_north_is_stuck() {
    // Ayoayo: pit 2 (1) -> 3, facing pit 8 holds North's only seeds (5): the capture empties
    // North's row and stands (6 to South: 18). North has no move: the 9 seeds left go to the
    // player not stuck, South: 27-21.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [0, 0, 1, 0, 0, 9, 0, 0, 5, 0, 0, 0], [12, 21], S);
    let mut g = Game::from_position(r, p);
    g.play(p.move_for_relative_pit(3).unwrap()).unwrap();
    assert_eq!(g.position().board(), [0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0]);
    assert_eq!(g.position().stores(), [18, 21]);
    assert_eq!(
        g.outcome(),
        outcome(Some(S), EndReason::NoLegalMove, [27, 21])
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn grand_slam_across_no_capture_is_sown_only() {
    let r = rules("ayoayo", &[("grand_slam", "no_capture")]);
    let p = pos(&r, [0, 0, 1, 0, 0, 9, 0, 0, 5, 0, 0, 0], [12, 21], S);
    let q = play(&r, &p, 3);
    assert_eq!(q.board(), [0, 0, 0, 1, 0, 9, 0, 0, 5, 0, 0, 0]);
    assert_eq!((q.stores(), q.no_capture()), ([12, 21], 1));
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(3).unwrap()).unwrap();
    assert!(t.events.contains(&Event::GrandSlamForfeited { seeds: 6 }));
    assert_eq!(q.outcome(&r), None);
}

#[test]
fn grand_slam_two_three_forfeited_in_oware() {
    // Pit 5 (2) -> 6: 1->2, 7: 2->3: the run 7, 6 is all of North's seeds: forfeited.
    let r = Rules::preset("oware").unwrap();
    let p = pos(&r, [5, 5, 5, 5, 0, 2, 1, 2, 0, 0, 0, 0], [12, 11], S);
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [5, 5, 5, 5, 0, 0, 2, 3, 0, 0, 0, 0]);
    assert_eq!((q.stores(), q.no_capture()), ([12, 11], 1));
    let (t, _) = trace(&r, &p, p.move_for_relative_pit(6).unwrap()).unwrap();
    assert!(t.events.contains(&Event::GrandSlamForfeited { seeds: 5 }));
    assert_eq!(
        t.events.last(),
        Some(&Event::End {
            pit: 7,
            reason: LapEnd::TwoThree
        })
    );
}

#[test]
fn grand_slam_two_three_allowed() {
    // Same move with grand_slam = allowed: South takes 5 (17); North is stuck, own_side:
    // South adds its row (20): 37-11.
    let r = rules("oware", &[("grand_slam", "allowed")]);
    let (_, q) = case(
        &r,
        [5, 5, 5, 5, 0, 2, 1, 2, 0, 0, 0, 0],
        [12, 11],
        S,
        6,
        [5, 5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0],
        [17, 11],
    );
    assert_eq!(
        q.outcome(&r),
        outcome(Some(S), EndReason::NoLegalMove, [37, 11])
    );
}

// ---------------------------------------------------------------- feeding

#[test]
fn feeding_strict_allows_only_feeding_moves() {
    // North's row is empty. Pit 0 (1) -> 1: empty, facing pit 10 empty: North still empty.
    // Pit 5 (3) -> 6, 7, 8: feeds.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0], [22, 22], S);
    assert_eq!(legal(&r, &p), [6]);
    assert_eq!(illegal(&r, &p, 1), IllegalMove::DoesNotFeed { pit: 0 });
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0]);
}

#[test]
fn feeding_off_allows_starving_moves() {
    // With feeding off both moves are legal; after pit 0 North has no seeds and no move:
    // the 4 seeds go to South (to_opponent): 26-22.
    let r = rules("ayoayo", &[("feeding", "off")]);
    let p = pos(&r, [1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0], [22, 22], S);
    assert_eq!(legal(&r, &p), [1, 6]);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        q.outcome(&r),
        outcome(Some(S), EndReason::NoLegalMove, [26, 22])
    );
}

#[test]
fn feeding_if_possible_acts_as_strict_when_a_move_feeds() {
    // Ayo: pit 5 (3) -> 6, 7, 8, all 0->1 (no 4): feeds; pit 0 does not.
    let r = Rules::preset("ayo").unwrap();
    let p = pos(&r, [1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0], [22, 22], S);
    assert_eq!(legal(&r, &p), [6]);
    assert_eq!(illegal(&r, &p, 1), IllegalMove::DoesNotFeed { pit: 0 });
}

#[test]
fn feeding_no_starving_forbids_emptying_a_row_that_holds_seeds() {
    // Ayoayo, North's seeds all in pit 10. South's pit 0 (1) -> 1, empty and
    // its own: captures across, pit 10, and North's row is empty (starves).
    // Pit 5 (1) -> 6, an empty pit of North's row: ends, North keeps seeds.
    let strict = Rules::preset("ayoayo").unwrap();
    let r = rules("ayoayo", &[("feeding", "no_starving")]);
    let board = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 0];
    let p = pos(&r, board, [20, 23], S);
    assert_eq!(legal(&strict, &pos(&strict, board, [20, 23], S)), [1, 6]);
    assert_eq!(legal(&r, &p), [6]);
    assert_eq!(illegal(&r, &p, 1), IllegalMove::Starves { pit: 0 });
    assert_eq!(IllegalMove::Starves { pit: 0 }.kind(), "starves");
    // When every move starves, every move is legal (as if_possible): only
    // pit 0 can move, and it empties North's row.
    let only = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0];
    let p = pos(&r, only, [21, 23], S);
    assert_eq!(legal(&r, &p), [1]);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0; 12]);
    // An empty row is fed as under if_possible: North must give South seeds.
    let empty = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2];
    let p = pos(&r, empty, [22, 23], N);
    assert_eq!(legal(&r, &p), [6]);
    assert_eq!(illegal(&r, &p, 1), IllegalMove::DoesNotFeed { pit: 6 });
}

#[test]
fn feeding_if_possible_allows_all_when_none_feeds() {
    // Ayo, South [1,1,0,0,0,0], North empty. Pit 0 (1) -> 1: 2, relay 2 -> 2, 3: pit 3 empty,
    // ends: no feed. Pit 1 (1) -> 2: ends: no feed. So both are legal. After pit 1, North has
    // no seeds and no move: the sweep gives South's 2 to South (not stuck): 25-23.
    let r = Rules::preset("ayo").unwrap();
    let p = pos(&r, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [23, 23], S);
    assert_eq!(legal(&r, &p), [1, 2]);
    let q = play(&r, &p, 2);
    assert_eq!(q.board(), [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        q.outcome(&r),
        outcome(Some(S), EndReason::NoLegalMove, [25, 23])
    );
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn feeding_strict_with_no_feeding_move_ends_the_game() {
    // Ayoayo (strict, to_opponent): the same board, no move feeds, so South has no legal
    // move: the game ends at once and South's 2 seeds go to North: 23-25.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [23, 23], S);
    assert!(legal(&r, &p).is_empty());
    assert_eq!(illegal(&r, &p, 1), IllegalMove::DoesNotFeed { pit: 0 });
    assert_eq!(
        p.outcome(&r),
        outcome(Some(N), EndReason::NoLegalMove, [23, 25])
    );
    let g = Game::from_position(r, p);
    assert_eq!(g.play_clone(1), Err(IllegalMove::GameOver));
}

/// Plays on a clone, for checking errors without changing the game.
trait PlayClone {
    fn play_clone(&self, rel: u8) -> Result<(), IllegalMove>;
}
impl PlayClone for Game {
    fn play_clone(&self, rel: u8) -> Result<(), IllegalMove> {
        let mut g = self.clone();
        let mv = g.position().move_for_relative_pit(rel)?;
        g.play(mv)
    }
}

// ---------------------------------------------------------------- end of the game

#[test]
fn end_by_target() {
    // Ayoayo: pit 2 (1) -> 3, facing pit 8 holds 2: South takes 3, 22 -> 25: South wins at
    // once, the board is not swept: 25-14.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [0, 0, 1, 0, 0, 0, 0, 0, 2, 3, 3, 3], [22, 14], S);
    let mut g = Game::from_position(r, p);
    assert_eq!(g.outcome(), None);
    g.play(p.move_for_relative_pit(3).unwrap()).unwrap();
    assert_eq!(g.position().board(), [0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3]);
    assert_eq!(g.outcome(), outcome(Some(S), EndReason::Target, [25, 14]));
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play_clone(4), Err(IllegalMove::GameOver));
    assert_eq!(
        g.position()
            .check_move(&r, g.position().move_for_relative_pit(4).unwrap()),
        Err(IllegalMove::GameOver)
    );
}

#[test]
fn end_by_target_is_checked_before_the_move_limit() {
    // Olopon: a store holds 25 and the no-capture counter is at the limit: target.
    let r = Rules::preset("olopon").unwrap();
    let p = pos_counters(
        &r,
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2],
        [25, 10],
        S,
        40,
        100,
    );
    assert_eq!(p.outcome(&r), outcome(Some(S), EndReason::Target, [25, 10]));
}

#[test]
fn end_by_move_limit_sweeps_own_rows_olopon() {
    // Olopon (limit 40), 39 moves without capture. Pit 5 (1) -> 6: 1 in North's row, not 2 or
    // 3: nothing captured, the 40th such move: the game ends, each takes their own row:
    // South 24 + 0, North 21 + 3: a draw 24-24.
    let r = Rules::preset("olopon").unwrap();
    let p = pos_counters(
        &r,
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0],
        [24, 21],
        S,
        39,
        50,
    );
    assert_eq!(p.outcome(&r), None);
    let q = play(&r, &p, 6);
    assert_eq!(q.board(), [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0]);
    assert_eq!((q.no_capture(), q.ply()), (40, 51));
    assert_eq!(q.outcome(&r), outcome(None, EndReason::MoveLimit, [24, 24]));
    assert!(q.legal_moves(&r).is_empty());
}

#[test]
fn end_by_move_limit_ayo() {
    // Ayo (limit 60): the same move at 59 (pit 6 0->1, no 4, empty pit: ends).
    let r = Rules::preset("ayo").unwrap();
    let p = pos_counters(
        &r,
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0],
        [24, 21],
        S,
        59,
        59,
    );
    let q = play(&r, &p, 6);
    assert_eq!(q.outcome(&r), outcome(None, EndReason::MoveLimit, [24, 24]));
    // 58 moves: not yet.
    let p = pos_counters(
        &r,
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0],
        [24, 21],
        S,
        58,
        58,
    );
    assert_eq!(play(&r, &p, 6).outcome(&r), None);
}

#[test]
fn end_by_move_limit_is_checked_before_no_legal_move() {
    // South's row is empty (no legal move) but the move limit has been reached: move limit.
    let r = Rules::preset("olopon").unwrap();
    let p = pos_counters(
        &r,
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0],
        [20, 25],
        S,
        40,
        40,
    );
    assert_eq!(p.outcome(&r), outcome(Some(N), EndReason::Target, [20, 25]));
    let p = pos_counters(
        &r,
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0],
        [21, 24],
        S,
        40,
        40,
    );
    assert_eq!(
        p.outcome(&r),
        outcome(Some(N), EndReason::MoveLimit, [21, 27])
    );
    let p = pos_counters(
        &r,
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0],
        [21, 24],
        S,
        10,
        40,
    );
    assert_eq!(
        p.outcome(&r),
        outcome(Some(N), EndReason::NoLegalMove, [21, 27])
    );
}

/// The twelve moves that bring [0,0,0,0,0,1 | 0,0,0,0,0,1] back to itself: South 5->6, North
/// 11->0 (forced: North must feed), then each seed walks one pit a move (0->1, 6->7, ...,
/// 4->5, 10->11). Every seed lands alone in a pit: nothing is ever captured.
const CYCLE: [u8; 12] = [6, 6, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5];

#[test]
fn end_by_repetition_oware() {
    let r = Rules::preset("oware").unwrap();
    let p = pos(&r, [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], [23, 23], S);
    let mut g = Game::from_position(r, p);
    for (i, &rel) in CYCLE.iter().enumerate() {
        assert_eq!(g.outcome(), None, "ended early, before move {i}");
        if i == 1 {
            // North must feed: pit 6 would leave South's row empty.
            assert_eq!(
                g.legal_moves()
                    .iter()
                    .map(|m| m.relative_pit())
                    .collect::<Vec<_>>(),
                [6]
            );
        }
        g.play(g.position().move_for_relative_pit(rel).unwrap())
            .unwrap();
    }
    assert_eq!(g.position().packed(), p.packed());
    assert_eq!(g.position().no_capture(), 12);
    // Repetition: each takes their own row, 23+1 each: a draw.
    assert_eq!(g.outcome(), outcome(None, EndReason::Repetition, [24, 24]));
    assert_eq!(g.play_clone(6), Err(IllegalMove::GameOver));
    // The lone position cannot see the repetition.
    assert_eq!(g.position().outcome(&r), None);
    // Undo reopens the game.
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn lean_game_from_a_game_keeps_its_repetition_window() {
    // Made from the full game at every ply of the cycle, the lean game ends
    // on the same repetition: the positions before it was made count.
    let r = Rules::preset("oware").unwrap();
    let p = pos(&r, [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], [23, 23], S);
    for made_at in 0..CYCLE.len() {
        let mut g = Game::from_position(r, p);
        for &rel in &CYCLE[..made_at] {
            g.play(g.position().move_for_relative_pit(rel).unwrap())
                .unwrap();
        }
        let mut lean = LeanGame::from_game(&g);
        for &rel in &CYCLE[made_at..] {
            assert_eq!(lean.outcome(), None, "made at ply {made_at}");
            let action = g.position().move_for_relative_pit(rel).unwrap().action();
            lean.play_action(action).unwrap();
            g.play_action(action).unwrap();
            assert_eq!(lean.position(), g.position());
        }
        assert_eq!(lean.outcome(), g.outcome(), "made at ply {made_at}");
        assert_eq!(
            lean.outcome().map(|o| o.reason),
            Some(EndReason::Repetition)
        );
    }
}

#[test]
fn repetition_off_plays_on() {
    let r = rules("oware", &[("repetition", "off")]);
    let p = pos(&r, [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], [23, 23], S);
    let mut g = Game::from_position(r, p);
    for rel in CYCLE {
        g.play(g.position().move_for_relative_pit(rel).unwrap())
            .unwrap();
    }
    assert_eq!(g.outcome(), None);
    assert_eq!(
        g.legal_moves()
            .iter()
            .map(|m| m.relative_pit())
            .collect::<Vec<_>>(),
        [6]
    );
}

#[test]
fn end_no_legal_move_to_opponent() {
    // Ayoayo, South to move with an empty row: North takes the 3 seeds left: 20-28.
    let r = Rules::preset("ayoayo").unwrap();
    // With North's store at the target (20-25) the target is seen first.
    let p = pos(&r, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], [20, 25], S);
    assert_eq!(p.outcome(&r).unwrap().reason, EndReason::Target);
    let p = pos(&r, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], [21, 24], S);
    assert_eq!(
        p.outcome(&r),
        outcome(Some(N), EndReason::NoLegalMove, [21, 27])
    );
}

#[test]
fn end_no_legal_move_own_side() {
    // Olopon (strict, own_side): South [1,1,0,0,0,0], North empty. Pit 0 -> 1 and pit 1 -> 2
    // both leave North empty: no legal move. South keeps its 2: 25-23.
    let r = Rules::preset("olopon").unwrap();
    let p = pos(&r, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [23, 23], S);
    assert_eq!(
        p.outcome(&r),
        outcome(Some(S), EndReason::NoLegalMove, [25, 23])
    );
    // The same under to_opponent: North gets them: 23-25.
    let r = rules("olopon", &[("stuck_seeds", "to_opponent")]);
    let p = pos(&r, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [23, 23], S);
    assert_eq!(
        p.outcome(&r),
        outcome(Some(N), EndReason::NoLegalMove, [23, 25])
    );
}

#[test]
fn draw_24_24() {
    // Ayoayo, 24-23, South to move with an empty row: stuck, North's last seed goes to
    // North: 24-24, a draw.
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [24, 23], S);
    let o = p.outcome(&r).unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: None,
            reason: EndReason::NoLegalMove,
            scores: [24, 24]
        }
    );
    assert_eq!(o.result_for(S), 0);
    assert_eq!(o.result_for(N), 0);
}

#[test]
fn ply_cap_is_a_truncation_not_an_end() {
    // Oware: a cap of 2 moves; after South 3 and North 1 the game is truncated, not over.
    let mut g = Game::new(Rules::preset("oware").unwrap());
    g.set_ply_cap(Some(2));
    g.play_action(2).unwrap();
    assert_eq!(g.status(), Status::Ongoing);
    g.play_action(0).unwrap();
    assert_eq!(g.status(), Status::Truncated);
    assert_eq!(g.outcome(), None);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play_clone(1), Err(IllegalMove::Truncated));
    // Lifting the cap lets the game go on.
    g.set_ply_cap(None);
    assert_eq!(g.status(), Status::Ongoing);
    // South's pit 3 was emptied by its first move: 1, 2, 4, 5, 6.
    let legal: Vec<u8> = g.legal_moves().iter().map(|m| m.relative_pit()).collect();
    assert_eq!(legal, [1, 2, 4, 5, 6]);
    // A real end under the cap is an end: ayoayo's stuck South (see above) at cap 0.
    let r = Rules::preset("ayoayo").unwrap();
    let mut g = Game::from_position(
        r,
        pos(&r, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [23, 23], S),
    );
    g.set_ply_cap(Some(0));
    assert_eq!(
        g.status(),
        Status::Ended(Outcome {
            winner: Some(N),
            reason: EndReason::NoLegalMove,
            scores: [23, 25]
        })
    );
}

#[test]
fn first_player_north() {
    // first_player = north: North moves first; its pit 1 is pit 6 (4 seeds: 7, 8, 9, 10).
    let r = rules("oware", &[("first_player", "north")]);
    let p = Position::start(&r);
    assert_eq!(p.to_move(), N);
    let q = play(&r, &p, 1);
    assert_eq!(q.board(), [4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4]);
    assert_eq!(q.to_move(), S);
}

// ---------------------------------------------------------------- rules validation

#[test]
fn rules_validation_errors() {
    let bad = |k: &str, v: &str| {
        let mut p = Rules::preset("ayoayo").unwrap().params();
        p.set(k, v).unwrap();
        Rules::new(p).unwrap_err()
    };
    for (k, v) in [
        ("seeds_per_pit", "0"),
        ("target", "0"),
        ("move_limit", "0"),
        ("seeds_per_pit", "22"),
    ] {
        match bad(k, v) {
            RulesError::Invalid { param, why } => {
                assert_eq!(param, k);
                assert!(!why.is_empty());
            }
            e => panic!("{k}={v}: {e:?}"),
        }
    }
    // A target above the 48 seeds can never be reached.
    assert!(matches!(
        bad("target", "49"),
        RulesError::Invalid {
            param: "target",
            ..
        }
    ));
    // Every problem is listed.
    let mut p = Rules::preset("ayo").unwrap().params();
    p.seeds_per_pit = 0;
    p.target = Some(0);
    p.move_limit = Some(0);
    assert_eq!(p.problems().len(), 3);
    let e = Rules::preset("awale").unwrap_err();
    assert_eq!(
        e,
        RulesError::UnknownPreset {
            name: "awale".into()
        }
    );
    let text = e.to_string();
    for name in ["ayoayo", "ayo", "olopon", "oware"] {
        assert!(text.contains(name), "{text}");
    }
    let mut p = Rules::preset("ayo").unwrap().params();
    assert!(matches!(
        p.set("colour", "red"),
        Err(RulesError::UnknownParam { .. })
    ));
    assert!(matches!(
        p.set("relay", "maybe"),
        Err(RulesError::BadValue { param: "relay", .. })
    ));
    // Unusual but playable combinations are valid rule sets.
    let mut p = Rules::preset("oware").unwrap().params();
    p.seeds_per_pit = 3;
    p.target = None;
    p.relay = true;
    p.capture = Capture::CollectFour;
    let r = Rules::new(p).unwrap();
    assert_eq!(Position::start(&r).board(), [3; 12]);
    assert_eq!(r.total_seeds(), 36);
}

#[test]
fn rules_serde_round_trip() {
    for p in Preset::ALL {
        let r = p.rules();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
        assert_eq!(r.as_preset(), Some(p));
    }
    let bad = r#"{"relay":true,"capture":"across","capturing_seed_taken":true,"fours_to":"mover","skip_origin":true,"grand_slam":"allowed","feeding":"strict","stuck_seeds":"to_opponent","target":25,"move_limit":null,"repetition":"off","seeds_per_pit":0,"first_player":"south"}"#;
    assert!(serde_json::from_str::<Rules>(bad).is_err());
}

// ---------------------------------------------------------------- records

#[test]
fn record_round_trips() {
    let r = rules(
        "ayoayo",
        &[
            ("capturing_seed_taken", "false"),
            ("stuck_seeds", "own_side"),
        ],
    );
    assert_eq!(
        rules_to_text(&r),
        "ayoayo[capturing_seed_taken=false,stuck_seeds=own_side]"
    );
    let p = pos_counters(&r, [0, 6, 1, 0, 1, 0, 1, 2, 0, 1, 2, 1], [20, 13], N, 7, 31);
    let text = position_to_text(&r, &p);
    assert_eq!(text, "ayoayo[capturing_seed_taken=false,stuck_seeds=own_side] 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 7 31");
    assert_eq!(parse_position(&text).unwrap(), (r, p));
    // A game record replays its moves.
    let text = "oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 6 1 5";
    let g = parse_game(text).unwrap();
    assert_eq!(g.moves().len(), 4);
    assert_eq!(g.position().board(), [1, 7, 0, 7, 6, 6, 5, 4, 4, 4, 0, 1]);
    assert_eq!(g.position().stores(), [0, 3]);
    assert_eq!(g.record(), text);
    assert_eq!(Game::from_record(&g.record()).unwrap(), g);
}

#[test]
fn malformed_records_name_field_and_offset() {
    // "oware " is 6 bytes, the board 23 (6..29), stores at 30, player at 34, counters at 36, 38.
    let cases: [(&str, &str, usize); 9] = [
        ("awale 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", "rules", 0),
        ("oware 4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", "board", 6),
        ("oware 4,4,4,4,4,4/4,4,x,4,4,4 0-0 s 0 0", "board", 22),
        ("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-y s 0 0", "stores", 32),
        ("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 x 0 0", "to_move", 34),
        ("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s z 0", "no_capture", 36),
        ("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s", "no_capture", 35),
        ("oware 5,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0", "position", 6),
        ("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 1", "end", 40),
    ];
    for (text, field, offset) in cases {
        let e = parse_position(text).unwrap_err();
        assert_eq!((e.field, e.offset), (field, offset), "{text}: {e}");
    }
    // Rules overrides: the bad item's offset.
    let e = parse_position("oware[target=x] 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0").unwrap_err();
    assert_eq!((e.field, e.offset), ("rules", 6));
    // Game records: '|' at 40, moves at 42, 44, 46; the third (pit 3 again) is empty.
    let e = parse_game("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1 3").unwrap_err();
    assert_eq!((e.field, e.offset), ("move", 46), "{e}");
    let e = parse_game("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 7").unwrap_err();
    assert_eq!((e.field, e.offset), ("move", 44), "{e}");
    let e = parse_game("oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 3").unwrap_err();
    assert_eq!(e.field, "separator");
}

#[test]
fn setup_errors_list_every_problem() {
    // Olopon: 49 seeds, 41 moves without capture (limit 40), only 5 moves played.
    let r = Rules::preset("olopon").unwrap();
    let setup = Setup {
        board: [4; 12],
        stores: [1, 0],
        to_move: S,
        no_capture: 41,
        ply: 5,
    };
    let e = Position::from_setup(&r, &setup).unwrap_err();
    assert_eq!(
        e.0,
        [
            SetupError::SeedCount {
                found: 49,
                expected: 48
            },
            SetupError::NoCaptureOverLimit {
                no_capture: 41,
                limit: 40
            },
            SetupError::NoCaptureOverPly {
                no_capture: 41,
                ply: 5
            },
        ]
    );
    let text = e.to_string();
    assert!(
        text.contains("49") && text.contains("41") && text.contains("40"),
        "{text}"
    );
    assert!(Game::from_setup(r, &setup).is_err());
    let mut ok = setup;
    ok.stores = [0, 0];
    ok.no_capture = 5;
    assert!(Position::from_setup(&r, &ok).is_ok());
}

// ---------------------------------------------------------------- moves

#[test]
fn moves_are_named_relative_to_the_mover() {
    let r = Rules::preset("ayoayo").unwrap();
    let p = pos(&r, [0, 6, 1, 0, 1, 0, 1, 2, 0, 1, 2, 1], [20, 13], N);
    assert_eq!(p.move_for_relative_pit(1).unwrap().pit(), 6);
    assert_eq!(p.move_for_action(5).unwrap().pit(), 11);
    assert_eq!(
        p.move_for_relative_pit(0),
        Err(IllegalMove::ActionOutOfRange { action: 0 })
    );
    assert_eq!(
        p.move_for_relative_pit(7),
        Err(IllegalMove::ActionOutOfRange { action: 7 })
    );
    let south_pit = ayo_core::Move::new(1).unwrap();
    assert_eq!(
        p.check_move(&r, south_pit),
        Err(IllegalMove::NotMoversPit { pit: 1, mover: N })
    );
}
