//! Judge format `gfg`: one 4 x 4 rectangle-clearing board, 16 cells `0`/`1`
//! separated by whitespace (4 lines of 4 in the problem). Each cell is its
//! own token (see [`crate::judge`]): `1 1 11` is an error, not four cells.
//! Prints `A` when the first player wins, else `B`.

use std::io::Write;

use super::{answering, skip_bom, JudgeError};
use grundy_report::parse::{Found, ParseError, ParseErrorKind, Scanner};

/// Answers one board.
///
/// # Errors
///
/// A missing cell, a cell other than `0`/`1`, trailing input, or a failed
/// write.
pub fn run(input: &[u8], out: impl Write) -> Result<(), JudgeError> {
    answering(out, |answers| {
        let winner = winner(skip_bom(input))?;
        answers.push(winner)?;
        Ok(())
    })
}

fn winner(input: &[u8]) -> Result<&'static [u8], ParseError> {
    let mut scanner = Scanner::new(input);
    let mut cells = 0u64;
    for index in 0..16 {
        let start = match scanner.peek_token() {
            Some(b'0' | b'1') => scanner.position(),
            _ => return Err(scanner.expected("a cell 0 or 1")),
        };
        let token = scanner.token().expect("peeked");
        if token.len() > 1 {
            return Err(scanner.error_at(
                start + 1,
                ParseErrorKind::UnexpectedChar {
                    found: Found::at(input, start + 1),
                    expected: "whitespace: a cell is one character 0 or 1".into(),
                },
            ));
        }
        cells |= u64::from(token[0] - b'0') << index;
    }
    if !scanner.at_end() {
        return Err(scanner.error(ParseErrorKind::Invalid(
            "trailing input after the 4 x 4 board".into(),
        )));
    }
    let board = grundy::clear::Board::new(4, 4, cells).expect("4 x 4 fits");
    Ok(if grundy::clear::value4x4(board.cells().0).is_zero() {
        b"B\n"
    } else {
        b"A\n"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(input: &[u8]) -> Result<String, ParseError> {
        let mut out = Vec::new();
        let result = run(input, &mut out);
        match result {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(err) => {
                assert!(out.is_empty(), "an answer before an error");
                Err(err.input().expect("a parse error").clone())
            }
        }
    }

    #[test]
    fn every_cell_is_one_token() {
        // The sample board: any whitespace between cells, a BOM, CRLF.
        let sample = "1 0 0 1\n0 1 1 0\n0 1 1 0\n1 0 0 1\n";
        let answer = judge(sample.as_bytes()).unwrap();
        let squeezed = format!(
            "\u{FEFF}{}",
            sample.replace('\n', "\r\n").replace(' ', "\t")
        );
        assert_eq!(judge(squeezed.as_bytes()).unwrap(), answer);
        // `11` is not two cells.
        let err = judge(b"1 1 11 0 0 0 0 0 0 0 0 0 0 0 0 0\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "1:6: unexpected '1', expected whitespace: a cell is one character 0 or 1"
        );
        let err = judge(b"\xEF\xBB\xBF1 2").unwrap_err();
        assert_eq!(
            err.to_string(),
            "1:3: unexpected '2', expected a cell 0 or 1"
        );
        let err = judge(b"1 0").unwrap_err();
        assert!(err.to_string().contains("unexpected end of input"), "{err}");
        let err = judge(format!("{sample}0").as_bytes()).unwrap_err();
        assert_eq!(err.to_string(), "5:1: trailing input after the 4 x 4 board");
    }
}
