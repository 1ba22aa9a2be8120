//! The selection rules over one node's children: PUCT, and Gumbel search's
//! sequential halving at the root, its improved policy inside the tree and
//! its completed Q-values (mctx's `seq_halving.py`, `qtransforms.py` and
//! `policies.py`, restated over at most six legal children).
//!
//! The children are lanes of fixed arrays ([`Arms`]), lane `a` the child
//! by action `a` (the lanes of illegal actions and the two past the six
//! actions are padding). Each formula is written once, over a number type
//! [`Num`]: `f32` for one node, or [`Trees`] for the nodes of several
//! trees at once ([`GUMBEL_TREES`], [`PUCT_TREES`]), one tree a vector
//! lane, as a round selects in every tree of the batch at the same depth
//! (the batch is the vector dimension, as in mctx's arrays; the same
//! operations in the same order, so the same choices bit for bit). Sums
//! run over the lanes in halves, as a vector unit adds them.

// Lane loops index several arrays by the same lane (or tree).
#![allow(clippy::needless_range_loop)]

use std::ops::{Add, Div, Mul, Sub};

use super::Gumbel;

/// The eight lanes `[e; i = 0..8]`, written out with `i` a constant in each:
/// straight-line code, with no closure for the compiler to decline to
/// inline (and no loop over lanes of [`Trees`] for it to vectorise across
/// them, with scatters, where each lane's numbers are the vector).
macro_rules! lanes {
    ($i:ident => $e:expr) => {
        [
            {
                let $i = 0;
                $e
            },
            {
                let $i = 1;
                $e
            },
            {
                let $i = 2;
                $e
            },
            {
                let $i = 3;
                $e
            },
            {
                let $i = 4;
                $e
            },
            {
                let $i = 5;
                $e
            },
            {
                let $i = 6;
                $e
            },
            {
                let $i = 7;
                $e
            },
        ]
    };
}
pub(crate) use lanes;

/// [`lanes!`] for lanes that only the six moves' lanes need: 0 in the two
/// padding lanes, where the value is 0 anyway or never read (a formula's
/// padding lanes cost as much as its moves' lanes).
macro_rules! moves {
    ($i:ident => $e:expr) => {
        lanes!($i => if $i < 6 { $e } else { Num::splat(0.0) })
    };
}

/// Lanes of [`Arms`]: six actions, padded to what a vector unit takes.
pub(crate) const LANES: usize = 8;

/// Trees whose nodes one selection takes at once ([`Trees`]), by method.
/// Gumbel search's formulas are long chains (the completed Q-values, a
/// softmax, the scores) that wait on each other's results: eight trees a
/// 32-byte vector do twice the work a wait. PUCT's are short, and its
/// selection is mostly the gather of the nodes' lanes, which costs more
/// into wider vectors: four trees, a 16-byte vector. (Wider still was
/// measured slower for both: each formula holds many lanes at once, and
/// wider ones leave the registers.)
pub(crate) const PUCT_TREES: usize = 4;
/// See [`PUCT_TREES`].
pub(crate) const GUMBEL_TREES: usize = 8;

/// The numbers the formulas run on: `f32`, or [`Trees`], a number a tree.
/// The comparisons are the plain ones: the search's numbers are never NaN.
pub(crate) trait Num:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// `x` in every tree.
    fn splat(x: f32) -> Self;
    /// `a` where `self > than`, else `b`.
    fn if_gt(self, than: Self, a: Self, b: Self) -> Self;
    /// `a` where `self == to`, else `b`.
    fn if_eq(self, to: Self, a: Self, b: Self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// [`exp`], tree by tree.
    fn exp(self) -> Self;
    /// [`exp`] of the six moves' lanes (the padding lanes 0).
    #[inline(always)]
    fn exp_moves(x: &Lanes<Self>) -> Lanes<Self> {
        moves!(i => x[i].exp())
    }

    /// The larger: one vector instruction, where `f32::max`'s NaN rule is four.
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        self.if_gt(other, self, other)
    }
    /// The smaller (as [`Num::max`]).
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        other.if_gt(self, self, other)
    }
}

impl Num for f32 {
    #[inline(always)]
    fn splat(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn if_gt(self, than: f32, a: f32, b: f32) -> f32 {
        if self > than {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn if_eq(self, to: f32, a: f32, b: f32) -> f32 {
        if self == to {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn exp(self) -> f32 {
        exp(self)
    }
    /// A node's lanes a vector at a time ([`Trees`]): the same function
    /// lane by lane, in a third of the instructions.
    #[inline(always)]
    fn exp_moves(x: &Lanes<f32>) -> Lanes<f32> {
        let lo = Trees([x[0], x[1], x[2], x[3]]).exp().0;
        let hi = Trees([x[4], x[5], x[6], x[7]]).exp().0;
        [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], 0.0, 0.0]
    }
}

/// A number for each of `N` trees: every operation a plain loop over
/// them, which the compiler makes one or two vector instructions.
#[derive(Clone, Copy, Debug, PartialEq)]
// Aligned as a 32-byte vector, whatever `N`: the eight trees' loads and
// stores whole.
#[repr(C, align(32))]
pub(crate) struct Trees<const N: usize>(pub [f32; N]);

impl<const N: usize> Trees<N> {
    /// `f` of each tree's numbers.
    #[inline(always)]
    fn map(self, f: impl Fn(f32) -> f32) -> Trees<N> {
        let mut out = [0.0; N];
        for (o, x) in out.iter_mut().zip(self.0) {
            *o = f(x);
        }
        Trees(out)
    }

    /// `f` of each tree's numbers in `self` and `other`.
    #[inline(always)]
    fn zip(self, other: Trees<N>, f: impl Fn(f32, f32) -> f32) -> Trees<N> {
        let mut out = [0.0; N];
        for ((o, x), y) in out.iter_mut().zip(self.0).zip(other.0) {
            *o = f(x, y);
        }
        Trees(out)
    }
}

/// The body of [`Trees::transpose`]: `$load(k, h)` the 16-byte vector of
/// row `k`'s lanes `4h..4h + 4`, as floats.
#[cfg(target_arch = "x86_64")]
macro_rules! transpose_rows {
    ($n:expr, $load:expr) => {{
        use core::arch::x86_64::{
            _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_unpackhi_ps, _mm_unpacklo_ps,
        };
        let mut out = [Trees([0.0; $n]); LANES];
        for b in 0..$n / 4 {
            for h in 0..LANES / 4 {
                let r = [
                    $load(4 * b, h),
                    $load(4 * b + 1, h),
                    $load(4 * b + 2, h),
                    $load(4 * b + 3, h),
                ];
                // SAFETY: SSE is in every x86-64 CPU (the target's baseline).
                let lanes = unsafe {
                    let (t0, t1) = (_mm_unpacklo_ps(r[0], r[1]), _mm_unpacklo_ps(r[2], r[3]));
                    let (t2, t3) = (_mm_unpackhi_ps(r[0], r[1]), _mm_unpackhi_ps(r[2], r[3]));
                    [
                        _mm_movelh_ps(t0, t1),
                        _mm_movehl_ps(t1, t0),
                        _mm_movelh_ps(t2, t3),
                        _mm_movehl_ps(t3, t2),
                    ]
                };
                for (j, lane) in lanes.into_iter().enumerate() {
                    // SAFETY: trees `4b..4b + 4` of an `N`-tree number
                    // (`4b + 4 <= N`).
                    unsafe { _mm_storeu_ps(out[4 * h + j].0.as_mut_ptr().add(4 * b), lane) };
                }
            }
        }
        out
    }};
}

impl<const N: usize> Trees<N> {
    /// Lane `a` of each row, row `k` in tree `k`: `out[a].0[k] =
    /// rows[k][a]` (the lanes of `N` nodes gathered for selection). Four rows
    /// of four lanes a step of 16-byte shuffles where the CPU has them, the
    /// rows read whole; else lane by lane.
    #[inline(always)]
    pub(crate) fn transpose(rows: [&Lanes<f32>; N]) -> Lanes<Trees<N>> {
        #[cfg(target_arch = "x86_64")]
        if N.is_multiple_of(4) {
            // SAFETY: lanes `4h..4h + 4` of a row of `LANES` (`h < 2`).
            let load = |k: usize, h: usize| unsafe {
                core::arch::x86_64::_mm_loadu_ps(rows[k].as_ptr().add(4 * h))
            };
            return transpose_rows!(N, load);
        }
        std::array::from_fn(|a| Trees(std::array::from_fn(|k| rows[k][a])))
    }

    /// [`Trees::transpose`] of counts, as floats (exact: far below 2²⁴).
    #[inline(always)]
    pub(crate) fn transpose_counts(rows: [&Lanes<u32>; N]) -> Lanes<Trees<N>> {
        #[cfg(target_arch = "x86_64")]
        if N.is_multiple_of(4) {
            use core::arch::x86_64::{__m128i, _mm_cvtepi32_ps, _mm_loadu_si128};
            // SAFETY: as `transpose`'s (and SSE2 is in every x86-64 CPU).
            let load = |k: usize, h: usize| unsafe {
                _mm_cvtepi32_ps(_mm_loadu_si128(
                    rows[k].as_ptr().add(4 * h).cast::<__m128i>(),
                ))
            };
            return transpose_rows!(N, load);
        }
        std::array::from_fn(|a| Trees(std::array::from_fn(|k| rows[k][a] as i32 as f32)))
    }
}

macro_rules! trees_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<const N: usize> $trait for Trees<N> {
            type Output = Trees<N>;
            #[inline(always)]
            fn $method(self, other: Trees<N>) -> Trees<N> {
                self.zip(other, |x, y| x $op y)
            }
        }
    };
}
trees_op!(Add, add, +);
trees_op!(Sub, sub, -);
trees_op!(Mul, mul, *);
trees_op!(Div, div, /);

impl<const N: usize> Num for Trees<N> {
    #[inline(always)]
    fn splat(x: f32) -> Trees<N> {
        Trees([x; N])
    }
    #[inline(always)]
    fn if_gt(self, than: Trees<N>, a: Trees<N>, b: Trees<N>) -> Trees<N> {
        let mut out = [0.0; N];
        for i in 0..N {
            out[i] = if self.0[i] > than.0[i] {
                a.0[i]
            } else {
                b.0[i]
            };
        }
        Trees(out)
    }
    #[inline(always)]
    fn if_eq(self, to: Trees<N>, a: Trees<N>, b: Trees<N>) -> Trees<N> {
        let mut out = [0.0; N];
        for i in 0..N {
            out[i] = if self.0[i] == to.0[i] { a.0[i] } else { b.0[i] };
        }
        Trees(out)
    }
    #[inline(always)]
    fn sqrt(self) -> Trees<N> {
        self.map(f32::sqrt)
    }
    #[inline(always)]
    fn exp(self) -> Trees<N> {
        self.map(exp)
    }
}

/// Lanes of numbers.
pub(crate) type Lanes<V> = [V; LANES];

/// What selection reads of a node's children, from the point of view of
/// the player choosing: the child by action `a` in lane `a`, for the
/// legal actions; the other lanes zero.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arms<V> {
    /// 0 in the legal children's lanes, infinity in the others: added, it
    /// keeps the padding out of a minimum; subtracted, out of a maximum.
    pub pad: Lanes<V>,
    /// The lowest legal action.
    pub first: V,
    /// The network's logits, less the largest logit among the children.
    pub logit: Lanes<V>,
    /// The prior probabilities (with the root's noise, for PUCT).
    pub prior: Lanes<V>,
    /// The visit counts (whole numbers, exact in `f32` far past any
    /// search's size).
    pub visits: Lanes<V>,
    /// The mean values, 0 where a child has no visit.
    pub q: Lanes<V>,
}

/// [`Arms::pad`] of each set of legal actions (bit `a`: action `a`).
pub(crate) const PADDING: [[f32; LANES]; 64] = {
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

#[cfg(test)]
impl Arms<f32> {
    /// The children of the actions of `legal` (six bits at most, at least
    /// one), every lane zero.
    #[inline(always)]
    pub(crate) fn new(legal: u8) -> Arms<f32> {
        debug_assert!(legal < 1 << 6 && legal != 0);
        Arms {
            pad: PADDING[usize::from(legal)],
            first: legal.trailing_zeros() as f32,
            logit: [0.0; LANES],
            prior: [0.0; LANES],
            visits: [0.0; LANES],
            q: [0.0; LANES],
        }
    }
}

/// The six moves' lanes folded by `f` in halves (a vector unit's order),
/// the padding lanes left out: they must be `f`'s neutral element (0 in a
/// sum, where adding it would change at most the sign of a zero, which no
/// choice reads; any lane's value for `min` and `max`, exact in any
/// order), so that the fold is the eight lanes' one.
#[inline(always)]
fn fold<V: Num>(x: Lanes<V>, f: impl Fn(V, V) -> V) -> V {
    f(f(f(x[0], x[4]), x[2]), f(f(x[1], x[5]), x[3]))
}

/// The lanes' sum.
#[inline(always)]
fn sum<V: Num>(x: Lanes<V>) -> V {
    fold(x, |a, b| a + b)
}

/// The legal action of the largest score, the lowest on ties (and when
/// every score is minus infinity), as a number.
#[inline(always)]
fn argmax<V: Num>(scores: &Lanes<V>, arms: &Arms<V>) -> V {
    argmax_in(scores, &arms.pad, arms.first)
}

/// [`argmax`] over the legal lanes of `pad` ([`Arms::pad`]), `first` the
/// lowest legal action.
#[inline(always)]
fn argmax_in<V: Num>(scores: &Lanes<V>, pad: &Lanes<V>, first: V) -> V {
    let (zero, none) = (V::splat(0.0), V::splat(f32::NEG_INFINITY));
    let (mut best, mut action) = (none, first);
    for a in 0..6 {
        let s = pad[a].if_eq(zero, scores[a], none);
        action = s.if_gt(best, V::splat(a as f32), action);
        best = s.max(best);
    }
    action
}

/// PUCT's choice: `Q + c · P · √N / (1 + n)`, with `Q` 0 for an unvisited
/// child and `N` the children's visits (at least 1, so that the priors
/// order the first visits).
#[inline(always)]
pub(crate) fn puct<V: Num>(arms: &Arms<V>, c_puct: f32) -> V {
    let sqrt_n = sum(arms.visits).max(V::splat(1.0)).sqrt();
    let c = V::splat(c_puct);
    let one = V::splat(1.0);
    let score = moves!(i => arms.q[i] + c * arms.prior[i] * sqrt_n / (one + arms.visits[i]));
    argmax(&score, arms)
}

/// The choice at a node none of whose children has a visit yet (a node's
/// first), as [`puct`] and [`gumbel_interior`] make it there, from the
/// priors alone: PUCT's Q-values are 0 and its `√N / (1 + n)` is 1, so its
/// score is `c · P` (`scale` = `c`); Gumbel search's completed Q-values are
/// all the node's own value, so σ is 0, the improved policy is the priors
/// and the score `P` (`scale` = 1), bit for bit.
#[inline(always)]
pub(crate) fn first_visit(prior: &Lanes<f32>, legal: u8, scale: f32) -> usize {
    let score = moves!(i => scale * prior[i]);
    let first = legal.trailing_zeros() as f32;
    argmax_in(&score, &PADDING[usize::from(legal)], first) as usize
}

/// [`first_visit`] from the logits as told, before any softmax: the
/// largest legal logit's action (the lowest on ties) when every other
/// legal logit is below it by more than [`CLEAR`], where no rounding of
/// the softmax or of `c · P` could bring another prior level with it (the
/// exponential's error is a few parts in ten million); else `None`, and
/// the priors must choose. Most nodes are selected from once, if ever:
/// this spares them their softmax. `scale` as [`first_visit`]'s.
#[inline(always)]
pub(crate) fn first_visit_by_logits(logit: &Lanes<f32>, legal: u8, scale: f32) -> Option<usize> {
    // With a zero scale every score is 0, and the lowest legal action wins.
    if scale <= 0.0 {
        return None;
    }
    // The illegal lanes minus infinity: neither the largest nor near it.
    let kept = moves!(i => logit[i] - PADDING[usize::from(legal)][i]);
    let m = fold(kept, Num::max);
    // Bit sets of the lanes, without a branch a lane (their pattern follows
    // the network, which no branch predictor learns).
    let (mut top, mut near) = (0u8, 0u8);
    for a in 0..6 {
        // As the softmax has it: the logit less the largest, 0 only for a
        // logit equal to it.
        let x = kept[a] - m;
        top |= u8::from(x == 0.0) << a;
        near |= u8::from(x < 0.0 && x > -CLEAR) << a;
    }
    (near == 0 && top != 0).then(|| top.trailing_zeros() as usize)
}

/// The margin of [`first_visit_by_logits`].
const CLEAR: f32 = 1.0 / 1024.0;

/// The completed Q-values, transformed (mctx's
/// `qtransform_completed_by_mix_value`): visited children keep their Q, the
/// others get the mixed value of `raw_value` (the node's own network value)
/// and the visited children's Q weighted by their priors; rescaled to
/// `[0, 1]` by the min and max over the children and scaled by
/// `(c_visit + max visits) · c_scale`.
#[inline(always)]
pub(crate) fn completed_q<V: Num>(arms: &Arms<V>, raw_value: V, g: &Gumbel) -> Lanes<V> {
    let (zero, one) = (V::splat(0.0), V::splat(1.0));
    let total = sum(arms.visits);
    // The visited children's priors, 0 for the others. As mctx, the
    // smallest positive float keeps a zero prior usable.
    let p = moves!(i => {
        let p = arms.prior[i].max(V::splat(f32::MIN_POSITIVE));
        arms.visits[i].if_gt(zero, p, zero)
    });
    let pq = moves!(i => p[i] * arms.q[i]);
    let p_sum = sum(p);
    // Where no child is visited the quotient is not a number, and not used.
    let weighted = p_sum.if_gt(zero, sum(pq) / p_sum, zero);
    let mixed = (raw_value + total * weighted) / (total + one);
    let out = moves!(i => arms.visits[i].if_gt(zero, arms.q[i], mixed));
    let lo = fold(moves!(i => out[i] + arms.pad[i]), V::min);
    let hi = fold(moves!(i => out[i] - arms.pad[i]), V::max);
    let scale = (V::splat(g.c_visit) + fold(arms.visits, V::max)) * V::splat(g.c_scale);
    let span = (hi - lo).max(V::splat(1e-8));
    // The padding lanes are never read: masked in the softmax, not scored.
    moves!(i => scale * (out[i] - lo) / span)
}

/// `softmax` over the legal lanes (`pad` 0; the others 0), leaving `x`
/// less its largest element there (and minus infinity in the others).
#[inline(always)]
pub(crate) fn softmax<V: Num>(x: &mut Lanes<V>, pad: &Lanes<V>) -> Lanes<V> {
    let (zero, none) = (V::splat(0.0), V::splat(f32::NEG_INFINITY));
    let kept = lanes!(i => pad[i].if_eq(zero, x[i], none));
    let m = fold(kept, V::max);
    *x = lanes!(i => kept[i] - m);
    // The padding lanes are minus infinity: their exponentials are 0.
    let e = V::exp_moves(x);
    let total = sum(e);
    moves!(i => e[i] / total)
}

/// The improved policy `softmax(logits + σ(completed Q))`.
#[inline(always)]
pub(crate) fn improved_policy<V: Num>(arms: &Arms<V>, raw_value: V, g: &Gumbel) -> Lanes<V> {
    let q = completed_q(arms, raw_value, g);
    softmax(&mut lanes!(i => arms.logit[i] + q[i]), &arms.pad)
}

/// `exp(x)` (minus infinity and anything below -87 give 0): Cephes'
/// `expf` (range reduction by `ln 2`, a degree-5 polynomial, the power of
/// two built in the exponent bits), written so that the compiler
/// vectorises it over [`Trees`]: libm's `expf` was the search's largest
/// single cost.
#[inline(always)]
fn exp(x: f32) -> f32 {
    // 1.5 · 2^23: adding it rounds to an integer held in the low mantissa bits.
    const ROUND: f32 = 12_582_912.0;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // All ones where the number is kept, a mask rather than a branch so
    // that the loop vectorises.
    let keep = u32::from(x >= -87.0).wrapping_neg();
    let x = Num::min(Num::max(x, -87.0), 88.0);
    let t = x * std::f32::consts::LOG2_E + ROUND;
    let n = t - ROUND;
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = ((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2) * r
        + 0.166_666_65)
        * r
        + 0.5;
    let p = p * r * r + r + 1.0;
    let n_bits = t.to_bits().wrapping_sub(ROUND.to_bits()).wrapping_add(127);
    let two_n = f32::from_bits(n_bits << 23);
    f32::from_bits((p * two_n).to_bits() & keep)
}

/// Gumbel search's choice inside the tree: the child that most lacks visits
/// against the improved policy (`π'(a) - n(a) / (1 + N)`). With no child
/// visited, that is the priors' largest (every completed Q is the node's
/// own value, so σ is 0 and the improved policy is the priors).
#[inline(always)]
pub(crate) fn gumbel_interior<V: Num>(arms: &Arms<V>, raw_value: V, g: &Gumbel) -> V {
    let total = sum(arms.visits);
    let pi = improved_policy(arms, raw_value, g);
    let one = V::splat(1.0);
    let score = moves!(i => pi[i] - arms.visits[i] / (one + total));
    argmax(&score, arms)
}

/// Sequential halving's score at the root (mctx's `score_considered`):
/// `gumbel + logit + σ(completed Q)` for the children visited exactly
/// `considered_visit` times, minus infinity for the others.
#[inline(always)]
pub(crate) fn gumbel_root<V: Num>(
    arms: &Arms<V>,
    gumbel: &Lanes<V>,
    raw_value: V,
    g: &Gumbel,
    considered_visit: V,
) -> V {
    let q = completed_q(arms, raw_value, g);
    let score = moves!(i => {
        arms.visits[i].if_eq(
            considered_visit,
            (gumbel[i] + arms.logit[i] + q[i]).max(V::splat(-1e9)),
            V::splat(f32::NEG_INFINITY),
        )
    });
    argmax(&score, arms)
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
    use crate::games::random_move::Rng;
    use rand::{Rng as _, SeedableRng};

    /// The project's generator's numbers, from `seed`.
    fn numbers(seed: u64) -> impl FnMut() -> u64 {
        let mut rng = Rng::seed_from_u64(seed);
        move || rng.random()
    }

    /// Arms of `(logit, prior, visits, q)`.
    fn arms(children: &[(f32, f32, u32, f32)]) -> Arms<f32> {
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
    fn transpose_puts_row_k_in_tree_k() {
        fn check<const N: usize>() {
            let rows: [Lanes<f32>; N] =
                std::array::from_fn(|k| std::array::from_fn(|a| (k * 10 + a) as f32));
            let counts: [Lanes<u32>; N] =
                std::array::from_fn(|k| std::array::from_fn(|a| (k * 100 + a) as u32));
            let t = Trees::<N>::transpose(std::array::from_fn(|k| &rows[k]));
            let c = Trees::<N>::transpose_counts(std::array::from_fn(|k| &counts[k]));
            for a in 0..LANES {
                for k in 0..N {
                    assert_eq!(t[a].0[k], rows[k][a]);
                    assert_eq!(c[a].0[k], counts[k][a] as f32);
                }
            }
        }
        check::<4>();
        check::<8>();
        check::<3>();
    }

    #[test]
    fn exp_is_exp_to_a_few_ulps() {
        let mut worst = 0.0f64;
        for k in -8700..=8800 {
            let x = k as f32 / 100.0;
            let got = Trees::<4>::splat(x).exp();
            let want = f64::from(x).exp();
            worst = worst.max(((f64::from(got.0[3]) - want) / want).abs());
            assert!(got.0.iter().all(|&g| g.to_bits() == exp(x).to_bits()));
        }
        assert!(worst < 3e-7, "relative error {worst}");
        let got = [f32::NEG_INFINITY, -87.5, -1e30, 0.0, -0.0, 1.0, -1.0, 0.5].map(exp);
        assert_eq!(&got[..5], &[0.0, 0.0, 0.0, 1.0, 1.0]);
        assert!((got[5] - std::f32::consts::E).abs() < 1e-6);
    }

    #[test]
    fn softmax_sums_to_one_and_shifts_its_input() {
        // Actions 0, 2 and 5 legal; the others' logits are anything.
        let mut x = [1.0f32, f32::NAN, 3.0, 7.0, f32::INFINITY, -2.0, 0.0, 0.0];
        let p = softmax(&mut x, &PADDING[0b10_0101]);
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
        let legal = 0b11_0111u8;
        let prior = softmax(&mut x, &PADDING[usize::from(legal)]);
        let mut a = Arms::new(legal);
        a.prior = prior;
        for (i, (l, x)) in a.logit.iter_mut().zip(x).enumerate().take(6) {
            *l = if legal >> i & 1 == 1 { x } else { 0.0 };
        }
        for raw_value in [-0.7, 0.0, 0.4] {
            let pi = improved_policy(&a, raw_value, &g);
            assert_eq!(pi, prior);
            // Actions 2 and 4 tie: the lower.
            assert_eq!(gumbel_interior(&a, raw_value, &g), 2.0);
        }
    }

    #[test]
    fn puct_prefers_priors_first_then_values() {
        assert_eq!(
            puct(&arms(&[(0.0, 0.2, 0, 0.0), (0.0, 0.8, 0, 0.0)]), 1.0),
            1.0
        );
        let visited = arms(&[(0.0, 0.2, 0, 0.0), (0.0, 0.8, 10, -1.0)]);
        assert_eq!(puct(&visited, 1.0), 0.0);
    }

    #[test]
    fn a_node_s_first_choice_is_the_formulas_choice() {
        // Unvisited nodes with priors from logits of every kind: apart, tied
        // and a float apart (where `c · P` may round two priors together).
        let mut next = numbers(0x9e37_79b9_7f4a_7c15);
        let g = Gumbel::default();
        let mut clear = 0;
        for k in 0..3000 {
            let legal = (next() % 63 + 1) as u8;
            let mut x = [0.0f32; LANES];
            let base = (next() % 2000) as f32 / 500.0 - 2.0;
            for l in x.iter_mut() {
                *l = match next() % 3 {
                    0 => base,
                    1 => f32::from_bits(base.to_bits() + (next() % 3) as u32),
                    _ => (next() % 2000) as f32 / 500.0 - 2.0,
                };
            }
            // As told: 0 in the illegal lanes.
            let mut told = [0.0f32; LANES];
            for i in 0..6 {
                if legal >> i & 1 == 1 {
                    told[i] = x[i];
                }
            }
            let mut a = Arms::new(legal);
            a.prior = softmax(&mut x, &a.pad);
            for i in 0..6 {
                if legal >> i & 1 == 1 {
                    a.logit[i] = x[i];
                }
            }
            let c = [1.25, 1.0, 0.7, 3.3, 0.0][k % 5];
            let want = puct(&a, c);
            assert_eq!(want, first_visit(&a.prior, legal, c) as f32);
            if let Some(by_logits) = first_visit_by_logits(&told, legal, c) {
                assert_eq!(want, by_logits as f32, "{told:?}");
                clear += 1;
            }
            let raw = (next() % 200) as f32 / 100.0 - 1.0;
            let want = gumbel_interior(&a, raw, &g);
            assert_eq!(want, first_visit(&a.prior, legal, 1.0) as f32);
            if let Some(by_logits) = first_visit_by_logits(&told, legal, 1.0) {
                assert_eq!(want, by_logits as f32, "{told:?}");
            }
        }
        // The logits choose clear of the ties most of the time.
        assert!(clear > 1000, "{clear}");
    }

    /// A node's arms, root noise, value and wanted visits.
    type Node = (Arms<f32>, Lanes<f32>, f32, f32);

    #[test]
    fn trees_choose_as_each_tree_alone() {
        // Nodes of every kind (few and many children, unvisited and
        // visited, values of both signs), in the lanes of `Trees`: each
        // lane's choices and policies are those of its node alone, bit for
        // bit.
        let mut next = numbers(0x2545_f491_4f6c_dd1d);
        let g = Gumbel::default();
        for _ in 0..200 {
            let mut nodes = Vec::new();
            for _ in 0..GUMBEL_TREES {
                let legal = (next() % 63 + 1) as u8;
                let mut a = Arms::new(legal);
                let mut x = [0.0f32; LANES];
                for l in x.iter_mut() {
                    *l = (next() % 2000) as f32 / 500.0 - 2.0;
                }
                a.prior = softmax(&mut x, &a.pad);
                for i in 0..6 {
                    if legal >> i & 1 == 1 {
                        a.logit[i] = x[i];
                        a.visits[i] = (next() % 4) as f32;
                        if a.visits[i] > 0.0 {
                            a.q[i] = (next() % 200) as f32 / 100.0 - 1.0;
                        }
                    }
                }
                let gumbel = [0; LANES].map(|_| (next() % 300) as f32 / 100.0 - 1.0);
                let raw = (next() % 200) as f32 / 100.0 - 1.0;
                let wanted = (next() % 3) as f32;
                nodes.push((a, gumbel, raw, wanted));
            }
            let lanes = |f: &dyn Fn(&Node) -> f32| {
                Trees::<GUMBEL_TREES>(std::array::from_fn(|k| f(&nodes[k])))
            };
            let by_lane = |f: &dyn Fn(&Arms<f32>) -> Lanes<f32>| {
                std::array::from_fn(|i| lanes(&|n| f(&n.0)[i]))
            };
            let wide = Arms {
                pad: by_lane(&|a| a.pad),
                first: lanes(&|n| n.0.first),
                logit: by_lane(&|a| a.logit),
                prior: by_lane(&|a| a.prior),
                visits: by_lane(&|a| a.visits),
                q: by_lane(&|a| a.q),
            };
            let gumbel = std::array::from_fn(|i| lanes(&|n| n.1[i]));
            let (raw, wanted) = (lanes(&|n| n.2), lanes(&|n| n.3));
            let chosen = [
                puct(&wide, 1.25),
                gumbel_interior(&wide, raw, &g),
                gumbel_root(&wide, &gumbel, raw, &g, wanted),
            ];
            let pi = improved_policy(&wide, raw, &g);
            for (k, (a, gumbel, raw, wanted)) in nodes.iter().enumerate() {
                let alone = [
                    puct(a, 1.25),
                    gumbel_interior(a, *raw, &g),
                    gumbel_root(a, gumbel, *raw, &g, *wanted),
                ];
                for (c, want) in chosen.iter().zip(alone) {
                    assert_eq!(c.0[k], want);
                }
                let pi_alone = improved_policy(a, *raw, &g);
                for i in 0..LANES {
                    assert_eq!(pi[i].0[k].to_bits(), pi_alone[i].to_bits());
                }
            }
        }
    }
}
