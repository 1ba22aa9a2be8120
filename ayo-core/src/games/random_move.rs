//! Random draws: the seeded generator of players and searches ([`Rng`]), and
//! how a uniformly random legal move is drawn, by [`crate::LeanGame::play_random`]
//! and by the random opponent of an episode over a full [`crate::Game`]: one
//! draw, so that an episode plays the same games whichever game it keeps.

use rand::Rng as RandomSource;

use crate::rules::tables::{count, select};

/// The seeded random number generator of players and searches.
pub(crate) type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// A uniformly random legal action among `candidates` (a bit set of
/// mover-relative actions): one drawn uniformly; if `is_legal` refuses it
/// (an endless relay), it is struck off and the draw repeated among the
/// rest. `None` when no candidate is legal.
///
/// The candidates are the non-empty pits, or the legal actions themselves
/// when a feeding rule applies (they are known only by sowing every pit
/// then). Each legal action is drawn with the same probability either way.
#[inline(always)]
pub(crate) fn draw_action<R: RandomSource + ?Sized>(
    rng: &mut R,
    mut candidates: u8,
    mut is_legal: impl FnMut(u8) -> bool,
) -> Option<u8> {
    while candidates != 0 {
        let a = draw_among(rng, candidates);
        if is_legal(a) {
            return Some(a);
        }
        candidates &= !(1 << a);
    }
    None
}

/// One action of the non-empty set `actions`, uniformly: [`draw_action`]
/// when every candidate is legal (its first draw is then the answer).
#[inline(always)]
pub(crate) fn draw_among<R: RandomSource + ?Sized>(rng: &mut R, actions: u8) -> u8 {
    debug_assert!(actions != 0 && actions < 64);
    // The count from a table: the baseline has no popcount instruction.
    let k = rng.random_range(0..count(actions)) as usize;
    select(actions, k)
}
