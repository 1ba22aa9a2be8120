//! Times the guided search (`ayo_core::guided`) with a trivial network
//! (uniform logits, value 0), so that the figures are the search's own
//! cost: tree walks, the core's moves and ends, the rows handed out and the
//! backups. One thread; batches of 256 and 1,024 games from the start of
//! each preset, 32 and 128 simulations a move, PUCT and Gumbel. Prints
//! simulations a second (every game's simulations, the roots' evaluations
//! not counted) and leaves handed out a second.
//!
//! ```text
//! cargo run --release -p ayo-bench --bin guided_search -- [RULES] [REPEATS] [METHOD BATCH SIMS]
//! ```
//!
//! `METHOD BATCH SIMS` (`puct` or `gumbel`, a batch, simulations a move)
//! runs that one row alone, as a profiler (callgrind) wants it.

use std::time::Instant;

use ayo_core::guided::{GuidedSearch, Gumbel, SearchOptions, Selection};
use ayo_core::{LeanGame, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let preset = args.get(1).map_or("oware", String::as_str);
    let repeats: u32 = args.get(2).map_or(Ok(3), |r| r.parse())?;
    // A preset, or a rules record (`oware[repetition=off,move_limit=200]`).
    let rules = ayo_core::record::parse_rules(preset)?;
    let only: Option<(String, usize, u64)> = match args.get(3..6) {
        Some([method, batch, sims]) => Some((method.clone(), batch.parse()?, sims.parse()?)),
        _ => None,
    };
    let wanted = |name: &str, batch: usize, sims: u64| {
        only.as_ref()
            .is_none_or(|(m, b, s)| m == name && *b == batch && *s == sims)
    };
    println!("cpu: {}", ayo_bench::cpu_model());
    println!("preset: {preset}, one thread, uniform logits and value 0, best of {repeats}");
    println!(
        "{:<7} {:>6} {:>5} {:>14} {:>14} {:>8}",
        "method", "batch", "sims", "sims/s", "leaves/s", "ms"
    );
    for batch in [256usize, 1024] {
        let games = vec![LeanGame::new(rules, Position::start(&rules)); batch];
        for sims in [32u64, 128] {
            for (name, selection) in [
                ("puct", SearchOptions::new(sims).selection),
                ("gumbel", Selection::Gumbel(Gumbel::default())),
            ] {
                if !wanted(name, batch, sims) {
                    continue;
                }
                let opts = SearchOptions {
                    selection,
                    ..SearchOptions::new(sims)
                };
                let mut search = GuidedSearch::new(opts)?;
                search.prepare(batch)?;
                let mut best = f64::INFINITY;
                let mut leaves = 0usize;
                for _ in 0..repeats {
                    search.start(&games)?;
                    leaves = 0;
                    let t = Instant::now();
                    search.run(|_, _, logits, values| {
                        leaves += values.len();
                        logits.fill(0.0);
                        values.fill(0.0);
                    })?;
                    best = best.min(t.elapsed().as_secs_f64());
                }
                let total = batch as f64 * sims as f64;
                println!(
                    "{name:<7} {batch:>6} {sims:>5} {:>14.0} {:>14.0} {:>8.1}",
                    total / best,
                    leaves as f64 / best,
                    best * 1e3
                );
            }
        }
    }
    Ok(())
}
