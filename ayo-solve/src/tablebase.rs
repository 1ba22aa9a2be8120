//! One interface over both kinds of databases: [`Tablebase`], implemented by
//! the board-only [`Database`](crate::Database) and the
//! [`CountedDatabase`](crate::counted::CountedDatabase) (in `kinds.rs`).
//!
//! The exact search ([`crate::search::Search`]), the `perfect` player
//! ([`crate::perfect::PerfectPlayer`]), the wrappers (Python's `Database`
//! and `CountedDatabase`, the C `ayo_database_*` and
//! `ayo_counted_database_*` functions) are written once over it; what
//! differs between the kinds — a counted value depends on the no-capture
//! count as well as the board, a board-only one can depend on how endless
//! play is scored — stays inside the two implementations: every method
//! takes a [`Position`], which carries its count, or a board and its count.
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

use ayo_core::kernel::{self, Kernel};
use ayo_core::{Position, Rules, PITS};

use crate::DbError;

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
/// report says more: [`VerifyReport`](crate::VerifyReport) for the
/// board-only databases).
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

    /// What the databases hold for `board` with South to move after `count`
    /// capture-less moves (ignored where values do not depend on it), if
    /// its layer is held: the read of the exact search.
    fn held(&self, board: &[u8; PITS], count: u16) -> Option<Entry>;

    /// What the databases hold for `pos` (either side to move, any stores;
    /// its no-capture count where values depend on it), if its layer is held.
    fn entry(&self, pos: &Position) -> Option<Entry> {
        self.held(&pos.normalized().board(), pos.no_capture())
    }

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
