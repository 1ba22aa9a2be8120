//! `VecCore`: N games stepped in one call, entirely in Rust (the engine of
//! `ayo.vector.AyoVectorEnv`).
//!
//! Every rule is ayo-core's: each game is an `ayo_core::LeanGame` (the game
//! reduced to what its rules need: repetition sees that game's own positions
//! since the last capture), moves are checked and played by it, the random
//! opponent is its uniform legal draw, and the searching opponents are
//! `ayo_core::players` agents (reading a full `Game` kept beside it), one per
//! game with its own seed. This module only batches: it validates the whole batch of
//! actions first (a bad one raises and changes nothing), then releases the GIL
//! and steps every game, on up to `num_threads` threads over contiguous chunks
//! of games, writing into numpy arrays made once at construction (the same
//! arrays every step: no copies). Each game's randomness (its opponent and
//! its seat draws) comes from its own seeded stream, so a run is identical
//! whatever the number of threads.

use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use ayo_core::players::{self, Agent, Budget, Kind, Level};
use ayo_core::{Game, LeanGame, Move, Player, Position, Rules};
use numpy::ndarray::Dimension;
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods,
    PyUntypedArrayMethods,
};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::errors::{self, AyoError};
use crate::rules::PyRules;
use crate::team::Team;

/// Features of one observation: 12 pits and 2 stores.
pub(crate) const OBS: usize = 14;
/// Actions per move.
pub(crate) const ACTIONS: usize = 6;
/// Transposition-table size (log2 entries) of each game's alpha-beta
/// opponent: 4,096 entries (64 KiB), so that thousands of games fit in memory
/// (a level's own table can be up to 32 MiB).
const BATCH_TABLE_BITS: u32 = 12;

/// Row `m`: the action mask of the bit set `m` (bit `a`: action `a`), as bools.
const MASK_BOOL: [[bool; ACTIONS]; 64] = {
    let mut rows = [[false; ACTIONS]; 64];
    let mut m = 0;
    while m < 64 {
        let mut a = 0;
        while a < ACTIONS {
            rows[m][a] = m & (1 << a) != 0;
            a += 1;
        }
        m += 1;
    }
    rows
};

/// [`MASK_BOOL`] as the observation's int8.
const MASK_I8: [[i8; ACTIONS]; 64] = {
    let mut rows = [[0i8; ACTIONS]; 64];
    let mut m = 0;
    while m < 64 {
        let mut a = 0;
        while a < ACTIONS {
            rows[m][a] = MASK_BOOL[m][a] as i8;
            a += 1;
        }
        m += 1;
    }
    rows
};

/// [`Slot::status`]'s bit for an episode that is over and awaits a reset.
const DONE: u8 = 0x80;

/// What plays the seat the caller does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opponent {
    /// A computer player of `ayo_core::players` (random, greedy, a level, …).
    Agent(Kind, Budget),
    /// No opponent: the caller moves for whichever side is to move.
    SelfPlay,
}

/// How the agent's seat is chosen at each reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeatMode {
    Fixed(Player),
    Alternate,
    Random,
}

/// Gymnasium's autoreset modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Autoreset {
    NextStep,
    SameStep,
    Disabled,
}

/// The options shared by every game of a batch.
#[derive(Clone, Copy, Debug)]
struct Config {
    rules: Rules,
    opponent: Opponent,
    seat: SeatMode,
    absolute: bool,
    seed_difference: bool,
    /// `Some(reward)`: an illegal action ends the episode with this reward;
    /// `None`: it raises `IllegalMoveError`.
    penalty: Option<f64>,
    /// Steps per episode before truncation (agent steps; plies in self-play).
    max_steps: Option<u32>,
    autoreset: Autoreset,
}

/// One game of the batch and its episode's bookkeeping (in declaration
/// order, what every step touches first: fewer cache lines per game).
#[repr(C)]
struct Slot {
    /// The game: only what the rules need to go on (one sowing a move where
    /// the legal moves are the non-empty pits; the children kept otherwise).
    lean: LeanGame,
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
    /// The moves of the episode, for `records`.
    moves: Vec<Move>,
    /// A searching opponent (`None`: random, or self-play).
    opponent: Option<Box<dyn Agent>>,
    /// The same game in full, kept only for an opponent that searches (it
    /// reads a `Game`); `None` with the random opponent and in self-play
    /// (boxed: a smaller slot is fewer cache lines a step).
    shadow: Option<Box<Game>>,
    /// Seat draws and the opponent's seed.
    rng: Xoshiro256PlusPlus,
    /// Episodes started since the last seeding (for the alternating seat).
    episodes: u64,
}

/// The output rows of a run of games, split into chunks for the threads.
struct Rows<'a> {
    obs: &'a mut [f32],
    obs_mask: &'a mut [i8],
    mask: &'a mut [bool],
    reward: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    seat: &'a mut [i8],
    final_obs: &'a mut [f32],
    final_obs_mask: &'a mut [i8],
    ended: &'a mut [bool],
    game_over: &'a mut [bool],
    scores: &'a mut [i16],
    winner: &'a mut [i8],
    illegal: &'a mut [i8],
    /// Each game's [`Slot::status`] after the step (the next validation's input).
    status: &'a mut [u8],
}

impl<'a> Rows<'a> {
    /// The first `n` games' rows and the rest.
    fn split_at(self, n: usize) -> (Rows<'a>, Rows<'a>) {
        let (obs, obs2) = self.obs.split_at_mut(n * OBS);
        let (obs_mask, obs_mask2) = self.obs_mask.split_at_mut(n * ACTIONS);
        let (mask, mask2) = self.mask.split_at_mut(n * ACTIONS);
        let (reward, reward2) = self.reward.split_at_mut(n);
        let (terminated, terminated2) = self.terminated.split_at_mut(n);
        let (truncated, truncated2) = self.truncated.split_at_mut(n);
        let (seat, seat2) = self.seat.split_at_mut(n);
        let (final_obs, final_obs2) = self.final_obs.split_at_mut(n * OBS);
        let (final_obs_mask, final_obs_mask2) = self.final_obs_mask.split_at_mut(n * ACTIONS);
        let (ended, ended2) = self.ended.split_at_mut(n);
        let (game_over, game_over2) = self.game_over.split_at_mut(n);
        let (scores, scores2) = self.scores.split_at_mut(2 * n);
        let (winner, winner2) = self.winner.split_at_mut(n);
        let (illegal, illegal2) = self.illegal.split_at_mut(n);
        let (status, status2) = self.status.split_at_mut(n);
        (
            Rows {
                obs,
                obs_mask,
                mask,
                reward,
                terminated,
                truncated,
                seat,
                final_obs,
                final_obs_mask,
                ended,
                game_over,
                scores,
                winner,
                illegal,
                status,
            },
            Rows {
                obs: obs2,
                obs_mask: obs_mask2,
                mask: mask2,
                reward: reward2,
                terminated: terminated2,
                truncated: truncated2,
                seat: seat2,
                final_obs: final_obs2,
                final_obs_mask: final_obs_mask2,
                ended: ended2,
                game_over: game_over2,
                scores: scores2,
                winner: winner2,
                illegal: illegal2,
                status: status2,
            },
        )
    }
}

/// Seeds of `player`'s view: their row, the other row, their store, the other store.
#[inline]
pub(crate) fn write_view(pos: &Position, seat: Player, out: &mut [f32]) {
    let view = pos.view(seat);
    for (o, &v) in out[..OBS].iter_mut().zip(&view) {
        *o = f32::from(v);
    }
}

impl Slot {
    fn new(cfg: &Config, seed: u64) -> Slot {
        let start = Position::start(&cfg.rules);
        let mut slot = Slot {
            lean: LeanGame::new(cfg.rules, start),
            moves: Vec::new(),
            shadow: None,
            seat: Player::South,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            random: Xoshiro256PlusPlus::seed_from_u64(seed),
            opponent: None,
            steps: 0,
            episodes: 0,
            done: true,
            penalized: false,
        };
        slot.seed(cfg, seed);
        slot
    }

    /// Restarts this game's random streams from `seed`.
    fn seed(&mut self, cfg: &Config, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.episodes = 0;
        let opponent_seed = self.rng.next_u64();
        self.random = Xoshiro256PlusPlus::seed_from_u64(opponent_seed);
        self.opponent = match cfg.opponent {
            Opponent::Agent(Kind::AlphaBeta, budget) => Some(Box::new(
                players::AlphaBeta::new(budget, opponent_seed).with_table_bits(BATCH_TABLE_BITS),
            )),
            Opponent::Agent(Kind::Random, _) | Opponent::SelfPlay => None,
            Opponent::Agent(kind, budget) => Some(players::new_player(kind, budget, opponent_seed)),
        };
    }

    /// The seat whose view the observation shows and whose reward is given.
    fn viewer(&self, cfg: &Config) -> Player {
        match cfg.opponent {
            Opponent::SelfPlay => self.lean.position().to_move(),
            Opponent::Agent(..) => self.seat,
        }
    }

    /// Starts a new episode: a seat, a new game, the opponent's opening moves.
    fn reset(&mut self, cfg: &Config, seat: Option<Player>) {
        let seat = seat.unwrap_or(match cfg.seat {
            SeatMode::Fixed(p) => p,
            SeatMode::Alternate => {
                if self.episodes % 2 == 0 {
                    Player::South
                } else {
                    Player::North
                }
            }
            SeatMode::Random => {
                if self.rng.random_range(0..2u32) == 0 {
                    Player::South
                } else {
                    Player::North
                }
            }
        });
        self.episodes += 1;
        self.seat = seat;
        self.lean.reset(Position::start(&cfg.rules));
        self.moves.clear();
        self.shadow = match (self.opponent.is_some(), self.shadow.take()) {
            (false, _) => None,
            (true, Some(mut g)) => {
                *g = Game::new(cfg.rules);
                Some(g)
            }
            (true, None) => Some(Box::new(Game::new(cfg.rules))),
        };
        self.steps = 0;
        self.done = false;
        self.penalized = false;
        self.opponent_turns(cfg);
    }

    /// Plays the legal action `action` (checked by the caller).
    fn play_action(&mut self, action: u8) -> bool {
        match self.lean.play_action(action) {
            Ok(mv) => {
                self.moves.push(mv);
                if let Some(g) = self.shadow.as_mut() {
                    // The same move is legal in the same game.
                    let _ = g.play(mv);
                }
                true
            }
            Err(_) => false,
        }
    }

    /// The opponent moves until the agent is to move or the game is over.
    fn opponent_turns(&mut self, cfg: &Config) {
        if cfg.opponent == Opponent::SelfPlay {
            return;
        }
        while self.lean.position().to_move() != self.seat {
            let mv = match (self.opponent.as_mut(), self.shadow.as_ref()) {
                (Some(agent), Some(game)) => match agent.choose(game) {
                    Some(mv) => mv,
                    None => break,
                },
                _ => match self.lean.play_random(&mut self.random) {
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

    /// `seat`'s store minus the other's (final scores once the game is over).
    fn margin(&mut self, seat: Player) -> i32 {
        let scores = match self.lean.outcome() {
            Some(o) => o.scores,
            None => self.lean.position().stores().map(u16::from),
        };
        i32::from(scores[seat.index()]) - i32::from(scores[seat.opponent().index()])
    }

    /// Writes the observation and masks of this game as `viewer` sees it.
    fn write_obs(
        &mut self,
        cfg: &Config,
        obs: &mut [f32],
        obs_mask: &mut [i8],
        mask: Option<&mut [bool]>,
    ) -> u8 {
        let viewer = self.viewer(cfg);
        let pos = *self.lean.position();
        if cfg.absolute {
            write_view(&pos, Player::South, obs);
        } else {
            write_view(&pos, viewer, obs);
        }
        let legal = if self.penalized || pos.to_move() != viewer {
            0
        } else {
            self.lean.legal_mask()
        };
        // Whole rows from tables: six byte stores, not a loop over bits.
        let row = usize::from(legal & 63);
        if let Ok(obs_mask) = <&mut [i8; ACTIONS]>::try_from(obs_mask) {
            *obs_mask = MASK_I8[row];
        }
        if let Some(Ok(mask)) = mask.map(<&mut [bool; ACTIONS]>::try_from) {
            *mask = MASK_BOOL[row];
        }
        legal
    }

    /// What the next step's validation needs of this game, in one byte:
    /// the legal actions (bits 0..=5, the caller's mask) and [`DONE`].
    fn status(&self, legal: u8) -> u8 {
        legal | if self.done { DONE } else { 0 }
    }

    /// One step of this game with `action` (already validated), writing row
    /// `i` of `out` (whose news rows were cleared: see [`step_chunk`]).
    fn step(&mut self, cfg: &Config, action: i64, out: &mut Rows<'_>, i: usize) {
        let obs = i * OBS..(i + 1) * OBS;
        let acts = i * ACTIONS..(i + 1) * ACTIONS;
        if self.done {
            // NEXT_STEP: the step after an episode's end resets that game.
            self.reset(cfg, None);
            out.reward[i] = 0.0;
            out.terminated[i] = false;
            out.truncated[i] = false;
        } else {
            let mover = self.viewer(cfg);
            let legal = u8::try_from(action)
                .ok()
                .filter(|&a| a < ACTIONS as u8 && self.lean.legal_mask() & (1 << a) != 0);
            let (reward, terminated) = match legal {
                None => {
                    out.illegal[i] = action as i8;
                    self.penalized = true;
                    (cfg.penalty.unwrap_or(0.0), true)
                }
                Some(a) => self.play(cfg, mover, a),
            };
            self.steps += 1;
            let truncated = !terminated && cfg.max_steps.is_some_and(|m| self.steps >= m);
            out.reward[i] = reward;
            out.terminated[i] = terminated;
            out.truncated[i] = truncated;
            if let Some(o) = self.lean.outcome() {
                out.game_over[i] = true;
                out.scores[2 * i] = o.scores[0] as i16;
                out.scores[2 * i + 1] = o.scores[1] as i16;
                out.winner[i] = o.winner.map_or(-1, |w| w.index() as i8);
            }
            if terminated || truncated {
                out.ended[i] = true;
                self.done = true;
                if cfg.autoreset == Autoreset::SameStep {
                    // The episode's last observation goes to `final_obs`
                    // (as the viewer of that step saw it), then a new one starts.
                    let _ = self.write_obs(
                        cfg,
                        &mut out.final_obs[obs.clone()],
                        &mut out.final_obs_mask[acts.clone()],
                        None,
                    );
                    self.reset(cfg, None);
                }
            }
        }
        out.seat[i] = self.viewer(cfg).index() as i8;
        let legal = self.write_obs(
            cfg,
            &mut out.obs[obs],
            &mut out.obs_mask[acts.clone()],
            Some(&mut out.mask[acts]),
        );
        out.status[i] = self.status(legal);
    }

    /// Plays the legal `action` for `mover` (and the opponent's replies): the
    /// reward for `mover` and whether the game is over.
    fn play(&mut self, cfg: &Config, mover: Player, action: u8) -> (f64, bool) {
        // The margin before the move: stores only, a game under way.
        let before = if cfg.seed_difference {
            self.margin(mover)
        } else {
            0
        };
        if !self.play_action(action) {
            // Validated legal before the step; nothing to do if not.
            return (0.0, false);
        }
        self.opponent_turns(cfg);
        let outcome = self.lean.outcome();
        let reward = if cfg.seed_difference {
            f64::from(self.margin(mover) - before)
        } else {
            outcome.map_or(0.0, |o| f64::from(o.result_for(mover)))
        };
        (reward, outcome.is_some())
    }

    /// The game record of the current episode.
    fn record(&self, cfg: &Config) -> String {
        let mut game = Game::new(cfg.rules);
        for &mv in &self.moves {
            // Every recorded move was played legally in this game.
            let _ = game.play(mv);
        }
        game.record()
    }
}

/// How many games of a step had each kind of news (so that the caller
/// builds `info` only for what happened).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Episodes that ended (terminated or truncated).
    ended: usize,
    /// Games that ended by the rules (`scores` and `winner` set).
    over: usize,
    /// Penalized illegal actions.
    penalized: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.ended += other.ended;
        self.over += other.over;
        self.penalized += other.penalized;
    }
}

/// Steps `slots[k]` with `actions[k]` for every `k` (all rows of `out`).
fn step_chunk(cfg: &Config, slots: &mut [Slot], actions: &[i64], mut out: Rows<'_>) -> Counts {
    let mut counts = Counts::default();
    // The rows of news are cleared at once; the few games with news set theirs.
    out.ended.fill(false);
    out.game_over.fill(false);
    out.illegal.fill(-1);
    out.scores.fill(0);
    out.winner.fill(0);
    for (i, (slot, &a)) in slots.iter_mut().zip(actions).enumerate() {
        slot.step(cfg, a, &mut out, i);
        counts.ended += usize::from(out.ended[i]);
        counts.over += usize::from(out.game_over[i]);
        counts.penalized += usize::from(out.illegal[i] >= 0);
    }
    counts
}

/// Fewest games a step shares between threads (fewer are not worth a helper).
const MIN_THREADED: usize = 128;

/// The shares of a threaded step not yet claimed, `front..back`: the caller
/// claims from the front and the helpers from the back.
struct Claims(AtomicU64);

impl Claims {
    fn new(shares: usize) -> Claims {
        Claims(AtomicU64::new((shares as u64) << 32))
    }

    /// The next share for thread `me` (0: the caller), or None when all are claimed.
    fn next(&self, me: usize) -> Option<usize> {
        let mut cur = self.0.load(Ordering::Relaxed);
        loop {
            let (front, back) = (cur & 0xFFFF_FFFF, cur >> 32);
            if front >= back {
                return None;
            }
            let (new, share) = if me == 0 {
                (cur + 1, front)
            } else {
                (cur - (1 << 32), back - 1)
            };
            match self
                .0
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Some(share as usize),
                Err(now) => cur = now,
            }
        }
    }
}

/// Steps every game: on the calling thread alone, or with `team`'s helpers
/// from [`MIN_THREADED`] games. The games are cut into one contiguous share
/// a thread; the caller claims shares from the front and the helpers from
/// the back, so each thread steps the same games every step (their state
/// stays in its core's cache: measured, about 10% faster at 1,024 `oware` games
/// than 64-game blocks claimed in turn), and the caller takes the share of
/// a helper that has not started when it is done with its own. Each game's
/// result depends only on its own state and action, so who steps it
/// changes nothing. What happened, counted.
fn step_all(
    cfg: &Config,
    slots: &mut [Slot],
    actions: &[i64],
    out: Rows<'_>,
    team: Option<&Team>,
) -> Counts {
    let Some(team) = team.filter(|_| slots.len() >= MIN_THREADED) else {
        return step_chunk(cfg, slots, actions, out);
    };
    let share = slots.len().div_ceil(team.threads());
    let mut shares = Vec::with_capacity(team.threads());
    let (mut slots, mut actions, mut out) = (slots, actions, out);
    while !slots.is_empty() {
        let k = share.min(slots.len());
        let (these, rest) = std::mem::take(&mut slots).split_at_mut(k);
        let (acts, rest_acts) = actions.split_at(k);
        let (rows, rest_rows) = out.split_at(k);
        shares.push(Mutex::new(Some((these, acts, rows))));
        (slots, actions, out) = (rest, rest_acts, rest_rows);
    }
    let claims = Claims::new(shares.len());
    let counts = Mutex::new(Counts::default());
    team.run(&|me| {
        let mut mine = Counts::default();
        while let Some(b) = claims.next(me) {
            // Each share is claimed once; its lock is never contended.
            let claimed = shares[b].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some((these, acts, rows)) = claimed {
                mine += step_chunk(cfg, these, acts, rows);
            }
        }
        // Adding cannot panic: a poisoned lock still holds the sum.
        *counts.lock().unwrap_or_else(|e| e.into_inner()) += mine;
    });
    counts.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Parses the `opponent` argument: `None` (self-play), "random", "greedy",
/// a level (1..8, "max"; its budget for `rules`), or an object with `kind`
/// and `budget` attributes (an `ayo.Player`; one made from a level plays
/// that level's budget for `rules`).
fn opponent_from(obj: Option<&Bound<'_, PyAny>>, rules: &Rules) -> PyResult<Opponent> {
    let Some(obj) = obj else {
        return Ok(Opponent::SelfPlay);
    };
    if obj.is_none() {
        return Ok(Opponent::SelfPlay);
    }
    let bad = || {
        AyoError::new_err(format!(
            "opponent must be None (self-play), \"random\", \"greedy\", a level 1..8 or \"max\", \
             or an ayo.Player, not {}",
            obj.repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    if let Ok(n) = obj.extract::<i64>() {
        let level = u8::try_from(n)
            .ok()
            .filter(|n| (1..=8).contains(n))
            .and_then(Level::new);
        let (kind, budget) = level.ok_or_else(bad)?.spec_for(rules);
        return Ok(Opponent::Agent(kind, budget));
    }
    if let Ok(s) = obj.extract::<String>() {
        if let Ok(kind) = Kind::from_str(&s) {
            if matches!(kind, Kind::Random | Kind::Greedy) {
                return Ok(Opponent::Agent(kind, Budget::Depth(1)));
            }
            return Err(bad());
        }
        let (kind, budget) = Level::from_str(&s).map_err(|_| bad())?.spec_for(rules);
        return Ok(Opponent::Agent(kind, budget));
    }
    let level = obj
        .getattr("level")
        .ok()
        .and_then(|l| l.extract::<String>().ok())
        .and_then(|l| Level::from_str(&l).ok());
    if let Some(level) = level {
        let (kind, budget) = level.spec_for(rules);
        return Ok(Opponent::Agent(kind, budget));
    }
    if let (Ok(kind), Ok(budget)) = (obj.getattr("kind"), obj.getattr("budget")) {
        let kind: String = kind.extract().map_err(|_| bad())?;
        let budget: String = budget.extract().map_err(|_| bad())?;
        let kind = Kind::from_str(&kind).map_err(AyoError::new_err)?;
        let budget = Budget::from_str(&budget).map_err(AyoError::new_err)?;
        if matches!(budget, Budget::Time(_)) {
            return Err(AyoError::new_err(
                "a batch opponent needs a depth or node budget (a time budget is not reproducible)",
            ));
        }
        return Ok(Opponent::Agent(kind, budget));
    }
    Err(bad())
}

fn seat_from(obj: &Bound<'_, PyAny>) -> PyResult<SeatMode> {
    let bad = || AyoError::new_err("agent_seat must be 0, 1, \"alternate\" or \"random\"");
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    if let Ok(n) = obj.extract::<i64>() {
        return match n {
            0 => Ok(SeatMode::Fixed(Player::South)),
            1 => Ok(SeatMode::Fixed(Player::North)),
            _ => Err(bad()),
        };
    }
    match obj.extract::<String>().map_err(|_| bad())?.as_str() {
        "alternate" => Ok(SeatMode::Alternate),
        "random" => Ok(SeatMode::Random),
        _ => Err(bad()),
    }
}

/// A batch of `num_envs` Ayo games stepped together in Rust; the engine of
/// `ayo.vector.AyoVectorEnv` (use that class: it adds Gymnasium's API).
///
/// The arrays (`obs`, `obs_mask`, `mask`, `reward`, `terminated`,
/// `truncated`, `seat`, `final_obs`, `final_obs_mask`, `ended`, `game_over`,
/// `scores`, `winner`, `illegal`) are made once and rewritten in place by
/// every `reset` and `step`.
#[pyclass(name = "VecCore", module = "ayo._ayo")]
pub(crate) struct PyVecCore {
    cfg: Config,
    /// The games (a mutex only so that the class is `Sync`: every method
    /// that changes them has `&mut self`, so it is never locked).
    slots: Mutex<Vec<Slot>>,
    n: usize,
    /// The last step's actions (kept to reuse the allocation).
    actions: Vec<i64>,
    /// Each game's [`Slot::status`]: a step is validated from these bytes
    /// alone, without reading the games.
    status: Vec<u8>,
    threads: usize,
    /// What `gym_step` returns besides the arrays (see `gym_returns`).
    gym: Option<(Py<PyDict>, Py<PyDict>)>,
    /// The helper threads of a batch with `num_threads` > 1 (and CPUs for
    /// them) and at least [`MIN_THREADED`] games.
    team: Option<Team>,
    obs: Py<PyArray2<f32>>,
    obs_mask: Py<PyArray2<i8>>,
    mask: Py<PyArray2<bool>>,
    reward: Py<PyArray1<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    seat: Py<PyArray1<i8>>,
    final_obs: Py<PyArray2<f32>>,
    final_obs_mask: Py<PyArray2<i8>>,
    ended: Py<PyArray1<bool>>,
    game_over: Py<PyArray1<bool>>,
    scores: Py<PyArray2<i16>>,
    winner: Py<PyArray1<i8>>,
    illegal: Py<PyArray1<i8>>,
}

/// One of this object's output arrays as a mutable slice of `len` elements.
///
/// rust-numpy's dynamic borrow checking costs more than stepping a small
/// batch (about 2 µs an array), so the arrays are written through
/// `as_slice_mut` after checking what could make that unsound.
///
/// # Safety
///
/// `arr` must be one of the output arrays of a `PyVecCore` (made by
/// `PyVecCore::new`, owning its data, referenced by that object for its whole
/// life), and no other slice of it may exist while the result lives.
// The `&` to `&mut` is what the # Safety contract above covers.
#[allow(clippy::mut_from_ref)]
unsafe fn out_slice<'a, T: Element, D: Dimension>(
    arr: &'a Bound<'_, PyArray<T, D>>,
    len: usize,
) -> PyResult<&'a mut [T]> {
    let py = arr.py();
    if arr.len() != len || !arr.dtype().is_equiv_to(&numpy::dtype::<T>(py)) {
        return Err(AyoError::new_err(
            "an output array of the batch was reshaped or retyped; make a new batch",
        ));
    }
    // SAFETY: the data stays allocated (the caller's contract), its dtype and
    // length were just checked and `as_slice_mut` checks contiguity; the
    // caller makes no other slice of it. Python code that writes to the
    // arrays from another thread while a step runs (with the GIL released)
    // races with it, as with any numpy extension that releases the GIL; the
    // docs say not to.
    unsafe { arr.as_slice_mut() }.map_err(|e| AyoError::new_err(e.to_string()))
}

/// Makes the rows of every output array (as `out_slice`) and runs the body.
macro_rules! with_rows {
    ($self:ident, $py:ident, |$rows:ident| $body:expr) => {{
        let n = $self.n;
        let obs = $self.obs.bind($py);
        let obs_mask = $self.obs_mask.bind($py);
        let mask = $self.mask.bind($py);
        let reward = $self.reward.bind($py);
        let terminated = $self.terminated.bind($py);
        let truncated = $self.truncated.bind($py);
        let seat = $self.seat.bind($py);
        let final_obs = $self.final_obs.bind($py);
        let final_obs_mask = $self.final_obs_mask.bind($py);
        let ended = $self.ended.bind($py);
        let game_over = $self.game_over.bind($py);
        let scores = $self.scores.bind($py);
        let winner = $self.winner.bind($py);
        let illegal = $self.illegal.bind($py);
        // SAFETY: these are this object's output arrays, one slice each, and
        // `reset` and `step` (the only callers) take `&mut self`.
        let $rows = unsafe {
            Rows {
                obs: out_slice(obs, n * OBS)?,
                obs_mask: out_slice(obs_mask, n * ACTIONS)?,
                mask: out_slice(mask, n * ACTIONS)?,
                reward: out_slice(reward, n)?,
                terminated: out_slice(terminated, n)?,
                truncated: out_slice(truncated, n)?,
                seat: out_slice(seat, n)?,
                final_obs: out_slice(final_obs, n * OBS)?,
                final_obs_mask: out_slice(final_obs_mask, n * ACTIONS)?,
                ended: out_slice(ended, n)?,
                game_over: out_slice(game_over, n)?,
                scores: out_slice(scores, 2 * n)?,
                winner: out_slice(winner, n)?,
                illegal: out_slice(illegal, n)?,
                status: &mut $self.status,
            }
        };
        $body
    }};
}

/// The error of a batch whose games were left in an unknown state by a panic.
fn poisoned() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err("the batch failed in an earlier call")
}

impl PyVecCore {
    /// The games, for reading.
    fn games(&self) -> PyResult<MutexGuard<'_, Vec<Slot>>> {
        self.slots.lock().map_err(|_| poisoned())
    }

    /// Checks the whole batch before anything changes, from the games'
    /// status bytes (the games themselves are read only to explain an error).
    fn validate(
        cfg: &Config,
        py: Python<'_>,
        status: &[u8],
        slots: &[Slot],
        actions: &[i64],
    ) -> PyResult<()> {
        if actions.len() != slots.len() {
            return Err(AyoError::new_err(format!(
                "expected {} actions (one per game), got {}",
                slots.len(),
                actions.len()
            )));
        }
        for (i, (&st, &a)) in status.iter().zip(actions).enumerate() {
            if st & DONE != 0 {
                if cfg.autoreset == Autoreset::Disabled {
                    return Err(crate::vector::EpisodeOver::new_err(format!(
                        "game {i}: its episode is over; reset it with reset(options={{\"reset_mask\": ...}})"
                    )));
                }
                continue;
            }
            if !(0..ACTIONS as i64).contains(&a) {
                return Err(errors::illegal_kind(
                    py,
                    "action_out_of_range",
                    format!("game {i}: action {a} is outside 0..5"),
                ));
            }
            if cfg.penalty.is_none() && st & (1 << a) == 0 {
                let pos = *slots[i].lean.position();
                let mv = pos
                    .move_for_action(a as u8)
                    .map_err(|e| errors::illegal(py, e))?;
                let (kind, why) = match pos.check_move(&cfg.rules, mv) {
                    Err(e) => (e.kind(), e.to_string()),
                    Ok(_) => ("game_over", format!("action {a} is not legal here")),
                };
                return Err(errors::illegal_kind(py, kind, format!("game {i}: {why}")));
            }
        }
        Ok(())
    }
}

pyo3::create_exception!(
    ayo._ayo,
    EpisodeOver,
    AyoError,
    "A batched game was stepped after its episode ended with autoreset disabled."
);

#[pymethods]
impl PyVecCore {
    /// `num_envs` games of `rules`; see `ayo.vector.AyoVectorEnv` for the options.
    #[new]
    #[pyo3(signature = (
        num_envs, rules, opponent, seeds, *, agent_seat = None, perspective = "mover",
        reward = "win_loss", illegal_action = "raise", illegal_penalty = -1.0,
        max_episode_steps = None, autoreset_mode = "NextStep", num_threads = 1
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        rules: &Bound<'_, PyAny>,
        opponent: Option<&Bound<'_, PyAny>>,
        seeds: Vec<u64>,
        agent_seat: Option<&Bound<'_, PyAny>>,
        perspective: &str,
        reward: &str,
        illegal_action: &str,
        illegal_penalty: f64,
        max_episode_steps: Option<i64>,
        autoreset_mode: &str,
        num_threads: usize,
    ) -> PyResult<Self> {
        let rules = PyRules::from_py(rules)?;
        if num_envs == 0 {
            return Err(AyoError::new_err("num_envs must be at least 1"));
        }
        if seeds.len() != num_envs {
            return Err(AyoError::new_err(format!(
                "expected {num_envs} seeds, got {}",
                seeds.len()
            )));
        }
        if num_threads == 0 {
            return Err(AyoError::new_err("num_threads must be at least 1"));
        }
        let opponent = opponent_from(opponent, &rules)?;
        let seat = match agent_seat {
            None => SeatMode::Fixed(Player::South),
            Some(s) => seat_from(s)?,
        };
        let absolute = match perspective {
            "mover" => false,
            "absolute" => true,
            _ => {
                return Err(AyoError::new_err(format!(
                    "perspective must be \"mover\" or \"absolute\", not {perspective:?}"
                )))
            }
        };
        let seed_difference = match reward {
            "win_loss" => false,
            "seed_difference" => true,
            _ => {
                return Err(AyoError::new_err(format!(
                    "reward must be \"win_loss\" or \"seed_difference\", not {reward:?}"
                )))
            }
        };
        let penalty = match illegal_action {
            "raise" => None,
            "penalize" if illegal_penalty.is_finite() => Some(illegal_penalty),
            "penalize" => return Err(AyoError::new_err("illegal_penalty must be finite")),
            _ => {
                return Err(AyoError::new_err(format!(
                    "illegal_action must be \"raise\" or \"penalize\", not {illegal_action:?}"
                )))
            }
        };
        let max_steps = max_episode_steps
            .map(|m| {
                u32::try_from(m).ok().filter(|&m| m >= 1).ok_or_else(|| {
                    AyoError::new_err(format!(
                        "max_episode_steps must be at least 1 or None, not {m}"
                    ))
                })
            })
            .transpose()?;
        let autoreset = match autoreset_mode {
            "NextStep" => Autoreset::NextStep,
            "SameStep" => Autoreset::SameStep,
            "Disabled" => Autoreset::Disabled,
            _ => return Err(AyoError::new_err(format!(
                "autoreset_mode must be \"NextStep\", \"SameStep\" or \"Disabled\", not {autoreset_mode:?}"
            ))),
        };
        // An episode must start with the agent to move: the start and every
        // position one opening move away must be ongoing games.
        let start = Game::new(rules);
        let opening_ends = start.outcome().is_some()
            || start.children().iter().any(|&(mv, _)| {
                let mut g = start.clone();
                g.play(mv).is_err() || g.outcome().is_some()
            });
        if opening_ends {
            return Err(AyoError::new_err(
                "these rules can end the game before its second move; the batched environment \
                 needs games that reach the agent's first turn",
            ));
        }
        let cfg = Config {
            rules,
            opponent,
            seat,
            absolute,
            seed_difference,
            penalty,
            max_steps,
            autoreset,
        };
        let slots = Mutex::new(seeds.iter().map(|&s| Slot::new(&cfg, s)).collect());
        // Helpers spin between steps: never more threads than CPUs.
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let helpers = num_threads.min(cpus) - 1;
        let team = if helpers > 0 && num_envs >= MIN_THREADED {
            let team = Team::new(helpers)
                .map_err(|e| AyoError::new_err(format!("cannot start the batch's threads: {e}")))?;
            Some(team)
        } else {
            None
        };
        let n = num_envs;
        Ok(PyVecCore {
            cfg,
            slots,
            n,
            actions: Vec::with_capacity(n),
            // A new game awaits its first reset.
            status: vec![DONE; n],
            threads: num_threads,
            team,
            gym: None,
            obs: PyArray2::zeros(py, [n, OBS], false).unbind(),
            obs_mask: PyArray2::zeros(py, [n, ACTIONS], false).unbind(),
            mask: PyArray2::zeros(py, [n, ACTIONS], false).unbind(),
            reward: PyArray1::zeros(py, n, false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            seat: PyArray1::zeros(py, n, false).unbind(),
            final_obs: PyArray2::zeros(py, [n, OBS], false).unbind(),
            final_obs_mask: PyArray2::zeros(py, [n, ACTIONS], false).unbind(),
            ended: PyArray1::zeros(py, n, false).unbind(),
            game_over: PyArray1::zeros(py, n, false).unbind(),
            scores: PyArray2::zeros(py, [n, 2], false).unbind(),
            winner: PyArray1::zeros(py, n, false).unbind(),
            illegal: PyArray1::zeros(py, n, false).unbind(),
        })
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }

    /// Most threads a step uses.
    #[getter]
    fn num_threads(&self) -> usize {
        self.threads
    }

    /// Whether the caller moves for both sides (no opponent).
    #[getter]
    fn self_play(&self) -> bool {
        self.cfg.opponent == Opponent::SelfPlay
    }

    /// Starts new episodes in the games where `mask` is true (all when
    /// None): `seeds[i]`, when not None, first restarts game `i`'s random
    /// streams; `agent_seat` (0 or 1) overrides the seat for these episodes.
    /// Writes `obs`, `obs_mask`, `mask` and `seat` for those games and clears
    /// their `reward`, `terminated` and `truncated`.
    #[pyo3(signature = (mask = None, seeds = None, agent_seat = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        mask: Option<Vec<bool>>,
        seeds: Option<Vec<Option<u64>>>,
        agent_seat: Option<i64>,
    ) -> PyResult<()> {
        let n = self.n;
        if mask.as_ref().is_some_and(|m| m.len() != n)
            || seeds.as_ref().is_some_and(|s| s.len() != n)
        {
            return Err(AyoError::new_err(format!(
                "reset_mask and seeds must have {n} entries"
            )));
        }
        let seat = match agent_seat {
            None => None,
            Some(0) => Some(Player::South),
            Some(1) => Some(Player::North),
            Some(s) => {
                return Err(AyoError::new_err(format!(
                    "agent_seat must be 0 or 1, not {s}"
                )))
            }
        };
        let cfg = self.cfg;
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        with_rows!(self, py, |rows| {
            for (i, slot) in slots.iter_mut().enumerate() {
                if mask.as_ref().is_some_and(|m| !m[i]) {
                    continue;
                }
                if let Some(Some(s)) = seeds.as_ref().map(|s| s[i]) {
                    slot.seed(&cfg, s);
                }
                slot.reset(&cfg, seat);
                rows.reward[i] = 0.0;
                rows.terminated[i] = false;
                rows.truncated[i] = false;
                rows.ended[i] = false;
                rows.game_over[i] = false;
                rows.illegal[i] = -1;
                rows.seat[i] = slot.viewer(&cfg).index() as i8;
                let (o, a) = (i * OBS..(i + 1) * OBS, i * ACTIONS..(i + 1) * ACTIONS);
                let legal = slot.write_obs(
                    &cfg,
                    &mut rows.obs[o],
                    &mut rows.obs_mask[a.clone()],
                    Some(&mut rows.mask[a]),
                );
                rows.status[i] = slot.status(legal);
            }
            Ok(())
        })
    }

    /// One step of every game: `actions[i]` (0..5, relative to the mover) for
    /// game `i`. Checks the whole batch first (an action outside 0..5 or, with
    /// `illegal_action="raise"`, an illegal one raises and nothing changes),
    /// then steps every game with the GIL released. Returns how many games
    /// (episodes that ended, games over by the rules, penalized actions).
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyArray1<i64>>,
    ) -> PyResult<(usize, usize, usize)> {
        // The actions are copied while the GIL is held (no Python code runs
        // meanwhile), then the games are stepped from the copy without it.
        let mut copy = std::mem::take(&mut self.actions);
        copy.clear();
        // SAFETY: with the GIL held and no call into Python until the copy
        // is made, nothing can write to the array while it is read.
        match unsafe { actions.as_slice() } {
            Ok(s) => copy.extend_from_slice(s),
            Err(_) => copy.extend(unsafe { actions.as_array() }.iter().copied()),
        }
        let cfg = self.cfg;
        let team = self.team.as_ref();
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let result = Self::validate(&cfg, py, &self.status, slots, &copy).and_then(|()| {
            with_rows!(self, py, |rows| {
                let c = py.detach(|| step_all(&cfg, slots, &copy, rows, team));
                Ok((c.ended, c.over, c.penalized))
            })
        });
        self.actions = copy;
        result
    }

    /// Keeps the two dicts that `gym_step` returns: `obs` itself (its arrays
    /// are this batch's, rewritten in place) and a copy of `info` with the
    /// news of the step added.
    fn gym_returns(&mut self, obs: Py<PyDict>, info: Py<PyDict>) {
        self.gym = Some((obs, info));
    }

    /// `step`, then the whole of Gymnasium's `(obs, reward, terminated,
    /// truncated, info)` for the batch's own arrays (no copies): `info` is a
    /// copy of the dict given to `gym_returns` plus `scores`, `winner` (of
    /// games over by the rules) and `illegal_action` (penalized actions), each
    /// with its `_` mask, when the step had any.
    fn gym_step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyArray1<i64>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let Some((obs, base)) = self
            .gym
            .as_ref()
            .map(|(o, i)| (o.clone_ref(py), i.clone_ref(py)))
        else {
            return Err(AyoError::new_err("gym_returns() was not called"));
        };
        let (_, over, penalized) = self.step(py, actions)?;
        let info = base.bind(py).copy()?;
        if over > 0 {
            let ended = self.game_over.bind(py);
            info.set_item(intern!(py, "scores"), self.scores.bind(py))?;
            info.set_item(intern!(py, "_scores"), ended)?;
            info.set_item(intern!(py, "winner"), self.winner.bind(py))?;
            info.set_item(intern!(py, "_winner"), ended)?;
        }
        if penalized > 0 {
            // SAFETY: the GIL is held and the step is over: nothing writes
            // to the array while it is read.
            let illegal = unsafe { self.illegal.bind(py).as_slice() }
                .map_err(|e| AyoError::new_err(e.to_string()))?;
            let mask = PyArray1::from_iter(py, illegal.iter().map(|&a| a >= 0));
            info.set_item(
                intern!(py, "illegal_action"),
                PyArray1::from_slice(py, illegal),
            )?;
            info.set_item(intern!(py, "_illegal_action"), mask)?;
        }
        (
            obs,
            self.reward.bind(py),
            self.terminated.bind(py),
            self.truncated.bind(py),
            info,
        )
            .into_pyobject(py)
    }

    /// The game records (start position and moves) of every game, for inspection.
    fn records(&self) -> PyResult<Vec<String>> {
        let cfg = self.cfg;
        Ok(self.games()?.iter().map(|s| s.record(&cfg)).collect())
    }

    /// Whether each game's episode is over and awaits a reset.
    fn done(&self) -> PyResult<Vec<bool>> {
        Ok(self.games()?.iter().map(|s| s.done).collect())
    }

    /// Observations (N, 14) float32.
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.bind(py).clone()
    }
    /// Action masks as int8 (N, 6), as in the observation dict.
    #[getter]
    fn obs_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.obs_mask.bind(py).clone()
    }
    /// Action masks as bool (N, 6).
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }
    /// Rewards (N,) float64.
    #[getter]
    fn reward<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.reward.bind(py).clone()
    }
    /// Terminated flags (N,).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    /// Truncated flags (N,).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    /// The seat whose view each observation is (N,) int8: the agent's seat,
    /// or in self-play the player to move.
    #[getter]
    fn seat<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.seat.bind(py).clone()
    }
    /// SAME_STEP autoreset: the last observation of episodes that ended this step.
    #[getter]
    fn final_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.final_obs.bind(py).clone()
    }
    /// SAME_STEP autoreset: the last action mask (int8) of episodes that ended this step.
    #[getter]
    fn final_obs_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.final_obs_mask.bind(py).clone()
    }
    /// Whether an episode ended (terminated or truncated) this step.
    #[getter]
    fn ended<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.ended.bind(py).clone()
    }
    /// Whether a game ended by the rules this step (`scores` and `winner` are set).
    #[getter]
    fn game_over<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.game_over.bind(py).clone()
    }
    /// Final scores (South, North) of games that ended by the rules this step (N, 2) int16.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i16>> {
        self.scores.bind(py).clone()
    }
    /// Winner (0, 1, or -1 for a draw) of games that ended by the rules this step.
    #[getter]
    fn winner<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.winner.bind(py).clone()
    }
    /// The illegal action penalized this step, -1 where none.
    #[getter]
    fn illegal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.illegal.bind(py).clone()
    }
}

/// Registers `VecCore` and `EpisodeOverError` in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecCore>()?;
    m.add("VecEpisodeOverError", m.py().get_type::<EpisodeOver>())?;
    Ok(())
}
