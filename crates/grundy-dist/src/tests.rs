//! The partitioned build against the single-process one, shape by shape,
//! with ranks as threads ([`LocalComm`]).

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{solve_tiers, TierControl, TierError, TierTable};
use grundy_db::DbSet;

use super::*;

/// The single-process build: the oracle.
fn single(shape_box: ShapeBox) -> Vec<TierTable> {
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(
        &ClearShapes::new(shape_box),
        &mut tables,
        &TierControl::new(),
        |_, _| Ok(()),
    )
    .unwrap();
    tables
}

/// Runs `build` on `ranks` threads, each with options from `opts(rank)`.
fn run<F>(ranks: u32, opts: F) -> Vec<Result<Report, DistError>>
where
    F: Fn(u32) -> Options<'static> + Send + Sync + 'static,
{
    let opts = Arc::new(opts);
    let handles: Vec<_> = LocalComm::group(ranks)
        .into_iter()
        .map(|comm| {
            let opts = Arc::clone(&opts);
            std::thread::spawn(move || build(&comm, &opts(comm.rank())))
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// The database at `out` holds exactly `expected`: every tier, joined from
/// its parts, has the single build's bytes.
fn assert_same(out: &Path, expected: &[TierTable]) {
    let set = DbSet::open(out).unwrap();
    assert_eq!(set.shape_box().cells(), expected.len());
    for (i, want) in expected.iter().enumerate() {
        let joined: Vec<u64> = set.tier(i + 1).flat_map(entries).collect();
        let joined = TierTable::from_entries(joined).unwrap();
        assert_eq!(joined.slots(), want.slots(), "tier {}", i + 1);
    }
}

fn boxed(a: usize, b: usize) -> ShapeBox {
    ShapeBox::new(a, b).unwrap()
}

#[test]
fn every_rank_count_and_exchange_gives_the_single_build() {
    let shape_box = boxed(4, 4);
    let expected = single(shape_box);
    for ranks in 1..=3u32 {
        for exchange in [Exchange::Replicate, Exchange::Query, Exchange::Auto] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("clear-4x4.gdb");
            let out2 = out.clone();
            let results = run(ranks, move |_| {
                let mut o = Options::new(shape_box, out2.clone());
                o.exchange = exchange;
                // Room for the lower tiers only: auto switches mid-build.
                o.memory = Some(4096);
                o.batch = 100;
                o.round_bytes = 512;
                o
            });
            for r in &results {
                let report = r.as_ref().unwrap();
                assert_eq!(report.ranks, ranks);
                let queried = report
                    .tiers
                    .iter()
                    .filter(|t| t.mode == Mode::Queried)
                    .count();
                match (ranks, exchange) {
                    (1, _) | (_, Exchange::Replicate) => assert_eq!(queried, 0),
                    (_, Exchange::Query) => assert_eq!(queried, 15, "all but tier 1"),
                    (_, Exchange::Auto) => assert!(queried > 0 && queried < 15, "{queried}"),
                }
            }
            assert_same(&out, &expected);
        }
    }
}

#[test]
fn one_rank_writes_the_single_build_file() {
    let shape_box = boxed(3, 5);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one.gdb");
    let o = out.clone();
    run(1, move |_| Options::new(shape_box, o.clone()))[0]
        .as_ref()
        .unwrap();
    let single_file = dir.path().join("single.gdb");
    let (mut writer, _) = Writer::create_or_resume(&single_file, shape_box).unwrap();
    for table in single(shape_box) {
        writer.append(&table).unwrap();
    }
    writer.finish().unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&single_file).unwrap()
    );
}

#[test]
fn five_by_five_over_three_ranks_matches_and_reports_full_boards() {
    let shape_box = boxed(5, 5);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clear-5x5.gdb");
    let o = out.clone();
    let results = run(3, move |_| {
        let mut opts = Options::new(shape_box, o.clone());
        opts.memory = Some(1 << 20);
        opts
    });
    let report = results[0].as_ref().unwrap();
    assert_same(&out, &expected);
    let tables = grundy::clear::shapes::ShapeTables::new(shape_box, expected).unwrap();
    assert!(!report.full_boards.is_empty());
    for &(a, b, v) in &report.full_boards {
        assert_eq!(Some(v), tables.full_board(a, b), "{a} x {b}");
    }
    // Every shape once over the ranks: the single build's count.
    let single_count: u64 = tables.tiers().iter().map(TierTable::positions).sum();
    assert_eq!(report.own_shapes.iter().sum::<u64>(), single_count);
    assert!(report.sent.iter().all(|&s| s > 0));
}

/// A box longer than 8 (built in a wide frame) over 2 ranks, querying:
/// the single build's tables and full boards.
#[test]
fn a_wide_box_over_two_ranks_matches_the_single_build() {
    let shape_box = boxed(2, 12);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clear-2x12.gdb");
    let o = out.clone();
    let results = run(2, move |_| {
        let mut opts = Options::new(shape_box, o.clone());
        opts.exchange = Exchange::Query;
        opts
    });
    let report = results[0].as_ref().unwrap();
    assert_same(&out, &expected);
    let tables = grundy::clear::shapes::ShapeTables::new(shape_box, expected).unwrap();
    assert!(report
        .full_boards
        .iter()
        .any(|&(a, b, _)| (a, b) == (2, 12)));
    for &(a, b, v) in &report.full_boards {
        assert_eq!(Some(v), tables.full_board(a, b), "{a} x {b}");
    }
}

#[test]
fn mismatched_options_stop_every_rank() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.gdb");
    let results = run(2, move |rank| {
        Options::new(boxed(3, 3 + rank as usize), out.clone())
    });
    for r in results {
        match r {
            Err(DistError::Mismatch(m)) => {
                assert!(m.contains("rank 1 was given other options"), "{m}")
            }
            other => panic!("{other:?}"),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.gdb");
    let results = run(2, move |rank| {
        let mut o = Options::new(boxed(3, 3), out.clone());
        o.binary = u64::from(rank);
        o
    });
    for r in results {
        assert!(matches!(r, Err(DistError::Mismatch(m)) if m.contains("another grundy binary")));
    }
}

#[test]
fn a_stopped_build_resumes_to_the_same_database() {
    let shape_box = boxed(4, 4);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.gdb");
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let log: &'static (dyn Fn(&str) + Sync) = Box::leak(Box::new(|line: &str| {
        if line.starts_with("tier  6:") {
            cancel.store(true, Ordering::Relaxed);
        }
    }));
    let o = out.clone();
    let results = run(3, move |_| {
        let mut opts = Options::new(shape_box, o.clone());
        opts.cancel = Some(cancel);
        opts.log = Some(log);
        opts.exchange = Exchange::Query;
        opts
    });
    for r in results {
        match r {
            Err(DistError::Stopped { reason, kept }) => {
                assert_eq!((reason, kept), (TierError::Cancelled, 6));
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(DbSet::open(&out).is_err(), "no complete database yet");
    cancel.store(false, Ordering::Relaxed);
    let o = out.clone();
    let results = run(3, move |_| {
        let mut opts = Options::new(shape_box, o.clone());
        opts.exchange = Exchange::Query;
        opts
    });
    for r in &results {
        assert_eq!(r.as_ref().unwrap().resumed, 6);
    }
    assert_same(&out, &expected);
}

#[test]
fn a_part_from_another_build_restarts_every_part() {
    let shape_box = boxed(3, 4);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.gdb");
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let log: &'static (dyn Fn(&str) + Sync) = Box::leak(Box::new(|line: &str| {
        if line.starts_with("tier  4:") {
            cancel.store(true, Ordering::Relaxed);
        }
    }));
    let o = out.clone();
    let results = run(2, move |_| {
        let mut opts = Options::new(shape_box, o.clone());
        opts.cancel = Some(cancel);
        opts.log = Some(log);
        opts
    });
    assert!(results
        .iter()
        .all(|r| matches!(r, Err(DistError::Stopped { kept: 4, .. }))));
    // Rank 1's partial file is lost: nothing can be resumed.
    std::fs::remove_file(grundy_db::partial_path(&part_path(&out, 1, 2))).unwrap();
    cancel.store(false, Ordering::Relaxed);
    let o = out.clone();
    let results = run(2, move |_| Options::new(shape_box, o.clone()));
    for r in &results {
        assert_eq!(r.as_ref().unwrap().resumed, 0);
    }
    assert_same(&out, &expected);
}
