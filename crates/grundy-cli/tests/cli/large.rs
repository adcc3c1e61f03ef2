//! `grundy clear` on boards past 64 cells and `grundy clear --move`:
//! values and winning moves checked with the library's small-board solver
//! component by component (each winning move must leave 0), and the
//! engine's moves checked by replaying them.

use grundy::clear::{Board, Clear};
use grundy::Nimber;
use serde_json::Value;

use crate::common::{assert_input_error, assert_success, grundy};

/// A board of `rows x cols` with about `percent`% ones, from a fixed seed.
fn random_text(rows: usize, cols: usize, percent: u64, seed: u64) -> String {
    let mut state = seed | 1;
    let mut text = String::new();
    for _ in 0..rows {
        for _ in 0..cols {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push(if state % 100 < percent { '1' } else { '0' });
        }
        text.push('\n');
    }
    text
}

/// The small board of a component's cells (0-based `[row, col]`), cut to
/// its box; `None` past 64 cells.
fn component_board(cells: &[(u64, u64)]) -> Option<Board> {
    let top = cells.iter().map(|c| c.0).min()?;
    let left = cells.iter().map(|c| c.1).min()?;
    let rows = (cells.iter().map(|c| c.0).max()? - top + 1) as usize;
    let cols = (cells.iter().map(|c| c.1).max()? - left + 1) as usize;
    let mut bits = 0u64;
    for &(r, c) in cells {
        bits |= 1 << ((r - top) as usize * cols + (c - left) as usize);
    }
    Board::new(rows, cols, bits).ok()
}

fn json_of(text: &str, args: &[&str]) -> Value {
    let output = grundy()
        .args(["clear", "--json", "-"])
        .args(args)
        .write_stdin(text.to_owned())
        .output()
        .unwrap();
    assert_success(&output);
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn large_boards_agree_with_the_small_solver_component_by_component() {
    for (rows, cols, seed) in [(9, 9, 1), (30, 70, 2), (120, 40, 3), (300, 300, 4)] {
        let text = random_text(rows, cols, 20, seed);
        let report = json_of(&text, &[]);
        let mut solver = Clear::solver();
        let mut total = Nimber::ZERO;
        let mut components = Vec::new();
        for component in report["components"].as_array().unwrap() {
            let cells: Vec<(u64, u64)> = component["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
                .collect();
            let board = component_board(&cells).expect("components of a 20% board are small");
            let value = solver.value(&board).unwrap();
            assert_eq!(component["grundy"], value.value());
            total ^= value;
            components.push(cells);
        }
        assert_eq!(report["grundy"], total.value(), "{rows} x {cols}");
        assert_eq!(report["winning_moves_complete"], true);
        // Each winning move clears ones of one component and leaves 0.
        let mut expected = 0usize;
        for cells in &components {
            let board = component_board(cells).unwrap();
            let value = solver.value(&board).unwrap();
            expected += solver.moves_to(&board, value ^ total).unwrap().len();
        }
        let moves = report["winning_moves"].as_array().unwrap();
        assert_eq!(moves.len(), if total.is_zero() { 0 } else { expected });
        for mv in moves {
            let (top, left) = (mv["top"].as_u64().unwrap(), mv["left"].as_u64().unwrap());
            let (bottom, right) = (
                mv["bottom"].as_u64().unwrap(),
                mv["right"].as_u64().unwrap(),
            );
            let inside = components
                .iter()
                .find(|cells| cells.contains(&(top, left)))
                .expect("a move clears ones");
            for r in top..=bottom {
                for c in left..=right {
                    assert!(inside.contains(&(r, c)), "({r},{c}) of {mv}");
                }
            }
            let board = component_board(inside).unwrap();
            let rest: Vec<(u64, u64)> = inside
                .iter()
                .copied()
                .filter(|&(r, c)| !(top..=bottom).contains(&r) || !(left..=right).contains(&c))
                .collect();
            let before = solver.value(&board).unwrap();
            let after = if rest.is_empty() {
                Nimber::ZERO
            } else {
                // What is left of the component may be several parts:
                // value it on the component's own box.
                let top0 = inside.iter().map(|c| c.0).min().unwrap();
                let left0 = inside.iter().map(|c| c.1).min().unwrap();
                let mut bits = 0u64;
                for &(r, c) in &rest {
                    bits |= 1 << ((r - top0) as usize * board.cols() + (c - left0) as usize);
                }
                solver
                    .value(&Board::new(board.rows(), board.cols(), bits).unwrap())
                    .unwrap()
            };
            assert_eq!(total ^ before ^ after, Nimber::ZERO, "{mv}");
        }
    }
}

/// `grundy clear ARGS -` on `text`.
fn clear_on(text: String, args: &[&str]) -> std::process::Output {
    grundy()
        .arg("clear")
        .args(args)
        .arg("-")
        .write_stdin(text)
        .output()
        .unwrap()
}

/// The text report of `grundy clear ARGS -` on `text`, which must succeed.
fn text_of(text: String, args: &[&str]) -> String {
    let output = clear_on(text, args);
    assert_success(&output);
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn text_output_summarises_large_boards() {
    let stdout = text_of(random_text(80, 80, 20, 9), &[]);
    assert!(stdout.starts_with("Board (80 x 80): "), "{stdout}");
    assert!(stdout.contains("Components by size and value:"), "{stdout}");
    assert!(stdout.contains("wins with best play."), "{stdout}");
    // No drawing past 64 columns: no row of column numbers.
    assert!(!stdout.contains(" 80\n"), "{stdout}");
}

/// `copies` square blocks of ones of side `side` in a row, a column of
/// zeros between two, on a board of at least 65 cells (ten rows, seven
/// columns or more).
fn blocks_in_a_row(copies: usize, side: usize) -> String {
    let row: Vec<String> = (0..copies).map(|_| "1".repeat(side)).collect();
    let mut row = row.join("0");
    while row.len() < 7 {
        row.push('0');
    }
    let mut text = format!("{row}\n").repeat(side);
    let blank = "0".repeat(row.len());
    for _ in side..10 {
        text.push_str(&blank);
        text.push('\n');
    }
    text
}

#[test]
fn pairs_of_equal_shapes_are_counted_as_they_cancel() {
    // Equal shapes have equal values, so copies cancel two by two; an odd
    // count leaves one, whose value is the small solver's.
    let block = Clear::solver()
        .value(&grundy::board!["11", "11"])
        .unwrap()
        .value();
    for copies in [1, 2, 3, 9] {
        let stdout = text_of(blocks_in_a_row(copies, 2), &[]);
        let left = copies % 2;
        let paired = copies - left;
        if paired > 0 {
            let line = format!("Pairs: {paired} of the {copies} components cancel in pairs");
            assert!(stdout.contains(&line), "{line}\n{stdout}");
        } else {
            assert!(!stdout.contains("Pairs:"), "{stdout}");
        }
        let total = if left == 1 {
            format!("Total grundy value: {block} (the XOR of the 1 component left)")
        } else {
            "Total grundy value: 0 (every component cancels)".to_owned()
        };
        assert!(stdout.contains(&total), "{total}\n{stdout}");
    }
    // Two 8 x 8 blocks: their value is not needed, and the table says why
    // it shows none.
    let stdout = text_of(blocks_in_a_row(2, 8), &["--max-time", "1"]);
    assert!(
        stdout.contains("(grundy ?: its copies cancel in pairs, so its value is not needed)"),
        "{stdout}"
    );
    assert!(stdout.contains("none is left."), "{stdout}");
}

#[test]
fn the_engine_always_plays_and_says_whether_it_is_proven() {
    // A full board is one rectangle: clearing it wins.
    let full = "1".repeat(100) + "\n";
    let text = full.repeat(100);
    let output = grundy()
        .args(["clear", "--move", "--json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_success(&output);
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        answer["move"],
        serde_json::json!({"board": 0, "top": 0, "left": 0, "bottom": 99, "right": 99})
    );
    assert_eq!(answer["proven"], true);
    // Without its corners: the middle band leaves two equal halves.
    let mut rows = vec!["1".repeat(20); 20];
    rows[0] = format!("0{}0", "1".repeat(18));
    rows[19] = rows[0].clone();
    let output = grundy()
        .args(["clear", "--move", "-"])
        .write_stdin(rows.join("\n"))
        .output()
        .unwrap();
    assert_success(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("clear (10,1)-(11,20)\n"), "{stdout}");
    assert!(stdout.contains("two equal halves"), "{stdout}");
    // No ones: no move.
    let output = grundy()
        .args(["clear", "--move", "--json", "-"])
        .write_stdin("000\n000\n")
        .output()
        .unwrap();
    assert_success(&output);
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["move"], Value::Null);
    // A budget too small for a proof: a legal move all the same, exit 0.
    let dense = "1011111\n1111101\n1101101\n0111101\n1011111\n0111110\n0111001\n";
    let output = grundy()
        .args(["clear", "--move", "--json", "--max-time", "0.001", "-"])
        .write_stdin(dense)
        .output()
        .unwrap();
    assert_success(&output);
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows: Vec<&str> = dense.lines().collect();
    let mv = &answer["move"];
    for r in mv["top"].as_u64().unwrap()..=mv["bottom"].as_u64().unwrap() {
        for c in mv["left"].as_u64().unwrap()..=mv["right"].as_u64().unwrap() {
            assert_eq!(rows[r as usize].as_bytes()[c as usize], b'1', "{answer}");
        }
    }
}

#[test]
fn bad_large_input_is_located() {
    let mut text = "1".repeat(200) + "\n";
    text.push_str(&"1".repeat(150));
    text.push_str("x\n");
    assert_input_error(
        grundy().args(["clear", "-"]).write_stdin(text),
        "<stdin>",
        2,
        151,
        "unexpected 'x'",
    );
    assert_input_error(
        grundy()
            .args(["clear", "-"])
            .write_stdin("1".repeat(200) + "\n" + &"1".repeat(199) + "\n"),
        "<stdin>",
        2,
        200,
        "ragged row",
    );
    let output = grundy()
        .args(["clear", "--play", "-"])
        .write_stdin("1".repeat(100))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_budget_that_runs_out_prints_what_is_known_and_exits_3() {
    // A full 12 x 12 board minus its corners: no value within 0.2 s, but
    // the halving move is proven all the same.
    let mut rows = vec!["1".repeat(12); 12];
    rows[0] = format!("0{}0", "1".repeat(10));
    rows[11] = rows[0].clone();
    let output = grundy()
        .args(["clear", "--json", "--max-time", "0.2", "-"])
        .write_stdin(rows.join("\n"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["grundy"], Value::Null);
    assert_eq!(report["winner"], "first");
    assert_eq!(report["winning_moves_complete"], false);
    let mv = &report["winning_moves"][0];
    assert_eq!(
        (
            &mv["board"],
            &mv["top"],
            &mv["left"],
            &mv["bottom"],
            &mv["right"]
        ),
        (&0.into(), &5.into(), &0.into(), &6.into(), &11.into()),
        "{mv}"
    );
    // The text says the list is what was found, not every winning move;
    // the JSON's move has the text's line, which says how it wins.
    let output = clear_on(rows.join("\n"), &["--max-time", "0.2"]);
    assert_eq!(output.status.code(), Some(3));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("Winning moves found (1; the budget ran out before every one was found):\n  clear (6,1)-(7,12), leaving grundy 0"),
        "{text}"
    );
    let line = mv["text"].as_str().unwrap();
    assert!(line.contains("two equal halves"), "{line}");
    assert!(
        text.contains(&format!("\n  {line}\n")),
        "{line} not in {text}"
    );
}

/// A sum whose shapes are all valued within 10 positions, whose move to a
/// total of 0 the values alone do not give: the engine finds one among
/// the moves whose shapes left are all known (`KnownTotal`), proven, and
/// the analysis without a budget lists it among the winning moves.
#[test]
fn a_move_to_a_known_total_of_0_is_proven_within_a_small_budget() {
    let data = crate::common::data("valued_but_unproven.txt");
    let output = grundy()
        .args(["clear", "--move", "--json", "--max-positions", "10"])
        .arg(&data)
        .output()
        .unwrap();
    assert_success(&output);
    let chosen: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(chosen["proven"], true, "{chosen}");
    assert_eq!(chosen["kind"], "winning", "{chosen}");
    let output = grundy()
        .args(["clear", "--json"])
        .arg(&data)
        .output()
        .unwrap();
    assert_success(&output);
    let full: Value = serde_json::from_slice(&output.stdout).unwrap();
    let winning = full["winning_moves"].as_array().unwrap();
    let key =
        |m: &Value| ["board", "top", "left", "bottom", "right"].map(|k| m[k].as_u64().unwrap());
    assert!(
        winning.iter().any(|m| key(m) == key(&chosen["move"])),
        "{chosen} not in {winning:?}"
    );
}
