//! Where solved tiers go: the storage seam of the build loop (GamesmanOne's
//! db manager and its back-ends). The loop writes each tier as soon as it is
//! solved, so a stopped build keeps it, and asks the store for a read view
//! of it once the build no longer needs the tier's keys: an in-memory store
//! hands the table back; a store that keeps no keys (a compact file section)
//! hands a view of what it wrote. On resume the store hands back the views
//! of the tiers it holds, and the loop regenerates (never re-solves) the
//! keys it still needs from them. A store may also keep the solved stretches
//! of the tier under way ([`TierStore::keep_solved`]), so that a build
//! stopped in the middle of a large tier loses at most a stretch of it.

use std::convert::Infallible;

use super::{Tier, TierTable, TierValues};

/// A back-end that stores a build's tiers.
pub trait TierStore {
    /// Why storing failed.
    type Error: std::fmt::Display;
    /// The read view of one stored tier.
    type Values: TierValues;

    /// Tiers a stopped build left stored (tiers `0..stored()`).
    fn stored(&self) -> usize;

    /// The id of the build that stored them (0 when there is none): the
    /// parts of a partitioned build resume only from tiers of one build.
    fn build_id(&self) -> u64 {
        0
    }

    /// Keeps the first `tiers` stored tiers (at most [`TierStore::stored`]),
    /// now under `build_id`, and returns their views in order.
    ///
    /// # Errors
    ///
    /// The store's.
    fn resume(&mut self, tiers: usize, build_id: u64) -> Result<Vec<Self::Values>, Self::Error>;

    /// Stores solved tier `tier` (the next one), durably before the build
    /// goes on. A store whose writing takes long (a compact file section is
    /// built first) asks `stop` now and then, and fails when it answers
    /// `true`: the build's budget or cancellation, which the loop reports
    /// as such.
    ///
    /// # Errors
    ///
    /// The store's.
    fn write(
        &mut self,
        tier: Tier,
        table: &TierTable,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), Self::Error>;

    /// Restores the solved stretch of tier `tier` that an interrupted
    /// build kept ([`TierStore::keep_solved`]): sets those slots' values
    /// in `table` (the tier laid out again from its regenerated keys, all
    /// values 0) and returns how many leading slots are solved. A store
    /// that keeps nothing, or whose kept stretch is of another layout or
    /// damaged, returns 0 (or the length of the part it can prove): a
    /// stretch is never trusted past its checks. Asked once a tier, before
    /// it is solved, by a build of one part.
    ///
    /// # Errors
    ///
    /// The store's.
    fn solved_prefix(&mut self, tier: Tier, table: &mut TierTable) -> Result<usize, Self::Error> {
        let _ = (tier, table);
        Ok(0)
    }

    /// Keeps the values of `table`'s slots in `solved`, the stretch solved
    /// next (it starts where the last kept one ended), so that a build
    /// stopped before the tier is written resumes after it. The default
    /// keeps nothing.
    ///
    /// # Errors
    ///
    /// The store's.
    fn keep_solved(
        &mut self,
        tier: Tier,
        table: &TierTable,
        solved: std::ops::Range<usize>,
    ) -> Result<(), Self::Error> {
        let _ = (tier, table, solved);
        Ok(())
    }

    /// Tier `tier`'s view on resume, once the loop has regenerated its
    /// keys (`keys`, every position of the tier this part holds): a store
    /// whose tiers are read back in a slower form than the one a build
    /// holds them in after solving them (a file's compact section, against
    /// lines of one cache line a lookup) builds that form here, so a
    /// resumed build reads its earlier tiers as fast as an unbroken one. It
    /// asks `stop` now and then, as [`TierStore::write`] does. The default
    /// keeps the view.
    ///
    /// # Errors
    ///
    /// The store's.
    fn regenerated(
        &mut self,
        tier: Tier,
        view: &mut Self::Values,
        keys: &[u64],
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), Self::Error> {
        let _ = (tier, view, keys, stop);
        Ok(())
    }

    /// The read view of tier `tier`, written before, once the build no
    /// longer needs its keys (`table` is what was written).
    ///
    /// # Errors
    ///
    /// The store's.
    fn seal(&mut self, tier: Tier, table: TierTable) -> Result<Self::Values, Self::Error>;

    /// About how many bytes [`TierStore::write`] allocates, at most, for a
    /// tier of `positions` positions (an encoding of it held, buffers), so
    /// that a build under a memory budget asks for them first
    /// ([`super::TierControl::reserve`]). None by default.
    fn write_bytes(&self, positions: u64) -> u64 {
        let _ = positions;
        0
    }
}

/// Tiers kept in memory, as tables: the view of a tier is its table.
#[derive(Debug, Default)]
pub struct MemoryStore {
    resumed: Vec<TierTable>,
}

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// A store holding `tables`, tiers `0..tables.len()` solved before.
    #[must_use]
    pub fn with_tiers(tables: Vec<TierTable>) -> MemoryStore {
        MemoryStore { resumed: tables }
    }
}

impl TierStore for MemoryStore {
    type Error = Infallible;
    type Values = TierTable;

    fn stored(&self) -> usize {
        self.resumed.len()
    }

    fn resume(&mut self, tiers: usize, _build_id: u64) -> Result<Vec<TierTable>, Infallible> {
        self.resumed.truncate(tiers);
        Ok(std::mem::take(&mut self.resumed))
    }

    fn write(
        &mut self,
        _tier: Tier,
        _table: &TierTable,
        _stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), Infallible> {
        Ok(())
    }

    fn seal(&mut self, _tier: Tier, table: TierTable) -> Result<TierTable, Infallible> {
        Ok(table)
    }
}
