//! The 4 x 5 and 2 x 8 tables are built on demand, and only for a search:
//! with a shape database that holds a position, its moves and their values
//! come from the database and nothing is built (issue 20: a full 5 x 5
//! board answered by the CLI in about the time of a 4 x 4 one).
//!
//! This file is its own test binary, so its process starts with the tables
//! unbuilt (they are process-wide, built at most once): the test sees both
//! states. The oracle for the database's answers is the tables themselves,
//! which the engine's unit tests check against brute force.

use std::sync::Arc;

use grundy::clear::shapes::{ClearShapes, ShapeBox, ShapeLookup, ShapeTables};
use grundy::clear::table::{built_2x8, built_4x5, small_tables_ready, warm_small_tables};
use grundy::clear::{Board, Clear};
use grundy::tier::{solve_tiers, TierControl, TierError};
use grundy::Nimber;

/// Every tier of a box, solved in memory.
fn database(rows: usize, cols: usize) -> Arc<dyn ShapeLookup> {
    let shape_box = ShapeBox::new(rows, cols).expect("a box");
    let mut tiers = Vec::new();
    solve_tiers::<_, TierError, _>(
        &ClearShapes::new(shape_box),
        &mut tiers,
        &TierControl::new(),
        |_, _| Ok(()),
    )
    .expect("no budget");
    Arc::new(ShapeTables::new(shape_box, tiers).expect("every tier"))
}

/// Boards of a 4 x 5 grid, full and random (a fixed xorshift, so the run is
/// the same every time), with about 3 of 4 cells set.
fn boards() -> Vec<Board> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = vec![Board::new(4, 5, (1 << 20) - 1).expect("4 x 5")];
    for _ in 0..200 {
        let cells = (next() | next()) & ((1 << 20) - 1);
        out.push(Board::new(4, 5, cells).expect("4 x 5"));
    }
    out
}

type Options = Vec<(grundy::clear::Rect, Nimber)>;

fn options(clear: Clear, board: &Board) -> (Nimber, Options) {
    let mut solver = clear.into_solver();
    let value = solver.value(board).expect("no budget");
    let moves = solver
        .options_with_values(board)
        .expect("no budget")
        .into_iter()
        .map(|(mv, _, value)| (mv, value))
        .collect();
    (value, moves)
}

// One test: the tables are process-wide, and tests of one binary run in
// parallel threads, so the order of the steps must be this function's.
#[test]
fn a_database_answers_without_building_and_a_search_builds_the_tables() {
    let neither_built = || built_4x5().is_none() && built_2x8().is_none();
    assert!(neither_built(), "nothing built the tables yet");
    let box_4x5 = database(4, 5);
    let boards = boards();
    let from_database: Vec<_> = boards
        .iter()
        .map(|board| options(Clear::with_shapes(box_4x5.clone()), board))
        .collect();
    assert!(
        neither_built(),
        "the database holds every shape of these boards: nothing to build"
    );

    // A full 5 x 5 board with a database of a smaller box is searched, and
    // the search builds the tables.
    let board = Board::new(5, 5, (1 << 25) - 1).expect("5 x 5");
    let searched = Clear::with_shapes(database(2, 3))
        .into_solver()
        .value(&board)
        .expect("no budget");
    assert!(small_tables_ready(), "a search builds the tables");
    assert_eq!(searched, Clear::new().into_solver().value(&board).unwrap());

    warm_small_tables();
    for (board, got) in boards.iter().zip(&from_database) {
        assert_eq!(*got, options(Clear::new(), board), "{board:?}");
    }
}
