//! The positions since the last capture, for the repetition rule, kept small
//! enough to stay in cache when thousands of games are stepped side by side.

use crate::position::{Move, Position};
use crate::rules::Rules;

/// The window of positions since the last capture (or the start): its first
/// position, the moves played since, and a 32-bit key of every position in
/// it. A new position is looked up in a 256-bit filter first (almost always
/// "certainly new"), then among the keys; a key match is confirmed exactly by
/// replaying the moves from the first position, so a repetition is never
/// reported wrongly. Five bytes a move instead of a whole position.
#[derive(Clone, Debug)]
#[repr(C)] // the filter and the keys first: every move reads them
pub(crate) struct Window {
    filter: [u64; 4],
    keys: Vec<u32>,
    moves: Vec<u8>,
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
            first: *first,
            keys: Vec::new(),
            moves: Vec::new(),
        };
        w.restart(first);
        w
    }

    /// Starts a new window at `pos` (a capture, or a new game).
    #[inline]
    pub(crate) fn restart(&mut self, pos: &Position) {
        self.filter = [0; 4];
        self.keys.clear();
        self.moves.clear();
        self.first = *pos;
        self.note(key(pos));
    }

    #[inline]
    fn note(&mut self, k: u32) {
        let b = (k >> 24) as usize;
        self.filter[b >> 6] |= 1u64 << (b & 63);
        self.keys.push(k);
    }

    /// Records `mv`, which led to `pos` without a capture; true when `pos`
    /// already occurred in the window.
    #[inline]
    pub(crate) fn advance(&mut self, rules: &Rules, mv: Move, pos: &Position) -> bool {
        let k = key(pos);
        let b = (k >> 24) as usize;
        let seen = self.filter[b >> 6] & (1u64 << (b & 63)) != 0
            && self.keys.contains(&k)
            && self.replay_finds(rules, pos);
        self.moves.push(mv.pit() as u8);
        self.note(k);
        seen
    }

    /// Whether `pos` is one of the window's positions, replaying its moves.
    #[cold]
    fn replay_finds(&self, rules: &Rules, pos: &Position) -> bool {
        let mut p = self.first;
        if p.packed() == pos.packed() {
            return true;
        }
        for &pit in &self.moves {
            let mv = Move::new(pit).expect("a recorded pit");
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
