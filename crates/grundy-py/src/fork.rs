//! Rayon after `fork()`. A forked child (a `multiprocessing` pool on Linux,
//! whose default start method is fork) holds a copy of rayon's global pool
//! but none of its threads, so a call that reaches rayon there waits for
//! them forever. The work of [`crate::interrupt::run_watched`], which runs
//! off the main thread and is where rayon is reached, runs in a pool of
//! this process's own instead, made again in a process whose id is not the
//! one that made it.

use std::sync::{Arc, Mutex, PoisonError};

/// The pool and the id of the process that made it.
static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// Runs `work` in this process's pool (rayon's parallel iterators in it use
/// that pool), or in rayon's global one if no pool can be made (no thread
/// can be started).
pub(crate) fn install<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

fn pool() -> Option<Arc<rayon::ThreadPool>> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((made_by, pool)) = slot.as_ref() {
        if *made_by == pid {
            return Some(Arc::clone(pool));
        }
    }
    if let Some(stale) = slot.take() {
        // The parent's pool: its threads do not exist here, and dropping
        // it would tell them to stop. Forgotten, it holds only memory.
        std::mem::forget(stale);
    }
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().build().ok()?);
    *slot = Some((pid, Arc::clone(&pool)));
    Some(pool)
}
