//! The position key: an additive Zobrist-style sum `Σ Z[pit] · seeds[pit] + Σ S[p] · store[p]`
//! (mod 2⁶⁴) kept up to date as seeds move, finalised by a bijective mixer.
//!
//! Classic XOR-Zobrist needs one table entry per (pit, count) and one update per
//! changed pit; with whole laps sown at once every pit changes, so the additive
//! form (one multiply per lap) is what keeps the key incremental *and* cheap.
//! Two different positions collide only when their count differences vanish
//! against random odd 64-bit weights, which for these small differences has
//! probability about 2⁻⁶⁴.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn weights() -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut state = 0x00A4_0A70_u64;
    let mut i = 0;
    while i < 15 {
        let (s, z) = splitmix(state);
        state = s;
        out[i] = z | 1;
        i += 1;
    }
    out
}

const W: [u64; 15] = weights();

/// Weight of one seed in each pit (0..=11), in each store (12, 13), and of North to move (14).
pub(crate) const PIT_WEIGHT: [u64; 12] = {
    let mut a = [0u64; 12];
    let mut i = 0;
    while i < 12 {
        a[i] = W[i];
        i += 1;
    }
    a
};
pub(crate) const STORE_WEIGHT: [u64; 2] = [W[12], W[13]];
pub(crate) const NORTH_WEIGHT: u64 = W[14];

/// `LAP_WEIGHT[o][k]`: the weight of one seed in each of the `k` pits after `o`.
pub(crate) const LAP_WEIGHT: [[u64; 13]; 12] = {
    let mut t = [[0u64; 13]; 12];
    let mut o = 0;
    while o < 12 {
        let mut k = 1;
        while k <= 12 {
            t[o][k] = t[o][k - 1].wrapping_add(PIT_WEIGHT[(o + k) % 12]);
            k += 1;
        }
        o += 1;
    }
    t
};

/// The murmur3 64-bit finaliser: a bijection that spreads every input bit.
#[inline]
pub(crate) const fn finalize(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}
