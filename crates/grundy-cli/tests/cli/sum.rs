//! `grundy judge pshtbrth` and `grundy sum`.

use std::io::Write as _;

use grundy::clear::{Board, Clear};
use grundy::Nimber;
use predicates::prelude::PredicateBooleanExt as _;

use crate::common::{assert_input_error, assert_success, check_judge_sample, grundy};

#[test]
fn judge_pshtbrth_sample() {
    check_judge_sample("pshtbrth", "pshtbrth");
}

#[test]
fn judge_pshtbrth_takes_crlf_and_no_blank_lines() {
    let sample = std::fs::read_to_string(crate::common::data("pshtbrth.in")).unwrap();
    let squeezed = sample.replace("\n\n", "\n").replace('\n', "\r\n");
    grundy()
        .args(["judge", "pshtbrth"])
        .write_stdin(squeezed)
        .assert()
        .success()
        .stdout(crate::common::data_text("pshtbrth.out"));
}

#[test]
fn judge_pshtbrth_prints_answers_before_an_error() {
    let output = grundy()
        .args(["judge", "pshtbrth"])
        .write_stdin(
            "1\n2 3\n1111\n1111\n1111\n1111\n0000\n0000\n0000\n0000\n1 1 2\n1 2 2\n1 2 3\n",
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "Pishty\nLotsy\n");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: <stdin>:13:5: R 3 is out of range 2 to 2\n"
    );
}

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file
}

const BOARDS: &str = "0110\n0000\n0000\n0001\n\n11\n11\n\n1\n";

/// `grundy sum FLAGS --queries QUERIES BOARDS`, the two written to files.
fn sum_run(flags: &[&str], queries: &str, boards: &str) -> std::process::Output {
    let (queries, boards) = (file(queries), file(boards));
    grundy()
        .arg("sum")
        .args(flags)
        .arg("--queries")
        .arg(queries.path())
        .arg(boards.path())
        .output()
        .unwrap()
}

fn value(rows: &[&str]) -> Nimber {
    let cols = rows[0].len();
    let mut cells = 0u64;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '1' {
                cells |= 1 << (r * cols + c);
            }
        }
    }
    let board = Board::new(rows.len(), cols, cells).unwrap();
    grundy::Solver::new(Clear::without_known_values())
        .value(&board)
        .unwrap()
}

#[test]
fn sum_answers_every_query_type() {
    let a = value(&["0110", "0000", "0000", "0001"]);
    let b = value(&["11", "11"]);
    let c = value(&["1"]);
    let d = value(&["111"]);
    let queries = file("value 1 3\nwinner 1 3\nvalue 2 2\nset 2\n111\n\nvalue 1 3\nwinner 3 3\nmove 3 3\nmove 1 1\n");
    let boards = file(BOARDS);
    let output = grundy()
        .arg("sum")
        .arg("--queries")
        .arg(queries.path())
        .arg(boards.path())
        .output()
        .unwrap();
    assert_success(&output);
    let winner = |v: Nimber| if v.is_zero() { "second" } else { "first" };
    let total = a ^ b ^ c;
    let expected = [
        total.to_string(),
        winner(total).to_owned(),
        b.to_string(),
        format!("board 2: grundy {d}"),
        (a ^ d ^ c).to_string(),
        "first".to_owned(),
        // A single cell: clear it.
        "clear (1,1)-(1,1) on board 3, leaving grundy 0 (board 3: grundy 1 -> 0)".to_owned(),
    ];
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 8, "{stdout}");
    assert_eq!(&lines[..7], &expected);
    // Board 1 alone: a domino and a single cell (2 xor 1): clearing one cell
    // of the domino leaves 1 xor 1.
    assert!(lines[7].starts_with("clear (1,"), "{}", lines[7]);
    assert!(
        lines[7].ends_with(&format!(
            "on board 1, leaving grundy 0 (board 1: grundy {a} -> 0)"
        )),
        "{}",
        lines[7]
    );
}

#[test]
fn sum_reads_boards_from_stdin() {
    let queries = file("value 1 2\n");
    grundy()
        .arg("sum")
        .arg("--queries")
        .arg(queries.path())
        .write_stdin("11\n\n11\n")
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn sum_bad_queries_get_a_located_error_after_earlier_answers() {
    let boards = file(BOARDS);
    let cases = [
        (
            "value 1 3\nvalue 3 2\n",
            2,
            9,
            "R 2 is less than L 3: a range L R needs L <= R",
        ),
        (
            "value 1 3\nset 4\n1\n",
            2,
            5,
            "P 4 is not a board: there are 3 boards, 1 to 3",
        ),
        (
            "value 1 3\nset 1\n01\n2\n",
            4,
            1,
            "unexpected '2', expected a cell",
        ),
        ("value 1 3\nset 1\n01\n011\n", 4, 3, "ragged row"),
        (
            "value 1 3\nset 1\n",
            3,
            1,
            "unexpected end of input, expected a board",
        ),
        ("value 1 3\nvalue 1\n", 2, 8, "missing R"),
        ("value 1 3\ncount 1 3\n", 2, 1, "unknown query \"count\""),
    ];
    let first = (value(&["0110", "0000", "0000", "0001"]) ^ value(&["11", "11"]) ^ value(&["1"]))
        .to_string()
        + "\n";
    for (script, line, col, what) in cases {
        let queries = file(script);
        let name = queries.path().display().to_string();
        let mut cmd = grundy();
        cmd.arg("sum")
            .arg("--queries")
            .arg(queries.path())
            .arg(boards.path());
        assert_input_error(&mut cmd, &name, line, col, what);
        let output = cmd.output().unwrap();
        assert_eq!(String::from_utf8_lossy(&output.stdout), first, "{script}");
    }
}

#[test]
fn sum_bad_boards_and_usage_exit_2() {
    let queries = file("value 1 1\n");
    let boards = file("0110\n01x0\n");
    let name = boards.path().display().to_string();
    assert_input_error(
        grundy()
            .arg("sum")
            .arg("--queries")
            .arg(queries.path())
            .arg(boards.path()),
        &name,
        2,
        3,
        "unexpected 'x'",
    );
    let output = grundy().args(["sum", "--queries", "-"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("cannot both come from standard input")
    );
}

#[test]
fn sum_search_budget_exits_3() {
    let queries = file("value 1 1\n");
    let boards = file(&"11111111\n".repeat(8));
    let output = grundy()
        .args(["sum", "--max-positions", "10", "--queries"])
        .arg(queries.path())
        .arg(boards.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stderr).contains("position budget"));
}

/// Exit 3 says that an answer is incomplete: a board past the budget that
/// no answer needs (its range's winner and move are proven without its
/// value) leaves the run at exit 0; a range that needs its value is
/// `unknown`, and exit 3.
#[test]
fn sum_exits_3_only_for_an_incomplete_answer() {
    let boards = file("0110\n0000\n0000\n0001\n\n11111111\n11111111\n11111111\n");
    let first = value(&["0110", "0000", "0000", "0001"]);
    let run = |queries: &str| {
        let queries = file(queries);
        grundy()
            .args(["sum", "--max-positions", "10", "--queries"])
            .arg(queries.path())
            .arg(boards.path())
            .output()
            .unwrap()
    };
    let output = run("value 1 1\nwinner 2 2\nmove 2 2\n");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], first.to_string());
    assert_eq!(lines[1], "first");
    assert!(lines[2].contains("proven winning"), "{stdout}");
    let output = run("value 1 1\nvalue 1 2\n");
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).lines().nth(1),
        Some("unknown")
    );
}

/// Boards are valued fewest ones first: a full 8 x 8 board (no value within
/// the run's 30,000 positions) before a 6 x 6 block of 25 ones (valued
/// within 30,000, not within 5,000: it needs 14,097 by `grundy clear
/// --threads 1 --max-positions N`) leaves the block valued, as the solver
/// values it alone. The budget is a count of positions, not a time, so
/// that the test does not depend on the machine's speed or load.
#[test]
fn a_hard_board_does_not_spend_the_budget_of_those_after_it() {
    let block = ["011110", "111011", "011010", "111011", "000111", "111110"];
    let boards = file(&format!(
        "{}\n{}\n",
        "11111111\n".repeat(8),
        block.join("\n")
    ));
    let queries = file("value 2 2\nvalue 1 2\n");
    let run = |positions: &str| {
        let output = grundy()
            .args(["sum", "--max-positions", positions, "--queries"])
            .arg(queries.path())
            .arg(boards.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(3));
        String::from_utf8(output.stdout).unwrap()
    };
    let stdout = run("30000");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, [value(&block).to_string().as_str(), "unknown"]);
    // The block alone needs more than 5,000: the budget is what decides.
    assert_eq!(
        run("5000").lines().collect::<Vec<_>>(),
        ["unknown", "unknown"]
    );
}

/// An answer is written as soon as the boards it needs are valued: the
/// value of an easy board comes out while a hard board that a later query
/// needs is still being searched (the run is still going a moment after
/// the first line), not once every board is valued.
#[test]
fn answers_stream_before_a_hard_board_is_valued() {
    use std::io::BufRead as _;
    let boards = file(&format!("11\n11\n\n{}", "11111111\n".repeat(8)));
    let queries = file("value 1 1\nvalue 1 2\n");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["sum", "--max-time", "60", "--queries"])
        .arg(queries.path())
        .arg(boards.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(first.trim(), value(&["11", "11"]).to_string());
    assert!(running, "the first answer came out only as the run ended");
}

#[test]
fn sum_help_documents_one_based_indices() {
    grundy()
        .args(["sum", "--help"])
        .assert()
        .success()
        .stdout(predicates::str::contains("numbered from 1"))
        .stdout(predicates::str::contains("set P"))
        // The budget's help names no flag of `clear` that `sum` lacks
        // (`--threads`, and `--move` but as how `clear` plays).
        .stdout(predicates::str::contains("--threads").not())
        .stdout(predicates::str::contains("With --move").not());
}

fn solver_value(board: &Board) -> u32 {
    Clear::solver().value(board).unwrap().value()
}

#[test]
fn sum_json_lines_give_legal_winning_moves() {
    let boards_text = "0110\n0000\n0000\n0001\n\n11\n11\n\n1\n";
    let boards = [
        grundy::board!["0110", "0000", "0000", "0001"],
        grundy::board!["11", "11"],
        grundy::board!["1"],
    ];
    let queries = file("value 1 3\nwinner 2 3\nmove 1 3\nmove 2 3\nset 3\n11\n\nmove 2 3\n");
    let board_file = file(boards_text);
    let output = grundy()
        .args(["sum", "--json", "--queries"])
        .arg(queries.path())
        .arg(board_file.path())
        .output()
        .unwrap();
    assert_success(&output);
    let lines: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 6);
    let mut solver = Clear::solver();
    let mut current = boards.to_vec();
    let mut total = |boards: &[Board], l: usize, r: usize| -> Nimber {
        boards[l - 1..r]
            .iter()
            .map(|b| solver.value(b).unwrap())
            .sum()
    };
    assert_eq!(lines[0]["grundy"], total(&current, 1, 3).value());
    assert_eq!(
        lines[1]["winner"],
        if total(&current, 2, 3).is_zero() {
            "second"
        } else {
            "first"
        }
    );
    // Boards are 0-based in JSON: `set 3` replaces board 2 by a domino.
    assert_eq!(
        lines[4],
        serde_json::json!({"query": "set", "board": 2, "grundy": solver_value(&grundy::board!["11"])})
    );
    assert_eq!(
        (&lines[1]["left"], &lines[1]["right"]),
        (&1.into(), &2.into())
    );
    for (at, (l, r)) in [(2, (1, 3)), (3, (2, 3)), (5, (2, 3))] {
        if at == 5 {
            current[2] = grundy::board!["11"];
        }
        let line = &lines[at];
        let mv = &line["move"];
        let lost = total(&current, l, r).is_zero();
        if lost {
            // A lost range with moves: the engine's move, proven losing.
            assert_eq!(
                (&line["kind"], &line["proven"]),
                (&"losing".into(), &true.into()),
                "{line}"
            );
        }
        // 0-based in JSON, while the script's L and R count from 1.
        let index = mv["board"].as_u64().unwrap() as usize + 1;
        assert!((l..=r).contains(&index));
        let rect = crate::common::json_rect(mv);
        let mut after = current.clone();
        after[index - 1] = current[index - 1].try_play(rect).expect("a legal move");
        assert_eq!(total(&after, l, r).is_zero(), !lost, "{line}");
    }
}

/// A board past the budget does not stop the run: the ranges without it are
/// answered as a run without it answers them, a range with it gets an
/// unknown value and the engine's winner and move, and the run ends with
/// the budget's error and exit 3, after every answer.
/// An unproven guess is not a move known to lose: with board 2 (full 8 x 8)
/// past the budget and board 1 valued (a non-zero value), clearing board 2
/// whole would leave board 1 alone, a known win for the opponent. (The
/// moves of board 2 that leave only shapes of known value leave one or two
/// rows or columns: no move of it leaves a known total of 0 when board 1's
/// value is neither a 2 x 8 block's nor a line of 8's, which would be a
/// proven win.)
#[test]
fn an_unproven_guess_avoids_a_move_known_to_lose() {
    let boards = file(&format!(
        "0110\n0000\n0000\n0001\n\n{}",
        "11111111\n".repeat(8)
    ));
    let queries = file("move 1 2\n");
    let first = value(&["0110", "0000", "0000", "0001"]);
    assert!(!first.is_zero());
    assert_ne!(first, value(&["11111111", "11111111"]));
    assert_ne!(first, value(&["11111111"]));
    let output = grundy()
        .args(["sum", "--json", "--max-positions", "10", "--queries"])
        .arg(queries.path())
        .arg(boards.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["kind"], "unproven", "{line}");
    let mv = &line["move"];
    let whole = (mv["board"] == 1)
        && (mv["top"] == 0 && mv["left"] == 0 && mv["bottom"] == 7 && mv["right"] == 7);
    assert!(!whole, "{line}");
}

#[test]
fn sum_answers_around_a_board_past_the_budget() {
    let full = "11111111\n".repeat(8);
    let queries =
        "value 1 3\nwinner 2 3\nmove 1 3\nvalue 1 4\nwinner 4 4\nmove 4 4\nset 4\n1\n\nvalue 1 4\n";
    let run = |boards: &str, queries: &str, json: bool| {
        let (queries, boards) = (file(queries), file(boards));
        let mut command = grundy();
        command.args(["sum", "--max-positions", "10"]);
        if json {
            command.arg("--json");
        }
        command.arg("--queries").arg(queries.path());
        command.arg(boards.path()).output().unwrap()
    };
    let output = run(&format!("{BOARDS}\n{full}"), queries, false);
    assert_eq!(output.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&output.stderr).contains("position budget"));
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    // The first three queries never touch board 4: the same answers as
    // the three boards alone give.
    let alone = run(BOARDS, "value 1 3\nwinner 2 3\nmove 1 3\n", false);
    assert_success(&alone);
    assert_eq!(
        lines[..3].join("\n") + "\n",
        String::from_utf8(alone.stdout).unwrap()
    );
    assert_eq!(lines[3], "unknown");
    // A full board is won by clearing it whole, which the engine proves
    // without its value.
    assert_eq!(lines[4], "first");
    assert!(
        lines[5].starts_with("clear (") && lines[5].contains(" on board 4: proven winning: "),
        "{}",
        lines[5]
    );
    // Once replaced by one cell, board 4 is known again.
    assert_eq!(lines[6], "board 4: grundy 1");
    let total = value(&["0110", "0000", "0000", "0001"]) ^ value(&["11", "11"]) ^ value(&["1"]);
    assert_eq!(lines[7], (total ^ value(&["1"])).to_string());

    let output = run(&format!("{BOARDS}\n{full}"), queries, true);
    assert_eq!(output.status.code(), Some(3));
    let json: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(json[3]["grundy"], serde_json::Value::Null);
    assert_eq!(json[4]["winner"], "first");
    let mv = &json[5];
    assert_eq!(
        (&mv["proven"], &mv["kind"]),
        (&true.into(), &"winning".into())
    );
    assert_eq!(mv["move"]["board"], 3);
    for side in ["top", "left", "bottom", "right"] {
        assert!(mv["move"][side].as_u64().unwrap() < 8, "{mv}");
    }
    assert_eq!(json[6]["grundy"], 1);

    // Two congruent boards past the budget (one the other's mirror image)
    // cancel (X xor X = 0): a range holding both is known, the value of
    // the rest; one holding one of them alone is not.
    let mirror: String = full.lines().map(|r| format!("{}0\n", r)).collect();
    let turned: String = full.lines().map(|r| format!("0{}\n", r)).collect();
    let boards = format!("{mirror}\n{turned}\n{}", BOARDS);
    let output = run(
        &boards,
        "value 1 2\nwinner 1 2\nvalue 1 3\nvalue 2 3\n",
        false,
    );
    assert_eq!(output.status.code(), Some(3));
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["0", "second"], "{text}");
    assert_eq!(
        lines[2],
        value(&["0110", "0000", "0000", "0001"]).to_string()
    );
    assert_eq!(lines[3], "unknown");
}

/// Boards whose analysis passes the memory budget but whose cells fit are
/// still answered, as `grundy clear --move` still plays them: their values
/// unknown, each move a legal one found without analysis, exit 3 naming the
/// budget. Boards whose cells alone pass it are refused before any query,
/// exit 3, located and worded as `grundy clear --move` refuses them.
#[test]
fn boards_past_the_memory_budget_are_answered_without_analysis() {
    // Not a full rectangle (clearing it whole would be a proven move).
    let mut board: String = (0..300).map(|_| "1".repeat(300) + "\n").collect();
    board.replace_range(5..6, "0");
    let flags = ["--max-memory", "100kB", "--json"];
    let output = sum_run(&flags, "value 1 1\nmove 1 1\n", &board);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("raise --max-memory to search further"),
        "{stderr}"
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["grundy"], serde_json::Value::Null);
    assert_eq!(lines[1]["kind"], "unproven");
    assert!(
        lines[1]["reason"]
            .as_str()
            .unwrap()
            .starts_with("unproven: no analysis"),
        "{}",
        lines[1]
    );
    // Legal: a rectangle inside the board, every cell of it a one.
    let mv = &lines[1]["move"];
    let corner = |key: &str| mv[key].as_u64().unwrap() as usize;
    let rows: Vec<&str> = board.lines().collect();
    assert!(corner("bottom") < 300 && corner("right") < 300, "{mv}");
    for row in &rows[corner("top")..=corner("bottom")] {
        assert!(
            row[corner("left")..=corner("right")]
                .bytes()
                .all(|b| b == b'1'),
            "{mv}"
        );
    }

    let board: String = (0..1000).map(|_| "1".repeat(1000) + "\n").collect();
    let flags = ["--max-memory", "100kB"];
    let output = sum_run(&flags, "value 1 1\n", &board);
    assert_eq!(output.status.code(), Some(3));
    assert!(output.stdout.is_empty());
    let sum_error = String::from_utf8(output.stderr).unwrap();
    let clear = grundy()
        .args(["clear", "--move"])
        .args(flags)
        .arg(file(&board).path())
        .output()
        .unwrap();
    assert_eq!(clear.status.code(), Some(3));
    let clear_error = String::from_utf8(clear.stderr).unwrap();
    let without_path = |text: &str| {
        text.split_once(":1:1: ")
            .map(|(_, rest)| rest.split(" (").next().unwrap_or_default().to_owned())
    };
    assert_eq!(
        without_path(&sum_error),
        without_path(&clear_error),
        "{sum_error}"
    );
    // 1,000 rows of 16 words of 64 cells: 128,000 bytes, 125.0 KiB.
    assert!(
        sum_error.contains("their cells alone need 125.0 KiB, over the limit of 97.7 KiB"),
        "{sum_error}"
    );
}

/// The memory budget bounds the whole run: an engine move's search gets
/// what the row's memo leaves, and its message names the user's budget
/// with what the run would need in all (the memo's bytes and the move's),
/// more than that budget.
#[test]
fn an_engine_move_shares_the_runs_memory_budget() {
    let board = "11111111\n11111111\n10011101\n11111111\n11111111\n00111101\n11110111\n11111111\n";
    let output = sum_run(&["--max-memory", "2MB"], "value 1 1\nmove 1 1\n", board);
    assert_eq!(output.status.code(), Some(3));
    let text = String::from_utf8(output.stdout).unwrap();
    let played = text.lines().nth(1).unwrap();
    // The budget is 1.9 MiB, with more decimals where the need would read
    // the same with fewer.
    let (budget, need) = played
        .split_once("would pass ")
        .and_then(|(_, rest)| rest.split_once(" MiB (the memory budget; it would need "))
        .unwrap_or_else(|| panic!("{played}"));
    assert!(budget.starts_with("1.9"), "{played}");
    let (number, unit) = need.split_once(' ').unwrap();
    let scale = match &unit[..3] {
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => panic!("{played}"),
    };
    // As shown, the need is above the budget shown (1.9 MiB): the move's
    // own search alone stopped near it.
    let need = number.parse::<f64>().unwrap() * f64::from(scale);
    assert!(need > 1.9 * f64::from(1 << 20), "{played}");
}

/// A range of known value keeps getting its move by values after a board
/// past the budget spent it (the engine's search of that board ran out):
/// a proven winning move, worded as found by values, each time.
#[test]
fn a_known_range_keeps_its_moves_after_a_board_past_the_budget() {
    // 12 x 12 (past 64 cells), 85% ones: far past 10 positions.
    let hard: String = (0..12u64)
        .map(|r| {
            let row: String = (0..12u64)
                .map(|c| if (r * 12 + c) * 7 % 20 < 17 { '1' } else { '0' })
                .collect();
            row + "\n"
        })
        .collect();
    let small = ["0110", "0000", "0000", "0001"];
    let output = sum_run(
        &["--max-positions", "10"],
        "move 2 2\nmove 1 1\nmove 2 2\nmove 1 2\nmove 2 2\n",
        &format!("{hard}\n{}\n", small.join("\n")),
    );
    assert_eq!(output.status.code(), Some(3));
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    let suffix = format!(
        " on board 2, leaving grundy 0 (board 2: grundy {} -> 0)",
        value(&small)
    );
    for k in [0, 2, 4] {
        let corners = lines[k]
            .strip_prefix("clear (")
            .and_then(|rest| rest.strip_suffix(suffix.as_str()))
            .unwrap_or_else(|| panic!("{k}: {}", lines[k]));
        // The move is legal and leaves the board (the range) at 0.
        let n: Vec<usize> = corners
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        let mut after: Vec<Vec<u8>> = small.iter().map(|r| r.as_bytes().to_vec()).collect();
        for row in &mut after[n[0] - 1..n[2]] {
            for cell in &mut row[n[1] - 1..n[3]] {
                assert_eq!(*cell, b'1', "{}", lines[k]);
                *cell = b'0';
            }
        }
        let after: Vec<String> = after
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        let after: Vec<&str> = after.iter().map(String::as_str).collect();
        assert_eq!(value(&after), Nimber::ZERO, "{}", lines[k]);
    }
    assert!(lines[1].contains("unproven"), "{}", lines[1]);
}

/// The engine always plays while a range has a move: on a lost range (two
/// equal dominoes, value 2 xor 2 = 0) the `move` answer is a legal move,
/// proven losing and worded as `grundy clear --move` words it; a range with
/// no move at all answers `none`.
#[test]
fn a_lost_range_still_gets_a_move() {
    let boards = "11\n\n11\n\n0\n";
    let output = sum_run(&[], "move 1 2\nmove 3 3\n", boards);
    assert_success(&output);
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let clear = grundy()
        .args(["clear", "--move", "-"])
        .write_stdin("11\n\n11\n")
        .output()
        .unwrap();
    assert_success(&clear);
    // `clear --move` prints the move and its reason on two lines, `sum` on one.
    let clear_text = String::from_utf8(clear.stdout).unwrap().replace('\n', ": ");
    assert_eq!(format!("{}: ", lines[0]), clear_text, "{text}");
    assert!(lines[0].contains(": losing position: "), "{text}");
    assert_eq!(lines[1], "none");
    let output = sum_run(&["--json"], "move 1 2\n", boards);
    assert_success(&output);
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (&line["kind"], &line["proven"]),
        (&"losing".into(), &true.into())
    );
    let mv = &line["move"];
    let index = mv["board"].as_u64().unwrap() as usize;
    let rect = crate::common::json_rect(mv);
    assert!(index < 2);
    assert!(grundy::board!["11"].try_play(rect).is_ok(), "{line}");
}

/// A move on a lost range of valued boards is a proven losing move, under
/// any time budget (probe U: `--max-time 0` called it unproven and exited
/// 3): two dominoes, of values 2 and 2 by the solver, and the move leaving
/// the largest value, 3 (one cell of either, leaving 1 beside 2), on the
/// first board.
#[test]
fn a_lost_range_move_is_a_proven_losing_move_under_a_zero_time_budget() {
    assert_eq!(value(&["11"]), Nimber::new(2));
    assert_eq!(value(&["1"]), Nimber::new(1));
    let output = sum_run(
        &["--max-time", "0", "--json"],
        "value 1 2\nmove 1 2\n",
        "11\n\n11\n",
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines[0]["grundy"], 0);
    let answer = &lines[1];
    assert_eq!(answer["kind"], "losing", "{answer}");
    assert_eq!(answer["proven"], true, "{answer}");
    assert_eq!(answer["move"]["board"], 0, "{answer}");
    let leaves = value(&["1"]) ^ value(&["11"]);
    assert_eq!(answer["move"]["grundy"], leaves.value(), "{answer}");
    let area = |m: &serde_json::Value| {
        (m["bottom"].as_u64().unwrap() - m["top"].as_u64().unwrap() + 1)
            * (m["right"].as_u64().unwrap() - m["left"].as_u64().unwrap() + 1)
    };
    assert_eq!(area(&answer["move"]), 1, "{answer}");
    assert!(
        answer["reason"]
            .as_str()
            .unwrap()
            .contains("this one leaves 3, the largest value a move leaves"),
        "{answer}"
    );
}

/// Once the time is spent, a move on a range is found without analysis
/// from the range's first board with a one (and the next, to know whether
/// it clears every one): none on a range of empty boards, the whole board
/// when it is the range's only one and all ones (a proven win by the
/// rules: the opponent has no move), else the first run of ones of the
/// first board with a one.
#[test]
fn moves_without_analysis_come_from_the_first_board_with_a_one() {
    let empty = "00000000\n".repeat(8);
    let full = "11111111\n".repeat(8);
    let cut: String = (0..8)
        .map(|r| {
            let row: String = (0..8).map(|c| if r == c { '0' } else { '1' }).collect();
            row + "\n"
        })
        .collect();
    let boards = format!("{empty}\n{full}\n{cut}\n{empty}");
    let output = sum_run(
        &["--max-time", "0"],
        "move 1 1\nmove 1 2\nmove 1 3\nmove 3 4\nmove 2 3\nwinner 1 4\nmove 4 4\n",
        &boards,
    );
    assert_eq!(output.status.code(), Some(3));
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[0], "none");
    assert!(
        lines[1].starts_with("clear (1,1)-(8,8) on board 2: proven winning: it clears every one"),
        "{text}"
    );
    let unanalysed =
        |line: &str, mv: &str| line.starts_with(&format!("{mv}: unproven: no analysis"));
    assert!(
        unanalysed(lines[2], "clear (1,1)-(1,8) on board 2"),
        "{text}"
    );
    assert!(
        unanalysed(lines[3], "clear (1,2)-(1,8) on board 3"),
        "{text}"
    );
    assert!(
        unanalysed(lines[4], "clear (1,1)-(1,8) on board 2"),
        "{text}"
    );
    assert_eq!(lines[5], "unknown");
    assert_eq!(lines[6], "none");
}

/// Once the run's time is spent on boards it cannot value (a full 8 x 8
/// and a full 10 x 10), a range of boards all valued still gets its
/// winning move, or its losing move, by their values: not a move found
/// without analysis.
#[test]
fn a_valued_range_gets_its_move_by_values_after_the_time_is_spent() {
    let small = ["0110", "0000", "0000", "0001"];
    // A 12 x 12 block without two cells of its middle: its own half turn
    // about an uncovered point, value 0 known at once, and its losing
    // move's values more than a millisecond's search.
    let mut ring: Vec<String> = vec!["1".repeat(12); 12];
    ring[5].replace_range(5..6, "0");
    ring[6].replace_range(6..7, "0");
    let boards = format!(
        "{}\n\n{}\n\n{}\n\n{}\n\n{}\n",
        ["11111111"; 8].join("\n"),
        ["1111111111"; 10].join("\n"),
        small.join("\n"),
        small.join("\n"),
        ring.join("\n"),
    );
    let output = sum_run(
        &["--max-time", "0.3"],
        "value 1 2\nmove 3 3\nmove 3 4\nvalue 5 5\nmove 5 5\n",
        &boards,
    );
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "unknown", "{stdout}");
    // The winning move: the oracle values the board after it at 0.
    let won = lines[1];
    assert!(won.contains("on board 3, leaving grundy 0"), "{stdout}");
    let col: usize = won["clear (1,".len()..]
        .split(')')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        won.starts_with(&format!("clear (1,{col})-(1,{col})")),
        "{won}"
    );
    let mut after: Vec<String> = small.iter().map(|r| (*r).to_owned()).collect();
    after[0].replace_range(col - 1..col, "0");
    let rows: Vec<&str> = after.iter().map(String::as_str).collect();
    assert_eq!(value(&rows), Nimber::ZERO, "{won}");
    assert_ne!(value(&small), Nimber::ZERO);
    // Two equal boards: lost, and said so, with the value the move leaves.
    assert!(
        lines[2].contains(": losing position: the total is 0"),
        "{stdout}"
    );
    // A lost board whose options the millisecond cannot value: still a
    // losing position, proven by its value, the shape kept almost whole.
    assert_eq!(lines[3], "0", "{stdout}");
    assert!(
        lines[4].starts_with("clear (1,1)-(1,1) on board 5: losing position: the total is 0"),
        "{stdout}"
    );
}

/// Two congruent hard boards in one range cancel before either is searched
/// (X xor X = 0): their range is valued, won by the second player and
/// given a proven losing move even when no time is left to search; a
/// range holding one of them alone values it then.
#[test]
fn congruent_boards_in_one_range_are_never_searched() {
    let full = "11111111\n".repeat(8);
    let mirror: String = full.lines().map(|r| format!("{r}0\n")).collect();
    let turned: String = full.lines().map(|r| format!("0{r}\n")).collect();
    let boards = format!("{mirror}\n{turned}\n111\n");
    let output = sum_run(
        &["--max-time", "0"],
        "value 1 2\nwinner 1 2\nmove 1 2\nvalue 1 3\n",
        &boards,
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["0", "second"], "{text}");
    assert!(
        lines[2].starts_with("clear (1,1)-(1,1) on board 1: losing position: "),
        "{text}"
    );
    assert_eq!(lines[3], value(&["111"]).to_string(), "{text}");

    // The budget stops board 2 valued alone; the range of both still
    // cancels, and its move is a proven losing one.
    let output = sum_run(
        &["--max-positions", "10", "--json"],
        "value 2 3\nvalue 1 2\nmove 1 2\n",
        &boards,
    );
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines[0]["grundy"], serde_json::Value::Null);
    assert_eq!(lines[1]["grundy"], 0);
    assert_eq!(
        (&lines[2]["kind"], &lines[2]["proven"]),
        (&"losing".into(), &true.into()),
        "{}",
        lines[2]
    );
}
