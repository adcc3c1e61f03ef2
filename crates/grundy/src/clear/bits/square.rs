//! Word routines of the 8 x 8 frame: a set of cells in one `u64`, cell
//! `(row, col)` at bit `8 * row + col`, so a row is a byte.
//!
//! **Rule.** The frame holds every shape with sides up to 8 in all eight
//! orientations. Mirrors are byte and bit reversals, the transpose is the
//! classic three delta swaps, anchoring a set at the top-left corner is a
//! shift by whole rows and then by the least column (one column fold), and
//! the flood fill grows by four constant shifts a step.
//!
//! **Cost.** A few word operations each: the canonical form about forty
//! (eight images, each a handful of shifts, and their minimum), the
//! rectangle loop O(rectangles + rows).
//!
//! **Why it is correct.** Every shift is by a constant inside the frame and
//! masked at the column edges, so no cell wraps into a neighbouring row;
//! the frames' tests (`frame.rs`) and the solver's tests (`tests.rs`) check
//! them against cell-by-cell definitions.

use super::Rect;
use crate::clear::Bitboard;

/// Column 0 of the 8 x 8 frame.
const FIRST_COL_8X8: u64 = 0x0101_0101_0101_0101;

/// Column 7 of the 8 x 8 frame.
const LAST_COL_8X8: u64 = FIRST_COL_8X8 << 7;

/// The 4-neighbours of `cells` and `cells` itself, in the 8 x 8 frame.
pub(crate) const fn grow_8x8(cells: u64) -> u64 {
    cells
        | ((cells << 1) & !FIRST_COL_8X8)
        | ((cells >> 1) & !LAST_COL_8X8)
        | (cells << 8)
        | (cells >> 8)
}

/// The 4-connected component of `within` that holds `seed`, in the 8 x 8
/// frame: grown one step at a time until it stops changing.
pub(crate) fn component_8x8(seed: u64, within: u64) -> u64 {
    let mut component = seed;
    loop {
        let grown = grow_8x8(component) & within;
        if grown == component {
            return component;
        }
        component = grown;
    }
}

/// A non-empty set of the 8 x 8 frame anchored at the corner, with its rows
/// and columns, by one column fold.
#[inline]
pub(crate) const fn anchor_and_extent_8x8(cells: u64) -> (u64, usize, usize) {
    let columns = columns_8x8(cells);
    let left = columns.trailing_zeros();
    let anchored = (cells >> (cells.trailing_zeros() & !7)) >> left;
    let rows = (64 - anchored.leading_zeros() as usize).div_ceil(8);
    let cols = 64 - columns.leading_zeros() as usize - left as usize;
    (anchored, rows, cols)
}

/// [`Board::for_each_rect`] in the 8 x 8 frame, in the same order: the
/// rows are bytes and every shift a constant, where the general loop
/// multiplies by the board's width at each step (the solver's components
/// all live in this frame, so this is its move generator).
pub(crate) fn rects_8x8<F: FnMut(Rect, Bitboard)>(cells: u64, mut visit: F) {
    let rows = cells.to_le_bytes();
    for top in 0..8 {
        let top_bits = rows[top];
        for left in Bitboard(u64::from(top_bits)).cells() {
            let mut run = 0u8;
            for right in left as usize..8 {
                if top_bits >> right & 1 == 0 {
                    break;
                }
                run |= 1 << right;
                let mut mask = 0u64;
                for (bottom, &row) in rows.iter().enumerate().skip(top) {
                    if row & run != run {
                        break;
                    }
                    mask |= u64::from(run) << (8 * bottom);
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

/// A non-empty set of the 8 x 8 frame shifted to touch row 0 and column 0.
/// Shifting right by whole rows and then by the least column cannot wrap a
/// cell into the row above: every cell's column is at least the least one.
pub(crate) const fn anchor_8x8(square: u64) -> u64 {
    let square = square >> (square.trailing_zeros() & !7);
    square >> columns_8x8(square).trailing_zeros()
}

/// The union of the rows of an 8 x 8 frame, as 8 column bits.
pub(crate) const fn columns_8x8(square: u64) -> u64 {
    let mut fold = square | (square >> 32);
    fold |= fold >> 16;
    fold |= fold >> 8;
    fold & 0xFF
}

/// Rows and columns of the bounding box of a non-empty set anchored at the
/// top-left of the 8 x 8 frame.
pub(crate) const fn extent_8x8(square: u64) -> (usize, usize) {
    let rows = (64 - square.leading_zeros() as usize).div_ceil(8);
    let cols = 64 - columns_8x8(square).leading_zeros() as usize;
    (rows, cols)
}

/// The canonical image of a non-empty set of the 8 x 8 frame, cut to the
/// corner first (so boards with empty margins get their shape's key).
#[inline]
pub(crate) fn key_8x8(square: u64) -> u64 {
    let (square, rows, cols) = anchor_and_extent_8x8(square);
    canonical_8x8(square, rows, cols)
}

/// The 4 x 4 table index (bit `4 * row + col`) of a set of the 8 x 8 frame
/// inside its top-left 4 x 4 corner.
#[inline]
pub(crate) const fn corner_4x4(square: u64) -> u64 {
    (square & 0xF) | ((square >> 4) & 0xF0) | ((square >> 8) & 0xF00) | ((square >> 12) & 0xF000)
}

/// The 4 x 5 table index (bit `5 * row + col`) of a set of the 8 x 8 frame
/// inside its top-left 4 x 5 corner.
#[inline]
pub(crate) const fn corner_4x5(square: u64) -> u64 {
    (square & 0x1F)
        | ((square >> 3) & 0x3E0)
        | ((square >> 6) & 0x7C00)
        | ((square >> 9) & 0xF_8000)
}

/// Rows of an 8 x 8 frame in reverse order (a mirror top to bottom).
pub(crate) const fn flip_rows_8x8(square: u64) -> u64 {
    square.swap_bytes()
}

/// Bits of each row of an 8 x 8 frame in reverse order (a mirror left to
/// right).
pub(crate) const fn flip_cols_8x8(square: u64) -> u64 {
    square.reverse_bits().swap_bytes()
}

/// The transpose of an 8 x 8 frame, `(row, col) -> (col, row)`, by three
/// delta swaps (the classic flip about the a1-h8 diagonal).
pub(crate) const fn transpose_8x8(mut square: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (square ^ (square << 28));
    square ^= t ^ (t >> 28);
    t = K2 & (square ^ (square << 14));
    square ^= t ^ (t >> 14);
    t = K1 & (square ^ (square << 7));
    square ^= t ^ (t >> 7);
    square
}

/// The least of the four mirror images of a shape anchored at the top-left
/// of the 8 x 8 frame, each anchored again: itself, mirrored left to right,
/// top to bottom, and both. `up` is 8 times the rows below the shape in
/// the frame, `left` the columns right of it: the shifts that anchor an
/// image mirrored top to bottom or left to right.
#[inline(always)]
pub(crate) fn least_of_four_8x8(shape: u64, up: u32, left: u32) -> u64 {
    let mirrored = flip_cols_8x8(shape) >> left;
    shape
        .min(mirrored)
        .min(flip_rows_8x8(shape) >> up)
        .min(flip_rows_8x8(mirrored) >> up)
}

/// The least of the 8 images of a `rows x cols` shape anchored at the
/// top-left of an 8 x 8 frame, each image anchored again. The anchored bits
/// determine the bounding box, so the `u64` alone names the shape. About
/// forty word operations, against a cell-by-cell transform per symmetry.
///
/// Only the orientations that can be least are computed: an anchored image
/// with more rows than columns has its highest cell in a higher row than
/// any image with fewer rows, so the least image of a landscape shape
/// (`rows < cols`) keeps its sides and that of a portrait one swaps them;
/// only a square bounding box needs all eight. The four images of one
/// orientation cost about half of the eight.
#[inline]
pub(crate) fn canonical_8x8(square: u64, rows: usize, cols: usize) -> u64 {
    let (up, left) = (8 * (8 - rows as u32), 8 - cols as u32);
    let images = least_of_four_8x8;
    if rows < cols {
        return images(square, up, left);
    }
    // The transpose of a top-left anchored shape is top-left anchored, with
    // the sides swapped.
    let transposed = images(transpose_8x8(square), 8 * left, up / 8);
    if rows > cols {
        return transposed;
    }
    images(square, up, left).min(transposed)
}
