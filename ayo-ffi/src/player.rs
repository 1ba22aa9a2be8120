//! The computer-player handle: a level or a kind with a budget, `choose` and
//! `analyze` (`ayo_core::players`).
//!
//! Only translation: every choice and every value is the Rust player's. The
//! player sees the `ayo_game` handle's own `ayo_core::Game` (history
//! included, for repetition), exactly as a Rust caller would.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

use ayo_core::players::{
    self, Agent, Analysis, Basis, Bound, Budget, Kind, Level, MoveValue, Proof, Value,
};
use ayo_core::{Game, Status};
use ayo_solve::engine::Engine;
use ayo_solve::perfect::Source;

use crate::game::ayo_game;
use crate::result::ayo_result;
use crate::util::{
    free_box, guard, guard_mut, in_str, need, out, text_query, write_array, Fail, HasLastError,
    LastError,
};
use crate::AYO_MAX_LEGAL_MOVES;

/// The number of playing levels (`"1"`..`"8"` and `"max"`; see `ayo_level_name`).
pub const AYO_LEVEL_COUNT: usize = 9;
/// Hundredths of a seed in one seed: `ayo_value.centiseeds` is in these units.
pub const AYO_VALUE_SEED: i32 = 100;
/// The offset of a proven win in `ayo_value.centiseeds` (a proven loss is
/// below `-AYO_VALUE_WIN`), so that any win ranks above any heuristic score.
pub const AYO_VALUE_WIN: i32 = 1_000_000;
/// The longest time budget, in milliseconds (one day).
pub const AYO_MAX_BUDGET_MS: u64 = 86_400_000;
/// The largest node budget (a billion positions, simulations or expanded
/// boards).
pub const AYO_MAX_BUDGET_NODES: u64 = 1_000_000_000;

/// A computer player (opaque): a random, greedy, alpha-beta, MCTS or
/// `perfect` (endgame databases and exact search) player with its budget, seed and search state (random number generator,
/// transposition table), the analysis of its last `ayo_player_analyze`, and
/// the detail of its last failed call (`ayo_player_last_error`).
///
/// Made by `ayo_player_new_level`, `ayo_player_new_kind` or
/// `ayo_player_new_perfect`; owned by the caller, who releases it with
/// `ayo_player_free` exactly once. A player never refers to a game: it reads
/// the game passed to each call during that call only. A perfect player
/// shares the databases of the `ayo_database` it was made from (they stay
/// alive as long as the player, whenever the database handle is freed).
///
/// Determinism: two players made alike (same level, or same kind, budget and
/// seed) and shown the same sequence of games make the same choices, the same
/// as the Rust player `ayo_core::players` builds with that seed. Depth and
/// node budgets are reproducible on every machine; a time budget is not.
pub struct ayo_player {
    engine: Engine,
    /// A panic inside the search left the agent in an unknown state.
    broken: bool,
    last_analysis: Option<Analysis>,
    last_error: LastError,
}

impl HasLastError for ayo_player {
    fn last_error_mut(&mut self) -> &mut LastError {
        &mut self.last_error
    }
}

impl ayo_player {
    /// A new handle for `engine` (an agent, or a `Perfect` player).
    pub(crate) fn boxed(engine: impl Into<Engine>) -> *mut ayo_player {
        Box::into_raw(Box::new(ayo_player {
            engine: engine.into(),
            broken: false,
            last_analysis: None,
            last_error: LastError::default(),
        }))
    }

    /// Where the `perfect` player behind this handle (over board or counted
    /// databases) got its last answer, if it is one.
    pub(crate) fn last_source(&self) -> Option<Source> {
        self.engine.last_source()
    }

    /// Whether a panic left the player unusable.
    pub(crate) fn is_broken(&self) -> bool {
        self.broken
    }

    /// Runs `f` on the agent; a panic marks the player broken for good.
    fn run<T>(&mut self, f: impl FnOnce(&mut dyn Agent) -> T) -> Result<T, Fail> {
        if self.broken {
            return Err(Fail::new(
                ayo_result::PlayerBroken,
                "this player panicked in an earlier call and cannot be used; free it and make a new one",
            ));
        }
        let agent = self.engine.agent_mut();
        match catch_unwind(AssertUnwindSafe(|| f(agent))) {
            Ok(v) => Ok(v),
            Err(payload) => {
                self.broken = true;
                std::panic::resume_unwind(payload)
            }
        }
    }
}

/// Allocates what `agent`'s next search in `game` needs (its tables):
/// memory running out is `AYO_RESULT_PLAYER_OUT_OF_MEMORY`, never an abort.
fn prepared(agent: &mut dyn Agent, game: &Game) -> Result<(), Fail> {
    agent
        .prepare(game.rules())
        .map_err(|e| Fail::new(ayo_result::PlayerOutOfMemory, e.to_string()))
}

/// The kinds of computer player, for `ayo_player_new_kind`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_player_kind {
    /// Uniformly random legal moves (ignores the budget).
    Random = 0,
    /// The best immediate seed gain, ties broken by the seed (ignores the budget).
    Greedy = 1,
    /// Negamax alpha-beta with iterative deepening and a transposition table.
    AlphaBeta = 2,
    /// Monte Carlo tree search (UCT with random playouts).
    Mcts = 3,
}

impl ayo_player_kind {
    const ALL: [ayo_player_kind; 4] = [
        ayo_player_kind::Random,
        ayo_player_kind::Greedy,
        ayo_player_kind::AlphaBeta,
        ayo_player_kind::Mcts,
    ];

    fn core(self) -> Kind {
        match self {
            ayo_player_kind::Random => Kind::Random,
            ayo_player_kind::Greedy => Kind::Greedy,
            ayo_player_kind::AlphaBeta => Kind::AlphaBeta,
            ayo_player_kind::Mcts => Kind::Mcts,
        }
    }
}

/// The unit of a budget, for `ayo_player_new_kind`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_budget_kind {
    /// Search this many plies deep (alpha-beta); MCTS runs 1000 × this many
    /// simulations. 1 to `UINT32_MAX`.
    Depth = 0,
    /// Visit at most about this many positions (alpha-beta) or run this many
    /// simulations (MCTS). 1 to `AYO_MAX_BUDGET_NODES`.
    Nodes = 1,
    /// Stop after this many milliseconds of wall time, 1 to
    /// `AYO_MAX_BUDGET_MS` (not reproducible across machines or runs).
    Milliseconds = 2,
}

/// An `ayo_player_kind` as a C caller passes it: any `int`, checked before
/// use (a C enum may hold a number outside its list; a Rust enum may not).
/// The header names it `ayo_player_kind` (see `ayo-ffi/cbindgen.toml`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerKindArg(pub i32);

/// An `ayo_budget_kind` as a C caller passes it, checked before use (as
/// [`PlayerKindArg`]). The header names it `ayo_budget_kind`.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetKindArg(pub i32);

impl From<ayo_player_kind> for PlayerKindArg {
    fn from(k: ayo_player_kind) -> PlayerKindArg {
        PlayerKindArg(k as i32)
    }
}

impl From<ayo_budget_kind> for BudgetKindArg {
    fn from(k: ayo_budget_kind) -> BudgetKindArg {
        BudgetKindArg(k as i32)
    }
}

/// The budget of `budget_kind` and `amount`, checked by
/// `ayo_core::players::Budget` (as the Python binding checks it), with the
/// time in the C caller's unit, milliseconds.
pub(crate) fn budget(budget_kind: BudgetKindArg, amount: u64) -> Result<Budget, Fail> {
    let checked = match budget_kind.0 {
        k if k == ayo_budget_kind::Depth as i32 => Budget::checked_depth(amount.into()),
        k if k == ayo_budget_kind::Nodes as i32 => Budget::checked_nodes(amount.into()),
        k if k == ayo_budget_kind::Milliseconds as i32 => {
            if !(1..=AYO_MAX_BUDGET_MS).contains(&amount) {
                return Err(Fail::new(
                    ayo_result::BadBudget,
                    format!(
                        "a time budget is 1 to {AYO_MAX_BUDGET_MS} milliseconds, not {amount}"
                    ),
                ));
            }
            Budget::checked_time(amount as f64 / 1000.0)
        }
        k => {
            return Err(Fail::new(
                ayo_result::BadBudget,
                format!(
                    "{k} is not a budget kind; expected AYO_BUDGET_KIND_DEPTH (0), _NODES (1) or _MILLISECONDS (2)"
                ),
            ))
        }
    };
    checked.map_err(|e| Fail::new(ayo_result::BadBudget, e.to_string()))
}

/// What a value is as a number: the value itself, a bound or an estimate.
/// Whether it is the game's value is `ayo_value.basis`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_bound {
    /// The value itself, not a bound: the game's value when proven
    /// (`ayo_value.basis` `AYO_BASIS_PROVEN_*`), else the value of a search
    /// cut off at its depth (`AYO_BASIS_SEARCH`), which is not a proof.
    Exact = 0,
    /// The true value is at least this.
    Lower = 1,
    /// The true value is at most this (the move was refuted and not searched further).
    Upper = 2,
    /// A statistical estimate (MCTS: the mean final seed difference of its simulations).
    Estimate = 3,
}

impl From<Bound> for ayo_bound {
    fn from(b: Bound) -> ayo_bound {
        match b {
            Bound::Exact => ayo_bound::Exact,
            Bound::Lower => ayo_bound::Lower,
            Bound::Upper => ayo_bound::Upper,
            Bound::Estimate => ayo_bound::Estimate,
        }
    }
}

/// Where a value comes from (`ayo_value.basis`), and so what it is known to
/// be (`ayo_core::players::Basis`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_basis {
    /// The game's value, proven by the endgame databases.
    ProvenDatabase = 0,
    /// The game's value, proven by a complete search: every line reached a
    /// game end or a database board (a game that is over is its own).
    ProvenSearch = 1,
    /// The value of a search cut off at `ayo_value.search_depth` plies, with
    /// estimates at its horizon: not a proof.
    Search = 2,
    /// A bound on the game's value (`ayo_value.bound` says which side),
    /// proven by a complete search.
    ProvenBound = 3,
    /// A bound on the value of a search to `ayo_value.search_depth` plies.
    SearchBound = 4,
    /// A statistical estimate (MCTS).
    Estimate = 5,
    /// The value under the convention for play that never ends (each player
    /// takes the seeds on their own side), not proven: it depends on how
    /// endless play is scored (level `perfect` over board-only databases).
    Convention = 6,
}

impl From<Basis> for ayo_basis {
    fn from(b: Basis) -> ayo_basis {
        match b {
            Basis::Proven(Proof::Database) => ayo_basis::ProvenDatabase,
            Basis::Proven(Proof::CompleteSearch) => ayo_basis::ProvenSearch,
            Basis::Search { .. } => ayo_basis::Search,
            Basis::Bound { proven: true, .. } => ayo_basis::ProvenBound,
            Basis::Bound { .. } => ayo_basis::SearchBound,
            Basis::Estimate { .. } => ayo_basis::Estimate,
            Basis::Convention => ayo_basis::Convention,
        }
    }
}

/// A value from the point of view of the player to move: the seed difference
/// (own final seeds minus the opponent's).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ayo_value {
    /// The value in hundredths of a seed, as the search orders it (compare
    /// these). A proven end is `AYO_VALUE_WIN` + 100 × the final difference
    /// for a win, `-AYO_VALUE_WIN` + 100 × the final difference for a loss,
    /// and 0 for a draw. `ayo_value_text` writes it in words.
    pub centiseeds: i32,
    /// The seed difference: the final one for a game end the search found
    /// (proven or not), else `centiseeds / 100`.
    pub seeds: f64,
    /// 1 when the value is proven (`basis` `AYO_BASIS_PROVEN_DATABASE` or
    /// `_PROVEN_SEARCH`): `final_difference` is then the final seed
    /// difference with best play (0 for a draw). 0 otherwise, even for a game
    /// end found by a search cut off elsewhere at its depth.
    pub proven: u8,
    /// The final seed difference when `proven` is 1, else 0.
    pub final_difference: i32,
    /// What `centiseeds` is as a number: the value itself, a bound or an estimate.
    pub bound: ayo_bound,
    /// Where the value comes from: proven, a depth-limited search, a bound or
    /// an estimate.
    pub basis: ayo_basis,
    /// The depth of the search the value comes from when it was cut off
    /// (`AYO_BASIS_SEARCH`, `_SEARCH_BOUND`), else 0.
    pub search_depth: u32,
}

impl ayo_value {
    fn new(v: Value, basis: Basis) -> ayo_value {
        let proven = v.proven_by(basis);
        ayo_value {
            centiseeds: v.0,
            seeds: v.seeds(),
            proven: u8::from(proven.is_some()),
            final_difference: proven.unwrap_or(0),
            bound: basis.bound().into(),
            basis: basis.into(),
            search_depth: basis.search_depth().unwrap_or(0),
        }
    }
}

/// One legal move and what the player thinks of it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ayo_move_value {
    /// The move, as the mover's relative pit 1..=6 (as for `ayo_game_play`).
    pub relative_pit: u8,
    /// Its value for the player to move.
    pub value: ayo_value,
}

impl From<&MoveValue> for ayo_move_value {
    fn from(m: &MoveValue) -> ayo_move_value {
        ayo_move_value {
            relative_pit: m.mv.relative_pit(),
            value: ayo_value::new(m.value, m.basis),
        }
    }
}

/// The analysis of a position by a player (`ayo_player_analyze`). The
/// principal variation goes into a caller array beside it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ayo_analysis {
    /// The best move found, as the mover's relative pit 1..=6 (see
    /// `ayo_player_analyze` for when it is the move `ayo_player_choose`
    /// plays); 0 when the game is over or truncated (no legal move).
    pub best: u8,
    /// The value of the position for the player to move (for a game that is
    /// over, the final seed difference, proven; 0 when truncated, not proven).
    pub value: ayo_value,
    /// The length of the principal variation (the moves written to the
    /// caller's `pv` array), which starts with `best`.
    pub pv_len: usize,
    /// How many entries of `moves` are used: the number of legal moves.
    pub moves_count: usize,
    /// Every legal move with its value, in ascending pit order; entries from
    /// `moves_count` on are zero.
    pub moves: [ayo_move_value; AYO_MAX_LEGAL_MOVES],
    /// Plies searched (alpha-beta: the last completed iteration; MCTS: the
    /// deepest tree path; greedy and random: 1; 0 for a game that is over).
    pub depth: u32,
    /// Positions visited (alpha-beta) or simulations run (MCTS).
    pub nodes: u64,
}

impl ayo_analysis {
    fn new(a: &Analysis) -> ayo_analysis {
        let zero = ayo_move_value {
            relative_pit: 0,
            value: ayo_value {
                centiseeds: 0,
                seeds: 0.0,
                proven: 0,
                final_difference: 0,
                bound: ayo_bound::Exact,
                basis: ayo_basis::ProvenDatabase,
                search_depth: 0,
            },
        };
        let mut moves = [zero; AYO_MAX_LEGAL_MOVES];
        for (slot, m) in moves.iter_mut().zip(&a.moves) {
            *slot = m.into();
        }
        ayo_analysis {
            best: a.best.map_or(0, |m| m.relative_pit()),
            value: ayo_value::new(a.value, a.basis),
            pv_len: a.pv.len(),
            moves_count: a.moves.len().min(AYO_MAX_LEGAL_MOVES),
            moves,
            depth: a.depth,
            nodes: a.nodes,
        }
    }
}

fn player_ref<'a>(player: *const ayo_player) -> Result<&'a ayo_player, Fail> {
    // SAFETY: every caller passes on its own C caller's pointer, which must be
    // NULL or a live handle not being mutated concurrently.
    unsafe { player.as_ref() }.ok_or_else(|| Fail::null("player"))
}

fn game_of<'a>(game: *const ayo_game) -> Result<&'a Game, Fail> {
    // SAFETY: as for `player_ref`.
    unsafe { game.as_ref() }
        .map(ayo_game::core)
        .ok_or_else(|| Fail::null("game"))
}

/// Copies an analysis and its principal variation to the caller.
///
/// # Safety
/// `analysis` non-NULL and valid for a write; `pv` NULL or valid for
/// `pv_capacity` writes; `pv_len` non-NULL and valid for a write.
unsafe fn write_analysis(
    a: &Analysis,
    analysis: *mut ayo_analysis,
    pv: *mut u8,
    pv_capacity: usize,
    pv_len: *mut usize,
) -> Result<(), Fail> {
    let line: Vec<u8> = a.pv.iter().map(|m| m.relative_pit()).collect();
    // SAFETY: the caller's contract.
    unsafe { write_array(&line, 0, pv, pv_capacity, pv_len, "pv") }?;
    // SAFETY: the caller's contract.
    unsafe { out(analysis, ayo_analysis::new(a)) };
    Ok(())
}

/// Makes the player of a level: `"1"` (random) to `"8"`, or `"max"` (any
/// case); `ayo_level_name` lists them, `ayo_player_name` says which player
/// and budget each is, and `docs/players.md` has the table. The player takes
/// the level's budget for each game's rules (collect-on-4 games, such as the
/// `ayo` preset, have their own table). On success
/// `*out_player` is a new handle owned by the caller (free it with
/// `ayo_player_free`).
///
/// `AYO_RESULT_UNKNOWN_LEVEL` for any other text (`AYO_RESULT_INVALID_UTF8`
/// when it is not UTF-8).
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `level` NULL or NUL-terminated; `out_player` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_new_level(
    level: *const c_char,
    seed: u64,
    out_player: *mut *mut ayo_player,
) -> ayo_result {
    guard(|| {
        // SAFETY: the caller's contract.
        let text = unsafe { in_str(level, "level") }?;
        need(out_player, "out_player")?;
        let level = Level::from_str(text).map_err(|e| Fail::new(ayo_result::UnknownLevel, e))?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_player, ayo_player::boxed(level.player(seed))) };
        Ok(())
    })
}

/// Makes a player of `kind` (an `ayo_player_kind` value) with a budget of
/// `amount` units of `budget_kind` (an `ayo_budget_kind` value: plies, nodes
/// or milliseconds), seeded by `seed`. Random and greedy players ignore the
/// budget, but it must still be valid. On success `*out_player` is a new
/// handle owned by the caller (free it with `ayo_player_free`).
///
/// `AYO_RESULT_UNKNOWN_PLAYER_KIND` for a `kind` outside the enum;
/// `AYO_RESULT_BAD_BUDGET` for a `budget_kind` outside the enum or an amount
/// out of its range (depth 1..=`UINT32_MAX`, nodes 1..=`AYO_MAX_BUDGET_NODES`,
/// milliseconds 1..=`AYO_MAX_BUDGET_MS`: the limits of every binding).
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `out_player` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_new_kind(
    kind: PlayerKindArg,
    budget_kind: BudgetKindArg,
    amount: u64,
    seed: u64,
    out_player: *mut *mut ayo_player,
) -> ayo_result {
    guard(|| {
        need(out_player, "out_player")?;
        let kind = ayo_player_kind::ALL
            .into_iter()
            .find(|k| *k as i32 == kind.0)
            .ok_or_else(|| {
                Fail::new(
                    ayo_result::UnknownPlayerKind,
                    format!(
                        "{} is not an ayo_player_kind; expected AYO_PLAYER_KIND_RANDOM (0), _GREEDY (1), _ALPHA_BETA (2) or _MCTS (3)",
                        kind.0
                    ),
                )
            })?;
        let budget = budget(budget_kind, amount)?;
        let agent = players::new_player(kind.core(), budget, seed);
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_player, ayo_player::boxed(agent)) };
        Ok(())
    })
}

/// Releases a player handle. `ayo_player_free(NULL)` does nothing. Games are
/// not affected.
///
/// Thread safety: needs `player` exclusively; no other call may use it during
/// or after this one.
///
/// # Safety
/// `player` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_free(player: *mut ayo_player) {
    // SAFETY: the caller's contract.
    unsafe { free_box(player) }
}

/// The error for a game with no move to choose.
fn no_move(game: &Game) -> Fail {
    match game.status() {
        Status::Truncated => Fail::new(
            ayo_result::Truncated,
            "the game has reached its ply cap: there is no move to choose",
        ),
        _ => Fail::new(
            ayo_result::GameOver,
            "the game is over: there is no move to choose",
        ),
    }
}

/// Chooses the move to play in the current position of `game` and writes it,
/// as the mover's relative pit 1..=6 (ready for `ayo_game_play`), to
/// `*relative_pit`. The game is not changed: play the move yourself.
///
/// `AYO_RESULT_GAME_OVER` when the game has ended and `AYO_RESULT_TRUNCATED`
/// when it reached its ply cap (no move is chosen; the player's state is not
/// touched). The search runs in the calling thread and takes the player's
/// budget (with `AYO_BUDGET_KIND_MILLISECONDS`, about that long).
///
/// Thread safety: needs `player` exclusively (the search updates its random
/// number generator and tables); reads `game`, so several players may think
/// about the same game at once, alongside other read-only calls on it.
///
/// # Safety
/// `player` and `game` NULL or live; `relative_pit` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_choose(
    player: *mut ayo_player,
    game: *const ayo_game,
    relative_pit: *mut u8,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(player, |p| {
            let g = game_of(game)?;
            need(relative_pit, "relative_pit")?;
            if g.legal_moves().is_empty() {
                return Err(no_move(g));
            }
            let mv = p
                .run(|agent| prepared(agent, g).map(|()| agent.choose(g)))??
                .ok_or_else(|| {
                    Fail::new(
                    ayo_result::Panic,
                    "internal error (please report): the player chose no move in an ongoing game",
                )
                })?;
            // Checked non-NULL; valid by the caller's contract.
            out(relative_pit, mv.relative_pit());
            Ok(())
        })
    }
}

/// Analyses the current position of `game`: writes the best move, the value
/// with its bound and basis (proven by the databases or a complete search, a
/// depth-limited search, a bound or an estimate: `ayo_basis`), the value of
/// every legal move, the depth and nodes
/// searched to `*analysis`, the principal variation (relative pits 1..=6,
/// each its own mover's, starting with the best move) to `pv` and its length
/// to `*pv_len`. For a game that is over the analysis has no move (`best`
/// 0, empty variation) and the final seed difference as its value; for a
/// truncated game likewise, with value 0.
///
/// With a depth budget `best` is the move `ayo_player_choose` would play in
/// the same state. Alpha-beta's analysis searches every root move with a full
/// window (so that each move's value is the search's own, not a bound), so under a node or time
/// budget it may complete fewer plies than `choose` and pick another move,
/// as in Rust (`ayo_core::players::Agent::analyze`).
///
/// The analysis is kept on the player (`ayo_player_last_analysis`). When
/// `pv_capacity` is too small the search has still run: the result is
/// `AYO_RESULT_BUFFER_TOO_SMALL`, `*pv_len` is the length needed and
/// `*analysis` is not written; fetch the same analysis with a larger array
/// from `ayo_player_last_analysis` (analysing again would search again, and
/// a player with random choices could answer differently). `pv` may be NULL
/// when `pv_capacity` is 0.
///
/// Thread safety: as for `ayo_player_choose`.
///
/// # Safety
/// `player` and `game` NULL or live; `analysis` and `pv_len` NULL or valid
/// for a write; `pv` NULL or valid for `pv_capacity` writes.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_analyze(
    player: *mut ayo_player,
    game: *const ayo_game,
    analysis: *mut ayo_analysis,
    pv: *mut u8,
    pv_capacity: usize,
    pv_len: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(player, |p| {
            let g = game_of(game)?;
            need(analysis, "analysis")?;
            need(pv_len, "pv_len")?;
            if pv_capacity > 0 {
                need(pv, "pv")?;
            }
            let a = p.run(|agent| prepared(agent, g).map(|()| agent.analyze(g)))??;
            let a = p.last_analysis.insert(a);
            // The caller's contract.
            write_analysis(a, analysis, pv, pv_capacity, pv_len)
        })
    }
}

/// Writes the analysis of the player's last successful or
/// `AYO_RESULT_BUFFER_TOO_SMALL` `ayo_player_analyze` again, as that call
/// describes (same array convention), without searching.
/// `AYO_RESULT_NO_ANALYSIS` when the player has not analysed a position yet.
///
/// Thread safety: reads `player`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `player` NULL or live; `analysis` and `pv_len` NULL or valid for a write;
/// `pv` NULL or valid for `pv_capacity` writes.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_last_analysis(
    player: *const ayo_player,
    analysis: *mut ayo_analysis,
    pv: *mut u8,
    pv_capacity: usize,
    pv_len: *mut usize,
) -> ayo_result {
    guard(|| {
        let p = player_ref(player)?;
        need(analysis, "analysis")?;
        need(pv_len, "pv_len")?;
        let a = p.last_analysis.as_ref().ok_or_else(|| {
            Fail::new(
                ayo_result::NoAnalysis,
                "this player has not analysed a position yet",
            )
        })?;
        // SAFETY: the caller's contract.
        unsafe { write_analysis(a, analysis, pv, pv_capacity, pv_len) }
    })
}

/// Writes the player's kind and budget, e.g. `"alphabeta(depth=4)"`,
/// `"mcts(nodes=5000)"`, `"random"`, into `buf` (text out-parameter
/// convention as for `ayo_result_message`). `AYO_RESULT_PLAYER_BROKEN`
/// after the player panicked.
///
/// Thread safety: reads `player`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `player` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
/// or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_name(
    player: *const ayo_player,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(player, "player", buf, len, written, |p| {
            if p.broken {
                Err(Fail::new(
                    ayo_result::PlayerBroken,
                    "this player panicked in an earlier call",
                ))
            } else {
                Ok(p.engine.agent().name())
            }
        })
    }
}

/// Writes the detail of the last failure of a call that takes a non-const
/// `ayo_player *` (`ayo_player_choose`, `ayo_player_analyze`), e.g. `"the
/// game is over: there is no move to choose"`, into `buf`; the empty string
/// when the last such call succeeded. Text out-parameter convention as for
/// `ayo_result_message`.
///
/// Thread safety: reads `player`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `player` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
/// or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_player_last_error(
    player: *const ayo_player,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(player, "player", buf, len, written, |p| {
            Ok(p.last_error.message.clone())
        })
    }
}

/// The name of level `index` (0-based, weakest first): `"1"` .. `"8"`, then
/// `"max"`; NULL when `index` is `AYO_LEVEL_COUNT` or more. Each name is
/// accepted by `ayo_player_new_level`.
///
/// Ownership: the string is static; do not free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn ayo_level_name(index: usize) -> *const c_char {
    const NAMES: [&std::ffi::CStr; AYO_LEVEL_COUNT] =
        [c"1", c"2", c"3", c"4", c"5", c"6", c"7", c"8", c"max"];
    NAMES.get(index).map_or(std::ptr::null(), |s| s.as_ptr())
}

/// Writes a value's `centiseeds` in words into `buf`: `"+1.25"`, `"-0.50"`,
/// `"win by 6"`, `"loss by 2"` (text out-parameter convention as for
/// `ayo_result_message`). Any `int32_t` is accepted.
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `buf` NULL or valid for `len` bytes; `written` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_value_text(
    centiseeds: i32,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    guard(|| {
        need(written, "written")?;
        // SAFETY: the caller's contract.
        unsafe { crate::util::write_str(&Value(centiseeds).to_string(), buf, len, written) }
    })
}

const _: () = assert!(AYO_LEVEL_COUNT == Level::ALL.len());
const _: () = assert!(AYO_VALUE_SEED == Value::SEED && AYO_VALUE_WIN == Value::WIN);
const _: () = assert!(
    AYO_MAX_BUDGET_NODES == Budget::MAX_NODES
        && AYO_MAX_BUDGET_MS == Budget::MAX_TIME.as_secs() * 1000
        && Budget::MAX_TIME.subsec_nanos() == 0
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{ayo_game_free, ayo_game_load_position, ayo_game_new, ayo_game_play};
    use crate::rules::{ayo_rules_free, ayo_rules_new_preset};
    use ayo_core::players::BudgetError;
    use ayo_core::{Move, Rules};
    use std::ptr::{null, null_mut};

    const PRESETS: [&str; 4] = ["ayoayo", "ayo", "olopon", "oware"];

    fn new_game(preset: &str) -> *mut ayo_game {
        let name = std::ffi::CString::new(preset).unwrap();
        let mut r = null_mut();
        let mut g = null_mut();
        unsafe {
            assert_eq!(ayo_rules_new_preset(name.as_ptr(), &mut r), ayo_result::Ok);
            assert_eq!(ayo_game_new(r, &mut g), ayo_result::Ok);
            ayo_rules_free(r);
        }
        g
    }

    fn by_level(level: &str, seed: u64) -> *mut ayo_player {
        let name = std::ffi::CString::new(level).unwrap();
        let mut p = null_mut();
        assert_eq!(
            unsafe { ayo_player_new_level(name.as_ptr(), seed, &mut p) },
            ayo_result::Ok
        );
        p
    }

    fn by_kind(
        kind: ayo_player_kind,
        bk: ayo_budget_kind,
        amount: u64,
        seed: u64,
    ) -> *mut ayo_player {
        let mut p = null_mut();
        assert_eq!(
            unsafe { ayo_player_new_kind(kind.into(), bk.into(), amount, seed, &mut p) },
            ayo_result::Ok
        );
        p
    }

    fn last_error(p: *const ayo_player) -> String {
        let mut buf = [0 as c_char; 512];
        let mut n = 0;
        assert_eq!(
            unsafe { ayo_player_last_error(p, buf.as_mut_ptr(), buf.len(), &mut n) },
            ayo_result::Ok
        );
        unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
            .to_str()
            .unwrap()
            .to_owned()
    }

    /// Plays `plies` moves chosen by the C entry points of `p` and, in step,
    /// by `rust`; every choice and every analysis must agree.
    fn agree(
        preset: &str,
        p: *mut ayo_player,
        mut rust: Box<dyn Agent>,
        plies: usize,
        analyze_every: usize,
    ) {
        let g = new_game(preset);
        let mut game = Game::new(Rules::preset(preset).unwrap());
        for ply in 0..plies {
            if game.legal_moves().is_empty() {
                break;
            }
            let mut pit = 0u8;
            if ply % analyze_every == 0 {
                let mut a = std::mem::MaybeUninit::<ayo_analysis>::uninit();
                let mut pv = [0u8; 256];
                let mut len = 0usize;
                let r = unsafe {
                    ayo_player_analyze(p, g, a.as_mut_ptr(), pv.as_mut_ptr(), pv.len(), &mut len)
                };
                assert_eq!(r, ayo_result::Ok, "{preset} ply {ply}");
                let a = unsafe { a.assume_init() };
                let want = rust.analyze(&game);
                assert_eq!(a, ayo_analysis::new(&want), "{preset} ply {ply}");
                let want_pv: Vec<u8> = want.pv.iter().map(|m| m.relative_pit()).collect();
                assert_eq!(&pv[..len], &want_pv[..]);
                pit = a.best;
            } else {
                assert_eq!(
                    unsafe { ayo_player_choose(p, g, &mut pit) },
                    ayo_result::Ok,
                    "{preset} ply {ply}"
                );
                let want = rust.choose(&game).unwrap();
                assert_eq!(pit, want.relative_pit(), "{preset} ply {ply}");
            }
            let mv = game.position().move_for_relative_pit(pit).unwrap();
            game.play(mv).unwrap();
            assert_eq!(unsafe { ayo_game_play(g, i32::from(pit)) }, ayo_result::Ok);
        }
        unsafe {
            ayo_game_free(g);
            ayo_player_free(p);
        }
    }

    #[test]
    fn levels_agree_with_rust() {
        for (i, preset) in PRESETS.iter().enumerate() {
            for level in ["1", "2", "3", "4", "6"] {
                let seed = 11 + i as u64;
                let rust = Level::from_str(level).unwrap().player(seed);
                agree(preset, by_level(level, seed), rust, 24, 3);
            }
        }
    }

    #[test]
    fn kinds_agree_with_rust() {
        use ayo_budget_kind as B;
        use ayo_player_kind as K;
        let cases = [
            (K::Random, B::Depth, 1, Kind::Random, Budget::Depth(1)),
            (K::Greedy, B::Nodes, 9, Kind::Greedy, Budget::Nodes(9)),
            (K::AlphaBeta, B::Depth, 3, Kind::AlphaBeta, Budget::Depth(3)),
            (
                K::AlphaBeta,
                B::Nodes,
                3000,
                Kind::AlphaBeta,
                Budget::Nodes(3000),
            ),
            (K::Mcts, B::Nodes, 300, Kind::Mcts, Budget::Nodes(300)),
            (K::Mcts, B::Depth, 1, Kind::Mcts, Budget::Depth(1)),
        ];
        for (preset, seed) in PRESETS.iter().zip([1u64, 2, 99, u64::MAX]) {
            for &(k, bk, amount, kind, budget) in &cases {
                let rust = players::new_player(kind, budget, seed);
                agree(preset, by_kind(k, bk, amount, seed), rust, 20, 4);
            }
        }
    }

    #[test]
    fn names_and_levels() {
        for (i, level) in Level::ALL.iter().enumerate() {
            let name = unsafe { std::ffi::CStr::from_ptr(ayo_level_name(i)) };
            assert_eq!(name.to_str().unwrap(), level.to_string());
            let p = by_level(name.to_str().unwrap(), 0);
            let mut buf = [0 as c_char; 128];
            let mut n = 0;
            assert_eq!(
                unsafe { ayo_player_name(p, buf.as_mut_ptr(), buf.len(), &mut n) },
                ayo_result::Ok
            );
            let got = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
            assert_eq!(got.to_str().unwrap(), level.player(0).name());
            unsafe { ayo_player_free(p) };
        }
        assert!(ayo_level_name(AYO_LEVEL_COUNT).is_null());
        assert!(ayo_level_name(usize::MAX).is_null());
    }

    #[test]
    fn bad_arguments() {
        let mut p = std::ptr::dangling_mut::<ayo_player>();
        let sentinel = p;
        for bad in [c"0", c"9", c"", c"max ", c"level 3", c"-1", c"3.0"] {
            let r = unsafe { ayo_player_new_level(bad.as_ptr(), 0, &mut p) };
            assert_eq!(r, ayo_result::UnknownLevel, "{bad:?}");
        }
        let r = unsafe { ayo_player_new_level(c"\xff".as_ptr(), 0, &mut p) };
        assert_eq!(r, ayo_result::InvalidUtf8);
        for k in [-1, 4, i32::MAX, i32::MIN] {
            let r =
                unsafe { ayo_player_new_kind(PlayerKindArg(k), BudgetKindArg(0), 3, 0, &mut p) };
            assert_eq!(r, ayo_result::UnknownPlayerKind, "{k}");
        }
        for (bk, amount) in [
            (0, 0),
            (0, u64::from(u32::MAX) + 1),
            (1, 0),
            (2, 0),
            (2, AYO_MAX_BUDGET_MS + 1),
            (1, AYO_MAX_BUDGET_NODES + 1),
            (1, u64::MAX),
            (3, 5),
            (-1, 5),
        ] {
            let r = unsafe {
                ayo_player_new_kind(PlayerKindArg(2), BudgetKindArg(bk), amount, 0, &mut p)
            };
            assert_eq!(r, ayo_result::BadBudget, "{bk} {amount}");
        }
        assert_eq!(p, sentinel, "out-parameter untouched on failure");
        // The detail is ayo-core's, as Python shows it, but for the time,
        // which C gives in milliseconds.
        let fail = budget(ayo_budget_kind::Nodes.into(), 0).unwrap_err();
        assert_eq!(fail.message, BudgetError::Nodes(0).to_string());
        let fail = budget(ayo_budget_kind::Milliseconds.into(), 0).unwrap_err();
        assert_eq!(
            fail.message,
            "a time budget is 1 to 86400000 milliseconds, not 0"
        );
        // The extremes that are allowed.
        for (bk, amount) in [
            (0, u64::from(u32::MAX)),
            (1, AYO_MAX_BUDGET_NODES),
            (2, AYO_MAX_BUDGET_MS),
        ] {
            let r = unsafe {
                ayo_player_new_kind(PlayerKindArg(0), BudgetKindArg(bk), amount, 0, &mut p)
            };
            assert_eq!(r, ayo_result::Ok);
            unsafe { ayo_player_free(p) };
        }
        assert_eq!(
            unsafe { ayo_player_new_kind(PlayerKindArg(0), BudgetKindArg(0), 1, 0, null_mut()) },
            ayo_result::NullArgument
        );
        assert_eq!(
            unsafe { ayo_player_new_level(null(), 0, &mut p) },
            ayo_result::NullArgument
        );
    }

    #[test]
    fn a_depth_limited_analysis_says_it_is_a_search() {
        // The opening of ayoayo at level 4 (alpha-beta, depth 4): not proven.
        let p = by_level("4", 1);
        let g = new_game("ayoayo");
        let mut a = std::mem::MaybeUninit::<ayo_analysis>::uninit();
        let mut len = 0usize;
        let r = unsafe { ayo_player_analyze(p, g, a.as_mut_ptr(), null_mut(), 0, &mut len) };
        assert_eq!(r, ayo_result::BufferTooSmall);
        let mut pv = [0u8; 16];
        let r = unsafe {
            ayo_player_last_analysis(p, a.as_mut_ptr(), pv.as_mut_ptr(), pv.len(), &mut len)
        };
        assert_eq!(r, ayo_result::Ok);
        let a = unsafe { a.assume_init() };
        let want = Level::new(4)
            .unwrap()
            .player(1)
            .analyze(&Game::new(Rules::preset("ayoayo").unwrap()));
        assert_eq!(want.basis, Basis::Search { depth: 4 });
        assert_eq!(a, ayo_analysis::new(&want));
        for v in std::iter::once(&a.value).chain(a.moves[..a.moves_count].iter().map(|m| &m.value))
        {
            assert_eq!(
                (v.basis, v.search_depth, v.bound),
                (ayo_basis::Search, 4, ayo_bound::Exact)
            );
            assert_eq!((v.proven, v.final_difference), (0, 0));
        }
        unsafe {
            ayo_game_free(g);
            ayo_player_free(p);
        }
    }

    #[test]
    fn finished_and_truncated_games() {
        let p = by_level("4", 1);
        let g = new_game("ayoayo");
        let text = c"ayoayo 4,4,4,4,4,3/0,0,0,0,0,0 25-0 n 0 10";
        assert_eq!(
            unsafe { ayo_game_load_position(g, text.as_ptr()) },
            ayo_result::Ok
        );
        let mut pit = 77u8;
        assert_eq!(
            unsafe { ayo_player_choose(p, g, &mut pit) },
            ayo_result::GameOver
        );
        assert_eq!(pit, 77);
        assert!(last_error(p).contains("game is over"), "{}", last_error(p));
        // Analysis of an ended game: no move, the final difference (North to
        // move has lost by 25 + 23 after the sweep, or by 25 without it).
        let mut a = std::mem::MaybeUninit::<ayo_analysis>::uninit();
        let mut len = 9usize;
        let r = unsafe { ayo_player_analyze(p, g, a.as_mut_ptr(), null_mut(), 0, &mut len) };
        assert_eq!(r, ayo_result::Ok);
        let a = unsafe { a.assume_init() };
        let game = Game::from_record(&format!("{} |", text.to_str().unwrap())).unwrap();
        assert_eq!(a, ayo_analysis::new(&Analysis::of_ended(&game).unwrap()));
        assert_eq!((a.best, a.pv_len, a.moves_count, len), (0, 0, 0, 0));
        assert_eq!(a.value.proven, 1);
        assert_eq!(a.value.basis, ayo_basis::ProvenSearch);
        assert!(a.value.final_difference < 0);
        assert_eq!(last_error(p), "");
        // Truncated.
        let g2 = new_game("oware");
        assert_eq!(
            unsafe { crate::game::ayo_game_set_ply_cap(g2, 0) },
            ayo_result::Ok
        );
        assert_eq!(
            unsafe { ayo_player_choose(p, g2, &mut pit) },
            ayo_result::Truncated
        );
        assert_eq!(pit, 77);
        unsafe {
            ayo_game_free(g);
            ayo_game_free(g2);
            ayo_player_free(p);
        }
    }

    #[test]
    fn a_short_pv_array_keeps_the_analysis() {
        let p = by_kind(ayo_player_kind::AlphaBeta, ayo_budget_kind::Depth, 5, 3);
        let g = new_game("oware");
        let mut a = std::mem::MaybeUninit::<ayo_analysis>::uninit();
        let mut pv = [0xEEu8; 2];
        let mut len = 0usize;
        let mut none = std::mem::MaybeUninit::<ayo_analysis>::uninit();
        assert_eq!(
            unsafe { ayo_player_last_analysis(p, none.as_mut_ptr(), pv.as_mut_ptr(), 2, &mut len) },
            ayo_result::NoAnalysis
        );
        let r = unsafe { ayo_player_analyze(p, g, a.as_mut_ptr(), pv.as_mut_ptr(), 2, &mut len) };
        assert_eq!(r, ayo_result::BufferTooSmall);
        assert_eq!(len, 5);
        assert_eq!(pv, [0xEE; 2]);
        let mut big = [0u8; 8];
        let mut len2 = 0usize;
        let r = unsafe {
            ayo_player_last_analysis(p, a.as_mut_ptr(), big.as_mut_ptr(), big.len(), &mut len2)
        };
        assert_eq!(r, ayo_result::Ok);
        let a = unsafe { a.assume_init() };
        let want = AlphaBetaRef::analyze(5, 3, "oware");
        assert_eq!(a, ayo_analysis::new(&want));
        assert_eq!(len2, 5);
        assert_eq!(
            &big[..5],
            &want
                .pv
                .iter()
                .map(|m: &Move| m.relative_pit())
                .collect::<Vec<_>>()[..]
        );
        unsafe {
            ayo_game_free(g);
            ayo_player_free(p);
        }
    }

    struct AlphaBetaRef;
    impl AlphaBetaRef {
        fn analyze(depth: u32, seed: u64, preset: &str) -> Analysis {
            let game = Game::new(Rules::preset(preset).unwrap());
            players::new_player(Kind::AlphaBeta, Budget::Depth(depth), seed).analyze(&game)
        }
    }

    /// An agent that panics on its second search.
    struct Faulty(u32);
    impl Agent for Faulty {
        fn name(&self) -> String {
            "faulty".into()
        }
        fn choose(&mut self, game: &Game) -> Option<Move> {
            self.0 += 1;
            assert!(self.0 < 2, "faulty agent");
            game.legal_moves().first().copied()
        }
        fn analyze(&mut self, game: &Game) -> Analysis {
            let mv = self.choose(game);
            Analysis {
                best: mv,
                value: Value(0),
                basis: players::Basis::Search { depth: 1 },
                pv: mv.into_iter().collect(),
                moves: Vec::new(),
                depth: 1,
                nodes: 1,
            }
        }
    }

    #[test]
    fn a_panic_breaks_the_player_for_good() {
        let p = ayo_player::boxed(Box::new(Faulty(0)) as Box<dyn Agent>);
        let g = new_game("ayo");
        let mut pit = 0u8;
        assert_eq!(unsafe { ayo_player_choose(p, g, &mut pit) }, ayo_result::Ok);
        assert_eq!(pit, 1);
        pit = 42;
        assert_eq!(
            unsafe { ayo_player_choose(p, g, &mut pit) },
            ayo_result::Panic
        );
        assert!(last_error(p).contains("faulty agent"), "{}", last_error(p));
        assert_eq!(
            unsafe { ayo_player_choose(p, g, &mut pit) },
            ayo_result::PlayerBroken
        );
        let mut a = std::mem::MaybeUninit::<ayo_analysis>::uninit();
        let mut len = 0;
        assert_eq!(
            unsafe { ayo_player_analyze(p, g, a.as_mut_ptr(), null_mut(), 0, &mut len) },
            ayo_result::PlayerBroken
        );
        assert_eq!(pit, 42);
        let mut n = 0;
        assert_eq!(
            unsafe { ayo_player_name(p, null_mut(), 0, &mut n) },
            ayo_result::PlayerBroken
        );
        unsafe {
            ayo_game_free(g);
            ayo_player_free(p);
        }
    }

    #[test]
    fn value_text() {
        for v in [
            0,
            125,
            -50,
            Value::from_final_difference(6).0,
            Value::from_final_difference(-2).0,
            i32::MIN,
            i32::MAX,
        ] {
            let mut buf = [0 as c_char; 32];
            let mut n = 0;
            assert_eq!(
                unsafe { ayo_value_text(v, buf.as_mut_ptr(), buf.len(), &mut n) },
                ayo_result::Ok
            );
            let got = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
            assert_eq!(got.to_str().unwrap(), Value(v).to_string());
        }
        let mut n = 0;
        assert_eq!(
            unsafe { ayo_value_text(0, null_mut(), 0, &mut n) },
            ayo_result::BufferTooSmall
        );
        assert_eq!(n, "+0.00".len() + 1);
    }
}
