//! Judge format `gfg`: one 4 x 4 rectangle-clearing board, 4 lines of 4
//! digits `0`/`1` separated by whitespace. Prints `A` when the first player
//! wins, else `B`.

use crate::input::{ParseError, ParseErrorKind, Scanner};

/// Answers one board.
///
/// # Errors
///
/// A missing cell, a cell other than `0`/`1`, or trailing input.
pub fn run(input: &[u8], out: &mut Vec<u8>) -> Result<(), ParseError> {
    let mut scanner = Scanner::new(input);
    let mut cells = 0u64;
    for index in 0..16 {
        match scanner.peek_token() {
            Some(b @ (b'0' | b'1')) => {
                cells |= u64::from(b - b'0') << index;
                scanner.bump();
            }
            _ => return Err(scanner.expected("a cell 0 or 1")),
        }
    }
    if !scanner.at_end() {
        return Err(scanner.error(ParseErrorKind::Invalid(
            "trailing input after the 4 x 4 board".into(),
        )));
    }
    let board = grundy::clear::Board::new(4, 4, cells).expect("4 x 4 fits");
    let winner = if grundy::clear::value4x4(board.cells().0).is_zero() {
        "B"
    } else {
        "A"
    };
    out.extend_from_slice(winner.as_bytes());
    out.push(b'\n');
    Ok(())
}
