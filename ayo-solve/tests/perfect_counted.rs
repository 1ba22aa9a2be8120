//! The `perfect` level under a move limit (`olopon`, `ayo`): it realises
//! every database win against every level, plays exactly the database
//! values against itself, searches exactly above the databases, and falls
//! back to level `max` where it cannot answer.

use std::sync::Arc;

use ayo_core::players::{Agent, Basis, Budget, Level, Proof};
use ayo_core::{Game, Player, Position, Rules, Setup, Status};
use ayo_solve::counted::CountedDatabase;
use ayo_solve::index::{layer_size, unrank};
use ayo_solve::perfect::Source;
use ayo_solve::CountedPerfect;
use ayo_solve::CountedSolver;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A position with `board` (South's view, turned when North moves), `count`
/// capture-less moves behind it, and the other seeds in the stores.
fn position(rules: &Rules, board: [u8; 12], mover: Player, count: u16) -> Position {
    let n: u8 = board.iter().sum();
    let rest = 48 - n;
    let mut setup = Setup::start(rules);
    setup.to_move = mover;
    if mover == Player::North {
        setup.board[..6].copy_from_slice(&board[6..]);
        setup.board[6..].copy_from_slice(&board[..6]);
    } else {
        setup.board = board;
    }
    setup.stores = [rest / 2, rest - rest / 2];
    setup.no_capture = count;
    setup.ply = u32::from(count);
    Position::from_setup(rules, &setup).unwrap()
}

/// Plays `game` to its end; returns what `side` gained minus what the opponent gained.
fn realised(game: &mut Game, side: Player, perfect: &mut dyn Agent, other: &mut dyn Agent) -> i32 {
    let start = *game.position();
    while matches!(game.status(), Status::Ongoing) {
        let mv = if game.position().to_move() == side {
            perfect.choose(game)
        } else {
            other.choose(game)
        }
        .expect("an ongoing game has a move");
        game.play(mv).unwrap();
    }
    let scores = game.outcome().unwrap().scores;
    let gained = |p: Player| i32::from(scores[p.index()]) - i32::from(start.store(p));
    gained(side) - gained(side.opponent())
}

#[test]
fn realises_every_database_value_against_every_level_and_itself() {
    for (text, max) in [("olopon[target=none]", 8), ("ayo[target=none]", 8)] {
        let rules: Rules = text.parse().unwrap();
        let limit = rules.move_limit().unwrap();
        let db = Arc::new(CountedDatabase::build(&rules, max, None, true).unwrap().0);
        let mut perfect = CountedPerfect::new(Arc::clone(&db), Budget::Nodes(10_000), 1);
        let mut twin = CountedPerfect::new(Arc::clone(&db), Budget::Nodes(10_000), 2);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let layers = CountedDatabase::layers_needed(&rules, max);
        let (mut won, mut exact) = (0, 0);
        while won < 400 || exact < 100 {
            let n = layers[rng.random_range(1..layers.len())];
            let board = unrank(n, rng.random_range(0..layer_size(n)));
            let count = rng.random_range(0..limit);
            let side = if rng.random_bool(0.5) {
                Player::South
            } else {
                Player::North
            };
            let pos = position(&rules, board, side, count);
            let v = db.value(&pos).unwrap();
            if exact < 100 {
                let mut game = Game::from_position(rules, pos);
                assert_eq!(
                    realised(&mut game, side, &mut perfect, &mut twin),
                    v,
                    "{text}: {}",
                    game.record()
                );
                exact += 1;
            } else if v > 0 {
                let level = Level::ALL[won % Level::ALL.len()];
                let mut other = level.player(won as u64);
                let mut game = Game::from_position(rules, pos);
                let got = realised(&mut game, side, &mut perfect, other.as_mut());
                assert!(
                    got >= v,
                    "{text}: level {level} held perfect to {got} < {v}: {}",
                    game.record()
                );
                won += 1;
            }
            // Every move it made came from the databases.
            assert!(matches!(
                perfect.last_source(),
                Source::Database | Source::None
            ));
        }
    }
}

#[test]
fn above_the_databases_the_analysis_is_a_complete_search() {
    let rules: Rules = "olopon[target=none]".parse().unwrap();
    let small = Arc::new(CountedDatabase::build(&rules, 4, None, true).unwrap().0);
    let big = CountedDatabase::build(&rules, 7, None, true).unwrap().0;
    let mut perfect = CountedPerfect::new(Arc::clone(&small), Budget::Nodes(1_000_000), 1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut searched = 0;
    for _ in 0..40 {
        let n = rng.random_range(5..=7);
        let board = unrank(n, rng.random_range(0..layer_size(n)));
        let pos = position(&rules, board, Player::South, rng.random_range(0..30));
        let game = Game::from_position(rules, pos);
        if game.children().is_empty() {
            continue;
        }
        let a = perfect.analyze(&game);
        // Searched, unless every move captures into the held layers.
        let proof = match perfect.last_source() {
            Source::Search => Proof::CompleteSearch,
            Source::Database => Proof::Database,
            other => panic!("{other:?}"),
        };
        searched += usize::from(proof == Proof::CompleteSearch);
        assert_eq!(a.basis, Basis::Proven(proof));
        let banked = i32::from(pos.store(Player::South)) - i32::from(pos.store(Player::North));
        assert_eq!(
            a.value.proven_by(a.basis),
            Some(banked + big.value(&pos).unwrap())
        );
        assert_eq!(perfect.choose(&game), a.best);
    }
    assert!(searched > 20, "{searched}");
    // The solver agrees on its own.
    let mut solver = CountedSolver::new(small);
    let pos = position(
        &rules,
        [1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0],
        Player::South,
        3,
    );
    assert_eq!(solver.value(&pos), big.value(&pos));
}

#[test]
fn other_rules_and_a_starved_budget_fall_back_to_level_max() {
    let rules = Rules::preset("olopon").unwrap();
    let db = Arc::new(CountedDatabase::build(&rules, 3, None, true).unwrap().0);
    let mut perfect = CountedPerfect::new(Arc::clone(&db), Budget::Nodes(10), 3);
    assert!(perfect.plays(&rules));
    assert!(perfect.plays(&"olopon[target=none]".parse().unwrap()));
    for text in ["ayo", "oware", "ayoayo", "olopon[move_limit=39]"] {
        let other: Rules = text.parse().unwrap();
        assert!(!perfect.plays(&other), "{text}");
        let game = Game::new(other);
        let mv = perfect.choose(&game).unwrap();
        assert_eq!(perfect.last_source(), Source::Fallback, "{text}");
        assert_eq!(Some(mv), Level::MAX.player(3).choose(&game), "{text}");
    }
    // The opening of the real game is far above 3 seeds: 10 nodes do not prove it.
    let game = Game::new(rules);
    let a = perfect.analyze(&game);
    assert_eq!(perfect.last_source(), Source::Fallback);
    assert_eq!(a, Level::MAX.player(3).analyze(&game));
    assert!(matches!(a.basis, Basis::Search { .. }));
}
