//! A solved tier in at most 2 bytes a position: a minimal-size perfect hash
//! of the tier's keys and, in the slot it gives each key, the key's value
//! and a few fingerprint bits. Keys are not stored. Read in place from any
//! `&[u8]` (a memory map, an embedded array, a `Vec`): opening checks a
//! 64-byte header and lengths, nothing is copied or decoded.
//!
//! **Layout** (little-endian). A 64-byte header (positions, parts, slots,
//! value bits, fingerprint bits, largest value), then one 64-byte record per
//! part, then the entries: `slots` fields of `value_bits + fp_bits` bits,
//! packed from bit 0, then 8 zero bytes (so a field is read with one
//! unaligned 8-byte load). A record is the part's first slot (`u32`), its
//! key count (`u16`), its seed byte (`u8`: the seed, and [`WIDE`] for a
//! wide part) and [`BUCKETS`] pilots (`u8`).
//!
//! **Algorithm** (PTHash's hash-and-displace with PtrHash's eviction,
//! split into small parts). A key's hash picks its part (about
//! [`PART_KEYS`] keys each) and one of the part's [`BUCKETS`] buckets
//! (about 3 keys each). A part of `m` keys owns `slots_for(m)` slots (3%
//! slack), or `wide_slots_for(m)` (25%) when it is wide. Buckets are
//! placed largest first, each with the 8-bit pilot that
//! sends all its keys to distinct slots evicting the least (sum of the
//! squared sizes of the buckets already there, which go back in the
//! queue); with u8 pilots, PTHash's plain search fails at this load and
//! eviction is what PtrHash found to make it work. A part that evicts too
//! often starts over with the next seed (about 1 in 100 parts). A part far
//! larger than the average can fail every seed at 3% slack (4 x 9 and
//! 6 x 6, with hundreds of thousands of parts a tier, hold such parts, of
//! 4 standard deviations over the mean); it is then built wide, with 25%
//! slack, which places it at the first seed or so. Parts are
//! independent, so they are built in parallel and the bytes depend only on
//! the keys and values, never on the threads. A lookup reads the record
//! (one cache line) and the entry (a second line); the tier worker
//! prefetches the records of all of a position's options first
//! ([`TierValues::prefetch_key`]), then locates each key and prefetches its
//! entry ([`TierValues::prefetch`]), so the misses overlap.
//!
//! **Cost.** 512 bits of record a part of ~171 keys (3 bits a key) plus
//! `1.03 × (value_bits + fp_bits)` bits a key, with `value_bits +
//! fp_bits` = [`ENTRY_BITS`] (12) whenever the values fit: 15.4 bits a
//! shape, under 2 bytes (measured on 10^6 keys by the tests). A tier's
//! largest value decides how many of the 12 bits the value takes (6 for
//! values up to 63, leaving 6 fingerprint bits).
//!
//! **Why it is correct.** Construction checks that every key of a part
//! gets its own slot, so a key of the tier reads back exactly its value. A
//! key *not* in the tier also lands in some slot; its fingerprint (bits of
//! its hash that choose neither its part, its bucket nor its slot) then
//! matches with probability
//! `2^-fp_bits` (1/64 for 6 bits), and otherwise the lookup answers
//! `None`. Callers must therefore refuse keys that cannot be in the tier
//! before asking (a shape outside the box); damage to the bytes is for a
//! checksum around them to catch (the database file has one a section).
//!
//! **Why hand-written.** The well-kept crates (`ptr_hash`, `boomphf`) give
//! the hash function only: values, fingerprints and the checked in-place
//! layout would be ours anyway. `boomphf` needs ~3.7 bits a key and several
//! dependent cache misses a lookup, and deserialises on open; `ptr_hash`'s
//! zero-copy form (epserde) trusts the bytes' layout (it maps structures by
//! their in-memory layout), which a file format read from untrusted input
//! must not, and brings a dozen dependencies. Here every read is bounds
//! checked on safe slices and the parameters are fixed by the format.

use rayon::prelude::*;

use super::hash::{compact_hash, fastrange, pilot_hash, pilot_slot};
use super::table::{slot_key, slot_value, Entry};
use super::values::TierValues;
use super::TierTable;
use crate::Nimber;

/// Bytes of the header.
pub const HEADER_LEN: usize = 64;
/// Bytes of a part's record.
pub const RECORD_LEN: usize = 64;
/// Buckets (pilots) of a part.
pub const BUCKETS: usize = RECORD_LEN - 7;
/// Keys a part holds on average.
pub const PART_KEYS: u64 = 171;
/// Bits of an entry (value and fingerprint) when the values fit in them.
pub const ENTRY_BITS: u32 = 12;
/// Spare slots of a part, in percent of its keys.
pub const SLACK_PERCENT: u64 = 3;
/// Zero bytes after the entries.
const PAD: usize = 8;

/// Why a compact tier cannot be built or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompactError {
    /// The bytes are not a compact tier this code wrote.
    #[error("compact tier: {what}")]
    Layout {
        /// What is wrong.
        what: String,
    },
    /// The tier is too large for the format (over 2^32 slots).
    #[error("compact tier: {positions} positions exceed the format's 2^32 slots")]
    TooLarge {
        /// Positions of the tier.
        positions: u64,
    },
    /// No seed placed a part, even wide (never seen: a wide part's load is
    /// 0.8, where the first seed or so succeeds).
    #[error("compact tier: part {part} found no perfect hash")]
    Unplaceable {
        /// The part.
        part: u64,
    },
    /// The caller's stop check asked the build to stop (a budget or a
    /// cancellation); nothing was built.
    #[error("compact tier: build stopped")]
    Stopped,
}

fn layout(what: impl Into<String>) -> CompactError {
    CompactError::Layout { what: what.into() }
}

/// Parts of a tier of `positions` keys.
#[must_use]
pub const fn parts_for(positions: u64) -> u64 {
    positions.div_ceil(PART_KEYS)
}

/// Slots of a part of `keys` keys: 3% slack (rounded up).
#[inline]
#[must_use]
pub const fn slots_for(keys: u64) -> u64 {
    keys + (keys * SLACK_PERCENT).div_ceil(100)
}

/// Spare slots of a *wide* part, in percent of its keys.
pub const WIDE_SLACK_PERCENT: u64 = 25;
/// The bit of a record's seed byte that marks a wide part.
pub const WIDE: u8 = 0x80;

/// Slots of a wide part of `keys` keys: 25% slack (rounded up).
#[inline]
#[must_use]
pub const fn wide_slots_for(keys: u64) -> u64 {
    keys + (keys * WIDE_SLACK_PERCENT).div_ceil(100)
}

/// Slots of a part of `keys` keys whose record's seed byte is `seed`: a
/// wide part ([`WIDE`] set) has [`wide_slots_for`], any other
/// [`slots_for`].
#[inline]
#[must_use]
pub const fn part_slots(keys: u64, seed: u8) -> u64 {
    if seed & WIDE != 0 {
        wide_slots_for(keys)
    } else {
        slots_for(keys)
    }
}

/// The part and bucket of a key.
#[inline]
fn place(key: u64, parts: u64) -> (u64, usize) {
    place_hashed(compact_hash(key), parts)
}

/// [`place`] of a key hashed by [`compact_hash`]: the part from the high bits,
/// the bucket from bits 0 to 31.
#[inline]
fn place_hashed(h: u64, parts: u64) -> (u64, usize) {
    let part = fastrange(h, parts);
    let bucket = ((h & 0xFFFF_FFFF) * BUCKETS as u64) >> 32;
    (part, bucket as usize)
}

/// The fingerprint of `key` (hashed: `h`) in `bits` bits: bits 32 and up
/// of `h`, which pick neither the bucket (bits 0 to 31) nor, below the top
/// `log2(parts)` bits, the part.
#[inline]
fn fingerprint(h: u64, bits: u32) -> u64 {
    (h >> 32) & ((1u64 << bits) - 1)
}

/// Bits of a value field for values up to `max_value`.
const fn value_bits_for(max_value: u32) -> u32 {
    32 - max_value.leading_zeros()
}

/// A solved tier in compact form, read in place from `B`'s bytes.
#[derive(Clone, Debug)]
pub struct CompactTier<B = Vec<u8>> {
    bytes: B,
    positions: u64,
    parts: u64,
    slots: u64,
    value_bits: u32,
    fp_bits: u32,
    max_value: u32,
    entries_at: usize,
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The byte length of a compact tier with these counts, or `None` when it
/// does not fit a `usize`.
fn byte_len(parts: u64, slots: u64, entry_bits: u32) -> Option<usize> {
    let records = parts.checked_mul(RECORD_LEN as u64)?;
    let entries = slots.checked_mul(u64::from(entry_bits))?.div_ceil(8);
    let total = (HEADER_LEN as u64)
        .checked_add(records)?
        .checked_add(entries)?
        .checked_add(PAD as u64)?;
    usize::try_from(total).ok()
}

impl CompactTier<Vec<u8>> {
    /// The bytes of a compact tier of `positions` positions whose parts all
    /// place at the usual slack and whose values fit [`ENTRY_BITS`] (the case
    /// of every tier built so far), for a size estimate before a build: about
    /// 1.92 bytes a position.
    #[must_use]
    pub fn estimated_len(positions: u64) -> u64 {
        let parts = parts_for(positions);
        // Each part rounds its slack up: at most one slot more a part.
        let slots = slots_for(positions).saturating_add(parts);
        byte_len(parts, slots, ENTRY_BITS).map_or(u64::MAX, |len| len as u64)
    }

    /// The compact form of a solved table: its bytes, the same for the same
    /// keys and values whatever the number of threads.
    ///
    /// # Errors
    ///
    /// [`CompactError::TooLarge`] past 2^32 slots; [`CompactError::Unplaceable`]
    /// if a part finds no perfect hash, even wide (never observed).
    pub fn build<S: AsRef<[u64]> + Sync>(table: &TierTable<S>) -> Result<Vec<u8>, CompactError> {
        CompactTier::build_until(table, &|| false)
    }

    /// As [`CompactTier::build`], asking `stop` between parts whether to
    /// give up: a tier of 3 x 10^8 positions takes about a minute of 2
    /// cores, which a time budget must not overrun.
    ///
    /// # Errors
    ///
    /// As [`CompactTier::build`], and [`CompactError::Stopped`] once `stop`
    /// answers `true`.
    pub fn build_until<S: AsRef<[u64]> + Sync>(
        table: &TierTable<S>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Vec<u8>, CompactError> {
        // The table's slots as they are (empty ones skipped below): no
        // copy of the entries, at the build's peak of memory.
        CompactTier::build_entries_until(table.slots(), stop)
    }

    /// As [`CompactTier::build`], from entries (distinct keys, any order).
    ///
    /// # Errors
    ///
    /// As [`CompactTier::build`].
    pub fn build_from_entries(entries: &[Entry]) -> Result<Vec<u8>, CompactError> {
        let words: Vec<u64> = entries.iter().map(|e| e.word()).collect();
        CompactTier::build_entries_until(&words, &|| false)
    }

    fn build_entries_until(
        entries: &[u64],
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Vec<u8>, CompactError> {
        let held = |e: &&u64| slot_key(**e) != 0;
        let positions = entries.par_iter().filter(held).count() as u64;
        let parts = parts_for(positions);
        let max_value = entries
            .par_iter()
            .filter(held)
            .map(|&e| slot_value(e))
            .max()
            .unwrap_or(0);
        let value_bits = value_bits_for(max_value);
        let fp_bits = ENTRY_BITS.saturating_sub(value_bits);
        let entry_bits = value_bits + fp_bits;
        // Keys per part, counted first: the slots, and so every byte's
        // place, are known before any part is built.
        let part_of = |e: u64| place(slot_key(e), parts).0 as usize;
        let counts: Vec<u32> = entries
            .par_chunks(1 << 16)
            .fold(
                || vec![0u32; parts as usize],
                |mut counts, chunk| {
                    for &e in chunk.iter().filter(|e| slot_key(**e) != 0) {
                        counts[part_of(e)] += 1;
                    }
                    counts
                },
            )
            .reduce(
                || vec![0u32; parts as usize],
                |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        // Parts are built a batch at a time (a part is a range of hashes,
        // so a batch is one too): only a batch's entries are copied out of
        // `entries`, an eighth of them on large tiers, which keeps the
        // build's peak of memory near the table's own size (a copy of
        // every entry cost 8 bytes a position, and their parts 4 more).
        // The fields built (2 bytes a position) are laid out at the end,
        // when every part's slots are known (a wide part has more).
        let batches = if positions > 1 << 20 { 8 } else { 1 };
        let per_batch = (parts as usize).div_ceil(batches).max(1);
        let mut built: Vec<([u8; RECORD_LEN], Vec<u16>)> = Vec::with_capacity(parts as usize);
        for first in (0..parts as usize).step_by(per_batch) {
            if stop() {
                return Err(CompactError::Stopped);
            }
            let last = (first + per_batch).min(parts as usize);
            let mut bounds = vec![0usize; last - first + 1];
            for p in first..last {
                bounds[p - first + 1] = bounds[p - first] + counts[p] as usize;
            }
            // The batch's entries by part (a counting sort; the order
            // within a part does not change what is built).
            let batch: Vec<u64> = entries
                .par_iter()
                .copied()
                .filter(|&e| slot_key(e) != 0 && (first..last).contains(&part_of(e)))
                .collect();
            let mut by_part = vec![0u64; bounds[last - first]];
            let mut next = bounds.clone();
            for &e in &batch {
                let p = part_of(e) - first;
                by_part[next[p]] = e;
                next[p] += 1;
            }
            drop(batch);
            let done: Vec<([u8; RECORD_LEN], Vec<u16>)> = (first..last)
                .into_par_iter()
                .map(|part| {
                    // A part takes some 50 µs; the check, well under 1.
                    if stop() {
                        return Err(CompactError::Stopped);
                    }
                    let i = part - first;
                    build_part(
                        &by_part[bounds[i]..bounds[i + 1]],
                        parts,
                        value_bits,
                        fp_bits,
                    )
                    .ok_or(CompactError::Unplaceable { part: part as u64 })
                })
                .collect::<Result<_, _>>()?;
            built.extend(done);
        }
        let slots: u64 = built.iter().map(|(_, f)| f.len() as u64).sum();
        if slots > u64::from(u32::MAX) {
            return Err(CompactError::TooLarge { positions });
        }
        let len = byte_len(parts, slots, entry_bits).ok_or(CompactError::TooLarge { positions })?;
        let mut bytes = vec![0u8; len];
        bytes[0..8].copy_from_slice(&positions.to_le_bytes());
        bytes[8..16].copy_from_slice(&parts.to_le_bytes());
        bytes[16..24].copy_from_slice(&slots.to_le_bytes());
        bytes[24] = value_bits as u8;
        bytes[25] = fp_bits as u8;
        bytes[32..36].copy_from_slice(&max_value.to_le_bytes());
        let entries_at = HEADER_LEN + parts as usize * RECORD_LEN;
        let mut start = 0u64;
        for (part, (record, fields)) in built.iter().enumerate() {
            let at = HEADER_LEN + part * RECORD_LEN;
            bytes[at..at + RECORD_LEN].copy_from_slice(record);
            bytes[at..at + 4].copy_from_slice(&(start as u32).to_le_bytes());
            for (j, &field) in fields.iter().enumerate() {
                let bit = (start + j as u64) * u64::from(entry_bits);
                let byte = entries_at + (bit / 8) as usize;
                let word = u32::from(field) << (bit % 8);
                for (k, b) in word.to_le_bytes().iter().enumerate().take(3) {
                    bytes[byte + k] |= b;
                }
            }
            start += fields.len() as u64;
        }
        Ok(bytes)
    }
}

/// One part's record (its first slot left 0) and its slots' fields, or
/// `None` when no seed places it.
fn build_part(
    entries: &[u64],
    parts: u64,
    value_bits: u32,
    fp_bits: u32,
) -> Option<([u8; RECORD_LEN], Vec<u16>)> {
    let m = entries.len() as u64;
    // The entries by bucket (a counting sort): bucket `b` is
    // `sorted[starts[b]..starts[b + 1]]`.
    let mut starts = [0usize; BUCKETS + 1];
    for &e in entries {
        starts[place(slot_key(e), parts).1 + 1] += 1;
    }
    for b in 0..BUCKETS {
        starts[b + 1] += starts[b];
    }
    let mut sorted = vec![0u64; entries.len()];
    let mut next = starts;
    for &e in entries {
        let b = place(slot_key(e), parts).1;
        sorted[next[b]] = e;
        next[b] += 1;
    }
    // Each key hashed once: the pilot search below hashes them 256 times.
    let hashed: Vec<u64> = sorted.iter().map(|&e| compact_hash(slot_key(e))).collect();
    let buckets: Vec<&[u64]> = (0..BUCKETS)
        .map(|b| &hashed[starts[b]..starts[b + 1]])
        .collect();
    let order: Vec<usize> = (0..BUCKETS).filter(|&b| !buckets[b].is_empty()).collect();
    // Slot -> the bucket placed there, NONE when free.
    let mut owner: Vec<u8> = Vec::new();
    let mut fields: Vec<u16> = Vec::new();
    let mut pilots = [0u8; BUCKETS];
    // Squared bucket sizes: what evicting each bucket costs.
    let mut sizes = [0usize; BUCKETS];
    for (size, bucket) in sizes.iter_mut().zip(&buckets) {
        *size = bucket.len().pow(2);
    }
    let mut taken = Taken::default();
    // Seeds 0 to 127 with 3% spare slots place almost every part; a part
    // far above the average size (4 x 9 holds parts of 226 keys, 4
    // standard deviations over 171) can exhaust them all, and is then
    // placed as a wide part, with 25% spare slots ([`WIDE`] in its seed
    // byte tells the reader).
    for wide in [0, WIDE] {
        let slots = part_slots(m, wide);
        owner.clear();
        owner.resize(slots as usize, NONE);
        taken.marks.clear();
        taken.marks.resize(slots as usize, 0);
        fields.clear();
        fields.resize(slots as usize, 0);
        'seed: for seed in (0..WIDE).map(|seed| seed | wide) {
            let pilot_hashes: [u64; 256] = std::array::from_fn(|p| pilot_hash(seed, p as u8));
            // The buckets a pilot would evict are a mask of `u64`.
            const _: () = assert!(BUCKETS <= 64);
            owner.fill(NONE);
            pilots.fill(0);
            // Largest bucket first (then the lowest index): a max-heap.
            let mut queue: std::collections::BinaryHeap<(usize, std::cmp::Reverse<usize>)> = order
                .iter()
                .map(|&b| (buckets[b].len(), std::cmp::Reverse(b)))
                .collect();
            let mut evictions = 0usize;
            while let Some((_, std::cmp::Reverse(b))) = queue.pop() {
                // The pilot evicting the least (sum of the squared sizes of
                // the buckets it displaces; 0 when its slots are free), among
                // those giving the bucket's keys distinct slots.
                let first = (evictions * 97 % 256) as u8;
                let best = best_pilot(
                    buckets[b],
                    &pilot_hashes,
                    first,
                    slots,
                    &owner,
                    &sizes,
                    &mut taken,
                );
                let Some((cost, pilot)) = best else {
                    continue 'seed;
                };
                if cost > 0 {
                    evictions += 1;
                    if evictions > 64 * BUCKETS {
                        continue 'seed;
                    }
                }
                let ph = pilot_hash(seed, pilot);
                for &h in buckets[b] {
                    let s = pilot_slot(h, ph, slots) as usize;
                    let o = owner[s];
                    if o != NONE {
                        // Evict bucket `o` whole.
                        let oph = pilot_hash(seed, pilots[o as usize]);
                        for &oh in buckets[o as usize] {
                            owner[pilot_slot(oh, oph, slots) as usize] = NONE;
                        }
                        queue.push((buckets[o as usize].len(), std::cmp::Reverse(o as usize)));
                    }
                    owner[s] = b as u8;
                }
                pilots[b] = pilot;
            }
            fields.fill(0);
            for &b in &order {
                let ph = pilot_hash(seed, pilots[b]);
                for (&h, &e) in buckets[b].iter().zip(&sorted[starts[b]..starts[b + 1]]) {
                    let s = pilot_slot(h, ph, slots) as usize;
                    let fp = fingerprint(h, fp_bits);
                    fields[s] = (u64::from(slot_value(e)) | fp << value_bits) as u16;
                }
            }
            let mut record = [0u8; RECORD_LEN];
            record[4..6].copy_from_slice(&(m as u16).to_le_bytes());
            record[6] = seed;
            record[7..].copy_from_slice(&pilots);
            return Some((record, fields));
        }
    }
    None
}

/// A free slot in a part being built (buckets are numbered below
/// [`BUCKETS`]).
const NONE: u8 = u8::MAX;

/// The slots a pilot gives a bucket's keys, marked with the number of
/// the pilot tried (`tick`), so that a clash within the bucket is one
/// load: no list of the slots taken so far to search.
#[derive(Default)]
struct Taken {
    marks: Vec<u32>,
    tick: u32,
}

impl Taken {
    /// A fresh mark for the next pilot tried.
    #[inline]
    fn next(&mut self) -> u32 {
        if self.tick == u32::MAX {
            self.marks.fill(0);
            self.tick = 0;
        }
        self.tick += 1;
        self.tick
    }
}

/// The pilot that places the keys (hashed) of one bucket at the least cost
/// (the sum of the squared sizes of the buckets it evicts, each once),
/// among those that send them to distinct slots; the first such pilot in
/// the order `first`, `first + 1`, ... (wrapping) among equal costs; the
/// scan stops at a pilot of cost 0. `None` when every pilot clashes.
///
/// Each pilot's keys are taken in one pass, and the pilot dropped at its
/// first clash or as soon as its cost reaches the best so far (only a lower
/// cost replaces the best, so the pilot chosen is the one full counts would
/// choose): after the first eviction the other pilots mostly stop at their
/// first key. Written as a loop over the keys with nothing kept but the
/// cost, the evicted buckets and the marks of the slots taken: the earlier
/// form kept a list of the bucket's slots to search, and the search's setup
/// took a fifth of the compact build (`perf annotate`, 5 x 6).
#[inline]
fn best_pilot(
    keys: &[u64],
    pilot_hashes: &[u64; 256],
    first: u8,
    slots: u64,
    owner: &[u8],
    sizes: &[usize; BUCKETS],
    taken: &mut Taken,
) -> Option<(usize, u8)> {
    let mut best_cost = usize::MAX;
    let mut best = None;
    'pilot: for step in 0..=u8::MAX {
        let pilot = first.wrapping_add(step);
        let ph = pilot_hashes[pilot as usize];
        let tick = taken.next();
        let mut cost = 0usize;
        let mut evicted = 0u64;
        for &h in keys {
            let s = pilot_slot(h, ph, slots) as usize;
            if taken.marks[s] == tick {
                continue 'pilot;
            }
            taken.marks[s] = tick;
            let o = owner[s];
            if o != NONE && evicted >> o & 1 == 0 {
                evicted |= 1 << o;
                cost += sizes[o as usize];
                if cost >= best_cost {
                    continue 'pilot;
                }
            }
        }
        best_cost = cost;
        best = Some((cost, pilot));
        if cost == 0 {
            break;
        }
    }
    best
}

impl CompactTier<Vec<u8>> {
    /// The fewest bytes of a compact tier (its header and padding).
    #[must_use]
    pub const fn min_len() -> usize {
        HEADER_LEN + PAD
    }

    /// The most bytes a compact tier of `positions` keys takes, whatever
    /// its values (`None` past the format's range): a bound a file's
    /// directory is checked against before its bytes are read.
    #[must_use]
    pub fn max_len(positions: u64) -> Option<u64> {
        let parts = parts_for(positions);
        let slots = wide_slots_for(positions).checked_add(parts)?;
        let entry_bits = ENTRY_BITS.max(value_bits_for(super::MAX_VALUE));
        byte_len(parts, slots, entry_bits).map(|l| l as u64)
    }
}

impl<B: AsRef<[u8]>> CompactTier<B> {
    /// A compact tier over `bytes` as [`CompactTier::build`] wrote them.
    /// Checks the header and the length (constant time); [`CompactTier::check`]
    /// checks the records too.
    ///
    /// # Errors
    ///
    /// [`CompactError::Layout`] naming what does not fit.
    pub fn from_bytes(bytes: B) -> Result<CompactTier<B>, CompactError> {
        let b = bytes.as_ref();
        if b.len() < HEADER_LEN {
            return Err(layout(format!(
                "{} bytes, shorter than the header",
                b.len()
            )));
        }
        let positions = u64_at(b, 0);
        let parts = u64_at(b, 8);
        let slots = u64_at(b, 16);
        let value_bits = u32::from(b[24]);
        let fp_bits = u32::from(b[25]);
        let max_value = u32_at(b, 32);
        if b[26..32].iter().chain(&b[36..HEADER_LEN]).any(|&x| x != 0) {
            return Err(layout("non-zero bytes in the header's unused space"));
        }
        if parts != parts_for(positions) {
            return Err(layout(format!("{parts} parts for {positions} positions")));
        }
        if slots < positions
            || slots > wide_slots_for(positions) + parts
            || slots > u64::from(u32::MAX)
        {
            return Err(layout(format!("{slots} slots for {positions} positions")));
        }
        if max_value > super::MAX_VALUE
            || value_bits != value_bits_for(max_value)
            || fp_bits != ENTRY_BITS.saturating_sub(value_bits)
        {
            return Err(layout(format!(
                "largest value {max_value} in {value_bits} bits with {fp_bits} fingerprint bits"
            )));
        }
        let entry_bits = value_bits + fp_bits;
        let expected = byte_len(parts, slots, entry_bits)
            .ok_or_else(|| layout(format!("{parts} parts and {slots} slots")))?;
        if b.len() != expected {
            return Err(layout(format!(
                "{} bytes, the counts need {expected}",
                b.len()
            )));
        }
        if b[expected - PAD..].iter().any(|&x| x != 0) {
            return Err(layout("non-zero bytes after the entries"));
        }
        Ok(CompactTier {
            entries_at: HEADER_LEN + parts as usize * RECORD_LEN,
            bytes,
            positions,
            parts,
            slots,
            value_bits,
            fp_bits,
            max_value,
        })
    }

    /// Checks the records: each part starts where the one before ends, and
    /// the parts' keys and slots add up to the header's counts. One pass
    /// over the records (1/128 of the bytes).
    ///
    /// # Errors
    ///
    /// [`CompactError::Layout`] naming the first part out of place.
    pub fn check(&self) -> Result<(), CompactError> {
        let b = self.bytes.as_ref();
        let (mut start, mut keys) = (0u64, 0u64);
        for part in 0..self.parts as usize {
            let at = HEADER_LEN + part * RECORD_LEN;
            let count = u64::from(u16::from_le_bytes([b[at + 4], b[at + 5]]));
            if u64::from(u32_at(b, at)) != start {
                return Err(layout(format!("part {part} starts at the wrong slot")));
            }
            start += part_slots(count, b[at + 6]);
            keys += count;
        }
        if start != self.slots || keys != self.positions {
            return Err(layout(format!(
                "the parts hold {keys} keys in {start} slots, the header says {} in {}",
                self.positions, self.slots
            )));
        }
        Ok(())
    }

    /// Positions (keys) of the tier.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The largest value of the tier.
    #[must_use]
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// Fingerprint bits a key.
    #[must_use]
    pub fn fingerprint_bits(&self) -> u32 {
        self.fp_bits
    }

    /// The bytes, as written.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The bytes it reads, given back (to be held elsewhere).
    #[must_use]
    pub fn into_bytes(self) -> B {
        self.bytes
    }

    /// The value of `key` when the tier may hold it: exact for a key of the
    /// tier; for another key `None` except with probability
    /// `2^-fingerprint_bits`.
    #[inline]
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Nimber> {
        self.lookup(key).map(Nimber::new)
    }

    /// The slot of a key hashed by [`compact_hash`] (`h`), read from its
    /// part's record; `None` when its part is empty or the record points
    /// outside the entries.
    #[inline]
    fn slot_of_hashed(&self, h: u64) -> Option<u64> {
        let b = self.bytes.as_ref();
        let (part, bucket) = place_hashed(h, self.parts);
        let at = HEADER_LEN.checked_add(usize::try_from(part).ok()?.checked_mul(RECORD_LEN)?)?;
        if at >= self.entries_at {
            return None;
        }
        let record = b.get(at..at + RECORD_LEN)?;
        let start = u64::from(u32::from_le_bytes(record[0..4].try_into().ok()?));
        let count = u64::from(u16::from_le_bytes([record[4], record[5]]));
        if count == 0 {
            return None;
        }
        let ph = pilot_hash(record[6], record[7 + bucket]);
        Some(start + pilot_slot(h, ph, part_slots(count, record[6])))
    }

    /// The byte at which slot `slot`'s field starts, and its bit shift.
    #[inline]
    fn field_at(&self, slot: u64) -> Option<(usize, u64)> {
        let bit = slot.checked_mul(u64::from(self.value_bits + self.fp_bits))?;
        let byte = self
            .entries_at
            .checked_add(usize::try_from(bit / 8).ok()?)?;
        Some((byte, bit % 8))
    }

    /// The 8 bytes from `byte` (0 past the end).
    #[inline]
    fn word_at(&self, byte: usize) -> u64 {
        self.bytes
            .as_ref()
            .get(byte..byte.saturating_add(8))
            .map_or(0, |w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
    }

    /// The value in slot `slot` if its fingerprint is that of the key
    /// hashed `h`.
    #[inline]
    fn read_hashed(&self, h: u64, slot: u64) -> Option<u32> {
        let (byte, shift) = self.field_at(slot)?;
        if byte.checked_add(8)? > self.bytes.as_ref().len() {
            return None;
        }
        let entry_bits = self.value_bits + self.fp_bits;
        let field = (self.word_at(byte) >> shift) & ((1u64 << entry_bits) - 1);
        if field >> self.value_bits != fingerprint(h, self.fp_bits) {
            return None;
        }
        Some((field & ((1u64 << self.value_bits) - 1)) as u32)
    }

    #[inline]
    fn lookup(&self, key: u64) -> Option<u32> {
        let h = compact_hash(key);
        self.read_hashed(h, self.slot_of_hashed(h)?)
    }
}

impl<B: AsRef<[u8]> + Sync> CompactTier<B> {
    /// How many positions hold each value (the index), read from the
    /// entries alone, with no key: empty slots hold 0 (value 0 and
    /// fingerprint 0) and there are `slots - positions` of them, taken off
    /// the count of 0. Trailing zeros are trimmed. One pass over the
    /// entries, on rayon's threads.
    #[must_use]
    pub fn value_counts(&self) -> Vec<u64> {
        const CHUNK: u64 = 1 << 16;
        let mask = (1u64 << self.value_bits) - 1;
        let size = 1usize << self.value_bits;
        let mut counts = (0..self.slots.div_ceil(CHUNK))
            .into_par_iter()
            .fold(
                || vec![0u64; size],
                |mut counts, chunk| {
                    for slot in chunk * CHUNK..((chunk + 1) * CHUNK).min(self.slots) {
                        if let Some((byte, shift)) = self.field_at(slot) {
                            counts[((self.word_at(byte) >> shift) & mask) as usize] += 1;
                        }
                    }
                    counts
                },
            )
            .reduce(
                || vec![0u64; size],
                |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        counts[0] = counts[0].saturating_sub(self.slots - self.positions);
        let used = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        counts.truncate(used);
        counts
    }
}

/// A location ([`TierValues::locate`]) is the key's slot, found through its
/// part's record: the worker prefetches every key's record first
/// ([`TierValues::prefetch_key`]), then locates each key and prefetches its
/// entry ([`TierValues::prefetch`]), and [`TierValues::value_at`] finds it
/// in cache.
impl<B: AsRef<[u8]> + Sync> TierValues for CompactTier<B> {
    fn positions(&self) -> u64 {
        self.positions
    }

    /// A compact tier probes with the key's hash ([`compact_hash`]), made once.
    #[inline]
    fn probe_key(&self, key: u64) -> u64 {
        compact_hash(key)
    }

    #[inline]
    fn prefetch_key(&self, h: u64) {
        let (part, _) = place_hashed(h, self.parts);
        let at = HEADER_LEN.saturating_add((part as usize).saturating_mul(RECORD_LEN));
        crate::prefetch::prefetch_in(self.bytes.as_ref(), at);
    }

    #[inline]
    fn locate(&self, h: u64) -> usize {
        self.slot_of_hashed(h)
            .and_then(|slot| usize::try_from(slot).ok())
            .unwrap_or(usize::MAX)
    }

    #[inline]
    fn prefetch(&self, at: usize) {
        if let Some((byte, _)) = self.field_at(at as u64) {
            crate::prefetch::prefetch_in(self.bytes.as_ref(), byte);
        }
    }

    #[inline]
    fn value_at(&self, h: u64, at: usize) -> Option<u32> {
        if at == usize::MAX {
            return None;
        }
        self.read_hashed(h, at as u64)
    }

    fn value(&self, key: u64) -> Option<u32> {
        self.lookup(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::table::slot;

    /// A part of 226 keys of the 4 x 9 box's tier of 19 cells (about 4
    /// standard deviations over the average part), which no seed places in
    /// 3% spare slots: it is placed as a wide part, and every key reads
    /// back its value in its own slot, as the reader finds it.
    #[test]
    fn a_part_far_above_the_average_size_is_placed() {
        let keys: Vec<u64> = include_str!("compact_part_4x9.txt")
            .split_whitespace()
            .map(|k| k.parse().unwrap())
            .collect();
        assert_eq!(keys.len(), 226);
        let entries: Vec<u64> = keys.iter().map(|&k| slot(k, (k % 36) as u32)).collect();
        let (value_bits, fp_bits) = (6, 6);
        let (record, fields) = build_part(&entries, 1, value_bits, fp_bits).expect("placed");
        let (seed, pilots) = (record[6], &record[7..]);
        assert_eq!(seed & WIDE, WIDE);
        assert_eq!(fields.len() as u64, part_slots(226, seed));
        assert_eq!(fields.len() as u64, wide_slots_for(226));
        let mut seen = vec![false; fields.len()];
        for &k in &keys {
            let h = compact_hash(k);
            let bucket = place_hashed(h, 1).1;
            let s = pilot_slot(h, pilot_hash(seed, pilots[bucket]), fields.len() as u64) as usize;
            assert!(!seen[s], "two keys in slot {s}");
            seen[s] = true;
            let field = u64::from(fields[s]);
            assert_eq!(field & 63, k % 36);
            assert_eq!(field >> 6, fingerprint(h, fp_bits));
        }
    }
}
