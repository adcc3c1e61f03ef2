//! Eight options of one shape at once in the 8 x 8 frame: the first
//! component each rectangle leaves, anchored, with its sides and its
//! canonical form, and which small table values what is left, computed
//! lane by lane over arrays of eight words.
//!
//! **Rule.** The same routines as [`super::square`]: the fill that stops
//! once it holds every cell next to the rectangle, the one-fold anchoring,
//! the least of the eight anchored images.
//!
//! **Algorithm.** Each routine is a loop over the eight lanes with no
//! branch that depends on a lane, so the compiler turns it into vector
//! instructions: the fill runs as many steps as its longest lane (a lane
//! that has stopped keeps its answer), and the canonical form computes both
//! orientations in every lane and keeps the one the sides choose.
//!
//! **Cost.** The fill runs as many steps as the longest of its eight lanes;
//! the rest is a fixed run of vector instructions a batch, with no branch
//! on a fill's length or a shape's sides (such branches, different from one
//! option to the next, were most of the one-option-at-a-time listing's
//! mispredictions: docs/design.md, "Where the time goes"). Measured in
//! docs/benchmarks.md, "Eight options at once".
//!
//! **Why it is correct.** Each lane computes what the scalar routine
//! computes, step for step; the tests compare them lane by lane on random
//! sets.

use super::square::{
    anchor_and_extent_8x8, corner_4x5, grow_8x8, least_of_four_8x8, transpose_8x8,
};

/// Options worked at once.
pub(crate) const LANES: usize = 8;

/// One word a lane.
pub(crate) type Lanes = [u64; LANES];

/// The component of each lane's `within` that holds its `seed`, or all of
/// `within` once the component holds every cell of `goal` (as
/// [`crate::clear::frame::Frame::component_touching`] does in one lane).
#[inline(always)]
pub(crate) fn fill_touching(seed: Lanes, within: Lanes, goal: Lanes) -> Lanes {
    let mut component = seed;
    loop {
        let mut changed = 0;
        for lane in 0..LANES {
            // All ones once the goal is reached, so the lane takes all of
            // `within`; a mask, not a branch, keeps the loop in vectors.
            let reached = 0u64.wrapping_sub(u64::from(component[lane] & goal[lane] == goal[lane]));
            let grown = (grow_8x8(component[lane]) | reached) & within[lane];
            changed |= grown ^ component[lane];
            component[lane] = grown;
        }
        if changed == 0 {
            return component;
        }
    }
}

/// Each lane's non-empty set anchored at the corner, with its rows and
/// columns (as [`super::square::anchor_and_extent_8x8`]).
#[inline(always)]
pub(crate) fn anchor_and_extent(cells: Lanes) -> (Lanes, Lanes, Lanes) {
    let (mut anchored, mut rows, mut cols) = ([0; LANES], [0; LANES], [0; LANES]);
    for lane in 0..LANES {
        let (shape, shape_rows, shape_cols) = anchor_and_extent_8x8(cells[lane]);
        anchored[lane] = shape;
        rows[lane] = shape_rows as u64;
        cols[lane] = shape_cols as u64;
    }
    (anchored, rows, cols)
}

/// Each lane's canonical form (as [`super::square::canonical_8x8`]): the
/// four images of both orientations, the orientation chosen by the sides.
#[inline(always)]
pub(crate) fn canonical(anchored: Lanes, rows: Lanes, cols: Lanes) -> Lanes {
    let mut out = [0; LANES];
    for lane in 0..LANES {
        let (shape, rows, cols) = (anchored[lane], rows[lane], cols[lane]);
        let (up, left) = (8 * (8 - rows as u32), 8 - cols as u32);
        let straight = least_of_four_8x8(shape, up, left);
        let transposed = least_of_four_8x8(transpose_8x8(shape), 8 * left, up / 8);
        let straight = if rows > cols { u64::MAX } else { straight };
        let transposed = if rows < cols { u64::MAX } else { transposed };
        out[lane] = straight.min(transposed);
    }
    out
}

/// [`rest_tables`]: no small table holds the set.
pub(crate) const NO_TABLE: u64 = 0;
/// [`rest_tables`]: the 4 x 5 table holds the set (either way round).
pub(crate) const TABLE_4X5: u64 = 1;
/// [`rest_tables`]: the 2 x 8 table holds the set (either way round).
pub(crate) const TABLE_2X8: u64 = 2;

/// Which small table holds each lane's non-empty set (connected or not),
/// and its index there: the 4 x 5 table when the set fits 4 x 5 either way
/// round (a set that fits 4 x 4 too: the tables value every subset of
/// their box), else the 2 x 8 table when it has at most two rows or two
/// columns, as `Clear::take_small_rest` chooses.
#[inline(always)]
pub(crate) fn rest_tables(cells: Lanes) -> (Lanes, Lanes) {
    let (anchored, rows, cols) = anchor_and_extent(cells);
    let (mut table, mut index) = ([0; LANES], [0; LANES]);
    for lane in 0..LANES {
        let (shape, rows, cols) = (anchored[lane], rows[lane], cols[lane]);
        let transposed = transpose_8x8(shape);
        let fits_4x5 = rows.max(cols) <= 5 && rows.min(cols) <= 4;
        let fits_2x8 = rows.min(cols) <= 2;
        let index_4x5 = corner_4x5(if rows <= 4 { shape } else { transposed });
        let index_2x8 = (if rows <= 2 { shape } else { transposed }) & 0xFFFF;
        (table[lane], index[lane]) = if fits_4x5 {
            (TABLE_4X5, index_4x5)
        } else if fits_2x8 {
            (TABLE_2X8, index_2x8)
        } else {
            (NO_TABLE, 0)
        };
    }
    (table, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clear::bits::square::canonical_8x8;
    use crate::clear::table::SmallTables;

    /// Random sets of the frame: a box of random sides at a random place,
    /// three in four of its cells on, so that components are large and
    /// every pair of sides occurs.
    fn sets(seed: u64) -> impl Iterator<Item = u64> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state ^ (state >> 29)
        };
        std::iter::repeat_with(move || {
            let shape = next();
            let (rows, cols) = (shape % 8 + 1, (shape >> 3) % 8 + 1);
            let (top, left) = ((shape >> 6) % (9 - rows), (shape >> 9) % (9 - cols));
            let row = ((1u64 << cols) - 1) << left;
            let boxed = (0..rows).fold(0, |acc, r| acc | row << (8 * (top + r)));
            boxed & (next() | next())
        })
    }

    /// The scalar fill that stops at its goal, the definition the lanes
    /// follow.
    fn fill_touching_one(seed: u64, within: u64, goal: u64) -> u64 {
        let mut component = seed;
        loop {
            if component & goal == goal {
                return within;
            }
            let grown = grow_8x8(component) & within;
            if grown == component {
                return component;
            }
            component = grown;
        }
    }

    #[test]
    fn lanes_agree_with_the_scalar_routines() {
        let tables = SmallTables::shared();
        let mut random = sets(7);
        for _ in 0..20_000 {
            let cells: Lanes = std::array::from_fn(|_| random.next().unwrap());
            let holes: Lanes = std::array::from_fn(|_| random.next().unwrap());
            let within: Lanes =
                std::array::from_fn(|lane| cells[lane] & !(holes[lane] & 0x0018_3C3C_1800));
            let goal: Lanes =
                std::array::from_fn(|lane| grow_8x8(holes[lane] & 0x0018_3C3C_1800) & within[lane]);
            let seed: Lanes = std::array::from_fn(|lane| goal[lane] & goal[lane].wrapping_neg());
            let filled = fill_touching(seed, within, goal);
            for lane in 0..LANES {
                assert_eq!(
                    filled[lane],
                    fill_touching_one(seed[lane], within[lane], goal[lane])
                );
            }
            let nonempty: Lanes = std::array::from_fn(|lane| cells[lane].max(1));
            let (anchored, rows, cols) = anchor_and_extent(nonempty);
            let forms = canonical(anchored, rows, cols);
            let (table, index) = rest_tables(nonempty);
            for lane in 0..LANES {
                let (a, r, c) = anchor_and_extent_8x8(nonempty[lane]);
                assert_eq!(
                    (anchored[lane], rows[lane], cols[lane]),
                    (a, r as u64, c as u64)
                );
                assert_eq!(forms[lane], canonical_8x8(a, r, c));
                let read = match table[lane] {
                    TABLE_4X5 => Some(tables.value_4x5(index[lane]).value()),
                    TABLE_2X8 => Some(tables.value_2x8(index[lane]).value()),
                    _ => None,
                };
                assert_eq!(read, tables.value_8x8(a, r, c), "{:#x}", nonempty[lane]);
            }
        }
    }
}
