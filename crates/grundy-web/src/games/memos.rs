//! Search memos kept between requests.
//!
//! A shape's value never changes, so what one request's search found
//! answers the next request's at once. The page asks `analyze` of a
//! position, then `play` of the same position when the engine is to move,
//! then `analyze` of the position after the move, whose components the
//! first search already valued: with the memo kept, only the first waits
//! for a search. The small lane's probe ([`crate`], "lanes") is not lost
//! either: the heavy run goes on from what the probe found.
//!
//! **How.** A [`Kept`] pool holds at most one solver a search slot (the
//! small lane's and the heavy lane's). A request borrows the solver kept
//! last, or a fresh one ([`Kept::lend`]), and gives it back when its answer
//! is made, whether the search finished or ran out of budget (the memo
//! holds only values that searches completed). A solver is kept only while
//! [`grundy::Solver::memory_bytes`] is within its share of the pool's
//! bytes ([`crate::Config::kept_memory`]); a larger one is dropped, and so
//! is one given back while the pool is full.
//!
//! **Why it is safe.** Nothing a client sends goes into a memo but the
//! positions the server itself valued, so no request can make another's
//! answer wrong; the memory is bounded by the pool's bytes; and a request
//! whose memory budget a kept memo would crowd gets a fresh solver.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

use grundy::{Budget, Game, Solver, Table};

/// A solver whose memo may be kept: its size and its budget.
pub trait Memo {
    /// The bytes it holds ([`Solver::memory_bytes`]).
    fn memory_bytes(&self) -> usize;
    /// New limits, the memo kept ([`Solver::set_budget`]).
    fn set_budget(&mut self, budget: Budget);
    /// The request's stop flag ([`Solver::set_stop`]).
    fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>);
}

impl<G: Game, T: Table<G::Key>> Memo for Solver<G, T> {
    fn memory_bytes(&self) -> usize {
        Solver::memory_bytes(self)
    }

    fn set_budget(&mut self, budget: Budget) {
        Solver::set_budget(self, budget);
    }

    fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        Solver::set_stop(self, stop);
    }
}

/// A pool of solvers kept between requests (see the module doc). A clone
/// shares the pool.
pub struct Kept<S> {
    inner: Arc<Pool<S>>,
}

struct Pool<S> {
    solvers: Mutex<Vec<S>>,
    /// The most solvers kept.
    slots: usize,
    /// The most bytes one kept solver may hold.
    each: usize,
}

impl<S> Clone for Kept<S> {
    fn clone(&self) -> Self {
        Kept {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<S> Default for Kept<S> {
    /// A pool that keeps nothing: every request gets a fresh solver.
    fn default() -> Self {
        Kept::new(0, 0)
    }
}

impl<S> std::fmt::Debug for Kept<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept")
            .field("slots", &self.inner.slots)
            .field("each", &self.inner.each)
            .finish_non_exhaustive()
    }
}

impl<S> Kept<S> {
    /// A pool of at most `slots` solvers holding at most `bytes` in all.
    #[must_use]
    pub fn new(slots: usize, bytes: usize) -> Kept<S> {
        Kept {
            inner: Arc::new(Pool {
                // Grown as memos are kept: `slots` comes from the
                // server's configuration, not from a measured size.
                solvers: Mutex::new(Vec::new()),
                slots,
                each: bytes.checked_div(slots).unwrap_or(0),
            }),
        }
    }

    /// How many solvers the pool holds now.
    #[must_use]
    pub fn len(&self) -> usize {
        self.solvers().len()
    }

    /// True when the pool holds no solver.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn solvers(&self) -> std::sync::MutexGuard<'_, Vec<S>> {
        // A vector of solvers is whole even if a holder panicked.
        self.inner
            .solvers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl<S: Memo> Kept<S> {
    /// The solver kept last, or `fresh()` when there is none or when its
    /// memo would take more than half of `budget`'s memory; either way
    /// under `budget` and stopped by `stop`. It comes back to the pool when the [`Lent`] is
    /// dropped.
    pub fn lend(
        &self,
        budget: Budget,
        stop: Option<Arc<AtomicBool>>,
        fresh: impl FnOnce() -> S,
    ) -> Lent<S> {
        let kept = {
            let mut solvers = self.solvers();
            let fits = |solver: &S| {
                budget.max_memory.is_none_or(|limit| {
                    u64::try_from(solver.memory_bytes()).unwrap_or(u64::MAX) <= limit / 2
                })
            };
            if solvers.last().is_some_and(fits) {
                solvers.pop()
            } else {
                None
            }
        };
        let mut solver = kept.unwrap_or_else(fresh);
        solver.set_budget(budget);
        solver.set_stop(stop);
        Lent {
            solver: Some(solver),
            pool: self.clone(),
        }
    }

    /// Keeps `solver` when it is within its share and the pool has room.
    fn give_back(&self, solver: S) {
        if solver.memory_bytes() > self.inner.each {
            return;
        }
        let mut solvers = self.solvers();
        if solvers.len() < self.inner.slots {
            solvers.push(solver);
        }
    }
}

/// A solver lent by a [`Kept`] pool, given back when dropped. It derefs to
/// the solver; [`Lent::take`] and [`Lent::put`] move it into an owner for a
/// while (an [`Analyzer`](grundy::clear::large::Analyzer)).
pub struct Lent<S: Memo> {
    solver: Option<S>,
    pool: Kept<S>,
}

impl<S: Memo> Lent<S> {
    /// The solver, to be [`put`](Lent::put) back (else it is not kept).
    ///
    /// # Panics
    ///
    /// When it was taken and not put back.
    pub fn take(&mut self) -> S {
        self.solver.take().expect("the lent solver is here")
    }

    /// Puts back the solver [`take`](Lent::take) gave.
    pub fn put(&mut self, solver: S) {
        self.solver = Some(solver);
    }
}

impl<S: Memo> Deref for Lent<S> {
    type Target = S;

    fn deref(&self) -> &S {
        self.solver.as_ref().expect("the lent solver is here")
    }
}

impl<S: Memo> DerefMut for Lent<S> {
    fn deref_mut(&mut self) -> &mut S {
        self.solver.as_mut().expect("the lent solver is here")
    }
}

impl<S: Memo> Drop for Lent<S> {
    fn drop(&mut self) {
        // A search that panicked may have left its scratch half done: its
        // solver is not kept.
        if std::thread::panicking() {
            return;
        }
        if let Some(solver) = self.solver.take() {
            self.pool.give_back(solver);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::{Board, Clear, ClearSolver};

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows)
    }

    #[test]
    fn a_lent_solver_comes_back_with_its_memo() {
        let kept: Kept<ClearSolver> = Kept::new(2, 1 << 30);
        let dense = board(&["11111", "11110", "11111", "01111", "11101"]);
        let solved = {
            let mut lent = kept.lend(Budget::UNLIMITED, None, Clear::solver);
            let value = lent.value(&dense).unwrap();
            assert!(lent.positions_solved() > 0);
            value
        };
        assert_eq!(kept.len(), 1);
        // The next request finds the value in the memo: no search.
        let mut lent = kept.lend(Budget::positions(1), None, Clear::solver);
        assert!(kept.is_empty());
        assert_eq!(lent.value(&dense).unwrap(), solved);
        assert_eq!(lent.positions_solved(), 0);
        // A fresh solver agrees, and needed a search.
        let mut fresh = Clear::solver();
        assert_eq!(fresh.value(&dense).unwrap(), solved);
        assert!(fresh.positions_solved() > 0);
    }

    #[test]
    fn a_solver_past_its_share_or_the_slots_is_not_kept() {
        let dense = board(&["11111", "11110", "11111", "01111", "11101"]);
        let small: Kept<ClearSolver> = Kept::new(1, 1024);
        {
            let mut lent = small.lend(Budget::UNLIMITED, None, Clear::solver);
            lent.value(&dense).unwrap();
            assert!(lent.memory_bytes() > 1024);
        }
        assert!(small.is_empty());
        let kept: Kept<ClearSolver> = Kept::new(1, 1 << 30);
        let first = kept.lend(Budget::UNLIMITED, None, Clear::solver);
        let second = kept.lend(Budget::UNLIMITED, None, Clear::solver);
        drop(first);
        drop(second);
        assert_eq!(kept.len(), 1);
        let none: Kept<ClearSolver> = Kept::default();
        drop(none.lend(Budget::UNLIMITED, None, Clear::solver));
        assert!(none.is_empty());
    }

    #[test]
    fn a_memory_budget_the_memo_would_crowd_gets_a_fresh_solver() {
        let kept: Kept<ClearSolver> = Kept::new(1, 1 << 30);
        let dense = board(&["11111", "11110", "11111", "01111", "11101"]);
        let bytes = {
            let mut lent = kept.lend(Budget::UNLIMITED, None, Clear::solver);
            lent.value(&dense).unwrap();
            lent.memory_bytes() as u64
        };
        let tight = Budget {
            max_memory: Some(bytes),
            ..Budget::UNLIMITED
        };
        let lent = kept.lend(tight, None, Clear::solver);
        assert_eq!(lent.positions_solved(), 0);
        assert!((lent.memory_bytes() as u64) < bytes);
        // The kept one stayed for a request it fits.
        assert_eq!(kept.len(), 1);
    }
}
