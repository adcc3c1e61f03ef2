//! Cross-checks of the range structures against plain loops: a XOR over a
//! slice for [`FenwickTree`], and brute-force values (plain mex recursion
//! over every rectangle, no table, no decomposition) for [`GameSum`].

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::clear::{Board, Clear};
use crate::MexSet;

/// A change to a tree under test.
#[derive(Clone, Debug)]
enum Change {
    Set(usize, u32),
    CombineAt(usize, u32),
    Push(u32),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (any::<usize>(), 0u32..1000).prop_map(|(i, v)| Change::Set(i, v)),
        (any::<usize>(), 0u32..1000).prop_map(|(i, v)| Change::CombineAt(i, v)),
        (0u32..1000).prop_map(Change::Push),
    ]
}

fn plain_xor(values: &[u32]) -> u32 {
    values.iter().fold(0, |acc, v| acc ^ v)
}

/// Every range of the tree, in every spelling, against the slice.
fn check_every_range(tree: &FenwickTree<u32>, plain: &[u32]) -> Result<(), TestCaseError> {
    let len = plain.len();
    prop_assert_eq!(tree.values(), plain);
    prop_assert_eq!(tree.total(), plain_xor(plain));
    prop_assert_eq!(tree.range(..), plain_xor(plain));
    for start in 0..=len {
        prop_assert_eq!(tree.range(start..), plain_xor(&plain[start..]));
        prop_assert_eq!(tree.range(..start), plain_xor(&plain[..start]));
        for end in start..=len {
            let expected = plain_xor(&plain[start..end]);
            prop_assert_eq!(tree.range(start..end), expected);
            prop_assert_eq!(tree.get_range(start..end), Some(expected));
            if end > start {
                prop_assert_eq!(tree.range(start..=end - 1), expected);
            }
        }
        // Reversed and too-long ranges are refused, not wrapped.
        prop_assert_eq!(tree.get_range(start..len + 1), None);
        if start > 0 {
            prop_assert_eq!(tree.get_range(start..start - 1), None);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn fenwick_matches_a_plain_xor_under_random_changes(
        initial in proptest::collection::vec(0u32..1000, 0..24),
        changes in proptest::collection::vec(change(), 0..24),
    ) {
        let mut tree = FenwickTree::from_values(initial.clone());
        let mut plain = initial;
        check_every_range(&tree, &plain)?;
        for change in changes {
            match change {
                Change::Set(index, value) if !plain.is_empty() => {
                    let index = index % plain.len();
                    prop_assert_eq!(tree.set(index, value), plain[index]);
                    plain[index] = value;
                }
                Change::CombineAt(index, delta) if !plain.is_empty() => {
                    let index = index % plain.len();
                    tree.combine_at(index, delta);
                    plain[index] ^= delta;
                }
                Change::Push(value) => {
                    tree.push(value);
                    plain.push(value);
                }
                _ => {}
            }
            check_every_range(&tree, &plain)?;
        }
    }

    /// Built by pushes or in one go, the tree is the same.
    #[test]
    fn pushing_builds_the_same_tree(values in proptest::collection::vec(any::<u8>(), 0..40)) {
        let mut pushed = FenwickTree::new();
        values.iter().for_each(|&v| pushed.push(v));
        prop_assert_eq!(pushed, FenwickTree::from_values(values));
    }
}

#[test]
#[should_panic(expected = "range out of bounds")]
fn a_reversed_range_panics_like_a_slice() {
    let tree: FenwickTree<u8> = [1, 2, 3].into_iter().collect();
    #[allow(clippy::reversed_empty_ranges)]
    let _ = tree.range(2..1);
}

/// Every rectangle of a `rows x cols` board, as masks, by plain loops.
fn rect_masks(rows: usize, cols: usize) -> Vec<u64> {
    let mut masks = Vec::new();
    for top in 0..rows {
        for bottom in top..rows {
            for left in 0..cols {
                for right in left..cols {
                    let mut mask = 0;
                    for r in top..=bottom {
                        for c in left..=right {
                            mask |= 1u64 << (r * cols + c);
                        }
                    }
                    masks.push(mask);
                }
            }
        }
    }
    masks
}

/// Plain mex recursion over every rectangle, memoised on the raw cells.
#[derive(Default)]
struct Brute {
    memo: HashMap<(usize, usize, u64), u32>,
}

impl Brute {
    fn value(&mut self, board: &Board) -> u32 {
        self.raw(board.rows(), board.cols(), board.cells().0)
    }

    fn raw(&mut self, rows: usize, cols: usize, cells: u64) -> u32 {
        if let Some(&v) = self.memo.get(&(rows, cols, cells)) {
            return v;
        }
        let mut seen = MexSet::new();
        for rect in rect_masks(rows, cols) {
            if cells & rect == rect {
                seen.insert(Nimber::new(self.raw(rows, cols, cells ^ rect)));
            }
        }
        let v = seen.mex().value();
        self.memo.insert((rows, cols, cells), v);
        v
    }
}

/// Small boards of mixed sizes (a sum need not be of equal boards).
fn small_board() -> impl Strategy<Value = Board> {
    (1usize..=3, 1usize..=4, any::<u64>()).prop_map(|(rows, cols, cells)| {
        Board::new(rows, cols, cells & ((1 << (rows * cols)) - 1)).expect("fits")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Values, outcomes and winning moves of every range, under random
    /// replacements, against brute force.
    #[test]
    fn game_sum_matches_brute_force(
        boards in proptest::collection::vec(small_board(), 1..8),
        updates in proptest::collection::vec((any::<usize>(), small_board()), 0..6),
    ) {
        let mut brute = Brute::default();
        let mut sum = GameSum::with_positions(Clear::solver(), boards.clone()).unwrap();
        let mut plain = boards;
        for step in 0..=updates.len() {
            let values: Vec<u32> = plain.iter().map(|b| brute.value(b)).collect();
            prop_assert_eq!(
                sum.values().iter().map(|v| v.value()).collect::<Vec<_>>(),
                values.clone()
            );
            for start in 0..plain.len() {
                for end in start + 1..=plain.len() {
                    let total = plain_xor(&values[start..end]);
                    prop_assert_eq!(sum.value(start..end).value(), total);
                    prop_assert_eq!(sum.outcome(start..=end - 1), Nimber::new(total).outcome());
                    let win = sum.winning_move(start..end).unwrap();
                    let all = sum.winning_moves(start..end).unwrap();
                    // Every legal move of every component in the range that
                    // leaves a zero total, by brute force.
                    let mut expected = Vec::new();
                    for index in start..end {
                        for rect in rect_masks(plain[index].rows(), plain[index].cols()) {
                            let cells = plain[index].cells().0;
                            if cells & rect == rect {
                                let after = brute.raw(plain[index].rows(), plain[index].cols(), cells ^ rect);
                                if after ^ values[index] ^ total == 0 {
                                    expected.push((index, cells ^ rect));
                                }
                            }
                        }
                    }
                    expected.sort_unstable();
                    let mut found: Vec<(usize, u64)> =
                        all.iter().map(|m| (m.index, m.position.cells().0)).collect();
                    found.sort_unstable();
                    prop_assert_eq!(&found, &expected);
                    for m in &all {
                        prop_assert_eq!(plain[m.index].try_play(m.mv), Ok(m.position));
                        prop_assert_eq!(m.from.value(), values[m.index]);
                        prop_assert_eq!(m.to.value(), values[m.index] ^ total);
                    }
                    // On a lost range, the move leaving the largest value:
                    // by brute force, the largest `g ^ v` over every legal
                    // move of the range, and the first component with it.
                    let losing = sum.losing_move(start..end, rect_area).unwrap();
                    // (The largest value, then the fewest cells cleared.)
                    let mut largest: Option<(u32, u32, usize)> = None;
                    for index in start..end {
                        for rect in rect_masks(plain[index].rows(), plain[index].cols()) {
                            let cells = plain[index].cells().0;
                            if cells & rect == rect {
                                let after = brute.raw(plain[index].rows(), plain[index].cols(), cells ^ rect);
                                let leaves = after ^ values[index];
                                let area = rect.count_ones();
                                if largest.is_none_or(|(l, a, _)| leaves > l || (leaves == l && area < a)) {
                                    largest = Some((leaves, area, index));
                                }
                            }
                        }
                    }
                    match (&losing, total) {
                        (Some(m), 0) => {
                            prop_assert_eq!(plain[m.index].try_play(m.mv), Ok(m.position));
                            prop_assert_eq!(m.from.value(), values[m.index]);
                            prop_assert_eq!(m.to.value(), brute.value(&m.position));
                            let area = u32::try_from(rect_area(&m.mv)).unwrap();
                            prop_assert_eq!(Some(((m.from ^ m.to).value(), area, m.index)), largest);
                        }
                        (None, 0) => prop_assert_eq!(largest, None),
                        (found, _) => prop_assert!(found.is_none()),
                    }
                    match win {
                        None => prop_assert_eq!(total, 0),
                        Some(m) => {
                            prop_assert!(all.contains(&m));
                            // The first component whose value has the
                            // total's highest bit: there a move must exist.
                            let first = (start..end).find(|&i| values[i] ^ total < values[i]);
                            prop_assert_eq!(Some(m.index), first);
                        }
                    }
                }
            }
            if let Some((index, board)) = updates.get(step) {
                let index = index % plain.len();
                let value = sum.set(index, *board).unwrap();
                prop_assert_eq!(value.value(), brute.value(board));
                plain[index] = *board;
            }
        }
    }
}

/// The cells a move clears.
fn rect_area(rect: &crate::clear::Rect) -> u64 {
    u64::from(rect.bottom - rect.top + 1) * u64::from(rect.right - rect.left + 1)
}

/// Nim: each component is one heap, of value its size. Not a board game, so
/// the sum works for any [`Game`].
struct Heap;

impl Game for Heap {
    type Position = u32;
    type Move = u32;
    type Key = u32;
    fn for_each_option<F: FnMut(u32, u32)>(&self, heap: &u32, mut visit: F) {
        (0..*heap).for_each(|to| visit(heap - to, to));
    }
    fn key(&self, heap: &u32) -> u32 {
        *heap
    }
}

#[test]
fn any_game_makes_a_sum() {
    let mut sum = GameSum::new(Solver::new(Heap));
    for heap in [3, 5, 6, 300] {
        sum.push(heap).unwrap();
    }
    assert_eq!(sum.value(..3), Nimber::new(3 ^ 5 ^ 6));
    // 3 ^ 5 ^ 6 = 0: the first three heaps are lost for the player to move.
    assert_eq!(sum.winning_move(0..3).unwrap(), None);
    // Every move loses there; the largest value a move leaves is 7: heap 5
    // down to 2 (5 xor 2), or heap 6 down to 1, and heap 5 comes first.
    let lose = sum.losing_move(0..3, |_| 0).unwrap().expect("a move");
    assert_eq!((lose.index, lose.position, lose.to), (1, 2, Nimber::new(2)));
    assert_eq!(sum.losing_move(.., |_| 0).unwrap(), None);
    let win = sum.winning_move(..).unwrap().expect("a non-zero total");
    // Only the big heap has the total's top bit: take all of it.
    assert_eq!((win.index, win.mv, win.position), (3, 300, 0));
    sum.set(3, 7).unwrap();
    let win = sum.winning_move(..).unwrap().expect("a non-zero total");
    // 3 ^ 5 ^ 6 ^ 7 = 7: heaps 5, 6 and 7 have its top bit; the first is taken.
    assert_eq!((win.index, win.position), (1, 5 ^ 7));
}

/// The kept best moves are bounded by the row: past twice its length (plus
/// 1,024) they are forgotten together, and a component valued before is
/// found again, not looked up where it is gone (probe V: a panic on
/// `move 3 3` after 1,100 pairs of equal boards set in turn).
#[test]
fn losing_moves_forgotten_past_their_bound_are_found_again() {
    let empty = Board::new(4, 4, 0).unwrap();
    let row = [empty, empty, Board::new(1, 3, 0b101).unwrap()];
    let mut sum = GameSum::with_positions(Clear::solver(), row).unwrap();
    // "101" is worth 1 xor 1 = 0; clearing an end cell leaves 1.
    let first = sum.losing_move(2..3, rect_area).unwrap().expect("a move");
    assert_eq!((first.index, first.to), (2, Nimber::new(1)));
    for cells in 1..1100u64 {
        let board = Board::new(4, 4, cells).unwrap();
        sum.set(0, board).unwrap();
        sum.set(1, board).unwrap();
        let pair = sum.losing_move(0..2, rect_area).unwrap().expect("a move");
        assert!(pair.index < 2);
    }
    assert_eq!(sum.losing_move(2..3, rect_area).unwrap(), Some(first));
}
