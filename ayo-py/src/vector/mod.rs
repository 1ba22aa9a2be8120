//! `VecCore`: the engine of `ayo.vector.AyoVectorEnv`, ayo-core's batched
//! environment ([`VecEnv`]: the episodes, the check of a batch of actions,
//! the step on up to `num_threads` threads) writing into numpy arrays.
//!
//! This module translates: it turns the arguments into `EpisodeOptions`
//! (`options.rs`), makes the numpy arrays once at construction and lends
//! them to the core as its rows (`rows.rs`), releases the GIL while the
//! core steps, and turns the core's errors into Python's.

mod options;
pub(crate) mod rows;

use std::sync::{Mutex, MutexGuard};

use ayo_core::episode::{
    ActionError, Episode, EpisodeOptions, EpisodeState, Opponent, VecEnv, VecEnvError,
};
use ayo_core::players::Kind;
use ayo_core::{EndReason, Game, LeanGame, Outcome};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyMemoryError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyDict, PyList, PyTuple};
use rustc_hash::FxHashMap;

use crate::alloc;
use crate::errors::{self, AyoError, Real, Text, Wide};
use crate::game::PyOutcome;
use crate::rules::PyRules;
use ayo_core::episode::Rows;
pub(crate) use ayo_core::episode::{ACTIONS, MASK_I8, OBS};
pub(crate) use options::opponent_from;
pub(crate) use options::{episode_options, player_from};
use rows::out_slice;

/// The core's error as Python's: a refused action as the single
/// environment's exceptions (naming the game), memory as `MemoryError`,
/// the rest as `AyoError`.
fn env_error(py: Python<'_>, e: VecEnvError, whole: u128) -> PyErr {
    match e {
        VecEnvError::Refused { game, error } => match error {
            ActionError::EpisodeOver => errors::EpisodeOverError::new_err(format!(
                "game {game}: its episode is over; reset it with reset(options={{\"reset_mask\": ...}})"
            )),
            ActionError::OutOfRange(a) => errors::illegal_kind(
                py,
                "action_out_of_range",
                format!("game {game}: action {a} is outside 0..5"),
            ),
            ActionError::Illegal(why) => {
                errors::illegal_kind(py, why.kind(), format!("game {game}: {why}"))
            }
        },
        VecEnvError::OutOfMemory { bytes, what, games } => errors::out_of_memory(
            bytes,
            &format!("{what} of a batch of {games} games (the batch needs {whole} bytes in all)"),
        ),
        VecEnvError::Threads(e) => AyoError::new_err(format!("num_threads: {e}")),
        e => AyoError::new_err(e.to_string()),
    }
}

/// The bytes a batch of `n` games holds, for episodes of `episode` bytes:
/// the episodes, their status bytes and actions, and the output arrays.
fn batch_bytes(n: usize, episode: usize) -> u128 {
    let per_game = episode
        + 1 // status
        + 8 // actions
        + 2 * OBS * 4 // obs, final_obs
        + 3 * ACTIONS // obs_mask, mask, final_obs_mask
        + 8 // reward
        + 2 * 2 // scores
        + 7 // terminated, truncated, seat, ended, game_over, winner, illegal
        + 3 // to_move, replied, reason
        + 4; // ply
    n as u128 * per_game as u128
}

/// What the steps of a batch change, behind its lock.
struct Batch {
    /// The core's batch: the episodes, their status, the threads.
    env: VecEnv,
    /// The last step's actions (kept to reuse the allocation).
    actions: Vec<i64>,
    /// The status row the core copies each game's status into (Python
    /// does not see it; the core checks the next step from its own).
    status: Vec<u8>,
    /// What `gym_step` returns besides the arrays (see `gym_returns`).
    gym: Option<(Py<PyDict>, Py<PyDict>)>,
    /// The object array of `outcomes` (made at its first use, then
    /// rewritten in place like the other arrays).
    outcomes: Option<OutcomeArray>,
}

/// `info["outcome"]`'s object array, the games it holds an outcome for, and
/// every `ayo.Outcome` made so far by its scores and reason: outcomes are
/// immutable, so games that end alike share one object (making one costs
/// more than a game's step, and many games end in a step of a large batch).
struct OutcomeArray {
    array: Py<PyAny>,
    held: Vec<usize>,
    made: FxHashMap<([u16; 2], i8), Py<PyAny>>,
}

/// A batch of `num_envs` Ayo games stepped together in Rust; the engine of
/// `ayo.vector.AyoVectorEnv` (use that class: it adds Gymnasium's API).
///
/// The arrays (`obs`, `obs_mask`, `mask`, `reward`, `terminated`,
/// `truncated`, `seat`, `final_obs`, `final_obs_mask`, `ended`, `game_over`,
/// `scores`, `winner`, `illegal`) are made once and rewritten in place by
/// every `reset` and `step`.
///
/// Frozen, so that several threads may share it: the episodes and the
/// arrays are changed only under the batch's lock (taken without holding
/// the GIL while it waits), so calls from several threads take turns.
#[pyclass(name = "VecCore", module = "ayo._ayo", frozen)]
pub(crate) struct PyVecCore {
    opts: EpisodeOptions,
    /// The episodes and the step's state, locked by every call that reads
    /// or changes them (and held while a step writes the arrays).
    batch: Mutex<Batch>,
    n: usize,
    threads: usize,
    /// The bytes the batch holds (for the message of a `MemoryError`).
    whole: u128,
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
    to_move: Py<PyArray1<i8>>,
    ply: Py<PyArray1<u32>>,
    replied: Py<PyArray1<i8>>,
    reason: Py<PyArray1<i8>>,
}

/// Makes the rows of every output array (as `out_slice`) and runs the body.
macro_rules! with_rows {
    ($self:ident, $py:ident, $status:expr, |$rows:ident| $body:expr) => {{
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
        let to_move = $self.to_move.bind($py);
        let ply = $self.ply.bind($py);
        let replied = $self.replied.bind($py);
        let reason = $self.reason.bind($py);
        // SAFETY: these are this object's output arrays, one slice each, and
        // `reset` and `step` (the only callers) hold the batch's lock.
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
                to_move: out_slice(to_move, n)?,
                ply: out_slice(ply, n)?,
                replied: out_slice(replied, n)?,
                reason: out_slice(reason, n)?,
                status: $status,
            }
        };
        $body
    }};
}

/// The error of a batch whose games were left in an unknown state by a panic.
fn poisoned() -> PyErr {
    AyoError::new_err("the batch failed in an earlier call and cannot be used")
}

impl PyVecCore {
    /// The batch, locked (waiting for another thread without holding the GIL).
    fn locked(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Batch>> {
        self.batch.lock_py_attached(py).map_err(|_| poisoned())
    }

    /// `step` within the batch's lock.
    fn step_locked(
        &self,
        py: Python<'_>,
        batch: &mut Batch,
        actions: &Bound<'_, PyArray1<i64>>,
    ) -> PyResult<(usize, usize, usize)> {
        // The actions are copied while the GIL is held (no Python code runs
        // meanwhile), then the games are stepped from the copy without it.
        let Batch {
            env,
            actions: copy,
            status,
            ..
        } = batch;
        copy.clear();
        if actions.len() != self.n {
            return Err(AyoError::new_err(format!(
                "expected {} actions (one per game), got {}",
                self.n,
                actions.len()
            )));
        }
        // SAFETY: with the GIL held and no call into Python until the copy
        // is made, nothing can write to the array while it is read.
        match unsafe { actions.as_slice() } {
            Ok(s) => copy.extend_from_slice(s),
            Err(_) => copy.extend(unsafe { actions.as_array() }.iter().copied()),
        }
        with_rows!(self, py, status, |rows| {
            let c = py.detach(|| env.step(copy, rows));
            let c = c.map_err(|e| env_error(py, e, self.whole))?;
            Ok((c.ended, c.over, c.penalized))
        })
    }
}

#[pymethods]
impl PyVecCore {
    /// `num_envs` games of `rules`; see `ayo.vector.AyoVectorEnv` for the options.
    #[new]
    #[pyo3(signature = (
        num_envs, rules, opponent, seeds, *, agent_seat = None,
        perspective = Text("mover".to_owned()), reward = Text("win_loss".to_owned()),
        illegal_action = Text("raise".to_owned()), illegal_penalty = Real(Ok(-1.0)),
        max_episode_steps = None, autoreset_mode = Text("NextStep".to_owned()), num_threads = 1
    ), text_signature = "(num_envs, rules, opponent, seeds, *, agent_seat=None, \
        perspective='mover', reward='win_loss', illegal_action='raise', illegal_penalty=-1.0, \
        max_episode_steps=None, autoreset_mode='NextStep', num_threads=1)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        rules: &Bound<'_, PyAny>,
        opponent: Option<&Bound<'_, PyAny>>,
        seeds: PyReadonlyArray1<'_, u64>,
        agent_seat: Option<&Bound<'_, PyAny>>,
        perspective: Text,
        reward: Text,
        illegal_action: Text,
        illegal_penalty: Real,
        max_episode_steps: Option<i64>,
        autoreset_mode: Text,
        num_threads: i64,
    ) -> PyResult<Self> {
        let rules = PyRules::from_py(rules)?;
        let illegal_penalty = Real::get(&illegal_penalty, "illegal_penalty", "a float")?;
        let seeds = seeds
            .as_slice()
            .map_err(|e| AyoError::new_err(format!("seeds: {e}")))?;
        if num_envs == 0 {
            return Err(AyoError::new_err("num_envs must be at least 1"));
        }
        if seeds.len() != num_envs {
            return Err(AyoError::new_err(format!(
                "expected {num_envs} seeds, got {}",
                seeds.len()
            )));
        }
        let num_threads = ayo_core::threads::thread_count(Some(num_threads))
            .map_err(|e| AyoError::new_err(format!("num_threads: {e}")))?;
        let opponent = opponent_from(opponent, &rules)?;
        let opts = episode_options(
            rules,
            opponent,
            agent_seat,
            &perspective.0,
            &reward.0,
            &illegal_action.0,
            illegal_penalty,
            max_episode_steps,
            &autoreset_mode.0,
        )?;
        // Everything that grows with the batch is allocated fallibly, the
        // core's episodes first (the largest part).
        let episode_size = if opts.opponent.needs_game() {
            std::mem::size_of::<Episode<Game>>()
        } else {
            std::mem::size_of::<Episode<LeanGame>>()
        };
        let whole = batch_bytes(num_envs, episode_size);
        let what = |part: &str| {
            format!("{part} of a batch of {num_envs} games (the batch needs {whole} bytes in all)")
        };
        let env = VecEnv::new(opts, seeds, num_threads).map_err(|e| env_error(py, e, whole))?;
        let actions = alloc::vec_with_capacity(num_envs, &what("the actions"))?;
        let status = alloc::vec_filled(num_envs, 0, &what("the status bytes"))?;
        let n = num_envs;
        let arrays = what("the output arrays");
        let obs = alloc::zeros(py, &[n, OBS], &arrays)?.unbind();
        let obs_mask = alloc::zeros(py, &[n, ACTIONS], &arrays)?.unbind();
        let mask = alloc::zeros(py, &[n, ACTIONS], &arrays)?.unbind();
        let reward = alloc::zeros(py, &[n], &arrays)?.unbind();
        let terminated = alloc::zeros(py, &[n], &arrays)?.unbind();
        let truncated = alloc::zeros(py, &[n], &arrays)?.unbind();
        let seat = alloc::zeros(py, &[n], &arrays)?.unbind();
        let final_obs = alloc::zeros(py, &[n, OBS], &arrays)?.unbind();
        let final_obs_mask = alloc::zeros(py, &[n, ACTIONS], &arrays)?.unbind();
        let ended = alloc::zeros(py, &[n], &arrays)?.unbind();
        let game_over = alloc::zeros(py, &[n], &arrays)?.unbind();
        let scores = alloc::zeros(py, &[n, 2], &arrays)?.unbind();
        let winner = alloc::zeros(py, &[n], &arrays)?.unbind();
        let illegal = alloc::zeros(py, &[n], &arrays)?.unbind();
        let to_move = alloc::zeros(py, &[n], &arrays)?.unbind();
        let ply = alloc::zeros(py, &[n], &arrays)?.unbind();
        let replied = alloc::zeros(py, &[n], &arrays)?.unbind();
        let reason = alloc::zeros(py, &[n], &arrays)?.unbind();
        Ok(PyVecCore {
            opts,
            threads: env.threads(),
            batch: Mutex::new(Batch {
                env,
                actions,
                status,
                gym: None,
                outcomes: None,
            }),
            n,
            whole,
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
            to_move,
            ply,
            replied,
            reason,
        })
    }

    /// The `ayo.Outcome` of each game that ended by the rules this step
    /// (`game_over`), None elsewhere: an object array (N,), as a
    /// `SyncVectorEnv` gathers its envs' `info["outcome"]`. One array,
    /// rewritten in place by each call (only the entries that change).
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        const NO_REASON_8: u64 = 0x8080_8080_8080_8080;
        let mut batch = self.locked(py)?;
        let outcomes = match &mut batch.outcomes {
            Some(o) => o,
            slot @ None => {
                let numpy = py.import(intern!(py, "numpy"))?;
                let kwargs = PyDict::new(py);
                kwargs.set_item(intern!(py, "dtype"), numpy.getattr(intern!(py, "object_"))?)?;
                let array =
                    numpy.call_method(intern!(py, "full"), (self.n, py.None()), Some(&kwargs))?;
                slot.insert(OutcomeArray {
                    array: array.unbind(),
                    held: Vec::new(),
                    made: FxHashMap::default(),
                })
            }
        };
        let out = outcomes.array.bind(py).clone();
        let OutcomeArray { held, made, .. } = outcomes;
        // The entries are written in place (numpy's item assignment costs
        // more than a game's step; the old entry is released as it is
        // replaced).
        // SAFETY: the array is this batch's own (made above by `numpy.full`,
        // owning its data, kept by the batch for its life), and no other
        // slice of it exists here; `out_slice` checks its length and dtype.
        let slots = unsafe { out_slice(out.cast::<PyArray1<Py<PyAny>>>()?, self.n)? };
        for &i in held.iter() {
            slots[i] = py.None();
        }
        held.clear();
        // Read as the step writes them (rust-numpy's borrow checking cost
        // more than the rest of this call).
        // SAFETY: both are this batch's output arrays, which only a call
        // holding the batch's lock (as this one does) makes slices of.
        let (reason, scores) = unsafe {
            (
                &*out_slice(self.reason.bind(py), self.n)?,
                &*out_slice(self.scores.bind(py), 2 * self.n)?,
            )
        };
        // Few games end in a step: eight games at a time are passed over
        // while none has a reason (-1: each byte's sign bit set).
        for (k, chunk) in reason.chunks(8).enumerate() {
            if let Ok(c) = <[i8; 8]>::try_from(chunk) {
                if u64::from_ne_bytes(c.map(|r| r as u8)) & NO_REASON_8 == NO_REASON_8 {
                    continue;
                }
            }
            for (j, &code) in chunk.iter().enumerate() {
                let i = 8 * k + j;
                let reason = match code {
                    0 => EndReason::Target,
                    1 => EndReason::MoveLimit,
                    2 => EndReason::Repetition,
                    3 => EndReason::NoLegalMove,
                    _ => continue,
                };
                let s = [scores[2 * i].max(0) as u16, scores[2 * i + 1].max(0) as u16];
                let outcome = match made.get(&(s, code)) {
                    Some(o) => o.clone_ref(py),
                    None => {
                        let inner = Outcome::from_scores(s, reason);
                        let o = Py::new(py, PyOutcome { inner })?.into_any();
                        made.try_reserve(1).map_err(|_| {
                            PyMemoryError::new_err("no memory for the batch's outcomes")
                        })?;
                        made.insert((s, code), o.clone_ref(py));
                        o
                    }
                };
                slots[i] = outcome;
                held.push(i);
            }
        }
        Ok(out)
    }

    /// The batch's state for pickling: each episode's bookkeeping and
    /// moves (its game is replayed from the rules' start on restore), as
    /// JSON. A batch whose opponent is a computer player cannot be pickled:
    /// that player's own state (its random stream, its tables) is not kept.
    fn __getstate__(&self, py: Python<'_>) -> PyResult<String> {
        if matches!(self.opts.opponent, Opponent::Agent(kind, _) if kind != Kind::Random) {
            return Err(AyoError::new_err(
                "an AyoVectorEnv whose opponent is a computer player cannot be pickled \
                 or copied (the player's own state is not kept); make a new one",
            ));
        }
        let state = self
            .locked(py)?
            .env
            .state()
            .map_err(|e| env_error(py, e, self.whole))?;
        serde_json::to_string(&state).map_err(|e| AyoError::new_err(e.to_string()))
    }

    /// Restores [`Self::__getstate__`]'s state into this batch (made with the
    /// same arguments) and rewrites every game's rows; a bad state raises
    /// `AyoError` and changes nothing.
    fn __setstate__(&self, py: Python<'_>, state: crate::errors::Text) -> PyResult<()> {
        let state: Vec<EpisodeState> = serde_json::from_str(&state.0)
            .map_err(|e| AyoError::new_err(format!("not a VecCore state: {e}")))?;
        if state.len() != self.n {
            return Err(AyoError::new_err(format!(
                "a VecCore state of {} games, not {}",
                state.len(),
                self.n
            )));
        }
        let mut batch = self.locked(py)?;
        let Batch { env, status, .. } = &mut *batch;
        with_rows!(self, py, status, |rows| {
            env.restore(state, rows)
                .map_err(|e| env_error(py, e, self.whole))
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
        self.opts.opponent == Opponent::SelfPlay
    }

    /// Starts new episodes in the games where `mask` is true (all when
    /// None): `seeds[i]`, when not None, first restarts game `i`'s random
    /// streams; `agent_seat` (0 or 1) overrides the seat for these episodes.
    /// Writes `obs`, `obs_mask`, `mask` and `seat` for those games and clears
    /// their `reward`, `terminated` and `truncated`.
    #[pyo3(signature = (mask = None, seeds = None, agent_seat = None))]
    fn reset(
        &self,
        py: Python<'_>,
        mask: Option<PyReadonlyArray1<'_, bool>>,
        seeds: Option<&Bound<'_, PyAny>>,
        agent_seat: Option<Wide>,
    ) -> PyResult<()> {
        let n = self.n;
        let mask = mask
            .as_ref()
            .map(|m| m.as_slice())
            .transpose()
            .map_err(|e| AyoError::new_err(format!("reset_mask: {e}")))?;
        let seeds = seeds
            .map(|s| {
                alloc::extract_vec(s, "the seeds of a reset", |x| {
                    if x.is_none() {
                        return Ok(None);
                    }
                    x.extract::<Wide>()?
                        .get("seed", crate::errors::U64)
                        .map(Some)
                })
            })
            .transpose()?;
        if mask.as_ref().is_some_and(|m| m.len() != n)
            || seeds.as_ref().is_some_and(|s| s.len() != n)
        {
            return Err(AyoError::new_err(format!(
                "reset_mask and seeds must have {n} entries"
            )));
        }
        let seat = Wide::opt(agent_seat.as_ref(), "agent_seat", "0 or 1")?
            .map(player_from)
            .transpose()?;
        let mut batch = self.locked(py)?;
        let Batch { env, status, .. } = &mut *batch;
        with_rows!(self, py, status, |rows| {
            env.reset(rows, mask, seeds.as_deref(), seat)
                .map_err(|e| env_error(py, e, self.whole))
        })
    }

    /// One step of every game: `actions[i]` (0..5, relative to the mover) for
    /// game `i`. Checks the whole batch first (an action outside 0..5 or, with
    /// `illegal_action="raise"`, an illegal one raises and nothing changes),
    /// then steps every game with the GIL released. Returns how many games
    /// (episodes that ended, games over by the rules, penalized actions).
    fn step(
        &self,
        py: Python<'_>,
        actions: &Bound<'_, PyArray1<i64>>,
    ) -> PyResult<(usize, usize, usize)> {
        let mut batch = self.locked(py)?;
        self.step_locked(py, &mut batch, actions)
    }

    /// Keeps the two dicts that `gym_step` returns: `obs` itself (its arrays
    /// are this batch's, rewritten in place) and a copy of `info` with the
    /// news of the step added.
    fn gym_returns(&self, py: Python<'_>, obs: Py<PyDict>, info: Py<PyDict>) -> PyResult<()> {
        let old = self.locked(py)?.gym.replace((obs, info));
        // The old dicts are let go with the batch unlocked.
        drop(old);
        Ok(())
    }

    /// `step`, then the whole of Gymnasium's `(obs, reward, terminated,
    /// truncated, info)` for the batch's own arrays (no copies): `info` is a
    /// copy of the dict given to `gym_returns` plus `scores`, `winner` (of
    /// games over by the rules) and `illegal_action` (penalized actions), each
    /// with its `_` mask, when the step had any.
    fn gym_step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyArray1<i64>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (obs, base, over, illegal) = {
            let mut batch = self.locked(py)?;
            let Some((obs, base)) = batch
                .gym
                .as_ref()
                .map(|(o, i)| (o.clone_ref(py), i.clone_ref(py)))
            else {
                return Err(AyoError::new_err("gym_returns() was not called"));
            };
            let (_, over, penalized) = self.step_locked(py, &mut batch, actions)?;
            // The penalized actions are copied before another step may begin
            // (by numpy: a copy that does not fit is a MemoryError).
            let illegal = if penalized > 0 {
                Some(self.illegal.bind(py).call_method0(intern!(py, "copy"))?)
            } else {
                None
            };
            (obs, base, over, illegal)
        };
        let info = base.bind(py).copy()?;
        if over > 0 {
            let ended = self.game_over.bind(py);
            info.set_item(intern!(py, "outcome"), self.outcomes(py)?)?;
            info.set_item(intern!(py, "_outcome"), ended)?;
            info.set_item(intern!(py, "scores"), self.scores.bind(py))?;
            info.set_item(intern!(py, "_scores"), ended)?;
            info.set_item(intern!(py, "winner"), self.winner.bind(py))?;
            info.set_item(intern!(py, "_winner"), ended)?;
        }
        if let Some(illegal) = illegal {
            let mask = illegal.call_method1(intern!(py, "__ge__"), (0,))?;
            info.set_item(intern!(py, "illegal_action"), illegal)?;
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
    fn records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let records = self
            .locked(py)?
            .env
            .records()
            .map_err(|e| env_error(py, e, self.whole))?;
        alloc::list(py, records)
    }

    /// Whether each game's episode is over and awaits a reset.
    fn done<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let done: Vec<bool> = {
            let batch = self.locked(py)?;
            let mut out = alloc::vec_with_capacity(self.n, "the flags of a batch")?;
            out.extend((0..self.n).map(|i| batch.env.is_done(i).unwrap_or(false)));
            out
        };
        alloc::list(py, done)
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
    /// The player to move in each game (0 South, 1 North).
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.to_move.bind(py).clone()
    }
    /// Each game's ply.
    #[getter]
    fn ply<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.ply.bind(py).clone()
    }
    /// The opponent's reply in each game this step (its action 0..5), -1 where it did not move.
    #[getter]
    fn replied<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.replied.bind(py).clone()
    }
    /// Why each game that ended by the rules this step ended (0 target, 1
    /// move limit, 2 repetition, 3 no legal move), -1 elsewhere.
    #[getter]
    fn reason<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.reason.bind(py).clone()
    }
}

/// Registers `VecCore` in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecCore>()
}
