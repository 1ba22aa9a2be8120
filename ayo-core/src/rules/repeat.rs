//! Repetition: the positions since the last capture (stores change only with
//! a capture, so only those can repeat), kept small enough to stay in cache
//! when thousands of games are stepped side by side. The one tracker of the
//! repetition rule: [`crate::Game`], [`crate::LeanGame`] and the random
//! playouts all keep a [`Window`].

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::Rules;

/// The window of positions since the last capture (or the start): its first
/// position, and for every position in it a 32-bit key and the pit played to
/// reach it. A new position is looked up in a filter of [`FILTER_BITS`]
/// bits first (almost always "certainly new"), then among the keys; a key
/// match is confirmed exactly by replaying the moves from the first
/// position, so a repetition is never reported wrongly. One 8-byte entry a
/// move instead of a whole position, in one buffer.
#[derive(Clone, Debug)]
#[repr(C)] // the filter and the entries first: every move reads them
pub(crate) struct Window {
    filter: [u64; FILTER_BITS / 64],
    /// `key | pit << 32` of each position (the first position's pit unused).
    entries: Vec<u64>,
    first: Position,
}

/// The filter's size: a window since the last capture often holds dozens of
/// positions, and each filter hit costs a scan of the keys, so the filter is
/// kept sparse (a smaller one costs more scanning than its clearing saves).
const FILTER_BITS: usize = 1024;

/// The filter bit of a 32-bit key: its top bits.
#[inline(always)]
fn filter_bit(k: u32) -> usize {
    (k >> (32 - FILTER_BITS.trailing_zeros())) as usize
}

/// The window's entry of a position of key `k` reached by playing `pit`.
#[inline(always)]
fn entry(k: u32, pit: u8) -> u64 {
    u64::from(k) | u64::from(pit) << 32
}

/// The 32-bit key of a position: the top half of its board's additive key
/// (the side to move is left out: a key match is confirmed on whole positions).
#[inline(always)]
fn key(pos: &Position) -> u32 {
    key_of(pos.board_key())
}

/// The 32-bit key of a position whose board key is `board_key`.
#[inline(always)]
pub(crate) fn key_of(board_key: u64) -> u32 {
    (board_key >> 32) as u32
}

/// The repetition rule inside a search tree: whether `pos` repeats one of
/// the positions before it since the last capture, `path` being the
/// positions (packed) of the tree line that leads to it, oldest first, and
/// `earlier(n)` whether it is among the last `n` positions of the game
/// before that line (asked only when the window reaches back past the
/// line). The players' searches (`players::mcts`, `guided`) share it.
#[inline]
pub(crate) fn repeats_in_line(
    pos: &Position,
    path: impl DoubleEndedIterator<Item = u128> + ExactSizeIterator,
    earlier: impl FnOnce(usize) -> bool,
) -> bool {
    let back = usize::from(pos.no_capture());
    if back == 0 {
        return false;
    }
    let p = pos.packed();
    let len = path.len();
    path.rev().take(back).any(|q| q == p) || (back > len && earlier(back - len))
}

/// Where the window of the last of `positions` (a game's positions, in
/// order, each reached from the one before) starts: at the last capture, or
/// at the first position. The positions from there on are those the
/// repetition rule compares the last one with.
#[inline]
pub(crate) fn window_start(positions: &[Position]) -> usize {
    let last = positions.len() - 1;
    last - usize::from(positions[last].no_capture()).min(last)
}

impl Window {
    pub(crate) fn new(first: &Position) -> Window {
        Window::with_buffer(first, Vec::new())
    }

    /// A window starting at `first` that keeps its entries in `buffer`
    /// (whose contents are dropped): a caller that runs many short games
    /// reuses one allocation.
    pub(crate) fn with_buffer(first: &Position, buffer: Vec<u64>) -> Window {
        let mut w = Window {
            filter: [0; FILTER_BITS / 64],
            entries: buffer,
            first: *first,
        };
        w.restart(first);
        w
    }

    /// The entries' buffer, for [`Window::with_buffer`].
    pub(crate) fn into_buffer(self) -> Vec<u64> {
        self.entries
    }

    /// The window of the last position of `positions`, the positions of a
    /// game in order with `moves[i]` leading from `positions[i]` to
    /// `positions[i + 1]`: it starts at the last capture (or the first
    /// position) and holds every position since.
    pub(crate) fn of_history(positions: &[Position], moves: &[Move]) -> Window {
        let (first, last) = (window_start(positions), positions.len() - 1);
        let mut w = Window::new(&positions[first]);
        for i in first + 1..=last {
            w.note(key(&positions[i]), moves[i - 1].pit() as u8);
        }
        w
    }

    /// Starts a new window at `pos` (a capture, or a new game).
    #[inline(always)]
    pub(crate) fn restart(&mut self, pos: &Position) {
        self.filter = [0; FILTER_BITS / 64];
        self.entries.clear();
        self.first = *pos;
        self.note(key(pos), 0);
    }

    #[inline(always)]
    fn note(&mut self, k: u32, pit: u8) {
        let b = filter_bit(k);
        self.filter[b >> 6] |= 1u64 << (b & 63);
        self.entries.push(entry(k, pit));
    }

    /// The repetition rule at a new position `pos`, reached by `mv` (`None`:
    /// a new game): true when `pos` occurred since the last capture. A
    /// capture (or a new game) starts a new window at `pos`.
    #[inline(always)]
    pub(crate) fn arrive(&mut self, rules: &Rules, mv: Option<Move>, pos: &Position) -> bool {
        match mv {
            Some(mv) if pos.no_capture() != 0 => self.advance(rules, mv, pos),
            _ => {
                self.restart(pos);
                false
            }
        }
    }

    /// Records `mv`, which led to `pos` without a capture; true when `pos`
    /// already occurred in the window.
    #[inline(always)]
    fn advance(&mut self, rules: &Rules, mv: Move, pos: &Position) -> bool {
        let k = key(pos);
        // The filter word read and written once: `holds`, then `note`.
        let b = filter_bit(k);
        let (word, bit) = (&mut self.filter[b >> 6], 1u64 << (b & 63));
        let maybe = *word & bit != 0;
        *word |= bit;
        let seen = maybe && self.among_entries(rules, k, || pos.packed());
        self.entries.push(entry(k, mv.pit() as u8));
        seen
    }

    /// Whether the position of key `k` (see [`key_of`]), packed as
    /// `packed()` (asked only on a key match), is one of the window's positions.
    #[inline(always)]
    pub(crate) fn holds(&self, rules: &Rules, k: u32, packed: impl FnOnce() -> u128) -> bool {
        let b = filter_bit(k);
        self.filter[b >> 6] & (1u64 << (b & 63)) != 0 && self.among_entries(rules, k, packed)
    }

    /// Past the filter: whether an entry has key `k` and its position is
    /// the one packed as `packed()`.
    #[inline(always)]
    fn among_entries(&self, rules: &Rules, k: u32, packed: impl FnOnce() -> u128) -> bool {
        self.entries.iter().any(|&e| e as u32 == k) && self.replay_finds(rules, packed())
    }

    /// [`Window::arrive`] at a position known not to be in the window
    /// ([`Window::holds`] said so), reached by `mv`: of board key
    /// `board_key`, built by `pos` (asked only after a capture, when the
    /// window starts there).
    #[inline(always)]
    pub(crate) fn arrive_new(
        &mut self,
        mv: Move,
        board_key: u64,
        captured: bool,
        pos: impl FnOnce() -> Position,
    ) {
        if captured {
            self.restart(&pos());
        } else {
            self.note(key_of(board_key), mv.pit() as u8);
        }
    }

    /// Whether the position packed as `packed` is one of the window's
    /// positions, replaying its moves. (Given the packed board, not the
    /// position's address: a caller's position then need not live in
    /// memory for this rare call, and stays in registers.)
    #[cold]
    fn replay_finds(&self, rules: &Rules, packed: u128) -> bool {
        let mut p = self.first;
        if p.packed() == packed {
            return true;
        }
        for &e in &self.entries[1..] {
            let mv = Move::new((e >> 32) as u8).expect("a recorded pit");
            p = p
                .try_play_unchecked(rules, mv)
                .expect("a recorded move was legal");
            if p.packed() == packed {
                return true;
            }
        }
        false
    }
}
