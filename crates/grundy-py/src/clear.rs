//! `grundy.clear`: rectangle clearing on boards of up to 64 cells, alone or
//! as a sum. The analysis is grundy-report's (the one `grundy clear --json`
//! prints); the play-out follows `grundy clear --play`: the player facing a
//! non-zero total plays the first winning move, the other the smallest
//! rectangle leaving the largest value ([`engine_move`]).

use std::sync::{Arc, Mutex, PoisonError};

use grundy::clear::large::{LargeBoard, LargeRect};
use grundy::clear::shapes::ShapeLookup;
use grundy::clear::{Board, Clear, ClearSolver};
use grundy::SolveError;
use grundy_report::clear::{engine_move, move_values, Analysis, Partial};
use grundy_report::parse::clear::{board_rows, large_board_rows};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyDict;

use crate::interrupt::{self, Pending, Stop};
use crate::{budget_exceeded, parse, tables, Limits};

/// A move of rectangle clearing: clear the rectangle `top..=bottom` x
/// `left..=right` (0-based, inclusive) of board `board`. Ordered (as a
/// [`LargeMove`](crate::large::LargeMove) is) by `(board, top, left,
/// bottom, right)`, the key equality compares; pickled and copied as the
/// call of its constructor.
#[pyclass(frozen, get_all, name = "ClearMove", module = "grundy.clear")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    board: usize,
    top: u8,
    left: u8,
    bottom: u8,
    right: u8,
}

/// A move's board and sides as a constructor is given them, checked: the
/// board an index from 0, each side an index from 0 to `max`, the top row
/// at most the bottom one and the left column at most the right one. The
/// error names the argument.
pub(crate) fn checked_move(
    board: Option<&Bound<'_, PyAny>>,
    sides: [&Bound<'_, PyAny>; 4],
    max: u32,
    max_board: u64,
) -> PyResult<(usize, [u32; 4])> {
    // Board 0 when none is given; within `max_board`, at most u32::MAX.
    let board = match board {
        Some(board) => crate::index_arg("board", board, "a board's index", max_board)? as usize,
        None => 0,
    };
    let names = ["top", "left", "bottom", "right"];
    let mut checked = [0u32; 4];
    for (i, (&name, &side)) in names.iter().zip(&sides).enumerate() {
        let what = if i % 2 == 0 {
            "a row index"
        } else {
            "a column index"
        };
        // Within `max`, a u32.
        checked[i] = crate::index_arg(name, side, what, max.into())? as u32;
    }
    let [top, left, bottom, right] = checked;
    if top > bottom || left > right {
        let (a, b, x, y) = if top > bottom {
            ("top", "bottom", top, bottom)
        } else {
            ("left", "right", left, right)
        };
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{a} is {x} and {b} is {y}: a rectangle's {a} is at most its {b}"
        )));
    }
    Ok((board, checked))
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (top, left, bottom, right, board = None), text_signature = "(top, left, bottom, right, board=0)")]
    fn new(
        top: &Bound<'_, PyAny>,
        left: &Bound<'_, PyAny>,
        bottom: &Bound<'_, PyAny>,
        right: &Bound<'_, PyAny>,
        board: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Move> {
        let (board, [top, left, bottom, right]) = checked_move(
            board,
            [top, left, bottom, right],
            u8::MAX.into(),
            u32::MAX.into(),
        )?;
        // Within u8::MAX, checked above.
        let side = |v: u32| v as u8;
        Ok(Move::at(
            board,
            side(top),
            side(left),
            side(bottom),
            side(right),
        ))
    }

    fn __repr__(&self) -> String {
        repr_move("Move", self.key())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        compare_move(self.key(), other, op)
    }

    fn __hash__(&self) -> u64 {
        hash_move(self.key())
    }

    /// `(ClearMove, (top, left, bottom, right, board))`: pickle, `copy` and
    /// `deepcopy` call the constructor again.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (u8, u8, u8, u8, usize)) {
        let m = slf.get();
        (slf.get_type(), (m.top, m.left, m.bottom, m.right, m.board))
    }
}

/// A clear move as `(board, top, left, bottom, right)`: a [`Move`] and a
/// [`LargeMove`](crate::large::LargeMove) that clear the same cells print
/// alike, so they are the same move, equal and of one hash, whichever
/// class the board's size gave it.
pub(crate) type MoveKey = (u64, u32, u32, u32, u32);

/// The key of a move of either class; `None` for anything else (whose
/// comparison Python then makes the other way, or calls unequal).
pub(crate) fn move_key(other: &Bound<'_, PyAny>) -> Option<MoveKey> {
    if let Ok(small) = other.cast::<Move>() {
        return Some(small.get().key());
    }
    other
        .cast::<crate::large::LargeMove>()
        .ok()
        .map(|large| large.get().key())
}

/// `op` (`==`, `<`, ...) of a move whose key is `key` with `other`, keys
/// compared as tuples: `NotImplemented` for anything but a clear move, so
/// that Python asks `other` (or says unequal, or raises `TypeError` for an
/// order).
pub(crate) fn compare_move(key: MoveKey, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
    let py = other.py();
    match move_key(other) {
        Some(theirs) => pyo3::types::PyBool::new(py, op.matches(key.cmp(&theirs)))
            .to_owned()
            .into_any()
            .unbind(),
        None => py.NotImplemented(),
    }
}

/// The repr of a move of class `class` (`Move` or `LargeMove`) from its
/// key: the same fields in the same order, as the two compare and hash
/// alike, and each class's own name, so that it evaluates back to a move of
/// that class (a `Move`'s sides fit a byte, a `LargeMove`'s need not).
pub(crate) fn repr_move(class: &str, (board, top, left, bottom, right): MoveKey) -> String {
    format!("{class}(top={top}, left={left}, bottom={bottom}, right={right}, board={board})")
}

/// The hash of a move of either class, from its key alone.
pub(crate) fn hash_move(key: MoveKey) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

impl Move {
    fn key(&self) -> MoveKey {
        (
            self.board as u64,
            self.top.into(),
            self.left.into(),
            self.bottom.into(),
            self.right.into(),
        )
    }

    /// Clear `top..=bottom` x `left..=right` of board `board`.
    pub(crate) fn at(board: usize, top: u8, left: u8, bottom: u8, right: u8) -> Move {
        Move {
            board,
            top,
            left,
            bottom,
            right,
        }
    }

    pub(crate) fn of(board: usize, rect: grundy::clear::Rect) -> Move {
        Move {
            board,
            top: rect.top,
            left: rect.left,
            bottom: rect.bottom,
            right: rect.right,
        }
    }
}

/// A 4-connected component of a board's ones: its cells as `(row, col)`
/// and its value. Picklable; `copy` gives the object itself; equal to a
/// component of the same board, cells and value.
#[pyclass(frozen, get_all, eq, hash, module = "grundy.clear")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Component {
    board: usize,
    cells: Vec<(usize, usize)>,
    value: u32,
}

/// A [`Component`] as part of an analysis's pickled state: `(board,
/// cells, value)`.
type ComponentState = (usize, Vec<(usize, usize)>, u32);

/// A [`Component`] as pickled state on its own: `(version, board, cells,
/// value)`.
type VersionedComponent = (u32, usize, Vec<(usize, usize)>, u32);

const COMPONENT: &str = "grundy.clear.Component";

#[pymethods]
impl Component {
    fn __repr__(&self) -> String {
        format!(
            "Component(board={}, cells={:?}, value={})",
            self.board, self.cells, self.value
        )
    }

    /// `(_restore_component, ((1, board, cells, value),))`: pickle calls
    /// the module's restore function with the versioned state.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (VersionedComponent,))> {
        let (board, cells, value) = self.state();
        Ok((
            crate::restore_function(py, "_restore_component")?,
            ((crate::STATE_VERSION, board, cells, value),),
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

impl Component {
    fn state(&self) -> ComponentState {
        (self.board, self.cells.clone(), self.value)
    }
}

/// The component a [`Component`]'s `__reduce__` pickled.
#[pyfunction]
fn _restore_component(state: &Bound<'_, PyAny>) -> PyResult<Component> {
    let (_, board, cells, value): VersionedComponent = crate::restored_state(state, COMPONENT)?;
    if cells.is_empty() {
        return Err(crate::bad_state(COMPONENT, "a component has cells"));
    }
    Ok(Component {
        board,
        cells,
        value,
    })
}

/// A shape memo kept across calls (`grundy.clear.Solver`): what one
/// search found answers the next at once. Each call takes the solver out
/// and puts it back when it returns, whether its search finished, ran out
/// of budget or was stopped by Ctrl-C (the memo holds only completed
/// values: Ctrl-C sets the solver's stop flag, which the search checks
/// where it checks its clock, rather than unwinding out of it). A call
/// that finds the solver taken by another thread's call searches with a
/// fresh one and keeps it only if the memo is still empty when it returns.
#[pyclass(frozen, module = "grundy.clear")]
pub struct ClearMemo {
    shapes: Arc<dyn ShapeLookup>,
    solver: Arc<Mutex<Option<ClearSolver>>>,
    threads: u8,
}

#[pymethods]
impl ClearMemo {
    #[new]
    #[pyo3(signature = (tables, threads = None))]
    fn new(
        tables: Option<&Bound<'_, tables::Database>>,
        threads: Option<u8>,
    ) -> PyResult<ClearMemo> {
        Ok(ClearMemo {
            shapes: tables::lookup(tables),
            solver: Arc::new(Mutex::new(None)),
            threads: threads_or_default(threads)?,
        })
    }

    /// The bytes the memo holds now, with what the helper thread holds
    /// (not the most it may hold, which `max_memory` counts).
    fn memory_bytes(&self) -> usize {
        lock(&self.solver)
            .as_ref()
            .map_or(0, ClearSolver::held_bytes)
    }

    /// Forgets every value.
    fn clear(&self) {
        *lock(&self.solver) = None;
    }
}

impl ClearMemo {
    /// The kept solver (or a fresh one) under `limits`, stopped by `stop`.
    pub(crate) fn take(&self, limits: &Limits, stop: &Stop) -> ClearSolver {
        take_solver(&self.solver, &self.shapes, limits, stop, self.threads)
    }

    /// Keeps `solver` (see the type's doc).
    pub(crate) fn put(&self, solver: ClearSolver) {
        put_solver(&self.solver, solver);
    }
}

fn lock(memo: &Mutex<Option<ClearSolver>>) -> std::sync::MutexGuard<'_, Option<ClearSolver>> {
    // A poisoned lock holds a whole solver or none.
    memo.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `threads` as given (1 or 2), or the default of `grundy clear --threads`.
pub(crate) fn threads_or_default(threads: Option<u8>) -> PyResult<u8> {
    match threads {
        None => Ok(grundy::clear::default_threads()),
        Some(n @ 1..=2) => Ok(n),
        Some(n) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "threads must be 1 or 2, not {n}"
        ))),
    }
}

/// The solver of `memo` (or a fresh one) for one call under `limits`,
/// stopped through its stop flag by `stop` ([`interrupt::run_watched`]),
/// which leaves the memo whole.
fn take_solver(
    memo: &Mutex<Option<ClearSolver>>,
    shapes: &Arc<dyn ShapeLookup>,
    limits: &Limits,
    stop: &Stop,
    threads: u8,
) -> ClearSolver {
    let kept = lock(memo).take();
    let mut solver =
        kept.unwrap_or_else(|| Clear::with_shapes(shapes.clone()).into_solver_on(threads));
    solver.set_budget(stop.budget(limits.budget()));
    solver.set_progress(None);
    solver.set_stop(Some(stop.flag()));
    solver
}

fn put_solver(memo: &Mutex<Option<ClearSolver>>, solver: ClearSolver) {
    let mut kept = lock(memo);
    if kept.is_none() {
        *kept = Some(solver);
    }
}

/// The analysis of a board or a sum of boards.
///
/// Picklable (for `multiprocessing`): the boards and every answer travel,
/// with the limits and threads, but not the shape databases (`tables`)
/// nor the memo of a `Solver`; the restored analysis's `options()`,
/// `play()` and `explain()` search with the built-in tables and no memo,
/// to the same answers, maybe slower. `copy.copy` and `copy.deepcopy`
/// give the object itself, tables and memo kept.
#[pyclass(frozen, module = "grundy.clear")]
pub struct ClearAnalysis {
    boards: Vec<Board>,
    shapes: Arc<dyn ShapeLookup>,
    limits: Limits,
    /// The memo of the `grundy.clear.Solver` that made it, which its
    /// options and play-out search with.
    memo: Option<Arc<Mutex<Option<ClearSolver>>>>,
    /// The threads of its searches.
    threads: u8,
    /// True when the boards were given as a list of boards (a sum), so
    /// that `after` gives a list back even for one board.
    as_list: bool,
    #[pyo3(get)]
    value: u32,
    #[pyo3(get)]
    winning_moves: Vec<Move>,
    #[pyo3(get)]
    components: Vec<Component>,
    #[pyo3(get)]
    board_values: Vec<u32>,
}

/// A solver on `shapes` under `limits` on `threads` threads, whose progress
/// callback notices Ctrl-C.
pub(crate) fn solver(
    shapes: Arc<dyn ShapeLookup>,
    limits: &Limits,
    pending: &Pending,
    threads: u8,
) -> ClearSolver {
    Clear::with_shapes(shapes)
        .into_solver_on(threads)
        .with_budget(limits.budget())
        .with_progress(pending.callback())
}

/// What a stopped clear search found: the value of every component the
/// memo knows (board, cells, value), the count of shapes solved, and who
/// wins with the winning moves found when pairs or an outcome search prove
/// it (`winner` `"first"`, `"second"` or `None`; `value` when known).
fn found<'py>(py: Python<'py>, partial: &Partial) -> PyResult<Bound<'py, PyDict>> {
    let analysis = &partial.analysis;
    let known: Vec<Component> = (0..analysis.components.len())
        .filter_map(|index| {
            let info = analysis.components[index];
            let value = analysis.classes[info.class as usize].value?;
            let cells = analysis
                .component_runs(index)
                .iter()
                .flat_map(|run| {
                    (run.start..run.end).map(move |col| (run.row as usize, col as usize))
                })
                .collect();
            Some(Component {
                board: info.board as usize,
                cells,
                value: value.value(),
            })
        })
        .collect();
    let moves: Vec<Move> = analysis
        .winning
        .iter()
        .map(|m| {
            let board = analysis.components[m.component as usize].board as usize;
            Move::of(board, small_rect(m.rect))
        })
        .collect();
    let dict = PyDict::new(py);
    dict.set_item("positions_solved", partial.positions_solved)?;
    dict.set_item("components", known)?;
    dict.set_item("winner", grundy_report::large::winner(analysis))?;
    dict.set_item("value", analysis.value.map(grundy::Nimber::value))?;
    dict.set_item("winning_moves", moves)?;
    Ok(dict)
}

/// A rectangle of a board of at most 64 cells, whose sides fit a byte.
fn small_rect(rect: grundy::clear::large::LargeRect) -> grundy::clear::Rect {
    let byte = |at: u32| u8::try_from(at).expect("a board of at most 64 cells");
    grundy::clear::Rect {
        top: byte(rect.top),
        left: byte(rect.left),
        bottom: byte(rect.bottom),
        right: byte(rect.right),
    }
}

fn cells_of(board: &Board, cells: grundy::clear::Bitboard) -> Vec<(usize, usize)> {
    cells
        .cells()
        .map(|i| (i as usize / board.cols(), i as usize % board.cols()))
        .collect()
}

/// Analyses the boards in `texts`: `(text, source)` pairs in the board
/// format of `grundy clear`, each one board or several, played as one sum.
/// With `memo`, the search goes on from its memo (and `tables` is the
/// memo's).
#[pyfunction]
#[pyo3(signature = (texts, max_positions, max_time, max_memory, tables, memo = None, threads = None, as_list = false))]
#[allow(clippy::too_many_arguments)]
fn clear_analyze(
    py: Python<'_>,
    texts: Vec<(String, String)>,
    max_positions: Option<u64>,
    max_time: Option<f64>,
    max_memory: Option<u64>,
    tables: Option<&Bound<'_, tables::Database>>,
    memo: Option<&Bound<'_, ClearMemo>>,
    threads: Option<u8>,
    as_list: bool,
) -> PyResult<ClearAnalysis> {
    let boards = parse::all_boards(&texts)?;
    let limits = Limits::new(max_positions, max_time, max_memory);
    let memo = memo.map(|m| m.get());
    let threads = match memo {
        Some(memo) => memo.threads,
        None => threads_or_default(threads)?,
    };
    let shapes = memo.map_or_else(|| tables::lookup(tables), |m| m.shapes.clone());
    let outcome = match memo {
        Some(memo) => interrupt::run_watched(py, |stop| {
            let mut solver = memo.take(&limits, stop);
            let outcome =
                Analysis::of_or_partial(&mut solver, &boards, stop.budget(limits.budget()));
            memo.put(solver);
            outcome
        }),
        None => interrupt::run(py, |pending| {
            let mut solver = solver(shapes.clone(), &limits, pending, threads);
            Analysis::of_or_partial(&mut solver, &boards, limits.budget())
        }),
    }?;
    let analysis = match outcome {
        Ok(analysis) => analysis,
        Err(partial) => {
            return Err(budget_exceeded(
                py,
                &partial.values_stopped,
                found(py, &partial)?,
            ))
        }
    };
    let components = boards
        .iter()
        .zip(&analysis.boards)
        .enumerate()
        .flat_map(|(index, (board, a))| {
            a.components.iter().map(move |&(cells, value)| Component {
                board: index,
                cells: cells_of(board, cells),
                value: value.value(),
            })
        })
        .collect();
    Ok(ClearAnalysis {
        value: analysis.total.value(),
        winning_moves: analysis
            .winning
            .iter()
            .map(|m| Move::of(m.board, m.rect))
            .collect(),
        components,
        board_values: analysis.boards.iter().map(|b| b.value.value()).collect(),
        boards,
        shapes,
        limits,
        memo: memo.map(|m| Arc::clone(&m.solver)),
        threads,
        as_list,
    })
}

/// The error for a search after the analysis (options, play-out) that ran
/// out: what it found is the count of shapes solved.
fn stopped(py: Python<'_>, err: &SolveError, solved: u64) -> PyErr {
    let dict = PyDict::new(py);
    let filled = dict
        .set_item("positions_solved", solved)
        .and_then(|()| dict.set_item("components", Vec::<Component>::new()));
    match filled {
        Ok(()) => budget_exceeded(py, err, dict),
        Err(e) => e,
    }
}

#[pymethods]
impl ClearAnalysis {
    /// `"first"` when the player to move wins, else `"second"`.
    #[getter]
    fn winner(&self) -> &'static str {
        grundy_report::clear::winner(grundy::Nimber::new(self.value))
    }

    /// The boards, as lists of rows of `0`/`1`, in the form
    /// `grundy.clear.analyze` reads back as this sum (see
    /// [`position_object`]: boards all one column wide as rows of 0/1
    /// numbers).
    #[getter]
    fn boards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        position_object(py, self.boards.iter().map(board_rows).collect(), true)
    }

    /// Every legal move with the total value it leaves (0: a winning move).
    fn options(&self, py: Python<'_>) -> PyResult<Vec<(Move, u32)>> {
        let outcome = self.with_solver(py, |solver| {
            move_values(solver, &self.boards, usize::MAX)
                .map_err(|e| (e, solver.positions_solved()))
        })?;
        match outcome {
            Ok(values) => Ok(values
                .moves
                .iter()
                .map(|m| (Move::of(m.mv.board, m.mv.rect()), m.grundy))
                .collect()),
            Err((err, solved)) => Err(stopped(py, &err, solved)),
        }
    }

    /// Why, in Sprague-Grundy terms, as `grundy clear --explain` says it: a
    /// dict of the API's `explain` fields and `text` (see
    /// [`crate::explanation_dict`]).
    fn explain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let outcome = self.with_solver(py, |solver| {
            let explained = Analysis::of(solver, &self.boards).and_then(|analysis| {
                let moves =
                    grundy_report::explain::clear_component_moves(solver, &self.boards, &analysis)?;
                let pieces =
                    grundy_report::explain::clear_winning_pieces(solver, &self.boards, &analysis)?;
                Ok(grundy_report::explain::clear(
                    &self.boards,
                    &analysis,
                    Some(&moves),
                    Some(&pieces),
                ))
            });
            explained.map_err(|err| (err, solver.positions_solved()))
        })?;
        match outcome {
            Ok(explanation) => crate::explanation_dict(py, &explanation),
            Err((err, solved)) => Err(stopped(py, &err, solved)),
        }
    }

    /// An optimal play-out, as `grundy clear --play`: each move with the
    /// total value it leaves, the first player's move first.
    fn play(&self, py: Python<'_>) -> PyResult<Vec<(Move, u32)>> {
        let outcome = self.with_solver(py, |solver| self.play_out(solver))?;
        outcome.map_err(|(err, solved)| stopped(py, &err, solved))
    }

    /// The position after `mv` (a `ClearMove` or `LargeMove`), played on
    /// this analysis's boards, in the form the analysis was given: the
    /// rows of the board for one board, else the list of the boards' rows.
    fn after<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // `move`, as the stubs and docs name it (a keyword only in Rust).
        let mv = r#move;
        let boards = boards_after(&self.boards, clear_move_key(mv)?)?;
        position_object(py, boards, self.as_list)
    }

    fn __repr__(&self) -> String {
        format!(
            "ClearAnalysis(value={}, winner={}, winning_moves={}, boards={})",
            self.value,
            crate::repr_str(self.winner()),
            self.winning_moves.len(),
            self.boards.len()
        )
    }

    /// `(_restore_clear_analysis, (state,))`, the state plain data (see
    /// [`ClearState`]): the boards and every stored answer travel; the
    /// shape databases and the memo of a `Solver` do not.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (ClearState,))> {
        Ok((
            crate::restore_function(py, "_restore_clear_analysis")?,
            (self.state(),),
        ))
    }

    /// Itself, with its tables and memo: it never changes.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Itself, with its tables and memo: it never changes.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// A [`ClearAnalysis`] as pickled state: `(version, boards as (rows, cols,
/// cells' bits), limits, threads, as_list, value, winning moves as (board,
/// top, left, bottom, right), components, board_values)`.
type ClearState = (
    u32,
    Vec<(usize, usize, u64)>,
    crate::LimitsState,
    u8,
    bool,
    u32,
    Vec<(usize, u8, u8, u8, u8)>,
    Vec<ComponentState>,
    Vec<u32>,
);

const CLEAR_ANALYSIS: &str = "grundy.clear.ClearAnalysis";

impl ClearAnalysis {
    fn state(&self) -> ClearState {
        (
            crate::STATE_VERSION,
            self.boards
                .iter()
                .map(|b| (b.rows(), b.cols(), b.cells().0))
                .collect(),
            self.limits.state(),
            self.threads,
            self.as_list,
            self.value,
            self.winning_moves
                .iter()
                .map(|m| (m.board, m.top, m.left, m.bottom, m.right))
                .collect(),
            self.components.iter().map(Component::state).collect(),
            self.board_values.clone(),
        )
    }
}

/// The analysis a [`ClearAnalysis`]'s `__reduce__` pickled, its searches
/// (`options`, `play`, `explain`) on the built-in tables and no memo. The
/// boards, moves and components are checked against each other, and the
/// value against the boards' values: a state whose parts do not fit is a
/// `ValueError`. The values are not searched again (that is the search the
/// pickle spares): a pickle is trusted data.
#[pyfunction]
fn _restore_clear_analysis(state: &Bound<'_, PyAny>) -> PyResult<ClearAnalysis> {
    let bad = |why: String| crate::bad_state(CLEAR_ANALYSIS, why);
    let (_, boards, limits, threads, as_list, value, moves, components, board_values): ClearState =
        crate::restored_state(state, CLEAR_ANALYSIS)?;
    let boards = boards
        .into_iter()
        .map(|(rows, cols, cells)| Board::new(rows, cols, cells).map_err(|e| bad(e.to_string())))
        .collect::<PyResult<Vec<Board>>>()?;
    if boards.is_empty() {
        return Err(bad("no boards".to_owned()));
    }
    if board_values.len() != boards.len() {
        return Err(bad(format!(
            "{} board values for {} boards",
            board_values.len(),
            boards.len()
        )));
    }
    if board_values.iter().fold(0, |total, v| total ^ v) != value {
        return Err(bad(format!(
            "value {value} is not the XOR of the boards' values"
        )));
    }
    let winning_moves = moves
        .into_iter()
        .map(|(board, top, left, bottom, right)| {
            let rect = grundy::clear::Rect {
                top,
                left,
                bottom,
                right,
            };
            match boards.get(board).map(|b| b.try_play(rect)) {
                Some(Ok(_)) => Ok(Move::at(board, top, left, bottom, right)),
                _ => Err(bad(format!(
                    "winning move ({top}, {left}, {bottom}, {right}) of board {board} is illegal"
                ))),
            }
        })
        .collect::<PyResult<Vec<Move>>>()?;
    let components = components
        .into_iter()
        .map(|(board, cells, value)| {
            let on = boards.get(board);
            let all_ones = !cells.is_empty()
                && cells
                    .iter()
                    .all(|&(row, col)| on.is_some_and(|b| b.get(row, col)));
            if !all_ones {
                return Err(bad(format!(
                    "a component of board {board} is not of its ones"
                )));
            }
            Ok(Component {
                board,
                cells,
                value,
            })
        })
        .collect::<PyResult<Vec<Component>>>()?;
    Ok(ClearAnalysis {
        boards,
        shapes: tables::lookup(None),
        limits: Limits::restored(limits, CLEAR_ANALYSIS)?,
        memo: None,
        threads: threads_or_default(Some(threads))?,
        as_list,
        value,
        winning_moves,
        components,
        board_values,
    })
}

impl ClearAnalysis {
    /// Runs `work` with the GIL released, Ctrl-C stopping it, on the solver
    /// of the `grundy.clear.Solver` that made this analysis (put back
    /// after, also when Ctrl-C stopped it), or on a fresh one.
    fn with_solver<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut ClearSolver) -> R + Send,
    ) -> PyResult<R> {
        match &self.memo {
            Some(memo) => interrupt::run_watched(py, |stop| {
                let mut solver = take_solver(memo, &self.shapes, &self.limits, stop, self.threads);
                let result = work(&mut solver);
                put_solver(memo, solver);
                result
            }),
            None => interrupt::run(py, |pending| {
                work(&mut solver(
                    self.shapes.clone(),
                    &self.limits,
                    pending,
                    self.threads,
                ))
            }),
        }
    }

    /// An optimal play-out (see `play`), or the error that stopped it with
    /// the count of shapes solved.
    fn play_out(&self, solver: &mut ClearSolver) -> Result<Vec<(Move, u32)>, (SolveError, u64)> {
        let mut boards = self.boards.clone();
        let mut steps = Vec::new();
        loop {
            match engine_move(solver, &boards) {
                Ok(Some(chosen)) => {
                    boards[chosen.board] = chosen.after;
                    steps.push((
                        Move::of(chosen.board, chosen.rect),
                        chosen.total_after.value(),
                    ));
                }
                Ok(None) => return Ok(steps),
                Err(err) => return Err((err, solver.positions_solved())),
            }
        }
    }
}

/// A board a move is played on, of at most 64 cells or of any size: the
/// engine's own `try_play` says whether the move is legal.
pub(crate) trait Playable: Sized {
    /// `(rows, cols)`.
    fn size(&self) -> (u64, u64);
    /// True when cell `(row, col)` of the board is 1.
    fn one(&self, row: u64, col: u64) -> bool;
    /// The board after clearing `rect`, or `None` when the engine refuses
    /// the move.
    fn played(&self, rect: LargeRect) -> Option<Self>;
    /// The rows, as the board format's one writer writes them.
    fn rows(&self) -> Vec<String>;
}

impl Playable for Board {
    fn size(&self) -> (u64, u64) {
        (self.rows() as u64, self.cols() as u64)
    }

    fn one(&self, row: u64, col: u64) -> bool {
        // At most 64 rows and columns: the casts are exact for any cell
        // of the board, and `get` is false past it.
        self.get(row as usize, col as usize)
    }

    fn played(&self, rect: LargeRect) -> Option<Board> {
        let byte = |at: u32| u8::try_from(at).ok();
        let rect = grundy::clear::Rect {
            top: byte(rect.top)?,
            left: byte(rect.left)?,
            bottom: byte(rect.bottom)?,
            right: byte(rect.right)?,
        };
        self.try_play(rect).ok()
    }

    fn rows(&self) -> Vec<String> {
        board_rows(self)
    }
}

impl Playable for LargeBoard {
    fn size(&self) -> (u64, u64) {
        (self.rows().into(), self.cols().into())
    }

    fn one(&self, row: u64, col: u64) -> bool {
        match (u32::try_from(row), u32::try_from(col)) {
            (Ok(row), Ok(col)) if row < self.rows() && col < self.cols() => self.get(row, col),
            _ => false,
        }
    }

    fn played(&self, rect: LargeRect) -> Option<LargeBoard> {
        self.try_play(rect).ok()
    }

    fn rows(&self) -> Vec<String> {
        large_board_rows(self)
    }
}

/// The key of `mv`, a `ClearMove` or a `LargeMove`; a `TypeError` for
/// anything else.
pub(crate) fn clear_move_key(mv: &Bound<'_, PyAny>) -> PyResult<MoveKey> {
    move_key(mv).ok_or_else(|| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "move must be a grundy.clear.Move or LargeMove, not {}",
            crate::type_name(mv)
        ))
    })
}

/// Every board's rows after the move of `key` on `boards`, or a
/// `ValueError`: no such board (`move.board` named, from 0), or the move
/// worded as the command line does (from 1, naming its board in a sum)
/// with why it is illegal: a row or column outside the board, or the
/// first cell of the rectangle that is 0.
pub(crate) fn boards_after<B: Playable>(boards: &[B], key: MoveKey) -> PyResult<Vec<Vec<String>>> {
    let (board, top, left, bottom, right) = key;
    let rect = LargeRect {
        top,
        left,
        bottom,
        right,
    };
    // A move's board index is at most u32::MAX, so it fits a usize.
    let index = board as usize;
    let named = (boards.len() > 1 || index != 0).then_some(index);
    let illegal = |why: String| {
        pyo3::exceptions::PyValueError::new_err(crate::illegal_from_1(
            &grundy_report::words::clear_move(named, rect),
            "cells",
            &why,
        ))
    };
    let Some(on) = boards.get(index) else {
        // Named as the index it is (from 0), as a pawn's is: worded from 1,
        // a board that does not exist would read as one that does.
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "move.board is {board}: {}",
            match boards.len() {
                1 => "there is only 1 board (board 0)".to_owned(),
                n => format!("there are only {n} boards (0 to {})", n - 1),
            }
        )));
    };
    let Some(after) = on.played(rect) else {
        return Err(illegal(why_illegal(on, rect)));
    };
    Ok(boards
        .iter()
        .enumerate()
        .map(|(i, b)| if i == index { after.rows() } else { b.rows() })
        .collect())
}

/// Why clearing `rect` (inside out corners refused by the moves'
/// constructors) is illegal on `board`, 1-based.
pub(crate) fn why_illegal<B: Playable>(board: &B, rect: LargeRect) -> String {
    let (rows, cols) = board.size();
    let (bottom, right) = (u64::from(rect.bottom), u64::from(rect.right));
    if bottom >= rows {
        return format!("row {} lies outside the {rows} x {cols} board", bottom + 1);
    }
    if right >= cols {
        return format!(
            "column {} lies outside the {rows} x {cols} board",
            right + 1
        );
    }
    for row in u64::from(rect.top)..=bottom {
        for col in u64::from(rect.left)..=right {
            if !board.one(row, col) {
                return format!("cell ({},{}) is 0", row + 1, col + 1);
            }
        }
    }
    "not all ones".to_owned()
}

/// The boards of `texts` (any size, as `grundy.clear.analyze` takes
/// them; `max_memory` bounds a board's cells as there) after `mv`, as
/// [`position_object`] gives them.
#[pyfunction]
#[pyo3(signature = (texts, mv, max_memory, as_list))]
fn clear_after<'py>(
    py: Python<'py>,
    texts: Vec<(String, String)>,
    mv: &Bound<'py, PyAny>,
    max_memory: Option<u64>,
    as_list: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let key = clear_move_key(mv)?;
    let boards = crate::large::boards_of(&texts, max_memory)?;
    position_object(py, boards_after(&boards, key)?, as_list)
}

/// A position as `grundy.clear.analyze` takes it back: one board's rows
/// (unless it was given as a list of boards), else the list of the boards'
/// rows. A sum of boards one column wide comes back as rows of 0/1 numbers
/// (`[[[1], [0]], [[1]]]`): as strings, its rows would be lists of single
/// characters, which `analyze` refuses as ambiguous (they read as one board
/// too).
pub(crate) fn position_object(
    py: Python<'_>,
    mut boards: Vec<Vec<String>>,
    as_list: bool,
) -> PyResult<Bound<'_, PyAny>> {
    if boards.len() == 1 && !as_list {
        return boards.pop().into_pyobject(py);
    }
    let one_column = boards.iter().flatten().all(|row| row.len() == 1);
    if one_column {
        let numbers: Vec<Vec<[u32; 1]>> = boards
            .iter()
            .map(|rows| rows.iter().map(|row| [u32::from(row == "1")]).collect())
            .collect();
        return numbers.into_pyobject(py);
    }
    boards.into_pyobject(py)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Move>()?;
    m.add_function(wrap_pyfunction!(clear_after, m)?)?;
    m.add_class::<Component>()?;
    m.add_class::<ClearAnalysis>()?;
    m.add_function(wrap_pyfunction!(_restore_component, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_clear_analysis, m)?)?;
    m.add_class::<ClearMemo>()?;
    m.add_function(wrap_pyfunction!(clear_analyze, m)?)?;
    Ok(())
}
