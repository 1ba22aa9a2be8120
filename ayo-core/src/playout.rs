//! Random playouts and perft: the hot loops of Monte Carlo players, RL data
//! generation and move-generator testing.

use rand::Rng;

use crate::game::{EndReason, Outcome};
use crate::position::Position;
use crate::rules::{Capture, Feeding, Repetition, Rules};
use crate::sow::ROW_MASK;

/// How a random playout finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The real end, or `None` when `max_plies` moves were played first (truncation).
    pub outcome: Option<Outcome>,
    /// Moves played.
    pub plies: u32,
    /// The last position reached.
    pub last: Position,
}

/// Plays uniformly random legal moves from `start` until the game ends (every
/// end of RULES.md, repetition included, counted from `start`) or `max_plies`
/// moves have been played.
///
/// A move is drawn uniformly among the non-empty pits and sown; an endless
/// relay is struck off and another is drawn. That is the same uniform choice
/// among legal moves as generating them all, but sows about one candidate a
/// move instead of all of them. When the opponent's row is empty and a feeding
/// rule applies, every candidate is sown ([`Position::children`]).
///
/// ```
/// use ayo_core::{playout::random_playout, Position, Rules};
/// use rand::SeedableRng;
/// let rules = Rules::preset("ayoayo").unwrap();
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
/// let p = random_playout(&rules, Position::start(&rules), &mut rng, 10_000);
/// let outcome = p.outcome.unwrap();
/// // Seeds are conserved: stores plus what the board still held.
/// let board: u32 = p.last.board().iter().map(|&s| u32::from(s)).sum();
/// let stores: u32 = p.last.stores().iter().map(|&s| u32::from(s)).sum();
/// assert_eq!(board + stores, 48);
/// assert!(outcome.scores[0] + outcome.scores[1] <= 48);
/// ```
pub fn random_playout<R: Rng + ?Sized>(
    rules: &Rules,
    start: Position,
    rng: &mut R,
    max_plies: u32,
) -> Playout {
    use crate::sow::{ACROSS, COLLECT_FOUR, TWO_THREE};
    match (rules.relay(), rules.capture()) {
        (true, Capture::Across) => playout_mode::<true, ACROSS, R>(rules, start, rng, max_plies),
        (true, Capture::TwoThree) => {
            playout_mode::<true, TWO_THREE, R>(rules, start, rng, max_plies)
        }
        (true, Capture::CollectFour) => {
            playout_mode::<true, COLLECT_FOUR, R>(rules, start, rng, max_plies)
        }
        (false, Capture::Across) => playout_mode::<false, ACROSS, R>(rules, start, rng, max_plies),
        (false, Capture::TwoThree) => {
            playout_mode::<false, TWO_THREE, R>(rules, start, rng, max_plies)
        }
        (false, Capture::CollectFour) => {
            playout_mode::<false, COLLECT_FOUR, R>(rules, start, rng, max_plies)
        }
    }
}

/// Positions seen since the last capture, for the repetition rule: a 256-bit
/// filter on the key answers "certainly new" for almost every position, and
/// only a filter hit scans the list exactly.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    filter: [u64; 4],
    list: Vec<u128>,
}

impl Seen {
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.filter = [0; 4];
        self.list.clear();
    }

    /// Records `pos`; true when it was already there.
    #[inline]
    pub(crate) fn insert(&mut self, pos: &Position) -> bool {
        // The top byte of the additive key is well mixed; a filter needs no
        // more (the side to move, left out, is compared exactly below).
        let b = (pos.lin() >> 56) as usize;
        let (word, bit) = (b >> 6, 1u64 << (b & 63));
        if self.filter[word] & bit != 0 && self.list.contains(&pos.packed()) {
            return true;
        }
        self.filter[word] |= bit;
        self.list.push(pos.packed());
        false
    }
}

/// `SELECT[bits][k]`: the action of the `k`-th set bit of `bits` (6-bit sets).
pub(crate) const SELECT: [[u8; 6]; 64] = {
    let mut t = [[0u8; 6]; 64];
    let mut bits = 0;
    while bits < 64 {
        let mut k = 0;
        let mut a = 0;
        while a < 6 {
            if bits & (1 << a) != 0 {
                t[bits][k] = a as u8;
                k += 1;
            }
            a += 1;
        }
        bits += 1;
    }
    t
};

/// `COUNT[bits]`: the number of set bits (a table load beats a portable popcount).
pub(crate) const COUNT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut bits = 0;
    while bits < 64 {
        t[bits] = (bits as u32).count_ones() as u8;
        bits += 1;
    }
    t
};

thread_local! {
    /// The repetition list's buffer, kept between playouts: MCTS runs one
    /// playout a simulation, and an allocation each would cost more than a move.
    static SEEN_BUFFER: std::cell::Cell<Vec<u128>> = const { std::cell::Cell::new(Vec::new()) };
}

#[inline(always)]
fn playout_mode<const RELAY: bool, const CAP: u8, R: Rng + ?Sized>(
    rules: &Rules,
    start: Position,
    rng: &mut R,
    max_plies: u32,
) -> Playout {
    if rules.repetition() != Repetition::OwnSide {
        return playout_loop::<RELAY, CAP, false, R>(
            rules,
            start,
            rng,
            max_plies,
            &mut Seen::default(),
        );
    }
    let mut seen = Seen {
        filter: [0; 4],
        list: SEEN_BUFFER.take(),
    };
    let played = playout_loop::<RELAY, CAP, true, R>(rules, start, rng, max_plies, &mut seen);
    seen.list.clear();
    SEEN_BUFFER.set(seen.list);
    played
}

#[inline(always)]
fn playout_loop<const RELAY: bool, const CAP: u8, const REPEATS: bool, R: Rng + ?Sized>(
    rules: &Rules,
    start: Position,
    rng: &mut R,
    max_plies: u32,
    seen: &mut Seen,
) -> Playout {
    let mut pos = start;
    let mut plies = 0u32;
    let feeding = rules.feeding() != Feeding::Off;
    let counters = rules.move_limit().is_some();
    let mut check_target = true;
    loop {
        // Stores change only with a capture, so the target needs checking only then.
        if check_target || counters {
            if let Some(reason) = pos.ended_by_counters(rules) {
                return Playout {
                    outcome: Some(pos.final_outcome(rules, reason)),
                    plies,
                    last: pos,
                };
            }
        }
        if REPEATS {
            if pos.no_capture() == 0 {
                seen.clear();
            }
            if seen.insert(&pos) {
                let o = pos.final_outcome(rules, EndReason::Repetition);
                return Playout {
                    outcome: Some(o),
                    plies,
                    last: pos,
                };
            }
        }
        if plies >= max_plies {
            return Playout {
                outcome: None,
                plies,
                last: pos,
            };
        }
        let opponent = 1 - ((pos.packed() >> 112) as usize & 1);
        let next = if feeding && pos.packed() & ROW_MASK[opponent] == 0 {
            let children = pos.children(rules);
            if children.is_empty() {
                None
            } else {
                Some(children[rng.random_range(0..children.len())].1)
            }
        } else {
            random_sown::<RELAY, CAP, R>(rules, &pos, rng)
        };
        match next {
            Some(p) => {
                pos = p;
                plies += 1;
                check_target = pos.no_capture() == 0;
            }
            None => {
                let o = pos.final_outcome(rules, EndReason::NoLegalMove);
                return Playout {
                    outcome: Some(o),
                    plies,
                    last: pos,
                };
            }
        }
    }
}

/// A uniformly random legal move when no feeding rule applies, by rejection of endless relays.
///
/// First one of the six pits is drawn, which needs nothing from the position,
/// so the draw is off the move-to-move dependency chain; if that pit is empty
/// (or an endless relay), the move is drawn among the legal ones instead. Each
/// of `k` legal moves is then chosen with probability `1/6 + (6 - k)/6 · 1/k
/// = 1/k`: still uniform.
#[inline(always)]
fn random_sown<const RELAY: bool, const CAP: u8, R: Rng + ?Sized>(
    rules: &Rules,
    pos: &Position,
    rng: &mut R,
) -> Option<Position> {
    let first = pos.to_move().first_pit();
    let a = rng.random_range(0..6u32) as usize;
    let mut bits = pos.nonempty_actions();
    if bits & (1 << a) != 0 {
        let next = pos.sown_mode::<RELAY, CAP>(rules, first + a);
        if !RELAY || next.is_some() {
            return next;
        }
        bits &= !(1 << a);
    }
    while bits != 0 {
        let k = rng.random_range(0..u32::from(COUNT[bits as usize])) as usize;
        let a = SELECT[bits as usize][k];
        let next = pos.sown_mode::<RELAY, CAP>(rules, first + a as usize);
        if !RELAY || next.is_some() {
            return next;
        }
        bits &= !(1 << a);
    }
    None
}

/// The number of legal move sequences of length `depth` from `pos` (games that
/// end earlier count at their end's depth only). Ends by target, move limit and
/// no legal move are seen; repetition, which needs a history, is not (it
/// cannot occur within a few moves of a start).
///
/// ```
/// use ayo_core::{playout::perft, Position, Rules};
/// let rules = Rules::preset("oware").unwrap();
/// assert_eq!(perft(&rules, &Position::start(&rules), 3), 190);
/// ```
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = pos.children(rules);
    if depth == 1 {
        return children.len() as u64;
    }
    children
        .iter()
        .map(|(_, p)| perft(rules, p, depth - 1))
        .sum()
}
