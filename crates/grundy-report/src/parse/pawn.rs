//! The text formats of the pawn game: files of impassable cells, `X,Y`
//! cells and `X0,Y0,X1,Y1` regions on the command line, and the coordinate
//! reader the command line's `gridgame` judge shares.
//!
//! A file of impassable cells has one cell per line, `X Y` or `X,Y` (spaces
//! or tabs around the numbers), coordinates `0..=1000000000`, `x` counted
//! along the row and `y` up the column from the origin, as everywhere in the
//! pawn game. Blank lines are ignored and CRLF line ends accepted. There are
//! no comments: no grundy format has them, since `#` is a cell in the
//! boards and maps. `--at` and `--draw` take the same `X,Y` or `X Y`.

use grundy::pawn::{Blocked, Cell, MAX_COORD};

use super::{line_col, Found, ParseError, ParseErrorKind, Scanner};

/// Impassable cells as read, with where each was written.
#[derive(Clone, Debug)]
pub struct ParsedBlocked {
    /// The validated set.
    pub blocked: Blocked,
    /// The cells in file order.
    pub cells: Vec<Cell>,
    /// Per cell: the byte offset of its `X`.
    pub offsets: Vec<usize>,
}

impl ParsedBlocked {
    /// The byte offset where `cell` is listed, if it is.
    #[must_use]
    pub fn offset_of(&self, cell: Cell) -> Option<usize> {
        self.cells
            .iter()
            .position(|&c| c == cell)
            .map(|i| self.offsets[i])
    }
}

/// Parses a file of impassable cells.
///
/// # Errors
///
/// A character that is not a digit, a negative coordinate, a coordinate
/// above 10^9, a line with one coordinate (a truncated file), a third
/// number on a line, or a cell listed twice; each with its line and column.
pub fn parse_blocked(input: &[u8]) -> Result<ParsedBlocked, ParseError> {
    let mut cells = Vec::new();
    let mut offsets = Vec::new();
    let mut pos = 0;
    let skip_blanks = |pos: &mut usize| {
        while matches!(input.get(*pos), Some(b' ' | b'\t' | b'\r')) {
            *pos += 1;
        }
    };
    let line_ends = |pos: usize| matches!(input.get(pos), None | Some(b'\n'));
    while pos < input.len() {
        skip_blanks(&mut pos);
        if line_ends(pos) {
            pos += 1;
            continue;
        }
        if input[pos] == b'#' {
            return Err(ParseError::at(
                input,
                pos,
                ParseErrorKind::Invalid(
                    "'#' does not start a comment: lines are `X Y` or `X,Y` (grundy's formats have no comments)"
                        .into(),
                ),
            ));
        }
        let start = pos;
        let x = coordinate_at(input, &mut pos, "x coordinate", AFTER_FIRST)?;
        skip_blanks(&mut pos);
        if input.get(pos) == Some(&b',') {
            pos += 1;
            skip_blanks(&mut pos);
        }
        if line_ends(pos) {
            return Err(ParseError::at(
                input,
                pos,
                if pos >= input.len() {
                    ParseErrorKind::UnexpectedEnd {
                        expected: "the y coordinate (lines are `X Y` or `X,Y`)".into(),
                    }
                } else {
                    ParseErrorKind::Invalid(
                        "the line ends after one coordinate: expected `X Y` or `X,Y`".into(),
                    )
                },
            ));
        }
        let y = coordinate_at(input, &mut pos, "y coordinate", AFTER_LAST)?;
        skip_blanks(&mut pos);
        if !line_ends(pos) {
            return Err(ParseError::at(
                input,
                pos,
                ParseErrorKind::UnexpectedChar {
                    found: Found::at(input, pos),
                    expected: "the end of the line after `X Y`".into(),
                },
            ));
        }
        cells.push(Cell::new(u64::from(x), u64::from(y)).expect("coordinates were checked"));
        offsets.push(start);
    }
    let blocked = match Blocked::new(&cells) {
        Ok(blocked) => blocked,
        Err(grundy::pawn::PawnError::DuplicateBlocked {
            cell,
            first,
            second,
        }) => {
            let (line, _) = line_col(input, offsets[first]);
            return Err(ParseError::at(
                input,
                offsets[second],
                ParseErrorKind::Duplicate {
                    what: format!("impassable cell {cell}, first listed on line {line}"),
                },
            ));
        }
        Err(err) => unreachable!("Blocked::new only reports duplicates: {err}"),
    };
    Ok(ParsedBlocked {
        blocked,
        cells,
        offsets,
    })
}

/// What may follow a coordinate that another follows (`X,Y`, `X Y`).
const AFTER_FIRST: &str = "a digit, whitespace or a comma";
/// What may follow the last coordinate of a cell.
const AFTER_LAST: &str = "a digit or whitespace";

/// Reads a coordinate at `*pos` (no leading blanks), `0..=MAX_COORD`,
/// followed by whitespace, a comma or the end (the caller checks what
/// follows the last); `after` words what may follow, for the error. A
/// leading `-` gets its own message.
fn coordinate_at(
    input: &[u8],
    pos: &mut usize,
    what: &str,
    after: &str,
) -> Result<u32, ParseError> {
    let start = *pos;
    if input.get(start) == Some(&b'-') && input.get(start + 1).is_some_and(u8::is_ascii_digit) {
        let mut end = start + 1;
        while input.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        return Err(ParseError::at(
            input,
            start,
            ParseErrorKind::Invalid(format!(
                "negative {what} -{}: coordinates are 0 to {MAX_COORD}",
                super::shown_number(&input[start + 1..end], end - start - 1)
            )),
        ));
    }
    let mut value: u64 = 0;
    let mut end = start;
    while let Some(&b) = input.get(end).filter(|b| b.is_ascii_digit()) {
        value = value.saturating_mul(10).saturating_add(u64::from(b - b'0'));
        end += 1;
    }
    if end == start {
        return Err(ParseError::at(
            input,
            start,
            match input.get(start) {
                None => ParseErrorKind::UnexpectedEnd {
                    expected: what.to_owned(),
                },
                Some(_) => ParseErrorKind::UnexpectedChar {
                    found: Found::at(input, start),
                    expected: what.to_owned(),
                },
            },
        ));
    }
    if value > u64::from(MAX_COORD) {
        return Err(ParseError::at(
            input,
            start,
            ParseErrorKind::OutOfRange {
                what: what.to_owned(),
                value: super::shown_number(&input[start..end], end - start),
                min: 0,
                max: u64::from(MAX_COORD),
            },
        ));
    }
    if let Some(&b) = input.get(end) {
        if !b.is_ascii_whitespace() && b != b',' {
            return Err(ParseError::at(
                input,
                end,
                ParseErrorKind::UnexpectedChar {
                    found: Found::at(input, end),
                    expected: format!("{after} after the {what}"),
                },
            ));
        }
    }
    *pos = end;
    Ok(value as u32)
}

/// Reads a whitespace-separated coordinate with a scanner (the judge's slow
/// path, which also makes its error messages).
///
/// # Errors
///
/// As the file format: a stray character, a negative or too large value.
pub fn scan_coordinate(scanner: &mut Scanner<'_>, what: &str) -> Result<u32, ParseError> {
    if scanner.peek_token().is_none() {
        return Err(scanner.expected(what));
    }
    let mut pos = scanner.position();
    let value = coordinate_at(scanner.input(), &mut pos, what, AFTER_LAST)?;
    scanner.set_position(pos);
    // The judges' formats separate numbers by whitespace only.
    if scanner.input().get(pos) == Some(&b',') {
        return Err(scanner.error(ParseErrorKind::UnexpectedChar {
            found: Found::at(scanner.input(), pos),
            expected: format!("a digit or whitespace in {what}"),
        }));
    }
    Ok(value)
}

/// Parses `X,Y` or `X Y` (as given to `--at`).
///
/// # Errors
///
/// A message naming what is wrong, as the file format words it.
pub fn parse_cell(text: &str) -> Result<Cell, String> {
    let v = parse_numbers(text, &["x coordinate", "y coordinate"], "X,Y or X Y")?;
    Ok(Cell::new(v[0], v[1]).expect("checked"))
}

/// Parses `X0,Y0,X1,Y1` or `X0 Y0 X1 Y1` (as given to `--draw`): two
/// opposite corners of a region, inclusive, in either order, returned as
/// (lower-left, upper-right).
///
/// # Errors
///
/// A message naming what is wrong.
pub fn parse_region(text: &str) -> Result<(Cell, Cell), String> {
    let names = [
        "x0 coordinate",
        "y0 coordinate",
        "x1 coordinate",
        "y1 coordinate",
    ];
    let v = parse_numbers(text, &names, "X0,Y0,X1,Y1")?;
    Ok((
        Cell::new(v[0].min(v[2]), v[1].min(v[3])).expect("checked"),
        Cell::new(v[0].max(v[2]), v[1].max(v[3])).expect("checked"),
    ))
}

/// One coordinate a name of `names`, separated by commas (with optional
/// spaces around them) or by spaces alone, each read as the file format
/// reads it ([`coordinate_at`]), so that both say the same of a bad one.
fn parse_numbers(text: &str, names: &[&str], shape: &str) -> Result<Vec<u64>, String> {
    let parts: Vec<&str> = if text.contains(',') {
        text.split(',').map(str::trim).collect()
    } else {
        text.split_whitespace().collect()
    };
    if parts.len() != names.len() {
        return Err(format!("expected {shape}, got {text:?}"));
    }
    parts
        .iter()
        .zip(names)
        .enumerate()
        .map(|(index, (part, what))| {
            if part.is_empty() {
                return Err(format!("the {what} is missing: expected {shape}"));
            }
            let mut end = 0;
            let after = if index + 1 < names.len() {
                AFTER_FIRST
            } else {
                AFTER_LAST
            };
            let value = coordinate_at(part.as_bytes(), &mut end, what, after)
                .map_err(|err| err.kind.to_string())?;
            if end != part.len() {
                // A space inside a comma-separated number: `1 2,3`.
                return Err(format!("expected {shape}, got {text:?}"));
            }
            Ok(u64::from(value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(input: &str) -> ParseError {
        parse_blocked(input.as_bytes()).unwrap_err()
    }

    #[test]
    fn reads_cells_with_spaces_or_commas_and_blank_lines() {
        let parsed = parse_blocked(b"\n1 1\r\n\n  4\t2  \n5,6\n 7 , 8\n").unwrap();
        let cell = |x, y| Cell::new(x, y).unwrap();
        assert_eq!(
            parsed.cells,
            vec![cell(1, 1), cell(4, 2), cell(5, 6), cell(7, 8)]
        );
        assert_eq!(parsed.offsets, vec![1, 9, 15, 20]);
        assert_eq!(parsed.blocked.len(), 4);
        assert!(parse_blocked(b"").unwrap().cells.is_empty());
    }

    #[test]
    fn errors_name_the_place() {
        let e = err("1 1\n2 -3\n");
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.to_string().contains("negative y coordinate -3"), "{e}");
        let e = err("1 1\n1000000001 0\n");
        assert_eq!((e.line, e.col), (2, 1));
        assert!(
            e.to_string().contains("out of range 0 to 1000000000"),
            "{e}"
        );
        let e = err("1 1\n2 2\n1 1\n");
        assert_eq!((e.line, e.col), (3, 1));
        assert!(e.to_string().contains("first listed on line 1"), "{e}");
        let e = err("1 1\n2");
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.to_string().contains("unexpected end of input"), "{e}");
        let e = err("1\n2 2\n");
        assert_eq!((e.line, e.col), (1, 2));
        let e = err("1 2 3\n");
        assert_eq!((e.line, e.col), (1, 5));
        let e = err("1 x\n");
        assert_eq!((e.line, e.col), (1, 3));
        let e = err("1y 2\n");
        assert_eq!((e.line, e.col), (1, 2));
        // No comments, in this format as in every other.
        let e = err("1 1\n# walls\n");
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.to_string().contains("no comments"), "{e}");
        let e = err("1 1 # a wall\n");
        assert_eq!((e.line, e.col), (1, 5));
        let e = err("1,,2\n");
        assert_eq!((e.line, e.col), (1, 3));
        let e = err("1,\n");
        assert!(e.to_string().contains("after one coordinate"), "{e}");
    }

    proptest::proptest! {
        /// Never panics, whatever the bytes; what it accepts are distinct
        /// cells in range.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just(b'1'), proptest::strategy::Just(b'0'),
                proptest::strategy::Just(b' '), proptest::strategy::Just(b'\n'),
                proptest::strategy::Just(b'-'), proptest::strategy::Just(b'#'),
                proptest::prelude::any::<u8>()
            ], 0..80)) {
            if let Ok(parsed) = parse_blocked(&bytes) {
                proptest::prop_assert_eq!(parsed.blocked.len(), parsed.cells.len());
            }
        }
    }

    #[test]
    fn command_line_cells_and_regions() {
        assert_eq!(parse_cell("3,4").unwrap(), Cell::new(3, 4).unwrap());
        assert_eq!(parse_cell(" 3 , 4 ").unwrap(), Cell::new(3, 4).unwrap());
        assert_eq!(parse_cell("3 4").unwrap(), Cell::new(3, 4).unwrap());
        assert!(parse_cell("3 4 5").is_err());
        assert!(parse_cell("3,,4").is_err());
        assert_eq!(
            parse_region("0 1 9 8").unwrap(),
            parse_region("0,1,9,8").unwrap()
        );
        // The words of the file format (`coordinate_at`).
        assert!(parse_cell("3,-4")
            .unwrap_err()
            .starts_with("negative y coordinate -4: coordinates are 0 to 1000000000"));
        assert!(parse_cell("3,x")
            .unwrap_err()
            .starts_with("unexpected 'x', expected y coordinate"));
        assert!(parse_cell("1 2,3").is_err());
        assert_eq!(
            parse_cell(",2").unwrap_err(),
            "the x coordinate is missing: expected X,Y or X Y"
        );
        assert!(parse_cell("0x2,3")
            .unwrap_err()
            .contains("a digit, whitespace or a comma after the x coordinate"));
        assert!(parse_cell("5,5x")
            .unwrap_err()
            .contains("expected a digit or whitespace after the y coordinate"));
        assert!(parse_region("0,0,-1,9")
            .unwrap_err()
            .starts_with("negative x1 coordinate -1"));
        assert!(parse_cell("3,1000000001")
            .unwrap_err()
            .contains("out of range"));
        assert!(parse_cell("3").is_err());
        assert!(parse_cell("3,4,5").is_err());
        assert!(parse_region("0,0,9,9").is_ok());
        // Any two opposite corners name the same region.
        let region = parse_region("4,0,5,9").unwrap();
        for corners in ["5,0,4,9", "4,9,5,0", "5,9,4,0"] {
            assert_eq!(parse_region(corners).unwrap(), region, "{corners}");
        }
    }
}
