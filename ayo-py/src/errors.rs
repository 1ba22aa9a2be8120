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
    // The batch's name for it, kept for callers of earlier versions.
    m.add("VecEpisodeOverError", py.get_type::<EpisodeOverError>())?;
    Ok(())
}
