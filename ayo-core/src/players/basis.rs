//! [`Basis`]: where a reported value comes from, and so what it is known to be.

use std::fmt;

use super::{MoveValue, Value};

/// What proved a [`Basis::Proven`] value (or a proven [`Basis::Bound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// Read from the endgame databases.
    Database,
    /// A search whose every line reached a game end (or a database board):
    /// no line was cut off by depth or budget. A game that is over is its own
    /// complete search.
    CompleteSearch,
}

impl Proof {
    /// A short name: `database` or `complete search`.
    pub const fn name(self) -> &'static str {
        match self {
            Proof::Database => "database",
            Proof::CompleteSearch => "complete search",
        }
    }
}

/// The side of the true value a [`Basis::Bound`] is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The true value is at least the reported one.
    AtLeast,
    /// The true value is at most the reported one.
    AtMost,
}

/// Where a reported value comes from, and so what it is known to
/// be. A value is [`Basis::Proven`] only when the databases or a complete
/// search (every line it rests on reached a game end) prove it; a search cut
/// off at a depth or by its budget says so ([`Basis::Search`]), a search
/// window gives a [`Basis::Bound`], a value that rests on how endless play is
/// scored is [`Basis::Convention`], and MCTS gives an [`Basis::Estimate`].
///
/// The basis is decided where it is known: alpha-beta marks a value proven
/// only when no line under it stopped at the horizon (nor reused a table entry
/// that did), and the `perfect` level marks its database and exact-search
/// values proven unless they depend on the convention for endless play.
///
/// ```
/// use ayo_core::players::{Basis, Bound, Limit, Proof};
/// assert_eq!(Basis::Search { depth: 13 }.to_string(), "search, depth 13");
/// assert_eq!(Basis::Proven(Proof::Database).to_string(), "proven by the databases");
/// assert!(!Basis::Search { depth: 13 }.is_proven());
/// assert!(!Basis::Convention.is_proven());
/// assert_eq!(Basis::Convention.to_string(), "by the convention for endless play");
/// let at_most = Basis::Bound { limit: Limit::AtMost, depth: 6, proven: false };
/// assert_eq!(at_most.bound(), Bound::Upper);
/// assert_eq!(at_most.to_string(), "at most, search depth 6");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Basis {
    /// The game's value with best play by both sides, proven.
    Proven(Proof),
    /// The value of a search cut off at `depth` plies, with the evaluation's
    /// estimates at its horizon: not a proof.
    Search {
        /// Plies searched.
        depth: u32,
    },
    /// A bound from a search of `depth` plies. With `proven` the bound holds
    /// for the game's value (every line it rests on reached a game end);
    /// otherwise for the value the search would give to its depth (a move
    /// refuted by a null window).
    Bound {
        /// Which side of the true value the reported one is on.
        limit: Limit,
        /// Plies searched.
        depth: u32,
        /// The bound holds for the game's value.
        proven: bool,
    },
    /// The value under the convention for play that never ends (each
    /// player takes the seeds on their own side), not proven: it rests on a
    /// database board or a searched line whose value depends on how endless
    /// play is scored (the `perfect` level over board-only databases).
    Convention,
    /// A statistical estimate: the mean final seed difference of MCTS
    /// simulations.
    Estimate {
        /// Simulations run.
        simulations: u64,
    },
}

/// What a value is as a number, whatever proves it: the search's value
/// itself ([`Bound::Exact`]: not a bound, which need not be the game's
/// value, see [`Basis`]), a bound from a window, or an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value itself, not a bound: the game's value when [`Basis::Proven`],
    /// the value of a depth-limited search when [`Basis::Search`], the value
    /// under the convention for endless play when [`Basis::Convention`].
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this (a move refuted by a null window).
    Upper,
    /// A statistical estimate (MCTS: the mean final seed difference of its simulations).
    Estimate,
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
            Bound::Estimate => "estimate",
        })
    }
}

impl Basis {
    /// The value is the game's value, proven.
    pub const fn is_proven(self) -> bool {
        matches!(self, Basis::Proven(_))
    }

    /// What the value is as a number (see [`Bound`]).
    pub const fn bound(self) -> Bound {
        match self {
            Basis::Proven(_) | Basis::Search { .. } | Basis::Convention => Bound::Exact,
            Basis::Bound {
                limit: Limit::AtLeast,
                ..
            } => Bound::Lower,
            Basis::Bound {
                limit: Limit::AtMost,
                ..
            } => Bound::Upper,
            Basis::Estimate { .. } => Bound::Estimate,
        }
    }

    /// A short name: `proven`, `search`, `lower`, `upper`, `convention` or
    /// `estimate`.
    pub const fn name(self) -> &'static str {
        match self {
            Basis::Proven(_) => "proven",
            Basis::Search { .. } => "search",
            Basis::Bound {
                limit: Limit::AtLeast,
                ..
            } => "lower",
            Basis::Bound {
                limit: Limit::AtMost,
                ..
            } => "upper",
            Basis::Convention => "convention",
            Basis::Estimate { .. } => "estimate",
        }
    }

    /// What proved the value or the bound, if anything did (a proven bound
    /// rests on a complete search).
    pub const fn proof(self) -> Option<Proof> {
        match self {
            Basis::Proven(p) => Some(p),
            Basis::Bound { proven: true, .. } => Some(Proof::CompleteSearch),
            _ => None,
        }
    }

    /// The depth of the search the value comes from, when it was cut off
    /// (a [`Basis::Search`] or an unproven [`Basis::Bound`]).
    pub const fn search_depth(self) -> Option<u32> {
        match self {
            Basis::Search { depth }
            | Basis::Bound {
                depth,
                proven: false,
                ..
            } => Some(depth),
            _ => None,
        }
    }

    /// The basis of a position's value, the value of the `chosen` move, given
    /// every legal move's value and basis (a search `depth` plies deep).
    ///
    /// Proven when the chosen move's value is proven and no move can be worth
    /// more (each is proven, or proven to be at most the chosen value); a
    /// proven lower bound when only the chosen move's value is proven (an
    /// unproven move might be worth more); otherwise the chosen move's own
    /// basis.
    pub fn of_position(moves: &[MoveValue], chosen: &MoveValue, depth: u32) -> Basis {
        let Some(proof) = chosen.basis.proof() else {
            return match chosen.basis {
                Basis::Search { .. } => Basis::Search { depth },
                other => other,
            };
        };
        let none_better = |m: &MoveValue| match m.basis {
            Basis::Proven(_) => m.value <= chosen.value,
            Basis::Bound {
                limit: Limit::AtMost,
                proven: true,
                ..
            } => m.value <= chosen.value,
            _ => false,
        };
        match chosen.basis {
            Basis::Proven(_) if moves.iter().all(none_better) => Basis::Proven(proof),
            _ => Basis::Bound {
                limit: Limit::AtLeast,
                depth,
                proven: true,
            },
        }
    }

    /// The basis of a value a search found `complete` (no line cut off) or
    /// not, to `depth` plies, searched with a full window or `refuted` by a
    /// null window (then an upper bound).
    pub(crate) fn of_search(complete: bool, depth: u32, refuted: bool) -> Basis {
        match (refuted, complete) {
            (false, true) => Basis::Proven(Proof::CompleteSearch),
            (false, false) => Basis::Search { depth },
            (true, proven) => Basis::Bound {
                limit: Limit::AtMost,
                depth,
                proven,
            },
        }
    }
}

impl fmt::Display for Basis {
    /// The basis in words: `proven by the databases`, `proven by a complete
    /// search`, `search, depth 13`, `at least, proven`, `at most, search
    /// depth 6`, `by the convention for endless play`, `estimate, 400
    /// simulations`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |limit: &Limit| match limit {
            Limit::AtLeast => "at least",
            Limit::AtMost => "at most",
        };
        match self {
            Basis::Proven(Proof::Database) => f.write_str("proven by the databases"),
            Basis::Proven(Proof::CompleteSearch) => f.write_str("proven by a complete search"),
            Basis::Search { depth } => write!(f, "search, depth {depth}"),
            Basis::Bound {
                limit,
                proven: true,
                ..
            } => write!(f, "{}, proven", side(limit)),
            Basis::Bound { limit, depth, .. } => {
                write!(f, "{}, search depth {depth}", side(limit))
            }
            Basis::Convention => f.write_str("by the convention for endless play"),
            Basis::Estimate { simulations } => write!(f, "estimate, {simulations} simulations"),
        }
    }
}

impl Value {
    /// The final seed difference when `basis` proves the value (a proven
    /// draw is 0): `None` for a value that is not [`Basis::Proven`], even one
    /// that a cut-off search scored as a game end ([`Value::proven`]).
    pub fn proven_by(self, basis: Basis) -> Option<i32> {
        if !basis.is_proven() {
            return None;
        }
        Some(self.proven().unwrap_or(self.0 / Value::SEED))
    }
}
