//! Ctrl-C during long calls. The engine runs with the GIL released; a
//! search's progress callback (every few thousand solved positions)
//! briefly takes the GIL back and lets Python run its signal handlers. When
//! one raises (Ctrl-C's default handler raises `KeyboardInterrupt`), the
//! callback unwinds out of the search with a private payload, caught here,
//! and the handler's exception is raised in its place. The solver the search
//! ran on is dropped with it, so no half-updated memo is ever reused.
//!
//! Unwinding is the one way out of the engine's callback, which returns
//! nothing: the alternative, a cancel flag in the engine's `Budget`, would
//! change every front-end. `resume_unwind` skips the panic hook, so nothing
//! is printed.

use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

/// The payload of the unwind out of an interrupted search.
struct Interrupted;

/// The exception a signal handler raised during a search.
#[derive(Clone, Default)]
pub(crate) struct Pending(Arc<Mutex<Option<PyErr>>>);

impl Pending {
    /// A progress callback that runs Python's signal handlers and leaves
    /// the search when one raises. Handlers run only on the main thread, so
    /// on any other thread this is a no-op. The search calls it every few
    /// hundred shapes; the handlers run at most every [`WATCH_EVERY`], as
    /// each run takes the GIL, which another Python thread may hold for up
    /// to its switch interval (5 ms).
    pub fn callback(&self) -> impl FnMut(grundy::Progress) + Send + 'static {
        let pending = self.clone();
        let mut last = Instant::now();
        move |_| {
            if last.elapsed() >= WATCH_EVERY {
                last = Instant::now();
                pending.check();
            }
        }
    }

    /// Runs the signal handlers now; unwinds with [`Interrupted`] if one
    /// raised.
    pub fn check(&self) {
        if let Err(err) = Python::attach(|py| py.check_signals()) {
            *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(err);
            resume_unwind(Box::new(Interrupted));
        }
    }

    fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

thread_local! {
    /// How much [`Stop::budget`] took from the time budget of the last
    /// call on this (the caller's) thread: the time it waited for its
    /// worker, at most the budget. [`waited`] hands it back once, so that a time budget's error
    /// names the caller's `max_time`, not the shortened one.
    static WAITED: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// What the last call on this thread took from its time budget (see
/// `WAITED`), once: zero after it is read, and after a call that took
/// nothing.
pub(crate) fn waited() -> Duration {
    WAITED.with(|waited| waited.take())
}

/// Runs `work` with the GIL released; a signal handler's exception raised
/// during it (see [`Pending::callback`]) is returned as the error.
pub(crate) fn run<R: Send>(py: Python<'_>, work: impl FnOnce(&Pending) -> R + Send) -> PyResult<R> {
    WAITED.with(|waited| waited.set(Duration::ZERO));
    let pending = Pending::default();
    // Not in `fork::install`'s pool: that would move `work` off this
    // thread, where its progress callback runs the signal handlers. No
    // work run here reaches rayon.
    let outcome = py.detach(|| catch_unwind(AssertUnwindSafe(|| work(&pending))));
    match outcome {
        Ok(result) => Ok(result),
        Err(payload) => {
            if payload.is::<Interrupted>() {
                Err(pending
                    .take()
                    .unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(())))
            } else {
                resume_unwind(payload)
            }
        }
    }
}

/// The least wait for a thread that [`Stop::budget`] takes from a time
/// budget: a wait behind another call's work, not the start of a thread.
const TURN: Duration = Duration::from_millis(50);

/// How often [`run_watched`] runs the signal handlers.
const WATCH_EVERY: Duration = Duration::from_millis(50);

/// A flag that a signal handler raised, for work on threads other than
/// the main one (rayon's workers), where the handlers cannot run; and how
/// long the work waited for a thread of the pool (calls from more Python
/// threads than the pool has wait their turn), and how much of that the
/// time budgets of the call lost (shared with the caller's thread, see
/// `WAITED`).
#[derive(Clone, Default)]
pub(crate) struct Stop(Arc<AtomicBool>, Duration, Arc<AtomicU64>);

impl Stop {
    /// `budget` with the time the call waited for a thread taken from its
    /// time budget when it waited its turn (at least [`TURN`]), so that a
    /// call's `max_time` runs from the call, not from when a thread took it
    /// up. A shorter wait (starting the thread, making the pool at the
    /// first call: up to about 10 ms) is not taken, so that the search, and
    /// every message that words its budget, has the caller's `max_time`.
    pub fn budget(&self, mut budget: grundy::Budget) -> grundy::Budget {
        budget.max_time = budget.max_time.map(|t| {
            let waited = if self.1 >= TURN {
                self.1
            } else {
                Duration::ZERO
            };
            let taken = t.min(waited);
            // What was taken, in nanoseconds, for the error to give back.
            let nanos = u64::try_from(taken.as_nanos()).unwrap_or(u64::MAX);
            self.2.fetch_max(nanos, Ordering::Relaxed);
            t - taken
        });
        budget
    }

    /// Leaves the work (unwinding with [`Interrupted`]) once a handler
    /// has raised: call it between units of work.
    pub fn check(&self) {
        if self.0.load(Ordering::Relaxed) {
            resume_unwind(Box::new(Interrupted));
        }
    }

    /// A progress callback that leaves a search once a handler has raised.
    pub fn callback(&self) -> impl FnMut(grundy::Progress) + Send + 'static {
        let stop = self.clone();
        move |_| stop.check()
    }

    /// The flag itself, set once a handler has raised, for an engine
    /// search that takes a stop flag (checked where it checks its clock,
    /// so it ends within one step, not one progress report).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// Runs `work` on a thread of its own with the GIL released, while this
/// thread (the main one, where Python's signal handlers run) runs the
/// handlers every [`WATCH_EVERY`]. When one raises, the work is told by
/// its [`Stop`] and waited for, and the handler's exception is returned.
pub(crate) fn run_watched<R: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Stop) -> R + Send,
) -> PyResult<R> {
    let stop = Stop::default();
    let called = Instant::now();
    let mut raised = None;
    let outcome = py.detach(|| {
        std::thread::scope(|scope| {
            // The worker's end (or its unwinding) closes the channel.
            let (finished, done) = std::sync::mpsc::channel::<()>();
            let told = &stop;
            let worker = scope.spawn(move || {
                let _finished = finished;
                // Timed once the pool has taken the work up.
                crate::fork::install(|| {
                    work(&Stop(told.flag(), called.elapsed(), Arc::clone(&told.2)))
                })
            });
            while let Err(RecvTimeoutError::Timeout) = done.recv_timeout(WATCH_EVERY) {
                if raised.is_none() {
                    if let Err(err) = Python::attach(|py| py.check_signals()) {
                        raised = Some(err);
                        stop.0.store(true, Ordering::Relaxed);
                    }
                }
            }
            worker.join()
        })
    });
    let taken = Duration::from_nanos(stop.2.load(Ordering::Relaxed));
    WAITED.with(|waited| waited.set(taken));
    match (outcome, raised) {
        (Ok(result), None) => Ok(result),
        (Ok(_), Some(err)) => Err(err),
        (Err(payload), raised) if payload.is::<Interrupted>() => {
            Err(raised.unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(())))
        }
        (Err(payload), _) => resume_unwind(payload),
    }
}
