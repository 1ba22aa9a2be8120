//! `GuidedSearch` and `SelfPlay`: ayo-core's batched search with the network
//! in the loop (`ayo_core::guided`), asked and told from Python. The leaves
//! are written by the core, with the GIL released, straight into numpy
//! arrays this object owns (the caller gets views of them: no copy); the
//! network's answer is read from any array numpy can read as float32 or
//! float64 (float32 and contiguous: read in place).

use std::sync::{Mutex, MutexGuard};

use ayo_core::guided::{
    self, GuidedSearch, Gumbel, Puct, SearchError as CoreError, SearchOptions, Selection, SelfPlay,
    SelfPlayOptions, Values, ACTIONS, OBS,
};
use ayo_core::players::Budget;
use ayo_core::{LeanGame, Rules, Status};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyDict, PySlice};

use crate::alloc;
use crate::errors::{AyoError, Wide, U64};
use crate::game::PyGame;
use crate::network::PyNetwork;
use crate::rules::PyRules;
use crate::vector::rows::out_slice;

pyo3::create_exception!(
    ayo._ayo,
    SearchError,
    AyoError,
    "A guided search's option out of range, a game that is over, or a network answer \
     of the wrong shape, dtype or value."
);

/// A core search error as a Python exception: `MemoryError` when memory ran
/// out, `SearchError` otherwise.
fn search_error(e: CoreError) -> PyErr {
    match e {
        CoreError::OutOfMemory(_) => PyMemoryError::new_err(e.to_string()),
        e => SearchError::new_err(e.to_string()),
    }
}

fn poisoned() -> PyErr {
    AyoError::new_err("the search failed in an earlier call and cannot be used")
}

/// The search options from the keyword arguments.
#[allow(clippy::too_many_arguments)]
fn options(
    simulations: &Wide,
    method: &str,
    c_puct: f64,
    dirichlet_alpha: f64,
    dirichlet_fraction: f64,
    temperature: f64,
    max_considered: &Wide,
    gumbel_scale: f64,
    c_visit: f64,
    c_scale: f64,
    values: &str,
    seed: &Wide,
) -> PyResult<SearchOptions> {
    // Any int: the core's budget check gives the message.
    let simulations = match &simulations.0 {
        Ok(n) => Budget::checked_nodes(*n)
            .map(|_| *n as u64)
            .map_err(|e| search_error(e.into()))?,
        Err(text) => {
            return Err(SearchError::new_err(format!(
                "simulations = {text} is out of range (expected 1 to {})",
                Budget::MAX_NODES
            )))
        }
    };
    let selection = match method {
        "puct" => Selection::Puct(Puct {
            c_puct: c_puct as f32,
            dirichlet_alpha: dirichlet_alpha as f32,
            dirichlet_fraction: dirichlet_fraction as f32,
            temperature: temperature as f32,
        }),
        "gumbel" => Selection::Gumbel(Gumbel {
            max_considered: max_considered.get("max_considered", "1 to 6")?,
            gumbel_scale: gumbel_scale as f32,
            c_visit: c_visit as f32,
            c_scale: c_scale as f32,
        }),
        m => {
            return Err(SearchError::new_err(format!(
                "method must be \"puct\" or \"gumbel\", not {m:?}"
            )))
        }
    };
    let values = match values {
        "outcome" => Values::Outcome,
        "seed_difference" => Values::SeedDifference,
        v => {
            return Err(SearchError::new_err(format!(
                "values must be \"outcome\" or \"seed_difference\", not {v:?}"
            )))
        }
    };
    let opts = SearchOptions {
        simulations,
        selection,
        values,
        seed: seed.get("seed", U64)?,
    };
    opts.check().map_err(search_error)?;
    Ok(opts)
}

/// A network answering in Rust: observations and masks in, logits and values out.
type RustEvaluate<'a> = dyn FnMut(&[f32], &[bool], &mut [f32], &mut [f32]) + 'a;

/// What the Python classes ask and tell: the search, or self-play on it.
trait AskTell: Send {
    fn rows(&self) -> usize;
    fn ask_into(&mut self, obs: &mut [f32], mask: &mut [bool]) -> Result<usize, CoreError>;
    fn tell(&mut self, logits: &[f32], values: &[f32]) -> Result<(), CoreError>;
    fn asked(&self) -> usize;
    /// Asks and tells until done, `evaluate` answering in Rust.
    fn run_with(&mut self, evaluate: &mut RustEvaluate<'_>) -> Result<(), CoreError>;
}

impl AskTell for GuidedSearch {
    fn rows(&self) -> usize {
        self.len()
    }
    fn ask_into(&mut self, obs: &mut [f32], mask: &mut [bool]) -> Result<usize, CoreError> {
        GuidedSearch::ask_into(self, obs, mask)
    }
    fn tell(&mut self, logits: &[f32], values: &[f32]) -> Result<(), CoreError> {
        GuidedSearch::tell(self, logits, values)
    }
    fn asked(&self) -> usize {
        self.leaf_games().len()
    }
    fn run_with(&mut self, evaluate: &mut RustEvaluate<'_>) -> Result<(), CoreError> {
        GuidedSearch::run(self, evaluate).map(|_| ())
    }
}

impl AskTell for SelfPlay {
    fn rows(&self) -> usize {
        self.games()
    }
    fn ask_into(&mut self, obs: &mut [f32], mask: &mut [bool]) -> Result<usize, CoreError> {
        SelfPlay::ask_into(self, obs, mask)
    }
    fn tell(&mut self, logits: &[f32], values: &[f32]) -> Result<(), CoreError> {
        SelfPlay::tell(self, logits, values)
    }
    fn asked(&self) -> usize {
        self.leaves().games.len()
    }
    fn run_with(&mut self, evaluate: &mut RustEvaluate<'_>) -> Result<(), CoreError> {
        SelfPlay::run(self, evaluate).map(|_| ())
    }
}

/// Why `start` failed: the search's error, or one of reading a game.
enum Start {
    Core(CoreError),
    Py(PyErr),
}

impl From<CoreError> for Start {
    fn from(e: CoreError) -> Start {
        Start::Core(e)
    }
}

/// The arrays the leaves are written to, a row a game, made by `start`.
struct Rows {
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
}

impl Rows {
    fn new(py: Python<'_>, n: usize) -> PyResult<Rows> {
        Ok(Rows {
            obs: alloc::zeros(py, &[n, OBS], "a search's observations")?.unbind(),
            mask: alloc::zeros(py, &[n, ACTIONS], "a search's masks")?.unbind(),
        })
    }
}

/// The next round's leaves of `core` as views of `rows`' first rows.
fn leaves<'py, T: AskTell>(
    py: Python<'py>,
    core: &Mutex<T>,
    rows: &Rows,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (obs, mask) = (rows.obs.bind(py), rows.mask.bind(py));
    let n_rows = core.lock_py_attached(py).map_err(|_| poisoned())?.rows();
    // SAFETY: the arrays are this object's own (made by `start`, kept for
    // its life), and this call, under the core's lock, makes the only slices.
    let (o, m) = unsafe {
        (
            out_slice(obs, n_rows * OBS)?,
            out_slice(mask, n_rows * ACTIONS)?,
        )
    };
    let n = py.detach(|| {
        let mut core = core.lock().map_err(|_| poisoned())?;
        core.ask_into(o, m).map_err(search_error)
    })?;
    let slice = PySlice::new(py, 0, n as isize, 1);
    Ok((
        obs.as_any().get_item(&slice)?,
        mask.as_any().get_item(&slice)?,
    ))
}

/// `x` as a float32 array (read in place when it is one, contiguous;
/// converted from float64), checked to hold `shape` (a value array may
/// also be `(n, 1)`).
fn floats<'py>(
    x: &Bound<'py, PyAny>,
    what: &str,
    n: usize,
    width: usize,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, f32>> {
    let fits = |shape: &[usize]| {
        if width == 1 {
            shape == [n] || shape == [n, 1]
        } else {
            shape == [n, width]
        }
    };
    // The common answer, a contiguous float32 array of the right shape, is
    // read as it is, without numpy's conversions (a round's fixed cost).
    if let Ok(arr) = x.cast::<numpy::PyArrayDyn<f32>>() {
        if arr.is_c_contiguous() && fits(arr.shape()) {
            if let Ok(read) = arr.try_readonly() {
                return Ok(read);
            }
        }
    }
    let py = x.py();
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (x,))?;
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let size: usize = dtype.getattr("itemsize")?.extract()?;
    if kind != "f" || !(size == 4 || size == 8) {
        return Err(PyTypeError::new_err(format!(
            "{what} must be float32 or float64, not {}",
            dtype.str()?
        )));
    }
    let arr = np.call_method1("ascontiguousarray", (arr, np.getattr("float32")?))?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if !fits(&shape) {
        let expected = if width == 1 {
            format!("({n},) or ({n}, 1)")
        } else {
            format!("({n}, {width})")
        };
        return Err(SearchError::new_err(format!(
            "{what} must have shape {expected} for {n} leaves, not {shape:?}"
        )));
    }
    Ok(arr.cast_into::<numpy::PyArrayDyn<f32>>()?.readonly())
}

/// Tells `core` the network's answer for the leaves handed out.
fn tell<T: AskTell>(
    py: Python<'_>,
    core: &Mutex<T>,
    logits: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let n = core.lock_py_attached(py).map_err(|_| poisoned())?.asked();
    let l = floats(logits, "logits", n, ACTIONS)?;
    let v = floats(values, "values", n, 1)?;
    let (l, v) = (l.as_slice()?, v.as_slice()?);
    py.detach(|| {
        let mut core = core.lock().map_err(|_| poisoned())?;
        core.tell(l, v).map_err(search_error)
    })
}

/// Asks and tells until no leaf is handed out, `evaluate(obs, mask)`
/// answering each round with `(logits, values)`; an `ayo.Network` answers
/// in Rust, the whole search with the GIL released.
fn run<T: AskTell>(
    py: Python<'_>,
    core: &Mutex<T>,
    rows: &Rows,
    evaluate: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if let Ok(net) = evaluate.cast::<PyNetwork>() {
        let net = net.get().network();
        return py.detach(|| {
            let mut core = core.lock().map_err(|_| poisoned())?;
            core.run_with(&mut |obs, _mask, logits, values| net.evaluate_rows(obs, logits, values))
                .map_err(search_error)
        });
    }
    loop {
        let (obs, mask) = leaves(py, core, rows)?;
        if obs.len()? == 0 {
            return Ok(());
        }
        let answer = evaluate.call1((obs, mask))?;
        let (logits, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) = answer
            .extract()
            .map_err(|_| PyTypeError::new_err("evaluate must return a pair (logits, values)"))?;
        tell(py, core, &logits, &values)?;
    }
}

/// A batched tree search with a network in the loop (PUCT or Gumbel), asked
/// and told. See `docs/search.md`.
#[pyclass(module = "ayo._ayo", name = "GuidedSearch")]
pub(crate) struct PyGuidedSearch {
    core: Mutex<GuidedSearch>,
    rows: Mutex<Option<Rows>>,
}

impl PyGuidedSearch {
    fn rows<'a>(&'a self, py: Python<'_>) -> PyResult<MutexGuard<'a, Option<Rows>>> {
        self.rows.lock_py_attached(py).map_err(|_| poisoned())
    }
}

#[pymethods]
impl PyGuidedSearch {
    #[new]
    #[pyo3(signature = (simulations, *, method = "puct", c_puct = 1.25, dirichlet_alpha = 0.3,
        dirichlet_fraction = 0.25, temperature = 1.0, max_considered = Wide(Ok(6)),
        gumbel_scale = 1.0, c_visit = 50.0, c_scale = 0.1, values = "outcome",
        seed = Wide(Ok(0))),
        text_signature = "(simulations, *, method='puct', c_puct=1.25, dirichlet_alpha=0.3, \
            dirichlet_fraction=0.25, temperature=1.0, max_considered=6, gumbel_scale=1.0, \
            c_visit=50.0, c_scale=0.1, values='outcome', seed=0)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        simulations: Wide,
        method: &str,
        c_puct: f64,
        dirichlet_alpha: f64,
        dirichlet_fraction: f64,
        temperature: f64,
        max_considered: Wide,
        gumbel_scale: f64,
        c_visit: f64,
        c_scale: f64,
        values: &str,
        seed: Wide,
    ) -> PyResult<Self> {
        let opts = options(
            &simulations,
            method,
            c_puct,
            dirichlet_alpha,
            dirichlet_fraction,
            temperature,
            &max_considered,
            gumbel_scale,
            c_visit,
            c_scale,
            values,
            &seed,
        )?;
        Ok(PyGuidedSearch {
            core: Mutex::new(GuidedSearch::new(opts).map_err(search_error)?),
            rows: Mutex::new(None),
        })
    }

    /// Starts a search of every game of `games` (a sequence of `ayo.Game`,
    /// none over), dropping any search under way.
    fn start(&self, py: Python<'_>, games: &Bound<'_, PyAny>) -> PyResult<()> {
        let games: Vec<Bound<'_, PyGame>> = alloc::extract_vec(games, "games", |g| {
            g.cast::<PyGame>()
                .cloned()
                .map_err(|_| PyTypeError::new_err("games must be ayo.Game objects"))
        })?;
        let n = games.len();
        if n > 0 && n <= guided::MAX_BATCH {
            let mut rows = self.rows(py)?;
            // Arrays of this batch's size exactly (the leaves are written
            // through slices of their whole length).
            if rows
                .as_ref()
                .is_none_or(|r| r.obs.bind(py).len() != n * OBS)
            {
                *rows = Some(Rows::new(py, n)?);
            }
        }
        let mut core = self.core.lock_py_attached(py).map_err(|_| poisoned())?;
        // Each game read under its lock straight into the search's slot:
        // a batch's games are read at every search.
        core.start_with(n, |i, slot| {
            let ongoing = games[i]
                .get()
                .with(py, |game| {
                    // Over, or stopped at its ply cap: nothing to search.
                    let ongoing = game.status() == Status::Ongoing;
                    if ongoing {
                        *slot = LeanGame::from_game(game);
                    }
                    ongoing
                })
                .map_err(Start::Py)?;
            if ongoing {
                Ok(())
            } else {
                Err(Start::Core(CoreError::GameOver(i)))
            }
        })
        .map_err(|e| match e {
            Start::Core(e) => search_error(e),
            Start::Py(e) => e,
        })
    }

    /// The next round's leaves: `(obs, mask)`, float32 `(n, 14)` and bool
    /// `(n, 6)`, at most one a game (views of this object's arrays, rewritten
    /// by the next round: no copy); `n == 0` once the search is done. Asked
    /// again before `tell`, the same leaves.
    fn leaves<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let rows = self.rows(py)?;
        let rows = rows
            .as_ref()
            .ok_or_else(|| SearchError::new_err("no search started: call start(games) first"))?;
        leaves(py, &self.core, rows)
    }

    /// The game (index into the batch) of each leaf handed out.
    fn leaf_games<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let core = self.core.lock_py_attached(py).map_err(|_| poisoned())?;
        Ok(PyArray1::from_slice(py, core.leaf_games()))
    }

    /// The network's answer for the leaves handed out: `logits` `(n, 6)`
    /// (illegal actions' ignored) and `values` `(n,)` or `(n, 1)` in
    /// [-1, 1] for the player to move, float32 or float64 arrays (or
    /// anything numpy reads as one). Checked first: on error nothing changes.
    fn tell(
        &self,
        py: Python<'_>,
        logits: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        tell(py, &self.core, logits, values)
    }

    /// Starts a search of `games` and runs it: `evaluate(obs, mask)` is
    /// called once a round and returns `(logits, values)`. The results, as
    /// `results()`.
    #[allow(clippy::type_complexity)]
    fn run<'py>(
        &self,
        py: Python<'py>,
        games: &Bound<'_, PyAny>,
        evaluate: &Bound<'_, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f32>>,
    )> {
        self.start(py, games)?;
        {
            let rows = self.rows(py)?;
            let rows = rows
                .as_ref()
                .ok_or_else(|| SearchError::new_err("no search started"))?;
            run(py, &self.core, rows, evaluate)?;
        }
        self.results(py)
    }

    /// Whether every tree has run its simulations.
    #[getter]
    fn done(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self
            .core
            .lock_py_attached(py)
            .map_err(|_| poisoned())?
            .is_done())
    }

    /// `(actions, policies, values)` of every game, once done: the chosen
    /// actions (int64 `(n,)`), the policy targets (float32 `(n, 6)`) and the
    /// root values for the player to move (float32 `(n,)`).
    #[allow(clippy::type_complexity)]
    fn results<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f32>>,
    )> {
        let core = self.core.lock_py_attached(py).map_err(|_| poisoned())?;
        let results = core.results().map_err(search_error)?;
        let n = results.len();
        let actions = alloc::zeros::<i64, numpy::Ix1>(py, &[n], "the actions")?;
        let policies = alloc::zeros::<f32, numpy::Ix2>(py, &[n, ACTIONS], "the policies")?;
        let values = alloc::zeros::<f32, numpy::Ix1>(py, &[n], "the values")?;
        {
            let mut a = actions.readwrite();
            let mut p = policies.readwrite();
            let mut v = values.readwrite();
            let (a, p, v) = (a.as_slice_mut()?, p.as_slice_mut()?, v.as_slice_mut()?);
            for (i, r) in results.iter().enumerate() {
                a[i] = i64::from(r.action);
                p[i * ACTIONS..(i + 1) * ACTIONS].copy_from_slice(&r.policy);
                v[i] = r.value;
            }
        }
        Ok((actions, policies, values))
    }

    /// The visit counts at each root (uint32 `(n, 6)`), once done.
    fn visits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let core = self.core.lock_py_attached(py).map_err(|_| poisoned())?;
        let results = core.results().map_err(search_error)?;
        let out = alloc::zeros::<u32, numpy::Ix2>(py, &[results.len(), ACTIONS], "the visits")?;
        {
            let mut o = out.readwrite();
            let o = o.as_slice_mut()?;
            for (i, r) in results.iter().enumerate() {
                o[i * ACTIONS..(i + 1) * ACTIONS].copy_from_slice(&r.visits);
            }
        }
        Ok(out)
    }
}

/// Self-play on the guided search, asked and told: `games` games of
/// `rules` played to the end with a search at every move.
#[pyclass(module = "ayo._ayo", name = "SelfPlay")]
pub(crate) struct PySelfPlay {
    core: Mutex<SelfPlay>,
    rows: Rows,
}

#[pymethods]
impl PySelfPlay {
    #[new]
    #[pyo3(signature = (rules, *, games = Wide(Ok(64)), simulations = Wide(Ok(32)),
        max_plies = Wide(Ok(500)), temperature_plies = Wide(Ok(30)), method = "puct",
        c_puct = 1.25, dirichlet_alpha = 0.3, dirichlet_fraction = 0.25, temperature = 1.0,
        max_considered = Wide(Ok(6)), gumbel_scale = 1.0, c_visit = 50.0, c_scale = 0.1,
        values = "outcome", seed = Wide(Ok(0))),
        text_signature = "(rules, *, games=64, simulations=32, max_plies=500, \
            temperature_plies=30, method='puct', c_puct=1.25, dirichlet_alpha=0.3, \
            dirichlet_fraction=0.25, temperature=1.0, max_considered=6, gumbel_scale=1.0, \
            c_visit=50.0, c_scale=0.1, values='outcome', seed=0)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        games: Wide,
        simulations: Wide,
        max_plies: Wide,
        temperature_plies: Wide,
        method: &str,
        c_puct: f64,
        dirichlet_alpha: f64,
        dirichlet_fraction: f64,
        temperature: f64,
        max_considered: Wide,
        gumbel_scale: f64,
        c_visit: f64,
        c_scale: f64,
        values: &str,
        seed: Wide,
    ) -> PyResult<Self> {
        let rules: Rules = PyRules::from_py(rules)?;
        let opts = options(
            &simulations,
            method,
            c_puct,
            dirichlet_alpha,
            dirichlet_fraction,
            temperature,
            &max_considered,
            gumbel_scale,
            c_visit,
            c_scale,
            values,
            &seed,
        )?;
        let range = |name: &str| format!("{name} is 1 to {}", guided::MAX_BATCH);
        let games: usize = games.get("games", &range("games"))?;
        let play = SelfPlayOptions {
            games,
            max_plies: max_plies.get("max_plies", "1 to 100000")?,
            temperature_plies: temperature_plies.get("temperature_plies", "0 to 2**32-1")?,
        };
        opts.check_batch(games).map_err(search_error)?;
        let core = py
            .detach(|| SelfPlay::new(rules, opts, play))
            .map_err(search_error)?;
        Ok(PySelfPlay {
            core: Mutex::new(core),
            rows: Rows::new(py, games)?,
        })
    }

    /// The next round's leaves, as `GuidedSearch.leaves` (the searches of
    /// every game that goes on, move after move); `n == 0` once every game
    /// is over.
    fn leaves<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        leaves(py, &self.core, &self.rows)
    }

    /// The network's answer, as `GuidedSearch.tell`.
    fn tell(
        &self,
        py: Python<'_>,
        logits: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        tell(py, &self.core, logits, values)
    }

    /// Plays every game to the end, `evaluate(obs, mask)` answering each
    /// round; the data, as `data()`.
    fn run<'py>(
        &self,
        py: Python<'py>,
        evaluate: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        run(py, &self.core, &self.rows, evaluate)?;
        self.data(py)
    }

    /// Whether every game is over.
    #[getter]
    fn done(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self
            .core
            .lock_py_attached(py)
            .map_err(|_| poisoned())?
            .is_done())
    }

    /// The training rows, once done, as a dict of numpy arrays: a row a
    /// move, `obs` float32 `(m, 14)`, `mask` bool `(m, 6)`, `policy` float32
    /// `(m, 6)`, `outcome` float32 `(m,)` (the final outcome for the row's
    /// mover), `game` and `ply` uint32 `(m,)`; a row a game, `scores` int16
    /// `(games, 2)` (0 for a truncated game), `winner` int8 (0 South, 1
    /// North, -1 a draw or truncated), `plies` uint32 and `truncated` bool.
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let core = self.core.lock_py_attached(py).map_err(|_| poisoned())?;
        let d = core.data().map_err(search_error)?;
        let m = d.game.len();
        let g = d.outcomes.len();
        let out = PyDict::new(py);
        let obs = alloc::zeros::<f32, numpy::Ix2>(py, &[m, OBS], "the observations")?;
        obs.readwrite().as_slice_mut()?.copy_from_slice(&d.obs);
        out.set_item("obs", obs)?;
        let mask = alloc::zeros::<bool, numpy::Ix2>(py, &[m, ACTIONS], "the masks")?;
        mask.readwrite().as_slice_mut()?.copy_from_slice(&d.mask);
        out.set_item("mask", mask)?;
        let policy = alloc::zeros::<f32, numpy::Ix2>(py, &[m, ACTIONS], "the policies")?;
        policy
            .readwrite()
            .as_slice_mut()?
            .copy_from_slice(&d.policy);
        out.set_item("policy", policy)?;
        let outcome = alloc::zeros::<f32, numpy::Ix1>(py, &[m], "the outcomes")?;
        outcome
            .readwrite()
            .as_slice_mut()?
            .copy_from_slice(&d.outcome);
        out.set_item("outcome", outcome)?;
        let game = alloc::zeros::<u32, numpy::Ix1>(py, &[m], "the games")?;
        game.readwrite().as_slice_mut()?.copy_from_slice(&d.game);
        out.set_item("game", game)?;
        let ply = alloc::zeros::<u32, numpy::Ix1>(py, &[m], "the plies")?;
        ply.readwrite().as_slice_mut()?.copy_from_slice(&d.ply);
        out.set_item("ply", ply)?;
        let scores = alloc::zeros::<i16, numpy::Ix2>(py, &[g, 2], "the scores")?;
        let winner = alloc::zeros::<i8, numpy::Ix1>(py, &[g], "the winners")?;
        let truncated = alloc::zeros::<bool, numpy::Ix1>(py, &[g], "the truncations")?;
        {
            let mut s = scores.readwrite();
            let mut w = winner.readwrite();
            let mut t = truncated.readwrite();
            let (s, w, t) = (s.as_slice_mut()?, w.as_slice_mut()?, t.as_slice_mut()?);
            for (i, o) in d.outcomes.iter().enumerate() {
                match o {
                    Some(o) => {
                        s[2 * i] = o.scores[0] as i16;
                        s[2 * i + 1] = o.scores[1] as i16;
                        w[i] = o.winner.map_or(-1, |p| p.index() as i8);
                    }
                    None => {
                        w[i] = -1;
                        t[i] = true;
                    }
                }
            }
        }
        out.set_item("scores", scores)?;
        out.set_item("winner", winner)?;
        out.set_item("truncated", truncated)?;
        let plies = alloc::zeros::<u32, numpy::Ix1>(py, &[g], "the plies")?;
        plies.readwrite().as_slice_mut()?.copy_from_slice(&d.plies);
        out.set_item("plies", plies)?;
        Ok(out)
    }
}

/// Registers the classes and the exception.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SearchError", m.py().get_type::<SearchError>())?;
    m.add_class::<PyGuidedSearch>()?;
    m.add_class::<PySelfPlay>()?;
    Ok(())
}
