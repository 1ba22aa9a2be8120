//! Player speed: alpha-beta nodes per second and MCTS simulations per second,
//! for `oware` (the targets: 5M nodes/s, 1M simulations/s on one core)
//! and the other presets.
//!
//! Run: `cargo bench -p ayo-core --bench players`. Each throughput line is in
//! nodes (alpha-beta) or simulations (MCTS) per second; the node or
//! simulation count of one search is fixed by its budget and printed first.

#![allow(missing_docs)] // criterion_group! generates undocumented functions.

use std::hint::black_box;

use ayo_core::players::{Agent, AlphaBeta, Budget, Mcts};
use ayo_core::{Game, Preset};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The start and a few seeded middle-game positions (12 random plies in).
fn positions(preset: Preset) -> Vec<Game> {
    let rules = preset.rules();
    let mut out = vec![Game::new(rules)];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    while out.len() < 4 {
        let mut g = Game::new(rules);
        for _ in 0..12 {
            let m = g.legal_moves();
            if m.is_empty() {
                break;
            }
            g.play(m[rng.random_range(0..m.len())]).expect("legal");
        }
        if g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

fn alphabeta(c: &mut Criterion) {
    let mut g = c.benchmark_group("alphabeta_nodes");
    g.sample_size(10);
    for preset in Preset::ALL {
        let games = positions(preset);
        let budget = Budget::Nodes(200_000);
        let nodes: u64 = games
            .iter()
            .map(|gm| AlphaBeta::new(budget, 1).search(gm, false).nodes)
            .sum();
        println!("alphabeta {preset}: {nodes} nodes per iteration (4 searches of {budget})");
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(preset.name(), |b| {
            b.iter(|| {
                for gm in &games {
                    black_box(AlphaBeta::new(budget, 1).search(gm, false));
                }
            })
        });
    }
    g.finish();
}

fn mcts(c: &mut Criterion) {
    let mut g = c.benchmark_group("mcts_simulations");
    g.sample_size(10);
    for preset in Preset::ALL {
        let games = positions(preset);
        let sims = 5_000u64;
        for (label, cutoff) in [("full", None), ("cutoff20", Some(20))] {
            g.throughput(Throughput::Elements(sims * games.len() as u64));
            g.bench_function(format!("{}/{label}", preset.name()), |b| {
                b.iter(|| {
                    for gm in &games {
                        black_box(
                            Mcts::new(Budget::Nodes(sims), 1)
                                .with_cutoff(cutoff)
                                .analyze(gm),
                        );
                    }
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, alphabeta, mcts);
criterion_main!(benches);
