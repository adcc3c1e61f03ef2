//! Boards of any size (`grundy::clear::large`): the canonical form of a
//! full 3000 x 3000 board (seven images under the square's symmetries,
//! four of them transposes), and the first 10,000 rectangles of its
//! listing, which the value search and the engine read before they copy
//! and label any option.
//!
//! `cargo bench -p grundy-bench --bench large`

use criterion::{criterion_group, criterion_main, Criterion};
use grundy::clear::large::{LargeBoard, ShapeClass};
use std::hint::black_box;

fn full(rows: u32, cols: u32) -> LargeBoard {
    let mut board = LargeBoard::zeros(u64::from(rows), u64::from(cols)).unwrap();
    for row in 0..rows {
        board.set_run(row, 0, cols);
    }
    board
}

fn large(c: &mut Criterion) {
    let board = full(3000, 3000);
    c.bench_function("large_class/full_3000x3000", |b| {
        b.iter(|| ShapeClass::of_cut(black_box(&board)));
    });
    c.bench_function("large_rects/first_10000_of_full_3000x3000", |b| {
        b.iter(|| {
            let mut listed = 0u32;
            black_box(&board).for_each_rect_while(|rect| {
                black_box(rect);
                listed += 1;
                listed < 10_000
            });
            listed
        });
    });
}

criterion_group!(benches, large);
criterion_main!(benches);
