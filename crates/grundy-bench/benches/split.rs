//! The splitting game: random 60 x 60 at density 0.5 (the C++ editorial DP
//! takes about 15 s), 100 x 100 at density 0.3, and a 10^9 x 10^9 grid with
//! 300 candidates on 40 shared rows and 40 shared columns. A fresh solver
//! per iteration, so every figure includes building the whole table.
//!
//! `split_dp_threads`: the dense DP alone on random 60 x 60 and 100 x 100
//! grids at density 0.5, in rayon pools of 1 and 2 threads, so the two
//! figures of one run give the speed-up of the second core.
//!
//! `split_engine`: the engine's move (`choose_move`) on a point-symmetric
//! random 121 x 121 grid at density 1/2, far past any table: the pair
//! search proves the move at the centre first (its cost is the canonical
//! forms of the rectangles, about 7,000 candidates each way).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grundy::split::{Cell, DenseTable, Grid, Pattern, Position, SplitSolver};
use grundy::Budget;

/// A fixed-seed xorshift stream, so runs compare.
fn stream(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

fn random_grid(rows: u32, cols: u32, density: f64, seed: u64) -> Position {
    let mut next = stream(seed);
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if (next() % 1_000_000) as f64 / 1_000_000.0 < density {
                cells.push(Cell::new(r, c));
            }
        }
    }
    Position::new(Grid::new(u64::from(rows), u64::from(cols), cells).expect("valid"))
}

/// 300 distinct candidates on 40 rows and 40 columns spread over a
/// 10^9 x 10^9 grid.
fn huge_sparse(seed: u64) -> Position {
    let mut next = stream(seed);
    let rows: Vec<u32> = (0..40).map(|i| i * 24_000_000 + 12_345).collect();
    let cols: Vec<u32> = (0..40).map(|i| i * 24_500_000 + 777).collect();
    let mut cells = std::collections::BTreeSet::new();
    while cells.len() < 300 {
        let r = rows[(next() % 40) as usize];
        let c = cols[(next() % 40) as usize];
        cells.insert(Cell::new(r, c));
    }
    Position::new(Grid::new(1_000_000_000, 1_000_000_000, cells).expect("valid"))
}

fn bench_split(c: &mut Criterion) {
    let mut group = c.benchmark_group("split");
    group.sample_size(10);
    let cases = [
        (
            "random_60x60_d0.5",
            random_grid(60, 60, 0.5, 0x9E37_79B9_7F4A_7C15),
        ),
        (
            "random_100x100_d0.3",
            random_grid(100, 100, 0.3, 0x2545_F491_4F6C_DD1D),
        ),
        ("huge_1e9_300_on_40x40", huge_sparse(0xDEAD_BEEF_CAFE_F00D)),
    ];
    for (name, position) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| {
                SplitSolver::new()
                    .value(black_box(position))
                    .expect("no budget")
            })
        });
    }
    group.finish();
}

fn bench_dp_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("split_dp_threads");
    group.sample_size(10);
    for (name, side, seed) in [
        ("random_60x60_d0.5", 60, 0x9E37_79B9_7F4A_7C15),
        ("random_100x100_d0.5", 100, 0x5851_F42D_4C95_7F2D),
    ] {
        let position = random_grid(side, side, 0.5, seed);
        let grid = position.grid();
        let pattern = Pattern::from_cells(
            grid.candidates()
                .iter()
                .map(|c| (u64::from(c.row), u64::from(c.col))),
        );
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            group.bench_with_input(BenchmarkId::new(name, threads), &pattern, |b, pattern| {
                b.iter(|| {
                    pool.install(|| {
                        DenseTable::build(
                            black_box(pattern),
                            Budget::UNLIMITED,
                            std::time::Instant::now(),
                            &mut |_, _| {},
                        )
                        .expect("no budget")
                        .root()
                    })
                })
            });
        }
    }
    group.finish();
}

fn bench_engine(c: &mut Criterion) {
    let side = 121u32;
    let random = random_grid(side, side, 0.5, 0xC0FFEE);
    let mut cells: Vec<Cell> = random.grid().candidates().to_vec();
    cells.extend(
        random
            .grid()
            .candidates()
            .iter()
            .map(|c| Cell::new(side - 1 - c.row, side - 1 - c.col)),
    );
    cells.push(Cell::new(side / 2, side / 2));
    cells.sort_by_key(|c| (c.row, c.col));
    cells.dedup();
    let position =
        Position::new(Grid::new(u64::from(side), u64::from(side), cells).expect("valid"));
    let budget = Budget {
        max_time: Some(std::time::Duration::from_secs(5)),
        ..Budget::UNLIMITED
    };
    let mut group = c.benchmark_group("split_engine");
    group.sample_size(10);
    group.bench_function("symmetric_121x121_d0.5", |b| {
        b.iter(|| grundy::split::choose_move(black_box(&position), budget, 1 << 30));
    });
    group.finish();
}

criterion_group!(benches, bench_split, bench_dp_threads, bench_engine);
criterion_main!(benches);
