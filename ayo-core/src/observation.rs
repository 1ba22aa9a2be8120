//! The observation every environment and the guided search hand a network:
//! a position's seeds from the mover's side ([`crate::Position::view`]) as
//! float32, and the legal actions as a row of bools looked up by bit set.

/// Features of one observation: 12 pits and 2 stores.
pub const OBS: usize = 14;
/// Actions per move.
pub const ACTIONS: usize = 6;

/// Row `m`: the action mask of the bit set `m` (bit `a`: action `a`), as bools.
pub const MASK_BOOL: [[bool; ACTIONS]; 64] = {
    let mut rows = [[false; ACTIONS]; 64];
    let mut m = 0;
    while m < 64 {
        let mut a = 0;
        while a < ACTIONS {
            rows[m][a] = m & (1 << a) != 0;
            a += 1;
        }
        m += 1;
    }
    rows
};

/// [`MASK_BOOL`] as the observation's int8.
pub const MASK_I8: [[i8; ACTIONS]; 64] = {
    let mut rows = [[0i8; ACTIONS]; 64];
    let mut m = 0;
    while m < 64 {
        let mut a = 0;
        while a < ACTIONS {
            rows[m][a] = MASK_BOOL[m][a] as i8;
            a += 1;
        }
        m += 1;
    }
    rows
};

/// An observation's seeds as float32.
#[inline]
pub fn write_view(view: &[u8; OBS], out: &mut [f32]) {
    for (o, &v) in out[..OBS].iter_mut().zip(view) {
        *o = f32::from(v);
    }
}
