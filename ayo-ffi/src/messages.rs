//! The messages and names of result codes, for C callers.

use std::ffi::c_char;

use crate::result::ayo_result;
use crate::util::{guard, write_str, Fail};

/// Writes a one-line English description of result `code` into `buf`.
///
/// `code` is an `int32_t` rather than an `ayo_result` so that any integer can
/// be passed safely; an unknown code writes nothing and returns
/// `AYO_RESULT_INVALID_ARGUMENT`.
///
/// Text out-parameters, here and everywhere: `buf` receives the text and a
/// terminating NUL; `len` is the capacity of `buf` in bytes. On success
/// `*written` is the text's length without the NUL. When `len` is too small
/// nothing is written to `buf`, `*written` is the size needed (with the NUL)
/// and the result is `AYO_RESULT_BUFFER_TOO_SMALL`; `buf` may be NULL when
/// `len` is 0, to ask for the size.
///
/// Ownership: `buf` and `written` are the caller's; nothing is kept.
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `written` must be NULL
/// or point to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn ayo_result_message(
    code: i32,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    guard(|| {
        if written.is_null() {
            return Err(Fail::null("written"));
        }
        let r = ayo_result::from_code(code)
            .ok_or_else(|| Fail::new(ayo_result::InvalidArgument, "unknown result code"))?;
        // SAFETY: the caller's contract for buf/len/written.
        unsafe { write_str(r.message(), buf, len, written) }
    })
}

/// The name of result `code` as it appears in this header (e.g.
/// `"AYO_RESULT_EMPTY_PIT"`), or NULL for an unknown code.
///
/// Ownership: the string is static; do not free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn ayo_result_name(code: i32) -> *const c_char {
    let name: &'static std::ffi::CStr = match ayo_result::from_code(code) {
        None => return std::ptr::null(),
        Some(r) => match r {
            ayo_result::Ok => c"AYO_RESULT_OK",
            ayo_result::NullArgument => c"AYO_RESULT_NULL_ARGUMENT",
            ayo_result::InvalidUtf8 => c"AYO_RESULT_INVALID_UTF8",
            ayo_result::BufferTooSmall => c"AYO_RESULT_BUFFER_TOO_SMALL",
            ayo_result::Panic => c"AYO_RESULT_PANIC",
            ayo_result::InvalidArgument => c"AYO_RESULT_INVALID_ARGUMENT",
            ayo_result::UnknownPreset => c"AYO_RESULT_UNKNOWN_PRESET",
            ayo_result::UnknownParam => c"AYO_RESULT_UNKNOWN_PARAM",
            ayo_result::BadParamValue => c"AYO_RESULT_BAD_PARAM_VALUE",
            ayo_result::InvalidRules => c"AYO_RESULT_INVALID_RULES",
            ayo_result::InvalidPosition => c"AYO_RESULT_INVALID_POSITION",
            ayo_result::MalformedRecord => c"AYO_RESULT_MALFORMED_RECORD",
            ayo_result::PitOutOfRange => c"AYO_RESULT_PIT_OUT_OF_RANGE",
            ayo_result::ActionOutOfRange => c"AYO_RESULT_ACTION_OUT_OF_RANGE",
            ayo_result::NotMoversPit => c"AYO_RESULT_NOT_MOVERS_PIT",
            ayo_result::EmptyPit => c"AYO_RESULT_EMPTY_PIT",
            ayo_result::EndlessRelay => c"AYO_RESULT_ENDLESS_RELAY",
            ayo_result::DoesNotFeed => c"AYO_RESULT_DOES_NOT_FEED",
            ayo_result::Starves => c"AYO_RESULT_STARVES",
            ayo_result::GameOver => c"AYO_RESULT_GAME_OVER",
            ayo_result::Truncated => c"AYO_RESULT_TRUNCATED",
            ayo_result::NothingToUndo => c"AYO_RESULT_NOTHING_TO_UNDO",
            ayo_result::GameNotOver => c"AYO_RESULT_GAME_NOT_OVER",
            ayo_result::NoRecordError => c"AYO_RESULT_NO_RECORD_ERROR",
            ayo_result::UnknownLevel => c"AYO_RESULT_UNKNOWN_LEVEL",
            ayo_result::UnknownPlayerKind => c"AYO_RESULT_UNKNOWN_PLAYER_KIND",
            ayo_result::BadBudget => c"AYO_RESULT_BAD_BUDGET",
            ayo_result::NoAnalysis => c"AYO_RESULT_NO_ANALYSIS",
            ayo_result::PlayerBroken => c"AYO_RESULT_PLAYER_BROKEN",
            ayo_result::NotPerfect => c"AYO_RESULT_NOT_PERFECT",
            ayo_result::DatabaseUnsupportedRules => c"AYO_RESULT_DATABASE_UNSUPPORTED_RULES",
            ayo_result::DatabaseMissing => c"AYO_RESULT_DATABASE_MISSING",
            ayo_result::DatabaseDamaged => c"AYO_RESULT_DATABASE_DAMAGED",
            ayo_result::DatabaseIo => c"AYO_RESULT_DATABASE_IO",
            ayo_result::DatabaseOutOfMemory => c"AYO_RESULT_DATABASE_OUT_OF_MEMORY",
            ayo_result::PlayerOutOfMemory => c"AYO_RESULT_PLAYER_OUT_OF_MEMORY",
            ayo_result::DatabaseRulesMismatch => c"AYO_RESULT_DATABASE_RULES_MISMATCH",
            ayo_result::SearchInvalid => c"AYO_RESULT_SEARCH_INVALID",
            ayo_result::SearchOutOfMemory => c"AYO_RESULT_SEARCH_OUT_OF_MEMORY",
            ayo_result::SearchNotReady => c"AYO_RESULT_SEARCH_NOT_READY",
            ayo_result::StatelessUnsupportedRules => c"AYO_RESULT_STATELESS_UNSUPPORTED_RULES",
            ayo_result::VecEnvOutOfMemory => c"AYO_RESULT_VEC_ENV_OUT_OF_MEMORY",
        },
    };
    name.as_ptr()
}
