//! The text formats of the splitting game's grids.
//!
//! - *Matrix* (default): one row per line, `1` or `x` for a candidate, `0`
//!   or `.` for a plain cell, optional spaces or tabs between cells; every
//!   row has the same length; leading and trailing blank lines are ignored,
//!   CRLF accepted. (`#` is not a cell here: in a map it is a wall.)
//! - *Map* (`--map`): the same layout with CAOS3's `^` (open) and `#`
//!   (wall); the candidates are the open cells whose four arms of open
//!   cells are all at least 2 long.
//! - *Cells* (`--cells`): a first line `R C`, the number of rows and
//!   columns (1 to 10^9 each), then one line `row col` per candidate, both
//!   counted from 0 (as `row`/`col` in the JSON), each candidate given once.
//!
//! A leading byte order mark is skipped; [`parse_matrix_rows`] reads a
//! matrix given as a list of rows (the web API's JSON). These are the only
//! parsers of these formats: the command line and the web server both call
//! them.
//!
//! Each parser keeps the byte offset of every candidate, so that later
//! complaints about a candidate (a block too large to solve) can point at
//! it.

use grundy::split::{Cell, Grid, MAX_SIDE};

use super::{line_col, without_bom, Found, ParseError, ParseErrorKind, Scanner};

/// A grid as read, with where each candidate was written.
#[derive(Clone, Debug)]
pub struct ParsedGrid {
    /// The grid.
    pub grid: Grid,
    /// `(candidate, byte offset)`, sorted by candidate.
    offsets: Vec<(Cell, usize)>,
    /// A map's walls (`#`), sorted, when the map has at most
    /// [`MAX_WALLS_KEPT`] cells: what a drawing shows, so a reader sees
    /// why a cell is or is not a candidate. Empty for the other formats
    /// and for larger maps (which no drawing shows).
    pub walls: Vec<Cell>,
}

impl ParsedGrid {
    /// The byte offset where `cell` was written (for a map, the cell's own
    /// `^`).
    #[must_use]
    pub fn offset_of(&self, cell: Cell) -> Option<usize> {
        self.offsets
            .binary_search_by(|&(c, _)| c.cmp(&cell))
            .ok()
            .map(|i| self.offsets[i].1)
    }
}

/// The cell kinds of a row-per-line format.
#[derive(Clone, Copy)]
enum Layout {
    Matrix,
    Map,
}

/// The most cells of a map whose walls [`ParsedGrid::walls`] keeps: a
/// drawing's size (the CLI draws grids up to 80 x 80).
pub const MAX_WALLS_KEPT: usize = 80 * 80;

/// Parses a 0/1 matrix.
///
/// # Errors
///
/// A character that is not a cell, a ragged row, a blank line inside the
/// grid, more than 10^9 rows or columns, or no row at all.
pub fn parse_matrix(input: &[u8]) -> Result<ParsedGrid, ParseError> {
    parse_rows(input, Layout::Matrix)
}

/// Parses a CAOS3-style `^`/`#` map and derives its candidates.
///
/// # Errors
///
/// As [`parse_matrix`].
pub fn parse_map(input: &[u8]) -> Result<ParsedGrid, ParseError> {
    parse_rows(input, Layout::Map)
}

fn parse_rows(input: &[u8], layout: Layout) -> Result<ParsedGrid, ParseError> {
    // Offsets count the mark, if any: they index the input as given.
    let skip = input.len() - without_bom(input).len();
    let input = &input[skip..];
    let expected = match layout {
        Layout::Matrix => "a cell: 1 or x (candidate), 0 or . (plain)",
        Layout::Map => "a cell: '^' (open) or '#' (wall)",
    };
    // For a matrix: candidates as read. For a map: every cell's openness
    // (a map's side is small enough to hold: its rule needs the whole map).
    let mut cells: Vec<(Cell, usize)> = Vec::new();
    let mut open: Vec<Vec<bool>> = Vec::new();
    let mut cell_offsets: Vec<Vec<usize>> = Vec::new();
    let mut cols: Option<usize> = None;
    let mut rows = 0usize;
    let mut ended_at: Option<usize> = None;
    let mut offset = 0;
    for line in input.split(|&b| b == b'\n') {
        let line_start = offset;
        offset += line.len() + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut width = 0usize;
        let mut row_open = Vec::new();
        let mut row_offsets = Vec::new();
        for (i, &byte) in line.iter().enumerate() {
            let at = line_start + i;
            let on = match (layout, byte) {
                (_, b' ' | b'\t') => continue,
                (Layout::Matrix, b'1' | b'x' | b'X') | (Layout::Map, b'^') => true,
                (Layout::Matrix, b'0' | b'.') | (Layout::Map, b'#') => false,
                _ => {
                    return Err(ParseError::at(
                        input,
                        at,
                        ParseErrorKind::UnexpectedChar {
                            found: Found::at(input, at),
                            expected: expected.into(),
                        },
                    ))
                }
            };
            if let Some(blank) = ended_at {
                let (line, _) = line_col(input, blank);
                return Err(ParseError::at(
                    input,
                    at,
                    ParseErrorKind::Invalid(format!(
                        "a second grid after the blank line {line}: one grid at a time"
                    )),
                ));
            }
            if width >= MAX_SIDE as usize {
                return Err(ParseError::at(
                    input,
                    at,
                    ParseErrorKind::TooLarge(format!(
                        "row longer than {MAX_SIDE} cells: grids have at most {MAX_SIDE} columns"
                    )),
                ));
            }
            match layout {
                Layout::Matrix => {
                    if on {
                        cells.push((Cell::new(rows as u32, width as u32), at));
                    }
                }
                Layout::Map => {
                    row_open.push(on);
                    row_offsets.push(at);
                }
            }
            width += 1;
        }
        if width == 0 {
            if rows > 0 && ended_at.is_none() {
                ended_at = Some(line_start);
            }
            continue;
        }
        let cols = *cols.get_or_insert(width);
        if width != cols {
            return Err(super::ragged_row(input, line_start, line, cols, width));
        }
        if rows >= MAX_SIDE as usize {
            return Err(ParseError::at(
                input,
                line_start,
                ParseErrorKind::TooLarge(format!("grids have at most {MAX_SIDE} rows")),
            ));
        }
        if let Layout::Map = layout {
            open.push(row_open);
            cell_offsets.push(row_offsets);
        }
        rows += 1;
    }
    let Some(cols) = cols else {
        return Err(ParseError::at(
            input,
            input.len(),
            ParseErrorKind::Empty {
                expected: match layout {
                    Layout::Matrix => "a grid: rows of 0 and 1".into(),
                    Layout::Map => "a map: rows of '^' and '#'".into(),
                },
            },
        ));
    };
    let mut walls = Vec::new();
    let keep_walls = rows * cols <= MAX_WALLS_KEPT;
    if let Layout::Map = layout {
        cells = map_candidates(&open)
            .into_iter()
            .map(|c| (c, cell_offsets[c.row as usize][c.col as usize]))
            .collect();
        for (r, row) in open.iter().enumerate() {
            for (c, &on) in row.iter().enumerate() {
                if !on && keep_walls {
                    walls.push(Cell::new(r as u32, c as u32));
                }
            }
        }
    }
    let grid = Grid::new(rows as u64, cols as u64, cells.iter().map(|&(c, _)| c))
        .expect("sizes and cells checked while reading");
    cells.sort_unstable();
    for (_, offset) in &mut cells {
        *offset += skip;
    }
    Ok(ParsedGrid {
        grid,
        offsets: cells,
        walls,
    })
}

/// Parses the cell-list format.
///
/// # Errors
///
/// A missing or malformed number, a size out of `1..=10^9`, a candidate
/// outside the grid, or a candidate given twice.
pub fn parse_cells(input: &[u8]) -> Result<ParsedGrid, ParseError> {
    let mut scanner = Scanner::new(input);
    if scanner.at_end() {
        return Err(scanner.error(ParseErrorKind::Empty {
            expected: "a first line `R C`, then lines `row col`".into(),
        }));
    }
    let max = u64::from(MAX_SIDE);
    let rows = scanner.u64_in("the number of rows R", 1, max)?;
    scanner.more_on_line("the number of columns C", "R C")?;
    let cols = scanner.u64_in("the number of columns C", 1, max)?;
    scanner.end_of_line("R C")?;
    let mut cells = Vec::new();
    while !scanner.at_end() {
        let at = scanner.position();
        let row = scanner.u64_in("row", 0, rows - 1)?;
        scanner.more_on_line("col", "row col")?;
        let col = scanner.u64_in("col", 0, cols - 1)?;
        scanner.end_of_line("row col")?;
        cells.push((Cell::new(row as u32, col as u32), at));
    }
    // Sorting by cell then offset puts a repeat right after its first use.
    cells.sort_unstable();
    if let Some(pair) = cells.windows(2).find(|w| w[0].0 == w[1].0) {
        let (first, _) = line_col(input, pair[0].1);
        let cell = pair[1].0;
        return Err(ParseError::at(
            input,
            pair[1].1,
            ParseErrorKind::Duplicate {
                what: format!(
                    "candidate `{} {}` (first given on line {first})",
                    cell.row, cell.col
                ),
            },
        ));
    }
    let grid = Grid::new(rows, cols, cells.iter().map(|&(c, _)| c))
        .expect("sizes, ranges and repeats checked while reading");
    Ok(ParsedGrid {
        grid,
        offsets: cells,
        walls: Vec::new(),
    })
}

/// A grid's rows as the matrix format writes them, `1` at each candidate
/// (what [`parse_matrix_rows`] reads back). It writes every cell of the
/// grid: callers bound the sides first.
#[must_use]
pub fn matrix_rows(grid: &Grid) -> Vec<String> {
    let (rows, cols) = (grid.rows() as usize, grid.cols() as usize);
    // A grid's sides are u32, so the casts back are exact.
    super::clear::rows_of(rows, cols, |r, c| {
        grid.is_candidate(Cell::new(r as u32, c as u32))
    })
}

/// Parses a 0/1 matrix given as its rows, one string a row (the JSON form
/// of the web API): errors are located at row (as the line) and column.
///
/// # Errors
///
/// As [`parse_matrix`]; also no row at all, a row holding no cell, and a
/// line break inside a row.
pub fn parse_matrix_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, ParseError> {
    let text = super::rows::joined(rows, "1 or x (candidate), 0 or . (plain)", "grid")?;
    Ok(parse_matrix(text.as_bytes())?.grid)
}

/// The candidates of a map by CAOS3's rule: open cells whose four arms of
/// contiguous open cells (not counting the cell) are all at least 2 long.
#[must_use]
pub fn map_candidates(open: &[Vec<bool>]) -> Vec<Cell> {
    let rows = open.len();
    let cols = open.first().map_or(0, Vec::len);
    // Arm lengths by one sweep in each direction, O(R C).
    let mut left = vec![vec![0usize; cols]; rows];
    let mut right = vec![vec![0usize; cols]; rows];
    let mut up = vec![vec![0usize; cols]; rows];
    let mut down = vec![vec![0usize; cols]; rows];
    for r in 0..rows {
        for c in 1..cols {
            left[r][c] = if open[r][c - 1] {
                left[r][c - 1] + 1
            } else {
                0
            };
        }
        for c in (0..cols.saturating_sub(1)).rev() {
            right[r][c] = if open[r][c + 1] {
                right[r][c + 1] + 1
            } else {
                0
            };
        }
    }
    for c in 0..cols {
        for r in 1..rows {
            up[r][c] = if open[r - 1][c] { up[r - 1][c] + 1 } else { 0 };
        }
        for r in (0..rows.saturating_sub(1)).rev() {
            down[r][c] = if open[r + 1][c] {
                down[r + 1][c] + 1
            } else {
                0
            };
        }
    }
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if open[r][c] && left[r][c].min(right[r][c]).min(up[r][c]).min(down[r][c]) >= 2 {
                cells.push(Cell::new(r as u32, c as u32));
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn matrix_accepts_digits_dots_x_and_spaces() {
        let parsed = parse_matrix(b"\n1 0 x\r\n.1.\n\n").unwrap();
        assert_eq!(parsed.grid, Grid::from_rows(&["101", "010"]));
        assert_eq!(parsed.offset_of(Cell::new(1, 1)), Some(9));
    }

    #[test]
    fn matrix_rows_parse_back_to_the_grid() {
        for rows in [&["101", "010"][..], &["1"], &["0110", "1001", "0000"]] {
            let grid = Grid::from_rows(rows);
            let written = matrix_rows(&grid);
            assert_eq!(written, rows);
            assert_eq!(parse_matrix_rows(&written).unwrap(), grid);
        }
    }

    #[test]
    fn matrix_errors_name_line_and_column() {
        let err = parse_matrix(b"101\n1a1\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 2));
        // A short row is located just after its last cell, a long one at
        // its first cell too many.
        let err = parse_matrix(b"101\n11\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 3));
        let err = parse_matrix(b"101\n1 0 1 1\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 7));
        assert!(matches!(err.kind, ParseErrorKind::RaggedRow { .. }));
        let err = parse_matrix(b"1\n\n1\n").unwrap_err();
        assert_eq!((err.line, err.col), (3, 1));
        let err = parse_matrix(b"  \n").unwrap_err();
        assert!(matches!(err.kind, ParseErrorKind::Empty { .. }));
    }

    #[test]
    fn cells_errors_name_line_and_column() {
        let err = parse_cells(b"3 4\n0 0\n3 1\n").unwrap_err();
        assert_eq!((err.line, err.col), (3, 1));
        assert_eq!(err.to_string(), "3:1: row 3 is out of range 0 to 2");
        let err = parse_cells(b"3 4\n2 4\n").unwrap_err();
        assert_eq!(err.to_string(), "2:3: col 4 is out of range 0 to 3");
        let err = parse_cells(b"3 4\n0 0\n1 1\n0 0\n").unwrap_err();
        assert_eq!((err.line, err.col), (4, 1));
        assert!(err.to_string().contains("first given on line 2"), "{err}");
        let err = parse_cells(b"0 4\n").unwrap_err();
        assert!(matches!(err.kind, ParseErrorKind::OutOfRange { .. }));
        let err = parse_cells(b"3 4\n1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "2:2: the line ends before col: lines are `row col`"
        );
        // One record a line: a number too many, or one too few, is an
        // error where the line goes wrong, never read with the next line.
        let err = parse_cells(b"10 10\n0 0 7\n1 1 7\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 5));
        assert!(
            err.to_string().contains("end of the line after `row col`"),
            "{err}"
        );
        let err = parse_cells(b"3 3 1 1\n").unwrap_err();
        assert_eq!((err.line, err.col), (1, 5));
        let err = parse_cells(b"3\n3\n").unwrap_err();
        assert_eq!((err.line, err.col), (1, 2));
        let err = parse_cells(b"3 3\n1\n1\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 2));
        let parsed = parse_cells(b"3 3\r\n\n1 1\r\n 2\t2 \r\n").unwrap();
        assert_eq!(
            parsed.grid.candidates(),
            &[Cell::new(1, 1), Cell::new(2, 2)]
        );
        let parsed = parse_cells(b"1000000000 1000000000\n999999999 0\n").unwrap();
        assert_eq!(parsed.grid.candidates(), &[Cell::new(999_999_999, 0)]);
    }

    #[test]
    fn map_uses_the_caos3_rule() {
        let map = "^^^^^\n".repeat(5);
        let parsed = parse_map(map.as_bytes()).unwrap();
        assert_eq!(parsed.grid.candidates(), &[Cell::new(2, 2)]);
        assert_eq!(parsed.offset_of(Cell::new(2, 2)), Some(14));
    }

    #[test]
    fn rows_are_lines() {
        let grid = parse_matrix_rows(&["0 1", "x."]).unwrap();
        assert_eq!(grid.candidates(), &[Cell::new(0, 1), Cell::new(1, 0)]);
        let err = parse_matrix_rows(&["01", "0y"]).unwrap_err();
        assert_eq!((err.line, err.col), (2, 2));
        let err = parse_matrix_rows(&["01", ""]).unwrap_err();
        assert_eq!((err.line, err.col), (2, 1));
        let err = parse_matrix_rows::<&str>(&[]).unwrap_err();
        assert!(matches!(err.kind, ParseErrorKind::Empty { .. }));
        let err = parse_matrix(b"\xEF\xBB\xBF01\n0y\n").unwrap_err();
        assert_eq!((err.line, err.col), (2, 2));
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(
            prop_oneof![Just(b'0'), Just(b'1'), Just(b'^'), Just(b'#'), Just(b'\n'), Just(b' '), any::<u8>()], 0..200)) {
            let _ = parse_matrix(&bytes);
            let _ = parse_map(&bytes);
            let _ = parse_cells(&bytes);
        }
    }
}
