//! Grundy values over a bounded region, and sums of pawns: the rule, the
//! row-by-row fill with its two levels of bitsets, its cost and why the mex
//! found is the least missing value are in [`crate::pawn`] ("Values").

use super::{Blocked, Cell, PawnError};
use crate::Nimber;

/// The longest side of a [`ValueTable`]'s region.
pub const MAX_REGION_SIDE: u32 = 4096;

/// Marks an impassable cell in the table. Values are below `width + height
/// <= 8192` (a cell `(x, y)` has at most `x + y` options, so its mex is at
/// most `x + y`), so they fit `u16` with room for the marker.
const BLOCKED: u16 = u16::MAX;

/// The Grundy value of every cell of the region `[0, width) x [0, height)`.
///
/// A cell's options all lie in the region, so the table is exact. Filled row
/// by row in O(width * height * (1 + k)) where `k` counts the words that are
/// all ones in the union of the row and column bitsets but in neither alone
/// (rare; none with no impassable cell); see [`crate::pawn`]. Memory: two
/// bytes per cell plus `width * (width + height) / 8` bytes of column
/// bitsets.
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, ValueTable};
/// use grundy::Nimber;
/// let cell = |x, y| Cell::new(x, y).unwrap();
/// // No impassable cell: two Nim heaps, value x xor y.
/// let table = ValueTable::new(&Blocked::empty(), 8, 8).unwrap();
/// assert_eq!(table.value(cell(5, 3)), Some(Nimber::new(5 ^ 3)));
/// // A wall at (2, 0): from (3, 0) the pawn can neither pass it nor go down.
/// let table = ValueTable::new(&Blocked::new(&[cell(2, 0)]).unwrap(), 8, 8).unwrap();
/// assert_eq!(table.value(cell(3, 0)), Some(Nimber::ZERO));
/// assert_eq!(table.value(cell(2, 0)), None);
/// ```
#[derive(Clone, Debug)]
pub struct ValueTable {
    width: u32,
    height: u32,
    /// Row-major values, [`BLOCKED`] on impassable cells.
    values: Vec<u16>,
}

impl ValueTable {
    /// The values of `[0, width) x [0, height)`.
    ///
    /// # Errors
    ///
    /// [`PawnError::RegionTooLarge`] unless both sides are in
    /// `1..=`[`MAX_REGION_SIDE`].
    pub fn new(blocked: &Blocked, width: u32, height: u32) -> Result<ValueTable, PawnError> {
        if !(1..=MAX_REGION_SIDE).contains(&width) || !(1..=MAX_REGION_SIDE).contains(&height) {
            return Err(PawnError::RegionTooLarge {
                width: u64::from(width),
                height: u64::from(height),
            });
        }
        let (w, h) = (width as usize, height as usize);
        // One bit per possible value: values are at most (w - 1) + (h - 1).
        let words = (w + h).div_ceil(64);
        let mut values = vec![0u16; w * h];
        let mut row = vec![0u64; words];
        // Word-major (`columns[word * w + x]`): neighbouring cells of a row
        // scan the same words of neighbouring columns, which share cache
        // lines (with no walls, `x xor y` keeps `value / 64` constant over
        // 64 aligned columns).
        let mut columns = vec![0u64; w * words];
        // Per set, a second-level bitset of its all-ones words: the mex of
        // the union is in the first word that is all ones in neither set
        // (a word all ones only in the union is rare: then search on).
        // Words from `used` on are all zero (clearing stops there).
        let mask_words = words.div_ceil(64);
        let mut row_full = vec![0u64; mask_words];
        let mut row_used = 0usize;
        let mut column_full = vec![0u64; w * mask_words];
        let mut column_used = vec![0usize; w];
        let mut walls = blocked.within(width, height).peekable();
        for y in 0..h {
            row[..row_used].fill(0);
            row_full.fill(0);
            row_used = 0;
            let line = &mut values[y * w..(y + 1) * w];
            for (x, slot) in line.iter_mut().enumerate() {
                let full = &mut column_full[x * mask_words..(x + 1) * mask_words];
                if walls
                    .peek()
                    .is_some_and(|c| c.y() as usize == y && c.x() as usize == x)
                {
                    walls.next();
                    *slot = BLOCKED;
                    row[..row_used].fill(0);
                    row_full.fill(0);
                    row_used = 0;
                    for word in 0..column_used[x] {
                        columns[word * w + x] = 0;
                    }
                    full.fill(0);
                    column_used[x] = 0;
                    continue;
                }
                let value = 'search: {
                    for m in 0..mask_words {
                        let mut either = row_full[m] | full[m];
                        while either != u64::MAX {
                            let word = m * 64 + (!either).trailing_zeros() as usize;
                            let seen = row[word] | columns[word * w + x];
                            if seen != u64::MAX {
                                break 'search word * 64 + (!seen).trailing_zeros() as usize;
                            }
                            either |= 1 << (word % 64);
                        }
                    }
                    unreachable!("a cell's value is at most x + y, below 64 * words")
                };
                *slot = value as u16;
                let (index, bit) = (value / 64, 1u64 << (value % 64));
                row[index] |= bit;
                columns[index * w + x] |= bit;
                row_used = row_used.max(index + 1);
                column_used[x] = column_used[x].max(index + 1);
                if row[index] == u64::MAX {
                    row_full[index / 64] |= 1 << (index % 64);
                }
                if columns[index * w + x] == u64::MAX {
                    full[index / 64] |= 1 << (index % 64);
                }
            }
        }
        Ok(ValueTable {
            width,
            height,
            values,
        })
    }

    /// The smallest table holding every cell of `cells` (from the origin to
    /// their largest coordinates).
    ///
    /// # Errors
    ///
    /// [`PawnError::RegionTooLarge`] when a coordinate is
    /// [`MAX_REGION_SIDE`] or more.
    pub fn covering(blocked: &Blocked, cells: &[Cell]) -> Result<ValueTable, PawnError> {
        let width = cells
            .iter()
            .map(|c| u64::from(c.x()) + 1)
            .max()
            .unwrap_or(1);
        let height = cells
            .iter()
            .map(|c| u64::from(c.y()) + 1)
            .max()
            .unwrap_or(1);
        if width > u64::from(MAX_REGION_SIDE) || height > u64::from(MAX_REGION_SIDE) {
            return Err(PawnError::RegionTooLarge { width, height });
        }
        ValueTable::new(blocked, width as u32, height as u32)
    }

    /// Columns of the region.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows of the region.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// True when `cell` lies in the region.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x() < self.width && cell.y() < self.height
    }

    fn raw(&self, x: u32, y: u32) -> u16 {
        self.values[y as usize * self.width as usize + x as usize]
    }

    /// The value of `cell`; `None` when it is impassable or outside.
    #[must_use]
    pub fn value(&self, cell: Cell) -> Option<Nimber> {
        if !self.contains(cell) {
            return None;
        }
        match self.raw(cell.x(), cell.y()) {
            BLOCKED => None,
            v => Some(Nimber::new(u32::from(v))),
        }
    }

    /// Calls `visit` with every legal move from `cell` and the value it
    /// leads to: left along the row, then down the column, nearest first,
    /// each direction stopping at the first impassable cell.
    ///
    /// # Errors
    ///
    /// [`PawnError::OutsideRegion`] or [`PawnError::OnBlocked`].
    pub fn for_each_move(
        &self,
        cell: Cell,
        mut visit: impl FnMut(Cell, Nimber),
    ) -> Result<(), PawnError> {
        self.check(cell)?;
        let (x, y) = (cell.x(), cell.y());
        for to in (0..x).rev() {
            match self.raw(to, y) {
                BLOCKED => break,
                v => visit(
                    Cell::from_parts(u64::from(to), u64::from(y)),
                    Nimber::new(u32::from(v)),
                ),
            }
        }
        for to in (0..y).rev() {
            match self.raw(x, to) {
                BLOCKED => break,
                v => visit(
                    Cell::from_parts(u64::from(x), u64::from(to)),
                    Nimber::new(u32::from(v)),
                ),
            }
        }
        Ok(())
    }

    /// The legal moves from `cell` to a cell of value `target`.
    ///
    /// # Errors
    ///
    /// As [`ValueTable::for_each_move`].
    pub fn moves_to(&self, cell: Cell, target: Nimber) -> Result<Vec<Cell>, PawnError> {
        let mut moves = Vec::new();
        self.for_each_move(cell, |to, value| {
            if value == target {
                moves.push(to);
            }
        })?;
        Ok(moves)
    }

    fn check(&self, cell: Cell) -> Result<(), PawnError> {
        if !self.contains(cell) {
            return Err(PawnError::OutsideRegion {
                cell,
                width: self.width,
                height: self.height,
            });
        }
        if self.raw(cell.x(), cell.y()) == BLOCKED {
            return Err(PawnError::OnBlocked(cell));
        }
        Ok(())
    }
}

/// Several pawns that ignore each other (on one board or on several boards
/// with the same impassable cells): a move moves one pawn, so by the
/// Sprague-Grundy theorem the total value is the XOR of the pawns' values.
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, PawnSum, ValueTable};
/// let cell = |x, y| Cell::new(x, y).unwrap();
/// let pawns = [cell(3, 0), cell(1, 0)];
/// let table = ValueTable::covering(&Blocked::empty(), &pawns).unwrap();
/// let sum = PawnSum::new(&table, &pawns).unwrap();
/// assert_eq!(sum.total.value(), 3 ^ 1);
/// // Move pawn 0 from (3, 0) to (1, 0): two equal heaps.
/// assert_eq!(sum.winning_moves, vec![(0, cell(1, 0))]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnSum {
    /// Each pawn's value.
    pub values: Vec<Nimber>,
    /// Their XOR.
    pub total: Nimber,
    /// Every winning move as (pawn index, cell it moves to), pawn by pawn,
    /// each pawn's moves in [`ValueTable::for_each_move`] order.
    pub winning_moves: Vec<(usize, Cell)>,
}

impl PawnSum {
    /// Analyses the pawns `pawns` with values from `table`.
    ///
    /// # Errors
    ///
    /// [`PawnError::OutsideRegion`] or [`PawnError::OnBlocked`] for a pawn.
    pub fn new(table: &ValueTable, pawns: &[Cell]) -> Result<PawnSum, PawnError> {
        let mut values = Vec::with_capacity(pawns.len());
        for &pawn in pawns {
            table.check(pawn)?;
            values.push(table.value(pawn).expect("checked"));
        }
        let total: Nimber = values.iter().copied().sum();
        let mut winning_moves = Vec::new();
        if !total.is_zero() {
            for (index, (&pawn, &value)) in pawns.iter().zip(&values).enumerate() {
                for to in table.moves_to(pawn, value ^ total)? {
                    winning_moves.push((index, to));
                }
            }
        }
        Ok(PawnSum {
            values,
            total,
            winning_moves,
        })
    }
}

/// The values of cells whose lower-left quadrant is open: a pawn on `(x,
/// y)` with no impassable cell at `(x', y')` for any `x' <= x` and `y' <=
/// y` reaches only cells of that quadrant, all free, so its game is two Nim
/// heaps of `x` and `y` and its value `x xor y`, at any size (the table of
/// [`ValueTable`] stops at [`MAX_REGION_SIDE`]).
///
/// Built in O(N) from the impassable cells (the least `x` of those on or
/// below each row, as the rows come sorted); each question is one binary
/// search, O(log N).
///
/// # Examples
///
/// ```
/// use grundy::pawn::{Blocked, Cell, OpenQuadrants};
/// use grundy::Nimber;
/// let cell = |x, y| Cell::new(x, y).unwrap();
/// let open = OpenQuadrants::new(&Blocked::new(&[cell(5, 5)]).unwrap());
/// assert_eq!(open.value(cell(1_000_000_000, 4)), Some(Nimber::new(1_000_000_000 ^ 4)));
/// assert_eq!(open.value(cell(5, 1_000_000_000)), None); // (5, 5) lies below-left
/// // From (7, 3) to value 0: along the row to (3, 3); down, 7 is past 3.
/// assert_eq!(open.moves_to(cell(7, 3), Nimber::ZERO), vec![cell(3, 3)]);
/// ```
#[derive(Clone, Debug)]
pub struct OpenQuadrants {
    /// The rows holding impassable cells, increasing.
    rows: Vec<u32>,
    /// Per entry of `rows`: the least `x` of the impassable cells on that
    /// row or any row below it.
    least_x: Vec<u32>,
}

impl OpenQuadrants {
    /// The open quadrants of `blocked`.
    #[must_use]
    pub fn new(blocked: &Blocked) -> OpenQuadrants {
        let mut rows = Vec::new();
        let mut least_x: Vec<u32> = Vec::new();
        for &key in blocked.row_keys() {
            let (row, x) = ((key >> 32) as u32, key as u32);
            if rows.last() == Some(&row) {
                let last = least_x.last_mut().expect("one per row");
                *last = (*last).min(x);
            } else {
                let below = least_x.last().copied().unwrap_or(u32::MAX);
                rows.push(row);
                least_x.push(below.min(x));
            }
        }
        OpenQuadrants { rows, least_x }
    }

    /// True when no impassable cell lies at or below-left of `cell`.
    #[must_use]
    pub fn is_open(&self, cell: Cell) -> bool {
        let on_or_below = self.rows.partition_point(|&row| row <= cell.y());
        on_or_below == 0 || self.least_x[on_or_below - 1] > cell.x()
    }

    /// `x xor y` when `cell`'s quadrant is open, else `None`.
    #[must_use]
    pub fn value(&self, cell: Cell) -> Option<Nimber> {
        self.is_open(cell).then(|| Nimber::new(cell.x() ^ cell.y()))
    }

    /// The moves from `cell`, whose quadrant must be open, to a cell of
    /// value `target`, in [`ValueTable::for_each_move`]'s order: along the
    /// row to `x' = target xor y` when that is below `x`, then down the
    /// column to `y' = target xor x` when that is below `y` (the only cells
    /// of each line with that value).
    #[must_use]
    pub fn moves_to(&self, cell: Cell, target: Nimber) -> Vec<Cell> {
        debug_assert!(self.is_open(cell));
        let (x, y, t) = (cell.x(), cell.y(), target.value());
        let mut moves = Vec::with_capacity(2);
        if t ^ y < x {
            moves.push(Cell::from_parts(u64::from(t ^ y), u64::from(y)));
        }
        if t ^ x < y {
            moves.push(Cell::from_parts(u64::from(x), u64::from(t ^ x)));
        }
        moves
    }
}
