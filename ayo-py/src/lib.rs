//! Python bindings for the ayo rules engine (the `ayo._ayo` extension).
//!
//! Only translation lives here: every rule is ayo-core's. Inputs are converted
//! first, errors become `ayo.AyoError` subclasses (never a panic), and batch
//! work (`perft`, playouts, database builds and searches) runs with the GIL
//! released.

use pyo3::prelude::*;

mod ai;
mod alloc;
mod counted;
mod env;
mod errors;
mod game;
mod guided;
mod kernel;
mod network;
mod rules;
mod solve;
mod stateless;
mod vector;
mod xla;

/// The `ayo._ayo` module.
#[pymodule]
fn _ayo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    kernel::register(m)?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<game::PyOutcome>()?;
    m.add_class::<game::PyGame>()?;
    m.add_function(wrap_pyfunction!(game::perft, m)?)?;
    ai::register(m)?;
    network::register(m)?;
    solve::register(m)?;
    counted::register(m)?;
    vector::register(m)?;
    stateless::register(m)?;
    env::register(m)?;
    guided::register(m)?;
    m.add("PARAM_NAMES", ayo_core::PARAM_NAMES.to_vec())?;
    m.add("NUM_ACTIONS", 6)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
