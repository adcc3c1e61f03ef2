//! `grundy.clear` on boards of any size: the analysis of
//! [`grundy::clear::large`] (the one `grundy clear --json` prints past 64
//! cells) and the engine's move (`grundy clear --move`). The boards are read
//! by the one parser of the board format ([`grundy_report::parse::clear`]).

use grundy::clear::large::{
    analyse, analysis_bytes, choose_move, unanalysed_move, Analyzer, LargeAnalysis, LargeBoard,
    LargeRect, Run,
};
use grundy::{Nimber, SolveError};
use grundy_report::large::winner;
use grundy_report::parse::clear::parse_large_boards;
use grundy_report::parse::{ParseError, ParseErrorKind};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;

use crate::clear::{
    boards_after, clear_move_key, position_object, threads_or_default, ClearMemo, Playable,
};
use crate::interrupt;
use crate::{tables, Limits};

/// The memory a board may take when `max_memory` is not given, as the
/// command line's default.
const DEFAULT_BOARD_MEMORY: u64 = 8 << 30;

/// The time an analysis or a move takes at most when `max_time` is not
/// given, as the command line's defaults.
pub(crate) const DEFAULT_TIME: f64 = 30.0;
const DEFAULT_MOVE_TIME: f64 = 5.0;

/// A move of a board of any size: clear rows `top..=bottom` and columns
/// `left..=right` (0-based, inclusive) of board `board`. Equal to, ordered
/// with and hashed as the [`Move`](crate::clear::Move) of the same
/// rectangle on the same board (one key, `(board, top, left, bottom,
/// right)`). It has a constructor of its own, so that pickle and `copy`
/// give back a `LargeMove` (a `ClearMove` would not hold sides past 255).
#[pyclass(frozen, get_all, name = "LargeMove", module = "grundy.clear")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LargeMove {
    board: u32,
    top: u32,
    left: u32,
    bottom: u32,
    right: u32,
}

#[pymethods]
impl LargeMove {
    #[new]
    #[pyo3(signature = (top, left, bottom, right, board = None), text_signature = "(top, left, bottom, right, board=0)")]
    fn new(
        top: &Bound<'_, PyAny>,
        left: &Bound<'_, PyAny>,
        bottom: &Bound<'_, PyAny>,
        right: &Bound<'_, PyAny>,
        board: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<LargeMove> {
        let (board, [top, left, bottom, right]) = crate::clear::checked_move(
            board,
            [top, left, bottom, right],
            u32::MAX,
            u32::MAX.into(),
        )?;
        Ok(LargeMove {
            // Within u32::MAX, checked above.
            board: board as u32,
            top,
            left,
            bottom,
            right,
        })
    }

    fn __repr__(&self) -> String {
        crate::clear::repr_move("LargeMove", self.key())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: pyo3::pyclass::CompareOp) -> Py<PyAny> {
        crate::clear::compare_move(self.key(), other, op)
    }

    fn __hash__(&self) -> u64 {
        crate::clear::hash_move(self.key())
    }

    /// `(LargeMove, (top, left, bottom, right, board))`: pickle, `copy` and
    /// `deepcopy` call the constructor again.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (u32, u32, u32, u32, u32)) {
        let m = slf.get();
        (slf.get_type(), (m.top, m.left, m.bottom, m.right, m.board))
    }
}

impl LargeMove {
    pub(crate) fn key(&self) -> crate::clear::MoveKey {
        (
            self.board.into(),
            self.top,
            self.left,
            self.bottom,
            self.right,
        )
    }

    pub(crate) fn of(board: u32, rect: grundy::clear::large::LargeRect) -> LargeMove {
        LargeMove {
            board,
            top: rect.top,
            left: rect.left,
            bottom: rect.bottom,
            right: rect.right,
        }
    }
}

/// A component as Python sees it: `(board, cells, value or None)`.
type ComponentTuple = (u32, Vec<(u32, u32)>, Option<u32>);

/// A component as the analysis keeps it: `(board, runs of cells, value or
/// None)`, its cells listed only when `components` is first read (a board
/// of millions of ones lists millions of cells).
type ComponentRuns = (u32, Vec<Run>, Option<u32>);

/// The cells of `runs`, row by row.
fn cells_of(runs: &[Run]) -> Vec<(u32, u32)> {
    runs.iter()
        .flat_map(|run| (run.start..run.end).map(move |c| (run.row, c)))
        .collect()
}

/// `cells` as runs: each cell joins the run before it when it is the next
/// cell of its row.
fn runs_of(cells: &[(u32, u32)]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for &(row, col) in cells {
        match runs.last_mut() {
            Some(run) if run.row == row && run.end == col => run.end += 1,
            _ => runs.push(Run {
                row,
                start: col,
                end: col + 1,
            }),
        }
    }
    runs
}

/// The analysis of a board (or a sum) of any size. `value` and `winner` are
/// `None` when the budget ran out before they were known; `stopped` then
/// says which budget. It keeps its boards, for `after`. Picklable (the
/// boards and every answer travel); `copy` gives the object itself.
#[pyclass(frozen, module = "grundy.clear")]
pub struct LargeClearAnalysis {
    /// The total value, or `None`.
    #[pyo3(get)]
    value: Option<u32>,
    /// `"first"`, `"second"`, or `None`.
    #[pyo3(get)]
    winner: Option<&'static str>,
    /// The winning moves found.
    #[pyo3(get)]
    winning_moves: Vec<LargeMove>,
    /// True when `winning_moves` lists every winning move.
    #[pyo3(get)]
    winning_moves_complete: bool,
    /// Each component: `(board, runs, value or None)`, read as
    /// `components`.
    component_runs: Vec<ComponentRuns>,
    /// `components` as a list, made when first read.
    components_list: PyOnceLock<Py<PyList>>,
    /// Each class of congruent components: `(cells, count, value or None)`;
    /// a class met an even number of times cancels from the total.
    #[pyo3(get)]
    classes: Vec<(u64, u32, Option<u32>)>,
    /// The budget that ran out, in words, or `None`.
    #[pyo3(get)]
    stopped: Option<String>,
    /// The boards analysed, for `after`.
    boards: Vec<LargeBoard>,
    /// True when the position was given as a list of boards (`after` gives
    /// it back in that form).
    as_list: bool,
}

#[pymethods]
impl LargeClearAnalysis {
    /// Refused, as `grundy clear --explain` refuses boards past 64 cells:
    /// their analysis gives each class of shapes, the pairs that cancel
    /// and the total instead.
    fn explain(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyValueError::new_err(
            "explain() explains boards of at most 64 cells; a larger board's analysis gives \
             each class of shapes (classes), the pairs that cancel and the total",
        ))
    }

    /// The position after `mv` (a `LargeMove` or `Move`), played on this
    /// analysis's boards, in the form the analysis was given, as
    /// `ClearAnalysis.after` and `grundy.clear.after` give it.
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
            "LargeClearAnalysis(value={}, winner={}, winning_moves={}, components={})",
            crate::repr_option(self.value),
            crate::repr_option(self.winner.map(crate::repr_str)),
            self.winning_moves.len(),
            self.component_runs.len()
        )
    }

    /// Each component: `(board, cells, value or None)`, cells `(row, col)`;
    /// listed when first read, the same list after (copy it before
    /// changing it).
    #[getter]
    fn components(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = self.components_list.get_or_try_init(py, || {
            let tuples = self
                .component_runs
                .iter()
                .map(|(board, runs, value)| (*board, cells_of(runs), *value));
            PyList::new(py, tuples).map(Bound::unbind)
        })?;
        Ok(list.clone_ref(py))
    }

    /// `(_restore_large_clear_analysis, (state,))`: its boards and its
    /// answers, all it holds, travel (see [`LargeState`]).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (LargeState,))> {
        Ok((
            crate::restore_function(py, "_restore_large_clear_analysis")?,
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

/// A [`LargeClearAnalysis`] as pickled state: `(version, value, winner,
/// winning moves as (board, top, left, bottom, right),
/// winning_moves_complete, components, classes, stopped, the boards' rows,
/// as_list)`.
type LargeState = (
    u32,
    Option<u32>,
    Option<String>,
    Vec<(u32, u32, u32, u32, u32)>,
    bool,
    Vec<ComponentTuple>,
    Vec<(u64, u32, Option<u32>)>,
    Option<String>,
    Vec<Vec<String>>,
    bool,
);

const LARGE_ANALYSIS: &str = "grundy.clear.LargeClearAnalysis";

impl LargeClearAnalysis {
    fn state(&self) -> LargeState {
        (
            crate::STATE_VERSION,
            self.value,
            self.winner.map(str::to_owned),
            self.winning_moves
                .iter()
                .map(|m| (m.board, m.top, m.left, m.bottom, m.right))
                .collect(),
            self.winning_moves_complete,
            self.component_runs
                .iter()
                .map(|(board, runs, value)| (*board, cells_of(runs), *value))
                .collect(),
            self.classes.clone(),
            self.stopped.clone(),
            self.boards.iter().map(Playable::rows).collect(),
            self.as_list,
        )
    }
}

/// The analysis a [`LargeClearAnalysis`]'s `__reduce__` pickled. Its
/// boards are read by the board format's parser; of its answers, what can
/// be checked without solving again is ([`consistent`]): the winner is one
/// of the two words and agrees with the value, each winning move is legal
/// and none is listed for a lost position, each component's cells are ones
/// of its board, the components' values XOR to the value, and the classes
/// count the components by size and value.
#[pyfunction]
fn _restore_large_clear_analysis(state: &Bound<'_, PyAny>) -> PyResult<LargeClearAnalysis> {
    let bad = |why: String| crate::bad_state(LARGE_ANALYSIS, why);
    let (
        _,
        value,
        winner,
        moves,
        winning_moves_complete,
        components,
        classes,
        stopped,
        rows,
        as_list,
    ): LargeState = crate::restored_state(state, LARGE_ANALYSIS)?;
    let mut boards = Vec::with_capacity(rows.len());
    for (index, rows) in rows.iter().enumerate() {
        let parsed = parse_large_boards(rows.join("\n").as_bytes(), None)
            .map_err(|err| bad(format!("board {index}: {err}")))?;
        let [board] = <[_; 1]>::try_from(parsed)
            .map_err(|_| bad(format!("board {index} is not one board")))?;
        boards.push(board.board);
    }
    let winner = match winner.as_deref() {
        None => None,
        Some(word) => Some(
            [true, false]
                .into_iter()
                .map(grundy_report::words::winner)
                .find(|&w| w == word)
                .ok_or_else(|| bad(format!("winner is {}", crate::repr_str(word))))?,
        ),
    };
    if let Some(v) = value {
        if winner != Some(grundy_report::words::winner(v != 0)) {
            return Err(bad(format!(
                "value {v} with winner {}",
                crate::repr_option(winner.map(crate::repr_str))
            )));
        }
    }
    let winning_moves = moves
        .into_iter()
        .map(|(board, top, left, bottom, right)| {
            if top > bottom || left > right {
                return Err(bad(format!(
                    "winning move ({top}, {left}, {bottom}, {right}) has its corners out of order"
                )));
            }
            Ok(LargeMove {
                board,
                top,
                left,
                bottom,
                right,
            })
        })
        .collect::<PyResult<Vec<LargeMove>>>()?;
    consistent(
        &boards,
        value,
        winner,
        &winning_moves,
        &components,
        &classes,
    )
    .map_err(bad)?;
    Ok(LargeClearAnalysis {
        value,
        winner,
        winning_moves,
        winning_moves_complete,
        component_runs: components
            .into_iter()
            .map(|(board, cells, value)| (board, runs_of(&cells), value))
            .collect(),
        components_list: PyOnceLock::new(),
        classes,
        stopped,
        boards,
        as_list,
    })
}

/// What [`_restore_large_clear_analysis`] checks of a pickled analysis's
/// answers against its boards, without solving again: `Err` says the first
/// that does not hold.
fn consistent(
    boards: &[LargeBoard],
    value: Option<u32>,
    winner: Option<&str>,
    winning_moves: &[LargeMove],
    components: &[ComponentTuple],
    classes: &[(u64, u32, Option<u32>)],
) -> Result<(), String> {
    if winner == Some(grundy_report::words::winner(false)) && !winning_moves.is_empty() {
        return Err("a lost position with winning moves".to_owned());
    }
    // Checked in place: a line of 2^16 cells lists 2^15 winning moves,
    // and playing each on a copy of the board would take seconds.
    for m in winning_moves {
        let rect = LargeRect {
            top: m.top,
            left: m.left,
            bottom: m.bottom,
            right: m.right,
        };
        let Some(on) = boards.get(m.board as usize) else {
            return Err(format!(
                "winning move on board {}, which is not there",
                m.board
            ));
        };
        if !on.is_legal(rect) {
            return Err(format!(
                "winning move {} is illegal (counting from 1): {}",
                grundy_report::words::clear_move(Some(m.board as usize), rect),
                crate::clear::why_illegal(on, rect)
            ));
        }
    }
    let mut xor = Some(0u32);
    let mut sizes: Vec<(u64, Option<u32>)> = Vec::with_capacity(components.len());
    for (index, (board, cells, component_value)) in components.iter().enumerate() {
        let Some(on) = boards.get(*board as usize) else {
            return Err(format!(
                "component {index} is on board {board}, which is not there"
            ));
        };
        if let Some(&(row, col)) = cells
            .iter()
            .find(|&&(row, col)| !on.one(u64::from(row), u64::from(col)))
        {
            return Err(format!(
                "component {index} has cell ({row}, {col}), not a 1 of board {board}"
            ));
        }
        xor = xor.zip(*component_value).map(|(x, v)| x ^ v);
        sizes.push((cells.len() as u64, *component_value));
    }
    if let (Some(value), Some(xor)) = (value, xor) {
        if value != xor {
            return Err(format!(
                "value {value} is not the XOR of the components' values, {xor}"
            ));
        }
    }
    // Summed first: a count is bounded by the components, not by the state.
    let classes_count: u64 = classes.iter().map(|&(_, count, _)| u64::from(count)).sum();
    if classes_count != components.len() as u64 {
        return Err(format!(
            "the classes count {classes_count} components, not {}",
            components.len()
        ));
    }
    let mut counted: Vec<(u64, Option<u32>)> = classes
        .iter()
        .flat_map(|&(cells, count, value)| std::iter::repeat_n((cells, value), count as usize))
        .collect();
    sizes.sort_unstable();
    counted.sort_unstable();
    if sizes != counted {
        return Err("the classes do not count the components by size and value".to_owned());
    }
    Ok(())
}

pub(crate) fn boards_of(
    texts: &[(String, String)],
    max_memory: Option<u64>,
) -> PyResult<Vec<LargeBoard>> {
    let limit = max_memory.unwrap_or(DEFAULT_BOARD_MEMORY);
    let mut all = Vec::new();
    for (text, source) in texts {
        let parsed = parse_large_boards(text.as_bytes(), Some(limit))
            .map_err(|err| crate::refused_boards(source, &err, limit))?;
        all.extend(parsed.into_iter().map(|b| b.board));
    }
    Ok(all)
}

/// The boards of `texts` whose analysis passes `max_memory` while their
/// cells alone fit it, with the budget's refusal; `None` for any other
/// texts (which [`boards_of`] takes or refuses).
fn boards_past_analysis(
    texts: &[(String, String)],
    max_memory: Option<u64>,
) -> Option<(Vec<LargeBoard>, SolveError)> {
    let limit = max_memory.unwrap_or(DEFAULT_BOARD_MEMORY);
    let (mut needs, mut cells) = (0u64, 0u64);
    let mut boards = Vec::new();
    for (text, _) in texts {
        let parsed = match parse_large_boards(text.as_bytes(), Some(limit)) {
            Ok(parsed) => parsed,
            Err(ParseError {
                kind: ParseErrorKind::OverMemory { cell_bytes, .. },
                ..
            }) if cells.saturating_add(cell_bytes) <= limit => {
                parse_large_boards(text.as_bytes(), None).ok()?
            }
            Err(_) => return None,
        };
        for board in parsed {
            let (rows, cols) = (u64::from(board.board.rows()), u64::from(board.board.cols()));
            needs = needs.saturating_add(analysis_bytes(rows, cols));
            cells = cells.saturating_add(LargeBoard::cell_bytes(rows, cols));
            boards.push(board.board);
        }
    }
    (needs > limit && cells <= limit)
        .then_some((boards, SolveError::MemoryBudget { limit, used: needs }))
}

fn budget(limits: &Limits, default_time: f64) -> grundy::Budget {
    let mut budget = limits.budget();
    if limits.max_time.is_none() {
        budget.max_time = Some(std::time::Duration::from_secs_f64(default_time));
    }
    budget
}

fn report(analysis: &LargeAnalysis, boards: Vec<LargeBoard>, as_list: bool) -> LargeClearAnalysis {
    LargeClearAnalysis {
        boards,
        as_list,
        value: analysis.value.map(Nimber::value),
        winner: winner(analysis),
        winning_moves: analysis
            .winning
            .iter()
            .map(|m| LargeMove::of(analysis.components[m.component as usize].board, m.rect))
            .collect(),
        winning_moves_complete: analysis.winning_complete,
        component_runs: (0..analysis.components.len())
            .map(|index| {
                let info = analysis.components[index];
                let runs = analysis.component_runs(index).to_vec();
                let value = analysis.classes[info.class as usize]
                    .value
                    .map(Nimber::value);
                (info.board, runs, value)
            })
            .collect(),
        components_list: PyOnceLock::new(),
        classes: analysis
            .classes
            .iter()
            .map(|c| (c.cells, c.count, c.value.map(Nimber::value)))
            .collect(),
        stopped: analysis.stopped.as_ref().map(ToString::to_string),
    }
}

/// True when every board of `texts` has at most 64 cells (the small boards'
/// analysis applies); the boards are checked against `max_memory` first.
#[pyfunction]
#[pyo3(signature = (texts, max_memory))]
fn clear_fits_small(texts: Vec<(String, String)>, max_memory: Option<u64>) -> PyResult<bool> {
    Ok(boards_of(&texts, max_memory)?
        .iter()
        .all(|b| u64::from(b.rows()) * u64::from(b.cols()) <= 64))
}

/// The bytes the analysis of a `rows x cols` board may need at most (what
/// `max_memory` is checked against before a board is read).
#[pyfunction]
fn clear_analysis_bytes(rows: u64, cols: u64) -> u64 {
    analysis_bytes(rows, cols)
}

/// Analyses boards of any size (see [`LargeClearAnalysis`]). The GIL is
/// released while it runs; the budget's time (30 s by default) bounds it.
/// With `memo`, its small shapes' search goes on from the memo.
#[pyfunction]
#[pyo3(signature = (texts, max_positions, max_time, max_memory, tables, memo = None, threads = None, as_list = false))]
// The keyword arguments of the Python function, one for one.
#[allow(clippy::too_many_arguments)]
fn clear_analyze_large(
    py: Python<'_>,
    texts: Vec<(String, String)>,
    max_positions: Option<u64>,
    max_time: Option<f64>,
    max_memory: Option<u64>,
    tables: Option<&Bound<'_, tables::Database>>,
    memo: Option<&Bound<'_, ClearMemo>>,
    threads: Option<u8>,
    as_list: bool,
) -> PyResult<LargeClearAnalysis> {
    let threads = threads_or_default(threads)?;
    let limits = Limits::new(max_positions, max_time, max_memory);
    let boards = boards_of(&texts, limits.max_memory)?;
    let analysis = analysed(py, &boards, &limits, tables, memo, threads)?;
    Ok(report(&analysis, boards, as_list))
}

/// The analysis of `boards` under `limits` (30 s unless given), on
/// [`on_analyzer`].
fn analysed(
    py: Python<'_>,
    boards: &[LargeBoard],
    limits: &Limits,
    tables: Option<&Bound<'_, tables::Database>>,
    memo: Option<&Bound<'_, ClearMemo>>,
    threads: u8,
) -> PyResult<LargeAnalysis> {
    let budget = budget(limits, DEFAULT_TIME);
    on_analyzer(py, tables, memo, threads, limits, budget, |analyzer| {
        analyse(boards, analyzer)
    })
}

/// The value of boards of any size played as a sum, as
/// `Database.value` gives it: the analysis of [`clear_analyze_large`]
/// reading `tables`, its value, or the budget's error when it stopped
/// first (`found` has the values of the components it found, in the
/// analysis's order of components, `None` where it found none).
#[pyfunction]
#[pyo3(signature = (texts, max_positions, max_time, max_memory, tables))]
fn clear_value_large(
    py: Python<'_>,
    texts: Vec<(String, String)>,
    max_positions: Option<u64>,
    max_time: Option<f64>,
    max_memory: Option<u64>,
    tables: Option<&Bound<'_, tables::Database>>,
) -> PyResult<u32> {
    let limits = Limits::new(max_positions, max_time, max_memory);
    let boards = boards_of(&texts, limits.max_memory)?;
    let analysis = analysed(py, &boards, &limits, tables, None, 1)?;
    if let Some(value) = analysis.value {
        return Ok(value.value());
    }
    let Some(err) = &analysis.stopped else {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "the analysis gave no value and no reason",
        ));
    };
    let values: Vec<Option<u32>> = analysis
        .components
        .iter()
        .map(|c| analysis.classes[c.class as usize].value.map(Nimber::value))
        .collect();
    let found = pyo3::types::PyDict::new(py);
    found.set_item("components", values)?;
    Err(crate::budget_exceeded(py, err, found))
}

/// Runs `work` with the GIL released, on an analyzer of `memo`'s solver
/// (put back after, on the memo's threads) or of a fresh one reading
/// `tables`, on `threads` (a helper thread for the components of at most
/// 64 cells with 2, as `grundy clear --threads`). Ctrl-C stops it: `work`
/// runs on a thread of its own while this one runs the signal handlers
/// ([`interrupt::run_watched`]), and a handler that raises sets the stop
/// flag that both the small solver and every phase of the large analysis
/// check. The handler's exception is the error; the memo keeps what the
/// small solver finished (its stop flag ends a search as a budget does).
fn on_analyzer<R: Send>(
    py: Python<'_>,
    tables: Option<&Bound<'_, tables::Database>>,
    memo: Option<&Bound<'_, ClearMemo>>,
    threads: u8,
    limits: &Limits,
    budget: grundy::Budget,
    work: impl FnOnce(&mut Analyzer) -> R + Send,
) -> PyResult<R> {
    let memo = memo.map(Bound::get);
    let shapes = tables::lookup(tables);
    interrupt::run_watched(py, move |stop| {
        let mut small = match memo {
            Some(memo) => memo.take(limits, stop),
            None => grundy::clear::Clear::with_shapes(shapes)
                .into_solver_on(threads)
                .with_budget(stop.budget(limits.budget())),
        };
        small.set_stop(Some(stop.flag()));
        let mut analyzer = Analyzer::with_small_solver(small, stop.budget(budget));
        analyzer.set_stop(Some(stop.flag()));
        let result = work(&mut analyzer);
        if let Some(memo) = memo {
            memo.put(analyzer.into_small_solver());
        }
        result
    })
}

/// The engine's move on boards of any size, as `grundy clear --move`: a
/// dict `{"move": LargeMove or None, "proven": bool, "kind": "winning" |
/// "losing" | "unproven" | "none", "grundy": int or None, "reason": str,
/// "text": str or None}`, within the time budget (5 s by default).
#[pyfunction]
#[pyo3(signature = (texts, max_positions, max_time, max_memory, tables, memo = None, threads = None))]
// The keyword arguments of the Python function, one for one.
#[allow(clippy::too_many_arguments)]
fn clear_engine_move<'py>(
    py: Python<'py>,
    texts: Vec<(String, String)>,
    max_positions: Option<u64>,
    max_time: Option<f64>,
    max_memory: Option<u64>,
    tables: Option<&Bound<'_, tables::Database>>,
    memo: Option<&Bound<'_, ClearMemo>>,
    threads: Option<u8>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let threads = threads_or_default(threads)?;
    // Boards, not texts: a text may hold several (blank lines between).
    let (choice, boards) = match boards_past_analysis(&texts, max_memory) {
        // The engine still plays boards too large to analyse within the
        // budget: a legal move needs no analysis.
        Some((boards, refused)) => (unanalysed_move(&boards, refused), boards.len()),
        None => {
            // Refused, the boards' cells alone pass the budget: the move
            // needs no more, and the message says so, as `--move`'s does.
            let limit = max_memory.unwrap_or(DEFAULT_BOARD_MEMORY);
            for (text, source) in &texts {
                parse_large_boards(text.as_bytes(), Some(limit)).map_err(|err| {
                    let err = grundy_report::parse::clear::cells_over_memory(err, "engine_move");
                    crate::refused_boards(source, &err, limit)
                })?;
            }
            let boards = boards_of(&texts, max_memory)?;
            let limits = Limits::new(max_positions, max_time, max_memory);
            let budget = budget(&limits, DEFAULT_MOVE_TIME);
            let choice = on_analyzer(py, tables, memo, threads, &limits, budget, |analyzer| {
                choose_move(&boards, analyzer)
            })?;
            (choice, boards.len())
        }
    };
    let chosen = choice.map(|choice| {
        (
            LargeMove::of(choice.board, choice.rect),
            grundy_report::large::EngineMoveReport::new(&choice, boards),
        )
    });
    crate::engine_dict(py, chosen)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LargeMove>()?;
    m.add_class::<LargeClearAnalysis>()?;
    m.add_function(wrap_pyfunction!(_restore_large_clear_analysis, m)?)?;
    m.add_function(wrap_pyfunction!(clear_fits_small, m)?)?;
    m.add_function(wrap_pyfunction!(clear_analysis_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(clear_analyze_large, m)?)?;
    m.add_function(wrap_pyfunction!(clear_value_large, m)?)?;
    m.add_function(wrap_pyfunction!(clear_engine_move, m)?)?;
    Ok(())
}
