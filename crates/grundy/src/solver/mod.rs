//! A generic, iterative, memoising solver for any [`Game`].
//!
//! The value of a position is the XOR of its components' values; the value of
//! a component is the mex of its options' values. The solver evaluates this
//! by depth-first search with an explicit stack, so a game whose plays are
//! thousands of moves long cannot overflow the thread's stack. Each expanded
//! component streams its options' parts ([`Game::for_each_option_part`]) into
//! one shared arena (no `Vec` per position): the components of every option
//! are recorded once, those already known (to the game, or in the [`Table`])
//! are folded into the option's partial XOR at once, and only the unknown ones
//! are kept (with the ones the game listed as lookups, [`OptionPart::Lookup`],
//! which the game values at once when the table does not hold them). A frame
//! whose option needs an unknown component pushes it and resumes when it is
//! done. Every component is solved at most once, so the cost is the number of
//! distinct component keys reachable, times the cost of generating their
//! options.
//!
//! Searches can be bounded by a [`Budget`] (positions solved, wall time) and
//! report [`Progress`] through a callback, so front-ends can draw a progress
//! bar without the engine knowing about terminals.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::{Game, MexSet, Nimber, OptionPart};

mod budget;
mod helper;
mod outcome;
pub use outcome::MovesShown;
mod table;

pub use budget::{bytes_apart, bytes_in_words, seconds_in_words, Budget, SolveError};
pub use helper::{Exchange, Helper, WordExchange};
pub(crate) use table::{hash_map_bytes, hash_set_bytes};
pub use table::{HashTable, Table};

/// A legal move with the position it leads to.
pub type MoveAndPosition<G> = (<G as Game>::Move, <G as Game>::Position);

/// Legal moves with the positions they lead to.
pub type Moves<G> = Vec<MoveAndPosition<G>>;

/// Legal moves with the positions they lead to and those positions' values.
pub type ValuedMoves<G> = Vec<(<G as Game>::Move, <G as Game>::Position, Nimber)>;

/// A snapshot of a running search, passed to the progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Components solved so far by this solver and its helper.
    pub positions: u64,
    /// Current depth of the search stack.
    pub depth: usize,
}

/// How often (in solved components) the clock and the stop flag are read
/// and the progress callback is called (a helper tells its count there,
/// which the position budget adds): a time budget ends within 256
/// components (about 0.6 ms on a dense block, 2.3 µs a component, where
/// 4,096 let a search run about 10 ms past it). A read of the clock costs
/// about 25 ns; Python's callback, which runs the signal handlers, about
/// a microsecond.
pub(crate) const CHECK_INTERVAL: u64 = 256;

/// A helper, and the exchange it shares with the search it helps.
type HelperAndExchange<G> = (
    Box<dyn Helper<<G as Game>::Position>>,
    Arc<dyn Exchange<<G as Game>::Key>>,
);

/// A value search wakes its helper once it has solved this many shapes
/// (about a tenth of a second on a dense block), so that a search shorter
/// than that pays nothing for the thread and the exchange.
const HELP_AFTER: u64 = 1 << 16;

struct Frame<P, K> {
    position: P,
    key: K,
    /// This frame's options are `options[first_option..]`.
    first_option: usize,
    /// The next option to finish.
    option: usize,
    /// The next pending component of that option, an index into `pending`.
    part: usize,
    /// XOR of the option's components looked at so far.
    acc: Nimber,
    seen: MexSet,
    /// A helper's search expands the frame's parts last to first: those
    /// from here to the end of `pending` are known.
    tail: usize,
}

/// One option of an expanded frame: the XOR of its components already known
/// at expansion, and the range of its still-unknown components in `pending`.
struct OptionRecord {
    known: Nimber,
    pending_end: usize,
}

/// A component an expanded frame still needs, with its key, and whether the
/// game listed it as a lookup ([`OptionPart::Lookup`]): only those are asked
/// of [`Game::known_value`] before they are searched, so a component the
/// game already found unknown costs no second try.
#[derive(Clone)]
struct Pending<P, K> {
    position: P,
    key: K,
    lookup: bool,
}

/// Solves positions of one [`Game`], memoising component values in a
/// [`Table`] that persists across calls.
///
/// # Examples
///
/// ```
/// use grundy::{Game, Nimber, Solver};
///
/// /// Subtraction game: take 1 or 2 from a heap. Values are n mod 3.
/// struct TakeOneOrTwo;
/// impl Game for TakeOneOrTwo {
///     type Position = u32;
///     type Move = u32;
///     type Key = u32;
///     fn for_each_option<F: FnMut(u32, u32)>(&self, heap: &u32, mut visit: F) {
///         for take in 1..=2.min(*heap) {
///             visit(take, heap - take);
///         }
///     }
///     fn key(&self, heap: &u32) -> u32 {
///         *heap
///     }
/// }
///
/// let mut solver = Solver::new(TakeOneOrTwo);
/// assert_eq!(solver.value(&100_000).unwrap(), Nimber::new(100_000 % 3));
/// assert_eq!(solver.winning_moves(&7).unwrap(), vec![(1, 6)]);
/// ```
pub struct Solver<G: Game, T: Table<G::Key> = HashTable<<G as Game>::Key>> {
    game: G,
    table: T,
    budget: Budget,
    started: Option<Instant>,
    solved: u64,
    progress: Option<Box<dyn FnMut(Progress) + Send>>,
    // Scratch kept between searches to avoid reallocating.
    stack: Vec<Frame<G::Position, G::Key>>,
    options: Vec<OptionRecord>,
    pending: Vec<Pending<G::Position, G::Key>>,
    /// The bytes the pending parts and the memo's keys hold behind
    /// pointers ([`Game::heap_bytes`]; 0 unless [`Game::HEAP`]).
    pending_heap: usize,
    memo_heap: usize,
    /// The bytes the outcome search's listings hold while its recursion
    /// works through them (`outcome.rs`).
    outcome_heap: usize,
    spare_sets: Vec<MexSet>,
    /// Components an outcome search found won (a value other than 0) without
    /// valuing them; those it found lost have value 0 and are in the table
    /// (see `outcome.rs`).
    won: FxHashSet<G::Key>,
    /// Other values it proved a component does not have, bit `t` for value
    /// `t` (1 to 63), kept apart from `won`, which holds most of the
    /// components ruled out, at two thirds of the bytes an entry.
    not_values: FxHashMap<G::Key, u64>,
    /// Values shared with a helper's search while it helps, or with the
    /// search this one helps (`helper.rs`).
    exchange: Option<Arc<dyn Exchange<G::Key>>>,
    /// The helper of this solver's value searches, with its exchange.
    helper: Option<HelperAndExchange<G>>,
    /// The component of the value search under way, until its helper is
    /// woken, and the count of solved shapes at which it is.
    help_root: Option<(G::Position, u64)>,
    /// [`HELP_AFTER`], or less in tests.
    help_after: u64,
    /// Set when this solver is a helper: where it is told to stop.
    helping: Option<Arc<AtomicBool>>,
    /// Its caller's stop flag ([`Solver::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// The shapes the helper solved since the count started, as last read,
    /// and its own count when the count started.
    helped: u64,
    helper_start: u64,
}

impl<G: Game> Solver<G> {
    /// A solver with an empty hash table and no budget.
    #[must_use]
    pub fn new(game: G) -> Self {
        Solver::with_table(game, HashTable::default())
    }
}

impl<G: Game, T: Table<G::Key>> Solver<G, T> {
    /// A solver with the given memo table and no budget.
    #[must_use]
    pub fn with_table(game: G, table: T) -> Self {
        Solver {
            game,
            table,
            budget: Budget::UNLIMITED,
            started: None,
            solved: 0,
            progress: None,
            stack: Vec::new(),
            options: Vec::new(),
            pending: Vec::new(),
            pending_heap: 0,
            memo_heap: 0,
            outcome_heap: 0,
            spare_sets: Vec::new(),
            won: FxHashSet::default(),
            not_values: FxHashMap::default(),
            exchange: None,
            helper: None,
            help_root: None,
            help_after: HELP_AFTER,
            helping: None,
            stop: None,
            helped: 0,
            helper_start: 0,
        }
    }

    /// This solver with a helper for its value searches, which shares
    /// values through `exchange` (see `helper.rs`). Its own memory is then
    /// bounded by the budget less the helper's share of it
    /// ([`Helper::memory_bytes`]).
    #[must_use]
    pub fn with_helper(
        mut self,
        helper: Box<dyn Helper<G::Position>>,
        exchange: Arc<dyn Exchange<G::Key>>,
    ) -> Self {
        self.helper_start = helper.solved();
        self.helped = 0;
        self.helper = Some((helper, exchange));
        self
    }

    /// This solver waking its helper after `shapes` solved shapes in place
    /// of [`HELP_AFTER`], so that tests help small searches.
    #[cfg(test)]
    pub(crate) fn help_after(mut self, shapes: u64) -> Self {
        self.help_after = shapes;
        self
    }

    /// This solver as a helper: its value searches expand a frame's parts
    /// last to first, share values through `exchange`, and stop with
    /// [`SolveError::Stopped`] once `stop` is set.
    #[must_use]
    pub fn helping(mut self, exchange: Arc<dyn Exchange<G::Key>>, stop: Arc<AtomicBool>) -> Self {
        self.exchange = Some(exchange);
        self.helping = Some(stop);
        self
    }

    /// Sets the limits for later searches. The position count and the clock
    /// start at the first search after this call.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.set_budget(budget);
        self
    }

    /// [`Solver::with_budget`] in place: new limits for later searches, the
    /// count and the clock started afresh, the memo kept. A helper that
    /// already holds more than a smaller memory budget allows with the
    /// solver's own memo (its exchange is allocated whole) goes, as it
    /// would go at the budget's first check: the solver searches alone
    /// from then on.
    pub fn set_budget(&mut self, budget: Budget) {
        if let Some(limit) = budget.max_memory {
            if self.helper.is_some() && self.held_bytes() as u64 > limit {
                self.exchange = None;
                self.help_root = None;
                self.helper = None;
            }
        }
        self.budget = budget;
        self.started = None;
        self.solved = 0;
        self.helped = 0;
        self.helper_start = self
            .helper
            .as_ref()
            .map_or(0, |(helper, _)| helper.solved());
    }

    /// A flag that stops this solver's searches from outside (a web request
    /// whose client has gone, say): tested where the clock is, every few
    /// thousand solved components, and a search it stops ends with
    /// [`SolveError::Stopped`]. The memo keeps what was found, as after a
    /// budget's stop. `None` takes the flag away.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// Sets a callback that is told about progress every few thousand solved
    /// components.
    #[must_use]
    pub fn with_progress(mut self, progress: impl FnMut(Progress) + Send + 'static) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// [`Solver::with_progress`] in place, for a solver kept between
    /// searches whose callback belongs to its caller; `None` removes it.
    pub fn set_progress(&mut self, progress: Option<Box<dyn FnMut(Progress) + Send>>) {
        self.progress = progress;
    }

    /// The rules this solver plays by.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The rules, to change their settings between searches (a game that
    /// keys or values positions differently must not be changed this way:
    /// the memo would then mix two games).
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// The memo table.
    pub fn table(&self) -> &T {
        &self.table
    }

    /// The bytes this solver holds with what its next step may add: the
    /// memo table's allocations with its next growth step
    /// ([`Table::allocated_bytes`], [`Table::growth_bytes`]), the capacity
    /// of the search's stack and arena with one doubling each, and the
    /// values the outcome search ruled out, with their next doubling
    /// ([`Solver::component_has_value`]).
    /// With a helper, the most its share may hold
    /// ([`Helper::memory_bytes`]) too. This is what [`Budget::max_memory`]
    /// bounds: checked after every insert, it stops the search before what
    /// the search holds ([`Solver::held_bytes`]) passes the budget.
    pub fn memory_bytes(&self) -> usize {
        let budget = &self.budget;
        self.own_memory_bytes()
            + self.growth_bytes()
            + self
                .helper
                .as_ref()
                .map_or(0, |(helper, _)| helper.memory_bytes(budget))
    }

    /// The bytes this solver holds now: its own (what [`Solver::memory_bytes`]
    /// counts, less what the next step may add), and what its helper holds
    /// ([`Helper::held_bytes`]) in place of the most the helper may hold.
    /// What a caller deciding whether to drop the memo wants to know.
    pub fn held_bytes(&self) -> usize {
        self.own_memory_bytes()
            + self
                .helper
                .as_ref()
                .map_or(0, |(helper, _)| helper.held_bytes())
    }

    /// What this solver's next step may add to what it holds (see
    /// [`Solver::memory_bytes`]): the memo's next growth step, one doubling
    /// of each of the search's vectors (each grows by doubling, and between
    /// two checks, which follow every insert, a search pushes at most one
    /// shape's options and parts), and the next doubling of the outcome
    /// search's sets (a doubled set holds both tables while it moves, hence
    /// twice).
    fn growth_bytes(&self) -> usize {
        self.table.growth_bytes()
            + self.scratch_bytes()
            + 2 * hash_set_bytes(&self.won)
            + 2 * hash_map_bytes(&self.not_values)
    }

    /// The capacity of the search's stack and arena.
    fn scratch_bytes(&self) -> usize {
        use std::mem::size_of;
        self.stack.capacity() * size_of::<Frame<G::Position, G::Key>>()
            + self.options.capacity() * size_of::<OptionRecord>()
            + self.pending.capacity() * size_of::<Pending<G::Position, G::Key>>()
            + self.spare_sets.capacity() * size_of::<MexSet>()
    }

    /// The bytes this solver's own memo and search hold now.
    fn own_memory_bytes(&self) -> usize {
        self.table.allocated_bytes()
            + self.scratch_bytes()
            + self.pending_heap
            + self.memo_heap
            + self.outcome_heap
            + hash_set_bytes(&self.won)
            + hash_map_bytes(&self.not_values)
    }

    /// Components solved by search so far (not counting known values), by
    /// this solver and its helper, since the budget was set: what
    /// [`Budget::max_positions`] bounds.
    pub fn positions_solved(&self) -> u64 {
        self.solved + self.helped
    }

    /// The value of a position: the XOR of its components' values.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first. The table keeps what was
    /// solved, so a later call with a larger budget resumes the work.
    pub fn value(&mut self, position: &G::Position) -> Result<Nimber, SolveError> {
        let mut components = Vec::new();
        self.game
            .for_each_component(position, |component| components.push(component));
        let mut total = Nimber::ZERO;
        for component in components {
            total ^= self.component_value(component)?;
        }
        Ok(total)
    }

    /// Every legal move from `position` whose resulting position has value
    /// `target`, with that position, in the order the game yields them.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first.
    pub fn moves_to(
        &mut self,
        position: &G::Position,
        target: Nimber,
    ) -> Result<Moves<G>, SolveError> {
        let mut found = Vec::new();
        for (mv, option) in self.options_of(position)? {
            if self.value(&option)? == target {
                found.push((mv, option));
            }
        }
        Ok(found)
    }

    /// Every winning move: the legal moves to a position of value 0.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first.
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Moves<G>, SolveError> {
        self.moves_to(position, Nimber::ZERO)
    }

    /// Every legal move with the position it leads to and that position's
    /// value.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first.
    pub fn options_with_values(
        &mut self,
        position: &G::Position,
    ) -> Result<ValuedMoves<G>, SolveError> {
        let mut out = Vec::new();
        for (mv, option) in self.options_of(position)? {
            let value = self.value(&option)?;
            out.push((mv, option, value));
        }
        Ok(out)
    }

    /// Every option of `position`; an error when the game stopped listing
    /// them early ([`Game::interrupted`]), so no caller reads a partial list
    /// as the whole.
    fn options_of(&self, position: &G::Position) -> Result<Moves<G>, SolveError> {
        let mut options = Vec::new();
        self.game
            .for_each_option(position, |mv, option| options.push((mv, option)));
        match self.game.interrupted() {
            Some(err) => Err(err),
            None => Ok(options),
        }
    }

    /// The value of one component.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out first.
    pub fn component_value(&mut self, component: G::Position) -> Result<Nimber, SolveError> {
        if let Some(value) = self.game.known_value(&component) {
            return Ok(value);
        }
        let key = self.game.key(&component);
        if let Some(value) = self.table.get(&key) {
            return Ok(value);
        }
        if self.helper.is_some() {
            self.help_root = Some((component.clone(), self.solved + self.help_after));
        }
        let result = self.on_empty_scratch(|solver| solver.search(component, key));
        self.help_root = None;
        // A helped search's exchange is its own only while its helper
        // helps; a helper keeps its exchange for the next search.
        if let Some((helper, _)) = self.helper.as_mut() {
            if self.exchange.take().is_some() {
                helper.end();
                // Its last shapes, told as it stopped, count too.
                self.helped = helper.solved().saturating_sub(self.helper_start);
            }
        }
        result
    }

    /// Wakes the helper on the component of the value search under way, if
    /// the memory budget leaves room for its share; from then on the search
    /// shares values through the exchange.
    fn wake_helper(&mut self) {
        let Some((root, _)) = self.help_root.take() else {
            return;
        };
        let free = self.budget.max_memory.map(|limit| {
            usize::try_from(limit)
                .unwrap_or(usize::MAX)
                .saturating_sub(self.memory_bytes())
        });
        // The helper's positions are those the two have left.
        let budget = Budget {
            max_positions: self
                .budget
                .max_positions
                .map(|limit| limit.saturating_sub(self.solved + self.helped)),
            ..self.budget
        };
        let solved = self.solved;
        if let Some((helper, exchange)) = self.helper.as_mut() {
            helper.tell(solved);
            if helper.begin(&root, &budget, free) {
                self.exchange = Some(Arc::clone(exchange));
            }
        }
    }

    /// Runs a search that starts on empty scratch (stack, options, pending
    /// parts), and leaves it empty whether the search finished or gave up.
    fn on_empty_scratch<R>(&mut self, search: impl FnOnce(&mut Self) -> R) -> R {
        self.started.get_or_insert_with(Instant::now);
        let result = search(self);
        self.stack.clear();
        self.options.clear();
        self.pending.clear();
        self.pending_heap = 0;
        result
    }

    /// The value of `component` (kept in the memo), or `None` as soon as one
    /// of its options is found to have value `target`, which proves its
    /// value is not `target`: the options are valued in turn at the top,
    /// each by the value search, and those not reached are not searched.
    fn value_unless_an_option_is(
        &mut self,
        component: G::Position,
        key: G::Key,
        target: Nimber,
    ) -> Result<Option<Nimber>, SolveError> {
        if let Some(value) = self.table.get(&key) {
            return Ok(Some(value));
        }
        self.check_positions_left()?;
        self.on_empty_scratch(|solver| solver.top_until(component, key, target))
    }

    /// [`Solver::value_unless_an_option_is`] on empty scratch: the top frame is
    /// expanded as the search's are, and kept off the stack, so that each
    /// of its parts is searched with an empty stack of its own above it.
    fn top_until(
        &mut self,
        top: G::Position,
        top_key: G::Key,
        target: Nimber,
    ) -> Result<Option<Nimber>, SolveError> {
        self.push_frame(top, top_key);
        if let Some(err) = self.game.interrupted() {
            return Err(err);
        }
        if G::HEAP {
            self.check_memory()?;
            self.check_time()?;
        }
        let Frame {
            key,
            first_option,
            mut part,
            mut seen,
            ..
        } = self.stack.pop().expect("the frame just pushed");
        // Cheapest option first: small parts have small values, and the
        // values asked are mostly small.
        let mut order: Vec<(u64, usize, usize)> = Vec::new();
        for option in first_option..self.options.len() {
            let end = self.options[option].pending_end;
            let cost = self.pending[part..end]
                .iter()
                .map(|pending| self.game.search_cost(&pending.position))
                .max()
                .unwrap_or(0);
            order.push((cost, option, part));
            part = end;
        }
        order.sort_unstable();
        for (_, option, mut part) in order {
            let OptionRecord { known, pending_end } = self.options[option];
            let mut total = known;
            while part < pending_end {
                let Pending {
                    position,
                    key,
                    lookup,
                } = self.pending[part].clone();
                total ^= match self.table.get(&key) {
                    Some(value) => value,
                    None => match self.game.known_value(&position).filter(|_| lookup) {
                        Some(value) => {
                            self.remember(key, value);
                            self.check_memory()?;
                            value
                        }
                        None => self.search(position, key)?,
                    },
                };
                part += 1;
            }
            if total == target {
                self.spare_sets.push(seen);
                return Ok(None);
            }
            seen.insert(total);
        }
        let value = seen.mex();
        self.spare_sets.push(seen);
        self.remember(key, value);
        self.solved += 1;
        self.check_budget()?;
        Ok(Some(value))
    }

    /// Drops the pending parts from `start` on.
    fn drop_pending_from(&mut self, start: usize) {
        if G::HEAP {
            for part in &self.pending[start.min(self.pending.len())..] {
                self.pending_heap -= self.game.heap_bytes(Some(&part.position), &part.key);
            }
        }
        self.pending.truncate(start);
    }

    /// Puts `key`'s value in the memo.
    fn remember(&mut self, key: G::Key, value: Nimber) {
        if G::HEAP {
            self.memo_heap += self.game.heap_bytes(None, &key);
        }
        self.table.insert(key, value);
    }

    fn push_frame(&mut self, position: G::Position, key: G::Key) {
        if G::HEAP {
            self.game
                .hold_pending(self.pending_heap, self.memory_bytes());
        }
        let first_option = self.options.len();
        let part = self.pending.len();
        let Solver {
            game,
            table,
            options,
            pending,
            pending_heap,
            exchange,
            ..
        } = self;
        // First every option's components and keys, asking the table to
        // fetch each key's memory; then the lookups, whose cache misses
        // overlap instead of following one another.
        let mut known = Nimber::ZERO;
        game.for_each_option_part(&position, |part| {
            let (position, key, lookup) = match part {
                OptionPart::Known(value) => {
                    known ^= value;
                    return;
                }
                OptionPart::Unknown(position, key) => (position, key, false),
                OptionPart::Lookup(position, key) => (position, key, true),
                OptionPart::End => {
                    options.push(OptionRecord {
                        known,
                        pending_end: pending.len(),
                    });
                    known = Nimber::ZERO;
                    return;
                }
            };
            table.prefetch(&key);
            if G::HEAP {
                *pending_heap += game.heap_bytes(Some(&position), &key);
            }
            pending.push(Pending {
                position,
                key,
                lookup,
            });
        });
        // Fold the components the table knows into their option's XOR and
        // keep the others, in order.
        let (mut read, mut write) = (part, part);
        for record in &mut options[first_option..] {
            while read < record.pending_end {
                match table.get(&pending[read].key) {
                    Some(value) => record.known ^= value,
                    None => {
                        if let Some(exchange) = exchange {
                            exchange.prefetch(&pending[read].key);
                        }
                        pending.swap(write, read);
                        write += 1;
                    }
                }
                read += 1;
            }
            record.pending_end = write;
        }
        if let Some(exchange) = exchange {
            exchange.prefetch(&key);
        }
        self.drop_pending_from(write);
        let mut seen = self.spare_sets.pop().unwrap_or_default();
        seen.clear();
        self.stack.push(Frame {
            position,
            key,
            first_option,
            option: first_option,
            part,
            acc: Nimber::ZERO,
            seen,
            tail: write,
        });
    }

    fn search(&mut self, root: G::Position, root_key: G::Key) -> Result<Nimber, SolveError> {
        self.check_positions_left()?;
        self.push_frame(root, root_key);
        loop {
            // A game may cut a long expansion short (its deadline or memory
            // budget ran out): the frame's options are then incomplete, so
            // the search stops before any of them is used.
            if let Some(err) = self.game.interrupted() {
                return Err(err);
            }
            // Parts held behind pointers grow with every expansion, not only
            // with the memo, and an expansion of such a game is long: each
            // descent is checked.
            if G::HEAP {
                self.check_memory()?;
                self.check_time()?;
            }
            let frame = self.stack.last_mut().expect("search stack holds the root");
            let mut needed = None;
            while frame.option < self.options.len() {
                let record = &self.options[frame.option];
                while frame.part < record.pending_end {
                    match self.table.get(&self.pending[frame.part].key) {
                        Some(value) => {
                            frame.acc ^= value;
                            frame.part += 1;
                        }
                        None => {
                            needed = Some(frame.part);
                            break;
                        }
                    }
                }
                if needed.is_some() {
                    break;
                }
                frame.seen.insert(record.known ^ frame.acc);
                frame.acc = Nimber::ZERO;
                frame.option += 1;
            }
            if let Some(mut index) = needed {
                if self.helping.is_some() {
                    index = self.last_unknown(index);
                }
                let Pending {
                    position,
                    key,
                    lookup,
                } = self.pending[index].clone();
                if let Some(value) = self.exchange.as_ref().and_then(|ex| ex.get(&key)) {
                    self.remember(key, value);
                    self.check_memory()?;
                    continue;
                }
                // A part the game listed as a lookup is valued once and
                // kept in the memo, where its later probes find it.
                if lookup {
                    if let Some(value) = self.game.known_value(&position) {
                        self.remember(key, value);
                        self.check_memory()?;
                        continue;
                    }
                }
                // The same component may appear twice among pending parts;
                // it is solved once and then found in the table.
                self.push_frame(position, key);
                continue;
            }
            let frame = self.stack.pop().expect("frame just inspected");
            let value = frame.seen.mex();
            let part_start = if frame.first_option == 0 {
                0
            } else {
                self.options[frame.first_option - 1].pending_end
            };
            self.options.truncate(frame.first_option);
            self.drop_pending_from(part_start);
            if let Some(exchange) = &self.exchange {
                exchange.put(&frame.key, value);
            }
            self.remember(frame.key, value);
            self.spare_sets.push(frame.seen);
            drop(frame.position);
            self.solved += 1;
            if self
                .help_root
                .as_ref()
                .is_some_and(|(_, at)| self.solved >= *at)
            {
                self.wake_helper();
            }
            if self.stack.is_empty() {
                return Ok(value);
            }
            self.check_budget()?;
        }
    }

    /// In a helper's search, the last part of the top frame not yet known,
    /// from `first`, which is not known, on; the frame's `tail` then skips
    /// the parts found known, so each is probed here once.
    fn last_unknown(&mut self, first: usize) -> usize {
        let frame = self.stack.last_mut().expect("the frame that needs a part");
        let mut index = frame.tail.min(self.pending.len());
        while index > first {
            index -= 1;
            if self.table.get(&self.pending[index].key).is_none() {
                break;
            }
        }
        frame.tail = index.max(first);
        frame.tail
    }

    /// The memory budget alone: checked after every insert into the table,
    /// so that no run of inserts grows it past the budget unchecked. A
    /// helped solver counts its helper's share too, and when the two would
    /// pass the budget the helper goes (its thread, memo and exchange) and
    /// the search goes on alone; a helper stops here when told to.
    fn check_memory(&mut self) -> Result<(), SolveError> {
        if self
            .helping
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(SolveError::Stopped);
        }
        if let Some(limit) = self.budget.max_memory {
            let mut used = self.memory_bytes() as u64;
            if used > limit && self.helper.is_some() {
                self.exchange = None;
                self.help_root = None;
                self.helper = None;
                used = self.memory_bytes() as u64;
            }
            if used > limit {
                return Err(SolveError::MemoryBudget { limit, used });
            }
        }
        Ok(())
    }

    fn check_time(&self) -> Result<(), SolveError> {
        if self
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(SolveError::Stopped);
        }
        if let (Some(limit), Some(started)) = (self.budget.max_time, self.started) {
            let release = if G::HEAP {
                self.game.release_time(self.pending_heap)
            } else {
                Duration::ZERO
            };
            if started.elapsed().saturating_add(release) >= limit {
                return Err(SolveError::TimeBudget { limit });
            }
        }
        Ok(())
    }

    /// Stops once the position budget is spent: checked after each solved
    /// position, and before a search starts, so that a budget of 0 solves
    /// none.
    fn check_positions_left(&self) -> Result<(), SolveError> {
        match self.budget.max_positions {
            Some(limit) if self.solved + self.helped >= limit => Err(SolveError::PositionBudget {
                limit,
                needed: None,
            }),
            _ => Ok(()),
        }
    }

    fn check_budget(&mut self) -> Result<(), SolveError> {
        if let Some((helper, _)) = &self.helper {
            helper.tell(self.solved);
            self.helped = helper.solved().saturating_sub(self.helper_start);
        }
        self.check_positions_left()?;
        self.check_memory()?;
        if self.solved % CHECK_INTERVAL == 0 {
            self.check_time()?;
            if let Some(progress) = self.progress.as_mut() {
                progress(Progress {
                    positions: self.solved + self.helped,
                    depth: self.stack.len(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// Messages word spans and sizes as people read them.
    #[test]
    fn budgets_are_worded_for_people() {
        use std::time::Duration;
        let spans = [
            (2.0, "2 s"),
            (0.5, "0.5 s"),
            (4.999_960_151, "5 s"),
            (0.0, "0 s"),
        ];
        for (secs, text) in spans {
            assert_eq!(super::seconds_in_words(Duration::from_secs_f64(secs)), text);
        }
        assert_eq!(
            super::seconds_in_words(Duration::from_nanos(3)),
            "less than a millisecond"
        );
        assert_eq!(
            super::bytes_apart(1 << 20, (1 << 20) + 24),
            ("1048576 bytes".to_owned(), "1048600 bytes".to_owned())
        );
        assert_eq!(
            super::bytes_apart(1 << 20, 3 << 20),
            ("1.0 MiB".to_owned(), "3.0 MiB".to_owned())
        );
        assert_eq!(
            super::bytes_apart(4 << 20, 4_209_744),
            ("4.00 MiB".to_owned(), "4.01 MiB".to_owned())
        );
        assert_eq!(super::bytes_in_words(1), "1 byte");
        assert_eq!(super::bytes_in_words(1000), "1000 bytes");
        assert_eq!(super::bytes_in_words(2048), "2.0 KiB");
        assert_eq!(super::bytes_in_words(3 << 20), "3.0 MiB");
        assert_eq!(super::bytes_in_words(2 << 30), "2.0 GiB");
        // Rounded up to the next unit, not to 1024 of this one.
        assert_eq!(super::bytes_in_words((1 << 30) - (40 << 10)), "1.0 GiB");
        assert_eq!(super::bytes_in_words((1 << 20) - 1), "1.0 MiB");
        assert_eq!(
            super::bytes_apart((1 << 30) - (40 << 10), 1 << 30),
            ("1023.96 MiB".to_owned(), "1.00 GiB".to_owned())
        );
        assert_eq!(
            super::bytes_apart((1 << 30) - (40 << 20), 1 << 30),
            ("984.0 MiB".to_owned(), "1.0 GiB".to_owned())
        );
    }

    use super::*;
    use proptest::prelude::*;

    /// Nim on several heaps, with each heap a component: value = XOR of heaps.
    struct Nim;
    impl Game for Nim {
        type Position = Vec<u32>;
        type Move = (usize, u32);
        type Key = Vec<u32>;
        fn for_each_option<F: FnMut((usize, u32), Vec<u32>)>(
            &self,
            heaps: &Vec<u32>,
            mut visit: F,
        ) {
            for (i, &h) in heaps.iter().enumerate() {
                for to in 0..h {
                    let mut next = heaps.clone();
                    next[i] = to;
                    visit((i, to), next);
                }
            }
        }
        fn for_each_component<F: FnMut(Vec<u32>)>(&self, heaps: &Vec<u32>, mut visit: F) {
            heaps
                .iter()
                .filter(|&&h| h > 0)
                .for_each(|&h| visit(vec![h]));
        }
        fn key(&self, heaps: &Vec<u32>) -> Vec<u32> {
            heaps.clone()
        }
    }

    /// The same game without decomposition: the solver must still find XOR.
    struct WholeNim;
    impl Game for WholeNim {
        type Position = Vec<u32>;
        type Move = (usize, u32);
        type Key = Vec<u32>;
        fn for_each_option<F: FnMut((usize, u32), Vec<u32>)>(&self, heaps: &Vec<u32>, visit: F) {
            Nim.for_each_option(heaps, visit);
        }
        fn key(&self, heaps: &Vec<u32>) -> Vec<u32> {
            let mut sorted = heaps.clone();
            sorted.sort_unstable();
            sorted
        }
    }

    /// Plain recursive mex over whole positions, no decomposition: the
    /// oracle. Memoised by position (as given, not sorted), so a case costs
    /// its distinct positions, not its plays.
    fn brute(heaps: &[u32]) -> Nimber {
        fn value(heaps: &[u32], memo: &mut std::collections::HashMap<Vec<u32>, Nimber>) -> Nimber {
            if let Some(&known) = memo.get(heaps) {
                return known;
            }
            let mut options = Vec::new();
            Nim.for_each_option(&heaps.to_vec(), |_, next| options.push(next));
            let mut seen = MexSet::new();
            for next in options {
                seen.insert(value(&next, memo));
            }
            let mex = seen.mex();
            memo.insert(heaps.to_vec(), mex);
            mex
        }
        value(heaps, &mut std::collections::HashMap::new())
    }

    proptest! {
        #[test]
        fn solver_matches_brute_force(heaps in proptest::collection::vec(0u32..5, 0..4)) {
            let expected = brute(&heaps);
            prop_assert_eq!(Solver::new(Nim).value(&heaps).unwrap(), expected);
            prop_assert_eq!(Solver::new(WholeNim).value(&heaps).unwrap(), expected);
        }

        #[test]
        fn winning_moves_are_exactly_the_moves_to_zero(heaps in proptest::collection::vec(0u32..6, 0..4)) {
            let mut solver = Solver::new(Nim);
            let moves = solver.winning_moves(&heaps).unwrap();
            let mut expected = Vec::new();
            Nim.for_each_option(&heaps, |mv, next| if brute(&next).is_zero() { expected.push(mv) });
            prop_assert_eq!(moves.into_iter().map(|(mv, _)| mv).collect::<Vec<_>>(), expected);
        }
    }

    /// A game whose only play is very long: recursion would overflow.
    struct Countdown;
    impl Game for Countdown {
        type Position = u32;
        type Move = ();
        type Key = u32;
        fn for_each_option<F: FnMut((), u32)>(&self, n: &u32, mut visit: F) {
            if *n > 0 {
                visit((), n - 1);
            }
        }
        fn key(&self, n: &u32) -> u32 {
            *n
        }
    }

    #[test]
    fn deep_games_do_not_overflow_the_stack() {
        // Value alternates 0, 1, 0, 1, ... along the single line of play.
        let depth = 1_000_000;
        assert_eq!(
            Solver::new(Countdown).value(&depth).unwrap(),
            Nimber::new(depth % 2)
        );
    }

    proptest! {
        /// The outcome search against the brute force: a heap vector (one
        /// component of `WholeNim`) is lost exactly when its value is 0, and
        /// the move found is legal and leaves value 0, found exactly when the
        /// value is not 0 (by `Nim`'s components, and by `WholeNim`'s one).
        #[test]
        fn outcome_search_matches_brute_force(heaps in proptest::collection::vec(0u32..5, 0..4)) {
            let zero = brute(&heaps).is_zero();
            prop_assert_eq!(Solver::new(WholeNim).component_is_zero(heaps.clone()).unwrap(), zero);
            let found = Solver::new(Nim).move_to_zero(&heaps).unwrap();
            let whole = Solver::new(WholeNim).move_to_zero(&heaps).unwrap();
            for found in [found, whole] {
                match found {
                    Some((mv, after)) => {
                        prop_assert!(!zero);
                        prop_assert!(brute(&after).is_zero());
                        let mut legal = false;
                        Nim.for_each_option(&heaps, |m, next| legal |= m == mv && next == after);
                        prop_assert!(legal);
                    }
                    None => prop_assert!(zero),
                }
            }
        }
    }

    proptest! {
        /// The search for one value against the brute force, on one
        /// component of `WholeNim` (every option a single part, whose
        /// questions ask for values other than 0) and on `Nim`'s heaps as
        /// components (options of several parts, all but the costliest
        /// valued), every target asked of one solver.
        #[test]
        fn value_questions_match_brute_force(heaps in proptest::collection::vec(0u32..6, 0..4)) {
            let value = brute(&heaps).value();
            let (mut whole, mut parts) = (Solver::new(WholeNim), Solver::new(Nim));
            for target in (0..=value + 2).rev() {
                let expected = value == target;
                let target = Nimber::new(target);
                prop_assert_eq!(whole.component_has_value(heaps.clone(), target).unwrap(), expected);
                prop_assert_eq!(parts.component_has_value(heaps.clone(), target).unwrap(), expected);
            }
        }
    }

    #[test]
    fn values_past_the_ruled_out_word_go_to_the_value_search() {
        // Values past the 64 targets a word of ruled-out values holds: one
        // heap of 100, and heaps of 70 and 3.
        let mut solver = Solver::new(WholeNim);
        for heaps in [vec![100], vec![70, 3]] {
            let value = brute(&heaps);
            assert!(value.value() >= 64);
            let below = Nimber::new(value.value() - 1);
            assert!(!solver.component_has_value(heaps.clone(), below).unwrap());
            assert!(solver.component_has_value(heaps, value).unwrap());
        }
    }

    #[test]
    fn deep_outcome_searches_hand_over_to_the_value_search() {
        // Past the outcome search's depth the value search (its stack on the
        // heap) decides: value n mod 2.
        let mut solver = Solver::new(Countdown);
        assert!(solver.component_is_zero(1_000_000).unwrap());
        assert!(!solver.component_is_zero(999_999).unwrap());
        assert_eq!(solver.move_to_zero(&7).unwrap(), Some(((), 6)));
        assert_eq!(solver.move_to_zero(&8).unwrap(), None);
    }

    #[test]
    fn budget_stops_the_outcome_search_and_the_memos_resume_it() {
        // A lost position (1 ^ 2 ^ 3 ^ 4 ^ 4 = 0): every option is refuted.
        let heaps = vec![1, 2, 3, 4, 4];
        let mut solver = Solver::new(WholeNim).with_budget(Budget::positions(5));
        assert_eq!(
            solver.component_is_zero(heaps.clone()),
            Err(SolveError::PositionBudget {
                limit: 5,
                needed: None
            })
        );
        solver.set_budget(Budget::UNLIMITED);
        assert!(solver.component_is_zero(heaps).unwrap());
    }

    #[test]
    fn budget_stops_a_value_question_and_the_memos_resume_it() {
        // A question of a value other than 0 goes through the stopped value
        // search (`WholeNim`'s options are one part each): cut short by the
        // budget, it resumes from what it kept.
        let heaps = vec![1, 2, 3, 4, 5];
        let value = brute(&heaps);
        let mut solver = Solver::new(WholeNim).with_budget(Budget::positions(5));
        assert_eq!(
            solver.component_has_value(heaps.clone(), value),
            Err(SolveError::PositionBudget {
                limit: 5,
                needed: None
            })
        );
        solver.set_budget(Budget::UNLIMITED);
        assert!(solver.component_has_value(heaps.clone(), value).unwrap());
        assert!(!solver
            .component_has_value(heaps, value ^ Nimber::new(3))
            .unwrap());
    }

    #[test]
    fn a_budget_of_n_positions_solves_n_and_reports_n() {
        // Each search stops with exactly its budget solved, none for a
        // budget of 0 (the count is also checked before a search starts).
        let heaps = vec![1, 2, 3, 4, 5];
        let value = brute(&heaps);
        for limit in [0, 1, 2, 5] {
            let stopped = SolveError::PositionBudget {
                limit,
                needed: None,
            };
            let mut solver = Solver::new(Countdown).with_budget(Budget::positions(limit));
            assert_eq!(solver.value(&5000), Err(stopped.clone()));
            assert_eq!(solver.positions_solved(), limit);
            let mut solver = Solver::new(WholeNim).with_budget(Budget::positions(limit));
            assert_eq!(
                solver.component_is_zero(heaps.clone()),
                Err(stopped.clone())
            );
            assert_eq!(solver.positions_solved(), limit);
            let mut solver = Solver::new(WholeNim).with_budget(Budget::positions(limit));
            assert_eq!(
                solver.component_has_value(heaps.clone(), value),
                Err(stopped)
            );
            assert_eq!(solver.positions_solved(), limit);
        }
    }

    #[test]
    fn budget_stops_the_search_and_the_table_resumes_it() {
        let mut solver = Solver::new(Countdown).with_budget(Budget::positions(1000));
        assert_eq!(
            solver.value(&5000),
            Err(SolveError::PositionBudget {
                limit: 1000,
                needed: None
            })
        );
        let mut solver = solver.with_budget(Budget::UNLIMITED);
        assert_eq!(solver.value(&5000).unwrap(), Nimber::new(0));
    }

    /// A helper that helps with nothing: once begun it holds `share` bytes
    /// of the budget and says it solved `solved` shapes, and it tells when
    /// it was begun and when let go.
    struct IdleHelper {
        share: usize,
        solved: u64,
        begun: Arc<AtomicBool>,
        dropped: Arc<AtomicBool>,
    }

    impl IdleHelper {
        fn new(share: usize, solved: u64) -> (IdleHelper, Arc<AtomicBool>, Arc<AtomicBool>) {
            let (begun, dropped) = (
                Arc::new(AtomicBool::new(false)),
                Arc::new(AtomicBool::new(false)),
            );
            let helper = IdleHelper {
                share,
                solved,
                begun: Arc::clone(&begun),
                dropped: Arc::clone(&dropped),
            };
            (helper, begun, dropped)
        }
    }

    impl<P> Helper<P> for IdleHelper {
        fn begin(&mut self, _root: &P, _budget: &Budget, free: Option<usize>) -> bool {
            let begun = free.is_none_or(|free| free >= self.share);
            self.begun.store(begun, Ordering::Relaxed);
            begun
        }

        fn end(&mut self) {}

        fn tell(&self, _main_solved: u64) {}

        fn solved(&self) -> u64 {
            if self.begun.load(Ordering::Relaxed) {
                self.solved
            } else {
                0
            }
        }

        fn memory_bytes(&self, _budget: &Budget) -> usize {
            if self.begun.load(Ordering::Relaxed) {
                self.share
            } else {
                0
            }
        }

        fn held_bytes(&self) -> usize {
            0
        }
    }

    impl Drop for IdleHelper {
        fn drop(&mut self) {
            self.dropped.store(true, Ordering::Relaxed);
        }
    }

    /// An exchange that never holds anything.
    struct NoExchange;

    impl<K> Exchange<K> for NoExchange {
        fn get(&self, _key: &K) -> Option<Nimber> {
            None
        }
        fn put(&self, _key: &K, _value: Nimber) {}
        fn allocated_bytes(&self) -> usize {
            0
        }
        fn prefetch(&self, _key: &K) {}
    }

    /// Three heaps of 30, not decomposed: 5,456 positions, whose memo grows
    /// as they are solved.
    const HEAPS: [u32; 3] = [30, 30, 30];

    /// A solver of [`WholeNim`] under `budget` with `helper`, which it wakes
    /// after its first solved position.
    fn helped_by(helper: IdleHelper, budget: Budget) -> Solver<WholeNim> {
        Solver::new(WholeNim)
            .with_helper(Box::new(helper), Arc::new(NoExchange))
            .help_after(1)
            .with_budget(budget)
    }

    /// When the search's own memory and its helper's share would pass the
    /// memory budget, the helper is let go and the search finishes alone,
    /// within the budget. The search's own memory is what the search alone
    /// holds (the exchange never answers), so at the end the two together
    /// pass the budget, which the search alone needed exactly.
    #[test]
    fn a_helper_is_let_go_when_the_budget_needs_its_share() {
        let start = HEAPS.to_vec();
        let mut alone = Solver::new(WholeNim);
        let value = alone.value(&start).unwrap();
        let needed = alone.memory_bytes();
        let (helper, begun, dropped) = IdleHelper::new(needed / 2, 0);
        let budget = Budget {
            max_memory: Some(needed as u64),
            ..Budget::UNLIMITED
        };
        let mut helped = helped_by(helper, budget);
        assert_eq!(helped.value(&start).unwrap(), value);
        assert!(begun.load(Ordering::Relaxed), "the helper was woken");
        assert!(dropped.load(Ordering::Relaxed), "the helper was let go");
        assert!(helped.memory_bytes() <= needed);
        assert_eq!(helped.memory_bytes(), needed);
    }

    /// The shapes a helper solved count in the position budget of the
    /// search it helps: a budget the search alone needed exactly stops it,
    /// and one larger by the helper's count does not.
    #[test]
    fn a_helpers_shapes_count_in_the_position_budget() {
        let start = HEAPS.to_vec();
        let mut alone = Solver::new(WholeNim);
        let value = alone.value(&start).unwrap();
        let needed = alone.positions_solved();
        let by_helper = 1000;
        let helped = |limit: u64| {
            let (helper, begun, _) = IdleHelper::new(0, by_helper);
            (helped_by(helper, Budget::positions(limit)), begun)
        };
        let (mut short, begun) = helped(needed);
        assert_eq!(
            short.value(&start),
            Err(SolveError::PositionBudget {
                limit: needed,
                needed: None
            })
        );
        assert!(begun.load(Ordering::Relaxed), "the helper was woken");
        let (mut enough, _) = helped(needed + by_helper + 1);
        assert_eq!(enough.value(&start).unwrap(), value);
        assert_eq!(enough.positions_solved(), needed + by_helper);
    }
}
