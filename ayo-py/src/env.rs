//! `EpisodeCore`: one ayo-core episode for the Gymnasium environment
//! `ayo/Ayo-v0` (`python/ayo/envs/ayo_env.py`) and the PettingZoo
//! environment (`python/ayo/pettingzoo.py`). The episode — seat, the
//! opponent's replies, observation, mask, reward, illegal actions,
//! truncation — is `ayo_core::episode::Episode`, kept with its full game at
//! hand (`ayo_core::episode::Mirrored`); this class translates its
//! arguments and results, and calls a Python opponent (a callable) when the
//! episode awaits the opponent's move.

use ayo_core::episode::{
    Acted, ActionError, Checked, Episode, EpisodeGame, EpisodeOptions, Mirrored, Observation,
    Opponent, SeatChoice, Snapshot, Step,
};
use ayo_core::{Game, Move, Player};
use std::str::FromStr;
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::thread::ThreadId;

use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::{self, AyoError, EpisodeOverError, Text};
use crate::game::{PyGame, PyOutcome};
use crate::rules::PyRules;
use crate::vector::{episode_options, player_from, ACTIONS, MASK_I8, OBS};

/// The arguments an `EpisodeCore` was made with (for pickling).
#[derive(Clone, Debug)]
struct Args {
    rules: String,
    opponent: String,
    agent_seat: String,
    perspective: String,
    reward: String,
    illegal_action: String,
    illegal_penalty: f64,
    max_steps: Option<i64>,
}

/// A two-agent step: the rewards of South and North, terminated,
/// truncated, the outcome and the penalized action.
type Turn = ((f64, f64), bool, bool, Option<PyOutcome>, Option<i64>);

/// A seat's observation: the board and the mask.
type SeatView<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// One episode of Ayo for the single-agent and two-agent environments.
///
/// Frozen, so that several threads may share it: the episode sits in a
/// mutex held only while Rust reads or changes it (never while Python code
/// runs), and a call that changes the episode (`reset`, `step`, `turn`,
/// `seed`, `__setstate__`) holds the object's call lock for its whole
/// length, an external opponent's moves included, so that such calls take
/// turns. An opponent that calls one of them on its own episode gets an
/// `AyoError` (waiting would never end).
#[pyclass(name = "EpisodeCore", module = "ayo._ayo", frozen)]
pub(crate) struct PyEpisodeCore {
    args: Args,
    opts: EpisodeOptions,
    /// The episode.
    ep: Mutex<Mirrored>,
    /// Held by the call that changes the episode.
    calls: Mutex<()>,
    /// The thread of that call.
    caller: Mutex<Option<ThreadId>>,
}

/// A call that changes the episode: while it lives, other such calls wait.
struct Call<'a> {
    _held: MutexGuard<'a, ()>,
    caller: &'a Mutex<Option<ThreadId>>,
}

impl Drop for Call<'_> {
    fn drop(&mut self) {
        *self.caller.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

fn core_err<E: std::fmt::Display>(e: E) -> PyErr {
    AyoError::new_err(e.to_string())
}

/// The error of an episode whose lock was poisoned (a panic while it was held).
fn poisoned() -> PyErr {
    AyoError::new_err("the episode failed in an earlier call and cannot be used")
}

/// `body` with `$ep` bound to the kept episode, whichever kind.
macro_rules! with_ep {
    ($kept:expr, |$ep:ident| $body:expr) => {
        match $kept {
            Mirrored::Lean($ep, _) => $body,
            Mirrored::Full($ep) => $body,
        }
    };
}

/// The observation dict and its mask array, which `info` shares: one
/// array fewer to make and free a step (a quarter of the step's arrays).
fn observation_dict<'py>(
    py: Python<'py>,
    o: &Observation,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyArray1<i8>>)> {
    let view: [f32; OBS] = o.view.map(f32::from);
    let mask = PyArray1::from_slice(py, &MASK_I8[usize::from(o.legal & 63)]);
    let obs = PyDict::new(py);
    obs.set_item(intern!(py, "observation"), PyArray1::from_slice(py, &view))?;
    obs.set_item(intern!(py, "action_mask"), &mask)?;
    Ok((obs, mask))
}

/// What `info` reports of the position besides the mask and the replies.
struct Where {
    seat: usize,
    to_move: usize,
    ply: u32,
}

impl Where {
    fn of<G: EpisodeGame>(ep: &Episode<G>) -> Where {
        let pos = ep.game().position();
        Where {
            seat: ep.seat().index(),
            to_move: pos.to_move().index(),
            ply: pos.ply(),
        }
    }
}

impl PyEpisodeCore {
    /// The episode, locked (waiting for another thread without holding the GIL).
    fn locked(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Mirrored>> {
        self.ep.lock_py_attached(py).map_err(|_| poisoned())
    }

    /// Begins a call that changes the episode, once any other has ended.
    fn begin(&self, py: Python<'_>) -> PyResult<Call<'_>> {
        let me = std::thread::current().id();
        let held = match self.calls.try_lock() {
            Ok(held) => held,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                let busy = *self
                    .caller
                    .lock_py_attached(py)
                    .unwrap_or_else(|e| e.into_inner());
                if busy == Some(me) {
                    return Err(AyoError::new_err(
                        "the episode is in the middle of a call on this thread (its opponent \
                         must not reset, step or seed it)",
                    ));
                }
                self.calls
                    .lock_py_attached(py)
                    .unwrap_or_else(|e| e.into_inner())
            }
        };
        *self
            .caller
            .lock_py_attached(py)
            .unwrap_or_else(|e| e.into_inner()) = Some(me);
        Ok(Call {
            _held: held,
            caller: &self.caller,
        })
    }

    fn build(args: Args, py: Python<'_>) -> PyResult<PyEpisodeCore> {
        let rules = PyRules::from_py(pyo3::types::PyString::new(py, &args.rules).as_any())?;
        let opponent = match args.opponent.as_str() {
            "random" => Opponent::RANDOM,
            "external" => Opponent::External,
            "self_play" => Opponent::SelfPlay,
            other => {
                return Err(AyoError::new_err(format!(
                    "opponent must be \"random\", \"external\" or \"self_play\", not {other:?}"
                )))
            }
        };
        let mut opts = episode_options(
            rules,
            opponent,
            None,
            &args.perspective,
            &args.reward,
            &args.illegal_action,
            args.illegal_penalty,
            args.max_steps,
            "Disabled",
        )?;
        opts.seat = SeatChoice::from_str(&args.agent_seat).map_err(core_err)?;
        Ok(PyEpisodeCore {
            args,
            opts,
            ep: Mutex::new(Mirrored::new(&opts)),
            calls: Mutex::new(()),
            caller: Mutex::new(None),
        })
    }

    /// The external opponent moves until the agent is to move or the game
    /// is over: `opponent(game)` gives each action (a copy of the game).
    /// The episode is not locked while the opponent runs.
    fn external_replies(&self, py: Python<'_>, opponent: &Bound<'_, PyAny>) -> PyResult<()> {
        loop {
            let game = {
                let mut kept = self.locked(py)?;
                if !with_ep!(&mut *kept, |ep| ep.awaits_opponent(&self.opts)) {
                    return Ok(());
                }
                kept.full_game().map_err(core_err)?
            };
            let game = Bound::new(py, PyGame::from_game(game))?;
            let action: i64 = opponent.call1((game,))?.extract()?;
            let action = u8::try_from(action)
                .ok()
                .filter(|&a| usize::from(a) < ACTIONS)
                .ok_or_else(|| {
                    errors::illegal_kind(
                        py,
                        "action_out_of_range",
                        format!("the opponent's action {action} is outside 0..5"),
                    )
                })?;
            let replied = with_ep!(&mut *self.locked(py)?, |ep| ep.reply(&self.opts, action));
            replied.map_err(|e| errors::illegal(py, e))?;
        }
    }

    /// The info dict of a reset or step.
    fn info<'py>(
        py: Python<'py>,
        mask: Bound<'py, PyArray1<i8>>,
        at: &Where,
        replies: &[Move],
    ) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item(intern!(py, "action_mask"), mask)?;
        info.set_item(intern!(py, "agent_seat"), at.seat)?;
        info.set_item(intern!(py, "to_move"), at.to_move)?;
        info.set_item(intern!(py, "ply"), at.ply)?;
        let replies = PyList::new(py, replies.iter().map(|m| m.action()))?;
        info.set_item(intern!(py, "opponent_moves"), replies)?;
        Ok(info)
    }

    /// Plays a checked action with the opponent's replies: the step and the
    /// opponent's moves.
    fn play(
        &self,
        py: Python<'_>,
        checked: Checked,
        opponent: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Step, Vec<Move>)> {
        match (checked, self.opts.opponent) {
            (Checked::Legal(a), Opponent::External) => {
                let (acted, from): (Acted, usize) = with_ep!(&mut *self.locked(py)?, |ep| {
                    let acted = ep.act(&self.opts, a);
                    (acted, ep.moves().len())
                });
                if let Some(opponent) = opponent {
                    if let Err(e) = self.external_replies(py, opponent) {
                        // Nothing changes when the opponent fails.
                        with_ep!(&mut *self.locked(py)?, |ep| ep.abandon(acted));
                        return Err(e);
                    }
                }
                Ok(with_ep!(&mut *self.locked(py)?, |ep| {
                    let replies = ep.moves().get(from..).unwrap_or(&[]).to_vec();
                    (ep.conclude(&self.opts, acted), replies)
                }))
            }
            _ => Ok(with_ep!(&mut *self.locked(py)?, |ep| {
                let from = ep.moves().len() + usize::from(matches!(checked, Checked::Legal(_)));
                let step = ep.step(&self.opts, checked);
                let replies = ep.moves().get(from..).unwrap_or(&[]).to_vec();
                (step, replies)
            })),
        }
    }
}

#[pymethods]
impl PyEpisodeCore {
    /// An episode of `rules` against `opponent` ("random": uniformly random
    /// legal moves from the episode's stream; "external": the callable given
    /// to `reset` and `step`; "self_play": the caller moves for both seats),
    /// with the environments' options (see `ayo.envs.AyoEnv`).
    #[new]
    #[pyo3(signature = (
        rules, *, opponent = Text("random".to_owned()), agent_seat = Text("0".to_owned()),
        perspective = Text("mover".to_owned()), reward = Text("win_loss".to_owned()),
        illegal_action = Text("raise".to_owned()), illegal_penalty = errors::Real(Ok(-1.0)),
        max_steps = None
    ), text_signature = "(rules, *, opponent='random', agent_seat='0', perspective='mover', \
        reward='win_loss', illegal_action='raise', illegal_penalty=-1.0, max_steps=None)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        opponent: Text,
        agent_seat: Text,
        perspective: Text,
        reward: Text,
        illegal_action: Text,
        illegal_penalty: errors::Real,
        max_steps: Option<errors::Wide>,
    ) -> PyResult<Self> {
        let illegal_penalty = errors::Real::get(&illegal_penalty, "illegal_penalty", "a float")?;
        let rules = PyRules::from_py(rules)?;
        // Taken wide (never an OverflowError); the core checks the range.
        let max_steps: Option<i64> = errors::Wide::opt(
            max_steps.as_ref(),
            "max_steps",
            "None or an int 1..=2**32-1",
        )?;
        let args = Args {
            rules: rules.to_string(),
            opponent: opponent.0,
            agent_seat: agent_seat.0,
            perspective: perspective.0,
            reward: reward.0,
            illegal_action: illegal_action.0,
            illegal_penalty,
            max_steps,
        };
        PyEpisodeCore::build(args, py)
    }

    /// Pickle and copy: the arguments, then the state.
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let a = &self.args;
        let kwargs = PyDict::new(py);
        kwargs.set_item("opponent", &a.opponent)?;
        kwargs.set_item("agent_seat", &a.agent_seat)?;
        kwargs.set_item("perspective", &a.perspective)?;
        kwargs.set_item("reward", &a.reward)?;
        kwargs.set_item("illegal_action", &a.illegal_action)?;
        kwargs.set_item("illegal_penalty", a.illegal_penalty)?;
        kwargs.set_item("max_steps", a.max_steps)?;
        ((a.rules.clone(),), kwargs).into_pyobject(py)
    }

    /// The whole state (the streams' included) as text.
    fn __getstate__(&self, py: Python<'_>) -> PyResult<String> {
        let state = {
            let mut kept = self.locked(py)?;
            let record = kept.full_game().map_err(core_err)?.record();
            with_ep!(&*kept, |ep| (ep.snapshot(), record, ep.moves().to_vec()))
        };
        serde_json::to_string(&state).map_err(core_err)
    }

    fn __setstate__(&self, py: Python<'_>, state: errors::RecText) -> PyResult<()> {
        let (snapshot, record, moves): (Snapshot, String, Vec<Move>) =
            serde_json::from_str(&state.0)
                .map_err(|e| AyoError::new_err(format!("not an EpisodeCore state: {e}")))?;
        let game = Game::from_record(&record).map_err(|e| errors::record(py, e))?;
        let _call = self.begin(py)?;
        self.locked(py)?
            .restore(&self.opts, snapshot, game, moves)
            .map_err(|e| AyoError::new_err(e.to_string()))
    }

    /// Restarts the episode's random streams (seat draws and the opponent's,
    /// both from `seed`, as every game of a `VecCore`) and the alternating seats.
    fn seed(&self, py: Python<'_>, seed: crate::errors::Wide) -> PyResult<()> {
        let seed: u64 = seed.get("seed", crate::errors::U64)?;
        let _call = self.begin(py)?;
        with_ep!(&mut *self.locked(py)?, |ep| ep.seed(&self.opts, seed));
        Ok(())
    }

    /// Starts an episode from `game` (a copy is played; default: the rules'
    /// start) with the agent in `agent_seat` (0 or 1; default: by the
    /// option), the opponent's opening moves played (an external opponent:
    /// `opponent(game)` gives each). Returns `(observation, info)`.
    #[pyo3(signature = (game = None, agent_seat = None, opponent = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        game: Option<PyRef<'py, PyGame>>,
        agent_seat: Option<errors::Wide>,
        opponent: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seat = errors::Wide::opt(agent_seat.as_ref(), "agent_seat", "0 or 1")?
            .map(player_from)
            .transpose()?;
        let start = match game {
            Some(g) => g.snapshot(py)?,
            None => Game::new(self.opts.rules),
        };
        if start.outcome().is_some() {
            return Err(AyoError::new_err("the start position is already over"));
        }
        let _call = self.begin(py)?;
        self.locked(py)?.reset_to(&self.opts, start, seat);
        if let Some(opponent) = opponent {
            if let Err(e) = self.external_replies(py, opponent) {
                // An opponent that fails here leaves no episode to play.
                with_ep!(&mut *self.locked(py)?, |ep| ep.abandon_episode());
                return Err(e);
            }
        }
        let opening = with_ep!(&mut *self.locked(py)?, |ep| {
            if ep.outcome().is_some() {
                ep.abandon_episode();
                None
            } else {
                Some((ep.observe(&self.opts), Where::of(ep), ep.moves().to_vec()))
            }
        });
        let Some((o, at, replies)) = opening else {
            return Err(AyoError::new_err(
                "the game ended on the opponent's opening moves",
            ));
        };
        let (obs, mask) = observation_dict(py, &o)?;
        let info = Self::info(py, mask, &at, &replies)?;
        (obs, info).into_pyobject(py)
    }

    /// One step with the agent's `action` (0..5): `(observation, reward,
    /// terminated, truncated, info)` as `AyoEnv.step` returns it. An action
    /// outside 0..5 raises `AyoError`; an illegal one `IllegalMoveError`
    /// (nothing changes) or is penalized (`illegal_action`).
    #[pyo3(signature = (action, opponent = None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
        opponent: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _call = self.begin(py)?;
        let (step, replies) = self.turn_step(py, action, opponent)?;
        let (o, at) = with_ep!(&mut *self.locked(py)?, |ep| (
            ep.observe(&self.opts),
            Where::of(ep)
        ));
        let (obs, mask) = observation_dict(py, &o)?;
        let info = Self::info(py, mask, &at, &replies)?;
        if let Some(a) = step.penalized {
            info.set_item(intern!(py, "illegal_action"), a)?;
        }
        if let Some(outcome) = step.outcome {
            info.set_item(intern!(py, "outcome"), PyOutcome { inner: outcome })?;
        }
        (obs, step.reward, step.terminated, step.truncated, info).into_pyobject(py)
    }

    /// The two-agent step (self-play): plays `action` for the player to
    /// move and returns `(rewards, terminated, truncated, outcome,
    /// illegal_action)`, `rewards` for South and North.
    fn turn<'py>(&self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<Turn> {
        let _call = self.begin(py)?;
        let (step, _) = self.turn_step(py, action, None)?;
        Ok((
            (
                step.reward_for(Player::South),
                step.reward_for(Player::North),
            ),
            step.terminated,
            step.truncated,
            step.outcome.map(|o| PyOutcome { inner: o }),
            step.penalized,
        ))
    }

    /// The observation of `seat` (0 or 1) now, as `(board, mask)`.
    fn observe_seat<'py>(&self, py: Python<'py>, seat: errors::Wide) -> PyResult<SeatView<'py>> {
        let seat = player_from(seat.get("seat", "0 or 1")?)?;
        let o = with_ep!(&mut *self.locked(py)?, |ep| ep.observe_as(&self.opts, seat));
        let (obs, mask) = observation_dict(py, &o)?;
        let board = obs
            .get_item(intern!(py, "observation"))?
            .ok_or_else(|| AyoError::new_err("no observation"))?
            .cast_into::<PyArray1<f32>>()?;
        Ok((board, mask))
    }

    /// The legal actions of the agent now, as int8 (all 0 once over).
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let legal = with_ep!(&mut *self.locked(py)?, |ep| if ep.is_done() {
            0
        } else {
            ep.observe(&self.opts).legal
        });
        Ok(PyArray1::from_slice(py, &MASK_I8[usize::from(legal & 63)]))
    }

    /// A copy of the game being played.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<PyGame> {
        let game = self.locked(py)?.full_game().map_err(core_err)?;
        Ok(PyGame::from_game(game))
    }

    /// The agent's seat in this episode: 0 (South) or 1 (North).
    #[getter]
    fn agent_seat(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(with_ep!(&*self.locked(py)?, |ep| ep.seat().index()))
    }

    /// The player to move: 0 (South) or 1 (North).
    #[getter]
    fn to_move(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(with_ep!(&*self.locked(py)?, |ep| ep
            .game()
            .position()
            .to_move()
            .index()))
    }

    /// Whether the episode is over (or has not started).
    #[getter]
    fn done(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(with_ep!(&*self.locked(py)?, |ep| ep.is_done()))
    }
}

impl PyEpisodeCore {
    /// Converts and checks `action`, then plays it (within a call begun by
    /// the caller).
    fn turn_step(
        &self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        opponent: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Step, Vec<Move>)> {
        if with_ep!(&*self.locked(py)?, |ep| ep.is_done()) {
            return Err(EpisodeOverError::new_err(
                "the episode is over: call reset()",
            ));
        }
        let not_an_action = || {
            let shown = action
                .repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string());
            AyoError::new_err(format!("an action is an integer 0..5, not {shown}"))
        };
        if action.is_instance_of::<pyo3::types::PyBool>() {
            return Err(not_an_action());
        }
        // Converted with the episode unlocked (`__index__` is Python code).
        let a: i64 = action.extract().map_err(|_| not_an_action())?;
        let checked = with_ep!(&mut *self.locked(py)?, |ep| ep.check(&self.opts, a));
        let checked = checked.map_err(|e| match e {
            ActionError::Illegal(why) => errors::illegal(py, why),
            ActionError::EpisodeOver => EpisodeOverError::new_err(e.to_string()),
            ActionError::OutOfRange(_) => AyoError::new_err(e.to_string()),
        })?;
        self.play(py, checked, opponent)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEpisodeCore>()
}
