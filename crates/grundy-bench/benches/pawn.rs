//! The pawn game: building the structures on 10^5 impassable cells
//! (coordinates up to 10^9, a third of them clustered on shared rows and
//! columns, like the judge's largest tests), 10^6 online queries, and the
//! 4096 x 4096 value table with and without impassable cells.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use grundy::pawn::{Blocked, Cell, LosingLines, Outcomes, ValueTable, MAX_COORD};

mod common;

use common::Stream;

/// `count` distinct cells below `max` on both axes, 30% on shared lines.
fn walls(count: usize, max: u64, seed: u64) -> Blocked {
    let mut rng = Stream(seed);
    let mut set = std::collections::HashSet::new();
    while set.len() < count {
        let cell = if rng.below(10) < 3 {
            let (a, b) = (rng.below(max + 1), rng.below(max + 1));
            if rng.below(2) == 0 {
                (a, b)
            } else {
                (b, a)
            }
        } else {
            (rng.below(max + 1), rng.below(max + 1))
        };
        set.insert(cell);
    }
    let cells: Vec<Cell> = set
        .into_iter()
        .map(|(x, y)| Cell::new(x, y).expect("in range"))
        .collect();
    Blocked::new(&cells).expect("distinct")
}

/// Random cells, a third of them near the diagonal.
fn queries(count: usize, seed: u64) -> Vec<Cell> {
    let mut rng = Stream(seed);
    let max = u64::from(MAX_COORD);
    (0..count)
        .map(|_| {
            let x = rng.below(max + 1);
            let y = if rng.below(3) == 0 {
                x.saturating_sub(rng.below(4))
            } else {
                rng.below(max + 1)
            };
            Cell::new(x, y).expect("in range")
        })
        .collect()
}

fn bench_build(c: &mut Criterion) {
    let blocked = walls(100_000, u64::from(MAX_COORD), 0x9E37_79B9_7F4A_7C15);
    let mut group = c.benchmark_group("pawn/build_1e5");
    group.sample_size(20);
    group.bench_function("rows", |b| {
        b.iter(|| LosingLines::rows(black_box(&blocked)))
    });
    group.bench_function("rows_and_columns", |b| {
        b.iter(|| Outcomes::new(black_box(&blocked)))
    });
    group.finish();
}

fn bench_queries(c: &mut Criterion) {
    let blocked = walls(100_000, u64::from(MAX_COORD), 0x9E37_79B9_7F4A_7C15);
    let outcomes = Outcomes::new(&blocked);
    let cells = queries(1_000_000, 12345);
    let mut group = c.benchmark_group("pawn/queries_1e6");
    group.sample_size(10);
    group.bench_function("is_losing", |b| {
        b.iter(|| cells.iter().filter(|&&q| outcomes.is_losing(q)).count())
    });
    group.bench_function("winning_moves", |b| {
        b.iter(|| {
            cells
                .iter()
                .filter_map(|&q| outcomes.winning_moves(q).ok())
                .map(|m| m.len())
                .sum::<usize>()
        })
    });
    group.bench_function("sorted_cursor", |b| {
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        b.iter(|| {
            let mut cursor = outcomes.rows().cursor();
            sorted
                .iter()
                .filter(|q| cursor.classify(q.y(), q.x()) == grundy::pawn::CellKind::Losing)
                .count()
        })
    });
    group.bench_function("sorted_batch", |b| {
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        b.iter(|| {
            grundy::pawn::LosingLines::classify_by_rows(&blocked, &sorted)
                .unwrap()
                .into_iter()
                .filter(|&kind| kind == grundy::pawn::CellKind::Losing)
                .count()
        })
    });
    group.finish();
}

fn bench_values(c: &mut Criterion) {
    let empty = Blocked::empty();
    let sparse = walls(4096 * 4096 / 100, 4095, 77);
    let mut group = c.benchmark_group("pawn/values_4096x4096");
    group.sample_size(10);
    group.bench_function("no_walls", |b| {
        b.iter(|| ValueTable::new(black_box(&empty), 4096, 4096).expect("fits"))
    });
    group.bench_function("walls_1pct", |b| {
        b.iter(|| ValueTable::new(black_box(&sparse), 4096, 4096).expect("fits"))
    });
    group.finish();
}

criterion_group!(benches, bench_build, bench_queries, bench_values);
criterion_main!(benches);
