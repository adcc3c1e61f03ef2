//! The helper thread of a clearing value search (see the solver's
//! `helper.rs` for the algorithm and why it is correct): a second
//! [`ClearSolver`] on its own thread, which searches each large component
//! the main solver searches, parts last to first, and shares what it
//! finishes through a [`WordExchange`] of the shapes in the 8 x 8 frame.
//!
//! **Memory.** The helper holds at most its share, fixed when it is made:
//! the exchange, then its own memo and scratch in what is left. When its
//! memo would pass that, it drops the memo and waits for the next
//! component; the main search is not stopped by the helper's memory.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::{board, Board, Clear, ClearSolver, MemoKey};
use crate::solver::{Exchange, Helper, WordExchange};
use crate::{Budget, Nimber, SolveError};

/// Components of fewer cells are searched without the helper: their
/// search takes about as long as waking a thread.
const MIN_HELPED_CELLS: u32 = 20;

/// The exchange's share of the helper's memory: an eighth, at most
/// [`MAX_EXCHANGE_BYTES`].
const EXCHANGE_SHARE: usize = 8;
/// The largest exchange: 2^21 buckets, 10 million shapes, more than the
/// densest 7 x 7 block reaches.
const MAX_EXCHANGE_BYTES: usize = 128 << 20;

impl Exchange<MemoKey> for WordExchange {
    fn get(&self, key: &MemoKey) -> Option<Nimber> {
        match *key {
            (0, 0, bits) => self.get_word(bits),
            _ => None,
        }
    }

    fn put(&self, key: &MemoKey, value: Nimber) {
        if let (0, 0, bits) = *key {
            self.put_word(bits, value);
        }
    }

    fn allocated_bytes(&self) -> usize {
        WordExchange::allocated_bytes(self)
    }

    fn prefetch(&self, key: &MemoKey) {
        if let (0, 0, bits) = *key {
            self.prefetch_word(bits);
        }
    }
}

/// The main solver's end of the helper thread.
struct ClearHelper {
    jobs: Option<Sender<Board>>,
    done: Receiver<()>,
    stop: Arc<AtomicBool>,
    bytes: usize,
    busy: bool,
    thread: Option<JoinHandle<()>>,
}

impl Helper<Board> for ClearHelper {
    fn begin(&mut self, root: &Board) -> bool {
        if self.busy || root.geometry() != board::SQUARE || root.cells().count() < MIN_HELPED_CELLS
        {
            return false;
        }
        self.stop.store(false, Ordering::Relaxed);
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(root.clone()).is_ok());
        self.busy = sent;
        sent
    }

    fn end(&mut self) {
        if self.busy {
            self.stop.store(true, Ordering::Relaxed);
            // An error means the thread is gone, which also ends the help.
            let _ = self.done.recv();
            self.busy = false;
        }
    }

    fn memory_bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for ClearHelper {
    fn drop(&mut self) {
        self.end();
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Clear {
    /// A solver with these rules whose value searches of components of
    /// [`MIN_HELPED_CELLS`] cells or more get a helper thread (see the
    /// module docs), which holds at most `helper_bytes` of memory. Its
    /// memory budget, if any, counts those bytes.
    #[must_use]
    pub fn into_helped_solver(self, helper_bytes: usize) -> ClearSolver {
        let exchange_bytes = (helper_bytes / EXCHANGE_SHARE).min(MAX_EXCHANGE_BYTES);
        let exchange = Arc::new(WordExchange::with_bytes(exchange_bytes));
        let stop = Arc::new(AtomicBool::new(false));
        let (jobs, inbox) = mpsc::channel::<Board>();
        let (finished, done) = mpsc::channel();
        let memo_bytes = helper_bytes.saturating_sub(exchange.allocated_bytes());
        let rules = self.clone();
        let shared = (Arc::clone(&exchange), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("grundy-helper".into())
            .spawn(move || {
                let (exchange, stop) = shared;
                let fresh = || {
                    rules.clone().into_solver().helping(
                        Arc::clone(&exchange) as Arc<dyn Exchange<MemoKey>>,
                        Arc::clone(&stop),
                    )
                };
                let mut solver = fresh();
                for root in inbox {
                    solver.set_budget(Budget {
                        max_memory: Some(memo_bytes as u64),
                        ..Budget::UNLIMITED
                    });
                    let r = solver.component_value(root);
                    if std::env::var_os("GRUNDY_DBG").is_some() { eprintln!("helper job: {r:?} bytes {}", solver.memory_bytes()); }
                    if let Err(SolveError::MemoryBudget { .. }) = r {
                        solver = fresh();
                    }
                    if finished.send(()).is_err() {
                        return;
                    }
                }
            });
        let solver = self.into_solver();
        let Ok(thread) = thread else {
            // No thread to be had: the search runs alone.
            return solver;
        };
        let helper = ClearHelper {
            jobs: Some(jobs),
            done,
            stop,
            bytes: helper_bytes,
            busy: false,
            thread: Some(thread),
        };
        solver.with_helper(Box::new(helper), exchange)
    }
}
