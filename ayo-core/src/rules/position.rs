//! Positions: the board, the stores, the player to move and the counters,
//! packed in 32 bytes, with the key kept up to date as seeds move. The rules
//! that act on a position live in their own modules: sowing (`sow.rs`),
//! captures (`capture.rs`), legality (`legal.rs`) and the end (`end.rs`).

use std::fmt;

use crate::rules::board::{byte, mover, PLAYER_SHIFT};
use crate::rules::hash::{finalize, NORTH_WEIGHT, PIT_WEIGHT, STORE_WEIGHT};
use crate::rules::sow;
use crate::rules::Rules;
use crate::Player;

pub use crate::rules::board::PITS;

/// A position: board, stores, player to move, counters and the incremental key.
/// A 32-byte `Copy` value; the rules are passed to each method, and the game
/// history (undo, repetition) lives in [`crate::Game`].
///
/// ```
/// use ayo_core::{Position, Rules};
/// let rules = Rules::preset("oware").unwrap();
/// let pos = Position::start(&rules);
/// assert_eq!(std::mem::size_of::<Position>(), 32);
/// let mv = pos.move_for_action(2).unwrap();
/// let next = pos.play(&rules, mv).unwrap();
/// assert_eq!(next.board(), [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte `i` = pit `i`; bytes 12, 13 = stores; byte 14 = player to move.
    cells: u128,
    /// Additive Zobrist sum (see `hash.rs`).
    lin: u64,
    no_capture: u16,
    ply: u32,
}

/// The no-capture counter after a move from a position where it was
/// `no_capture`: reset by a move that took seeds to a store.
#[inline(always)]
pub(crate) fn no_capture_after(no_capture: u16, captured: bool) -> u16 {
    if captured {
        0
    } else {
        no_capture.saturating_add(1)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("board", &self.board())
            .field("stores", &self.stores())
            .field("to_move", &self.to_move())
            .field("no_capture", &self.no_capture)
            .field("ply", &self.ply)
            .finish()
    }
}

/// The additive key of packed `cells`' board and stores (see `hash.rs`).
#[inline]
fn lin_of(cells: u128) -> u64 {
    let pits = PIT_WEIGHT
        .iter()
        .enumerate()
        .map(|(i, w)| (byte(cells, i), w));
    let stores = STORE_WEIGHT
        .iter()
        .enumerate()
        .map(|(p, w)| (byte(cells, 12 + p), w));
    pits.chain(stores).fold(0u64, |h, (seeds, w)| {
        h.wrapping_add(u64::from(seeds).wrapping_mul(*w))
    })
}

impl Position {
    /// The position of packed `cells` (see [`Position::packed`]) and the
    /// counters, its key computed.
    // Inlined, the key computed before the value is built: a key stored
    // into a value already built stalled the 16-byte loads that read the
    // value back (store forwarding), a sixth of unpacking a stateless record.
    #[inline]
    pub(crate) fn from_parts(cells: u128, no_capture: u16, ply: u32) -> Position {
        Position {
            cells,
            lin: lin_of(cells),
            no_capture,
            ply,
        }
    }

    /// The position of packed `cells`, its board key `lin` (as
    /// [`Position::board_key`] would compute it) and the counters.
    #[inline(always)]
    pub(crate) fn from_keyed_parts(cells: u128, lin: u64, no_capture: u16, ply: u32) -> Position {
        let p = Position {
            cells,
            lin,
            no_capture,
            ply,
        };
        debug_assert_eq!(p.lin, p.compute_lin());
        p
    }

    /// The additive key of the board and stores (see `hash.rs`).
    pub(crate) fn compute_lin(&self) -> u64 {
        lin_of(self.cells)
    }

    /// Seeds in each pit, 0..=11.
    #[inline]
    pub fn board(&self) -> [u8; PITS] {
        let b = self.cells.to_le_bytes();
        let mut out = [0u8; PITS];
        out.copy_from_slice(&b[..PITS]);
        out
    }

    /// The board as `seat` sees it: the seeds of `seat`'s six pits (in
    /// sowing order), of the opponent's six, `seat`'s store and the
    /// opponent's store (the observation of the environments; a few
    /// register operations, for batched stepping).
    ///
    /// ```
    /// use ayo_core::{Player, Position, Rules};
    /// let rules = Rules::preset("oware").unwrap();
    /// let pos = Position::start(&rules).play(&rules, ayo_core::Move::new(0).unwrap()).unwrap();
    /// assert_eq!(pos.view(Player::South), [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0, 0]);
    /// assert_eq!(pos.view(Player::North), [4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 0, 0]);
    /// ```
    #[inline]
    pub fn view(&self, seat: Player) -> [u8; PITS + 2] {
        const ROW: u128 = (1 << 48) - 1;
        let c = self.cells;
        // Rows swapped (bytes 0..6 and 6..12), stores swapped (12 and 13).
        let north = (c >> 48) & ROW
            | (c & ROW) << 48
            | ((c >> 104) & 0xFF) << 96
            | ((c >> 96) & 0xFF) << 104;
        // Chosen by a mask, not a branch: the seat of a batch's rows
        // follows no pattern a branch predictor learns.
        let keep = 0u128.wrapping_sub(u128::from(seat == Player::South));
        let v = (c & keep) | (north & !keep);
        let b = v.to_le_bytes();
        let mut out = [0u8; PITS + 2];
        out.copy_from_slice(&b[..PITS + 2]);
        out
    }

    /// Seeds in absolute pit `pit` (0..=11).
    #[inline]
    pub fn seeds(&self, pit: usize) -> u8 {
        debug_assert!(pit < PITS);
        byte(self.cells, pit)
    }

    /// Seeds in South's and North's stores.
    #[inline]
    pub fn stores(&self) -> [u8; 2] {
        [byte(self.cells, 12), byte(self.cells, 13)]
    }

    /// Seeds in `player`'s store.
    #[inline]
    pub fn store(&self, player: Player) -> u8 {
        byte(self.cells, 12 + player.index())
    }

    /// `seat`'s store less the opponent's: what `seat` has banked ahead
    /// (the seed-difference rewards, the evaluation and the searches'
    /// move ordering all count from it).
    ///
    /// ```
    /// use ayo_core::{Player, Position, Rules};
    /// let rules = Rules::preset("oware").unwrap();
    /// let pos = Position::start(&rules);
    /// assert_eq!(pos.margin(Player::South), 0);
    /// ```
    #[inline]
    pub fn margin(&self, seat: Player) -> i32 {
        i32::from(self.store(seat)) - i32::from(self.store(seat.opponent()))
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Player {
        if mover(self.cells) == 0 {
            Player::South
        } else {
            Player::North
        }
    }

    /// Moves played in a row without a capture.
    #[inline]
    pub fn no_capture(&self) -> u16 {
        self.no_capture
    }

    /// Moves played since the start.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Seeds in `player`'s row.
    #[inline]
    pub fn row_seeds(&self, player: Player) -> u32 {
        let b = self.board();
        b[player.first_pit()..player.first_pit() + 6]
            .iter()
            .map(|&s| u32::from(s))
            .sum()
    }

    /// Seeds on the board.
    #[inline]
    pub fn board_seeds(&self) -> u32 {
        self.board().iter().map(|&s| u32::from(s)).sum()
    }

    /// The 64-bit key of the position (board, stores, player to move; not the
    /// counters), kept up to date incrementally as seeds move.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("ayoayo").unwrap();
    /// let a = Position::start(&rules);
    /// let b = a.play(&rules, a.move_for_action(0).unwrap()).unwrap();
    /// assert_ne!(a.hash(), b.hash());
    /// assert_eq!(b.hash(), Position::from_setup(&rules, &b.to_setup()).unwrap().hash());
    /// ```
    #[inline]
    pub fn hash(&self) -> u64 {
        finalize(self.raw_key())
    }

    /// Board, stores and player to move packed in one integer (byte `i` = pit
    /// `i`, bytes 12 and 13 = stores, byte 14 = player): equal exactly when the
    /// positions are the same for the repetition rule.
    #[inline]
    pub fn packed(&self) -> u128 {
        self.cells
    }

    /// The non-empty pits of the player to move, as a bit set over actions 0..=5.
    #[inline]
    pub fn nonempty_actions(&self) -> u8 {
        // The mover's six bytes, without a variable 128-bit shift.
        let row = if mover(self.cells) == 0 {
            self.cells as u64
        } else {
            (self.cells >> 48) as u64
        } & 0xFFFF_FFFF_FFFF;
        // Set the high bit of each non-zero byte, then gather bits 7, 15, …, 47
        // into bits 40..=45 with one multiply (the 36 partial products land on
        // distinct bits, so nothing carries).
        let nz = (((row & 0x7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F) | row) & 0x8080_8080_8080;
        const GATHER: u64 = (1 << 40) | (1 << 33) | (1 << 26) | (1 << 19) | (1 << 12) | (1 << 5);
        (((nz >> 7).wrapping_mul(GATHER) >> 40) & 0x3F) as u8
    }

    /// Sows `mv` for the player to move and passes the turn; `None` for an
    /// endless relay. Does not check feeding or that the game goes on.
    #[inline]
    pub(crate) fn sown(&self, rules: &Rules, pit: usize) -> Option<Position> {
        sow::sow(rules, self.cells, self.lin, pit).map(|s| self.after(s))
    }

    /// [`Position::sown`] for one relay setting and capture mode (see `sow::sow_mode`).
    #[inline(always)]
    pub(crate) fn sown_mode<const RELAY: bool, const CAP: u8>(
        &self,
        rules: &Rules,
        pit: usize,
    ) -> Option<Position> {
        sow::sow_mode::<RELAY, CAP>(rules, self.cells, self.lin, pit).map(|s| self.after(s))
    }

    /// The position after a sown move: turn passed, counters updated.
    #[inline(always)]
    pub(crate) fn after(&self, s: sow::Sown) -> Position {
        Position {
            cells: s.cells ^ (1u128 << PLAYER_SHIFT),
            lin: s.lin,
            no_capture: no_capture_after(self.no_capture, s.captured),
            ply: self.ply.wrapping_add(1),
        }
    }

    /// The additive key of the pits and stores, the side to move left out
    /// (which costs a test of the mover to add): for filters that confirm a
    /// match by comparing whole positions.
    #[inline(always)]
    pub(crate) fn board_key(&self) -> u64 {
        self.lin
    }

    /// The additive key, side to move included, before the final mixing of [`Position::hash`].
    #[inline]
    pub(crate) fn raw_key(&self) -> u64 {
        let side = if mover(self.cells) == 0 {
            0
        } else {
            NORTH_WEIGHT
        };
        self.lin.wrapping_add(side)
    }
}
