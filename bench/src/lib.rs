//! What ayo's timers share: the machine line every figure carries, the
//! median of a run's rounds, and the seeded choice of a legal action that
//! makes two paths take the same actions.

/// The CPU model from `/proc/cpuinfo` (the architecture where there is none):
/// every figure names the machine that gave it.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The median of a run's figures (sorted in place; the upper one of an even
/// count). Panics on an empty slice: a timer always has rounds.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Game `i`'s action at step `t` from its legal actions as six bits: the
/// `k`-th legal action for `k` from a hash of `i` and `t` (0 where none is
/// legal). Two paths that pick with it take the same actions.
pub fn pick_legal(mut legal: u8, i: usize, t: u64) -> i64 {
    legal &= 0x3F;
    if legal == 0 {
        return 0;
    }
    let h = (i as u64 ^ (t << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    for _ in 0..h % u64::from(legal.count_ones()) {
        legal &= legal - 1;
    }
    i64::from(legal.trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_legal_takes_only_legal_actions_and_each_of_them() {
        for legal in 1u8..64 {
            let mut seen = 0u8;
            for i in 0..64 {
                let a = pick_legal(legal, i, 7);
                assert!(legal & (1 << a) != 0, "{legal:#b} gave {a}");
                seen |= 1 << a;
            }
            assert_eq!(seen, legal, "every legal action is picked for some game");
        }
        assert_eq!(pick_legal(0, 3, 4), 0);
        assert_eq!(
            pick_legal(0xC0, 3, 4),
            0,
            "the two status bits above the mask are not actions"
        );
    }

    #[test]
    fn median_is_the_middle_figure() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
    }
}
