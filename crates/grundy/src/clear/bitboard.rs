//! A set of cells of a board of at most 64 cells, as a `u64` in row-major
//! order. Pure bit operations; the geometry (rows and columns) lives in
//! [`Geometry`](super::Geometry), which knows how to read these bits as a grid.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells, bit `row * cols + col`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[must_use]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No cells.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The single cell with this index.
    ///
    /// # Panics
    ///
    /// When `index >= 64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use grundy::clear::Bitboard;
    ///
    /// assert_eq!(Bitboard::from_index(3), Bitboard(8));
    /// assert_eq!(Bitboard::from_index(0), Bitboard::below(1));
    /// ```
    pub const fn from_index(index: u32) -> Bitboard {
        assert!(index < 64, "a bitboard holds 64 cells");
        Bitboard(1 << index)
    }

    /// The cells with index below `n` (all 64 for `n >= 64`).
    pub const fn below(n: u32) -> Bitboard {
        if n >= 64 {
            Bitboard(u64::MAX)
        } else {
            Bitboard((1 << n) - 1)
        }
    }

    /// True when no cell is set.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cells.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when every cell of `other` is in `self`.
    #[must_use]
    pub const fn contains(self, other: Bitboard) -> bool {
        self.0 & other.0 == other.0
    }

    /// True when cell `index` is set.
    #[must_use]
    pub const fn has(self, index: u32) -> bool {
        index < 64 && self.0 >> index & 1 == 1
    }

    /// The lowest cell, if any.
    #[must_use]
    pub const fn first(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros())
        }
    }

    /// The set of the lowest cell alone (empty when empty).
    pub const fn lowest(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_neg())
    }

    /// Shifted towards higher indices; bits past 63 fall off.
    pub const fn shl(self, n: u32) -> Bitboard {
        if n >= 64 {
            Bitboard(0)
        } else {
            Bitboard(self.0 << n)
        }
    }

    /// Shifted towards lower indices; bits below 0 fall off.
    pub const fn shr(self, n: u32) -> Bitboard {
        if n >= 64 {
            Bitboard(0)
        } else {
            Bitboard(self.0 >> n)
        }
    }

    /// The indices of the cells, lowest first.
    pub fn cells(self) -> Cells {
        Cells(self.0)
    }

    /// Every subset of this set (including the empty set and itself), by the
    /// carry-rippler trick: `2^count` subsets in increasing numeric order.
    pub fn subsets(self) -> Subsets {
        Subsets {
            set: self.0,
            next: Some(0),
        }
    }
}

/// Iterator over the cell indices of a [`Bitboard`].
#[derive(Clone, Debug)]
pub struct Cells(u64);

impl Iterator for Cells {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(index)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

/// Iterator over the subsets of a [`Bitboard`].
#[derive(Clone, Debug)]
pub struct Subsets {
    set: u64,
    next: Option<u64>,
}

impl Iterator for Subsets {
    type Item = Bitboard;
    fn next(&mut self) -> Option<Bitboard> {
        let current = self.next?;
        let following = current.wrapping_sub(self.set) & self.set;
        self.next = (following != 0).then_some(following);
        Some(Bitboard(current))
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the cells as an 8 x 8 grid (row 0 on top), the layout of a
    /// board with 8 columns; [`Board`](super::Board)'s `Debug` draws its own
    /// shape.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for row in 0..8 {
            for col in 0..8 {
                f.write_str(if self.has(row * 8 + col) { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_enumerates_each_subset_once() {
        let set = Bitboard(0b1011_0100);
        let subsets: Vec<u64> = set.subsets().map(|s| s.0).collect();
        assert_eq!(subsets.len(), 1 << set.count());
        let mut sorted = subsets.clone();
        sorted.dedup();
        assert_eq!(sorted, subsets, "increasing, without repeats");
        assert!(subsets.iter().all(|&s| s & !set.0 == 0));
    }

    #[test]
    fn cells_lists_indices() {
        assert_eq!(
            Bitboard(0b1010_0001).cells().collect::<Vec<_>>(),
            vec![0, 5, 7]
        );
        assert_eq!(Bitboard(u64::MAX).cells().count(), 64);
    }

    #[test]
    fn shifts_saturate() {
        assert_eq!(Bitboard(1).shl(64), Bitboard::EMPTY);
        assert_eq!(Bitboard(u64::MAX).shr(70), Bitboard::EMPTY);
        assert_eq!(Bitboard::below(64), Bitboard(u64::MAX));
    }
}
