//! The counted-database handle (`ayo_solve::counted::CountedDatabase`: rules
//! with a move limit, values of board and no-capture count) and its
//! `perfect` player (`ayo_solve::CountedPerfect`).
//!
//! Only translation, as for the board-only databases (`database.rs`), whose
//! error detail (`ayo_database_last_error`) these functions share, and
//! whose bodies, written once for both kinds, they call with their handle:
//! building, loading, checking, values and the search above the layers are
//! `ayo-solve`'s.

use std::sync::Arc;

use ayo_solve::counted::CountedDatabase;

use crate::database::{
    build_handle, guard_database, max_seeds_of, new_perfect_handle, open_handle, value_handle,
    verify_handle, DatabaseHandle,
};
use crate::game::ayo_game;
use crate::player::{ayo_player, BudgetKindArg};
use crate::result::ayo_result;
use crate::util::{free_box, guard};

/// The largest `max_seeds` of the counted databases (every seed of the start).
pub const AYO_MAX_COUNTED_SEEDS: u32 = 48;

const _: () = assert!(AYO_MAX_COUNTED_SEEDS as usize == ayo_solve::counted::MAX_COUNTED_SEEDS);

/// Counted databases (opaque): the exact value of every board of the layers
/// a database for `max_seeds` seeds needs, at every no-capture count, under
/// one rule set with a move limit (`olopon`, `ayo`); see `docs/solving.md`.
///
/// Made by `ayo_counted_database_build` or `ayo_counted_database_open`;
/// owned by the caller, who releases it with `ayo_counted_database_free`
/// exactly once. Immutable once made: any number of threads may read one
/// handle at once, and the players made from it share the databases (the
/// handle may be freed before or after them).
pub struct ayo_counted_database {
    db: Arc<CountedDatabase>,
}

impl DatabaseHandle for ayo_counted_database {
    type Db = CountedDatabase;
    const MAX_SEEDS: u32 = AYO_MAX_COUNTED_SEEDS;

    fn wrap(db: Arc<CountedDatabase>) -> Self {
        ayo_counted_database { db }
    }

    fn db(&self) -> &Arc<CountedDatabase> {
        &self.db
    }
}

/// Builds the counted databases of `rules` (which need a move limit and no
/// repetition rule, else `AYO_RESULT_DATABASE_UNSUPPORTED_RULES`) for
/// `max_seeds` seeds into `dir` (created if needed) and loads them: the
/// layers a capture can lead to (under collect-four only `max_seeds − 4k`),
/// one file each, resumable as `ayo_database_build` is. Layer `n` holds
/// C(n + 11, 11) × (limit + 1) values, one byte each. Runs on `threads`
/// threads (0: one per core). On success `*out_database` is a new handle
/// owned by the caller.
///
/// `AYO_RESULT_INVALID_ARGUMENT` for `max_seeds` above
/// `AYO_MAX_COUNTED_SEEDS` or too many threads; otherwise the codes of
/// `ayo_database_build`, with the detail in `ayo_database_last_error`.
///
/// Thread safety: reads `rules`. Two builds must not write the same directory at once.
///
/// # Safety
/// `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_counted_database_build(
    rules: *const crate::rules::ayo_rules,
    max_seeds: u32,
    dir: *const std::ffi::c_char,
    threads: u32,
    out_database: *mut *mut ayo_counted_database,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { build_handle(rules, max_seeds, dir, threads, out_database) })
}

/// Loads the counted databases of `rules` for `max_seeds` seeds from `dir`
/// (the layers `ayo_counted_database_build` writes), each file checked
/// whole. Codes as for `ayo_counted_database_build`
/// (`AYO_RESULT_DATABASE_MISSING` when a layer has no file).
///
/// Thread safety: reads `rules`.
///
/// # Safety
/// `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_counted_database_open(
    rules: *const crate::rules::ayo_rules,
    max_seeds: u32,
    dir: *const std::ffi::c_char,
    out_database: *mut *mut ayo_counted_database,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { open_handle(rules, dir, Some(max_seeds), out_database) })
}

/// Releases a counted-database handle; NULL does nothing. Its players keep
/// the databases.
///
/// Thread safety: needs `database` exclusively.
///
/// # Safety
/// `database` NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn ayo_counted_database_free(database: *mut ayo_counted_database) {
    // SAFETY: the caller's contract.
    unsafe { free_box(database) }
}

/// Writes the seed count the databases were built for to `*max_seeds`.
///
/// Thread safety: reads `database`.
///
/// # Safety
/// `database` NULL or live; `max_seeds` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_counted_database_max_seeds(
    database: *const ayo_counted_database,
    max_seeds: *mut u32,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { max_seeds_of(database, max_seeds) }
}

/// Re-checks every stored value (every layer held, every no-capture count)
/// against the core (`ayo_solve::counted::CountedDatabase::verify`): at the
/// move limit the core's end there, below it the best of the legal moves,
/// each valued by what it captures and the stored value of its result at
/// its own count. Writes the number of values checked to `*checked` and the
/// number that failed to `*failed` (0 for sound databases). Runs on a pool
/// of `threads` threads of its own (0: one per core, at most
/// `AYO_MAX_THREADS`, else `AYO_RESULT_INVALID_ARGUMENT`, with the detail
/// in `ayo_database_last_error`).
///
/// Thread safety: reads `database`; may run concurrently with any other call
/// on it except `ayo_counted_database_free`.
///
/// # Safety
/// `database` NULL or live; `checked` and `failed` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_counted_database_verify(
    database: *const ayo_counted_database,
    threads: u32,
    checked: *mut u64,
    failed: *mut u64,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { verify_handle(database, threads, checked, failed) })
}

/// The exact value of the current position of `game` for the player to
/// move: what they will still capture minus what the opponent will, with
/// best play to the end (the stores and the target do not count; the
/// no-capture count does). Read from the layers when they hold the board,
/// else searched above them within `nodes` expanded boards (0: no limit).
/// Writes `*solved` = 1 and the value to `*value` when it was found, else
/// `*solved` = 0 (the budget ran out) and leaves `*value` alone.
///
/// `AYO_RESULT_DATABASE_RULES_MISMATCH` when the game's rules are not the
/// databases' (the target does not count), with the detail in
/// `ayo_database_last_error`; nothing is written then.
///
/// Thread safety: reads `database` and `game`; may run concurrently with
/// any other call on them except their `_free` and calls that change `game`.
///
/// # Safety
/// `database` and `game` NULL or live; `solved` and `value` NULL or valid
/// for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_counted_database_value(
    database: *const ayo_counted_database,
    game: *const ayo_game,
    nodes: u64,
    solved: *mut u8,
    value: *mut i32,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { value_handle(database, game, nodes, solved, value) })
}

/// Makes a `perfect` player over counted databases: every legal move's
/// exact value (board and no-capture count) read from them or searched
/// above them within the budget, the best played; `ayo_player_analyze`
/// gives proven values. Other rules, or a budget that runs out: level `max`,
/// and `ayo_player_last_source` says so. Budget, seed and ownership as for
/// `ayo_player_new_perfect`; the name is `"perfect(counted db<=N, …)"`.
///
/// Thread safety: reads `database`.
///
/// # Safety
/// `database` NULL or live; `out_player` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_new_perfect_counted(
    database: *const ayo_counted_database,
    budget_kind: BudgetKindArg,
    amount: u64,
    seed: u64,
    out_player: *mut *mut ayo_player,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard(|| unsafe { new_perfect_handle(database, budget_kind, amount, seed, out_player) })
}
