//! Opening a shape database and reading one value: mapped in place
//! (`Database::open`, the `unsafe` map of `grundy-db/src/database.rs`)
//! against read into memory first (`std::fs::read`, then
//! `Database::from_copy`). Both check every section's checksum, so both
//! read the whole file once; the copy adds a second pass over fresh
//! memory, and keeps the whole table in the process's own pages where a
//! map shares the page cache. The file is the built-in 5 x 5 database
//! (0.6 MB); `GRUNDY_BENCH_DB=PATH` times another one (a 6 x 6 database is
//! about 1.6 GB).
//!
//! `cargo bench -p grundy-bench --bench open`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use grundy_db::{Database, DbSet};

fn database_path() -> PathBuf {
    std::env::var_os("GRUNDY_BENCH_DB").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../grundy-builtin/data/clear-5x5.gdb"),
        PathBuf::from,
    )
}

/// The value of the first shape of the largest tier: a read of one entry.
fn one_value(db: Database) -> Option<grundy::Nimber> {
    let set = DbSet::whole(db);
    let full = set.shape_box();
    set.full_board(full.rows(), full.cols())
}

fn bench_open(c: &mut Criterion) {
    let path = database_path();
    let mut group = c.benchmark_group("db_open");
    group.sample_size(20);
    group.bench_function("map", |b| {
        b.iter(|| one_value(Database::open(black_box(&path)).expect("a database")))
    });
    group.bench_function("read_and_copy", |b| {
        b.iter(|| {
            let bytes = std::fs::read(black_box(&path)).expect("readable");
            one_value(Database::from_copy("copy", &bytes).expect("a database"))
        })
    });
    group.finish();
}

criterion_group!(benches, bench_open);
criterion_main!(benches);
