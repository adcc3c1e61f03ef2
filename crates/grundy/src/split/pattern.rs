//! Compressed candidate patterns: the canonical form of a rectangle.
//!
//! A rectangle's value depends only on the *order pattern* of its
//! candidates: a move at `(x, y)` sorts every other candidate into one of four
//! parts by comparing its row with `x` and its column with `y`, so the parts'
//! patterns are determined by the rectangle's pattern alone (induction on the
//! number of candidates). Rows and columns with no candidate therefore do not
//! matter, and a [`Pattern`] keeps only the rows and columns that hold one:
//! every row and every column of a pattern holds at least one candidate.

use std::fmt;

use crate::symmetry::{image_cell, image_shape};
use crate::Nimber;

/// A compressed candidate pattern: a `rows x cols` 0/1 matrix in which every
/// row and every column holds at least one candidate (or the empty pattern,
/// `0 x 0`). Stored sparsely, row by row (a 10^5-candidate permutation is
/// 10^5 entries, not 10^10 bits).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    rows: u32,
    cols: u32,
    /// Row `r`'s candidates are `cols_of[row_start[r]..row_start[r + 1]]`.
    row_start: Vec<u32>,
    /// The candidates' columns, row by row, increasing within a row.
    cols_of: Vec<u32>,
}

impl Pattern {
    /// The empty pattern (no candidates; value 0).
    #[must_use]
    pub const fn empty() -> Pattern {
        Pattern {
            rows: 0,
            cols: 0,
            row_start: Vec::new(),
            cols_of: Vec::new(),
        }
    }

    /// The pattern of a set of cells given by any coordinates (duplicates
    /// allowed): rows and columns are ranked, empty ones dropped.
    #[must_use]
    pub fn from_cells<I>(cells: I) -> Pattern
    where
        I: IntoIterator<Item = (u64, u64)>,
    {
        let cells: Vec<(u64, u64)> = cells.into_iter().collect();
        let mut rows: Vec<u64> = cells.iter().map(|&(r, _)| r).collect();
        let mut cols: Vec<u64> = cells.iter().map(|&(_, c)| c).collect();
        rows.sort_unstable();
        rows.dedup();
        cols.sort_unstable();
        cols.dedup();
        let ranked = cells
            .into_iter()
            .map(|(r, c)| {
                let r = rows.binary_search(&r).expect("ranked");
                let c = cols.binary_search(&c).expect("ranked");
                (r as u32, c as u32)
            })
            .collect();
        Pattern::from_ranked(rows.len(), cols.len(), ranked)
    }

    /// The pattern of cells already ranked: every row `< rows` and column
    /// `< cols` is used.
    fn from_ranked(rows: usize, cols: usize, mut cells: Vec<(u32, u32)>) -> Pattern {
        cells.sort_unstable();
        cells.dedup();
        let mut row_start = vec![0u32; rows + 1];
        for &(r, _) in &cells {
            row_start[r as usize + 1] += 1;
        }
        for r in 0..rows {
            row_start[r + 1] += row_start[r];
        }
        Pattern {
            rows: rows as u32,
            cols: cols as u32,
            row_start: if rows == 0 { Vec::new() } else { row_start },
            cols_of: cells.into_iter().map(|(_, c)| c).collect(),
        }
    }

    /// The pattern of a 0/1 matrix given as rows of booleans (ragged rows
    /// are read as padded with zeros).
    #[must_use]
    pub fn from_matrix<R: AsRef<[bool]>>(matrix: &[R]) -> Pattern {
        Pattern::from_cells(matrix.iter().enumerate().flat_map(|(r, row)| {
            row.as_ref()
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b)
                .map(move |(c, _)| (r as u64, c as u64))
        }))
    }

    /// Rows (each holds a candidate).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns (each holds a candidate).
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// True when there is no candidate.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    fn row_slice(&self, row: usize) -> &[u32] {
        &self.cols_of[self.row_start[row] as usize..self.row_start[row + 1] as usize]
    }

    /// Whether `(row, col)` is a candidate.
    #[must_use]
    pub fn get(&self, row: usize, col: usize) -> bool {
        row < self.rows()
            && u32::try_from(col).is_ok_and(|c| self.row_slice(row).binary_search(&c).is_ok())
    }

    /// The candidates' columns in `row`, increasing.
    pub fn row_cells(&self, row: usize) -> impl Iterator<Item = usize> + '_ {
        self.row_slice(row).iter().map(|&c| c as usize)
    }

    /// Every candidate as `(row, col)`, row by row.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.rows()).flat_map(move |r| self.row_cells(r).map(move |c| (r, c)))
    }

    /// Number of candidates.
    #[must_use]
    pub fn count(&self) -> usize {
        self.cols_of.len()
    }

    /// The pattern of the sub-rectangle `rows x cols` (half-open ranges,
    /// possibly empty), compressed.
    #[must_use]
    pub fn sub(&self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Pattern {
        if rows.is_empty() || cols.is_empty() {
            return Pattern::empty();
        }
        let (lo, hi) = (cols.start as u32, cols.end.min(u32::MAX as usize) as u32);
        let mut cells = Vec::new();
        for r in rows.start..rows.end.min(self.rows()) {
            let row = self.row_slice(r);
            let from = row.partition_point(|&c| c < lo);
            let to = row.partition_point(|&c| c < hi);
            cells.extend(row[from..to].iter().map(|&c| (r as u64, u64::from(c))));
        }
        Pattern::from_cells(cells)
    }

    /// The four parts left by a move at candidate `(row, col)`: above-left,
    /// above-right, below-left, below-right, each compressed.
    #[must_use]
    pub fn split_at(&self, row: usize, col: usize) -> [Pattern; 4] {
        let (r, c) = (self.rows(), self.cols());
        [
            self.sub(0..row, 0..col),
            self.sub(0..row, col + 1..c),
            self.sub(row + 1..r, 0..col),
            self.sub(row + 1..r, col + 1..c),
        ]
    }

    /// The image under one of the 8 symmetries of the square: bit 0 flips
    /// the columns, bit 1 flips the rows, bit 2 then transposes.
    #[must_use]
    pub fn transform(&self, symmetry: u8) -> Pattern {
        let (rows, cols) = (self.rows(), self.cols());
        let (out_rows, out_cols) = image_shape(symmetry, rows, cols);
        let cells = self
            .cells()
            .map(|cell| {
                let (row, col) = image_cell(symmetry, (rows, cols), cell);
                (row as u32, col as u32)
            })
            .collect();
        Pattern::from_ranked(out_rows, out_cols, cells)
    }

    /// The least image under the 8 symmetries: patterns with equal
    /// canonical forms are the same game (each symmetry maps rectangles to
    /// rectangles and a move's four parts to the four parts of the image
    /// move, permuted).
    #[must_use]
    pub fn canonical(&self) -> Pattern {
        self.canonical_until(|| false).expect("never asked to stop")
    }

    /// [`Pattern::canonical`], asking `stop` before each of the 8
    /// transforms (each sorts every candidate: on a pattern of 10^6
    /// candidates, tens of milliseconds); `None` when it said stop.
    pub fn canonical_until(&self, mut stop: impl FnMut() -> bool) -> Option<Pattern> {
        let mut best: Option<Pattern> = None;
        for symmetry in 0..8u8 {
            if stop() {
                return None;
            }
            let image = self.transform(symmetry);
            if best.as_ref().is_none_or(|b| image < *b) {
                best = Some(image);
            }
        }
        best
    }

    /// Bytes this pattern holds, measured: the struct and the capacity of
    /// its two vectors.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        (std::mem::size_of::<Pattern>()
            + std::mem::size_of::<u32>() * (self.row_start.capacity() + self.cols_of.capacity()))
            as u64
    }

    /// The value when a closed form gives it: no candidate: 0; else, when
    /// the candidates form [line groups](Pattern::line_groups), their
    /// number mod 2. This covers one row or one column (one group: 1) and
    /// no two candidates sharing a row or a column (`k` groups: `k mod 2`).
    #[must_use]
    pub fn known_value(&self) -> Option<Nimber> {
        if self.is_empty() {
            return Some(Nimber::ZERO);
        }
        self.line_groups()
            .map(|groups| Nimber::new((groups % 2) as u32))
    }

    /// The number of groups when the candidates form *line groups*, else
    /// `None`. Call two candidates linked when they share a row or a
    /// column; the pattern has line groups when each linked group lies in
    /// one row or one column and fills a contiguous run of the pattern's
    /// columns (or rows): no other candidate has a column strictly inside a
    /// row group's span, nor a row inside a column group's span. A single
    /// candidate is a group of one; isolated candidates (sharing their row
    /// and column with no other) are exactly those groups.
    ///
    /// **Every play then lasts as many moves as there are groups**, so the
    /// value is their number mod 2, and every option's value is that
    /// number minus one, mod 2. Proof: a move at a candidate of group `g`
    /// deletes its row and column, which hold only `g`'s candidates
    /// (another candidate there would be linked to it), so it removes
    /// exactly `g` from its rectangle. Any other group `h` lies in one of
    /// the four parts: the move's column is not one of a row group `h`'s
    /// columns (they hold only `h`) and not strictly inside its span (the
    /// span holds only `h`'s columns), and likewise for rows. Every part is
    /// a sub-rectangle, whose candidates again form line groups (the
    /// groups cut down to it); by induction each part's plays last as many
    /// moves as its groups, and the groups left after the move are those
    /// of the parts. So every option is a sum whose plays last `groups - 1`
    /// moves, hence of value `(groups - 1) mod 2`, and the mex of that one
    /// value is `groups mod 2`.
    ///
    /// Cost: one pass over the candidates and two arrays of counts.
    #[must_use]
    pub fn line_groups(&self) -> Option<usize> {
        let mut col_count = vec![0u32; self.cols()];
        for &c in &self.cols_of {
            col_count[c as usize] += 1;
        }
        // A column group's rows, as (first row, rows seen, last row).
        let mut col_run: Vec<(u32, u32, u32)> = vec![(0, 0, 0); self.cols()];
        let mut groups = 0;
        for row in 0..self.rows() {
            let cells = self.row_slice(row);
            if let [only] = cells {
                let run = &mut col_run[*only as usize];
                if run.1 == 0 {
                    *run = (row as u32, 1, row as u32);
                    groups += 1;
                } else {
                    // Rows of a column group must follow one another.
                    if run.2 + 1 != row as u32 {
                        return None;
                    }
                    run.1 += 1;
                    run.2 = row as u32;
                }
                continue;
            }
            // A row group: its columns are not shared and contiguous.
            let (&first, &last) = (cells.first()?, cells.last()?);
            if (last - first) as usize + 1 != cells.len()
                || cells.iter().any(|&c| col_count[c as usize] != 1)
            {
                return None;
            }
            groups += 1;
        }
        Some(groups)
    }

    /// Splits the pattern into independent blocks, each compressed, with the
    /// rows and columns of `self` each block came from (increasing).
    ///
    /// If a row cut and a column cut leave every candidate in the top-left
    /// and bottom-right quadrants (or in the top-right and bottom-left), the
    /// rectangle is the sum of the two quadrants' games: a move in one
    /// quadrant leaves the other whole inside one of its four parts, which
    /// is again split by the same cuts, so by induction the options are
    /// exactly those of the sum. Applied recursively. A pattern with no such
    /// cut is one block.
    #[must_use]
    pub fn blocks(&self) -> Vec<Block> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        // A work list rather than recursion: a chain of thousands of blocks
        // must not overflow the stack.
        let mut work = vec![Block {
            pattern: self.clone(),
            rows: (0..self.rows()).collect(),
            cols: (0..self.cols()).collect(),
        }];
        while let Some(block) = work.pop() {
            match block.pattern.cuts() {
                None => out.push(block),
                Some((cuts, anti)) => {
                    let p = &block.pattern;
                    let mut bounds = vec![0];
                    bounds.extend(cuts.iter().map(|&(row, _)| row));
                    bounds.push(p.rows());
                    let mut col_bounds = vec![if anti { p.cols() } else { 0 }];
                    col_bounds.extend(cuts.iter().map(|&(_, col)| col));
                    col_bounds.push(if anti { 0 } else { p.cols() });
                    for i in 0..bounds.len() - 1 {
                        let rows = bounds[i]..bounds[i + 1];
                        let (a, b) = (col_bounds[i], col_bounds[i + 1]);
                        let cols = a.min(b)..a.max(b);
                        work.push(Block {
                            pattern: p.sub(rows.clone(), cols.clone()),
                            rows: block.rows[rows].to_vec(),
                            cols: block.cols[cols].to_vec(),
                        });
                    }
                }
            }
        }
        out.sort_by(|a, b| (a.rows[0], a.cols[0]).cmp(&(b.rows[0], b.cols[0])));
        out
    }

    /// Every row cut `(row, col)` of one kind: `false` when the rows above
    /// use only the columns left of `col` and the rows below only those
    /// from `col` on (diagonal), `true` for the mirror case (anti-diagonal).
    /// Diagonal cuts are preferred; `None` when there is neither.
    fn cuts(&self) -> Option<(Vec<(usize, usize)>, bool)> {
        let r = self.rows();
        let min_col: Vec<usize> = (0..r)
            .map(|row| self.row_cells(row).next().expect("compressed"))
            .collect();
        let max_col: Vec<usize> = (0..r)
            .map(|row| self.row_cells(row).last().expect("compressed"))
            .collect();
        // Prefix extremes over rows above a cut, suffix extremes below.
        let mut prefix_max = Vec::with_capacity(r);
        let mut prefix_min = Vec::with_capacity(r);
        let (mut hi, mut lo) = (0, usize::MAX);
        for row in 0..r {
            hi = hi.max(max_col[row]);
            lo = lo.min(min_col[row]);
            prefix_max.push(hi);
            prefix_min.push(lo);
        }
        let mut suffix_max = vec![0; r + 1];
        let mut suffix_min = vec![usize::MAX; r + 1];
        for row in (0..r).rev() {
            suffix_max[row] = suffix_max[row + 1].max(max_col[row]);
            suffix_min[row] = suffix_min[row + 1].min(min_col[row]);
        }
        let diagonal: Vec<(usize, usize)> = (1..r)
            .filter(|&cut| prefix_max[cut - 1] < suffix_min[cut])
            .map(|cut| (cut, suffix_min[cut]))
            .collect();
        if !diagonal.is_empty() {
            return Some((diagonal, false));
        }
        let anti: Vec<(usize, usize)> = (1..r)
            .filter(|&cut| suffix_max[cut] < prefix_min[cut - 1])
            .map(|cut| (cut, prefix_min[cut - 1]))
            .collect();
        (!anti.is_empty()).then_some((anti, true))
    }
}

/// An independent block of a pattern (see [`Pattern::blocks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The block's own compressed pattern.
    pub pattern: Pattern,
    /// For each row of `pattern`, the row of the parent pattern.
    pub rows: Vec<usize>,
    /// For each column of `pattern`, the column of the parent pattern.
    pub cols: Vec<usize>,
}

impl fmt::Debug for Pattern {
    /// Draws the pattern, `1` for a candidate and `.` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Pattern {} x {}", self.rows, self.cols)?;
        for row in 0..self.rows() {
            for col in 0..self.cols() {
                f.write_str(if self.get(row, col) { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_drops_empty_rows_and_columns() {
        let p = Pattern::from_cells([(5, 100), (5, 7), (1_000_000_000, 7)]);
        assert_eq!((p.rows(), p.cols()), (2, 2));
        assert!(p.get(0, 0) && p.get(0, 1) && p.get(1, 0) && !p.get(1, 1));
        assert_eq!(p.count(), 3);
    }

    #[test]
    fn blocks_find_diagonal_and_anti_diagonal_cuts() {
        // Two blocks on the diagonal, the second of which is anti-diagonal.
        let p = Pattern::from_matrix(&[
            [true, true, false, false, false],
            [true, false, false, false, false],
            [false, false, false, false, true],
            [false, false, true, true, false],
        ]);
        let blocks = p.blocks();
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0].rows, vec![0, 1]);
        assert_eq!(blocks[0].cols, vec![0, 1]);
        assert_eq!(blocks[1].rows, vec![2]);
        assert_eq!(blocks[1].cols, vec![4]);
        assert_eq!(blocks[2].rows, vec![3]);
        assert_eq!(blocks[2].cols, vec![2, 3]);
        let total: usize = blocks.iter().map(|b| b.pattern.count()).sum();
        assert_eq!(total, p.count());
    }
}
