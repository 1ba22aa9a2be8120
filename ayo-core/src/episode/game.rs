//! The games an episode can play: a [`LeanGame`] (what the rules need to go
//! on, for the random opponent and self-play) or a full [`Game`] (for an
//! opponent that searches: it reads the game itself, so no second copy is
//! kept beside the episode's).

use rand_xoshiro::Xoshiro256PlusPlus;

use super::rows::BatchOut;
use super::{Checked, Episode, EpisodeOptions};
use crate::games::random_move::draw_action;
use crate::kernels::dispatch::Kernel;
use crate::rules::legal::must_feed;
use crate::{EndReason, Game, IllegalMove, LeanGame, Move, Outcome, Position, Rules};

/// What an [`super::Episode`] needs of its game.
pub trait EpisodeGame: Clone + Send {
    /// A game of `rules` from `position` (valid for them).
    fn from_position(rules: Rules, position: Position) -> Self;
    /// Starts again from `position`, keeping the allocations where the game can.
    fn restart(&mut self, rules: Rules, position: Position);
    /// The current position.
    fn position(&self) -> &Position;
    /// The legal actions as a bit set (0 once the game is over).
    fn legal_mask(&mut self) -> u8;
    /// The outcome once the game has ended by the rules.
    fn outcome(&mut self) -> Option<Outcome>;
    /// Plays mover-relative `action`, or says why it is illegal (unchanged).
    fn play_action(&mut self, action: u8) -> Result<Move, IllegalMove>;
    /// Plays a uniformly random legal move; `None` when the game is over.
    fn play_random(&mut self, rng: &mut Xoshiro256PlusPlus) -> Option<Move>;
    /// The full game, for an opponent that searches (`None`: not kept).
    fn full(&self) -> Option<&Game>;
    /// Takes back the last move, where the game can (a full game).
    fn undo(&mut self) -> bool;
    /// `step_batch_on` in lanes with `kernel`, where this game
    /// and `opts` allow it; false (nothing stepped) elsewhere.
    fn step_batch_in_lanes<A, O>(
        _kernel: Kernel,
        _opts: &EpisodeOptions,
        _episodes: &mut [Episode<Self>],
        _action: &mut A,
        _out: &mut O,
    ) -> bool
    where
        A: FnMut(usize) -> Checked,
        O: BatchOut<Self>,
    {
        false
    }
}

impl EpisodeGame for LeanGame {
    fn from_position(rules: Rules, position: Position) -> Self {
        LeanGame::new(rules, position)
    }
    #[inline]
    fn restart(&mut self, _rules: Rules, position: Position) {
        self.reset(position);
    }
    #[inline]
    fn position(&self) -> &Position {
        LeanGame::position(self)
    }
    #[inline]
    fn legal_mask(&mut self) -> u8 {
        LeanGame::legal_mask(self)
    }
    #[inline]
    fn outcome(&mut self) -> Option<Outcome> {
        LeanGame::outcome(self)
    }
    // The two moves of an episode's step, inlined into it (the batch loop).
    #[inline(always)]
    fn play_action(&mut self, action: u8) -> Result<Move, IllegalMove> {
        LeanGame::play_action(self, action)
    }
    #[inline(always)]
    fn play_random(&mut self, rng: &mut Xoshiro256PlusPlus) -> Option<Move> {
        LeanGame::play_random(self, rng)
    }
    fn full(&self) -> Option<&Game> {
        None
    }
    fn undo(&mut self) -> bool {
        false
    }
    fn step_batch_in_lanes<A, O>(
        kernel: Kernel,
        opts: &EpisodeOptions,
        episodes: &mut [Episode<Self>],
        action: &mut A,
        out: &mut O,
    ) -> bool
    where
        A: FnMut(usize) -> Checked,
        O: BatchOut<Self>,
    {
        super::lanes::step(kernel, opts, episodes, action, out)
    }
}

impl EpisodeGame for Game {
    fn from_position(rules: Rules, position: Position) -> Self {
        Game::from_position(rules, position)
    }
    fn restart(&mut self, rules: Rules, position: Position) {
        *self = Game::from_position(rules, position);
    }
    #[inline]
    fn position(&self) -> &Position {
        Game::position(self)
    }
    #[inline]
    fn legal_mask(&mut self) -> u8 {
        self.legal_action_mask()
    }
    #[inline]
    fn outcome(&mut self) -> Option<Outcome> {
        Game::outcome(self)
    }
    #[inline]
    fn play_action(&mut self, action: u8) -> Result<Move, IllegalMove> {
        let mv = self.position().move_for_action(action)?;
        self.play(mv)?;
        Ok(mv)
    }
    /// Drawn as [`LeanGame::play_random`] draws (`random_move`), so that an
    /// episode plays the same games over either kind of game: in a relay
    /// game whose non-empty pits are all endless relays (no legal move),
    /// each is drawn and struck off, as a `LeanGame` finds that out.
    fn play_random(&mut self, rng: &mut Xoshiro256PlusPlus) -> Option<Move> {
        if self
            .outcome()
            .is_some_and(|o| o.reason != EndReason::NoLegalMove)
        {
            return None;
        }
        let legal = self.legal_action_mask();
        let pos = self.position();
        let candidates = if must_feed(self.rules(), pos) {
            legal
        } else {
            pos.nonempty_actions()
        };
        let a = draw_action(rng, candidates, |a| legal & (1 << a) != 0)?;
        let mv = pos.move_for_action(a).ok()?;
        self.play(mv).ok()?;
        Some(mv)
    }
    fn full(&self) -> Option<&Game> {
        Some(self)
    }
    fn undo(&mut self) -> bool {
        Game::undo(self).is_some()
    }
}
