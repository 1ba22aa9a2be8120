//! What the rules compute on, below every rule that uses it: the board a
//! lap is sown on ([`Board`]: the packed board of `sow.rs`, the traced
//! board of `games/trace.rs`), how a lap ends ([`LapEnd`]), and the counts
//! the sowing and the captures reckon in ([`Count`]: integers in the scalar
//! loop, bytes in the lane engine).

use std::ops::{Add, Div, Mul, Sub};

use serde::{Deserialize, Serialize};

use crate::rules::Rules;

/// What the sowing of a move works on (one rule, `sow::sow_on`, over every
/// board): a board packed as in `board.rs` and its additive key, with its
/// own way of sowing a lap (whole laps from tables and closed forms on the
/// packed board, `sow::Packed`; seed by seed on the traced board of
/// `games/trace.rs`, which records each drop) and hooks for the events a
/// lap's sowing does not see (lifts, captures, a forfeited grand slam, the
/// end), no-ops on the packed board.
pub(crate) trait Board {
    /// The board, packed.
    fn cells(&self) -> u128;
    /// The board's additive key.
    fn key(&self) -> u64;
    /// Sets the board and its key (a capture's arithmetic, done once for every board).
    fn set(&mut self, cells: u128, key: u64);
    /// Lifts the `n` seeds of `origin` (a relay when `relay`, else the
    /// move's first lift) and sows them, skipping the origin when `skip`,
    /// with nothing collected. The pit of the last seed.
    fn sow_lap(&mut self, skip: bool, origin: usize, n: usize, relay: bool) -> usize;
    /// [`Board::sow_lap`] under collect on 4, for the mover `me`: the last
    /// pit, whether a 4 was collected, and whether the last seed made one.
    fn collect_lap(
        &mut self,
        rules: &Rules,
        origin: usize,
        n: usize,
        me: usize,
        relay: bool,
    ) -> (usize, bool, bool);
    /// Whether the board records events: the captures' pits are walked a
    /// second time only for one that does.
    const RECORDS: bool = false;
    /// `seeds` taken from `pit` by a capture, about to be applied.
    #[inline(always)]
    fn captured(&mut self, _pit: usize, _seeds: u8) {}
    /// A capture of `seeds` forfeited by the grand-slam rule.
    #[inline(always)]
    fn forfeited(&mut self, _seeds: u8) {}
    /// The move ended: the last seed in `last`, for `reason`.
    #[inline(always)]
    fn ended(&mut self, _last: usize, _reason: LapEnd) {}
}

/// How a move's last lap ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LapEnd {
    /// The last seed fell into an empty pit.
    EmptyPit,
    /// The last seed fell into an occupied pit and relay sowing is off.
    Occupied,
    /// The last seed made a 4, which was collected.
    MadeFour,
    /// The last seed made 2 or 3 in the opponent's row (a capture, or a forfeited grand slam).
    TwoThree,
}

/// A count of seeds or pits as the sowing computes with it: `u32` or
/// `usize` in the scalar loop, `u8` in a byte lane of the lane engine (`kernels/lanes.rs`),
/// whose lanes stay bytes.
pub(crate) trait Count:
    Copy
    + PartialOrd
    + From<u8>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
{
    /// One less, wrapping (a lane sowing nothing holds 0).
    fn less_one(self) -> Self;
    /// `a && b()` as this type's code wants it: short-circuit in the
    /// scalar loop, which branches on it; both asked in a byte lane, where
    /// a branch would stop the loop vectorising.
    fn both(a: bool, b: impl FnOnce() -> bool) -> bool;
    /// `a || b()`, likewise.
    fn either(a: bool, b: impl FnOnce() -> bool) -> bool;
}

/// [`Count`] for the lanes' bytes.
impl Count for u8 {
    #[inline(always)]
    fn less_one(self) -> u8 {
        self.wrapping_sub(1)
    }
    #[inline(always)]
    fn both(a: bool, b: impl FnOnce() -> bool) -> bool {
        a & b()
    }
    #[inline(always)]
    fn either(a: bool, b: impl FnOnce() -> bool) -> bool {
        a | b()
    }
}

/// [`Count`] for the scalar loop's integers.
macro_rules! scalar_count {
    ($($t:ty),*) => {$(
        impl Count for $t {
            #[inline(always)]
            fn less_one(self) -> $t {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn both(a: bool, b: impl FnOnce() -> bool) -> bool {
                a && b()
            }
            #[inline(always)]
            fn either(a: bool, b: impl FnOnce() -> bool) -> bool {
                a || b()
            }
        }
    )*};
}
scalar_count!(u16, u32, usize);
