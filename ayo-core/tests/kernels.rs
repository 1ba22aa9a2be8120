//! Every CPU kernel this machine has (`ayo_core::kernel`; the scalar one
//! everywhere) plays exactly as the scalar kernel: random playouts and
//! children (the lane engine's kernels: tests/lanes.rs).

use ayo_core::kernel::{self, Kernel};
use ayo_core::{each_children, playout, Position, Rules};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::strategy::any_rules;

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
}
