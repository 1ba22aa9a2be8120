//! The search's random draws: Gumbel(0, 1) and Dirichlet noise, from the
//! crate's seeded generator (no distribution crate: the two samplers are
//! short).

use rand::Rng as _;

use crate::games::random_move::Rng;

/// A uniform draw in the open interval (0, 1).
fn open01(rng: &mut Rng) -> f64 {
    loop {
        let u: f64 = rng.random();
        if u > 0.0 {
            return u;
        }
    }
}

/// A standard Gumbel draw: `-ln(-ln u)`.
pub(crate) fn gumbel(rng: &mut Rng) -> f32 {
    (-(-open01(rng).ln()).ln()) as f32
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let (u, v) = (open01(rng), open01(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`alpha`, 1) draw, `alpha > 0` (Marsaglia and Tsang 2000; below
/// 1 by `Gamma(alpha + 1) · U^(1/alpha)`).
fn gamma(rng: &mut Rng, alpha: f64) -> f64 {
    if alpha < 1.0 {
        return gamma(rng, alpha + 1.0) * open01(rng).powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = open01(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A Dirichlet(`alpha`, …) draw over `out` (every entry written; they sum to 1).
pub(crate) fn dirichlet(rng: &mut Rng, alpha: f32, out: &mut [f32]) {
    let mut sum = 0.0;
    let mut draws = [0.0f64; 6];
    for d in draws.iter_mut().take(out.len()) {
        *d = gamma(rng, f64::from(alpha));
        sum += *d;
    }
    let uniform = 1.0 / out.len() as f32;
    for (o, d) in out.iter_mut().zip(draws) {
        // All draws can underflow to 0 for a tiny alpha: then uniform.
        *o = if sum > 0.0 { (d / sum) as f32 } else { uniform };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn dirichlet_sums_to_one_and_has_the_mean() {
        let mut rng = Rng::seed_from_u64(5);
        let mut mean = [0.0f64; 3];
        let n = 20_000;
        for _ in 0..n {
            let mut out = [0.0f32; 3];
            dirichlet(&mut rng, 0.3, &mut out);
            assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(out.iter().all(|&x| (0.0..=1.0).contains(&x)));
            for (m, x) in mean.iter_mut().zip(out) {
                *m += f64::from(x) / f64::from(n);
            }
        }
        for m in mean {
            assert!((m - 1.0 / 3.0).abs() < 0.02, "{mean:?}");
        }
    }

    #[test]
    fn gumbel_has_its_mean() {
        let mut rng = Rng::seed_from_u64(9);
        let n = 50_000;
        let mean: f64 = (0..n).map(|_| f64::from(gumbel(&mut rng))).sum::<f64>() / n as f64;
        // The Euler–Mascheroni constant.
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
    }
}
