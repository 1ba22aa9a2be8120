//! The lane engine: many moves sown side by side, one game a byte lane.
//!
//! A block of [`LANES`] positions is held as a structure of arrays (pit `i`
//! of every lane in one row of bytes), and every step of a move is a plain
//! loop over the lanes that the compiler vectorises for the kernel it is
//! compiled for ([`crate::kernels::dispatch`]: 16, 32 or 64 lanes an instruction):
//!
//! * a lap in closed form, every pit of a row at once (its shape and each
//!   pit's drops: `sow.rs`'s `lap_shape`, `lap_drops`);
//! * relay laps as a masked loop: lanes whose last seed fell in an occupied
//!   pit lift it and sow again, the others keep their board;
//! * the 2-or-3 chain as a masked scan down from the last pit, capture
//!   across as a masked pick of the facing pit, the grand-slam rule as a
//!   masked row sum.
//!
//! This file is only that lockstep control: every rule decision in it (the
//! lap, the relay, the 2-or-3 start and chain, capture across, the grand
//! slam) is a function of `rules/` asked once a lane, over bytes
//! (`sow.rs`'s `Count`), which the scalar rules ask too.
//!
//! [`sow_moves`] sows a list of moves this way; the batch step's lane path
//! (`episode/lanes.rs`) uses the same block of lanes for its episodes' moves.
//!
//! What it cannot decide it leaves to the one scalar rules implementation
//! (`sow.rs`): collect-on-4 families, and relay moves still going after
//! 16 laps (where the scalar path starts looking for endless relays). The
//! property tests check it lane by lane against [`Position::try_play_unchecked`]
//! for every rule family.

// Lane loops index several arrays by the same lane (or pit).
#![allow(clippy::needless_range_loop)]

use crate::rules::capture::{
    capture_stands_under, captures_across, facing, in_row, is_grand_slam, makes_two_or_three,
};
use crate::rules::hash::{PIT_WEIGHT, STORE_WEIGHT};
use crate::rules::sow::{distance, fell_in_occupied, lap_drops, lap_shape, pit_after, CHECK_FROM};
use crate::rules::{Capture, GrandSlam, Rules};
// What `sow_moves`, the lane engine called directly, needs besides.
#[cfg(any(test, feature = "testing"))]
use crate::{
    kernels::dispatch::{Kernel, Loop},
    rules::{moves::Move, position::Position, sow::Sown},
};

/// Lanes a block: enough for four AVX-512 registers of bytes a row.
pub const LANES: usize = 64;

/// Bytes a lane: the 12 pits and the 2 stores.
pub(crate) const CELLS: usize = 14;

/// One block of moves in lanes (also the batch step's: `episode/lanes.rs`).
#[derive(Clone)]
pub(crate) struct Block {
    /// `cells[i][l]`: pit (or store) `i` of lane `l`.
    pub(crate) cells: [[u8; LANES]; CELLS],
    /// The pit each lane sows from next.
    pub(crate) origin: [u8; LANES],
    /// The player to move in each lane (0 South, 1 North).
    pub(crate) mover: [u8; LANES],
    /// Lanes still sowing (1) or done (0).
    pub(crate) active: [u8; LANES],
    /// Lanes whose move took seeds to a store.
    pub(crate) captured: [u8; LANES],
}

/// The rules the lane engine needs, read once a batch.
#[derive(Clone, Copy)]
pub(crate) struct LaneRules {
    pub(crate) relay: bool,
    pub(crate) two_three: bool,
    pub(crate) skip: bool,
    no_grand_slam: bool,
    seed_taken: bool,
}

impl LaneRules {
    /// The lane rules of `rules`, or `None` for a family left to the scalar path.
    pub(crate) fn of(rules: &Rules) -> Option<LaneRules> {
        let two_three = match rules.capture() {
            Capture::TwoThree => true,
            Capture::Across => false,
            Capture::CollectFour => return None,
        };
        Some(LaneRules {
            relay: rules.relay(),
            two_three,
            skip: rules.skip_origin(),
            no_grand_slam: rules.grand_slam() == GrandSlam::NoCapture,
            seed_taken: rules.capturing_seed_taken(),
        })
    }
}

#[cfg(any(test, feature = "testing"))]
/// Whether the lane engine sows `rules`' moves itself (single-lap and relay
/// sowing with captures across or by the 2-or-3 chain; not collect on 4).
pub fn sows_in_lanes(rules: &Rules) -> bool {
    LaneRules::of(rules).is_some()
}

#[cfg(any(test, feature = "testing"))]
/// The children of `moves` (each a position and a non-empty pit of its
/// player to move), as [`Position::try_play_unchecked`] gives them (`None`:
/// an endless relay), into `out` (as long as `moves`), sown in lanes by
/// `kernel` where the lane engine can and by the scalar path elsewhere.
///
/// ```
/// use ayo_core::{kernel, lanes, Position, Rules};
/// let rules = Rules::preset("oware")?;
/// let start = Position::start(&rules);
/// let moves: Vec<_> = (0..6).map(|a| (start, start.move_for_action(a).unwrap())).collect();
/// let mut out = vec![None; moves.len()];
/// lanes::sow_moves(kernel::active(), &rules, &moves, &mut out);
/// for ((pos, mv), child) in moves.iter().zip(&out) {
///     assert_eq!(*child, pos.try_play_unchecked(&rules, *mv));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Panics
/// When `out` and `moves` differ in length.
pub fn sow_moves(
    kernel: Kernel,
    rules: &Rules,
    moves: &[(Position, Move)],
    out: &mut [Option<Position>],
) {
    assert_eq!(moves.len(), out.len(), "one output a move");
    let Some(lane_rules) = LaneRules::of(rules) else {
        for ((pos, mv), o) in moves.iter().zip(out.iter_mut()) {
            *o = pos.try_play_unchecked(rules, *mv);
        }
        return;
    };
    // One straight-line copy a family (the period of a lap a constant).
    match (lane_rules.relay, lane_rules.two_three, lane_rules.skip) {
        (false, false, false) => {
            blocks::<false, false, false>(kernel, rules, lane_rules, moves, out)
        }
        (false, false, true) => blocks::<false, false, true>(kernel, rules, lane_rules, moves, out),
        (false, true, false) => blocks::<false, true, false>(kernel, rules, lane_rules, moves, out),
        (false, true, true) => blocks::<false, true, true>(kernel, rules, lane_rules, moves, out),
        (true, false, false) => blocks::<true, false, false>(kernel, rules, lane_rules, moves, out),
        (true, false, true) => blocks::<true, false, true>(kernel, rules, lane_rules, moves, out),
        (true, true, false) => blocks::<true, true, false>(kernel, rules, lane_rules, moves, out),
        (true, true, true) => blocks::<true, true, true>(kernel, rules, lane_rules, moves, out),
    }
}

#[cfg(any(test, feature = "testing"))]
/// [`sow_moves`] for one family, a block of [`LANES`] moves at a time.
fn blocks<const RELAY: bool, const TWO_THREE: bool, const SKIP: bool>(
    kernel: Kernel,
    rules: &Rules,
    lane_rules: LaneRules,
    moves: &[(Position, Move)],
    out: &mut [Option<Position>],
) {
    for (moves, out) in moves.chunks(LANES).zip(out.chunks_mut(LANES)) {
        kernel.run(BlockLoop::<RELAY, TWO_THREE, SKIP> {
            rules,
            lane_rules,
            moves,
            out,
        });
    }
}

#[cfg(any(test, feature = "testing"))]
/// One block of one family for [`Kernel::run`].
struct BlockLoop<'a, const RELAY: bool, const TWO_THREE: bool, const SKIP: bool> {
    rules: &'a Rules,
    lane_rules: LaneRules,
    moves: &'a [(Position, Move)],
    out: &'a mut [Option<Position>],
}

#[cfg(any(test, feature = "testing"))]
impl<const RELAY: bool, const TWO_THREE: bool, const SKIP: bool> Loop
    for BlockLoop<'_, RELAY, TWO_THREE, SKIP>
{
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let mut block = Block::load(self.moves);
        let unfinished = block.sow::<RELAY, TWO_THREE, SKIP>(self.lane_rules);
        block.store(self.rules, self.moves, unfinished, self.out);
    }
}

/// All ones when `b`, else zero: a lane's condition as a byte mask
/// (selects by masks vectorise; branches do not).
#[inline(always)]
pub(crate) fn mask(b: bool) -> u8 {
    0u8.wrapping_sub(u8::from(b))
}

/// `yes` when `b`, else `no`, by masks.
#[inline(always)]
fn select(b: bool, yes: u8, no: u8) -> u8 {
    (yes & mask(b)) | (no & !mask(b))
}

impl Block {
    /// A block of empty, inactive lanes.
    #[inline(always)]
    pub(crate) fn empty() -> Block {
        Block {
            cells: [[0; LANES]; CELLS],
            origin: [0; LANES],
            mover: [0; LANES],
            active: [0; LANES],
            captured: [0; LANES],
        }
    }

    /// Every lane's board key, as [`Position::board_key`] computes it:
    /// `Σ seeds × weight` (mod 2^64) with each weight split in 32-bit
    /// halves, a byte times a half one 32-bit multiply a lane.
    #[inline(always)]
    pub(crate) fn board_keys(&self) -> [u64; LANES] {
        let (mut low, mut high) = ([0u64; LANES], [0u32; LANES]);
        for (i, row) in self.cells.iter().enumerate() {
            let w = if i < 12 {
                PIT_WEIGHT[i]
            } else {
                STORE_WEIGHT[i - 12]
            };
            let (w_low, w_high) = (w & 0xFFFF_FFFF, (w >> 32) as u32);
            for l in 0..LANES {
                low[l] += u64::from(row[l]) * w_low;
                high[l] = high[l].wrapping_add(u32::from(row[l]).wrapping_mul(w_high));
            }
        }
        std::array::from_fn(|l| low[l].wrapping_add(u64::from(high[l]) << 32))
    }

    /// The block of the positions packed as `packed` (see
    /// [`Position::packed`]), lane `l` to sow `origin[l]` where `active[l]`
    /// is 1: a row at a time (a lane at a time costs about twice as much).
    #[inline(always)]
    pub(crate) fn from_packed(
        packed: &[u128; LANES],
        origin: [u8; LANES],
        active: [u8; LANES],
    ) -> Block {
        let mut b = Block::empty();
        let low: [u64; LANES] = std::array::from_fn(|l| packed[l] as u64);
        let high: [u64; LANES] = std::array::from_fn(|l| (packed[l] >> 64) as u64);
        for (i, row) in b.cells.iter_mut().enumerate() {
            let (words, shift) = if i < 8 {
                (&low, 8 * i)
            } else {
                (&high, 8 * (i - 8))
            };
            for l in 0..LANES {
                row[l] = (words[l] >> shift) as u8;
            }
        }
        for l in 0..LANES {
            b.mover[l] = (high[l] >> (8 * (14 - 8))) as u8;
        }
        b.origin = origin;
        b.active = active;
        b
    }

    /// The block of `moves` (at most [`LANES`]); unused lanes are inactive.
    #[cfg(any(test, feature = "testing"))]
    #[inline(always)]
    fn load(moves: &[(Position, Move)]) -> Block {
        let (mut packed, mut origin, mut active) = ([0u128; LANES], [0u8; LANES], [0u8; LANES]);
        for (l, (pos, mv)) in moves.iter().enumerate() {
            (packed[l], origin[l], active[l]) = (pos.packed(), mv.pit() as u8, 1);
        }
        Block::from_packed(&packed, origin, active)
    }

    /// Every lane's cells and player to move, packed as
    /// [`Position::packed`]: two words a lane, built a row at a time (a
    /// lane at a time costs about twice as much).
    #[inline(always)]
    pub(crate) fn packed_lanes(&self) -> [u128; LANES] {
        let (mut low, mut high) = ([0u64; LANES], [0u64; LANES]);
        for i in 0..8 {
            for l in 0..LANES {
                low[l] |= u64::from(self.cells[i][l]) << (8 * i);
            }
        }
        for i in 8..CELLS {
            for l in 0..LANES {
                high[l] |= u64::from(self.cells[i][l]) << (8 * (i - 8));
            }
        }
        for l in 0..LANES {
            high[l] |= u64::from(self.mover[l]) << (8 * (14 - 8));
        }
        std::array::from_fn(|l| u128::from(low[l]) | u128::from(high[l]) << 64)
    }

    /// Sows every active lane to the end of its move; returns the lanes
    /// left unfinished (a bit each) for the scalar path: relays still going
    /// after [`CHECK_FROM`] laps.
    #[inline(always)]
    pub(crate) fn sow<const RELAY: bool, const TWO_THREE: bool, const SKIP: bool>(
        &mut self,
        r: LaneRules,
    ) -> u64 {
        let mut last = [0u8; LANES];
        // Lanes whose last seed ended the move without a 2-or-3 capture start.
        let mut ended = [0u8; LANES];
        for _ in 0..CHECK_FROM {
            self.lap::<SKIP>(&mut last);
            if TWO_THREE {
                self.capture_two_three(r, &last);
            }
            if !self.relay::<RELAY>(&last, &mut ended) {
                break;
            }
        }
        if !TWO_THREE {
            self.capture_across(r, &last, &ended);
        }
        let mut unfinished = 0u64;
        for l in 0..LANES {
            unfinished |= u64::from(self.active[l]) << l;
        }
        unfinished
    }

    /// One lap of every active lane from its origin, in closed form; `last`
    /// receives each lane's last pit.
    #[inline(always)]
    fn lap<const SKIP: bool>(&mut self, last: &mut [u8; LANES]) {
        // The seeds lifted: the origin's (inactive lanes lift none).
        let mut seeds = [0u8; LANES];
        let (origin, active) = (self.origin, self.active);
        for i in 0..12u8 {
            let row = &mut self.cells[usize::from(i)];
            for l in 0..LANES {
                let take = (origin[l] == i) & (active[l] != 0);
                seeds[l] |= row[l] & mask(take);
                row[l] &= !mask(take);
            }
        }
        // The lap's shape and each pit's drops as `sow.rs` has them, in
        // byte arithmetic: the lanes stay bytes.
        let (mut full, mut k) = ([0u8; LANES], [0u8; LANES]);
        for l in 0..LANES {
            (full[l], k[l]) = lap_shape(SKIP, seeds[l]);
        }
        for i in 0..12u8 {
            let row = &mut self.cells[usize::from(i)];
            for l in 0..LANES {
                let gets = lap_drops(SKIP, full[l], k[l], distance(origin[l], i));
                row[l] = row[l].wrapping_add(gets & mask(seeds[l] != 0));
            }
        }
        for l in 0..LANES {
            let end = pit_after(self.origin[l], k[l]);
            last[l] = select(self.active[l] != 0, end, last[l]);
        }
    }

    /// The seeds in pit `at[l]` of each lane.
    #[inline(always)]
    fn pick(&self, at: &[u8; LANES]) -> [u8; LANES] {
        let mut count = [0u8; LANES];
        for i in 0..12u8 {
            let row = &self.cells[usize::from(i)];
            for l in 0..LANES {
                count[l] |= row[l] & mask(at[l] == i);
            }
        }
        count
    }

    /// The end of a lap: active lanes whose last seed fell in an occupied
    /// pit relay (lift it next) in relay games; the others are done and
    /// marked in `ended`. Whether any goes on.
    #[inline(always)]
    fn relay<const RELAY: bool>(&mut self, last: &[u8; LANES], ended: &mut [u8; LANES]) -> bool {
        let count = self.pick(last);
        let mut any = 0u8;
        for l in 0..LANES {
            let active = self.active[l] != 0;
            let on = RELAY & active & fell_in_occupied(count[l]);
            ended[l] |= u8::from(active & !on);
            self.active[l] = u8::from(on);
            self.origin[l] = select(on, last[l], self.origin[l]);
            any |= u8::from(on);
        }
        any != 0
    }

    /// The 2-or-3 chain of the active lanes whose last seed made 2 or 3 in
    /// the opponent's row: a scan down from the last pit within that row;
    /// those lanes are done (captured or not, as `sow.rs`).
    #[inline(always)]
    fn capture_two_three(&mut self, r: LaneRules, last: &[u8; LANES]) {
        let count = self.pick(last);
        let mut starts = [0u8; LANES];
        for l in 0..LANES {
            let opp = self.mover[l] ^ 1;
            let on = (self.active[l] != 0) & makes_two_or_three(last[l], count[l], opp);
            starts[l] = u8::from(on);
        }
        // taken[i][l]: pit i is in lane l's chain.
        let mut taken = [[0u8; LANES]; 12];
        let mut alive = [0u8; LANES];
        let mover = self.mover;
        // `below[l]`: `last - i`, 0 at the last pit and 1..=11 under it, kept
        // as a counter (compared with `i` itself, the lanes were widened to
        // 64 bits).
        let mut below: [u8; LANES] = std::array::from_fn(|l| last[l].wrapping_sub(12));
        for i in (0..12u8).rev() {
            let row = &self.cells[usize::from(i)];
            let taken_row = &mut taken[usize::from(i)];
            for l in 0..LANES {
                below[l] = below[l].wrapping_add(1);
                // Pit `i` continues the chain as the last pit starts it.
                let joins = mask(makes_two_or_three(i, row[l], mover[l] ^ 1));
                let chained =
                    mask(below[l] == 0) | (alive[l] & mask(below[l].wrapping_sub(1) < 11));
                let on = mask(starts[l] != 0) & joins & chained;
                alive[l] = on;
                taken_row[l] = on;
            }
        }
        self.take(r, &taken, &starts);
        for l in 0..LANES {
            self.active[l] &= !mask(starts[l] != 0);
        }
    }

    /// Capture across in the lanes whose move `ended` with the last seed
    /// alone in a pit of the mover's row facing seeds: the facing pit (and
    /// the capturing seed when the rules say so) to the mover's store.
    #[inline(always)]
    fn capture_across(&mut self, r: LaneRules, last: &[u8; LANES], ended: &[u8; LANES]) {
        let count = self.pick(last);
        let mut facing_pit = [0u8; LANES];
        for l in 0..LANES {
            facing_pit[l] = facing(last[l]);
        }
        let facing_seeds = self.pick(&facing_pit);
        let mut starts = [0u8; LANES];
        for l in 0..LANES {
            let alone = (ended[l] != 0) & !fell_in_occupied(count[l]);
            let on = alone & captures_across(last[l], self.mover[l], facing_seeds[l]);
            starts[l] = u8::from(on);
        }
        // The capturing seed is in the mover's row: it does not change
        // whether the opponent's row is left empty (the grand slam).
        let mut taken = [[0u8; LANES]; 12];
        for i in 0..12u8 {
            let taken_row = &mut taken[usize::from(i)];
            for l in 0..LANES {
                let seed = r.seed_taken & (last[l] == i);
                taken_row[l] = u8::from((starts[l] != 0) & ((facing_pit[l] == i) | seed));
            }
        }
        self.take(r, &taken, &starts);
    }

    /// Takes the pits of `taken` to the mover's store in the lanes of
    /// `starts`, unless the grand-slam rule cancels it (the opponent's row
    /// left empty: `capture.rs`).
    #[inline(always)]
    fn take(&mut self, r: LaneRules, taken: &[[u8; LANES]; 12], starts: &[u8; LANES]) {
        let mut left = [0u8; LANES];
        let mover = self.mover;
        for i in 0..12u8 {
            let row = &self.cells[usize::from(i)];
            let taken_row = &taken[usize::from(i)];
            for l in 0..LANES {
                let stays = !in_row(i, mover[l]) & (taken_row[l] == 0) & (row[l] != 0);
                left[l] |= u8::from(stays);
            }
        }
        let mut stands = [0u8; LANES];
        for l in 0..LANES {
            let stands_l = capture_stands_under(r.no_grand_slam, || is_grand_slam(left[l]));
            stands[l] = u8::from((starts[l] != 0) & stands_l);
        }
        let mut gain = [0u8; LANES];
        for i in 0..12u8 {
            let row = &mut self.cells[usize::from(i)];
            let taken_row = &taken[usize::from(i)];
            for l in 0..LANES {
                let go = (stands[l] != 0) & (taken_row[l] != 0);
                gain[l] = gain[l].wrapping_add(row[l] & mask(go));
                row[l] &= !mask(go);
            }
        }
        let (south, north) = self.cells.split_at_mut(13);
        let (south, north) = (&mut south[12], &mut north[0]);
        for l in 0..LANES {
            let to_south = self.mover[l] == 0;
            south[l] = south[l].wrapping_add(gain[l] & mask(to_south));
            north[l] = north[l].wrapping_add(gain[l] & !mask(to_south));
            self.captured[l] |= stands[l];
        }
    }

    /// Writes each lane's child to `out`; `unfinished` lanes are sown by
    /// the scalar path.
    #[cfg(any(test, feature = "testing"))]
    #[inline(always)]
    fn store(
        &self,
        rules: &Rules,
        moves: &[(Position, Move)],
        unfinished: u64,
        out: &mut [Option<Position>],
    ) {
        let (packed, keys) = (self.packed_lanes(), self.board_keys());
        for (l, ((pos, mv), o)) in moves.iter().zip(out.iter_mut()).enumerate() {
            if unfinished & (1 << l) != 0 {
                *o = pos.try_play_unchecked(rules, *mv);
                continue;
            }
            *o = Some(pos.after(Sown {
                cells: packed[l],
                lin: keys[l],
                captured: self.captured[l] != 0,
            }));
        }
    }
}
