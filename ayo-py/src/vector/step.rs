//! One step of the whole batch: the actions checked first (from each game's
//! status byte), then every episode stepped by ayo-core on up to
//! `num_threads` threads, each writing its games' rows.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use ayo_core::episode::{
    first_refused, step_batch_rows, Counts, Episode, EpisodeGame, EpisodeOptions, Rows, RowsError,
    DONE,
};
use pyo3::prelude::*;

use crate::errors::{self, AyoError};
use crate::team::Team;

/// Checks the whole batch before anything changes, from the games' status
/// bytes with ayo-core's [`first_refused`] (the game refused is read only
/// to explain the error).
pub(crate) fn validate<G: EpisodeGame>(
    opts: &EpisodeOptions,
    py: Python<'_>,
    status: &[u8],
    episodes: &[Episode<G>],
    actions: &[i64],
) -> PyResult<()> {
    if actions.len() != episodes.len() {
        return Err(AyoError::new_err(format!(
            "expected {} actions (one per game), got {}",
            episodes.len(),
            actions.len()
        )));
    }
    let Some(i) = first_refused(opts, status, actions) else {
        return Ok(());
    };
    let a = actions[i];
    if status[i] & DONE != 0 {
        return Err(errors::EpisodeOverError::new_err(format!(
            "game {i}: its episode is over; reset it with reset(options={{\"reset_mask\": ...}})"
        )));
    }
    if !(0..6).contains(&a) {
        return Err(errors::illegal_kind(
            py,
            "action_out_of_range",
            format!("game {i}: action {a} is outside 0..5"),
        ));
    }
    let why = episodes[i].why_illegal(opts, a as u8);
    Err(errors::illegal_kind(
        py,
        why.kind(),
        format!("game {i}: {why}"),
    ))
}

/// Steps `episodes[k]` with `actions[k]` for every `k` (all rows of `out`),
/// the actions validated by [`validate`]: ayo-core's batch step, which
/// writes the rows.
fn step_chunk<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    mut out: Rows<'_>,
) -> Result<Counts, RowsError> {
    step_batch_rows(opts, episodes, actions, &mut out)
}

/// Two shares' counts added, or the first error.
fn add(a: Result<Counts, RowsError>, b: Result<Counts, RowsError>) -> Result<Counts, RowsError> {
    let (mut a, b) = (a?, b?);
    a += b;
    Ok(a)
}

/// Fewest games a step shares between threads (fewer are not worth a helper).
pub(crate) const MIN_THREADED: usize = 128;

/// The shares of a threaded step not yet claimed, `front..back`: the caller
/// claims from the front and the helpers from the back.
struct Claims(AtomicU64);

impl Claims {
    fn new(shares: usize) -> Claims {
        Claims(AtomicU64::new((shares as u64) << 32))
    }

    /// The next share for thread `me` (0: the caller), or None when all are claimed.
    fn next(&self, me: usize) -> Option<usize> {
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
struct Timing {
    caller: (usize, f64),
    /// The helpers together, in the time of the slowest.
    helpers: (usize, f64),
}

impl Split {
    /// The caller's games in a step of `n` games on `threads` threads.
    fn caller_games(self, n: usize, threads: usize) -> usize {
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
    fn rebalance(&mut self, n: usize, threads: usize, t: Timing) {
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

/// Steps every game: on the calling thread alone, or with `team`'s helpers
/// from [`MIN_THREADED`] games. The games are cut into contiguous shares,
/// the caller's first (as `split` says, which the step then adapts) and
/// then one a helper; the caller claims shares from the front and the
/// helpers from the back, so each thread steps nearly the same games every
/// step, and the caller takes the share of a helper that has not started
/// when it is done with its own. Each game's result depends only on its own
/// state and action, so who steps it changes nothing. What happened,
/// counted; an error, and nothing stepped, when the actions or the rows
/// are not one a game.
pub(crate) fn step_all<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    out: Rows<'_>,
    team: Option<&mut Team>,
    split: &mut Split,
) -> Result<Counts, RowsError> {
    let Some(team) = team.filter(|_| episodes.len() >= MIN_THREADED) else {
        return step_chunk(opts, episodes, actions, out);
    };
    // Checked whole before any share is stepped: the shares, cut from
    // rows and actions that fit, then fit too.
    out.check(episodes.len())?;
    if actions.len() != episodes.len() {
        return Err(RowsError::Actions {
            games: episodes.len(),
            actions: actions.len(),
        });
    }
    let (n, threads) = (episodes.len(), team.threads());
    let caller = split.caller_games(n, threads);
    let helper = (n - caller).div_ceil(threads - 1);
    let mut shares = Vec::with_capacity(threads);
    let (mut episodes, mut actions, mut out) = (episodes, actions, out);
    while !episodes.is_empty() {
        let k = if shares.is_empty() { caller } else { helper }.min(episodes.len());
        let (these, rest) = std::mem::take(&mut episodes).split_at_mut(k);
        let (acts, rest_acts) = actions.split_at(k);
        let (rows, rest_rows) = out.split_at(k);
        shares.push(Mutex::new(Some((these, acts, rows))));
        (episodes, actions, out) = (rest, rest_acts, rest_rows);
    }
    let claims = Claims::new(shares.len());
    let done = Mutex::new((Ok(Counts::default()), Timing::default()));
    team.run(&|me| {
        let start = Instant::now();
        let (mut mine, mut games) = (Ok(Counts::default()), 0);
        while let Some(b) = claims.next(me) {
            // Each share is claimed once; its lock is never contended.
            let claimed = shares[b].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some((these, acts, rows)) = claimed {
                games += these.len();
                mine = add(mine, step_chunk(opts, these, acts, rows));
            }
        }
        let secs = start.elapsed().as_secs_f64();
        // Adding cannot panic: a poisoned lock still holds the sums.
        let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
        done.0 = add(done.0, mine);
        if me == 0 {
            done.1.caller = (games, secs);
        } else if games > 0 {
            let h = &mut done.1.helpers;
            *h = (h.0 + games, h.1.max(secs));
        }
    });
    let (counts, timing) = done.into_inner().unwrap_or_else(|e| e.into_inner());
    split.rebalance(n, threads, timing);
    counts
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
