//! Counted databases (`ayo_solve::counted`: rules with a move limit, values
//! of board and no-capture count) for Python: `CountedDatabase`.
//!
//! Only translation, as for `Database` (`solve.rs`): building, loading and
//! searching are ayo-solve's, with the GIL released.

use std::path::PathBuf;
use std::sync::Arc;

use ayo_core::record;
use ayo_solve::counted::{counted_rules, CountedDatabase};
use ayo_solve::counted_search::CountedSolver;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{self, AyoError, RecText, Wide};
use crate::rules::PyRules;
use crate::solve::{on_threads, rules_arg, threads_arg, PathArg, DEFAULT_NODES};

/// Counted databases of one rule set with a move limit, and an exact search
/// above them.
#[pyclass(name = "CountedDatabase", module = "ayo._ayo", frozen)]
pub(crate) struct PyCountedDatabase {
    pub(crate) db: Arc<CountedDatabase>,
    dir: Option<PathBuf>,
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
        let max_seeds: usize = max_seeds.get("max_seeds", "a non-negative int")?;
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
        let max_seeds: Option<usize> = Wide::opt(
            max_seeds.as_ref(),
            "max_seeds",
            "None or a non-negative int",
        )?;
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
        let text: String = if position.is_instance_of::<PyString>() {
            position.extract::<RecText>()?.0
        } else {
            position
                .call_method0("position_record")
                .and_then(|r| r.extract())
                .map_err(|_| AyoError::new_err("expected an ayo.Game or a position record (str)"))?
        };
        let full = if text.split_ascii_whitespace().count() == 5 {
            format!("{} {text}", self.db.key())
        } else {
            text.clone()
        };
        let (rules, pos) =
            record::parse_position(&full).map_err(|e| errors::record_in(py, e, &full))?;
        let solved = counted_rules(&rules).map_err(errors::database)?;
        if solved != *self.db.rules() {
            return Err(errors::database_kind(
                py,
                "rules_mismatch",
                None,
                format!(
                    "the position is for rules `{}`, these databases are for `{}`",
                    record::rules_to_text(&rules),
                    self.db.key()
                ),
            ));
        }
        let nodes = match Wide::opt::<u64>(nodes.as_ref(), "nodes", "None or an int 1..=2**64-1")? {
            Some(0) => return Err(AyoError::new_err("nodes must be at least 1 (or None)")),
            n => n,
        };
        let db = Arc::clone(&self.db);
        Ok(py.detach(move || {
            let mut solver = CountedSolver::new(db);
            solver.set_budget(nodes);
            solver.value(&pos)
        }))
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
