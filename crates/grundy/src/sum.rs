//! Sums of many components under point updates: range values, winners and
//! winning moves.
//!
//! **The rule.** Components played side by side make one game: a move is a
//! move in exactly one component. By the Sprague-Grundy theorem the value of
//! the components `l..=r` is the XOR of their values, and the player to move
//! wins exactly when that XOR is non-zero.
//!
//! **The algorithm.** [`FenwickTree`] keeps, for a value type with an
//! associative, commutative, self-inverse operation ([`XorGroup`]: XOR of
//! nimbers or of machine words), the partial sums of a Fenwick (binary
//! indexed) tree: node `i` (1-based) holds the sum of the `i & -i` values
//! ending at `i`. A prefix is the sum of the `O(log n)` nodes met by clearing
//! the lowest set bit; a range `[l, r)` is `prefix(r) + prefix(l)`, since
//! every element is its own inverse (and the nodes both walks share cancel,
//! so each walk stops where they meet); a point update adds `old + new` to the
//! `O(log n)` nodes covering the index. Building from `n` values is `O(n)`.
//!
//! [`GameSum`] holds one position of any [`Game`] per component with its
//! value (found once by the [`Solver`] when the position is put in) in a
//! `FenwickTree<Nimber>`. A winning move on `l..=r` with total `t != 0` is a
//! move in some component `i` to an option of value `g_i ^ t`, which makes
//! the range's total zero. One always exists in a component whose value has
//! the highest set bit of `t`: there `g_i ^ t < g_i`, and by the definition
//! of the mex some option has every smaller value. (Other components may
//! have winning moves too, to options worth more than the component:
//! [`GameSum::winning_moves`] finds them all.) The first such component is
//! found in `O(log n)` by a [`SegmentTree`] of the values under OR, which
//! skips every subtree none of whose values has that bit; the move is
//! searched among the component's legal moves with [`Solver::moves_to`],
//! never guessed.
//!
//! On a range of value 0 every move loses; the one that leaves the largest
//! value (`g_i ^ v` for a move of component `i` to an option of value `v`)
//! is each component's own best, found once per position and kept in a
//! [`SegmentTree`] under "the larger, else the first" ([`FirstLargest`]).
//!
//! **Cost.** Range value and point update: `O(log n)` after the new position
//! is solved. Winning move: `O(log n)` plus one `moves_to` call. All winning
//! moves: one `moves_to` call per component of the range. Losing move:
//! `O(log n)` once each component of the range was asked for (its options
//! valued once per distinct position).

use std::ops::{Bound, RangeBounds};

use crate::{Game, HashTable, Nimber, Outcome, SolveError, Solver, Table};

mod segment_tree;
mod xor_prefixes;

pub use segment_tree::SegmentTree;
pub use xor_prefixes::XorPrefixes;

/// A value type with an associative operation that has an identity.
///
/// Laws, relied on by [`SegmentTree`]: `a.combine(b.combine(c)) ==
/// a.combine(b).combine(c)` and `a.combine(IDENTITY) == IDENTITY.combine(a)
/// == a`.
pub trait Monoid: Copy {
    /// The identity: the sum of no elements.
    const IDENTITY: Self;
    /// The operation.
    #[must_use]
    fn combine(self, other: Self) -> Self;
}

/// A [`Monoid`] whose operation is also commutative and in which every
/// element is its own inverse, as XOR is: `a.combine(b) == b.combine(a)`
/// and `a.combine(a) == IDENTITY`. Relied on by [`FenwickTree`], where a
/// range is then the sum of two prefixes.
pub trait XorGroup: Monoid + Eq {}

impl Monoid for Nimber {
    const IDENTITY: Nimber = Nimber::ZERO;
    #[inline]
    fn combine(self, other: Nimber) -> Nimber {
        self ^ other
    }
}

impl XorGroup for Nimber {}

/// A machine word under bitwise OR, for a [`SegmentTree`] that finds the
/// first value with some bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitOr<T>(pub T);

macro_rules! monoids_for_words {
    ($($word:ty),*) => {$(
        impl Monoid for $word {
            const IDENTITY: $word = 0;
            #[inline]
            fn combine(self, other: $word) -> $word {
                self ^ other
            }
        }

        impl XorGroup for $word {}

        impl Monoid for BitOr<$word> {
            const IDENTITY: BitOr<$word> = BitOr(0);
            #[inline]
            fn combine(self, other: BitOr<$word>) -> BitOr<$word> {
                BitOr(self.0 | other.0)
            }
        }
    )*};
}

monoids_for_words!(u8, u16, u32, u64, u128, usize);

impl Monoid for bool {
    const IDENTITY: bool = false;
    #[inline]
    fn combine(self, other: bool) -> bool {
        self ^ other
    }
}

impl XorGroup for bool {}

/// A component's best move in a lost range ([`GameSum::losing_move`]): the
/// value it leaves, its rank (the lesser preferred among equal values) and
/// the component. Under "the larger value, else the lesser rank, else the
/// left one", for a [`SegmentTree`] of them. `None` is a component with no
/// move, or none at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FirstLargest(pub Option<(Nimber, u64, u32)>);

impl Monoid for FirstLargest {
    const IDENTITY: FirstLargest = FirstLargest(None);
    #[inline]
    fn combine(self, other: FirstLargest) -> FirstLargest {
        match (self.0, other.0) {
            (Some(left), Some(right))
                if right.0 > left.0 || (right.0 == left.0 && right.1 < left.1) =>
            {
                other
            }
            (None, _) => other,
            _ => self,
        }
    }
}

/// Turns any range of indices into a half-open `[start, end)` within
/// `0..=len`, or `None` when it is reversed or reaches past `len`.
fn half_open(range: &impl RangeBounds<usize>, len: usize) -> Option<(usize, usize)> {
    let start = match range.start_bound() {
        Bound::Included(&start) => start,
        Bound::Excluded(&start) => start.checked_add(1)?,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&end) => end.checked_add(1)?,
        Bound::Excluded(&end) => end,
        Bound::Unbounded => len,
    };
    (start <= end && end <= len).then_some((start, end))
}

/// A sequence of values with point updates and range sums in `O(log n)`,
/// for any [`XorGroup`].
///
/// Indices are 0-based, like a slice's; ranges are any
/// [`RangeBounds<usize>`] (`2..5`, `2..=4`, `..`, ...).
///
/// # Examples
///
/// ```
/// use grundy::sum::FenwickTree;
///
/// let mut tree: FenwickTree<u32> = [1, 2, 4, 8].into_iter().collect();
/// assert_eq!(tree.range(1..=2), 2 ^ 4);
/// tree.set(2, 7);
/// assert_eq!(tree.range(..), 1 ^ 2 ^ 7 ^ 8);
/// assert_eq!(tree.get(2), 7);
/// assert_eq!(tree.get_range(3..9), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenwickTree<T> {
    /// The values themselves, 0-based.
    values: Vec<T>,
    /// Node `i` (1-based; `nodes[0]` is unused) holds the sum of the values
    /// `i - (i & -i) .. i` (0-based, half-open).
    nodes: Vec<T>,
}

impl<T: XorGroup> Default for FenwickTree<T> {
    fn default() -> Self {
        FenwickTree::new()
    }
}

impl<T: XorGroup> FenwickTree<T> {
    /// An empty tree.
    #[must_use]
    pub fn new() -> FenwickTree<T> {
        FenwickTree {
            values: Vec::new(),
            nodes: vec![T::IDENTITY],
        }
    }

    /// A tree over `values`, built in `O(n)`.
    #[must_use]
    pub fn from_values(values: Vec<T>) -> FenwickTree<T> {
        let len = values.len();
        let mut nodes = Vec::with_capacity(len + 1);
        nodes.push(T::IDENTITY);
        nodes.extend_from_slice(&values);
        // Each node passes its sum up to its parent, which covers it.
        for index in 1..=len {
            let parent = index + lowest_bit(index);
            if parent <= len {
                nodes[parent] = nodes[parent].combine(nodes[index]);
            }
        }
        FenwickTree { values, nodes }
    }

    /// The number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values, in order.
    #[must_use]
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The value at `index`.
    ///
    /// # Panics
    ///
    /// When `index >= len()`.
    #[must_use]
    pub fn get(&self, index: usize) -> T {
        self.values[index]
    }

    /// Replaces the value at `index`, returning the old one.
    ///
    /// # Panics
    ///
    /// When `index >= len()`.
    pub fn set(&mut self, index: usize, value: T) -> T {
        let old = std::mem::replace(&mut self.values[index], value);
        let delta = old.combine(value);
        if delta != T::IDENTITY {
            self.add_to_nodes(index, delta);
        }
        old
    }

    /// Combines `delta` into the value at `index`.
    ///
    /// # Panics
    ///
    /// When `index >= len()`.
    pub fn combine_at(&mut self, index: usize, delta: T) {
        self.values[index] = self.values[index].combine(delta);
        self.add_to_nodes(index, delta);
    }

    #[inline]
    fn add_to_nodes(&mut self, index: usize, delta: T) {
        let len = self.values.len();
        let mut node = index + 1;
        while node <= len {
            self.nodes[node] = self.nodes[node].combine(delta);
            node += lowest_bit(node);
        }
    }

    /// Appends a value in `O(log n)`.
    pub fn push(&mut self, value: T) {
        let node = self.values.len() + 1;
        // The new node covers the values `node - lowest_bit(node) .. node`:
        // the new one and the earlier ones, whose sum is a range query.
        let covered = self
            .prefix_unchecked(node - 1)
            .combine(self.prefix_unchecked(node - lowest_bit(node)));
        self.values.push(value);
        self.nodes.push(covered.combine(value));
    }

    /// The sum of the first `end` values.
    #[inline]
    fn prefix_unchecked(&self, end: usize) -> T {
        let mut sum = T::IDENTITY;
        let mut node = end;
        while node > 0 {
            sum = sum.combine(self.nodes[node]);
            node &= node - 1;
        }
        sum
    }

    /// The sum of the values in `range`, or `None` when the range is reversed
    /// or reaches past the end.
    #[inline]
    #[must_use]
    pub fn get_range(&self, range: impl RangeBounds<usize>) -> Option<T> {
        let (start, end) = half_open(&range, self.values.len())?;
        Some(self.range_unchecked(start, end))
    }

    /// The sum of the values `start..end`: the two prefixes' walks meet at
    /// the common high bits of `start` and `end`, and from there on their
    /// nodes would cancel, so both stop there.
    #[inline]
    fn range_unchecked(&self, start: usize, end: usize) -> T {
        let (mut low, mut high) = (start, end);
        let mut sum = T::IDENTITY;
        // `high` drops to the common prefix (at most `low`), then `low`
        // drops to the same node.
        while high > low {
            sum = sum.combine(self.nodes[high]);
            high &= high - 1;
        }
        while low > high {
            sum = sum.combine(self.nodes[low]);
            low &= low - 1;
        }
        sum
    }

    /// The sum of the values in `range` (the identity for an empty range).
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end, as slicing would.
    #[inline]
    #[must_use]
    pub fn range(&self, range: impl RangeBounds<usize>) -> T {
        let len = self.values.len();
        let Some((start, end)) = half_open(&range, len) else {
            panic!("range out of bounds for a FenwickTree of length {len}")
        };
        self.range_unchecked(start, end)
    }

    /// The sum of all values.
    #[must_use]
    pub fn total(&self) -> T {
        self.prefix_unchecked(self.values.len())
    }
}

impl<T: XorGroup> FromIterator<T> for FenwickTree<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> FenwickTree<T> {
        FenwickTree::from_values(iter.into_iter().collect())
    }
}

#[inline]
fn lowest_bit(index: usize) -> usize {
    index & index.wrapping_neg()
}

/// A winning move in a sum: which component, the move there, the position it
/// leads to, and that component's value before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumMove<M, P> {
    /// The component's index (0-based).
    pub index: usize,
    /// The move, in the component's game.
    pub mv: M,
    /// The component's position after the move.
    pub position: P,
    /// The component's value before the move.
    pub from: Nimber,
    /// The component's value after the move (`from ^ total`).
    pub to: Nimber,
}

/// A [`SumMove`] in a sum of positions of the game `G`.
pub type SumMoveOf<G> = SumMove<<G as Game>::Move, <G as Game>::Position>;

/// A row of positions of one [`Game`], each a component of a sum, with
/// point updates, range values and winning moves for any range.
///
/// Each position is solved once when it is put in (the [`Solver`]'s table is
/// kept, so repeated shapes cost a lookup); range values are then `O(log n)`.
/// Indices are 0-based.
///
/// # Examples
///
/// ```
/// use grundy::clear::Clear;
/// use grundy::sum::GameSum;
/// use grundy::{board, Nimber};
///
/// let boards = [board!["0110", "0000"], board!["000", "000"], board!["1", "1"]];
/// let mut sum = GameSum::with_positions(Clear::solver(), boards).unwrap();
/// // A domino is worth 2: two dominoes cancel out.
/// assert_eq!(sum.value(0..3), Nimber::ZERO);
/// assert_eq!(sum.value(1..=2), Nimber::new(2));
/// let win = sum.winning_move(1..=2).unwrap().expect("first player wins");
/// assert_eq!((win.index, win.to), (2, Nimber::ZERO));
/// sum.set(1, board!["001", "000"]).unwrap();
/// assert_eq!(sum.value(..), Nimber::new(1));
/// ```
pub struct GameSum<G: Game, T: Table<G::Key> = HashTable<<G as Game>::Key>> {
    solver: Solver<G, T>,
    positions: Vec<G::Position>,
    values: FenwickTree<Nimber>,
    /// The same values under OR, to find a component with a given bit.
    bits: SegmentTree<BitOr<u32>>,
    /// Each component's move leaving the largest value of its own (the
    /// value a lost range is left with), once found.
    losing: LosingMoves<G>,
}

/// What [`GameSum::losing_move`] keeps: each component's best losing move
/// once asked for, found once per position (a row of equal boards lists one
/// board's options), and the tree of their values.
struct LosingMoves<G: Game> {
    /// Per component: the value its best move leaves, and the component.
    tree: SegmentTree<FirstLargest>,
    /// The components whose best move is not found yet (each put in or
    /// replaced since).
    pending: std::collections::BTreeSet<usize>,
    /// Per position: its first move leaving the largest value, the option,
    /// and that value (`g ^ v`); `None` when it has no move.
    by_position: std::collections::HashMap<G::Position, Option<LosingMoveOf<G>>>,
}

/// A position's move leaving the largest value: the move, the option and
/// the option's value.
type LosingMoveOf<G> = (<G as Game>::Move, <G as Game>::Position, Nimber);

impl<G: Game> LosingMoves<G> {
    fn new(len: usize) -> Self {
        LosingMoves {
            tree: SegmentTree::from_values(vec![FirstLargest(None); len]),
            pending: (0..len).collect(),
            by_position: std::collections::HashMap::new(),
        }
    }

    fn push(&mut self) {
        self.pending.insert(self.tree.len());
        self.tree.push(FirstLargest(None));
    }

    fn forget(&mut self, index: usize) {
        self.pending.insert(index);
        self.tree.set(index, FirstLargest(None));
    }
}

impl<G: Game, T: Table<G::Key>> GameSum<G, T> {
    /// An empty sum that solves its components with `solver`.
    #[must_use]
    pub fn new(solver: Solver<G, T>) -> Self {
        GameSum {
            solver,
            positions: Vec::new(),
            values: FenwickTree::new(),
            bits: SegmentTree::default(),
            losing: LosingMoves::new(0),
        }
    }

    /// A sum of `positions`, each solved once; the tree is built in `O(n)`.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the solver's budget runs out.
    pub fn with_positions(
        mut solver: Solver<G, T>,
        positions: impl IntoIterator<Item = G::Position>,
    ) -> Result<Self, SolveError> {
        let positions: Vec<G::Position> = positions.into_iter().collect();
        let values = positions
            .iter()
            .map(|position| solver.value(position))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GameSum {
            solver,
            losing: LosingMoves::new(positions.len()),
            positions,
            bits: values.iter().map(|v| BitOr(v.value())).collect(),
            values: FenwickTree::from_values(values),
        })
    }

    /// Appends a component, returning its value.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out; the sum is then unchanged.
    pub fn push(&mut self, position: G::Position) -> Result<Nimber, SolveError> {
        let value = self.solver.value(&position)?;
        self.positions.push(position);
        self.values.push(value);
        self.bits.push(BitOr(value.value()));
        self.losing.push();
        Ok(value)
    }

    /// Replaces the component at `index`, returning its new value.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out; the sum is then unchanged.
    ///
    /// # Panics
    ///
    /// When `index >= len()`.
    pub fn set(&mut self, index: usize, position: G::Position) -> Result<Nimber, SolveError> {
        assert!(
            index < self.positions.len(),
            "component {index} out of bounds for a sum of {}",
            self.positions.len()
        );
        let value = self.solver.value(&position)?;
        self.positions[index] = position;
        self.values.set(index, value);
        self.bits.set(index, BitOr(value.value()));
        self.losing.forget(index);
        Ok(value)
    }

    /// The number of components.
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when there are no components.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The components' positions, in order.
    #[must_use]
    pub fn positions(&self) -> &[G::Position] {
        &self.positions
    }

    /// The components' values, in order.
    #[must_use]
    pub fn values(&self) -> &[Nimber] {
        self.values.values()
    }

    /// The value of the sum of the components in `range`.
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    #[must_use]
    pub fn value(&self, range: impl RangeBounds<usize>) -> Nimber {
        self.values.range(range)
    }

    /// Who wins the sum of the components in `range`.
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    #[must_use]
    pub fn outcome(&self, range: impl RangeBounds<usize>) -> Outcome {
        self.value(range).outcome()
    }

    /// A winning move in the sum of the components in `range`: a move in the
    /// first component whose value has the highest set bit of the range's
    /// total, to the option of value `g_i ^ total`. `None` when the total is
    /// zero (the player to move loses).
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out while valuing options.
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    pub fn winning_move(
        &mut self,
        range: impl RangeBounds<usize>,
    ) -> Result<Option<SumMoveOf<G>>, SolveError> {
        let (start, end) = self.checked(&range);
        let total = self.values.range(start..end);
        if total.is_zero() {
            return Ok(None);
        }
        // `g ^ total < g` exactly when `g` has the highest bit of `total`.
        let top_bit = 1 << (31 - total.value().leading_zeros());
        let index = self
            .bits
            .position(start..end, |bits| bits.0 & top_bit != 0)
            .expect("a value with each bit of the total lies in the range");
        Ok(self.moves_in(index, total)?.into_iter().next())
    }

    /// Every winning move in the sum of the components in `range`, component
    /// by component in order, and within one in the order its game yields
    /// them. Empty when the total is zero. Costs a `moves_to` call per
    /// component in the range.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out while valuing options.
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    pub fn winning_moves(
        &mut self,
        range: impl RangeBounds<usize>,
    ) -> Result<Vec<SumMoveOf<G>>, SolveError> {
        let (start, end) = self.checked(&range);
        let total = self.values.range(start..end);
        let mut moves = Vec::new();
        if total.is_zero() {
            return Ok(moves);
        }
        // Not only the components where `g_i ^ total < g_i`: an option may
        // also have a larger value than its position.
        for index in start..end {
            moves.extend(self.moves_in(index, total)?);
        }
        Ok(moves)
    }

    /// On a range of value 0, where every move loses, the move that leaves
    /// the largest value (a move from `g` to `v` in one component leaves
    /// `g ^ v`), and among those the one of least `rank` (for boards, the
    /// fewest cells cleared), then the first, as the engine of `grundy
    /// clear --move` plays a lost position. `None` when the range's value
    /// is not 0 (it has a winning move: [`GameSum::winning_move`]) or it
    /// has no move. A sum keeps each component's best move, so ask one sum
    /// with one `rank`.
    ///
    /// Each component's best move is found once (its options valued, at
    /// most once per distinct position) and kept until the component is
    /// replaced, so a range is `O(log n)` once its components were asked
    /// for.
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the budget runs out while valuing options; the
    /// components valued before are kept.
    ///
    /// # Panics
    ///
    /// When the range is reversed or reaches past the end.
    pub fn losing_move(
        &mut self,
        range: impl RangeBounds<usize>,
        rank: fn(&G::Move) -> u64,
    ) -> Result<Option<SumMoveOf<G>>, SolveError>
    where
        G::Position: Eq + std::hash::Hash,
    {
        let (start, end) = self.checked(&range);
        if !self.values.range(start..end).is_zero() {
            return Ok(None);
        }
        // The kept positions are bounded by the row: once this call could
        // take them past twice its length, replaced positions and all are
        // forgotten together, and every component's best is found again
        // (the tree's entries name moves kept there).
        let len = self.positions.len();
        let due = self.losing.pending.range(start..end).count();
        if self.losing.by_position.len() + due > 2 * len + 1024 {
            self.losing = LosingMoves::new(len);
        }
        let pending: Vec<usize> = self.losing.pending.range(start..end).copied().collect();
        for index in pending {
            let position = &self.positions[index];
            let best = match self.losing.by_position.get(position) {
                Some(best) => best.clone(),
                None => {
                    let from = self.values.get(index);
                    let mut best: Option<LosingMoveOf<G>> = None;
                    for (mv, option, value) in self.solver.options_with_values(position)? {
                        let better = best.as_ref().is_none_or(|b| {
                            from ^ value > from ^ b.2
                                || (from ^ value == from ^ b.2 && rank(&mv) < rank(&b.0))
                        });
                        if better {
                            best = Some((mv, option, value));
                        }
                    }
                    self.losing
                        .by_position
                        .insert(position.clone(), best.clone());
                    best
                }
            };
            let from = self.values.get(index);
            let entry = best.map(|(mv, _, value)| (from ^ value, rank(&mv), index as u32));
            self.losing.tree.set(index, FirstLargest(entry));
            self.losing.pending.remove(&index);
        }
        let Some((_, _, index)) = self.losing.tree.range(start..end).0 else {
            return Ok(None);
        };
        let index = index as usize;
        let (mv, position, to) = self.losing.by_position[&self.positions[index]]
            .clone()
            .expect("a component in the tree has a move");
        Ok(Some(SumMove {
            index,
            mv,
            position,
            from: self.values.get(index),
            to,
        }))
    }

    fn checked(&self, range: &impl RangeBounds<usize>) -> (usize, usize) {
        let len = self.len();
        half_open(range, len)
            .unwrap_or_else(|| panic!("range out of bounds for a sum of {len} components"))
    }

    /// The moves in component `index` that change its value by `total`.
    fn moves_in(&mut self, index: usize, total: Nimber) -> Result<Vec<SumMoveOf<G>>, SolveError> {
        let from = self.values.get(index);
        let to = from ^ total;
        let moves = self.solver.moves_to(&self.positions[index], to)?;
        Ok(moves
            .into_iter()
            .map(|(mv, position)| SumMove {
                index,
                mv,
                position,
                from,
                to,
            })
            .collect())
    }

    /// The solver, for valuing other positions with the same table.
    pub fn solver_mut(&mut self) -> &mut Solver<G, T> {
        &mut self.solver
    }
}

#[cfg(test)]
mod tests;
