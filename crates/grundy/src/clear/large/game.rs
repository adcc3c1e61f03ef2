//! Rectangle clearing on shapes of any size, as a [`Game`] the generic
//! [`Solver`](crate::Solver) searches.
//!
//! A position is a [`Part`]: a small [`Board`] (at most 64 cells), handed
//! to the [`Clear`] rules as it is, with their tables, shape databases and
//! canonical forms; or a [`LargeBoard`], whose options are its rectangles of
//! ones and whose components are cut to their bounding box and become small
//! boards as soon as the box holds 64 cells or fewer. The memo key of a
//! large component is its least image under the 8 symmetries
//! ([`ShapeClass`]), so congruent shapes share a value as small ones do.
//! Correct for the same reasons as [`Clear`]: the components are
//! independent games, and each symmetry maps rectangles of ones to
//! rectangles of ones.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::grid::{Extent, LargeBoard, LargeRect};
use crate::clear::{Board, Clear, MemoKey};
use crate::{Game, Nimber, OptionPart};

/// A position of [`LargeClear`]: a small board or a large one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// At most 64 cells.
    Small(Board),
    /// Any size, shared because options copy it.
    Large(Arc<LargeBoard>),
}

impl Part {
    /// The board as a part: small when it fits 64 cells.
    #[must_use]
    pub fn of(board: LargeBoard) -> Part {
        match board.to_board() {
            Some(small) => Part::Small(small),
            None => Part::Large(Arc::new(board)),
        }
    }

    /// The number of ones.
    #[must_use]
    pub fn count_ones(&self) -> u64 {
        match self {
            Part::Small(board) => u64::from(board.cells().count()),
            Part::Large(board) => board.count_ones(),
        }
    }
}

/// The canonical class of a shape: the key congruent shapes share.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShapeClass {
    /// A shape whose bounding box holds at most 64 cells: the key of
    /// [`Board::canonical`], as the small solver's memo has it.
    Small(MemoKey),
    /// A larger shape: its least image under the 8 symmetries, cut to its
    /// bounding box.
    Large(Arc<LargeBoard>),
}

impl ShapeClass {
    /// The class of `shape`, cut to its bounding box already.
    #[must_use]
    pub fn of_cut(shape: &LargeBoard) -> ShapeClass {
        if let Some(board) = shape.to_board() {
            return ShapeClass::Small(board.canonical());
        }
        ShapeClass::Large(Arc::new(least_image(shape)))
    }

    /// The class of a small board cut to its bounding box.
    #[must_use]
    pub fn of_board(board: &Board) -> ShapeClass {
        ShapeClass::Small(board.canonical())
    }
}

/// The least image of `shape` under the 8 symmetries, by rows, columns,
/// then words. An image whose sides order after the shape's own (a
/// transpose of a board with fewer rows than columns) is never the least,
/// so it is not made.
#[must_use]
pub fn least_image(shape: &LargeBoard) -> LargeBoard {
    let sides = (shape.rows(), shape.cols());
    let transposed_sides = (shape.cols(), shape.rows());
    let mut best = shape.clone();
    for symmetry in 1..8u8 {
        let image_sides = if symmetry & 4 != 0 {
            transposed_sides
        } else {
            sides
        };
        if image_sides > (best.rows(), best.cols()) {
            continue;
        }
        let image = shape.transform(symmetry);
        if image_sides < (best.rows(), best.cols()) || image.words() < best.words() {
            best = image;
        }
    }
    best
}

/// Rectangle clearing on [`Part`]s: small boards by [`Clear`], large ones
/// by rectangles and run-based components.
#[derive(Clone, Debug, Default)]
pub struct LargeClear {
    clear: Clear,
    /// When set, a large position's options stop being listed past this
    /// instant: one expansion can list thousands of rectangles, each a copy
    /// and a labelling, while the solver reads its clock only every few
    /// thousand positions.
    deadline: Option<(Instant, Duration)>,
    /// The most bytes one large position's options may hold while the
    /// solver keeps them (a full 100 x 100 board has 25,502,500
    /// rectangles, each leaving a copy).
    max_option_bytes: u64,
    /// The most options one large position's listing makes.
    max_listed: Option<u64>,
    /// The bytes the search held pending, and all it held, when this
    /// listing began ([`Game::hold_pending`]).
    pending_bytes: Cell<usize>,
    held_bytes: Cell<usize>,
    stopped: RefCell<Option<crate::SolveError>>,
    /// Set from outside to stop the search ([`LargeClear::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
}

/// How fast the parts a stopped search held are given back, in bytes as
/// [`Game::heap_bytes`] counts them a second, with room to spare: each
/// part is two small allocations (its `Arc` and its words), and freeing
/// millions of them, with the allocator's consolidation that follows,
/// takes about 1.2 ms a megabyte of peak memory (docs/results.md, "Wide
/// and long shapes under a time budget").
const RELEASED_BYTES_PER_SECOND: f64 = 400e6;

/// How many bytes of options a large position's listing makes between two
/// checks of its limits (at most 256 options apart).
const CHECK_BYTES: u64 = 1 << 20;

/// [`LargeClear`]'s bound on one expansion, and the large-shape search's
/// memory budget, when the budget gives no memory limit.
pub const DEFAULT_MAX_OPTION_BYTES: u64 = 1 << 30;

impl LargeClear {
    /// These rules over small-board rules `clear` (with their tables and
    /// databases).
    #[must_use]
    pub fn new(clear: Clear) -> LargeClear {
        LargeClear {
            clear,
            deadline: None,
            max_option_bytes: DEFAULT_MAX_OPTION_BYTES,
            max_listed: None,
            pending_bytes: Cell::new(0),
            held_bytes: Cell::new(0),
            stopped: RefCell::new(None),
            stop: None,
        }
    }

    /// Stops listing options, and the search, with
    /// [`SolveError::Stopped`](crate::SolveError::Stopped) once `stop` is
    /// set (`None`: never).
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// True once the flag of [`LargeClear::set_stop`] is set.
    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// Stops listing options at `deadline` (reported as the time budget
    /// `limit`), or never for `None`; once one large position's options,
    /// with what the search holds, would pass `max_option_bytes`; and once
    /// one large position has listed more options than `max_positions`
    /// (the position budget: each option is a position examined, and one
    /// expansion of a large board can list millions).
    pub fn set_limits(
        &mut self,
        deadline: Option<(Instant, Duration)>,
        max_option_bytes: u64,
        max_positions: Option<u64>,
    ) {
        self.deadline = deadline;
        self.max_option_bytes = max_option_bytes;
        self.max_listed = max_positions;
        *self.stopped.borrow_mut() = None;
    }

    /// True once a limit stopped a listing (and from then on).
    fn check_limits(&self, listed: u64, option_bytes: u64) -> bool {
        if self.stopped_now() {
            return true;
        }
        if self.stop_requested() {
            *self.stopped.borrow_mut() = Some(crate::SolveError::Stopped);
            return true;
        }
        if let Some(limit) = self.max_listed.filter(|&limit| listed > limit) {
            *self.stopped.borrow_mut() = Some(crate::SolveError::PositionBudget {
                limit,
                needed: None,
            });
            return true;
        }
        // What the search holds and what this listing made share one budget.
        let used = option_bytes.saturating_add(self.held_bytes.get() as u64);
        if used > self.max_option_bytes {
            *self.stopped.borrow_mut() = Some(crate::SolveError::MemoryBudget {
                limit: self.max_option_bytes,
                used,
            });
        } else if let Some((deadline, limit)) = self.deadline {
            let held = usize::try_from(option_bytes)
                .unwrap_or(usize::MAX)
                .saturating_add(self.pending_bytes.get());
            let stop_at = Instant::now().checked_add(self.release_time(held));
            if stop_at.is_none_or(|at| at >= deadline) {
                *self.stopped.borrow_mut() = Some(crate::SolveError::TimeBudget { limit });
            }
        }
        self.stopped_now()
    }

    fn stopped_now(&self) -> bool {
        self.stopped.borrow().is_some()
    }

    /// The small-board rules.
    #[must_use]
    pub fn clear(&self) -> &Clear {
        &self.clear
    }
}

/// Calls `visit` with each component of `board`, cut to its box, as a part.
pub(crate) fn large_components<F: FnMut(Part)>(board: &LargeBoard, mut visit: F) {
    let components = board.components();
    for index in 0..components.len() {
        let runs = components.runs(index);
        let extent = Extent::of(runs);
        match LargeBoard::board_from_runs(runs, &extent) {
            Some(small) => visit(Part::Small(small)),
            None => visit(Part::Large(Arc::new(LargeBoard::from_runs(runs, &extent)))),
        }
    }
}

impl Game for LargeClear {
    type Position = Part;
    type Move = LargeRect;
    type Key = ShapeClass;

    // A large part and a large key are boards behind an `Arc`: the solver
    // holds one a pending part and one a memoised shape, which its memory
    // budget must count (a wide shape's expansion lists thousands).
    const HEAP: bool = true;

    fn heap_bytes(&self, position: Option<&Part>, key: &ShapeClass) -> usize {
        // The `Arc`'s counts and the board's fields beside its words, and
        // the allocator's own bytes for its two allocations (the `Arc` and
        // the words): glibc's malloc adds an 8-byte header to each and
        // rounds it up to 16 bytes. Without them the process grew about 5%
        // past `--max-memory` on a 50 x 50 board (`/usr/bin/time grundy
        // clear --max-memory 1000MB BOARD`: 1000.5 MiB against 953.7 MiB).
        const MALLOC: usize = 2 * 16;
        const BOARD: usize =
            2 * std::mem::size_of::<usize>() + std::mem::size_of::<LargeBoard>() + MALLOC;
        let part = match position {
            Some(Part::Large(board)) => BOARD + board.allocated_bytes(),
            _ => 0,
        };
        let key = match key {
            ShapeClass::Large(board) => BOARD + board.allocated_bytes(),
            ShapeClass::Small(_) => 0,
        };
        part + key
    }

    fn release_time(&self, bytes: usize) -> Duration {
        Duration::from_secs_f64(bytes as f64 / RELEASED_BYTES_PER_SECOND)
    }

    fn hold_pending(&self, pending: usize, held: usize) {
        self.pending_bytes.set(pending);
        self.held_bytes.set(held);
    }

    fn for_each_option<F: FnMut(LargeRect, Part)>(&self, position: &Part, mut visit: F) {
        match position {
            Part::Small(board) => {
                self.clear.for_each_option(board, |rect, after| {
                    visit(LargeRect::from(rect), Part::Small(after));
                });
            }
            Part::Large(board) => {
                let mut listed = 0u64;
                // An option leaves at most the board's cells, held twice
                // while pending: as its parts and as their memo keys (the
                // canonical images), each a board of its own.
                let each = 2 * (board.allocated_bytes() as u64 + 64);
                // Each option is a copy of the board, labelled and given its
                // canonical form: on a board of megabytes, 256 options are
                // seconds and gigabytes, so the limits are then checked at
                // every option.
                let interval = (CHECK_BYTES / each)
                    .clamp(1, 256)
                    .min(self.max_listed.map_or(u64::MAX, |limit| limit + 1));
                board.for_each_rect_while(|rect| {
                    listed += 1;
                    if listed % interval == 0 && self.check_limits(listed, listed * each) {
                        return false;
                    }
                    if self.stopped_now() {
                        return false;
                    }
                    let mut after = LargeBoard::clone(board);
                    after.play_unchecked(rect);
                    visit(rect, Part::Large(Arc::new(after)));
                    true
                });
            }
        }
    }

    fn for_each_component<F: FnMut(Part)>(&self, position: &Part, mut visit: F) {
        match position {
            Part::Small(board) => self
                .clear
                .for_each_component(board, |component| visit(Part::Small(component))),
            Part::Large(board) => large_components(board, visit),
        }
    }

    fn for_each_option_part<F>(&self, component: &Part, mut visit: F)
    where
        F: FnMut(OptionPart<Part, ShapeClass>),
    {
        match component {
            Part::Small(board) => self.clear.for_each_option_part(board, |part| {
                visit(match part {
                    OptionPart::Known(value) => OptionPart::Known(value),
                    OptionPart::Unknown(board, key) => {
                        OptionPart::Unknown(Part::Small(board), ShapeClass::Small(key))
                    }
                    OptionPart::Lookup(board, key) => {
                        OptionPart::Lookup(Part::Small(board), ShapeClass::Small(key))
                    }
                    OptionPart::End => OptionPart::End,
                });
            }),
            Part::Large(_) => crate::game::option_parts_by_components(self, component, visit),
        }
    }

    fn key(&self, component: &Part) -> ShapeClass {
        match component {
            Part::Small(board) => ShapeClass::Small(self.clear.key(board)),
            Part::Large(board) => ShapeClass::of_cut(board),
        }
    }

    /// The ones, as [`Clear::search_cost`](crate::Game::search_cost).
    fn search_cost(&self, component: &Part) -> u64 {
        component.count_ones()
    }

    fn interrupted(&self) -> Option<crate::SolveError> {
        // Asked after every expansion, so the flag also ends a search whose
        // listings are too short to check it themselves.
        if self.stop_requested() {
            return Some(crate::SolveError::Stopped);
        }
        self.stopped.borrow().clone()
    }

    fn known_value(&self, component: &Part) -> Option<Nimber> {
        match component {
            Part::Small(board) => self.clear.known_value(board),
            Part::Large(board) => {
                // A straight line of k cells has value k (see the module
                // docs of `clear`); a component cut to its box is a line
                // when one side is 1 and every cell is a one. A shape that
                // is its own half turn about an uncovered middle has value
                // 0 (`half_turn`).
                let line = board.rows() == 1 || board.cols() == 1;
                let cells = u64::from(board.rows()) * u64::from(board.cols());
                if line && board.count_ones() == cells {
                    return u32::try_from(cells).ok().map(Nimber::new);
                }
                super::half_turn::is_lost(board).then_some(Nimber::ZERO)
            }
        }
    }
}
