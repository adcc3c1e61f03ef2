use super::*;
use crate::format::{DIRECTORY, ENTRY_LEN};
use crate::header::max_shapes;
use grundy::clear::shapes::ClearShapes;
use grundy::clear::shapes::{ShapeBox, ShapeLookup};
use grundy::clear::ShapeKey;
use grundy::tier::{solve_tiers, Tier, TierControl, TierError};
use grundy::Nimber;
use std::path::{Path, PathBuf};

/// Builds `shape_box` into `path`, stopping after `stop_after` tiers when
/// given (as a build killed there would).
pub(super) fn build(path: &Path, shape_box: ShapeBox, stop_after: Option<usize>) -> Result<()> {
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

pub(super) fn box_of(rows: usize, cols: usize) -> ShapeBox {
    ShapeBox::new(rows, cols).unwrap()
}

/// A fresh temporary directory with a whole build of `shape_box` in it
/// under `name`, and that build's path.
fn built_in_tempdir(name: &str, shape_box: ShapeBox) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    build(&path, shape_box, None).unwrap();
    (dir, path)
}

/// The header decoded from `bytes`, the whole of the file at `path`.
fn header_of(bytes: &[u8], path: &Path) -> Header {
    Header::decode(bytes, bytes.len() as u64, path).unwrap()
}

/// Asserts that the files at `a` and `b` hold the same bytes.
fn assert_same_bytes(a: &Path, b: &Path) {
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
}

/// Runs the build of `shape_box` at `path` to its end and asserts that it
/// holds the bytes of the whole build at `whole`.
fn assert_finishes_as_whole(path: &Path, shape_box: ShapeBox, whole: &Path) {
    build(path, shape_box, None).unwrap();
    assert_same_bytes(whole, path);
}

/// Applies `edit` to the bytes of the partial file of the build at `path`
/// and writes them back, as damage between two runs would.
fn edit_partial_file(path: &Path, edit: impl FnOnce(&mut Vec<u8>, &Path)) {
    let partial = partial_path(path);
    let mut bytes = std::fs::read(&partial).unwrap();
    edit(&mut bytes, &partial);
    std::fs::write(&partial, &bytes).unwrap();
}

/// Opens a writer that resumes the partial file of the build at `path`
/// and gives how many tiers it kept and the note it must have written.
fn resume_note(path: &Path, shape_box: ShapeBox) -> (usize, String) {
    let (writer, tables) = Writer::create_or_resume(path, shape_box).unwrap();
    let note = writer.note().expect("a resumed writer's note").to_owned();
    (tables.len(), note)
}

#[test]
fn a_written_database_reads_back_with_the_same_values() {
    let (_dir, path) = built_in_tempdir("3x4.gdb", box_of(3, 4));
    assert!(!partial_path(&path).exists());
    let db = Database::open(&path).unwrap();
    assert!(db.header().complete);
    assert_eq!(db.header().tiers.len(), 12);
    // Against an in-memory build of the same box.
    let game = ClearShapes::new(box_of(3, 4));
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, _| Ok(())).unwrap();
    for (stored, fresh) in db.tables().unwrap().tiers().iter().zip(&tables) {
        assert_eq!(stored.slots(), fresh.slots());
    }
}

#[test]
fn a_build_stopped_after_a_tier_resumes_to_the_same_bytes() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 4));
    for stop in [1, 5, 11] {
        let resumed = dir.path().join(format!("resumed{stop}.gdb"));
        build(&resumed, box_of(3, 4), Some(stop)).unwrap();
        assert!(!resumed.exists());
        assert!(matches!(
            Database::open(&partial_path(&resumed)),
            Err(DbError::Incomplete { stored, .. }) if stored == stop
        ));
        // Asked by the name the build was given, a reader says the same,
        // not that no such file exists.
        assert!(matches!(
            DbSet::open(&resumed),
            Err(DbError::Incomplete { stored, .. }) if stored == stop
        ));
        assert_finishes_as_whole(&resumed, box_of(3, 4), &whole);
    }
}

/// A reader of a partial file that a running build holds says so (wait
/// for it), not that a build should be run to resume it.
#[test]
fn a_partial_file_a_build_holds_is_named_as_being_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("held.gdb");
    build(&path, box_of(3, 4), Some(5)).unwrap();
    let partial = partial_path(&path);
    let message = |err: DbError| match err {
        err @ DbError::Incomplete { .. } => err.to_string(),
        other => panic!("{other:?}"),
    };
    let free = message(DbSet::open(&path).unwrap_err());
    assert!(
        free.contains("run `grundy tables build` again to resume it"),
        "{free}"
    );
    let building = std::fs::File::open(&partial).unwrap();
    fs4::FileExt::try_lock(&building).unwrap();
    let held = Database::open(&partial).unwrap_err();
    assert!(
        matches!(
            held,
            DbError::Incomplete {
                running: Some(_),
                stored: 5,
                ..
            }
        ),
        "{held:?}"
    );
    let held = message(held);
    assert!(
        held.contains("is writing it now and holds its lock: wait for it to finish"),
        "{held}"
    );
    assert!(
        held.contains(&format!("(process {})", std::process::id())) || !cfg!(target_os = "linux"),
        "{held}"
    );
    drop(building);
    assert!(matches!(
        Database::open(&partial),
        Err(DbError::Incomplete { running: None, .. })
    ));
}

#[test]
fn a_torn_last_section_is_dropped_on_resume() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 3));
    let path = dir.path().join("torn.gdb");
    build(&path, box_of(3, 3), Some(6)).unwrap();
    // Flip a byte of tier 6's section: resume must redo tier 6.
    edit_partial_file(&path, |bytes, partial| {
        let header = header_of(bytes, partial);
        bytes[header.tiers[5].offset as usize + 3] ^= 0x40;
    });
    let (kept, note) = resume_note(&path, box_of(3, 3));
    assert_eq!(kept, 5);
    assert!(
        note.contains("tier 6 is damaged") && note.contains("solving tier 6 again"),
        "{note}"
    );
    assert_finishes_as_whole(&path, box_of(3, 3), &whole);
}

/// A partial file cut short (to its header alone, or inside a section)
/// resumes from the tiers it holds whole, and says which it solves again.
#[test]
fn a_partial_file_cut_short_says_what_it_solves_again() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 3));
    let path = dir.path().join("cut.gdb");
    build(&path, box_of(3, 3), Some(6)).unwrap();
    let sections = header_of(&std::fs::read(partial_path(&path)).unwrap(), &path).tiers;
    edit_partial_file(&path, |bytes, _| {
        bytes.truncate(sections[3].offset as usize + 5)
    });
    let (kept, note) = resume_note(&path, box_of(3, 3));
    assert_eq!(kept, 3);
    assert!(
        note.contains("cut short") && note.contains("solving tiers 4 to 6 again"),
        "{note}"
    );
    // The resume rewrote its header with the 3 tiers it kept.
    edit_partial_file(&path, |bytes, _| bytes.truncate(HEADER_LEN));
    let (kept, note) = resume_note(&path, box_of(3, 3));
    assert_eq!(kept, 0);
    assert!(note.contains("solving tiers 1 to 3 again"), "{note}");
    assert_finishes_as_whole(&path, box_of(3, 3), &whole);
}

#[test]
fn a_flipped_byte_names_its_section() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(3, 3));
    let good = std::fs::read(&path).unwrap();
    let header = header_of(&good, &path);
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
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(2, 3));
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
    other[8] = 3;
    std::fs::write(&path, &other).unwrap();
    assert!(matches!(
        Database::open(&path),
        Err(DbError::Version { found: 3, .. })
    ));
    std::fs::write(&path, b"hello world, this is not a database").unwrap();
    assert!(matches!(
        Database::open(&path),
        Err(DbError::NotADatabase { .. })
    ));
}

#[test]
fn a_directory_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    match Database::open(dir.path()) {
        Err(DbError::Io { error, .. }) => {
            assert_eq!(error.kind(), std::io::ErrorKind::IsADirectory);
        }
        other => panic!("{other:?}"),
    }
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
fn a_convert_or_merge_keeps_a_stopped_builds_tiers() {
    let (dir, source) = built_in_tempdir("source.gdb", box_of(2, 3));
    let out = dir.path().join("out.gdb");
    build(&out, box_of(3, 3), Some(4)).unwrap();
    let partial = partial_path(&out);
    let before = std::fs::read(&partial).unwrap();
    let err = crate::convert(&source, &out).unwrap_err();
    assert!(
        matches!(&err, DbError::StoppedBuild { path, stored: 4, tiers: 9, .. } if *path == partial),
        "{err}"
    );
    assert!(err.to_string().contains("keeps tiers 1 to 4 of 9"), "{err}");
    assert_eq!(std::fs::read(&partial).unwrap(), before, "left as it was");
    assert!(!out.exists());
    // The build resumes from it, and a partial file with no tier stored
    // holds nothing to keep.
    build(&out, box_of(3, 3), None).unwrap();
    let empty = dir.path().join("empty.gdb");
    drop(Writer::create_or_resume(&empty, box_of(3, 3)).unwrap());
    assert!(partial_path(&empty).exists());
    crate::convert(&source, &empty).unwrap();
    assert_same_bytes(&empty, &{
        let again = dir.path().join("again.gdb");
        crate::convert(&source, &again).unwrap();
        again
    });
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

/// Recomputes the header's checksum after an edit (as a crafted file would).
pub(super) fn reseal(bytes: &mut [u8]) {
    let crc = crc32fast::hash(&bytes[..HEADER_LEN - 4]);
    bytes[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
}

fn put_u64(bytes: &mut [u8], at: usize, value: u64) {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

/// The byte offset of field `field` (0 positions, 8 capacity, 16 slots, 24
/// offset) of tier `tier`'s directory entry.
fn entry_at(tier: usize, field: usize) -> usize {
    DIRECTORY + (tier - 1) * ENTRY_LEN + field
}

#[test]
fn a_second_writer_of_the_same_path_is_refused_and_the_first_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.gdb");
    let (mut first, mut tables) = Writer::create_or_resume(&path, box_of(3, 3)).unwrap();
    // While the first holds the partial file: a second build, and a merge
    // (a fresh writer), are refused and leave it alone.
    let busy = Writer::create_or_resume(&path, box_of(3, 3)).unwrap_err();
    assert!(
        matches!(&busy, DbError::Busy { path: p, .. } if *p == partial_path(&path)),
        "{busy}"
    );
    assert!(busy.to_string().contains("another build is writing it"));
    #[cfg(target_os = "linux")]
    assert!(
        matches!(busy, DbError::Busy { holder: Some(pid), .. } if pid == std::process::id()),
        "the holder is this process"
    );
    assert!(matches!(
        Writer::create(&path, box_of(3, 3)),
        Err(DbError::Busy { .. })
    ));
    let game = ClearShapes::new(box_of(3, 3));
    let solved = solve_tiers::<_, BuildStop, _>(&game, &mut tables, &TierControl::new(), |_, t| {
        first.append(t).map_err(BuildStop::Db)
    });
    assert!(solved.is_ok());
    first.finish().unwrap();
    let whole = dir.path().join("whole.gdb");
    build(&whole, box_of(3, 3), None).unwrap();
    assert_same_bytes(&whole, &path);
    // Once it is done, the path is free again.
    build(&path, box_of(3, 3), None).unwrap();
    Database::open(&path).unwrap();
}

#[test]
fn an_empty_or_headerless_partial_file_is_started_afresh_with_a_note() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 3));
    for (name, content) in [
        ("empty.gdb", &b""[..]),
        ("garbage.gdb", &b"not a database at all"[..]),
        ("cut.gdb", &b"GRUNDYDB\x01\0\0\0\0\x10"[..]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(partial_path(&path), content).unwrap();
        let (kept, note) = resume_note(&path, box_of(3, 3));
        assert_eq!(kept, 0);
        assert!(note.contains("starting the build afresh"), "{note}");
        assert!(
            note.contains(&partial_path(&path).display().to_string()),
            "{note}"
        );
        assert_finishes_as_whole(&path, box_of(3, 3), &whole);
    }
}

#[test]
fn a_full_disk_names_the_file_and_the_bytes_and_the_build_resumes() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 4));
    let path = dir.path().join("full.gdb");
    let good = Database::open(&whole).unwrap();
    // The disk fills up in the middle of tier 8's section.
    let tier8 = good.header().tiers[7];
    let limit = tier8.offset + tier8.slots * 4;
    let (mut writer, mut tables) = Writer::create_or_resume(&path, box_of(3, 4)).unwrap();
    writer.set_space_limit(limit);
    let game = ClearShapes::new(box_of(3, 4));
    let Err(BuildStop::Db(err)) =
        solve_tiers::<_, BuildStop, _>(&game, &mut tables, &TierControl::new(), |_, t| {
            writer.append(t).map_err(BuildStop::Db)
        })
    else {
        panic!("the full disk stops the build");
    };
    match &err {
        DbError::NoSpace {
            path: p, needed, ..
        } => {
            assert_eq!(*p, partial_path(&path));
            assert_eq!(*needed, tier8.slots * 8, "tier 8's section");
        }
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("out of disk space"), "{err}");
    assert_eq!(writer.header().tiers.len(), 7);
    drop(writer);
    // With space again, the build resumes to the same bytes.
    assert_finishes_as_whole(&path, box_of(3, 4), &whole);
}

/// The disk is full from the start (Linux's `/dev/full` as the partial
/// file): a named error, no panic.
#[cfg(target_os = "linux")]
#[test]
fn a_partial_file_on_a_full_device_is_no_space() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.gdb");
    std::os::unix::fs::symlink("/dev/full", partial_path(&path)).unwrap();
    let err = Writer::create_or_resume(&path, box_of(2, 2)).unwrap_err();
    assert!(
        matches!(&err, DbError::NoSpace { needed, .. } if *needed == HEADER_LEN as u64),
        "{err}"
    );
}

#[test]
fn a_build_stopped_after_its_last_tier_finishes_to_the_same_bytes() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 3));
    let path = dir.path().join("last.gdb");
    build(&path, box_of(3, 3), Some(9)).unwrap();
    assert_finishes_as_whole(&path, box_of(3, 3), &whole);
}

#[test]
fn crafted_counts_are_errors_not_panics() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(3, 4));
    let good = std::fs::read(&path).unwrap();
    let header = header_of(&good, &path);
    let t5 = header.tiers[4];
    // (tier, field, value): the audit's count whose capacity wraps in u64,
    // counts past the box, counts the slots cannot hold, slots past the
    // file, a section out of place, a value over 12 bits.
    let cases: Vec<(usize, usize, u64)> = vec![
        (5, 0, 0x4000_0000_0000_0001),
        (5, 0, u64::MAX),
        (1, 0, 2),
        (5, 0, t5.positions + 1),
        (5, 8, u64::MAX / 3),
        (5, 16, u64::MAX),
        (5, 16, u64::MAX / 8 + 1),
        (5, 16, t5.capacity),
        (5, 16, t5.slots + 1),
        (5, 24, t5.offset + 8),
        (5, 24, u64::MAX - 7),
        (12, 16, 1 << 40),
    ];
    for (tier, field, value) in cases {
        let mut bad = good.clone();
        put_u64(&mut bad, entry_at(tier, field), value);
        if field == 0 {
            // Keep the capacity consistent where it fits, as a crafter would.
            if let Some(c) = grundy::tier::capacity_for(value) {
                put_u64(&mut bad, entry_at(tier, 8), c);
            }
        }
        reseal(&mut bad);
        let err = Database::from_copy("crafted.gdb", &bad).unwrap_err();
        assert!(
            matches!(
                err,
                DbError::Corrupt { .. } | DbError::Truncated { .. } | DbError::Checksum { .. }
            ),
            "tier {tier} field {field} = {value}: {err}"
        );
    }
    // The largest value, and unused bytes of the header.
    let mut bad = good.clone();
    bad[entry_at(3, 32)..entry_at(3, 36)].copy_from_slice(&5000u32.to_le_bytes());
    reseal(&mut bad);
    assert!(matches!(
        Database::from_copy("crafted.gdb", &bad),
        Err(DbError::Corrupt { .. })
    ));
    for at in [53, entry_at(2, 44), HEADER_LEN - 5] {
        let mut bad = good.clone();
        bad[at] = 1;
        reseal(&mut bad);
        assert!(
            matches!(
                Database::from_copy("crafted.gdb", &bad),
                Err(DbError::Corrupt { .. })
            ),
            "byte {at}"
        );
    }
}

/// A crafted box, tier count or part field is named in the error: what is
/// wrong, not a field it is not.
#[test]
fn crafted_box_tiers_and_parts_are_named() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(4, 5));
    let good = std::fs::read(&path).unwrap();
    let message = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bad = good.clone();
        edit(&mut bad);
        reseal(&mut bad);
        Database::from_copy("crafted.gdb", &bad)
            .unwrap_err()
            .to_string()
    };
    let put_u32 = |bytes: &mut Vec<u8>, at: usize, value: u32| {
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    };
    let turned = message(&|b| {
        put_u32(b, 24, 5);
        put_u32(b, 28, 4);
    });
    assert!(
        turned.contains("box 5 x 4: more rows than columns"),
        "{turned}"
    );
    let tiers = message(&|b| put_u32(b, 32, 19));
    assert!(tiers.contains("19 tiers, the 4x5 box has 20"), "{tiers}");
    let id = message(&|b| put_u64(b, 56, 5));
    assert!(
        id.contains("a whole database (0 parts) with part index 0 and build id 5"),
        "{id}"
    );
    let part = message(&|b| {
        put_u32(b, 44, 3);
        put_u32(b, 48, 2);
    });
    assert!(
        part.contains("part 3 of 2: a part's index must be below"),
        "{part}"
    );
}

/// Every byte of the header's used part set to a few values, the checksum
/// recomputed: an error or a database whose counts its bytes hold, never a
/// panic.
#[test]
fn every_header_byte_crafted_is_an_error_or_a_sound_database() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(2, 3));
    let good = std::fs::read(&path).unwrap();
    for at in 0..DIRECTORY + 6 * ENTRY_LEN {
        for value in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut bad = good.clone();
            bad[at] = value;
            reseal(&mut bad);
            if let Ok(db) = Database::from_copy("crafted.gdb", &bad) {
                let shapes: u64 = db.header().tiers.iter().map(|t| t.positions).sum();
                assert!(shapes <= bad.len() as u64 / 8, "byte {at} = {value}");
            }
        }
    }
}

#[test]
fn padding_and_trailing_bytes_are_rejected() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(3, 4));
    let good = std::fs::read(&path).unwrap();
    let header = header_of(&good, &path);
    // Every padding byte between sections belongs to no checksum: changed,
    // it is refused.
    let mut padding = 0usize;
    for pair in header.tiers.windows(2) {
        for at in [pair[0].end(), pair[1].offset - 1] {
            if at < pair[1].offset {
                padding += 1;
                let mut bad = good.clone();
                bad[at as usize] = 0x5a;
                let err = Database::from_copy("padded.gdb", &bad).unwrap_err();
                assert!(err.to_string().contains("padding"), "{err}");
            }
        }
    }
    assert!(padding > 0, "the 3 x 4 file has padding");
    for tail in [&[0u8][..], &[1], &[0; 4096]] {
        let mut bad = good.clone();
        bad.extend_from_slice(tail);
        let err = Database::from_copy("long.gdb", &bad).unwrap_err();
        assert!(err.to_string().contains("after the last section"), "{err}");
    }
    Database::from_copy("good.gdb", &good).unwrap();
}

/// A value changed and its section's checksum recomputed opens: checksums
/// catch damage, not forgery (`grundy tables verify` re-solves values).
#[test]
fn a_crafted_value_with_its_checksum_recomputed_opens() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(3, 3));
    let mut bytes = std::fs::read(&path).unwrap();
    let header = header_of(&bytes, &path);
    let t9 = header.tiers[8];
    let section = t9.offset as usize..t9.end() as usize;
    let slot = section
        .clone()
        .step_by(8)
        .find(|&at| bytes[at..at + 8] != [0; 8])
        .unwrap();
    bytes[slot] ^= 1;
    let crc = crc32fast::hash(&bytes[section]);
    bytes[entry_at(9, 36)..entry_at(9, 40)].copy_from_slice(&crc.to_le_bytes());
    reseal(&mut bytes);
    let db = Database::from_copy("forged.gdb", &bytes).unwrap();
    let good = Database::open(&path).unwrap();
    let key = ShapeBox::full_key(&box_of(3, 3), 3, 3).unwrap();
    assert_ne!(
        db.tables().unwrap().get(key),
        good.tables().unwrap().get(key)
    );
}

#[test]
fn at_most_binomial_shapes_per_tier() {
    // Pascal's triangle, against the product formula.
    let mut row = vec![1u64];
    for n in 1..=52usize {
        let mut next = vec![1u64; n + 1];
        for k in 1..n {
            next[k] = row[k - 1] + row[k];
        }
        row = next;
        for (k, &c) in row.iter().enumerate() {
            assert_eq!(max_shapes(n, k), c, "C({n}, {k})");
        }
    }
}

/// Shapes moved out of their place (checksums recomputed) are found by
/// `check_layout`; every file a build writes passes it.
#[test]
fn a_shape_out_of_place_fails_the_layout_check() {
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(3, 4));
    DbSet::open(&path).unwrap().check_layout().unwrap();
    let good = std::fs::read(&path).unwrap();
    let header = header_of(&good, &path);
    let t = header.tiers[5];
    let slot = |b: &[u8], i: u64| {
        let at = (t.offset + i * 8) as usize;
        u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
    };
    let occupied: Vec<u64> = (0..t.slots).filter(|&i| slot(&good, i) != 0).collect();
    // Swap two shapes; copy one over another (a duplicate); move a shape
    // to a slot of tier 7 (wrong tier).
    type Forgery<'a> = Box<dyn Fn(&mut Vec<u8>) + 'a>;
    let forgeries: Vec<Forgery<'_>> = vec![
        Box::new(|b| {
            let (i, j) = (occupied[0], occupied[occupied.len() - 1]);
            let (a, c) = (slot(b, i), slot(b, j));
            b[(t.offset + i * 8) as usize..][..8].copy_from_slice(&c.to_le_bytes());
            b[(t.offset + j * 8) as usize..][..8].copy_from_slice(&a.to_le_bytes());
        }),
        Box::new(|b| {
            let (i, j) = (occupied[1], occupied[2]);
            let a = slot(b, i);
            b[(t.offset + j * 8) as usize..][..8].copy_from_slice(&a.to_le_bytes());
        }),
    ];
    for forge in forgeries {
        let mut bad = good.clone();
        forge(&mut bad);
        let crc = crc32fast::hash(&bad[t.offset as usize..t.end() as usize]);
        bad[entry_at(6, 36)..entry_at(6, 40)].copy_from_slice(&crc.to_le_bytes());
        reseal(&mut bad);
        std::fs::write(&path, &bad).unwrap();
        let set = DbSet::open(&path).unwrap();
        let err = set.check_layout().unwrap_err();
        assert!(err.to_string().contains("tier 6"), "{err}");
    }
}

/// A whole database's lookup answers every shape of its box by
/// [`ShapeKey`], as its slot keys do, and refuses shapes outside the box
/// (a longer line, a wider shape) with `None`.
#[test]
fn a_db_set_answers_shape_keys_and_refuses_shapes_outside_its_box() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x4.gdb");
    let shape_box = box_of(3, 4);
    build(&path, shape_box, None).unwrap();
    let set = DbSet::open(&path).unwrap();
    let mut shapes = 0;
    for tier in Tier::all(shape_box.cells()) {
        for table in set.tier(tier) {
            for (key, value) in table.iter() {
                let board = shape_box.board(key).unwrap();
                let shape = ShapeKey::of_board(&board).unwrap();
                assert_eq!(set.lookup(&shape), Some(value), "{key:#x}");
                shapes += 1;
            }
        }
    }
    assert!(shapes > 100);
    for (rows, cols, cells) in [(1, 5, 0b11111), (2, 9, (1 << 18) - 1), (4, 4, 0xFFFF)] {
        let shape = ShapeKey::from_cut(rows, cols, cells).unwrap();
        assert_eq!(set.lookup(&shape), None, "{shape}");
    }
}

/// Discovery opens what each search names: a second search with other
/// paths finds the other database (no process-wide cache), a damaged file
/// in a directory is skipped and reported, a damaged file named is an
/// error, the fallback answers what the databases found lack, and empty
/// entries of the environment's list are left out.
#[test]
fn each_search_opens_its_own_databases() {
    use discover::{DiscoverError, Search};
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    build(&a.join("2x3.gdb"), box_of(2, 3), None).unwrap();
    build(&b.join("1x6.gdb"), box_of(1, 6), None).unwrap();
    let line = ShapeKey::from_cut(1, 6, 0b11_1111).unwrap();
    let l_shape = ShapeKey::from_cut(2, 3, 0b001_111).unwrap();

    let first = Search::with_env(std::slice::from_ref(&a), None, None)
        .open()
        .unwrap();
    assert_eq!(first.sets.len(), 1);
    let first = first.into_lookup(None);
    assert!(first.lookup(&l_shape).is_some());
    assert_eq!(first.lookup(&line), None);

    let second = Search::with_env(std::slice::from_ref(&b), None, None)
        .open()
        .unwrap();
    let second = second.into_lookup(None);
    assert_eq!(second.lookup(&line), Some(Nimber::new(6)));
    assert_eq!(second.lookup(&l_shape), None);

    // Both, and the first as the fallback of the second.
    let both = Search::with_env(std::slice::from_ref(&b), None, None)
        .open()
        .unwrap()
        .into_lookup(Some(DbSet::open(&a.join("2x3.gdb")).unwrap()));
    assert_eq!(both.lookup(&line), Some(Nimber::new(6)));
    assert_eq!(both.lookup(&l_shape), first.lookup(&l_shape));

    // A damaged file in a directory is skipped; named, it is an error.
    let damaged = a.join("damaged.gdb");
    std::fs::write(&damaged, b"GRUNDYDB and nothing else").unwrap();
    let found = Search::with_env(std::slice::from_ref(&a), None, None)
        .open()
        .unwrap();
    assert_eq!(found.sets.len(), 1);
    assert_eq!(found.skipped.len(), 1);
    assert_eq!(found.skipped[0].path, damaged);
    let named = Search::with_env(std::slice::from_ref(&damaged), None, None).open();
    assert!(matches!(named, Err(DiscoverError::Open(_))), "{named:?}");
    // So is a missing file named by the environment.
    let env = dir.path().join("missing.gdb");
    let missing = Search::with_env(&[], Some(env.as_os_str()), None).open();
    assert!(
        matches!(missing, Err(DiscoverError::Open(_))),
        "{missing:?}"
    );
    // Empty entries of the environment are left out, as in `PATH`.
    let mut listed = a.clone().into_os_string();
    listed.push("::");
    let found = Search::with_env(&[], Some(&listed), None).open().unwrap();
    assert_eq!(found.sets.len(), 1);
    let only_empty = Search::with_env(&[], Some(std::ffi::OsStr::new(":")), None)
        .open()
        .unwrap();
    assert!(only_empty.sets.is_empty());
}

/// Makes a FIFO at `path`.
#[cfg(unix)]
fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// A path that is not a regular file is refused at once: a FIFO (whose
/// opening would wait for a writer) and a device (whose reads never end)
/// named, and a FIFO found in a directory skipped.
#[cfg(unix)]
#[test]
fn a_file_that_is_not_regular_is_refused_at_once() {
    use discover::Search;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.gdb");
    make_fifo(&fifo);
    for path in [fifo.as_path(), Path::new("/dev/zero")] {
        let err = Database::open(path).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }
    build(&dir.path().join("2x3.gdb"), box_of(2, 3), None).unwrap();
    let found = Search::with_env(&[dir.path().to_owned()], None, None)
        .open()
        .unwrap();
    assert_eq!(found.sets.len(), 1);
    assert_eq!(found.skipped.len(), 1);
    assert_eq!(found.skipped[0].path, fifo);
}

/// A header naming another game (its checksum right) is refused with the
/// game it names, never read as shapes.
#[test]
fn a_file_of_another_game_is_refused() {
    let (_dir, path) = built_in_tempdir("3x3.gdb", box_of(3, 3));
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        &bytes[16..24],
        b"clear\0\0\0",
        "the game from ClearShapes::id"
    );
    bytes[16..24].copy_from_slice(b"kayles\0\0");
    reseal(&mut bytes);
    let err = Database::from_copy("other.gdb", &bytes).unwrap_err();
    assert!(matches!(err, DbError::WrongGame { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "other.gdb: a database of game `kayles` (kayles 3 x 3), not of rectangle clearing (`clear`)"
    );
}

/// The one build entry, stopped by cancellation after a tier and run
/// again, resumes from the stored tiers to the bytes of an uninterrupted
/// build.
#[test]
fn a_cancelled_build_resumes_to_the_same_bytes() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.gdb");
    let built = crate::build(&whole, box_of(3, 5), &TierControl::new(), |_| {}).unwrap();
    assert_eq!((built.resumed, built.tiers.len()), (0, 15));
    let path = dir.path().join("stopped.gdb");
    let cancel = AtomicBool::new(false);
    let stop = |p: grundy::tier::TierProgress| {
        if let grundy::tier::TierProgress::Stored(t) = p {
            if t.tier == Tier::new(6) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    };
    let mut control = TierControl::new();
    control.cancel = Some(&cancel);
    control.progress = Some(&stop);
    match crate::build(&path, box_of(3, 5), &control, |_| {}) {
        Err(BuildFailed::Stopped { reason, kept, .. }) => {
            assert_eq!((reason, kept), (TierError::Cancelled, 7));
        }
        other => panic!("{other:?}"),
    }
    assert!(!path.exists() && partial_path(&path).exists());
    let mut seen = None;
    let resumed = crate::build(&path, box_of(3, 5), &TierControl::new(), |store| {
        seen = Some(grundy::tier::TierStore::stored(store));
    })
    .unwrap();
    assert_eq!(
        (seen, resumed.resumed, resumed.tiers.len()),
        (Some(7), 7, 8)
    );
    assert_same_bytes(&path, &whole);
}

/// A build stopped in the middle of a tier keeps that tier's solved
/// stretches beside its partial file, synced; run again, it solves only
/// the stretches after them and writes an uninterrupted build's bytes. A
/// damaged stretch, and every one after it, is solved again, never
/// A build whose time runs out before it reads back the stretches an
/// earlier run kept says they are still kept (not that the tier is solved
/// again from its start), and the next build resumes after them.
#[test]
fn a_time_budget_spent_before_the_stretches_are_read_keeps_them() {
    use grundy::tier::BuildConfig;
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.gdb");
    crate::build(&whole, box_of(3, 5), &TierControl::new(), |_| {}).unwrap();
    let cancel = AtomicBool::new(false);
    let on_round = |tier: Tier, round: usize, _: usize| {
        if (tier, round) == (Tier::new(8), 3) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let config = BuildConfig {
        progress_slots: 32,
        on_round: Some(&on_round),
        ..BuildConfig::default()
    };
    let path = dir.path().join("stopped.gdb");
    let mut control = TierControl::new();
    control.cancel = Some(&cancel);
    let first = crate::build_with(&path, box_of(3, 5), &config, &control, |_| {});
    assert!(
        matches!(
            first,
            Err(BuildFailed::Stopped {
                under_way: Some(_),
                ..
            })
        ),
        "{first:?}"
    );
    let kept = std::fs::read(crate::solving::solving_path(&partial_path(&path))).unwrap();
    let mut spent = TierControl::new();
    spent.max_time = Some(std::time::Duration::ZERO);
    let err = crate::build_with(&path, box_of(3, 5), &config, &spent, |_| {}).unwrap_err();
    let message = err.to_string();
    assert!(err.stalled(), "{message}");
    assert!(
        matches!(
            err,
            BuildFailed::Stopped {
                reason: TierError::TimeBudget { .. },
                under_way: None,
                earlier_stretches: true,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        message.contains(
            "keeps tiers 1 to 8 and the solved stretches of tier 9 that an earlier run kept"
        ),
        "{message}"
    );
    assert!(
        !message.contains("solved again from its start"),
        "{message}"
    );
    assert_eq!(
        std::fs::read(crate::solving::solving_path(&partial_path(&path))).unwrap(),
        kept
    );
    cancel.store(false, Ordering::Relaxed);
    crate::build_with(&path, box_of(3, 5), &config, &TierControl::new(), |_| {}).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

/// trusted; the file is gone once the build is done.
#[test]
fn a_build_stopped_inside_a_tier_resumes_after_its_kept_stretches() {
    use grundy::tier::BuildConfig;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.gdb");
    crate::build(&whole, box_of(3, 5), &TierControl::new(), |_| {}).unwrap();
    let whole = std::fs::read(&whole).unwrap();
    let (stop_tier, stop_round, stretch) = (Tier::new(8), 3, 32usize);
    let cancel = AtomicBool::new(false);
    let rounds = Mutex::new(Vec::new());
    let on_round = |tier: Tier, round: usize, _: usize| {
        rounds.lock().unwrap().push((tier, round));
        if (tier, round) == (stop_tier, stop_round) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let config = BuildConfig {
        progress_slots: stretch,
        on_round: Some(&on_round),
        ..BuildConfig::default()
    };
    let path = dir.path().join("stopped.gdb");
    let solving = crate::solving::solving_path(&partial_path(&path));
    let record = 16 + 2 * stretch + 4;
    // Stops at the stretch `stop_round` of tier `stop_tier` and gives the
    // first round of that tier the next run solves.
    let stop_then_resume = |damage: &dyn Fn(&mut Vec<u8>)| {
        cancel.store(false, Ordering::Relaxed);
        let mut control = TierControl::new();
        control.cancel = Some(&cancel);
        match crate::build_with(&path, box_of(3, 5), &config, &control, |_| {}) {
            Err(err @ BuildFailed::Stopped { .. }) => {
                let message = err.to_string();
                let BuildFailed::Stopped {
                    reason,
                    kept,
                    under_way,
                    ..
                } = err
                else {
                    unreachable!()
                };
                assert_eq!((reason, kept), (TierError::Cancelled, stop_tier.index()));
                let (solved, _) = under_way.expect("stretches kept");
                assert_eq!(solved, stop_round * stretch);
                assert!(
                    message.contains("% of tier 9 (its solved stretches)"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
        let mut kept = std::fs::read(&solving).unwrap();
        assert_eq!(kept.len(), 48 + stop_round * record, "synced stretches");
        damage(&mut kept);
        std::fs::write(&solving, &kept).unwrap();
        cancel.store(false, Ordering::Relaxed);
        rounds.lock().unwrap().clear();
        crate::build_with(&path, box_of(3, 5), &config, &TierControl::new(), |_| {}).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        assert!(!solving.exists(), "removed once the build is done");
        std::fs::remove_file(&path).unwrap();
        let first = rounds
            .lock()
            .unwrap()
            .iter()
            .find(|r| r.0 == stop_tier)
            .copied();
        first.map(|r| r.1)
    };
    let flip = |at: usize| move |bytes: &mut Vec<u8>| bytes[at] ^= 1;
    assert_eq!(
        stop_then_resume(&|_| {}),
        Some(stop_round),
        "kept stretches skipped"
    );
    // A value of the second stretch, then its length, flipped: the first
    // stretch is still kept.
    assert_eq!(stop_then_resume(&flip(48 + record + 20)), Some(1));
    assert_eq!(stop_then_resume(&flip(48 + record + 8)), Some(1));
    // The header's layout CRC, or its tier: nothing kept.
    assert_eq!(stop_then_resume(&flip(40)), Some(0));
    assert_eq!(stop_then_resume(&flip(20)), Some(0));
    // The last record cut short by a kill: the whole ones before it kept.
    let cut = |bytes: &mut Vec<u8>| bytes.truncate(bytes.len() - record / 2);
    assert_eq!(stop_then_resume(&cut), Some(stop_round - 1));
}

/// A tier's bytes held for a build read back as they were given.
#[test]
fn tier_bytes_hold_the_bytes_they_are_given() {
    use crate::store::TierBytes;
    let huge = 2 << 20;
    for len in [1, 4096, huge - 1, huge, 3 * huge + 12_345] {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
        let held = TierBytes::new(&bytes).unwrap();
        assert_eq!(held.as_ref(), &bytes[..], "{len} bytes");
    }
}

/// Bytes a stopped build never wrote (here, appended by something else)
/// after the last stored tier of a partial file: the resumed build pads
/// with zeros over them and finishes to the bytes of a whole build.
#[test]
fn bytes_after_the_stored_tiers_of_a_partial_file_are_zeroed_on_resume() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 4));
    for stop in [1, 5, 11] {
        let path = dir.path().join(format!("resumed{stop}.gdb"));
        build(&path, box_of(3, 4), Some(stop)).unwrap();
        edit_partial_file(&path, |bytes, _| bytes.extend_from_slice(&[1; 100]));
        assert_finishes_as_whole(&path, box_of(3, 4), &whole);
    }
}

/// A non-zero byte in the padding between two stored tiers of a partial
/// file (which no checksum covers): the tier after it is redone, and the
/// build finishes to the bytes of a whole build.
#[test]
fn bad_padding_between_stored_tiers_is_redone_on_resume() {
    let (dir, whole) = built_in_tempdir("whole.gdb", box_of(3, 4));
    let path = dir.path().join("padded.gdb");
    build(&path, box_of(3, 4), Some(5)).unwrap();
    edit_partial_file(&path, |bytes, partial| {
        let header = header_of(bytes, partial);
        assert!(header.tiers[0].end() < header.tiers[1].offset);
        bytes[header.tiers[0].end() as usize] = 0x5a;
    });
    let (kept, note) = resume_note(&path, box_of(3, 4));
    assert_eq!(kept, 1);
    assert!(
        note.contains("tier 2 is damaged (bytes that are not zero before it)")
            && note.contains("solving tiers 2 to 5 again"),
        "{note}"
    );
    assert_finishes_as_whole(&path, box_of(3, 4), &whole);
}

/// A finished partial file that readers would refuse (its padding
/// changed behind the writer) is not renamed over the database already at
/// the path.
#[test]
fn a_bad_finished_file_does_not_replace_a_good_one() {
    use std::io::{Seek as _, SeekFrom, Write as _};
    let (_dir, path) = built_in_tempdir("db.gdb", box_of(3, 4));
    let good = std::fs::read(&path).unwrap();
    let (mut writer, mut tables) = Writer::create_or_resume(&path, box_of(3, 4)).unwrap();
    let game = ClearShapes::new(box_of(3, 4));
    solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, t| {
        writer.append(t).unwrap();
        Ok(())
    })
    .unwrap();
    let gap = writer.header().tiers[0].end();
    let mut other = std::fs::OpenOptions::new()
        .write(true)
        .open(partial_path(&path))
        .unwrap();
    other.seek(SeekFrom::Start(gap)).unwrap();
    other.write_all(&[0x5a]).unwrap();
    let err = writer.finish().unwrap_err();
    assert!(
        matches!(&err, DbError::Corrupt { what, .. } if what.contains("padding")),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), good);
}

/// An output that is there and not a regular file (a symbolic link, a
/// FIFO, a directory) is refused before the partial file is made: the
/// finished file's rename would replace it.
#[cfg(unix)]
#[test]
fn a_writer_refuses_an_output_that_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.gdb");
    let link = dir.path().join("link.gdb");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = dir.path().join("fifo.gdb");
    make_fifo(&fifo);
    let sub = dir.path().join("sub.gdb");
    std::fs::create_dir(&sub).unwrap();
    for (path, what) in [
        (&link, "a symbolic link, not a regular file"),
        (&fifo, "a FIFO, not a regular file"),
        (&sub, "directory"),
    ] {
        let err = Writer::create(path, box_of(2, 2)).unwrap_err();
        assert!(
            matches!(&err, DbError::Io { path: p, .. } if p == path),
            "{err}"
        );
        assert!(err.to_string().contains(what), "{err}");
        assert!(!partial_path(path).exists());
    }
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(!target.exists());
}

/// Version 1: a directory entry whose largest value differs from its
/// table's (the header resealed) opens, and `check_layout` names it.
#[test]
fn a_wrong_recorded_largest_value_fails_the_layout_check() {
    let (dir, path) = built_in_tempdir("db.gdb", box_of(3, 4));
    let mut bytes = std::fs::read(&path).unwrap();
    let header = header_of(&bytes, &path);
    let (index, t) = header
        .tiers
        .iter()
        .enumerate()
        .find(|(_, t)| t.max_value > 0)
        .unwrap();
    let tier = index + 1;
    let lowered = t.max_value - 1;
    bytes[entry_at(tier, 32)..entry_at(tier, 36)].copy_from_slice(&lowered.to_le_bytes());
    reseal(&mut bytes);
    let forged = dir.path().join("forged.gdb");
    std::fs::write(&forged, &bytes).unwrap();
    let err = DbSet::open(&forged).unwrap().check_layout().unwrap_err();
    let expected = format!(
        "its largest value is {}, its directory entry says {lowered}",
        t.max_value
    );
    assert!(
        matches!(&err, DbError::Corrupt { what, .. } if what.contains(&expected)),
        "{err}"
    );
}

/// The name a build was given finds the parts it wrote, with or without
/// an extension (`noext` writes `noext.part-R-of-P.gdb`), and no other
/// name's parts (`y.gdb` is not `y.db`).
#[test]
fn the_name_given_to_a_build_finds_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["noext", "x.gdb", "y.db", "a.b.gdb"] {
        let path = dir.path().join(name);
        let part = part_path(&path, 0, 2);
        std::fs::write(&part, b"").unwrap();
        assert_eq!(set::find_first_part(&path).unwrap(), Some(part), "{name}");
    }
    // `noext` and `noext.gdb` name the same parts, as a build of either
    // writes them; another stem finds none.
    assert_eq!(
        set::find_first_part(&dir.path().join("noext.gdb")).unwrap(),
        Some(part_path(&dir.path().join("noext"), 0, 2))
    );
    assert_eq!(set::find_first_part(&dir.path().join("z")).unwrap(), None);
    assert_eq!(
        set::find_first_part(&dir.path().join("y.gdb")).unwrap(),
        None
    );
}

/// The partial files of builds of a path over another number of parts
/// are found by name; this count's own, and other paths', are not.
#[test]
fn partial_files_of_another_part_count_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.gdb");
    let touch = |p: PathBuf| std::fs::write(partial_path(&p), b"").unwrap();
    for r in 0..3 {
        touch(part_path(&path, r, 3));
    }
    touch(part_path(&path, 0, 2));
    touch(path.clone());
    touch(part_path(&dir.path().join("other.gdb"), 0, 3));
    let three: Vec<PathBuf> = (0..3)
        .map(|r| partial_path(&part_path(&path, r, 3)))
        .collect();
    let mut expected = three.clone();
    expected.push(partial_path(&path));
    expected.sort();
    assert_eq!(other_partials(&path, 2), expected);
    let mut expected = three;
    expected.push(partial_path(&part_path(&path, 0, 2)));
    expected.sort();
    assert_eq!(other_partials(&path, 1), expected);
}

/// A build is refused while a build of the same database over another
/// number of parts writes (each locks only its own partial files): a single
/// build beside a partitioned one, and the other way round; once the other
/// is done (its lock let go), the build starts.
#[test]
fn a_build_over_another_part_count_is_refused_while_one_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.gdb");
    let part = |index| Part {
        index,
        parts: 2,
        build_id: 7,
    };
    let part_file = part_path(&path, 0, 2);
    let (writer, _) =
        Writer::create_or_resume_part(&part_file, box_of(3, 3), Some(part(0))).unwrap();
    let busy = Writer::create_or_resume(&path, box_of(3, 3)).unwrap_err();
    assert!(
        matches!(&busy, DbError::Busy { path: p, .. } if *p == partial_path(&part_file)),
        "{busy}"
    );
    drop(writer);
    let (single, _) = Writer::create_or_resume(&path, box_of(3, 3)).unwrap();
    let busy = Writer::create_or_resume_part(&part_path(&path, 1, 2), box_of(3, 3), Some(part(1)))
        .unwrap_err();
    assert!(
        matches!(&busy, DbError::Busy { path: p, .. } if *p == partial_path(&path)),
        "{busy}"
    );
    drop(single);
    Writer::create_or_resume_part(&part_path(&path, 1, 2), box_of(3, 3), Some(part(1))).unwrap();
}

/// A build into a directory that does not exist names the directory.
#[test]
fn a_missing_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let Err(err) = Writer::create(&missing.join("x.gdb"), box_of(3, 3)) else {
        panic!("no directory, no build");
    };
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "{}: no such directory, to write x.gdb.partial in",
            missing.display()
        )),
        "{text}"
    );
}

/// A build holds its partial file exclusively, and `held_by_a_build` sees
/// it; another look at the same moment (its shared lock, as the ranks of a
/// `--local-ranks` build each look at the other builds' files at once) is
/// not a build: the ranks saw each other's look as one, and refused to
/// start under load.
#[test]
fn a_look_at_a_partial_file_is_not_taken_for_a_build() {
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("x.part-0-of-3.gdb.partial");
    std::fs::write(&partial, b"partial").unwrap();
    assert_eq!(held_by_a_build(&partial), None);
    let looking = std::fs::File::open(&partial).unwrap();
    fs4::FileExt::try_lock_shared(&looking).unwrap();
    assert_eq!(held_by_a_build(&partial), None);
    drop(looking);
    let building = std::fs::File::open(&partial).unwrap();
    fs4::FileExt::try_lock(&building).unwrap();
    assert!(held_by_a_build(&partial).is_some());
}
