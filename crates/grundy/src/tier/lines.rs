//! A solved tier held for lookups in one cache line a key: how a build
//! holds the tiers it has just solved, while files keep the compact form
//! ([`super::compact`]). In memory only; never written.
//!
//! **Layout.** `lines` lines of 64 bytes; a key's hash `h`
//! ([`super::compact`]'s SplitMix64 of the key) picks its line,
//! `⌊h · lines / 2^64⌋`. A line holds up to `capacity` keys: byte 0 is
//! their count (bit 7: the line overflowed), byte 1 a seed, then one 8-bit
//! fingerprint a key, then their values of `value_bits` bits each, packed
//! from the first byte after the fingerprints. `capacity` is the most that
//! fit: 35 keys for values of 6 bits.
//!
//! **Algorithm.** The keys of a line are sorted by hash; the seed is the
//! first of 256 under which the fingerprints of *every* key hashed to the
//! line are distinct; the first `capacity` keys are kept in the line, the
//! rest (an overfull line) go to a second level, a [`TierTable`] of them,
//! and the line is flagged. A line where no seed separates its keys
//! keeps none of them (count 0, flagged): all go to the second level. A
//! lookup reads its line, compares the key's fingerprint with the line's
//! (eight at a time in a word), and reads the value beside the match; with
//! no match in a flagged line it asks the second level.
//!
//! **Cost.** Lines get `capacity · 29 / 32` keys on average (31 of 35 for
//! 6-bit values: 16.5 bits a key); the Poisson tail puts about 3% of the
//! keys in the second level, at about 11 bytes each: 2.1 to 2.2 bytes a
//! key in all (the 6 x 6 database's tiers, `large_tier ... lines`),
//! against 1.93 for a compact tier. A lookup reads one cache line (the
//! second level's too only for those 3%), where a compact tier reads a
//! part's record and then the entry. Valuing the 6 x 6 tier of 26 cells
//! with 2 threads: 8.35 µs a shape against 9.45 and 9.50 with the compact
//! tiers.
//!
//! **Why it is correct.** A key of the tier kept in its line has a
//! fingerprint no other key of the line shares (the seed was chosen so),
//! so its match is its own entry; a key sent to the second level matches
//! no fingerprint in its line (the seed separates it from the kept ones
//! too), so it reaches the second level, which holds it. As with a compact
//! tier, a key *not* in the tier may match (1 in 256 a kept key of its
//! line): callers ask only for keys that can be in the tier.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::compact::CompactError;
use super::hash::{compact_hash, compact_unhash, fastrange};
use super::table::{slot_key, slot_value};
use super::values::TierValues;
use super::TierTable;

/// Bytes of a line.
pub const LINE: usize = 64;
/// Bytes of a line before its fingerprints: count and flag, seed.
const HEAD: usize = 2;
/// Bit 7 of a line's count byte: keys of the line are in the second level.
const OVERFLOW: u8 = 0x80;
/// Bytes after the head that a lookup compares with a key's fingerprint:
/// three vectors of 16, which hold the most fingerprints a line has
/// ([`capacity_for`]), inside the line.
const SEARCHED: usize = 48;
const _: () = assert!(capacity_for(1) <= SEARCHED && HEAD + SEARCHED <= LINE);
/// Lines built between two asks of the stop check.
const CHUNK_LINES: usize = 1 << 14;

/// Keys a line holds with values of `value_bits` bits (1 to 12): an 8-bit
/// fingerprint and the value each, in the 62 bytes after the head, and at
/// most 40: past that, a line's keys (overfull ones included) too often
/// share a fingerprint under all 256 seeds (40 keys are distinct under 4%
/// of the seeds, 50 under 0.8%).
#[must_use]
pub const fn capacity_for(value_bits: u32) -> usize {
    let fit = (LINE - HEAD) * 8 / (8 + value_bits as usize);
    if fit < 40 {
        fit
    } else {
        40
    }
}

/// Keys a line gets on average for a line capacity `capacity`.
fn per_line(capacity: usize) -> u64 {
    (capacity as u64 * 29 / 32).max(1)
}

/// A key's fingerprint in its line under `seed`: bits of its hash mixed
/// with the seed, independent of the bits that chose its line.
#[inline]
fn fingerprint(h: u64, seed: u8) -> u8 {
    let mut z = h ^ (u64::from(seed) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 32;
    (z.wrapping_mul(0x94D0_49BB_1331_11EB) >> 56) as u8
}

/// A solved tier as lines of one cache line a lookup (see the module
/// documentation), over any bytes `B` (a `Vec`, a memory map).
#[derive(Debug)]
pub struct LineTier<B = Vec<u8>> {
    bytes: B,
    lines: u64,
    value_bits: u32,
    capacity: usize,
    positions: u64,
    max_value: u32,
    /// The keys of overfull lines, as a table: a compact tier of them
    /// would not place, since they crowd the few ranges of hashes of the
    /// overfull lines, where a compact tier's parts are chosen by the
    /// same hash; the table hashes keys its own way.
    overflow: TierTable,
}

impl LineTier<Vec<u8>> {
    /// The lines of a solved table, asking `stop` between chunks of lines
    /// whether to give up. The bytes depend only on the keys and values.
    ///
    /// # Errors
    ///
    /// [`CompactError::Stopped`] once `stop` answers `true`;
    /// [`CompactError::TooLarge`] for a table of 2^32 slots or more; the
    /// [`CompactError::Layout`] for a key 0 in the table.
    pub fn build_until<S: AsRef<[u64]> + Sync>(
        table: &TierTable<S>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<LineTier<Vec<u8>>, CompactError> {
        let max_value = table.max_value();
        let value_bits = (u32::BITS - max_value.leading_zeros()).max(1);
        let capacity = capacity_for(value_bits);
        LineTier::build_with(table, value_bits, capacity, per_line(capacity), stop)
    }

    /// [`LineTier::build_until`] with a given line capacity (at most the
    /// one values of `value_bits` bits allow) and keys a line: more keys a
    /// line than it holds overfill lines, for the tests of the second
    /// level.
    fn build_with<S: AsRef<[u64]> + Sync>(
        table: &TierTable<S>,
        value_bits: u32,
        capacity: usize,
        per_line: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<LineTier<Vec<u8>>, CompactError> {
        debug_assert!(capacity <= capacity_for(value_bits), "the line holds them");
        let slots = table.slots();
        let too_large = CompactError::TooLarge {
            positions: table.positions(),
        };
        if u32::try_from(slots.len()).is_err() {
            return Err(too_large);
        }
        let positions = table.positions();
        let lines = positions.div_ceil(per_line).max(1);
        let line_count = usize::try_from(lines).map_err(|_| too_large.clone())?;
        let line_of = |slot: u64| fastrange(compact_hash(slot_key(slot)), lines) as usize;
        // Counting sort of the slots by line: counts, starts, then each
        // slot's index scattered into its line's range (in no fixed order
        // within a line; each line sorts its few keys by hash below).
        let counts: Vec<AtomicU32> = (0..line_count).map(|_| AtomicU32::new(0)).collect();
        slots.par_chunks(1 << 16).try_for_each(|chunk| {
            if stop() {
                return Err(CompactError::Stopped);
            }
            for &slot in chunk.iter().filter(|&&s| s != 0) {
                counts[line_of(slot)].fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        })?;
        let mut starts = Vec::with_capacity(line_count + 1);
        let mut total = 0u32;
        for count in &counts {
            starts.push(total);
            total += count.load(Ordering::Relaxed);
        }
        starts.push(total);
        let cursor: Vec<AtomicU32> = starts[..line_count]
            .iter()
            .map(|&s| AtomicU32::new(s))
            .collect();
        drop(counts);
        let order: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        slots
            .par_chunks(1 << 16)
            .enumerate()
            .try_for_each(|(c, chunk)| {
                if stop() {
                    return Err(CompactError::Stopped);
                }
                for (i, &slot) in chunk.iter().enumerate() {
                    if slot != 0 {
                        let at = cursor[line_of(slot)].fetch_add(1, Ordering::Relaxed);
                        order[at as usize].store(((c << 16) + i) as u32, Ordering::Relaxed);
                    }
                }
                Ok(())
            })?;
        drop(cursor);
        let mut bytes = vec![0u8; line_count * LINE];
        let bumped: Vec<Vec<u64>> = bytes
            .par_chunks_mut(LINE * CHUNK_LINES)
            .enumerate()
            .map(|(c, block)| {
                if stop() {
                    return Err(CompactError::Stopped);
                }
                let mut bumped = Vec::new();
                let mut keys: Vec<(u64, u64)> = Vec::new();
                for (j, line) in block.chunks_mut(LINE).enumerate() {
                    let l = c * CHUNK_LINES + j;
                    keys.clear();
                    for at in &order[starts[l] as usize..starts[l + 1] as usize] {
                        let slot = slots[at.load(Ordering::Relaxed) as usize];
                        keys.push((compact_hash(slot_key(slot)), slot));
                    }
                    keys.sort_unstable();
                    fill_line(line, &keys, value_bits, capacity, &mut bumped);
                }
                Ok(bumped)
            })
            .collect::<Result<_, _>>()?;
        drop(order);
        let overflow =
            TierTable::from_slot_words(bumped.concat()).map_err(|e| CompactError::Layout {
                what: e.to_string(),
            })?;
        Ok(LineTier {
            bytes,
            lines,
            value_bits,
            capacity,
            positions,
            max_value: table.max_value(),
            overflow,
        })
    }
}

/// Writes one line from its keys `(hash, slot)` sorted by hash, pushing
/// the slots it cannot keep onto `bumped`.
fn fill_line(
    line: &mut [u8],
    keys: &[(u64, u64)],
    value_bits: u32,
    capacity: usize,
    bumped: &mut Vec<u64>,
) {
    let seed = (0..=u8::MAX).find(|&seed| {
        let mut seen = [0u64; 4];
        keys.iter().all(|&(h, _)| {
            let fp = fingerprint(h, seed);
            let (word, bit) = (usize::from(fp / 64), fp % 64);
            let fresh = seen[word] >> bit & 1 == 0;
            seen[word] |= 1 << bit;
            fresh
        })
    });
    let Some(seed) = seed else {
        // No seed separates them: every key goes to the second level.
        line[0] = OVERFLOW;
        bumped.extend(keys.iter().map(|&(_, slot)| slot));
        return;
    };
    let kept = keys.len().min(capacity);
    line[0] = kept as u8 | if kept < keys.len() { OVERFLOW } else { 0 };
    line[1] = seed;
    let values_at = (HEAD + capacity) * 8;
    for (i, &(h, slot)) in keys[..kept].iter().enumerate() {
        line[HEAD + i] = fingerprint(h, seed);
        let value = u64::from(slot_value(slot));
        let bit = values_at + i * value_bits as usize;
        for b in 0..value_bits as usize {
            if value >> b & 1 == 1 {
                line[(bit + b) / 8] |= 1 << ((bit + b) % 8);
            }
        }
    }
    bumped.extend(keys[kept..].iter().map(|&(_, slot)| slot));
}

impl<B: AsRef<[u8]>> LineTier<B> {
    /// The same lines over other bytes, a copy of them made by `copy` (a
    /// build moves them into memory of its choice, such as huge pages).
    ///
    /// # Errors
    ///
    /// `copy`'s.
    ///
    /// # Panics
    ///
    /// When `copy` returns bytes of another length (a bug of the caller).
    pub fn with_bytes<C: AsRef<[u8]>, E>(
        self,
        copy: impl FnOnce(&[u8]) -> Result<C, E>,
    ) -> Result<LineTier<C>, E> {
        let bytes = copy(self.bytes.as_ref())?;
        assert_eq!(
            bytes.as_ref().len(),
            self.bytes.as_ref().len(),
            "a copy of the lines"
        );
        debug_assert!(bytes.as_ref() == self.bytes.as_ref(), "a copy of the lines");
        Ok(LineTier {
            bytes,
            lines: self.lines,
            value_bits: self.value_bits,
            capacity: self.capacity,
            positions: self.positions,
            max_value: self.max_value,
            overflow: self.overflow,
        })
    }

    /// The tier's largest value.
    #[must_use]
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// Keys held in the second level (those of overfull lines).
    #[must_use]
    pub fn overflowed(&self) -> u64 {
        self.overflow.positions()
    }

    /// Bytes held: the lines and the second level.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.as_ref().len() + self.overflow.slots().len() * 8
    }

    /// Whether the tier holds no bytes (never: it has a line).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Line `line`'s 64 bytes (none past the end).
    #[inline]
    fn line(&self, line: usize) -> &[u8] {
        let start = line.saturating_mul(LINE);
        self.bytes
            .as_ref()
            .get(start..start.saturating_add(LINE))
            .unwrap_or(&[])
    }

    /// The value of the key hashed `h` in line `line`, or `Err(true)` when
    /// the line does not hold it and overflowed (the second level may),
    /// `Err(false)` when it does not hold it and did not.
    ///
    /// The fingerprints are compared sixteen at a time, with no branch on
    /// where the match is (its place is random, so a loop that stopped at
    /// it would mispredict): the 48 bytes after the head (every
    /// fingerprint, as a line holds at most 40, and some value bits) are
    /// compared with the key's fingerprint by three vector compares
    /// ([`wide::u8x16`], whose masks gather into one bit a byte), and the
    /// lowest flag among the line's `count` keys is the match:
    /// fingerprints are distinct within a line, so there is at most one.
    ///
    /// Why vectors: they take about 40% fewer instructions in the valuing
    /// loop than eight bytes a word (the borrow trick, and a
    /// multiplication to gather each word's flags), counted by callgrind
    /// on a 4 x 6 build with every large tier held in lines.
    #[inline]
    fn find(&self, line: &[u8], h: u64) -> Result<u32, bool> {
        let (Some(head), Some(fingerprints)) = (line.get(..HEAD), line.get(HEAD..HEAD + SEARCHED))
        else {
            return Err(false);
        };
        let (count, overflowed, seed) = (head[0] & !OVERFLOW, head[0] & OVERFLOW != 0, head[1]);
        let pattern = wide::u8x16::splat(fingerprint(h, seed));
        let mut matches = 0u64;
        for (k, bytes) in fingerprints.chunks_exact(16).enumerate() {
            let bytes: [u8; 16] = bytes.try_into().expect("16 bytes");
            let flags = wide::u8x16::new(bytes).simd_eq(pattern).to_bitmask();
            matches |= u64::from(flags) << (16 * k);
        }
        matches &= (1u64 << count) - 1;
        if matches == 0 {
            return Err(overflowed);
        }
        let i = matches.trailing_zeros() as usize;
        let bit = (HEAD + self.capacity) * 8 + i * self.value_bits as usize;
        // The word read stays inside the line: from byte 56 at most.
        let byte = (bit / 8).min(LINE - 8);
        let word = u64::from_le_bytes(line[byte..byte + 8].try_into().expect("8 bytes"));
        Ok(((word >> (bit - byte * 8)) & ((1 << self.value_bits) - 1)) as u32)
    }
}

impl<B: AsRef<[u8]> + Sync> TierValues for LineTier<B> {
    fn positions(&self) -> u64 {
        self.positions
    }

    #[inline]
    fn probe_key(&self, key: u64) -> u64 {
        compact_hash(key)
    }

    #[inline]
    fn prefetch_key(&self, h: u64) {
        let line = fastrange(h, self.lines) as usize;
        crate::prefetch::prefetch_in(self.bytes.as_ref(), line.saturating_mul(LINE));
    }

    #[inline]
    fn locate(&self, h: u64) -> usize {
        fastrange(h, self.lines) as usize
    }

    /// Nothing: [`TierValues::prefetch_key`] started the line's read.
    #[inline]
    fn prefetch(&self, _at: usize) {}

    #[inline]
    fn value_at(&self, h: u64, line: usize) -> Option<u32> {
        match self.find(self.line(line), h) {
            Ok(value) => Some(value),
            Err(true) => self.overflow.get(compact_unhash(h)).map(|v| v.value()),
            Err(false) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::tier::table::slot;

    /// A table of `n` keys with values `value(i)`.
    fn table(n: u64, value: impl Fn(u64) -> u32) -> TierTable {
        let entries: Vec<u64> = (0..n)
            .map(|i| {
                slot(
                    (i + 1).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 13 | 1,
                    value(i),
                )
            })
            .collect();
        TierTable::from_slot_words(entries).expect("distinct keys")
    }

    /// Every key of the table reads back its value from the lines, by the
    /// worker's three calls and by `value`.
    fn reads_back<B: AsRef<[u8]> + Sync>(lines: &LineTier<B>, table: &TierTable) {
        assert_eq!(TierValues::positions(lines), table.positions());
        for (key, value) in table.iter() {
            let h = lines.probe_key(key);
            lines.prefetch_key(h);
            let at = lines.locate(h);
            lines.prefetch(at);
            assert_eq!(lines.value_at(h, at), Some(value.value()), "key {key:#x}");
            assert_eq!(TierValues::value(lines, key), Some(value.value()));
        }
    }

    #[test]
    fn every_key_reads_back_its_value() {
        for (n, modulo) in [(1, 2), (1000, 64), (200_000, 36), (50_000, 4096), (3000, 1)] {
            let table = table(n, |i| (i * 7 % modulo) as u32);
            let lines = LineTier::build_until(&table, &|| false).expect("built");
            reads_back(&lines, &table);
            // About 3% of the keys in the second level, at the capacity
            // for the values (none at all for one key).
            assert!(
                lines.overflowed() * 10 <= n,
                "{} of {n}",
                lines.overflowed()
            );
        }
    }

    /// Lines filled over their capacity: many keys go to the second
    /// level; every key still reads back its value.
    #[test]
    fn overfull_lines_keep_every_value() {
        let table = table(20_000, |i| (i % 50) as u32);
        let lines = LineTier::build_with(&table, 6, 8, 10, &|| false).expect("built");
        assert!(lines.overflowed() > 1000, "{}", lines.overflowed());
        reads_back(&lines, &table);
    }

    /// Lines of about 300 keys: no seed gives 300 keys distinct
    /// fingerprints of 8 bits, so those lines keep none and every key is
    /// read from the second level.
    #[test]
    fn lines_no_seed_separates_send_every_key_to_the_second_level() {
        let table = table(20_000, |i| (i % 50) as u32);
        let lines = LineTier::build_with(&table, 6, 35, 300, &|| false).expect("built");
        assert_eq!(lines.overflowed(), 20_000);
        reads_back(&lines, &table);
    }

    #[test]
    fn a_stop_asked_for_stops_the_build() {
        let table = table(1000, |i| i as u32 % 8);
        assert_eq!(
            LineTier::build_until(&table, &|| true).err(),
            Some(CompactError::Stopped)
        );
    }

    #[test]
    fn the_bytes_are_those_of_the_keys_and_values_only() {
        let table = table(100_000, |i| (i % 30) as u32);
        let a = LineTier::build_until(&table, &|| false).expect("built");
        let b = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool")
            .install(|| LineTier::build_until(&table, &|| false).expect("built"));
        assert_eq!(a.bytes, b.bytes);
        assert_eq!(a.overflow.slots(), b.overflow.slots());
    }

    #[test]
    fn copied_lines_read_the_same() {
        let table = table(10_000, |i| (i % 9) as u32);
        let lines = LineTier::build_until(&table, &|| false).expect("built");
        let copied = lines
            .with_bytes(|b| Ok::<_, CompactError>(b.to_vec().into_boxed_slice()))
            .expect("copied");
        reads_back(&copied, &table);
    }

    proptest! {
        /// Any set of keys and values, at any line load (the usual one, or
        /// lines overfull or without a separating seed): the lines answer
        /// every key with the table's value.
        #[test]
        fn lines_answer_as_the_table(
            keys in proptest::collection::btree_set(1u64..(1 << 52), 1..3000),
            values in proptest::collection::vec(0u32..4096, 3000),
            per_line in prop_oneof![Just(0u64), 1u64..400],
        ) {
            let entries: Vec<u64> = keys.iter().zip(&values).map(|(&k, &v)| slot(k, v)).collect();
            let table = TierTable::from_slot_words(entries).expect("distinct keys");
            let lines = if per_line == 0 {
                LineTier::build_until(&table, &|| false)
            } else {
                let bits = u32::BITS - table.max_value().leading_zeros();
                let bits = bits.max(1);
                LineTier::build_with(&table, bits, capacity_for(bits), per_line, &|| false)
            }
            .expect("built");
            for (key, value) in table.iter() {
                prop_assert_eq!(TierValues::value(&lines, key), Some(value.value()));
            }
        }
    }
}
