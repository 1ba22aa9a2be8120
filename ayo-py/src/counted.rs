//! Counted databases (`ayo_solve::counted`: rules with a move limit, values
//! of board and no-capture count) for Python: `CountedDatabase`.
//!
//! Only translation, as for `Database` (`solve.rs`), with whom its
//! bodies are written once over `ayo_solve::tablebase::Tablebase`:
//! building, loading and searching are ayo-solve's, with the GIL released.

use std::path::PathBuf;
use std::sync::Arc;

use ayo_core::Position;
use ayo_solve::counted::CountedDatabase;
use ayo_solve::tablebase::Tablebase;
use pyo3::prelude::*;

use crate::errors::Wide;
use crate::rules::PyRules;
use crate::solve::{
    build_tablebase, checked_nodes, open_tablebase, position_for, rules_arg, search_move_values,
    search_value, verify_tablebase, PathArg, DEFAULT_NODES,
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
        position_for(obj, &*self.db)
    }
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
        let built = build_tablebase::<CountedDatabase>(py, rules, max_seeds, dir, threads, true)?;
        Ok(PyCountedDatabase {
            db: built.db,
            dir: built.dir,
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
        let (db, dir) = open_tablebase::<CountedDatabase>(py, rules, dir, max_seeds)?;
        Ok(PyCountedDatabase { db, dir: Some(dir) })
    }

    /// Whether `rules` can have counted databases (a move limit, no repetition rule).
    #[staticmethod]
    fn solvable(rules: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(CountedDatabase::solvable(&rules_arg(rules)?).is_ok())
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
        self.db.layers_held()
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
        let (c, _) = verify_tablebase(py, &self.db, 0, true, threads)?;
        Ok((c.checked, c.failed))
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
        search_value(py, &self.db, pos, nodes)
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
        search_move_values(py, &self.db, pos, nodes)
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
