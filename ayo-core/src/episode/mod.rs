//! The episode every environment plays: the single-agent episode (an agent
//! in one seat, the opponent's replies, observations in either perspective,
//! the mask, the rewards, the illegal-action policy, truncation and the
//! autoreset modes) and, with [`Opponent::SelfPlay`], the two-agent turn
//! loop (the caller moves for whichever seat is to move, and each step's
//! reward is known for both seats: [`Step::reward_for`]).
//!
//! The Gymnasium environment, each game of the batched environment and the
//! PettingZoo environment are this type; the bindings only translate
//! arguments and results.
//!
//! ```
//! use ayo_core::episode::{Checked, Episode, EpisodeOptions};
//! use ayo_core::{LeanGame, Rules};
//! let opts = EpisodeOptions::new(Rules::preset("oware")?);
//! let mut ep: Episode<LeanGame> = Episode::new(&opts, 7);
//! ep.reset(&opts, None);
//! let mut steps = 0;
//! loop {
//!     let legal = ep.observe(&opts).legal;
//!     let action = legal.trailing_zeros() as u8; // the first legal action
//!     let step = ep.step(&opts, Checked::Legal(action));
//!     steps += 1;
//!     if step.terminated || step.truncated {
//!         assert!(step.outcome.is_some());
//!         break;
//!     }
//! }
//! assert!(steps > 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod batch;
mod game;
mod lanes;
mod mirror;
mod options;
mod rows;
mod split;
mod stateless;
mod team;
mod vector;

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

pub use crate::observation::{write_view, ACTIONS, MASK_BOOL, MASK_I8, OBS};
pub use batch::{first_refused, step_batch_rows};
// The batch step's paths and kernels chosen by the caller: for ayo's own
// timers and tests (the `testing` feature), not for users.
#[cfg(feature = "testing")]
pub use batch::{first_refused_on, step_batch, step_batch_on, step_batch_rows_on, BatchPath};
pub use game::EpisodeGame;
pub use mirror::{Mirror, Mirrored};
pub use options::{
    Autoreset, EpisodeOptions, IllegalAction, Opponent, OptionsError, Perspective, Reward,
    SeatChoice,
};
pub use rows::{reason_code, BatchOut, Counts, Kept, OwnedRows, Rows, RowsError, DONE};
pub use stateless::{Stateless, StatelessError, StepOut, STATE_BYTES};
pub use vector::{EpisodeState, VecEnv, VecEnvError};

use crate::players::{self, Agent, Kind};
use crate::{Game, IllegalMove, Move, Outcome, Player, Position, PITS};

/// Transposition-table size (log2 entries) of an episode's alpha-beta
/// opponent: small, so that thousands of episodes fit in memory (a level's
/// own table can be much larger).
const EPISODE_TABLE_BITS: u32 = 12;

/// An action once checked ([`check_action`]): legal, or illegal and penalized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// A legal action 0..=5.
    Legal(u8),
    /// An illegal action (as given), to be penalized.
    Penalized(i64),
}

/// Why an action cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// Outside 0..=5.
    #[error("action {0} is outside the action space 0..5")]
    OutOfRange(i64),
    /// Illegal here, and illegal actions are refused.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// The episode is over and awaits a reset (autoreset disabled).
    #[error("the episode is over: call reset()")]
    EpisodeOver,
}

/// The one check of an agent's action: `legal` is the mask of legal actions
/// the agent was shown (0..=5 as bits). An action outside 0..=5 is an error;
/// an illegal one is penalized when `penalize`, else refused (the reason is
/// then asked of the position by [`Episode::why_illegal`]).
#[inline]
pub fn check_action(legal: u8, action: i64, penalize: bool) -> Result<Checked, ActionError> {
    if !action_in_range(action) {
        return Err(ActionError::OutOfRange(action));
    }
    if shows_legal(legal, action) {
        Ok(Checked::Legal(action as u8))
    } else if penalize {
        Ok(Checked::Penalized(action))
    } else {
        Err(ActionError::Illegal(IllegalMove::GameOver))
    }
}

/// Whether `action` is one of the six (0..=5).
#[inline(always)]
pub(crate) fn action_in_range(action: i64) -> bool {
    (action as u64) < 6
}

/// Whether `legal` (bit `a`: action `a`) shows `action` as legal, for an
/// action in range (one out of range reads a bit past the actions'): a
/// shift, not a branch, so that a batch's check vectorises.
#[inline(always)]
pub(crate) fn shows_legal(legal: u8, action: i64) -> bool {
    (u32::from(legal) >> (action as u32 & 7)) & 1 != 0
}

/// What one observation shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Seeds of the 12 pits and 2 stores in the options' perspective.
    pub view: [u8; PITS + 2],
    /// The viewer's legal actions (0 unless the viewer is to move and the
    /// episode goes on).
    pub legal: u8,
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The seat that acted (the agent; in self-play the player who moved).
    pub mover: Player,
    /// The mover's reward.
    pub reward: f64,
    /// The game ended by the rules, or the action was penalized.
    pub terminated: bool,
    /// The step limit was reached first.
    pub truncated: bool,
    /// The penalized illegal action, if that is what happened.
    pub penalized: Option<i64>,
    /// The game's outcome once it has ended by the rules.
    pub outcome: Option<Outcome>,
    /// With [`Autoreset::SameStep`], the ended episode's last observation
    /// (a new episode has started).
    pub final_observation: Option<Observation>,
    /// The step reset an episode that had ended ([`Autoreset::NextStep`]):
    /// the action was ignored.
    pub was_reset: bool,
}

impl Step {
    /// The reward of `seat`: the mover's, and for the other seat its
    /// opposite (the game is zero-sum), or 0 after a penalized action.
    pub fn reward_for(&self, seat: Player) -> f64 {
        if seat == self.mover {
            self.reward
        } else if self.penalized.is_some() {
            0.0
        } else {
            0.0 - self.reward
        }
    }
}

/// An agent's action played, its opponent's replies still to come: what
/// [`Episode::conclude`] needs to finish the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub struct Acted {
    mover: Player,
    before: i32,
    ply: u32,
}

/// An episode's bookkeeping, for saving and restoring it (the game is saved
/// apart, by its record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    seat: Player,
    done: bool,
    penalized: bool,
    steps: u32,
    episodes: u64,
    rng: Xoshiro256PlusPlus,
    random: Xoshiro256PlusPlus,
}

/// One episode and its game (in declaration order, what every step touches
/// first: thousands of episodes are stepped side by side).
#[repr(C)]
pub struct Episode<G> {
    game: G,
    /// The agent's seat (self-play: unused).
    seat: Player,
    /// The episode is over and awaits a reset.
    done: bool,
    /// The episode ended on a penalized illegal action.
    penalized: bool,
    /// Steps taken in this episode.
    steps: u32,
    /// The random opponent's draws.
    random: Xoshiro256PlusPlus,
    /// The moves of the episode, for its record.
    moves: Vec<Move>,
    /// A searching opponent (`None`: random, self-play or external).
    opponent: Option<Box<dyn Agent>>,
    /// Seat draws and the opponent's seed.
    rng: Xoshiro256PlusPlus,
    /// Episodes started since the last seeding (for the alternating seat).
    episodes: u64,
}

impl<G: EpisodeGame> Episode<G> {
    /// An episode of `opts` seeded by `seed`, awaiting its first reset.
    ///
    /// # Panics
    /// When `opts`' opponent searches ([`Opponent::needs_game`]) and `G` is
    /// not a full [`Game`].
    pub fn new(opts: &EpisodeOptions, seed: u64) -> Episode<G> {
        let start = Position::start(&opts.rules);
        let mut ep = Episode {
            game: G::from_position(opts.rules, start),
            moves: Vec::new(),
            seat: Player::South,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            random: Xoshiro256PlusPlus::seed_from_u64(seed),
            opponent: None,
            steps: 0,
            episodes: 0,
            done: true,
            penalized: false,
        };
        assert!(
            !opts.opponent.needs_game() || ep.game.full().is_some(),
            "a searching opponent needs an episode of a full Game"
        );
        ep.seed(opts, seed);
        ep
    }

    /// Restarts the random streams from `seed` (and the alternating seats).
    pub fn seed(&mut self, opts: &EpisodeOptions, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.episodes = 0;
        let opponent_seed = self.rng.next_u64();
        self.random = Xoshiro256PlusPlus::seed_from_u64(opponent_seed);
        self.opponent = match opts.opponent {
            Opponent::Agent(Kind::AlphaBeta, budget) => Some(Box::new(
                players::AlphaBeta::new(budget, opponent_seed).with_table_bits(EPISODE_TABLE_BITS),
            )),
            Opponent::Agent(Kind::Random, _) | Opponent::SelfPlay | Opponent::External => None,
            Opponent::Agent(kind, budget) => Some(players::new_player(kind, budget, opponent_seed)),
        };
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game's outcome once it has ended by the rules (a lean game
    /// works out its legal moves if it needs them to tell).
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The agent's seat.
    pub fn seat(&self) -> Player {
        self.seat
    }

    /// Whether the episode is over and awaits a reset.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The moves of this episode.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The seat whose view the observation shows and whose reward is given:
    /// the agent, or in self-play the player to move.
    #[inline]
    pub fn viewer(&self, opts: &EpisodeOptions) -> Player {
        match opts.opponent {
            Opponent::SelfPlay => self.game.position().to_move(),
            _ => self.seat,
        }
    }

    /// Starts a new episode from the rules' start: a seat (`seat`, else by
    /// the options), the opponent's opening moves.
    #[inline]
    pub fn reset(&mut self, opts: &EpisodeOptions, seat: Option<Player>) {
        self.reset_from(opts, Position::start(&opts.rules), seat);
    }

    /// [`Episode::reset`] from `start` (valid for the rules).
    pub fn reset_from(&mut self, opts: &EpisodeOptions, start: Position, seat: Option<Player>) {
        self.begin(opts, seat);
        // The same game started again: no allocation a reset.
        self.game.restart(opts.rules, start);
        self.opponent_turns(opts);
    }

    /// [`Episode::reset_from`] a whole game (its history kept).
    pub fn reset_to_game(&mut self, opts: &EpisodeOptions, game: G, seat: Option<Player>) {
        self.begin(opts, seat);
        self.game = game;
        self.opponent_turns(opts);
    }

    /// A new episode's seat and bookkeeping (its game is the caller's).
    fn begin(&mut self, opts: &EpisodeOptions, seat: Option<Player>) {
        let seat = seat.unwrap_or(match opts.seat {
            SeatChoice::Fixed(p) => p,
            SeatChoice::Alternate => {
                if self.episodes.is_multiple_of(2) {
                    Player::South
                } else {
                    Player::North
                }
            }
            SeatChoice::Random => {
                if self.rng.random_range(0..2u32) == 0 {
                    Player::South
                } else {
                    Player::North
                }
            }
        });
        self.episodes += 1;
        self.seat = seat;
        self.moves.clear();
        self.steps = 0;
        self.done = false;
        self.penalized = false;
    }

    /// Plays the legal `action`, recording it.
    #[inline]
    fn play_action(&mut self, action: u8) -> bool {
        match self.game.play_action(action) {
            Ok(mv) => {
                self.moves.push(mv);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether the opponent is to move in an episode that goes on.
    pub fn awaits_opponent(&mut self, opts: &EpisodeOptions) -> bool {
        opts.opponent != Opponent::SelfPlay
            && self.game.outcome().is_none()
            && self.game.position().to_move() != self.seat
    }

    /// The opponent moves until the agent is to move or the game is over
    /// (an external opponent's moves are the caller's: [`Episode::reply`]).
    fn opponent_turns(&mut self, opts: &EpisodeOptions) {
        if matches!(opts.opponent, Opponent::SelfPlay | Opponent::External) {
            return;
        }
        while self.game.position().to_move() != self.seat {
            let mv = match (self.opponent.as_mut(), self.game.full()) {
                (Some(agent), Some(game)) => match agent.choose(game) {
                    Some(mv) => mv,
                    None => break,
                },
                _ => match self.game.play_random(&mut self.random) {
                    Some(mv) => {
                        self.moves.push(mv);
                        continue;
                    }
                    None => break,
                },
            };
            // A player only chooses legal moves; stop rather than loop.
            if !self.play_action(mv.action()) {
                break;
            }
        }
    }

    /// An external opponent's move: mover-relative `action` for the
    /// opponent, who must be to move ([`Episode::awaits_opponent`]).
    pub fn reply(&mut self, opts: &EpisodeOptions, action: u8) -> Result<Move, IllegalMove> {
        if !self.awaits_opponent(opts) {
            return Err(IllegalMove::GameOver);
        }
        let mv = self.game.play_action(action)?;
        self.moves.push(mv);
        Ok(mv)
    }

    /// `seat`'s store minus the other's (final scores once the game is over).
    #[inline]
    fn margin(&mut self, seat: Player) -> i32 {
        let scores = match self.game.outcome() {
            Some(o) => o.scores,
            None => self.game.position().stores().map(u16::from),
        };
        i32::from(scores[seat.index()]) - i32::from(scores[seat.opponent().index()])
    }

    /// The observation: the board in the options' perspective, and the
    /// viewer's legal actions.
    #[inline]
    pub fn observe(&mut self, opts: &EpisodeOptions) -> Observation {
        let viewer = self.viewer(opts);
        let view = opts.view_of(self.game.position(), viewer);
        let legal = self.viewer_legal(opts);
        Observation { view, legal }
    }

    /// The viewer's legal actions, as [`Episode::observe`] shows them:
    /// none after a penalty or when the viewer is not to move.
    #[inline]
    pub fn viewer_legal(&mut self, opts: &EpisodeOptions) -> u8 {
        let viewer = self.viewer(opts);
        if self.penalized || self.game.position().to_move() != viewer {
            0
        } else {
            self.game.legal_mask()
        }
    }

    /// The observation as `seat` sees it (whoever the viewer is): the
    /// board in the options' perspective and `seat`'s legal actions (0
    /// unless `seat` is to move in an episode that goes on).
    pub fn observe_as(&mut self, opts: &EpisodeOptions, seat: Player) -> Observation {
        let pos = *self.game.position();
        let view = opts.view_of(&pos, seat);
        let legal = if self.done || pos.to_move() != seat {
            0
        } else {
            self.game.legal_mask()
        };
        Observation { view, legal }
    }

    /// Ends the episode where it stands (its opening failed, say): it
    /// awaits a reset.
    pub fn abandon_episode(&mut self) {
        self.done = true;
    }

    /// Why `action` (0..=5) is illegal for the player to move.
    pub fn why_illegal(&self, opts: &EpisodeOptions, action: u8) -> IllegalMove {
        let pos = self.game.position();
        match pos.move_for_action(action) {
            Err(e) => e,
            Ok(mv) => match pos.check_move(&opts.rules, mv) {
                Err(e) => e,
                Ok(_) => IllegalMove::GameOver,
            },
        }
    }

    /// Checks `action` against this episode's legal actions (see
    /// [`check_action`]); a refused illegal action comes with the engine's
    /// reason.
    pub fn check(&mut self, opts: &EpisodeOptions, action: i64) -> Result<Checked, ActionError> {
        if self.done {
            return Err(ActionError::EpisodeOver);
        }
        let legal = self.observe(opts).legal;
        match check_action(legal, action, opts.illegal.penalty().is_some()) {
            Err(ActionError::Illegal(_)) => {
                Err(ActionError::Illegal(self.why_illegal(opts, action as u8)))
            }
            other => other,
        }
    }

    /// The agent plays the legal `action`; the opponent's replies and
    /// [`Episode::conclude`] finish the step.
    #[inline]
    pub fn act(&mut self, opts: &EpisodeOptions, action: u8) -> Acted {
        let mover = self.viewer(opts);
        // The margin before the move: stores only, a game under way.
        let before = match opts.reward {
            Reward::SeedDifference => self.margin(mover),
            Reward::WinLoss => 0,
        };
        let ply = self.game.position().ply();
        // Checked legal by the caller; nothing to do if not.
        self.play_action(action);
        Acted { mover, before, ply }
    }

    /// Takes back the agent's action and the replies since `acted` (where
    /// the game can: a full game), as when an external opponent failed.
    pub fn abandon(&mut self, acted: Acted) {
        while self.game.position().ply() > acted.ply && self.game.undo() {
            self.moves.pop();
        }
    }

    /// Finishes a step begun by [`Episode::act`]: the reward, the end and
    /// truncation, and the autoreset.
    #[inline]
    pub fn conclude(&mut self, opts: &EpisodeOptions, acted: Acted) -> Step {
        let outcome = self.game.outcome();
        let reward = match opts.reward {
            Reward::SeedDifference => f64::from(self.margin(acted.mover) - acted.before),
            Reward::WinLoss => outcome.map_or(0.0, |o| f64::from(o.result_for(acted.mover))),
        };
        self.finish(opts, acted.mover, reward, outcome, outcome.is_some(), None)
    }

    /// One step with a checked action: the agent's move and the opponent's
    /// replies (or the penalty), then as [`Episode::conclude`]. On an
    /// episode that is over, the step resets it instead.
    // Inlined by force: with a second caller (the batch step's lanes, which
    // call it through `lanes::step_aside`) the compiler kept it out of the
    // batch loop, which cost instructions on every env-step.
    #[inline(always)]
    pub fn step(&mut self, opts: &EpisodeOptions, action: Checked) -> Step {
        if self.done {
            // NEXT_STEP: the step after an episode's end resets it.
            self.reset(opts, None);
            return Step {
                mover: self.viewer(opts),
                reward: 0.0,
                terminated: false,
                truncated: false,
                penalized: None,
                outcome: None,
                final_observation: None,
                was_reset: true,
            };
        }
        match action {
            Checked::Penalized(a) => {
                self.penalized = true;
                let mover = self.viewer(opts);
                let penalty = opts.illegal.penalty().unwrap_or(0.0);
                let outcome = self.game.outcome();
                self.finish(opts, mover, penalty, outcome, true, Some(a))
            }
            Checked::Legal(a) => {
                let acted = self.act(opts, a);
                self.opponent_turns(opts);
                self.conclude(opts, acted)
            }
        }
    }

    /// Counts the step, sees truncation and the end, and autoresets
    /// (`outcome`: the game's, as the caller has just asked it).
    #[inline(always)]
    fn finish(
        &mut self,
        opts: &EpisodeOptions,
        mover: Player,
        reward: f64,
        outcome: Option<Outcome>,
        terminated: bool,
        penalized: Option<i64>,
    ) -> Step {
        self.steps += 1;
        let truncated = !terminated && opts.max_steps.is_some_and(|m| self.steps >= m);
        let mut final_observation = None;
        if terminated || truncated {
            self.done = true;
            if opts.autoreset == Autoreset::SameStep {
                // The episode's last observation (as the viewer of that step
                // saw it), then a new episode.
                final_observation = Some(self.observe(opts));
                self.reset(opts, None);
            }
        }
        Step {
            mover,
            reward,
            terminated,
            truncated,
            penalized,
            outcome,
            final_observation,
            was_reset: false,
        }
    }

    /// The episode's bookkeeping, for [`Episode::restore`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            seat: self.seat,
            done: self.done,
            penalized: self.penalized,
            steps: self.steps,
            episodes: self.episodes,
            rng: self.rng.clone(),
            random: self.random.clone(),
        }
    }

    /// Restores a [`Snapshot`] with its game and the episode's moves, once
    /// [`check_restore`] finds them consistent with each other and with
    /// `opts` (else the episode is unchanged).
    pub fn restore(
        &mut self,
        opts: &EpisodeOptions,
        snapshot: Snapshot,
        mut game: G,
        moves: Vec<Move>,
    ) -> Result<(), RestoreError> {
        if let Some(whole) = game.full() {
            check_history(opts, whole, &moves)?;
        }
        check_restore(opts, &snapshot, &mut game)?;
        self.seat = snapshot.seat;
        self.done = snapshot.done;
        self.penalized = snapshot.penalized;
        self.steps = snapshot.steps;
        self.episodes = snapshot.episodes;
        self.rng = snapshot.rng;
        self.random = snapshot.random;
        self.game = game;
        self.moves = moves;
        Ok(())
    }
}

/// A restored episode state (a pickle) that contradicts itself or its
/// options: restoring it would let the episode go on by other rules, or
/// refuse a legal action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("an episode state that does not hold together: {0}")]
pub struct RestoreError(pub String);

/// Checks that a whole `game` is one of `opts`' rules and that the
/// episode's `moves` are its last moves.
pub fn check_history(
    opts: &EpisodeOptions,
    game: &Game,
    moves: &[Move],
) -> Result<(), RestoreError> {
    if *game.rules() != opts.rules {
        return Err(RestoreError(format!(
            "its game is of rules {}, the episode's options are for {}",
            game.rules(),
            opts.rules
        )));
    }
    if !game.moves().ends_with(moves) {
        return Err(RestoreError(
            "its moves are not the last moves of its game".to_owned(),
        ));
    }
    Ok(())
}

/// Checks a snapshot's bookkeeping against its game, as the steps that
/// would have made them keep it: a game that has ended, a penalized
/// action or the step limit reached is a finished episode, and an episode
/// that goes on against a computer opponent waits for the agent's move.
pub fn check_restore<G: EpisodeGame>(
    opts: &EpisodeOptions,
    snapshot: &Snapshot,
    game: &mut G,
) -> Result<(), RestoreError> {
    if snapshot.done {
        return Ok(());
    }
    let fail = |why: &str| Err(RestoreError(why.to_owned()));
    if game.outcome().is_some() {
        return fail("its game has ended and the episode is not marked done");
    }
    if snapshot.penalized {
        return fail("it ended on a penalized action and is not marked done");
    }
    if opts.max_steps.is_some_and(|m| snapshot.steps >= m) {
        return fail("it has taken its steps and is not marked done");
    }
    if matches!(opts.opponent, Opponent::Agent(..)) && game.position().to_move() != snapshot.seat {
        return fail("the agent is not to move and the episode is not marked done");
    }
    Ok(())
}

impl<G: EpisodeGame> Episode<G> {
    /// The game record of the current episode, for an episode reset to the
    /// rules' start ([`Episode::reset`]).
    pub fn record(&self, opts: &EpisodeOptions) -> String {
        let mut game = Game::new(opts.rules);
        for &mv in &self.moves {
            // Every recorded move was played legally in this game.
            let _ = game.play(mv);
        }
        game.record()
    }
}
