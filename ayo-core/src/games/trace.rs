//! Sowing traces: a move seed by seed, for animation and for showing where
//! the last seed will land.
//!
//! A trace is the engine's own sowing (`rules/sow.rs`, `sow_on`) on a
//! traced board, which drops one seed at a time and records each event as
//! it happens: so a trace is exactly the move the engine plays. Only the
//! laps' arithmetic differs from the packed board's (seed by seed here,
//! whole laps from tables and closed forms there); the tests compare the
//! two boards move by move.

use serde::{Deserialize, Serialize};

use crate::rules::board::CLEAR;
use crate::rules::hash::{PIT_WEIGHT, STORE_WEIGHT};
use crate::rules::moves::{IllegalMove, Move};
use crate::rules::position::{Position, PITS};
use crate::rules::setup::Setup;
use crate::rules::sow::{sow_board, Board, Sown};
use crate::rules::{FoursTo, Rules};
use crate::Player;

pub use crate::rules::sow::LapEnd;

/// One step of a move, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// The mover lifts every seed of `pit` to start the move.
    Lift {
        /// Absolute pit.
        pit: usize,
        /// Seeds lifted.
        seeds: u8,
    },
    /// The last seed fell into an occupied pit: its seeds are lifted and sowing goes on.
    Relay {
        /// Absolute pit.
        pit: usize,
        /// Seeds lifted (including the one just dropped).
        seeds: u8,
    },
    /// One seed is dropped into `pit`.
    Drop {
        /// Absolute pit.
        pit: usize,
    },
    /// A drop made `pit` hold 4, and the 4 are collected.
    Collect {
        /// Absolute pit.
        pit: usize,
        /// Who receives them.
        to: Player,
    },
    /// Seeds of `pit` are captured by the mover.
    Capture {
        /// Absolute pit.
        pit: usize,
        /// Seeds taken from it.
        seeds: u8,
    },
    /// The capture would have emptied the opponent's row and is forfeited.
    GrandSlamForfeited {
        /// Seeds that would have been captured.
        seeds: u8,
    },
    /// The move ends: where the last seed fell and why sowing stopped.
    End {
        /// Absolute pit of the last seed.
        pit: usize,
        /// Why.
        reason: LapEnd,
    },
}

/// A move sown seed by seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// Every step, in order.
    pub events: Vec<Event>,
    /// The number of laps (1 + relays).
    pub laps: u32,
    /// The pit where the last seed fell.
    pub last_pit: usize,
    /// Seeds taken into stores during the move (captures and collected 4s), South and North.
    pub taken: [u16; 2],
    /// Why the move ended (the reason of the last event, [`Event::End`]).
    pub end: LapEnd,
}

/// Sows `mv` from `pos` seed by seed. Errors are those of [`Position::check_move`].
///
/// ```
/// use ayo_core::{trace::{trace, Event, LapEnd}, Position, Rules};
/// let rules = Rules::preset("oware").unwrap();
/// let pos = Position::start(&rules);
/// let (t, next) = trace(&rules, &pos, pos.move_for_action(5).unwrap()).unwrap();
/// assert_eq!(t.events[0], Event::Lift { pit: 5, seeds: 4 });
/// assert_eq!(t.last_pit, 9);
/// assert_eq!(t.events.last(), Some(&Event::End { pit: 9, reason: LapEnd::Occupied }));
/// assert_eq!(next, pos.play(&rules, pos.move_for_action(5).unwrap()).unwrap());
/// ```
pub fn trace(rules: &Rules, pos: &Position, mv: Move) -> Result<(Trace, Position), IllegalMove> {
    let next = pos.check_move(rules, mv)?;
    let (t, traced_next) =
        traced(rules, pos, mv.pit()).ok_or(IllegalMove::EndlessRelay { pit: mv.pit() })?;
    debug_assert_eq!(traced_next, next, "the traced and packed boards disagree");
    Ok((t, next))
}

/// The seed-by-seed sowing of `mv` (a non-empty pit of the mover), with
/// no feeding or game-over check; `None` for an endless relay. Returns the
/// trace and the position after the move, turn passed and counters updated.
pub fn sow_seed_by_seed(rules: &Rules, pos: &Position, mv: Move) -> Option<(Trace, Setup)> {
    traced(rules, pos, mv.pit()).map(|(t, next)| (t, next.to_setup()))
}

/// The move from `pit` sown on the traced board: its trace and the
/// position it leads to.
fn traced(rules: &Rules, pos: &Position, pit: usize) -> Option<(Trace, Position)> {
    let mut board = Traced {
        cells: pos.packed(),
        key: pos.board_key(),
        events: Vec::new(),
        laps: 0,
        last: pit,
        end: LapEnd::EmptyPit,
    };
    let captured = sow_board(rules, &mut board, pit)?;
    let next = pos.after(Sown {
        cells: board.cells,
        lin: board.key,
        captured,
    });
    let taken =
        [Player::South, Player::North].map(|p| u16::from(next.store(p)) - u16::from(pos.store(p)));
    Some((
        Trace {
            events: board.events,
            laps: board.laps,
            last_pit: board.last,
            taken,
            end: board.end,
        },
        next,
    ))
}

/// The traced board: the packed board and its key, sown one seed at a
/// time, each event recorded as it happens (the sowing itself is the
/// engine's, [`crate::rules::sow::sow_on`]).
struct Traced {
    cells: u128,
    key: u64,
    events: Vec<Event>,
    laps: u32,
    last: usize,
    end: LapEnd,
}

impl Traced {
    /// Lifts the `n` seeds of `origin` (a relay's, when `relay`).
    fn lift(&mut self, origin: usize, n: usize, relay: bool) {
        self.laps += 1;
        self.cells &= CLEAR[origin];
        self.key = self
            .key
            .wrapping_sub((n as u64).wrapping_mul(PIT_WEIGHT[origin]));
        let (pit, seeds) = (origin, n as u8);
        self.events.push(if relay {
            Event::Relay { pit, seeds }
        } else {
            Event::Lift { pit, seeds }
        });
    }

    /// Drops one seed into the pit after `at` (the origin skipped when
    /// `skip`), and returns that pit.
    fn drop_after(&mut self, at: usize, origin: usize, skip: bool) -> usize {
        let mut to = (at + 1) % PITS;
        if skip && to == origin {
            to = (to + 1) % PITS;
        }
        self.cells += 1u128 << (8 * to);
        self.key = self.key.wrapping_add(PIT_WEIGHT[to]);
        self.events.push(Event::Drop { pit: to });
        to
    }
}

impl Board for Traced {
    const RECORDS: bool = true;

    fn cells(&self) -> u128 {
        self.cells
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn set(&mut self, cells: u128, key: u64) {
        (self.cells, self.key) = (cells, key);
    }

    fn sow_lap(&mut self, skip: bool, origin: usize, n: usize, relay: bool) -> usize {
        self.lift(origin, n, relay);
        (0..n).fold(origin, |at, _| self.drop_after(at, origin, skip))
    }

    fn collect_lap(
        &mut self,
        rules: &Rules,
        origin: usize,
        n: usize,
        me: usize,
        relay: bool,
    ) -> (usize, bool, bool) {
        self.lift(origin, n, relay);
        let mut at = origin;
        let (mut took, mut made_four) = (false, false);
        for left in (0..n).rev() {
            at = self.drop_after(at, origin, rules.skip_origin());
            made_four = self.cells >> (8 * at) & 0xFF == 4;
            if made_four {
                // The last seed's 4 goes to the mover; the others as the rules say.
                let to = if left == 0 || rules.fours_to() == FoursTo::Mover {
                    me
                } else {
                    at / 6
                };
                self.cells = (self.cells & CLEAR[at]) + (4u128 << (8 * (12 + to)));
                self.key = self
                    .key
                    .wrapping_sub(PIT_WEIGHT[at].wrapping_mul(4))
                    .wrapping_add(STORE_WEIGHT[to].wrapping_mul(4));
                let to = Player::from_index(to).expect("a player's index");
                self.events.push(Event::Collect { pit: at, to });
                took = true;
            }
        }
        (at, took, made_four)
    }

    fn captured(&mut self, pit: usize, seeds: u8) {
        self.events.push(Event::Capture { pit, seeds });
    }

    fn forfeited(&mut self, seeds: u8) {
        self.events.push(Event::GrandSlamForfeited { seeds });
    }

    fn ended(&mut self, last: usize, reason: LapEnd) {
        (self.last, self.end) = (last, reason);
        self.events.push(Event::End { pit: last, reason });
    }
}
