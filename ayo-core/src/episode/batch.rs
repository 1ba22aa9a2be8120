//! The batch step: every episode of a batch stepped with its action, in one
//! loop. The batched environment of the bindings is this loop; they only
//! write each game's rows.
//!
//! It runs for the baseline instruction set: an episode's step is scalar
//! bookkeeping that wider instructions do not shorten, and the lane engine
//! ([`crate::lanes`]) costs more a move than the scalar sowing once the
//! positions are moved into lanes and back (docs/benchmarks.md has the
//! instruction counts of both).

use super::{Checked, Episode, EpisodeGame, EpisodeOptions, Step};

/// Steps `episodes[i]` with `action(i)` for every `i`, in order; after each
/// step `written(i, episode, step, moves_before)` sees the episode and what
/// the step did (`moves_before`: the episode's moves before the step, to
/// find this step's moves).
#[inline]
pub fn step_batch<G: EpisodeGame>(
    opts: &EpisodeOptions,
    episodes: &mut [Episode<G>],
    mut action: impl FnMut(usize) -> Checked,
    mut written: impl FnMut(usize, &mut Episode<G>, &Step, usize),
) {
    for (i, ep) in episodes.iter_mut().enumerate() {
        let before = ep.moves().len();
        let step = ep.step(opts, action(i));
        written(i, ep, &step, before);
    }
}
