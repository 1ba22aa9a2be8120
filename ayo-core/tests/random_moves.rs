//! The random movers (`playout::random_playout`'s first move and
//! `LeanGame::play_random`) choose uniformly among the legal moves: every
//! draw is legal, every legal move is drawn, and the counts pass a chi-square
//! test (fixed seeds, so the verdict is the same on every run).

use ayo_core::{playout, Game, LeanGame, Position, Preset, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Draws a move for each `k` legal moves of a position.
const DRAWS_PER_MOVE: usize = 2_000;

/// Chi-square critical values at p = 0.0001 for 1..=5 degrees of freedom: a
/// fair mover fails one position in 10,000.
const CRITICAL: [f64; 5] = [15.14, 18.42, 21.11, 23.51, 25.74];

/// Counts how often each legal child of `pos` was drawn by `draw`, and checks
/// that nothing else was, and that the counts look uniform.
fn check_uniform(
    what: &str,
    rules: &Rules,
    pos: &Position,
    mut draw: impl FnMut(&mut Xoshiro256PlusPlus) -> Position,
) {
    let children = pos.children(rules);
    let k = children.len();
    if k < 2 {
        return;
    }
    let n = DRAWS_PER_MOVE * k;
    let mut counts = vec![0usize; k];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(pos.hash());
    for _ in 0..n {
        let next = draw(&mut rng);
        let i = children
            .iter()
            .position(|&(_, child)| child == next)
            .unwrap_or_else(|| panic!("{what}: {next:?} is not a legal child of {pos:?}"));
        counts[i] += 1;
    }
    let expected = n as f64 / k as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(
        chi2 < CRITICAL[k - 2],
        "{what}: counts {counts:?} are not uniform (chi-square {chi2:.1}, {} dof) at {pos:?}",
        k - 1
    );
}

/// Positions from seeded random games of `rules`, every `step` plies.
fn positions(rules: &Rules, games: u64, step: u32) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut game = Game::new(*rules);
        while game.outcome().is_none() && game.position().ply() < 300 {
            if game.position().ply().is_multiple_of(step) {
                out.push(*game.position());
            }
            let moves = game.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).unwrap();
        }
    }
    out
}

fn check_both(rules: &Rules, pos: &Position) {
    check_uniform("random_playout", rules, pos, |rng| {
        playout::random_playout(rules, *pos, rng, 1).last
    });
    let lean = LeanGame::new(*rules, *pos);
    check_uniform("LeanGame::play_random", rules, pos, |rng| {
        let mut game = lean.clone();
        game.play_random(rng).expect("a legal move");
        *game.position()
    });
}

#[test]
fn random_moves_are_uniform_in_every_preset() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        for pos in positions(&rules, 4, 13) {
            check_both(&rules, &pos);
        }
    }
}

#[test]
fn random_moves_strike_off_endless_relays_uniformly() {
    // the rules' (docs/rules.md) worked example: North's pit 7 is an endless relay, pits 6, 9,
    // 10 and 11 are legal.
    let rules = Rules::preset("ayoayo").unwrap();
    let (_, pos) =
        ayo_core::record::parse_position("ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 0").unwrap();
    let children = pos.children(&rules);
    assert_eq!(children.len(), 4);
    check_both(&rules, &pos);
}

#[test]
fn random_moves_are_uniform_under_every_feeding_rule() {
    // Ayoayo under each feeding rule, at positions where it binds and where
    // it does not: South to move. North's row empty: pit 0 (1) -> 1 does
    // not feed, pits 4 (2) and 5 (3) reach North's row and feed. North's
    // seeds all in pit 10: pit 0 (1) -> 1 captures them across (starves
    // North), pit 4 (1) relays from 5 into North's row, pit 5 (1) ends
    // there.
    let fed = [
        "ayoayo 1,0,0,0,2,3/0,0,0,0,0,0 21-21 s 0 0",
        "ayoayo 1,0,0,0,1,1/0,0,0,0,3,0 21-21 s 0 0",
    ];
    for feeding in ["off", "strict", "if_possible", "no_starving"] {
        let mut p = Rules::preset("ayoayo").unwrap().params();
        p.set("feeding", feeding).unwrap();
        let rules = Rules::new(p).unwrap();
        for text in fed {
            let (_, pos) = ayo_core::record::parse_position(text).unwrap();
            check_both(&rules, &pos);
        }
        for pos in positions(&rules, 2, 11) {
            check_both(&rules, &pos);
        }
    }
}
