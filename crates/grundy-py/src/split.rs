//! `grundy.split`: the splitting game. Values and every move's value come
//! from grundy-report's analysis (as `grundy split --json`); the play-out
//! follows `grundy split --play`: the player facing a non-zero value plays
//! the first winning move, the other the first move leaving the largest
//! value.

use grundy::split::{Cell, Position, SplitSolver};
use grundy_report::split::{check_fits, Analysis, EngineMoveReport, Refusal};
use pyo3::prelude::*;

use crate::interrupt::{self, Stop};
use crate::{parse, stopped_after, Limits};

/// A candidate cell `(row, col)`, 0-based: the move that deletes its row
/// and column from the rectangle holding it. Ordered by `(row, col)`: the
/// derived order, so the fields keep that order.
#[pyclass(
    frozen,
    eq,
    ord,
    hash,
    get_all,
    name = "SplitMove",
    module = "grundy.split"
)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    row: u32,
    col: u32,
}

#[pymethods]
impl Move {
    #[new]
    fn new(row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<Move> {
        // Within u32::MAX, checked.
        let index = |name, value, what| {
            crate::index_arg(name, value, what, (grundy::split::MAX_SIDE - 1).into())
                .map(|v| v as u32)
        };
        Ok(Move {
            row: index("row", row, "a row index")?,
            col: index("col", col, "a column index")?,
        })
    }

    fn __repr__(&self) -> String {
        format!("Move(row={}, col={})", self.row, self.col)
    }

    /// `(SplitMove, (row, col))`: pickle, `copy` and `deepcopy`
    /// call the constructor again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, pyo3::types::PyType>, (u32, u32)) {
        let m = slf.get();
        (slf.get_type(), (m.row, m.col))
    }
}

impl From<Cell> for Move {
    fn from(cell: Cell) -> Move {
        Move {
            row: cell.row,
            col: cell.col,
        }
    }
}

/// The analysis of a splitting-game grid. Picklable: the grid (as its
/// candidates), the moves, the limits, the value and the options travel,
/// the position is rebuilt from them; `copy` gives the object itself.
#[pyclass(frozen, module = "grundy.split")]
pub struct SplitAnalysis {
    /// The position reached by `moves` from the grid.
    position: Position,
    /// The moves replayed from the grid, in order.
    moves: Vec<Cell>,
    limits: Limits,
    #[pyo3(get)]
    value: u32,
    #[pyo3(get)]
    rows: u32,
    #[pyo3(get)]
    cols: u32,
    options: Vec<(Cell, u32)>,
}

/// A solver under `limits` that `stop` ends (on Ctrl-C, see
/// [`interrupt::run_watched`]).
fn solver(limits: &Limits, stop: &Stop) -> SplitSolver {
    let mut solver = SplitSolver::new()
        .with_budget(grundy::Budget {
            max_memory: None,
            ..stop.budget(limits.budget())
        })
        .with_stop(stop.flag());
    if let Some(bytes) = limits.max_memory {
        solver = solver.with_memory_limit(bytes);
    }
    solver
}

/// A grid given as text: `cells` selects the `--cells` format, else rows
/// of 0/1.
fn grid_of(text: &str, source: &str, cells: bool) -> PyResult<grundy::split::Grid> {
    if cells {
        parse::cells(text, source)
    } else {
        parse::matrix(text, source)
    }
}

/// A grid to analyse, given as text (as [`grid_of`] reads it), refused up
/// front as `grundy split FILE` refuses it ([`check_fits`]): a block past
/// a dense table's candidates is a `ValueError`, a block whose table would
/// pass `max_memory` a `BudgetExceeded` naming the bytes it needs. The
/// `--cells` format is not checked, as the CLI does not check it.
fn grid_to_analyse(
    py: Python<'_>,
    text: &str,
    source: &str,
    cells: bool,
    max_memory: Option<u64>,
) -> PyResult<grundy::split::Grid> {
    if cells {
        return parse::cells(text, source);
    }
    let parsed = parse::parsed_matrix(text, source)?;
    // Without a memory budget every table fits; the block limit remains.
    let limit = max_memory.unwrap_or(u64::MAX);
    match check_fits(&parsed, text.as_bytes(), limit, "max_memory") {
        Ok(()) => Ok(parsed.grid),
        Err(Refusal::Unsupported(err)) => Err(parse::located(source, &err)),
        Err(Refusal::OverBudget(err, _)) => Err(crate::refused_for_memory(
            py,
            &format!("{source}:{err}"),
            limit,
        )),
    }
}

/// Why splitting at `cell` is illegal, in the command line's words, which
/// count from 1 (and say so).
fn illegal(position: &Position, cell: Cell) -> String {
    crate::illegal_from_1(
        &grundy_report::words::split_move(cell),
        "cells",
        &grundy_report::split::why_illegal(position, cell),
    )
}

/// The position `moves` (`(row, col)`, 0-based) reach from `grid`, each
/// checked by the engine's `try_play` as the web API replays a request's
/// moves; an illegal one is a `ValueError` naming it as Python counts it
/// and worded as the command line words it (`moves[1]: split at (1,2) is
/// illegal (cells counting from 1, ...): ...`).
fn replay(grid: grundy::split::Grid, moves: &[(u64, u64)]) -> PyResult<(Position, Vec<Cell>)> {
    let mut position = Position::new(grid);
    let mut played = Vec::with_capacity(moves.len());
    for (index, &(row, col)) in moves.iter().enumerate() {
        let (rows, cols) = (position.grid().rows(), position.grid().cols());
        let (Ok(r), Ok(c)) = (u32::try_from(row), u32::try_from(col)) else {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "moves[{index}] is ({row}, {col}): outside the {rows} x {cols} grid"
            )));
        };
        let cell = Cell::new(r, c);
        position = position.try_play(cell).map_err(|_| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "moves[{index}]: {}",
                illegal(&position, cell)
            ))
        })?;
        played.push(cell);
    }
    Ok((position, played))
}

/// Analyses the position `moves` reach from a grid given as text: `cells`
/// selects the `--cells` format (`R C`, then `row col` per candidate),
/// else rows of 0/1.
#[pyfunction]
#[pyo3(signature = (text, source, cells, max_positions, max_time, max_memory, moves = Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn split_analyze(
    py: Python<'_>,
    text: &str,
    source: &str,
    cells: bool,
    max_positions: Option<u64>,
    max_time: Option<f64>,
    max_memory: Option<u64>,
    moves: Vec<(u64, u64)>,
) -> PyResult<SplitAnalysis> {
    let grid = grid_to_analyse(py, text, source, cells, max_memory)?;
    let limits = Limits::new(max_positions, max_time, max_memory);
    let (position, moves) = replay(grid, &moves)?;
    let outcome = interrupt::run_watched(py, |stop| {
        let mut solver = solver(&limits, stop);
        Analysis::of(&mut solver, &position).map_err(|e| (e, solver.positions_solved()))
    })?;
    let analysis = outcome.map_err(|(err, solved)| stopped_after(py, &err, solved))?;
    Ok(SplitAnalysis {
        rows: position.grid().rows(),
        cols: position.grid().cols(),
        value: analysis.value.value(),
        options: analysis
            .options
            .iter()
            .map(|&(c, v)| (c, v.value()))
            .collect(),
        position,
        moves,
        limits,
    })
}

/// The engine's move on the position `moves` reach from a grid given as
/// text (as [`split_analyze`] reads them), as `grundy split --move --json`
/// gives it: `{"move": Move or None, "proven", "kind", "grundy", "reason", "text"}`, always
/// within the time budget (5 s when `max_time` is `None`).
#[pyfunction]
#[pyo3(signature = (text, source, cells, max_positions, max_time, max_memory, moves = Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn split_engine_move<'py>(
    py: Python<'py>,
    text: &str,
    source: &str,
    cells: bool,
    max_positions: Option<u64>,
    max_time: Option<f64>,
    max_memory: Option<u64>,
    moves: Vec<(u64, u64)>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let grid = grid_of(text, source, cells)?;
    let (position, _) = replay(grid, &moves)?;
    let limits = Limits::new(max_positions, max_time, max_memory);
    let mut budget = grundy::Budget {
        max_memory: None,
        ..limits.budget()
    };
    if limits.max_time.is_none() {
        budget.max_time = Some(DEFAULT_MOVE_TIME);
    }
    // Ctrl-C sets the engine's stop flag: it ends the search within one
    // step of it (a sweep of a dense table, one option), and the
    // handler's exception is raised in place of the move.
    let choice = interrupt::run_watched(py, |stop| {
        grundy::split::choose_move_until(
            &position,
            stop.budget(budget),
            limits.max_memory.unwrap_or(u64::MAX),
            Some(stop.flag()),
        )
    })?;
    let chosen = choice.as_ref().map(EngineMoveReport::new).map(|report| {
        (
            Move {
                row: report.mv.row,
                col: report.mv.col,
            },
            report,
        )
    });
    crate::engine_dict(py, chosen)
}

/// The time [`split_engine_move`] takes at most when `max_time` is `None`,
/// as `grundy split --move`'s.
const DEFAULT_MOVE_TIME: std::time::Duration = std::time::Duration::from_secs(5);

#[pymethods]
impl SplitAnalysis {
    /// `"first"` when the player to move wins, else `"second"`.
    #[getter]
    fn winner(&self) -> &'static str {
        grundy_report::words::winner(self.value != 0)
    }

    /// Every winning move (the moves leaving value 0).
    #[getter]
    fn winning_moves(&self) -> Vec<Move> {
        self.options
            .iter()
            .filter(|(_, v)| *v == 0)
            .map(|&(c, _)| c.into())
            .collect()
    }

    /// The candidate cells `(row, col)`.
    #[getter]
    fn candidates(&self) -> Vec<(u32, u32)> {
        self.position
            .grid()
            .candidates()
            .iter()
            .map(|c| (c.row, c.col))
            .collect()
    }

    /// The moves played from the grid to the position analysed, as given
    /// to `moves`.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.moves.iter().map(|&c| c.into()).collect()
    }

    /// `moves` with `mv` (a `SplitMove` or a `(row, col)` pair) played
    /// after them, checked legal here: the `moves` of the position after
    /// it.
    fn after(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<Move>> {
        let mv = r#move;
        let cell = match mv.cast::<Move>() {
            Ok(m) => Cell::new(m.get().row, m.get().col),
            Err(_) => {
                let (row, col): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
                    mv.extract().map_err(|_| {
                        pyo3::exceptions::PyTypeError::new_err(
                            "move must be a grundy.split.Move or a (row, col) pair",
                        )
                    })?;
                let index = |name, value, what| {
                    crate::index_arg(name, value, what, (grundy::split::MAX_SIDE - 1).into())
                        .map(|v| v as u32)
                };
                Cell::new(
                    index("row", &row, "a row index")?,
                    index("col", &col, "a column index")?,
                )
            }
        };
        if self.position.try_play(cell).is_err() {
            return Err(pyo3::exceptions::PyValueError::new_err(illegal(
                &self.position,
                cell,
            )));
        }
        Ok(self
            .moves
            .iter()
            .chain([&cell])
            .map(|&c| c.into())
            .collect())
    }

    /// Every legal move with the value it leaves (0: a winning move).
    fn options(&self) -> Vec<(Move, u32)> {
        self.options.iter().map(|&(c, v)| (c.into(), v)).collect()
    }

    /// Why, in Sprague-Grundy terms, as `grundy split --explain` says it: a
    /// dict of the API's `explain` fields and `text` (see
    /// [`crate::explanation_dict`]).
    fn explain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let outcome = interrupt::run_watched(py, |stop| {
            let mut solver = solver(&self.limits, stop);
            let explained = Analysis::of(&mut solver, &self.position).and_then(|analysis| {
                grundy_report::explain::split(&mut solver, &self.position, &analysis)
            });
            explained.map_err(|err| (err, solver.positions_solved()))
        })?;
        match outcome {
            Ok(explanation) => crate::explanation_dict(py, &explanation),
            Err((err, solved)) => Err(stopped_after(py, &err, solved)),
        }
    }

    /// An optimal play-out, as `grundy split --play`: each move with the
    /// value it leaves.
    fn play(&self, py: Python<'_>) -> PyResult<Vec<(Move, u32)>> {
        let outcome = interrupt::run_watched(py, |stop| {
            let mut solver = solver(&self.limits, stop);
            let mut position = self.position.clone();
            let mut steps = Vec::new();
            loop {
                // The engine move of the CLI and the page (one rule).
                match Analysis::of(&mut solver, &position).map(|a| a.engine_move()) {
                    Ok(Some((cell, left))) => {
                        position = position.play_unchecked(cell);
                        steps.push((Move::from(cell), left.value()));
                    }
                    Ok(None) => return Ok(steps),
                    Err(err) => return Err((err, solver.positions_solved())),
                }
            }
        })?;
        outcome.map_err(|(err, solved)| stopped_after(py, &err, solved))
    }

    fn __repr__(&self) -> String {
        format!(
            "SplitAnalysis(rows={}, cols={}, value={}, winner={}, winning_moves={})",
            self.rows,
            self.cols,
            self.value,
            crate::repr_str(self.winner()),
            self.options.iter().filter(|(_, v)| *v == 0).count()
        )
    }

    /// `(_restore_split_analysis, (state,))`, the state plain data (see
    /// [`SplitState`]): the grid as its candidate cells, the moves
    /// replayed, the limits and the stored value and options.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (SplitState,))> {
        Ok((
            crate::restore_function(py, "_restore_split_analysis")?,
            (self.state(),),
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

/// A [`SplitAnalysis`] as pickled state: `(version, rows, cols, candidates
/// as (row, col), moves as (row, col), limits, value, options as (row,
/// col, value))`. Candidates rather than rows of text: a grid may be
/// 10^9 x 10^9.
type SplitState = (
    u32,
    u32,
    u32,
    Vec<(u32, u32)>,
    Vec<(u64, u64)>,
    crate::LimitsState,
    u32,
    Vec<(u32, u32, u32)>,
);

const SPLIT_ANALYSIS: &str = "grundy.split.SplitAnalysis";

impl SplitAnalysis {
    fn state(&self) -> SplitState {
        (
            crate::STATE_VERSION,
            self.rows,
            self.cols,
            self.candidates(),
            self.moves
                .iter()
                .map(|c| (c.row.into(), c.col.into()))
                .collect(),
            self.limits.state(),
            self.value,
            self.options
                .iter()
                .map(|&(c, v)| (c.row, c.col, v))
                .collect(),
        )
    }
}

/// The analysis a [`SplitAnalysis`]'s `__reduce__` pickled: the grid
/// rebuilt by the engine's constructor and the moves replayed by its
/// `try_play` (as `analyze` replays them), each option checked a legal
/// move of the position reached, and the value checked against them (the
/// mex of the options' values).
#[pyfunction]
fn _restore_split_analysis(state: &Bound<'_, PyAny>) -> PyResult<SplitAnalysis> {
    let bad = |why: String| crate::bad_state(SPLIT_ANALYSIS, why);
    let (_, rows, cols, candidates, moves, limits, value, options): SplitState =
        crate::restored_state(state, SPLIT_ANALYSIS)?;
    let grid = grundy::split::Grid::new(
        rows.into(),
        cols.into(),
        candidates.into_iter().map(|(r, c)| Cell::new(r, c)),
    )
    .map_err(|e| bad(e.to_string()))?;
    let (position, moves) = replay(grid, &moves).map_err(|e| bad(e.to_string()))?;
    let options: Vec<(Cell, u32)> = options
        .into_iter()
        .map(|(r, c, v)| (Cell::new(r, c), v))
        .collect();
    let mut legal: Vec<Cell> = position.moves().map(|(_, c)| c).collect();
    let mut given: Vec<Cell> = options.iter().map(|&(c, _)| c).collect();
    legal.sort_unstable();
    given.sort_unstable();
    if legal != given {
        return Err(bad(format!(
            "its {} options are not the position's {} legal moves",
            given.len(),
            legal.len()
        )));
    }
    let mex = grundy::mex(options.iter().map(|&(_, v)| grundy::Nimber::new(v))).value();
    if mex != value {
        return Err(bad(format!(
            "value {value} is not the mex {mex} of its options' values"
        )));
    }
    Ok(SplitAnalysis {
        rows: position.grid().rows(),
        cols: position.grid().cols(),
        value,
        options,
        position,
        moves,
        limits: Limits::restored(limits, SPLIT_ANALYSIS)?,
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Move>()?;
    m.add_class::<SplitAnalysis>()?;
    m.add_function(wrap_pyfunction!(_restore_split_analysis, m)?)?;
    m.add_function(wrap_pyfunction!(split_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(split_engine_move, m)?)?;
    m.add("SPLIT_MAX_SIDE", grundy::split::MAX_SIDE)?;
    Ok(())
}
