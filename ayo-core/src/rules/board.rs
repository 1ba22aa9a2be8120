//! The packed board: one `u128` a position (byte `i` = pit `i`, bytes 12
//! and 13 = South's and North's stores, byte 14 = the player to move), so
//! that a whole lap is one multiply-add of masks. No count exceeds 252, so
//! bytes never carry into each other.

/// The number of pits on the board.
pub const PITS: usize = 12;

pub(crate) const PLAYER_SHIFT: u32 = 112;
pub(crate) const PIT_ONES: u128 = ones(0, 12);
pub(crate) const PITS_MASK: u128 = PIT_ONES * 0xFF;
pub(crate) const ROW_MASK: [u128; 2] = [ones(0, 6) * 0xFF, ones(6, 6) * 0xFF];

/// `CLEAR[i]`: every byte but pit `i`'s (a table load beats a variable
/// `u128` shift).
pub(crate) const CLEAR: [u128; PITS] = {
    let mut t = [0u128; PITS];
    let mut i = 0;
    while i < PITS {
        t[i] = !(0xFFu128 << (8 * i));
        i += 1;
    }
    t
};

/// One in the low bit of each of the `len` bytes from byte `first`.
pub(crate) const fn ones(first: usize, len: usize) -> u128 {
    let mut m = 0u128;
    let mut i = first;
    while i < first + len {
        m |= 1u128 << (8 * i);
        i += 1;
    }
    m
}

/// Pit (or store) `i`'s byte, shifted out of the board's half that holds
/// it. Not through memory: a byte loaded right after the board was stored
/// waits for the store (the sowing's last pit, read at once for the
/// capture, sat on every move's critical path that way). The index is
/// masked rather than bounds-checked (an index that is always in range).
#[inline(always)]
pub(crate) const fn byte(cells: u128, i: usize) -> u8 {
    debug_assert!(i < 16);
    let half = if i % 16 < 8 {
        cells as u64
    } else {
        (cells >> 64) as u64
    };
    (half >> (8 * (i % 8))) as u8
}

#[inline(always)]
pub(crate) const fn mover(cells: u128) -> usize {
    byte(cells, 14) as usize
}

/// Player `p`'s six pits (0 South, 1 North) as the low six bytes of a
/// `u64`: one shift and a select, where a table of 128-bit row masks costs
/// two loads and two 64-bit ands.
#[inline(always)]
pub(crate) const fn row(cells: u128, p: usize) -> u64 {
    let r = if p == 0 {
        cells as u64
    } else {
        (cells >> 48) as u64
    };
    r & 0xFFFF_FFFF_FFFF
}
