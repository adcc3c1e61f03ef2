//! `grundy.pawn`: pawns on a grid of up to 10^9 x 10^9 with impassable
//! cells. The analysis is grundy-report's (as `grundy pawn --json`): one
//! pawn anywhere gets its outcome and winning moves; values (and so sums)
//! exist for pawns below 4096 x 4096, and beyond for pawns with no
//! impassable cell at or below-left (`x xor y`); options and play-outs for
//! pawns below 4096 x 4096. The play-out
//! follows `grundy pawn --play`.

use grundy::pawn::{Blocked, Cell, CellKind, LosingLines, Outcomes, ValueTable};
use grundy::Nimber;
use grundy_report::pawn::{play_out, Analysis, AnalysisError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::interrupt::{self, Stop};
use crate::parse;

/// A pawn move: pawn `pawn` (0-based) goes to `(x, y)`. Ordered by
/// `(pawn, x, y)`: the derived order, so the fields keep that order.
#[pyclass(
    frozen,
    eq,
    ord,
    hash,
    get_all,
    name = "PawnMove",
    module = "grundy.pawn"
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pawn: usize,
    x: u32,
    y: u32,
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (x, y, pawn = None), text_signature = "(x, y, pawn=0)")]
    fn new(
        x: &Bound<'_, PyAny>,
        y: &Bound<'_, PyAny>,
        pawn: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Move> {
        let max = u64::from(grundy::pawn::MAX_COORD);
        // Within MAX_COORD, a u32; a pawn's index within u32::MAX.
        Ok(Move {
            x: crate::index_arg("x", x, "a coordinate", max)? as u32,
            y: crate::index_arg("y", y, "a coordinate", max)? as u32,
            pawn: match pawn {
                Some(pawn) => {
                    crate::index_arg("pawn", pawn, "a pawn's index", u32::MAX.into())? as usize
                }
                None => 0,
            },
        })
    }

    fn __repr__(&self) -> String {
        format!("Move(x={}, y={}, pawn={})", self.x, self.y, self.pawn)
    }

    /// `(PawnMove, (x, y, pawn))`: pickle, `copy` and `deepcopy`
    /// call the constructor again.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (u32, u32, usize)) {
        let m = slf.get();
        (slf.get_type(), (m.x, m.y, m.pawn))
    }
}

/// The analysis of one pawn or a sum of pawns. Picklable: the pawns and
/// the impassable cells travel, and unpickling analyses them again (as
/// quick as `analyze`); `copy` gives the object itself.
#[pyclass(frozen, module = "grundy.pawn")]
pub struct PawnAnalysis {
    pawns: Vec<Cell>,
    /// True when the pawn was given as one `(x, y)` rather than a list.
    one: bool,
    blocked: Blocked,
    analysis: Analysis,
}

fn value_error(err: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// The impassable cells of `text` (the format of `grundy pawn FILE`; blank
/// text has none), errors located in `source`.
fn blocked_of(text: &str, source: &str) -> PyResult<Blocked> {
    if text.trim().is_empty() {
        Ok(Blocked::empty())
    } else {
        Ok(parse::blocked(text, source)?)
    }
}

/// Cell `(x, y)`, the `index`th `what` of a call, or the error that names
/// it.
fn cell_of(what: &str, index: usize, (x, y): (u64, u64)) -> PyResult<Cell> {
    Cell::new(x, y).map_err(|e| value_error(format!("{what}[{index}] is ({x}, {y}): {e}")))
}

/// The pawns `at`, each on an open cell of the grid, or the error that
/// names the first that is not.
fn pawns_of(at: &[(u64, u64)], blocked: &Blocked) -> PyResult<Vec<Cell>> {
    if at.is_empty() {
        return Err(value_error(
            "at: no pawns (give a pawn (x, y) or a list of pawns)",
        ));
    }
    let mut pawns = Vec::with_capacity(at.len());
    for (index, &(x, y)) in at.iter().enumerate() {
        let cell = cell_of("at", index, (x, y))?;
        if blocked.contains(cell) {
            return Err(value_error(format!(
                "at[{index}] is ({x}, {y}), an impassable cell: a pawn stands on an open one"
            )));
        }
        pawns.push(cell);
    }
    Ok(pawns)
}

/// The pawns after `mv` (pawn `mv.pawn` goes to `(mv.x, mv.y)`), the
/// engine's move rule ([`Outcomes::is_legal_move`]) saying whether it is
/// legal; else a `ValueError` with the move in the command line's words
/// and why: no such pawn, not toward the origin along a row or column,
/// onto an impassable cell or over one (named).
fn pawns_after(pawns: &[Cell], blocked: &Blocked, mv: &Move) -> PyResult<Vec<Cell>> {
    let Some(&from) = pawns.get(mv.pawn) else {
        return Err(value_error(format!(
            "move.pawn is {}: {}",
            mv.pawn,
            match pawns.len() {
                1 => "there is only 1 pawn (pawn 0)".to_owned(),
                n => format!("there are only {n} pawns (0 to {})", n - 1),
            }
        )));
    };
    // The move's coordinates are within MAX_COORD, checked when it was made.
    let to = Cell::new(mv.x.into(), mv.y.into()).map_err(value_error)?;
    let outcomes = Outcomes::new(blocked);
    if outcomes.is_legal_move(from, to) {
        let mut after = pawns.to_vec();
        after[mv.pawn] = to;
        return Ok(after);
    }
    let named = (pawns.len() > 1).then_some(mv.pawn);
    let words = grundy_report::words::pawn_move(named, from, to);
    let along_row = from.y() == to.y() && to.x() < from.x();
    let along_column = from.x() == to.x() && to.y() < from.y();
    let why = if !along_row && !along_column {
        "a pawn moves toward the origin along its row or its column (x or y decreases by at \
         least 1, the other stays)"
            .to_owned()
    } else if blocked.contains(to) {
        format!("{to} is impassable")
    } else {
        // The impassable cell nearest the pawn on its way.
        let between = |c: &Cell| {
            if along_row {
                c.y() == from.y() && to.x() < c.x() && c.x() < from.x()
            } else {
                c.x() == from.x() && to.y() < c.y() && c.y() < from.y()
            }
        };
        match blocked
            .iter()
            .filter(between)
            .max_by_key(|c| (c.x(), c.y()))
        {
            Some(wall) => format!("it passes over the impassable cell {wall}"),
            None => "the engine refuses it".to_owned(),
        }
    };
    // Coordinates are the same numbers everywhere; a pawn's number is not.
    Err(value_error(match named {
        Some(_) => crate::illegal_from_1(&words, "pawns", &why),
        None => grundy_report::words::illegal(&words, &why),
    }))
}

/// The pawns `at` among the impassable cells of `text` (as
/// [`pawn_analyze`] takes them) after `mv`, each as `(x, y)`.
#[pyfunction]
#[pyo3(signature = (at, mv, text, source))]
fn pawn_after(
    at: Vec<(u64, u64)>,
    mv: &Bound<'_, Move>,
    text: &str,
    source: &str,
) -> PyResult<Vec<(u32, u32)>> {
    let blocked = blocked_of(text, source)?;
    let pawns = pawns_of(&at, &blocked)?;
    let after = pawns_after(&pawns, &blocked, mv.get())?;
    Ok(after.iter().map(|c| (c.x(), c.y())).collect())
}

/// The engine's move on the pawns `at` among the impassable cells of
/// `text`, as `grundy pawn --move` gives it: always a move while a pawn can
/// move, proven by the values or outcomes, or for a sum with a pawn past
/// the region of values its best guess (see
/// [`grundy_report::pawn::engine_report`]). The GIL is released.
#[pyfunction]
#[pyo3(signature = (at, text, source))]
fn pawn_engine_move<'py>(
    py: Python<'py>,
    at: Vec<(u64, u64)>,
    text: &str,
    source: &str,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let blocked = blocked_of(text, source)?;
    let pawns = pawns_of(&at, &blocked)?;
    let report = py
        .detach(|| {
            let outcomes = Outcomes::new(&blocked);
            grundy_report::pawn::engine_report(&blocked, &outcomes, &pawns)
        })
        .map_err(value_error)?;
    let chosen = report.map(|report| {
        let mv = Move {
            pawn: report.mv.pawn,
            x: report.mv.x,
            y: report.mv.y,
        };
        (mv, report)
    });
    crate::engine_dict(py, chosen)
}

/// Analyses the pawns `at` among the impassable cells of `text` (the
/// format of `grundy pawn FILE`).
#[pyfunction]
#[pyo3(signature = (at, text, source, one = false))]
fn pawn_analyze(
    py: Python<'_>,
    at: Vec<(u64, u64)>,
    text: &str,
    source: &str,
    one: bool,
) -> PyResult<PawnAnalysis> {
    let blocked = blocked_of(text, source)?;
    let pawns = pawns_of(&at, &blocked)?;
    let analysis = analysis_of(py, &blocked, &pawns)?;
    Ok(PawnAnalysis {
        pawns,
        one: one && at.len() == 1,
        blocked,
        analysis,
    })
}

/// The analysis of `pawns` (on open cells) among `blocked`, with the GIL
/// released: deterministic and without a budget, so a pickled
/// [`PawnAnalysis`] is restored by running it again.
fn analysis_of(py: Python<'_>, blocked: &Blocked, pawns: &[Cell]) -> PyResult<Analysis> {
    py.detach(|| {
        let outcomes = Outcomes::new(blocked);
        Analysis::of(blocked, &outcomes, pawns)
    })
    .map_err(|err| match err {
        // The pawn named as Python names it, `at[i]` (the CLI's text
        // numbers them from 1), as the arguments' checks name them.
        AnalysisError::SumBeyondRegion { index, cell } => value_error(format!(
            "a sum of pawns needs Grundy values, which are computed for cells below \
                 {0} x {0}, and beyond only for cells with no impassable cell at or below-left \
                 of them (their value is x xor y); at[{index}] is ({1}, {2}), beyond, with \
                 impassable cells below-left",
            grundy::pawn::MAX_REGION_SIDE,
            cell.x(),
            cell.y()
        )),
        err => value_error(err),
    })
}

#[pymethods]
impl PawnAnalysis {
    /// The total value (the XOR of the pawns' values), or `None` when a
    /// pawn at 4096 or beyond with an impassable cell below-left of it has
    /// an outcome known but not its value (and does not pair with another
    /// on its cell or drop out of the sum on a losing cell).
    #[getter]
    fn value(&self) -> Option<u32> {
        self.analysis.total.map(Nimber::value)
    }

    /// Each pawn's value (`None` beyond 4096 x 4096 with an impassable cell
    /// below-left).
    #[getter]
    fn values(&self) -> Vec<Option<u32>> {
        self.analysis
            .pawns
            .iter()
            .map(|(_, v)| v.map(Nimber::value))
            .collect()
    }

    /// Whether each pawn alone is a losing cell for the player to move.
    #[getter]
    fn losing(&self) -> Vec<bool> {
        self.analysis
            .pawns
            .iter()
            .map(|(k, _)| *k == CellKind::Losing)
            .collect()
    }

    /// `"first"` when the player to move wins, else `"second"`.
    #[getter]
    fn winner(&self) -> &'static str {
        grundy_report::words::winner(self.analysis.first_wins)
    }

    /// False when `winning_moves` may miss some: a won sum whose pawns on
    /// losing cells, or paired on shared cells, drop out without their
    /// values (pawns at 4096 or beyond with an impassable cell
    /// below-left), so that their own moves are not examined.
    #[getter]
    fn winning_moves_complete(&self) -> bool {
        self.analysis.unexamined.is_empty()
    }

    /// The winning moves: every one unless `winning_moves_complete` is
    /// False.
    #[getter]
    fn winning_moves(&self) -> Vec<Move> {
        self.analysis
            .moves
            .iter()
            .map(|m| Move {
                pawn: m.pawn,
                x: m.to.x(),
                y: m.to.y(),
            })
            .collect()
    }

    /// The pawns after `mv`, in the form the analysis was given: one
    /// `(x, y)` for a pawn, else the list of every pawn's `(x, y)`.
    fn after<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // `move`, as the stubs and docs name it (a keyword only in Rust).
        let mv = r#move;
        // Worded as `grundy.pawn.after` words it, not as PyO3's cast.
        let mv = mv.cast::<Move>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "move must be a grundy.pawn.Move, not {}",
                crate::type_name(mv)
            ))
        })?;
        let after = pawns_after(&self.pawns, &self.blocked, mv.get())?;
        let mut cells: Vec<(u32, u32)> = after.iter().map(|c| (c.x(), c.y())).collect();
        if self.one {
            cells.pop().into_pyobject(py).map(Bound::into_any)
        } else {
            cells.into_pyobject(py)
        }
    }

    /// Every legal move with the total value it leaves (needs values: pawns
    /// below 4096 x 4096). The GIL is released; Ctrl-C stops it.
    fn options(&self, py: Python<'_>) -> PyResult<Vec<(Move, u32)>> {
        interrupt::run_watched(py, |stop| self.options_stopped_by(stop))?
    }

    /// Why, in Sprague-Grundy terms, as `grundy pawn --explain` says it: a
    /// dict of the API's `explain` fields and `text` (see
    /// [`crate::explanation_dict`]).
    fn explain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let explained = interrupt::run_watched(py, |_| {
            grundy_report::explain::pawn(&self.analysis, &self.pawns, &self.blocked)
        })?;
        crate::explanation_dict(py, &explained.map_err(value_error)?)
    }

    /// An optimal play-out, as `grundy pawn --play`: each move with the
    /// total value it leaves. The GIL is released; Ctrl-C stops it.
    fn play(&self, py: Python<'_>) -> PyResult<Vec<(Move, u32)>> {
        interrupt::run_watched(py, |stop| self.play_stopped_by(stop))?
    }

    fn __repr__(&self) -> String {
        format!(
            "PawnAnalysis(pawns={}, value={}, winner={}, winning_moves={})",
            self.pawns.len(),
            crate::repr_option(self.value()),
            crate::repr_str(self.winner()),
            self.analysis.moves.len()
        )
    }

    /// `(_restore_pawn_analysis, ((1, pawns, one, blocked),))`, pawns and
    /// impassable cells as `(x, y)`: the analysis itself (its table of
    /// values among them) does not travel, the restore runs it again.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (PawnState,))> {
        let xy = |c: Cell| (u64::from(c.x()), u64::from(c.y()));
        Ok((
            crate::restore_function(py, "_restore_pawn_analysis")?,
            ((
                crate::STATE_VERSION,
                self.pawns.iter().copied().map(xy).collect(),
                self.one,
                self.blocked.iter().map(xy).collect(),
            ),),
        ))
    }

    /// Itself: it never changes.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Itself: it never changes.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// A [`PawnAnalysis`] as pickled state: `(version, pawns, one, blocked)`,
/// cells as `(x, y)`.
type PawnState = (u32, Vec<(u64, u64)>, bool, Vec<(u64, u64)>);

const PAWN_ANALYSIS: &str = "grundy.pawn.PawnAnalysis";

/// The analysis a [`PawnAnalysis`]'s `__reduce__` pickled, made again by
/// [`pawn_analyze`]'s own steps: the same checks of the cells, the same
/// analysis.
#[pyfunction]
fn _restore_pawn_analysis(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PawnAnalysis> {
    let bad = |err: PyErr| crate::bad_state(PAWN_ANALYSIS, err.value(py));
    let (_, at, one, walls): PawnState = crate::restored_state(state, PAWN_ANALYSIS)?;
    let walls = walls
        .iter()
        .enumerate()
        .map(|(index, &cell)| cell_of("blocked", index, cell))
        .collect::<PyResult<Vec<Cell>>>()
        .map_err(bad)?;
    let blocked = Blocked::new(&walls).map_err(|e| bad(value_error(e)))?;
    let pawns = pawns_of(&at, &blocked).map_err(bad)?;
    if one && pawns.len() != 1 {
        return Err(bad(value_error(format!(
            "one pawn given as (x, y), but {} pawns",
            pawns.len()
        ))));
    }
    let analysis = analysis_of(py, &blocked, &pawns).map_err(bad)?;
    Ok(PawnAnalysis {
        pawns,
        one,
        blocked,
        analysis,
    })
}

impl PawnAnalysis {
    /// [`PawnAnalysis::options`], leaving between pawns once `stop` is set.
    fn options_stopped_by(&self, stop: &Stop) -> PyResult<Vec<(Move, u32)>> {
        let table = self.table()?;
        let values = self.current_values(table, &self.pawns)?;
        let total: Nimber = values.iter().copied().sum();
        let mut out = Vec::new();
        for (index, &from) in self.pawns.iter().enumerate() {
            stop.check();
            table
                .for_each_move(from, |to, value| {
                    out.push((
                        Move {
                            pawn: index,
                            x: to.x(),
                            y: to.y(),
                        },
                        (total ^ values[index] ^ value).value(),
                    ));
                })
                .map_err(value_error)?;
        }
        Ok(out)
    }

    /// [`PawnAnalysis::play`], leaving between moves once `stop` is set.
    fn play_stopped_by(&self, stop: &Stop) -> PyResult<Vec<(Move, u32)>> {
        let steps = play_out(self.table()?, &self.pawns, || stop.check()).map_err(value_error)?;
        Ok(steps
            .into_iter()
            .map(|step| {
                (
                    Move {
                        pawn: step.pawn,
                        x: step.to.x(),
                        y: step.to.y(),
                    },
                    step.total_after.value(),
                )
            })
            .collect())
    }

    /// The table of values the moves' values are read from, or the error
    /// naming the first pawn past it, as `grundy pawn --play` does.
    fn table(&self) -> PyResult<&ValueTable> {
        self.analysis.table.as_ref().ok_or_else(|| {
            let side = grundy::pawn::MAX_REGION_SIDE;
            let beyond = self
                .pawns
                .iter()
                .find(|p| p.x() >= side || p.y() >= side)
                .unwrap_or(&self.pawns[0]);
            value_error(format!(
                "moves' values need a table of values, made for pawns below {side} x {side}; \
                 {beyond} is beyond (explain() and the winning moves do not need it)"
            ))
        })
    }

    fn current_values(&self, table: &ValueTable, pawns: &[Cell]) -> PyResult<Vec<Nimber>> {
        pawns
            .iter()
            .map(|&p| {
                table
                    .value(p)
                    .ok_or_else(|| value_error("a pawn outside the table"))
            })
            .collect()
    }
}

/// What each of `cells` is among the impassable cells of `text`:
/// `"losing"`, `"winning"` or `"blocked"`, in the order given. One sweep
/// of the rows answers them all (`LosingLines::classify_by_rows`, the
/// `gridgame` judge's), after a sort of the cells by row.
#[pyfunction]
#[pyo3(signature = (cells, text, source))]
fn pawn_classify(
    py: Python<'_>,
    cells: Vec<(u64, u64)>,
    text: &str,
    source: &str,
) -> PyResult<Vec<&'static str>> {
    let blocked = blocked_of(text, source)?;
    let checked = cells
        .iter()
        .enumerate()
        .map(|(index, &at)| cell_of("cells", index, at))
        .collect::<PyResult<Vec<Cell>>>()?;
    py.detach(|| {
        // Stable by row, so the answers map back by the permutation.
        let mut order: Vec<usize> = (0..checked.len()).collect();
        order.sort_by_key(|&i| checked[i].y());
        let by_rows: Vec<Cell> = order.iter().map(|&i| checked[i]).collect();
        let kinds = LosingLines::classify_by_rows(&blocked, &by_rows).map_err(value_error)?;
        let mut words = vec![""; checked.len()];
        for (&i, kind) in order.iter().zip(kinds) {
            words[i] = match kind {
                CellKind::Losing => "losing",
                CellKind::Winning => "winning",
                CellKind::Blocked => "blocked",
            };
        }
        Ok(words)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Move>()?;
    m.add_class::<PawnAnalysis>()?;
    m.add_function(wrap_pyfunction!(_restore_pawn_analysis, m)?)?;
    m.add_function(wrap_pyfunction!(pawn_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(pawn_engine_move, m)?)?;
    m.add_function(wrap_pyfunction!(pawn_after, m)?)?;
    m.add_function(wrap_pyfunction!(pawn_classify, m)?)?;
    m.add("PAWN_MAX_COORD", grundy::pawn::MAX_COORD)?;
    Ok(())
}
