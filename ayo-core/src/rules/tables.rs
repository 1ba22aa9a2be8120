//! Small lookup tables over 6-bit sets of actions, shared by the move
//! drawers (a table load beats a loop over bits or a portable popcount).

/// `SELECT[bits][k]`: the action of the `k`-th set bit of `bits` (rows of
/// 8, so that `k` can be masked rather than bounds-checked: [`select`]).
pub(crate) const SELECT: [[u8; 8]; 64] = {
    let mut t = [[0u8; 8]; 64];
    let mut bits = 0;
    while bits < 64 {
        let mut k = 0;
        let mut a = 0;
        while a < 6 {
            if bits & (1 << a) != 0 {
                t[bits][k] = a as u8;
                k += 1;
            }
            a += 1;
        }
        bits += 1;
    }
    t
};

/// `COUNT[bits]`: the number of set bits.
pub(crate) const COUNT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut bits = 0;
    while bits < 64 {
        t[bits] = (bits as u32).count_ones() as u8;
        bits += 1;
    }
    t
};

/// `SELECT[bits][k]` for `bits < 64` and `k` below its count, the indices
/// masked (an index known to be in range needs no bounds check).
#[inline(always)]
pub(crate) fn select(bits: u8, k: usize) -> u8 {
    debug_assert!(bits < 64 && k < usize::from(COUNT[usize::from(bits) % 64]));
    SELECT[usize::from(bits) % 64][k % 8]
}

/// `COUNT[bits]` for `bits < 64`, the index masked.
#[inline(always)]
pub(crate) fn count(bits: u8) -> u32 {
    debug_assert!(bits < 64);
    u32::from(COUNT[usize::from(bits) % 64])
}
