//! Nimbers, nim-sums and the minimum excludant.
//!
//! By the Sprague-Grundy theorem every impartial game under normal play is
//! equivalent to a single Nim heap, whose size is the position's *nimber* (its
//! Grundy value). The nimber of a position is the *mex* (minimum excludant) of
//! its options' nimbers, and the nimber of a sum of independent games is the
//! XOR (*nim-sum*) of the parts' nimbers. The player to move wins exactly when
//! the nimber is non-zero.
//!
//! Nimbers are not capped: [`Nimber`] holds a `u32`, and [`MexSet`] is a
//! growable bitset cleared word by word (only the words written), so a value
//! like 186 or 4000 costs a few word operations, never a hash.

use std::fmt;
use std::ops::{BitXor, BitXorAssign};

/// A Grundy value: the size of the Nim heap a position is equivalent to.
///
/// # Examples
///
/// ```
/// use grundy::Nimber;
/// let a = Nimber::new(5);
/// let b = Nimber::new(3);
/// assert_eq!(a ^ b, Nimber::new(6));
/// assert!(!(a ^ b).is_zero());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber(u32);

impl Nimber {
    /// The nimber of a terminal position (and of any second-player win).
    pub const ZERO: Nimber = Nimber(0);

    /// The nimber `*value`.
    #[must_use]
    pub const fn new(value: u32) -> Nimber {
        Nimber(value)
    }

    /// The heap size this nimber stands for.
    #[must_use]
    pub const fn value(self) -> u32 {
        self.0
    }

    /// True for a position the player to move loses.
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The winner when this is the nimber of the whole position.
    #[must_use]
    pub const fn outcome(self) -> Outcome {
        if self.0 == 0 {
            Outcome::SecondPlayerWins
        } else {
            Outcome::FirstPlayerWins
        }
    }
}

impl From<u32> for Nimber {
    fn from(value: u32) -> Nimber {
        Nimber(value)
    }
}

impl From<Nimber> for u32 {
    fn from(nimber: Nimber) -> u32 {
        nimber.0
    }
}

impl BitXor for Nimber {
    type Output = Nimber;
    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Nimber {
    fn bitxor_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl std::iter::Sum for Nimber {
    /// The nim-sum (XOR) of the nimbers.
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, BitXor::bitxor)
    }
}

impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Who wins a position under normal play with perfect play from both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move wins (an N-position, nimber non-zero).
    FirstPlayerWins,
    /// The player to move loses (a P-position, nimber zero).
    SecondPlayerWins,
}

impl Outcome {
    /// The outcome of a position with this nimber.
    #[must_use]
    pub const fn of(nimber: Nimber) -> Outcome {
        nimber.outcome()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::FirstPlayerWins => "first player wins",
            Outcome::SecondPlayerWins => "second player wins",
        })
    }
}

/// A set of nimbers, for computing a mex: the one mex routine of the
/// crate (the tier worker, the searches and the dense split tables use it).
///
/// A growable bitset that remembers how many of its words were written
/// since the last [`MexSet::clear`], and clears only those: a solver that
/// reuses one set pays for the words its values reach, not for the set's
/// size, and allocates only when a value reaches a new word. Values are not
/// capped: 4000 costs 63 words, never a hash.
///
/// # Examples
///
/// ```
/// use grundy::{MexSet, Nimber};
/// let mut seen = MexSet::new();
/// for v in [0, 1, 3, 300] {
///     seen.insert(Nimber::new(v));
/// }
/// assert_eq!(seen.mex(), Nimber::new(2));
/// assert_eq!(grundy::mex([0u32, 1, 2].map(Nimber::new)), Nimber::new(3));
/// ```
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    words: Vec<u64>,
    /// Words `..dirty` may be non-zero; the rest are zero.
    dirty: usize,
}

impl MexSet {
    /// An empty set.
    #[must_use]
    pub const fn new() -> MexSet {
        MexSet {
            words: Vec::new(),
            dirty: 0,
        }
    }

    /// Empties the set: zeroes only the words written since the last
    /// clear, keeping the allocation for reuse.
    #[inline]
    pub fn clear(&mut self) {
        self.words[..self.dirty].fill(0);
        self.dirty = 0;
    }

    /// Adds a nimber.
    #[inline]
    pub fn insert(&mut self, nimber: Nimber) {
        let value = nimber.0 as usize;
        let word = value / 64;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (value % 64);
        self.dirty = self.dirty.max(word + 1);
    }

    /// True when the nimber was inserted since the last clear.
    #[must_use]
    pub fn contains(&self, nimber: Nimber) -> bool {
        let value = nimber.0 as usize;
        self.words[..self.dirty]
            .get(value / 64)
            .is_some_and(|w| w & (1 << (value % 64)) != 0)
    }

    /// The least nimber not in the set.
    #[inline]
    #[must_use]
    pub fn mex(&self) -> Nimber {
        Nimber(mex_of_words(&self.words[..self.dirty]))
    }
}

/// The least value missing from a bitset (bit `v % 64` of word `v / 64`
/// for value `v`): the first word not full, and its first zero bit.
#[inline]
#[must_use]
pub fn mex_of_words(words: &[u64]) -> u32 {
    for (i, &w) in words.iter().enumerate() {
        if w != u64::MAX {
            return i as u32 * 64 + w.trailing_ones();
        }
    }
    words.len() as u32 * 64
}

impl Extend<Nimber> for MexSet {
    fn extend<I: IntoIterator<Item = Nimber>>(&mut self, iter: I) {
        iter.into_iter().for_each(|n| self.insert(n));
    }
}

impl FromIterator<Nimber> for MexSet {
    fn from_iter<I: IntoIterator<Item = Nimber>>(iter: I) -> MexSet {
        let mut set = MexSet::new();
        set.extend(iter);
        set
    }
}

/// The minimum excludant of a collection of nimbers.
#[must_use]
pub fn mex<I: IntoIterator<Item = Nimber>>(values: I) -> Nimber {
    values.into_iter().collect::<MexSet>().mex()
}

/// The nim-sum (XOR) of a collection of nimbers.
#[must_use]
pub fn nim_sum<I: IntoIterator<Item = Nimber>>(values: I) -> Nimber {
    values.into_iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, with a plain linear search as the oracle.
    fn mex_by_search(values: &[u32]) -> u32 {
        (0..).find(|v| !values.contains(v)).unwrap()
    }

    proptest! {
        #[test]
        fn mex_matches_search(values in proptest::collection::vec(0u32..700, 0..400)) {
            let expected = mex_by_search(&values);
            prop_assert_eq!(mex(values.iter().copied().map(Nimber::new)).value(), expected);
        }

        #[test]
        fn mex_set_reuse_after_clear(first in proptest::collection::vec(0u32..700, 0..200),
                                     second in proptest::collection::vec(0u32..700, 0..200)) {
            let mut set: MexSet = first.iter().copied().map(Nimber::new).collect();
            set.clear();
            set.extend(second.iter().copied().map(Nimber::new));
            prop_assert_eq!(set.mex().value(), mex_by_search(&second));
            for v in 0..700 {
                prop_assert_eq!(set.contains(Nimber::new(v)), second.contains(&v));
            }
        }

        #[test]
        fn nim_sum_is_xor(values in proptest::collection::vec(any::<u32>(), 0..50)) {
            let expected = values.iter().fold(0, |acc, v| acc ^ v);
            prop_assert_eq!(nim_sum(values.iter().copied().map(Nimber::new)).value(), expected);
        }
    }

    #[test]
    fn dense_prefix_crosses_inline_boundary() {
        // 0..=299 all present: the mex is the first value past the spill start.
        let set: MexSet = (0..300).map(Nimber::new).collect();
        assert_eq!(set.mex(), Nimber::new(300));
        let set: MexSet = (0..256).map(Nimber::new).collect();
        assert_eq!(set.mex(), Nimber::new(256));
        assert_eq!(mex_of_words(&[u64::MAX, 0b1011]), 66);
        assert_eq!(mex_of_words(&[]), 0);
    }

    #[test]
    fn outcome_follows_zero() {
        assert_eq!(Nimber::ZERO.outcome(), Outcome::SecondPlayerWins);
        assert_eq!(Nimber::new(1).outcome(), Outcome::FirstPlayerWins);
    }
}
