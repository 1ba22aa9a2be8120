//! A plain second reading of docs/rules.md, one drop at a time, kept apart
//! from the engine: the oracle the property tests hold the engine's two
//! boards to (the packed board's whole laps and the traced board's events,
//! which share the engine's one sowing, [`ayo_core::trace`]).

use std::collections::HashSet;

use ayo_core::trace::{Event, LapEnd, Trace};
use ayo_core::{Capture, FoursTo, GrandSlam, Move, Player, Position, Rules, Setup, PITS};

/// The plain seed-by-seed sowing of `mv` (a non-empty pit of the mover), with
/// no feeding or game-over check; `None` for an endless relay (found by
/// remembering every lap-start state). Returns the
/// trace and the position after the move, turn passed and counters updated.
pub fn sow_plain(rules: &Rules, pos: &Position, mv: Move) -> Option<(Trace, Setup)> {
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
