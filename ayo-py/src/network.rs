//! `ayo.Network`: the policy/value network file the learned level reads
//! (`ayo_core::players::network`), for checking an exported network and
//! for playing one as a player.

use std::sync::Arc;

use ayo_core::players::network::{Network, INPUTS};
use ayo_core::players::{learned, Budget, Learned};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::ai::PyPlayer;
use crate::errors::{AyoError, Wide};

/// The largest network file read (the format's own bounds allow less).
const MAX_FILE: u64 = 64 << 20;

#[pyclass(module = "ayo._ayo", name = "Network", frozen)]
pub(crate) struct PyNetwork {
    net: Arc<Network>,
}

fn refused(e: impl std::fmt::Display) -> PyErr {
    AyoError::new_err(e.to_string())
}

impl PyNetwork {
    /// The network, for a search evaluated in Rust.
    pub(crate) fn network(&self) -> Arc<Network> {
        Arc::clone(&self.net)
    }
}

#[pymethods]
impl PyNetwork {
    /// Reads a network file (`examples/python/alphazero.py`'s `export`).
    #[staticmethod]
    fn open(path: std::path::PathBuf) -> PyResult<PyNetwork> {
        let meta =
            std::fs::metadata(&path).map_err(|e| refused(format!("{}: {e}", path.display())))?;
        if !meta.is_file() || meta.len() > MAX_FILE {
            return Err(refused(format!(
                "{}: not a network file (a regular file of at most {MAX_FILE} bytes)",
                path.display()
            )));
        }
        let bytes =
            std::fs::read(&path).map_err(|e| refused(format!("{}: {e}", path.display())))?;
        PyNetwork::from_bytes(&bytes)
    }

    /// Reads a network from the bytes of its file.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<PyNetwork> {
        Ok(PyNetwork {
            net: Arc::new(Network::from_bytes(data).map_err(refused)?),
        })
    }

    /// The network shipped for `rules`' family (what level `learned` plays).
    #[staticmethod]
    fn shipped(rules: &Bound<'_, PyAny>) -> PyResult<PyNetwork> {
        let rules = crate::rules::PyRules::from_py(rules)?;
        Ok(PyNetwork {
            net: learned::shipped(&rules).map_err(refused)?,
        })
    }

    /// The file's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.net.to_bytes())
    }

    /// The rules record the network was trained for.
    #[getter]
    fn rules(&self) -> &str {
        self.net.rules()
    }

    /// Parameters in all.
    #[getter]
    fn parameters(&self) -> usize {
        self.net.parameters()
    }

    /// `(logits, value)` of one observation (14 seed counts, the mover's view):
    /// six move logits and the value in [-1, 1] for the player to move.
    fn evaluate(&self, observation: Vec<f32>) -> PyResult<(Vec<f32>, f32)> {
        let x: [f32; INPUTS] = observation.as_slice().try_into().map_err(|_| {
            AyoError::new_err(format!(
                "an observation has {INPUTS} features, not {}",
                observation.len()
            ))
        })?;
        if x.iter().any(|v| !v.is_finite()) {
            return Err(AyoError::new_err(
                "an observation's features must be finite",
            ));
        }
        let (logits, value) = self.net.evaluate(&x);
        Ok((logits.to_vec(), value))
    }

    /// A player of this network inside the guided search, `simulations` a
    /// move (as level `learned`, which plays the shipped network with 64).
    #[pyo3(signature = (simulations = Wide(Ok(learned::LEVEL_SIMULATIONS as i128)), *, seed = Wide(Ok(0))),
        text_signature = "(self, /, simulations=64, *, seed=0)")]
    fn player(&self, simulations: Wide, seed: Wide) -> PyResult<PyPlayer> {
        let simulations: u64 = simulations.get("simulations", "1 to 1048576")?;
        if !(1..=1 << 20).contains(&simulations) {
            return Err(AyoError::new_err(format!(
                "simulations is 1 to 1048576, not {simulations}"
            )));
        }
        let seed: u64 = seed.get("seed", "0 to 2**64-1")?;
        let agent = Learned::new(
            Some(Arc::clone(&self.net)),
            Budget::Nodes(simulations),
            seed,
        );
        PyPlayer::from_agent(Box::new(agent), "learned", Budget::Nodes(simulations), seed)
    }

    fn __repr__(&self) -> String {
        format!(
            "Network(rules={:?}, parameters={})",
            self.net.rules(),
            self.net.parameters()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNetwork>()
}
