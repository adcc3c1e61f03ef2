//! Budgets, cancellation and progress of a tier build: every loop of the
//! worker checks its [`TierControl`] between chunks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Tier, TierError, TierReport};

/// What a tier build reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TierProgress {
    /// Generating a tier's positions.
    Generating {
        /// The tier.
        tier: Tier,
    },
    /// Solving a tier: `done` of `total` positions valued.
    Solving {
        /// The tier.
        tier: Tier,
        /// Positions valued so far.
        done: u64,
        /// Positions in the tier.
        total: u64,
    },
    /// A solved tier was stored (on every part of a partitioned build).
    Stored(TierReport),
    /// A tier's solved stretches, kept by a build stopped inside it, were
    /// restored ([`super::TierStore::solved_prefix`]): its first `slots`
    /// slots of `of` are not solved again.
    Restored {
        /// The tier.
        tier: Tier,
        /// Slots restored.
        slots: usize,
        /// Slots of the tier's table.
        of: usize,
    },
    /// A stopped build is resumed: tiers `0..stored` were found stored.
    Resuming {
        /// Tiers found stored.
        stored: usize,
    },
}

/// Limits and hooks of a tier build.
#[derive(Default)]
pub struct TierControl<'a> {
    /// Stop after this much wall time (measured from the control's start).
    pub max_time: Option<Duration>,
    /// Set from outside to stop the build at the next check.
    pub cancel: Option<&'a AtomicBool>,
    /// Called now and then from worker threads.
    pub progress: Option<&'a (dyn Fn(TierProgress) + Sync)>,
    /// The memory budget: `Some((limit, used))` when the front-end's
    /// measure of the memory, plus the bytes given, passes its budget.
    /// Called with 0 at every check, and with the size of each large
    /// allocation (a tier's keys gathered, its table) just before it is
    /// made, so that a build stops before the allocation that would pass
    /// the budget rather than after. The engine does no I/O, so the
    /// measure is the caller's: the command line samples the process's
    /// resident memory on a thread of its own, so that a call with 0 is
    /// one atomic load, and samples it afresh for an allocation.
    pub memory: Option<&'a (dyn Fn(u64) -> Option<(u64, u64)> + Sync)>,
    started: Option<Instant>,
}

impl<'a> TierControl<'a> {
    /// A control with no limits, starting its clock now.
    #[must_use]
    pub fn new() -> TierControl<'a> {
        TierControl {
            started: Some(Instant::now()),
            ..TierControl::default()
        }
    }

    /// Fails when the build must stop: cancelled, or past its time or
    /// memory budget.
    ///
    /// # Errors
    ///
    /// [`TierError::Cancelled`], [`TierError::MemoryBudget`] or
    /// [`TierError::TimeBudget`].
    pub fn check(&self) -> Result<(), TierError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(TierError::Cancelled);
        }
        self.reserve(0)?;
        if let (Some(limit), Some(started)) = (self.max_time, self.started) {
            if started.elapsed() > limit {
                return Err(TierError::TimeBudget { limit });
            }
        }
        Ok(())
    }

    /// Fails when the memory, with `bytes` more, would pass the memory
    /// budget: called before a large allocation.
    ///
    /// # Errors
    ///
    /// [`TierError::MemoryBudget`].
    pub fn reserve(&self, bytes: u64) -> Result<(), TierError> {
        match self.memory.and_then(|over| over(bytes)) {
            Some((limit, used)) => Err(TierError::MemoryBudget { limit, used }),
            None => Ok(()),
        }
    }

    /// Hands `progress` to the progress hook, if any.
    pub fn report(&self, progress: TierProgress) {
        if let Some(report) = self.progress {
            report(progress);
        }
    }
}
