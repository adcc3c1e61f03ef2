//! `grundy._grundy`: the native half of the `grundy` Python package (PyO3,
//! abi3 for CPython 3.9 and later). The Python half (`python/grundy/`) turns
//! lists, strings and numpy arrays into the text formats the command line
//! reads and checks keyword arguments; this half parses them with the CLI's
//! own parsers (`grundy_report::parse`, through the `parse` module), runs the engine with the GIL released, and
//! returns frozen result objects whose coordinates follow the README's
//! conventions (0-based `row`/`col`, inclusive rectangle corners, pawns by
//! `x`/`y`, boards and pawns numbered from 0).
//!
//! Long calls notice Ctrl-C (the `interrupt` module); budgets that run out raise
//! `grundy.BudgetExceeded` with what was found before the stop.

mod clear;
mod fork;
mod interrupt;
mod large;
mod parse;
mod pawn;
mod split;
mod sum;
mod tables;

use pyo3::prelude::*;

/// The search limits of one call, from the keyword arguments
/// `max_positions`, `max_time` (seconds) and `max_memory` (bytes), each
/// checked non-negative by the Python half.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_positions: Option<u64>,
    pub max_time: Option<f64>,
    pub max_memory: Option<u64>,
}

/// [`Limits`] as pickled state: `(max_positions, max_time, max_memory)`.
pub(crate) type LimitsState = (Option<u64>, Option<f64>, Option<u64>);

impl Limits {
    /// The limits of the keyword arguments of the same names.
    pub fn new(
        max_positions: Option<u64>,
        max_time: Option<f64>,
        max_memory: Option<u64>,
    ) -> Limits {
        Limits {
            max_positions,
            max_time,
            max_memory,
        }
    }

    /// The limits as pickled state: `(max_positions, max_time, max_memory)`.
    pub fn state(&self) -> LimitsState {
        (self.max_positions, self.max_time, self.max_memory)
    }

    /// The limits of a pickled `state`, `max_time` checked as the Python
    /// half checks it (not negative, not NaN).
    pub fn restored(state: LimitsState, class: &str) -> PyResult<Limits> {
        let (max_positions, max_time, max_memory) = state;
        if let Some(t) = max_time.filter(|t| t.is_nan() || *t < 0.0) {
            return Err(bad_state(class, format!("max_time is {t}")));
        }
        Ok(Limits::new(max_positions, max_time, max_memory))
    }

    pub fn budget(&self) -> grundy::Budget {
        grundy::Budget {
            max_positions: self.max_positions,
            max_time: self.max_time.and_then(time_budget),
            max_memory: self.max_memory,
        }
    }
}

/// The layout version of the state a result's `__reduce__` gives pickle,
/// its first element: a restore refuses any other, so that a pickle of a
/// future layout fails with a clear `ValueError` rather than a wrong answer.
pub(crate) const STATE_VERSION: u32 = 1;

/// The pickled state of a `class` (`"grundy.clear.ClearAnalysis"`), as
/// its `__reduce__` made it: a tuple whose first element is
/// [`STATE_VERSION`], extracted to `T` (the whole tuple, version
/// included). Another version is a `ValueError`; a state of other types
/// is a `TypeError`, and a negative or oversized integer a `ValueError`,
/// each naming `class`.
pub(crate) fn restored_state<'py, T>(state: &Bound<'py, PyAny>, class: &str) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    let malformed = |why: String| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "cannot restore a {class}: its pickled state is malformed ({why})"
        ))
    };
    let tuple = state
        .cast::<pyo3::types::PyTuple>()
        .map_err(|_| malformed("not a tuple".to_owned()))?;
    let version = match tuple.get_item(0) {
        Ok(first) => first.extract::<i128>().ok(),
        Err(_) => None,
    };
    if version != Some(STATE_VERSION.into()) {
        let given = tuple
            .get_item(0)
            .and_then(|v| v.repr())
            .map_or_else(|_| "none".to_owned(), |r| r.to_string());
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "cannot restore a {class} pickled with state version {given}: this grundy reads \
             version {STATE_VERSION} (analyse the position again with this version)"
        )));
    }
    state.extract::<T>().map_err(|err| {
        let py = state.py();
        if err.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) {
            pyo3::exceptions::PyValueError::new_err(format!(
                "cannot restore a {class}: its pickled state holds an integer out of range ({})",
                err.value(py)
            ))
        } else {
            malformed(err.value(py).to_string())
        }
    })
}

/// The restore function `name` of this module, which a result's
/// `__reduce__` gives pickle to call with its state.
pub(crate) fn restore_function<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("grundy._grundy")?.getattr(name)
}

/// The name of `value`'s Python type, as messages give it (`?` when
/// Python cannot tell it).
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A state's wrong value (an illegal move, a cell outside its board), as
/// the restore of `class` refuses it.
pub(crate) fn bad_state(class: &str, why: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(format!(
        "cannot restore a {class}: its pickled state is not a position's analysis ({why})"
    ))
}

/// An integer argument of a move's constructor, `name` in messages: an
/// int, or anything `operator.index` takes (a numpy integer), but not a
/// bool, which budgets refuse too; as an `i128`, so that the caller's
/// range check names the argument and its range for any value rather
/// than PyO3's bare `OverflowError`.
pub(crate) fn int_arg(name: &str, value: &Bound<'_, PyAny>) -> PyResult<i128> {
    // numpy's bool (named `bool` or `bool_`) is no int here either.
    if value.is_instance_of::<pyo3::types::PyBool>()
        || matches!(type_name(value).as_str(), "bool" | "bool_")
    {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            type_name(value)
        )));
    }
    let value = value
        .py()
        .import("operator")?
        .call_method1("index", (value,))
        .map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "{name} must be an int, not {}",
                type_name(value)
            ))
        })?;
    value.extract::<i128>().map_err(|_| {
        pyo3::exceptions::PyValueError::new_err(format!("{name} is {value}: far out of range"))
    })
}

/// [`int_arg`] within `0..=max`: `what` says what it is (`"a row index"`).
pub(crate) fn index_arg(
    name: &str,
    value: &Bound<'_, PyAny>,
    what: &str,
    max: u64,
) -> PyResult<u64> {
    let n = int_arg(name, value)?;
    u64::try_from(n).ok().filter(|&n| n <= max).ok_or_else(|| {
        // A negative index is the usual slip, and the bound is no help then.
        let bound = if n < 0 {
            "counts from 0".to_owned()
        } else {
            format!("is at most {max}")
        };
        pyo3::exceptions::PyValueError::new_err(format!("{name} is {n}: {what} {bound}"))
    })
}

/// An explanation as Python gets it: a dict of the API's `explain` fields
/// (`heading`, `value`, `parts`, `winning`, `mex`, ...), read by Python's
/// own `json` from the one serialisation, and `text`, the lines
/// `--explain` prints.
pub(crate) fn explanation_dict<'py>(
    py: Python<'py>,
    explanation: &grundy_report::explain::Explanation,
) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_string(explanation)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let dict = py.import("json")?.call_method1("loads", (json,))?;
    dict.set_item("text", explanation.lines().join("\n"))?;
    Ok(dict)
}

/// `value` as Python's `repr` writes it: `None`, or the value as shown.
pub(crate) fn repr_option<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "None".to_owned(), |v| v.to_string())
}

/// A string as Python's `repr` writes it, in single quotes (a quote or a
/// backslash in it escaped).
pub(crate) fn repr_str(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// The time budget of `max_time` seconds (the Python half refuses
/// negatives and NaN): no limit for infinity and for spans past what a
/// `Duration` holds, so that `max_time=math.inf` asks for none, also where
/// leaving it out gives a default.
pub(crate) fn time_budget(seconds: f64) -> Option<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(seconds.max(0.0)).ok()
}

/// The engine's move as the `engine_move` functions return it: `{"move",
/// "proven", "kind", "grundy", "reason", "text"}` (`text` the move in the command
/// line's words, as `--move --json` gives it), or `"move": None`, `"kind":
/// "none"`, `"grundy": 0` and `"text": None` when the player to move has
/// none. `mv` is
/// the Python move for `chosen`'s.
pub(crate) fn engine_dict<'py, M, R>(
    py: Python<'py>,
    chosen: Option<(M, grundy_report::EngineMove<R>)>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>>
where
    M: IntoPyObject<'py>,
{
    let dict = pyo3::types::PyDict::new(py);
    match chosen {
        Some((mv, report)) => {
            dict.set_item("move", mv)?;
            dict.set_item("proven", report.proven)?;
            dict.set_item("kind", report.kind)?;
            dict.set_item("grundy", report.grundy)?;
            dict.set_item("reason", report.reason)?;
            dict.set_item("text", report.text)?;
        }
        None => {
            dict.set_item("move", py.None())?;
            dict.set_item("proven", true)?;
            dict.set_item("kind", "none")?;
            // No option: value 0, as the command line says it.
            dict.set_item("grundy", 0)?;
            dict.set_item("reason", grundy_report::words::NO_MOVES)?;
            dict.set_item("text", py.None())?;
        }
    }
    Ok(dict)
}

/// An illegal move as a `ValueError`'s message: `phrase` (the move in the
/// command line's words, which count from 1 where Python counts from 0),
/// `counted` (what counts from 1 there: cells, or pawns) and `why`.
pub(crate) fn illegal_from_1(phrase: &str, counted: &str, why: &str) -> String {
    format!("{phrase} is illegal ({counted} counting from 1, as the command line does): {why}")
}

/// `grundy.BudgetExceeded(message, budget, limit, found)`: the name of the
/// keyword argument that ran out, its value, and what the search found
/// before it stopped (a dict).
pub(crate) fn budget_exceeded(
    py: Python<'_>,
    err: &grundy::SolveError,
    found: Bound<'_, pyo3::types::PyDict>,
) -> PyErr {
    use grundy::SolveError;
    // The caller's limit: the call's wait for its worker was taken from
    // the time budget the search was given.
    let err = &match *err {
        SolveError::TimeBudget { limit } => SolveError::TimeBudget {
            limit: limit + crate::interrupt::waited(),
        },
        ref other => other.clone(),
    };
    let (name, limit): (&str, Py<PyAny>) = match *err {
        SolveError::PositionBudget { limit, .. } => (
            "max_positions",
            limit
                .into_pyobject(py)
                .map(|v| v.into_any().unbind())
                .unwrap_or_else(|_| py.None()),
        ),
        SolveError::TimeBudget { limit } => (
            "max_time",
            limit
                .as_secs_f64()
                .into_pyobject(py)
                .map(|v| v.into_any().unbind())
                .unwrap_or_else(|_| py.None()),
        ),
        SolveError::MemoryBudget { limit, .. } => (
            "max_memory",
            limit
                .into_pyobject(py)
                .map(|v| v.into_any().unbind())
                .unwrap_or_else(|_| py.None()),
        ),
        _ => ("a budget", py.None()),
    };
    let message = format!("the search stopped early: {err} (raise {name} to search further)");
    new_budget_exceeded(py, &message, name, limit, found)
}

/// `grundy.BudgetExceeded` for a search refused before it began, past the
/// memory budget `limit`: `context` says what was refused, the bytes it
/// would need and the limit, as the CLI prints it; nothing was found.
pub(crate) fn refused_for_memory(py: Python<'_>, context: &str, limit: u64) -> PyErr {
    let found = pyo3::types::PyDict::new(py);
    if let Err(e) = found.set_item("positions_solved", 0) {
        return e;
    }
    // The located message names the bytes needed and the limit: said once,
    // as the CLI says it.
    new_budget_exceeded(py, context, "max_memory", limit, found)
}

/// `grundy.BudgetExceeded(message, budget, limit, found)` as the error to
/// raise, or the error met making it.
pub(crate) fn new_budget_exceeded<'py, L: IntoPyObject<'py>>(
    py: Python<'py>,
    message: &str,
    budget: &str,
    limit: L,
    found: Bound<'py, pyo3::types::PyDict>,
) -> PyErr {
    new_error(py, "BudgetExceeded", (message, budget, limit, found))
}

/// The refusal of boards whose parse stopped at `err`: past the memory
/// budget `limit`, `grundy.BoardTooLarge` (a `BudgetExceeded`, as the
/// CLI's exit 3 says, and a `ValueError`); else the located `ValueError`.
pub(crate) fn refused_boards(
    source: &str,
    err: &grundy_report::parse::ParseError,
    limit: u64,
) -> PyErr {
    let message = format!("{source}:{err}");
    if !matches!(
        err.kind,
        grundy_report::parse::ParseErrorKind::OverMemory { .. }
    ) {
        return pyo3::exceptions::PyValueError::new_err(message);
    }
    Python::attach(|py| {
        let found = pyo3::types::PyDict::new(py);
        if let Err(e) = found.set_item("positions_solved", 0) {
            return e;
        }
        new_error(py, "BoardTooLarge", (message, "max_memory", limit, found))
    })
}

/// An instance of the exception class `name` of `grundy._errors`, made
/// with `args`, as the error to raise, or the error met making it.
fn new_error<'py, A: pyo3::call::PyCallArgs<'py>>(py: Python<'py>, name: &str, args: A) -> PyErr {
    let made = py
        .import("grundy._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|class| class.call1(args));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// [`budget_exceeded`] for a search that found nothing to hand back but
/// the count of positions it solved (`positions_solved`).
pub(crate) fn stopped_after(py: Python<'_>, err: &grundy::SolveError, solved: u64) -> PyErr {
    let dict = pyo3::types::PyDict::new(py);
    match dict.set_item("positions_solved", solved) {
        Ok(()) => budget_exceeded(py, err, dict),
        Err(e) => e,
    }
}

#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    clear::register(m)?;
    large::register(m)?;
    split::register(m)?;
    pawn::register(m)?;
    sum::register(m)?;
    tables::register(m)?;
    Ok(())
}
