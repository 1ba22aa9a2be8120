//! Perfect indexing of boards: every board of 12 pits holding exactly `n`
//! seeds gets a rank in `0..C(n + 11, 11)`, with no gaps and no hashing.
//!
//! A board is read as "stars and bars": the 11 bars sit after pit 0, pit 1,
//! …, pit 10, at slots `s_i = b_0 + … + b_i + i` of `0..n + 11`. The strictly
//! increasing set `{s_0 < … < s_10}` is ranked in the colexicographic order
//! of the combinatorial number system: `rank = Σ C(s_i, i + 1)`.

use ayo_core::PITS;

/// The largest seed count a layer can hold (ranks fit a `u64`, values a 7-bit field).
pub const MAX_LAYER_SEEDS: usize = 60;

/// Binomial coefficients `C(a, k)` for `a < 72`, `k ≤ 12`.
static BINOM: [[u64; 13]; 72] = {
    let mut t = [[0u64; 13]; 72];
    let mut a = 0;
    while a < 72 {
        t[a][0] = 1;
        let mut k = 1;
        while k <= 12 {
            t[a][k] = if a == 0 {
                0
            } else {
                t[a - 1][k - 1] + t[a - 1][k]
            };
            k += 1;
        }
        a += 1;
    }
    t
};

/// `C(a, k)` for `a < 72`, `k ≤ 12`.
#[inline(always)]
pub fn binom(a: usize, k: usize) -> u64 {
    BINOM[a][k]
}

/// The number of boards of 12 pits holding exactly `n` seeds: `C(n + 11, 11)`.
///
/// ```
/// use ayo_solve::index::layer_size;
/// assert_eq!(layer_size(0), 1);
/// assert_eq!(layer_size(1), 12);
/// assert_eq!(layer_size(24), 417_225_900);
/// ```
#[inline]
pub fn layer_size(n: usize) -> u64 {
    assert!(
        n <= MAX_LAYER_SEEDS,
        "layers hold at most {MAX_LAYER_SEEDS} seeds"
    );
    binom(n + 11, 11)
}

/// The rank of `board` among the boards with the same number of seeds.
///
/// ```
/// use ayo_solve::index::{rank, unrank};
/// let board = [1, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 1];
/// let r = rank(&board);
/// assert_eq!(unrank(7, r), board);
/// ```
#[inline]
pub fn rank(board: &[u8; PITS]) -> u64 {
    let mut r = 0u64;
    let mut s = 0usize;
    for (i, &b) in board[..PITS - 1].iter().enumerate() {
        s += usize::from(b);
        r += binom(s + i, i + 1);
    }
    r
}

/// The board of `n` seeds with rank `r` (the inverse of [`rank`]).
///
/// Panics if `r >= layer_size(n)`.
pub fn unrank(n: usize, mut r: u64) -> [u8; PITS] {
    assert!(r < layer_size(n), "rank {r} is outside layer {n}");
    let mut slots = [0usize; PITS - 1];
    let mut hi = n + 10;
    for k in (1..PITS).rev() {
        // Largest s ≤ hi with C(s, k) ≤ r.
        let mut s = hi;
        while binom(s, k) > r {
            s -= 1;
        }
        r -= binom(s, k);
        slots[k - 1] = s;
        hi = s.saturating_sub(1);
    }
    slots_to_board(n, &slots)
}

fn slots_to_board(n: usize, slots: &[usize; PITS - 1]) -> [u8; PITS] {
    let mut board = [0u8; PITS];
    let mut prev: isize = -1;
    for (i, &s) in slots.iter().enumerate() {
        board[i] = (s as isize - prev - 1) as u8;
        prev = s as isize;
    }
    board[PITS - 1] = (n as isize + 10 - prev) as u8;
    board
}

/// Walks the boards of a layer in rank order from any starting rank, cheaper
/// than unranking each one.
///
/// ```
/// use ayo_solve::index::{rank, BoardWalker};
/// let mut w = BoardWalker::new(5, 100);
/// for r in 100..110 {
///     assert_eq!(rank(w.board()), r);
///     w.advance();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct BoardWalker {
    n: usize,
    slots: [usize; PITS - 1],
    board: [u8; PITS],
}

impl BoardWalker {
    /// A walker at rank `r` of layer `n`.
    pub fn new(n: usize, r: u64) -> BoardWalker {
        let board = unrank(n, r);
        let mut slots = [0usize; PITS - 1];
        let mut s = 0usize;
        for i in 0..PITS - 1 {
            s += usize::from(board[i]);
            slots[i] = s + i;
        }
        BoardWalker { n, slots, board }
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &[u8; PITS] {
        &self.board
    }

    /// Moves to the next rank (wrapping is the caller's concern: stop at the layer size).
    // Always inlined, so that it is compiled into each kernel's copy of the
    // database build's sweep.
    #[inline(always)]
    pub fn advance(&mut self) {
        let top = self.n + 10;
        let mut i = 0;
        loop {
            let limit = if i + 1 < PITS - 1 {
                self.slots[i + 1]
            } else {
                top + 1
            };
            if self.slots[i] + 1 < limit {
                self.slots[i] += 1;
                for j in 0..i {
                    self.slots[j] = j;
                }
                break;
            }
            i += 1;
            if i == PITS - 1 {
                // Past the last board; leave the slots as they are.
                return;
            }
        }
        self.board = slots_to_board(self.n, &self.slots);
    }
}
