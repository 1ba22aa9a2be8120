//! The ask-and-tell loop with the network a closure: what
//! [`super::GuidedSearch::run`] and [`super::SelfPlay::run`] both drive.

use super::{SearchError, ACTIONS};

/// The network's answers to a round, kept between rounds so that a search
/// allocates them once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Answers {
    pub(crate) logits: Vec<f32>,
    pub(crate) values: Vec<f32>,
}

/// A search asked and told round after round.
pub(crate) trait Rounds {
    /// The leaves of the next round (0 when done).
    fn ask_round(&mut self) -> Result<usize, SearchError>;
    /// The round's leaves: observations and masks, a row a leaf.
    fn leaves(&self) -> (&[f32], &[bool]);
    /// Where the answers are kept between rounds.
    fn answers(&mut self) -> &mut Answers;
    /// The network's answers to the round.
    fn tell_round(&mut self, logits: &[f32], values: &[f32]) -> Result<(), SearchError>;
}

/// Asks and tells until no leaf is left, `evaluate(obs, mask, logits,
/// values)` filling a row of six logits and a value for each leaf.
pub(crate) fn run_rounds(
    search: &mut impl Rounds,
    mut evaluate: impl FnMut(&[f32], &[bool], &mut [f32], &mut [f32]),
) -> Result<(), SearchError> {
    loop {
        let n = search.ask_round()?;
        if n == 0 {
            return Ok(());
        }
        let mut a = std::mem::take(search.answers());
        a.logits.clear();
        a.logits.resize(n * ACTIONS, 0.0);
        a.values.clear();
        a.values.resize(n, 0.0);
        let (obs, mask) = search.leaves();
        evaluate(obs, mask, &mut a.logits, &mut a.values);
        let told = search.tell_round(&a.logits, &a.values);
        *search.answers() = a;
        told?;
    }
}
