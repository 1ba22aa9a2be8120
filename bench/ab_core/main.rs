//! Two builds of ayo-core in one process, timed in short alternated chunks.
//!
//! `bench/ab_core.sh BASE` builds this against the working tree's ayo-core
//! (`new`) and BASE's (`base`, renamed `ayo-core-base`). Each round times one
//! chunk of about 10 ms of each side, the order alternating, and the ratio of
//! the two is kept: a noisy host slows both sides of a round alike, which
//! alternating whole processes cannot promise. The script aligns every
//! function and loop of both builds; what layout still leaves between them
//! shows when a commit is run against itself (docs/benchmarks.md,
//! "Comparing two builds"). Each side's work (the plies of its playouts;
//! the steps of the other workloads) is printed too: the same when both
//! builds play the same games.
//!
//! With the feature `one-build` (`AB_ONE_BUILD=1 bash bench/ab_core.sh`) both
//! sides are the working tree's one build: a check that the tool runs (CI's),
//! which tells nothing of code placement.
//!
//! Workloads (the criterion groups of `ayo-core/benches/engine.rs`):
//! `playout PRESET`: 200 seeded random playouts from the start;
//! `lean PRESET`: 1,024 `LeanGame`s stepped 10 times by two random moves and
//! the legal mask; `rows PRESET`: 1,024 episodes against the random
//! opponent stepped 10 times by the batched environment's step
//! (`episode::step_batch_rows`, the agent's action one of its legal actions
//! picked by a hash of the game and the step).

#[cfg(feature = "one-build")]
use new as base;

use std::hint::black_box;
use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const GAMES: u64 = 200;
const MAX_PLIES: u32 = 2_000;
const LEAN_GAMES: usize = 1024;
const LEAN_STEPS: usize = 10;

/// One chunk's work: runs it and returns the units done (moves, env-steps).
type Work = Box<dyn FnMut() -> u64>;

macro_rules! playouts {
    ($krate:ident, $preset:expr) => {{
        let rules = $krate::Rules::preset($preset)?;
        Box::new(move || {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            (0..GAMES)
                .map(|_| {
                    let start = $krate::Position::start(&rules);
                    let p = $krate::playout::random_playout(&rules, start, &mut rng, MAX_PLIES);
                    u64::from(black_box(p).plies)
                })
                .sum()
        }) as Work
    }};
}

macro_rules! lean {
    ($krate:ident, $preset:expr) => {{
        let rules = $krate::Rules::preset($preset)?;
        let start = $krate::Position::start(&rules);
        let mut games: Vec<$krate::LeanGame> = (0..LEAN_GAMES)
            .map(|_| $krate::LeanGame::new(rules, start))
            .collect();
        let mut rngs: Vec<Xoshiro256PlusPlus> = (0..LEAN_GAMES as u64)
            .map(Xoshiro256PlusPlus::seed_from_u64)
            .collect();
        Box::new(move || {
            for _ in 0..LEAN_STEPS {
                for (game, rng) in games.iter_mut().zip(rngs.iter_mut()) {
                    if game.play_random(rng).is_none() || game.play_random(rng).is_none() {
                        game.reset(start);
                    }
                    black_box(game.legal_mask());
                }
            }
            (LEAN_GAMES * LEAN_STEPS) as u64
        }) as Work
    }};
}

/// Game `i`'s action at step `t` from its status row: the `k`-th of its
/// legal actions for `k` from a hash of `i` and `t` (as `batch_paths`).
fn pick(status: u8, i: usize, t: u64) -> i64 {
    let mut legal = status & 0x3F;
    if legal == 0 {
        return 0;
    }
    let h = (i as u64 ^ (t << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    for _ in 0..h % u64::from(legal.count_ones()) {
        legal &= legal - 1;
    }
    i64::from(legal.trailing_zeros())
}

/// The `rows` workload of `$krate` (see the module docs).
macro_rules! rows {
    ($krate:ident, $preset:expr) => {{
        use $krate::episode::{step_batch_rows, Episode, EpisodeOptions, OwnedRows};
        let opts = EpisodeOptions::new($krate::Rules::preset($preset)?);
        let mut rows = OwnedRows::new(LEAN_GAMES);
        let mut episodes: Vec<Episode<$krate::LeanGame>> = Vec::with_capacity(LEAN_GAMES);
        for i in 0..LEAN_GAMES {
            let mut ep = Episode::new(&opts, i as u64);
            ep.reset(&opts, None);
            rows.rows().write_start(&opts, &mut ep, i, 0)?;
            episodes.push(ep);
        }
        let mut actions = vec![0i64; LEAN_GAMES];
        let mut t = 0u64;
        Box::new(move || {
            for _ in 0..LEAN_STEPS {
                for (i, (a, &st)) in actions.iter_mut().zip(rows.status()).enumerate() {
                    *a = pick(st, i, t);
                }
                t += 1;
                let counts = step_batch_rows(&opts, &mut episodes, &actions, &mut rows.rows());
                black_box(counts.expect("rows and actions of the batch's games"));
            }
            (LEAN_GAMES * LEAN_STEPS) as u64
        }) as Work
    }};
}

/// Units a second over `reps` calls of `work`, and the units (added to `total`).
fn rate(work: &mut Work, reps: u32, total: &mut u64) -> f64 {
    let t = Instant::now();
    let units: u64 = (0..reps).map(|_| work()).sum();
    *total += units;
    units as f64 / t.elapsed().as_secs_f64()
}

/// The `q`-quantile of `v` (sorted in place), interpolated between the two
/// nearest ranks as numpy's default (and bench/ab_python.py) does: the
/// median of 2 rounds is their mean, not the larger (a nearest-rank
/// quantile rounded half up gave the maximum of 2 and the upper middle of 4).
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let at = (v.len() - 1) as f64 * q;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (at - lo as f64)
}

/// `quantile` on small cases, checked on every run (CI runs this tool with
/// 4 rounds).
fn check_quantile() {
    let q = |v: &[f64], q: f64| quantile(&mut v.to_vec(), q);
    assert_eq!(q(&[2.0, 1.0], 0.5), 1.5);
    assert_eq!(q(&[4.0, 1.0, 3.0, 2.0], 0.5), 2.5);
    assert_eq!(q(&[4.0, 1.0, 3.0, 2.0], 0.25), 1.75);
    assert_eq!(q(&[4.0, 1.0, 3.0, 2.0], 1.0), 4.0);
    assert_eq!(q(&[3.0, 1.0, 2.0], 0.5), 2.0);
    assert_eq!(q(&[5.0], 0.75), 5.0);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    check_quantile();
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: ab_core playout|lean|rows PRESET [ROUNDS]";
    let (what, preset) = match args.as_slice() {
        [_, what, preset, ..] => (what.as_str(), preset.as_str()),
        _ => return Err(usage.into()),
    };
    let rounds: usize = args.get(3).map_or(Ok(200), |s| s.parse())?;
    if rounds == 0 {
        return Err("ROUNDS must be at least 1".into());
    }
    let (mut base, mut new): (Work, Work) = match what {
        "playout" => (playouts!(base, preset), playouts!(new, preset)),
        "lean" => (lean!(base, preset), lean!(new, preset)),
        "rows" => (rows!(base, preset), rows!(new, preset)),
        _ => return Err(usage.into()),
    };
    // A chunk of about 10 ms of the base side.
    let mut reps = 1u32;
    while {
        let t = Instant::now();
        (0..reps).for_each(|_| {
            base();
        });
        t.elapsed().as_secs_f64() < 0.01
    } {
        reps *= 2;
    }
    let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    let (mut base_units, mut new_units) = (0u64, 0u64);
    for round in 0..rounds {
        let (x, y) = if round % 2 == 0 {
            let x = rate(&mut base, reps, &mut base_units);
            (x, rate(&mut new, reps, &mut new_units))
        } else {
            let y = rate(&mut new, reps, &mut new_units);
            (rate(&mut base, reps, &mut base_units), y)
        };
        a.push(x);
        b.push(y);
        ratio.push(y / x);
    }
    let pct = |r: f64| 100.0 * (r - 1.0);
    println!(
        "{what} {preset}: {rounds} rounds of {reps} calls a side; units/s, median (best): \
         base {:.2}M ({:.2}M), new {:.2}M ({:.2}M); new/base, median of the rounds' ratios: \
         {:+.1}% (quartiles {:+.1}%, {:+.1}%)",
        quantile(&mut a, 0.5) / 1e6,
        quantile(&mut a, 1.0) / 1e6,
        quantile(&mut b, 0.5) / 1e6,
        quantile(&mut b, 1.0) / 1e6,
        pct(quantile(&mut ratio, 0.5)),
        pct(quantile(&mut ratio, 0.25)),
        pct(quantile(&mut ratio, 0.75)),
    );
    let same = if base_units == new_units {
        "the same"
    } else {
        "different"
    };
    println!("work: base {base_units} units, new {new_units} units: {same}");
    Ok(())
}
