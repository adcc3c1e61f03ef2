//! `boards::parse_boards`: errors are located; what is accepted is boards of
//! at most 64 cells that, printed as rows of `0`/`1` and parsed again, come
//! back the same.
#![no_main]

use grundy::clear::Board;
use grundy_cli::boards::parse_boards;
use grundy_fuzz::check_error;
use libfuzzer_sys::fuzz_target;

fn render(boards: &[Board]) -> String {
    let mut text = String::new();
    for board in boards {
        for row in 0..board.rows() {
            for col in 0..board.cols() {
                text.push(if board.get(row, col) { '1' } else { '0' });
            }
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

fuzz_target!(|input: &[u8]| {
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
            let again: Vec<Board> = parse_boards(render(&boards).as_bytes())
                .expect("a rendered board parses")
                .iter()
                .map(|p| p.board)
                .collect();
            assert_eq!(again, boards, "round trip");
        }
    }
});
