//! Validated grids of candidate cells, and positions: a grid's candidates
//! with the current partition into rectangles.

use std::fmt;
use std::sync::Arc;

use super::Pattern;

/// The largest number of rows or columns a grid may have.
pub const MAX_SIDE: u32 = 1_000_000_000;

/// A cell, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// Row, from 0.
    pub row: u32,
    /// Column, from 0.
    pub col: u32,
}

impl Cell {
    /// The cell at `row`, `col`.
    #[must_use]
    pub const fn new(row: u32, col: u32) -> Cell {
        Cell { row, col }
    }
}

impl fmt::Display for Cell {
    /// 1-based `(row,col)`, as shown to people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({},{})",
            u64::from(self.row) + 1,
            u64::from(self.col) + 1
        )
    }
}

/// A rectangle of a grid, corners inclusive, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// First row.
    pub top: u32,
    /// First column.
    pub left: u32,
    /// Last row.
    pub bottom: u32,
    /// Last column.
    pub right: u32,
}

impl Rect {
    /// True when `cell` lies inside.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        (self.top..=self.bottom).contains(&cell.row) && (self.left..=self.right).contains(&cell.col)
    }

    /// The up to four rectangles left when row `cell.row` and column
    /// `cell.col` are deleted from this one (empty ones are left out):
    /// above-left, above-right, below-left, below-right.
    #[must_use]
    pub fn split_at(&self, cell: Cell) -> Vec<Rect> {
        let mut parts = Vec::with_capacity(4);
        let rows = [
            (cell.row > self.top).then(|| (self.top, cell.row - 1)),
            (cell.row < self.bottom).then(|| (cell.row + 1, self.bottom)),
        ];
        let cols = [
            (cell.col > self.left).then(|| (self.left, cell.col - 1)),
            (cell.col < self.right).then(|| (cell.col + 1, self.right)),
        ];
        for (top, bottom) in rows.into_iter().flatten() {
            for &(left, right) in cols.iter().flatten() {
                parts.push(Rect {
                    top,
                    left,
                    bottom,
                    right,
                });
            }
        }
        parts
    }
}

impl fmt::Display for Rect {
    /// 1-based `(top,left)-(bottom,right)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}",
            Cell::new(self.top, self.left),
            Cell::new(self.bottom, self.right)
        )
    }
}

/// Why a grid or a move is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// A side is zero or larger than [`MAX_SIDE`].
    #[error("a grid of {rows} x {cols} is not supported: sides must be 1 to {MAX_SIDE}")]
    BadSize {
        /// Rows asked for.
        rows: u64,
        /// Columns asked for.
        cols: u64,
    },
    /// A candidate, or a move, lies outside the grid.
    #[error("{cell} lies outside the {rows} x {cols} grid")]
    OutsideGrid {
        /// The cell.
        cell: Cell,
        /// Rows of the grid.
        rows: u32,
        /// Columns of the grid.
        cols: u32,
    },
    /// A candidate is given twice.
    #[error("candidate {0} is given twice")]
    Duplicate(Cell),
    /// A move names a cell that is not a candidate of a current rectangle.
    #[error("{0} is not a candidate of the current position")]
    IllegalMove(Cell),
}

/// A grid of `rows x cols` cells, some of them candidates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: u32,
    cols: u32,
    /// Sorted by row then column, distinct.
    cells: Vec<Cell>,
}

impl Grid {
    /// A grid with the given candidates (in any order).
    ///
    /// # Errors
    ///
    /// [`GridError::BadSize`], [`GridError::OutsideGrid`],
    /// [`GridError::Duplicate`].
    pub fn new<I: IntoIterator<Item = Cell>>(
        rows: u64,
        cols: u64,
        cells: I,
    ) -> Result<Grid, GridError> {
        if rows == 0 || cols == 0 || rows > u64::from(MAX_SIDE) || cols > u64::from(MAX_SIDE) {
            return Err(GridError::BadSize { rows, cols });
        }
        let (rows, cols) = (rows as u32, cols as u32);
        let mut cells: Vec<Cell> = cells.into_iter().collect();
        if let Some(&cell) = cells.iter().find(|c| c.row >= rows || c.col >= cols) {
            return Err(GridError::OutsideGrid { cell, rows, cols });
        }
        cells.sort_unstable();
        if let Some(pair) = cells.windows(2).find(|w| w[0] == w[1]) {
            return Err(GridError::Duplicate(pair[0]));
        }
        Ok(Grid { rows, cols, cells })
    }

    /// A grid from rows of text: `1` for a candidate, `0` or `.` for a plain
    /// cell; for examples and tests.
    ///
    /// # Panics
    ///
    /// On ragged rows or other characters.
    #[must_use]
    pub fn from_rows(rows: &[&str]) -> Grid {
        let cols = rows.first().map_or(0, |r| r.len());
        let mut cells = Vec::new();
        for (r, line) in rows.iter().enumerate() {
            assert_eq!(line.len(), cols, "ragged row {r}");
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '1' => cells.push(Cell::new(r as u32, c as u32)),
                    '0' | '.' => {}
                    _ => panic!("bad cell {ch:?}"),
                }
            }
        }
        Grid::new(rows.len() as u64, cols as u64, cells).expect("valid grid")
    }

    /// Rows.
    #[must_use]
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns.
    #[must_use]
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The whole grid as a rectangle.
    #[must_use]
    pub fn full(&self) -> Rect {
        Rect {
            top: 0,
            left: 0,
            bottom: self.rows - 1,
            right: self.cols - 1,
        }
    }

    /// Every candidate, sorted by row then column.
    #[must_use]
    pub fn candidates(&self) -> &[Cell] {
        &self.cells
    }

    /// True when `cell` is a candidate.
    #[must_use]
    pub fn is_candidate(&self, cell: Cell) -> bool {
        self.cells.binary_search(&cell).is_ok()
    }

    /// The candidates inside `rect`, sorted.
    pub fn candidates_in(&self, rect: Rect) -> impl Iterator<Item = Cell> + '_ {
        let start = self.cells.partition_point(|c| c.row < rect.top);
        self.cells[start..]
            .iter()
            .take_while(move |c| c.row <= rect.bottom)
            .filter(move |c| (rect.left..=rect.right).contains(&c.col))
            .copied()
    }

    /// The compressed pattern of the candidates inside `rect`, with the
    /// grid row of each pattern row and the grid column of each column.
    #[must_use]
    pub fn pattern_in(&self, rect: Rect) -> Compressed {
        let cells: Vec<Cell> = self.candidates_in(rect).collect();
        let mut rows: Vec<u32> = cells.iter().map(|c| c.row).collect();
        rows.dedup();
        let mut cols: Vec<u32> = cells.iter().map(|c| c.col).collect();
        cols.sort_unstable();
        cols.dedup();
        let pattern =
            Pattern::from_cells(cells.iter().map(|c| (u64::from(c.row), u64::from(c.col))));
        Compressed {
            pattern,
            rows,
            cols,
        }
    }
}

/// A pattern with the grid coordinates of its rows and columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compressed {
    /// The compressed pattern.
    pub pattern: Pattern,
    /// Grid row of each pattern row, increasing.
    pub rows: Vec<u32>,
    /// Grid column of each pattern column, increasing.
    pub cols: Vec<u32>,
}

/// A position: the rectangles of the current partition that still hold a
/// candidate (the others cannot be played in and count for nothing), over
/// a shared grid. The start position is the whole grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    grid: Arc<Grid>,
    rects: Vec<Rect>,
}

impl Position {
    /// The start position of a grid.
    #[must_use]
    pub fn new(grid: Grid) -> Position {
        let grid = Arc::new(grid);
        let rects = if grid.cells.is_empty() {
            Vec::new()
        } else {
            vec![grid.full()]
        };
        Position { grid, rects }
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The grid, shared by every position played from the same start.
    #[must_use]
    pub fn shared_grid(&self) -> &Arc<Grid> {
        &self.grid
    }

    /// The rectangles still holding a candidate.
    #[must_use]
    pub fn rects(&self) -> &[Rect] {
        &self.rects
    }

    /// Every legal move: the candidates of the current rectangles, with the
    /// index of the rectangle each lies in.
    pub fn moves(&self) -> impl Iterator<Item = (usize, Cell)> + '_ {
        self.rects
            .iter()
            .enumerate()
            .flat_map(|(i, &rect)| self.grid.candidates_in(rect).map(move |c| (i, c)))
    }

    /// The rectangle that holds `cell`, if it is a legal move.
    #[must_use]
    pub fn rect_of(&self, cell: Cell) -> Option<usize> {
        if !self.grid.is_candidate(cell) {
            return None;
        }
        self.rects.iter().position(|r| r.contains(cell))
    }

    /// The position after playing at `cell`.
    ///
    /// # Errors
    ///
    /// [`GridError::OutsideGrid`] when `cell` is not in the grid;
    /// [`GridError::IllegalMove`] when it is not a candidate of a current
    /// rectangle.
    pub fn try_play(&self, cell: Cell) -> Result<Position, GridError> {
        let (rows, cols) = (self.grid.rows(), self.grid.cols());
        if cell.row >= rows || cell.col >= cols {
            return Err(GridError::OutsideGrid { cell, rows, cols });
        }
        match self.rect_of(cell) {
            Some(index) => Ok(self.play_at(index, cell)),
            None => Err(GridError::IllegalMove(cell)),
        }
    }

    /// The position after playing at `cell`, which must be a legal move
    /// (checked in debug builds only).
    #[must_use]
    pub fn play_unchecked(&self, cell: Cell) -> Position {
        debug_assert!(self.rect_of(cell).is_some(), "{cell} is not a legal move");
        let index = self
            .rects
            .iter()
            .position(|r| r.contains(cell))
            .unwrap_or(0);
        self.play_at(index, cell)
    }

    fn play_at(&self, index: usize, cell: Cell) -> Position {
        let mut rects = self.rects.clone();
        let rect = rects.remove(index);
        let parts = rect
            .split_at(cell)
            .into_iter()
            .filter(|&part| self.grid.candidates_in(part).next().is_some());
        rects.splice(index..index, parts);
        Position {
            grid: Arc::clone(&self.grid),
            rects,
        }
    }
}
