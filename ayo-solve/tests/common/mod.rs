//! What the independent computations of several tests share.

/// Every board of `n` seeds, enumerated directly (no ranking), so that the
/// tests that use it do not rest on `ayo_solve::index`.
pub fn boards(n: usize) -> Vec<[u8; 12]> {
    fn rec(i: usize, left: u8, b: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
        if i == 11 {
            b[11] = left;
            out.push(*b);
            return;
        }
        for s in 0..=left {
            b[i] = s;
            rec(i + 1, left - s, b, out);
        }
    }
    let mut out = Vec::new();
    rec(0, n as u8, &mut [0; 12], &mut out);
    out
}
