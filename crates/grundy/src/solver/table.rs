//! The solver's memo: the [`Table`] trait that a game's own memo implements
//! (rectangle clearing's [`ShapeTable`](crate::clear::ShapeTable)), and
//! the default, a hash map.
//!
//! A table reports the bytes it has allocated and the most its next insert
//! may add, computed from its allocations' sizes, so that a memory budget
//! stops a search before the table passes it rather than after.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::Nimber;

/// A memo of component values, keyed by [`Game::Key`](crate::Game::Key).
pub trait Table<K> {
    /// The value stored for `key`, if any.
    fn get(&self, key: &K) -> Option<Nimber>;
    /// Stores the value of `key`.
    fn insert(&mut self, key: K, value: Nimber);
    /// How many values are stored.
    fn len(&self) -> usize;
    /// True when nothing is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The bytes the table has allocated, computed from its allocations'
    /// sizes (not counting heap data that keys own). The default, 0, is for
    /// tables that cannot tell; a memory budget does not bound them.
    fn allocated_bytes(&self) -> usize {
        0
    }
    /// The most bytes the next [`Table::insert`] may allocate on top of
    /// [`Table::allocated_bytes`] while it runs (a growth step's new storage,
    /// with the old still alive).
    fn growth_bytes(&self) -> usize {
        0
    }
    /// A hint that `key` is about to be looked up, so its memory can be
    /// fetched while other work goes on. The default does nothing.
    fn prefetch(&self, key: &K) {
        let _ = key;
    }
}

/// The default [`Table`]: a hash map with a fast non-cryptographic hasher
/// (keys are positions the solver made itself, not attacker-chosen strings).
#[derive(Clone, Debug)]
pub struct HashTable<K> {
    map: FxHashMap<K, Nimber>,
}

impl<K> Default for HashTable<K> {
    fn default() -> Self {
        HashTable {
            map: FxHashMap::default(),
        }
    }
}

impl<K: Eq + Hash> Table<K> for HashTable<K> {
    fn get(&self, key: &K) -> Option<Nimber> {
        self.map.get(key).copied()
    }
    fn insert(&mut self, key: K, value: Nimber) {
        self.map.insert(key, value);
    }
    fn len(&self) -> usize {
        self.map.len()
    }
    fn allocated_bytes(&self) -> usize {
        hash_map_bytes(&self.map)
    }
    fn growth_bytes(&self) -> usize {
        // A full map doubles: the new buckets while the old are alive.
        2 * self.allocated_bytes()
    }
}

/// The bytes a hashbrown map has allocated for its buckets and control
/// bytes, from its capacity (it keeps a power-of-two number of buckets at
/// most 7/8 full, and 16 spare control bytes).
pub(crate) fn hash_map_bytes<K, V, S>(map: &std::collections::HashMap<K, V, S>) -> usize {
    hashbrown_bytes(map.capacity(), std::mem::size_of::<(K, V)>())
}

/// [`hash_map_bytes`] of a set.
pub(crate) fn hash_set_bytes<K, S>(set: &std::collections::HashSet<K, S>) -> usize {
    hashbrown_bytes(set.capacity(), std::mem::size_of::<K>())
}

/// The bytes of a hashbrown table of `capacity` entries of `entry` bytes.
fn hashbrown_bytes(capacity: usize, entry: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    buckets * (entry + 1) + 16
}
