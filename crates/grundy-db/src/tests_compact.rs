//! The compact format (version 2): written, resumed, read, converted, and
//! refused when it is another game's, box's or version's, or damaged.

use super::tests::{box_of, build, reseal};
use super::*;
use crate::format::{DIRECTORY, ENTRY_LEN};
use grundy::clear::shapes::ClearShapes;
use grundy::clear::shapes::{ShapeBox, ShapeLookup};
use grundy::clear::ShapeKey;
use grundy::tier::Entry;
use grundy::tier::{solve_tiers, Tier, TierControl, TierError};
use std::path::Path;

/// Builds `shape_box` into `path` in the compact format with the one
/// build entry ([`crate::build`], as `tables build` does), cancelled once
/// `stop_after` tiers are stored when given.
fn build_compact(path: &Path, shape_box: ShapeBox, stop_after: Option<usize>) {
    use grundy::tier::TierProgress;
    use std::sync::atomic::{AtomicBool, Ordering};
    let cancel = AtomicBool::new(false);
    let stop = |p: TierProgress| {
        if let TierProgress::Stored(t) = p {
            if stop_after == Some(t.tier.number() as usize) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    };
    let mut control = TierControl::new();
    control.cancel = Some(&cancel);
    control.progress = Some(&stop);
    match crate::build(path, shape_box, &control, |_| {}) {
        Ok(_) => assert!(stop_after.is_none()),
        Err(crate::BuildFailed::Stopped { reason, kept, .. }) => {
            assert_eq!((reason, Some(kept)), (TierError::Cancelled, stop_after));
        }
        Err(e) => panic!("{e}"),
    }
}

/// Every tier's entries, sorted, through [`DbSet::for_each_tier`].
fn entries_of(set: &DbSet) -> Vec<Vec<Entry>> {
    let mut all = Vec::new();
    set.for_each_tier(|_, entries| {
        all.push(entries.to_vec());
        Ok::<(), DbError>(())
    })
    .unwrap();
    all
}

#[test]
fn a_compact_database_gives_every_shape_its_value_and_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let shape_box = box_of(3, 4);
    let path = dir.path().join("3x4.gdb");
    build_compact(&path, shape_box, None);
    let set = DbSet::open(&path).unwrap();
    assert_eq!(set.version(), VERSION);
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(
        &ClearShapes::new(shape_box),
        &mut tables,
        &TierControl::new(),
        |_, _| Ok(()),
    )
    .unwrap();
    for (tier, table) in tables.iter().enumerate() {
        assert_eq!(set.positions(Tier::at(tier)), table.positions());
        for (key, value) in table.iter() {
            assert_eq!(set.get(key), Some(value), "{key:#x}");
            let shape = ShapeKey::of_board(&shape_box.board(key).unwrap()).unwrap();
            assert_eq!(set.lookup(&shape), Some(value));
        }
    }
    set.check_layout().unwrap();
    for stop in [1, 6, 11] {
        let resumed = dir.path().join(format!("resumed{stop}.gdb"));
        build_compact(&resumed, shape_box, Some(stop));
        assert!(!resumed.exists());
        build_compact(&resumed, shape_box, None);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&resumed).unwrap()
        );
    }
}

/// `convert` keeps every shape's value: compared shape by shape, old
/// (version 1) against new (version 2), on the 5 x 5 and 4 x 6 boxes.
#[test]
fn convert_keeps_every_value_on_the_5x5_and_4x6_boxes() {
    let dir = tempfile::tempdir().unwrap();
    for (rows, cols) in [(5, 5), (4, 6)] {
        let old = dir.path().join(format!("{rows}x{cols}-v1.gdb"));
        let new = dir.path().join(format!("{rows}x{cols}-v2.gdb"));
        build(&old, box_of(rows, cols), None).unwrap();
        convert(&old, &new).unwrap();
        let (old, new) = (DbSet::open(&old).unwrap(), DbSet::open(&new).unwrap());
        assert_eq!((old.version(), new.version()), (VERSION_SLOTS, VERSION));
        let mut shapes = 0u64;
        for tier in entries_of(&old) {
            for entry in tier {
                let key = entry.key();
                assert_eq!(new.get(key).map(|v| v.value()), Some(entry.value().value()));
                shapes += 1;
            }
        }
        assert_eq!(entries_of(&old), entries_of(&new));
        assert_eq!(old.content_crc().unwrap(), new.content_crc().unwrap());
        let bytes = std::fs::metadata(new.path()).unwrap().len();
        // 4 KiB of alignment a tier aside, at most 2 bytes a shape.
        let tiers = (rows * cols) as u64;
        assert!(
            bytes <= 2 * shapes + 4096 * (tiers + 1),
            "{bytes} bytes, {shapes} shapes"
        );
    }
}

#[test]
fn shapes_outside_the_box_and_non_shapes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3.gdb");
    build_compact(&path, box_of(3, 3), None);
    let set = DbSet::open(&path).unwrap();
    // A cell past the box; two components; a shape not in canonical form.
    let outside = 1u64 << 9 | 1;
    let split = 0b101;
    let bottom_row = 0b111 << 6;
    assert_eq!(set.get(outside), None);
    assert_eq!(set.get(split), None);
    assert_eq!(set.get(bottom_row), None);
    // The row itself is there, with the value of the in-memory build.
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(
        &ClearShapes::new(box_of(3, 3)),
        &mut tables,
        &TierControl::new(),
        |_, _| Ok(()),
    )
    .unwrap();
    assert_eq!(set.get(0b111), tables[2].get(0b111));
    assert!(set.get(0b111).is_some());
    // A 3 x 4 board: not in the 3 x 3 box.
    assert_eq!(set.full_board(3, 4), None);
}

#[test]
fn another_game_box_version_or_damage_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x4.gdb");
    build_compact(&path, box_of(3, 4), None);
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path().join("bad.gdb");
    let open = |bytes: &[u8]| {
        std::fs::write(&bad, bytes).unwrap();
        Database::open(&bad)
    };
    // Another game, resealed: refused by name.
    let mut other = good.clone();
    other[16..24].copy_from_slice(b"pawn\0\0\0\0");
    reseal(&mut other);
    assert!(matches!(open(&other), Err(DbError::WrongGame { .. })));
    // Another box, resealed: its counts no longer fit.
    let mut other = good.clone();
    other[28] = 3;
    other[32] = 9;
    reseal(&mut other);
    assert!(open(&other).is_err());
    // Version 1's reading of compact sections, resealed: refused.
    let mut other = good.clone();
    other[8] = 1;
    reseal(&mut other);
    assert!(open(&other).is_err());
    // A future version.
    let mut other = good.clone();
    other[8] = 3;
    assert!(matches!(
        open(&other),
        Err(DbError::Version { found: 3, .. })
    ));
    // Any byte of any section, flipped: its checksum names it.
    let db = Database::open(&path).unwrap();
    for t in &db.header().tiers {
        for at in [
            t.offset,
            t.offset + t.capacity / 2,
            t.offset + t.capacity - 9,
        ] {
            let mut other = good.clone();
            other[at as usize] ^= 0x10;
            assert!(
                matches!(open(&other), Err(DbError::Checksum { .. })),
                "byte {at}"
            );
        }
    }
    // A damaged entry whose checksum was recomputed: a fingerprint, or the
    // layout check, catches most; a value changed in place is for
    // `tables verify` to find (as in version 1).
    let t = db.header().tiers[11];
    let mut other = good.clone();
    let section = t.offset as usize..(t.offset + t.slots * 8) as usize;
    let entries_at = t.offset as usize + 64 + 64;
    // Every field's fingerprint bits flipped (the entries end 8 bytes
    // before the tier does).
    for b in &mut other[entries_at..(t.offset + t.capacity - 8) as usize] {
        *b ^= 0xF0;
    }
    let crc = crc32fast::hash(&other[section]);
    let entry = DIRECTORY + 11 * ENTRY_LEN;
    other[entry + 36..entry + 40].copy_from_slice(&crc.to_le_bytes());
    reseal(&mut other);
    std::fs::write(&bad, &other).unwrap();
    let set = DbSet::open(&bad).unwrap();
    assert!(matches!(set.check_layout(), Err(DbError::Corrupt { .. })));
    // Trailing bytes and a cut file.
    let mut other = good.clone();
    other.push(0);
    assert!(open(&other).is_err());
    assert!(open(&good[..good.len() - 1]).is_err());
}

#[test]
fn a_partial_build_of_the_other_version_is_started_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3.gdb");
    build(&path, box_of(3, 3), Some(4)).unwrap();
    let (writer, views) = Writer::create_or_resume_compact(&path, box_of(3, 3)).unwrap();
    assert!(views.is_empty());
    assert!(writer
        .note()
        .is_some_and(|n| n.contains("format version 1")));
}

/// The 4 x 5 box built into `dir` twice, tables only (version 1) and
/// compact (version 2), both opened.
fn v1_and_v2_of_4x5(dir: &Path) -> (DbSet, DbSet) {
    let shape_box = box_of(4, 5);
    let (v1, v2) = (dir.join("v1.gdb"), dir.join("v2.gdb"));
    build(&v1, shape_box, None).unwrap();
    build_compact(&v2, shape_box, None);
    (DbSet::open(&v1).unwrap(), DbSet::open(&v2).unwrap())
}

/// The value counts read from a compact file's entries alone (no key)
/// equal those of its shapes, listed with their keys regenerated, and those
/// of the same database in version 1, tier by tier.
#[test]
fn value_counts_without_keys_equal_the_shapes_values() {
    let dir = tempfile::tempdir().unwrap();
    let (v1, v2) = v1_and_v2_of_4x5(dir.path());
    let mut tiers = 0;
    v2.for_each_tier(|tier, entries| {
        let mut expected: Vec<u64> = Vec::new();
        for &entry in entries {
            let value = entry.value().value() as usize;
            if expected.len() <= value {
                expected.resize(value + 1, 0);
            }
            expected[value] += 1;
        }
        assert_eq!(v2.value_counts(tier), expected, "tier {tier}");
        assert_eq!(v1.value_counts(tier), expected, "tier {tier}");
        tiers += 1;
        Ok::<(), DbError>(())
    })
    .unwrap();
    assert_eq!(tiers, 20);
    assert!(v2.value_counts(Tier::new(20)).is_empty());
}

/// The size `tables build` warns with before a build ([`estimated_size`]
/// of the tiers' shape counts) is the size of the file the build writes,
/// to within 2% (4 x 5: 20 tiers, the largest of 16,000 shapes), and it
/// is the compact format's, not the 8-byte slots' five times as much.
#[test]
fn the_estimated_size_is_the_written_file_s() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("4x5.gdb");
    build_compact(&path, box_of(4, 5), None);
    let written = std::fs::metadata(&path).unwrap().len();
    let db = Database::open(&path).unwrap();
    let estimate = estimated_size(db.header().tiers.iter().map(|t| t.positions));
    let error = (estimate as f64 - written as f64).abs() / written as f64;
    assert!(
        error < 0.02,
        "estimated {estimate} bytes, written {written}"
    );
}

/// A compact build holds the tiers it solves from
/// [`crate::store::LINES_FROM`] positions in lines (1,000 in these tests),
/// the others compact: every shape of the 4 x 5 box gets the value the
/// tables-only build (version 1) gives it, compared shape by shape.
#[test]
fn tiers_held_in_lines_value_every_shape_as_tables_do() {
    let dir = tempfile::tempdir().unwrap();
    let (v1, v2) = v1_and_v2_of_4x5(dir.path());
    let tiers = entries_of(&v1);
    assert!(tiers
        .iter()
        .any(|t| t.len() as u64 >= crate::store::LINES_FROM));
    for entry in tiers.into_iter().flatten() {
        assert_eq!(
            v2.get(entry.key()).map(|v| v.value()),
            Some(entry.value().value())
        );
    }
}

/// A resumed build holds its large stored tiers in lines again, as the
/// build that solved them did (`FileStore`'s `regenerated`): on the 4 x 5
/// box, whose tiers from 1,000 shapes are held in lines in these tests, a
/// build stopped after 14 tiers reads the file's compact tiers back, turns
/// those of 1,000 shapes or more into lines that give every shape of the
/// tier (the version 1 build's entries) its value (or, told to stop, stay
/// compact), and resumes to the bytes of an unbroken build.
#[test]
fn a_resumed_build_holds_its_large_tiers_in_lines_again() {
    use crate::store::{FileStore, StoredTier, LINES_FROM};
    use grundy::tier::{TierStore, TierValues};
    let dir = tempfile::tempdir().unwrap();
    let (v1, v2) = v1_and_v2_of_4x5(dir.path());
    let stopped = dir.path().join("stopped.gdb");
    build_compact(&stopped, box_of(4, 5), Some(14));
    let mut store = FileStore::open_compact(&stopped, box_of(4, 5)).unwrap();
    let mut views = store.resume(14, 0).unwrap();
    let tiers = entries_of(&v1);
    let mut held_in_lines = 0;
    for (tier, entries) in tiers.iter().enumerate().take(14) {
        let view = &mut views[tier];
        assert!(matches!(view, StoredTier::Compact(_)), "tier {}", tier + 1);
        let keys: Vec<u64> = entries.iter().map(|e| e.key()).collect();
        let large = keys.len() as u64 >= LINES_FROM;
        // Told to stop, a large tier gives up and stays as it was.
        let stopped = store.regenerated(Tier::at(tier), view, &keys, &|| true);
        assert_eq!(stopped.is_err(), large, "tier {}", tier + 1);
        assert!(matches!(view, StoredTier::Compact(_)));
        store
            .regenerated(Tier::at(tier), view, &keys, &|| false)
            .unwrap();
        assert_eq!(
            matches!(view, StoredTier::Lines(_)),
            large,
            "tier {}",
            tier + 1
        );
        held_in_lines += usize::from(large);
        for &entry in entries {
            assert_eq!(view.value(entry.key()), Some(entry.value().value()));
        }
    }
    assert!(held_in_lines > 0);
    drop((views, store));
    build_compact(&stopped, box_of(4, 5), None);
    assert_eq!(
        std::fs::read(v2.path()).unwrap(),
        std::fs::read(&stopped).unwrap()
    );
}

/// A tier's recorded largest value lowered by one in both the compact
/// tier's header and the directory (checksums recomputed): the file opens,
/// as forgeries do, and `check_layout` (the default `tables verify`) finds
/// the value above it. Only a largest value that is not a power of two
/// keeps its field's width, so the forgery is otherwise consistent.
#[test]
fn a_value_above_its_tier_s_recorded_largest_fails_the_layout_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x4.gdb");
    build_compact(&path, box_of(3, 4), None);
    DbSet::open(&path).unwrap().check_layout().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let db = Database::open(&path).unwrap();
    let (index, t) = db
        .header()
        .tiers
        .iter()
        .enumerate()
        .find(|(_, t)| t.max_value >= 3 && !t.max_value.is_power_of_two())
        .expect("a tier whose largest value is not a power of two");
    let lowered = (t.max_value - 1).to_le_bytes();
    let entry = DIRECTORY + index * ENTRY_LEN;
    bytes[entry + 32..entry + 36].copy_from_slice(&lowered);
    let compact_header = t.offset as usize;
    bytes[compact_header + 32..compact_header + 36].copy_from_slice(&lowered);
    let crc = crc32fast::hash(&bytes[t.offset as usize..t.end() as usize]);
    bytes[entry + 36..entry + 40].copy_from_slice(&crc.to_le_bytes());
    reseal(&mut bytes);
    let forged = dir.path().join("forged.gdb");
    std::fs::write(&forged, &bytes).unwrap();
    let set = DbSet::open(&forged).unwrap();
    let err = set.check_layout().unwrap_err();
    assert!(
        matches!(&err, DbError::Corrupt { what, .. }
            if what.contains(&format!("above the tier's recorded largest value {}", t.max_value - 1))),
        "{err}"
    );
}
