//! The hashes of the tier engine, each named for its one use and written
//! once. Three of them fix file layouts (a [`TierTable`](super::TierTable)'s
//! slot order, a compact tier's parts, buckets and slots), so each is
//! exactly the function the published databases were written with: changing
//! one changes their bytes.
//!
//! **Seeds.** The SplitMix64 finaliser serves two uses, each through its
//! own named seed ([`OWNER_SEED`], [`COMPACT_SEED`]), so that a use never
//! picks up another's hash by sharing a function. The two seeds are equal,
//! fixed by the files already written (a partitioned build's part files by
//! the owner's; compact tiers by the compact one). That is harmless because
//! a compact tier, and a [`LineTier`](super::LineTier), is always built
//! from a whole tier (joined from every part), never from the keys one
//! part owns, which would fill only `1/parts` of its parts. A new use takes
//! a seed of its own.
//!
//! The table's layout hash ([`table_hash`]) is another function altogether
//! (a multiplication and one xor-shift), so a table's home slots and a
//! part's keys are independent: each part's keys spread over its whole
//! table.

/// The golden ratio times 2^64, rounded to odd: the multiplier of
/// [`table_hash`] and the seed of both SplitMix64 uses.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Multiplier of [`table_hash`] (odd, so the hash is a bijection of `u64`).
pub(super) const TABLE_MIX: u64 = GOLDEN;

/// The multiplicative inverse of [`TABLE_MIX`] modulo 2^64.
pub(super) const TABLE_MIX_INVERSE: u64 = odd_inverse(TABLE_MIX);

/// The seed of [`owner_hash`].
pub const OWNER_SEED: u64 = GOLDEN;

/// The seed of [`compact_hash`].
pub const COMPACT_SEED: u64 = GOLDEN;

/// A [`TierTable`](super::TierTable)'s layout hash: a key's home slot is
/// [`fastrange`] of it, and slots are laid out in its order. A bijection
/// ([`table_unhash`] inverts it), so the layout depends only on the set of
/// keys.
#[inline]
#[must_use]
pub const fn table_hash(key: u64) -> u64 {
    let x = key.wrapping_mul(TABLE_MIX);
    x ^ (x >> 29)
}

/// The inverse of [`table_hash`].
#[inline]
#[must_use]
pub const fn table_unhash(hashed: u64) -> u64 {
    // x ^ (x >> 29) is undone by xoring the shift back in twice (29 * 3 > 64).
    let mut x = hashed;
    x ^= x >> 29;
    x ^= x >> 58;
    x.wrapping_mul(TABLE_MIX_INVERSE)
}

/// The hash that picks the part (MPI rank) owning a key: the owner is
/// [`fastrange`] of it over the parts.
#[inline]
#[must_use]
pub const fn owner_hash(key: u64) -> u64 {
    splitmix(key, OWNER_SEED)
}

/// The hash of a key in a compact tier (its part, bucket, fingerprint and,
/// mixed with a pilot, its slot) and in a [`LineTier`](super::LineTier)
/// (its line). A bijection: [`compact_unhash`] inverts it.
#[inline]
#[must_use]
pub const fn compact_hash(key: u64) -> u64 {
    splitmix(key, COMPACT_SEED)
}

/// The inverse of [`compact_hash`].
#[must_use]
pub const fn compact_unhash(hashed: u64) -> u64 {
    unsplitmix(hashed, COMPACT_SEED)
}

/// A compact part's pilot `pilot` under the part's seed byte `seed`, to be
/// mixed with a key's [`compact_hash`] (as PtrHash: a multiple of a
/// constant that spreads every bit).
#[inline]
#[must_use]
pub const fn pilot_hash(seed: u8, pilot: u8) -> u64 {
    (1 << 16 | (seed as u64) << 8 | pilot as u64).wrapping_mul(0x517C_C1B7_2722_0A95)
}

/// The slot, in a compact part of `slots` slots, of a key whose
/// [`compact_hash`] is `h` under a pilot's [`pilot_hash`]: one
/// multiplication, whose high bits depend on every bit of `h ^ pilot`.
#[inline]
#[must_use]
pub const fn pilot_slot(h: u64, pilot_hash: u64, slots: u64) -> u64 {
    fastrange((h ^ pilot_hash).wrapping_mul(GOLDEN), slots)
}

/// `⌊h · n / 2^64⌋`: a hash reduced to `0..n` without a division.
#[inline]
#[must_use]
pub const fn fastrange(h: u64, n: u64) -> u64 {
    ((h as u128 * n as u128) >> 64) as u64
}

/// SplitMix64's finaliser of `x + seed`: a bijection of `u64` that mixes
/// every bit.
#[inline]
const fn splitmix(x: u64, seed: u64) -> u64 {
    let mut z = x.wrapping_add(seed);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The inverse of [`splitmix`] under `seed`: each xor-shift undone by
/// xoring its shifts back in (doubling the shift until it passes 64 bits),
/// each multiplication by the constant's inverse modulo 2^64.
const fn unsplitmix(h: u64, seed: u64) -> u64 {
    const fn unshift(y: u64, s: u32) -> u64 {
        let mut x = y;
        let mut shift = s;
        while shift < 64 {
            x ^= x >> shift;
            shift *= 2;
        }
        x
    }
    let mut z = unshift(h, 31);
    z = unshift(
        z.wrapping_mul(const { odd_inverse(0x94D0_49BB_1331_11EB) }),
        27,
    );
    z = unshift(
        z.wrapping_mul(const { odd_inverse(0xBF58_476D_1CE4_E5B9) }),
        30,
    );
    z.wrapping_sub(seed)
}

/// The inverse of an odd `u64` modulo 2^64 (every odd number has one).
pub(super) const fn odd_inverse(odd: u64) -> u64 {
    // Newton's iteration doubles the correct low bits each step: the seed
    // is right to 3 bits, so six steps give 3 * 2^6 > 64.
    let mut inv = odd;
    let mut i = 0;
    while i < 6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inv)));
        i += 1;
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each hash as its file layouts were written with, spelt out
    /// independently: the published databases' bytes depend on them.
    #[test]
    fn hashes_are_the_published_functions() {
        for key in [1u64, 2, 0x1234_5678, (1 << 52) - 1, u64::MAX] {
            let x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            assert_eq!(table_hash(key), x ^ (x >> 29));
            let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            assert_eq!(compact_hash(key), z);
            assert_eq!(owner_hash(key), z);
        }
    }

    #[test]
    fn inverses_undo_their_hashes() {
        let mut x = 1u64;
        for _ in 0..10_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            assert_eq!(table_unhash(table_hash(x)), x);
            assert_eq!(compact_unhash(compact_hash(x)), x);
        }
        assert_eq!(TABLE_MIX.wrapping_mul(TABLE_MIX_INVERSE), 1);
    }

    #[test]
    fn fastrange_stays_in_range() {
        for n in [1u64, 2, 7, 1 << 40] {
            assert_eq!(fastrange(0, n), 0);
            assert_eq!(fastrange(u64::MAX, n), n - 1);
        }
    }
}
