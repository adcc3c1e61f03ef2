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
//! - *Closed forms* ([`Pattern::known_value`]): no candidate: 0; one row or
//!   one column: 1; no two candidates sharing a row or column: `k mod 2`.
//!
//! **Algorithm.** [`SplitSolver`] compresses each rectangle, splits it into
//! blocks, and values each block by its closed form, else by a
//! [`DenseTable`] of all its sub-rectangles (a band-by-band DP, parallel
//! with rayon; cost `sum over candidates (x+1)(R-x)(y+1)(C-y)` bit-sets and
//! two bytes per sub-rectangle), else, when that table would not fit the
//! memory limit, by the generic [`Solver`] on canonical patterns ([`Split`]).
//! Winning moves are found among the legal moves: each candidate's option
//! value is the XOR of its four parts, read from the same table.

mod dense;
mod game;
mod grid;
mod pattern;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rustc_hash::FxHashMap;

pub use dense::{DenseTable, MAX_DENSE_CANDIDATES};
pub use game::{PartMove, Split};
pub use grid::{Cell, Compressed, Grid, GridError, Position, Rect, MAX_SIDE};
pub use pattern::{Block, Pattern};

use crate::{Budget, Nimber, Progress, SolveError, Solver};

/// Default limit on a dense table's entries: 2^28 sub-rectangles, 512 MiB.
pub const DEFAULT_DENSE_LIMIT: u64 = 1 << 28;

/// What one position of the generic search counts for against
/// `max_positions`, in dense-table entries: it holds a pattern key (up to
/// kilobytes) and its expansion builds a sub-pattern per candidate, where a
/// dense entry is two bytes and a few bit-sets; so one budget bounds memory
/// and time on both paths.
pub const GENERIC_WEIGHT: u64 = 4096;

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
    dense_limit: u64,
    started: Option<Instant>,
    solved: u64,
    progress: Option<SharedProgress>,
    progress_base: Arc<AtomicU64>,
    tables: FxHashMap<Pattern, Arc<DenseTable>>,
    generic: Option<Solver<Split>>,
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
        SplitSolver {
            budget: Budget::UNLIMITED,
            dense_limit: DEFAULT_DENSE_LIMIT,
            started: None,
            solved: 0,
            progress: None,
            progress_base: Arc::new(AtomicU64::new(0)),
            tables: FxHashMap::default(),
            generic: Some(Solver::new(Split)),
            regions: Vec::new(),
        }
    }

    /// Sets the limits; `max_positions` counts dense-table entries and
    /// positions of the generic search (each weighing [`GENERIC_WEIGHT`]
    /// entries) together. The count and the clock
    /// start at the next search.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> SplitSolver {
        self.budget = budget;
        self.started = None;
        self.solved = 0;
        self
    }

    /// Sets the largest dense table (in entries, two bytes each) built
    /// before falling back to the generic search.
    #[must_use]
    pub fn with_dense_limit(mut self, entries: u64) -> SplitSolver {
        self.dense_limit = entries;
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
                        positions: base.load(Ordering::Relaxed) + p.positions * GENERIC_WEIGHT,
                        depth: p.depth,
                    });
                }
            })
        });
        self.progress = Some(shared);
        self
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
    pub fn rect_value(&mut self, grid: &Grid, rect: Rect) -> Result<Nimber, SolveError> {
        self.pattern_value(&grid.pattern_in(rect).pattern)
    }

    /// The value of a pattern.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn pattern_value(&mut self, pattern: &Pattern) -> Result<Nimber, SolveError> {
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
                for (x, y) in block.pattern.cells() {
                    let after = match how {
                        BlockValue::Dense(table) => {
                            table.option_value(0..table.rows(), 0..table.cols(), x, y)
                        }
                        // The closed forms' options: a line leaves nothing;
                        // a permutation of k leaves permutations of k - 1 in
                        // all (each part is one, and parities add up).
                        BlockValue::Known(_) if block.pattern.rows() == 1 => Nimber::ZERO,
                        BlockValue::Known(_) if block.pattern.cols() == 1 => Nimber::ZERO,
                        BlockValue::Known(_) if block.pattern.is_permutation() => {
                            Nimber::new((block.pattern.rows() as u32 - 1) % 2)
                        }
                        BlockValue::Known(_) | BlockValue::Generic(_) => {
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
        let started = *self.started.get_or_insert_with(Instant::now);
        let entries = DenseTable::entries(pattern.rows(), pattern.cols());
        if entries <= self.dense_limit && pattern.count() <= MAX_DENSE_CANDIDATES {
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
            let table = DenseTable::build(pattern, budget, started, &mut report)
                .map_err(|err| self.overall(err))?;
            let table = Arc::new(table);
            self.solved += entries;
            self.tables.insert(pattern.clone(), Arc::clone(&table));
            return Ok(BlockValue::Dense(table));
        }
        let remaining = self.remaining();
        let budget = Budget {
            max_positions: remaining.max_positions.map(|p| p / GENERIC_WEIGHT),
            ..remaining
        };
        self.progress_base.store(self.solved, Ordering::Relaxed);
        let generic = self
            .generic
            .take()
            .expect("generic solver present")
            .with_budget(budget);
        let mut generic = generic;
        let result = generic.value(&vec![pattern.clone()]);
        self.solved += generic.positions_solved() * GENERIC_WEIGHT;
        self.generic = Some(generic);
        result
            .map(BlockValue::Generic)
            .map_err(|err| self.overall(err))
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
            SolveError::PositionBudget { .. } => SolveError::PositionBudget {
                limit: self.budget.max_positions.unwrap_or_default(),
            },
            SolveError::TimeBudget { .. } => SolveError::TimeBudget {
                limit: self.budget.max_time.unwrap_or_default(),
            },
            SolveError::MemoryBudget { .. } => err,
        }
    }
}
