//! The `perfect` level: it realises every database win against every level,
//! plays exactly the database values against itself, and falls back to
//! level `max` where the databases cannot answer.

use std::sync::Arc;

use ayo_core::players::{Agent, Basis, Budget, Level, Proof};
use ayo_core::{Game, Player, Position, Rules, Setup, Status};
use ayo_solve::index::{layer_size, unrank};
use ayo_solve::perfect::{Perfect, Source};
use ayo_solve::Database;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Layers built for these tests (all in memory, a second or two).
const MAX_SEEDS: usize = 10;

fn database(text: &str) -> (Rules, Arc<Database>) {
    let rules: Rules = text.parse().unwrap();
    let db = Database::build(&rules, MAX_SEEDS, None, true).unwrap().0;
    (rules, Arc::new(db))
}

/// A position with `board` (South's view: South to move when `mover` is
/// South, otherwise the rows turned so that North moves it) and the other
/// seeds split between the stores, the mover's store not ahead.
fn position(rules: &Rules, board: [u8; 12], mover: Player) -> Position {
    let n: u8 = board.iter().sum();
    let rest = 48 - n;
    let mut setup = Setup::start(rules);
    setup.to_move = mover;
    setup.board = match mover {
        Player::South => board,
        Player::North => {
            let mut b = [0; 12];
            b[..6].copy_from_slice(&board[6..]);
            b[6..].copy_from_slice(&board[..6]);
            b
        }
    };
    let mut stores = [0; 2];
    stores[mover.index()] = rest / 2;
    stores[mover.opponent().index()] = rest - rest / 2;
    setup.stores = stores;
    Position::from_setup(rules, &setup).unwrap()
}

/// Plays `game` to its end with `perfect` moving for `side`; returns what
/// `side` gained minus what the opponent gained from the start.
fn realised(game: &mut Game, side: Player, perfect: &mut Perfect, other: &mut dyn Agent) -> i32 {
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
    assert!(
        matches!(game.status(), Status::Ended(_)),
        "the game must end, not loop until the ply cap: {}",
        game.record()
    );
    let scores = game.outcome().unwrap().scores;
    let gained = |p: Player| i32::from(scores[p.index()]) - i32::from(start.store(p));
    gained(side) - gained(side.opponent())
}

/// Random won boards (value > 0 for the mover, not depending on endless play).
fn won_boards(db: &Database, count: usize, seed: u64) -> Vec<([u8; 12], i32)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let n = rng.random_range(2..=MAX_SEEDS);
        let board = unrank(n, rng.random_range(0..layer_size(n)));
        let (v, endless) = db.board_entry(&board).unwrap();
        if v > 0 && !endless {
            out.push((board, v));
        }
    }
    out
}

#[test]
fn never_lets_a_database_win_slip_against_any_level() {
    for (text, count) in [
        ("ayoayo[target=none]", 2_700),
        ("ayoayo[stuck_seeds=own_side,target=none]", 450),
    ] {
        let (rules, db) = database(text);
        let mut perfect = Perfect::new(Arc::clone(&db), Budget::Nodes(10_000), 1);
        for (i, (board, v)) in won_boards(&db, count, 11).into_iter().enumerate() {
            let level = Level::ALL[i % Level::ALL.len()];
            let side = if i % 2 == 0 {
                Player::South
            } else {
                Player::North
            };
            let mut game = Game::from_position(rules, position(&rules, board, side));
            game.set_ply_cap(Some(game.position().ply() + 1_000));
            let mut other = level.player(i as u64);
            let got = realised(&mut game, side, &mut perfect, other.as_mut());
            assert!(
                got >= v,
                "{text}: level {level} held perfect to {got} < {v} from {board:?}: {}",
                game.record()
            );
            assert_eq!(perfect.last_source(), Source::Database);
        }
    }
}

#[test]
fn perfect_against_itself_realises_exactly_the_database_value() {
    let (rules, db) = database("ayoayo[target=none]");
    let mut south = Perfect::new(Arc::clone(&db), Budget::Nodes(10_000), 1);
    let mut north = Perfect::new(Arc::clone(&db), Budget::Nodes(10_000), 2);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut played = 0;
    while played < 500 {
        let n = rng.random_range(1..=MAX_SEEDS);
        let board = unrank(n, rng.random_range(0..layer_size(n)));
        let (v, endless) = db.board_entry(&board).unwrap();
        if endless {
            continue;
        }
        let mut game = Game::from_position(rules, position(&rules, board, Player::South));
        game.set_ply_cap(Some(1_000));
        let got = realised(&mut game, Player::South, &mut south, &mut north);
        assert_eq!(got, v, "from {board:?}: {}", game.record());
        played += 1;
    }
}

#[test]
fn analysis_reports_exact_values_with_the_stores() {
    let (rules, db) = database("ayoayo");
    let mut perfect = Perfect::new(db, Budget::Nodes(10_000), 1);
    let mut setup = Setup::start(&rules);
    // South: pit 5 one seed; North's pit 6 (facing South's pit 5) two seeds.
    setup.board = [0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0];
    setup.stores = [23, 22];
    let game = Game::from_position(rules, Position::from_setup(&rules, &setup).unwrap());
    let a = perfect.analyze(&game);
    assert_eq!(perfect.last_source(), Source::Database);
    assert_eq!(a.basis, Basis::Proven(Proof::Database));
    assert_eq!(a.value.proven(), Some(4));
    assert_eq!(a.value.proven_by(a.basis), Some(4));
    assert_eq!(a.best, Some(game.position().move_for_action(4).unwrap()));
    assert_eq!(a.pv.first(), a.best.as_ref());
    assert_eq!(a.moves.len(), game.legal_moves().len());
    assert!(a
        .moves
        .iter()
        .all(|m| m.basis == Basis::Proven(Proof::Database) && m.value <= a.value));
}

#[test]
fn searches_above_the_databases_within_its_budget() {
    let (rules, db) = database("ayoayo");
    // 12 seeds: above the 10-seed databases, a quick search.
    let mut setup = Setup::start(&rules);
    setup.board = [1, 0, 1, 2, 2, 2, 2, 0, 1, 0, 1, 0];
    setup.stores = [18, 18];
    let game = Game::from_position(rules, Position::from_setup(&rules, &setup).unwrap());
    let mut perfect = Perfect::new(Arc::clone(&db), Budget::Nodes(1_000_000), 1);
    let a = perfect.analyze(&game);
    assert_eq!(perfect.last_source(), Source::Search);
    assert_eq!(a.basis, Basis::Proven(Proof::CompleteSearch));
    // Each move proven by what valued it: a capture down into the
    // databases is read, the rest searched.
    for (m, (_, child)) in a.moves.iter().zip(game.children()) {
        let held = db.board_entry(&child.normalized().board()).is_some();
        let proof = if held {
            Proof::Database
        } else {
            Proof::CompleteSearch
        };
        assert_eq!(m.basis, Basis::Proven(proof), "{:?}", m.mv);
    }
    assert!(a.moves.iter().any(|m| m.basis == a.basis));
    // The same values from a solver over the same databases.
    let mut solver = ayo_solve::Solver::new(Arc::clone(&db));
    let exact = solver.move_values(game.position()).unwrap().unwrap();
    for (m, (mv, v)) in a.moves.iter().zip(exact) {
        assert_eq!(m.mv, mv);
        assert_eq!(m.value.proven().unwrap_or(0), v);
    }
    // A budget of a few nodes cannot answer: level max plays instead.
    let mut starved = Perfect::new(db, Budget::Nodes(3), 1);
    let mv = starved.choose(&game).unwrap();
    assert_eq!(starved.last_source(), Source::Fallback);
    assert_eq!(Some(mv), Level::MAX.player(1).choose(&game));
}

#[test]
fn the_opening_falls_back_and_its_analysis_is_not_proven() {
    // The start of ayoayo is far above 10-seed databases: level max answers,
    // and its depth-limited search says so (the solved value is +6, not the
    // search's).
    let (rules, db) = database("ayoayo");
    let mut perfect = Perfect::new(db, Budget::Nodes(2_000), 1);
    let game = Game::new(rules);
    let a = perfect.analyze(&game);
    assert_eq!(perfect.last_source(), Source::Fallback);
    assert_eq!(
        perfect.fallback_name(),
        "level max (alphabeta(nodes=300000))"
    );
    assert_eq!(a, Level::MAX.player(1).analyze(&game));
    let Basis::Search { depth } = a.basis else {
        panic!("the opening is not proven: {:?}", a.basis);
    };
    assert_eq!(depth, a.depth);
    assert!(a.moves.iter().all(|m| !m.basis.is_proven()));
    assert_eq!(a.value.proven_by(a.basis), None);
}

#[test]
fn other_rules_fall_back_to_level_max() {
    let (_, db) = database("ayoayo");
    let mut perfect = Perfect::new(db, Budget::Nodes(10_000), 3);
    for preset in [
        "oware",
        "ayo",
        "olopon",
        "ayoayo[capturing_seed_taken=false]",
    ] {
        let game = Game::new(Rules::preset(preset).unwrap_or_else(|_| preset.parse().unwrap()));
        assert!(!perfect.plays(game.rules()), "{preset}");
        let mv = perfect.choose(&game).unwrap();
        assert_eq!(perfect.last_source(), Source::Fallback, "{preset}");
        assert_eq!(Some(mv), Level::MAX.player(3).choose(&game), "{preset}");
        let a = perfect.analyze(&game);
        assert_eq!(a.best, Some(mv));
    }
    // The same rules with the preset's target are played from the databases.
    assert!(perfect.plays(&Rules::preset("ayoayo").unwrap()));
    assert!(perfect.plays(&"ayoayo[target=none]".parse().unwrap()));
}

#[test]
fn ended_games_have_no_move() {
    let (rules, db) = database("ayoayo");
    let mut perfect = Perfect::new(db, Budget::Nodes(10_000), 1);
    let mut setup = Setup::start(&rules);
    setup.board = [0; 12];
    setup.stores = [30, 18];
    let game = Game::from_position(rules, Position::from_setup(&rules, &setup).unwrap());
    assert_eq!(perfect.choose(&game), None);
    assert_eq!(perfect.analyze(&game).best, None);
    assert_eq!(perfect.last_source(), Source::None);
}

#[test]
fn chooses_a_best_move_above_the_databases_without_valuing_every_move() {
    // 11 and 12 seeds over the 10-seed databases: the move chosen (by the
    // position's value and one bound test a move) is worth exactly the best
    // of the moves' exact values (where a solver values every move quickly).
    let (rules, db) = database("ayoayo");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let (mut checked, mut tries) = (0, 0);
    while checked < 60 && tries < 600 {
        tries += 1;
        let n = rng.random_range(11..=12);
        let board = unrank(n, rng.random_range(0..layer_size(n)));
        let mut setup = Setup::start(&rules);
        setup.board = board;
        let rest = 48 - n as u8;
        setup.stores = [rest / 2, rest - rest / 2];
        let game = Game::from_position(rules, Position::from_setup(&rules, &setup).unwrap());
        if game.legal_moves().is_empty() {
            continue;
        }
        let mut oracle = ayo_solve::Solver::new(Arc::clone(&db));
        oracle.set_budget(Some(50_000));
        let Some(exact) = oracle.move_values(game.position()).unwrap() else {
            continue;
        };
        let best = exact.iter().map(|&(_, v)| v).max().unwrap();
        let mut perfect = Perfect::new(Arc::clone(&db), Budget::Nodes(1_000_000), 1);
        let mv = perfect.choose(&game).unwrap();
        assert_eq!(perfect.last_source(), Source::Search, "{board:?}");
        let got = exact.iter().find(|&&(m, _)| m == mv).unwrap().1;
        assert_eq!(
            got, best,
            "{board:?}: chose {mv:?} worth {got}, best {best}"
        );
        checked += 1;
    }
    assert!(
        checked >= 12,
        "only {checked} positions checked in {tries} tries"
    );
}
