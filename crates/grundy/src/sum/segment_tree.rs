//! A segment tree: range sums over any [`Monoid`] (no inverse, no
//! commutativity needed) and the first position in a range whose value
//! passes a test, both in `O(log n)`.
//!
//! The tree is stored implicitly in one array: for a capacity `size` (the
//! least power of two at least `len`), leaf `i` is node `size + i`, and
//! node `k < size` holds `node 2k` combined with `node 2k + 1`, in that
//! order. A range is summed bottom-up, keeping a left and a right partial
//! sum so the order of the terms is kept. A search descends from the root
//! and skips every subtree whose sum fails the test; when the test holds
//! for a sum exactly when it holds for one of its terms (as "has bit `k`
//! set" does under OR), only the nodes along the range's two edges and one
//! root-to-leaf path are visited.

use std::ops::RangeBounds;

use super::{half_open, Monoid};

/// A sequence of values with point updates, range sums and searches in
/// `O(log n)`, for any [`Monoid`]. Indices are 0-based, like a slice's.
///
/// # Examples
///
/// ```
/// use grundy::sum::{BitOr, SegmentTree};
///
/// let mut tree: SegmentTree<BitOr<u32>> = [1, 4, 2, 6].map(BitOr).into_iter().collect();
/// assert_eq!(tree.range(1..3), BitOr(4 | 2));
/// // The first value in 2.. with bit 2 set.
/// assert_eq!(tree.position(2.., |v| v.0 & 4 != 0), Some(3));
/// tree.set(3, BitOr(1));
/// assert_eq!(tree.position(2.., |v| v.0 & 4 != 0), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentTree<T> {
    len: usize,
    /// A power of two, at least `len` and at least 1.
    size: usize,
    /// Node 1 is the root; nodes `size..size + len` are the values.
    nodes: Vec<T>,
}

impl<T: Monoid> Default for SegmentTree<T> {
    fn default() -> Self {
        SegmentTree::from_values(Vec::new())
    }
}

impl<T: Monoid> SegmentTree<T> {
    /// A tree over `values`, built in `O(n)`.
    #[must_use]
    pub fn from_values(values: Vec<T>) -> SegmentTree<T> {
        let len = values.len();
        let size = len.next_power_of_two().max(1);
        let mut nodes = vec![T::IDENTITY; 2 * size];
        nodes[size..size + len].copy_from_slice(&values);
        for node in (1..size).rev() {
            nodes[node] = nodes[2 * node].combine(nodes[2 * node + 1]);
        }
        SegmentTree { len, size, nodes }
    }

    /// The number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, in order.
    #[must_use]
    pub fn values(&self) -> &[T] {
        &self.nodes[self.size..self.size + self.len]
    }

    /// The value at `index`.
    ///
    /// # Panics
    ///
    /// When `index >= len()`.
    #[must_use]
    pub fn get(&self, index: usize) -> T {
        self.values()[index]
    }

    /// Replaces the value at `index`, returning the old one.
    ///
    /// # Panics
    ///
    /// When `index >= len()`.
    pub fn set(&mut self, index: usize, value: T) -> T {
        assert!(
            index < self.len,
            "index {index} out of bounds for a SegmentTree of length {}",
            self.len
        );
        let mut node = self.size + index;
        let old = std::mem::replace(&mut self.nodes[node], value);
        while node > 1 {
            node /= 2;
            self.nodes[node] = self.nodes[2 * node].combine(self.nodes[2 * node + 1]);
        }
        old
    }

    /// Appends a value: `O(log n)`, or `O(n)` when the capacity doubles
    /// (so `O(log n)` amortised).
    pub fn push(&mut self, value: T) {
        if self.len == self.size {
            let mut values = self.values().to_vec();
            values.push(value);
            *self = SegmentTree::from_values(values);
        } else {
            self.len += 1;
            self.set(self.len - 1, value);
        }
    }

    /// The sum of the values in `range`, in order, or `None` when the range
    /// is reversed or reaches past the end.
    #[must_use]
    pub fn get_range(&self, range: impl RangeBounds<usize>) -> Option<T> {
        let (start, end) = half_open(&range, self.len)?;
        let (mut left, mut right) = (T::IDENTITY, T::IDENTITY);
        let (mut low, mut high) = (start + self.size, end + self.size);
        while low < high {
            if low & 1 == 1 {
                left = left.combine(self.nodes[low]);
                low += 1;
            }
            if high & 1 == 1 {
                high -= 1;
                right = self.nodes[high].combine(right);
            }
            low /= 2;
            high /= 2;
        }
        Some(left.combine(right))
    }

    /// The sum of the values in `range`, in order (the identity for an
    /// empty range).
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    #[must_use]
    pub fn range(&self, range: impl RangeBounds<usize>) -> T {
        let len = self.len;
        self.get_range(range)
            .unwrap_or_else(|| panic!("range out of bounds for a SegmentTree of length {len}"))
    }

    /// The first index in `range` whose value passes `test`, where `test`
    /// holds for a sum exactly when it holds for one of its terms (and not
    /// for the identity); `None` when no value in the range passes.
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    #[must_use]
    pub fn position(
        &self,
        range: impl RangeBounds<usize>,
        test: impl Fn(T) -> bool,
    ) -> Option<usize> {
        let len = self.len;
        let (start, end) = half_open(&range, len)
            .unwrap_or_else(|| panic!("range out of bounds for a SegmentTree of length {len}"));
        self.descend(1, 0, self.size, start, end, &test)
    }

    /// The search below `node`, which covers `node_start..node_end`.
    fn descend(
        &self,
        node: usize,
        node_start: usize,
        node_end: usize,
        start: usize,
        end: usize,
        test: &impl Fn(T) -> bool,
    ) -> Option<usize> {
        if node_end <= start || end <= node_start || !test(self.nodes[node]) {
            return None;
        }
        if node >= self.size {
            return Some(node_start);
        }
        let middle = (node_start + node_end) / 2;
        self.descend(2 * node, node_start, middle, start, end, test)
            .or_else(|| self.descend(2 * node + 1, middle, node_end, start, end, test))
    }
}

impl<T: Monoid> FromIterator<T> for SegmentTree<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> SegmentTree<T> {
        SegmentTree::from_values(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sum::BitOr;
    use proptest::prelude::*;

    /// Affine maps `x -> a x + b` (mod 1009) under composition: a monoid
    /// that is not commutative, so order mistakes show.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Affine(u32, u32);

    impl Monoid for Affine {
        const IDENTITY: Affine = Affine(1, 0);
        /// `self` first, then `other`.
        fn combine(self, other: Affine) -> Affine {
            Affine(self.0 * other.0 % 1009, (other.0 * self.1 + other.1) % 1009)
        }
    }

    fn affine() -> impl Strategy<Value = Affine> {
        (0u32..1009, 0u32..1009).prop_map(|(a, b)| Affine(a, b))
    }

    proptest! {
        #[test]
        fn ranges_match_a_fold_in_order(
            initial in proptest::collection::vec(affine(), 0..20),
            updates in proptest::collection::vec((any::<usize>(), affine()), 0..12),
        ) {
            // Built in one go, or pushed one by one: the same tree.
            let mut pushed = SegmentTree::default();
            initial.iter().for_each(|&v| pushed.push(v));
            let mut tree = SegmentTree::from_values(initial.clone());
            prop_assert_eq!(&pushed, &tree);
            let mut plain = initial;
            for step in 0..=updates.len() {
                prop_assert_eq!(tree.values(), &plain[..]);
                for start in 0..=plain.len() {
                    for end in start..=plain.len() {
                        let expected = plain[start..end].iter().fold(Affine::IDENTITY, |acc, &v| acc.combine(v));
                        prop_assert_eq!(tree.range(start..end), expected);
                    }
                    prop_assert_eq!(tree.get_range(start..plain.len() + 1), None);
                }
                if let Some(&(index, value)) = updates.get(step) {
                    if !plain.is_empty() {
                        let index = index % plain.len();
                        prop_assert_eq!(tree.set(index, value), plain[index]);
                        plain[index] = value;
                    }
                }
            }
        }

        #[test]
        fn position_finds_the_first_value_with_a_bit(
            initial in proptest::collection::vec(0u32..64, 0..24),
            updates in proptest::collection::vec((any::<usize>(), 0u32..64), 0..8),
        ) {
            let mut tree: SegmentTree<BitOr<u32>> = initial.iter().copied().map(BitOr).collect();
            let mut plain = initial;
            for step in 0..=updates.len() {
                for start in 0..=plain.len() {
                    for end in start..=plain.len() {
                        for bit in 0..6 {
                            let expected = (start..end).find(|&i| plain[i] >> bit & 1 == 1);
                            prop_assert_eq!(tree.position(start..end, |v| v.0 >> bit & 1 == 1), expected);
                        }
                    }
                }
                if let Some(&(index, value)) = updates.get(step) {
                    if !plain.is_empty() {
                        let index = index % plain.len();
                        tree.set(index, BitOr(value));
                        plain[index] = value;
                    }
                }
            }
        }
    }
}
