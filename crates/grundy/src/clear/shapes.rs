//! Every shape of a box, solved bottom-up: the rectangle-clearing game as a
//! [`TierGame`], and tables of shape values that the top-down solver and the
//! front-ends consult.
//!
//! **Rule.** A shape is a non-empty 4-connected set of cells up to
//! translation and the 8 symmetries of the square. An `a x b` box (`a <= b`)
//! holds the shapes whose bounding box fits it in either orientation. Tier
//! `k` holds the shapes of `k` cells; clearing a rectangle from a shape of
//! `k` cells leaves components of fewer cells, so they lie in earlier tiers
//! and in the same box.
//!
//! **Keys.** A shape's key is its canonical image (the least of its
//! anchored images, [`Board::canonical`]'s fast form), which is always
//! "landscape" (no more rows than columns: an image with more rows has a
//! higher top bit), so it has at most `a` rows of at most `b` cells and
//! packs into `a * b` bits, row `r` at bit `r * b`. Boxes up to 52 cells fit
//! a table slot. A box with sides up to 8 is worked in the 8 x 8 frame; a
//! longer one (up to 4 x 16, or 2 x 26) in a wide frame of 4 rows of 16 or
//! 2 rows of 32 (`frame.rs`), which chooses the same canonical image, so a
//! shape has one key whichever frame built its box.
//!
//! **Generation.** Tier `k + 1` grows from tier `k` by reverse search: a
//! shape's parent is the canonical form of the shape without its highest
//! cell (in canonical order) whose removal keeps it connected; a parent adds
//! each neighbouring cell and keeps the children whose parent it is. Every
//! shape has exactly one parent, so each is generated once, in parallel, with
//! no global de-duplication. (A wide frame cannot hold a child's portrait
//! images, which a square parent may need: such a parent also grows from
//! its transpose. The census test counts every shape once in both kinds of
//! frame.)
//!
//! **Cost.** A shape's options are its all-ones rectangles (at most 1,296 in
//! an 8 x 8 box, 1,360 in 4 x 16, so values stay under the slot's 4,096).
//! The rectangles of one column run (same top row and columns) are valued
//! from the tallest down: the tallest costs flood fills that start next to
//! it and stop once they hold every cell next to it (the top-down solver's
//! generator); each shorter one gives back a row, which joins that band and
//! the components it touches, so only the joined component is valued again.
//! A component that fits 4 x 4, 4 x 5 or 2 x 8 (boxes over 20 cells, see
//! `SMALL_TABLES_ABOVE`) or is a straight line is valued by a table load;
//! any other costs a canonical form of one orientation (both only for a
//! square bounding box) and a probe of an earlier tier. On 5 x 6 and above
//! most of a shape's time is its options' flood fills, extents and table
//! loads, not the probes (about a third of the options need one;
//! `docs/design.md`, "Where the time goes").

use super::bits::square::{anchor_8x8, canonical_8x8, extent_8x8};
use super::frame::{Frame, Square, Wide};
use super::table::{self, SmallTables};
use super::{Board, ShapeKey};
use crate::tier::{GameId, Tier, TierGame, TierTable};
use crate::Nimber;

/// The largest side of a box whose short side is over 4 (boxes of up to 4
/// rows reach 16 columns, and of up to 2 rows 26).
pub const MAX_SIDE: usize = 8;
/// The most cells of a box (a key is at most 52 bits).
pub const MAX_BOX_CELLS: usize = 52;

/// Why a box is not supported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoxError {
    /// A side is 0, the box has over [`MAX_BOX_CELLS`] cells, or its long
    /// side is over [`MAX_SIDE`] with a short side over 4, over 16 with a
    /// short side over 2, or over 26.
    #[error("a box of {rows} x {cols} is not supported: at most {MAX_BOX_CELLS} cells, and a long side up to {MAX_SIDE} (16 when the short side is at most 4, 26 when it is at most 2)")]
    Unsupported {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
}

/// A validated box of shapes, `rows <= cols` (a box and its transpose hold
/// the same shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShapeBox {
    rows: u8,
    cols: u8,
}

impl ShapeBox {
    /// The `rows x cols` box, sides in either order.
    ///
    /// # Errors
    ///
    /// [`BoxError::Unsupported`] past the limits.
    pub const fn new(rows: usize, cols: usize) -> Result<ShapeBox, BoxError> {
        let (a, b) = if rows <= cols {
            (rows, cols)
        } else {
            (cols, rows)
        };
        let long_side_fits = b <= MAX_SIDE || (a <= 4 && b <= 16) || (a <= 2 && b <= 26);
        if a == 0 || !long_side_fits || a * b > MAX_BOX_CELLS {
            return Err(BoxError::Unsupported { rows, cols });
        }
        Ok(ShapeBox {
            rows: a as u8,
            cols: b as u8,
        })
    }

    /// The short side.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The long side.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Cells of the box, which is also its number of tiers.
    #[must_use]
    pub const fn cells(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// True when a shape with this bounding box fits, in either orientation.
    #[must_use]
    pub const fn fits(&self, rows: usize, cols: usize) -> bool {
        let (a, b) = if rows <= cols {
            (rows, cols)
        } else {
            (cols, rows)
        };
        a <= self.rows as usize && b <= self.cols as usize
    }

    /// True when every shape of `other` is a shape of this box.
    #[must_use]
    pub const fn contains(&self, other: ShapeBox) -> bool {
        self.fits(other.rows(), other.cols())
    }

    /// The key of a canonical landscape shape of the 8 x 8 frame.
    #[must_use]
    pub const fn pack(&self, canonical: u64) -> u64 {
        let b = self.cols as u32;
        let mut key = 0u64;
        let mut r = 0;
        while r < self.rows as u32 {
            key |= ((canonical >> (8 * r)) & 0xFF) << (r * b);
            r += 1;
        }
        key
    }

    /// The canonical 8 x 8 shape of a key.
    #[must_use]
    pub const fn unpack(&self, key: u64) -> u64 {
        let b = self.cols as u32;
        let row_mask = (1u64 << b) - 1;
        let mut square = 0u64;
        let mut r = 0;
        while r < self.rows as u32 {
            square |= ((key >> (r * b)) & row_mask) << (8 * r);
            r += 1;
        }
        square
    }

    /// True when `shape` fits the box: the box's tables hold it.
    #[inline]
    #[must_use]
    pub fn holds(&self, shape: &ShapeKey) -> bool {
        shape.rows() <= self.rows() && shape.cols() <= self.cols()
    }

    /// The slot key of a shape in this box, or `None` when the box does not
    /// hold it: the key's rows packed at this box's stride (row `r` at bit
    /// `r * cols()`). The [`ShapeKey`] is canonical and landscape already,
    /// so this is a fit test and a move of at most 8 rows.
    #[inline]
    #[must_use]
    pub fn key(&self, shape: &ShapeKey) -> Option<u64> {
        if !self.holds(shape) {
            return None;
        }
        Some(match shape.square() {
            Some(square) => self.pack(square),
            None => {
                super::bits::wide::restride(shape.cells(), shape.cols(), self.cols(), shape.rows())
            }
        })
    }

    /// The key of a shape given anchored at the top-left of the 8 x 8 frame,
    /// or `None` when it does not fit this box.
    #[must_use]
    pub fn key_of(&self, anchored: u64) -> Option<u64> {
        let (rows, cols) = extent_8x8(anchored);
        if !self.fits(rows, cols) {
            return None;
        }
        Some(self.pack(canonical_8x8(anchored, rows, cols)))
    }
}

impl std::fmt::Display for ShapeBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

fn is_connected<F: Frame>(cells: u64) -> bool {
    cells == 0 || F::component(cells & cells.wrapping_neg(), cells) == cells
}

/// The canonical form of a non-empty connected set anywhere in the frame.
fn canonical<F: Frame>(cells: u64) -> u64 {
    let (anchored, rows, cols) = F::anchor_and_extent(cells);
    F::canonical(anchored, rows, cols)
}

/// The reverse-search parent of a canonical shape of two or more cells.
///
/// Removing a cell keeps a connected set connected exactly when the cell's
/// neighbours stay in one component (every component of the rest holds one
/// of them), so the fill starts at one neighbour and stops as soon as it
/// holds them all ([`Frame::component_touching`]); a cell with one
/// neighbour, as the highest cell often is, needs no fill at all.
fn parent<F: Frame>(shape: u64) -> u64 {
    let mut cells = shape;
    while cells != 0 {
        let highest = 1u64 << (63 - cells.leading_zeros());
        let rest = shape ^ highest;
        let around = F::grow(highest) & rest;
        if around & around.wrapping_sub(1) == 0
            || F::component_touching(around & around.wrapping_neg(), rest, around) == rest
        {
            return canonical::<F>(rest);
        }
        cells ^= highest;
    }
    unreachable!("a connected set of two or more cells has a non-cut cell")
}

/// The value of an anchored `rows x cols` component when it is known
/// without tables: it fits 4 x 4, or it is a straight line.
#[inline]
fn known_value<F: Frame>(anchored: u64, rows: usize, cols: usize) -> Option<u32> {
    if let Some(packed) = F::corner_4x4(anchored) {
        return Some(u32::from(table::table()[packed as usize]));
    }
    let cells = anchored.count_ones();
    ((rows == 1 || cols == 1) && cells as usize == rows * cols).then_some(cells)
}

/// Boxes of more cells than this value components by the 4 x 5 and 2 x 8
/// tables too ([`SmallTables`]): such a box has over 100,000 shapes, and
/// the tables save about a third of its build. A box of at most 20 cells
/// is valued by its own tiers alone, so that its database (4 x 5 and the
/// smaller boxes) is worked out apart from the tables it could replace.
const SMALL_TABLES_ABOVE: usize = 20;

/// The frame a box's shapes are worked in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameKind {
    /// [`Square`]: sides up to 8.
    Square,
    /// [`Wide<16>`]: up to 4 rows of 16.
    Wide16,
    /// [`Wide<32>`]: up to 2 rows of 32.
    Wide32,
}

impl FrameKind {
    /// The frame's row stride.
    const fn stride(self) -> u32 {
        match self {
            FrameKind::Square => 8,
            FrameKind::Wide16 => 16,
            FrameKind::Wide32 => 32,
        }
    }
}

impl ShapeBox {
    /// The narrowest frame that holds the box.
    const fn frame(&self) -> FrameKind {
        if self.cols <= 8 {
            FrameKind::Square
        } else if self.rows <= 4 && self.cols <= 16 {
            FrameKind::Wide16
        } else {
            FrameKind::Wide32
        }
    }

    /// The key of a canonical landscape image of frame `F`.
    #[inline]
    fn pack_in<F: Frame>(&self, canonical: u64) -> u64 {
        let b = u32::from(self.cols);
        let row_mask = (1u64 << F::W.min(63)) - 1;
        let mut key = 0u64;
        for r in 0..u32::from(self.rows) {
            key |= ((canonical >> (F::W * r)) & row_mask) << (r * b);
        }
        key
    }

    /// The masks of [`ShapeBox::pack_by_lanes`] for frame stride `w`: stage
    /// `k` moves the rows whose index has bit `k` set down by
    /// `(w - cols) << k` bits. Before stage `k`, row `r` starts at bit
    /// `w * r - (w - cols) * (r mod 2^k)`; consecutive rows stay at least
    /// `cols` bits apart at every stage, so no move overlaps another row.
    const fn pack_masks(&self, w: u32) -> [u64; 3] {
        let (b, d) = (self.cols as u32, w - self.cols as u32);
        let lane = if b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
        let mut masks = [0u64; 3];
        let mut k = 0;
        while k < 3 {
            let mut r = 0;
            while r < self.rows as u32 {
                if r >> k & 1 == 1 {
                    let start = w * r - d * (r % (1 << k));
                    masks[k as usize] |= lane << start;
                }
                r += 1;
            }
            k += 1;
        }
        masks
    }

    /// [`ShapeBox::pack_in`] by three masked shifts, with the masks of
    /// [`ShapeBox::pack_masks`] for the frame: a key is made for every
    /// component looked up, and the row loop cost twice as much.
    #[inline(always)]
    fn pack_by_lanes<F: Frame>(masks: &[u64; 3], d: u32, canonical: u64) -> u64 {
        let mut x = canonical;
        let mut k = 0;
        while k < 3 {
            let m = masks[k];
            // A stage past the frame's rows has mask 0; its shift may pass 63
            // (2 rows of 32), which `wrapping_shr` allows.
            x = (x & !m) | (x & m).wrapping_shr(d << k);
            k += 1;
        }
        x
    }

    /// The canonical image of a key in frame `F`.
    #[inline]
    fn unpack_in<F: Frame>(&self, key: u64) -> u64 {
        let b = u32::from(self.cols);
        let row_mask = (1u64 << b) - 1;
        let mut image = 0u64;
        for r in 0..u32::from(self.rows) {
            image |= ((key >> (r * b)) & row_mask) << (F::W * r);
        }
        image
    }

    /// The placements of a key's shape in a `rows x cols` grid
    /// (`rows <= self.rows()`, `cols <= self.cols()`): over its distinct
    /// images under the 8 symmetries, the translations that fit. Over every
    /// shape of the box, they add up to the connected cell sets of the grid
    /// ([`super::census::connected_sets`]), each counted once: the check
    /// that a build holds every shape once.
    #[must_use]
    pub fn placements(&self, key: u64, rows: usize, cols: usize) -> u64 {
        match self.frame() {
            FrameKind::Square => self.placements_in::<Square>(key, rows, cols),
            FrameKind::Wide16 => self.placements_in::<Wide<16>>(key, rows, cols),
            FrameKind::Wide32 => self.placements_in::<Wide<32>>(key, rows, cols),
        }
    }

    fn placements_in<F: Frame>(&self, key: u64, rows: usize, cols: usize) -> u64 {
        let shape = self.unpack_in::<F>(key);
        if shape == 0 {
            // No shape (a damaged key): no placement, so a census fails.
            return 0;
        }
        let (r, c) = F::extent(F::anchor(shape));
        let (images, count) = F::images(F::anchor(shape), r, c);
        images[..count]
            .iter()
            .filter(|&&(_, r, c)| r <= rows && c <= cols)
            .map(|&(_, r, c)| ((rows - r + 1) * (cols - c + 1)) as u64)
            .sum()
    }

    /// The key of the full `rows x cols` board, when the box holds it.
    #[must_use]
    pub fn full_key(&self, rows: usize, cols: usize) -> Option<u64> {
        if rows == 0 || cols == 0 || !self.fits(rows, cols) {
            return None;
        }
        let (a, b) = (rows.min(cols), rows.max(cols));
        let row = (1u64 << b) - 1;
        Some((0..a).fold(0u64, |s, r| s | (row << (r * self.cols()))))
    }

    /// A key's shape as a board of the box's size (`rows()` x `cols()`),
    /// anchored at the top-left, for a solver to check; `None` when the key
    /// has cells outside the box (no key a build writes).
    #[must_use]
    pub fn board(&self, key: u64) -> Option<Board> {
        Board::new(self.rows(), self.cols(), key).ok()
    }

    /// The key of the shape of a board whose ones are one connected
    /// component, when the box holds it; `None` for several components or a
    /// shape outside the box.
    #[must_use]
    pub fn key_of_board(&self, board: &Board) -> Option<u64> {
        if let Some(square) = board.in_8x8_frame() {
            if square == 0 || !is_connected::<Square>(square) {
                return None;
            }
            return self.key_of(anchor_8x8(square));
        }
        let components = board.components();
        let [component] = components.as_slice() else {
            return None;
        };
        let cut = board.crop(*component);
        let cut = if cut.rows() > cut.cols() {
            cut.transform(4)
        } else {
            cut
        };
        match cut.in_8x8_frame() {
            Some(square) => self.key_of(square),
            None => self.key_of_wide(cut.rows(), cut.cols(), cut.cells().0),
        }
    }

    /// The key of a component cut to its `rows x cols` bounding box (cell
    /// `(r, c)` at bit `r * cols + c`) wider than 8 columns with
    /// `rows <= cols`, or `None` when the box does not hold it or the board
    /// is not such a component.
    #[must_use]
    pub fn key_of_wide(&self, rows: usize, cols: usize, cells: u64) -> Option<u64> {
        if cols <= 8 || rows > cols || !self.fits(rows, cols) {
            return None;
        }
        let board = Board::new(rows, cols, cells).ok()?;
        let (_, _, least) = board.canonical_wide()?;
        let row = (1u64 << cols) - 1;
        Some((0..rows).fold(0u64, |key, r| {
            key | (((least >> (r * cols)) & row) << (r * self.cols()))
        }))
    }
}

/// Rectangle clearing on the shapes of one box, as a [`TierGame`]: tier
/// `k - 1` holds the shapes of `k` cells, keyed by [`ShapeBox::pack`].
#[derive(Clone, Copy, Debug)]
pub struct ClearShapes {
    shape_box: ShapeBox,
    frame: FrameKind,
    /// Whether options are valued by the 4 x 5 and 2 x 8 tables too (see
    /// [`SMALL_TABLES_ABOVE`]).
    small_tables: bool,
    /// [`ShapeBox::pack_masks`] for the frame's stride.
    pack_masks: [u64; 3],
}

impl ClearShapes {
    /// The game on the shapes of `shape_box`.
    #[must_use]
    pub const fn new(shape_box: ShapeBox) -> ClearShapes {
        let frame = shape_box.frame();
        ClearShapes {
            shape_box,
            frame,
            small_tables: shape_box.cells() > SMALL_TABLES_ABOVE,
            pack_masks: shape_box.pack_masks(frame.stride()),
        }
    }

    /// The game worked in a wide frame even where the 8 x 8 one would do,
    /// to compare the frames' tables.
    #[cfg(test)]
    const fn in_wide_frame(shape_box: ShapeBox) -> ClearShapes {
        let frame = if shape_box.rows <= 2 {
            FrameKind::Wide32
        } else {
            FrameKind::Wide16
        };
        ClearShapes {
            shape_box,
            frame,
            small_tables: shape_box.cells() > SMALL_TABLES_ABOVE,
            pack_masks: shape_box.pack_masks(frame.stride()),
        }
    }

    /// The key of a canonical image of frame `F` ([`ShapeBox::pack_in`]).
    #[inline(always)]
    fn pack<F: Frame>(&self, canonical: u64) -> u64 {
        let d = F::W - u32::from(self.shape_box.cols);
        let key = ShapeBox::pack_by_lanes::<F>(&self.pack_masks, d, canonical);
        debug_assert_eq!(key, self.shape_box.pack_in::<F>(canonical));
        key
    }

    fn generate_in<F: Frame, E: FnMut(u64)>(&self, parent_key: u64, mut emit: E) {
        let shape = self.shape_box.unpack_in::<F>(parent_key);
        // Children of the parent's image, then of its transpose where the
        // frame needs it (see `Frame::GROW_TRANSPOSED`).
        let (rows, cols) = F::extent(shape);
        let transposed = F::GROW_TRANSPOSED && rows == cols;
        // At most 2k + 2 neighbours inside, W above and H to the left, for
        // each of the two images.
        let mut children = [0u64; 256];
        let mut count = 0;
        let mut consider = |child: u64| {
            let (anchored, r, c) = F::anchor_and_extent(child);
            if !self.shape_box.fits(r, c) {
                return;
            }
            let canonical = F::canonical(anchored, r, c);
            if parent::<F>(canonical) == shape {
                children[count] = canonical;
                count += 1;
            }
        };
        let images = if transposed {
            [shape, F::transpose(shape)]
        } else {
            [shape, shape]
        };
        for &image in &images[..1 + usize::from(transposed)] {
            // Children in the frame as it is, then grown upwards and
            // leftwards (the shape moved down or right by one to make room).
            let mut inside = F::grow(image) & !image;
            while inside != 0 {
                let cell = inside & inside.wrapping_neg();
                inside ^= cell;
                consider(image | cell);
            }
            let (rows, cols) = F::extent(image);
            if rows < F::H as usize {
                let mut top = image & ((1u64 << F::W.min(63)) - 1);
                while top != 0 {
                    let cell = top & top.wrapping_neg();
                    top ^= cell;
                    consider((image << F::W) | cell);
                }
            }
            if cols < F::W as usize {
                let mut left = image & F::FIRST_COL;
                while left != 0 {
                    let cell = left & left.wrapping_neg();
                    left ^= cell;
                    consider((image << 1) | cell);
                }
            }
        }
        // A symmetric parent reaches the same child through mirror cells.
        let children = &mut children[..count];
        children.sort_unstable();
        let mut last = 0;
        for &child in children.iter() {
            if child != last {
                emit(self.pack::<F>(child));
                last = child;
            }
        }
    }

    /// A component's known value, or `KEY |` its key: the small tables when
    /// given, else the 4 x 4 table and the lines.
    #[inline(always)]
    fn part_value<F: Frame>(&self, tables: Option<&SmallTables>, part: u64) -> u64 {
        let (anchored, rows, cols) = F::anchor_and_extent(part);
        let known = match tables {
            Some(tables) => F::small_value(tables, anchored, rows, cols),
            None => known_value::<F>(anchored, rows, cols),
        };
        match known {
            Some(value) => u64::from(value),
            None => KEY | self.pack::<F>(F::canonical(anchored, rows, cols)),
        }
    }

    /// The options of a shape: per rectangle, the XOR of the components
    /// whose values are known without a lookup and the keys of the others.
    ///
    /// The components of each option are found as the top-down solver finds
    /// them ([`super::frame::option_cells`]): every component of the shape
    /// less a rectangle holds a cell next to the rectangle, so each fill
    /// starts at such a cell and stops once it holds all of them. Each
    /// component is anchored and measured once; that one extent serves the
    /// known values and the canonical form. With the small tables
    /// (`SMALL`), what is left of an option once a component is found is
    /// valued at once when it fits 4 x 5 or 2 x 8, however many components
    /// it holds.
    ///
    /// The loop is written out here rather than through `option_cells`'
    /// visitor: the visitor, called at three sites, is not inlined, and a
    /// call per component with its state behind references costs about a
    /// tenth of a build (callgrind, the 5 x 5 box).
    #[inline]
    fn options_in<F: Frame, const SMALL: bool, O: FnMut(Nimber, &[u64])>(
        &self,
        position: u64,
        mut option: O,
    ) {
        let shape = self.shape_box.unpack_in::<F>(position);
        debug_assert!(
            shape != 0 && F::component(shape & shape.wrapping_neg(), shape) == shape,
            "a position is one connected shape"
        );
        let tables = if SMALL {
            Some(SmallTables::shared())
        } else {
            None
        };
        // Components that need a lookup have at least 6 cells: at most 8.
        let mut lookups = [0u64; 16];
        // The components of the current option and, for each, its known
        // value or `KEY | key`; an option of a shape of `k` cells has fewer
        // than `k` components.
        let mut parts = [0u64; 64];
        let mut values = [0u64; 64];
        let mut emit = |values: &[u64]| emit_option(values, &mut lookups, &mut option);
        let w = F::W;
        let row_mask = (1u64 << w.min(63)) - 1;
        let row = |r: u32| (shape >> (w * r)) & row_mask;
        let shape_rows = F::extent(shape).0 as u32;
        // The rows of one column run from `top` down, as masks.
        let mut bands = [0u64; 8];
        for top in 0..shape_rows {
            let top_bits = row(top);
            let mut lefts = top_bits;
            while lefts != 0 {
                let left = lefts.trailing_zeros();
                lefts &= lefts - 1;
                let mut run = 0u64;
                for right in left..w {
                    if top_bits >> right & 1 == 0 {
                        break;
                    }
                    run |= 1 << right;
                    let mut tall = 0;
                    let mut rect = 0u64;
                    while top + (tall as u32) < shape_rows && row(top + tall as u32) & run == run {
                        bands[tall] = run << (w * (top + tall as u32));
                        rect |= bands[tall];
                        tall += 1;
                    }
                    // The tallest rectangle: its components by fills from
                    // its border, as the top-down solver finds them.
                    let mut rest = shape ^ rect;
                    let mut open = F::grow(rect) & rest;
                    let mut count = 0;
                    let mut known = 0u64;
                    let mut taken = false;
                    while rest != 0 {
                        debug_assert!(open != 0, "every component touches the rectangle");
                        let part = F::component_touching(open & open.wrapping_neg(), rest, open);
                        rest ^= part;
                        open &= !part;
                        parts[count] = part;
                        values[count] = self.part_value::<F>(tables, part);
                        count += 1;
                        // Alone (no shorter rectangle to derive from it),
                        // the rest is valued whole when a table holds it.
                        if let (Some(tables), 1, true) = (&tables, tall, rest != 0) {
                            let (anchored, rows, cols) = F::anchor_and_extent(rest);
                            if let Some(value) = F::small_value(tables, anchored, rows, cols) {
                                known = u64::from(value);
                                taken = true;
                                break;
                            }
                        }
                    }
                    if taken {
                        values[count] = known;
                        emit(&values[..count + 1]);
                        continue;
                    }
                    emit(&values[..count]);
                    // Shorter rectangles, one row at a time: giving back
                    // the bottom row's band joins it and the components
                    // it touches into one; the others stay as they were,
                    // with their values.
                    for band in bands[1..tall].iter().rev() {
                        let touch = F::grow(*band);
                        let mut joined = *band;
                        let mut kept = 0;
                        for i in 0..count {
                            if parts[i] & touch != 0 {
                                joined |= parts[i];
                            } else {
                                parts[kept] = parts[i];
                                values[kept] = values[i];
                                kept += 1;
                            }
                        }
                        parts[kept] = joined;
                        values[kept] = self.part_value::<F>(tables, joined);
                        count = kept + 1;
                        emit(&values[..count]);
                    }
                }
            }
        }
    }
}

/// Marks a component's entry in `options_in` as a key to look up, not a
/// known value (keys have at most 52 bits).
const KEY: u64 = 1 << 63;

/// Calls `option` with the XOR of the known values among `values` and the
/// keys among them (see [`KEY`]).
#[inline(always)]
fn emit_option<O: FnMut(Nimber, &[u64])>(values: &[u64], lookups: &mut [u64; 16], option: &mut O) {
    let mut known = 0u32;
    let mut count = 0;
    for &value in values {
        if value & KEY == 0 {
            known ^= value as u32;
        } else {
            lookups[count] = value ^ KEY;
            count += 1;
        }
    }
    option(Nimber::new(known), &lookups[..count]);
}

impl TierGame for ClearShapes {
    fn id(&self) -> GameId {
        GameId::new(
            "clear",
            [self.shape_box.rows() as u32, self.shape_box.cols() as u32],
        )
    }

    fn tier_count(&self) -> usize {
        self.shape_box.cells()
    }

    /// A shape of `k` cells is in tier `k - 1` (clearing's rule: a move
    /// leaves components of fewer cells).
    fn tier_of(&self, position: u64) -> Tier {
        Tier::new(position.count_ones() - 1)
    }

    fn parent_tier(&self, tier: Tier) -> Option<Tier> {
        tier.previous()
    }

    fn generate<E: FnMut(u64)>(&self, _tier: Tier, parent_key: Option<u64>, emit: E) {
        let Some(parent_key) = parent_key else {
            let mut emit = emit;
            emit(1);
            return;
        };
        match self.frame {
            FrameKind::Square => self.generate_in::<Square, E>(parent_key, emit),
            FrameKind::Wide16 => self.generate_in::<Wide<16>, E>(parent_key, emit),
            FrameKind::Wide32 => self.generate_in::<Wide<32>, E>(parent_key, emit),
        }
    }

    /// The key's rows in reverse order, its row 0 in the word's top bits:
    /// shapes whose first rows are the same come together: on 5 x 6, 3% to
    /// 5% faster than the keys' bits reversed (the default; the orders
    /// compared are in `docs/results.md`, "The tier engine, step by step").
    #[inline]
    fn solve_order(&self, position: u64) -> u64 {
        let (rows, cols) = (self.shape_box.rows() as u32, self.shape_box.cols() as u32);
        let row_mask = (1u64 << cols) - 1;
        let mut order = 0u64;
        for r in 0..rows {
            order |= ((position >> (r * cols)) & row_mask) << ((rows - 1 - r) * cols);
        }
        order << (64 - rows * cols)
    }

    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, option: F) {
        match self.frame {
            FrameKind::Square if self.small_tables => {
                self.options_in::<Square, true, F>(position, option);
            }
            FrameKind::Square => self.options_in::<Square, false, F>(position, option),
            FrameKind::Wide16 if self.small_tables => {
                self.options_in::<Wide<16>, true, F>(position, option);
            }
            FrameKind::Wide16 => self.options_in::<Wide<16>, false, F>(position, option),
            FrameKind::Wide32 if self.small_tables => {
                self.options_in::<Wide<32>, true, F>(position, option);
            }
            FrameKind::Wide32 => self.options_in::<Wide<32>, false, F>(position, option),
        }
    }
}

/// Solved tables of every shape of a box, one [`TierTable`] per tier
/// (tier `k` at index `k - 1`), over any slot storage: vectors while
/// building, a memory map or an embedded array when read back.
#[derive(Clone, Debug)]
pub struct ShapeTables<S = Vec<u64>> {
    shape_box: ShapeBox,
    tiers: Vec<TierTable<S>>,
}

impl<S: AsRef<[u64]>> ShapeTables<S> {
    /// Tables of `shape_box`, one per tier in order.
    ///
    /// # Errors
    ///
    /// A message when the number of tiers is not the box's cell count.
    pub fn new(shape_box: ShapeBox, tiers: Vec<TierTable<S>>) -> Result<Self, String> {
        if tiers.len() != shape_box.cells() {
            return Err(format!(
                "a {shape_box} box has {} tiers, not {}",
                shape_box.cells(),
                tiers.len()
            ));
        }
        Ok(ShapeTables { shape_box, tiers })
    }

    /// The box.
    #[must_use]
    pub fn shape_box(&self) -> ShapeBox {
        self.shape_box
    }

    /// The tables, tier 1 first.
    #[must_use]
    pub fn tiers(&self) -> &[TierTable<S>] {
        &self.tiers
    }

    /// The value of a shape given by its key.
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Nimber> {
        let tier = key.count_ones() as usize;
        self.tiers.get(tier.checked_sub(1)?)?.get(key)
    }

    /// The value of a shape, when it is in the box ([`ShapeBox::key`]).
    #[inline]
    #[must_use]
    pub fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        self.get(self.shape_box.key(shape)?)
    }

    /// The value of a board whose ones are one connected component in the
    /// box, or `None` (several components, or a shape outside the box).
    #[must_use]
    pub fn value(&self, board: &Board) -> Option<Nimber> {
        self.get(self.shape_box.key_of_board(board)?)
    }

    /// The value of the full board of the box, `rows x cols`.
    #[must_use]
    pub fn full_board(&self, rows: usize, cols: usize) -> Option<Nimber> {
        self.get(self.shape_box.full_key(rows, cols)?)
    }
}

/// Shape values the top-down solver consults for components (see
/// `Clear::with_shapes`), asked by [`ShapeKey`]. Implemented by
/// [`ShapeTables`] and by lists of them (the first that holds the shape
/// answers). A table whose box does not hold a shape answers `None`, never
/// another shape's value.
pub trait ShapeLookup: Send + Sync {
    /// The value of a shape, or `None` when no table holds it.
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber>;

    /// True when a table holds the shape, so that [`ShapeLookup::lookup`]
    /// answers it, found without reading any table: a table holds every
    /// connected shape of its box (by construction, checked by
    /// `grundy tables verify`), so this is whether the shape fits a box. It
    /// depends on the shape's rows and columns alone: a caller may ask once
    /// per size (`Clear::with_shapes` does).
    fn holds(&self, shape: &ShapeKey) -> bool;
}

impl<S: AsRef<[u64]> + Send + Sync> ShapeLookup for ShapeTables<S> {
    #[inline]
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        ShapeTables::lookup(self, shape)
    }

    #[inline]
    fn holds(&self, shape: &ShapeKey) -> bool {
        self.shape_box.holds(shape)
    }
}

impl<T: ShapeLookup> ShapeLookup for [T] {
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        self.iter().find_map(|t| t.lookup(shape))
    }

    fn holds(&self, shape: &ShapeKey) -> bool {
        self.iter().any(|t| t.holds(shape))
    }
}

impl<T: ShapeLookup + ?Sized> ShapeLookup for Box<T> {
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        (**self).lookup(shape)
    }

    fn holds(&self, shape: &ShapeKey) -> bool {
        (**self).holds(shape)
    }
}

impl<T: ShapeLookup + ?Sized> ShapeLookup for std::sync::Arc<T> {
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        (**self).lookup(shape)
    }

    fn holds(&self, shape: &ShapeKey) -> bool {
        (**self).holds(shape)
    }
}

impl<T: ShapeLookup> ShapeLookup for Vec<T> {
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        self.as_slice().lookup(shape)
    }

    fn holds(&self, shape: &ShapeKey) -> bool {
        self.as_slice().holds(shape)
    }
}

#[cfg(test)]
mod tests;
