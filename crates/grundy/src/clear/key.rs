//! [`ShapeKey`]: the validated name of a rectangle-clearing shape, the key
//! every shape database ([`super::shapes::ShapeLookup`]) is asked by.
//!
//! **Rule.** A shape is a non-empty 4-connected set of cells up to
//! translation and the 8 symmetries of the square. Its key is its least
//! image (the canonical form of [`Board::canonical`]), which is always
//! "landscape" (`rows <= cols`: an image with more rows has a higher top
//! bit), cut to its bounding box. The key names no box: a database turns it
//! into its own slot key ([`ShapeBox::key`](super::shapes::ShapeBox::key)),
//! and a shape outside its box gets `None`, never another shape's value.
//!
//! **Layout.** The cells are kept in the frame the solver works in, so the
//! hot path builds a key from the canonical image it already has, without
//! moving bits: a shape of at most 8 columns in the 8 x 8 frame (bit
//! `8 * row + col`), a wider one cut to its width (bit `cols * row + col`).
//! [`ShapeKey::cells`] always gives the cut layout.
//!
//! **Why it is right.** The fields are private and every public constructor
//! checks its input (one connected component, cut to its box) and takes the
//! canonical image itself, so two keys are equal exactly when their shapes
//! are. Over images of one extent, the order of the words is the same at
//! stride 8 and at the cut stride (highest row first, then highest column),
//! so the least image is the same in both layouts.
//!
//! **Cost.** The engine's own constructors are O(1) moves of bits it
//! computed anyway; the public ones cost a flood fill and a canonical form.

use super::bits::square::{anchor_8x8, canonical_8x8, component_8x8, extent_8x8};
use super::bits::wide::restride;
use super::{Board, BoardError};

/// Why cells are not a shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
    /// The cells are not a board of that size.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// No cells, or more than one 4-connected component.
    #[error("the cells are not one connected shape")]
    NotOneComponent,
    /// The cells do not touch every side of their box (not cut to their
    /// bounding box, or not anchored at the top-left).
    #[error("the cells are not cut to their bounding box")]
    NotCut,
}

/// A canonical shape: the least image of a connected set under the 8
/// symmetries, landscape, cut to its bounding box (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeKey {
    rows: u8,
    cols: u8,
    /// The image: at stride 8 when `cols <= 8`, else at stride `cols`.
    cells: u64,
}

impl ShapeKey {
    /// The key of a board whose ones form one 4-connected component,
    /// anywhere on the board.
    ///
    /// # Errors
    ///
    /// [`KeyError::NotOneComponent`] for no ones or several components.
    ///
    /// # Examples
    ///
    /// ```
    /// use grundy::clear::ShapeKey;
    /// let l = ShapeKey::of_board(&grundy::board!["000", "100", "111"]).unwrap();
    /// let turned = ShapeKey::of_board(&grundy::board!["11", "10", "10"]).unwrap();
    /// assert_eq!(l, turned);
    /// assert_eq!((l.rows(), l.cols(), l.len()), (2, 3, 4));
    /// ```
    pub fn of_board(board: &Board) -> Result<ShapeKey, KeyError> {
        if let Some(square) = board.in_8x8_frame() {
            if square == 0 || component_8x8(square & square.wrapping_neg(), square) != square {
                return Err(KeyError::NotOneComponent);
            }
            return Ok(Self::of_connected_8x8(anchor_8x8(square)));
        }
        let components = board.components();
        let [component] = components.as_slice() else {
            return Err(KeyError::NotOneComponent);
        };
        let cut = board.crop(*component);
        let cut = if cut.rows() > cut.cols() {
            cut.transform(4)
        } else {
            cut
        };
        if let Some(square) = cut.in_8x8_frame() {
            return Ok(Self::of_connected_8x8(square));
        }
        let (rows, cols, least) = cut
            .canonical_wide()
            .expect("a cut landscape board wider than 8");
        Ok(Self::from_canonical_cut(
            usize::from(rows),
            usize::from(cols),
            least,
        ))
    }

    /// The key of a connected set cut to its `rows x cols` bounding box,
    /// in either orientation (cell `(r, c)` at bit `r * cols + c`).
    ///
    /// # Errors
    ///
    /// [`KeyError::Board`] for a bad size or cells outside it,
    /// [`KeyError::NotCut`] when the cells miss a side of the box,
    /// [`KeyError::NotOneComponent`] when they are not connected.
    pub fn from_cut(rows: usize, cols: usize, cells: u64) -> Result<ShapeKey, KeyError> {
        let board = Board::new(rows, cols, cells)?;
        if board.cells().is_empty() {
            return Err(KeyError::NotOneComponent);
        }
        let crop = board.crop(board.cells());
        if (crop.rows(), crop.cols()) != (rows, cols) {
            return Err(KeyError::NotCut);
        }
        Self::of_board(&board)
    }

    /// The key of a connected set anchored at the top-left of the 8 x 8
    /// frame (bit `8 * row + col`, touching row 0 and column 0).
    ///
    /// # Errors
    ///
    /// [`KeyError::NotCut`] when not anchored, [`KeyError::NotOneComponent`]
    /// when empty or not connected.
    pub fn from_anchored_8x8(anchored: u64) -> Result<ShapeKey, KeyError> {
        if anchored == 0 || component_8x8(anchored & anchored.wrapping_neg(), anchored) != anchored
        {
            return Err(KeyError::NotOneComponent);
        }
        if anchor_8x8(anchored) != anchored {
            return Err(KeyError::NotCut);
        }
        Ok(Self::of_connected_8x8(anchored))
    }

    /// The key of a connected set anchored in the 8 x 8 frame.
    fn of_connected_8x8(anchored: u64) -> ShapeKey {
        let (rows, cols) = extent_8x8(anchored);
        Self::from_canonical_8x8(canonical_8x8(anchored, rows, cols), rows, cols)
    }

    /// The key of the canonical 8 x 8 image of a connected `rows x cols`
    /// set (either orientation): the solver's hot path, which has both.
    #[inline(always)]
    pub(crate) fn from_canonical_8x8(canonical: u64, rows: usize, cols: usize) -> ShapeKey {
        debug_assert_eq!(extent_8x8(canonical), (rows.min(cols), rows.max(cols)));
        ShapeKey {
            rows: rows.min(cols) as u8,
            cols: rows.max(cols) as u8,
            cells: canonical,
        }
    }

    /// The key of the least image, cut to stride `cols`, of a connected
    /// `rows x cols` set wider than 8 columns (`rows < cols`).
    #[inline(always)]
    pub(crate) fn from_canonical_cut(rows: usize, cols: usize, least: u64) -> ShapeKey {
        debug_assert!(cols > 8 && rows < cols);
        ShapeKey {
            rows: rows as u8,
            cols: cols as u8,
            cells: least,
        }
    }

    /// Rows of the canonical image (the short side).
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns of the canonical image (the long side).
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Cells of the shape (its tier in a database).
    #[must_use]
    #[allow(clippy::len_without_is_empty)] // a shape is never empty
    pub const fn len(&self) -> usize {
        self.cells.count_ones() as usize
    }

    /// The canonical image cut to its box: cell `(r, c)` at bit
    /// `r * cols + c`.
    #[must_use]
    pub fn cells(&self) -> u64 {
        match self.square() {
            Some(square) => restride(square, 8, self.cols(), self.rows()),
            None => self.cells,
        }
    }

    /// The canonical image in the 8 x 8 frame, when it has at most 8
    /// columns.
    #[inline(always)]
    #[must_use]
    pub const fn square(&self) -> Option<u64> {
        if self.cols <= 8 {
            Some(self.cells)
        } else {
            None
        }
    }

    /// The canonical image as a `rows() x cols()` board.
    #[must_use]
    pub fn to_board(&self) -> Board {
        Board::new(self.rows(), self.cols(), self.cells()).expect("a key fits its own box")
    }
}

impl std::fmt::Display for ShapeKey {
    /// `ROWSxCOLS:` and the rows of the canonical image, `1` and `.`,
    /// separated by `/`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}:", self.rows, self.cols)?;
        let (cells, cols) = (self.cells(), self.cols());
        for r in 0..self.rows() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..cols {
                f.write_str(if cells >> (r * cols + c) & 1 == 1 {
                    "1"
                } else {
                    "."
                })?;
            }
        }
        Ok(())
    }
}
