//! The selection rules over one node's children: PUCT, and Gumbel search's
//! sequential halving at the root, its improved policy inside the tree and
//! its completed Q-values (mctx's `seq_halving.py`, `qtransforms.py` and
//! `policies.py`, restated over at most six legal children).
//!
//! The children are lanes of fixed arrays ([`Arms`]), lane `a` the child
//! by action `a` (the lanes of illegal actions and the two past the six
//! actions are padding), so that each formula is one loop the compiler
//! vectorises and a network's row of logits is read as it comes. Sums run
//! over the lanes in halves, as a vector unit adds them.

use super::Gumbel;

/// Lanes of [`Arms`]: six actions, padded to what a vector unit takes.
pub(crate) const LANES: usize = 8;

/// Eight lanes of `f32`.
type Lanes = [f32; LANES];

/// What selection reads of a node's children, from the point of view of
/// the player choosing: the child by action `a` in lane `a`, for the
/// actions of `legal`; the other lanes zero.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arms {
    /// The legal actions (bit `a`: action `a`).
    pub legal: u8,
    /// The network's logits, less the largest logit among the children.
    pub logit: Lanes,
    /// The prior probabilities (with the root's noise, for PUCT).
    pub prior: Lanes,
    /// The visit counts (whole numbers, exact in `f32` far past any
    /// search's size).
    pub visits: Lanes,
    /// The mean values, 0 where a child has no visit.
    pub q: Lanes,
}

impl Arms {
    /// The children of the actions of `legal` (six bits at most), every
    /// lane zero.
    #[inline(always)]
    pub(crate) fn new(legal: u8) -> Arms {
        debug_assert!(legal < 1 << 6);
        Arms {
            legal,
            logit: [0.0; LANES],
            prior: [0.0; LANES],
            visits: [0.0; LANES],
            q: [0.0; LANES],
        }
    }

    /// 0 in the children's lanes, infinity in the others: added, it keeps
    /// the padding out of a minimum; subtracted, out of a maximum.
    #[inline(always)]
    fn padding(&self) -> Lanes {
        const PADDING: [Lanes; 64] = {
            let mut table = [[f32::INFINITY; LANES]; 64];
            let mut legal = 0;
            while legal < 64 {
                let mut a = 0;
                while a < 6 {
                    if legal >> a & 1 == 1 {
                        table[legal][a] = 0.0;
                    }
                    a += 1;
                }
                legal += 1;
            }
            table
        };
        PADDING[usize::from(self.legal)]
    }

    /// 1 in the lanes of visited children, else 0 (visits are whole numbers).
    #[inline(always)]
    fn visited(&self) -> Lanes {
        let mut v = [0.0; LANES];
        for (v, &n) in v.iter_mut().zip(&self.visits) {
            *v = min(n, 1.0);
        }
        v
    }
}

/// The larger of `a` and `b`: the search's numbers are never NaN, so the
/// plain comparison serves, and it is one vector instruction where
/// `f32::max`'s NaN rule is four.
#[inline(always)]
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of `a` and `b` (as [`max`]).
#[inline(always)]
fn min(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// The lanes folded by `f` in halves (a vector unit's order).
#[inline(always)]
fn fold(x: Lanes, f: impl Fn(f32, f32) -> f32) -> f32 {
    let h = [f(x[0], x[4]), f(x[1], x[5]), f(x[2], x[6]), f(x[3], x[7])];
    f(f(h[0], h[2]), f(h[1], h[3]))
}

/// The lanes' sum.
#[inline(always)]
fn sum(x: Lanes) -> f32 {
    fold(x, |a, b| a + b)
}

/// The legal action (of `legal`, not empty) of the largest score, the
/// lowest on ties (and when every score is minus infinity).
#[inline(always)]
fn argmax(scores: &Lanes, legal: u8) -> usize {
    let mut bits = legal;
    let mut best = (f32::NEG_INFINITY, bits.trailing_zeros() as usize);
    while bits != 0 {
        let a = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if scores[a] > best.0 {
            best = (scores[a], a);
        }
    }
    best.1
}

/// PUCT's choice: `Q + c · P · √N / (1 + n)`, with `Q` 0 for an unvisited
/// child and `N` the children's visits (at least 1, so that the priors
/// order the first visits).
#[inline(always)]
pub(crate) fn puct(arms: &Arms, c_puct: f32) -> usize {
    let sqrt_n = max(sum(arms.visits), 1.0).sqrt();
    let mut score = [0.0f32; LANES];
    for (i, s) in score.iter_mut().enumerate() {
        *s = arms.q[i] + c_puct * arms.prior[i] * sqrt_n / (1.0 + arms.visits[i]);
    }
    argmax(&score, arms.legal)
}

/// The completed Q-values, transformed (mctx's
/// `qtransform_completed_by_mix_value`): visited children keep their Q, the
/// others get the mixed value of `raw_value` (the node's own network value)
/// and the visited children's Q weighted by their priors; rescaled to
/// `[0, 1]` by the min and max over the children and scaled by
/// `(c_visit + max visits) · c_scale`.
#[inline(always)]
pub(crate) fn completed_q(arms: &Arms, raw_value: f32, g: &Gumbel) -> Lanes {
    let total = sum(arms.visits);
    let visited = arms.visited();
    let (mut p, mut pq) = ([0.0f32; LANES], [0.0f32; LANES]);
    for i in 0..LANES {
        // As mctx, the smallest positive float keeps a zero prior usable.
        p[i] = max(arms.prior[i], f32::MIN_POSITIVE) * visited[i];
        pq[i] = p[i] * arms.q[i];
    }
    let p_sum = sum(p);
    let weighted = if p_sum > 0.0 { sum(pq) / p_sum } else { 0.0 };
    let mixed = (raw_value + total * weighted) / (total + 1.0);
    let pad = arms.padding();
    let (mut out, mut low, mut high) = ([0.0f32; LANES], [0.0f32; LANES], [0.0f32; LANES]);
    for i in 0..LANES {
        out[i] = visited[i] * arms.q[i] + (1.0 - visited[i]) * mixed;
        low[i] = out[i] + pad[i];
        high[i] = out[i] - pad[i];
    }
    let lo = fold(low, min);
    let hi = fold(high, max);
    let scale = (g.c_visit + fold(arms.visits, max)) * g.c_scale;
    let span = max(hi - lo, 1e-8);
    for o in out.iter_mut() {
        *o = scale * (*o - lo) / span;
    }
    out
}

/// `softmax` over the lanes of `legal` (the others 0), leaving `x` less
/// its largest element there (and minus infinity in the others).
#[inline(always)]
pub(crate) fn softmax(x: &mut Lanes, legal: u8) -> Lanes {
    for (a, v) in x.iter_mut().enumerate() {
        if legal >> a & 1 == 0 {
            *v = f32::NEG_INFINITY;
        }
    }
    let m = fold(*x, max);
    for v in x.iter_mut() {
        *v -= m;
    }
    let e = exp_lanes(*x);
    let total = sum(e);
    let mut out = [0.0f32; LANES];
    for (o, e) in out.iter_mut().zip(e) {
        *o = e / total;
    }
    out
}

/// The improved policy `softmax(logits + σ(completed Q))`.
#[inline(always)]
pub(crate) fn improved_policy(arms: &Arms, raw_value: f32, g: &Gumbel) -> Lanes {
    let q = completed_q(arms, raw_value, g);
    let mut x = [0.0f32; LANES];
    for (i, x) in x.iter_mut().enumerate() {
        *x = arms.logit[i] + q[i];
    }
    softmax(&mut x, arms.legal)
}

/// `exp` of eight lanes at once (minus infinity and anything below -87 give
/// 0): Cephes' `expf` (range reduction by `ln 2`, a degree-5 polynomial,
/// the power of two built in the exponent bits), written so that the
/// compiler vectorises it: libm's `expf` lane by lane was the search's
/// largest single cost.
#[inline(always)]
fn exp_lanes(x: [f32; LANES]) -> [f32; LANES] {
    // 1.5 · 2^23: adding it rounds to an integer held in the low mantissa bits.
    const ROUND: f32 = 12_582_912.0;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let mut out = [0.0f32; LANES];
    for (o, &x) in out.iter_mut().zip(&x) {
        // All ones where the lane is kept, a mask rather than a branch so
        // that the loop vectorises.
        let keep = u32::from(x >= -87.0).wrapping_neg();
        let x = min(max(x, -87.0), 88.0);
        let t = x * std::f32::consts::LOG2_E + ROUND;
        let n = t - ROUND;
        let r = x - n * LN2_HI - n * LN2_LO;
        let p = ((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2)
            * r
            + 0.166_666_65)
            * r
            + 0.5;
        let p = p * r * r + r + 1.0;
        let n_bits = t.to_bits().wrapping_sub(ROUND.to_bits()).wrapping_add(127);
        let two_n = f32::from_bits(n_bits << 23);
        *o = f32::from_bits((p * two_n).to_bits() & keep);
    }
    out
}

/// Gumbel search's choice inside the tree: the child that most lacks visits
/// against the improved policy (`π'(a) - n(a) / (1 + N)`).
#[inline(always)]
pub(crate) fn gumbel_interior(arms: &Arms, raw_value: f32, g: &Gumbel) -> usize {
    let total = sum(arms.visits);
    if total == 0.0 {
        // No child visited: every completed Q is the node's own value, so
        // σ is 0 in every lane and the improved policy is the priors (the
        // same softmax of the same logits, bit for bit).
        return argmax(&arms.prior, arms.legal);
    }
    let pi = improved_policy(arms, raw_value, g);
    let mut score = [0.0f32; LANES];
    for (i, s) in score.iter_mut().enumerate() {
        *s = pi[i] - arms.visits[i] / (1.0 + total);
    }
    argmax(&score, arms.legal)
}

/// Sequential halving's score at the root (mctx's `score_considered`):
/// `gumbel + logit + σ(completed Q)` for the children visited exactly
/// `considered_visit` times, minus infinity for the others.
#[inline(always)]
pub(crate) fn gumbel_root(
    arms: &Arms,
    gumbel: &Lanes,
    raw_value: f32,
    g: &Gumbel,
    considered_visit: u32,
) -> usize {
    // Often one child alone has the visits sequential halving wants: it is
    // the choice, whatever the scores.
    let wanted = considered_visit as f32;
    let mut candidates = 0u8;
    for (a, &n) in arms.visits.iter().enumerate().take(6) {
        candidates |= u8::from(n == wanted) << a;
    }
    let candidates = candidates & arms.legal;
    if candidates.is_power_of_two() {
        return candidates.trailing_zeros() as usize;
    }
    let q = completed_q(arms, raw_value, g);
    let mut score = [0.0f32; LANES];
    for (i, s) in score.iter_mut().enumerate() {
        *s = if arms.visits[i] == wanted {
            max(gumbel[i] + arms.logit[i] + q[i], -1e9)
        } else {
            f32::NEG_INFINITY
        };
    }
    argmax(&score, arms.legal)
}

/// The visit count sequential halving gives each considered action at each
/// simulation (mctx's `get_sequence_of_considered_visits`): `out[k]` for
/// simulation `k`, over `considered` actions and `out.len()` simulations.
pub(crate) fn considered_visits(considered: usize, out: &mut [u32]) {
    let n = out.len();
    if considered <= 1 {
        for (k, o) in out.iter_mut().enumerate() {
            *o = k as u32;
        }
        return;
    }
    let log2max = considered.next_power_of_two().trailing_zeros() as usize;
    let mut visits = [0u32; 6];
    let mut num = considered;
    let mut k = 0;
    while k < n {
        let extra = (n / (log2max * num)).max(1);
        for _ in 0..extra {
            for v in visits.iter_mut().take(num) {
                if k < n {
                    out[k] = *v;
                    k += 1;
                }
                *v += 1;
            }
        }
        num = (num / 2).max(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arms of `(logit, prior, visits, q)`.
    fn arms(children: &[(f32, f32, u32, f32)]) -> Arms {
        let mut a = Arms::new((1u8 << children.len()) - 1);
        for (i, &(logit, prior, visits, q)) in children.iter().enumerate() {
            (a.logit[i], a.prior[i], a.visits[i], a.q[i]) = (logit, prior, visits as f32, q);
        }
        a
    }

    #[test]
    fn the_sequence_of_considered_visits_is_mctx_s() {
        // Worked by hand from mctx's definition: log2max 2; 4 actions get
        // 16 / (2 · 4) = 2 rounds (8 simulations), then 2 actions
        // 16 / (2 · 2) = 4 rounds.
        let mut out = [0u32; 16];
        considered_visits(4, &mut out);
        assert_eq!(out, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        let mut out = [0u32; 5];
        considered_visits(1, &mut out);
        assert_eq!(out, [0, 1, 2, 3, 4]);
        // Six actions, eight simulations: ceil(log2 6) = 3, one round each.
        let mut out = [0u32; 8];
        considered_visits(6, &mut out);
        assert_eq!(out, [0, 0, 0, 0, 0, 0, 1, 1]);
    }

    #[test]
    fn exp_lanes_is_exp_to_a_few_ulps() {
        let mut worst = 0.0f64;
        for k in -8700..=8800 {
            let x = k as f32 / 100.0;
            let got = exp_lanes([x; LANES]);
            let want = f64::from(x).exp();
            worst = worst.max(((f64::from(got[3]) - want) / want).abs());
            assert!(got.iter().all(|&g| g == got[0]));
        }
        assert!(worst < 3e-7, "relative error {worst}");
        let got = exp_lanes([f32::NEG_INFINITY, -87.5, -1e30, 0.0, -0.0, 1.0, -1.0, 0.5]);
        assert_eq!(&got[..5], &[0.0, 0.0, 0.0, 1.0, 1.0]);
        assert!((got[5] - std::f32::consts::E).abs() < 1e-6);
    }

    #[test]
    fn softmax_sums_to_one_and_shifts_its_input() {
        // Actions 0, 2 and 5 legal; the others' logits are anything.
        let mut x = [1.0f32, f32::NAN, 3.0, 7.0, f32::INFINITY, -2.0, 0.0, 0.0];
        let p = softmax(&mut x, 0b10_0101);
        assert_eq!([x[0], x[2], x[5]], [-2.0, 0.0, -5.0]);
        let z: f32 = [-2.0f32, 0.0, -5.0].iter().map(|v| v.exp()).sum();
        for a in [0, 2, 5] {
            assert!((p[a] - x[a].exp() / z).abs() < 1e-6);
        }
        for a in [1, 3, 4, 6, 7] {
            assert_eq!(p[a], 0.0);
        }
    }

    #[test]
    fn completed_q_rescales_to_the_visit_scale() {
        let g = Gumbel::default();
        let arms = arms(&[(0.0, 0.5, 2, 1.0), (0.0, 0.5, 1, -1.0), (-1.0, 0.0, 0, 0.0)]);
        let q = completed_q(&arms, 0.0, &g);
        let scale = (50.0 + 2.0) * 0.1;
        assert!((q[0] - scale).abs() < 1e-5);
        assert!(q[1].abs() < 1e-6);
        // Mixed value (0 + 3 · 0) / 4 = 0: halfway.
        assert!((q[2] - scale / 2.0).abs() < 1e-5, "{q:?}");
    }

    #[test]
    fn an_unvisited_node_s_improved_policy_is_its_priors() {
        let g = Gumbel::default();
        let mut x = [0.3f32, -1.0, 2.0, 0.0, 2.0, 0.1, 0.0, 0.0];
        let legal = 0b11_0111;
        let prior = softmax(&mut x, legal);
        let mut a = Arms::new(legal);
        a.prior = prior;
        for (i, (l, x)) in a.logit.iter_mut().zip(x).enumerate().take(6) {
            *l = if legal >> i & 1 == 1 { x } else { 0.0 };
        }
        for raw_value in [-0.7, 0.0, 0.4] {
            let pi = improved_policy(&a, raw_value, &g);
            assert_eq!(pi, prior);
            // Actions 2 and 4 tie: the lower.
            assert_eq!(gumbel_interior(&a, raw_value, &g), 2);
        }
    }

    #[test]
    fn puct_prefers_priors_first_then_values() {
        assert_eq!(
            puct(&arms(&[(0.0, 0.2, 0, 0.0), (0.0, 0.8, 0, 0.0)]), 1.0),
            1
        );
        let visited = arms(&[(0.0, 0.2, 0, 0.0), (0.0, 0.8, 10, -1.0)]);
        assert_eq!(puct(&visited, 1.0), 0);
    }
}
