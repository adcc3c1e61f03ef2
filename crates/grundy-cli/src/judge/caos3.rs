//! Judge format `caos3`: `T` (1..=10) tests, each `R C` (1..=20 each) then
//! `R` rows of `C` characters, `^` (open) or `#` (wall). The candidates are
//! the `^` cells whose four arms of contiguous `^` cells (left, right, up,
//! down, not counting the cell) are all at least 2 long; walls play no other
//! part. Prints `Asuna` when the first player wins, else `Kirito`, per test.

use std::io::Write;

use grundy::split::{Grid, Position, SplitSolver};

use super::{answering, skip_bom, Answers, JudgeError};
use grundy_report::parse::{Found, ParseErrorKind, Scanner};

/// The most rows or columns of a test.
pub const MAX_SIDE: usize = 20;

/// The most tests of an input.
pub const MAX_TESTS: usize = 10;

/// Answers every test; answers before a parse error are written first.
///
/// # Errors
///
/// A count out of range, a row of the wrong length, a character other
/// than `^`/`#`, a missing row, trailing input, or a failed write.
pub fn run(input: &[u8], out: impl Write) -> Result<(), JudgeError> {
    answering(out, |answers| answer(skip_bom(input), answers))
}

fn answer<W: Write>(input: &[u8], answers: &mut Answers<W>) -> Result<(), JudgeError> {
    let mut scanner = Scanner::new(input);
    let tests = scanner.usize_in("the number of tests T", 1, MAX_TESTS)?;
    // One solver for all tests: equal candidate patterns are solved once.
    let mut solver = SplitSolver::new();
    for _ in 0..tests {
        let rows = scanner.usize_in("the number of rows R", 1, MAX_SIDE)?;
        let cols = scanner.usize_in("the number of columns C", 1, MAX_SIDE)?;
        let mut map = vec![vec![false; cols]; rows];
        for row in map.iter_mut() {
            let start = match scanner.peek_token() {
                Some(_) => scanner.position(),
                None => return Err(scanner.expected("a row of '^' and '#'").into()),
            };
            let token = scanner.token().expect("peeked");
            // A stray byte is named first, at its place; then the length.
            if let Some(i) = token.iter().position(|&b| b != b'^' && b != b'#') {
                return Err(scanner
                    .error_at(
                        start + i,
                        ParseErrorKind::UnexpectedChar {
                            found: Found::at(input, start + i),
                            expected: "a cell: '^' or '#'".into(),
                        },
                    )
                    .into());
            }
            // Placed where the row leaves its length (its end when short,
            // its first cell too many when long), as `pshtbrth` places it.
            if token.len() != cols {
                return Err(scanner
                    .error_at(
                        start + token.len().min(cols),
                        ParseErrorKind::Invalid(format!(
                            "a row has C = {}, this one has {}",
                            grundy_report::words::count(cols as u64, "cell"),
                            token.len()
                        )),
                    )
                    .into());
            }
            for (cell, &b) in row.iter_mut().zip(token) {
                *cell = b == b'^';
            }
        }
        let grid = Grid::new(rows as u64, cols as u64, candidates(&map))
            .expect("candidates lie inside the map");
        let value = solver
            .value(&Position::new(grid))
            .expect("no budget: a 20 x 20 map is solved outright");
        answers.push(if value.is_zero() {
            b"Kirito\n"
        } else {
            b"Asuna\n"
        })?;
    }
    if !scanner.at_end() {
        return Err(scanner.error(super::trailing_input(tests as u64)).into());
    }
    Ok(())
}

/// The candidates of a map by CAOS3's rule (with the map parser of
/// `grundy split --map`, in the shared text formats).
pub use grundy_report::parse::split::map_candidates as candidates;

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::split::Cell;
    use proptest::prelude::*;

    /// The rule as stated, by walking each arm: the oracle for the sweeps.
    fn by_walking(open: &[Vec<bool>]) -> Vec<Cell> {
        let (rows, cols) = (open.len() as i64, open[0].len() as i64);
        let is_open = |r: i64, c: i64| {
            (0..rows).contains(&r) && (0..cols).contains(&c) && open[r as usize][c as usize]
        };
        let arm = |r: i64, c: i64, dr: i64, dc: i64| {
            (1..)
                .take_while(|&k| is_open(r + dr * k, c + dc * k))
                .count()
        };
        let mut cells = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if is_open(r, c)
                    && [(0, 1), (0, -1), (1, 0), (-1, 0)]
                        .iter()
                        .all(|&(dr, dc)| arm(r, c, dr, dc) >= 2)
                {
                    cells.push(Cell::new(r as u32, c as u32));
                }
            }
        }
        cells
    }

    proptest! {
        #[test]
        fn sweeps_match_the_rule(open in proptest::collection::vec(
            proptest::collection::vec(proptest::bool::weighted(0.8), 1..12), 1..12)) {
            let cols = open[0].len();
            let open: Vec<Vec<bool>> = open.into_iter().map(|mut r| { r.resize(cols, true); r }).collect();
            prop_assert_eq!(candidates(&open), by_walking(&open));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(
            prop_oneof![Just(b'^'), Just(b'#'), Just(b'\n'), Just(b' '), Just(b'1'), Just(b'3'), any::<u8>()], 0..120)) {
            let _ = run(&bytes, std::io::sink());
        }
    }

    fn error(input: &[u8], out: &mut Vec<u8>) -> grundy_report::parse::ParseError {
        run(input, &mut *out)
            .unwrap_err()
            .input()
            .expect("a parse error")
            .clone()
    }

    #[test]
    fn errors_name_line_and_column() {
        let mut out = Vec::new();
        let err = error(b"1\n2 3\n^^^\n^x^\n", &mut out);
        assert_eq!((err.line, err.col), (4, 2));
        // A row of the wrong length is placed where it leaves C.
        let err = error(b"1\n2 3\n^^^\n^^\n", &mut out);
        assert_eq!(
            err.to_string(),
            "4:3: a row has C = 3 cells, this one has 2"
        );
        let err = error(b"1\n1 3\n^^^^\n", &mut out);
        assert_eq!(
            err.to_string(),
            "3:4: a row has C = 3 cells, this one has 4"
        );
        // A stray byte past the row's length is named at its place.
        let err = error(b"1\n1 3\n^^^^x\n", &mut out);
        assert_eq!((err.line, err.col), (3, 5));
        assert!(err.to_string().contains("'x'"), "{err}");
        let err = error(b"1\n21 3\n", &mut out);
        assert!(matches!(err.kind, ParseErrorKind::OutOfRange { .. }));
        let err = error(b"2\n1 1\n^\n", &mut out);
        assert!(matches!(err.kind, ParseErrorKind::UnexpectedEnd { .. }));
        assert_eq!(out, b"Kirito\n");
    }

    /// The tokenising rule of every judge: leading zeros, any digits, a BOM,
    /// CRLF; the value is range-checked.
    #[test]
    fn numbers_and_rows_are_tokens() {
        let mut plain = Vec::new();
        run(b"2\n1 1\n^\n3 3\n^^^\n^^^\n^^^\n", &mut plain).unwrap();
        let mut odd = Vec::new();
        let zeros = "0".repeat(40);
        let input =
            format!("\u{FEFF}{zeros}2\r\n01 001\r\n^\r\n\t3 {zeros}3\r\n^^^ ^^^\r\n\r\n^^^");
        run(input.as_bytes(), &mut odd).unwrap();
        assert_eq!(odd, plain);
        let mut out = Vec::new();
        let err = error(format!("\u{FEFF}1\n1 {zeros}21\n").as_bytes(), &mut out);
        assert_eq!(
            err.to_string(),
            "2:3: the number of columns C 0000000000000000... (42 digits) is out of range 1 to 20"
        );
        let err = error(b"1\n1 1x\n", &mut out);
        assert_eq!(
            err.to_string(),
            "2:4: unexpected 'x', expected a digit or whitespace in the number of columns C"
        );
        let err = error(b"1\n1 2\n^^ ^\n", &mut out);
        assert_eq!(
            err.to_string(),
            "3:4: trailing input after the 1 test announced"
        );
    }
}
