//! The one parser of clear boards, `grundy_report::parse::clear` (the
//! command line's and the web server's): `parse_boards` errors are located;
//! what is accepted is boards of at most 64 cells that, printed as rows of
//! `0`/`1` by `board_rows` and parsed again, come back the same; and
//! `parse_large_boards` (boards of any size, under a memory budget) the
//! same, with `large_board_rows`, agreeing with `parse_boards` on boards it
//! also takes. `parse_board_rows` (the JSON form) on the input's lines
//! locates its errors the same way, and what it accepts `parse_boards`
//! reads as that one board.
#![no_main]

use grundy::clear::Board;
use grundy_fuzz::check_error;
use grundy_report::parse::clear::{
    board_rows, large_board_rows, parse_board_rows, parse_boards, parse_large_boards,
};
use libfuzzer_sys::fuzz_target;

/// The boards as the format's one writer writes them, a blank line after
/// each.
fn render(rows_of_boards: impl Iterator<Item = Vec<String>>) -> String {
    let mut text = String::new();
    for rows in rows_of_boards {
        for row in rows {
            text.push_str(&row);
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

/// The input's lines as rows (a final line end opens no row).
fn rows(text: &str) -> Vec<&str> {
    let mut rows: Vec<&str> = text.split('\n').collect();
    if rows.last() == Some(&"") {
        rows.pop();
    }
    rows
}

fuzz_target!(|input: &[u8]| {
    if let Ok(text) = std::str::from_utf8(input) {
        match parse_board_rows(&rows(text)) {
            Err(err) => check_error(input, &err),
            Ok(board) => {
                let parsed = parse_boards(input).expect("rows accepted as a board");
                assert_eq!(parsed.len(), 1, "rows are one board");
                assert_eq!(parsed[0].board, board, "rows and text agree");
            }
        }
    }
    match parse_boards(input) {
        Err(err) => check_error(input, &err),
        Ok(parsed) => {
            assert!(!parsed.is_empty(), "Ok with no board");
            let lines = input.split(|&b| b == b'\n').count();
            let mut last_line = 0;
            for p in &parsed {
                assert!(p.board.rows() * p.board.cols() <= 64);
                assert!(p.board.rows() >= 1 && p.board.cols() >= 1);
                assert!(
                    p.line > last_line && p.line <= lines,
                    "board line {}",
                    p.line
                );
                last_line = p.line;
            }
            let boards: Vec<Board> = parsed.iter().map(|p| p.board).collect();
            let again: Vec<Board> = parse_boards(render(boards.iter().map(board_rows)).as_bytes())
                .expect("a rendered board parses")
                .iter()
                .map(|p| p.board)
                .collect();
            assert_eq!(again, boards, "round trip");
        }
    }
    // A budget of 64 MB keeps the fuzzer's boards small.
    match parse_large_boards(input, Some(64 << 20)) {
        Err(err) => check_error(input, &err),
        Ok(parsed) => {
            let text = render(parsed.iter().map(|p| large_board_rows(&p.board)));
            let again = parse_large_boards(text.as_bytes(), None).expect("written boards parse");
            assert_eq!(again.len(), parsed.len());
            for (a, b) in again.iter().zip(&parsed) {
                assert_eq!(a.board, b.board, "round trip");
            }
            if let Ok(small) = parse_boards(input) {
                for (s, l) in small.iter().zip(&parsed) {
                    assert_eq!(Some(s.board), l.board.to_board(), "small and large agree");
                }
            }
        }
    }
});
