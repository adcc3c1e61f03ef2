//! Read access to solved tiers, as the worker reads earlier tiers while it
//! values a tier: the seam between solving and storage. An in-memory
//! [`TierTable`] is one implementation; a compact or memory-mapped store is
//! another.
//!
//! A lookup is split in two so that the worker can start every read of a
//! position's options before it waits for any ([`TierValues::locate`] and
//! [`TierValues::prefetch`] in a first pass, [`TierValues::value_at`] in a
//! second): the reads are independent, so their cache misses overlap. A
//! store whose `locate` itself reads memory (a compact tier reads a part's
//! record) has that read started a pass earlier ([`TierValues::prefetch_key`]).
//!
//! A key is turned once into what the store probes with
//! ([`TierValues::probe_key`]: a compact tier's hash of it), and that probe,
//! not the key, goes to the later calls: a lookup in three passes would
//! otherwise hash its key four times (2% of a 5 x 5 build's instructions,
//! counted by callgrind).

use super::hash::table_hash;
use super::table::home;
use super::TierTable;

/// One solved tier's values, read by key.
pub trait TierValues: Sync {
    /// Positions the tier holds.
    fn positions(&self) -> u64;

    /// What the other calls take for `key`: the key itself, or what the
    /// store derives from it once (a compact tier's hash of it).
    #[inline]
    fn probe_key(&self, key: u64) -> u64 {
        key
    }

    /// Starts loading what [`TierValues::locate`] will read for a key
    /// (`probe`: its [`TierValues::probe_key`]; a compact tier's part
    /// record), without waiting for it; a store whose `locate` reads
    /// nothing does nothing.
    fn prefetch_key(&self, _probe: u64) {}

    /// Where a key (`probe`: its [`TierValues::probe_key`]) is looked for
    /// (an index into the store's own layout).
    fn locate(&self, probe: u64) -> usize;

    /// Starts loading the word at `at` (from [`TierValues::locate`]),
    /// without waiting for it, so that it is in cache when
    /// [`TierValues::value_at`] reads it.
    fn prefetch(&self, at: usize);

    /// The value of a key (`probe`: its [`TierValues::probe_key`]),
    /// located at `at`; `None` when the tier does not hold the key (as far
    /// as its layout can tell: a store without keys answers for any key and
    /// must be asked only for its own).
    fn value_at(&self, probe: u64, at: usize) -> Option<u32>;

    /// The value of `key`, or `None` when the tier does not hold it.
    fn value(&self, key: u64) -> Option<u32> {
        let probe = self.probe_key(key);
        self.value_at(probe, self.locate(probe))
    }
}

impl<S: AsRef<[u64]> + Sync> TierValues for TierTable<S> {
    fn positions(&self) -> u64 {
        TierTable::positions(self)
    }

    #[inline]
    fn locate(&self, key: u64) -> usize {
        home(table_hash(key), self.capacity()) as usize
    }

    #[inline]
    fn prefetch(&self, at: usize) {
        crate::prefetch::prefetch_in(self.slots(), at);
    }

    #[inline]
    fn value_at(&self, key: u64, at: usize) -> Option<u32> {
        self.probe(key, at)
    }
}
