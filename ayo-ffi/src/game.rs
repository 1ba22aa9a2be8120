//! The game handle: positions, moves, undo, outcome, records and traces.

use std::ffi::c_char;

use ayo_core::trace::{Event, LapEnd};
use ayo_core::{
    playout, record, EndReason, Game, IllegalMove, Move, Player, Position, Setup, Status, PITS,
};

use crate::errors::{c_words, illegal_move, record_error, Numbering};
use crate::result::{ayo_record_field, ayo_result};
use crate::rules::ayo_rules;
use crate::util::{
    free_box, guard, guard_mut, in_str, need, out, query, text_query, write_array, Fail,
    HasLastError, LastError,
};
use crate::AYO_PITS;

/// A game in progress (opaque): its rules, start position, the moves played
/// and the positions they led to (for undo and repetition), and the outcome.
///
/// Made by `ayo_game_new` or `ayo_game_clone`; owned by the caller, who
/// releases it with `ayo_game_free` exactly once. A game holds its own copy of
/// its rules and never refers to an `ayo_rules` handle. The handle also keeps
/// the detail of its last failed call (`ayo_game_last_error`).
pub struct ayo_game {
    game: Game,
    last_error: LastError,
}

impl HasLastError for ayo_game {
    fn last_error_mut(&mut self) -> &mut LastError {
        &mut self.last_error
    }
}

impl ayo_game {
    fn boxed(game: Game) -> *mut ayo_game {
        Box::into_raw(Box::new(ayo_game {
            game,
            last_error: LastError::default(),
        }))
    }

    /// The core game behind the handle.
    pub(crate) fn core(&self) -> &Game {
        &self.game
    }

    /// Replaces the game, keeping the handle's ply cap.
    fn replace(&mut self, mut game: Game) {
        game.set_ply_cap(self.game.ply_cap());
        self.game = game;
    }
}

/// A side of the board (a seat): who moves, who receives seeds, who won.
///
/// (Named `ayo_side` so that `ayo_player` can name the computer-player
/// handle; the numbers are those of the 0.1 header's seat enum.)
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_side {
    /// Player 0: owns pits 0..=5 and moves first in every preset.
    South = 0,
    /// Player 1: owns pits 6..=11.
    North = 1,
}

impl From<Player> for ayo_side {
    fn from(p: Player) -> ayo_side {
        match p {
            Player::South => ayo_side::South,
            Player::North => ayo_side::North,
        }
    }
}

/// Who won a finished game.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_winner {
    /// South has more seeds.
    South = 0,
    /// North has more seeds.
    North = 1,
    /// Equal scores.
    Draw = 2,
}

/// Why a game ended (docs/rules.md, "End of the game").
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_end_reason {
    /// A store reached the rules' target.
    Target = 0,
    /// The move limit passed with nothing captured.
    MoveLimit = 1,
    /// A position repeated since the last capture.
    Repetition = 2,
    /// The player to move had no legal move.
    NoLegalMove = 3,
}

/// Where a game stands.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_status {
    /// The player to move has legal moves.
    Ongoing = 0,
    /// The game has ended by the rules (see `ayo_game_outcome`).
    Ended = 1,
    /// The caller's ply cap was reached before a real end.
    Truncated = 2,
}

/// How a game ended.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ayo_outcome {
    /// The winner, or `AYO_WINNER_DRAW`.
    pub winner: ayo_winner,
    /// Why the game ended.
    pub reason: ayo_end_reason,
    /// Final seeds of South and North, after any end-of-game sweep.
    pub scores: [u16; 2],
}

/// A position as plain values: read with `ayo_game_setup`, and written by the
/// caller for `ayo_game_load_setup`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ayo_setup {
    /// Seeds in absolute pits 0..=11 (South's row 0..=5, North's 6..=11, in sowing order).
    pub board: [u8; AYO_PITS],
    /// Seeds in South's and North's stores.
    pub stores: [u8; 2],
    /// The player to move: 0 South, 1 North (any other value is
    /// `AYO_RESULT_INVALID_ARGUMENT`).
    pub to_move: u8,
    /// Moves played in a row without a capture.
    pub no_capture: u16,
    /// Moves played since the start of the game.
    pub ply: u32,
}

impl From<Setup> for ayo_setup {
    fn from(s: Setup) -> ayo_setup {
        ayo_setup {
            board: s.board,
            stores: s.stores,
            to_move: s.to_move.index() as u8,
            no_capture: s.no_capture,
            ply: s.ply,
        }
    }
}

/// The kind of one step of a sowing trace.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_event_kind {
    /// The mover lifts `seeds` seeds from `pit` to start the move.
    Lift = 0,
    /// The last seed fell into an occupied `pit`: its `seeds` seeds (with the
    /// one just dropped) are lifted and sowing goes on.
    Relay = 1,
    /// One seed is dropped into `pit`.
    Drop = 2,
    /// A drop made `pit` hold 4; `player` receives those 4 seeds.
    Collect = 3,
    /// The mover captures the `seeds` seeds of `pit`.
    Capture = 4,
    /// A capture of `seeds` seeds would have emptied the opponent's row and is forfeited.
    GrandSlamForfeited = 5,
    /// The move ends: the last seed fell in `pit`, and `end` says why sowing stopped.
    End = 6,
}

/// Why a move's last lap ended.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ayo_lap_end {
    /// Not an end event (the `end` field of events other than `AYO_EVENT_KIND_END`).
    None = 0,
    /// The last seed fell into an empty pit.
    EmptyPit = 1,
    /// The last seed fell into an occupied pit and relay sowing is off.
    Occupied = 2,
    /// The last seed made a 4, which was collected.
    MadeFour = 3,
    /// The last seed made 2 or 3 in the opponent's row.
    TwoThree = 4,
}

impl From<LapEnd> for ayo_lap_end {
    fn from(e: LapEnd) -> ayo_lap_end {
        match e {
            LapEnd::EmptyPit => ayo_lap_end::EmptyPit,
            LapEnd::Occupied => ayo_lap_end::Occupied,
            LapEnd::MadeFour => ayo_lap_end::MadeFour,
            LapEnd::TwoThree => ayo_lap_end::TwoThree,
        }
    }
}

/// One step of a sowing trace. Fields that the kind does not use are 0
/// (`pit`, `seeds`), `AYO_SIDE_SOUTH` (`player`) and `AYO_LAP_END_NONE` (`end`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ayo_event {
    /// What happened.
    pub kind: ayo_event_kind,
    /// Absolute pit 0..=11 (every kind but `GRAND_SLAM_FORFEITED`).
    pub pit: u8,
    /// Seeds lifted, captured or forfeited (`LIFT`, `RELAY`, `CAPTURE`, `GRAND_SLAM_FORFEITED`).
    pub seeds: u8,
    /// Who receives a collected 4 (`COLLECT`).
    pub player: ayo_side,
    /// Why the move ended (`END`).
    pub end: ayo_lap_end,
}

impl From<&Event> for ayo_event {
    fn from(e: &Event) -> ayo_event {
        let blank = |kind, pit: usize| ayo_event {
            kind,
            pit: pit as u8,
            seeds: 0,
            player: ayo_side::South,
            end: ayo_lap_end::None,
        };
        match *e {
            Event::Lift { pit, seeds } => ayo_event {
                seeds,
                ..blank(ayo_event_kind::Lift, pit)
            },
            Event::Relay { pit, seeds } => ayo_event {
                seeds,
                ..blank(ayo_event_kind::Relay, pit)
            },
            Event::Drop { pit } => blank(ayo_event_kind::Drop, pit),
            Event::Collect { pit, to } => ayo_event {
                player: to.into(),
                ..blank(ayo_event_kind::Collect, pit)
            },
            Event::Capture { pit, seeds } => ayo_event {
                seeds,
                ..blank(ayo_event_kind::Capture, pit)
            },
            Event::GrandSlamForfeited { seeds } => ayo_event {
                seeds,
                ..blank(ayo_event_kind::GrandSlamForfeited, 0)
            },
            Event::End { pit, reason } => ayo_event {
                end: reason.into(),
                ..blank(ayo_event_kind::End, pit)
            },
        }
    }
}

/// The totals of a sowing trace.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ayo_trace_summary {
    /// Laps sown: 1 + the number of relays.
    pub laps: u32,
    /// Absolute pit where the last seed fell.
    pub last_pit: u8,
    /// Why the last lap ended.
    pub end: ayo_lap_end,
    /// Seeds taken into South's and North's stores during the move (captures and collected 4s).
    pub taken: [u16; 2],
}

fn game_ref<'a>(game: *const ayo_game) -> Result<&'a ayo_game, Fail> {
    // SAFETY: every caller passes on its own C caller's pointer, which must be
    // NULL or a live handle not being mutated concurrently.
    unsafe { game.as_ref() }.ok_or_else(|| Fail::null("game"))
}

/// Copies the legal moves, each as `pit(move)`, into the caller's array (no
/// allocation: this is on the hot path of C playout loops).
///
/// # Safety
/// As for `ayo_game_legal_moves`.
unsafe fn write_legal(
    game: *const ayo_game,
    pits: *mut u8,
    capacity: usize,
    count: *mut usize,
    pit: impl Fn(Move) -> u8,
) -> ayo_result {
    guard(|| {
        let g = game_ref(game)?;
        let legal = g.game.legal_moves();
        let mut buf = [0u8; crate::AYO_MAX_LEGAL_MOVES];
        for (slot, &m) in buf.iter_mut().zip(legal.iter()) {
            *slot = pit(m);
        }
        // SAFETY: the caller's contract.
        unsafe { write_array(&buf[..legal.len()], 0, pits, capacity, count, "pits") }
    })
}

/// The move for a mover-relative pit given as a C integer.
fn relative_move(pos: &Position, relative_pit: i32) -> Result<Move, Fail> {
    let relative = |e| illegal_move(e, Numbering::Relative);
    let pit = u8::try_from(relative_pit).map_err(|_| {
        relative(IllegalMove::ActionOutOfRange {
            action: i64::from(relative_pit),
        })
    })?;
    pos.move_for_relative_pit(pit).map_err(relative)
}

/// Makes a new game at the start position of `rules` (a copy of them is kept:
/// `rules` may be freed at any time afterwards). On success `*out_game` is a
/// new handle owned by the caller (free it with `ayo_game_free`).
///
/// Thread safety: reads `rules`; may run concurrently with other read-only
/// calls on it.
///
/// # Safety
/// `rules` NULL or live; `out_game` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_new(
    rules: *const ayo_rules,
    out_game: *mut *mut ayo_game,
) -> ayo_result {
    guard(|| {
        // SAFETY: the caller's contract.
        let r = unsafe { rules.as_ref() }.ok_or_else(|| Fail::null("rules"))?;
        need(out_game, "out_game")?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_game, ayo_game::boxed(Game::new(r.rules))) };
        Ok(())
    })
}

/// Makes an independent copy of `game`: rules, history, ply cap (not its
/// last-error detail). On success `*out_game` is a new handle owned by the
/// caller (free it with `ayo_game_free`).
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `out_game` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_clone(
    game: *const ayo_game,
    out_game: *mut *mut ayo_game,
) -> ayo_result {
    guard(|| {
        let g = game_ref(game)?;
        need(out_game, "out_game")?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_game, ayo_game::boxed(g.game.clone())) };
        Ok(())
    })
}

/// Releases a game handle. `ayo_game_free(NULL)` does nothing. Rules handles
/// are not affected.
///
/// Thread safety: needs `game` exclusively; no other call may use it during
/// or after this one.
///
/// # Safety
/// `game` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_free(game: *mut ayo_game) {
    // SAFETY: the caller's contract.
    unsafe { free_box(game) }
}

/// Gives a new rules handle holding a copy of the game's rules. On success
/// `*out_rules` is owned by the caller (free it with `ayo_rules_free`); it
/// stays valid after the game is freed.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `out_rules` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_rules(
    game: *const ayo_game,
    out_rules: *mut *mut ayo_rules,
) -> ayo_result {
    guard(|| {
        let g = game_ref(game)?;
        need(out_rules, "out_rules")?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_rules, ayo_rules::boxed(*g.game.rules())) };
        Ok(())
    })
}

/// Replaces the game with a new one that starts at the position of a
/// position record, e.g. `"ayoayo 0,6,1,0,1,0/1,2,0,1,2,1 20-13 n 0 10"`
/// (rules, board, stores, player to move, no-capture counter, ply; see
/// `docs/notation.md`). The rules come from the record. The ply cap is kept.
///
/// `AYO_RESULT_MALFORMED_RECORD` when the text does not parse or is not a
/// valid position; the game is then unchanged, and `ayo_game_last_error` and
/// `ayo_game_last_record_error` say which field failed at which byte offset.
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live; `text` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_load_position(
    game: *mut ayo_game,
    text: *const c_char,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            let text = in_str(text, "text")?;
            let (rules, pos) = record::parse_position(text).map_err(|e| record_error(text, &e))?;
            g.replace(Game::from_position(rules, pos));
            Ok(())
        })
    }
}

/// Replaces the game with the one of a game record: a start position record,
/// ` | `, and the moves as the mover's pits 1..=6, e.g.
/// `"oware 4,4,4,4,4,4/4,4,4,4,4,4 0-0 s 0 0 | 3 1 6"`. Every move is replayed
/// and checked. The ply cap is kept.
///
/// `AYO_RESULT_MALFORMED_RECORD` when the text does not parse or a move is
/// illegal; the game is then unchanged, and `ayo_game_last_error` and
/// `ayo_game_last_record_error` say which field failed at which byte offset.
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live; `text` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_load_record(
    game: *mut ayo_game,
    text: *const c_char,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            let text = in_str(text, "text")?;
            let parsed = record::parse_game(text).map_err(|e| record_error(text, &e))?;
            g.replace(parsed);
            Ok(())
        })
    }
}

/// Replaces the game with a new one, under the same rules, that starts at
/// `setup`. The ply cap is kept.
///
/// `AYO_RESULT_INVALID_ARGUMENT` when `setup->to_move` is not 0 or 1;
/// `AYO_RESULT_INVALID_POSITION` when the seeds do not add up to the rules'
/// total or the counters are inconsistent (`ayo_game_last_error` lists every
/// problem). On failure the game is unchanged.
///
/// Ownership: `setup` is read during the call only.
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live; `setup` NULL or valid for a read.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_load_setup(
    game: *mut ayo_game,
    setup: *const ayo_setup,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            // NULL or valid for a read, by the caller's contract.
            let s = setup.as_ref().ok_or_else(|| Fail::null("setup"))?;
            let to_move = Player::from_index(usize::from(s.to_move)).ok_or_else(|| {
                Fail::new(
                    ayo_result::InvalidArgument,
                    format!(
                        "setup.to_move is {}; expected 0 (south) or 1 (north)",
                        s.to_move
                    ),
                )
            })?;
            let setup = Setup {
                board: s.board,
                stores: s.stores,
                to_move,
                no_capture: s.no_capture,
                ply: s.ply,
            };
            let rules = *g.game.rules();
            let next = Game::from_setup(rules, &setup)
                .map_err(|e| Fail::new(ayo_result::InvalidPosition, c_words(e)))?;
            g.replace(next);
            Ok(())
        })
    }
}

/// Writes the current position: board, stores, player to move and counters.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `setup` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_setup(
    game: *const ayo_game,
    setup: *mut ayo_setup,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(game, "game", setup, "setup", |g| {
            Ok(g.game.position().to_setup().into())
        })
    }
}

/// Writes the player to move in the current position.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `player` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_to_move(
    game: *const ayo_game,
    player: *mut ayo_side,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(game, "game", player, "player", |g| {
            Ok(g.game.position().to_move().into())
        })
    }
}

/// Writes the 64-bit hash of the current position (board, stores and player
/// to move; not the counters). Equal positions have equal hashes in every
/// front door (C, Rust, Python) of the same library version.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `hash` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_hash(game: *const ayo_game, hash: *mut u64) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { query(game, "game", hash, "hash", |g| Ok(g.game.position().hash())) }
}

/// Writes the number of moves played in this game since its start position
/// (what `ayo_game_undo` can take back).
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `count` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_move_count(
    game: *const ayo_game,
    count: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { query(game, "game", count, "count", |g| Ok(g.game.moves().len())) }
}

/// Copies the moves played since the start position, as the movers' relative
/// pits 1..=6 (as in game records), into `pits` (capacity `capacity`), and
/// their number into `*count`. When `capacity` is too small nothing is copied,
/// `*count` is the number needed and the result is
/// `AYO_RESULT_BUFFER_TOO_SMALL`; `pits` may be NULL when `capacity` is 0.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `pits` NULL or valid for `capacity` writes; `count`
/// NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_moves(
    game: *const ayo_game,
    pits: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> ayo_result {
    guard(|| {
        let g = game_ref(game)?;
        let moves: Vec<u8> = g.game.moves().iter().map(|m| m.relative_pit()).collect();
        // SAFETY: the caller's contract.
        unsafe { write_array(&moves, 0, pits, capacity, count, "pits") }
    })
}

/// Copies the legal moves of the current position, as the mover's relative
/// pits 1..=6 ascending, into `pits` (at most `AYO_MAX_LEGAL_MOVES`; none when
/// the game is over or truncated) and their number into `*count`. Array
/// convention as for `ayo_game_moves`.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `pits` NULL or valid for `capacity` writes; `count`
/// NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_legal_moves(
    game: *const ayo_game,
    pits: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { write_legal(game, pits, capacity, count, Move::relative_pit) }
}

/// As `ayo_game_legal_moves`, with absolute pits 0..=11.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `pits` NULL or valid for `capacity` writes; `count`
/// NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_legal_pits(
    game: *const ayo_game,
    pits: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { write_legal(game, pits, capacity, count, u8::from) }
}

/// Writes the legal moves as a 6-bit mask: bit `k` (value `1 << k`) is set
/// when the mover's relative pit `k + 1` is legal. 0 when the game is over or
/// truncated.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `mask` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_legal_mask(game: *const ayo_game, mask: *mut u8) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(game, "game", mask, "mask", |g| {
            Ok(g.game.legal_action_mask())
        })
    }
}

/// Plays the mover's relative pit 1..=6 (the web app's keys: 1 is pit 0 for
/// South, pit 6 for North).
///
/// On an illegal move the game is unchanged, the result says why
/// (`AYO_RESULT_ACTION_OUT_OF_RANGE`, `_EMPTY_PIT`, `_ENDLESS_RELAY`,
/// `_DOES_NOT_FEED`, `_GAME_OVER`, `_TRUNCATED`) and `ayo_game_last_error`
/// gives the detail.
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_play(game: *mut ayo_game, relative_pit: i32) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            let mv = relative_move(g.game.position(), relative_pit)?;
            g.game
                .play(mv)
                .map_err(|e| illegal_move(e, Numbering::Relative))
        })
    }
}

/// Plays absolute pit 0..=11, which must be in the mover's row.
///
/// On an illegal move the game is unchanged, the result says why
/// (`AYO_RESULT_PIT_OUT_OF_RANGE`, `_NOT_MOVERS_PIT`, `_EMPTY_PIT`,
/// `_ENDLESS_RELAY`, `_DOES_NOT_FEED`, `_GAME_OVER`, `_TRUNCATED`) and
/// `ayo_game_last_error` gives the detail.
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_play_pit(game: *mut ayo_game, pit: i32) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            let absolute = |e| illegal_move(e, Numbering::Absolute);
            let pit = u8::try_from(pit).map_err(|_| {
                absolute(IllegalMove::PitOutOfRange {
                    pit: i64::from(pit),
                })
            })?;
            g.game
                .play(Move::new(pit).map_err(absolute)?)
                .map_err(absolute)
        })
    }
}

/// Takes back the last move and writes it, as the relative pit 1..=6 its
/// mover played, to `*relative_pit`. `AYO_RESULT_NOTHING_TO_UNDO` at the
/// start position (the game is then unchanged).
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live; `relative_pit` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_undo(game: *mut ayo_game, relative_pit: *mut u8) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            need(relative_pit, "relative_pit")?;
            let mv = g.game.undo().ok_or_else(|| {
                Fail::new(
                    ayo_result::NothingToUndo,
                    "no move has been played since the start position",
                )
            })?;
            // Checked non-NULL; valid by the caller's contract.
            out(relative_pit, mv.relative_pit());
            Ok(())
        })
    }
}

/// Writes where the game stands: ongoing, ended by the rules, or truncated by
/// the ply cap.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `status` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_status(
    game: *const ayo_game,
    status: *mut ayo_status,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(game, "game", status, "status", |g| {
            Ok(match g.game.status() {
                Status::Ongoing => ayo_status::Ongoing,
                Status::Ended(_) => ayo_status::Ended,
                Status::Truncated => ayo_status::Truncated,
            })
        })
    }
}

/// Writes the outcome of a finished game: winner, reason and final scores.
/// `AYO_RESULT_GAME_NOT_OVER` while the game goes on; `AYO_RESULT_TRUNCATED`
/// when it stopped at its ply cap (`ayo_game_set_ply_cap`) before an end by
/// the rules, so it has no outcome (raise or clear the cap to play on).
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `outcome` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_outcome(
    game: *const ayo_game,
    outcome: *mut ayo_outcome,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(game, "game", outcome, "outcome", |g| {
            let o = match g.game.status() {
                Status::Ended(o) => o,
                Status::Truncated => {
                    return Err(Fail::new(
                        ayo_result::Truncated,
                        "the game stopped at its ply cap: it has no outcome",
                    ))
                }
                Status::Ongoing => {
                    return Err(Fail::new(ayo_result::GameNotOver, "the game is not over"))
                }
            };
            let winner = match o.winner {
                Some(Player::South) => ayo_winner::South,
                Some(Player::North) => ayo_winner::North,
                None => ayo_winner::Draw,
            };
            let reason = match o.reason {
                EndReason::Target => ayo_end_reason::Target,
                EndReason::MoveLimit => ayo_end_reason::MoveLimit,
                EndReason::Repetition => ayo_end_reason::Repetition,
                EndReason::NoLegalMove => ayo_end_reason::NoLegalMove,
            };
            Ok(ayo_outcome {
                winner,
                reason,
                scores: o.scores,
            })
        })
    }
}

/// Caps the number of moves of this game (counted from its start position):
/// once `cap` moves have been played the status is `AYO_STATUS_TRUNCATED`, not
/// an end, and moves are refused with `AYO_RESULT_TRUNCATED` until the cap is
/// raised or cleared. A new game has no cap.
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_set_ply_cap(game: *mut ayo_game, cap: u32) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            g.game.set_ply_cap(Some(cap));
            Ok(())
        })
    }
}

/// Removes the ply cap (see `ayo_game_set_ply_cap`).
///
/// Thread safety: needs `game` exclusively.
///
/// # Safety
/// `game` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_clear_ply_cap(game: *mut ayo_game) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(game, |g| {
            g.game.set_ply_cap(None);
            Ok(())
        })
    }
}

/// Writes the record of the current position (as read by
/// `ayo_game_load_position`) into `buf`; see `ayo_result_message` for the
/// text out-parameter convention.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_position_text(
    game: *const ayo_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(game, "game", buf, len, written, |g| {
            Ok(record::position_to_text(g.game.rules(), g.game.position()))
        })
    }
}

/// Writes the game record (start position, ` | `, moves; as read by
/// `ayo_game_load_record`) into `buf`; see `ayo_result_message` for the text
/// out-parameter convention.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_record(
    game: *const ayo_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe { text_query(game, "game", buf, len, written, |g| Ok(g.game.record())) }
}

/// The sowing trace of the mover's relative pit 1..=6 from the current
/// position, without playing it: every lift, drop, relay, collected 4,
/// capture and the end, in order, into `events` (capacity `capacity`), their
/// number into `*count`, and the totals into `*summary`.
///
/// When `capacity` is too small nothing is copied, `*count` is the number of
/// events needed, `*summary` is not written and the result is
/// `AYO_RESULT_BUFFER_TOO_SMALL` (`events` may be NULL when `capacity` is 0).
/// An illegal move gives the same results as `ayo_game_play`.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `events` NULL or valid for `capacity` writes; `count`
/// and `summary` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_trace(
    game: *const ayo_game,
    relative_pit: i32,
    events: *mut ayo_event,
    capacity: usize,
    count: *mut usize,
    summary: *mut ayo_trace_summary,
) -> ayo_result {
    guard(|| {
        let g = game_ref(game)?;
        need(count, "count")?;
        need(summary, "summary")?;
        // NULL arguments are reported before anything about the move.
        if capacity > 0 {
            need(events, "events")?;
        }
        let mv = relative_move(g.game.position(), relative_pit)?;
        let t = g
            .game
            .trace(mv)
            .map_err(|e| illegal_move(e, Numbering::Relative))?;
        let end = t.end.into();
        let list: Vec<ayo_event> = t.events.iter().map(ayo_event::from).collect();
        // SAFETY: the caller's contract.
        unsafe { write_array(&list, 0, events, capacity, count, "events") }?;
        let s = ayo_trace_summary {
            laps: t.laps,
            last_pit: t.last_pit as u8,
            end,
            taken: t.taken,
        };
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(summary, s) };
        Ok(())
    })
}

/// Counts the legal move sequences of length `depth` from the current
/// position (perft; games that end earlier count at their end's depth only;
/// repetition is not applied). The work grows about 6^depth: keep `depth`
/// small.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `nodes` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_perft(
    game: *const ayo_game,
    depth: u32,
    nodes: *mut u64,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        query(game, "game", nodes, "nodes", |g| {
            Ok(playout::perft(g.game.rules(), g.game.position(), depth))
        })
    }
}

/// Writes the detail of the last failure of a call that takes a non-const
/// `ayo_game *` (e.g. ``"bad board at offset 11: `z` is not a seed count 0
/// to 255"``, or `"North's pit 2 is empty"`: pits as the call numbered
/// them) into `buf`; the empty string when the last such call succeeded. Calls on a const handle do not touch it. Text
/// out-parameter convention as for `ayo_result_message`.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_last_error(
    game: *const ayo_game,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(game, "game", buf, len, written, |g| {
            Ok(g.last_error.message.clone())
        })
    }
}

/// When the last failed call on `game` was a record that did not parse
/// (`AYO_RESULT_MALFORMED_RECORD` from `ayo_game_load_position` or
/// `ayo_game_load_record`), writes which field failed and the byte offset of
/// the offending text in the record; otherwise returns
/// `AYO_RESULT_NO_RECORD_ERROR`.
///
/// Thread safety: reads `game`; may run concurrently with other read-only
/// calls on the same handle.
///
/// # Safety
/// `game` NULL or live; `field` and `offset` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_game_last_record_error(
    game: *const ayo_game,
    field: *mut ayo_record_field,
    offset: *mut usize,
) -> ayo_result {
    guard(|| {
        let g = game_ref(game)?;
        need(field, "field")?;
        need(offset, "offset")?;
        let (f, at) = g.last_error.record.ok_or_else(|| {
            Fail::new(
                ayo_result::NoRecordError,
                "the last failure was not a record error",
            )
        })?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe {
            out(field, f);
            out(offset, at);
        }
        Ok(())
    })
}

const _: () = assert!(AYO_PITS == PITS);
