//! Computer players: determinism, legality, hand-made tactics, agreement of
//! alpha-beta with plain minimax, and consistency of the analysis.

use ayo_core::players::{
    eval, new_player, Agent, AlphaBeta, Basis, Bound, Budget, Kind, Level, Limit, Mcts, Proof,
    Value, Weights,
};
use ayo_core::{Game, Move, Player, Preset, Rules, Setup};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Games reached by `plies` seeded random moves (fewer if the game ends first).
fn random_games(rules: Rules, count: usize, plies: usize, seed: u64) -> Vec<Game> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut g = Game::new(rules);
            let n = rng.random_range(0..=plies);
            for _ in 0..n {
                let m = g.legal_moves();
                if m.is_empty() {
                    break;
                }
                g.play(m[rng.random_range(0..m.len())]).unwrap();
            }
            g
        })
        .collect()
}

/// Plain minimax (no pruning, no table) over the game's own rules, with the
/// alpha-beta player's evaluation at the horizon.
fn minimax(game: &mut Game, depth: u32, w: &Weights) -> i32 {
    if let Some(o) = game.outcome() {
        return Value::of_outcome(&o, game.position().to_move()).0;
    }
    if depth == 0 {
        return eval::evaluate(game.position(), game.rules(), w);
    }
    let mut best = i32::MIN;
    for mv in game.legal_moves() {
        game.play(mv).unwrap();
        best = best.max(-minimax(game, depth - 1, w));
        game.undo();
    }
    best
}

/// Plain minimax to `depth`, or `None` when some line is still going at the
/// horizon: a value that is the game's, with best play.
fn complete_minimax(game: &mut Game, depth: u32) -> Option<i32> {
    if let Some(o) = game.outcome() {
        return Some(Value::of_outcome(&o, game.position().to_move()).0);
    }
    if depth == 0 {
        return None;
    }
    let mut best = i32::MIN;
    for mv in game.legal_moves() {
        game.play(mv).unwrap();
        let v = complete_minimax(game, depth - 1);
        game.undo();
        best = best.max(-v?);
    }
    Some(best)
}

fn game_from(preset: &str, board: [u8; 12], stores: [u8; 2], to_move: Player) -> Game {
    let rules = Rules::preset(preset).unwrap();
    let mut s = Setup::start(&rules);
    s.board = board;
    s.stores = stores;
    s.to_move = to_move;
    Game::from_setup(rules, &s).unwrap()
}

#[test]
fn alphabeta_equals_minimax_at_each_depth() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        let w = Weights::for_rules(&rules);
        for (i, game) in random_games(rules, 12, 60, 5).into_iter().enumerate() {
            if game.outcome().is_some() {
                continue;
            }
            for depth in 1..=4 {
                let mut g = game.clone();
                let expected = minimax(&mut g, depth, &w);
                for bits in [0, 16] {
                    let mut ab =
                        AlphaBeta::new(Budget::Depth(depth), i as u64).with_table_bits(bits);
                    let a = ab.search(&game, false);
                    assert_eq!(
                        a.value.0,
                        expected,
                        "{preset} game {i} depth {depth} table {bits}: {:?}",
                        game.position()
                    );
                    assert_eq!(a.depth, depth.min(a.depth));
                    let full = ab.analyze(&game);
                    assert_eq!(
                        full.value.0, expected,
                        "{preset} game {i} depth {depth} analyze"
                    );
                    // Every root move's exact value is its own minimax value.
                    for m in &full.moves {
                        let mut g = game.clone();
                        g.play(m.mv).unwrap();
                        assert_eq!(
                            m.value.0,
                            -minimax(&mut g, depth - 1, &w),
                            "{preset} game {i} move {}",
                            m.mv
                        );
                        assert_eq!(m.basis.bound(), Bound::Exact);
                        // A value called proven does not change when the
                        // search looks further.
                        if m.basis.is_proven() {
                            assert_eq!(
                                m.value.0,
                                -minimax(&mut g, depth + 1, &w),
                                "{preset} game {i} move {} proven at depth {depth}",
                                m.mv
                            );
                        } else {
                            assert_eq!(m.basis, Basis::Search { depth }, "{preset} game {i}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn alphabeta_takes_a_winning_two_three_capture() {
    // Oware, South to move with 21 in store. Pit 5 (2 seeds) sows pits 6 and 7:
    // pit 7 becomes 3 and pit 6 becomes 2, both captured: 21 + 5 = 26 ≥ 25 wins
    // at once, 26 to North's 5. The only other move, pit 0 (1 seed), captures nothing.
    let game = game_from(
        "oware",
        [1, 0, 0, 0, 0, 2, 1, 2, 4, 4, 4, 4],
        [21, 5],
        Player::South,
    );
    for depth in 1..=6 {
        let a = AlphaBeta::new(Budget::Depth(depth), 3).analyze(&game);
        assert_eq!(a.best, Some(Move::new(5).unwrap()), "depth {depth}");
        let win = a.value.proven().expect("a proven win");
        assert!(win >= 21, "depth {depth}: {}", a.value);
        let capture = a.moves.iter().find(|m| m.mv.pit() == 5).unwrap();
        assert_eq!(capture.value, Value::from_final_difference(21));
    }
}

#[test]
fn alphabeta_takes_a_capture_across() {
    // Ayoayo, South to move. Pit 1 (1 seed) drops into empty pit 2, which faces
    // pit 9 holding 10: South takes 10 + the capturing seed = 11. The other move,
    // pit 5, drops its seed into empty pit 6 and ends, and then North can move
    // pit 9 out of reach.
    let game = game_from(
        "ayoayo",
        [0, 1, 0, 0, 0, 1, 0, 2, 3, 10, 2, 3],
        [13, 13],
        Player::South,
    );
    for depth in 1..=6 {
        let a = AlphaBeta::new(Budget::Depth(depth), 3).analyze(&game);
        assert_eq!(a.best, Some(Move::new(1).unwrap()), "depth {depth}");
    }
    let a = AlphaBeta::new(Budget::Depth(1), 0)
        .with_weights(Weights::STORE_ONLY)
        .analyze(&game);
    assert_eq!(a.value, Value(11 * Value::SEED));
    assert_eq!(
        a.moves.iter().find(|m| m.mv.pit() == 5).unwrap().value,
        Value(0)
    );
}

#[test]
fn analysis_value_is_the_best_move_value() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        for (i, game) in random_games(rules, 6, 40, 9).into_iter().enumerate() {
            if game.outcome().is_some() {
                continue;
            }
            for kind in Kind::ALL {
                let mut p = new_player(kind, Budget::Nodes(3_000), i as u64);
                let a = p.analyze(&game);
                let best = a.best.expect("an ongoing game has a move");
                assert!(game.is_legal(best));
                let mv = a
                    .moves
                    .iter()
                    .find(|m| m.mv == best)
                    .expect("the best move is listed");
                assert_eq!(mv.value, a.value, "{preset} {kind}");
                assert_eq!(a.pv.first(), Some(&best), "{preset} {kind}");
                assert_eq!(a.moves.len(), game.legal_moves().len());
                if kind == Kind::AlphaBeta || kind == Kind::Greedy {
                    let max = a.moves.iter().map(|m| m.value).max().unwrap();
                    assert_eq!(a.value, max, "{preset} {kind}");
                }
            }
        }
    }
}

#[test]
fn players_are_deterministic_for_a_seed() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        for kind in Kind::ALL {
            for budget in [Budget::Depth(2), Budget::Nodes(500)] {
                let play = |seed: u64| {
                    let mut p = new_player(kind, budget, seed);
                    let mut g = Game::new(rules);
                    while g.outcome().is_none() && g.moves().len() < 30 {
                        let mv = p.choose(&g).unwrap();
                        g.play(mv).unwrap();
                    }
                    g.moves().to_vec()
                };
                assert_eq!(play(17), play(17), "{preset} {kind} {budget}");
            }
        }
        // Different seeds give different random games.
        let mut a = new_player(Kind::Random, Budget::Depth(1), 1);
        let mut b = new_player(Kind::Random, Budget::Depth(1), 2);
        let games = random_games(rules, 20, 10, 3);
        let differ = games
            .iter()
            .filter(|g| g.outcome().is_none())
            .any(|g| a.choose(g) != b.choose(g));
        assert!(differ, "{preset}");
    }
}

#[test]
fn every_level_plays_legal_moves_to_the_end_in_every_preset() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        for pair in Level::ALL[..6].windows(2) {
            let mut players = [pair[0].player(1), pair[1].player(2)];
            let mut g = Game::new(rules);
            while g.outcome().is_none() && g.moves().len() < 300 {
                let side = g.position().to_move().index();
                let mv = players[side]
                    .choose(&g)
                    .expect("a move while the game goes on");
                assert!(
                    g.is_legal(mv),
                    "{preset} {} chose {mv}",
                    players[side].name()
                );
                g.play(mv).unwrap();
            }
            assert!(players[0].choose(&g).is_none() || g.outcome().is_none());
        }
    }
}

#[test]
fn mcts_never_returns_an_illegal_move() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        for (i, game) in random_games(rules, 40, 150, 21).into_iter().enumerate() {
            for cutoff in [None, Some(8)] {
                let mut m = Mcts::new(Budget::Nodes(300), i as u64).with_cutoff(cutoff);
                match m.choose(&game) {
                    Some(mv) => assert!(game.is_legal(mv), "{preset} game {i}"),
                    None => assert!(game.legal_moves().is_empty(), "{preset} game {i}"),
                }
            }
        }
    }
}

#[test]
fn ended_games_get_no_move_and_their_final_value() {
    let rules = Rules::preset("olopon").unwrap();
    let mut g = Game::new(rules);
    let mut p = new_player(Kind::Greedy, Budget::Depth(1), 0);
    while g.outcome().is_none() {
        let mv = p.choose(&g).unwrap();
        g.play(mv).unwrap();
    }
    let o = g.outcome().unwrap();
    for kind in Kind::ALL {
        let mut q = new_player(kind, Budget::Nodes(100), 0);
        assert_eq!(q.choose(&g), None);
        let a = q.analyze(&g);
        assert_eq!(a.best, None);
        assert_eq!(a.value, Value::of_outcome(&o, g.position().to_move()));
        assert_eq!(a.basis, Basis::Proven(Proof::CompleteSearch));
    }
}

#[test]
fn truncated_games_get_no_move() {
    // A ply cap stops the game without ending it: no player may move (nor panic).
    let rules = Rules::preset("oware").unwrap();
    let mut g = Game::new(rules);
    g.play_action(2).unwrap();
    g.set_ply_cap(Some(1));
    assert!(g.children().is_empty());
    for kind in Kind::ALL {
        let mut q = new_player(kind, Budget::Nodes(100), 0);
        assert_eq!(q.choose(&g), None, "{kind}");
        assert_eq!(q.analyze(&g).best, None, "{kind}");
    }
}

#[test]
fn a_node_budget_bounds_the_search_and_a_time_budget_returns() {
    let game = Game::new(Rules::preset("oware").unwrap());
    let a = AlphaBeta::new(Budget::Nodes(5_000), 0).search(&game, false);
    assert!(a.nodes <= 5_000 + 1, "{}", a.nodes);
    assert!(a.depth >= 2);
    let t = AlphaBeta::new(Budget::Time(std::time::Duration::from_millis(30)), 0).analyze(&game);
    assert!(game.is_legal(t.best.unwrap()));
    let m = Mcts::new(Budget::Time(std::time::Duration::from_millis(30)), 0).analyze(&game);
    assert!(m.nodes > 0 && game.is_legal(m.best.unwrap()));
}

#[test]
fn a_level_plays_its_budget_for_each_games_rules() {
    // One level player across games of both tables plays as one player of
    // each table's kind and budget (same seed) would, each seeing the games
    // of its own table in the same order.
    for level in Level::ALL {
        let mut player = level.player(7);
        let (sk, sb) = level.spec();
        let (ck, cb) = level.collect_four_spec();
        let shared = level.spec() == level.collect_four_spec();
        let mut standard = new_player(sk, sb, 7);
        let mut collect_four = new_player(ck, cb, 7);
        for preset in ["ayo", "oware", "ayoayo", "ayo"] {
            let rules = Rules::preset(preset).unwrap();
            let four = rules.capture() == ayo_core::Capture::CollectFour;
            let expected = if four { (ck, cb) } else { (sk, sb) };
            assert_eq!(level.spec_for(&rules), expected);
            let same = if four && !shared {
                &mut collect_four
            } else {
                &mut standard
            };
            for game in random_games(rules, 3, 10, u64::from(level.number())) {
                assert_eq!(
                    player.choose(&game),
                    same.choose(&game),
                    "{level} in {preset}"
                );
            }
        }
    }
    // Levels 2 to 8 differ between the tables; 1 and max do not.
    let differ: Vec<u8> = Level::ALL
        .iter()
        .filter(|l| l.spec() != l.collect_four_spec())
        .map(|l| l.number())
        .collect();
    assert_eq!(differ, [2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn the_opening_searched_to_a_depth_is_not_proven() {
    // The solved value of ayoayo's start is +6 (docs/solving.md); a search
    // cut off at its depth may say anything else, and says that it is a search.
    let game = Game::new(Rules::preset("ayoayo").unwrap());
    for (kind, budget) in [
        (Kind::AlphaBeta, Budget::Depth(6)),
        (Kind::AlphaBeta, Budget::Nodes(20_000)),
    ] {
        let a = new_player(kind, budget, 1).analyze(&game);
        assert_eq!(a.basis, Basis::Search { depth: a.depth }, "{kind} {budget}");
        assert_eq!(a.basis.to_string(), format!("search, depth {}", a.depth));
        assert_eq!(a.value.proven_by(a.basis), None);
        for m in &a.moves {
            assert_eq!(m.basis, a.basis, "{kind} {budget} move {}", m.mv);
        }
        // choose()'s search: the refuted moves are upper bounds of the search.
        let quick = AlphaBeta::new(budget, 1).search(&game, false);
        assert!(quick.moves.iter().all(|m| matches!(
            m.basis,
            Basis::Search { .. }
                | Basis::Bound {
                    limit: Limit::AtMost,
                    proven: false,
                    ..
                }
        )));
    }
    let m = new_player(Kind::Mcts, Budget::Nodes(300), 1).analyze(&game);
    assert_eq!(m.basis, Basis::Estimate { simulations: 300 });
    assert_eq!(m.basis.to_string(), "estimate, 300 simulations");
    let g = new_player(Kind::Greedy, Budget::Depth(1), 1).analyze(&game);
    assert_eq!(g.basis, Basis::Search { depth: 1 });
}

#[test]
fn a_complete_search_of_a_small_endgame_is_proven() {
    // Ayoayo, three seeds left: every line ends within a few plies, so the
    // search reaches only game ends and its value is the game's.
    let game = game_from(
        "ayoayo",
        [0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0],
        [23, 22],
        Player::South,
    );
    let exact = complete_minimax(&mut game.clone(), 24).expect("a small endgame ends");
    for budget in [Budget::Depth(24), Budget::Nodes(100_000)] {
        for bits in [0, 12] {
            let a = AlphaBeta::new(budget, 2)
                .with_table_bits(bits)
                .analyze(&game);
            assert_eq!(a.basis, Basis::Proven(Proof::CompleteSearch), "{budget}");
            assert_eq!(a.value.0, exact, "{budget}");
            assert_eq!(a.value.proven_by(a.basis), a.value.proven().or(Some(0)));
            for m in &a.moves {
                let mut g = game.clone();
                g.play(m.mv).unwrap();
                let v = -complete_minimax(&mut g, 24).unwrap();
                assert_eq!((m.value.0, m.basis), (v, a.basis), "{budget} {}", m.mv);
            }
        }
    }
    // At every depth: proven once plain minimax sees every line end (alpha-beta
    // without a table visits fewer lines), and then worth the game's value.
    for depth in 1..=8 {
        let a = AlphaBeta::new(Budget::Depth(depth), 2)
            .with_table_bits(0)
            .analyze(&game);
        if complete_minimax(&mut game.clone(), depth).is_some() {
            assert!(a.basis.is_proven(), "depth {depth}: {:?}", a.basis);
        }
        if a.basis.is_proven() {
            assert_eq!(a.value.0, exact, "depth {depth}");
        }
    }
}

#[test]
fn a_move_that_ends_the_game_is_proven_and_the_position_at_least_that() {
    // Oware: pit 5 captures to 26 and wins at once; the other move's value
    // rests on a search cut off at its depth, so the position is proven to
    // be worth at least the win, not exactly it.
    let game = game_from(
        "oware",
        [1, 0, 0, 0, 0, 2, 1, 2, 4, 4, 4, 4],
        [21, 5],
        Player::South,
    );
    let a = AlphaBeta::new(Budget::Depth(3), 3).analyze(&game);
    let win = a.moves.iter().find(|m| m.mv.pit() == 5).unwrap();
    assert_eq!(win.basis, Basis::Proven(Proof::CompleteSearch));
    assert_eq!(win.value.proven_by(win.basis), Some(21));
    let other = a.moves.iter().find(|m| m.mv.pit() == 0).unwrap();
    // (The search stops deepening once it has found a win.)
    assert_eq!(other.basis, Basis::Search { depth: a.depth });
    assert_eq!(
        a.basis,
        Basis::Bound {
            limit: Limit::AtLeast,
            depth: a.depth,
            proven: true
        }
    );
    assert_eq!(a.basis.bound(), Bound::Lower);
    assert_eq!(a.basis.to_string(), "at least, proven");
    assert_eq!(a.value.proven_by(a.basis), None);
    // MCTS sees the same: the winning move ends the game.
    let m = Mcts::new(Budget::Nodes(200), 3).analyze(&game);
    let win = m.moves.iter().find(|x| x.mv.pit() == 5).unwrap();
    assert_eq!(win.basis, Basis::Proven(Proof::CompleteSearch));
}
