//! `grundy.sum`: a row of rectangle-clearing boards with point updates,
//! range values and winning moves (the engine's `GameSum`, the structure
//! behind `grundy sum`). Indices are 0-based and ranges half-open, as
//! Python's slices: `value(i, j)` is the XOR of boards `i..j`.

use grundy::clear::Clear;
use grundy::sum::GameSum;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

use crate::clear::{rows_of, Move};
use crate::interrupt::{self, Pending};
use crate::{budget_exceeded, parse, tables, Limits};

/// A row of boards played side by side.
#[pyclass(module = "grundy.sum")]
pub struct BoardSum {
    sum: Mutex<GameSum<Clear, grundy::clear::ShapeTable>>,
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
        if start > stop || stop > len {
            return Err(PyIndexError::new_err(format!(
                "range {start}..{stop} is not within the {len} boards (0 <= start <= stop <= {len})"
            )));
        }
        Ok((start, stop))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GameSum<Clear, grundy::clear::ShapeTable>> {
        self.sum.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn new_sum(
    shapes: std::sync::Arc<dyn grundy::clear::shapes::ShapeLookup>,
    limits: &Limits,
    pending: &Pending,
) -> GameSum<Clear, grundy::clear::ShapeTable> {
    GameSum::new(crate::clear::solver(shapes, limits, pending))
}

#[pymethods]
impl BoardSum {
    /// The sum of the boards in `texts` (`(text, source)` pairs in the
    /// board format).
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
        let boards = parse::all_boards(&texts)?;
        let limits = Limits::new(max_positions, max_time, max_memory);
        let shapes = tables::lookup(tables);
        let outcome = interrupt::run(py, |pending| {
            let mut sum = new_sum(shapes.clone(), &limits, pending);
            for (index, board) in boards.into_iter().enumerate() {
                sum.push(board).map_err(|e| (e, index))?;
            }
            Ok(sum)
        })?;
        let sum = outcome.map_err(|(err, index)| stopped(py, &err, Some(index)))?;
        Ok(BoardSum {
            sum: Mutex::new(sum),
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
            .map(rows_of)
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
        Ok(if self.value(start, stop)? == 0 {
            "second"
        } else {
            "first"
        })
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
    ) -> PyResult<Option<(Move, u32, u32)>> {
        let (start, stop) = self.range(start, stop)?;
        let found = py.detach(|| self.lock().winning_move(start..stop));
        let found = found.map_err(|e| stopped(py, &e, None))?;
        Ok(found.map(|m| (Move::of(m.index, m.mv), m.from.value(), m.to.value())))
    }

    /// Every winning move in boards `start..stop`.
    #[pyo3(signature = (start = 0, stop = None))]
    fn winning_moves(
        &self,
        py: Python<'_>,
        start: usize,
        stop: Option<usize>,
    ) -> PyResult<Vec<Move>> {
        let (start, stop) = self.range(start, stop)?;
        let found = py.detach(|| self.lock().winning_moves(start..stop));
        let found = found.map_err(|e| stopped(py, &e, None))?;
        Ok(found.iter().map(|m| Move::of(m.index, m.mv)).collect())
    }

    /// Replaces board `index` with the board in `text`; returns its value.
    fn set_text(&self, py: Python<'_>, index: usize, text: &str, source: &str) -> PyResult<u32> {
        let mut boards = parse::boards(text, source)?;
        if boards.len() != 1 {
            return Err(PyValueError::new_err(format!(
                "{source}: one board expected, found {}",
                boards.len()
            )));
        }
        let board = boards.remove(0);
        let len = self.lock().len();
        if index >= len {
            return Err(PyIndexError::new_err(format!("board {index} of {len}")));
        }
        let value = py.detach(|| self.lock().set(index, board));
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
