//! `grundy split` and `grundy judge caos3`.

use std::time::{Duration, Instant};

use grundy::split::{Cell, Grid, Position, SplitSolver};
use predicates::str::contains;
use serde_json::Value;

use crate::common::{assert_input_error, assert_success, check_judge_sample, grundy};

#[test]
fn judge_caos3_sample() {
    check_judge_sample("caos3", "caos3");
}

#[test]
fn judge_caos3_rejects_bad_maps() {
    assert_input_error(
        grundy()
            .args(["judge", "caos3"])
            .write_stdin("1\n2 3\n^^^\n^.^\n"),
        "<stdin>",
        4,
        2,
        "unexpected '.'",
    );
    assert_input_error(
        grundy().args(["judge", "caos3"]).write_stdin("1\n30 3\n"),
        "<stdin>",
        2,
        1,
        "out of range 1 to 20",
    );
}

fn json_of(args: &[&str], input: &str) -> Value {
    let output = grundy()
        .arg("split")
        .args(args)
        .arg("--json")
        .arg("-")
        .write_stdin(input.to_owned())
        .output()
        .unwrap();
    assert_success(&output);
    serde_json::from_slice(&output.stdout).expect("valid JSON")
}

/// A fixed-seed random 0/1 matrix.
fn random_matrix(rows: usize, cols: usize, seed: u64) -> Vec<String> {
    let mut state = seed;
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    if state % 2 == 0 {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn json_reports_value_and_winning_moves_that_leave_zero() {
    let rows = random_matrix(9, 11, 0x1234_5678_9ABC_DEF1);
    let json = json_of(&[], &(rows.join("\n") + "\n"));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let position = Position::new(Grid::from_rows(&refs));
    let mut solver = SplitSolver::new();
    let value = solver.value(&position).unwrap();
    assert_eq!(json["rows"], 9);
    assert_eq!(json["cols"], 11);
    assert_eq!(json["grundy"], value.value());
    assert_eq!(
        json["winner"],
        if value.is_zero() { "second" } else { "first" }
    );
    let moves = json["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), solver.winning_moves(&position).unwrap().len());
    assert_eq!(moves.is_empty(), value.is_zero());
    for mv in moves {
        let cell = Cell::new(
            mv["row"].as_u64().unwrap() as u32,
            mv["col"].as_u64().unwrap() as u32,
        );
        let after = position.try_play(cell).expect("a legal move");
        assert!(solver.value(&after).unwrap().is_zero());
    }
}

#[test]
fn cells_with_huge_coordinates_match_the_compressed_matrix() {
    let rows = random_matrix(7, 8, 0xFEED_FACE_0000_0001);
    let matrix = json_of(&[], &(rows.join("\n") + "\n"));
    let mut list = String::from("1000000000 1000000000\n");
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '1' {
                list.push_str(&format!("{} {}\n", r * 123_456_789 + 5, c * 98_765_432 + 7));
            }
        }
    }
    let cells = json_of(&["--cells"], &list);
    assert_eq!(cells["grundy"], matrix["grundy"]);
    assert_eq!(cells["rows"], 1_000_000_000);
    let to_small = |m: &Value| {
        (
            (m["row"].as_u64().unwrap() - 5) / 123_456_789,
            (m["col"].as_u64().unwrap() - 7) / 98_765_432,
        )
    };
    let from_cells: Vec<_> = cells["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(to_small)
        .collect();
    let from_matrix: Vec<_> = matrix["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["row"].as_u64().unwrap(), m["col"].as_u64().unwrap()))
        .collect();
    assert_eq!(from_cells, from_matrix);
}

#[test]
fn map_mode_agrees_with_the_judge_sample() {
    // The CAOS3 sample's single map, without its T/R/C header.
    let text = crate::common::data_text("caos3.in");
    let map: Vec<&str> = text.lines().skip(2).collect();
    let json = json_of(&["--map"], &(map.join("\n") + "\n"));
    let expected = crate::common::data_text("caos3.out");
    assert_eq!(json["grundy"] != 0, expected.trim() == "Asuna");
}

/// A map's drawing shows its walls where the map has them (`#`), its
/// candidates (`1`, by CAOS3's rule, computed here by hand) and its other
/// open cells (`.`), and says so; a matrix's drawing has no walls.
#[test]
fn a_maps_drawing_shows_its_walls() {
    let map = [
        "^^^^^^^", "^^^^^^^", "^^^#^^^", "^^^^^^^", "^^^^^^^", "^^^^^^^",
    ];
    let output = grundy()
        .args(["split", "--map", "-"])
        .write_stdin(map.join("\n") + "\n")
        .output()
        .unwrap();
    crate::common::assert_success(&output);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("# a wall"), "{text}");
    // Row 4 (below the wall): the cells two away from the wall's column have
    // arms of at least 2 on every side; the one under the wall has none up.
    let open = |r: i64, c: i64| {
        (0..6).contains(&r) && (0..7).contains(&c) && map[r as usize].as_bytes()[c as usize] == b'^'
    };
    let arm = |r: i64, c: i64, dr: i64, dc: i64| {
        (1..).take_while(|&k| open(r + k * dr, c + k * dc)).count()
    };
    for (r, row) in map.iter().enumerate() {
        let drawn = text
            .lines()
            .find(|line| line.starts_with(&format!("{:>3} ", r + 1)))
            .unwrap_or_else(|| panic!("row {}: {text}", r + 1));
        let cells: String = drawn[4..].split(' ').collect();
        let expected: String = (0..7)
            .map(|c| {
                let (r, c) = (r as i64, c as i64);
                if row.as_bytes()[c as usize] == b'#' {
                    '#'
                } else if [(0, 1), (0, -1), (1, 0), (-1, 0)]
                    .iter()
                    .all(|&(dr, dc)| arm(r, c, dr, dc) >= 2)
                {
                    '1'
                } else {
                    '.'
                }
            })
            .collect();
        assert_eq!(cells, expected, "row {}: {text}", r + 1);
    }
    grundy()
        .args(["split", "-"])
        .write_stdin("110\n011\n101\n")
        .assert()
        .success()
        .stdout(predicates::prelude::PredicateBooleanExt::not(contains("#")));
}

#[test]
fn human_output_and_play_out() {
    grundy()
        .arg("split")
        .arg("--play")
        .arg("-")
        .write_stdin("110\n011\n101\n")
        .assert()
        .success()
        .stdout(contains("Grid (3 x 3), 6 candidates:"))
        .stdout(contains("First player wins."))
        .stdout(contains("Play-out"))
        // The grids' marks are told.
        .stdout(contains("- out of play: on a deleted row or column"))
        .stdout(contains("Second player cannot move and loses."));
    let position = Position::new(Grid::from_rows(&["110", "011", "101"]));
    let mut solver = SplitSolver::new();
    let value = solver.value(&position).unwrap();
    let mut expected = format!("Grundy value: {value}\n");
    for cell in solver.winning_moves(&position).unwrap() {
        expected.push_str(&format!(
            "  split at {cell}, leaving grundy 0 (rectangles left with candidates: \n"
        ));
    }
    grundy()
        .args(["split", "-"])
        .write_stdin("110\n011\n101\n")
        .assert()
        .success()
        .stdout(contains(expected.lines().next().unwrap()))
        .stdout(contains(expected.lines().nth(1).unwrap()));
    // Two candidates in opposite corners: every play lasts two moves.
    grundy()
        .args(["split", "-"])
        .write_stdin("10\n01\n")
        .assert()
        .success()
        .stdout(contains("Grundy value: 0"))
        .stdout(contains("Second player wins."));
}

#[test]
fn bad_input_gets_a_located_error_and_exit_2() {
    assert_input_error(
        grundy().args(["split", "-"]).write_stdin("101\n10\n"),
        "<stdin>",
        2,
        3,
        "ragged row: 2 cells, but the first row has 3",
    );
    assert_input_error(
        grundy().args(["split", "-"]).write_stdin("101\n1?1\n"),
        "<stdin>",
        2,
        2,
        "unexpected '?'",
    );
    assert_input_error(
        grundy()
            .args(["split", "--cells", "-"])
            .write_stdin("5 5\n1 1\n2 5\n"),
        "<stdin>",
        3,
        3,
        "out of range 0 to 4",
    );
    assert_input_error(
        grundy()
            .args(["split", "--cells", "-"])
            .write_stdin("5 5\n1 1\n2 2\n1 1\n"),
        "<stdin>",
        4,
        1,
        "duplicate candidate `1 1` (first given on line 2)",
    );
    assert_input_error(
        grundy()
            .args(["split", "--map", "-"])
            .write_stdin("^^\n^1\n"),
        "<stdin>",
        2,
        2,
        "unexpected '1'",
    );
    // A full 256 x 256 matrix is one block of more candidates than a
    // dense table holds (65,535).
    assert_input_error(
        grundy()
            .args(["split", "-"])
            .write_stdin(format!("{}\n", "1".repeat(256)).repeat(256)),
        "<stdin>",
        1,
        1,
        "a block holds at most 65535",
    );
}

#[test]
fn the_time_budget_stops_a_large_table_with_exit_3() {
    let output = grundy()
        .args(["split", "--max-time", "0.05", "-"])
        .write_stdin(format!("{}\n", "1".repeat(120)).repeat(120))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the time budget"), "{stderr}");
}

/// When the values stop, what is known is printed before the error (exit
/// 3): the value and the winner `null`, and a move the pair search proves
/// without values, which the solver without a budget confirms leaves 0.
#[test]
fn a_stopped_analysis_prints_what_is_known() {
    // Point-symmetric with a candidate at the centre: a split there leaves
    // two pairs of congruent rectangles.
    let mut rows: Vec<Vec<u8>> = random_matrix(41, 41, 7)
        .into_iter()
        .map(String::into_bytes)
        .collect();
    for r in 0..41 {
        for c in 0..41 {
            rows[r][c] = rows[40 - r][40 - c];
        }
    }
    rows[20][20] = b'1';
    let text: String = rows
        .iter()
        .map(|row| String::from_utf8(row.clone()).unwrap() + "\n")
        .collect();
    let run = |args: &[&str], input: &str| {
        grundy()
            .arg("split")
            .args(args)
            .arg("-")
            .write_stdin(input.to_owned())
            .output()
            .unwrap()
    };
    let output = run(&["--json", "--play", "--max-positions", "1"], &text);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no play-out, which needs every value"),
        "{stderr}"
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(json["grundy"], Value::Null);
    assert_eq!(json["play"], Value::Null);
    assert_eq!(json["winner"], "first");
    assert_eq!(json["winning_moves_complete"], false);
    assert!(json["stopped"]
        .as_str()
        .unwrap()
        .contains("position budget"));
    let moves = json["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    let cell = Cell::new(
        moves[0]["row"].as_u64().unwrap() as u32,
        moves[0]["col"].as_u64().unwrap() as u32,
    );
    let grid = Grid::from_rows(&text.lines().collect::<Vec<_>>());
    let after = Position::new(grid).try_play(cell).expect("a legal move");
    assert_eq!(SplitSolver::new().value(&after).unwrap().value(), 0);
    let output = run(&["--max-positions", "1"], &text);
    assert_eq!(output.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("Grid (41 x 41), "), "{stdout}");
    assert!(
        stdout.contains("Grundy value: unknown (gave up"),
        "{stdout}"
    );
    assert!(stdout.contains("First player wins."), "{stdout}");
    assert!(
        stdout.contains("  split at (21,21), leaving grundy 0 (the rectangles it leaves pair up"),
        "{stdout}"
    );
    // Refused at once for memory (its table), the same is printed first,
    // then the located refusal.
    let output = run(&["--json", "--max-memory", "1B"], &text);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("<stdin>:1:"), "{stderr}");
    assert!(
        stderr.contains("grid too large for --max-memory"),
        "{stderr}"
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(json["grundy"], Value::Null);
    assert_eq!(json["winning_moves"][0]["row"], 20);
    assert_eq!(json["winning_moves"][0]["col"], 20);
    assert!(json["stopped"].as_str().unwrap().contains("memory budget"));
    // Without symmetry nothing is proven: the winner is unknown.
    rows[0][0] = b'1';
    rows[40][40] = b'0';
    let text: String = rows
        .iter()
        .map(|row| String::from_utf8(row.clone()).unwrap() + "\n")
        .collect();
    let output = run(&["--json", "--max-positions", "1"], &text);
    assert_eq!(output.status.code(), Some(3));
    let json: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(json["winner"], Value::Null);
    assert_eq!(json["winning_moves"], serde_json::json!([]));
    let output = run(&["--max-positions", "1"], &text);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Winner: unknown within the budget."),
        "{stdout}"
    );
}

#[test]
fn the_position_budget_stops_a_large_search_with_exit_3() {
    // The full 20 x 20 grid's dense table holds every sub-rectangle,
    // C(21, 2)^2 = 44,100 of them: refused before solving, and said so.
    let output = grundy()
        .args(["split", "--max-positions", "1000", "-"])
        .write_stdin("11111111111111111111\n".repeat(20))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The hint names the budget that ran out, the one flag that helps.
    assert!(
        stderr.contains("raise --max-positions to search further"),
        "{stderr}"
    );
    assert!(!stderr.contains("--max-time"), "{stderr}");
    let rectangles = (21 * 20 / 2) * (21 * 20 / 2);
    assert!(
        stderr.contains(&format!(
            "gave up before solving: the search would need at least {rectangles} positions, more than the position budget of 1000 positions"
        )),
        "{stderr}"
    );
}

/// Runs `grundy split --cells` on `input` with `args`, and checks it stops
/// with exit 3 and a budget message containing `what`, within `bound`.
fn assert_cells_budget_stops(args: &[&str], input: String, what: &str, bound: Duration) -> String {
    let started = Instant::now();
    let output = grundy()
        .args(["split", "--cells"])
        .args(args)
        .arg("-")
        .write_stdin(input)
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains(what), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(took < bound, "took {took:?}, bound {bound:?}");
    stderr.into_owned()
}

/// Issue 14's first reproduction, generated here: 10^5 distinct random
/// candidates on a 10^9 x 10^9 grid (a few share a row or a column, so no
/// closed form applies, and the generic search's keys are about 0.8 MB).
fn random_cells(count: usize, seed: u64) -> String {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % 1_000_000_000
    };
    let mut cells = std::collections::BTreeSet::new();
    while cells.len() < count {
        cells.insert((next(), next()));
    }
    let mut text = String::from("1000000000 1000000000\n");
    for (x, y) in cells {
        text.push_str(&format!("{x} {y}\n"));
    }
    text
}

/// Issue 14's second reproduction: a permutation of 30,000 candidates and
/// one more on the first one's row, at the far right.
fn permutation_with_a_shared_row() -> String {
    let k = 30_000u64;
    let mut text = String::from("1000000000 1000000000\n");
    for i in 0..k {
        text.push_str(&format!("{} {}\n", i * 1000, (i * 7919) % k * 1000));
    }
    text.push_str("0 999999999\n");
    text
}

#[test]
fn the_time_budget_holds_on_huge_cell_lists() {
    // Generous bound (3x --max-time); the 10% figure is measured in the
    // issue's reproductions, not asserted.
    let bound = Duration::from_secs(3);
    assert_cells_budget_stops(
        &["--max-positions", "100000", "--max-time", "1"],
        random_cells(100_000, 6),
        "the time budget",
        bound,
    );
    assert_cells_budget_stops(
        &["--max-time", "1"],
        permutation_with_a_shared_row(),
        "the time budget",
        bound,
    );
}

#[test]
fn the_memory_budget_holds_on_huge_cell_lists() {
    // The memory stops the values within a second; the pair search then
    // has its quarter of the time (1 s), and finds nothing to pair.
    let stderr = assert_cells_budget_stops(
        &["--max-memory", "20MiB", "--max-time", "4"],
        random_cells(100_000, 6),
        "would pass 20.0 MiB (the memory budget",
        Duration::from_secs(60),
    );
    // What it would need counts what the search holds besides its keys:
    // more than the budget it would pass.
    let need = stderr
        .split("it would need ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(" MiB)\n"))
        .and_then(|mib| mib.parse::<f64>().ok());
    assert!(need.is_some_and(|mib| mib > 20.0), "{stderr}");
    // A dense table that does not fit is not built; the generic search
    // then runs out of memory as well.
    let output = grundy()
        .args(["split", "--max-memory", "1MiB", "-"])
        .write_stdin(format!("{}\n", "1".repeat(60)).repeat(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("--max-memory allows 1.0 MiB"), "{stderr}");
}

#[test]
fn bad_memory_sizes_are_usage_errors() {
    for bad in ["0", "2XB", "lots"] {
        grundy()
            .args(["split", "--max-memory", bad, "-"])
            .write_stdin("1\n")
            .assert()
            .code(2)
            .stderr(contains("--max-memory"));
    }
}

/// Issue 25, item 11: the dense table obeys `--max-memory`, not a fixed
/// 512 MiB cap: a table over the budget is refused at once with exit 3,
/// located, naming the flag; one within it is built (here the position
/// budget then refuses its 2 x 10^9 entries at once, exit 3, not exit 2).
#[test]
fn the_dense_table_obeys_max_memory() {
    // 181 x 181 full: a table of 271 million entries, about 543 MiB.
    let full = format!("{}\n", "1".repeat(181)).repeat(181);
    let output = grundy()
        .args(["split", "--max-memory", "256MiB", "-"])
        .write_stdin(full.clone())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("error: <stdin>:1:1: grid too large for --max-memory"),
        "{stderr}"
    );
    assert!(stderr.contains("--max-memory allows 256.0 MiB"), "{stderr}");
    // Said once, located: no second wording of the same budget.
    assert_eq!(stderr.matches("256.0 MiB").count(), 1, "{stderr}");
    let output = grundy()
        .args([
            "split",
            "--max-memory",
            "1GiB",
            "--max-positions",
            "1000",
            "-",
        ])
        .write_stdin(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("the position budget"), "{stderr}");
    // The case: a 300 x 300 grid under --max-memory 8GiB.
    let output = grundy()
        .args([
            "split",
            "--max-memory",
            "8GiB",
            "--max-positions",
            "1000",
            "-",
        ])
        .write_stdin(random_matrix(300, 300, 25).join("\n") + "\n")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("the position budget"), "{stderr}");
    assert!(!stderr.contains("512 MiB"), "{stderr}");
}

/// Issue 25, item 10: `--max-positions` bounds the generic search even
/// when no position is solved yet: 4,000 candidates on 600 rows and
/// columns (a table of 65 GB, so the generic search runs) stop at the
/// position budget, before the memory budget of 64 MiB that stopped them
/// before the fix.
#[test]
fn the_position_budget_bounds_the_generic_search() {
    let mut state = 5u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % 600
    };
    let mut cells = std::collections::BTreeSet::new();
    while cells.len() < 4000 {
        cells.insert((next(), next()));
    }
    let mut input = String::from("600 600\n");
    for (x, y) in cells {
        input.push_str(&format!("{x} {y}\n"));
    }
    // The time budget is a safety net: the positions stop the values, and
    // the pair search after them has a quarter of it (1 s).
    assert_cells_budget_stops(
        &[
            "--max-positions",
            "1000",
            "--max-memory",
            "64MiB",
            "--max-time",
            "4",
        ],
        input,
        "gave up after 1000 positions (the position budget)",
        Duration::from_secs(120),
    );
}

/// `--move`: on grids the solver values, the engine's move is proven and
/// right (a winning move leaves 0; in a lost position it says so); on a
/// grid far past a short budget it is still a legal move, unproven, with
/// exit 0.
#[test]
fn the_engine_move_is_proven_or_a_legal_guess() {
    for seed in 1..12u64 {
        let rows = random_matrix(5 + seed as usize % 4, 6, seed * 0x9E37_79B9);
        let json = json_of(&["--move"], &(rows.join("\n") + "\n"));
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let position = Position::new(Grid::from_rows(&refs));
        let mut solver = SplitSolver::new();
        let value = solver.value(&position).unwrap();
        if position.moves().next().is_none() {
            assert_eq!(json["move"], Value::Null);
            continue;
        }
        let cell = Cell::new(
            json["move"]["row"].as_u64().unwrap() as u32,
            json["move"]["col"].as_u64().unwrap() as u32,
        );
        let after = solver
            .value(&position.try_play(cell).expect("a legal move"))
            .unwrap();
        assert_eq!(json["proven"], true, "{json}");
        if value.is_zero() {
            assert_eq!(json["kind"], "losing", "{json}");
        } else {
            assert_eq!(json["kind"], "winning", "{json}");
            assert!(after.is_zero(), "{json}");
        }
    }
    let rows = random_matrix(120, 120, 0xDEAD_BEEF);
    let json = json_of(&["--move", "--max-time", "0.5"], &(rows.join("\n") + "\n"));
    assert_eq!(
        (&json["proven"], &json["kind"]),
        (&false.into(), &"unproven".into()),
        "{json}"
    );
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let position = Position::new(Grid::from_rows(&refs));
    let cell = Cell::new(
        json["move"]["row"].as_u64().unwrap() as u32,
        json["move"]["col"].as_u64().unwrap() as u32,
    );
    assert!(position.try_play(cell).is_ok(), "{json}");
    // Grids the analysis refuses (a table past --max-memory; a block of
    // more candidates than a table holds, here 300 x 300) still get a
    // legal move, exit 0.
    let full = "1".repeat(300);
    let cases = [
        (vec!["101", "000", "100"], "100B"),
        (vec![full.as_str(); 300], "2GiB"),
    ];
    for (rows, memory) in cases {
        let text = rows.join("\n") + "\n";
        let json = json_of(
            &["--move", "--max-time", "0.5", "--max-memory", memory],
            &text,
        );
        let position = Position::new(Grid::from_rows(&rows));
        let cell = Cell::new(
            json["move"]["row"].as_u64().unwrap() as u32,
            json["move"]["col"].as_u64().unwrap() as u32,
        );
        assert!(position.try_play(cell).is_ok(), "{json}");
    }
    let output = grundy()
        .args(["split", "--move", "--play", "-"])
        .write_stdin("1\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// Every winning move of a grid of any size gets its reason, the first 64
/// of a long list; the rest are said to be without one, in the list and in
/// the explanation, rather than silently.
#[test]
fn winning_moves_keep_their_reasons_and_a_cut_says_so() {
    // `grundy split ARGS -` on `input`: its output, and its winning-move lines.
    let listed = |args: &[&str], input: String| {
        let output = grundy()
            .arg("split")
            .args(args)
            .arg("-")
            .write_stdin(input)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let moves: Vec<String> = stdout
            .lines()
            .filter(|l| l.starts_with("  split at"))
            .map(str::to_owned)
            .collect();
        (stdout, moves)
    };
    let (stdout, moves) = listed(
        &["--cells"],
        "1000000000 1000000000\n0 0\n5 7\n999999999 3\n".to_owned(),
    );
    assert_eq!(moves.len(), 3, "{stdout}");
    assert!(
        moves.iter().all(|l| l.contains(" left with candidates: ")),
        "{stdout}"
    );
    let (stdout, moves) = listed(&["--explain"], format!("{}\n", "1".repeat(100)));
    assert_eq!(moves.len(), 100, "{stdout}");
    let with_reason = moves.iter().filter(|l| l.ends_with(')')).count();
    assert_eq!(with_reason, 64, "{stdout}");
    assert!(
        stdout.contains("  (the rectangles each leaves are given for the first 64 of them)"),
        "{stdout}"
    );
    let explained = stdout
        .lines()
        .filter(|l| l.starts_with("    split at"))
        .count();
    assert_eq!(explained, 64, "{stdout}");
    assert!(
        stdout.contains("    ... and 36 more winning moves, not explained here"),
        "{stdout}"
    );
}

/// Blank lines before and after the one grid are ignored, as around boards
/// (the README says so).
#[test]
fn blank_lines_around_the_grid_are_ignored() {
    let plain = json_of(&[], "0110\n1001\n");
    assert_eq!(json_of(&[], "\n\n0110\n1001\n\n"), plain);
    assert_eq!(json_of(&[], "\r\n0110\r\n1001\r\n\r\n"), plain);
}
