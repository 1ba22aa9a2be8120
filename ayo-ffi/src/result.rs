//! Result codes (stable numbers) and the fields of a record that failed to parse.

/// The result of every fallible call.
///
/// The numbers are stable: a code keeps its number in every later version and
/// a retired code's number is never given to another. They are grouped:
/// 0 success; 1 to 9 misuse of the API; 10 to 19 rules; 20 to 29 positions
/// and records; 30 to 49 moves; 50 to 59 game queries; 100 to 109 the
/// computer-player handle (`ayo_player`); 110 to 119 endgame databases
/// (`ayo_database`); 120 to 129 the guided search (`ayo_search`); 130 to 139 the stateless batch
/// (`ayo_stateless`); 140 to 149 the batched environment (`ayo_vec_env`).
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
    /// An absolute pit outside 0 to 11 (`ayo_game_play_pit`).
    PitOutOfRange = 30,
    /// A pit of the mover outside 1 to 6 (`ayo_game_play`, `ayo_game_trace`,
    /// a move of a game record).
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
    /// The game reached its ply cap (see `ayo_game_set_ply_cap`): moves are
    /// refused, and `ayo_game_outcome` has no outcome to give, since the game
    /// did not end by the rules.
    Truncated = 37,
    /// There is no move to take back.
    NothingToUndo = 38,
    /// The opponent's row holds seeds and this move leaves it empty, which
    /// the feeding rule `no_starving` forbids while another move does not.
    Starves = 39,
    /// The game has not ended, so it has no outcome.
    GameNotOver = 50,
    /// The last failure on this game was not a record error (or there was none).
    NoRecordError = 51,
    /// No playing level has this name (valid: 1 to 8, max and learned; see `ayo_level_name`).
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
    /// Memory ran out for a player's search: its transposition table or its
    /// tree could not be allocated (`ayo_player_last_error` says how many
    /// bytes, and what for). Nothing was searched; the player and the game
    /// are unchanged.
    PlayerOutOfMemory = 106,
    /// These rules cannot be solved by board-only endgame databases: they
    /// have a move limit (e.g. `ayo`, `olopon`), whose values depend on the
    /// no-capture count as well as the board.
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
    /// Memory ran out for a database: a layer, its move graph or its bounds
    /// could not be allocated while building or loading (the rules handle's
    /// `ayo_rules_last_error` says how many bytes, and what for). Nothing was
    /// made; layer files already finished are kept (a later build resumes
    /// from them), none is left half-written.
    DatabaseOutOfMemory = 114,
    /// The game is played by other rules than the databases were built for
    /// (the target does not count); `ayo_database_last_error` names both.
    DatabaseRulesMismatch = 115,
    /// A guided search's option out of range, a batch of no games or too
    /// many, or a network answer of the wrong count or with a bad number
    /// (`ayo_search_last_error` says which). Nothing changed.
    SearchInvalid = 120,
    /// Memory ran out for a guided search's trees (`ayo_search_last_error`
    /// says how many bytes). Nothing was searched.
    SearchOutOfMemory = 121,
    /// A guided search's call out of turn: values told with no leaves
    /// handed out, or results asked for before the search is done.
    SearchNotReady = 122,
    /// These rules end games on a repeated position, which a stateless
    /// record (`ayo_stateless_new`) cannot hold: that rule reads every
    /// position since the last capture.
    StatelessUnsupportedRules = 130,
    /// Memory ran out for a batched environment (`ayo_vec_env_new`:
    /// `ayo_vec_env_last_error` says how many bytes, and what for). Nothing
    /// was made.
    VecEnvOutOfMemory = 140,
}

impl ayo_result {
    /// Every code, for lookups from a C integer.
    pub(crate) const ALL: [ayo_result; 42] = [
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
        ayo_result::Starves,
        ayo_result::GameNotOver,
        ayo_result::NoRecordError,
        ayo_result::UnknownLevel,
        ayo_result::UnknownPlayerKind,
        ayo_result::BadBudget,
        ayo_result::NoAnalysis,
        ayo_result::PlayerBroken,
        ayo_result::NotPerfect,
        ayo_result::PlayerOutOfMemory,
        ayo_result::DatabaseUnsupportedRules,
        ayo_result::DatabaseMissing,
        ayo_result::DatabaseDamaged,
        ayo_result::DatabaseIo,
        ayo_result::DatabaseOutOfMemory,
        ayo_result::DatabaseRulesMismatch,
        ayo_result::SearchInvalid,
        ayo_result::SearchOutOfMemory,
        ayo_result::SearchNotReady,
        ayo_result::StatelessUnsupportedRules,
        ayo_result::VecEnvOutOfMemory,
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
            ayo_result::PitOutOfRange => "absolute pit out of range (absolute pits are 0 to 11)",
            ayo_result::ActionOutOfRange => "pit out of range (the pits of the player to move are 1 to 6)",
            ayo_result::NotMoversPit => "the pit is not in the row of the player to move",
            ayo_result::EmptyPit => "the pit is empty",
            ayo_result::EndlessRelay => "sowing this pit would relay forever",
            ayo_result::DoesNotFeed => "the move does not feed the opponent's empty row",
            ayo_result::Starves => "the move leaves the opponent's row empty while another does not",
            ayo_result::GameOver => "the game is over",
            ayo_result::Truncated => "the game has reached its ply cap",
            ayo_result::NothingToUndo => "there is no move to undo",
            ayo_result::GameNotOver => "the game is not over",
            ayo_result::NoRecordError => "the last failure was not a record error",
            ayo_result::UnknownLevel => "unknown level; valid levels: 1 to 8, max and learned",
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
                "these rules cannot be solved by endgame databases (move limit)"
            }
            ayo_result::DatabaseMissing => "a database layer file is missing",
            ayo_result::DatabaseDamaged => {
                "a database layer file is damaged or does not match (magic, version, rules, size or checksum)"
            }
            ayo_result::DatabaseIo => "a database file or directory could not be read or written",
            ayo_result::DatabaseOutOfMemory => {
                "out of memory while building or loading the endgame databases"
            }
            ayo_result::PlayerOutOfMemory => "out of memory for a player's search tables",
            ayo_result::DatabaseRulesMismatch => {
                "the game's rules are not those of the endgame databases"
            }
            ayo_result::SearchInvalid => {
                "a guided search's option, batch or network answer is out of range"
            }
            ayo_result::SearchOutOfMemory => "out of memory for a guided search's trees",
            ayo_result::SearchNotReady => {
                "the guided search is not ready for this call (no leaves asked, or not done)"
            }
            ayo_result::StatelessUnsupportedRules => {
                "these rules end games on a repeated position, which a stateless record cannot hold"
            }
            ayo_result::VecEnvOutOfMemory => "out of memory for a batched environment",
        }
    }
}

/// The field of a record that failed to parse (see `ayo_game_last_record_error`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_record_field {
    /// A field this version of the header does not name.
    Other = 0,
    /// The rules (preset and overrides).
    Rules = 1,
    /// The board.
    Board = 2,
    /// The stores.
    Stores = 3,
    /// The player to move.
    ToMove = 4,
    /// The no-capture counter.
    NoCapture = 5,
    /// The ply counter.
    Ply = 6,
    /// The ` | ` between a game's start position and its moves.
    Separator = 7,
    /// A move of a game record (not a number 1..=6, or illegal there).
    Move = 8,
    /// The fields parse but do not make a valid position for the rules.
    Position = 9,
    /// Text missing or left over at the end.
    End = 10,
}
