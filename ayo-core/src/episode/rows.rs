//! The batched environment's output rows: a game's observation, masks,
//! reward, flags, news and status after each reset and step, in flat arrays
//! (a row a game), as the bindings hand them to their callers (the Python
//! batched environment's numpy arrays). The bindings only make the arrays;
//! what goes in them is written here, for every path of the batch step.

use std::cell::Cell;

use super::{Episode, EpisodeGame, EpisodeOptions, Observation, Opponent, Step};
use crate::observation::{write_view, ACTIONS, MASK_BOOL, MASK_I8, OBS};
use crate::{EndReason, Position};

/// The status bit of an episode that is over and awaits a reset.
pub const DONE: u8 = 0x80;

/// The code of an end reason in the `reason` row: 0 target, 1 move limit,
/// 2 repetition, 3 no legal move.
pub fn reason_code(reason: EndReason) -> i8 {
    match reason {
        EndReason::Target => 0,
        EndReason::MoveLimit => 1,
        EndReason::Repetition => 2,
        EndReason::NoLegalMove => 3,
    }
}

/// The output rows of a run of games (game `i`'s rows at `i` times the
/// width of each), split into runs for threads by [`Rows::split_at`].
pub struct Rows<'a> {
    /// The observation's seeds ([`OBS`] a game) as float32.
    pub obs: &'a mut [f32],
    /// The observation's action mask ([`ACTIONS`] a game) as int8.
    pub obs_mask: &'a mut [i8],
    /// The action mask ([`ACTIONS`] a game).
    pub mask: &'a mut [bool],
    /// The step's reward.
    pub reward: &'a mut [f64],
    /// The game ended by the rules, or the action was penalized.
    pub terminated: &'a mut [bool],
    /// The step limit was reached.
    pub truncated: &'a mut [bool],
    /// The seat whose view the observation shows (0 South, 1 North).
    pub seat: &'a mut [i8],
    /// The ended episode's last observation (same-step autoreset).
    pub final_obs: &'a mut [f32],
    /// Its action mask.
    pub final_obs_mask: &'a mut [i8],
    /// The episode ended this step (terminated or truncated).
    pub ended: &'a mut [bool],
    /// The game ended by the rules this step.
    pub game_over: &'a mut [bool],
    /// Its final stores (two a game), 0 elsewhere.
    pub scores: &'a mut [i16],
    /// Its winner (0 South, 1 North, -1 a draw), 0 elsewhere.
    pub winner: &'a mut [i8],
    /// The penalized illegal action, -1 elsewhere.
    pub illegal: &'a mut [i8],
    /// The player to move after the step (0 South, 1 North).
    pub to_move: &'a mut [i8],
    /// The game's ply after the step.
    pub ply: &'a mut [u32],
    /// The opponent's reply this step (its action 0..=5), -1 where it did not move.
    pub replied: &'a mut [i8],
    /// Why a game that ended by the rules this step ended ([`reason_code`]), -1 elsewhere.
    pub reason: &'a mut [i8],
    /// Each game's status after the step (the next step's check of the
    /// actions reads it): its legal actions (bits 0..=5) and [`DONE`].
    pub status: &'a mut [u8],
}

/// A batch's output rows in vectors of its own ([`Rows`] are the
/// caller's slices; these lend them as [`OwnedRows::rows`]): for a Rust
/// caller of [`super::step_batch_rows`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnedRows {
    obs: Vec<f32>,
    obs_mask: Vec<i8>,
    mask: Vec<bool>,
    reward: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    seat: Vec<i8>,
    final_obs: Vec<f32>,
    final_obs_mask: Vec<i8>,
    ended: Vec<bool>,
    game_over: Vec<bool>,
    scores: Vec<i16>,
    winner: Vec<i8>,
    illegal: Vec<i8>,
    to_move: Vec<i8>,
    ply: Vec<u32>,
    replied: Vec<i8>,
    reason: Vec<i8>,
    status: Vec<u8>,
}

impl OwnedRows {
    /// Rows for `n` games, zeroed.
    pub fn new(n: usize) -> OwnedRows {
        OwnedRows {
            obs: vec![0.0; n * OBS],
            obs_mask: vec![0; n * ACTIONS],
            mask: vec![false; n * ACTIONS],
            reward: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            seat: vec![0; n],
            final_obs: vec![0.0; n * OBS],
            final_obs_mask: vec![0; n * ACTIONS],
            ended: vec![false; n],
            game_over: vec![false; n],
            scores: vec![0; 2 * n],
            winner: vec![0; n],
            illegal: vec![0; n],
            to_move: vec![0; n],
            ply: vec![0; n],
            replied: vec![0; n],
            reason: vec![0; n],
            status: vec![0; n],
        }
    }

    /// Every row but the final observations filled with a value that is
    /// not a row's usual one (out of range for most), so that a row one
    /// path of the batch step leaves unwritten where the other writes it
    /// shows (for tests).
    pub fn fill_unwritten(&mut self) {
        self.obs.fill(-7.0);
        self.obs_mask.fill(7);
        self.mask.fill(true);
        self.reward.fill(-7.0);
        self.terminated.fill(true);
        self.truncated.fill(true);
        self.seat.fill(7);
        self.ended.fill(true);
        self.game_over.fill(true);
        self.scores.fill(7);
        self.winner.fill(7);
        self.illegal.fill(7);
        self.to_move.fill(7);
        self.ply.fill(u32::MAX);
        self.replied.fill(7);
        self.reason.fill(7);
        self.status.fill(0xFF);
    }

    /// Each game's status ([`Rows::status`]).
    pub fn status(&self) -> &[u8] {
        &self.status
    }

    /// The rows as slices.
    pub fn rows(&mut self) -> Rows<'_> {
        Rows {
            obs: &mut self.obs,
            obs_mask: &mut self.obs_mask,
            mask: &mut self.mask,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            seat: &mut self.seat,
            final_obs: &mut self.final_obs,
            final_obs_mask: &mut self.final_obs_mask,
            ended: &mut self.ended,
            game_over: &mut self.game_over,
            scores: &mut self.scores,
            winner: &mut self.winner,
            illegal: &mut self.illegal,
            to_move: &mut self.to_move,
            ply: &mut self.ply,
            replied: &mut self.replied,
            reason: &mut self.reason,
            status: &mut self.status,
        }
    }
}

/// How many games of a step had each kind of news (so that the caller
/// builds its reports only for what happened).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Episodes that ended (terminated or truncated).
    pub ended: usize,
    /// Games that ended by the rules (`scores` and `winner` set).
    pub over: usize,
    /// Penalized illegal actions.
    pub penalized: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.ended += other.ended;
        self.over += other.over;
        self.penalized += other.penalized;
    }
}

/// Rows that do not fit the games they are written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowsError {
    /// A row whose length is not its width times the games.
    #[error("the {row} row holds {len} values, not {want} ({games} games)")]
    Length {
        /// The row.
        row: &'static str,
        /// Its length.
        len: usize,
        /// The length it needs.
        want: usize,
        /// The games.
        games: usize,
    },
    /// Actions not one a game.
    #[error("expected {games} actions (one a game), got {actions}")]
    Actions {
        /// The games.
        games: usize,
        /// The actions given.
        actions: usize,
    },
    /// A game past the rows' games.
    #[error("game {game} is not one of the rows' {games} games")]
    Game {
        /// The game.
        game: usize,
        /// The rows' games.
        games: usize,
    },
}

/// Splits every slice of a [`Rows`] at `n` games: `$($field, $width)`.
macro_rules! split_rows {
    ($rows:expr, $n:expr, $($field:ident: $width:expr),* $(,)?) => {{
        let rows = $rows;
        $(let $field = rows.$field.split_at_mut($n * $width);)*
        (
            Rows { $($field: $field.0,)* },
            Rows { $($field: $field.1,)* },
        )
    }};
}

/// A step that the batch step in lanes took on its common path (the agent's
/// legal action and the random reply, nothing ended): what its rows need,
/// known there without asking the episode again.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    /// The step, as [`Episode::step`] reports it.
    pub(crate) step: Step,
    /// The position after the reply (the agent to move).
    pub(crate) position: Position,
    /// The agent's legal actions there.
    pub(crate) legal: u8,
    /// The reply's action (0..=5).
    pub(crate) reply: u8,
}

/// Where the batch step writes what each step did: the bindings' rows
/// ([`super::step_batch_rows`]), or a caller's closure (`step_batch`).
pub trait BatchOut<G> {
    /// Game `i`'s step `step` (its episode after it, and its moves before it).
    fn step(&mut self, i: usize, ep: &mut Episode<G>, step: &Step, moves_before: usize);

    /// Game `i`'s step taken on the lanes' common path ([`Kept`]).
    #[inline(always)]
    fn kept(&mut self, i: usize, ep: &mut Episode<G>, kept: &Kept, moves_before: usize) {
        self.step(i, ep, &kept.step, moves_before);
    }
}

#[cfg(any(test, feature = "testing"))]
/// A caller's closure as a [`BatchOut`].
pub(crate) struct Written<W>(pub W);

#[cfg(any(test, feature = "testing"))]
impl<G, W: FnMut(usize, &mut Episode<G>, &Step, usize)> BatchOut<G> for Written<W> {
    #[inline(always)]
    fn step(&mut self, i: usize, ep: &mut Episode<G>, step: &Step, moves_before: usize) {
        (self.0)(i, ep, step, moves_before);
    }
}

/// Checks that every row of a [`Rows`] holds its width times `games`
/// values: `$($field, $width)`.
macro_rules! check_rows {
    ($rows:expr, $games:expr, $($field:ident: $width:expr),* $(,)?) => {{
        $(
            let (len, want) = ($rows.$field.len(), $games * $width);
            if len != want {
                return Err(RowsError::Length { row: stringify!($field), len, want, games: $games });
            }
        )*
        Ok(())
    }};
}

impl<'a> Rows<'a> {
    /// Checks that the rows are `games` games' rows, every row as long as
    /// its width times that.
    pub fn check(&self, games: usize) -> Result<(), RowsError> {
        check_rows!(self, games,
            obs: OBS, obs_mask: ACTIONS, mask: ACTIONS, reward: 1, terminated: 1,
            truncated: 1, seat: 1, final_obs: OBS, final_obs_mask: ACTIONS, ended: 1,
            game_over: 1, scores: 2, winner: 1, illegal: 1, to_move: 1, ply: 1,
            replied: 1, reason: 1, status: 1,
        )
    }

    /// The first `n` games' rows and the rest.
    ///
    /// # Panics
    /// When the rows hold fewer than `n` games' rows.
    pub fn split_at(self, n: usize) -> (Rows<'a>, Rows<'a>) {
        split_rows!(self, n,
            obs: OBS, obs_mask: ACTIONS, mask: ACTIONS, reward: 1, terminated: 1,
            truncated: 1, seat: 1, final_obs: OBS, final_obs_mask: ACTIONS, ended: 1,
            game_over: 1, scores: 2, winner: 1, illegal: 1, to_move: 1, ply: 1,
            replied: 1, reason: 1, status: 1,
        )
    }

    /// Clears the rows of news (what a step has only for the few games
    /// with news) before a step, all at once.
    pub fn clear_news(&mut self) {
        self.ended.fill(false);
        self.game_over.fill(false);
        self.illegal.fill(-1);
        self.scores.fill(0);
        self.winner.fill(0);
        self.reason.fill(-1);
    }

    /// Writes game `i`'s observation and masks; returns its legal actions.
    #[inline]
    pub fn write_obs(&mut self, i: usize, o: &Observation) -> u8 {
        write_view(&o.view, &mut self.obs[i * OBS..(i + 1) * OBS]);
        // Whole rows from tables: six byte stores, not a loop over bits.
        let row = usize::from(o.legal & 63);
        let acts = i * ACTIONS..(i + 1) * ACTIONS;
        if let Ok(m) = <&mut [i8; ACTIONS]>::try_from(&mut self.obs_mask[acts.clone()]) {
            *m = MASK_I8[row];
        }
        if let Ok(m) = <&mut [bool; ACTIONS]>::try_from(&mut self.mask[acts]) {
            *m = MASK_BOOL[row];
        }
        o.legal
    }

    /// Writes game `i`'s final observation (same-step autoreset).
    #[inline]
    pub fn write_final_obs(&mut self, i: usize, o: &Observation) {
        write_view(&o.view, &mut self.final_obs[i * OBS..(i + 1) * OBS]);
        let row = usize::from(o.legal & 63);
        if let Ok(m) =
            <&mut [i8; ACTIONS]>::try_from(&mut self.final_obs_mask[i * ACTIONS..(i + 1) * ACTIONS])
        {
            *m = MASK_I8[row];
        }
    }

    /// Writes game `i`'s rows for an episode that starts (or, restored,
    /// goes on) here: no news of a step, its view, seat, turn and status;
    /// the opponent's reply among its moves from `from` on. An error (and
    /// nothing written) when the rows are not rows of games or `i` is not
    /// one of their games.
    pub fn write_start<G: EpisodeGame>(
        &mut self,
        opts: &EpisodeOptions,
        ep: &mut Episode<G>,
        i: usize,
        from: usize,
    ) -> Result<(), RowsError> {
        let games = self.status.len();
        self.check(games)?;
        if i >= games {
            return Err(RowsError::Game { game: i, games });
        }
        self.reward[i] = 0.0;
        self.terminated[i] = false;
        self.truncated[i] = false;
        self.ended[i] = false;
        self.game_over[i] = false;
        self.illegal[i] = -1;
        self.reason[i] = -1;
        self.seat[i] = ep.viewer(opts).index() as i8;
        self.write_turn(opts, ep, i, from);
        let legal = self.write_obs(i, &ep.observe(opts));
        self.status[i] = legal | if ep.is_done() { DONE } else { 0 };
        Ok(())
    }

    /// Writes game `i`'s rows after `step` (the rows of news cleared
    /// before the step by [`Rows::clear_news`]; `moves_before`: the
    /// episode's moves before it) but its status, which it returns; counts
    /// its news.
    #[inline(always)]
    fn write_step<G: EpisodeGame>(
        &mut self,
        opts: &EpisodeOptions,
        ep: &mut Episode<G>,
        i: usize,
        step: &Step,
        moves_before: usize,
        counts: &mut Counts,
    ) -> u8 {
        self.reward[i] = step.reward;
        self.terminated[i] = step.terminated;
        self.truncated[i] = step.truncated;
        if let Some(p) = step.penalized {
            self.illegal[i] = p as i8;
            counts.penalized += 1;
        }
        if let Some(o) = step.outcome {
            self.game_over[i] = true;
            self.scores[2 * i] = o.scores[0] as i16;
            self.scores[2 * i + 1] = o.scores[1] as i16;
            self.winner[i] = o.winner.map_or(-1, |w| w.index() as i8);
            self.reason[i] = reason_code(o.reason);
            counts.over += 1;
        }
        if step.terminated || step.truncated {
            self.ended[i] = true;
            counts.ended += 1;
        }
        if let Some(last) = &step.final_observation {
            self.write_final_obs(i, last);
        }
        self.seat[i] = ep.viewer(opts).index() as i8;
        // A new episode (an autoreset) has only this step's moves.
        let from = if step.was_reset || ep.moves().len() < moves_before {
            0
        } else {
            moves_before
        };
        self.write_turn(opts, ep, i, from);
        let legal = self.write_obs(i, &ep.observe(opts));
        legal | if ep.is_done() { DONE } else { 0 }
    }

    /// [`Rows::write_step`] for a step of the lanes' common path, from what
    /// the lanes know of it: a reward, no news, the agent to move.
    #[inline(always)]
    fn write_kept(&mut self, opts: &EpisodeOptions, i: usize, seat: i8, kept: &Kept) -> u8 {
        self.reward[i] = kept.step.reward;
        self.terminated[i] = false;
        self.truncated[i] = false;
        self.seat[i] = seat;
        self.to_move[i] = seat;
        self.ply[i] = kept.position.ply();
        self.replied[i] = kept.reply as i8;
        let view = opts.view_of(&kept.position, kept.step.mover);
        self.write_obs(
            i,
            &Observation {
                view,
                legal: kept.legal,
            },
        );
        kept.legal
    }

    /// Writes game `i`'s player to move, ply and the opponent's reply among
    /// the episode's moves from `from` on (the moves of this step).
    #[inline]
    fn write_turn<G: EpisodeGame>(
        &mut self,
        opts: &EpisodeOptions,
        ep: &Episode<G>,
        i: usize,
        from: usize,
    ) {
        let pos = ep.game().position();
        self.to_move[i] = pos.to_move().index() as i8;
        self.ply[i] = pos.ply();
        // The opponent moves at most once a step, after the agent: its reply
        // is the step's last move when that move is from the opponent's row
        // (in self-play there is no opponent).
        self.replied[i] = -1;
        if opts.opponent != Opponent::SelfPlay {
            let moves = ep.moves();
            if let Some(&last) = moves.get(from..).and_then(|m| m.last()) {
                if last.pit() / 6 == ep.seat().opponent().index() {
                    self.replied[i] = last.action() as i8;
                }
            }
        }
    }
}

/// The rows of a step ([`super::step_batch_rows`]): the rows but the
/// status, the status row apart as cells (the check of each action reads
/// it, each step's rows rewrite it), and the news counted.
pub(crate) struct RowsOut<'r, 'a> {
    pub opts: &'r EpisodeOptions,
    pub rows: &'r mut Rows<'a>,
    pub status: &'r [Cell<u8>],
    pub counts: Counts,
}

impl<G: EpisodeGame> BatchOut<G> for RowsOut<'_, '_> {
    #[inline(always)]
    fn step(&mut self, i: usize, ep: &mut Episode<G>, step: &Step, moves_before: usize) {
        let status = self
            .rows
            .write_step(self.opts, ep, i, step, moves_before, &mut self.counts);
        self.status[i].set(status);
    }

    #[inline(always)]
    fn kept(&mut self, i: usize, _ep: &mut Episode<G>, kept: &Kept, _moves_before: usize) {
        let seat = kept.step.mover.index() as i8;
        let status = self.rows.write_kept(self.opts, i, seat, kept);
        self.status[i].set(status);
    }
}
