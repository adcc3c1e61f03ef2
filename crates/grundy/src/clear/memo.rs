//! The memo of shape values: an open-addressing table for the shapes that
//! fit the 8 x 8 frame, whose canonical keys are a single `u64`.
//!
//! Hand-written because the memo lookup is the solver's hottest line: most
//! lookups miss the cache, and a general hash map touches two cache lines per
//! probe (its control bytes, then the bucket) where this table touches one
//! (a 16-byte slot holding key and value, linear probing, at most half full).
//! On the full 5 x 5 board (261,011 shapes) it cut the CPU time from 1.22 s
//! to 0.96 s (`cargo run --release -p grundy --example clear_full -- 5 5`
//! under `/usr/bin/time`). Shapes larger than the frame (such as 4 x 16
//! boards) go to an ordinary hash map.

use rustc_hash::FxHashMap;

use super::ShapeKey;
use crate::{Nimber, Table};

#[derive(Clone, Copy, Default)]
struct Slot {
    /// A canonical 8 x 8 key; 0 marks an empty slot (the empty shape is a
    /// known value and never stored here).
    key: u64,
    value: u32,
}

/// A [`Table`] for [`Clear`](super::Clear) shape keys.
#[derive(Clone, Default)]
pub struct ShapeTable {
    slots: Vec<Slot>,
    /// Keys in `slots`.
    small: usize,
    large: FxHashMap<ShapeKey, Nimber>,
}

impl std::fmt::Debug for ShapeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ShapeTable({} shapes)", self.len())
    }
}

impl ShapeTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> ShapeTable {
        ShapeTable::default()
    }

    fn home(&self, key: u64) -> usize {
        // Fibonacci hashing: the top bits of a multiplicative hash.
        let bits = self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    fn grow(&mut self) {
        let capacity = (self.slots.len() * 2).max(1 << 12);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); capacity]);
        self.small = 0;
        for slot in old.into_iter().filter(|slot| slot.key != 0) {
            self.insert_small(slot.key, slot.value);
        }
    }

    fn insert_small(&mut self, key: u64, value: u32) {
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let slot = &mut self.slots[index];
            if slot.key == 0 {
                *slot = Slot { key, value };
                self.small += 1;
                return;
            }
            if slot.key == key {
                slot.value = value;
                return;
            }
            index = (index + 1) & mask;
        }
    }
}

/// True for the keys this table keeps in its own slots.
fn is_small(key: &ShapeKey) -> bool {
    key.0 == 0 && key.1 == 0 && key.2 != 0
}

impl Table<ShapeKey> for ShapeTable {
    fn get(&self, key: &ShapeKey) -> Option<Nimber> {
        if !is_small(key) {
            return self.large.get(key).copied();
        }
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut index = self.home(key.2);
        loop {
            let slot = self.slots[index];
            if slot.key == key.2 {
                return Some(Nimber::new(slot.value));
            }
            if slot.key == 0 {
                return None;
            }
            index = (index + 1) & mask;
        }
    }

    fn insert(&mut self, key: ShapeKey, value: Nimber) {
        if !is_small(&key) {
            self.large.insert(key, value);
            return;
        }
        // At most half full keeps probe runs short.
        if 2 * (self.small + 1) > self.slots.len() {
            self.grow();
        }
        self.insert_small(key.2, value.value());
    }

    fn len(&self) -> usize {
        self.small + self.large.len()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The table behaves as a map: compared with `HashMap` under random
        /// inserts (including overwrites and keys outside the frame).
        #[test]
        fn behaves_like_a_hash_map(
            ops in proptest::collection::vec((0u8..2, 0u64..5000, 0u32..300), 0..20_000)
        ) {
            let mut table = ShapeTable::new();
            let mut model = HashMap::new();
            for &(kind, bits, value) in &ops {
                let key = if kind == 0 { (0, 0, bits) } else { (3, 9, bits) };
                table.insert(key, Nimber::new(value));
                model.insert(key, Nimber::new(value));
            }
            prop_assert_eq!(table.len(), model.len());
            for &(kind, bits, _) in &ops {
                for key in [(0, 0, bits), (3, 9, bits), (0, 0, bits + 5000)] {
                    let _ = kind;
                    prop_assert_eq!(table.get(&key), model.get(&key).copied());
                }
            }
        }
    }
}
