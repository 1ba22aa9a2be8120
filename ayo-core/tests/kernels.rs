//! Every CPU kernel this machine has (`ayo_core::kernel`; the scalar one
//! everywhere) plays exactly as the scalar kernel: random playouts, legal
//! moves and children, and the batch step.

use ayo_core::episode::{step_batch_on, Checked, Episode, EpisodeOptions, Step};
use ayo_core::kernel::{self, Kernel};
use ayo_core::{each_children, playout, LeanGame, Position, Rules};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

mod strategy;
use strategy::any_rules;

/// Seeded random playouts from the start, run by `kernel`.
fn playouts(kernel: Kernel, rules: &Rules, seed: u64) -> Vec<playout::Playout> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..8)
        .map(|_| playout::random_playout_on(kernel, rules, Position::start(rules), &mut rng, 400))
        .collect()
}

/// The positions of a seeded random game.
fn random_positions(rules: &Rules, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::start(rules);
    let mut out = vec![pos];
    for _ in 0..300 {
        let children = pos.children(rules);
        if children.is_empty() {
            break;
        }
        pos = children[rng.random_range(0..children.len())].1;
        out.push(pos);
    }
    out
}

/// One step of a batch: the game, the position after it, and what it did.
type Logged = (usize, Position, Step);

/// `games` episodes stepped together `steps` times by `kernel`, each with a
/// random legal action drawn from `seed`.
fn batch_log(kernel: Kernel, opts: &EpisodeOptions, seed: u64, games: usize) -> Vec<Logged> {
    let mut episodes: Vec<Episode<LeanGame>> = (0..games as u64)
        .map(|i| Episode::new(opts, seed.wrapping_add(i)))
        .collect();
    for ep in &mut episodes {
        ep.reset(opts, None);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut log = Vec::new();
    for _ in 0..60 {
        let actions: Vec<Checked> = episodes
            .iter_mut()
            .map(|ep| {
                let legal = ep.observe(opts).legal;
                let k = rng.random_range(0..legal.count_ones().max(1)) as usize;
                let a = (0..6u8).filter(|a| legal & (1 << a) != 0).nth(k);
                a.map_or(Checked::Penalized(0), Checked::Legal)
            })
            .collect();
        step_batch_on(
            kernel,
            opts,
            &mut episodes,
            |i| actions[i],
            |i, ep, step, _| log.push((i, *ep.game().position(), *step)),
        );
    }
    log
}

#[test]
fn the_active_kernel_is_one_the_cpu_has() {
    let active = kernel::active();
    assert!(Kernel::available().contains(&active));
    // Unset, the setting means the best kernel; set, the one it names.
    match std::env::var(kernel::KERNEL_ENV) {
        Ok(name) if !name.trim().is_empty() => assert_eq!(active.name(), name.trim()),
        _ => assert_eq!(active, Kernel::best()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_kernel_plays_the_same_playouts(rules in any_rules(), seed in any::<u64>()) {
        let scalar = playouts(Kernel::SCALAR, &rules, seed);
        for k in Kernel::available() {
            prop_assert_eq!(&playouts(k, &rules, seed), &scalar, "kernel {}", k);
        }
    }

    #[test]
    fn every_kernel_finds_the_children(rules in any_rules(), seed in any::<u64>()) {
        let positions = random_positions(&rules, seed);
        for k in Kernel::available() {
            let mut seen = Vec::new();
            each_children(k, &rules, positions.iter().copied(), |p, c| seen.push((*p, c.clone())));
            let want: Vec<_> = positions.iter().map(|p| (*p, p.children(&rules))).collect();
            prop_assert_eq!(&seen, &want, "kernel {}", k);
        }
    }

    #[test]
    fn every_kernel_steps_the_same_batch(rules in any_rules(), seed in any::<u64>()) {
        let mut opts = EpisodeOptions::new(rules);
        opts.max_steps = Some(40);
        let scalar = batch_log(Kernel::SCALAR, &opts, seed, 24);
        for k in Kernel::available() {
            prop_assert_eq!(&batch_log(k, &opts, seed, 24), &scalar, "kernel {}", k);
        }
    }
}
