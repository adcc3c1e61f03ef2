//! One tier's positions and values in memory: a static linear-probing hash
//! table of 8-byte slots, `key << VALUE_BITS | value`. The slot encoding is
//! read and written in the engine only (`slot`, `slot_key`,
//! `slot_value`); other crates see an [`Entry`].

use rayon::prelude::*;

use super::hash::{fastrange, table_hash, table_unhash};
use super::{TierError, MAX_KEY, MAX_VALUE, VALUE_BITS};
use crate::Nimber;

/// The slot holding `key` with `value` (the one place slots are encoded).
#[inline]
#[must_use]
pub(crate) const fn slot(key: u64, value: u32) -> u64 {
    key << VALUE_BITS | value as u64
}

/// The key of an occupied slot.
#[inline]
#[must_use]
pub(crate) const fn slot_key(slot: u64) -> u64 {
    slot >> VALUE_BITS
}

/// The value of an occupied slot.
#[inline]
#[must_use]
pub(crate) const fn slot_value(slot: u64) -> u32 {
    (slot & MAX_VALUE as u64) as u32
}

/// `slot` with its value replaced by `value` (at most [`MAX_VALUE`]).
#[inline]
#[must_use]
pub(crate) const fn slot_value_set(slot: u64, value: u32) -> u64 {
    (slot & !(MAX_VALUE as u64)) | value as u64
}

/// A position of a tier with its value: what a table's slot holds. Entries
/// order by key (keys of a tier are distinct).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry(u64);

impl Entry {
    /// The entry of position `key` (in `1..=MAX_KEY`) with `value` (at most
    /// [`MAX_VALUE`]); `None` out of those ranges.
    #[must_use]
    pub fn new(key: u64, value: u32) -> Option<Entry> {
        (key != 0 && key <= MAX_KEY && value <= MAX_VALUE).then_some(Entry(slot(key, value)))
    }

    /// The position.
    #[inline]
    #[must_use]
    pub const fn key(self) -> u64 {
        slot_key(self.0)
    }

    /// Its value.
    #[inline]
    #[must_use]
    pub fn value(self) -> Nimber {
        Nimber::new(slot_value(self.0))
    }

    /// The entry as one 64-bit word, the form file formats and checksums
    /// carry it in (its slot in a [`TierTable`]); [`Entry::from_word`]
    /// reads it back.
    #[inline]
    #[must_use]
    pub const fn word(self) -> u64 {
        self.0
    }

    /// The entry [`Entry::word`] gave; `None` for a word no entry gives
    /// (key 0: an empty slot).
    #[inline]
    #[must_use]
    pub const fn from_word(word: u64) -> Option<Entry> {
        if slot_key(word) == 0 {
            None
        } else {
            Some(Entry(word))
        }
    }
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Entry({:#x}: {})", self.key(), slot_value(self.0))
    }
}

/// One tier's positions and values: a static linear-probing hash table of
/// 8-byte slots, `key << 12 | value`, 0 for an empty slot.
///
/// Position `key` has home slot `⌊table_hash(key) · capacity / 2^64⌋` and
/// lies at the first slot from its home holding it; slots are laid out in
/// order of [`table_hash`] (a bijection), so the layout depends only on the
/// set of keys,
/// never on the order they were found in, and a build resumed or repeated
/// writes the same bytes. The array ends with at least one empty slot, so a
/// probe always stops without wrapping around.
#[derive(Clone, Debug)]
pub struct TierTable<S = Vec<u64>> {
    positions: u64,
    capacity: u64,
    slots: S,
}

/// The home slot of a key hashed by [`table_hash`] in a table of
/// `capacity` slots.
#[inline]
pub(super) fn home(mixed: u64, capacity: u64) -> u64 {
    fastrange(mixed, capacity)
}

/// The capacity (home slots) for `positions` keys: a load factor of 3/4;
/// `None` when it does not fit a `u64` (a count no table in memory has, but
/// one a crafted file header may claim).
#[must_use]
pub const fn capacity_for(positions: u64) -> Option<u64> {
    // In u128, `positions * 4 + 2` cannot overflow.
    let capacity = (positions as u128 * 4).div_ceil(3) + 1;
    if capacity > u64::MAX as u128 {
        None
    } else {
        Some(capacity as u64)
    }
}

/// [`capacity_for`] of a table being built in memory, whose key count is a
/// `Vec`'s length and so far below the overflow.
fn capacity_in_memory(positions: u64) -> u64 {
    capacity_for(positions).expect("a table in memory has fewer than 2^62 keys")
}

/// The bytes of the slots [`TierTable::from_keys`] lays out for
/// `positions` keys (before a spare slot that may grow at the end).
pub(super) fn bytes_in_memory(positions: u64) -> u64 {
    (capacity_in_memory(positions) + 1).saturating_mul(8)
}

impl TierTable<Vec<u64>> {
    /// The raw slots, to be valued in place by the worker.
    pub(super) fn slots_mut(&mut self) -> &mut [u64] {
        &mut self.slots
    }

    /// Sets the values of the slots from `start` on to `values` (an
    /// interrupted build's solved stretch, kept by its store): an empty
    /// slot must have 0, an occupied one at most [`MAX_VALUE`].
    ///
    /// # Errors
    ///
    /// A message, and the table unchanged, when the stretch passes the end
    /// or a value does not fit its slot.
    pub fn set_slot_values(&mut self, start: usize, values: &[u16]) -> Result<(), String> {
        let end = start
            .checked_add(values.len())
            .filter(|&end| end <= self.slots.len())
            .ok_or_else(|| {
                format!(
                    "slots {start}.. of {} values pass the table's {}",
                    values.len(),
                    self.slots.len()
                )
            })?;
        let slots = &mut self.slots[start..end];
        if let Some((i, &v)) = slots
            .iter()
            .zip(values)
            .enumerate()
            .find_map(|(i, (&s, v))| {
                (u32::from(*v) > MAX_VALUE || (s == 0 && *v != 0)).then_some((i, v))
            })
        {
            return Err(format!("value {v} does not fit slot {}", start + i));
        }
        for (slot, &value) in slots.iter_mut().zip(values) {
            if *slot != 0 {
                *slot = slot_value_set(*slot, u32::from(value));
            }
        }
        Ok(())
    }

    /// A table of the given keys, values 0. Keys must be distinct, non-zero
    /// and at most [`MAX_KEY`].
    ///
    /// # Errors
    ///
    /// [`TierError::BadKey`] for a key out of range.
    pub fn from_keys(mut keys: Vec<u64>) -> Result<TierTable, TierError> {
        if let Some(&key) = keys.iter().find(|&&k| k == 0 || k > MAX_KEY) {
            return Err(TierError::BadKey { key });
        }
        keys.par_iter_mut().for_each(|k| *k = table_hash(*k));
        keys.par_sort_unstable();
        Ok(TierTable::laid_out(
            keys.len() as u64,
            keys.iter()
                .map(|&mixed| (mixed, slot(table_unhash(mixed), 0))),
        ))
    }

    /// The table of `positions` occupied slots, given as `(mixed hash of
    /// the key, slot)` in the order of the mixed hashes: each slot at its
    /// key's home or, when that is taken, the first free one after (the
    /// last ones may run past the spare slot, which grows the table).
    fn laid_out(positions: u64, entries: impl Iterator<Item = (u64, u64)>) -> TierTable {
        let capacity = capacity_in_memory(positions);
        let mut slots = vec![0u64; capacity as usize + 1];
        let mut next = 0u64;
        for (mixed, entry) in entries {
            let at = home(mixed, capacity).max(next);
            if at as usize + 1 >= slots.len() {
                slots.resize(at as usize + 2, 0);
            }
            slots[at as usize] = entry;
            next = at + 1;
        }
        TierTable {
            positions,
            capacity,
            slots,
        }
    }
}

impl TierTable<Vec<u64>> {
    /// A table of the given entries, with distinct keys. The layout is the
    /// one [`TierTable::from_keys`] gives for the same keys, whatever the
    /// order of `entries`, so a tier joined from the parts of a partitioned
    /// build equals a single build's.
    ///
    /// # Errors
    ///
    /// None in fact: an [`Entry`]'s key is in range.
    pub fn from_entries(entries: Vec<Entry>) -> Result<TierTable, TierError> {
        // Same size and layout: the collect reuses the vector.
        TierTable::from_slot_words(entries.into_iter().map(Entry::word).collect())
    }

    /// [`TierTable::from_entries`] of entries as occupied slots.
    ///
    /// # Errors
    ///
    /// [`TierError::BadKey`] for an entry with key 0.
    pub(crate) fn from_slot_words(mut entries: Vec<u64>) -> Result<TierTable, TierError> {
        if let Some(&entry) = entries.iter().find(|&&e| slot_key(e) == 0) {
            return Err(TierError::BadKey {
                key: slot_key(entry),
            });
        }
        // Sorting by the mixed key in the comparator keeps the values in
        // place without a second array.
        entries.par_sort_unstable_by_key(|&e| table_hash(slot_key(e)));
        Ok(TierTable::laid_out(
            entries.len() as u64,
            entries.iter().map(|&e| (table_hash(slot_key(e)), e)),
        ))
    }
}

impl<S: AsRef<[u64]>> TierTable<S> {
    /// A table over stored slots, as [`TierTable::slots`] gave them.
    ///
    /// # Errors
    ///
    /// A message when the slots cannot be such a table (too few slots, no
    /// empty slot at the end, or a count that does not match).
    pub fn from_parts(positions: u64, capacity: u64, slots: S) -> Result<TierTable<S>, String> {
        let s = slots.as_ref();
        if Some(capacity) != capacity_for(positions) {
            return Err(format!(
                "capacity {capacity} does not fit {positions} positions"
            ));
        }
        if (s.len() as u64) <= capacity || s.last() != Some(&0) {
            return Err(format!(
                "{} slots cannot hold a table of capacity {capacity}",
                s.len()
            ));
        }
        Ok(TierTable {
            positions,
            capacity,
            slots,
        })
    }

    /// How many positions the table holds.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The number of home slots.
    #[must_use]
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// The raw slots, `key << 12 | value` or 0.
    #[must_use]
    pub fn slots(&self) -> &[u64] {
        self.slots.as_ref()
    }

    /// The value of `key`, or `None` when the table does not hold it.
    #[inline]
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Nimber> {
        self.probe(key, home(table_hash(key), self.capacity) as usize)
            .map(Nimber::new)
    }

    /// The value of `key`, probing from slot `at` (its home slot).
    #[inline]
    pub(super) fn probe(&self, key: u64, mut at: usize) -> Option<u32> {
        let slots = self.slots.as_ref();
        while let Some(&slot) = slots.get(at) {
            if slot == 0 {
                return None;
            }
            if slot_key(slot) == key {
                return Some(slot_value(slot));
            }
            at += 1;
        }
        None
    }

    /// Checks the layout every lookup relies on: occupied slots in strictly
    /// increasing order of the mixed key (so keys are distinct), each at or
    /// after its home slot with no empty slot in between. A table read from
    /// a file whose checksums were forged can break it; then a stored key
    /// could be missed. One pass, one multiplication a slot.
    ///
    /// # Errors
    ///
    /// A message naming the first slot out of place.
    pub fn check_layout(&self) -> Result<(), String> {
        let slots = self.slots.as_ref();
        let mut last: Option<u64> = None;
        for (i, &slot) in slots.iter().enumerate() {
            if slot == 0 {
                continue;
            }
            let key = slot_key(slot);
            let mixed = table_hash(key);
            let at_home = home(mixed, self.capacity) as usize;
            // The previous slot is occupied (by a key of an earlier home,
            // whose own run is checked) whenever this one is past its home.
            let in_run = at_home == i || (at_home < i && slots[i - 1] != 0);
            if key == 0 || last.is_some_and(|l| l >= mixed) || !in_run {
                return Err(format!("slot {i} (key {key:#x}) is out of place"));
            }
            last = Some(mixed);
        }
        Ok(())
    }

    /// Every entry, in slot order.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.slots
            .as_ref()
            .iter()
            .filter(|&&s| s != 0)
            .map(|&s| Entry(s))
    }

    /// Every `(key, value)`, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Nimber)> + '_ {
        self.slots
            .as_ref()
            .iter()
            .filter(|&&s| s != 0)
            .map(|&s| (slot_key(s), Nimber::new(slot_value(s))))
    }

    /// The values of the slots in `range`, 0 for an empty slot (what
    /// [`TierTable::set_slot_values`] sets back).
    ///
    /// # Panics
    ///
    /// When `range` passes the end of the slots.
    #[must_use]
    pub fn slot_values(&self, range: std::ops::Range<usize>) -> Vec<u16> {
        // A value is at most MAX_VALUE, 12 bits.
        self.slots.as_ref()[range]
            .iter()
            .map(|&s| slot_value(s) as u16)
            .collect()
    }

    /// Every key in slot order: with [`TierTable::capacity`], what fixes
    /// the layout (a store checks a kept stretch against it).
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter().map(|(key, _)| key)
    }

    /// The largest value stored, 0 for an empty table.
    #[must_use]
    pub fn max_value(&self) -> u32 {
        self.slots
            .as_ref()
            .par_iter()
            .map(|&s| slot_value(s))
            .max()
            .unwrap_or(0)
    }
}
