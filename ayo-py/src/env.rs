//! `EpisodeCore`: one ayo-core episode for the Gymnasium environment
//! `ayo/Ayo-v0` (`python/ayo/envs/ayo_env.py`) and the PettingZoo
//! environment (`python/ayo/pettingzoo.py`). The episode — seat, the
//! opponent's replies, observation, mask, reward, illegal actions,
//! truncation — is `ayo_core::episode::Episode`; this class translates its
//! arguments and results, and calls a Python opponent (a callable) when the
//! episode awaits the opponent's move.

use ayo_core::episode::{
    Acted, ActionError, Checked, Episode, EpisodeOptions, Observation, Opponent, SeatChoice,
    Snapshot, Step,
};
use ayo_core::{Game, Move, Player};
use std::str::FromStr;
use std::sync::{Mutex, MutexGuard};

use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{self, AyoError, EpisodeOverError};
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
#[pyclass(name = "EpisodeCore", module = "ayo._ayo")]
pub(crate) struct PyEpisodeCore {
    args: Args,
    opts: EpisodeOptions,
    /// The episode (a mutex so that calls from several threads take turns).
    ep: Mutex<Episode<Game>>,
}

/// The episode, from a method that has the object to itself.
macro_rules! ep {
    ($self:ident) => {
        $self.ep.get_mut().unwrap_or_else(|e| e.into_inner())
    };
}

fn core_err<E: std::fmt::Display>(e: E) -> PyErr {
    AyoError::new_err(e.to_string())
}

/// The observation dict, and a separate copy of the mask for `info`.
fn observation_dict<'py>(
    py: Python<'py>,
    o: &Observation,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyArray1<i8>>)> {
    let view: [f32; OBS] = o.view.map(f32::from);
    let mask: [i8; ACTIONS] = MASK_I8[usize::from(o.legal & 63)];
    let obs = PyDict::new(py);
    obs.set_item(intern!(py, "observation"), PyArray1::from_slice(py, &view))?;
    obs.set_item(intern!(py, "action_mask"), PyArray1::from_slice(py, &mask))?;
    Ok((obs, PyArray1::from_slice(py, &mask)))
}

impl PyEpisodeCore {
    /// The episode, from a method that shares the object.
    fn locked(&self) -> MutexGuard<'_, Episode<Game>> {
        self.ep.lock().unwrap_or_else(|e| e.into_inner())
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
            ep: Mutex::new(Episode::new(&opts, 0)),
        })
    }

    /// The external opponent moves until the agent is to move or the game
    /// is over: `opponent(game)` gives each action (a copy of the game).
    fn external_replies(&mut self, py: Python<'_>, opponent: &Bound<'_, PyAny>) -> PyResult<()> {
        while ep!(self).awaits_opponent(&self.opts) {
            let game = Bound::new(py, PyGame::from_game(ep!(self).game().clone()))?;
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
            ep!(self)
                .reply(&self.opts, action)
                .map_err(|e| errors::illegal(py, e))?;
        }
        Ok(())
    }

    /// The info dict of a reset or step.
    fn info<'py>(
        &mut self,
        py: Python<'py>,
        mask: Bound<'py, PyArray1<i8>>,
        replies: &[Move],
    ) -> PyResult<Bound<'py, PyDict>> {
        let ep = ep!(self);
        let pos = ep.game().position();
        let info = PyDict::new(py);
        info.set_item(intern!(py, "action_mask"), mask)?;
        info.set_item(intern!(py, "agent_seat"), ep.seat().index())?;
        info.set_item(intern!(py, "to_move"), pos.to_move().index())?;
        info.set_item(intern!(py, "ply"), pos.ply())?;
        let replies: Vec<u32> = replies.iter().map(|m| u32::from(m.action())).collect();
        info.set_item(intern!(py, "opponent_moves"), replies)?;
        Ok(info)
    }

    /// Plays a checked action with the opponent's replies: the step and the
    /// opponent's moves.
    fn play(
        &mut self,
        py: Python<'_>,
        checked: Checked,
        opponent: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Step, Vec<Move>)> {
        match (checked, self.opts.opponent) {
            (Checked::Legal(a), Opponent::External) => {
                let acted: Acted = ep!(self).act(&self.opts, a);
                let from = ep!(self).moves().len();
                if let Some(opponent) = opponent {
                    if let Err(e) = self.external_replies(py, opponent) {
                        // Nothing changes when the opponent fails.
                        ep!(self).abandon(acted);
                        return Err(e);
                    }
                }
                let replies = ep!(self).moves()[from..].to_vec();
                Ok((ep!(self).conclude(&self.opts, acted), replies))
            }
            _ => {
                let from =
                    ep!(self).moves().len() + usize::from(matches!(checked, Checked::Legal(_)));
                let step = ep!(self).step(&self.opts, checked);
                let replies = ep!(self).moves().get(from..).unwrap_or(&[]).to_vec();
                Ok((step, replies))
            }
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
        rules, *, opponent = "random", agent_seat = "0", perspective = "mover",
        reward = "win_loss", illegal_action = "raise", illegal_penalty = -1.0, max_steps = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        opponent: &str,
        agent_seat: &str,
        perspective: &str,
        reward: &str,
        illegal_action: &str,
        illegal_penalty: f64,
        max_steps: Option<i64>,
    ) -> PyResult<Self> {
        let rules = PyRules::from_py(rules)?;
        let args = Args {
            rules: rules.to_string(),
            opponent: opponent.to_owned(),
            agent_seat: agent_seat.to_owned(),
            perspective: perspective.to_owned(),
            reward: reward.to_owned(),
            illegal_action: illegal_action.to_owned(),
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
    fn __getstate__(&self) -> PyResult<String> {
        let ep = self.locked();
        let state = (ep.snapshot(), ep.game().record(), ep.moves().to_vec());
        serde_json::to_string(&state).map_err(core_err)
    }

    fn __setstate__(&mut self, py: Python<'_>, state: &str) -> PyResult<()> {
        let (snapshot, record, moves): (Snapshot, String, Vec<Move>) = serde_json::from_str(state)
            .map_err(|e| AyoError::new_err(format!("not an EpisodeCore state: {e}")))?;
        let game = Game::from_record(&record).map_err(|e| errors::record(py, e))?;
        ep!(self).restore(snapshot, game, moves);
        Ok(())
    }

    /// Restarts the episode's random streams (seat draws, the random
    /// opponent: each a stream seeded by `seed`) and the alternating seats.
    fn seed(&mut self, seed: u64) {
        let ep = ep!(self);
        ep.seed(&self.opts, seed);
        ep.seed_opponent(seed);
    }

    /// Starts an episode from `game` (a copy is played; default: the rules'
    /// start) with the agent in `agent_seat` (0 or 1; default: by the
    /// option), the opponent's opening moves played (an external opponent:
    /// `opponent(game)` gives each). Returns `(observation, info)`.
    #[pyo3(signature = (game = None, agent_seat = None, opponent = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        game: Option<PyRef<'py, PyGame>>,
        agent_seat: Option<i64>,
        opponent: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seat = agent_seat.map(player_from).transpose()?;
        let start = match game {
            Some(g) => g.inner().clone(),
            None => Game::new(self.opts.rules),
        };
        if start.outcome().is_some() {
            return Err(AyoError::new_err("the start position is already over"));
        }
        ep!(self).reset_to_game(&self.opts, start, seat);
        if let Some(opponent) = opponent {
            if let Err(e) = self.external_replies(py, opponent) {
                // An opponent that fails here leaves no episode to play.
                ep!(self).abandon_episode();
                return Err(e);
            }
        }
        if ep!(self).game().outcome().is_some() {
            ep!(self).abandon_episode();
            return Err(AyoError::new_err(
                "the game ended on the opponent's opening moves",
            ));
        }
        let o = ep!(self).observe(&self.opts);
        let (obs, mask) = observation_dict(py, &o)?;
        let replies = ep!(self).moves().to_vec();
        let info = self.info(py, mask, &replies)?;
        (obs, info).into_pyobject(py)
    }

    /// One step with the agent's `action` (0..5): `(observation, reward,
    /// terminated, truncated, info)` as `AyoEnv.step` returns it. An action
    /// outside 0..5 raises `AyoError`; an illegal one `IllegalMoveError`
    /// (nothing changes) or is penalized (`illegal_action`).
    #[pyo3(signature = (action, opponent = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
        opponent: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (step, replies) = self.turn_step(py, action, opponent)?;
        let o = ep!(self).observe(&self.opts);
        let (obs, mask) = observation_dict(py, &o)?;
        let info = self.info(py, mask, &replies)?;
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
    fn turn<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<Turn> {
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
    fn observe_seat<'py>(&mut self, py: Python<'py>, seat: i64) -> PyResult<SeatView<'py>> {
        let seat = player_from(seat)?;
        let o = ep!(self).observe_as(&self.opts, seat);
        let (obs, mask) = observation_dict(py, &o)?;
        let board = obs
            .get_item(intern!(py, "observation"))?
            .ok_or_else(|| AyoError::new_err("no observation"))?
            .cast_into::<PyArray1<f32>>()?;
        Ok((board, mask))
    }

    /// The legal actions of the agent now, as int8 (all 0 once over).
    fn action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let legal = if ep!(self).is_done() {
            0
        } else {
            ep!(self).observe(&self.opts).legal
        };
        PyArray1::from_slice(py, &MASK_I8[usize::from(legal & 63)])
    }

    /// A copy of the game being played.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame::from_game(self.locked().game().clone())
    }

    /// The agent's seat in this episode: 0 (South) or 1 (North).
    #[getter]
    fn agent_seat(&self) -> usize {
        self.locked().seat().index()
    }

    /// The player to move: 0 (South) or 1 (North).
    #[getter]
    fn to_move(&self) -> usize {
        self.locked().game().position().to_move().index()
    }

    /// Whether the episode is over (or has not started).
    #[getter]
    fn done(&self) -> bool {
        self.locked().is_done()
    }
}

impl PyEpisodeCore {
    /// Converts and checks `action`, then plays it.
    fn turn_step(
        &mut self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        opponent: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Step, Vec<Move>)> {
        if ep!(self).is_done() {
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
        let a: i64 = action.extract().map_err(|_| not_an_action())?;
        let checked = ep!(self).check(&self.opts, a).map_err(|e| match e {
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
