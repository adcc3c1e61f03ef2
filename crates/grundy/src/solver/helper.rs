//! A second core on one value search: a helper thread runs the same search
//! of the same component in the opposite order, and the two share the
//! values they finish through an [`Exchange`].
//!
//! **Algorithm.** The main search expands a frame's unknown parts first to
//! last; the helper's (a [`Solver`](super::Solver) made with
//! [`Solver::helping`](super::Solver::helping)) last to first, at every
//! depth, so the two descend into different shapes and meet in the middle.
//! Each stores every value it finishes in the exchange, and asks it before
//! expanding a part its own memo lacks: a hit spares the whole search below
//! that part. The main search alone decides the answer; the helper only
//! fills the exchange. It is woken once the main search has run a while
//! (65,536 shapes solved), so short searches pay nothing for it, and it is
//! stopped when the main search is done.
//!
//! **Cost.** One probe of the exchange for each part a search is about to
//! expand, and one store for each shape it finishes, against about fifty
//! probes of its own memo for each such shape: a few percent. The helper's
//! memo is a second copy of the shapes it reaches, bounded by its share of
//! the memory budget.
//!
//! **Why it is correct.** A value in the exchange was finished by a search
//! of the same rules, so it is the value the main search would have found;
//! the exchange never hands out a key without its value (see
//! [`WordExchange`]). The order in which a frame's parts are expanded does
//! not change the frame's value, which is the mex of all its options.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::{Budget, Nimber};

/// Values shared between searches on different threads, keyed as the
/// solver's memo is. It may forget or never hold a value: a miss only means
/// the search finds it itself.
pub trait Exchange<K>: Send + Sync {
    /// The value stored for `key`, if any.
    fn get(&self, key: &K) -> Option<Nimber>;
    /// Offers the value of `key`, which may be dropped when the exchange is
    /// full.
    fn put(&self, key: &K, value: Nimber);
    /// The bytes the exchange has allocated.
    fn allocated_bytes(&self) -> usize;
    /// A hint that `key` is about to be looked up or stored.
    fn prefetch(&self, key: &K);
}

/// The other end of a main search's helper: started on each component the
/// main search is about to search, stopped when it is done.
pub trait Helper<P>: Send {
    /// Starts helping with the search of `root`, which runs under `budget`
    /// with `free` bytes of it left (`None`: no memory budget); false when
    /// the helper declines (a component it cannot help with, or no room
    /// for its share). `budget`'s positions are those the two searches
    /// have left: the helper stops once its own shapes and those the main
    /// search solves from now on ([`Helper::tell`]) reach them. It holds
    /// at most [`Helper::memory_bytes`] of the budget.
    fn begin(&mut self, root: &P, budget: &Budget, free: Option<usize>) -> bool;
    /// Stops the help begun last and waits until the helper has stopped.
    fn end(&mut self);
    /// The shapes the helper has solved since it was made, as it last told
    /// (every 256 shapes, and at the end of each search): they count in
    /// the position budget of the search it helps.
    fn solved(&self) -> u64;
    /// Tells the helper the shapes the main search has solved under its
    /// budget, after each one: the helper reads them as it tells its own,
    /// so that the two stop at the position budget together even when the
    /// main search's thread is not running.
    fn tell(&self, main_solved: u64);
    /// The most bytes the helper may hold under the main search's `budget`:
    /// its memo, its scratch and the exchange. The main search keeps its
    /// own memory within the budget less this.
    fn memory_bytes(&self, budget: &Budget) -> usize;
    /// The bytes the helper holds now, as it last told: its memo and
    /// scratch at the end of its last job, and the exchange.
    fn held_bytes(&self) -> usize;
}

/// Slots of a [`WordExchange`] bucket: five keys and five values fill one
/// 64-byte cache line.
const SLOTS: usize = 5;
/// Buckets a key may be stored in, from its home bucket on.
const PROBES: usize = 4;
/// The stored word of a slot whose key is claimed and whose value is not
/// yet written; a value `v` is stored as `v + 1`, so an empty bucket is all
/// zeros.
const PENDING: u32 = 0;

#[repr(C, align(64))]
struct Bucket {
    keys: [AtomicU64; SLOTS],
    values: [AtomicU32; SLOTS],
}

/// An [`Exchange`] of fixed size keyed by non-zero 64-bit words, safe to
/// share between threads without locks.
///
/// A slot's key is written once, from 0 by compare-and-swap, and never
/// changes; its value is written after the key, over 0 ("not yet"), by
/// whoever writes it, as `v + 1` for the value `v` every writer found by
/// the same rules. So a reader that finds a key and a value other than 0
/// has that key's value, and one that finds 0 treats it as a miss. A key
/// whose four buckets are full is not stored.
///
/// The buckets are allocated by [`WordExchange::allocate`], which sets
/// their number; until then the exchange holds nothing and takes nothing.
///
/// Hand-written rather than a concurrent map crate: a lookup here is one
/// cache line and two plain loads, with nothing to lock or to reclaim,
/// which a map that supports removal and growth cannot offer.
pub struct WordExchange {
    buckets: OnceLock<Box<[Bucket]>>,
}

/// Freeing the buckets of an exchange this large is left to a thread of
/// its own: the kernel takes about 10 ms to unmap the 128 MB of `grundy
/// clear`'s exchange, which the search that ends, on time, would spend
/// past its budget.
const FREE_APART_BYTES: usize = 8 << 20;

impl Drop for WordExchange {
    fn drop(&mut self) {
        if let Some(buckets) = self.buckets.take() {
            if std::mem::size_of_val(&*buckets) >= FREE_APART_BYTES {
                // Not joined: the memory goes a few milliseconds later, or
                // with the process. If no thread starts, the closure (and
                // the buckets) is dropped here.
                let _ = std::thread::Builder::new()
                    .name("grundy-free".into())
                    .spawn(move || drop(buckets));
            }
        }
    }
}

impl WordExchange {
    /// An exchange not yet allocated.
    #[must_use]
    pub const fn new() -> WordExchange {
        WordExchange {
            buckets: OnceLock::new(),
        }
    }

    /// Allocates the buckets, at most `bytes` of them (at least four
    /// buckets, a power of two), if not done yet.
    pub fn allocate(&self, bytes: usize) {
        self.buckets.get_or_init(|| {
            let wanted = (bytes / std::mem::size_of::<Bucket>()).max(PROBES);
            let count = if wanted.is_power_of_two() {
                wanted
            } else {
                wanted.next_power_of_two() / 2
            };
            (0..count)
                .map(|_| Bucket {
                    keys: std::array::from_fn(|_| AtomicU64::new(0)),
                    values: std::array::from_fn(|_| AtomicU32::new(PENDING)),
                })
                .collect()
        });
    }

    /// The home bucket of `word` among `count` (a power of two).
    fn home(word: u64, count: usize) -> usize {
        // The high bits of a multiplicative hash: canonical shapes differ
        // mostly in their low bits.
        (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (count - 1)
    }

    /// Asks for the home bucket of `word` to be fetched into the cache.
    pub fn prefetch_word(&self, word: u64) {
        if let Some(buckets) = self.buckets.get() {
            crate::prefetch::prefetch_in(buckets, Self::home(word, buckets.len()));
        }
    }

    /// The value stored for `word` (non-zero), if any.
    #[must_use]
    pub fn get_word(&self, word: u64) -> Option<Nimber> {
        let buckets = self.buckets.get()?;
        let home = Self::home(word, buckets.len());
        for step in 0..PROBES {
            let bucket = &buckets[(home + step) & (buckets.len() - 1)];
            for slot in 0..SLOTS {
                let key = bucket.keys[slot].load(Ordering::Acquire);
                if key == word {
                    let value = bucket.values[slot].load(Ordering::Acquire);
                    return (value != PENDING).then(|| Nimber::new(value - 1));
                }
                if key == 0 {
                    return None;
                }
            }
        }
        None
    }

    /// Stores `value` for `word` (non-zero), unless the exchange is not
    /// allocated, its buckets are full, or the value is `u32::MAX`, which
    /// is not stored.
    pub fn put_word(&self, word: u64, value: Nimber) {
        let (Some(buckets), Some(stored)) = (self.buckets.get(), value.value().checked_add(1))
        else {
            return;
        };
        if word == 0 {
            return;
        }
        let home = Self::home(word, buckets.len());
        for step in 0..PROBES {
            let bucket = &buckets[(home + step) & (buckets.len() - 1)];
            for slot in 0..SLOTS {
                let claimed = match bucket.keys[slot].compare_exchange(
                    0,
                    word,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => true,
                    Err(key) => key == word,
                };
                if claimed {
                    bucket.values[slot].store(stored, Ordering::Release);
                    return;
                }
            }
        }
    }

    /// The bytes of the buckets, 0 before they are allocated.
    #[must_use]
    pub fn allocated_bytes(&self) -> usize {
        self.buckets
            .get()
            .map_or(0, |b| std::mem::size_of_val(&**b))
    }
}

impl Default for WordExchange {
    fn default() -> Self {
        WordExchange::new()
    }
}

impl std::fmt::Debug for WordExchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordExchange")
            .field("buckets", &self.buckets.get().map_or(0, |b| b.len()))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        /// Every value found is the one put for that key; with room to
        /// spare, every key put is found.
        #[test]
        fn finds_what_was_put(entries in proptest::collection::vec((1u64..64, 0u32..100), 0..200)) {
            let exchange = WordExchange::new();
            exchange.allocate(64 * 64);
            let mut model = HashMap::new();
            for &(word, value) in &entries {
                let value = *model.entry(word).or_insert(value);
                exchange.put_word(word, Nimber::new(value));
            }
            for word in 0..80u64 {
                prop_assert_eq!(exchange.get_word(word).map(Nimber::value), model.get(&word).copied());
            }
        }

        /// A full exchange drops what does not fit and never answers wrong.
        #[test]
        fn full_exchange_answers_only_what_it_holds(words in proptest::collection::vec(1u64..u64::MAX, 0..300)) {
            let exchange = WordExchange::new();
            exchange.allocate(0);
            for &word in &words {
                exchange.put_word(word, Nimber::new((word % 7) as u32));
            }
            for &word in &words {
                if let Some(value) = exchange.get_word(word) {
                    prop_assert_eq!(value.value(), (word % 7) as u32);
                }
            }
        }
    }

    /// An exchange not yet allocated holds nothing.
    #[test]
    fn holds_nothing_until_allocated() {
        let exchange = WordExchange::new();
        exchange.put_word(5, Nimber::new(3));
        assert_eq!(exchange.get_word(5), None);
        assert_eq!(exchange.allocated_bytes(), 0);
        exchange.allocate(1 << 12);
        assert_eq!(exchange.allocated_bytes(), 1 << 12);
        exchange.put_word(5, Nimber::new(3));
        assert_eq!(exchange.get_word(5), Some(Nimber::new(3)));
    }

    /// Two threads putting and reading the same keys at once never read a
    /// value that was not put for the key.
    #[test]
    fn threads_never_read_a_torn_entry() {
        let exchange = WordExchange::new();
        exchange.allocate(1 << 16);
        let value_of = |word: u64| Nimber::new((word.wrapping_mul(31) % 1000) as u32);
        std::thread::scope(|scope| {
            for start in [1u64, 2] {
                let exchange = &exchange;
                scope.spawn(move || {
                    for round in 0..20_000u64 {
                        let word = (round * start) % 3_000 + 1;
                        exchange.put_word(word, value_of(word));
                        let other = (round * 7 + start) % 3_000 + 1;
                        if let Some(value) = exchange.get_word(other) {
                            assert_eq!(value, value_of(other));
                        }
                    }
                });
            }
        });
    }
}
