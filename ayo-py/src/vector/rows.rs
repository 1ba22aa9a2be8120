//! The batch's output arrays: numpy arrays made once and rewritten in place
//! by every reset and step, seen from Rust as one set of rows a game.

use ayo_core::episode::Observation;
use ayo_core::EndReason;
use numpy::ndarray::Dimension;
use numpy::{
    Element, PyArray, PyArrayDescr, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::errors::AyoError;

/// Features of one observation: 12 pits and 2 stores.
pub(crate) const OBS: usize = 14;
/// Actions per move.
pub(crate) const ACTIONS: usize = 6;

/// Row `m`: the action mask of the bit set `m` (bit `a`: action `a`), as bools.
const MASK_BOOL: [[bool; ACTIONS]; 64] = {
    let mut rows = [[false; ACTIONS]; 64];
    let mut m = 0;
    while m < 64 {
        let mut a = 0;
        while a < ACTIONS {
            rows[m][a] = m & (1 << a) != 0;
            a += 1;
        }
        m += 1;
    }
    rows
};

/// [`MASK_BOOL`] as the observation's int8.
pub(crate) const MASK_I8: [[i8; ACTIONS]; 64] = {
    let mut rows = [[0i8; ACTIONS]; 64];
    let mut m = 0;
    while m < 64 {
        let mut a = 0;
        while a < ACTIONS {
            rows[m][a] = MASK_BOOL[m][a] as i8;
            a += 1;
        }
        m += 1;
    }
    rows
};

/// The output rows of a run of games, split into chunks for the threads.
pub(crate) struct Rows<'a> {
    pub obs: &'a mut [f32],
    pub obs_mask: &'a mut [i8],
    pub mask: &'a mut [bool],
    pub reward: &'a mut [f64],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub seat: &'a mut [i8],
    pub final_obs: &'a mut [f32],
    pub final_obs_mask: &'a mut [i8],
    pub ended: &'a mut [bool],
    pub game_over: &'a mut [bool],
    pub scores: &'a mut [i16],
    pub winner: &'a mut [i8],
    pub illegal: &'a mut [i8],
    /// The player to move after the step (0 South, 1 North).
    pub to_move: &'a mut [i8],
    /// The game's ply after the step.
    pub ply: &'a mut [u32],
    /// The opponent's reply this step (its action 0..=5), -1 where it did not move.
    pub replied: &'a mut [i8],
    /// Why a game that ended by the rules this step ended ([`reason_code`]), -1 elsewhere.
    pub reason: &'a mut [i8],
    /// Each game's status after the step (the next validation's input):
    /// its legal actions (bits 0..=5) and [`DONE`].
    pub status: &'a mut [u8],
}

/// The code of an end reason in the `reason` row: 0 target, 1 move limit,
/// 2 repetition, 3 no legal move (`ayo.vector` names them for `ayo.Outcome`).
pub(crate) fn reason_code(reason: EndReason) -> i8 {
    match reason {
        EndReason::Target => 0,
        EndReason::MoveLimit => 1,
        EndReason::Repetition => 2,
        EndReason::NoLegalMove => 3,
    }
}

/// The status bit of an episode that is over and awaits a reset.
pub(crate) const DONE: u8 = 0x80;

/// Splits every slice of a [`Rows`] at `n` games: `$($field, $width)`.
macro_rules! split_rows {
    ($rows:expr, $n:expr, $($field:ident: $width:expr),* $(,)?) => {{
        let rows = $rows;
        $(let $field = rows.$field.split_at_mut($n * $width);)*
        (
            Rows { $($field: $field.0,)* },
            Rows { $($field: $field.1,)* },
        )
    }};
}

impl<'a> Rows<'a> {
    /// The first `n` games' rows and the rest.
    pub(crate) fn split_at(self, n: usize) -> (Rows<'a>, Rows<'a>) {
        split_rows!(self, n,
            obs: OBS, obs_mask: ACTIONS, mask: ACTIONS, reward: 1, terminated: 1,
            truncated: 1, seat: 1, final_obs: OBS, final_obs_mask: ACTIONS, ended: 1,
            game_over: 1, scores: 2, winner: 1, illegal: 1, to_move: 1, ply: 1,
            replied: 1, reason: 1, status: 1,
        )
    }

    /// Writes game `i`'s observation and masks; returns its legal actions.
    #[inline]
    pub(crate) fn write_obs(&mut self, i: usize, o: &Observation) -> u8 {
        write_view(&o.view, &mut self.obs[i * OBS..(i + 1) * OBS]);
        // Whole rows from tables: six byte stores, not a loop over bits.
        let row = usize::from(o.legal & 63);
        let acts = i * ACTIONS..(i + 1) * ACTIONS;
        if let Ok(m) = <&mut [i8; ACTIONS]>::try_from(&mut self.obs_mask[acts.clone()]) {
            *m = MASK_I8[row];
        }
        if let Ok(m) = <&mut [bool; ACTIONS]>::try_from(&mut self.mask[acts]) {
            *m = MASK_BOOL[row];
        }
        o.legal
    }

    /// Writes game `i`'s final observation (same-step autoreset).
    #[inline]
    pub(crate) fn write_final_obs(&mut self, i: usize, o: &Observation) {
        write_view(&o.view, &mut self.final_obs[i * OBS..(i + 1) * OBS]);
        let row = usize::from(o.legal & 63);
        if let Ok(m) =
            <&mut [i8; ACTIONS]>::try_from(&mut self.final_obs_mask[i * ACTIONS..(i + 1) * ACTIONS])
        {
            *m = MASK_I8[row];
        }
    }
}

/// An observation's seeds as float32.
#[inline]
pub(crate) fn write_view(view: &[u8; OBS], out: &mut [f32]) {
    for (o, &v) in out[..OBS].iter_mut().zip(view) {
        *o = f32::from(v);
    }
}

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
