//! The `perfect` level for rules with a move limit (`olopon`, `ayo`): exact
//! moves from the counted databases ([`crate::counted`]) and the exact search
//! above them, level `max` where they cannot answer.
//!
//! [`CountedPerfect`] is an [`Agent`]. Each legal move's value is the capture
//! it makes plus the negated value of the position it leads to — board and
//! no-capture count, as the core's move gives them — read from the databases
//! or searched within the [`Budget`]. Its analysis says
//! [`Basis::Proven`] ([`Proof::Database`] when every value was read,
//! [`Proof::CompleteSearch`] when some were searched to the end); when the
//! rules are not the databases' or the budget runs out it plays and analyses
//! as level `max` and says so ([`CountedPerfect::last_source`] is
//! [`Source::Fallback`]). No play in these rules is endless, so no value
//! rests on a convention. Values are seed differences if play goes on to the
//! end (the target never changes who wins: `docs/solving.md`).
//!
//! ```
//! use ayo_core::{players::{Agent, Basis, Budget, Proof}, Game, Position, Rules, Setup};
//! use ayo_solve::counted::CountedDatabase;
//! use ayo_solve::perfect::Source;
//! use ayo_solve::perfect_counted::CountedPerfect;
//!
//! let rules = Rules::preset("olopon")?;
//! let db = CountedDatabase::build(&rules, 4, None, true)?.0;
//! let mut setup = Setup::start(&rules);
//! setup.board = [0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
//! setup.stores = [22, 22];
//! let game = Game::from_position(rules, Position::from_setup(&rules, &setup)?);
//! let mut perfect = CountedPerfect::new(db, Budget::Nodes(10_000), 1);
//! let a = perfect.analyze(&game);
//! assert_eq!(perfect.last_source(), Source::Database);
//! assert_eq!(a.basis, Basis::Proven(Proof::Database));
//! assert_eq!(perfect.choose(&game), a.best);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use ayo_core::players::{Agent, Analysis, Basis, Budget, MoveValue, OutOfMemory, Proof, Value};
use ayo_core::{Game, Move, Rules};

use crate::counted::CountedDatabase;
use crate::counted_search::CountedSolver;
use crate::perfect::{
    banked, deadline_of, fallback_for, fallback_name_of, nodes_of, principal_variation, Source,
    TABLE_LIMIT,
};
use crate::tablebase::Tablebase;

/// One legal move, valued exactly.
#[derive(Clone, Copy, Debug)]
struct Scored {
    mv: Move,
    /// The mover's future captures minus the opponent's, this move included.
    value: i32,
    /// What this move captures now (mover minus opponent).
    gain: i32,
}

impl Scored {
    /// Best value, then the larger capture now (cash a win), then the lowest pit.
    fn key(&self) -> (i32, i32, std::cmp::Reverse<u8>) {
        (self.value, self.gain, std::cmp::Reverse(self.mv.action()))
    }
}

/// The `perfect` level over counted databases. See the [module](self) docs.
pub struct CountedPerfect {
    solver: CountedSolver,
    budget: Budget,
    fallback: Box<dyn Agent>,
    last: Source,
}

impl std::fmt::Debug for CountedPerfect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountedPerfect")
            .field("rules", &self.solver.database().key())
            .field("max_seeds", &self.solver.database().max_seeds())
            .field("budget", &self.budget)
            .field("last", &self.last)
            .finish()
    }
}

impl CountedPerfect {
    /// A perfect player over `db` searching within `budget` per move
    /// ([`Budget::Depth`] means [`crate::perfect::DEFAULT_NODES`]); the fallback, level
    /// `max` (alpha-beta with the same wall time under a time budget), is
    /// seeded by `seed`.
    pub fn new(db: impl Into<Arc<CountedDatabase>>, budget: Budget, seed: u64) -> CountedPerfect {
        let fallback = fallback_for(budget, seed);
        CountedPerfect {
            solver: CountedSolver::new(db),
            budget,
            fallback,
            last: Source::None,
        }
    }

    /// The databases.
    pub fn database(&self) -> &CountedDatabase {
        self.solver.database()
    }

    /// Where the last [`Agent::choose`] or [`Agent::analyze`] got its answer.
    pub fn last_source(&self) -> Source {
        self.last
    }

    /// What the player falls back to where the databases and the exact
    /// search cannot answer, in words (as [`crate::Perfect::fallback_name`]).
    pub fn fallback_name(&self) -> String {
        fallback_name_of(self.budget, self.fallback.as_ref())
    }

    /// Whether the databases are for `rules` (the same rules, any target).
    pub fn plays(&self, rules: &Rules) -> bool {
        Tablebase::plays(self.solver.database(), rules)
    }

    /// The exact value of every legal move, or `None` when the rules differ
    /// or the budget ran out.
    fn score(&mut self, game: &Game) -> Option<Vec<Scored>> {
        let children = game.children();
        if children.is_empty() || !self.plays(game.rules()) {
            return None;
        }
        if self.solver.table_len() > TABLE_LIMIT {
            self.solver.clear_table();
        }
        self.solver.set_deadline(deadline_of(self.budget));
        self.solver.set_budget(nodes_of(self.budget));
        let pos = *game.position();
        let me = pos.to_move();
        let before = self.solver.nodes();
        let mut out = Vec::with_capacity(children.len());
        let mut complete = true;
        for &(mv, child) in children {
            let gain = -banked(&child) - banked(&pos);
            match self.solver.value(&child) {
                Some(rest) => out.push(Scored {
                    mv,
                    value: gain - rest,
                    gain,
                }),
                None => {
                    complete = false;
                    break;
                }
            }
            debug_assert_eq!(child.to_move(), me.opponent());
        }
        self.solver.set_budget(None);
        self.solver.set_deadline(None);
        if !complete {
            return None;
        }
        self.last = if self.solver.nodes() > before {
            Source::Search
        } else {
            Source::Database
        };
        Some(out)
    }

    fn best(scored: &[Scored]) -> Scored {
        *scored
            .iter()
            .max_by_key(|s| s.key())
            .expect("scored moves are never empty")
    }
}

impl Agent for CountedPerfect {
    fn name(&self) -> String {
        format!(
            "perfect(counted db<={}, {})",
            self.solver.database().max_seeds(),
            self.budget
        )
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        if game.children().is_empty() {
            self.last = Source::None;
            return None;
        }
        match self.score(game) {
            Some(scored) => Some(CountedPerfect::best(&scored).mv),
            None => {
                self.last = Source::Fallback;
                self.fallback.choose(game)
            }
        }
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        if let Some(a) = Analysis::of_ended(game) {
            self.last = Source::None;
            return a;
        }
        let nodes_before = self.solver.nodes();
        let Some(scored) = self.score(game) else {
            self.last = Source::Fallback;
            return self.fallback.analyze(game);
        };
        let source = self.last;
        let basis = Basis::Proven(if source == Source::Database {
            Proof::Database
        } else {
            Proof::CompleteSearch
        });
        let banked_now = banked(game.position());
        let best = CountedPerfect::best(&scored);
        let moves = scored
            .iter()
            .map(|s| MoveValue {
                mv: s.mv,
                value: Value::from_final_difference(banked_now + s.value),
                basis,
            })
            .collect();
        let pv = principal_variation(game, best.mv, |line| {
            self.score(line).map(|s| CountedPerfect::best(&s).mv)
        });
        self.last = source;
        Analysis {
            best: Some(best.mv),
            value: Value::from_final_difference(banked_now + best.value),
            basis,
            depth: pv.len() as u32,
            pv,
            moves,
            nodes: self.solver.nodes() - nodes_before,
        }
    }

    fn prepare(&mut self, rules: &Rules) -> Result<(), OutOfMemory> {
        self.fallback.prepare(rules)
    }
}
