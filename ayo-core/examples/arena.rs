//! Matches between computer players: the level ladder (adjacent pairs or a
//! round robin) or any two players, with win/draw/loss counts, the score,
//! and Elo differences with 95 % confidence intervals.
//!
//! ```text
//! cargo run --release -p ayo-core --example arena -- [options]
//!   --rules ayoayo,ayo,olopon,oware   presets (default: all four)
//!   --games N                         games per pair (default 200; even)
//!   --levels 1,2,...,max              levels to pair (default: all)
//!   --round-robin                     every pair of levels, not just adjacent ones
//!   --match A B                       two player specs instead of levels
//!   --openings K                      random plies before the players take over (default 2)
//!   --ply-cap N                       a game still going after N plies is a draw (default 500)
//!   --balanced B                      redraw openings until a depth-6 search values them within ±B seeds
//!   --seed S                          base seed (default 1)
//!   --threads T                       worker threads (default 1)
//! ```
//!
//! A player spec is a level (`L3`, `Lmax`) or `kind:budget[:option…]`, e.g.
//! `alphabeta:depth=4`, `alphabeta:depth=4:store` (store difference only, no
//! evaluation features), `alphabeta:depth=4:w=10,15,25,30,20` (weights: row
//! seeds, mobility, exposed, big pits, tempo), `alphabeta:nodes=20000:tt=0`, `mcts:nodes=2000`,
//! `mcts:nodes=2000:cutoff=20`, `greedy`, `random`.
//!
//! Game `i` of a pair starts from `K` uniformly random plies drawn with seed
//! `S + i / 2`; games `2j` and `2j+1` share that opening with colours swapped.
//! Draws count one half in the score; the table also shows wins alone, and
//! how many opening pairs were won by the same colour both times (a pair that
//! cannot tell the players apart: the opening decides it for the level of play).

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use ayo_core::players::{new_player, Agent, AlphaBeta, Budget, Kind, Level, Mcts, Weights};
use ayo_core::{Game, Player, Preset, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Debug)]
struct Spec(String);

impl Spec {
    fn build(&self, seed: u64) -> Result<Box<dyn Agent>, String> {
        let s = self.0.as_str();
        if let Some(l) = s.strip_prefix('L') {
            return Ok(Level::from_str(l)?.player(seed));
        }
        let mut parts = s.split(':');
        let kind = Kind::from_str(parts.next().unwrap_or(""))?;
        let mut budget = Budget::Depth(4);
        let mut store_only = false;
        let mut weights: Option<Weights> = None;
        let mut tt: Option<u32> = None;
        let mut cutoff: Option<u32> = None;
        let mut c: Option<f64> = None;
        for p in parts {
            if p == "store" {
                store_only = true;
            } else if let Some(v) = p.strip_prefix("w=") {
                let w: Vec<i32> = v
                    .split(',')
                    .map(|x| x.parse().map_err(|_| format!("bad w in `{s}`")))
                    .collect::<Result<_, _>>()?;
                if w.len() != 5 {
                    return Err(format!(
                        "w= takes 5 weights (row,mobility,exposed,big,tempo) in `{s}`"
                    ));
                }
                weights = Some(Weights {
                    row_seeds: w[0],
                    mobility: w[1],
                    exposed: w[2],
                    big_pits: w[3],
                    tempo: w[4],
                });
            } else if let Some(v) = p.strip_prefix("tt=") {
                tt = Some(v.parse().map_err(|_| format!("bad tt in `{s}`"))?);
            } else if let Some(v) = p.strip_prefix("cutoff=") {
                cutoff = Some(v.parse().map_err(|_| format!("bad cutoff in `{s}`"))?);
            } else if let Some(v) = p.strip_prefix("c=") {
                c = Some(v.parse().map_err(|_| format!("bad c in `{s}`"))?);
            } else {
                budget = Budget::from_str(p)?;
            }
        }
        Ok(match kind {
            Kind::AlphaBeta => {
                let mut ab = AlphaBeta::new(budget, seed);
                if store_only {
                    ab = ab.with_weights(Weights::STORE_ONLY);
                }
                if let Some(w) = weights {
                    ab = ab.with_weights(w);
                }
                if let Some(bits) = tt {
                    ab = ab.with_table_bits(bits);
                }
                Box::new(ab)
            }
            Kind::Mcts => {
                let mut m = Mcts::new(budget, seed).with_cutoff(cutoff);
                if let Some(c) = c {
                    m = m.with_exploration(c);
                }
                Box::new(m)
            }
            k => new_player(k, budget, seed),
        })
    }
}

struct Config {
    games: usize,
    openings: u32,
    ply_cap: usize,
    seed: u64,
    threads: usize,
    /// Accept only openings that a depth-6 alpha-beta search values within this many seeds.
    balanced: Option<f64>,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    truncated: u32,
    plies: u64,
    /// Opening pairs (games 2j, 2j+1) whose two games were won by the same colour.
    same_colour: u32,
}

/// Plays game `i` of A against B; the result for A (+1, 0, -1), whether it was truncated, and its length.
fn play_one(
    rules: &Rules,
    a: &Spec,
    b: &Spec,
    i: usize,
    cfg: &Config,
) -> Result<(i32, bool, usize), String> {
    let opening_seed = cfg.seed.wrapping_add((i / 2) as u64);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(opening_seed);
    let mut game = Game::new(*rules);
    for attempt in 0.. {
        game = Game::new(*rules);
        for _ in 0..cfg.openings {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())])
                .map_err(|e| e.to_string())?;
        }
        let Some(limit) = cfg.balanced else { break };
        if game.outcome().is_some() {
            continue;
        }
        let v = AlphaBeta::new(Budget::Depth(6), 0)
            .search(&game, false)
            .value;
        if (v.proven().is_none() && v.seeds().abs() <= limit) || attempt >= 100 {
            break;
        }
    }
    let a_seat = if i.is_multiple_of(2) {
        Player::South
    } else {
        Player::North
    };
    let player_seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
    let mut pa = a.build(player_seed)?;
    let mut pb = b.build(player_seed ^ 0x5555)?;
    while game.outcome().is_none() && game.moves().len() < cfg.ply_cap {
        let p = if game.position().to_move() == a_seat {
            &mut pa
        } else {
            &mut pb
        };
        let mv = p
            .choose(&game)
            .ok_or("a player returned no move in an ongoing game")?;
        game.play(mv)
            .map_err(|e| format!("{} chose an illegal move: {e}", p.name()))?;
    }
    let plies = game.moves().len();
    Ok(match game.outcome() {
        Some(o) => (o.result_for(a_seat), false, plies),
        None => (0, true, plies),
    })
}

fn play_pair(rules: &Rules, a: &Spec, b: &Spec, cfg: &Config) -> Result<Tally, String> {
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let results = Mutex::new(vec![0i32; cfg.games]);
    let error = Mutex::new(None::<String>);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cfg.games {
                    return;
                }
                match play_one(rules, a, b, i, cfg) {
                    Ok((r, trunc, plies)) => {
                        results.lock().expect("results")[i] = r;
                        let mut t = tally.lock().expect("tally");
                        match r {
                            1 => t.wins += 1,
                            0 => t.draws += 1,
                            _ => t.losses += 1,
                        }
                        t.truncated += u32::from(trunc);
                        t.plies += plies as u64;
                    }
                    Err(e) => {
                        *error.lock().expect("error") = Some(e);
                        return;
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("error") {
        return Err(e);
    }
    let mut t = tally.into_inner().expect("tally");
    let r = results.into_inner().expect("results");
    // A plays South in game 2j and North in 2j+1: the same colour won both
    // when A's results are opposite and not draws.
    t.same_colour = r.chunks(2).filter(|p| p[0] != 0 && p[0] == -p[1]).count() as u32;
    Ok(t)
}

fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Score (draws ½), Elo difference and its 95 % interval (normal approximation of the mean score).
fn stats(t: &Tally) -> (f64, f64, f64, f64) {
    let n = f64::from(t.wins + t.draws + t.losses);
    let score = (f64::from(t.wins) + 0.5 * f64::from(t.draws)) / n;
    let var = (f64::from(t.wins) * (1.0 - score).powi(2)
        + f64::from(t.draws) * (0.5 - score).powi(2)
        + f64::from(t.losses) * score.powi(2))
        / n;
    let se = (var / n).sqrt();
    let clamp = |p: f64| p.clamp(0.5 / n, 1.0 - 0.5 / n);
    (
        score,
        elo(clamp(score)),
        elo(clamp(score - 1.96 * se)),
        elo(clamp(score + 1.96 * se)),
    )
}

fn main() {
    if let Err(e) = run() {
        eprintln!("arena: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut presets: Vec<Preset> = Preset::ALL.to_vec();
    let mut levels: Vec<Level> = Level::ALL.to_vec();
    let mut round_robin = false;
    let mut custom: Option<(Spec, Spec)> = None;
    let mut cfg = Config {
        games: 200,
        openings: 2,
        ply_cap: 500,
        seed: 1,
        threads: 1,
        balanced: None,
    };
    let num = |v: Option<String>, what: &str| -> Result<u64, String> {
        v.ok_or(format!("{what} needs a value"))?
            .parse()
            .map_err(|_| format!("{what} needs a number"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rules" => {
                presets = args
                    .next()
                    .ok_or("--rules needs a list")?
                    .split(',')
                    .map(|p| Preset::from_str(p).map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--levels" => {
                levels = args
                    .next()
                    .ok_or("--levels needs a list")?
                    .split(',')
                    .map(Level::from_str)
                    .collect::<Result<_, _>>()?
            }
            "--round-robin" => round_robin = true,
            "--match" => {
                let x = args.next().ok_or("--match needs two specs")?;
                let y = args.next().ok_or("--match needs two specs")?;
                custom = Some((Spec(x), Spec(y)));
            }
            "--games" => cfg.games = num(args.next(), "--games")? as usize,
            "--openings" => cfg.openings = num(args.next(), "--openings")? as u32,
            "--ply-cap" => cfg.ply_cap = num(args.next(), "--ply-cap")? as usize,
            "--seed" => cfg.seed = num(args.next(), "--seed")?,
            "--threads" => cfg.threads = num(args.next(), "--threads")? as usize,
            "--balanced" => cfg.balanced = Some(num(args.next(), "--balanced")? as f64),
            "-h" | "--help" => {
                println!("see the header of ayo-core/examples/arena.rs for the options");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if cfg.games == 0 || cfg.games % 2 == 1 {
        return Err("--games must be even and positive (colours alternate)".into());
    }
    let pairs: Vec<(Spec, Spec)> = match custom {
        Some(p) => vec![p],
        None => {
            let spec = |l: &Level| Spec(format!("L{l}"));
            let mut v = Vec::new();
            for (i, hi) in levels.iter().enumerate() {
                for lo in &levels[..i] {
                    if round_robin || levels[i - 1] == *lo {
                        v.push((spec(hi), spec(lo)));
                    }
                }
            }
            v
        }
    };
    println!(
        "games per pair {}, openings {} random plies{}, ply cap {}, seed {}, threads {}; draws count ½",
        cfg.games,
        cfg.openings,
        cfg.balanced.map_or(String::new(), |b| format!(" valued within ±{b} seeds at depth 6")),
        cfg.ply_cap,
        cfg.seed,
        cfg.threads
    );
    for preset in presets {
        let rules = preset.rules();
        println!("\n## {preset}\n");
        println!(
            "| A | B | W-D-L (A) | A wins | A score | Elo A−B [95% CI] | same-colour pairs | trunc | plies/game | s |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for (a, b) in &pairs {
            let t0 = Instant::now();
            let t = play_pair(&rules, a, b, &cfg)?;
            let (score, e, lo, hi) = stats(&t);
            let n = f64::from(t.wins + t.draws + t.losses);
            println!(
                "| {} | {} | {}-{}-{} | {:.1}% | {:.1}% | {:+.0} [{:+.0}, {:+.0}] | {} of {} | {} | {:.0} | {:.1} |",
                a.0,
                b.0,
                t.wins,
                t.draws,
                t.losses,
                100.0 * f64::from(t.wins) / n,
                100.0 * score,
                e,
                lo,
                hi,
                t.same_colour,
                cfg.games / 2,
                t.truncated,
                t.plies as f64 / n,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}
