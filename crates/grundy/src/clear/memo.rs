//! The memo of shape values: compact open-addressing tables keyed by a
//! shape's canonical `u64`, one for the shapes that fit the 8 x 8 frame and
//! one per width for the wider shapes (`r x c` with `c > 8`, cut to their
//! bounding box, row-major with stride `c`), whose width and bits name them.
//!
//! **Layout.** A table is a directory of [`SEGMENTS`] segments, each an array
//! of 64-byte buckets, one cache line each: seven keys, their seven values
//! as bytes, and a fill count. A key's hash picks the segment and, within
//! it, the home bucket; a full bucket spills into the next one (linear
//! probing over buckets). Nothing is ever removed, so a bucket that is not
//! full ends every probe that reaches it. A lookup reads one cache line in
//! the common case, against two for a general hash map (control bytes, then
//! the bucket), and a batch of lookups can be prefetched
//! ([`Table::prefetch`]).
//!
//! **Memory.** An entry costs 64 / 7 = 9.1 bytes of bucket; a segment doubles
//! when it is 3/4 full, so it is between 3/8 and 3/4 full: 12 to 24 bytes per
//! stored shape. Growing one segment at a time keeps the transient of a
//! doubling (old and new arrays alive at once) to a 64th of the table, where
//! doubling a whole table costs three times its size at that moment. Values
//! are bytes; a value of 255 or more is stored as 255 and kept in a side map
//! (no clearing board seen so far has one, but nimbers are not capped).
//!
//! Hand-written because the memo lookup is the solver's hottest line (41 %
//! of the time on a 5 x 5 board): a general map touches two cache lines per
//! probe and stores 16 to 32 bytes per entry at a load of at most 7/8,
//! with a whole-table doubling on top.

use rustc_hash::FxHashMap;

use super::MemoKey;
use crate::prefetch::prefetch;
use crate::solver::hash_map_bytes;
use crate::{Nimber, Table};

/// Segments per table (a power of two): the hash's top bits pick one.
const SEGMENT_BITS: u32 = 6;
const SEGMENTS: usize = 1 << SEGMENT_BITS;
/// Keys per bucket: 7 keys and 7 value bytes and a count fill 64 bytes.
const BUCKET_KEYS: usize = 7;
/// Buckets in a new segment.
const FIRST_BUCKETS: usize = 2;
/// A stored value byte meaning "255 or more, see the side map".
const BIG: u8 = u8::MAX;

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket {
    /// Keys; 0 marks an empty place (the empty shape is never stored).
    keys: [u64; BUCKET_KEYS],
    values: [u8; BUCKET_KEYS],
    /// Places in use, filled in order.
    len: u8,
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

impl Bucket {
    const EMPTY: Bucket = Bucket {
        keys: [0; BUCKET_KEYS],
        values: [0; BUCKET_KEYS],
        len: 0,
    };

    /// The place of `key`, if here. All seven keys are compared and the
    /// matches gathered in a mask, with no early exit: the compiler makes
    /// that one vector compare, where a search that stops at the match
    /// branches on where the key is.
    #[inline(always)]
    fn find(&self, key: u64) -> Option<usize> {
        let mut found = 0u32;
        for (place, &k) in self.keys.iter().enumerate() {
            found |= u32::from(k == key) << place;
        }
        (found != 0).then(|| found.trailing_zeros() as usize)
    }
}

#[derive(Clone)]
struct Segment {
    /// A power of two, at least [`FIRST_BUCKETS`].
    buckets: Vec<Bucket>,
    /// Keys stored.
    len: usize,
    /// `64 - log2(buckets.len())`: the shift that turns the hash's bits below
    /// the segment bits into a bucket index.
    shift: u32,
}

impl Segment {
    fn new(buckets: usize) -> Segment {
        Segment {
            buckets: vec![Bucket::EMPTY; buckets],
            len: 0,
            shift: 64 - buckets.trailing_zeros(),
        }
    }

    fn home(&self, hash: u64) -> usize {
        ((hash << SEGMENT_BITS) >> self.shift) as usize
    }

    fn get(&self, key: u64, hash: u64) -> Option<u8> {
        let mask = self.buckets.len() - 1;
        let mut index = self.home(hash);
        loop {
            let bucket = &self.buckets[index];
            if let Some(place) = bucket.find(key) {
                return Some(bucket.values[place]);
            }
            if usize::from(bucket.len) < BUCKET_KEYS {
                return None;
            }
            index = (index + 1) & mask;
        }
    }

    /// Stores `value` for `key`; true when the key is new.
    fn insert(&mut self, key: u64, hash: u64, value: u8) -> bool {
        let mask = self.buckets.len() - 1;
        let mut index = self.home(hash);
        loop {
            let bucket = &mut self.buckets[index];
            if let Some(place) = bucket.find(key) {
                bucket.values[place] = value;
                return false;
            }
            let len = usize::from(bucket.len);
            if len < BUCKET_KEYS {
                bucket.keys[len] = key;
                bucket.values[len] = value;
                bucket.len += 1;
                self.len += 1;
                return true;
            }
            index = (index + 1) & mask;
        }
    }

    /// True when one more key would pass 3/4 of the places (so some bucket
    /// always has room and every probe ends).
    fn is_crowded(&self) -> bool {
        4 * (self.len + 1) > 3 * BUCKET_KEYS * self.buckets.len()
    }

    fn bytes(&self) -> usize {
        self.buckets.capacity() * std::mem::size_of::<Bucket>()
    }

    fn grow(&mut self) {
        let mut bigger = Segment::new(2 * self.buckets.len());
        for bucket in &self.buckets {
            for place in 0..usize::from(bucket.len) {
                let key = bucket.keys[place];
                bigger.insert(key, hash(key), bucket.values[place]);
            }
        }
        *self = bigger;
    }
}

fn hash(key: u64) -> u64 {
    // Fibonacci hashing: the top bits of a multiplicative hash.
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A map from non-zero `u64` keys to values, in segments of buckets.
#[derive(Clone)]
struct KeyTable {
    segments: Vec<Segment>,
    len: usize,
    /// Bytes of all segments' buckets.
    bytes: usize,
    /// Bytes of the largest segment: a growth allocates twice that.
    largest: usize,
    /// Values of 255 and more.
    big: FxHashMap<u64, Nimber>,
}

impl KeyTable {
    /// [`KeyTable::allocated_bytes`] of a new table, without making one:
    /// [`Table::growth_bytes`] needs it at every insert under a memory
    /// budget.
    const NEW_BYTES: usize =
        SEGMENTS * (FIRST_BUCKETS * std::mem::size_of::<Bucket>() + std::mem::size_of::<Segment>());

    fn new() -> KeyTable {
        let segments = vec![Segment::new(FIRST_BUCKETS); SEGMENTS];
        let largest = segments[0].bytes();
        KeyTable {
            bytes: largest * SEGMENTS,
            largest,
            segments,
            len: 0,
            big: FxHashMap::default(),
        }
    }

    fn segment(&self, hash: u64) -> &Segment {
        &self.segments[(hash >> (64 - SEGMENT_BITS)) as usize]
    }

    fn get(&self, key: u64) -> Option<Nimber> {
        let hash = hash(key);
        match self.segment(hash).get(key, hash)? {
            BIG => self.big.get(&key).copied(),
            small => Some(Nimber::new(u32::from(small))),
        }
    }

    fn insert(&mut self, key: u64, value: Nimber) {
        debug_assert!(key != 0);
        let hash = hash(key);
        let byte = match u8::try_from(value.value()) {
            Ok(byte) if byte < BIG => byte,
            _ => {
                self.big.insert(key, value);
                BIG
            }
        };
        let segment = &mut self.segments[(hash >> (64 - SEGMENT_BITS)) as usize];
        if segment.is_crowded() {
            let before = segment.bytes();
            segment.grow();
            let after = segment.bytes();
            self.bytes = self.bytes - before + after;
            self.largest = self.largest.max(after);
        }
        if segment.insert(key, hash, byte) {
            self.len += 1;
        } else if byte < BIG {
            // An overwrite of a big value by a small one.
            self.big.remove(&key);
        }
    }

    /// The address of `key`'s home bucket, for a prefetch.
    fn home_bucket(&self, key: u64) -> *const Bucket {
        let hash = hash(key);
        let segment = self.segment(hash);
        segment.buckets[segment.home(hash)..].as_ptr()
    }

    fn allocated_bytes(&self) -> usize {
        self.bytes
            + self.segments.capacity() * std::mem::size_of::<Segment>()
            + hash_map_bytes(&self.big)
    }
}

/// The widest shapes kept in their own tables: up to 64 columns.
const MAX_WIDTH: usize = 64;

/// A [`Table`] for [`Clear`](super::Clear) shape keys.
#[derive(Clone)]
pub struct ShapeTable {
    /// Keys `(0, 0, bits)`: shapes in the 8 x 8 frame.
    frame: KeyTable,
    /// Keys `(rows, cols, bits)` of shapes wider than 8, by `cols`; `bits`
    /// has `rows` rows of stride `cols`, so `cols` and `bits` name the key.
    wide: Vec<Option<KeyTable>>,
    /// Bytes allocated by the tables in `wide`.
    wide_bytes: usize,
    /// The largest growth step among the tables in `wide`.
    wide_largest: usize,
    /// Any other key (none that [`Board::canonical`](super::Board::canonical)
    /// makes, but the table is a map for every key).
    other: FxHashMap<MemoKey, Nimber>,
}

impl Default for ShapeTable {
    fn default() -> Self {
        ShapeTable::new()
    }
}

impl std::fmt::Debug for ShapeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ShapeTable({} shapes)", self.len())
    }
}

/// Where a key is kept.
enum Home {
    Frame(u64),
    Wide(usize, u64),
    Other,
}

fn home(key: &MemoKey) -> Home {
    let (rows, cols, bits) = (usize::from(key.0), usize::from(key.1), key.2);
    if bits == 0 {
        return Home::Other;
    }
    if rows == 0 && cols == 0 {
        return Home::Frame(bits);
    }
    // A wide key's bits fill exactly `rows` rows of `cols` cells (compared
    // by products: a division by `cols` costs more than the lookup's hash).
    let used = 64 - bits.leading_zeros() as usize;
    if cols > 8
        && cols <= MAX_WIDTH
        && rows >= 1
        && rows * cols <= 64
        && (rows - 1) * cols < used
        && used <= rows * cols
    {
        return Home::Wide(cols, bits);
    }
    Home::Other
}

impl ShapeTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> ShapeTable {
        ShapeTable {
            frame: KeyTable::new(),
            wide: vec![None; MAX_WIDTH + 1],
            wide_bytes: 0,
            wide_largest: 0,
            other: FxHashMap::default(),
        }
    }
}

impl Table<MemoKey> for ShapeTable {
    fn get(&self, key: &MemoKey) -> Option<Nimber> {
        match home(key) {
            Home::Frame(bits) => self.frame.get(bits),
            Home::Wide(cols, bits) => self.wide[cols].as_ref()?.get(bits),
            Home::Other => self.other.get(key).copied(),
        }
    }

    fn insert(&mut self, key: MemoKey, value: Nimber) {
        match home(&key) {
            Home::Frame(bits) => self.frame.insert(bits, value),
            Home::Wide(cols, bits) => {
                let table = self.wide[cols].get_or_insert_with(|| {
                    let table = KeyTable::new();
                    self.wide_bytes += table.allocated_bytes();
                    table
                });
                let before = table.allocated_bytes();
                table.insert(bits, value);
                self.wide_bytes = self.wide_bytes - before + table.allocated_bytes();
                self.wide_largest = self.wide_largest.max(table.largest);
            }
            Home::Other => {
                self.other.insert(key, value);
            }
        }
    }

    fn len(&self) -> usize {
        self.frame.len + self.wide.iter().flatten().map(|t| t.len).sum::<usize>() + self.other.len()
    }

    fn allocated_bytes(&self) -> usize {
        self.frame.allocated_bytes()
            + self.wide.capacity() * std::mem::size_of::<Option<KeyTable>>()
            + self.wide_bytes
            + hash_map_bytes(&self.other)
    }

    fn growth_bytes(&self) -> usize {
        // The next insert grows at most one segment (to twice the largest),
        // creates a wide table, or doubles the side map.
        let segment = 2 * self.frame.largest.max(self.wide_largest);
        segment
            .max(KeyTable::NEW_BYTES)
            .max(hash_map_bytes(&self.other))
    }

    fn prefetch(&self, key: &MemoKey) {
        match home(key) {
            Home::Frame(bits) => prefetch(self.frame.home_bucket(bits)),
            Home::Wide(cols, bits) => {
                if let Some(table) = &self.wide[cols] {
                    prefetch(table.home_bucket(bits));
                }
            }
            Home::Other => {}
        }
    }
}

// The prefetch (`crate::prefetch`) pays for itself: without it (the
// batching kept), `cargo run --release -p grundy --example clear_full` on
// the full 5 x 5 and 4 x 6 boards takes about 7% and 12% more user time. It
// pays more as the table outgrows the caches.

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The table behaves as a map: compared with `HashMap` under random
        /// inserts (including overwrites, big values, wide keys and keys of
        /// no known form).
        #[test]
        fn behaves_like_a_hash_map(
            ops in proptest::collection::vec((0u8..4, 0u64..5000, 0u32..300), 0..20_000)
        ) {
            let mut table = ShapeTable::new();
            let mut model = HashMap::new();
            let key_of = |kind: u8, bits: u64| match kind {
                0 => (0, 0, bits),
                1 => (3, 9, bits),
                2 => (2, 9, bits | 1 << 9),
                _ => (1, 16, bits | 1 << 15),
            };
            for &(kind, bits, value) in &ops {
                let key = key_of(kind, bits);
                table.insert(key, Nimber::new(value));
                model.insert(key, Nimber::new(value));
            }
            prop_assert_eq!(table.len(), model.len());
            for &(kind, bits, _) in &ops {
                for key in [key_of(kind, bits), (3, 9, bits), key_of(kind, bits + 5000)] {
                    prop_assert_eq!(table.get(&key), model.get(&key).copied());
                }
            }
        }
    }

    /// The size a new table is counted at is the size a new table has.
    #[test]
    fn new_bytes_are_a_new_tables() {
        assert_eq!(KeyTable::NEW_BYTES, KeyTable::new().allocated_bytes());
    }

    #[test]
    fn memory_per_entry_stays_small() {
        let mut table = ShapeTable::new();
        let n = 1u64 << 20;
        for key in 1..=n {
            table.insert(
                (0, 0, key.wrapping_mul(0x2545_F491_4F6C_DD1D)),
                Nimber::new(1),
            );
        }
        let per_entry = table.allocated_bytes() as f64 / n as f64;
        // Segments are 3/8 to 3/4 full at 9.1 bytes a place.
        assert!(
            (12.0..=25.0).contains(&per_entry),
            "{per_entry} bytes per entry"
        );
    }
}
