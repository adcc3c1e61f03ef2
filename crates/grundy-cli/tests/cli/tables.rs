//! `grundy tables build | info | verify`, and `--tables` in the other
//! commands.

use std::path::{Path, PathBuf};
use std::process::Output;

use grundy::clear::{Board, Clear};

use crate::common::{assert_success, grundy};

/// `grundy ARGS PATH`: the run's output, whatever its exit.
fn run_on(args: &[&str], path: &Path) -> Output {
    grundy().args(args).arg(path).output().unwrap()
}

/// `grundy tables build --box SHAPE_BOX EXTRA --out OUT`: the run's
/// output, whatever its exit.
fn build_with(shape_box: &str, extra: &[&str], out: &Path) -> Output {
    grundy()
        .args(["tables", "build", "--box", shape_box])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Asserts that a run succeeded, and its standard output parsed as JSON.
fn success_json(output: &Output) -> serde_json::Value {
    assert_success(output);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Asserts that the files at `a` and `b` hold the same bytes.
fn assert_same_file(a: &Path, b: &Path) {
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
}

/// `grundy tables build --box SHAPE_BOX --out DIR/clear-SHAPE_BOX.gdb`,
/// which must succeed: the database's path.
fn build(dir: &Path, shape_box: &str) -> PathBuf {
    let out = dir.join(format!("clear-{shape_box}.gdb"));
    let output = build_with(shape_box, &[], &out);
    assert_success(&output);
    out
}

/// `tables build --box 4x5 --keep-every 100 --out OUT`: tiers solved in
/// stretches of 100 shapes kept beside the partial file.
fn build_4x5_in_stretches(out: &Path) -> std::process::Output {
    build_with("4x5", &["--keep-every", "100"], out)
}

/// A database of format version 1 (tables of 8-byte slots, still read),
/// written through the library as builds before version 2 wrote it.
fn build_v1(dir: &Path, rows: usize, cols: usize) -> PathBuf {
    use grundy::clear::shapes::{ClearShapes, ShapeBox};
    use grundy::tier::{solve_tiers, TierControl, TierError};
    let out = dir.join(format!("clear-{rows}x{cols}-v1.gdb"));
    let shape_box = ShapeBox::new(rows, cols).unwrap();
    let (mut writer, mut tables) = grundy_db::Writer::create_or_resume(&out, shape_box).unwrap();
    solve_tiers::<_, TierError, _>(
        &ClearShapes::new(shape_box),
        &mut tables,
        &TierControl::new(),
        |_, t| {
            writer.append(t).unwrap();
            Ok(())
        },
    )
    .unwrap();
    writer.finish().unwrap();
    out
}

/// A partitioned build over `ranks` threads (`--local-ranks`) into the
/// parts of `out`; it must succeed.
fn build_parts(out: &Path, shape_box: &str, ranks: &str, extra: &[&str]) -> std::process::Output {
    let output = grundy()
        .args([
            "tables",
            "build",
            "--box",
            shape_box,
            "--local-ranks",
            ranks,
        ])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert_success(&output);
    output
}

/// The value of the full `rows x cols` board by the top-down solver.
fn top_down_full(rows: usize, cols: usize) -> u32 {
    let board = Board::new(rows, cols, (1u64 << (rows * cols)) - 1).unwrap();
    Clear::solver().value(&board).unwrap().value()
}

fn assert_exit(output: &std::process::Output, code: i32, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "stderr: {stderr}");
    assert!(stderr.contains(what), "expected {what:?} in {stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `tables info --values` names the box and lists each full board in
/// `boards` with the top-down solver's value.
fn assert_info_agrees_with_top_down(
    db: &Path,
    shape_box: &str,
    tiers: usize,
    boards: &[(usize, usize)],
) {
    let info = run_on(&["tables", "info", "--values"], db);
    assert_success(&info);
    let text = String::from_utf8(info.stdout).unwrap();
    assert!(
        text.contains(&format!("box {shape_box} ({tiers} tiers)")),
        "{text}"
    );
    for &(a, b) in boards {
        let line = format!("  {a} x {b}: {}\n", top_down_full(a, b));
        assert!(text.contains(&line), "{line:?} in {text}");
    }
}

/// `tables verify` with `extra` options and `samples` random shapes: it
/// succeeds, every sample agrees, and its report is returned.
fn verify_agrees(db: &Path, samples: u32, extra: &[&str]) -> String {
    let samples_arg = samples.to_string();
    let verify = grundy()
        .args(["tables", "verify", "--samples", &samples_arg])
        .args(extra)
        .arg(db)
        .output()
        .unwrap();
    assert_success(&verify);
    let text = String::from_utf8(verify.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "{samples} random shapes re-solved by the engine (its 4 x 5 and 2 x 8 tables, else a top-down search) agree"
        )),
        "{text}"
    );
    text
}

#[test]
fn build_info_and_verify_agree_with_the_top_down_solver() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "3x4");
    assert_info_agrees_with_top_down(
        &db,
        "3x4",
        12,
        &[(1, 4), (2, 2), (2, 3), (2, 4), (3, 3), (3, 4)],
    );
    verify_agrees(&db, 200, &[]);
    // Past the database's shapes, each is checked once, and said so (a
    // count this large, drawn one by one, would run for hours).
    let verify = grundy()
        .args(["tables", "verify", "--samples", "99999999999"])
        .arg(&db)
        .output()
        .unwrap();
    assert_success(&verify);
    let text = String::from_utf8(verify.stdout).unwrap();
    assert!(
        text.contains("shapes (--samples 99999999999 covers them) re-solved by the engine"),
        "{text}"
    );
}

#[test]
fn bad_boxes_are_usage_errors() {
    for (bad, what) in [
        ("9x9", "not supported"),
        ("7x8", "not supported"),
        ("5x9", "not supported"),
        ("3x17", "not supported"),
        ("0x4", "a side is zero"),
        ("8x9", "a box of 8 x 9 is not supported"),
        ("six", "ROWSxCOLS"),
        ("6xq", "not a number"),
    ] {
        let output = grundy()
            .args([
                "tables",
                "build",
                "--box",
                bad,
                "--out",
                "/nonexistent/x.gdb",
            ])
            .output()
            .unwrap();
        assert_exit(&output, 2, what);
    }
}

#[test]
fn damaged_databases_are_named_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "3x3");
    let good = std::fs::read(&db).unwrap();
    let header = grundy_db::Header::decode(&good, good.len() as u64, &db).unwrap();
    // A flipped byte in tier 7's section.
    let mut bad = good.clone();
    bad[header.tiers[6].offset as usize + 5] ^= 0x10;
    std::fs::write(&db, &bad).unwrap();
    for cmd in ["info", "verify"] {
        let output = run_on(&["tables", cmd], &db);
        assert_exit(&output, 2, "checksum mismatch in section tier 7");
    }
    let output = grundy()
        .args(["clear", "--tables"])
        .arg(&db)
        .arg("-")
        .write_stdin("111\n111\n")
        .output()
        .unwrap();
    assert_exit(&output, 2, "checksum mismatch in section tier 7");
    // Truncated.
    std::fs::write(&db, &good[..good.len() - 100]).unwrap();
    let output = run_on(&["tables", "info"], &db);
    assert_exit(&output, 2, "truncated");
    // Another format version.
    let mut other = good.clone();
    other[8] = 9;
    std::fs::write(&db, &other).unwrap();
    let output = run_on(&["tables", "info"], &db);
    assert_exit(&output, 2, "format version 9");
    // Not a database at all, and no file.
    std::fs::write(&db, "1111\n").unwrap();
    let output = run_on(&["tables", "verify"], &db);
    assert_exit(&output, 2, "not a grundy shape database");
    let output = run_on(&["tables", "info"], &dir.path().join("missing.gdb"));
    assert_exit(&output, 2, "missing.gdb");
}

/// A thread count outside 1..=1024 is refused before any thread starts: a
/// mistyped million would start that many.
#[test]
fn a_thread_count_past_the_bound_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for threads in ["0", "1025", "1000000", "x"] {
        let output = build_with("2x2", &["--threads", threads], &dir.path().join("db.gdb"));
        assert_exit(&output, 2, "is not a whole number from 1 to 1024");
    }
}

#[test]
fn an_unwritable_output_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = build_with("2x2", &[], &dir.path().join("no/such/dir/db.gdb"));
    assert_exit(&output, 2, "db.gdb.partial");
}

/// A build stopped by its time budget exits 3 and keeps a partial file; run
/// again, it resumes and writes the same bytes as an uninterrupted build.
/// Stopped before any tier finished, it says that the same budget would
/// stop it there again.
#[test]
fn a_stopped_build_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = build(dir.path(), "4x4");
    let out = dir.path().join("resumed.gdb");
    let stopped = build_with("4x4", &["--max-time", "0"], &out);
    assert_exit(
        &stopped,
        3,
        "keeps no tier: no tier finished within this time budget, and the tier under way is solved again from its start (only large tiers keep their solved stretches), so resume with a larger time budget: the same one would stop here again",
    );
    assert!(!out.exists());
    let resumed = build_with("4x4", &[], &out);
    assert_success(&resumed);
    assert_same_file(&whole, &out);
}

/// `--tables` and GRUNDY_TABLES feed `grundy clear`: a 5 x 6 board's
/// component that fits a 3 x 6 box is answered from the file, with the same
/// value the search gives.
#[test]
fn clear_reads_the_databases_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "3x6");
    let board = "111111\n111111\n111111\n";
    let expected = top_down_full(3, 6);
    let json = |cmd: &mut assert_cmd::Command| success_json(&cmd.output().unwrap());
    // With a position budget far too small to search a 3 x 6 board: only
    // the table can answer.
    let from_flag = json(
        grundy()
            .args(["clear", "--json", "--max-positions", "10", "--tables"])
            .arg(&db)
            .arg("-")
            .write_stdin(board),
    );
    assert_eq!(from_flag["grundy"], expected);
    let from_env = json(
        grundy()
            .args(["clear", "--json", "--max-positions", "10", "-"])
            .env("GRUNDY_TABLES", dir.path())
            .write_stdin(board),
    );
    assert_eq!(from_env["grundy"], expected);
    let output = grundy()
        .args(["clear", "--tables", "/no/such/file.gdb", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_exit(&output, 2, "/no/such/file.gdb");
}

/// A box longer than 8 (built in a wide frame): its full boards agree with
/// the top-down solver, verify re-solves its shapes, and `clear` reads
/// components wider than 8 from it.
#[test]
fn a_wide_box_builds_and_answers_wide_components() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "2x11");
    assert_info_agrees_with_top_down(
        &db,
        "2x11",
        22,
        &[(1, 11), (2, 8), (2, 9), (2, 10), (2, 11)],
    );
    let text = verify_agrees(&db, 200, &["--census"]);
    // Every connected set of the 2 x 11 grid, counted by brute force, is
    // one placement of a shape of the database.
    let connected = (1u64..1 << 22)
        .filter(|&bits| Board::new(2, 11, bits).unwrap().components().len() == 1)
        .count();
    assert!(
        text.contains(&format!(
            "placements in the 2 x 11 grid are its {connected} connected"
        )),
        "{text}"
    );
    // A 2 x 11 board with one cell cleared, as 11 rows of 2 (turned wide
    // by the solver), with a budget too small to search it.
    let board = "11\n".repeat(10) + "10\n";
    let mut cells = (1u64 << 22) - 1;
    cells &= !(1 << 21);
    let expected = Clear::solver()
        .value(&Board::new(11, 2, cells).unwrap())
        .unwrap()
        .value();
    let output = grundy()
        .args(["clear", "--json", "--max-positions", "10", "--tables"])
        .arg(&db)
        .arg("-")
        .write_stdin(board)
        .output()
        .unwrap();
    let json = success_json(&output);
    assert_eq!(json["grundy"], expected);
}

/// The built-in 5 x 5 database answers a full 5 x 5 board with no search:
/// the value agrees with the top-down solver's.
#[test]
fn the_built_in_database_answers_5x5_without_searching() {
    let output = grundy()
        .args(["clear", "--json", "--max-positions", "1", "-"])
        .env("GRUNDY_TABLES", "")
        .env("XDG_DATA_HOME", "/nonexistent")
        .write_stdin("11111\n11111\n11111\n11111\n11111\n")
        .output()
        .unwrap();
    let json = success_json(&output);
    assert_eq!(json["grundy"], top_down_full(5, 5));
}

/// `build --local-ranks N` writes N parts; merged, they are the single
/// build's bytes, and every reader takes the parts as one database.
#[test]
fn a_partitioned_build_reads_merges_and_checks_as_the_single_build() {
    let dir = tempfile::tempdir().unwrap();
    let single = build(dir.path(), "3x6");
    let stem = dir.path().join("parts.gdb");
    let output = build_parts(&stem, "3x6", "3", &["--exchange", "query"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("from an earlier build"),
        "no whole file of that name"
    );
    assert!(!stderr.contains("note:"), "{stderr}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("over 3 ranks"), "{text}");
    assert!(text.contains("wrote 3 files ("), "{text}");
    for r in 0..3 {
        assert!(dir.path().join(format!("parts.part-{r}-of-3.gdb")).exists());
    }
    // Parts built to the name of a whole database: it stays, with the
    // record of its build, and readers given the name open it, which the
    // build says.
    assert!(grundy_db::meta::build_record_path(&single).exists());
    let output = build_parts(&single, "3x6", "2", &[]);
    assert!(grundy_db::meta::build_record_path(&single).exists());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "note: {} from an earlier build is still there: readers given that name open it, not these parts (name a part, such as {}, or remove it)",
            single.display(),
            dir.path().join("clear-3x6.part-0-of-2.gdb").display()
        )),
        "{stderr}"
    );
    // Parts over another number of ranks beside a whole set: the name is
    // left to no reader, which the build says.
    let other = dir.path().join("other.gdb");
    build_parts(&other, "2x2", "2", &[]);
    let output = build_parts(&other, "2x2", "3", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "note: readers given {} cannot open these parts: ",
            other.display()
        )) && stderr.contains("several partitioned builds write it"),
        "{stderr}"
    );
    let checksum = |path: &Path| {
        let output = run_on(&["tables", "checksum"], path);
        assert_success(&output);
        String::from_utf8(output.stdout).unwrap()[..8].to_owned()
    };
    assert_eq!(checksum(&stem), checksum(&single));
    assert_eq!(
        checksum(&dir.path().join("parts.part-2-of-3.gdb")),
        checksum(&single)
    );
    // One process on 1 and 2 threads: the same loop, the same bytes.
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("threads-{threads}.gdb"));
        let output = build_with("3x6", &["--threads", threads], &out);
        assert_success(&output);
        assert_same_file(&out, &single);
        assert_eq!(checksum(&out), checksum(&stem));
    }
    let merged = dir.path().join("merged.gdb");
    merge(&stem, &merged);
    assert_same_file(&merged, &single);
    let info = run_on(&["tables", "info"], &stem);
    assert_success(&info);
    let text = String::from_utf8(info.stdout).unwrap();
    assert!(text.contains("partitioned: 3 parts"), "{text}");
    assert!(
        text.contains(&format!("  3 x 6: {}\n", top_down_full(3, 6))),
        "{text}"
    );
    let verify = run_on(&["tables", "verify", "--samples", "100"], &stem);
    assert_success(&verify);
    // `clear` finds the parts through their directory, and through the
    // stem; a position budget far too small to search leaves only the
    // tables to answer.
    let board = dir.path().join("board.txt");
    std::fs::write(&board, "111111\n111111\n111111\n").unwrap();
    for tables in [dir.path().to_owned(), stem.clone()] {
        let output = grundy()
            .args(["clear", "--json", "--max-positions", "10", "--tables"])
            .arg(&tables)
            .arg(&board)
            .output()
            .unwrap();
        let json = success_json(&output);
        assert_eq!(json["grundy"], top_down_full(3, 6), "{json}");
    }
}

#[test]
fn damaged_or_missing_parts_are_named_errors() {
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("p.gdb");
    build_parts(&stem, "3x4", "2", &[]);
    let part1 = dir.path().join("p.part-1-of-2.gdb");
    let good = std::fs::read(&part1).unwrap();
    let mut bad = good.clone();
    // The first byte of tier 1's section (sections follow the 4 KiB header).
    bad[4096] ^= 0x10;
    std::fs::write(&part1, &bad).unwrap();
    let output = run_on(&["tables", "info"], &stem);
    assert_exit(
        &output,
        2,
        "p.part-1-of-2.gdb: checksum mismatch in section tier 1",
    );
    std::fs::remove_file(&part1).unwrap();
    let part0 = dir.path().join("p.part-0-of-2.gdb");
    let output = run_on(&["tables", "verify"], &part0);
    assert_exit(&output, 2, "part 1 of 2 is missing");
    // A part of another build with the same name is refused.
    let other = dir.path().join("q.gdb");
    build_parts(&other, "3x4", "2", &[]);
    std::fs::copy(dir.path().join("q.part-1-of-2.gdb"), &part1).unwrap();
    let output = run_on(&["tables", "checksum"], &part0);
    assert_exit(&output, 2, "is not part 1 of the same build");
    // Two parts of one build swapped: each file is named by what its header
    // says it holds.
    let swapped = dir.path().join("r.gdb");
    build_parts(&swapped, "3x4", "2", &[]);
    let (r0, r1) = (
        dir.path().join("r.part-0-of-2.gdb"),
        dir.path().join("r.part-1-of-2.gdb"),
    );
    let spare = dir.path().join("r.spare");
    std::fs::rename(&r0, &spare).unwrap();
    std::fs::rename(&r1, &r0).unwrap();
    std::fs::rename(&spare, &r1).unwrap();
    for target in [&swapped, &r0, &r1] {
        let output = run_on(&["tables", "info"], target);
        let (held, named) = if target == &r1 { (0, 1) } else { (1, 0) };
        assert_exit(
            &output,
            2,
            &format!("holds part {held} of 2 (its header says so), not part {named} of 2 as its name says: renamed, swapped with another part, or copied from another build?"),
        );
    }
    // A part of a 2-part build copied over part 0 of a 3-part one: named by
    // what it holds, not as a missing part 1 of 2.
    let three = dir.path().join("t.gdb");
    build_parts(&three, "3x4", "3", &[]);
    let t0 = dir.path().join("t.part-0-of-3.gdb");
    std::fs::copy(&r1, &t0).unwrap();
    for target in [&three, &t0] {
        let output = run_on(&["tables", "verify"], target);
        assert_exit(
            &output,
            2,
            "it holds part 0 of 2 (its header says so), not part 0 of 3 as its name says",
        );
    }
}

/// Without the `mpi` feature, a build started by mpirun refuses rather
/// than have every rank write the same file.
#[cfg(not(feature = "mpi"))]
#[test]
fn a_build_under_an_mpi_launcher_needs_the_mpi_feature() {
    let dir = tempfile::tempdir().unwrap();
    let output = grundy()
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .args(["tables", "build", "--box", "3x3", "--out"])
        .arg(dir.path().join("x.gdb"))
        .output()
        .unwrap();
    assert_exit(&output, 2, "built without MPI");
}

/// A rank that cannot write its part is bad input, named, exit 2.
#[test]
fn an_unwritable_part_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = build_with(
        "2x2",
        &["--local-ranks", "2"],
        &dir.path().join("no/such/dir/db.gdb"),
    );
    assert_exit(&output, 2, "db.part-0-of-2.gdb.partial");
}

/// A build solving its tiers in stretches of a few slots, each kept
/// beside the partial file, writes the bytes of a build in one stretch a
/// tier, and leaves no stretches behind; the flag is refused where it does
/// not apply, and 0 is not a stretch.
#[test]
fn a_build_kept_in_stretches_writes_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = build(dir.path(), "4x5");
    let out = dir.path().join("stretches.gdb");
    let output = build_4x5_in_stretches(&out);
    assert_success(&output);
    assert_same_file(&whole, &out);
    assert!(!dir.path().join("stretches.gdb.partial.solving").exists());
    for extra in [
        &["--keep-every", "100", "--local-ranks", "2"][..],
        &["--keep-every", "0"][..],
    ] {
        let output = build_with("3x3", extra, &dir.path().join("x.gdb"));
        assert_exit(&output, 2, "--keep-every");
    }
}

/// The options of partitioned builds are refused, not ignored, elsewhere.
#[test]
fn partitioned_options_need_a_partitioned_build() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [["--exchange", "query"], ["--memory", "1GiB"]] {
        let output = build_with("3x3", &extra, &dir.path().join("x.gdb"));
        assert_exit(&output, 2, "apply to partitioned builds");
    }
}

/// Recomputes the header's checksum after an edit (as a crafted file would).
fn reseal(bytes: &mut [u8]) {
    let at = grundy_db::HEADER_LEN - 4;
    let crc = crc32fast::hash(&bytes[..at]);
    bytes[at..at + 4].copy_from_slice(&crc.to_le_bytes());
}

/// Changes the value of the shape `key` in tier `tier` of the database at
/// `db` to `value`, and recomputes the section's and the header's
/// checksums: a forgery the checksums cannot see.
fn forge(db: &Path, tier: usize, key: Option<u64>, value: u64) -> u64 {
    forge_slot(db, tier, key, |slot| {
        assert_ne!(slot & 0xfff, value, "a different value");
        (slot & !0xfff) | value
    })
}

/// Rewrites the slot of the shape `key` (the first stored, without one) in
/// tier `tier` as `edit` says, recomputing the checksums and the tier's
/// recorded largest value (a careful forgery, which only re-solving
/// catches); its key.
fn forge_slot(db: &Path, tier: usize, key: Option<u64>, edit: impl Fn(u64) -> u64) -> u64 {
    let mut bytes = std::fs::read(db).unwrap();
    let header = grundy_db::Header::decode(&bytes, bytes.len() as u64, db).unwrap();
    let t = header.tiers[tier - 1];
    let section = t.offset as usize..(t.offset + t.slots * 8) as usize;
    let at = section
        .clone()
        .step_by(8)
        .find(|&at| {
            let slot = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            slot != 0 && key.is_none_or(|k| slot >> 12 == k)
        })
        .expect("the shape is stored");
    let slot = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    bytes[at..at + 8].copy_from_slice(&edit(slot).to_le_bytes());
    let crc = crc32fast::hash(&bytes[section.clone()]);
    let largest = section
        .step_by(8)
        .map(|at| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()))
        .filter(|&slot| slot != 0)
        .map(|slot| (slot & 0xfff) as u32)
        .max()
        .unwrap_or(0);
    let entry = 64 + (tier - 1) * 48;
    bytes[entry + 32..entry + 36].copy_from_slice(&largest.to_le_bytes());
    bytes[entry + 36..entry + 40].copy_from_slice(&crc.to_le_bytes());
    reseal(&mut bytes);
    std::fs::write(db, &bytes).unwrap();
    slot >> 12
}

/// Two builds of one `--out`: the second fails at once (exit 2, naming the
/// partial file), the first finishes, and every read of the path meanwhile
/// sees no file or a complete one.
#[test]
fn a_second_build_of_the_same_out_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.gdb");
    // A build in this process holds the partial file.
    let (writer, _) = grundy_db::Writer::create_or_resume(
        &out,
        grundy::clear::shapes::ShapeBox::new(4, 4).unwrap(),
    )
    .unwrap();
    let second = build_with("4x4", &[], &out);
    assert_exit(&second, 2, "r.gdb.partial: another build is writing it");
    assert!(!out.exists());
    drop(writer);
    // Two processes: the first is started, the second when the first has
    // its partial file. The second either finds the first's lock (exit 2)
    // or starts after it finished (and writes the same file).
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let spawn = || {
        std::process::Command::new(&bin)
            .args(["tables", "build", "--box", "4x5", "--threads", "1", "--out"])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    std::fs::remove_file(grundy_db::partial_path(&out)).unwrap();
    let mut first = spawn();
    let partial = grundy_db::partial_path(&out);
    while !partial.exists() && first.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let second = spawn().wait_with_output().unwrap();
    // Readers of the path while the first runs.
    while first.try_wait().unwrap().is_none() {
        if out.exists() {
            grundy_db::Database::open(&out).expect("a file at --out is complete");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let first = first.wait_with_output().unwrap();
    assert_success(&first);
    let stderr = String::from_utf8_lossy(&second.stderr);
    match second.status.code() {
        Some(2) => assert!(stderr.contains("another build is writing it"), "{stderr}"),
        Some(0) => {}
        other => panic!("second build: {other:?}: {stderr}"),
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    let whole45 = build(dir.path(), "4x5");
    assert_same_file(&whole45, &out);
}

/// A 0-byte partial file (a build that stopped on a full disk before its
/// header) is started afresh with a note, to the same bytes.
#[test]
fn an_empty_partial_file_is_started_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let whole = build(dir.path(), "3x3");
    let out = dir.path().join("g.gdb");
    std::fs::write(grundy_db::partial_path(&out), b"").unwrap();
    let output = build_with("3x3", &[], &out);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("g.gdb.partial: empty") && stderr.contains("starting the build afresh"),
        "{stderr}"
    );
    assert_same_file(&whole, &out);
}

/// A full disk: exit 4, naming the file and the bytes needed. Linux's
/// `/dev/full` stands in for the partial file (no mount, no root).
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_exit_4_naming_the_file_and_the_bytes() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.gdb");
    std::os::unix::fs::symlink("/dev/full", grundy_db::partial_path(&out)).unwrap();
    for extra in [&[][..], &["--local-ranks", "1"]] {
        let output = build_with("3x3", extra, &out);
        assert_exit(
            &output,
            4,
            "g.gdb.partial: out of disk space: writing it needs 4096 more bytes",
        );
    }
}

/// `--out DIR` is refused before the build, in one message.
#[test]
fn an_out_directory_is_refused_once() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&[][..], &["--local-ranks", "2"]] {
        let output = build_with("3x3", extra, dir.path());
        assert_exit(&output, 2, "is a directory");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.matches("is a directory").count(), 1, "{stderr}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A count crafted into the header (checksum recomputed): exit 2 from
/// every command, never a panic or an absurd count.
#[test]
fn a_crafted_count_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "3x3");
    let mut bytes = std::fs::read(&db).unwrap();
    // Tier 5's shapes and a capacity that matches them in wrapping u64
    // arithmetic (the audit's file).
    let entry = 64 + 4 * 48;
    let positions: u64 = 0x4000_0000_0000_0001;
    let capacity = (positions.wrapping_mul(4)).div_ceil(3) + 1;
    bytes[entry..entry + 8].copy_from_slice(&positions.to_le_bytes());
    bytes[entry + 8..entry + 16].copy_from_slice(&capacity.to_le_bytes());
    reseal(&mut bytes);
    std::fs::write(&db, &bytes).unwrap();
    for cmd in ["info", "verify", "checksum"] {
        let output = run_on(&["tables", cmd], &db);
        assert_exit(&output, 2, "the directory entry of tier 5");
    }
}

/// A value forged with its checksums recomputed: `verify` catches it on a
/// full board; on another shape `verify --all` and `--tiers` do.
#[test]
fn verify_catches_forged_values() {
    let dir = tempfile::tempdir().unwrap();
    let db = build_v1(dir.path(), 3, 4);
    let good = std::fs::read(&db).unwrap();
    let full = top_down_full(3, 4);
    let key = grundy::clear::shapes::ShapeBox::new(3, 4)
        .unwrap()
        .full_key(3, 4)
        .unwrap();
    forge(&db, 12, Some(key), u64::from(full) ^ 1);
    let output = run_on(&["tables", "verify", "--samples", "0"], &db);
    assert_exit(
        &output,
        2,
        &format!(
            "the full 3 x 4 board is stored as {}, the top-down solver says {full}",
            full ^ 1
        ),
    );
    // A shape of tier 6 that is no full board.
    std::fs::write(&db, &good).unwrap();
    let boards = (1..=3)
        .flat_map(|a| (a..=4).map(move |b| (a, b)))
        .filter(|&(a, b)| a * b == 6)
        .filter_map(|(a, b)| {
            grundy::clear::shapes::ShapeBox::new(3, 4)
                .unwrap()
                .full_key(a, b)
        })
        .collect::<Vec<_>>();
    let bytes = good.clone();
    let header = grundy_db::Header::decode(&bytes, bytes.len() as u64, &db).unwrap();
    let t = header.tiers[5];
    let target = (t.offset as usize..(t.offset + t.slots * 8) as usize)
        .step_by(8)
        .map(|at| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()))
        .find(|&slot| slot != 0 && !boards.contains(&(slot >> 12)))
        .unwrap();
    forge(&db, 6, Some(target >> 12), (target & 0xfff) ^ 1);
    let verify = |extra: &[&str]| {
        grundy()
            .args(["tables", "verify", "--samples", "0"])
            .args(extra)
            .arg(&db)
            .output()
            .unwrap()
    };
    assert_success(&verify(&[]));
    assert_success(&verify(&["--tiers", "1-5"]));
    for extra in [&["--all"][..], &["--tiers", "6"], &["--tiers", "2-12"]] {
        assert_exit(
            &verify(extra),
            2,
            &format!("shape {:#x} is stored as", target >> 12),
        );
    }
    std::fs::write(&db, &good).unwrap();
    let output = verify(&["--all"]);
    assert_success(&output);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "full boards re-solved by the engine (its 4 x 5 and 2 x 8 tables, else a top-down search) agree"
        ),
        "{text}"
    );
    assert!(
        text.contains("every shape of tiers 1 to 12:") && text.contains(" 0 skipped"),
        "{text}"
    );
}

/// A damaged file in the default tables directory is skipped with a
/// warning (the built-in tables and the other files still answer); named
/// explicitly, it is exit 2.
#[test]
fn a_damaged_file_in_the_tables_directory_is_skipped() {
    let data = tempfile::tempdir().unwrap();
    let tables = data.path().join("grundy/tables");
    std::fs::create_dir_all(&tables).unwrap();
    build(&tables, "3x6");
    let damaged = tables.join("clear-3x3.gdb");
    std::fs::write(&damaged, b"GRUNDYDB, but nothing else").unwrap();
    let board = "111111\n111111\n111111\n";
    let expected = top_down_full(3, 6);
    let output = grundy()
        .args(["clear", "--json", "--max-positions", "10", "-"])
        .env("XDG_DATA_HOME", data.path())
        .env_remove("GRUNDY_TABLES")
        .write_stdin(board)
        .output()
        .unwrap();
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("warning: skipping {}", damaged.display())),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["grundy"], expected, "answered by the good file");
    let boards = data.path().join("boards.txt");
    std::fs::write(&boards, format!("{board}\n11\n11\n")).unwrap();
    let output = grundy()
        .args(["sum", "--queries", "-"])
        .arg(&boards)
        .env("XDG_DATA_HOME", data.path())
        .env_remove("GRUNDY_TABLES")
        .write_stdin("value 1 2\n")
        .output()
        .unwrap();
    assert_success(&output);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        (expected ^ top_down_full(2, 2)).to_string()
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("warning: skipping"));
    let output = grundy()
        .args(["clear", "--tables"])
        .arg(&damaged)
        .arg("-")
        .write_stdin(board)
        .output()
        .unwrap();
    assert_exit(&output, 2, "clear-3x3.gdb");
}

/// `tables checksum --sha256` prints each file's SHA-256 as `sha256sum`
/// does: the digest of all of its bytes.
#[test]
fn checksum_prints_the_sha256_of_each_file() {
    use sha2::Digest as _;
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "2x3");
    let output = run_on(&["tables", "checksum", "--sha256"], &db);
    assert_success(&output);
    let digest = sha2::Sha256::digest(std::fs::read(&db).unwrap());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text.lines().nth(1),
        Some(format!("{hex}  {}", db.display()).as_str()),
        "{text}"
    );
}

/// A database whose header names another game (checksums right) is
/// refused with the game it names: exit 2, never shapes read as clearing.
#[test]
fn a_database_of_another_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "3x3");
    let mut bytes = std::fs::read(&db).unwrap();
    bytes[16..24].copy_from_slice(b"kayles\0\0");
    let crc = crc32fast::hash(&bytes[..4092]);
    bytes[4092..4096].copy_from_slice(&crc.to_le_bytes());
    let other = dir.path().join("other.gdb");
    std::fs::write(&other, &bytes).unwrap();
    for args in [&["tables", "info"][..], &["tables", "verify"][..]] {
        let output = grundy().args(args).arg(&other).output().unwrap();
        assert_exit(
            &output,
            2,
            "a database of game `kayles` (kayles 3 x 3), not of rectangle clearing",
        );
    }
}

/// `tables convert` rewrites a version-1 database in the compact format:
/// the same content checksum, every value equal (export, line by line),
/// at most 2 bytes a shape past the per-tier alignment; the output is a
/// new file, and bad input is exit 2.
#[test]
fn convert_rewrites_a_version_1_database_compactly() {
    let dir = tempfile::tempdir().unwrap();
    let old = build_v1(dir.path(), 4, 5);
    let new = dir.path().join("clear-4x5-v2.gdb");
    let output = grundy()
        .args(["tables", "convert"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    assert_success(&output);
    let run = |args: &[&str], path: &Path| {
        let output = grundy().args(args).arg(path).output().unwrap();
        assert_success(&output);
        String::from_utf8(output.stdout).unwrap()
    };
    let crc = |path: &Path| run(&["tables", "checksum"], path)[..8].to_owned();
    assert_eq!(crc(&old), crc(&new));
    let exported = run(&["tables", "export"], &new);
    assert_eq!(run(&["tables", "export"], &old), exported);
    // Tier by tier, by key within a tier (docs/data/README.md).
    let rows: Vec<(u64, u64)> = exported
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',').map(|f| f.parse::<u64>().unwrap());
            (fields.next().unwrap(), fields.next().unwrap())
        })
        .collect();
    assert!(rows.len() > 1000 && rows.is_sorted(), "{exported}");
    assert!(run(&["tables", "info"], &new).contains("format version 2"));
    // A fresh build writes the same bytes as the conversion.
    let built = build(dir.path(), "4x5");
    assert_same_file(&built, &new);
    // Bad input: not a database, a damaged one, the same path.
    let junk = dir.path().join("junk.gdb");
    std::fs::write(&junk, b"not a database").unwrap();
    let convert = |from: &Path, to: &Path| {
        grundy()
            .args(["tables", "convert"])
            .arg(from)
            .arg(to)
            .output()
            .unwrap()
    };
    assert_eq!(
        convert(&junk, &dir.path().join("x.gdb")).status.code(),
        Some(2)
    );
    let mut bytes = std::fs::read(&new).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0x40;
    let damaged = dir.path().join("damaged.gdb");
    std::fs::write(&damaged, &bytes).unwrap();
    let output = convert(&damaged, &dir.path().join("y.gdb"));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("checksum mismatch"));
    assert_eq!(convert(&new, &new).status.code(), Some(2));
}

/// A full board's key forged away (its checksums recomputed): `info` names
/// the board not found and exits 2 rather than leave its line out.
#[test]
fn a_missing_full_board_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = build_v1(dir.path(), 3, 4);
    let key = grundy::clear::shapes::ShapeBox::new(3, 4)
        .unwrap()
        .full_key(3, 4)
        .unwrap();
    forge_slot(&db, 12, Some(key), |slot| slot ^ (1 << 12));
    for args in [vec!["info"], vec!["info", "--json"]] {
        let output = grundy()
            .arg("tables")
            .args(&args)
            .arg(&db)
            .output()
            .unwrap();
        assert_exit(&output, 2, "the full board 3 x 4 is not found");
    }
}

/// `merge` and `convert` refuse to write over a file they read: a part of
/// the database, or the database itself.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("p.gdb");
    build_parts(&stem, "3x4", "2", &[]);
    let part0 = dir.path().join("p.part-0-of-2.gdb");
    let before = std::fs::read(&part0).unwrap();
    let output = grundy()
        .args(["tables", "merge", "--out"])
        .arg(&part0)
        .arg(&stem)
        .output()
        .unwrap();
    assert_exit(&output, 2, "which merge reads; write to another path");
    let output = grundy()
        .args(["tables", "convert"])
        .arg(&stem)
        .arg(&part0)
        .output()
        .unwrap();
    assert_exit(&output, 2, "which convert reads; write to another path");
    assert_eq!(std::fs::read(&part0).unwrap(), before);
    let whole = build(dir.path(), "2x3");
    let output = grundy()
        .args(["tables", "convert"])
        .arg(&whole)
        .arg(&whole)
        .output()
        .unwrap();
    assert_exit(&output, 2, "is the database, which convert reads");
    grundy()
        .args(["tables", "info"])
        .arg(&stem)
        .assert()
        .success();
}

/// A directory where a build keeps a file beside its output (the solved
/// stretches of a tier) is the user's to fix: exit 2, naming it.
#[test]
fn a_directory_in_the_way_of_the_stretches_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.gdb");
    std::fs::create_dir(dir.path().join("s.gdb.partial.solving")).unwrap();
    let output = build_4x5_in_stretches(&out);
    assert_exit(&output, 2, "s.gdb.partial.solving");
}

/// Runs `grundy ARGS PATH`, reads the first bytes of its standard output
/// (of its standard error when `stderr_first`), then closes that pipe, as
/// `| head` does: its exit status and what it wrote to the other stream.
fn hang_up_after_first_bytes(
    args: &[&str],
    path: &Path,
    stderr_first: bool,
) -> (std::process::ExitStatus, String) {
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout: Box<dyn std::io::Read + Send> = Box::new(child.stdout.take().unwrap());
    let stderr: Box<dyn std::io::Read + Send> = Box::new(child.stderr.take().unwrap());
    let (mut read, mut other) = if stderr_first {
        (stderr, stdout)
    } else {
        (stdout, stderr)
    };
    // The other stream is read to its end meanwhile, so that the child
    // never waits on a full pipe there.
    let drain = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = other.read_to_string(&mut text);
        text
    });
    let mut first = [0u8; 8];
    read.read_exact(&mut first).unwrap();
    drop(read);
    let status = child.wait().unwrap();
    (status, drain.join().unwrap())
}

/// A reader that goes away (`grundy tables export DB | head`) stops the
/// export quietly, exit 0, as `sum` and the judges do.
#[test]
fn an_export_whose_reader_goes_away_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "4x5");
    let (status, stderr) = hang_up_after_first_bytes(&["tables", "export"], &db, false);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// A build whose progress reader goes away (`2>&1 | head -1`) finishes its
/// database all the same: the progress is lost, not the work.
#[test]
fn a_build_whose_progress_reader_goes_away_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clear-4x5.gdb");
    let args = ["tables", "build", "--box", "4x5", "--out"];
    let (status, _) = hang_up_after_first_bytes(&args, &out, true);
    assert_eq!(status.code(), Some(0));
    let again = dir.path().join("again");
    std::fs::create_dir(&again).unwrap();
    let built = build(&again, "4x5");
    assert_same_file(&out, &built);
}

/// `build`, `convert` and `merge` refuse an output that is there and is not
/// a regular file (a FIFO; a device, here behind a symbolic link), before
/// any work: a finished database is renamed over its path, which would
/// replace it.
#[cfg(unix)]
#[test]
fn an_out_that_is_not_a_regular_file_is_refused_before_any_work() {
    use std::os::unix::fs::FileTypeExt as _;
    let dir = tempfile::tempdir().unwrap();
    let old = build(dir.path(), "2x3");
    let stem = dir.path().join("p.gdb");
    build_parts(&stem, "2x3", "2", &[]);
    let fifo = dir.path().join("fifo.gdb");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let null = dir.path().join("null.gdb");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let expected = [
        (&fifo, "is a FIFO, not a regular file".to_owned()),
        (
            &null,
            "is a character device (through a symbolic link to /dev/null), not a regular file"
                .to_owned(),
        ),
    ];
    for (out, what) in &expected {
        let runs = [
            build_with("2x3", &[], out),
            run_on(
                &[
                    "tables",
                    "build",
                    "--box",
                    "2x3",
                    "--local-ranks",
                    "2",
                    "--out",
                ],
                out,
            ),
            grundy()
                .args(["tables", "convert"])
                .arg(&old)
                .arg(out)
                .output()
                .unwrap(),
            grundy()
                .args(["tables", "merge"])
                .arg(&stem)
                .arg("--out")
                .arg(out)
                .output()
                .unwrap(),
        ];
        for output in &runs {
            assert_exit(output, 2, &format!("error: {}: {what}", out.display()));
        }
    }
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::symlink_metadata(&null).unwrap().is_symlink());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // Nothing was started beside the outputs (nor in /dev).
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "clear-2x3.gdb",
            "clear-2x3.gdb.build.json",
            "fifo.gdb",
            "null.gdb",
            "p.part-0-of-2.gdb",
            "p.part-1-of-2.gdb"
        ]
    );
    assert!(!Path::new("/dev/null.partial").exists());
}

/// An output that is a symbolic link is written through: the link stays,
/// and the file it names (made if it is not there yet) becomes the
/// database, with its build record beside it, which `info` finds through
/// the link.
#[cfg(unix)]
#[test]
fn an_out_that_is_a_symbolic_link_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let direct = build(dir.path(), "2x3");
    let store = dir.path().join("store");
    std::fs::create_dir(&store).unwrap();
    let link = dir.path().join("link.gdb");
    std::os::unix::fs::symlink("store/real.gdb", &link).unwrap();
    let real = store.join("real.gdb");
    let runs: [&dyn Fn() -> std::process::Output; 2] = [&|| build_with("2x3", &[], &link), &|| {
        grundy()
            .args(["tables", "convert"])
            .arg(&direct)
            .arg(&link)
            .output()
            .unwrap()
    }];
    for run in runs {
        // Once to a link naming nothing yet, once over the file it names.
        for _ in 0..2 {
            assert_success(&run());
            assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
            assert_same_file(&real, &direct);
        }
        let _ = std::fs::remove_file(&real);
    }
    assert_success(&runs[0]());
    let info = run_on(&["tables", "info", "--json"], &link);
    let json = success_json(&info);
    assert_eq!(
        json["build"]["command"],
        "grundy tables build --box 2x3 --out real.gdb"
    );
}

/// `convert` and `merge` over a database that a build wrote leave no build
/// record of that build: `info --json` shows none, not the record of
/// another file.
#[test]
fn convert_and_merge_leave_no_build_record_of_the_file_they_replace() {
    let dir = tempfile::tempdir().unwrap();
    let old = build(dir.path(), "2x3");
    let stem = dir.path().join("p.gdb");
    build_parts(&stem, "2x2", "2", &[]);
    let out = dir.path().join("x.gdb");
    let runs: [&dyn Fn() -> std::process::Output; 2] = [
        &|| {
            grundy()
                .args(["tables", "convert"])
                .arg(&old)
                .arg(&out)
                .output()
                .unwrap()
        },
        &|| {
            grundy()
                .args(["tables", "merge"])
                .arg(&stem)
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap()
        },
    ];
    for run in runs {
        let built = build_with("3x3", &[], &out);
        assert_success(&built);
        assert!(grundy_db::meta::build_record_path(&out).exists());
        assert_success(&run());
        assert_no_build_record(&out);
    }
}

/// `convert` and `merge` refuse an output where a stopped build keeps
/// tiers (exit 2, the partial file named), and leave the file as it was.
#[test]
fn convert_and_merge_keep_a_stopped_builds_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let old = build(dir.path(), "2x3");
    let stem = dir.path().join("p.gdb");
    build_parts(&stem, "2x2", "2", &[]);
    let out = dir.path().join("x.gdb");
    let stopped = build_with("5x6", &["--threads", "1", "--max-time", "0.3"], &out);
    assert_eq!(stopped.status.code(), Some(3), "{stopped:?}");
    let partial = dir.path().join("x.gdb.partial");
    let before = std::fs::read(&partial).unwrap();
    let convert = grundy()
        .args(["tables", "convert"])
        .arg(&old)
        .arg(&out)
        .output()
        .unwrap();
    let merge = grundy()
        .args(["tables", "merge"])
        .arg(&stem)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    for output in [convert, merge] {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("x.gdb.partial: a stopped build of a 5x6 box keeps tiers 1 to"),
            "{stderr}"
        );
        assert_eq!(std::fs::read(&partial).unwrap(), before);
        assert!(!out.exists());
    }
}

/// `tables merge PARTS --out OUT`, which must succeed.
fn merge(parts: &Path, out: &Path) {
    let output = grundy()
        .args(["tables", "merge"])
        .arg(parts)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert_success(&output);
}

/// `tables info --json` of `out` shows no build record.
fn assert_no_build_record(out: &Path) {
    let info = run_on(&["tables", "info", "--json"], out);
    let json = success_json(&info);
    assert_eq!(json["build"], serde_json::Value::Null, "{json}");
}

/// The top tier of a box holds one shape, the full box: a partitioned
/// build's tier line says "1 shape", and `convert` gives its bytes a shape
/// with one decimal, as the other rates are given.
#[test]
fn counts_and_rates_read_right() {
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("p.gdb");
    let output = build_parts(&stem, "2x3", "2", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let top = stderr
        .lines()
        .find(|line| line.starts_with("tier  6:"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(top.contains(" 1 shape in "), "{top}");
    assert!(!stderr.contains(" 1 shapes"), "{stderr}");
    let output = grundy()
        .args(["tables", "convert"])
        .arg(&stem)
        .arg(dir.path().join("c.gdb"))
        .output()
        .unwrap();
    assert_success(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let rate = stdout
        .split(" bytes a shape")
        .next()
        .and_then(|before| before.rsplit('(').next())
        .unwrap_or_else(|| panic!("{stdout}"));
    let decimals = rate.split('.').nth(1).map_or(0, str::len);
    assert!(decimals <= 1, "{stdout}");
}

/// A partitioned build that finishes leaves no record of an earlier single
/// build of the same path: `info --json` shows none, whether the build
/// replaced the file (one rank) or wrote parts beside it.
#[test]
fn a_partitioned_build_leaves_no_record_of_an_earlier_single_build() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.gdb");
    for ranks in ["1", "2"] {
        let _ = std::fs::remove_file(&out);
        build(dir.path(), "3x3");
        std::fs::rename(dir.path().join("clear-3x3.gdb"), &out).unwrap();
        std::fs::rename(
            grundy_db::meta::build_record_path(&dir.path().join("clear-3x3.gdb")),
            grundy_db::meta::build_record_path(&out),
        )
        .unwrap();
        if ranks == "2" {
            std::fs::remove_file(&out).unwrap();
        }
        build_parts(&out, "3x3", ranks, &[]);
        assert!(
            !grundy_db::meta::build_record_path(&out).exists(),
            "{ranks} ranks"
        );
        assert_no_build_record(&out);
    }
}

/// `--local-ranks` under mpirun of several processes is refused before any
/// work (each process would build every part); under `mpirun -n 1` it runs.
#[test]
fn local_ranks_under_mpirun_of_several_processes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.gdb");
    for (var, size) in [("OMPI_COMM_WORLD_SIZE", "2"), ("PMI_SIZE", "3")] {
        let output = grundy()
            .env(var, size)
            .args(["tables", "build", "--box", "3x3", "--local-ranks", "2"])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_exit(
            &output,
            2,
            &format!("--local-ranks cannot be used under mpirun ({size} processes)"),
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
    let output = grundy()
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .args(["tables", "build", "--box", "3x3", "--local-ranks", "2"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&output);
}

/// `--memory` budgets what `--exchange auto` replicates; with `--exchange
/// replicate`, which copies every tier whatever the budget, it is refused.
#[test]
fn memory_with_exchange_replicate_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let output = build_with(
        "3x3",
        &[
            "--local-ranks",
            "2",
            "--exchange",
            "replicate",
            "--memory",
            "1",
        ],
        &dir.path().join("x.gdb"),
    );
    assert_exit(&output, 2, "--exchange replicate");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `tables checksum PATH`'s content checksum, which must succeed.
fn content_checksum(path: &Path) -> String {
    let output = run_on(&["tables", "checksum"], path);
    assert_success(&output);
    String::from_utf8(output.stdout).unwrap()[..8].to_owned()
}

/// The name given to `--out` opens the parts, with or without an
/// extension (`noext` writes `noext.part-R-of-P.gdb`).
#[test]
fn the_out_name_without_an_extension_opens_the_parts() {
    let dir = tempfile::tempdir().unwrap();
    let single = build(dir.path(), "2x3");
    let out = dir.path().join("noext");
    let output = build_parts(&out, "2x3", "2", &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("noext.part-0-of-2.gdb"), "{stdout}");
    assert_eq!(content_checksum(&out), content_checksum(&single));
    for command in ["info", "verify"] {
        let output = run_on(&["tables", command], &out);
        assert_success(&output);
    }
    let merged = dir.path().join("m.gdb");
    merge(&out, &merged);
    assert_same_file(&merged, &single);
}

/// The `tables` readers take a directory holding one database (one file,
/// or the parts of one build), as `--tables DIR` finds it; a directory of
/// none or of several is refused, naming them.
#[test]
fn the_readers_take_a_directory_of_one_database() {
    let dir = tempfile::tempdir().unwrap();
    let single = build(dir.path(), "2x3");
    let parts = dir.path().join("parts");
    std::fs::create_dir(&parts).unwrap();
    build_parts(&parts.join("p.gdb"), "2x3", "3", &[]);
    let whole = dir.path().join("whole");
    std::fs::create_dir(&whole).unwrap();
    std::fs::copy(&single, whole.join("w.gdb")).unwrap();
    for db in [&parts, &whole] {
        assert_eq!(content_checksum(db), content_checksum(&single));
        for command in [&["info"][..], &["verify", "--samples", "10"]] {
            let output = grundy()
                .arg("tables")
                .args(command)
                .arg(db)
                .output()
                .unwrap();
            assert_success(&output);
        }
        let merged = dir.path().join("m.gdb");
        let output = grundy()
            .args(["tables", "merge"])
            .arg(db)
            .arg("--out")
            .arg(&merged)
            .output()
            .unwrap();
        assert_success(&output);
        let said = String::from_utf8_lossy(&output.stdout);
        let expected = if db == &whole {
            "merged the whole database "
        } else {
            "merged 3 parts of "
        };
        assert!(said.starts_with(expected), "{said}");
        assert_same_file(&merged, &single);
        let converted = dir.path().join("c.gdb");
        let _ = std::fs::remove_file(&converted);
        let output = grundy()
            .args(["tables", "convert"])
            .arg(db)
            .arg(&converted)
            .output()
            .unwrap();
        assert_success(&output);
        assert_same_file(&converted, &single);
    }
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let output = run_on(&["tables", "info"], &empty);
    assert_exit(&output, 2, "is a directory without a database");
    std::fs::copy(&single, parts.join("another.gdb")).unwrap();
    let output = run_on(&["tables", "checksum"], &parts);
    assert_exit(&output, 2, "is a directory of several databases");
    // A whole file of the parts' own name beside them: two databases,
    // told apart in the message.
    std::fs::remove_file(parts.join("another.gdb")).unwrap();
    std::fs::copy(&single, parts.join("p.gdb")).unwrap();
    let output = run_on(&["tables", "info"], &parts);
    let p = parts.join("p.gdb").display().to_string();
    let first = parts.join("p.part-0-of-3.gdb");
    assert_exit(
        &output,
        2,
        &format!(
            "is a directory of several databases ({p}, {} and its 2 other parts); name one",
            first.display()
        ),
    );
    // Each opens by the name the message gives it.
    for (named, partitioned) in [(parts.join("p.gdb"), false), (first, true)] {
        let output = grundy()
            .args(["tables", "info"])
            .arg(&named)
            .output()
            .unwrap();
        assert_success(&output);
        let text = String::from_utf8(output.stdout).unwrap();
        assert_eq!(text.contains("partitioned: 3 parts"), partitioned, "{text}");
    }
}

/// A build over another number of ranks than a stopped one's says which
/// partial files it does not resume, and leaves them.
#[test]
fn partial_files_of_another_rank_count_are_named_and_left() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.gdb");
    let stopped = build_with("3x3", &["--local-ranks", "3", "--max-time", "0"], &out);
    assert_exit(&stopped, 3, "run the same command again to resume");
    let output = build_parts(&out, "3x3", "2", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("note: partial files of a build over another number of ranks, which this build over 2 ranks does not resume and leaves as they are"),
        "{stderr}"
    );
    for r in 0..3 {
        let partial = grundy_db::partial_path(&grundy_db::part_path(&out, r, 3));
        assert!(stderr.contains(&partial.display().to_string()), "{stderr}");
        assert!(partial.exists());
    }
    // A build of one process says so too.
    let single = dir.path().join("y.gdb");
    let stopped = build_with("3x3", &["--local-ranks", "2", "--max-time", "0"], &single);
    assert_exit(&stopped, 3, "run the same command again to resume");
    let output = build_with("3x3", &[], &single);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("note: partial files of a build over another number of ranks, which this build over 1 rank does not resume"),
        "{stderr}"
    );
}

/// Spawns `tables build` with `args`, waits for its first tier line on
/// stderr, sends it SIGINT, and returns its exit code and stderr.
#[cfg(unix)]
fn interrupt_build(args: &[&str], out: &Path) -> (Option<i32>, String) {
    use std::io::{BufRead as _, Read as _};
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let mut child = std::process::Command::new(&bin)
        .args(["tables", "build"])
        .args(args)
        .arg("--out")
        .arg(out)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut text = String::new();
    loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            break;
        }
        text.push_str(&line);
        if line.starts_with("tier ") {
            rustix::process::kill_process(
                rustix::process::Pid::from_child(&child),
                rustix::process::Signal::INT,
            )
            .unwrap();
            break;
        }
    }
    stderr.read_to_string(&mut text).unwrap();
    (child.wait().unwrap().code(), text)
}

/// SIGINT (Ctrl-C) stops a build, single or over local ranks, at its next
/// check: exit 3 with the message to run the same command again, which
/// resumes to the bytes of a build never stopped.
#[cfg(unix)]
#[test]
fn an_interrupted_build_stops_with_exit_3_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    // 5 x 5 on one thread: a second or more after tier 1's line.
    let whole = build(dir.path(), "5x5");
    for ranks in [None, Some("2")] {
        let out = dir
            .path()
            .join(format!("interrupted-{}.gdb", ranks.unwrap_or("1")));
        let mut args = vec!["--box", "5x5", "--threads", "1"];
        if let Some(ranks) = ranks {
            args.extend(["--local-ranks", ranks]);
        }
        let (code, stderr) = interrupt_build(&args, &out);
        assert_eq!(code, Some(3), "{ranks:?}: {stderr}");
        assert!(
            stderr.contains("stopped on request")
                && stderr.contains("run the same command again to resume"),
            "{ranks:?}: {stderr}"
        );
        let resumed = grundy()
            .args(["tables", "build"])
            .args(&args)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_success(&resumed);
        let text = String::from_utf8_lossy(&resumed.stderr);
        assert!(text.contains("resuming"), "{ranks:?}: {text}");
        let merged = dir
            .path()
            .join(format!("merged-{}.gdb", ranks.unwrap_or("1")));
        merge(&out, &merged);
        assert_same_file(&whole, &merged);
    }
}

/// `--max-memory`: a budget below what the process holds at the start
/// stops the build at its first check (exit 3, the message names the
/// resident memory against the budget and how to resume); the same command
/// with a budget it stays under then writes the bytes of a build never
/// stopped. A partitioned build refuses the flag (its `--memory` is
/// another budget).
#[test]
fn a_build_past_its_memory_budget_stops_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let whole = build(dir.path(), "4x5");
    let out = dir.path().join("budget.gdb");
    let run = |budget: &str| {
        grundy()
            .args([
                "tables",
                "build",
                "--box",
                "4x5",
                "--max-memory",
                budget,
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap()
    };
    let stopped = run("1MiB");
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("error: gave up at the memory budget of 1.0 MiB: the build's memory reached, or with its next allocation would reach, ")
            && stderr.contains("run the same command with a larger memory budget to resume"),
        "{stderr}"
    );
    let resumed = run("64GiB");
    assert_success(&resumed);
    assert_same_file(&whole, &out);
    let partitioned = grundy()
        .args(["tables", "build", "--box", "2x3", "--local-ranks", "2"])
        .args(["--max-memory", "1GiB", "--out"])
        .arg(dir.path().join("parts.gdb"))
        .output()
        .unwrap();
    assert_eq!(partitioned.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&partitioned.stderr)
        .contains("--max-memory applies to builds of one process"));
}

/// A partitioned database with one damaged part, found by scanning a
/// directory, is skipped with one warning naming that part, not one for
/// each of its parts.
#[test]
fn a_damaged_part_set_in_a_directory_is_warned_of_once() {
    let dir = tempfile::tempdir().unwrap();
    build_parts(&dir.path().join("p.gdb"), "2x3", "3", &[]);
    let damaged = grundy_db::part_path(&dir.path().join("p.gdb"), 1, 3);
    let bytes = std::fs::read(&damaged).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    let output = grundy()
        .args(["clear", "--json", "--tables"])
        .arg(dir.path())
        .arg("-")
        .write_stdin("11\n11\n")
        .output()
        .unwrap();
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("warning: skipping").count(), 1, "{stderr}");
    assert!(stderr.contains(&damaged.display().to_string()), "{stderr}");
}

/// An output that cannot be a database file is bad input (exit 2) that
/// names the cause: a path ending in `/`, a missing directory, a file where
/// a directory should be; `build` and `convert` alike.
#[test]
fn outputs_in_the_wrong_place_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.gdb");
    let output = build_with("2x2", &[], &db);
    assert_success(&output);
    let file = dir.path().join("file");
    std::fs::write(&file, b"").unwrap();
    let slash = format!("{}/", dir.path().join("new").display());
    let file_example = format!("names the database file (e.g. {})", file.display());
    let cases = [
        (PathBuf::from(&slash), "ends with /, a directory"),
        // A file of that name: the example is the file, not a path in it.
        (PathBuf::from(format!("{}/", file.display())), &file_example),
        (
            dir.path().join("missing/x.gdb"),
            "no such directory, to write x.gdb.partial in",
        ),
        (
            file.join("x.gdb"),
            "not a directory, to write x.gdb.partial in",
        ),
    ];
    for (out, what) in &cases {
        let build = build_with("2x2", &[], out);
        assert_exit(&build, 2, what);
        let convert = grundy()
            .args(["tables", "convert"])
            .arg(&db)
            .arg(out)
            .output()
            .unwrap();
        assert_exit(&convert, 2, what);
    }
}

/// `verify --tiers` past the box is refused before any check runs: no line
/// of the checks is printed.
#[test]
fn verify_refuses_tiers_the_box_lacks_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), "2x3");
    let output = grundy()
        .args(["tables", "verify", "--tiers", "7"])
        .arg(&db)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: --tiers 7-7: the 2x3 box has tiers 1 to 6"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "{output:?}");
}
