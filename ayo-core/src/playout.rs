//! Random playouts and perft: the hot loops of Monte Carlo players, RL data
//! generation and move-generator testing.

use rand::Rng;

use crate::end::end_reason;
use crate::family::with_family;
use crate::legal::must_feed;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::repeat::Window;
use crate::rules::{Repetition, Rules};
use crate::tables::{COUNT, SELECT};

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
/// end of docs/rules.md, repetition included, counted from `start`) or `max_plies`
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
    with_family!(rules, |RELAY, CAP| playout_mode::<RELAY, CAP, R>(
        rules, start, rng, max_plies
    ))
}

thread_local! {
    /// The repetition window's buffer, kept between playouts: MCTS runs one
    /// playout a simulation, and an allocation each would cost more than a move.
    static WINDOW_BUFFER: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

#[inline(always)]
fn playout_mode<const RELAY: bool, const CAP: u8, R: Rng + ?Sized>(
    rules: &Rules,
    start: Position,
    rng: &mut R,
    max_plies: u32,
) -> Playout {
    if rules.repetition() != Repetition::OwnSide {
        return playout_loop::<RELAY, CAP, R>(rules, start, rng, max_plies, None);
    }
    let mut window = Window::with_buffer(&start, WINDOW_BUFFER.take());
    let played = playout_loop::<RELAY, CAP, R>(rules, start, rng, max_plies, Some(&mut window));
    WINDOW_BUFFER.set(window.into_buffer());
    played
}

/// The playout itself: the end checks of [`end_reason`] at each position,
/// then a random move. `window`: the positions since the last capture, under
/// a repetition rule.
#[inline(always)]
fn playout_loop<const RELAY: bool, const CAP: u8, R: Rng + ?Sized>(
    rules: &Rules,
    start: Position,
    rng: &mut R,
    max_plies: u32,
    mut window: Option<&mut Window>,
) -> Playout {
    let mut pos = start;
    let mut plies = 0u32;
    let mut last_move: Option<Move> = None;
    loop {
        let mut next = None;
        let mut truncated = false;
        let reason = end_reason(
            rules,
            &pos,
            pos.no_capture() == 0 || last_move.is_none(),
            || {
                window
                    .as_deref_mut()
                    .is_some_and(|w| w.arrive(rules, last_move, &pos))
            },
            || {
                // Truncation comes before the move: a playout cut at
                // `max_plies` reports no end.
                if plies >= max_plies {
                    truncated = true;
                    return false;
                }
                next = if must_feed(rules, &pos) {
                    let children = pos.children(rules);
                    if children.is_empty() {
                        None
                    } else {
                        Some(children[rng.random_range(0..children.len())])
                    }
                } else {
                    random_sown::<RELAY, CAP, R>(rules, &pos, rng)
                };
                next.is_none()
            },
        );
        if let Some(reason) = reason {
            return Playout {
                outcome: Some(pos.final_outcome(rules, reason)),
                plies,
                last: pos,
            };
        }
        match next {
            Some((mv, p)) if !truncated => {
                pos = p;
                plies += 1;
                last_move = Some(mv);
            }
            _ => {
                return Playout {
                    outcome: None,
                    plies,
                    last: pos,
                }
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
) -> Option<(Move, Position)> {
    let first = pos.to_move().first_pit();
    let a = rng.random_range(0..6u32) as usize;
    let mut bits = pos.nonempty_actions();
    if bits & (1 << a) != 0 {
        let pit = first + a;
        let next = pos.sown_mode::<RELAY, CAP>(rules, pit);
        if !RELAY || next.is_some() {
            return next.map(|p| (Move(pit as u8), p));
        }
        bits &= !(1 << a);
    }
    while bits != 0 {
        let k = rng.random_range(0..u32::from(COUNT[bits as usize])) as usize;
        let pit = first + usize::from(SELECT[bits as usize][k]);
        let next = pos.sown_mode::<RELAY, CAP>(rules, pit);
        if !RELAY || next.is_some() {
            return next.map(|p| (Move(pit as u8), p));
        }
        bits &= !(1 << (pit - first));
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
