//! Level `perfect` calls a value proven only where it is: a move to a
//! database board whose value depends on endless play, or whose search read
//! such a board or scored a repetition, is valued by the convention
//! (`Basis::Convention`) unless searches that score endless play as worst
//! and as best for the mover agree, and the solver's flag for it is checked
//! against the bracket of every way to score endless play.

use std::sync::Arc;

use ayo_core::players::{Agent, Basis, Budget, Proof};
use ayo_core::{record, Game, Position, Rules, Setup};
use ayo_solve::index::{layer_size, unrank};
use ayo_solve::perfect::{Perfect, Source};
use ayo_solve::search::Endless;
use ayo_solve::{Database, Solver};

/// A board held by the 5-seed layers that is open (`lo < hi`) though not
/// scored by the convention in its own layer (`tests/bounds.rs`).
const OPEN: &str = "ayoayo[capturing_seed_taken=false] 1,0,0,1,0,0/0,1,0,1,0,1 22-21 s 0 0";

fn open_game(max_seeds: usize) -> (Game, Arc<Database>) {
    let (rules, pos) = record::parse_position(OPEN).unwrap();
    let db = Database::build(&rules, max_seeds, None, true).unwrap().0;
    (Game::from_position(rules, pos), Arc::new(db))
}

/// South to move on `board`, the other seeds split between the stores.
fn game_at(rules: Rules, board: [u8; 12]) -> Game {
    let rest = 48 - board.iter().sum::<u8>();
    let mut setup = Setup::start(&rules);
    setup.board = board;
    setup.stores = [rest / 2, rest - rest / 2];
    Game::from_position(rules, Position::from_setup(&rules, &setup).unwrap())
}

#[test]
fn a_move_to_an_open_database_board_is_valued_by_the_convention() {
    let (game, db) = open_game(5);
    let mut perfect = Perfect::new(Arc::clone(&db), Budget::Nodes(100_000), 1);
    let a = perfect.analyze(&game);
    assert_eq!(perfect.last_source(), Source::Database);
    let mut open = 0;
    for (m, (_, child)) in a.moves.iter().zip(game.children()) {
        let (_, is_open) = db.board_entry(&child.normalized().board()).unwrap();
        if is_open {
            open += 1;
            assert_eq!(m.basis, Basis::Convention, "{:?}", m.mv);
            assert_eq!(m.value.proven_by(m.basis), None);
        } else {
            assert_eq!(m.basis, Basis::Proven(Proof::Database), "{:?}", m.mv);
        }
    }
    assert!(open > 0);
    // The best move's value rests on the convention, and so the position's:
    // the databases' bounds for the board are wider than one value.
    assert_eq!(a.basis, Basis::Convention);
    assert_eq!(a.basis.to_string(), "by the convention for endless play");
    assert!(!a.basis.is_proven());
    assert_eq!(a.value.proven_by(a.basis), None);
    let (lo, hi) = db.bounds(game.position()).unwrap();
    assert!(lo < hi);
    // The stored (convention) value is still what it reports: 22 - 21 banked.
    let (v, _) = db
        .board_entry(&game.position().normalized().board())
        .unwrap();
    assert_eq!(a.value.proven(), Some(1 + v));
}

#[test]
fn a_search_that_reads_open_boards_is_valued_by_the_convention() {
    // Above 4-seed layers the same position is searched: the move to the
    // open board is still read (its capture brings it down), the other
    // searched and proven.
    let (game, db) = open_game(4);
    let mut perfect = Perfect::new(Arc::clone(&db), Budget::Nodes(100_000), 1);
    let a = perfect.analyze(&game);
    assert_eq!(perfect.last_source(), Source::Search);
    assert_eq!(a.basis, Basis::Convention);
    assert!(a.moves.iter().any(|m| m.basis == Basis::Convention));
    assert!(a
        .moves
        .iter()
        .any(|m| m.basis == Basis::Proven(Proof::CompleteSearch)));
}

/// The value of `board` under each way of scoring endless play, and whether
/// the convention's solver says its value depends on it.
struct Bracket {
    convention: i32,
    depends: bool,
    worst: i32,
    best: i32,
}

fn bracket(solvers: &mut [Solver; 3], board: &[u8; 12]) -> Bracket {
    let convention = solvers[0].board_value(board).unwrap().unwrap();
    let depends = solvers[0].depends_on_endless();
    let worst = solvers[1].board_value(board).unwrap().unwrap();
    let best = solvers[2].board_value(board).unwrap().unwrap();
    Bracket {
        convention,
        depends,
        worst,
        best,
    }
}

fn solvers(db: &Arc<Database>) -> [Solver; 3] {
    [Endless::Convention, Endless::RootWorst, Endless::RootBest].map(|e| {
        let mut s = Solver::new(Arc::clone(db));
        s.set_endless(e);
        s
    })
}

#[test]
fn the_solver_says_a_value_is_independent_only_when_every_scoring_agrees() {
    // Every 6-seed board above 5-seed layers, one table per scoring kept
    // across the boards, so that entries computed from open reads are reused.
    let rules: Rules = "ayoayo[capturing_seed_taken=false]".parse().unwrap();
    let db = Arc::new(Database::build(&rules, 5, None, true).unwrap().0);
    let mut solvers = solvers(&db);
    let (mut depends, mut independent, mut spread) = (0, 0, 0);
    for r in 0..layer_size(6) {
        let board = unrank(6, r);
        let b = bracket(&mut solvers, &board);
        assert!(
            b.worst <= b.convention && b.convention <= b.best,
            "{board:?}"
        );
        if b.depends {
            depends += 1;
        } else {
            independent += 1;
            assert_eq!((b.worst, b.best), (b.convention, b.convention), "{board:?}");
        }
        if b.worst < b.best {
            spread += 1;
        }
    }
    // Both kinds occur, and the flag is raised for every board whose
    // scorings differ.
    assert!(depends >= spread && spread > 0 && independent > 0);
}

#[test]
fn perfect_calls_a_searched_value_proven_exactly_when_every_scoring_agrees() {
    let rules: Rules = "ayoayo[capturing_seed_taken=false]".parse().unwrap();
    let db = Arc::new(Database::build(&rules, 5, None, true).unwrap().0);
    let mut solvers = solvers(&db);
    let mut perfect = Perfect::new(Arc::clone(&db), Budget::Nodes(1_000_000), 1);
    let (mut proven, mut convention, mut settled, mut position_settled) = (0, 0, 0, 0);
    for r in (0..layer_size(6)).step_by(13) {
        let game = game_at(rules, unrank(6, r));
        let a = perfect.analyze(&game);
        if perfect.last_source() == Source::Fallback {
            continue;
        }
        // Each move's value under the convention and at its most under any
        // scoring of endless play.
        let mut most = Vec::new();
        for (m, (_, child)) in a.moves.iter().zip(game.children()) {
            let b = bracket(&mut solvers, &child.normalized().board());
            let value = m.value.proven().unwrap_or(0); // None: a draw
            most.push(value + (b.convention - b.worst));
            match m.basis {
                Basis::Proven(_) => {
                    proven += 1;
                    assert_eq!(b.worst, b.best, "{:?} of {r}", m.mv);
                    // The convention's solver said it could depend on
                    // endless play; the bracket shows it does not.
                    if b.depends {
                        settled += 1;
                    }
                }
                Basis::Convention => {
                    convention += 1;
                    assert!(b.worst < b.best, "{:?} of {r}", m.mv);
                }
                other => panic!("{other:?}"),
            }
        }
        // The position is proven when its best move's value is and no move
        // is worth more under any scoring.
        let best = a.value.proven().unwrap_or(0);
        let best_proven = a
            .moves
            .iter()
            .any(|m| Some(m.mv) == a.best && m.basis.is_proven() && m.value == a.value);
        let expected = a.moves.is_empty() || (best_proven && most.iter().all(|&v| v <= best));
        assert_eq!(
            a.basis.is_proven(),
            expected,
            "{r}: {:?} best {best} most {most:?} moves {:?}",
            a.basis,
            a.moves
                .iter()
                .map(|m| (m.mv, m.basis, m.value.proven()))
                .collect::<Vec<_>>()
        );
        if expected && !a.moves.iter().all(|m| m.basis.is_proven()) {
            position_settled += 1;
        }
    }
    assert!(proven > 0 && convention > 0, "{proven} {convention}");
    // Brackets settle values the convention's flag left open, and positions
    // whose other moves stay open but cannot be worth more.
    assert!(
        settled > 0 && position_settled > 0,
        "{settled} {position_settled}"
    );
}
