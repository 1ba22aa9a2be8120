//! Where a threaded step of a [`super::VecEnv`] cuts its games into
//! shares ([`Split`], which follows the threads' speeds), and how the
//! threads claim the shares ([`Claims`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// Fewest games a step shares between threads (fewer are not worth a helper).
pub(crate) const MIN_THREADED: usize = 128;

/// The shares of a threaded step not yet claimed, `front..back`: the caller
/// claims from the front and the helpers from the back.
pub(crate) struct Claims(AtomicU64);

impl Claims {
    pub(crate) fn new(shares: usize) -> Claims {
        Claims(AtomicU64::new((shares as u64) << 32))
    }

    /// The next share for thread `me` (0: the caller), or None when all are claimed.
    pub(crate) fn next(&self, me: usize) -> Option<usize> {
        let mut cur = self.0.load(Ordering::Relaxed);
        loop {
            let (front, back) = (cur & 0xFFFF_FFFF, cur >> 32);
            if front >= back {
                return None;
            }
            let (new, share) = if me == 0 {
                (cur + 1, front)
            } else {
                (cur - (1 << 32), back - 1)
            };
            match self
                .0
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Some(share as usize),
                Err(now) => cur = now,
            }
        }
    }
}

/// Where a threaded step splits its games: the caller steps the first
/// `caller` games, the helpers the rest in equal shares. The split follows
/// the threads' speeds in the steps before (see [`Split::rebalance`]): on a
/// shared host one vCPU can run a third slower than the other for a while,
/// and with fixed halves every step then waits for the slower thread. Games
/// change threads only at the boundary, a few at a time, so each thread goes
/// on stepping nearly the same games (their state stays in its core's
/// cache; games claimed from a shared counter in small blocks moved between
/// cores every step and cost more than they balanced).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Split {
    /// Games of the caller's share; 0 until the first threaded step.
    caller: usize,
}

/// The boundary of [`Split`] moves by multiples of this many games.
const SPLIT_GRAIN: usize = 16;

/// What each side of a threaded step did: games stepped and seconds taken.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Timing {
    /// The caller's games and seconds.
    pub(crate) caller: (usize, f64),
    /// The helpers together, in the time of the slowest.
    pub(crate) helpers: (usize, f64),
}

impl Split {
    /// The caller's games in a step of `n` games on `threads` threads.
    pub(crate) fn caller_games(self, n: usize, threads: usize) -> usize {
        if self.caller == 0 || self.caller >= n {
            n.div_ceil(threads)
        } else {
            self.caller
        }
    }

    /// Moves the boundary toward the split at which both sides of the last
    /// step would have taken the same time at the speeds they had, by at
    /// most a sixteenth of the games a step and never below an eighth on
    /// either side. A step in which a side did not step its own share (a
    /// helper that started late) says nothing of the speeds and is passed over.
    pub(crate) fn rebalance(&mut self, n: usize, threads: usize, t: Timing) {
        let caller = self.caller_games(n, threads);
        let ((cg, cs), (hg, hs)) = (t.caller, t.helpers);
        if cg != caller || hg != n - caller || cs <= 0.0 || hs <= 0.0 {
            return;
        }
        let (rc, rh) = (cg as f64 / cs, hg as f64 / hs);
        let balanced = n as f64 * rc / (rc + rh);
        // Half way there: one step's speeds are noisy.
        let mut next = (caller as f64 + balanced) / 2.0;
        let most = (n / 16).max(SPLIT_GRAIN) as f64;
        next = next.clamp(caller as f64 - most, caller as f64 + most);
        let next = (next / SPLIT_GRAIN as f64).round() as usize * SPLIT_GRAIN;
        self.caller = next.clamp(n / 8, n - n / 8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(caller: (usize, f64), helpers: (usize, f64)) -> Timing {
        Timing { caller, helpers }
    }

    #[test]
    fn the_split_starts_even_and_moves_toward_the_faster_thread() {
        let mut split = Split::default();
        assert_eq!(split.caller_games(1024, 2), 512);
        // The helper ran at two thirds of the caller's speed: the balanced
        // split is 614 games for the caller, reached in steps of at most 64.
        let mut seen = vec![];
        for _ in 0..8 {
            let c = split.caller_games(1024, 2);
            let (cs, hs) = (c as f64 / 3.0, (1024 - c) as f64 / 2.0);
            split.rebalance(1024, 2, timing((c, cs), (1024 - c, hs)));
            seen.push(split.caller_games(1024, 2));
        }
        assert_eq!(seen[0], 560);
        assert!(seen.windows(2).all(|w| w[1].abs_diff(w[0]) <= 64));
        assert!(seen[7].abs_diff(614) <= SPLIT_GRAIN, "{seen:?}");
        assert!(seen.iter().all(|c| c % SPLIT_GRAIN == 0));
    }

    #[test]
    fn the_split_keeps_an_eighth_on_each_side_and_ignores_a_late_helper() {
        let mut split = Split::default();
        // The helper very slow for many steps: the caller never takes more than 7/8.
        for _ in 0..40 {
            let c = split.caller_games(1024, 2);
            split.rebalance(1024, 2, timing((c, 1.0), (1024 - c, 1000.0)));
        }
        assert_eq!(split.caller_games(1024, 2), 896);
        // A step where the caller took the helper's share too: no change.
        let before = split;
        split.rebalance(1024, 2, timing((1024, 1.0), (0, 0.0)));
        assert_eq!(split, before);
        // Three threads as fast as each other (the helpers' 666 games in the
        // caller's time): the caller keeps about a third.
        let mut split = Split::default();
        assert_eq!(split.caller_games(1000, 3), 334);
        split.rebalance(1000, 3, timing((334, 1.0), (666, 1.0)));
        assert_eq!(split.caller_games(1000, 3), 336);
    }
}
