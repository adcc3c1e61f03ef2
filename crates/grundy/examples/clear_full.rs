//! Times the value of a full `rows x cols` rectangle-clearing board.
//! `cargo run --release -p grundy --example clear_full -- 5 5`
use std::time::Instant;

use grundy::clear::{Board, Clear};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let (rows, cols) = (
        args.first().copied().unwrap_or(5),
        args.get(1).copied().unwrap_or(5),
    );
    let board = Board::new(
        rows,
        cols,
        Board::new(rows, cols, 0).expect("size").geometry().full().0,
    )
    .expect("size");
    let start = Instant::now();
    let mut solver = Clear::solver();
    let value = solver.value(&board).expect("no budget");
    println!(
        "{rows} x {cols}: grundy {value}, {} shapes solved, {:?}",
        solver.positions_solved(),
        start.elapsed()
    );
}
