//! `Rules`: a validated rule set, built from a preset name and keyword overrides.

use ayo_core::{Player, Preset, RuleParams, Rules, PARAM_NAMES};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyType};
use pyo3::IntoPyObjectExt;

use crate::errors::{self, RulesError};

/// Parameters whose Python value is a `bool`.
const BOOL_PARAMS: [&str; 3] = ["relay", "capturing_seed_taken", "skip_origin"];
/// Parameters whose Python value is an `int` or `None`.
const OPTIONAL_INT_PARAMS: [&str; 2] = ["target", "move_limit"];

/// A validated rule set: a preset with any parameter overridden by keyword.
///
/// `Rules("oware", target=None)`; every parameter is a read-only property.
#[pyclass(name = "Rules", module = "ayo._ayo", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyRules {
    pub(crate) inner: Rules,
}

/// The text form (as in `RuleParams::set`) of a Python keyword value.
fn value_text(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let type_error = |expected: &str| {
        let shown = value
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into());
        RulesError::new_err(format!(
            "rule parameter `{name}` cannot take the value {shown}; expected {expected}"
        ))
    };
    if BOOL_PARAMS.contains(&name) {
        return match value.cast::<PyBool>() {
            Ok(b) => Ok(b.is_true().to_string()),
            Err(_) => Err(type_error("True or False")),
        };
    }
    if value.is_none() {
        return Ok("none".into());
    }
    if value.is_instance_of::<PyBool>() {
        return Err(type_error("an int or a str"));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(s.extract::<errors::Text>()?.0);
    }
    if let Ok(i) = value.extract::<i64>() {
        return Ok(i.to_string());
    }
    Err(type_error("an int, a str or None"))
}

/// `p` with the keyword overrides applied, validated.
fn with_overrides(mut p: RuleParams, params: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let key = k.extract::<errors::Text>()?.0;
            if !PARAM_NAMES.contains(&key.as_str()) {
                return Err(errors::rules(ayo_core::RulesError::UnknownParam {
                    name: key,
                }));
            }
            p.set(&key, &value_text(&key, &v)?).map_err(errors::rules)?;
        }
    }
    Rules::new(p).map_err(errors::rules)
}

/// The Python value of one parameter.
fn param_value<'py>(py: Python<'py>, p: &RuleParams, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let text = p.get(name).unwrap_or_default();
    if BOOL_PARAMS.contains(&name) {
        return (text == "true").into_bound_py_any(py);
    }
    if OPTIONAL_INT_PARAMS.contains(&name) {
        return match p.get(name).and_then(|t| t.parse::<u16>().ok()) {
            Some(n) => n.into_bound_py_any(py),
            None => Ok(py.None().into_bound(py)),
        };
    }
    match name {
        "seeds_per_pit" => p.seeds_per_pit.into_bound_py_any(py),
        "first_player" => p.first_player.index().into_bound_py_any(py),
        _ => text.into_bound_py_any(py),
    }
}

/// `repr()` of a parameter's Python value.
fn param_repr(py: Python<'_>, p: &RuleParams, name: &str) -> PyResult<String> {
    Ok(param_value(py, p, name)?.repr()?.to_string())
}

impl PyRules {
    /// Rules from a preset name (or a rules record such as `oware[target=none]`)
    /// and keyword overrides.
    pub(crate) fn build(preset: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        let p = if preset.contains('[') {
            preset
                .parse::<Rules>()
                .map_err(|e| RulesError::new_err(e.message))?
                .params()
        } else {
            Rules::preset(preset).map_err(errors::rules)?.params()
        };
        with_overrides(p, params)
    }

    /// The preset these rules are closest to, and the parameters that differ from it.
    fn base(&self) -> (Preset, Vec<&'static str>) {
        self.inner.closest_preset()
    }

    /// The text value of a word-valued parameter (`capture`, `feeding`, …).
    fn word(&self, name: &str) -> String {
        self.inner.params().get(name).unwrap_or_default()
    }

    /// Rules from a Python `Rules` or a preset name / rules record.
    pub(crate) fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
        if let Ok(r) = obj.cast::<PyRules>() {
            return Ok(r.get().inner);
        }
        if obj.is_instance_of::<PyString>() {
            return PyRules::build(&obj.extract::<errors::RecText>()?.0, None);
        }
        Err(RulesError::new_err(
            "rules must be a Rules or a preset name (str)",
        ))
    }
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (preset = errors::RecText("ayoayo".to_owned()), **params),
        text_signature = "(preset='ayoayo', **params)")]
    fn new(preset: errors::RecText, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRules {
            inner: PyRules::build(&preset.0, params)?,
        })
    }

    /// The preset names.
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        Preset::ALL.iter().map(|p| p.name()).collect()
    }

    /// Every parameter name, in record order.
    #[staticmethod]
    fn param_names() -> Vec<&'static str> {
        PARAM_NAMES.to_vec()
    }

    /// The preset these rules are exactly, if any.
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        self.inner.as_preset().map(|p| p.name())
    }

    /// The rules in words: a title, an empty line, then one sentence (a
    /// line starting with "- ") for each parameter (ayo-core's
    /// `Rules::describe`; `ayo rules` prints it).
    fn describe(&self) -> Vec<String> {
        self.inner.describe()
    }

    /// Relay sowing.
    #[getter]
    fn relay(&self) -> bool {
        self.inner.relay()
    }
    /// "across", "two_three" or "collect_four".
    #[getter]
    fn capture(&self) -> String {
        self.word("capture")
    }
    /// With capture "across": the capturing seed goes to the store too.
    #[getter]
    fn capturing_seed_taken(&self) -> bool {
        self.inner.capturing_seed_taken()
    }
    /// "mover" or "pit_owner".
    #[getter]
    fn fours_to(&self) -> String {
        self.word("fours_to")
    }
    /// Laps skip the pit they were lifted from.
    #[getter]
    fn skip_origin(&self) -> bool {
        self.inner.skip_origin()
    }
    /// "allowed" or "no_capture".
    #[getter]
    fn grand_slam(&self) -> String {
        self.word("grand_slam")
    }
    /// "off", "strict", "if_possible" or "no_starving".
    #[getter]
    fn feeding(&self) -> String {
        self.word("feeding")
    }
    /// "to_opponent" or "own_side".
    #[getter]
    fn stuck_seeds(&self) -> String {
        self.word("stuck_seeds")
    }
    /// The winning store size, or None to play to the end.
    #[getter]
    fn target(&self) -> Option<u16> {
        self.inner.target()
    }
    /// Moves without capture that end the game, or None.
    #[getter]
    fn move_limit(&self) -> Option<u16> {
        self.inner.move_limit()
    }
    /// "off" or "own_side".
    #[getter]
    fn repetition(&self) -> String {
        self.word("repetition")
    }
    /// Seeds in each pit at the start.
    #[getter]
    fn seeds_per_pit(&self) -> u8 {
        self.inner.seeds_per_pit()
    }
    /// The first player: 0 = South, 1 = North.
    #[getter]
    fn first_player(&self) -> usize {
        self.inner.first_player().index()
    }
    /// All seeds in play (12 × seeds per pit).
    #[getter]
    fn total_seeds(&self) -> u16 {
        self.inner.total_seeds()
    }
    /// Actions per move: always 6.
    #[getter]
    fn num_actions(&self) -> usize {
        6
    }

    /// Every parameter as a dict of Python values.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let p = self.inner.params();
        for name in PARAM_NAMES {
            d.set_item(name, param_value(py, &p, name)?)?;
        }
        Ok(d)
    }

    /// A copy with some parameters changed: `rules.replace(target=None)`.
    #[pyo3(signature = (**params))]
    fn replace(&self, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRules {
            inner: with_overrides(self.inner.params(), params)?,
        })
    }

    /// The rules as JSON (every parameter).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| RulesError::new_err(e.to_string()))
    }

    /// Rules from `to_json()` text.
    #[staticmethod]
    fn from_json(text: errors::RecText) -> PyResult<Self> {
        serde_json::from_str::<Rules>(&text.0)
            .map(|inner| PyRules { inner })
            .map_err(|e| RulesError::new_err(format!("invalid rules JSON: {e}")))
    }

    /// The record form, e.g. `oware[target=none]`.
    fn __str__(&self) -> String {
        ayo_core::record::rules_to_text(&self.inner)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (preset, diffs) = self.base();
        let p = self.inner.params();
        let mut out = format!("Rules('{}'", preset.name());
        for n in diffs {
            out.push_str(&format!(", {n}={}", param_repr(py, &p, n)?));
        }
        out.push(')');
        Ok(out)
    }

    /// Pickle (every protocol): `Rules(record form)`, e.g. `Rules("oware[target=none]")`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().__str__(),))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
}

/// South (0) or North (1) from a Python int.
pub(crate) fn player_from_index(i: i64) -> Option<Player> {
    usize::try_from(i).ok().and_then(Player::from_index)
}
