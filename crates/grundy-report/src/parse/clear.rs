//! The text format of rectangle-clearing boards: the one parser, used by
//! `grundy clear`, `grundy sum` (boards and `set` queries) and the web API.
//!
//! A board is a block of rows, one per line, each a sequence of cells: `1` or
//! `#` for a one, `0` or `.` for a zero, with optional spaces or tabs between
//! cells (the union of what the command line and the page used to take: no
//! character has two meanings). Blank lines separate boards (several boards
//! make a sum); leading and trailing blank lines are ignored, CRLF line ends
//! and a leading byte order mark are accepted. Every row of a board has the
//! same length, and a board has at most 64 cells.
//!
//! [`parse_boards`] reads a text; [`parse_board_rows`] reads one board given
//! as a list of rows (the JSON form), with the same rules: each row is a
//! line, so its errors are located at row:column. One pass over the bytes,
//! O(input).

use grundy::clear::{Board, MAX_CELLS};

use super::{char_at, without_bom, Found, ParseError, ParseErrorKind};

/// A board as read, with the line it starts on (1-based) for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedBoard {
    /// The board.
    pub board: Board,
    /// The 1-based line of its first row.
    pub line: usize,
}

/// Parses one or more boards separated by blank lines.
///
/// # Errors
///
/// A character that is not a cell, a row whose length differs from the
/// board's first row, a board of more than 64 cells, or an input with no
/// board at all; each with its line and column.
pub fn parse_boards(input: &[u8]) -> Result<Vec<ParsedBoard>, ParseError> {
    let input = without_bom(input);
    let mut boards = Vec::new();
    let mut current: Option<BoardBuilder> = None;
    let mut offset = 0;
    for (line_index, line) in input.split(|&b| b == b'\n').enumerate() {
        let line_start = offset;
        offset += line.len() + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut bits = 0u64;
        let mut width = 0usize;
        for (i, &byte) in line.iter().enumerate() {
            let one = match byte {
                b'1' | b'#' => true,
                b'0' | b'.' => false,
                b' ' | b'\t' => continue,
                _ => {
                    return Err(ParseError::at(
                        input,
                        line_start + i,
                        ParseErrorKind::UnexpectedChar {
                            found: Found(char_at(input, line_start + i)),
                            expected: "a cell: 0 or 1 (or . and #)".into(),
                        },
                    ))
                }
            };
            if width >= MAX_CELLS {
                return Err(too_large(input, line_start + i, width + 1, 1));
            }
            bits |= u64::from(one) << width;
            width += 1;
        }
        if width == 0 {
            if let Some(builder) = current.take() {
                boards.push(builder.finish());
            }
            continue;
        }
        let builder = current.get_or_insert(BoardBuilder {
            line: line_index + 1,
            cols: width,
            rows: 0,
            cells: 0,
        });
        if width != builder.cols {
            return Err(ParseError::at(
                input,
                line_start,
                ParseErrorKind::RaggedRow {
                    expected: builder.cols,
                    found: width,
                },
            ));
        }
        if (builder.rows + 1) * width > MAX_CELLS {
            return Err(too_large(input, line_start, width, builder.rows + 1));
        }
        builder.cells |= bits << (builder.rows * width);
        builder.rows += 1;
    }
    if let Some(builder) = current.take() {
        boards.push(builder.finish());
    }
    if boards.is_empty() {
        return Err(ParseError::at(
            input,
            input.len(),
            ParseErrorKind::Empty {
                expected: "a board: rows of 0 and 1".into(),
            },
        ));
    }
    Ok(boards)
}

/// Parses one board given as its rows, one string a row (the JSON form
/// `["0110", "1 1 1 1"]`): errors are located at row (as the line) and
/// column.
///
/// # Errors
///
/// As [`parse_boards`]; also no row at all, a row holding no cell (a board
/// has no blank row), and a line break inside a row.
pub fn parse_board_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, ParseError> {
    let text = super::rows::joined(rows, "0 or 1 (or . and #)", "board")?;
    let mut boards = parse_boards(text.as_bytes())?;
    // No blank row and no line break inside one: the rows are one board.
    debug_assert_eq!(boards.len(), 1);
    Ok(boards.swap_remove(0).board)
}

fn too_large(input: &[u8], offset: usize, cols: usize, rows: usize) -> ParseError {
    ParseError::at(
        input,
        offset,
        ParseErrorKind::TooLarge(format!(
            "board too large: {} so far; rectangle clearing supports boards of at most {MAX_CELLS} cells (e.g. 8 x 8 or 4 x 16)",
            crate::words::count((rows * cols) as u64, "cell")
        )),
    )
}

struct BoardBuilder {
    line: usize,
    rows: usize,
    cols: usize,
    cells: u64,
}

impl BoardBuilder {
    fn finish(self) -> ParsedBoard {
        ParsedBoard {
            board: Board::new(self.rows, self.cols, self.cells)
                .expect("rows * cols <= 64 was checked row by row"),
            line: self.line,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_digits_dots_and_spaces() {
        let boards = parse_boards(b"0 1 1 0\r\n.##.\n\n\n1\n").unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[0].board, grundy::board!["0110", "0110"]);
        assert_eq!(boards[0].line, 1);
        assert_eq!(boards[1].board, grundy::board!["1"]);
        assert_eq!(boards[1].line, 5);
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse_boards(b"0110\n01x0\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 3));
        assert!(err.to_string().contains("unexpected 'x'"), "{err}");
        let err = parse_boards(b"0110\n010\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 1));
        assert_eq!(
            err.kind,
            ParseErrorKind::RaggedRow {
                expected: 4,
                found: 3
            }
        );
        let err = parse_boards(b"\n \n").unwrap_err();
        assert!(matches!(err.kind, ParseErrorKind::Empty { .. }));
        let nine_rows = "00000000\n".repeat(9);
        let err = parse_boards(nine_rows.as_bytes()).unwrap_err();
        assert_eq!(err.line, 9);
        assert!(matches!(err.kind, ParseErrorKind::TooLarge(_)));
        let wide = "0".repeat(65);
        let err = parse_boards(wide.as_bytes()).unwrap_err();
        assert_eq!((err.line, err.col), (1, 65));
    }

    #[test]
    fn rows_are_lines_and_a_bom_is_skipped() {
        assert_eq!(
            parse_board_rows(&["0 1\t1", "#.#"]).unwrap(),
            grundy::board!["011", "101"]
        );
        let err = parse_board_rows(&["01", "0x"]).unwrap_err();
        assert_eq!((err.line, err.col), (2, 2));
        let err = parse_board_rows(&["01", "011"]).unwrap_err();
        assert_eq!((err.line, err.col), (2, 1));
        assert!(matches!(err.kind, ParseErrorKind::RaggedRow { .. }));
        let err = parse_board_rows(&["01", " "]).unwrap_err();
        assert_eq!((err.line, err.col), (2, 1));
        let err = parse_board_rows(&["0\n1"]).unwrap_err();
        assert_eq!((err.line, err.col), (1, 2));
        let err = parse_board_rows::<&str>(&[]).unwrap_err();
        assert!(matches!(err.kind, ParseErrorKind::Empty { .. }));
        let boards = parse_boards(b"\xEF\xBB\xBF01\n0x\n").unwrap_err();
        assert_eq!((boards.line, boards.col), (2, 2));
        assert_eq!(
            parse_boards(b"\xEF\xBB\xBF1\n").unwrap()[0].board,
            grundy::board!["1"]
        );
    }

    proptest! {
        /// Never panics, whatever the bytes; and what it accepts, it accepts
        /// as boards of at most 64 cells.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(
            prop_oneof![Just(b'0'), Just(b'1'), Just(b'\n'), Just(b' '), Just(b'\r'), any::<u8>()], 0..200)) {
            if let Ok(boards) = parse_boards(&bytes) {
                prop_assert!(boards.iter().all(|b| b.board.rows() * b.board.cols() <= 64));
            }
        }

        /// Printing a board as rows of digits and parsing it gives it back.
        #[test]
        fn round_trip(rows in 1usize..=8, cols in 1usize..=8, cells in any::<u64>()) {
            let board = Board::new(rows, cols, cells & grundy::clear::Bitboard::below((rows * cols) as u32).0).unwrap();
            let text: String = (0..rows)
                .map(|r| (0..cols).map(|c| if board.get(r, c) { '1' } else { '0' }).collect::<String>() + "\n")
                .collect();
            let parsed = parse_boards(text.as_bytes()).unwrap();
            prop_assert_eq!(parsed.len(), 1);
            prop_assert_eq!(parsed[0].board, board);
        }
    }
}
