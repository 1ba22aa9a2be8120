//! Fixed workloads for counting instructions with callgrind (repeatable on
//! a loaded machine, unlike wall-clock time); docs/benchmarks.md has the
//! commands and the figures.
//!
//! ```text
//! cargo build --release -p ayo-bench --bin instructions
//! AYO_KERNEL=avx2 valgrind --tool=callgrind target/release/instructions batch oware 100
//! ```
//!
//! `batch PRESET STEPS`: 1,024 episodes against the random opponent stepped
//! STEPS times by the batch step (`ayo_core::episode::step_batch`), the
//! agent playing its first legal action; `rows PRESET STEPS`: the same on
//! the lanes path with the kernel (in turn with `avx2`, which the lanes are
//! not built for), writing the batched environment's
//! rows (`step_batch_rows_on`); `lean PRESET STEPS`: 1,024 lean
//! games stepped STEPS times by two random moves and a legal mask (the
//! criterion group `lean_batch_1024`); `playout PRESET GAMES`: GAMES random
//! playouts from the start; `lanes PRESET ROUNDS` and `sow PRESET ROUNDS`:
//! the 1,024 moves of random games sown ROUNDS times by the lane engine
//! (`ayo_core::lanes::sow_moves`) or one by one by the scalar path. Prints the kernel and the work done (env-steps or
//! moves); the instructions of one unit are the difference of two runs'
//! totals over the difference of their work, which cancels the set-up.

use std::cell::Cell;

use ayo_core::episode::{
    step_batch, step_batch_rows_on, BatchPath, Checked, Episode, EpisodeOptions, OwnedRows,
    RowsError,
};
use ayo_core::{kernel, lanes, playout, LeanGame, Position, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const GAMES: usize = 1024;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: instructions batch|rows|lean|playout|lanes|sow PRESET COUNT";
    let (what, preset, count) = match args.as_slice() {
        [_, what, preset, count] => (what.as_str(), preset, count.parse::<u64>()?),
        _ => return Err(usage.into()),
    };
    let rules = Rules::preset(preset)?;
    let k = kernel::configured()?;
    let work = match what {
        "batch" => batch(rules, count),
        "rows" => batch_rows(rules, count)?,
        "lean" => lean(rules, count),
        "playout" => playouts(&rules, count),
        "lanes" => sow_rounds(&rules, count, true),
        "sow" => sow_rounds(&rules, count, false),
        _ => return Err(usage.into()),
    };
    println!("kernel {k}: {what} {preset}: {work} units");
    Ok(())
}

fn batch(rules: Rules, steps: u64) -> u64 {
    let opts = EpisodeOptions::new(rules);
    let mut episodes: Vec<Episode<LeanGame>> =
        (0..GAMES as u64).map(|s| Episode::new(&opts, s)).collect();
    for ep in &mut episodes {
        ep.reset(&opts, None);
    }
    let mut legal: Vec<u8> = episodes
        .iter_mut()
        .map(|ep| ep.observe(&opts).legal)
        .collect();
    let legal = Cell::from_mut(&mut legal[..]).as_slice_of_cells();
    for _ in 0..steps {
        step_batch(
            &opts,
            &mut episodes,
            |i| Checked::Legal(legal[i].get().trailing_zeros().min(5) as u8),
            |i, ep, _, _| legal[i].set(ep.observe(&opts).legal),
        );
    }
    steps * GAMES as u64
}

/// 1,024 episodes stepped `steps` times on the lanes path with the active
/// kernel (in turn where the lanes are not built for it), writing the batched environment's rows
/// (`step_batch_rows_on`), the agent playing its first legal action (any
/// action where the episode is over).
fn batch_rows(rules: Rules, steps: u64) -> Result<u64, RowsError> {
    let opts = EpisodeOptions::new(rules);
    let mut rows = OwnedRows::new(GAMES);
    let mut episodes: Vec<Episode<LeanGame>> = Vec::with_capacity(GAMES);
    for i in 0..GAMES {
        let mut ep = Episode::new(&opts, i as u64);
        ep.reset(&opts, None);
        rows.rows().write_start(&opts, &mut ep, i, 0)?;
        episodes.push(ep);
    }
    let path = BatchPath::Lanes(kernel::active());
    let mut actions = vec![0i64; GAMES];
    for _ in 0..steps {
        for (a, &st) in actions.iter_mut().zip(rows.status()) {
            *a = i64::from((st & 0x3F).trailing_zeros().min(5));
        }
        step_batch_rows_on(path, &opts, &mut episodes, &actions, &mut rows.rows())?;
    }
    Ok(steps * GAMES as u64)
}

/// Two random moves and the legal mask a game a step, as the criterion
/// group `lean_batch_1024` (a game that ends starts again).
fn lean(rules: Rules, steps: u64) -> u64 {
    let start = Position::start(&rules);
    let mut games: Vec<LeanGame> = (0..GAMES).map(|_| LeanGame::new(rules, start)).collect();
    let mut rngs: Vec<Xoshiro256PlusPlus> = (0..GAMES as u64)
        .map(Xoshiro256PlusPlus::seed_from_u64)
        .collect();
    for _ in 0..steps {
        for (game, rng) in games.iter_mut().zip(rngs.iter_mut()) {
            if game.play_random(rng).is_none() || game.play_random(rng).is_none() {
                game.reset(start);
            }
            std::hint::black_box(game.legal_mask());
        }
    }
    steps * GAMES as u64
}

fn playouts(rules: &Rules, games: u64) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    (0..games)
        .map(|_| {
            u64::from(playout::random_playout(rules, Position::start(rules), &mut rng, 2000).plies)
        })
        .sum()
}

/// The first 1,024 moves of seeded random games, sown `rounds` times.
fn sow_rounds(rules: &Rules, rounds: u64, in_lanes: bool) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut moves = Vec::with_capacity(GAMES);
    let mut pos = Position::start(rules);
    while moves.len() < GAMES {
        let children = pos.children(rules);
        if children.is_empty() {
            pos = Position::start(rules);
            continue;
        }
        let (mv, next) = children[rng.random_range(0..children.len())];
        moves.push((pos, mv));
        pos = next;
    }
    let mut out = vec![None; moves.len()];
    let k = kernel::active();
    for _ in 0..rounds {
        if in_lanes {
            lanes::sow_moves(k, rules, &moves, &mut out);
        } else {
            for ((p, mv), o) in moves.iter().zip(out.iter_mut()) {
                *o = p.try_play_unchecked(rules, *mv);
            }
        }
        std::hint::black_box(&mut out);
    }
    rounds * moves.len() as u64
}
