//! Counted databases (rules with a move limit) against an independent
//! game-tree search: every position — board, either player to move, every
//! no-capture count — valued by playing every line to its end through
//! `ayo_core::Game` (the core's moves, counter and end of game; nothing
//! re-implemented), remembering the value of each absolute position
//! (board, player, count: under a move limit that is all a value depends on).

use std::collections::HashMap;

use ayo_core::{Game, Player, Position, Rules, Setup};
use ayo_solve::counted::{counted_layer_path, CountedDatabase, CountedLayer};
use ayo_solve::CountedSolver;
use ayo_solve::DbError;

use crate::common::boards;

type Key = ([u8; 12], Player, u16);

fn position(board: [u8; 12], to_move: Player, count: u16) -> Position {
    Position::from_setup_unchecked(&Setup {
        board,
        stores: [0, 0],
        to_move,
        no_capture: count,
        ply: u32::from(count),
    })
}

/// The stores' difference for `p`.
fn banked(pos: &Position, p: Player) -> i32 {
    i32::from(pos.store(p)) - i32::from(pos.store(p.opponent()))
}

/// The mover's future captures minus the opponent's, with best play.
fn tree(game: &mut Game, memo: &mut HashMap<Key, i32>) -> i32 {
    let pos = *game.position();
    let me = pos.to_move();
    let k = (pos.board(), me, pos.no_capture());
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let v = match game.outcome() {
        Some(o) => {
            i32::from(o.scores[me.index()])
                - i32::from(o.scores[me.opponent().index()])
                - banked(&pos, me)
        }
        None => {
            let mut best = i32::MIN;
            for (mv, child) in game.children().to_vec() {
                let gain = banked(&child, me) - banked(&pos, me);
                game.play(mv).unwrap();
                best = best.max(gain - tree(game, memo));
                game.undo().unwrap();
            }
            best
        }
    };
    memo.insert(k, v);
    v
}

fn reference(
    rules: &Rules,
    board: [u8; 12],
    to_move: Player,
    count: u16,
    memo: &mut HashMap<Key, i32>,
) -> i32 {
    let mut game = Game::from_position(*rules, position(board, to_move, count));
    tree(&mut game, memo)
}

fn check(record: &str, max: usize) -> usize {
    let rules: Rules = record.parse().unwrap();
    let limit = rules.move_limit().unwrap();
    let db = CountedDatabase::build(&rules, max, None, true).unwrap().0;
    let values: usize = db.layers().iter().flatten().map(|l| l.bytes().len()).sum();
    assert_eq!(db.verify(), (values as u64, 0));
    let mut memo = HashMap::new();
    let mut checked = 0;
    for n in CountedDatabase::layers_needed(&rules, max) {
        for b in boards(n) {
            for count in 0..=limit {
                for p in [Player::South, Player::North] {
                    let want = reference(db.rules(), b, p, count, &mut memo);
                    let got = db.value(&position(b, p, count));
                    assert_eq!(got, Some(want), "{record}: {b:?} {p:?} count {count}");
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn olopon_layers_match_the_game_tree() {
    // Boards of 0..=6 seeds (C(18, 12) = 18,564) × 7 counts × 2 movers.
    assert_eq!(check("olopon[move_limit=6]", 6), 259_896);
}

#[test]
fn ayo_layers_match_the_game_tree() {
    // Collect-four captures take 4s: layers 0, 4 and 8 for 8 seeds
    // (1 + 1,365 + 75,582 boards) × 6 counts × 2 movers.
    assert_eq!(check("ayo[move_limit=5]", 8), 923_376);
}

#[test]
fn the_search_above_the_databases_is_exact() {
    for (record, held, above) in [("olopon[move_limit=5]", 3, 6), ("ayo[move_limit=4]", 2, 6)] {
        let rules: Rules = record.parse().unwrap();
        let db = CountedDatabase::build(&rules, held, None, true).unwrap().0;
        let solve = *db.rules();
        let mut solver = CountedSolver::new(db);
        let mut memo = HashMap::new();
        for n in held + 1..=above {
            for b in boards(n).into_iter().step_by(7) {
                for count in [0, 2, 4] {
                    let want = reference(&solve, b, Player::South, count, &mut memo);
                    assert_eq!(
                        solver.value(&position(b, Player::South, count)),
                        Some(want),
                        "{record}: {b:?} {count}"
                    );
                    assert_eq!(solver.board_at_most(&b, count, want), Some(true));
                    assert_eq!(solver.board_at_most(&b, count, want - 1), Some(false));
                }
            }
        }
        // A starved budget gives no answer, and the next search still can.
        solver.clear_table();
        solver.set_budget(Some(0));
        assert_eq!(
            solver.board_value(&[1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], 0),
            None
        );
        solver.set_budget(None);
        assert!(solver
            .board_value(&[1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], 0)
            .is_some());
    }
}

#[test]
fn files_round_trip_and_bad_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("ayo-counted-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = Rules::preset("olopon").unwrap();
    let (db, reports) = CountedDatabase::build(&rules, 3, Some(&dir), true).unwrap();
    assert!(reports.iter().all(|r| !r.reused));
    let (again, reports) = CountedDatabase::build(&rules, 3, Some(&dir), true).unwrap();
    assert!(reports.iter().all(|r| r.reused));
    assert_eq!(db.layers(), again.layers());
    let opened = CountedDatabase::open(&rules, 3, &dir).unwrap();
    assert_eq!(db.layers(), opened.layers());
    let path = counted_layer_path(&dir, db.key(), 2);
    // Another limit is other rules.
    let other: Rules = "olopon[move_limit=39]".parse().unwrap();
    assert!(matches!(
        CountedDatabase::open(&other, 3, &dir),
        Err(DbError::Missing { .. })
    ));
    assert!(matches!(
        CountedLayer::load(&path, db.key(), 2, 39),
        Err(DbError::RulesMismatch { .. })
    ));
    // A wrong value with checksums made to match: read, then found by verify.
    let good = std::fs::read(&path).unwrap();
    let mut forged = good.clone();
    let header = 8 + 4 + 4 + db.key().len() + 4 + 4 + 8;
    let body = header + 8;
    forged[body + 5] = forged[body + 5].wrapping_add(1);
    let dcrc = crc32fast::hash(&forged[body..]);
    forged[header..header + 4].copy_from_slice(&dcrc.to_le_bytes());
    let hcrc = crc32fast::hash(&forged[..header + 4]);
    forged[header + 4..header + 8].copy_from_slice(&hcrc.to_le_bytes());
    std::fs::write(&path, &forged).unwrap();
    let (checked, failed) = CountedDatabase::open(&rules, 3, &dir).unwrap().verify();
    assert!(failed >= 1 && checked > failed, "{checked} {failed}");
    std::fs::write(&path, &good).unwrap();
    // A flipped value byte.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        CountedDatabase::open(&rules, 3, &dir),
        Err(DbError::DataChecksum { .. })
    ));
    // Truncated.
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    assert!(matches!(
        CountedDatabase::open(&rules, 3, &dir),
        Err(DbError::Length { .. })
    ));
    std::fs::write(&path, &bytes[..10]).unwrap();
    assert!(matches!(
        CountedDatabase::open(&rules, 3, &dir),
        Err(DbError::TruncatedHeader { .. })
    ));
    std::fs::write(&path, b"not a database at all").unwrap();
    assert!(matches!(
        CountedDatabase::open(&rules, 3, &dir),
        Err(DbError::BadMagic { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
    // Rules without a move limit, or with a repetition rule, are refused.
    for r in ["ayoayo", "oware", "oware[move_limit=40]"] {
        let rules: Rules = r.parse().unwrap();
        assert!(
            matches!(
                CountedDatabase::build(&rules, 2, None, true),
                Err(DbError::UnsupportedRules { .. })
            ),
            "{r}"
        );
    }
}

/// Bounds of sampled boards of `above` seeds over the layers to `held`
/// under each budget, against the game tree; how many came out exact,
/// narrowed but open, and untouched (`±seeds`).
fn check_bounds(record: &str, held: usize, above: usize, step: usize) -> [usize; 3] {
    let rules: Rules = record.parse().unwrap();
    let db = std::sync::Arc::new(CountedDatabase::build(&rules, held, None, true).unwrap().0);
    let solve = *db.rules();
    let mut memo = HashMap::new();
    let mut seen = [0usize; 3];
    for b in boards(above).into_iter().step_by(step) {
        for count in [0, 3] {
            let want = reference(&solve, b, Player::South, count, &mut memo);
            let n = b.iter().map(|&s| i32::from(s)).sum::<i32>();
            for budget in [Some(0), Some(40), Some(400), Some(4_000), None] {
                let mut solver = CountedSolver::new(std::sync::Arc::clone(&db));
                solver.set_budget(budget);
                let (lo, hi) = solver.bounds(&position(b, Player::South, count));
                assert!(
                    lo <= want && want <= hi,
                    "{record} {b:?} {count} {budget:?}: {lo}..{hi} vs {want}"
                );
                assert!(-n <= lo && hi <= n);
                if budget.is_none() {
                    assert_eq!((lo, hi), (want, want), "{record} {b:?} {count}");
                }
                if let Some(nodes) = budget {
                    assert!(solver.nodes() <= nodes, "{} > {nodes}", solver.nodes());
                }
                seen[if lo == hi {
                    0
                } else if (lo, hi) != (-n, n) {
                    1
                } else {
                    2
                }] += 1;
            }
            // The same for North to move on the mirrored board.
            let mut mirrored = b;
            mirrored.rotate_left(6);
            let mut solver = CountedSolver::new(std::sync::Arc::clone(&db));
            assert_eq!(
                solver.bounds(&position(mirrored, Player::North, count)),
                (want, want)
            );
        }
    }
    // A held board's bounds are its value, whatever the budget.
    let mut solver = CountedSolver::new(db);
    solver.set_budget(Some(0));
    let b = [1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0];
    let v = solver.database().board_value(&b, 2).unwrap();
    assert_eq!(solver.board_bounds(&b, 2), (v, v));
    seen
}

#[test]
fn root_bounds_hold_the_value_and_close_on_it_with_enough_budget() {
    for (record, held, above, step) in [
        ("olopon[move_limit=6]", 3, 8, 997),
        ("ayo[move_limit=5]", 2, 7, 499),
    ] {
        let seen = check_bounds(record, held, above, step);
        // Every kind of answer came up: the test sees partial proofs too.
        assert!(seen.iter().all(|&k| k > 0), "{record}: {seen:?}");
    }
}
