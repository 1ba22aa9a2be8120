//! Batched tree search with a network in the loop: AlphaZero's PUCT or
//! Gumbel root selection with sequential halving (Danihelka et al. 2022, as
//! mctx's `gumbel_muzero_policy`), over many games at once, asked and told.
//!
//! [`GuidedSearch::start`] takes a batch of games (each a [`LeanGame`], so
//! that repetition sees the positions before the search's root). Then, round
//! after round, [`GuidedSearch::ask`] hands out at most **one leaf per tree**
//! (no virtual loss: a tree waits for its leaf's value before it selects
//! again, so each tree's search is the sequential algorithm's) as rows of
//! observations and legal masks ([`GuidedSearch::leaves`]); the caller's
//! network answers with six logits and one value a row
//! ([`GuidedSearch::tell`]); the values are backed up and the next round
//! begins. When `ask` hands out no leaf, every tree has run its simulations
//! and [`GuidedSearch::results`] gives each game's chosen action, policy
//! target and root value.
//!
//! **The observation** of a leaf is the environments' (`episode`): the 14
//! seeds of [`crate::Position::view`] for the player to move (their six
//! pits in sowing order, the opponent's six, their store, the opponent's
//! store) as float32, written by [`crate::episode::write_view`]; its mask the
//! legal actions 0..=5 of that player, as bools ([`crate::episode::MASK_BOOL`]).
//! A network trained on the environments' observations (mover perspective)
//! reads them unchanged.
//!
//! **Values** are in `[-1, 1]` from the point of view of the player to move
//! at the leaf. A game end inside the tree is never sent to the network: it
//! is scored exactly from the core's outcome ([`crate::Position::final_outcome`]),
//! as 1, 0 or -1 ([`Values::Outcome`]) or as the final seed difference over
//! the seeds of the game ([`Values::SeedDifference`]).
//!
//! Every rule (legal moves, the moves played, the ends by target, move
//! limit, repetition and lack of moves, the final scores) is the core's:
//! the search asks [`crate::Position::legal_actions`] when it reaches a
//! position, [`crate::Position::play_unchecked`] when a simulation first
//! takes a move, and the core's end check.

mod noise;
mod rounds;
mod select;
mod self_play;
#[cfg(test)]
mod tests;
mod tree;

use crate::budget::{Budget, BudgetError};
use crate::memory::OutOfMemory;
use crate::LeanGame;

pub use self_play::{SelfPlay, SelfPlayData, SelfPlayOptions};
pub use tree::{GuidedSearch, Leaves};

/// Features of one observation (12 pits, 2 stores), as the environments'.
pub const OBS: usize = crate::observation::OBS;
/// Actions per move.
pub const ACTIONS: usize = crate::observation::ACTIONS;
/// The most games one search takes.
pub const MAX_BATCH: usize = 1 << 20;
/// The most tree nodes a search may hold, all trees together, counted as
/// [`SearchOptions::nodes_per_tree`] counts them: a tree of `s`
/// simulations reaches at most `s + 1` positions, each with at most six
/// moves, `6 (s + 1) + 1` in all (a reached position and its moves take
/// 192 bytes).
pub const MAX_NODES: u64 = 1 << 27;

/// How the search selects its moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// AlphaZero's PUCT, with Dirichlet noise at the root and the move drawn
    /// by visit counts at a temperature.
    Puct(Puct),
    /// Gumbel root selection with sequential halving and the improved
    /// policy inside the tree (mctx's `gumbel_muzero_policy`).
    Gumbel(Gumbel),
}

/// PUCT's parameters (AlphaZero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// The exploration constant: a child's score is
    /// `Q + c_puct · P · √N / (1 + n)` (`Q` 0 for an unvisited child).
    pub c_puct: f32,
    /// The Dirichlet noise's concentration.
    pub dirichlet_alpha: f32,
    /// The share of noise in the root's priors (0: none).
    pub dirichlet_fraction: f32,
    /// The chosen move is drawn with probability `n^(1/T)`; 0 takes the most
    /// visited (ties: the higher prior, then the lower action).
    pub temperature: f32,
}

impl Default for Puct {
    /// c_puct 1.25, alpha 0.3, fraction 0.25, temperature 1.
    fn default() -> Puct {
        Puct {
            c_puct: 1.25,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.25,
            temperature: 1.0,
        }
    }
}

/// Gumbel search's parameters (mctx's defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gumbel {
    /// The actions sampled at the root (Gumbel-top-k), 1..=6.
    pub max_considered: u8,
    /// The scale of the root's Gumbel noise (0: none, a deterministic search).
    pub gumbel_scale: f32,
    /// `c_visit` of the completed Q-values' transform.
    pub c_visit: f32,
    /// `c_scale` of the completed Q-values' transform.
    pub c_scale: f32,
}

impl Default for Gumbel {
    /// All six actions considered, scale 1, c_visit 50, c_scale 0.1.
    fn default() -> Gumbel {
        Gumbel {
            max_considered: 6,
            gumbel_scale: 1.0,
            c_visit: 50.0,
            c_scale: 0.1,
        }
    }
}

/// What a game end inside the tree is worth (the network's values should
/// follow the same convention).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Values {
    /// 1 for a win, 0 for a draw, -1 for a loss, for the player to move.
    #[default]
    Outcome,
    /// The final seed difference (own minus the opponent's) over the seeds
    /// of the game (`12 × seeds_per_pit`), for the player to move.
    SeedDifference,
}

/// The options of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchOptions {
    /// Simulations a tree runs after its root is evaluated, 1 to
    /// [`Budget::MAX_NODES`] (checked as a node budget).
    pub simulations: u64,
    /// PUCT or Gumbel.
    pub selection: Selection,
    /// The value of game ends.
    pub values: Values,
    /// The seed of the noise and of the temperature draws.
    pub seed: u64,
}

impl SearchOptions {
    /// `simulations` of PUCT with its defaults, values by outcome, seed 0.
    pub fn new(simulations: u64) -> SearchOptions {
        SearchOptions {
            simulations,
            selection: Selection::Puct(Puct::default()),
            values: Values::Outcome,
            seed: 0,
        }
    }

    /// Checks every option: the simulations as a node budget
    /// ([`Budget::checked_nodes`]), every parameter finite and in range.
    pub fn check(&self) -> Result<(), SearchError> {
        Budget::checked_nodes(i128::from(self.simulations))?;
        let bad = |name: &'static str, range: &'static str, value: f64| {
            Err(SearchError::Option { name, range, value })
        };
        match self.selection {
            Selection::Puct(p) => {
                if !(p.c_puct.is_finite() && p.c_puct >= 0.0) {
                    return bad("c_puct", "finite and at least 0", p.c_puct.into());
                }
                if !(p.dirichlet_alpha.is_finite() && p.dirichlet_alpha > 0.0) {
                    return bad(
                        "dirichlet_alpha",
                        "finite and more than 0",
                        p.dirichlet_alpha.into(),
                    );
                }
                if !(0.0..=1.0).contains(&p.dirichlet_fraction) {
                    return bad("dirichlet_fraction", "0 to 1", p.dirichlet_fraction.into());
                }
                if !(p.temperature.is_finite() && p.temperature >= 0.0) {
                    return bad("temperature", "finite and at least 0", p.temperature.into());
                }
            }
            Selection::Gumbel(g) => {
                if !(1..=6).contains(&g.max_considered) {
                    return bad("max_considered", "1 to 6", g.max_considered.into());
                }
                if !(g.gumbel_scale.is_finite() && g.gumbel_scale >= 0.0) {
                    return bad(
                        "gumbel_scale",
                        "finite and at least 0",
                        g.gumbel_scale.into(),
                    );
                }
                if !(g.c_visit.is_finite() && g.c_visit >= 0.0) {
                    return bad("c_visit", "finite and at least 0", g.c_visit.into());
                }
                if !(g.c_scale.is_finite() && g.c_scale >= 0.0) {
                    return bad("c_scale", "finite and at least 0", g.c_scale.into());
                }
            }
        }
        Ok(())
    }

    /// The most nodes a tree can hold, its moves counted: the root, and six
    /// moves for the root's evaluation and for each simulation.
    pub fn nodes_per_tree(&self) -> u64 {
        self.simulations.saturating_add(1).saturating_mul(6) + 1
    }

    /// Checks that a batch of `games` can be searched: 1 to [`MAX_BATCH`]
    /// games, at most [`MAX_NODES`] nodes in all.
    pub fn check_batch(&self, games: usize) -> Result<(), SearchError> {
        if games == 0 || games > MAX_BATCH {
            return Err(SearchError::Batch(games));
        }
        let nodes = self.nodes_per_tree().saturating_mul(games as u64);
        if nodes > MAX_NODES {
            return Err(SearchError::TooLarge {
                games,
                simulations: self.simulations,
                nodes,
            });
        }
        Ok(())
    }
}

/// Why a search cannot be made, started or told.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// The simulations are not a valid node budget.
    #[error("simulations: {0}")]
    Budget(#[from] BudgetError),
    /// An option out of its range.
    #[error("{name} must be {range}, not {value}")]
    Option {
        /// The option.
        name: &'static str,
        /// What it may be.
        range: &'static str,
        /// What it was.
        value: f64,
    },
    /// A batch of no games, or of more than [`MAX_BATCH`].
    #[error("a search takes 1 to {MAX_BATCH} games, not {0}")]
    Batch(usize),
    /// More tree nodes than [`MAX_NODES`].
    #[error(
        "{games} games of {simulations} simulations may need {nodes} tree nodes, \
         more than the {MAX_NODES} a search holds"
    )]
    TooLarge {
        /// The games.
        games: usize,
        /// The simulations.
        simulations: u64,
        /// The nodes they may need.
        nodes: u64,
    },
    /// The trees' memory could not be had.
    #[error(transparent)]
    OutOfMemory(#[from] OutOfMemory),
    /// A game of the batch is over: it has no move to search.
    #[error("game {0} of the batch is over: there is no move to search")]
    GameOver(usize),
    /// `tell` with no leaves handed out.
    #[error("no leaves await values: ask for them first")]
    NotAsked,
    /// `tell` with arrays of the wrong size.
    #[error("{what}: expected {expected} numbers ({leaves} leaves), got {got}")]
    Shape {
        /// The array.
        what: &'static str,
        /// Its expected length.
        expected: usize,
        /// The leaves handed out.
        leaves: usize,
        /// Its length.
        got: usize,
    },
    /// A value that is not a finite number in `[-1, 1]`, or a legal action's
    /// logit that is not finite.
    #[error("{what} of leaf {leaf} must be {range}, not {value}")]
    BadNumber {
        /// "the value" or "the logit of action a".
        what: String,
        /// The leaf's row.
        leaf: usize,
        /// What it may be.
        range: &'static str,
        /// What it was.
        value: f64,
    },
    /// Results asked for before the search is done.
    #[error("the search is not done: ask and tell until no leaf is handed out")]
    NotDone,
}

/// What a search found for one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult {
    /// The chosen action (mover-relative, 0..=5).
    pub action: u8,
    /// The policy target over the six actions (0 for illegal ones; sums to 1):
    /// the root's visit counts (PUCT), or `softmax(logits + σ(completed Q))`
    /// (Gumbel).
    pub policy: [f32; ACTIONS],
    /// The root's value for the player to move: the mean of its backed-up
    /// values.
    pub value: f32,
    /// Each action's visits at the root.
    pub visits: [u32; ACTIONS],
    /// Each action's mean backed-up value for the root's player to move
    /// (0 for an action not visited or not legal).
    pub q: [f32; ACTIONS],
}

/// The value of a game end for `player` under `values`.
pub(crate) fn end_value(
    values: Values,
    rules: &crate::Rules,
    outcome: &crate::Outcome,
    player: crate::Player,
) -> f32 {
    let s = outcome.scores;
    let d = i32::from(s[player.index()]) - i32::from(s[player.opponent().index()]);
    match values {
        Values::Outcome => d.signum() as f32,
        Values::SeedDifference => d as f32 / (12.0 * f32::from(rules.seeds_per_pit())),
    }
}

/// The games of a batch, checked: none over.
pub(crate) fn check_games(games: &mut [LeanGame]) -> Result<(), SearchError> {
    for (i, g) in games.iter_mut().enumerate() {
        if g.outcome().is_some() {
            return Err(SearchError::GameOver(i));
        }
    }
    Ok(())
}
