//! Sowing: one move's laps, written once ([`sow_on`]) over a [`Board`]:
//! the packed board of the engine ([`Packed`], `board.rs`), or the traced
//! board of `games/trace.rs`, which sows seed by seed and records each
//! event. On the packed board a lap is one multiply-add of precomputed
//! masks: `full` seeds to every pit of the lap plus one more to the `k` pits
//! after the origin ([`sow_lap`]); collect on 4 has its own closed form
//! ([`collect_lap`]); relay sowing lifts the last pit and goes on.
//!
//! Endless relays are found exactly with Brent's cycle detection over the
//! lap-start states `(board, pit lifted)`; the process is deterministic, so a
//! repeated state means the move never ends. The check starts only after
//! [`CHECK_FROM`] laps, which keeps it off the common path (most moves end within
//! a few laps) without bounding anything: the state sequence from any point on
//! is still eventually periodic, and Brent finds the period.

use crate::rules::board::{byte, mover, CLEAR, PITS_MASK, PIT_ONES};
use crate::rules::capture::{capture_across, capture_two_three, in_row, makes_two_or_three};
use crate::rules::family::{with_family, ACROSS, COLLECT_FOUR, TWO_THREE};
use crate::rules::hash::{LAP_WEIGHT, PIT_WEIGHT, STORE_WEIGHT};
pub use crate::rules::lap_board::LapEnd;
pub(crate) use crate::rules::lap_board::{Board, Count};
use crate::rules::{FoursTo, Rules};

/// Laps sown before the cycle check starts.
pub(crate) const CHECK_FROM: u32 = 16;

/// `LAP_ONES[o][k]`: one seed in each of the `k` pits after `o` (k = 12 includes `o`).
const LAP_ONES: [[u128; 13]; 12] = {
    let mut t = [[0u128; 13]; 12];
    let mut o = 0;
    while o < 12 {
        let mut k = 1;
        while k <= 12 {
            t[o][k] = t[o][k - 1] | (1u128 << (8 * ((o + k) % 12)));
            k += 1;
        }
        o += 1;
    }
    t
};

/// The packed board of the engine: the cells and the key, in registers.
#[derive(Clone, Copy)]
pub(crate) struct Packed {
    cells: u128,
    key: u64,
}

impl Board for Packed {
    #[inline(always)]
    fn cells(&self) -> u128 {
        self.cells
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
    #[inline(always)]
    fn set(&mut self, cells: u128, key: u64) {
        (self.cells, self.key) = (cells, key);
    }
    #[inline(always)]
    fn sow_lap(&mut self, skip: bool, origin: usize, n: usize, _relay: bool) -> usize {
        let last;
        (self.cells, self.key, last) = sow_lap(skip, self.cells, self.key, origin, n);
        last
    }
    #[inline(always)]
    fn collect_lap(
        &mut self,
        rules: &Rules,
        o: usize,
        n: usize,
        me: usize,
        _relay: bool,
    ) -> (usize, bool, bool) {
        let c = self.cells & CLEAR[o];
        let (full, k) = lap_shape(rules.skip_origin(), n as u32);
        let h = self
            .key
            .wrapping_sub((n as u64).wrapping_mul(PIT_WEIGHT[o]));
        let (c, h, took, made_four) = collect_lap(rules, c, h, o, full, k, me);
        (self.cells, self.key) = (c, h);
        (pit_after(o as u32, k) as usize, took, made_four)
    }
}

/// The state after a move has been sown (before the turn passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sown {
    pub cells: u128,
    pub lin: u64,
    /// Seeds went to a store (a capture or a collected 4).
    pub captured: bool,
}

/// Small laps (the common case) with the origin skipped come from a table:
/// what they add to every pit, the key delta, and the last pit. (A second
/// table for laps through the origin measured slower in the random playouts
/// than their closed form: the two tables crowd the L1 cache.)
const TABLE_SEEDS: usize = 48;

/// One small lap from a table: what it adds to the board (the origin's `n`
/// seeds lifted included, as a wrapping add: the origin held exactly `n`),
/// its key delta (the origin emptied included) and its last pit, side by side
/// so that one index reaches all three.
#[derive(Clone, Copy)]
struct Lap {
    add: u128,
    key: u64,
    last: u8,
}

/// `[origin][n]`: the lap of `n` seeds from `origin`. Rows 12..16 are never
/// read: they let the origin be masked rather than bounds-checked.
type LapTable = [[Lap; TABLE_SEEDS]; 16];

/// The laps of fewer than [`TABLE_SEEDS`] seeds, the origin skipped or not
/// (the closed form of [`sow_lap`]'s other path).
const fn lap_table(skip_origin: bool) -> LapTable {
    let mut t = [[Lap {
        add: 0,
        key: 0,
        last: 0,
    }; TABLE_SEEDS]; 16];
    let period = if skip_origin { 11 } else { 12 };
    let mut o = 0;
    while o < 12 {
        let full_mask = if skip_origin {
            PIT_ONES & !(0xFFu128 << (8 * o))
        } else {
            PIT_ONES
        };
        let mut n = 1;
        while n < TABLE_SEEDS {
            let full = (n - 1) / period;
            let k = (n - 1) % period + 1;
            t[o][n] = Lap {
                add: ((full as u128) * full_mask + LAP_ONES[o][k])
                    .wrapping_sub((n as u128) << (8 * o)),
                key: (full as u64)
                    .wrapping_mul(LAP_WEIGHT[o][period])
                    .wrapping_add(LAP_WEIGHT[o][k])
                    .wrapping_sub((n as u64).wrapping_mul(PIT_WEIGHT[o])),
                last: ((o + k) % 12) as u8,
            };
            n += 1;
        }
        o += 1;
    }
    t
}

static LAPS: LapTable = lap_table(true);

/// Sows the seeds of `pit` for the player to move: every lap, relay,
/// collection and capture of one move. `None` when the move is an endless
/// relay. The caller checks that `pit` is a non-empty pit of the mover.
#[inline]
pub(crate) fn sow(rules: &Rules, cells: u128, lin: u64, pit: usize) -> Option<Sown> {
    with_family!(rules, |RELAY, CAP| sow_mode::<RELAY, CAP>(
        rules, cells, lin, pit
    ))
}

/// [`sow_on`] for `rules`' family: the family's loop, once for every board.
#[inline]
pub(crate) fn sow_board<B: Board>(rules: &Rules, board: &mut B, pit: usize) -> Option<bool> {
    with_family!(rules, |RELAY, CAP| sow_on::<B, RELAY, CAP>(
        rules, board, pit
    ))
}

/// Brent's cycle detection over the lap-start states of a relay move,
/// from the lap after [`CHECK_FROM`] on.
struct EndlessRelay {
    /// Laps still to start before the check does.
    unchecked: u32,
    /// Brent's state, set up by the first check (most moves never get there,
    /// and nothing is stored for them).
    brent: Option<Brent>,
}

/// Brent's power-of-two search: the state saved, the current power and the
/// laps since the state was saved.
struct Brent {
    saved: (u128, usize),
    power: u32,
    lam: u32,
}

impl EndlessRelay {
    #[inline(always)]
    fn new() -> EndlessRelay {
        EndlessRelay {
            unchecked: CHECK_FROM,
            brent: None,
        }
    }

    /// Notes the start of a lap from `origin` on `cells`; true when this
    /// state was seen before: the move relays forever.
    #[inline(always)]
    fn repeats(&mut self, cells: u128, origin: usize) -> bool {
        if self.unchecked > 0 {
            self.unchecked -= 1;
            return false;
        }
        Brent::check(&mut self.brent, cells, origin)
    }
}

impl Brent {
    /// [`EndlessRelay::repeats`] once checking, on Brent's state (`None`
    /// before the first check).
    #[inline(always)]
    fn check(brent: &mut Option<Brent>, cells: u128, origin: usize) -> bool {
        let state = (cells & PITS_MASK, origin);
        let Some(b) = brent else {
            // The first check: nothing saved yet, the state is saved with
            // the power doubled from 1 (Brent's first step).
            *brent = Some(Brent {
                saved: state,
                power: 2,
                lam: 0,
            });
            return false;
        };
        if state == b.saved {
            return true;
        }
        b.lam += 1;
        if b.lam == b.power {
            b.saved = state;
            b.power *= 2;
            b.lam = 0;
        }
        false
    }
}

/// One lap of the `n` seeds of `origin`, without collections: the origin
/// emptied, then one seed to each following pit in turn, skipping the origin
/// on laps of 12 or more when the rules say so. Returns the board, the key
/// and the last pit.
#[inline(always)]
fn sow_lap(
    skip_origin: bool,
    cells: u128,
    key: u64,
    origin: usize,
    n: usize,
) -> (u128, u64, usize) {
    debug_assert_eq!(usize::from(byte(cells, origin)), n);
    if skip_origin && n < TABLE_SEEDS {
        debug_assert!(origin < 12);
        let lap = &LAPS[origin % 16][n];
        return (
            cells.wrapping_add(lap.add),
            key.wrapping_add(lap.key),
            lap.last as usize,
        );
    }
    let cells = cells & CLEAR[origin];
    let (full, k) = lap_shape(skip_origin, n as u32);
    let full_mask = if skip_origin {
        PIT_ONES & !(0xFFu128 << (8 * origin))
    } else {
        PIT_ONES
    };
    let full_weight = if skip_origin {
        LAP_WEIGHT[origin][11]
    } else {
        LAP_WEIGHT[origin][12]
    };
    (
        cells + u128::from(full) * full_mask + LAP_ONES[origin][k as usize],
        key.wrapping_sub((n as u64).wrapping_mul(PIT_WEIGHT[origin]))
            .wrapping_add(u64::from(full).wrapping_mul(full_weight))
            .wrapping_add(LAP_WEIGHT[origin][k as usize]),
        pit_after(origin as u32, k) as usize,
    )
}

/// The pits of a lap's cycle: 11 when the origin is skipped, else 12.
#[inline(always)]
pub(crate) fn period(skip_origin: bool) -> u8 {
    if skip_origin {
        11
    } else {
        12
    }
}

/// A lap of `n` seeds as `full` seeds to every pit of the cycle
/// ([`period`]) plus one to the next `k` pits (1..=period).
#[inline(always)]
pub(crate) fn lap_shape<N: Count>(skip_origin: bool, n: N) -> (N, N) {
    let period = N::from(period(skip_origin));
    let x = n.less_one();
    let full = x / period;
    (full, x - full * period + N::from(1))
}

/// The seeds a lap of shape `(full, k)` ([`lap_shape`]) drops in the pit
/// at distance `d` (1..=12, the origin at 12: [`distance`]) from its origin.
#[inline(always)]
pub(crate) fn lap_drops<N: Count>(skip_origin: bool, full: N, k: N, d: N) -> N {
    if skip_origin && d == N::from(12) {
        N::from(0)
    } else {
        full + N::from(u8::from(d <= k))
    }
}

/// The pit `k` (1..=12) pits on from `pit`, sowing's way round.
#[inline(always)]
pub(crate) fn pit_after<N: Count>(pit: N, k: N) -> N {
    let to = pit + k;
    if to >= N::from(12) {
        to - N::from(12)
    } else {
        to
    }
}

/// How far pit `to` is from `from` sowing's way round: 1..=12, `from`
/// itself at 12 ([`pit_after`]'s inverse).
#[inline(always)]
pub(crate) fn distance<N: Count>(from: N, to: N) -> N {
    let t = to + N::from(12) - from;
    if t > N::from(12) {
        t - N::from(12)
    } else {
        t
    }
}

/// Whether the last seed of a lap fell into an occupied pit (now holding
/// `count`): the move then relays from there in relay games, else ends.
#[inline(always)]
pub(crate) fn fell_in_occupied(count: u8) -> bool {
    count >= 2
}

/// [`sow`] for one rule family (`rules` must agree with `RELAY` and `CAP`),
/// on the packed board.
#[inline(always)]
pub(crate) fn sow_mode<const RELAY: bool, const CAP: u8>(
    rules: &Rules,
    cells: u128,
    lin: u64,
    pit: usize,
) -> Option<Sown> {
    let mut board = Packed { cells, key: lin };
    let captured = sow_on::<Packed, RELAY, CAP>(rules, &mut board, pit)?;
    Some(Sown {
        cells: board.cells,
        lin: board.key,
        captured,
    })
}

/// One move on `board`, for one rule family: whether seeds went to a store
/// (a capture or a collected 4), or `None` for an endless relay (the board
/// then in no particular state). A move is laps: lift a pit, sow it; then
/// the last seed decides: a capture ends the move, an occupied pit relays
/// (lifts it for the next lap) in relay games, anything else ends the move.
#[inline(always)]
pub(crate) fn sow_on<B: Board, const RELAY: bool, const CAP: u8>(
    rules: &Rules,
    board: &mut B,
    pit: usize,
) -> Option<bool> {
    debug_assert_eq!(RELAY, rules.relay());
    let me = mover(board.cells());
    let opp = 1 - me;
    let mut o = pit;
    let mut captured = false;
    let mut relay = false;
    let skip = rules.skip_origin();
    let mut endless = EndlessRelay::new();
    // The seeds lifted: the pit's, then each relay's last count (not read
    // back from the board).
    let mut n = byte(board.cells(), o) as usize;

    let (last, reason) = loop {
        if RELAY && endless.repeats(board.cells(), o) {
            return None;
        }
        debug_assert!(n > 0);
        let last;
        if CAP == COLLECT_FOUR {
            let (l, took, made_four) = board.collect_lap(rules, o, n, me, relay);
            last = l;
            captured |= took;
            if made_four {
                break (last, LapEnd::MadeFour);
            }
        } else {
            last = board.sow_lap(skip, o, n, relay);
        }

        let count = byte(board.cells(), last);
        if CAP == TWO_THREE && makes_two_or_three(last, count, opp) {
            captured |= capture_two_three(rules, board, last, me);
            break (last, LapEnd::TwoThree);
        }
        if fell_in_occupied(count) {
            if RELAY {
                o = last;
                n = usize::from(count);
                relay = true;
                continue;
            }
            break (last, LapEnd::Occupied);
        }
        // The row first, as `captures_across` asks it: the facing pit is
        // read only for a last seed in the mover's row.
        if CAP == ACROSS && in_row(last, me) {
            captured |= capture_across(rules, board, last, me);
        }
        break (last, LapEnd::EmptyPit);
    };
    board.ended(last, reason);
    Some(captured)
}

/// One collect-on-4 lap in closed form. Each pit's drops are independent of the
/// others' (the hand is not touched by a collection), so a pit that held `old`
/// and receives `d` seeds passes through 4 once when `old < 4 <= old + d` and
/// again every 4 drops after that. Returns the new cells and key, whether
/// anything was collected, and whether the last seed made a 4.
#[inline(never)]
pub(crate) fn collect_lap(
    rules: &Rules,
    mut c: u128,
    mut h: u64,
    o: usize,
    full: u32,
    k: u32,
    me: usize,
) -> (u128, u64, bool, bool) {
    let skip = rules.skip_origin();
    let last = pit_after(o as u32, k) as usize;
    let mut to = [0u32; 2];
    let mut made_four = false;
    for j in 1..=u32::from(period(skip)) {
        let i = pit_after(o as u32, j) as usize;
        let d = lap_drops(skip, full, k, j);
        if d == 0 {
            continue;
        }
        let old = u32::from(byte(c, i));
        let (new, fours) = if old < 4 && old + d >= 4 {
            let past = old + d - 4;
            (past % 4, 1 + past / 4)
        } else {
            (old + d, 0)
        };
        if fours > 0 {
            let mut owner_fours = fours;
            if i == last && new == 0 {
                made_four = true;
                to[me] += 4;
                owner_fours -= 1;
            }
            match rules.fours_to() {
                FoursTo::Mover => to[me] += 4 * owner_fours,
                FoursTo::PitOwner => to[i / 6] += 4 * owner_fours,
            }
        }
        c = (c & !(0xFFu128 << (8 * i))) | (u128::from(new) << (8 * i));
        h = h.wrapping_add(
            (u64::from(new).wrapping_sub(u64::from(old))).wrapping_mul(PIT_WEIGHT[i]),
        );
    }
    for (p, &seeds) in to.iter().enumerate() {
        if seeds > 0 {
            c += u128::from(seeds) << (8 * (12 + p));
            h = h.wrapping_add(u64::from(seeds).wrapping_mul(STORE_WEIGHT[p]));
        }
    }
    (c, h, to[0] + to[1] > 0, made_four)
}
