//! Rectangle clearing: the 4 x 4 table, the full 5 x 5 and 2 x 16 boards in
//! shapes solved per second (criterion's throughput, in elements: one
//! element is one memoised shape), and the median of 9 random 8 x 8 boards
//! at three densities (a fresh solver per iteration, so every figure
//! includes all the shapes the position needs).
//!
//! The 5 x 5 board lives in the 8 x 8 frame; the 2 x 16 board is wider,
//! so it measures the wide path (the 2 x 32 frame, per-width memo tables),
//! over the first 100,000 shapes of its solve. A shape answered by the small
//! tables (4 x 4, 4 x 5, 2 x 8) is not solved, so it is not counted: the
//! count depends on which tables exist (the full 5 x 5 board solves 238,048
//! shapes, 261,011 without the 4 x 5 table), and the time of the same solve
//! is the fairer comparison across such changes.
//!
//! `dense_block_25` times the value of a dense 7 x 7 block of 25 cells
//! against a move to value 0 found by outcome search (`move_to_zero`, the
//! engine's question), each with a fresh solver.
//!
//! `tiers_4x6` builds every shape of the 4 x 6 box bottom-up on one thread
//! (`ClearShapes` through the tier engine, 263,000 shapes; the throughput
//! is in shapes), the loop of `grundy tables build`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::clear::{table, Board, Clear};
use grundy::tier::{solve_tiers, TierControl, TierError};
use grundy::Budget;

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

/// Shapes solved per second on the full `rows x cols` board, from a fresh
/// solver each time: the whole solve, or its first `budget` shapes (the
/// search stops with a budget error once it has solved that many).
fn bench_full(c: &mut Criterion, rows: usize, cols: usize, budget: Option<u64>) {
    let full = Board::new(rows, cols, 0).expect("size").geometry().full().0;
    let board = Board::new(rows, cols, full).expect("size");
    let budget = Budget {
        max_positions: budget,
        ..Budget::UNLIMITED
    };
    let mut probe = Clear::solver().with_budget(budget);
    let _ = probe.value(&board);
    let shapes = probe.positions_solved();
    drop(probe);
    let mut group = c.benchmark_group("clear");
    group.sample_size(10);
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(5));
    group.throughput(Throughput::Elements(shapes));
    let name = match budget.max_positions {
        None => format!("full_{rows}x{cols}"),
        Some(limit) => format!("full_{rows}x{cols}_first_{limit}"),
    };
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut solver = Clear::solver().with_budget(budget);
            let _ = solver.value(black_box(&board));
            solver.positions_solved()
        })
    });
    group.finish();
}

fn bench_full_5x5(c: &mut Criterion) {
    bench_full(c, 5, 5, None);
}

/// The whole 2 x 16 solve (687,084 shapes) takes a few seconds, so the
/// bench times its first 100,000 shapes: the same board and shapes, a
/// bench that ends in under a minute.
fn bench_full_2x16(c: &mut Criterion) {
    bench_full(c, 2, 16, Some(100_000));
}

/// Boards this far past the median are not benchmarked: the hardest random
/// 8 x 8 boards at density 0.55 need more than three million shapes.
const PROBE_BUDGET: u64 = 3_000_000;

fn bench_random_8x8(c: &mut Criterion) {
    let mut group = c.benchmark_group("clear/random_8x8");
    group.sample_size(10);
    for density in [0.3, 0.45, 0.55] {
        // Solve times of random boards spread over five orders of magnitude,
        // so a mean says little: time each of 9 boards once, then benchmark
        // the median one.
        let boards = random_boards(8, 8, density, 9, 0x9E37_79B9_7F4A_7C15);
        let mut timed: Vec<(std::time::Duration, Board)> = boards
            .into_iter()
            .map(|board| {
                let start = std::time::Instant::now();
                let solved = Clear::solver()
                    .with_budget(Budget::positions(PROBE_BUDGET))
                    .value(&board)
                    .is_ok();
                let time = if solved {
                    start.elapsed()
                } else {
                    std::time::Duration::MAX
                };
                (time, board)
            })
            .collect();
        timed.sort_by_key(|&(time, _)| time);
        eprintln!(
            "density {density}: one-shot solve times of 9 boards: {:?}",
            timed
                .iter()
                .map(|&(time, _)| if time == std::time::Duration::MAX {
                    format!("over {PROBE_BUDGET} shapes")
                } else {
                    format!("{time:.1?}")
                })
                .collect::<Vec<_>>()
        );
        let median = timed[timed.len() / 2].1;
        group.bench_with_input(
            BenchmarkId::new("median_of_9", density),
            &median,
            |b, board| b.iter(|| Clear::solver().value(black_box(board)).expect("no budget")),
        );
    }
    group.finish();
}

fn bench_tiers_4x6(c: &mut Criterion) {
    let game = ClearShapes::new(ShapeBox::new(4, 6).expect("a box"));
    let build = || {
        let mut tiers = Vec::new();
        solve_tiers::<_, TierError, _>(&game, &mut tiers, &TierControl::new(), |_, _| Ok(()))
            .expect("no budget");
        tiers
    };
    let shapes: u64 = build().iter().map(|t| t.positions()).sum();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let mut group = c.benchmark_group("clear");
    group.sample_size(10);
    group.throughput(Throughput::Elements(shapes));
    group.bench_function("tiers_4x6", |b| {
        b.iter(|| pool.install(|| black_box(build())))
    });
    group.finish();
}

/// A dense block of 25 cells (block 7 of `bench/ab-blocks.sh`): its value
/// (every option valued) against a move to value 0 by outcome search, which
/// stops at the first (the engine's question).
fn bench_dense_block(c: &mut Criterion) {
    let rows = [
        "0000001", "0000011", "0001110", "0011110", "1010110", "1111110", "0111110",
    ];
    let cells = rows
        .iter()
        .flat_map(|row| row.bytes())
        .enumerate()
        .fold(0u64, |cells, (i, cell)| {
            cells | u64::from(cell == b'1') << i
        });
    let board = Board::new(7, 7, cells).expect("7 x 7");
    let mut group = c.benchmark_group("clear/dense_block_25");
    group.sample_size(10);
    group.bench_function("value", |b| {
        b.iter(|| Clear::solver().value(black_box(&board)).expect("no budget"))
    });
    group.bench_function("move_to_zero", |b| {
        b.iter(|| {
            Clear::solver()
                .move_to_zero(black_box(&board))
                .expect("no budget")
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_dense_block,
    bench_table,
    bench_tiers_4x6,
    bench_full_5x5,
    bench_full_2x16,
    bench_random_8x8
);
criterion_main!(benches);
