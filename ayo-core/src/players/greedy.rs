//! The greedy player: the best immediate seed gain.

use rand::{Rng as _, SeedableRng};

use super::{one_ply, one_ply_analysis, Agent, Analysis, MoveValue, Rng};
use crate::{Game, Move};

/// Plays the move with the best seed difference right after it (a move that
/// ends the game is valued by the final difference, so a winning end is taken
/// and a losing one avoided); ties are broken uniformly by the seeded RNG.
///
/// ```
/// use ayo_core::{players::{Agent, Greedy}, Game, Rules, Setup, Player};
/// // South (to move) captures 2 + 3 with pit 5 (2 seeds reach pits 6 and 7).
/// let rules = Rules::preset("oware")?;
/// let mut s = Setup::start(&rules);
/// s.board = [1, 0, 0, 0, 0, 2, 1, 2, 9, 9, 9, 9];
/// s.stores = [5, 1];
/// let game = Game::from_setup(rules, &s)?;
/// let mv = Greedy::new(0).choose(&game).unwrap();
/// assert_eq!(mv.pit(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy player whose ties are broken by `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::seed_from_u64(seed),
        }
    }

    fn pick(&mut self, moves: &[MoveValue]) -> Option<Move> {
        let best = moves.iter().map(|m| m.value).max()?;
        let ties: Vec<Move> = moves
            .iter()
            .filter(|m| m.value == best)
            .map(|m| m.mv)
            .collect();
        Some(ties[self.rng.random_range(0..ties.len())])
    }
}

impl Agent for Greedy {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = one_ply(game);
        self.pick(&moves)
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        let moves = one_ply(game);
        match self.pick(&moves) {
            None => Analysis::of_ended(game).expect("no legal move means the game is over"),
            Some(best) => one_ply_analysis(game, moves, best),
        }
    }
}
