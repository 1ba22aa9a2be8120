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
use crate::rules::lap_board::{Board, Count};
use crate::rules::{GrandSlam, Rules};

// Each rule's decision is one small function over the values it reads
// (counts as bytes, pits and players as bytes or `usize`, conditions as
// `bool`): the scalar
// capture below and the lane engine (`kernels/lanes.rs`, which calls them
// once a lane inside its vectorised loops) both ask them. They combine
// conditions as the type of their pits wants ([`Count::both`]): by
// branches in the scalar loop, by masks in the byte lanes.

/// Whether pit `pit` is in `player`'s row (0 South: pits 0..6, 1 North).
#[inline(always)]
pub(crate) fn in_row<N: Count>(pit: N, player: N) -> bool {
    N::from(u8::from(pit >= N::from(6))) == player
}

/// Whether a pit now holding `seeds` is taken by the 2-or-3 rule.
#[inline(always)]
pub(crate) fn two_or_three<N: Count>(seeds: u8) -> bool {
    N::either(seeds == 2, || seeds == 3)
}

/// Whether a capture leaves the opponent's row empty (a grand slam):
/// `left` is what it leaves there (the row's bytes in the packed board, a
/// lane's seeds left in the lanes).
#[inline(always)]
pub(crate) fn is_grand_slam<T: PartialEq + Default>(left: T) -> bool {
    left == T::default()
}

/// Whether a capture stands: always, unless the rules forbid grand slams
/// (`no_grand_slam`) and it is one (`slam`, asked only then).
#[inline(always)]
pub(crate) fn capture_stands_under(no_grand_slam: bool, slam: impl FnOnce() -> bool) -> bool {
    !(no_grand_slam && slam())
}

/// Whether a capture that keeps the bytes of `kept` stands (the rule asked
/// first: it is one load, the row a few 128-bit operations).
#[inline(always)]
fn capture_stands(rules: &Rules, cells: u128, opp: usize, kept: u128) -> bool {
    capture_stands_under(rules.grand_slam() == GrandSlam::NoCapture, || {
        is_grand_slam(cells & ROW_MASK[opp] & kept)
    })
}

/// Whether the last seed, in pit `last` now holding `count`, starts a 2-or-3
/// capture: it made 2 or 3, in the opponent's row (`opp`'s). Also whether
/// pit `last` continues the chain, walking back ([`capture_two_three`]).
#[inline(always)]
pub(crate) fn makes_two_or_three<N: Count>(last: N, count: u8, opp: N) -> bool {
    // The count first: it fails more often and is cheaper than the row.
    N::both(two_or_three::<N>(count), || in_row(last, opp))
}

/// The pit facing `pit` across the board.
#[inline(always)]
pub(crate) fn facing(pit: u8) -> u8 {
    11 - pit
}

/// Whether a move whose last seed fell alone in pit `last` (empty before)
/// captures across for `me`: `last` in the mover's row, facing seeds.
#[inline(always)]
pub(crate) fn captures_across<N: Count>(last: N, me: N, facing_seeds: u8) -> bool {
    N::both(in_row(last, me), || facing_seeds > 0)
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
        if !two_or_three::<usize>(v) {
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

/// Capture across: the last seed fell in pit `last`, empty before; when
/// that captures ([`captures_across`]) the seeds of the facing pit go to the mover's
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
    let facing = usize::from(facing(last as u8));
    let f = byte(cells, facing);
    if !captures_across(last, me, f) {
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
