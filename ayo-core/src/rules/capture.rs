//! Captures, as the last seed of a lap makes them (the rules' "capture"
//! step): across from an empty pit of the mover's row, or the chain of 2s and
//! 3s in the opponent's row, and the grand-slam rule that may cancel either.
//! (Collect on 4 takes seeds during the lap itself: see
//! [`crate::rules::sow::collect_lap`].)
//!
//! Each function works on a [`Board`] (the packed board of `board.rs`, byte
//! `i` = pit `i`, bytes 12 and 13 = the stores, and its additive key; the
//! traced board records the pits taken), and is inlined into the sowing loop
//! of its rule family.

use crate::rules::board::{byte, CLEAR, ROW_MASK};
use crate::rules::hash::{PIT_WEIGHT, STORE_WEIGHT};
use crate::rules::sow::Board;
use crate::rules::{GrandSlam, Rules};

/// Whether a capture that keeps only the bytes of `kept` (every pit taken
/// cleared) would leave `opp`'s row empty.
#[inline(always)]
pub(crate) fn is_grand_slam(cells: u128, opp: usize, kept: u128) -> bool {
    cells & ROW_MASK[opp] & kept == 0
}

/// Whether a capture that keeps the bytes of `kept` stands: always, unless
/// it is a grand slam and the rules forbid those (the rule asked first: it
/// is one load, the row a few 128-bit operations).
#[inline(always)]
fn capture_stands(rules: &Rules, cells: u128, opp: usize, kept: u128) -> bool {
    !(rules.grand_slam() == GrandSlam::NoCapture && is_grand_slam(cells, opp, kept))
}

/// Whether the last seed, in pit `last` now holding `count`, starts a 2-or-3
/// capture: it made 2 or 3, in the opponent's row.
#[inline(always)]
pub(crate) fn makes_two_or_three(last: usize, count: u8, opp: usize) -> bool {
    // The count first: it fails more often and is cheaper than the row
    // (a comparison, where `last / 6` is a multiply).
    (count == 2 || count == 3) && usize::from(last >= 6) == opp
}

/// The 2-or-3 chain: pit `last` (see [`makes_two_or_three`]) and, walking
/// backwards, each directly preceding pit of the opponent's row that holds 2
/// or 3, up to the first that does not, go to the mover's store, unless the
/// grand-slam rule cancels the capture. Applied to `board`; whether
/// anything was taken.
#[inline(always)]
pub(crate) fn capture_two_three<B: Board>(
    rules: &Rules,
    board: &mut B,
    last: usize,
    me: usize,
) -> bool {
    let (cells, key) = (board.cells(), board.key());
    let opp = 1 - me;
    let mut i = last;
    let mut take = 0u32;
    let mut kept = !0u128;
    let mut weight = 0u64;
    loop {
        let v = byte(cells, i);
        if v != 2 && v != 3 {
            break;
        }
        take += u32::from(v);
        kept &= CLEAR[i];
        weight = weight.wrapping_add(u64::from(v).wrapping_mul(PIT_WEIGHT[i]));
        if i == opp * 6 {
            break;
        }
        i -= 1;
    }
    if !capture_stands(rules, cells, opp, kept) {
        board.forfeited(take as u8);
        return false;
    }
    if B::RECORDS {
        // The chain again, from the last seed back, as it is taken.
        for j in (0..=last).rev() {
            if kept & !CLEAR[j] != 0 {
                break;
            }
            board.captured(j, byte(cells, j));
        }
    }
    board.set(
        (cells & kept) + (u128::from(take) << (8 * (12 + me))),
        key.wrapping_sub(weight)
            .wrapping_add(u64::from(take).wrapping_mul(STORE_WEIGHT[me])),
    );
    true
}

/// Capture across: the last seed fell in pit `last`, empty before, of the
/// mover's own row; the seeds of the facing pit (if any) go to the mover's
/// store, with the capturing seed itself when the rules say so, unless the
/// grand-slam rule cancels the capture. Applied to `board`; whether
/// anything was taken.
#[inline(always)]
pub(crate) fn capture_across<B: Board>(
    rules: &Rules,
    board: &mut B,
    last: usize,
    me: usize,
) -> bool {
    let (cells, key) = (board.cells(), board.key());
    let opp = 1 - me;
    let facing = 11 - last;
    let f = byte(cells, facing);
    if f == 0 {
        return false;
    }
    let seed = rules.capturing_seed_taken();
    if !capture_stands(rules, cells, opp, CLEAR[facing]) {
        board.forfeited(f + u8::from(seed));
        return false;
    }
    let mut take = u32::from(f);
    let mut c = cells & CLEAR[facing];
    let mut h = key.wrapping_sub(u64::from(f).wrapping_mul(PIT_WEIGHT[facing]));
    board.captured(facing, f);
    if seed {
        take += 1;
        c &= CLEAR[last];
        h = h.wrapping_sub(PIT_WEIGHT[last]);
        board.captured(last, 1);
    }
    board.set(
        c + (u128::from(take) << (8 * (12 + me))),
        h.wrapping_add(u64::from(take).wrapping_mul(STORE_WEIGHT[me])),
    );
    true
}
