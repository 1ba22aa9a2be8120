//! Reference games between computer players, played by `ayo_core::players`
//! directly (not through the C ABI), for `tests/c/test_player.c`: the C test
//! replays every matchup through `ayo_player_*` and must get the same record.
//!
//! `cargo run --release -p ayo-ffi --example player_reference > reference.txt`
//!
//! One line per game: `preset;south;north;seed;ply_cap;record`, where a
//! player is `L<level>` (e.g. `L3`, `Lmax`) or `K<kind>:<budget kind>:<amount>`
//! with the numbers of `ayo_player_kind` and `ayo_budget_kind`. South is
//! seeded with `seed` and North with `seed + 1`.

use std::str::FromStr;

use ayo_core::players::{self, Agent, Budget, Kind, Level};
use ayo_core::{Game, Rules};

/// The matchups: (preset, south, north, seed, ply cap). Budgets stay small so
/// that the C test also runs quickly under valgrind.
const GAMES: [(&str, &str, &str, u64, u32); 12] = [
    ("ayoayo", "L1", "L2", 1, 400),
    ("ayo", "L2", "L1", 2, 400),
    ("olopon", "L3", "L1", 3, 400),
    ("oware", "L1", "L3", 4, 400),
    ("ayoayo", "L4", "L3", 5, 60),
    ("oware", "L3", "L4", 6, 60),
    ("ayo", "K3:1:200", "L2", 7, 80),
    ("olopon", "L2", "K3:1:150", 8, 80),
    ("oware", "K2:0:3", "K3:1:100", 9, 60),
    ("ayoayo", "K0:2:1", "K1:1:1", 10, 400),
    ("ayo", "K2:1:2000", "L3", 11, 40),
    ("oware", "L6", "L1", 12, 24),
];

fn player(spec: &str, seed: u64) -> Box<dyn Agent> {
    if let Some(level) = spec.strip_prefix('L') {
        return Level::from_str(level).expect("level").player(seed);
    }
    let nums: Vec<u64> = spec[1..]
        .split(':')
        .map(|n| n.parse().expect("number"))
        .collect();
    let kind = Kind::ALL[nums[0] as usize];
    let budget = match nums[1] {
        0 => Budget::Depth(nums[2] as u32),
        1 => Budget::Nodes(nums[2]),
        _ => Budget::Time(std::time::Duration::from_millis(nums[2])),
    };
    players::new_player(kind, budget, seed)
}

fn main() {
    for (preset, south, north, seed, cap) in GAMES {
        let mut game = Game::new(Rules::preset(preset).expect("preset"));
        game.set_ply_cap(Some(cap));
        let mut sides = [player(south, seed), player(north, seed + 1)];
        while let Some(mv) = sides[game.position().to_move().index()].choose(&game) {
            game.play(mv).expect("a chosen move is legal");
        }
        println!("{preset};{south};{north};{seed};{cap};{}", game.record());
    }
}
