//! The published data of `docs/data/` against the databases and the
//! solvers: the committed metadata of the small boxes equals that of a
//! fresh build (SHA-256 included), `full-boards.csv` agrees with every
//! committed box metadata and with the top-down solver, and
//! `tables export` / `tables info --json` agree with the top-down solver
//! and with `sha256sum`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use grundy::clear::{Board, Clear};
use serde_json::Value;

fn grundy() -> Command {
    Command::cargo_bin("grundy").expect("the grundy binary is built")
}

fn assert_success(output: &Output) {
    assert!(
        output.status.success(),
        "exit {:?}, stderr: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/data")
}

/// The boxes whose committed JSON a test rebuilds (seconds each); the
/// others of `docs/data/generate.sh` are checked by hand (see
/// docs/results.md).
const SMALL: [&str; 5] = ["2x8", "2x12", "3x8", "4x6", "5x5"];

/// The metadata minus what varies run to run: the build's measurements.
fn without_measured(mut meta: Value) -> Value {
    if let Some(build) = meta.get_mut("build").and_then(Value::as_object_mut) {
        build.remove("measured");
    }
    meta
}

fn info_json(db: &Path) -> Value {
    let output = grundy()
        .args(["tables", "info", "--json"])
        .arg(db)
        .output()
        .unwrap();
    assert_success(&output);
    serde_json::from_slice(&output.stdout).expect("info --json prints JSON")
}

fn committed_boxes() -> BTreeMap<String, Value> {
    let mut boxes = BTreeMap::new();
    for entry in std::fs::read_dir(data_dir().join("boxes")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let meta: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            boxes.insert(name, meta);
        }
    }
    boxes
}

/// Rebuilds each small box with the command its JSON records, in a fresh
/// directory, and compares `tables info --json` of the result with the
/// committed file: box, tiers, histograms, full boards, size, SHA-256 and
/// command (the build's CPU time and memory excepted).
#[test]
fn small_boxes_metadata_equals_a_fresh_build() {
    let boxes = committed_boxes();
    for name in SMALL {
        let committed = boxes
            .get(name)
            .unwrap_or_else(|| panic!("docs/data/boxes/{name}.json is missing"));
        let command = committed["build"]["command"]
            .as_str()
            .expect("a build command");
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(&words[..3], ["grundy", "tables", "build"], "{command}");
        let dir = tempfile::tempdir().unwrap();
        let output = grundy()
            .args(&words[1..])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_success(&output);
        let fresh = info_json(&dir.path().join(format!("clear-{name}.gdb")));
        assert_eq!(
            without_measured(fresh),
            without_measured(committed.clone()),
            "docs/data/boxes/{name}.json differs from a fresh build: run docs/data/generate.sh --rebuild"
        );
    }
}

#[derive(Debug, serde::Deserialize)]
struct Row {
    rows: usize,
    cols: usize,
    cells: usize,
    value: u32,
    method: String,
    source: String,
    #[serde(rename = "box")]
    shape_box: String,
    box_shapes: u64,
    cpu_seconds: Option<f64>,
    peak_memory_mb: Option<f64>,
    commit: String,
    confirmations: String,
}

fn full_boards_csv() -> Vec<Row> {
    let path = data_dir().join("full-boards.csv");
    csv::Reader::from_path(&path)
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse_box(name: &str) -> (usize, usize) {
    let (a, b) = name.split_once('x').expect("AxB");
    (a.parse().unwrap(), b.parse().unwrap())
}

/// Every row is well formed, and agrees with every committed box metadata:
/// each full board a box holds is a row with the same value, and a row's
/// box has the shapes its metadata counts.
#[test]
fn full_boards_csv_agrees_with_the_box_metadata() {
    let rows = full_boards_csv();
    let boxes = committed_boxes();
    let mut by_board = BTreeMap::new();
    for row in &rows {
        assert!(row.rows <= row.cols, "{row:?}");
        assert_eq!(row.cells, row.rows * row.cols, "{row:?}");
        assert!(
            ["database", "top-down", "brute force"].contains(&row.method.as_str()),
            "{row:?}"
        );
        assert!(
            row.commit.len() == 40 && row.commit.chars().all(|c| c.is_ascii_hexdigit()),
            "{row:?}"
        );
        assert!(row.cpu_seconds.is_none_or(|s| s >= 0.0), "{row:?}");
        assert!(row.peak_memory_mb.is_none_or(|m| m > 0.0), "{row:?}");
        assert!(!row.source.is_empty(), "{row:?}");
        if row.method == "database" {
            let (a, b) = parse_box(&row.shape_box);
            assert!(
                row.rows <= a && row.cols <= b,
                "the box holds the board: {row:?}"
            );
            assert!(
                row.source
                    .starts_with(&format!("grundy tables build --box {}", row.shape_box)),
                "{row:?}"
            );
        }
        assert!(
            by_board.insert((row.rows, row.cols), row).is_none(),
            "one row per board: {row:?}"
        );
    }
    let mut checked = 0;
    for (name, meta) in &boxes {
        for board in meta["full_boards"].as_array().unwrap() {
            let (a, b) = (
                board["rows"].as_u64().unwrap() as usize,
                board["cols"].as_u64().unwrap() as usize,
            );
            let row = by_board
                .get(&(a, b))
                .unwrap_or_else(|| panic!("{a} x {b} of box {name} has no row"));
            assert_eq!(
                u64::from(row.value),
                board["value"].as_u64().unwrap(),
                "{a} x {b}: the CSV and docs/data/boxes/{name}.json"
            );
            checked += 1;
        }
        for row in rows.iter().filter(|r| &r.shape_box == name) {
            assert_eq!(
                row.box_shapes,
                meta["shapes"].as_u64().unwrap(),
                "{row:?} and docs/data/boxes/{name}.json"
            );
        }
    }
    assert!(
        checked >= 40,
        "only {checked} full boards in the committed JSON"
    );
    // The CSV names a confirmation it does not have nowhere: a row that cites
    // this test is checked by the next one.
    for row in &rows {
        if row.confirmations.contains("--test data_files") {
            assert!(row.cells <= 24, "{row:?}");
        }
    }
}

/// The CSV's figures for a database are those the command line and the
/// page quote (`grundy_report::databases`, itself checked against
/// `docs/results.md`): its shape count, and its CPU where the CSV gives one
/// (2 x 23's is empty: only its resumed run was measured).
#[test]
fn full_boards_csv_agrees_with_the_measured_databases() {
    let rows = full_boards_csv();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.method == "database") {
        let (a, b) = parse_box(&row.shape_box);
        let db = grundy_report::databases::MEASURED_DATABASES
            .iter()
            .find(|db| (db.rows, db.cols) == (a, b))
            .unwrap_or_else(|| panic!("{row:?}: box {} is not a measured database", row.shape_box));
        assert_eq!(row.box_shapes, db.shapes, "{row:?}");
        if let Some(cpu) = row.cpu_seconds {
            assert!((cpu - db.cpu_seconds).abs() < 1e-9, "{row:?} and {db:?}");
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} database rows");
}

/// Every board of up to 24 cells by the top-down solver, and every line by
/// its proved value n.
#[test]
fn full_boards_csv_agrees_with_the_top_down_solver() {
    let mut solver = Clear::solver();
    let mut checked = 0;
    for row in full_boards_csv() {
        if row.rows == 1 {
            assert_eq!(row.value as usize, row.cols, "{row:?}");
        }
        if row.cells <= 24 {
            let board = Board::new(row.rows, row.cols, (1u64 << row.cells) - 1).unwrap();
            assert_eq!(solver.value(&board).unwrap().value(), row.value, "{row:?}");
            assert!(
                row.confirmations.contains("--test data_files"),
                "{row:?} should cite this test"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}

/// `tables export` of the 3 x 5 box: one line per shape, the shape column
/// decodes to the key as documented, and each shape's value is the top-down
/// solver's.
#[test]
fn export_decodes_and_agrees_with_the_top_down_solver() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("clear-3x5.gdb");
    let output = grundy()
        .args(["tables", "build", "--box", "3x5", "--out"])
        .arg(&db)
        .output()
        .unwrap();
    assert_success(&output);
    let output = grundy()
        .args(["tables", "export", "--format", "csv"])
        .arg(&db)
        .output()
        .unwrap();
    assert_success(&output);
    let text = String::from_utf8(output.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("tier,key,value,height,width,shape"));
    let box_cols = 5;
    let mut keys = std::collections::BTreeSet::new();
    let mut solver = Clear::solver();
    let mut per_tier = BTreeMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "{line}");
        let (tier, key, value): (usize, u64, u32) = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
        );
        let (height, width): (usize, usize) = (f[3].parse().unwrap(), f[4].parse().unwrap());
        let shape_rows: Vec<&str> = f[5].split('/').collect();
        assert_eq!(shape_rows.len(), height, "{line}");
        assert!(height <= width && height <= 3 && width <= 5, "{line}");
        // Key: cell (r, c) at bit r * box_cols + c. Board: at bit r * width + c.
        let (mut from_rows, mut cells) = (0u64, 0u64);
        for (r, row) in shape_rows.iter().enumerate() {
            assert_eq!(row.len(), width, "{line}");
            for (c, ch) in row.chars().enumerate() {
                if ch == '1' {
                    from_rows |= 1 << (r * box_cols + c);
                    cells |= 1 << (r * width + c);
                }
            }
        }
        assert_eq!(from_rows, key, "{line}");
        assert_eq!(cells.count_ones() as usize, tier, "{line}");
        let board = Board::new(height, width, cells).unwrap();
        assert_eq!(solver.value(&board).unwrap().value(), value, "{line}");
        assert!(keys.insert(key), "{line}: key twice");
        *per_tier.entry(tier).or_insert(0u64) += 1;
    }
    let meta = info_json(&db);
    assert_eq!(keys.len() as u64, meta["shapes"].as_u64().unwrap());
    for tier in meta["tiers"].as_array().unwrap() {
        let t = tier["tier"].as_u64().unwrap() as usize;
        assert_eq!(
            per_tier.get(&t).copied().unwrap_or(0),
            tier["shapes"].as_u64().unwrap()
        );
    }
}

/// `tables info --json`: the histograms add up to the shapes, the largest
/// values match the histograms, the size and SHA-256 match the file (the
/// SHA-256 by `sha256sum`), and the build record's command is the one run.
#[test]
fn info_json_agrees_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("clear-3x4.gdb");
    let output = grundy()
        .args(["tables", "build", "--box", "3x4", "--threads", "1", "--out"])
        .arg(&db)
        .output()
        .unwrap();
    assert_success(&output);
    let meta = info_json(&db);
    assert_eq!(meta["format"], "grundy-box-metadata");
    assert_eq!(meta["box"]["rows"], 3);
    assert_eq!(meta["box"]["cols"], 4);
    let tiers = meta["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 12);
    let mut total = 0;
    let mut values = vec![0u64; 0];
    for tier in tiers {
        let hist: Vec<u64> = tier["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(hist.iter().sum::<u64>(), tier["shapes"].as_u64().unwrap());
        assert_eq!(
            hist.len() as u64 - 1,
            tier["largest_value"].as_u64().unwrap()
        );
        assert_ne!(hist.last(), Some(&0));
        values.resize(values.len().max(hist.len()), 0);
        for (v, c) in hist.iter().enumerate() {
            values[v] += c;
        }
        total += tier["shapes"].as_u64().unwrap();
    }
    assert_eq!(total, meta["shapes"].as_u64().unwrap());
    let all: Vec<u64> = meta["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(all, values);
    // The full 3 x 4 board: 7 (docs/results.md, and the top-down solver).
    let full = meta["full_boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["rows"] == 3 && b["cols"] == 4)
        .unwrap();
    let board = Board::new(3, 4, (1 << 12) - 1).unwrap();
    assert_eq!(
        full["value"].as_u64().unwrap(),
        u64::from(Clear::solver().value(&board).unwrap().value())
    );
    let file = &meta["files"][0];
    assert_eq!(file["name"], "clear-3x4.gdb");
    assert_eq!(
        file["bytes"].as_u64().unwrap(),
        std::fs::metadata(&db).unwrap().len()
    );
    let sum = std::process::Command::new("sha256sum")
        .arg(&db)
        .output()
        .expect("sha256sum (coreutils) is installed");
    let sum = String::from_utf8(sum.stdout).unwrap();
    assert_eq!(
        file["sha256"].as_str().unwrap(),
        sum.split_whitespace().next().unwrap()
    );
    let build = &meta["build"];
    assert_eq!(
        build["command"],
        "grundy tables build --box 3x4 --threads 1 --out clear-3x4.gdb"
    );
    assert_eq!(build["first_tier"], 1);
    assert_eq!(build["measured"]["threads"], 1);
}

/// A database without a build record (copied without it, or built before
/// records existed) has `"build": null`; a damaged record is an error, not
/// a guess.
#[test]
fn info_json_without_or_with_a_bad_build_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("clear-2x3.gdb");
    let output = grundy()
        .args(["tables", "build", "--box", "2x3", "--out"])
        .arg(&db)
        .output()
        .unwrap();
    assert_success(&output);
    let record = dir.path().join("clear-2x3.gdb.build.json");
    std::fs::remove_file(&record).unwrap();
    assert_eq!(info_json(&db)["build"], Value::Null);
    std::fs::write(&record, "{ not json").unwrap();
    let output = grundy()
        .args(["tables", "info", "--json"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("build record"), "{stderr}");
}

/// The SHA-256 a reader compares a rebuild with, in `docs/results.md` and
/// `docs/data/SHA256SUMS`, are those of the committed metadata (both are
/// generated from it by `docs/data/generate.sh`; this catches a stale copy).
#[test]
fn published_checksums_are_those_of_the_metadata() {
    let results = std::fs::read_to_string(data_dir().join("../results.md")).unwrap();
    let block = results
        .split("<!-- BEGIN checksums")
        .nth(1)
        .and_then(|rest| rest.split("<!-- END checksums -->").next())
        .expect("docs/results.md has the checksums block");
    let sums = std::fs::read_to_string(data_dir().join("SHA256SUMS")).unwrap();
    let boxes = committed_boxes();
    let mut published = 0;
    for (name, meta) in &boxes {
        let command = meta["build"]["command"].as_str().unwrap();
        for file in meta["files"].as_array().unwrap() {
            let (sha, file_name) = (
                file["sha256"].as_str().unwrap(),
                file["name"].as_str().unwrap(),
            );
            let row = block
                .lines()
                .find(|l| l.contains(&format!("[{name}.json]")))
                .unwrap_or_else(|| panic!("no row for {name} in docs/results.md"));
            assert!(row.contains(sha) && row.contains(command), "{row}");
            assert!(
                sums.lines().any(|l| l == format!("{sha}  {file_name}")),
                "SHA256SUMS lacks {file_name}"
            );
            published += 1;
        }
    }
    assert_eq!(published, sums.lines().count());
    assert!(published >= SMALL.len());
}
