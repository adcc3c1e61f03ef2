//! XORs of ranges of byte values under point changes, both in `O(1)` for
//! fewer than `64^4` values: the row of small nimbers the `pshtbrth` judge
//! keeps, where [`FenwickTree`](super::FenwickTree)'s `O(log n)` walks,
//! spread over the tree (17 deep at `n = 10^5`), are what costs.
//!
//! The values are kept as XORs of prefixes inside blocks of 64, of blocks
//! inside groups of 64, and so on, four levels. A range is the XOR of two
//! prefixes, each 4 loads with no loop; a change XORs its delta into at most
//! 63 bytes per level, in one or two cache lines.

/// The XORs of the prefixes of a row of byte values, at four levels of
/// blocks of 64. With `v` the values and `x(a..b)` the XOR of `v[a..b]`:
/// level 0 holds `x(64 * (i / 64)..i)` for `i` in `0..=n`, the prefix of
/// `i`'s block up to `i`; level 1 the same over block XORs (the prefix of a
/// block's group of 64 blocks up to the block), and so on. The prefix
/// `x(0..i)` is then the XOR of level `k`'s entry `i >> 6k` over the
/// levels, because the top level's entries all lie in its first group when
/// `n < 64^4`.
#[derive(Clone, Debug, Default)]
pub struct XorPrefixes {
    /// Each level padded with zeros to whole blocks of 64.
    levels: [Vec<u8>; LEVELS],
    /// How many values.
    len: usize,
}

/// Levels of [`XorPrefixes`]: `64^4` values, beyond the ten million the
/// `pshtbrth` judge accepts.
const LEVELS: usize = 4;

impl XorPrefixes {
    /// The prefixes of `values`.
    ///
    /// # Panics
    ///
    /// When there are `64^4` values or more.
    #[must_use]
    pub fn new(values: &[u8]) -> XorPrefixes {
        let mut prefixes = XorPrefixes::default();
        prefixes.rebuild(values);
        prefixes
    }

    /// Replaces the values by `values`, keeping the memory.
    ///
    /// # Panics
    ///
    /// When there are `64^4` values or more.
    pub fn rebuild(&mut self, values: &[u8]) {
        assert!(values.len() < 1 << (6 * LEVELS), "too many values");
        self.len = values.len();
        let mut below: Vec<u8> = values.to_vec();
        for level in &mut self.levels {
            // `below` holds this level's values; the next level's are the
            // XORs of its blocks.
            level.clear();
            level.reserve(below.len() + 1);
            let mut next = Vec::with_capacity(below.len() / 64 + 1);
            for block in below.chunks(64) {
                let mut sum = 0;
                for &value in block {
                    level.push(sum);
                    sum ^= value;
                }
                next.push(sum);
            }
            // The entry for `i = n`: the prefix of the block that `n` opens,
            // or the whole last block when `n` ends one.
            // The next level's values are the whole blocks' XORs only.
            if below.len() % 64 == 0 {
                level.push(0);
            } else {
                level.push(next.pop().expect("a block"));
            }
            level.resize(level.len().next_multiple_of(64), 0);
            below = next;
        }
    }

    /// The XOR of the values `0..end`.
    #[inline]
    fn prefix(&self, end: usize) -> u8 {
        let [zero, one, two, three] = &self.levels;
        zero[end] ^ one[end >> 6] ^ two[end >> 12] ^ three[end >> 18]
    }

    /// The XOR of the values `start..end`.
    ///
    /// # Panics
    ///
    /// When `end` is past the values.
    #[inline(always)]
    #[must_use]
    pub fn range(&self, start: usize, end: usize) -> u8 {
        assert!(
            start <= end && end <= self.len,
            "range {start}..{end} of {} values",
            self.len
        );
        self.prefix(end) ^ self.prefix(start)
    }

    /// XORs `delta` into the value at `index`: into every later prefix in
    /// its block, at each level. Branch-free: the whole block of 64 is
    /// XORed with `delta` under a mask from `LATER` (a loop of 0 to 63
    /// bytes costs a mispredicted branch per level; the levels are padded
    /// to whole blocks for this).
    ///
    /// # Panics
    ///
    /// When `index` is past the values.
    #[inline(always)]
    pub fn change(&mut self, index: usize, delta: u8) {
        assert!(index < self.len, "index {index} past {} values", self.len);
        let mut index = index;
        for level in &mut self.levels {
            let start = index & !63;
            let block: &mut [u8; 64] = (&mut level[start..start + 64])
                .try_into()
                .expect("levels are whole blocks");
            let mask = &LATER[index & 63];
            for (prefix, later) in block.iter_mut().zip(mask) {
                *prefix ^= delta & later;
            }
            index >>= 6;
        }
    }
}

/// `LATER[i][j]` is all ones when `j > i`: the prefixes of a block that
/// include the value at offset `i`.
static LATER: [[u8; 64]; 64] = {
    let mut masks = [[0; 64]; 64];
    let mut i = 0;
    while i < 64 {
        let mut j = i + 1;
        while j < 64 {
            masks[i][j] = 0xFF;
            j += 1;
        }
        i += 1;
    }
    masks
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Prefix XORs by blocks agree with a plain loop, through changes.
        #[test]
        fn xor_prefixes_match_a_plain_loop(
            values in proptest::collection::vec(any::<u8>(), 0..9000),
            changes in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..40),
            ranges in proptest::collection::vec((any::<usize>(), any::<usize>()), 1..40),
        ) {
            let mut values = values;
            let mut prefixes = XorPrefixes::new(&values);
            let n = values.len();
            let check = |prefixes: &XorPrefixes, values: &[u8]| -> Result<(), TestCaseError> {
                for &(a, b) in &ranges {
                    let (a, b) = (a % (n + 1), b % (n + 1));
                    let (start, end) = (a.min(b), a.max(b));
                    let plain = values[start..end].iter().fold(0, |acc, v| acc ^ v);
                    prop_assert_eq!(prefixes.range(start, end), plain, "{}..{}", start, end);
                }
                prop_assert_eq!(prefixes.range(0, n), values.iter().fold(0, |acc, v| acc ^ v));
                Ok(())
            };
            check(&prefixes, &values)?;
            for &(index, value) in &changes {
                if n == 0 {
                    break;
                }
                let index = index % n;
                prefixes.change(index, values[index] ^ value);
                values[index] = value;
                check(&prefixes, &values)?;
            }
            // The same entries as built afresh (the padding may differ).
            let fresh = XorPrefixes::new(&values);
            for (level, (changed, built)) in prefixes.levels.iter().zip(&fresh.levels).enumerate() {
                let used = (n >> (6 * level)) + 1;
                prop_assert_eq!(&changed[..used], &built[..used]);
            }
        }
    }

    /// Every length of a row of values around the block sizes, each range.
    #[test]
    fn xor_prefixes_at_block_edges() {
        for n in [0, 1, 63, 64, 65, 127, 128, 4095, 4096, 4097, 262_144] {
            let values: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
            let prefixes = XorPrefixes::new(&values);
            let mut plain = 0;
            assert_eq!(prefixes.range(0, 0), 0, "n {n}, end 0");
            for (i, &value) in values.iter().enumerate() {
                plain ^= value;
                assert_eq!(prefixes.range(0, i + 1), plain, "n {n}, end {}", i + 1);
            }
        }
    }
}
