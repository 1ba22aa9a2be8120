//! The positions since the last capture, for the repetition rule, kept small
//! enough to stay in cache when thousands of games are stepped side by side.

use crate::position::{Move, Position};
use crate::rules::Rules;

/// The window of positions since the last capture (or the start): its first
/// position, and for every position in it a 32-bit key and the pit played to
/// reach it. A new position is looked up in a 256-bit filter first (almost
/// always "certainly new"), then among the keys; a key match is confirmed
/// exactly by replaying the moves from the first position, so a repetition is
/// never reported wrongly. One 8-byte entry a move instead of a whole
/// position, in one buffer.
#[derive(Clone, Debug)]
#[repr(C)] // the filter and the entries first: every move reads them
pub(crate) struct Window {
    filter: [u64; 4],
    /// `key | pit << 32` of each position (the first position's pit unused).
    entries: Vec<u64>,
    first: Position,
}

/// The 32-bit key of a position: the top half of its additive key.
#[inline]
fn key(pos: &Position) -> u32 {
    (pos.raw_key() >> 32) as u32
}

impl Window {
    pub(crate) fn new(first: &Position) -> Window {
        let mut w = Window {
            filter: [0; 4],
            entries: Vec::new(),
            first: *first,
        };
        w.restart(first);
        w
    }

    /// Starts a new window at `pos` (a capture, or a new game).
    #[inline]
    pub(crate) fn restart(&mut self, pos: &Position) {
        self.filter = [0; 4];
        self.entries.clear();
        self.first = *pos;
        self.note(key(pos), 0);
    }

    #[inline]
    fn note(&mut self, k: u32, pit: u8) {
        let b = (k >> 24) as usize;
        self.filter[b >> 6] |= 1u64 << (b & 63);
        self.entries.push(u64::from(k) | u64::from(pit) << 32);
    }

    /// Records `mv`, which led to `pos` without a capture; true when `pos`
    /// already occurred in the window.
    #[inline]
    pub(crate) fn advance(&mut self, rules: &Rules, mv: Move, pos: &Position) -> bool {
        let k = key(pos);
        let b = (k >> 24) as usize;
        let seen = self.filter[b >> 6] & (1u64 << (b & 63)) != 0
            && self.entries.iter().any(|&e| e as u32 == k)
            && self.replay_finds(rules, pos);
        self.note(k, mv.pit() as u8);
        seen
    }

    /// Whether `pos` is one of the window's positions, replaying its moves.
    #[cold]
    fn replay_finds(&self, rules: &Rules, pos: &Position) -> bool {
        let mut p = self.first;
        if p.packed() == pos.packed() {
            return true;
        }
        for &e in &self.entries[1..] {
            let mv = Move::new((e >> 32) as u8).expect("a recorded pit");
            p = p
                .try_play_unchecked(rules, mv)
                .expect("a recorded move was legal");
            if p.packed() == pos.packed() {
                return true;
            }
        }
        false
    }
}
