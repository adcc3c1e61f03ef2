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
//! One that fits 4 x 5 (either way round) is looked up in the 2^20-entry table
//! ([`value4x5`]), and one of at most two rows (or columns) of at most 8 in
//! the 65,536-entry table ([`value2x8`]), both built the same way by the
//! build script, into the binary. In a search of a full 5 x 5 board about half the
//! components that are not 4 x 4 fit 4 x 5, and on a 2 x n board most
//! components have two rows: each is then one load, not a canonical form and
//! a memo probe. With a shape database, those two tables are taken only when
//! a search starts (a position no table knows is expanded); until then the
//! database answers their shapes, so listing the moves of a position the
//! database holds (a full 5 x 5 board with the built-in 5 x 5 database)
//! reads nothing of them. A larger
//! component the database holds is listed as a lookup
//! ([`OptionPart::Lookup`]), not read at once: a database read is two cache
//! misses one after the other, where the solver's memo probes of a
//! position's parts are prefetched together, so the solver finds the value
//! in its memo and reads the database once per distinct shape. Which sizes
//! the databases hold is asked once, when the rules are made, not through
//! the trait object at each part.
//! A straight line of `k` cells has value `k`: its options are two lines of
//! `a + b < k` cells, of value `a ^ b <= a + b < k`, and every `v < k` is
//! reached by `a = v, b = 0`.
//!
//! **Options from the move.** A position's moves are found by growing runs of
//! ones along each row and extending them downwards, O(number of
//! rectangles). The solver expands a component (a connected set), and every
//! component of an option then holds a cell next to the rectangle removed:
//! [`Game::for_each_option_part`] starts each flood fill there and stops it
//! as soon as it holds every remaining cell next to the rectangle, where a
//! plain fill runs to the far end of the shape. What is left once one
//! component is found, when it fits 4 x 5 or 2 x 8, is valued by a table at
//! once, however many components it holds. Each component is anchored and measured
//! once, and that one extent serves the known values and the memo key. In
//! the 8 x 8 frame the value search takes the rectangles eight at a time
//! (`bits/lanes.rs`): the first fill, the anchoring and the canonical form
//! of the eight options run as vector instructions, with no branch on a
//! fill's length or a shape's sides, and only what is left once the first
//! component is taken is worked one option at a time, but for the choice
//! of the small table that values it, also made in the lanes (measured in
//! docs/benchmarks.md, "Eight options at once").
//!
//! **Cost.** The number of shapes reachable from a component grows quickly
//! past about 30 cells, so searches take a [`Budget`](crate::Budget).
//!
//! A [`Board`] is at most 64 cells (any `rows x cols` with `rows * cols <=
//! 64`); boards of any size are [`large::LargeBoard`]s, whose components
//! come back here whenever their bounding box holds 64 cells or fewer.

mod bitboard;
mod bits;
mod board;
pub mod census;
mod frame;
mod helper;
mod key;
pub mod large;
mod memo;
pub mod shapes;

pub use bitboard::{Bitboard, Cells, Subsets};
pub use bits::Rect;
pub use board::{Board, BoardError, Geometry, GrowMasks, MAX_CELLS};
pub use helper::default_threads;
pub use key::{KeyError, ShapeKey};
pub use memo::ShapeTable;
pub mod table;
pub use table::{value2x8, value4x4, value4x5};

use std::sync::{Arc, OnceLock};

use crate::{Game, Nimber, OptionPart, Solver};
use bits::lanes::{self, Lanes, LANES};
use bits::{square, wide};
use frame::{Frame, OptionCells, Square, Wide};
use shapes::ShapeLookup;
use table::SmallTables;

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
#[derive(Clone)]
pub struct Clear {
    /// The 4 x 4 table when known values are on (held here so a lookup
    /// skips the table's lazy initialisation check).
    table4x4: Option<&'static [u8; 1 << 16]>,
    /// The 4 x 5 and 2 x 8 tables once these rules (or a clone) have
    /// taken them: on their first search with a shape database (until
    /// then the database answers those shapes), on their first lookup of
    /// such a shape without one.
    small: Arc<OnceLock<&'static SmallTables>>,
    /// Shape databases, shared with whoever else holds them (a server's
    /// handlers, a Python object); dropped with the last holder.
    shapes: Option<Arc<dyn ShapeLookup>>,
    /// The sizes that `shapes` holds: bit `long - 1` of entry `short - 1`
    /// for a box of sides `short <= long` (see [`Clear::holds_size`]),
    /// asked of `shapes` once, where asking at each part is a call through
    /// the trait object.
    held: [u64; 8],
}

/// The sizes that `shapes` holds, as [`Clear`]'s `held`: every size of the
/// 8 x 8 frame and of the wide frames (short side up to 8, at most 64
/// cells). [`ShapeLookup::holds`] depends on the size alone, so the full
/// rectangle of each size answers for every shape of that size.
fn held_sizes(shapes: &dyn ShapeLookup) -> [u64; 8] {
    let mut held = [0; 8];
    for short in 1..=8 {
        for long in short..=64 / short {
            let full = if long <= 8 {
                let row = (1u64 << long) - 1;
                ShapeKey::from_canonical_8x8(
                    (0..short).fold(0, |c, r| c | row << (8 * r)),
                    short,
                    long,
                )
            } else {
                ShapeKey::from_canonical_cut(short, long, u64::MAX >> (64 - short * long))
            };
            if shapes.holds(&full) {
                held[short - 1] |= 1 << (long - 1);
            }
        }
    }
    held
}

impl Default for Clear {
    fn default() -> Self {
        Clear {
            table4x4: Some(table::table()),
            small: Arc::default(),
            shapes: None,
            held: [0; 8],
        }
    }
}

impl std::fmt::Debug for Clear {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clear")
            .field("use_known_values", &self.table4x4.is_some())
            .field("shapes", &self.shapes.is_some())
            .finish()
    }
}

/// Why [`Clear::known_8x8_or_key`] gave no value.
enum Unknown8x8 {
    /// The shape databases hold the shape (its canonical form) but were not
    /// asked.
    Held(u64),
    /// Nothing knows the shape; its canonical form when it was computed.
    Unknown(Option<u64>),
}

impl Clear {
    /// The rules, with the small tables (4 x 4 at once; 4 x 5 and 2 x 8 once
    /// a search starts) and the line formula as known values.
    #[must_use]
    pub fn new() -> Clear {
        Clear::default()
    }

    /// The rules without known values: every component is searched. Slower;
    /// for cross-checks of the table and the formulas.
    #[must_use]
    pub fn without_known_values() -> Clear {
        Clear {
            table4x4: None,
            small: Arc::default(),
            shapes: None,
            held: [0; 8],
        }
    }

    /// The rules, also reading component values from solved shape tables
    /// ([`shapes::ShapeTables`], a database, or a list of them), asked by
    /// [`ShapeKey`]: a component whose shape a table holds is one lookup
    /// instead of a search. The rules share the tables with whoever else
    /// holds them; they are dropped with the last holder. The 4 x 5 and
    /// 2 x 8 tables are taken only once a search starts: listing the moves
    /// of a position the database holds builds nothing.
    #[must_use]
    pub fn with_shapes(shapes: Arc<dyn ShapeLookup>) -> Clear {
        Clear {
            held: held_sizes(&*shapes),
            shapes: Some(shapes),
            ..Clear::default()
        }
    }

    /// Whether these rules have taken the 4 x 5 and 2 x 8 tables (see
    /// [`Clear::with_shapes`]): a search does, listing the moves of a
    /// position a shape database holds does not.
    #[inline]
    #[must_use]
    pub fn small_tables_taken(&self) -> bool {
        self.small.get().is_some()
    }

    /// True when the shape databases hold shapes of `rows x cols` (either
    /// way round; sides from 1, the short one up to 8).
    #[inline(always)]
    fn holds_size(&self, rows: usize, cols: usize) -> bool {
        self.held[rows.min(cols) - 1] >> (rows.max(cols) - 1) & 1 != 0
    }

    /// The 4 x 5 and 2 x 8 tables, taken now if they were not.
    fn take_small_tables(&self) -> &'static SmallTables {
        self.small.get_or_init(SmallTables::shared)
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

/// The memo key of a component: the least image under the 8 symmetries,
/// cut to its bounding box, as `(0, 0, bits)` in the 8 x 8 frame and
/// `(rows, cols, bits)` past it (see [`Board::canonical`]). Shape databases
/// are asked by the validated [`ShapeKey`] instead.
pub type MemoKey = (u8, u8, u64);

impl Game for Clear {
    type Position = Board;
    type Move = Rect;
    type Key = MemoKey;

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

    fn for_each_option_part<F>(&self, board: &Board, mut visit: F)
    where
        F: FnMut(OptionPart<Board, MemoKey>),
    {
        self.take_small_tables_to_expand(board);
        let (geometry, cells) = (board.geometry(), board.cells().0);
        let in_frame = if geometry == board::SQUARE {
            self.option_parts_8x8(cells, &mut visit, &|| false)
        } else if geometry == board::WIDE16 {
            self.wide_option_parts::<16, F>(cells, geometry, &mut visit)
        } else if geometry == board::WIDE32 {
            self.wide_option_parts::<32, F>(cells, geometry, &mut visit)
        } else {
            false
        };
        if !in_frame {
            crate::game::option_parts_by_components(self, board, visit);
        }
    }

    /// The 8 x 8 frame's listing of [`Game::for_each_option_part`], which
    /// stops at the stop: the rectangles after it are only counted off,
    /// with no fill, canonical form or lookup. Other boards list every
    /// option, as the default does.
    fn for_each_option_part_until<F>(&self, board: &Board, mut visit: F)
    where
        F: FnMut(OptionPart<Board, MemoKey>) -> bool,
    {
        if board.geometry() == board::SQUARE {
            self.take_small_tables_to_expand(board);
            let stopped = std::cell::Cell::new(false);
            let in_frame = self.option_parts_8x8(
                board.cells().0,
                &mut |part| stopped.set(visit(part)),
                &|| stopped.get(),
            );
            if in_frame {
                return;
            }
        }
        self.for_each_option_part(board, crate::game::until(visit));
    }

    fn key(&self, component: &Board) -> MemoKey {
        component.canonical()
    }

    /// The cells: the shapes reachable from a component grow quickly with
    /// its cells.
    fn search_cost(&self, component: &Board) -> u64 {
        u64::from(component.cells().count())
    }

    fn known_value(&self, component: &Board) -> Option<Nimber> {
        self.table4x4?;
        let square = component.cells().0;
        if component.geometry() != board::SQUARE {
            return self.known_value_outside_8x8(component);
        }
        if square == 0 {
            return Some(Nimber::ZERO);
        }
        let (anchored, rows, cols) = square::anchor_and_extent_8x8(square);
        self.known_8x8(anchored, rows, cols)
    }
}

impl Clear {
    /// The known value of a `rows x cols` shape anchored in the 8 x 8 frame:
    /// the 4 x 4 table, the 4 x 5 or 2 x 8 tables (either way round), or the
    /// shape tables.
    // Always inlined: it is the body of the hot loop's component step, and
    // left to itself the compiler calls it (3% more instructions on the
    // full 5 x 5 board, counted by cachegrind).
    #[inline(always)]
    fn known_8x8(&self, anchored: u64, rows: usize, cols: usize) -> Option<Nimber> {
        self.known_8x8_or_key::<true>(anchored, rows, cols, || {
            square::canonical_8x8(anchored, rows, cols)
        })
        .ok()
    }

    /// [`Clear::known_8x8`], or why not: the shape databases hold the shape
    /// but were not asked (`LOOK_UP` false), or nothing knows it; with the
    /// canonical form when it was computed (the memo key). `canonical`
    /// gives the shape's canonical form when it is needed.
    #[inline(always)]
    fn known_8x8_or_key<const LOOK_UP: bool>(
        &self,
        anchored: u64,
        rows: usize,
        cols: usize,
        canonical: impl FnOnce() -> u64,
    ) -> Result<Nimber, Unknown8x8> {
        let Some(table) = self.table4x4 else {
            return Err(Unknown8x8::Unknown(None));
        };
        if rows <= 4 && cols <= 4 {
            return Ok(Nimber::new(u32::from(
                table[square::corner_4x4(anchored) as usize],
            )));
        }
        // The 4 x 5 and 2 x 8 tables, either way round; at most two rows (or
        // columns) of at most 8 index the 2 x 8 table by the frame's first
        // two bytes (this takes in the straight lines of the frame too).
        if rows <= 4 && cols <= 5 {
            let index = square::corner_4x5(anchored);
            return self.small_table(index, (anchored, rows, cols), SmallTables::value_4x5);
        }
        if rows <= 5 && cols <= 4 {
            let index = square::corner_4x5(square::transpose_8x8(anchored));
            return self.small_table(index, (anchored, rows, cols), SmallTables::value_4x5);
        }
        if rows <= 2 {
            let index = anchored & 0xFFFF;
            return self.small_table(index, (anchored, rows, cols), SmallTables::value_2x8);
        }
        if cols <= 2 {
            let index = square::transpose_8x8(anchored) & 0xFFFF;
            return self.small_table(index, (anchored, rows, cols), SmallTables::value_2x8);
        }
        let Some(shapes) = self.shapes.as_deref() else {
            return Err(Unknown8x8::Unknown(None));
        };
        let canonical = canonical();
        if LOOK_UP {
            shapes
                .lookup(&ShapeKey::from_canonical_8x8(canonical, rows, cols))
                .ok_or(Unknown8x8::Unknown(Some(canonical)))
        } else if self.holds_size(rows, cols) {
            Err(Unknown8x8::Held(canonical))
        } else {
            Err(Unknown8x8::Unknown(Some(canonical)))
        }
    }

    /// The value the shape databases hold for a `rows x cols` shape
    /// anchored in the 8 x 8 frame (its canonical form is the key).
    #[inline(always)]
    fn shapes_8x8(&self, anchored: u64, rows: usize, cols: usize) -> Option<Nimber> {
        let shapes = self.shapes.as_deref()?;
        let canonical = square::canonical_8x8(anchored, rows, cols);
        shapes.lookup(&ShapeKey::from_canonical_8x8(canonical, rows, cols))
    }

    /// The value at `index` of a small table (`read` of the tables) once
    /// these rules have taken the tables. Until then a shape database
    /// answers the shape (see `for_each_option_part`, which takes the
    /// tables once a search starts), so listing the moves of a position the
    /// database holds reads the database alone; without a database the
    /// tables are taken now.
    #[inline(always)]
    fn small_table(
        &self,
        index: u64,
        (anchored, rows, cols): (u64, usize, usize),
        read: fn(&SmallTables, u64) -> Nimber,
    ) -> Result<Nimber, Unknown8x8> {
        Ok(match self.small.get() {
            Some(tables) => read(tables, index),
            None => self
                .shapes_8x8(anchored, rows, cols)
                .unwrap_or_else(|| read(self.take_small_tables(), index)),
        })
    }

    /// A component anchored in the 8 x 8 frame as an option part: its value
    /// when a small table knows it, a lookup when the shape databases hold
    /// it (see [`OptionPart::Lookup`]: the memo's prefetched probes are
    /// cheaper than the databases' dependent misses, measured in
    /// `docs/benchmarks.md`), or the component with its key.
    // Always inlined: left to itself the compiler calls it from the
    // option loop (5% more instructions on a full 4 x 6 board with the
    // built-in database, counted by cachegrind).
    #[inline(always)]
    fn part_8x8(&self, anchored: u64, rows: usize, cols: usize) -> OptionPart<Board, MemoKey> {
        self.part_8x8_with(anchored, rows, cols, || {
            square::canonical_8x8(anchored, rows, cols)
        })
    }

    /// [`Clear::part_8x8`] with the canonical form given by `canonical`
    /// when it is needed (the lanes compute it ahead).
    #[inline(always)]
    fn part_8x8_with(
        &self,
        anchored: u64,
        rows: usize,
        cols: usize,
        canonical: impl Fn() -> u64,
    ) -> OptionPart<Board, MemoKey> {
        match self.known_8x8_or_key::<false>(anchored, rows, cols, &canonical) {
            Ok(value) => OptionPart::Known(value),
            Err(Unknown8x8::Held(canonical)) => {
                OptionPart::Lookup(Board::in_frame(board::SQUARE, anchored), (0, 0, canonical))
            }
            Err(Unknown8x8::Unknown(known)) => OptionPart::Unknown(
                Board::in_frame(board::SQUARE, anchored),
                (0, 0, known.unwrap_or_else(canonical)),
            ),
        }
    }

    /// [`Game::for_each_option_part`] of a connected shape of the 8 x 8
    /// frame, eight rectangles at a time: each one's first component
    /// (anchored, with its sides and canonical form) comes from the lanes
    /// of [`lanes`], and only what is left once it is taken (another
    /// component, or a rest the tables value) is worked one option at a
    /// time, as [`frame::option_cells`] does. The listing ends at the first
    /// part after which `stop` is true (the value search's `stop` is never
    /// true, and the compiler drops its tests). False when `cells` is empty
    /// or not connected.
    #[inline]
    fn option_parts_8x8<F, S>(&self, cells: u64, visit: &mut F, stop: &S) -> bool
    where
        F: FnMut(OptionPart<Board, MemoKey>),
        S: Fn() -> bool,
    {
        if cells == 0 || square::component_8x8(cells & cells.wrapping_neg(), cells) != cells {
            return false;
        }
        let mut batch: Lanes = [0; LANES];
        let mut filled = 0;
        square::rects_8x8(cells, |_, rect| {
            if stop() {
                return;
            }
            batch[filled] = rect.0;
            filled += 1;
            if filled == LANES {
                self.option_parts_of_lanes(cells, &batch, LANES, visit, stop);
                filled = 0;
            }
        });
        if filled > 0 && !stop() {
            // The lanes past the last rectangle repeat it, so that every
            // lane holds a rectangle of the shape; their parts are not
            // visited.
            for lane in filled..LANES {
                batch[lane] = batch[filled - 1];
            }
            self.option_parts_of_lanes(cells, &batch, filled, visit, stop);
        }
        true
    }

    /// The option parts of the first `used` of eight rectangles of the
    /// connected 8 x 8 shape `cells`, up to the first after which `stop` is
    /// true (see [`Clear::option_parts_8x8`]).
    #[inline(always)]
    fn option_parts_of_lanes<F, S>(
        &self,
        cells: u64,
        rects: &Lanes,
        used: usize,
        visit: &mut F,
        stop: &S,
    ) where
        F: FnMut(OptionPart<Board, MemoKey>),
        S: Fn() -> bool,
    {
        let rest: Lanes = std::array::from_fn(|lane| cells ^ rects[lane]);
        let open: Lanes = std::array::from_fn(|lane| square::grow_8x8(rects[lane]) & rest[lane]);
        let seed: Lanes = std::array::from_fn(|lane| open[lane] & open[lane].wrapping_neg());
        let first = lanes::fill_touching(seed, rest, open);
        // A rectangle that is the whole shape leaves nothing: its lane is
        // given a cell so that anchoring has a set to work on, and its
        // answer is not used.
        let (anchored, rows, cols) = lanes::anchor_and_extent(first.map(|set| set.max(1)));
        let forms = lanes::canonical(anchored, rows, cols);
        let left: Lanes = std::array::from_fn(|lane| rest[lane] ^ first[lane]);
        let (rest_table, rest_index) = lanes::rest_tables(left.map(|set| set.max(1)));
        // Once the small tables are taken, the lanes decide whether they
        // value what is left of an option after its first component.
        let tables = self.small.get().filter(|_| self.table4x4.is_some());
        for lane in 0..used {
            if rest[lane] != 0 {
                let (rows, cols) = (rows[lane] as usize, cols[lane] as usize);
                visit(self.part_8x8_with(anchored[lane], rows, cols, || forms[lane]));
                if stop() {
                    return;
                }
                let mut left = left[lane];
                let mut open = open[lane] & !first[lane];
                let mut ask_tables = tables.is_none();
                if left != 0 {
                    if let Some(tables) = tables {
                        let index = rest_index[lane];
                        let value = match rest_table[lane] {
                            lanes::TABLE_4X5 => Some(tables.value_4x5(index)),
                            lanes::TABLE_2X8 => Some(tables.value_2x8(index)),
                            _ => None,
                        };
                        if let Some(value) = value {
                            visit(OptionPart::Known(value));
                            if stop() {
                                return;
                            }
                            left = 0;
                        }
                    }
                }
                while left != 0 {
                    if ask_tables && self.take_small_rest(left, visit) {
                        if stop() {
                            return;
                        }
                        break;
                    }
                    ask_tables = true;
                    let component =
                        Square::component_touching(open & open.wrapping_neg(), left, open);
                    left ^= component;
                    open &= !component;
                    let (anchored, rows, cols) = square::anchor_and_extent_8x8(component);
                    visit(self.part_8x8(anchored, rows, cols));
                    if stop() {
                        return;
                    }
                }
            }
            visit(OptionPart::End);
            if stop() {
                return;
            }
        }
    }

    /// Expanding a position no table knows is a search: takes the small
    /// tables now, which pays within it. A position a shape database knows
    /// is expanded only to list its moves, whose options the database
    /// answers too.
    #[inline]
    fn take_small_tables_to_expand(&self, board: &Board) {
        if self.shapes.is_some() && !self.small_tables_taken() && self.known_value(board).is_none()
        {
            self.take_small_tables();
        }
    }

    /// Visits what is left of an option, once a component is found, as one
    /// known value when it fits 4 x 5 or 2 x 8 either way round (the tables
    /// value any set, however many components it holds); true when it did.
    /// Without known values every part stays a component.
    #[inline]
    fn take_small_rest<F>(&self, rest: u64, visit: &mut F) -> bool
    where
        F: FnMut(OptionPart<Board, MemoKey>),
    {
        if self.table4x4.is_none() || (self.shapes.is_some() && !self.small_tables_taken()) {
            return false;
        }
        let (anchored, rows, cols) = square::anchor_and_extent_8x8(rest);
        let fits_4x5 = rows.max(cols) <= 5 && rows.min(cols) <= 4;
        if !fits_4x5 && rows.min(cols) > 2 {
            return false;
        }
        match self.known_8x8(anchored, rows, cols) {
            Some(value) => {
                visit(OptionPart::Known(value));
                true
            }
            None => false,
        }
    }

    /// [`Game::for_each_option_part`] of a connected board in a wide frame
    /// (see [`frame::option_cells`]); false for any other board.
    #[inline]
    fn wide_option_parts<const W: u32, F>(
        &self,
        cells: u64,
        geometry: Geometry,
        visit: &mut F,
    ) -> bool
    where
        Wide<W>: Frame,
        F: FnMut(OptionPart<Board, MemoKey>),
    {
        frame::option_cells::<Wide<W>, _>(cells, |found| match found {
            OptionCells::Component(component) => {
                visit(self.wide_part::<W>(component, geometry));
                false
            }
            OptionCells::Rest(rest) => {
                // A rest that fits a table has at most 8 columns: it moves
                // to the 8 x 8 frame.
                let (anchored, rows, cols) = Wide::<W>::anchor_and_extent(rest);
                cols <= 8
                    && self.take_small_rest(wide::restride(anchored, W as usize, 8, rows), visit)
            }
            OptionCells::End => {
                visit(OptionPart::End);
                false
            }
        })
    }

    /// A component of a wide frame as an option part: in the 8 x 8 frame
    /// when it fits, else a line, a lookup when the shape databases hold it
    /// (as in [`Clear::part_8x8`]), or the component anchored in the wide
    /// frame with its key (the least image at the cut stride,
    /// [`Board::canonical`]'s key).
    #[inline]
    fn wide_part<const W: u32>(
        &self,
        component: u64,
        geometry: Geometry,
    ) -> OptionPart<Board, MemoKey>
    where
        Wide<W>: Frame,
    {
        let (anchored, rows, cols) = Wide::<W>::anchor_and_extent(component);
        let stride = W as usize;
        if cols <= 8 {
            return self.part_8x8(wide::restride(anchored, stride, 8, rows), rows, cols);
        }
        if self.table4x4.is_some() {
            // One full row of ones is a straight line.
            if rows == 1 && anchored & (anchored + 1) == 0 {
                return OptionPart::Known(Nimber::new(cols as u32));
            }
        }
        // The least image cut to its width: the database's key and the
        // memo's, computed once.
        let least = Wide::<W>::canonical(anchored, rows, cols);
        let cut = wide::restride(least, stride, cols, rows);
        let (board, key) = (
            Board::in_frame(geometry, anchored),
            (rows as u8, cols as u8, cut),
        );
        if self.table4x4.is_some() && self.holds_size(rows, cols) {
            return OptionPart::Lookup(board, key);
        }
        OptionPart::Unknown(board, key)
    }
}

impl Clear {
    /// [`Game::known_value`] of a component outside the 8 x 8 frame (an
    /// empty one has value 0 in every frame).
    #[inline(never)]
    fn known_value_outside_8x8(&self, component: &Board) -> Option<Nimber> {
        let geometry = component.geometry();
        let cells = component.cells();
        if cells.is_empty() {
            return Some(Nimber::ZERO);
        }
        if let Some(stride) = component.wide_frame_stride() {
            // The solver's components in a wide frame come anchored: a
            // straight line is one row of ones from bit 0 up (compared as
            // words, where the extent costs column folds).
            let bits = cells.0;
            if bits >> stride == 0 && bits & (bits + 1) == 0 {
                return Some(Nimber::new(64 - bits.leading_zeros()));
            }
            // Else only a table may know it.
            let shapes = self.shapes.as_deref()?;
            return shapes.lookup(&ShapeKey::of_board(component).ok()?);
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
        let shapes = self.shapes.as_deref()?;
        shapes.lookup(&ShapeKey::of_board(component).ok()?)
    }
}

#[cfg(test)]
mod tests;
