//! One interface over both kinds of databases: [`Tablebase`], implemented by
//! the board-only [`Database`] and the [`CountedDatabase`], with the exact
//! search above each ([`ExactSearch`]: [`Solver`], [`CountedSolver`]) and
//! its `perfect` player ([`Perfect`], [`CountedPerfect`]).
//!
//! The wrappers (Python's `Database` and `CountedDatabase`, the C
//! `ayo_database_*` and `ayo_counted_database_*` functions) and the generic
//! operations here ([`move_values`]) are written once over it; what
//! differs between the kinds — a counted value depends on the no-capture
//! count as well as the board, a board-only one can depend on how endless
//! play is scored — stays inside the two implementations: every method
//! takes a [`Position`], which carries its count.
//!
//! ```
//! use ayo_core::{Position, Rules, Setup};
//! use ayo_solve::counted::CountedDatabase;
//! use ayo_solve::tablebase::Tablebase;
//! use ayo_solve::Database;
//!
//! /// The value of a board of 2 seeds, whatever the kind of databases.
//! fn value_of<T: Tablebase>(rules: &Rules) -> Option<i32> {
//!     let db = T::build(rules, 2, None, true).ok()?.0;
//!     let mut setup = Setup::start(rules);
//!     setup.board = [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0];
//!     setup.stores = [23, 23];
//!     db.value(&Position::from_setup_unchecked(&setup))
//! }
//! let board_only = value_of::<Database>(&Rules::preset("ayoayo")?);
//! let counted = value_of::<CountedDatabase>(&Rules::preset("olopon")?);
//! assert_eq!((board_only, counted), (Some(2), Some(-2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use ayo_core::kernel::{self, Kernel};
use ayo_core::players::{Agent, Budget};
use ayo_core::{Move, Position, Rules};

use crate::counted::{counted_rules, CountedDatabase, CountedReport, MAX_COUNTED_SEEDS};
use crate::counted_search::CountedSolver;
use crate::engine::Engine;
use crate::index::rank;
use crate::perfect::{Perfect, Source};
use crate::perfect_counted::CountedPerfect;
use crate::{
    seeds, solve_rules, Database, DbError, LayerReport, Solver, VerifyReport, MAX_DATABASE_SEEDS,
};

/// What a database holds for one position, for its player to move: the
/// value (the mover's future captures minus the opponent's), and the least
/// and the most it can be under every scoring of play that never ends
/// (`lo == value == hi` where it does not depend on that: always for the
/// counted databases, whose play always ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value (for the board-only databases, by their cycle convention).
    pub value: i32,
    /// The least the value can be.
    pub lo: i32,
    /// The most the value can be.
    pub hi: i32,
}

impl Entry {
    /// Whether the value depends on how endless play is scored (`lo < hi`).
    pub fn open(&self) -> bool {
        self.lo < self.hi
    }
}

/// What re-checking a database against the core found (the kind's own
/// report says more: [`VerifyReport`] for the board-only databases).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Values checked.
    pub checked: u64,
    /// Values that failed (0 for sound databases).
    pub failed: u64,
}

/// Databases of one rule set, layer by layer of seeds on the board. See
/// the [module](self) docs.
pub trait Tablebase: Sized + Send + Sync + std::fmt::Debug + 'static {
    /// What building (or reusing) one layer took and found.
    type Report: Clone + std::fmt::Debug + Send + 'static;
    /// What [`Tablebase::verify_layers`] finds, in the kind's own detail.
    type Verified: Send + 'static;
    /// The exact search above the layers.
    type Search: ExactSearch<Db = Self>;
    /// The `perfect` player over the databases.
    type Perfect: PerfectPlayer<Db = Self>;

    /// The largest `max_seeds` of [`Tablebase::build`] and [`Tablebase::open`].
    const MAX_SEEDS: usize;

    /// The rules a database of this kind is built for (`rules` without a
    /// target), or why there is none ([`DbError::UnsupportedRules`]).
    fn solvable(rules: &Rules) -> Result<Rules, DbError>;

    /// Builds (or, with `dir`, reuses the finished files of) the layers of
    /// `rules` for `max_seeds`, on `kernel`, writing each new layer to
    /// `dir`; `quiet` hides the progress output.
    fn build_on(
        kernel: Kernel,
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(Self, Vec<Self::Report>), DbError>;

    /// [`Tablebase::build_on`] the active kernel ([`kernel::active`]).
    fn build(
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(Self, Vec<Self::Report>), DbError> {
        Self::build_on(kernel::active(), rules, max_seeds, dir, quiet)
    }

    /// Loads the layers of `rules` for `max_seeds` from `dir`.
    fn open(rules: &Rules, max_seeds: usize, dir: &Path) -> Result<Self, DbError>;

    /// Loads the layers of `rules` for the largest seed count found in `dir`.
    fn open_all(rules: &Rules, dir: &Path) -> Result<Self, DbError>;

    /// The rules the values are for (the given rules without a target).
    fn rules(&self) -> &Rules;

    /// The rules record written in every file.
    fn key(&self) -> &str;

    /// The seed count the databases were built for.
    fn max_seeds(&self) -> usize;

    /// The seed counts of the layers held, ascending.
    fn layers_held(&self) -> Vec<usize>;

    /// What the databases hold for `pos` (either side to move, any stores;
    /// its no-capture count where values depend on it), if its layer is held.
    fn entry(&self, pos: &Position) -> Option<Entry>;

    /// Re-checks the stored values of the layers `from_seeds..` against
    /// the core; `quiet` hides the progress output.
    fn verify_layers(&self, from_seeds: usize, quiet: bool) -> Self::Verified;

    /// The counts of [`Tablebase::verify_layers`]'s report.
    fn checked(report: &Self::Verified) -> Checked;

    /// The value of `pos` for its mover, if its layer is held.
    fn value(&self, pos: &Position) -> Option<i32> {
        self.entry(pos).map(|e| e.value)
    }

    /// `(lo, hi)` of `pos` for its mover ([`Entry`]), if its layer is held.
    fn bounds(&self, pos: &Position) -> Option<(i32, i32)> {
        self.entry(pos).map(|e| (e.lo, e.hi))
    }

    /// Whether the databases are for `rules` (the same rules, any target).
    fn plays(&self, rules: &Rules) -> bool {
        Self::solvable(rules).is_ok_and(|r| r == *self.rules())
    }
}

/// The exact search above a [`Tablebase`]'s layers.
pub trait ExactSearch: Send {
    /// The databases searched down to.
    type Db: Tablebase;

    /// A search over `db`, with no budget.
    fn over(db: Arc<Self::Db>) -> Self;

    /// The databases.
    fn tablebase(&self) -> &Self::Db;

    /// Boards expanded so far, over every call.
    fn nodes_so_far(&self) -> u64;

    /// Entries in the transposition table.
    fn table_entries(&self) -> usize;

    /// Empties the transposition table.
    fn empty_table(&mut self);

    /// Stops the next calls at `deadline` (`None`: no deadline).
    fn stop_at(&mut self, deadline: Option<Instant>);

    /// The exact value of `pos` for its mover, expanding at most `nodes`
    /// more boards (`None`: no limit); `Ok(None)` when they run out.
    fn value_within(&mut self, pos: &Position, nodes: Option<u64>) -> Result<Option<i32>, DbError>;
}

/// A `perfect` player over a [`Tablebase`].
pub trait PerfectPlayer: Agent + Into<Engine> + Send {
    /// The databases it reads.
    type Db: Tablebase;

    /// A player over `db` searching within `budget` per move, its fallback
    /// seeded by `seed`.
    fn over(db: Arc<Self::Db>, budget: Budget, seed: u64) -> Self;

    /// Where its last answer came from.
    fn source(&self) -> Source;
}

/// The exact value of every legal move of `pos` (the action, relative to
/// the player to move, and the mover's captures from now on minus the
/// opponent's, this move's included), within `nodes` expanded boards in
/// all (`None`: no limit); `Ok(None)` when they run out.
pub fn move_values<T: Tablebase>(
    db: Arc<T>,
    pos: &Position,
    nodes: Option<u64>,
) -> Result<Option<Vec<(Move, i32)>>, DbError> {
    let rules = *db.rules();
    let mut search = T::Search::over(db);
    let start = search.nodes_so_far();
    let me = pos.to_move();
    let mut out = Vec::new();
    for (mv, child) in pos.children(&rules).iter() {
        let used = search.nodes_so_far() - start;
        let left = nodes.map(|n| n.saturating_sub(used));
        let gain = child.margin(me) - pos.margin(me);
        let Some(rest) = search.value_within(child, left)? else {
            return Ok(None);
        };
        out.push((*mv, gain - rest));
    }
    Ok(Some(out))
}

impl Tablebase for Database {
    type Report = LayerReport;
    type Verified = VerifyReport;
    type Search = Solver;
    type Perfect = Perfect;
    const MAX_SEEDS: usize = MAX_DATABASE_SEEDS;

    fn solvable(rules: &Rules) -> Result<Rules, DbError> {
        solve_rules(rules)
    }

    fn build_on(
        kernel: Kernel,
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(Self, Vec<LayerReport>), DbError> {
        Database::build_on(kernel, rules, max_seeds, dir, quiet)
    }

    fn open(rules: &Rules, max_seeds: usize, dir: &Path) -> Result<Self, DbError> {
        Database::open(rules, max_seeds, dir)
    }

    fn open_all(rules: &Rules, dir: &Path) -> Result<Self, DbError> {
        Database::open_all(rules, dir)
    }

    fn rules(&self) -> &Rules {
        Database::rules(self)
    }

    fn key(&self) -> &str {
        Database::key(self)
    }

    fn max_seeds(&self) -> usize {
        Database::max_seeds(self)
    }

    fn layers_held(&self) -> Vec<usize> {
        (0..self.layers().len()).collect()
    }

    fn entry(&self, pos: &Position) -> Option<Entry> {
        let board = pos.normalized().board();
        let (v, lo, hi) = self.layers().get(seeds(&board))?.entry(rank(&board));
        Some(Entry {
            value: i32::from(v),
            lo: i32::from(lo),
            hi: i32::from(hi),
        })
    }

    fn verify_layers(&self, from_seeds: usize, quiet: bool) -> VerifyReport {
        self.verify_from(from_seeds, quiet)
    }

    fn checked(report: &VerifyReport) -> Checked {
        Checked {
            checked: report.checked,
            failed: report.failed,
        }
    }
}

impl Tablebase for CountedDatabase {
    type Report = CountedReport;
    type Verified = Checked;
    type Search = CountedSolver;
    type Perfect = CountedPerfect;
    const MAX_SEEDS: usize = MAX_COUNTED_SEEDS;

    fn solvable(rules: &Rules) -> Result<Rules, DbError> {
        counted_rules(rules)
    }

    fn build_on(
        kernel: Kernel,
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(Self, Vec<CountedReport>), DbError> {
        CountedDatabase::build_on(kernel, rules, max_seeds, dir, quiet)
    }

    fn open(rules: &Rules, max_seeds: usize, dir: &Path) -> Result<Self, DbError> {
        CountedDatabase::open(rules, max_seeds, dir)
    }

    fn open_all(rules: &Rules, dir: &Path) -> Result<Self, DbError> {
        CountedDatabase::open_all(rules, dir)
    }

    fn rules(&self) -> &Rules {
        CountedDatabase::rules(self)
    }

    fn key(&self) -> &str {
        CountedDatabase::key(self)
    }

    fn max_seeds(&self) -> usize {
        CountedDatabase::max_seeds(self)
    }

    fn layers_held(&self) -> Vec<usize> {
        self.layers()
            .iter()
            .enumerate()
            .filter_map(|(n, l)| l.as_ref().map(|_| n))
            .collect()
    }

    fn entry(&self, pos: &Position) -> Option<Entry> {
        // Play under a move limit always ends: the value is exact.
        let value = CountedDatabase::value(self, pos)?;
        Some(Entry {
            value,
            lo: value,
            hi: value,
        })
    }

    fn verify_layers(&self, from_seeds: usize, _quiet: bool) -> Checked {
        let (checked, failed) = self.verify_from(from_seeds);
        Checked { checked, failed }
    }

    fn checked(report: &Checked) -> Checked {
        *report
    }
}

impl ExactSearch for Solver {
    type Db = Database;

    #[inline]
    fn over(db: Arc<Database>) -> Self {
        Solver::new(db)
    }

    #[inline]
    fn tablebase(&self) -> &Database {
        self.database()
    }

    #[inline]
    fn nodes_so_far(&self) -> u64 {
        self.stats().nodes
    }

    #[inline]
    fn table_entries(&self) -> usize {
        self.table_len()
    }

    #[inline]
    fn empty_table(&mut self) {
        self.clear_table()
    }

    #[inline]
    fn stop_at(&mut self, deadline: Option<Instant>) {
        self.set_deadline(deadline)
    }

    #[inline]
    fn value_within(&mut self, pos: &Position, nodes: Option<u64>) -> Result<Option<i32>, DbError> {
        // A spent budget answers nothing here, not even from the layers:
        // the board-only callers have always stopped there.
        if nodes == Some(0) {
            return Ok(None);
        }
        self.set_budget(nodes);
        self.value(pos)
    }
}

impl ExactSearch for CountedSolver {
    type Db = CountedDatabase;

    #[inline]
    fn over(db: Arc<CountedDatabase>) -> Self {
        CountedSolver::new(db)
    }

    #[inline]
    fn tablebase(&self) -> &CountedDatabase {
        self.database()
    }

    #[inline]
    fn nodes_so_far(&self) -> u64 {
        self.nodes()
    }

    #[inline]
    fn table_entries(&self) -> usize {
        self.table_len()
    }

    #[inline]
    fn empty_table(&mut self) {
        self.clear_table()
    }

    #[inline]
    fn stop_at(&mut self, deadline: Option<Instant>) {
        self.set_deadline(deadline)
    }

    #[inline]
    fn value_within(&mut self, pos: &Position, nodes: Option<u64>) -> Result<Option<i32>, DbError> {
        // A spent budget still answers from the layers and the table.
        self.set_budget(nodes);
        Ok(self.value(pos))
    }
}

impl PerfectPlayer for Perfect {
    type Db = Database;

    fn over(db: Arc<Database>, budget: Budget, seed: u64) -> Self {
        Perfect::new(db, budget, seed)
    }

    fn source(&self) -> Source {
        self.last_source()
    }
}

impl PerfectPlayer for CountedPerfect {
    type Db = CountedDatabase;

    fn over(db: Arc<CountedDatabase>, budget: Budget, seed: u64) -> Self {
        CountedPerfect::new(db, budget, seed)
    }

    fn source(&self) -> Source {
        self.last_source()
    }
}
