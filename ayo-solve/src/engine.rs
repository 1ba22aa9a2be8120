//! [`Engine`]: the player behind a foreign handle (the C `ayo_player`, the
//! Python `Player`): one of ayo-core's players, or a `perfect` player
//! ([`PerfectPlayer`] over either kind of databases) kept as itself so that
//! its `last_source` can be asked.
//!
//! ```
//! use ayo_core::players::{Agent, Level};
//! use ayo_core::{Game, Rules};
//! use ayo_solve::engine::Engine;
//!
//! let mut engine = Engine::from(Level::MAX.player(1));
//! let game = Game::new(Rules::preset("oware")?);
//! assert!(game.is_legal(engine.agent_mut().choose(&game).unwrap()));
//! assert_eq!(engine.last_source(), None); // not a perfect player
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ayo_core::players::Agent;

use crate::perfect::{PerfectAgent, PerfectKind, PerfectPlayer, Source};

/// A computer player: one of `ayo_core::players`, or a `perfect` player.
pub enum Engine {
    /// A level, or a kind with a budget (`ayo_core::players`).
    Core(Box<dyn Agent>),
    /// The `perfect` level over endgame databases of either kind.
    Perfect(Box<dyn PerfectAgent>),
}

impl Engine {
    /// The player, to ask its name.
    pub fn agent(&self) -> &dyn Agent {
        match self {
            Engine::Core(a) => a.as_ref(),
            Engine::Perfect(p) => p.as_ref(),
        }
    }

    /// The player, to choose a move or analyse a position.
    pub fn agent_mut(&mut self) -> &mut dyn Agent {
        match self {
            Engine::Core(a) => a.as_mut(),
            Engine::Perfect(p) => p.as_mut(),
        }
    }

    /// What a `perfect` player falls back to, in words; `None` for other
    /// players.
    pub fn fallback_name(&self) -> Option<String> {
        match self {
            Engine::Perfect(p) => Some(p.fallback_name()),
            Engine::Core(_) => None,
        }
    }

    /// Where a `perfect` player's last answer came from; `None` for other
    /// players.
    pub fn last_source(&self) -> Option<Source> {
        match self {
            Engine::Perfect(p) => Some(p.last_source()),
            Engine::Core(_) => None,
        }
    }
}

impl From<Box<dyn Agent>> for Engine {
    fn from(agent: Box<dyn Agent>) -> Engine {
        Engine::Core(agent)
    }
}

impl<T: PerfectKind> From<PerfectPlayer<T>> for Engine {
    fn from(perfect: PerfectPlayer<T>) -> Engine {
        Engine::Perfect(Box::new(perfect))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Database, Perfect};
    use ayo_core::players::Budget;
    use ayo_core::{Game, Rules};

    #[test]
    fn a_perfect_engine_answers_as_its_player() {
        let rules = Rules::preset("ayoayo").unwrap();
        let db = Database::build(&rules, 4, None, true).unwrap().0;
        let mut engine = Engine::from(Perfect::new(db, Budget::Nodes(1_000), 2));
        assert_eq!(engine.last_source(), Some(Source::None));
        assert!(engine.agent().name().starts_with("perfect(db<=4"));
        let game = Game::new(rules);
        assert!(game.is_legal(engine.agent_mut().choose(&game).unwrap()));
        assert_ne!(engine.last_source(), Some(Source::None));
    }

    #[test]
    fn a_counted_perfect_engine_answers_as_its_player() {
        use crate::counted::CountedDatabase;
        use crate::perfect::CountedPerfect;
        let rules = Rules::preset("olopon").unwrap();
        let db = CountedDatabase::build(&rules, 3, None, true).unwrap().0;
        let mut engine = Engine::from(CountedPerfect::new(db, Budget::Nodes(1_000), 2));
        assert_eq!(engine.last_source(), Some(Source::None));
        let game = Game::new(rules);
        assert!(game.is_legal(engine.agent_mut().choose(&game).unwrap()));
        assert_eq!(engine.last_source(), Some(Source::Fallback));
    }
}
