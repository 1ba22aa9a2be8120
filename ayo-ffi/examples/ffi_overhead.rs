//! The cost of the C ABI: the same seeded random games played through
//! `ayo_core::Game` directly and through the `extern "C"` functions (status,
//! legal moves, play), as a C playout loop would.
//!
//! `cargo run --release -p ayo-ffi --example ffi_overhead -- [rust|ffi|both] [GAMES]`
//!
//! Wall-clock times on a shared machine are noisy; for a stable comparison run
//! each mode under `valgrind --tool=callgrind` and compare instruction counts.

use std::time::Instant;

use ayo::{
    ayo_game, ayo_game_free, ayo_game_legal_moves, ayo_game_new, ayo_game_play, ayo_game_status,
    ayo_result, ayo_rules, ayo_rules_free, ayo_rules_new_preset, ayo_status,
};
use ayo_core::{Game, Rules, Status};

const PRESETS: [&str; 4] = ["ayoayo", "ayo", "olopon", "oware"];

/// The next pseudo-random number (the LCG of examples/c/random_game.c).
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

/// Plays `games` random games of `preset` in Rust; the number of moves.
fn rust_games(preset: &str, games: u32) -> u64 {
    let rules = Rules::preset(preset).expect("preset");
    let mut seed = 1u64;
    let mut moves = 0u64;
    for _ in 0..games {
        let mut game = Game::new(rules);
        game.set_ply_cap(Some(1000));
        while game.status() == Status::Ongoing {
            let legal = game.legal_moves();
            let mv = legal[(next(&mut seed) % legal.len() as u64) as usize];
            game.play(mv).expect("legal");
            moves += 1;
        }
    }
    moves
}

/// Plays the same games through the C ABI; the number of moves.
fn ffi_games(preset: &str, games: u32) -> u64 {
    let name = std::ffi::CString::new(preset).expect("no NUL");
    let mut rules: *mut ayo_rules = std::ptr::null_mut();
    // SAFETY: valid pointers; every handle made here is freed here.
    unsafe {
        assert_eq!(
            ayo_rules_new_preset(name.as_ptr(), &mut rules),
            ayo_result::Ok
        );
        let mut seed = 1u64;
        let mut moves = 0u64;
        for _ in 0..games {
            let mut game: *mut ayo_game = std::ptr::null_mut();
            assert_eq!(ayo_game_new(rules, &mut game), ayo_result::Ok);
            assert_eq!(ayo::ayo_game_set_ply_cap(game, 1000), ayo_result::Ok);
            let mut status = ayo_status::Ongoing;
            while ayo_game_status(game, &mut status) == ayo_result::Ok
                && status == ayo_status::Ongoing
            {
                let mut pits = [0u8; 6];
                let mut n = 0usize;
                assert_eq!(
                    ayo_game_legal_moves(game, pits.as_mut_ptr(), 6, &mut n),
                    ayo_result::Ok
                );
                let pit = pits[(next(&mut seed) % n as u64) as usize];
                assert_eq!(ayo_game_play(game, i32::from(pit)), ayo_result::Ok);
                moves += 1;
            }
            ayo_game_free(game);
        }
        ayo_rules_free(rules);
        moves
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("both", String::as_str);
    let games: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    for preset in PRESETS {
        let mut line = format!("{preset:7}");
        let mut counts = Vec::new();
        if mode != "ffi" {
            let t = Instant::now();
            let moves = rust_games(preset, games);
            let ns = t.elapsed().as_nanos() as f64 / moves as f64;
            line += &format!("  rust {moves} moves, {ns:.0} ns/move");
            counts.push(moves);
        }
        if mode != "rust" {
            let t = Instant::now();
            let moves = ffi_games(preset, games);
            let ns = t.elapsed().as_nanos() as f64 / moves as f64;
            line += &format!("  ffi {moves} moves, {ns:.0} ns/move");
            counts.push(moves);
        }
        // Both loops must play exactly the same games.
        assert!(
            counts.windows(2).all(|w| w[0] == w[1]),
            "the two loops diverged"
        );
        println!("{line}");
    }
}
