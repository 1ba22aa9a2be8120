//! The guided search's tests through its public interface.

use rand::{Rng as _, SeedableRng};

use super::*;
use crate::games::random_move::Rng;
use crate::{Game, Position, Rules};

const PRESETS: [&str; 4] = ["ayoayo", "ayo", "olopon", "oware"];

fn uniform(_: &[f32], _: &[bool], logits: &mut [f32], values: &mut [f32]) {
    logits.fill(0.0);
    values.fill(0.0);
}

/// Games of `rules` after a few random moves each.
fn games(rules: Rules, n: usize, seed: u64) -> Vec<LeanGame> {
    let mut rng = Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let mut g = LeanGame::new(rules, Position::start(&rules));
            for _ in 0..i % 9 {
                if g.outcome().is_some() {
                    break;
                }
                let before = g.clone();
                g.play_random(&mut rng);
                if g.outcome().is_some() {
                    g = before;
                    break;
                }
            }
            g
        })
        .collect()
}

fn gumbel(simulations: u64) -> SearchOptions {
    SearchOptions {
        selection: Selection::Gumbel(Gumbel::default()),
        ..SearchOptions::new(simulations)
    }
}

#[test]
fn a_uniform_network_gives_legal_policies_summing_to_one() {
    for preset in PRESETS {
        let rules = Rules::preset(preset).unwrap();
        let mut batch = games(rules, 10, 1);
        for opts in [SearchOptions::new(24), gumbel(24)] {
            let mut s = GuidedSearch::new(opts).unwrap();
            s.start(&batch).unwrap();
            let results = s.run(uniform).unwrap().to_vec();
            for (g, r) in batch.iter_mut().zip(results) {
                let legal = g.legal_mask();
                assert!(legal & (1 << r.action) != 0, "{preset}: {r:?}");
                for a in 0..6 {
                    if legal & (1 << a) == 0 {
                        assert_eq!(r.policy[a], 0.0);
                        assert_eq!(r.visits[a], 0);
                    }
                    assert!(r.policy[a] >= 0.0);
                }
                assert!((r.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{r:?}");
                assert_eq!(r.visits.iter().sum::<u32>(), 24);
                assert!((-1.0..=1.0).contains(&r.value));
            }
        }
    }
}

#[test]
fn rounds_hand_out_at_most_one_leaf_a_tree_with_its_mask() {
    let rules = Rules::preset("ayoayo").unwrap();
    let mut batch = games(rules, 7, 4);
    let mut s = GuidedSearch::new(SearchOptions::new(10)).unwrap();
    s.start(&batch).unwrap();
    let mut rounds = 0;
    let mut first = true;
    loop {
        let n = s.ask();
        // Asked again, the same leaves.
        assert_eq!(s.ask(), n);
        if n == 0 {
            break;
        }
        rounds += 1;
        let leaves = s.leaves();
        assert_eq!(leaves.games.len(), n);
        assert_eq!(leaves.obs.len(), n * OBS);
        assert!(leaves.games.windows(2).all(|w| w[0] < w[1]));
        if first {
            // The first round is every root: the environments' observation.
            assert_eq!(n, batch.len());
            for (r, g) in batch.iter_mut().enumerate() {
                let pos = *g.position();
                let view = pos.view(pos.to_move()).map(f32::from);
                assert_eq!(&leaves.obs[r * OBS..(r + 1) * OBS], &view);
                let mask = &leaves.mask[r * ACTIONS..(r + 1) * ACTIONS];
                assert_eq!(
                    mask,
                    &crate::observation::MASK_BOOL[usize::from(g.legal_mask())]
                );
            }
            first = false;
        }
        s.tell(&vec![0.0; n * ACTIONS], &vec![0.0; n]).unwrap();
    }
    assert!(rounds <= 11, "{rounds} rounds");
    assert!(s.is_done());
}

#[test]
fn the_same_seed_searches_the_same() {
    let rules = Rules::preset("oware").unwrap();
    let batch = games(rules, 6, 8);
    // A network that is not uniform: logits and values from the observation.
    let net = |obs: &[f32], _: &[bool], l: &mut [f32], v: &mut [f32]| {
        for (r, v) in v.iter_mut().enumerate() {
            let o = &obs[r * OBS..(r + 1) * OBS];
            *v = ((o[12] - o[13]) / 10.0).tanh();
            for a in 0..ACTIONS {
                l[r * ACTIONS + a] = o[a] * 0.1;
            }
        }
    };
    for opts in [SearchOptions::new(40), gumbel(40)] {
        let run = |seed| {
            let mut s = GuidedSearch::new(SearchOptions { seed, ..opts }).unwrap();
            s.start(&batch).unwrap();
            s.run(net).unwrap().to_vec()
        };
        assert_eq!(run(5), run(5));
        // A search object reused gives what a fresh one gives from its seed.
        let mut s = GuidedSearch::new(SearchOptions { seed: 5, ..opts }).unwrap();
        s.start(&batch).unwrap();
        let first = s.run(net).unwrap().to_vec();
        assert_eq!(first, run(5));
    }
}

/// A position where the mover has a move that wins at once and a move that
/// does not.
fn winning_positions(rules: Rules, wanted: usize) -> Vec<(Game, u8)> {
    let mut rng = Rng::seed_from_u64(17);
    let mut out = Vec::new();
    while out.len() < wanted {
        let mut game = Game::new(rules);
        while game.outcome().is_none() && !game.legal_moves().is_empty() {
            let me = game.position().to_move();
            let mut wins = 0u8;
            let mut others = 0;
            for mv in game.legal_moves() {
                game.play(mv).unwrap();
                match game.outcome() {
                    Some(o) if o.winner == Some(me) => wins |= 1 << mv.action(),
                    _ => others += 1,
                }
                game.undo();
            }
            if wins != 0 && others > 0 {
                out.push((game.clone(), wins));
                break;
            }
            let legal = game.legal_moves().to_vec();
            game.play(legal[rng.random_range(0..legal.len())]).unwrap();
        }
    }
    out
}

#[test]
fn a_winning_move_is_found() {
    for preset in PRESETS {
        let rules = Rules::preset(preset).unwrap();
        let found = winning_positions(rules, 6);
        let batch: Vec<LeanGame> = found.iter().map(|(g, _)| LeanGame::from_game(g)).collect();
        let puct = SearchOptions {
            selection: Selection::Puct(Puct {
                dirichlet_fraction: 0.0,
                temperature: 0.0,
                ..Puct::default()
            }),
            ..SearchOptions::new(64)
        };
        let gumbel = SearchOptions {
            selection: Selection::Gumbel(Gumbel {
                gumbel_scale: 0.0,
                ..Gumbel::default()
            }),
            ..SearchOptions::new(64)
        };
        for opts in [puct, gumbel] {
            let mut s = GuidedSearch::new(opts).unwrap();
            s.start(&batch).unwrap();
            for ((_, wins), r) in found.iter().zip(s.run(uniform).unwrap()) {
                assert!(wins & (1 << r.action) != 0, "{preset} {opts:?}: {r:?}");
                assert!(r.value > 0.0, "{preset}: {r:?}");
            }
        }
    }
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let rules = Rules::preset("ayo").unwrap();
    let bad = |o: SearchOptions| GuidedSearch::new(o).err().unwrap();
    assert!(matches!(bad(SearchOptions::new(0)), SearchError::Budget(_)));
    let nan = SearchOptions {
        selection: Selection::Puct(Puct {
            c_puct: f32::NAN,
            ..Puct::default()
        }),
        ..SearchOptions::new(4)
    };
    assert!(bad(nan).to_string().starts_with("c_puct must be"));
    let zero = SearchOptions {
        selection: Selection::Gumbel(Gumbel {
            max_considered: 0,
            ..Gumbel::default()
        }),
        ..SearchOptions::new(4)
    };
    assert!(matches!(
        bad(zero),
        SearchError::Option {
            name: "max_considered",
            ..
        }
    ));

    let mut s = GuidedSearch::new(SearchOptions::new(4)).unwrap();
    assert_eq!(s.start(&[]), Err(SearchError::Batch(0)));
    let huge = GuidedSearch::new(SearchOptions::new(1_000_000_000))
        .unwrap()
        .start(&games(rules, 1, 0));
    assert!(
        matches!(huge, Err(SearchError::TooLarge { .. })),
        "{huge:?}"
    );
    // Nothing started: no results, and none awaited.
    assert_eq!(s.results().unwrap().len(), 0);

    // A game over.
    let mut over = LeanGame::new(rules, Position::start(&rules));
    let mut rng = Rng::seed_from_u64(1);
    while over.play_random(&mut rng).is_some() {}
    let mut batch = games(rules, 3, 2);
    batch.push(over);
    assert_eq!(s.start(&batch), Err(SearchError::GameOver(3)));

    let batch = games(rules, 3, 2);
    s.start(&batch).unwrap();
    assert_eq!(s.tell(&[], &[]), Err(SearchError::NotAsked));
    assert_eq!(s.results().err(), Some(SearchError::NotDone));
    assert_eq!(s.ask(), 3);
    assert!(matches!(
        s.tell(&[0.0; 12], &[0.0; 3]),
        Err(SearchError::Shape { what: "logits", .. })
    ));
    assert!(matches!(
        s.tell(&[0.0; 18], &[0.0; 2]),
        Err(SearchError::Shape { what: "values", .. })
    ));
    for v in [f32::NAN, 1.5, -2.0, f32::INFINITY] {
        let e = s.tell(&[0.0; 18], &[0.0, v, 0.0]).unwrap_err();
        assert!(matches!(e, SearchError::BadNumber { leaf: 1, .. }), "{e}");
    }
    // Every action of the start is legal: a NaN logit is refused; an
    // illegal action's logit may be anything (-inf, NaN).
    let mut l = [0.0; 18];
    l[7] = f32::NAN;
    assert!(s
        .tell(&l, &[0.0; 3])
        .unwrap_err()
        .to_string()
        .contains("logit of legal action 1"));
    // Nothing changed: the same leaves, and a good answer is taken.
    assert_eq!(s.ask(), 3);
    s.tell(&[0.0; 18], &[1.0 + 5e-5, -1.0, 0.5]).unwrap();
    assert!(!s.is_done());
}

#[test]
fn illegal_actions_logits_are_ignored() {
    let rules = Rules::preset("olopon").unwrap();
    let batch = games(rules, 8, 3);
    let run = |masked: bool| {
        let mut s = GuidedSearch::new(gumbel(16)).unwrap();
        s.start(&batch).unwrap();
        s.run(|_, mask, l, v| {
            for (i, x) in l.iter_mut().enumerate() {
                *x = if masked && !mask[i] {
                    f32::NEG_INFINITY
                } else {
                    (i % 5) as f32
                };
            }
            v.fill(0.1);
        })
        .unwrap()
        .to_vec()
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn self_play_gives_consistent_rows() {
    for (preset, values) in [
        ("ayo", Values::Outcome),
        ("oware", Values::SeedDifference),
        ("olopon", Values::Outcome),
        ("ayoayo", Values::Outcome),
    ] {
        let rules = Rules::preset(preset).unwrap();
        let opts = SelfPlayOptions {
            games: 4,
            max_plies: 300,
            temperature_plies: 8,
        };
        let search = SearchOptions {
            values,
            ..SearchOptions::new(8)
        };
        let mut sp = SelfPlay::new(rules, search, opts).unwrap();
        assert!(sp.data().is_err());
        let d = sp.run(uniform).unwrap().clone();
        let rows = d.game.len();
        assert_eq!(rows, d.plies.iter().sum::<u32>() as usize);
        assert_eq!(
            (d.obs.len(), d.mask.len(), d.policy.len(), d.outcome.len()),
            (rows * OBS, rows * ACTIONS, rows * ACTIONS, rows)
        );
        for r in 0..rows {
            let p = &d.policy[r * ACTIONS..(r + 1) * ACTIONS];
            let m = &d.mask[r * ACTIONS..(r + 1) * ACTIONS];
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(p.iter().zip(m).all(|(&p, &m)| m || p == 0.0));
            let g = d.game[r] as usize;
            match d.outcomes[g] {
                None => assert_eq!(d.outcome[r], 0.0),
                Some(o) => {
                    assert!((-1.0..=1.0).contains(&d.outcome[r]));
                    if o.winner.is_none() {
                        assert_eq!(d.outcome[r], 0.0);
                    } else {
                        assert_ne!(d.outcome[r], 0.0);
                    }
                }
            }
        }
        // Consecutive rows of a game alternate their outcome's sign when
        // the movers alternate (every preset passes the turn).
        for g in 0..4u32 {
            let ids: Vec<usize> = (0..rows).filter(|&r| d.game[r] == g).collect();
            assert_eq!(ids.len(), d.plies[g as usize] as usize);
            for w in ids.windows(2) {
                assert_eq!(d.outcome[w[0]], -d.outcome[w[1]]);
                assert_eq!(d.ply[w[0]] + 1, d.ply[w[1]]);
            }
        }
    }
}

#[test]
fn self_play_is_reproducible_and_ends_every_game() {
    let rules = Rules::preset("oware").unwrap();
    let opts = SelfPlayOptions {
        games: 3,
        max_plies: 30,
        temperature_plies: 4,
    };
    let run = || {
        let mut sp = SelfPlay::new(rules, gumbel(6), opts).unwrap();
        sp.run(uniform).unwrap().clone()
    };
    let d = run();
    assert_eq!(d, run());
    assert!(d.plies.iter().all(|&p| (1..=30).contains(&p)));
    for (o, &p) in d.outcomes.iter().zip(&d.plies) {
        assert!(o.is_some() || p == 30);
    }
    let bad = SelfPlayOptions {
        max_plies: 0,
        ..opts
    };
    assert!(SelfPlay::new(rules, gumbel(6), bad).is_err());
    let none = SelfPlayOptions { games: 0, ..opts };
    assert!(matches!(
        SelfPlay::new(rules, gumbel(6), none),
        Err(SearchError::Batch(0))
    ));
}

#[test]
fn prepare_keeps_a_search_under_way_and_a_failed_start_leaves_no_batch() {
    let rules = Rules::preset("oware").unwrap();
    let batch = games(rules, 3, 6);
    let mut s = GuidedSearch::new(SearchOptions::new(6)).unwrap();
    s.start(&batch).unwrap();
    assert_eq!(s.ask(), 3);
    // Room for more games, asked in the middle of a search: nothing lost.
    s.prepare(40).unwrap();
    assert_eq!(s.leaves().games, &[0, 1, 2]);
    s.tell(&[0.0; 18], &[0.0; 3]).unwrap();
    let done = s.run(uniform).unwrap().to_vec();
    let mut fresh = GuidedSearch::new(SearchOptions::new(6)).unwrap();
    fresh.start(&batch).unwrap();
    assert_eq!(fresh.run(uniform).unwrap(), &done[..]);
    // A start refused: no batch, nothing asked.
    assert_eq!(s.start(&[]), Err(SearchError::Batch(0)));
    assert_eq!((s.len(), s.ask()), (0, 0));
    assert_eq!(s.results().unwrap().len(), 0);
}

#[test]
fn gumbel_visits_follow_sequential_halving() {
    // Six legal actions at the start of oware: mctx's sequence for 6
    // actions and 16 simulations gives every action one visit, then three
    // a second, then two of those four more, one a fifth and a sixth:
    // visits 6, 5, 2, 1, 1, 1. With 8 simulations: 2, 2, 1, 1, 1, 1.
    let rules = Rules::preset("oware").unwrap();
    let start = vec![LeanGame::new(rules, Position::start(&rules))];
    for (sims, want) in [(16, [6, 5, 2, 1, 1, 1]), (8, [2, 2, 1, 1, 1, 1])] {
        let mut s = GuidedSearch::new(gumbel(sims)).unwrap();
        s.start(&start).unwrap();
        let r = s.run(uniform).unwrap()[0];
        let mut visits = r.visits;
        visits.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(visits, want, "{sims} simulations: {:?}", r.visits);
        // The chosen action is among the most visited.
        assert_eq!(r.visits[usize::from(r.action)], want[0]);
    }
}

#[test]
fn the_seed_reaches_the_search_only_through_its_noise() {
    let rules = Rules::preset("ayoayo").unwrap();
    let batch = games(rules, 4, 12);
    let visits = |seed: u64, fraction: f32| {
        let opts = SearchOptions {
            selection: Selection::Puct(Puct {
                dirichlet_fraction: fraction,
                temperature: 0.0,
                ..Puct::default()
            }),
            seed,
            ..SearchOptions::new(48)
        };
        let mut s = GuidedSearch::new(opts).unwrap();
        s.start(&batch).unwrap();
        let r = s.run(uniform).unwrap();
        r.iter().map(|r| r.visits).collect::<Vec<_>>()
    };
    // No noise, no temperature: the seed changes nothing.
    assert_eq!(visits(1, 0.0), visits(2, 0.0));
    // Full noise: the seeds search differently.
    assert_ne!(visits(1, 1.0), visits(2, 1.0));
}

#[test]
fn short_buffers_are_refused() {
    let rules = Rules::preset("oware").unwrap();
    let mut s = GuidedSearch::new(SearchOptions::new(2)).unwrap();
    s.start(&games(rules, 2, 1)).unwrap();
    let (mut obs, mut mask) = ([0.0f32; 2 * OBS], [false; 2 * ACTIONS]);
    let e = s.ask_into(&mut obs[..OBS], &mut mask).unwrap_err();
    assert!(matches!(e, SearchError::Shape { what: "obs", .. }), "{e}");
    let e = s.ask_into(&mut obs, &mut mask[..3]).unwrap_err();
    assert!(matches!(e, SearchError::Shape { what: "mask", .. }), "{e}");
    assert_eq!(s.ask_into(&mut obs, &mut mask), Ok(2));
    let opts = SelfPlayOptions {
        games: 2,
        max_plies: 4,
        temperature_plies: 0,
    };
    let mut sp = SelfPlay::new(rules, SearchOptions::new(2), opts).unwrap();
    assert!(sp.ask_into(&mut obs[..5], &mut mask).is_err());
}
