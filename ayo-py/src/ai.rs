//! The computer players of ayo-core (`ayo_core::players`) and the `perfect`
//! level of ayo-solve (`ayo_solve::perfect`) for Python: `Player` (a level,
//! a kind with a budget, or perfect play over a `Database`), `Analysis` and
//! `MoveValue`.
//!
//! Only translation: every choice and every value is the Rust player's. A
//! game crosses over as its record (start position and moves), so the player
//! sees the whole history (repetition) exactly as a Rust caller would; the
//! search runs with the GIL released.

use std::str::FromStr;
use std::sync::{Arc, Mutex};

use ayo_core::players::{self, Agent, Basis, Bound as SearchBound, Budget, Kind, Level, Value};
use ayo_core::{Game, Move};
use ayo_solve::engine::Engine;
use ayo_solve::perfect::{CountedPerfect, Perfect};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use crate::counted::PyCountedDatabase;
use crate::errors::{self, AyoError, Real, Text, Wide, U64};
use crate::solve::PyDatabase;

/// The name of a bound, as Python sees it.
fn bound_name(b: SearchBound) -> &'static str {
    match b {
        SearchBound::Exact => "exact",
        SearchBound::Lower => "lower",
        SearchBound::Upper => "upper",
        SearchBound::Estimate => "estimate",
    }
}

/// The value in seeds (final difference for a proven result).
fn seeds(v: Value) -> f64 {
    v.seeds()
}

/// One legal move and the player's value of it.
#[pyclass(name = "MoveValue", module = "ayo._ayo", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyMoveValue {
    /// The action, 0..5, relative to the player to move.
    action: u8,
    /// The value in seeds for the player to move (the final seed difference
    /// for a game end the search found).
    value: f64,
    /// The final seed difference when the value is proven (`basis` "proven").
    proven: Option<i32>,
    /// The value as a number: "exact" (the value itself, not a bound; proven
    /// only when `basis` says so), "lower", "upper" or "estimate".
    bound: &'static str,
    /// Where the value comes from: "proven", "search" (cut off at a depth:
    /// not a proof), "lower" or "upper" (a bound), "convention" (the value
    /// under the convention for endless play, not proven) or "estimate".
    basis: &'static str,
    /// What proved the value or the bound: "database", "complete search" or None.
    proof: Option<&'static str>,
    /// The basis in words: "proven by the databases", "search, depth 13", ...
    label: String,
    /// The value in words: "+1.25", "win by 6", "loss by 2".
    text: String,
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        format!(
            "MoveValue(action={}, value={}, basis='{}')",
            self.action, self.text, self.label
        )
    }
}

/// What a player thinks of a position.
#[pyclass(name = "Analysis", module = "ayo._ayo", frozen, get_all)]
pub(crate) struct PyAnalysis {
    /// The move the player would choose (action 0..5), None when the game is over.
    best: Option<u8>,
    /// The value of the position for the player to move, in seeds.
    value: f64,
    /// The final seed difference when the value is proven (`basis` "proven").
    proven: Option<i32>,
    /// The value as a number: "exact" (the value itself, not a bound; proven
    /// only when `basis` says so), "lower", "upper" or "estimate".
    bound: &'static str,
    /// Where the value comes from: "proven", "search" (cut off at a depth:
    /// not a proof), "lower" or "upper" (a bound), "convention" (the value
    /// under the convention for endless play, not proven) or "estimate".
    basis: &'static str,
    /// What proved the value or the bound: "database", "complete search" or None.
    proof: Option<&'static str>,
    /// The basis in words: "proven by the databases", "search, depth 13", ...
    label: String,
    /// The value in words: "+1.25", "win by 6", "loss by 2".
    text: String,
    /// The principal variation: actions 0..5, each relative to its own mover.
    // u32, not u8: a `Vec<u8>` would reach Python as `bytes`, not a list.
    pv: Vec<u32>,
    /// Every legal move with its value, in ascending action order.
    moves: Vec<PyMoveValue>,
    /// Plies searched (the last completed iteration for alpha-beta).
    depth: u32,
    /// Nodes visited (alpha-beta) or simulations run (MCTS).
    nodes: u64,
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "Analysis(best={}, value={}, basis='{}', pv={:?}, depth={}, nodes={})",
            self.best
                .map_or_else(|| "None".to_string(), |a| a.to_string()),
            self.text,
            self.label,
            self.pv,
            self.depth,
            self.nodes
        )
    }
}

fn move_value(mv: Move, value: Value, basis: Basis) -> PyMoveValue {
    PyMoveValue {
        action: mv.action(),
        value: seeds(value),
        proven: value.proven_by(basis),
        bound: bound_name(basis.bound()),
        basis: basis.name(),
        proof: basis.proof().map(|p| p.name()),
        label: basis.to_string(),
        text: value.to_string(),
    }
}

fn analysis(a: players::Analysis) -> PyAnalysis {
    PyAnalysis {
        best: a.best.map(Move::action),
        value: seeds(a.value),
        proven: a.value.proven_by(a.basis),
        bound: bound_name(a.basis.bound()),
        basis: a.basis.name(),
        proof: a.basis.proof().map(|p| p.name()),
        label: a.basis.to_string(),
        text: a.value.to_string(),
        pv: a.pv.iter().map(|m| u32::from(m.action())).collect(),
        moves: a
            .moves
            .iter()
            .map(|m| move_value(m.mv, m.value, m.basis))
            .collect(),
        depth: a.depth,
        nodes: a.nodes,
    }
}

/// The budget of at most one of `depth`, `nodes` and `time` (seconds), checked
/// by ayo-core (`Budget::checked`, the C binding's check); `default` when none
/// is given.
fn budget_of(
    depth: Option<Wide>,
    nodes: Option<Wide>,
    time: Option<Real>,
    default: Budget,
) -> PyResult<Budget> {
    // Beyond an i128 or an f64 is out of every budget's range: said here,
    // never as an OverflowError; the core checks the rest.
    let depth = Wide::opt::<i128>(depth.as_ref(), "depth", "an int 1..=2**32-1")?;
    let nodes = Wide::opt::<i128>(nodes.as_ref(), "nodes", "an int 1..=10**9")?;
    let time = Real::opt(time.as_ref(), "time", "a number of seconds in (0, 86400]")?;
    Budget::checked(depth, nodes, time)
        .map(|b| b.unwrap_or(default))
        .map_err(|e| AyoError::new_err(e.to_string()))
}

/// A computer player: a level (1..8 or "max"), a kind with a budget, or
/// perfect play over endgame databases (`Player.perfect`).
///
/// Deterministic: two players made alike (same level or kind and budget,
/// same seed) shown the same games make the same choices, the same as the
/// Rust player with that seed. A Player is callable (`player(game)` is
/// `player.choose(game)`), so it can be the Gymnasium environment's
/// `opponent=`.
#[pyclass(name = "Player", module = "ayo._ayo", frozen)]
pub(crate) struct PyPlayer {
    agent: Arc<Mutex<Engine>>,
    name: String,
    level: Option<String>,
    kind: &'static str,
    budget: Budget,
    seed: u64,
    /// A `Database` or a `CountedDatabase`.
    database: Option<Py<PyAny>>,
}

/// The game behind a Python `ayo.Game`, rebuilt from its record, and whether
/// the Python game was stopped at its ply cap (the rebuilt game has none, so
/// that a search may look past it).
fn game_of(obj: &Bound<'_, PyAny>) -> PyResult<(Game, bool)> {
    let py = obj.py();
    let bad = |_| AyoError::new_err("expected an ayo.Game");
    let text: String = obj
        .call_method0("record")
        .and_then(|r| r.extract())
        .map_err(bad)?;
    let status: String = obj
        .getattr("status")
        .and_then(|s| s.extract())
        .map_err(bad)?;
    let game = Game::from_record(&text).map_err(|e| errors::record(py, e))?;
    Ok((game, status == "truncated"))
}

fn level_from(obj: &Bound<'_, PyAny>) -> PyResult<Level> {
    let text = if let Ok(n) = obj.extract::<i64>() {
        n.to_string()
    } else if let Ok(s) = obj.extract::<String>() {
        s
    } else {
        return Err(AyoError::new_err(
            "a level is 1 to 8, \"max\" or \"learned\"",
        ));
    };
    let text = text.trim();
    if text.eq_ignore_ascii_case("perfect") {
        return Err(AyoError::new_err(PERFECT_NEEDS_DB));
    }
    Level::from_str(text).map_err(AyoError::new_err)
}

/// The error of a player whose lock was poisoned (a panic during an earlier search).
fn poisoned() -> PyErr {
    AyoError::new_err("the player failed in an earlier call and cannot be used")
}

/// Why `Player("perfect")` cannot be made.
const PERFECT_NEEDS_DB: &str =
    "level perfect plays from endgame databases: Player.perfect(Database.open(rules, dir))";

/// `describe_level("perfect")`.
const PERFECT_DESCRIPTION: &str =
    "perfect: exact play from endgame databases (level max where they cannot answer)";

impl PyPlayer {
    /// A player of an agent made elsewhere (`ayo.Network.player`).
    pub(crate) fn from_agent(
        agent: Box<dyn Agent>,
        kind: &'static str,
        budget: Budget,
        seed: u64,
    ) -> PyResult<PyPlayer> {
        let name = agent.name();
        Ok(PyPlayer {
            agent: Arc::new(Mutex::new(Engine::from(agent))),
            name,
            level: None,
            kind,
            budget,
            seed,
            database: None,
        })
    }

    fn run<T: Send>(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        allow_truncated: bool,
        f: impl FnOnce(&mut dyn Agent, &Game) -> T + Send,
    ) -> PyResult<T> {
        let (game, truncated) = game_of(game)?;
        if truncated && !allow_truncated {
            return Err(AyoError::new_err(
                "the game is over (stopped at its ply cap): no move to choose",
            ));
        }
        let agent = Arc::clone(&self.agent);
        py.detach(move || {
            let mut guard = agent.lock().map_err(|_| poisoned())?;
            let agent = guard.agent_mut();
            // Its tables first: memory running out is a MemoryError, never an abort.
            agent
                .prepare(game.rules())
                .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
            Ok(f(agent, &game))
        })
    }
}

#[pymethods]
impl PyPlayer {
    /// The player of `level` (1..8 or "max"), seeded by `seed`.
    #[new]
    #[pyo3(signature = (level = None, *, seed = Wide(Ok(0))),
        text_signature = "(level=None, *, seed=0)")]
    fn new(level: Option<&Bound<'_, PyAny>>, seed: Wide) -> PyResult<Self> {
        let seed: u64 = seed.get("seed", U64)?;
        let level = match level {
            Some(obj) => level_from(obj)?,
            None => Level::new(4).ok_or_else(|| AyoError::new_err("no level 4"))?,
        };
        let (kind, budget) = level.spec();
        Ok(PyPlayer {
            agent: Arc::new(Mutex::new(Engine::from(level.player(seed)))),
            name: players::levels::describe(level),
            level: Some(level.to_string()),
            kind: kind.name(),
            budget,
            seed,
            database: None,
        })
    }

    /// A player of `kind` ("random", "greedy", "alphabeta" or "mcts") with
    /// at most one budget: `depth` plies (1 to 2**32 - 1), `nodes` (MCTS:
    /// simulations; 1 to 10**9) or `time` seconds (more than 0, at most
    /// 86400; not reproducible); default depth 4. Any other budget raises
    /// `AyoError` with ayo-core's message (the C library's limits).
    #[staticmethod]
    #[pyo3(signature = (kind, *, depth = None, nodes = None, time = None, seed = Wide(Ok(0))),
        text_signature = "(kind, *, depth=None, nodes=None, time=None, seed=0)")]
    fn from_kind(
        kind: Text,
        depth: Option<Wide>,
        nodes: Option<Wide>,
        time: Option<Real>,
        seed: Wide,
    ) -> PyResult<Self> {
        let seed: u64 = seed.get("seed", U64)?;
        let kind = Kind::from_str(&kind.0).map_err(AyoError::new_err)?;
        let budget = budget_of(depth, nodes, time, Budget::Depth(4))?;
        let agent = players::new_player(kind, budget, seed);
        let name = agent.name();
        Ok(PyPlayer {
            agent: Arc::new(Mutex::new(Engine::from(agent))),
            name,
            level: None,
            kind: kind.name(),
            budget,
            seed,
            database: None,
        })
    }

    /// The `perfect` level: optimal moves over `database` (a `Database`, or a
    /// `CountedDatabase` for rules with a move limit; shared, not
    /// copied). Each move's exact value is read from the databases when the
    /// board is held, else searched above them within `nodes` expanded
    /// boards or `time` seconds a move (at most one, checked as for
    /// `from_kind`; default 2,000,000 nodes). Under a repetition rule
    /// (`oware`) the values are the game's under it, the game's history
    /// deciding which position repeats. Where that cannot answer (rules other than the databases',
    /// or the budget ran out) it plays as level "max" (with a time budget:
    /// alpha-beta with the same time); `source` says which and `fallback`
    /// names it. Values in `analyze` are proven final seed differences (play
    /// to the end), except under the fallback, whose analysis is its own.
    #[staticmethod]
    #[pyo3(signature = (database, *, nodes = None, time = None, seed = Wide(Ok(0))),
        text_signature = "(database, *, nodes=None, time=None, seed=0)")]
    fn perfect(
        database: Bound<'_, PyAny>,
        nodes: Option<Wide>,
        time: Option<Real>,
        seed: Wide,
    ) -> PyResult<Self> {
        let seed: u64 = seed.get("seed", U64)?;
        let default = Budget::Nodes(ayo_solve::perfect::DEFAULT_NODES);
        let budget = budget_of(None, nodes, time, default)?;
        let engine = if let Ok(d) = database.cast::<PyDatabase>() {
            Engine::from(Perfect::new(Arc::clone(&d.get().db), budget, seed))
        } else if let Ok(d) = database.cast::<PyCountedDatabase>() {
            Engine::from(CountedPerfect::new(Arc::clone(&d.get().db), budget, seed))
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "Player.perfect takes an ayo.Database or an ayo.CountedDatabase",
            ));
        };
        let name = engine.agent().name();
        Ok(PyPlayer {
            agent: Arc::new(Mutex::new(engine)),
            name,
            level: Some("perfect".to_string()),
            kind: "perfect",
            budget,
            seed,
            database: Some(database.unbind()),
        })
    }

    /// Where the last `choose` or `analyze` got its answer, for a perfect
    /// player: "none" (nothing asked yet, or the game was over), "database",
    /// "search" (exact, searched above the databases) or "fallback" (level
    /// "max": other rules, or the budget ran out). None for other players.
    #[getter]
    fn source(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        let agent = Arc::clone(&self.agent);
        py.detach(move || {
            let guard = agent.lock().map_err(|_| poisoned())?;
            Ok(guard.last_source().map(|s| s.name()))
        })
    }

    /// What a perfect player falls back to where the databases and the exact
    /// search cannot answer (`source` "fallback"), e.g. "level max
    /// (alphabeta(nodes=300000))"; None for other players.
    #[getter]
    fn fallback(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let agent = Arc::clone(&self.agent);
        py.detach(move || {
            let guard = agent.lock().map_err(|_| poisoned())?;
            Ok(guard.fallback_name())
        })
    }

    /// The databases of a perfect player (the same object it was made
    /// with), None for other players.
    #[getter]
    fn database(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.database.as_ref().map(|d| d.clone_ref(py))
    }

    /// The levels, weakest first: "1" .. "8", "max".
    #[staticmethod]
    fn levels() -> Vec<String> {
        Level::ALL.iter().map(ToString::to_string).collect()
    }

    /// A level's player and budget in words, e.g. "4: alphabeta(depth=4)".
    #[staticmethod]
    fn describe_level(level: &Bound<'_, PyAny>) -> PyResult<String> {
        if level
            .extract::<String>()
            .is_ok_and(|s| s.trim().eq_ignore_ascii_case("perfect"))
        {
            return Ok(PERFECT_DESCRIPTION.to_string());
        }
        Ok(players::levels::describe(level_from(level)?))
    }

    /// The kind and budget `level` (1..8 or "max") plays with in games of
    /// `rules` (a `Rules` or a preset name), e.g. ("mcts", "nodes=12") for
    /// level 4 in `ayo`: games with collect-on-4 captures have their own
    /// table (`Level::spec_for`).
    #[staticmethod]
    fn level_spec(
        level: &Bound<'_, PyAny>,
        rules: &Bound<'_, PyAny>,
    ) -> PyResult<(&'static str, String)> {
        let rules = crate::rules::PyRules::from_py(rules)?;
        let (kind, budget) = level_from(level)?.spec_for(&rules);
        Ok((kind.name(), budget.to_string()))
    }

    /// The player's kind and budget, e.g. "alphabeta(depth=4)".
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The level ("1".."8", "max" or "perfect"), None for a player made by kind.
    #[getter]
    fn level(&self) -> Option<&str> {
        self.level.as_deref()
    }

    /// "random", "greedy", "alphabeta", "mcts" or "perfect". For a level:
    /// its standard table's kind (in collect-on-4 games a level plays its
    /// other budget, which `name` also gives).
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind
    }

    /// The budget as text: "depth=4", "nodes=20000" or "time=250ms" (for a
    /// level: its standard table's, as for `kind`).
    #[getter]
    fn budget(&self) -> String {
        self.budget.to_string()
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The move to play in `game`'s current position: an action 0..5
    /// relative to the player to move. Raises AyoError when the game is
    /// over or stopped at its ply cap.
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<u8> {
        let mv = self.run(py, game, false, |agent, g| agent.choose(g))?;
        mv.map(Move::action)
            .ok_or_else(|| AyoError::new_err("the game is over: no move to choose"))
    }

    /// The analysis of `game`'s current position: best move, value with its
    /// basis (proven, a depth-limited search, a bound or an estimate),
    /// principal variation and the value of every legal move (a game stopped
    /// at its ply cap is analysed as if it went on).
    fn analyze(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<PyAnalysis> {
        Ok(analysis(
            self.run(py, game, true, |agent, g| agent.analyze(g))?,
        ))
    }

    /// `choose(game)`: a Player is an opponent for `ayo.envs.AyoEnv`.
    fn __call__(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<u8> {
        self.choose(py, game)
    }

    fn __repr__(&self) -> String {
        if self.database.is_some() {
            return format!(
                "Player.perfect(..., {}, seed={}): {}",
                self.budget, self.seed, self.name
            );
        }
        match &self.level {
            Some(l) => format!("Player(level='{l}', seed={}): {}", self.seed, self.name),
            None => format!(
                "Player.from_kind('{}', {}, seed={})",
                self.kind, self.budget, self.seed
            ),
        }
    }
}

/// Registers `Player`, `Analysis` and `MoveValue` in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPlayer>()?;
    m.add_class::<PyAnalysis>()?;
    m.add_class::<PyMoveValue>()?;
    Ok(())
}

impl PyPlayer {
    /// The level this player was made from (not `perfect`), if any.
    pub(crate) fn level_value(&self) -> Option<Level> {
        self.level.as_deref().and_then(|l| Level::from_str(l).ok())
    }

    /// The kind and budget of a player made by kind (`None` for `perfect`).
    pub(crate) fn spec(&self) -> Option<(Kind, Budget)> {
        Kind::from_str(self.kind).ok().map(|k| (k, self.budget))
    }
}
