//! The two kinds of databases behind the one interface: [`Tablebase`] and
//! [`PerfectKind`] for the board-only [`Database`] and the
//! [`CountedDatabase`], and the search's API of each kind ([`Solver`],
//! [`CountedSolver`]: a value where the counted search answers without a
//! `Result`, a board with or without its count). Here, above the kinds and
//! the generic code, so that neither imports the other.

use std::path::Path;
use std::sync::Arc;

use ayo_core::kernel::Kernel;
use ayo_core::{Position, Rules, PITS};

use crate::counted::{counted_rules, CountedDatabase, CountedReport, MAX_COUNTED_SEEDS};
use crate::index::rank;
use crate::perfect::PerfectKind;
use crate::repetition::RepetitionSearch;
use crate::search::Search;
use crate::tablebase::{Checked, Entry, Tablebase};
use crate::{seeds, solve_rules, Database, DbError, LayerReport, VerifyReport, MAX_DATABASE_SEEDS};

impl Tablebase for Database {
    type Report = LayerReport;
    type Verified = VerifyReport;
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

    #[inline]
    fn held(&self, board: &[u8; PITS], _count: u16) -> Option<Entry> {
        let (v, lo, hi) = self.layers().get(seeds(board))?.entry(rank(board));
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

    #[inline]
    fn held(&self, board: &[u8; PITS], count: u16) -> Option<Entry> {
        // Play under a move limit always ends: the value is exact.
        let value = self.board_value(board, count)?;
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

impl PerfectKind for Database {
    const LABEL: &'static str = "db";

    fn repetition_search(db: &Arc<Database>) -> Option<RepetitionSearch> {
        Some(RepetitionSearch::new(Arc::clone(db)))
    }
}

impl PerfectKind for CountedDatabase {
    const LABEL: &'static str = "counted db";

    /// Counted databases refuse repetition rules ([`counted_rules`]).
    fn repetition_search(_db: &Arc<CountedDatabase>) -> Option<RepetitionSearch> {
        None
    }
}

/// The search over board-only databases ([`Database`]).
pub type Solver = Search<Database>;

/// The search over counted databases ([`CountedDatabase`]).
pub type CountedSolver = Search<CountedDatabase>;

impl Search<Database> {
    /// The exact value of `pos` for the player to move, within the budget
    /// set ([`Search::value_within`]): `Ok(None)` if it ran out,
    /// [`DbError::OutOfMemory`] if the search thread cannot be started.
    pub fn value(&mut self, pos: &Position) -> Result<Option<i32>, DbError> {
        let (board, count) = self.node(pos);
        self.node_value(&board, count)
    }

    /// The exact value of `board` with South to move ([`Search::node_value`]).
    pub fn board_value(&mut self, board: &[u8; PITS]) -> Result<Option<i32>, DbError> {
        self.node_value(board, 0)
    }

    /// [`Search::node_at_most`] of `board` with South to move.
    pub fn board_at_most(&mut self, board: &[u8; PITS], t: i32) -> Result<Option<bool>, DbError> {
        self.node_at_most(board, 0, t)
    }
}

impl Search<CountedDatabase> {
    /// The exact value of `pos` for its mover (future captures minus the
    /// opponent's), or `None` when the budget ran out (a line under a move
    /// limit is short: the search runs on this thread).
    pub fn value(&mut self, pos: &Position) -> Option<i32> {
        let (board, count) = self.node(pos);
        self.board_value(&board, count)
    }

    /// The exact value of `board` (South to move) after `count` capture-less
    /// moves, or `None` when the budget ran out.
    pub fn board_value(&mut self, board: &[u8; PITS], count: u16) -> Option<i32> {
        self.node_value(board, count).ok().flatten()
    }

    /// Whether the value of `board` at `count` is at most `bound`, or
    /// `None` when the budget ran out.
    pub fn board_at_most(&mut self, board: &[u8; PITS], count: u16, bound: i32) -> Option<bool> {
        self.node_at_most(board, count, bound).ok().flatten()
    }
}
