//! Sums of 10^6 components: building the Fenwick tree, point updates, range
//! queries (on the bare `FenwickTree<u8>` the judge uses, and on a
//! `GameSum` of 4 x 4 rectangle-clearing boards), and a winning move on a
//! wide range. Updates and queries run 1000 per iteration at random
//! places from a fixed seed, so the figures are per 1000 operations.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grundy::clear::{value4x4, Board, Clear};
use grundy::sum::{FenwickTree, GameSum};
use grundy::Nimber;

const COMPONENTS: usize = 1_000_000;
const OPERATIONS: usize = 1000;

/// A fixed xorshift stream.
fn stream(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

fn random_ranges(next: &mut impl FnMut() -> u64) -> Vec<(usize, usize)> {
    (0..OPERATIONS)
        .map(|_| {
            let a = (next() % COMPONENTS as u64) as usize;
            let b = (next() % COMPONENTS as u64) as usize;
            (a.min(b), a.max(b))
        })
        .collect()
}

fn bench_fenwick(c: &mut Criterion) {
    let mut next = stream(0x9E37_79B9_7F4A_7C15);
    let values: Vec<u8> = (0..COMPONENTS).map(|_| (next() % 64) as u8).collect();
    let updates: Vec<(usize, u8)> = (0..OPERATIONS)
        .map(|_| ((next() % COMPONENTS as u64) as usize, (next() % 64) as u8))
        .collect();
    let ranges = random_ranges(&mut next);
    let mut group = c.benchmark_group("sum/fenwick_u8_1e6");
    group.bench_function("build", |b| {
        b.iter(|| FenwickTree::from_values(black_box(values.clone())))
    });
    let mut tree = FenwickTree::from_values(values);
    group.throughput(Throughput::Elements(OPERATIONS as u64));
    // A new value every round, so no update is a no-op.
    let mut round = 0u8;
    group.bench_function("1000_updates", |b| {
        b.iter(|| {
            round = round.wrapping_add(1);
            for &(index, value) in &updates {
                tree.set(black_box(index), black_box(value ^ round));
            }
        })
    });
    group.bench_function("1000_range_queries", |b| {
        b.iter(|| {
            ranges
                .iter()
                .fold(0u8, |acc, &(l, r)| acc ^ tree.range(black_box(l)..=r))
        })
    });
    group.finish();
}

fn bench_game_sum(c: &mut Criterion) {
    let mut next = stream(0x2545_F491_4F6C_DD1D);
    let mut board = || Board::new(4, 4, next() & 0xFFFF).expect("4 x 4");
    let boards: Vec<Board> = (0..COMPONENTS).map(|_| board()).collect();
    // Two sets of replacements, used in turn, so updates change values.
    let replacements: [Vec<Board>; 2] =
        [(); 2].map(|()| (0..OPERATIONS).map(|_| board()).collect());
    let mut next = stream(0x5851_F42D_4C95_7F2D);
    let indices: Vec<usize> = (0..OPERATIONS)
        .map(|_| (next() % COMPONENTS as u64) as usize)
        .collect();
    let ranges = random_ranges(&mut next);
    let mut sum = GameSum::with_positions(Clear::solver(), boards).expect("no budget");
    // The table is built before timing.
    let _ = value4x4(0);
    let mut group = c.benchmark_group("sum/game_sum_4x4_1e6");
    group.throughput(Throughput::Elements(OPERATIONS as u64));
    let mut round = 0;
    group.bench_function("1000_updates", |b| {
        b.iter(|| {
            round += 1;
            for (&index, &board) in indices.iter().zip(&replacements[round % 2]) {
                sum.set(black_box(index), board).expect("no budget");
            }
        })
    });
    group.bench_function("1000_range_values", |b| {
        b.iter(|| {
            ranges.iter().fold(Nimber::ZERO, |acc, &(l, r)| {
                acc ^ sum.value(black_box(l)..=r)
            })
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("winning_move_whole_range", |b| {
        b.iter(|| sum.winning_move(black_box(..)).expect("no budget"))
    });
    group.finish();
    // What would be the worst case for a scan of the range: only the last
    // component can answer (the OR segment tree goes straight to it).
    let mut boards = vec![Board::new(4, 4, 0).expect("4 x 4"); COMPONENTS];
    boards[COMPONENTS - 1] = Board::new(4, 4, 1).expect("4 x 4");
    let mut sum = GameSum::with_positions(Clear::solver(), boards).expect("no budget");
    c.bench_function("sum/game_sum_4x4_1e6/winning_move_last_of_1e6", |b| {
        b.iter(|| sum.winning_move(black_box(..)).expect("no budget"))
    });
}

criterion_group!(benches, bench_fenwick, bench_game_sum);
criterion_main!(benches);
