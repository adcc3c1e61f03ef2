//! The conventions of the README's "Conventions" section, pinned across
//! commands: the same position in text and in JSON gives the same moves,
//! grid cells `(row,col)` from 1 in text and `row`/`col` from 0 in JSON and
//! files, pawn cells `(x,y)` the same everywhere, boards and pawns numbered
//! from 1 in text and from 0 in JSON; every command reads FILE or `-`; a
//! byte order mark is skipped; `X Y` and `X,Y` alike; `--json --play` keeps
//! the play-out; plurals and budget messages in plain words. (That the API
//! answers the CLI's JSON is pinned in `serve.rs`.)
//!
//! Expected moves come from brute force (clear, pawn) or the engine's own
//! solver (split, itself checked against brute force in the engine's tests),
//! never from the output under test.

use std::collections::BTreeSet;

use grundy::clear::{Board, Rect};
use grundy::pawn::{Blocked, Cell as PawnCell, Outcomes};
use grundy::split::{Cell as SplitCell, Grid, Position, SplitSolver};
use grundy::{MexSet, Nimber};
use serde_json::Value;

use crate::common::{assert_input_error, assert_success, grundy};

/// Runs `grundy ARGS` with `stdin`, expecting success; returns stdout.
fn run(args: &[&str], stdin: &[u8]) -> String {
    let output = grundy().args(args).write_stdin(stdin).output().unwrap();
    assert_success(&output);
    String::from_utf8(output.stdout).unwrap()
}

fn json(args: &[&str], stdin: &[u8]) -> Value {
    serde_json::from_str(&run(args, stdin)).expect("one line of JSON")
}

/// The numbers of `text` in order, e.g. `(1,2)-(3,4)` gives 1, 2, 3, 4.
fn numbers(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().unwrap())
        .collect()
}

/// Plain mex recursion over a rectangle-clearing board.
fn brute(board: &Board) -> Nimber {
    let mut seen = MexSet::new();
    board.for_each_rect(|rect, _| seen.insert(brute(&board.play_unchecked(rect))));
    seen.mex()
}

fn board(rows: &[&str]) -> Board {
    let cols = rows[0].len();
    let mut cells = 0u64;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '1' {
                cells |= 1 << (r * cols + c);
            }
        }
    }
    Board::new(rows.len(), cols, cells).unwrap()
}

/// `(board, top, left, bottom, right)`, all from 0.
type ClearMove = (u64, u64, u64, u64, u64);

#[test]
fn clear_text_counts_from_1_and_json_from_0_with_the_same_moves() {
    let rows: [&[&str]; 2] = [&["110", "011", "101"], &["11", "10"]];
    let input = "110\n011\n101\n\n11\n10\n";
    let boards: Vec<Board> = rows.iter().map(|r| board(r)).collect();
    let values: Vec<Nimber> = boards.iter().map(brute).collect();
    let total: Nimber = values.iter().copied().sum();
    assert!(!total.is_zero(), "the example has winning moves");
    // Brute force: every legal move after which the sum is 0.
    let mut expected = BTreeSet::new();
    for (index, b) in boards.iter().enumerate() {
        b.for_each_rect(|rect, _| {
            if (total ^ values[index] ^ brute(&b.play_unchecked(rect))).is_zero() {
                expected.insert((
                    index as u64,
                    u64::from(rect.top),
                    u64::from(rect.left),
                    u64::from(rect.bottom),
                    u64::from(rect.right),
                ));
            }
        });
    }
    let from_json: BTreeSet<ClearMove> = json(&["clear", "--json", "-"], input.as_bytes())
        ["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let n = |key: &str| m[key].as_u64().unwrap();
            (n("board"), n("top"), n("left"), n("bottom"), n("right"))
        })
        .collect();
    // Text: `clear (r,c)-(r,c) on board B: ...`, every number from 1.
    let text = run(&["clear", "-"], input.as_bytes());
    let from_text: BTreeSet<ClearMove> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("clear "))
        .map(|line| {
            let n = numbers(line.split(':').next().unwrap());
            (n[4] - 1, n[0] - 1, n[1] - 1, n[2] - 1, n[3] - 1)
        })
        .collect();
    assert_eq!(from_json, expected);
    assert_eq!(from_text, expected, "{text}");
    assert!(text.contains("Board 1 (3 x 3)") && text.contains("Board 2 (2 x 2)"));
}

#[test]
fn clear_json_of_a_sum_repeats_the_first_board_at_the_top() {
    let json = json(&["clear", "--json", "-"], b"0110\n0001\n\n111\n");
    assert_eq!(json["rows"], 2);
    assert_eq!(json["cols"], 4);
    assert_eq!(json["components"], json["boards"][0]["components"]);
    assert_eq!(json["boards"].as_array().unwrap().len(), 2);
}

#[test]
fn split_text_cells_and_json_agree_under_their_numberings() {
    let rows = ["01101", "10010", "00111", "11001"];
    let input = rows.join("\n") + "\n";
    let mut solver = SplitSolver::new();
    let position = Position::new(Grid::from_rows(&rows));
    let expected: BTreeSet<(u64, u64)> = solver
        .winning_moves(&position)
        .unwrap()
        .iter()
        .map(|c| (u64::from(c.row), u64::from(c.col)))
        .collect();
    assert!(!expected.is_empty(), "the example has winning moves");
    let moves_of = |json: &Value| -> BTreeSet<(u64, u64)> {
        json["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["row"].as_u64().unwrap(), m["col"].as_u64().unwrap()))
            .collect()
    };
    // The same grid as a matrix and as a cell list of `row col` from 0.
    let mut cells = format!("{} {}\n", rows.len(), rows[0].len());
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '1' {
                cells += &format!("{r} {c}\n");
            }
        }
    }
    let matrix = json(&["split", "--json", "-"], input.as_bytes());
    let listed = json(&["split", "--cells", "--json", "-"], cells.as_bytes());
    assert_eq!(moves_of(&matrix), expected);
    assert_eq!(moves_of(&listed), expected);
    // Text: `  split at (r,c), leaving grundy 0 (...)`, from 1.
    let text = run(&["split", "-"], input.as_bytes());
    let from_text: BTreeSet<(u64, u64)> = text
        .lines()
        .skip_while(|line| !line.starts_with("Winning moves"))
        .skip(1)
        .map(|line| {
            let n = numbers(line.split(", leaving").next().unwrap());
            (n[0] - 1, n[1] - 1)
        })
        .collect();
    assert_eq!(from_text, expected, "{text}");
    // A single candidate at `1 2` of a cell list is (2,3) in text.
    let one = run(&["split", "--cells", "-"], b"3 4\n1 2\n");
    assert!(one.contains("1 candidate:"), "{one}");
    assert!(
        one.contains("  split at (2,3), leaving grundy 0 (no candidate left)"),
        "{one}"
    );
}

/// Every legal move of a pawn on `walls`, from brute force.
fn pawn_moves(walls: &[(u64, u64)], x: u64, y: u64) -> Vec<(u64, u64)> {
    let mut moves = Vec::new();
    for to in (0..x).rev() {
        if walls.contains(&(to, y)) {
            break;
        }
        moves.push((to, y));
    }
    for to in (0..y).rev() {
        if walls.contains(&(x, to)) {
            break;
        }
        moves.push((x, to));
    }
    moves
}

/// The pawn's value on `walls`, by plain mex recursion.
fn pawn_value(walls: &[(u64, u64)], x: u64, y: u64) -> u32 {
    let mut seen = MexSet::new();
    for (tx, ty) in pawn_moves(walls, x, y) {
        seen.insert(Nimber::new(pawn_value(walls, tx, ty)));
    }
    seen.mex().value()
}

#[test]
fn pawn_text_numbers_pawns_from_1_and_json_from_0_with_the_same_cells() {
    let walls = [(1, 1), (4, 2), (2, 4)];
    let pawns = [(2, 2), (6, 5), (3, 0)];
    let values: Vec<u32> = pawns
        .iter()
        .map(|&(x, y)| pawn_value(&walls, x, y))
        .collect();
    let total = values.iter().fold(0, |a, v| a ^ v);
    assert_ne!(total, 0, "the example has winning moves");
    let mut expected = BTreeSet::new();
    for (index, &(x, y)) in pawns.iter().enumerate() {
        for (tx, ty) in pawn_moves(&walls, x, y) {
            if total ^ values[index] ^ pawn_value(&walls, tx, ty) == 0 {
                expected.insert((index as u64, tx, ty));
            }
        }
    }
    // `X Y` and `X,Y` lines, and `--at` in both forms, are the same input.
    let file = b"1 1\n4,2\n 2 , 4\n";
    let args = ["pawn", "-", "--at", "2,2", "--at", "6 5", "--at", "3,0"];
    let text = run(&args, file);
    let as_json = json(&[&args[..], &["--json"]].concat(), file);
    let from_json: BTreeSet<(u64, u64, u64)> = as_json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let n = |key: &str| m[key].as_u64().unwrap();
            (n("pawn"), n("x"), n("y"))
        })
        .collect();
    // Text: `  move pawn P (x,y) -> (x,y), leaving grundy 0 ...`, P from 1,
    // cells as they are.
    let from_text: BTreeSet<(u64, u64, u64)> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("move pawn "))
        .map(|line| {
            let n = numbers(line.split(", leaving").next().unwrap());
            let (x, y) = pawns[n[0] as usize - 1];
            assert_eq!((n[1], n[2]), (x, y), "{line}");
            (n[0] - 1, n[3], n[4])
        })
        .collect();
    assert_eq!(from_json, expected);
    assert_eq!(from_text, expected, "{text}");
    for (index, &(x, y)) in pawns.iter().enumerate() {
        assert!(
            text.contains(&format!("Pawn {} at ({x},{y})", index + 1)),
            "{text}"
        );
        assert_eq!(as_json["pawns"][index]["x"], x);
        assert_eq!(as_json["pawns"][index]["y"], y);
        assert_eq!(as_json["pawns"][index]["grundy"], values[index]);
    }
    let spaced = run(
        &["pawn", "-", "--at", "2 2", "--at", "6,5", "--at", "3 0"],
        b"1,1\n4 2\n2 4\n",
    );
    assert_eq!(spaced, text, "X Y and X,Y read alike");
}

#[test]
fn sum_text_numbers_boards_from_1_and_json_from_0() {
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("queries.txt");
    std::fs::write(&queries, "move 2 3\n").unwrap();
    let queries = queries.display().to_string();
    let boards = "1\n\n111\n\n11\n";
    let text = run(&["sum", "--queries", &queries, "-"], boards.as_bytes());
    let line: Value = serde_json::from_str(&run(
        &["sum", "--json", "--queries", &queries, "-"],
        boards.as_bytes(),
    ))
    .unwrap();
    // `move 2 3` is about the boards `111` and `11`: the JSON's board 1 or
    // 2 (from 0), a winning move by brute force, and the text's board 2 or 3.
    let rows: [&[&str]; 2] = [&["111"], &["11"]];
    let values: Vec<Nimber> = rows.iter().map(|r| brute(&board(r))).collect();
    let total = values[0] ^ values[1];
    let mv = &line["move"];
    let index = mv["board"].as_u64().unwrap() as usize;
    assert!((1..=2).contains(&index), "{line}");
    let rect = crate::common::json_rect(mv);
    let b = board(rows[index - 1]);
    let after = b.try_play(rect).expect("a legal move");
    assert!((total ^ values[index - 1] ^ brute(&after)).is_zero());
    assert_eq!((&line["left"], &line["right"]), (&1.into(), &2.into()));
    assert_eq!(
        text.trim(),
        format!(
            "clear {rect} on board {}, leaving grundy 0 (board {}: grundy {} -> {})",
            index + 1,
            index + 1,
            values[index - 1],
            brute(&after)
        )
    );
    // The JSON's text is the text line.
    assert_eq!(mv["text"], text.trim());
    assert_eq!(mv["grundy"], 0);
}

/// The moves of a text play-out, as the numbers on each numbered line.
fn play_lines(text: &str) -> Vec<Vec<u64>> {
    text.lines()
        .skip_while(|line| !line.starts_with("Play-out"))
        .skip(1)
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| numbers(line.split_once(". ").unwrap().1))
        .collect()
}

#[test]
fn json_play_holds_the_text_play_out_and_it_is_legal() {
    // Clear: two boards; each JSON move is the text's, from 0 instead of 1,
    // legal, and leaves the total it says.
    let input = b"110\n011\n\n11\n";
    let mut boards = [board(&["110", "011"]), board(&["11"])];
    let text = run(&["clear", "--play", "-"], input);
    let as_json = json(&["clear", "--json", "--play", "-"], input);
    let play = as_json["play"].as_array().unwrap();
    let lines = play_lines(&text);
    assert_eq!(play.len(), lines.len(), "{text}");
    assert!(!play.is_empty());
    for (mv, line) in play.iter().zip(&lines) {
        let n = |key: &str| mv[key].as_u64().unwrap();
        // `clears (r,c)-(r,c) on board B, leaving grundy G`
        assert_eq!(
            line[..6],
            [
                n("top") + 1,
                n("left") + 1,
                n("bottom") + 1,
                n("right") + 1,
                n("board") + 1,
                n("grundy")
            ],
            "{mv} vs {line:?}"
        );
        let rect = Rect {
            top: n("top") as u8,
            left: n("left") as u8,
            bottom: n("bottom") as u8,
            right: n("right") as u8,
        };
        let index = n("board") as usize;
        boards[index] = boards[index].try_play(rect).expect("a legal move");
        let total: Nimber = boards.iter().map(brute).sum();
        assert_eq!(u64::from(total.value()), n("grundy"));
    }
    assert!(
        boards.iter().all(|b| b.cells().is_empty()),
        "played to the end"
    );
    let loser = if play.len() % 2 == 0 {
        "First"
    } else {
        "Second"
    };
    assert!(text.contains(&format!("{loser} player cannot move and loses.")));

    // Split: each JSON move is the text's `plays (r,c)`, from 0.
    let grid = b"110\n011\n101\n";
    let text = run(&["split", "--play", "-"], grid);
    let as_json = json(&["split", "--json", "--play", "-"], grid);
    let play = as_json["play"].as_array().unwrap();
    let lines = play_lines(&text);
    assert_eq!(play.len(), lines.len(), "{text}");
    let mut position = Position::new(Grid::from_rows(&["110", "011", "101"]));
    let mut solver = SplitSolver::new();
    for (mv, line) in play.iter().zip(&lines) {
        let (row, col) = (mv["row"].as_u64().unwrap(), mv["col"].as_u64().unwrap());
        assert_eq!(line[..2], [row + 1, col + 1], "{mv} vs {line:?}");
        position = position
            .try_play(SplitCell::new(row as u32, col as u32))
            .expect("a legal move");
        assert_eq!(mv["grundy"], solver.value(&position).unwrap().value());
    }
    assert!(position.moves().next().is_none(), "played to the end");

    // Pawn: `moves (x,y) -> (x,y), leaving grundy G`, the same cells.
    let walls = [(1, 1), (4, 2)];
    let args = ["pawn", "-", "--at", "3,3", "--play"];
    let text = run(&args, b"1 1\n4 2\n");
    let as_json = json(&[&args[..], &["--json"]].concat(), b"1 1\n4 2\n");
    let play = as_json["play"].as_array().unwrap();
    let lines = play_lines(&text);
    assert_eq!(play.len(), lines.len(), "{text}");
    let blocked =
        Blocked::new(&[PawnCell::new(1, 1).unwrap(), PawnCell::new(4, 2).unwrap()]).unwrap();
    let outcomes = Outcomes::new(&blocked);
    let mut at = (3, 3);
    for (mv, line) in play.iter().zip(&lines) {
        let to = (mv["x"].as_u64().unwrap(), mv["y"].as_u64().unwrap());
        assert_eq!(mv["pawn"], 0);
        assert_eq!(
            line[..5],
            [at.0, at.1, to.0, to.1, mv["grundy"].as_u64().unwrap()]
        );
        assert!(outcomes.is_legal_move(
            PawnCell::new(at.0, at.1).unwrap(),
            PawnCell::new(to.0, to.1).unwrap()
        ));
        at = to;
        assert_eq!(mv["grundy"], pawn_value(&walls, at.0, at.1));
    }
    assert!(
        pawn_moves(&walls, at.0, at.1).is_empty(),
        "played to the end"
    );
}

#[test]
fn a_byte_order_mark_is_skipped_by_every_format() {
    let bom = |text: &str| [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
    for (args, text) in [
        (vec!["clear", "-"], "0110\n0001\n"),
        (vec!["split", "-"], "110\n011\n"),
        (vec!["split", "--cells", "-"], "3 3\n0 1\n2 2\n"),
        (
            vec!["split", "--map", "-"],
            "^^^^^\n^^^^^\n^^^^^\n^^^^^\n^^^^^\n",
        ),
        (vec!["pawn", "-", "--at", "3,3"], "1 1\n"),
    ] {
        assert_eq!(
            run(&args, &bom(text)),
            run(&args, text.as_bytes()),
            "{args:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("queries.txt");
    std::fs::write(&queries, bom("value 1 2\n")).unwrap();
    let queries = queries.display().to_string();
    assert_eq!(
        run(&["sum", "--queries", &queries, "-"], &bom("11\n\n1\n")),
        "3\n"
    );
    // Columns count from the first character after the mark.
    assert_input_error(
        grundy().args(["clear", "-"]).write_stdin(bom("01x\n")),
        "<stdin>",
        1,
        3,
        "unexpected 'x'",
    );
    // One mark, at the start: a second is an error at its place.
    for args in [vec!["clear", "-"], vec!["split", "-"]] {
        assert_input_error(
            grundy()
                .args(&args)
                .write_stdin(bom(&String::from_utf8(bom("1\n")).unwrap())),
            "<stdin>",
            1,
            1,
            "a second byte order mark",
        );
    }
    // The judges skip one mark themselves, so a second is the one byte their
    // format does not expect, worded alike whether the input is a file
    // (mapped) or a pipe.
    let dir = tempfile::tempdir().unwrap();
    let twice = dir.path().join("twice.in");
    std::fs::write(&twice, bom(&String::from_utf8(bom("1\n")).unwrap())).unwrap();
    let twice = twice.display().to_string();
    for problem in ["gfg", "pshtbrth", "gridgame", "caos3"] {
        for piped in [false, true] {
            let mut cmd = grundy();
            cmd.args(["judge", problem]);
            let name = if piped {
                cmd.write_stdin(std::fs::read(&twice).unwrap());
                "<stdin>"
            } else {
                cmd.arg(&twice);
                twice.as_str()
            };
            assert_input_error(&mut cmd, name, 1, 1, "unexpected byte-order mark U+FEFF");
        }
    }
}

#[test]
fn every_command_reads_a_positional_file_or_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let board = write("board.txt", "0110\n0001\n");
    let grid = write("grid.txt", "110\n011\n");
    let walls = write("walls.txt", "1 1\n");
    let queries = write("queries.txt", "value 1 1\n");
    for (args, stdin) in [
        (vec!["clear", &board], "0110\n0001\n"),
        (vec!["split", &grid], "110\n011\n"),
        (vec!["pawn", &walls, "--at", "3,3"], "1 1\n"),
        (vec!["sum", "--queries", &queries, &board], "0110\n0001\n"),
    ] {
        let file = if args[0] == "pawn" { 1 } else { args.len() - 1 };
        // The pawn's text names its file: the same otherwise.
        let from_file = run(&args, b"").replace(args[file], "<stdin>");
        let mut piped = args.clone();
        piped[file] = "-";
        assert_eq!(run(&piped, stdin.as_bytes()), from_file, "{args:?}");
    }
}

#[test]
fn no_format_has_comments() {
    // `#` is a one in a board, a wall in a map, and an error in a pawn file.
    assert!(run(&["clear", "-"], b"#.\n").contains("1 cell"));
    assert_input_error(
        grundy()
            .args(["pawn", "-", "--at", "3,3"])
            .write_stdin("1 1\n# walls\n"),
        "<stdin>",
        2,
        1,
        "no comments",
    );
}

#[test]
fn counts_are_plural_unless_one() {
    let one = run(&["clear", "-"], b"010\n000\n");
    assert!(one.contains("A  1 cell  grundy 1"), "{one}");
    let split = run(&["split", "--play", "-"], b"01\n00\n");
    assert!(split.contains("Grid (2 x 2), 1 candidate:"), "{split}");
    assert!(
        split.contains("split at (1,2), leaving grundy 0"),
        "{split}"
    );
    assert!(!split.contains("0 rectangles"), "{split}");
    assert_input_error(
        grundy().args(["clear", "-"]).write_stdin("011\n1\n"),
        "<stdin>",
        2,
        2,
        "ragged row: 1 cell, but the first row has 3",
    );
}

#[test]
fn a_budget_message_says_raise_once() {
    let output = grundy()
        .args(["clear", "--max-positions", "5", "-"])
        .write_stdin("11111111\n".repeat(8))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("raise").count(), 1, "{stderr}");
}

#[test]
fn help_says_what_grundy_alone_does_and_lists_the_games_first() {
    let help = run(&["--help"], b"");
    assert!(
        help.contains("With no command, grundy says so in a first line, then analyses a built-in"),
        "{help}"
    );
    let order: Vec<usize> = ["clear", "sum", "pawn", "split", "judge", "serve"]
        .iter()
        .map(|name| {
            help.find(&format!("\n  {name} "))
                .unwrap_or_else(|| panic!("{name} in {help}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{help}");
}

#[test]
fn play_needs_pawn_values_and_a_pawn() {
    for args in [
        vec!["pawn", "--at", "5000,1", "--play"],
        vec!["pawn", "--draw", "0,0,3,3", "--play"],
    ] {
        let output = grundy().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("--play needs"));
    }
}

/// The lines of `text` after `header` up to the first blank line.
fn section<'a>(text: &'a str, header: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|line| !line.starts_with(header))
        .skip(1)
        .take_while(|line| !line.is_empty())
        .collect()
}

/// The `text` of every move of `--json --play`'s `play`.
fn play_texts(value: &Value) -> Vec<String> {
    value["play"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

/// The play-out lines of a text play-out, without their `N. Player: `.
fn play_out_texts(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for (ply, line) in text
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()) && line.contains(". "))
        .enumerate()
    {
        let prefix = format!("{}. {}: ", ply + 1, grundy_report::words::player(ply));
        lines.push(
            line.strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("{line:?} starts with {prefix:?}"))
                .to_owned(),
        );
    }
    lines
}

/// Every game's `--json` gives each winning move the line its text report
/// lists it by (why it wins included), as the web API does: a clear sum, a
/// board past 64 cells, a split grid of 70 winning moves (past the 64 whose
/// parts are given, a line is the move alone), a sum of pawns.
#[test]
fn each_json_winning_move_carries_its_text_line() {
    let wide = format!("{}\n", "1".repeat(70));
    let large = format!("{}11\n", "0".repeat(68));
    let cases: [(&[&str], String); 5] = [
        (&["clear", "-"], "110\n011\n101\n\n11\n10\n".to_owned()),
        (&["clear", "-"], large),
        (&["split", "-"], "101\n000\n100\n".to_owned()),
        (&["split", "-"], wide),
        (
            &["pawn", "--at", "3,0", "--at", "1,1", "-"],
            "2 1\n".to_owned(),
        ),
    ];
    for (args, input) in cases {
        let text = run(args, input.as_bytes());
        let lines: Vec<&str> = section(&text, "Winning moves (")
            .into_iter()
            .map(str::trim)
            .filter(|line| !line.starts_with('('))
            .collect();
        assert!(!lines.is_empty(), "{args:?}: winning moves listed\n{text}");
        let json_args = [&args[..1], &["--json"], &args[1..]].concat();
        let report = json(&json_args, input.as_bytes());
        let texts: Vec<&str> = report["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().expect("a text"))
            .collect();
        assert_eq!(texts, lines, "{args:?}");
    }
}

/// Issue 24: one wording. The same move reads the same from `clear`, `sum`,
/// `--json --play`, the web API's move lists (`grundy_report`'s
/// `move_values`, which the server sends) and the play-outs; play-outs of
/// every game share their header and their last line.
#[test]
fn the_same_move_reads_the_same_from_every_command() {
    use grundy_report::words::PLAY_OUT_HEADER;
    // Clear, a sum of two boards.
    let input = b"110\n011\n\n11\n";
    let boards = [board(&["110", "011"]), board(&["11"])];
    let text = run(&["clear", "--play", "-"], input);
    let winning: Vec<&str> = section(&text, "Winning moves")
        .iter()
        .map(|line| line.trim().split(" (component").next().unwrap())
        .collect();
    assert!(!winning.is_empty(), "{text}");
    let mut solver = grundy::clear::Clear::solver();
    let listed = grundy_report::clear::move_values(&mut solver, &boards, usize::MAX).unwrap();
    let web_winning: Vec<&str> = listed
        .moves
        .iter()
        .filter(|m| m.grundy == 0)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(winning, web_winning, "{text}");
    let played = json(&["clear", "--json", "--play", "-"], input);
    assert_eq!(play_texts(&played), play_out_texts(&text), "{text}");
    assert_eq!(text.matches(PLAY_OUT_HEADER).count(), 1, "{text}");
    // `sum`'s winning move of the same two boards is one of clear's lines.
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("q.txt");
    std::fs::write(&queries, "move 1 2\n").unwrap();
    let queries = queries.display().to_string();
    let sum = run(&["sum", "--queries", &queries, "-"], input);
    let sum_move = sum.trim().split(" (board").next().unwrap();
    assert!(winning.contains(&sum_move), "{sum_move:?} in {winning:?}");
    // Its JSON `text` is its text line, why it wins included.
    let sum_json = json(&["sum", "--json", "--queries", &queries, "-"], input);
    assert_eq!(sum_json["move"]["text"], sum.trim());

    // Split.
    let grid_text = b"01100\n10010\n";
    let text = run(&["split", "--play", "-"], grid_text);
    let winning: Vec<&str> = section(&text, "Winning moves")
        .iter()
        .map(|line| line.trim().split(" (rectangles left").next().unwrap())
        .collect();
    let position = Position::new(Grid::from_rows(&["01100", "10010"]));
    let analysis = grundy_report::split::Analysis::of(&mut SplitSolver::new(), &position).unwrap();
    let web_winning: Vec<String> = analysis
        .move_values(usize::MAX)
        .moves
        .into_iter()
        .filter(|m| m.grundy == 0)
        .map(|m| m.text)
        .collect();
    assert_eq!(winning, web_winning, "{text}");
    let played = json(&["split", "--json", "--play", "-"], grid_text);
    assert_eq!(play_texts(&played), play_out_texts(&text), "{text}");
    assert_eq!(text.matches(PLAY_OUT_HEADER).count(), 1, "{text}");
    assert!(!text.contains("rectangles of grundy"), "{text}");

    // Pawn, two pawns.
    let args = ["pawn", "--at", "6,5", "--at", "2,3", "--play"];
    let text = run(&args, b"");
    let winning: Vec<&str> = section(&text, "Winning moves")
        .iter()
        .map(|line| line.trim().split(" (pawn ").next().unwrap())
        .collect();
    let pawns = [PawnCell::new(6, 5).unwrap(), PawnCell::new(2, 3).unwrap()];
    let blocked = Blocked::empty();
    let outcomes = Outcomes::new(&blocked);
    let analysis = grundy_report::pawn::Analysis::of(&blocked, &outcomes, &pawns).unwrap();
    let web_winning: Vec<String> = grundy_report::pawn::move_values(&analysis, &pawns, usize::MAX)
        .unwrap()
        .unwrap()
        .moves
        .into_iter()
        .filter(|m| m.grundy == 0)
        .map(|m| m.text)
        .collect();
    assert_eq!(winning, web_winning, "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let played = json(&json_args, b"");
    assert_eq!(play_texts(&played), play_out_texts(&text), "{text}");
    assert_eq!(text.matches(PLAY_OUT_HEADER).count(), 1, "{text}");
    // One pawn is not numbered.
    let one = run(&["pawn", "--at", "3,2"], b"");
    assert!(
        one.contains("  move pawn (3,2) -> (2,2), leaving grundy 0"),
        "{one}"
    );
}

/// Issue 24: text boards and grids carry 1-based row and column labels,
/// as the page does.
#[test]
fn text_boards_have_row_and_column_labels() {
    let text = run(&["clear", "-"], b"011\n000\n");
    assert!(
        text.contains("Board (2 x 3), components lettered:\n    1 2 3\n  1 . A A\n  2 . . .\n"),
        "{text}"
    );
    let text = run(&["split", "-"], b"0100000000\n0000000000\n");
    assert!(
        text.contains(
            "     1  2  3  4  5  6  7  8  9 10\n  1  .  1  .  .  .  .  .  .  .  .\n  2  .  .  .  .  .  .  .  .  .  .\n"
        ),
        "{text}"
    );
    // The labels name the cells the moves name: the candidate at row 1,
    // column 2 is (1,2).
    assert!(text.contains("split at (1,2)"), "{text}");
}

/// Issue 24: help texts say where tables are, each judge's format, the
/// pawn's `--blocked`, and that `judge` takes a FILE.
#[test]
fn help_names_the_tables_directory_formats_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let output = grundy()
        .args(["tables", "--help"])
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .unwrap();
    assert_success(&output);
    let help = String::from_utf8(output.stdout).unwrap();
    let expected = dir.path().join("grundy").join("tables");
    assert!(help.contains(&expected.display().to_string()), "{help}");
    assert!(help.contains("~/.local/share/grundy/tables"), "{help}");
    let clear = run(&["clear", "--help"], b"");
    assert!(clear.contains("see `grundy tables --help`"), "{clear}");
    for (problem, words) in [
        ("gfg", "Output: A when the first player wins, else B."),
        ("pshtbrth", "Pishty when the first player wins, else Lotsy."),
        ("gridgame", "Alice when the first player wins, else Bob."),
        ("caos3", "Asuna when the first player wins, else Kirito."),
    ] {
        let help = run(&["judge", problem, "--help"], b"");
        assert!(help.contains("Input:"), "{problem}: {help}");
        assert!(help.contains(words), "{problem}: {help}");
        assert!(help.contains("[FILE]"), "{problem}: {help}");
    }
    let pawn = run(&["pawn", "--help"], b"");
    assert!(pawn.contains("--blocked <FILE>"), "{pawn}");
    let top = run(&["--help"], b"");
    let judge_line = top
        .lines()
        .find(|line| line.trim_start().starts_with("judge "))
        .unwrap();
    assert!(judge_line.contains("FILE"), "{judge_line}");
}

/// Issue 24: a position without moves says so, in every game.
#[test]
fn a_position_without_moves_says_there_are_none() {
    let no_moves = grundy_report::words::NO_MOVES;
    for (args, stdin) in [
        (vec!["clear", "-"], &b"00\n00\n"[..]),
        (vec!["split", "-"], &b"000\n000\n"[..]),
        (vec!["pawn", "--at", "0,0"], &b""[..]),
    ] {
        let text = run(&args, stdin);
        assert!(text.contains(no_moves), "{args:?}: {text}");
        assert!(text.contains("Second player wins."), "{args:?}: {text}");
        assert!(!text.contains("No winning moves"), "{args:?}: {text}");
    }
    // With moves but none winning, the other sentence.
    let text = run(&["clear", "-"], b"11\n");
    assert!(text.contains("clear (1,1)-(1,2)"), "{text}");
    let text = run(&["clear", "-"], b"1\n\n1\n");
    assert!(text.contains("No winning moves"), "{text}");
    // `--move --json` without a move has the keys of one with a move, in
    // the same order.
    let keys = |json: &str| -> Vec<String> {
        json.trim()
            .trim_start_matches('{')
            .split(',')
            .filter_map(|field| field.split_once("\":"))
            .filter_map(|(key, _)| key.rsplit('"').next().map(str::to_owned))
            .filter(|key| ["move", "proven", "kind", "reason", "text"].contains(&key.as_str()))
            .collect()
    };
    let none = run(&["clear", "--move", "--json", "-"], b"00\n");
    let some = run(&["clear", "--move", "--json", "-"], b"10\n");
    assert_eq!(keys(&none), keys(&some), "{none} {some}");
}

/// Issue 24: sizes and counts in proper English, from one helper.
#[test]
fn sizes_take_the_right_article_and_counts_their_plural() {
    let output = grundy()
        .args(["pawn", "--draw", "0,0,800,3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("an 801 x 4 region"), "{stderr}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.gdb");
    let output = grundy()
        .args(["tables", "build", "--box", "1x2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&output);
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(text.contains(" 1 shape in"), "{text}");
    assert!(!text.contains(" 1 shapes"), "{text}");
    assert!(text.contains("2 shapes of the 1x2 box"), "{text}");
}

/// Issue 24: standard input from a terminal gets a hint on stderr instead
/// of a silent wait. `script` (util-linux) runs the command on a
/// pseudo-terminal whose input ends at once; a pipe gets no hint.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_on_standard_input_gets_a_hint() {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let output = std::process::Command::new("script")
        .args(["-qec", &format!("{} clear", bin.display()), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs the command on a terminal");
    let seen = String::from_utf8_lossy(&output.stdout);
    assert!(
        seen.contains("reading standard input from the terminal"),
        "{seen}"
    );
    assert!(seen.contains("Ctrl-D"), "{seen}");
    let piped = grundy()
        .args(["clear", "-"])
        .write_stdin("1\n")
        .output()
        .unwrap();
    assert_success(&piped);
    assert!(String::from_utf8_lossy(&piped.stderr).is_empty());
}

/// Issue 24: the search spinner (on a terminal) shows the budget it stops
/// at. A full 7 x 7 board is not answered by the built-in database, so the
/// search runs until `--max-time`.
#[cfg(target_os = "linux")]
#[test]
fn the_clear_spinner_shows_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("full7.txt");
    std::fs::write(&board, "1111111\n".repeat(7)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let command = format!(
        "{} clear --max-time 1 --max-positions 1000000000 {}",
        bin.display(),
        board.display()
    );
    let output = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs the command on a terminal");
    let seen = String::from_utf8_lossy(&output.stdout);
    assert!(
        seen.contains("of at most 1000000000 positions solved"),
        "{seen}"
    );
    assert!(seen.contains("stops after 1 s"), "{seen}");
}

/// Standard output on a full disk (Linux's `/dev/full`): every command that
/// writes there says so, naming standard output, and exits 4 as a full disk
/// does for a file; none panics.
#[test]
fn a_full_standard_output_is_exit_4_in_every_command() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let board = "0110\n0000\n";
    let sample = crate::common::data("pshtbrth.in").display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("queries.txt");
    std::fs::write(&queries, "value 1 2\nmove 1 2\n").unwrap();
    let queries = queries.display().to_string();
    let cases: &[(&[&str], &str)] = &[
        (&[], ""),
        (&["--help"], ""),
        (&["--version"], ""),
        (&["clear", "--help"], ""),
        (&["help", "tables"], ""),
        (&["clear", "-"], board),
        (&["clear", "--json", "--play", "-"], board),
        (&["clear", "--move", "-"], board),
        (&["clear", "--explain", "-"], board),
        (&["split", "-"], "1101\n0110\n"),
        (&["split", "--move", "-"], "1101\n0110\n"),
        (&["pawn", "--at", "3,4"], ""),
        (&["pawn", "--move", "--at", "3,4"], ""),
        (&["judge", "pshtbrth", &sample], ""),
        (&["sum", "--queries", &queries, "-"], "0110\n0000\n\n11\n"),
    ];
    for (args, stdin) in cases {
        let input = dir.path().join("stdin.txt");
        std::fs::write(&input, stdin).unwrap();
        // assert_cmd captures standard output; this one must be the device.
        let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
            .args(*args)
            .stdin(std::fs::File::open(&input).unwrap())
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(4), "{args:?}: {stderr}");
        assert!(stderr.contains("standard output"), "{args:?}: {stderr}");
    }
}

/// Every game's `--move --json` carries the value its move leaves the whole
/// position (`grundy`): 0 after a proven winning move, the brute force's
/// value of the position after a losing one.
#[test]
fn engine_moves_carry_the_value_they_leave() {
    // Rectangle clearing: sums of two boards, won and lost.
    let boards: [&[&str]; 5] = [&["1"], &["11"], &["11", "10"], &["111"], &["11", "11"]];
    for first in boards {
        for second in boards {
            let stdin = format!("{}\n\n{}\n", first.join("\n"), second.join("\n"));
            let answer = json(&["clear", "--move", "--json", "-"], stdin.as_bytes());
            let mv = &answer["move"];
            let index = mv["board"].as_u64().unwrap() as usize;
            let corner = |key: &str| mv[key].as_u64().unwrap() as u8;
            let rect = Rect {
                top: corner("top"),
                left: corner("left"),
                bottom: corner("bottom"),
                right: corner("right"),
            };
            let mut after = [board(first), board(second)];
            after[index] = after[index].try_play(rect).unwrap();
            let left = brute(&after[0]) ^ brute(&after[1]);
            let expected = match answer["kind"].as_str().unwrap() {
                "winning" => 0,
                "losing" => left.value(),
                kind => panic!("{kind}: {answer}"),
            };
            assert_eq!(left.value(), expected, "{stdin}: {answer}");
            assert_eq!(answer["grundy"], expected, "{stdin}: {answer}");
        }
    }
    // The pawn: a lost sum of two pawns, and a won one.
    for (pawns, lost) in [(["2,2", "2,2"], true), (["2,2", "1,2"], false)] {
        let args = [
            "pawn", "--move", "--json", "--at", pawns[0], "--at", pawns[1],
        ];
        let answer = json(&args, b"");
        assert_eq!(
            answer["kind"],
            if lost { "losing" } else { "winning" },
            "{answer}"
        );
        let mut at: Vec<(u64, u64)> = pawns
            .iter()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let mv = &answer["move"];
        at[mv["pawn"].as_u64().unwrap() as usize] =
            (mv["x"].as_u64().unwrap(), mv["y"].as_u64().unwrap());
        let left = at.iter().fold(0, |a, &(x, y)| a ^ pawn_value(&[], x, y));
        assert_eq!(answer["grundy"], left, "{answer}");
    }
    // The splitting game: the engine's solver values the grid after the
    // move (it is checked against brute force in the engine's tests).
    for (rows, lost) in [(&["001", "100"][..], true), (&["1"][..], false)] {
        let grid = rows.join("\n") + "\n";
        let answer = json(&["split", "--move", "--json", "-"], grid.as_bytes());
        assert_eq!(
            answer["kind"],
            if lost { "losing" } else { "winning" },
            "{answer}"
        );
        let cell = SplitCell::new(
            answer["move"]["row"].as_u64().unwrap() as u32,
            answer["move"]["col"].as_u64().unwrap() as u32,
        );
        let after = Position::new(Grid::from_rows(rows)).try_play(cell).unwrap();
        let left = SplitSolver::new().value(&after).unwrap();
        assert_eq!(answer["grundy"], left.value(), "{answer}");
    }
    // No move: the position's value is 0 by definition (no option), as the
    // API says it; the field is there in every game.
    for (args, stdin) in [
        (&["clear", "--move", "--json", "-"][..], "00\n"),
        (&["split", "--move", "--json", "-"][..], "00\n"),
        (&["pawn", "--move", "--json", "--at", "0,0"][..], ""),
    ] {
        let answer = json(args, stdin.as_bytes());
        assert_eq!(answer["kind"], "none", "{args:?}: {answer}");
        assert_eq!(answer["grundy"], 0, "{args:?}: {answer}");
        assert_eq!(answer["reason"], grundy_report::words::NO_MOVES, "{answer}");
    }
    // `sum`'s `move` query on a range without a move reads the same, with
    // the range.
    let dir = tempfile::tempdir().unwrap();
    let queries = dir.path().join("q.txt");
    std::fs::write(&queries, "move 1 1\n").unwrap();
    let answer = json(
        &["sum", "--json", "--queries", queries.to_str().unwrap(), "-"],
        b"000\n\n111\n",
    );
    assert_eq!(answer["query"], "move", "{answer}");
    assert_eq!(answer["move"], Value::Null, "{answer}");
    assert_eq!(answer["kind"], "none", "{answer}");
    assert_eq!(answer["proven"], true, "{answer}");
    assert_eq!(answer["grundy"], 0, "{answer}");
    assert_eq!(answer["reason"], grundy_report::words::NO_MOVES, "{answer}");
    // An unproven move: its value is unknown, so `null`, never a missing
    // field. A dense 9 x 9 board of one component (73 cells, no symmetry)
    // under a budget of one position.
    let dense = [
        "111111110",
        "111011111",
        "110111111",
        "111111011",
        "011111111",
        "111110111",
        "111111111",
        "101111111",
        "111111101",
    ]
    .join("\n");
    let answer = json(
        &["clear", "--move", "--json", "--max-positions", "1", "-"],
        dense.as_bytes(),
    );
    assert_eq!(answer["kind"], "unproven", "{answer}");
    assert!(
        answer.get("grundy").is_some_and(serde_json::Value::is_null),
        "{answer}"
    );
}
