//! Random playouts and perft: the hot loops of Monte Carlo players, RL data
//! generation and move-generator testing.

use rand::Rng;

use crate::kernels::dispatch::{self as kernel, Kernel, Loop};
use crate::rules::end::{counters_may_end, end_reason};
use crate::rules::family::with_family;
use crate::rules::legal::FeedingTest;
use crate::rules::moves::Move;
use crate::rules::outcome::{EndReason, Outcome};
use crate::rules::position::Position;
use crate::rules::repeat::Window;
use crate::rules::tables::{count, select};
use crate::rules::{Repetition, Rules};

/// How a random playout finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The real end, or `None` when `max_plies` moves were played first and
    /// the position they reached is not final (truncation).
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
    random_playout_on(kernel::active(), rules, start, rng, max_plies)
}

// Which kernel runs a playout is the caller's choice only in ayo's own
// tests and timers (the `testing` feature): the item is public in a private
// module, reachable only through the re-export below.
#[cfg(feature = "testing")]
pub use on_kernel::random_playout_on;
#[cfg(not(feature = "testing"))]
use on_kernel::random_playout_on;

mod on_kernel {
    use super::*;

    /// [`random_playout`] run by `kernel` (every kernel plays the same moves).
    pub fn random_playout_on<R: Rng + ?Sized>(
        kernel: Kernel,
        rules: &Rules,
        start: Position,
        rng: &mut R,
        max_plies: u32,
    ) -> Playout {
        // One kernel function a family: each as small as the generic it runs.
        with_family!(rules, |RELAY, CAP| kernel.run(
            PlayoutLoop::<RELAY, CAP, R> {
                rules,
                start,
                rng,
                max_plies,
            }
        ))
    }
}

/// [`random_playout`]'s arguments for one rule family, for [`Kernel::run`].
struct PlayoutLoop<'a, const RELAY: bool, const CAP: u8, R: ?Sized> {
    rules: &'a Rules,
    start: Position,
    rng: &'a mut R,
    max_plies: u32,
}

impl<const RELAY: bool, const CAP: u8, R: Rng + ?Sized> Loop for PlayoutLoop<'_, RELAY, CAP, R> {
    type Output = Playout;
    #[inline(always)]
    fn run(self) -> Playout {
        playout_mode::<RELAY, CAP, R>(self.rules, self.start, self.rng, self.max_plies)
    }
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
        return playout_loop::<RELAY, CAP, false, R>(rules, start, rng, max_plies, None);
    }
    let mut window = Window::with_buffer(&start, WINDOW_BUFFER.take());
    let played =
        playout_loop::<RELAY, CAP, true, R>(rules, start, rng, max_plies, Some(&mut window));
    WINDOW_BUFFER.set(window.into_buffer());
    played
}

/// The playout itself. At each position the ends of [`end_reason`] before
/// the moves (target, move limit, repetition: `window`, kept when `REPEATS`),
/// then truncation at `max_plies`, then a random move; a position with no
/// legal move (none could be drawn) is the last end, as in `end_reason`.
/// Without a repetition rule there is no window to keep (`None`).
#[inline(always)]
fn playout_loop<const RELAY: bool, const CAP: u8, const REPEATS: bool, R: Rng + ?Sized>(
    rules: &Rules,
    start: Position,
    rng: &mut R,
    max_plies: u32,
    mut window: Option<&mut Window>,
) -> Playout {
    let mut pos = start;
    let mut plies = 0u32;
    // The pit of the last move (for the repetition window); none before the first.
    let mut last_pit = 0u8;
    let counters = counters_may_end(rules, false);
    let feeding = FeedingTest::new(rules.feeding());
    let ended = |pos: Position, plies, reason| Playout {
        outcome: Some(pos.final_outcome(rules, reason)),
        plies,
        last: pos,
    };
    loop {
        let check_counters = counters || plies == 0 || pos.no_capture() == 0;
        // The closures are inlined by force: each kernel has its copy of this
        // loop, and a closure called from three copies is otherwise called out of line.
        let reason = end_reason(
            rules,
            &pos,
            check_counters,
            #[inline(always)]
            || {
                REPEATS
                    && window.as_deref_mut().is_some_and(
                        #[inline(always)]
                        |w| w.arrive(rules, (plies > 0).then_some(Move(last_pit)), &pos),
                    )
            },
            #[inline(always)]
            || false,
        );
        if let Some(reason) = reason {
            return ended(pos, plies, reason);
        }
        if plies >= max_plies {
            // Truncated, unless the position is final: no legal move is an
            // end even at the cap (the loop finds it only when drawing a move).
            let here = pos;
            return Playout {
                outcome: here.outcome(rules),
                plies,
                last: pos,
            };
        }
        let next = if feeding.binds(&pos) {
            // Called on a copy: `pos` itself is never lent to a call out of
            // line, so that it can stay in registers.
            let here = pos;
            let children = here.children(rules);
            if children.is_empty() {
                None
            } else {
                let (mv, p) = children[rng.random_range(0..children.len())];
                last_pit = mv.pit() as u8;
                Some(p)
            }
        } else {
            random_sown::<RELAY, CAP, R>(rules, &pos, rng, &mut last_pit)
        };
        match next {
            Some(p) => {
                pos = p;
                plies += 1;
            }
            None => return ended(pos, plies, EndReason::NoLegalMove),
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
    pit: &mut u8,
) -> Option<Position> {
    let first = pos.to_move().first_pit();
    let a = rng.random_range(0..6u32) as usize;
    let mut bits = pos.nonempty_actions();
    if bits & (1 << a) != 0 {
        let next = pos.sown_mode::<RELAY, CAP>(rules, first + a);
        if !RELAY || next.is_some() {
            *pit = (first + a) as u8;
            return next;
        }
        bits &= !(1 << a);
    }
    while bits != 0 {
        let k = rng.random_range(0..count(bits)) as usize;
        let a = select(bits, k);
        let next = pos.sown_mode::<RELAY, CAP>(rules, first + a as usize);
        if !RELAY || next.is_some() {
            *pit = (first + a as usize) as u8;
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
