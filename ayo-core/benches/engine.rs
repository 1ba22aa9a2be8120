//! Engine speed: random playouts (moves per second) for each preset, legal-move
//! generation plus play, perft, and the cost of copying a position.
//!
//! Run: `cargo bench -p ayo-core --bench engine`. Each throughput line is in
//! moves (or perft leaves) per second; criterion reports the median estimate.
//! The first lines name the CPU and the kernel the loops run (`AYO_KERNEL`
//! forces one: see `ayo_core::kernel`).

#![allow(missing_docs)] // criterion_group! generates undocumented functions.

use std::cell::Cell;
use std::hint::black_box;

use ayo_core::episode::{step_batch, Checked, Episode, EpisodeOptions};
use ayo_core::{kernel, playout, trace, LeanGame, Position, Preset, Rules};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

// The timers' shared helpers (the CPU line), from the ayo-bench crate's library.
#[allow(dead_code, unused_imports)]
#[path = "../../bench/src/lib.rs"]
mod ayo_bench;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const GAMES: u64 = 200;
const MAX_PLIES: u32 = 2_000;

/// Moves played by `GAMES` seeded random playouts (fixed, so throughput is exact).
fn playout_moves(rules: &Rules) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    (0..GAMES)
        .map(|_| {
            u64::from(
                playout::random_playout(rules, Position::start(rules), &mut rng, MAX_PLIES).plies,
            )
        })
        .sum()
}

/// One random game choosing among fully generated children (every candidate sown).
fn children_game(rules: &Rules, rng: &mut Xoshiro256PlusPlus) -> u64 {
    let mut pos = Position::start(rules);
    let mut n = 0;
    loop {
        let ch = pos.children(rules);
        if ch.is_empty() || n >= u64::from(MAX_PLIES) {
            return n;
        }
        pos = ch[rng.random_range(0..ch.len())].1;
        n += 1;
    }
}

/// Not timed: the machine and the kernel, for the figures that follow.
fn machine(_: &mut Criterion) {
    let cpu = ayo_bench::cpu_model();
    println!("cpu: {cpu}");
    match kernel::configured() {
        Ok(k) => println!("kernel: {k} ({})", k.features()),
        Err(e) => println!("kernel: scalar ({e})"),
    }
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_playout");
    g.sample_size(20);
    for preset in Preset::ALL {
        let rules = preset.rules();
        let moves = playout_moves(&rules);
        g.throughput(Throughput::Elements(moves));
        g.bench_function(preset.name(), |b| {
            b.iter(|| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
                for _ in 0..GAMES {
                    black_box(playout::random_playout(
                        &rules,
                        Position::start(&rules),
                        &mut rng,
                        MAX_PLIES,
                    ));
                }
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("children_playout");
    g.sample_size(20);
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let moves: u64 = (0..GAMES).map(|_| children_game(&rules, &mut rng)).sum();
        g.throughput(Throughput::Elements(moves));
        g.bench_function(preset.name(), |b| {
            b.iter(|| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
                for _ in 0..GAMES {
                    black_box(children_game(&rules, &mut rng));
                }
            })
        });
    }
    g.finish();
}

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (preset, depth) in [
        (Preset::Ayoayo, 7),
        (Preset::Ayo, 7),
        (Preset::Olopon, 8),
        (Preset::Oware, 8),
    ] {
        let rules = preset.rules();
        let start = Position::start(&rules);
        let leaves = playout::perft(&rules, &start, depth);
        println!("perft {} depth {depth}: {leaves} leaves", preset.name());
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("{}/{depth}", preset.name()), |b| {
            b.iter(|| playout::perft(&rules, black_box(&start), depth))
        });
    }
    g.finish();
}

fn copy(c: &mut Criterion) {
    let rules = Preset::Ayoayo.rules();
    let positions: Vec<Position> = vec![Position::start(&rules); 1024];
    let mut g = c.benchmark_group("copy");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("position_x1024", |b| {
        b.iter_batched_ref(
            || vec![Position::start(&rules); 1024],
            |dst| dst.copy_from_slice(black_box(&positions)),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// Not timed: prints the average number of laps per move in random play.
fn laps(_: &mut Criterion) {
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut moves, mut laps, mut longest) = (0u64, 0u64, 0u32);
        for _ in 0..200 {
            let mut pos = Position::start(&rules);
            for _ in 0..MAX_PLIES {
                let ch = pos.children(&rules);
                if ch.is_empty() {
                    break;
                }
                let (mv, next) = ch[rng.random_range(0..ch.len())];
                let (t, _) = trace::trace(&rules, &pos, mv).expect("legal");
                moves += 1;
                laps += u64::from(t.laps);
                longest = longest.max(t.laps);
                pos = next;
            }
        }
        println!(
            "laps per move {}: {:.2} average, {longest} longest, over {moves} moves",
            preset.name(),
            laps as f64 / moves as f64
        );
    }
}

/// Batched environment steps on [`LeanGame`]s, as `ayo.vector` does them:
/// for each of 1,024 games, the agent's random legal move, the opponent's
/// random reply and the next legal mask (a new game when one ends).
fn lean_batch(c: &mut Criterion) {
    const N: usize = 1024;
    const STEPS: usize = 100;
    let mut g = c.benchmark_group("lean_batch_1024");
    g.sample_size(20);
    g.throughput(Throughput::Elements((N * STEPS) as u64));
    for preset in [Preset::Oware, Preset::Ayoayo] {
        let rules = preset.rules();
        let start = Position::start(&rules);
        let mut games: Vec<LeanGame> = (0..N).map(|_| LeanGame::new(rules, start)).collect();
        let mut rngs: Vec<Xoshiro256PlusPlus> = (0..N as u64)
            .map(Xoshiro256PlusPlus::seed_from_u64)
            .collect();
        g.bench_function(preset.name(), |b| {
            b.iter(|| {
                for _ in 0..STEPS {
                    for (game, rng) in games.iter_mut().zip(rngs.iter_mut()) {
                        if game.play_random(rng).is_none() || game.play_random(rng).is_none() {
                            game.reset(start);
                        }
                        black_box(game.legal_mask());
                    }
                }
            })
        });
    }
    g.finish();
}

/// The batch step of `ayo.vector` without its rows ([`step_batch`]): 1,024
/// episodes against the random opponent, each stepped with the first legal
/// action (autoreset on the step after an end).
fn episode_batch(c: &mut Criterion) {
    const N: usize = 1024;
    const STEPS: usize = 100;
    let mut g = c.benchmark_group("episode_batch_1024");
    g.sample_size(20);
    g.throughput(Throughput::Elements((N * STEPS) as u64));
    for preset in [Preset::Oware, Preset::Ayoayo] {
        let opts = EpisodeOptions::new(preset.rules());
        let mut episodes: Vec<Episode<LeanGame>> =
            (0..N as u64).map(|s| Episode::new(&opts, s)).collect();
        for ep in &mut episodes {
            ep.reset(&opts, None);
        }
        let mut legal: Vec<u8> = episodes
            .iter_mut()
            .map(|ep| ep.observe(&opts).legal)
            .collect();
        g.bench_function(preset.name(), |b| {
            b.iter(|| {
                let legal = Cell::from_mut(&mut legal[..]).as_slice_of_cells();
                for _ in 0..STEPS {
                    step_batch(
                        &opts,
                        &mut episodes,
                        |i| Checked::Legal(legal[i].get().trailing_zeros().min(5) as u8),
                        |i, ep, _, _| legal[i].set(ep.observe(&opts).legal),
                    );
                }
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    machine,
    laps,
    playouts,
    perft,
    copy,
    lean_batch,
    episode_batch
);
criterion_main!(benches);
