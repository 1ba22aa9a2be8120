//! The lane engine (`ayo_core::lanes`) sows every move exactly as the scalar
//! rules do (`Position::try_play_unchecked`), lane by lane, for every rule
//! family and every kernel this machine has: positions of random games and
//! arbitrary boards (long relays and endless ones included), in blocks that
//! fill the lanes and blocks that do not.

use ayo_core::kernel::Kernel;
use ayo_core::{lanes, Move, Player, Position, Rules, Setup};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::strategy::any_rules;

/// Every non-empty pit of the mover in `pos`, as a move.
fn moves_of(pos: &Position) -> Vec<(Position, Move)> {
    let first = pos.to_move().first_pit();
    (first..first + 6)
        .filter(|&p| pos.seeds(p) > 0)
        .map(|p| (*pos, Move::new(p as u8).expect("a pit")))
        .collect()
}

/// The moves of the positions of a seeded random game.
fn game_moves(rules: &Rules, seed: u64) -> Vec<(Position, Move)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::start(rules);
    let mut out = Vec::new();
    for _ in 0..200 {
        out.extend(moves_of(&pos));
        let children = pos.children(rules);
        if children.is_empty() {
            break;
        }
        pos = children[rng.random_range(0..children.len())].1;
    }
    out
}

/// Checks `moves` sown by every kernel against the scalar path.
fn check(rules: &Rules, moves: &[(Position, Move)]) -> Result<(), TestCaseError> {
    let want: Vec<Option<Position>> = moves
        .iter()
        .map(|(p, mv)| p.try_play_unchecked(rules, *mv))
        .collect();
    for k in Kernel::available() {
        let mut got = vec![None; moves.len()];
        lanes::sow_moves(k, rules, moves, &mut got);
        for (l, (g, w)) in got.iter().zip(&want).enumerate() {
            prop_assert_eq!(g, w, "kernel {}, move {}: {:?}", k, l, moves[l]);
        }
    }
    Ok(())
}

fn any_board() -> impl Strategy<Value = ([u8; 12], [u8; 2], bool)> {
    (
        proptest::array::uniform12(prop_oneof![3 => 0u8..=4, 1 => 0u8..=30]),
        proptest::array::uniform2(0u8..=20),
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn lanes_sow_random_games_as_the_scalar_rules(rules in any_rules(), seed in any::<u64>()) {
        check(&rules, &game_moves(&rules, seed))?;
    }

    #[test]
    fn lanes_sow_arbitrary_boards_as_the_scalar_rules(
        rules in any_rules(),
        boards in proptest::collection::vec(any_board(), 1..100),
    ) {
        let mut moves = Vec::new();
        for (board, stores, north) in boards {
            let setup = Setup {
                board,
                stores,
                to_move: if north { Player::North } else { Player::South },
                no_capture: 0,
                ply: 0,
            };
            if let Ok(pos) = Position::from_setup(&rules, &setup) {
                moves.extend(moves_of(&pos));
            }
        }
        check(&rules, &moves)?;
    }
}

#[test]
fn every_preset_is_sown_in_lanes_but_collect_on_4() {
    for preset in ayo_core::Preset::ALL {
        let rules = preset.rules();
        let collects = rules.capture() == ayo_core::Capture::CollectFour;
        assert_eq!(lanes::sows_in_lanes(&rules), !collects, "{preset:?}");
    }
}

#[test]
fn relays_past_the_lane_laps_and_endless_relays_go_to_the_scalar_path() {
    // Moves of 18, 18 and 17 laps (the lanes stop at 16 and the scalar path
    // finishes them), and the endless relay of docs/rules.md (North's pit 7),
    // in one block with ordinary moves.
    let records = [
        ("ayoayo 2,3,0,7,0,5/8,4,0,4,8,7 0-0 s 0 0", 3),
        ("ayoayo 6,1,5,2,2,1/3,7,7,6,1,7 0-0 s 0 0", 5),
        ("ayoayo 3,8,0,1,7,3/3,5,0,5,7,6 0-0 s 0 0", 1),
        ("ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 0", 7),
    ];
    let mut moves = Vec::new();
    let mut long = Vec::new();
    for (record, pit) in records {
        let (rules, pos) = ayo_core::record::parse_position(record).unwrap();
        let mv = Move::new(pit).unwrap();
        let laps = ayo_core::trace::sow_seed_by_seed(&rules, &pos, mv).map(|(t, _)| t.laps);
        long.push(laps);
        moves.extend(moves_of(&pos));
    }
    assert_eq!(long, [Some(18), Some(18), Some(17), None]);
    check(&ayo_core::Preset::Ayoayo.rules(), &moves).unwrap();
}
