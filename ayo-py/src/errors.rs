//! The exceptions of `ayo._ayo` and the translation of core errors into them.

use ayo_core::{
    IllegalMove, RecordError as CoreRecordError, RulesError as CoreRulesError, SetupErrors,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

pyo3::create_exception!(
    ayo._ayo,
    AyoError,
    PyValueError,
    "Base class of every error raised by ayo (a ValueError)."
);
pyo3::create_exception!(
    ayo._ayo,
    RulesError,
    AyoError,
    "An unknown preset or rule parameter, or a parameter value that cannot be played."
);
pyo3::create_exception!(
    ayo._ayo,
    IllegalMoveError,
    AyoError,
    "A move that cannot be played here; `reason` names the kind (e.g. \"empty_pit\")."
);
pyo3::create_exception!(
    ayo._ayo,
    RecordError,
    AyoError,
    "Text that is not a valid record; `field` and `offset` say where."
);
pyo3::create_exception!(
    ayo._ayo,
    SetupError,
    AyoError,
    "A board set-up that is not a valid position; `problems` lists every reason."
);

pyo3::create_exception!(
    ayo._ayo,
    DatabaseError,
    AyoError,
    "Endgame databases that cannot be built, read or used: a missing or damaged layer file, \
     a file for other rules or another format version, rules that cannot be solved by seed \
     layers (such as oware's), or an I/O error. The message names the file and the reason; \
     `reason` is the kind (\"missing\", \"data_checksum\", \"unsupported_rules\", ...) and \
     `path` the file (or None)."
);

pyo3::create_exception!(
    ayo._ayo,
    EpisodeOverError,
    AyoError,
    "An episode was stepped after it ended (or before its first reset), with no autoreset."
);

pyo3::create_exception!(
    ayo._ayo,
    StatelessError,
    AyoError,
    "States, actions or options of a stateless batch (ayo.stateless, ayo.jax) that cannot be \
     used: rules whose state does not fit the record (repetition), arrays of the wrong shape \
     or dtype, a record that is not a state of the rules, an action that cannot be taken. \
     `reason` is the kind: \"rules\", \"options\", \"shape\", \"state\" or \"action\"."
);

/// A [`StatelessError`] of kind `reason`.
pub(crate) fn stateless(reason: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let err = StatelessError::new_err(message);
        let reason = pyo3::types::PyString::new(py, reason).into_any();
        with_attrs(py, err, &[("reason", reason)])
    })
}

/// Sets attributes on a freshly made exception; an attribute that cannot be set
/// (which does not happen for these exception types) is left out.
fn with_attrs<'py>(py: Python<'py>, err: PyErr, attrs: &[(&str, Bound<'py, PyAny>)]) -> PyErr {
    let value = err.value(py);
    for (name, v) in attrs {
        if let Err(e) = value.setattr(*name, v) {
            return e;
        }
    }
    err
}

/// `IllegalMoveError` with its `reason`.
pub(crate) fn illegal(py: Python<'_>, e: IllegalMove) -> PyErr {
    illegal_kind(py, e.kind(), e.to_string())
}

/// `IllegalMoveError` with reason `kind` (an `IllegalMove::kind`) and a message.
pub(crate) fn illegal_kind(py: Python<'_>, kind: &str, message: String) -> PyErr {
    let err = IllegalMoveError::new_err(message);
    let kind = pyo3::types::PyString::new(py, kind).into_any();
    with_attrs(py, err, &[("reason", kind)])
}

/// `RulesError` with the core's message (which names the parameter and why).
pub(crate) fn rules(e: CoreRulesError) -> PyErr {
    RulesError::new_err(e.to_string())
}

/// `RecordError` with `field` and `offset`.
pub(crate) fn record(py: Python<'_>, e: CoreRecordError) -> PyErr {
    let err = RecordError::new_err(e.to_string());
    let field = pyo3::types::PyString::new(py, e.field).into_any();
    let offset = match pyo3::IntoPyObjectExt::into_bound_py_any(e.offset, py) {
        Ok(o) => o,
        Err(e) => return e,
    };
    with_attrs(py, err, &[("field", field), ("offset", offset)])
}

/// `RecordError` for an error in `text`, its byte offset turned into a
/// character offset (a Python `str` index).
pub(crate) fn record_in(py: Python<'_>, mut e: CoreRecordError, text: &str) -> PyErr {
    let at = e.offset.min(text.len());
    e.offset = text.char_indices().take_while(|&(i, _)| i < at).count();
    record(py, e)
}

/// `SetupError` with every problem as text.
pub(crate) fn setup(py: Python<'_>, e: SetupErrors) -> PyErr {
    let err = SetupError::new_err(e.to_string());
    let problems = match PyList::new(py, e.0.iter().map(|p| p.to_string())) {
        Ok(l) => l.into_any(),
        Err(e) => return e,
    };
    with_attrs(py, err, &[("problems", problems)])
}

/// The snake_case name of a database error's kind (`DatabaseError.reason`)
/// and the file it is about, if any.
fn database_reason(e: &ayo_solve::DbError) -> (&'static str, Option<&std::path::Path>) {
    use ayo_solve::DbError as E;
    match e {
        E::Io { path, .. } => ("io", Some(path)),
        E::Missing { path, .. } => ("missing", Some(path)),
        E::BadMagic { path } => ("bad_magic", Some(path)),
        E::Version { path, .. } => ("version", Some(path)),
        E::RulesMismatch { path, .. } => ("rules_mismatch", Some(path)),
        E::LayerMismatch { path, .. } => ("layer_mismatch", Some(path)),
        E::CountMismatch { path, .. } => ("count_mismatch", Some(path)),
        E::Length { path, .. } => ("length", Some(path)),
        E::TruncatedHeader { path } => ("truncated_header", Some(path)),
        E::HeaderChecksum { path } => ("header_checksum", Some(path)),
        E::DataChecksum { path } => ("data_checksum", Some(path)),
        E::UnsupportedRules { .. } => ("unsupported_rules", None),
        E::LayerTooLarge { .. } => ("layer_too_large", None),
        E::LayerGap { path, .. } => ("layer_gap", Some(path)),
        E::OutOfMemory { .. } => ("out_of_memory", None),
    }
}

/// `DatabaseError` with `reason` and `path` set, and `message` as its text.
pub(crate) fn database_kind(
    py: Python<'_>,
    reason: &str,
    path: Option<&std::path::Path>,
    message: String,
) -> PyErr {
    let err = DatabaseError::new_err(message);
    let reason = pyo3::types::PyString::new(py, reason).into_any();
    let path =
        match pyo3::IntoPyObjectExt::into_bound_py_any(path.map(|p| p.display().to_string()), py) {
            Ok(p) => p,
            Err(e) => return e,
        };
    with_attrs(py, err, &[("reason", reason), ("path", path)])
}

/// `DatabaseError` with the text of an `ayo_solve::DbError`, its `reason`
/// (e.g. "missing", "layer_gap", "data_checksum", "unsupported_rules") and
/// `path` (the file, or None). Running out of memory
/// (`DbError::OutOfMemory`) is a plain `MemoryError` with the same text
/// (which names the bytes asked for and what for) instead.
pub(crate) fn database(e: ayo_solve::DbError) -> PyErr {
    if let ayo_solve::DbError::OutOfMemory { .. } = e {
        return pyo3::exceptions::PyMemoryError::new_err(e.to_string());
    }
    Python::attach(|py| {
        let (reason, path) = database_reason(&e);
        database_kind(py, reason, path, e.to_string())
    })
}

/// Registers the exception types in the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("AyoError", py.get_type::<AyoError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("DatabaseError", py.get_type::<DatabaseError>())?;
    m.add("EpisodeOverError", py.get_type::<EpisodeOverError>())?;
    m.add("StatelessError", py.get_type::<StatelessError>())?;
    // The batch's name for it, kept for callers of earlier versions.
    m.add("VecEpisodeOverError", py.get_type::<EpisodeOverError>())?;
    Ok(())
}

/// A Python int argument taken wide (its value as an `i128`, or its text when
/// even that overflows), so that its range is checked here and reported as an
/// `AyoError` naming the argument, never as an `OverflowError`. A `bool` is not
/// an integer here (`AyoError`); other non-integers raise `TypeError`.
pub(crate) struct Wide(pub(crate) Result<i128, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Wide {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Err(AyoError::new_err(format!(
                "expected an int, not the bool {}",
                obj.str()?
            )));
        }
        match obj.extract::<i128>() {
            Ok(i) => Ok(Wide(Ok(i))),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
                Ok(Wide(Err(obj.str()?.to_string())))
            }
            Err(e) => Err(e),
        }
    }
}

impl Wide {
    /// The value as a `T`, or an `AyoError` naming `name` and its `range`.
    pub(crate) fn get<T: TryFrom<i128>>(&self, name: &str, range: &str) -> PyResult<T> {
        let text = match &self.0 {
            Ok(i) => match T::try_from(*i) {
                Ok(v) => return Ok(v),
                Err(_) => i.to_string(),
            },
            Err(big) => big.clone(),
        };
        Err(AyoError::new_err(format!(
            "{name} = {text} is out of range (expected {range})"
        )))
    }

    /// A size or count that something is allocated by: 0 to `most` (the
    /// bound the rules it belongs to set), else an `AyoError` naming `name`,
    /// before anything is sized by it.
    pub(crate) fn size(&self, name: &str, most: usize) -> PyResult<usize> {
        let text = match &self.0 {
            Ok(i) if (0..=most as i128).contains(i) => return Ok(*i as usize),
            Ok(i) => i.to_string(),
            Err(big) => big.clone(),
        };
        Err(AyoError::new_err(format!(
            "{name} = {text} is out of range (expected an int 0..={most})"
        )))
    }

    /// An optional argument as an optional `T`.
    pub(crate) fn opt<T: TryFrom<i128>>(
        w: Option<&Wide>,
        name: &str,
        range: &str,
    ) -> PyResult<Option<T>> {
        w.map(|w| w.get(name, range)).transpose()
    }
}

/// A Python float argument taken wide: its value as an `f64`, or its text
/// when it is an int too large for one (where pyo3 raises `OverflowError`),
/// so that the range is reported as an `AyoError` naming the argument. A
/// `bool` is not a number here (`AyoError`); other non-numbers raise `TypeError`.
pub(crate) struct Real(pub(crate) Result<f64, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Err(AyoError::new_err(format!(
                "expected a number, not the bool {}",
                obj.str()?
            )));
        }
        match obj.extract::<f64>() {
            Ok(x) => Ok(Real(Ok(x))),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
                Ok(Real(Err(obj.str()?.to_string())))
            }
            Err(e) => Err(e),
        }
    }
}

impl Real {
    /// The value, or an `AyoError` naming `name` and its `range` when it
    /// does not fit an `f64`.
    pub(crate) fn get(&self, name: &str, range: &str) -> PyResult<f64> {
        match &self.0 {
            Ok(x) => Ok(*x),
            Err(big) => Err(AyoError::new_err(format!(
                "{name} = {big} is out of range (expected {range})"
            ))),
        }
    }

    /// An optional argument as an optional `f64`.
    pub(crate) fn opt(r: Option<&Real>, name: &str, range: &str) -> PyResult<Option<f64>> {
        r.map(|r| r.get(name, range)).transpose()
    }
}

/// The range text of an unsigned 64-bit argument.
pub(crate) const U64: &str = "an int 0..=2**64-1";
/// The range text of an unsigned 32-bit argument.
pub(crate) const U32: &str = "an int 0..=2**32-1";

/// A `str` argument that a record or rules text is read from: a string that
/// cannot be encoded as UTF-8 (a lone surrogate) raises `RecordError`.
pub(crate) struct RecText(pub(crate) String);

impl<'a, 'py> FromPyObject<'a, 'py> for RecText {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<pyo3::types::PyString>()?;
        match s.to_str() {
            Ok(t) => Ok(RecText(t.to_owned())),
            Err(_) => Err(bad_text(obj.py(), &s.to_string_lossy(), true)),
        }
    }
}

/// A `str` argument (a name, a path): a lone surrogate raises `AyoError`.
pub(crate) struct Text(pub(crate) String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<pyo3::types::PyString>()?;
        match s.to_str() {
            Ok(t) => Ok(Text(t.to_owned())),
            Err(_) => Err(bad_text(obj.py(), &s.to_string_lossy(), false)),
        }
    }
}

/// The error for text with a lone surrogate (`lossy` has it replaced by U+FFFD).
fn bad_text(py: Python<'_>, lossy: &str, record: bool) -> PyErr {
    let offset = lossy.chars().take_while(|&c| c != '\u{FFFD}').count();
    let message = format!(
        "the text has a lone surrogate at character {offset} (not valid Unicode): {lossy:?}"
    );
    if !record {
        return AyoError::new_err(message);
    }
    let err = RecordError::new_err(message);
    let field = pyo3::types::PyString::new(py, "text").into_any();
    let offset = match pyo3::IntoPyObjectExt::into_bound_py_any(offset, py) {
        Ok(o) => o,
        Err(e) => return e,
    };
    with_attrs(py, err, &[("field", field), ("offset", offset)])
}

/// `SetupError` with a single problem.
pub(crate) fn setup_problem(py: Python<'_>, message: String) -> PyErr {
    let err = SetupError::new_err(message.clone());
    let problems = match PyList::new(py, [message]) {
        Ok(l) => l.into_any(),
        Err(e) => return e,
    };
    with_attrs(py, err, &[("problems", problems)])
}

/// `MemoryError` for an allocation of `bytes` that failed, naming what it was
/// for (the text of `ayo_solve::DbError::OutOfMemory`, so that every
/// out-of-memory message of ayo reads alike).
pub(crate) fn out_of_memory(bytes: u128, what: &str) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(format!(
        "out of memory: could not allocate {bytes} bytes ({:.1} MiB) for {what}",
        bytes as f64 / 1_048_576.0
    ))
}
