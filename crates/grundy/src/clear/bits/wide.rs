//! Word routines of the wide frames: `64 / W` rows of `W` cells in one
//! `u64`, cell `(row, col)` at bit `W * row + col`, `W` 16 (4 rows) or 32
//! (2 rows), and rectangles at any stride.
//!
//! **Rule.** A row is a `W`-bit lane. The union of the rows (the columns a
//! set uses) is a fold of `log2(64 / W)` shifts; mirroring the rows is a
//! swap of lanes in `log2(64 / W)` steps and mirroring the columns a bit
//! reversal followed by that swap; anchoring shifts by whole rows, then by
//! the least column, which cannot wrap a cell into the row above.
//!
//! **Cost.** A few shifts each, at a constant stride so the compiler folds
//! them; a transpose (only for shapes of both sides at most `64 / W`, at
//! most 16 cells) is a loop over the cells. The rectangle loop is
//! O(rectangles + rows), found by growing runs of ones along each row and
//! extending them downwards.
//!
//! **Why it is correct.** Columns stay below `W`, so no shift by a whole
//! lane moves a cell into another column; the frames' tests
//! (`frame.rs`) check every routine against a cell-by-cell definition.

use super::Rect;
use crate::clear::Bitboard;

/// A frame of `64 / W` rows of `W` cells, `W` 16 or 32.
pub(crate) struct Wide<const W: u32>;

/// Bit 0 of every `stride`-bit lane of a word.
pub(crate) const fn lane_starts(stride: u32) -> u64 {
    let mut bits = 0u64;
    let mut at = 0;
    while at < 64 {
        bits |= 1 << at;
        at += stride;
    }
    bits
}

/// The cells of `anchored` (stride `stride`) with rows and columns swapped:
/// a loop over the cells, as the wide frames transpose only shapes of at
/// most 16 cells (both sides at most `H`).
pub(crate) fn transpose_cells(anchored: u64, stride: u32) -> u64 {
    let mut rest = anchored;
    let mut image = 0u64;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        let (row, col) = (bit / stride, bit % stride);
        image |= 1 << (col * stride + row);
    }
    image
}

impl<const W: u32> Wide<W> {
    pub(crate) const ASSERT_STRIDE: () = assert!(W == 16 || W == 32);
    pub(crate) const ROW: u64 = (1 << W) - 1;
    pub(crate) const LAST_COL: u64 = lane_starts(W) << (W - 1);

    /// The union of the rows, as `W` column bits.
    #[inline]
    pub(crate) const fn columns(cells: u64) -> u64 {
        let mut fold = cells;
        let mut k = 32;
        while k >= W {
            fold |= fold >> k;
            k /= 2;
        }
        fold & Self::ROW
    }

    /// A non-empty set anchored at the corner, with its rows and columns,
    /// by one column fold (shifting by whole rows keeps the columns).
    #[inline]
    pub(crate) const fn anchor_and_extent(cells: u64) -> (u64, usize, usize) {
        let columns = Self::columns(cells);
        let left = columns.trailing_zeros();
        let anchored = (cells >> (cells.trailing_zeros() / W * W)) >> left;
        let rows = (64 - anchored.leading_zeros()).div_ceil(W) as usize;
        let cols = (64 - columns.leading_zeros() - left) as usize;
        (anchored, rows, cols)
    }

    /// Rows in reverse order (a mirror top to bottom, within the frame).
    #[inline]
    pub(crate) const fn flip_rows(cells: u64) -> u64 {
        let mut x = cells;
        let mut k = 32;
        while k >= W {
            let low = u64::MAX / ((1u64 << k) + 1);
            x = ((x & low) << k) | ((x >> k) & low);
            k /= 2;
        }
        x
    }

    /// Cells of each row in reverse order (a mirror left to right, within
    /// the frame).
    #[inline]
    pub(crate) const fn flip_cols(cells: u64) -> u64 {
        Self::flip_rows(cells.reverse_bits())
    }

    /// The least of an anchored shape's four images that keep its sides.
    #[inline]
    pub(crate) const fn images(shape: u64, up: u32, left: u32) -> u64 {
        let mirrored = Self::flip_cols(shape) >> left;
        let a = Self::flip_rows(shape) >> up;
        let b = Self::flip_rows(mirrored) >> up;
        let mut least = shape;
        if mirrored < least {
            least = mirrored;
        }
        if a < least {
            least = a;
        }
        if b < least {
            least = b;
        }
        least
    }
}

/// `rows` rows of `width` cells moved from stride `from` to stride `to`.
#[inline]
pub(crate) fn restride(cells: u64, from: usize, to: usize, rows: usize) -> u64 {
    let row = (1u64 << to.min(from).min(63)) - 1;
    (0..rows).fold(0u64, |out, r| {
        out | (((cells >> (r * from)) & row) << (r * to))
    })
}

/// [`Board::for_each_rect`] in a wide frame, in the same order: the strided
/// loop with the stride a constant.
pub(crate) fn rects_wide<const W: u32, F: FnMut(Rect, Bitboard)>(cells: u64, visit: F) {
    rects_strided(cells, 64 / W, W, visit);
}

/// Every all-ones rectangle of `cells`, `rows` rows of `cols` bits at stride
/// `cols`, ordered by top row, then left column, then right column, then
/// bottom row. Inlined, so a constant stride (the wide frames) folds into
/// constant shifts.
#[inline(always)]
pub(crate) fn rects_strided<F: FnMut(Rect, Bitboard)>(
    cells: u64,
    rows: u32,
    cols: u32,
    mut visit: F,
) {
    let row_mask = u64::MAX >> (64 - cols);
    let row = |r: u32| (cells >> (cols * r)) & row_mask;
    for top in 0..rows {
        let top_bits = row(top);
        let mut lefts = top_bits;
        while lefts != 0 {
            let left = lefts.trailing_zeros();
            lefts &= lefts - 1;
            let mut run = 0u64;
            for right in left..cols {
                if top_bits >> right & 1 == 0 {
                    break;
                }
                run |= 1 << right;
                let mut mask = 0u64;
                for bottom in top..rows {
                    if row(bottom) & run != run {
                        break;
                    }
                    mask |= run << (cols * bottom);
                    visit(
                        Rect {
                            top: top as u8,
                            left: left as u8,
                            bottom: bottom as u8,
                            right: right as u8,
                        },
                        Bitboard(mask),
                    );
                }
            }
        }
    }
}
