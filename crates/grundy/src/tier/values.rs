//! Read access to solved tiers, as the worker reads earlier tiers while it
//! values a tier: the seam between solving and storage. An in-memory
//! [`TierTable`] is one implementation; a compact or memory-mapped store is
//! another.
//!
//! A lookup is split in two so that the worker can start every read of a
//! position's options before it waits for any ([`TierValues::locate`] and
//! [`TierValues::touch`] in a first pass, [`TierValues::value_at`] in a
//! second): the reads are independent, so their cache misses overlap.

use super::table::{home, mix};
use super::TierTable;

/// One solved tier's values, read by key.
pub trait TierValues: Sync {
    /// Positions the tier holds.
    fn positions(&self) -> u64;

    /// Where `key` is looked for (an index into the store's own layout).
    fn locate(&self, key: u64) -> usize;

    /// Reads the word at `at` (from [`TierValues::locate`]) and returns it,
    /// so that its cache line is on its way before [`TierValues::value_at`]
    /// needs it. The word means nothing to the caller.
    fn touch(&self, at: usize) -> u64;

    /// The value of `key`, located at `at`; `None` when the tier does not
    /// hold `key` (as far as its layout can tell: a store without keys
    /// answers for any key and must be asked only for its own).
    fn value_at(&self, key: u64, at: usize) -> Option<u32>;

    /// The value of `key`, or `None` when the tier does not hold it.
    fn value(&self, key: u64) -> Option<u32> {
        self.value_at(key, self.locate(key))
    }
}

impl<S: AsRef<[u64]> + Sync> TierValues for TierTable<S> {
    fn positions(&self) -> u64 {
        TierTable::positions(self)
    }

    #[inline]
    fn locate(&self, key: u64) -> usize {
        home(mix(key), self.capacity()) as usize
    }

    #[inline]
    fn touch(&self, at: usize) -> u64 {
        self.slots().get(at).copied().unwrap_or(0)
    }

    #[inline]
    fn value_at(&self, key: u64, at: usize) -> Option<u32> {
        self.probe(key, at)
    }
}
