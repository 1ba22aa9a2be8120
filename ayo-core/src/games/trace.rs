//! Sowing traces: a move seed by seed, for animation, for showing where the
//! last seed will land, and as an independent check of the fast engine.
//!
//! This is a plain second reading of docs/rules.md, one drop at a time, with endless
//! relays found by remembering every lap-start state; the tests check that it
//! agrees with the whole-lap engine on every move they play.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::rules::moves::{IllegalMove, Move};
use crate::rules::position::{Position, PITS};
use crate::rules::setup::Setup;
use crate::rules::{Capture, FoursTo, GrandSlam, Rules};
use crate::Player;

/// How a move's last lap ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LapEnd {
    /// The last seed fell into an empty pit.
    EmptyPit,
    /// The last seed fell into an occupied pit and relay sowing is off.
    Occupied,
    /// The last seed made a 4, which was collected.
    MadeFour,
    /// The last seed made 2 or 3 in the opponent's row (a capture, or a forfeited grand slam).
    TwoThree,
}

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
    let (t, setup) =
        sow_seed_by_seed(rules, pos, mv).ok_or(IllegalMove::EndlessRelay { pit: mv.pit() })?;
    let reference = Position::from_setup_unchecked(&setup);
    debug_assert_eq!(reference, next, "trace and engine disagree");
    Ok((t, next))
}

/// The plain seed-by-seed sowing of `mv` (a non-empty pit of the mover), with
/// no feeding or game-over check; `None` for an endless relay. Returns the
/// trace and the position after the move, turn passed and counters updated.
pub fn sow_seed_by_seed(rules: &Rules, pos: &Position, mv: Move) -> Option<(Trace, Setup)> {
    let me = pos.to_move();
    let opp = me.opponent();
    let mut board = pos.board();
    let mut stores = [u16::from(pos.stores()[0]), u16::from(pos.stores()[1])];
    let mut events = Vec::new();
    let mut taken = [0u16; 2];
    let mut seen: HashSet<([u8; PITS], usize)> = HashSet::new();
    let mut origin = mv.pit();
    let mut laps = 0;
    let mut first = true;
    let next = |i: usize| (i + 1) % PITS;

    let (last, reason) = loop {
        if !seen.insert((board, origin)) {
            return None;
        }
        laps += 1;
        let mut hand = board[origin];
        board[origin] = 0;
        events.push(if first {
            Event::Lift {
                pit: origin,
                seeds: hand,
            }
        } else {
            Event::Relay {
                pit: origin,
                seeds: hand,
            }
        });
        first = false;
        let mut at = origin;
        let mut made_four = false;
        while hand > 0 {
            at = next(at);
            if at == origin && rules.skip_origin() {
                at = next(at);
            }
            board[at] += 1;
            hand -= 1;
            events.push(Event::Drop { pit: at });
            made_four = false;
            if rules.capture() == Capture::CollectFour && board[at] == 4 {
                board[at] = 0;
                let to = if hand == 0 || rules.fours_to() == FoursTo::Mover {
                    me
                } else {
                    Player::owner_of(at)
                };
                stores[to.index()] += 4;
                taken[to.index()] += 4;
                events.push(Event::Collect { pit: at, to });
                made_four = true;
            }
        }
        if made_four {
            break (at, LapEnd::MadeFour);
        }
        let count = board[at];
        if rules.capture() == Capture::TwoThree && opp.owns(at) && (count == 2 || count == 3) {
            let mut pits = Vec::new();
            let mut i = at;
            while opp.owns(i) && (board[i] == 2 || board[i] == 3) {
                pits.push(i);
                if i == opp.first_pit() {
                    break;
                }
                i -= 1;
            }
            let total: u16 = pits.iter().map(|&i| u16::from(board[i])).sum();
            let left: u16 = (opp.first_pit()..opp.first_pit() + 6)
                .filter(|i| !pits.contains(i))
                .map(|i| u16::from(board[i]))
                .sum();
            if left == 0 && rules.grand_slam() == GrandSlam::NoCapture {
                events.push(Event::GrandSlamForfeited { seeds: total as u8 });
            } else {
                for &i in &pits {
                    events.push(Event::Capture {
                        pit: i,
                        seeds: board[i],
                    });
                    stores[me.index()] += u16::from(board[i]);
                    taken[me.index()] += u16::from(board[i]);
                    board[i] = 0;
                }
            }
            break (at, LapEnd::TwoThree);
        }
        if count >= 2 {
            if rules.relay() {
                origin = at;
                continue;
            }
            break (at, LapEnd::Occupied);
        }
        if rules.capture() == Capture::Across && me.owns(at) && board[11 - at] > 0 {
            let facing = 11 - at;
            let opp_left: u16 = (opp.first_pit()..opp.first_pit() + 6)
                .filter(|&i| i != facing)
                .map(|i| u16::from(board[i]))
                .sum();
            let seed = u8::from(rules.capturing_seed_taken());
            if opp_left == 0 && rules.grand_slam() == GrandSlam::NoCapture {
                events.push(Event::GrandSlamForfeited {
                    seeds: board[facing] + seed,
                });
            } else {
                let got = u16::from(board[facing]) + u16::from(seed);
                events.push(Event::Capture {
                    pit: facing,
                    seeds: board[facing],
                });
                board[facing] = 0;
                if seed == 1 {
                    events.push(Event::Capture { pit: at, seeds: 1 });
                    board[at] = 0;
                }
                stores[me.index()] += got;
                taken[me.index()] += got;
            }
        }
        break (at, LapEnd::EmptyPit);
    };
    events.push(Event::End { pit: last, reason });
    let captured = taken[0] + taken[1] > 0;
    let setup = Setup {
        board,
        stores: [stores[0] as u8, stores[1] as u8],
        to_move: opp,
        no_capture: if captured {
            0
        } else {
            pos.no_capture().saturating_add(1)
        },
        ply: pos.ply().wrapping_add(1),
    };
    Some((
        Trace {
            events,
            laps,
            last_pit: last,
            taken,
            end: reason,
        },
        setup,
    ))
}
