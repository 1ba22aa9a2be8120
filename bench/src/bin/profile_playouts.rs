//! Runs random playouts for one preset for profiling: `cargo run --release -p ayo-bench --bin profile_playouts -- oware 20000`.
use ayo_core::{playout, Position, Rules};
use rand::SeedableRng;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Rules::preset(args.get(1).map_or("oware", |s| s)).expect("preset");
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let t = std::time::Instant::now();
    let mut moves = 0u64;
    for _ in 0..games {
        moves += u64::from(
            playout::random_playout(&rules, Position::start(&rules), &mut rng, 2000).plies,
        );
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{moves} moves in {s:.3} s: {:.1} M moves/s",
        moves as f64 / s / 1e6
    );
}
