//! The analysis of a board of any size: components, their classes, the
//! pairs that cancel, the value and every winning move.
//!
//! **Rule.** The value of a board is the XOR of its components' values, and
//! congruent components have equal values, so two components of one class
//! contribute `X ⊕ X = 0`: only the classes met an odd number of times are
//! valued for the total. A winning move in a component of value `v` is a
//! move to `v ⊕ V` where `V ≠ 0` is the total: one exists when `v ⊕ V < v`
//! (by the mex), and a component may also have an option of the larger
//! value `v ⊕ V > v`; so every class is valued and every component's moves
//! are searched when the moves are asked and the total is not 0 (a
//! component of a cancelled pair may hold winning moves too), and nothing
//! is when it is 0 (nothing wins). A class that is not searched still gets
//! the value a table, a closed form or a memo knows, for the reader.
//!
//! **Cost.** One labelling of the board ([`LargeBoard::components`]), one
//! canonical form and hash per component, one search per class (most
//! classes of a random board are known from the small tables at once), and
//! the winning moves of each distinct placed shape once: components that
//! are the same cells in the same orientation share their move list.
//!
//! **Budget.** Every search runs under what is left of one [`Budget`]: its
//! time is a deadline for the whole analysis; its memory is split between
//! the small-board and the large-board memo. A class whose search runs out
//! leaves the value unknown (`None`) and the winning moves incomplete, with
//! the error kept in [`LargeAnalysis::stopped`]: the analysis is then
//! honest about what it knows rather than failing whole.
//!
//! **Who wins without the value.** When one class does not cancel, the
//! total is that shape's value, and a move in it to a shape of value 0 wins.
//! If its value search runs out, the outcome search
//! ([`Solver::move_to_zero`]) still looks for such a move, which is often
//! thousands of times cheaper (a won shape stops at its first move to 0):
//! it names the winner and one proven winning move, or proves the shape
//! lost, which completes the analysis (value 0). When several classes do
//! not cancel, a move that leaves only pairs of equal shapes (or their half
//! turns) wins whatever the values are, and is sought by placing the
//! smaller shapes in the largest, without a search. So that either has
//! time, the value search gets three quarters of the time left
//! ([`OUTCOME_SHARE`]); what the outcome search or the pairs leave of that
//! quarter goes back to the value search, which resumes from its memo.
//! [`analyse_after_stop`]
//! does the same for boards whose search by another solver stopped, from
//! what that solver's memo holds.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::game::{large_components, LargeClear, Part, ShapeClass};
use super::grid::{Components, Extent, LargeBoard, LargeRect};
use crate::clear::{Clear, ClearSolver};
use crate::{Budget, Game, Nimber, SolveError, Solver, Table};

/// The share of the time left that the value search leaves for the outcome
/// search of a lone class, or for the moves that leave pairs, as a fraction
/// `1 / OUTCOME_SHARE`: on the dense
/// 7 x 7 blocks of `bench/ab-blocks.sh` a winning move takes 5 to 100 times
/// less time than the value (docs/benchmarks.md, "The engine on dense
/// blocks"), so a quarter answers most of those the value misses.
pub const OUTCOME_SHARE: u32 = 4;

/// The most bytes [`analyse`] of a board holds per cell beside its
/// search memos: labelling keeps a run, its parent and its label (36
/// bytes, with the vector grown by doubling up to 48) for every other cell
/// of a checkerboard, the worst case, and each component's record (32
/// bytes, up to 64 when grown) for every other cell too.
pub const BYTES_PER_CELL: u64 = 56;

/// The bytes an analysis of a `rows x cols` board may hold at most beside
/// its search memos: the cells and [`BYTES_PER_CELL`] each. What a front-end
/// checks against a memory budget before it allocates a board.
#[must_use]
pub const fn analysis_bytes(rows: u64, cols: u64) -> u64 {
    LargeBoard::cell_bytes(rows, cols)
        .saturating_add(rows.saturating_mul(cols).saturating_mul(BYTES_PER_CELL))
}

/// Searches of small and large shapes under one budget.
pub struct Analyzer {
    small: ClearSolver,
    large: Solver<LargeClear>,
    budget: Budget,
    deadline: Option<Instant>,
    /// Set from outside to stop every search ([`Analyzer::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// The memory limit of the last large search when the budget gave none
    /// (the default less what the small search held): a limit the user
    /// did not set, worded as the default it comes from.
    default_large_limit: Option<u64>,
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyzer")
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

impl Analyzer {
    /// Searches by the rules `clear` (its tables and shape databases) under
    /// `budget`. The clock starts at [`Analyzer::start`], which each analysis
    /// calls.
    #[must_use]
    pub fn new(clear: Clear, budget: Budget) -> Analyzer {
        Analyzer {
            small: clear.clone().into_solver(),
            large: Solver::new(LargeClear::new(clear)),
            budget,
            deadline: None,
            stop: None,
            default_large_limit: None,
        }
    }

    /// Searches by the rules of `small`, whose memo is kept (what an earlier
    /// search of it found is known at once), under `budget`.
    #[must_use]
    pub fn with_small_solver(small: ClearSolver, budget: Budget) -> Analyzer {
        let clear = small.game().clone();
        Analyzer {
            small,
            large: Solver::new(LargeClear::new(clear)),
            budget,
            deadline: None,
            stop: None,
            default_large_limit: None,
        }
    }

    /// Stops the analysis once `stop` is set (`None`: never): the large
    /// shapes' search within one option listed or one expansion, every
    /// later search at once, with [`SolveError::Stopped`]. The small shapes'
    /// solver is the caller's to stop (its progress callback, say).
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.large.game_mut().set_stop(stop.clone());
        self.stop = stop;
    }

    /// True once the flag of [`Analyzer::set_stop`] is set.
    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// True once the time budget is spent or the analysis was stopped: what
    /// the loops between searches check.
    pub(super) fn halted(&self) -> bool {
        self.stop_requested() || self.out_of_time()
    }

    /// The error for [`Analyzer::halted`].
    pub(super) fn halt_error(&self) -> SolveError {
        if self.stop_requested() {
            SolveError::Stopped
        } else {
            self.time_error()
        }
    }

    /// The small shapes' solver, with its memo.
    #[must_use]
    pub fn into_small_solver(self) -> ClearSolver {
        self.small
    }

    /// Starts the budget's clock afresh.
    pub fn start(&mut self) {
        self.start_at(Instant::now());
    }

    /// Starts the budget's clock as if at `at`: a search that goes on from
    /// another one keeps its deadline.
    pub fn start_at(&mut self, at: Instant) {
        self.deadline = self.budget.deadline(at).map(|(end, _)| end);
    }

    /// The budget this analyzer was made with.
    #[must_use]
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// True once the time budget is spent.
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The error for a spent time budget.
    fn time_error(&self) -> SolveError {
        SolveError::TimeBudget {
            limit: self.budget.max_time.unwrap_or_default(),
        }
    }

    /// What is left of the budget for one search of the small or the large
    /// solver: the time to the deadline, and the memory the other solver's
    /// memo does not hold (the two memos together stay within the budget,
    /// and each may take what the other has not).
    fn remaining(&self, large: bool) -> Budget {
        let now = Instant::now();
        let other = if large {
            self.small.held_bytes()
        } else {
            self.large.held_bytes()
        };
        Budget {
            max_positions: self.budget.max_positions,
            max_time: self.deadline.map(|d| d.saturating_duration_since(now)),
            max_memory: self
                .budget
                .max_memory
                .map(|m| m.saturating_sub(other as u64)),
        }
    }

    /// Runs `search` with the deadline brought forward, leaving
    /// `1 / OUTCOME_SHARE` of the time left for what follows.
    fn leaving_time_for_outcome<R>(&mut self, search: impl FnOnce(&mut Self) -> R) -> R {
        let deadline = self.deadline;
        if let Some(end) = deadline {
            let now = Instant::now();
            let left = end.saturating_duration_since(now);
            self.deadline = Some(now + left - left / OUTCOME_SHARE);
        }
        let result = search(self);
        self.deadline = deadline;
        result
    }

    /// The value of `part` when the game or a memo knows it, without search.
    #[must_use]
    pub fn known_value(&self, part: &Part) -> Option<Nimber> {
        match part {
            Part::Small(board) => known_to(&self.small, board),
            Part::Large(_) => known_to(&self.large, part),
        }
    }

    fn prepare(&mut self, large: bool) -> Result<(), SolveError> {
        if self.halted() {
            return Err(self.halt_error());
        }
        let mut budget = self.remaining(large);
        if large {
            // Each large shape the search holds is a board of its own, so
            // a position budget does not bound its memory: without a memory
            // budget both memos get a default one, less what the small
            // solver's holds.
            let bytes = budget.max_memory.unwrap_or_else(|| {
                super::game::DEFAULT_MAX_OPTION_BYTES.saturating_sub(self.small.held_bytes() as u64)
            });
            self.default_large_limit = self.budget.max_memory.is_none().then_some(bytes);
            budget.max_memory = Some(bytes);
            self.large.set_budget(budget);
            let deadline = self.deadline.zip(self.budget.max_time);
            self.large
                .game_mut()
                .set_limits(deadline, bytes, budget.max_positions);
        } else {
            self.small.set_budget(budget);
        }
        Ok(())
    }

    /// The value of a component (or of any part).
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn value(&mut self, part: &Part) -> Result<Nimber, SolveError> {
        self.worded(|this| match part {
            Part::Small(board) => {
                if let Some(value) = this.small.game().known_value(board) {
                    return Ok(value);
                }
                this.prepare(false)?;
                this.small.value(board)
            }
            Part::Large(_) => {
                this.prepare(true)?;
                let value = this.large.value(part);
                this.check_large(value)
            }
        })
    }

    /// Runs `search`, each of whose errors (`?` ones included) is then
    /// worded as the user's budget ([`Analyzer::whole_budget`]).
    fn worded<T>(
        &mut self,
        search: impl FnOnce(&mut Self) -> Result<T, SolveError>,
    ) -> Result<T, SolveError> {
        let result = search(self);
        result.map_err(|err| self.whole_budget(err))
    }

    fn check_large<T>(&self, result: Result<T, SolveError>) -> Result<T, SolveError> {
        let result = result?;
        match self.large.game().interrupted() {
            Some(err) => Err(err),
            None => Ok(result),
        }
    }

    /// `err` as the user's budget words it: each search runs under what is
    /// left of the time and of the memory, but the limit that ran out is
    /// the whole budget's, and the memory in use is both memos'.
    fn whole_budget(&self, err: SolveError) -> SolveError {
        match err {
            SolveError::TimeBudget { .. } => match self.budget.max_time {
                Some(limit) => SolveError::TimeBudget { limit },
                None => err,
            },
            SolveError::MemoryBudget { limit, used } => match self.budget.max_memory.or_else(|| {
                (self.default_large_limit == Some(limit))
                    .then_some(super::game::DEFAULT_MAX_OPTION_BYTES)
            }) {
                Some(whole) => SolveError::MemoryBudget {
                    limit: whole,
                    // `used` counts the stopped search's memo with its next
                    // growth step; the rest of the budget is what the other
                    // memo held when that search began.
                    used: used + whole.saturating_sub(limit),
                },
                None => err,
            },
            err => err,
        }
    }

    /// Every move of `part` to a position of value `target`, in move order.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn moves_to(&mut self, part: &Part, target: Nimber) -> Result<Vec<LargeRect>, SolveError> {
        self.worded(|this| match part {
            Part::Small(board) => {
                this.prepare(false)?;
                Ok(this
                    .small
                    .moves_to(board, target)?
                    .into_iter()
                    .map(|(rect, _)| LargeRect::from(rect))
                    .collect())
            }
            Part::Large(board) => {
                if let Some(moves) = line_moves_to(board, target) {
                    return Ok(moves);
                }
                this.prepare(true)?;
                let moves = this.large.moves_to(part, target);
                let moves = this.check_large(moves)?;
                Ok(moves.into_iter().map(|(rect, _)| rect).collect())
            }
        })
    }

    /// A move of `part` to a position of value 0, found by outcome search
    /// ([`Solver::move_to_zero`](crate::Solver::move_to_zero)), or `None`
    /// when its value is 0.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn move_to_zero(&mut self, part: &Part) -> Result<Option<LargeRect>, SolveError> {
        self.worded(|this| match part {
            Part::Small(board) => {
                this.prepare(false)?;
                Ok(this
                    .small
                    .move_to_zero(board)?
                    .map(|(rect, _)| LargeRect::from(rect)))
            }
            Part::Large(_) => {
                this.prepare(true)?;
                let found = this.large.move_to_zero(part);
                Ok(this.check_large(found)?.map(|(rect, _)| rect))
            }
        })
    }

    /// What the memos show of the moves of `part` once its search stopped
    /// ([`Solver::move_not_shown_to_lose`]), read without a search, so after
    /// the budget is spent: the move and what was read. `None` for a part
    /// past 64 cells, whose memo of large shapes is not read so, or one with
    /// no move.
    #[must_use]
    pub fn move_not_shown_to_lose(&self, part: &Part) -> Option<(LargeRect, crate::MovesShown)> {
        match part {
            Part::Small(board) => self
                .small
                .move_not_shown_to_lose(board)
                .map(|((rect, _), shown)| (LargeRect::from(rect), shown)),
            Part::Large(_) => None,
        }
    }

    /// Every move of `part` with the value of the part it leaves.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out.
    pub fn options_with_values(
        &mut self,
        part: &Part,
    ) -> Result<Vec<(LargeRect, Nimber)>, SolveError> {
        self.worded(|this| match part {
            Part::Small(board) => {
                this.prepare(false)?;
                Ok(this
                    .small
                    .options_with_values(board)?
                    .into_iter()
                    .map(|(rect, _, value)| (LargeRect::from(rect), value))
                    .collect())
            }
            Part::Large(_) => {
                this.prepare(true)?;
                let moves = this.large.options_with_values(part);
                let moves = this.check_large(moves)?;
                Ok(moves.into_iter().map(|(rect, _, v)| (rect, v)).collect())
            }
        })
    }

    /// The bytes both memos hold.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.small.memory_bytes() + self.large.memory_bytes()
    }
}

/// Every move of a straight line of ones (`board`, cut to its box) to a
/// position of value `target`, without a search; `None` when `board` is no
/// such line. Clearing cells `a..n - b` of a line of `n` leaves lines of
/// `a` and `b` cells, of values `a` and `b` (a line's value is its length),
/// so the move leaves `a xor b`: the moves to `target` are the `a` with
/// `b = a xor target` and `a + b < n`, `O(n)` where the options are
/// `O(n^2)`.
fn line_moves_to(board: &LargeBoard, target: Nimber) -> Option<Vec<LargeRect>> {
    let (rows, cols) = (board.rows(), board.cols());
    let n = rows.max(cols);
    if rows.min(cols) != 1 || board.count_ones() != u64::from(n) {
        return None;
    }
    let target = target.value();
    let moves = (0..n)
        .filter_map(|a| {
            let b = a ^ target;
            (u64::from(a) + u64::from(b) < u64::from(n)).then(|| {
                let (first, last) = (a, n - 1 - b);
                if rows == 1 {
                    LargeRect {
                        top: 0,
                        left: first,
                        bottom: 0,
                        right: last,
                    }
                } else {
                    LargeRect {
                        top: first,
                        left: 0,
                        bottom: last,
                        right: 0,
                    }
                }
            })
        })
        .collect();
    Some(moves)
}

/// The value of one component that `solver`'s game or memo knows.
fn known_to<G: Game, T: Table<G::Key>>(
    solver: &Solver<G, T>,
    component: &G::Position,
) -> Option<Nimber> {
    let game = solver.game();
    game.known_value(component)
        .or_else(|| solver.table().get(&game.key(component)))
}

/// One component of an analysed board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComponentInfo {
    /// The board it is on (0-based, for sums of boards).
    pub board: u32,
    /// Its index among that board's components.
    pub local: u32,
    /// Its bounding box and cell count, in board coordinates.
    pub extent: Extent,
    /// Its class, an index into [`LargeAnalysis::classes`].
    pub class: u32,
}

/// One class of congruent components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassInfo {
    /// The canonical key.
    pub key: ShapeClass,
    /// How many components have this shape.
    pub count: u32,
    /// The first of them (an index into [`LargeAnalysis::components`]).
    pub first: u32,
    /// Cells of one component.
    pub cells: u64,
    /// The value, when it was computed.
    pub value: Option<Nimber>,
}

impl ClassInfo {
    /// True when the class cancels out of the total (an even count).
    #[must_use]
    pub const fn cancels(&self) -> bool {
        self.count % 2 == 0
    }
}

/// Why a winning move wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// The component's value goes from `before` to `after`, which makes the
    /// total 0.
    Values {
        /// The component's value.
        before: Nimber,
        /// Its value after the move.
        after: Nimber,
    },
    /// Every component left has a congruent partner (X ⊕ X = 0), whatever
    /// the values.
    Pairs {
        /// The move cut one shape into two mirror-image halves.
        halves: bool,
    },
    /// The component is the only shape that does not cancel, and the move
    /// leaves it a shape of value 0, proven by outcome search without the
    /// values.
    LeavesZero,
    /// What the move leaves of the shapes that do not cancel is its own
    /// half turn about a point no rectangle of ones covers, of value 0
    /// whatever the values ([`half_turn`](super::half_turn)).
    HalfTurn,
}

/// A winning move of a large board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LargeWinningMove {
    /// The rectangle cleared, in board coordinates.
    pub rect: LargeRect,
    /// The component it is played in.
    pub component: u32,
    /// Why it wins.
    pub reason: WinReason,
}

/// The analysis of a board of any size, or of a sum of boards.
#[derive(Clone, Debug)]
pub struct LargeAnalysis {
    /// Each board's `(rows, cols)`.
    pub sizes: Vec<(u32, u32)>,
    /// Each board's components as runs, in order of their first cell.
    pub runs: Vec<Components>,
    /// Every component's board, box and class: board by board, each board's
    /// in order of their first cell.
    pub components: Vec<ComponentInfo>,
    /// The classes, in order of their first component.
    pub classes: Vec<ClassInfo>,
    /// The board's value, when every class that does not cancel was valued.
    pub value: Option<Nimber>,
    /// Whether the player to move wins with best play, when known: from the
    /// value, or from a winning move found by pairs alone.
    pub first_player_wins: Option<bool>,
    /// Winning moves, in component order, then move order.
    pub winning: Vec<LargeWinningMove>,
    /// True when `winning` lists every winning move.
    pub winning_complete: bool,
    /// The budget that ran out before everything was known, if one did.
    pub stopped: Option<SolveError>,
}

impl LargeAnalysis {
    /// Component `index` as a part cut to its box (small when it fits).
    #[must_use]
    pub fn part(&self, index: usize) -> Part {
        let info = self.components[index];
        let runs = self.runs[info.board as usize].runs(info.local as usize);
        let extent = info.extent;
        match LargeBoard::board_from_runs(runs, &extent) {
            Some(board) => Part::Small(board),
            None => Part::Large(std::sync::Arc::new(LargeBoard::from_runs(runs, &extent))),
        }
    }

    /// The one class the total hangs on: the one class that does not
    /// cancel, when exactly one does; or, among several, the one whose
    /// value is unknown when the known values of the others XOR to 0. The
    /// total is then its value, and a move of it to 0 wins.
    #[must_use]
    pub fn lone_class(&self) -> Option<usize> {
        let mut unpaired = (0..self.classes.len()).filter(|&c| !self.classes[c].cancels());
        let first = unpaired.next()?;
        let mut unknown = None;
        let mut others = Nimber::ZERO;
        for class in std::iter::once(first).chain(unpaired) {
            match self.classes[class].value {
                None if unknown.is_some() => return None,
                None => unknown = Some(class),
                Some(value) => others ^= value,
            }
        }
        match unknown {
            Some(class) if others.is_zero() => Some(class),
            Some(_) => None,
            // Every value known: the lone class only when it is alone.
            None => (self.unpaired().count() == 1).then_some(first),
        }
    }

    /// Whether the total hangs on [`LargeAnalysis::lone_class`] because the
    /// others' values XOR to 0, rather than because it is alone.
    #[must_use]
    pub fn others_cancel_by_values(&self) -> bool {
        self.lone_class().is_some() && self.unpaired().count() > 1
    }

    /// The classes met an odd number of times: those the total is made of.
    pub fn unpaired(&self) -> impl Iterator<Item = &ClassInfo> {
        self.classes.iter().filter(|c| !c.cancels())
    }

    /// The number of ones on the boards.
    #[must_use]
    pub fn ones(&self) -> u64 {
        self.components.iter().map(|c| c.extent.cells).sum()
    }

    /// Component `index`'s runs, in its board's coordinates.
    #[must_use]
    pub fn component_runs(&self, index: usize) -> &[super::grid::Run] {
        let info = self.components[index];
        self.runs[info.board as usize].runs(info.local as usize)
    }

    /// The value of board `board` alone, when every class on it was valued
    /// or cancels on that board.
    #[must_use]
    pub fn board_value(&self, board: usize) -> Option<Nimber> {
        let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
        for info in self.components.iter().filter(|c| c.board as usize == board) {
            *counts.entry(info.class).or_default() += 1;
        }
        let mut total = Nimber::ZERO;
        for (class, count) in counts {
            if count % 2 == 1 {
                total ^= self.classes[class as usize].value?;
            }
        }
        Some(total)
    }
}

/// The components of `boards` (a sum) grouped into classes, nothing valued
/// yet.
#[must_use]
pub fn classify(boards: &[LargeBoard]) -> LargeAnalysis {
    classify_until(boards, || false).expect("never halted")
}

/// How many components [`classify_until`] groups between two calls of its
/// `halt`: the grouping of a component (its canonical form and hash) takes
/// under a microsecond, so a few milliseconds pass between the calls.
pub const CLASSIFY_CHECK_EVERY: usize = 4096;

/// [`classify`], given up (`None`) once `halt` says so: asked once every
/// [`CLASSIFY_CHECK_EVERY`] components labelled or grouped, so boards with
/// fewer components are classified whatever `halt` says (a budget spent
/// before the start still finds the moves that pairs prove). On a board of
/// 10^8 random cells (about 6 million components) the grouping takes
/// seconds, which an engine that must answer within its budget cannot
/// spend unchecked.
pub fn classify_until(boards: &[LargeBoard], halt: impl Fn() -> bool) -> Option<LargeAnalysis> {
    let mut runs: Vec<Components> = Vec::with_capacity(boards.len());
    let mut labelled = 0;
    for board in boards {
        runs.push(board.components_until(&halt)?);
        let before = labelled;
        labelled += runs.last().map_or(0, Components::len);
        if before / CLASSIFY_CHECK_EVERY != labelled / CLASSIFY_CHECK_EVERY && halt() {
            return None;
        }
    }
    let mut components = Vec::with_capacity(runs.iter().map(Components::len).sum());
    let mut classes: Vec<ClassInfo> = Vec::new();
    let mut index: FxHashMap<ShapeClass, u32> = FxHashMap::default();
    for (board, (board_runs, local)) in runs
        .iter()
        .enumerate()
        .flat_map(|(b, r)| (0..r.len()).map(move |l| (b, (r, l))))
    {
        let i = components.len();
        if i % CLASSIFY_CHECK_EVERY == CLASSIFY_CHECK_EVERY - 1 && halt() {
            return None;
        }
        let component_runs = board_runs.runs(local);
        let extent = Extent::of(component_runs);
        let key = match LargeBoard::board_from_runs(component_runs, &extent) {
            Some(small) => ShapeClass::of_board(&small),
            None => ShapeClass::of_cut(&LargeBoard::from_runs(component_runs, &extent)),
        };
        let class = *index.entry(key).or_insert_with_key(|key| {
            classes.push(ClassInfo {
                key: key.clone(),
                count: 0,
                first: i as u32,
                cells: extent.cells,
                value: None,
            });
            (classes.len() - 1) as u32
        });
        classes[class as usize].count += 1;
        components.push(ComponentInfo {
            board: board as u32,
            local: local as u32,
            extent,
            class,
        });
    }
    Some(LargeAnalysis {
        sizes: boards.iter().map(|b| (b.rows(), b.cols())).collect(),
        runs,
        components,
        classes,
        value: None,
        first_player_wins: None,
        winning: Vec::new(),
        winning_complete: false,
        stopped: None,
    })
}

/// Values the classes that do not cancel, smallest first, and sets the
/// value when all are known. Returns the error of the first search that ran
/// out (the rest are then left unvalued).
pub fn value_unpaired(analysis: &mut LargeAnalysis, analyzer: &mut Analyzer) {
    let mut order: Vec<usize> = (0..analysis.classes.len())
        .filter(|&c| !analysis.classes[c].cancels() && analysis.classes[c].value.is_none())
        .collect();
    order.sort_by_key(|&c| analysis.classes[c].cells);
    for class in order {
        let part = analysis.part(analysis.classes[class].first as usize);
        match analyzer.value(&part) {
            Ok(value) => analysis.classes[class].value = Some(value),
            Err(err) => {
                analysis.stopped = Some(err);
                break;
            }
        }
    }
    if analysis.unpaired().all(|c| c.value.is_some()) {
        let total = analysis.unpaired().filter_map(|c| c.value).sum();
        analysis.value = Some(total);
        analysis.first_player_wins = Some(!Nimber::is_zero(total));
    }
}

/// Sets the value of every class that the tables, the closed forms or the
/// memos know without a search. The total needs no class that cancels, but
/// a reader of the analysis sees each component's value where it costs
/// nothing (a lookup a class; the clock is read every 4,096 classes).
pub(super) fn known_values(analysis: &mut LargeAnalysis, analyzer: &Analyzer) {
    for class in 0..analysis.classes.len() {
        if class % 4096 == 4095 && analyzer.halted() {
            return;
        }
        let part = analysis.part(analysis.classes[class].first as usize);
        analysis.classes[class].value = analyzer.known_value(&part);
    }
}

/// The full analysis: classes, value, and every winning move, each within
/// `analyzer`'s budget (see the module docs for what is left unknown when
/// it runs out).
#[must_use]
pub fn analyse(boards: &[LargeBoard], analyzer: &mut Analyzer) -> LargeAnalysis {
    analyzer.start();
    let mut analysis = classify(boards);
    known_values(&mut analysis, analyzer);
    analyzer.leaving_time_for_outcome(|analyzer| value_unpaired(&mut analysis, analyzer));
    // Only a stop by the clock brought forward leaves the value search more
    // to do: one by the position or the memory budget is final.
    let stopped_by_time = matches!(analysis.stopped, Some(SolveError::TimeBudget { .. }));
    winning_moves(&mut analysis, analyzer);
    if analysis.value.is_none()
        && stopped_by_time
        && analyzer.deadline.is_some()
        && !analyzer.halted()
    {
        // The outcome search or the pairs left time: the value search goes
        // on from its memo, and the moves by values replace the one proven
        // move when it finds the value and lists them.
        let proven = std::mem::take(&mut analysis.winning);
        let stopped = analysis.stopped.take();
        value_unpaired(&mut analysis, analyzer);
        if analysis.value.is_some() {
            winning_moves(&mut analysis, analyzer);
        }
        if analysis.value.is_none() || analysis.winning.is_empty() && !analysis.winning_complete {
            analysis.winning = proven;
        }
        if analysis.value.is_none() {
            analysis.stopped = analysis.stopped.take().or(stopped);
        }
    }
    analysis
}

/// The analysis of `boards` after a search of them (by the solver that
/// `analyzer` was made with, [`Analyzer::with_small_solver`]) that began
/// at `started` stopped with `stopped`: the values its memo holds, no value
/// searched again, and who wins by pairs or by outcome search as in
/// [`analyse`], within what is left of `analyzer`'s budget.
#[must_use]
pub fn analyse_after_stop(
    boards: &[LargeBoard],
    analyzer: &mut Analyzer,
    stopped: SolveError,
    started: Instant,
) -> LargeAnalysis {
    analyzer.start_at(started);
    let mut analysis = classify(boards);
    known_values(&mut analysis, analyzer);
    analysis.stopped = Some(analyzer.whole_budget(stopped));
    if analysis.unpaired().all(|c| c.value.is_some()) {
        let total: Nimber = analysis.unpaired().filter_map(|c| c.value).sum();
        analysis.value = Some(total);
        analysis.first_player_wins = Some(!total.is_zero());
    }
    match analysis.value {
        Some(total) if total.is_zero() => analysis.winning_complete = true,
        // A lone class of known value: its move to 0 is found in its memo.
        Some(_) => {
            if let Some(found) = lone_outcome(&mut analysis, analyzer) {
                analysis.winning.push(found);
            }
        }
        None => winning_moves(&mut analysis, analyzer),
    }
    analysis
}

/// When exactly one class does not cancel, a move of its first component
/// to a shape of value 0, found by outcome search: the total is then 0, so
/// the move wins (and the player to move wins). When there is none, the
/// class's value is 0, and so is the total: the analysis is complete, with
/// no winning move. `None` also when more than one class is left, or when
/// the budget runs out (kept in `stopped`).
pub(super) fn lone_outcome(
    analysis: &mut LargeAnalysis,
    analyzer: &mut Analyzer,
) -> Option<LargeWinningMove> {
    let class = analysis.lone_class()?;
    let index = analysis.classes[class].first as usize;
    match analyzer.move_to_zero(&analysis.part(index)) {
        Ok(Some(rect)) => {
            let info = analysis.components[index];
            analysis.first_player_wins = Some(true);
            Some(LargeWinningMove {
                rect: rect.offset(info.extent.top, info.extent.left),
                component: index as u32,
                reason: WinReason::LeavesZero,
            })
        }
        Ok(None) => {
            analysis.classes[class].value = Some(Nimber::ZERO);
            analysis.value = Some(Nimber::ZERO);
            analysis.first_player_wins = Some(false);
            analysis.winning.clear();
            analysis.winning_complete = true;
            analysis.stopped = None;
            None
        }
        Err(err) => {
            analysis.stopped = Some(err);
            None
        }
    }
}

/// Fills in the winning moves (see the module docs).
pub fn winning_moves(analysis: &mut LargeAnalysis, analyzer: &mut Analyzer) {
    match analysis.value {
        Some(total) if total.is_zero() => {
            analysis.winning_complete = true;
        }
        Some(total) => {
            analysis.winning_complete = winning_by_values(analysis, analyzer, total);
            // The budget ran out before any move was found (a long line's
            // value is known at once, its options are not): a move that
            // pairs alone prove still wins.
            if analysis.winning.is_empty() && !analysis.winning_complete {
                if let Some(found) = super::engine::cancelling_move(analysis, analyzer) {
                    analysis.winning.push(found);
                }
            }
        }
        None => {
            // The value is unknown, but a move that leaves only pairs wins
            // whatever the values are, and so does a move to 0 of a shape
            // left alone.
            let by_symmetry = super::engine::cancelling_move(analysis, analyzer)
                .or_else(|| super::engine::half_turn_move(analysis, analyzer));
            if let Some(found) = by_symmetry {
                analysis.first_player_wins = Some(true);
                analysis.winning.push(found);
            } else if let Some(found) = lone_outcome(analysis, analyzer) {
                analysis.winning.push(found);
            }
        }
    }
}

/// Every move to value 0, component by component; false when a class could
/// not be valued or searched within the budget.
fn winning_by_values(analysis: &mut LargeAnalysis, analyzer: &mut Analyzer, total: Nimber) -> bool {
    // The classes that cancel are valued now: their components may hold
    // winning moves.
    let mut complete = true;
    for class in 0..analysis.classes.len() {
        if analysis.classes[class].value.is_some() {
            continue;
        }
        let part = analysis.part(analysis.classes[class].first as usize);
        match analyzer.value(&part) {
            Ok(value) => analysis.classes[class].value = Some(value),
            Err(err) => {
                analysis.stopped.get_or_insert(err);
                complete = false;
                break;
            }
        }
    }
    // Moves of each placed shape (same cells, same orientation), computed
    // once: a random board repeats its small shapes thousands of times.
    let mut cache: HashMap<Part, Vec<LargeRect>> = HashMap::new();
    let mut winning = Vec::new();
    for index in 0..analysis.components.len() {
        // A board of millions of components can have millions of winning
        // moves: once one is found, the listing keeps the time budget.
        if index % 1024 == 1023 && !winning.is_empty() && analyzer.halted() {
            analysis.stopped.get_or_insert(analyzer.halt_error());
            complete = false;
            break;
        }
        let info = analysis.components[index];
        let Some(before) = analysis.classes[info.class as usize].value else {
            continue;
        };
        let after = before ^ total;
        let part = analysis.part(index);
        let moves = match cache.get(&part) {
            Some(moves) => moves.clone(),
            None => match analyzer.moves_to(&part, after) {
                Ok(moves) => {
                    cache.insert(part, moves.clone());
                    moves
                }
                Err(err) => {
                    analysis.stopped.get_or_insert(err);
                    complete = false;
                    break;
                }
            },
        };
        for rect in moves {
            winning.push(LargeWinningMove {
                rect: rect.offset(info.extent.top, info.extent.left),
                component: index as u32,
                reason: WinReason::Values { before, after },
            });
        }
    }
    analysis.winning = winning;
    complete
}

/// The parts a move leaves of a component, each cut to its box.
#[must_use]
pub fn parts_after(part: &Part, rect: LargeRect) -> Vec<Part> {
    let mut out = Vec::new();
    match part {
        Part::Small(board) => {
            let Ok(rect) = small_rect(rect) else {
                return out;
            };
            let after = board.play_unchecked(rect);
            for cells in after.components() {
                out.push(Part::Small(after.crop(cells)));
            }
        }
        Part::Large(board) => {
            let mut after = LargeBoard::clone(board);
            after.play_unchecked(rect);
            large_components(&after, |p| out.push(p));
        }
    }
    out
}

/// The class of a part cut to its box.
#[must_use]
pub fn class_of(part: &Part) -> ShapeClass {
    match part {
        Part::Small(board) => ShapeClass::of_board(board),
        Part::Large(board) => ShapeClass::of_cut(board),
    }
}

fn small_rect(rect: LargeRect) -> Result<crate::clear::Rect, ()> {
    let narrow = |v: u32| u8::try_from(v).map_err(|_| ());
    Ok(crate::clear::Rect {
        top: narrow(rect.top)?,
        left: narrow(rect.left)?,
        bottom: narrow(rect.bottom)?,
        right: narrow(rect.right)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a memory budget the large search runs under the default
    /// less what the small search holds; a stop there names the default,
    /// as a user who set none reads it, and the memory both searches held.
    #[test]
    fn a_stop_under_the_default_memory_budget_names_the_default() {
        let mut analyzer = Analyzer::new(Clear::new(), Budget::UNLIMITED);
        analyzer.prepare(true).unwrap();
        let default = super::super::game::DEFAULT_MAX_OPTION_BYTES;
        let limit = analyzer.default_large_limit.expect("the default applies");
        assert_eq!(limit, default - analyzer.small.held_bytes() as u64);
        let worded = analyzer.whole_budget(SolveError::MemoryBudget {
            limit,
            used: limit + 10,
        });
        assert!(
            matches!(worded, SolveError::MemoryBudget { limit, used } if limit == default && used == default + 10),
            "{worded:?}"
        );
        assert_eq!(
            worded.to_string(),
            "gave up before the search's memory would pass 1073741824 bytes \
             (the memory budget; it would need 1073741834 bytes)"
        );
        // A budget the user set is named as set.
        let budget = Budget {
            max_memory: Some(64 << 20),
            ..Budget::UNLIMITED
        };
        let mut analyzer = Analyzer::new(Clear::new(), budget);
        analyzer.prepare(true).unwrap();
        assert_eq!(analyzer.default_large_limit, None);
    }
}
