//! One step of the whole batch: the actions checked first (from each game's
//! status byte), then every episode stepped by ayo-core on up to
//! `num_threads` threads, each writing its games' rows.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use ayo_core::episode::{
    check_action, step_batch, Autoreset, Checked, Episode, EpisodeGame, EpisodeOptions,
};
use pyo3::prelude::*;

use super::rows::{reason_code, Rows, DONE};
use super::write_turn;
use crate::errors::{self, AyoError};
use crate::team::Team;

/// How many games of a step had each kind of news (so that the caller
/// builds `info` only for what happened).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Episodes that ended (terminated or truncated).
    pub ended: usize,
    /// Games that ended by the rules (`scores` and `winner` set).
    pub over: usize,
    /// Penalized illegal actions.
    pub penalized: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.ended += other.ended;
        self.over += other.over;
        self.penalized += other.penalized;
    }
}

/// Checks the whole batch before anything changes, from the games' status
/// bytes with ayo-core's [`check_action`] (the games themselves are read
/// only to explain an error).
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
    let penalize = opts.illegal.penalty().is_some();
    for (i, (&st, &a)) in status.iter().zip(actions).enumerate() {
        if st & DONE != 0 {
            if opts.autoreset == Autoreset::Disabled {
                return Err(errors::EpisodeOverError::new_err(format!(
                    "game {i}: its episode is over; reset it with reset(options={{\"reset_mask\": ...}})"
                )));
            }
            continue;
        }
        if check_action(st, a, penalize).is_err() {
            if !(0..6).contains(&a) {
                return Err(errors::illegal_kind(
                    py,
                    "action_out_of_range",
                    format!("game {i}: action {a} is outside 0..5"),
                ));
            }
            let why = episodes[i].why_illegal(opts, a as u8);
            return Err(errors::illegal_kind(
                py,
                why.kind(),
                format!("game {i}: {why}"),
            ));
        }
    }
    Ok(())
}

/// Steps `episodes[k]` with `actions[k]` for every `k` (all rows of `out`),
/// the actions validated by [`validate`].
fn step_chunk<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    mut out: Rows<'_>,
) -> Counts {
    let mut counts = Counts::default();
    let penalize = opts.illegal.penalty().is_some();
    // The rows of news are cleared at once; the few games with news set theirs.
    out.ended.fill(false);
    out.game_over.fill(false);
    out.illegal.fill(-1);
    out.scores.fill(0);
    out.winner.fill(0);
    out.reason.fill(-1);
    // The status row is read by the action check and rewritten by the
    // step's rows: shared by the two closures as cells.
    let status = Cell::from_mut(std::mem::take(&mut out.status)).as_slice_of_cells();
    // The actions are validated: legal, or to penalize (a done game ignores it).
    step_batch(
        opts,
        episodes,
        |i| {
            let a = actions[i];
            check_action(status[i].get(), a, penalize).unwrap_or(Checked::Penalized(a))
        },
        |i, ep, step, before| {
            out.reward[i] = step.reward;
            out.terminated[i] = step.terminated;
            out.truncated[i] = step.truncated;
            if let Some(p) = step.penalized {
                out.illegal[i] = p as i8;
                counts.penalized += 1;
            }
            if let Some(o) = step.outcome {
                out.game_over[i] = true;
                out.scores[2 * i] = o.scores[0] as i16;
                out.scores[2 * i + 1] = o.scores[1] as i16;
                out.winner[i] = o.winner.map_or(-1, |w| w.index() as i8);
                out.reason[i] = reason_code(o.reason);
                counts.over += 1;
            }
            if step.terminated || step.truncated {
                out.ended[i] = true;
                counts.ended += 1;
            }
            if let Some(last) = &step.final_observation {
                out.write_final_obs(i, last);
            }
            out.seat[i] = ep.viewer(opts).index() as i8;
            // A new episode (an autoreset) has only this step's moves.
            let from = if step.was_reset || ep.moves().len() < before {
                0
            } else {
                before
            };
            write_turn(opts, ep, &mut out, i, from);
            let legal = out.write_obs(i, &ep.observe(opts));
            status[i].set(legal | if ep.is_done() { DONE } else { 0 });
        },
    );
    counts
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

/// Steps every game: on the calling thread alone, or with `team`'s helpers
/// from [`MIN_THREADED`] games. The games are cut into one contiguous share
/// a thread; the caller claims shares from the front and the helpers from
/// the back, so each thread steps the same games every step (their state
/// stays in its core's cache), and the caller takes the share of a helper
/// that has not started when it is done with its own. Each game's result
/// depends only on its own state and action, so who steps it changes
/// nothing. What happened, counted.
pub(crate) fn step_all<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    out: Rows<'_>,
    team: Option<&Team>,
) -> Counts {
    let Some(team) = team.filter(|_| episodes.len() >= MIN_THREADED) else {
        return step_chunk(opts, episodes, actions, out);
    };
    let share = episodes.len().div_ceil(team.threads());
    let mut shares = Vec::with_capacity(team.threads());
    let (mut episodes, mut actions, mut out) = (episodes, actions, out);
    while !episodes.is_empty() {
        let k = share.min(episodes.len());
        let (these, rest) = std::mem::take(&mut episodes).split_at_mut(k);
        let (acts, rest_acts) = actions.split_at(k);
        let (rows, rest_rows) = out.split_at(k);
        shares.push(Mutex::new(Some((these, acts, rows))));
        (episodes, actions, out) = (rest, rest_acts, rest_rows);
    }
    let claims = Claims::new(shares.len());
    let counts = Mutex::new(Counts::default());
    team.run(&|me| {
        let mut mine = Counts::default();
        while let Some(b) = claims.next(me) {
            // Each share is claimed once; its lock is never contended.
            let claimed = shares[b].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some((these, acts, rows)) = claimed {
                mine += step_chunk(opts, these, acts, rows);
            }
        }
        // Adding cannot panic: a poisoned lock still holds the sum.
        *counts.lock().unwrap_or_else(|e| e.into_inner()) += mine;
    });
    counts.into_inner().unwrap_or_else(|e| e.into_inner())
}
