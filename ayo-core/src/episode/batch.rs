//! The batch step: every episode of a batch stepped with its action, in one
//! loop. The batched environment of the bindings is this loop; they only
//! write each game's rows.

use super::{Checked, Episode, EpisodeGame, EpisodeOptions, Step};
use crate::kernel::{self, Kernel};

/// Steps `episodes[i]` with `action(i)` for every `i`, in order, on the
/// [`kernel::active`] kernel; after each step `written(i, episode, step,
/// moves_before)` sees the episode and what the step did (`moves_before`:
/// the episode's moves before the step, to find this step's moves).
#[inline]
pub fn step_batch<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    action: impl FnMut(usize) -> Checked,
    written: impl FnMut(usize, &mut Episode<G>, &Step, usize),
) {
    step_batch_on(kernel::active(), opts, episodes, action, written);
}

/// [`step_batch`] on `kernel` (every kernel steps the same games alike).
#[inline]
pub fn step_batch_on<G: EpisodeGame>(
    kernel: Kernel,
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    mut action: impl FnMut(usize) -> Checked,
    mut written: impl FnMut(usize, &mut Episode<G>, &Step, usize),
) {
    // The episodes' scalar bookkeeping gains nothing from wider
    // instructions (the callgrind counts of docs/benchmarks.md): it is
    // compiled once, for the baseline.
    let _ = kernel;
    for (i, ep) in episodes.iter_mut().enumerate() {
        let before = ep.moves().len();
        let step = ep.step(opts, action(i));
        written(i, ep, &step, before);
    }
}
