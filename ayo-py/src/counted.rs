//! Counted databases (`ayo_solve::counted`: rules with a move limit, values
//! of board and no-capture count) for Python: `CountedDatabase`.
//!
//! Only translation, as for `Database` (`solve.rs`): building, loading and
//! searching are ayo-solve's, with the GIL released.

use std::path::PathBuf;
use std::sync::Arc;

use ayo_core::Position;
use ayo_solve::counted::{counted_rules, CountedDatabase, MAX_COUNTED_SEEDS};
use ayo_solve::counted_search::CountedSolver;
use pyo3::prelude::*;

use crate::errors::{self, Wide};
use crate::rules::PyRules;
use crate::solve::{
    checked_nodes, on_threads, position_for, rules_arg, threads_arg, PathArg, DEFAULT_NODES,
};

/// Counted databases of one rule set with a move limit, and an exact search
/// above them.
#[pyclass(name = "CountedDatabase", module = "ayo._ayo", frozen)]
pub(crate) struct PyCountedDatabase {
    pub(crate) db: Arc<CountedDatabase>,
    dir: Option<PathBuf>,
}

impl PyCountedDatabase {
    fn position_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
        position_for(obj, self.db.key(), self.db.rules(), counted_rules)
    }
}

/// The exact value of every legal move of `pos` (action, the mover's
/// captures from now on minus the opponent's, the count the move leaves
/// included), within `nodes` expanded boards in all; None when the budget
/// runs out.
fn move_values(
    db: Arc<CountedDatabase>,
    pos: &Position,
    nodes: Option<u64>,
) -> Option<Vec<(u8, i32)>> {
    let rules = *db.rules();
    let mut solver = CountedSolver::new(db);
    solver.set_budget(nodes);
    let me = pos.to_move();
    let mut out = Vec::new();
    for (mv, child) in pos.children(&rules).iter() {
        let gain = (i32::from(child.store(me)) - i32::from(pos.store(me)))
            - (i32::from(child.store(me.opponent())) - i32::from(pos.store(me.opponent())));
        out.push((mv.action(), gain - solver.value(child)?));
    }
    Some(out)
}

#[pymethods]
impl PyCountedDatabase {
    /// Builds the counted layers of `rules` (a `Rules`, a preset name or a
    /// rules record with a move limit and no repetition rule, such as
    /// "olopon" or "ayo") that a position of `max_seeds` seeds can lead to
    /// (under collect-four only `max_seeds - 4k`), in memory or, with `dir`,
    /// into that folder (finished layer files are reused). Each layer holds
    /// C(n + 11, 11) × (limit + 1) one-byte values. Raises `DatabaseError`
    /// for other rules or files that do not check out, `MemoryError` when
    /// memory runs out; `threads` as for `Database.build`. Releases the GIL.
    #[staticmethod]
    #[pyo3(signature = (rules, max_seeds, dir = None, *, threads = None))]
    fn build(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        max_seeds: Wide,
        dir: Option<PathArg>,
        threads: Option<Wide>,
    ) -> PyResult<Self> {
        let max_seeds = max_seeds.size("max_seeds", MAX_COUNTED_SEEDS)?;
        let threads = threads_arg(threads)?;
        let dir = dir.map(|d| d.0);
        let rules = rules_arg(rules)?;
        let target = dir.clone();
        let (db, _) = py
            .detach(move || {
                on_threads(threads, || {
                    CountedDatabase::build(&rules, max_seeds, target.as_deref(), true)
                })
            })?
            .map_err(errors::database)?;
        Ok(PyCountedDatabase {
            db: Arc::new(db),
            dir,
        })
    }

    /// Loads the counted layers of `rules` from `dir`: those for `max_seeds`
    /// seeds, or (None) for the largest seed count with a layer file there;
    /// `DatabaseError` when one is missing, damaged or for other rules.
    #[staticmethod]
    #[pyo3(signature = (rules, dir, *, max_seeds = None))]
    fn open(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        dir: PathArg,
        max_seeds: Option<Wide>,
    ) -> PyResult<Self> {
        let max_seeds = max_seeds
            .map(|m| m.size("max_seeds", MAX_COUNTED_SEEDS))
            .transpose()?;
        let rules = rules_arg(rules)?;
        let dir = dir.0;
        let d = dir.clone();
        let db = py
            .detach(move || match max_seeds {
                Some(n) => CountedDatabase::open(&rules, n, &d),
                None => CountedDatabase::open_all(&rules, &d),
            })
            .map_err(errors::database)?;
        Ok(PyCountedDatabase {
            db: Arc::new(db),
            dir: Some(dir),
        })
    }

    /// Whether `rules` can have counted databases (a move limit, no repetition rule).
    #[staticmethod]
    fn solvable(rules: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(counted_rules(&rules_arg(rules)?).is_ok())
    }

    /// The rules the values are for: the given rules without a target.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules {
            inner: *self.db.rules(),
        }
    }

    /// The rules record written in every layer file, e.g. `olopon[target=none]`.
    #[getter]
    fn key(&self) -> &str {
        self.db.key()
    }

    /// The seed count the databases were built for.
    #[getter]
    fn max_seeds(&self) -> usize {
        self.db.max_seeds()
    }

    /// The move limit.
    #[getter]
    fn limit(&self) -> u16 {
        self.db.limit()
    }

    /// The layers held (seed counts), ascending.
    #[getter]
    fn layers(&self) -> Vec<usize> {
        (0..=self.db.max_seeds())
            .filter(|&n| self.db.layers()[n].is_some())
            .collect()
    }

    /// The folder of the layer files (None when built in memory).
    #[getter]
    fn dir(&self) -> Option<PathBuf> {
        self.dir.clone()
    }

    /// Re-checks every stored value (every layer held, every no-capture
    /// count) against the core: at the move limit the core's end there,
    /// below it the best of the legal moves, each valued by what it captures
    /// and the stored value of its result. Returns `(checked, failed)`: the
    /// values checked and those that failed (0 for sound databases).
    /// `threads` as for `build`. Releases the GIL.
    #[pyo3(signature = (*, threads = None))]
    fn verify(&self, py: Python<'_>, threads: Option<Wide>) -> PyResult<(u64, u64)> {
        let threads = threads_arg(threads)?;
        let db = Arc::clone(&self.db);
        py.detach(move || on_threads(threads, || db.verify()))
    }

    /// The exact value of `position` (an `ayo.Game`, or a position record
    /// whose rules field may be left out) for the player to move: what they
    /// will still capture minus what the opponent will, the no-capture count
    /// included; read from the layers or searched above them within `nodes`
    /// expanded boards (None: no limit), None when the budget runs out.
    #[pyo3(signature = (position, *, nodes = Some(Wide(Ok(DEFAULT_NODES as i128)))))]
    fn value(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<Wide>,
    ) -> PyResult<Option<i32>> {
        let pos = self.position_of(position)?;
        let nodes = checked_nodes(nodes)?;
        let db = Arc::clone(&self.db);
        Ok(py.detach(move || {
            let mut solver = CountedSolver::new(db);
            solver.set_budget(nodes);
            solver.value(&pos)
        }))
    }

    /// The exact value (as for `value`) of every legal move of `position`:
    /// a dict from action (0..5, relative to the player to move, ascending)
    /// to what the mover captures with it and after it minus what the
    /// opponent will; empty when there is no legal move. Within `nodes`
    /// expanded boards in all; None when the budget runs out.
    #[pyo3(signature = (position, *, nodes = Some(Wide(Ok(DEFAULT_NODES as i128)))))]
    fn move_values(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<Wide>,
    ) -> PyResult<Option<std::collections::BTreeMap<u8, i32>>> {
        let pos = self.position_of(position)?;
        let nodes = checked_nodes(nodes)?;
        let db = Arc::clone(&self.db);
        let values = py.detach(move || move_values(db, &pos, nodes));
        Ok(values.map(|v| v.into_iter().collect()))
    }

    fn __repr__(&self) -> String {
        format!(
            "CountedDatabase('{}', max_seeds={}, limit={})",
            self.db.key(),
            self.db.max_seeds(),
            self.db.limit()
        )
    }
}

/// Registers `CountedDatabase` in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCountedDatabase>()
}
