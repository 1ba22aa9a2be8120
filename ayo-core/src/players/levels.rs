//! The levels 1..=8 and `max`: each a fixed (player, budget) pair, ordered by
//! strength (measured in `docs/strength.md` with `examples/arena.rs`).

use std::fmt;
use std::str::FromStr;

use super::{Agent, Budget, Kind};

/// A playing level: `1`..=`8` or `max`.
///
/// | level | player | budget |
/// |---|---|---|
/// | 1 | random | – |
/// | 2 | greedy | – |
/// | 3 | alpha-beta | depth 2 |
/// | 4 | alpha-beta | depth 4 |
/// | 5 | alpha-beta | depth 6 |
/// | 6 | alpha-beta | 3 000 nodes |
/// | 7 | alpha-beta | 10 000 nodes |
/// | 8 | alpha-beta | 30 000 nodes |
/// | max | alpha-beta | 300 000 nodes |
///
/// Node budgets (not wall time) keep every level reproducible and its games
/// the same on every machine.
///
/// ```
/// use ayo_core::players::{Budget, Kind, Level};
/// let l: Level = "max".parse().unwrap();
/// assert_eq!(l, Level::MAX);
/// assert_eq!(l.to_string(), "max");
/// assert_eq!("4".parse::<Level>().unwrap().spec(), (Kind::AlphaBeta, Budget::Depth(4)));
/// assert!("9".parse::<Level>().is_err());
/// assert_eq!(Level::ALL.len(), 9);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// The strongest level.
    pub const MAX: Level = Level(9);
    /// Every level, weakest first.
    pub const ALL: [Level; 9] = [
        Level(1),
        Level(2),
        Level(3),
        Level(4),
        Level(5),
        Level(6),
        Level(7),
        Level(8),
        Level(9),
    ];

    /// Level `n` (1..=8), or `max` for 9; `None` otherwise.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 9 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level's number (`max` is 9).
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The player kind and budget of the level.
    pub const fn spec(self) -> (Kind, Budget) {
        match self.0 {
            1 => (Kind::Random, Budget::Depth(1)),
            2 => (Kind::Greedy, Budget::Depth(1)),
            3 => (Kind::AlphaBeta, Budget::Depth(2)),
            4 => (Kind::AlphaBeta, Budget::Depth(4)),
            5 => (Kind::AlphaBeta, Budget::Depth(6)),
            6 => (Kind::AlphaBeta, Budget::Nodes(3_000)),
            7 => (Kind::AlphaBeta, Budget::Nodes(10_000)),
            8 => (Kind::AlphaBeta, Budget::Nodes(30_000)),
            _ => (Kind::AlphaBeta, Budget::Nodes(300_000)),
        }
    }

    /// A new player of this level, seeded by `seed`.
    pub fn player(self, seed: u64) -> Box<dyn Agent> {
        let (kind, budget) = self.spec();
        super::new_player(kind, budget, seed)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Level::MAX {
            f.write_str("max")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl FromStr for Level {
    type Err = String;
    /// `1`..=`8` or `max`.
    fn from_str(s: &str) -> Result<Level, String> {
        if s.eq_ignore_ascii_case("max") {
            return Ok(Level::MAX);
        }
        s.parse::<u8>()
            .ok()
            .filter(|n| (1..=8).contains(n))
            .map(Level)
            .ok_or_else(|| format!("`{s}` is not a level; expected 1 to 8 or max"))
    }
}

/// The one-line description of a level, e.g. `4: alphabeta(depth=4)`.
pub fn describe(level: Level) -> String {
    let (kind, budget) = level.spec();
    match kind {
        Kind::Random | Kind::Greedy => format!("{level}: {kind}"),
        _ => format!("{level}: {kind}({budget})"),
    }
}
