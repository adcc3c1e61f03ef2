//! Frames: fixed layouts of a shape in one `u64`, `H` rows of `W` cells,
//! cell `(row, col)` at bit `W * row + col`, in which the shape tables are
//! built.
//!
//! **Why several.** The 8 x 8 frame ([`Square`]) holds every shape of a box
//! with sides up to 8, in any orientation, and its symmetries are a few word
//! operations. A box with a longer side (4 x 9, 2 x 18) needs a wider frame:
//! [`Wide`] has `W = 16` (4 rows) or `W = 32` (2 rows). In a wide frame the
//! shapes lie "landscape": a shape is kept in the orientations whose rows fit
//! `H`, and a shape with both sides up to `H` in all eight.
//!
//! **One key for a shape in every frame.** Every frame orders its images the
//! same way: by the highest cell in row-major order (a cell of a higher row
//! is a higher bit whatever the stride, since columns stay below `W`). The
//! canonical image is the least anchored image among those the frame holds.
//! In the 8 x 8 frame that least image is landscape (an image with more rows
//! than columns has a higher top row), so it is also held by a wide frame
//! that holds the shape, and both frames choose the same image. Packed at a
//! box's stride ([`super::shapes::ShapeBox`]), a shape has one key in every
//! frame: a table built in a wide frame answers lookups made in the 8 x 8
//! frame (a test builds boxes in both and compares them byte for byte).
//!
//! **Cost.** Flood fill, anchoring and extent are a few shifts per step in
//! either frame. A wide frame's mirror images are lane reversals
//! (`log2(64 / W)` swaps); its transposes exist only for shapes of both sides
//! up to `H` and are done cell by cell (at most 16 cells).

use super::bits::square::anchor_and_extent_8x8;
use super::bits::square::{
    anchor_8x8, canonical_8x8, component_8x8, corner_4x4, extent_8x8, flip_cols_8x8, flip_rows_8x8,
    grow_8x8, rects_8x8, transpose_8x8,
};
pub(crate) use super::bits::wide::Wide;
use super::bits::wide::{lane_starts, rects_wide, restride, transpose_cells};
use super::table::SmallTables;

/// A layout of shapes in a `u64`.
pub(crate) trait Frame {
    /// Cells per row (the stride).
    const W: u32;
    /// Rows.
    const H: u32;
    /// Column 0.
    const FIRST_COL: u64;
    /// True when a square parent must also grow from its transpose to reach
    /// every child (a wide frame cannot hold a child's portrait images).
    const GROW_TRANSPOSED: bool;

    /// `cells` and their 4-neighbours inside the frame.
    fn grow(cells: u64) -> u64;

    /// The 4-connected component of `within` that holds `seed`.
    #[inline]
    fn component(seed: u64, within: u64) -> u64 {
        let mut component = seed;
        loop {
            let grown = Self::grow(component) & within;
            if grown == component {
                return component;
            }
            component = grown;
        }
    }

    /// The 4-connected component of `within` that holds `seed`, when
    /// `within` is a union of components each holding a cell of `goal`: the
    /// fill stops, answering all of `within`, as soon as it holds every cell
    /// of `goal` (no other component is left to find). Near a move the goal
    /// is reached in a few steps, where the fill would go on to the far end
    /// of the shape and one more step to see it stop.
    #[inline]
    fn component_touching(seed: u64, within: u64, goal: u64) -> u64 {
        let mut component = seed;
        loop {
            if component & goal == goal {
                return within;
            }
            let grown = Self::grow(component) & within;
            if grown == component {
                return component;
            }
            component = grown;
        }
    }

    /// A non-empty set shifted to touch row 0 and column 0.
    fn anchor(cells: u64) -> u64;

    /// Rows and columns of the bounding box of an anchored non-empty set.
    fn extent(anchored: u64) -> (usize, usize);

    /// A non-empty set anchored, with its rows and columns ([`Frame::anchor`]
    /// then [`Frame::extent`], which the frames do in one column fold).
    #[inline]
    fn anchor_and_extent(cells: u64) -> (u64, usize, usize) {
        let anchored = Self::anchor(cells);
        let (rows, cols) = Self::extent(anchored);
        (anchored, rows, cols)
    }

    /// The value of an anchored `rows x cols` set (connected or not) when
    /// the small tables know it ([`SmallTables::value_8x8`]: it fits 4 x 4,
    /// 4 x 5 or 2 x 8 either way round), or when it is a straight line.
    fn small_value(tables: &SmallTables, anchored: u64, rows: usize, cols: usize) -> Option<u32>;

    /// The canonical image of an anchored `rows x cols` shape.
    fn canonical(anchored: u64, rows: usize, cols: usize) -> u64;

    /// The transpose of an anchored shape whose sides are both at most `H`.
    fn transpose(anchored: u64) -> u64;

    /// An anchored shape of `rows` rows mirrored top to bottom, anchored.
    fn mirror_rows(anchored: u64, rows: usize) -> u64;

    /// An anchored shape of `cols` columns mirrored left to right, anchored.
    fn mirror_cols(anchored: u64, cols: usize) -> u64;

    /// The distinct images of an anchored `rows x cols` shape under the 8
    /// symmetries that the frame holds, each anchored, with its sides; how
    /// many there are.
    fn images(anchored: u64, rows: usize, cols: usize) -> ([(u64, usize, usize); 8], usize) {
        let mut out = [(0u64, 0usize, 0usize); 8];
        let mut count = 0;
        let mut add = |image: (u64, usize, usize)| {
            if !out[..count].contains(&image) {
                out[count] = image;
                count += 1;
            }
        };
        let mut four = |shape: u64, rows: usize, cols: usize| {
            let mirrored = Self::mirror_cols(shape, cols);
            add((shape, rows, cols));
            add((mirrored, rows, cols));
            add((Self::mirror_rows(shape, rows), rows, cols));
            add((Self::mirror_rows(mirrored, rows), rows, cols));
        };
        four(anchored, rows, cols);
        if cols <= Self::H as usize {
            four(Self::transpose(anchored), cols, rows);
        }
        (out, count)
    }

    /// Calls `visit` with the mask of every all-ones rectangle of `cells`.
    fn for_each_rect<F: FnMut(u64)>(cells: u64, visit: F);

    /// The anchored shape as a 4 x 4 table index (bit `4 * row + col`) when
    /// it fits 4 x 4.
    fn corner_4x4(anchored: u64) -> Option<u16>;
}

/// The 8 x 8 frame, every symmetry inside it (see `bits/square.rs`).
pub(crate) struct Square;

impl Frame for Square {
    const W: u32 = 8;
    const H: u32 = 8;
    const FIRST_COL: u64 = 0x0101_0101_0101_0101;
    const GROW_TRANSPOSED: bool = false;

    #[inline]
    fn grow(cells: u64) -> u64 {
        grow_8x8(cells)
    }

    #[inline]
    fn component(seed: u64, within: u64) -> u64 {
        component_8x8(seed, within)
    }

    #[inline]
    fn anchor(cells: u64) -> u64 {
        anchor_8x8(cells)
    }

    #[inline]
    fn extent(anchored: u64) -> (usize, usize) {
        extent_8x8(anchored)
    }

    #[inline]
    fn anchor_and_extent(cells: u64) -> (u64, usize, usize) {
        anchor_and_extent_8x8(cells)
    }

    #[inline(always)]
    fn small_value(tables: &SmallTables, anchored: u64, rows: usize, cols: usize) -> Option<u32> {
        tables.value_8x8(anchored, rows, cols)
    }

    #[inline]
    fn canonical(anchored: u64, rows: usize, cols: usize) -> u64 {
        canonical_8x8(anchored, rows, cols)
    }

    fn transpose(anchored: u64) -> u64 {
        transpose_8x8(anchored)
    }

    fn mirror_rows(anchored: u64, rows: usize) -> u64 {
        flip_rows_8x8(anchored) >> (8 * (8 - rows))
    }

    fn mirror_cols(anchored: u64, cols: usize) -> u64 {
        flip_cols_8x8(anchored) >> (8 - cols)
    }

    #[inline]
    fn for_each_rect<F: FnMut(u64)>(cells: u64, mut visit: F) {
        rects_8x8(cells, |_, mask| visit(mask.0));
    }

    #[inline]
    fn corner_4x4(anchored: u64) -> Option<u16> {
        if anchored & !0x0F0F_0F0F != 0 {
            return None;
        }
        Some(corner_4x4(anchored) as u16)
    }
}

impl<const W: u32> Frame for Wide<W> {
    const W: u32 = {
        let () = Self::ASSERT_STRIDE;
        W
    };
    const H: u32 = 64 / W;
    const FIRST_COL: u64 = lane_starts(W);
    const GROW_TRANSPOSED: bool = true;

    #[inline]
    fn grow(cells: u64) -> u64 {
        cells
            | ((cells << 1) & !Self::FIRST_COL)
            | ((cells >> 1) & !Self::LAST_COL)
            | (cells << W)
            | (cells >> W)
    }

    /// A run fill ([`super::GrowMasks::fill`] at a constant stride): each
    /// round fills whole runs along the rows (towards higher columns by one
    /// addition, towards lower ones by an occluded fill of `log2 W` shifts),
    /// then steps up and down. Rounds number about the row changes of the
    /// shape, where one-step growth takes a round per cell of a long run.
    ///
    /// [`Frame::component_touching`] keeps the one-step growth: it stops as
    /// soon as it holds the cells round a move, which are near one another,
    /// and there a round of the run fill costs more than the steps it saves
    /// (measured on the full 2 x 16 board).
    #[inline]
    fn component(seed: u64, within: u64) -> u64 {
        let inner = within & !Self::LAST_COL;
        let mut filled = seed & within;
        loop {
            let before = filled;
            filled |= (inner ^ inner.wrapping_add(filled & inner)) & within;
            let mut open = inner;
            let mut shift = 1;
            while shift < W {
                filled |= open & (filled >> shift);
                open &= open >> shift;
                shift *= 2;
            }
            filled |= ((filled << W) | (filled >> W)) & within;
            if filled == before {
                return filled;
            }
        }
    }

    #[inline]
    fn anchor(cells: u64) -> u64 {
        let cells = cells >> (cells.trailing_zeros() / W * W);
        cells >> Self::columns(cells).trailing_zeros()
    }

    #[inline]
    fn extent(anchored: u64) -> (usize, usize) {
        let rows = (64 - anchored.leading_zeros()).div_ceil(W) as usize;
        let cols = 64 - Self::columns(anchored).leading_zeros() as usize;
        (rows, cols)
    }

    #[inline]
    fn anchor_and_extent(cells: u64) -> (u64, usize, usize) {
        Wide::<W>::anchor_and_extent(cells)
    }

    /// A set of at most 8 columns moves to the 8 x 8 frame for the tables;
    /// a wider one is known only as a line (one full row).
    #[inline(always)]
    fn small_value(tables: &SmallTables, anchored: u64, rows: usize, cols: usize) -> Option<u32> {
        if cols <= 8 {
            return tables.value_8x8(restride(anchored, W as usize, 8, rows), rows, cols);
        }
        (rows == 1 && anchored & (anchored + 1) == 0).then_some(cols as u32)
    }

    #[inline]
    fn canonical(anchored: u64, rows: usize, cols: usize) -> u64 {
        let h = Self::H;
        let (rows, cols) = (rows as u32, cols as u32);
        // As in the 8 x 8 frame, only the orientation(s) that can be least:
        // a landscape shape keeps its sides, a portrait one swaps them.
        if rows < cols {
            return Self::images(anchored, W * (h - rows), W - cols);
        }
        let transposed = Self::images(Self::transpose(anchored), W * (h - cols), W - rows);
        if rows > cols {
            return transposed;
        }
        Self::images(anchored, W * (h - rows), W - cols).min(transposed)
    }

    fn transpose(anchored: u64) -> u64 {
        transpose_cells(anchored, W)
    }

    fn mirror_rows(anchored: u64, rows: usize) -> u64 {
        Self::flip_rows(anchored) >> (W as usize * (Self::H as usize - rows))
    }

    fn mirror_cols(anchored: u64, cols: usize) -> u64 {
        Self::flip_cols(anchored) >> (W as usize - cols)
    }

    #[inline]
    fn for_each_rect<F: FnMut(u64)>(cells: u64, mut visit: F) {
        rects_wide::<W, _>(cells, |_, mask| visit(mask.0));
    }

    #[inline]
    fn corner_4x4(anchored: u64) -> Option<u16> {
        let rows = Self::H.min(4);
        let mut corner = 0u64;
        let mut r = 0;
        while r < rows {
            corner |= 0xF << (r * W);
            r += 1;
        }
        if anchored & !corner != 0 {
            return None;
        }
        let mut packed = 0u64;
        for r in 0..rows {
            packed |= ((anchored >> (r * W)) & 0xF) << (4 * r);
        }
        Some(packed as u16)
    }
}

/// What [`option_cells`] finds in an option: cells of the frame, not
/// anchored.
pub(crate) enum OptionCells {
    /// One component.
    Component(u64),
    /// What is left of the option once a component is found (one or more
    /// components); the visitor may take it whole (returning true), and
    /// then the option ends.
    Rest(u64),
    /// The option has no more components.
    End,
}

/// The components of every option of a connected set of a frame, by
/// [`OptionCells`] events in the order of [`Board::for_each_rect`]; false,
/// visiting nothing, when the set is empty or not connected.
///
/// **Why the border.** Every component of `cells` less a rectangle holds a
/// cell next to the rectangle: a path in `cells` from any cell to the
/// rectangle enters it from such a cell. So each fill starts at a remaining
/// border cell and stops as soon as it holds all the remaining border
/// cells: whatever is left then is that one component. An option that
/// stays connected costs the steps to go round the rectangle, not a fill
/// of the whole shape; a rectangle that touches the rest at one cell, none.
#[inline]
pub(crate) fn option_cells<Fr: Frame, F>(cells: u64, mut visit: F) -> bool
where
    F: FnMut(OptionCells) -> bool,
{
    if cells == 0 || Fr::component(cells & cells.wrapping_neg(), cells) != cells {
        return false;
    }
    Fr::for_each_rect(cells, |rect| {
        let mut rest = cells ^ rect;
        let mut open = Fr::grow(rect) & rest;
        while rest != 0 {
            debug_assert!(open != 0, "every component touches the rectangle");
            let component = Fr::component_touching(open & open.wrapping_neg(), rest, open);
            rest ^= component;
            open &= !component;
            visit(OptionCells::Component(component));
            if rest != 0 && visit(OptionCells::Rest(rest)) {
                break;
            }
        }
        visit(OptionCells::End);
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Anchored images of a set given as (row, col) cells, in frame `F`.
    fn image<F: Frame>(cells: &[(u32, u32)]) -> u64 {
        cells.iter().fold(0, |s, &(r, c)| s | 1 << (r * F::W + c))
    }

    /// The least image over the 8 symmetries applied cell by cell, keeping
    /// the images that fit the frame: the definition the fast forms follow.
    fn canonical_by_cells<F: Frame>(cells: &[(u32, u32)]) -> u64 {
        let rows = cells.iter().map(|c| c.0).max().unwrap() + 1;
        let cols = cells.iter().map(|c| c.1).max().unwrap() + 1;
        (0..8)
            .filter_map(|s| {
                let moved: Vec<(u32, u32)> = cells
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = if s & 1 == 1 {
                            (rows - 1 - r, c)
                        } else {
                            (r, c)
                        };
                        let (r, c) = if s & 2 == 2 {
                            (r, cols - 1 - c)
                        } else {
                            (r, c)
                        };
                        if s & 4 == 4 {
                            (c, r)
                        } else {
                            (r, c)
                        }
                    })
                    .collect();
                let fits = moved.iter().all(|&(r, c)| r < F::H && c < F::W);
                fits.then(|| image::<F>(&moved))
            })
            .min()
            .unwrap()
    }

    /// Random sets (connected or not) checked against the cell-by-cell
    /// definition, and packed keys checked equal across frames.
    fn check<F: Frame>(max_rows: u32, max_cols: u32) {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let rows = (state >> 60) as u32 % max_rows + 1;
            let cols = (state >> 50) as u32 % max_cols + 1;
            let bits = state.rotate_left(17) ^ state;
            let mut cells: Vec<(u32, u32)> = (0..rows * cols)
                .filter(|i| bits >> (i % 64) & 1 == 1)
                .map(|i| (i / cols, i % cols))
                .collect();
            if cells.is_empty() {
                cells.push((0, 0));
            }
            let anchored = F::anchor(image::<F>(&cells) << (F::W * (F::H - rows)));
            let (r, c) = F::extent(anchored);
            let shifted: Vec<(u32, u32)> = {
                let top = cells.iter().map(|c| c.0).min().unwrap();
                let left = cells.iter().map(|c| c.1).min().unwrap();
                cells.iter().map(|&(a, b)| (a - top, b - left)).collect()
            };
            assert_eq!(anchored, image::<F>(&shifted));
            let expected = canonical_by_cells::<F>(&shifted);
            assert_eq!(F::canonical(anchored, r, c), expected, "{shifted:?}");
            // The same shape in the 8 x 8 frame, when it fits: equal keys
            // once both are repacked at one stride.
            if r <= 8 && c <= 8 && r.min(c) <= F::H as usize {
                let square = image::<Square>(&shifted);
                let (sr, sc) = Square::extent(square);
                let a = repack(Square::canonical(square, sr, sc), 8);
                let b = repack(F::canonical(anchored, r, c), F::W);
                assert_eq!(a, b, "{shifted:?}");
            }
        }
    }

    /// Cells of a frame image as (row, col) pairs, sorted.
    fn repack(image: u64, stride: u32) -> Vec<(u32, u32)> {
        (0..64)
            .filter(|i| image >> i & 1 == 1)
            .map(|i| (i / stride, i % stride))
            .collect()
    }

    #[test]
    fn wide_frames_follow_the_definition() {
        check::<Wide<16>>(4, 16);
        check::<Wide<32>>(2, 32);
        check::<Square>(8, 8);
    }

    #[test]
    fn wide_rectangles_are_every_all_ones_rectangle() {
        let cells = image::<Wide<16>>(&[(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (3, 15)]);
        let mut found = Vec::new();
        Wide::<16>::for_each_rect(cells, |m| found.push(m));
        // Singles (6), two horizontal dominoes in row 1 and one in row 0,
        // two vertical dominoes, the 2 x 2 square, and the 1 x 3 run.
        assert_eq!(found.len(), 6 + 3 + 2 + 1 + 1);
        assert!(found.iter().all(|&m| m & cells == m));
    }

    /// `component_touching` is the component, or all of `within` when the
    /// component holds the goal; the wide frames' one-pass anchor and
    /// extent equal `anchor` then `extent`. Random sets, seeds and goals.
    fn check_fills<F: Frame>(anchor_and_extent: fn(u64) -> (u64, usize, usize)) {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            // Dense sets, so components are large and long.
            let within = next() | next();
            if within == 0 {
                continue;
            }
            let seed_at = next() % u64::from(within.count_ones());
            let seed = (0..seed_at).fold(within, |w, _| w & (w - 1));
            let seed = seed & seed.wrapping_neg();
            let goal = within & next() & next() & next();
            let component = F::component(seed, within);
            let expected = if component & goal == goal {
                within
            } else {
                component
            };
            assert_eq!(F::component_touching(seed, within, goal), expected);
            let (anchored, rows, cols) = anchor_and_extent(within);
            assert_eq!(anchored, F::anchor(within));
            assert_eq!((rows, cols), F::extent(anchored));
            let (again, _, _) = anchor_and_extent(anchored);
            assert_eq!(again, anchored);
        }
    }

    #[test]
    fn fills_stop_at_the_goal_and_anchors_agree() {
        check_fills::<Square>(super::super::bits::square::anchor_and_extent_8x8);
        check_fills::<Wide<16>>(Wide::<16>::anchor_and_extent);
        check_fills::<Wide<32>>(Wide::<32>::anchor_and_extent);
    }

    #[test]
    fn components_stay_in_their_rows() {
        // Column 15 of row 0 and column 0 of row 1 are adjacent bits but
        // not neighbours.
        let cells = image::<Wide<16>>(&[(0, 15), (1, 0)]);
        assert_eq!(Wide::<16>::component(1 << 15, cells), 1 << 15);
        let cells = image::<Wide<32>>(&[(0, 31), (1, 0)]);
        assert_eq!(Wide::<32>::component(1 << 31, cells), 1 << 31);
    }
}
