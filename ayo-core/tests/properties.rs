//! Property tests: invariants that must hold for every rule set and every game.

use ayo_core::trace::sow_seed_by_seed;
use ayo_core::{
    playout, record, EndReason, Game, LeanGame, Move, Player, Position, Repetition, Rules,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::reference::sow_plain;
use crate::strategy::any_rules;

/// Plays a seeded random game of at most `plies` moves, calling `check` on every position.
fn random_game(rules: Rules, seed: u64, plies: usize, mut check: impl FnMut(&Game)) -> Game {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(rules);
    for _ in 0..plies {
        check(&game);
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(0..moves.len())])
            .expect("a listed move is legal");
    }
    check(&game);
    game
}

fn total_seeds(p: &Position) -> u32 {
    p.board_seeds() + u32::from(p.stores()[0]) + u32::from(p.stores()[1])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn seeds_are_conserved(rules in any_rules(), seed in any::<u64>()) {
        random_game(rules, seed, 120, |g| {
            assert_eq!(total_seeds(g.position()), u32::from(rules.total_seeds()));
            if let Some(o) = g.outcome() {
                if o.reason != EndReason::Target {
                    assert_eq!(u32::from(o.scores[0] + o.scores[1]), u32::from(rules.total_seeds()));
                }
            }
        });
    }

    #[test]
    fn view_is_the_board_seen_from_each_seat(rules in any_rules(), seed in any::<u64>()) {
        random_game(rules, seed, 120, |g| {
            let p = g.position();
            for seat in [Player::South, Player::North] {
                let (mine, theirs) = (seat.first_pit(), seat.opponent().first_pit());
                let mut expected = Vec::new();
                expected.extend((0..6).map(|i| p.seeds(mine + i)));
                expected.extend((0..6).map(|i| p.seeds(theirs + i)));
                expected.push(p.store(seat));
                expected.push(p.store(seat.opponent()));
                assert_eq!(p.view(seat).to_vec(), expected);
            }
        });
    }

    #[test]
    fn legal_list_and_is_legal_agree(rules in any_rules(), seed in any::<u64>()) {
        random_game(rules, seed, 80, |g| {
            let legal = g.legal_moves();
            assert!(legal.windows(2).all(|w| w[0] < w[1]), "ascending");
            assert_eq!(g.legal_action_mask().count_ones() as usize, legal.len());
            let pos = g.position();
            let ended_by_repetition = g.outcome().is_some_and(|o| o.reason == EndReason::Repetition);
            for pit in 0..12u8 {
                let mv = Move::new(pit).unwrap();
                assert_eq!(legal.contains(&mv), g.is_legal(mv), "pit {pit}");
                if !ended_by_repetition {
                    // A lone position sees every end but repetition.
                    assert_eq!(legal.contains(&mv), pos.is_legal(&rules, mv), "pit {pit} (position)");
                }
            }
            if !ended_by_repetition {
                assert_eq!(pos.legal_moves(&rules), legal);
                let children: Vec<Move> = pos.children(&rules).iter().map(|c| c.0).collect();
                assert_eq!(children.as_slice(), legal.as_slice());
                for (mv, next) in pos.children(&rules) {
                    assert_eq!(pos.play(&rules, mv).unwrap(), next);
                }
            }
        });
    }

    /// Every candidate move of every position of a random game, in every
    /// rule family: the packed board (the engine's move) and the traced
    /// board (`trace`) reach the same position, and the traced board's
    /// events and the position are those of the plain reading (`reference`).
    #[test]
    fn packed_and_traced_boards_match_the_plain_reading(rules in any_rules(), seed in any::<u64>()) {
        random_game(rules, seed, 80, |g| {
            let pos = g.position();
            for pit in 0..12u8 {
                let mv = Move::new(pit).unwrap();
                if !pos.to_move().owns(mv.pit()) || pos.seeds(mv.pit()) == 0 {
                    continue;
                }
                let at = || format!("pit {pit} from {}", record::position_to_text(&rules, pos));
                let fast = pos.try_play_unchecked(&rules, mv);
                let traced = sow_seed_by_seed(&rules, pos, mv);
                let slow = traced.as_ref().map(|(_, setup)| Position::from_setup_unchecked(setup));
                assert_eq!(fast, slow, "{}", at());
                assert_eq!(traced, sow_plain(&rules, pos, mv), "{}", at());
                if let Some(next) = fast {
                    // The incremental key equals the key computed from scratch.
                    assert_eq!(next.hash(), Position::from_setup_unchecked(&next.to_setup()).hash());
                }
            }
        });
    }

    #[test]
    fn play_then_undo_restores(rules in any_rules(), seed in any::<u64>()) {
        let game = random_game(rules, seed, 60, |_| {});
        let mut back = game.clone();
        let positions = game.positions().to_vec();
        for i in (0..game.moves().len()).rev() {
            back.undo().expect("a move to undo");
            assert_eq!(*back.position(), positions[i]);
            assert_eq!(back.position().hash(), positions[i].hash());
            assert_eq!(back.outcome(), None);
        }
        assert!(back.undo().is_none());
        assert_eq!(back, Game::new(rules));
    }

    #[test]
    fn records_round_trip(rules in any_rules(), seed in any::<u64>()) {
        let game = random_game(rules, seed, 60, |g| {
            let text = record::position_to_text(&rules, g.position());
            let (r, p) = record::parse_position(&text).unwrap();
            assert_eq!((r, p), (rules, *g.position()));
            assert_eq!(record::position_to_text(&r, &p), text);
        });
        let text = game.record();
        let parsed = Game::from_record(&text).unwrap();
        assert_eq!(&parsed, &game);
        assert_eq!(parsed.record(), text);
        assert_eq!(parsed.outcome(), game.outcome());
        let json = serde_json::to_string(&rules).unwrap();
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
        assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
    }

    #[test]
    fn same_seed_same_game(rules in any_rules(), seed in any::<u64>()) {
        let run = || {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            playout::random_playout(&rules, Position::start(&rules), &mut rng, 500)
        };
        assert_eq!(run(), run());
        assert_eq!(random_game(rules, seed, 50, |_| {}), random_game(rules, seed, 50, |_| {}));
    }

    #[test]
    fn playouts_end_as_the_rules_say(rules in any_rules(), seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let p = playout::random_playout(&rules, Position::start(&rules), &mut rng, 300);
        assert_eq!(total_seeds(&p.last), u32::from(rules.total_seeds()));
        match p.outcome {
            None => {
                assert_eq!(p.plies, 300);
                assert!(p.last.outcome(&rules).is_none());
            }
            // Repetition needs the history; every other end is seen from the last position alone.
            Some(o) if o.reason == EndReason::Repetition => assert_eq!(rules.repetition(), Repetition::OwnSide),
            Some(o) => assert_eq!(p.last.outcome(&rules), Some(o)),
        }
    }

    #[test]
    fn lean_game_plays_exactly_as_game(rules in any_rules(), seed in any::<u64>()) {
        // Random legal moves from the lean game, and random actions (legal or
        // not, in range or not) played on both: the same positions, legal
        // moves, errors and ends.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut game = Game::new(rules);
        let mut lean = LeanGame::new(rules, *game.position());
        for _ in 0..300 {
            if rng.random_range(0..8) == 0 {
                // A lean game made from the full one, history and all, goes on alike.
                lean = LeanGame::from_game(&game);
            }
            assert_eq!(lean.position(), game.position());
            if let Some(o) = lean.known_outcome() {
                assert_eq!(Some(o), game.outcome());
            }
            assert_eq!(lean.legal_mask(), game.legal_action_mask());
            assert_eq!(lean.outcome(), game.outcome());
            if rng.random_range(0..3) == 0 {
                let action = rng.random_range(0..7u8);
                let (a, b) = (lean.play_action(action), game.play_action(action));
                assert_eq!(a.map(|_| ()), b);
            } else {
                match lean.play_random(&mut rng) {
                    Some(mv) => game.play(mv).unwrap(),
                    None => {
                        assert!(game.outcome().is_some());
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn lean_game_draws_legal_moves_without_computing_them_all(rules in any_rules(), seed in any::<u64>()) {
        // play_random from a fresh state (legal moves not worked out) and
        // from one whose legal moves are known give legal moves, and the
        // lazily found end by lack of moves is the game's.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut game = Game::new(rules);
        let mut lean = LeanGame::new(rules, *game.position());
        for ply in 0..300 {
            if ply % 2 == 0 {
                lean.legal_mask();
            }
            match lean.play_random(&mut rng) {
                Some(mv) => {
                    assert!(game.is_legal(mv));
                    game.play(mv).unwrap();
                    assert_eq!(lean.position(), game.position());
                }
                None => {
                    assert_eq!(lean.known_outcome(), game.outcome());
                    assert!(game.outcome().is_some());
                    break;
                }
            }
        }
    }
}
