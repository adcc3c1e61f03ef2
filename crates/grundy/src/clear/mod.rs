//! Rectangle clearing: a move picks an axis-parallel rectangle whose cells are
//! all 1 and sets them to 0; who cannot move loses.
//!
//! **Components.** A rectangle of ones is 4-connected, so every move lies
//! inside one 4-connected component of the ones and leaves the others as they
//! were: the components are independent games and the board's value is the
//! XOR of theirs. [`Clear`] splits each position into components by a
//! bit-parallel flood fill and cuts each down to its bounding box.
//!
//! **Canonical shapes.** A component's value depends only on its shape: a
//! translation maps rectangles to rectangles, and so does each of the 8
//! symmetries of the square (rotations and reflections, which may swap the
//! bounding box's sides). The memo key is the least of the 8 images, so each
//! shape is solved once.
//!
//! **Known values.** A component whose bounding box fits 4 x 4 is looked up in
//! the 65,536-entry table ([`value4x4`]), built once on first use by a DP over
//! the subsets in increasing order (every option of a set is a smaller number).
//! A straight line of `k` cells has value `k`: its options are two lines of
//! `a + b < k` cells, of value `a ^ b <= a + b < k`, and every `v < k` is
//! reached by `a = v, b = 0`.
//!
//! **Cost.** A position's moves are found by growing runs of ones along each
//! row and extending them downwards, O(number of rectangles). The number of
//! shapes reachable from a component grows quickly past about 30 cells, so
//! searches take a [`Budget`](crate::Budget).
//!
//! Boards are at most 64 cells (any `rows x cols` with `rows * cols <= 64`);
//! the solver is generic over [`Game`], so a wider board type only needs its
//! own `Game` implementation.

mod bitboard;
mod board;
pub mod census;
mod frame;
mod memo;
pub mod shapes;

pub use bitboard::{Bitboard, Cells, Subsets};
pub use board::{Board, BoardError, Geometry, GrowMasks, Rect, MAX_CELLS};
pub use memo::ShapeTable;
pub mod table;
pub use table::value4x4;

use crate::{Game, Nimber, Solver};
use shapes::ShapeLookup;

/// The rules of rectangle clearing, for the [`Solver`].
///
/// # Examples
///
/// ```
/// use grundy::clear::{Board, Clear};
/// use grundy::Nimber;
///
/// let board: Board = grundy::board!["0110", "0000", "0000", "0001"];
/// let mut solver = Clear::solver();
/// // Two components: a domino (value 2) and a single cell (value 1).
/// assert_eq!(solver.value(&board).unwrap(), Nimber::new(3));
/// let winning = solver.winning_moves(&board).unwrap();
/// assert!(winning.iter().all(|(_, after)| solver.value(after).unwrap().is_zero()));
/// ```
#[derive(Clone, Copy)]
pub struct Clear {
    use_known_values: bool,
    shapes: Option<&'static dyn ShapeLookup>,
}

impl Default for Clear {
    fn default() -> Self {
        Clear {
            use_known_values: true,
            shapes: None,
        }
    }
}

impl std::fmt::Debug for Clear {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clear")
            .field("use_known_values", &self.use_known_values)
            .field("shapes", &self.shapes.is_some())
            .finish()
    }
}

impl Clear {
    /// The rules, with the 4 x 4 table and the line formula as known values.
    #[must_use]
    pub fn new() -> Clear {
        Clear::default()
    }

    /// The rules without known values: every component is searched. Slower;
    /// for cross-checks of the table and the formulas.
    #[must_use]
    pub fn without_known_values() -> Clear {
        Clear {
            use_known_values: false,
            shapes: None,
        }
    }

    /// The rules, also reading component values from solved shape tables
    /// ([`shapes::ShapeTables`], or a list of them): a component whose shape
    /// a table holds is one lookup instead of a search.
    #[must_use]
    pub fn with_shapes(shapes: &'static dyn ShapeLookup) -> Clear {
        Clear {
            use_known_values: true,
            shapes: Some(shapes),
        }
    }

    /// A fresh solver with these rules (see [`Clear::solver`]).
    #[must_use]
    pub fn into_solver(self) -> ClearSolver {
        Solver::with_table(self, ShapeTable::new())
    }

    /// A fresh solver with these rules.
    #[must_use]
    pub fn solver() -> ClearSolver {
        Solver::with_table(Clear::new(), ShapeTable::new())
    }
}

/// The solver [`Clear::solver`] makes: the rules with the shape memo.
pub type ClearSolver = Solver<Clear, ShapeTable>;

/// A canonical shape: the least image of a component under the 8 symmetries,
/// cut to its bounding box.
pub type ShapeKey = (u8, u8, u64);

impl Game for Clear {
    type Position = Board;
    type Move = Rect;
    type Key = ShapeKey;

    fn for_each_option<F: FnMut(Rect, Board)>(&self, board: &Board, mut visit: F) {
        board.for_each_rect(|rect, mask| visit(rect, board.play_unchecked_mask(mask)));
    }

    fn for_each_component<F: FnMut(Board)>(&self, board: &Board, mut visit: F) {
        if !board.for_each_component_8x8(&mut visit)
            && !board.for_each_component_in_wide_frame(&mut visit)
        {
            board.for_each_component_wide(visit);
        }
    }

    fn key(&self, component: &Board) -> ShapeKey {
        component.canonical()
    }

    fn known_value(&self, component: &Board) -> Option<Nimber> {
        if !self.use_known_values {
            return None;
        }
        let geometry = component.geometry();
        let cells = component.cells();
        if cells.is_empty() {
            return Some(Nimber::ZERO);
        }
        if geometry == board::SQUARE {
            // The solver's components in the 8 x 8 frame, anchored at the
            // top-left: a 4 x 4 corner is the table's four low nibbles.
            let square = cells.0;
            if square & !0x0F0F_0F0F == 0 {
                let packed = (square & 0xF)
                    | ((square >> 4) & 0xF0)
                    | ((square >> 8) & 0xF00)
                    | ((square >> 12) & 0xF000);
                return Some(value4x4(packed));
            }
            let (rows, cols) = board::extent_8x8(square);
            // A full bounding box one cell thick is a straight line.
            let is_line = (rows == 1 || cols == 1) && cells.count() as usize == rows * cols;
            if is_line {
                return Some(Nimber::new(cells.count()));
            }
            return self.shapes.and_then(|s| s.value_8x8(square));
        }
        if let Some(extent @ (rows, cols, anchored)) = component.wide_frame_extent() {
            // A component wider than 8 in a wide frame: a straight line when
            // it is one full row, else perhaps in a table.
            if rows == 1 && anchored.count_ones() as usize == cols {
                return Some(Nimber::new(cells.count()));
            }
            return self
                .shapes
                .and_then(|s| s.value_wide(rows, cols, component.wide_frame_cut(extent)));
        }
        let (rows, cols) = (geometry.rows(), geometry.cols());
        if rows <= 4 && cols <= 4 {
            return Some(value4x4(
                component
                    .repack(Geometry::new(4, 4).expect("4 x 4"))
                    .cells()
                    .0,
            ));
        }
        // A component cut to its bounding box: a full single row or column
        // is a straight line.
        if (rows == 1 || cols == 1) && cells == geometry.full() {
            return Some(Nimber::new(cells.count()));
        }
        self.shapes.and_then(|s| s.value_wide(rows, cols, cells.0))
    }
}

#[cfg(test)]
mod tests;
