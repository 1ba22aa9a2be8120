//! [`Mirrored`]: one episode kept in the cheapest game that its options
//! allow, with the full [`Game`] at hand when a caller asks for it (a
//! render, a record, a pickle). The single-agent and two-agent
//! environments of the bindings keep their episode so.
//!
//! ```
//! use ayo_core::episode::{Checked, EpisodeOptions, Mirrored};
//! use ayo_core::Rules;
//! let opts = EpisodeOptions::new(Rules::preset("oware")?);
//! let mut kept = Mirrored::new(&opts);
//! let Mirrored::Lean(ep, _) = &mut kept else { unreachable!() };
//! ep.reset(&opts, None);
//! let legal = ep.observe(&opts).legal;
//! ep.step(&opts, Checked::Legal(legal.trailing_zeros() as u8));
//! // The full game, brought up to date with the episode's moves.
//! let game = kept.full_game()?;
//! assert_eq!(game.moves().len(), 2); // the agent's move and the reply
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{check_history, Episode, EpisodeOptions, Opponent, RestoreError, Snapshot};
use crate::{Game, IllegalMove, LeanGame, Move, Player};

/// An episode as kept: of a [`LeanGame`] wherever nothing reads the full
/// game while it is played (the random opponent, self-play), which makes a
/// step cost a fraction, with its [`Mirror`]; of a full [`Game`] for an
/// external opponent (handed a copy of it before each reply) or one that
/// searches.
pub enum Mirrored {
    /// A lean episode and its full game, brought up to date when asked for
    /// (boxed: it is read only then, the episode every step).
    Lean(Episode<LeanGame>, Box<Mirror>),
    /// An episode of a full game.
    Full(Episode<Game>),
}

/// The full game of a lean episode: its start, and the episode's moves
/// played on it when asked for since the last time (they only grow until a
/// reset).
pub struct Mirror {
    game: Game,
    played: usize,
}

impl Mirrored {
    /// A new episode for `opts` (seeded with 0; it awaits a reset).
    pub fn new(opts: &EpisodeOptions) -> Mirrored {
        if opts.opponent == Opponent::External || opts.opponent.needs_game() {
            Mirrored::Full(Episode::new(opts, 0))
        } else {
            Mirrored::Lean(
                Episode::new(opts, 0),
                Box::new(Mirror {
                    game: Game::new(opts.rules),
                    played: 0,
                }),
            )
        }
    }

    /// A copy of the game being played, history and all. An error only if
    /// an episode's move does not replay on its mirror (an episode that
    /// was changed behind the mirror's back).
    pub fn full_game(&mut self) -> Result<Game, IllegalMove> {
        match self {
            Mirrored::Full(ep) => Ok(ep.game().clone()),
            Mirrored::Lean(ep, mirror) => {
                for &mv in ep.moves().get(mirror.played..).unwrap_or(&[]) {
                    // Counted one by one, so that the mirror stays whole.
                    mirror.game.play(mv)?;
                    mirror.played += 1;
                }
                Ok(mirror.game.clone())
            }
        }
    }

    /// Starts an episode from `start` (its history kept).
    pub fn reset_to(&mut self, opts: &EpisodeOptions, start: Game, seat: Option<Player>) {
        match self {
            Mirrored::Full(ep) => ep.reset_to_game(opts, start, seat),
            Mirrored::Lean(ep, mirror) => {
                ep.reset_to_game(opts, LeanGame::from_game(&start), seat);
                **mirror = Mirror {
                    game: start,
                    played: 0,
                };
            }
        }
    }

    /// Puts back a saved state: `game` is the whole game, `moves` the
    /// episode's (the last of its moves). A state that does not hold
    /// together ([`super::check_restore`]) changes nothing.
    pub fn restore(
        &mut self,
        opts: &EpisodeOptions,
        snapshot: Snapshot,
        game: Game,
        moves: Vec<Move>,
    ) -> Result<(), RestoreError> {
        match self {
            Mirrored::Full(ep) => ep.restore(opts, snapshot, game, moves),
            Mirrored::Lean(ep, mirror) => {
                check_history(opts, &game, &moves)?;
                let played = moves.len();
                ep.restore(opts, snapshot, LeanGame::from_game(&game), moves)?;
                **mirror = Mirror { game, played };
                Ok(())
            }
        }
    }
}
