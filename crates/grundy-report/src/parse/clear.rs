//! The text format of rectangle-clearing boards: the one parser, used by
//! `grundy clear`, `grundy sum` (boards and `set` queries) and the web API.
//!
//! A board is a block of rows, one per line, each a sequence of cells: `1` or
//! `#` for a one, `0` or `.` for a zero, with optional spaces or tabs between
//! cells (no character has two meanings, so every spelling reads alike).
//! Blank lines separate boards (several boards make a sum); leading and
//! trailing blank lines are ignored, CRLF line ends and a leading byte order
//! mark are accepted. Every row of a board has the
//! same length. [`parse_large_boards`] takes boards of any size, bounded
//! only by the memory their analysis needs; [`parse_boards`] boards of at
//! most 64 cells, for the commands that only play those.
//!
//! [`parse_boards`] reads a text; [`parse_board_rows`] reads one board given
//! as a list of rows (the JSON form), with the same rules: each row is a
//! line, so its errors are located at row:column. Two passes over the bytes
//! (the first checks every character and measures each board, so a board
//! is refused before its cells are allocated), O(input).

use grundy::clear::large::{analysis_bytes, LargeBoard};
use grundy::clear::{Board, MAX_CELLS};

use super::{without_bom, Found, ParseError, ParseErrorKind};

/// A board's rows as this format writes them, `0` and `1` (what
/// [`parse_board_rows`] reads back): the one writer of the page's and
/// Python's board rows.
#[must_use]
pub fn board_rows(board: &Board) -> Vec<String> {
    rows_of(board.rows(), board.cols(), |r, c| board.get(r, c))
}

/// A board of any size's rows, as [`board_rows`] writes them (what
/// [`parse_large_board_rows`] reads back).
#[must_use]
pub fn large_board_rows(board: &LargeBoard) -> Vec<String> {
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    // Both sides are u32 in a LargeBoard, so the casts back are exact.
    rows_of(rows, cols, |r, c| board.get(r as u32, c as u32))
}

/// `rows` lines of `cols` cells, `1` where `one` is true.
pub(crate) fn rows_of(rows: usize, cols: usize, one: impl Fn(usize, usize) -> bool) -> Vec<String> {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if one(r, c) { '1' } else { '0' })
                .collect()
        })
        .collect()
}

/// A board as read, with the line it starts on (1-based) for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedBoard {
    /// The board.
    pub board: Board,
    /// The 1-based line of its first row.
    pub line: usize,
}

/// A board of any size as read, with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedLargeBoard {
    /// The board.
    pub board: LargeBoard,
    /// The 1-based line of its first row.
    pub line: usize,
}

/// Where a board lies in the input, found by the first pass.
struct Layout {
    line: usize,
    /// Byte offset of its first row.
    start: usize,
    rows: usize,
    cols: usize,
}

/// The cell a byte writes: `Some(true)` for a one, `Some(false)` for a
/// zero, `None` for anything else (a separator, or a byte the first pass
/// refused or skipped, such as a line's `\r`).
#[inline]
const fn cell_of(byte: u8) -> Option<bool> {
    match byte {
        b'1' | b'#' => Some(true),
        b'0' | b'.' => Some(false),
        _ => None,
    }
}

/// The cell of a byte: `Some(true)` for a one, `Some(false)` for a zero,
/// `None` for a separator; an error for anything else.
#[inline]
fn cell(input: &[u8], offset: usize) -> Result<Option<bool>, ParseError> {
    match (input[offset], cell_of(input[offset])) {
        (_, Some(one)) => Ok(Some(one)),
        (b' ' | b'\t', None) => Ok(None),
        _ => Err(ParseError::at(
            input,
            offset,
            ParseErrorKind::UnexpectedChar {
                found: Found::at(input, offset),
                expected: "a cell: 0 or 1 (or . and #)".into(),
            },
        )),
    }
}

/// The first pass: every character checked, every board's rows and columns.
fn layout(input: &[u8]) -> Result<Vec<Layout>, ParseError> {
    let mut boards = Vec::new();
    let mut current: Option<Layout> = None;
    let mut offset = 0;
    for (line_index, line) in input.split(|&b| b == b'\n').enumerate() {
        let line_start = offset;
        offset += line.len() + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut width = 0usize;
        for i in 0..line.len() {
            if cell(input, line_start + i)?.is_some() {
                width += 1;
            }
        }
        if width == 0 {
            if let Some(board) = current.take() {
                boards.push(board);
            }
            continue;
        }
        let board = current.get_or_insert(Layout {
            line: line_index + 1,
            start: line_start,
            rows: 0,
            cols: width,
        });
        if width != board.cols {
            return Err(super::ragged_row(
                input, line_start, line, board.cols, width,
            ));
        }
        board.rows += 1;
    }
    if let Some(board) = current.take() {
        boards.push(board);
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

/// Parses one or more boards of any size separated by blank lines. When
/// `max_bytes` is given, a board whose analysis would need more (see
/// [`grundy::clear::large::analysis_bytes`]) is refused before its cells
/// are allocated, with the bytes it would need.
///
/// # Errors
///
/// A character that is not a cell, a row whose length differs from the
/// board's first row, a board past the memory limit, or an input with no
/// board at all; each with its line and column.
pub fn parse_large_boards(
    input: &[u8],
    max_bytes: Option<u64>,
) -> Result<Vec<ParsedLargeBoard>, ParseError> {
    let input = without_bom(input);
    let layouts = layout(input)?;
    let mut total = 0u64;
    for (index, board) in layouts.iter().enumerate() {
        total = total.saturating_add(analysis_bytes(board.rows as u64, board.cols as u64));
        if let Some(limit) = max_bytes {
            if total > limit {
                let cell_bytes = layouts.iter().fold(0u64, |sum, b| {
                    sum.saturating_add(LargeBoard::cell_bytes(b.rows as u64, b.cols as u64))
                });
                // What passes the limit is the sum: with boards before this
                // one, the sum is named, not this board's share of it.
                let (need, allowed) = crate::words::bytes_apart(total, limit);
                let needs = if index == 0 {
                    format!("{} x {} needs about {need}", board.rows, board.cols)
                } else {
                    format!(
                        "{} x {} brings the boards up to it to about {need}",
                        board.rows, board.cols
                    )
                };
                return Err(ParseError::at(
                    input,
                    board.start,
                    ParseErrorKind::OverMemory {
                        message: format!(
                            "board too large for the memory budget: {needs} to analyse, over the limit of {allowed}"
                        ),
                        needs: total,
                        limit,
                        cell_bytes,
                    },
                ));
            }
        }
    }
    fill(input, layouts)
}

/// The boards of `input` (without its byte order mark) laid out by
/// [`layout`], read into their cells: the second pass.
///
/// # Errors
///
/// A board whose sides no [`LargeBoard`] takes.
fn fill(input: &[u8], layouts: Vec<Layout>) -> Result<Vec<ParsedLargeBoard>, ParseError> {
    let mut out = Vec::with_capacity(layouts.len());
    for layout in layouts {
        let mut board =
            LargeBoard::zeros(layout.rows as u64, layout.cols as u64).map_err(|err| {
                ParseError::at(
                    input,
                    layout.start,
                    ParseErrorKind::TooLarge(err.to_string()),
                )
            })?;
        let (mut row, mut col) = (0u32, 0u32);
        let mut offset = layout.start;
        while (row as usize) < layout.rows && offset <= input.len() {
            match input.get(offset) {
                Some(b'\n') | None => {
                    if col > 0 {
                        row += 1;
                        col = 0;
                    }
                }
                Some(&byte) => {
                    // No error is built here (the first pass checked every
                    // byte): building one locates it from the input's start.
                    if let Some(one) = cell_of(byte) {
                        if one {
                            board.set(row, col, true);
                        }
                        col += 1;
                    }
                }
            }
            offset += 1;
        }
        out.push(ParsedLargeBoard {
            board,
            line: layout.line,
        });
    }
    Ok(out)
}

/// A refusal of [`parse_large_boards`] for memory
/// ([`ParseErrorKind::OverMemory`]) as the engine's move words it when the
/// boards' cells alone pass the limit: a move needs the cells, not their
/// analysis. `player` names what plays (`--move`, `engine_move`); other
/// errors come back as they are.
#[must_use]
pub fn cells_over_memory(mut err: ParseError, player: &str) -> ParseError {
    if let ParseErrorKind::OverMemory {
        limit, cell_bytes, ..
    } = err.kind
    {
        let (need, allowed) = crate::words::bytes_apart(cell_bytes, limit);
        err.kind = ParseErrorKind::OverMemory {
            message: format!(
                "boards too large for the memory budget: their cells alone need {need}, \
                 over the limit of {allowed} ({player} plays any boards whose cells fit)"
            ),
            needs: cell_bytes,
            limit,
            cell_bytes,
        };
    }
    err
}

/// Parses one or more boards separated by blank lines, each of at most 64
/// cells (the form the small-board commands take).
///
/// # Errors
///
/// As [`parse_large_boards`], and a board of more than 64 cells, located
/// at its first cell past 64.
pub fn parse_boards(input: &[u8]) -> Result<Vec<ParsedBoard>, ParseError> {
    let input = without_bom(input);
    let layouts = layout(input)?;
    if let Some(large) = layouts.iter().find(|l| l.rows * l.cols > MAX_CELLS) {
        return Err(too_large_at(input, large));
    }
    let mut out = Vec::with_capacity(layouts.len());
    for parsed in fill(input, layouts)? {
        let board = parsed
            .board
            .to_board()
            .expect("every board was checked to hold at most 64 cells");
        out.push(ParsedBoard {
            board,
            line: parsed.line,
        });
    }
    Ok(out)
}

/// The error for a board of more than 64 cells: at its 65th cell when a
/// row is longer than 64, else at the first row past 64 cells.
fn too_large_at(input: &[u8], layout: &Layout) -> ParseError {
    let mut offset = layout.start;
    if layout.cols > MAX_CELLS {
        let mut seen = 0;
        while seen <= MAX_CELLS {
            if cell_of(input[offset]).is_some() {
                seen += 1;
                if seen > MAX_CELLS {
                    break;
                }
            }
            offset += 1;
        }
        return too_large(input, offset, MAX_CELLS + 1, 1);
    }
    let rows_that_fit = MAX_CELLS / layout.cols;
    let mut row = 0;
    while row < rows_that_fit {
        // Skip one row of cells (no blank line inside a board).
        while input[offset] != b'\n' {
            offset += 1;
        }
        offset += 1;
        row += 1;
    }
    too_large(input, offset, layout.cols, rows_that_fit + 1)
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

/// [`parse_board_rows`] for a board of any size, refused past `max_bytes`
/// as [`parse_large_boards`] does.
///
/// # Errors
///
/// As [`parse_board_rows`], and a board past the memory limit.
pub fn parse_large_board_rows<S: AsRef<str>>(
    rows: &[S],
    max_bytes: Option<u64>,
) -> Result<LargeBoard, ParseError> {
    let text = super::rows::joined(rows, "0 or 1 (or . and #)", "board")?;
    let mut boards = parse_large_boards(text.as_bytes(), max_bytes)?;
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

    /// The memory limit names the board that passes it, and the need of
    /// the boards up to it (the sum that passes the limit) when there are
    /// boards before it.
    #[test]
    fn a_board_past_the_memory_limit_is_located() {
        let input = b"11\n11\n\n111\n111\n";
        let first = analysis_bytes(2, 2);
        let err = parse_large_boards(input, Some(first - 1)).unwrap_err();
        assert_eq!((err.line, err.col), (1, 1));
        let (need, limit) = crate::words::bytes_apart(first, first - 1);
        assert!(
            err.to_string().ends_with(&format!(
                "2 x 2 needs about {need} to analyse, over the limit of {limit}"
            )),
            "{err}"
        );
        let err = parse_large_boards(input, Some(first)).unwrap_err();
        assert_eq!((err.line, err.col), (4, 1));
        let (need, limit) = crate::words::bytes_apart(first + analysis_bytes(2, 3), first);
        assert!(
            err.to_string().ends_with(&format!(
                "2 x 3 brings the boards up to it to about {need} to analyse, over the limit of {limit}"
            )),
            "{err}"
        );
        assert!(parse_large_boards(input, Some(first + analysis_bytes(2, 3))).is_ok());
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse_boards(b"0110\n01x0\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 3));
        assert!(err.to_string().contains("unexpected 'x'"), "{err}");
        // Just after the last cell of a short row.
        let err = parse_boards(b"0110\n010\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 4));
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
        // At the first cell too many of a long row.
        let err = parse_board_rows(&["01", "011"]).unwrap_err();
        assert_eq!((err.line, err.col), (2, 3));
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

        /// The rows `board_rows` writes, as a text or as a list of rows,
        /// parse back to the board; a large board's the same.
        #[test]
        fn round_trip(rows in 1usize..=8, cols in 1usize..=8, cells in any::<u64>()) {
            let board = Board::new(rows, cols, cells & grundy::clear::Bitboard::below((rows * cols) as u32).0).unwrap();
            let written = board_rows(&board);
            prop_assert_eq!(written.len(), rows);
            prop_assert!(written.iter().all(|row| row.len() == cols && row.bytes().all(|b| b == b'0' || b == b'1')));
            let text: String = written.iter().map(|row| format!("{row}\n")).collect();
            let parsed = parse_boards(text.as_bytes()).unwrap();
            prop_assert_eq!(parsed.len(), 1);
            prop_assert_eq!(parsed[0].board, board);
            prop_assert_eq!(parse_board_rows(&written).unwrap(), board);
            let large = parse_large_board_rows(&written, None).unwrap();
            prop_assert_eq!(large_board_rows(&large), written);
        }
    }
}
