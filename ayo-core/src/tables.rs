//! Small lookup tables over 6-bit sets of actions, shared by the move
//! drawers (a table load beats a loop over bits or a portable popcount).

/// `SELECT[bits][k]`: the action of the `k`-th set bit of `bits`.
pub(crate) const SELECT: [[u8; 6]; 64] = {
    let mut t = [[0u8; 6]; 64];
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
