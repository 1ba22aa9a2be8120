//! Plays one full game between two seeded random players and prints every
//! move, the board, and the final record and outcome.
//!
//! `cargo run --release -p ayo-core --example play -- [PRESET] [SEED]`

use ayo_core::{trace::LapEnd, Game, Player, Position, Rules};
use rand::{Rng, SeedableRng};

fn board(pos: &Position) -> String {
    let b = pos.board();
    let north: Vec<String> = b[6..].iter().rev().map(|s| format!("{s:>3}")).collect();
    let south: Vec<String> = b[..6].iter().map(|s| format!("{s:>3}")).collect();
    let s = pos.stores();
    format!(
        "  N [{:>2}] {}\n  S      {} [{:>2}]",
        s[1],
        north.join(""),
        south.join(""),
        s[0]
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let rules = Rules::preset(args.get(1).map_or("ayoayo", String::as_str))?;
    let seed: u64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(2026);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(rules);
    println!(
        "{rules}: random against random, seed {seed}\n{}",
        board(game.position())
    );
    while game.outcome().is_none() {
        let moves = game.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let t = game.trace(mv)?;
        let who = if game.position().to_move() == Player::South {
            "South"
        } else {
            "North"
        };
        game.play(mv)?;
        let how = match t.events.last() {
            Some(ayo_core::Event::End {
                reason: LapEnd::MadeFour,
                ..
            }) => "made a 4",
            Some(ayo_core::Event::End {
                reason: LapEnd::TwoThree,
                ..
            }) => "made 2 or 3",
            Some(ayo_core::Event::End {
                reason: LapEnd::Occupied,
                ..
            }) => "fell in an occupied pit",
            _ => "fell in an empty pit",
        };
        println!(
            "\n{}. {who} sows pit {}: {} lap(s), last seed {how} (pit {}), took {} seed(s)\n{}",
            game.moves().len(),
            mv.relative_pit(),
            t.laps,
            t.last_pit,
            t.taken[0] + t.taken[1],
            board(game.position())
        );
    }
    println!(
        "\n{}\nrecord: {}",
        game.outcome().expect("the game ended"),
        game.record()
    );
    Ok(())
}
