//! [`VecEnv`]: the batched environment, N episodes stepped in one call on
//! up to a given number of threads, each step's results written into the
//! caller's rows ([`Rows`]). The Python `ayo.vector.AyoVectorEnv` and the C
//! ABI's `AyoVecEnv` are this type; they only make the arrays.
//!
//! A step checks the whole batch of actions first, from each game's status
//! byte ([`first_refused`]): a refused action is an error and nothing
//! changes. Then every episode is stepped ([`step_batch_rows`]), on the
//! calling thread alone or cut into shares for a team of helper threads
//! (`team.rs`, `split.rs`). Each episode's randomness comes from its own
//! seeded streams, so a run is identical whatever the number of threads.
//!
//! ```
//! use ayo_core::episode::{EpisodeOptions, OwnedRows, VecEnv};
//! use ayo_core::Rules;
//! let opts = EpisodeOptions::new(Rules::preset("oware")?);
//! let seeds: Vec<u64> = (0..4).collect();
//! let mut env = VecEnv::new(opts, &seeds, 1)?;
//! let mut rows = OwnedRows::new(env.num_envs());
//! env.reset(rows.rows(), None, None, None)?;
//! for _ in 0..10 {
//!     // Each game's first legal action, from its status row.
//!     let actions: Vec<i64> = rows.status().iter().map(|s| i64::from(s.trailing_zeros())).collect();
//!     let counts = env.step(&actions, rows.rows())?;
//!     assert!(counts.ended <= 4);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Mutex;
use std::time::Instant;

use super::rows::DONE;
use super::split::{Claims, Split, Timing, MIN_THREADED};
use super::team::Team;
use super::{
    check_restore, first_refused, step_batch_rows, ActionError, Counts, Episode, EpisodeGame,
    EpisodeOptions, OptionsError, RestoreError, Rows, RowsError, Snapshot,
};
use crate::threads::{thread_count, ThreadsError};
use crate::{Game, IllegalMove, LeanGame, Move, Player, Position};

/// Why a batched environment could not be made, reset or stepped.
#[derive(Debug, thiserror::Error)]
pub enum VecEnvError {
    /// A batch of no games.
    #[error("num_envs must be at least 1")]
    NoGames,
    /// Seeds not one a game.
    #[error("expected {games} seeds, got {seeds}")]
    Seeds {
        /// The games.
        games: usize,
        /// The seeds given.
        seeds: usize,
    },
    /// Options that cannot make the batch's episodes.
    #[error("{0}")]
    Options(#[from] OptionsError),
    /// A thread count out of range.
    #[error("{0}")]
    Threads(#[from] ThreadsError),
    /// The helper threads could not be started.
    #[error("cannot start the batch's threads: {0}")]
    Spawn(std::io::Error),
    /// Memory for the batch could not be had.
    #[error(
        "out of memory: could not allocate {bytes} bytes for {what} of a batch of {games} games"
    )]
    OutOfMemory {
        /// The bytes asked for.
        bytes: u128,
        /// What they were for.
        what: &'static str,
        /// The batch's games.
        games: usize,
    },
    /// Rows or actions that are not one a game.
    #[error("{0}")]
    Rows(#[from] RowsError),
    /// A reset's mask or seeds not one a game.
    #[error("the {what} of a reset must have {games} entries, not {len}")]
    ResetLength {
        /// The argument.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The games.
        games: usize,
    },
    /// A game's action refused: the first in the batch (nothing was stepped).
    #[error("game {game}: {error}")]
    Refused {
        /// The game.
        game: usize,
        /// Why ([`ActionError::Illegal`] with the position's reason).
        error: ActionError,
    },
    /// A restored game whose moves cannot be replayed.
    #[error("game {game}: {error}")]
    Replay {
        /// The game.
        game: usize,
        /// The move that cannot be played.
        error: IllegalMove,
    },
    /// A restored game whose state does not hold together.
    #[error("game {game}: {error}")]
    Restore {
        /// The game.
        game: usize,
        /// Why.
        error: RestoreError,
    },
}

/// The episodes of a batch: of lean games, or of full games for an
/// opponent that searches (which reads the full game).
enum Episodes {
    Lean(Vec<Episode<LeanGame>>),
    Full(Vec<Episode<Game>>),
}

/// `body` with `$eps` bound to the batch's episodes, whichever kind.
macro_rules! with_episodes {
    ($episodes:expr, |$eps:ident| $body:expr) => {
        match $episodes {
            Episodes::Lean($eps) => $body,
            Episodes::Full($eps) => $body,
        }
    };
}

/// One episode's state as [`VecEnv::state`] gives it and
/// [`VecEnv::restore`] takes it: its bookkeeping and its moves (its game is
/// replayed from the rules' start).
pub type EpisodeState = (Snapshot, Vec<Move>);

/// A batch of episodes stepped together (see the module docs).
pub struct VecEnv {
    opts: EpisodeOptions,
    episodes: Episodes,
    /// Each game's status byte ([`Rows::status`]): a step is checked from
    /// these bytes alone, without reading the games; the caller's status
    /// row gets a copy.
    status: Vec<u8>,
    /// How a threaded step splits the games between the threads.
    split: Split,
    /// The helper threads, for more than one thread and at least
    /// [`MIN_THREADED`] games.
    team: Option<Team>,
    threads: usize,
}

/// An empty vector with room for `len` items, or [`VecEnvError::OutOfMemory`].
fn room<T>(len: usize, what: &'static str, games: usize) -> Result<Vec<T>, VecEnvError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| VecEnvError::OutOfMemory {
            bytes: len as u128 * std::mem::size_of::<T>() as u128,
            what,
            games,
        })?;
    Ok(v)
}

/// The episodes of `seeds`' games (one each), allocated fallibly.
fn episodes_of<G: EpisodeGame>(
    opts: &EpisodeOptions,
    seeds: &[u64],
) -> Result<Vec<Episode<G>>, VecEnvError> {
    let mut eps = room(seeds.len(), "the episodes", seeds.len())?;
    eps.extend(seeds.iter().map(|&s| Episode::new(opts, s)));
    Ok(eps)
}

/// `rows` with its status row replaced by `status`, and the status row
/// it had (a step writes the batch's own status bytes, then copies them).
fn with_status<'a: 'b, 'b>(mut rows: Rows<'a>, status: &'b mut [u8]) -> (Rows<'b>, &'a mut [u8]) {
    let theirs = std::mem::take(&mut rows.status);
    (Rows { status, ..rows }, theirs)
}

impl VecEnv {
    /// A batch of one game a seed (`seeds[i]` seeds game `i`'s random
    /// streams), stepped on up to `threads` threads ([`thread_count`]'s
    /// rule: 0 is every core). Each game awaits its first
    /// [`VecEnv::reset`]. An error for no games, options whose episodes can
    /// end before the agent's first move, a thread count out of range,
    /// threads that cannot start, or memory that cannot be had.
    pub fn new(opts: EpisodeOptions, seeds: &[u64], threads: usize) -> Result<VecEnv, VecEnvError> {
        let n = seeds.len();
        if n == 0 {
            return Err(VecEnvError::NoGames);
        }
        let threads = thread_count(Some(i64::try_from(threads).unwrap_or(i64::MAX)))?;
        // An episode must start with the agent to move.
        opts.check_opening()?;
        // The episodes first (the largest part).
        let episodes = if opts.opponent.needs_game() {
            Episodes::Full(episodes_of(&opts, seeds)?)
        } else {
            Episodes::Lean(episodes_of(&opts, seeds)?)
        };
        // A new game awaits its first reset.
        let mut status = room(n, "the status bytes", n)?;
        status.resize(n, DONE);
        // Helpers spin between steps: never more threads than CPUs.
        let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
        let helpers = threads.min(cpus) - 1;
        let team = if helpers > 0 && n >= MIN_THREADED {
            Some(Team::new(helpers).map_err(VecEnvError::Spawn)?)
        } else {
            None
        };
        Ok(VecEnv {
            opts,
            episodes,
            status,
            split: Split::default(),
            team,
            threads,
        })
    }

    /// The number of games.
    pub fn num_envs(&self) -> usize {
        self.status.len()
    }

    /// The most threads a step uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The episodes' options.
    pub fn options(&self) -> &EpisodeOptions {
        &self.opts
    }

    /// Each game's status after the last reset or step: its legal actions
    /// (bits 0..=5) and [`DONE`].
    pub fn status(&self) -> &[u8] {
        &self.status
    }

    /// Starts new episodes in the games where `mask` is true (all when
    /// `None`): `seeds[i]`, when given, first restarts game `i`'s random
    /// streams; `seat` overrides the agent's seat for these episodes.
    /// Writes those games' rows (observation, masks, seat, turn, status; no
    /// news). An error, and nothing changed, when the rows, the mask or the
    /// seeds are not one a game.
    pub fn reset(
        &mut self,
        rows: Rows<'_>,
        mask: Option<&[bool]>,
        seeds: Option<&[Option<u64>]>,
        seat: Option<Player>,
    ) -> Result<(), VecEnvError> {
        let n = self.num_envs();
        rows.check(n)?;
        for (what, len) in [
            ("mask", mask.map(<[_]>::len)),
            ("seeds", seeds.map(<[_]>::len)),
        ] {
            match len {
                Some(len) if len != n => {
                    return Err(VecEnvError::ResetLength {
                        what,
                        len,
                        games: n,
                    })
                }
                _ => {}
            }
        }
        let (mut rows, theirs) = with_status(rows, &mut self.status);
        let opts = &self.opts;
        with_episodes!(&mut self.episodes, |eps| {
            for (i, ep) in eps.iter_mut().enumerate() {
                if mask.is_some_and(|m| !m[i]) {
                    continue;
                }
                if let Some(s) = seeds.and_then(|s| s[i]) {
                    ep.seed(opts, s);
                }
                ep.reset(opts, seat);
                rows.write_start(opts, ep, i, 0)?;
            }
        });
        theirs.copy_from_slice(&self.status);
        Ok(())
    }

    /// The first of `actions` (one a game, 0..=5 relative to the mover)
    /// that a step refuses, as [`VecEnvError::Refused`]: an action out of
    /// range, an illegal one unless the options penalize it, an action of
    /// a game that is over when autoreset is disabled.
    pub fn check(&self, actions: &[i64]) -> Result<(), VecEnvError> {
        let n = self.num_envs();
        if actions.len() != n {
            return Err(RowsError::Actions {
                games: n,
                actions: actions.len(),
            }
            .into());
        }
        let Some(game) = first_refused(&self.opts, &self.status, actions) else {
            return Ok(());
        };
        let a = actions[game];
        let error = if self.status[game] & DONE != 0 {
            ActionError::EpisodeOver
        } else if !(0..6).contains(&a) {
            ActionError::OutOfRange(a)
        } else {
            let why = with_episodes!(&self.episodes, |eps| eps[game]
                .why_illegal(&self.opts, a as u8));
            ActionError::Illegal(why)
        };
        Err(VecEnvError::Refused { game, error })
    }

    /// One step of every game: `actions[i]` for game `i`. Checks the whole
    /// batch first ([`VecEnv::check`]; a refused action is an error and
    /// nothing changes), then steps every episode on up to
    /// [`VecEnv::threads`] threads and writes the rows, the rows of news
    /// cleared first; what happened, counted.
    pub fn step(&mut self, actions: &[i64], rows: Rows<'_>) -> Result<Counts, VecEnvError> {
        self.check(actions)?;
        rows.check(self.num_envs())?;
        let (rows, theirs) = with_status(rows, &mut self.status);
        let (opts, team, split) = (&self.opts, self.team.as_mut(), &mut self.split);
        let counts = with_episodes!(&mut self.episodes, |eps| {
            step_all(opts, eps, actions, rows, team, split)
        });
        theirs.copy_from_slice(&self.status);
        Ok(counts?)
    }

    /// The game record (start position and moves) of each game's episode.
    pub fn records(&self) -> Result<Vec<String>, VecEnvError> {
        let n = self.num_envs();
        let mut out = room(n, "the records", n)?;
        with_episodes!(&self.episodes, |eps| {
            out.extend(eps.iter().map(|ep| ep.record(&self.opts)));
        });
        Ok(out)
    }

    /// Whether game `i`'s episode is over and awaits a reset (`None` past
    /// the games).
    pub fn is_done(&self, i: usize) -> Option<bool> {
        with_episodes!(&self.episodes, |eps| eps.get(i).map(Episode::is_done))
    }

    /// Every episode's state, for [`VecEnv::restore`] (a computer
    /// opponent's own state, its random stream and tables, is not kept).
    pub fn state(&self) -> Result<Vec<EpisodeState>, VecEnvError> {
        let n = self.num_envs();
        let mut out = room(n, "the state", n)?;
        with_episodes!(&self.episodes, |eps| {
            out.extend(eps.iter().map(|ep| (ep.snapshot(), ep.moves().to_vec())));
        });
        Ok(out)
    }

    /// Restores [`VecEnv::state`]'s state (of a batch of as many games
    /// with the same options) and rewrites every game's rows. A state that
    /// does not hold together is an error and changes nothing.
    pub fn restore(&mut self, state: Vec<EpisodeState>, rows: Rows<'_>) -> Result<(), VecEnvError> {
        let n = self.num_envs();
        if state.len() != n {
            return Err(RowsError::Length {
                row: "state",
                len: state.len(),
                want: n,
                games: n,
            }
            .into());
        }
        rows.check(n)?;
        let (mut rows, theirs) = with_status(rows, &mut self.status);
        let opts = &self.opts;
        with_episodes!(&mut self.episodes, |eps| {
            restore_all(opts, eps, state, &mut rows)
        })?;
        theirs.copy_from_slice(&self.status);
        Ok(())
    }
}

/// [`VecEnv::restore`] for one kind of episode: every game replayed and
/// checked first, so that a bad one leaves the batch as it was.
fn restore_all<G: EpisodeGame>(
    opts: &EpisodeOptions,
    eps: &mut [Episode<G>],
    state: Vec<EpisodeState>,
    rows: &mut Rows<'_>,
) -> Result<(), VecEnvError> {
    let mut games = room(eps.len(), "the games of a restored batch", eps.len())?;
    for (game, (snapshot, moves)) in state.iter().enumerate() {
        let mut g = G::from_position(opts.rules, Position::start(&opts.rules));
        for &mv in moves {
            g.play_action(mv.action())
                .map_err(|error| VecEnvError::Replay { game, error })?;
        }
        check_restore(opts, snapshot, &mut g)
            .map_err(|error| VecEnvError::Restore { game, error })?;
        games.push(g);
    }
    for (i, ((snapshot, moves), g)) in state.into_iter().zip(games).enumerate() {
        let ep = &mut eps[i];
        ep.restore(opts, snapshot, g, moves)
            .map_err(|error| VecEnvError::Restore { game: i, error })?;
        let resumed = ep.moves().len();
        rows.write_start(opts, ep, i, resumed)?;
    }
    Ok(())
}

/// Two shares' counts added, or the first error.
fn add(a: Result<Counts, RowsError>, b: Result<Counts, RowsError>) -> Result<Counts, RowsError> {
    let (mut a, b) = (a?, b?);
    a += b;
    Ok(a)
}

/// Steps every game: on the calling thread alone, or with `team`'s helpers
/// from [`MIN_THREADED`] games. The games are cut into contiguous shares,
/// the caller's first (as `split` says, which the step then adapts) and
/// then one a helper; the caller claims shares from the front and the
/// helpers from the back, so each thread steps nearly the same games every
/// step, and the caller takes the share of a helper that has not started
/// when it is done with its own. Each game's result depends only on its own
/// state and action, so who steps it changes nothing. What happened,
/// counted; an error, and nothing stepped, when the actions or the rows
/// are not one a game.
fn step_all<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    mut out: Rows<'_>,
    team: Option<&mut Team>,
    split: &mut Split,
) -> Result<Counts, RowsError> {
    let Some(team) = team.filter(|_| episodes.len() >= MIN_THREADED) else {
        return step_batch_rows(opts, episodes, actions, &mut out);
    };
    // Checked whole before any share is stepped: the shares, cut from
    // rows and actions that fit, then fit too.
    out.check(episodes.len())?;
    if actions.len() != episodes.len() {
        return Err(RowsError::Actions {
            games: episodes.len(),
            actions: actions.len(),
        });
    }
    let (n, threads) = (episodes.len(), team.threads());
    let caller = split.caller_games(n, threads);
    let helper = (n - caller).div_ceil(threads - 1);
    let mut shares = Vec::with_capacity(threads);
    let (mut episodes, mut actions, mut out) = (episodes, actions, out);
    while !episodes.is_empty() {
        let k = if shares.is_empty() { caller } else { helper }.min(episodes.len());
        let (these, rest) = std::mem::take(&mut episodes).split_at_mut(k);
        let (acts, rest_acts) = actions.split_at(k);
        let (rows, rest_rows) = out.split_at(k);
        shares.push(Mutex::new(Some((these, acts, rows))));
        (episodes, actions, out) = (rest, rest_acts, rest_rows);
    }
    let claims = Claims::new(shares.len());
    let done = Mutex::new((Ok(Counts::default()), Timing::default()));
    team.run(&|me| {
        let start = Instant::now();
        let (mut mine, mut games) = (Ok(Counts::default()), 0);
        while let Some(b) = claims.next(me) {
            // Each share is claimed once; its lock is never contended.
            let claimed = shares[b].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some((these, acts, mut rows)) = claimed {
                games += these.len();
                mine = add(mine, step_batch_rows(opts, these, acts, &mut rows));
            }
        }
        let secs = start.elapsed().as_secs_f64();
        // Adding cannot panic: a poisoned lock still holds the sums.
        let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
        done.0 = add(done.0, mine);
        if me == 0 {
            done.1.caller = (games, secs);
        } else if games > 0 {
            let h = &mut done.1.helpers;
            *h = (h.0 + games, h.1.max(secs));
        }
    });
    let (counts, timing) = done.into_inner().unwrap_or_else(|e| e.into_inner());
    split.rebalance(n, threads, timing);
    counts
}
