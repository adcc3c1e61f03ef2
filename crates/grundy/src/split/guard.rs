//! The budgets of the generic split search, checked while a single
//! expansion runs.
//!
//! On a huge sparse grid one pattern can hold 10^5 candidates: expanding it
//! builds 10^5 options, each a sort of the whole pattern, and every option's
//! unknown part gets a canonical key of the pattern's size (about 0.8 MB
//! here), which the generic [`Solver`](crate::Solver) keeps until the
//! expansion's frame is done. Checking the budget between solved positions
//! is then far too coarse, and counting positions says nothing about bytes.
//! So [`GuardedSplit`] plays [`Split`](super::Split)'s rules but asks the
//! [`Guard`] before every option and every symmetry of a key, and each
//! [`CountedKey`] adds its measured bytes to the guard's live count when
//! made or cloned and removes them when dropped. The guard stops at the
//! deadline, when the live bytes pass the memory limit, or when the search
//! has *examined* more positions than the position budget allows; the
//! solver sees that through [`Game::interrupted`] after the expansion and
//! gives up.
//!
//! A position is examined when its key is made: every unknown part of every
//! option gets one, whether the memo then knows it or not. The solver's own
//! count (positions *solved*) only grows when a frame finishes, which on a
//! huge pattern may be never: one expansion of 10^4 candidates makes 10^4
//! options' keys before any is solved. Examined positions are at least the
//! solved ones, and each costs one canonical form (a sort of its pattern),
//! so the position budget bounds the search's work linearly.
//!
//! What a key counts, from `size_of` and vector capacities: its own
//! pattern; the component it was made for, which the solver keeps beside
//! it in its pending list (an overestimate by up to 2x for keys that end in
//! the memo, which keeps the key alone); and three hash-table slots, since
//! the memo's table keeps at least 1/8 of its slots empty and doubles when
//! it grows (at most 16/7 slots per entry). Frames' positions are clones of
//! pending components and are counted by their key's clone. Options are
//! built one at a time and dropped after use: at most a few copies of the
//! position being expanded, which the caller counts.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::game::{components, options_until};
use super::{PartMove, Pattern};
use crate::{Game, Nimber, SolveError};

/// The memory part of [`Limits`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct MemoryLimit {
    pub allowed: u64,
    pub limit: u64,
    pub held: u64,
}

/// The limits a [`Guard`] enforces.
#[derive(Clone, Debug, Default)]
pub(super) struct Limits {
    /// Stop once this flag is set (by the caller, from any thread).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop at this instant; the duration is the user's limit, for the
    /// error.
    pub deadline: Option<(Instant, Duration)>,
    /// Stop when the live bytes pass `allowed`; `limit` is the user's whole
    /// limit and `held` what the search holds besides the live bytes (the
    /// two count in the error's bytes in use).
    pub memory: Option<MemoryLimit>,
    /// Stop when the search has examined more positions (made more keys)
    /// than the first figure; the second is the user's whole limit, for the
    /// error.
    pub positions: Option<(u64, u64)>,
}

/// Shared state of a guarded search: its limits, the bytes its keys hold,
/// and why it stopped.
#[derive(Debug, Default)]
pub(super) struct Guard {
    limits: Mutex<Limits>,
    live: AtomicU64,
    /// Keys made since the last [`Guard::arm`]: positions examined.
    pub(super) examined: AtomicU64,
    stopped: Mutex<Option<SolveError>>,
}

impl Guard {
    /// Sets the limits of the next search and clears the last stop.
    pub fn arm(&self, limits: Limits) {
        *self.limits.lock().unwrap_or_else(PoisonError::into_inner) = limits;
        self.examined.store(0, Ordering::Relaxed);
        *self.stopped.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Bytes held by the keys alive now.
    pub fn live_bytes(&self) -> u64 {
        self.live.load(Ordering::Relaxed)
    }

    /// Why the search stopped, if it did.
    pub fn stopped(&self) -> Option<SolveError> {
        self.stopped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// True when the search must stop: checks the cancel flag, the clock and the live bytes
    /// (a few tens of nanoseconds; called once per option, which costs a
    /// sort of the pattern).
    pub fn should_stop(&self) -> bool {
        let mut stopped = self.stopped.lock().unwrap_or_else(PoisonError::into_inner);
        if stopped.is_some() {
            return true;
        }
        let limits = self.limits.lock().unwrap_or_else(PoisonError::into_inner);
        if limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            *stopped = Some(SolveError::Stopped);
            return true;
        }
        if let Some((deadline, limit)) = limits.deadline {
            if Instant::now() >= deadline {
                *stopped = Some(SolveError::TimeBudget { limit });
                return true;
            }
        }
        if let Some((allowed, limit)) = limits.positions {
            if self.examined.load(Ordering::Relaxed) > allowed {
                *stopped = Some(SolveError::PositionBudget {
                    limit,
                    needed: None,
                });
                return true;
            }
        }
        if let Some(memory) = limits.memory {
            let live = self.live_bytes();
            if live > memory.allowed {
                *stopped = Some(SolveError::MemoryBudget {
                    limit: memory.limit,
                    used: live.saturating_add(memory.held),
                });
                return true;
            }
        }
        false
    }

    fn add(&self, bytes: u64) {
        self.live.fetch_add(bytes, Ordering::Relaxed);
    }

    fn remove(&self, bytes: u64) {
        self.live.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// A canonical pattern used as a memo key, whose bytes count against the
/// guard's memory limit while it lives (equality and hashing look at the
/// pattern only).
#[derive(Debug)]
pub(super) struct CountedKey {
    pattern: Pattern,
    bytes: u64,
    guard: Arc<Guard>,
}

impl CountedKey {
    /// Slots of the memo's hash table counted per key (see the module
    /// comment).
    const TABLE_SLOTS: u64 = 3;

    fn new(pattern: Pattern, component_bytes: u64, guard: &Arc<Guard>) -> CountedKey {
        let slot = std::mem::size_of::<(CountedKey, Nimber)>() as u64 + 1;
        let bytes = pattern.bytes() + component_bytes + CountedKey::TABLE_SLOTS * slot;
        guard.add(bytes);
        guard.examined.fetch_add(1, Ordering::Relaxed);
        CountedKey {
            pattern,
            bytes,
            guard: Arc::clone(guard),
        }
    }
}

impl Clone for CountedKey {
    fn clone(&self) -> CountedKey {
        self.guard.add(self.bytes);
        CountedKey {
            pattern: self.pattern.clone(),
            bytes: self.bytes,
            guard: Arc::clone(&self.guard),
        }
    }
}

impl Drop for CountedKey {
    fn drop(&mut self) {
        self.guard.remove(self.bytes);
    }
}

impl PartialEq for CountedKey {
    fn eq(&self, other: &CountedKey) -> bool {
        self.pattern == other.pattern
    }
}

impl Eq for CountedKey {}

impl Hash for CountedKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pattern.hash(state);
    }
}

/// [`Split`](super::Split)'s rules, under a [`Guard`].
pub(super) struct GuardedSplit {
    pub guard: Arc<Guard>,
}

impl Game for GuardedSplit {
    type Position = Vec<Pattern>;
    type Move = PartMove;
    type Key = CountedKey;

    fn for_each_option<F>(&self, parts: &Vec<Pattern>, visit: F)
    where
        F: FnMut(PartMove, Vec<Pattern>),
    {
        options_until(parts, visit, || self.guard.should_stop());
    }

    fn for_each_component<F>(&self, parts: &Vec<Pattern>, visit: F)
    where
        F: FnMut(Vec<Pattern>),
    {
        components(parts, visit);
    }

    /// The canonical form; once the guard has stopped, the pattern itself
    /// (a valid key too: equal patterns are the same game), since the
    /// search is abandoned anyway.
    fn key(&self, component: &Vec<Pattern>) -> CountedKey {
        let Some(first) = component.first() else {
            return CountedKey::new(Pattern::empty(), 0, &self.guard);
        };
        let pattern = first
            .canonical_until(|| self.guard.should_stop())
            .unwrap_or_else(|| first.clone());
        let component_bytes = std::mem::size_of::<Vec<Pattern>>() as u64
            + component.iter().map(Pattern::bytes).sum::<u64>();
        CountedKey::new(pattern, component_bytes, &self.guard)
    }

    fn known_value(&self, component: &Vec<Pattern>) -> Option<Nimber> {
        match component.as_slice() {
            [] => Some(Nimber::ZERO),
            [one] => one.known_value(),
            _ => None,
        }
    }

    fn interrupted(&self) -> Option<SolveError> {
        self.guard.stopped()
    }
}
