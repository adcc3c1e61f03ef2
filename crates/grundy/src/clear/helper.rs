//! The helper thread of a clearing value search (see the solver's
//! `helper.rs` for the algorithm and why it is correct): a second
//! [`ClearSolver`] on its own thread, which searches each large component
//! the main solver searches, parts last to first, and shares what it
//! finishes through a [`WordExchange`] of the shapes in the 8 x 8 frame.
//!
//! **Memory.** The helper's share is a quarter of the main search's memory
//! budget ([`DEFAULT_SHARE`] without one): the exchange, allocated at the
//! first search helped, then the helper's own memo and scratch in what is
//! left. The main search counts the whole share as in use, so the two stay
//! within the budget. When its memo would pass its share, it drops the
//! memo and waits for the next component; the main search is not stopped
//! by the helper's memory.
//!
//! **Positions.** The shapes the helper solves count in the main search's
//! position budget ([`Helper::solved`]): it tells its count every 256
//! shapes, and reads there the main search's ([`Helper::tell`]), stopping
//! once the two reach what the budget had left when it began. So a
//! search the budget stops does one thread's work on two cores, past the
//! budget by at most a check of each thread (256 shapes each), even when
//! one thread is not running; one that finishes counts about as many
//! shapes as the search alone, as the two threads solve nearly disjoint
//! sets.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::{board, Board, Clear, ClearSolver, MemoKey};
use crate::solver::{Exchange, Helper, WordExchange};
use crate::{Budget, Nimber, Progress, SolveError};

/// The helper's share of a memory budget: a quarter.
const SHARE: u64 = 4;
/// The helper's share under no memory budget: a quarter of `grundy
/// clear`'s default budget of 8 GiB.
const DEFAULT_SHARE: u64 = 2 << 30;
/// The exchange's part of the helper's share: an eighth, at most
/// [`MAX_EXCHANGE_BYTES`].
const EXCHANGE_PART: u64 = 8;
/// The largest exchange: 2^21 buckets, 10 million shapes, as many as the
/// value search of a dense 7 x 7 block of 30 to 33 cells stores; a larger
/// one measured no faster (docs/benchmarks.md, "A helper thread").
const MAX_EXCHANGE_BYTES: u64 = 128 << 20;
/// A share whose memo part would be below this is not taken.
const MIN_MEMO_BYTES: u64 = 1 << 20;

/// The helper's share of a main search's memory `budget`.
fn share(budget: &Budget) -> u64 {
    budget
        .max_memory
        .map_or(DEFAULT_SHARE, |bytes| bytes / SHARE)
}

/// The word of a shape the exchange holds: those of the 8 x 8 frame.
fn shared(key: &MemoKey) -> Option<u64> {
    match *key {
        (0, 0, bits) => Some(bits),
        _ => None,
    }
}

impl Exchange<MemoKey> for WordExchange {
    fn get(&self, key: &MemoKey) -> Option<Nimber> {
        shared(key).and_then(|bits| self.get_word(bits))
    }

    fn put(&self, key: &MemoKey, value: Nimber) {
        if let Some(bits) = shared(key) {
            self.put_word(bits, value);
        }
    }

    fn allocated_bytes(&self) -> usize {
        WordExchange::allocated_bytes(self)
    }

    fn prefetch(&self, key: &MemoKey) {
        if let Some(bits) = shared(key) {
            self.prefetch_word(bits);
        }
    }
}

/// The main solver's end of the helper thread, which is started, and the
/// exchange allocated, at the first component large enough to help with.
struct ClearHelper {
    rules: Clear,
    exchange: Arc<WordExchange>,
    link: Option<Link>,
    busy: bool,
    /// The shapes the thread has solved, as it last told.
    solved: Arc<AtomicU64>,
    /// The shapes the main search has solved under its budget, as it last
    /// told.
    main_solved: Arc<AtomicU64>,
    /// The bytes the thread's solver holds, as it last told (at the end
    /// of each job).
    held: Arc<AtomicUsize>,
}

/// A job of the helper thread: the component, the positions the two
/// searches have left, the bytes its memo and scratch may hold, and the
/// main search's count as the job begins.
type Job = (Board, Option<u64>, u64, u64);

/// The running helper thread.
struct Link {
    jobs: Sender<Job>,
    done: Receiver<()>,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl ClearHelper {
    fn start(&self) -> Option<Link> {
        let stop = Arc::new(AtomicBool::new(false));
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (finished, done) = mpsc::channel();
        let rules = self.rules.clone();
        let exchange = Arc::clone(&self.exchange);
        let stopped = Arc::clone(&stop);
        let solved = Arc::clone(&self.solved);
        let held = Arc::clone(&self.held);
        let main_solved = Arc::clone(&self.main_solved);
        let thread = std::thread::Builder::new()
            .name("grundy-helper".into())
            .spawn(move || {
                let fresh = || {
                    rules.clone().into_solver().helping(
                        Arc::clone(&exchange) as Arc<dyn Exchange<MemoKey>>,
                        Arc::clone(&stopped),
                    )
                };
                let mut solver = fresh();
                for (root, max_positions, memo_bytes, main_at) in inbox {
                    solver.set_budget(Budget {
                        max_positions,
                        max_time: None,
                        max_memory: Some(memo_bytes),
                    });
                    // The count so far, told as the search goes (every 256
                    // shapes) and when it ends; there too the stop, once
                    // the two searches' shapes reach what they had left.
                    let before = solved.load(Ordering::Relaxed);
                    let told = Arc::clone(&solved);
                    let main = Arc::clone(&main_solved);
                    let stop = Arc::clone(&stopped);
                    solver.set_progress(Some(Box::new(move |progress: Progress| {
                        told.store(before + progress.positions, Ordering::Relaxed);
                        let main_since = main.load(Ordering::Relaxed).saturating_sub(main_at);
                        if max_positions.is_some_and(|left| main_since + progress.positions >= left)
                        {
                            stop.store(true, Ordering::Relaxed);
                        }
                    })));
                    let result = solver.component_value(root);
                    solved.store(before + solver.positions_solved(), Ordering::Relaxed);
                    // Out of memory, the memo goes: a later component is
                    // helped from a fresh one.
                    if let Err(SolveError::MemoryBudget { .. }) = result {
                        solver = fresh();
                    }
                    held.store(solver.memory_bytes(), Ordering::Relaxed);
                    if finished.send(()).is_err() {
                        return;
                    }
                }
            })
            .ok()?;
        Some(Link {
            jobs,
            done,
            stop,
            thread,
        })
    }
}

impl Helper<Board> for ClearHelper {
    fn begin(&mut self, root: &Board, budget: &Budget, free: Option<usize>) -> bool {
        // The exchange holds the shapes of the 8 x 8 frame only.
        if self.busy || root.geometry() != board::SQUARE {
            return false;
        }
        let share = share(budget);
        let needed = if self.link.is_some() { 0 } else { share };
        if free.is_some_and(|free| needed > free as u64) {
            return false;
        }
        let exchange_bytes = (share / EXCHANGE_PART).min(MAX_EXCHANGE_BYTES);
        if self.exchange.allocated_bytes() == 0 && share >= MIN_MEMO_BYTES + exchange_bytes {
            self.exchange
                .allocate(usize::try_from(exchange_bytes).unwrap_or(usize::MAX));
        }
        let memo_bytes = share.saturating_sub(self.exchange.allocated_bytes() as u64);
        if memo_bytes < MIN_MEMO_BYTES {
            return false;
        }
        if self.link.is_none() {
            // Without a thread the search runs alone, and asks again at
            // the next component.
            self.link = self.start();
        }
        let Some(link) = &self.link else {
            return false;
        };
        link.stop.store(false, Ordering::Relaxed);
        let main_at = self.main_solved.load(Ordering::Relaxed);
        self.busy = link
            .jobs
            .send((*root, budget.max_positions, memo_bytes, main_at))
            .is_ok();
        self.busy
    }

    fn end(&mut self) {
        if let (true, Some(link)) = (self.busy, &self.link) {
            link.stop.store(true, Ordering::Relaxed);
            // An error means the thread is gone, which also ends the help.
            let _ = link.done.recv();
        }
        self.busy = false;
    }

    fn solved(&self) -> u64 {
        self.solved.load(Ordering::Relaxed)
    }

    fn tell(&self, main_solved: u64) {
        self.main_solved.store(main_solved, Ordering::Relaxed);
    }

    fn held_bytes(&self) -> usize {
        self.held.load(Ordering::Relaxed) + self.exchange.allocated_bytes()
    }

    fn memory_bytes(&self, budget: &Budget) -> usize {
        if self.link.is_some() {
            usize::try_from(share(budget)).unwrap_or(usize::MAX)
        } else {
            0
        }
    }
}

impl Drop for ClearHelper {
    fn drop(&mut self) {
        self.end();
        if let Some(Link { jobs, thread, .. }) = self.link.take() {
            // The thread ends when its inbox closes, freeing its memo
            // (tens of milliseconds for hundreds of MB): not waited for,
            // so that the search that ends keeps to its time budget.
            drop(jobs);
            drop(thread);
        }
    }
}

/// The threads a clearing value search uses when the user does not say: 2
/// (the search and its helper) when the process may run on two cores or
/// more, which `taskset` to one core, for one, makes 1.
#[must_use]
pub fn default_threads() -> u8 {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if cores >= 2 {
        2
    } else {
        1
    }
}

impl Clear {
    /// A solver with these rules on `threads` threads: with a helper
    /// ([`Clear::into_helped_solver`]) from 2 on, which is all it uses.
    #[must_use]
    pub fn into_solver_on(self, threads: u8) -> ClearSolver {
        if threads >= 2 {
            self.into_helped_solver()
        } else {
            self.into_solver()
        }
    }

    /// A solver with these rules whose long value searches get a helper
    /// thread (see the
    /// module docs). The helper may hold a quarter of the solver's memory
    /// budget (2 GiB without one), which the budget counts.
    #[must_use]
    pub fn into_helped_solver(self) -> ClearSolver {
        let exchange = Arc::new(WordExchange::new());
        let helper = ClearHelper {
            rules: self.clone(),
            exchange: Arc::clone(&exchange),
            link: None,
            busy: false,
            solved: Arc::new(AtomicU64::new(0)),
            main_solved: Arc::new(AtomicU64::new(0)),
            held: Arc::new(AtomicUsize::new(0)),
        };
        self.into_solver().with_helper(Box::new(helper), exchange)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::clear::tests::{board_strategy, random_cells, Brute};

    /// A dense board of `rows x cols` from `seed`: each cell set with
    /// probability 7/8, so most have one component of 20 cells or more.
    fn dense(rows: usize, cols: usize, seed: u64) -> Board {
        Board::new(rows, cols, random_cells(rows, cols, 0.875, seed)).unwrap()
    }

    /// A helped solver that wakes its helper at once.
    fn helped() -> ClearSolver {
        Clear::new().into_helped_solver().help_after(1)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The helper's own order (parts last to first, values shared)
        /// against the brute force.
        #[test]
        fn a_helpers_search_matches_brute_force(board in board_strategy(5, 15)) {
            let exchange = Arc::new(WordExchange::new());
            exchange.allocate(1 << 16);
            let mut solver = Clear::solver().helping(exchange, Arc::new(AtomicBool::new(false)));
            let expected = Brute::new(board.rows(), board.cols()).value(board.cells().0);
            prop_assert_eq!(solver.value(&board).unwrap().value(), expected);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(8))]

        /// A helped search against the search alone, on dense boards the
        /// helper takes, with a fresh solver and with one kept across
        /// boards: the values and the winning moves.
        #[test]
        fn a_helped_search_matches_the_search_alone(seeds in proptest::collection::vec(any::<u64>(), 1..4)) {
            let mut kept = helped();
            let mut alone = Clear::solver();
            for seed in seeds {
                let board = dense(4, 6, seed);
                let value = alone.value(&board).unwrap();
                let mut fresh = helped();
                prop_assert_eq!(fresh.value(&board).unwrap(), value);
                prop_assert_eq!(kept.value(&board).unwrap(), value);
                prop_assert_eq!(kept.winning_moves(&board).unwrap(), alone.winning_moves(&board).unwrap());
            }
        }
    }

    /// What a helped solver holds counts the helper's memo and the
    /// exchange as they are, not the share they may grow to, which the
    /// budget counts: the exchange is allocated, the memo is what the
    /// helper's own solver reported, and the rest of the share is not held.
    #[test]
    fn held_bytes_count_what_the_helper_holds() {
        let mut solver = helped();
        let mut alone = Clear::solver();
        let board = dense(4, 6, 3);
        assert_eq!(solver.value(&board).unwrap(), alone.value(&board).unwrap());
        let held = solver.held_bytes();
        let budgeted = solver.memory_bytes();
        let exchange = (DEFAULT_SHARE / EXCHANGE_PART).min(MAX_EXCHANGE_BYTES) as usize;
        assert!(held >= exchange, "{held} < {exchange}");
        assert!(held < budgeted, "{held} >= {budgeted}");
        // The helper's memo on a board of 24 cells is far below its share.
        assert!(
            budgeted - held > (DEFAULT_SHARE as usize) / 2,
            "{held} of {budgeted}"
        );
    }

    /// The helper's share counts against the memory budget, and a budget
    /// the search alone keeps within never stops a helped search: the
    /// helper goes when the two would pass it. A budget without room for
    /// the share does not wake the helper.
    #[test]
    fn the_helpers_share_counts_in_the_budget() {
        for seed in 1..=4 {
            let board = dense(4, 6, seed);
            let mut alone = Clear::solver();
            let value = alone.value(&board).unwrap();
            let needed = alone.memory_bytes() as u64;
            for limit in [needed, needed + needed / 4] {
                let budget = Budget {
                    max_memory: Some(limit),
                    ..Budget::UNLIMITED
                };
                let mut helped = helped().with_budget(budget);
                assert_eq!(helped.value(&board).unwrap(), value, "{board:?}");
                assert!(helped.memory_bytes() as u64 <= limit);
            }
        }
        let board = dense(4, 6, 7);
        let small = Budget {
            max_memory: Some(2 << 20),
            ..Budget::UNLIMITED
        };
        let mut helper = ClearHelper {
            rules: Clear::new(),
            exchange: Arc::new(WordExchange::new()),
            link: None,
            busy: false,
            solved: Arc::new(AtomicU64::new(0)),
            main_solved: Arc::new(AtomicU64::new(0)),
            held: Arc::new(AtomicUsize::new(0)),
        };
        assert!(!helper.begin(&board, &small, None));
        assert!(!helper.begin(&board, &Budget::UNLIMITED, Some(1 << 20)));
        assert_eq!(helper.memory_bytes(&small), 0);
    }

    /// The position budget bounds the two threads together, even while the
    /// main search's thread does not run: here its progress callback
    /// sleeps once, half-way through the budget, as a thread the system
    /// sets aside would, while the helper goes on. Each thread reads the
    /// other's count every 256 shapes, so the two pass the budget by at
    /// most that each.
    #[test]
    fn a_position_budget_bounds_both_threads_while_one_sleeps() {
        use crate::solver::CHECK_INTERVAL;
        let limit = 20_000;
        for seed in 1..=3 {
            let board = dense(7, 7, seed);
            let mut solver = helped().with_budget(Budget::positions(limit));
            let mut slept = false;
            solver.set_progress(Some(Box::new(move |progress: Progress| {
                if !slept && progress.positions >= limit / 2 {
                    slept = true;
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
            })));
            let result = solver.value(&board);
            assert!(
                matches!(result, Err(SolveError::PositionBudget { .. })),
                "{result:?}"
            );
            let solved = solver.positions_solved();
            assert!(
                (limit..=limit + 2 * CHECK_INTERVAL + 1).contains(&solved),
                "{solved} shapes under a budget of {limit}"
            );
        }
    }

    /// A search shorter than [`HELP_AFTER`](crate::solver) shapes runs
    /// alone: no thread, no exchange, no share of the memory counted.
    #[test]
    fn short_searches_are_not_helped() {
        let board = dense(3, 6, 3);
        let mut alone = Clear::solver();
        let value = alone.value(&board).unwrap();
        assert!(alone.positions_solved() < 1 << 16);
        let mut helped = Clear::new().into_helped_solver();
        assert_eq!(helped.value(&board).unwrap(), value);
        assert_eq!(helped.memory_bytes(), alone.memory_bytes());
    }
}
