//! The bounds through every layer: the figures and the example of an
//! independent analysis, and the files keep them.

use ayo_core::{record, Rules};
use ayo_solve::Database;

fn open_per_layer(db: &Database) -> Vec<usize> {
    db.layers().iter().map(|l| l.open_count()).collect()
}

fn cycle_per_layer(db: &Database) -> Vec<usize> {
    db.layers().iter().map(|l| l.cycle_count()).collect()
}

#[test]
fn a_board_closed_in_its_layer_can_depend_on_endless_play_below() {
    let text = "ayoayo[capturing_seed_taken=false] 1,0,0,1,0,0/0,1,0,1,0,1 22-21 s 0 0";
    let (rules, pos) = record::parse_position(text).unwrap();
    let db = Database::build(&rules, 5, None, true).unwrap().0;
    let board = pos.normalized().board();
    let r = ayo_solve::index::rank(&board);
    // Not scored by the convention in its own layer, yet open.
    assert!(!db.layers()[5].cycle(r));
    assert_eq!(db.board_entry(&board), Some((1, true)));
    assert_eq!(db.bounds(&pos), Some((-1, 3)));
    assert!(db.layers()[5].open(r));
    // North to move on the mirrored board is the same board for the databases.
    let mirrored = "ayoayo[capturing_seed_taken=false] 0,1,0,1,0,1/1,0,0,1,0,0 21-22 n 0 0";
    let (_, north) = record::parse_position(mirrored).unwrap();
    assert_eq!(db.bounds(&north), Some((-1, 3)));
    // Not held: no bounds.
    let small = Database::build(&rules, 4, None, true).unwrap().0;
    assert_eq!(small.bounds(&pos), None);
}

#[test]
fn convention_dependent_boards_as_counted_independently() {
    // The independent analysis: 2,471 convention-dependent boards to 10
    // seeds against 703 cycle-scored.
    let rules: Rules = "ayoayo[capturing_seed_taken=false]".parse().unwrap();
    let db = Database::build(&rules, 10, None, true).unwrap().0;
    assert_eq!(open_per_layer(&db).iter().sum::<usize>(), 2_471);
    assert_eq!(cycle_per_layer(&db).iter().sum::<usize>(), 703);
    // `ayoayo`: 594 at 11 seeds (84 cycle-scored), 391 at 12 (none); the
    // own-side variant 743 and 523 (none cycle-scored).
    for (text, open, cycle) in [
        ("ayoayo", [594, 391], [84, 0]),
        ("ayoayo[stuck_seeds=own_side]", [743, 523], [0, 0]),
    ] {
        let db = Database::build(&text.parse().unwrap(), 12, None, true)
            .unwrap()
            .0;
        assert_eq!(open_per_layer(&db)[11..], open, "{text}");
        assert_eq!(cycle_per_layer(&db)[11..], cycle, "{text}");
        let rep = db.verify(true);
        assert!(rep.ok(), "{text}: {:?}", rep.failures);
        assert_eq!(
            rep.convention_dependent as usize,
            open_per_layer(&db).iter().sum::<usize>()
        );
    }
}
