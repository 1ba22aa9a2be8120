//! The uniformly random player.

use rand::{Rng as _, SeedableRng};

use super::{one_ply, one_ply_analysis, Agent, Analysis, Rng};
use crate::{Game, Move};

/// Plays a uniformly random legal move. Its analysis is the one-ply view (each
/// move valued by the seed difference right after it) with the random choice
/// as `best`.
///
/// ```
/// use ayo_core::{players::{Agent, RandomPlayer}, Game, Rules};
/// let game = Game::new(Rules::preset("ayoayo")?);
/// let a = RandomPlayer::new(3).choose(&game);
/// assert_eq!(a, RandomPlayer::new(3).choose(&game));
/// assert!(game.is_legal(a.unwrap()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player seeded by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomPlayer {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.rng.random_range(0..moves.len())])
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        match self.choose(game) {
            None => Analysis::of_ended(game).expect("no legal move means the game is over"),
            Some(best) => one_ply_analysis(game, one_ply(game), best),
        }
    }
}
