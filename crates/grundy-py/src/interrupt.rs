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

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

/// The payload of the unwind out of an interrupted search.
struct Interrupted;

/// The exception a signal handler raised during a search.
#[derive(Clone, Default)]
pub(crate) struct Pending(Arc<Mutex<Option<PyErr>>>);

impl Pending {
    /// A progress callback that runs Python's signal handlers and leaves
    /// the search when one raises. Handlers run only on the main thread, so
    /// on any other thread this is a no-op.
    pub fn callback(&self) -> impl FnMut(grundy::Progress) + Send + 'static {
        let pending = self.clone();
        move |_| pending.check()
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

/// Runs `work` with the GIL released; a signal handler's exception raised
/// during it (see [`Pending::callback`]) is returned as the error.
pub(crate) fn run<R: Send>(py: Python<'_>, work: impl FnOnce(&Pending) -> R + Send) -> PyResult<R> {
    let pending = Pending::default();
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
