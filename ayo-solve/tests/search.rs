//! The search above the databases agrees with deeper databases.

use ayo_core::{Game, Player, Position, Rules};
use ayo_solve::index::unrank;
use ayo_solve::{south_position, Database, Solver};

#[test]
fn search_over_small_databases_equals_larger_databases() {
    // Layers 9 and 10 searched down to the layers of up to 8 seeds, against
    // the layers built directly. Boards whose value depends on endless play
    // are left out (the search scores repetitions on its path instead), and
    // so are boards that need more than the node budget (long non-capturing
    // wanderings with few seeds).
    for text in [
        "ayoayo",
        "ayoayo[capturing_seed_taken=false]",
        "ayoayo[stuck_seeds=own_side]",
    ] {
        let rules: Rules = text.parse().unwrap();
        let big = Database::build(&rules, 10, None, true).unwrap().0;
        let small = Database::from_layers(&rules, big.layers()[..=8].to_vec()).unwrap();
        let mut solver = Solver::new(small);
        solver.set_budget(Some(5_000));
        let (mut checked, mut skipped) = (0, 0);
        for n in [9usize, 10] {
            let step = if n == 9 { 2_003 } else { 20_011 };
            let layer = &big.layers()[n];
            for r in (0..layer.len() as u64).step_by(step) {
                if layer.cycle(r) {
                    continue;
                }
                let board = unrank(n, r);
                match solver.value(&south_position(&board)).unwrap() {
                    Some(v) => {
                        assert_eq!(v, i32::from(layer.value(r)), "{text}: board {board:?}");
                        checked += 1;
                    }
                    None => skipped += 1,
                }
            }
        }
        eprintln!("{text}: {checked} boards agree, {skipped} over budget");
        assert!(
            checked >= 40,
            "{text}: only {checked} boards answered, {skipped} over budget"
        );
        assert!(solver.stats().nodes > 0);
    }
}

#[test]
fn optimal_play_realises_the_value_from_north_too() {
    // Target none: the game runs to its end, so the margin played out must be the value.
    let rules: Rules = "ayoayo[target=none]".parse().unwrap();
    let db = Database::build(&rules, 9, None, true).unwrap().0;
    let mut solver = Solver::new(db);
    let mut setup = Position::start(&rules).to_setup();
    setup.board = [1, 0, 2, 0, 0, 1, 0, 3, 0, 1, 0, 1];
    setup.stores = [20, 19];
    setup.to_move = Player::North;
    let start = Position::from_setup(&rules, &setup).unwrap();
    let v0 = solver.value(&start).unwrap().unwrap();
    let mut game = Game::from_position(rules, start);
    while game.outcome().is_none() && game.moves().len() < 500 {
        let pos = *game.position();
        let (mv, v) = solver.best_move(&pos).unwrap().unwrap();
        assert_eq!(v, solver.value(&pos).unwrap().unwrap());
        assert!(pos.is_legal(&rules, mv));
        game.play(mv).unwrap();
    }
    let outcome = game.outcome().expect("optimal play from here ends");
    let scores = outcome.scores;
    let margin = (i32::from(scores[1]) - 19) - (i32::from(scores[0]) - 20);
    assert_eq!(margin, v0, "{}", game.record());
}
