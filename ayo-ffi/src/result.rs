//! Result codes and their messages.

use std::ffi::c_char;

use ayo_core::{IllegalMove, RulesError};
use ayo_solve::DbError;

use crate::util::{guard, write_str, Fail};

/// The result of every fallible call.
///
/// The numbers are stable: a code keeps its number in every later version and
/// a retired code's number is never given to another. They are grouped:
/// 0 success; 1..=9 misuse of the API; 10..=19 rules; 20..=29 positions and
/// records; 30..=49 moves; 50..=59 game queries; 100..=109 the computer-player
/// handle (`ayo_player`); 110..=119 endgame databases (`ayo_database`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ayo_result {
    /// Success.
    Ok = 0,
    /// A pointer argument that must not be NULL was NULL.
    NullArgument = 1,
    /// A string argument was not valid UTF-8.
    InvalidUtf8 = 2,
    /// A caller's buffer or array was too small; the length out-parameter
    /// holds the length needed (for text: bytes including the terminating NUL).
    BufferTooSmall = 3,
    /// The library panicked (a bug in ayo); the handle may not reflect the call.
    Panic = 4,
    /// An integer argument was outside its documented range (a player other
    /// than 0 or 1 in an `ayo_setup`, an unknown result code).
    InvalidArgument = 5,
    /// No rules preset has this name (valid: ayoayo, ayo, olopon, oware).
    UnknownPreset = 10,
    /// No rule parameter has this name (see `ayo_rules_param_name`).
    UnknownParam = 11,
    /// A rule parameter cannot take this value (e.g. `capture` = `sometimes`).
    BadParamValue = 12,
    /// The parameters cannot be played together (e.g. `seeds_per_pit` = 0, or a
    /// target above the seeds in play).
    InvalidRules = 13,
    /// An `ayo_setup` is not a valid position under the rules (seed count,
    /// counters).
    InvalidPosition = 20,
    /// A rules, position or game record could not be parsed, or a move in a
    /// game record is illegal (see `ayo_game_last_record_error`).
    MalformedRecord = 21,
    /// An absolute pit outside 0..=11.
    PitOutOfRange = 30,
    /// A mover-relative pit outside 1..=6.
    ActionOutOfRange = 31,
    /// The absolute pit is in the row of the player not to move.
    NotMoversPit = 32,
    /// The pit holds no seeds.
    EmptyPit = 33,
    /// Sowing this pit would relay forever, so the move is not legal.
    EndlessRelay = 34,
    /// The opponent's row is empty and this move does not feed it.
    DoesNotFeed = 35,
    /// The game has ended.
    GameOver = 36,
    /// The game reached its ply cap (see `ayo_game_set_ply_cap`).
    Truncated = 37,
    /// There is no move to take back.
    NothingToUndo = 38,
    /// The game has not ended, so it has no outcome.
    GameNotOver = 50,
    /// The last failure on this game was not a record error (or there was none).
    NoRecordError = 51,
    /// No playing level has this name (valid: 1 to 8 and max; see `ayo_level_name`).
    UnknownLevel = 100,
    /// The kind of player is not an `ayo_player_kind` value.
    UnknownPlayerKind = 101,
    /// The budget kind is not an `ayo_budget_kind` value, or the amount is out
    /// of its range (see `ayo_player_new_kind`).
    BadBudget = 102,
    /// The player has not analysed a position yet (`ayo_player_last_analysis`).
    NoAnalysis = 103,
    /// The player panicked in an earlier call (`AYO_RESULT_PANIC`) and refuses
    /// to search again; free it and make a new one.
    PlayerBroken = 104,
    /// The player is not a `perfect` player (`ayo_player_last_source` asks
    /// only those).
    NotPerfect = 105,
    /// These rules cannot be solved by endgame databases: they have a move
    /// limit or a repetition rule (e.g. `ayo`, `olopon`, `oware`), whose
    /// values depend on more than the board.
    DatabaseUnsupportedRules = 110,
    /// A database layer file is missing (no layer 0 for these rules in the
    /// directory); see the rules handle's `ayo_rules_last_error` for the file.
    DatabaseMissing = 111,
    /// A database layer file is damaged or does not match: bad magic, format
    /// version, rules, layer, count, length or checksum (the rules handle's
    /// `ayo_rules_last_error` names the file and the problem). Such a file is
    /// never read as wrong values and never overwritten.
    DatabaseDamaged = 112,
    /// A database file or directory could not be read, written or created,
    /// or the build's threads could not be started (see the rules handle's
    /// `ayo_rules_last_error`).
    DatabaseIo = 113,
}

impl ayo_result {
    /// Every code, for lookups from a C integer.
    pub(crate) const ALL: [ayo_result; 33] = [
        ayo_result::Ok,
        ayo_result::NullArgument,
        ayo_result::InvalidUtf8,
        ayo_result::BufferTooSmall,
        ayo_result::Panic,
        ayo_result::InvalidArgument,
        ayo_result::UnknownPreset,
        ayo_result::UnknownParam,
        ayo_result::BadParamValue,
        ayo_result::InvalidRules,
        ayo_result::InvalidPosition,
        ayo_result::MalformedRecord,
        ayo_result::PitOutOfRange,
        ayo_result::ActionOutOfRange,
        ayo_result::NotMoversPit,
        ayo_result::EmptyPit,
        ayo_result::EndlessRelay,
        ayo_result::DoesNotFeed,
        ayo_result::GameOver,
        ayo_result::Truncated,
        ayo_result::NothingToUndo,
        ayo_result::GameNotOver,
        ayo_result::NoRecordError,
        ayo_result::UnknownLevel,
        ayo_result::UnknownPlayerKind,
        ayo_result::BadBudget,
        ayo_result::NoAnalysis,
        ayo_result::PlayerBroken,
        ayo_result::NotPerfect,
        ayo_result::DatabaseUnsupportedRules,
        ayo_result::DatabaseMissing,
        ayo_result::DatabaseDamaged,
        ayo_result::DatabaseIo,
    ];

    /// The code with number `code`, if there is one.
    pub(crate) fn from_code(code: i32) -> Option<ayo_result> {
        ayo_result::ALL.into_iter().find(|r| *r as i32 == code)
    }

    /// A one-line description of the code.
    pub(crate) const fn message(self) -> &'static str {
        match self {
            ayo_result::Ok => "success",
            ayo_result::NullArgument => "a required pointer argument was NULL",
            ayo_result::InvalidUtf8 => "a string argument is not valid UTF-8",
            ayo_result::BufferTooSmall => "the buffer is too small; the needed length was reported",
            ayo_result::Panic => "internal error: the library panicked (please report this bug)",
            ayo_result::InvalidArgument => "an integer argument is out of its documented range",
            ayo_result::UnknownPreset => {
                "unknown rules preset; valid presets: ayoayo, ayo, olopon, oware"
            }
            ayo_result::UnknownParam => "unknown rule parameter",
            ayo_result::BadParamValue => "a rule parameter cannot take this value",
            ayo_result::InvalidRules => "these rule parameters cannot be played together",
            ayo_result::InvalidPosition => "invalid position for these rules",
            ayo_result::MalformedRecord => "malformed record",
            ayo_result::PitOutOfRange => "absolute pit out of range (pits are 0..=11)",
            ayo_result::ActionOutOfRange => "relative pit out of range (pits are 1..=6)",
            ayo_result::NotMoversPit => "the pit is not in the row of the player to move",
            ayo_result::EmptyPit => "the pit is empty",
            ayo_result::EndlessRelay => "sowing this pit would relay forever",
            ayo_result::DoesNotFeed => "the move does not feed the opponent's empty row",
            ayo_result::GameOver => "the game is over",
            ayo_result::Truncated => "the game has reached its ply cap",
            ayo_result::NothingToUndo => "there is no move to undo",
            ayo_result::GameNotOver => "the game is not over",
            ayo_result::NoRecordError => "the last failure was not a record error",
            ayo_result::UnknownLevel => "unknown level; valid levels: 1 to 8 and max",
            ayo_result::UnknownPlayerKind => {
                "unknown kind of player; valid kinds: random, greedy, alphabeta, mcts"
            }
            ayo_result::BadBudget => "invalid budget kind or amount",
            ayo_result::NoAnalysis => "the player has not analysed a position yet",
            ayo_result::PlayerBroken => {
                "the player panicked in an earlier call and cannot be used again"
            }
            ayo_result::NotPerfect => "the player is not a perfect player",
            ayo_result::DatabaseUnsupportedRules => {
                "these rules cannot be solved by endgame databases (move limit or repetition rule)"
            }
            ayo_result::DatabaseMissing => "a database layer file is missing",
            ayo_result::DatabaseDamaged => {
                "a database layer file is damaged or does not match (magic, version, rules, size or checksum)"
            }
            ayo_result::DatabaseIo => "a database file or directory could not be read or written",
        }
    }
}

impl From<IllegalMove> for Fail {
    fn from(e: IllegalMove) -> Fail {
        let code = match e {
            IllegalMove::PitOutOfRange { .. } => ayo_result::PitOutOfRange,
            IllegalMove::ActionOutOfRange { .. } => ayo_result::ActionOutOfRange,
            IllegalMove::NotMoversPit { .. } => ayo_result::NotMoversPit,
            IllegalMove::EmptyPit { .. } => ayo_result::EmptyPit,
            IllegalMove::EndlessRelay { .. } => ayo_result::EndlessRelay,
            IllegalMove::DoesNotFeed { .. } => ayo_result::DoesNotFeed,
            IllegalMove::GameOver => ayo_result::GameOver,
            IllegalMove::Truncated => ayo_result::Truncated,
        };
        Fail::new(code, e.to_string())
    }
}

impl From<RulesError> for Fail {
    fn from(e: RulesError) -> Fail {
        let code = match e {
            RulesError::Invalid { .. } => ayo_result::InvalidRules,
            RulesError::UnknownPreset { .. } => ayo_result::UnknownPreset,
            RulesError::UnknownParam { .. } => ayo_result::UnknownParam,
            RulesError::BadValue { .. } => ayo_result::BadParamValue,
        };
        Fail::new(code, e.to_string())
    }
}

impl From<DbError> for Fail {
    fn from(e: DbError) -> Fail {
        let code = match e {
            DbError::UnsupportedRules { .. } => ayo_result::DatabaseUnsupportedRules,
            DbError::Missing { .. } => ayo_result::DatabaseMissing,
            DbError::BadMagic { .. }
            | DbError::Version { .. }
            | DbError::RulesMismatch { .. }
            | DbError::LayerMismatch { .. }
            | DbError::CountMismatch { .. }
            | DbError::Length { .. }
            | DbError::TruncatedHeader { .. }
            | DbError::HeaderChecksum { .. }
            | DbError::DataChecksum { .. } => ayo_result::DatabaseDamaged,
            DbError::Io { .. } => ayo_result::DatabaseIo,
            DbError::LayerTooLarge { .. } => ayo_result::InvalidArgument,
        };
        Fail::new(code, e.to_string())
    }
}

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
        },
    };
    name.as_ptr()
}
