//! Endgame databases and exact values (`ayo_solve`) for Python: `Database`,
//! `LayerReport` and `VerifyReport`.
//!
//! Only translation: building, loading, checking and searching are
//! ayo-solve's. Inputs are converted first; the long work (building,
//! verifying, searching) runs with the GIL released, building and verifying
//! on a rayon pool of `threads` threads by the rule of `ayo_core::threads`
//! (None or 0: every core; at most `MAX_THREADS`, as in C). Every
//! `ayo_solve::DbError` becomes an `ayo.DatabaseError` with the same text
//! (`DbError::OutOfMemory`: a `MemoryError`).
//!
//! What `Database` and `CountedDatabase` (`counted.rs`) share is written
//! once here, over `ayo_solve::tablebase::Tablebase`: building, opening,
//! checking, the positions' rules, values and move values.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ayo_core::{record, Game, Position, Repetition, Rules};
use ayo_solve::repetition::RepetitionSearch;
use ayo_solve::search::{self, Search};
use ayo_solve::tablebase::Tablebase;
use ayo_solve::threads::run_on_threads;
use ayo_solve::{Database, DbError, LayerReport, VerifyReport, MAX_DATABASE_SEEDS};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{self, AyoError, RecText, Wide};
use crate::game::PyGame;
use crate::rules::PyRules;

/// The node budget of `Database.value` and `Database.move_values` when none
/// is given: the `perfect` player's budget per move.
pub(crate) const DEFAULT_NODES: u64 = ayo_solve::perfect::DEFAULT_NODES;

/// What building (or reusing) one layer took and found.
#[pyclass(name = "LayerReport", module = "ayo._ayo", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyLayerReport {
    /// Seeds on the board (the layer).
    n: usize,
    /// Boards in the layer.
    positions: u64,
    /// The layer was read from an existing file, not built.
    reused: bool,
    /// Boards with no legal move (0 when reused).
    stuck: u64,
    /// Moves that capture nothing (0 when reused).
    inner_moves: u64,
    /// Passes of the fixpoint iteration (0 when reused).
    passes: u32,
    /// Boards whose value depends on play that never ends inside the layer
    /// (scored by the convention).
    cycle_scored: u64,
    /// Boards whose value depends on how endless play is scored, in the
    /// layer or below (bounds `lo < hi`).
    convention_dependent: u64,
    /// Wall-clock seconds for the layer (building, or reading the file).
    seconds: f64,
}

impl From<&LayerReport> for PyLayerReport {
    fn from(r: &LayerReport) -> Self {
        PyLayerReport {
            n: r.n,
            positions: r.positions,
            reused: r.reused,
            stuck: r.stuck,
            inner_moves: r.inner_edges,
            passes: r.passes,
            cycle_scored: r.cycle_scored,
            convention_dependent: r.convention_dependent,
            seconds: r.seconds,
        }
    }
}

#[pymethods]
impl PyLayerReport {
    fn __repr__(&self) -> String {
        format!(
            "LayerReport(n={}, positions={}, reused={}, passes={}, cycle_scored={}, convention_dependent={}, seconds={:.3})",
            self.n,
            self.positions,
            if self.reused { "True" } else { "False" },
            self.passes,
            self.cycle_scored,
            self.convention_dependent,
            self.seconds
        )
    }
}

/// What `Database.verify` found.
#[pyclass(name = "VerifyReport", module = "ayo._ayo", frozen, get_all)]
pub(crate) struct PyVerifyReport {
    /// Boards checked.
    checked: u64,
    /// Boards checked exactly against the best of their children.
    exact: u64,
    /// Boards scored by the cycle convention, checked against their bounds.
    cycle_scored: u64,
    /// Boards whose bounds differ (`lo < hi`); every board's bounds are
    /// checked against its children's.
    convention_dependent: u64,
    /// Boards that failed.
    failed: u64,
    /// The first failures: `(layer, rank, stored value, expected)`.
    failures: Vec<(usize, u64, i32, String)>,
    /// Wall-clock seconds.
    seconds: f64,
}

#[pymethods]
impl PyVerifyReport {
    /// Whether every board passed.
    #[getter]
    fn ok(&self) -> bool {
        self.failed == 0
    }

    fn __repr__(&self) -> String {
        format!(
            "VerifyReport(checked={}, exact={}, cycle_scored={}, convention_dependent={}, failed={})",
            self.checked, self.exact, self.cycle_scored, self.convention_dependent, self.failed
        )
    }
}

impl PyVerifyReport {
    fn new(r: VerifyReport, seconds: f64) -> Self {
        PyVerifyReport {
            checked: r.checked,
            exact: r.exact,
            cycle_scored: r.cycle_scored,
            convention_dependent: r.convention_dependent,
            failed: r.failed,
            failures: r.failures,
            seconds,
        }
    }
}

/// Endgame databases of one rule set: the exact value of every board of up
/// to `max_seeds` seeds, and an exact search above them.
///
/// Made by `Database.build` or `Database.open`; immutable, and shared (not
/// copied) by every `Player.perfect` made from it.
#[pyclass(name = "Database", module = "ayo._ayo", frozen)]
pub(crate) struct PyDatabase {
    pub(crate) db: Arc<Database>,
    dir: Option<PathBuf>,
    reports: Vec<PyLayerReport>,
}

/// Runs `f` on a pool of `threads` threads (`ayo_solve::threads`); a count
/// against the rule is an `AyoError`, raised before any thread starts.
pub(crate) fn on_threads<T: Send>(
    threads: Option<i64>,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    run_on_threads(threads, f).map_err(|e| AyoError::new_err(e.to_string()))
}

/// The thread count of `threads` by the rule of `Database.build` and
/// `Database.verify` (and `ayo solve --threads`): None or 0 is every core,
/// else 1 to `MAX_THREADS`; raises `AyoError` (a ValueError) otherwise.
#[pyfunction]
#[pyo3(signature = (threads = None))]
fn thread_count(threads: Option<Wide>) -> PyResult<usize> {
    let threads = threads_arg(threads)?;
    ayo_core::threads::thread_count(threads).map_err(|e| AyoError::new_err(e.to_string()))
}

/// A `threads` argument as an `i64` (its range is checked by `thread_count`).
pub(crate) fn threads_arg(threads: Option<Wide>) -> PyResult<Option<i64>> {
    Wide::opt(
        threads.as_ref(),
        "threads",
        "None or an int 0..=MAX_THREADS",
    )
}

/// A folder argument (a `str` or an `os.PathLike`): one that cannot be encoded
/// for the file system (a lone surrogate) raises `AyoError`.
pub(crate) struct PathArg(pub(crate) PathBuf);

impl<'a, 'py> FromPyObject<'a, 'py> for PathArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<PathBuf>() {
            Ok(p) => Ok(PathArg(p)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyUnicodeError>(obj.py()) => {
                Err(AyoError::new_err(format!(
                    "the folder {} cannot be encoded for the file system: {}",
                    obj.repr()?,
                    e.value(obj.py())
                )))
            }
            Err(e) => Err(e),
        }
    }
}

/// Rules from a Python `Rules`, a preset name or a rules record.
pub(crate) fn rules_arg(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
    PyRules::from_py(obj)
}

/// The position of `obj` (an `ayo.Game`, or a position record whose rules
/// field may be left out), checked to be for the rules of `db` (any target).
pub(crate) fn position_for<T: Tablebase>(obj: &Bound<'_, PyAny>, db: &T) -> PyResult<Position> {
    let py = obj.py();
    let key = db.key();
    let text: String = if obj.is_instance_of::<PyString>() {
        obj.extract::<RecText>()?.0
    } else {
        obj.call_method0("position_record")
            .and_then(|r| r.extract())
            .map_err(|_| AyoError::new_err("expected an ayo.Game or a position record (str)"))?
    };
    let (rules, pos) = if text.split_ascii_whitespace().count() == 5 {
        let full = format!("{key} {text}");
        record::parse_position(&full).map_err(|mut e| {
            e.offset = e.offset.saturating_sub(key.len() + 1);
            errors::record_in(py, e, &text)
        })?
    } else {
        record::parse_position(&text).map_err(|e| errors::record_in(py, e, &text))?
    };
    let solved = T::solvable(&rules).map_err(errors::database)?;
    if solved != *db.rules() {
        return Err(errors::database_kind(
            py,
            "rules_mismatch",
            None,
            format!(
                "the position is for rules `{}`, these databases are for `{key}`",
                record::rules_to_text(&rules),
            ),
        ));
    }
    Ok(pos)
}

/// A `nodes` argument: None (no limit) or at least 1.
pub(crate) fn checked_nodes(nodes: Option<Wide>) -> PyResult<Option<u64>> {
    match Wide::opt::<u64>(nodes.as_ref(), "nodes", "None or an int 1..=2**64-1")? {
        Some(0) => Err(AyoError::new_err("nodes must be at least 1 (or None)")),
        n => Ok(n),
    }
}

/// Databases just built: their folder and the layers' reports.
pub(crate) struct Built<T: Tablebase> {
    pub(crate) db: Arc<T>,
    pub(crate) dir: Option<PathBuf>,
    pub(crate) reports: Vec<T::Report>,
}

/// Builds the databases of kind `T` (`Database.build`, `CountedDatabase.build`):
/// the arguments checked, then the build on `threads` threads with the GIL
/// released.
pub(crate) fn build_tablebase<T: Tablebase>(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    max_seeds: Wide,
    dir: Option<PathArg>,
    threads: Option<Wide>,
    quiet: bool,
) -> PyResult<Built<T>> {
    let max_seeds = max_seeds.size("max_seeds", T::MAX_SEEDS)?;
    let threads = threads_arg(threads)?;
    let dir = dir.map(|d| d.0);
    let rules = rules_arg(rules)?;
    let target = dir.clone();
    let (db, reports) = py
        .detach(move || {
            on_threads(threads, || {
                T::build(&rules, max_seeds, target.as_deref(), quiet)
            })
        })?
        .map_err(errors::database)?;
    Ok(Built {
        db: Arc::new(db),
        dir,
        reports,
    })
}

/// Loads the databases of kind `T` from `dir` (`Database.open`,
/// `CountedDatabase.open`): exactly those for `max_seeds`, or (None) those
/// for the largest seed count found. Releases the GIL while reading.
pub(crate) fn open_tablebase<T: Tablebase>(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    dir: PathArg,
    max_seeds: Option<Wide>,
) -> PyResult<(Arc<T>, PathBuf)> {
    let max_seeds = max_seeds
        .map(|m| m.size("max_seeds", T::MAX_SEEDS))
        .transpose()?;
    let dir = dir.0;
    let rules = rules_arg(rules)?;
    let d = dir.clone();
    let db = py
        .detach(move || match max_seeds {
            Some(n) => T::open(&rules, n, &d),
            None => T::open_all(&rules, &d),
        })
        .map_err(errors::database)?;
    Ok((Arc::new(db), dir))
}

/// Re-checks the layers `from_seeds..` of `db` on `threads` threads, the
/// GIL released: the kind's report and the seconds it took.
pub(crate) fn verify_tablebase<T: Tablebase>(
    py: Python<'_>,
    db: &Arc<T>,
    from_seeds: usize,
    quiet: bool,
    threads: Option<Wide>,
) -> PyResult<(T::Verified, f64)> {
    let threads = threads_arg(threads)?;
    let db = Arc::clone(db);
    py.detach(move || {
        on_threads(threads, || {
            let t0 = Instant::now();
            let r = db.verify_layers(from_seeds, quiet);
            (r, t0.elapsed().as_secs_f64())
        })
    })
}

/// The exact value of `pos` for its mover from `db` and the search above
/// it, within `nodes` expanded boards (None: no limit), the GIL released;
/// None when they run out.
pub(crate) fn search_value<T: Tablebase>(
    py: Python<'_>,
    db: &Arc<T>,
    pos: Position,
    nodes: Option<u64>,
) -> PyResult<Option<i32>> {
    let db = Arc::clone(db);
    py.detach(move || Search::over(db).value_within(&pos, nodes))
        .map_err(errors::database)
}

/// The exact value of every legal move of `pos` (action → value), within
/// `nodes` expanded boards in all, the GIL released; None when they run out.
pub(crate) fn search_move_values<T: Tablebase>(
    py: Python<'_>,
    db: &Arc<T>,
    pos: Position,
    nodes: Option<u64>,
) -> PyResult<Option<std::collections::BTreeMap<u8, i32>>> {
    let db = Arc::clone(db);
    let values = py
        .detach(move || search::move_values(db, &pos, nodes))
        .map_err(errors::database)?;
    Ok(values.map(|v| v.into_iter().map(|(mv, v)| (mv.action(), v)).collect()))
}

impl PyDatabase {
    fn position_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
        position_for(obj, &*self.db)
    }

    /// Under a repetition rule, the game `obj` stands for: an `ayo.Game`
    /// with its history (the positions since the last capture decide
    /// repetitions), or a position record's position as a game starting
    /// there; `None` when the databases' rules have no repetition rule.
    fn repetition_game(&self, obj: &Bound<'_, PyAny>) -> PyResult<Option<Game>> {
        if self.db.rules().repetition() == Repetition::Off {
            return Ok(None);
        }
        let pos = self.position_of(obj)?;
        Ok(Some(match obj.cast::<PyGame>() {
            Ok(g) => g.get().snapshot(obj.py())?,
            Err(_) => Game::from_position(*self.db.rules(), pos),
        }))
    }
}

/// The exact value of every legal move of `game` under its repetition rule
/// (action, the mover's captures from now on minus the opponent's), within
/// `nodes`; an empty list when the game is over, None when the budget runs out.
fn repetition_move_values(
    db: Arc<Database>,
    game: &Game,
    nodes: Option<u64>,
) -> Result<Option<Vec<(u8, i32)>>, DbError> {
    if game.outcome().is_some() {
        return Ok(Some(Vec::new()));
    }
    let mut search = RepetitionSearch::new(db);
    search.set_budget(nodes);
    Ok(search
        .move_values(game)?
        .map(|moves| moves.iter().map(|m| (m.mv.action(), m.value)).collect()))
}

/// The exact value of `game` under its repetition rule for the player to
/// move (their captures from now on minus the opponent's), within `nodes`.
fn repetition_value(
    db: Arc<Database>,
    game: &Game,
    nodes: Option<u64>,
) -> Result<Option<i32>, DbError> {
    if let Some(o) = game.outcome() {
        // Over (by repetition too): what the final split adds to the stores.
        let pos = game.position();
        let (me, you) = (pos.to_move(), pos.to_move().opponent());
        let fin = i32::from(o.scores[me.index()]) - i32::from(o.scores[you.index()]);
        return Ok(Some(fin - pos.margin(me)));
    }
    Ok(repetition_move_values(db, game, nodes)?.and_then(|m| m.iter().map(|&(_, v)| v).max()))
}

#[pymethods]
impl PyDatabase {
    /// Builds every layer `0..=max_seeds` of `rules` (a `Rules`, a preset
    /// name or a rules record; the target is ignored), writing each layer to
    /// `dir` (None: in memory only). Finished layer files already in `dir`
    /// are reused, so an interrupted build resumes; a file that does not
    /// check out raises `DatabaseError` and is never overwritten.
    ///
    /// `threads` workers (None or 0: one per core; at most `MAX_THREADS`,
    /// else `AyoError`), `progress` draws progress bars and a line per layer
    /// on standard error. The GIL is released
    /// while building (so Ctrl-C is seen when the build returns). The
    /// layers' reports are in `reports`. Running out of memory raises
    /// `MemoryError` (its message says how many bytes and what for); the
    /// layer files finished before are kept whole, so a build resumes.
    #[staticmethod]
    #[pyo3(signature = (rules, max_seeds, dir = None, *, threads = None, progress = false))]
    fn build(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        max_seeds: Wide,
        dir: Option<PathArg>,
        threads: Option<Wide>,
        progress: bool,
    ) -> PyResult<Self> {
        let Built { db, dir, reports } =
            build_tablebase::<Database>(py, rules, max_seeds, dir, threads, !progress)?;
        Ok(PyDatabase {
            db,
            dir,
            reports: reports.iter().map(PyLayerReport::from).collect(),
        })
    }

    /// Loads the databases of `rules` from `dir`: every layer `0, 1, …`
    /// found there, or exactly `0..=max_seeds`. Raises `DatabaseError` when
    /// a layer is missing (none at all, below `max_seeds`, or, without
    /// `max_seeds`, below the highest layer found: reason "layer_gap", never
    /// a smaller database), damaged, for other rules or another format, or
    /// when the rules cannot be solved by layers (a move limit, as in `ayo`
    /// and `olopon`); `MemoryError` when the
    /// layers do not fit in memory. Releases the GIL while reading.
    #[staticmethod]
    #[pyo3(signature = (rules, dir, *, max_seeds = None))]
    fn open(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        dir: PathArg,
        max_seeds: Option<Wide>,
    ) -> PyResult<Self> {
        let (db, dir) = open_tablebase::<Database>(py, rules, dir, max_seeds)?;
        Ok(PyDatabase {
            db,
            dir: Some(dir),
            reports: Vec::new(),
        })
    }

    /// Whether `rules` can be solved by seed layers (no move limit):
    /// `ayoayo`, its variants and `oware` (whose files score endless play by
    /// their cycle convention; `value`, `move_values` and `Player.perfect`
    /// give the game's values under the repetition rule) can, `ayo` and
    /// `olopon` cannot.
    #[staticmethod]
    fn solvable(rules: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(Database::solvable(&rules_arg(rules)?).is_ok())
    }

    /// The rules the values are for: the given rules without a target.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules {
            inner: *self.db.rules(),
        }
    }

    /// The rules record written in every layer file, e.g. `ayoayo[target=none]`.
    #[getter]
    fn key(&self) -> &str {
        self.db.key()
    }

    /// The largest seed count held.
    #[getter]
    fn max_seeds(&self) -> usize {
        self.db.max_seeds()
    }

    /// The number of boards held, over every layer.
    #[getter]
    fn positions(&self) -> u64 {
        self.db.layers().iter().map(|l| l.len() as u64).sum()
    }

    /// The folder of the layer files (None when built in memory).
    #[getter]
    fn dir(&self) -> Option<PathBuf> {
        self.dir.clone()
    }

    /// What `Database.build` did for each layer (empty for `Database.open`).
    #[getter]
    fn reports(&self) -> Vec<PyLayerReport> {
        self.reports.clone()
    }

    /// Re-checks every stored value against its successors (the layers
    /// `from_seeds..=max_seeds`); `progress` draws progress bars on standard
    /// error, `threads` as for `build`. Releases the GIL.
    #[pyo3(signature = (progress = false, *, from_seeds = Wide(Ok(0)), threads = None),
        text_signature = "($self, progress=False, *, from_seeds=0, threads=None)")]
    fn verify(
        &self,
        py: Python<'_>,
        progress: bool,
        from_seeds: Wide,
        threads: Option<Wide>,
    ) -> PyResult<PyVerifyReport> {
        let from_seeds = from_seeds.size("from_seeds", MAX_DATABASE_SEEDS)?;
        let (r, seconds) = verify_tablebase(py, &self.db, from_seeds, !progress, threads)?;
        Ok(PyVerifyReport::new(r, seconds))
    }

    /// The exact value of `position` (an `ayo.Game`'s current position or a
    /// position record) for the player to move: the seeds now on the board
    /// they will still capture minus those the opponent will, with best play
    /// to the end (the stores and the target do not count). Read from the
    /// layers when the board is held, else searched within `nodes` expanded
    /// boards (None: no limit); None when the budget runs out. Under a
    /// repetition rule (`oware`) the value is the game's under that rule,
    /// searched over the databases with the history of an `ayo.Game` (a
    /// position record starts afresh). Releases the GIL while searching;
    /// `MemoryError` when the search's thread (its stack is 1 GiB of address
    /// space) cannot be started.
    #[pyo3(signature = (position, *, nodes = Some(Wide(Ok(DEFAULT_NODES as i128)))))]
    fn value(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<Wide>,
    ) -> PyResult<Option<i32>> {
        let nodes = checked_nodes(nodes)?;
        let db = Arc::clone(&self.db);
        if let Some(game) = self.repetition_game(position)? {
            return py
                .detach(move || repetition_value(db, &game, nodes))
                .map_err(errors::database);
        }
        let pos = self.position_of(position)?;
        search_value(py, &db, pos, nodes)
    }

    /// `(lo, hi)` of `position` (an `ayo.Game`'s current position or a
    /// position record) for the player to move, under every scoring of play
    /// that never ends: `lo` is what they can force by play that ends
    /// (endless play counted as their worst), `hi` what the opponent can hold
    /// them to (endless play counted as their best), in seeds still to
    /// capture minus the opponent's (the stores do not count). `lo == hi`:
    /// `value` is exact whatever endless play is worth. Raises
    /// `DatabaseError` (reason "not_held") when the board has more seeds than
    /// the layers held.
    fn bounds(&self, position: &Bound<'_, PyAny>) -> PyResult<(i32, i32)> {
        let pos = self.position_of(position)?;
        self.db.bounds(&pos).ok_or_else(|| {
            errors::database_kind(
                position.py(),
                "not_held",
                None,
                format!(
                    "the board holds {} seeds; these databases hold up to {}",
                    pos.board_seeds(),
                    self.db.max_seeds()
                ),
            )
        })
    }

    /// The exact value (as for `value`) of every legal move of `position`:
    /// a dict from action (0..5, relative to the player to move, ascending)
    /// to what the mover captures with it and after it minus what the
    /// opponent will; empty when there is no legal move. Within `nodes`
    /// expanded boards in all; None when the budget runs out (`MemoryError`
    /// as for `value`).
    #[pyo3(signature = (position, *, nodes = Some(Wide(Ok(DEFAULT_NODES as i128)))))]
    fn move_values(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<Wide>,
    ) -> PyResult<Option<std::collections::BTreeMap<u8, i32>>> {
        let nodes = checked_nodes(nodes)?;
        let db = Arc::clone(&self.db);
        if let Some(game) = self.repetition_game(position)? {
            let values = py
                .detach(move || repetition_move_values(db, &game, nodes))
                .map_err(errors::database)?;
            return Ok(values.map(|v| v.into_iter().collect()));
        }
        let pos = self.position_of(position)?;
        search_move_values(py, &db, pos, nodes)
    }

    fn __repr__(&self) -> String {
        format!(
            "Database('{}', max_seeds={}, positions={})",
            self.db.key(),
            self.db.max_seeds(),
            self.positions()
        )
    }
}

/// Registers `Database`, `LayerReport` and `VerifyReport` in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDatabase>()?;
    m.add_class::<PyLayerReport>()?;
    m.add_class::<PyVerifyReport>()?;
    m.add_function(wrap_pyfunction!(thread_count, m)?)?;
    m.add("MAX_THREADS", ayo_core::threads::MAX_THREADS)?;
    Ok(())
}
