//! Computer players: uniform random, greedy, alpha-beta and MCTS, the levels
//! built from them, and position analysis.
//!
//! Every player implements [`Agent`]: [`Agent::choose`] picks a move for the
//! current position of a [`Game`] (the game, not a lone position, so that
//! repetition can be seen), and [`Agent::analyze`] explains the choice: the
//! best move, its [`Value`] with its [`Basis`] (proven, a depth-limited
//! search, a bound or an estimate), the principal variation and the value of
//! every legal move.
//!
//! Players never implement a rule: they call the core's move generation
//! ([`crate::Position::children`]) and score ends with
//! [`crate::Position::final_outcome`].
//!
//! **Determinism.** A player built with the same kind, [`Budget`] and seed and
//! shown the same sequence of games makes the same choices. Depth and node
//! budgets are fully reproducible. With a wall-time budget the result depends
//! on how much work finished in time; for the work that did finish it is
//! still deterministic (alpha-beta returns the result of the last completed
//! iteration, MCTS that of the simulations completed).
//!
//! ```
//! use ayo_core::{players, Game, Rules};
//! let mut game = Game::new(Rules::preset("oware")?);
//! let mut ai = players::new_player(players::Kind::AlphaBeta, players::Budget::Depth(4), 7);
//! let mv = ai.choose(&game).unwrap();
//! assert!(game.is_legal(mv));
//! game.play(mv)?;
//! let level: players::Level = "3".parse()?;
//! let mut weak = level.player(1);
//! assert!(weak.choose(&game).is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::{Game, Move, Outcome, Player, Rules};

pub mod alphabeta;
mod basis;
pub mod eval;
pub mod greedy;
pub mod learned;
pub mod levels;
pub mod mcts;
pub mod network;
pub mod random;

pub use crate::budget::{Budget, BudgetError};
pub(crate) use crate::games::random_move::Rng;
pub(crate) use crate::memory::try_room;
pub use crate::memory::OutOfMemory;
pub use alphabeta::AlphaBeta;
pub use basis::{Basis, Bound, Limit, Proof};
pub use eval::Weights;
pub use greedy::Greedy;
pub use learned::Learned;
pub use levels::Level;
pub use mcts::Mcts;
pub use random::RandomPlayer;

/// A value from the point of view of the player to move: the seed difference
/// (own final seeds minus the opponent's), in hundredths of a seed.
///
/// A game end found by the search is worth [`Value::WIN`] (or `-WIN`) plus the
/// final seed difference, so any win ranks above any heuristic score;
/// [`Value::proven`] recovers the final difference. Whether the value is the
/// game's value is its [`Basis`]'s to say: a search cut off at a depth can
/// score a line as a game end that better play elsewhere would change.
///
/// ```
/// use ayo_core::players::Value;
/// let v = Value::from_final_difference(6);
/// assert_eq!(v.proven(), Some(6));
/// assert_eq!(v.seeds(), 6.0);
/// assert_eq!(v.to_string(), "win by 6");
/// let h = Value(250);
/// assert_eq!(h.proven(), None);
/// assert_eq!(h.to_string(), "+2.50");
/// assert!(Value::from_final_difference(1) > h);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub i32);

impl Value {
    /// Hundredths of a seed in one seed.
    pub const SEED: i32 = 100;
    /// The offset of a won (or, negated, a lost) game.
    pub const WIN: i32 = 1_000_000;

    /// The value of a finished game whose final seed difference is `diff`
    /// for the player to move.
    pub const fn from_final_difference(diff: i32) -> Value {
        if diff > 0 {
            Value(Value::WIN + diff * Value::SEED)
        } else if diff < 0 {
            Value(-Value::WIN + diff * Value::SEED)
        } else {
            Value(0)
        }
    }

    /// The value of `outcome` for `player`.
    pub fn of_outcome(outcome: &Outcome, player: Player) -> Value {
        let s = outcome.scores;
        let me = i32::from(s[player.index()]);
        let them = i32::from(s[player.opponent().index()]);
        Value::from_final_difference(me - them)
    }

    /// The final seed difference when the value is a game end (a win or a
    /// loss) found by the search; proven only when its [`Basis`] is
    /// ([`Value::proven_by`]).
    pub const fn proven(self) -> Option<i32> {
        if self.0 > Value::WIN / 2 {
            Some((self.0 - Value::WIN) / Value::SEED)
        } else if self.0 < -Value::WIN / 2 {
            Some((self.0 + Value::WIN) / Value::SEED)
        } else {
            None
        }
    }

    /// The seed difference (final for proven results, estimated otherwise).
    pub fn seeds(self) -> f64 {
        match self.proven() {
            Some(d) => f64::from(d),
            None => f64::from(self.0) / f64::from(Value::SEED),
        }
    }
}

impl std::ops::Neg for Value {
    type Output = Value;
    fn neg(self) -> Value {
        Value(-self.0)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.proven() {
            Some(d) if d > 0 => write!(f, "win by {d}"),
            Some(d) => write!(f, "loss by {}", -d),
            None => write!(f, "{:+.2}", self.seeds()),
        }
    }
}

/// One legal move and what the player thinks of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value for the player to move.
    pub value: Value,
    /// Where the value comes from: proven, a depth-limited search, a bound or an estimate.
    pub basis: Basis,
}

/// The analysis of a position by one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move the player would choose (`None` when the game is over).
    pub best: Option<Move>,
    /// The value of the position for the player to move (for an ended game,
    /// the final seed difference).
    pub value: Value,
    /// Where [`Analysis::value`] comes from ([`Basis::of_position`]).
    pub basis: Basis,
    /// The principal variation, starting with [`Analysis::best`].
    pub pv: Vec<Move>,
    /// Every legal move with its value, in ascending move order.
    pub moves: Vec<MoveValue>,
    /// Plies searched (alpha-beta: the last completed iteration; MCTS: the
    /// deepest tree path; greedy and random: 1).
    pub depth: u32,
    /// Nodes visited (alpha-beta) or simulations run (MCTS).
    pub nodes: u64,
}

impl Analysis {
    /// The analysis of a game that is over (no move, the final difference,
    /// proven; a game stopped at its ply cap: 0, not proven), or `None` while
    /// it goes on.
    pub fn of_ended(game: &Game) -> Option<Analysis> {
        if !game.legal_moves().is_empty() {
            return None;
        }
        let mover = game.position().to_move();
        // A game stopped at its ply cap has no value to prove: 0, unsearched.
        let (value, basis) = match game.outcome() {
            Some(o) => (
                Value::of_outcome(&o, mover),
                Basis::Proven(Proof::CompleteSearch),
            ),
            None => (Value(0), Basis::Search { depth: 0 }),
        };
        Some(Analysis {
            best: None,
            value,
            basis,
            pv: Vec::new(),
            moves: Vec::new(),
            depth: 0,
            nodes: 0,
        })
    }
}

/// A computer player. `Send`, so that it can live in another thread or behind
/// a foreign handle.
pub trait Agent: Send {
    /// A short description: kind and budget, e.g. `alphabeta(depth=6)`.
    fn name(&self) -> String;
    /// The move to play in the current position of `game`, or `None` when the
    /// game is over (or truncated). Always a legal move.
    fn choose(&mut self, game: &Game) -> Option<Move>;
    /// The analysis of the current position: the best move, its value, the
    /// principal variation and the value of every legal move. With a depth
    /// budget [`Analysis::best`] is the move [`Agent::choose`] plays; alpha-beta's
    /// analysis gives every root move a full window, so under a node or time
    /// budget it may complete fewer plies than `choose` and differ from it.
    fn analyze(&mut self, game: &Game) -> Analysis;
    /// Allocates what the next search in a game of `rules` needs (a
    /// transposition table, a tree), so that memory running out is this
    /// error, before the search, and never an abort during it. The bindings
    /// call it before every search; players that need little allocate nothing.
    fn prepare(&mut self, rules: &Rules) -> Result<(), OutOfMemory> {
        let _ = rules;
        Ok(())
    }
}

/// The kinds of player.
///
/// ```
/// use ayo_core::players::Kind;
/// assert_eq!("mcts".parse::<Kind>().unwrap(), Kind::Mcts);
/// assert_eq!(Kind::AlphaBeta.to_string(), "alphabeta");
/// assert!("minimax".parse::<Kind>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Uniformly random legal moves.
    Random,
    /// The best immediate seed gain.
    Greedy,
    /// Negamax alpha-beta with iterative deepening.
    AlphaBeta,
    /// Monte Carlo tree search (UCT).
    Mcts,
    /// A network trained by self-play inside the guided search
    /// ([`learned::Learned`]).
    Learned,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 5] = [
        Kind::Random,
        Kind::Greedy,
        Kind::AlphaBeta,
        Kind::Mcts,
        Kind::Learned,
    ];

    /// The kind's name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Random => "random",
            Kind::Greedy => "greedy",
            Kind::AlphaBeta => "alphabeta",
            Kind::Mcts => "mcts",
            Kind::Learned => "learned",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!("`{s}` is not a kind of player; expected random, greedy, alphabeta, mcts or learned")
            })
    }
}

/// A player of `kind` with `budget`, seeded by `seed`.
///
/// ```
/// use ayo_core::{players::{new_player, Budget, Kind}, Game, Rules};
/// let game = Game::new(Rules::preset("ayo")?);
/// for kind in Kind::ALL {
///     let mut p = new_player(kind, Budget::Nodes(2_000), 1);
///     assert!(game.is_legal(p.choose(&game).unwrap()), "{}", p.name());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn new_player(kind: Kind, budget: Budget, seed: u64) -> Box<dyn Agent> {
    match kind {
        Kind::Random => Box::new(RandomPlayer::new(seed)),
        Kind::Greedy => Box::new(Greedy::new(seed)),
        Kind::AlphaBeta => Box::new(AlphaBeta::new(budget, seed)),
        Kind::Mcts => Box::new(Mcts::new(budget, seed)),
        Kind::Learned => Box::new(Learned::new(None, budget, seed)),
    }
}

/// The one-ply view shared by the random and greedy players: every legal move
/// valued by the seed difference right after it (a search of depth 1), or
/// the final difference, proven, when it ends the game.
pub(crate) fn one_ply(game: &Game) -> Vec<MoveValue> {
    let pos = game.position();
    let rules = game.rules();
    let me = pos.to_move();
    let mut probe = game.clone();
    game.children()
        .iter()
        .map(|&(mv, child)| {
            let ended = Basis::Proven(Proof::CompleteSearch);
            let (value, basis) = match child.outcome(rules) {
                Some(o) => (Value::of_outcome(&o, me), ended),
                None => {
                    // Repetition needs the history: ask a game.
                    probe.play(mv).expect("a listed child is legal");
                    let v = match probe.outcome() {
                        Some(o) => (Value::of_outcome(&o, me), ended),
                        None => (
                            Value(child.margin(me) * Value::SEED),
                            Basis::Search { depth: 1 },
                        ),
                    };
                    probe.undo();
                    v
                }
            };
            MoveValue { mv, value, basis }
        })
        .collect()
}

/// The analysis built from one-ply values, with `best` the chosen move.
pub(crate) fn one_ply_analysis(game: &Game, moves: Vec<MoveValue>, best: Move) -> Analysis {
    let chosen = *moves
        .iter()
        .find(|m| m.mv == best)
        .expect("the chosen move is among the legal moves");
    Analysis {
        best: Some(best),
        value: chosen.value,
        basis: Basis::of_position(&moves, &chosen, 1),
        pv: vec![best],
        moves,
        depth: 1,
        nodes: game.children().len() as u64,
    }
}
