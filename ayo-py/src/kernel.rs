//! The CPU kernel the hot loops run (`ayo-core`'s `kernel` module): asked
//! for by `AYO_KERNEL`, refused on import when the CPU lacks it.

use ayo_core::kernel::{configured, Kernel, KERNEL_ENV};
use pyo3::prelude::*;

use crate::errors::AyoError;

/// The kernel the hot loops run: "scalar", "avx2" or "avx512".
#[pyfunction]
fn kernel() -> PyResult<&'static str> {
    configured()
        .map(Kernel::name)
        .map_err(|e| AyoError::new_err(e.to_string()))
}

/// The kernels this CPU can run, ascending ("scalar" first).
#[pyfunction]
fn kernels() -> Vec<&'static str> {
    Kernel::available().into_iter().map(Kernel::name).collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // A kernel asked for and refused is an error on import, not a silent fallback.
    kernel()?;
    m.add_function(wrap_pyfunction!(kernel, m)?)?;
    m.add_function(wrap_pyfunction!(kernels, m)?)?;
    m.add("KERNEL_ENV", KERNEL_ENV)?;
    Ok(())
}
