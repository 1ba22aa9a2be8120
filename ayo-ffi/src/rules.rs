//! The rules handle.

use std::ffi::{c_char, CString};
use std::sync::OnceLock;

use ayo_core::{record, Preset, Rules, PARAM_NAMES};

use crate::errors::c_words;
use crate::result::ayo_result;
use crate::util::{
    free_box, guard, guard_mut, in_str, need, out, text_query, Fail, HasLastError, LastError,
};

/// A validated rule set (opaque).
///
/// Made by `ayo_rules_new_preset`, `ayo_rules_clone` or `ayo_game_rules`;
/// owned by the caller, who releases it with `ayo_rules_free` exactly once.
/// A rules handle is never borrowed by a game: `ayo_game_new` copies the rules,
/// so a rules handle and the games made from it may be freed in any order.
/// The handle also keeps the detail of its last failed call
/// (`ayo_rules_last_error`).
pub struct ayo_rules {
    pub(crate) rules: Rules,
    last_error: LastError,
}

impl HasLastError for ayo_rules {
    fn last_error_mut(&mut self) -> &mut LastError {
        &mut self.last_error
    }
}

impl ayo_rules {
    pub(crate) fn boxed(rules: Rules) -> *mut ayo_rules {
        Box::into_raw(Box::new(ayo_rules {
            rules,
            last_error: LastError::default(),
        }))
    }
}

/// The number of rule parameters (see `ayo_rules_param_name`).
pub const AYO_PARAM_COUNT: usize = 13;
/// The number of named presets (see `ayo_preset_name`).
pub const AYO_PRESET_COUNT: usize = 4;

/// Makes the rules of a named preset: `"ayoayo"`, `"ayo"`, `"olopon"` or
/// `"oware"` (docs/rules.md, "Presets").
///
/// Returns `AYO_RESULT_UNKNOWN_PRESET` for any other name. On success `*out`
/// is a new handle that the caller owns and must release with `ayo_rules_free`.
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated string; `out` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_new_preset(
    name: *const c_char,
    out_rules: *mut *mut ayo_rules,
) -> ayo_result {
    guard(|| {
        need(out_rules, "out_rules")?;
        // SAFETY: the caller's contract.
        let name = unsafe { in_str(name, "name") }?;
        let rules = Rules::preset(name)?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_rules, ayo_rules::boxed(rules)) };
        Ok(())
    })
}

/// Makes a copy of `rules` (without its last-error detail). On success
/// `*out_rules` is a new handle owned by the caller (free it with
/// `ayo_rules_free`).
///
/// Thread safety: reads `rules`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `rules` must be NULL or a live handle; `out_rules` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_clone(
    rules: *const ayo_rules,
    out_rules: *mut *mut ayo_rules,
) -> ayo_result {
    guard(|| {
        // SAFETY: the caller's contract.
        let r = unsafe { rules.as_ref() }.ok_or_else(|| Fail::null("rules"))?;
        need(out_rules, "out_rules")?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_rules, ayo_rules::boxed(r.rules)) };
        Ok(())
    })
}

/// Releases a rules handle. `ayo_rules_free(NULL)` does nothing. Games made
/// from these rules are not affected (they hold their own copy).
///
/// Thread safety: needs `rules` exclusively; no other call may use it during
/// or after this one.
///
/// # Safety
/// `rules` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_free(rules: *mut ayo_rules) {
    // SAFETY: the caller's contract.
    unsafe { free_box(rules) }
}

/// Sets one rule parameter from its text form, e.g. `("capture", "two_three")`,
/// `("target", "none")`, `("seeds_per_pit", "5")`, `("relay", "false")`.
///
/// The whole rule set is checked after the change: `AYO_RESULT_UNKNOWN_PARAM`
/// for an unknown key, `AYO_RESULT_BAD_PARAM_VALUE` for a value the key cannot
/// take, `AYO_RESULT_INVALID_RULES` when the new combination cannot be played
/// (then change the parameters in another order, or use
/// `ayo_rules_load_text` to set several at once). On failure the rules are
/// unchanged and `ayo_rules_last_error` says why.
///
/// Thread safety: needs `rules` exclusively.
///
/// # Safety
/// `rules` must be NULL or a live handle; `key` and `value` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_set(
    rules: *mut ayo_rules,
    key: *const c_char,
    value: *const c_char,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(rules, |r| {
            let key = in_str(key, "key")?;
            let value = in_str(value, "value")?;
            let mut params = r.rules.params();
            params.set(key, value)?;
            r.rules = Rules::new(params)?;
            Ok(())
        })
    }
}

/// Writes the text form of parameter `key` (as accepted by `ayo_rules_set`)
/// into `buf`; see `ayo_result_message` for the text out-parameter convention.
/// `AYO_RESULT_UNKNOWN_PARAM` for an unknown key.
///
/// Thread safety: reads `rules`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `rules` NULL or live; `key` NULL or NUL-terminated; `buf` NULL or valid for
/// `len` bytes; `written` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_get(
    rules: *const ayo_rules,
    key: *const c_char,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(rules, "rules", buf, len, written, |r| {
            let key = in_str(key, "key")?;
            r.rules.params().get(key).ok_or_else(|| {
                Fail::new(
                    ayo_result::UnknownParam,
                    format!("unknown rule parameter `{key}`"),
                )
            })
        })
    }
}

/// Replaces the rules with those of a rules record: a preset name with
/// optional overrides, e.g. `"ayoayo"` or
/// `"ayoayo[capture=two_three,target=none]"` (see `docs/notation.md`). All
/// overrides are applied before the combination is checked.
///
/// Returns `AYO_RESULT_MALFORMED_RECORD` when the text does not parse or the
/// rules cannot be played; the rules are then unchanged and
/// `ayo_rules_last_error` says why.
///
/// Thread safety: needs `rules` exclusively.
///
/// # Safety
/// `rules` NULL or live; `text` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_load_text(
    rules: *mut ayo_rules,
    text: *const c_char,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(rules, |r| {
            let text = in_str(text, "text")?;
            r.rules = record::parse_rules(text)
                .map_err(|e| Fail::new(ayo_result::MalformedRecord, c_words(e)))?;
            Ok(())
        })
    }
}

/// Writes the rules record of `rules` (a preset name with the fewest
/// overrides, e.g. `"oware[target=none]"`) into `buf`; see
/// `ayo_result_message` for the text out-parameter convention.
///
/// Thread safety: reads `rules`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `rules` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
/// or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_text(
    rules: *const ayo_rules,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(rules, "rules", buf, len, written, |r| {
            Ok(record::rules_to_text(&r.rules))
        })
    }
}

/// Writes the detail of the last failure of a call that takes a non-const
/// `ayo_rules *` into `buf`; the empty string when the last such call
/// succeeded. Calls on a const handle do not touch it. See
/// `ayo_result_message` for the text out-parameter convention.
///
/// Thread safety: reads `rules`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `rules` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
/// or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_rules_last_error(
    rules: *const ayo_rules,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(rules, "rules", buf, len, written, |r| {
            Ok(r.last_error.message.clone())
        })
    }
}

/// Entry `index` of a static list of names, made once as C strings; NULL
/// when `index` is out of range.
fn static_name(
    cell: &'static OnceLock<Vec<CString>>,
    names: impl Iterator<Item = &'static str> + std::panic::UnwindSafe,
    index: usize,
) -> *const c_char {
    std::panic::catch_unwind(|| {
        let list = cell.get_or_init(|| {
            names
                .map(|n| CString::new(n).expect("names have no NUL"))
                .collect()
        });
        list.get(index).map_or(std::ptr::null(), |n| n.as_ptr())
    })
    .unwrap_or(std::ptr::null())
}

/// The name of rule parameter `index` (0..`AYO_PARAM_COUNT`), in the order of
/// records (`"relay"`, `"capture"`, ..., `"first_player"`), or NULL when
/// `index` is out of range.
///
/// Ownership: the string is static; do not free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn ayo_rules_param_name(index: usize) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    static_name(&NAMES, PARAM_NAMES.into_iter(), index)
}

/// The name of preset `index` (0..`AYO_PRESET_COUNT`): `"ayoayo"`, `"ayo"`,
/// `"olopon"`, `"oware"`; NULL when `index` is out of range.
///
/// Ownership: the string is static; do not free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn ayo_preset_name(index: usize) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    static_name(&NAMES, Preset::ALL.into_iter().map(Preset::name), index)
}
