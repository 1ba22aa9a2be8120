//! Fallible allocation of what grows with an argument from Python (a batch's
//! games, its arrays, lists of one entry a game): running out of memory is
//! a `MemoryError` naming the bytes and what they were for, never an abort of
//! the interpreter.

use numpy::ndarray::Dimension;
use numpy::{Element, PyArray};
use pyo3::exceptions::PyMemoryError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::errors;

/// The bytes of `len` items of `T` (wide: it cannot overflow).
pub(crate) fn bytes_of<T>(len: usize) -> u128 {
    len as u128 * std::mem::size_of::<T>() as u128
}

/// An empty `Vec` with room for exactly `len` items, or `MemoryError`.
pub(crate) fn vec_with_capacity<T>(len: usize, what: &str) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| errors::out_of_memory(bytes_of::<T>(len), what))?;
    Ok(v)
}

/// `len` copies of `value`, or `MemoryError`.
pub(crate) fn vec_filled<T: Clone>(len: usize, value: T, what: &str) -> PyResult<Vec<T>> {
    let mut v = vec_with_capacity(len, what)?;
    v.resize(len, value);
    Ok(v)
}

/// A numpy array of zeros of `shape`, made by `numpy.zeros` (whose failure is
/// a Python exception, where rust-numpy's constructors panic), its
/// `MemoryError` replaced by one naming `what`.
pub(crate) fn zeros<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    shape: &[usize],
    what: &str,
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let numpy = py.import(intern!(py, "numpy"))?;
    let dims = PyTuple::new(py, shape)?;
    let made = numpy
        .getattr(intern!(py, "zeros"))?
        .call1((dims, numpy::dtype::<T>(py)));
    match made {
        Ok(a) => Ok(a.cast_into::<PyArray<T, D>>()?),
        Err(e) if e.is_instance_of::<PyMemoryError>(py) => {
            let items = shape.iter().map(|&d| d as u128).product::<u128>();
            let bytes = items * std::mem::size_of::<T>() as u128;
            Err(errors::out_of_memory(bytes, what))
        }
        Err(e) => Err(e),
    }
}

/// A Python list of `items`, grown by `append` (whose failure is a Python
/// exception, where pyo3's list constructors panic).
pub(crate) fn list<'py, T: IntoPyObject<'py>>(
    py: Python<'py>,
    items: impl IntoIterator<Item = T>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for item in items {
        list.append(item)?;
    }
    Ok(list)
}

/// The items of a Python sequence (a list, a tuple, a numpy array), each
/// converted by `item`, as a `Vec` whose room is reserved fallibly (pyo3's
/// `Vec` extraction aborts when a huge sequence does not fit).
pub(crate) fn extract_vec<'py, T>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    mut item: impl FnMut(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be a sequence, not a str"
        )));
    }
    let len = obj.len()?;
    let mut v = vec_with_capacity(len, what)?;
    for x in obj.try_iter()? {
        v.push(item(&x?)?);
    }
    Ok(v)
}
