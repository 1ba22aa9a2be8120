//! The selection rules over one node's children: PUCT, and Gumbel search's
//! sequential halving at the root, its improved policy inside the tree and
//! its completed Q-values (mctx's `seq_halving.py`, `qtransforms.py` and
//! `policies.py`, restated over at most six legal children).

use super::Gumbel;

/// What selection reads of one child, from the point of view of the player
/// choosing it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Arm {
    /// The network's logit, less the largest logit among the children.
    pub logit: f32,
    /// The prior probability (with the root's noise, for PUCT).
    pub prior: f32,
    pub visits: u32,
    /// The mean value, meaningful when `visits > 0`.
    pub q: f32,
}

/// The index of the largest `score` (the first on ties).
fn argmax(scores: impl Iterator<Item = f32>) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, s) in scores.enumerate() {
        if s > best.0 {
            best = (s, i);
        }
    }
    best.1
}

/// PUCT's choice: `Q + c · P · √N / (1 + n)`, with `Q` 0 for an unvisited
/// child and `N` the children's visits (at least 1, so that the priors
/// order the first visits).
pub(crate) fn puct(arms: &[Arm], c_puct: f32) -> usize {
    let total: u32 = arms.iter().map(|a| a.visits).sum();
    let sqrt_n = (total.max(1) as f32).sqrt();
    argmax(arms.iter().map(|a| {
        let q = if a.visits > 0 { a.q } else { 0.0 };
        q + c_puct * a.prior * sqrt_n / (1.0 + a.visits as f32)
    }))
}

/// The completed Q-values, transformed (mctx's
/// `qtransform_completed_by_mix_value`): visited children keep their Q, the
/// others get the mixed value of `raw_value` (the node's own network value)
/// and the visited children's Q weighted by their priors; rescaled to
/// `[0, 1]` by the min and max over the children and scaled by
/// `(c_visit + max visits) · c_scale`.
pub(crate) fn completed_q(arms: &[Arm], raw_value: f32, g: &Gumbel, out: &mut [f32]) {
    let total: u32 = arms.iter().map(|a| a.visits).sum();
    let (mut p_sum, mut pq_sum) = (0.0f32, 0.0f32);
    for a in arms.iter().filter(|a| a.visits > 0) {
        // As mctx, the smallest positive float keeps a zero prior usable.
        let p = a.prior.max(f32::MIN_POSITIVE);
        p_sum += p;
        pq_sum += p * a.q;
    }
    let weighted = if p_sum > 0.0 { pq_sum / p_sum } else { 0.0 };
    let mixed = (raw_value + total as f32 * weighted) / (total as f32 + 1.0);
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for (o, a) in out.iter_mut().zip(arms) {
        *o = if a.visits > 0 { a.q } else { mixed };
        lo = lo.min(*o);
        hi = hi.max(*o);
    }
    let max_visits = arms.iter().map(|a| a.visits).max().unwrap_or(0);
    let scale = (g.c_visit + max_visits as f32) * g.c_scale;
    let span = (hi - lo).max(1e-8);
    for o in out.iter_mut().take(arms.len()) {
        *o = scale * (*o - lo) / span;
    }
}

/// The improved policy `softmax(logits + σ(completed Q))` into `out`.
pub(crate) fn improved_policy(arms: &[Arm], raw_value: f32, g: &Gumbel, out: &mut [f32]) {
    let mut q = [0.0f32; 6];
    completed_q(arms, raw_value, g, &mut q);
    let n = arms.len();
    let mut m = f32::NEG_INFINITY;
    for (o, (a, q)) in out.iter_mut().zip(arms.iter().zip(q)) {
        *o = a.logit + q;
        m = m.max(*o);
    }
    let mut sum = 0.0;
    for o in out.iter_mut().take(n) {
        *o = (*o - m).exp();
        sum += *o;
    }
    for o in out.iter_mut().take(n) {
        *o /= sum;
    }
}

/// Gumbel search's choice inside the tree: the child that most lacks visits
/// against the improved policy (`π'(a) - n(a) / (1 + N)`).
pub(crate) fn gumbel_interior(arms: &[Arm], raw_value: f32, g: &Gumbel) -> usize {
    let mut pi = [0.0f32; 6];
    improved_policy(arms, raw_value, g, &mut pi);
    let total: u32 = arms.iter().map(|a| a.visits).sum();
    argmax(
        arms.iter()
            .zip(pi)
            .map(|(a, p)| p - a.visits as f32 / (1.0 + total as f32)),
    )
}

/// Sequential halving's score at the root (mctx's `score_considered`):
/// `gumbel + logit + σ(completed Q)` for the children visited exactly
/// `considered_visit` times, minus infinity for the others.
pub(crate) fn gumbel_root(
    arms: &[Arm],
    gumbel: &[f32],
    raw_value: f32,
    g: &Gumbel,
    considered_visit: u32,
) -> usize {
    let mut q = [0.0f32; 6];
    completed_q(arms, raw_value, g, &mut q);
    argmax(arms.iter().zip(gumbel).zip(q).map(|((a, &gn), q)| {
        if a.visits == considered_visit {
            (gn + a.logit + q).max(-1e9)
        } else {
            f32::NEG_INFINITY
        }
    }))
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
    fn completed_q_rescales_to_the_visit_scale() {
        let g = Gumbel::default();
        let arms = [
            Arm {
                logit: 0.0,
                prior: 0.5,
                visits: 2,
                q: 1.0,
            },
            Arm {
                logit: 0.0,
                prior: 0.5,
                visits: 1,
                q: -1.0,
            },
            Arm {
                logit: -1.0,
                prior: 0.0,
                visits: 0,
                q: 0.0,
            },
        ];
        let mut q = [0.0f32; 3];
        completed_q(&arms, 0.0, &g, &mut q);
        let scale = (50.0 + 2.0) * 0.1;
        assert!((q[0] - scale).abs() < 1e-5);
        assert!(q[1].abs() < 1e-6);
        // Mixed value (0 + 3 · 0) / 4 = 0: halfway.
        assert!((q[2] - scale / 2.0).abs() < 1e-5, "{q:?}");
    }

    #[test]
    fn puct_prefers_priors_first_then_values() {
        let mut arms = [
            Arm {
                logit: 0.0,
                prior: 0.2,
                visits: 0,
                q: 0.0,
            },
            Arm {
                logit: 0.0,
                prior: 0.8,
                visits: 0,
                q: 0.0,
            },
        ];
        assert_eq!(puct(&arms, 1.0), 1);
        arms[1] = Arm {
            visits: 10,
            q: -1.0,
            ..arms[1]
        };
        assert_eq!(puct(&arms, 1.0), 0);
    }
}
