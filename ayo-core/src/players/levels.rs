//! The levels 1..=8 and `max`: each a fixed (player, budget) pair, ordered by
//! strength (measured in `docs/strength.md` with `examples/arena.rs`). Games
//! with collect-on-4 captures (the `ayo` preset) have their own table: there
//! alpha-beta gains little from more nodes, so the standard table's upper
//! levels hardly separate, and the ladder is built lower down instead.

use std::fmt;
use std::str::FromStr;

use super::{Agent, Analysis, Budget, Kind, OutOfMemory};
use crate::{Capture, Game, Move, Rules};

/// A playing level: `1`..=`8` or `max`. The standard table ([`Level::spec`]):
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
/// In games with collect-on-4 captures (`ayo`) the levels are
/// [`Level::collect_four_spec`]: random; MCTS with 2, 5, 12 and 40
/// simulations; alpha-beta at depth 2 and 4; 3 000 and 300 000 nodes.
/// [`Level::spec_for`] picks the table for a rule set, and [`Level::player`]
/// does so for each game it is asked about.
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
    /// The strongest level of the alpha-beta ladder.
    pub const MAX: Level = Level(9);
    /// The learned level: the shipped network inside the guided search
    /// ([`super::learned`]), [`super::learned::LEVEL_SIMULATIONS`] a move. Not
    /// in [`Level::ALL`] (the search ladder): its strength is measured on
    /// the ladder in `docs/strength.md`.
    pub const LEARNED: Level = Level(10);
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

    /// The player kind and budget of the level in the standard table (every
    /// rule set but collect-on-4 captures; see [`Level::spec_for`]).
    pub const fn spec(self) -> (Kind, Budget) {
        match self.0 {
            10 => (
                Kind::Learned,
                Budget::Nodes(super::learned::LEVEL_SIMULATIONS),
            ),
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

    /// The player kind and budget of the level in games with collect-on-4
    /// captures (`ayo`): alpha-beta separates little there above depth 4
    /// (ten times the nodes gain about 45 Elo), so the lower levels are MCTS
    /// with a handful of simulations, each step measured at ≥ 65 %.
    ///
    /// ```
    /// use ayo_core::players::{Budget, Kind, Level};
    /// let l: Level = "2".parse().unwrap();
    /// assert_eq!(l.collect_four_spec(), (Kind::Mcts, Budget::Nodes(2)));
    /// assert_eq!(Level::MAX.collect_four_spec(), Level::MAX.spec());
    /// ```
    pub const fn collect_four_spec(self) -> (Kind, Budget) {
        match self.0 {
            10 => (
                Kind::Learned,
                Budget::Nodes(super::learned::LEVEL_SIMULATIONS),
            ),
            1 => (Kind::Random, Budget::Depth(1)),
            2 => (Kind::Mcts, Budget::Nodes(2)),
            3 => (Kind::Mcts, Budget::Nodes(5)),
            4 => (Kind::Mcts, Budget::Nodes(12)),
            5 => (Kind::Mcts, Budget::Nodes(40)),
            6 => (Kind::AlphaBeta, Budget::Depth(2)),
            7 => (Kind::AlphaBeta, Budget::Depth(4)),
            8 => (Kind::AlphaBeta, Budget::Nodes(3_000)),
            _ => (Kind::AlphaBeta, Budget::Nodes(300_000)),
        }
    }

    /// The player kind and budget of the level for `rules`.
    ///
    /// ```
    /// use ayo_core::players::{Budget, Kind, Level};
    /// use ayo_core::Rules;
    /// let four: Level = "4".parse().unwrap();
    /// assert_eq!(four.spec_for(&Rules::preset("oware").unwrap()), four.spec());
    /// assert_eq!(four.spec_for(&Rules::preset("ayo").unwrap()), (Kind::Mcts, Budget::Nodes(12)));
    /// ```
    pub fn spec_for(self, rules: &Rules) -> (Kind, Budget) {
        if rules.capture() == Capture::CollectFour {
            self.collect_four_spec()
        } else {
            self.spec()
        }
    }

    /// A new player of this level, seeded by `seed`: it plays each game with
    /// the level's budget for that game's rules ([`Level::spec_for`]).
    pub fn player(self, seed: u64) -> Box<dyn Agent> {
        if self.spec() == self.collect_four_spec() {
            let (kind, budget) = self.spec();
            return super::new_player(kind, budget, seed);
        }
        Box::new(LevelPlayer {
            level: self,
            seed,
            standard: None,
            collect_four: None,
        })
    }
}

/// A level whose player depends on the rules: each table's player is made
/// (with the level's seed) the first time a game of its rules comes.
struct LevelPlayer {
    level: Level,
    seed: u64,
    standard: Option<Box<dyn Agent>>,
    collect_four: Option<Box<dyn Agent>>,
}

impl LevelPlayer {
    fn agent(&mut self, rules: &Rules) -> &mut Box<dyn Agent> {
        let (slot, (kind, budget)) = if rules.capture() == Capture::CollectFour {
            (&mut self.collect_four, self.level.collect_four_spec())
        } else {
            (&mut self.standard, self.level.spec())
        };
        slot.get_or_insert_with(|| super::new_player(kind, budget, self.seed))
    }
}

impl Agent for LevelPlayer {
    fn name(&self) -> String {
        let name = |(kind, budget): (Kind, Budget)| match kind {
            Kind::Random | Kind::Greedy => kind.to_string(),
            _ => format!("{kind}({budget})"),
        };
        format!(
            "{}, collect-on-4: {}",
            name(self.level.spec()),
            name(self.level.collect_four_spec())
        )
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.agent(game.rules()).choose(game)
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        self.agent(game.rules()).analyze(game)
    }

    fn prepare(&mut self, rules: &Rules) -> Result<(), OutOfMemory> {
        self.agent(rules).prepare(rules)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Level::MAX {
            f.write_str("max")
        } else if *self == Level::LEARNED {
            f.write_str("learned")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl FromStr for Level {
    type Err = String;
    /// `1`..=`8`, `max` or `learned`.
    fn from_str(s: &str) -> Result<Level, String> {
        if s.eq_ignore_ascii_case("max") {
            return Ok(Level::MAX);
        }
        if s.eq_ignore_ascii_case("learned") {
            return Ok(Level::LEARNED);
        }
        s.parse::<u8>()
            .ok()
            .filter(|n| (1..=8).contains(n))
            .map(Level)
            .ok_or_else(|| format!("`{s}` is not a level; expected 1 to 8, max or learned"))
    }
}

/// The one-line description of a level, e.g. `4: alphabeta(depth=4),
/// collect-on-4: mcts(nodes=12)`: its player's name.
pub fn describe(level: Level) -> String {
    format!("{level}: {}", level.player(0).name())
}
