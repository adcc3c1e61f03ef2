//! `grundy tables build | info | verify`, and `--tables` in the other
//! commands.

use std::path::{Path, PathBuf};

use grundy::clear::{Board, Clear};

use crate::common::{assert_success, grundy};

fn build(dir: &Path, shape_box: &str) -> PathBuf {
    let out = dir.join(format!("clear-{shape_box}.gdb"));
    let output = grundy()
        .args(["tables", "build", "--box", shape_box, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&output);
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
    let info = grundy()
        .args(["tables", "info", "--values"])
        .arg(db)
        .output()
        .unwrap();
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
        text.contains(&format!("{samples} random shapes re-solved top-down agree")),
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
    verify_agrees(&db, 300, &[]);
}

#[test]
fn bad_boxes_are_usage_errors() {
    for (bad, what) in [
        ("9x9", "not supported"),
        ("7x8", "not supported"),
        ("5x9", "not supported"),
        ("3x17", "not supported"),
        ("0x4", "a side is zero"),
        ("8x9", "an 8 x 9 box is not supported"),
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
        let output = grundy().args(["tables", cmd]).arg(&db).output().unwrap();
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
    let output = grundy().args(["tables", "info"]).arg(&db).output().unwrap();
    assert_exit(&output, 2, "truncated");
    // Another format version.
    let mut other = good.clone();
    other[8] = 9;
    std::fs::write(&db, &other).unwrap();
    let output = grundy().args(["tables", "info"]).arg(&db).output().unwrap();
    assert_exit(&output, 2, "format version 9");
    // Not a database at all, and no file.
    std::fs::write(&db, "1111\n").unwrap();
    let output = grundy()
        .args(["tables", "verify"])
        .arg(&db)
        .output()
        .unwrap();
    assert_exit(&output, 2, "not a grundy shape database");
    let output = grundy()
        .args(["tables", "info"])
        .arg(dir.path().join("missing.gdb"))
        .output()
        .unwrap();
    assert_exit(&output, 2, "missing.gdb");
}

#[test]
fn an_unwritable_output_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = grundy()
        .args(["tables", "build", "--box", "2x2", "--out"])
        .arg(dir.path().join("no/such/dir/db.gdb"))
        .output()
        .unwrap();
    assert_exit(&output, 2, "db.gdb.partial");
}

/// A build stopped by its time budget exits 3 and keeps a partial file; run
/// again, it resumes and writes the same bytes as an uninterrupted build.
#[test]
fn a_stopped_build_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = build(dir.path(), "4x4");
    let out = dir.path().join("resumed.gdb");
    let stopped = grundy()
        .args([
            "tables",
            "build",
            "--box",
            "4x4",
            "--max-time",
            "0.001",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_exit(&stopped, 3, "run the same command again to resume");
    assert!(!out.exists());
    let resumed = grundy()
        .args(["tables", "build", "--box", "4x4", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&resumed);
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&out).unwrap());
}

/// Ctrl-C (SIGINT) during a build leaves the old file or a resumable one.
#[cfg(unix)]
#[test]
fn an_interrupted_build_leaves_a_resumable_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = build(dir.path(), "4x5");
    let out = dir.path().join("interrupted.gdb");
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let mut child = std::process::Command::new(&bin)
        .args(["tables", "build", "--box", "4x5", "--threads", "1", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let partial = dir.path().join("interrupted.gdb.partial");
    let start = std::time::Instant::now();
    while !partial.exists() && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(30));
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let _ = child.wait();
    // Either it finished before the signal, or it left a partial file.
    if !out.exists() {
        assert!(partial.exists());
        let resumed = grundy()
            .args(["tables", "build", "--box", "4x5", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_success(&resumed);
    }
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&out).unwrap());
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
    let json = |cmd: &mut assert_cmd::Command| -> serde_json::Value {
        let output = cmd.output().unwrap();
        assert_success(&output);
        serde_json::from_slice(&output.stdout).unwrap()
    };
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
    assert_success(&output);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
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
    assert_success(&output);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
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
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("over 3 ranks"), "{text}");
    assert!(text.contains("wrote 3 files ("), "{text}");
    for r in 0..3 {
        assert!(dir.path().join(format!("parts.part-{r}-of-3.gdb")).exists());
    }
    let checksum = |path: &Path| {
        let output = grundy()
            .args(["tables", "checksum"])
            .arg(path)
            .output()
            .unwrap();
        assert_success(&output);
        String::from_utf8(output.stdout).unwrap()[..8].to_owned()
    };
    assert_eq!(checksum(&stem), checksum(&single));
    assert_eq!(
        checksum(&dir.path().join("parts.part-2-of-3.gdb")),
        checksum(&single)
    );
    let merged = dir.path().join("merged.gdb");
    let output = grundy()
        .args(["tables", "merge"])
        .arg(&stem)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_success(&output);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&single).unwrap()
    );
    let info = grundy()
        .args(["tables", "info"])
        .arg(&stem)
        .output()
        .unwrap();
    assert_success(&info);
    let text = String::from_utf8(info.stdout).unwrap();
    assert!(text.contains("partitioned: 3 parts"), "{text}");
    assert!(
        text.contains(&format!("  3 x 6: {}\n", top_down_full(3, 6))),
        "{text}"
    );
    let verify = grundy()
        .args(["tables", "verify", "--samples", "100"])
        .arg(&stem)
        .output()
        .unwrap();
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
        assert_success(&output);
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
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
    let output = grundy()
        .args(["tables", "info"])
        .arg(&stem)
        .output()
        .unwrap();
    assert_exit(
        &output,
        2,
        "p.part-1-of-2.gdb: checksum mismatch in section tier 1",
    );
    std::fs::remove_file(&part1).unwrap();
    let part0 = dir.path().join("p.part-0-of-2.gdb");
    let output = grundy()
        .args(["tables", "verify"])
        .arg(&part0)
        .output()
        .unwrap();
    assert_exit(&output, 2, "part 1 of 2 is missing");
    // A part of another build with the same name is refused.
    let other = dir.path().join("q.gdb");
    build_parts(&other, "3x4", "2", &[]);
    std::fs::copy(dir.path().join("q.part-1-of-2.gdb"), &part1).unwrap();
    let output = grundy()
        .args(["tables", "checksum"])
        .arg(&part0)
        .output()
        .unwrap();
    assert_exit(&output, 2, "is not part 1 of the same build");
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
    let output = grundy()
        .args([
            "tables",
            "build",
            "--box",
            "2x2",
            "--local-ranks",
            "2",
            "--out",
        ])
        .arg(dir.path().join("no/such/dir/db.gdb"))
        .output()
        .unwrap();
    assert_exit(&output, 2, "db.part-0-of-2.gdb.partial");
}

/// The options of partitioned builds are refused, not ignored, elsewhere.
#[test]
fn partitioned_options_need_a_partitioned_build() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [["--exchange", "query"], ["--memory", "1GiB"]] {
        let output = grundy()
            .args(["tables", "build", "--box", "3x3", "--out"])
            .arg(dir.path().join("x.gdb"))
            .args(extra)
            .output()
            .unwrap();
        assert_exit(&output, 2, "apply to partitioned builds");
    }
}
