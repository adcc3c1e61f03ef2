//! Rectangle clearing: the 4 x 4 table, the full 5 x 5 board, and random
//! 8 x 8 boards at three densities (a fresh solver per iteration, so every
//! figure includes all the shapes the position needs).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grundy::clear::{table, Board, Clear};

/// Random `rows x cols` boards with each cell a one with probability
/// `density`, from a fixed xorshift seed so runs compare.
fn random_boards(rows: usize, cols: usize, density: f64, count: usize, seed: u64) -> Vec<Board> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let mut cells = 0u64;
            for i in 0..rows * cols {
                if (next() % 1_000_000) as f64 / 1_000_000.0 < density {
                    cells |= 1 << i;
                }
            }
            Board::new(rows, cols, cells).expect("fits")
        })
        .collect()
}

fn bench_table(c: &mut Criterion) {
    c.bench_function("clear/table_4x4_build", |b| {
        b.iter(|| black_box(table::build()))
    });
}

fn bench_full_5x5(c: &mut Criterion) {
    let board = Board::new(5, 5, (1 << 25) - 1).expect("5 x 5");
    let mut group = c.benchmark_group("clear");
    group.sample_size(10);
    group.bench_function("full_5x5", |b| {
        b.iter(|| Clear::solver().value(black_box(&board)).expect("no budget"))
    });
    group.finish();
}

fn bench_random_8x8(c: &mut Criterion) {
    let mut group = c.benchmark_group("clear/random_8x8");
    group.sample_size(10);
    for density in [0.3, 0.45, 0.55] {
        let boards = random_boards(8, 8, density, 8, 0x9E37_79B9_7F4A_7C15);
        group.bench_with_input(
            BenchmarkId::from_parameter(density),
            &boards,
            |b, boards| {
                // One board per iteration, cycling through the set: the median
                // is the median board's time.
                let mut i = 0;
                b.iter(|| {
                    let board = &boards[i % boards.len()];
                    i += 1;
                    Clear::solver().value(black_box(board)).expect("no budget")
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_table, bench_full_5x5, bench_random_8x8);
criterion_main!(benches);
