//! `grundy.sum`: a row of rectangle-clearing boards of any size with point
//! updates, range values and winning moves (the engine's `GameSum` over
//! [`LargeClear`], the structure behind `grundy sum`). Indices are 0-based
//! and ranges half-open, as Python's slices: `value(i, j)` is the XOR of
//! boards `i..j`. A move on a board of at most 64 cells is a
//! `grundy.clear.ClearMove`, past that a `grundy.clear.LargeMove`, as
//! `grundy.clear.analyze` gives them.

use std::time::{Duration, Instant};

use grundy::clear::large::game::DEFAULT_MAX_OPTION_BYTES;
use grundy::clear::large::{LargeBoard, LargeClear, LargeRect, Part};
use grundy::clear::Clear;
use grundy::sum::GameSum;
use grundy_report::parse::clear::{board_rows, large_board_rows};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

use crate::clear::Move;
use crate::interrupt::{self, Pending};
use crate::large::{boards_of, LargeMove, DEFAULT_TIME};
use crate::{budget_exceeded, tables, Limits};

/// A row of boards played side by side.
#[pyclass(module = "grundy.sum")]
pub struct BoardSum {
    sum: Mutex<GameSum<LargeClear>>,
    /// The budget of every call: each search starts its clock afresh.
    limits: Limits,
}

fn stopped(py: Python<'_>, err: &grundy::SolveError, board: Option<usize>) -> PyErr {
    let dict = PyDict::new(py);
    if let Some(board) = board {
        if let Err(e) = dict.set_item("board", board) {
            return e;
        }
    }
    budget_exceeded(py, err, dict)
}

impl BoardSum {
    fn range(&self, start: usize, stop: Option<usize>) -> PyResult<(usize, usize)> {
        let len = self.lock().len();
        let stop = stop.unwrap_or(len);
        if stop < start && start <= len {
            return Err(PyIndexError::new_err(format!(
                "range {start}..{stop} runs backwards: start {start} is past stop {stop} (0 <= start <= stop <= {len})"
            )));
        }
        if start > stop || stop > len {
            return Err(PyIndexError::new_err(format!(
                "range {start}..{stop} is not within the {len} boards (0 <= start <= stop <= {len})"
            )));
        }
        Ok((start, stop))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GameSum<LargeClear>> {
        self.sum.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// True when a board of `start..stop` has more than 64 cells.
    fn any_large(&self, start: usize, stop: usize) -> bool {
        self.lock().positions()[start..stop]
            .iter()
            .any(|part| matches!(part, Part::Large(_)))
    }

    /// The sum, its budget armed for one call: the solver's count and clock
    /// and the large boards' listing deadline start now.
    fn armed(&self, large: bool) -> std::sync::MutexGuard<'_, GameSum<LargeClear>> {
        let mut sum = self.lock();
        arm(&mut sum, &self.limits, large);
        sum
    }
}

/// Sets the budget of the next call on `sum`: `limits`, with the command
/// line's 30 s when no time is given and a board past 64 cells is in play
/// (`large`), as `grundy sum` does.
fn arm(sum: &mut GameSum<LargeClear>, limits: &Limits, large: bool) {
    let mut budget = limits.budget();
    if large && limits.max_time.is_none() {
        budget.max_time = Some(Duration::from_secs_f64(DEFAULT_TIME));
    }
    let solver = sum.solver_mut();
    solver.set_budget(budget);
    // One expansion of a large board lists every rectangle: the clock and
    // the memory budget bound it too.
    let deadline = budget.deadline(Instant::now());
    solver.game_mut().set_limits(
        deadline,
        budget.max_memory.unwrap_or(DEFAULT_MAX_OPTION_BYTES),
        budget.max_positions,
    );
}

fn new_sum(
    shapes: std::sync::Arc<dyn grundy::clear::shapes::ShapeLookup>,
    pending: &Pending,
) -> GameSum<LargeClear> {
    let rules = LargeClear::new(Clear::with_shapes(shapes));
    GameSum::new(grundy::Solver::new(rules).with_progress(pending.callback()))
}

/// The board of each text, one a text: a text of several boards (a blank
/// line between them) would shift the index of every board after it.
fn one_board_each(
    texts: &[(String, String)],
    max_memory: Option<u64>,
) -> PyResult<Vec<LargeBoard>> {
    let mut all = Vec::with_capacity(texts.len());
    for text in texts {
        let mut boards = boards_of(std::slice::from_ref(text), max_memory)?;
        if boards.len() != 1 {
            return Err(PyValueError::new_err(format!(
                "{}: one board expected, found {}",
                text.1,
                boards.len()
            )));
        }
        all.push(boards.remove(0));
    }
    Ok(all)
}

fn is_large(board: &LargeBoard) -> bool {
    u64::from(board.rows()) * u64::from(board.cols()) > 64
}

/// The board of a part as rows of `0`/`1`.
fn part_rows(part: &Part) -> Vec<String> {
    match part {
        Part::Small(board) => board_rows(board),
        Part::Large(board) => large_board_rows(board),
    }
}

/// A move of board `index` as Python gets it: a `ClearMove` on a board of
/// at most 64 cells (every coordinate then fits), else a `LargeMove`.
fn move_of(py: Python<'_>, part: &Part, index: usize, rect: LargeRect) -> PyResult<Py<PyAny>> {
    let small = || {
        let c = |v: u32| u8::try_from(v).ok();
        Some(Move::at(
            index,
            c(rect.top)?,
            c(rect.left)?,
            c(rect.bottom)?,
            c(rect.right)?,
        ))
    };
    match (part, small()) {
        (Part::Small(_), Some(small)) => Ok(small.into_pyobject(py)?.into_any().unbind()),
        _ => Ok(LargeMove::of(index as u32, rect)
            .into_pyobject(py)?
            .into_any()
            .unbind()),
    }
}

#[pymethods]
impl BoardSum {
    /// The sum of the boards in `texts` (`(text, source)` pairs in the
    /// board format, any size).
    #[new]
    #[pyo3(signature = (texts, max_positions, max_time, max_memory, tables))]
    fn new(
        py: Python<'_>,
        texts: Vec<(String, String)>,
        max_positions: Option<u64>,
        max_time: Option<f64>,
        max_memory: Option<u64>,
        tables: Option<&Bound<'_, tables::Database>>,
    ) -> PyResult<BoardSum> {
        let boards = one_board_each(&texts, max_memory)?;
        let limits = Limits::new(max_positions, max_time, max_memory);
        let shapes = tables::lookup(tables);
        let outcome = interrupt::run(py, |pending| {
            let mut sum = new_sum(shapes.clone(), pending);
            for (index, board) in boards.into_iter().enumerate() {
                arm(&mut sum, &limits, is_large(&board));
                sum.push(Part::of(board)).map_err(|e| (e, index))?;
            }
            Ok(sum)
        })?;
        let sum = outcome.map_err(|(err, index)| stopped(py, &err, Some(index)))?;
        Ok(BoardSum {
            sum: Mutex::new(sum),
            limits,
        })
    }

    fn __len__(&self) -> usize {
        self.lock().len()
    }

    /// Each board's value.
    #[getter]
    fn values(&self) -> Vec<u32> {
        self.lock().values().iter().map(|v| v.value()).collect()
    }

    /// Board `index` as rows of `0`/`1`.
    fn board(&self, index: usize) -> PyResult<Vec<String>> {
        let sum = self.lock();
        sum.positions()
            .get(index)
            .map(part_rows)
            .ok_or_else(|| PyIndexError::new_err(format!("board {index} of {}", sum.len())))
    }

    /// The value of boards `start..stop` (all by default).
    #[pyo3(signature = (start = 0, stop = None))]
    fn value(&self, start: usize, stop: Option<usize>) -> PyResult<u32> {
        let (start, stop) = self.range(start, stop)?;
        Ok(self.lock().value(start..stop).value())
    }

    /// `"first"` or `"second"`: who wins boards `start..stop`.
    #[pyo3(signature = (start = 0, stop = None))]
    fn winner(&self, start: usize, stop: Option<usize>) -> PyResult<&'static str> {
        Ok(grundy_report::words::winner(self.value(start, stop)? != 0))
    }

    /// A winning move in boards `start..stop` as `(move, from, to)` (the
    /// board's value before and after), or `None` when the range is lost
    /// for the player to move. The same move as `grundy sum`'s `move`.
    #[pyo3(signature = (start = 0, stop = None))]
    fn winning_move(
        &self,
        py: Python<'_>,
        start: usize,
        stop: Option<usize>,
    ) -> PyResult<Option<(Py<PyAny>, u32, u32)>> {
        let (start, stop) = self.range(start, stop)?;
        let found = py.detach(|| {
            let mut sum = self.armed(self.any_large(start, stop));
            let found = sum.winning_move(start..stop)?;
            Ok(found.map(|m| (sum.positions()[m.index].clone(), m)))
        });
        let found = found.map_err(|e| stopped(py, &e, None))?;
        found
            .map(|(part, m)| {
                Ok((
                    move_of(py, &part, m.index, m.mv)?,
                    m.from.value(),
                    m.to.value(),
                ))
            })
            .transpose()
    }

    /// Every winning move in boards `start..stop`.
    #[pyo3(signature = (start = 0, stop = None))]
    fn winning_moves(
        &self,
        py: Python<'_>,
        start: usize,
        stop: Option<usize>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let (start, stop) = self.range(start, stop)?;
        let found = py.detach(|| {
            let mut sum = self.armed(self.any_large(start, stop));
            let found = sum.winning_moves(start..stop)?;
            Ok(found
                .into_iter()
                .map(|m| (sum.positions()[m.index].clone(), m))
                .collect::<Vec<_>>())
        });
        let found = found.map_err(|e| stopped(py, &e, None))?;
        found
            .iter()
            .map(|(part, m)| move_of(py, part, m.index, m.mv))
            .collect()
    }

    /// Replaces board `index` with the board in `text`; returns its value.
    fn set_text(&self, py: Python<'_>, index: usize, text: &str, source: &str) -> PyResult<u32> {
        let board = one_board_each(
            &[(text.to_owned(), source.to_owned())],
            self.limits.max_memory,
        )?
        .remove(0);
        let len = self.lock().len();
        if index >= len {
            return Err(PyIndexError::new_err(format!("board {index} of {len}")));
        }
        let large = is_large(&board);
        let value = py.detach(|| self.armed(large).set(index, Part::of(board)));
        value
            .map(|v| v.value())
            .map_err(|e| stopped(py, &e, Some(index)))
    }

    fn __repr__(&self) -> String {
        let sum = self.lock();
        format!(
            "BoardSum(boards={}, value={})",
            sum.len(),
            sum.value(..).value()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BoardSum>()?;
    Ok(())
}
