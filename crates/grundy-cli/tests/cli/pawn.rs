//! `grundy judge gridgame` and `grundy pawn`.

use grundy::pawn::{Blocked, Cell, CellKind, Outcomes, ValueTable};
use predicates::str::contains;
use serde_json::Value;

use crate::common::{assert_input_error, assert_success, check_judge_sample, grundy};

#[test]
fn judge_gridgame_sample() {
    check_judge_sample("gridgame", "gridgame");
}

#[test]
fn judge_gridgame_rejects_bad_input_with_its_place() {
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n2\n1 1\n1 1\n1\n0 0\n"),
        "<stdin>",
        4,
        1,
        "duplicate impassable cell (1,1), first listed on line 3",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n1\n4 2\n2\n0 0\n4 2\n"),
        "<stdin>",
        6,
        1,
        "the starting cell (4,2) is impassable",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n1\n-4 2\n"),
        "<stdin>",
        3,
        1,
        "negative x coordinate -4",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n1\n4 1000000001\n"),
        "<stdin>",
        3,
        3,
        "out of range 0 to 1000000000",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gridgame"])
            .write_stdin("1\n2\n4 2\n"),
        "<stdin>",
        4,
        1,
        "unexpected end of input",
    );
}

#[test]
fn judge_gridgame_prints_the_answers_before_an_error() {
    let output = grundy()
        .args(["judge", "gridgame"])
        .write_stdin("2\n1\n1 1\n1\n0 0\n1\n1 1\n2\n3 3\n1 1\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    // (0,0) has no move: Bob; then (3,3) is answered before the bad (1,1).
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.starts_with("Bob\n"), "{stdout}");
}

/// Inputs large enough that the judge's buffers pass 64 KiB, so they come
/// from its region of huge pages (`crates/grundy-cli/src/alloc.rs`), and
/// grow there (a piped input is read whole into a growing buffer): the
/// answers of two tests of 12,000 cells and 12,000 starts each, read from
/// a file (mapped) and from a pipe, are those of the engine's
/// [`Outcomes`], built in this process by the system allocator.
#[test]
fn judge_gridgame_answers_large_inputs_as_the_engine() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let (mut input, mut expected) = ("2\n".to_owned(), String::new());
    for side in [400, 1_000_000_000] {
        // Dense cells on a small square, then sparse ones on the whole grid.
        let mut cells = std::collections::HashSet::new();
        while cells.len() < 12_000 {
            cells.insert((next(side), next(side)));
        }
        let cells: Vec<(u64, u64)> = cells.into_iter().collect();
        let blocked =
            Blocked::new(&cells.iter().map(|&(x, y)| cell(x, y)).collect::<Vec<_>>()).unwrap();
        let outcomes = Outcomes::new(&blocked);
        input += &format!("{}\n", cells.len());
        for &(x, y) in &cells {
            input += &format!("{x} {y}\n");
        }
        let mut starts = Vec::new();
        while starts.len() < 12_000 {
            let start = (next(side), next(side));
            if !cells.contains(&start) {
                starts.push(start);
            }
        }
        input += &format!("{}\n", starts.len());
        for &(x, y) in &starts {
            input += &format!("{x} {y}\n");
            let bob = outcomes.is_losing(cell(x, y));
            expected += if bob { "Bob\n" } else { "Alice\n" };
        }
    }
    assert!(
        expected.contains("Bob") && expected.contains("Alice"),
        "both answers occur"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.in");
    std::fs::write(&path, &input).unwrap();
    let from_file = grundy()
        .args(["judge", "gridgame", &path.display().to_string()])
        .output()
        .unwrap();
    assert_success(&from_file);
    assert!(from_file.stdout == expected.as_bytes(), "from the file");
    let from_pipe = grundy()
        .args(["judge", "gridgame"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_success(&from_pipe);
    assert!(from_pipe.stdout == expected.as_bytes(), "from a pipe");
}

/// A file of impassable cells in a temporary directory.
fn walls_file(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("walls.txt");
    std::fs::write(&path, text).unwrap();
    let name = path.display().to_string();
    (dir, name)
}

fn cell(x: u64, y: u64) -> Cell {
    Cell::new(x, y).unwrap()
}

fn json(args: &[&str]) -> Value {
    let output = grundy().args(args).output().unwrap();
    assert_success(&output);
    serde_json::from_slice(&output.stdout).expect("valid JSON")
}

/// The sample's walls.
const SAMPLE_WALLS: &str = "1 1\n4 2\n";

fn sample_blocked() -> Blocked {
    Blocked::new(&[cell(1, 1), cell(4, 2)]).unwrap()
}

#[test]
fn one_pawn_text_names_the_winner_and_moves() {
    let (_dir, walls) = walls_file(SAMPLE_WALLS);
    // The sample: (2,2) is a first-player win, (1,2) a second-player win.
    grundy()
        .args(["pawn", "--blocked", &walls, "--at", "2,2"])
        .assert()
        .success()
        .stdout(contains("Impassable cells: 2"))
        .stdout(contains("First player wins."))
        .stdout(contains(
            "move pawn (2,2) -> (1,2), leaving grundy 0 (to a losing cell)",
        ));
    grundy()
        .args(["pawn", "--blocked", &walls, "--at", "1,2"])
        .assert()
        .success()
        .stdout(contains("Second player wins."))
        .stdout(contains("No winning moves"));
}

#[test]
fn json_moves_are_legal_and_reach_losing_cells_far_away() {
    let (_dir, walls) = walls_file("1 1\n4 2\n999999990 999999990\n999999999 5\n");
    let blocked = Blocked::new(&[
        cell(1, 1),
        cell(4, 2),
        cell(999_999_990, 999_999_990),
        cell(999_999_999, 5),
    ])
    .unwrap();
    let outcomes = Outcomes::new(&blocked);
    for (x, y) in [
        (1_000_000_000, 999_999_999),
        (999_999_995, 1_000_000_000),
        (999_999_990, 999_999_991),
        (1_000_000_000, 5),
        (123_456_789, 987_654_321),
    ] {
        let at = format!("{x},{y}");
        let json = json(&["pawn", "--blocked", &walls, "--at", &at, "--json"]);
        let pawn = cell(x, y);
        let losing = outcomes.is_losing(pawn);
        assert_eq!(json["winner"], if losing { "second" } else { "first" });
        assert_eq!(json["pawns"][0]["losing"], losing);
        // No values beyond 4096 but a losing cell's, 0 by definition.
        if losing {
            assert_eq!(json["grundy"], 0);
        } else {
            assert!(json["grundy"].is_null(), "no values beyond 4096");
        }
        let moves = json["winning_moves"].as_array().unwrap();
        assert_eq!(moves.is_empty(), losing);
        for mv in moves {
            let to = cell(mv["x"].as_u64().unwrap(), mv["y"].as_u64().unwrap());
            assert!(outcomes.is_legal_move(pawn, to), "{pawn} -> {to}");
            assert!(outcomes.is_losing(to), "{pawn} -> {to}");
        }
    }
}

#[test]
fn several_pawns_are_a_sum_with_xor_total() {
    let (_dir, walls) = walls_file(SAMPLE_WALLS);
    let pawns = [cell(2, 2), cell(6, 5), cell(3, 0), cell(40, 17)];
    let args: Vec<String> = pawns
        .iter()
        .flat_map(|p| ["--at".to_owned(), format!("{},{}", p.x(), p.y())])
        .collect();
    let mut command = vec!["pawn", "--json", "--blocked", &walls];
    command.extend(args.iter().map(String::as_str));
    let json = json(&command);
    let table = ValueTable::covering(&sample_blocked(), &pawns).unwrap();
    let values: Vec<u32> = pawns
        .iter()
        .map(|&p| table.value(p).unwrap().value())
        .collect();
    let total = values.iter().fold(0, |a, v| a ^ v);
    assert_eq!(json["grundy"], total);
    assert_eq!(json["winner"], if total == 0 { "second" } else { "first" });
    let outcomes = Outcomes::new(&sample_blocked());
    let moves = json["winning_moves"].as_array().unwrap();
    assert_eq!(moves.is_empty(), total == 0);
    for mv in moves {
        let index = mv["pawn"].as_u64().unwrap() as usize;
        let to = cell(mv["x"].as_u64().unwrap(), mv["y"].as_u64().unwrap());
        assert!(outcomes.is_legal_move(pawns[index], to));
        let after = table.value(to).unwrap().value();
        assert_eq!(total ^ values[index] ^ after, 0, "pawn {index} -> {to}");
    }
    for (pawn, value) in json["pawns"].as_array().unwrap().iter().zip(&values) {
        assert_eq!(pawn["grundy"], *value);
    }
}

#[test]
fn draw_pictures_walls_losing_cells_and_the_pawn() {
    let (_dir, walls) = walls_file(SAMPLE_WALLS);
    let json = json(&[
        "pawn",
        "--blocked",
        &walls,
        "--at",
        "2,2",
        "--draw",
        "0,0,9,7",
        "--json",
    ]);
    let outcomes = Outcomes::new(&sample_blocked());
    let rows = json["picture"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    for (i, row) in rows.iter().enumerate() {
        let y = 7 - i as u64;
        let marks: Vec<char> = row
            .as_str()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .chars()
            .collect();
        assert_eq!(marks.len(), 10);
        for (x, &mark) in marks.iter().enumerate() {
            let here = cell(x as u64, y);
            let expected = if (x, y) == (2, 2) {
                'P'
            } else {
                match outcomes.classify(here) {
                    CellKind::Blocked => '#',
                    CellKind::Losing => '*',
                    CellKind::Winning => '.',
                }
            };
            assert_eq!(mark, expected, "at {here}");
        }
    }
    // Row 2 by hand from the rules: (0,2) reaches the losing (0,0); (1,2)
    // is the sample's losing start; (2,2) and (3,2) reach (1,2); (4,2) is
    // a wall; (5,2) starts its row segment and its column holds (5,0) and
    // (5,1), which reach (0,0) and (2,1), both losing: so (5,2) is losing.
    grundy()
        .args(["pawn", "--blocked", &walls, "--draw", "0,0,5,5"])
        .assert()
        .success()
        .stdout(contains("2 .*..#*"));
    // The columns are numbered under the rows: the first, then every x
    // that is a multiple of 5 (of 2 where every x is one digit), each
    // under its column, where it fits.
    grundy()
        .args(["pawn", "--blocked", &walls, "--draw", "3,0,16,11"])
        .assert()
        .success()
        .stdout(contains("\n 0 ..............\n x 3 5    10   15\n"));
    // A region of one-digit columns: every other column numbered.
    grundy()
        .args(["pawn", "--blocked", &walls, "--draw", "0,0,5,5"])
        .assert()
        .success()
        .stdout(contains("\n0 *.....\nx 0 2 4\n"));
}

#[test]
fn bad_pawn_input_gets_a_located_error_and_exit_2() {
    for (text, line, col, what) in [
        ("1 1\n2 -3\n", 2, 3, "negative y coordinate -3"),
        ("1 1\n1000000001 0\n", 2, 1, "out of range 0 to 1000000000"),
        (
            "1 1\n4 2\n1 1\n",
            3,
            1,
            "duplicate impassable cell (1,1), first listed on line 1",
        ),
        ("1 1\n4", 2, 2, "unexpected end of input"),
        ("1 1\n4\n", 2, 2, "the line ends after one coordinate"),
    ] {
        let (_dir, walls) = walls_file(text);
        assert_input_error(
            grundy().args(["pawn", "--blocked", &walls, "--at", "0,0"]),
            &walls,
            line,
            col,
            what,
        );
    }
    let (_dir, walls) = walls_file(SAMPLE_WALLS);
    assert_input_error(
        grundy().args(["pawn", "--blocked", &walls, "--at", "0,0", "--at", "4,2"]),
        &walls,
        2,
        1,
        "pawn 2 (--at 4,2) stands on this impassable cell",
    );
    assert_input_error(
        grundy()
            .args(["pawn", "--blocked", "-", "--at", "1,1"])
            .write_stdin(SAMPLE_WALLS),
        "<stdin>",
        1,
        1,
        "stands on this impassable cell",
    );
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        vec!["pawn", "--at", "3,-1"],
        vec!["pawn", "--at", "3,1000000001"],
        vec!["pawn", "--at", "3"],
        vec!["pawn"],
        vec!["pawn", "--draw", "0,0,500,5"],
        vec!["pawn", "--blocked", "no/such/file.txt", "--at", "1,1"],
    ] {
        let output = grundy().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
    // Opposite corners in either order draw the same region.
    let draw = |corners: &str| {
        let output = grundy()
            .args(["pawn", "--at", "2,2", "--draw", corners])
            .output()
            .unwrap();
        assert_success(&output);
        output.stdout
    };
    assert_eq!(draw("5,0,4,5"), draw("4,0,5,5"));
    assert_eq!(draw("5,5,4,0"), draw("4,0,5,5"));
    // A sum with a pawn past the table's region is valued only when no
    // impassable cell lies at or below-left of it: here (0,0) does.
    let (_dir, walls) = walls_file("0 0\n");
    let output = grundy()
        .args(["pawn", "--at", "5000,1", "--at", "1,1", "--blocked", &walls])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("pawn 1 at (5000,1) is beyond, with impassable cells below-left"),
        "{stderr}"
    );
    // The pawn named is the one with a wall below-left, not the first
    // past the region (on a winning cell: one on a losing cell has value
    // 0 and drops out of the sum).
    let (_dir2, walls) = walls_file("10 10\n");
    let output = grundy()
        .args([
            "pawn",
            "--at",
            "5000,1",
            "--at",
            "6001,6000",
            "--blocked",
            &walls,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("pawn 2 at (6001,6000) is beyond"),
        "{stderr}"
    );
    // A leading minus reaches the coordinate parser, not clap's flag parser.
    let output = grundy().args(["pawn", "--at", "-1,1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("negative x coordinate -1"), "{stderr}");
}

#[test]
fn judge_gridgame_matches_the_value_table_on_random_boards() {
    // Small random boards (the engine's value table is checked against a
    // brute force): every free cell of a 30 x 30 box is a query.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut input = String::from("3\n");
    let mut expected = String::new();
    for _ in 0..3 {
        let mut walls = std::collections::BTreeSet::new();
        while walls.len() < 90 {
            walls.insert((next(30), next(30)));
        }
        let cells: Vec<Cell> = walls.iter().map(|&(x, y)| cell(x, y)).collect();
        let table = ValueTable::new(&Blocked::new(&cells).unwrap(), 30, 30).unwrap();
        input += &format!("{}\n", walls.len());
        for &(x, y) in &walls {
            input += &format!("{x} {y}\n");
        }
        input += &format!("{}\n", 900 - walls.len());
        for y in 0..30 {
            for x in 0..30 {
                if let Some(value) = table.value(cell(x, y)) {
                    input += &format!("{x} {y}\n");
                    expected += if value.is_zero() { "Bob\n" } else { "Alice\n" };
                }
            }
        }
    }
    grundy()
        .args(["judge", "gridgame"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(expected);
}

/// Far pawns with no impassable cell at or below-left of them are two Nim
/// heaps each, so a sum of them has a value at any size: the XOR of their
/// `x xor y`, and each winning move is legal and leaves that XOR 0.
#[test]
fn sums_of_far_pawns_with_open_quadrants_are_valued() {
    let (_dir, walls) = walls_file("6000 7\n8 999999990\n");
    let blocked = Blocked::new(&[cell(6000, 7), cell(8, 999_999_990)]).unwrap();
    let outcomes = Outcomes::new(&blocked);
    let pawns = [(1_000_000_000u64, 5u64), (7, 999_999_999), (2, 9)];
    let mut args = vec!["pawn", "--json", "--blocked", &walls];
    let at: Vec<String> = pawns.iter().map(|(x, y)| format!("{x},{y}")).collect();
    for a in &at {
        args.extend(["--at", a]);
    }
    let json = json(&args);
    let nim = |(x, y): (u64, u64)| x ^ y;
    let total = pawns.iter().fold(0, |acc, &p| acc ^ nim(p));
    assert_eq!(json["grundy"], total);
    for (i, &p) in pawns.iter().enumerate() {
        assert_eq!(json["pawns"][i]["grundy"], nim(p));
    }
    let moves = json["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for mv in moves {
        let i = mv["pawn"].as_u64().unwrap() as usize;
        let to = (mv["x"].as_u64().unwrap(), mv["y"].as_u64().unwrap());
        let from = cell(pawns[i].0, pawns[i].1);
        assert!(
            outcomes.is_legal_move(from, cell(to.0, to.1)),
            "{from} -> {to:?}"
        );
        assert_eq!(total ^ nim(pawns[i]) ^ nim(to), 0, "{from} -> {to:?}");
    }
}

/// `--move`: the engine's move is legal; proven winning exactly when the
/// sum's value (by a table of values) is not 0, and then it leaves 0; a
/// sum with a pawn whose value is out of reach gets an unproven guess.
#[test]
fn the_engine_move_is_legal_and_proven_where_values_are_known() {
    let (_dir, walls) = walls_file("1 1\n4 2\n0 3\n");
    let blocked = Blocked::new(&[cell(1, 1), cell(4, 2), cell(0, 3)]).unwrap();
    let outcomes = Outcomes::new(&blocked);
    let table = grundy::pawn::ValueTable::new(&blocked, 12, 12).unwrap();
    let value = |c: Cell| table.value(c).unwrap().value();
    for pawns in [
        vec![(7u64, 3u64)],
        vec![(2, 2)],
        vec![(5, 5), (3, 7)],
        vec![(6, 6), (6, 6)],
        vec![(9, 4), (2, 8), (11, 0)],
    ] {
        let mut args = vec![
            "pawn".to_owned(),
            "--move".into(),
            "--json".into(),
            walls.clone(),
        ];
        for (x, y) in &pawns {
            args.extend(["--at".to_owned(), format!("{x},{y}")]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let json = json(&args);
        let cells: Vec<Cell> = pawns.iter().map(|&(x, y)| cell(x, y)).collect();
        let total = cells.iter().fold(0, |acc, &c| acc ^ value(c));
        assert_eq!(json["proven"], true, "{json}");
        assert_eq!(
            json["kind"],
            if total == 0 { "losing" } else { "winning" },
            "{json}"
        );
        let i = json["move"]["pawn"].as_u64().unwrap() as usize;
        let to = cell(
            json["move"]["x"].as_u64().unwrap(),
            json["move"]["y"].as_u64().unwrap(),
        );
        assert!(outcomes.is_legal_move(cells[i], to), "{json}");
        if total != 0 {
            assert_eq!(total ^ value(cells[i]) ^ value(to), 0, "{json}");
        }
    }
    // A pawn on a losing cell past the region has value 0 all the same: the
    // sum's move is the other pawn's, proven.
    assert!(outcomes.is_losing(cell(5000, 5000)));
    let proven = json(&[
        "pawn",
        "--move",
        "--json",
        &walls,
        "--at",
        "5000,5000",
        "--at",
        "2,2",
    ]);
    assert_eq!(
        (&proven["proven"], &proven["kind"]),
        (&true.into(), &"winning".into()),
        "{proven}"
    );
    assert_eq!(proven["move"]["pawn"], 1, "{proven}");
    let to = cell(
        proven["move"]["x"].as_u64().unwrap(),
        proven["move"]["y"].as_u64().unwrap(),
    );
    assert!(outcomes.is_legal_move(cell(2, 2), to), "{proven}");
    assert_eq!(value(to), 0, "{proven}");
    // On a winning cell there, its value is out of reach: a guess.
    assert!(!outcomes.is_losing(cell(5001, 5000)));
    let json = json(&[
        "pawn",
        "--move",
        "--json",
        &walls,
        "--at",
        "5001,5000",
        "--at",
        "2,2",
    ]);
    assert_eq!(
        (&json["proven"], &json["kind"]),
        (&false.into(), &"unproven".into()),
        "{json}"
    );
    let i = json["move"]["pawn"].as_u64().unwrap() as usize;
    let from = [cell(5001, 5000), cell(2, 2)][i];
    let to = cell(
        json["move"]["x"].as_u64().unwrap(),
        json["move"]["y"].as_u64().unwrap(),
    );
    assert!(outcomes.is_legal_move(from, to), "{json}");
}

/// Two pawns on one cell past the values' region, with a wall below-left
/// (so neither has a value), cancel: the sum is lost, and the text says
/// why; a third pawn the table values (a winning cell alone: it moves to a
/// losing cell) makes it won, by a proven move of that pawn.
#[test]
fn pawns_sharing_a_cell_cancel_in_pairs() {
    let walls = std::env::temp_dir().join(format!("grundy-pairs-{}.txt", std::process::id()));
    std::fs::write(&walls, "0 1\n").unwrap();
    let walls_arg = walls.to_str().unwrap();
    let run = |args: &[&str]| -> Value {
        let output = grundy().args(args).output().unwrap();
        assert_success(&output);
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let report = run(&[
        "pawn",
        walls_arg,
        "--at",
        "5000,5000",
        "--at",
        "5000,5000",
        "--json",
    ]);
    assert_eq!(report["winner"], "second");
    assert_eq!(report["grundy"], 0);
    assert!(report["pawns"][0]["grundy"].is_null());
    grundy()
        .args(["pawn", walls_arg, "--at", "5000,5000", "--at", "5000,5000"])
        .assert()
        .success()
        .stdout(contains("the pawns that share a cell cancel in pairs"));
    let blocked = Blocked::new(&[Cell::new(0, 1).unwrap()]).unwrap();
    let outcomes = Outcomes::new(&blocked);
    let small = Cell::new(2, 0).unwrap();
    assert_eq!(outcomes.classify(small), CellKind::Winning);
    let answer = run(&[
        "pawn",
        walls_arg,
        "--at",
        "5000,5000",
        "--at",
        "2,0",
        "--at",
        "5000,5000",
        "--move",
        "--json",
    ]);
    // The analysis: the total is the valued pawn's, its moves to losing
    // cells are listed, and the paired pawns' moves are not examined, which
    // the text says and exit 3 tells a script.
    let three = ["--at", "5000,5000", "--at", "2,0", "--at", "5000,5000"];
    let output = grundy()
        .args(["pawn", walls_arg, "--json"])
        .args(three)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let analysis: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(analysis["winner"], "first", "{analysis}");
    assert_eq!(analysis["winning_moves_complete"], false, "{analysis}");
    let listed = analysis["winning_moves"].as_array().unwrap();
    assert_eq!(
        listed.len(),
        outcomes.winning_moves(small).unwrap().iter().count()
    );
    for m in listed {
        assert_eq!(m["pawn"], 1, "{analysis}");
        let to = Cell::new(m["x"].as_u64().unwrap(), m["y"].as_u64().unwrap()).unwrap();
        assert_eq!(outcomes.classify(to), CellKind::Losing);
    }
    grundy()
        .args(["pawn", walls_arg])
        .args(three)
        .assert()
        .code(3)
        .stdout(contains(
            "Not every winning move is listed: the moves of pawns 1 and 3 are not examined",
        ))
        .stdout(contains("as a winning one would need their values,"));
    std::fs::remove_file(&walls).unwrap();
    // A pawn left in the sum without a value (past the region, an
    // impassable cell below-left): the total is not known, and that is
    // what a dropped pawn's winning move would need, not its own value (0
    // on a losing cell).
    let corner = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(corner.path(), "0 0\n").unwrap();
    grundy()
        .arg("pawn")
        .arg(corner.path())
        .args(["--at", "5000,3", "--at", "2,2"])
        .assert()
        .code(3)
        .stdout(contains("Pawn 2 at (2,2): losing cell, grundy 0"))
        .stdout(contains(
            "the moves of pawn 2 are not examined (they drop out of the sum: on a losing cell, value 0, or paired with a pawn on the same cell), as a winning one would need the total,",
        ));
    assert_eq!(answer["proven"], true, "{answer}");
    assert_eq!(answer["kind"], "winning");
    assert_eq!(answer["move"]["pawn"], 1);
    let to = Cell::new(
        answer["move"]["x"].as_u64().unwrap(),
        answer["move"]["y"].as_u64().unwrap(),
    )
    .unwrap();
    assert!(outcomes.is_legal_move(small, to));
    assert_eq!(outcomes.classify(to), CellKind::Losing);
}

/// A pawn past the region of values, on an open quadrant, is explained by
/// its formula (x xor y), and the pawns inside keep their mex lines; one
/// pawn past the values with an impassable cell below-left wins by
/// reaching a losing cell, and its explanation says so, with no XOR.
#[test]
fn far_pawns_are_explained_by_their_formula_or_their_outcome() {
    let output = grundy()
        .args(["pawn", "--at", "5000,6000", "--at", "1,3", "--explain"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "    pawn 1 at (5000,6000) = 5000 xor 6000 = {}\n",
            5000 ^ 6000
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("    pawn 2: its 4 moves leave "),
        "{stdout}"
    );
    let walls = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(walls.path(), "5 5\n").unwrap();
    let output = grundy()
        .arg("pawn")
        .arg(walls.path())
        .args(["--at", "1000000000,999999999", "--explain"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("  Each winning move reaches a losing cell:\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("XOR"), "{stdout}");
    // A far pawn valued 0 by its outcome (a losing cell), with an
    // impassable cell below-left: no formula, which would not hold.
    std::fs::write(walls.path(), "1 0\n").unwrap();
    let output = grundy()
        .arg("pawn")
        .arg(walls.path())
        .args(["--at", "5000,4999", "--explain"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("(5000,4999) is a losing cell"), "{stdout}");
    assert!(!stdout.contains(" xor "), "{stdout}");
}

/// `--play` of a sum with a pawn past the table of values names that
/// pawn, not the first one.
#[test]
fn play_past_the_table_names_the_far_pawn() {
    let output = grundy()
        .args(["pawn", "--at", "30,40", "--at", "5000,6000", "--play"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("(5000,6000) is beyond"), "{stderr}");
}

/// Two pawns on one cell are drawn `+` (one number would hide the other),
/// and the legend says so only when a `+` is drawn.
#[test]
fn pawns_sharing_a_cell_are_drawn_as_such() {
    let text = |draw: &str| {
        let output = grundy()
            .args([
                "pawn", "--at", "2,2", "--at", "2,2", "--at", "1,1", "--draw", draw,
            ])
            .output()
            .unwrap();
        assert_success(&output);
        String::from_utf8(output.stdout).unwrap()
    };
    let shown = text("0,0,4,3");
    assert!(shown.contains("\n2 ..+..\n1 .3...\n"), "{shown}");
    assert!(
        shown.ends_with("1-3 pawns   + pawns sharing a cell\n"),
        "{shown}"
    );
    let away = text("0,0,1,1");
    assert!(away.ends_with("1-3 pawns\n"), "{away}");
}
