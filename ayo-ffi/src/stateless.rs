//! Stateless batches (`ayo_core::episode::Stateless`): an episode packed in
//! a record of `AYO_STATE_BYTES` bytes (layout in `docs/jax.md`) and pure
//! functions over arrays of records, for callers that keep the state
//! themselves. The handle holds only the validated options (a const handle:
//! its failures are kept per thread, `ayo_stateless_last_error`).

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ayo_core::episode::{ActionError, Perspective, Stateless, StatelessError, StepOut};

use crate::errors::{c_words, illegal_move, Numbering};
use crate::result::ayo_result;
use crate::util::{free_box, guard, guard_detail, in_str, need, out, text_query, write_str, Fail};

/// Bytes of one stateless record (`ayo_core::episode::STATE_BYTES`; a test
/// checks they agree).
pub const AYO_STATE_BYTES: usize = 96;

/// The options of a stateless batch (an opaque handle): rules whose state
/// fits the record, the random opponent or self-play, the rewards, the
/// step limit and the autoreset. Made by `ayo_stateless_new`, released by
/// `ayo_stateless_free`; never changed, so one handle may serve any number
/// of threads at once.
pub struct ayo_stateless {
    env: Stateless,
}

thread_local! {
    /// The detail of the last stateless call that failed on this thread.
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

impl From<StatelessError> for Fail {
    fn from(e: StatelessError) -> Fail {
        let message = c_words(&e);
        match e {
            StatelessError::Repetition => Fail::new(ayo_result::StatelessUnsupportedRules, message),
            StatelessError::Rules(r) => Fail::from(r),
            StatelessError::BadState { .. } => Fail::new(ayo_result::InvalidPosition, message),
            StatelessError::Action {
                error: ActionError::Illegal(m),
                index,
            } => {
                let f = illegal_move(m, Numbering::Relative);
                Fail::new(f.code, format!("game {index}: {}", f.message))
            }
            StatelessError::Action { .. } => Fail::new(ayo_result::ActionOutOfRange, message),
            _ => Fail::new(ayo_result::InvalidArgument, message),
        }
    }
}

/// Runs a stateless call inside the panic boundary, keeping its failure
/// detail for the calling thread.
fn guard_stateless(f: impl FnOnce() -> Result<(), Fail>) -> ayo_result {
    let (code, detail) = guard_detail(f);
    let kept = catch_unwind(AssertUnwindSafe(|| {
        let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = detail);
    }));
    kept.map_or(ayo_result::Panic, |()| code)
}

/// `n` items of `T` at `p` (NULL only when `n` is 0).
///
/// # Safety
/// `p` valid for `n` reads when non-NULL.
unsafe fn slice<'a, T>(p: *const T, n: usize, arg: &str) -> Result<&'a [T], Fail> {
    if n == 0 {
        return Ok(&[]);
    }
    need(p, arg)?;
    // SAFETY: the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// `n` bytes at `p`, read and written (NULL only when `n` is 0).
///
/// # Safety
/// `p` valid for `n` reads and writes when non-NULL.
unsafe fn bytes_mut<'a>(p: *mut u8, n: usize, arg: &str) -> Result<&'a mut [u8], Fail> {
    if n == 0 {
        return Ok(&mut []);
    }
    need(p, arg)?;
    // SAFETY: the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// `n` items of `T` at `p`, zeroed first (the caller's memory may be
/// uninitialised; all-zero bytes are a valid `T` for the outputs here).
///
/// # Safety
/// `p` valid for `n` writes when non-NULL; `T` one of `u8`, `f32`, `bool`.
unsafe fn out_slice<'a, T>(p: *mut T, n: usize, arg: &str) -> Result<&'a mut [T], Fail> {
    if n == 0 {
        return Ok(&mut []);
    }
    need(p, arg)?;
    // SAFETY: the caller's contract.
    unsafe {
        std::ptr::write_bytes(p, 0, n);
        Ok(std::slice::from_raw_parts_mut(p, n))
    }
}

/// `n * k`, or `InvalidArgument` when it overflows.
fn times(n: usize, k: usize) -> Result<usize, Fail> {
    n.checked_mul(k)
        .ok_or_else(|| Fail::new(ayo_result::InvalidArgument, "the batch is too large"))
}

/// The handle, or `NullArgument`.
///
/// # Safety
/// NULL or a live handle.
unsafe fn handle<'a>(h: *const ayo_stateless) -> Result<&'a Stateless, Fail> {
    // SAFETY: the caller's contract.
    unsafe { h.as_ref() }
        .map(|h| &h.env)
        .ok_or_else(|| Fail::null("env"))
}

/// Makes the stateless batch of `spec`: `key=value` pairs joined by `;`,
/// every rule parameter (`capture=two_three`, …; those left out keep
/// ayoayo's) and the options `opponent` (`random`, `self_play`), `seat`
/// (`0`, `1`, `alternate`, `random`), `perspective` (`mover`, `absolute`),
/// `reward` (`win_loss`, `seed_difference`), `illegal` (`raise`,
/// `penalize`), `penalty`, `max_steps` (`none` or a number) and
/// `autoreset` (`NextStep`, `Disabled`). `ayo_stateless_spec` writes a
/// handle's spec back, every key included.
///
/// `AYO_RESULT_STATELESS_UNSUPPORTED_RULES` for rules that end games on a
/// repeated position (`repetition=own_side`, oware's): that rule reads every
/// position since the last capture, which no fixed-size record holds
/// (`repetition=off` with `max_steps` is the stateless form of Oware).
/// Rule errors as `ayo_rules_set`; `AYO_RESULT_INVALID_ARGUMENT` for other
/// bad options. Detail: `ayo_stateless_last_error`.
///
/// Ownership: `*out_env` is new; release it with `ayo_stateless_free`.
///
/// # Safety
/// `spec` a NUL-terminated string; `out_env` valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_new(
    spec: *const c_char,
    out_env: *mut *mut ayo_stateless,
) -> ayo_result {
    guard_stateless(|| {
        need(out_env, "out_env")?;
        // SAFETY: the caller's contract.
        let spec = unsafe { in_str(spec, "spec") }?;
        let env = Stateless::from_spec(spec)?;
        // SAFETY: checked non-NULL.
        unsafe { out(out_env, Box::into_raw(Box::new(ayo_stateless { env }))) };
        Ok(())
    })
}

/// Releases a stateless handle; NULL does nothing.
///
/// # Safety
/// `env` NULL or a handle from `ayo_stateless_new`, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_free(env: *mut ayo_stateless) {
    // SAFETY: the caller's contract.
    unsafe { free_box(env) }
}

/// Writes the handle's spec (every key) into `buf`; text out-parameter
/// convention as for `ayo_result_message`.
///
/// # Safety
/// `env` a live handle; `buf` NULL or valid for `len` bytes; `written` valid.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_spec(
    env: *const ayo_stateless,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { text_query(env, "env", buf, len, written, |h| Ok(h.env.spec())) }
}

/// Writes the detail of the last failed `ayo_stateless_` call on this thread
/// into `buf` (empty after one that succeeded); text out-parameter
/// convention as for `ayo_result_message`.
///
/// # Safety
/// `buf` NULL or valid for `len` bytes; `written` valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_last_error(
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    guard(|| {
        need(written, "written")?;
        let detail = LAST_ERROR
            .try_with(|last| last.borrow().clone())
            .unwrap_or_default();
        // SAFETY: the caller's contract.
        unsafe { write_str(&detail, buf, len, written) }
    })
}

/// Writes a new episode of each of the `n` seeds into `states`
/// (`n * AYO_STATE_BYTES` bytes), as the Python batched environment's game
/// seeded by it and reset.
///
/// # Safety
/// `env` a live handle; `seeds` valid for `n` reads and `states` for
/// `n * AYO_STATE_BYTES` writes (either may be NULL when `n` is 0).
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_init(
    env: *const ayo_stateless,
    seeds: *const u64,
    n: usize,
    states: *mut u8,
) -> ayo_result {
    guard_stateless(|| {
        // SAFETY (all three): the caller's contract.
        let e = unsafe { handle(env) }?;
        let seeds = unsafe { slice(seeds, n, "seeds") }?;
        let states = unsafe { out_slice(states, times(n, AYO_STATE_BYTES)?, "states") }?;
        e.init(seeds, states)?;
        Ok(())
    })
}

/// Steps the `n` records of `states` in place with `actions` (0 to 5, the
/// viewer's pits 1 to 6): the agent's move and the random opponent's
/// replies (self-play: one move), the autoreset of an ended episode. Writes
/// each seat's reward (`rewards[2 * i]` South's, `[2 * i + 1]` North's),
/// `terminated` and `truncated` (1 or 0).
///
/// `AYO_RESULT_INVALID_POSITION` for a record that is not a state of the
/// rules; `AYO_RESULT_ACTION_OUT_OF_RANGE` for an action outside 0 to 5;
/// an illegal action refused (`illegal=raise`) gives its reason's code.
/// On failure the records before the failing one have been stepped; the
/// detail names the game.
///
/// # Safety
/// `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads and
/// writes, `actions` for `n` reads, `rewards` for `2 * n` writes,
/// `terminated` and `truncated` for `n` writes.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_step(
    env: *const ayo_stateless,
    states: *mut u8,
    actions: *const i64,
    n: usize,
    rewards: *mut f32,
    terminated: *mut u8,
    truncated: *mut u8,
) -> ayo_result {
    guard_stateless(|| {
        // SAFETY (all): the caller's contract.
        let e = unsafe { handle(env) }?;
        let states = unsafe { bytes_mut(states, times(n, AYO_STATE_BYTES)?, "states") }?;
        let actions = unsafe { slice(actions, n, "actions") }?;
        let out_step = StepOut {
            rewards: unsafe { out_slice(rewards, times(n, 2)?, "rewards") }?,
            terminated: unsafe { out_slice(terminated.cast::<bool>(), n, "terminated") }?,
            truncated: unsafe { out_slice(truncated.cast::<bool>(), n, "truncated") }?,
            next_mask: None,
        };
        e.step_in_place(states, actions, out_step)?;
        Ok(())
    })
}

/// Writes the viewer's legal actions of each record into `mask`
/// (`n * 6`, `mask[6 * i + a]` 1 when action `a` is legal, else 0).
///
/// # Safety
/// `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads,
/// `mask` for `n * 6` writes.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_legal_mask(
    env: *const ayo_stateless,
    states: *const u8,
    n: usize,
    mask: *mut u8,
) -> ayo_result {
    guard_stateless(|| {
        // SAFETY (all): the caller's contract.
        let e = unsafe { handle(env) }?;
        let states = unsafe { slice(states, times(n, AYO_STATE_BYTES)?, "states") }?;
        let mask = unsafe { out_slice(mask.cast::<bool>(), times(n, 6)?, "mask") }?;
        e.legal_mask(states, mask)?;
        Ok(())
    })
}

/// Writes each record's board as the viewer sees it into `obs` (`n * 14`:
/// 12 pits then 2 stores): `absolute` 0, the viewer's row first (the
/// `mover` perspective); otherwise South's row first.
///
/// # Safety
/// `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads,
/// `obs` for `n * 14` writes.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_observe(
    env: *const ayo_stateless,
    states: *const u8,
    n: usize,
    absolute: i32,
    obs: *mut u8,
) -> ayo_result {
    guard_stateless(|| {
        // SAFETY (all): the caller's contract.
        let e = unsafe { handle(env) }?;
        let states = unsafe { slice(states, times(n, AYO_STATE_BYTES)?, "states") }?;
        let obs = unsafe { out_slice(obs, times(n, 14)?, "obs") }?;
        let p = if absolute != 0 {
            Perspective::Absolute
        } else {
            Perspective::Mover
        };
        e.observe(states, p, obs)?;
        Ok(())
    })
}

/// Writes each record's six children (the record after each action, as
/// `ayo_stateless_step`) into `children` (`n * 6 * AYO_STATE_BYTES`) and
/// whether each action is legal into `valid` (`n * 6`, 1 or 0); an illegal action's
/// child is the record itself.
///
/// # Safety
/// `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads,
/// `children` for `n * 6 * AYO_STATE_BYTES` writes, `valid` for `n * 6`.
#[no_mangle]
pub unsafe extern "C" fn ayo_stateless_children(
    env: *const ayo_stateless,
    states: *const u8,
    n: usize,
    children: *mut u8,
    valid: *mut u8,
) -> ayo_result {
    guard_stateless(|| {
        // SAFETY (all): the caller's contract.
        let e = unsafe { handle(env) }?;
        let states = unsafe { slice(states, times(n, AYO_STATE_BYTES)?, "states") }?;
        let kids = times(times(n, 6)?, AYO_STATE_BYTES)?;
        let children = unsafe { out_slice(children, kids, "children") }?;
        let valid = unsafe { out_slice(valid.cast::<bool>(), times(n, 6)?, "valid") }?;
        e.children(states, children, valid)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_record_size_is_the_cores() {
        assert_eq!(super::AYO_STATE_BYTES, ayo_core::episode::STATE_BYTES);
    }
}
