//! `StatelessCore`: ayo-core's stateless batch ([`Stateless`]) for
//! `ayo.stateless` and `ayo.jax`. Each method reads numpy arrays and writes
//! into arrays the caller made (`ayo.stateless` makes them 64-byte aligned),
//! with the GIL released; no copy of the inputs; every error is a `StatelessError` whose `reason`
//! is the core's kind.

use ayo_core::episode::{Perspective, Stateless, StatelessError as CoreError, StepOut};
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, Real, Text};
use crate::rules::PyRules;
use crate::vector::{episode_options, opponent_from};
use crate::xla;

fn error(e: CoreError) -> PyErr {
    errors::stateless(e.kind(), e.to_string())
}

fn shape(message: String) -> PyErr {
    errors::stateless("shape", message)
}

/// A C-contiguous numpy array of `T`, read where it lies (no copy).
fn read<'py, T: Element>(
    a: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, T>> {
    let arr = a.cast::<PyArrayDyn<T>>().map_err(|_| {
        shape(format!(
            "{what} must be a numpy array of {}",
            std::any::type_name::<T>()
        ))
    })?;
    let ro = arr
        .try_readonly()
        .map_err(|e| shape(format!("{what}: {e}")))?;
    if !ro.is_c_contiguous() {
        return Err(shape(format!("{what}: not C-contiguous")));
    }
    Ok(ro)
}

/// A writable C-contiguous numpy array of `T`.
fn write<'py, T: Element>(
    a: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
    let arr = a.cast::<PyArrayDyn<T>>().map_err(|_| {
        shape(format!(
            "{what} must be a numpy array of {}",
            std::any::type_name::<T>()
        ))
    })?;
    let rw = arr
        .try_readwrite()
        .map_err(|e| shape(format!("{what}: {e}")))?;
    if !rw.is_c_contiguous() {
        return Err(shape(format!("{what}: not C-contiguous")));
    }
    Ok(rw)
}

/// A stateless batch's options, validated (`ayo.stateless.StatelessEnv`
/// wraps it).
#[pyclass(name = "StatelessCore", module = "ayo._ayo", frozen)]
pub(crate) struct PyStateless {
    env: Stateless,
}

#[pymethods]
impl PyStateless {
    /// The options of ayo-core's episode; see `ayo.stateless.StatelessEnv`.
    #[new]
    #[pyo3(signature = (
        rules, opponent, *, agent_seat = None,
        perspective = Text("mover".to_owned()), reward = Text("win_loss".to_owned()),
        illegal_action = Text("penalize".to_owned()), illegal_penalty = Real(Ok(-1.0)),
        max_episode_steps = None, autoreset_mode = Text("NextStep".to_owned())
    ), text_signature = "(rules, opponent, *, agent_seat=None, perspective='mover', \
        reward='win_loss', illegal_action='penalize', illegal_penalty=-1.0, \
        max_episode_steps=None, autoreset_mode='NextStep')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: &Bound<'_, PyAny>,
        opponent: Option<&Bound<'_, PyAny>>,
        agent_seat: Option<&Bound<'_, PyAny>>,
        perspective: Text,
        reward: Text,
        illegal_action: Text,
        illegal_penalty: Real,
        max_episode_steps: Option<i64>,
        autoreset_mode: Text,
    ) -> PyResult<Self> {
        let rules = PyRules::from_py(rules)?;
        let illegal_penalty = Real::get(&illegal_penalty, "illegal_penalty", "a float")?;
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
        let env = Stateless::new(opts).map_err(error)?;
        Ok(PyStateless { env })
    }

    /// The batch of a `spec` line.
    #[staticmethod]
    fn from_spec(spec: &str) -> PyResult<Self> {
        let env = Stateless::from_spec(spec).map_err(error)?;
        Ok(PyStateless { env })
    }

    /// The options as one line (the XLA calls' `spec` attribute).
    #[getter]
    fn spec(&self) -> String {
        self.env.spec()
    }

    /// Writes the start of each seed's episode into `states` (`(B, 96)` uint8).
    fn init_into(
        &self,
        py: Python<'_>,
        seeds: &Bound<'_, PyAny>,
        states: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seeds = read::<u64>(seeds, "seeds")?;
        let seeds = seeds.as_slice().map_err(|e| shape(e.to_string()))?;
        let mut out = write::<u8>(states, "states")?;
        let out = out.as_slice_mut().map_err(|e| shape(e.to_string()))?;
        py.detach(|| self.env.init(seeds, out)).map_err(error)
    }

    /// Steps `states` into `next` (both `(B, 96)` uint8), writing `rewards`
    /// (`(B, 2)` float32), `terminated` and `truncated` (`(B,)` bool) and,
    /// where given, the next states' legal mask (`(B, 6)` bool).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (states, actions, next, rewards, terminated, truncated, next_mask = None))]
    fn step_into(
        &self,
        py: Python<'_>,
        states: &Bound<'_, PyAny>,
        actions: &Bound<'_, PyAny>,
        next: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        truncated: &Bound<'_, PyAny>,
        next_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let actions = read::<i64>(actions, "actions")?;
        let states = read::<u8>(states, "states")?;
        let (actions, states) = (
            actions.as_slice().map_err(|e| shape(e.to_string()))?,
            states.as_slice().map_err(|e| shape(e.to_string()))?,
        );
        let mut next = write::<u8>(next, "next")?;
        let mut rewards = write::<f32>(rewards, "rewards")?;
        let mut term = write::<bool>(terminated, "terminated")?;
        let mut trunc = write::<bool>(truncated, "truncated")?;
        let mut mask = next_mask
            .map(|m| write::<bool>(m, "next_mask"))
            .transpose()?;
        let bad = |e: numpy::AsSliceError| shape(e.to_string());
        let next = next.as_slice_mut().map_err(bad)?;
        let out = StepOut {
            rewards: rewards.as_slice_mut().map_err(bad)?,
            terminated: term.as_slice_mut().map_err(bad)?,
            truncated: trunc.as_slice_mut().map_err(bad)?,
            next_mask: match mask.as_mut() {
                Some(m) => Some(m.as_slice_mut().map_err(bad)?),
                None => None,
            },
        };
        py.detach(|| self.env.step(states, next, actions, out))
            .map_err(error)
    }

    /// Writes the viewer's legal actions of `states` into `mask` (`(B, 6)` bool).
    fn legal_mask_into(
        &self,
        py: Python<'_>,
        states: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let states = read::<u8>(states, "states")?;
        let states = states.as_slice().map_err(|e| shape(e.to_string()))?;
        let mut mask = write::<bool>(mask, "mask")?;
        let mask = mask.as_slice_mut().map_err(|e| shape(e.to_string()))?;
        py.detach(|| self.env.legal_mask(states, mask))
            .map_err(error)
    }

    /// Writes the boards of `states` in `perspective` ("mover" or
    /// "absolute") into `obs` (`(B, 14)` uint8).
    fn observe_into(
        &self,
        py: Python<'_>,
        states: &Bound<'_, PyAny>,
        perspective: &str,
        obs: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let perspective: Perspective =
            perspective
                .parse()
                .map_err(|e: ayo_core::episode::OptionsError| {
                    errors::stateless("options", e.to_string())
                })?;
        let states = read::<u8>(states, "states")?;
        let states = states.as_slice().map_err(|e| shape(e.to_string()))?;
        let mut obs = write::<u8>(obs, "observations")?;
        let obs = obs.as_slice_mut().map_err(|e| shape(e.to_string()))?;
        py.detach(|| self.env.observe(states, perspective, obs))
            .map_err(error)
    }

    /// Writes each action's child of `states` into `children` (`(B, 6, 96)`
    /// uint8) and whether it is legal into `valid` (`(B, 6)` bool).
    fn children_into(
        &self,
        py: Python<'_>,
        states: &Bound<'_, PyAny>,
        children: &Bound<'_, PyAny>,
        valid: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let states = read::<u8>(states, "states")?;
        let states = states.as_slice().map_err(|e| shape(e.to_string()))?;
        let mut children = write::<u8>(children, "children")?;
        let mut valid = write::<bool>(valid, "valid")?;
        let bad = |e: numpy::AsSliceError| shape(e.to_string());
        let children = children.as_slice_mut().map_err(bad)?;
        let valid = valid.as_slice_mut().map_err(bad)?;
        py.detach(|| self.env.children(states, children, valid))
            .map_err(error)
    }
}

/// The XLA FFI handlers: target name to function address.
#[pyfunction]
fn _xla_handlers(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (name, address) in xla::handlers() {
        d.set_item(name, address)?;
    }
    Ok(d)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStateless>()?;
    m.add_function(wrap_pyfunction!(_xla_handlers, m)?)?;
    m.add("STATE_BYTES", ayo_core::episode::STATE_BYTES)?;
    Ok(())
}
