//! `Game` and `Outcome`: a game with its history, over the core's `Game`.

use std::sync::{Mutex, MutexGuard};

use ayo_core::trace::{LapEnd, Trace};
use ayo_core::{
    record, EndReason, Game, IllegalMove, Move, Outcome, Player, Position, Rules, Setup, Status,
};
use numpy::PyArray1;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyDict, PyList, PyType};
use pyo3::IntoPyObjectExt;
use rand::SeedableRng;

use crate::errors::{self, AyoError, RecText, RulesError, Text, Wide, U32, U64};
use crate::rules::{player_from_index, PyRules};

/// How a game ended.
#[pyclass(name = "Outcome", module = "ayo._ayo", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyOutcome {
    pub(crate) inner: Outcome,
}

/// The snake_case name of an end reason.
fn reason_name(r: EndReason) -> &'static str {
    match r {
        EndReason::Target => "target",
        EndReason::MoveLimit => "move_limit",
        EndReason::Repetition => "repetition",
        EndReason::NoLegalMove => "no_legal_move",
    }
}

const REASONS: [EndReason; 4] = [
    EndReason::Target,
    EndReason::MoveLimit,
    EndReason::Repetition,
    EndReason::NoLegalMove,
];

#[pymethods]
impl PyOutcome {
    /// An outcome from its fields; the winner must agree with the scores.
    #[new]
    fn new(winner: Option<Wide>, reason: Text, scores: (Wide, Wide)) -> PyResult<Self> {
        let reason = reason.0.as_str();
        let scores: (u16, u16) = (
            scores.0.get("scores[0]", "an int 0..=65535")?,
            scores.1.get("scores[1]", "an int 0..=65535")?,
        );
        let winner: Option<i64> = Wide::opt(winner.as_ref(), "winner", "0, 1 or None")?;
        let reason = REASONS.into_iter().find(|r| reason_name(*r) == reason).ok_or_else(|| {
            AyoError::new_err(format!(
                "`{reason}` is not an end reason; expected target, move_limit, repetition or no_legal_move"
            ))
        })?;
        let inner = Outcome::from_scores([scores.0, scores.1], reason);
        let given = match winner {
            None => None,
            Some(i) => Some(
                player_from_index(i)
                    .ok_or_else(|| AyoError::new_err("winner must be 0, 1 or None"))?,
            ),
        };
        if given != inner.winner {
            return Err(AyoError::new_err(
                "the winner does not agree with the scores",
            ));
        }
        Ok(PyOutcome { inner })
    }

    /// The winner (0 = South, 1 = North), or None for a draw.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.inner.winner.map(Player::index)
    }
    /// "target", "move_limit", "repetition" or "no_legal_move".
    #[getter]
    fn reason(&self) -> &'static str {
        reason_name(self.inner.reason)
    }
    /// Final seeds of South and North.
    #[getter]
    fn scores(&self) -> (u16, u16) {
        (self.inner.scores[0], self.inner.scores[1])
    }
    /// +1 if `player` won, -1 if they lost, 0 for a draw.
    fn result_for(&self, player: i64) -> PyResult<i32> {
        let p =
            player_from_index(player).ok_or_else(|| AyoError::new_err("player must be 0 or 1"))?;
        Ok(self.inner.result_for(p))
    }
    fn __repr__(&self) -> String {
        let winner = self
            .winner()
            .map_or_else(|| "None".to_owned(), |w| w.to_string());
        format!(
            "Outcome(winner={winner}, reason='{}', scores=({}, {}))",
            self.reason(),
            self.inner.scores[0],
            self.inner.scores[1]
        )
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    /// Pickle (every protocol): `Outcome(winner, reason, scores)`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (Option<usize>, &'static str, (u16, u16)),
    ) {
        let o = slf.get();
        (slf.get_type(), (o.winner(), o.reason(), o.scores()))
    }
}

/// A game: the rules, the start position, the moves played (for undo and
/// repetition), the legal moves and the outcome.
///
/// The class is frozen and its game sits in a mutex, so that calls on one
/// game from several threads take turns (on either interpreter) instead of
/// failing on a borrow. The lock is held only while Rust reads or changes
/// the game: arguments are converted before it is taken, and Python results
/// and errors are made after it is released (they run Python code, which
/// could call this game again).
#[pyclass(name = "Game", module = "ayo._ayo", frozen, eq)]
pub(crate) struct PyGame {
    inner: Mutex<Game>,
}

/// A game whose lock was poisoned: a panic while it was held (never expected).
fn poisoned() -> PyErr {
    AyoError::new_err("the game failed in an earlier call and cannot be used")
}

impl PartialEq for PyGame {
    fn eq(&self, other: &PyGame) -> bool {
        if std::ptr::eq(self, other) {
            return true;
        }
        // One lock at a time (two threads comparing a == b and b == a must
        // not wait for each other); a poisoned game equals nothing.
        Python::attach(|py| {
            let Ok(mine) = self.snapshot(py) else {
                return false;
            };
            other.with(py, |g| *g == mine).unwrap_or(false)
        })
    }
}

impl PyGame {
    /// A Python game holding `game`.
    pub(crate) fn from_game(game: Game) -> PyGame {
        PyGame {
            inner: Mutex::new(game),
        }
    }

    /// The game, locked (waiting for another thread without holding the GIL).
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Game>> {
        self.inner.lock_py_attached(py).map_err(|_| poisoned())
    }

    /// `f` of the game, under its lock (`f` must not call Python).
    pub(crate) fn with<T>(&self, py: Python<'_>, f: impl FnOnce(&Game) -> T) -> PyResult<T> {
        let game = self.lock(py)?;
        Ok(f(&game))
    }

    /// `f` of the game, changing it, under its lock (`f` must not call Python).
    fn with_mut<T>(&self, py: Python<'_>, f: impl FnOnce(&mut Game) -> T) -> PyResult<T> {
        let mut game = self.lock(py)?;
        Ok(f(&mut game))
    }

    /// A copy of the game as it is now.
    pub(crate) fn snapshot(&self, py: Python<'_>) -> PyResult<Game> {
        self.with(py, Game::clone)
    }
}

/// Parses a position record. With `rules` given, the record may leave out its
/// rules field, and rules it names must be these.
fn parse_position(
    py: Python<'_>,
    text: &str,
    rules: Option<&Rules>,
) -> PyResult<(Rules, Position)> {
    let fields = text.split_ascii_whitespace().count();
    let (found, pos) = match rules {
        Some(r) if fields == 5 => {
            let prefix = record::rules_to_text(r);
            let full = format!("{prefix} {text}");
            record::parse_position(&full).map_err(|mut e| {
                e.offset = e.offset.saturating_sub(prefix.len() + 1);
                errors::record_in(py, e, text)
            })?
        }
        _ => record::parse_position(text).map_err(|e| errors::record_in(py, e, text))?,
    };
    match rules {
        Some(given) if *given != found => Err(RulesError::new_err(format!(
            "the position record is for rules {}, not {}",
            record::rules_to_text(&found),
            record::rules_to_text(given)
        ))),
        _ => Ok((found, pos)),
    }
}

/// A Python int argument (anything with `__index__`, numpy integers included):
/// its value, or its text when it does not fit an `i64`. Other types raise `TypeError`.
pub(crate) struct Int(Result<i64, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(i) => Ok(Int(Ok(i))),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Int(Err(obj.str()?.to_string())))
            }
            Err(e) => Err(e),
        }
    }
}

/// `IllegalMoveError` with reason `kind` for a `bool` given as a move.
fn not_bool(obj: &Bound<'_, PyAny>, kind: &str, what: &str) -> PyResult<()> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(errors::illegal_kind(
            obj.py(),
            kind,
            format!("{} is a bool, not {what} (an int)", obj.str()?),
        ));
    }
    Ok(())
}

/// The move for a mover-relative action, or why there is none.
fn action_move(pos: &Position, action: &Int) -> Result<Move, Illegal> {
    let a = match action.0 {
        Ok(a) => a,
        Err(ref big) => {
            return Err(Illegal::Big(
                "action_out_of_range",
                format!("action {big} is out of range (actions are 0..=5)"),
            ))
        }
    };
    let small = u8::try_from(a).map_err(|_| IllegalMove::ActionOutOfRange { action: a })?;
    Ok(pos.move_for_action(small)?)
}

/// An illegal move: the core's reason, or a number too large for it.
enum Illegal {
    Core(IllegalMove),
    Big(&'static str, String),
}

impl From<IllegalMove> for Illegal {
    fn from(e: IllegalMove) -> Illegal {
        Illegal::Core(e)
    }
}

impl Illegal {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Illegal::Core(e) => errors::illegal(py, e),
            Illegal::Big(kind, message) => errors::illegal_kind(py, kind, message),
        }
    }
}

/// `len` seed counts (0..=255) from any iterable of ints (a list, a tuple, a numpy array).
fn counts(obj: &Bound<'_, PyAny>, what: &str, len: usize) -> PyResult<Vec<u8>> {
    let py = obj.py();
    let mut out = Vec::with_capacity(len);
    for (i, item) in obj.try_iter()?.enumerate() {
        let n: Int = item?.extract()?;
        match n.0.as_ref().ok().and_then(|&n| u8::try_from(n).ok()) {
            Some(n) => out.push(n),
            None => {
                return Err(errors::setup_problem(
                    py,
                    format!(
                        "{what}[{i}] = {} is not a seed count 0..=255",
                        item_text(&n)
                    ),
                ))
            }
        }
    }
    if out.len() != len {
        return Err(errors::setup_problem(
            py,
            format!("{what} has {} entries; expected {len}", out.len()),
        ));
    }
    Ok(out)
}

fn item_text(n: &Int) -> String {
    match &n.0 {
        Ok(i) => i.to_string(),
        Err(big) => big.clone(),
    }
}

/// A counter argument that must fit `T` (and be non-negative).
fn in_range<T: TryFrom<i64>>(n: &Int, what: &str) -> PyResult<T> {
    n.0.as_ref()
        .ok()
        .and_then(|&i| T::try_from(i).ok())
        .ok_or_else(|| AyoError::new_err(format!("{what} = {} is out of range", item_text(n))))
}

/// A JSON value as a Python object.
fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    match v {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py),
            (None, Some(u)) => u.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(json_to_py(py, x)?)?;
            }
            Ok(l.into_any())
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            Ok(d.into_any())
        }
    }
}

fn lap_end_name(e: LapEnd) -> &'static str {
    match e {
        LapEnd::EmptyPit => "empty_pit",
        LapEnd::Occupied => "occupied",
        LapEnd::MadeFour => "made_four",
        LapEnd::TwoThree => "two_three",
    }
}

/// The sowing of `action` in `game`, or why it cannot be played.
fn trace_in(game: &Game, action: &Int) -> Result<Trace, Illegal> {
    let mv = action_move(game.position(), action)?;
    Ok(game.trace(mv)?)
}

/// Board and stores as float32 values, seen from `perspective`.
fn observation_of(pos: &Position, perspective: &str) -> Option<Vec<f32>> {
    let pos = match perspective {
        "mover" => pos.normalized(),
        "absolute" => *pos,
        _ => return None,
    };
    let mut v: Vec<f32> = pos.board().iter().map(|&s| f32::from(s)).collect();
    v.extend(pos.stores().iter().map(|&s| f32::from(s)));
    Some(v)
}

impl PyGame {
    /// The position now.
    fn position(&self, py: Python<'_>) -> PyResult<Position> {
        self.with(py, |g| *g.position())
    }

    fn trace_of(&self, py: Python<'_>, action: &Int) -> PyResult<Trace> {
        // The error is made once the lock is released.
        self.with(py, |g| trace_in(g, action))?
            .map_err(|e| e.into_py(py))
    }

    /// What a playout starts from: the rules, the position, and the outcome
    /// when the game has already ended (by repetition too, which needs the history).
    fn playout_start(&self, py: Python<'_>) -> PyResult<(Rules, Position, Option<Outcome>)> {
        self.with(py, |g| (*g.rules(), *g.position(), g.outcome()))
    }

    /// The state kept by pickle: the game record and the ply cap.
    fn state(&self, py: Python<'_>) -> PyResult<(String, Option<u32>)> {
        self.with(py, |g| (g.record(), g.ply_cap()))
    }

    fn from_state(py: Python<'_>, record_text: &str, ply_cap: Option<u32>) -> PyResult<Game> {
        let mut g =
            Game::from_record(record_text).map_err(|e| errors::record_in(py, e, record_text))?;
        g.set_ply_cap(ply_cap);
        Ok(g)
    }
}

#[pymethods]
impl PyGame {
    /// A new game: `rules` is a `Rules` or a preset name (default "ayoayo");
    /// `position` is a position record to start from (its rules must match
    /// `rules` when both are given; the rules field may be left out).
    #[new]
    #[pyo3(signature = (rules = None, position = None))]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        position: Option<RecText>,
    ) -> PyResult<Self> {
        let rules = rules.map(PyRules::from_py).transpose()?;
        let position = position.as_ref().map(|t| t.0.as_str());
        let inner = match position {
            None => Game::new(rules.unwrap_or_default()),
            Some(text) => {
                let (r, pos) = parse_position(py, text, rules.as_ref())?;
                Game::from_position(r, pos)
            }
        };
        Ok(PyGame::from_game(inner))
    }

    /// A game from a game record (start position ` | ` moves), every move replayed and checked.
    #[staticmethod]
    fn from_record(py: Python<'_>, text: RecText) -> PyResult<Self> {
        let text = text.0.as_str();
        Game::from_record(text)
            .map(PyGame::from_game)
            .map_err(|e| errors::record_in(py, e, text))
    }

    /// A game from any board: 12 pits (South's 0..=5, North's 6..=11), two
    /// stores, the player to move (0 or 1) and the counters. Raises
    /// `SetupError` listing every problem.
    #[staticmethod]
    #[pyo3(signature = (rules, board, stores, to_move = Int(Ok(0)), no_capture = Int(Ok(0)), ply = Int(Ok(0))),
        text_signature = "(rules, board, stores, to_move=0, no_capture=0, ply=0)")]
    fn from_setup(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        board: &Bound<'_, PyAny>,
        stores: &Bound<'_, PyAny>,
        to_move: Int,
        no_capture: Int,
        ply: Int,
    ) -> PyResult<Self> {
        let rules = PyRules::from_py(rules)?;
        let board: [u8; 12] = counts(board, "board", 12)?
            .try_into()
            .map_err(|_| errors::setup_problem(py, "board needs 12 pits".to_owned()))?;
        let stores = counts(stores, "stores", 2)?;
        let to_move = match to_move.0 {
            Ok(i) => player_from_index(i),
            Err(_) => None,
        }
        .ok_or_else(|| {
            errors::setup_problem(py, "to_move must be 0 (South) or 1 (North)".to_owned())
        })?;
        let setup = Setup {
            board,
            stores: [stores[0], stores[1]],
            to_move,
            no_capture: in_range(&no_capture, "no_capture")
                .map_err(|e| errors::setup_problem(py, e.value(py).to_string()))?,
            ply: in_range(&ply, "ply")
                .map_err(|e| errors::setup_problem(py, e.value(py).to_string()))?,
        };
        Game::from_setup(rules, &setup)
            .map(PyGame::from_game)
            .map_err(|e| errors::setup(py, e))
    }

    /// The rules.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<PyRules> {
        self.with(py, |g| PyRules { inner: *g.rules() })
    }

    /// Seeds in pits 0..=11 (a new uint8 array).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let board = self.position(py)?.board();
        Ok(PyArray1::from_slice(py, &board))
    }

    /// Seeds in South's and North's stores (a new uint8 array).
    #[getter]
    fn stores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let stores = self.position(py)?.stores();
        Ok(PyArray1::from_slice(py, &stores))
    }

    /// The player to move: 0 = South, 1 = North.
    #[getter]
    fn to_move(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.position(py)?.to_move().index())
    }

    /// Moves played since the start of the game (including before the start position).
    #[getter]
    fn ply(&self, py: Python<'_>) -> PyResult<u32> {
        Ok(self.position(py)?.ply())
    }

    /// Moves in a row without a capture.
    #[getter]
    fn no_capture(&self, py: Python<'_>) -> PyResult<u16> {
        Ok(self.position(py)?.no_capture())
    }

    /// The absolute pits (0..=11) played in this game, in order.
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        self.with(py, |g| g.moves().iter().map(|m| m.pit()).collect())
    }

    /// The legal actions (0..=5, relative to the player to move), ascending;
    /// empty when the game is over or truncated.
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        self.with(py, |g| {
            g.legal_moves()
                .iter()
                .map(|m| u32::from(m.action()))
                .collect()
        })
    }

    /// The legal actions as a bool array of 6.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mask = self.with(py, Game::legal_action_mask)?;
        let v: Vec<bool> = (0..6).map(|a| mask & (1 << a) != 0).collect();
        Ok(PyArray1::from_vec(py, v))
    }

    /// Whether `action` (0..=5) is legal now; any other number is not.
    fn is_legal(&self, py: Python<'_>, action: Int) -> PyResult<bool> {
        self.with(py, |g| {
            action_move(g.position(), &action).is_ok_and(|m| g.is_legal(m))
        })
    }

    /// Plays mover-relative action 0..=5. Raises `IllegalMoveError` (game unchanged).
    fn play(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        not_bool(action, "action_out_of_range", "an action")?;
        let action: Int = action.extract()?;
        // The error is made once the lock is released.
        self.with_mut(py, |g| {
            let mv = action_move(g.position(), &action)?;
            Ok(g.play(mv)?)
        })?
        .map_err(|e: Illegal| e.into_py(py))
    }

    /// Plays absolute pit 0..=11. Raises `IllegalMoveError` (game unchanged).
    fn play_pit(&self, py: Python<'_>, pit: &Bound<'_, PyAny>) -> PyResult<()> {
        not_bool(pit, "pit_out_of_range", "a pit")?;
        let pit: Int = pit.extract()?;
        let p = match pit.0 {
            Ok(p) => u8::try_from(p).map_err(|_| IllegalMove::PitOutOfRange { pit: p }.into()),
            Err(big) => Err(Illegal::Big(
                "pit_out_of_range",
                format!("pit {big} is not on the board (absolute pits are 0..=11)"),
            )),
        };
        let p = p.map_err(|e| e.into_py(py))?;
        self.with_mut(py, |g| g.play_pit(p))?
            .map_err(|e| errors::illegal(py, e))
    }

    /// Takes back the last move and returns its action (None at the start).
    fn undo(&self, py: Python<'_>) -> PyResult<Option<u8>> {
        self.with_mut(py, |g| g.undo().map(Move::action))
    }

    /// The outcome once the game has ended by the rules, else None.
    #[getter]
    fn outcome(&self, py: Python<'_>) -> PyResult<Option<PyOutcome>> {
        Ok(self
            .with(py, Game::outcome)?
            .map(|inner| PyOutcome { inner }))
    }

    /// "ongoing", "ended" or "truncated" (the ply cap was reached).
    #[getter]
    fn status(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.with(py, |g| match g.status() {
            Status::Ongoing => "ongoing",
            Status::Ended(_) => "ended",
            Status::Truncated => "truncated",
        })
    }

    /// True when no move can be played: ended or truncated.
    #[getter]
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        self.with(py, |g| !matches!(g.status(), Status::Ongoing))
    }

    /// A cap on the moves of this game (None: no cap); reaching it truncates the game.
    #[getter]
    fn get_ply_cap(&self, py: Python<'_>) -> PyResult<Option<u32>> {
        self.with(py, Game::ply_cap)
    }

    #[setter]
    fn set_ply_cap(&self, py: Python<'_>, cap: Option<Int>) -> PyResult<()> {
        let cap = cap
            .map(|c| {
                in_range::<u32>(&c, "ply_cap").map_err(|_| {
                    AyoError::new_err(format!(
                        "ply_cap must be 0..=4294967295 or None, not {}",
                        item_text(&c)
                    ))
                })
            })
            .transpose()?;
        self.with_mut(py, |g| g.set_ply_cap(cap))
    }

    /// The sowing of `action`, step by step: dicts such as
    /// `{"event": "drop", "pit": 3}` (events lift, relay, drop, collect,
    /// capture, grand_slam_forfeited, end). Raises `IllegalMoveError`.
    fn trace<'py>(&self, py: Python<'py>, action: Int) -> PyResult<Bound<'py, PyList>> {
        let t = self.trace_of(py, &action)?;
        let out = PyList::empty(py);
        for ev in &t.events {
            let v = serde_json::to_value(ev).map_err(|e| AyoError::new_err(e.to_string()))?;
            out.append(json_to_py(py, &v)?)?;
        }
        Ok(out)
    }

    /// The sowing of `action` in brief: `laps`, `last_pit` (absolute), `taken`
    /// (seeds into South's and North's stores during the move) and `end`
    /// ("empty_pit", "occupied", "made_four" or "two_three").
    fn trace_summary<'py>(&self, py: Python<'py>, action: Int) -> PyResult<Bound<'py, PyDict>> {
        let t = self.trace_of(py, &action)?;
        let end = lap_end_name(t.end);
        let d = PyDict::new(py);
        d.set_item("laps", t.laps)?;
        d.set_item("last_pit", t.last_pit)?;
        d.set_item("taken", (t.taken[0], t.taken[1]))?;
        d.set_item("end", end)?;
        Ok(d)
    }

    /// The absolute pit where the last seed of `action` falls.
    fn last_landing(&self, py: Python<'_>, action: Int) -> PyResult<usize> {
        Ok(self.trace_of(py, &action)?.last_pit)
    }

    /// The game record: start position ` | ` moves (mover-relative pits 1..=6).
    fn record(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, Game::record)
    }

    /// The record of the current position.
    fn position_record(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |g| record::position_to_text(g.rules(), g.position()))
    }

    /// The position's 64-bit hash (board, stores and player to move).
    #[getter]
    fn hash(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.position(py)?.hash())
    }

    /// Board and stores as float32 (14,): with perspective "mover" the
    /// mover's row and store come first (pits 0..=5 are the mover's actions);
    /// with "absolute", South's row, North's row, South's store, North's store.
    #[pyo3(signature = (perspective = "mover"))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        perspective: &str,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let v = observation_of(&self.position(py)?, perspective).ok_or_else(|| {
            AyoError::new_err(format!(
                "perspective must be \"mover\" or \"absolute\", not {perspective:?}"
            ))
        })?;
        Ok(PyArray1::from_vec(py, v))
    }

    /// Plays uniformly random legal moves from here (without changing this
    /// game) until the end or `max_plies` moves; returns the outcome, or None
    /// when `max_plies` came first. Repetition counts from here. Releases the GIL.
    #[pyo3(signature = (seed, max_plies = Wide(Ok(10000))),
        text_signature = "($self, seed, max_plies=10000)")]
    fn random_playout(
        &self,
        py: Python<'_>,
        seed: Wide,
        max_plies: Wide,
    ) -> PyResult<Option<PyOutcome>> {
        let seed: u64 = seed.get("seed", U64)?;
        let max_plies: u32 = max_plies.get("max_plies", U32)?;
        // The game is locked only to read it: other threads may use it meanwhile.
        let (rules, start, ended) = self.playout_start(py)?;
        Ok(ended
            .or_else(|| py.detach(move || playout(&rules, start, seed, max_plies)))
            .map(|inner| PyOutcome { inner }))
    }

    /// `n` random playouts from here with seeds `seed, seed+1, …` (GIL released);
    /// returns (South wins, North wins, draws, unfinished).
    #[pyo3(signature = (n, seed, max_plies = Wide(Ok(10000))),
        text_signature = "($self, n, seed, max_plies=10000)")]
    fn random_playouts(
        &self,
        py: Python<'_>,
        n: Wide,
        seed: Wide,
        max_plies: Wide,
    ) -> PyResult<(u32, u32, u32, u32)> {
        let n: u32 = n.get("n", U32)?;
        let seed: u64 = seed.get("seed", U64)?;
        let max_plies: u32 = max_plies.get("max_plies", U32)?;
        let (rules, start, ended) = self.playout_start(py)?;
        Ok(py.detach(move || {
            let mut counts = (0, 0, 0, 0);
            for i in 0..n {
                let outcome = ended
                    .or_else(|| playout(&rules, start, seed.wrapping_add(u64::from(i)), max_plies));
                match outcome.map(|o| o.winner) {
                    Some(Some(Player::South)) => counts.0 += 1,
                    Some(Some(Player::North)) => counts.1 += 1,
                    Some(None) => counts.2 += 1,
                    None => counts.3 += 1,
                }
            }
            counts
        }))
    }

    /// An independent copy (history and ply cap included).
    fn copy(&self, py: Python<'_>) -> PyResult<Self> {
        Ok(PyGame::from_game(self.snapshot(py)?))
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Self> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.copy(py)
    }

    /// Pickle state: (game record, ply cap).
    fn __getstate__(&self, py: Python<'_>) -> PyResult<(String, Option<u32>)> {
        self.state(py)
    }

    fn __setstate__(&self, py: Python<'_>, state: (RecText, Option<Wide>)) -> PyResult<()> {
        let cap: Option<u32> =
            Wide::opt(state.1.as_ref(), "ply_cap", "None or an int 0..=2**32-1")?;
        let game = PyGame::from_state(py, &state.0 .0, cap)?;
        self.with_mut(py, |g| *g = game)
    }

    /// Pickle (every protocol): `Game()` then `__setstate__`.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, (), (String, Option<u32>))> {
        Ok((slf.get_type(), (), slf.get().state(slf.py())?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let record = self.record(py)?;
        Ok(format!("Game.from_record({record:?})"))
    }

    /// The board as SVG, for Jupyter (drawn by `ayo.display.svg`).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let display = slf.py().import("ayo.display")?;
        display.call_method1("svg", (slf,))?.extract()
    }
}

/// One uniformly random playout from `start` with a seeded xoshiro256++ generator.
fn playout(rules: &Rules, start: Position, seed: u64, max_plies: u32) -> Option<Outcome> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    ayo_core::playout::random_playout(rules, start, &mut rng, max_plies).outcome
}

/// The number of legal move sequences of `depth` moves from the start of
/// `rules` (or from `position`, a position record). Releases the GIL.
#[pyfunction]
#[pyo3(signature = (rules, depth, position = None))]
pub(crate) fn perft(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    depth: Wide,
    position: Option<RecText>,
) -> PyResult<u64> {
    let depth: u32 = depth.get("depth", "an int 0..=30")?;
    if depth > MAX_PERFT_DEPTH {
        return Err(AyoError::new_err(format!(
            "depth = {depth} is out of range (expected an int 0..={MAX_PERFT_DEPTH})"
        )));
    }
    let rules = PyRules::from_py(rules)?;
    let pos = match position {
        None => Position::start(&rules),
        Some(text) => parse_position(py, &text.0, Some(&rules))?.1,
    };
    perft_chunked(py, &rules, &pos, depth)
}

/// The depth up to which one `perft` chunk runs without a signal check
/// (about 6^8 boards: well under a second).
const PERFT_CHUNK: u32 = 8;

/// `ayo_core::playout::perft`, split into subtrees of at most `PERFT_CHUNK`
/// plies each counted with the GIL released, with a check for Ctrl-C (and
/// other signals) before each.
fn perft_chunked(py: Python<'_>, rules: &Rules, pos: &Position, depth: u32) -> PyResult<u64> {
    py.check_signals()?;
    if depth <= PERFT_CHUNK {
        let (rules, pos) = (*rules, *pos);
        return Ok(py.detach(move || ayo_core::playout::perft(&rules, &pos, depth)));
    }
    let mut total = 0u64;
    for (_, child) in pos.children(rules).iter() {
        total += perft_chunked(py, rules, child, depth - 1)?;
    }
    Ok(total)
}

/// The deepest `perft` accepted.
const MAX_PERFT_DEPTH: u32 = 30;
