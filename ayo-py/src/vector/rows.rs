//! The batch's output arrays: numpy arrays made once and rewritten in place
//! by every reset and step, seen from Rust as ayo-core's rows
//! ([`ayo_core::episode::Rows`], which its batched environment writes).

use numpy::ndarray::Dimension;
use numpy::{
    Element, PyArray, PyArrayDescr, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::errors::AyoError;

/// The element types of the output arrays, each with its dtype fetched
/// from numpy once: checking an array's dtype against it is then one pointer
/// comparison (numpy makes arrays of a built-in type with that very dtype
/// object), where asking numpy for the dtype on every step cost more than the
/// engine's step of a small batch.
pub(crate) trait OutElement: Element {
    /// The dtype of `Self`, made once.
    fn out_dtype(py: Python<'_>) -> &Py<PyArrayDescr>;
}

macro_rules! out_elements {
    ($($t:ty),*) => {$(
        impl OutElement for $t {
            fn out_dtype(py: Python<'_>) -> &Py<PyArrayDescr> {
                static DTYPE: PyOnceLock<Py<PyArrayDescr>> = PyOnceLock::new();
                DTYPE.get_or_init(py, || numpy::dtype::<$t>(py).unbind())
            }
        }
    )*};
}
out_elements!(f32, f64, bool, i8, i16, u32, Py<PyAny>);

/// One of a batch's output arrays as a mutable slice of `len` elements.
///
/// rust-numpy's dynamic borrow checking costs more than stepping a small
/// batch, so the arrays are written through a slice of their data after
/// checking what could make that unsound: the length, the dtype and
/// contiguity.
///
/// # Safety
///
/// `arr` must be one of the output arrays of a `PyVecCore` (made by
/// `PyVecCore::new`, or the `outcomes` array made by its first call, owning
/// its data, referenced by that object for its whole life), and no other
/// slice of it may exist while the result lives.
// The `&` to `&mut` is what the # Safety contract above covers.
#[allow(clippy::mut_from_ref)]
pub(crate) unsafe fn out_slice<'a, T: OutElement, D: Dimension>(
    arr: &'a Bound<'_, PyArray<T, D>>,
    len: usize,
) -> PyResult<&'a mut [T]> {
    let py = arr.py();
    let dtype = arr.dtype();
    let same_dtype =
        dtype.as_ptr() == T::out_dtype(py).as_ptr() || dtype.is_equiv_to(&numpy::dtype::<T>(py));
    if arr.len() != len || !same_dtype {
        return Err(AyoError::new_err(
            "an output array of the batch was reshaped or retyped; make a new batch",
        ));
    }
    if !arr.is_c_contiguous() {
        return Err(AyoError::new_err(
            "an output array of the batch is no longer contiguous; make a new batch",
        ));
    }
    // SAFETY: the data stays allocated (the caller's contract), its dtype,
    // length and contiguity were just checked; the caller makes no other
    // slice of it. Python code that writes to the arrays from another thread
    // while a step runs (with the GIL released) races with it, as with any
    // numpy extension that releases the GIL; the docs say not to.
    Ok(unsafe { std::slice::from_raw_parts_mut(arr.data(), len) })
}
