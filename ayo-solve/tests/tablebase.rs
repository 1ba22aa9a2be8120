//! The same checks over both kinds of databases, through the one interface
//! (`ayo_solve::tablebase`): one generic test, instantiated for the
//! board-only `Database` (`ayoayo`) and the `CountedDatabase` (`olopon`).

use std::sync::Arc;

use ayo_core::players::{Agent, Budget};
use ayo_core::{Game, Player, Position, Rules, Setup};
use ayo_solve::counted::CountedDatabase;
use ayo_solve::perfect::Source;
use ayo_solve::perfect::{PerfectKind, PerfectPlayer};
use ayo_solve::search::{move_values, Search};
use ayo_solve::{Database, DbError};

use crate::common::boards;

/// The position with `board`, `to_move` to play after `count` moves without
/// a capture, and stores that make 48 seeds in all.
fn position(board: [u8; 12], to_move: Player, count: u16) -> Position {
    let on_board: u8 = board.iter().sum();
    let rest = 48 - on_board;
    Position::from_setup_unchecked(&Setup {
        board,
        stores: [rest / 2, rest - rest / 2],
        to_move,
        no_capture: count,
        ply: u32::from(count),
    })
}

/// A fresh folder, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("ayo-tablebase-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every check, for one kind: `rules` of that kind, `other` rules of the
/// other kind, `max` seeds in the layers.
fn same_checks<T: PerfectKind>(name: &str, rules: &Rules, other: &Rules, max: usize) {
    // The rules: this kind's, not the other's.
    assert!(T::solvable(rules).is_ok());
    assert!(matches!(
        T::solvable(other),
        Err(DbError::UnsupportedRules { .. })
    ));
    assert!(matches!(
        T::build(rules, T::MAX_SEEDS + 1, None, true),
        Err(DbError::LayerTooLarge { .. })
    ));

    // Built into a folder, opened again: the same layers and values.
    let dir = TempDir::new(name);
    let (db, reports) = T::build(rules, max, Some(&dir.0), true).unwrap();
    assert_eq!(db.max_seeds(), max);
    assert_eq!(reports.len(), db.layers_held().len());
    assert_eq!(db.layers_held().last(), Some(&max));
    assert!(db.plays(rules) && !db.plays(other));
    assert_eq!(db.key(), T::solvable(rules).unwrap().to_string());
    let opened = T::open(rules, max, &dir.0).unwrap();
    let all = T::open_all(rules, &dir.0).unwrap();
    assert_eq!(opened.layers_held(), db.layers_held());
    assert_eq!(all.layers_held(), db.layers_held());
    let (_, again) = T::build(rules, max, Some(&dir.0), true).unwrap();
    assert_eq!(again.len(), reports.len());
    assert!(matches!(
        T::open(rules, max, &dir.0.join("absent")),
        Err(DbError::Missing { .. })
    ));

    // Sound, as the kind's own check sees it.
    let report = db.verify_layers(0, true);
    let c = T::checked(&report);
    assert!(c.checked > 0 && c.failed == 0, "{c:?}");
    let top = T::checked(&db.verify_layers(max, true));
    assert!(top.checked > 0 && top.checked < c.checked, "{top:?}");

    // Every held position: the same entry however the databases were
    // made, inside its bounds, and equal to the best move's value where
    // neither it nor any move's result depends on endless play.
    let db = Arc::new(db);
    let mut exact = 0;
    for n in db.layers_held() {
        for board in boards(n) {
            for count in [0, 3] {
                for to_move in [Player::South, Player::North] {
                    let pos = position(board, to_move, count);
                    let e = db.entry(&pos).unwrap();
                    assert_eq!(opened.entry(&pos), Some(e));
                    assert_eq!(all.entry(&pos), Some(e));
                    assert!(e.lo <= e.value && e.value <= e.hi, "{e:?}");
                    assert_eq!(db.value(&pos), Some(e.value));
                    assert_eq!(db.bounds(&pos), Some((e.lo, e.hi)));
                    let children = pos.children(db.rules());
                    if e.open()
                        || children.is_empty()
                        || children
                            .iter()
                            .any(|(_, c)| db.entry(c).is_none_or(|ce| ce.open()))
                    {
                        continue;
                    }
                    let moves = move_values(Arc::clone(&db), &pos, None).unwrap().unwrap();
                    assert_eq!(moves.len(), children.len());
                    assert_eq!(moves.iter().map(|m| m.1).max(), Some(e.value), "{pos:?}");
                    exact += 1;
                }
            }
        }
    }
    assert!(exact > 100, "{exact}");

    // Above the layers: the search over them agrees with the layers of one
    // more seed (where those do not depend on endless play), and a spent
    // budget is no answer.
    let (bigger, _) = T::build(rules, max + 1, None, true).unwrap();
    let mut search = Search::<T>::over(Arc::clone(&db));
    let mut searched = 0;
    for board in boards(max + 1).into_iter().step_by(7) {
        let pos = position(board, Player::South, 1);
        let Some(e) = bigger.entry(&pos) else {
            continue;
        };
        assert_eq!(db.entry(&pos), None);
        if e.open() {
            continue;
        }
        assert_eq!(search.value_within(&pos, None).unwrap(), Some(e.value));
        searched += 1;
    }
    assert!(searched > 10, "{searched}");
    assert!(search.nodes() > 0 && search.table_len() > 0);
    search.clear_table();
    assert_eq!(search.table_len(), 0);
    let mut board = [0u8; 12];
    board[0] = 2;
    board[3] = (max - 1) as u8;
    board[8] = 1;
    board[11] = 1;
    let far = position(board, Player::South, 0);
    assert_eq!(db.entry(&far), None);
    let mut fresh = Search::<T>::over(Arc::clone(&db));
    assert_eq!(fresh.value_within(&far, Some(1)).unwrap(), None);
    assert_eq!(move_values(Arc::clone(&db), &far, Some(1)).unwrap(), None);

    // The perfect player: a held position's move from the databases.
    let mut setup = Setup::start(rules);
    setup.board = [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0];
    setup.stores = [23, 23];
    let game = Game::from_position(*rules, Position::from_setup(rules, &setup).unwrap());
    let mut player = PerfectPlayer::<T>::over(Arc::clone(&db), Budget::Nodes(1_000), 1);
    assert_eq!(player.last_source(), Source::None);
    assert!(game.is_legal(player.choose(&game).unwrap()));
    assert_eq!(player.last_source(), Source::Database);
}

#[test]
fn board_only_databases_through_the_interface() {
    same_checks::<Database>(
        "board",
        &Rules::preset("ayoayo").unwrap(),
        &Rules::preset("olopon").unwrap(),
        5,
    );
}

#[test]
fn counted_databases_through_the_interface() {
    same_checks::<CountedDatabase>(
        "counted",
        &Rules::preset("olopon").unwrap(),
        &Rules::preset("ayoayo").unwrap(),
        5,
    );
}
