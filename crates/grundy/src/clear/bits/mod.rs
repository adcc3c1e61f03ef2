//! Bit routines of the frames the shapes are worked in, and the rectangle a
//! move clears: pure word operations on `u64` sets of cells, with no board
//! type, so [`super::board`] and [`super::frame`] both build on them without
//! importing each other.
//!
//! - [`square`]: the 8 x 8 frame (rows are bytes): flood fill, anchoring,
//!   extent, symmetries, canonical form, rectangles, small-table indices.
//! - [`lanes`]: eight options of one 8 x 8 shape at once (first fill,
//!   anchoring, canonical form, the small table of the rest), as loops the
//!   compiler vectorises.
//! - [`wide`]: the wide frames (4 rows of 16, 2 rows of 32): the same at a
//!   wider stride, and the rectangle loop at any stride.
//!
//! **Cost and correctness** are given per module; the frames' and the
//! solver's tests check each routine against a cell-by-cell definition.

use std::fmt;

pub(crate) mod lanes;
pub(crate) mod square;
pub(crate) mod wide;

/// An axis-parallel rectangle of cells, 0-based, corners inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rect {
    /// First row.
    pub top: u8,
    /// First column.
    pub left: u8,
    /// Last row (inclusive).
    pub bottom: u8,
    /// Last column (inclusive).
    pub right: u8,
}

impl Rect {
    /// The number of cells.
    #[must_use]
    pub const fn area(&self) -> usize {
        (self.bottom - self.top + 1) as usize * (self.right - self.left + 1) as usize
    }
}

impl fmt::Display for Rect {
    /// 1-based corners, `(top,left)-(bottom,right)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({},{})-({},{})",
            self.top + 1,
            self.left + 1,
            self.bottom + 1,
            self.right + 1
        )
    }
}
