//! The batch step: every episode of a batch stepped with its action, in one
//! loop. The batched environment ([`super::VecEnv`]) runs this loop on
//! each thread's share of the games, writing each game's rows
//! ([`step_batch_rows`], `rows.rs`); the bindings only make the arrays.
//!
//! There are two paths ([`BatchPath`]): each episode in turn, and, for the
//! random opponent in single-lap games, 64 episodes at a time in byte lanes
//! (`lanes.rs`; the same episodes, draw for draw). The lanes sow and check
//! for ends cheaply, but each episode's bookkeeping (its game, window,
//! record and stream) is still read and written one episode at a time, so
//! they pay only with 64-byte vectors: they are built for the AVX-512
//! kernel alone, and [`step_batch`] takes them with it (the measurements:
//! docs/benchmarks.md, "The batch step in lanes").

use std::cell::Cell;

use super::rows::DONE;
use super::rows::{BatchOut, Counts, Rows, RowsError, RowsOut};
use super::{
    action_in_range, check_action, shows_legal, Autoreset, Checked, Episode, EpisodeGame,
    EpisodeOptions,
};
#[cfg(any(test, feature = "testing"))]
use super::{rows::Written, Step};
use crate::kernels::dispatch::{self as kernel, Kernel, Loop};

/// How a batch is stepped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchPath {
    /// Each episode in turn ([`Episode::step`]).
    Scalar,
    /// In byte lanes where the options allow it (the random opponent,
    /// single laps) and the lanes are built for the kernel
    /// ([`Kernel::wide`]: `avx512`), compiled for it; elsewhere as
    /// [`BatchPath::Scalar`].
    Lanes(Kernel),
}

impl BatchPath {
    /// The path [`step_batch`] takes with `kernel`: the lanes with 64-byte
    /// vectors (AVX-512), each episode in turn otherwise.
    pub fn for_kernel(kernel: Kernel) -> BatchPath {
        if kernel.vector_bytes() >= 64 {
            BatchPath::Lanes(kernel)
        } else {
            BatchPath::Scalar
        }
    }
}

/// Steps `episodes[i]` with `action(i)` for every `i`; after each step
/// `written(i, episode, step, moves_before)` sees the episode and what the
/// step did (`moves_before`: the episode's moves before the step, to find
/// this step's moves). On [`BatchPath::for_kernel`] of the active kernel
/// ([`kernel::active`]).
#[cfg(any(test, feature = "testing"))]
#[inline]
pub fn step_batch<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    action: impl FnMut(usize) -> Checked,
    written: impl FnMut(usize, &mut Episode<G>, &Step, usize),
) {
    let path = BatchPath::for_kernel(kernel::active());
    step_batch_on(path, opts, episodes, action, written);
}

/// [`step_batch`] on `path`: the same episodes and steps on either path;
/// `action` is asked, and `written` called, in the order of the episodes.
#[cfg(any(test, feature = "testing"))]
#[inline]
pub fn step_batch_on<G: EpisodeGame>(
    path: BatchPath,
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    action: impl FnMut(usize) -> Checked,
    written: impl FnMut(usize, &mut Episode<G>, &Step, usize),
) {
    step_into(path, opts, episodes, action, &mut Written(written));
}

/// Steps `episodes[i]` with `actions[i]` for every `i` and writes each
/// game's rows (`rows` as long as the episodes), the rows of news cleared
/// first; what happened, counted. Each action is checked against the
/// game's status row ([`check_action`] on its legal bits) and penalized
/// where it is illegal: the caller has checked the batch from that row
/// first (refusing what the options refuse), and a game that is over
/// ignores its action. In lanes where the active kernel has 64-byte vectors.
/// An error, and nothing stepped or written, when the actions or the rows
/// are not one a game.
#[inline]
pub fn step_batch_rows<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    rows: &mut Rows<'_>,
) -> Result<Counts, RowsError> {
    let path = BatchPath::for_kernel(kernel::active());
    step_batch_rows_on(path, opts, episodes, actions, rows)
}

/// [`step_batch_rows`] on `path`: the same episodes and rows on either path.
#[inline]
pub fn step_batch_rows_on<G: EpisodeGame>(
    path: BatchPath,
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    actions: &[i64],
    rows: &mut Rows<'_>,
) -> Result<Counts, RowsError> {
    let games = episodes.len();
    if actions.len() != games {
        return Err(RowsError::Actions {
            games,
            actions: actions.len(),
        });
    }
    rows.check(games)?;
    rows.clear_news();
    let penalize = opts.illegal.penalty().is_some();
    let status_row = std::mem::take(&mut rows.status);
    let status = Cell::from_mut(&mut *status_row).as_slice_of_cells();
    let mut out = RowsOut {
        opts,
        rows,
        status,
        counts: Counts::default(),
    };
    let action = |i: usize| {
        let a = actions[i];
        check_action(status[i].get(), a, penalize).unwrap_or(Checked::Penalized(a))
    };
    step_into(path, opts, episodes, action, &mut out);
    let counts = out.counts;
    rows.status = status_row;
    Ok(counts)
}

/// The first game whose action [`step_batch_rows`] must refuse, read from
/// the games' status rows (as [`check_action`] and the options say): an
/// action outside 0..=5, an illegal one unless the options penalize it,
/// any action of a game that is over when autoreset is disabled. `None`
/// when every action goes (games past the shorter slice are not read).
/// The caller checks a batch with it before stepping any of it, so that a
/// refused batch changes nothing; then asks the game why
/// ([`Episode::why_illegal`]). One pass without a branch a game, for the
/// active kernel: the check is on the step's serial path when the step
/// runs on several threads.
pub fn first_refused(opts: &EpisodeOptions, status: &[u8], actions: &[i64]) -> Option<usize> {
    first_refused_on(kernel::active(), opts, status, actions)
}

/// [`first_refused`] run by `kernel` (every kernel finds the same game).
pub fn first_refused_on(
    kernel: Kernel,
    opts: &EpisodeOptions,
    status: &[u8],
    actions: &[i64],
) -> Option<usize> {
    kernel.run(FirstRefused {
        penalize: opts.illegal.penalty().is_some(),
        over_refused: opts.autoreset == Autoreset::Disabled,
        status,
        actions,
    })
}

/// [`first_refused`]'s arguments, for [`Kernel::run`].
struct FirstRefused<'a> {
    penalize: bool,
    over_refused: bool,
    status: &'a [u8],
    actions: &'a [i64],
}

impl FirstRefused<'_> {
    /// Whether game `st`'s action `a` is refused (see [`first_refused`]),
    /// without a branch.
    #[inline(always)]
    fn refused(&self, st: u8, a: i64) -> bool {
        let over = st & DONE != 0;
        // `check_action`'s tests, joined without a branch.
        let goes = action_in_range(a) & (shows_legal(st, a) | self.penalize);
        (over & self.over_refused) | (!over & !goes)
    }
}

impl Loop for FirstRefused<'_> {
    type Output = Option<usize>;

    #[inline(always)]
    fn run(self) -> Option<usize> {
        // Runs of 64 games ORed whole (a loop that vectorises); the games of
        // a run with a refusal looked at one by one.
        const RUN: usize = 64;
        let pairs = self.status.chunks(RUN).zip(self.actions.chunks(RUN));
        for (r, (st, acts)) in pairs.enumerate() {
            let any = st
                .iter()
                .zip(acts)
                .fold(false, |any, (&s, &a)| any | self.refused(s, a));
            if any {
                let at = st.iter().zip(acts).position(|(&s, &a)| self.refused(s, a));
                return at.map(|i| r * RUN + i);
            }
        }
        None
    }
}

/// The batch step on `path`, each step written to `out` (the stateless
/// step's too: its records unpacked into episodes).
#[inline(always)]
pub(super) fn step_into<G: EpisodeGame, O: BatchOut<G>>(
    path: BatchPath,
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    mut action: impl FnMut(usize) -> Checked,
    out: &mut O,
) {
    if let BatchPath::Lanes(kernel) = path {
        if G::step_batch_in_lanes(kernel, opts, episodes, &mut action, out) {
            return;
        }
    }
    for (i, ep) in episodes.iter_mut().enumerate() {
        let before = ep.moves().len();
        let step = ep.step(opts, action(i));
        out.step(i, ep, &step, before);
    }
}
