//! How far the repetition search reaches in Oware: positions of seeded random
//! games, bucketed by the seeds on the board, each with its history since the
//! last capture; for each, whether [`RepetitionSearch::move_values`] closes
//! within the node budget and the nodes it used. Prints one line a position
//! (with `--verbose`) and a table a bucket.
//!
//! ```sh
//! cargo run --release -p ayo-solve --example oware_reach -- --dir DB_DIR \
//!     [--per-bucket 30] [--budget 2000000] [--seed 1] [--min-seeds 1] [--max-seeds 12] [--verbose]
//! ```
//!
//! The games: from the start, a capturing move (the largest) with
//! probability 3/4 when there is one, else a uniformly random legal move, so
//! that games come down to few seeds. From every game, one position drawn
//! uniformly from those of each bucket that it passes through (the game not
//! over), until every bucket holds its count. Each position is searched cold
//! (the search's table cleared; its components kept).

use std::path::PathBuf;
use std::time::Instant;

use ayo_core::{Game, Rules};
use ayo_solve::{solve_rules, Database, RepetitionSearch};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The buckets: seeds on the board, inclusive ranges.
const BUCKETS: [(u32, u32); 7] = [(1, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 10), (11, 12)];

/// Games played at most while filling the buckets.
const MAX_GAMES: usize = 100_000;

struct Args {
    dir: PathBuf,
    per_bucket: usize,
    budget: u64,
    seed: u64,
    min_seeds: u32,
    max_seeds: u32,
    verbose: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        dir: PathBuf::new(),
        per_bucket: 30,
        budget: 2_000_000,
        seed: 1,
        min_seeds: 1,
        max_seeds: 12,
        verbose: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--dir" => a.dir = PathBuf::from(value()?),
            "--per-bucket" => a.per_bucket = value()?.parse().map_err(|e| format!("{e}"))?,
            "--budget" => a.budget = value()?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => a.seed = value()?.parse().map_err(|e| format!("{e}"))?,
            "--min-seeds" => a.min_seeds = value()?.parse().map_err(|e| format!("{e}"))?,
            "--max-seeds" => a.max_seeds = value()?.parse().map_err(|e| format!("{e}"))?,
            "--verbose" => a.verbose = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.dir.as_os_str().is_empty() {
        return Err("--dir DB_DIR (oware databases) is required".into());
    }
    Ok(a)
}

/// One random game's position in each bucket it passes through.
fn sample_game(rules: Rules, rng: &mut Xoshiro256PlusPlus) -> Vec<Option<Game>> {
    let mut seen: Vec<Vec<Game>> = vec![Vec::new(); BUCKETS.len()];
    let mut game = Game::new(rules);
    while game.outcome().is_none() {
        let seeds = game.position().board_seeds();
        if let Some(b) = BUCKETS
            .iter()
            .position(|&(lo, hi)| lo <= seeds && seeds <= hi)
        {
            seen[b].push(game.clone());
        }
        let me = game.position().to_move();
        let captured = |c: &ayo_core::Position| c.store(me) - game.position().store(me);
        let children = game.children();
        let best = children.iter().max_by_key(|(_, c)| captured(c)).copied();
        let mv = match best {
            Some((mv, c)) if captured(&c) > 0 && rng.random_range(0..4) != 0 => mv,
            _ => children[rng.random_range(0..children.len())].0,
        };
        game.play(mv).expect("a legal move");
    }
    seen.into_iter()
        .map(|g| (!g.is_empty()).then(|| g[rng.random_range(0..g.len())].clone()))
        .collect()
}

fn median(v: &mut [u64]) -> Option<u64> {
    v.sort_unstable();
    (!v.is_empty()).then(|| v[v.len() / 2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = args()?;
    let rules = Rules::preset("oware")?;
    let db = Database::open_all(&rules, &a.dir)?;
    eprintln!("databases to {} seeds", db.max_seeds());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(a.seed);
    let mut buckets: Vec<Vec<Game>> = vec![Vec::new(); BUCKETS.len()];
    let free_rules = solve_rules(&rules)?;
    for _ in 0..MAX_GAMES {
        if buckets.iter().all(|b| b.len() >= a.per_bucket) {
            break;
        }
        for (b, g) in sample_game(free_rules, &mut rng).into_iter().enumerate() {
            if let Some(g) = g {
                if buckets[b].len() < a.per_bucket && !g.children().is_empty() {
                    buckets[b].push(g);
                }
            }
        }
    }
    let mut search = RepetitionSearch::new(db);
    search.set_budget(Some(a.budget));
    println!(
        "| seeds | positions | closed | median nodes | median nodes, closed | median window | s |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (b, games) in buckets.iter().enumerate() {
        if BUCKETS[b].1 > a.max_seeds || BUCKETS[b].0 < a.min_seeds {
            continue;
        }
        let t0 = Instant::now();
        let (mut all, mut closed_nodes, mut windows) = (Vec::new(), Vec::new(), Vec::new());
        for g in games {
            search.clear_table();
            let before = search.stats().nodes;
            let closed = search.move_values(g)?.is_some();
            let nodes = search.stats().nodes - before;
            let window = u64::from(g.position().no_capture()).min(g.moves().len() as u64) + 1;
            if a.verbose {
                let p = g.position();
                eprintln!(
                    "{} seeds, window {window}: {} in {nodes} nodes ({:?} {:?})",
                    p.board_seeds(),
                    if closed { "closed" } else { "open" },
                    p.board(),
                    p.to_move()
                );
            }
            all.push(nodes);
            windows.push(window);
            if closed {
                closed_nodes.push(nodes);
            }
        }
        let (lo, hi) = BUCKETS[b];
        let name = if lo == hi {
            format!("{hi}")
        } else {
            format!("{lo}–{hi}")
        };
        if a.verbose {
            eprintln!("{:?}", search.stats());
        }
        let show = |m: Option<u64>| m.map_or("–".to_string(), |m| m.to_string());
        println!(
            "| {name} | {} | {} | {} | {} | {} | {:.1} |",
            games.len(),
            closed_nodes.len(),
            show(median(&mut all)),
            show(median(&mut closed_nodes)),
            show(median(&mut windows)),
            t0.elapsed().as_secs_f64()
        );
    }
    eprintln!("{:?}", search.stats());
    Ok(())
}
