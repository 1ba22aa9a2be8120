//! The hot path of the single-agent environment `ayo/Ayo-v0`
//! (`python/ayo/envs/ayo_env.py`) against the random opponent: one call plays
//! the agent's action and the opponent's replies and builds the step's
//! observation, reward and info, so that a step crosses into Rust once
//! instead of a dozen times. The Python class keeps every other path
//! (illegal actions, callable opponents, resets) and all the checks.

use ayo_core::{Game, Player, Status};
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{PyGame, PyOutcome};
use crate::vector::{write_view, ACTIONS, OBS};

/// The random opponent's stream and the options a step needs.
#[pyclass(name = "EnvCore", module = "ayo._ayo")]
pub(crate) struct PyEnvCore {
    random: Xoshiro256PlusPlus,
    seat: Player,
    absolute: bool,
    seed_difference: bool,
}

/// `seat`'s store minus the other's (the final scores once the game is over).
fn margin(game: &Game, seat: Player) -> i32 {
    let scores = match game.outcome() {
        Some(o) => o.scores,
        None => game.position().stores().map(u16::from),
    };
    i32::from(scores[seat.index()]) - i32::from(scores[seat.opponent().index()])
}

fn over(game: &Game) -> bool {
    !matches!(game.status(), Status::Ongoing)
}

impl PyEnvCore {
    /// The opponent's uniformly random legal moves until `seat` is to move or
    /// the game is over; the actions played.
    fn replies(&mut self, game: &mut Game) -> Vec<u32> {
        let mut played = Vec::new();
        while !over(game) && game.position().to_move() != self.seat {
            let moves = game.legal_moves();
            let mv = moves[self.random.random_range(0..moves.len())];
            if game.play(mv).is_err() {
                break; // a legal move always plays; stop rather than loop
            }
            played.push(u32::from(mv.action()));
        }
        played
    }

    /// The observation dict and a separate copy of the mask for `info`.
    fn observe<'py>(
        &self,
        py: Python<'py>,
        game: &Game,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyArray1<i8>>)> {
        let mut view = [0f32; OBS];
        let viewer = if self.absolute {
            Player::South
        } else {
            self.seat
        };
        write_view(game.position(), viewer, &mut view);
        let legal = if over(game) || game.position().to_move() != self.seat {
            0
        } else {
            game.legal_action_mask()
        };
        let mut mask = [0i8; ACTIONS];
        for (a, m) in mask.iter_mut().enumerate() {
            *m = i8::from(legal & (1 << a) != 0);
        }
        let obs = PyDict::new(py);
        obs.set_item(intern!(py, "observation"), PyArray1::from_slice(py, &view))?;
        obs.set_item(intern!(py, "action_mask"), PyArray1::from_slice(py, &mask))?;
        Ok((obs, PyArray1::from_slice(py, &mask)))
    }
}

#[pymethods]
impl PyEnvCore {
    /// A core for the agent in `seat` (0 or 1), with the opponent's stream
    /// seeded from `seed`.
    #[new]
    fn new(seed: u64, seat: u8, absolute: bool, seed_difference: bool) -> Self {
        PyEnvCore {
            random: Xoshiro256PlusPlus::seed_from_u64(seed),
            seat: if seat == 0 {
                Player::South
            } else {
                Player::North
            },
            absolute,
            seed_difference,
        }
    }

    /// Pickle and copy: a placeholder from `__getnewargs__`, then the state.
    fn __getnewargs__(&self) -> (u64, u8, bool, bool) {
        (0, 0, false, false)
    }

    /// The whole state (the stream's included) as text.
    fn __getstate__(&self) -> PyResult<String> {
        let state = (
            &self.random,
            self.seat.index(),
            self.absolute,
            self.seed_difference,
        );
        serde_json::to_string(&state).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let (random, seat, absolute, seed_difference): (Xoshiro256PlusPlus, u8, bool, bool) =
            serde_json::from_str(state)
                .map_err(|e| PyValueError::new_err(format!("not an EnvCore state: {e}")))?;
        *self = PyEnvCore::new(0, seat, absolute, seed_difference);
        self.random = random;
        Ok(())
    }

    /// Restarts the opponent's stream from `seed`.
    fn seed(&mut self, seed: u64) {
        self.random = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    /// The agent's seat: 0 (South) or 1 (North).
    #[getter]
    fn get_seat(&self) -> usize {
        self.seat.index()
    }

    #[setter]
    fn set_seat(&mut self, seat: u8) {
        self.seat = if seat == 0 {
            Player::South
        } else {
            Player::North
        };
    }

    /// The opponent's moves until the agent is to move or the game is over:
    /// the actions played.
    fn opponent_turns(&mut self, mut game: PyRefMut<'_, PyGame>) -> Vec<u32> {
        // `PyRefMut`: a game borrowed elsewhere raises (pyo3's borrow error), never panics.
        self.replies(game.inner_mut())
    }

    /// One step with the agent's `action`: `(observation, reward,
    /// terminated, truncated, info)` as `AyoEnv.step` returns it, or None
    /// (nothing changed) when `action` is not a legal action now or the
    /// agent is not to move, for the caller's checks and errors.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        mut game: PyRefMut<'py, PyGame>,
        action: i64,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let game = game.inner_mut();
        let legal = u8::try_from(action).ok().filter(|&a| {
            usize::from(a) < ACTIONS
                && !over(game)
                && game.position().to_move() == self.seat
                && game.legal_action_mask() & (1 << a) != 0
        });
        let Some(a) = legal else {
            return Ok(None);
        };
        let before = if self.seed_difference {
            margin(game, self.seat)
        } else {
            0
        };
        if game.play_action(a).is_err() {
            return Ok(None);
        }
        let replies = self.replies(game);
        let outcome = game.outcome();
        let terminated = over(game);
        let reward = if self.seed_difference {
            f64::from(margin(game, self.seat) - before)
        } else {
            outcome.map_or(0.0, |o| f64::from(o.result_for(self.seat)))
        };
        let (obs, mask) = self.observe(py, game)?;
        let info = PyDict::new(py);
        info.set_item(intern!(py, "action_mask"), mask)?;
        info.set_item(intern!(py, "agent_seat"), self.seat.index())?;
        info.set_item(intern!(py, "to_move"), game.position().to_move().index())?;
        info.set_item(intern!(py, "ply"), game.position().ply())?;
        info.set_item(intern!(py, "opponent_moves"), replies)?;
        if let Some(o) = outcome {
            info.set_item(intern!(py, "outcome"), PyOutcome { inner: o })?;
        }
        let result = (obs, reward, terminated, false, info).into_pyobject(py)?;
        Ok(Some(result))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEnvCore>()
}
