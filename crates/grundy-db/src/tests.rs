use super::*;
use grundy::clear::shapes::ClearShapes;
use grundy::tier::{solve_tiers, TierControl, TierError};

/// Builds `shape_box` into `path`, stopping after `stop_after` tiers when
/// given (as a build killed there would).
fn build(path: &Path, shape_box: ShapeBox, stop_after: Option<usize>) -> Result<()> {
    let (mut writer, mut tables) = Writer::create_or_resume(path, shape_box)?;
    let game = ClearShapes::new(shape_box);
    let outcome =
        solve_tiers::<_, BuildStop, _>(&game, &mut tables, &TierControl::new(), |_, t| {
            writer.append(t).map_err(BuildStop::Db)?;
            if stop_after == Some(writer.header().tiers.len()) {
                return Err(BuildStop::Stopped);
            }
            Ok(())
        });
    match outcome {
        Ok(()) => writer.finish().map(|_| ()),
        Err(BuildStop::Stopped) => Ok(()),
        Err(BuildStop::Db(e)) => Err(e),
        Err(BuildStop::Tier(e)) => panic!("{e}"),
    }
}

enum BuildStop {
    Stopped,
    Db(DbError),
    Tier(TierError),
}

impl From<TierError> for BuildStop {
    fn from(e: TierError) -> Self {
        BuildStop::Tier(e)
    }
}

fn box_of(rows: usize, cols: usize) -> ShapeBox {
    ShapeBox::new(rows, cols).unwrap()
}

#[test]
fn a_written_database_reads_back_with_the_same_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x4.gdb");
    build(&path, box_of(3, 4), None).unwrap();
    assert!(!partial_path(&path).exists());
    let db = Database::open(&path).unwrap();
    assert!(db.header().complete);
    assert_eq!(db.header().tiers.len(), 12);
    // Against an in-memory build of the same box.
    let game = ClearShapes::new(box_of(3, 4));
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, _| Ok(())).unwrap();
    for (stored, fresh) in db.tables().tiers().iter().zip(&tables) {
        assert_eq!(stored.slots(), fresh.slots());
    }
}

#[test]
fn a_build_stopped_after_a_tier_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.gdb");
    build(&whole, box_of(3, 4), None).unwrap();
    for stop in [1, 5, 11] {
        let resumed = dir.path().join(format!("resumed{stop}.gdb"));
        build(&resumed, box_of(3, 4), Some(stop)).unwrap();
        assert!(!resumed.exists());
        assert!(matches!(
            Database::open(&partial_path(&resumed)),
            Err(DbError::Incomplete { stored, .. }) if stored == stop
        ));
        build(&resumed, box_of(3, 4), None).unwrap();
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&resumed).unwrap()
        );
    }
}

#[test]
fn a_torn_last_section_is_dropped_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.gdb");
    build(&whole, box_of(3, 3), None).unwrap();
    let path = dir.path().join("torn.gdb");
    build(&path, box_of(3, 3), Some(6)).unwrap();
    // Flip a byte of tier 6's section: resume must redo tier 6.
    let partial = partial_path(&path);
    let mut bytes = std::fs::read(&partial).unwrap();
    let header = Header::decode(&bytes, bytes.len() as u64, &partial).unwrap();
    bytes[header.tiers[5].offset as usize + 3] ^= 0x40;
    std::fs::write(&partial, &bytes).unwrap();
    build(&path, box_of(3, 3), None).unwrap();
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&path).unwrap()
    );
}

#[test]
fn a_flipped_byte_names_its_section() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.gdb");
    build(&path, box_of(3, 3), None).unwrap();
    let good = std::fs::read(&path).unwrap();
    let header = Header::decode(&good, good.len() as u64, &path).unwrap();
    for (tier, entry) in header.tiers.iter().enumerate() {
        let mut bad = good.clone();
        bad[entry.offset as usize + (entry.slots as usize * 8) / 2] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let err = Database::open(&path).unwrap_err();
        assert!(
            matches!(&err, DbError::Checksum { section, .. } if *section == format!("tier {}", tier + 1)),
            "{err}"
        );
    }
    let mut bad = good.clone();
    bad[30] ^= 1;
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(
        Database::open(&path),
        Err(DbError::Checksum { section, .. }) if section == "header"
    ));
}

#[test]
fn truncation_version_and_garbage_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.gdb");
    build(&path, box_of(2, 3), None).unwrap();
    let good = std::fs::read(&path).unwrap();
    for cut in [0, 5, 100, HEADER_LEN, good.len() - 1] {
        std::fs::write(&path, &good[..cut]).unwrap();
        let err = Database::open(&path).unwrap_err();
        assert!(
            matches!(
                err,
                DbError::Truncated { .. } | DbError::NotADatabase { .. }
            ),
            "cut at {cut}: {err}"
        );
    }
    let mut other = good.clone();
    other[8] = 2;
    std::fs::write(&path, &other).unwrap();
    assert!(matches!(
        Database::open(&path),
        Err(DbError::Version { found: 2, .. })
    ));
    std::fs::write(&path, b"hello world, this is not a database").unwrap();
    assert!(matches!(
        Database::open(&path),
        Err(DbError::NotADatabase { .. })
    ));
}

#[test]
fn a_partial_build_of_another_box_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.gdb");
    build(&path, box_of(2, 3), Some(2)).unwrap();
    assert!(matches!(
        build(&path, box_of(3, 3), None),
        Err(DbError::BoxMismatch { .. })
    ));
}

#[test]
fn an_unwritable_output_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("db.gdb");
    assert!(matches!(
        build(&path, box_of(2, 2), None),
        Err(DbError::Io { .. })
    ));
}
