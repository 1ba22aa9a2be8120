//! The search above the databases agrees with deeper databases.

use ayo_core::{Game, Player, Position, Rules};
use ayo_solve::index::unrank;
use ayo_solve::search::Endless;
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

#[test]
fn bound_searches_over_small_databases_equal_the_bounds_of_larger_ones() {
    // Endless play scored as the worst (best) for the root's mover, at
    // repetitions on the search path and at the open boards of the layers
    // below, gives the lower (upper) bound of the layers built directly:
    // both are the value of the game in which endless play is that bad
    // (good) for the root's mover.
    let rules: Rules = "ayoayo[capturing_seed_taken=false]".parse().unwrap();
    let big = Database::build(&rules, 8, None, true).unwrap().0;
    let small = Database::from_layers(&rules, big.layers()[..=6].to_vec()).unwrap();
    let mut solver = Solver::new(small);
    solver.set_budget(Some(30_000));
    let (mut open, mut checked, mut skipped) = (0, 0, 0);
    for n in [7usize, 8] {
        let layer = &big.layers()[n];
        let step = if n == 7 { 101 } else { 257 };
        // Every open board, and a sample of the closed ones.
        let ranks = (0..layer.len() as u64).filter(|&r| layer.open(r) || r % step == 0);
        for r in ranks {
            let board = unrank(n, r);
            let (lo, hi) = layer.bounds(r);
            let found: Option<Vec<i32>> = [Endless::RootWorst, Endless::RootBest]
                .into_iter()
                .map(|mode| {
                    solver.set_endless(mode);
                    solver.board_value(&board).unwrap()
                })
                .collect();
            let Some(found) = found else {
                skipped += 1;
                continue;
            };
            assert_eq!(found, [i32::from(lo), i32::from(hi)], "board {board:?}");
            open += usize::from(lo < hi);
            checked += 1;
        }
    }
    eprintln!("{checked} boards, {open} open, agree; {skipped} over budget");
    assert!(
        open > 100 && checked > 500,
        "{open} open of {checked}, {skipped} over budget"
    );
}
