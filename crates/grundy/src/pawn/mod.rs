//! The pawn game: a pawn on cell `(x, y)` of a grid with impassable cells
//! moves to `(x - d, y)` or `(x, y - d)` for some `d >= 1`, staying on the
//! grid (`x, y >= 0`), and may neither land on nor pass over an impassable
//! cell. Who cannot move loses. Coordinates reach [`MAX_COORD`] (10^9), so no
//! table of cells is possible; the impassable cells ([`Blocked`]) are few.
//!
//! **Outcomes ([`Outcomes`], [`LosingLines`]).** Cut each row and each column
//! into *segments* at its impassable cells. A cell is losing exactly when no
//! losing cell lies before it in its row segment nor in its column segment
//! (before = closer to the origin), so each segment holds at most one losing
//! cell: a second one could move to the first. Sweep the rows upwards keeping
//! the set of *free* columns, those whose current column segment holds no
//! losing cell yet. A row segment `[s, e)` then has its losing cell at the
//! first free column `>= s` if that is `< e`, and that column stops being
//! free; an impassable cell frees its column again. In a row with no
//! impassable cell the losing cell is the first free column, so a band of such
//! rows takes free columns in increasing order: its losing cells form
//! diagonal runs, one per stretch of consecutive free columns. Only the
//! columns `0`, `b` and `b + 1` for an impassable column `b` can start a
//! stretch, so the free set is kept as one "first free column" counter per
//! such *slot* plus a three-level bitset of non-empty slots: every step of the
//! sweep is O(1) word operations, and the sweep makes O(N) steps. The result,
//! per row, is either a diagonal run or the list of losing cells of a row with
//! impassable cells: is `(x, y)` losing is one binary search over those
//! pieces, O(log N), online. The same sweep on the transposed grid gives the
//! columns, so the winning moves (the losing cells before the pawn in its row
//! segment and in its column segment, at most one each) are O(log N) too.
//! Build: O(N log N) for two sorts, then linear.
//!
//! **Values ([`ValueTable`]).** Sums of pawns need Grundy values. The value
//! of a cell is the mex of the values before it in its row segment and its
//! column segment. [`ValueTable`] fills a bounded region (up to
//! [`MAX_REGION_SIDE`] on a side) row by row, keeping one bitset of the
//! values seen in the current row segment and one per column for the current
//! column segment, each with a second-level bitset of its all-ones words.
//! The mex of the union lies in the first word that is all ones in neither
//! set (or, rarely, a later one), found from the two second-level bitsets,
//! so a cell costs a few word operations instead of the `x + y` options
//! (the words are stored word-major, so neighbouring columns share cache
//! lines). With no impassable cell the values are
//! `x xor y` (the sum of two Nim heaps), which the tests check.
//! [`PawnSum`] adds several pawns: the total is the XOR of their values, and
//! the winning moves are searched among each pawn's legal moves.

mod blocked;
mod lines;
mod outcomes;
mod values;

pub use blocked::{Blocked, Cell};
pub use lines::{CellKind, LineCursor, LosingLines};
pub use outcomes::{Outcomes, WinningMoves};
pub use values::{OpenQuadrants, PawnSum, ValueTable, MAX_REGION_SIDE};

/// The largest coordinate of a cell (the original problem's bound, 10^9).
pub const MAX_COORD: u32 = 1_000_000_000;

/// One of a cell's two coordinates, as errors name it: `x` (the column)
/// or `y` (the row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// The first coordinate, `x`.
    X,
    /// The second coordinate, `y`.
    Y,
}

impl std::fmt::Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Axis::X => "x",
            Axis::Y => "y",
        })
    }
}

/// Why a pawn position, a set of impassable cells or a region is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PawnError {
    /// A coordinate above [`MAX_COORD`].
    #[error("{axis} coordinate {value} is out of range 0 to {MAX_COORD}")]
    CoordinateOutOfRange {
        /// Which of the cell's two coordinates.
        axis: Axis,
        /// The coordinate given.
        value: u64,
    },
    /// The same impassable cell listed twice.
    #[error("impassable cell {cell} is listed twice (entries {first} and {second}, 0-based)")]
    DuplicateBlocked {
        /// The cell.
        cell: Cell,
        /// Index of its first listing.
        first: usize,
        /// Index of its second listing.
        second: usize,
    },
    /// A pawn placed on an impassable cell.
    #[error("the pawn at {0} stands on an impassable cell")]
    OnBlocked(Cell),
    /// A region of values larger than [`MAX_REGION_SIDE`] on a side, or empty.
    #[error(
        "a region of values of {width} x {height} is not supported: sides must be 1 to {MAX_REGION_SIDE}"
    )]
    RegionTooLarge {
        /// Columns asked for.
        width: u64,
        /// Rows asked for.
        height: u64,
    },
    /// Cells given out of row order where they must come by rows
    /// ([`LosingLines::classify_by_rows`]).
    #[error("cell {index} (0-based) is on a lower row than the cell before it")]
    NotByRows {
        /// The first cell out of order.
        index: usize,
    },
    /// A cell outside the region a [`ValueTable`] covers.
    #[error("cell {cell} lies outside the {width} x {height} region of computed values")]
    OutsideRegion {
        /// The cell.
        cell: Cell,
        /// Columns of the region.
        width: u32,
        /// Rows of the region.
        height: u32,
    },
}

#[cfg(test)]
mod tests;
