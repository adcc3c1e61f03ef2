//! A tier split between processes: which part owns a key, and batches of
//! options whose components are looked up elsewhere before the positions
//! are valued.

use super::hash::{fastrange, owner_hash};
use super::table::{slot_key, slot_value_set};
use super::{Tier, TierError, TierGame, TierTable, MAX_VALUE};
use crate::{MexSet, Nimber};

/// The part (`0..parts`) that owns `key` in a build partitioned into
/// `parts` parts (MPI ranks), by [`owner_hash`]: independent of the hash
/// that lays out a table, so each part's keys still spread over its whole
/// table.
#[must_use]
pub fn owner(key: u64, parts: u32) -> u32 {
    // Below `parts`, so it fits a u32.
    fastrange(owner_hash(key), u64::from(parts)) as u32
}

impl TierTable<Vec<u64>> {
    /// Positions in the slots `range`, in slot order.
    pub fn positions_in(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = u64> + '_ {
        self.slots()[range]
            .iter()
            .filter(|&&s| s != 0)
            .map(|&s| slot_key(s))
    }

    /// Sets the values of the positions in the slots `range`, in slot
    /// order (as [`TierTable::positions_in`] lists them).
    ///
    /// # Errors
    ///
    /// [`TierError::ValueTooLarge`] for a value over [`MAX_VALUE`].
    ///
    /// # Panics
    ///
    /// When `values` does not have one value per position of the range.
    pub fn set_values(
        &mut self,
        tier: Tier,
        range: std::ops::Range<usize>,
        values: &[u32],
    ) -> Result<(), TierError> {
        let mut values = values.iter();
        for slot in self.slots_mut()[range].iter_mut().filter(|s| **s != 0) {
            let value = *values.next().expect("a value per position");
            if value > MAX_VALUE {
                return Err(TierError::ValueTooLarge { tier, value });
            }
            *slot = slot_value_set(*slot, value);
        }
        assert!(values.next().is_none(), "a value per position");
        Ok(())
    }
}

/// The options of a batch of positions, gathered so that the components
/// they name can be looked up somewhere else (in another process's tables)
/// before the positions are valued ([`OptionBatch::values`]).
///
/// Valuing a position needs every component of every option: gathering
/// them for a batch lets a partitioned build ask each owner once per batch
/// instead of once per lookup.
#[derive(Clone, Debug, Default)]
pub struct OptionBatch {
    positions: Vec<u64>,
    /// Per position: the end of its options in `options`.
    ends: Vec<u32>,
    /// Per option: the XOR of its known components, and the end of its
    /// components in `keys`.
    options: Vec<(u32, u32)>,
    keys: Vec<u64>,
}

impl OptionBatch {
    /// An empty batch.
    #[must_use]
    pub fn new() -> OptionBatch {
        OptionBatch::default()
    }

    /// Empties the batch, keeping its buffers.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.ends.clear();
        self.options.clear();
        self.keys.clear();
    }

    /// Adds a position and gathers its options.
    ///
    /// # Panics
    ///
    /// When the batch outgrows `u32` indices (4 billion options or keys):
    /// batches are meant to be thousands of positions.
    pub fn push<G: TierGame>(&mut self, game: &G, position: u64) {
        let OptionBatch {
            positions,
            ends,
            options,
            keys,
        } = self;
        positions.push(position);
        game.for_each_option(position, |known, components| {
            keys.extend_from_slice(components);
            options.push((
                known.value(),
                u32::try_from(keys.len()).expect("a batch of under 2^32 keys"),
            ));
        });
        ends.push(u32::try_from(options.len()).expect("a batch of under 2^32 options"));
    }

    /// The positions, in the order they were pushed.
    #[must_use]
    pub fn positions(&self) -> &[u64] {
        &self.positions
    }

    /// Every component the options name (with repeats), to be looked up.
    #[must_use]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Bytes the batch's buffers hold.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.positions.capacity() * 8
            + self.ends.capacity() * 4
            + self.options.capacity() * 8
            + self.keys.capacity() * 8
    }

    /// The value of every position, in order: the mex over its options of
    /// the XOR of the option's known value and its components' values,
    /// each from `lookup`.
    ///
    /// # Errors
    ///
    /// [`TierError::MissingChild`] when `lookup` knows a component not,
    /// [`TierError::ValueTooLarge`] past [`MAX_VALUE`].
    pub fn values<L: FnMut(u64) -> Option<u32>>(
        &self,
        tier: Tier,
        mut lookup: L,
    ) -> Result<Vec<u32>, TierError> {
        let mut seen = MexSet::new();
        let mut out = Vec::with_capacity(self.positions.len());
        let (mut option, mut key) = (0usize, 0usize);
        for (&position, &end) in self.positions.iter().zip(&self.ends) {
            seen.clear();
            for &(known, keys_end) in &self.options[option..end as usize] {
                let mut value = known;
                for &child in &self.keys[key..keys_end as usize] {
                    value ^= lookup(child).ok_or(TierError::MissingChild {
                        tier,
                        position,
                        child,
                    })?;
                }
                key = keys_end as usize;
                seen.insert(Nimber::new(value));
            }
            option = end as usize;
            let value = seen.mex().value();
            if value > MAX_VALUE {
                return Err(TierError::ValueTooLarge { tier, value });
            }
            out.push(value);
        }
        Ok(out)
    }
}
