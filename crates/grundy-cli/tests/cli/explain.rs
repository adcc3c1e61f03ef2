//! `--explain` of `grundy clear`, `grundy pawn` and `grundy split`: the
//! value as the XOR of the parts' values, each winning move's arithmetic
//! and each part's mex, checked against the same command's `--json` (the
//! values) and against the theory (the parts XOR to the total, each winning
//! move's XOR is 0, each mex is its part's value).

use serde_json::Value;

use crate::common::{assert_success, data, grundy};

fn run(args: &[&str], stdin: &str) -> String {
    let output = grundy().args(args).write_stdin(stdin).output().unwrap();
    assert_success(&output);
    String::from_utf8(output.stdout).unwrap()
}

fn json(args: &[&str], stdin: &str) -> Value {
    serde_json::from_str(&run(args, stdin)).expect("valid JSON")
}

/// The explanation's lines: from its header to the end.
fn explanation(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("Why, in Sprague-Grundy terms: "))
        .unwrap_or_else(|| panic!("no explanation in {out}"));
    lines[start..].to_vec()
}

/// The winning-move lines (`<move>: <part>: <before> -> <after>, so ... =
/// 0`) and the mex lines (`<part>: its N moves leave ..., so <part> = mex
/// = <v>.`), checked against the theory; returns the mex per part.
fn check_theory(lines: &[&str], winning: usize) -> Vec<(String, u32)> {
    let arithmetic: Vec<&&str> = lines.iter().filter(|l| l.contains(" -> ")).collect();
    assert_eq!(arithmetic.len(), winning, "{lines:#?}");
    for line in &arithmetic {
        // Several parts: the XOR after the move is written out and is 0.
        if let Some((_, sum)) = line.split_once(", so ") {
            let (terms, result) = sum.split_once(" = ").unwrap();
            let result: u32 = result
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let xor = terms
                .split(" xor ")
                .map(|t| t.trim().parse::<u32>().unwrap())
                .fold(0, |a, b| a ^ b);
            assert_eq!((xor, result), (0, 0), "{line}");
        }
    }
    lines
        .iter()
        .filter_map(|l| {
            let (part, rest) = l.trim().split_once(": its ")?;
            let rest = rest.replacen(" leaves ", " leave ", 1);
            let mex = rest.rsplit_once("= mex = ")?.1.trim_end_matches('.');
            // The first value marked missing is the mex.
            let missing = rest.split_once('[')?.1.split(' ').next()?;
            assert_eq!(missing, mex, "{l}");
            Some((part.to_owned(), mex.parse().unwrap()))
        })
        .collect()
}

#[test]
fn clear_explains_the_value_the_winning_moves_and_each_mex() {
    let board = std::fs::read_to_string(data("gfg1.in")).unwrap();
    // Two boards: a sum, parts named by board and letter.
    let input = "0110\n0000\n0000\n0001\n\n111\n111\n".to_owned();
    for input in [board.as_str(), input.as_str()] {
        let report = json(&["clear", "--json", "-"], input);
        let out = run(&["clear", "--explain", "-"], input);
        let lines = explanation(&out);
        let total = report["grundy"].as_u64().unwrap() as u32;
        let first = if total == 0 { "Second" } else { "First" };
        assert_eq!(
            lines[0],
            format!("Why, in Sprague-Grundy terms: {first} player wins with best play.")
        );
        let several = report["boards"].as_array().unwrap().len() > 1;
        let mut parts = Vec::new();
        for (b, board) in report["boards"].as_array().unwrap().iter().enumerate() {
            for (c, comp) in board["components"].as_array().unwrap().iter().enumerate() {
                let letter = (b'A' + c as u8) as char;
                let name = if several {
                    format!("{}{letter}", b + 1)
                } else {
                    letter.to_string()
                };
                parts.push((name, comp["grundy"].as_u64().unwrap() as u32));
            }
        }
        let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
        let values: Vec<String> = parts.iter().map(|(_, v)| v.to_string()).collect();
        assert_eq!(
            parts.iter().fold(0, |a, (_, v)| a ^ v),
            total,
            "the parts XOR to the total"
        );
        // A sum says how its parts are named before it uses the names.
        let legend = if several {
            "Each component is named by its board and its letter (1A: component A of board 1). "
        } else {
            ""
        };
        let value_line = format!(
            "  {legend}Grundy value {total} = {} = {}.",
            names.join(" xor "),
            values.join(" xor ")
        );
        assert!(
            lines[1].starts_with(&value_line),
            "{} vs {value_line}",
            lines[1]
        );
        let winning = report["winning_moves"].as_array().unwrap().len();
        let mex = check_theory(&lines, winning);
        assert_eq!(mex, parts, "each component's mex is its value");
    }
}

#[test]
fn clear_explains_the_seed_example_in_words() {
    let out = run(
        &["clear", "--explain", &data("gfg1.in").display().to_string()],
        "",
    );
    assert!(
        out.contains("    clear (1,2)-(1,2): A: 2 -> 1, so 1 xor 1 = 0\n"),
        "{out}"
    );
    assert!(
        out.contains("A: its 3 moves leave 0, 1, 1, [2 missing], so A = mex = 2."),
        "{out}"
    );
    // The values a component's moves leave are the component's, not the
    // position's (a winning move "leaves grundy 0", the whole position);
    // the header names the parts in the game's words.
    assert!(
        out.contains("Each component's value is the mex (least value missing) of the values its moves leave it, the component alone:"),
        "{out}"
    );
}

/// `--explain --json` gives the explanation as the object's `explain`
/// field, the same words as the text's lines, in every game.
#[test]
fn explain_with_json_is_the_explain_field() {
    let cases: [(&[&str], &str); 3] = [
        (&["clear"], "0110\n0000\n0001\n"),
        (&["split"], "0110\n1001\n"),
        (&["pawn", "-", "--at", "4,3", "--at", "2,2"], "1 1\n3 0\n"),
    ];
    for (args, input) in cases {
        let text_args: Vec<&str> = if args[0] == "pawn" {
            [args, &["--explain"]].concat()
        } else {
            [args, &["--explain", "-"]].concat()
        };
        let text = run(&text_args, input);
        let json_args: Vec<&str> = [&text_args[..], &["--json"]].concat();
        let json = json(&json_args, input);
        let explain = &json["explain"];
        let value = explain["value"].as_str().unwrap();
        assert!(text.contains(&format!("  {value}\n")), "{text}\n{json}");
        for line in explain["winning"].as_array().unwrap() {
            assert!(text.contains(line.as_str().unwrap()), "{text}\n{json}");
        }
        for mex in explain["mex"].as_array().unwrap() {
            assert!(
                text.contains(mex["text"].as_str().unwrap()),
                "{text}\n{json}"
            );
        }
    }
}

#[test]
fn pawn_explains_losing_cells_and_the_sum() {
    let walls = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(walls.path(), "1 1\n4 2\n").unwrap();
    let path = walls.path().display().to_string();
    // One pawn: losing cells.
    let report = json(&["pawn", &path, "--at", "6,5", "--json"], "");
    let out = run(&["pawn", &path, "--at", "6,5", "--explain"], "");
    let lines = explanation(&out);
    assert!(lines[1].contains("(6,5) is a "), "{out}");
    assert!(lines[1].contains(
        "a losing cell is one of value 0; losing cells are found from the corner up: a cell with \
         no move is losing, and a cell is losing when no move from it reaches a losing cell"
    ));
    let winning = report["winning_moves"].as_array().unwrap().len();
    let mex = check_theory(&lines, winning);
    let value = report["pawns"][0]["grundy"].as_u64().unwrap() as u32;
    assert_eq!(mex, [("the pawn".to_owned(), value)]);
    assert!(out.contains("  Each pawn's value is the mex"), "{out}");
    for line in lines.iter().filter(|l| l.contains(" -> ")) {
        assert!(line.ends_with(" is a losing cell"), "{line}");
        assert!(!line.contains("(("), "{line}");
    }
    // Two pawns: a sum.
    let args = ["pawn", &path, "--at", "6,5", "--at", "3,3"];
    let report = json(&[&args[..], &["--json"]].concat(), "");
    let out = run(&[&args[..], &["--explain"]].concat(), "");
    let lines = explanation(&out);
    let values: Vec<u32> = report["pawns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["grundy"].as_u64().unwrap() as u32)
        .collect();
    let total = report["grundy"].as_u64().unwrap() as u32;
    assert_eq!(values[0] ^ values[1], total);
    assert!(
        lines[1].starts_with(&format!(
            "  Grundy value {total} = pawn 1 xor pawn 2 = {} xor {}.",
            values[0], values[1]
        )),
        "{out}"
    );
    let mex = check_theory(&lines, report["winning_moves"].as_array().unwrap().len());
    assert_eq!(
        mex,
        [
            ("pawn 1".to_owned(), values[0]),
            ("pawn 2".to_owned(), values[1])
        ]
    );
    // The report names the pawn a winning move changes, as the sum does.
    for (k, mv) in report["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let pawn = mv["pawn"].as_u64().unwrap() + 1;
        let line = out
            .lines()
            .filter(|l| l.starts_with("  move pawn "))
            .nth(k)
            .unwrap();
        assert!(line.contains(&format!("(pawn {pawn}: grundy ")), "{line}");
    }
    // A sum settled without values (a pawn past the values, the others
    // dropping out): the explanation names each pawn, and each move's pawn
    // as the winning moves do. Exit 3: the dropped pawns' moves are not
    // examined, so the list may be incomplete.
    let output = grundy()
        .args([
            "pawn",
            &path,
            "--at",
            "5000,6000",
            "--at",
            "3,3",
            "--explain",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    let out = String::from_utf8(output.stdout).unwrap();
    let lines = explanation(&out);
    assert!(
        lines[1].starts_with(
            "  pawn 1 at (5000,6000) is a winning cell: a move from it reaches a losing cell; \
             pawn 2 at (3,3) is a losing cell, value 0, so it drops out of the sum ("
        ),
        "{out}"
    );
    let listed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("  move pawn "))
        .map(|l| l.split(", leaving").next().unwrap())
        .collect();
    let explained: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.trim().strip_prefix("move pawn "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert!(!listed.is_empty(), "{out}");
    assert_eq!(listed, explained, "{out}");
    // A pawn with no move is lost because it has none.
    let out = run(&["pawn", "--at", "0,0", "--explain"], "");
    let lines = explanation(&out);
    assert!(lines[1].contains("It is 0: there is no move"), "{out}");
}

#[test]
fn split_explains_the_rectangles_and_each_mex() {
    let grid = "01100\n10010\n00100\n11001\n00110\n";
    let report = json(&["split", "--json", "-"], grid);
    let out = run(&["split", "--explain", "-"], grid);
    let lines = explanation(&out);
    let total = report["grundy"].as_u64().unwrap() as u32;
    assert!(
        lines[1].starts_with(&format!(
            "  Grundy value {total} = (1,1)-(5,5), the only part."
        )),
        "{out}"
    );
    let winning = report["winning_moves"].as_array().unwrap().len();
    let mex = check_theory(&lines, winning);
    assert_eq!(mex, [("(1,1)-(5,5)".to_owned(), total)]);
    assert!(out.contains("  Each rectangle's value is the mex"), "{out}");
    for line in lines.iter().filter(|l| l.contains(" -> ")) {
        assert!(line.trim_start().starts_with("split at ("), "{line}");
        assert!(line.contains(" -> 0 (it leaves "), "{line}");
    }
}

/// A pawn with no move is a losing cell because it has no move, said so
/// rather than by the rule for cells with moves (the origin has none by
/// the game's rule, and a pawn walled in at (1,0) has none either).
#[test]
fn a_pawn_without_a_move_is_said_to_have_none() {
    let out = run(&["pawn", "--at", "0,0", "--explain"], "");
    assert!(
        out.contains("(0,0) is a losing cell: it has no move"),
        "{out}"
    );
    assert!(
        !out.contains("losing cell: no move from it reaches"),
        "{out}"
    );
    let walls = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(walls.path(), "0 0\n").unwrap();
    let path = walls.path().display().to_string();
    let out = run(&["pawn", &path, "--at", "1,0", "--explain"], "");
    assert!(
        out.contains("(1,0) is a losing cell: it has no move"),
        "{out}"
    );
    // A pawn with a move keeps the rule's wording.
    let out = run(&["pawn", "--at", "0,2", "--explain"], "");
    assert!(
        out.contains("(0,2) is a winning cell: a move from it reaches a losing cell"),
        "{out}"
    );
}
