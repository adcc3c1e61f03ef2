//! Board geometry and validated boards of at most 64 cells: a [`Board`]
//! is a [`Geometry`] and its cells, checked on construction. Boards in a
//! frame (8 x 8, 4 x 16, 2 x 32) hand their word work to the frames' bit
//! routines ([`super::bits`]) and [`super::frame`]; other sizes use the
//! strided loops here.

use std::fmt;

use super::bits::square::{anchor_8x8, canonical_8x8, component_8x8, key_8x8, rects_8x8};
use super::bits::wide::{rects_strided, rects_wide, restride};
use super::bits::Rect;
use super::frame::{Frame, Wide};
use super::Bitboard;
use crate::symmetry::{image_cell, image_shape};

/// The most cells a [`Board`] holds.
pub const MAX_CELLS: usize = 64;

/// Why a board cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// `rows * cols` exceeds [`MAX_CELLS`], or a side is zero.
    #[error("a board of {rows} x {cols} is not supported: boards need 1 to {MAX_CELLS} cells")]
    BadSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A cell is set outside the `rows x cols` area.
    #[error("cell bits {cells:#x} lie outside a {rows} x {cols} board")]
    OutsideBoard {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// The offending bits.
        cells: u64,
    },
    /// A move names a rectangle that is not all ones on the board.
    #[error("rectangle {0} is not all ones on this board")]
    IllegalMove(Rect),
}

/// The shape of a board: `rows x cols` cells, row-major. Two bytes, so a
/// [`Board`] is 16 and the solver moves positions around cheaply; the masks
/// a flood fill needs are derived on demand ([`Geometry::grow_masks`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    rows: u8,
    cols: u8,
}

impl Geometry {
    /// A `rows x cols` geometry, or `None` when it has no cells or more
    /// than 64.
    #[must_use]
    pub const fn new(rows: usize, cols: usize) -> Option<Geometry> {
        if rows == 0 || cols == 0 || rows > MAX_CELLS || cols > MAX_CELLS || rows * cols > MAX_CELLS
        {
            return None;
        }
        Some(Geometry {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Every cell.
    pub const fn full(&self) -> Bitboard {
        Bitboard::below(self.rows as u32 * self.cols as u32)
    }

    /// The cells of row 0.
    const fn first_row(&self) -> u64 {
        Bitboard::below(self.cols as u32).0
    }

    /// The bit index of `(row, col)`.
    #[must_use]
    pub const fn index(&self, row: usize, col: usize) -> u32 {
        (row * self.cols as usize + col) as u32
    }

    /// The cells of one row, shifted down to bits `0..cols`.
    #[must_use]
    pub const fn row_bits(&self, cells: Bitboard, row: usize) -> u64 {
        cells.shr((row * self.cols as usize) as u32).0 & self.first_row()
    }

    /// The first and last rows and columns holding `cells`, which is not
    /// empty: `(top, bottom, left, right)`.
    fn bounding_box(&self, cells: Bitboard) -> (usize, usize, usize, usize) {
        let cols = self.cols();
        let top = cells.0.trailing_zeros() as usize / cols;
        let bottom = (63 - cells.0.leading_zeros() as usize) / cols;
        let mut columns = 0u64;
        for row in top..=bottom {
            columns |= self.row_bits(cells, row);
        }
        let left = columns.trailing_zeros() as usize;
        let right = 63 - columns.leading_zeros() as usize;
        (top, bottom, left, right)
    }

    /// The cells of a rectangle.
    pub const fn rect_mask(&self, rect: Rect) -> Bitboard {
        let width = (rect.right - rect.left + 1) as u32;
        let run = Bitboard::below(width).0 << rect.left;
        let mut mask = 0u64;
        let mut row = rect.top as usize;
        while row <= rect.bottom as usize {
            mask |= run << (row * self.cols as usize);
            row += 1;
        }
        Bitboard(mask)
    }

    /// The masks [`Geometry::grow`] needs, computed once per flood fill:
    /// every cell, every cell but the first column's (which may receive a
    /// cell shifted from its left), every cell but the last column's.
    #[must_use]
    pub const fn grow_masks(&self) -> GrowMasks {
        let full = self.full().0;
        let mut first_col = 0u64;
        let mut row = 0;
        while row < self.rows as usize {
            first_col |= 1 << (row * self.cols as usize);
            row += 1;
        }
        let last_col = first_col << (self.cols - 1);
        GrowMasks {
            full,
            not_first_col: full & !first_col,
            not_last_col: full & !last_col,
            cols: self.cols as u32,
        }
    }

    /// The 4-neighbours of `cells` (and `cells` itself), within the board.
    pub const fn grow(&self, cells: Bitboard) -> Bitboard {
        self.grow_masks().grow(cells)
    }
}

/// A [`Geometry`]'s flood-fill masks, see [`Geometry::grow_masks`].
#[derive(Clone, Copy, Debug)]
pub struct GrowMasks {
    full: u64,
    not_first_col: u64,
    not_last_col: u64,
    cols: u32,
}

impl GrowMasks {
    /// The 4-neighbours of `cells` (and `cells` itself), within the board.
    pub const fn grow(&self, cells: Bitboard) -> Bitboard {
        let c = cells.0;
        let grown = c
            | ((c << 1) & self.not_first_col)
            | ((c >> 1) & self.not_last_col)
            | Bitboard(c).shl(self.cols).0
            | Bitboard(c).shr(self.cols).0;
        Bitboard(grown & self.full)
    }
}

impl GrowMasks {
    /// The cells of `within` 4-connected to `seed` (a subset of it). Each
    /// round fills whole runs along the rows, towards higher columns by one
    /// addition (the carry runs through a run of ones and stops at its end)
    /// and towards lower columns by an occluded fill of six shifts, then
    /// takes one step up and down. Rounds number about the row changes of
    /// the shape, not its length: on a 2 x 16 board a component's cells are
    /// found in about three rounds, where growing one step a round takes up
    /// to 32 (and the branch that ends the loop mispredicts once per fill).
    /// The 8 x 8 frame keeps the one-step growth, which measures faster
    /// there (paths are short).
    pub const fn fill(&self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let within = within.0 & self.full;
        let inner = within & self.not_last_col;
        let mut filled = seed.0 & within;
        loop {
            let before = filled;
            // Towards higher columns: `inner` cells pass a carry on to the
            // next cell of their row; the run's last cell (or the last
            // column) receives it and is kept when it is in `within`.
            filled |= (inner ^ inner.wrapping_add(filled & inner)) & within;
            // Towards lower columns: a cell receives from its right
            // neighbour unless it is in the last column.
            let mut open = inner;
            filled |= open & (filled >> 1);
            open &= open >> 1;
            filled |= open & (filled >> 2);
            open &= open >> 2;
            filled |= open & (filled >> 4);
            open &= open >> 4;
            filled |= open & (filled >> 8);
            open &= open >> 8;
            filled |= open & (filled >> 16);
            open &= open >> 16;
            filled |= open & (filled >> 32);
            filled |=
                (Bitboard(filled).shl(self.cols).0 | Bitboard(filled).shr(self.cols).0) & within;
            if filled == before {
                return Bitboard(filled);
            }
        }
    }
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} x {}", self.rows, self.cols)
    }
}

/// A rectangle-clearing position: a board of at most 64 cells and the set of
/// cells that are 1. Validated on construction: no bit lies outside the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    geometry: Geometry,
    cells: Bitboard,
}

impl Board {
    /// A board of the given size with the given cells set (bit
    /// `row * cols + col`).
    ///
    /// # Errors
    ///
    /// [`BoardError::BadSize`] for an empty or over-64-cell size,
    /// [`BoardError::OutsideBoard`] for bits beyond `rows * cols`.
    pub const fn new(rows: usize, cols: usize, cells: u64) -> Result<Board, BoardError> {
        let Some(geometry) = Geometry::new(rows, cols) else {
            return Err(BoardError::BadSize { rows, cols });
        };
        if cells & !geometry.full().0 != 0 {
            return Err(BoardError::OutsideBoard {
                rows,
                cols,
                cells: cells & !geometry.full().0,
            });
        }
        Ok(Board {
            geometry,
            cells: Bitboard(cells),
        })
    }

    /// A board from rows of `'1'`/`'0'` (also `'#'`/`'.'`; spaces ignored),
    /// for literals in tests and examples. See the [`board!`](crate::board)
    /// macro.
    ///
    /// # Panics
    ///
    /// On any other character, ragged rows, or more than 64 cells.
    #[must_use]
    pub const fn from_rows(rows: &[&str]) -> Board {
        // First pass: the width, and that every row has it.
        let mut cols = 0usize;
        let mut r = 0;
        while r < rows.len() {
            let bytes = rows[r].as_bytes();
            let mut c = 0usize;
            let mut i = 0;
            while i < bytes.len() {
                match bytes[i] {
                    b' ' => {}
                    b'1' | b'#' | b'0' | b'.' => c += 1,
                    _ => panic!("board literal: cells are 0/1 or ./#"),
                }
                i += 1;
            }
            if r == 0 {
                cols = c;
            }
            assert!(c == cols, "board literal: ragged rows");
            r += 1;
        }
        // Second pass: place bit row * cols + col.
        let mut packed = 0u64;
        let mut r = 0;
        while r < rows.len() {
            let bytes = rows[r].as_bytes();
            let mut c = 0usize;
            let mut i = 0;
            while i < bytes.len() {
                match bytes[i] {
                    b'1' | b'#' => {
                        assert!(r * cols + c < MAX_CELLS, "board literal: over 64 cells");
                        packed |= 1 << (r * cols + c);
                        c += 1;
                    }
                    b'0' | b'.' => c += 1,
                    _ => {}
                }
                i += 1;
            }
            r += 1;
        }
        match Board::new(rows.len(), cols, packed) {
            Ok(board) => board,
            Err(_) => panic!("board literal: 1 to 64 cells"),
        }
    }

    /// The board's size.
    #[must_use]
    pub const fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.geometry.rows()
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.geometry.cols()
    }

    /// The cells that are 1.
    pub const fn cells(&self) -> Bitboard {
        self.cells
    }

    /// True when cell `(row, col)` is 1.
    #[must_use]
    pub const fn get(&self, row: usize, col: usize) -> bool {
        row < self.rows() && col < self.cols() && self.cells.has(self.geometry.index(row, col))
    }

    /// True when `rect` lies on the board and all its cells are 1.
    #[must_use]
    pub const fn is_legal(&self, rect: Rect) -> bool {
        rect.top <= rect.bottom
            && rect.left <= rect.right
            && (rect.bottom as usize) < self.rows()
            && (rect.right as usize) < self.cols()
            && self.cells.contains(self.geometry.rect_mask(rect))
    }

    /// The board after clearing `rect`.
    ///
    /// # Errors
    ///
    /// [`BoardError::IllegalMove`] when the rectangle is off the board or
    /// not all ones.
    pub const fn try_play(&self, rect: Rect) -> Result<Board, BoardError> {
        if !self.is_legal(rect) {
            return Err(BoardError::IllegalMove(rect));
        }
        Ok(self.play_unchecked(rect))
    }

    /// The board after clearing `rect`, for inner loops that generated the
    /// move themselves.
    ///
    /// # Panics
    ///
    /// In debug builds, when the move is illegal; in release builds an
    /// illegal move gives a meaningless board.
    pub const fn play_unchecked(&self, rect: Rect) -> Board {
        debug_assert!(self.is_legal(rect));
        self.play_unchecked_mask(self.geometry.rect_mask(rect))
    }

    pub(crate) const fn play_unchecked_mask(&self, mask: Bitboard) -> Board {
        debug_assert!(self.cells.contains(mask));
        Board {
            geometry: self.geometry,
            cells: Bitboard(self.cells.0 ^ mask.0),
        }
    }

    /// Calls `visit` with every all-ones rectangle and its cells, ordered by
    /// top row, then left column, then right column, then bottom row.
    pub fn for_each_rect<F: FnMut(Rect, Bitboard)>(&self, visit: F) {
        if self.geometry == SQUARE {
            return rects_8x8(self.cells.0, visit);
        }
        if self.geometry == WIDE16 {
            return rects_wide::<16, F>(self.cells.0, visit);
        }
        if self.geometry == WIDE32 {
            return rects_wide::<32, F>(self.cells.0, visit);
        }
        let (rows, cols) = (self.geometry.rows(), self.geometry.cols());
        rects_strided(self.cells.0, rows as u32, cols as u32, visit);
    }

    /// Calls `visit` with each 4-connected component of the ones, cut to its
    /// bounding box, in order of its lowest cell.
    pub fn for_each_component<F: FnMut(Board)>(&self, mut visit: F) {
        let mut rest = self.cells;
        while !rest.is_empty() {
            let component = self.component_of(rest.lowest(), rest);
            rest ^= component;
            visit(self.crop(component));
        }
    }

    /// The 4-connected components of the ones, as sets of this board's cells.
    #[must_use]
    pub fn components(&self) -> Vec<Bitboard> {
        let mut rest = self.cells;
        let mut out = Vec::new();
        while !rest.is_empty() {
            let component = self.component_of(rest.lowest(), rest);
            rest ^= component;
            out.push(component);
        }
        out
    }

    fn component_of(&self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let masks = self.geometry.grow_masks();
        let mut component = seed;
        loop {
            let grown = masks.grow(component) & within;
            if grown == component {
                return component;
            }
            component = grown;
        }
    }

    /// The board restricted to `cells`, cut to their bounding box.
    #[must_use]
    pub fn crop(&self, cells: Bitboard) -> Board {
        let cells = cells & self.cells;
        if cells.is_empty() {
            return Board::new(1, 1, 0).expect("1 x 1");
        }
        let geometry = self.geometry;
        let (top, bottom, left, right) = geometry.bounding_box(cells);
        let width = right - left + 1;
        if width == geometry.cols() && top == 0 && bottom + 1 == geometry.rows() {
            return Board { geometry, cells };
        }
        let mut packed = 0u64;
        for row in top..=bottom {
            let bits = (geometry.row_bits(cells, row) >> left) & Bitboard::below(width as u32).0;
            packed |= bits << ((row - top) * width);
        }
        Board::new(bottom - top + 1, width, packed).expect("a crop is no larger than its board")
    }

    /// The same cells on a board of another size with at least as many rows
    /// and columns, anchored at the top-left corner.
    ///
    /// # Panics
    ///
    /// When `geometry` is smaller than this board in either direction.
    #[must_use]
    pub fn repack(&self, geometry: Geometry) -> Board {
        assert!(geometry.rows() >= self.rows() && geometry.cols() >= self.cols());
        let mut packed = 0u64;
        for row in 0..self.rows() {
            packed |= self.geometry.row_bits(self.cells, row) << (row * geometry.cols());
        }
        Board {
            geometry,
            cells: Bitboard(packed),
        }
    }

    /// The image of this board under one of the 8 symmetries of the square:
    /// bit 0 of `symmetry` mirrors columns, bit 1 mirrors rows, bit 2
    /// transposes (applied last).
    #[must_use]
    pub fn transform(&self, symmetry: u8) -> Board {
        let (rows, cols) = (self.rows(), self.cols());
        let (out_rows, out_cols) = image_shape(symmetry, rows, cols);
        let mut packed = 0u64;
        for index in self.cells.cells() {
            let cell = (index as usize / cols, index as usize % cols);
            let (row, col) = image_cell(symmetry, (rows, cols), cell);
            packed |= 1 << (row * out_cols + col);
        }
        Board::new(out_rows, out_cols, packed).expect("same number of cells")
    }

    /// The canonical key of this board's shape: the least
    /// `(rows, cols, cells)` over the 8 symmetries. Boards with equal keys
    /// are the same game. Boards up to 8 x 8, and boards of the wide frames
    /// (4 x 16 and 2 x 32), are first cut to their cells' bounding box, so
    /// translations agree too; other boards are meant to be cut already.
    #[must_use]
    pub fn canonical(&self) -> super::MemoKey {
        if let Some(square) = self.in_8x8_frame() {
            if square == 0 {
                return (0, 0, 0);
            }
            return (0, 0, key_8x8(square));
        }
        if self.geometry == WIDE16 {
            return wide_frame_key::<16>(self.cells.0);
        }
        if self.geometry == WIDE32 {
            return wide_frame_key::<32>(self.cells.0);
        }
        if let Some(key) = self.canonical_wide() {
            return key;
        }
        self.canonical_by_transforms()
    }

    /// [`Board::canonical`] of a board wider than 8 columns with no more
    /// rows than columns, cut to its cells' bounding box (as the solver's
    /// components are); `None` for any other board. Such a board is never
    /// square, so its least image keeps its orientation (`rows < cols`) and is
    /// one of four: itself, the half turn (all `rows * cols` bits reversed),
    /// the mirror top to bottom (rows in reverse order) and the half turn of
    /// that. A few word operations and a loop over at most 7 rows, against a
    /// cell-by-cell transform per symmetry; the same key as
    /// [`Board::canonical_by_transforms`] (a property test checks).
    pub(crate) fn canonical_wide(&self) -> Option<super::MemoKey> {
        let (rows, cols) = (self.rows(), self.cols());
        if cols <= 8 || rows > cols || !self.is_cut() {
            return None;
        }
        let cells = self.cells.0;
        let area = (rows * cols) as u32;
        // `area > 8`, so the shift is below 64.
        let half_turn = |bits: u64| bits.reverse_bits() >> (64 - area);
        let row_mask = self.geometry.first_row();
        let mut flipped = 0u64;
        for row in 0..rows {
            // `row * cols <= 64 - cols`: no shift reaches 64.
            flipped |= ((cells >> (row * cols)) & row_mask) << ((rows - 1 - row) * cols);
        }
        let least = cells
            .min(half_turn(cells))
            .min(flipped)
            .min(half_turn(flipped));
        Some((rows as u8, cols as u8, least))
    }

    /// True when the ones touch all four sides of the board.
    fn is_cut(&self) -> bool {
        let geometry = self.geometry;
        let (rows, cols) = (geometry.rows(), geometry.cols());
        if self.cells.is_empty()
            || geometry.row_bits(self.cells, 0) == 0
            || geometry.row_bits(self.cells, rows - 1) == 0
        {
            return false;
        }
        let mut columns = 0u64;
        for row in 0..rows {
            columns |= geometry.row_bits(self.cells, row);
        }
        columns & 1 != 0 && columns >> (cols - 1) & 1 != 0
    }

    /// [`Board::canonical`] for any size, by applying each symmetry cell by
    /// cell: the general path, and the oracle the fast path is tested
    /// against. Keys of this path never have 0 rows, so they never collide
    /// with the fast path's `(0, 0, bits)`.
    #[must_use]
    pub fn canonical_by_transforms(&self) -> super::MemoKey {
        (0..8u8)
            .map(|symmetry| {
                let image = self.transform(symmetry);
                (image.rows() as u8, image.cols() as u8, image.cells.0)
            })
            .min()
            .expect("8 symmetries")
    }
}

impl Board {
    /// The cells in an 8 x 8 frame (bit `8 * row + col`) when the board fits
    /// one, anchored at the top-left corner.
    pub(crate) fn in_8x8_frame(&self) -> Option<u64> {
        let (rows, cols) = (self.rows(), self.cols());
        if rows > 8 || cols > 8 {
            return None;
        }
        if cols == 8 {
            return Some(self.cells.0);
        }
        let mut square = 0u64;
        for row in 0..rows {
            square |= self.geometry.row_bits(self.cells, row) << (8 * row);
        }
        Some(square)
    }
}

/// The 8 x 8 frame: the solver's working form for every component that fits
/// one. A shape anchored at the top-left of an 8 x 8 board is the same game
/// as the shape cut to its bounding box (empty rows and columns take no part
/// in any move), and in this form the flood fill shifts by constants, cutting
/// a component to its corner is one shift, and the symmetries are a few word
/// operations.
pub(crate) const SQUARE: Geometry = match Geometry::new(8, 8) {
    Some(geometry) => geometry,
    None => panic!("8 x 8 is a valid size"),
};

impl Board {
    /// Calls `visit` with each 4-connected component of the ones as a
    /// board in the 8 x 8 frame, anchored at its top-left corner, and
    /// returns true; returns false (visiting nothing) when the board does
    /// not fit the frame.
    pub(crate) fn for_each_component_8x8<F: FnMut(Board)>(&self, mut visit: F) -> bool {
        let Some(square) = self.in_8x8_frame() else {
            return false;
        };
        let mut rest = square;
        while rest != 0 {
            let component = component_8x8(rest & rest.wrapping_neg(), rest);
            rest ^= component;
            visit(Board {
                geometry: SQUARE,
                cells: Bitboard(anchor_8x8(component)),
            });
        }
        true
    }
}

impl Board {
    /// Calls `visit` with each 4-connected component of the ones of a board
    /// that does not fit the 8 x 8 frame: a component that fits one is
    /// visited as a board in the frame, anchored at its top-left corner (as
    /// [`Board::for_each_component_8x8`] does); a larger one cut to its
    /// bounding box and turned to have no more rows than columns (a transpose
    /// is the same game). The options of a wide component are again wide or
    /// fit the frame, so a search transposes only its root's components.
    pub(crate) fn for_each_component_wide<F: FnMut(Board)>(&self, mut visit: F) {
        let masks = self.geometry.grow_masks();
        let mut rest = self.cells;
        while !rest.is_empty() {
            let component = masks.fill(rest.lowest(), rest);
            rest ^= component;
            visit(self.frame_component(component));
        }
    }

    /// A component of this board in the 8 x 8 frame when it fits, else cut
    /// and turned wide: see [`Board::for_each_component_wide`].
    fn frame_component(&self, cells: Bitboard) -> Board {
        let geometry = self.geometry;
        let (top, bottom, left, right) = geometry.bounding_box(cells);
        let width = right - left + 1;
        let height = bottom - top + 1;
        if height <= 8 && width <= 8 {
            let mut square = 0u64;
            for row in 0..height {
                square |= (geometry.row_bits(cells, top + row) >> left) << (8 * row);
            }
            return Board {
                geometry: SQUARE,
                cells: Bitboard(square),
            };
        }
        let cut = self.crop(cells);
        let cut = if cut.rows() > cut.cols() {
            cut.transform(4)
        } else {
            cut
        };
        let frame = if cut.rows() <= 2 && cut.cols() <= 32 {
            WIDE32
        } else if cut.rows() <= 4 && cut.cols() <= 16 {
            WIDE16
        } else {
            return cut;
        };
        cut.repack(frame)
    }

    /// Calls `visit` with each component of a board in a wide frame
    /// ([`WIDE16`] or [`WIDE32`]) and returns true, or returns false (visiting
    /// nothing) for any other board. A component that fits 8 x 8 moves to
    /// the 8 x 8 frame; a wider one stays in the frame, anchored.
    pub(crate) fn for_each_component_in_wide_frame<F: FnMut(Board)>(&self, visit: F) -> bool {
        if self.geometry == WIDE16 {
            components_in_wide_frame::<16, F>(self.cells.0, WIDE16, visit);
            true
        } else if self.geometry == WIDE32 {
            components_in_wide_frame::<32, F>(self.cells.0, WIDE32, visit);
            true
        } else {
            false
        }
    }

    /// The row stride of a board in a wide frame ([`WIDE16`], [`WIDE32`]).
    pub(crate) fn wide_frame_stride(&self) -> Option<u32> {
        if self.geometry == WIDE16 {
            Some(16)
        } else if self.geometry == WIDE32 {
            Some(32)
        } else {
            None
        }
    }
}

/// The wide frame of 4 rows of 16: components of 3 or 4 rows that are
/// wider than 8 (the 3 x 10 board's, the 4 x 9 box's), and their options'
/// narrower components. As in the 8 x 8 frame, a component is anchored at
/// the top-left and the flood fill, rectangles, anchoring and symmetries are
/// word operations at a constant stride ([`Frame`]), where a cut board works
/// at its own width.
pub(crate) const WIDE16: Geometry = match Geometry::new(4, 16) {
    Some(geometry) => geometry,
    None => panic!("4 x 16 is a valid size"),
};

/// The wide frame of 2 rows of 32, for components of 1 or 2 rows wider
/// than 8 (the 2 x 16 board's). A frame of two rows takes one step to fold
/// or mirror its rows where [`WIDE16`] takes two, and its rectangle loop
/// visits no empty rows: 7% fewer instructions than [`WIDE16`] on the full
/// 2 x 12 board.
pub(crate) const WIDE32: Geometry = match Geometry::new(2, 32) {
    Some(geometry) => geometry,
    None => panic!("2 x 32 is a valid size"),
};

/// Rows, columns and anchored cells of a non-empty set of a wide frame.
fn extent_in_wide_frame<const W: u32>(cells: u64) -> (usize, usize, u64)
where
    Wide<W>: Frame,
{
    if cells == 0 {
        return (0, 0, 0);
    }
    let (anchored, rows, cols) = Wide::<W>::anchor_and_extent(cells);
    (rows, cols, anchored)
}

/// [`Board::canonical`] of a board in a wide frame: the 8 x 8 key when its
/// shape fits 8 x 8, else the least of its images at the cut stride, the
/// same key as [`Board::canonical_wide`] gives the cut board (both frames
/// order images by their highest cell, see `frame.rs`).
fn wide_frame_key<const W: u32>(cells: u64) -> super::MemoKey
where
    Wide<W>: Frame,
{
    if cells == 0 {
        return (0, 0, 0);
    }
    let (rows, cols, anchored) = extent_in_wide_frame::<W>(cells);
    if cols <= 8 {
        let square = restride(anchored, W as usize, 8, rows);
        return (0, 0, canonical_8x8(square, rows, cols));
    }
    let least = Wide::<W>::canonical(anchored, rows, cols);
    (
        rows as u8,
        cols as u8,
        restride(least, W as usize, cols, rows),
    )
}

/// The components of a wide frame's set, each anchored: in the 8 x 8 frame
/// when it fits, else in this frame.
fn components_in_wide_frame<const W: u32, F: FnMut(Board)>(
    cells: u64,
    geometry: Geometry,
    mut visit: F,
) where
    Wide<W>: Frame,
{
    let mut rest = cells;
    while rest != 0 {
        let component = Wide::<W>::component(rest & rest.wrapping_neg(), rest);
        rest ^= component;
        visit(wide_frame_component::<W>(component, geometry));
    }
}

/// A component of a wide frame's set, anchored: in the 8 x 8 frame when it
/// fits, else in the wide frame (`geometry`).
#[inline]
fn wide_frame_component<const W: u32>(component: u64, geometry: Geometry) -> Board
where
    Wide<W>: Frame,
{
    let (anchored, rows, cols) = Wide::<W>::anchor_and_extent(component);
    if cols <= 8 {
        Board::in_frame(SQUARE, restride(anchored, W as usize, 8, rows))
    } else {
        Board::in_frame(geometry, anchored)
    }
}

impl Board {
    /// A board of `geometry` (a frame) with the given cells, which fit it.
    #[inline]
    pub(crate) const fn in_frame(geometry: Geometry, cells: u64) -> Board {
        Board {
            geometry,
            cells: Bitboard(cells),
        }
    }
}

impl fmt::Debug for Board {
    /// Draws the board, `1` for a one and `.` for a zero.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {:?}", self.geometry)?;
        for row in 0..self.rows() {
            for col in 0..self.cols() {
                f.write_str(if self.get(row, col) { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A [`Board`] literal, one string per row, `1`/`#` for a one and `0`/`.`
/// for a zero (spaces ignored). Evaluated at compile time in `const`
/// contexts.
///
/// # Examples
///
/// ```
/// let board = grundy::board![
///     "1 1 0",
///     "0 1 1",
/// ];
/// assert_eq!((board.rows(), board.cols()), (2, 3));
/// assert!(board.get(1, 2) && !board.get(1, 0));
/// ```
#[macro_export]
macro_rules! board {
    ($($row:literal),+ $(,)?) => {
        $crate::clear::Board::from_rows(&[$($row),+])
    };
}
