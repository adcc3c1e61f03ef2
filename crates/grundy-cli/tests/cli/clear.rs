//! `grundy clear`, `grundy judge gfg` and the default run.

use grundy::clear::Clear;
use predicates::prelude::PredicateBooleanExt as _;
use predicates::str::contains;
use serde_json::Value;

use crate::common::{
    assert_input_error, assert_position_budget_stops, assert_success, check_judge_sample, data,
    grundy,
};

#[test]
fn judge_gfg_samples() {
    check_judge_sample("gfg", "gfg1");
    check_judge_sample("gfg", "gfg2");
}

#[test]
fn judge_gfg_rejects_a_bad_cell() {
    assert_input_error(
        grundy()
            .args(["judge", "gfg"])
            .write_stdin("0 1 1 0\n0 0 2 0\n0 0 0 0\n0 0 0 1\n"),
        "<stdin>",
        2,
        5,
        "unexpected '2'",
    );
    assert_input_error(
        grundy()
            .args(["judge", "gfg"])
            .write_stdin("0 1 1 0\n0 0 0 0\n"),
        "<stdin>",
        3,
        1,
        "unexpected end of input",
    );
}

#[test]
fn default_run_analyses_the_example_with_a_play_out() {
    grundy()
        .assert()
        .success()
        .stdout(contains("First player wins."))
        .stdout(contains("Play-out"))
        .stdout(contains("Second player cannot move and loses."));
}

#[test]
fn human_output_names_value_winner_and_moves() {
    grundy()
        .arg("clear")
        .arg(data("gfg1.in"))
        .assert()
        .success()
        .stdout(contains("Board grundy value: 3 (= 2 xor 1)"))
        .stdout(contains("First player wins."))
        .stdout(contains("clear (1,2)-(1,2)"));
    grundy()
        .arg("clear")
        .arg(data("gfg2.in"))
        .assert()
        .success()
        .stdout(contains("Second player wins."))
        .stdout(contains("No winning moves"));
}

fn json_of(input: &str) -> Value {
    let output = grundy()
        .args(["clear", "--json", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_success(&output);
    serde_json::from_slice(&output.stdout).expect("valid JSON")
}

#[test]
fn json_winning_moves_are_legal_and_leave_zero() {
    let input = "1101\n1111\n0110\n1011\n";
    let json = json_of(input);
    let board = grundy::board!["1101", "1111", "0110", "1011"];
    let mut solver = Clear::solver();
    assert_eq!(json["grundy"], solver.value(&board).unwrap().value());
    assert_eq!(json["rows"], 4);
    assert_eq!(json["cols"], 4);
    let moves = json["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), solver.winning_moves(&board).unwrap().len());
    for mv in moves {
        let rect = crate::common::json_rect(mv);
        let after = board.try_play(rect).expect("a legal move");
        assert!(solver.value(&after).unwrap().is_zero());
    }
    let cells: usize = json["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cells"].as_array().unwrap().len())
        .sum();
    assert_eq!(cells, board.cells().count() as usize);
}

#[test]
fn several_boards_are_played_as_a_sum() {
    // Two copies of one board cancel out: value 0, second player wins.
    let json = json_of("0110\n0000\n\n0110\n0000\n");
    assert_eq!(json["grundy"], 0);
    assert_eq!(json["winner"], "second");
    assert_eq!(json["boards"].as_array().unwrap().len(), 2);
    assert!(json["winning_moves"].as_array().unwrap().is_empty());
    // A domino (2) and a single cell (1): the winner moves on either board.
    let json = json_of("11\n\n1\n");
    assert_eq!(json["grundy"], 3);
    for mv in json["winning_moves"].as_array().unwrap() {
        let board = mv["board"].as_u64().unwrap();
        // On the domino, clear one cell (leaving 1 = the other board's 1);
        // the single cell has no move to 2.
        assert_eq!(board, 0);
        assert_eq!(mv["top"], mv["bottom"]);
        assert_eq!(mv["left"], mv["right"]);
    }
}

#[test]
fn boards_of_other_shapes_work() {
    // A 4 x 16 board: a long row with two legs, and a dashed row.
    let rows = [
        "1111111111111111",
        "1000000000000001",
        "0000000000000000",
        "1101101101101101",
    ];
    let json = json_of(&(rows.join("\n") + "\n"));
    let board = grundy::board![
        "1111111111111111",
        "1000000000000001",
        "0000000000000000",
        "1101101101101101"
    ];
    assert_eq!(json["rows"], 4);
    assert_eq!(json["cols"], 16);
    assert_eq!(
        json["grundy"],
        Clear::solver().value(&board).unwrap().value()
    );
}

#[test]
fn bad_input_gets_a_located_error_and_exit_2() {
    assert_input_error(
        grundy()
            .args(["clear", "-"])
            .write_stdin("0110\n0110\n011\n"),
        "<stdin>",
        3,
        4,
        "ragged row: 3 cells, but the first row has 4",
    );
    assert_input_error(
        grundy().args(["clear", "-"]).write_stdin("0110\n01a0\n"),
        "<stdin>",
        2,
        3,
        "unexpected 'a'",
    );
    assert_input_error(
        grundy().args(["clear", "-"]).write_stdin(""),
        "<stdin>",
        1,
        1,
        "empty input",
    );
    // A board past the memory budget: a budget, so exit 3, located. The
    // engine still plays it, unproven: a legal move needs no analysis.
    let board = format!("\n{row}\n{row}\n", row = "01".repeat(20));
    let output = grundy()
        .args(["clear", "-", "--max-memory", "4kB"])
        .write_stdin(board.clone())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(
            "error: <stdin>:2:1: board too large for the memory budget: 2 x 40 needs about"
        ),
        "{stderr}"
    );
    let output = grundy()
        .args(["clear", "-", "--move", "--json", "--max-memory", "4kB"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (&json["proven"], &json["kind"]),
        (&false.into(), &"unproven".into())
    );
    let rect = &json["move"];
    // Row 0 reads 0101...: its first run of ones is its cell 1 alone.
    let corners = ["top", "left", "bottom", "right"].map(|k| rect[k].as_u64());
    assert_eq!(corners, [Some(0), Some(1), Some(0), Some(1)], "{json}");
    // Boards whose cells alone pass the budget get no move either, and the
    // refusal names what --move needs: the cells, not the analysis.
    let output = grundy()
        .args(["clear", "-", "--move", "--max-memory", "5B"])
        .write_stdin("1111\n1111\n")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.starts_with(
            "error: <stdin>:1:1: boards too large for the memory budget: their cells alone need "
        ),
        "{stderr}"
    );
    assert_input_error(
        grundy().args(["clear", "-"]).write_stdin("0000\n000\n"),
        "<stdin>",
        2,
        4,
        "ragged row",
    );
    let missing = grundy()
        .args(["clear", "no/such/file.txt"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.starts_with("error: no/such/file.txt: cannot read"),
        "{stderr}"
    );
}

#[test]
fn the_position_budget_stops_a_large_search_with_exit_3() {
    assert_position_budget_stops("clear", 50, "11111111\n".repeat(8));
}

/// A budget that runs out is named as the user gave it, though the value
/// search of one shape leaves a quarter of it to an outcome search.
#[test]
fn the_time_budget_is_named_as_given() {
    // One dense 8 x 8 shape: its value takes minutes.
    let board = "11111111\n11111111\n10011101\n11111111\n11111111\n00111101\n11110111\n11111111\n";
    let output = grundy()
        .args(["clear", "--max-time", "0.4", "--threads", "1", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("gave up within the time budget of 0.4 s"),
        "{stderr}"
    );
}

/// A play-out or an explanation the budget left out is said to be left
/// out, not silently missing.
#[test]
fn what_a_stopped_search_leaves_out_is_said() {
    let board = "11111111\n11111111\n10011101\n11111111\n11111111\n00111101\n11110111\n11111111\n";
    for (flags, said) in [
        (&["--play"][..], "no play-out, which needs every value"),
        (
            &["--play", "--explain"][..],
            "no play-out and no explanation",
        ),
    ] {
        let output = grundy()
            .args(["clear", "--max-time", "0.2", "--threads", "1"])
            .args(flags)
            .arg("-")
            .write_stdin(board)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(3));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(said), "{stderr}");
    }
    // In JSON what was asked and is unknown is null, not a missing field.
    let output = grundy()
        .args(["clear", "--max-time", "0.2", "--threads", "1", "--json"])
        .args(["--play", "--explain", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for field in ["grundy", "play", "explain"] {
        assert_eq!(
            json.get(field),
            Some(&serde_json::Value::Null),
            "{field}: {json}"
        );
    }
}

/// `--max-time 0`, as Python's `max_time=0`: the engine plays a legal move
/// at once, unproven, and the analysis stops with exit 3.
#[test]
fn a_zero_time_budget_still_plays_a_legal_move() {
    let board = "11111111\n11111111\n10011101\n11111111\n11111111\n00111101\n11110111\n11111111\n";
    let output = grundy()
        .args(["clear", "--move", "--max-time", "0", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut lines = stdout.lines();
    let played = lines.next().unwrap();
    assert!(lines.next().unwrap().starts_with("unproven"), "{stdout}");
    // `clear (r1,c1)-(r2,c2)`, 1-based: every cell of it must be a one.
    let corners: Vec<usize> = played
        .trim_start_matches("clear ")
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().unwrap())
        .collect();
    let rows: Vec<&[u8]> = board.lines().map(str::as_bytes).collect();
    assert_eq!(corners.len(), 4, "{played}");
    for row in corners[0]..=corners[2] {
        for col in corners[1]..=corners[3] {
            assert_eq!(rows[row - 1][col - 1], b'1', "{played}");
        }
    }
    let output = grundy()
        .args(["clear", "--max-time", "0", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
}

#[test]
fn usage_errors_exit_2() {
    let output = grundy().args(["clear", "--no-such-flag"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output = grundy()
        .args(["clear", "--max-time", "-1", "-"])
        .write_stdin("1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .contains("'--max-time <SECONDS>': must be 0 or a positive, finite number of seconds"),
        "{stderr}"
    );
    // A flag that would not be honoured is refused, not dropped: --explain
    // says nothing of the engine's one move, nor of a board past 64 cells.
    let line = format!("{}\n", "1".repeat(70));
    for (args, input) in [
        (vec!["clear", "--move", "--explain", "-"], "0110\n1111\n"),
        (vec!["clear", "--explain", "-"], line.as_str()),
    ] {
        let output = grundy().args(&args).write_stdin(input).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

/// More than 10^9 seconds (`cmd::MAX_SECONDS`) is refused with exit 2 by
/// every flag that takes seconds: a deadline that far away would overflow
/// the clock.
#[test]
fn a_time_budget_too_large_for_the_clock_is_a_usage_error() {
    for (args, stdin) in [
        (vec!["clear", "--max-time", "1e19", "-"], "1\n"),
        (vec!["clear", "--move", "--max-time", "1e19", "-"], "1\n"),
        (vec!["split", "--max-time", "1e19", "-"], "2 2\n1 1\n"),
        (vec!["sum", "--max-time", "1e19", "--queries", "-", "-"], ""),
        (
            vec!["check", "pshtbrth", "--max-time", "1e19", "--", "true"],
            "",
        ),
        (
            vec!["check", "pshtbrth", "--time-limit", "1e19", "--", "true"],
            "",
        ),
        (vec!["serve", "--idle-timeout", "1e19"], ""),
    ] {
        let output = grundy().args(&args).write_stdin(stdin).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("must be at most 1000000000 seconds"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn the_memory_budget_stops_a_large_search_with_exit_3() {
    for command in ["clear", "sum"] {
        let mut cmd = grundy();
        cmd.arg(command).args(["--max-memory", "4MiB"]);
        let queries;
        if command == "sum" {
            queries = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(queries.path(), "value 1 1\n").unwrap();
            cmd.arg("--queries").arg(queries.path());
        }
        let output = cmd
            .arg("-")
            .write_stdin("11111111\n".repeat(8))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(3), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--max-memory"), "{stderr}");
        assert!(stderr.contains("(the memory budget"), "{stderr}");
        // The budget (with more decimals where the need would read the
        // same with fewer: 4.0, 4.00 or 4.000 MiB).
        assert!(stderr.contains("would pass 4.0"), "{stderr}");
        assert_eq!(stderr.matches("raise").count(), 1, "{stderr}");
    }
}

#[test]
fn a_memory_budget_that_suffices_changes_nothing() {
    let board = "11111\n".repeat(4);
    let plain = grundy()
        .args(["clear", "--json", "-"])
        .write_stdin(board.clone())
        .output()
        .unwrap();
    assert_success(&plain);
    let bounded = grundy()
        .args(["clear", "--json", "--max-memory", "256MB", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_success(&bounded);
    assert_eq!(plain.stdout, bounded.stdout);
}

#[test]
fn memory_sizes_need_a_clear_unit() {
    let output = grundy()
        .args(["clear", "--max-memory", "2G", "-"])
        .write_stdin("1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ambiguous unit"), "{stderr}");
}

/// Out of budget on a full 6 x 6 board (exit 3), the message names the shape
/// database that would answer it, with the commands to build and use it, and
/// the value docs/results.md gives; a board no database can hold gets none.
#[test]
fn out_of_budget_names_the_database_that_would_answer() {
    let run = |board: &str| {
        grundy()
            .args(["clear", "--max-positions", "1000", "-"])
            .env("XDG_DATA_HOME", "/nonexistent")
            .env("GRUNDY_TABLES", "")
            .write_stdin(board.to_owned())
            .assert()
            .code(3)
    };
    run(&"111111\n".repeat(6))
        .stderr(contains(
            "the 6 x 6 shape database would answer at once: build it with `grundy tables build --box 6x6 --out clear-6x6.gdb`",
        ))
        .stderr(contains("then add `--tables clear-6x6.gdb`"))
        .stderr(contains("395 MB, as measured in docs/results.md"))
        .stderr(contains("docs/results.md gives the full 6 x 6 board the value 8"))
        .stderr(contains("--max-positions"));
    run(&"11111111\n".repeat(8)).stderr(contains("shape database").not());
}

/// A search past its budget still says who wins: on a dense 7 x 7 block
/// whose value is past 20,000 positions, the outcome search proves a
/// winning move, which the solver confirms leaves 0. The exit code is 3,
/// as the value is unknown.
#[test]
fn a_stopped_analysis_still_names_the_winner_and_a_proven_move() {
    let rows = [
        "1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000",
    ];
    let input = rows.join("\n") + "\n";
    let run = |json: bool| {
        let mut args = vec!["clear", "--max-positions", "20000", "-"];
        if json {
            args.insert(1, "--json");
        }
        grundy()
            .args(&args)
            .env("XDG_DATA_HOME", "/nonexistent")
            .env("GRUNDY_TABLES", "")
            .write_stdin(input.clone())
            .output()
            .unwrap()
    };
    let output = run(true);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--max-positions"), "{stderr}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(json["grundy"], Value::Null);
    assert_eq!(json["winner"], "first");
    let moves = json["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{json}");
    let rect = crate::common::json_rect(&moves[0]);
    let board =
        grundy::board!["1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000"];
    let after = board.try_play(rect).expect("a legal move");
    assert!(Clear::solver().value(&after).unwrap().is_zero());
    let text = run(false);
    assert_eq!(text.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("First player wins"), "{stdout}");
    assert!(stdout.contains("proven by outcome search"), "{stdout}");
}

/// `--threads 2` (a helper thread woken once a value search has solved
/// 65,536 shapes) prints what `--threads 1` prints, text and JSON, on a
/// board whose search wakes it (block 7 of `bench/ab-blocks.sh`, 25 cells)
/// and on boards whose searches do not; `--threads` past 2 is a usage
/// error.
/// Block 7 of `bench/ab-blocks.sh` (seed 41): its value search solves more
/// than 65,536 shapes.
const BLOCK7: &str = "0000001\n0000011\n0001110\n0011110\n1010110\n1111110\n0111110\n";

#[test]
fn a_helper_thread_changes_nothing_printed() {
    let boards = [
        BLOCK7,
        "111011\n110111\n111101\n011111\n",
        "0111\n1101\n1111\n",
        "11101\n11111\n10111\n11110\n11011\n\n0111\n1101\n",
    ];
    for board in boards {
        for json in [true, false] {
            let run = |threads: &str| {
                let mut cmd = grundy();
                cmd.args(["clear", "--threads", threads, "-"]);
                if json {
                    cmd.arg("--json");
                }
                let output = cmd.write_stdin(board).output().unwrap();
                assert_success(&output);
                output.stdout
            };
            assert_eq!(run("1"), run("2"), "{board}");
        }
    }
    let output = grundy()
        .args(["clear", "--threads", "3", "-"])
        .write_stdin("1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--threads"), "{stderr}");
}

/// A move proven by halves says all it leaves: on `101/010/111` clearing
/// the middle column cuts the lower shape into two cells, and the two top
/// cells pair too; the reason does not claim two halves are all that is
/// left.
#[test]
fn a_proof_by_halves_says_every_shape_left_pairs() {
    let output = grundy()
        .args(["clear", "--move", "-"])
        .write_stdin("101\n010\n111\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("two equal halves, and every shape left has an equal partner"),
        "{stdout}"
    );
}

/// The README's frame with a second top row: the engine clears the extra
/// row, which leaves the frame, its own half turn about its empty middle;
/// the frame alone is valued 0 at once, with no winning move. Both are
/// checked against a brute force in the engine's tests.
#[test]
fn a_frame_is_lost_and_one_move_from_a_frame_wins_by_a_half_turn() {
    let mut rows = ["11111111"; 10];
    for row in &mut rows[1..9] {
        *row = "10000001";
    }
    let frame = rows.join("\n") + "\n";
    let output = grundy()
        .args(["clear", "--json", "-"])
        .write_stdin(frame.clone())
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["grundy"], 0, "{json}");
    assert_eq!(json["winning_moves"], serde_json::json!([]), "{json}");
    let output = grundy()
        .args(["clear", "-"])
        .write_stdin(frame)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "(grundy 0 without a search for 1 shape: it is its own image under a half turn"
        ),
        "{stdout}"
    );
    rows[1] = "11111111";
    let output = grundy()
        .args(["clear", "--move", "-"])
        .write_stdin(rows.join("\n") + "\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("clear (2,2)-(2,7)\n"), "{stdout}");
    assert!(stdout.contains("proven winning: it leaves the shapes that do not cancel (or the whole board) as their own image under a half turn"), "{stdout}");
}
