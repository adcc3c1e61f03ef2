//! A stable sort of `u64` items by their high half, for keys of up to 30
//! bits: the pawn game's coordinates (at most 10^9 < 2^30), each item
//! carrying a payload (an index, or the other coordinate) in its low half.
//!
//! Algorithm: least-significant-digit radix sort on three 10-bit digits of
//! the key. One pass over the items counts all three digits; each digit
//! then takes one stable scatter pass into the other buffer, skipped when
//! every item has the same digit. O(n) with 3 x 1024 counters that stay in
//! the first-level cache. It is correct because each pass is stable: after
//! the pass on digit `d`, items are ordered by digits `d` and below, ties
//! kept in their order before the sort.
//!
//! Why hand-written: on the gridgame judge's largest input (10^5 items) a
//! sort takes about 6.5M instructions here against 15M for `sort_unstable`
//! (callgrind), and the radix-sort crate we looked at (`radsort`) sorts
//! 8-bit digits, so four passes for a 30-bit key, into a scratch buffer it
//! allocates per call.

/// Below this many items a comparison sort is as fast.
const SMALL: usize = 256;

/// Bits per digit.
const DIGIT: u32 = 10;

/// Sorts `items` by `item >> 32`, stably (items with equal keys keep their
/// order). Every key must be below 2^30. `scratch` is working space: its
/// contents are replaced, and keeping it between calls saves allocating.
///
/// # Examples
///
/// ```
/// let mut items = vec![3 << 32 | 7, 1 << 32 | 9, 3 << 32 | 2, 0 << 32 | 5];
/// grundy::radix::sort_by_high_half(&mut items, &mut Vec::new());
/// assert_eq!(items, vec![0 << 32 | 5, 1 << 32 | 9, 3 << 32 | 7, 3 << 32 | 2]);
/// ```
pub fn sort_by_high_half(items: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    debug_assert!(items.iter().all(|&v| v >> 32 < 1 << (3 * DIGIT)));
    let n = items.len();
    if n < SMALL {
        items.sort_by_key(|&v| v >> 32);
        return;
    }
    let mut counts = [[0u32; 1 << DIGIT]; 3];
    for &v in items.iter() {
        let key = (v >> 32) as usize;
        for (d, count) in counts.iter_mut().enumerate() {
            count[(key >> (DIGIT as usize * d)) & ((1 << DIGIT) - 1)] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, 0);
    for (d, count) in counts.iter_mut().enumerate() {
        if count.iter().any(|&c| c as usize == n) {
            continue; // one digit value for all: the pass would not move anything
        }
        let mut next = 0u32;
        for c in count.iter_mut() {
            let here = *c;
            *c = next;
            next += here;
        }
        let shift = 32 + DIGIT * d as u32;
        for &v in items.iter() {
            let digit = (v >> shift) as usize & ((1 << DIGIT) - 1);
            scratch[count[digit] as usize] = v;
            count[digit] += 1;
        }
        std::mem::swap(items, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_stable_comparison_sort() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut scratch = Vec::new();
        for (n, key_bits) in [
            (0, 30),
            (1, 30),
            (255, 30),
            (256, 30),
            (5000, 30),
            (5000, 4),
        ] {
            let items: Vec<u64> = (0..n)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % (1 << key_bits)) << 32 | i
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|&v| v >> 32);
            let mut sorted = items;
            sort_by_high_half(&mut sorted, &mut scratch);
            assert_eq!(sorted, expected, "n = {n}, key bits = {key_bits}");
        }
    }

    #[test]
    fn keys_sharing_digits_skip_passes_and_stay_stable() {
        // Keys 1 << 20 and 0: only the top digit differs.
        let mut items: Vec<u64> = (0..1000).map(|i| (i % 2) << 52 | i).collect();
        let mut expected = items.clone();
        expected.sort_by_key(|&v| v >> 32);
        sort_by_high_half(&mut items, &mut Vec::new());
        assert_eq!(items, expected);
    }
}
