//! The tests' oracle for rectangle clearing: plain mex recursion over whole
//! boards (no components, tables or canonical forms), with the values it
//! has found kept per thread across cases, and the small random boards the
//! property tests draw.

use std::cell::RefCell;
use std::collections::HashMap;

use grundy::clear::{Bitboard, Board};
use grundy::{MexSet, Nimber};
use proptest::prelude::*;

std::thread_local! {
    /// Without it a full 3 x 4 board's recursion takes seconds, and a case
    /// may ask for thirty boards after moves.
    static VALUES: RefCell<HashMap<Board, Nimber>> = RefCell::default();
}

/// The value of `board` by the mex of its options' values.
pub(crate) fn brute(board: &Board) -> Nimber {
    if let Some(value) = VALUES.with(|memo| memo.borrow().get(board).copied()) {
        return value;
    }
    let mut seen = MexSet::new();
    board.for_each_rect(|rect, _| seen.insert(brute(&board.play_unchecked(rect))));
    let value = seen.mex();
    VALUES.with(|memo| memo.borrow_mut().insert(*board, value));
    value
}

/// Boards of up to 3 x 4 with random cells.
pub(crate) fn small_board() -> impl Strategy<Value = Board> {
    (1usize..=3, 1usize..=4, any::<u64>()).prop_map(|(rows, cols, bits)| {
        Board::new(rows, cols, bits & Bitboard::below((rows * cols) as u32).0).unwrap()
    })
}
