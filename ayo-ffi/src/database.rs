//! The endgame-database handle (`ayo_solve::Database`) and the `perfect`
//! computer player (`ayo_solve::perfect::Perfect`).
//!
//! Only translation: building, loading, checking and every value are
//! `ayo-solve`'s. A database is immutable once made, so the handle holds it in
//! an `Arc` that `perfect` players share.
//!
//! The bodies are written once for both kinds of databases, over
//! `ayo_solve::tablebase::Tablebase` ([`DatabaseHandle`]): the
//! `ayo_database_*` functions here and the `ayo_counted_database_*` ones
//! (`counted.rs`) each only pass their handle type on, inside their own
//! panic boundary.

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use ayo_solve::perfect::Source;
use ayo_solve::perfect::{PerfectKind, PerfectPlayer};
use ayo_solve::search::Search;
use ayo_solve::tablebase::Tablebase;
use ayo_solve::threads::{run_on_threads, PoolError};
use ayo_solve::Database;

use crate::game::ayo_game;
use crate::player::{ayo_player, budget, BudgetKindArg};
use crate::result::ayo_result;
use crate::rules::ayo_rules;
use crate::util::{free_box, guard, guard_detail, in_str, need, out, query, write_str, Fail};

/// The largest `max_seeds` of `ayo_database_build` (the file format's limit;
/// in practice the time and memory a layer takes set a lower one: layer 24
/// alone holds 417,225,900 boards).
pub const AYO_MAX_DATABASE_SEEDS: u32 = 40;
/// The most threads `ayo_database_build` and `ayo_database_verify` accept
/// (0 means one per core), as in Rust (`ayo_core::threads::MAX_THREADS`) and
/// Python.
pub const AYO_MAX_THREADS: u32 = 1024;

const _: () = assert!(AYO_MAX_THREADS as usize == ayo_core::threads::MAX_THREADS);
const _: () = assert!(AYO_MAX_DATABASE_SEEDS as usize == ayo_solve::MAX_DATABASE_SEEDS);

/// Endgame databases (opaque): the exact value of every board of
/// 0..=`max_seeds` seeds under one rule set, loaded into memory
/// (`ayo_solve::Database`; `docs/solving.md` says what the values mean).
///
/// Made by `ayo_database_open` or `ayo_database_build`; owned by the caller,
/// who releases it with `ayo_database_free` exactly once. The databases never
/// change once made: every function taking a database reads it, so any number
/// of threads may use one handle at once. A `perfect` player made from it
/// (`ayo_player_new_perfect`) shares the databases rather than borrowing the
/// handle: the handle may be freed before or after its players.
pub struct ayo_database {
    db: Arc<Database>,
}

impl DatabaseHandle for ayo_database {
    type Db = Database;
    const MAX_SEEDS: u32 = AYO_MAX_DATABASE_SEEDS;

    fn wrap(db: Arc<Database>) -> Self {
        ayo_database { db }
    }

    fn db(&self) -> &Arc<Database> {
        &self.db
    }
}

/// The C handle of one kind of databases: what the bodies written once
/// over both kinds need of it.
pub(crate) trait DatabaseHandle: Sized {
    /// The databases it holds.
    type Db: PerfectKind;
    /// The largest `max_seeds` (the header's constant for this kind).
    const MAX_SEEDS: u32;
    /// A handle holding `db`.
    fn wrap(db: Arc<Self::Db>) -> Self;
    /// The databases held.
    fn db(&self) -> &Arc<Self::Db>;
}

/// `*out_database` = a new handle of `H` holding `db`, owned by the caller.
///
/// # Safety
/// `out_database` checked non-NULL and valid for a write.
unsafe fn out_handle<H: DatabaseHandle>(out_database: *mut *mut H, db: H::Db) {
    let handle = Box::into_raw(Box::new(H::wrap(Arc::new(db))));
    // SAFETY: the caller's contract.
    unsafe { out(out_database, handle) };
}

/// The handle behind `database`, or the NULL failure.
///
/// # Safety
/// `database` NULL or live.
unsafe fn handle_ref<'a, H>(database: *const H) -> Result<&'a H, Fail> {
    // SAFETY: the caller's contract.
    unsafe { database.as_ref() }.ok_or_else(|| Fail::null("database"))
}

/// The body of `ayo_database_build` and `ayo_counted_database_build`.
///
/// # Safety
/// As for those functions.
pub(crate) unsafe fn build_handle<H: DatabaseHandle>(
    rules: *const ayo_rules,
    max_seeds: u32,
    dir: *const c_char,
    threads: u32,
    out_database: *mut *mut H,
) -> Result<(), Fail> {
    let rules = rules_ref(rules)?.rules;
    // SAFETY: the caller's contract.
    let dir = unsafe { in_str(dir, "dir") }?;
    need(out_database, "out_database")?;
    check_max_seeds(max_seeds, H::MAX_SEEDS)?;
    let (db, _reports) = on_threads(threads, || {
        H::Db::build(&rules, max_seeds as usize, Some(Path::new(dir)), true)
    })??;
    // SAFETY: checked non-NULL; valid by the caller's contract.
    unsafe { out_handle(out_database, db) };
    Ok(())
}

/// The body of `ayo_database_open` (`max_seeds` `None`: every layer found),
/// `ayo_database_open_up_to` and `ayo_counted_database_open`.
///
/// # Safety
/// As for those functions.
pub(crate) unsafe fn open_handle<H: DatabaseHandle>(
    rules: *const ayo_rules,
    dir: *const c_char,
    max_seeds: Option<u32>,
    out_database: *mut *mut H,
) -> Result<(), Fail> {
    let r = rules_ref(rules)?;
    // SAFETY: the caller's contract.
    let dir = unsafe { in_str(dir, "dir") }?;
    need(out_database, "out_database")?;
    let db = match max_seeds {
        Some(n) => {
            check_max_seeds(n, H::MAX_SEEDS)?;
            H::Db::open(&r.rules, n as usize, Path::new(dir))?
        }
        None => H::Db::open_all(&r.rules, Path::new(dir))?,
    };
    // SAFETY: checked non-NULL; valid by the caller's contract.
    unsafe { out_handle(out_database, db) };
    Ok(())
}

/// The body of `ayo_database_max_seeds` and `ayo_counted_database_max_seeds`.
///
/// # Safety
/// As for those functions.
pub(crate) unsafe fn max_seeds_of<H: DatabaseHandle>(
    database: *const H,
    max_seeds: *mut u32,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(database, "database", max_seeds, "max_seeds", |d| {
            Ok(d.db().max_seeds() as u32)
        })
    }
}

/// The body of `ayo_database_verify` and `ayo_counted_database_verify`.
///
/// # Safety
/// As for those functions.
pub(crate) unsafe fn verify_handle<H: DatabaseHandle>(
    database: *const H,
    threads: u32,
    checked: *mut u64,
    failed: *mut u64,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract.
    let d = unsafe { handle_ref(database) }?;
    need(checked, "checked")?;
    need(failed, "failed")?;
    let db = d.db();
    let report = on_threads(threads, || H::Db::checked(&db.verify_layers(0, true)))?;
    // SAFETY: checked non-NULL; valid by the caller's contract.
    unsafe {
        out(checked, report.checked);
        out(failed, report.failed);
    }
    Ok(())
}

/// The handle and the game of a call that reads a position, checked: both
/// live, the game played by the databases' rules.
///
/// # Safety
/// `database` and `game` NULL or live.
unsafe fn handle_and_game<'a, H: DatabaseHandle>(
    database: *const H,
    game: *const ayo_game,
) -> Result<(&'a H, &'a ayo_core::Game), Fail> {
    // SAFETY: the caller's contract.
    let d = unsafe { handle_ref(database) }?;
    // SAFETY: NULL or live, by the caller's contract.
    let g = unsafe { game.as_ref() }
        .map(ayo_game::core)
        .ok_or_else(|| Fail::null("game"))?;
    Ok((d, g))
}

/// The body of `ayo_database_bounds`.
///
/// # Safety
/// As for that function.
pub(crate) unsafe fn bounds_handle<H: DatabaseHandle>(
    database: *const H,
    game: *const ayo_game,
    held: *mut u8,
    lo: *mut i32,
    hi: *mut i32,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract.
    let (d, g) = unsafe { handle_and_game(database, game) }?;
    need(held, "held")?;
    need(lo, "lo")?;
    need(hi, "hi")?;
    same_rules(g, &**d.db())?;
    let bounds = d.db().bounds(g.position());
    // SAFETY: held, lo and hi non-NULL; valid by the caller's contract.
    unsafe {
        out(held, u8::from(bounds.is_some()));
        if let Some((l, h)) = bounds {
            out(lo, l);
            out(hi, h);
        }
    }
    Ok(())
}

/// The body of `ayo_counted_database_value`: the exact search over the
/// handle's kind within `nodes` (0: no limit).
///
/// # Safety
/// As for that function.
pub(crate) unsafe fn value_handle<H: DatabaseHandle>(
    database: *const H,
    game: *const ayo_game,
    nodes: u64,
    solved: *mut u8,
    value: *mut i32,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract.
    let (d, g) = unsafe { handle_and_game(database, game) }?;
    need(solved, "solved")?;
    need(value, "value")?;
    same_rules(g, &**d.db())?;
    let mut search = Search::over(Arc::clone(d.db()));
    let v = search.value_within(g.position(), (nodes > 0).then_some(nodes))?;
    // SAFETY: solved and value non-NULL; valid by the caller's contract.
    unsafe {
        out(solved, u8::from(v.is_some()));
        if let Some(v) = v {
            out(value, v);
        }
    }
    Ok(())
}

/// The body of `ayo_player_new_perfect` and `ayo_player_new_perfect_counted`.
///
/// # Safety
/// As for those functions.
pub(crate) unsafe fn new_perfect_handle<H: DatabaseHandle>(
    database: *const H,
    budget_kind: BudgetKindArg,
    amount: u64,
    seed: u64,
    out_player: *mut *mut ayo_player,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract.
    let d = unsafe { handle_ref(database) }?;
    need(out_player, "out_player")?;
    let budget = budget(budget_kind, amount)?;
    let player = PerfectPlayer::over(Arc::clone(d.db()), budget, seed);
    // SAFETY: checked non-NULL; valid by the caller's contract.
    unsafe { out(out_player, ayo_player::boxed(player)) };
    Ok(())
}

thread_local! {
    /// The detail of the last database call that failed on this thread
    /// (`ayo_database_last_error`); empty after one that succeeded.
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs a database call inside the panic boundary and keeps its failure
/// detail for the calling thread (`ayo_database_last_error`).
pub(crate) fn guard_database(f: impl FnOnce() -> Result<(), Fail>) -> ayo_result {
    let (code, detail) = guard_detail(f);
    // Inside the panic boundary too. A thread being torn down has no
    // storage left; the code still tells.
    let recorded = catch_unwind(AssertUnwindSafe(|| {
        let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = detail);
    }));
    recorded.map_or(ayo_result::Panic, |()| code)
}

/// Writes the detail of the last failed `ayo_database_open`,
/// `ayo_database_open_up_to`, `ayo_database_build`, `ayo_database_verify`,
/// `ayo_database_bounds` or `ayo_counted_database_` function
/// called on this thread (which file, and what is wrong with it) into `buf`;
/// the empty string when the last of them on this thread succeeded or none
/// was called. Text out-parameter convention as for `ayo_result_message`.
///
/// Thread safety: may be called from any thread at any time; each thread
/// has its own detail, so threads opening databases at once do not see each
/// other's.
///
/// # Safety
/// `buf` NULL or valid for `len` bytes; `written` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_last_error(
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

/// Where a `perfect` player's last answer came from (`ayo_player_last_source`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_perfect_source {
    /// Nothing asked yet, or the game was over.
    None = 0,
    /// Every move's exact value was read from the databases.
    Database = 1,
    /// Exact values found by searching above the databases (within the budget).
    Search = 2,
    /// The rules are not the databases' (e.g. `oware`), or the search ran out
    /// of budget: the move came from level `max` (from alpha-beta with the
    /// same wall time under a time budget), and the values are heuristic.
    Fallback = 3,
}

impl From<Source> for ayo_perfect_source {
    fn from(s: Source) -> ayo_perfect_source {
        match s {
            Source::None => ayo_perfect_source::None,
            Source::Database => ayo_perfect_source::Database,
            Source::Search => ayo_perfect_source::Search,
            Source::Fallback => ayo_perfect_source::Fallback,
        }
    }
}

/// Runs `f` on a rayon pool of `threads` threads (0: one per core), by the
/// rule of `ayo_core::threads`.
pub(crate) fn on_threads<T: Send>(threads: u32, f: impl FnOnce() -> T + Send) -> Result<T, Fail> {
    run_on_threads(Some(threads.into()), f).map_err(|e| {
        let code = match e {
            PoolError::Threads(_) => ayo_result::InvalidArgument,
            PoolError::Start { .. } => ayo_result::DatabaseIo,
        };
        Fail::new(code, e.to_string())
    })
}

/// The one check of a `max_seeds` argument: 0 to `most` (the kind of
/// database's limit).
pub(crate) fn check_max_seeds(max_seeds: u32, most: u32) -> Result<(), Fail> {
    if max_seeds > most {
        return Err(Fail::new(
            ayo_result::InvalidArgument,
            format!("max_seeds is 0 to {most}, not {max_seeds}"),
        ));
    }
    Ok(())
}

/// Loads the endgame databases of `rules` from the directory `dir`: every
/// consecutive layer file `0, 1, 2, …` of these rules found there (the files
/// `ayo_database_build` and the `ayo-solve build` command write; the rules'
/// target does not matter). Each file is checked whole (magic, format
/// version, rules, layer, size and both checksums) before it is used. On
/// success `*out_database` is a new handle owned by the caller (free it with
/// `ayo_database_free`).
///
/// `AYO_RESULT_DATABASE_UNSUPPORTED_RULES` for rules with a move limit
/// (e.g. the `ayo` and `olopon` presets);
/// `AYO_RESULT_DATABASE_MISSING` when `dir` holds no layer 0 for these rules,
/// or when a layer is missing below the highest layer file found (layer 5
/// deleted from 0..=8: an error naming the missing file and the layers
/// found, never a database that silently stops at 4 seeds);
/// `AYO_RESULT_DATABASE_DAMAGED` when a layer file is damaged or does not
/// match; `AYO_RESULT_DATABASE_IO` when a file cannot be read;
/// `AYO_RESULT_DATABASE_OUT_OF_MEMORY` when the layers do not fit in memory
/// (nothing is kept);
/// `AYO_RESULT_INVALID_UTF8` when `dir` is not UTF-8. On failure
/// `ayo_database_last_error` (on the same thread) says which file and what
/// is wrong; after a success it is empty.
///
/// Thread safety: reads `rules`; may run concurrently with other read-only
/// calls on it, so several threads may open databases with one rules
/// handle. Loading reads the whole of every file in the calling thread.
///
/// # Safety
/// `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_open(
    rules: *const ayo_rules,
    dir: *const c_char,
    out_database: *mut *mut ayo_database,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { open_handle(rules, dir, None, out_database) })
}

/// Checks that `game` is played by the rules of `db` (any target).
fn same_rules<T: Tablebase>(game: &ayo_core::Game, db: &T) -> Result<(), Fail> {
    if db.plays(game.rules()) {
        return Ok(());
    }
    Err(Fail::new(
        ayo_result::DatabaseRulesMismatch,
        format!(
            "the game is played by `{}`, these databases are for `{}`",
            game.rules(),
            db.key()
        ),
    ))
}

pub(crate) fn rules_ref<'a>(rules: *const ayo_rules) -> Result<&'a ayo_rules, Fail> {
    // SAFETY: every caller passes on its own C caller's pointer, which must be
    // NULL or a live handle not being mutated concurrently.
    unsafe { rules.as_ref() }.ok_or_else(|| Fail::null("rules"))
}

/// Loads exactly the layers 0..=`max_seeds` of `rules` from `dir`, as
/// `ayo_database_open` does every layer found: each file is checked whole,
/// and layers above `max_seeds` are not read (so a database whose layer
/// files stop, or have a gap, above `max_seeds` opens). On success
/// `*out_database` is a new handle owned by the caller.
///
/// `AYO_RESULT_INVALID_ARGUMENT` for `max_seeds` above
/// `AYO_MAX_DATABASE_SEEDS`; `AYO_RESULT_DATABASE_MISSING` when a layer
/// 0..=`max_seeds` has no file (the detail names it); otherwise the codes of
/// `ayo_database_open`, with the detail in `ayo_database_last_error`.
///
/// Thread safety: reads `rules`, as `ayo_database_open`.
///
/// # Safety
/// `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_open_up_to(
    rules: *const ayo_rules,
    dir: *const c_char,
    max_seeds: u32,
    out_database: *mut *mut ayo_database,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { open_handle(rules, dir, Some(max_seeds), out_database) })
}

/// Builds the endgame databases of `rules` for every board of 0 to
/// `max_seeds` seeds into the directory `dir` (created if needed) and loads
/// them: one file per layer, each written through a temporary file renamed
/// into place. Building is resumable: a layer whose file is already there
/// and checks out is read instead of built again, so a build that was
/// stopped can be run again; a file that exists but does not check out is
/// refused with its error (`AYO_RESULT_DATABASE_DAMAGED`), never
/// overwritten. Nothing is printed. On success `*out_database` is a new
/// handle owned by the caller (free it with `ayo_database_free`).
///
/// Cost: layer `n` holds C(n + 11, 11) boards, one byte each, and takes
/// about ten times that in working memory while it is built; up to 8 seeds
/// takes a fraction of a second, up to 20 about two minutes, up to 24 about
/// seven minutes and 10 GiB on two cores (see `docs/solving.md`). The build runs on a pool of `threads` threads of its
/// own (0: one per core, at most `AYO_MAX_THREADS`) and returns when it is
/// done.
///
/// `AYO_RESULT_INVALID_ARGUMENT` for `max_seeds` above
/// `AYO_MAX_DATABASE_SEEDS` or too many threads;
/// `AYO_RESULT_DATABASE_OUT_OF_MEMORY` when a layer, its move graph or its
/// bounds cannot be allocated (the detail names the bytes and what for; the
/// layers finished before are kept in `dir`, so a build with a smaller
/// `max_seeds` or more memory resumes from them); otherwise the codes of
/// `ayo_database_open` (`AYO_RESULT_DATABASE_IO` also when the directory or
/// a file cannot be created or written, or the threads cannot be started),
/// with the detail in `ayo_database_last_error`.
///
/// Thread safety: reads `rules`, as `ayo_database_open`. Two builds must
/// not write the same directory at once.
///
/// # Safety
/// `rules` NULL or live; `dir` NULL or NUL-terminated; `out_database` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_build(
    rules: *const ayo_rules,
    max_seeds: u32,
    dir: *const c_char,
    threads: u32,
    out_database: *mut *mut ayo_database,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { build_handle(rules, max_seeds, dir, threads, out_database) })
}

/// Releases a database handle. `ayo_database_free(NULL)` does nothing.
/// Players made from it keep the databases (they are freed with the last of
/// them).
///
/// Thread safety: needs `database` exclusively; no other call may use it
/// during or after this one. Its players may go on being used on other
/// threads meanwhile.
///
/// # Safety
/// `database` must be NULL or a live handle from this library, not freed
/// before.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_free(database: *mut ayo_database) {
    // SAFETY: the caller's contract.
    unsafe { free_box(database) }
}

/// Writes the largest seed count whose boards the databases hold to
/// `*max_seeds` (every board of 0..=`*max_seeds` seeds has its value).
///
/// Thread safety: reads `database`; may run concurrently with any other call
/// on it except `ayo_database_free`.
///
/// # Safety
/// `database` NULL or live; `max_seeds` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_max_seeds(
    database: *const ayo_database,
    max_seeds: *mut u32,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { max_seeds_of(database, max_seeds) }
}

/// Re-checks every stored value against the values of its successors
/// (`ayo_solve::Database::verify`): a value that does not depend on endless
/// play must equal the best move's exactly, one scored by the cycle
/// convention must lie within its bounds. Writes the number of boards
/// checked to `*checked` and the number that failed to `*failed` (0 for
/// sound databases). Takes about as long as loading and reading every
/// successor of every board once; runs on a pool of `threads` threads of its
/// own (0: one per core, at most `AYO_MAX_THREADS`, else
/// `AYO_RESULT_INVALID_ARGUMENT`, with the detail in
/// `ayo_database_last_error`).
///
/// Thread safety: reads `database`; may run concurrently with any other call
/// on it except `ayo_database_free`.
///
/// # Safety
/// `database` NULL or live; `checked` and `failed` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_verify(
    database: *const ayo_database,
    threads: u32,
    checked: *mut u64,
    failed: *mut u64,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { verify_handle(database, threads, checked, failed) })
}

/// The bounds of the current position of `game` under every scoring of
/// play that never ends (`ayo_solve::Database::bounds`), for the player to
/// move: `*lo` is what they can force by play that ends (endless play
/// counted as their worst), `*hi` what the opponent can hold them to
/// (endless play counted as their best), in seeds still to capture minus the
/// opponent's; the stores do not count. `lo == hi` means the databases'
/// value is exact whatever endless play is worth. Writes `*held` = 1 when
/// the databases hold the board, else 0 (its seeds are at most
/// `ayo_database_max_seeds`); `*lo` and `*hi` only when they do.
///
/// `AYO_RESULT_DATABASE_RULES_MISMATCH` when the game's rules are not the
/// databases' (the target does not count), with the detail in
/// `ayo_database_last_error`; nothing is written then.
///
/// Thread safety: reads `database` and `game`; may run concurrently with
/// any other call on them except their `_free` and calls that change `game`.
///
/// # Safety
/// `database` and `game` NULL or live; `held`, `lo` and `hi` NULL or valid
/// for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_database_bounds(
    database: *const ayo_database,
    game: *const ayo_game,
    held: *mut u8,
    lo: *mut i32,
    hi: *mut i32,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard_database(|| unsafe { bounds_handle(database, game, held, lo, hi) })
}

/// Makes a `perfect` player over `database`: for each move it reads the
/// exact value of every legal move from the databases when they hold the
/// board, searches exactly above them otherwise, and plays the best (ties
/// go to moves whose value does not depend on endless play, then to
/// positions not yet seen in the game, then to larger captures, then to the
/// lowest pit); `ayo_player_analyze` then gives exact values (bound
/// `AYO_BOUND_EXACT`, `proven` 1, `final_difference` the stores' difference
/// plus the future captures). When the game's rules are not the databases'
/// (any target is fine) or the search runs out of budget, it plays as level
/// `max` and says so (`ayo_player_last_source`). Under a repetition rule
/// (`oware`) the values are the game's under that rule, the game's history
/// deciding which position repeats (a game-tree search down to the
/// databases), and proven wherever the search closes.
///
/// The budget per move is `amount` units of `budget_kind`, checked as for
/// `ayo_player_new_kind` (`AYO_RESULT_BAD_BUDGET`): nodes count the boards
/// expanded above the databases (under a repetition rule, the positions
/// the search expands); milliseconds are wall time (the fallback
/// is then alpha-beta with that time); a depth budget means 2,000,000 nodes.
/// `seed` seeds the fallback. On success `*out_player` is a new handle owned
/// by the caller (free it with `ayo_player_free`); `ayo_player_choose`,
/// `ayo_player_analyze`, `ayo_player_name` (`"perfect(db<=8, nodes=…)"`)
/// and the other player functions work on it as on any player.
///
/// The player shares the databases: `database` may be freed at any time
/// afterwards, and several players (on several threads) may share them.
///
/// Thread safety: reads `database`; may run concurrently with any other call
/// on it except `ayo_database_free`.
///
/// # Safety
/// `database` NULL or live; `out_player` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_new_perfect(
    database: *const ayo_database,
    budget_kind: BudgetKindArg,
    amount: u64,
    seed: u64,
    out_player: *mut *mut ayo_player,
) -> ayo_result {
    // SAFETY: the caller's contract.
    guard(|| unsafe { new_perfect_handle(database, budget_kind, amount, seed, out_player) })
}

/// Writes where a `perfect` player's last `ayo_player_choose` or
/// `ayo_player_analyze` got its answer to `*source`: the databases, the
/// exact search, or the level-`max` fallback (`AYO_PERFECT_SOURCE_NONE`
/// before the first call and after a call on a game that was over).
///
/// `AYO_RESULT_NOT_PERFECT` for a player not made by
/// `ayo_player_new_perfect`; `AYO_RESULT_PLAYER_BROKEN` after the player
/// panicked.
///
/// Thread safety: reads `player`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `player` NULL or live; `source` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_last_source(
    player: *const ayo_player,
    source: *mut ayo_perfect_source,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(player, "player", source, "source", |p| {
            let source = p.last_source().ok_or_else(|| {
                Fail::new(
                    ayo_result::NotPerfect,
                    "this player was not made by ayo_player_new_perfect or ayo_player_new_perfect_counted",
                )
            })?;
            if p.is_broken() {
                return Err(Fail::new(
                    ayo_result::PlayerBroken,
                    "this player panicked in an earlier call",
                ));
            }
            Ok(source.into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ayo_game, ayo_game_free, ayo_game_load_position, ayo_game_new};
    use crate::player::{ayo_analysis, ayo_player_analyze, ayo_player_free, ayo_player_new_level};
    use crate::rules::{ayo_rules_free, ayo_rules_new_preset};
    use ayo_core::players::{Agent, Budget};
    use ayo_core::{Game, Rules};
    use ayo_solve::perfect::Perfect;
    use ayo_solve::DbError;
    use std::ffi::{CStr, CString};
    use std::path::PathBuf;
    use std::ptr::null_mut;

    fn rules(preset: &CStr) -> *mut ayo_rules {
        let mut r = null_mut();
        assert_eq!(
            unsafe { ayo_rules_new_preset(preset.as_ptr(), &mut r) },
            ayo_result::Ok
        );
        r
    }

    fn last_error() -> String {
        let mut buf = [0 as c_char; 512];
        let mut n = 0;
        assert_eq!(
            unsafe { ayo_database_last_error(buf.as_mut_ptr(), buf.len(), &mut n) },
            ayo_result::Ok
        );
        unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    }

    /// A fresh directory under the system's temporary directory.
    struct TempDir(PathBuf);
    impl TempDir {
        fn new(name: &str) -> TempDir {
            let p = std::env::temp_dir().join(format!("ayo-ffi-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            TempDir(p)
        }
        fn c(&self) -> CString {
            CString::new(self.0.to_str().unwrap()).unwrap()
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn db_errors_have_their_codes() {
        let p = PathBuf::from("x.ayodb");
        let cases = [
            (
                DbError::UnsupportedRules { why: "w".into() },
                ayo_result::DatabaseUnsupportedRules,
            ),
            (
                DbError::Missing {
                    path: p.clone(),
                    n: 0,
                },
                ayo_result::DatabaseMissing,
            ),
            (
                DbError::BadMagic { path: p.clone() },
                ayo_result::DatabaseDamaged,
            ),
            (
                DbError::DataChecksum { path: p.clone() },
                ayo_result::DatabaseDamaged,
            ),
            (
                DbError::Io {
                    path: p.clone(),
                    source: std::io::Error::other("disk"),
                },
                ayo_result::DatabaseIo,
            ),
            (
                DbError::LayerTooLarge { n: 99, max: 40 },
                ayo_result::InvalidArgument,
            ),
            (
                DbError::LayerGap {
                    path: p.clone(),
                    n: 5,
                    found: "0..=4, 6..=8".into(),
                },
                ayo_result::DatabaseMissing,
            ),
            (
                DbError::OutOfMemory {
                    bytes: 1 << 30,
                    what: "the values of layer 24".into(),
                },
                ayo_result::DatabaseOutOfMemory,
            ),
        ];
        for (e, code) in cases {
            // The core's text, with its ranges in C words.
            let text = crate::errors::c_words(&e);
            let fail = Fail::from(e);
            assert_eq!((fail.code, fail.message), (code, text));
        }
        let gap = DbError::LayerGap {
            path: p.clone(),
            n: 5,
            found: "0..=4, 6..=8".into(),
        };
        assert!(Fail::from(gap)
            .message
            .contains("(layers found: 0 to 4, 6 to 8)"));
        for r in ayo_result::ALL {
            assert_eq!(ayo_result::from_code(r as i32), Some(r));
            let name = unsafe { CStr::from_ptr(crate::messages::ayo_result_name(r as i32)) };
            assert!(name.to_str().unwrap().starts_with("AYO_RESULT_"));
            assert!(!r.message().is_empty());
        }
        let codes: Vec<i32> = ayo_result::ALL.iter().map(|&r| r as i32).collect();
        assert!(
            codes.windows(2).all(|w| w[0] < w[1]),
            "ALL is sorted, no number twice"
        );
    }

    #[test]
    fn build_open_and_play_as_rust_does() {
        let dir = TempDir::new("db");
        let r = rules(c"ayoayo");
        let mut built = null_mut();
        let mut opened = null_mut();
        let d = dir.c();
        assert_eq!(
            unsafe { ayo_database_open(r, d.as_ptr(), &mut opened) },
            ayo_result::DatabaseMissing
        );
        assert!(
            last_error().contains("no database layer"),
            "{}",
            last_error()
        );
        assert_eq!(
            unsafe { ayo_database_build(r, 6, d.as_ptr(), 1, &mut built) },
            ayo_result::Ok
        );
        assert_eq!(last_error(), "");
        assert_eq!(
            unsafe { ayo_database_open(r, d.as_ptr(), &mut opened) },
            ayo_result::Ok
        );
        let mut max = 0u32;
        assert_eq!(
            unsafe { ayo_database_max_seeds(opened, &mut max) },
            ayo_result::Ok
        );
        assert_eq!(max, 6);
        let (mut checked, mut failed) = (0u64, 1u64);
        assert_eq!(
            unsafe { ayo_database_verify(built, 1, &mut checked, &mut failed) },
            ayo_result::Ok
        );
        assert_eq!((checked, failed), (18_564, 0)); // C(18, 12) boards of 0..=6 seeds
        let mut p = null_mut();
        assert_eq!(
            unsafe { ayo_player_new_perfect(opened, BudgetKindArg(1), 100_000, 3, &mut p) },
            ayo_result::Ok
        );
        unsafe {
            ayo_database_free(opened);
            ayo_database_free(built);
        }
        let rust_rules = Rules::preset("ayoayo").unwrap();
        let db = Database::open_all(&rust_rules, &dir.0).unwrap();
        let mut rust = Perfect::new(db, Budget::Nodes(100_000), 3);
        let text = c"ayoayo 0,0,0,0,1,0/2,0,0,1,0,0 23-21 s 0 30";
        let mut g: *mut ayo_game = null_mut();
        unsafe {
            assert_eq!(ayo_game_new(r, &mut g), ayo_result::Ok);
            assert_eq!(ayo_game_load_position(g, text.as_ptr()), ayo_result::Ok);
        }
        let game = Game::from_record(&format!("{} |", text.to_str().unwrap())).unwrap();
        let mut a = std::mem::MaybeUninit::<ayo_analysis>::uninit();
        let mut pv = [0u8; 64];
        let mut len = 0usize;
        assert_eq!(
            unsafe { ayo_player_analyze(p, g, a.as_mut_ptr(), pv.as_mut_ptr(), 64, &mut len) },
            ayo_result::Ok
        );
        let a = unsafe { a.assume_init() };
        let want = rust.analyze(&game);
        assert_eq!(a.best, want.best.unwrap().relative_pit());
        assert_eq!(a.value.centiseeds, want.value.0);
        let mut src = ayo_perfect_source::Fallback;
        assert_eq!(
            unsafe { ayo_player_last_source(p, &mut src) },
            ayo_result::Ok
        );
        assert_eq!(src, rust.last_source().into());
        assert_eq!(src, ayo_perfect_source::Database);
        // Other players are not perfect.
        let mut level = null_mut();
        assert_eq!(
            unsafe { ayo_player_new_level(c"2".as_ptr(), 0, &mut level) },
            ayo_result::Ok
        );
        assert_eq!(
            unsafe { ayo_player_last_source(level, &mut src) },
            ayo_result::NotPerfect
        );
        unsafe {
            ayo_player_free(level);
            ayo_player_free(p);
            ayo_game_free(g);
            ayo_rules_free(r);
        }
        // Rules with a move limit cannot be solved by board-only layers.
        let o = rules(c"olopon");
        let mut none = null_mut();
        assert_eq!(
            unsafe { ayo_database_build(o, 2, d.as_ptr(), 1, &mut none) },
            ayo_result::DatabaseUnsupportedRules
        );
        assert!(last_error().contains("move limit"), "{}", last_error());
        assert!(none.is_null());
        unsafe { ayo_rules_free(o) };
    }
}
