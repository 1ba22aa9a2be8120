/*
 * ayo.h: the C API of the ayo rules engine (libayo.so / libayo.a).
 *
 * This file is generated — do not edit. It is made by cbindgen 0.29.4 from
 * ayo-ffi/src with ayo-ffi/cbindgen.toml; change the Rust doc comments and
 * regenerate (ci/c.sh fails when this file differs from the generated one):
 *   cbindgen --config ayo-ffi/cbindgen.toml --crate ayo-ffi --output include/ayo.h
 *
 * Conventions (docs/c-api.md has the full guide):
 *
 * Handles. ayo_rules, ayo_game, ayo_player (a computer player) and
 * ayo_database (endgame databases) are opaque. Every handle that a function
 * gives out (ayo_rules_new_preset, ayo_rules_clone, ayo_game_new,
 * ayo_game_clone, ayo_game_rules, ayo_player_new_level, ayo_player_new_kind,
 * ayo_player_new_perfect, ayo_database_open, ayo_database_build) is a new one
 * owned by the caller, released with its _free function exactly once;
 * _free(NULL) does nothing. No handle is ever borrowed from another: a game
 * copies its rules, so rules and games may be freed in any order, and using a
 * rules handle after freeing a game made from it (or a game after freeing its
 * rules) is always fine; a player reads the game passed to each call during
 * that call only, and a perfect player shares its databases, so the database
 * handle may be freed before it.
 *
 * Pointers passed in. Strings are NUL-terminated UTF-8, read during the call
 * only. Caller buffers and arrays are written during the call only; the
 * library keeps no pointer to anything of the caller's. Static strings
 * returned by ayo_version, ayo_result_name, ayo_rules_param_name,
 * ayo_preset_name and ayo_level_name live as long as the program and are
 * never freed.
 *
 * Results. Every fallible function returns an ayo_result; AYO_RESULT_OK is 0
 * and the other numbers never change meaning. A NULL where a pointer is
 * required gives AYO_RESULT_NULL_ARGUMENT. Out-parameters are written only on
 * AYO_RESULT_OK, except that AYO_RESULT_BUFFER_TOO_SMALL writes the length
 * needed to the length out-parameter. A failed call on a non-const handle
 * leaves it unchanged (except a player whose analysis did not fit the
 * caller's array: see ayo_player_analyze) and keeps a detailed message on it
 * (ayo_rules_last_error, ayo_game_last_error, ayo_game_last_record_error,
 * ayo_player_last_error); the database calls, which take const handles, keep
 * theirs for the calling thread (ayo_database_last_error). Messages number
 * pits as the call did: the mover's pits 1 to 6, or absolute pits 0 to 11 for
 * ayo_game_play_pit. A panic inside the library is caught and returned as
 * AYO_RESULT_PANIC.
 *
 * Threads. Distinct handles may be used from different threads at once.
 * Functions taking a const handle only read it and may run concurrently on the
 * same handle; functions taking a non-const handle need it exclusively. Each
 * function states this again. So a player is used by one thread at a time
 * (choose and analyze change its search state), distinct players may search
 * in parallel, even on the same game, which they only read.
 */


#ifndef AYO_H
#define AYO_H



#include <stddef.h>
#include <stdint.h>

/** Turns a macro's value into a string literal (used by AYO_VERSION_STRING). */
#define AYO_STRINGIFY_(x) #x
/** Turns a macro's value into a string literal (used by AYO_VERSION_STRING). */
#define AYO_STRINGIFY(x) AYO_STRINGIFY_(x)
/**
 * The version of this header as "major.minor.patch", from the numeric macros
 * below; compare it with ayo_version(), the version of the linked library.
 */
#define AYO_VERSION_STRING \
  AYO_STRINGIFY(AYO_VERSION_MAJOR) "." AYO_STRINGIFY(AYO_VERSION_MINOR) "." AYO_STRINGIFY(AYO_VERSION_PATCH)


/**
 * Major version of the library this header was generated for (from `Cargo.toml`).
 */
#define AYO_VERSION_MAJOR 0

/**
 * Minor version of the library this header was generated for (from `Cargo.toml`).
 */
#define AYO_VERSION_MINOR 1

/**
 * Patch version of the library this header was generated for (from `Cargo.toml`).
 */
#define AYO_VERSION_PATCH 0

/**
 * The version as one number, `major * 10000 + minor * 100 + patch`, for `#if` tests.
 */
#define AYO_VERSION_NUMBER (((AYO_VERSION_MAJOR * 10000) + (AYO_VERSION_MINOR * 100)) + AYO_VERSION_PATCH)

/**
 * The most legal moves a position can have (one per pit of the mover's row).
 */
#define AYO_MAX_LEGAL_MOVES 6

/**
 * Pits on the board; `ayo_setup.board` has this many entries.
 */
#define AYO_PITS 12

/**
 * The largest `max_seeds` of the counted databases (every seed of the start).
 */
#define AYO_MAX_COUNTED_SEEDS 48

/**
 * The largest `max_seeds` of `ayo_database_build` (the file format's limit;
 * in practice the time and memory a layer takes set a lower one: layer 24
 * alone holds 417,225,900 boards).
 */
#define AYO_MAX_DATABASE_SEEDS 40

/**
 * The most threads `ayo_database_build` and `ayo_database_verify` accept
 * (0 means one per core), as in Rust (`ayo_core::threads::MAX_THREADS`) and
 * Python.
 */
#define AYO_MAX_THREADS 1024

/**
 * The number of playing levels (`"1"`..`"8"` and `"max"`; see `ayo_level_name`).
 */
#define AYO_LEVEL_COUNT 9

/**
 * Hundredths of a seed in one seed: `ayo_value.centiseeds` is in these units.
 */
#define AYO_VALUE_SEED 100

/**
 * The offset of a proven win in `ayo_value.centiseeds` (a proven loss is
 * below `-AYO_VALUE_WIN`), so that any win ranks above any heuristic score.
 */
#define AYO_VALUE_WIN 1000000

/**
 * The longest time budget, in milliseconds (one day).
 */
#define AYO_MAX_BUDGET_MS 86400000

/**
 * The largest node budget (a billion positions, simulations or expanded
 * boards).
 */
#define AYO_MAX_BUDGET_NODES 1000000000

/**
 * The number of rule parameters (see `ayo_rules_param_name`).
 */
#define AYO_PARAM_COUNT 13

/**
 * The number of named presets (see `ayo_preset_name`).
 */
#define AYO_PRESET_COUNT 4

/**
 * Features of one leaf's observation: the player to move's six pits (in
 * sowing order), the opponent's six, their store, the opponent's store.
 */
#define AYO_SEARCH_OBS 14

/**
 * Logits (and mask flags) a leaf: one an action, the mover's pits 1..=6.
 */
#define AYO_SEARCH_ACTIONS 6

/**
 * `ayo_search_options.method`: AlphaZero's PUCT, Dirichlet noise at the
 * root, a temperature.
 */
#define AYO_SEARCH_METHOD_PUCT 0

/**
 * `ayo_search_options.method`: Gumbel root selection with sequential
 * halving (mctx's `gumbel_muzero_policy`).
 */
#define AYO_SEARCH_METHOD_GUMBEL 1

/**
 * `ayo_search_options.values`: a game end is worth 1 (a win), 0 (a draw)
 * or -1 (a loss) for the player to move.
 */
#define AYO_SEARCH_VALUES_OUTCOME 0

/**
 * `ayo_search_options.values`: a game end is worth the final seed
 * difference over the seeds of the game, for the player to move.
 */
#define AYO_SEARCH_VALUES_SEED_DIFFERENCE 1

/**
 * Bytes of one stateless record (`ayo_core::episode::STATE_BYTES`; a test
 * checks they agree).
 */
#define AYO_STATE_BYTES 96

/**
 * The result of every fallible call.
 *
 * The numbers are stable: a code keeps its number in every later version and
 * a retired code's number is never given to another. They are grouped:
 * 0 success; 1 to 9 misuse of the API; 10 to 19 rules; 20 to 29 positions
 * and records; 30 to 49 moves; 50 to 59 game queries; 100 to 109 the
 * computer-player handle (`ayo_player`); 110 to 119 endgame databases
 * (`ayo_database`); 120 to 129 the guided search (`ayo_search`); 130 to 139 the stateless batch
 * (`ayo_stateless`); 140 to 149 the batched environment (`ayo_vec_env`).
 */
typedef enum ayo_result {
  /**
   * Success.
   */
  AYO_RESULT_OK = 0,
  /**
   * A pointer argument that must not be NULL was NULL.
   */
  AYO_RESULT_NULL_ARGUMENT = 1,
  /**
   * A string argument was not valid UTF-8.
   */
  AYO_RESULT_INVALID_UTF8 = 2,
  /**
   * A caller's buffer or array was too small; the length out-parameter
   * holds the length needed (for text: bytes including the terminating NUL).
   */
  AYO_RESULT_BUFFER_TOO_SMALL = 3,
  /**
   * The library panicked (a bug in ayo); the handle may not reflect the call.
   */
  AYO_RESULT_PANIC = 4,
  /**
   * An integer argument was outside its documented range (a player other
   * than 0 or 1 in an `ayo_setup`, an unknown result code).
   */
  AYO_RESULT_INVALID_ARGUMENT = 5,
  /**
   * No rules preset has this name (valid: ayoayo, ayo, olopon, oware).
   */
  AYO_RESULT_UNKNOWN_PRESET = 10,
  /**
   * No rule parameter has this name (see `ayo_rules_param_name`).
   */
  AYO_RESULT_UNKNOWN_PARAM = 11,
  /**
   * A rule parameter cannot take this value (e.g. `capture` = `sometimes`).
   */
  AYO_RESULT_BAD_PARAM_VALUE = 12,
  /**
   * The parameters cannot be played together (e.g. `seeds_per_pit` = 0, or a
   * target above the seeds in play).
   */
  AYO_RESULT_INVALID_RULES = 13,
  /**
   * An `ayo_setup` is not a valid position under the rules (seed count,
   * counters).
   */
  AYO_RESULT_INVALID_POSITION = 20,
  /**
   * A rules, position or game record could not be parsed, or a move in a
   * game record is illegal (see `ayo_game_last_record_error`).
   */
  AYO_RESULT_MALFORMED_RECORD = 21,
  /**
   * An absolute pit outside 0 to 11 (`ayo_game_play_pit`).
   */
  AYO_RESULT_PIT_OUT_OF_RANGE = 30,
  /**
   * A pit of the mover outside 1 to 6 (`ayo_game_play`, `ayo_game_trace`,
   * a move of a game record).
   */
  AYO_RESULT_ACTION_OUT_OF_RANGE = 31,
  /**
   * The absolute pit is in the row of the player not to move.
   */
  AYO_RESULT_NOT_MOVERS_PIT = 32,
  /**
   * The pit holds no seeds.
   */
  AYO_RESULT_EMPTY_PIT = 33,
  /**
   * Sowing this pit would relay forever, so the move is not legal.
   */
  AYO_RESULT_ENDLESS_RELAY = 34,
  /**
   * The opponent's row is empty and this move does not feed it.
   */
  AYO_RESULT_DOES_NOT_FEED = 35,
  /**
   * The game has ended.
   */
  AYO_RESULT_GAME_OVER = 36,
  /**
   * The game reached its ply cap (see `ayo_game_set_ply_cap`): moves are
   * refused, and `ayo_game_outcome` has no outcome to give, since the game
   * did not end by the rules.
   */
  AYO_RESULT_TRUNCATED = 37,
  /**
   * There is no move to take back.
   */
  AYO_RESULT_NOTHING_TO_UNDO = 38,
  /**
   * The opponent's row holds seeds and this move leaves it empty, which
   * the feeding rule `no_starving` forbids while another move does not.
   */
  AYO_RESULT_STARVES = 39,
  /**
   * The game has not ended, so it has no outcome.
   */
  AYO_RESULT_GAME_NOT_OVER = 50,
  /**
   * The last failure on this game was not a record error (or there was none).
   */
  AYO_RESULT_NO_RECORD_ERROR = 51,
  /**
   * No playing level has this name (valid: 1 to 8, max and learned; see `ayo_level_name`).
   */
  AYO_RESULT_UNKNOWN_LEVEL = 100,
  /**
   * The kind of player is not an `ayo_player_kind` value.
   */
  AYO_RESULT_UNKNOWN_PLAYER_KIND = 101,
  /**
   * The budget kind is not an `ayo_budget_kind` value, or the amount is out
   * of its range (see `ayo_player_new_kind`).
   */
  AYO_RESULT_BAD_BUDGET = 102,
  /**
   * The player has not analysed a position yet (`ayo_player_last_analysis`).
   */
  AYO_RESULT_NO_ANALYSIS = 103,
  /**
   * The player panicked in an earlier call (`AYO_RESULT_PANIC`) and refuses
   * to search again; free it and make a new one.
   */
  AYO_RESULT_PLAYER_BROKEN = 104,
  /**
   * The player is not a `perfect` player (`ayo_player_last_source` asks
   * only those).
   */
  AYO_RESULT_NOT_PERFECT = 105,
  /**
   * Memory ran out for a player's search: its transposition table or its
   * tree could not be allocated (`ayo_player_last_error` says how many
   * bytes, and what for). Nothing was searched; the player and the game
   * are unchanged.
   */
  AYO_RESULT_PLAYER_OUT_OF_MEMORY = 106,
  /**
   * These rules cannot be solved by board-only endgame databases: they
   * have a move limit (e.g. `ayo`, `olopon`), whose values depend on the
   * no-capture count as well as the board.
   */
  AYO_RESULT_DATABASE_UNSUPPORTED_RULES = 110,
  /**
   * A database layer file is missing (no layer 0 for these rules in the
   * directory); see the rules handle's `ayo_rules_last_error` for the file.
   */
  AYO_RESULT_DATABASE_MISSING = 111,
  /**
   * A database layer file is damaged or does not match: bad magic, format
   * version, rules, layer, count, length or checksum (the rules handle's
   * `ayo_rules_last_error` names the file and the problem). Such a file is
   * never read as wrong values and never overwritten.
   */
  AYO_RESULT_DATABASE_DAMAGED = 112,
  /**
   * A database file or directory could not be read, written or created,
   * or the build's threads could not be started (see the rules handle's
   * `ayo_rules_last_error`).
   */
  AYO_RESULT_DATABASE_IO = 113,
  /**
   * Memory ran out for a database: a layer, its move graph or its bounds
   * could not be allocated while building or loading (the rules handle's
   * `ayo_rules_last_error` says how many bytes, and what for). Nothing was
   * made; layer files already finished are kept (a later build resumes
   * from them), none is left half-written.
   */
  AYO_RESULT_DATABASE_OUT_OF_MEMORY = 114,
  /**
   * The game is played by other rules than the databases were built for
   * (the target does not count); `ayo_database_last_error` names both.
   */
  AYO_RESULT_DATABASE_RULES_MISMATCH = 115,
  /**
   * A guided search's option out of range, a batch of no games or too
   * many, or a network answer of the wrong count or with a bad number
   * (`ayo_search_last_error` says which). Nothing changed.
   */
  AYO_RESULT_SEARCH_INVALID = 120,
  /**
   * Memory ran out for a guided search's trees (`ayo_search_last_error`
   * says how many bytes). Nothing was searched.
   */
  AYO_RESULT_SEARCH_OUT_OF_MEMORY = 121,
  /**
   * A guided search's call out of turn: values told with no leaves
   * handed out, or results asked for before the search is done.
   */
  AYO_RESULT_SEARCH_NOT_READY = 122,
  /**
   * These rules end games on a repeated position, which a stateless
   * record (`ayo_stateless_new`) cannot hold: that rule reads every
   * position since the last capture.
   */
  AYO_RESULT_STATELESS_UNSUPPORTED_RULES = 130,
  /**
   * Memory ran out for a batched environment (`ayo_vec_env_new`:
   * `ayo_vec_env_last_error` says how many bytes, and what for). Nothing
   * was made.
   */
  AYO_RESULT_VEC_ENV_OUT_OF_MEMORY = 140,
} ayo_result;

/**
 * Where a `perfect` player's last answer came from (`ayo_player_last_source`).
 */
typedef enum ayo_perfect_source {
  /**
   * Nothing asked yet, or the game was over.
   */
  AYO_PERFECT_SOURCE_NONE = 0,
  /**
   * Every move's exact value was read from the databases.
   */
  AYO_PERFECT_SOURCE_DATABASE = 1,
  /**
   * Exact values found by searching above the databases (within the budget).
   */
  AYO_PERFECT_SOURCE_SEARCH = 2,
  /**
   * The rules are not the databases' (e.g. `oware`), or the search ran out
   * of budget: the move came from level `max` (from alpha-beta with the
   * same wall time under a time budget), and the values are heuristic.
   */
  AYO_PERFECT_SOURCE_FALLBACK = 3,
} ayo_perfect_source;

/**
 * A side of the board (a seat): who moves, who receives seeds, who won.
 *
 * (Named `ayo_side` so that `ayo_player` can name the computer-player
 * handle; the numbers are those of the 0.1 header's seat enum.)
 */
typedef enum ayo_side {
  /**
   * Player 0: owns pits 0..=5 and moves first in every preset.
   */
  AYO_SIDE_SOUTH = 0,
  /**
   * Player 1: owns pits 6..=11.
   */
  AYO_SIDE_NORTH = 1,
} ayo_side;

/**
 * Where a game stands.
 */
typedef enum ayo_status {
  /**
   * The player to move has legal moves.
   */
  AYO_STATUS_ONGOING = 0,
  /**
   * The game has ended by the rules (see `ayo_game_outcome`).
   */
  AYO_STATUS_ENDED = 1,
  /**
   * The caller's ply cap was reached before a real end.
   */
  AYO_STATUS_TRUNCATED = 2,
} ayo_status;

/**
 * Who won a finished game.
 */
typedef enum ayo_winner {
  /**
   * South has more seeds.
   */
  AYO_WINNER_SOUTH = 0,
  /**
   * North has more seeds.
   */
  AYO_WINNER_NORTH = 1,
  /**
   * Equal scores.
   */
  AYO_WINNER_DRAW = 2,
} ayo_winner;

/**
 * Why a game ended (docs/rules.md, "End of the game").
 */
typedef enum ayo_end_reason {
  /**
   * A store reached the rules' target.
   */
  AYO_END_REASON_TARGET = 0,
  /**
   * The move limit passed with nothing captured.
   */
  AYO_END_REASON_MOVE_LIMIT = 1,
  /**
   * A position repeated since the last capture.
   */
  AYO_END_REASON_REPETITION = 2,
  /**
   * The player to move had no legal move.
   */
  AYO_END_REASON_NO_LEGAL_MOVE = 3,
} ayo_end_reason;

/**
 * The kind of one step of a sowing trace.
 */
typedef enum ayo_event_kind {
  /**
   * The mover lifts `seeds` seeds from `pit` to start the move.
   */
  AYO_EVENT_KIND_LIFT = 0,
  /**
   * The last seed fell into an occupied `pit`: its `seeds` seeds (with the
   * one just dropped) are lifted and sowing goes on.
   */
  AYO_EVENT_KIND_RELAY = 1,
  /**
   * One seed is dropped into `pit`.
   */
  AYO_EVENT_KIND_DROP = 2,
  /**
   * A drop made `pit` hold 4; `player` receives those 4 seeds.
   */
  AYO_EVENT_KIND_COLLECT = 3,
  /**
   * The mover captures the `seeds` seeds of `pit`.
   */
  AYO_EVENT_KIND_CAPTURE = 4,
  /**
   * A capture of `seeds` seeds would have emptied the opponent's row and is forfeited.
   */
  AYO_EVENT_KIND_GRAND_SLAM_FORFEITED = 5,
  /**
   * The move ends: the last seed fell in `pit`, and `end` says why sowing stopped.
   */
  AYO_EVENT_KIND_END = 6,
} ayo_event_kind;

/**
 * Why a move's last lap ended.
 */
typedef enum ayo_lap_end {
  /**
   * Not an end event (the `end` field of events other than `AYO_EVENT_KIND_END`).
   */
  AYO_LAP_END_NONE = 0,
  /**
   * The last seed fell into an empty pit.
   */
  AYO_LAP_END_EMPTY_PIT = 1,
  /**
   * The last seed fell into an occupied pit and relay sowing is off.
   */
  AYO_LAP_END_OCCUPIED = 2,
  /**
   * The last seed made a 4, which was collected.
   */
  AYO_LAP_END_MADE_FOUR = 3,
  /**
   * The last seed made 2 or 3 in the opponent's row.
   */
  AYO_LAP_END_TWO_THREE = 4,
} ayo_lap_end;

/**
 * The field of a record that failed to parse (see `ayo_game_last_record_error`).
 */
typedef enum ayo_record_field {
  /**
   * A field this version of the header does not name.
   */
  AYO_RECORD_FIELD_OTHER = 0,
  /**
   * The rules (preset and overrides).
   */
  AYO_RECORD_FIELD_RULES = 1,
  /**
   * The board.
   */
  AYO_RECORD_FIELD_BOARD = 2,
  /**
   * The stores.
   */
  AYO_RECORD_FIELD_STORES = 3,
  /**
   * The player to move.
   */
  AYO_RECORD_FIELD_TO_MOVE = 4,
  /**
   * The no-capture counter.
   */
  AYO_RECORD_FIELD_NO_CAPTURE = 5,
  /**
   * The ply counter.
   */
  AYO_RECORD_FIELD_PLY = 6,
  /**
   * The ` | ` between a game's start position and its moves.
   */
  AYO_RECORD_FIELD_SEPARATOR = 7,
  /**
   * A move of a game record (not a number 1..=6, or illegal there).
   */
  AYO_RECORD_FIELD_MOVE = 8,
  /**
   * The fields parse but do not make a valid position for the rules.
   */
  AYO_RECORD_FIELD_POSITION = 9,
  /**
   * Text missing or left over at the end.
   */
  AYO_RECORD_FIELD_END = 10,
} ayo_record_field;

/**
 * What a value is as a number: the value itself, a bound or an estimate.
 * Whether it is the game's value is `ayo_value.basis`.
 */
typedef enum ayo_bound {
  /**
   * The value itself, not a bound: the game's value when proven
   * (`ayo_value.basis` `AYO_BASIS_PROVEN_*`), else the value of a search
   * cut off at its depth (`AYO_BASIS_SEARCH`), which is not a proof.
   */
  AYO_BOUND_EXACT = 0,
  /**
   * The true value is at least this.
   */
  AYO_BOUND_LOWER = 1,
  /**
   * The true value is at most this (the move was refuted and not searched further).
   */
  AYO_BOUND_UPPER = 2,
  /**
   * A statistical estimate (MCTS: the mean final seed difference of its simulations).
   */
  AYO_BOUND_ESTIMATE = 3,
} ayo_bound;

/**
 * Where a value comes from (`ayo_value.basis`), and so what it is known to
 * be (`ayo_core::players::Basis`).
 */
typedef enum ayo_basis {
  /**
   * The game's value, proven by the endgame databases.
   */
  AYO_BASIS_PROVEN_DATABASE = 0,
  /**
   * The game's value, proven by a complete search: every line reached a
   * game end or a database board (a game that is over is its own).
   */
  AYO_BASIS_PROVEN_SEARCH = 1,
  /**
   * The value of a search cut off at `ayo_value.search_depth` plies, with
   * estimates at its horizon: not a proof.
   */
  AYO_BASIS_SEARCH = 2,
  /**
   * A bound on the game's value (`ayo_value.bound` says which side),
   * proven by a complete search.
   */
  AYO_BASIS_PROVEN_BOUND = 3,
  /**
   * A bound on the value of a search to `ayo_value.search_depth` plies.
   */
  AYO_BASIS_SEARCH_BOUND = 4,
  /**
   * A statistical estimate (MCTS).
   */
  AYO_BASIS_ESTIMATE = 5,
  /**
   * The value under the convention for play that never ends (each player
   * takes the seeds on their own side), not proven: it depends on how
   * endless play is scored (level `perfect` over board-only databases).
   */
  AYO_BASIS_CONVENTION = 6,
} ayo_basis;

/**
 * The kinds of computer player, for `ayo_player_new_kind`.
 */
typedef enum ayo_player_kind {
  /**
   * Uniformly random legal moves (ignores the budget).
   */
  AYO_PLAYER_KIND_RANDOM = 0,
  /**
   * The best immediate seed gain, ties broken by the seed (ignores the budget).
   */
  AYO_PLAYER_KIND_GREEDY = 1,
  /**
   * Negamax alpha-beta with iterative deepening and a transposition table.
   */
  AYO_PLAYER_KIND_ALPHA_BETA = 2,
  /**
   * Monte Carlo tree search (UCT with random playouts).
   */
  AYO_PLAYER_KIND_MCTS = 3,
} ayo_player_kind;

/**
 * The unit of a budget, for `ayo_player_new_kind`.
 */
typedef enum ayo_budget_kind {
  /**
   * Search this many plies deep (alpha-beta); MCTS runs 1000 × this many
   * simulations. 1 to `UINT32_MAX`.
   */
  AYO_BUDGET_KIND_DEPTH = 0,
  /**
   * Visit at most about this many positions (alpha-beta) or run this many
   * simulations (MCTS). 1 to `AYO_MAX_BUDGET_NODES`.
   */
  AYO_BUDGET_KIND_NODES = 1,
  /**
   * Stop after this many milliseconds of wall time, 1 to
   * `AYO_MAX_BUDGET_MS` (not reproducible across machines or runs).
   */
  AYO_BUDGET_KIND_MILLISECONDS = 2,
} ayo_budget_kind;

/**
 * Counted databases (opaque): the exact value of every board of the layers
 * a database for `max_seeds` seeds needs, at every no-capture count, under
 * one rule set with a move limit (`olopon`, `ayo`); see `docs/solving.md`.
 *
 * Made by `ayo_counted_database_build` or `ayo_counted_database_open`;
 * owned by the caller, who releases it with `ayo_counted_database_free`
 * exactly once. Immutable once made: any number of threads may read one
 * handle at once, and the players made from it share the databases (the
 * handle may be freed before or after them).
 */
typedef struct ayo_counted_database ayo_counted_database;

/**
 * Endgame databases (opaque): the exact value of every board of
 * 0..=`max_seeds` seeds under one rule set, loaded into memory
 * (`ayo_solve::Database`; `docs/solving.md` says what the values mean).
 *
 * Made by `ayo_database_open` or `ayo_database_build`; owned by the caller,
 * who releases it with `ayo_database_free` exactly once. The databases never
 * change once made: every function taking a database reads it, so any number
 * of threads may use one handle at once. A `perfect` player made from it
 * (`ayo_player_new_perfect`) shares the databases rather than borrowing the
 * handle: the handle may be freed before or after its players.
 */
typedef struct ayo_database ayo_database;

/**
 * A game in progress (opaque): its rules, start position, the moves played
 * and the positions they led to (for undo and repetition), and the outcome.
 *
 * Made by `ayo_game_new` or `ayo_game_clone`; owned by the caller, who
 * releases it with `ayo_game_free` exactly once. A game holds its own copy of
 * its rules and never refers to an `ayo_rules` handle. The handle also keeps
 * the detail of its last failed call (`ayo_game_last_error`).
 */
typedef struct ayo_game ayo_game;

/**
 * A computer player (opaque): a random, greedy, alpha-beta, MCTS or
 * `perfect` (endgame databases and exact search) player with its budget, seed and search state (random number generator,
 * transposition table), the analysis of its last `ayo_player_analyze`, and
 * the detail of its last failed call (`ayo_player_last_error`).
 *
 * Made by `ayo_player_new_level`, `ayo_player_new_kind` or
 * `ayo_player_new_perfect`; owned by the caller, who releases it with
 * `ayo_player_free` exactly once. A player never refers to a game: it reads
 * the game passed to each call during that call only. A perfect player
 * shares the databases of the `ayo_database` it was made from (they stay
 * alive as long as the player, whenever the database handle is freed).
 *
 * Determinism: two players made alike (same level, or same kind, budget and
 * seed) and shown the same sequence of games make the same choices, the same
 * as the Rust player `ayo_core::players` builds with that seed. Depth and
 * node budgets are reproducible on every machine; a time budget is not.
 */
typedef struct ayo_player ayo_player;

/**
 * A validated rule set (opaque).
 *
 * Made by `ayo_rules_new_preset`, `ayo_rules_clone` or `ayo_game_rules`;
 * owned by the caller, who releases it with `ayo_rules_free` exactly once.
 * A rules handle is never borrowed by a game: `ayo_game_new` copies the rules,
 * so a rules handle and the games made from it may be freed in any order.
 * The handle also keeps the detail of its last failed call
 * (`ayo_rules_last_error`).
 */
typedef struct ayo_rules ayo_rules;

/**
 * A batched search with the network in the loop: opaque, made by
 * `ayo_search_new`, freed by `ayo_search_free`. It keeps the detail of its
 * last failed call (`ayo_search_last_error`).
 */
typedef struct ayo_search ayo_search;

/**
 * The options of a stateless batch (an opaque handle): rules whose state
 * fits the record, the random opponent or self-play, the rewards, the
 * step limit and the autoreset. Made by `ayo_stateless_new`, released by
 * `ayo_stateless_free`; never changed, so one handle may serve any number
 * of threads at once.
 */
typedef struct ayo_stateless ayo_stateless;

/**
 * A batch of episodes stepped together (an opaque handle). Made by
 * `ayo_vec_env_new`, released by `ayo_vec_env_free`. Not for two threads
 * at once (a step runs its own threads).
 */
typedef struct ayo_vec_env ayo_vec_env;

/**
 * A position as plain values: read with `ayo_game_setup`, and written by the
 * caller for `ayo_game_load_setup`.
 */
typedef struct ayo_setup {
  /**
   * Seeds in absolute pits 0..=11 (South's row 0..=5, North's 6..=11, in sowing order).
   */
  uint8_t board[AYO_PITS];
  /**
   * Seeds in South's and North's stores.
   */
  uint8_t stores[2];
  /**
   * The player to move: 0 South, 1 North (any other value is
   * `AYO_RESULT_INVALID_ARGUMENT`).
   */
  uint8_t to_move;
  /**
   * Moves played in a row without a capture.
   */
  uint16_t no_capture;
  /**
   * Moves played since the start of the game.
   */
  uint32_t ply;
} ayo_setup;

/**
 * How a game ended.
 */
typedef struct ayo_outcome {
  /**
   * The winner, or `AYO_WINNER_DRAW`.
   */
  enum ayo_winner winner;
  /**
   * Why the game ended.
   */
  enum ayo_end_reason reason;
  /**
   * Final seeds of South and North, after any end-of-game sweep.
   */
  uint16_t scores[2];
} ayo_outcome;

/**
 * One step of a sowing trace. Fields that the kind does not use are 0
 * (`pit`, `seeds`), `AYO_SIDE_SOUTH` (`player`) and `AYO_LAP_END_NONE` (`end`).
 */
typedef struct ayo_event {
  /**
   * What happened.
   */
  enum ayo_event_kind kind;
  /**
   * Absolute pit 0..=11 (every kind but `GRAND_SLAM_FORFEITED`).
   */
  uint8_t pit;
  /**
   * Seeds lifted, captured or forfeited (`LIFT`, `RELAY`, `CAPTURE`, `GRAND_SLAM_FORFEITED`).
   */
  uint8_t seeds;
  /**
   * Who receives a collected 4 (`COLLECT`).
   */
  enum ayo_side player;
  /**
   * Why the move ended (`END`).
   */
  enum ayo_lap_end end;
} ayo_event;

/**
 * The totals of a sowing trace.
 */
typedef struct ayo_trace_summary {
  /**
   * Laps sown: 1 + the number of relays.
   */
  uint32_t laps;
  /**
   * Absolute pit where the last seed fell.
   */
  uint8_t last_pit;
  /**
   * Why the last lap ended.
   */
  enum ayo_lap_end end;
  /**
   * Seeds taken into South's and North's stores during the move (captures and collected 4s).
   */
  uint16_t taken[2];
} ayo_trace_summary;

/**
 * A value from the point of view of the player to move: the seed difference
 * (own final seeds minus the opponent's).
 */
typedef struct ayo_value {
  /**
   * The value in hundredths of a seed, as the search orders it (compare
   * these). A proven end is `AYO_VALUE_WIN` + 100 × the final difference
   * for a win, `-AYO_VALUE_WIN` + 100 × the final difference for a loss,
   * and 0 for a draw. `ayo_value_text` writes it in words.
   */
  int32_t centiseeds;
  /**
   * The seed difference: the final one for a game end the search found
   * (proven or not), else `centiseeds / 100`.
   */
  double seeds;
  /**
   * 1 when the value is proven (`basis` `AYO_BASIS_PROVEN_DATABASE` or
   * `_PROVEN_SEARCH`): `final_difference` is then the final seed
   * difference with best play (0 for a draw). 0 otherwise, even for a game
   * end found by a search cut off elsewhere at its depth.
   */
  uint8_t proven;
  /**
   * The final seed difference when `proven` is 1, else 0.
   */
  int32_t final_difference;
  /**
   * What `centiseeds` is as a number: the value itself, a bound or an estimate.
   */
  enum ayo_bound bound;
  /**
   * Where the value comes from: proven, a depth-limited search, a bound or
   * an estimate.
   */
  enum ayo_basis basis;
  /**
   * The depth of the search the value comes from when it was cut off
   * (`AYO_BASIS_SEARCH`, `_SEARCH_BOUND`), else 0.
   */
  uint32_t search_depth;
} ayo_value;

/**
 * One legal move and what the player thinks of it.
 */
typedef struct ayo_move_value {
  /**
   * The move, as the mover's relative pit 1..=6 (as for `ayo_game_play`).
   */
  uint8_t relative_pit;
  /**
   * Its value for the player to move.
   */
  struct ayo_value value;
} ayo_move_value;

/**
 * The analysis of a position by a player (`ayo_player_analyze`). The
 * principal variation goes into a caller array beside it.
 */
typedef struct ayo_analysis {
  /**
   * The best move found, as the mover's relative pit 1..=6 (see
   * `ayo_player_analyze` for when it is the move `ayo_player_choose`
   * plays); 0 when the game is over or truncated (no legal move).
   */
  uint8_t best;
  /**
   * The value of the position for the player to move (for a game that is
   * over, the final seed difference, proven; 0 when truncated, not proven).
   */
  struct ayo_value value;
  /**
   * The length of the principal variation (the moves written to the
   * caller's `pv` array), which starts with `best`.
   */
  size_t pv_len;
  /**
   * How many entries of `moves` are used: the number of legal moves.
   */
  size_t moves_count;
  /**
   * Every legal move with its value, in ascending pit order; entries from
   * `moves_count` on are zero.
   */
  struct ayo_move_value moves[AYO_MAX_LEGAL_MOVES];
  /**
   * Plies searched (alpha-beta: the last completed iteration; MCTS: the
   * deepest tree path; greedy and random: 1; 0 for a game that is over).
   */
  uint32_t depth;
  /**
   * Positions visited (alpha-beta) or simulations run (MCTS).
   */
  uint64_t nodes;
} ayo_analysis;

/**
 * The options of a search; `ayo_search_options_default` fills in the
 * defaults. `method` is an `AYO_SEARCH_METHOD_*` and `values` an
 * `AYO_SEARCH_VALUES_*` number (checked by `ayo_search_new`).
 */
typedef struct ayo_search_options {
  /**
   * Simulations a tree runs after its root's evaluation, 1 to 10^9
   * (and at most 2^27 tree nodes in all: about 6 a simulation a game).
   */
  uint64_t simulations;
  /**
   * `AYO_SEARCH_METHOD_PUCT` or `AYO_SEARCH_METHOD_GUMBEL`.
   */
  int32_t method;
  /**
   * What game ends are worth: `AYO_SEARCH_VALUES_OUTCOME` or
   * `AYO_SEARCH_VALUES_SEED_DIFFERENCE`.
   */
  int32_t values;
  /**
   * PUCT: the exploration constant (at least 0).
   */
  float c_puct;
  /**
   * PUCT: the Dirichlet noise's alpha (more than 0).
   */
  float dirichlet_alpha;
  /**
   * PUCT: the share of noise in the root's priors, 0 to 1.
   */
  float dirichlet_fraction;
  /**
   * PUCT: the temperature of the move drawn by visits (0: most visited).
   */
  float temperature;
  /**
   * Gumbel: actions sampled at the root, 1 to 6.
   */
  uint32_t max_considered;
  /**
   * Gumbel: the scale of the root's Gumbel noise (0: none).
   */
  float gumbel_scale;
  /**
   * Gumbel: `c_visit` of the completed Q-values.
   */
  float c_visit;
  /**
   * Gumbel: `c_scale` of the completed Q-values.
   */
  float c_scale;
  /**
   * The seed of the noise and the temperature draws.
   */
  uint64_t seed;
} ayo_search_options;

/**
 * The caller's arrays that a reset or a step writes, each as long as its
 * width times `num_envs` (game `i`'s values at `i` times the width). Every
 * pointer is required, and no two arrays overlap. The flags (`mask`,
 * `terminated`, `truncated`, `ended`, `game_over`) are 1 or 0. A reset writes the rows of the
 * games it resets; a step writes every game's rows but `final_obs` and
 * `final_obs_mask`, written for the episodes that ended this step.
 */
typedef struct ayo_vec_rows {
  /**
   * The games the arrays are for: the batch's games.
   */
  size_t num_envs;
  /**
   * The observation (14 a game): the 12 pits and 2 stores in the
   * options' perspective.
   */
  float *obs;
  /**
   * The viewer's legal actions (6 a game), 1 or 0.
   */
  int8_t *obs_mask;
  /**
   * The same as `obs_mask`, in bytes (6 a game).
   */
  uint8_t *mask;
  /**
   * The step's reward (1 a game).
   */
  double *reward;
  /**
   * The game ended by the rules, or the action was penalized.
   */
  uint8_t *terminated;
  /**
   * The step limit was reached.
   */
  uint8_t *truncated;
  /**
   * The seat whose view the observation is (0 South, 1 North).
   */
  int8_t *seat;
  /**
   * The last observation of an episode that ended this step (14 a game;
   * `autoreset=SameStep`).
   */
  float *final_obs;
  /**
   * Its action mask (6 a game).
   */
  int8_t *final_obs_mask;
  /**
   * The episode ended this step (terminated or truncated).
   */
  uint8_t *ended;
  /**
   * The game ended by the rules this step.
   */
  uint8_t *game_over;
  /**
   * Its final stores (2 a game: South's, North's), 0 elsewhere.
   */
  int16_t *scores;
  /**
   * Its winner (0 South, 1 North, -1 a draw), 0 elsewhere.
   */
  int8_t *winner;
  /**
   * The penalized illegal action, -1 elsewhere.
   */
  int8_t *illegal;
  /**
   * The player to move (0 South, 1 North).
   */
  int8_t *to_move;
  /**
   * The game's ply.
   */
  uint32_t *ply;
  /**
   * The opponent's reply this step (its action 0 to 5), -1 where it did not move.
   */
  int8_t *replied;
  /**
   * Why a game that ended by the rules this step ended (0 target, 1 move
   * limit, 2 repetition, 3 no legal move), -1 elsewhere.
   */
  int8_t *reason;
  /**
   * Each game's status: its legal actions (bits 0 to 5) and 0x80 when
   * its episode is over and awaits a reset.
   */
  uint8_t *status;
} ayo_vec_rows;

/**
 * What a step did, counted over the batch.
 */
typedef struct ayo_vec_counts {
  /**
   * Episodes that ended (terminated or truncated).
   */
  size_t ended;
  /**
   * Games that ended by the rules (`scores`, `winner` and `reason` set).
   */
  size_t over;
  /**
   * Penalized illegal actions.
   */
  size_t penalized;
} ayo_vec_counts;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/**
 * The version of the linked library, as `"major.minor.patch"`.
 *
 * Ownership: the string is static; do not free it.
 *
 * Thread safety: may be called from any thread at any time.
 */
const char *ayo_version(void);

/**
 * The CPU kernel the hot loops run: `"scalar"`, `"avx2"` or `"avx512"` (the
 * best this CPU has, or the one the environment variable `AYO_KERNEL`
 * names, read once), or NULL when `AYO_KERNEL` names a kernel this CPU
 * lacks or an unknown one (the hot loops then run the scalar kernel).
 *
 * Ownership: the string is static; do not free it.
 *
 * Thread safety: may be called from any thread at any time.
 */
const char *ayo_kernel(void);

/**
 * Builds the counted databases of `rules` (which need a move limit and no
 * repetition rule, else `AYO_RESULT_DATABASE_UNSUPPORTED_RULES`) for
 * `max_seeds` seeds into `dir` (created if needed) and loads them: the
 * layers a capture can lead to (under collect-four only `max_seeds − 4k`),
 * one file each, resumable as `ayo_database_build` is. Layer `n` holds
 * C(n + 11, 11) × (limit + 1) values, one byte each. Runs on `threads`
 * threads (0: one per core). On success `*out_database` is a new handle
 * owned by the caller.
 *
 * `AYO_RESULT_INVALID_ARGUMENT` for `max_seeds` above
 * `AYO_MAX_COUNTED_SEEDS` or too many threads; otherwise the codes of
 * `ayo_database_build`, with the detail in `ayo_database_last_error`.
 *
 * Thread safety: reads `rules`. Two builds must not write the same directory at once.
 *
 * # Safety
 * `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
 * valid for a write.
 */
enum ayo_result ayo_counted_database_build(const struct ayo_rules *rules,
                                           uint32_t max_seeds,
                                           const char *dir,
                                           uint32_t threads,
                                           struct ayo_counted_database **out_database);

/**
 * Loads the counted databases of `rules` for `max_seeds` seeds from `dir`
 * (the layers `ayo_counted_database_build` writes), each file checked
 * whole. Codes as for `ayo_counted_database_build`
 * (`AYO_RESULT_DATABASE_MISSING` when a layer has no file).
 *
 * Thread safety: reads `rules`.
 *
 * # Safety
 * `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
 * valid for a write.
 */
enum ayo_result ayo_counted_database_open(const struct ayo_rules *rules,
                                          uint32_t max_seeds,
                                          const char *dir,
                                          struct ayo_counted_database **out_database);

/**
 * Releases a counted-database handle; NULL does nothing. Its players keep
 * the databases.
 *
 * Thread safety: needs `database` exclusively.
 *
 * # Safety
 * `database` NULL or a live handle from this library, not freed before.
 */
void ayo_counted_database_free(struct ayo_counted_database *database);

/**
 * Writes the seed count the databases were built for to `*max_seeds`.
 *
 * Thread safety: reads `database`.
 *
 * # Safety
 * `database` NULL or live; `max_seeds` NULL or valid for a write.
 */
enum ayo_result ayo_counted_database_max_seeds(const struct ayo_counted_database *database,
                                               uint32_t *max_seeds);

/**
 * Re-checks every stored value (every layer held, every no-capture count)
 * against the core (`ayo_solve::counted::CountedDatabase::verify`): at the
 * move limit the core's end there, below it the best of the legal moves,
 * each valued by what it captures and the stored value of its result at
 * its own count. Writes the number of values checked to `*checked` and the
 * number that failed to `*failed` (0 for sound databases). Runs on a pool
 * of `threads` threads of its own (0: one per core, at most
 * `AYO_MAX_THREADS`, else `AYO_RESULT_INVALID_ARGUMENT`, with the detail
 * in `ayo_database_last_error`).
 *
 * Thread safety: reads `database`; may run concurrently with any other call
 * on it except `ayo_counted_database_free`.
 *
 * # Safety
 * `database` NULL or live; `checked` and `failed` NULL or valid for a write.
 */
enum ayo_result ayo_counted_database_verify(const struct ayo_counted_database *database,
                                            uint32_t threads,
                                            uint64_t *checked,
                                            uint64_t *failed);

/**
 * The exact value of the current position of `game` for the player to
 * move: what they will still capture minus what the opponent will, with
 * best play to the end (the stores and the target do not count; the
 * no-capture count does). Read from the layers when they hold the board,
 * else searched above them within `nodes` expanded boards (0: no limit).
 * Writes `*solved` = 1 and the value to `*value` when it was found, else
 * `*solved` = 0 (the budget ran out) and leaves `*value` alone.
 *
 * `AYO_RESULT_DATABASE_RULES_MISMATCH` when the game's rules are not the
 * databases' (the target does not count), with the detail in
 * `ayo_database_last_error`; nothing is written then.
 *
 * Thread safety: reads `database` and `game`; may run concurrently with
 * any other call on them except their `_free` and calls that change `game`.
 *
 * # Safety
 * `database` and `game` NULL or live; `solved` and `value` NULL or valid
 * for a write.
 */
enum ayo_result ayo_counted_database_value(const struct ayo_counted_database *database,
                                           const struct ayo_game *game,
                                           uint64_t nodes,
                                           uint8_t *solved,
                                           int32_t *value);

/**
 * Makes a `perfect` player over counted databases: every legal move's
 * exact value (board and no-capture count) read from them or searched
 * above them within the budget, the best played; `ayo_player_analyze`
 * gives proven values. Other rules, or a budget that runs out: level `max`,
 * and `ayo_player_last_source` says so. Budget, seed and ownership as for
 * `ayo_player_new_perfect`; the name is `"perfect(counted db<=N, …)"`.
 *
 * Thread safety: reads `database`.
 *
 * # Safety
 * `database` NULL or live; `out_player` NULL or valid for a write.
 */
enum ayo_result ayo_player_new_perfect_counted(const struct ayo_counted_database *database,
                                               ayo_budget_kind budget_kind,
                                               uint64_t amount,
                                               uint64_t seed,
                                               struct ayo_player **out_player);

/**
 * Writes the detail of the last failed `ayo_database_open`,
 * `ayo_database_open_up_to`, `ayo_database_build`, `ayo_database_verify`,
 * `ayo_database_bounds` or `ayo_counted_database_` function
 * called on this thread (which file, and what is wrong with it) into `buf`;
 * the empty string when the last of them on this thread succeeded or none
 * was called. Text out-parameter convention as for `ayo_result_message`.
 *
 * Thread safety: may be called from any thread at any time; each thread
 * has its own detail, so threads opening databases at once do not see each
 * other's.
 *
 * # Safety
 * `buf` NULL or valid for `len` bytes; `written` NULL or valid for a write.
 */
enum ayo_result ayo_database_last_error(char *buf, size_t len, size_t *written);

/**
 * Loads the endgame databases of `rules` from the directory `dir`: every
 * consecutive layer file `0, 1, 2, …` of these rules found there (the files
 * `ayo_database_build` and the `ayo-solve build` command write; the rules'
 * target does not matter). Each file is checked whole (magic, format
 * version, rules, layer, size and both checksums) before it is used. On
 * success `*out_database` is a new handle owned by the caller (free it with
 * `ayo_database_free`).
 *
 * `AYO_RESULT_DATABASE_UNSUPPORTED_RULES` for rules with a move limit
 * (e.g. the `ayo` and `olopon` presets);
 * `AYO_RESULT_DATABASE_MISSING` when `dir` holds no layer 0 for these rules,
 * or when a layer is missing below the highest layer file found (layer 5
 * deleted from 0..=8: an error naming the missing file and the layers
 * found, never a database that silently stops at 4 seeds);
 * `AYO_RESULT_DATABASE_DAMAGED` when a layer file is damaged or does not
 * match; `AYO_RESULT_DATABASE_IO` when a file cannot be read;
 * `AYO_RESULT_DATABASE_OUT_OF_MEMORY` when the layers do not fit in memory
 * (nothing is kept);
 * `AYO_RESULT_INVALID_UTF8` when `dir` is not UTF-8. On failure
 * `ayo_database_last_error` (on the same thread) says which file and what
 * is wrong; after a success it is empty.
 *
 * Thread safety: reads `rules`; may run concurrently with other read-only
 * calls on it, so several threads may open databases with one rules
 * handle. Loading reads the whole of every file in the calling thread.
 *
 * # Safety
 * `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
 * valid for a write.
 */
enum ayo_result ayo_database_open(const struct ayo_rules *rules,
                                  const char *dir,
                                  struct ayo_database **out_database);

/**
 * Loads exactly the layers 0..=`max_seeds` of `rules` from `dir`, as
 * `ayo_database_open` does every layer found: each file is checked whole,
 * and layers above `max_seeds` are not read (so a database whose layer
 * files stop, or have a gap, above `max_seeds` opens). On success
 * `*out_database` is a new handle owned by the caller.
 *
 * `AYO_RESULT_INVALID_ARGUMENT` for `max_seeds` above
 * `AYO_MAX_DATABASE_SEEDS`; `AYO_RESULT_DATABASE_MISSING` when a layer
 * 0..=`max_seeds` has no file (the detail names it); otherwise the codes of
 * `ayo_database_open`, with the detail in `ayo_database_last_error`.
 *
 * Thread safety: reads `rules`, as `ayo_database_open`.
 *
 * # Safety
 * `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
 * valid for a write.
 */
enum ayo_result ayo_database_open_up_to(const struct ayo_rules *rules,
                                        const char *dir,
                                        uint32_t max_seeds,
                                        struct ayo_database **out_database);

/**
 * Builds the endgame databases of `rules` for every board of 0 to
 * `max_seeds` seeds into the directory `dir` (created if needed) and loads
 * them: one file per layer, each written through a temporary file renamed
 * into place. Building is resumable: a layer whose file is already there
 * and checks out is read instead of built again, so a build that was
 * stopped can be run again; a file that exists but does not check out is
 * refused with its error (`AYO_RESULT_DATABASE_DAMAGED`), never
 * overwritten. Nothing is printed. On success `*out_database` is a new
 * handle owned by the caller (free it with `ayo_database_free`).
 *
 * Cost: layer `n` holds C(n + 11, 11) boards, one byte each, and takes
 * about ten times that in working memory while it is built; up to 8 seeds
 * takes a fraction of a second, up to 20 about two minutes, up to 24 about
 * seven minutes and 10 GiB on two cores (see `docs/solving.md`). The build runs on a pool of `threads` threads of its
 * own (0: one per core, at most `AYO_MAX_THREADS`) and returns when it is
 * done.
 *
 * `AYO_RESULT_INVALID_ARGUMENT` for `max_seeds` above
 * `AYO_MAX_DATABASE_SEEDS` or too many threads;
 * `AYO_RESULT_DATABASE_OUT_OF_MEMORY` when a layer, its move graph or its
 * bounds cannot be allocated (the detail names the bytes and what for; the
 * layers finished before are kept in `dir`, so a build with a smaller
 * `max_seeds` or more memory resumes from them); otherwise the codes of
 * `ayo_database_open` (`AYO_RESULT_DATABASE_IO` also when the directory or
 * a file cannot be created or written, or the threads cannot be started),
 * with the detail in `ayo_database_last_error`.
 *
 * Thread safety: reads `rules`, as `ayo_database_open`. Two builds must
 * not write the same directory at once.
 *
 * # Safety
 * `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
 * valid for a write.
 */
enum ayo_result ayo_database_build(const struct ayo_rules *rules,
                                   uint32_t max_seeds,
                                   const char *dir,
                                   uint32_t threads,
                                   struct ayo_database **out_database);

/**
 * Releases a database handle. `ayo_database_free(NULL)` does nothing.
 * Players made from it keep the databases (they are freed with the last of
 * them).
 *
 * Thread safety: needs `database` exclusively; no other call may use it
 * during or after this one. Its players may go on being used on other
 * threads meanwhile.
 *
 * # Safety
 * `database` must be NULL or a live handle from this library, not freed
 * before.
 */
void ayo_database_free(struct ayo_database *database);

/**
 * Writes the largest seed count whose boards the databases hold to
 * `*max_seeds` (every board of 0..=`*max_seeds` seeds has its value).
 *
 * Thread safety: reads `database`; may run concurrently with any other call
 * on it except `ayo_database_free`.
 *
 * # Safety
 * `database` NULL or live; `max_seeds` NULL or valid for a write.
 */
enum ayo_result ayo_database_max_seeds(const struct ayo_database *database, uint32_t *max_seeds);

/**
 * Re-checks every stored value against the values of its successors
 * (`ayo_solve::Database::verify`): a value that does not depend on endless
 * play must equal the best move's exactly, one scored by the cycle
 * convention must lie within its bounds. Writes the number of boards
 * checked to `*checked` and the number that failed to `*failed` (0 for
 * sound databases). Takes about as long as loading and reading every
 * successor of every board once; runs on a pool of `threads` threads of its
 * own (0: one per core, at most `AYO_MAX_THREADS`, else
 * `AYO_RESULT_INVALID_ARGUMENT`, with the detail in
 * `ayo_database_last_error`).
 *
 * Thread safety: reads `database`; may run concurrently with any other call
 * on it except `ayo_database_free`.
 *
 * # Safety
 * `database` NULL or live; `checked` and `failed` NULL or valid for a write.
 */
enum ayo_result ayo_database_verify(const struct ayo_database *database,
                                    uint32_t threads,
                                    uint64_t *checked,
                                    uint64_t *failed);

/**
 * The bounds of the current position of `game` under every scoring of
 * play that never ends (`ayo_solve::Database::bounds`), for the player to
 * move: `*lo` is what they can force by play that ends (endless play
 * counted as their worst), `*hi` what the opponent can hold them to
 * (endless play counted as their best), in seeds still to capture minus the
 * opponent's; the stores do not count. `lo == hi` means the databases'
 * value is exact whatever endless play is worth. Writes `*held` = 1 when
 * the databases hold the board, else 0 (its seeds are at most
 * `ayo_database_max_seeds`); `*lo` and `*hi` only when they do.
 *
 * `AYO_RESULT_DATABASE_RULES_MISMATCH` when the game's rules are not the
 * databases' (the target does not count), with the detail in
 * `ayo_database_last_error`; nothing is written then.
 *
 * Thread safety: reads `database` and `game`; may run concurrently with
 * any other call on them except their `_free` and calls that change `game`.
 *
 * # Safety
 * `database` and `game` NULL or live; `held`, `lo` and `hi` NULL or valid
 * for a write.
 */
enum ayo_result ayo_database_bounds(const struct ayo_database *database,
                                    const struct ayo_game *game,
                                    uint8_t *held,
                                    int32_t *lo,
                                    int32_t *hi);

/**
 * Makes a `perfect` player over `database`: for each move it reads the
 * exact value of every legal move from the databases when they hold the
 * board, searches exactly above them otherwise, and plays the best (ties
 * go to moves whose value does not depend on endless play, then to
 * positions not yet seen in the game, then to larger captures, then to the
 * lowest pit); `ayo_player_analyze` then gives exact values (bound
 * `AYO_BOUND_EXACT`, `proven` 1, `final_difference` the stores' difference
 * plus the future captures). When the game's rules are not the databases'
 * (any target is fine) or the search runs out of budget, it plays as level
 * `max` and says so (`ayo_player_last_source`). Under a repetition rule
 * (`oware`) the values are the game's under that rule, the game's history
 * deciding which position repeats (a game-tree search down to the
 * databases), and proven wherever the search closes.
 *
 * The budget per move is `amount` units of `budget_kind`, checked as for
 * `ayo_player_new_kind` (`AYO_RESULT_BAD_BUDGET`): nodes count the boards
 * expanded above the databases (under a repetition rule, the positions
 * the search expands); milliseconds are wall time (the fallback
 * is then alpha-beta with that time); a depth budget means 2,000,000 nodes.
 * `seed` seeds the fallback. On success `*out_player` is a new handle owned
 * by the caller (free it with `ayo_player_free`); `ayo_player_choose`,
 * `ayo_player_analyze`, `ayo_player_name` (`"perfect(db<=8, nodes=…)"`)
 * and the other player functions work on it as on any player.
 *
 * The player shares the databases: `database` may be freed at any time
 * afterwards, and several players (on several threads) may share them.
 *
 * Thread safety: reads `database`; may run concurrently with any other call
 * on it except `ayo_database_free`.
 *
 * # Safety
 * `database` NULL or live; `out_player` NULL or valid for a write.
 */
enum ayo_result ayo_player_new_perfect(const struct ayo_database *database,
                                       ayo_budget_kind budget_kind,
                                       uint64_t amount,
                                       uint64_t seed,
                                       struct ayo_player **out_player);

/**
 * Writes where a `perfect` player's last `ayo_player_choose` or
 * `ayo_player_analyze` got its answer to `*source`: the databases, the
 * exact search, or the level-`max` fallback (`AYO_PERFECT_SOURCE_NONE`
 * before the first call and after a call on a game that was over).
 *
 * `AYO_RESULT_NOT_PERFECT` for a player not made by
 * `ayo_player_new_perfect`; `AYO_RESULT_PLAYER_BROKEN` after the player
 * panicked.
 *
 * Thread safety: reads `player`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `player` NULL or live; `source` NULL or valid for a write.
 */
enum ayo_result ayo_player_last_source(const struct ayo_player *player,
                                       enum ayo_perfect_source *source);

/**
 * Makes a new game at the start position of `rules` (a copy of them is kept:
 * `rules` may be freed at any time afterwards). On success `*out_game` is a
 * new handle owned by the caller (free it with `ayo_game_free`).
 *
 * Thread safety: reads `rules`; may run concurrently with other read-only
 * calls on it.
 *
 * # Safety
 * `rules` NULL or live; `out_game` NULL or valid for a write.
 */
enum ayo_result ayo_game_new(const struct ayo_rules *rules, struct ayo_game **out_game);

/**
 * Makes an independent copy of `game`: rules, history, ply cap (not its
 * last-error detail). On success `*out_game` is a new handle owned by the
 * caller (free it with `ayo_game_free`).
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `out_game` NULL or valid for a write.
 */
enum ayo_result ayo_game_clone(const struct ayo_game *game, struct ayo_game **out_game);

/**
 * Releases a game handle. `ayo_game_free(NULL)` does nothing. Rules handles
 * are not affected.
 *
 * Thread safety: needs `game` exclusively; no other call may use it during
 * or after this one.
 *
 * # Safety
 * `game` must be NULL or a live handle from this library, not freed before.
 */
void ayo_game_free(struct ayo_game *game);

/**
 * Gives a new rules handle holding a copy of the game's rules. On success
 * `*out_rules` is owned by the caller (free it with `ayo_rules_free`); it
 * stays valid after the game is freed.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `out_rules` NULL or valid for a write.
 */
enum ayo_result ayo_game_rules(const struct ayo_game *game, struct ayo_rules **out_rules);

/**
 * Replaces the game with a new one that starts at the position of a
 * position record, e.g. `"ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 10"`
 * (rules, board, stores, player to move, no-capture counter, ply; see
 * `docs/notation.md`). The rules come from the record. The ply cap is kept.
 *
 * `AYO_RESULT_MALFORMED_RECORD` when the text does not parse or is not a
 * valid position; the game is then unchanged, and `ayo_game_last_error` and
 * `ayo_game_last_record_error` say which field failed at which byte offset.
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live; `text` NULL or NUL-terminated.
 */
enum ayo_result ayo_game_load_position(struct ayo_game *game, const char *text);

/**
 * Replaces the game with the one of a game record: a start position record,
 * ` | `, and the moves as the mover's pits 1..=6, e.g.
 * `"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1 6"`. Every move is replayed
 * and checked. The ply cap is kept.
 *
 * `AYO_RESULT_MALFORMED_RECORD` when the text does not parse or a move is
 * illegal; the game is then unchanged, and `ayo_game_last_error` and
 * `ayo_game_last_record_error` say which field failed at which byte offset.
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live; `text` NULL or NUL-terminated.
 */
enum ayo_result ayo_game_load_record(struct ayo_game *game, const char *text);

/**
 * Replaces the game with a new one, under the same rules, that starts at
 * `setup`. The ply cap is kept.
 *
 * `AYO_RESULT_INVALID_ARGUMENT` when `setup->to_move` is not 0 or 1;
 * `AYO_RESULT_INVALID_POSITION` when the seeds do not add up to the rules'
 * total or the counters are inconsistent (`ayo_game_last_error` lists every
 * problem). On failure the game is unchanged.
 *
 * Ownership: `setup` is read during the call only.
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live; `setup` NULL or valid for a read.
 */
enum ayo_result ayo_game_load_setup(struct ayo_game *game, const struct ayo_setup *setup);

/**
 * Writes the current position: board, stores, player to move and counters.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `setup` NULL or valid for a write.
 */
enum ayo_result ayo_game_setup(const struct ayo_game *game, struct ayo_setup *setup);

/**
 * Writes the player to move in the current position.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `player` NULL or valid for a write.
 */
enum ayo_result ayo_game_to_move(const struct ayo_game *game, enum ayo_side *player);

/**
 * Writes the 64-bit hash of the current position (board, stores and player
 * to move; not the counters). Equal positions have equal hashes in every
 * front door (C, Rust, Python) of the same library version.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `hash` NULL or valid for a write.
 */
enum ayo_result ayo_game_hash(const struct ayo_game *game, uint64_t *hash);

/**
 * Writes the number of moves played in this game since its start position
 * (what `ayo_game_undo` can take back).
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `count` NULL or valid for a write.
 */
enum ayo_result ayo_game_move_count(const struct ayo_game *game, size_t *count);

/**
 * Copies the moves played since the start position, as the movers' relative
 * pits 1..=6 (as in game records), into `pits` (capacity `capacity`), and
 * their number into `*count`. When `capacity` is too small nothing is copied,
 * `*count` is the number needed and the result is
 * `AYO_RESULT_BUFFER_TOO_SMALL`; `pits` may be NULL when `capacity` is 0.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `pits` NULL or valid for `capacity` writes; `count`
 * NULL or valid for a write.
 */
enum ayo_result ayo_game_moves(const struct ayo_game *game,
                               uint8_t *pits,
                               size_t capacity,
                               size_t *count);

/**
 * Copies the legal moves of the current position, as the mover's relative
 * pits 1..=6 ascending, into `pits` (at most `AYO_MAX_LEGAL_MOVES`; none when
 * the game is over or truncated) and their number into `*count`. Array
 * convention as for `ayo_game_moves`.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `pits` NULL or valid for `capacity` writes; `count`
 * NULL or valid for a write.
 */
enum ayo_result ayo_game_legal_moves(const struct ayo_game *game,
                                     uint8_t *pits,
                                     size_t capacity,
                                     size_t *count);

/**
 * As `ayo_game_legal_moves`, with absolute pits 0..=11.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `pits` NULL or valid for `capacity` writes; `count`
 * NULL or valid for a write.
 */
enum ayo_result ayo_game_legal_pits(const struct ayo_game *game,
                                    uint8_t *pits,
                                    size_t capacity,
                                    size_t *count);

/**
 * Writes the legal moves as a 6-bit mask: bit `k` (value `1 << k`) is set
 * when the mover's relative pit `k + 1` is legal. 0 when the game is over or
 * truncated.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `mask` NULL or valid for a write.
 */
enum ayo_result ayo_game_legal_mask(const struct ayo_game *game, uint8_t *mask);

/**
 * Plays the mover's relative pit 1..=6 (the web app's keys: 1 is pit 0 for
 * South, pit 6 for North).
 *
 * On an illegal move the game is unchanged, the result says why
 * (`AYO_RESULT_ACTION_OUT_OF_RANGE`, `_EMPTY_PIT`, `_ENDLESS_RELAY`,
 * `_DOES_NOT_FEED`, `_GAME_OVER`, `_TRUNCATED`) and `ayo_game_last_error`
 * gives the detail.
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live.
 */
enum ayo_result ayo_game_play(struct ayo_game *game, int32_t relative_pit);

/**
 * Plays absolute pit 0..=11, which must be in the mover's row.
 *
 * On an illegal move the game is unchanged, the result says why
 * (`AYO_RESULT_PIT_OUT_OF_RANGE`, `_NOT_MOVERS_PIT`, `_EMPTY_PIT`,
 * `_ENDLESS_RELAY`, `_DOES_NOT_FEED`, `_GAME_OVER`, `_TRUNCATED`) and
 * `ayo_game_last_error` gives the detail.
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live.
 */
enum ayo_result ayo_game_play_pit(struct ayo_game *game, int32_t pit);

/**
 * Takes back the last move and writes it, as the relative pit 1..=6 its
 * mover played, to `*relative_pit`. `AYO_RESULT_NOTHING_TO_UNDO` at the
 * start position (the game is then unchanged).
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live; `relative_pit` NULL or valid for a write.
 */
enum ayo_result ayo_game_undo(struct ayo_game *game, uint8_t *relative_pit);

/**
 * Writes where the game stands: ongoing, ended by the rules, or truncated by
 * the ply cap.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `status` NULL or valid for a write.
 */
enum ayo_result ayo_game_status(const struct ayo_game *game, enum ayo_status *status);

/**
 * Writes the outcome of a finished game: winner, reason and final scores.
 * `AYO_RESULT_GAME_NOT_OVER` while the game goes on; `AYO_RESULT_TRUNCATED`
 * when it stopped at its ply cap (`ayo_game_set_ply_cap`) before an end by
 * the rules, so it has no outcome (raise or clear the cap to play on).
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `outcome` NULL or valid for a write.
 */
enum ayo_result ayo_game_outcome(const struct ayo_game *game, struct ayo_outcome *outcome);

/**
 * Caps the number of moves of this game (counted from its start position):
 * once `cap` moves have been played the status is `AYO_STATUS_TRUNCATED`, not
 * an end, and moves are refused with `AYO_RESULT_TRUNCATED` until the cap is
 * raised or cleared. A new game has no cap.
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live.
 */
enum ayo_result ayo_game_set_ply_cap(struct ayo_game *game, uint32_t cap);

/**
 * Removes the ply cap (see `ayo_game_set_ply_cap`).
 *
 * Thread safety: needs `game` exclusively.
 *
 * # Safety
 * `game` NULL or live.
 */
enum ayo_result ayo_game_clear_ply_cap(struct ayo_game *game);

/**
 * Writes the record of the current position (as read by
 * `ayo_game_load_position`) into `buf`; see `ayo_result_message` for the
 * text out-parameter convention.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL or
 * valid for a write.
 */
enum ayo_result ayo_game_position_text(const struct ayo_game *game,
                                       char *buf,
                                       size_t len,
                                       size_t *written);

/**
 * Writes the game record (start position, ` | `, moves; as read by
 * `ayo_game_load_record`) into `buf`; see `ayo_result_message` for the text
 * out-parameter convention.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL or
 * valid for a write.
 */
enum ayo_result ayo_game_record(const struct ayo_game *game,
                                char *buf,
                                size_t len,
                                size_t *written);

/**
 * The sowing trace of the mover's relative pit 1..=6 from the current
 * position, without playing it: every lift, drop, relay, collected 4,
 * capture and the end, in order, into `events` (capacity `capacity`), their
 * number into `*count`, and the totals into `*summary`.
 *
 * When `capacity` is too small nothing is copied, `*count` is the number of
 * events needed, `*summary` is not written and the result is
 * `AYO_RESULT_BUFFER_TOO_SMALL` (`events` may be NULL when `capacity` is 0).
 * An illegal move gives the same results as `ayo_game_play`.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `events` NULL or valid for `capacity` writes; `count`
 * and `summary` NULL or valid for a write.
 */
enum ayo_result ayo_game_trace(const struct ayo_game *game,
                               int32_t relative_pit,
                               struct ayo_event *events,
                               size_t capacity,
                               size_t *count,
                               struct ayo_trace_summary *summary);

/**
 * Counts the legal move sequences of length `depth` from the current
 * position (perft; games that end earlier count at their end's depth only;
 * repetition is not applied). The work grows about 6^depth: keep `depth`
 * small.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `nodes` NULL or valid for a write.
 */
enum ayo_result ayo_game_perft(const struct ayo_game *game, uint32_t depth, uint64_t *nodes);

/**
 * Writes the detail of the last failure of a call that takes a non-const
 * `ayo_game *` (e.g. ``"bad board at offset 11: `z` is not a seed count 0
 * to 255"``, or `"North's pit 2 is empty"`: pits as the call numbered
 * them) into `buf`; the empty string when the last such call succeeded. Calls on a const handle do not touch it. Text
 * out-parameter convention as for `ayo_result_message`.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL or
 * valid for a write.
 */
enum ayo_result ayo_game_last_error(const struct ayo_game *game,
                                    char *buf,
                                    size_t len,
                                    size_t *written);

/**
 * When the last failed call on `game` was a record that did not parse
 * (`AYO_RESULT_MALFORMED_RECORD` from `ayo_game_load_position` or
 * `ayo_game_load_record`), writes which field failed and the byte offset of
 * the offending text in the record; otherwise returns
 * `AYO_RESULT_NO_RECORD_ERROR`.
 *
 * Thread safety: reads `game`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `game` NULL or live; `field` and `offset` NULL or valid for a write.
 */
enum ayo_result ayo_game_last_record_error(const struct ayo_game *game,
                                           enum ayo_record_field *field,
                                           size_t *offset);

/**
 * Writes a one-line English description of result `code` into `buf`.
 *
 * `code` is an `int32_t` rather than an `ayo_result` so that any integer can
 * be passed safely; an unknown code writes nothing and returns
 * `AYO_RESULT_INVALID_ARGUMENT`.
 *
 * Text out-parameters, here and everywhere: `buf` receives the text and a
 * terminating NUL; `len` is the capacity of `buf` in bytes. On success
 * `*written` is the text's length without the NUL. When `len` is too small
 * nothing is written to `buf`, `*written` is the size needed (with the NUL)
 * and the result is `AYO_RESULT_BUFFER_TOO_SMALL`; `buf` may be NULL when
 * `len` is 0, to ask for the size.
 *
 * Ownership: `buf` and `written` are the caller's; nothing is kept.
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `buf` must be NULL or point to `len` writable bytes; `written` must be NULL
 * or point to a writable `size_t`.
 */
enum ayo_result ayo_result_message(int32_t code, char *buf, size_t len, size_t *written);

/**
 * The name of result `code` as it appears in this header (e.g.
 * `"AYO_RESULT_EMPTY_PIT"`), or NULL for an unknown code.
 *
 * Ownership: the string is static; do not free it.
 *
 * Thread safety: may be called from any thread at any time.
 */
const char *ayo_result_name(int32_t code);

/**
 * Makes the player of a level: `"1"` (random) to `"8"`, or `"max"` (any
 * case); `ayo_level_name` lists them, `ayo_player_name` says which player
 * and budget each is, and `docs/players.md` has the table. The player takes
 * the level's budget for each game's rules (collect-on-4 games, such as the
 * `ayo` preset, have their own table). On success
 * `*out_player` is a new handle owned by the caller (free it with
 * `ayo_player_free`).
 *
 * `AYO_RESULT_UNKNOWN_LEVEL` for any other text (`AYO_RESULT_INVALID_UTF8`
 * when it is not UTF-8).
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `level` NULL or NUL-terminated; `out_player` NULL or valid for a write.
 */
enum ayo_result ayo_player_new_level(const char *level,
                                     uint64_t seed,
                                     struct ayo_player **out_player);

/**
 * Makes a player of `kind` (an `ayo_player_kind` value) with a budget of
 * `amount` units of `budget_kind` (an `ayo_budget_kind` value: plies, nodes
 * or milliseconds), seeded by `seed`. Random and greedy players ignore the
 * budget, but it must still be valid. On success `*out_player` is a new
 * handle owned by the caller (free it with `ayo_player_free`).
 *
 * `AYO_RESULT_UNKNOWN_PLAYER_KIND` for a `kind` outside the enum;
 * `AYO_RESULT_BAD_BUDGET` for a `budget_kind` outside the enum or an amount
 * out of its range (depth 1..=`UINT32_MAX`, nodes 1..=`AYO_MAX_BUDGET_NODES`,
 * milliseconds 1..=`AYO_MAX_BUDGET_MS`: the limits of every binding).
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `out_player` NULL or valid for a write.
 */
enum ayo_result ayo_player_new_kind(ayo_player_kind kind,
                                    ayo_budget_kind budget_kind,
                                    uint64_t amount,
                                    uint64_t seed,
                                    struct ayo_player **out_player);

/**
 * Releases a player handle. `ayo_player_free(NULL)` does nothing. Games are
 * not affected.
 *
 * Thread safety: needs `player` exclusively; no other call may use it during
 * or after this one.
 *
 * # Safety
 * `player` must be NULL or a live handle from this library, not freed before.
 */
void ayo_player_free(struct ayo_player *player);

/**
 * Chooses the move to play in the current position of `game` and writes it,
 * as the mover's relative pit 1..=6 (ready for `ayo_game_play`), to
 * `*relative_pit`. The game is not changed: play the move yourself.
 *
 * `AYO_RESULT_GAME_OVER` when the game has ended and `AYO_RESULT_TRUNCATED`
 * when it reached its ply cap (no move is chosen; the player's state is not
 * touched). The search runs in the calling thread and takes the player's
 * budget (with `AYO_BUDGET_KIND_MILLISECONDS`, about that long).
 *
 * Thread safety: needs `player` exclusively (the search updates its random
 * number generator and tables); reads `game`, so several players may think
 * about the same game at once, alongside other read-only calls on it.
 *
 * # Safety
 * `player` and `game` NULL or live; `relative_pit` NULL or valid for a write.
 */
enum ayo_result ayo_player_choose(struct ayo_player *player,
                                  const struct ayo_game *game,
                                  uint8_t *relative_pit);

/**
 * Analyses the current position of `game`: writes the best move, the value
 * with its bound and basis (proven by the databases or a complete search, a
 * depth-limited search, a bound or an estimate: `ayo_basis`), the value of
 * every legal move, the depth and nodes
 * searched to `*analysis`, the principal variation (relative pits 1..=6,
 * each its own mover's, starting with the best move) to `pv` and its length
 * to `*pv_len`. For a game that is over the analysis has no move (`best`
 * 0, empty variation) and the final seed difference as its value; for a
 * truncated game likewise, with value 0.
 *
 * With a depth budget `best` is the move `ayo_player_choose` would play in
 * the same state. Alpha-beta's analysis searches every root move with a full
 * window (so that each move's value is the search's own, not a bound), so under a node or time
 * budget it may complete fewer plies than `choose` and pick another move,
 * as in Rust (`ayo_core::players::Agent::analyze`).
 *
 * The analysis is kept on the player (`ayo_player_last_analysis`). When
 * `pv_capacity` is too small the search has still run: the result is
 * `AYO_RESULT_BUFFER_TOO_SMALL`, `*pv_len` is the length needed and
 * `*analysis` is not written; fetch the same analysis with a larger array
 * from `ayo_player_last_analysis` (analysing again would search again, and
 * a player with random choices could answer differently). `pv` may be NULL
 * when `pv_capacity` is 0.
 *
 * Thread safety: as for `ayo_player_choose`.
 *
 * # Safety
 * `player` and `game` NULL or live; `analysis` and `pv_len` NULL or valid
 * for a write; `pv` NULL or valid for `pv_capacity` writes.
 */
enum ayo_result ayo_player_analyze(struct ayo_player *player,
                                   const struct ayo_game *game,
                                   struct ayo_analysis *analysis,
                                   uint8_t *pv,
                                   size_t pv_capacity,
                                   size_t *pv_len);

/**
 * Writes the analysis of the player's last successful or
 * `AYO_RESULT_BUFFER_TOO_SMALL` `ayo_player_analyze` again, as that call
 * describes (same array convention), without searching.
 * `AYO_RESULT_NO_ANALYSIS` when the player has not analysed a position yet.
 *
 * Thread safety: reads `player`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `player` NULL or live; `analysis` and `pv_len` NULL or valid for a write;
 * `pv` NULL or valid for `pv_capacity` writes.
 */
enum ayo_result ayo_player_last_analysis(const struct ayo_player *player,
                                         struct ayo_analysis *analysis,
                                         uint8_t *pv,
                                         size_t pv_capacity,
                                         size_t *pv_len);

/**
 * Writes the player's kind and budget, e.g. `"alphabeta(depth=4)"`,
 * `"mcts(nodes=5000)"`, `"random"`, into `buf` (text out-parameter
 * convention as for `ayo_result_message`). `AYO_RESULT_PLAYER_BROKEN`
 * after the player panicked.
 *
 * Thread safety: reads `player`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `player` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
 * or valid for a write.
 */
enum ayo_result ayo_player_name(const struct ayo_player *player,
                                char *buf,
                                size_t len,
                                size_t *written);

/**
 * Writes the detail of the last failure of a call that takes a non-const
 * `ayo_player *` (`ayo_player_choose`, `ayo_player_analyze`), e.g. `"the
 * game is over: there is no move to choose"`, into `buf`; the empty string
 * when the last such call succeeded. Text out-parameter convention as for
 * `ayo_result_message`.
 *
 * Thread safety: reads `player`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `player` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
 * or valid for a write.
 */
enum ayo_result ayo_player_last_error(const struct ayo_player *player,
                                      char *buf,
                                      size_t len,
                                      size_t *written);

/**
 * The name of level `index` (0-based, weakest first): `"1"` .. `"8"`, then
 * `"max"`; NULL when `index` is `AYO_LEVEL_COUNT` or more. Each name is
 * accepted by `ayo_player_new_level`.
 *
 * Ownership: the string is static; do not free it.
 *
 * Thread safety: may be called from any thread at any time.
 */
const char *ayo_level_name(size_t index);

/**
 * Writes a value's `centiseeds` in words into `buf`: `"+1.25"`, `"-0.50"`,
 * `"win by 6"`, `"loss by 2"` (text out-parameter convention as for
 * `ayo_result_message`). Any `int32_t` is accepted.
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `buf` NULL or valid for `len` bytes; `written` NULL or valid for a write.
 */
enum ayo_result ayo_value_text(int32_t centiseeds, char *buf, size_t len, size_t *written);

/**
 * Makes the rules of a named preset: `"ayoayo"`, `"ayo"`, `"olopon"` or
 * `"oware"` (docs/rules.md, "Presets").
 *
 * Returns `AYO_RESULT_UNKNOWN_PRESET` for any other name. On success `*out`
 * is a new handle that the caller owns and must release with `ayo_rules_free`.
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `name` must be NULL or a NUL-terminated string; `out` NULL or valid for a write.
 */
enum ayo_result ayo_rules_new_preset(const char *name, struct ayo_rules **out_rules);

/**
 * Makes a copy of `rules` (without its last-error detail). On success
 * `*out_rules` is a new handle owned by the caller (free it with
 * `ayo_rules_free`).
 *
 * Thread safety: reads `rules`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `rules` must be NULL or a live handle; `out_rules` NULL or valid for a write.
 */
enum ayo_result ayo_rules_clone(const struct ayo_rules *rules, struct ayo_rules **out_rules);

/**
 * Releases a rules handle. `ayo_rules_free(NULL)` does nothing. Games made
 * from these rules are not affected (they hold their own copy).
 *
 * Thread safety: needs `rules` exclusively; no other call may use it during
 * or after this one.
 *
 * # Safety
 * `rules` must be NULL or a live handle from this library, not freed before.
 */
void ayo_rules_free(struct ayo_rules *rules);

/**
 * Sets one rule parameter from its text form, e.g. `("capture", "two_three")`,
 * `("target", "none")`, `("seeds_per_pit", "5")`, `("relay", "false")`.
 *
 * The whole rule set is checked after the change: `AYO_RESULT_UNKNOWN_PARAM`
 * for an unknown key, `AYO_RESULT_BAD_PARAM_VALUE` for a value the key cannot
 * take, `AYO_RESULT_INVALID_RULES` when the new combination cannot be played
 * (then change the parameters in another order, or use
 * `ayo_rules_load_text` to set several at once). On failure the rules are
 * unchanged and `ayo_rules_last_error` says why.
 *
 * Thread safety: needs `rules` exclusively.
 *
 * # Safety
 * `rules` must be NULL or a live handle; `key` and `value` NULL or NUL-terminated.
 */
enum ayo_result ayo_rules_set(struct ayo_rules *rules, const char *key, const char *value);

/**
 * Writes the text form of parameter `key` (as accepted by `ayo_rules_set`)
 * into `buf`; see `ayo_result_message` for the text out-parameter convention.
 * `AYO_RESULT_UNKNOWN_PARAM` for an unknown key.
 *
 * Thread safety: reads `rules`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `rules` NULL or live; `key` NULL or NUL-terminated; `buf` NULL or valid for
 * `len` bytes; `written` NULL or valid for a write.
 */
enum ayo_result ayo_rules_get(const struct ayo_rules *rules,
                              const char *key,
                              char *buf,
                              size_t len,
                              size_t *written);

/**
 * Replaces the rules with those of a rules record: a preset name with
 * optional overrides, e.g. `"ayoayo"` or
 * `"ayoayo[capture=two_three,target=none]"` (see `docs/notation.md`). All
 * overrides are applied before the combination is checked.
 *
 * Returns `AYO_RESULT_MALFORMED_RECORD` when the text does not parse or the
 * rules cannot be played; the rules are then unchanged and
 * `ayo_rules_last_error` says why.
 *
 * Thread safety: needs `rules` exclusively.
 *
 * # Safety
 * `rules` NULL or live; `text` NULL or NUL-terminated.
 */
enum ayo_result ayo_rules_load_text(struct ayo_rules *rules, const char *text);

/**
 * Writes the rules record of `rules` (a preset name with the fewest
 * overrides, e.g. `"oware[target=none]"`) into `buf`; see
 * `ayo_result_message` for the text out-parameter convention.
 *
 * Thread safety: reads `rules`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `rules` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
 * or valid for a write.
 */
enum ayo_result ayo_rules_text(const struct ayo_rules *rules,
                               char *buf,
                               size_t len,
                               size_t *written);

/**
 * Writes the detail of the last failure of a call that takes a non-const
 * `ayo_rules *` into `buf`; the empty string when the last such call
 * succeeded. Calls on a const handle do not touch it. See
 * `ayo_result_message` for the text out-parameter convention.
 *
 * Thread safety: reads `rules`; may run concurrently with other read-only
 * calls on the same handle.
 *
 * # Safety
 * `rules` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
 * or valid for a write.
 */
enum ayo_result ayo_rules_last_error(const struct ayo_rules *rules,
                                     char *buf,
                                     size_t len,
                                     size_t *written);

/**
 * The name of rule parameter `index` (0..`AYO_PARAM_COUNT`), in the order of
 * records (`"relay"`, `"capture"`, ..., `"first_player"`), or NULL when
 * `index` is out of range.
 *
 * Ownership: the string is static; do not free it.
 *
 * Thread safety: may be called from any thread at any time.
 */
const char *ayo_rules_param_name(size_t index);

/**
 * The name of preset `index` (0..`AYO_PRESET_COUNT`): `"ayoayo"`, `"ayo"`,
 * `"olopon"`, `"oware"`; NULL when `index` is out of range.
 *
 * Ownership: the string is static; do not free it.
 *
 * Thread safety: may be called from any thread at any time.
 */
const char *ayo_preset_name(size_t index);

/**
 * Writes the default options to `*options`: 32 simulations of PUCT
 * (c_puct 1.25, alpha 0.3, fraction 0.25, temperature 1), values by
 * outcome, the Gumbel parameters mctx's (6 considered, scale 1, c_visit
 * 50, c_scale 0.1), seed 0.
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `options` NULL or valid for a write.
 */
enum ayo_result ayo_search_options_default(struct ayo_search_options *options);

/**
 * Makes a search with `*options`, checked: `AYO_RESULT_SEARCH_INVALID`
 * when an option is out of range (no handle is made). On success
 * `*out_search` is a new handle owned by the caller (free it with
 * `ayo_search_free`).
 *
 * Thread safety: may be called from any thread at any time.
 *
 * # Safety
 * `options` NULL or valid for a read; `out_search` NULL or valid for a write.
 */
enum ayo_result ayo_search_new(const struct ayo_search_options *options,
                               struct ayo_search **out_search);

/**
 * Releases a search handle. `ayo_search_free(NULL)` does nothing.
 *
 * Thread safety: needs `search` exclusively.
 *
 * # Safety
 * `search` NULL or a live handle from this library, not freed before.
 */
void ayo_search_free(struct ayo_search *search);

/**
 * Starts a search of the `count` games `games[0..count]` (each read during
 * the call only, with its history for the repetition rule), dropping any
 * search under way; its memory is allocated here. `AYO_RESULT_GAME_OVER`
 * when a game is over (or truncated), `AYO_RESULT_SEARCH_INVALID` for no
 * games or too many (1 to 2^20, and at most 2^27 tree nodes in all),
 * `AYO_RESULT_SEARCH_OUT_OF_MEMORY` when the trees cannot be allocated.
 *
 * Thread safety: needs `search` exclusively; reads the games.
 *
 * # Safety
 * `search` NULL or live; `games` NULL or valid for `count` reads of live
 * game handles (none NULL).
 */
enum ayo_result ayo_search_start(struct ayo_search *search,
                                 const struct ayo_game *const *games,
                                 size_t count);

/**
 * The next round's leaves, at most one a game: writes their count to
 * `*count` and, a leaf a row, `AYO_SEARCH_OBS` floats to `obs` and
 * `AYO_SEARCH_ACTIONS` legal flags (1 legal, 0 not) to `mask`; both arrays
 * must hold `capacity` rows, at least a row a game of the search
 * (`AYO_RESULT_BUFFER_TOO_SMALL` otherwise, with the rows needed in
 * `*count`). `*count` is 0 once the search is done. Called again before
 * `ayo_search_tell`, the same leaves.
 *
 * Thread safety: needs `search` exclusively.
 *
 * # Safety
 * `search` NULL or live; `obs` valid for `capacity * AYO_SEARCH_OBS`
 * writes, `mask` for `capacity * AYO_SEARCH_ACTIONS`; `count` valid for a
 * write.
 */
enum ayo_result ayo_search_leaves(struct ayo_search *search,
                                  float *obs,
                                  uint8_t *mask,
                                  size_t capacity,
                                  size_t *count);

/**
 * The network's answer for the `count` leaves handed out by
 * `ayo_search_leaves`: `AYO_SEARCH_ACTIONS` logits a leaf (illegal
 * actions' are ignored and may be anything; legal ones finite) and a value
 * a leaf in [-1, 1] for the player to move there. Checked first: on error
 * nothing changes. `AYO_RESULT_SEARCH_NOT_READY` when no leaves await
 * values, `AYO_RESULT_SEARCH_INVALID` for another count or a bad number.
 *
 * Thread safety: needs `search` exclusively.
 *
 * # Safety
 * `search` NULL or live; `logits` valid for `count * AYO_SEARCH_ACTIONS`
 * reads and `values` for `count` (either may be NULL when `count` is 0).
 */
enum ayo_result ayo_search_tell(struct ayo_search *search,
                                const float *logits,
                                const float *values,
                                size_t count);

/**
 * Whether every tree has run its simulations (1) or not (0), to `*done`.
 *
 * Thread safety: reads `search`.
 *
 * # Safety
 * `search` NULL or live; `done` NULL or valid for a write.
 */
enum ayo_result ayo_search_done(const struct ayo_search *search, uint8_t *done);

/**
 * Every game's result once the search is done
 * (`AYO_RESULT_SEARCH_NOT_READY` before): a game a row, the chosen move as
 * the mover's relative pit 1..=6 (ready for `ayo_game_play`) in
 * `relative_pits`, the policy target (`AYO_SEARCH_ACTIONS` floats summing
 * to 1, 0 for illegal actions) in `policies` and the root value for the
 * player to move in `values`; each array holds `capacity` rows
 * (`AYO_RESULT_BUFFER_TOO_SMALL` otherwise, the rows needed in `*count`).
 *
 * Thread safety: reads `search`.
 *
 * # Safety
 * `search` NULL or live; `relative_pits` valid for `capacity` writes,
 * `policies` for `capacity * AYO_SEARCH_ACTIONS`, `values` for `capacity`;
 * `count` valid for a write.
 */
enum ayo_result ayo_search_results(const struct ayo_search *search,
                                   uint8_t *relative_pits,
                                   float *policies,
                                   float *values,
                                   size_t capacity,
                                   size_t *count);

/**
 * The detail of the search's last failed call (empty after a success), by
 * the text out-parameter convention (see `ayo_result_message`).
 *
 * Thread safety: reads `search`.
 *
 * # Safety
 * `search` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
 * or valid for a write.
 */
enum ayo_result ayo_search_last_error(const struct ayo_search *search,
                                      char *buf,
                                      size_t len,
                                      size_t *written);

/**
 * Makes the stateless batch of `spec`: `key=value` pairs joined by `;`,
 * every rule parameter (`capture=two_three`, …; those left out keep
 * ayoayo's) and the options `opponent` (`random`, `self_play`), `seat`
 * (`0`, `1`, `alternate`, `random`), `perspective` (`mover`, `absolute`),
 * `reward` (`win_loss`, `seed_difference`), `illegal` (`raise`,
 * `penalize`), `penalty`, `max_steps` (`none` or a number) and
 * `autoreset` (`NextStep`, `Disabled`). `ayo_stateless_spec` writes a
 * handle's spec back, every key included.
 *
 * `AYO_RESULT_STATELESS_UNSUPPORTED_RULES` for rules that end games on a
 * repeated position (`repetition=own_side`, oware's): that rule reads every
 * position since the last capture, which no fixed-size record holds
 * (`repetition=off` with `max_steps` is the stateless form of Oware).
 * Rule errors as `ayo_rules_set`; `AYO_RESULT_INVALID_ARGUMENT` for other
 * bad options. Detail: `ayo_stateless_last_error`.
 *
 * Ownership: `*out_env` is new; release it with `ayo_stateless_free`.
 *
 * # Safety
 * `spec` a NUL-terminated string; `out_env` valid for a write.
 */
enum ayo_result ayo_stateless_new(const char *spec, struct ayo_stateless **out_env);

/**
 * Releases a stateless handle; NULL does nothing.
 *
 * # Safety
 * `env` NULL or a handle from `ayo_stateless_new`, not used afterwards.
 */
void ayo_stateless_free(struct ayo_stateless *env);

/**
 * Writes the handle's spec (every key) into `buf`; text out-parameter
 * convention as for `ayo_result_message`.
 *
 * # Safety
 * `env` a live handle; `buf` NULL or valid for `len` bytes; `written` valid.
 */
enum ayo_result ayo_stateless_spec(const struct ayo_stateless *env,
                                   char *buf,
                                   size_t len,
                                   size_t *written);

/**
 * Writes the detail of the last failed `ayo_stateless_` call on this thread
 * into `buf` (empty after one that succeeded); text out-parameter
 * convention as for `ayo_result_message`.
 *
 * # Safety
 * `buf` NULL or valid for `len` bytes; `written` valid for a write.
 */
enum ayo_result ayo_stateless_last_error(char *buf, size_t len, size_t *written);

/**
 * Writes a new episode of each of the `n` seeds into `states`
 * (`n * AYO_STATE_BYTES` bytes), as the Python batched environment's game
 * seeded by it and reset.
 *
 * # Safety
 * `env` a live handle; `seeds` valid for `n` reads and `states` for
 * `n * AYO_STATE_BYTES` writes (either may be NULL when `n` is 0).
 */
enum ayo_result ayo_stateless_init(const struct ayo_stateless *env,
                                   const uint64_t *seeds,
                                   size_t n,
                                   uint8_t *states);

/**
 * Steps the `n` records of `states` in place with `actions` (0 to 5, the
 * viewer's pits 1 to 6): the agent's move and the random opponent's
 * replies (self-play: one move), the autoreset of an ended episode. Writes
 * each seat's reward (`rewards[2 * i]` South's, `[2 * i + 1]` North's),
 * `terminated` and `truncated` (1 or 0).
 *
 * `AYO_RESULT_INVALID_POSITION` for a record that is not a state of the
 * rules; `AYO_RESULT_ACTION_OUT_OF_RANGE` for an action outside 0 to 5;
 * an illegal action refused (`illegal=raise`) gives its reason's code.
 * On failure the records before the failing one have been stepped; the
 * detail names the game.
 *
 * # Safety
 * `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads and
 * writes, `actions` for `n` reads, `rewards` for `2 * n` writes,
 * `terminated` and `truncated` for `n` writes.
 */
enum ayo_result ayo_stateless_step(const struct ayo_stateless *env,
                                   uint8_t *states,
                                   const int64_t *actions,
                                   size_t n,
                                   float *rewards,
                                   uint8_t *terminated,
                                   uint8_t *truncated);

/**
 * Writes the viewer's legal actions of each record into `mask`
 * (`n * 6`, `mask[6 * i + a]` 1 when action `a` is legal, else 0).
 *
 * # Safety
 * `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads,
 * `mask` for `n * 6` writes.
 */
enum ayo_result ayo_stateless_legal_mask(const struct ayo_stateless *env,
                                         const uint8_t *states,
                                         size_t n,
                                         uint8_t *mask);

/**
 * Writes each record's board as the viewer sees it into `obs` (`n * 14`:
 * 12 pits then 2 stores): `absolute` 0, the viewer's row first (the
 * `mover` perspective); otherwise South's row first.
 *
 * # Safety
 * `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads,
 * `obs` for `n * 14` writes.
 */
enum ayo_result ayo_stateless_observe(const struct ayo_stateless *env,
                                      const uint8_t *states,
                                      size_t n,
                                      int32_t absolute,
                                      uint8_t *obs);

/**
 * Writes each record's six children (the record after each action, as
 * `ayo_stateless_step`) into `children` (`n * 6 * AYO_STATE_BYTES`) and
 * whether each action is legal into `valid` (`n * 6`, 1 or 0); an illegal action's
 * child is the record itself.
 *
 * # Safety
 * `env` a live handle; `states` valid for `n * AYO_STATE_BYTES` reads,
 * `children` for `n * 6 * AYO_STATE_BYTES` writes, `valid` for `n * 6`.
 */
enum ayo_result ayo_stateless_children(const struct ayo_stateless *env,
                                       const uint8_t *states,
                                       size_t n,
                                       uint8_t *children,
                                       uint8_t *valid);

/**
 * Makes a batch of `n` games of `rules`, game `i` seeded by `seeds[i]`,
 * stepped on up to `threads` threads (0: every core; at most
 * `AYO_MAX_THREADS`). `options` (NULL or "" for the defaults): `key=value`
 * pairs joined by `;`: `opponent` (`random`, the default; `self_play`;
 * `greedy`; a level `1` to `8` or `max`, its budget for these rules),
 * `seat` (`0`, `1`, `alternate`, `random`), `perspective` (`mover`,
 * `absolute`), `reward` (`win_loss`, `seed_difference`), `illegal`
 * (`raise`, `penalize`), `penalty` (default -1), `max_steps` (`none` or a
 * number) and `autoreset` (`NextStep`, `SameStep`, `Disabled`). Each game
 * awaits its first `ayo_vec_env_reset`.
 *
 * `AYO_RESULT_INVALID_ARGUMENT` for no games, a bad option, a thread
 * count out of range, rules whose games can end before the agent's first
 * move, or threads that cannot start; `AYO_RESULT_VEC_ENV_OUT_OF_MEMORY`
 * when the batch does not fit in memory. Detail: `ayo_vec_env_last_error`.
 *
 * Ownership: `*out_env` is new; release it with `ayo_vec_env_free`. The
 * rules are copied.
 *
 * # Safety
 * `rules` a live handle; `options` NULL or a NUL-terminated string;
 * `seeds` valid for `n` reads; `out_env` valid for a write.
 */
enum ayo_result ayo_vec_env_new(const struct ayo_rules *rules,
                                const char *options,
                                const uint64_t *seeds,
                                size_t n,
                                int32_t threads,
                                struct ayo_vec_env **out_env);

/**
 * Releases a batch (its threads end); NULL does nothing.
 *
 * # Safety
 * `env` NULL or a handle from `ayo_vec_env_new`, not used afterwards.
 */
void ayo_vec_env_free(struct ayo_vec_env *env);

/**
 * The number of games of the batch into `*out_n`.
 *
 * # Safety
 * `env` a live handle; `out_n` valid for a write.
 */
enum ayo_result ayo_vec_env_num_envs(const struct ayo_vec_env *env, size_t *out_n);

/**
 * Starts new episodes in the games where `mask[i]` is true (every game
 * when `mask` is NULL; a byte other than 0 is true) and writes their rows: `seeds` (NULL: none) first
 * restarts each such game's random streams with `seeds[i]`; `seat` 0 or 1
 * gives the agent that seat in these episodes, -1 keeps the options' seat.
 *
 * `AYO_RESULT_INVALID_ARGUMENT` for rows not of the batch's games or a
 * seat other than -1, 0, 1; nothing changes then.
 *
 * # Safety
 * `env` a live handle, not used by another thread during the call; `rows`
 * as `ayo_vec_rows` says; `mask` and `seeds` NULL or valid for
 * `num_envs` reads.
 */
enum ayo_result ayo_vec_env_reset(struct ayo_vec_env *env,
                                  const struct ayo_vec_rows *rows,
                                  const uint8_t *mask,
                                  const uint64_t *seeds,
                                  int32_t seat);

/**
 * Steps every game: `actions[i]` (0 to 5, the viewer's pits 1 to 6) for
 * game `i`, `n_actions` of them. Checks the whole batch first: an action
 * outside 0 to 5 (`AYO_RESULT_ACTION_OUT_OF_RANGE`), an illegal one when
 * `illegal=raise` (its reason's code, as `ayo_game_play`), an action of a
 * game whose episode is over when `autoreset=Disabled`
 * (`AYO_RESULT_GAME_OVER`), or actions or rows not one a game
 * (`AYO_RESULT_INVALID_ARGUMENT`) fail, the detail naming the first game,
 * and nothing changes. Then steps every episode (the opponent's replies,
 * the autoreset) on the batch's threads and writes the rows; `*out_counts`
 * (may be NULL) receives what happened.
 *
 * # Safety
 * `env` a live handle, not used by another thread during the call;
 * `actions` valid for `n_actions` reads; `rows` as `ayo_vec_rows` says;
 * `out_counts` NULL or valid for a write.
 */
enum ayo_result ayo_vec_env_step(struct ayo_vec_env *env,
                                 const int64_t *actions,
                                 size_t n_actions,
                                 const struct ayo_vec_rows *rows,
                                 struct ayo_vec_counts *out_counts);

/**
 * Writes the detail of the last failed `ayo_vec_env_` call on this thread
 * into `buf` (empty after one that succeeded); text out-parameter
 * convention as for `ayo_result_message`.
 *
 * # Safety
 * `buf` NULL or valid for `len` bytes; `written` valid for a write.
 */
enum ayo_result ayo_vec_env_last_error(char *buf, size_t len, size_t *written);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* AYO_H */
