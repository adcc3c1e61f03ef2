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

    /// Fails when the build must stop: cancelled, or past its time budget.
    ///
    /// # Errors
    ///
    /// [`TierError::Cancelled`] or [`TierError::TimeBudget`].
    pub fn check(&self) -> Result<(), TierError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(TierError::Cancelled);
        }
        if let (Some(limit), Some(started)) = (self.max_time, self.started) {
            if started.elapsed() > limit {
                return Err(TierError::TimeBudget { limit });
            }
        }
        Ok(())
    }

    /// Hands `progress` to the progress hook, if any.
    pub fn report(&self, progress: TierProgress) {
        if let Some(report) = self.progress {
            report(progress);
        }
    }
}
