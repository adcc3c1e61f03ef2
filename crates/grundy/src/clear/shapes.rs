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
//! **Keys.** A shape's key is its canonical image in the 8 x 8 frame
//! ([`Board::canonical`]'s fast form: the least of the 8 anchored images),
//! which is always "landscape" (no more rows than columns: an image with more
//! rows has a higher top bit), so it has at most `a` rows of at most `b`
//! cells and packs into `a * b` bits, row `r` at bit `r * b`. Boxes up to
//! 52 cells with sides up to 8 fit a table slot.
//!
//! **Generation.** Tier `k + 1` grows from tier `k` by reverse search: a
//! shape's parent is the canonical form of the shape without its highest
//! cell (in canonical order) whose removal keeps it connected; a parent adds
//! each neighbouring cell and keeps the children whose parent it is. Every
//! shape has exactly one parent, so each is generated once, in parallel, with
//! no global de-duplication.
//!
//! **Cost.** A shape's options are its all-ones rectangles (at most 1,296 in
//! an 8 x 8 box, so values stay under the slot's 4,096); each costs a flood
//! fill, a canonical form per component and a table probe, except components
//! that fit 4 x 4 or are straight lines, whose values are known.

use super::board::{anchor_8x8, canonical_8x8, component_8x8, extent_8x8, grow_8x8, rects_8x8};
use super::table;
use super::Board;
use crate::tier::{Tier, TierGame, TierTable};
use crate::Nimber;

/// The largest side of a box.
pub const MAX_SIDE: usize = 8;
/// The most cells of a box (a key is at most 52 bits).
pub const MAX_BOX_CELLS: usize = 52;

/// Why a box is not supported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoxError {
    /// A side is 0 or over [`MAX_SIDE`], or the box has over
    /// [`MAX_BOX_CELLS`] cells.
    #[error("a {rows} x {cols} box is not supported: sides 1 to {MAX_SIDE} and at most {MAX_BOX_CELLS} cells")]
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
        if a == 0 || b > MAX_SIDE || a * b > MAX_BOX_CELLS {
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

/// Cells of a 4 x 4 corner of the 8 x 8 frame.
const CORNER_4X4: u64 = 0x0F0F_0F0F;
/// Column 0 of the 8 x 8 frame.
const FIRST_COL: u64 = 0x0101_0101_0101_0101;

fn is_connected(cells: u64) -> bool {
    cells == 0 || component_8x8(cells & cells.wrapping_neg(), cells) == cells
}

/// The canonical form of a non-empty connected set anywhere in the frame.
fn canonical(cells: u64) -> u64 {
    let anchored = anchor_8x8(cells);
    let (rows, cols) = extent_8x8(anchored);
    canonical_8x8(anchored, rows, cols)
}

/// The reverse-search parent of a canonical shape of two or more cells.
fn parent(shape: u64) -> u64 {
    let mut cells = shape;
    while cells != 0 {
        let highest = 1u64 << (63 - cells.leading_zeros());
        if is_connected(shape ^ highest) {
            return canonical(shape ^ highest);
        }
        cells ^= highest;
    }
    unreachable!("a connected set of two or more cells has a non-cut cell")
}

/// The value of a component anchored at the top-left of the frame when it
/// is known without tables: it fits 4 x 4, or it is a straight line.
#[inline]
fn known_value(anchored: u64) -> Option<u32> {
    if anchored & !CORNER_4X4 == 0 {
        let packed = (anchored & 0xF)
            | ((anchored >> 4) & 0xF0)
            | ((anchored >> 8) & 0xF00)
            | ((anchored >> 12) & 0xF000);
        return Some(u32::from(table::table()[packed as usize]));
    }
    let (rows, cols) = extent_8x8(anchored);
    let cells = anchored.count_ones();
    ((rows == 1 || cols == 1) && cells as usize == rows * cols).then_some(cells)
}

/// Rectangle clearing on the shapes of one box, as a [`TierGame`]: tier `k`
/// holds the shapes of `k` cells, keyed by [`ShapeBox::pack`].
#[derive(Clone, Copy, Debug)]
pub struct ClearShapes {
    shape_box: ShapeBox,
}

impl ClearShapes {
    /// The game on the shapes of `shape_box`.
    #[must_use]
    pub const fn new(shape_box: ShapeBox) -> ClearShapes {
        ClearShapes { shape_box }
    }
}

impl TierGame for ClearShapes {
    fn tiers(&self) -> Vec<Tier> {
        (1..=self.shape_box.cells() as Tier).collect()
    }

    fn tier_of(&self, position: u64) -> Tier {
        position.count_ones()
    }

    fn parent_tier(&self, tier: Tier) -> Option<Tier> {
        (tier > 1).then(|| tier - 1)
    }

    fn generate<E: FnMut(u64)>(&self, _tier: Tier, parent_key: Option<u64>, mut emit: E) {
        let Some(parent_key) = parent_key else {
            emit(1);
            return;
        };
        let shape = self.shape_box.unpack(parent_key);
        let (rows, cols) = extent_8x8(shape);
        // Children in the frame as it is, then grown upwards and leftwards
        // (the shape moved down or right by one to make room).
        // At most 2k + 2 neighbours inside, 8 above and 8 to the left.
        let mut children = [0u64; 96];
        let mut count = 0;
        let mut consider = |child: u64| {
            let anchored = anchor_8x8(child);
            let (r, c) = extent_8x8(anchored);
            if !self.shape_box.fits(r, c) {
                return;
            }
            let canonical = canonical_8x8(anchored, r, c);
            if parent(canonical) == shape {
                children[count] = canonical;
                count += 1;
            }
        };
        let mut inside = grow_8x8(shape) & !shape;
        while inside != 0 {
            let cell = inside & inside.wrapping_neg();
            inside ^= cell;
            consider(shape | cell);
        }
        if rows < 8 {
            let mut top = shape & 0xFF;
            while top != 0 {
                let cell = top & top.wrapping_neg();
                top ^= cell;
                consider((shape << 8) | cell);
            }
        }
        if cols < 8 {
            let mut left = shape & FIRST_COL;
            while left != 0 {
                let cell = left & left.wrapping_neg();
                left ^= cell;
                consider((shape << 1) | cell);
            }
        }
        // A symmetric parent reaches the same child through mirror cells.
        let children = &mut children[..count];
        children.sort_unstable();
        let mut last = 0;
        for &child in children.iter() {
            if child != last {
                emit(self.shape_box.pack(child));
                last = child;
            }
        }
    }

    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, mut option: F) {
        let shape = self.shape_box.unpack(position);
        // Components that need a lookup have at least 6 cells: at most 8.
        let mut lookups = [0u64; 16];
        rects_8x8(shape, |_, rect| {
            let rect = rect.0;
            let mut rest = shape ^ rect;
            let mut known = 0u32;
            let mut count = 0;
            while rest != 0 {
                let part = component_8x8(rest & rest.wrapping_neg(), rest);
                rest ^= part;
                let anchored = anchor_8x8(part);
                match known_value(anchored) {
                    Some(value) => known ^= value,
                    None => {
                        let (r, c) = extent_8x8(anchored);
                        lookups[count] = self.shape_box.pack(canonical_8x8(anchored, r, c));
                        count += 1;
                    }
                }
            }
            option(Nimber::new(known), &lookups[..count]);
        });
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

    /// The value of a connected set anchored at the top-left of the 8 x 8
    /// frame, when its shape is in the box.
    #[must_use]
    pub fn value_8x8(&self, anchored: u64) -> Option<Nimber> {
        self.get(self.shape_box.key_of(anchored)?)
    }

    /// The value of a board whose ones are one connected component in the
    /// box, or `None` (several components, or a shape outside the box).
    #[must_use]
    pub fn value(&self, board: &Board) -> Option<Nimber> {
        let square = board.in_8x8_frame()?;
        if square == 0 || !is_connected(square) {
            return None;
        }
        self.value_8x8(anchor_8x8(square))
    }

    /// The value of the full board of the box, `rows x cols`.
    #[must_use]
    pub fn full_board(&self, rows: usize, cols: usize) -> Option<Nimber> {
        if !self.shape_box.fits(rows, cols) {
            return None;
        }
        let (a, b) = (rows.min(cols), rows.max(cols));
        let row = (1u64 << b) - 1;
        let square = (0..a).fold(0u64, |s, r| s | (row << (8 * r)));
        self.value_8x8(square)
    }
}

/// Shape values the top-down solver consults for components (see
/// `Clear::with_shapes`). Implemented by [`ShapeTables`] and by lists of
/// them (the first whose box holds the shape answers).
pub trait ShapeLookup: Sync {
    /// The value of a connected set anchored at the top-left of the 8 x 8
    /// frame, or `None` when no table holds its shape.
    fn value_8x8(&self, anchored: u64) -> Option<Nimber>;
}

impl<S: AsRef<[u64]> + Sync> ShapeLookup for ShapeTables<S> {
    fn value_8x8(&self, anchored: u64) -> Option<Nimber> {
        ShapeTables::value_8x8(self, anchored)
    }
}

impl<T: ShapeLookup> ShapeLookup for [T] {
    fn value_8x8(&self, anchored: u64) -> Option<Nimber> {
        self.iter().find_map(|t| t.value_8x8(anchored))
    }
}

impl<T: ShapeLookup + ?Sized> ShapeLookup for Box<T> {
    fn value_8x8(&self, anchored: u64) -> Option<Nimber> {
        (**self).value_8x8(anchored)
    }
}

impl<T: ShapeLookup> ShapeLookup for Vec<T> {
    fn value_8x8(&self, anchored: u64) -> Option<Nimber> {
        self.as_slice().value_8x8(anchored)
    }
}

#[cfg(test)]
mod tests;
