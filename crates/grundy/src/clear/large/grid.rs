//! Boards of any size as rows of bits, their 4-connected components by
//! run-length labelling, rectangles of ones, and the 8 symmetries.
//!
//! A [`LargeBoard`] stores each row in `ceil(cols / 64)` words, so a 4096 x
//! 4096 board is 2 MiB. Components are found once per board by the classic
//! run-based labelling: each row's maximal runs of ones are read word by
//! word (`trailing_zeros` over the word and its complement), runs of
//! neighbouring rows that share a column are joined in a union-find, and the
//! runs are then grouped by root in order of their first cell. That is
//! O(words + runs) with no per-cell work, and a run never meets more than
//! the runs of the row above it that overlap it, walked with two pointers.
//! Two runs are 4-adjacent exactly when they are in neighbouring rows and
//! their column intervals overlap, so the groups are the components.

use std::fmt;

use super::super::{Board, Rect};

/// An axis-parallel rectangle of cells of a [`LargeBoard`], 0-based,
/// corners inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LargeRect {
    /// First row.
    pub top: u32,
    /// First column.
    pub left: u32,
    /// Last row (inclusive).
    pub bottom: u32,
    /// Last column (inclusive).
    pub right: u32,
}

impl LargeRect {
    /// The number of cells.
    #[must_use]
    pub const fn area(&self) -> u64 {
        (self.bottom - self.top + 1) as u64 * (self.right - self.left + 1) as u64
    }

    /// The rectangle moved down by `rows` and right by `cols`.
    #[must_use]
    pub const fn offset(self, rows: u32, cols: u32) -> LargeRect {
        LargeRect {
            top: self.top + rows,
            left: self.left + cols,
            bottom: self.bottom + rows,
            right: self.right + cols,
        }
    }
}

impl From<Rect> for LargeRect {
    fn from(rect: Rect) -> LargeRect {
        LargeRect {
            top: u32::from(rect.top),
            left: u32::from(rect.left),
            bottom: u32::from(rect.bottom),
            right: u32::from(rect.right),
        }
    }
}

impl fmt::Display for LargeRect {
    /// 1-based corners, `(top,left)-(bottom,right)`, as [`Rect`] shows them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({},{})-({},{})",
            u64::from(self.top) + 1,
            u64::from(self.left) + 1,
            u64::from(self.bottom) + 1,
            u64::from(self.right) + 1
        )
    }
}

/// Why a [`LargeBoard`] cannot be made or played on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LargeBoardError {
    /// A side is zero or does not fit a `u32`.
    #[error(
        "a board of {rows} x {cols} is not supported: each side needs 1 to 4,294,967,295 cells"
    )]
    BadSize {
        /// Rows asked for.
        rows: u64,
        /// Columns asked for.
        cols: u64,
    },
    /// The move is outside the board or not all ones.
    #[error("rectangle {0} is not all ones on this board")]
    IllegalMove(LargeRect),
}

/// A rectangle-clearing board of any size: `rows x cols` cells, each row a
/// run of 64-bit words (bit `c % 64` of word `c / 64` is column `c`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LargeBoard {
    rows: u32,
    cols: u32,
    stride: usize,
    words: Vec<u64>,
}

/// A maximal run of ones in one row: columns `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The row.
    pub row: u32,
    /// First column.
    pub start: u32,
    /// One past the last column.
    pub end: u32,
}

/// How many runs (and rows) [`LargeBoard::components_until`] handles
/// between two questions to its `halt`: a millisecond or so of work.
pub const COMPONENTS_CHECK_EVERY: usize = 1 << 16;

/// Asks `halt` each time a count of work done passes another
/// [`COMPONENTS_CHECK_EVERY`].
struct Checks<'a> {
    halt: &'a dyn Fn() -> bool,
    next: usize,
}

impl<'a> Checks<'a> {
    fn new(halt: &'a dyn Fn() -> bool) -> Checks<'a> {
        Checks {
            halt,
            next: COMPONENTS_CHECK_EVERY,
        }
    }

    /// Whether `halt` says so, asked only when `done` has passed the next
    /// mark.
    #[inline]
    fn halted(&mut self, done: usize) -> bool {
        if done < self.next {
            return false;
        }
        self.next = done + COMPONENTS_CHECK_EVERY;
        (self.halt)()
    }
}

/// The 4-connected components of a [`LargeBoard`]'s ones, in order of their
/// first cell (row-major), each as its runs.
#[derive(Clone, Debug, Default)]
pub struct Components {
    /// Every run, grouped by component.
    runs: Vec<Run>,
    /// Component `i`'s runs are `runs[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
}

impl Components {
    /// The number of components.
    #[must_use]
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when the board has no ones.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Component `index`'s runs, in row order then column order.
    #[must_use]
    pub fn runs(&self, index: usize) -> &[Run] {
        &self.runs[self.starts[index] as usize..self.starts[index + 1] as usize]
    }

    /// The bytes these components hold.
    #[must_use]
    pub fn allocated_bytes(&self) -> usize {
        self.runs.capacity() * std::mem::size_of::<Run>() + self.starts.capacity() * 4
    }
}

/// The bounding box and size of a set of runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// First row.
    pub top: u32,
    /// First column.
    pub left: u32,
    /// Rows spanned.
    pub rows: u32,
    /// Columns spanned.
    pub cols: u32,
    /// Cells.
    pub cells: u64,
}

impl Extent {
    /// The extent of `runs` (at least one, in any order).
    #[must_use]
    pub fn of(runs: &[Run]) -> Extent {
        let (mut left, mut right, mut cells) = (u32::MAX, 0, 0u64);
        let (mut top, mut bottom) = (u32::MAX, 0);
        for run in runs {
            left = left.min(run.start);
            right = right.max(run.end);
            top = top.min(run.row);
            bottom = bottom.max(run.row);
            cells += u64::from(run.end - run.start);
        }
        Extent {
            top,
            left,
            rows: bottom - top + 1,
            cols: right - left,
            cells,
        }
    }

    /// True when the box holds at most 64 cells, so the shape is a [`Board`].
    #[must_use]
    pub const fn fits_board(&self) -> bool {
        (self.rows as u64) * (self.cols as u64) <= 64
    }
}

impl LargeBoard {
    /// The bytes the cells of a `rows x cols` board take.
    #[must_use]
    pub const fn cell_bytes(rows: u64, cols: u64) -> u64 {
        rows.saturating_mul(cols.div_ceil(64)).saturating_mul(8)
    }

    /// An empty `rows x cols` board.
    ///
    /// # Errors
    ///
    /// [`LargeBoardError::BadSize`] for a zero side or one past `u32`.
    pub fn zeros(rows: u64, cols: u64) -> Result<LargeBoard, LargeBoardError> {
        let bad = LargeBoardError::BadSize { rows, cols };
        if rows == 0 || cols == 0 {
            return Err(bad);
        }
        let (Ok(r), Ok(c)) = (u32::try_from(rows), u32::try_from(cols)) else {
            return Err(bad);
        };
        let stride = (c as usize).div_ceil(64);
        let words = (r as usize).checked_mul(stride).ok_or(bad)?;
        Ok(LargeBoard {
            rows: r,
            cols: c,
            stride,
            words: vec![0; words],
        })
    }

    /// The same cells as a small board.
    #[must_use]
    pub fn from_board(board: &Board) -> LargeBoard {
        let mut large = LargeBoard::zeros(board.rows() as u64, board.cols() as u64)
            .expect("a board has 1 to 64 rows and columns");
        for row in 0..board.rows() {
            large.words[row * large.stride] = board.geometry().row_bits(board.cells(), row);
        }
        large
    }

    /// This board as a small [`Board`] when it has at most 64 cells.
    #[must_use]
    pub fn to_board(&self) -> Option<Board> {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        if rows * cols > 64 {
            return None;
        }
        let mut bits = 0u64;
        for row in 0..rows {
            bits |= self.words[row * self.stride] << (row * cols);
        }
        Board::new(rows, cols, bits).ok()
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(&self) -> u32 {
        self.cols
    }

    /// Every row's words, row after row: boards of the same sides compare
    /// by rows, then words, as slices of these.
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The words of row `row`.
    #[must_use]
    pub fn row_words(&self, row: u32) -> &[u64] {
        let start = row as usize * self.stride;
        &self.words[start..start + self.stride]
    }

    fn row_words_mut(&mut self, row: u32) -> &mut [u64] {
        let start = row as usize * self.stride;
        &mut self.words[start..start + self.stride]
    }

    /// Whether cell `(row, col)` is a one (false outside the board).
    #[must_use]
    pub fn get(&self, row: u32, col: u32) -> bool {
        row < self.rows
            && col < self.cols
            && self.words[row as usize * self.stride + col as usize / 64] >> (col % 64) & 1 != 0
    }

    /// Sets cell `(row, col)` to `one`.
    ///
    /// # Panics
    ///
    /// When the cell is outside the board.
    pub fn set(&mut self, row: u32, col: u32, one: bool) {
        assert!(row < self.rows && col < self.cols, "cell outside the board");
        let word = &mut self.words[row as usize * self.stride + col as usize / 64];
        let bit = 1u64 << (col % 64);
        if one {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// Sets columns `start..end` of row `row` to ones.
    pub fn set_run(&mut self, row: u32, start: u32, end: u32) {
        let words = self.row_words_mut(row);
        let (mut col, end) = (start as usize, end as usize);
        while col < end {
            let word = col / 64;
            let upto = end.min((word + 1) * 64);
            let width = upto - col;
            let bits = if width == 64 {
                u64::MAX
            } else {
                ((1u64 << width) - 1) << (col % 64)
            };
            words[word] |= bits;
            col = upto;
        }
    }

    /// The number of ones.
    #[must_use]
    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// True when no cell is a one.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The bytes the board's cells take.
    #[must_use]
    pub fn allocated_bytes(&self) -> usize {
        self.words.capacity() * 8
    }

    /// The mask of columns `left..=right` within word `word` of a row.
    fn span_mask(word: usize, left: u32, right: u32) -> u64 {
        let (lo, hi) = (word as u32 * 64, word as u32 * 64 + 63);
        if right < lo || left > hi {
            return 0;
        }
        let from = left.max(lo) - lo;
        let to = right.min(hi) - lo;
        let width = to - from + 1;
        if width == 64 {
            u64::MAX
        } else {
            ((1u64 << width) - 1) << from
        }
    }

    /// True when every cell of `rect` is inside the board and a one.
    #[must_use]
    pub fn is_legal(&self, rect: LargeRect) -> bool {
        if rect.top > rect.bottom
            || rect.left > rect.right
            || rect.bottom >= self.rows
            || rect.right >= self.cols
        {
            return false;
        }
        let (first, last) = (rect.left as usize / 64, rect.right as usize / 64);
        (rect.top..=rect.bottom).all(|row| {
            let words = self.row_words(row);
            (first..=last).all(|w| {
                let mask = Self::span_mask(w, rect.left, rect.right);
                words[w] & mask == mask
            })
        })
    }

    /// Clears `rect` without checking it (its cells outside the board or
    /// already zero are left as they are).
    pub fn play_unchecked(&mut self, rect: LargeRect) {
        let (first, last) = (rect.left as usize / 64, rect.right as usize / 64);
        for row in rect.top..=rect.bottom.min(self.rows.saturating_sub(1)) {
            let words = self.row_words_mut(row);
            for (w, word) in words.iter_mut().enumerate().take(last + 1).skip(first) {
                *word &= !Self::span_mask(w, rect.left, rect.right);
            }
        }
    }

    /// The board after clearing `rect`.
    ///
    /// # Errors
    ///
    /// [`LargeBoardError::IllegalMove`] unless `rect` is all ones.
    pub fn try_play(&self, rect: LargeRect) -> Result<LargeBoard, LargeBoardError> {
        if !self.is_legal(rect) {
            return Err(LargeBoardError::IllegalMove(rect));
        }
        let mut after = self.clone();
        after.play_unchecked(rect);
        Ok(after)
    }

    /// Calls `visit` with each maximal run of ones of row `row`, left to right.
    pub fn for_each_run<F: FnMut(u32, u32)>(&self, row: u32, visit: F) {
        runs_in(self.row_words(row), self.cols, visit);
    }

    /// The components of the ones (see the module docs).
    #[must_use]
    pub fn components(&self) -> Components {
        self.components_until(&|| false)
            .expect("a search never halted labels the whole board")
    }

    /// [`LargeBoard::components`], given up (`None`) once `halt` says so:
    /// asked each time another [`COMPONENTS_CHECK_EVERY`] runs and rows
    /// are read, joined, numbered or placed, so that labelling a board of
    /// 10^8 cells (seconds, with tens of millions of runs) stays within the
    /// budget of an engine that must answer.
    pub fn components_until(&self, halt: &dyn Fn() -> bool) -> Option<Components> {
        let mut checks = Checks::new(halt);
        let mut runs = Vec::new();
        let mut row_starts = Vec::with_capacity(self.rows as usize + 1);
        for row in 0..self.rows {
            row_starts.push(runs.len());
            self.for_each_run(row, |start, end| runs.push(Run { row, start, end }));
            if checks.halted(runs.len() + row as usize) {
                return None;
            }
        }
        row_starts.push(runs.len());
        let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
        let mut checks = Checks::new(halt);
        for row in 1..self.rows as usize {
            if checks.halted(row_starts[row] + row) {
                return None;
            }
            let (mut a, a_end) = (row_starts[row - 1], row_starts[row]);
            let (mut b, b_end) = (row_starts[row], row_starts[row + 1]);
            while a < a_end && b < b_end {
                let (above, below) = (runs[a], runs[b]);
                if above.start < below.end && below.start < above.end {
                    union(&mut parent, a as u32, b as u32);
                }
                if above.end <= below.end {
                    a += 1;
                } else {
                    b += 1;
                }
            }
        }
        // Number the roots in order of their first run, then place each run
        // by a counting sort on its component.
        let mut label = vec![u32::MAX; runs.len()];
        let mut counts: Vec<u32> = Vec::new();
        let mut of_run = Vec::with_capacity(runs.len());
        let mut checks = Checks::new(halt);
        for i in 0..runs.len() {
            if checks.halted(i) {
                return None;
            }
            let root = find(&mut parent, i as u32) as usize;
            if label[root] == u32::MAX {
                label[root] = counts.len() as u32;
                counts.push(0);
            }
            let id = label[root];
            counts[id as usize] += 1;
            of_run.push(id);
        }
        drop(label);
        drop(parent);
        let mut starts = Vec::with_capacity(counts.len() + 1);
        let mut total = 0u32;
        for &count in &counts {
            starts.push(total);
            total += count;
        }
        starts.push(total);
        let mut next: Vec<u32> = starts[..counts.len()].to_vec();
        let mut grouped = vec![
            Run {
                row: 0,
                start: 0,
                end: 0
            };
            runs.len()
        ];
        let mut checks = Checks::new(halt);
        for (i, (run, id)) in runs.into_iter().zip(of_run).enumerate() {
            if checks.halted(i) {
                return None;
            }
            grouped[next[id as usize] as usize] = run;
            next[id as usize] += 1;
        }
        Some(Components {
            runs: grouped,
            starts,
        })
    }

    /// The shape of `runs` (runs of this or any board) cut to its bounding
    /// box, as a [`LargeBoard`].
    #[must_use]
    pub fn from_runs(runs: &[Run], extent: &Extent) -> LargeBoard {
        let mut shape = LargeBoard::zeros(u64::from(extent.rows), u64::from(extent.cols))
            .expect("an extent has at least one cell");
        for run in runs {
            shape.set_run(
                run.row - extent.top,
                run.start - extent.left,
                run.end - extent.left,
            );
        }
        shape
    }

    /// The shape of `runs` cut to its bounding box as a small [`Board`];
    /// `None` when the box holds more than 64 cells.
    #[must_use]
    pub fn board_from_runs(runs: &[Run], extent: &Extent) -> Option<Board> {
        if !extent.fits_board() {
            return None;
        }
        let cols = extent.cols;
        let mut bits = 0u64;
        for run in runs {
            let width = run.end - run.start;
            let ones = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            bits |= ones << ((run.row - extent.top) * cols + (run.start - extent.left));
        }
        Board::new(extent.rows as usize, cols as usize, bits).ok()
    }

    /// This board cut to the bounding box of its ones, with the box's
    /// top-left corner; `None` when it has no ones.
    #[must_use]
    pub fn cut(&self) -> Option<(LargeBoard, u32, u32)> {
        let mut runs = Vec::new();
        for row in 0..self.rows {
            self.for_each_run(row, |start, end| runs.push(Run { row, start, end }));
        }
        if runs.is_empty() {
            return None;
        }
        let extent = Extent::of(&runs);
        Some((
            LargeBoard::from_runs(&runs, &extent),
            extent.top,
            extent.left,
        ))
    }

    /// The image of this board under one of the 8 symmetries of the square
    /// (bit 0 mirrors columns, bit 1 mirrors rows, bit 2 transposes last),
    /// as [`Board::transform`] numbers them.
    ///
    /// Word operations throughout, O(words) and no per-cell work: a row is
    /// mirrored by reversing its words and their bits, and the transpose
    /// goes by 64 x 64 blocks of bits. A canonical form makes seven
    /// images, and on a 3000 x 3000 board a write a cell would take
    /// seconds.
    #[must_use]
    pub fn transform(&self, symmetry: u8) -> LargeBoard {
        let mirrored = self.mirrored(symmetry & 1 != 0, symmetry & 2 != 0);
        if symmetry & 4 != 0 {
            mirrored.transposed()
        } else {
            mirrored
        }
    }

    /// This board with its columns and/or its rows in reverse order.
    fn mirrored(&self, columns: bool, rows: bool) -> LargeBoard {
        let mut image = LargeBoard {
            rows: self.rows,
            cols: self.cols,
            stride: self.stride,
            words: vec![0; self.words.len()],
        };
        // Reversing a row's padded bits puts column `c` at `64 * stride - 1
        // - c`; the mirror wants `cols - 1 - c`, `pad` lower. The padding
        // bits are zero, so nothing else moves in.
        let pad = (self.stride * 64 - self.cols as usize) as u32;
        for row in 0..self.rows {
            let from = if rows { self.rows - 1 - row } else { row };
            let src = self.row_words(from);
            let dst = image.row_words_mut(row);
            if !columns {
                dst.copy_from_slice(src);
                continue;
            }
            for (d, s) in dst.iter_mut().zip(src.iter().rev()) {
                *d = s.reverse_bits();
            }
            if pad != 0 {
                for i in 0..dst.len() {
                    let above = dst.get(i + 1).map_or(0, |&next| next << (64 - pad));
                    dst[i] = dst[i] >> pad | above;
                }
            }
        }
        image
    }

    /// This board with rows and columns exchanged.
    fn transposed(&self) -> LargeBoard {
        let mut image = LargeBoard::zeros(u64::from(self.cols), u64::from(self.rows))
            .expect("same cell count as a valid board");
        let mut block = [0u64; 64];
        for band in 0..self.rows.div_ceil(64) as usize {
            for word in 0..self.stride {
                for (i, slot) in block.iter_mut().enumerate() {
                    let row = band * 64 + i;
                    *slot = if row < self.rows as usize {
                        self.words[row * self.stride + word]
                    } else {
                        0
                    };
                }
                transpose_64(&mut block);
                let cols = (self.cols as usize - word * 64).min(64);
                for (j, &bits) in block.iter().take(cols).enumerate() {
                    image.words[(word * 64 + j) * image.stride + band] = bits;
                }
            }
        }
        image
    }

    /// Calls `visit` with every all-ones rectangle, ordered by top row, then
    /// left column, then right column, then bottom row (the order of
    /// [`Board::for_each_rect`]). O(cells) to set up, then O(1) a rectangle.
    pub fn for_each_rect<F: FnMut(LargeRect)>(&self, mut visit: F) {
        self.for_each_rect_while(|rect| {
            visit(rect);
            true
        });
    }

    /// [`LargeBoard::for_each_rect`] until `visit` returns false; true when
    /// every rectangle was visited. A caller whose budget runs out stops
    /// here rather than being handed the rest: a line of `n` cells has
    /// `n (n + 1) / 2` rectangles, about 3 * 10^10 for `n = 2^18`.
    pub fn for_each_rect_while<F: FnMut(LargeRect) -> bool>(&self, mut visit: F) -> bool {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let mut widths: Vec<u32> = Vec::new();
        for top in 0..rows {
            for left in 0..cols {
                let first = self.ones_from(top as u32, left as u32, u32::MAX);
                if first == 0 {
                    continue;
                }
                // widths[k]: the widest rectangle of k + 1 rows from (top, left).
                widths.clear();
                let mut width = first;
                let mut bottom = top;
                while bottom < rows {
                    width = self.ones_from(bottom as u32, left as u32, width);
                    if width == 0 {
                        break;
                    }
                    widths.push(width);
                    bottom += 1;
                }
                for right in 0..first {
                    for (k, &w) in widths.iter().enumerate() {
                        if w <= right {
                            break;
                        }
                        let going = visit(LargeRect {
                            top: top as u32,
                            left: left as u32,
                            bottom: (top + k) as u32,
                            right: left as u32 + right,
                        });
                        if !going {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// How many ones run right from `(row, col)`, counted up to `cap`: a
    /// word at a time, so the listing keeps no table of run lengths (4
    /// bytes a cell, 400 MB on a 10,000 x 10,000 board) and a run is
    /// counted only as far as the rectangle above it reaches.
    fn ones_from(&self, row: u32, col: u32, cap: u32) -> u32 {
        let words = self.row_words(row);
        let mut count = 0u32;
        let mut col = col as usize;
        while count < cap {
            let Some(&word) = words.get(col / 64) else {
                break;
            };
            // The padding past the last column is zero, so a run stops there.
            let shift = col % 64;
            let run = (word >> shift).trailing_ones();
            count += run;
            if run as usize != 64 - shift {
                break;
            }
            col += run as usize;
        }
        count.min(cap)
    }
}

/// Calls `visit` with each maximal run of ones of a row of `cols` cells
/// held in `words`, left to right, as `(first column, one past the last)`.
pub(crate) fn runs_in<F: FnMut(u32, u32)>(words: &[u64], cols: u32, mut visit: F) {
    let mut open: Option<u32> = None;
    for (w, &word) in words.iter().enumerate() {
        let base = w as u32 * 64;
        let mut bit = 0u32;
        while bit < 64 {
            let rest = word >> bit;
            match open {
                None => {
                    if rest == 0 {
                        break;
                    }
                    bit += rest.trailing_zeros();
                    open = Some(base + bit);
                }
                Some(start) => {
                    let ones = (!rest).trailing_zeros().min(64 - bit);
                    bit += ones;
                    if bit < 64 {
                        visit(start, base + bit);
                        open = None;
                    }
                }
            }
        }
    }
    if let Some(start) = open {
        visit(start, cols);
    }
}

/// Transposes a 64 x 64 matrix of bits in place: bit `j` of word `i` goes
/// to bit `i` of word `j`. The off-diagonal halves are swapped, then the
/// quarters within each half, down to single bits: six rounds of 32 word
/// swaps (the recursive transpose of Hacker's Delight, 7-3).
fn transpose_64(a: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            let t = (a[k] >> width ^ a[k + width]) & mask;
            a[k] ^= t << width;
            a[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    // The smaller index stays the root, so a root is its component's first run.
    match ra.cmp(&rb) {
        std::cmp::Ordering::Less => parent[rb as usize] = ra,
        std::cmp::Ordering::Greater => parent[ra as usize] = rb,
        std::cmp::Ordering::Equal => {}
    }
}

impl fmt::Debug for LargeBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "LargeBoard {} x {}", self.rows, self.cols)?;
        for row in 0..self.rows.min(64) {
            let line: String = (0..self.cols.min(64))
                .map(|c| if self.get(row, c) { '1' } else { '0' })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
