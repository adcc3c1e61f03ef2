//! The splitting game: a grid with candidate cells starts as one rectangle;
//! a move picks a rectangle and a candidate `(x, y)` in it and deletes row
//! `x` and column `y` from that rectangle, leaving up to four rectangles.
//! Who cannot move loses.
//!
//! **Value.** A position is a sum of rectangles, so its value is the XOR of
//! theirs; a rectangle's value is the mex, over its candidates, of the XOR
//! of the four parts' values.
//!
//! **Reductions** (each checked against a brute-force twin in `tests.rs`):
//! - *Compression.* A rectangle's value depends only on the order pattern
//!   of its candidates ([`Pattern`]): rows and columns without a candidate
//!   are dropped, so a 10^9 x 10^9 grid with 300 candidates on 40 rows and
//!   40 columns is a 40 x 40 pattern.
//! - *Symmetry.* The 8 symmetries of the square map a move's four parts to
//!   the image move's four parts, so they preserve values
//!   ([`Pattern::canonical`] is the memo key of the generic path).
//! - *Blocks.* When a row cut and a column cut leave the candidates in two
//!   opposite quadrants, the rectangle is the sum of the two
//!   ([`Pattern::blocks`]).
//! - *Closed forms* ([`Pattern::known_value`]): no candidate: 0; candidates
//!   in [line groups](Pattern::line_groups) (isolated candidates, and runs
//!   of a row or a column that no other candidate cuts): the number of
//!   groups mod 2. This covers one row or one column (1) and no two
//!   candidates sharing a row or column (`k mod 2`).
//!
//! **Algorithm.** [`SplitSolver`] compresses each rectangle, splits it into
//! blocks, and values each block by its closed form, else by a
//! [`DenseTable`] of all its sub-rectangles (a band-by-band DP, parallel
//! with rayon; cost `sum over candidates (x+1)(R-x)(y+1)(C-y)` bit-sets and
//! two bytes per sub-rectangle), else, when that table would not fit the
//! memory limit, by the generic [`Solver`] on canonical patterns ([`Split`]).
//!
//! **Budgets.** Positions count dense-table entries and positions of the
//! generic search (solved; and the search also stops once it has examined
//! more positions than are left, so one huge expansion cannot run past the
//! budget, see `guard.rs`). A dense table is built when it fits the memory
//! limit, whatever its size. Time is checked between column sweeps of the DP, before
//! every option and every symmetry of a key in the generic search, and per
//! candidate when options are valued one by one, so a search stops within
//! one such step (a sort of one pattern's candidates) of its deadline.
//! Memory counts bytes measured from allocation sizes: each dense table
//! with its workers' scratch ([`DenseTable::bytes`]), and every key of the
//! generic search while it lives (`guard.rs`).
//! Winning moves are found among the legal moves: each candidate's option
//! value is the XOR of its four parts, read from the same table.
//!
//! **The engine** ([`engine::choose_move`]) always answers with a move:
//! proven by pairs of rectangles whose candidates form one pattern, or by
//! the values, or an unproven guess when the budget runs out first.

mod dense;
pub mod engine;
mod game;
mod grid;
mod guard;
mod pattern;
pub mod tiers;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rustc_hash::FxHashMap;

pub use dense::{DenseTable, MAX_DENSE_CANDIDATES};
pub use engine::{choose_move, choose_move_until, paired_move, SplitChoice, SplitReason};
pub use game::{PartMove, Split};
pub use grid::{Cell, Compressed, Grid, GridError, Position, Rect, MAX_SIDE};
pub use pattern::{Block, Pattern};

use crate::{Budget, Nimber, Progress, SolveError, Solver};
use guard::{Guard, GuardedSplit, Limits};

/// Limit on a dense table's entries when the solver has no memory limit
/// (and no [`SplitSolver::with_dense_limit`]): 2^28 sub-rectangles, 512 MiB.
/// With a memory limit, that limit alone decides which tables are built.
pub const DEFAULT_DENSE_LIMIT: u64 = 1 << 28;

/// How many copies of the pattern being searched the generic search may
/// hold besides its keys: the pattern, the option being built (the other
/// parts cloned and the four new ones) and its blocks.
const TRANSIENT_COPIES: u64 = 4;

type SharedProgress = Arc<Mutex<Box<dyn FnMut(Progress) + Send>>>;

/// How one block of a rectangle is valued.
#[derive(Clone, Debug)]
enum BlockValue {
    Known(Nimber),
    Dense(Arc<DenseTable>),
    Generic(Nimber),
}

impl BlockValue {
    fn value(&self) -> Nimber {
        match self {
            BlockValue::Known(v) | BlockValue::Generic(v) => *v,
            BlockValue::Dense(table) => table.root(),
        }
    }
}

/// How a rectangle of a position is valued.
enum RectAnalysis {
    /// Read from the table of a region (index into `regions`).
    Region(usize),
    /// Block by block.
    Blocks(Compressed, Vec<(Block, BlockValue)>),
}

/// Solves positions of the splitting game, keeping dense tables and the
/// generic memo between calls.
///
/// # Examples
///
/// ```
/// use grundy::split::{Cell, Grid, Position, SplitSolver};
///
/// let grid = Grid::from_rows(&["110", "011", "101"]);
/// let position = Position::new(grid);
/// let mut solver = SplitSolver::new();
/// let value = solver.value(&position).unwrap();
/// for cell in solver.winning_moves(&position).unwrap() {
///     let after = position.try_play(cell).unwrap();
///     assert!(solver.value(&after).unwrap().is_zero());
/// }
/// # let _ = value;
/// ```
pub struct SplitSolver {
    budget: Budget,
    max_memory: Option<u64>,
    /// Bytes held by the dense tables built so far.
    dense_bytes: u64,
    guard: Arc<Guard>,
    /// Set by [`SplitSolver::with_dense_limit`]; otherwise the memory limit
    /// decides, or [`DEFAULT_DENSE_LIMIT`] without one.
    dense_limit: Option<u64>,
    started: Option<Instant>,
    solved: u64,
    progress: Option<SharedProgress>,
    progress_base: Arc<AtomicU64>,
    /// Set from outside to stop the search ([`SplitSolver::with_stop`]).
    cancel: Option<Arc<AtomicBool>>,
    tables: FxHashMap<Pattern, Arc<DenseTable>>,
    generic: Option<Solver<GuardedSplit>>,
    /// Rectangles of a grid whose whole pattern is one dense block: any
    /// rectangle inside one of them is read from its table.
    regions: Vec<Region>,
}

/// A rectangle of a grid valued by one dense table of its whole pattern.
struct Region {
    grid: Arc<Grid>,
    rect: Rect,
    rows: Vec<u32>,
    cols: Vec<u32>,
    table: Arc<DenseTable>,
}

impl Region {
    /// The value of `rect` (inside this region) from the table: its
    /// candidates are those of the pattern rows and columns it spans.
    fn value(&self, rect: Rect) -> Nimber {
        let lo = self.rows.partition_point(|&r| r < rect.top);
        let hi = self.rows.partition_point(|&r| r <= rect.bottom);
        let left = self.cols.partition_point(|&c| c < rect.left);
        let right = self.cols.partition_point(|&c| c <= rect.right);
        self.table.value(lo..hi, left..right)
    }

    fn covers(&self, grid: &Arc<Grid>, rect: Rect) -> bool {
        Arc::ptr_eq(&self.grid, grid)
            && self.rect.top <= rect.top
            && self.rect.left <= rect.left
            && rect.bottom <= self.rect.bottom
            && rect.right <= self.rect.right
    }
}

impl Default for SplitSolver {
    fn default() -> Self {
        SplitSolver::new()
    }
}

impl SplitSolver {
    /// A solver with no budget and the default dense-table limit.
    #[must_use]
    pub fn new() -> SplitSolver {
        let guard = Arc::new(Guard::default());
        SplitSolver {
            budget: Budget::UNLIMITED,
            max_memory: None,
            dense_bytes: 0,
            guard: Arc::clone(&guard),
            dense_limit: None,
            started: None,
            solved: 0,
            progress: None,
            progress_base: Arc::new(AtomicU64::new(0)),
            cancel: None,
            tables: FxHashMap::default(),
            generic: Some(Solver::new(GuardedSplit { guard })),
            regions: Vec::new(),
        }
    }

    /// Sets the limits; `max_positions` counts dense-table entries and
    /// positions of the generic search together. The count and the clock
    /// start at the next call.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> SplitSolver {
        self.budget = budget;
        self.started = None;
        self.solved = 0;
        self
    }

    /// Sets a limit on the bytes held by dense tables (with their scratch)
    /// and by the generic search's keys, measured as they are allocated
    /// (see the module comment). A table that would not fit is not built
    /// (the generic search is tried instead); the generic search stops with
    /// [`SolveError::MemoryBudget`] when its keys pass what is left. Any
    /// table that fits is built, however many entries it has (unless
    /// [`SplitSolver::with_dense_limit`] says otherwise).
    #[must_use]
    pub fn with_memory_limit(mut self, bytes: u64) -> SplitSolver {
        self.max_memory = Some(bytes);
        self
    }

    /// Bytes held now by dense tables and the generic search's keys.
    #[must_use]
    pub fn memory_used(&self) -> u64 {
        self.dense_bytes + self.guard.live_bytes()
    }

    /// Sets the largest dense table (in entries, two bytes each) built
    /// before falling back to the generic search.
    #[must_use]
    pub fn with_dense_limit(mut self, entries: u64) -> SplitSolver {
        self.dense_limit = Some(entries);
        self
    }

    /// Sets a callback told about progress (positions solved so far).
    #[must_use]
    pub fn with_progress(mut self, progress: impl FnMut(Progress) + Send + 'static) -> SplitSolver {
        let shared: SharedProgress = Arc::new(Mutex::new(Box::new(progress)));
        let forward = Arc::clone(&shared);
        let base = Arc::clone(&self.progress_base);
        self.generic = self.generic.take().map(|g| {
            g.with_progress(move |p: Progress| {
                if let Ok(mut f) = forward.lock() {
                    f(Progress {
                        positions: base.load(Ordering::Relaxed) + p.positions,
                        depth: p.depth,
                    });
                }
            })
        });
        self.progress = Some(shared);
        self
    }

    /// Sets a flag that stops the search once set (from any thread, for
    /// example on Ctrl-C): it is checked wherever the clock is (between
    /// column sweeps of a dense table, before every option and every
    /// symmetry of a key, per candidate of options valued one by one), an
    /// atomic load each, and the search ends with [`SolveError::Stopped`].
    /// The solver stays usable after, as after a budget's stop.
    #[must_use]
    pub fn with_stop(mut self, cancel: Arc<AtomicBool>) -> SplitSolver {
        self.cancel = Some(cancel);
        self
    }

    /// True once the flag of [`SplitSolver::with_stop`] is set.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Positions solved so far (dense entries plus generic positions).
    #[must_use]
    pub fn positions_solved(&self) -> u64 {
        self.solved
    }

    /// The value of a position.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn value(&mut self, position: &Position) -> Result<Nimber, SolveError> {
        Ok(self.rect_values(position)?.into_iter().sum())
    }

    /// The value of each rectangle of a position, in the order of
    /// [`Position::rects`].
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn rect_values(&mut self, position: &Position) -> Result<Vec<Nimber>, SolveError> {
        self.start();
        let mut values = Vec::with_capacity(position.rects().len());
        for &rect in position.rects() {
            values.push(match self.region_of(position, rect) {
                Some(region) => self.regions[region].value(rect),
                None => {
                    let compressed = position.grid().pattern_in(rect);
                    match self.analyse_rect(position, rect, compressed)? {
                        RectAnalysis::Region(region) => self.regions[region].value(rect),
                        RectAnalysis::Blocks(_, valued) => {
                            valued.iter().map(|(_, how)| how.value()).sum()
                        }
                    }
                }
            });
        }
        Ok(values)
    }

    /// The region whose table holds `rect`, if any.
    fn region_of(&self, position: &Position, rect: Rect) -> Option<usize> {
        self.regions
            .iter()
            .rposition(|r| r.covers(position.shared_grid(), rect))
    }

    /// Values the blocks of a rectangle; a rectangle that is one dense block
    /// becomes a region, so later positions inside it are table look-ups.
    fn analyse_rect(
        &mut self,
        position: &Position,
        rect: Rect,
        compressed: Compressed,
    ) -> Result<RectAnalysis, SolveError> {
        let known = compressed.pattern.known_value().is_some();
        let blocks = if known {
            vec![Block {
                rows: (0..compressed.pattern.rows()).collect(),
                cols: (0..compressed.pattern.cols()).collect(),
                pattern: compressed.pattern.clone(),
            }]
        } else {
            compressed.pattern.blocks()
        };
        let mut valued = Vec::with_capacity(blocks.len());
        for block in blocks {
            let how = self.block(&block.pattern)?;
            valued.push((block, how));
        }
        if let [(_, BlockValue::Dense(table))] = valued.as_slice() {
            // One block is the whole pattern, with identity row and
            // column maps.
            self.regions.push(Region {
                grid: Arc::clone(position.shared_grid()),
                rect,
                rows: compressed.rows,
                cols: compressed.cols,
                table: Arc::clone(table),
            });
            return Ok(RectAnalysis::Region(self.regions.len() - 1));
        }
        Ok(RectAnalysis::Blocks(compressed, valued))
    }

    /// The value of the candidates of `grid` inside `rect`.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    ///
    /// # Examples
    ///
    /// ```
    /// use grundy::split::{Grid, Position, Rect, SplitSolver};
    ///
    /// let grid = Grid::from_rows(&["110", "011", "101"]);
    /// let mut solver = SplitSolver::new();
    /// let whole = Rect { top: 0, left: 0, bottom: 2, right: 2 };
    /// let value = solver.value(&Position::new(grid.clone())).unwrap();
    /// assert_eq!(solver.rect_value(&grid, whole).unwrap(), value);
    /// // One candidate alone: its one move leaves nothing.
    /// let corner = Rect { top: 0, left: 0, bottom: 0, right: 0 };
    /// assert_eq!(solver.rect_value(&grid, corner).unwrap().value(), 1);
    /// ```
    pub fn rect_value(&mut self, grid: &Grid, rect: Rect) -> Result<Nimber, SolveError> {
        self.pattern_value(&grid.pattern_in(rect).pattern)
    }

    /// The value of a pattern.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn pattern_value(&mut self, pattern: &Pattern) -> Result<Nimber, SolveError> {
        self.start();
        if let Some(v) = pattern.known_value() {
            return Ok(v);
        }
        let mut total = Nimber::ZERO;
        for block in pattern.blocks() {
            total ^= self.block(&block.pattern)?.value();
        }
        Ok(total)
    }

    /// Every legal move of the position with the value it leaves, in the
    /// order of [`Position::moves`].
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn options(&mut self, position: &Position) -> Result<Vec<(Cell, Nimber)>, SolveError> {
        self.start();
        let grid = position.grid();
        let mut rect_values = Vec::with_capacity(position.rects().len());
        let mut analysed = Vec::with_capacity(position.rects().len());
        for &rect in position.rects() {
            let analysis = match self.region_of(position, rect) {
                Some(region) => RectAnalysis::Region(region),
                None => self.analyse_rect(position, rect, grid.pattern_in(rect))?,
            };
            rect_values.push(match &analysis {
                RectAnalysis::Region(region) => self.regions[*region].value(rect),
                RectAnalysis::Blocks(_, valued) => valued.iter().map(|(_, how)| how.value()).sum(),
            });
            analysed.push((rect, analysis));
        }
        let total: Nimber = rect_values.iter().copied().sum();
        let mut options = Vec::new();
        for (&(rect, ref analysis), &value) in analysed.iter().zip(&rect_values) {
            let (compressed, valued) = match analysis {
                RectAnalysis::Region(region) => {
                    let region = &self.regions[*region];
                    for cell in grid.candidates_in(rect) {
                        let after: Nimber = rect
                            .split_at(cell)
                            .into_iter()
                            .map(|part| region.value(part))
                            .sum();
                        options.push((cell, total ^ value ^ after));
                    }
                    continue;
                }
                RectAnalysis::Blocks(compressed, valued) => (compressed, valued),
            };
            for (block, how) in valued {
                let rest = total ^ how.value();
                let line_groups = block.pattern.line_groups();
                for (x, y) in block.pattern.cells() {
                    let after = match how {
                        BlockValue::Dense(table) => {
                            table.option_value(0..table.rows(), 0..table.cols(), x, y)
                        }
                        // The closed form's options: line groups leave one
                        // group fewer (see `Pattern::line_groups`).
                        BlockValue::Known(_) if line_groups.is_some() => {
                            Nimber::new(line_groups.map_or(0, |g| (g as u32 + 1) % 2))
                        }
                        BlockValue::Known(_) | BlockValue::Generic(_) => {
                            // A sort of the block's candidates per move.
                            self.check_time()?;
                            let parts: Vec<Pattern> = block
                                .pattern
                                .split_at(x, y)
                                .into_iter()
                                .filter(|p| !p.is_empty())
                                .collect();
                            let mut v = Nimber::ZERO;
                            for part in parts {
                                v ^= self.pattern_value(&part)?;
                            }
                            v
                        }
                    };
                    let cell = Cell::new(
                        compressed.rows[block.rows[x]],
                        compressed.cols[block.cols[y]],
                    );
                    options.push((cell, rest ^ after));
                }
            }
        }
        // Position::moves order: rectangle by rectangle, row-major.
        let mut ordered = Vec::with_capacity(options.len());
        let mut index: FxHashMap<Cell, Nimber> = options.into_iter().collect();
        for (_, cell) in position.moves() {
            if let Some(v) = index.remove(&cell) {
                ordered.push((cell, v));
            }
        }
        Ok(ordered)
    }

    /// Every winning move: the candidates whose move leaves value 0.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn winning_moves(&mut self, position: &Position) -> Result<Vec<Cell>, SolveError> {
        Ok(self
            .options(position)?
            .into_iter()
            .filter(|(_, v)| v.is_zero())
            .map(|(cell, _)| cell)
            .collect())
    }

    /// Values one block: closed form, dense table, or generic search.
    fn block(&mut self, pattern: &Pattern) -> Result<BlockValue, SolveError> {
        if let Some(v) = pattern.known_value() {
            return Ok(BlockValue::Known(v));
        }
        if let Some(table) = self.tables.get(pattern) {
            return Ok(BlockValue::Dense(Arc::clone(table)));
        }
        let started = self.start();
        let entries = DenseTable::entries(pattern.rows(), pattern.cols());
        let table_bytes = DenseTable::bytes(pattern);
        let fits_memory = self
            .max_memory
            .is_none_or(|limit| self.memory_used().saturating_add(table_bytes) <= limit);
        let within_limit = match (self.dense_limit, self.max_memory) {
            (Some(limit), _) => entries <= limit,
            (None, Some(_)) => true,
            (None, None) => entries <= DEFAULT_DENSE_LIMIT,
        };
        if within_limit && pattern.count() <= MAX_DENSE_CANDIDATES && fits_memory {
            // Entries count against what is left; the clock runs from the
            // first search.
            let budget = Budget {
                max_positions: self.remaining().max_positions,
                max_time: self.budget.max_time,
                max_memory: self.budget.max_memory,
            };
            let base = self.solved;
            let shared = self.progress.clone();
            let mut report = move |solved: u64, height: usize| {
                if let Some(f) = &shared {
                    if let Ok(mut f) = f.lock() {
                        f(Progress {
                            positions: base + solved,
                            depth: height,
                        });
                    }
                }
            };
            let table = DenseTable::build_sharing(
                pattern,
                budget,
                started,
                self.cancel.as_deref(),
                &mut report,
                dense::MIN_SHARED_BAND,
            )
            .map_err(|err| self.overall(err))?;
            let table = Arc::new(table);
            self.solved += entries;
            self.dense_bytes += table.table_bytes();
            self.tables.insert(pattern.clone(), Arc::clone(&table));
            return Ok(BlockValue::Dense(table));
        }
        let budget = self.remaining();
        self.guard.arm(Limits {
            cancel: self.cancel.clone(),
            deadline: self.budget.deadline(started),
            positions: budget.max_positions.zip(self.budget.max_positions),
            memory: self.max_memory.map(|limit| {
                let held = self.dense_bytes + TRANSIENT_COPIES * pattern.bytes();
                guard::MemoryLimit {
                    allowed: limit.saturating_sub(held),
                    limit,
                    held,
                }
            }),
        });
        if self.guard.should_stop() {
            return Err(self.overall(self.guard.stopped().expect("stopped")));
        }
        self.progress_base.store(self.solved, Ordering::Relaxed);
        let generic = self
            .generic
            .take()
            .expect("generic solver present")
            .with_budget(budget);
        let mut generic = generic;
        let result = generic.value(&vec![pattern.clone()]);
        self.solved += generic.positions_solved();
        self.generic = Some(generic);
        result
            .map(BlockValue::Generic)
            .map_err(|err| self.overall(err))
    }

    /// Starts the clock at the first call under this budget.
    fn start(&mut self) -> Instant {
        *self.started.get_or_insert_with(Instant::now)
    }

    /// [`SolveError::TimeBudget`] once the time is up, or
    /// [`SolveError::Stopped`] once the stop flag is set.
    fn check_time(&self) -> Result<(), SolveError> {
        if self.cancelled() {
            return Err(SolveError::Stopped);
        }
        match (self.budget.max_time, self.started) {
            (Some(limit), Some(started)) if started.elapsed() >= limit => {
                Err(SolveError::TimeBudget { limit })
            }
            _ => Ok(()),
        }
    }

    /// The budget left for the next search.
    fn remaining(&self) -> Budget {
        Budget {
            max_positions: self
                .budget
                .max_positions
                .map(|limit| limit.saturating_sub(self.solved)),
            max_time: self.budget.max_time.map(|limit| {
                let spent = self.started.map(|s| s.elapsed()).unwrap_or_default();
                limit.saturating_sub(spent)
            }),
            max_memory: self.budget.max_memory,
        }
    }

    /// Reports a sub-search's budget error in terms of the whole budget.
    fn overall(&self, err: SolveError) -> SolveError {
        match err {
            SolveError::PositionBudget { needed, .. } => SolveError::PositionBudget {
                limit: self.budget.max_positions.unwrap_or_default(),
                // The sub-search's table, on top of what was solved before.
                needed: needed.map(|n| n.saturating_add(self.solved)),
            },
            SolveError::TimeBudget { .. } => SolveError::TimeBudget {
                limit: self.budget.max_time.unwrap_or_default(),
            },
            SolveError::MemoryBudget { .. } | SolveError::Stopped => err,
        }
    }
}
