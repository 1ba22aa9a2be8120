//! Random playouts and perft: the hot loops of Monte Carlo players, RL data
//! generation and move-generator testing.

use rand::Rng;

use crate::game::{EndReason, Outcome};
use crate::position::{Move, Position};
use crate::rules::{Feeding, Repetition, Rules};
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
/// let scores = p.outcome.unwrap().scores;
/// assert_eq!(scores[0] + scores[1], 48);
/// ```
pub fn random_playout<R: Rng + ?Sized>(rules: &Rules, start: Position, rng: &mut R, max_plies: u32) -> Playout {
    let mut pos = start;
    let mut plies = 0u32;
    let track_repeats = rules.repetition() == Repetition::OwnSide;
    let mut seen: Vec<u128> = Vec::new();
    loop {
        if let Some(reason) = pos.ended_by_counters(rules) {
            return Playout { outcome: Some(pos.final_outcome(rules, reason)), plies, last: pos };
        }
        if track_repeats {
            if pos.no_capture() == 0 {
                seen.clear();
            } else if seen.contains(&pos.packed()) {
                let o = pos.final_outcome(rules, EndReason::Repetition);
                return Playout { outcome: Some(o), plies, last: pos };
            }
            seen.push(pos.packed());
        }
        if plies >= max_plies {
            return Playout { outcome: None, plies, last: pos };
        }
        let next = if rules.feeding() != Feeding::Off
            && pos.packed() & ROW_MASK[pos.to_move().opponent().index()] == 0
        {
            let children = pos.children(rules);
            if children.is_empty() {
                None
            } else {
                Some(children[rng.random_range(0..children.len())].1)
            }
        } else {
            random_sown(rules, &pos, rng)
        };
        match next {
            Some(p) => {
                pos = p;
                plies += 1;
            }
            None => {
                let o = pos.final_outcome(rules, EndReason::NoLegalMove);
                return Playout { outcome: Some(o), plies, last: pos };
            }
        }
    }
}

/// A uniformly random legal move when no feeding rule applies, by rejection of endless relays.
#[inline]
fn random_sown<R: Rng + ?Sized>(rules: &Rules, pos: &Position, rng: &mut R) -> Option<Position> {
    let first = pos.to_move().first_pit() as u8;
    let mut bits = pos.nonempty_actions();
    while bits != 0 {
        let mut k = rng.random_range(0..bits.count_ones());
        let mut b = bits;
        while k > 0 {
            b &= b - 1;
            k -= 1;
        }
        let a = b.trailing_zeros() as u8;
        if let Some(p) = pos.try_play_unchecked(rules, Move::new(first + a).expect("pit in range")) {
            return Some(p);
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
    children.iter().map(|(_, p)| perft(rules, p, depth - 1)).sum()
}
